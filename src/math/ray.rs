//! A moving point: a segment swept over one frame.

use super::invalid;
use crate::error::Error;
use glam::Vec2;

/// A point that moves from `origin` to `origin + motion` during one frame, at constant
/// speed. At time `t ∈ [0, 1]` it is at `origin + t * motion`.
///
/// A ray can stand for a bullet treated as a point. It is also the reduced form of a
/// moving box, as [`narrow`](crate::narrow) explains. When a point and a box both
/// move, give the ray the point's motion minus the box's. The box then stands still
/// relative to the point.
///
/// The layout is `#[repr(C)]` `[origin_x, origin_y, motion_x, motion_y]`.
///
/// ```
/// use hantei::Ray;
/// use glam::Vec2;
/// let r = Ray::new(Vec2::new(1.0, 2.0), Vec2::new(4.0, 0.0));
/// assert_eq!(r.at(0.5), Vec2::new(3.0, 2.0));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct Ray {
    /// Where the point is at `t = 0`.
    pub origin: Vec2,
    /// How far the point moves by `t = 1`. This is a per-frame displacement, not a unit
    /// direction.
    pub motion: Vec2,
}

plain_old_data!(Ray { Vec2, Vec2 });

impl Ray {
    /// A moving point from its start and its displacement, without checks.
    #[inline]
    #[must_use]
    pub const fn new(origin: Vec2, motion: Vec2) -> Self {
        Self { origin, motion }
    }

    /// A moving point, checked.
    ///
    /// # Errors
    /// [`Error::InvalidShape`] with index 0 when a value is NaN or infinite.
    pub fn try_new(origin: Vec2, motion: Vec2) -> Result<Self, Error> {
        let r = Self { origin, motion };
        r.validate().map_err(invalid)?;
        Ok(r)
    }

    /// Checks that every value is finite.
    ///
    /// # Errors
    /// A short message that names the defect.
    pub fn validate(&self) -> Result<(), &'static str> {
        if self.origin.is_finite() && self.motion.is_finite() {
            Ok(())
        } else {
            Err("a ray value is NaN or infinite")
        }
    }

    /// The position at time `t`, which is `origin + t * motion`.
    #[inline]
    #[must_use]
    pub fn at(&self, t: f32) -> Vec2 {
        self.origin + self.motion * t
    }
}
