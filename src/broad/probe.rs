//! Bipartite mode when one set is much smaller than the other (bullets × targets): the
//! small set goes into a uniform grid, the large set streams past it in input order.
//!
//! ```text
//!  small set (targets)                 large set (bullets), streamed:
//!  ┌────┬────┬────┬────┐               for each box a, in input order:
//!  │    │ e1 │ e1 │    │                 outside the grid's bounds? skip
//!  ├────┼────┼────┼────┤                 for each cell a reaches:
//!  │    │    │ e2 │    │                   for each target b listed there:
//!  ├────┼────┼────┼────┤                     report (a, b) if they overlap and this
//!  │ e3 │    │    │    │                     is the first cell both reach
//!  └────┴────┴────┴────┘
//! ```
//!
//! No sort, no band layout, no work within either set: the cost is one pass over the
//! large set plus the few cells each of its boxes reaches. With at most four small boxes
//! (a player), the large set is tested against each of them in lanes instead (pairs by
//! the large box's index, then the small box's). A pair is reported in the
//! cell `(max(first column), max(first row))` of the two boxes, which both reach, so
//! exactly once. The pairs come out by the large set's input index, then in the order
//! the cells and their lists are visited: a function of the input alone.

use super::Pair;
use super::layout::{Cells, bulk_bounds};
use super::set::{Bounds, BoundsRead, BoxSet, WithBounds, all_plainly_valid};
use crate::error::BoxDefect;
use crate::lanes::{F32W, LANES, MaskW, SimdLevel, SimdTask, dispatch};
use crate::math::Aabb;
use crate::math::box_defect;
use crate::store::Filter;

/// When the smaller set has at most `1 / SIZE_RATIO` as many boxes as the larger (and
/// at most [`MAX_SMALL`]), bipartite mode builds the grid, and uses it if it pays
/// ([`Probe::pays`]).
pub(crate) const SIZE_RATIO: usize = 16;
/// The grid holds at most this many boxes.
pub(crate) const MAX_SMALL: usize = 1 << 16;
/// At most this many cells per axis.
const MAX_CELLS_PER_AXIS: usize = 512;
/// The grid pays only while the small boxes cover at most this share of the area
/// their bounds span (or there are at most [`TINY`] of them, tested in lanes); above
/// it, the banded sweep is faster. Measured with 100k uniform boxes against small sets
/// of 8..6000 boxes 2..200 units wide spread over the same field, one thread, grid
/// against banded: 8 boxes 10 wide (0.4%) 1.33 against 1.65 ms, 300 boxes 2 wide (0.6%)
/// 1.84 against 2.03, 20 boxes 10 wide (1%) 1.80 against 1.78; 8 boxes 30 wide (3.6%)
/// 2.11 against 1.78, 1000 boxes 2 wide (2%) 2.57 against 2.20, 64 boxes 200 wide 12.6
/// against 2.8, 6000 boxes 10 wide 11.7 against 2.9.
const MAX_COVERAGE: f64 = 0.01;

/// The small set in a grid, with buffers kept between calls.
#[derive(Debug, Default)]
pub(crate) struct Probe {
    bounds: Vec<[f32; 4]>,
    filters: Vec<Filter>,
    /// Per small box: its first cell column and row.
    first: Vec<[u32; 2]>,
    /// Per cell: start of its list in `items` (`cells + 1` entries).
    cell_start: Vec<u32>,
    items: Vec<u32>,
    cursor: Vec<u32>,
    grid: Cells,
    /// Whether the last grid built pays against the banded sweep ([`Probe::pays`]).
    pays: bool,
    /// A few dozen small boxes: their slab masks ([`Masks`]), used instead of the grid.
    masks: Option<Masks>,
    /// Per chunk of the large set: its pairs.
    pub chunk_pairs: Vec<Vec<Pair>>,
}

impl Probe {
    /// Whether bipartite mode should build the grid for sets of these sizes (and then
    /// use it if [`Probe::pays`]).
    pub(crate) fn fits(a: usize, b: usize) -> bool {
        let (small, large) = (a.min(b), a.max(b));
        small > 0 && small <= MAX_SMALL && small.saturating_mul(SIZE_RATIO) <= large
    }

    /// Validates the small set and builds the grid over it.
    pub(crate) fn build(&mut self, small: &BoxSet<'_>) -> Result<(), (usize, BoxDefect)> {
        let n = small.len();
        self.bounds.clear();
        self.filters.clear();
        self.masks = None;
        let (mut lo, mut hi, mut ext) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2], [0.0f64; 2]);
        self.pays = true;
        for i in 0..n {
            let b = small.get(i);
            if let Some(d) = box_defect(b[0], b[1], b[2], b[3]) {
                // An empty grid: the large set can still be streamed (to find its own
                // errors first) and meets nothing.
                self.bounds.clear();
                self.grid = Cells::default();
                self.cell_start.clear();
                self.cell_start.resize(2, 0);
                self.items.clear();
                return Err((i, d));
            }
            for axis in 0..2 {
                lo[axis] = lo[axis].min(b[axis]);
                hi[axis] = hi[axis].max(b[axis + 2]);
                ext[axis] += f64::from(b[axis + 2]) - f64::from(b[axis]);
            }
            self.bounds.push(b);
            if small.filters.is_some() {
                self.filters.push(small.filter(i));
            }
        }
        // Cells about as large as the mean box, at least 1/512 of the span, and not
        // more than 16 per box in all.
        let mut dims = [1u32; 2];
        let mut inv = [0.0f32; 2];
        let mut origin = lo;
        let mut end = hi;
        for axis in 0..2 {
            let bounds = &self.bounds;
            let centres = || {
                bounds
                    .iter()
                    .map(move |b| (f64::from(b[axis]) + f64::from(b[axis + 2])) * 0.5)
            };
            (origin[axis], end[axis]) =
                bulk_bounds((lo[axis], hi[axis]), ext[axis] / n as f64, n, centres);
        }
        for axis in 0..2 {
            let span = f64::from(end[axis]) - f64::from(origin[axis]);
            let mean = ext[axis] / n as f64;
            if span > 0.0 && span.is_finite() {
                let cell = mean.max(span / MAX_CELLS_PER_AXIS as f64);
                dims[axis] = ((span / cell).ceil() as usize).clamp(1, MAX_CELLS_PER_AXIS) as u32;
            }
        }
        // The area the small boxes cover within the grid's span (a box reaching far
        // out counts only its part inside, which is all that probes ever meet).
        let (o, e) = (origin.map(f64::from), end.map(f64::from));
        let area: f64 = self
            .bounds
            .iter()
            .map(|b| {
                let w = f64::from(b[2]).min(e[0]) - f64::from(b[0]).max(o[0]);
                let h = f64::from(b[3]).min(e[1]) - f64::from(b[1]).max(o[1]);
                w.max(0.0) * h.max(0.0)
            })
            .sum();
        let spanned = (e[0] - o[0]) * (e[1] - o[1]);
        self.pays = n <= TINY || area <= MAX_COVERAGE * spanned;
        self.masks = None;
        if n > TINY && n <= MASKED && small.filters.is_none() {
            let masks = Masks::new(&self.bounds, lo, hi);
            if masks.pays() {
                self.masks = Some(masks);
                self.pays = true;
            }
        }
        while dims[0] as usize * dims[1] as usize > 16 * n + 64 {
            dims = dims.map(|d| d.div_ceil(2));
        }
        for axis in 0..2 {
            let span = end[axis] - origin[axis];
            let v = dims[axis] as f32 / span;
            inv[axis] = if v.is_finite() { v } else { 0.0 };
        }
        self.grid = Cells {
            lo,
            hi,
            origin,
            inv,
            dims,
        };
        // Counting sort of (cell, box) into per-cell lists, boxes ascending in each.
        let cells = dims[0] as usize * dims[1] as usize;
        self.cell_start.clear();
        self.cell_start.resize(cells + 1, 0);
        self.first.clear();
        let g = self.grid;
        let span = |b: &[f32; 4]| {
            (
                g.cell(0, b[0])..g.cell(0, b[2]) + 1,
                g.cell(1, b[1])..g.cell(1, b[3]) + 1,
            )
        };
        for b in &self.bounds {
            let (xs, ys) = span(b);
            self.first.push([xs.start, ys.start]);
            for y in ys {
                for x in xs.clone() {
                    self.cell_start[(y * dims[0] + x) as usize + 1] += 1;
                }
            }
        }
        for c in 1..=cells {
            self.cell_start[c] += self.cell_start[c - 1];
        }
        self.items.clear();
        self.items.resize(self.cell_start[cells] as usize, 0);
        self.cursor.clear();
        self.cursor.extend_from_slice(&self.cell_start);
        let cursor = &mut self.cursor;
        for (i, b) in self.bounds.iter().enumerate() {
            let (xs, ys) = span(b);
            for y in ys {
                for x in xs.clone() {
                    let c = &mut cursor[(y * dims[0] + x) as usize];
                    self.items[*c as usize] = i as u32;
                    *c += 1;
                }
            }
        }
        Ok(())
    }

    /// Whether the grid just built is worth streaming the large set past, rather than
    /// sweeping both sets in bands: its boxes are a handful (tested in lanes), or cover
    /// little of the area they span ([`MAX_COVERAGE`]).
    pub(crate) fn pays(&self) -> bool {
        self.pays
    }

    /// Streams `large[range]` past the grid, appending pairs to `out` (oriented so that
    /// the first set's index comes first).
    pub(crate) fn stream(
        &self,
        large: &BoxSet<'_>,
        range: core::ops::Range<usize>,
        large_is_first: bool,
        level: SimdLevel,
        out: &mut Vec<Pair>,
    ) -> Result<(), (usize, BoxDefect)> {
        // A few dozen small boxes (enemies): each large box's candidates from the slab
        // masks, then the exact test.
        if let (Bounds::Slice(slice), Some(masks)) = (&large.bounds, &self.masks)
            && large.filters.is_none()
        {
            let start = out.len();
            let task = MaskLanes {
                masks,
                pairs: Tiny {
                    small: &self.bounds,
                    large: &slice[range.clone()],
                    start: range.start,
                    large_is_first,
                    out: &mut *out,
                },
            };
            let done = if level == SimdLevel::Scalar {
                task.scalar()
            } else {
                dispatch(level, task)
            };
            // An invalid box stops the fast loop; the general one finds the lowest.
            match done {
                Ok(()) => return Ok(()),
                Err(()) => out.truncate(start),
            }
        }
        // A handful of small boxes (the player): test every large box against each of
        // them, eight at a time, instead of looking up cells.
        if let Bounds::Slice(slice) = large.bounds
            && !self.bounds.is_empty()
            && self.bounds.len() <= TINY
            && self.filters.is_empty()
            && large.filters.is_none()
            && self.grid.lo[0] <= self.grid.hi[0]
        {
            let tiny = Tiny {
                small: &self.bounds,
                large: &slice[range.clone()],
                start: range.start,
                large_is_first,
                out: &mut *out,
            };
            let done = if level == SimdLevel::Scalar {
                tiny.scalar()
            } else {
                dispatch(level, tiny)
            };
            // An invalid box stops the fast loop; the general one finds the lowest.
            match done {
                Ok(()) => return Ok(()),
                Err(()) => out.clear(),
            }
        }
        large.with_bounds(Stream {
            probe: self,
            large,
            range,
            large_is_first,
            out,
        })
    }
}

/// With at most this many boxes in the small set, [`Probe::stream`] tests the large
/// set against each of them in lanes instead of through the grid.
pub(crate) const TINY: usize = 4;

/// With more than [`TINY`] and at most this many boxes in the small set (one bit each),
/// [`Probe::stream`] finds each large box's candidates in slab masks ([`Masks`]).
pub(crate) const MASKED: usize = 64;

/// Slabs per axis of [`Masks`].
const SLABS: usize = 64;

/// A few dozen small boxes (a game's enemies) as two rows of slabs: the span of the
/// small set cut into [`SLABS`] slabs along each axis, each slab with the bit of every
/// small box that reaches it. A large box's candidates are the boxes whose bits are set
/// both in a slab its x range reaches and in one its y range reaches; the exact closed
/// test decides. One or two slabs a box for bullets: a few loads and an `and`, whatever
/// the order of the large set, and no sort.
///
/// Exact: a slab is `((x - lo) * inv) as usize` clamped to the row, the same monotone
/// function of `x` for both sets. Two boxes that overlap on an axis have `min ≤ max'`
/// and `min' ≤ max`, so their slab ranges overlap too, and the candidates hold every
/// pair that overlaps.
#[derive(Debug, Clone)]
pub(crate) struct Masks {
    lo: [f32; 2],
    inv: [f32; 2],
    /// Per axis, per slab: the small boxes reaching it.
    rows: [[u64; SLABS]; 2],
}

impl Masks {
    /// The masks of `small` (at most [`MASKED`] valid boxes) within `lo..hi`, their
    /// bounds.
    fn new(small: &[[f32; 4]], lo: [f32; 2], hi: [f32; 2]) -> Masks {
        debug_assert!(small.len() <= MASKED);
        let mut m = Masks {
            lo,
            inv: [0.0; 2],
            rows: [[0; SLABS]; 2],
        };
        for axis in 0..2 {
            let v = SLABS as f32 / (hi[axis] - lo[axis]);
            m.inv[axis] = if v.is_finite() { v } else { 0.0 };
        }
        for (j, b) in small.iter().enumerate() {
            for axis in 0..2 {
                for s in m.slab(axis, b[axis])..=m.slab(axis, b[axis + 2]) {
                    m.rows[axis][s] |= 1 << j;
                }
            }
        }
        m
    }

    /// The slab of coordinate `x` on `axis` (monotone in `x`; saturating).
    #[inline(always)]
    fn slab(&self, axis: usize, x: f32) -> usize {
        (((x - self.lo[axis]) * self.inv[axis]) as usize).min(SLABS - 1)
    }

    /// Whether the masks filter well: on each axis, a slab holds a quarter of the small
    /// boxes or fewer on average (else the banded sweep is as good).
    fn pays(&self) -> bool {
        self.rows.iter().all(|row| {
            let bits: u32 = row.iter().map(|m| m.count_ones()).sum();
            let boxes = row.iter().fold(0u64, |a, m| a | m).count_ones();
            4 * bits as usize <= SLABS * boxes as usize
        })
    }

    /// The small boxes in slabs `s0..=s1` of `axis`: both ends' masks without a branch
    /// (a bullet reaches one or two slabs), the slabs between only for a box wider than
    /// a slab.
    #[inline(always)]
    fn reach(&self, axis: usize, s0: usize, s1: usize) -> u64 {
        let row = &self.rows[axis];
        let mut m = row[s0] | row[s1];
        if s1 > s0 + 1 {
            m = row[s0 + 1..s1].iter().fold(m, |m, r| m | r);
        }
        m
    }
}

/// The large set (a slice) against the small set's slab masks ([`Masks`]): pairs by the
/// large box's index, then the small box's. `Err` at an invalid large box (the general
/// loop then finds the lowest).
struct MaskLanes<'a> {
    masks: &'a Masks,
    /// The two sets and where their pairs go, oriented as [`Tiny`] orients them.
    pairs: Tiny<'a>,
}

impl MaskLanes<'_> {
    /// One box at a time: the reference for the lanes.
    fn scalar(self) -> Result<(), ()> {
        self.boxes(0)
    }

    /// The boxes from `first` on, one at a time.
    #[inline(always)]
    fn boxes(mut self, first: usize) -> Result<(), ()> {
        (first..self.pairs.large.len()).try_for_each(|i| self.one(i))
    }

    /// Large box `i`, alone: its slabs ([`Masks::slab`]) and pairs; `Err` if invalid.
    #[inline(always)]
    fn one(&mut self, i: usize) -> Result<(), ()> {
        let (m, a) = (self.masks, self.pairs.large[i]);
        if a.validate().is_err() {
            return Err(());
        }
        let x = m.reach(0, m.slab(0, a.min.x), m.slab(0, a.max.x));
        let y = m.reach(1, m.slab(1, a.min.y), m.slab(1, a.max.y));
        self.emit(i, x & y);
        Ok(())
    }

    /// Pushes the pairs of large box `i` with the small boxes among the candidates `c`
    /// that it overlaps, closed.
    #[inline(always)]
    fn emit(&mut self, i: usize, mut c: u64) {
        let a = self.pairs.large[i];
        while c != 0 {
            let j = c.trailing_zeros() as usize;
            c &= c - 1;
            let b = self.pairs.small[j];
            if a.min.x <= b[2] && b[0] <= a.max.x && a.min.y <= b[3] && b[1] <= a.max.y {
                self.pairs.push(i, j);
            }
        }
    }
}

impl SimdTask for MaskLanes<'_> {
    type Output = Result<(), ()>;

    /// Eight boxes at a time: their validity (`box_defect`'s fast test) and their end
    /// slabs in lanes, clamped as floats; then each box's masks. Eight boxes of which
    /// one fails the fast test go one at a time. The same slabs as [`Masks::slab`] for
    /// every valid box, so the same pairs in the same order.
    #[inline(always)]
    fn run<W: F32W>(mut self) -> Result<(), ()> {
        let m = self.masks;
        let full = self.pairs.large.len() / LANES * LANES;
        let flat: &[f32] = bytemuck::cast_slice(&self.pairs.large[..full]);
        let (zero, top, inf) = (
            W::splat(0.0),
            W::splat((SLABS - 1) as f32),
            W::splat(f32::INFINITY),
        );
        let slab = |v: W, a: usize| {
            ((v - W::splat(m.lo[a])) * W::splat(m.inv[a]))
                .max(zero)
                .min(top)
                .trunc_i32()
        };
        for (c, recs) in flat.chunks_exact(4 * LANES).enumerate() {
            let [x0, y0, x1, y1] = W::load_transposed4(recs);
            let ok = x0.le(x1) & y0.le(y1) & (x1 - x0).lt(inf) & (y1 - y0).lt(inf);
            if ok.bitmask() != (1 << LANES) - 1 {
                (c * LANES..(c + 1) * LANES).try_for_each(|i| self.one(i))?;
                continue;
            }
            let (sx0, sx1, sy0, sy1) = (slab(x0, 0), slab(x1, 0), slab(y0, 1), slab(y1, 1));
            for k in 0..LANES {
                let i = c * LANES + k;
                let x = m.reach(0, sx0[k] as usize, sx1[k] as usize);
                let y = m.reach(1, sy0[k] as usize, sy1[k] as usize);
                self.emit(i, x & y);
            }
        }
        self.boxes(full)
    }
}

/// The large set (a slice) against a few small boxes: pairs by the large box's index,
/// then the small box's. [`MaskLanes`] pushes its pairs through it too.
struct Tiny<'a> {
    small: &'a [[f32; 4]],
    large: &'a [Aabb],
    start: usize,
    large_is_first: bool,
    out: &'a mut Vec<Pair>,
}

impl Tiny<'_> {
    #[inline(always)]
    fn push(&mut self, i: usize, j: usize) {
        let (i, j) = ((self.start + i) as u32, j as u32);
        self.out.push(if self.large_is_first {
            Pair::new(i, j)
        } else {
            Pair::new(j, i)
        });
    }

    /// One box at a time; `Err` at the first invalid large box.
    fn scalar(mut self) -> Result<(), ()> {
        for i in 0..self.large.len() {
            self.one(i)?;
        }
        Ok(())
    }

    /// Large box `i` against every small box; `Err` when it is invalid.
    #[inline(always)]
    fn one(&mut self, i: usize) -> Result<(), ()> {
        let a = self.large[i];
        if a.validate().is_err() {
            return Err(());
        }
        for j in 0..self.small.len() {
            let b = self.small[j];
            if a.min.x <= b[2] && b[0] <= a.max.x && a.min.y <= b[3] && b[1] <= a.max.y {
                self.push(i, j);
            }
        }
        Ok(())
    }
}

impl SimdTask for Tiny<'_> {
    type Output = Result<(), ()>;
    #[inline(always)]
    fn run<W: F32W>(mut self) -> Result<(), ()> {
        let full = self.large.len() / LANES * LANES;
        let mut hits = [0u32; TINY];
        for g in (0..full).step_by(LANES) {
            let lanes = &self.large[g..g + LANES];
            let [x0, y0, x1, y1] = W::load_transposed4(bytemuck::cast_slice(lanes));
            // A group that fails the quick test goes box by box through the exact one.
            if !all_plainly_valid([x0, y0, x1, y1]) {
                for k in 0..LANES {
                    self.one(g + k)?;
                }
                continue;
            }
            let mut any = 0;
            for (j, b) in self.small.iter().enumerate() {
                let m = x0.le(W::splat(b[2]))
                    & x1.ge(W::splat(b[0]))
                    & y0.le(W::splat(b[3]))
                    & y1.ge(W::splat(b[1]));
                hits[j] = m.bitmask();
                any |= hits[j];
            }
            while any != 0 {
                let k = any.trailing_zeros() as usize;
                for (j, h) in hits.iter().enumerate().take(self.small.len()) {
                    if h & (1 << k) != 0 {
                        self.push(g + k, j);
                    }
                }
                any &= any - 1;
            }
        }
        // The tail, one box at a time, in the same order.
        let tail = Tiny {
            small: self.small,
            large: &self.large[full..],
            start: self.start + full,
            large_is_first: self.large_is_first,
            out: &mut *self.out,
        };
        tail.scalar()
    }
}

struct Stream<'a, 'b> {
    probe: &'a Probe,
    large: &'a BoxSet<'b>,
    range: core::ops::Range<usize>,
    large_is_first: bool,
    out: &'a mut Vec<Pair>,
}

impl WithBounds for Stream<'_, '_> {
    type Output = Result<(), (usize, BoxDefect)>;
    #[inline]
    fn call<B: BoundsRead>(self, bounds: B) -> Self::Output {
        let p = self.probe;
        let g = p.grid;
        let filtered = !p.filters.is_empty() || self.large.filters.is_some();
        let start = self.range.start;
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
            // Outside the small set's bounds: nothing to meet.
            let Some([cx0, cy0, cx1, cy1]) = g.reach(&a) else {
                continue;
            };
            let fa = if filtered {
                self.large.filter(i)
            } else {
                Filter::ALL
            };
            for cy in cy0..=cy1 {
                for cx in cx0..=cx1 {
                    let c = (cy * g.dims[0] + cx) as usize;
                    let list = &p.items[p.cell_start[c] as usize..p.cell_start[c + 1] as usize];
                    for &j in list {
                        let b = p.bounds[j as usize];
                        if !(x0 <= b[2] && b[0] <= x1 && y0 <= b[3] && b[1] <= y1) {
                            continue;
                        }
                        let f = p.first[j as usize];
                        if cx != cx0.max(f[0]) || cy != cy0.max(f[1]) {
                            continue; // reported in the first cell both reach
                        }
                        if filtered {
                            let fb = p.filters.get(j as usize).copied().unwrap_or(Filter::ALL);
                            if !fa.pairs_with(fb) {
                                continue;
                            }
                        }
                        self.out.push(if self.large_is_first {
                            Pair::new(i as u32, j)
                        } else {
                            Pair::new(j, i as u32)
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scene::generate;
    use glam::Vec2;

    #[test]
    fn far_parked_boxes_keep_the_grid_on_the_bulk() {
        let mut targets = generate::uniform(2000, 8);
        let clean = {
            let mut p = Probe::default();
            p.build(&BoxSet::from(&targets[..])).unwrap();
            p.grid
        };
        for i in (0..2000).step_by(500) {
            targets[i] = Aabb::from_min_size(Vec2::new(1e30, -1e30), Vec2::ONE);
        }
        let mut p = Probe::default();
        p.build(&BoxSet::from(&targets[..])).unwrap();
        let g = p.grid;
        // The bounds still reach the parked boxes (so that nothing is skipped) ...
        assert!(g.hi[0] >= 1e30 && g.lo[1] <= -1e30);
        // ... while the cells cover the bulk as before.
        for axis in 0..2 {
            assert!(
                g.dims[axis] + 2 >= clean.dims[axis],
                "{g:?} against {clean:?}"
            );
            assert!((g.origin[axis] - clean.origin[axis]).abs() < 2.0, "{g:?}");
            let cells = g.inv[axis] / clean.inv[axis];
            assert!((0.5..2.0).contains(&cells), "{g:?} against {clean:?}");
        }
    }

    /// A few dozen small boxes go through the slab masks, and the pairs are exactly the
    /// brute-force ones, in the same order on every thread count and SIMD level and
    /// with either set first: small sets of 5, 20 and 64 boxes; boxes touching exactly;
    /// large boxes beyond the small set's span; a small set of one repeated box (a span
    /// of zero); small boxes covering everything (the masks do not pay: banded).
    #[test]
    fn slab_masks_find_every_pair_a_brute_force_finds() {
        use super::super::{BroadConfig, BroadPhase, brute_force_bipartite};
        use crate::rng::Rng;
        let mut rng = Rng::new(0x5ab);
        let large: Vec<Aabb> = (0..5000)
            .map(|k| {
                let c = Vec2::new(rng.range_f32(-200.0, 1200.0), rng.range_f32(-200.0, 1200.0));
                // Every eighth box lies on the grid of tens, to touch the small boxes.
                let c = if k % 8 == 0 {
                    (c / 10.0).round() * 10.0
                } else {
                    c
                };
                Aabb::from_center_half_extents(c, Vec2::splat(rng.range_f32(0.0, 5.0)))
            })
            .collect();
        let mut cases: Vec<(&str, Vec<Aabb>, bool)> = Vec::new();
        for n in [5, 20, 64] {
            let small = (0..n)
                .map(|_| {
                    let c = Vec2::new(rng.range_f32(0.0, 100.0), rng.range_f32(0.0, 100.0));
                    Aabb::from_center_half_extents((c * 10.0).round(), Vec2::splat(5.0))
                })
                .collect();
            cases.push(("spread", small, true));
        }
        let one = Aabb::from_coords(500.0, 500.0, 500.0, 500.0);
        cases.push(("one point, repeated", vec![one; 9], true));
        let all = Aabb::from_coords(-300.0, -300.0, 1300.0, 1300.0);
        cases.push(("covering everything", vec![all; 12], false));
        for (name, small, masked) in &cases {
            let mut want = brute_force_bipartite(&large[..], &small[..]).unwrap();
            want.sort_unstable();
            let mut first: Option<Vec<Pair>> = None;
            for &simd in SimdLevel::available() {
                for threads in [1, 2] {
                    let pool = &crate::check::broad::pools()[threads - 1];
                    let mut bp = BroadPhase::with_config(BroadConfig {
                        simd,
                        parallel_threshold: 0,
                        ..BroadConfig::default()
                    });
                    let got = pool
                        .install(|| bp.find_pairs_bipartite(&large[..], &small[..]))
                        .unwrap()
                        .to_vec();
                    assert_eq!(bp.probe.masks.is_some(), *masked, "{name}");
                    let mut sorted = got.clone();
                    sorted.sort_unstable();
                    assert_eq!(sorted, want, "{name}, {simd:?}, {threads} threads");
                    assert!(first.get_or_insert(got.clone()) == &got, "{name}: order");
                    // The small set first: the same pairs, turned.
                    let turned = bp.find_pairs_bipartite(&small[..], &large[..]).unwrap();
                    let mut turned: Vec<Pair> =
                        turned.iter().map(|p| Pair::new(p.b, p.a)).collect();
                    turned.sort_unstable();
                    assert_eq!(turned, want, "{name}, small first");
                }
            }
        }
    }
}
