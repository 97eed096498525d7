//! Scene queries on a [`BoxStore`].
//!
//! They find which boxes touch a region or a point, and what a ray or a moving shape
//! hits. Every query answers by the boxes' true shapes, as [`Shape`] describes them. A
//! disc, an oriented rectangle or a capsule is not reported when the query reaches only the
//! corners of its bounds, outside the shape itself.
//!
//! Region and point queries return boxes in dense order. Casts return hits by time of
//! impact, and hits at the same time in dense order. A query's filter follows the broad
//! phase's rule, [`Filter::pairs_with`]. Casts ignore the stored boxes' own motions and
//! take the scene as it stands.
//!
//! # Cost
//! A query needs no structure to build or keep in sync. It streams the store's columns
//! eight boxes at a time through a region test. For a cast, the region is the cast's
//! swept bounds. Then it runs the exact narrow-phase kernel on the few boxes that pass,
//! such as [`cast_point_aabb`] or [`sweep_shapes`]. So a query costs O(N) with a small
//! constant. That makes it the right tool for a few queries per frame.

use crate::error::Error;
use crate::lanes::{F32W, LANES, MaskW, SimdLevel, SimdTask, dispatch};
use crate::math::{Aabb, MAX_COORDINATE, Ray, Shape, within_limit};
use crate::narrow::SweepStatus;
use crate::narrow::scalar::{
    cast_point_aabb, overlap_aabb_circle, sweep_aabb_circle, sweep_aabb_obb2, sweep_capsule_aabb,
    sweep_shapes,
};
use crate::store::{BoxHandle, BoxStore, Filter};
use glam::Vec2;

/// A box that a ray or a moving shape meets.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CastHit {
    /// The box.
    pub handle: BoxHandle,
    /// When the cast meets the box, as a fraction of the cast's motion. It is `0` when
    /// the cast starts touching the box or inside it.
    pub t: f32,
    /// The normal of the face hit, pointing back toward the caster. It is zero when the
    /// status is [`SweepStatus::Overlapping`].
    ///
    /// Against an axis-aligned box, both components are set at an exact corner hit.
    pub normal: Vec2,
    /// [`SweepStatus::Hit`] when the cast moves into the box, even from touching at
    /// `t = 0`. [`SweepStatus::Overlapping`] when the cast starts inside the box, or
    /// starts touching it without moving into it.
    pub status: SweepStatus,
}

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
    /// Appends to `out` the handle of every box that overlaps `region` and whose filter
    /// agrees with `filter`. The handles come in dense order.
    ///
    /// The test is closed, so a box that only touches `region` counts.
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
    /// A region may reach beyond [`MAX_COORDINATE`]. No shape lies there, so the part
    /// beyond adds nothing.
    ///
    /// # Errors
    /// [`Error::InvalidBox`] when `region` is not a valid box. `out` is untouched then.
    pub fn query_region(
        &self,
        region: Aabb,
        filter: Filter,
        out: &mut Vec<BoxHandle>,
    ) -> Result<(), Error> {
        self.query_region_with(region, filter, SimdLevel::best(), out)
    }

    /// [`BoxStore::query_region`] with a given SIMD level, for tests and benchmarks.
    ///
    /// # Errors
    /// The errors of [`BoxStore::query_region`].
    pub fn query_region_with(
        &self,
        region: Aabb,
        filter: Filter,
        level: SimdLevel,
        out: &mut Vec<BoxHandle>,
    ) -> Result<(), Error> {
        region.check(0)?;
        // Every shape lies within the limit: clip the region to it. The exact tests
        // below then work on sizes they cannot overflow.
        let limit = Vec2::splat(MAX_COORDINATE);
        let region = Aabb::new(region.min.max(-limit), region.max.min(limit));
        if region.validate().is_err() {
            return Ok(());
        }
        let (layers, masks, handles) = (self.layers(), self.masks(), self.handles());
        scan_region(self, region, level.supported(), |i| {
            if filter.pairs_with(Filter::new(layers[i], masks[i])) && self.shape_touches(i, &region)
            {
                out.push(handles[i]);
            }
        });
        Ok(())
    }

    /// Whether the shape of the box at dense index `i`, whose bounds overlap `region`,
    /// overlaps it too (closed): a plain box does; a disc by the closest point of the
    /// region; a rectangle by the separating axes of both (a still sweep).
    ///
    /// The exact tests see only the part of `region` within the shape's bounds. The
    /// shape lies inside its bounds, so the answer is the same. A rectangle's test
    /// works from centres and half sizes, and a region much larger than the shape
    /// would round them at the region's scale: a thin rectangle near the edge of a
    /// world-sized region was missed.
    fn shape_touches(&self, i: usize, region: &Aabb) -> bool {
        let Some(shape) = self.shape_at(i) else {
            return true;
        };
        let b = shape.bounds();
        let near = Aabb::new(region.min.max(b.min), region.max.min(b.max));
        match shape {
            Shape::Aabb(_) => true,
            Shape::Circle(c) => overlap_aabb_circle(&near, &c),
            Shape::Obb2(o) => {
                sweep_aabb_obb2(&near, Vec2::ZERO, &o, Vec2::ZERO).status != SweepStatus::Miss
            }
            Shape::Capsule(c) => {
                sweep_capsule_aabb(&c, Vec2::ZERO, &near, Vec2::ZERO).status != SweepStatus::Miss
            }
        }
    }

    /// Appends to `out` the handle of every box that contains `point` and whose filter
    /// agrees with `filter`. The handles come in dense order.
    ///
    /// A point on a box's boundary is inside the box. A point beyond [`MAX_COORDINATE`]
    /// finds nothing.
    ///
    /// # Errors
    /// [`Error::InvalidShape`] when `point` is not finite. `out` is untouched then.
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

impl BoxStore {
    /// Appends to `out` every box that a moving point meets, sorted by `t`, then by
    /// dense order.
    ///
    /// The point moves along the segment from `ray.origin` to `ray.origin + ray.motion`,
    /// both ends included. It meets a box that it starts inside at `t = 0`, with status
    /// [`SweepStatus::Overlapping`]. A point that starts on a box's boundary meets the
    /// box at `t = 0` too.
    ///
    /// ```
    /// use hantei::{Aabb, BoxStore, Filter, Ray};
    /// use glam::Vec2;
    /// let mut store = BoxStore::new();
    /// let near = store.insert(Aabb::from_coords(4.0, -1.0, 5.0, 1.0))?;
    /// let far = store.insert(Aabb::from_coords(8.0, -1.0, 9.0, 1.0))?;
    /// let ray = Ray::new(Vec2::ZERO, Vec2::new(10.0, 0.0));
    /// let first = store.ray_cast(ray, Filter::ALL)?.unwrap();
    /// assert_eq!((first.handle, first.t, first.normal), (near, 0.4, Vec2::new(-1.0, 0.0)));
    /// let mut all = Vec::new();
    /// store.ray_cast_all(ray, Filter::ALL, &mut all)?;
    /// assert_eq!(all.iter().map(|h| h.handle).collect::<Vec<_>>(), [near, far]);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// - [`Error::InvalidShape`] when the ray is not finite.
    /// - [`Error::OutOfRange`] when its start or its end lies beyond [`MAX_COORDINATE`].
    ///
    /// `out` is untouched after an error.
    pub fn ray_cast_all(
        &self,
        ray: Ray,
        filter: Filter,
        out: &mut Vec<CastHit>,
    ) -> Result<(), Error> {
        if ray.validate().is_err() {
            return Err(Error::InvalidShape {
                index: 0,
                reason: "ray is not finite",
            });
        }
        let region = Aabb::new(ray.origin, ray.origin).swept(ray.motion);
        check_cast(&region)?;
        let start = out.len();
        self.cast_candidates(
            region,
            filter,
            |i, shape| {
                let s = match shape {
                    Shape::Aabb(b) => cast_point_aabb(&ray, &b),
                    // A point is a disc of radius 0, or a box of size 0.
                    Shape::Circle(c) => {
                        let point = Aabb::new(ray.origin, ray.origin);
                        sweep_aabb_circle(&point, ray.motion, &c, Vec2::ZERO)
                    }
                    Shape::Obb2(o) => {
                        let point = Aabb::new(ray.origin, ray.origin);
                        sweep_aabb_obb2(&point, ray.motion, &o, Vec2::ZERO)
                    }
                    Shape::Capsule(c) => {
                        let point = Shape::Aabb(Aabb::new(ray.origin, ray.origin));
                        sweep_shapes(&point, ray.motion, &Shape::Capsule(c), Vec2::ZERO)
                    }
                };
                (s.status != SweepStatus::Miss).then_some((i, s))
            },
            out,
        );
        sort_hits(&mut out[start..]);
        Ok(())
    }

    /// The first box that a moving point meets, or `None`. See
    /// [`BoxStore::ray_cast_all`].
    ///
    /// # Errors
    /// The errors of [`BoxStore::ray_cast_all`].
    pub fn ray_cast(&self, ray: Ray, filter: Filter) -> Result<Option<CastHit>, Error> {
        let mut all = Vec::new();
        self.ray_cast_all(ray, filter, &mut all)?;
        Ok(all.first().copied())
    }

    /// The first box that `shape` meets as it moves by `motion`, or `None`.
    ///
    /// `shape` can be an axis-aligned box, a disc, an oriented rectangle or a capsule.
    /// The cast
    /// tests it against the stored shapes with [`sweep_shapes`]. The test is closed, so
    /// touching counts, and nothing tunnels at any speed.
    ///
    /// A shape that starts inside a box meets it at `t = 0` with status
    /// [`SweepStatus::Overlapping`]. A shape that starts touching a box and moves into
    /// it hits it at `t = 0`.
    ///
    /// ```
    /// use hantei::{Aabb, BoxStore, Filter};
    /// use hantei::narrow::SweepStatus;
    /// use glam::Vec2;
    /// let mut store = BoxStore::new();
    /// let wall = store.insert(Aabb::from_coords(10.0, -5.0, 11.0, 5.0))?;
    /// let player = Aabb::from_coords(0.0, 0.0, 2.0, 2.0);
    /// let hit = store.shape_cast(player, Vec2::new(100.0, 0.0), Filter::ALL)?.unwrap();
    /// assert_eq!((hit.handle, hit.t), (wall, 0.08)); // flush after 8 of 100 units
    ///
    /// // Flush against the wall and moving into it: a hit at once.
    /// let flush = Aabb::from_coords(8.0, 0.0, 10.0, 2.0);
    /// let hit = store.shape_cast(flush, Vec2::new(1.0, 0.0), Filter::ALL)?.unwrap();
    /// assert_eq!((hit.status, hit.t), (SweepStatus::Hit, 0.0));
    /// // Flush and moving along it: it only touches.
    /// let hit = store.shape_cast(flush, Vec2::new(0.0, 1.0), Filter::ALL)?.unwrap();
    /// assert_eq!(hit.status, SweepStatus::Overlapping);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// - [`Error::InvalidBox`] or [`Error::InvalidShape`] for an invalid `shape`, as
    ///   [`Shape::validate`] finds it.
    /// - [`Error::InvalidMotion`] when `motion` is NaN or infinite.
    /// - [`Error::OutOfRange`] when the shape, where it starts or where it ends, lies
    ///   beyond [`MAX_COORDINATE`].
    pub fn shape_cast(
        &self,
        shape: impl Into<Shape>,
        motion: Vec2,
        filter: Filter,
    ) -> Result<Option<CastHit>, Error> {
        let shape = shape.into();
        shape.check(0)?;
        if !motion.is_finite() {
            return Err(Error::InvalidMotion { index: 0 });
        }
        let region = shape.bounds().swept(motion);
        check_cast(&region)?;
        let mut hits = Vec::new();
        self.cast_candidates(
            region,
            filter,
            |i, stored| {
                let s = sweep_shapes(&shape, motion, &stored, Vec2::ZERO);
                (s.status != SweepStatus::Miss).then_some((i, s))
            },
            &mut hits,
        );
        sort_hits(&mut hits);
        Ok(hits.first().copied())
    }

    /// Runs `test` on every box overlapping `region` whose filter agrees, appending its
    /// hits.
    fn cast_candidates(
        &self,
        region: Aabb,
        filter: Filter,
        mut test: impl FnMut(usize, Shape) -> Option<(usize, crate::narrow::Sweep)>,
        out: &mut Vec<CastHit>,
    ) {
        let (layers, masks, handles) = (self.layers(), self.masks(), self.handles());
        scan_region(self, region, SimdLevel::best(), |i| {
            if !filter.pairs_with(Filter::new(layers[i], masks[i])) {
                return;
            }
            let shape = self.shape_at(i).expect("dense index in range");
            if let Some((i, s)) = test(i, shape) {
                out.push(CastHit {
                    handle: handles[i],
                    t: s.t,
                    normal: s.normal,
                    status: s.status,
                });
            }
        });
    }
}

/// `Err(OutOfRange)` unless a cast's swept bounds lie within [`MAX_COORDINATE`].
fn check_cast(region: &Aabb) -> Result<(), Error> {
    if within_limit(region) {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            handle: None,
            index: 0,
            limit: MAX_COORDINATE,
        })
    }
}

/// By time of impact; hits are pushed in dense order, and the sort is stable.
fn sort_hits(hits: &mut [CastHit]) {
    hits.sort_by(|a, b| a.t.total_cmp(&b.t));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::narrow::scalar::sweep_aabb_aabb;
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
    fn casts_match_brute_force() {
        let store = random_store(2000, 9);
        let mut rng = Rng::new(10);
        for _ in 0..200 {
            let origin = Vec2::new(rng.range_f32(-10.0, 110.0), rng.range_f32(-10.0, 110.0));
            let motion = Vec2::new(rng.range_f32(-60.0, 60.0), rng.range_f32(-60.0, 60.0));
            let ray = Ray::new(origin, motion);
            let filter = if rng.below(2) == 0 {
                Filter::ALL
            } else {
                Filter::new(1, 2)
            };
            let agrees =
                |i: usize| filter.pairs_with(Filter::new(store.layers()[i], store.masks()[i]));
            let mut want: Vec<CastHit> = (0..store.len())
                .filter(|&i| agrees(i))
                .filter_map(|i| {
                    let s = cast_point_aabb(&ray, &store.aabb_at(i).unwrap());
                    (s.status != SweepStatus::Miss).then(|| CastHit {
                        handle: store.handles()[i],
                        t: s.t,
                        normal: s.normal,
                        status: s.status,
                    })
                })
                .collect();
            want.sort_by(|a, b| a.t.total_cmp(&b.t));
            let mut got = Vec::new();
            store.ray_cast_all(ray, filter, &mut got).unwrap();
            assert_eq!(got, want);
            assert_eq!(store.ray_cast(ray, filter).unwrap(), want.first().copied());
            // Shape casts: a small box along the same path.
            let shape = Aabb::from_center_half_extents(origin, Vec2::new(1.5, 0.5));
            let mut want: Vec<CastHit> = (0..store.len())
                .filter(|&i| agrees(i))
                .filter_map(|i| {
                    let s = sweep_aabb_aabb(&shape, motion, &store.aabb_at(i).unwrap(), Vec2::ZERO);
                    (s.status != SweepStatus::Miss).then(|| CastHit {
                        handle: store.handles()[i],
                        t: s.t,
                        normal: s.normal,
                        status: s.status,
                    })
                })
                .collect();
            want.sort_by(|a, b| a.t.total_cmp(&b.t));
            assert_eq!(
                store.shape_cast(shape, motion, filter).unwrap(),
                want.first().copied()
            );
        }
    }

    #[test]
    fn casts_reach_the_limit_and_no_further() {
        let l = MAX_COORDINATE;
        let mut store = BoxStore::new();
        let h = store
            .insert(Aabb::from_coords(0.9 * l, -1.0, l, 1.0))
            .unwrap();
        // From one end of the world to the other: a hit near the far end.
        let across = Ray::new(Vec2::new(-l, 0.0), Vec2::new(2.0 * l, 0.0));
        let hit = store.ray_cast(across, Filter::ALL).unwrap().unwrap();
        assert_eq!((hit.handle, hit.t), (h, 0.95));
        let body = Aabb::from_coords(-l, 0.0, -l + 1.0, 0.5);
        let hit = store
            .shape_cast(body, Vec2::new(2.0 * l - 1.0, 0.0), Filter::ALL)
            .unwrap()
            .unwrap();
        assert_eq!(hit.handle, h);
        // A cast that would leave the world is refused.
        let beyond = Ray::new(Vec2::new(-l, 0.0), Vec2::new(2.1 * l, 0.0));
        assert!(matches!(
            store.ray_cast(beyond, Filter::ALL),
            Err(Error::OutOfRange { handle: None, .. })
        ));
        assert!(matches!(
            store.shape_cast(body, Vec2::new(0.0, 3.0 * l), Filter::ALL),
            Err(Error::OutOfRange { handle: None, .. })
        ));
    }

    #[test]
    fn casts_start_inside_and_reject_bad_input() {
        let mut store = BoxStore::new();
        let h = store.insert(Aabb::from_coords(0.0, 0.0, 4.0, 4.0)).unwrap();
        let inside = store
            .ray_cast(Ray::new(Vec2::splat(2.0), Vec2::X), Filter::ALL)
            .unwrap()
            .unwrap();
        assert_eq!(
            (inside.handle, inside.t, inside.status),
            (h, 0.0, SweepStatus::Overlapping)
        );
        let touching = store
            .shape_cast(Aabb::from_coords(4.0, 0.0, 5.0, 1.0), Vec2::X, Filter::ALL)
            .unwrap()
            .unwrap();
        assert_eq!(touching.t, 0.0);
        let mut out = Vec::new();
        assert!(
            store
                .ray_cast_all(Ray::new(Vec2::NAN, Vec2::X), Filter::ALL, &mut out)
                .is_err()
        );
        assert!(out.is_empty());
        assert!(matches!(
            store.shape_cast(Aabb::from_coords(1.0, 0.0, 0.0, 1.0), Vec2::X, Filter::ALL),
            Err(Error::InvalidBox { .. })
        ));
        assert_eq!(
            store.shape_cast(Aabb::default(), Vec2::new(f32::INFINITY, 0.0), Filter::ALL),
            Err(Error::InvalidMotion { index: 0 })
        );
        // Filters apply to casts too.
        assert!(
            store
                .ray_cast(Ray::new(Vec2::splat(2.0), Vec2::X), Filter::new(1, 0))
                .unwrap()
                .is_none()
        );
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
