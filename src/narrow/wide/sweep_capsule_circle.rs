//! Swept capsule–circle, eight pairs at a time (the math, the statuses and the meaning
//! of every field: [`scalar::sweep_capsule_circle`](fn@crate::narrow::scalar::sweep_capsule_circle)).

use super::rounded_polygon::rounded_polygon;
use super::{CapsuleW, CircleW, F32W, SweepW, Vec2W, all_finite};

/// Lane `i`: capsule `a` moving by `ma` against disc `b` moving by `mb` over one frame,
/// bit-identical to
/// [`scalar::sweep_capsule_circle`](fn@crate::narrow::scalar::sweep_capsule_circle).
///
/// ```
/// use hantei::{Capsule, Circle};
/// use hantei::narrow::scalar;
/// use hantei::narrow::wide::{CapsuleW, CircleW, PortableW, Vec2W, sweep_capsule_circle};
/// use glam::Vec2;
/// let laser = Capsule::new(Vec2::new(0.0, -5.0), Vec2::new(0.0, 5.0), 0.5);
/// let bullet = Circle::new(Vec2::new(8.0, 3.0), 1.0);
/// let speeds: [Vec2; 8] = core::array::from_fn(|i| Vec2::new(-2.0 * i as f32, 0.0));
/// let s = sweep_capsule_circle(
///     &CapsuleW::<PortableW>::splat(&laser), &Vec2W::splat(Vec2::ZERO),
///     &CircleW::splat(&bullet), &Vec2W::from_array(&speeds),
/// );
/// for i in 0..8 {
///     assert_eq!(s.lane(i), scalar::sweep_capsule_circle(&laser, Vec2::ZERO, &bullet, speeds[i]));
/// }
/// assert!(!s.lane(2).is_hit() && s.lane(4).is_hit());
/// ```
#[inline(always)]
#[must_use]
pub fn sweep_capsule_circle<W: F32W>(
    a: &CapsuleW<W>,
    ma: &Vec2W<W>,
    b: &CircleW<W>,
    mb: &Vec2W<W>,
) -> SweepW<W> {
    let zero = W::splat(0.0);
    let is_finite = all_finite([
        a.a.x, a.a.y, a.b.x, a.b.y, a.radius, b.x, b.y, b.radius, ma.x, ma.y, mb.x, mb.y,
    ]);
    let is_valid = is_finite & a.radius.ge(zero) & b.radius.ge(zero);
    let v = Vec2W {
        x: ma.x - mb.x,
        y: ma.y - mb.y,
    };
    let p = [
        Vec2W {
            x: b.x - a.a.x,
            y: b.y - a.a.y,
        },
        Vec2W {
            x: b.x - a.b.x,
            y: b.y - a.b.y,
        },
    ];
    let mag = ((a.a.x.abs() + a.a.y.abs()) + (a.b.x.abs() + a.b.y.abs())) + (b.x.abs() + b.y.abs());
    rounded_polygon(p, &v, a.radius + b.radius, mag, is_valid)
}
