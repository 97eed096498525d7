//! The sweep against the brute-force oracle on every scene shape, every SIMD level and
//! several thread counts; the order contract; bad input.

use super::*;
use crate::error::BoxDefect;
use crate::math::Aabb;
use crate::rng::Rng;
use crate::scene::generate::{self, Shape};
use crate::store::{BoxStore, Filter};
use glam::Vec2;

fn sorted(p: &[Pair]) -> Vec<Pair> {
    let mut v = p.to_vec();
    v.sort_unstable();
    v
}

fn broad(level: SimdLevel, parallel: bool) -> BroadPhase {
    broad_with(level, parallel, BandOrder::Buckets)
}

fn broad_with(level: SimdLevel, parallel: bool, order: BandOrder) -> BroadPhase {
    BroadPhase::with_config(BroadConfig {
        simd: level,
        parallel,
        parallel_threshold: 0,
        order,
    })
}

const ORDERS: [BandOrder; 3] = [BandOrder::Buckets, BandOrder::Radix, BandOrder::Comparison];

/// The band orders and thread counts [`check_all`] runs. Under Miri (`.ci/miri`, which
/// runs a few of these tests for the `unsafe` code they reach, at a thousandth of the
/// speed) the default order only (the others hold no `unsafe` code and no lanes), on one
/// thread and on two (enough for the parallel scatter and join).
const CHECKED_ORDERS: &[BandOrder] = if cfg!(miri) {
    &[BandOrder::Buckets]
} else {
    &ORDERS
};
const THREADS: &[usize] = if cfg!(miri) { &[1, 2] } else { &[1, 2, 4] };

fn pool(threads: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap()
}

/// Runs every band order × level × thread count; checks that all match `want` as sets
/// and that, for each band order, every level and thread count gives the same order.
fn check_all(set: BoxSet<'_>, want: &[Pair], what: &str) {
    for &order in CHECKED_ORDERS {
        let mut reference: Option<Vec<Pair>> = None;
        for &level in SimdLevel::available() {
            for &threads in THREADS {
                let got = pool(threads).install(|| {
                    broad_with(level, threads > 1, order)
                        .find_pairs(set)
                        .unwrap()
                        .to_vec()
                });
                assert_eq!(
                    sorted(&got),
                    want,
                    "{what}: {order:?} {level:?} × {threads} threads"
                );
                assert!(got.iter().all(|p| p.a < p.b), "{what}: a < b");
                match &reference {
                    None => reference = Some(got),
                    Some(r) => assert!(
                        r == &got,
                        "{what}: order differs at {order:?} {level:?} × {threads}"
                    ),
                }
            }
        }
    }
}

#[test]
fn every_shape_matches_brute_force() {
    for shape in Shape::ALL {
        for (n, seed) in [(0, 0), (1, 1), (2, 2), (31, 3), (700, 4), (3000, 5)] {
            let n = if shape == Shape::Identical {
                n.min(700)
            } else {
                n
            };
            let boxes = shape.generate(n, seed);
            let want = brute_force_pairs(&boxes).unwrap();
            check_all(
                BoxSet::from(&boxes),
                &want,
                &format!("{} n={n}", shape.name()),
            );
        }
    }
}

#[test]
fn large_scenes_match_brute_force() {
    // Enough boxes for many bands and several chunks per thread.
    for shape in [
        Shape::Uniform,
        Shape::BulletHell,
        Shape::Clusters,
        Shape::HugeAndTiny,
    ] {
        let boxes = shape.generate(20_000, 77);
        let want = brute_force_pairs(&boxes).unwrap();
        let mut bp = broad(SimdLevel::best(), true);
        let got = pool(3).install(|| bp.find_pairs(&boxes).unwrap().to_vec());
        assert!(
            bp.last_band_count() > 1 || shape == Shape::HugeAndTiny,
            "{shape:?}"
        );
        assert_eq!(sorted(&got), want, "{}", shape.name());
    }
}

/// A uniform scene with a few boxes parked far away (overlapping each other in
/// places), and boxes reaching from the bulk out to them.
fn parked_scene(n: usize, seed: u64) -> Vec<Aabb> {
    let mut boxes = generate::uniform(n, seed);
    let far = [1e30, -1e30, 1e12, f32::MAX / 4.0];
    for (k, i) in (0..n).step_by(300).enumerate() {
        let f = far[k % far.len()];
        let at = match k % 3 {
            0 => Vec2::new(f, boxes[i].min.y),
            1 => Vec2::new(boxes[i].min.x, f),
            _ => Vec2::splat(f),
        };
        boxes[i] = Aabb::from_min_size(at, Vec2::new(1.0, 1.0 + (k % 2) as f32));
    }
    // From the bulk to the far boxes on x, on y, and both.
    let mid = boxes[n / 2].min;
    boxes[1] = Aabb::from_coords(mid.x, mid.y, 1e30, mid.y + 1.0);
    boxes[2] = Aabb::from_coords(mid.x, -1e30, mid.x + 1.0, mid.y);
    boxes[3] = Aabb::from_coords(-1e30, -1e30, 1e30, 1e30);
    boxes
}

#[test]
fn far_parked_boxes_match_brute_force() {
    for (n, seed) in [(700, 1), (3000, 2)] {
        let boxes = parked_scene(n, seed);
        let want = brute_force_pairs(&boxes).unwrap();
        check_all(BoxSet::from(&boxes), &want, &format!("parked n={n}"));
    }
    let boxes = parked_scene(40_000, 3);
    let want = brute_force_pairs(&boxes).unwrap();
    let mut bp = broad(SimdLevel::best(), true);
    let got = pool(3).install(|| bp.find_pairs(&boxes).unwrap().to_vec());
    assert_eq!(sorted(&got), want);
    // The far boxes leave the layout as it was without them (stretched bounds had
    // given as many bands as allowed, with the bulk in the first).
    let parked = bp.last_band_count();
    bp.find_pairs(&generate::uniform(40_000, 3)).unwrap();
    let clean = bp.last_band_count();
    assert!(
        parked.abs_diff(clean) * 5 <= clean,
        "{parked} bands against {clean}"
    );
}

/// `uniform(n)` with every `every`-th box moved to a distinct far-away point: spread
/// along the far lines x = 1e30 and y = -1e30 (`corner` false), or all in the far
/// corner, at points that do not touch (`corner` true).
fn many_parked_scene(n: usize, every: usize, corner: bool) -> Vec<Aabb> {
    let mut boxes = generate::uniform(n, 5);
    for (k, b) in boxes.iter_mut().enumerate().step_by(every) {
        let along = (k % 150) as f32;
        let (x, y) = if corner {
            (
                1e30 * (1.0 + k as f32 * 1e-6),
                1e30 * (1.0 + (k % 977) as f32 * 1e-5),
            )
        } else if (k / every).is_multiple_of(2) {
            (1e30, along)
        } else {
            (along, -1e30)
        };
        *b = Aabb::from_coords(x, y, x + 1.0, y + 1.0);
    }
    boxes
}

#[test]
fn many_far_boxes_match_brute_force_and_keep_the_bulk_layout() {
    let n = 12_000;
    let clean = {
        let mut bp = broad(SimdLevel::best(), false);
        bp.find_pairs(&generate::uniform(n, 5)).unwrap();
        bp.last_band_count()
    };
    // 2%, 8% and 12.5% of the boxes parked far away: the bulk keeps its bands (before,
    // more than 1/128 of them put the bulk in one band, and 2% of 100k took 2.8 s
    // instead of 2.3 ms). 10% and 30% in one far corner: the first is narrowed away,
    // the second is not (too many to be outliers); neither collapses a band's buckets.
    for (every, corner) in [(50, false), (12, false), (8, false), (10, true), (3, true)] {
        let boxes = many_parked_scene(n, every, corner);
        let want = brute_force_pairs(&boxes).unwrap();
        let what = format!("one in {every} parked, corner {corner}");
        check_all(BoxSet::from(&boxes), &want, &what);
        let mut bp = broad(SimdLevel::best(), false);
        bp.find_pairs(&boxes).unwrap();
        if !(corner && every == 3) {
            let parked = bp.last_band_count();
            assert!(
                parked.abs_diff(clean) * 4 <= clean,
                "{what}: {parked} bands against {clean}"
            );
        }
    }
}

#[test]
fn bipartite_grid_with_far_parked_targets_matches_brute_force() {
    let bullets = parked_scene(20_000, 4);
    // Targets spread thinly over the bullets' field (dense ones take the banded sweep),
    // a few of them parked far away or reaching out there on one axis. (Not the box
    // covering everything: over the whole grid it alone is more than 1% of the area.)
    let side = (2.0f32 * 20_000.0).sqrt();
    let targets: Vec<Aabb> = parked_scene(1000, 5)
        .iter()
        .enumerate()
        .map(|(k, b)| {
            if k == 1 || k == 2 || k % 300 == 0 {
                *b
            } else {
                let c = Vec2::new(
                    (k as f32 * 0.618_034).fract(),
                    (k as f32 * 0.414_213).fract(),
                );
                Aabb::from_center_half_extents(c * side, Vec2::splat(0.2))
            }
        })
        .collect();
    for (a, b) in [(&bullets, &targets), (&targets, &bullets)] {
        let want = brute_force_bipartite(a, b).unwrap();
        for &level in SimdLevel::available() {
            let mut bp = broad(level, false);
            let got = sorted(bp.find_pairs_bipartite(a, b).unwrap());
            assert!(bp.last_stats().grid);
            assert_eq!(got, want, "{level:?}");
        }
    }
}

#[test]
fn chunks_large_enough_to_prefetch_agree_with_the_scalar_path() {
    // One chunk above the prefetching size (one thread), and two below it.
    let boxes = generate::uniform(300_000, 21);
    let want = broad(SimdLevel::Scalar, false)
        .find_pairs(&boxes)
        .unwrap()
        .to_vec();
    assert!(want.len() > 250_000);
    for &level in SimdLevel::available() {
        for threads in [1, 2] {
            let got = pool(threads).install(|| {
                broad(level, threads > 1)
                    .find_pairs(&boxes)
                    .unwrap()
                    .to_vec()
            });
            assert!(got == want, "{level:?} × {threads}");
        }
    }
}

/// Boxes on a lattice so that edges and corners touch exactly, plus zero-size boxes
/// (points and segments) on the edges, and boxes spanning many bands.
fn touching_scene(rng: &mut Rng) -> Vec<Aabb> {
    let mut v = Vec::new();
    for i in 0..40 {
        for j in 0..40 {
            let (x, y) = (i as f32, j as f32);
            match rng.below(4) {
                0 => v.push(Aabb::from_coords(x, y, x + 1.0, y + 1.0)),
                1 => v.push(Aabb::from_coords(x, y, x, y)), // a lattice point
                2 => v.push(Aabb::from_coords(x, y, x + 1.0, y)), // a horizontal edge
                _ => {}
            }
        }
    }
    for k in 0..5 {
        // Tall boxes spanning every band, and wide ones.
        let x = rng.below(40) as f32;
        v.push(Aabb::from_coords(x, 0.0, x + 0.5, 40.0));
        v.push(Aabb::from_coords(
            0.0,
            k as f32 * 8.0,
            40.0,
            k as f32 * 8.0 + 0.25,
        ));
    }
    v
}

#[test]
fn touching_zero_size_and_band_spanning_boxes() {
    let mut rng = Rng::new(5);
    for round in 0..4 {
        let boxes = touching_scene(&mut rng);
        let want = brute_force_pairs(&boxes).unwrap();
        check_all(BoxSet::from(&boxes), &want, &format!("lattice {round}"));
    }
}

#[test]
fn huge_coordinates_and_mixed_scales() {
    let mut rng = Rng::new(6);
    let mut boxes = Vec::new();
    for _ in 0..2000 {
        let c = Vec2::new(rng.range_f32(-1e30, 1e30), rng.range_f32(-1e6, 1e6));
        let h = Vec2::new(rng.range_f32(0.0, 1e29), rng.range_f32(0.0, 1e5));
        boxes.push(Aabb::from_center_half_extents(c, h));
    }
    boxes.push(Aabb::from_coords(-3e38, -3e38, 3e38, 3e38)); // covers everything
    boxes.push(Aabb::from_coords(f32::MAX, f32::MAX, f32::MAX, f32::MAX));
    let want = brute_force_pairs(&boxes).unwrap();
    check_all(BoxSet::from(&boxes), &want, "huge coordinates");
}

fn random_filters(n: usize, rng: &mut Rng) -> Vec<Filter> {
    (0..n)
        .map(|_| {
            Filter::new(
                1 << rng.below(3),
                rng.next_u64() as u32 | (1 << rng.below(3)),
            )
        })
        .collect()
}

#[test]
fn filters_match_brute_force() {
    let mut rng = Rng::new(8);
    // Under Miri: one shape, with bands enough for parallel work items.
    let shapes: &[Shape] = if cfg!(miri) {
        &[Shape::Uniform]
    } else {
        &[Shape::Uniform, Shape::Clusters, Shape::Identical]
    };
    for &shape in shapes {
        let boxes = shape.generate(if cfg!(miri) { 100 } else { 1500 }, 9);
        let filters = random_filters(boxes.len(), &mut rng);
        let set = BoxSet::from(&boxes).with_filters(&filters).unwrap();
        let want = brute_force_pairs(set).unwrap();
        assert!(want.len() < brute_force_pairs(&boxes).unwrap().len());
        if cfg!(miri) {
            // Still several bands, so several work items to join in parallel.
            let mut bp = broad(SimdLevel::best(), false);
            bp.find_pairs(set).unwrap();
            assert!(bp.last_band_count() > 1, "{shape:?}: one band");
        }
        check_all(set, &want, &format!("filtered {}", shape.name()));
    }
    // Bullets never pair with bullets; everything else does.
    let boxes = generate::identical(50);
    let f: Vec<Filter> = (0..50)
        .map(|i| {
            if i < 40 {
                Filter::new(1, 2)
            } else {
                Filter::new(2, 3)
            }
        })
        .collect();
    let got = BroadPhase::new()
        .find_pairs(BoxSet::from(&boxes).with_filters(&f).unwrap())
        .unwrap()
        .len();
    assert_eq!(got, 40 * 10 + 10 * 9 / 2);
}

#[test]
fn bipartite_matches_brute_force_and_never_pairs_within_a_set() {
    let mut rng = Rng::new(10);
    for (na, nb, shape) in [
        (3000, 50, Shape::BulletHell),
        (2000, 2000, Shape::Uniform),
        (10, 3000, Shape::Clusters),
        (0, 100, Shape::Uniform),
        (300, 300, Shape::Identical),
    ] {
        let a = shape.generate(na, 1);
        let b = shape.generate(nb, 2);
        let fa = random_filters(na, &mut rng);
        let fb = random_filters(nb, &mut rng);
        for filtered in [false, true] {
            let (sa, sb) = if filtered {
                (
                    BoxSet::from(&a).with_filters(&fa).unwrap(),
                    BoxSet::from(&b).with_filters(&fb).unwrap(),
                )
            } else {
                (BoxSet::from(&a), BoxSet::from(&b))
            };
            let want = brute_force_bipartite(sa, sb).unwrap();
            for order in ORDERS {
                let mut reference: Option<Vec<Pair>> = None;
                for &level in SimdLevel::available() {
                    for threads in [1, 2, 4] {
                        let got = pool(threads).install(|| {
                            broad_with(level, threads > 1, order)
                                .find_pairs_bipartite(sa, sb)
                                .unwrap()
                                .to_vec()
                        });
                        assert_eq!(
                            sorted(&got),
                            want,
                            "{shape:?} {na}×{nb} {order:?} {level:?} {threads}"
                        );
                        match &reference {
                            None => reference = Some(got),
                            Some(r) => assert!(r == &got, "bipartite order differs"),
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn windows_running_to_the_end_of_a_band_stay_inside_it() {
    // Every box overlaps every other, so each window runs into its band's sentinels,
    // where the sweep reads its lanes without bounds checks (`debug_assert`ed in the
    // test profile). Every band length modulo the lane count, self and bipartite (under
    // Miri, a band of 9, whose windows end at every lane, and one of two windows).
    let lengths: Vec<usize> = if cfg!(miri) {
        vec![0, 1, 9, 17]
    } else {
        (0..=41).collect()
    };
    for n in lengths {
        let boxes = generate::identical(n);
        let want = brute_force_pairs(&boxes).unwrap();
        assert_eq!(want.len(), n * n.saturating_sub(1) / 2);
        check_all(BoxSet::from(&boxes), &want, &format!("{n} identical boxes"));
        let others = generate::identical(n % 11 + 1);
        let (sa, sb) = (BoxSet::from(&boxes), BoxSet::from(&others));
        let want = brute_force_bipartite(sa, sb).unwrap();
        assert_eq!(want.len(), n * others.len());
        for &level in SimdLevel::available() {
            let got = broad(level, false)
                .find_pairs_bipartite(sa, sb)
                .unwrap()
                .to_vec();
            assert_eq!(
                sorted(&got),
                want,
                "{n} × {} identical, {level:?}",
                others.len()
            );
        }
    }
}

#[test]
fn bipartite_picks_the_grid_for_lopsided_sets() {
    let mut bp = broad(SimdLevel::best(), false);
    let bullets = generate::bullet_hell(20_000, 4);
    let targets: Vec<Aabb> = generate::uniform(60, 5)
        .iter()
        .map(|b| Aabb::from_center_half_extents(b.center() * 60.0, Vec2::splat(3.0)))
        .collect();
    for (a, b) in [(&bullets, &targets), (&targets, &bullets)] {
        let got = sorted(bp.find_pairs_bipartite(a, b).unwrap());
        assert!(bp.last_stats().grid);
        assert!(!got.is_empty());
        assert_eq!(got, brute_force_bipartite(a, b).unwrap());
    }
    bp.find_pairs_bipartite(&bullets, &bullets).unwrap();
    assert!(!bp.last_stats().grid);
}

/// A small set that covers much of its area takes the banded sweep, where the grid
/// was up to 4x slower; a sparse one of the same size keeps the grid.
#[test]
fn bipartite_takes_the_sweep_for_a_dense_small_set() {
    let bullets = generate::uniform(20_000, 4);
    let side = (2.0f32 * 20_000.0).sqrt();
    let dense = generate::uniform(1000, 5);
    // 1000 boxes 0.5 wide over the bullets' whole field: about 0.2% of it.
    let sparse: Vec<Aabb> = (0..1000)
        .map(|k| {
            let c = Vec2::new(
                (k as f32 * 0.618_034).fract(),
                (k as f32 * 0.414_213).fract(),
            );
            Aabb::from_center_half_extents(c * side, Vec2::splat(0.25))
        })
        .collect();
    for (targets, grid) in [(&dense, false), (&sparse, true)] {
        for (a, b) in [(&bullets, targets), (targets, &bullets)] {
            let want = brute_force_bipartite(a, b).unwrap();
            assert!(!want.is_empty());
            for &level in SimdLevel::available() {
                let mut bp = broad(level, false);
                let got = sorted(bp.find_pairs_bipartite(a, b).unwrap());
                assert_eq!(bp.last_stats().grid, grid, "{level:?}");
                assert_eq!(got, want, "{level:?}");
            }
        }
    }
}

/// A handful of small boxes (the player) against many: the lane path of the grid mode.
#[test]
fn bipartite_against_a_handful_of_boxes() {
    let bullets = generate::bullet_hell(20_003, 6);
    for m in 1..=5 {
        let targets: Vec<Aabb> = (0..m)
            .map(|k| Aabb::from_center_half_extents(bullets[k * 997].center(), Vec2::splat(60.0)))
            .collect();
        for (a, b) in [(&bullets, &targets), (&targets, &bullets)] {
            let want = brute_force_bipartite(a, b).unwrap();
            assert!(!want.is_empty());
            let mut reference: Option<Vec<Pair>> = None;
            for &level in SimdLevel::available() {
                for threads in [1, 3] {
                    let got = pool(threads).install(|| {
                        broad(level, threads > 1)
                            .find_pairs_bipartite(a, b)
                            .unwrap()
                            .to_vec()
                    });
                    assert_eq!(sorted(&got), want, "{m} targets, {level:?} × {threads}");
                    match &reference {
                        None => reference = Some(got),
                        Some(r) => assert!(r == &got, "order differs at {level:?} × {threads}"),
                    }
                }
            }
        }
    }
    let mut bad = bullets.clone();
    bad[12_345].max.y = f32::NAN;
    bad[12_346].max.y = f32::NAN;
    let one = [Aabb::from_coords(0.0, 0.0, 1.0, 1.0)];
    assert!(matches!(
        BroadPhase::new().find_pairs_bipartite(&bad, &one[..]),
        Err(Error::InvalidBox { index: 12_345, .. })
    ));
}

#[test]
fn store_and_columns_are_read_in_place() {
    let boxes = generate::uniform(3000, 12);
    let mut store = BoxStore::new();
    let hs = store.insert_many(&boxes, Default::default()).unwrap();
    // Remove some so dense order differs from insertion order.
    for h in hs.iter().step_by(7) {
        store.remove(*h).unwrap();
    }
    let dense: Vec<Aabb> = store.iter().map(|(_, b)| b).collect();
    let want = brute_force_pairs(&dense).unwrap();
    let mut bp = BroadPhase::new();
    assert_eq!(sorted(bp.find_pairs(&store).unwrap()), want);
    let cols =
        BoxSet::from_columns(store.min_x(), store.min_y(), store.max_x(), store.max_y()).unwrap();
    assert_eq!(sorted(bp.find_pairs(cols).unwrap()), want);
}

#[test]
fn bad_input_is_a_typed_error_and_clears_the_result() {
    let mut boxes = generate::uniform(100, 1);
    let mut bp = BroadPhase::new();
    assert!(!bp.find_pairs(&boxes).unwrap().is_empty());
    boxes[42].max.y = f32::NAN;
    boxes[77].min.x = boxes[77].max.x + 1.0;
    assert_eq!(
        bp.find_pairs(&boxes),
        Err(Error::InvalidBox {
            index: 42,
            defect: BoxDefect::NaN
        })
    );
    assert!(bp.pairs().is_empty());
    boxes[42].max.y = 1e9;
    assert_eq!(
        bp.find_pairs(&boxes),
        Err(Error::InvalidBox {
            index: 77,
            defect: BoxDefect::Inverted { axis: 0 }
        })
    );
    boxes[77].min.x = f32::NEG_INFINITY;
    let good = generate::uniform(10, 1);
    // Bipartite errors count through both sets; the first set's come first.
    let good_big = generate::uniform(5000, 1);
    let mut bad_big = good_big.clone();
    bad_big[4000].max.x = f32::NAN;
    for (a, b, want) in [
        (&good[..], &boxes[..], 10 + 77),       // bands
        (&boxes[..], &good[..], 77),            // bands
        (&good[..], &bad_big[..], 10 + 4000),   // grid, small first
        (&bad_big[..], &boxes[..], 4000),       // grid, large first (both bad)
        (&good_big[..], &boxes[..], 5000 + 77), // grid, small second
        (&boxes[..], &bad_big[..], 77),         // grid, small first (both bad)
    ] {
        let got = bp.find_pairs_bipartite(a, b);
        assert!(
            matches!(got, Err(Error::InvalidBox { index, .. }) if index == want),
            "{got:?}, want {want}"
        );
        assert!(matches!(
            brute_force_bipartite(a, b),
            Err(Error::InvalidBox { index, .. }) if index == want
        ));
        assert!(bp.pairs().is_empty());
    }
    let x = [0.0f32; 3];
    assert!(matches!(
        BoxSet::from_columns(&x, &x, &x, &x[..2]),
        Err(Error::LengthMismatch {
            expected: 3,
            found: 2,
            ..
        })
    ));
    let f = [Filter::ALL; 2];
    assert!(
        BoxSet::from(&good)
            .with_filter_columns(&[1; 10], &[1; 9])
            .is_err()
    );
    assert!(BoxSet::from(&good).with_filters(&f).is_err());
}

#[test]
fn empty_and_single_inputs() {
    let mut bp = BroadPhase::new();
    assert!(bp.find_pairs(&[] as &[Aabb]).unwrap().is_empty());
    assert!(bp.find_pairs(&[Aabb::default()]).unwrap().is_empty());
    assert!(
        bp.find_pairs_bipartite(&[] as &[Aabb], &[Aabb::default()])
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        bp.find_pairs(&[Aabb::default(); 2]).unwrap(),
        &[Pair::new(0, 1)]
    );
}

#[test]
fn repeated_calls_reuse_buffers_and_agree() {
    let mut bp = BroadPhase::new();
    let a = generate::bullet_hell(5000, 1);
    let b = generate::clusters(5000, 2);
    let ra = bp.find_pairs(&a).unwrap().to_vec();
    let rb = bp.find_pairs(&b).unwrap().to_vec();
    assert_eq!(bp.find_pairs(&a).unwrap(), &ra[..]);
    assert_eq!(bp.find_pairs(&b).unwrap(), &rb[..]);
}

/// The scatter validates eight boxes at a time in lanes and falls back to the scalar
/// test for a group that fails it: the error names the lowest bad box whichever lane
/// it sits in (first, middle, last, the scalar tail), for slices and columns, at every
/// level and thread count; boxes whose extent overflows but whose coordinates are
/// finite (valid) are paired as the oracle pairs them.
#[test]
fn lane_scatter_validates_like_the_scalar_pass() {
    let base = generate::uniform(203, 5);
    for bad in [0, 7, 8, 100, 199, 200, 202] {
        for defect in [f32::NAN, f32::INFINITY] {
            let mut boxes = base.clone();
            boxes[bad].max.x = defect;
            let mut later = boxes.clone();
            later[bad + (202 - bad).min(3)].min.y = f32::NAN;
            let cols: [Vec<f32>; 4] = [
                boxes.iter().map(|b| b.min.x).collect(),
                boxes.iter().map(|b| b.min.y).collect(),
                boxes.iter().map(|b| b.max.x).collect(),
                boxes.iter().map(|b| b.max.y).collect(),
            ];
            for &level in SimdLevel::available() {
                for threads in [1, 2] {
                    pool(threads).install(|| {
                        let mut bp = broad(level, threads > 1);
                        for set in [
                            BoxSet::from(&boxes),
                            BoxSet::from(&later),
                            BoxSet::from_columns(&cols[0], &cols[1], &cols[2], &cols[3]).unwrap(),
                        ] {
                            let got = bp.find_pairs(set);
                            assert!(
                                matches!(got, Err(Error::InvalidBox { index, .. }) if index == bad),
                                "{level:?} × {threads}: box {bad}: {got:?}"
                            );
                        }
                    });
                }
            }
        }
    }
    // Finite coordinates whose extent overflows f32: valid, and paired.
    let mut wide = base.clone();
    wide[9] = Aabb::from_coords(-3.0e38, 0.0, 3.0e38, 1.0e3);
    wide[150] = Aabb::from_coords(0.0, -3.0e38, 1.0e3, 3.0e38);
    let want = sorted(&brute_force_pairs(&wide).unwrap());
    assert!(want.len() > 100, "the wide boxes overlap many others");
    check_all(BoxSet::from(&wide), &want, "overflowing extents");
}
