//! Broad phase: a banded sweep-and-prune over lanes of eight boxes.
//!
//! [`BroadPhase`] finds every pair of overlapping boxes in one [`BoxSet`], or between
//! two sets. The pairs are the same, in the same order, for any thread count and SIMD
//! level. [`StaticGrid`] indexes boxes that do not move, and [`brute_force_pairs`] is
//! the O(N²) reference.
//!
//! # Data flow
//! ```text
//!  BoxSet (slice / columns / store)
//!    │ 1. stats: validate every box, world bounds, mean extents     (layout.rs)
//!    │ 2. layout: sweep axis + band height from the data            (layout.rs)
//!    │ 3. scatter chunks of boxes into bands, validating            (bands.rs)
//!    │ 4. per band: counting sort on buckets of the sweep axis, SoA (bands.rs)
//!    │ 5. per band: SIMD sweep, 8 candidates per step               (sweep.rs)
//!    ▼ 6. join the work items' pair lists in band order          (join.rs)
//!  &[Pair]
//! ```
//! Steps 1, 3, 4 and 5 run in parallel with rayon when [`BroadConfig::parallel`] is set
//! and the pool has more than one thread. Steps 1 and 3 split the boxes into chunks.
//! Steps 4 and 5 split the bands into groups of consecutive bands.
//!
//! # Determinism contract
//! The pairs come out in the following order. It depends only on the boxes, never on
//! the thread count or the [`SimdLevel`].
//! 1. By band, in ascending band order. The band layout is a function of the boxes.
//! 2. Within a band, by the sweeping box `i`, in ascending order of its minimum on the
//!    sweep axis. Ties keep input order.
//! 3. For one `i`, by the candidate `j`, in the same order.
//!
//! In bipartite mode, step 2 merges the two sets' sorted lists. At a tie, the first
//! set's box comes first. Each box scans only the other set.
//!
//! Each pair is `(a, b)`. In self mode, `a < b`. In bipartite mode, `a` is from the
//! first set and `b` from the second. Sort the slice with `sort_unstable` for the
//! canonical listing of the scene format.
//!
//! # Cost
//! Steps 1, 3, 4 and 6 are linear passes. The sweep visits each box's window on the
//! sweep axis within its band. So its cost follows the number of pairs found, on every
//! scene shape tried: uniform, bullet hell, Gaussian clusters, one strip, identical
//! boxes, and huge boxes among tiny ones. `benches/broad_phase.rs` and the tables in
//! `BENCHMARKS.md` have the measurements.

mod bands;
mod brute;
mod join;
mod layout;
mod probe;
#[cfg(any(test, feature = "fuzzing"))]
pub(crate) use probe::TINY;
mod set;
mod sort;
mod statics;
mod sweep;

pub use crate::pair::Pair;
pub use brute::{brute_force_bipartite, brute_force_pairs};
pub use set::BoxSet;
pub use statics::StaticGrid;

use crate::error::Error;
use crate::lanes::SimdLevel;
use bands::{BandSoa, Chunk, OrderScratch};
use layout::Layout;
use probe::Probe;

/// What one broad-phase call did. See [`BroadPhase::last_stats`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct BroadStats {
    /// The number of bands.
    pub bands: usize,
    /// The axis swept along. `0` is x, with bands along y. `1` is y, with bands along x.
    pub sweep_axis: u8,
    /// Box copies over all bands. A box that reaches `k` bands counts `k` times.
    pub entries: usize,
    /// The number of pairs found.
    pub pairs: usize,
    /// Whether bipartite mode put the smaller set in a grid and streamed the larger set
    /// past it, instead of sweeping bands. See [`BroadPhase::find_pairs_bipartite`].
    pub grid: bool,
}

/// Settings of a [`BroadPhase`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BroadConfig {
    /// Which sweep kernel runs. The default is the best level this CPU supports.
    pub simd: SimdLevel,
    /// Whether to use rayon's current thread pool. The default is `true`. The result is
    /// the same either way.
    pub parallel: bool,
    /// Inputs with fewer boxes than this run on one thread. The default is 4096.
    pub parallel_threshold: usize,
    /// How each band is ordered along the sweep axis. The default is
    /// [`BandOrder::Buckets`].
    pub order: BandOrder,
}

/// How a band is ordered along the sweep axis before the sweep.
///
/// Every choice finds the same pairs. The order of the pairs within a band differs
/// between choices, and each choice is deterministic. [`BandOrder::Buckets`] is the
/// fastest on every scene of the `broad_phase` bench. The exact sorts are kept to
/// measure against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BandOrder {
    /// A stable counting sort of the band's minima, with about one bucket per box. The
    /// sweep's window test tolerates any order inside a bucket.
    #[default]
    Buckets,
    /// An exact sort by `(min, input index)`. It is an LSD radix sort on the float keys,
    /// mapped to integers that keep their order.
    Radix,
    /// The same exact order, through `slice::sort_unstable` on packed `(key, index)`
    /// values.
    Comparison,
}

impl Default for BroadConfig {
    fn default() -> Self {
        Self {
            simd: SimdLevel::best(),
            parallel: true,
            parallel_threshold: 4096,
            order: BandOrder::Buckets,
        }
    }
}

/// Per work item (a run of consecutive bands): scratch and its pair list.
#[derive(Debug, Default)]
struct Item {
    bands: core::ops::Range<usize>,
    soa: [BandSoa; 2],
    scratch: OrderScratch,
    pairs: Vec<Pair>,
}

/// What every work item reads.
struct Ctx<'a> {
    /// Per set, its chunks.
    chunks: [&'a [Chunk]; 2],
    bipartite: bool,
    filtered: bool,
    /// How the bands are laid out, and the SIMD level of the sweeps too.
    plan: bands::BandPlan,
}

impl Item {
    /// Sorts and sweeps this item's bands, appending to `out`.
    fn run(&mut self, ctx: &Ctx<'_>, out: &mut Vec<Pair>) {
        let sets = if ctx.bipartite { 2 } else { 1 };
        for k in self.bands.clone() {
            for s in 0..sets {
                self.soa[s].lay_out(ctx.chunks[s], k, ctx.filtered, &ctx.plan, &mut self.scratch);
            }
            let a = self.soa[0].view();
            if ctx.bipartite {
                sweep::sweep_bipartite(ctx.plan.level, &a, &self.soa[1].view(), ctx.filtered, out);
            } else {
                sweep::sweep_self(ctx.plan.level, &a, ctx.filtered, out);
            }
        }
    }
}

/// Finds every overlapping pair of boxes.
///
/// A broad phase keeps its buffers between calls. So a call per frame allocates nothing
/// once the buffers have grown.
///
/// ```
/// use hantei::{Aabb, BroadPhase, Filter, BoxSet};
/// let bullets = [Aabb::from_coords(0.0, 0.0, 1.0, 1.0), Aabb::from_coords(0.5, 0.0, 1.5, 1.0)];
/// let targets = [Aabb::from_coords(1.0, 0.5, 3.0, 3.0)];
/// let mut broad = BroadPhase::new();
/// // Bipartite: bullets × targets only, never bullet × bullet.
/// let hits = broad.find_pairs_bipartite(&bullets[..], &targets[..])?;
/// assert_eq!(hits.len(), 2);
/// // Filters: the same through layers.
/// let all = [bullets[0], bullets[1], targets[0]];
/// let f = [Filter::new(1, 2), Filter::new(1, 2), Filter::new(2, 1)];
/// let pairs = broad.find_pairs(BoxSet::from(&all[..]).with_filters(&f)?)?;
/// assert_eq!(pairs.len(), 2);
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct BroadPhase {
    config: BroadConfig,
    chunks: [Vec<Chunk>; 2],
    items: Vec<Item>,
    pairs: Vec<Pair>,
    layout: Option<Layout>,
    entries: usize,
    probe: probe::Probe,
    used_grid: bool,
    sample: Vec<[f64; 2]>,
}

impl BroadPhase {
    /// A broad phase with the default [`BroadConfig`].
    #[must_use]
    pub fn new() -> Self {
        Self::with_config(BroadConfig::default())
    }

    /// A broad phase with the given settings.
    ///
    /// A SIMD level that this CPU does not support falls back to the best supported
    /// level below it.
    #[must_use]
    pub fn with_config(config: BroadConfig) -> Self {
        Self {
            config: BroadConfig {
                simd: config.simd.supported(),
                ..config
            },
            ..Self::default()
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &BroadConfig {
        &self.config
    }

    /// Turns parallel work on or off (the frame decides per step).
    pub(crate) fn set_parallel(&mut self, on: bool) {
        self.config.parallel = on;
    }

    /// Every overlapping pair among `boxes`, each pair once, with `a < b`.
    ///
    /// The pairs come in the order of the
    /// [determinism contract](self#determinism-contract). When the set has filters,
    /// only pairs whose filters agree are returned, as
    /// [`Filter::pairs_with`](crate::Filter::pairs_with) decides.
    ///
    /// # Errors
    /// - [`Error::TooManyBoxes`] when the set has more than
    ///   [`MAX_BOXES`](crate::MAX_BOXES) boxes.
    /// - [`Error::InvalidBox`] naming the lowest invalid index.
    pub fn find_pairs<'s, 'b>(
        &'s mut self,
        boxes: impl Into<BoxSet<'b>>,
    ) -> Result<&'s [Pair], Error> {
        let set = boxes.into();
        self.run(&[set], false)
    }

    /// Every overlapping pair `(a, b)` with `a` from `first` and `b` from `second`. Two
    /// boxes of the same set are never tested.
    ///
    /// The order of the pairs is a function of the input. The call takes one of two
    /// paths:
    ///
    /// - The grid path is the fast path for bullets against targets. One set must have
    ///   at most 1/16 as many boxes as the other, and at most 65,536. Its boxes must
    ///   also be few, at most 4, or cover at most 1% of the area they span. The small
    ///   set goes into a uniform grid, and the large set streams past it in input order,
    ///   with no sorting at all. The pairs then come ordered by the large set's index
    ///   first.
    /// - Otherwise both sets are banded and swept, as in [`BroadPhase::find_pairs`].
    ///
    /// # Errors
    /// - [`Error::TooManyBoxes`] when a set has more than
    ///   [`MAX_BOXES`](crate::MAX_BOXES) boxes.
    /// - [`Error::InvalidBox`] for the first invalid box of `first`, else of `second`.
    ///   Its `index` counts through both sets, so the box at position `j` of `second`
    ///   has index `first.len() + j`.
    pub fn find_pairs_bipartite<'s, 'b>(
        &'s mut self,
        first: impl Into<BoxSet<'b>>,
        second: impl Into<BoxSet<'b>>,
    ) -> Result<&'s [Pair], Error> {
        let sets = [first.into(), second.into()];
        if Probe::fits(sets[0].len(), sets[1].len()) {
            return self.run_grid(&sets);
        }
        self.run(&sets, true)
    }

    /// Bipartite mode through the grid (see [`probe`]).
    fn run_grid(&mut self, sets: &[BoxSet<'_>; 2]) -> Result<&[Pair], Error> {
        self.pairs.clear();
        self.layout = None;
        self.entries = 0;
        self.used_grid = true;
        let s = usize::from(sets[1].len() < sets[0].len()); // the small set
        let l = 1 - s;
        crate::error::check_count(sets[l].len())?;
        // Errors name the box as `index` in the first set, `first.len() + index` in the
        // second.
        let offset =
            |set: usize, (i, d): (usize, crate::error::BoxDefect)| (i + set * sets[0].len(), d);
        let small_err = self.probe.build(&sets[s]).err().map(|e| offset(s, e));
        if s == 0
            && let Some((index, defect)) = small_err
        {
            return Err(Error::InvalidBox { index, defect });
        }
        if small_err.is_none() && !self.probe.pays() {
            return self.run(sets, true);
        }
        let large = &sets[l];
        let n = large.len();
        let threads = if self.config.parallel && n >= self.config.parallel_threshold {
            rayon::current_num_threads()
        } else {
            1
        };
        let chunks = if threads > 1 { threads * 4 } else { 1 };
        let mut outs = core::mem::take(&mut self.probe.chunk_pairs);
        outs.resize_with(chunks, Vec::new);
        let probe = &self.probe;
        let level = self.config.simd;
        let work = |(c, out): (usize, &mut Vec<Pair>)| {
            out.clear();
            probe.stream(
                large,
                n * c / chunks..n * (c + 1) / chunks,
                l == 0,
                level,
                out,
            )
        };
        let large_err = if threads > 1 {
            let mut results = Vec::new();
            crate::pool::map_parts(&mut outs, &|c, out| work((c, out)), &mut results);
            results
                .into_iter()
                .filter_map(Result::err)
                .min_by_key(|(i, _)| *i)
        } else {
            outs.iter_mut()
                .enumerate()
                .map(work)
                .filter_map(Result::err)
                .min_by_key(|(i, _)| *i)
        }
        .map(|e| offset(l, e));
        if let Some((index, defect)) = large_err.or(small_err) {
            self.probe.chunk_pairs = outs;
            return Err(Error::InvalidBox { index, defect });
        }
        if chunks == 1 {
            core::mem::swap(&mut self.pairs, &mut outs[0]);
        } else {
            self.pairs.reserve(outs.iter().map(Vec::len).sum());
            for o in &outs {
                self.pairs.extend_from_slice(o);
            }
        }
        self.probe.chunk_pairs = outs;
        Ok(&self.pairs)
    }

    /// The pairs of the last successful call. They are empty after an error.
    #[must_use]
    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// The number of bands the last call used, or 0 before any call.
    #[must_use]
    pub fn last_band_count(&self) -> usize {
        self.layout.map_or(0, |l| l.bands as usize)
    }

    /// What the last successful call did, for tuning and diagnostics.
    #[must_use]
    pub fn last_stats(&self) -> BroadStats {
        BroadStats {
            bands: self.last_band_count(),
            sweep_axis: self.layout.map_or(0, |l| l.sweep_axis as u8),
            entries: self.entries,
            pairs: self.pairs.len(),
            grid: self.used_grid,
        }
    }

    fn run(&mut self, sets: &[BoxSet<'_>], bipartite: bool) -> Result<&[Pair], Error> {
        self.pairs.clear();
        self.layout = None;
        self.entries = 0;
        self.used_grid = false;
        let total: usize = sets.iter().map(BoxSet::len).sum();
        let threads = if self.config.parallel && total >= self.config.parallel_threshold {
            rayon::current_num_threads()
        } else {
            1
        };
        let parallel = threads > 1;
        for set in sets {
            crate::error::check_count(set.len())?;
        }
        let st = layout::sample(sets, core::mem::take(&mut self.sample));
        let layout = layout::choose(&st);
        self.sample = st.centres;
        self.layout = Some(layout);
        let filtered = sets.iter().any(|s| s.filters.is_some());

        // Step 3: scatter chunks of each set into bands (validating).
        let per_chunk = if parallel {
            sets.iter()
                .map(BoxSet::len)
                .max()
                .unwrap_or(0)
                .div_ceil(threads)
                .max(1)
        } else {
            usize::MAX
        };
        for (s, set) in sets.iter().enumerate() {
            let len = set.len();
            let n_chunks = len.div_ceil(per_chunk).max(1);
            let chunks = &mut self.chunks[s];
            chunks.resize_with(n_chunks, Chunk::default);
            for (c, chunk) in chunks.iter_mut().enumerate() {
                chunk.start = len * c / n_chunks;
                chunk.end = len * (c + 1) / n_chunks;
            }
            let level = self.config.simd;
            let scatter = |c: &mut Chunk| c.scatter(set, &layout, filtered, level);
            let first_error = if parallel {
                let mut results = Vec::new();
                crate::pool::map_parts(chunks, &|_, c| scatter(c), &mut results);
                results
                    .into_iter()
                    .filter_map(Result::err)
                    .min_by_key(|(i, _)| *i)
            } else {
                chunks
                    .iter_mut()
                    .map(scatter)
                    .filter_map(Result::err)
                    .min_by_key(|(i, _)| *i)
            };
            if let Some((index, defect)) = first_error {
                let index = index + if s == 1 { sets[0].len() } else { 0 };
                return Err(Error::InvalidBox { index, defect });
            }
        }

        // Steps 4-5: runs of consecutive bands as work items (about 8 per thread).
        let bands = layout.bands as usize;
        let band_size = |k: usize| -> usize {
            (0..sets.len())
                .flat_map(|s| self.chunks[s].iter())
                .map(|c| c.bands[k].entries.len())
                .sum()
        };
        let entries: usize = (0..bands).map(band_size).sum();
        self.entries = entries;
        let target = if parallel {
            entries.div_ceil(threads * 8).max(1)
        } else {
            usize::MAX
        };
        let mut n_items = 0;
        let mut k0 = 0;
        while k0 < bands {
            let mut k1 = k0;
            let mut acc = 0;
            while k1 < bands && (k1 == k0 || acc < target) {
                acc += band_size(k1);
                k1 += 1;
            }
            if self.items.len() == n_items {
                self.items.push(Item::default());
            }
            self.items[n_items].bands = k0..k1;
            n_items += 1;
            k0 = k1;
        }
        let ctx = Ctx {
            chunks: [&self.chunks[0], &self.chunks[1]],
            bipartite,
            filtered,
            plan: bands::BandPlan {
                order: self.config.order,
                range: (layout.sweep_lo, layout.sweep_hi),
                level: self.config.simd,
            },
        };
        let items = &mut self.items[..n_items];
        if parallel {
            // Step 6 as the items finish (see `join`).
            let join = join::Join::new(n_items, core::mem::take(&mut self.pairs));
            crate::pool::for_each_part(items, &|k, it| {
                if let Some(mut out) = join.claim(k) {
                    it.run(&ctx, &mut out);
                    join.finish_claimed(k, out);
                } else {
                    let mut own = core::mem::take(&mut it.pairs);
                    own.clear();
                    it.run(&ctx, &mut own);
                    join.finish(k, own);
                }
            });
            let (out, lists) = join.into_parts();
            self.pairs = out;
            for (it, list) in items.iter_mut().zip(lists) {
                if let Some(list) = list {
                    it.pairs = list;
                }
            }
        } else {
            // One item: sweep straight into the result.
            items[0].run(&ctx, &mut self.pairs);
        }
        Ok(&self.pairs)
    }
}

#[cfg(test)]
mod tests;
