//! Plain geometric shapes. They are all `Copy`, and `Pod` where they are flat data.

mod aabb;
mod capsule;
mod circle;
mod columns;
mod contact;
mod obb2;
mod obb3;
mod ray;
mod shape;
mod touch;
mod turn;
#[cfg(feature = "serde")]
mod wire;
pub use aabb::Aabb;
pub(crate) use aabb::box_defect;
pub use capsule::Capsule;
pub use circle::Circle;
pub use columns::{
    AabbColumns, AabbSoa, CapsuleColumns, CapsuleSoa, CircleColumns, CircleSoa, MotionColumns,
    MotionSoa, Obb2Columns, Obb2Soa, Obb3Columns, Obb3Soa, RayColumns, RaySoa,
};
pub use contact::ContactPoint;
pub(crate) use contact::contact_at;
pub use obb2::Obb2;
pub use obb3::Obb3;
pub use ray::Ray;
pub use shape::{Shape, ShapeKind};
pub(crate) use shape::{down2_finite, grow_finite, up2_finite};
pub(crate) use touch::{box_enters, enters, outside_normal};
pub use turn::MAX_TURN;
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use turn::turn_centre;
pub(crate) use turn::{rotate, sin_cos, turn_bounds, turn_capsule, turn_obb2, turn_shape};

use crate::error::Error;
use glam::Vec2;

const _: () = assert!(core::mem::size_of::<Vec2>() == 8 && core::mem::align_of::<Vec2>() <= 8);

/// `vs` as pairs of floats, `[x, y]` each, without a copy. Written here rather than
/// through glam's `bytemuck` feature, whose derive macro would slow the first build.
#[inline(always)]
pub(crate) fn vec2_records(vs: &[Vec2]) -> &[[f32; 2]] {
    // SAFETY: glam's `Vec2` is `#[repr(C)]` with the fields `x` and `y`, two `f32`, and
    // no padding (its size is 8, checked above); `[f32; 2]` has the same size and an
    // alignment no larger. So the same memory holds `vs.len()` such arrays, and the
    // lifetime and shared borrow carry over.
    unsafe { core::slice::from_raw_parts(vs.as_ptr().cast::<[f32; 2]>(), vs.len()) }
}

/// How far from the origin any shape may reach on either axis, in world units.
///
/// Every box, disc and rectangle in a [`BoxStore`](crate::BoxStore) lies within
/// `-MAX_COORDINATE ..= MAX_COORDINATE` on both axes. So does the place its motion
/// takes it to in a frame. The store refuses a shape or a motion that reaches further
/// with [`Error::OutOfRange`]. So do [`Frame::step`](crate::frame::Frame::step),
/// [`Frame::advance`](crate::frame::Frame::advance), the static level and the casts.
/// `Frame::advance` refuses a tile map that reaches further with
/// [`Error::InvalidShape`].
///
/// Below the limit, every test is exact up to rounding. The disc tests square products
/// of two lengths, and a much larger limit would overflow `f32`. A game world lives far
/// inside the limit. At this distance from the origin, neighbouring `f32` values are
/// already 8 units apart.
///
/// ```
/// use hantei::{Aabb, BoxStore, Error, MAX_COORDINATE};
/// let mut store = BoxStore::new();
/// let far = Aabb::from_coords(0.0, 0.0, 2.0 * MAX_COORDINATE, 1.0);
/// assert!(matches!(store.insert(far), Err(Error::OutOfRange { .. })));
/// ```
pub const MAX_COORDINATE: f32 = 1.0e8;

/// Whether `b` lies within `±MAX_COORDINATE` on both axes (false for NaN).
#[inline(always)]
pub(crate) fn within_limit(b: &Aabb) -> bool {
    (b.min.x >= -MAX_COORDINATE)
        & (b.min.y >= -MAX_COORDINATE)
        & (b.max.x <= MAX_COORDINATE)
        & (b.max.y <= MAX_COORDINATE)
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// `vec2_records` reads each vector's `x` and `y`, in order, in place.
    #[test]
    fn vec2_records_are_the_vectors_in_place() {
        let vs = [Vec2::new(1.0, -2.0), Vec2::new(3.5, f32::MAX), Vec2::ZERO];
        let recs = vec2_records(&vs);
        assert_eq!(recs, [[1.0, -2.0], [3.5, f32::MAX], [0.0, 0.0]]);
        assert_eq!(recs.as_ptr().cast::<u8>(), vs.as_ptr().cast::<u8>());
        assert!(vec2_records(&[]).is_empty());
    }
}
