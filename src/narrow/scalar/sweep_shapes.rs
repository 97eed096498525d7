//! Swept test between any two [`Shape`]s: the kernel of their kinds, in canonical order.

use crate::math::Shape;
use crate::narrow::Sweep;
use glam::Vec2;

/// Sweeps shape `a`, moving by `motion_a`, against shape `b`, moving by `motion_b`. The
/// answer is seen from `a`.
///
/// The call runs the scalar kernel for the two shapes' kinds:
/// [`sweep_aabb_aabb`](fn@super::sweep_aabb_aabb),
/// [`sweep_aabb_circle`](fn@super::sweep_aabb_circle),
/// [`sweep_aabb_obb2`](fn@super::sweep_aabb_obb2),
/// [`sweep_circle_circle`](fn@super::sweep_circle_circle),
/// [`sweep_circle_obb2`](fn@super::sweep_circle_obb2),
/// [`sweep_obb2_obb2`](fn@super::sweep_obb2_obb2),
/// [`sweep_capsule_aabb`](fn@super::sweep_capsule_aabb),
/// [`sweep_capsule_circle`](fn@super::sweep_capsule_circle),
/// [`sweep_capsule_obb2`](fn@super::sweep_capsule_obb2) or
/// [`sweep_capsule_capsule`](fn@super::sweep_capsule_capsule).
///
/// The kinds come in the order `aabb`, `circle`, `obb2`, `capsule`. When `a`'s kind
/// comes after `b`'s, the kernel runs with the two swapped, and its answer is turned
/// around. The capsule kernels take the capsule first: a pair of a capsule and another
/// kind runs with the capsule first, and the answer is turned around when `b` is the
/// capsule. The
/// normal and the stop are negated as `0 - x`, so a zero stays `+0.0`. The status and
/// the time stay the same. [`Frame::step`](crate::frame::Frame::step) does exactly
/// this for every candidate pair, bit for bit.
///
/// ```
/// use hantei::{Aabb, Circle, Shape};
/// use hantei::narrow::{SweepStatus, scalar::sweep_shapes};
/// use glam::Vec2;
/// let bullet = Shape::Circle(Circle::new(Vec2::ZERO, 1.0));
/// let wall = Shape::Aabb(Aabb::from_coords(10.0, -5.0, 11.0, 5.0));
/// let s = sweep_shapes(&bullet, Vec2::new(18.0, 0.0), &wall, Vec2::ZERO);
/// assert_eq!((s.status, s.t, s.normal), (SweepStatus::Hit, 0.5, Vec2::new(-1.0, 0.0)));
/// ```
#[must_use]
pub fn sweep_shapes(a: &Shape, motion_a: Vec2, b: &Shape, motion_b: Vec2) -> Sweep {
    use Shape::{Aabb, Capsule, Circle, Obb2};
    let turned = |s: Sweep| Sweep {
        normal: Vec2::ZERO - s.normal,
        stop: Vec2::ZERO - s.stop,
        ..s
    };
    let (ma, mb) = (motion_a, motion_b);
    match (a, b) {
        (Aabb(x), Aabb(y)) => super::sweep_aabb_aabb(x, ma, y, mb),
        (Aabb(x), Circle(y)) => super::sweep_aabb_circle(x, ma, y, mb),
        (Aabb(x), Obb2(y)) => super::sweep_aabb_obb2(x, ma, y, mb),
        (Circle(x), Circle(y)) => super::sweep_circle_circle(x, ma, y, mb),
        (Circle(x), Obb2(y)) => super::sweep_circle_obb2(x, ma, y, mb),
        (Obb2(x), Obb2(y)) => super::sweep_obb2_obb2(x, ma, y, mb),
        (Circle(x), Aabb(y)) => turned(super::sweep_aabb_circle(y, mb, x, ma)),
        (Obb2(x), Aabb(y)) => turned(super::sweep_aabb_obb2(y, mb, x, ma)),
        (Obb2(x), Circle(y)) => turned(super::sweep_circle_obb2(y, mb, x, ma)),
        (Capsule(x), Aabb(y)) => super::sweep_capsule_aabb(x, ma, y, mb),
        (Capsule(x), Circle(y)) => super::sweep_capsule_circle(x, ma, y, mb),
        (Capsule(x), Obb2(y)) => super::sweep_capsule_obb2(x, ma, y, mb),
        (Capsule(x), Capsule(y)) => super::sweep_capsule_capsule(x, ma, y, mb),
        (Aabb(x), Capsule(y)) => turned(super::sweep_capsule_aabb(y, mb, x, ma)),
        (Circle(x), Capsule(y)) => turned(super::sweep_capsule_circle(y, mb, x, ma)),
        (Obb2(x), Capsule(y)) => turned(super::sweep_capsule_obb2(y, mb, x, ma)),
    }
}
