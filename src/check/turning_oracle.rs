//! The f64 oracle of the turning sweep: shapes posed with the standard library's sine
//! and cosine, their exact distance from [`capsule_oracle`](super::capsule_oracle)'s
//! pieces (no quadrilateral distance of the kernel's), a sub-stepped search for the
//! first contact, and the judge. Plain `[f64; 2]` points, so that
//! `tests/narrow_sweep_turning.rs` includes this file as it is (next to
//! `capsule_oracle.rs`).

#![allow(dead_code)]

use super::capsule_oracle::{self as co, Obb, P};

/// How many sub-steps the oracle splits the frame into.
pub const STEPS: usize = 4096;

/// A shape at the start of the frame.
#[derive(Debug, Clone, Copy)]
pub enum Form {
    /// A disc.
    Disc { centre: P, r: f64 },
    /// A capsule: segment and radius. It turns about its midpoint.
    Capsule { a: P, b: P, r: f64 },
    /// A rectangle: centre, unit axis, half extents. It turns about its centre.
    Rect { centre: P, axis: P, half: P },
}

/// A shape and its motion over the frame.
#[derive(Debug, Clone, Copy)]
pub struct Body {
    /// The shape at `t = 0`.
    pub form: Form,
    /// How far its turn centre moves.
    pub motion: P,
    /// How far it turns, in radians, counter-clockwise.
    pub turn: f64,
}

/// A posed shape: a core and a radius.
#[derive(Debug, Clone, Copy)]
enum Posed {
    Point(P, f64),
    Segment(P, P, f64),
    Rect(Obb),
}

fn add(a: P, b: P) -> P {
    [a[0] + b[0], a[1] + b[1]]
}

fn scale(a: P, k: f64) -> P {
    [a[0] * k, a[1] * k]
}

fn rot(v: P, (s, c): (f64, f64)) -> P {
    [c * v[0] - s * v[1], s * v[0] + c * v[1]]
}

fn len(v: P) -> f64 {
    v[0].hypot(v[1])
}

impl Body {
    /// The turn centre at `t = 0`.
    pub fn centre(&self) -> P {
        match self.form {
            Form::Disc { centre, .. } | Form::Rect { centre, .. } => centre,
            Form::Capsule { a, b, .. } => [(a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5],
        }
    }

    /// How far the shape reaches from its turn centre.
    pub fn reach(&self) -> f64 {
        match self.form {
            Form::Disc { r, .. } => r,
            Form::Capsule { a, b, r } => len([(b[0] - a[0]) * 0.5, (b[1] - a[1]) * 0.5]) + r,
            Form::Rect { half, .. } => len(half),
        }
    }

    /// The body with its shape moved by `d`.
    pub fn shifted(&self, d: P) -> Body {
        let form = match self.form {
            Form::Disc { centre, r } => Form::Disc {
                centre: add(centre, d),
                r,
            },
            Form::Capsule { a, b, r } => Form::Capsule {
                a: add(a, d),
                b: add(b, d),
                r,
            },
            Form::Rect { centre, axis, half } => Form::Rect {
                centre: add(centre, d),
                axis,
                half,
            },
        };
        Body { form, ..*self }
    }

    fn pose(&self, t: f64) -> Posed {
        let sc = (t * self.turn).sin_cos();
        let shift = scale(self.motion, t);
        match self.form {
            Form::Disc { centre, r } => Posed::Point(add(centre, shift), r),
            Form::Capsule { a, b, r } => {
                let m = add(self.centre(), shift);
                let h = rot([(b[0] - a[0]) * 0.5, (b[1] - a[1]) * 0.5], sc);
                Posed::Segment(add(m, h), add(m, scale(h, -1.0)), r)
            }
            Form::Rect { centre, axis, half } => Posed::Rect(Obb {
                center: add(centre, shift),
                axis: rot(axis, sc),
                half,
            }),
        }
    }
}

/// The corners of an oriented box, in order.
fn corners(o: &Obb) -> [P; 4] {
    let (u, v) = (o.axis, [-o.axis[1], o.axis[0]]);
    let x = scale(u, o.half[0]);
    let y = scale(v, o.half[1]);
    let c = o.center;
    [
        add(c, add(x, y)),
        add(c, add(scale(x, -1.0), y)),
        add(c, add(scale(x, -1.0), scale(y, -1.0))),
        add(c, add(x, scale(y, -1.0))),
    ]
}

fn point_obb(q: P, o: &Obb) -> f64 {
    co::point_box(o.local(q), [-o.half[0], -o.half[1]], o.half)
}

fn obb_obb(a: &Obb, b: &Obb) -> f64 {
    // Disjoint: some edge of one is closest; meeting or nested: some edge meets the other.
    let (ka, kb) = (corners(a), corners(b));
    let mut d = f64::INFINITY;
    for i in 0..4 {
        d = d.min(co::segment_obb(ka[i], ka[(i + 1) % 4], b));
        d = d.min(co::segment_obb(kb[i], kb[(i + 1) % 4], a));
    }
    d
}

/// The gap between the shapes at time `t`: their distance, less the radii (`<= 0` in
/// contact).
pub fn gap(a: &Body, b: &Body, t: f64) -> f64 {
    use Posed::{Point, Rect, Segment};
    match (a.pose(t), b.pose(t)) {
        (Point(p, r), Point(q, s)) => len([p[0] - q[0], p[1] - q[1]]) - r - s,
        (Point(p, r), Segment(q0, q1, s)) | (Segment(q0, q1, s), Point(p, r)) => {
            co::point_segment(p, q0, q1) - r - s
        }
        (Point(p, r), Rect(o)) | (Rect(o), Point(p, r)) => point_obb(p, &o) - r,
        (Segment(p0, p1, r), Segment(q0, q1, s)) => co::segment_segment(p0, p1, q0, q1) - r - s,
        (Segment(p0, p1, r), Rect(o)) | (Rect(o), Segment(p0, p1, r)) => {
            co::segment_obb(p0, p1, &o) - r
        }
        (Rect(o), Rect(k)) => obb_obb(&o, &k),
    }
}

/// How fast the gap can change per frame: `|motion_a − motion_b| + |turn|·reach` of both.
pub fn lipschitz(a: &Body, b: &Body) -> f64 {
    len([a.motion[0] - b.motion[0], a.motion[1] - b.motion[1]])
        + a.turn.abs() * a.reach()
        + b.turn.abs() * b.reach()
}

/// The kernel's documented tolerance:
/// `(L + reach_a + reach_b) / 4096 + far / 4194304`.
pub fn tolerance(a: &Body, b: &Body) -> f64 {
    let ends = |x: &Body| {
        let c = x.centre();
        let e = add(c, x.motion);
        c[0].abs().max(c[1].abs()).max(e[0].abs()).max(e[1].abs())
    };
    let far = ends(a).max(ends(b)) + a.reach() + b.reach();
    (lipschitz(a, b) + a.reach() + b.reach()) / 4096.0 + far / 4_194_304.0
}

/// The least gap over `[lo, hi]`, by golden-section search, with its time.
fn dip(a: &Body, b: &Body, lo: f64, hi: f64) -> (f64, f64) {
    let f = |t: f64| gap(a, b, t);
    let (mut x, mut y) = (lo, hi);
    for _ in 0..60 {
        let m1 = x + (y - x) * 0.381_966;
        let m2 = y - (y - x) * 0.381_966;
        if f(m1) <= f(m2) {
            y = m2;
        } else {
            x = m1;
        }
    }
    let m = (x + y) * 0.5;
    [(f(lo), lo), (f(hi), hi), (f(m), m)]
        .into_iter()
        .fold(
            (f64::INFINITY, hi),
            |best, c| if c.0 < best.0 { c } else { best },
        )
}

/// A time `τ` at which the shapes are in contact (gap `<= 0`), no later than the first
/// contact the oracle sees: the frame in [`STEPS`] sub-steps, a golden-section search in
/// each sub-step that the gap could dip to zero in, and bisection down to the crossing.
/// `None` when it sees no contact.
pub fn first_contact(a: &Body, b: &Body) -> Option<f64> {
    let lip = lipschitz(a, b);
    let step = 1.0 / STEPS as f64;
    let mut prev = gap(a, b, 0.0);
    if prev <= 0.0 {
        return Some(0.0);
    }
    for k in 1..=STEPS {
        let (lo, hi) = ((k - 1) as f64 * step, k as f64 * step);
        let g = gap(a, b, hi);
        let mut inside = (g <= 0.0).then_some(hi);
        // Within the sub-step the gap is at least (prev + g - lip·step) / 2.
        if inside.is_none() && prev + g < lip * step {
            let (m, at) = dip(a, b, lo, hi);
            inside = (m <= 0.0).then_some(at);
        }
        if let Some(mut x) = inside {
            // gap(lo) > 0, gap(x) <= 0: close in on the crossing.
            let mut l = lo;
            for _ in 0..60 {
                let mid = (l + x) * 0.5;
                if gap(a, b, mid) <= 0.0 {
                    x = mid;
                } else {
                    l = mid;
                }
            }
            return Some(x);
        }
        prev = g;
    }
    None
}

/// What a kernel answered, in the oracle's terms.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Answer {
    /// 0 a miss, 1 a hit, 2 overlapping.
    pub status: u8,
    /// The time.
    pub t: f64,
    /// The normal.
    pub normal: P,
}

/// Judges an answer:
/// - (a) if the oracle sees contact at `τ`, a hit at `t <= τ` or overlapping (no contact
///   missed, never late);
/// - (b) a hit at `t` has a gap of at most the tolerance there (plus the `f32` rounding
///   of `t`), and no sub-step before `t` is in contact; its normal is a unit vector;
/// - (c) overlapping only when the gap at `t = 0` is `<= 0` (plus rounding).
///
/// # Errors
/// Which property failed, and the numbers that show it.
pub fn judge(a: &Body, b: &Body, got: Answer) -> Result<(), String> {
    let lip = lipschitz(a, b);
    let tol = tolerance(a, b);
    // Rounding: the kernel's and the oracle's poses and distances differ by a few
    // units of 2⁻⁵² of the coordinates.
    let far = tol * 4_194_304.0;
    let round = (far + lip) * 1e-12;
    let first = first_contact(a, b);
    if let Some(tau) = first {
        match got.status {
            0 => return Err(format!("a miss, but in contact at {tau}")),
            1 if got.t > tau => {
                return Err(format!("a hit at {}, after a contact at {tau}", got.t));
            }
            _ => {}
        }
    }
    match got.status {
        1 => {
            if !(0.0..=1.0).contains(&got.t) {
                return Err(format!("a hit at {}, outside the frame", got.t));
            }
            let g = gap(a, b, got.t);
            let allowed = tol * (1.0 + 1e-9) + lip * got.t * f64::from(f32::EPSILON) + round;
            if g > allowed {
                return Err(format!(
                    "a hit at {}, but the gap is {g} > the tolerance {tol}",
                    got.t
                ));
            }
            let before = (got.t * STEPS as f64).ceil() as usize;
            for k in 0..before.min(STEPS + 1) {
                let s = k as f64 / STEPS as f64;
                if s < got.t && gap(a, b, s) <= -round {
                    return Err(format!("a hit at {}, but in contact at {s}", got.t));
                }
            }
            let n = len(got.normal);
            if (n - 1.0).abs() > 1e-5 {
                return Err(format!("a hit whose normal {:?} is not unit", got.normal));
            }
            // Toward `a`: moving `a` along it by `δ` opens the gap by about `δ`. (Only
            // when the gap is well above rounding: else the direction is noise.)
            let delta = 16.0 * tol;
            let moved = a.shifted(scale(got.normal, delta));
            let opened = gap(&moved, b, got.t) - g;
            if g > round && opened < 0.5 * delta {
                return Err(format!(
                    "a hit whose normal {:?} does not point toward a: moving a by {delta} \
                     along it opens the gap by {opened}",
                    got.normal
                ));
            }
        }
        2 => {
            let g = gap(a, b, 0.0);
            if g > round {
                return Err(format!("overlapping, but the gap at 0 is {g}"));
            }
        }
        _ => {}
    }
    Ok(())
}
