//! The 2D capsule: a segment with a radius.

use super::{Aabb, invalid};
use crate::error::Error;
use glam::Vec2;

/// A 2D capsule: every point within `radius` of the segment from `a` to `b`. The capsule
/// is closed, so a point at distance `radius` is inside.
///
/// It is the usual shape of a laser or of a character. A radius of zero makes a plain
/// segment, and `a == b` makes a disc.
///
/// A valid capsule has finite ends and a finite `radius >= 0`. [`Capsule::new`] does not
/// validate, and [`Capsule::try_new`] does. The swept kernels never report a hit for a
/// capsule with a NaN, infinite or negative value.
///
/// The layout is `#[repr(C)]` `[a_x, a_y, b_x, b_y, radius]`, five `f32`.
///
/// ```
/// use hantei::Capsule;
/// use glam::Vec2;
/// let laser = Capsule::try_new(Vec2::new(-10.0, 0.0), Vec2::new(10.0, 0.0), 0.5)?;
/// assert_eq!(laser.aabb().min, Vec2::new(-10.5, -0.5));
/// assert!(Capsule::try_new(Vec2::ZERO, Vec2::X, -1.0).is_err());
/// assert!(Capsule::try_new(Vec2::new(f32::NAN, 0.0), Vec2::X, 1.0).is_err());
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct Capsule {
    /// One end of the segment.
    pub a: Vec2,
    /// The other end of the segment.
    pub b: Vec2,
    /// The radius. It is `>= 0` when the capsule is valid.
    pub radius: f32,
}

plain_old_data!(Capsule { Vec2, Vec2, f32 });

impl Capsule {
    /// A capsule from the ends of its segment and its radius, without checks.
    #[inline]
    #[must_use]
    pub const fn new(a: Vec2, b: Vec2, radius: f32) -> Self {
        Self { a, b, radius }
    }

    /// A capsule from the ends of its segment and its radius, checked.
    ///
    /// # Errors
    /// [`Error::InvalidShape`] with index 0 when a value is NaN or infinite, or the radius
    /// is negative.
    pub fn try_new(a: Vec2, b: Vec2, radius: f32) -> Result<Self, Error> {
        let c = Self { a, b, radius };
        c.validate().map_err(invalid)?;
        Ok(c)
    }

    /// Checks that the values are finite and `radius >= 0`.
    ///
    /// # Errors
    /// A short description of the first defect found.
    pub fn validate(&self) -> Result<(), &'static str> {
        if !(self.a.is_finite() && self.b.is_finite() && self.radius.is_finite()) {
            Err("a capsule value is NaN or infinite")
        } else if self.radius < 0.0 {
            Err("negative radius")
        } else {
            Ok(())
        }
    }

    /// The smallest axis-aligned box that contains the capsule. The broad phase uses it.
    ///
    /// ```
    /// use hantei::Capsule;
    /// use glam::Vec2;
    /// let c = Capsule::new(Vec2::new(3.0, 1.0), Vec2::new(-1.0, 2.0), 1.0);
    /// assert_eq!(c.aabb().min, Vec2::new(-2.0, 0.0));
    /// assert_eq!(c.aabb().max, Vec2::new(4.0, 3.0));
    /// ```
    #[inline]
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let r = Vec2::splat(self.radius);
        Aabb::new(self.a.min(self.b) - r, self.a.max(self.b) + r)
    }

    /// The point of the segment halfway between its ends.
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec2 {
        (self.a + self.b) * 0.5
    }

    /// The capsule moved by `d`.
    #[inline]
    #[must_use]
    pub fn translated(&self, d: Vec2) -> Self {
        Self::new(self.a + d, self.b + d, self.radius)
    }
}
