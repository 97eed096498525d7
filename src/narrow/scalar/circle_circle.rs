//! Circle–circle overlap by squared distances (seed 001).
//!
//! The math is documented on [`overlap_circle_circle`](fn@super::overlap_circle_circle).

use crate::math::Circle;

/// Whether two discs overlap. The test is closed, so touching counts. NaN, infinite or
/// negative values give `false`.
///
/// Discs `(c₁, r₁)` and `(c₂, r₂)` overlap when `|c₂ - c₁| <= r₁ + r₂`. Both sides are
/// non-negative, so squaring them keeps the order and removes the square root
/// (Ericson, §4.3.1):
///
/// ```text
/// d² = (x₂ - x₁)² + (y₂ - y₁)²   <=   s² = (r₁ + r₂)²
/// ```
///
/// Touching circles overlap. The guards are folded into the same chain of comparisons:
/// - `d²` must be finite. An infinite or NaN center gives `d² = ∞` or NaN, and so no
///   hit, even against an infinite radius.
/// - Both radii must be `>= 0`, with a finite sum.
///
/// So a NaN, an infinity or a negative radius never hits.
///
/// The answer is exact up to the rounding of `d²` and `s²`, while both stay below
/// `f32::MAX`. That holds for distances and radius sums below about `1.8e19`. Above
/// that, the squares overflow, and the kernel answers "no overlap" rather than guess.
/// At the other end, a square below about `1e-38` rounds toward zero. So two points
/// closer than about `1e-19` count as touching.
///
/// ```
/// use hantei::Circle;
/// use hantei::narrow::scalar::overlap_circle_circle;
/// use glam::Vec2;
/// let a = Circle::new(Vec2::new(0.0, 0.0), 3.0);
/// assert!(overlap_circle_circle(&a, &Circle::new(Vec2::new(3.0, 4.0), 2.0))); // d = 5 = 3 + 2
/// assert!(!overlap_circle_circle(&a, &Circle::new(Vec2::new(3.0, 4.0), 1.9)));
/// ```
#[inline]
#[must_use]
pub fn overlap_circle_circle(a: &Circle, b: &Circle) -> bool {
    let dx = b.center.x - a.center.x;
    let dy = b.center.y - a.center.y;
    let d2 = dx * dx + dy * dy;
    let s = a.radius + b.radius;
    d2 <= s * s && d2 <= f32::MAX && a.radius >= 0.0 && b.radius >= 0.0 && s <= f32::MAX
}
