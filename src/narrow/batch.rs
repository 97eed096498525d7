//! Slice in, slice out: a narrow-phase kernel over every candidate pair of the broad
//! phase, keeping only the hits.
//!
//! ```text
//!  pairs  [ p0 p1 p2 … p4095 | p4096 … p8191 | … ]        fixed chunks of CHUNK pairs
//!            │ rayon: one task per chunk (one thread below the threshold: then each
//!            │ chunk appends straight behind the previous one and there is no merge)
//!            ▼ per chunk (per block of 512 pairs in a streaming overlap batch):
//!              check indices, then 8 pairs per step:
//!              gather 8 a-shapes and 8 b-shapes (from columns or records),
//!              run the wide kernel → a mask, append the lanes whose bit is set at
//!              the chunk's cursor (the plain overlap tests, whose hits are the
//!              pairs: every group's mask first, then a packing pass)
//!  scratch [ h h h · · · · · | h · · · · · · | … ]         each chunk writes its own region
//!            ▼ ordered merge: slide each chunk's hits down, in chunk order
//!  result  [ h h h h … ]                                    the hits, in pair order
//! ```
//!
//! # Determinism
//! The result lists the hits in the order of the input pairs, whatever the thread count
//! and the [`SimdLevel`]: the chunks are fixed-size (they do not depend on the thread
//! count), each writes only its own region, and the merge runs in chunk order. The SIMD
//! kernels are bit-identical to the scalar ones, so every level gives the same bytes.
//!
//! # Errors
//! Every column view must have equal column lengths, and the boxes and motions of a sweep
//! the same length; every pair index must be in range of its columns. Otherwise the call
//! returns [`Error::LengthMismatch`] (columns) or [`Error::PairOutOfRange`] (an index: the
//! first bad pair in pair order) and the results are not updated.

use super::columns::{
    AabbInput, CircleInput, MotionInput, Obb2Input, Obb3Input, RayInput, ShapeInput,
};
use super::wide::{self, AabbW, CircleW, Obb2W, Obb3W, RayW, Vec2W};
use super::{Mtv2, Mtv3, Sweep, SweepStatus, scalar};
use crate::broad::Pair;
use crate::error::{Error, check_len};
use crate::lanes::{F32W, LANES, MaskW, SimdLevel, SimdTask, dispatch, max_indices};
use crate::math::{Aabb, Circle, Obb2, Obb3, Ray};
use core::marker::PhantomData;
use rayon::prelude::*;

/// Pairs per chunk: the unit of parallel work and of index checking.
pub const CHUNK: usize = 4096;

/// Settings of a [`NarrowPhase`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NarrowConfig {
    /// Which kernels run (default: the best this CPU supports).
    pub simd: SimdLevel,
    /// Whether to use rayon's current thread pool (default `true`). The result is the
    /// same either way.
    pub parallel: bool,
    /// Inputs with fewer pairs than this run on one thread (default `4 * CHUNK`).
    pub parallel_threshold: usize,
}

impl Default for NarrowConfig {
    fn default() -> Self {
        Self {
            simd: SimdLevel::best(),
            parallel: true,
            parallel_threshold: 4 * CHUNK,
        }
    }
}

/// A pair and its swept-test answer (a hit or an overlap; misses are left out).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(C)]
pub struct PairSweep {
    /// The pair, as given.
    pub pair: Pair,
    /// The answer.
    pub sweep: Sweep,
}

/// A pair of overlapping 2D oriented boxes and their minimum translation vector.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PairMtv2 {
    /// The pair, as given.
    pub pair: Pair,
    /// The minimum translation vector.
    pub mtv: Mtv2,
}

/// A pair of overlapping 3D oriented boxes and their minimum translation vector.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PairMtv3 {
    /// The pair, as given.
    pub pair: Pair,
    /// The minimum translation vector.
    pub mtv: Mtv3,
}

/// One kernel over pairs: its scalar and lane forms and what a hit records.
trait PairKernel: Sync {
    /// What is kept for a hit.
    type Hit: Copy + Default + Send + Sync;
    /// The column gatherers of both sides, checked against one run of pairs.
    type Lanes<'p>
    where
        Self: 'p;
    /// The lengths of the columns that `Pair::a` and `Pair::b` index.
    fn lens(&self) -> (usize, usize);
    /// The scalar reference on one pair.
    fn scalar(&self, p: Pair) -> Option<Self::Hit>;
    /// The gatherers for `pairs`, whose largest indices are `max` (a side each), or
    /// `None` when an index is out of range.
    fn lanes<'p>(&'p self, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self::Lanes<'p>>;
    /// Whether a streaming batch runs its chunks in blocks (see [`run_chunk`]).
    const BLOCKS: bool = true;
    /// Whether [`SimdLevel::Avx512`] compiles this kernel for AVX-512 (see
    /// [`SimdTask::AVX512`]).
    const AVX512: bool = false;
    /// `out` as plain pairs when a hit is just its pair (the overlap tests); the chunk
    /// loop then packs the kept pairs in a second pass (see [`ChunkTask`]).
    #[inline(always)]
    fn as_pairs(out: &mut [Self::Hit]) -> Option<&mut [Pair]> {
        let _ = out;
        None
    }
    /// The lane kernel on pairs `start .. start + LANES` (`group`): the hit mask's bits
    /// and what it takes to build each lane's record.
    fn wide<'p, W: F32W>(
        lanes: &Self::Lanes<'p>,
        start: usize,
        group: &[Pair; LANES],
    ) -> (u32, impl HitLanes<Self::Hit>)
    where
        Self: 'p;
}

/// The records of eight lanes, built only for the lanes that are kept.
trait HitLanes<H> {
    /// Whether the chunk loop emits a group's records one group later, after the next
    /// group's kernel (see [`ChunkTask`]): for records built from lane arrays.
    const DEFERRED: bool = false;
    /// The record of lane `k`.
    fn hit(&self, k: usize) -> H;
    /// Appends the records of the lanes whose bit is set to `out` at `n`; returns the
    /// new length. `out[n..n + LANES]` must exist (it does for a whole group, as the
    /// cursor never passes the group's first lane). By default one record at a time,
    /// with [`emit_streaming`] or [`emit_cached`].
    #[inline(always)]
    fn emit(&self, bits: u32, out: &mut [H], n: usize, is_streaming: bool) -> usize
    where
        Self: Sized,
    {
        if is_streaming {
            emit_streaming(bits, self, out, n)
        } else {
            emit_cached(bits, self, out, n)
        }
    }
}

/// [`HitLanes::DEFERRED`] of a value's type.
#[inline(always)]
fn is_deferred<H, T: HitLanes<H>>(_: &T) -> bool {
    T::DEFERRED
}

impl HitLanes<Pair> for [Pair; LANES] {
    #[inline(always)]
    fn hit(&self, k: usize) -> Pair {
        self[k]
    }
}

/// The first out-of-range index of `pairs`, as an error.
/// `pairs` starts at position `base` of the caller's input. Indices of 2^31 and above
/// count as out of range whatever the columns' length (the lane gatherers refuse them).
fn index_error(pairs: &[Pair], (len_a, len_b): (usize, usize), base: usize) -> Error {
    let limit = |len: usize| len.min(i32::MAX as usize);
    let bad = pairs.iter().enumerate().find_map(|(k, p)| {
        if p.a as usize >= limit(len_a) {
            Some((k, "a", p.a, len_a))
        } else if p.b as usize >= limit(len_b) {
            Some((k, "b", p.b, len_b))
        } else {
            None
        }
    });
    // Callers come here only with a bad pair; should one not be found, name the first.
    let (k, side, index, len) = bad.unwrap_or((0, "a", pairs.first().map_or(0, |p| p.a), len_a));
    Error::PairOutOfRange {
        pair: base + k,
        side,
        index,
        len,
    }
}

/// Batches of at least this many pairs use [`emit_streaming`], smaller ones
/// [`emit_cached`] (see there).
const STREAMING_PAIRS: usize = 1 << 18;

/// Appends the lanes whose bit is set to `out` at `n`; returns the new length.
///
/// One store per kept lane, a loop whose trip count is the number of hits: used by the
/// SAT kernels (whose records are not eight words) while the inputs sit in cache. The
/// plain overlap tests pack their pairs in a second pass instead (see [`ChunkTask`]),
/// and the sweeps pack whole records in lanes (`SweepLanes::emit`).
#[inline(always)]
fn emit_cached<H>(mut bits: u32, hits: &impl HitLanes<H>, out: &mut [H], mut n: usize) -> usize {
    while bits != 0 {
        out[n] = hits.hit(bits.trailing_zeros() as usize);
        n += 1;
        bits &= bits - 1;
    }
    n
}

/// [`emit_cached`] without a data-dependent branch: every lane is written at the cursor,
/// which advances by the lane's bit, so a later lane overwrites a dropped one. When the
/// inputs stream from memory, a mispredicted hit count costs far more (the loads the
/// core ran ahead for are thrown away), and this wins (1M pairs, AABB, AVX2: 3.4 ns
/// against 4.5, measured before the overlap tests moved to their packing pass).
/// `out[n..n + LANES]` must exist, which holds for a whole group because the cursor never
/// passes the group's first lane.
#[inline(always)]
fn emit_streaming<H>(bits: u32, hits: &impl HitLanes<H>, out: &mut [H], n: usize) -> usize {
    let window = &mut out[n..n + LANES];
    let mut m = 0;
    for k in 0..LANES {
        window[m] = hits.hit(k);
        m += (bits >> k & 1) as usize;
    }
    n + m
}

/// One chunk with the lane kernels of `W`.
struct ChunkTask<'a, K: PairKernel> {
    kernel: &'a K,
    lanes: K::Lanes<'a>,
    pairs: &'a [Pair],
    out: &'a mut [K::Hit],
    is_streaming: bool,
}

impl<K: PairKernel> SimdTask for ChunkTask<'_, K> {
    const AVX512: bool = K::AVX512;
    type Output = usize;
    #[inline(always)]
    fn run<W: F32W>(self) -> usize {
        let full = self.pairs.len() / LANES * LANES;
        // (A run longer than CHUNK pairs, which `run_chunk`'s callers never pass, would
        // take the general path below: `masks` holds one chunk.)
        let packing = if full <= CHUNK {
            K::as_pairs(self.out)
        } else {
            None
        };
        let mut n = if let Some(out) = packing {
            // Hits that are the pairs themselves: every group's mask first, then the
            // kept pairs left-packed ([`F32W::compress_pairs`]). Packing inside the
            // first loop made each store's address wait on that group's whole kernel,
            // which held back the next groups' loads; and a loop per kept pair (as
            // below) mispredicts its exit about once a group. Random pairs, half
            // hitting, AVX2, 64k / 1M pairs: circles 1.51 -> 1.25 / 2.70 -> 1.87 ns
            // per pair, AABB 1.85 -> 1.84 / 3.06 -> 2.60.
            let mut masks = [0u8; CHUNK / LANES];
            let groups = self.pairs[..full].chunks_exact(LANES);
            for ((k, g), m) in groups.enumerate().zip(&mut masks) {
                let g: &[Pair; LANES] = g.try_into().expect("a group of LANES");
                *m = K::wide::<W>(&self.lanes, k * LANES, g).0 as u8;
            }
            let mut n = 0;
            let groups = self.pairs[..full].chunks_exact(LANES);
            for (g, &m) in groups.zip(&masks) {
                let src: &[[u32; 2]; LANES] = bytemuck::cast_slice(g).try_into().expect("8");
                // `n` is at most the number of pairs before this group, so the eight
                // slots from `n` exist.
                let dst: &mut [Pair; LANES] = (&mut out[n..n + LANES]).try_into().expect("8");
                n += W::compress_pairs(src, u32::from(m), bytemuck::cast_mut(dst));
            }
            n
        } else {
            let mut n = 0;
            let groups = self.pairs[..full].chunks_exact(LANES);
            let mut pending = None;
            for (k, g) in groups.enumerate() {
                let g: &[Pair; LANES] = g.try_into().expect("a group of LANES");
                let (bits, hits) = K::wide::<W>(&self.lanes, k * LANES, g);
                if !(W::DEFERS_RECORDS && is_deferred(&hits)) {
                    n = hits.emit(bits, self.out, n, self.is_streaming);
                    continue;
                }
                // Records read back from the lane arrays one group later, once their
                // stores have left the store buffer.
                if let Some((bits, hits)) = pending.replace((bits, hits)) {
                    n = hits.emit(bits, self.out, n, self.is_streaming);
                }
            }
            if let Some((bits, hits)) = pending {
                n = hits.emit(bits, self.out, n, self.is_streaming);
            }
            n
        };
        // The last few pairs go through the scalar kernel, which gives the same bits.
        for &p in &self.pairs[full..] {
            if let Some(h) = self.kernel.scalar(p) {
                self.out[n] = h;
                n += 1;
            }
        }
        n
    }
}

/// Pairs per block of a streaming batch (see [`run_chunk`]).
const STREAMING_BLOCK: usize = 512;

/// Runs one chunk (the pairs from position `base` of the input) at `level`; returns how
/// many hits it wrote to the front of `out`.
///
/// A streaming batch runs its chunks in blocks of [`STREAMING_BLOCK`] pairs (unless its
/// kernel opts out: [`PairKernel::BLOCKS`]), each block's hits right behind the previous
/// one's, so that the index check, the kernel loop and the overlap tests' packing pass
/// (see [`ChunkTask`]) all find a block's pairs in L1. Criterion, AVX2, 1M pairs,
/// records: AABB 1.50-1.90 -> 1.12-1.18 ms, circles 1.30-1.52 -> 0.94-0.97 ms, 2D boxes
/// 3.36-3.65 -> 2.93-3.03 ms, swept AABB -2-5%; columns: swept AABB -5%, the rest within
/// 3%; the 3D boxes opt out (columns 2-5% slower). Blocks on cache-resident batches too
/// cost 5-12% there, and blocks inside the chunk loop cost them 3-9% (code shape).
fn run_chunk<K: PairKernel>(
    level: SimdLevel,
    is_streaming: bool,
    kernel: &K,
    (base, pairs): (usize, &[Pair]),
    out: &mut [K::Hit],
) -> Result<usize, Error> {
    let run =
        |at: (usize, &[Pair]), out: &mut [K::Hit]| run_block(level, is_streaming, kernel, at, out);
    if is_streaming && level != SimdLevel::Scalar && K::BLOCKS {
        append_runs((base, pairs), STREAMING_BLOCK, out, run)
    } else {
        run((base, pairs), out)
    }
}

/// Runs `run` on each run of `size` pairs of `pairs` (the pairs from position `base` of
/// the input), each run's hits right behind the previous one's in `out`; returns how
/// many hits there are in all. There is always room: the hits so far never outnumber
/// the pairs so far.
fn append_runs<H>(
    (base, pairs): (usize, &[Pair]),
    size: usize,
    out: &mut [H],
    mut run: impl FnMut((usize, &[Pair]), &mut [H]) -> Result<usize, Error>,
) -> Result<usize, Error> {
    let mut n = 0;
    for (k, part) in pairs.chunks(size).enumerate() {
        n += run((base + k * size, part), &mut out[n..n + part.len()])?;
    }
    Ok(n)
}

/// [`run_chunk`] on one run of pairs.
fn run_block<K: PairKernel>(
    level: SimdLevel,
    is_streaming: bool,
    kernel: &K,
    (base, pairs): (usize, &[Pair]),
    out: &mut [K::Hit],
) -> Result<usize, Error> {
    let indices: &[[u32; 2]] = bytemuck::cast_slice(pairs);
    let max = max_indices(level, indices);
    if level == SimdLevel::Scalar {
        let (len_a, len_b) = kernel.lens();
        let [max_a, max_b] = max;
        if !pairs.is_empty() && (max_a as usize >= len_a || max_b as usize >= len_b) {
            return Err(index_error(pairs, (len_a, len_b), base));
        }
        let mut n = 0;
        for &p in pairs {
            if let Some(h) = kernel.scalar(p) {
                out[n] = h;
                n += 1;
            }
        }
        Ok(n)
    } else {
        let lanes = kernel
            .lanes(indices, max)
            .ok_or_else(|| index_error(pairs, kernel.lens(), base))?;
        let task = ChunkTask {
            kernel,
            lanes,
            pairs,
            out,
            is_streaming,
        };
        Ok(dispatch(level, task))
    }
}

/// Runs `kernel` over `pairs` into `out`; returns the number of hits at its front.
fn run_batch<K: PairKernel>(
    config: &NarrowConfig,
    kernel: &K,
    pairs: &[Pair],
    out: &mut Vec<K::Hit>,
) -> Result<usize, Error> {
    if out.len() < pairs.len() {
        out.resize(pairs.len(), K::Hit::default());
    }
    let level = config.simd;
    let is_streaming = pairs.len() >= STREAMING_PAIRS;
    let parallel = config.parallel
        && pairs.len() >= config.parallel_threshold
        && rayon::current_num_threads() > 1;
    if !parallel {
        // One thread: each chunk appends right behind the previous one's hits.
        let run = |at: (usize, &[Pair]), out: &mut [K::Hit]| {
            run_chunk(level, is_streaming, kernel, at, out)
        };
        return append_runs((0, pairs), CHUNK, out, run);
    }
    let work = |(k, (p, o)): (usize, (&[Pair], &mut [K::Hit]))| {
        run_chunk(level, is_streaming, kernel, (k * CHUNK, p), o)
    };
    let counts: Vec<Result<usize, Error>> = pairs
        .par_chunks(CHUNK)
        .zip(out[..pairs.len()].par_chunks_mut(CHUNK))
        .enumerate()
        .map(work)
        .collect();
    // Ordered merge: slide each chunk's hits down behind the previous ones.
    let mut n = 0;
    for (k, count) in counts.into_iter().enumerate() {
        let count = count?;
        let start = k * CHUNK;
        if start != n {
            out.copy_within(start..start + count, n);
        }
        n += count;
    }
    Ok(n)
}

/// One side of a run of pairs over an input, its indices checked once, so that gathering
/// eight lanes by those pairs needs no bounds check per lane: lane `j` of field `k` for
/// the group starting at pair `s` is field `k` of shape `pairs[s + j][SIDE]`.
#[derive(Clone, Copy)]
struct Side<'p, S, const N: usize, const SIDE: usize> {
    input: S,
    pairs: &'p [[u32; 2]],
    /// Whether the shape after every indexed one exists too (see
    /// [`ShapeInput::gather_padded_unchecked`]).
    padded: bool,
}

impl<'p, S: ShapeInput<N>, const N: usize, const SIDE: usize> Side<'p, S, N, SIDE> {
    /// `None` when `max[SIDE]`, the largest index of this side ([`max_indices`]), is out
    /// of range of the input or not below 2^31.
    #[inline]
    fn new(input: S, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self> {
        let len = input.checked_len().ok()?.min(i32::MAX as usize);
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
    fn gather<W: F32W>(&self, start: usize) -> [W; N] {
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
    fn indices(&self, start: usize) -> [u32; LANES] {
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
struct SideWith<'p, S, T, const N: usize, const M: usize, const SIDE: usize> {
    side: Side<'p, S, N, SIDE>,
    with: T,
}

impl<'p, S, T, const N: usize, const M: usize, const SIDE: usize> SideWith<'p, S, T, N, M, SIDE>
where
    S: ShapeInput<N>,
    T: ShapeInput<M>,
{
    /// `None` when this side of `pairs` is out of range of either input (see
    /// [`Side::new`]).
    #[inline]
    fn new(input: S, with: T, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self> {
        Side::<T, M, SIDE>::new(with, pairs, max)?;
        let side = Side::new(input, pairs, max)?;
        Some(Self { side, with })
    }

    /// The fields of both inputs for pairs `start .. start + LANES`, in lanes.
    ///
    /// # Panics
    /// If `start + LANES > pairs.len()`.
    #[inline(always)]
    fn gather<W: F32W>(&self, start: usize) -> ([W; N], [W; M]) {
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
fn len<S: ShapeInput<N>, const N: usize>(input: &S) -> usize {
    input.checked_len().unwrap_or(0)
}

/// A test between a shape of `N` fields (the one `Pair::a` indexes) and one of `M` fields
/// (`Pair::b`): its scalar reference and its lane kernel, which [`Shapes`] runs over pairs.
trait PairTest<const N: usize, const M: usize>: Sync {
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
struct Shapes<T, SA, SB, const N: usize, const M: usize> {
    a: SA,
    b: SB,
    test: PhantomData<T>,
}

impl<T, SA, SB, const N: usize, const M: usize> Shapes<T, SA, SB, N, M> {
    fn new(a: SA, b: SB) -> Self {
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

/// Declares an overlap test, whose hits are its pairs: `$name` between `$a` (`$n` fields,
/// lanes `$aw`) and `$b` (`$m` fields, lanes `$bw`), by `scalar::$f` and `wide::$f`.
macro_rules! overlap_test {
    ($(#[$doc:meta])* $name:ident, $f:ident, ($a:ty, $n:literal, $aw:ident), ($b:ty, $m:literal, $bw:ident)) => {
        $(#[$doc])*
        struct $name;

        impl PairTest<$n, $m> for $name {
            type A = $a;
            type B = $b;
            type Hit = Pair;
            #[inline(always)]
            fn as_pairs(out: &mut [Pair]) -> Option<&mut [Pair]> {
                Some(out)
            }
            #[inline(always)]
            fn scalar(a: &$a, b: &$b, p: Pair) -> Option<Pair> {
                scalar::$f(a, b).then_some(p)
            }
            #[inline(always)]
            fn wide<W: F32W>(
                a: [W; $n],
                b: [W; $m],
                group: &[Pair; LANES],
            ) -> (u32, impl HitLanes<Pair>) {
                let (a, b) = ($aw::from_lanes(a), $bw::from_lanes(b));
                (wide::$f(&a, &b).bitmask(), *group)
            }
        }
    };
}

overlap_test! {
    /// Static AABB overlap ([`NarrowPhase::overlap_aabb_aabb`]).
    AabbAabb, overlap_aabb_aabb, (Aabb, 4, AabbW), (Aabb, 4, AabbW)
}
overlap_test! {
    /// Circle overlap ([`NarrowPhase::overlap_circle_circle`]).
    CircleCircle, overlap_circle_circle, (Circle, 3, CircleW), (Circle, 3, CircleW)
}
overlap_test! {
    /// Box–circle overlap ([`NarrowPhase::overlap_aabb_circle`]).
    AabbCircle, overlap_aabb_circle, (Aabb, 4, AabbW), (Circle, 3, CircleW)
}

/// Eight sweeps' answers, as [`PairSweep`]s.
struct SweepLanes<W: F32W> {
    group: [Pair; LANES],
    sweep: wide::SweepW<W>,
}

/// [`SweepLanes`] as arrays, for a loop over the kept lanes.
struct SweepArrays {
    group: [Pair; LANES],
    is_hit: u32,
    t: [f32; LANES],
    nx: [f32; LANES],
    ny: [f32; LANES],
    sx: [f32; LANES],
    sy: [f32; LANES],
}

impl HitLanes<PairSweep> for SweepArrays {
    #[inline(always)]
    fn hit(&self, k: usize) -> PairSweep {
        // Only hits and overlaps are kept, so a lane that is not a hit is overlapping.
        let status = if self.is_hit >> k & 1 == 1 {
            SweepStatus::Hit
        } else {
            SweepStatus::Overlapping
        };
        PairSweep {
            pair: self.group[k],
            sweep: Sweep {
                status,
                t: self.t[k],
                normal: glam::Vec2::new(self.nx[k], self.ny[k]),
                stop: glam::Vec2::new(self.sx[k], self.sy[k]),
            },
        }
    }
}

impl<W: F32W> SweepLanes<W> {
    #[inline(always)]
    fn arrays(&self) -> SweepArrays {
        let s = &self.sweep;
        SweepArrays {
            group: self.group,
            is_hit: s.is_hit.bitmask(),
            t: s.t.to_array(),
            nx: s.normal.x.to_array(),
            ny: s.normal.y.to_array(),
            sx: s.stop.x.to_array(),
            sy: s.stop.y.to_array(),
        }
    }
}

// `PairSweep` as eight words: the pair, the status (its byte first, then padding), `t`,
// the normal and the stop. `SweepLanes::emit` writes whole records in this layout.
const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(size_of::<PairSweep>() == 32 && align_of::<PairSweep>() == 4);
    assert!(offset_of!(PairSweep, pair) == 0 && offset_of!(PairSweep, sweep.status) == 8);
    assert!(offset_of!(PairSweep, sweep.t) == 12 && offset_of!(PairSweep, sweep.normal) == 16);
    assert!(offset_of!(PairSweep, sweep.stop) == 24);
};

/// The word of a status in a [`PairSweep`] record: the status byte, then zero padding.
const fn status_word(s: SweepStatus) -> f32 {
    f32::from_bits(u32::from_ne_bytes([s as u8, 0, 0, 0]))
}

impl<W: F32W> HitLanes<PairSweep> for SweepLanes<W> {
    #[inline(always)]
    fn hit(&self, k: usize) -> PairSweep {
        self.arrays().hit(k)
    }
    /// With AVX2, left-packs whole records in lanes ([`F32W::compress_records`]): no
    /// branch per kept lane, and no record built from scalars. Random pairs, about half
    /// kept, 64k / 1M pairs: moving point 4.05 -> 3.56 / 5.3 -> 4.7 ns per pair, swept
    /// AABB 5.05 -> 4.60 / 6.2 -> 5.6. Elsewhere, a record per kept lane from arrays
    /// (the packing's default method made the portable sweeps 1.3-1.5x slower).
    #[inline(always)]
    fn emit(&self, bits: u32, out: &mut [PairSweep], n: usize, is_streaming: bool) -> usize {
        if !W::PACKS_RECORDS {
            return self.arrays().emit(bits, out, n, is_streaming);
        }
        let s = &self.sweep;
        // Only hits and overlaps are kept, so a lane that is not a hit is overlapping.
        let status = W::select(
            s.is_hit,
            W::splat(status_word(SweepStatus::Hit)),
            W::splat(status_word(SweepStatus::Overlapping)),
        );
        let rows = [status, s.t, s.normal.x, s.normal.y, s.stop.x, s.stop.y];
        let window: &mut [PairSweep; LANES] = (&mut out[n..n + LANES]).try_into().expect("8");
        // SAFETY: a `PairSweep` is eight words in the order of `rows` above (asserted at
        // compile time), so the view has the window's size and alignment. Every record
        // written through it is a valid `PairSweep`: the status word's first byte is a
        // `SweepStatus` discriminant (`Hit` or `Overlapping`, in dropped lanes too),
        // its other bytes are padding, and any bits are valid `f32`s. Nothing else is
        // written through the view, and it ends with this call.
        let dst = unsafe {
            &mut *core::ptr::from_mut(window).cast::<[core::mem::MaybeUninit<[u32; 8]>; LANES]>()
        };
        n + W::compress_records(bytemuck::cast_ref(&self.group), rows, bits, dst)
    }
}

/// Keeps the hits and overlaps of eight sweeps.
#[inline(always)]
fn sweep_hits<W: F32W>(s: &wide::SweepW<W>, group: &[Pair; LANES]) -> (u32, SweepLanes<W>) {
    let lanes = SweepLanes {
        group: *group,
        sweep: *s,
    };
    (s.is_hit.bitmask() | s.is_overlapping.bitmask(), lanes)
}

struct SweepAabbAabb<B, M> {
    boxes: B,
    motions: M,
}

impl<B: AabbInput, M: MotionInput> PairKernel for SweepAabbAabb<B, M> {
    type Hit = PairSweep;
    const AVX512: bool = SWEEPS_AVX512;
    type Lanes<'p>
        = (SideWith<'p, B, M, 4, 2, 0>, SideWith<'p, B, M, 4, 2, 1>)
    where
        Self: 'p;
    fn lens(&self) -> (usize, usize) {
        // The entry point checked that there is one motion per box.
        (len(&self.boxes), len(&self.boxes))
    }
    #[inline(always)]
    fn scalar(&self, p: Pair) -> Option<PairSweep> {
        let (i, j) = (p.a as usize, p.b as usize);
        let s = scalar::sweep_aabb_aabb(
            &self.boxes.shape(i),
            self.motions.shape(i),
            &self.boxes.shape(j),
            self.motions.shape(j),
        );
        (s.status != SweepStatus::Miss).then_some(PairSweep { pair: p, sweep: s })
    }
    fn lanes<'p>(&'p self, pairs: &'p [[u32; 2]], max: [u32; 2]) -> Option<Self::Lanes<'p>> {
        Some((
            SideWith::new(self.boxes, self.motions, pairs, max)?,
            SideWith::new(self.boxes, self.motions, pairs, max)?,
        ))
    }
    #[inline(always)]
    fn wide<'p, W: F32W>(
        lanes: &Self::Lanes<'p>,
        start: usize,
        group: &[Pair; LANES],
    ) -> (u32, impl HitLanes<PairSweep>)
    where
        Self: 'p,
    {
        let (a, ma) = lanes.0.gather::<W>(start);
        let (b, mb) = lanes.1.gather::<W>(start);
        let (a, b) = (AabbW::from_lanes(a), AabbW::from_lanes(b));
        let (ma, mb) = (Vec2W::from_lanes(ma), Vec2W::from_lanes(mb));
        sweep_hits(&wide::sweep_aabb_aabb(&a, &ma, &b, &mb), group)
    }
}

/// Whether the two sweeps (swept AABB, moving point) run compiled for AVX-512 at
/// [`SimdLevel::Avx512`]: many values live at once and a dozen blends per group, which
/// 32 vector registers (fewer spills) and mask registers serve better.
const SWEEPS_AVX512: bool = true;

/// Moving point against box ([`NarrowPhase::cast_point_aabb`]).
struct CastPointAabb;

impl PairTest<4, 4> for CastPointAabb {
    type A = Ray;
    type B = Aabb;
    type Hit = PairSweep;
    const AVX512: bool = SWEEPS_AVX512;
    #[inline(always)]
    fn scalar(ray: &Ray, b: &Aabb, p: Pair) -> Option<PairSweep> {
        let s = scalar::cast_point_aabb(ray, b);
        (s.status != SweepStatus::Miss).then_some(PairSweep { pair: p, sweep: s })
    }
    #[inline(always)]
    fn wide<W: F32W>(
        r: [W; 4],
        b: [W; 4],
        group: &[Pair; LANES],
    ) -> (u32, impl HitLanes<PairSweep>) {
        let (r, b) = (RayW::from_lanes(r), AabbW::from_lanes(b));
        sweep_hits(&wide::cast_point_aabb(&r, &b), group)
    }
}

/// 2D oriented-box SAT ([`NarrowPhase::overlap_obb2_obb2`]).
struct Obb2Obb2;

impl PairTest<6, 6> for Obb2Obb2 {
    type A = Obb2;
    type B = Obb2;
    type Hit = PairMtv2;
    #[inline(always)]
    fn scalar(a: &Obb2, b: &Obb2, p: Pair) -> Option<PairMtv2> {
        scalar::overlap_obb2_obb2(a, b).map(|mtv| PairMtv2 { pair: p, mtv })
    }
    #[inline(always)]
    fn wide<W: F32W>(
        a: [W; 6],
        b: [W; 6],
        group: &[Pair; LANES],
    ) -> (u32, impl HitLanes<PairMtv2>) {
        let (a, b) = (Obb2W::from_lanes(a), Obb2W::from_lanes(b));
        let m = wide::overlap_obb2_obb2(&a, &b);
        let lanes = Mtv2Lanes {
            group: *group,
            nx: m.normal.x.to_array(),
            ny: m.normal.y.to_array(),
            depth: m.depth.to_array(),
            axis: m.axis.to_array(),
        };
        (m.is_overlapping.bitmask(), lanes)
    }
}

/// Eight 2D separating-axis answers, as [`PairMtv2`]s on demand.
struct Mtv2Lanes {
    group: [Pair; LANES],
    nx: [f32; LANES],
    ny: [f32; LANES],
    depth: [f32; LANES],
    axis: [f32; LANES],
}

impl HitLanes<PairMtv2> for Mtv2Lanes {
    /// With AVX2 ([`F32W::DEFERS_RECORDS`]), 64k / 1M pairs: 364 -> 347 us / 6.99 ->
    /// 6.46 ms. (The 3D boxes, whose kernel already spills, gained nothing so.)
    const DEFERRED: bool = true;
    #[inline(always)]
    fn hit(&self, k: usize) -> PairMtv2 {
        PairMtv2 {
            pair: self.group[k],
            mtv: Mtv2 {
                normal: glam::Vec2::new(self.nx[k], self.ny[k]),
                depth: self.depth[k],
                axis: self.axis[k] as u8,
            },
        }
    }
}

/// 3D oriented-box SAT ([`NarrowPhase::overlap_obb3_obb3`]).
struct Obb3Obb3;

impl PairTest<15, 15> for Obb3Obb3 {
    type A = Obb3;
    type B = Obb3;
    type Hit = PairMtv3;
    /// Blocks measured no faster on records and 2-5% slower on columns (1M pairs).
    const BLOCKS: bool = false;
    #[inline(always)]
    fn scalar(a: &Obb3, b: &Obb3, p: Pair) -> Option<PairMtv3> {
        scalar::overlap_obb3_obb3(a, b).map(|mtv| PairMtv3 { pair: p, mtv })
    }
    #[inline(always)]
    fn wide<W: F32W>(
        a: [W; 15],
        b: [W; 15],
        group: &[Pair; LANES],
    ) -> (u32, impl HitLanes<PairMtv3>) {
        let (a, b) = (Obb3W::from_lanes(a), Obb3W::from_lanes(b));
        let m = wide::overlap_obb3_obb3(&a, &b);
        let lanes = Mtv3Lanes {
            group: *group,
            nx: m.normal.x.to_array(),
            ny: m.normal.y.to_array(),
            nz: m.normal.z.to_array(),
            depth: m.depth.to_array(),
            axis: m.axis.to_array(),
        };
        (m.is_overlapping.bitmask(), lanes)
    }
}

/// Eight 3D separating-axis answers, as [`PairMtv3`]s on demand.
struct Mtv3Lanes {
    group: [Pair; LANES],
    nx: [f32; LANES],
    ny: [f32; LANES],
    nz: [f32; LANES],
    depth: [f32; LANES],
    axis: [f32; LANES],
}

impl HitLanes<PairMtv3> for Mtv3Lanes {
    #[inline(always)]
    fn hit(&self, k: usize) -> PairMtv3 {
        PairMtv3 {
            pair: self.group[k],
            mtv: Mtv3 {
                normal: glam::Vec3::new(self.nx[k], self.ny[k], self.nz[k]),
                depth: self.depth[k],
                axis: self.axis[k] as u8,
            },
        }
    }
}

/// Runs the narrow-phase kernels over candidate pairs; keeps its result buffers between
/// calls, so a call per frame allocates nothing once they have grown.
///
/// Each method takes its shapes either as structure-of-arrays
/// [`columns`](super::columns) (`AabbColumns`, ..., e.g. from a
/// [`BoxStore`](crate::BoxStore)) or as a plain slice of the shapes (`&[Aabb]`, ...;
/// see [`AabbInput`] and its siblings), and pairs of indices
/// into them (as [`BroadPhase`](crate::BroadPhase) returns); it gives back the pairs
/// that hit, in pair order, identical at every [`SimdLevel`], thread count and input
/// kind (see the [module docs](self)). Slices are the faster input where the shapes are
/// already an array of structs: with AVX2 a box is gathered by one load instead of four.
///
/// ```
/// use hantei::{Aabb, BroadPhase, Pair};
/// use hantei::narrow::{NarrowPhase, columns::{AabbSoa, MotionSoa}};
/// use glam::Vec2;
/// let boxes = [
///     Aabb::from_coords(0.0, 0.0, 1.0, 1.0),   // a bullet moving right, fast
///     Aabb::from_coords(5.0, -1.0, 5.5, 2.0),  // a thin wall in its way
///     Aabb::from_coords(0.0, 5.0, 1.0, 6.0),   // a bullet moving left, away
/// ];
/// let motions = [Vec2::new(10.0, 0.0), Vec2::ZERO, Vec2::new(-10.0, 0.0)];
/// // Candidates: the broad phase on the swept boxes.
/// let swept: Vec<Aabb> = boxes.iter().zip(&motions).map(|(b, m)| b.swept(*m)).collect();
/// let pairs = BroadPhase::new().find_pairs(&swept[..])?.to_vec();
/// let mut narrow = NarrowPhase::new();
/// // The shapes as they are, one record each...
/// let hits = narrow.sweep_aabb_aabb(&boxes[..], &motions[..], &pairs)?;
/// assert_eq!(hits.len(), 1);
/// assert_eq!(hits[0].pair, Pair::new(0, 1));
/// assert_eq!(hits[0].sweep.t, 0.4); // (5 - 1) / 10
/// let by_records = hits.to_vec();
/// // ...or as columns (as a `BoxStore` keeps them): the same answers.
/// let (boxes, motions) = (AabbSoa::from(&boxes[..]), MotionSoa::from(&motions[..]));
/// let hits = narrow.sweep_aabb_aabb(boxes.columns(), motions.columns(), &pairs)?;
/// assert_eq!(hits, &by_records[..]);
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct NarrowPhase {
    config: NarrowConfig,
    pairs: Vec<Pair>,
    sweeps: Vec<PairSweep>,
    mtv2: Vec<PairMtv2>,
    mtv3: Vec<PairMtv3>,
}

impl NarrowPhase {
    /// A narrow phase with the default [`NarrowConfig`].
    #[must_use]
    pub fn new() -> Self {
        Self::with_config(NarrowConfig::default())
    }

    /// A narrow phase with the given settings (an unsupported SIMD level falls back to
    /// the best supported one below it).
    #[must_use]
    pub fn with_config(config: NarrowConfig) -> Self {
        Self {
            config: NarrowConfig {
                simd: config.simd.supported(),
                ..config
            },
            ..Self::default()
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &NarrowConfig {
        &self.config
    }

    /// The pairs of boxes that overlap (closed), in pair order
    /// ([`scalar::overlap_aabb_aabb`]).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range.
    pub fn overlap_aabb_aabb(
        &mut self,
        boxes: impl AabbInput,
        pairs: &[Pair],
    ) -> Result<&[Pair], Error> {
        boxes.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<AabbAabb, _, _, 4, 4>::new(boxes, boxes),
            pairs,
            &mut self.pairs,
        )?;
        Ok(&self.pairs[..n])
    }

    /// The pairs of circles that overlap (closed), in pair order
    /// ([`scalar::overlap_circle_circle`]).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range.
    pub fn overlap_circle_circle(
        &mut self,
        circles: impl CircleInput,
        pairs: &[Pair],
    ) -> Result<&[Pair], Error> {
        circles.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<CircleCircle, _, _, 3, 3>::new(circles, circles),
            pairs,
            &mut self.pairs,
        )?;
        Ok(&self.pairs[..n])
    }

    /// The pairs `(box a, circle b)` that overlap (closed), in pair order
    /// ([`scalar::overlap_aabb_circle`]): `Pair::a` indexes `boxes`, `Pair::b` indexes
    /// `circles`.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range.
    pub fn overlap_aabb_circle(
        &mut self,
        boxes: impl AabbInput,
        circles: impl CircleInput,
        pairs: &[Pair],
    ) -> Result<&[Pair], Error> {
        boxes.checked_len()?;
        circles.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<AabbCircle, _, _, 4, 3>::new(boxes, circles),
            pairs,
            &mut self.pairs,
        )?;
        Ok(&self.pairs[..n])
    }

    /// Sweeps every pair of moving boxes over one frame and keeps the hits and the
    /// overlaps (misses are left out), in pair order
    /// ([`scalar::sweep_aabb_aabb`](fn@scalar::sweep_aabb_aabb); in
    /// each answer `a` is `Pair::a`).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths, motions that do not
    /// match the boxes, or a pair index out of range.
    pub fn sweep_aabb_aabb(
        &mut self,
        boxes: impl AabbInput,
        motions: impl MotionInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        let n = boxes.checked_len()?;
        check_len("motions (one per box)", n, motions.checked_len()?)?;
        let n = run_batch(
            &self.config,
            &SweepAabbAabb { boxes, motions },
            pairs,
            &mut self.sweeps,
        )?;
        Ok(&self.sweeps[..n])
    }

    /// Casts moving points against still boxes and keeps the hits and the points that
    /// start inside (misses are left out), in pair order ([`scalar::cast_point_aabb`]):
    /// `Pair::a` indexes `rays`, `Pair::b` indexes `boxes`.
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range.
    pub fn cast_point_aabb(
        &mut self,
        rays: impl RayInput,
        boxes: impl AabbInput,
        pairs: &[Pair],
    ) -> Result<&[PairSweep], Error> {
        rays.checked_len()?;
        boxes.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<CastPointAabb, _, _, 4, 4>::new(rays, boxes),
            pairs,
            &mut self.sweeps,
        )?;
        Ok(&self.sweeps[..n])
    }

    /// The pairs of 2D oriented boxes that overlap (closed), with their minimum
    /// translation vectors, in pair order ([`scalar::overlap_obb2_obb2`]).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range.
    pub fn overlap_obb2_obb2(
        &mut self,
        boxes: impl Obb2Input,
        pairs: &[Pair],
    ) -> Result<&[PairMtv2], Error> {
        boxes.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<Obb2Obb2, _, _, 6, 6>::new(boxes, boxes),
            pairs,
            &mut self.mtv2,
        )?;
        Ok(&self.mtv2[..n])
    }

    /// The pairs of 3D oriented boxes that overlap (closed), with their minimum
    /// translation vectors, in pair order ([`scalar::overlap_obb3_obb3`]).
    ///
    /// # Errors
    /// [`Error::LengthMismatch`] for columns of different lengths; [`Error::PairOutOfRange`]
    /// for a pair index out of range.
    pub fn overlap_obb3_obb3(
        &mut self,
        boxes: impl Obb3Input,
        pairs: &[Pair],
    ) -> Result<&[PairMtv3], Error> {
        boxes.checked_len()?;
        let n = run_batch(
            &self.config,
            &Shapes::<Obb3Obb3, _, _, 15, 15>::new(boxes, boxes),
            pairs,
            &mut self.mtv3,
        )?;
        Ok(&self.mtv3[..n])
    }
}
