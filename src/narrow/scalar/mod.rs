//! The scalar reference kernels. They test one pair at a time, in plain `f32`, with
//! early exits where the math allows them.
//!
//! Each kernel documents its math. [`wide`](super::wide) has a twin of each kernel with
//! the same name, batched over lanes, that gives bit-identical answers. The
//! [parent module](super) states this contract and the tests that hold it.
//!
//! Two rules keep the twins in step. First, `min` and `max` here are the lane `min` and
//! `max` of the SIMD layer, not `f32::min`. They follow the x86 `minps` rule,
//! `if a < b { a } else { b }`. Second, every sum is written in the same order as its
//! lane version. So each rounding happens in both places on the same operands.

mod aabb_aabb;
mod aabb_circle;
mod circle_circle;
mod obb2_obb2;
pub(crate) mod obb3_obb3;
mod ray_aabb;
pub(crate) mod rounded_polygon;
pub(crate) mod sweep_aabb_aabb;
pub(crate) mod sweep_aabb_circle;
mod sweep_aabb_obb2;
pub(crate) mod sweep_capsule_aabb;
mod sweep_capsule_capsule;
mod sweep_capsule_circle;
mod sweep_capsule_obb2;
pub(crate) mod sweep_circle_circle;
mod sweep_circle_obb2;
pub(crate) mod sweep_obb2_obb2;
mod sweep_shapes;
pub(crate) mod sweep_turning;

pub use aabb_aabb::overlap_aabb_aabb;
pub use aabb_circle::overlap_aabb_circle;
pub use circle_circle::overlap_circle_circle;
pub use obb2_obb2::overlap_obb2_obb2;
pub use obb3_obb3::overlap_obb3_obb3;
pub use ray_aabb::cast_point_aabb;
pub use sweep_aabb_aabb::sweep_aabb_aabb;
pub use sweep_aabb_circle::sweep_aabb_circle;
pub use sweep_aabb_obb2::sweep_aabb_obb2;
pub use sweep_capsule_aabb::sweep_capsule_aabb;
pub use sweep_capsule_capsule::sweep_capsule_capsule;
pub use sweep_capsule_circle::sweep_capsule_circle;
pub use sweep_capsule_obb2::sweep_capsule_obb2;
pub use sweep_circle_circle::sweep_circle_circle;
pub use sweep_circle_obb2::sweep_circle_obb2;
pub use sweep_obb2_obb2::sweep_obb2_obb2;
pub use sweep_shapes::sweep_shapes;
pub use sweep_turning::{TURN_TOLERANCE, TURN_TOLERANCE_FLOOR, sweep_turning};

/// `if a < b { a } else { b }` (the lane `min`: returns `b` when either is NaN).
#[inline(always)]
pub(crate) fn min(a: f32, b: f32) -> f32 {
    if a < b { a } else { b }
}

/// `if a > b { a } else { b }` (the lane `max`: returns `b` when either is NaN).
#[inline(always)]
pub(crate) fn max(a: f32, b: f32) -> f32 {
    if a > b { a } else { b }
}

/// Whether every value is finite: `Σ x·0 == 0`, since `x·0` is `±0` for a finite `x`
/// and NaN for NaN and `±∞`. Summed left to right, like its lane twin.
#[inline(always)]
pub(crate) fn all_finite<const N: usize>(xs: [f32; N]) -> bool {
    let mut sum = xs[0] * 0.0;
    for &x in &xs[1..] {
        sum += x * 0.0;
    }
    sum == 0.0
}
