//! A [`PairTest`] (a scalar reference and its lane kernel on one pair of shapes) run over
//! two inputs as a [`PairKernel`]: what most kernels need, so that a new test is one
//! `PairTest` impl in a file of its own.

use super::chunk::{HitLanes, PairKernel};
use super::side::{Side, len};
use crate::lanes::{F32W, LANES};
use crate::narrow::columns::ShapeInput;
use crate::pair::Pair;
use core::marker::PhantomData;

/// A test between a shape of `N` fields (the one `Pair::a` indexes) and one of `M` fields
/// (`Pair::b`): its scalar reference and its lane kernel, which [`Shapes`] runs over pairs.
pub(super) trait PairTest<const N: usize, const M: usize>: Sync {
    /// The shape that `Pair::a` indexes.
    type A;
    /// The shape that `Pair::b` indexes.
    type B;
    /// What is kept for a hit.
    type Hit: Copy + Default + Send + Sync;
    /// See [`PairKernel::BLOCKS`].
    const BLOCKS: bool = true;
    /// See [`PairKernel::AVX512`].
    const AVX512: bool = false;
    /// See [`PairKernel::as_pairs`].
    #[inline(always)]
    fn as_pairs(out: &mut [Self::Hit]) -> Option<&mut [Pair]> {
        let _ = out;
        None
    }
    /// The scalar reference on pair `p`, of shapes `a` and `b`.
    fn scalar(a: &Self::A, b: &Self::B, p: Pair) -> Option<Self::Hit>;
    /// The lane kernel on the fields of the eight pairs of `group`: the hit mask's bits
    /// and what it takes to build each lane's record.
    fn wide<W: F32W>(
        a: [W; N],
        b: [W; M],
        group: &[Pair; LANES],
    ) -> (u32, impl HitLanes<Self::Hit>);
}

/// A [`PairTest`] over two inputs: `Pair::a` indexes `a` and `Pair::b` indexes `b` (the
/// same input twice for a test between like shapes).
pub(super) struct Shapes<T, SA, SB, const N: usize, const M: usize> {
    pub(super) a: SA,
    pub(super) b: SB,
    pub(super) test: PhantomData<T>,
}

impl<T, SA, SB, const N: usize, const M: usize> Shapes<T, SA, SB, N, M> {
    pub(super) fn new(a: SA, b: SB) -> Self {
        Self {
            a,
            b,
            test: PhantomData,
        }
    }
}

impl<T, SA, SB, const N: usize, const M: usize> PairKernel for Shapes<T, SA, SB, N, M>
where
    T: PairTest<N, M>,
    SA: ShapeInput<N, Shape = T::A>,
    SB: ShapeInput<M, Shape = T::B>,
{
    type Hit = T::Hit;
    const BLOCKS: bool = T::BLOCKS;
    const AVX512: bool = T::AVX512;
    type Lanes<'p>
        = (Side<'p, SA, N, 0>, Side<'p, SB, M, 1>)
    where
        Self: 'p;
    fn lens(&self) -> (usize, usize) {
        (len(&self.a), len(&self.b))
    }
    #[inline(always)]
    fn scalar(&self, p: Pair) -> Option<T::Hit> {
        T::scalar(&self.a.shape(p.a as usize), &self.b.shape(p.b as usize), p)
    }
    fn lanes<'p>(&'p self, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self::Lanes<'p>> {
        Some((
            Side::new(self.a, pairs, max)?,
            Side::new(self.b, pairs, max)?,
        ))
    }
    #[inline(always)]
    fn as_pairs(out: &mut [T::Hit]) -> Option<&mut [Pair]> {
        T::as_pairs(out)
    }
    #[inline(always)]
    fn wide<'p, W: F32W>(
        lanes: &Self::Lanes<'p>,
        start: usize,
        group: &[Pair; LANES],
    ) -> (u32, impl HitLanes<T::Hit>)
    where
        Self: 'p,
    {
        T::wide(
            lanes.0.gather::<W>(start),
            lanes.1.gather::<W>(start),
            group,
        )
    }
}
