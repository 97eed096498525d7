//! Swept AABB–AABB and the moving point: the documented meaning of every status, the
//! seed articles' cases (and their bugs), no tunnelling, no penetration, the
//! Minkowski-sum identity, an f64 oracle, and the batch at every level.

use crate::narrow_common;

use glam::Vec2;
use hantei::narrow::columns::{AabbSoa, MotionSoa, RaySoa};
use hantei::narrow::scalar::{cast_point_aabb, sweep_aabb_aabb};
use hantei::narrow::{PairSweep, Sweep, SweepStatus};
use hantei::rng::Rng;
use hantei::{Aabb, Pair, Ray, SimdLevel};
use narrow_common::*;

use SweepStatus::{Hit, Miss, Overlapping};

fn b(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
    Aabb::from_coords(x0, y0, x1, y1)
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// `a` moving by `m` against the still `b`.
fn sweep(a: Aabb, m: Vec2, b: Aabb) -> Sweep {
    sweep_aabb_aabb(&a, m, &b, Vec2::ZERO)
}

fn check(s: Sweep, status: SweepStatus, t: f32, normal: Vec2, stop: Vec2) {
    assert_eq!(
        (s.status, s.t, s.normal, s.stop),
        (status, t, normal, stop),
        "{s:?}"
    );
}

#[test]
fn statuses_and_touching_at_the_ends_of_the_frame() {
    let unit = b(0.0, 0.0, 1.0, 1.0);
    // Touching exactly at t = 1: a hit, flush at the end position.
    check(
        sweep(unit, v(1.0, 0.0), b(2.0, 0.0, 3.0, 1.0)),
        Hit,
        1.0,
        v(-1.0, 0.0),
        v(1.0, 0.0),
    );
    // A hair short of it: a miss that keeps the whole motion.
    check(
        sweep(unit, v(0.999_999, 0.0), b(2.0, 0.0, 3.0, 1.0)),
        Miss,
        1.0,
        Vec2::ZERO,
        v(0.999_999, 0.0),
    );
    // Touching at t = 0 and pushing into it: a hit at t = 0 that still slides.
    check(
        sweep(unit, v(1.0, 0.5), b(1.0, 0.0, 2.0, 1.0)),
        Hit,
        0.0,
        v(-1.0, 0.0),
        v(0.0, 0.5),
    );
    // Touching at t = 0 and sliding along, or moving away: already overlapping.
    check(
        sweep(unit, v(0.0, 5.0), b(1.0, 0.0, 2.0, 1.0)),
        Overlapping,
        0.0,
        Vec2::ZERO,
        Vec2::ZERO,
    );
    check(
        sweep(unit, v(-1.0, 0.0), b(1.0, 0.0, 2.0, 1.0)),
        Overlapping,
        0.0,
        Vec2::ZERO,
        Vec2::ZERO,
    );
    // Resting on the ground (y up) while gravity pulls and the box walks: slides on x.
    check(
        sweep(
            b(0.0, 1.0, 1.0, 2.0),
            v(3.0, -1.0),
            b(-10.0, 0.0, 10.0, 1.0),
        ),
        Hit,
        0.0,
        v(0.0, 1.0),
        v(3.0, 0.0),
    );
    // Deeply overlapping at the start.
    check(
        sweep(unit, v(1.0, 1.0), b(0.5, 0.5, 2.0, 2.0)),
        Overlapping,
        0.0,
        Vec2::ZERO,
        Vec2::ZERO,
    );
}

#[test]
fn exact_corner_hits_say_so() {
    let unit = b(0.0, 0.0, 1.0, 1.0);
    let s = sweep(unit, v(2.0, 2.0), b(2.0, 2.0, 3.0, 3.0));
    check(s, Hit, 0.5, v(-1.0, -1.0), v(1.0, 1.0));
    assert!(s.is_corner());
    let s = sweep(unit, v(2.0, -2.0), b(2.0, -2.0, 3.0, -1.0)); // corners meet at (2, -1)
    check(s, Hit, 0.5, v(-1.0, 1.0), v(1.0, -1.0));
    // Touching corner to corner at the start and moving into it: a corner hit at t = 0.
    let s = sweep(unit, v(1.0, 1.0), b(1.0, 1.0, 2.0, 2.0));
    check(s, Hit, 0.0, v(-1.0, -1.0), v(0.0, 0.0));
    // Two points crossing.
    let p = b(0.0, 0.0, 0.0, 0.0);
    assert!(sweep(p, v(2.0, 2.0), b(1.0, 1.0, 1.0, 1.0)).is_corner());
    // A face hit is not a corner.
    assert!(!sweep(unit, v(2.0, 0.5), b(2.0, 0.0, 3.0, 3.0)).is_corner());
}

#[test]
fn zero_relative_velocity_never_divides() {
    let unit = b(0.0, 0.0, 1.0, 1.0);
    // Both moving alike: the static answer, with finite numbers.
    let m = v(3.0, -2.0);
    let s = sweep_aabb_aabb(&unit, m, &b(0.5, 0.5, 2.0, 2.0), m);
    check(s, Overlapping, 0.0, Vec2::ZERO, Vec2::ZERO);
    let s = sweep_aabb_aabb(&unit, m, &b(5.0, 5.0, 6.0, 6.0), m);
    check(s, Miss, 1.0, Vec2::ZERO, Vec2::ZERO);
    // Seed 002's 0/0: touching on x with no x motion, while y closes in.
    check(
        sweep(unit, v(0.0, 5.0), b(1.0, 3.0, 2.0, 4.0)),
        Hit,
        0.4,
        v(0.0, -1.0),
        v(0.0, 2.0),
    );
    // Zero motion on one axis and apart on it: never.
    check(
        sweep(unit, v(0.0, 5.0), b(1.5, 3.0, 2.0, 4.0)),
        Miss,
        1.0,
        Vec2::ZERO,
        v(0.0, 5.0),
    );
    // -0.0 is zero too.
    check(
        sweep(unit, v(-0.0, 5.0), b(1.5, 3.0, 2.0, 4.0)),
        Miss,
        1.0,
        Vec2::ZERO,
        v(-0.0, 5.0),
    );
}

#[test]
fn seed_002_cases() {
    // The article swaps the y interval wrongly for a negative velocity: moving down.
    let unit = b(0.0, 0.0, 1.0, 1.0);
    let s = sweep(unit, v(0.0, -6.0), b(0.0, -5.0, 1.0, -4.0));
    check(s, Hit, 4.0 / 6.0, v(0.0, 1.0), v(0.0, -4.0));
    // It decides the axis with `==` after clamping both entry times to 0, so a box
    // already overlapping on y that touches on x at t = 0 would get both axes: not here.
    let s = sweep(unit, v(1.0, 0.5), b(1.0, -1.0, 2.0, 2.0));
    check(s, Hit, 0.0, v(-1.0, 0.0), v(0.0, 0.5));
    // Its strict `tMin < tMax` misses a graze at a single instant (x contact begins as y
    // contact ends, corner (2, 1) against corner (2, 1)); closed intervals keep it.
    let s = sweep(unit, v(2.0, 2.0), b(2.0, -1.0, 3.0, 1.0));
    check(s, Hit, 0.5, v(-1.0, 0.0), v(1.0, 2.0));
    // Both moving: the response scales each motion on the hit axis by t (seed 002);
    // `stop` is their difference.
    let (ma, mb) = (v(4.0, 1.0), v(-2.0, 3.0));
    let (a, o) = (unit, b(4.0, 0.0, 5.0, 1.0));
    let s = sweep_aabb_aabb(&a, ma, &o, mb);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.5, v(-1.0, 0.0)));
    let (ra, rb) = (v(ma.x * s.t, ma.y), v(mb.x * s.t, mb.y));
    assert_eq!(s.stop, ra - rb);
    assert_eq!(a.translated(ra).max.x, o.translated(rb).min.x); // flush
}

#[test]
fn seed_000_moving_point() {
    let bx = b(2.0, 0.0, 3.0, 1.0);
    let cast = |o: Vec2, m: Vec2| cast_point_aabb(&Ray::new(o, m), &bx);
    // The article's entry time `x - (p + v)/v` would give 1; the right one is 0.5.
    check(
        cast(v(0.0, 0.5), v(4.0, 0.0)),
        Hit,
        0.5,
        v(-1.0, 0.0),
        v(2.0, 0.0),
    );
    // From the right, only the right face.
    check(
        cast(v(5.0, 0.5), v(-4.0, 0.0)),
        Hit,
        0.5,
        v(1.0, 0.0),
        v(-2.0, 0.0),
    );
    // Crossing the line x = 2 outside the face's segment.
    check(
        cast(v(0.0, 1.5), v(4.0, 0.0)),
        Miss,
        1.0,
        Vec2::ZERO,
        v(4.0, 0.0),
    );
    // Through a corner exactly.
    assert!(cast(v(1.0, -1.0), v(2.0, 2.0)).is_corner());
    // Already inside: the article leaves it out.
    check(
        cast(v(2.5, 0.5), v(4.0, 0.0)),
        Overlapping,
        0.0,
        Vec2::ZERO,
        Vec2::ZERO,
    );
    // Parallel to a face, never reaching the box.
    check(
        cast(v(0.0, 2.0), v(10.0, 0.0)),
        Miss,
        1.0,
        Vec2::ZERO,
        v(10.0, 0.0),
    );
    // Zero motion on the boundary: already touching (closed).
    assert_eq!(cast(v(2.0, 0.0), Vec2::ZERO).status, Overlapping);
}

#[test]
fn no_tunnelling_at_any_speed() {
    let bullet = b(0.0, 0.0, 1.0, 1.0);
    let wall = b(1000.0, -10.0, 1000.001, 10.0);
    for speed in [1.0e3, 1.0e4, 1.0e6, 1.0e9, 1.0e15, 1.0e20, 1.0e30, 3.0e38] {
        let s = sweep(bullet, v(speed, 0.1), wall);
        assert_eq!(s.status, Hit, "speed {speed}");
        assert_eq!(s.t, 999.0 / speed, "speed {speed}");
        assert!(bullet.translated(s.stop).max.x <= wall.min.x);
        let p = cast_point_aabb(&Ray::new(v(0.0, 0.5), v(speed, 0.0)), &wall);
        assert_eq!(
            (p.status, p.t),
            (Hit, 1000.0 / speed),
            "point, speed {speed}"
        );
    }
    // Huge coordinates, both points moving.
    let (a, o) = (b(1e30, 0.0, 1e30, 0.0), b(-1e30, 0.0, -1e30, 0.0));
    let s = sweep_aabb_aabb(&a, v(-2e30, 0.0), &o, v(1e30, 0.0));
    assert_eq!(s.status, Hit);
    assert!(ulps(s.t, 2.0 / 3.0) <= 2, "{}", s.t);
}

#[test]
fn nan_and_infinity_never_hit() {
    let mut rng = Rng::new(21);
    for _ in 0..50_000 {
        let mut x: [f32; 12] = core::array::from_fn(|_| grid(&mut rng, 6));
        x[rng.below(12) as usize] = special(&mut rng);
        if x.iter().all(|v| v.is_finite()) {
            continue;
        }
        let (a, o) = (b(x[0], x[1], x[2], x[3]), b(x[4], x[5], x[6], x[7]));
        let s = sweep_aabb_aabb(&a, v(x[8], x[9]), &o, v(x[10], x[11]));
        assert_eq!(s.status, Miss, "{x:?}");
        let c = cast_point_aabb(&Ray::new(v(x[0], x[1]), v(x[8], x[9])), &o);
        if [x[0], x[1], x[8], x[9], x[4], x[5], x[6], x[7]]
            .iter()
            .any(|v| !v.is_finite())
        {
            assert_eq!(c.status, Miss, "{x:?}");
        }
    }
}

/// `a.translated(stop)` against `b` on each hit axis: flush or short, never past.
fn assert_no_penetration(a: &Aabb, b: &Aabb, m: Vec2, s: &Sweep) {
    let moved = a.translated(s.stop);
    for k in 0..2 {
        if s.normal[k] < 0.0 {
            assert!(
                moved.max[k] <= b.min[k],
                "axis {k}: {a:?} {m:?} {b:?} {s:?}"
            );
        } else if s.normal[k] > 0.0 {
            assert!(
                moved.min[k] >= b.max[k],
                "axis {k}: {a:?} {m:?} {b:?} {s:?}"
            );
        }
    }
    // Never penetrating on both axes at once.
    let inside = moved.min.x < b.max.x
        && b.min.x < moved.max.x
        && moved.min.y < b.max.y
        && b.min.y < moved.max.y;
    assert!(!inside, "{a:?} {m:?} {b:?} {s:?}");
}

#[test]
fn the_stop_never_penetrates() {
    let mut rng = Rng::new(22);
    let mut nudged = 0;
    for round in 0..200_000 {
        // Uniform coordinates of mixed magnitudes: the gaps round, and the kernel must
        // still land on the near side.
        let scale = [1.0, 1.0e3, 1.0e6][round % 3];
        let mut r = |s: f32| rng.range_f32(-s, s);
        let (x, y) = (r(scale), r(scale));
        let a = b(x, y, x + r(scale).abs() * 0.1, y + r(scale).abs() * 0.1);
        let (ox, oy) = (x + r(scale * 0.2), y + r(scale * 0.2));
        let o = b(ox, oy, ox + r(scale).abs() * 0.1, oy + r(scale).abs() * 0.1);
        let m = v(r(scale * 0.5), r(scale * 0.5));
        let s = sweep(a, m, o);
        if s.status == Hit {
            assert_no_penetration(&a, &o, m, &s);
            // The gap is `t·v` up to rounding.
            for k in 0..2 {
                if s.normal[k] != 0.0 {
                    let want = s.t as f64 * m[k] as f64;
                    let tol =
                        4.0e-7 * (a.max[k].abs().max(o.min[k].abs()) as f64 + m[k].abs() as f64);
                    assert!(
                        (s.stop[k] as f64 - want).abs() <= tol,
                        "{a:?} {m:?} {o:?} {s:?}"
                    );
                    nudged += usize::from(
                        s.stop[k] as f64
                            != (if m[k] > 0.0 {
                                o.min[k] as f64 - a.max[k] as f64
                            } else {
                                o.max[k] as f64 - a.min[k] as f64
                            }),
                    );
                }
            }
        }
    }
    // Rounded gaps did occur, so the no-penetration guard was exercised.
    assert!(nudged > 100, "{nudged}");
}

/// The f64 answer of `sweep_aabb_aabb`.
fn oracle(a: &Aabb, ma: Vec2, o: &Aabb, mb: Vec2) -> Sweep64 {
    sweep64(
        a.min,
        a.max,
        o,
        [ma.x as f64 - mb.x as f64, ma.y as f64 - mb.y as f64],
    )
}

/// Checks one sweep against the oracle; `exact`: inputs on a grid, where the only
/// rounding is the final quotient (t correctly rounded).
fn check_oracle(s: &Sweep, w: &Sweep64, exact: bool, what: &str) -> bool {
    if !exact && w.margin <= 1e-5 * (1.0 + w.enter.abs().min(1e6)) {
        return false; // too close to a tie for f32 to call
    }
    assert_eq!(s.status, w.status, "{what}: {s:?} {w:?}");
    if s.status == Hit {
        let t64 = w.enter.max(0.0);
        let bound = if exact { 0 } else { 3 };
        assert!(
            ulps(s.t, t64 as f32) <= bound,
            "{what}: t {} vs {t64} ({} ulp)",
            s.t,
            ulps(s.t, t64 as f32)
        );
        let corner = w.enter_x == w.enter_y;
        if exact || (w.enter_x - w.enter_y).abs() > 1e-5 {
            assert_eq!(s.is_corner(), corner, "{what}: {s:?} {w:?}");
            let on_x = w.enter_x == w.enter || corner;
            assert_eq!(s.normal.x != 0.0, on_x, "{what}: {s:?} {w:?}");
            if on_x {
                assert_eq!(s.normal.x, if w.v[0] > 0.0 { -1.0 } else { 1.0 }, "{what}");
            }
        }
    }
    true
}

#[test]
fn scalar_sweeps_match_an_f64_oracle() {
    let mut rng = Rng::new(23);
    let (mut counts, mut compared) = ([0usize; 3], 0);
    for round in 0..300_000 {
        let exact = round % 2 == 0;
        let mut r = |s: u32| {
            if exact {
                grid(&mut rng, s)
            } else {
                rng.range_f32(-(s as f32), s as f32)
            }
        };
        let (x, y, w, h) = (r(8), r(8), r(2).abs(), r(2).abs());
        let a = b(x, y, x + w, y + h);
        let (x, y, w, h) = (r(8), r(8), r(2).abs(), r(2).abs());
        let o = b(x, y, x + w, y + h);
        let zero = |rng: &mut Rng, x: f32| if rng.below(6) == 0 { 0.0 } else { x };
        let (ma, mb) = (v(r(12), r(12)), v(r(12), r(12)));
        let (ma, mb) = (v(zero(&mut rng, ma.x), ma.y), v(mb.x, zero(&mut rng, mb.y)));
        let s = sweep_aabb_aabb(&a, ma, &o, mb);
        let w = oracle(&a, ma, &o, mb);
        if check_oracle(&s, &w, exact, &format!("sweep {a:?} {ma:?} {o:?} {mb:?}")) {
            compared += 1;
            counts[s.status as usize] += 1;
        }
        // The moving point on the same inputs.
        let ray = Ray::new(a.min, ma);
        let c = cast_point_aabb(&ray, &o);
        let w = sweep64(a.min, a.min, &o, [ma.x as f64, ma.y as f64]);
        check_oracle(&c, &w, exact, &format!("cast {ray:?} {o:?}"));
    }
    assert!(compared > 250_000, "{compared}");
    assert!(
        counts.iter().all(|&k| k > 2_000),
        "miss/hit/overlapping: {counts:?}"
    );
}

#[test]
fn box_against_box_is_a_point_against_the_grown_box() {
    let mut rng = Rng::new(24);
    let mut hits = 0;
    for round in 0..200_000 {
        let exact = round % 2 == 0;
        let mut r = |s: u32| {
            if exact {
                grid(&mut rng, s)
            } else {
                rng.range_f32(-(s as f32), s as f32)
            }
        };
        let (x, y) = (r(8), r(8));
        let a = b(x, y, x + r(2).abs(), y + r(2).abs());
        let (x, y) = (r(8), r(8));
        let o = b(x, y, x + r(2).abs(), y + r(2).abs());
        let (ma, mb) = (v(r(12), r(12)), v(r(12), r(12)));
        let s = sweep_aabb_aabb(&a, ma, &o, mb);
        let grown = Aabb::new(o.min - (a.max - a.min), o.max);
        let p = cast_point_aabb(&Ray::new(a.min, ma - mb), &grown);
        hits += usize::from(s.is_hit());
        if exact {
            // On a grid every sum is exact: the two are the same computation.
            assert!(
                same_sweep(&s, &p),
                "{a:?} {ma:?} {o:?} {mb:?}: {s:?} vs {p:?}"
            );
        } else {
            let w = oracle(&a, ma, &o, mb);
            if w.margin > 1e-4 * (1.0 + w.enter.abs().min(1e6)) {
                assert_eq!(s.status, p.status, "{a:?} {ma:?} {o:?} {mb:?}");
                if s.is_hit() {
                    // The grown box rounds its faces: an error of a few ulps of the
                    // coordinates, divided by the speed on the hit axis.
                    let k = if s.normal.x != 0.0 { 0 } else { 1 };
                    let scale = [a.min[k], a.max[k], o.min[k], o.max[k]]
                        .iter()
                        .fold(0.0f32, |m, x| m.max(x.abs()));
                    let tol = 4.0 * f32::EPSILON * scale / (ma[k] - mb[k]).abs()
                        + 4.0 * f32::EPSILON * s.t;
                    assert!((s.t - p.t).abs() <= tol, "{} vs {} (tol {tol})", s.t, p.t);
                    if (w.enter_x - w.enter_y).abs() > 1e-4 {
                        assert_eq!(s.normal, p.normal);
                    }
                }
            }
        }
    }
    assert!(hits > 10_000, "{hits}");
}

/// Moving boxes and points with some special values; pairs in random order.
fn scene(n: usize, seed: u64) -> (Vec<Aabb>, Vec<Vec2>, Vec<Ray>, Vec<Pair>) {
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
    let boxes: Vec<Aabb> = (0..n)
        .map(|_| {
            let (x, y) = (val(&mut rng, 10.0), val(&mut rng, 10.0));
            b(
                x,
                y,
                x + rng.range_f32(0.0, 3.0),
                y + rng.range_f32(0.0, 3.0),
            )
        })
        .collect();
    let motions: Vec<Vec2> = (0..n)
        .map(|_| v(val(&mut rng, 15.0), val(&mut rng, 15.0)))
        .collect();
    let rays: Vec<Ray> = (0..n)
        .map(|_| {
            Ray::new(
                v(val(&mut rng, 10.0), val(&mut rng, 10.0)),
                v(val(&mut rng, 15.0), val(&mut rng, 15.0)),
            )
        })
        .collect();
    let pairs = (0..4 * n + 3)
        .map(|_| Pair::new(rng.below(n as u32), rng.below(n as u32)))
        .collect();
    (boxes, motions, rays, pairs)
}

fn same_list(got: &[PairSweep], want: &[PairSweep]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.pair == w.pair && same_sweep(&g.sweep, &w.sweep))
}

#[test]
fn batches_match_the_scalar_kernels_at_every_level_and_thread_count() {
    for (n, seed) in [(1, 1), (9, 2), (300, 3), (6000, 4)] {
        let (boxes, motions, rays, pairs) = scene(n, seed);
        let (bs, ms, rs) = (
            AabbSoa::from(&boxes[..]),
            MotionSoa::from(&motions[..]),
            RaySoa::from(&rays[..]),
        );
        let keep =
            |p: Pair, s: Sweep| (s.status != Miss).then_some(PairSweep { pair: p, sweep: s });
        let want_sweep: Vec<PairSweep> = pairs
            .iter()
            .filter_map(|&p| {
                let (i, j) = (p.a as usize, p.b as usize);
                keep(
                    p,
                    sweep_aabb_aabb(&boxes[i], motions[i], &boxes[j], motions[j]),
                )
            })
            .collect();
        let want_cast: Vec<PairSweep> = pairs
            .iter()
            .filter_map(|&p| {
                keep(
                    p,
                    cast_point_aabb(&rays[p.a as usize], &boxes[p.b as usize]),
                )
            })
            .collect();
        if n >= 300 {
            for want in [&want_sweep, &want_cast] {
                let hits = want.iter().filter(|h| h.sweep.is_hit()).count();
                assert!(hits > 10 && hits < pairs.len() / 2, "{hits}");
            }
        }
        for &level in SimdLevel::available() {
            for threads in [1, 2, 4] {
                pool(threads).install(|| {
                    let mut np = narrow(level, threads > 1);
                    let what = format!("n={n} {level:?} x{threads}");
                    let got = np
                        .sweep_aabb_aabb(bs.columns(), ms.columns(), &pairs)
                        .unwrap();
                    assert!(same_list(got, &want_sweep), "sweep {what}");
                    let got = np
                        .cast_point_aabb(rs.columns(), bs.columns(), &pairs)
                        .unwrap();
                    assert!(same_list(got, &want_cast), "cast {what}");
                });
            }
        }
    }
}
