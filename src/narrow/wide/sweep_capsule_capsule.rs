//! Swept capsule–capsule, eight pairs at a time (the math, the statuses and the meaning
//! of every field: [`scalar::sweep_capsule_capsule`](fn@crate::narrow::scalar::sweep_capsule_capsule)).

use super::rounded_polygon::rounded_polygon;
use super::{CapsuleW, F32W, SweepW, Vec2W, all_finite};

/// Lane `i`: capsule `a` moving by `ma` against capsule `b` moving by `mb` over one
/// frame, bit-identical to
/// [`scalar::sweep_capsule_capsule`](fn@crate::narrow::scalar::sweep_capsule_capsule).
///
/// ```
/// use hantei::Capsule;
/// use hantei::narrow::scalar;
/// use hantei::narrow::wide::{CapsuleW, PortableW, Vec2W, sweep_capsule_capsule};
/// use glam::Vec2;
/// let laser = Capsule::new(Vec2::new(10.0, -20.0), Vec2::new(10.0, 20.0), 0.5);
/// let bullet = Capsule::new(Vec2::new(-1.0, 0.0), Vec2::ZERO, 0.25);
/// let speeds: [Vec2; 8] = core::array::from_fn(|i| Vec2::new(2.0 * i as f32, i as f32));
/// let s = sweep_capsule_capsule(
///     &CapsuleW::<PortableW>::splat(&bullet), &Vec2W::from_array(&speeds),
///     &CapsuleW::splat(&laser), &Vec2W::splat(Vec2::ZERO),
/// );
/// for i in 0..8 {
///     assert_eq!(s.lane(i), scalar::sweep_capsule_capsule(&bullet, speeds[i], &laser, Vec2::ZERO));
/// }
/// assert!(!s.lane(4).is_hit() && s.lane(5).is_hit());
/// ```
#[inline(always)]
#[must_use]
pub fn sweep_capsule_capsule<W: F32W>(
    a: &CapsuleW<W>,
    ma: &Vec2W<W>,
    b: &CapsuleW<W>,
    mb: &Vec2W<W>,
) -> SweepW<W> {
    let zero = W::splat(0.0);
    let is_finite = all_finite([
        a.a.x, a.a.y, a.b.x, a.b.y, a.radius, b.a.x, b.a.y, b.b.x, b.b.y, b.radius, ma.x, ma.y,
        mb.x, mb.y,
    ]);
    let is_valid = is_finite & a.radius.ge(zero) & b.radius.ge(zero);
    let v = Vec2W {
        x: ma.x - mb.x,
        y: ma.y - mb.y,
    };
    let (ea_x, ea_y) = (a.b.x - a.a.x, a.b.y - a.a.y);
    let (eb_x, eb_y) = (b.b.x - b.a.x, b.b.y - b.a.y);
    let sub = |y: &Vec2W<W>, x: &Vec2W<W>| Vec2W {
        x: y.x - x.x,
        y: y.y - x.y,
    };
    let p0 = sub(&b.a, &a.a);
    let p1 = sub(&b.b, &a.a);
    let p2 = sub(&b.b, &a.b);
    let p3 = sub(&b.a, &a.b);
    let is_ccw = (ea_x * eb_y - ea_y * eb_x).ge(zero);
    let q1 = Vec2W {
        x: W::select(is_ccw, p1.x, p3.x),
        y: W::select(is_ccw, p1.y, p3.y),
    };
    let q3 = Vec2W {
        x: W::select(is_ccw, p3.x, p1.x),
        y: W::select(is_ccw, p3.y, p1.y),
    };
    let mag = ((a.a.x.abs() + a.a.y.abs()) + (a.b.x.abs() + a.b.y.abs()))
        + ((b.a.x.abs() + b.a.y.abs()) + (b.b.x.abs() + b.b.y.abs()));
    rounded_polygon([p0, q1, p2, q3], &v, a.radius + b.radius, mag, is_valid)
}
