//! The 2D circle. It is a disc, so its inside counts.

use super::{Aabb, invalid};
use crate::error::Error;
use glam::Vec2;

/// A 2D disc: every point within `radius` of `center`. The disc is closed, so a point
/// on the circle is inside.
///
/// A valid circle has a finite center and a finite `radius >= 0`. A radius of zero makes
/// a point. [`Circle::new`] does not validate, and [`Circle::try_new`] does. The
/// narrow-phase kernels never report a hit for a circle with a NaN, infinite or negative
/// value.
///
/// The layout is `#[repr(C)]` `[center_x, center_y, radius]`, three `f32`.
///
/// # Precision
/// The swept kernels for discs and oriented rectangles solve quadratics in `f32`. The
/// terms of those quadratics are fourth powers of lengths. The kernels are exact to
/// `f32` rounding for shapes and motions of about `3.3e-10` units and up, which is the
/// fourth root of `f32::MIN_POSITIVE`. Below that, the terms underflow. A contact time
/// or a stop is then only as precise as if the shapes were that large, and a stop ends
/// flush within `2⁻¹⁸ · 3.3e-10` units. Game-sized coordinates are far above this.
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
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct Circle {
    /// The center.
    pub center: Vec2,
    /// The radius. It is `>= 0` when the circle is valid.
    pub radius: f32,
}

plain_old_data!(Circle { Vec2, f32 });

impl Circle {
    /// A circle from its center and radius, without checks.
    #[inline]
    #[must_use]
    pub const fn new(center: Vec2, radius: f32) -> Self {
        Self { center, radius }
    }

    /// A circle from its center and radius, checked.
    ///
    /// # Errors
    /// [`Error::InvalidShape`] with index 0 when a value is NaN or infinite, or the radius
    /// is negative.
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

    /// The smallest axis-aligned box that contains the circle. The broad phase uses it.
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        Aabb::from_center_half_extents(self.center, Vec2::splat(self.radius))
    }
}
