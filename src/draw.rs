//! Debug drawing: see the store's shapes, the walls and a frame's contacts.
//!
//! You write a small backend that can draw lines, circles and polygons: an
//! implementation of [`DebugDraw`]. The functions of this module walk the crate's data
//! and call it. Your game engine's own debug lines, an SVG file or a test that records
//! the calls can all be backends.
//!
//! After [`Frame::advance`](crate::frame::Frame::advance), one call draws the walls,
//! every shape and this frame's contacts:
//!
//! ```
//! use glam::Vec2;
//! use hantei::draw::{Color, DebugDraw, DrawOptions, draw_world};
//! use hantei::frame::{Frame, Level, layers};
//! use hantei::{BoxProps, BoxStore, Circle, Response, TileMap};
//!
//! /// A backend that counts what it is asked to draw. A real one draws it.
//! #[derive(Default)]
//! struct Counter {
//!     lines: usize,
//!     circles: usize,
//!     polygons: usize,
//! }
//!
//! impl DebugDraw for Counter {
//!     fn line(&mut self, _a: Vec2, _b: Vec2, _color: Color) {
//!         self.lines += 1;
//!     }
//!     fn circle(&mut self, _center: Vec2, _radius: f32, _color: Color) {
//!         self.circles += 1;
//!     }
//!     fn polygon(&mut self, _points: &[Vec2], _color: Color) {
//!         self.polygons += 1;
//!     }
//! }
//!
//! // A wall tile at each end of a corridor, and one bullet flying into the right one.
//! let map = TileMap::from_ascii("#....#", Vec2::splat(10.0), Vec2::ZERO)?;
//! let mut store = BoxStore::new();
//! let bullet = BoxProps::new(layers::enemy_bullet())
//!     .with_motion(Vec2::new(30.0, 0.0))
//!     .with_response(Response::Destroy);
//! store.insert_shape(Circle::new(Vec2::new(35.0, 5.0), 1.0), bullet)?;
//! let mut frame = Frame::new();
//! frame.advance(&mut store, &Level::walls(&map))?;
//!
//! let mut out = Counter::default();
//! draw_world(&mut out, &store, Some(&map), Some(frame.report()), &DrawOptions::default());
//! assert_eq!(out.polygons, 2); // the two solid tiles; the bullet is gone
//! assert_eq!(out.circles, 2); // the bullet where it hit the wall, and a ring around it
//! assert_eq!(out.lines, 1); // the wall's normal at the hit
//! # Ok::<(), hantei::Error>(())
//! ```
//!
//! # The backend
//! [`DebugDraw`] has three methods, one for each primitive. Every call draws an
//! outline in one [`Color`]. A backend may fill closed shapes if it likes. The calls
//! come in a fixed order for the same data, so two pictures of one frame are the same.
//! The functions allocate nothing.
//!
//! A game engine's immediate-mode lines map one to one. With Bevy's gizmos, `line` is
//! `gizmos.line_2d`, `circle` is `gizmos.circle_2d`, and `polygon` is
//! `gizmos.linestrip_2d` through the points and back to the first one. The colour is
//! `Color::srgba_u8(c.r, c.g, c.b, c.a)`.
//!
//! # What is drawn
//! - [`draw_tiles`]: each solid tile of a [`TileMap`], as a square.
//! - [`draw_store`]: each shape of a [`BoxStore`] in the colour of its layers. An
//!   axis-aligned box and an oriented rectangle are polygons of four corners, and a disc
//!   is a circle. It can also draw each box's swept bounds, the box joined with the box
//!   moved by its motion.
//! - [`draw_report`]: a frame's contacts, wall hits and static hits. Each one is the
//!   shapes that touched, a ring around the smaller one, and a line along the normal.
//! - [`draw_world`]: all three, in that order.
//! - [`draw_shape`]: one [`Shape`].
//!
//! [`DrawOptions`] chooses what is drawn and in which colours. Its palette gives the
//! colour of a box from its layers. [`layer_color`], the default, gives each layer of
//! [`frame::layers`](crate::frame::layers) its own colour.
//!
//! To put some boxes above others, call [`draw_store`] once for each group of layers,
//! with [`DrawOptions::layers`] set, bottom group first. `examples/bullet_hell.rs` draws
//! 50,000 enemy bullets first and faint, then the player's bullets, the player and
//! this frame's contacts on top.

use crate::frame::FrameReport;
use crate::frame::layers;
use crate::handle::BoxHandle;
use crate::math::{Aabb, ContactPoint, Shape};
use crate::store::BoxStore;
use crate::tilemap::TileMap;
use glam::{IVec2, Vec2};

/// A colour: red, green, blue and alpha, each from 0 to 255.
///
/// The channels are sRGB values, as a colour picker shows them. Alpha 255 is opaque and
/// 0 is invisible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Color {
    /// Red.
    pub r: u8,
    /// Green.
    pub g: u8,
    /// Blue.
    pub b: u8,
    /// Alpha, the opacity. 255 is opaque.
    pub a: u8,
}

impl Color {
    /// White.
    pub const WHITE: Color = Color::rgb(255, 255, 255);
    /// Black.
    pub const BLACK: Color = Color::rgb(0, 0, 0);
    /// Grey.
    pub const GREY: Color = Color::rgb(0x88, 0x88, 0x99);
    /// Red.
    pub const RED: Color = Color::rgb(0xff, 0x20, 0x20);
    /// Green.
    pub const GREEN: Color = Color::rgb(0x33, 0xff, 0x66);
    /// Blue.
    pub const BLUE: Color = Color::rgb(0x33, 0x66, 0xff);
    /// Yellow.
    pub const YELLOW: Color = Color::rgb(0xff, 0xcc, 0x00);
    /// Orange.
    pub const ORANGE: Color = Color::rgb(0xff, 0x99, 0x33);
    /// Cyan.
    pub const CYAN: Color = Color::rgb(0x66, 0xff, 0xff);
    /// Magenta.
    pub const MAGENTA: Color = Color::rgb(0xff, 0x66, 0xcc);

    /// An opaque colour.
    #[must_use]
    pub const fn rgb(r: u8, g: u8, b: u8) -> Color {
        Color { r, g, b, a: 255 }
    }

    /// A colour with its alpha.
    #[must_use]
    pub const fn rgba(r: u8, g: u8, b: u8, a: u8) -> Color {
        Color { r, g, b, a }
    }

    /// This colour with another alpha.
    #[must_use]
    pub const fn with_alpha(self, a: u8) -> Color {
        Color { a, ..self }
    }
}

/// A backend that draws debug primitives: lines, circles and polygons.
///
/// Implement it for your renderer, and the functions of [`crate::draw`] call it. Each
/// call draws an outline. A backend may fill a circle or a polygon instead, as a
/// picture of many small bullets may want. The module's page shows a backend and a
/// frame drawn through it.
///
/// Coordinates are world coordinates, the same as the store's. A backend that draws
/// on a screen maps them itself.
pub trait DebugDraw {
    /// Draws the segment from `a` to `b`.
    fn line(&mut self, a: Vec2, b: Vec2, color: Color);

    /// Draws the circle around `center`. The radius is `>= 0`.
    fn circle(&mut self, center: Vec2, radius: f32, color: Color);

    /// Draws the closed polygon through `points`, and back from the last point to the
    /// first. The points are the corners in order, without the first one repeated.
    fn polygon(&mut self, points: &[Vec2], color: Color);
}

/// What the functions of [`crate::draw`] draw, and in which colours.
///
/// The default draws every shape, this frame's contacts, wall hits and static hits, and
/// no swept bounds:
///
/// ```
/// use hantei::draw::{Color, DrawOptions};
/// use hantei::frame::layers;
///
/// // Only the player's bullets, with their swept bounds, all in cyan.
/// let options = DrawOptions {
///     swept: true,
///     layers: layers::PLAYER_BULLET,
///     palette: |_| Color::CYAN,
///     ..DrawOptions::default()
/// };
/// assert!(options.shapes && options.contacts);
/// ```
#[derive(Debug, Clone, Copy)]
pub struct DrawOptions {
    /// Draw each box's shape. Default: `true`.
    pub shapes: bool,
    /// Draw each box's swept bounds: the box joined with the box moved by its motion.
    /// They are drawn before the shapes, in the box's colour at half its alpha.
    /// Default: `false`.
    pub swept: bool,
    /// Draw this frame's contacts between bodies. Default: `true`.
    pub contacts: bool,
    /// Draw this frame's wall hits and static hits. Default: `true`.
    pub wall_hits: bool,
    /// Draw only the boxes on at least one of these layers. The default, `u32::MAX`,
    /// draws every box, even a box on no layer.
    ///
    /// It applies to [`draw_store`]. [`draw_report`] draws every contact and hit.
    pub layers: u32,
    /// The colour of a box, from its layers ([`Filter::layers`](crate::Filter::layers)).
    /// Default: [`layer_color`].
    ///
    /// A colour with alpha 0 is still drawn; the backend decides what that means.
    pub palette: fn(u32) -> Color,
    /// The colour of solid tiles. Default: grey.
    pub tile: Color,
    /// The colour of contacts between bodies. Default: red.
    pub contact: Color,
    /// The colour of wall hits and static hits. Default: white.
    pub wall_hit: Color,
    /// The radius of the ring around a contact or a hit, in world units. The normal's
    /// line is twice as long. Default: `4.0`. A radius that is negative, infinite or NaN
    /// is taken as 0.
    pub marker: f32,
}

impl Default for DrawOptions {
    fn default() -> Self {
        DrawOptions {
            shapes: true,
            swept: false,
            contacts: true,
            wall_hits: true,
            layers: u32::MAX,
            palette: layer_color,
            tile: Color::rgb(0x55, 0x55, 0x66),
            contact: Color::RED,
            wall_hit: Color::WHITE,
            marker: 4.0,
        }
    }
}

impl DrawOptions {
    /// Whether a box on `layers` is drawn.
    fn shows(&self, layers: u32) -> bool {
        self.layers == u32::MAX || layers & self.layers != 0
    }

    /// The marker's radius: a finite number `>= 0`.
    fn ring_radius(&self) -> f32 {
        if self.marker.is_finite() && self.marker > 0.0 {
            self.marker
        } else {
            0.0
        }
    }
}

/// The default palette: a colour for the layers of a box.
///
/// Each layer of [`frame::layers`](crate::frame::layers) has its own colour, and the
/// box's lowest layer decides:
///
/// | layer | colour |
/// |---|---|
/// | `PLAYER` | green |
/// | `ENEMY` | yellow |
/// | `PLAYER_BULLET` | cyan |
/// | `ENEMY_BULLET` | magenta |
/// | `WALL` | grey |
/// | a game's own layers, above `WALL` | orange, blue, violet, lime, ... in turn |
///
/// A box on every layer ([`Filter::ALL`](crate::Filter::ALL), a box inserted without
/// a filter) or on none is white.
///
/// ```
/// use hantei::draw::{Color, layer_color};
/// use hantei::frame::layers;
/// assert_eq!(layer_color(layers::PLAYER), Color::GREEN);
/// assert_eq!(layer_color(u32::MAX), Color::WHITE);
/// ```
#[must_use]
pub fn layer_color(layers: u32) -> Color {
    /// The colours of the layers above `WALL`, in turn.
    const OWN: [Color; 4] = [
        Color::ORANGE,
        Color::BLUE,
        Color::rgb(0xaa, 0x66, 0xff),
        Color::rgb(0xaa, 0xff, 0x33),
    ];
    if layers == u32::MAX || layers == 0 {
        return Color::WHITE;
    }
    let lowest = layers & layers.wrapping_neg();
    match lowest {
        layers::PLAYER => Color::GREEN,
        layers::ENEMY => Color::YELLOW,
        layers::PLAYER_BULLET => Color::CYAN,
        layers::ENEMY_BULLET => Color::MAGENTA,
        layers::WALL => Color::GREY,
        _ => {
            let above = lowest.trailing_zeros() - layers::WALL.trailing_zeros() - 1;
            OWN[above as usize % OWN.len()]
        }
    }
}

/// Draws one shape: an axis-aligned box or an oriented rectangle as a polygon of its
/// four corners, a disc as a circle, a capsule as the rectangle between its sides and
/// a circle at each end (a capsule of radius zero as its segment).
///
/// A box's corners start at its minimum and go to increasing x first, the order of
/// [`Obb2::corners`](crate::Obb2::corners).
pub fn draw_shape<D: DebugDraw + ?Sized>(out: &mut D, shape: &Shape, color: Color) {
    match shape {
        Shape::Aabb(b) => out.polygon(&corners(b), color),
        Shape::Circle(c) => out.circle(c.center, c.radius, color),
        Shape::Obb2(o) => out.polygon(&o.corners(), color),
        Shape::Capsule(c) => {
            // The body between the sides (the segment moved by the radius both ways),
            // so that a filled capsule is filled; then a circle at each end. A
            // capsule of radius 0 is its segment; one with equal ends is a disc.
            let side = (c.b - c.a).normalize_or_zero().perp() * c.radius;
            if c.radius == 0.0 {
                out.line(c.a, c.b, color);
                return;
            }
            if side != Vec2::ZERO {
                out.polygon(&[c.a + side, c.b + side, c.b - side, c.a - side], color);
            }
            out.circle(c.a, c.radius, color);
            out.circle(c.b, c.radius, color);
        }
    }
}

/// The four corners of `b`, from its minimum, increasing x first.
fn corners(b: &Aabb) -> [Vec2; 4] {
    [
        b.min,
        Vec2::new(b.max.x, b.min.y),
        b.max,
        Vec2::new(b.min.x, b.max.y),
    ]
}

/// Draws each solid tile of `map` as a square, in [`DrawOptions::tile`].
///
/// The tiles come row by row, and left to right in a row. Empty tiles and the outside
/// of the map are not drawn.
pub fn draw_tiles<D: DebugDraw + ?Sized>(out: &mut D, map: &TileMap, options: &DrawOptions) {
    for y in 0..map.height() {
        for x in 0..map.width() {
            // A map's sides are at most i32::MAX cells, so the casts are exact.
            let tile = IVec2::new(x as i32, y as i32);
            if map.is_solid(tile) {
                out.polygon(&corners(&map.tile_aabb(tile)), options.tile);
            }
        }
    }
}

/// Draws the boxes of `store`: their swept bounds when [`DrawOptions::swept`] is set,
/// then their shapes when [`DrawOptions::shapes`] is set.
///
/// Each box has the colour that [`DrawOptions::palette`] gives its layers. Only the
/// boxes on [`DrawOptions::layers`] are drawn. The boxes come in the store's dense
/// order. An empty store draws nothing.
pub fn draw_store<D: DebugDraw + ?Sized>(out: &mut D, store: &BoxStore, options: &DrawOptions) {
    let layers = store.layers();
    let shown = || (0..store.len()).filter(|&i| options.shows(layers[i]));
    if options.swept {
        let (min_x, min_y) = (store.min_x(), store.min_y());
        let (max_x, max_y) = (store.max_x(), store.max_y());
        let (dx, dy) = (store.motion_x(), store.motion_y());
        for i in shown() {
            let min = Vec2::new(min_x[i], min_y[i]);
            let max = Vec2::new(max_x[i], max_y[i]);
            let motion = Vec2::new(dx[i], dy[i]);
            let swept = Aabb::new(min.min(min + motion), max.max(max + motion));
            let color = (options.palette)(layers[i]);
            out.polygon(&corners(&swept), color.with_alpha(color.a / 2));
        }
    }
    if options.shapes {
        for i in shown() {
            if let Some(shape) = store.shape_at(i) {
                draw_shape(out, &shape, (options.palette)(layers[i]));
            }
        }
    }
}

/// Draws a frame's contacts ([`DrawOptions::contacts`]), then its wall hits and static
/// hits ([`DrawOptions::wall_hits`]).
///
/// `store` is the store the frame ran on. A contact is drawn as the two shapes that
/// touched, in [`DrawOptions::contact`], a ring around the contact point, and a line
/// from the ring's center along the contact's normal. A wall hit or a static hit is
/// drawn the same way in [`DrawOptions::wall_hit`], with the moving box's shape alone.
/// The ring's radius is [`DrawOptions::marker`]. There is no normal line for an overlap,
/// whose normal is zero.
///
/// The contact point is the middle of [`ContactPoint::a`](crate::ContactPoint::a) and
/// [`ContactPoint::b`](crate::ContactPoint::b): where the shapes touched, or the middle
/// of their overlap. A report read back without points (every field zero) gets the ring
/// at the center of the smaller shape's bounds instead.
///
/// A box that [`Frame::advance`](crate::frame::Frame::advance) destroyed is drawn where
/// it was hit ([`Destroyed::shape`](crate::frame::Destroyed::shape)). Every other box
/// is drawn where it is in `store` now: after `advance`, that is where it moved to. A
/// box that is in neither is left out. The contacts and hits come in the report's order.
pub fn draw_report<D: DebugDraw + ?Sized>(
    out: &mut D,
    store: &BoxStore,
    report: FrameReport<'_>,
    options: &DrawOptions,
) {
    // A box that left the store is looked for in `destroyed` one entry at a time, with
    // no index to build (nothing allocated): each contact or hit of a destroyed box
    // costs a pass over that list.
    let shape_of = |h: BoxHandle| {
        store.shape(h).or_else(|| {
            (report.destroyed.iter())
                .find(|d| d.handle == h)
                .map(|d| d.shape)
        })
    };
    let marker = options.ring_radius();
    let mark = |out: &mut D, shape: &Shape, point: &ContactPoint, normal: Vec2, color: Color| {
        let center = if *point == ContactPoint::default() {
            shape.bounds().center()
        } else {
            (point.a + point.b) * 0.5
        };
        out.circle(center, marker, color);
        if normal != Vec2::ZERO {
            out.line(center, center + normal * (2.0 * marker), color);
        }
    };
    if options.contacts {
        let color = options.contact;
        for c in report.contacts {
            let (a, b) = (shape_of(c.boxes.0), shape_of(c.boxes.1));
            for s in [a, b].iter().flatten() {
                draw_shape(out, s, color);
            }
            let smaller = match (a, b) {
                (Some(a), Some(b)) if area(&b) < area(&a) => b,
                (Some(a), _) => a,
                (None, Some(b)) => b,
                (None, None) => continue,
            };
            mark(out, &smaller, &c.point, c.normal, color);
        }
    }
    if options.wall_hits {
        let color = options.wall_hit;
        let hits = (report.wall_hits.iter()).map(|w| (w.handle, w.point, w.normal));
        let statics = (report.static_hits.iter()).map(|s| (s.handle, s.point, s.normal));
        for (handle, point, normal) in hits.chain(statics) {
            if let Some(shape) = shape_of(handle) {
                draw_shape(out, &shape, color);
                mark(out, &shape, &point, normal, color);
            }
        }
    }
}

/// The area of a shape's bounds, to pick the smaller shape of a contact.
fn area(shape: &Shape) -> f32 {
    let size = shape.bounds().size();
    size.x * size.y
}

/// Draws the solid tiles of `map` when there is one ([`draw_tiles`]), the boxes of
/// `store` ([`draw_store`]), and the contacts and hits of `report` when there is one
/// ([`draw_report`]), in that order.
///
/// This is the picture of one frame in one call. The module's page has an example.
pub fn draw_world<D: DebugDraw + ?Sized>(
    out: &mut D,
    store: &BoxStore,
    map: Option<&TileMap>,
    report: Option<FrameReport<'_>>,
    options: &DrawOptions,
) {
    if let Some(map) = map {
        draw_tiles(out, map, options);
    }
    draw_store(out, store, options);
    if let Some(report) = report {
        draw_report(out, store, report, options);
    }
}

#[cfg(test)]
mod tests;
