//! Scattering boxes into bands (one validating pass), then ordering each band along the
//! sweep axis with a counting sort on buckets of its minimum, in cache.
//!
//! ```text
//!  pass    per chunk of input: validate; append (s0, s1, b0, b1, id) to the chunk's
//!          buffer of every band the box reaches (one sequential write stream per band)
//!
//!  chunk 0: │ band 0 │ band 1 │ ... │      each buffer in input order, with the min and
//!  chunk 1: │ band 0 │ band 1 │ ... │      max of its s0
//!
//!  per band, in cache (a work item takes a run of bands):
//!    read band k of every chunk, in chunk order (= input order)
//!    bucket(s0) = ⌊(s0 - min s0) · B / (max s0 - min s0)⌋ with B = entries
//!      (eight entries at a time in lanes, with the histogram: Histogram)
//!    counting sort by bucket (stable: input order within a bucket), scattering
//!      [s0 s1 b0 b1] records and the id (+ filter) columns of BandSoa
//!    split the records into the s0 s1 b0 b1 columns, LANES sentinels after them,
//!      key[m] = min(s0[m..]) (suffix minimum: non-decreasing, key[m] <= s0[m])
//!      (SplitKeys)
//! ```
//!
//! The band is not sorted exactly: within a bucket, entries stay in input order. The
//! sweep does not need more. It tests the whole closed-interval overlap (both sweep-axis
//! inequalities) and ends a window at the first `m` with `key[m] > s1[i]`: every later
//! entry has `s0 >= key >= key[m] > s1[i]`, and an overlapping `j` after `i` has
//! `key[m] <= key[j] <= s0[j] <= s1[i]` for every `m` up to `j`, so the window reaches
//! it. This replaces an exact sort (measured: the insertion sort that finished the
//! buckets was a third of the broad phase, most of it mispredicted branches).
//!
//! The order is a function of the band's entries alone (its min, max and size, and the
//! input order), so neither the number of chunks (the thread count) nor the SIMD level
//! changes it.

use super::BandOrder;
use super::layout::{Layout, to_index};
use super::set::{BoundsRead, BoxSet, WithBounds, all_plainly_valid};
use super::sort::{ordered_key, radix_sort};
use super::sweep::{BandView, CONT};
use crate::error::BoxDefect;
use crate::lanes::{F32W, LANES, SimdLevel, SimdTask, dispatch};
use crate::math::box_defect;
use crate::store::Filter;

/// One box copy in one band, in sweep-axis coordinates.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C)]
pub(crate) struct Entry {
    pub s0: f32,
    pub s1: f32,
    pub b0: f32,
    pub b1: f32,
    /// Input index, with [`CONT`] set on copies after the box's first band.
    pub id: u32,
}

/// Chunks of at least this many boxes prefetch their band buffers ahead of the appends.
/// A large chunk's buffers no longer fit in L2: each new cache line of a band's buffer
/// then waited for memory, and with one band per box in no order, the hardware did not
/// see it coming. Uniform, one thread: 1M boxes 43.7 -> 31.4 ms, 400k 13.8 -> 11.8 ms;
/// at 100k it cost 1-3%.
const PREFETCH_FROM: usize = 1 << 18;
/// How many entries ahead of the append the scatter prefetches (4 to 24 measured the
/// same).
const PREFETCH_AHEAD: usize = 6;

/// One chunk's copies in one band.
#[derive(Debug, Default)]
pub(crate) struct BandBuf {
    pub entries: Vec<Entry>,
    /// Empty unless filtered.
    pub filters: Vec<Filter>,
    /// Min and max of the entries' `s0`.
    pub lo: f32,
    pub hi: f32,
}

impl BandBuf {
    /// Appends `e` (and its filter, when filtered); with `prefetch`, asks for the
    /// buffer's cache line [`PREFETCH_AHEAD`] entries ahead.
    #[inline(always)]
    fn append(&mut self, e: Entry, filter: Option<Filter>, prefetch: bool) {
        self.entries.push(e);
        if prefetch {
            let ahead = self.entries.len() + PREFETCH_AHEAD;
            crate::lanes::prefetch(self.entries.as_ptr().wrapping_add(ahead));
        }
        if let Some(f) = filter {
            self.filters.push(f);
        }
        self.lo = if e.s0 < self.lo { e.s0 } else { self.lo };
        self.hi = if e.s0 > self.hi { e.s0 } else { self.hi };
    }
}

/// A contiguous run of one set's boxes, scattered into one buffer per band.
#[derive(Debug, Default)]
pub(crate) struct Chunk {
    pub start: usize,
    pub end: usize,
    pub bands: Vec<BandBuf>,
}

impl Chunk {
    /// Validates the chunk's boxes and appends each to the buffers of its bands.
    ///
    /// # Errors
    /// The first invalid box (its input index).
    pub(crate) fn scatter(
        &mut self,
        set: &BoxSet<'_>,
        layout: &Layout,
        filtered: bool,
        level: SimdLevel,
    ) -> Result<(), (usize, BoxDefect)> {
        let bands = layout.bands as usize;
        // Only ever grown: a call with fewer bands keeps the others' buffers (and their
        // capacity) for the next call with more, so steady frames allocate nothing.
        // Readers take `[..layout.bands]`.
        if self.bands.len() < bands {
            self.bands.resize_with(bands, BandBuf::default);
        }
        for b in &mut self.bands[..bands] {
            b.entries.clear();
            b.filters.clear();
            b.lo = f32::INFINITY;
            b.hi = f32::NEG_INFINITY;
        }
        set.with_bounds(ScatterChunk {
            chunk: self,
            set,
            layout,
            filtered,
            level,
        })
    }
}

struct ScatterChunk<'a, 'b> {
    chunk: &'a mut Chunk,
    set: &'a BoxSet<'b>,
    layout: &'a Layout,
    filtered: bool,
    level: SimdLevel,
}

impl ScatterChunk<'_, '_> {
    /// Validates box `i` and appends it to its bands.
    #[inline(always)]
    fn put(
        bands: &mut [BandBuf],
        l: &Layout,
        set: &BoxSet<'_>,
        filtered: bool,
        i: usize,
        b: [f32; 4],
    ) -> Result<(), (usize, BoxDefect)> {
        let [x0, y0, x1, y1] = b;
        // Valid: ordered, and finite (an infinite or NaN coordinate makes an extent
        // infinite or NaN). Extents that overflow but are finite take the slow path.
        if !(x0 <= x1 && y0 <= y1 && x1 - x0 <= f32::MAX && y1 - y0 <= f32::MAX)
            && let Some(defect) = box_defect(x0, y0, x1, y1)
        {
            return Err((i, defect));
        }
        let [s0, b0, s1, b1] = l.project(b);
        let (f, last) = (l.band_of(b0) as usize, l.band_of(b1) as usize);
        Self::push(bands, set, filtered, false, i, [s0, s1, b0, b1], f, last);
        Ok(())
    }

    /// Appends valid box `i` (sweep-axis coordinates `[s0, s1, b0, b1]`) to bands
    /// `f..=last` (see [`BandBuf::append`] for `prefetch`).
    #[allow(clippy::too_many_arguments)] // inlined, with constant flags
    #[inline(always)]
    fn push(
        bands: &mut [BandBuf],
        set: &BoxSet<'_>,
        filtered: bool,
        prefetch: bool,
        i: usize,
        [s0, s1, b0, b1]: [f32; 4],
        f: usize,
        last: usize,
    ) {
        let filter = filtered.then(|| set.filter(i));
        let entry = Entry {
            s0,
            s1,
            b0,
            b1,
            id: i as u32,
        };
        // The box in the bands after its first.
        let copy = Entry {
            id: entry.id | CONT,
            ..entry
        };
        if f == last
            && let Some(band) = bands.get_mut(f)
        {
            // Most boxes reach one band: no range to build (uniform 100k: 5% fewer
            // instructions in the whole broad phase).
            band.append(entry, filter, prefetch);
            return;
        }
        if last == f + 1
            && let [first, second] = &mut bands[f..=last]
        {
            // Two bands, most of the rest (uniform 100k: 13% of the boxes).
            first.append(entry, filter, prefetch);
            second.append(copy, filter, prefetch);
            return;
        }
        for (k, band) in bands[f..last + 1].iter_mut().enumerate() {
            band.append(if k == 0 { entry } else { copy }, filter, prefetch);
        }
    }
}

impl WithBounds for ScatterChunk<'_, '_> {
    type Output = Result<(), (usize, BoxDefect)>;
    #[inline]
    fn call<B: BoundsRead>(self, bounds: B) -> Self::Output {
        let l = *self.layout;
        let start = self.chunk.start;
        let count = self.chunk.end - start;
        let bands = &mut self.chunk.bands[..l.bands as usize];
        // Whole groups of eight in lanes (validation and band indices), the rest here.
        let done = if self.level == SimdLevel::Scalar {
            0
        } else {
            let task = ScatterLanes {
                bands: &mut *bands,
                layout: l,
                set: self.set,
                filtered: self.filtered,
                bounds,
                start,
                count,
            };
            dispatch(self.level, task)?
        };
        for (k, b) in bounds.iter(start + done..).take(count - done).enumerate() {
            Self::put(bands, &l, self.set, self.filtered, start + done + k, b)?;
        }
        Ok(())
    }
}

/// The scatter on eight boxes at a time: the same validation and the same band
/// indices as [`ScatterChunk::put`] (the same `f32` operations, in lanes), then the
/// same appends. A group with a box that fails the quick validity test goes through
/// `put` box by box, which names the defect. Returns how many boxes it handled (whole
/// groups from `start`).
struct ScatterLanes<'a, 'b, B> {
    bands: &'a mut [BandBuf],
    layout: Layout,
    set: &'a BoxSet<'b>,
    filtered: bool,
    bounds: B,
    start: usize,
    count: usize,
}

impl<B: BoundsRead> SimdTask for ScatterLanes<'_, '_, B> {
    type Output = Result<usize, (usize, BoxDefect)>;
    #[inline(always)]
    fn run<W: F32W>(self) -> Self::Output {
        // The flags as constants, so that the per-box appends test nothing for them.
        match (self.filtered, self.count >= PREFETCH_FROM) {
            (true, true) => self.groups::<W, true, true>(),
            (true, false) => self.groups::<W, true, false>(),
            (false, true) => self.groups::<W, false, true>(),
            (false, false) => self.groups::<W, false, false>(),
        }
    }
}

impl<B: BoundsRead> ScatterLanes<'_, '_, B> {
    /// [`SimdTask::run`] with `self.filtered == FILTERED`, prefetching with `PREFETCH`.
    ///
    /// Software-pipelined: a group's lanes are computed and stored one step before its
    /// boxes are appended, so that the appends read the stored lanes from cache instead
    /// of waiting on forwards from the vector stores just made.
    #[inline(always)]
    fn groups<W: F32W, const FILTERED: bool, const PREFETCH: bool>(
        self,
    ) -> Result<usize, (usize, BoxDefect)> {
        let l = self.layout;
        let n_bands = l.bands.max(1);
        let (origin, inv) = (W::splat(l.origin), W::splat(l.inv_height));
        // `to_index`'s clamp, in lanes: NaN and below 0 to 0, above to the last band.
        let (zero, top) = (W::splat(0.0), W::splat((n_bands - 1) as f32));
        let full = self.count / LANES * LANES;
        // Per parity of the group: its lanes (left stale for a group with a suspect box,
        // which `flush` takes box by box from the input).
        let mut bufs = [GroupLanes::default(); 2];
        // The group waiting for its appends: (first box, whether its lanes are valid).
        let mut pending: Option<(usize, bool)> = None;
        // (A function, not a closure: a closure was compiled apart from the AVX2
        // dispatcher, for the baseline target.)
        #[inline(always)]
        fn flush<B: BoundsRead, const FILTERED: bool, const PREFETCH: bool>(
            bands: &mut [BandBuf],
            bounds: &B,
            l: &Layout,
            set: &BoxSet<'_>,
            g: &GroupLanes,
            (i, valid): (usize, bool),
        ) -> Result<(), (usize, BoxDefect)> {
            if !valid {
                for (k, b) in bounds.iter(i..).take(LANES).enumerate() {
                    ScatterChunk::put(bands, l, set, FILTERED, i + k, b)?;
                }
                return Ok(());
            }
            // From the slice, so that the compiler sees every index below its length.
            let top = bands.len().saturating_sub(1);
            for k in 0..LANES {
                // In [0, n_bands - 1] (clamped above), as `to_index` gives.
                let f = (g.first[k] as u32 as usize).min(top);
                let e = (g.last[k] as u32 as usize).min(top);
                ScatterChunk::push(bands, set, FILTERED, PREFETCH, i + k, g.rec[k], f, e);
            }
            Ok(())
        }
        for g in (0..full).step_by(LANES) {
            let i = self.start + g;
            let [x0, y0, x1, y1] = self.bounds.lanes::<W>(i);
            let valid = all_plainly_valid([x0, y0, x1, y1]);
            if valid {
                let (s0, b0, s1, b1) = if l.sweep_axis == 0 {
                    (x0, y0, x1, y1)
                } else {
                    (y0, x0, y1, x1)
                };
                let buf = &mut bufs[(i / LANES) & 1];
                buf.first = ((b0 - origin) * inv).max(zero).min(top).trunc_i32();
                buf.last = ((b1 - origin) * inv).max(zero).min(top).trunc_i32();
                W::store_transposed4([s0, s1, b0, b1], &mut buf.rec);
            }
            if let Some(p) = pending.replace((i, valid)) {
                let g = &bufs[(p.0 / LANES) & 1];
                flush::<B, FILTERED, PREFETCH>(self.bands, &self.bounds, &l, self.set, g, p)?;
            }
        }
        if let Some(p) = pending {
            let g = &bufs[(p.0 / LANES) & 1];
            flush::<B, FILTERED, PREFETCH>(self.bands, &self.bounds, &l, self.set, g, p)?;
        }
        Ok(full)
    }
}

/// One group's lanes, as the appends read them: band indices, and each box's
/// sweep-axis coordinates `[s0, s1, b0, b1]` as one record, transposed in lanes
/// ([`F32W::store_transposed4`]): a 16-byte load and store per append instead of four
/// of each. Against four columns, one thread, fastest of five interleaved processes:
/// uniform 100k 1.031 -> 0.991 ms, bullet hell 100k 0.942 -> 0.916, clusters 100k
/// 2.764 -> 2.738.
#[derive(Clone, Copy, Default)]
struct GroupLanes {
    first: [i32; LANES],
    last: [i32; LANES],
    rec: [[f32; 4]; LANES],
}

/// Scratch for ordering one band (kept per work item).
#[derive(Debug, Default)]
pub(crate) struct OrderScratch {
    bucket: Vec<u32>,
    start: Vec<u32>,
    /// For the exact sorts: the band's entries gathered, their keys, the permutation.
    flat: Vec<Entry>,
    flat_f: Vec<Filter>,
    keys: Vec<u32>,
    perm: Vec<u32>,
    tmp: [Vec<u32>; 3],
    packed: Vec<u64>,
}

/// Buckets per entry: finer buckets cut the windows' slack, coarser ones the histogram.
/// One measured best against two once the histogram pass was tight (fastest of 4-5
/// processes, one thread: uniform 100k 2.24 -> 2.14 ms, clusters 100k 5.47 -> 5.15,
/// bullet hell 100k 1.80 -> 1.74; 1M uniform even; callgrind -1% to -3%); two had beaten
/// ½ and 1 before.
const BUCKETS_PER_ENTRY: usize = 1;

/// A band whose fullest bucket holds more entries than this is ordered exactly (see
/// `BandSoa::order_band`).
const CROWDED_BUCKET: u32 = 128;

/// One band in structure-of-arrays form, padded with [`LANES`] sentinels: what the sweep
/// reads (kept per work item, reused band after band).
#[derive(Debug, Default)]
pub(crate) struct BandSoa {
    /// `[s0, s1, b0, b1]` of each entry in sweep order, as the ordering scatters them
    /// (one 16-byte store per entry instead of four into four columns); split into the
    /// columns by [`BandSoa::finish`].
    rec: Vec<[f32; 4]>,
    key: Vec<f32>,
    s0: Vec<f32>,
    s1: Vec<f32>,
    b0: Vec<f32>,
    b1: Vec<f32>,
    id: Vec<u32>,
    filter: Vec<Filter>,
}

/// How every band of one call is laid out.
#[derive(Debug, Clone, Copy)]
pub(crate) struct BandPlan {
    pub order: BandOrder,
    /// The layout's sweep-axis bounds (see `Layout::sweep_lo`).
    pub range: (f32, f32),
    pub level: SimdLevel,
}

impl BandSoa {
    /// Lays out band `k` of `chunks` for the sweep: ordered (by bucket of `s0`, a
    /// stable counting sort, unless `plan` asks for an exact sort), split into columns
    /// with the sentinels after them, and keyed.
    pub(crate) fn lay_out(
        &mut self,
        chunks: &[Chunk],
        k: usize,
        filtered: bool,
        plan: &BandPlan,
        sc: &mut OrderScratch,
    ) {
        self.order_band(chunks, k, filtered, plan, sc);
        self.finish(plan.level);
    }

    /// Orders band `k` of `chunks` into the records and the id (and filter) columns.
    fn order_band(
        &mut self,
        chunks: &[Chunk],
        k: usize,
        filtered: bool,
        plan: &BandPlan,
        sc: &mut OrderScratch,
    ) {
        let (range, level) = (plan.range, plan.level);
        let parts = || chunks.iter().map(move |c| &c.bands[k]);
        let n: usize = parts().map(|b| b.entries.len()).sum();
        if plan.order != BandOrder::Buckets {
            self.order_exact(chunks, k, n, filtered, plan.order, sc);
            return;
        }
        let lo = parts().fold(f32::INFINITY, |m, b| if b.lo < m { b.lo } else { m });
        let hi = parts().fold(f32::NEG_INFINITY, |m, b| if b.hi > m { b.hi } else { m });
        // Within the layout's sweep range when the band overlaps it: one far-away entry
        // must not stretch the buckets of all the others.
        let (lo, hi) = match (lo.max(range.0), hi.min(range.1)) {
            (l, h) if l < h => (l, h),
            _ => (lo, hi),
        };
        let buckets = (n * BUCKETS_PER_ENTRY).clamp(1, 1 << 24);
        let inv = buckets as f32 / (hi - lo);
        let inv = if inv.is_finite() { inv } else { 0.0 };
        // Bucket of every entry and the histogram, in one pass; then the exclusive
        // prefix sum (a running total in a register: the loop-carried add through
        // memory was a tenth of the ordering).
        sc.bucket.clear();
        sc.bucket.resize(n, 0);
        sc.start.clear();
        sc.start.resize(buckets, 0);
        let mut at = 0;
        for b in parts() {
            let m = b.entries.len();
            let task = Histogram {
                entries: &b.entries,
                lo,
                inv,
                count: &mut sc.start[..buckets],
                bucket: &mut sc.bucket[at..at + m],
            };
            if level == SimdLevel::Scalar {
                task.scalar(0);
            } else {
                dispatch(level, task);
            }
            at += m;
        }
        let count = &mut sc.start[..buckets];
        let (mut total, mut most) = (0, 0);
        for c in count.iter_mut() {
            most = most.max(*c);
            (*c, total) = (total, total + *c);
        }
        if most > CROWDED_BUCKET {
            // The buckets collapsed: a bucket's entries stay in input order and the
            // sweep's windows over them could grow to the whole bucket (quadratic).
            // This happens when the band's range is stretched by boxes far beyond the
            // layout's bounds, or when many boxes pile onto one spot; an exact sort
            // bounds every window to the boxes that overlap on the sweep axis.
            self.order_exact(chunks, k, n, filtered, BandOrder::Radix, sc);
            return;
        }
        self.prepare(n, filtered);
        let (rec, id) = (&mut self.rec[..n], &mut self.id[..n]);
        let mut i = 0;
        for b in parts() {
            for (j, x) in b.entries.iter().enumerate() {
                let slot = &mut sc.start[sc.bucket[i] as usize];
                let at = *slot as usize;
                *slot += 1;
                rec[at] = [x.s0, x.s1, x.b0, x.b1];
                id[at] = x.id;
                if filtered {
                    self.filter[at] = b.filters[j];
                }
                i += 1;
            }
        }
    }

    /// Sizes the columns for `n` entries and writes the sentinels.
    fn prepare(&mut self, n: usize, filtered: bool) {
        let m = n + LANES;
        self.rec.resize(n, [0.0; 4]);
        for c in [&mut self.s0, &mut self.b0, &mut self.key] {
            c.resize(m, 0.0);
            c[n..].fill(f32::INFINITY);
        }
        for c in [&mut self.s1, &mut self.b1] {
            c.resize(m, 0.0);
            c[n..].fill(f32::NEG_INFINITY);
        }
        self.id.resize(m, 0);
        self.id[n..].fill(CONT);
        if filtered {
            self.filter.resize(m, Filter::ALL);
            self.filter[n..].fill(Filter::new(0, 0));
        } else {
            self.filter.clear();
        }
    }

    /// Writes entry `x` (and filter `f`) at position `at`.
    #[inline(always)]
    fn put(&mut self, at: usize, x: &Entry, f: Option<Filter>) {
        self.rec[at] = [x.s0, x.s1, x.b0, x.b1];
        self.id[at] = x.id;
        if let Some(f) = f {
            self.filter[at] = f;
        }
    }

    /// The exact orders: by `(s0, input index)`, through an LSD radix sort or the
    /// standard library's unstable sort (kept to measure against the buckets).
    fn order_exact(
        &mut self,
        chunks: &[Chunk],
        k: usize,
        n: usize,
        filtered: bool,
        order: BandOrder,
        sc: &mut OrderScratch,
    ) {
        sc.flat.clear();
        sc.flat_f.clear();
        for c in chunks {
            sc.flat.extend_from_slice(&c.bands[k].entries);
            sc.flat_f.extend_from_slice(&c.bands[k].filters);
        }
        sc.keys.clear();
        sc.keys.extend(sc.flat.iter().map(|e| ordered_key(e.s0)));
        match order {
            BandOrder::Radix => {
                let [t0, t1, t2] = &mut sc.tmp;
                radix_sort(&sc.keys, &mut sc.perm, t0, t1, t2);
            }
            _ => {
                sc.packed.clear();
                sc.packed.extend(
                    sc.keys
                        .iter()
                        .enumerate()
                        .map(|(i, &k)| (u64::from(k) << 32) | i as u64),
                );
                sc.packed.sort_unstable();
                sc.perm.clear();
                sc.perm.extend(sc.packed.iter().map(|&p| p as u32));
            }
        }
        self.prepare(n, filtered);
        for (at, &src) in sc.perm.iter().enumerate() {
            let src = src as usize;
            let f = filtered.then(|| sc.flat_f[src]);
            self.put(at, &sc.flat[src], f);
        }
    }

    /// Finishes the band ordered last: splits its records into the columns and
    /// computes the keys, the suffix minimum of s0 (the window's end test).
    fn finish(&mut self, level: SimdLevel) {
        let n = self.id.len() - LANES;
        let task = SplitKeys {
            rec: &self.rec[..n],
            key: &mut self.key[..n],
            s0: &mut self.s0[..n],
            s1: &mut self.s1[..n],
            b0: &mut self.b0[..n],
            b1: &mut self.b1[..n],
        };
        if level == SimdLevel::Scalar {
            task.scalar(n, f32::INFINITY);
        } else {
            dispatch(level, task);
        }
    }

    /// The sweep's view.
    pub(crate) fn view(&self) -> BandView<'_> {
        BandView {
            n: self.id.len() - LANES,
            key: &self.key,
            s0: &self.s0,
            s1: &self.s1,
            b0: &self.b0,
            b1: &self.b1,
            id: &self.id,
            filter: &self.filter,
        }
    }
}

/// `key[m] = min(s0[m..], carry)`, one entry at a time (the [`SimdLevel::Scalar`] path,
/// and the head of the lane path).
fn suffix_min_scalar(key: &mut [f32], s0: &[f32], mut carry: f32) {
    for (k, &x) in key.iter_mut().zip(s0).rev() {
        carry = if x < carry { x } else { carry };
        *k = carry;
    }
}

/// The bucket of each of a band part's entries, `to_index((s0 - lo) · inv, buckets)`
/// with `buckets = count.len()` (at least one), and their histogram: `count[b]` grows by
/// the number of entries in bucket `b`. In lanes, eight buckets at once and then eight
/// counts, against one entry at a time (one thread, fastest of five interleaved
/// processes: uniform 100k 0.915 -> 0.885 ms, bullet hell 100k 0.873 -> 0.841,
/// clusters 100k even).
struct Histogram<'a> {
    entries: &'a [Entry],
    lo: f32,
    inv: f32,
    count: &'a mut [u32],
    bucket: &'a mut [u32],
}

impl Histogram<'_> {
    /// The entries from `from` on, one at a time.
    #[inline(always)]
    fn scalar(self, from: usize) {
        let buckets = self.count.len() as u32;
        for (x, k) in self.entries[from..].iter().zip(&mut self.bucket[from..]) {
            *k = to_index((x.s0 - self.lo) * self.inv, buckets);
            // `to_index` is below `buckets`.
            self.count[*k as usize] += 1;
        }
    }
}

impl SimdTask for Histogram<'_> {
    type Output = ();
    #[inline(always)]
    fn run<W: F32W>(self) {
        let Some(top) = self.count.len().checked_sub(1) else {
            return; // never: `order_band` makes one bucket at least
        };
        // `to_index` in lanes, as in the scatter.
        let (lo, inv) = (W::splat(self.lo), W::splat(self.inv));
        let (zero, top_f) = (W::splat(0.0), W::splat(top as f32));
        let full = self.entries.len() / LANES * LANES;
        // Each group's buckets are tallied one group later, once the lanes' store has
        // left the store buffer (bullet hell 100k 0.855 -> 0.841 ms).
        let mut pending: Option<(usize, [i32; LANES])> = None;
        for g in (0..full).step_by(LANES) {
            let e: &[Entry; LANES] = self.entries[g..g + LANES].try_into().expect("8");
            let s0 = W::from_array(core::array::from_fn(|k| e[k].s0));
            let b = ((s0 - lo) * inv).max(zero).min(top_f).trunc_i32();
            if let Some((p, b)) = pending.replace((g, b)) {
                tally(
                    self.count,
                    top,
                    &b,
                    (&mut self.bucket[p..p + LANES]).try_into().expect("8"),
                );
            }
        }
        if let Some((p, b)) = pending {
            tally(
                self.count,
                top,
                &b,
                (&mut self.bucket[p..p + LANES]).try_into().expect("8"),
            );
        }
        self.scalar(full);
    }
}

/// Counts eight buckets from lanes, clamped above to `top` (the last bucket, as
/// `to_index` does), and writes them to `out`.
#[inline(always)]
fn tally(count: &mut [u32], top: usize, lanes: &[i32; LANES], out: &mut [u32; LANES]) {
    for (o, &b) in out.iter_mut().zip(lanes) {
        let b = (b as u32 as usize).min(top);
        count[b] += 1;
        *o = b as u32;
    }
}

/// The split of a band's records into its columns, and its keys, in lanes: blocks of
/// eight records from the end, transposed into columns ([`F32W::load_transposed4`]).
/// Scattering one 16-byte record per entry in the counting sort and splitting them here
/// in order beat scattering into the four columns at once, four random stores per entry
/// (one thread, fastest of five interleaved processes: uniform 100k 0.984 -> 0.919 ms,
/// bullet hell 100k 0.920 -> 0.879, clusters 100k 2.755 -> 2.673, uniform 1M 11.6 -> 10.8).
///
/// The keys: each block's own suffix minimum ([`F32W::suffix_min`], off the
/// loop-carried path) then the minimum with the block after it. One entry at a time,
/// the loop was a chain of dependent `minss`: a tenth of the broad phase on uniform
/// 100k.
///
/// The keys can differ from the scalar loop's only in the sign of a zero (the minimum
/// of `-0.0` and `0.0` depends on the order of the operands); they compare the same,
/// so the sweep finds the same pairs in the same order.
struct SplitKeys<'a> {
    rec: &'a [[f32; 4]],
    key: &'a mut [f32],
    s0: &'a mut [f32],
    s1: &'a mut [f32],
    b0: &'a mut [f32],
    b1: &'a mut [f32],
}

impl SplitKeys<'_> {
    /// The split of the first `head` records, one at a time, and their keys, given
    /// `carry`, the minimum of the s0 after them.
    #[inline(always)]
    fn scalar(self, head: usize, carry: f32) {
        for (k, r) in self.rec[..head].iter().enumerate() {
            [self.s0[k], self.s1[k], self.b0[k], self.b1[k]] = *r;
        }
        suffix_min_scalar(&mut self.key[..head], &self.s0[..head], carry);
    }
}

impl SimdTask for SplitKeys<'_> {
    type Output = ();
    #[inline(always)]
    fn run<W: F32W>(self) {
        let n = self.rec.len();
        let head = n % LANES;
        let mut carry = W::splat(f32::INFINITY);
        for b in (head..n).step_by(LANES).rev() {
            let [s0, s1, b0, b1] =
                W::load_transposed4(bytemuck::cast_slice(&self.rec[b..b + LANES]));
            s0.store(&mut self.s0[b..]);
            s1.store(&mut self.s1[b..]);
            b0.store(&mut self.b0[b..]);
            b1.store(&mut self.b1[b..]);
            let m = s0.suffix_min().min(carry);
            m.store(&mut self.key[b..]);
            carry = W::splat(m.to_array()[0]);
        }
        if head > 0 {
            self.scalar(head, carry.to_array()[0]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    /// The s0 column of a band of `n` unit boxes whose minima fall from `n` to 1, ordered
    /// with buckets over the sweep range `range`.
    fn ordered_s0(n: usize, range: (f32, f32)) -> Vec<f32> {
        let boxes: Vec<crate::math::Aabb> = (0..n)
            .map(|i| {
                let x = (n - i) as f32;
                crate::math::Aabb::from_coords(x, 0.0, x + 1.0, 1.0)
            })
            .collect();
        let mut chunk = Chunk {
            start: 0,
            end: n,
            ..Chunk::default()
        };
        let set = BoxSet::from(&boxes[..]);
        chunk
            .scatter(&set, &Layout::SINGLE, false, SimdLevel::Scalar)
            .unwrap();
        let mut soa = BandSoa::default();
        let mut scratch = OrderScratch::default();
        let chunks = [chunk];
        let plan = BandPlan {
            order: BandOrder::Buckets,
            range,
            level: SimdLevel::Scalar,
        };
        soa.lay_out(&chunks, 0, false, &plan, &mut scratch);
        soa.s0[..n].to_vec()
    }

    #[test]
    fn a_band_whose_buckets_collapse_is_ordered_exactly() {
        let is_sorted = |v: &[f32]| v.windows(2).all(|w| w[0] <= w[1]);
        // Buckets over the whole range: one box a bucket, in order.
        assert!(is_sorted(&ordered_s0(
            1000,
            (f32::NEG_INFINITY, f32::INFINITY)
        )));
        // A sweep range of (0, 2): every box from 2 on falls in the last bucket, where
        // the bucket order keeps input order (falling) up to CROWDED_BUCKET entries...
        let few = ordered_s0(CROWDED_BUCKET as usize, (0.0, 2.0));
        assert!(!is_sorted(&few), "{few:?}");
        // ...and beyond, the band is sorted exactly.
        let many = ordered_s0(CROWDED_BUCKET as usize + 10, (0.0, 2.0));
        assert!(is_sorted(&many), "{many:?}");
    }

    #[test]
    fn bucket_histograms_agree_with_to_index_at_every_level() {
        let mut rng = Rng::new(11);
        for n in (0..40).chain([63, 64, 65, 1000, 1001]) {
            let buckets = [1, 2, 7, n.max(1), 3 * n + 1][rng.below(5) as usize];
            let (lo, hi) = (rng.range_f32(-50.0, 0.0), rng.range_f32(1.0, 50.0));
            // `inv = 0` when the band has no extent (every entry in bucket 0).
            let inv = if rng.below(8) == 0 {
                0.0
            } else {
                buckets as f32 / (hi - lo)
            };
            // Entries below `lo` and beyond `hi` (clamped), on it, and huge ones.
            let entries: Vec<Entry> = (0..n)
                .map(|i| Entry {
                    s0: match rng.below(8) {
                        0 => lo,
                        1 => hi,
                        2 => lo - 10.0,
                        3 => hi + 10.0,
                        4 => f32::MAX,
                        5 => -f32::MAX,
                        _ => rng.range_f32(lo, hi),
                    },
                    id: i as u32,
                    ..Entry::default()
                })
                .collect();
            let want: Vec<u32> = entries
                .iter()
                .map(|e| to_index((e.s0 - lo) * inv, buckets as u32))
                .collect();
            let mut want_count = vec![0u32; buckets];
            for &b in &want {
                want_count[b as usize] += 1;
            }
            for &level in SimdLevel::available() {
                let (mut count, mut bucket) = (vec![0; buckets], vec![u32::MAX; n]);
                let task = Histogram {
                    entries: &entries,
                    lo,
                    inv,
                    count: &mut count,
                    bucket: &mut bucket,
                };
                if level == SimdLevel::Scalar {
                    task.scalar(0);
                } else {
                    dispatch(level, task);
                }
                assert_eq!(bucket, want, "{level:?}, n = {n}, {buckets} buckets");
                assert_eq!(count, want_count, "{level:?}, n = {n}, {buckets} buckets");
            }
        }
    }

    #[test]
    fn bands_split_into_columns_with_suffix_minimum_keys_at_every_level() {
        let mut rng = Rng::new(7);
        for n in (0..40).chain([63, 64, 65, 1000, 1001]) {
            // Ties, ±0 and sentinel-like values among random ones.
            let s0: Vec<f32> = (0..n)
                .map(|_| match rng.below(6) {
                    0 => 0.0,
                    1 => -0.0,
                    2 => 5.0,
                    3 => f32::MAX,
                    _ => rng.range_f32(-100.0, 100.0),
                })
                .collect();
            let rec: Vec<[f32; 4]> = s0
                .iter()
                .map(|&x| {
                    [
                        x,
                        x + 1.0,
                        rng.range_f32(-9.0, 9.0),
                        rng.range_f32(-9.0, 9.0),
                    ]
                })
                .collect();
            let want: Vec<f32> = (0..n)
                .map(|m| s0[m..].iter().copied().fold(f32::INFINITY, f32::min))
                .collect();
            for &level in SimdLevel::available() {
                let mut soa = BandSoa::default();
                soa.prepare(n, false);
                soa.rec.copy_from_slice(&rec);
                soa.finish(level);
                // The sign of a zero may differ by level; the values compare equal.
                assert_eq!(&soa.key[..n], &want[..], "{level:?}, n = {n}");
                assert!(soa.key[n..].iter().all(|k| *k == f32::INFINITY));
                let cols = [&soa.s0, &soa.s1, &soa.b0, &soa.b1];
                for (c, col) in cols.iter().enumerate() {
                    let want: Vec<u32> = rec.iter().map(|r| r[c].to_bits()).collect();
                    let got: Vec<u32> = col[..n].iter().map(|x| x.to_bits()).collect();
                    assert_eq!(got, want, "{level:?}, n = {n}, column {c}");
                }
                // The sentinels are left as they were.
                assert!(soa.s0[n..].iter().all(|x| *x == f32::INFINITY));
                assert!(soa.s1[n..].iter().all(|x| *x == f32::NEG_INFINITY));
            }
        }
    }
}
