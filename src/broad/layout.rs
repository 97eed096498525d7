//! Choosing the sweep axis and the bands from the data.
//!
//! One pass over the boxes (validating them on the way) gives the world bounds and the
//! mean extents; a strided sample of at most [`SAMPLE`] box centres in a
//! [`GRID`]×[`GRID`] histogram gives the *crowding* `ρ`: the expected number of other
//! boxes whose centres fall in a box-sized area around a typical box (0.5 for the uniform
//! generator, tens in clusters). Then:
//!
//! - **sweep axis**: the axis along which the world is longest in units of the mean box
//!   extent (a horizontal strip is swept along x, a vertical one along y);
//! - **band height** `h = h̄ · clamp(√(C/ρ), 1, 64)` along the other axis, `h̄` the mean
//!   extent there. Thin bands cut the sweep window (fewer false candidates); thick bands
//!   cut the copies of boxes that straddle band edges. Minimising `copies·c₀ + window·c₁`
//!   gives `h ∝ h̄/√ρ`; [`CROWDING_SCALE`] = `C` was tuned with the `broad_phase` bench
//!   (≈ 8 h̄ on uniform scenes, ≈ 2 h̄ on dense clusters);
//! - at most [`MAX_BANDS`] bands and on average at least [`MIN_PER_BAND`] boxes a band.
//!
//! Everything here is a function of the boxes alone (never of the thread count), so
//! the layout, and with it the order of the pairs, is deterministic.

use super::set::BoxSet;
use crate::error::Error;
use crate::math::box_defect;

/// Boxes per validation/statistics chunk (fixed, so f64 sums are order-independent of
/// the thread count).
const STATS_CHUNK: usize = 1 << 14;
/// At most this many boxes are sampled for the crowding histogram.
pub(crate) const SAMPLE: usize = 8192;
/// Histogram side (cells per axis).
pub(crate) const GRID: usize = 32;
/// `C` in `h = h̄ · √(C/ρ)`.
pub(crate) const CROWDING_SCALE: f64 = 32.0;
/// Upper bound on the number of bands.
pub(crate) const MAX_BANDS: usize = 1 << 16;
/// Lower bound on the mean number of boxes per band.
pub(crate) const MIN_PER_BAND: usize = 32;

/// World bounds and extent sums of a set of boxes.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Stats {
    pub lo: [f32; 2],
    pub hi: [f32; 2],
    pub sum_extent: [f64; 2],
    pub count: usize,
}

impl Stats {
    const EMPTY: Stats = Stats {
        lo: [f32::INFINITY; 2],
        hi: [f32::NEG_INFINITY; 2],
        sum_extent: [0.0; 2],
        count: 0,
    };

    fn merge(self, o: Stats) -> Stats {
        Stats {
            lo: [self.lo[0].min(o.lo[0]), self.lo[1].min(o.lo[1])],
            hi: [self.hi[0].max(o.hi[0]), self.hi[1].max(o.hi[1])],
            sum_extent: [
                self.sum_extent[0] + o.sum_extent[0],
                self.sum_extent[1] + o.sum_extent[1],
            ],
            count: self.count + o.count,
        }
    }

    fn mean_extent(&self, axis: usize) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum_extent[axis] / self.count as f64
        }
    }
}

/// Validates a chunk and accumulates its statistics.
fn chunk_stats(set: &BoxSet<'_>, range: core::ops::Range<usize>) -> Result<Stats, Error> {
    let mut s = Stats::EMPTY;
    let mut ext = [0.0f64; 2];
    for i in range {
        let [x0, y0, x1, y1] = set.get(i);
        if let Some(defect) = box_defect(x0, y0, x1, y1) {
            return Err(Error::InvalidBox { index: i, defect });
        }
        s.lo = [s.lo[0].min(x0), s.lo[1].min(y0)];
        s.hi = [s.hi[0].max(x1), s.hi[1].max(y1)];
        ext[0] += f64::from(x1) - f64::from(x0);
        ext[1] += f64::from(y1) - f64::from(y0);
        s.count += 1;
    }
    s.sum_extent = ext;
    Ok(s)
}

/// Validates every box of the sets and returns their joint statistics. The error, if
/// any, names the lowest invalid index of the first set that has one.
pub(crate) fn stats(sets: &[BoxSet<'_>], parallel: bool) -> Result<Stats, Error> {
    let mut total = Stats::EMPTY;
    for set in sets {
        if set.len() > crate::MAX_BOXES {
            return Err(Error::TooManyBoxes {
                requested: set.len(),
            });
        }
        let chunks = set.len().div_ceil(STATS_CHUNK);
        let range = |c: usize| c * STATS_CHUNK..((c + 1) * STATS_CHUNK).min(set.len());
        let parts: Vec<Result<Stats, Error>> = if parallel && chunks > 1 {
            use rayon::prelude::*;
            (0..chunks)
                .into_par_iter()
                .map(|c| chunk_stats(set, range(c)))
                .collect()
        } else {
            (0..chunks).map(|c| chunk_stats(set, range(c))).collect()
        };
        for p in parts {
            total = total.merge(p?);
        }
    }
    Ok(total)
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
}

impl Layout {
    /// One band, sweeping along x.
    pub(crate) const SINGLE: Layout = Layout {
        sweep_axis: 0,
        origin: 0.0,
        inv_height: 0.0,
        bands: 1,
    };

    /// The band holding band-axis coordinate `v`. Monotone non-decreasing in `v` (each
    /// step rounds monotonically), which is what makes "report a pair in the first band
    /// both boxes reach" exact.
    #[inline(always)]
    pub(crate) fn band_of(&self, v: f32) -> u32 {
        let b = ((v - self.origin) * self.inv_height) as u32; // saturating: <0 and NaN → 0
        b.min(self.bands - 1)
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

/// Picks the layout for the boxes of `sets` (already validated, with `stats`).
pub(crate) fn choose(sets: &[BoxSet<'_>], st: &Stats) -> Layout {
    let n = st.count;
    if n < 2 * MIN_PER_BAND {
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
    if !(spread[band_axis] > 0.0) || !spread[band_axis].is_finite() {
        return Layout {
            sweep_axis,
            ..Layout::SINGLE
        };
    }
    let rho = crowding(sets, st, scale).max(1e-6);
    let factor = (CROWDING_SCALE / rho).sqrt().clamp(1.0, 64.0);
    let height = scale[band_axis] * factor;
    let max_bands = (n / MIN_PER_BAND).clamp(1, MAX_BANDS);
    let bands = ((spread[band_axis] / height).ceil() as usize).clamp(1, max_bands);
    let height = spread[band_axis] / bands as f64;
    Layout {
        sweep_axis,
        origin: st.lo[band_axis],
        inv_height: (1.0 / height) as f32,
        bands: bands as u32,
    }
}

/// Crowding `ρ`: mean over sampled boxes of how many box centres share a box-sized area
/// with them, estimated from a histogram of a strided sample.
fn crowding(sets: &[BoxSet<'_>], st: &Stats, scale: [f64; 2]) -> f64 {
    let n = st.count;
    let stride = n.div_ceil(SAMPLE).max(1);
    let lo = [f64::from(st.lo[0]), f64::from(st.lo[1])];
    let span = [
        (f64::from(st.hi[0]) - lo[0]).max(f64::MIN_POSITIVE),
        (f64::from(st.hi[1]) - lo[1]).max(f64::MIN_POSITIVE),
    ];
    let mut grid = vec![0u32; GRID * GRID];
    let mut sampled = 0usize;
    let mut k = 0usize;
    for set in sets {
        while k < set.len() {
            let [x0, y0, x1, y1] = set.get(k);
            let cx = (f64::from(x0) + f64::from(x1)) * 0.5;
            let cy = (f64::from(y0) + f64::from(y1)) * 0.5;
            let gx = (((cx - lo[0]) / span[0]) * GRID as f64) as usize;
            let gy = (((cy - lo[1]) / span[1]) * GRID as f64) as usize;
            grid[gy.min(GRID - 1) * GRID + gx.min(GRID - 1)] += 1;
            sampled += 1;
            k += stride;
        }
        k -= set.len();
    }
    if sampled == 0 {
        return 0.0;
    }
    // Σ c² / Σ c: the sample count in the cell of a typical sampled box.
    let sum_sq: f64 = grid.iter().map(|&c| f64::from(c) * f64::from(c)).sum();
    let per_cell = sum_sq / sampled as f64;
    let cell_area = (span[0] / GRID as f64) * (span[1] / GRID as f64);
    let box_area = scale[0] * scale[1];
    per_cell * (n as f64 / sampled as f64) * (box_area / cell_area)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Aabb;
    use crate::scene::generate;

    fn layout_of(boxes: &[Aabb]) -> Layout {
        let set = BoxSet::from(boxes);
        let st = stats(&[set], false).unwrap();
        choose(&[set], &st)
    }

    #[test]
    fn band_of_is_monotone_and_clamped() {
        let l = Layout {
            sweep_axis: 0,
            origin: -3.0,
            inv_height: 0.37,
            bands: 10,
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
    fn tiny_and_degenerate_inputs_get_one_band() {
        assert_eq!(layout_of(&[]), Layout::SINGLE);
        let points = vec![Aabb::from_coords(1.0, 1.0, 1.0, 1.0); 500];
        assert_eq!(layout_of(&points).bands, 1);
    }
}
