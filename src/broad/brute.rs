//! The O(N²) reference: every pair tested with [`Aabb::overlaps`](crate::Aabb::overlaps).
//!
//! Kept in the crate (not only in tests) so that tests, benchmarks and fuzz targets
//! check the sweep against one oracle.

use super::{BoxSet, Pair};
use crate::error::Error;

/// Every overlapping pair, found by testing all `N(N-1)/2` pairs. This is the
/// reference that the broad phase is tested against.
///
/// The pairs come in canonical order: sorted by `(a, b)`, with `a < b`. When the set has
/// filters, only pairs whose filters agree are returned.
///
/// ```
/// use hantei::{Aabb, broad::brute_force_pairs};
/// let boxes = [Aabb::from_coords(0.0, 0.0, 1.0, 1.0), Aabb::from_coords(1.0, 1.0, 2.0, 2.0)];
/// assert_eq!(brute_force_pairs(&boxes[..])?.len(), 1); // corners touch
/// # Ok::<(), hantei::Error>(())
/// ```
///
/// # Errors
/// - [`Error::TooManyBoxes`] when the set has more than [`MAX_BOXES`](crate::MAX_BOXES)
///   boxes.
/// - [`Error::InvalidBox`] naming the lowest invalid index.
pub fn brute_force_pairs<'b>(boxes: impl Into<BoxSet<'b>>) -> Result<Vec<Pair>, Error> {
    let set = boxes.into();
    set.validate()?;
    let n = set.len();
    let mut out = Vec::new();
    for i in 0..n {
        let (a, fa) = (set.aabb(i), set.filter(i));
        for j in i + 1..n {
            if a.overlaps(&set.aabb(j)) && fa.pairs_with(set.filter(j)) {
                out.push(Pair::new(i as u32, j as u32));
            }
        }
    }
    Ok(out)
}

/// Every overlapping pair `(a, b)` with `a` in `first` and `b` in `second`, found by
/// testing every such pair.
///
/// The pairs are sorted by `(a, b)`. When the sets have filters, only pairs whose
/// filters agree are returned.
///
/// # Errors
/// - [`Error::TooManyBoxes`] when a set has more than [`MAX_BOXES`](crate::MAX_BOXES)
///   boxes.
/// - [`Error::InvalidBox`] for the first invalid box, as in
///   [`BroadPhase::find_pairs_bipartite`](crate::BroadPhase::find_pairs_bipartite). Its
///   `index` counts through both sets.
pub fn brute_force_bipartite<'b>(
    first: impl Into<BoxSet<'b>>,
    second: impl Into<BoxSet<'b>>,
) -> Result<Vec<Pair>, Error> {
    let (s, t) = (first.into(), second.into());
    s.validate()?;
    t.validate().map_err(|e| match e {
        Error::InvalidBox { index, defect } => Error::InvalidBox {
            index: index + s.len(),
            defect,
        },
        e => e,
    })?;
    let mut out = Vec::new();
    for i in 0..s.len() {
        let (a, fa) = (s.aabb(i), s.filter(i));
        for j in 0..t.len() {
            if a.overlaps(&t.aabb(j)) && fa.pairs_with(t.filter(j)) {
                out.push(Pair::new(i as u32, j as u32));
            }
        }
    }
    Ok(out)
}
