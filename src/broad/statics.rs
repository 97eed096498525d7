//! [`StaticGrid`]: a uniform grid over boxes that never move (level geometry), built
//! once and queried every frame with the moving boxes' (swept) bounds.
//!
//! ```text
//!  build (once):                          query (every frame), per mover a in order:
//!  ┌────┬────┬────┬────┐ each cell: one       outside the statics' bounds? skip
//!  │    │ s1 │ s1 │    │ cache line of 4      spans ≤ 2 × 2 cells (the usual case):
//!  ├────┼────┼────┼────┤ slots (min_x ×4,       test the 16 slots of that block
//!  │    │    │ s2 │    │ min_y ×4, -max_x ×4,   branch-free, cells past a's last
//!  ├────┼────┼────┼────┤ -max_y ×4); a 5th      masked off; else every cell
//!  │ s3 │    │    │    │ copy and more go to  a hit: report (a, s) if this is the
//!  └────┴────┴────┴────┘ an overflow list       first cell both reach and the
//!                                              filters pair; a's few pairs are then
//!                                              sorted by static index
//! ```
//!
//! Each static box is copied into every cell it covers. A cell holds up to [`SLOTS`]
//! copies itself, coordinate by coordinate, so that one mover against one cell is four
//! four-lane compares; empty slots hold `+∞` (they meet nothing); a cell with more
//! copies keeps `SLOTS - 1` and a marker slot of `-∞` (it meets everything) whose hit
//! walks the cell's overflow list. A spare last column and row of empty cells lets every
//! mover read a whole 2 × 2 block. A pair is reported in the cell `(max(first column),
//! max(first row))` of the two boxes, which both reach (cells are a monotone function of
//! the coordinate), so exactly once.
//!
//! The movers are read in input order, so the cells are read at random: each mover's
//! cells are prefetched [`AHEAD`] movers early. That, not the tests, is what a query
//! costs once the grid outgrows the caches (see [`AHEAD`]).
//!
//! # Cell size
//! About [`CELL_FACTOR`] times the statics' median extent per axis (a sample of at most
//! [`SAMPLE`] boxes), cells clamped to the bulk of the boxes ([`bulk_bounds`]: a few
//! boxes parked far away do not stretch the cells), at most [`MAX_PER_AXIS`] per axis
//! and `CELLS_PER_BOX · n + 64` in all. When the copies would exceed
//! `COPIES_PER_BOX · n + 64` (many huge boxes among small ones), the grid is halved on
//! both axes until they fit: memory stays linear in the number of statics whatever
//! their sizes.

use super::Pair;
use super::layout::{bulk_bounds, sample_index, to_index};
use super::set::{BoundsRead, BoxSet, WithBounds};
use crate::error::{BoxDefect, Error, check_count};
use crate::math::box_defect;
use crate::store::Filter;
use std::sync::Mutex;

/// Cell side in units of the statics' median extent on that axis. 100k statics 2–8
/// wide against 100k movers 1–7 wide (one thread, a loaded 2-vCPU AMD EPYC VM, best of
/// 40 queries), factor and cells per box: 1 and 4: 8.4 ms; 1 and 2: 6.6; 1 and 1: 5.2;
/// 2 and 2: 5.6; 2 and 1: 5.2; 3 and 4: 5.5 (the broad phase's bipartite call 3.5–4.1 ms
/// in the same runs). Fewer, larger cells hold the grid in less memory.
pub(crate) const CELL_FACTOR: f64 = 2.0;
/// At most this many cells per axis.
pub(crate) const MAX_PER_AXIS: u32 = 1 << 14;
/// At most this many cells per static box (plus [`EXTRA_CELLS`]); a cell takes 84
/// bytes (its slots, their indices, its overflow start).
pub(crate) const CELLS_PER_BOX: usize = 2;
/// Cells allowed beyond `CELLS_PER_BOX · n`.
pub(crate) const EXTRA_CELLS: usize = 64;
/// At most this many copies per static box (plus [`EXTRA_CELLS`]) before the grid is
/// coarsened.
pub(crate) const COPIES_PER_BOX: u64 = 16;
/// At most this many boxes are sampled for the median extent.
pub(crate) const SAMPLE: usize = 2048;
/// Movers per parallel chunk, at least.
const MIN_CHUNK: usize = 2048;
/// Copies of static boxes stored in a cell itself; a cell with more keeps
/// `SLOTS - 1` and an [`OVERFLOW`] marker.
const SLOTS: usize = 4;
/// The id of the marker slot: the cell's other copies are in `over`.
const OVERFLOW: u32 = u32::MAX;

/// One cell: [`SLOTS`] copies of static boxes, coordinate by coordinate (`min_x` of
/// each slot, then `min_y`, `-max_x`, `-max_y`: the overlap test compiles to four
/// four-lane compares), in one cache line; an empty slot meets nothing, an
/// [`OVERFLOW`] marker everything.
#[derive(Debug, Clone, Copy)]
#[repr(C, align(64))]
struct Slots {
    c: [[f32; SLOTS]; 4],
}

impl Slots {
    /// No boxes: each slot fails the overlap test for any finite mover.
    const EMPTY: Slots = Slots {
        c: [[f32::INFINITY; SLOTS]; 4],
    };

    /// Slot `k` as `[min_x, min_y, -max_x, -max_y]`.
    #[inline(always)]
    fn get(&self, k: usize) -> [f32; 4] {
        [self.c[0][k], self.c[1][k], self.c[2][k], self.c[3][k]]
    }

    #[inline(always)]
    fn set(&mut self, k: usize, r: [f32; 4]) {
        for (col, v) in self.c.iter_mut().zip(r) {
            col[k] = v;
        }
    }
}

/// Where the cells are.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Cells {
    /// The statics' bounds: a mover outside them meets nothing.
    lo: [f32; 2],
    hi: [f32; 2],
    /// Where the cells start (the bulk's start when far boxes stretch the bounds); cells
    /// clamp at both ends.
    origin: [f32; 2],
    /// Cells per unit.
    inv: [f32; 2],
    dims: [u32; 2],
}

impl Default for Cells {
    /// No boxes: bounds that nothing meets, one cell.
    fn default() -> Self {
        Self {
            lo: [f32::INFINITY; 2],
            hi: [f32::NEG_INFINITY; 2],
            origin: [0.0; 2],
            inv: [0.0; 2],
            dims: [1, 1],
        }
    }
}

impl Cells {
    /// The column (`axis` 0) or row (1) holding coordinate `v`; monotone in `v`.
    #[inline(always)]
    fn cell(&self, axis: usize, v: f32) -> u32 {
        to_index((v - self.origin[axis]) * self.inv[axis], self.dims[axis])
    }

    /// The cells of box `b`: `[first column, first row, last column, last row]`.
    #[inline(always)]
    fn span(&self, b: &[f32; 4]) -> [u32; 4] {
        [
            self.cell(0, b[0]),
            self.cell(1, b[1]),
            self.cell(0, b[2]),
            self.cell(1, b[3]),
        ]
    }

    /// Total copies of `boxes` over the cells (saturating at `u64::MAX`).
    fn copies(&self, boxes: &[[f32; 4]]) -> u64 {
        boxes
            .iter()
            .map(|b| {
                let [x0, y0, x1, y1] = self.span(b);
                u64::from(x1 - x0 + 1) * u64::from(y1 - y0 + 1)
            })
            .fold(0u64, u64::saturating_add)
    }

    /// `dims` cells over `[origin, end]`, with the cell functions' scale; an axis that
    /// spans nothing (or more than `f32` holds) gets one cell.
    fn with_dims(
        lo: [f32; 2],
        hi: [f32; 2],
        origin: [f32; 2],
        end: [f32; 2],
        dims: [u32; 2],
    ) -> Self {
        let mut c = Self {
            lo,
            hi,
            origin,
            inv: [0.0; 2],
            dims,
        };
        for axis in 0..2 {
            let span = f64::from(end[axis]) - f64::from(origin[axis]);
            let inv = (f64::from(dims[axis]) / span) as f32;
            if span > 0.0 && inv.is_finite() && inv > 0.0 {
                c.inv[axis] = inv;
            } else {
                c.dims[axis] = 1;
            }
        }
        c
    }
}

/// Per-call scratch of [`StaticGrid::query`]'s parallel path, kept between calls. A
/// clone starts empty.
#[derive(Debug, Default)]
struct Scratch(Mutex<Vec<Vec<Pair>>>);

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Self::default()
    }
}

/// A uniform grid over boxes that do not move: built once, queried every frame.
///
/// [`StaticGrid::build`] indexes the static boxes (level geometry: pillars, rubble,
/// fixed parts); [`StaticGrid::query`] then finds every `(mover, static)` pair whose
/// closed bounds overlap, without sorting anything per frame. Pairs come out sorted by
/// `(mover, static)`: the same for any thread count.
///
/// ```
/// use hantei::{Aabb, Filter, BoxSet, Pair, StaticGrid};
/// let walls = [Aabb::from_coords(0.0, 0.0, 10.0, 1.0), Aabb::from_coords(9.0, 0.0, 10.0, 10.0)];
/// let mut grid = StaticGrid::new();
/// grid.build(BoxSet::from(&walls))?;
/// assert_eq!(grid.len(), 2);
///
/// // Every frame: the bullets' swept bounds against the walls.
/// let bullets = [Aabb::from_coords(8.5, 0.5, 9.5, 1.5), Aabb::from_coords(3.0, 3.0, 4.0, 4.0)];
/// let mut pairs = Vec::new();
/// grid.query(BoxSet::from(&bullets), false, &mut pairs)?;
/// assert_eq!(pairs, [Pair::new(0, 0), Pair::new(0, 1)]);
///
/// // Filters: walls built without them have `Filter::ALL`; a bullet whose mask
/// // takes no layer meets nothing.
/// let f = [Filter::new(2, 0)];
/// grid.query(BoxSet::from(&bullets[..1]).with_filters(&f)?, false, &mut pairs)?;
/// assert!(pairs.is_empty());
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Default, Clone)]
pub struct StaticGrid {
    cells: Cells,
    /// Per cell, row-major with a spare last column and row (`(w + 1) · (h + 1)`):
    /// its first copies, and their static indices.
    slots: Vec<Slots>,
    ids: Vec<[u32; SLOTS]>,
    /// Per cell: start of its overflowing copies in `over` (`cells + 1` values).
    over_start: Vec<u32>,
    over: Vec<u32>,
    /// Per static box, when the statics had filters (else empty).
    filters: Vec<Filter>,
    len: usize,
    /// The statics' bounds (read by overflowing cells).
    boxes: Vec<[f32; 4]>,
    /// Build scratch: the sampled extents, the copies per cell.
    sample: Vec<f32>,
    count: Vec<u32>,
    scratch: Scratch,
}

impl StaticGrid {
    /// An empty grid (every query finds nothing).
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds the index over `statics`, replacing what it held. Keeps its buffers, so
    /// rebuilding allocates nothing once they have grown.
    ///
    /// A set without filters gives every static box [`Filter::ALL`], as everywhere a
    /// [`BoxSet`] is read.
    ///
    /// # Errors
    /// [`Error::InvalidBox`] naming the lowest invalid box (NaN, infinite or inverted);
    /// [`Error::TooManyBoxes`]. On error the grid is left as it was.
    pub fn build(&mut self, statics: BoxSet<'_>) -> Result<(), Error> {
        let n = statics.len();
        check_count(n)?;
        // Validate first, touching nothing: the grid stays as it was on error.
        let (lo, hi) = statics
            .with_bounds(Validate { n })
            .map_err(|(index, defect)| Error::InvalidBox { index, defect })?;
        self.boxes.clear();
        self.boxes.reserve(n);
        statics.with_bounds(Collect {
            n,
            out: &mut self.boxes,
        });
        self.filters.clear();
        if statics.filters.is_some() {
            self.filters.extend((0..n).map(|i| statics.filter(i)));
        }
        self.len = n;
        self.cells = self.choose_cells(lo, hi);
        self.fill();
        Ok(())
    }

    /// Number of static boxes indexed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no static box is indexed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every pair `(mover, static)` (`a` indexes `movers`, `b` the statics) whose closed
    /// bounds overlap (touching counts) and whose filters pair
    /// ([`Filter::pairs_with`]), sorted by `(a, b)`: the same for any thread count.
    /// `out` is cleared first. With `parallel`, chunks of movers run on rayon's current
    /// pool and their pairs are concatenated in chunk order.
    ///
    /// # Errors
    /// [`Error::InvalidBox`] naming the lowest invalid mover; [`Error::TooManyBoxes`].
    /// `out` is left empty.
    pub fn query(
        &self,
        movers: BoxSet<'_>,
        parallel: bool,
        out: &mut Vec<Pair>,
    ) -> Result<(), Error> {
        let n = movers.len();
        let chunks = if parallel {
            (rayon::current_num_threads() * 4).min(n / MIN_CHUNK).max(1)
        } else {
            1
        };
        self.query_chunked(movers, chunks, out)
    }

    /// [`StaticGrid::query`] in `chunks` chunks of movers (on rayon when more than one).
    pub(crate) fn query_chunked(
        &self,
        movers: BoxSet<'_>,
        chunks: usize,
        out: &mut Vec<Pair>,
    ) -> Result<(), Error> {
        out.clear();
        let n = movers.len();
        check_count(n)?;
        let err = |(index, defect)| Error::InvalidBox { index, defect };
        let chunks = chunks.clamp(1, n.max(1));
        if chunks == 1 {
            let r = self.stream(&movers, 0..n, out).map_err(err);
            if r.is_err() {
                out.clear();
            }
            return r;
        }
        // A concurrent query on the same grid finds the scratch taken: it uses its own.
        let mut lists = self
            .scratch
            .0
            .try_lock()
            .map(|mut s| core::mem::take(&mut *s))
            .unwrap_or_default();
        lists.resize_with(chunks, Vec::new);
        use rayon::prelude::*;
        let first_error = lists
            .par_iter_mut()
            .enumerate()
            .map(|(c, list)| {
                list.clear();
                self.stream(&movers, n * c / chunks..n * (c + 1) / chunks, list)
            })
            .filter_map(Result::err)
            .min_by_key(|(i, _)| *i);
        let r = match first_error {
            Some(e) => Err(err(e)),
            None => {
                out.reserve(lists.iter().map(Vec::len).sum());
                for l in &lists {
                    out.extend_from_slice(l);
                }
                Ok(())
            }
        };
        if let Ok(mut s) = self.scratch.0.try_lock() {
            *s = lists;
        }
        r
    }

    /// Movers `range` against the grid, appending their pairs to `out`; `Err` at the
    /// first invalid mover of the range.
    fn stream(
        &self,
        movers: &BoxSet<'_>,
        range: core::ops::Range<usize>,
        out: &mut Vec<Pair>,
    ) -> Result<(), (usize, BoxDefect)> {
        let filtered = !self.filters.is_empty() || movers.filters.is_some();
        if filtered {
            movers.with_bounds(Stream::<true> {
                grid: self,
                movers,
                range,
                out,
            })
        } else {
            movers.with_bounds(Stream::<false> {
                grid: self,
                movers,
                range,
                out,
            })
        }
    }

    /// The cells for `self.boxes` (valid, with bounds `lo`, `hi`).
    fn choose_cells(&mut self, lo: [f32; 2], hi: [f32; 2]) -> Cells {
        let n = self.boxes.len();
        if n == 0 {
            return Cells::default();
        }
        // Median extent per axis, from a sample.
        let stride = n.div_ceil(SAMPLE).max(1);
        let runs = n.div_ceil(stride);
        let picks = || {
            (0..runs)
                .map(|j| sample_index(j, stride))
                .filter(|&k| k < n)
        };
        let mut median = [0.0f64; 2];
        let mut mean = [0.0f64; 2];
        for axis in 0..2 {
            self.sample.clear();
            let boxes = &self.boxes;
            self.sample
                .extend(picks().map(|k| boxes[k][axis + 2] - boxes[k][axis]));
            let m = self.sample.len();
            if m == 0 {
                continue; // not reached: the first run's pick is always a box
            }
            let mid = m / 2;
            let (_, med, _) = self.sample.select_nth_unstable_by(mid, f32::total_cmp);
            // An extent that overflows f32 is +inf here: finite in f64 below.
            median[axis] = f64::from(*med);
            mean[axis] = picks()
                .map(|k| f64::from(boxes[k][axis + 2]) - f64::from(boxes[k][axis]))
                .sum::<f64>()
                / m as f64;
        }
        // Cells over the bulk of the boxes (far outliers fall in the edge cells).
        let mut origin = lo;
        let mut end = hi;
        for axis in 0..2 {
            let boxes = &self.boxes;
            let centres = || {
                boxes
                    .iter()
                    .map(move |b| (f64::from(b[axis]) + f64::from(b[axis + 2])) * 0.5)
            };
            (origin[axis], end[axis]) = bulk_bounds((lo[axis], hi[axis]), mean[axis], n, centres);
        }
        let max_cells = (CELLS_PER_BOX * n).saturating_add(EXTRA_CELLS) as f64;
        let mut dims = [1u32; 2];
        for axis in 0..2 {
            let span = f64::from(end[axis]) - f64::from(origin[axis]);
            if !(span > 0.0 && span.is_finite()) {
                continue;
            }
            let cell = (median[axis] * CELL_FACTOR).max(span / f64::from(MAX_PER_AXIS));
            let d = (span / cell).ceil();
            dims[axis] = if d.is_finite() {
                d.clamp(1.0, f64::from(MAX_PER_AXIS)) as u32
            } else {
                1
            };
        }
        let total = f64::from(dims[0]) * f64::from(dims[1]);
        if total > max_cells {
            let f = (total / max_cells).sqrt();
            dims = dims.map(|d| ((f64::from(d) / f).floor() as u32).max(1));
            while f64::from(dims[0]) * f64::from(dims[1]) > max_cells {
                let k = usize::from(dims[1] > dims[0]);
                dims[k] = dims[k].div_ceil(2);
            }
        }
        // Coarsen while the copies would be too many (huge boxes among small ones).
        let budget = (n as u64)
            .saturating_mul(COPIES_PER_BOX)
            .saturating_add(EXTRA_CELLS as u64)
            .min(u64::from(u32::MAX));
        loop {
            let cells = Cells::with_dims(lo, hi, origin, end, dims);
            if dims == [1, 1] || cells.copies(&self.boxes) <= budget {
                return cells;
            }
            dims = dims.map(|d| d.div_ceil(2));
        }
    }

    /// Fills the cells for `self.cells` over `self.boxes`: a counting sort of (cell,
    /// box), boxes ascending within each cell; a cell of more than [`SLOTS`] copies keeps
    /// `SLOTS - 1` of them and an [`OVERFLOW`] marker to the rest.
    fn fill(&mut self) {
        let g = self.cells;
        let stride = g.dims[0] as usize + 1;
        let cells = stride * (g.dims[1] as usize + 1);
        self.count.clear();
        self.count.resize(cells, 0);
        for b in &self.boxes {
            let [x0, y0, x1, y1] = g.span(b);
            for y in y0..=y1 {
                let row = y as usize * stride;
                for c in &mut self.count[row + x0 as usize..=row + x1 as usize] {
                    *c += 1;
                }
            }
        }
        self.over_start.clear();
        self.over_start.reserve(cells + 1);
        let mut acc = 0u32;
        for &k in &self.count {
            self.over_start.push(acc);
            if k as usize > SLOTS {
                acc += k - (SLOTS as u32 - 1);
            }
        }
        self.over_start.push(acc);
        self.over.clear();
        self.over.resize(acc as usize, 0);
        self.slots.clear();
        self.slots.resize(cells, Slots::EMPTY);
        self.ids.clear();
        self.ids.resize(cells, [0; SLOTS]);
        for (c, &k) in self.count.iter().enumerate() {
            if k as usize > SLOTS {
                self.slots[c].set(SLOTS - 1, [f32::NEG_INFINITY; 4]);
                self.ids[c][SLOTS - 1] = OVERFLOW;
            }
        }
        // `count` becomes the fill cursor.
        self.count.fill(0);
        for (i, b) in self.boxes.iter().enumerate() {
            let [x0, y0, x1, y1] = g.span(b);
            for y in y0..=y1 {
                let row = y as usize * stride;
                for c in row + x0 as usize..=row + x1 as usize {
                    let k = self.count[c] as usize;
                    self.count[c] += 1;
                    let full = self.ids[c][SLOTS - 1] == OVERFLOW;
                    if k < SLOTS - usize::from(full) {
                        self.slots[c].set(k, [b[0], b[1], -b[2], -b[3]]);
                        self.ids[c][k] = i as u32;
                    } else {
                        self.over[(self.over_start[c] as usize) + k - (SLOTS - 1)] = i as u32;
                    }
                }
            }
        }
    }
}
/// How many movers ahead [`Stream`] asks for their cells. On the bench scene (100k
/// statics, cells in ~13 MB) without prefetching a query took 33 ms against 6.8 with
/// 8 movers ahead (16: 14.8); with the movers in spatial order 5.1 either way.
const AHEAD: usize = 8;

impl StaticGrid {
    /// Copies of static boxes over all cells.
    #[cfg(test)]
    fn copies(&self) -> usize {
        self.count.iter().map(|&c| c as usize).sum()
    }

    /// The cells of mover `b`, `None` when it misses the statics (NaN misses too).
    #[inline(always)]
    fn reach(&self, b: &[f32; 4]) -> Option<[u32; 4]> {
        let g = &self.cells;
        if b[0] <= g.hi[0] && b[2] >= g.lo[0] && b[1] <= g.hi[1] && b[3] >= g.lo[1] {
            Some(g.span(b))
        } else {
            None
        }
    }

    /// Asks for the cells of mover `b`'s first two rows.
    #[inline(always)]
    fn prefetch(&self, b: &[f32; 4]) {
        if let Some([cx0, cy0, cx1, _]) = self.reach(b) {
            let stride = self.cells.dims[0] as usize + 1;
            let c = cy0 as usize * stride + cx0 as usize;
            let p = self.slots.as_ptr();
            crate::lanes::prefetch(p.wrapping_add(c));
            crate::lanes::prefetch(p.wrapping_add(c + stride));
            if cx1 > cx0 {
                crate::lanes::prefetch(p.wrapping_add(c + 1));
                crate::lanes::prefetch(p.wrapping_add(c + stride + 1));
            }
        }
    }

    /// Which of cell `c`'s slots mover `a` (as `[max_x, max_y, -min_x, -min_y]`)
    /// overlaps: bit `k` for slot `k`. Branch-free.
    #[inline(always)]
    fn hits(&self, c: usize, a: [f32; 4]) -> u32 {
        let [x0, y0, nx1, ny1] = &self.slots[c].c;
        let mut m = 0;
        for (k, (((x0, y0), nx1), ny1)) in x0.iter().zip(y0).zip(nx1).zip(ny1).enumerate() {
            let hit = (*x0 <= a[0]) & (*y0 <= a[1]) & (*nx1 <= a[2]) & (*ny1 <= a[3]);
            m |= u32::from(hit) << k;
        }
        m
    }
}

/// Validates every box; `Ok` with the bounds of them all.
struct Validate {
    n: usize,
}

impl WithBounds for Validate {
    type Output = Result<([f32; 2], [f32; 2]), (usize, BoxDefect)>;
    fn call<B: BoundsRead>(self, bounds: B) -> Self::Output {
        let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
        for (i, [x0, y0, x1, y1]) in bounds.iter(0..).take(self.n).enumerate() {
            if let Some(d) = box_defect(x0, y0, x1, y1) {
                return Err((i, d));
            }
            lo = [lo[0].min(x0), lo[1].min(y0)];
            hi = [hi[0].max(x1), hi[1].max(y1)];
        }
        Ok((lo, hi))
    }
}

/// Copies the boxes as `[min_x, min_y, max_x, max_y]`.
struct Collect<'a> {
    n: usize,
    out: &'a mut Vec<[f32; 4]>,
}

impl WithBounds for Collect<'_> {
    type Output = ();
    fn call<B: BoundsRead>(self, bounds: B) {
        self.out.extend(bounds.iter(0..).take(self.n));
    }
}

/// Movers `range` against the grid (`FILTERED`: either side has filters).
struct Stream<'a, 'b, const FILTERED: bool> {
    grid: &'a StaticGrid,
    movers: &'a BoxSet<'b>,
    range: core::ops::Range<usize>,
    out: &'a mut Vec<Pair>,
}

/// One mover's hits: reports `(i, j)` if it is reported in this cell and the filters
/// pair.
struct Mover {
    i: u32,
    /// `[first column, first row]` of the mover.
    first: [u32; 2],
    fa: Filter,
}

impl Mover {
    /// Static `j` (bounds `b`, overlapping) met in cell `(cx, cy)`.
    #[inline]
    fn hit<const FILTERED: bool>(
        &self,
        grid: &StaticGrid,
        (cx, cy): (u32, u32),
        j: u32,
        b: [f32; 2],
        out: &mut Vec<Pair>,
    ) {
        let g = &grid.cells;
        // Reported in the first cell both reach.
        if (cx != self.first[0] && g.cell(0, b[0]) != cx)
            || (cy != self.first[1] && g.cell(1, b[1]) != cy)
        {
            return;
        }
        if FILTERED {
            let fb = grid.filters.get(j as usize).copied().unwrap_or(Filter::ALL);
            if !self.fa.pairs_with(fb) {
                return;
            }
        }
        out.push(Pair::new(self.i, j));
    }

    /// The slots of cell `(cx, cy)` in `mask` (bits as [`StaticGrid::hits`]).
    #[cold]
    #[inline(never)]
    fn cell<const FILTERED: bool>(
        &self,
        grid: &StaticGrid,
        (cx, cy): (u32, u32),
        mut mask: u32,
        a: [f32; 4],
        out: &mut Vec<Pair>,
    ) {
        let stride = grid.cells.dims[0] as usize + 1;
        let c = cy as usize * stride + cx as usize;
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let j = grid.ids[c][k];
            if j != OVERFLOW {
                let r = grid.slots[c].get(k);
                self.hit::<FILTERED>(grid, (cx, cy), j, [r[0], r[1]], out);
                continue;
            }
            let list = &grid.over[grid.over_start[c] as usize..grid.over_start[c + 1] as usize];
            for &j in list {
                let b = grid.boxes[j as usize];
                if b[0] <= a[0] && b[1] <= a[1] && -b[2] <= a[2] && -b[3] <= a[3] {
                    self.hit::<FILTERED>(grid, (cx, cy), j, [b[0], b[1]], out);
                }
            }
        }
    }
}

impl<const FILTERED: bool> WithBounds for Stream<'_, '_, FILTERED> {
    type Output = Result<(), (usize, BoxDefect)>;
    #[inline]
    fn call<B: BoundsRead>(self, bounds: B) -> Self::Output {
        let grid = self.grid;
        let stride = grid.cells.dims[0] as usize + 1;
        let start = self.range.start;
        let end = self.range.end;
        let movers = self.movers;
        let out = self.out;
        let mover = |i: usize, first: [u32; 2]| Mover {
            i: i as u32,
            first,
            fa: if FILTERED {
                movers.filter(i)
            } else {
                Filter::ALL
            },
        };
        // Movers come in any order, so the cells are read at random: ask for them a few
        // movers ahead.
        let mut ahead = bounds.iter((start + AHEAD).min(end)..);
        for (k, a) in bounds.iter(start..).take(end - start).enumerate() {
            if let Some(b) = ahead.next() {
                grid.prefetch(&b);
            }
            let i = start + k;
            let [x0, y0, x1, y1] = a;
            if !(x0 <= x1 && y0 <= y1 && x1 - x0 <= f32::MAX && y1 - y0 <= f32::MAX)
                && let Some(defect) = box_defect(x0, y0, x1, y1)
            {
                return Err((i, defect));
            }
            // Outside the statics' bounds (or no statics): nothing to meet.
            let Some([cx0, cy0, cx1, cy1]) = grid.reach(&a) else {
                continue;
            };
            // The slots hold `[min_x, min_y, -max_x, -max_y]`: overlap is all four `<=`.
            let t = [x1, y1, -x0, -y0];
            let first = out.len();
            let (w, h) = (cx1 - cx0, cy1 - cy0);
            let c = cy0 as usize * stride + cx0 as usize;
            if w <= 1 && h <= 1 {
                // The usual case: a 2 × 2 block of cells (the grid has a spare column
                // and row), those past the mover's last masked off; no branch until a
                // hit.
                let m = grid.hits(c, t)
                    | grid.hits(c + 1, t) << 4
                    | grid.hits(c + stride, t) << 8
                    | grid.hits(c + stride + 1, t) << 12;
                let keep = 0x000f | (0x00f0 * w) | (0x0f00 * h) | (0xf000 * (w & h));
                let m = m & keep;
                if m == 0 {
                    continue;
                }
                let mover = mover(i, [cx0, cy0]);
                for q in 0..4 {
                    let bits = (m >> (4 * q)) & 0xf;
                    if bits != 0 {
                        let cell = (cx0 + (q & 1), cy0 + (q >> 1));
                        mover.cell::<FILTERED>(grid, cell, bits, t, out);
                    }
                }
            } else {
                let mover = mover(i, [cx0, cy0]);
                for cy in cy0..=cy1 {
                    for cx in cx0..=cx1 {
                        let bits = grid.hits(cy as usize * stride + cx as usize, t);
                        if bits != 0 {
                            mover.cell::<FILTERED>(grid, (cx, cy), bits, t, out);
                        }
                    }
                }
            }
            if out.len() - first > 1 {
                out[first..].sort_unstable_by_key(|p| p.b);
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
