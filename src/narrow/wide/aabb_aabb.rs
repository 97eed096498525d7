//! Static AABB–AABB overlap, eight pairs at a time (the math:
//! [`scalar::overlap_aabb_aabb`](crate::narrow::scalar::overlap_aabb_aabb)).

use super::{AabbW, F32W};

/// Lane `i`: whether `a` and `b` overlap (closed); NaN or infinite coordinates give
/// `false`.
///
/// ```
/// use hantei::Aabb;
/// use hantei::narrow::wide::{AabbW, MaskW, PortableW, overlap_aabb_aabb};
/// let a = AabbW::<PortableW>::splat(&Aabb::from_coords(0.0, 0.0, 1.0, 1.0));
/// let b = AabbW::from_array(&core::array::from_fn(|i| {
///     let x = i as f32 * 0.5; // lanes 0..=2 reach x <= 1
///     Aabb::from_coords(x, 0.0, x + 0.1, 0.1)
/// }));
/// assert_eq!(overlap_aabb_aabb(&a, &b).bitmask(), 0b0000_0111);
/// ```
#[inline(always)]
#[must_use]
pub fn overlap_aabb_aabb<W: F32W>(a: &AabbW<W>, b: &AabbW<W>) -> W::Mask {
    // The scalar kernel asks that all eight coordinates be finite. Given the four
    // comparisons, checking that no minimum is -∞ and no maximum is +∞ gives the same
    // answer with half the work: a NaN fails a comparison already, a minimum of +∞
    // passes `min <= other max` only against a maximum of +∞, and a maximum of -∞
    // passes `other min <= max` only against a minimum of -∞.
    let lo = a.min_x.min(a.min_y).min(b.min_x.min(b.min_y));
    let hi = a.max_x.max(a.max_y).max(b.max_x.max(b.max_y));
    a.min_x.le(b.max_x)
        & b.min_x.le(a.max_x)
        & a.min_y.le(b.max_y)
        & b.min_y.le(a.max_y)
        & lo.gt(W::splat(f32::NEG_INFINITY))
        & hi.lt(W::splat(f32::INFINITY))
}
