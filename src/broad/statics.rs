//! [`StaticGrid`]: a uniform grid over boxes that never move (level geometry), built
//! once and queried every frame with the moving boxes' (swept) bounds.
//!
//! ```text
//!  build (once):                          query (every frame), per mover a in order:
//!  ┌────┬────┬────┬────┐                    outside the statics' bounds? skip
//!  │    │ s1 │ s1'│    │  s1' = a copy       for each row a reaches:
//!  ├────┼────┼────┼────┤  of s1 past its      the row's cells a reaches are one
//!  │    │    │ s2 │    │  first column        contiguous run of entries (CSR):
//!  ├────┼────┼────┼────┤  (flag CONT)         report (a, s) if they overlap, the
//!  │ s3 │    │    │    │                      filters pair, and this is the first
//!  └────┴────┴────┴────┘                      cell both reach; then a's few pairs
//!                                             are sorted by static index
//! ```
//!
//! Each static box is copied (bounds and index, 20 bytes) into every cell it covers,
//! cells in row-major order, so the cells a mover reaches in one row are one run of
//! entries: no indirection to the box, one `cell_start` pair per row. A pair is reported
//! in the cell `(max(first column), max(first row))` of the two boxes, which both reach
//! (cells are a monotone function of the coordinate), so exactly once: in a mover's
//! first column every overlapping entry counts, in its later columns only entries that
//! are their box's first column (not `CONT`); in its first row every entry counts, in a
//! later row only boxes whose first row it is.
//!
//! # Cell size
//! About [`CELL_FACTOR`] times the statics' median extent per axis (a sample of at most
//! [`SAMPLE`] boxes), cells clamped to the bulk of the boxes ([`bulk_bounds`]: a few
//! boxes parked far away do not stretch the cells), at most [`MAX_PER_AXIS`] per axis
//! and `4·n + 64` in all. When the copies would exceed `16·n + 64` (many huge boxes
//! among small ones), the grid is halved on both axes until they fit: memory stays
//! linear in the number of statics whatever their sizes.

use super::Pair;
use super::layout::{bulk_bounds, sample_index, to_index};
use super::set::{BoundsRead, BoxSet, WithBounds};
use crate::error::{BoxDefect, Error, check_count};
use crate::math::box_defect;
use crate::store::Filter;
use std::sync::Mutex;

/// Cell side in units of the statics' median extent on that axis. Measured with
/// `benches/statics.rs` (100k statics 2–8 wide, 100k movers, one thread; see the
/// commit that set it).
pub(crate) const CELL_FACTOR: f64 = 1.0;
/// At most this many cells per axis.
pub(crate) const MAX_PER_AXIS: u32 = 1 << 14;
/// At most this many cells per static box (plus [`EXTRA_CELLS`]).
pub(crate) const CELLS_PER_BOX: usize = 4;
/// Cells allowed beyond `CELLS_PER_BOX · n`.
pub(crate) const EXTRA_CELLS: usize = 64;
/// At most this many copies per static box (plus [`EXTRA_CELLS`]) before the grid is
/// coarsened.
pub(crate) const COPIES_PER_BOX: u64 = 16;
/// At most this many boxes are sampled for the median extent.
pub(crate) const SAMPLE: usize = 2048;
/// Movers per parallel chunk, at least.
const MIN_CHUNK: usize = 2048;
/// Set on an entry's id when the entry is not its box's first column.
const CONT: u32 = 1 << 31;

/// One static box's copy in one cell.
#[derive(Debug, Clone, Copy, Default)]
#[repr(C)]
struct Entry {
    /// `[min_x, min_y, max_x, max_y]`.
    b: [f32; 4],
    /// The static index, with [`CONT`] on copies after the box's first column.
    id: u32,
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
    /// Per cell, row-major: start of its entries (`cells + 1` values).
    cell_start: Vec<u32>,
    entries: Vec<Entry>,
    /// Per static box, when the statics had filters (else empty).
    filters: Vec<Filter>,
    len: usize,
    /// Build scratch: the statics' bounds, the sampled extents, the fill cursors.
    boxes: Vec<[f32; 4]>,
    sample: Vec<f32>,
    cursor: Vec<u32>,
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
    /// Without filters every static box pairs with every mover's filter that has
    /// [`Filter::ALL`]'s layers and mask (as in [`BoxSet`]: a set without filters has
    /// `Filter::ALL` on every box).
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

    /// Fills `cell_start` and `entries` for `self.cells` over `self.boxes`: a counting
    /// sort of (cell, box), boxes ascending within each cell.
    fn fill(&mut self) {
        let g = self.cells;
        let w = g.dims[0] as usize;
        let cells = w * g.dims[1] as usize;
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        for b in &self.boxes {
            let [x0, y0, x1, y1] = g.span(b);
            for y in y0..=y1 {
                let row = y as usize * w + 1;
                for c in &mut self.cell_start[row + x0 as usize..=row + x1 as usize] {
                    *c += 1;
                }
            }
        }
        for c in 1..=cells {
            self.cell_start[c] += self.cell_start[c - 1];
        }
        self.entries.clear();
        self.entries
            .resize(self.cell_start[cells] as usize, Entry::default());
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.cell_start[..cells]);
        for (i, b) in self.boxes.iter().enumerate() {
            let [x0, y0, x1, y1] = g.span(b);
            for y in y0..=y1 {
                let row = y as usize * w;
                for x in x0..=x1 {
                    let c = &mut self.cursor[row + x as usize];
                    let cont = if x == x0 { 0 } else { CONT };
                    self.entries[*c as usize] = Entry {
                        b: *b,
                        id: i as u32 | cont,
                    };
                    *c += 1;
                }
            }
        }
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

impl<const FILTERED: bool> WithBounds for Stream<'_, '_, FILTERED> {
    type Output = Result<(), (usize, BoxDefect)>;
    #[inline]
    fn call<B: BoundsRead>(self, bounds: B) -> Self::Output {
        let grid = self.grid;
        let g = grid.cells;
        let w = g.dims[0] as usize;
        let start = self.range.start;
        let out = self.out;
        for (k, a) in bounds
            .iter(start..)
            .take(self.range.end - start)
            .enumerate()
        {
            let i = start + k;
            let [x0, y0, x1, y1] = a;
            if !(x0 <= x1 && y0 <= y1 && x1 - x0 <= f32::MAX && y1 - y0 <= f32::MAX)
                && let Some(defect) = box_defect(x0, y0, x1, y1)
            {
                return Err((i, defect));
            }
            // Outside the statics' bounds (or no statics): nothing to meet.
            if x0 > g.hi[0] || x1 < g.lo[0] || y0 > g.hi[1] || y1 < g.lo[1] {
                continue;
            }
            let [cx0, cy0, cx1, cy1] = g.span(&a);
            let fa = if FILTERED {
                self.movers.filter(i)
            } else {
                Filter::ALL
            };
            let first = out.len();
            for cy in cy0..=cy1 {
                let row = cy as usize * w;
                let s = grid.cell_start[row + cx0 as usize] as usize;
                let m = grid.cell_start[row + cx0 as usize + 1] as usize;
                let e = grid.cell_start[row + cx1 as usize + 1] as usize;
                for (k, en) in grid.entries[s..e].iter().enumerate() {
                    let b = en.b;
                    if !(x0 <= b[2] && b[0] <= x1 && y0 <= b[3] && b[1] <= y1) {
                        continue;
                    }
                    // Reported in the first cell both reach: in a's first column
                    // anything, later only a box's own first column; in a's first row
                    // anything, later only a box's own first row.
                    if s + k >= m && en.id & CONT != 0 {
                        continue;
                    }
                    if cy != cy0 && g.cell(1, b[1]) != cy {
                        continue;
                    }
                    let j = en.id & !CONT;
                    if FILTERED {
                        let fb = grid.filters.get(j as usize).copied().unwrap_or(Filter::ALL);
                        if !fa.pairs_with(fb) {
                            continue;
                        }
                    }
                    out.push(Pair::new(i as u32, j));
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
