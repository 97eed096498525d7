//! Moving point against a box: the ray/slab test over one frame (seed 000; Ericson,
//! §5.3.3).
//!
//! The math is documented on [`cast_point_aabb`](fn@super::cast_point_aabb).

use super::all_finite;
use super::sweep_aabb_aabb::sweep_core;
use crate::math::{Aabb, Ray};
use crate::narrow::Sweep;

/// Casts a point that moves from `ray.origin` by `ray.motion` against the still box `b`.
///
/// The answer says whether and when the point enters the box, through which face, and
/// how far it may move without entering. [`sweep_aabb_aabb`](fn@super::sweep_aabb_aabb)
/// describes the result.
///
/// The point `p + t·m`, for `t ∈ [0, 1]`, is a box of zero size. So this is
/// [`sweep_aabb_aabb`](fn@super::sweep_aabb_aabb) with `a = [p, p]`, with the same
/// entry and exit times per axis. These are the "slabs" of Kay and Kajiya:
///
/// - On each axis, only the near face of the box can be entered. That is its left face
///   when `m.x > 0`, and its right face when `m.x < 0`.
/// - A zero component never enters and never divides.
/// - A hit point on one face counts only if the other coordinate is within the box at
///   that time. Intersecting the two axes' intervals checks this.
///
/// The [`Sweep`] result, the statuses, and the meaning of touching at `t = 0` and
/// `t = 1` are the same as for two boxes. A point that starts inside the box is
/// [`Overlapping`](crate::narrow::SweepStatus::Overlapping).
///
/// # Box against box is point against a grown box (Minkowski sum)
/// Box `a` touches box `b` at time `t` when its min corner `a.min + t·v` lies in `b`
/// grown by `a`'s size toward the negative side, `[b.min - (a.max - a.min), b.max]`. So
///
/// ```text
/// sweep_aabb_aabb(a, ma, b, mb)  ==  cast_point_aabb(Ray { a.min, ma - mb },
///                                                    [b.min - (a.max - a.min), b.max])
/// ```
///
/// in exact arithmetic, for the status, `t`, the normal and the stop. In `f32` the two
/// sides round their gaps differently: `b₀ - a₁` against `(b₀ - (a₁ - a₀)) - a₀`. The
/// tests check the identity bit for bit where that arithmetic is exact, with
/// coordinates on a grid. Elsewhere they check it within the rounding.
///
/// ```
/// use hantei::{Aabb, Ray};
/// use hantei::narrow::{SweepStatus, scalar::cast_point_aabb};
/// use glam::Vec2;
/// let b = Aabb::from_coords(2.0, 0.0, 3.0, 1.0);
/// let s = cast_point_aabb(&Ray::new(Vec2::new(0.0, 0.5), Vec2::new(4.0, 0.0)), &b);
/// assert_eq!((s.status, s.t), (SweepStatus::Hit, 0.5)); // seed 000's formula gives 1
/// assert_eq!(s.normal, Vec2::new(-1.0, 0.0));
/// // Passing above the box: the line crosses x = 2 but y is out of the face.
/// let s = cast_point_aabb(&Ray::new(Vec2::new(0.0, 1.5), Vec2::new(4.0, 0.0)), &b);
/// assert_eq!(s.status, SweepStatus::Miss);
/// ```
#[inline]
#[must_use]
pub fn cast_point_aabb(ray: &Ray, b: &Aabb) -> Sweep {
    let is_finite = all_finite([
        ray.origin.x,
        ray.origin.y,
        ray.motion.x,
        ray.motion.y,
        b.min.x,
        b.min.y,
        b.max.x,
        b.max.y,
    ]);
    sweep_core(ray.origin, ray.origin, b, ray.motion, is_finite)
}
