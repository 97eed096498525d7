//! Swept circle–OBB (2D): a disc and an oriented box that both move during one frame,
//! answered in the box's frame by the rounded-box core of
//! [`sweep_aabb_circle`](fn@super::sweep_aabb_circle).
//!
//! The math is documented on [`sweep_circle_obb2`](fn@super::sweep_circle_obb2).

use super::all_finite;
use super::sweep_aabb_circle::rounded_box;
use crate::math::{Circle, Obb2};
use crate::narrow::{Sweep, SweepStatus};
use glam::Vec2;

/// Sweeps disc `a`, moving by `motion_a`, against the oriented box `b`, moving by
/// `motion_b`, over one frame.
///
/// The answer says whether and when they first touch, the contact normal, and how far
/// `a` may move relative to `b` without entering it. See [`Sweep`]. The box moves, and
/// its rotation stays the same for the frame.
///
/// # In the box's frame
/// Let `u = b.axis` and `u⊥ = b.axis_y()`, which is `u` turned a quarter to the left.
/// The disc's center relative to the box, and its relative motion
/// `v = motion_a - motion_b`, are written along the box's axes:
///
/// ```text
/// c = ((a.center - b.center)·u, (a.center - b.center)·u⊥),   w = (v·u, v·u⊥),
/// ```
///
/// In this frame the box is `[-h, h]`, with `h = b.half_extents`. The disc's center
/// moves by `w` against that box grown by `r`, with rounded corners. This is exactly
/// the core of [`sweep_aabb_circle`](fn@super::sweep_aabb_circle), with the disc as the
/// moving side. The pieces, the statuses, and touching at `t = 0` and `t = 1` are the
/// same. The normal is the box's outward normal at the contact, pointing toward `a`.
/// The stop is the disc's displacement. Both are turned back into the world, as
/// `n = n'.x·u + n'.y·u⊥`.
///
/// # Rounding
/// The turn into the frame rounds each coordinate of `c` and `w` once more, with two
/// products and a sum. That is a relative `2⁻²³` of `|a.center - b.center|` and of
/// `|v|`. So the answer is the exact one for a box displaced, and a motion turned, by
/// about that much. The normal and the stop carry one more rounding on the way back.
///
/// With a unit `axis`, that is all. [`Obb2::try_new`] normalises in `f64`, to within an
/// ulp. An axis off unit length by `ε` scales the frame by `ε`, because the kernel uses
/// the axis as given, like [`overlap_obb2_obb2`](fn@super::overlap_obb2_obb2). The
/// stop's nudge is `2⁻²⁰` of the magnitudes of the world coordinates, `|a.center|` and
/// `|b.center|` taken by their components, plus those of the frame. So adding the stop
/// to `a.center` in `f32` still leaves the disc outside the box.
///
/// # Bad input and range
/// A NaN or infinite value, a negative radius or a negative half extent is a
/// [`Miss`](SweepStatus::Miss). The answer is exact up to rounding in the same range as
/// for `sweep_aabb_circle`: distances, sizes, motions and radii below about `1.8e19`.
///
/// ```
/// use hantei::{Circle, Obb2};
/// use hantei::narrow::{SweepStatus, scalar::sweep_circle_obb2};
/// use glam::Vec2;
/// // A laser 40 long and 0.2 thick, turned 45°, and a fast round bullet (r = 0.5)
/// // crossing it at right angles: caught, however fast.
/// let laser = Obb2::from_angle(Vec2::ZERO, Vec2::new(20.0, 0.1), core::f32::consts::FRAC_PI_4);
/// let bullet = Circle::new(Vec2::new(-10.0, 10.0), 0.5);
/// let s = sweep_circle_obb2(&bullet, Vec2::new(1.0e5, -1.0e5), &laser, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Hit);
/// let gap = 200f32.sqrt() - 0.6; // center to center, less r and the half thickness
/// assert!((s.t * 1.0e5 * 2f32.sqrt() - gap).abs() < 0.05);
/// // The normal is the laser's face toward the bullet: up and to the left.
/// let n = Vec2::new(-1.0, 1.0) / 2f32.sqrt();
/// assert!((s.normal - n).length() < 1e-6);
/// // Passing beyond the laser's end (20 along its axis): a miss.
/// let wide = Circle::new(Vec2::new(-10.0 + 16.0, 10.0 + 16.0), 0.5);
/// let s = sweep_circle_obb2(&wide, Vec2::new(1.0e5, -1.0e5), &laser, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Miss);
/// ```
#[inline]
#[must_use]
pub fn sweep_circle_obb2(a: &Circle, motion_a: Vec2, b: &Obb2, motion_b: Vec2) -> Sweep {
    let is_finite = all_finite([
        a.center.x,
        a.center.y,
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
    let is_valid = is_finite && h.x >= 0.0 && h.y >= 0.0;
    let (vx, vy) = (motion_a.x - motion_b.x, motion_a.y - motion_b.y);
    let (dx, dy) = (a.center.x - b.center.x, a.center.y - b.center.y);
    let (ux, uy) = (b.axis.x, b.axis.y);
    // Into the box's frame: along `u` and along `u⊥ = (-u.y, u.x)`.
    let c = Vec2::new(dx * ux + dy * uy, dy * ux - dx * uy);
    let w = Vec2::new(vx * ux + vy * uy, vy * ux - vx * uy);
    let mag = ((a.center.x.abs() + a.center.y.abs()) + b.center.x.abs()) + b.center.y.abs();
    let s = rounded_box(
        Vec2::new(0.0 - h.x, 0.0 - h.y),
        h,
        c,
        w,
        a.radius,
        mag,
        is_valid,
    );
    to_world(s, ux, uy, Vec2::new(vx, vy))
}

/// A sweep `s` found in a box's frame, whose x axis is `(ux, uy)`, turned back into
/// the world: a hit's normal and stop as `n.x·u + n.y·u⊥`. A miss stops at the whole
/// relative motion `v`; an overlap is as found.
#[inline(always)]
pub(super) fn to_world(s: Sweep, ux: f32, uy: f32, v: Vec2) -> Sweep {
    match s.status {
        SweepStatus::Miss => Sweep {
            status: SweepStatus::Miss,
            t: 1.0,
            normal: Vec2::ZERO,
            stop: v,
        },
        SweepStatus::Overlapping => s,
        SweepStatus::Hit => Sweep {
            status: SweepStatus::Hit,
            t: s.t,
            normal: Vec2::new(
                s.normal.x * ux - s.normal.y * uy,
                s.normal.x * uy + s.normal.y * ux,
            ),
            stop: Vec2::new(s.stop.x * ux - s.stop.y * uy, s.stop.x * uy + s.stop.y * ux),
        },
    }
}
