//! Swept capsule–OBB (2D): a capsule and an oriented box that both move during one
//! frame, answered in the box's frame by the hexagon of
//! [`sweep_capsule_aabb`](fn@super::sweep_capsule_aabb).
//!
//! The math is documented on [`sweep_capsule_obb2`](fn@super::sweep_capsule_obb2).

use super::all_finite;
use super::sweep_capsule_aabb::capsule_box;
use super::sweep_circle_obb2::to_world;
use crate::math::{Capsule, Obb2};
use crate::narrow::Sweep;
use glam::Vec2;

/// Sweeps capsule `a`, moving by `motion_a`, against the oriented box `b`, moving by
/// `motion_b`, over one frame.
///
/// The answer says whether and when they first touch, the contact normal, and how far
/// `a` may move relative to `b` without entering it. See [`Sweep`]. Both shapes move,
/// and their rotations stay the same for the frame.
///
/// # In the box's frame
/// Let `u = b.axis` and `u⊥ = b.axis_y()`. The capsule's ends relative to the box, and
/// the relative motion `v = motion_a - motion_b`, are written along the box's axes, as
/// in [`sweep_circle_obb2`](fn@super::sweep_circle_obb2):
///
/// ```text
/// e = ((e - b.center)·u, (e - b.center)·u⊥)  for each end,   w = (v·u, v·u⊥)
/// ```
///
/// In this frame the box is `[-h, h]`, with `h = b.half_extents`, and the answer is
/// that of [`sweep_capsule_aabb`](fn@super::sweep_capsule_aabb): the hexagon
/// `box - segment` grown by the radius. The normal and the stop are turned back into
/// the world, as `n = n'.x·u + n'.y·u⊥`.
///
/// # Rounding
/// The turn into the frame rounds each coordinate once more, a relative `2⁻²³` of the
/// distances and of `|v|`, as for `sweep_circle_obb2`. The axis is used as given, so an
/// axis off unit length by `ε` scales the frame by `ε`. The stop's nudge covers the
/// world coordinates of both shapes, so adding it to the capsule in `f32` still leaves
/// it outside the box.
///
/// # Bad input and range
/// A NaN or infinite value, a negative radius or a negative half extent is a
/// [`Miss`](crate::narrow::SweepStatus::Miss). The range is that of `sweep_capsule_aabb`: distances,
/// sizes, motions and radii below about `1.8e19`.
///
/// ```
/// use hantei::{Capsule, Obb2};
/// use hantei::narrow::{SweepStatus, scalar::sweep_capsule_obb2};
/// use glam::Vec2;
/// // A wall turned a quarter, 2 thick and 20 tall, centered at x = 10; a capsule bullet
/// // (r = 0.5) flies right at 1000 per frame.
/// let wall = Obb2::new(Vec2::new(10.0, 0.0), Vec2::Y, Vec2::new(10.0, 1.0));
/// let bullet = Capsule::new(Vec2::new(-2.0, 1.0), Vec2::new(0.0, 1.0), 0.5);
/// let s = sweep_capsule_obb2(&bullet, Vec2::new(1000.0, 0.0), &wall, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Hit);
/// assert_eq!(s.t, 0.0085); // (10 - 1 - 0.5) / 1000
/// assert_eq!(s.normal, Vec2::new(-1.0, 0.0));
/// ```
#[inline]
#[must_use]
pub fn sweep_capsule_obb2(a: &Capsule, motion_a: Vec2, b: &Obb2, motion_b: Vec2) -> Sweep {
    let is_finite = all_finite([
        a.a.x,
        a.a.y,
        a.b.x,
        a.b.y,
        a.radius,
        b.center.x,
        b.center.y,
        b.axis.x,
        b.axis.y,
        b.half_extents.x,
        b.half_extents.y,
        motion_a.x,
        motion_a.y,
        motion_b.x,
        motion_b.y,
    ]);
    let h = b.half_extents;
    let is_valid = is_finite && a.radius >= 0.0 && h.x >= 0.0 && h.y >= 0.0;
    let (vx, vy) = (motion_a.x - motion_b.x, motion_a.y - motion_b.y);
    let (ux, uy) = (b.axis.x, b.axis.y);
    // Into the box's frame: along `u` and along `u⊥ = (-u.y, u.x)`.
    let local = |e: Vec2| {
        let (dx, dy) = (e.x - b.center.x, e.y - b.center.y);
        Vec2::new(dx * ux + dy * uy, dy * ux - dx * uy)
    };
    let w = Vec2::new(vx * ux + vy * uy, vy * ux - vx * uy);
    let mag = ((a.a.x.abs() + a.a.y.abs()) + (a.b.x.abs() + a.b.y.abs()))
        + (b.center.x.abs() + b.center.y.abs());
    let s = capsule_box(
        Vec2::new(0.0 - h.x, 0.0 - h.y),
        h,
        local(a.a),
        local(a.b),
        w,
        a.radius,
        mag,
        is_valid,
    );
    to_world(s, ux, uy, Vec2::new(vx, vy))
}
