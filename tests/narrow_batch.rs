//! The batch API: typed errors for bad slices and indices, empty input, a broad phase
//! feeding the narrow phase through a store's columns, and identical output (bytes and
//! order) for every SIMD level, thread count and batch size, including batches large
//! enough to take the streaming path.

use crate::narrow_common;

use glam::Vec2;
use hantei::narrow::columns::{
    AabbColumns, AabbSoa, CircleColumns, MotionColumns, MotionSoa, Obb2Columns, Obb3Columns,
    RayColumns,
};
use hantei::narrow::scalar::{
    overlap_aabb_aabb, overlap_aabb_circle, overlap_circle_circle, sweep_aabb_aabb,
};
use hantei::narrow::{NarrowConfig, NarrowPhase};
use hantei::rng::Rng;
use hantei::{Aabb, BoxProps, BoxStore, BroadPhase, Error, Pair, SimdLevel};
use narrow_common::*;

#[test]
fn mismatched_columns_are_a_typed_error() {
    let (four, three) = ([0.0f32; 4], [0.0f32; 3]);
    let e = AabbColumns::new(&four, &four, &three, &four).unwrap_err();
    assert_eq!(
        e,
        Error::LengthMismatch {
            what: "AabbColumns.max_x",
            expected: 4,
            found: 3
        }
    );
    assert!(CircleColumns::new(&four, &three, &four).is_err());
    assert!(RayColumns::new(&four, &four, &four, &three).is_err());
    assert!(Obb2Columns::new(&four, &four, &four, &four, &four, &three).is_err());
    assert!(MotionColumns::new(&three, &four).is_err());
    let c = [&four[..]; 14];
    assert!(
        Obb3Columns::new(
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11], c[12], c[13],
            &three
        )
        .is_err()
    );
    // Built by hand past the checked constructor: the batch checks again.
    let bad = AabbColumns {
        min_x: &four,
        min_y: &four,
        max_x: &four,
        max_y: &three,
    };
    let mut np = NarrowPhase::new();
    assert!(matches!(
        np.overlap_aabb_aabb(bad, &[]),
        Err(Error::LengthMismatch { .. })
    ));
    let boxes = AabbColumns::new(&four, &four, &four, &four).unwrap();
    let motions = MotionColumns::new(&three, &three).unwrap();
    let e = np.sweep_aabb_aabb(boxes, motions, &[]).unwrap_err();
    assert_eq!(
        e,
        Error::LengthMismatch {
            what: "motions (one per box)",
            expected: 4,
            found: 3
        }
    );
}

#[test]
fn out_of_range_indices_are_a_typed_error_at_every_level() {
    let boxes = AabbSoa::from(&[Aabb::from_coords(0.0, 0.0, 1.0, 1.0); 5][..]);
    let circles =
        hantei::narrow::columns::CircleSoa::from(&[hantei::Circle::new(Vec2::ZERO, 1.0); 3][..]);
    for &level in SimdLevel::available() {
        for len in [3, 8, 9, 5000] {
            let mut pairs = vec![Pair::new(0, 1); len];
            // The first bad pair, in pair order, is the one reported.
            pairs[len - 1] = Pair::new(2, 7);
            let mut np = narrow(level, true);
            let e = np.overlap_aabb_aabb(boxes.columns(), &pairs).unwrap_err();
            assert_eq!(
                e,
                Error::PairOutOfRange {
                    pair: len - 1,
                    side: "b",
                    index: 7,
                    len: 5
                },
                "{level:?} {len}"
            );
            pairs[0] = Pair::new(6, 0);
            let e = np.overlap_aabb_aabb(boxes.columns(), &pairs).unwrap_err();
            assert_eq!(
                e,
                Error::PairOutOfRange {
                    pair: 0,
                    side: "a",
                    index: 6,
                    len: 5
                },
                "{level:?} {len}"
            );
            // Bipartite: `b` indexes the circles (3 of them).
            let e = np
                .overlap_aabb_circle(boxes.columns(), circles.columns(), &[Pair::new(4, 3)])
                .unwrap_err();
            assert_eq!(
                e,
                Error::PairOutOfRange {
                    pair: 0,
                    side: "b",
                    index: 3,
                    len: 3
                }
            );
            // Huge indices are refused, not read.
            let e = np
                .overlap_aabb_aabb(boxes.columns(), &[Pair::new(u32::MAX, 0); 16])
                .unwrap_err();
            assert!(
                matches!(
                    e,
                    Error::PairOutOfRange {
                        pair: 0,
                        index: u32::MAX,
                        ..
                    }
                ),
                "{e:?}"
            );
        }
    }
    let e = Error::PairOutOfRange {
        pair: 12,
        side: "b",
        index: 7,
        len: 5,
    };
    assert_eq!(
        e.to_string(),
        "pair 12: b = 7 is out of range of its shapes (length 5)"
    );
}

/// `n` circles along a random walk, and a pair from each to one of the next eight (some
/// overlapping, some not).
fn circle_scene(n: usize, seed: u64) -> (Vec<hantei::Circle>, Vec<Pair>) {
    let mut rng = Rng::new(seed);
    let mut c = Vec2::ZERO;
    let circles: Vec<hantei::Circle> = (0..n)
        .map(|_| {
            c += Vec2::new(rng.range_f32(-6.0, 6.0), rng.range_f32(-6.0, 6.0));
            hantei::Circle::new(c, rng.range_f32(0.5, 4.0))
        })
        .collect();
    let pairs = (0..n as u32)
        .map(|k| {
            let j = (k + 1 + rng.below(8)) % n as u32;
            Pair::new(k, j)
        })
        .collect();
    (circles, pairs)
}

#[test]
fn streaming_batches_match_the_scalar_reference_and_report_the_first_bad_pair() {
    // 300_000 pairs: each chunk then runs in blocks of pairs; hits and errors must not
    // depend on the block boundaries.
    let n = 300_000;
    let (circles, mut pairs) = circle_scene(n, 11);
    let boxes: Vec<Aabb> = circles
        .iter()
        .map(|c| Aabb::from_center_half_extents(c.center, Vec2::splat(c.radius)))
        .collect();
    let soa = hantei::narrow::columns::CircleSoa::from(&circles[..]);
    let circle_hits: Vec<Pair> = pairs
        .iter()
        .copied()
        .filter(|p| overlap_circle_circle(&circles[p.a as usize], &circles[p.b as usize]))
        .collect();
    let mixed_hits: Vec<Pair> = pairs
        .iter()
        .copied()
        .filter(|p| overlap_aabb_circle(&boxes[p.a as usize], &circles[p.b as usize]))
        .collect();
    // The 2D boxes and moving points stream in blocks too: their records must be the
    // scalar reference's, pair by pair.
    let obbs: Vec<hantei::Obb2> = circles
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let h = Vec2::new(c.radius, 0.5 * c.radius);
            hantei::Obb2::from_angle(c.center, h, k as f32 * 0.37)
        })
        .collect();
    let rays: Vec<hantei::Ray> = circles
        .iter()
        .map(|c| hantei::Ray::new(c.center, Vec2::new(c.radius * 3.0, -c.radius)))
        .collect();
    let obb_hits: Vec<hantei::narrow::PairMtv2> = pairs
        .iter()
        .filter_map(|&p| {
            hantei::narrow::scalar::overlap_obb2_obb2(&obbs[p.a as usize], &obbs[p.b as usize])
                .map(|mtv| hantei::narrow::PairMtv2 { pair: p, mtv })
        })
        .collect();
    let ray_hits: Vec<hantei::narrow::PairSweep> = pairs
        .iter()
        .filter_map(|&p| {
            let s =
                hantei::narrow::scalar::cast_point_aabb(&rays[p.a as usize], &boxes[p.b as usize]);
            (s.status != hantei::narrow::SweepStatus::Miss)
                .then_some(hantei::narrow::PairSweep { pair: p, sweep: s })
        })
        .collect();
    assert!(obb_hits.len() > n / 10 && obb_hits.len() < n * 9 / 10);
    assert!(ray_hits.len() > n / 10 && ray_hits.len() < n * 9 / 10);
    assert!(
        circle_hits.len() > n / 10 && circle_hits.len() < n * 9 / 10,
        "{} hits",
        circle_hits.len()
    );
    for &level in SimdLevel::available() {
        for threads in [1, 2] {
            pool(threads).install(|| {
                let mut np = narrow(level, threads > 1);
                let got = np.overlap_circle_circle(&circles[..], &pairs).unwrap();
                assert!(got == &circle_hits[..], "{level:?} x{threads} records");
                let got = np.overlap_circle_circle(soa.columns(), &pairs).unwrap();
                assert!(got == &circle_hits[..], "{level:?} x{threads} columns");
                let got = np
                    .overlap_aabb_circle(&boxes[..], &circles[..], &pairs)
                    .unwrap();
                assert!(got == &mixed_hits[..], "{level:?} x{threads} box-circle");
                let got = np.overlap_obb2_obb2(&obbs[..], &pairs).unwrap();
                assert!(got == &obb_hits[..], "{level:?} x{threads} 2D boxes");
                let got = np.cast_point_aabb(&rays[..], &boxes[..], &pairs).unwrap();
                assert!(got == &ray_hits[..], "{level:?} x{threads} moving points");
            });
        }
    }
    // Two bad pairs, in later blocks of a later chunk: the first is reported.
    let first = 3 * 4096 + 2 * 512 + 7;
    pairs[first] = Pair::new(1, n as u32);
    pairs[first + 700] = Pair::new(n as u32 + 5, 0);
    for &level in SimdLevel::available() {
        for threads in [1, 2] {
            pool(threads).install(|| {
                let mut np = narrow(level, threads > 1);
                let e = np.overlap_circle_circle(&circles[..], &pairs).unwrap_err();
                assert_eq!(
                    e,
                    Error::PairOutOfRange {
                        pair: first,
                        side: "b",
                        index: n as u32,
                        len: n
                    },
                    "{level:?} x{threads}"
                );
            });
        }
    }
}

#[test]
fn empty_input_is_fine() {
    let mut np = NarrowPhase::new();
    let none = AabbColumns::new(&[], &[], &[], &[]).unwrap();
    assert!(np.overlap_aabb_aabb(none, &[]).unwrap().is_empty());
    let motions = MotionColumns::new(&[], &[]).unwrap();
    assert!(np.sweep_aabb_aabb(none, motions, &[]).unwrap().is_empty());
}

#[test]
fn broad_then_narrow_through_a_store() {
    let mut rng = Rng::new(41);
    let mut store = BoxStore::new();
    for _ in 0..3000 {
        let min = Vec2::new(rng.range_f32(0.0, 300.0), rng.range_f32(0.0, 300.0));
        let aabb = Aabb::from_min_size(
            min,
            Vec2::new(rng.range_f32(0.5, 4.0), rng.range_f32(0.5, 4.0)),
        );
        let motion = Vec2::new(rng.range_f32(-6.0, 6.0), rng.range_f32(-6.0, 6.0));
        store
            .insert_with(
                aabb,
                BoxProps {
                    motion,
                    ..BoxProps::default()
                },
            )
            .unwrap();
    }
    let boxes = AabbColumns::from_store(&store);
    let motions = MotionColumns::from_store(&store);
    // Candidates from the swept boxes; every static overlap is among them.
    let swept: Vec<Aabb> = (0..store.len())
        .map(|i| boxes.get(i).swept(motions.get(i)))
        .collect();
    let pairs = BroadPhase::new().find_pairs(&swept[..]).unwrap().to_vec();
    let mut np = NarrowPhase::new();
    let hits = np.overlap_aabb_aabb(boxes, &pairs).unwrap().to_vec();
    let want: Vec<Pair> = pairs
        .iter()
        .copied()
        .filter(|p| overlap_aabb_aabb(&boxes.get(p.a as usize), &boxes.get(p.b as usize)))
        .collect();
    assert_eq!(hits, want);
    let sweeps = np.sweep_aabb_aabb(boxes, motions, &pairs).unwrap();
    assert!(sweeps.len() >= hits.len()); // every static overlap is overlapping or hit
    for h in sweeps {
        let (i, j) = (h.pair.a as usize, h.pair.b as usize);
        let s = sweep_aabb_aabb(&boxes.get(i), motions.get(i), &boxes.get(j), motions.get(j));
        assert!(same_sweep(&h.sweep, &s));
    }
}

/// Random boxes and motions (about half the pairs hit), pairs in random order.
fn scene(n: usize, seed: u64) -> (AabbSoa, MotionSoa, Vec<Pair>) {
    let mut rng = Rng::new(seed);
    let mut boxes = Vec::with_capacity(n);
    let mut motions = Vec::with_capacity(n);
    for _ in 0..n {
        let min = Vec2::new(rng.range_f32(0.0, 20.0), rng.range_f32(0.0, 20.0));
        boxes.push(Aabb::from_min_size(
            min,
            Vec2::new(rng.range_f32(0.0, 8.0), rng.range_f32(0.0, 8.0)),
        ));
        motions.push(Vec2::new(
            rng.range_f32(-9.0, 9.0),
            rng.range_f32(-9.0, 9.0),
        ));
    }
    let pairs = (0..n)
        .map(|_| Pair::new(rng.below(n as u32), rng.below(n as u32)))
        .collect();
    (
        AabbSoa::from(&boxes[..]),
        MotionSoa::from(&motions[..]),
        pairs,
    )
}

#[test]
fn every_level_thread_count_and_size_gives_the_same_bytes() {
    // 300_000 pairs take the streaming path (branch-free emission); the others do not.
    for (n, seed) in [(100, 1), (40_000, 2), (300_000, 3)] {
        let (boxes, motions, pairs) = scene(n, seed);
        let mut reference: Option<(Vec<Pair>, Vec<u8>)> = None;
        for &level in SimdLevel::available() {
            for threads in [1, 2, 3] {
                let got = pool(threads).install(|| {
                    let mut np = NarrowPhase::with_config(NarrowConfig {
                        simd: level,
                        parallel: threads > 1,
                        parallel_threshold: 1000,
                    });
                    let hits = np
                        .overlap_aabb_aabb(boxes.columns(), &pairs)
                        .unwrap()
                        .to_vec();
                    let sweeps = np
                        .sweep_aabb_aabb(boxes.columns(), motions.columns(), &pairs)
                        .unwrap();
                    let bytes: Vec<u8> = sweeps
                        .iter()
                        .flat_map(|h| {
                            let s = h.sweep;
                            [
                                h.pair.a,
                                h.pair.b,
                                s.status as u32,
                                s.t.to_bits(),
                                s.normal.x.to_bits(),
                                s.normal.y.to_bits(),
                                s.stop.x.to_bits(),
                                s.stop.y.to_bits(),
                            ]
                        })
                        .flat_map(u32::to_le_bytes)
                        .collect();
                    (hits, bytes)
                });
                match &reference {
                    None => {
                        // The scalar reference, pair by pair, in pair order.
                        let want: Vec<Pair> = pairs
                            .iter()
                            .copied()
                            .filter(|p| {
                                overlap_aabb_aabb(
                                    &boxes.columns().get(p.a as usize),
                                    &boxes.columns().get(p.b as usize),
                                )
                            })
                            .collect();
                        assert_eq!(got.0, want, "n={n}");
                        assert!(
                            got.0.len() > n / 20 && got.0.len() < n,
                            "n={n}: {} hits",
                            got.0.len()
                        );
                        reference = Some(got);
                    }
                    Some(r) => assert!(r == &got, "n={n}: {level:?} x{threads} differs"),
                }
            }
        }
    }
}
