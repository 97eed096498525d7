//! AABB–circle overlap by the closest point (Ericson, §5.2.5).
//!
//! The math is documented on [`overlap_aabb_circle`](fn@super::overlap_aabb_circle).

use super::{all_finite, max, min};
use crate::math::{Aabb, Circle};

/// Whether a box and a disc overlap. The test is closed, so touching counts. NaN,
/// infinite or negative values give `false`.
///
/// The point `q` of the box closest to the circle's center `c` is `c` clamped to the
/// box, `q = (clamp(c.x, min.x, max.x), clamp(c.y, min.y, max.y))`. Here
/// `clamp(v, lo, hi)` is `min(max(v, lo), hi)`, with the lane `min` and `max`. The disc
/// overlaps the box when `|c - q|² <= r²`. A center inside the box gives `q = c`, and
/// so a hit.
///
/// The kernel guards its input:
/// - Every box coordinate must be finite. An infinite box would swallow the center.
/// - `|c - q|²` must be finite, which rules out an infinite or NaN center.
/// - The radius must be in `[0, f32::MAX]`.
///
/// As for two circles, the answer is exact up to rounding while the squares do not
/// overflow.
///
/// ```
/// use hantei::{Aabb, Circle};
/// use hantei::narrow::scalar::overlap_aabb_circle;
/// use glam::Vec2;
/// let b = Aabb::from_coords(0.0, 0.0, 2.0, 2.0);
/// assert!(overlap_aabb_circle(&b, &Circle::new(Vec2::new(5.0, 6.0), 5.0))); // corner (2,2), d = 5
/// assert!(!overlap_aabb_circle(&b, &Circle::new(Vec2::new(5.0, 6.0), 4.9)));
/// ```
#[inline]
#[must_use]
pub fn overlap_aabb_circle(a: &Aabb, b: &Circle) -> bool {
    let qx = min(max(b.center.x, a.min.x), a.max.x);
    let qy = min(max(b.center.y, a.min.y), a.max.y);
    let dx = b.center.x - qx;
    let dy = b.center.y - qy;
    let d2 = dx * dx + dy * dy;
    d2 <= b.radius * b.radius
        && d2 <= f32::MAX
        && b.radius >= 0.0
        && b.radius <= f32::MAX
        && all_finite([a.min.x, a.min.y, a.max.x, a.max.y])
}
