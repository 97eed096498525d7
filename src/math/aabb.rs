//! The 2D axis-aligned bounding box.

use crate::error::{BoxDefect, Error};
use glam::Vec2;

/// A 2D axis-aligned box, stored as its `min` and `max` corners.
///
/// A valid box has finite coordinates and `min <= max` on both axes. `min == max` is
/// allowed, and makes a segment or a point (see the crate docs on zero-size boxes). The
/// constructors are `const` and cheap, so they do not validate. [`Aabb::validate`] does,
/// and so does every entry point of the store and the broad phase.
///
/// The memory layout is `#[repr(C)]` `[min_x, min_y, max_x, max_y]`: four `f32`, 16
/// bytes. This is the same as one record of the scene file format. So a `&[Aabb]` can be
/// viewed as `&[f32]` or `&[u8]` through [`bytemuck`] without copying.
///
/// ```
/// use hantei::Aabb;
/// use glam::Vec2;
/// let a = Aabb::new(Vec2::new(0.0, 0.0), Vec2::new(2.0, 1.0));
/// let b = Aabb::from_min_size(Vec2::new(2.0, 1.0), Vec2::new(1.0, 1.0));
/// let c = Aabb::from_center_half_extents(Vec2::new(5.0, 5.0), Vec2::splat(0.5));
/// assert!(a.overlaps(&b)); // touching corners overlap (closed intervals)
/// assert!(!a.overlaps(&c));
/// assert_eq!(a.validate(), Ok(()));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct Aabb {
    /// The corner with the smallest coordinates.
    pub min: Vec2,
    /// The corner with the largest coordinates.
    pub max: Vec2,
}

plain_old_data!(Aabb { Vec2, Vec2 });

impl Aabb {
    /// A box from its `min` and `max` corners.
    #[inline]
    #[must_use]
    pub const fn new(min: Vec2, max: Vec2) -> Self {
        Self { min, max }
    }

    /// A box from raw coordinates, in scene-file order: `min_x, min_y, max_x, max_y`.
    #[inline]
    #[must_use]
    pub const fn from_coords(min_x: f32, min_y: f32, max_x: f32, max_y: f32) -> Self {
        Self {
            min: Vec2::new(min_x, min_y),
            max: Vec2::new(max_x, max_y),
        }
    }

    /// A box from its `min` corner and its size (`max = min + size`).
    #[inline]
    #[must_use]
    pub fn from_min_size(min: Vec2, size: Vec2) -> Self {
        Self {
            min,
            max: min + size,
        }
    }

    /// A box from its center and half extents (`min = c - h`, `max = c + h`).
    #[inline]
    #[must_use]
    pub fn from_center_half_extents(center: Vec2, half_extents: Vec2) -> Self {
        Self {
            min: center - half_extents,
            max: center + half_extents,
        }
    }

    /// The center point.
    #[inline]
    #[must_use]
    pub fn center(&self) -> Vec2 {
        (self.min + self.max) * 0.5
    }

    /// The size, `max - min`.
    #[inline]
    #[must_use]
    pub fn size(&self) -> Vec2 {
        self.max - self.min
    }

    /// The half extents, `(max - min) / 2`.
    #[inline]
    #[must_use]
    pub fn half_extents(&self) -> Vec2 {
        self.size() * 0.5
    }

    /// Whether the two boxes overlap. The intervals are closed, so touching edges and
    /// corners count.
    ///
    /// The test compares the stored values directly, with no arithmetic, exactly as the
    /// scene format defines it. A box with a NaN coordinate overlaps nothing.
    #[inline]
    #[must_use]
    pub fn overlaps(&self, other: &Aabb) -> bool {
        self.min.x <= other.max.x
            && other.min.x <= self.max.x
            && self.min.y <= other.max.y
            && other.min.y <= self.max.y
    }

    /// Whether `p` lies in the box. A point on the boundary counts.
    #[inline]
    #[must_use]
    pub fn contains_point(&self, p: Vec2) -> bool {
        self.min.x <= p.x && p.x <= self.max.x && self.min.y <= p.y && p.y <= self.max.y
    }

    /// The smallest box that contains both boxes.
    #[inline]
    #[must_use]
    pub fn union(&self, other: &Aabb) -> Aabb {
        Aabb {
            min: self.min.min(other.min),
            max: self.max.max(other.max),
        }
    }

    /// The box grown to cover its whole path when it moves by `motion`. These are the
    /// box's swept bounds.
    #[inline]
    #[must_use]
    pub fn swept(&self, motion: Vec2) -> Aabb {
        Aabb {
            min: self.min + motion.min(Vec2::ZERO),
            max: self.max + motion.max(Vec2::ZERO),
        }
    }

    /// The box moved by `offset`.
    #[inline]
    #[must_use]
    pub fn translated(&self, offset: Vec2) -> Aabb {
        Aabb {
            min: self.min + offset,
            max: self.max + offset,
        }
    }

    /// Checks that the box is valid: its coordinates are finite, and `min <= max` on both
    /// axes.
    ///
    /// # Errors
    /// The first [`BoxDefect`] found, in this order: [`BoxDefect::NaN`],
    /// [`BoxDefect::Infinite`], then [`BoxDefect::Inverted`] on x, then on y.
    pub fn validate(&self) -> Result<(), BoxDefect> {
        box_defect(self.min.x, self.min.y, self.max.x, self.max.y).map_or(Ok(()), Err)
    }

    /// [`Aabb::validate`], as a crate [`Error`] naming `index`.
    pub(crate) fn check(&self, index: usize) -> Result<(), Error> {
        self.validate()
            .map_err(|defect| Error::InvalidBox { index, defect })
    }
}

/// The defect of the box `(min_x, min_y, max_x, max_y)`, if any.
#[inline]
pub(crate) fn box_defect(min_x: f32, min_y: f32, max_x: f32, max_y: f32) -> Option<BoxDefect> {
    // Fast path: finite and ordered. `<=` is false for NaN, and an infinite coordinate
    // makes the difference infinite or NaN, so one test covers the common case.
    if min_x <= max_x
        && min_y <= max_y
        && (max_x - min_x).is_finite()
        && (max_y - min_y).is_finite()
    {
        return None;
    }
    let c = [min_x, min_y, max_x, max_y];
    if c.iter().any(|v| v.is_nan()) {
        Some(BoxDefect::NaN)
    } else if c.iter().any(|v| v.is_infinite()) {
        Some(BoxDefect::Infinite)
    } else if min_x > max_x {
        Some(BoxDefect::Inverted { axis: 0 })
    } else if min_y > max_y {
        Some(BoxDefect::Inverted { axis: 1 })
    } else {
        // Finite, ordered, but the extent overflows f32 (e.g. -3e38..3e38): still valid.
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_agree() {
        let a = Aabb::new(Vec2::new(1.0, 2.0), Vec2::new(3.0, 6.0));
        assert_eq!(
            Aabb::from_min_size(Vec2::new(1.0, 2.0), Vec2::new(2.0, 4.0)),
            a
        );
        assert_eq!(
            Aabb::from_center_half_extents(Vec2::new(2.0, 4.0), Vec2::new(1.0, 2.0)),
            a
        );
        assert_eq!(Aabb::from_coords(1.0, 2.0, 3.0, 6.0), a);
        assert_eq!(a.center(), Vec2::new(2.0, 4.0));
        assert_eq!(a.half_extents(), Vec2::new(1.0, 2.0));
    }

    #[test]
    fn layout_is_four_f32() {
        let boxes = [Aabb::from_coords(1.0, 2.0, 3.0, 4.0)];
        let flat: &[f32] = bytemuck::cast_slice(&boxes);
        assert_eq!(flat, &[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(core::mem::size_of::<Aabb>(), 16);
    }

    #[test]
    fn closed_overlap() {
        let a = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
        // Shared edge, shared corner, zero-size box on the boundary, and a gap.
        assert!(a.overlaps(&Aabb::from_coords(1.0, 0.0, 2.0, 1.0)));
        assert!(a.overlaps(&Aabb::from_coords(1.0, 1.0, 2.0, 2.0)));
        assert!(a.overlaps(&Aabb::from_coords(1.0, 0.5, 1.0, 0.5)));
        assert!(!a.overlaps(&Aabb::from_coords(1.0 + f32::EPSILON, 0.0, 2.0, 1.0)));
        let nan = Aabb::from_coords(f32::NAN, 0.0, 1.0, 1.0);
        assert!(!a.overlaps(&nan) && !nan.overlaps(&a));
    }

    #[test]
    fn validate_names_the_defect() {
        let ok = Aabb::from_coords(0.0, 0.0, 0.0, 0.0);
        assert_eq!(ok.validate(), Ok(()));
        assert_eq!(
            Aabb::from_coords(0.0, f32::NAN, 1.0, 1.0).validate(),
            Err(BoxDefect::NaN)
        );
        assert_eq!(
            Aabb::from_coords(f32::NEG_INFINITY, 0.0, 1.0, 1.0).validate(),
            Err(BoxDefect::Infinite)
        );
        assert_eq!(
            Aabb::from_coords(2.0, 0.0, 1.0, 1.0).validate(),
            Err(BoxDefect::Inverted { axis: 0 })
        );
        assert_eq!(
            Aabb::from_coords(0.0, 2.0, 1.0, 1.0).validate(),
            Err(BoxDefect::Inverted { axis: 1 })
        );
        // Extreme but finite: valid even though max - min overflows.
        assert_eq!(
            Aabb::from_coords(-3e38, -3e38, 3e38, 3e38).validate(),
            Ok(())
        );
    }

    #[test]
    fn swept_covers_both_ends() {
        let a = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
        let s = a.swept(Vec2::new(3.0, -2.0));
        assert_eq!(s, Aabb::from_coords(0.0, -2.0, 4.0, 1.0));
        assert_eq!(a.union(&a.translated(Vec2::new(3.0, -2.0))), s);
    }
}
