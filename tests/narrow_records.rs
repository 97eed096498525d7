//! Every batch entry point reads its shapes from columns or from a slice of the shapes
//! (records): both inputs give the same answers bit for bit, at every SIMD level and
//! thread count, and the same errors.

use crate::narrow_common;

use glam::{Quat, Vec2, Vec3};
use hantei::narrow::columns::{
    AabbSoa, CircleSoa, MotionSoa, Obb2Soa, Obb3Soa, RaySoa, ShapeInput,
};
use hantei::narrow::{PairMtv2, PairMtv3, PairSweep};
use hantei::rng::Rng;
use hantei::{Aabb, Circle, Error, Obb2, Obb3, Pair, Ray, SimdLevel};
use narrow_common::*;

/// Shapes of every kind, `n` of each, in a 40 x 40 square (a 3D cube for the 3D boxes)
/// so that about half of the random pairs hit, with a special value (NaN, infinities,
/// huge, denormal) in one coordinate in 50.
struct Scene {
    boxes: Vec<Aabb>,
    motions: Vec<Vec2>,
    circles: Vec<Circle>,
    rays: Vec<Ray>,
    obb2: Vec<Obb2>,
    obb3: Vec<Obb3>,
    pairs: Vec<Pair>,
}

fn scene(n: usize, seed: u64) -> Scene {
    let mut rng = Rng::new(seed);
    let val = |rng: &mut Rng, hi: f32| {
        if rng.below(50) == 0 {
            special(rng)
        } else {
            rng.range_f32(0.0, hi)
        }
    };
    let v2 = |rng: &mut Rng, hi: f32| Vec2::new(val(rng, hi), val(rng, hi));
    let boxes = (0..n)
        .map(|_| {
            let c = v2(&mut rng, 40.0);
            Aabb::from_center_half_extents(c, v2(&mut rng, 4.0))
        })
        .collect();
    let motions = (0..n)
        .map(|_| v2(&mut rng, 8.0) - Vec2::splat(4.0))
        .collect();
    let circles = (0..n)
        .map(|_| Circle::new(v2(&mut rng, 40.0), val(&mut rng, 4.0)))
        .collect();
    let rays = (0..n)
        .map(|_| Ray::new(v2(&mut rng, 40.0), v2(&mut rng, 16.0) - Vec2::splat(8.0)))
        .collect();
    let obb2 = (0..n)
        .map(|_| {
            let (c, h) = (v2(&mut rng, 20.0), v2(&mut rng, 4.0));
            Obb2::from_angle(c, h, rng.range_f32(-3.2, 3.2))
        })
        .collect();
    let obb3 = (0..n)
        .map(|_| {
            let c = Vec3::new(
                val(&mut rng, 10.0),
                val(&mut rng, 10.0),
                val(&mut rng, 10.0),
            );
            let h = Vec3::new(val(&mut rng, 4.0), val(&mut rng, 4.0), val(&mut rng, 4.0));
            let q = Quat::from_xyzw(
                rng.normal_f32(),
                rng.normal_f32(),
                rng.normal_f32(),
                rng.normal_f32(),
            );
            Obb3::from_rotation(c, q.normalize(), h)
        })
        .collect();
    let mut pairs: Vec<Pair> = (0..3 * n + 5)
        .map(|_| Pair::new(rng.below(n as u32), rng.below(n as u32)))
        .collect();
    // The last shape on both sides, so that the first chunk gathers it.
    pairs[0] = Pair::new(n as u32 - 1, n as u32 - 1);
    Scene {
        boxes,
        motions,
        circles,
        rays,
        obb2,
        obb3,
        pairs,
    }
}

fn same_sweeps(a: &[PairSweep], b: &[PairSweep]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.pair == y.pair && same_sweep(&x.sweep, &y.sweep))
}

fn same_mtv2s(a: &[PairMtv2], b: &[PairMtv2]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.pair == y.pair && same_mtv2(&x.mtv, &y.mtv))
}

fn same_mtv3s(a: &[PairMtv3], b: &[PairMtv3]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.pair == y.pair && same_mtv3(&x.mtv, &y.mtv))
}

#[test]
fn records_and_columns_give_the_same_bits_at_every_level_and_thread_count() {
    // `trim`: without the pairs that index the last shape, so that every chunk may
    // gather from records past the gathered ones (`ShapeInput::gather_padded_unchecked`).
    let runs = [
        (1, 1, false),
        (9, 2, false),
        (9, 2, true),
        (100, 3, false),
        (100, 3, true),
        (5000, 4, false),
        (5000, 4, true),
    ];
    for (n, seed, trim) in runs {
        let mut s = scene(n, seed);
        if trim {
            let last = n as u32 - 1;
            s.pairs.retain(|p| p.a < last && p.b < last);
        }
        let bs = AabbSoa::from(&s.boxes[..]);
        let ms = MotionSoa::from(&s.motions[..]);
        let cs = CircleSoa::from(&s.circles[..]);
        let rs = RaySoa::from(&s.rays[..]);
        let o2 = Obb2Soa::from(&s.obb2[..]);
        let o3 = Obb3Soa::from(&s.obb3[..]);
        let (boxes, pairs) = (&s.boxes[..], &s.pairs[..]);
        let mut hits = [0usize; 7];
        for &level in SimdLevel::available() {
            for threads in [1, 2] {
                pool(threads).install(|| {
                    let what = format!("n={n} trim={trim} {level:?} x{threads}");
                    let (mut c, mut r) = (narrow(level, threads > 1), narrow(level, threads > 1));

                    let want = c.overlap_aabb_aabb(bs.columns(), pairs).unwrap();
                    assert_eq!(r.overlap_aabb_aabb(boxes, pairs).unwrap(), want, "{what}");
                    hits[0] = want.len();

                    let want = c.overlap_circle_circle(cs.columns(), pairs).unwrap();
                    let got = r.overlap_circle_circle(&s.circles[..], pairs).unwrap();
                    assert_eq!(got, want, "circles {what}");
                    hits[1] = want.len();

                    let want = c.overlap_aabb_circle(bs.columns(), cs.columns(), pairs);
                    let want = want.unwrap();
                    let got = r.overlap_aabb_circle(boxes, &s.circles[..], pairs).unwrap();
                    assert_eq!(got, want, "box-circle {what}");
                    hits[2] = want.len();

                    // Inputs mixed: box records with motion columns.
                    let want = c
                        .sweep_aabb_aabb(bs.columns(), ms.columns(), pairs)
                        .unwrap();
                    let got = r.sweep_aabb_aabb(boxes, &s.motions[..], pairs).unwrap();
                    assert!(same_sweeps(got, want), "sweep {what}");
                    let got = r.sweep_aabb_aabb(boxes, ms.columns(), pairs).unwrap();
                    assert!(same_sweeps(got, want), "sweep, mixed {what}");
                    hits[3] = want.len();

                    let want = c
                        .cast_point_aabb(rs.columns(), bs.columns(), pairs)
                        .unwrap();
                    let got = r.cast_point_aabb(&s.rays[..], boxes, pairs).unwrap();
                    assert!(same_sweeps(got, want), "moving point {what}");
                    hits[4] = want.len();

                    let want = c.overlap_obb2_obb2(o2.columns(), pairs).unwrap();
                    let got = r.overlap_obb2_obb2(&s.obb2[..], pairs).unwrap();
                    assert!(same_mtv2s(got, want), "obb2 {what}");
                    hits[5] = want.len();

                    let want = c.overlap_obb3_obb3(o3.columns(), pairs).unwrap();
                    let got = r.overlap_obb3_obb3(&s.obb3[..], pairs).unwrap();
                    assert!(same_mtv3s(got, want), "obb3 {what}");
                    hits[6] = want.len();
                });
            }
        }
        // The scenes are not trivial: some pairs hit and some miss, for every kernel.
        if n >= 100 {
            for (k, &h) in hits.iter().enumerate() {
                assert!(
                    h > 0 && h < pairs.len(),
                    "kernel {k}: {h} of {}",
                    pairs.len()
                );
            }
        }
    }
}

#[test]
fn a_record_is_the_shape_and_a_column_row_is_the_same_shape() {
    let s = scene(50, 7);
    let bs = AabbSoa::from(&s.boxes[..]);
    let rs = RaySoa::from(&s.rays[..]);
    for i in 0..50 {
        let (rec, col) = ((&s.boxes[..]).shape(i), bs.columns().shape(i));
        assert!(rec.min.x.to_bits() == col.min.x.to_bits() || rec.min.x.is_nan());
        assert!(same(rec.max.y, col.max.y));
        assert!(same(
            (&s.rays[..]).shape(i).motion.x,
            rs.columns().shape(i).motion.x
        ));
    }
    assert_eq!((&s.boxes[..]).checked_len(), Ok(50));
}

#[test]
fn records_report_the_same_errors_as_columns() {
    let boxes = [Aabb::from_coords(0.0, 0.0, 1.0, 1.0); 5];
    let circles = [Circle::new(Vec2::ZERO, 1.0); 3];
    let bs = AabbSoa::from(&boxes[..]);
    let cs = CircleSoa::from(&circles[..]);
    for &level in SimdLevel::available() {
        for len in [3, 8, 9, 5000] {
            let mut np = narrow(level, true);
            let mut pairs = vec![Pair::new(0, 1); len];
            pairs[len - 1] = Pair::new(2, 7);
            let want = np.overlap_aabb_aabb(bs.columns(), &pairs).unwrap_err();
            assert_eq!(np.overlap_aabb_aabb(&boxes[..], &pairs), Err(want.clone()));
            assert!(matches!(
                want,
                Error::PairOutOfRange {
                    pair,
                    side: "b",
                    index: 7,
                    len: 5
                } if pair == len - 1
            ));
            let bad = [Pair::new(4, 3)];
            let want = np
                .overlap_aabb_circle(bs.columns(), cs.columns(), &bad)
                .unwrap_err();
            let got = np.overlap_aabb_circle(&boxes[..], &circles[..], &bad);
            assert_eq!(got, Err(want));
            let huge = [Pair::new(u32::MAX, 0); 16];
            let got = np.overlap_aabb_aabb(&boxes[..], &huge).unwrap_err();
            assert!(
                matches!(
                    got,
                    Error::PairOutOfRange {
                        pair: 0,
                        index: u32::MAX,
                        ..
                    }
                ),
                "{got:?}"
            );
        }
        // One motion per box, whatever the inputs.
        let mut np = narrow(level, false);
        let e = np
            .sweep_aabb_aabb(&boxes[..], &[Vec2::ZERO; 4][..], &[Pair::new(0, 1)])
            .unwrap_err();
        assert_eq!(
            e,
            Error::LengthMismatch {
                what: "motions (one per box)",
                expected: 5,
                found: 4
            }
        );
        // Empty inputs and no pairs are fine.
        let none: &[Aabb] = &[];
        assert_eq!(np.overlap_aabb_aabb(none, &[]), Ok(&[][..]));
    }
}
