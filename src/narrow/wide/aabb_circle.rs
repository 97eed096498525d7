//! AABB–circle overlap, eight pairs at a time (the math:
//! [`scalar::overlap_aabb_circle`](crate::narrow::scalar::overlap_aabb_circle)).

use super::{AabbW, CircleW, F32W, all_finite};

/// Lane `i`: whether the box and the disc overlap (closed); NaN, infinite or negative
/// values give `false`.
#[inline(always)]
#[must_use]
pub fn overlap_aabb_circle<W: F32W>(a: &AabbW<W>, b: &CircleW<W>) -> W::Mask {
    let qx = b.x.max(a.min_x).min(a.max_x);
    let qy = b.y.max(a.min_y).min(a.max_y);
    let dx = b.x - qx;
    let dy = b.y - qy;
    let d2 = dx * dx + dy * dy;
    let max = W::splat(f32::MAX);
    d2.le(b.radius * b.radius)
        & d2.le(max)
        & b.radius.ge(W::splat(0.0))
        & b.radius.le(max)
        & all_finite([a.min_x, a.min_y, a.max_x, a.max_y])
}
