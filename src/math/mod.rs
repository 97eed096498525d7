//! Plain geometric shapes (`Copy`, `Pod` where they are flat data).

mod aabb;
pub use aabb::Aabb;
pub(crate) use aabb::box_defect;
