//! Swept capsule–AABB: a capsule and a box that both move during one frame, answered by
//! the rounded-polygon core with their Minkowski difference, a hexagon, for a polygon;
//! and that hexagon's construction, which
//! [`sweep_capsule_obb2`](fn@super::sweep_capsule_obb2) runs in its box's frame.
//!
//! The math is documented on [`sweep_capsule_aabb`](fn@super::sweep_capsule_aabb).

use super::all_finite;
use super::rounded_polygon::rounded_polygon;
use crate::math::{Aabb, Capsule};
use crate::narrow::Sweep;
use glam::Vec2;

/// The capsule with the segment `[a0, a1]` and the radius `r`, moving by `v` against the
/// still box `[lo, hi]`: the hexagon `box - segment` and the core. `mag` is added to the
/// magnitudes that size the nudge. The caller has checked the inputs (`is_valid`).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn capsule_box(
    lo: Vec2,
    hi: Vec2,
    a0: Vec2,
    a1: Vec2,
    v: Vec2,
    r: f32,
    mag: f32,
    is_valid: bool,
) -> Sweep {
    // The box's corners, counter-clockwise from the low one.
    let k = [
        Vec2::new(lo.x, lo.y),
        Vec2::new(hi.x, lo.y),
        Vec2::new(hi.x, hi.y),
        Vec2::new(lo.x, hi.y),
    ];
    // The quadrant of `s = a0 - a1`, which says where the hexagon doubles a corner.
    let (sx, sy) = (a0.x - a1.x, a0.y - a1.y);
    let q = if sx >= 0.0 {
        if sy >= 0.0 { 0 } else { 3 }
    } else if sy >= 0.0 {
        1
    } else {
        2
    };
    let c = |j: usize| k[(q + j) % 4];
    let from = |c: Vec2, a: Vec2| Vec2::new(c.x - a.x, c.y - a.y);
    let p = [
        from(c(0), a0),
        from(c(1), a0),
        from(c(1), a1),
        from(c(2), a1),
        from(c(3), a1),
        from(c(3), a0),
    ];
    rounded_polygon(p, v, r, mag, is_valid)
}

/// Sweeps capsule `a`, moving by `motion_a`, against box `b`, moving by `motion_b`, over
/// one frame.
///
/// The answer says whether and when they first touch, the contact normal, and how far
/// `a` may move relative to `b` without entering it. See [`Sweep`]. The capsule moves,
/// and its rotation stays the same for the frame.
///
/// # A moving point against a rounded hexagon
/// Relative to `b`, `a` moves by `v = motion_a - motion_b`. The shapes touch when the
/// capsule's segment comes within `r = a.radius` of the box. As for
/// [`sweep_capsule_capsule`](fn@super::sweep_capsule_capsule), whose docs give the
/// pieces, the statuses, the normal and the stop, that is the point `t·v` within `r` of
/// the Minkowski difference `box - segment`. That is the box swept along
/// `s = a.a - a.b`, a hexagon:
///
/// ```text
///            ●──────────●          the box's corners less a.a, and less a.b;
///           ╱           │          each corner of the box appears once, except the
///          ╱            │          two whose edges turn across s, which appear twice
///         ●──────●      │
///         │       ╲     │          (here s points up and to the right)
///         │        ╲    │
///         │         ╲   │
///         ●──────────●──●
/// ```
///
/// Its six vertices are the box's corners, counter-clockwise from the one picked by
/// the quadrant of `s`, with `a.a` or `a.b` taken off. A segment along an axis gives
/// two collinear edges, and a segment of zero length two edges of zero length. Both are
/// fine for the core: a capsule whose ends are equal is a disc, and the answer is then
/// that of [`sweep_aabb_circle`](fn@super::sweep_aabb_circle) up to rounding and to the
/// sign of the normal (the roles swap).
///
/// # Bad input and range
/// A NaN or infinite value, a negative radius, or an inverted box with `min > max` is a
/// [`Miss`](crate::narrow::SweepStatus::Miss). The answer is exact up to rounding for
/// distances, sizes, motions and radii below about `1.8e19`. Beyond that, the kernel
/// answers a miss rather than guess.
///
/// ```
/// use hantei::{Aabb, Capsule};
/// use hantei::narrow::{SweepStatus, scalar::sweep_capsule_aabb};
/// use glam::Vec2;
/// // A laser turned 45°, 0.5 thick, falling by 10 onto a floor whose top is at y = 0.
/// let floor = Aabb::from_coords(-50.0, -5.0, 50.0, 0.0);
/// let laser = Capsule::new(Vec2::new(0.0, 3.0), Vec2::new(4.0, 7.0), 0.5);
/// let s = sweep_capsule_aabb(&laser, Vec2::new(0.0, -10.0), &floor, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Hit);
/// assert_eq!(s.t, 0.25); // the low end falls 3 - 0.5
/// assert_eq!(s.normal, Vec2::new(0.0, 1.0)); // the floor's top, toward the laser
/// // Beside the floor's end: a miss.
/// let beside = Capsule::new(Vec2::new(51.0, 3.0), Vec2::new(55.0, 7.0), 0.5);
/// let s = sweep_capsule_aabb(&beside, Vec2::new(0.0, -10.0), &floor, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Miss);
/// ```
#[inline]
#[must_use]
pub fn sweep_capsule_aabb(a: &Capsule, motion_a: Vec2, b: &Aabb, motion_b: Vec2) -> Sweep {
    let is_finite = all_finite([
        a.a.x, a.a.y, a.b.x, a.b.y, a.radius, b.min.x, b.min.y, b.max.x, b.max.y, motion_a.x,
        motion_a.y, motion_b.x, motion_b.y,
    ]);
    let is_valid = is_finite && a.radius >= 0.0 && b.min.x <= b.max.x && b.min.y <= b.max.y;
    let v = Vec2::new(motion_a.x - motion_b.x, motion_a.y - motion_b.y);
    let mag = ((a.a.x.abs() + a.a.y.abs()) + (a.b.x.abs() + a.b.y.abs()))
        + ((b.min.x.abs() + b.min.y.abs()) + (b.max.x.abs() + b.max.y.abs()));
    capsule_box(b.min, b.max, a.a, a.b, v, a.radius, mag, is_valid)
}
