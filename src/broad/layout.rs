//! Choosing the sweep axis and the bands from the data.
//!
//! A sample of at most [`SAMPLE`] boxes gives the world bounds, the mean extents
//! and, in a [`GRID`]×[`GRID`] histogram of their centres, the *crowding* `ρ`: the
//! expected number of other boxes whose centres fall in a box-sized area around a
//! typical box (0.5 for the uniform generator, tens in clusters). Then:
//!
//! - **sweep axis**: the axis along which the world is longest in units of the mean box
//!   extent (a horizontal strip is swept along x, a vertical one along y);
//! - **band height** `h = h̄ · clamp(√(C/ρ), 2, 64)` along the other axis, `h̄` the mean
//!   extent there. Thin bands cut the sweep window (fewer false candidates); thick bands
//!   cut the copies of boxes that straddle band edges. Minimising `copies·c₀ + window·c₁`
//!   gives `h ∝ h̄/√ρ`; [`CROWDING_SCALE`] = `C` was tuned with the `broad_phase` bench
//!   (≈ 8 h̄ on uniform scenes, ≈ 2 h̄ on dense clusters);
//! - at most [`MAX_BANDS`] bands and on average at least [`MIN_PER_BAND`] boxes a band;
//!
//! A sample is enough: the layout only decides how fast the sweep runs, never what it
//! finds. A box outside the sampled bounds falls in the first or last band or bucket
//! (every index is clamped), and the band and bucket functions stay monotone, which is
//! all that correctness needs. The sample takes one box from each run of `stride`
//! consecutive boxes, at an offset inside the run fixed by a hash of the run's number
//! ([`sample_index`]), so the layout, and with it the order of the pairs, is a function
//! of the boxes alone (never of the thread count or of earlier frames). A plain stride
//! aliased with periodic input: boxes dealt round-robin to 50 clusters, sampled every
//! 25th, showed two clusters only. Validation happens in the first full pass over the
//! boxes (`bands.rs`).

use super::set::BoxSet;
use crate::math::box_defect;

/// At most this many boxes are sampled. 2048 against 8192 (fastest of five interleaved
/// processes, one thread, AMD Zen 5): uniform 100k 1.082 -> 1.011 ms, bullet hell 100k
/// 0.982 -> 0.938, clusters 100k 2.783 -> 2.730, uniform 10k 0.124 -> 0.098, 1M
/// 11.84 -> 11.56; the layouts moved little (uniform 100k: 60 -> 68 bands, clusters
/// 136 -> 132). A sampled box costs more than a scattered one (a likely cache miss,
/// the hash of its position, `f64` sums, two histograms).
pub(crate) const SAMPLE: usize = 2048;
/// How many runs ahead the sampling loop prefetches.
const PREFETCH_RUNS: usize = 16;
/// Histogram side (cells per axis).
pub(crate) const GRID: usize = 32;
/// `C` in `h = h̄ · √(C/ρ)`.
pub(crate) const CROWDING_SCALE: f64 = 32.0;
/// Bands are at least this many mean extents high: thinner ones copy nearly every box
/// into two bands (one horizontal strip of boxes was cut in two at factor 1).
pub(crate) const MIN_FACTOR: f64 = 2.0;
/// Far outliers: at most `1 / OUTLIER_SHARE` of the sample is dropped from the bounds.
/// Up to 1/8: with 1/128, 2% of a uniform 100k scene parked at ±1e30 kept the stretched
/// bounds and took 2.8 s instead of 2.3 ms; a Gaussian cluster trimmed by 1/8 still
/// spans more than [`OUTLIER_SPAN`] of its range, so it keeps its bounds.
pub(crate) const OUTLIER_SHARE: usize = 8;
/// Far outliers: the bounds are narrowed only when the bulk spans less than this share
/// of them.
pub(crate) const OUTLIER_SPAN: f64 = 0.25;
/// Upper bound on the number of bands.
pub(crate) const MAX_BANDS: usize = 1 << 16;
/// Lower bound on the mean number of boxes per band.
pub(crate) const MIN_PER_BAND: usize = 32;

/// What the sample says about the boxes.
#[derive(Debug, Clone)]
pub(crate) struct Stats {
    /// Sampled world bounds.
    pub lo: [f32; 2],
    pub hi: [f32; 2],
    /// Sum of the sampled boxes' extents.
    pub sum_extent: [f64; 2],
    /// Number of valid sampled boxes.
    pub sampled: usize,
    /// Number of boxes in all sets.
    pub count: usize,
    /// Sampled centres, for the crowding histogram.
    pub centres: Vec<[f64; 2]>,
}

impl Stats {
    fn mean_extent(&self, axis: usize) -> f64 {
        if self.sampled == 0 {
            0.0
        } else {
            self.sum_extent[axis] / self.sampled as f64
        }
    }
}

/// The input position that run `j` (boxes `j·stride .. (j + 1)·stride`) samples: a
/// fixed pseudo-random offset inside the run (SplitMix64's mix of `j`, scaled to
/// `stride` by a high multiply). Runs of a plain stride would line up with any period
/// of the input that divides it (boxes dealt round-robin to groups, rings of bullets).
#[inline]
pub(crate) fn sample_index(j: usize, stride: usize) -> usize {
    let mut x = (j as u64).wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    // Below `stride`: `x < 2^64`.
    j * stride + ((u128::from(x) * stride as u128) >> 64) as usize
}

/// Samples one box from each run of `stride` consecutive boxes of the sets (at
/// [`sample_index`]), skipping invalid ones (the full pass reports them); `centres` is a
/// buffer kept by the caller (taken and returned in the stats, so a call per frame
/// allocates nothing).
pub(crate) fn sample(sets: &[BoxSet<'_>], mut centres: Vec<[f64; 2]>) -> Stats {
    let count: usize = sets.iter().map(BoxSet::len).sum();
    let stride = count.div_ceil(SAMPLE).max(1);
    let runs = count.div_ceil(stride);
    centres.clear();
    centres.reserve(runs);
    // Running values in locals, not in `Stats`: the loop's `push` may call out, which
    // kept the struct's fields in memory and made every step wait on the last one's
    // stores (sampling 100k uniform boxes: about 45 -> 40 µs, clusters 80 -> 70).
    let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
    let mut sum_extent = [0.0f64; 2];
    // The set holding input position `k`, and that set's first position.
    let (mut s, mut base) = (0, 0);
    for j in 0..runs {
        let k = sample_index(j, stride);
        if k >= count {
            break; // only the last run can be short
        }
        // Positions grow with `j`, so the set only moves forward.
        while k - base >= sets[s].len() {
            base += sets[s].len();
            s += 1;
        }
        // The hashed offsets defeat the hardware's stride prefetcher: ask for a run
        // well ahead (in this set; one past its end is not worth the bookkeeping).
        sets[s].prefetch(sample_index(j + PREFETCH_RUNS, stride).wrapping_sub(base));
        let [x0, y0, x1, y1] = sets[s].get(k - base);
        if box_defect(x0, y0, x1, y1).is_some() {
            continue;
        }
        lo = [lo[0].min(x0), lo[1].min(y0)];
        hi = [hi[0].max(x1), hi[1].max(y1)];
        let (x0, y0, x1, y1) = (f64::from(x0), f64::from(y0), f64::from(x1), f64::from(y1));
        sum_extent[0] += x1 - x0;
        sum_extent[1] += y1 - y0;
        centres.push([(x0 + x1) * 0.5, (y0 + y1) * 0.5]);
    }
    let mut st = Stats {
        lo,
        hi,
        sum_extent,
        sampled: centres.len(),
        count,
        centres,
    };
    for axis in 0..2 {
        trim_outliers(&mut st, axis);
    }
    st
}

/// Narrows the sampled bounds on `axis` to the bulk of the boxes (see [`bulk_bounds`]).
fn trim_outliers(st: &mut Stats, axis: usize) {
    let centres = || st.centres.iter().map(|c| c[axis]);
    (st.lo[axis], st.hi[axis]) = bulk_bounds(
        (st.lo[axis], st.hi[axis]),
        st.mean_extent(axis),
        st.sampled,
        centres,
    );
}

/// Bounds `(lo, hi)` on one axis of `count` boxes with these `centres`, narrowed to the
/// bulk of the boxes when a few far-away ones (objects parked at 1e30, say) stretch
/// them: a band layout over the whole stretched range put every other box in one band,
/// and one far box in a band made its buckets useless (uniform 100k with a tenth of a
/// percent of its boxes parked far away took 6x as long); the bipartite grid lost its
/// cells the same way.
///
/// A histogram of the centres in [`GRID`] cells between the bounds: cells are dropped
/// from either end while they hold at most `1 / OUTLIER_SHARE` of the boxes in all;
/// when what is left spans under [`OUTLIER_SPAN`] of the range, the bounds become the
/// kept centres' extremes, widened by `pad`, and the step repeats (outliers at several
/// scales take a step each). Other scenes keep their bounds. The result is never wider
/// than the input. Boxes outside it fall in the first or last band, bucket or cell,
/// which costs time only (and a band whose buckets collapse so is sorted exactly: see
/// `BandSoa::order_band`).
pub(crate) fn bulk_bounds<I: Iterator<Item = f64>>(
    (mut lo, mut hi): (f32, f32),
    pad: f64,
    count: usize,
    centres: impl Fn() -> I,
) -> (f32, f32) {
    let budget = count / OUTLIER_SHARE;
    if budget == 0 {
        return (lo, hi);
    }
    for _ in 0..4 {
        let (l, h) = (f64::from(lo), f64::from(hi));
        let span = h - l;
        if !(span > 0.0 && span.is_finite()) {
            break;
        }
        let inv = GRID as f64 / span;
        let cell = |v: f64| grid_cell(v, l, inv);
        let mut hist = [0usize; GRID];
        for c in centres() {
            hist[cell(c)] += 1;
        }
        let (mut a, mut b, mut dropped) = (0, GRID - 1, 0);
        while a < b && dropped + hist[a].min(hist[b]) <= budget {
            dropped += hist[a].min(hist[b]);
            if hist[a] <= hist[b] {
                a += 1;
            } else {
                b -= 1;
            }
        }
        if (b + 1 - a) as f64 > GRID as f64 * OUTLIER_SPAN {
            break;
        }
        let (mut klo, mut khi) = (f64::INFINITY, f64::NEG_INFINITY);
        for c in centres().filter(|&c| (a..=b).contains(&cell(c))) {
            klo = klo.min(c);
            khi = khi.max(c);
        }
        let (nlo, nhi) = ((klo - pad) as f32, (khi + pad) as f32);
        if !(nlo.is_finite() && nhi.is_finite() && nlo <= nhi) {
            break;
        }
        (lo, hi) = (nlo.max(lo), nhi.min(hi));
    }
    (lo, hi)
}

/// The band layout: which axis is swept, and how the other one is cut into bands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Layout {
    /// 0 when sweeping along x (bands along y), 1 when sweeping along y.
    pub sweep_axis: usize,
    /// Band-axis coordinate where band 0 starts.
    pub origin: f32,
    /// `1 / band height`.
    pub inv_height: f32,
    /// Number of bands (at least 1).
    pub bands: u32,
    /// The sampled sweep-axis bounds, far outliers left out: a band's buckets span no
    /// more than this (entries outside fall in its first or last bucket).
    pub sweep_lo: f32,
    pub sweep_hi: f32,
}

impl Layout {
    /// One band, sweeping along x.
    pub(crate) const SINGLE: Layout = Layout {
        sweep_axis: 0,
        origin: 0.0,
        inv_height: 0.0,
        bands: 1,
        sweep_lo: f32::NEG_INFINITY,
        sweep_hi: f32::INFINITY,
    };

    /// The band holding band-axis coordinate `v`. Monotone non-decreasing in `v` (each
    /// step rounds monotonically), which is what makes "report a pair in the first band
    /// both boxes reach" exact.
    #[inline(always)]
    pub(crate) fn band_of(&self, v: f32) -> u32 {
        to_index((v - self.origin) * self.inv_height, self.bands)
    }

    /// `[sweep_min, sweep_max, band_min, band_max]` of box `[x0, y0, x1, y1]`.
    #[inline(always)]
    pub(crate) fn project(&self, b: [f32; 4]) -> [f32; 4] {
        if self.sweep_axis == 0 {
            b
        } else {
            [b[1], b[0], b[3], b[2]]
        }
    }
}

/// A uniform grid's placement over a set of boxes (the bipartite probe's small set,
/// the static grid's statics): their bounds, and the cells, which clamp at both ends.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Cells {
    /// The boxes' bounds: a box outside them meets nothing.
    pub(crate) lo: [f32; 2],
    pub(crate) hi: [f32; 2],
    /// Where the cells start (the bulk's start when far boxes stretch the bounds, see
    /// [`bulk_bounds`]).
    pub(crate) origin: [f32; 2],
    /// Cells per unit.
    pub(crate) inv: [f32; 2],
    pub(crate) dims: [u32; 2],
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
    pub(crate) fn cell(&self, axis: usize, v: f32) -> u32 {
        to_index((v - self.origin[axis]) * self.inv[axis], self.dims[axis])
    }

    /// The cells of box `b`: `[first column, first row, last column, last row]`.
    #[inline(always)]
    pub(crate) fn span(&self, b: &[f32; 4]) -> [u32; 4] {
        [
            self.cell(0, b[0]),
            self.cell(1, b[1]),
            self.cell(0, b[2]),
            self.cell(1, b[3]),
        ]
    }

    /// The cells of box `b` (valid), `None` when it lies outside the boxes' bounds.
    #[inline(always)]
    pub(crate) fn reach(&self, b: &[f32; 4]) -> Option<[u32; 4]> {
        (b[0] <= self.hi[0] && b[2] >= self.lo[0] && b[1] <= self.hi[1] && b[3] >= self.lo[1])
            .then(|| self.span(b))
    }
}

/// `clamp(floor(x), 0, count - 1)` for `count >= 1` (NaN → 0), monotone in `x`.
///
/// The clamp happens in the float domain so that the conversion is one `cvttss2si`
/// instead of Rust's saturating `as` sequence: this runs twice per box per pass.
#[inline(always)]
pub(crate) fn to_index(x: f32, count: u32) -> u32 {
    let count = count.max(1);
    // `max` maps NaN to 0.0; `count - 1 <= 2^31` is exact enough: the clamped value is
    // at most `count - 1` rounded to f32, and `min` with the integer bound below fixes
    // the rounding.
    let clamped = x.max(0.0).min((count - 1) as f32);
    // SAFETY: `clamped` is in `[0, count - 1]` (NaN was mapped to 0), and `count - 1`
    // is below 2^31 (at most MAX_BANDS or the bucket cap), so it is finite and fits i32.
    let i = unsafe { clamped.to_int_unchecked::<i32>() } as u32;
    i.min(count - 1)
}

/// Picks the layout from the sample.
pub(crate) fn choose(st: &Stats) -> Layout {
    let n = st.count;
    if n < 2 * MIN_PER_BAND || st.sampled == 0 {
        return Layout::SINGLE;
    }
    let spread = [
        f64::from(st.hi[0]) - f64::from(st.lo[0]),
        f64::from(st.hi[1]) - f64::from(st.lo[1]),
    ];
    let mean = [st.mean_extent(0), st.mean_extent(1)];
    // Extent floor for degenerate (zero-size) boxes: a fraction of the spacing a uniform
    // scene would have.
    let floor = |axis: usize| (spread[axis] / (n as f64).sqrt() / 4.0).max(f64::MIN_POSITIVE);
    let scale = [mean[0].max(floor(0)), mean[1].max(floor(1))];
    let sweep_axis = usize::from(spread[1] / scale[1] > spread[0] / scale[0]);
    let band_axis = 1 - sweep_axis;
    if spread[band_axis].partial_cmp(&0.0) != Some(core::cmp::Ordering::Greater)
        || !spread[band_axis].is_finite()
    {
        return Layout {
            sweep_axis,
            ..Layout::SINGLE
        };
    }
    let rho = crowding(st, scale).max(1e-6);
    let factor = (CROWDING_SCALE / rho).sqrt().clamp(MIN_FACTOR, 64.0);
    let height = scale[band_axis] * factor;
    let max_bands = (n / MIN_PER_BAND).clamp(1, MAX_BANDS);
    let bands = ((spread[band_axis] / height).ceil() as usize).clamp(1, max_bands);
    let height = spread[band_axis] / bands as f64;
    Layout {
        sweep_axis,
        origin: st.lo[band_axis],
        inv_height: (1.0 / height) as f32,
        bands: bands as u32,
        sweep_lo: st.lo[sweep_axis],
        sweep_hi: st.hi[sweep_axis],
    }
}

/// The [`GRID`] cell of coordinate `v` for a grid starting at `lo` with `inv` cells per
/// unit, clamped in the float domain: one conversion instead of the saturating
/// `as usize` sequence (the crowding histogram of 8192 centres, the sample size then:
/// 33 -> 13 µs).
#[inline(always)]
fn grid_cell(v: f64, lo: f64, inv: f64) -> usize {
    let x = ((v - lo) * inv).max(0.0).min((GRID - 1) as f64);
    // SAFETY: `x` is in `[0, GRID - 1]` (`max` maps NaN to 0), so it fits `i32`.
    unsafe { x.to_int_unchecked::<i32>() as usize }
}

/// Crowding `ρ`: mean over sampled boxes of how many box centres share a box-sized area
/// with them, estimated from a histogram of the sampled centres within the bounds (far
/// outliers left outside by [`bulk_bounds`] would pile up in the edge cells: 5% of the
/// boxes parked at one far point doubled the band count of a uniform scene).
fn crowding(st: &Stats, scale: [f64; 2]) -> f64 {
    let lo = [f64::from(st.lo[0]), f64::from(st.lo[1])];
    let span = [
        (f64::from(st.hi[0]) - lo[0]).max(f64::MIN_POSITIVE),
        (f64::from(st.hi[1]) - lo[1]).max(f64::MIN_POSITIVE),
    ];
    let mut grid = [0u32; GRID * GRID];
    let inv = [GRID as f64 / span[0], GRID as f64 / span[1]];
    // A multiplication instead of a division per centre.
    let cell = |v: f64, axis: usize| grid_cell(v, lo[axis], inv[axis]);
    let hi = [f64::from(st.hi[0]), f64::from(st.hi[1])];
    let mut inside = 0u32;
    for c in &st.centres {
        if (lo[0]..=hi[0]).contains(&c[0]) && (lo[1]..=hi[1]).contains(&c[1]) {
            grid[cell(c[1], 1) * GRID + cell(c[0], 0)] += 1;
            inside += 1;
        }
    }
    let sampled = st.centres.len().max(1) as f64;
    // Σ c² / Σ c: the sample count in the cell of a typical sampled box.
    let sum_sq: f64 = grid.iter().map(|&c| f64::from(c) * f64::from(c)).sum();
    let per_cell = sum_sq / f64::from(inside.max(1));
    let cell_area = (span[0] / GRID as f64) * (span[1] / GRID as f64);
    let box_area = scale[0] * scale[1];
    per_cell * (st.count as f64 / sampled) * (box_area / cell_area)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::Aabb;
    use crate::scene::generate;

    fn layout_of(boxes: &[Aabb]) -> Layout {
        choose(&sample(&[BoxSet::from(boxes)], Vec::new()))
    }

    #[test]
    fn band_of_is_monotone_and_clamped() {
        let l = Layout {
            origin: -3.0,
            inv_height: 0.37,
            bands: 10,
            ..Layout::SINGLE
        };
        let mut prev = 0;
        let mut v = -10.0f32;
        while v < 40.0 {
            let b = l.band_of(v);
            assert!(b >= prev && b < 10);
            prev = b;
            v = v.next_up_compat();
        }
        assert_eq!(l.band_of(f32::NAN), 0);
        assert_eq!(l.band_of(-1e30), 0);
        assert_eq!(l.band_of(1e30), 9);
    }

    trait NextUp {
        fn next_up_compat(self) -> Self;
    }
    impl NextUp for f32 {
        fn next_up_compat(self) -> f32 {
            // Steps of ~1e-3 near the band edges, in whole ulps elsewhere.
            let step = f32::from_bits(self.abs().to_bits().max(0x3a83_126f)) * 1e-3;
            self + step.max(f32::EPSILON)
        }
    }

    #[test]
    fn to_index_clamps_and_floors() {
        assert_eq!(to_index(f32::NAN, 5), 0);
        assert_eq!(to_index(-3.0, 5), 0);
        assert_eq!(to_index(-0.0, 5), 0);
        assert_eq!(to_index(0.999, 5), 0);
        assert_eq!(to_index(1.0, 5), 1);
        assert_eq!(to_index(4.5, 5), 4);
        assert_eq!(to_index(1e30, 5), 4);
        assert_eq!(to_index(f32::INFINITY, 5), 4);
        assert_eq!(to_index(123.0, 1), 0);
        let big = (1u32 << 16) + 7;
        assert_eq!(to_index(1e9, big), big - 1);
    }

    #[test]
    fn axis_follows_the_long_side() {
        assert_eq!(layout_of(&generate::horizontal_line(5000, 1)).sweep_axis, 0);
        assert_eq!(layout_of(&generate::vertical_line(5000, 1)).sweep_axis, 1);
        // One strip is one band or a handful.
        assert!(layout_of(&generate::horizontal_line(5000, 1)).bands <= 2);
    }

    #[test]
    fn dense_scenes_get_thinner_bands_than_sparse_ones() {
        let u = layout_of(&generate::uniform(100_000, 1));
        let c = layout_of(&generate::clusters(100_000, 1));
        let h = |l: Layout| 1.0 / l.inv_height;
        // Uniform: about 8 mean extents; clusters: about 1-3.
        assert!((5.0..12.0).contains(&h(u)), "uniform band height {}", h(u));
        assert!(h(c) < 4.0, "clustered band height {}", h(c));
        assert_eq!(layout_of(&generate::identical(1000)).bands, 1);
    }

    #[test]
    fn sample_positions_cover_every_run_once_in_order() {
        for (count, stride) in [(100_000, 13), (100_000, 25), (7, 1), (1_000_003, 123)] {
            let runs: usize = count / stride + 1;
            let mut prev = None;
            for j in 0..runs {
                let k = sample_index(j, stride);
                assert!((j * stride..(j + 1) * stride).contains(&k), "run {j}: {k}");
                assert!(prev.is_none_or(|p| p < k));
                prev = Some(k);
            }
        }
        // Offsets spread over the run (a plain stride would always give 0).
        let offsets: std::collections::HashSet<usize> =
            (0..1000).map(|j| sample_index(j, 25) - 25 * j).collect();
        assert_eq!(offsets.len(), 25);
    }

    #[test]
    fn periodic_input_does_not_alias_with_the_sample() {
        // Boxes dealt round-robin to far-apart clusters (the `clusters` generator's
        // order). 100k boxes are sampled with a stride of `stride`: with that many
        // clusters, a plain stride would see one cluster only.
        let n: usize = 100_000;
        let stride = n.div_ceil(SAMPLE);
        assert!(stride > 1);
        let boxes: Vec<Aabb> = (0..n)
            .map(|i| {
                let c = (i % stride) as f32;
                let (x, y) = ((c % 5.0) * 100.0, (c / 5.0).floor() * 100.0);
                let d = (i / stride) as f32 * 1e-3;
                Aabb::from_coords(x + d, y + d, x + d + 1.0, y + d + 1.0)
            })
            .collect();
        let st = sample(&[BoxSet::from(&boxes[..])], Vec::new());
        assert!(
            st.lo[0] < 1.0 && st.hi[0] > 400.0,
            "x {} .. {}",
            st.lo[0],
            st.hi[0]
        );
        assert!(
            st.lo[1] < 1.0 && st.hi[1] > 200.0,
            "y {} .. {}",
            st.lo[1],
            st.hi[1]
        );
        // And the benchmark's 50 clusters at half the sample (a stride of 25).
        let seen: std::collections::HashSet<usize> =
            (0..n / 25).map(|j| sample_index(j, 25) % 50).collect();
        assert_eq!(seen.len(), 50, "every cluster is sampled");
    }

    /// `boxes` with every `every`-th box moved to `at` (its size kept).
    fn parked(boxes: &[Aabb], every: usize, at: impl Fn(usize) -> [f32; 2]) -> Vec<Aabb> {
        let mut out = boxes.to_vec();
        for i in (0..out.len()).step_by(every) {
            let [x, y] = at(i);
            out[i] = Aabb::from_min_size(glam::Vec2::new(x, y), out[i].size());
        }
        out
    }

    #[test]
    fn far_outliers_do_not_stretch_the_layout() {
        let clean = generate::uniform(100_000, 3);
        let want = layout_of(&clean);
        assert!(want.bands > 30);
        let side = 450.0;
        type Place = Box<dyn Fn(usize) -> [f32; 2]>;
        let cases: [(&str, Place); 5] = [
            ("x at 1e30", Box::new(|i| [1e30, (i % 450) as f32])),
            ("y at -1e30", Box::new(|i| [(i % 450) as f32, -1e30])),
            ("both at 1e30", Box::new(|_| [1e30, 1e30])),
            (
                "two scales",
                Box::new(|i| {
                    if i % 2000 == 0 {
                        [1e10, 5.0]
                    } else {
                        [5.0, -1e30]
                    }
                }),
            ),
            (
                "near f32::MAX",
                Box::new(|i| [f32::MAX / 2.0, (i % 450) as f32]),
            ),
        ];
        for ((what, at), every) in cases.into_iter().flat_map(|c| {
            // One box in a thousand, then 2%, 5% and 10% of them.
            let at = std::rc::Rc::new(c.1);
            [1000, 50, 20, 10].map(|every| {
                let at = at.clone();
                ((c.0, Box::new(move |i| at(i)) as Place), every)
            })
        }) {
            let what = format!("{what}, one in {every}");
            let got = layout_of(&parked(&clean, every, at));
            // (The uniform world is square, so the sweep axis is a near-tie that the
            // sample may break either way, which costs nothing: the band count and
            // the sweep range below are what far boxes would stretch.)
            let ratio = f64::from(got.bands) / f64::from(want.bands);
            assert!(
                (0.8..1.25).contains(&ratio),
                "{what}: {got:?} against {want:?}"
            );
            assert!(
                got.sweep_lo > -10.0 && got.sweep_hi < side + 10.0,
                "{what}: sweep range {} .. {}",
                got.sweep_lo,
                got.sweep_hi
            );
        }
    }

    #[test]
    fn scenes_without_far_outliers_keep_their_sampled_bounds() {
        for shape in generate::Shape::ALL {
            if shape == generate::Shape::Parked {
                continue; // its far boxes are the outliers
            }
            let boxes = shape.generate(50_000, 9);
            let (mut lo, mut hi) = ([f32::INFINITY; 2], [f32::NEG_INFINITY; 2]);
            let st = sample(&[BoxSet::from(&boxes[..])], Vec::new());
            // The sample's raw bounds, recomputed from the same boxes.
            let stride = boxes.len().div_ceil(SAMPLE);
            for j in 0..boxes.len().div_ceil(stride) {
                if let Some(b) = boxes.get(sample_index(j, stride)) {
                    lo = [lo[0].min(b.min.x), lo[1].min(b.min.y)];
                    hi = [hi[0].max(b.max.x), hi[1].max(b.max.y)];
                }
            }
            assert_eq!((st.lo, st.hi), (lo, hi), "{}", shape.name());
        }
    }

    #[test]
    fn bulk_bounds_drops_only_a_small_far_share() {
        let centres: Vec<f64> = (0..1000).map(|i| f64::from(i) * 0.1).collect();
        let run = |extra: &[f64]| {
            let all: Vec<f64> = centres.iter().chain(extra).copied().collect();
            let (lo, hi) = all
                .iter()
                .fold((f32::INFINITY, f32::NEG_INFINITY), |(l, h), &c| {
                    (l.min(c as f32), h.max(c as f32))
                });
            bulk_bounds((lo, hi), 0.5, all.len(), || all.iter().copied())
        };
        // No outliers: unchanged.
        assert_eq!(run(&[]), (0.0, 99.9));
        // A few far ones (at most 1/8 of the boxes): the bulk, padded.
        let (lo, hi) = run(&[1e30; 7]);
        assert!(
            (-0.5..=0.0).contains(&lo) && (99.9..=100.4).contains(&hi),
            "{lo} {hi}"
        );
        let (lo, hi) = run(&[[1e30; 60], [-1e30; 60]].concat());
        assert!(
            (-0.5..=0.0).contains(&lo) && (99.9..=100.4).contains(&hi),
            "{lo} {hi}"
        );
        let (lo, hi) = run(&[-1e20, -1e20, 3e9, 1e30]);
        assert!(
            (-0.5..=0.0).contains(&lo) && (99.9..=100.4).contains(&hi),
            "{lo} {hi}"
        );
        // Too many far ones to be outliers (a far cluster of 13%): unchanged.
        let many = [1e30; 150];
        assert_eq!(run(&many), (0.0, 1e30));
        // Nothing to narrow.
        assert_eq!(
            bulk_bounds((1.0, 1.0), 0.0, 1000, || [1.0; 1000].into_iter()),
            (1.0, 1.0)
        );
    }

    #[test]
    fn tiny_and_degenerate_inputs_get_one_band() {
        assert_eq!(layout_of(&[]), Layout::SINGLE);
        let points = vec![Aabb::from_coords(1.0, 1.0, 1.0, 1.0); 500];
        assert_eq!(layout_of(&points).bands, 1);
    }
}
