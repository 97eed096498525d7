//! Step 1 of [`Frame::step`](super::Frame::step), which groups the boxes by filter.
//!
//! Each group holds its boxes' swept bounds and their dense indices. The bounds are
//! contiguous, so the broad phase streams them.
//!
//! ```text
//!  store columns ──► chunks of CHUNK boxes
//!    1. per chunk (in parallel): runs of one filter, the chunk's     Chunk::scan
//!       filters in order of first appearance, and their counts
//!    2. in chunk order: each chunk filter's group (numbered by first
//!       appearance in the store), each group's size
//!    3. per chunk (in parallel): each run's swept bounds written     sweep_run
//!       straight into its group's buffer, at the chunk's slots;
//!       for Frame::advance, then the chunk's boxes not certainly      NearLanes
//!       clear of the walls listed, from those slots while they are
//!       in cache (not a second pass over the store's columns)
//! ```
//!
//! The result depends only on the store. The chunk size and the thread count change
//! which thread writes which slots, not what is written.

use crate::broad::BoxSet;
use crate::lanes::{F32W, LANES, MaskW, SimdLevel, SimdTask, dispatch};
use crate::math::{Aabb, ContactPoint};
use crate::pool;
use crate::store::{BoxStore, Filter};
use crate::tilemap::TileMap;

use super::MAX_COORDINATE;
use super::advance::{WallRaw, WallScratch, wall_contacts};
use super::radix;

/// A placeholder box (buffers are resized before they are written).
const ZERO_BOX: Aabb = Aabb::from_coords(0.0, 0.0, 0.0, 0.0);

/// Boxes per chunk of the two parallel passes (about 400 KB of columns read).
const CHUNK: usize = 1 << 14;

/// The walls of [`Frame::advance`](super::Frame::advance) as step 1 sees them: the
/// map, and the filter a box must pair with to meet it.
#[derive(Clone, Copy)]
pub(super) struct Walls<'a> {
    pub(super) map: &'a TileMap,
    pub(super) filter: Filter,
}

/// Boxes sharing one filter: their dense indices and their swept bounds.
#[derive(Debug, Default)]
pub(super) struct Group {
    pub(super) filter: Filter,
    pub(super) dense: Vec<u32>,
    pub(super) swept: Vec<Aabb>,
}

impl Group {
    /// Whether a swept box lies within [`MAX_COORDINATE`] (`&`, not `&&`: branch-free).
    #[inline(always)]
    fn in_range(x0: f32, y0: f32, x1: f32, y1: f32) -> bool {
        (x0 >= -MAX_COORDINATE)
            & (y0 >= -MAX_COORDINATE)
            & (x1 <= MAX_COORDINATE)
            & (y1 <= MAX_COORDINATE)
    }

    /// The group's swept boxes, for the broad phase.
    pub(super) fn boxes(&self) -> BoxSet<'_> {
        BoxSet::from_slice(&self.swept)
    }

    /// Resizes both buffers to `n` boxes (no writes when the size is unchanged, as it
    /// is from frame to frame in a steady scene).
    fn resize(&mut self, n: usize) {
        self.dense.resize(n, 0);
        self.swept.resize(n, ZERO_BOX);
    }
}

/// Consecutive boxes (in dense order) of one filter, within one chunk.
#[derive(Debug, Clone, Copy)]
struct Run {
    start: u32,
    len: u32,
    /// The filter's position in the chunk's list of filters.
    local: u32,
}

/// One chunk's runs and filters (pass 1), and the group of each filter (pass 2).
#[derive(Debug, Default)]
struct Chunk {
    runs: Vec<Run>,
    /// The chunk's distinct filters in order of first appearance, with their box
    /// counts; empty when there are more than allowed (`too_many`).
    filters: Vec<(Filter, u32)>,
    too_many: bool,
    /// Group of each of `filters`.
    group: Vec<u32>,
    /// With walls: the chunk's boxes (dense indices, ascending in each group, group by
    /// group) not certainly clear of them, in groups whose filter pairs with theirs
    /// (every box, with per-box filters).
    near: Vec<u32>,
    /// With walls: the earliest wall contacts of the boxes in `near` whose filter
    /// pairs with the walls', in dense order, each with its contact point
    /// ([`wall_contacts`]).
    wall_raw: Vec<(WallRaw, ContactPoint)>,
    wall_scratch: Vec<(WallRaw, ContactPoint)>,
    /// The wall pass's buffers ([`wall_contacts`]).
    walls: WallScratch,
    /// Pass 3's per-group positions: in parallel, how much of each group's part of
    /// this chunk is written; serially, each group's cursor before this chunk.
    starts: Vec<usize>,
    /// A chunk of many short runs (the filters interleaved, as a game spawns two sides'
    /// bullets), or of ids with many filters: every box's swept bounds in one pass, then
    /// copied run by run (or box by box) into the groups (their dense indices follow
    /// from their positions).
    swept: Vec<Aabb>,
    /// Runs of one or two boxes on average (two sides' bullets strictly alternating):
    /// no runs, each box's filter (its position in `filters`) in `ids` instead. With
    /// few filters, the boxes go into their groups in one sweep
    /// ([`Columns::sweep_scatter`]).
    ids: Vec<u8>,
    by_box: bool,
}

/// A chunk whose filter changes at more than one box in `1 / TINY_RUN` keeps each box's
/// filter instead of runs ([`Chunk::by_box`]).
const TINY_RUN: usize = 3;

/// `from` into `to` (the same length): a run of one to four boxes written in place (two
/// sides' bullets strictly alternating make runs of one: a call to `memcpy` for each
/// would cost more than the copy), a longer one copied.
#[inline]
fn copy_run(to: &mut [Aabb], from: &[Aabb]) {
    match (to, from) {
        ([a], [x]) => *a = *x,
        ([a, b], [x, y]) => (*a, *b) = (*x, *y),
        ([a, b, c], [x, y, z]) => (*a, *b, *c) = (*x, *y, *z),
        ([a, b, c, d], [x, y, z, w]) => (*a, *b, *c, *d) = (*x, *y, *z, *w),
        (to, from) => to.copy_from_slice(from),
    }
}

/// `start, start + 1, ...` into `d` (a run of one to four written in place).
#[inline]
fn iota(d: &mut [u32], start: u32) {
    let s = start;
    match d {
        [a] => *a = s,
        [a, b] => (*a, *b) = (s, s + 1),
        [a, b, c] => (*a, *b, *c) = (s, s + 1, s + 2),
        [a, b, c, e] => (*a, *b, *c, *e) = (s, s + 1, s + 2, s + 3),
        d => {
            for (k, d) in d.iter_mut().enumerate() {
                *d = start + k as u32;
            }
        }
    }
}

/// A chunk of ids with at most this many filters goes into its groups in one sweep
/// ([`Columns::sweep_scatter`]). With more, the whole chunk is swept first, then its
/// boxes are copied one by one.
const FEW_IDS: usize = 4;

/// Boxes swept at a time by [`Columns::sweep_scatter`] (2 KB of bounds).
const SCATTER_BLOCK: usize = 128;

/// Runs shorter than this on average: the chunk is swept in one pass and copied run by
/// run. A vectorised loop per run costs its setup and its scalar tail for every run,
/// about what copying a few boxes costs; longer runs are swept straight into their
/// groups. (Rings of a danmaku scene's bullets, about twenty boxes a run, go straight.)
const SHORT_RUN: usize = 8;

impl Chunk {
    /// Whether this chunk of ids is swept straight into its groups
    /// ([`Columns::sweep_scatter`]).
    fn few_ids(&self) -> bool {
        self.by_box && self.filters.len() <= FEW_IDS
    }

    /// With walls: lists in [`Chunk::near`] the boxes of `parts` (each group's part of
    /// this chunk, just written) not certainly clear of them ([`NearLanes`]), in the
    /// groups whose filter pairs with theirs (the one group, with per-box filters: the
    /// wall pass checks each box's filter); then their wall contacts into
    /// [`Chunk::wall_raw`], in dense order.
    fn list_near<'p>(
        &mut self,
        store: &BoxStore,
        walls: Option<Walls<'_>>,
        simd: SimdLevel,
        per_box: bool,
        parts: impl Iterator<Item = (usize, &'p [Aabb], &'p [u32])>,
    ) {
        self.near.clear();
        self.wall_raw.clear();
        let Some(w) = walls else {
            return;
        };
        for (g, swept, dense) in parts {
            let pairs = per_box
                || self
                    .group
                    .iter()
                    .zip(&self.filters)
                    .any(|(&cg, f)| cg as usize == g && f.0.pairs_with(w.filter));
            if pairs && !swept.is_empty() {
                let near = &mut self.near;
                dispatch(
                    simd,
                    NearLanes {
                        map: w.map,
                        swept,
                        dense,
                        near,
                    },
                );
            }
        }
        // The exact test now, while the chunk's columns are still in cache from the
        // sweep above: the near boxes are a few percent of the store and far apart, and
        // a later pass would read each from memory. Group by group, each ascending;
        // then the contacts (fewer than the boxes listed) in dense order, stably: a
        // box's contacts keep their order.
        wall_contacts(
            store,
            w.map,
            w.filter,
            &self.near,
            &mut self.walls,
            simd,
            &mut self.wall_raw,
        );
        radix::sort_by_key(&mut self.wall_raw, &mut self.wall_scratch, |w| {
            u64::from(w.0.i)
        });
    }

    /// The runs of one filter among the boxes `start..start + layers.len()`, and the
    /// chunk's filters (at most `max`, else `too_many`).
    ///
    /// The run boundaries come 64 boxes at a time as a bit mask (a box whose filter
    /// differs from the one before it), in a loop without branches that the compiler
    /// vectorises; then one step per run. Filters interleaved box by box (two sides'
    /// bullets in firing order) cost a step per run, not a mispredicted branch per box.
    fn scan(&mut self, layers: &[u32], masks: &[u32], start: usize, max: usize) {
        self.runs.clear();
        self.filters.clear();
        self.too_many = false;
        let n = layers.len().min(masks.len());
        if n == 0 {
            return;
        }
        let (layers, masks) = (&layers[..n], &masks[..n]);
        self.by_box = false;
        // Filters that change at nearly every box (judged on the first boxes): one
        // filter per box, not runs.
        let probe = n.min(256);
        let changes = (1..probe)
            .filter(|&k| ((layers[k] ^ layers[k - 1]) | (masks[k] ^ masks[k - 1])) != 0)
            .count();
        if changes * TINY_RUN > probe && self.scan_by_box(layers, masks, max) {
            return;
        }
        let mut from = 0;
        let mut last = usize::MAX;
        let mut i = 1;
        while i < n {
            let end = (i + 64).min(n);
            let (l, m) = (&layers[i..end], &masks[i..end]);
            let (pl, pm) = (&layers[i - 1..end - 1], &masks[i - 1..end - 1]);
            // Most blocks of a long run hold no change: one vectorised `or` says so.
            let any = (0..end - i).fold(0, |d, k| d | (l[k] ^ pl[k]) | (m[k] ^ pm[k]));
            if any == 0 {
                i = end;
                continue;
            }
            let mut bits = 0u64;
            if let (Ok(l), Ok(m), Ok(pl), Ok(pm)) = (
                <&[u32; 64]>::try_from(l),
                <&[u32; 64]>::try_from(m),
                <&[u32; 64]>::try_from(pl),
                <&[u32; 64]>::try_from(pm),
            ) {
                // A whole block: each box's change as a bit, without a branch (the
                // compiler turns it into lane compares and masks).
                let mut d = [0u32; 64];
                for k in 0..64 {
                    d[k] = (l[k] ^ pl[k]) | (m[k] ^ pm[k]);
                }
                for (k, &d) in d.iter().enumerate() {
                    bits |= u64::from(d != 0) << k;
                }
            } else {
                // The last, partial block: eight at a time.
                for e in (0..end - i).step_by(8) {
                    let to = (e + 8).min(end - i);
                    let d8 = (e..to).fold(0, |d, k| d | (l[k] ^ pl[k]) | (m[k] ^ pm[k]));
                    if d8 != 0 {
                        for k in e..to {
                            let differs = ((l[k] ^ pl[k]) | (m[k] ^ pm[k])) != 0;
                            bits |= u64::from(differs) << k;
                        }
                    }
                }
            }
            while bits != 0 {
                let to = i + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !self.push_run(layers, masks, start, (from, to), &mut last, max) {
                    return;
                }
                from = to;
            }
            i = end;
        }
        self.push_run(layers, masks, start, (from, n), &mut last, max);
    }

    /// [`Chunk::scan`] for a chunk of tiny runs: each box's filter's position in
    /// `filters` into `ids` (the last two filters seen tried first: two sides
    /// alternating find theirs at once). False, with nothing recorded, for more
    /// filters than a byte can name (then the caller takes runs).
    ///
    /// A block of 64 boxes all of the last two filters seen (two sides' bullets, in any
    /// order) takes a loop without branches that the compiler vectorises; a block with
    /// any other filter goes box by box. The ids are the same either way.
    fn scan_by_box(&mut self, layers: &[u32], masks: &[u32], max: usize) -> bool {
        self.ids.clear();
        self.by_box = true;
        let (mut a, mut b) = (usize::MAX, usize::MAX);
        let n = layers.len().min(masks.len());
        for from in (0..n).step_by(64) {
            let to = (from + 64).min(n);
            let (layers, masks) = (&layers[from..to], &masks[from..to]);
            if a < self.filters.len()
                && b < self.filters.len()
                && self.two_filters(layers, masks, [a, b])
            {
                // `a` is now the last box's filter, `b` the other one.
                if self.ids.last() != Some(&(a as u8)) {
                    (a, b) = (b, a);
                }
                continue;
            }
            if !self.scan_one_by_one(layers, masks, max, (&mut a, &mut b)) {
                return self.too_many;
            }
        }
        true
    }

    /// [`Chunk::scan_by_box`] on a block whose boxes all have filter `a` or `b` (their
    /// positions in `filters`, both `< 256`): their ids onto `ids`, and their counts.
    /// False, with nothing recorded, when a box has another filter.
    #[inline]
    fn two_filters(&mut self, layers: &[u32], masks: &[u32], [a, b]: [usize; 2]) -> bool {
        let (fa, fb) = (self.filters[a].0, self.filters[b].0);
        let base = self.ids.len();
        self.ids.resize(base + layers.len(), 0);
        let (mut other, mut count_a) = (0u32, 0u32);
        for ((id, &l), &m) in self.ids[base..].iter_mut().zip(layers).zip(masks) {
            let is_a = (l == fa.layers) & (m == fa.mask);
            let is_b = (l == fb.layers) & (m == fb.mask);
            other |= u32::from(!(is_a | is_b));
            count_a += u32::from(is_a);
            *id = if is_a { a as u8 } else { b as u8 };
        }
        if other != 0 {
            self.ids.truncate(base);
            return false;
        }
        self.filters[a].1 += count_a;
        self.filters[b].1 += layers.len() as u32 - count_a;
        true
    }

    /// [`Chunk::scan_by_box`] on a block, box by box (`a` and `b`: the last two filters
    /// seen). False, with nothing recorded, for more filters than a byte can name or
    /// than `max` allows; then `too_many` says which.
    fn scan_one_by_one(
        &mut self,
        layers: &[u32],
        masks: &[u32],
        max: usize,
        (a, b): (&mut usize, &mut usize),
    ) -> bool {
        for (&l, &m) in layers.iter().zip(masks) {
            let f = Filter::new(l, m);
            let local = if *a < self.filters.len() && self.filters[*a].0 == f {
                *a
            } else if *b < self.filters.len() && self.filters[*b].0 == f {
                *b
            } else if let Some(k) = self.filters.iter().position(|x| x.0 == f) {
                k
            } else if self.filters.len() < max.min(usize::from(u8::MAX) + 1) {
                self.filters.push((f, 0));
                self.filters.len() - 1
            } else {
                // Over `max`: too many for groups; else over a byte: take runs.
                self.too_many = self.filters.len() >= max;
                self.filters.clear();
                self.ids.clear();
                self.by_box = false;
                return false;
            };
            if local != *a {
                *b = *a;
                *a = local;
            }
            self.filters[local].1 += 1;
            self.ids.push(local as u8);
        }
        true
    }

    /// Records the run `from..to` of one filter (`last`: the previous run's filter);
    /// false when that filter is one more than `max` (then `too_many`, no filters).
    #[inline]
    fn push_run(
        &mut self,
        layers: &[u32],
        masks: &[u32],
        start: usize,
        (from, to): (usize, usize),
        last: &mut usize,
        max: usize,
    ) -> bool {
        let f = Filter::new(layers[from], masks[from]);
        let local = if *last < self.filters.len() && self.filters[*last].0 == f {
            *last
        } else if let Some(k) = self
            .runs
            .len()
            .checked_sub(2)
            .map(|r| self.runs[r].local as usize)
            && self.filters[k].0 == f
        {
            // The filter before the last one: two sides alternating.
            k
        } else if let Some(k) = self.filters.iter().position(|x| x.0 == f) {
            k
        } else if self.filters.len() < max {
            self.filters.push((f, 0));
            self.filters.len() - 1
        } else {
            self.too_many = true;
            self.filters.clear();
            return false;
        };
        self.filters[local].1 += (to - from) as u32;
        self.runs.push(Run {
            start: (start + from) as u32,
            len: (to - from) as u32,
            local: local as u32,
        });
        *last = local;
        true
    }
}

/// The store's columns that the swept bounds are made of.
#[derive(Clone, Copy)]
struct Columns<'a> {
    x0: &'a [f32],
    y0: &'a [f32],
    x1: &'a [f32],
    y1: &'a [f32],
    mx: &'a [f32],
    my: &'a [f32],
}

impl<'a> Columns<'a> {
    fn of(store: &'a BoxStore) -> Self {
        Self {
            x0: store.min_x(),
            y0: store.min_y(),
            x1: store.max_x(),
            y1: store.max_y(),
            mx: store.motion_x(),
            my: store.motion_y(),
        }
    }

    /// The swept bounds `[min + min(motion, 0), max + max(motion, 0)]` of the boxes
    /// `start..start + swept.len()` into `swept`, in one branch-free pass that the
    /// compiler vectorises, and their dense indices into `dense` (empty, or as long as
    /// `swept`); whether all of them lie within [`MAX_COORDINATE`].
    fn sweep_run(&self, start: usize, swept: &mut [Aabb], dense: &mut [u32]) -> bool {
        let n = swept.len();
        let r = start..start + n;
        let (x0, y0, x1, y1) = (
            &self.x0[r.clone()],
            &self.y0[r.clone()],
            &self.x1[r.clone()],
            &self.y1[r.clone()],
        );
        let (mx, my) = (&self.mx[r.clone()], &self.my[r]);
        let mut ok = true;
        for (k, s) in swept.iter_mut().enumerate() {
            let (dx, dy) = (mx[k], my[k]);
            let b = [
                x0[k] + if dx < 0.0 { dx } else { 0.0 },
                y0[k] + if dy < 0.0 { dy } else { 0.0 },
                x1[k] + if dx > 0.0 { dx } else { 0.0 },
                y1[k] + if dy > 0.0 { dy } else { 0.0 },
            ];
            ok &= Group::in_range(b[0], b[1], b[2], b[3]);
            *s = Aabb::from_coords(b[0], b[1], b[2], b[3]);
        }
        for (k, d) in dense.iter_mut().enumerate() {
            *d = (start + k) as u32;
        }
        ok
    }

    /// For a chunk of ids (the boxes from `first` on, each box's filter as its
    /// position among the chunk's filters): each box's swept bounds and dense index
    /// into its filter's slots in `outs`, in order. Each of `outs` holds exactly its
    /// filter's count. One pass over the columns, with no chunk-sized buffer in
    /// between. Returns whether every swept box lies within [`MAX_COORDINATE`].
    fn sweep_scatter(
        &self,
        first: usize,
        ids: &[u8],
        outs: &mut [(&mut [Aabb], &mut [u32]); FEW_IDS],
    ) -> bool {
        // Blocks of boxes swept in one vectorised pass into a buffer that stays in the
        // first-level cache, then each box into its filter's next slot.
        let mut block = [ZERO_BOX; SCATTER_BLOCK];
        let mut at = [0usize; FEW_IDS];
        let mut ok = true;
        for (b, ids) in ids.chunks(SCATTER_BLOCK).enumerate() {
            let start = first + b * SCATTER_BLOCK;
            let swept = &mut block[..ids.len()];
            ok &= self.sweep_run(start, swept, &mut []);
            for (k, (&id, s)) in ids.iter().zip(&*swept).enumerate() {
                // An id is below the chunk's filter count, at most FEW_IDS.
                let l = usize::from(id) % FEW_IDS;
                let (to, dense) = &mut outs[l];
                to[at[l]] = *s;
                dense[at[l]] = (start + k) as u32;
                at[l] += 1;
            }
        }
        ok
    }

    /// The lowest dense index whose swept box reaches beyond [`MAX_COORDINATE`].
    fn first_out_of_range(&self) -> Option<usize> {
        let mut one = [ZERO_BOX];
        (0..self.x0.len()).find(|&k| !self.sweep_run(k, &mut one, &mut [0]))
    }
}

/// Pass 3's wall test on one group's part of a chunk, just written (`swept`, `dense`):
/// pushes on `near` the dense index of each box whose swept bounds are not certainly
/// clear of `map`'s solid tiles. Eight boxes at a time: a box inside the map's open
/// interior (one large empty rectangle, `Interior` in `tilemap/open.rs`: four lane
/// compares) is clear, and eight of them need nothing more; else one lookup each
/// ([`TileMap::open_mask`]); a box larger than a tile, one lookup at the coarse level
/// it fits in ([`TileMap::region_clear`]); every box where the map has no `f32` index.
/// A small box that the lookup does not call clear (its cell is beside a solid tile)
/// is listed only when its sides reach a solid cell ([`TileMap::small_box_near`]).
/// Only a shortcut: a listed box gets the exact test, so the answer does not depend on
/// it.
struct NearLanes<'a> {
    map: &'a TileMap,
    swept: &'a [Aabb],
    dense: &'a [u32],
    near: &'a mut Vec<u32>,
}

impl SimdTask for NearLanes<'_> {
    type Output = ();

    #[inline(always)]
    fn run<W: F32W>(self) {
        let map = self.map;
        let Some(fast) = map.fast_index else {
            self.near.extend_from_slice(self.dense);
            return;
        };
        let coords = |b: &Aabb| [b.min.x, b.min.y, b.max.x, b.max.y];
        let full = self.swept.len() / LANES * LANES;
        let flat: &[f32] = bytemuck::cast_slice(&self.swept[..full]);
        let [ix0, iy0, ix1, iy1] = map.interior.world.map(W::splat);
        for (g, recs) in flat.chunks_exact(4 * LANES).enumerate() {
            let swept = W::load_transposed4(recs);
            // A box inside the map's open interior (TileMap::interior) is clear. Eight
            // of them: no lookup.
            let [x0, y0, x1, y1] = swept;
            let inside = (x0.ge(ix0) & y0.ge(iy0) & x1.le(ix1) & y1.le(iy1)).bitmask();
            if inside == 0xff {
                continue;
            }
            let (bits, open) = map.open_mask::<W>(fast, swept);
            let mut near = !(open | inside) & 0xff;
            while near != 0 {
                let j = near.trailing_zeros() as usize;
                near &= near - 1;
                let k = g * LANES + j;
                // No larger than a tile and centred in the map: each side located. Else
                // the coarse lookup.
                let b = coords(&self.swept[k]);
                let listed = if bits & (1 << j) != 0 {
                    map.small_box_near(fast, b)
                } else {
                    !map.region_clear(fast, b)
                };
                if listed {
                    self.near.push(self.dense[k]);
                }
            }
        }
        // The last boxes one at a time, by the same tests: the list does not depend on
        // where the eights begin.
        for k in full..self.swept.len() {
            let b = coords(&self.swept[k]);
            if !map.interior.contains(b)
                && !map.region_clear(fast, b)
                && map.small_box_near(fast, b)
            {
                self.near.push(self.dense[k]);
            }
        }
    }
}

/// The groups of one frame, and the buffers that build them (kept between frames).
#[derive(Debug, Default)]
pub(super) struct Grouping {
    /// The groups, numbered in order of first appearance in dense order.
    pub(super) groups: Vec<Group>,
    /// More distinct filters than allowed: one group of every box, in dense order.
    pub(super) per_box: bool,
    /// The chunks (only the first `n.div_ceil(chunk)` are in use).
    chunks: Vec<Chunk>,
    /// Per group: its size (pass 2), then its next free slot (the serial pass 3).
    cursor: Vec<usize>,
    /// Boxes per chunk (`CHUNK`; smaller in tests).
    chunk: usize,
    /// Chunks in use this frame.
    used_chunks: usize,
}

impl Grouping {
    /// Groups the store's boxes, at most `max_groups` of them; `parallel` uses rayon's
    /// current pool. With `walls`, also finds the wall contacts of the boxes near them
    /// ([`Grouping::wall_raw`]).
    ///
    /// # Errors
    /// The lowest dense index whose swept box reaches beyond [`MAX_COORDINATE`] (the
    /// groups are then in an unspecified state).
    pub(super) fn build(
        &mut self,
        store: &BoxStore,
        max_groups: usize,
        parallel: bool,
        simd: SimdLevel,
        walls: Option<Walls<'_>>,
    ) -> Result<(), usize> {
        let cols = Columns::of(store);
        let (layers, masks) = (store.layers(), store.masks());
        let n = cols.x0.len();
        let size = if self.chunk == 0 { CHUNK } else { self.chunk };
        let count = n.div_ceil(size);
        let parallel = parallel && count > 1 && rayon::current_num_threads() > 1;
        if self.chunks.len() < count {
            self.chunks.resize_with(count, Chunk::default);
        }
        self.used_chunks = count;
        let chunks = &mut self.chunks[..count];
        let max = max_groups.max(1);
        let range = |c: usize| c * size..((c + 1) * size).min(n);

        // 1. Per chunk: runs of one filter, the chunk's filters and their counts.
        let scan = |(c, chunk): (usize, &mut Chunk)| {
            let r = range(c);
            chunk.scan(&layers[r.clone()], &masks[r.clone()], r.start, max);
        };
        if parallel {
            pool::for_each_part(chunks, &|c, chunk| scan((c, chunk)));
        } else {
            chunks.iter_mut().enumerate().for_each(scan);
        }

        // 2. In chunk order: each chunk filter's group, numbered by first appearance;
        //    each group's size.
        let mut used = 0;
        self.per_box = chunks.iter().any(|c| c.too_many);
        for chunk in chunks.iter_mut() {
            if self.per_box {
                break;
            }
            chunk.group.clear();
            for &(f, _) in &chunk.filters {
                let g = if let Some(g) = self.groups[..used].iter().position(|g| g.filter == f) {
                    g
                } else if used < max {
                    if self.groups.len() == used {
                        self.groups.push(Group::default());
                    }
                    self.groups[used].filter = f;
                    used += 1;
                    used - 1
                } else {
                    self.per_box = true;
                    break;
                };
                chunk.group.push(g as u32);
            }
        }
        self.cursor.clear();
        if self.per_box {
            // Too many distinct filters: one group of every box, per-box filters.
            used = 1;
            if self.groups.is_empty() {
                self.groups.push(Group::default());
            }
            self.cursor.push(n);
        } else {
            self.cursor.resize(used, 0);
            for chunk in chunks.iter() {
                for (&g, &(_, k)) in chunk.group.iter().zip(&chunk.filters) {
                    self.cursor[g as usize] += k as usize;
                }
            }
        }
        self.groups.truncate(used);
        for (group, &size) in self.groups.iter_mut().zip(&self.cursor) {
            group.resize(size);
        }

        // 3. Per chunk: each run's swept bounds straight into its group's buffer, at
        //    the slots that the chunks before it leave free.
        let per_box = self.per_box;
        let fill = |chunk: &mut Chunk, c: usize, slots: &mut [(&mut [Aabb], &mut [u32])]| {
            let mut ok = true;
            if per_box {
                let (s, d) = &mut slots[0];
                ok = cols.sweep_run(range(c).start, s, d);
            } else {
                let first = range(c).start;
                let few_ids = chunk.few_ids();
                let short =
                    !few_ids && (chunk.by_box || chunk.runs.len() * SHORT_RUN > range(c).len());
                if few_ids {
                    // Each group's part of the chunk whole, filled in one sweep.
                    let mut outs: [(&mut [Aabb], &mut [u32]); FEW_IDS] = Default::default();
                    for (out, &g) in outs.iter_mut().zip(&chunk.group) {
                        *out = core::mem::take(&mut slots[g as usize]);
                    }
                    ok = cols.sweep_scatter(first, &chunk.ids, &mut outs);
                    for (out, &g) in outs.iter_mut().zip(&chunk.group) {
                        slots[g as usize] = core::mem::take(out);
                    }
                } else if short {
                    chunk.swept.resize(range(c).len(), ZERO_BOX);
                    ok = cols.sweep_run(first, &mut chunk.swept, &mut []);
                }
                // Each run (or box) at its group's next free slot of the chunk's part.
                let at = &mut chunk.starts;
                at.clear();
                at.resize(slots.len(), 0);
                if chunk.by_box && !few_ids {
                    // Box by box into its group's next slot.
                    for (k, (&id, b)) in chunk.ids.iter().zip(&chunk.swept).enumerate() {
                        let g = chunk.group[usize::from(id)] as usize;
                        let (s, d) = &mut slots[g];
                        s[at[g]] = *b;
                        d[at[g]] = (first + k) as u32;
                        at[g] += 1;
                    }
                }
                for r in &chunk.runs {
                    let (g, len) = (chunk.group[r.local as usize] as usize, r.len as usize);
                    let (s, d) = &mut slots[g];
                    let (s, d) = (&mut s[at[g]..at[g] + len], &mut d[at[g]..at[g] + len]);
                    if short {
                        let k = r.start as usize - first;
                        copy_run(s, &chunk.swept[k..k + len]);
                        iota(d, r.start);
                    } else {
                        ok &= cols.sweep_run(r.start as usize, s, d);
                    }
                    at[g] += len;
                }
            }
            let parts = slots.iter().enumerate().map(|(g, (s, d))| (g, &**s, &**d));
            // A box beyond the limit fails the frame: no wall test for its chunk.
            let walls = walls.filter(|_| ok);
            chunk.list_near(store, walls, simd, per_box, parts);
            ok
        };
        let in_range = if parallel {
            // Each chunk's slots in each group: disjoint slices, chunk-major.
            let mut slots: Vec<(&mut [Aabb], &mut [u32])> = Vec::new();
            slots.resize_with(count * used, Default::default);
            let mut rest: Vec<(&mut [Aabb], &mut [u32])> = self
                .groups
                .iter_mut()
                .map(|g| (&mut g.swept[..], &mut g.dense[..]))
                .collect();
            for (c, chunk) in chunks.iter().enumerate() {
                let mut take = |g: usize, k: usize| {
                    let (s, d) = core::mem::take(&mut rest[g]);
                    let (s, rest_s) = s.split_at_mut(k);
                    let (d, rest_d) = d.split_at_mut(k);
                    slots[c * used + g] = (s, d);
                    rest[g] = (rest_s, rest_d);
                };
                if per_box {
                    take(0, range(c).len());
                } else {
                    for (&g, &(_, k)) in chunk.group.iter().zip(&chunk.filters) {
                        take(g as usize, k as usize);
                    }
                }
            }
            let mut parts: Vec<_> = slots.chunks_mut(used).zip(chunks.iter_mut()).collect();
            let mut oks = Vec::new();
            pool::map_parts(
                &mut parts,
                &|c, (slots, chunk)| fill(chunk, c, slots),
                &mut oks,
            );
            oks.iter().all(|&ok| ok)
        } else {
            // One chunk after the other, each group's slots from its cursor.
            self.cursor.iter_mut().for_each(|x| *x = 0);
            let mut ok = true;
            for (c, chunk) in chunks.iter_mut().enumerate() {
                chunk.starts.clear();
                chunk.starts.extend_from_slice(&self.cursor);
                let first = range(c).start;
                let few_ids = !per_box && chunk.few_ids();
                let short = !per_box
                    && !few_ids
                    && (chunk.by_box || chunk.runs.len() * SHORT_RUN > range(c).len());
                if short {
                    chunk.swept.resize(range(c).len(), ZERO_BOX);
                    ok &= cols.sweep_run(first, &mut chunk.swept, &mut []);
                }
                if few_ids {
                    // Each group's part of the chunk whole, filled in one sweep.
                    let mut outs: [(&mut [Aabb], &mut [u32]); FEW_IDS] = Default::default();
                    for (g, group) in self.groups.iter_mut().enumerate() {
                        if let Some(l) = chunk.group.iter().position(|&cg| cg as usize == g) {
                            let (at, k) = (self.cursor[g], chunk.filters[l].1 as usize);
                            self.cursor[g] = at + k;
                            outs[l] = (&mut group.swept[at..at + k], &mut group.dense[at..at + k]);
                        }
                    }
                    ok &= cols.sweep_scatter(first, &chunk.ids, &mut outs);
                } else if !per_box && chunk.by_box {
                    // Box by box into its group's next slot.
                    for (k, (&id, b)) in chunk.ids.iter().zip(&chunk.swept).enumerate() {
                        let g = chunk.group[usize::from(id)] as usize;
                        let at = self.cursor[g];
                        let group = &mut self.groups[g];
                        group.swept[at] = *b;
                        group.dense[at] = (first + k) as u32;
                        self.cursor[g] = at + 1;
                    }
                }
                let swept = &chunk.swept;
                let mut one = |g: usize, start: usize, len: usize| {
                    let (at, group) = (self.cursor[g], &mut self.groups[g]);
                    let (s, d) = (
                        &mut group.swept[at..at + len],
                        &mut group.dense[at..at + len],
                    );
                    if short {
                        let k = start - first;
                        copy_run(s, &swept[k..k + len]);
                        iota(d, start as u32);
                    } else {
                        ok &= cols.sweep_run(start, s, d);
                    }
                    self.cursor[g] += len;
                };
                if per_box {
                    one(0, range(c).start, range(c).len());
                } else {
                    for r in &chunk.runs {
                        let g = chunk.group[r.local as usize] as usize;
                        one(g, r.start as usize, r.len as usize);
                    }
                }
                let (groups, cursor) = (&self.groups, &self.cursor);
                let starts = core::mem::take(&mut chunk.starts);
                let parts = starts.iter().zip(cursor).zip(groups).enumerate().map(
                    |(g, ((&from, &to), group))| {
                        (g, &group.swept[from..to], &group.dense[from..to])
                    },
                );
                chunk.list_near(store, walls.filter(|_| ok), simd, per_box, parts);
                chunk.starts = starts;
            }
            ok
        };
        match in_range {
            true => Ok(()),
            false => Err(cols.first_out_of_range().unwrap_or(0)),
        }
    }

    /// The earliest wall contacts of this frame's boxes near the walls given to
    /// [`Grouping::build`], each with its contact point, in dense order (see
    /// [`Chunk::wall_raw`]): one list per chunk, all empty without walls.
    pub(super) fn wall_raw(&self) -> impl Iterator<Item = &[(WallRaw, ContactPoint)]> {
        self.chunks[..self.used_chunks]
            .iter()
            .map(|c| &c.wall_raw[..])
    }

    /// Per chunk of this frame: the boxes near the walls given to [`Grouping::build`]
    /// (see [`Chunk::near`]); empty lists without walls.
    #[cfg(test)]
    pub(super) fn near(&self) -> impl ExactSizeIterator<Item = &[u32]> {
        self.chunks[..self.used_chunks].iter().map(|c| &c.near[..])
    }

    /// Sets the chunk size (tests and fuzzing: many chunks on small stores).
    #[cfg(any(test, feature = "fuzzing"))]
    pub(super) fn set_chunk(&mut self, chunk: usize) {
        self.chunk = chunk;
    }
}
