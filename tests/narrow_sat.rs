//! Oriented boxes by the separating axis theorem: 2D against polygon clipping (an
//! independent method) and the MTV against brute-force directions; 3D against an f64
//! oracle, seed 004's edge-against-edge case that only a cross axis separates, near-
//! parallel edges; checked constructors; bad input; the batch at every level.

use crate::narrow_common;

use core::f32::consts::{FRAC_1_SQRT_2, PI};
use glam::{Quat, Vec2, Vec3};
use hantei::narrow::columns::{Obb2Soa, Obb3Soa};
use hantei::narrow::scalar::{overlap_aabb_aabb, overlap_obb2_obb2, overlap_obb3_obb3};
use hantei::narrow::{PairMtv2, PairMtv3};
use hantei::rng::Rng;
use hantei::{Aabb, Error, Obb2, Obb3, Pair, SimdLevel};
use narrow_common::*;

fn random_obb2(rng: &mut Rng, spread: f32) -> Obb2 {
    let c = Vec2::new(
        rng.range_f32(-spread, spread),
        rng.range_f32(-spread, spread),
    );
    let h = Vec2::new(rng.range_f32(0.1, 2.0), rng.range_f32(0.1, 2.0));
    let angle = match rng.below(5) {
        0 => 0.0,
        1 => PI / 2.0,
        _ => rng.range_f32(-PI, PI),
    };
    Obb2::from_angle(c, h, angle)
}

fn random_rotation(rng: &mut Rng) -> Quat {
    Quat::from_xyzw(
        rng.normal_f32(),
        rng.normal_f32(),
        rng.normal_f32(),
        rng.normal_f32(),
    )
    .normalize()
}

fn random_obb3(rng: &mut Rng, spread: f32) -> Obb3 {
    let c = Vec3::new(
        rng.range_f32(-spread, spread),
        rng.range_f32(-spread, spread),
        rng.range_f32(-spread, spread),
    );
    let h = Vec3::new(
        rng.range_f32(0.1, 2.0),
        rng.range_f32(0.1, 2.0),
        rng.range_f32(0.1, 2.0),
    );
    let q = if rng.below(6) == 0 {
        Quat::IDENTITY
    } else {
        random_rotation(rng)
    };
    Obb3::from_rotation(c, q, h)
}

#[test]
fn obb2_matches_polygon_clipping() {
    let mut rng = Rng::new(31);
    let (mut hits, mut compared) = (0, 0);
    for _ in 0..100_000 {
        let (a, b) = (random_obb2(&mut rng, 3.0), random_obb2(&mut rng, 3.0));
        let got = overlap_obb2_obb2(&a, &b);
        // Only calls that f32 can make: the f64 separation is not within rounding of 0.
        let (margin, _) = sat2_64(&a, &b);
        if margin.abs() > 1e-4 {
            assert_eq!(
                got.is_some(),
                clip_overlap(&a, &b),
                "{a:?} {b:?} margin {margin}"
            );
            compared += 1;
            hits += usize::from(got.is_some());
        }
    }
    assert!(
        compared > 95_000 && hits > 20_000 && hits < compared - 20_000,
        "{hits}/{compared}"
    );
}

#[test]
fn obb2_mtv_is_minimal_and_separates() {
    let mut rng = Rng::new(32);
    let mut checked = 0;
    for _ in 0..20_000 {
        let (a, b) = (random_obb2(&mut rng, 1.5), random_obb2(&mut rng, 1.5));
        let Some(m) = overlap_obb2_obb2(&a, &b) else {
            continue;
        };
        let n = [m.normal.x as f64, m.normal.y as f64];
        assert!((n[0].hypot(n[1]) - 1.0).abs() < 1e-6);
        assert!(m.depth >= 0.0);
        // The depth is the overlap along the normal, and no direction overlaps less.
        let along = overlap_along2(&a, &b, n);
        assert!(
            (along - m.depth as f64).abs() < 1e-5,
            "{along} vs {}",
            m.depth
        );
        for k in 0..256 {
            let t = k as f64 * std::f64::consts::PI / 256.0;
            let o = overlap_along2(&a, &b, [t.cos(), t.sin()]);
            assert!(
                o >= m.depth as f64 - 1e-5,
                "direction {t}: {o} < {}",
                m.depth
            );
        }
        // Moving `a` back along the normal by the depth (plus a hair) separates them.
        if m.depth > 1e-3 {
            let push = m.normal * (m.depth + 1e-3);
            let moved = Obb2::new(a.center - push, a.axis, a.half_extents);
            assert!(!clip_overlap(&moved, &b), "{a:?} {b:?} {m:?}");
            let shy = Obb2::new(
                a.center - m.normal * (m.depth - 1e-3),
                a.axis,
                a.half_extents,
            );
            assert!(clip_overlap(&shy, &b), "{a:?} {b:?} {m:?}");
            checked += 1;
        }
    }
    assert!(checked > 3_000, "{checked}");
}

#[test]
fn axis_aligned_oriented_boxes_are_aabbs() {
    let mut rng = Rng::new(33);
    for _ in 0..50_000 {
        let g = |rng: &mut Rng, r| grid(rng, r);
        let (c, h) = (
            Vec2::new(g(&mut rng, 6), g(&mut rng, 6)),
            Vec2::new(g(&mut rng, 2).abs(), g(&mut rng, 2).abs()),
        );
        let (d, k) = (
            Vec2::new(g(&mut rng, 6), g(&mut rng, 6)),
            Vec2::new(g(&mut rng, 2).abs(), g(&mut rng, 2).abs()),
        );
        let want = overlap_aabb_aabb(
            &Aabb::from_center_half_extents(c, h),
            &Aabb::from_center_half_extents(d, k),
        );
        assert_eq!(
            overlap_obb2_obb2(&Obb2::new(c, Vec2::X, h), &Obb2::new(d, Vec2::X, k)).is_some(),
            want
        );
        let (c3, d3) = (c.extend(0.5), d.extend(g(&mut rng, 1)));
        let (h3, k3) = (h.extend(1.0), k.extend(1.0));
        let got = overlap_obb3_obb3(
            &Obb3::from_rotation(c3, Quat::IDENTITY, h3),
            &Obb3::from_rotation(d3, Quat::IDENTITY, k3),
        );
        assert_eq!(got.is_some(), want, "{c3} {h3} {d3} {k3}");
    }
}

#[test]
fn obb3_matches_an_f64_oracle() {
    let mut rng = Rng::new(34);
    let (mut hits, mut compared, mut by_cross) = (0, 0, 0);
    for _ in 0..60_000 {
        let (a, b) = (random_obb3(&mut rng, 2.5), random_obb3(&mut rng, 2.5));
        let got = overlap_obb3_obb3(&a, &b);
        let (margin, axis, faces) = sat3_64(&a, &b, 1e-9);
        // f32 rounding plus the documented epsilon on cross axes.
        if margin.abs() <= 1e-3 {
            continue;
        }
        compared += 1;
        assert_eq!(got.is_some(), margin >= 0.0, "{a:?} {b:?} margin {margin}");
        by_cross += usize::from(margin < 0.0 && faces >= 0.0);
        let Some(m) = got else { continue };
        hits += 1;
        // The depth is the f64 least overlap over the same eligible axes, unless a
        // near-parallel cross axis (never chosen by the kernel) is the oracle's best.
        let (eligible, eaxis, _) = sat3_64(&a, &b, 1e-3);
        assert!(
            m.depth as f64 >= eligible - 2e-3 && (m.depth as f64) <= eligible + 2e-3,
            "{m:?} vs {eligible} (axis {eaxis}, all {margin}/{axis})"
        );
        let n = [m.normal.x as f64, m.normal.y as f64, m.normal.z as f64];
        assert!(((n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt() - 1.0).abs() < 1e-5);
        assert!(
            (overlap_along3(&a, &b, n) - m.depth as f64).abs() < 2e-3,
            "{m:?}"
        );
    }
    assert!(
        compared > 50_000 && hits > 10_000 && hits < compared - 10_000,
        "{hits}/{compared}"
    );
    // Some separations were decided by an edge-edge axis alone.
    assert!(by_cross > 100, "{by_cross}");
}

/// Seed 004's configuration: two cubes edge against twisted edge. `a`'s edge along z at
/// x = y = 1 faces `b`'s edge along (1, -1, 0), `gap` apart along `L = (1, 1, 0)/√2`.
///
/// ```text
///   looking down z:            L = A.z × B.e0
///   ┌─────┐                    ↗
///   │  a  │ ●  ← a's z edge   ╱  b's edge along (1,-1,0), turned 45° about it
///   └─────┘  ╲ gap ╱◆─────
/// ```
fn seed_004(gap: f32) -> (Obb3, Obb3) {
    let a = Obb3::from_rotation(Vec3::ZERO, Quat::IDENTITY, Vec3::ONE);
    let l = Vec3::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0);
    let e0 = Vec3::new(FRAC_1_SQRT_2, -FRAC_1_SQRT_2, 0.0);
    let e1 = (l + Vec3::Z) * FRAC_1_SQRT_2;
    let e2 = (Vec3::Z - l) * FRAC_1_SQRT_2;
    let center = l * (2.0 * 2f32.sqrt() + gap);
    let b = Obb3::try_new(center, [e0, e1, e2], Vec3::ONE).expect("orthonormal");
    (a, b)
}

#[test]
fn seed_004_edge_against_edge_needs_the_cross_axes() {
    let (a, b) = seed_004(0.1);
    // All six face axes overlap (in f64, with room to spare) ...
    let (margin, axis, faces) = sat3_64(&a, &b, 1e-9);
    assert!(faces > 0.5, "face axes overlap: {faces}");
    // ... yet A.z × B.e0 separates them by the gap.
    assert!(
        (margin + 0.1).abs() < 1e-5 && axis == 6 + 3 * 2,
        "{margin} {axis}"
    );
    assert!(overlap_obb3_obb3(&a, &b).is_none());
    // Closer than touching: they overlap, and the MTV is that cross axis.
    let (a, b) = seed_004(-0.1);
    let m = overlap_obb3_obb3(&a, &b).expect("overlapping");
    assert_eq!(m.axis, 6 + 3 * 2);
    assert!((m.depth - 0.1).abs() < 1e-4, "{m:?}");
    assert!(
        (m.normal - Vec3::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.0)).length() < 1e-5,
        "{m:?}"
    );
    // The lane kernel agrees through the batch, at every level.
    let soa = Obb3Soa::from(&[a, b][..]);
    for &level in SimdLevel::available() {
        let got = narrow(level, false)
            .overlap_obb3_obb3(soa.columns(), &[Pair::new(0, 1)])
            .unwrap()
            .to_vec();
        assert!(got.len() == 1 && same_mtv3(&got[0].mtv, &m), "{level:?}");
    }
}

#[test]
fn near_parallel_edges_do_not_fake_a_separation() {
    let mut rng = Rng::new(35);
    for round in 0..20_000 {
        // Clearly overlapping boxes, one turned by a tiny angle: every cross product of
        // (nearly) parallel edges is rounding noise.
        let angle = [0.0, 1e-8, 1e-7, 1e-6, 1e-5, 1e-4][round % 6];
        let axis = Vec3::new(rng.normal_f32(), rng.normal_f32(), rng.normal_f32()).normalize();
        let base = if round % 2 == 0 {
            Quat::IDENTITY
        } else {
            random_rotation(&mut rng)
        };
        let h = Vec3::new(
            rng.range_f32(0.5, 100.0),
            rng.range_f32(0.5, 100.0),
            rng.range_f32(0.5, 100.0),
        );
        let a = Obb3::from_rotation(Vec3::ZERO, base, h);
        let offset = base
            * (h * Vec3::new(
                rng.range_f32(-1.5, 1.5),
                rng.range_f32(-1.5, 1.5),
                rng.range_f32(-1.5, 1.5),
            ));
        let b = Obb3::from_rotation(offset, Quat::from_axis_angle(axis, angle) * base, h);
        assert!(
            overlap_obb3_obb3(&a, &b).is_some(),
            "round {round}: {a:?} {b:?}"
        );
        // Far apart along a face normal, they stay separated.
        let far = Obb3::from_rotation(
            base * Vec3::new(2.1 * h.x, 0.0, 0.0),
            Quat::from_axis_angle(axis, angle) * base,
            h,
        );
        assert!(overlap_obb3_obb3(&a, &far).is_none(), "round {round}");
    }
}

#[test]
fn checked_constructors() {
    // 2D: any non-zero direction is normalised; the rest is rejected.
    let b = Obb2::try_new(Vec2::ZERO, Vec2::new(3.0, 4.0), Vec2::ONE).unwrap();
    assert!((b.axis - Vec2::new(0.6, 0.8)).length() < 1e-7 && b.validate().is_ok());
    for (axis, half) in [
        (Vec2::ZERO, Vec2::ONE),
        (Vec2::new(f32::NAN, 1.0), Vec2::ONE),
        (Vec2::X, Vec2::new(-1.0, 1.0)),
        (Vec2::X, Vec2::new(f32::INFINITY, 1.0)),
    ] {
        assert!(matches!(
            Obb2::try_new(Vec2::ZERO, axis, half),
            Err(Error::InvalidShape { index: 0, .. })
        ));
    }
    assert!(
        Obb2::new(Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::ONE)
            .validate()
            .is_err()
    );
    // 3D: rounding drift is cleaned up, a shear or a scale is an error.
    let q = Quat::from_rotation_y(0.3);
    let drift = [
        q * Vec3::X * 1.0002,
        (q * Vec3::Y + Vec3::new(1e-4, 0.0, 0.0)),
        q * Vec3::Z,
    ];
    let b = Obb3::try_new(Vec3::ZERO, drift, Vec3::ONE).unwrap();
    for i in 0..3 {
        for j in 0..3 {
            let want = if i == j { 1.0 } else { 0.0 };
            assert!((b.axes[i].dot(b.axes[j]) - want).abs() < 1e-6, "{i} {j}");
        }
    }
    assert!(b.axes[0].dot(q * Vec3::X) > 0.999_999); // axes[0] keeps its direction
    for axes in [
        [Vec3::X, Vec3::new(0.5, 1.0, 0.0), Vec3::Z], // shear
        [Vec3::X * 2.0, Vec3::Y, Vec3::Z],            // scale
        [Vec3::X, Vec3::X, Vec3::Z],                  // degenerate
    ] {
        assert!(
            matches!(
                Obb3::try_new(Vec3::ZERO, axes, Vec3::ONE),
                Err(Error::InvalidShape { .. })
            ),
            "{axes:?}"
        );
    }
    assert!(
        Obb3::try_new(
            Vec3::ZERO,
            [Vec3::X, Vec3::Y, Vec3::Z],
            Vec3::new(1.0, -1.0, 1.0)
        )
        .is_err()
    );
    assert!(
        Obb3::try_new(
            Vec3::new(f32::NAN, 0.0, 0.0),
            [Vec3::X, Vec3::Y, Vec3::Z],
            Vec3::ONE
        )
        .is_err()
    );
    assert!(
        Obb3::from_rotation(Vec3::ZERO, Quat::from_xyzw(1.0, 2.0, 3.0, 4.0), Vec3::ONE)
            .validate()
            .is_ok()
    );
}

#[test]
fn nan_and_infinity_never_overlap() {
    let mut rng = Rng::new(36);
    for _ in 0..30_000 {
        // Overlapping boxes, then one value spoiled.
        let a = random_obb2(&mut rng, 0.2);
        let mut v = [
            a.center.x,
            a.center.y,
            a.axis.x,
            a.axis.y,
            a.half_extents.x,
            a.half_extents.y,
        ];
        let k = rng.below(6) as usize;
        v[k] = special(&mut rng);
        if v[k].is_finite() {
            continue;
        }
        let bad = Obb2::new(
            Vec2::new(v[0], v[1]),
            Vec2::new(v[2], v[3]),
            Vec2::new(v[4], v[5]),
        );
        assert!(
            overlap_obb2_obb2(&a, &bad).is_none() && overlap_obb2_obb2(&bad, &a).is_none(),
            "{bad:?}"
        );
        let a3 = random_obb3(&mut rng, 0.2);
        let mut f: [f32; 15] = bytemuck::cast(a3);
        f[rng.below(15) as usize] = v[k];
        let bad3: Obb3 = bytemuck::cast(f);
        assert!(
            overlap_obb3_obb3(&a3, &bad3).is_none() && overlap_obb3_obb3(&bad3, &a3).is_none(),
            "{bad3:?}"
        );
    }
}

#[test]
fn batches_match_the_scalar_kernels_at_every_level_and_thread_count() {
    let mut rng = Rng::new(37);
    for n in [1, 13, 400, 5000] {
        let obb2: Vec<Obb2> = (0..n).map(|_| random_obb2(&mut rng, 6.0)).collect();
        let obb3: Vec<Obb3> = (0..n).map(|_| random_obb3(&mut rng, 4.0)).collect();
        let pairs: Vec<Pair> = (0..3 * n + 1)
            .map(|_| Pair::new(rng.below(n as u32), rng.below(n as u32)))
            .collect();
        let want2: Vec<PairMtv2> = pairs
            .iter()
            .filter_map(|&p| {
                overlap_obb2_obb2(&obb2[p.a as usize], &obb2[p.b as usize])
                    .map(|mtv| PairMtv2 { pair: p, mtv })
            })
            .collect();
        let want3: Vec<PairMtv3> = pairs
            .iter()
            .filter_map(|&p| {
                overlap_obb3_obb3(&obb3[p.a as usize], &obb3[p.b as usize])
                    .map(|mtv| PairMtv3 { pair: p, mtv })
            })
            .collect();
        let (s2, s3) = (Obb2Soa::from(&obb2[..]), Obb3Soa::from(&obb3[..]));
        for &level in SimdLevel::available() {
            for threads in [1, 2, 4] {
                pool(threads).install(|| {
                    let mut np = narrow(level, threads > 1);
                    let got = np.overlap_obb2_obb2(s2.columns(), &pairs).unwrap();
                    assert!(
                        got.len() == want2.len()
                            && got
                                .iter()
                                .zip(&want2)
                                .all(|(g, w)| g.pair == w.pair && same_mtv2(&g.mtv, &w.mtv)),
                        "obb2 n={n} {level:?} x{threads}"
                    );
                    let got = np.overlap_obb3_obb3(s3.columns(), &pairs).unwrap();
                    assert!(
                        got.len() == want3.len()
                            && got
                                .iter()
                                .zip(&want3)
                                .all(|(g, w)| g.pair == w.pair && same_mtv3(&g.mtv, &w.mtv)),
                        "obb3 n={n} {level:?} x{threads}"
                    );
                });
            }
        }
    }
}
