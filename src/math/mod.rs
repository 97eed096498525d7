//! Plain geometric shapes (`Copy`, `Pod` where they are flat data).

mod aabb;
mod circle;
mod columns;
mod obb2;
mod obb3;
mod ray;
mod shape;
#[cfg(feature = "serde")]
mod wire;
pub use aabb::Aabb;
pub(crate) use aabb::box_defect;
pub use circle::Circle;
pub use columns::{
    AabbColumns, AabbSoa, CircleColumns, CircleSoa, MotionColumns, MotionSoa, Obb2Columns, Obb2Soa,
    Obb3Columns, Obb3Soa, RayColumns, RaySoa,
};
pub use obb2::Obb2;
pub use obb3::Obb3;
pub use ray::Ray;
pub use shape::{Shape, ShapeKind};
pub(crate) use shape::{down2_finite, grow, up2_finite};

use crate::error::Error;

/// `v / |v|`, computed in `f64` so that no finite `v` overflows or underflows on the way
/// (`|v|²` of `(3e38, 3e38)` or of a subnormal is out of `f32`'s range); `None` when `v`
/// is zero or not finite.
pub(crate) fn unit2(v: glam::Vec2) -> Option<glam::Vec2> {
    let d = v.as_dvec2();
    let len = d.length();
    (v.is_finite() && len > 0.0).then(|| (d / len).as_vec2())
}

/// `q / |q|`, computed in `f64` (see [`unit2`]); `None` when `q` is zero or not finite.
pub(crate) fn unit_quat(q: glam::Quat) -> Option<glam::Quat> {
    let d = q.as_dquat();
    let len = d.length();
    (q.is_finite() && len > 0.0).then(|| (d / len).as_quat())
}

/// `Err(InvalidShape)` at index 0 with `reason`, for the checked constructors.
pub(crate) fn invalid(reason: &'static str) -> Error {
    Error::InvalidShape { index: 0, reason }
}
