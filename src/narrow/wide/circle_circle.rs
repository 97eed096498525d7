//! Circle–circle overlap, eight pairs at a time (the math:
//! [`scalar::overlap_circle_circle`](crate::narrow::scalar::overlap_circle_circle)).

use super::{CircleW, F32W};

/// Lane `i`: whether the discs overlap (closed); NaN, infinite or negative values give
/// `false`.
#[inline(always)]
#[must_use]
pub fn overlap_circle_circle<W: F32W>(a: &CircleW<W>, b: &CircleW<W>) -> W::Mask {
    let zero = W::splat(0.0);
    let dx = b.x - a.x;
    let dy = b.y - a.y;
    let d2 = dx * dx + dy * dy;
    let s = a.radius + b.radius;
    d2.le(s * s)
        & d2.le(W::splat(f32::MAX))
        & a.radius.ge(zero)
        & b.radius.ge(zero)
        & s.le(W::splat(f32::MAX))
}
