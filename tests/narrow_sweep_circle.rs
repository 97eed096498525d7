//! Swept circle–circle: the documented statuses, the seeds' edge cases, the first contact
//! (apart just before, touching at it), no tunnelling at any speed, no penetration at
//! the stop, an f64 oracle, and the batch at every level, thread count and input kind.

use crate::narrow_common;

use glam::Vec2;
use hantei::narrow::columns::{CircleSoa, MotionSoa};
use hantei::narrow::scalar::sweep_circle_circle;
use hantei::narrow::{PairSweep, Sweep, SweepStatus};
use hantei::rng::Rng;
use hantei::{Circle, Pair, SimdLevel};
use narrow_common::*;

use SweepStatus::{Hit, Miss, Overlapping};

fn c(x: f32, y: f32, r: f32) -> Circle {
    Circle::new(Vec2::new(x, y), r)
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// `a` moving by `m` against the still `b`.
fn sweep(a: Circle, m: Vec2, b: Circle) -> Sweep {
    sweep_circle_circle(&a, m, &b, Vec2::ZERO)
}

/// `|p - q|` in f64, of `f32` points.
fn dist64(p: Vec2, q: Vec2) -> f64 {
    let (dx, dy) = (
        f64::from(p.x) - f64::from(q.x),
        f64::from(p.y) - f64::from(q.y),
    );
    dx.hypot(dy)
}

#[test]
fn statuses_and_touching_at_the_ends_of_the_frame() {
    let b = c(10.0, 0.0, 2.0);
    // Head on: contact when the gap of 7 is closed, at t = 0.7.
    let s = sweep(c(0.0, 0.0, 1.0), v(10.0, 0.0), b);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.7, v(-1.0, 0.0)));
    // Touching exactly at the end of the frame: a hit at t = 1 (closed).
    let s = sweep(c(0.0, 0.0, 1.0), v(7.0, 0.0), b);
    assert_eq!((s.status, s.t), (Hit, 1.0));
    // One ulp short of touching: a miss.
    let s = sweep(c(0.0, 0.0, 1.0), v(6.999_999_5, 0.0), b);
    assert_eq!((s.status, s.t, s.stop), (Miss, 1.0, v(6.999_999_5, 0.0)));
    // Touching at the start and moving in: a hit at t = 0 on that normal.
    let s = sweep(c(7.0, 0.0, 1.0), v(1.0, 0.0), b);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.0, v(-1.0, 0.0)));
    // Touching at the start and sliding along (perpendicular) or moving away: overlapping.
    for m in [v(0.0, 3.0), v(-1.0, 0.0), v(0.0, 0.0)] {
        let s = sweep(c(7.0, 0.0, 1.0), m, b);
        assert_eq!(
            (s.status, s.t, s.normal, s.stop),
            (Overlapping, 0.0, Vec2::ZERO, Vec2::ZERO)
        );
    }
    // Overlapping when the frame begins, whatever the motion.
    let s = sweep(c(9.0, 1.0, 1.0), v(100.0, -4.0), b);
    assert_eq!(s.status, Overlapping);
    // Moving away from a disc in front: a miss.
    let s = sweep(c(0.0, 0.0, 1.0), v(-10.0, 0.0), b);
    assert_eq!(s.status, Miss);
}

#[test]
fn tangent_paths_graze_and_both_motions_count() {
    let b = c(5.0, 0.0, 2.0);
    // The path passes exactly tangent (closest distance 3 = 1 + 2) at t = 0.5.
    let s = sweep(c(0.0, 3.0, 1.0), v(10.0, 0.0), b);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.5, v(0.0, 1.0)));
    // A hair further out: a miss.
    let s = sweep(c(0.0, 3.000_001, 1.0), v(10.0, 0.0), b);
    assert_eq!(s.status, Miss);
    // Both moving: only the relative motion matters.
    let a = c(0.0, 0.0, 1.0);
    let moving = sweep_circle_circle(&a, v(6.0, 0.0), &c(10.0, 0.0, 2.0), v(-4.0, 0.0));
    let still = sweep(a, v(10.0, 0.0), c(10.0, 0.0, 2.0));
    assert_eq!(moving, still);
    // Equal motions: no relative motion, no division: a miss apart, overlapping inside.
    let s = sweep_circle_circle(&a, v(3.0, 4.0), &b, v(3.0, 4.0));
    assert_eq!((s.status, s.stop), (Miss, Vec2::ZERO));
    let s = sweep_circle_circle(&c(5.0, 1.0, 1.0), v(3.0, 4.0), &b, v(3.0, 4.0));
    assert_eq!(s.status, Overlapping);
}

#[test]
fn zero_radii_zero_motion_on_an_axis_and_exact_diagonals() {
    // A point (zero radius) against a disc, moving along y only.
    let s = sweep(c(0.0, -10.0, 0.0), v(0.0, 20.0), c(0.0, 0.0, 2.0));
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.4, v(0.0, -1.0)));
    // Two points meeting exactly: the normal is against the motion.
    let s = sweep(c(0.0, 0.0, 0.0), v(4.0, 0.0), c(2.0, 0.0, 0.0));
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.5, v(-1.0, 0.0)));
    // Two points that pass side by side: a miss.
    let s = sweep(c(0.0, 0.0, 0.0), v(4.0, 0.0), c(2.0, 1.0, 0.0));
    assert_eq!(s.status, Miss);
    // A 3-4-5 approach along the diagonal: contact at distance 5 = 2 + 3.
    let s = sweep(c(0.0, 0.0, 2.0), v(6.0, 8.0), c(6.0, 8.0, 3.0));
    assert_eq!((s.status, s.t), (Hit, 0.5));
    assert!((s.normal - v(-0.6, -0.8)).length() <= 1e-7, "{s:?}");
}

#[test]
fn bad_input_never_hits() {
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let a = c(0.0, 0.0, 1.0);
    let b = c(3.0, 0.0, 1.0);
    for (a, m, b) in [
        (c(nan, 0.0, 1.0), v(1.0, 0.0), b),
        (a, v(inf, 0.0), b),
        (a, v(1.0, 0.0), c(3.0, 0.0, nan)),
        (a, v(1.0, 0.0), c(3.0, 0.0, inf)),
        (c(0.0, 0.0, -1.0), v(5.0, 0.0), b), // a negative radius
        (c(0.0, 0.0, -5.0), v(0.0, 0.0), b), // "inside" by a negative radius
        (c(-3e38, 0.0, 1.0), v(3e38, 0.0), c(3e38, 0.0, 1.0)), // squares overflow
    ] {
        let s = sweep(a, m, b);
        assert_eq!(
            (s.status, s.t, s.normal),
            (Miss, 1.0, Vec2::ZERO),
            "{a:?} {m:?} {b:?}"
        );
    }
}

/// The closest the path of `a`'s center comes to `b`'s over the frame, in f64 on the
/// `f32` values.
fn closest64(a: Vec2, m: Vec2, b: Vec2) -> f64 {
    let f = f64::from;
    let (dx, dy) = (f(a.x) - f(b.x), f(a.y) - f(b.y));
    let (vx, vy) = (f(m.x), f(m.y));
    let vv = vx * vx + vy * vy;
    let t = if vv > 0.0 {
        (-(dx * vx + dy * vy) / vv).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (dx + t * vx).hypot(dy + t * vy)
}

/// `ulp(x)` of an `f32` magnitude, in f64.
fn ulp(x: f32) -> f64 {
    let x = x.abs();
    f64::from(f32::from_bits(x.to_bits() + 1) - x)
}

#[test]
fn no_tunnelling_at_any_speed_near_the_origin_and_near_a_million() {
    let mut rng = Rng::new(19);
    let mut crossings = 0;
    for (origin, radius) in [(Vec2::ZERO, 0.05), (v(1.0e6, -1.0e6), 0.5)] {
        for k in 0..4000 {
            // A thin target and a tiny bullet crossing it at any angle and speed up to
            // 10^6 per frame, aimed at its center or a little to the side.
            let target = Circle::new(origin + v(rng.range_f32(-5.0, 5.0), 0.0), radius);
            let angle = rng.range_f32(0.0, core::f32::consts::TAU);
            let dir = v(angle.cos(), angle.sin());
            let side = v(-dir.y, dir.x) * rng.range_f32(-0.07, 0.07) * radius * 16.0;
            let speed = 10f32.powf(rng.range_f32(0.0, 6.0));
            let start = target.center + side - dir * (speed * rng.range_f32(0.1, 0.9));
            let bullet = Circle::new(start, 0.01);
            let m = dir * speed;
            let s = sweep(bullet, m, target);
            // What the f32 inputs really describe, with the rounding of the kernel's
            // differences and cross product (a few ulps of the distance) as the margin.
            let reach = f64::from(bullet.radius + target.radius);
            let closest = closest64(start, m, target.center);
            let margin = 4.0 * (ulp(start.x.abs().max(start.y.abs())) + ulp(speed));
            let what = format!("{k}: {bullet:?} moving {m:?} by {target:?}: {s:?}");
            if closest <= reach - margin {
                // Caught: a hit, or overlapping when it starts within reach.
                assert_ne!(s.status, Miss, "tunnelled: {what} (closest {closest})");
                let at_start = closest64(start, Vec2::ZERO, target.center);
                assert!(s.status == Hit || at_start <= reach + margin, "{what}");
                if s.status == Hit {
                    // Flush, first, and never inside, near 10^6 too.
                    check_first_contact(&bullet, m, &target, Vec2::ZERO, &s);
                }
                crossings += 1;
            } else if closest > reach + margin {
                assert_eq!(s.status, Miss, "hit from afar: {what} (closest {closest})");
            }
        }
    }
    assert!(crossings > 2000, "{crossings}");
}

/// The first contact: apart just before `t`, touching at `t`, and `a` translated by the
/// stop is not inside `b` (all judged in f64 on the `f32` values).
fn check_first_contact(a: &Circle, ma: Vec2, b: &Circle, mb: Vec2, s: &Sweep) {
    let rel = ma - mb;
    let radii = f64::from(a.radius) + f64::from(b.radius);
    let at = |t: f64| {
        let p = [
            f64::from(a.center.x) + t * f64::from(rel.x) - f64::from(b.center.x),
            f64::from(a.center.y) + t * f64::from(rel.y) - f64::from(b.center.y),
        ];
        p[0].hypot(p[1])
    };
    // Tolerance: the f32 roundings of the inputs' differences and of t, scaled.
    let scale = f64::from(
        a.center
            .abs()
            .max_element()
            .max(b.center.abs().max_element()),
    ) + f64::from(rel.abs().max_element())
        + radii;
    let tol = scale * 1e-5;
    let t = f64::from(s.t);
    assert!(
        (at(t) - radii).abs() <= tol,
        "not touching at t: {} vs {radii} ({a:?} {ma:?} {b:?} {mb:?} {s:?})",
        at(t)
    );
    if t > 1e-3 {
        assert!(
            at(t - 1e-3) > radii - tol,
            "inside before t ({a:?} {ma:?} {b:?} {mb:?} {s:?})"
        );
    }
    // The stop leaves `a` outside `b` (relative to `b` at its start), after rounding.
    let moved = a.center + s.stop;
    assert!(
        dist64(moved, b.center) >= radii,
        "the stop penetrates: {} < {radii} ({a:?} {ma:?} {b:?} {mb:?} {s:?})",
        dist64(moved, b.center)
    );
    let n = f64::from(s.normal.x).hypot(f64::from(s.normal.y));
    assert!((n - 1.0).abs() < 1e-6, "normal not unit: {s:?}");
}

/// The exact answer in f64: the status and the time of the first root.
fn oracle(a: &Circle, ma: Vec2, b: &Circle, mb: Vec2) -> (SweepStatus, f64) {
    let f = f64::from;
    let (vx, vy) = (f(ma.x) - f(mb.x), f(ma.y) - f(mb.y));
    let (dx, dy) = (f(a.center.x) - f(b.center.x), f(a.center.y) - f(b.center.y));
    let s = f(a.radius) + f(b.radius);
    let (aa, bb, cc) = (
        vx * vx + vy * vy,
        dx * vx + dy * vy,
        dx * dx + dy * dy - s * s,
    );
    if cc < 0.0 || (cc == 0.0 && bb >= 0.0) {
        return (Overlapping, 0.0);
    }
    if cc == 0.0 {
        return (Hit, 0.0);
    }
    let disc = bb * bb - aa * cc;
    if bb >= 0.0 || disc < 0.0 {
        return (Miss, 1.0);
    }
    let t = cc / (disc.sqrt() - bb);
    if t <= 1.0 { (Hit, t) } else { (Miss, 1.0) }
}

#[test]
fn on_a_coarse_grid_the_answers_are_exact() {
    // Half-integers: every difference, square, product and the discriminant are exact in
    // f32, so every decision is the exact one and `t` is the root rounded a few times.
    let mut rng = Rng::new(0x5eed_c1c0);
    let mut counts = [0usize; 3];
    for _ in 0..100_000 {
        let mut half = |r: u32| (rng.below(4 * r + 1) as f32 - 2.0 * r as f32) * 0.5;
        let a = c(half(6), half(6), half(2).abs());
        let b = c(half(6), half(6), half(2).abs());
        let (ma, mb) = (v(half(4), half(4)), v(half(2), half(2)));
        let s = sweep_circle_circle(&a, ma, &b, mb);
        let (status, t) = oracle(&a, ma, &b, mb);
        let what = format!("{a:?} {ma:?} {b:?} {mb:?}: {s:?}, oracle {status:?} {t}");
        if (t - 1.0).abs() > 1e-6 {
            assert_eq!(s.status, status, "{what}");
        }
        if s.status == Hit && status == Hit {
            assert!(ulps(s.t, t as f32) <= 3, "{what}");
            check_first_contact(&a, ma, &b, mb, &s);
        }
        counts[s.status as usize] += 1;
    }
    assert!(counts.iter().all(|&n| n > 5_000), "{counts:?}");
}

#[test]
fn scalar_sweeps_match_an_f64_oracle_and_hit_first() {
    let mut rng = Rng::new(0x5eed_c1c1);
    let mut counts = [0usize; 3];
    for round in 0..200_000 {
        let scale = [1.0, 10.0, 1.0e3][round % 3];
        let mut val = |r: u32| rng.range_f32(-(r as f32), r as f32) * scale;
        let a = c(val(8), val(8), val(2).abs());
        let b = c(val(8), val(8), val(2).abs());
        let (ma, mb) = (v(val(16), val(16)), v(val(4), val(4)));
        let s = sweep_circle_circle(&a, ma, &b, mb);
        let (status, t) = oracle(&a, ma, &b, mb);
        if s.status != status {
            // Only near a tie: touching when the frame begins, grazing, or at t = 1.
            let f = f64::from;
            let (vx, vy) = (f(ma.x) - f(mb.x), f(ma.y) - f(mb.y));
            let (dx, dy) = (f(a.center.x) - f(b.center.x), f(a.center.y) - f(b.center.y));
            let r = f(a.radius) + f(b.radius);
            let (dd, cross) = (dx * dx + dy * dy, dx * vy - dy * vx);
            let aass = (vx * vx + vy * vy) * r * r;
            let near_start = (dd - r * r).abs() <= 1e-5 * (dd + r * r);
            let grazing = (aass - cross * cross).abs() <= 1e-4 * (aass + cross * cross);
            let near_end = (t - 1.0).abs() <= 1e-4 || (f(s.t) - 1.0).abs() <= 1e-4;
            assert!(
                near_start || grazing || near_end,
                "{a:?} {ma:?} {b:?} {mb:?}: {s:?}, oracle {status:?} {t}"
            );
        }
        if s.status == Hit {
            check_first_contact(&a, ma, &b, mb, &s);
        }
        counts[s.status as usize] += 1;
    }
    // Every status in fair numbers.
    assert!(counts.iter().all(|&n| n > 5_000), "{counts:?}");
}

/// Moving discs with some special values; pairs in random order.
fn scene(n: usize, seed: u64) -> (Vec<Circle>, Vec<Vec2>, Vec<Pair>) {
    let mut rng = Rng::new(seed);
    let val = |rng: &mut Rng, s: f32| {
        if rng.below(60) == 0 {
            special(rng)
        } else if rng.below(3) == 0 {
            grid(rng, s as u32)
        } else {
            rng.range_f32(-s, s)
        }
    };
    let circles = (0..n)
        .map(|_| {
            c(
                val(&mut rng, 10.0),
                val(&mut rng, 10.0),
                rng.range_f32(0.0, 2.0),
            )
        })
        .collect();
    let motions = (0..n)
        .map(|_| v(val(&mut rng, 15.0), val(&mut rng, 15.0)))
        .collect();
    let pairs = (0..4 * n + 3)
        .map(|_| Pair::new(rng.below(n as u32), rng.below(n as u32)))
        .collect();
    (circles, motions, pairs)
}

#[test]
fn batches_match_the_scalar_kernel_at_every_level_thread_count_and_input() {
    for (n, seed) in [(1, 1), (9, 2), (300, 3), (6000, 4)] {
        let (circles, motions, pairs) = scene(n, seed);
        let want: Vec<PairSweep> = pairs
            .iter()
            .filter_map(|&p| {
                let (i, j) = (p.a as usize, p.b as usize);
                let s = sweep_circle_circle(&circles[i], motions[i], &circles[j], motions[j]);
                (s.status != Miss).then_some(PairSweep { pair: p, sweep: s })
            })
            .collect();
        if n >= 300 {
            let hits = want.iter().filter(|h| h.sweep.is_hit()).count();
            assert!(hits > 10 && hits < pairs.len() / 2, "{hits}");
        }
        let (cs, ms) = (CircleSoa::from(&circles[..]), MotionSoa::from(&motions[..]));
        let same_list = |got: &[PairSweep]| {
            got.len() == want.len()
                && got
                    .iter()
                    .zip(&want)
                    .all(|(g, w)| g.pair == w.pair && same_sweep(&g.sweep, &w.sweep))
        };
        for &level in SimdLevel::available() {
            for threads in [1, 2, 4] {
                pool(threads).install(|| {
                    let mut np = narrow(level, threads > 1);
                    let what = format!("n={n} {level:?} x{threads}");
                    let got = np
                        .sweep_circle_circle(cs.columns(), ms.columns(), &pairs)
                        .unwrap();
                    assert!(same_list(got), "columns {what}");
                    let got = np
                        .sweep_circle_circle(&circles[..], &motions[..], &pairs)
                        .unwrap();
                    assert!(same_list(got), "records {what}");
                });
            }
        }
        // Bad input: a pair out of range and motions that do not match.
        let mut np = narrow(SimdLevel::best(), false);
        let bad = [Pair::new(0, n as u32)];
        assert!(
            np.sweep_circle_circle(&circles[..], &motions[..], &bad)
                .is_err()
        );
        assert!(
            np.sweep_circle_circle(&circles[..], &motions[..n - 1], &pairs)
                .is_err()
        );
    }
}
