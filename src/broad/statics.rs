//! [`StaticGrid`]: a uniform grid over boxes that never move (level geometry), built
//! once and queried every frame with the moving boxes' (swept) bounds.
//!
//! ```text
//!  build (once):                          query (every frame), movers eight at a time:
//!  ┌────┬────┬────┬────┐ each cell: one       in lanes: validate, outside the statics'
//!  │    │ s1 │ s1 │    │ cache line, 3        bounds? skip; sifted (one bit a mover
//!  ├────┼────┼────┼────┤ slots (min_x ×3,     from the fine cells' bitmap): clear?
//!  │    │    │ s2 │    │ min_y ×3, -max_x ×3, skip; the cells each reaches (and the
//!  ├────┼────┼────┼────┤ -max_y ×3) and their next eight's asked for); then per
//!  │ s3 │    │    │    │ ids in lane 3; a 4th mover, spans ≤ 2 × 2 cells (the usual
//!  └────┴────┴────┴────┘ copy and more go to  case): 12 slots in four-lane compares,
//!                        an overflow list;    branch-free, cells past its last masked
//!  a bitmap of fine cells (half a cell        off; a hit: report (a, s) if this is the
//!  wide) near a static box                    first cell both reach and the filters
//!                                             pair; a's few pairs are then sorted by
//!                                             static index
//! ```
//!
//! Each static box is copied into every cell it covers. A cell holds up to [`SLOTS`]
//! copies itself, coordinate by coordinate, so that one mover against one cell is four
//! four-lane compares, and their static indices in the fourth lane, so that a hit reads
//! nothing beyond the line; empty slots hold `+∞` (they meet nothing); a cell with more
//! copies keeps `SLOTS - 1` and a marker slot of `-∞` (it meets everything) whose hit
//! walks the cell's overflow list. A spare last column and row of empty cells lets every
//! mover read a whole 2 × 2 block. A pair is reported in the cell `(max(first column),
//! max(first row))` of the two boxes, which both reach (cells are a monotone function of
//! the coordinate), so exactly once.
//!
//! The movers are read in input order, so the cells are read at random. Each group of
//! eight movers asks for the cells it reaches, and only those, two groups before it is
//! tested. Before that, the group is sifted. A bitmap of fine cells, half a cell wide,
//! has one bit per fine cell. The bit is set where a static box reaches that fine cell
//! or its right, upper or upper-right neighbour, which costs half a byte per cell. One
//! bit then tells whether a mover within two fine cells on each axis may meet anything,
//! with one gather for the eight movers. Statics that all share one filter, as level
//! geometry usually does, are tested against a mover's filter once, at its first hit,
//! never per static.
//!
//! The measurements behind these choices, and the designs tried and dropped, are in
//! `BENCHMARKS.md` and in this file's comments.
//!
// Measured on the `static_level` bench scene (100k statics 2–8 wide, 74k bullets'
// swept bounds, one thread, AMD EPYC Zen 5): 3.1 ms a query with four slots a line,
// ids apart and the movers one by one; 1.7 with the cells tested in four-lane
// compares and the ids in the line; 1.2 with the movers in lanes (callgrind: 347 then
// 197 instructions a mover). The movers in spatial order gain under 10%. Sifted (AMD
// EPYC Zen 4, in a whole frame, alternated): 1.78 → 1.52 ms a query, the frame 7%
// faster; the bits take 101 KB on the bench scene, and half of its movers leave
// there. With the bits tested cell by cell over the mover's whole span (fine cells a
// quarter of a cell: 78% of the movers out, 404 KB of bits, three loads a mover) no
// faster: those loads cost what the cells they spare did.
//
// Tried and dropped (no gain in a whole frame, medians of 200): eight slots a cell in
// two lines with eight-lane compares and half as many cells (1.27 ms a query); a
// 16-byte union of each cell's copies tested first, the slots read only past it (0.9
// ms a query alone, but no faster in a frame, slower with the unions prefetched);
// unchecked indexing (no change).
//
//! # Cell size
//! About [`CELL_FACTOR`] times the statics' median extent per axis (a sample of at most
//! [`SAMPLE`] boxes), cells clamped to the bulk of the boxes ([`bulk_bounds`]: a few
//! boxes parked far away do not stretch the cells), at most [`MAX_PER_AXIS`] per axis
//! and `CELLS_PER_BOX · n + 64` in all. When the copies would exceed
//! `COPIES_PER_BOX · n + 64` (many huge boxes among small ones), the grid is halved on
//! both axes until they fit: memory stays linear in the number of statics whatever
//! their sizes.

use super::Pair;
use super::layout::{Cells, bulk_bounds, sample_index};
use super::set::{BoundsRead, BoxSet, WithBounds, all_plainly_valid};
use crate::error::{BoxDefect, Error, check_count};
use crate::lanes::{F32W, LANES, MaskW, SimdLevel, SimdTask, dispatch};
use crate::math::box_defect;
use crate::store::Filter;
use std::sync::Mutex;
use wide::f32x4;

/// Cell side in units of the statics' median extent on that axis. Fewer, larger cells
/// hold the grid in less memory.
// 100k statics 2–8 wide against 100k movers 1–7 wide (one thread, a loaded 2-vCPU AMD
// EPYC VM, best of 40 queries), factor and cells per box: 1 and 4: 8.4 ms; 1 and 2:
// 6.6; 1 and 1: 5.2; 2 and 2: 5.6; 2 and 1: 5.2; 3 and 4: 5.5 (the broad phase's
// bipartite call 3.5–4.1 ms in the same runs; measured with four slots a cell). With
// three slots a line, one cell per box instead of two made no difference on the bench
// scene in a whole frame.
pub(crate) const CELL_FACTOR: f64 = 2.0;
/// At most this many cells per axis.
pub(crate) const MAX_PER_AXIS: u32 = 1 << 14;
/// At most this many cells per static box (plus [`EXTRA_CELLS`]); a cell takes one
/// 64-byte line (its slots and their indices).
pub(crate) const CELLS_PER_BOX: usize = 2;
/// Cells allowed beyond `CELLS_PER_BOX · n`.
pub(crate) const EXTRA_CELLS: usize = 64;
/// At most this many copies per static box (plus [`EXTRA_CELLS`]) before the grid is
/// coarsened.
pub(crate) const COPIES_PER_BOX: u64 = 16;
/// At most this many boxes are sampled for the median extent.
pub(crate) const SAMPLE: usize = 2048;
/// Fine cells per cell, on each axis, of [`StaticGrid::near`]. Finer cells sift out
/// more movers, but need more bits, which stay in cache less.
// On the `static_level` bench scene (100k statics, 74k bullets' swept bounds) a fine
// cell is about 8 units wide, the bits take 101 KB and half of the movers are sifted
// out. Finer cells sift out more (4 units with bits for blocks of three cells: 57%;
// each mover's fine cells tested one by one: 78%), but with bits four times as many,
// which stay in cache less, and the latter with three loads a mover, it was no faster.
const FINE: u32 = 2;
/// Movers per parallel chunk, at least.
const MIN_CHUNK: usize = 2048;
/// Copies of static boxes stored in a cell itself (lanes 0 to 2 of its line; lane 3
/// holds their ids); a cell with more keeps `SLOTS - 1` and an overflow marker.
const SLOTS: usize = 3;
/// Lane bits of the slots in a cell's hit mask (lane 3 holds ids, not a box).
const SLOT_BITS: u32 = (1 << SLOTS) - 1;

/// One cell in one cache line: lanes 0 to 2 hold [`SLOTS`] copies of static boxes,
/// coordinate by coordinate (`min_x` of each slot, then `min_y`, `-max_x`, `-max_y`:
/// the overlap test is four four-lane compares); lane 3 of row `k` holds slot `k`'s
/// static index, so a hit reads nothing else. An empty slot (`+∞`) meets nothing; the
/// overflow marker (slot 2 at `-∞`, which no valid static has) meets everything, and
/// its lane-3 ids are the range of the cell's other copies in `over` (rows 2 and 3).
#[derive(Debug, Clone, Copy, PartialEq)]
#[repr(C, align(64))]
struct Slots {
    c: [[u32; 4]; 4],
}

impl Slots {
    /// No boxes: each slot fails the overlap test for any finite mover.
    const EMPTY: Slots = Slots {
        c: [[f32::INFINITY.to_bits(); 4]; 4],
    };

    /// Row `r` (a coordinate of every slot, lane 3 an id) as four lanes.
    #[inline(always)]
    fn row(&self, r: usize) -> f32x4 {
        bytemuck::cast(self.c[r])
    }

    /// Slot `k` as `[min_x, min_y, -max_x, -max_y]`.
    #[inline(always)]
    fn get(&self, k: usize) -> [f32; 4] {
        self.c.map(|row| f32::from_bits(row[k]))
    }

    #[inline(always)]
    fn set(&mut self, k: usize, r: [f32; 4], id: u32) {
        for (row, v) in self.c.iter_mut().zip(r) {
            row[k] = v.to_bits();
        }
        self.c[k][SLOTS] = id;
    }

    /// The static index in slot `k`.
    #[inline(always)]
    fn id(&self, k: usize) -> u32 {
        self.c[k][SLOTS]
    }

    /// Makes the last slot the overflow marker of `over[start..end]`.
    fn set_overflow(&mut self, start: u32, end: u32) {
        self.set(SLOTS - 1, [f32::NEG_INFINITY; 4], start);
        self.c[SLOTS][SLOTS] = end;
    }

    /// `over`'s range of the cell's other copies, when slot `k` is the marker.
    #[inline(always)]
    fn overflow(&self, k: usize) -> Option<core::ops::Range<usize>> {
        (k == SLOTS - 1 && self.c[0][k] == f32::NEG_INFINITY.to_bits())
            .then(|| self.c[k][SLOTS] as usize..self.c[SLOTS][SLOTS] as usize)
    }
}

/// The static grid's own uses of its [`Cells`].
impl Cells {
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

/// A uniform grid over boxes that do not move. It is built once and queried every
/// frame.
///
/// [`StaticGrid::build`] indexes the static boxes, such as the pillars, rubble and fixed
/// parts of a level. [`StaticGrid::query`] then finds every `(mover, static)` pair whose
/// bounds overlap, without sorting anything per frame. The pairs come out sorted by
/// `(mover, static)`, the same for any thread count.
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
    /// its first copies and their static indices.
    slots: Vec<Slots>,
    /// The overflowing copies, cell by cell: static indices.
    over: Vec<u32>,
    /// Their bounds, beside them (`[min_x, min_y, max_x, max_y]`, as `boxes`): a walk
    /// reads one run of lines, not a random line of `boxes` per copy.
    over_boxes: Vec<[f32; 4]>,
    /// Finer cells over the same area ([`FINE`] a cell on each axis that has more
    /// than one cell), and per fine cell one bit in `near`: set where some static box's
    /// bounds reach that cell, its right neighbour, the one above or the one above
    /// that. A mover within two fine cells on each axis whose first one's bit is clear
    /// meets nothing: a group of movers is sifted so ([`CellLanes::group`]) before any
    /// reads a cell.
    fine: Cells,
    /// `fine`'s bits, row-major (bit `row · fine.dims[0] + column`); empty when the
    /// fine cells would not fit `u32` indices (then nothing is sifted).
    near: Vec<u64>,
    /// Per static box, when the statics had filters that differ (else empty).
    filters: Vec<Filter>,
    /// Every static's filter when they all have one ([`Filter::ALL`] without filters).
    uniform: Option<Filter>,
    len: usize,
    /// The statics' bounds (the frame's exact tests read them).
    boxes: Vec<[f32; 4]>,
    /// Build scratch: the sampled extents, the copies per cell.
    sample: Vec<f32>,
    count: Vec<u32>,
    scratch: Scratch,
}

impl StaticGrid {
    /// An empty grid. Every query on it finds nothing.
    #[must_use]
    pub fn new() -> Self {
        Self::default()
    }

    /// Builds the index over `statics`, and replaces what the grid held.
    ///
    /// The grid keeps its buffers, so rebuilding allocates nothing once they have grown.
    /// A set without filters gives every static box [`Filter::ALL`], as everywhere a
    /// [`BoxSet`] is read.
    ///
    /// # Errors
    /// - [`Error::TooManyBoxes`] when the set has more than
    ///   [`MAX_BOXES`](crate::MAX_BOXES) boxes.
    /// - [`Error::InvalidBox`] naming the lowest invalid box: NaN, infinite or
    ///   inverted.
    ///
    /// After an error, the grid is left as it was.
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
        self.uniform = Some(Filter::ALL);
        if statics.filters.is_some() {
            self.filters.extend((0..n).map(|i| statics.filter(i)));
            let first = self.filters.first().copied().unwrap_or(Filter::ALL);
            if self.filters.iter().all(|&f| f == first) {
                self.uniform = Some(first);
                self.filters.clear();
            } else {
                self.uniform = None;
            }
        }
        self.len = n;
        self.cells = self.choose_cells(lo, hi);
        self.fill();
        Ok(())
    }

    /// Static box `j`'s bounds, `[min_x, min_y, max_x, max_y]`.
    ///
    /// # Panics
    /// If `j` is not below [`StaticGrid::len`].
    #[inline]
    pub(crate) fn bounds(&self, j: usize) -> [f32; 4] {
        self.boxes[j]
    }

    /// Asks for static box `j`'s bounds (any `j`: a hint).
    #[inline]
    pub(crate) fn prefetch_bounds(&self, j: usize) {
        crate::lanes::prefetch(self.boxes.as_ptr().wrapping_add(j));
    }

    /// Whether a mover with filter `f` can meet any static box (`false` only when
    /// their one common filter does not pair with it).
    pub(crate) fn meets(&self, f: Filter) -> bool {
        self.uniform.is_none_or(|all| all.pairs_with(f))
    }

    /// The number of static boxes indexed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no static box is indexed.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Writes to `out` every `(mover, static)` pair whose bounds overlap and whose
    /// filters pair, as [`Filter::pairs_with`] decides.
    ///
    /// In each pair, `a` indexes `movers` and `b` indexes the statics. The bounds are
    /// closed, so touching counts. The pairs are sorted by `(a, b)`, the same for any
    /// thread count. `out` is cleared first. With `parallel`, chunks of movers run on
    /// rayon's current pool, and their pairs are joined in chunk order.
    ///
    /// # Errors
    /// - [`Error::TooManyBoxes`] when `movers` has more than
    ///   [`MAX_BOXES`](crate::MAX_BOXES) boxes.
    /// - [`Error::InvalidBox`] naming the lowest invalid mover.
    ///
    /// `out` is left empty after an error.
    pub fn query(
        &self,
        movers: BoxSet<'_>,
        parallel: bool,
        out: &mut Vec<Pair>,
    ) -> Result<(), Error> {
        self.query_at(movers, parallel, SimdLevel::best(), out)
    }

    /// [`StaticGrid::query`] with its lanes at `level`.
    pub(crate) fn query_at(
        &self,
        movers: BoxSet<'_>,
        parallel: bool,
        level: SimdLevel,
        out: &mut Vec<Pair>,
    ) -> Result<(), Error> {
        let n = movers.len();
        let chunks = if parallel {
            (rayon::current_num_threads() * 4).min(n / MIN_CHUNK).max(1)
        } else {
            1
        };
        self.query_with(movers, chunks, level, out)
    }

    /// [`StaticGrid::query`] in `chunks` chunks of movers (on rayon when more than one).
    #[cfg(test)]
    pub(crate) fn query_chunked(
        &self,
        movers: BoxSet<'_>,
        chunks: usize,
        out: &mut Vec<Pair>,
    ) -> Result<(), Error> {
        self.query_with(movers, chunks, SimdLevel::best(), out)
    }

    /// [`StaticGrid::query`] in `chunks` chunks of movers (on rayon when more than
    /// one), its lanes at `level` (the same pairs at every level).
    pub(crate) fn query_with(
        &self,
        movers: BoxSet<'_>,
        chunks: usize,
        level: SimdLevel,
        out: &mut Vec<Pair>,
    ) -> Result<(), Error> {
        let level = level.supported();
        out.clear();
        let n = movers.len();
        check_count(n)?;
        let err = |(index, defect)| Error::InvalidBox { index, defect };
        let chunks = chunks.clamp(1, n.max(1));
        if chunks == 1 {
            let r = self.stream(&movers, 0..n, level, out).map_err(err);
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
        let mut results = Vec::new();
        crate::pool::map_parts(
            &mut lists,
            &|c, list| {
                list.clear();
                self.stream(&movers, n * c / chunks..n * (c + 1) / chunks, level, list)
            },
            &mut results,
        );
        let first_error = results
            .into_iter()
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
        level: SimdLevel,
        out: &mut Vec<Pair>,
    ) -> Result<(), (usize, BoxDefect)> {
        if self.uniform.is_none() {
            movers.with_bounds(Stream::<true> {
                grid: self,
                movers,
                range,
                level,
                out,
            })
        } else {
            movers.with_bounds(Stream::<false> {
                grid: self,
                movers,
                range,
                level,
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
    /// `SLOTS - 1` of them and an overflow marker to the rest ([`Slots::set_overflow`]).
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
        // Each overflowing cell's range in `over`; `count` becomes the fill cursor.
        self.slots.clear();
        self.slots.resize(cells, Slots::EMPTY);
        let mut acc = 0u32;
        for (slot, k) in self.slots.iter_mut().zip(&mut self.count) {
            if *k as usize > SLOTS {
                let extra = *k - (SLOTS as u32 - 1);
                slot.set_overflow(acc, acc + extra);
                acc += extra;
            }
            *k = 0;
        }
        self.over.clear();
        self.over.resize(acc as usize, 0);
        for (i, b) in self.boxes.iter().enumerate() {
            let [x0, y0, x1, y1] = g.span(b);
            for y in y0..=y1 {
                let row = y as usize * stride;
                for c in row + x0 as usize..=row + x1 as usize {
                    let k = self.count[c] as usize;
                    self.count[c] += 1;
                    let slot = &mut self.slots[c];
                    match slot.overflow(SLOTS - 1) {
                        Some(list) if k >= SLOTS - 1 => {
                            self.over[list.start + k - (SLOTS - 1)] = i as u32;
                        }
                        _ => slot.set(k, [b[0], b[1], -b[2], -b[3]], i as u32),
                    }
                }
            }
        }
        self.over_boxes.clear();
        let boxes = &self.boxes;
        self.over_boxes
            .extend(self.over.iter().map(|&j| boxes[j as usize]));
        self.fill_fine();
    }

    /// Sets the bits of [`StaticGrid::near`]: for each static box, those of the fine
    /// cells it reaches and of their left, lower and lower-left neighbours. At most
    /// `(FINE + 1)²` bits per copy in a cell: the work stays linear in the copies. No
    /// bits (every mover sifted in) when the fine cells would not fit `u32` indices.
    fn fill_fine(&mut self) {
        let g = self.cells;
        let f = |axis: usize| if g.dims[axis] > 1 { FINE } else { 1 };
        self.fine = Cells {
            inv: [g.inv[0] * f(0) as f32, g.inv[1] * f(1) as f32],
            dims: [g.dims[0] * f(0), g.dims[1] * f(1)],
            ..g
        };
        self.near.clear();
        let w = self.fine.dims[0] as usize;
        let cells = w * self.fine.dims[1] as usize;
        if cells > u32::MAX as usize {
            return;
        }
        self.near.resize(cells.div_ceil(64), 0);
        for b in &self.boxes {
            let [x0, y0, x1, y1] = self.fine.span(b);
            for y in y0.saturating_sub(1)..=y1 {
                for x in x0.saturating_sub(1)..=x1 {
                    let k = y as usize * w + x as usize;
                    self.near[k / 64] |= 1 << (k % 64);
                }
            }
        }
    }
}
impl StaticGrid {
    /// Whether the sifting bits ([`StaticGrid::near`]) say that mover `b` (valid)
    /// meets no static box: [`CellLanes::group`]'s sifting, one mover in scalar.
    #[cfg(test)]
    fn sifted_out(&self, b: &[f32; 4]) -> bool {
        let [x0, y0, x1, y1] = self.fine.span(b);
        let k = y0 as usize * self.fine.dims[0] as usize + x0 as usize;
        x1 - x0 <= 1
            && y1 - y0 <= 1
            && self
                .near
                .get(k / 64)
                .is_some_and(|w| (w >> (k % 64)) & 1 == 0)
    }

    /// Copies of static boxes over all cells.
    #[cfg(test)]
    fn copies(&self) -> usize {
        self.count.iter().map(|&c| c as usize).sum()
    }

    /// The cells of mover `b`, `None` when it misses the statics (NaN misses too).
    #[inline(always)]
    fn reach(&self, b: &[f32; 4]) -> Option<[u32; 4]> {
        self.cells.reach(b)
    }

    /// Which of cell `c`'s slots mover `a` (as `[max_x, max_y, -min_x, -min_y]`, each
    /// splat over four lanes) overlaps: bit `k` for slot `k` (lane 3 masked off). Four four-lane compares,
    /// branch-free.
    #[inline(always)]
    fn hits(&self, c: usize, a: &[f32x4; 4]) -> u32 {
        let s = &self.slots[c];
        let m = s.row(0).simd_le(a[0])
            & s.row(1).simd_le(a[1])
            & s.row(2).simd_le(a[2])
            & s.row(3).simd_le(a[3]);
        m.to_bitmask() & SLOT_BITS
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

/// Movers `range` against the grid (`FILTERED`: the statics' filters differ; else a
/// mover whose filter does not pair with their common one is skipped whole).
struct Stream<'a, 'b, const FILTERED: bool> {
    grid: &'a StaticGrid,
    movers: &'a BoxSet<'b>,
    range: core::ops::Range<usize>,
    level: SimdLevel,
    out: &'a mut Vec<Pair>,
}

/// One mover's hits: reports `(i, j)` if it is reported in this cell and the filters
/// pair (`FILTERED`: the statics' filters differ, so each hit reads its static's).
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
        if FILTERED && !self.fa.pairs_with(grid.filters[j as usize]) {
            return;
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
        let slots = &grid.slots[cy as usize * stride + cx as usize];
        while mask != 0 {
            let k = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            let Some(list) = slots.overflow(k) else {
                let r = slots.get(k);
                self.hit::<FILTERED>(grid, (cx, cy), slots.id(k), [r[0], r[1]], out);
                continue;
            };
            let copies = grid.over[list.clone()].iter().zip(&grid.over_boxes[list]);
            for (&j, &b) in copies {
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
        let Stream {
            grid,
            movers,
            range,
            level,
            out,
        } = self;
        // Whole groups of eight in lanes, the rest one by one.
        let task = StreamLanes::<B, FILTERED> {
            grid,
            movers,
            bounds,
            range: range.clone(),
            out: &mut *out,
        };
        let done = dispatch(level, task)?;
        for (k, a) in bounds
            .iter(range.start + done..)
            .take(range.len() - done)
            .enumerate()
        {
            one::<FILTERED>(grid, movers, range.start + done + k, a, out)?;
        }
        Ok(())
    }
}

/// Mover `i` with bounds `a`, alone: `Err` when it is invalid.
#[inline(always)]
fn one<const FILTERED: bool>(
    grid: &StaticGrid,
    movers: &BoxSet<'_>,
    i: usize,
    a: [f32; 4],
    out: &mut Vec<Pair>,
) -> Result<(), (usize, BoxDefect)> {
    let [x0, y0, x1, y1] = a;
    if !(x0 <= x1 && y0 <= y1 && x1 - x0 <= f32::MAX && y1 - y0 <= f32::MAX)
        && let Some(defect) = box_defect(x0, y0, x1, y1)
    {
        return Err((i, defect));
    }
    // Outside the statics' bounds (or no statics): nothing to meet.
    if let Some(span) = grid.reach(&a) {
        visit::<FILTERED>(grid, movers, i, span, a, out);
    }
    Ok(())
}

/// Mover `i` (bounds `a`, valid, reaching the statics' bounds, in cells `span`): its
/// pairs, sorted by static index.
#[inline(always)]
fn visit<const FILTERED: bool>(
    grid: &StaticGrid,
    movers: &BoxSet<'_>,
    i: usize,
    [cx0, cy0, cx1, cy1]: [u32; 4],
    [x0, y0, x1, y1]: [f32; 4],
    out: &mut Vec<Pair>,
) {
    // A filter that pairs with none of the statics' meets nothing (tested at the
    // first hit: most movers meet no slot at all).
    let pairs = || match (FILTERED, grid.uniform, movers.filters) {
        (false, Some(all), Some(_)) => movers.filter(i).pairs_with(all),
        _ => true,
    };
    let stride = grid.cells.dims[0] as usize + 1;
    let mover = || Mover {
        i: i as u32,
        first: [cx0, cy0],
        fa: if FILTERED {
            movers.filter(i)
        } else {
            Filter::ALL
        },
    };
    // The slots hold `[min_x, min_y, -max_x, -max_y]`: overlap is all four `<=`.
    let t = [x1, y1, -x0, -y0];
    let lanes = t.map(f32x4::splat);
    let first = out.len();
    let (w, h) = (cx1 - cx0, cy1 - cy0);
    let c = cy0 as usize * stride + cx0 as usize;
    if w <= 1 && h <= 1 {
        // The usual case: a 2 × 2 block of cells (the grid has a spare column and row),
        // those past the mover's last masked off; no branch until a hit.
        // A cell past the mover's last reads its own line again (in cache, masked off
        // below): only the cells it reaches are loaded.
        let (dx, dy) = (w as usize, h as usize * stride);
        let m = grid.hits(c, &lanes)
            | grid.hits(c + dx, &lanes) << 4
            | grid.hits(c + dy, &lanes) << 8
            | grid.hits(c + dy + dx, &lanes) << 12;
        let keep = 0x000f | (0x00f0 * w) | (0x0f00 * h) | (0xf000 * (w & h));
        let m = m & keep;
        if m == 0 || !pairs() {
            return;
        }
        let mover = mover();
        for q in 0..4 {
            let bits = (m >> (4 * q)) & 0xf;
            if bits != 0 {
                let cell = (cx0 + (q & 1), cy0 + (q >> 1));
                mover.cell::<FILTERED>(grid, cell, bits, t, out);
            }
        }
    } else {
        if !pairs() {
            return;
        }
        let mover = mover();
        for cy in cy0..=cy1 {
            for cx in cx0..=cx1 {
                let bits = grid.hits(cy as usize * stride + cx as usize, &lanes);
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

/// [`Stream`] on whole groups of eight movers: validation, the reach test and the
/// cells in lanes (the same `f32` operations as [`StaticGrid::reach`] and
/// [`Cells::span`]), [`GROUPS_AHEAD`] groups ahead, whose cells are prefetched while
/// this group's are tested; a group with a suspect box goes one by one ([`one`] names
/// the defect). Returns how many movers it handled (whole groups from `range.start`).
struct StreamLanes<'a, 'b, B, const FILTERED: bool> {
    grid: &'a StaticGrid,
    movers: &'a BoxSet<'b>,
    bounds: B,
    range: core::ops::Range<usize>,
    out: &'a mut Vec<Pair>,
}

/// How many groups of eight movers ahead [`StreamLanes`] computes the cells and asks
/// for them. On the `static_level` bench scene in a whole frame (AMD EPYC Zen 5, one
/// thread): 1 group, 1.75 ms for the narrow part; 2, 1.67; 4, 1.70.
const GROUPS_AHEAD: usize = 2;

/// A group of eight movers, in lanes: bounds, cells (`[first column, first row, last
/// column, last row]`), which reach the statics' bounds (bit `k` for lane `k`), and
/// whether all are plainly valid.
#[derive(Clone, Copy, Default)]
struct Group {
    b: [[f32; LANES]; 4],
    span: [[i32; LANES]; 4],
    reach: u32,
    valid: bool,
}

impl Group {
    /// Asks for the cells of each reaching mover's 2 × 2 block that it reaches, without
    /// a branch per mover: 100k movers of the `static_level` bench scene, AMD EPYC Zen 4,
    /// medians of 16 interleaved runs: 3.37 ms a query with a branch for each second
    /// column and row, 2.64 without.
    #[inline(always)]
    fn prefetch(&self, slots: &[Slots], stride: usize) {
        let p = slots.as_ptr();
        let mut bits = self.reach;
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            // Branch-free (whether a mover spans two columns or rows is a coin toss): a
            // cell it does not reach asks for its first cell's line again.
            let c = self.span[1][k] as usize * stride + self.span[0][k] as usize;
            let dx = usize::from(self.span[2][k] > self.span[0][k]);
            let dy = usize::from(self.span[3][k] > self.span[1][k]) * stride;
            crate::lanes::prefetch(p.wrapping_add(c));
            crate::lanes::prefetch(p.wrapping_add(c + dx));
            crate::lanes::prefetch(p.wrapping_add(c + dy));
            crate::lanes::prefetch(p.wrapping_add(c + dy + dx));
        }
    }
}

/// [`Cells`] splat over lanes. (Methods, not closures: a closure is compiled apart from
/// the dispatcher's target features.)
struct CellLanes<W> {
    lo: [W; 2],
    hi: [W; 2],
    origin: [W; 2],
    inv: [W; 2],
    /// The last cell per axis (exact in `f32`: at most [`MAX_PER_AXIS`]).
    top: [W; 2],
}

impl<W: F32W> CellLanes<W> {
    #[inline(always)]
    fn new(g: &Cells) -> Self {
        Self {
            lo: g.lo.map(W::splat),
            hi: g.hi.map(W::splat),
            origin: g.origin.map(W::splat),
            inv: g.inv.map(W::splat),
            top: g.dims.map(|d| W::splat((d - 1) as f32)),
        }
    }

    /// [`Cells::cell`] in lanes: `to_index`'s clamp, NaN and below 0 to 0, above to
    /// the last cell.
    #[inline(always)]
    fn cell(&self, v: W, axis: usize) -> [i32; LANES] {
        ((v - self.origin[axis]) * self.inv[axis])
            .max(W::splat(0.0))
            .min(self.top[axis])
            .trunc_i32()
    }

    /// Movers `i..i + LANES`, sifted: those within two fine cells on each axis
    /// (`fine`: [`StaticGrid::fine`] in lanes) whose first one's [`StaticGrid::near`]
    /// bit is clear meet no static box, and are left out of `reach`.
    #[inline(always)]
    fn group<B: BoundsRead>(&self, fine: &Self, grid: &StaticGrid, bounds: &B, i: usize) -> Group {
        let [x0, y0, x1, y1] = bounds.lanes::<W>(i);
        let valid = all_plainly_valid([x0, y0, x1, y1]);
        let reach = x0.le(self.hi[0]) & x1.ge(self.lo[0]) & y0.le(self.hi[1]) & y1.ge(self.lo[1]);
        let mut reach = if valid { reach.bitmask() } else { 0 };
        if reach != 0 && !grid.near.is_empty() {
            let [fx0, fy0, fx1, fy1] = [
                fine.cell(x0, 0),
                fine.cell(y0, 1),
                fine.cell(x1, 0),
                fine.cell(y1, 1),
            ];
            let w = grid.fine.dims[0];
            let (mut small, mut idx) = (0u32, [0u32; LANES]);
            for k in 0..LANES {
                // In range: clamped to `[0, dims - 1]`, and `dims` fit u32 indices.
                let fits = (fx1[k] - fx0[k] <= 1) & (fy1[k] - fy0[k] <= 1);
                small |= u32::from(fits) << k;
                idx[k] = (fy0[k] as u32).wrapping_mul(w).wrapping_add(fx0[k] as u32);
            }
            reach &= !small | W::test_bits(&grid.near, &idx);
        }
        Group {
            b: [x0, y0, x1, y1].map(W::to_array),
            span: [
                self.cell(x0, 0),
                self.cell(y0, 1),
                self.cell(x1, 0),
                self.cell(y1, 1),
            ],
            reach,
            valid,
        }
    }
}

impl<B: BoundsRead, const FILTERED: bool> SimdTask for StreamLanes<'_, '_, B, FILTERED> {
    type Output = Result<usize, (usize, BoxDefect)>;

    #[inline(always)]
    fn run<W: F32W>(self) -> Self::Output {
        let StreamLanes {
            grid,
            movers,
            bounds,
            range,
            out,
        } = self;
        let full = range.len() / LANES * LANES;
        let c = CellLanes::<W>::new(&grid.cells);
        let fine = CellLanes::<W>::new(&grid.fine);
        let stride = grid.cells.dims[0] as usize + 1;
        // A ring of groups: each one's lanes computed (and its cells asked for)
        // GROUPS_AHEAD groups ahead.
        let mut groups = [Group::default(); GROUPS_AHEAD + 1];
        let end = range.start + full;
        for (g, at) in (range.start..end)
            .step_by(LANES)
            .take(GROUPS_AHEAD)
            .enumerate()
        {
            groups[g] = c.group(&fine, grid, &bounds, at);
            groups[g].prefetch(&grid.slots, stride);
        }
        for (g, at) in (range.start..end).step_by(LANES).enumerate() {
            let ahead = at + GROUPS_AHEAD * LANES;
            if ahead < end {
                let next = &mut groups[(g + GROUPS_AHEAD) % (GROUPS_AHEAD + 1)];
                *next = c.group(&fine, grid, &bounds, ahead);
                next.prefetch(&grid.slots, stride);
            }
            let cur = &groups[g % (GROUPS_AHEAD + 1)];
            if !cur.valid {
                for (k, a) in bounds.iter(at..).take(LANES).enumerate() {
                    one::<FILTERED>(grid, movers, at + k, a, out)?;
                }
                continue;
            }
            let mut bits = cur.reach;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                // In range: clamped to `[0, dims - 1]` as `to_index` clamps.
                let span = [0, 1, 2, 3].map(|r| cur.span[r][k] as u32);
                let a = [0, 1, 2, 3].map(|r| cur.b[r][k]);
                visit::<FILTERED>(grid, movers, at + k, span, a, out);
            }
        }
        Ok(full)
    }
}

#[cfg(test)]
mod tests;
