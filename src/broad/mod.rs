//! Broad phase: banded sweep-and-prune over lanes of eight.
//!
//! # Data flow
//! ```text
//!  BoxSet (slice / columns / store)
//!    │ 1. stats: validate every box, world bounds, mean extents     (layout.rs)
//!    │ 2. layout: sweep axis + band height from the data            (layout.rs)
//!    │ 3. scatter: chunks of boxes counting-sorted into bands       (bands.rs)
//!    │ 4. per band: gather, radix sort on the sweep axis, SoA copy  (bands.rs, sort.rs)
//!    │ 5. per band: SIMD sweep, 8 candidates per step               (sweep.rs)
//!    ▼ 6. concatenate the bands' pair lists in band order
//!  &[Pair]
//! ```
//! Steps 1, 3 and 4–5 run in parallel with rayon (chunks, then groups of consecutive
//! bands) when [`BroadConfig::parallel`] is set and the pool has more than one thread.
//!
//! # Determinism contract
//! The pairs come out in this order, which depends on the boxes alone, never on the
//! thread count or the [`SimdLevel`]:
//! 1. by band, in ascending band order (the band layout is a function of the boxes);
//! 2. within a band, by the sweeping box `i` in ascending order of its minimum on the
//!    sweep axis, ties in input order;
//! 3. for one `i`, by the candidate `j` in the same order.
//!
//! In bipartite mode step 2 is the merge of the two sets' sorted lists (ties: the first
//! set's box first), and each box scans the other set only. Each pair is `(a, b)` with
//! `a < b` (self mode) or `a` from the first set and `b` from the second (bipartite).
//! Sort the slice (`sort_unstable`) for the canonical listing of the scene format.
//!
//! # Cost
//! Linear passes for steps 1, 3, 4 and 6; the sweep visits each box's window on the
//! sweep axis within its band, so it is output-sensitive on every scene shape tried
//! (uniform, bullet hell, Gaussian clusters, one strip, identical boxes, huge among
//! tiny): see `benches/broad_phase.rs` and the README's table.

mod bands;
mod brute;
mod layout;
mod set;
mod sort;
mod sweep;

pub use brute::{brute_force_bipartite, brute_force_pairs};
pub use set::BoxSet;

use crate::error::Error;
use crate::lanes::SimdLevel;
use bands::{Chunk, SortScratch, build_band};
use bytemuck::{Pod, Zeroable};
use layout::Layout;
use sweep::BandSoa;

/// Two overlapping boxes, by their indices in the input.
///
/// Self mode: `a < b`. Bipartite mode: `a` indexes the first set, `b` the second.
/// Ordered by `(a, b)`, which is the canonical listing order of the scene format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default, Pod, Zeroable)]
#[repr(C)]
pub struct Pair {
    /// The first box.
    pub a: u32,
    /// The second box.
    pub b: u32,
}

impl Pair {
    /// A pair from two indices, as given.
    #[must_use]
    pub const fn new(a: u32, b: u32) -> Self {
        Self { a, b }
    }
}

/// Settings of a [`BroadPhase`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BroadConfig {
    /// Which sweep kernel runs (default: the best this CPU supports).
    pub simd: SimdLevel,
    /// Whether to use rayon's current thread pool (default `true`). The result is the
    /// same either way.
    pub parallel: bool,
    /// Inputs with fewer boxes than this run on one thread (default 4096).
    pub parallel_threshold: usize,
}

impl Default for BroadConfig {
    fn default() -> Self {
        Self {
            simd: SimdLevel::best(),
            parallel: true,
            parallel_threshold: 4096,
        }
    }
}

/// Per work item (a run of consecutive bands): scratch and its pair list.
#[derive(Debug, Default)]
struct Item {
    bands: core::ops::Range<usize>,
    a: BandSoa,
    b: BandSoa,
    sort: SortScratch,
    pairs: Vec<Pair>,
}

impl Item {
    /// Sweeps this item's bands, appending to `out`.
    fn run(
        &mut self,
        chunks: &[Chunk],
        bipartite: bool,
        filtered: bool,
        level: SimdLevel,
        out: &mut Vec<Pair>,
    ) {
        for k in self.bands.clone() {
            build_band(&mut self.a, chunks, 0, k, filtered, &mut self.sort);
            if bipartite {
                build_band(&mut self.b, chunks, 1, k, filtered, &mut self.sort);
                sweep::sweep_bipartite(level, &self.a, &self.b, filtered, out);
            } else {
                sweep::sweep_self(level, &self.a, filtered, out);
            }
        }
    }
}

/// Finds every overlapping pair of boxes; keeps its buffers between calls, so a call
/// per frame allocates nothing once the buffers have grown.
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
    chunks: Vec<Chunk>,
    items: Vec<Item>,
    pairs: Vec<Pair>,
    band_entries: Vec<usize>,
    layout: Option<Layout>,
}

impl BroadPhase {
    /// A broad phase with the default [`BroadConfig`].
    #[must_use]
    pub fn new() -> Self {
        Self::with_config(BroadConfig::default())
    }

    /// A broad phase with the given settings (an unsupported SIMD level falls back to
    /// the best supported one below it).
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

    /// Every overlapping pair among `boxes`, each once with `a < b`, in the order of the
    /// [determinism contract](self#determinism-contract). With filters, only pairs whose
    /// filters agree ([`crate::Filter::pairs_with`]).
    ///
    /// # Errors
    /// [`Error::InvalidBox`] naming the lowest invalid index; [`Error::TooManyBoxes`].
    pub fn find_pairs<'s, 'b>(
        &'s mut self,
        boxes: impl Into<BoxSet<'b>>,
    ) -> Result<&'s [Pair], Error> {
        let set = boxes.into();
        self.run(&[set], false)
    }

    /// Every overlapping `(a, b)` with `a` from `first` and `b` from `second`, without
    /// ever testing two boxes of the same set.
    ///
    /// # Errors
    /// [`Error::InvalidBox`] naming the lowest invalid index of the first set that has
    /// one; [`Error::TooManyBoxes`].
    pub fn find_pairs_bipartite<'s, 'b>(
        &'s mut self,
        first: impl Into<BoxSet<'b>>,
        second: impl Into<BoxSet<'b>>,
    ) -> Result<&'s [Pair], Error> {
        let sets = [first.into(), second.into()];
        self.run(&sets, true)
    }

    /// The pairs of the last successful call (empty after an error).
    #[must_use]
    pub fn pairs(&self) -> &[Pair] {
        &self.pairs
    }

    /// Number of bands the last call used (0 before any call).
    #[must_use]
    pub fn last_band_count(&self) -> usize {
        self.layout.map_or(0, |l| l.bands as usize)
    }

    fn run(&mut self, sets: &[BoxSet<'_>], bipartite: bool) -> Result<&[Pair], Error> {
        self.pairs.clear();
        self.layout = None;
        let total: usize = sets.iter().map(BoxSet::len).sum();
        let threads = if self.config.parallel && total >= self.config.parallel_threshold {
            rayon::current_num_threads()
        } else {
            1
        };
        let parallel = threads > 1;
        let st = layout::stats(sets, parallel)?;
        if bipartite && sets.iter().any(BoxSet::is_empty) {
            return Ok(&self.pairs);
        }
        let layout = layout::choose(sets, &st);
        self.layout = Some(layout);
        let filtered = sets.iter().any(|s| s.filters.is_some());

        // Step 3: scatter chunks of each set into bands.
        let per_chunk = if parallel {
            (total / (threads * 4)).max(4096)
        } else {
            usize::MAX
        };
        let mut n_chunks = 0;
        for (s, set) in sets.iter().enumerate() {
            let mut start = 0;
            while start < set.len() {
                let end = set.len().min(start.saturating_add(per_chunk));
                if self.chunks.len() == n_chunks {
                    self.chunks.push(Chunk::default());
                }
                self.chunks[n_chunks].assign(s, start, end);
                n_chunks += 1;
                start = end;
            }
        }
        let chunks = &mut self.chunks[..n_chunks];
        let scatter = |c: &mut Chunk| c.scatter(&sets[c.set], &layout, filtered);
        if parallel {
            use rayon::prelude::*;
            chunks.par_iter_mut().for_each(scatter);
        } else {
            chunks.iter_mut().for_each(scatter);
        }
        let chunks = &self.chunks[..n_chunks];

        // Steps 4-5: runs of consecutive bands as work items.
        let bands = layout.bands as usize;
        self.band_entries.clear();
        self.band_entries.resize(bands, 0);
        for c in chunks {
            for k in 0..bands {
                self.band_entries[k] += (c.starts[k + 1] - c.starts[k]) as usize;
            }
        }
        let entries: usize = self.band_entries.iter().sum();
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
                acc += self.band_entries[k1];
                k1 += 1;
            }
            if self.items.len() == n_items {
                self.items.push(Item::default());
            }
            self.items[n_items].bands = k0..k1;
            n_items += 1;
            k0 = k1;
        }
        let level = self.config.simd;
        let items = &mut self.items[..n_items];
        if parallel {
            use rayon::prelude::*;
            items.par_iter_mut().for_each(|it| {
                let mut out = core::mem::take(&mut it.pairs);
                out.clear();
                it.run(chunks, bipartite, filtered, level, &mut out);
                it.pairs = out;
            });
            // Step 6: concatenate in band order.
            let n: usize = items.iter().map(|it| it.pairs.len()).sum();
            self.pairs.reserve(n);
            for it in items.iter() {
                self.pairs.extend_from_slice(&it.pairs);
            }
        } else {
            for it in items.iter_mut() {
                it.run(chunks, bipartite, filtered, level, &mut self.pairs);
            }
        }
        Ok(&self.pairs)
    }
}

#[cfg(test)]
mod tests;
