//! Swept capsule–OBB (2D), eight pairs at a time (the math, the statuses and the meaning
//! of every field: [`scalar::sweep_capsule_obb2`](fn@crate::narrow::scalar::sweep_capsule_obb2)):
//! the turn into each box's frame, the lane hexagon, the turn back.

use super::sweep_capsule_aabb::capsule_box;
use super::sweep_circle_obb2::to_world;
use super::{CapsuleW, F32W, Obb2W, SweepW, Vec2W, all_finite};

/// Lane `i`: capsule `a` moving by `ma` against the oriented box `b` moving by `mb` over
/// one frame, bit-identical to
/// [`scalar::sweep_capsule_obb2`](fn@crate::narrow::scalar::sweep_capsule_obb2).
///
/// ```
/// use hantei::{Capsule, Obb2};
/// use hantei::narrow::scalar;
/// use hantei::narrow::wide::{CapsuleW, Obb2W, PortableW, Vec2W, sweep_capsule_obb2};
/// use glam::Vec2;
/// let wall = Obb2::from_angle(Vec2::new(10.0, 0.0), Vec2::new(10.0, 1.0), 1.2);
/// let bullet = Capsule::new(Vec2::new(-2.0, 1.0), Vec2::new(0.0, 1.0), 0.5);
/// let speeds: [Vec2; 8] = core::array::from_fn(|i| Vec2::new(2.0 * i as f32, 0.0));
/// let s = sweep_capsule_obb2(
///     &CapsuleW::<PortableW>::splat(&bullet), &Vec2W::from_array(&speeds),
///     &Obb2W::splat(&wall), &Vec2W::splat(Vec2::ZERO),
/// );
/// for i in 0..8 {
///     assert_eq!(s.lane(i), scalar::sweep_capsule_obb2(&bullet, speeds[i], &wall, Vec2::ZERO));
/// }
/// assert!(!s.lane(0).is_hit() && s.lane(7).is_hit());
/// ```
#[inline(always)]
#[must_use]
pub fn sweep_capsule_obb2<W: F32W>(
    a: &CapsuleW<W>,
    ma: &Vec2W<W>,
    b: &Obb2W<W>,
    mb: &Vec2W<W>,
) -> SweepW<W> {
    let zero = W::splat(0.0);
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
        ma.x,
        ma.y,
        mb.x,
        mb.y,
    ]);
    let h = &b.half_extents;
    let is_valid = is_finite & a.radius.ge(zero) & h.x.ge(zero) & h.y.ge(zero);
    let (vx, vy) = (ma.x - mb.x, ma.y - mb.y);
    let (ux, uy) = (b.axis.x, b.axis.y);
    let w = Vec2W {
        x: vx * ux + vy * uy,
        y: vy * ux - vx * uy,
    };
    let mag = ((a.a.x.abs() + a.a.y.abs()) + (a.b.x.abs() + a.b.y.abs()))
        + (b.center.x.abs() + b.center.y.abs());
    let lo = Vec2W {
        x: zero - h.x,
        y: zero - h.y,
    };
    let s = capsule_box(
        &lo,
        h,
        &to_local(&a.a, &b.center, ux, uy),
        &to_local(&a.b, &b.center, ux, uy),
        &w,
        a.radius,
        mag,
        is_valid,
    );
    to_world(&s, ux, uy, vx, vy)
}

/// `e` in the frame of a box centred at `c` with x axis `(ux, uy)`. A function, not a
/// closure: a closure the compiler does not inline is compiled without the caller's
/// target features, and its lane operations become calls.
#[inline(always)]
fn to_local<W: F32W>(e: &Vec2W<W>, c: &Vec2W<W>, ux: W, uy: W) -> Vec2W<W> {
    let (dx, dy) = (e.x - c.x, e.y - c.y);
    Vec2W {
        x: dx * ux + dy * uy,
        y: dy * ux - dx * uy,
    }
}
