//! The 2D oriented box.

use super::{Aabb, invalid};
use crate::error::Error;
use glam::Vec2;

/// A 2D oriented bounding box: a rectangle with its own axes.
///
/// Its local x axis is `axis`, a unit vector. Its local y axis is `axis` turned a
/// quarter to the left, `(-axis.y, axis.x)`, as [`Obb2::axis_y`] gives it. The box
/// stores only one axis, so the two axes are always perpendicular. The only way to get
/// a bad pair of axes is an `axis` that is not of unit length. The constructors handle
/// this in different ways:
///
/// - [`Obb2::try_new`] accepts any finite non-zero direction and **normalises** it. It
///   works in `f64`, so no finite direction overflows or underflows on the way, from
///   `(3e38, 3e38)` down to the smallest subnormal.
/// - [`Obb2::from_angle`] builds the axis from an angle. The axis is a unit vector up
///   to rounding. A NaN or infinite angle gives a NaN axis, which [`Obb2::validate`]
///   and every batch refuse.
/// - [`Obb2::new`] stores what it is given. The separating-axis test then uses the axis
///   as given. Its answer is only that of an oriented box when `|axis| = 1`.
///   [`Obb2::validate`] checks this to within [`Obb2::UNIT_TOLERANCE`].
///
/// The layout is `#[repr(C)]` `[center_x, center_y, axis_x, axis_y, half_x, half_y]`.
///
/// ```
/// use hantei::Obb2;
/// use glam::Vec2;
/// // Any non-zero direction is normalised.
/// let b = Obb2::try_new(Vec2::ZERO, Vec2::new(3.0, 4.0), Vec2::new(2.0, 1.0))?;
/// assert!((b.axis - Vec2::new(0.6, 0.8)).length() < 1e-6);
/// assert!(Obb2::try_new(Vec2::ZERO, Vec2::ZERO, Vec2::ONE).is_err());
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "super::wire::Obb2Fields")
)]
#[repr(C)]
pub struct Obb2 {
    /// The center.
    pub center: Vec2,
    /// The local x axis, a unit vector.
    pub axis: Vec2,
    /// Half the size along the local x and y axes. Both are `>= 0`.
    pub half_extents: Vec2,
}

plain_old_data!(Obb2 { Vec2, Vec2, Vec2 });

impl Obb2 {
    /// How far `|axis|` may be from 1 for [`Obb2::validate`] to accept it.
    pub const UNIT_TOLERANCE: f32 = 1.0e-4;

    /// A box from its center, unit x axis and half extents, without checks.
    #[inline]
    #[must_use]
    pub const fn new(center: Vec2, axis: Vec2, half_extents: Vec2) -> Self {
        Self {
            center,
            axis,
            half_extents,
        }
    }

    /// A box whose local x axis makes `angle` radians with the world x axis. The angle
    /// turns counter-clockwise when y points up.
    ///
    /// This does not check its input. A NaN or infinite `angle` gives a NaN axis, which
    /// [`Obb2::validate`] refuses.
    #[inline]
    #[must_use]
    pub fn from_angle(center: Vec2, half_extents: Vec2, angle: f32) -> Self {
        let (s, c) = angle.sin_cos();
        Self::new(center, Vec2::new(c, s), half_extents)
    }

    /// A box from its center, the direction of its local x axis and its half extents,
    /// checked.
    ///
    /// `axis` may have any finite non-zero length, from a subnormal to `f32::MAX` per
    /// component. It is normalised in `f64`.
    ///
    /// # Errors
    /// [`Error::InvalidShape`] with index 0 when a value is NaN or infinite, a half
    /// extent is negative, or `axis` is zero.
    pub fn try_new(center: Vec2, axis: Vec2, half_extents: Vec2) -> Result<Self, Error> {
        if !(center.is_finite() && axis.is_finite() && half_extents.is_finite()) {
            return Err(invalid("an oriented box value is NaN or infinite"));
        }
        if half_extents.x < 0.0 || half_extents.y < 0.0 {
            return Err(invalid("negative half extent"));
        }
        let unit = super::unit2(axis).ok_or(invalid("zero axis"))?;
        Ok(Self::new(center, unit, half_extents))
    }

    /// Checks that every value is finite, the half extents are `>= 0`, and `|axis|` is 1
    /// to within [`Obb2::UNIT_TOLERANCE`].
    ///
    /// # Errors
    /// A short message that names the first defect found.
    pub fn validate(&self) -> Result<(), &'static str> {
        if !(self.center.is_finite() && self.axis.is_finite() && self.half_extents.is_finite()) {
            Err("an oriented box value is NaN or infinite")
        } else if self.half_extents.x < 0.0 || self.half_extents.y < 0.0 {
            Err("negative half extent")
        } else if (self.axis.length() - 1.0).abs() > Self::UNIT_TOLERANCE {
            Err("axis is not a unit vector")
        } else {
            Ok(())
        }
    }

    /// The local y axis, which is `axis` turned a quarter to the left.
    #[inline]
    #[must_use]
    pub fn axis_y(&self) -> Vec2 {
        Vec2::new(-self.axis.y, self.axis.x)
    }

    /// The four corners, counter-clockwise when y points up.
    ///
    /// The first corner is `center - ex - ey`, where `ex` and `ey` are the axes scaled
    /// by the half extents.
    #[must_use]
    pub fn corners(&self) -> [Vec2; 4] {
        let ex = self.axis * self.half_extents.x;
        let ey = self.axis_y() * self.half_extents.y;
        let c = self.center;
        [c - ex - ey, c + ex - ey, c + ex + ey, c - ex + ey]
    }

    /// The smallest axis-aligned box that contains the rectangle. The broad phase uses
    /// it.
    #[must_use]
    pub fn aabb(&self) -> Aabb {
        let ex = (self.axis * self.half_extents.x).abs();
        let ey = (self.axis_y() * self.half_extents.y).abs();
        Aabb::from_center_half_extents(self.center, ex + ey)
    }
}
