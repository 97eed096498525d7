//! The turning sweep (`sweep_turning`): lasers that turn into discs (both senses, fast
//! and slow, rectangle and capsule lasers), no turn = `sweep_shapes` bit for bit, all 16
//! kind pairs moving and turning against the f64 oracle (4096 sub-steps, first contact,
//! within the tolerance, nothing missed, the same answer swapped), coordinates near
//! 10⁶, touching at `t = 0`, and bad input. Seeded loops on hantei's own generator.

use crate::turning_oracle;

use glam::Vec2;
use hantei::narrow::scalar::{TURN_TOLERANCE, TURN_TOLERANCE_FLOOR, sweep_shapes, sweep_turning};
use hantei::narrow::{Sweep, SweepStatus};
use hantei::rng::Rng;
use hantei::{Aabb, Capsule, Circle, Obb2, Shape};
use turning_oracle::{Answer, Body, Form};

use SweepStatus::{Hit, Miss, Overlapping};

/// 64 full turns: the largest turn the kernel takes.
const MAX_TURN: f32 = 64.0 * core::f32::consts::TAU;

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn p(x: Vec2) -> [f64; 2] {
    [f64::from(x.x), f64::from(x.y)]
}

/// The oracle's body of a valid shape.
fn body(shape: &Shape, motion: Vec2, turn: f32) -> Body {
    let form = match shape {
        Shape::Aabb(b) => {
            let (lo, hi) = (p(b.min), p(b.max));
            Form::Rect {
                centre: [(lo[0] + hi[0]) * 0.5, (lo[1] + hi[1]) * 0.5],
                axis: [1.0, 0.0],
                half: [(hi[0] - lo[0]) * 0.5, (hi[1] - lo[1]) * 0.5],
            }
        }
        Shape::Circle(c) => Form::Disc {
            centre: p(c.center),
            r: f64::from(c.radius),
        },
        Shape::Obb2(o) => {
            let u = p(o.axis);
            let len = u[0].hypot(u[1]);
            Form::Rect {
                centre: p(o.center),
                axis: [u[0] / len, u[1] / len],
                half: p(o.half_extents),
            }
        }
        Shape::Capsule(c) => Form::Capsule {
            a: p(c.a),
            b: p(c.b),
            r: f64::from(c.radius),
        },
    };
    Body {
        form,
        motion: p(motion),
        turn: f64::from(turn),
    }
}

/// One case: `(a, motion, turn)` and `(b, motion, turn)`.
type Side = (Shape, Vec2, f32);

/// Runs the kernel both ways round and judges it: the oracle, the swap, the fields.
fn judge(a: Side, b: Side) -> Sweep {
    let s = sweep_turning(&a.0, a.1, a.2, &b.0, b.1, b.2);
    let w = sweep_turning(&b.0, b.1, b.2, &a.0, a.1, a.2);
    let ctx = || format!("{a:?} against {b:?}: {s:?}");
    if a.2 == 0.0 && b.2 == 0.0 {
        // No turn: sweep_shapes, bit for bit (its exact answers are its own tests').
        assert_eq!(s, sweep_shapes(&a.0, a.1, &b.0, b.1), "{}", ctx());
        return s;
    }
    assert_eq!(
        (w.status, w.t.to_bits()),
        (s.status, s.t.to_bits()),
        "swapped: {w:?}; {}",
        ctx()
    );
    assert_eq!(
        (w.normal, w.stop),
        (-s.normal, -s.stop),
        "swapped; {}",
        ctx()
    );
    match s.status {
        Miss => assert_eq!(
            (s.t, s.normal, s.stop),
            (1.0, Vec2::ZERO, a.1 - b.1),
            "{}",
            ctx()
        ),
        Overlapping => assert_eq!((s.t, s.normal, s.stop), (0.0, Vec2::ZERO, Vec2::ZERO)),
        Hit => assert_eq!(s.stop, (a.1 - b.1) * s.t, "{}", ctx()),
    }
    let got = Answer {
        status: s.status as u8,
        t: f64::from(s.t),
        normal: p(s.normal),
    };
    let (ba, bb) = (body(&a.0, a.1, a.2), body(&b.0, b.1, b.2));
    if let Err(e) = turning_oracle::judge(&ba, &bb, got) {
        panic!("{e}; {}", ctx());
    }
    s
}

fn laser_obb(len: f32) -> Shape {
    Shape::Obb2(Obb2::new(Vec2::ZERO, Vec2::X, v(len * 0.5, 0.05)))
}

fn laser_capsule(len: f32) -> Shape {
    Shape::Capsule(Capsule::new(v(-len * 0.5, 0.0), v(len * 0.5, 0.0), 0.05))
}

fn disc_at(angle: f32, dist: f32, r: f32) -> Shape {
    Shape::Circle(Circle::new(v(angle.cos(), angle.sin()) * dist, r))
}

#[test]
fn a_turning_laser_catches_a_disc_at_half_a_radian() {
    for laser in [laser_obb(100.0), laser_capsule(100.0)] {
        for sense in [1.0f32, -1.0] {
            let disc = disc_at(0.5 * sense, 40.0, 0.1);
            let s = judge((laser, Vec2::ZERO, sense), (disc, Vec2::ZERO, 0.0));
            assert_eq!(s.status, Hit, "{laser:?} turning {sense}");
            assert!((s.t - 0.5).abs() < 0.01, "{laser:?} turning {sense}: {s:?}");
            // From the disc toward the laser, across the laser's path.
            let across = v(0.5f32.sin(), -0.5f32.cos() * sense);
            assert!(s.normal.dot(across) > 0.99, "{s:?}");
            // The same disc, on the far side of the laser's turn: a miss.
            let behind = disc_at(-0.5 * sense, 40.0, 0.1);
            let m = judge((laser, Vec2::ZERO, sense), (behind, Vec2::ZERO, 0.0));
            assert_eq!(m.status, Miss);
        }
    }
}

#[test]
fn a_fast_turning_laser_still_catches() {
    // 3 radians a frame: the tip moves 150 per frame; the disc sits at 2 radians.
    for laser in [laser_obb(100.0), laser_capsule(100.0)] {
        for (dist, r) in [(45.0f32, 0.1f32), (10.0, 0.5), (49.0, 0.01)] {
            let disc = disc_at(2.0, dist, r);
            let s = judge((laser, Vec2::ZERO, 3.0), (disc, Vec2::ZERO, 0.0));
            assert_eq!(s.status, Hit, "{laser:?} against {disc:?}");
            assert!((s.t - 2.0 / 3.0).abs() < 0.02, "{s:?}");
        }
        // Both ends sweep: a disc at 2 + π is caught by the other half at the same time.
        let s = judge(
            (laser, Vec2::ZERO, 3.0),
            (
                disc_at(2.0 + core::f32::consts::PI, 30.0, 0.1),
                Vec2::ZERO,
                0.0,
            ),
        );
        assert!(s.is_hit() && (s.t - 2.0 / 3.0).abs() < 0.02, "{s:?}");
    }
}

/// A random shape of `kind` near `at`, its size up to `size`.
fn random_shape(rng: &mut Rng, kind: u32, at: Vec2, size: f32) -> Shape {
    let c = at + v(rng.range_f32(-size, size), rng.range_f32(-size, size));
    let h = v(rng.range_f32(0.0, size), rng.range_f32(0.0, size * 0.3));
    match kind {
        0 => Shape::Aabb(Aabb::from_coords(
            c.x - h.x,
            c.y - h.y,
            c.x + h.x,
            c.y + h.y,
        )),
        1 => Shape::Circle(Circle::new(c, h.x * 0.5)),
        2 => {
            let a = rng.range_f32(-3.2, 3.2);
            Shape::Obb2(Obb2::from_angle(c, h, a))
        }
        _ => {
            let a = rng.range_f32(-3.2, 3.2);
            let d = v(a.cos(), a.sin()) * h.x;
            Shape::Capsule(Capsule::new(c - d, c + d, h.y))
        }
    }
}

fn random_turn(rng: &mut Rng) -> f32 {
    match rng.below(8) {
        0 => 0.0,
        1 => rng.range_f32(-40.0, 40.0),
        _ => rng.range_f32(-4.0, 4.0),
    }
}

fn random_motion(rng: &mut Rng, speed: f32) -> Vec2 {
    if rng.below(3) == 0 {
        Vec2::ZERO
    } else {
        v(rng.range_f32(-speed, speed), rng.range_f32(-speed, speed))
    }
}

/// Runs `n` cases of each of the 16 kind pairs around `origin`, and counts the statuses.
/// The cases are drawn in order from the seed, then judged on rayon's pool (the oracle is
/// slow, and this test was the longest of the suite).
fn random_cases(seed: u64, n: usize, origin: Vec2) -> [usize; 3] {
    use rayon::prelude::*;
    let mut rng = Rng::new(seed);
    let mut cases = Vec::with_capacity(16 * n);
    for ka in 0..4 {
        for kb in 0..4 {
            for _ in 0..n {
                let size = [1.0, 10.0, 50.0][rng.below(3) as usize];
                let a = random_shape(&mut rng, ka, origin, size);
                let b = random_shape(&mut rng, kb, origin, size * 2.0);
                let turn_a = random_turn(&mut rng);
                // Both turning, one still, or a still target.
                let turn_b = match rng.below(3) {
                    0 => 0.0,
                    _ => random_turn(&mut rng),
                };
                let (ma, mb) = (random_motion(&mut rng, 60.0), random_motion(&mut rng, 60.0));
                cases.push(((a, ma, turn_a), (b, mb, turn_b)));
            }
        }
    }
    let statuses: Vec<usize> = cases
        .into_par_iter()
        .map(|(a, b)| judge(a, b).status as usize)
        .collect();
    let mut count = [0; 3];
    for s in statuses {
        count[s] += 1;
    }
    count
}

#[test]
fn all_kind_pairs_turning_and_moving_against_the_oracle() {
    // 16 pairs × 1100 cases, and 16 × 150 more near 10⁶ below: 20 000 in all.
    let count = random_cases(41, 1100, Vec2::ZERO);
    eprintln!("miss, hit, overlapping: {count:?}");
    assert!(count.iter().all(|&c| c > 1000), "{count:?}");
}

#[test]
fn coordinates_near_a_million() {
    let count = random_cases(42, 150, v(1.0e6, -1.0e6));
    eprintln!("miss, hit, overlapping near 10⁶: {count:?}");
    assert!(count.iter().all(|&c| c > 100), "{count:?}");
    // The laser at 10⁶: the same catch.
    let c = v(1.0e6, 1.0e6);
    let laser = Shape::Capsule(Capsule::new(c - v(50.0, 0.0), c + v(50.0, 0.0), 0.25));
    let disc = Shape::Circle(Circle::new(c + v(0.5f32.cos(), 0.5f32.sin()) * 40.0, 0.5));
    let s = judge((laser, Vec2::ZERO, 1.0), (disc, Vec2::ZERO, 0.0));
    assert!(s.is_hit() && (s.t - 0.5).abs() < 0.03, "{s:?}");
}

#[test]
fn no_turn_is_sweep_shapes_bit_for_bit() {
    let mut rng = Rng::new(43);
    for ka in 0..4 {
        for kb in 0..4 {
            for i in 0..500 {
                let a = random_shape(&mut rng, ka, Vec2::ZERO, 10.0);
                let b = random_shape(&mut rng, kb, Vec2::ZERO, 20.0);
                let (ma, mb) = (random_motion(&mut rng, 60.0), random_motion(&mut rng, 60.0));
                let (ta, tb) = [(0.0, 0.0), (-0.0, 0.0), (0.0, -0.0), (-0.0, -0.0)][i % 4];
                let got = sweep_turning(&a, ma, ta, &b, mb, tb);
                let want = sweep_shapes(&a, ma, &b, mb);
                let bits =
                    |s: &Sweep| [s.t, s.normal.x, s.normal.y, s.stop.x, s.stop.y].map(f32::to_bits);
                assert_eq!(got.status, want.status);
                assert_eq!(bits(&got), bits(&want), "{a:?} {b:?}");
            }
        }
    }
}

#[test]
fn touching_at_the_start_is_overlapping() {
    let bx = Shape::Aabb(Aabb::from_coords(0.0, 0.0, 2.0, 2.0));
    let cases = [
        // A disc on the box's right face, and on its corner.
        Shape::Circle(Circle::new(v(3.0, 1.0), 1.0)),
        Shape::Circle(Circle::new(v(5.0, 6.0), 5.0)),
        // A capsule lying on the top face, and a rectangle sharing the right face.
        Shape::Capsule(Capsule::new(v(-1.0, 2.5), v(1.0, 2.5), 0.5)),
        Shape::Obb2(Obb2::new(v(3.0, 1.0), Vec2::X, v(1.0, 1.0))),
        // A point-like disc on the edge.
        Shape::Circle(Circle::new(v(2.0, 0.5), 0.0)),
    ];
    for other in cases {
        for (ta, tb) in [(1.0, 0.0), (0.0, -2.0), (3.0, 0.5)] {
            let s = judge((bx, v(1.0, 0.0), ta), (other, Vec2::ZERO, tb));
            assert_eq!(s.status, Overlapping, "{other:?} turning {ta} {tb}");
        }
    }
    // Just apart and turning away: not overlapping.
    let apart = Shape::Circle(Circle::new(v(3.001, 1.0), 1.0));
    let s = judge((bx, Vec2::ZERO, 0.1), (apart, v(1.0, 0.0), 0.0));
    assert_ne!(s.status, Overlapping);
}

#[test]
fn bad_input_is_a_miss() {
    let laser = laser_obb(100.0);
    let disc = disc_at(0.5, 40.0, 0.1);
    let inf = f32::INFINITY;
    let nan = f32::NAN;
    let miss = |s: Sweep| s.status == Miss;
    // The good case hits.
    assert!(sweep_turning(&laser, Vec2::ZERO, 1.0, &disc, Vec2::ZERO, 0.0).is_hit());
    for turn in [
        nan,
        inf,
        -inf,
        MAX_TURN.next_up(),
        -MAX_TURN.next_up(),
        1.0e4,
    ] {
        assert!(miss(sweep_turning(
            &laser,
            Vec2::ZERO,
            turn,
            &disc,
            Vec2::ZERO,
            0.0
        )));
        assert!(miss(sweep_turning(
            &disc,
            Vec2::ZERO,
            0.0,
            &laser,
            Vec2::ZERO,
            turn
        )));
    }
    for m in [v(nan, 0.0), v(0.0, inf), v(-inf, 1.0)] {
        assert!(miss(sweep_turning(&laser, m, 1.0, &disc, Vec2::ZERO, 0.0)));
        assert!(miss(sweep_turning(&laser, Vec2::ZERO, 1.0, &disc, m, 0.0)));
    }
    let bad = [
        Shape::Circle(Circle::new(v(nan, 0.0), 1.0)),
        Shape::Circle(Circle::new(v(35.0, 19.0), -1.0)),
        Shape::Circle(Circle::new(v(35.0, 19.0), inf)),
        Shape::Capsule(Capsule::new(v(0.0, 0.0), v(inf, 0.0), 1.0)),
        Shape::Capsule(Capsule::new(v(0.0, 0.0), v(40.0, 20.0), -0.5)),
        Shape::Obb2(Obb2::new(v(35.0, 19.0), Vec2::ZERO, v(1.0, 1.0))),
        Shape::Obb2(Obb2::new(v(35.0, 19.0), Vec2::X, v(-1.0, 1.0))),
        Shape::Obb2(Obb2::new(v(35.0, 19.0), v(nan, 0.0), v(1.0, 1.0))),
        Shape::Aabb(Aabb::from_coords(36.0, 19.0, 34.0, 21.0)),
        Shape::Aabb(Aabb::from_coords(nan, 19.0, 36.0, 21.0)),
    ];
    for b in bad {
        assert!(
            miss(sweep_turning(&laser, Vec2::ZERO, 1.0, &b, Vec2::ZERO, 0.0)),
            "{b:?}"
        );
        assert!(
            miss(sweep_turning(&b, Vec2::ZERO, 0.0, &laser, Vec2::ZERO, 1.0)),
            "{b:?}"
        );
        assert!(
            miss(sweep_turning(&b, Vec2::ZERO, 2.0, &disc, Vec2::ZERO, 0.0)),
            "{b:?}"
        );
    }
    // The limit itself is good input.
    let s = sweep_turning(&laser, Vec2::ZERO, MAX_TURN, &disc, Vec2::ZERO, 0.0);
    assert!(s.is_hit(), "{s:?}");
}

#[test]
fn the_tolerance_constants() {
    assert_eq!(TURN_TOLERANCE, 1.0 / 4096.0);
    assert_eq!(TURN_TOLERANCE_FLOOR, 1.0 / 4_194_304.0);
    // A graze just outside the tolerance is a miss; one inside it is a hit.
    // The laser reaches 50.0000...; tol = (1·50.000025 + 50.000025 + 1) / 4096 + far·2⁻²².
    let laser = Shape::Obb2(Obb2::new(Vec2::ZERO, Vec2::X, v(50.0, 0.05)));
    let reach = (50.0f64 * 50.0 + 0.05 * 0.05).sqrt();
    let tol = (reach + reach + 1.0) / 4096.0 + (reach + 1.0) / 4_194_304.0;
    let far = disc_at(1.0, (reach + 1.0 + 2.0 * tol) as f32, 1.0);
    let near = disc_at(0.5, (reach + 1.0 + 0.5 * tol) as f32, 1.0);
    let s = judge((laser, Vec2::ZERO, 1.0), (far, Vec2::ZERO, 0.0));
    assert_eq!(s.status, Miss, "{s:?}");
    let s = judge((laser, Vec2::ZERO, 1.0), (near, Vec2::ZERO, 0.0));
    assert_eq!(s.status, Hit, "{s:?}");
}
