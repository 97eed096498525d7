//! One side of a run of pairs over an input: its indices checked once, its shapes
//! gathered eight at a time without bounds checks.

use crate::lanes::{F32W, LANES};
use crate::narrow::columns::ShapeInput;

/// One side of a run of pairs over an input, its indices checked once, so that gathering
/// eight lanes by those pairs needs no bounds check per lane: lane `j` of field `k` for
/// the group starting at pair `s` is field `k` of shape `pairs[s + j][SIDE]`.
#[derive(Clone, Copy)]
pub(super) struct Side<'p, S, const N: usize, const SIDE: usize> {
    pub(super) input: S,
    pub(super) pairs: &'p [[u32; 2]],
    /// Whether the shape after every indexed one exists too (see
    /// [`ShapeInput::gather_padded_unchecked`]).
    pub(super) padded: bool,
}

impl<'p, S: ShapeInput<N>, const N: usize, const SIDE: usize> Side<'p, S, N, SIDE> {
    /// `None` when `max[SIDE]`, the largest index of this side ([`max_indices`](crate::lanes::max_indices)), is out
    /// of range of the input (which holds at most [`crate::MAX_BOXES`] shapes, so every
    /// index kept is below 2^31).
    #[inline]
    pub(super) fn new(input: S, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self> {
        let len = input.checked_len().ok()?;
        let max = max[SIDE] as usize;
        (pairs.is_empty() || max < len).then_some(Self {
            input,
            pairs,
            padded: max + 1 < len,
        })
    }

    /// The fields of pairs `start .. start + LANES`, in lanes.
    ///
    /// # Panics
    /// If `start + LANES > pairs.len()`.
    #[inline(always)]
    pub(super) fn gather<W: F32W>(&self, start: usize) -> [W; N] {
        let idx = self.indices(start);
        // SAFETY: every `pairs[j][SIDE]` is at most `max[SIDE]`, below the input's length,
        // and when `padded` so is the next index (checked in `new`; neither the pairs nor
        // the input can change since).
        unsafe {
            if S::PADS && self.padded {
                self.input.gather_padded_unchecked(&idx)
            } else {
                self.input.gather_unchecked(&idx)
            }
        }
    }

    /// This side's indices of pairs `start .. start + LANES`.
    ///
    /// # Panics
    /// If `start + LANES > pairs.len()`.
    #[inline(always)]
    pub(super) fn indices(&self, start: usize) -> [u32; LANES] {
        let group = &self.pairs[start..start + LANES];
        let mut idx = [0; LANES];
        for (i, p) in idx.iter_mut().zip(group) {
            *i = p[SIDE];
        }
        idx
    }
}

/// A [`Side`] and a second input indexed by the same side of the same pairs (a sweep's
/// boxes and motions), so that a group's indices are read once for both.
#[derive(Clone, Copy)]
pub(super) struct SideWith<'p, S, T, const N: usize, const M: usize, const SIDE: usize> {
    pub(super) side: Side<'p, S, N, SIDE>,
    pub(super) with: T,
}

impl<'p, S, T, const N: usize, const M: usize, const SIDE: usize> SideWith<'p, S, T, N, M, SIDE>
where
    S: ShapeInput<N>,
    T: ShapeInput<M>,
{
    /// `None` when this side of `pairs` is out of range of either input (see
    /// [`Side::new`]).
    #[inline]
    pub(super) fn new(input: S, with: T, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self> {
        Side::<T, M, SIDE>::new(with, pairs, max)?;
        let side = Side::new(input, pairs, max)?;
        Some(Self { side, with })
    }

    /// The fields of both inputs for pairs `start .. start + LANES`, in lanes.
    ///
    /// # Panics
    /// If `start + LANES > pairs.len()`.
    #[inline(always)]
    pub(super) fn gather<W: F32W>(&self, start: usize) -> ([W; N], [W; M]) {
        let idx = self.side.indices(start);
        // SAFETY: `new` checked this side of `side.pairs` against both inputs' lengths
        // (neither the pairs nor the inputs can change since).
        unsafe {
            (
                self.side.input.gather_unchecked(&idx),
                self.with.gather_unchecked(&idx),
            )
        }
    }
}

/// The number of shapes of an input whose lengths the entry point has checked.
pub(super) fn len<S: ShapeInput<N>, const N: usize>(input: &S) -> usize {
    input.checked_len().unwrap_or(0)
}
