//! Static AABB–AABB overlap.
//!
//! The math is documented on [`overlap_aabb_aabb`](fn@super::overlap_aabb_aabb).

use super::all_finite;
use crate::math::Aabb;

/// Whether two boxes overlap. The test is closed, so touching counts. A NaN or infinite
/// coordinate gives `false`.
///
/// Two boxes overlap when their closed intervals overlap on both axes (Ericson,
/// *Real-Time Collision Detection*, §4.2.1):
///
/// ```text
/// a.min.x <= b.max.x  &&  b.min.x <= a.max.x  &&  a.min.y <= b.max.y  &&  b.min.y <= a.max.y
/// ```
///
/// The test compares the stored values with no arithmetic, exactly as
/// [`Aabb::overlaps`] and the broad phase do. Touching edges and corners count, and
/// zero-size boxes are segments or points.
///
/// There is one difference from [`Aabb::overlaps`]. Here a box with an infinite
/// coordinate overlaps nothing. Otherwise a box from `-∞` to `+∞` would hit everything.
///
/// ```
/// use hantei::Aabb;
/// use hantei::narrow::scalar::overlap_aabb_aabb;
/// let a = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
/// assert!(overlap_aabb_aabb(&a, &Aabb::from_coords(1.0, 1.0, 2.0, 2.0))); // corner
/// assert!(!overlap_aabb_aabb(&a, &Aabb::from_coords(1.5, 0.0, 2.0, 1.0)));
/// assert!(!overlap_aabb_aabb(&a, &Aabb::from_coords(f32::NEG_INFINITY, 0.0, 5.0, 1.0)));
/// ```
#[inline]
#[must_use]
pub fn overlap_aabb_aabb(a: &Aabb, b: &Aabb) -> bool {
    a.min.x <= b.max.x
        && b.min.x <= a.max.x
        && a.min.y <= b.max.y
        && b.min.y <= a.max.y
        && all_finite([
            a.min.x, a.min.y, a.max.x, a.max.y, b.min.x, b.min.y, b.max.x, b.max.y,
        ])
}
