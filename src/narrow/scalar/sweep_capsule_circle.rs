//! Swept capsule–circle: a capsule and a disc that both move during one frame, answered
//! by the rounded-polygon core with a segment for a polygon.
//!
//! The math is documented on [`sweep_capsule_circle`](fn@super::sweep_capsule_circle).

use super::all_finite;
use super::rounded_polygon::rounded_polygon;
use crate::math::{Capsule, Circle};
use crate::narrow::Sweep;
use glam::Vec2;

/// Sweeps capsule `a`, moving by `motion_a`, against disc `b`, moving by `motion_b`, over
/// one frame.
///
/// The answer says whether and when they first touch, the contact normal, and how far
/// `a` may move relative to `b` without entering it. See [`Sweep`]. The capsule moves,
/// and its rotation stays the same for the frame.
///
/// # A moving point against a rounded segment
/// Relative to `b`, `a` moves by `v = motion_a - motion_b`. The shapes touch when the
/// disc's center `q` is within `r = a.radius + b.radius` of the segment `[a.a, a.b]`.
/// Seen from the capsule's start, that is the origin, moving by `v`, within `r` of the
/// segment `[q - a.a, q - a.b]`: the point against a segment rounded by `r`. The core is
/// that of [`sweep_capsule_capsule`](fn@super::sweep_capsule_capsule), with two edges
/// (the segment's two sides) and two vertex discs. Its docs give the pieces, the
/// statuses, the normal and the stop.
///
/// A capsule whose ends are equal is a disc. Then the two edges have zero length and
/// drop out, and the vertex discs are computed exactly as in
/// [`sweep_circle_circle`](fn@super::sweep_circle_circle). The status, `t` and the
/// normal are then that kernel's, bit for bit. Only the stop's nudge differs.
///
/// # Bad input and range
/// A NaN or infinite value, or a negative radius, is a [`Miss`](crate::narrow::SweepStatus::Miss).
/// The answer is exact up to rounding for distances, lengths, motions and radii below
/// about `1.8e19`. Beyond that, the kernel answers a miss rather than guess.
///
/// ```
/// use hantei::{Capsule, Circle};
/// use hantei::narrow::{SweepStatus, scalar::sweep_capsule_circle};
/// use glam::Vec2;
/// // A laser from (0, -5) to (0, 5), 0.5 thick, and a round bullet (r = 1) flying left
/// // at 100 per frame from x = 50.
/// let laser = Capsule::new(Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0), 0.5);
/// let bullet = Circle::new(Vec2::new(50.0, 2.0), 1.0);
/// let s = sweep_capsule_circle(&laser, Vec2::ZERO, &bullet, Vec2::new(-100.0, 0.0));
/// assert_eq!(s.status, SweepStatus::Hit);
/// assert_eq!(s.t, 0.485); // (50 - 1.5) / 100
/// assert_eq!(s.normal, Vec2::new(-1.0, 0.0)); // from the bullet toward the laser
/// // Passing 7 above the laser's middle: beyond its rounded end (5 + 1.5), a miss.
/// let high = Circle::new(Vec2::new(50.0, 7.0), 1.0);
/// let s = sweep_capsule_circle(&laser, Vec2::ZERO, &high, Vec2::new(-100.0, 0.0));
/// assert_eq!(s.status, SweepStatus::Miss);
/// ```
#[inline]
#[must_use]
pub fn sweep_capsule_circle(a: &Capsule, motion_a: Vec2, b: &Circle, motion_b: Vec2) -> Sweep {
    let is_finite = all_finite([
        a.a.x, a.a.y, a.b.x, a.b.y, a.radius, b.center.x, b.center.y, b.radius, motion_a.x,
        motion_a.y, motion_b.x, motion_b.y,
    ]);
    let is_valid = is_finite && a.radius >= 0.0 && b.radius >= 0.0;
    let v = Vec2::new(motion_a.x - motion_b.x, motion_a.y - motion_b.y);
    let q = b.center;
    let p = [
        Vec2::new(q.x - a.a.x, q.y - a.a.y),
        Vec2::new(q.x - a.b.x, q.y - a.b.y),
    ];
    let mag = ((a.a.x.abs() + a.a.y.abs()) + (a.b.x.abs() + a.b.y.abs())) + (q.x.abs() + q.y.abs());
    rounded_polygon(p, v, a.radius + b.radius, mag, is_valid)
}
