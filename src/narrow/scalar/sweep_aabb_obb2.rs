//! Swept axis-aligned box against oriented box: the oriented-box sweep with `a`'s axes
//! the world's.
//!
//! The math is documented on [`sweep_aabb_obb2`](fn@super::sweep_aabb_obb2).

use super::all_finite;
use super::sweep_obb2_obb2::{is_unit, sweep_core};
use crate::math::{Aabb, Obb2};
use crate::narrow::Sweep;
use glam::Vec2;

/// Sweeps the axis-aligned box `a`, moving by `motion_a`, against the oriented box `b`,
/// moving by `motion_b`, over one frame.
///
/// This is [`sweep_obb2_obb2`](fn@super::sweep_obb2_obb2) with `a` as the oriented box
/// of axis `(1, 0)`, center `(min + max)·½` and half extents `(max - min)·½`. Every
/// status, the normal, the stop, the handling of bad input and the range are that
/// kernel's. An inverted `a`, with `min > max` on an axis, has a negative half extent
/// and is a [`Miss`](crate::narrow::SweepStatus::Miss).
///
/// The center and half extents are rounded once each. So the box swept is `a` to
/// within an ulp of its coordinates, and the stop's nudge of several ulps covers that
/// too. With `a`'s axes `(1, 0)` and `(0, 1)`, the products by `1` and `0` are exact.
/// So the answer has the bits that a dedicated axis-aligned path would give, computed
/// by the same core as the oriented pair.
///
/// ```
/// use hantei::{Aabb, Obb2};
/// use hantei::narrow::{SweepStatus, scalar::sweep_aabb_obb2};
/// use glam::Vec2;
/// // A player box falling 10 onto a slope turned 45° (a diamond of half extents 1).
/// let player = Aabb::from_coords(-0.5, 3.0, 0.5, 4.0);
/// let slope = Obb2::from_angle(Vec2::ZERO, Vec2::ONE, core::f32::consts::FRAC_PI_4);
/// let s = sweep_aabb_obb2(&player, Vec2::new(0.0, -10.0), &slope, Vec2::ZERO);
/// assert_eq!(s.status, SweepStatus::Hit);
/// // The box's bottom (y = 3) meets the diamond's top corner (y = √2): a face of `a`,
/// // so the normal is the world's up.
/// assert!((s.t - (3.0 - 2f32.sqrt()) / 10.0).abs() < 1e-6);
/// assert!((s.normal - Vec2::Y).length() < 1e-6);
/// ```
#[inline]
#[must_use]
pub fn sweep_aabb_obb2(a: &Aabb, motion_a: Vec2, b: &Obb2, motion_b: Vec2) -> Sweep {
    let v = Vec2::new(motion_a.x - motion_b.x, motion_a.y - motion_b.y);
    let ca = Vec2::new((a.min.x + a.max.x) * 0.5, (a.min.y + a.max.y) * 0.5);
    let ha = Vec2::new((a.max.x - a.min.x) * 0.5, (a.max.y - a.min.y) * 0.5);
    let (ub, hb) = (b.axis, b.half_extents);
    let is_finite = all_finite([
        ca.x - b.center.x,
        ca.y - b.center.y,
        ha.x,
        ha.y,
        ub.x,
        ub.y,
        hb.x,
        hb.y,
        v.x,
        v.y,
    ]);
    let is_valid =
        is_finite && ha.x >= 0.0 && ha.y >= 0.0 && hb.x >= 0.0 && hb.y >= 0.0 && is_unit(ub);
    sweep_core(ca, Vec2::X, ha, b, v, is_valid)
}
