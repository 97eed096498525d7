//! Where two shapes touch: a point on each, the normal, and how deep they overlap.
//!
//! The frame's report fills a [`ContactPoint`] for each contact it reports (see
//! [`Contact::point`](crate::frame::Contact::point)). The math works in `f64`. It is
//! deterministic and never panics: NaN in gives NaN out.
//!
//! Each shape is turned into a [`Hull`]: a rectangle (an axis-aligned box is one with
//! the world's axes) or a disc. Two functions then do the work:
//!
//! - [`separation`] finds the normal of least overlap and the overlap along it: the
//!   separating axis test for two rectangles, the centres for two discs, the closest
//!   point for a disc and a rectangle. It is one match on the pair of kinds.
//! - [`support`] gives the points of one hull farthest along a direction: a vertex, a
//!   face, or a disc's rim point. The contact points are the middle of the two facing
//!   features' common stretch across the normal.
//!
//! A new shape kind adds a `Hull` variant, its arms in `separation` and its `support`.

use super::Shape;
use glam::{DVec2, Vec2};

/// Where two shapes touch, or how they overlap, in world coordinates.
///
/// The two shapes are called `a` and `b`. In a frame's report, `a` is the first box of
/// the contact ([`Contact::boxes`](crate::frame::Contact::boxes)`.0`), or the moving box
/// of a wall hit or a static hit; `b` is the other box, the tile or the static box.
///
/// - For shapes that touch, [`a`](ContactPoint::a) and [`b`](ContactPoint::b) are the
///   same point, up to rounding, and [`depth`](ContactPoint::depth) is `0`.
/// - For shapes that overlap, `a` is the point of shape `a` that reaches farthest
///   into `b` against the normal, and `b` is a point of `b`'s surface. Moving shape
///   `a` by `normal * depth` takes point `a` onto point `b`, where the two shapes then
///   touch: `b - a = normal * depth`.
///
/// Where two faces touch along a stretch, the points are at its middle. Faces within
/// `1e-6` radians of parallel count as parallel. A rare overlap, where a small shape
/// sits deep inside a large one off its faces, has features that do not face each
/// other. Each point is then the end of its feature nearest the other, and
/// `b - a` is not along the normal.
///
/// ```
/// use hantei::{Aabb, Circle, ContactPoint, Shape};
/// use glam::Vec2;
/// // A disc of radius 1 sinks 0.25 into the top face of a box.
/// let disc = Shape::Circle(Circle::new(Vec2::new(2.0, 4.75), 1.0));
/// let block = Shape::Aabb(Aabb::from_coords(0.0, 0.0, 10.0, 4.0));
/// let p = ContactPoint::between(&disc, &block);
/// assert_eq!(p.normal, Vec2::Y); // push the disc up to separate them
/// assert_eq!(p.depth, 0.25);
/// assert_eq!(p.a, Vec2::new(2.0, 3.75)); // the disc's lowest point
/// assert_eq!(p.b, Vec2::new(2.0, 4.0)); // on the box's top face
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContactPoint {
    /// The point on shape `a`.
    pub a: Vec2,
    /// The point on shape `b`.
    pub b: Vec2,
    /// A unit vector across the contact, pointing toward `a`. Moving `a` by
    /// `normal * depth` leaves the two shapes touching.
    ///
    /// For a hit it is the hit's normal made unit. For an overlap it is the direction
    /// of least overlap. Ties go to a fixed choice: a rectangle's x axis before its y
    /// axis, `a`'s axes before `b`'s. Two discs with one centre get the world's x
    /// axis.
    pub normal: Vec2,
    /// How deep the shapes overlap along `normal`. It is `0` for shapes that only touch,
    /// and for a hit during the frame.
    pub depth: f32,
}

impl ContactPoint {
    /// The contact of two shapes that stand where they are: the direction of least
    /// overlap, the depth along it and a point on each shape.
    ///
    /// It is meant for shapes that touch or overlap. For shapes apart, the depth is `0`
    /// and the points are on the features that face each other across the widest gap.
    #[must_use]
    pub fn between(a: &Shape, b: &Shape) -> ContactPoint {
        contact_at(a, DVec2::ZERO, b, DVec2::ZERO, None)
    }

    /// The points where two touching shapes meet across `normal` (pointing toward `a`),
    /// as for a hit that a swept test found. The depth is `0`.
    ///
    /// A zero or non-finite `normal` gives [`ContactPoint::between`]'s answer.
    ///
    /// ```
    /// use hantei::{Aabb, ContactPoint, Shape};
    /// use glam::Vec2;
    /// // Two boxes meet corner to corner at (1, 1).
    /// let a = Shape::Aabb(Aabb::from_coords(1.0, 1.0, 2.0, 2.0));
    /// let b = Shape::Aabb(Aabb::from_coords(0.0, 0.0, 1.0, 1.0));
    /// let p = ContactPoint::along(&a, &b, Vec2::new(1.0, 1.0));
    /// assert_eq!((p.a, p.b, p.depth), (Vec2::ONE, Vec2::ONE, 0.0));
    /// ```
    #[must_use]
    pub fn along(a: &Shape, b: &Shape, normal: Vec2) -> ContactPoint {
        contact_at(a, DVec2::ZERO, b, DVec2::ZERO, Some(normal))
    }
}

/// The contact of `a` moved by `offset_a` and `b` moved by `offset_b`: with
/// `hit_normal`, the points across it (a hit: depth 0); without, [`separation`]'s
/// normal and depth and the points across that.
///
/// The pairs of discs and axis-aligned boxes, the frame's usual ones, each have a copy
/// of [`contact_of`] compiled for their two kinds, without its matches on the kinds.
/// The arithmetic is the same, so the answer is the same bit for bit (checked against
/// [`contact_general`] by the tests).
pub(crate) fn contact_at(
    a: &Shape,
    offset_a: DVec2,
    b: &Shape,
    offset_b: DVec2,
    hit_normal: Option<Vec2>,
) -> ContactPoint {
    // One arm, one copy, per pair.
    let hulls = || (Hull::of(a, offset_a), Hull::of(b, offset_b));
    match (a, b) {
        (Shape::Circle(_), Shape::Circle(_)) => {
            let (ha, hb) = hulls();
            contact_of(ha, hb, hit_normal)
        }
        (Shape::Circle(_), Shape::Aabb(_)) => {
            let (ha, hb) = hulls();
            contact_of(ha, hb, hit_normal)
        }
        (Shape::Aabb(_), Shape::Circle(_)) => {
            let (ha, hb) = hulls();
            contact_of(ha, hb, hit_normal)
        }
        (Shape::Aabb(_), Shape::Aabb(_)) => {
            let (ha, hb) = hulls();
            contact_of(ha, hb, hit_normal)
        }
        _ => contact_general(a, offset_a, b, offset_b, hit_normal),
    }
}

/// [`contact_at`] through one copy of [`contact_of`] for every pair of kinds.
#[inline(never)]
pub(crate) fn contact_general(
    a: &Shape,
    offset_a: DVec2,
    b: &Shape,
    offset_b: DVec2,
    hit_normal: Option<Vec2>,
) -> ContactPoint {
    contact_of(Hull::of(a, offset_a), Hull::of(b, offset_b), hit_normal)
}

/// [`contact_at`] of the hulls `ha` and `hb`.
#[inline(always)]
fn contact_of(ha: Hull, hb: Hull, hit_normal: Option<Vec2>) -> ContactPoint {
    let given = hit_normal.and_then(|n| {
        let d = n.as_dvec2();
        let len = d.length();
        (len > 0.0 && len.is_finite()).then(|| d / len)
    });
    let (normal, depth) = match given {
        Some(n) => (n, 0.0),
        // `max` maps a NaN overlap to 0 (shapes apart: 0 too).
        None => {
            let (n, overlap) = separation(&ha, &hb);
            (n, overlap.max(0.0))
        }
    };
    let (pa, pb) = points(&ha, &hb, normal);
    ContactPoint {
        a: pa.as_vec2(),
        b: pb.as_vec2(),
        normal: normal.as_vec2(),
        depth: depth as f32,
    }
}

/// Faces whose normals are within this sine of a direction face it as a whole.
const PARALLEL: f64 = 1.0e-6;

/// A shape in `f64`, moved to where the contact is.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Hull {
    /// A rectangle: centre, unit x axis (its y axis is `perp(u)`), half extents.
    Rect { c: DVec2, u: DVec2, e: DVec2 },
    /// A disc: centre and radius.
    Disc { c: DVec2, r: f64 },
    /// A capsule: the segment `c ± u·h` (`u` unit), grown by the radius `r`.
    Capsule { c: DVec2, u: DVec2, h: f64, r: f64 },
}

/// `v` turned a quarter to the left.
#[inline]
fn perp(v: DVec2) -> DVec2 {
    DVec2::new(-v.y, v.x)
}

impl Hull {
    /// `shape` moved by `offset`. An axis-aligned box's centre and half extents are
    /// exact in `f64`; a rectangle's axis is made unit (the world's x for a zero or
    /// non-finite axis).
    #[inline(always)]
    pub(crate) fn of(shape: &Shape, offset: DVec2) -> Hull {
        match shape {
            Shape::Aabb(b) => {
                let (lo, hi) = (b.min.as_dvec2(), b.max.as_dvec2());
                Hull::Rect {
                    c: (lo + hi) * 0.5 + offset,
                    u: DVec2::X,
                    e: (hi - lo) * 0.5,
                }
            }
            Shape::Circle(c) => Hull::Disc {
                c: c.center.as_dvec2() + offset,
                r: f64::from(c.radius),
            },
            Shape::Obb2(o) => {
                let u = o.axis.as_dvec2();
                let len = u.length();
                let u = if len > 0.0 && len.is_finite() {
                    u / len
                } else {
                    DVec2::X
                };
                Hull::Rect {
                    c: o.center.as_dvec2() + offset,
                    u,
                    e: o.half_extents.as_dvec2(),
                }
            }
            Shape::Capsule(k) => {
                let (p, q) = (k.a.as_dvec2(), k.b.as_dvec2());
                let d = q - p;
                let len = d.length();
                // A point-like segment lies along the world's x.
                let u = if len > 0.0 && len.is_finite() {
                    d / len
                } else {
                    DVec2::X
                };
                Hull::Capsule {
                    c: (p + q) * 0.5 + offset,
                    u,
                    h: len * 0.5,
                    r: f64::from(k.radius),
                }
            }
        }
    }

    /// The hull without its rounding, and the rounding: a capsule is its segment (a
    /// rectangle no thicker than a line) grown by its radius; the others are their own
    /// core, with no rounding.
    #[inline(always)]
    fn core(self) -> (Hull, f64) {
        match self {
            Hull::Capsule { c, u, h, r } => (
                Hull::Rect {
                    c,
                    u,
                    e: DVec2::new(h, 0.0),
                },
                r,
            ),
            other => (other, 0.0),
        }
    }
}

/// The unit normal of least overlap between `a` and `b`, pointing toward `a`, and the
/// overlap along it (negative when they are apart).
///
/// A capsule is its segment grown by its radius: the segment's separation from the
/// other shape, with the radius added to the overlap. Against a disc that is exact.
/// Between a capsule and a rectangle or another capsule the axes are the faces' (the
/// segment's direction and its normal among them), so near the segments' ends the
/// depth can be more than the least one, never less.
#[inline(always)]
pub(crate) fn separation(a: &Hull, b: &Hull) -> (DVec2, f64) {
    if matches!(a, Hull::Capsule { .. }) || matches!(b, Hull::Capsule { .. }) {
        let ((ca, ra), (cb, rb)) = (a.core(), b.core());
        let (n, overlap) = separation(&ca, &cb);
        return (n, overlap + ra + rb);
    }
    match (*a, *b) {
        (Hull::Disc { c: ca, r: ra }, Hull::Disc { c: cb, r: rb }) => {
            let d = ca - cb;
            let len = d.length();
            let n = if len > 0.0 { d / len } else { DVec2::X };
            (n, ra + rb - len)
        }
        (Hull::Rect { c, u, e }, Hull::Disc { c: p, r }) => {
            let (n, overlap) = rect_disc(c, u, e, p, r);
            (-n, overlap)
        }
        (Hull::Disc { c: p, r }, Hull::Rect { c, u, e }) => rect_disc(c, u, e, p, r),
        (
            Hull::Rect {
                c: ca,
                u: ua,
                e: ea,
            },
            Hull::Rect {
                c: cb,
                u: ub,
                e: eb,
            },
        ) => {
            // Separating axes: a's two, then b's two. The least overlap wins; ties keep
            // the first.
            let d = ca - cb;
            let (va, vb) = (perp(ua), perp(ub));
            let reach = |u: DVec2, v: DVec2, e: DVec2, ax: DVec2| {
                e.x * u.dot(ax).abs() + e.y * v.dot(ax).abs()
            };
            let mut best: Option<(f64, DVec2)> = None;
            for ax in [ua, va, ub, vb] {
                let g = d.dot(ax);
                let overlap = reach(ua, va, ea, ax) + reach(ub, vb, eb, ax) - g.abs();
                let n = if g >= 0.0 { ax } else { -ax };
                // A NaN overlap wins and stays (NaN in, NaN out).
                if best.is_none_or(|(o, _)| overlap < o || overlap.is_nan()) {
                    best = Some((overlap, n));
                }
            }
            let (overlap, n) = best.unwrap_or((f64::NAN, DVec2::X));
            (n, overlap)
        }
        // Capsules were turned into their cores above.
        (Hull::Capsule { .. }, _) | (_, Hull::Capsule { .. }) => (DVec2::X, f64::NAN),
    }
}

/// The rectangle `(c, u, e)` and the disc `(p, r)`: the unit normal from the rectangle
/// toward the disc and the overlap along it. A centre outside the rectangle: through
/// its closest point. Inside or on the boundary: the face it is least deep behind (x
/// before y on a tie, the positive side when it is on the middle line).
#[inline(always)]
fn rect_disc(c: DVec2, u: DVec2, e: DVec2, p: DVec2, r: f64) -> (DVec2, f64) {
    let v = perp(u);
    let d = p - c;
    let local = DVec2::new(d.dot(u), d.dot(v));
    let q = local.max(-e).min(e);
    let off = local - q;
    if off != DVec2::ZERO {
        let dist = off.length();
        let n = off / dist;
        return (u * n.x + v * n.y, r - dist);
    }
    let behind = e - local.abs();
    let (axis, k) = if behind.y < behind.x { (v, 1) } else { (u, 0) };
    let n = if local[k] >= 0.0 { axis } else { -axis };
    (n, r + behind[k])
}

/// The points of `h` farthest along the unit direction `d`: a segment whose two ends
/// are equal for a vertex or a disc's rim point, or a face of a rectangle whose normal
/// is within [`PARALLEL`] of `d`.
#[inline(always)]
pub(crate) fn support(h: &Hull, d: DVec2) -> [DVec2; 2] {
    match *h {
        Hull::Capsule { .. } => {
            // The segment's support, pushed out by the radius.
            let (core, r) = h.core();
            support(&core, d).map(|p| p + d * r)
        }
        Hull::Disc { c, r } => {
            let p = c + d * r;
            [p, p]
        }
        Hull::Rect { c, u, e } => {
            let v = perp(u);
            let (du, dv) = (d.dot(u), d.dot(v));
            let x = u * if du >= 0.0 { e.x } else { -e.x };
            let y = v * if dv >= 0.0 { e.y } else { -e.y };
            if dv.abs() <= PARALLEL {
                // The face across u.
                [c + x - v * e.y, c + x + v * e.y]
            } else if du.abs() <= PARALLEL {
                [c + y - u * e.x, c + y + u * e.x]
            } else {
                let p = c + x + y;
                [p, p]
            }
        }
    }
}

/// The contact points of `a` and `b` across the unit normal `n` (toward `a`): the
/// middle of the stretch, across `n`, that `a`'s feature facing `b` and `b`'s feature
/// facing `a` share, found on each feature (clamped to it when they share none).
#[inline(always)]
fn points(a: &Hull, b: &Hull, n: DVec2) -> (DVec2, DVec2) {
    let t = perp(n);
    let fa = support(a, -n);
    let fb = support(b, n);
    let span = |f: &[DVec2; 2]| {
        let (s0, s1) = (f[0].dot(t), f[1].dot(t));
        (s0, s1, s0.min(s1), s0.max(s1))
    };
    let (a0, a1, alo, ahi) = span(&fa);
    let (b0, b1, blo, bhi) = span(&fb);
    let mid = (alo.max(blo) + ahi.min(bhi)) * 0.5;
    let at = |f: &[DVec2; 2], s0: f64, s1: f64| {
        if s0 == s1 {
            return f[0];
        }
        let k = ((mid - s0) / (s1 - s0)).clamp(0.0, 1.0);
        f[0] + (f[1] - f[0]) * k
    };
    (at(&fa, a0, a1), at(&fb, b0, b1))
}

#[cfg(test)]
mod tests;
