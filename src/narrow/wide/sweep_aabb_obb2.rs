//! Swept axis-aligned box against oriented box, eight pairs at a time (the math:
//! [`scalar::sweep_aabb_obb2`](fn@crate::narrow::scalar::sweep_aabb_obb2)): the
//! oriented-box core with `a`'s axis `(1, 0)` in every lane.

use super::sweep_obb2_obb2::{is_unit, sweep_core};
use super::{AabbW, F32W, Obb2W, SweepW, Vec2W, all_finite};

/// Lane `i`: axis-aligned box `a` moving by `motion_a` swept against oriented box `b`
/// moving by `motion_b`, bit-identical to
/// [`scalar::sweep_aabb_obb2`](fn@crate::narrow::scalar::sweep_aabb_obb2).
///
/// ```
/// use hantei::{Aabb, Obb2};
/// use hantei::narrow::scalar;
/// use hantei::narrow::wide::{AabbW, Obb2W, PortableW, Vec2W, sweep_aabb_obb2};
/// use glam::Vec2;
/// let player = Aabb::from_coords(-0.5, 3.0, 0.5, 4.0);
/// let slope = Obb2::from_angle(Vec2::ZERO, Vec2::ONE, 0.3);
/// let falls: [Vec2; 8] = core::array::from_fn(|i| Vec2::new(0.1, -(i as f32)));
/// let s = sweep_aabb_obb2(
///     &AabbW::<PortableW>::splat(&player), &Vec2W::from_array(&falls),
///     &Obb2W::splat(&slope), &Vec2W::splat(Vec2::ZERO),
/// );
/// for i in 0..8 {
///     assert_eq!(s.lane(i), scalar::sweep_aabb_obb2(&player, falls[i], &slope, Vec2::ZERO));
/// }
/// assert!(!s.lane(1).is_hit() && s.lane(7).is_hit());
/// ```
#[inline(always)]
#[must_use]
pub fn sweep_aabb_obb2<W: F32W>(
    a: &AabbW<W>,
    motion_a: &Vec2W<W>,
    b: &Obb2W<W>,
    motion_b: &Vec2W<W>,
) -> SweepW<W> {
    let (zero, half) = (W::splat(0.0), W::splat(0.5));
    let v = Vec2W {
        x: motion_a.x - motion_b.x,
        y: motion_a.y - motion_b.y,
    };
    let ca = Vec2W {
        x: (a.min_x + a.max_x) * half,
        y: (a.min_y + a.max_y) * half,
    };
    let ha = Vec2W {
        x: (a.max_x - a.min_x) * half,
        y: (a.max_y - a.min_y) * half,
    };
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
        is_finite & ha.x.ge(zero) & ha.y.ge(zero) & hb.x.ge(zero) & hb.y.ge(zero) & is_unit(&ub);
    let ua = Vec2W {
        x: W::splat(1.0),
        y: zero,
    };
    sweep_core(ca, ua, ha, b, v, is_valid)
}
