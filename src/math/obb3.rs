//! The 3D oriented box.

use super::invalid;
use crate::error::Error;
use glam::{Quat, Vec3};

/// A 3D oriented bounding box: a cuboid with its own orthonormal axes.
///
/// A point `p` is inside when `|(p - center) · axes[i]| <= half_extents[i]` for each
/// `i` in 0..3. The separating-axis test in [`narrow`](crate::narrow) relies on
/// orthonormal axes: each of unit length, and each perpendicular to the others.
/// Handedness does not matter. The constructors handle the axes in different ways:
///
/// - [`Obb3::from_rotation`] builds the axes from a quaternion of any finite non-zero
///   length. It normalises the quaternion in `f64`, so `1e20 · q` and `1e-30 · q` turn
///   as `q` does. The axes are orthonormal up to rounding. A zero or non-finite
///   quaternion gives NaN axes, which [`Obb3::validate`] and every batch refuse.
///   [`Obb3::try_from_rotation`] refuses such a quaternion with an error instead.
/// - [`Obb3::try_new`] **rejects** axes that are not orthonormal to within
///   [`Obb3::ORTHONORMAL_TOLERANCE`]. It **re-orthonormalises** the axes it accepts, by
///   Gram–Schmidt. So a rotation that drifted by rounding is cleaned up, while a shear
///   or a scale hidden in the axes is an error rather than a silently wrong answer.
/// - [`Obb3::new`] stores what it is given. The kernels then test the axes as given.
///
/// The layout is `#[repr(C)]`: `center`, `axes[0]`, `axes[1]`, `axes[2]` and
/// `half_extents`, three `f32` each, fifteen in all.
///
/// ```
/// use hantei::Obb3;
/// use glam::{Quat, Vec3};
/// let a = Obb3::from_rotation(Vec3::ZERO, Quat::from_rotation_z(0.5), Vec3::ONE);
/// assert_eq!(a.validate(), Ok(()));
/// // A sheared frame is refused.
/// let sheared = [Vec3::X, Vec3::new(0.5, 1.0, 0.0), Vec3::Z];
/// assert!(Obb3::try_new(Vec3::ZERO, sheared, Vec3::ONE).is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "super::wire::Obb3Fields")
)]
#[repr(C)]
pub struct Obb3 {
    /// The center.
    pub center: Vec3,
    /// The local axes, orthonormal.
    pub axes: [Vec3; 3],
    /// Half the size along each local axis. Each is `>= 0`.
    pub half_extents: Vec3,
}

plain_old_data!(Obb3 { Vec3, [Vec3; 3], Vec3 });

impl Obb3 {
    /// How far each `axes[i] · axes[j]` may be from `δ_ij` for [`Obb3::try_new`] and
    /// [`Obb3::validate`] to accept the axes.
    pub const ORTHONORMAL_TOLERANCE: f32 = 1.0e-3;

    /// A box from its center, axes and half extents, without checks.
    #[inline]
    #[must_use]
    pub const fn new(center: Vec3, axes: [Vec3; 3], half_extents: Vec3) -> Self {
        Self {
            center,
            axes,
            half_extents,
        }
    }

    /// A box whose axes are the world axes turned by `rotation`.
    ///
    /// `rotation` is normalised first, in `f64`, so any finite non-zero length works.
    /// This does not check its input. A zero or non-finite `rotation` gives NaN axes.
    /// [`Obb3::try_from_rotation`] refuses such a rotation instead.
    #[must_use]
    pub fn from_rotation(center: Vec3, rotation: Quat, half_extents: Vec3) -> Self {
        let q = super::unit_quat(rotation).unwrap_or(Quat::from_xyzw(
            f32::NAN,
            f32::NAN,
            f32::NAN,
            f32::NAN,
        ));
        Self::new(
            center,
            [q * Vec3::X, q * Vec3::Y, q * Vec3::Z],
            half_extents,
        )
    }

    /// [`Obb3::from_rotation`], with checks.
    ///
    /// ```
    /// use hantei::Obb3;
    /// use glam::{Quat, Vec3};
    /// // A quarter turn about z, given at any scale.
    /// let q = Quat::from_xyzw(0.0, 0.0, 1e20, 1e20);
    /// let b = Obb3::try_from_rotation(Vec3::ZERO, q, Vec3::ONE)?;
    /// assert!((b.axes[0] - Vec3::Y).length() < 1e-6);
    /// assert!(Obb3::try_from_rotation(Vec3::ZERO, Quat::from_xyzw(0.0, 0.0, 0.0, 0.0), Vec3::ONE).is_err());
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidShape`] with index 0 when a value is NaN or infinite, a half
    /// extent is negative, or `rotation` is zero.
    pub fn try_from_rotation(
        center: Vec3,
        rotation: Quat,
        half_extents: Vec3,
    ) -> Result<Self, Error> {
        if !(center.is_finite() && rotation.is_finite() && half_extents.is_finite()) {
            return Err(invalid("an oriented box value is NaN or infinite"));
        }
        if half_extents.min_element() < 0.0 {
            return Err(invalid("negative half extent"));
        }
        super::unit_quat(rotation).ok_or(invalid("zero rotation"))?;
        Ok(Self::from_rotation(center, rotation, half_extents))
    }

    /// A box from its center, axes and half extents, checked.
    ///
    /// The accepted axes are re-orthonormalised by Gram–Schmidt. `axes[0]` keeps its
    /// direction.
    ///
    /// # Errors
    /// [`Error::InvalidShape`] with index 0 when a value is NaN or infinite, a half
    /// extent is negative, or the axes are not orthonormal to within
    /// [`Obb3::ORTHONORMAL_TOLERANCE`].
    pub fn try_new(center: Vec3, axes: [Vec3; 3], half_extents: Vec3) -> Result<Self, Error> {
        let raw = Self::new(center, axes, half_extents);
        raw.validate().map_err(invalid)?;
        let e0 = axes[0].normalize();
        let e1 = (axes[1] - e0 * axes[1].dot(e0)).normalize();
        let e2 = (axes[2] - e0 * axes[2].dot(e0) - e1 * axes[2].dot(e1)).normalize();
        Ok(Self::new(center, [e0, e1, e2], half_extents))
    }

    /// Checks that every value is finite, the half extents are `>= 0`, and
    /// `|axes[i] · axes[j] - δ_ij| <= ORTHONORMAL_TOLERANCE` for every `i <= j`.
    ///
    /// # Errors
    /// A short message that names the first defect found.
    pub fn validate(&self) -> Result<(), &'static str> {
        let finite = self.center.is_finite()
            && self.axes.iter().all(|a| a.is_finite())
            && self.half_extents.is_finite();
        if !finite {
            return Err("an oriented box value is NaN or infinite");
        }
        if self.half_extents.min_element() < 0.0 {
            return Err("negative half extent");
        }
        for i in 0..3 {
            for j in i..3 {
                let want = if i == j { 1.0 } else { 0.0 };
                if (self.axes[i].dot(self.axes[j]) - want).abs() > Self::ORTHONORMAL_TOLERANCE {
                    return Err("axes are not orthonormal");
                }
            }
        }
        Ok(())
    }

    /// The eight corners.
    ///
    /// Corner `k` takes `+half_extents[i]` along `axes[i]` when bit `i` of `k` is set,
    /// and `-half_extents[i]` otherwise.
    #[must_use]
    pub fn corners(&self) -> [Vec3; 8] {
        core::array::from_fn(|k| {
            let mut p = self.center;
            for i in 0..3 {
                let s = if k >> i & 1 == 1 { 1.0 } else { -1.0 };
                p += self.axes[i] * (s * self.half_extents[i]);
            }
            p
        })
    }
}
