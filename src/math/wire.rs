//! serde forms of the oriented boxes, checked on the way in.
//!
//! The narrow phase does not catch an [`Obb2`] whose axis is not a unit vector, or an
//! [`Obb3`] whose axes are not orthonormal. The separating-axis test uses the axes as
//! given, and answers for some other shape. So these two types deserialize through
//! their `validate`, with the same tolerances as the checked constructors. Bad data is
//! a serde error. The values are kept bit for bit, with no re-normalisation, so a
//! snapshot restores exactly what was saved.
//!
//! The other shapes derive plain serde. Every value they can hold is either valid or
//! caught where it is used. A store refuses an invalid box, and a NaN circle or ray
//! never hits.

use super::{Obb2, Obb3};
use glam::{Vec2, Vec3};
use serde::Deserialize;

/// The fields of an [`Obb2`], as serialized.
#[derive(Deserialize)]
#[serde(rename = "Obb2")]
pub(crate) struct Obb2Fields {
    center: Vec2,
    axis: Vec2,
    half_extents: Vec2,
}

impl TryFrom<Obb2Fields> for Obb2 {
    type Error = String;

    fn try_from(f: Obb2Fields) -> Result<Self, String> {
        let b = Obb2::new(f.center, f.axis, f.half_extents);
        b.validate().map_err(|e| format!("invalid Obb2: {e}"))?;
        Ok(b)
    }
}

/// The fields of an [`Obb3`], as serialized.
#[derive(Deserialize)]
#[serde(rename = "Obb3")]
pub(crate) struct Obb3Fields {
    center: Vec3,
    axes: [Vec3; 3],
    half_extents: Vec3,
}

impl TryFrom<Obb3Fields> for Obb3 {
    type Error = String;

    fn try_from(f: Obb3Fields) -> Result<Self, String> {
        let b = Obb3::new(f.center, f.axes, f.half_extents);
        b.validate().map_err(|e| format!("invalid Obb3: {e}"))?;
        Ok(b)
    }
}
