//! Plain geometric shapes (`Copy`, `Pod` where they are flat data).

mod aabb;
mod circle;
mod obb2;
mod obb3;
mod ray;
#[cfg(feature = "serde")]
mod wire;
pub use aabb::Aabb;
pub(crate) use aabb::box_defect;
pub use circle::Circle;
pub use obb2::Obb2;
pub use obb3::Obb3;
pub use ray::Ray;

use crate::error::Error;

/// `Err(InvalidShape)` at index 0 with `reason`, for the checked constructors.
pub(crate) fn invalid(reason: &'static str) -> Error {
    Error::InvalidShape { index: 0, reason }
}
