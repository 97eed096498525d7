//! The chunk machinery every batch shares: the [`PairKernel`] a batch runs, the
//! [`HitLanes`] its lanes answer with, and the loops that run it over fixed chunks of
//! pairs (in parallel, merged in order), in blocks when a batch streams from memory.

use super::{CHUNK, NarrowConfig};
use crate::error::Error;
use crate::lanes::{F32W, LANES, SimdLevel, SimdTask, dispatch, max_indices};
use crate::pair::Pair;
use crate::pool;

/// One kernel over pairs: its scalar and lane forms and what a hit records.
pub(super) trait PairKernel: Sync {
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
pub(super) trait HitLanes<H> {
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
pub(super) fn is_deferred<H, T: HitLanes<H>>(_: &T) -> bool {
    T::DEFERRED
}

impl HitLanes<Pair> for [Pair; LANES] {
    #[inline(always)]
    fn hit(&self, k: usize) -> Pair {
        self[k]
    }
}

/// The first out-of-range index of `pairs`, as an error.
/// `pairs` starts at position `base` of the caller's input. The inputs hold at most
/// [`crate::MAX_BOXES`] shapes (`ShapeInput::checked_len`), so every index a kernel
/// reads is below 2^31 at every level.
pub(super) fn index_error(pairs: &[Pair], (len_a, len_b): (usize, usize), base: usize) -> Error {
    let bad = pairs.iter().enumerate().find_map(|(k, p)| {
        if p.a as usize >= len_a {
            Some((k, "a", p.a, len_a))
        } else if p.b as usize >= len_b {
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
pub(super) const STREAMING_PAIRS: usize = 1 << 18;

/// Appends the lanes whose bit is set to `out` at `n`; returns the new length.
///
/// One store per kept lane, a loop whose trip count is the number of hits: used by the
/// SAT kernels (whose records are not eight words) while the inputs sit in cache. The
/// plain overlap tests pack their pairs in a second pass instead (see [`ChunkTask`]),
/// and the sweeps pack whole records in lanes (`SweepLanes::emit`).
#[inline(always)]
pub(super) fn emit_cached<H>(
    mut bits: u32,
    hits: &impl HitLanes<H>,
    out: &mut [H],
    mut n: usize,
) -> usize {
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
pub(super) fn emit_streaming<H>(
    bits: u32,
    hits: &impl HitLanes<H>,
    out: &mut [H],
    n: usize,
) -> usize {
    let window = &mut out[n..n + LANES];
    let mut m = 0;
    for k in 0..LANES {
        window[m] = hits.hit(k);
        m += (bits >> k & 1) as usize;
    }
    n + m
}

/// One chunk with the lane kernels of `W`.
pub(super) struct ChunkTask<'a, K: PairKernel> {
    pub(super) kernel: &'a K,
    pub(super) lanes: K::Lanes<'a>,
    pub(super) pairs: &'a [Pair],
    pub(super) out: &'a mut [K::Hit],
    pub(super) is_streaming: bool,
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
pub(super) const STREAMING_BLOCK: usize = 512;

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
pub(super) fn run_chunk<K: PairKernel>(
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
pub(super) fn append_runs<H>(
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
pub(super) fn run_block<K: PairKernel>(
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
pub(super) fn run_batch<K: PairKernel>(
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
    // Each chunk's part of `out` to one job, through `pool`: one copy of rayon's
    // machinery for every kernel kind.
    let mut parts: Vec<&mut [K::Hit]> = out[..pairs.len()].chunks_mut(CHUNK).collect();
    let work = |k: usize, o: &mut &mut [K::Hit]| {
        let p = &pairs[pool::chunk(k, CHUNK, pairs.len())];
        run_chunk(level, is_streaming, kernel, (k * CHUNK, p), o)
    };
    let mut counts = Vec::new();
    pool::map_parts(&mut parts, &work, &mut counts);
    drop(parts);
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
