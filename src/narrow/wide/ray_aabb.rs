//! Moving point against a box, eight pairs at a time (the math:
//! [`scalar::cast_point_aabb`](crate::narrow::scalar::cast_point_aabb)).

use super::sweep_aabb_aabb::sweep_core;
use super::{AabbW, F32W, RayW, SweepW, all_finite};

/// Lane `i`: the point of `ray` cast against box `b`, bit-identical to
/// [`scalar::cast_point_aabb`](crate::narrow::scalar::cast_point_aabb).
#[inline(always)]
#[must_use]
pub fn cast_point_aabb<W: F32W>(ray: &RayW<W>, b: &AabbW<W>) -> SweepW<W> {
    let is_finite = all_finite([
        ray.origin.x,
        ray.origin.y,
        ray.motion.x,
        ray.motion.y,
        b.min_x,
        b.min_y,
        b.max_x,
        b.max_y,
    ]);
    sweep_core(ray.origin, ray.origin, b, ray.motion, is_finite)
}
