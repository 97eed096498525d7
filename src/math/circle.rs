//! The 2D circle (a disc: its inside counts).

use super::{Aabb, invalid};
use crate::error::Error;
use bytemuck::{Pod, Zeroable};
use glam::Vec2;

/// A 2D disc: every point within `radius` of `center` (closed, so a point on the circle
/// is inside).
///
/// The layout is `#[repr(C)]` `[center_x, center_y, radius]` (three `f32`). [`Circle::new`]
/// does not validate; [`Circle::try_new`] does. A valid circle has a finite center and a
/// finite `radius >= 0` (zero is a point). The narrow-phase kernels never report a hit
/// for a circle with a NaN, infinite or negative value.
///
/// Precision: the swept kernels for discs (and oriented rectangles) solve quadratics in
/// `f32`, whose terms are fourth powers of lengths. They are exact to `f32` rounding
/// for shapes and motions from about `3.3e-10` units (the fourth root of
/// `f32::MIN_POSITIVE`) up; below that the terms underflow, and a contact time or a
/// stop is only as precise as if the shapes were that large (a stop then ends flush
/// within `2⁻¹⁸ · 3.3e-10` units). Game-sized coordinates are far above it.
///
/// ```
/// use hantei::narrow::scalar::overlap_circle_circle;
/// use hantei::Circle;
/// use glam::Vec2;
/// let a = Circle::try_new(Vec2::new(0.0, 0.0), 1.0)?;
/// let b = Circle::try_new(Vec2::new(3.0, 0.0), 2.0)?;
/// assert!(overlap_circle_circle(&a, &b)); // touching counts
/// assert!(Circle::try_new(Vec2::ZERO, -1.0).is_err());
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default, Pod, Zeroable)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct Circle {
    /// The center.
    pub center: Vec2,
    /// The radius (`>= 0` when valid).
    pub radius: f32,
}

impl Circle {
    /// A circle from its center and radius, unchecked.
    #[inline]
    #[must_use]
    pub const fn new(center: Vec2, radius: f32) -> Self {
        Self { center, radius }
    }

    /// A circle from its center and radius, checked.
    ///
    /// # Errors
    /// [`Error::InvalidShape`] (index 0) when a value is NaN or infinite or the radius is
    /// negative.
    pub fn try_new(center: Vec2, radius: f32) -> Result<Self, Error> {
        let c = Self { center, radius };
        c.validate().map_err(invalid)?;
        Ok(c)
    }

    /// Checks that the values are finite and `radius >= 0`.
    ///
    /// # Errors
    /// A short description of the first defect found.
    pub fn validate(&self) -> Result<(), &'static str> {
        if !(self.center.is_finite() && self.radius.is_finite()) {
            Err("a circle value is NaN or infinite")
        } else if self.radius < 0.0 {
            Err("negative radius")
        } else {
            Ok(())
        }
    }

    /// The smallest axis-aligned box containing the circle (for the broad phase).
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb::from_center_half_extents(self.center, Vec2::splat(self.radius))
    }
}
