//! Scene queries on a [`BoxStore`]: which boxes touch a region or a point.
//!
//! Each query streams the store's SoA columns eight boxes at a time (the layout the
//! store keeps anyway), so it costs O(N) with a small constant and needs no structure
//! to build or keep in sync: the right tool for a few queries per frame. Results come
//! in dense order (ascending dense index), and filters follow the same rule as the
//! broad phase ([`Filter::pairs_with`]).

use crate::error::Error;
use crate::lanes::{F32W, LANES, MaskW, SimdLevel, SimdTask, dispatch};
use crate::math::Aabb;
use crate::store::{BoxHandle, BoxStore, Filter};
use glam::Vec2;

/// Calls `hit(i)` for every dense index `i` whose box overlaps `region` (closed).
fn scan_region(store: &BoxStore, region: Aabb, level: SimdLevel, mut hit: impl FnMut(usize)) {
    let (x0, y0, x1, y1) = (store.min_x(), store.min_y(), store.max_x(), store.max_y());
    let n = store.len();
    let full = if level == SimdLevel::Scalar {
        0
    } else {
        n / LANES * LANES
    };
    if full > 0 {
        let mut masks = Vec::with_capacity(full / LANES);
        dispatch(
            level,
            RegionScan {
                cols: [&x0[..full], &y0[..full], &x1[..full], &y1[..full]],
                region,
                masks: &mut masks,
            },
        );
        for (c, &m) in masks.iter().enumerate() {
            let mut bits = m;
            while bits != 0 {
                hit(c * LANES + bits.trailing_zeros() as usize);
                bits &= bits - 1;
            }
        }
    }
    for i in full..n {
        let b = Aabb::from_coords(x0[i], y0[i], x1[i], y1[i]);
        if b.overlaps(&region) {
            hit(i);
        }
    }
}

struct RegionScan<'a> {
    cols: [&'a [f32]; 4],
    region: Aabb,
    masks: &'a mut Vec<u32>,
}

impl SimdTask for RegionScan<'_> {
    type Output = ();
    #[inline(always)]
    fn run<W: F32W>(self) {
        let [x0, y0, x1, y1] = self.cols;
        let (rx0, ry0) = (W::splat(self.region.min.x), W::splat(self.region.min.y));
        let (rx1, ry1) = (W::splat(self.region.max.x), W::splat(self.region.max.y));
        for (((a, b), c), d) in x0
            .chunks_exact(LANES)
            .zip(y0.chunks_exact(LANES))
            .zip(x1.chunks_exact(LANES))
            .zip(y1.chunks_exact(LANES))
        {
            let m =
                W::load(a).le(rx1) & W::load(c).ge(rx0) & W::load(b).le(ry1) & W::load(d).ge(ry0);
            self.masks.push(m.bitmask());
        }
    }
}

impl BoxStore {
    /// Appends to `out` the handle of every box that overlaps `region` (closed
    /// intervals: touching counts) and whose filter agrees with `filter`, in dense order.
    ///
    /// ```
    /// use hantei::{Aabb, BoxStore, Filter};
    /// let mut store = BoxStore::new();
    /// let a = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
    /// let _b = store.insert(Aabb::from_coords(5.0, 5.0, 6.0, 6.0))?;
    /// let mut hits = Vec::new();
    /// store.query_region(Aabb::from_coords(1.0, 1.0, 2.0, 2.0), Filter::ALL, &mut hits)?;
    /// assert_eq!(hits, [a]);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidBox`] when `region` is not a valid box (`out` is untouched).
    pub fn query_region(
        &self,
        region: Aabb,
        filter: Filter,
        out: &mut Vec<BoxHandle>,
    ) -> Result<(), Error> {
        self.query_region_with(region, filter, SimdLevel::best(), out)
    }

    /// [`BoxStore::query_region`] with an explicit SIMD level (for tests and benchmarks).
    ///
    /// # Errors
    /// As [`BoxStore::query_region`].
    pub fn query_region_with(
        &self,
        region: Aabb,
        filter: Filter,
        level: SimdLevel,
        out: &mut Vec<BoxHandle>,
    ) -> Result<(), Error> {
        region.check(0)?;
        let (layers, masks, handles) = (self.layers(), self.masks(), self.handles());
        scan_region(self, region, level.supported(), |i| {
            if filter.pairs_with(Filter::new(layers[i], masks[i])) {
                out.push(handles[i]);
            }
        });
        Ok(())
    }

    /// Appends to `out` the handle of every box that contains `point` (boundary
    /// included) and whose filter agrees with `filter`, in dense order.
    ///
    /// # Errors
    /// [`Error::InvalidShape`] when `point` is not finite (`out` is untouched).
    pub fn query_point(
        &self,
        point: Vec2,
        filter: Filter,
        out: &mut Vec<BoxHandle>,
    ) -> Result<(), Error> {
        if !point.is_finite() {
            return Err(Error::InvalidShape {
                index: 0,
                reason: "query point is not finite",
            });
        }
        self.query_region(Aabb::new(point, point), filter, out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;
    use crate::store::BoxProps;

    fn random_store(n: usize, seed: u64) -> BoxStore {
        let mut rng = Rng::new(seed);
        let mut store = BoxStore::new();
        for _ in 0..n {
            let p = Vec2::new(rng.range_f32(0.0, 100.0), rng.range_f32(0.0, 100.0));
            let s = Vec2::new(rng.range_f32(0.0, 10.0), rng.range_f32(0.0, 10.0));
            let filter = Filter::new(1 << rng.below(3), 1 << rng.below(3));
            store
                .insert_with(
                    Aabb::from_min_size(p, s),
                    BoxProps {
                        filter,
                        ..Default::default()
                    },
                )
                .unwrap();
        }
        store
    }

    #[test]
    fn region_queries_match_brute_force_at_every_level() {
        let mut rng = Rng::new(3);
        for n in [0, 1, 7, 8, 9, 100, 1000] {
            let store = random_store(n, n as u64);
            for _ in 0..20 {
                let p = Vec2::new(rng.range_f32(-10.0, 110.0), rng.range_f32(-10.0, 110.0));
                let region = Aabb::from_min_size(
                    p,
                    Vec2::new(rng.range_f32(0.0, 30.0), rng.range_f32(0.0, 30.0)),
                );
                let filter = if rng.below(2) == 0 {
                    Filter::ALL
                } else {
                    Filter::new(1, 2)
                };
                let want: Vec<BoxHandle> = store
                    .iter()
                    .zip(store.layers().iter().zip(store.masks()))
                    .filter(|((_, b), (l, m))| {
                        b.overlaps(&region) && filter.pairs_with(Filter::new(**l, **m))
                    })
                    .map(|((h, _), _)| h)
                    .collect();
                for &level in SimdLevel::available() {
                    let mut got = Vec::new();
                    store
                        .query_region_with(region, filter, level, &mut got)
                        .unwrap();
                    assert_eq!(got, want, "n={n} {level:?}");
                }
            }
        }
    }

    #[test]
    fn point_queries_include_the_boundary() {
        let mut store = BoxStore::new();
        let a = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)).unwrap();
        let b = store.insert(Aabb::from_coords(1.0, 0.0, 2.0, 1.0)).unwrap();
        let mut out = Vec::new();
        store
            .query_point(Vec2::new(1.0, 0.5), Filter::ALL, &mut out)
            .unwrap();
        assert_eq!(out, [a, b]);
        out.clear();
        store
            .query_point(Vec2::new(2.5, 0.5), Filter::ALL, &mut out)
            .unwrap();
        assert!(out.is_empty());
    }

    #[test]
    fn bad_queries_are_typed_errors_and_leave_out_untouched() {
        let store = random_store(10, 1);
        let mut out = vec![];
        assert!(
            store
                .query_point(Vec2::new(f32::NAN, 0.0), Filter::ALL, &mut out)
                .is_err()
        );
        assert!(matches!(
            store.query_region(Aabb::from_coords(1.0, 0.0, 0.0, 1.0), Filter::ALL, &mut out),
            Err(Error::InvalidBox { .. })
        ));
        assert!(out.is_empty());
    }
}
