//! An SVG picture drawn through hantei's [`DebugDraw`]. An example that draws has
//! `mod svg;`.
//!
//! [`Svg`] is one backend of the trait: each call is one SVG element. Calls in a row
//! with the same colour and [`Style`] share one `<g>` group, which holds the colour,
//! so a picture of 50,000 bullets stays a few megabytes. An axis-aligned polygon of four
//! corners is written as a `<rect>`.
//!
//! The picture's own parts that are not shapes, the background and the legend, are
//! methods of [`Svg`].

#![allow(dead_code)]

use glam::Vec2;
use hantei::Aabb;
use hantei::draw::{Color, DebugDraw};
use std::fmt::Write as _;

/// How the next circles and polygons are drawn. Lines are always stroked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Style {
    /// Filled with the colour, no outline: many small bullets.
    Fill,
    /// An outline this many pixels wide, whatever the picture's scale.
    Stroke(f32),
}

/// An SVG picture of a part of the world.
pub struct Svg {
    out: String,
    /// World units per pixel of the picture.
    unit: f32,
    /// The world's part that the picture shows.
    view: Aabb,
    style: Style,
    /// The smallest radius of a circle, in world units.
    min_radius: f32,
    /// The colour and style of the `<g>` group that is open, if one is.
    open: Option<(Color, Style)>,
}

impl Svg {
    /// A picture of `view`, `width` pixels wide, on a background of `background`.
    pub fn new(view: Aabb, width: f32, background: Color) -> Svg {
        let size = view.size();
        let unit = if width > 0.0 && size.x > 0.0 {
            size.x / width
        } else {
            1.0
        };
        let mut out = String::new();
        let _ = writeln!(
            out,
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{} {} {} {}" width="{width}" height="{}">"#,
            view.min.x,
            view.min.y,
            size.x,
            size.y,
            (size.y / unit).round()
        );
        let mut svg = Svg {
            out,
            unit,
            view,
            style: Style::Fill,
            min_radius: 0.0,
            open: None,
        };
        svg.polygon(
            &[
                view.min,
                Vec2::new(view.max.x, view.min.y),
                view.max,
                Vec2::new(view.min.x, view.max.y),
            ],
            background,
        );
        svg
    }

    /// World units per pixel: a size of `n` pixels is `n * unit()` world units.
    pub fn unit(&self) -> f32 {
        self.unit
    }

    /// Sets how the next circles and polygons are drawn.
    pub fn set_style(&mut self, style: Style) {
        self.style = style;
    }

    /// Draws the next circles at least `px` pixels in radius (0: at their own size), so
    /// that a few small bullets stand out among many.
    pub fn set_min_radius(&mut self, px: f32) {
        self.min_radius = px.max(0.0) * self.unit;
    }

    /// The legend: a coloured swatch and a line of text for each entry, in a dark box
    /// at the view's top-left corner, `inset` world units in.
    pub fn legend(&mut self, entries: &[(Color, &str)], inset: f32) {
        self.close();
        let fs = (14.0 * self.unit).round().max(1.0);
        let (x0, y0) = (self.view.min.x + inset, self.view.min.y + inset);
        let _ = write!(
            self.out,
            r##"<g id="legend" font-family="sans-serif" font-size="{fs}"><rect x="{x0}" y="{y0}" width="{}" height="{}" fill="#000" fill-opacity="0.75"/>"##,
            fs * 32.0,
            fs * 1.5 * (entries.len() as f32 + 0.5)
        );
        for (k, (color, text)) in entries.iter().enumerate() {
            let y = y0 + fs * 1.5 * (k as f32 + 1.0);
            let _ = write!(
                self.out,
                r##"<rect x="{}" y="{:.1}" width="{fs}" height="{fs}" fill="{}"{}/><text x="{}" y="{y}" fill="#e0e0e0">{text}</text>"##,
                x0 + fs * 0.5,
                y - fs * 0.85,
                hex(*color),
                opacity("fill", *color),
                x0 + fs * 2.0,
            );
        }
        self.out.push_str("</g>\n");
    }

    /// The finished picture.
    pub fn finish(mut self) -> String {
        self.close();
        self.out.push_str("</svg>\n");
        self.out
    }

    /// Writes the finished picture to `path`, making its folder if needed.
    pub fn write(self, path: &str) -> std::io::Result<()> {
        if let Some(dir) = std::path::Path::new(path).parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, self.finish())
    }

    /// Opens a group for `color` and `style` unless it is the open one.
    fn group(&mut self, color: Color, style: Style) {
        if self.open == Some((color, style)) {
            return;
        }
        self.close();
        let c = hex(color);
        let _ = match style {
            Style::Fill => write!(self.out, r#"<g fill="{c}"{}>"#, opacity("fill", color)),
            Style::Stroke(px) => write!(
                self.out,
                r#"<g fill="none" stroke="{c}"{} stroke-width="{}">"#,
                opacity("stroke", color),
                short(px * self.unit)
            ),
        };
        self.open = Some((color, style));
    }

    fn close(&mut self) {
        if self.open.take().is_some() {
            self.out.push_str("</g>\n");
        }
    }
}

impl DebugDraw for Svg {
    fn line(&mut self, a: Vec2, b: Vec2, color: Color) {
        let style = match self.style {
            Style::Fill => Style::Stroke(1.0),
            stroke => stroke,
        };
        self.group(color, style);
        let _ = write!(
            self.out,
            r#"<line x1="{:.1}" y1="{:.1}" x2="{:.1}" y2="{:.1}"/>"#,
            a.x, a.y, b.x, b.y
        );
    }

    fn circle(&mut self, center: Vec2, radius: f32, color: Color) {
        self.group(color, self.style);
        let _ = write!(
            self.out,
            r#"<circle cx="{:.1}" cy="{:.1}" r="{}"/>"#,
            center.x,
            center.y,
            short(radius.max(self.min_radius))
        );
    }

    fn polygon(&mut self, points: &[Vec2], color: Color) {
        if points.is_empty() {
            return;
        }
        self.group(color, self.style);
        if let [a, b, c, d] = points
            && a.y == b.y
            && b.x == c.x
            && c.y == d.y
            && d.x == a.x
        {
            let (min, max) = (a.min(*c), a.max(*c));
            let _ = write!(
                self.out,
                r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"/>"#,
                min.x,
                min.y,
                max.x - min.x,
                max.y - min.y
            );
            return;
        }
        self.out.push_str(r#"<polygon points=""#);
        for (k, p) in points.iter().enumerate() {
            let sep = if k == 0 { "" } else { " " };
            let _ = write!(self.out, "{sep}{:.1},{:.1}", p.x, p.y);
        }
        self.out.push_str(r#""/>"#);
    }
}

/// `#rrggbb`.
fn hex(c: Color) -> String {
    format!("#{:02x}{:02x}{:02x}", c.r, c.g, c.b)
}

/// ` fill-opacity="0.8"` (for `what` = "fill"), or nothing for an opaque colour.
fn opacity(what: &str, c: Color) -> String {
    if c.a == 255 {
        String::new()
    } else {
        format!(r#" {what}-opacity="{}""#, short(f32::from(c.a) / 255.0))
    }
}

/// A number with at most two decimals and no trailing zeros: `2.5`, `0.8`, `3`.
fn short(x: f32) -> String {
    let s = format!("{x:.2}");
    let s = s.trim_end_matches('0').trim_end_matches('.');
    if s.is_empty() || s == "-" {
        "0".into()
    } else {
        s.into()
    }
}
