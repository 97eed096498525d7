//! The capsule sweeps (`sweep_capsule_aabb`, `_circle`, `_obb2`, `_capsule`): the
//! documented statuses, the seeds' edge cases (touching at both ends of the frame, zero
//! motion on an axis, zero radius, parallel segments, huge speeds, coordinates near
//! 10⁶, a capsule whose ends are equal against the disc kernels, NaN/∞), the first
//! contact and no tunnelling at any speed against the f64 distance oracle, no
//! penetration at the stop, and the batches at every level, thread count and input
//! kind. Seeded loops on hantei's own generator.

use crate::narrow_common;

use crate::capsule_oracle as oracle;

use glam::Vec2;
use hantei::narrow::columns::{AabbSoa, CapsuleSoa, CircleSoa, MotionSoa, Obb2Soa};
use hantei::narrow::scalar::{
    sweep_aabb_circle, sweep_capsule_aabb, sweep_capsule_capsule, sweep_capsule_circle,
    sweep_capsule_obb2, sweep_circle_circle, sweep_circle_obb2,
};
use hantei::narrow::{PairSweep, Sweep, SweepStatus};
use hantei::rng::Rng;
use hantei::{Aabb, Capsule, Circle, Obb2, Pair, SimdLevel};
use narrow_common::{narrow, pool, same_sweep};
use oracle::{Obb, P, Status};

use SweepStatus::{Hit, Miss, Overlapping};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn cap(ax: f32, ay: f32, bx: f32, by: f32, r: f32) -> Capsule {
    Capsule::new(v(ax, ay), v(bx, by), r)
}

fn p(x: Vec2) -> P {
    [f64::from(x.x), f64::from(x.y)]
}

fn at(q: P, m: P, t: f64) -> P {
    [q[0] + t * m[0], q[1] + t * m[1]]
}

/// The other shape of a capsule sweep.
#[derive(Debug, Clone, Copy)]
enum Other {
    Aabb(Aabb),
    Circle(Circle),
    Obb2(Obb2),
    Capsule(Capsule),
}

/// The kernel for `b`'s kind.
fn sweep(a: &Capsule, ma: Vec2, b: &Other, mb: Vec2) -> Sweep {
    match b {
        Other::Aabb(b) => sweep_capsule_aabb(a, ma, b, mb),
        Other::Circle(b) => sweep_capsule_circle(a, ma, b, mb),
        Other::Obb2(b) => sweep_capsule_obb2(a, ma, b, mb),
        Other::Capsule(b) => sweep_capsule_capsule(a, ma, b, mb),
    }
}

/// The f64 distance between `a`'s segment, moved by `da`, and `b`'s core (its box, its
/// center, its segment), moved by `db`; and the contact distance.
fn distance(a: &Capsule, da: P, b: &Other, db: P) -> (f64, f64) {
    let (a0, a1) = (at(p(a.a), da, 1.0), at(p(a.b), da, 1.0));
    let r = f64::from(a.radius);
    match b {
        Other::Aabb(b) => (
            oracle::segment_box(a0, a1, at(p(b.min), db, 1.0), at(p(b.max), db, 1.0)),
            r,
        ),
        Other::Circle(c) => (
            oracle::point_segment(at(p(c.center), db, 1.0), a0, a1),
            r + f64::from(c.radius),
        ),
        Other::Obb2(o) => {
            let o = Obb {
                center: at(p(o.center), db, 1.0),
                axis: p(o.axis),
                half: p(o.half_extents),
            };
            (oracle::segment_obb(a0, a1, &o), r)
        }
        Other::Capsule(c) => (
            oracle::segment_segment(a0, a1, at(p(c.a), db, 1.0), at(p(c.b), db, 1.0)),
            r + f64::from(c.radius),
        ),
    }
}

/// Judges `s` against the oracle, and checks the stop: `a` moved by it in f32 keeps at
/// least the contact distance to `b` (no penetration), and the normal is a unit vector
/// along which `a` moves away from `b`.
fn check(a: &Capsule, ma: Vec2, b: &Other, mb: Vec2, s: &Sweep, tol: f64, what: &str) {
    let (va, vb) = (p(ma), p(mb));
    let dist = |t: f64| distance(a, [t * va[0], t * va[1]], b, [t * vb[0], t * vb[1]]).0;
    let (_, r) = distance(a, [0.0; 2], b, [0.0; 2]);
    let status = match s.status {
        Miss => Status::Miss,
        Hit => Status::Hit,
        Overlapping => Status::Overlapping,
    };
    if let Err(e) = oracle::judge(&dist, r, status, f64::from(s.t), tol) {
        panic!("{what}: {s:?}: {e}");
    }
    if s.is_hit() {
        assert!((s.normal.length() - 1.0).abs() < 1e-5, "{what}: {s:?}");
        let moved = a.translated(s.stop);
        let (d, r) = distance(&moved, [0.0; 2], b, [0.0; 2]);
        assert!(d >= r, "{what}: {s:?}: penetrates at the stop: {d} < {r}");
        // Moving on along the normal does not bring `a` closer.
        let on = a.translated(s.stop + s.normal * (r as f32 * 1e-3 + 1e-3));
        let (d2, _) = distance(&on, [0.0; 2], b, [0.0; 2]);
        assert!(
            d2 >= d - 1e-6 * (1.0 + d),
            "{what}: {s:?}: the normal points in"
        );
    }
}

// ---------------------------------------------------------------------------------------
// Statuses and the seeds' edge cases
// ---------------------------------------------------------------------------------------

#[test]
fn touching_at_either_end_of_the_frame_and_sliding() {
    // A horizontal capsule (r = 1) resting on a disc (r = 1) at distance 2: touching.
    let a = cap(-2.0, 0.0, 2.0, 0.0, 1.0);
    let d = Circle::new(v(0.0, -2.0), 1.0);
    // Moving in: a hit at t = 0, the normal up (toward a).
    let s = sweep_capsule_circle(&a, v(0.0, -1.0), &d, Vec2::ZERO);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.0, v(0.0, 1.0)), "{s:?}");
    // Sliding along or moving away: overlapping.
    for m in [v(1.0, 0.0), v(0.0, 1.0), Vec2::ZERO] {
        let s = sweep_capsule_circle(&a, m, &d, Vec2::ZERO);
        assert_eq!(s.status, Overlapping, "{m:?}: {s:?}");
    }
    // Touching exactly at t = 1: a hit.
    let s = sweep_capsule_circle(
        &a,
        v(0.0, -4.0),
        &Circle::new(v(0.0, -6.0), 1.0),
        Vec2::ZERO,
    );
    assert_eq!((s.status, s.t), (Hit, 1.0), "{s:?}");
    // One short of it: a miss, with the whole relative motion as the stop.
    let s = sweep_capsule_circle(
        &a,
        v(0.0, -4.0),
        &Circle::new(v(0.0, -7.0), 1.0),
        v(1.0, 0.0),
    );
    assert_eq!((s.status, s.t, s.stop), (Miss, 1.0, v(-1.0, -4.0)), "{s:?}");
    // The same with a box, a rotated box and a capsule in the disc's place.
    let floor = Aabb::from_coords(-10.0, -3.0, 10.0, -1.0);
    let s = sweep_capsule_aabb(&a, v(0.0, -1.0), &floor, Vec2::ZERO);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.0, v(0.0, 1.0)), "{s:?}");
    let s = sweep_capsule_aabb(&a, v(3.0, 0.0), &floor, Vec2::ZERO);
    assert_eq!(s.status, Overlapping, "{s:?}");
    let slab = Obb2::new(v(0.0, -2.0), Vec2::NEG_X, v(10.0, 1.0));
    let s = sweep_capsule_obb2(&a, v(0.0, -1.0), &slab, Vec2::ZERO);
    assert_eq!((s.status, s.t), (Hit, 0.0), "{s:?}");
    assert!((s.normal - v(0.0, 1.0)).length() < 1e-6, "{s:?}");
    let under = cap(-3.0, -1.0, 3.0, -1.0, 0.0);
    let s = sweep_capsule_capsule(&a, v(0.0, -1.0), &under, Vec2::ZERO);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.0, v(0.0, 1.0)), "{s:?}");
    let s = sweep_capsule_capsule(&a, v(-1.0, 0.0), &under, Vec2::ZERO);
    assert_eq!(s.status, Overlapping, "{s:?}");
}

#[test]
fn parallel_segments_zero_radius_and_zero_motion_on_an_axis() {
    // Two parallel horizontal capsules closing vertically: t = (gap - r) / speed.
    let a = cap(0.0, 10.0, 4.0, 10.0, 0.5);
    let b = cap(-1.0, 0.0, 3.0, 0.0, 0.5);
    let s = sweep_capsule_capsule(&a, v(0.0, -18.0), &b, Vec2::ZERO);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.5, v(0.0, 1.0)), "{s:?}");
    // Collinear segments of zero radius, end to end, one moving along the line: they
    // meet when the ends meet (the vertex discs shrink to points on the line).
    let a = cap(0.0, 0.0, 1.0, 0.0, 0.0);
    let b = cap(3.0, 0.0, 5.0, 0.0, 0.0);
    let s = sweep_capsule_capsule(&a, v(4.0, 0.0), &b, Vec2::ZERO);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.5, v(-1.0, 0.0)), "{s:?}");
    // Side by side on parallel lines a hair apart, sliding along: never touch.
    let c = cap(3.0, 1e-3, 5.0, 1e-3, 0.0);
    assert_eq!(
        sweep_capsule_capsule(&a, v(4.0, 0.0), &c, Vec2::ZERO).status,
        Miss
    );
    // A segment (r = 0) crossing a point (a disc of r = 0) at its middle.
    let seg = cap(0.0, -1.0, 0.0, 1.0, 0.0);
    let dot = Circle::new(v(5.0, 0.0), 0.0);
    let s = sweep_capsule_circle(&seg, v(10.0, 0.0), &dot, Vec2::ZERO);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.5, v(-1.0, 0.0)), "{s:?}");
    // Zero motion on one axis against every kind, against the oracle.
    let a = cap(-1.0, 2.0, 1.0, 3.0, 0.25);
    for b in [
        Other::Aabb(Aabb::from_coords(4.0, -1.0, 5.0, 6.0)),
        Other::Circle(Circle::new(v(5.0, 2.5), 1.0)),
        Other::Obb2(Obb2::from_angle(v(5.0, 2.0), v(1.0, 3.0), 0.3)),
        Other::Capsule(cap(5.0, -2.0, 5.0, 8.0, 0.0)),
    ] {
        for m in [v(10.0, 0.0), v(0.0, 10.0), v(-10.0, 0.0), Vec2::ZERO] {
            let s = sweep(&a, m, &b, Vec2::ZERO);
            check(&a, m, &b, Vec2::ZERO, &s, 1e-5, &format!("{b:?} {m:?}"));
        }
    }
}

#[test]
fn bad_input_is_a_miss() {
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let good = cap(0.0, 0.0, 1.0, 0.0, 1.0);
    let m = v(10.0, 0.0);
    let others = [
        Other::Aabb(Aabb::from_coords(3.0, -1.0, 4.0, 1.0)),
        Other::Circle(Circle::new(v(3.0, 0.0), 1.0)),
        Other::Obb2(Obb2::new(v(3.0, 0.0), Vec2::X, v(1.0, 1.0))),
        Other::Capsule(cap(3.0, -1.0, 3.0, 1.0, 1.0)),
    ];
    for b in others {
        // The good input hits.
        assert!(sweep(&good, m, &b, Vec2::ZERO).is_hit(), "{b:?}");
        for (a, ma, mb) in [
            (cap(nan, 0.0, 1.0, 0.0, 1.0), m, Vec2::ZERO),
            (cap(0.0, 0.0, inf, 0.0, 1.0), m, Vec2::ZERO),
            (cap(0.0, 0.0, 1.0, 0.0, -1.0), m, Vec2::ZERO),
            (cap(0.0, 0.0, 1.0, 0.0, nan), m, Vec2::ZERO),
            (good, v(inf, 0.0), Vec2::ZERO),
            (good, m, v(0.0, nan)),
        ] {
            let s = sweep(&a, ma, &b, mb);
            assert_eq!(
                (s.status, s.t, s.normal),
                (Miss, 1.0, Vec2::ZERO),
                "{a:?} {b:?}"
            );
        }
    }
    // The other shape's own defects.
    let bad = [
        Other::Aabb(Aabb::from_coords(4.0, -1.0, 3.0, 1.0)),
        Other::Circle(Circle::new(v(3.0, 0.0), -1.0)),
        Other::Obb2(Obb2::new(v(3.0, 0.0), Vec2::X, v(-1.0, 1.0))),
        Other::Obb2(Obb2::new(v(3.0, 0.0), v(nan, 0.0), v(1.0, 1.0))),
        Other::Capsule(cap(3.0, -1.0, 3.0, 1.0, -1.0)),
        Other::Capsule(cap(3.0, -1.0, 3.0, inf, 1.0)),
    ];
    for b in bad {
        assert_eq!(sweep(&good, m, &b, Vec2::ZERO).status, Miss, "{b:?}");
    }
    // Checked construction refuses the same capsules.
    assert!(Capsule::try_new(v(nan, 0.0), Vec2::ZERO, 1.0).is_err());
    assert!(Capsule::try_new(Vec2::ZERO, v(inf, 0.0), 1.0).is_err());
    assert!(Capsule::try_new(Vec2::ZERO, Vec2::X, -0.5).is_err());
    assert!(Capsule::try_new(Vec2::ZERO, Vec2::X, f32::NAN).is_err());
    assert!(Capsule::try_new(Vec2::ZERO, Vec2::ZERO, 0.0).is_ok());
}

#[test]
fn a_capsule_whose_ends_are_equal_is_a_disc() {
    let mut rng = Rng::new(0xd15c);
    let mut hits = 0;
    for _ in 0..20_000 {
        let mut g = |s: f32| rng.range_f32(-s, s);
        let c = v(g(10.0), g(10.0));
        let (ra, rb) = (g(2.0).abs(), g(2.0).abs());
        let a = Capsule::new(c, c, ra);
        let disc = Circle::new(c, ra);
        let (ma, mb) = (v(g(20.0), g(20.0)), v(g(5.0), g(5.0)));
        // Against a disc: the disc kernel's status, t and normal, bit for bit.
        let b = Circle::new(v(g(10.0), g(10.0)), rb);
        let s = sweep_capsule_circle(&a, ma, &b, mb);
        let w = sweep_circle_circle(&disc, ma, &b, mb);
        assert_eq!(
            (
                s.status,
                s.t.to_bits(),
                s.normal.x.to_bits(),
                s.normal.y.to_bits()
            ),
            (
                w.status,
                w.t.to_bits(),
                w.normal.x.to_bits(),
                w.normal.y.to_bits()
            ),
            "{a:?} {ma:?} {b:?} {mb:?}: {s:?} vs {w:?}"
        );
        hits += usize::from(s.is_hit());
        // Against a box and a rotated box: the disc kernels' answers up to rounding (the
        // roles swap for the box, so its normal turns around).
        let lo = v(g(10.0), g(10.0));
        let bx = Aabb::new(lo, lo + v(g(4.0).abs(), g(4.0).abs()));
        let s = sweep_capsule_aabb(&a, ma, &bx, mb);
        let w = sweep_aabb_circle(&bx, mb, &disc, ma);
        let what = format!("{a:?} {ma:?} {bx:?} {mb:?}: {s:?} vs {w:?}");
        if s.status != w.status {
            // Only at a tie: the oracle's distance within rounding of the radius.
            let d = oracle::point_box(p(c), p(bx.min), p(bx.max));
            let near = (d - f64::from(ra)).abs() < 1e-4 || s.t > 0.999 || w.t > 0.999;
            assert!(near || s.t < 1e-4 || w.t < 1e-4, "{what}");
        } else if s.is_hit() {
            assert!((s.t - w.t).abs() < 1e-4, "{what}");
            assert!((s.normal + w.normal).length() < 1e-3, "{what}");
        }
        let o = Obb2::from_angle(v(g(10.0), g(10.0)), v(g(3.0).abs(), g(3.0).abs()), g(4.0));
        let s = sweep_capsule_obb2(&a, ma, &o, mb);
        let w = sweep_circle_obb2(&disc, ma, &o, mb);
        if s.status == w.status && s.is_hit() {
            assert!((s.t - w.t).abs() < 1e-4, "{s:?} vs {w:?}");
            assert!((s.normal - w.normal).length() < 1e-3, "{s:?} vs {w:?}");
        } else if s.status != w.status {
            assert!(
                s.t > 0.999 || w.t > 0.999 || s.t < 1e-4 || w.t < 1e-4,
                "{s:?} vs {w:?}"
            );
        }
    }
    assert!(hits > 1_000, "{hits}");
}

// ---------------------------------------------------------------------------------------
// The first contact, no tunnelling, no penetration: seeded random sweeps
// ---------------------------------------------------------------------------------------

/// A random capsule near `o` of scale `s`: now and then a disc (ends equal), a plain
/// segment (r = 0), or axis-parallel.
fn capsule_at(rng: &mut Rng, o: Vec2, s: f32) -> Capsule {
    let a = o + v(rng.range_f32(-s, s), rng.range_f32(-s, s));
    let b = match rng.below(6) {
        0 => a,
        1 => a + v(rng.range_f32(-s, s), 0.0),
        2 => a + v(0.0, rng.range_f32(-s, s)),
        _ => a + v(rng.range_f32(-s, s), rng.range_f32(-s, s)),
    };
    let r = if rng.below(5) == 0 {
        0.0
    } else {
        rng.range_f32(0.0, 0.3 * s)
    };
    Capsule::new(a, b, r)
}

fn other_at(rng: &mut Rng, o: Vec2, s: f32, kind: u32, a: &Capsule) -> Other {
    let c = o + v(rng.range_f32(-s, s), rng.range_f32(-s, s));
    let h = v(rng.range_f32(0.0, 0.5 * s), rng.range_f32(0.0, 0.5 * s));
    match kind {
        0 => Other::Aabb(Aabb::from_center_half_extents(c, h)),
        1 => Other::Circle(Circle::new(c, rng.range_f32(0.0, 0.3 * s))),
        2 => Other::Obb2(Obb2::from_angle(c, h, rng.range_f32(-4.0, 4.0))),
        _ if rng.below(4) == 0 => {
            // Parallel to `a`.
            let d = c - a.a;
            Other::Capsule(Capsule::new(a.a + d, a.b + d, rng.range_f32(0.0, 0.3 * s)))
        }
        _ => Other::Capsule(capsule_at(rng, o, s)),
    }
}

#[test]
fn random_sweeps_hit_first_never_tunnel_and_stop_outside() {
    let mut rng = Rng::new(0xca95_1eed);
    let mut counts = [[0usize; 3]; 4];
    for round in 0..40_000 {
        let kind = round % 4;
        // Scales: unit, large, and small shapes near 10⁶.
        let (o, s) = match round / 4 % 3 {
            0 => (Vec2::ZERO, 4.0),
            1 => (Vec2::ZERO, 1000.0),
            _ => (v(1.0e6, -1.0e6), 4.0),
        };
        let a = capsule_at(&mut rng, o, s);
        let b = other_at(&mut rng, o, s, kind as u32, &a);
        // Speeds from a crawl to a huge multiple of the shapes' size.
        let speed = s * 10f32.powf(rng.range_f32(-1.0, 5.0));
        let m = |rng: &mut Rng| {
            let t = rng.range_f32(0.0, core::f32::consts::TAU);
            v(t.cos(), t.sin()) * speed * rng.range_f32(0.0, 1.0)
        };
        let (ma, mb) = match rng.below(4) {
            0 => (m(&mut rng), Vec2::ZERO),
            1 => (Vec2::ZERO, m(&mut rng)),
            2 => (v(m(&mut rng).x, 0.0), Vec2::ZERO),
            _ => (m(&mut rng), m(&mut rng)),
        };
        let s_ = sweep(&a, ma, &b, mb);
        let mag = [o.abs().max_element() + 2.0 * s, ma.length(), mb.length()]
            .iter()
            .fold(0.0f32, |x, &y| x.max(y));
        // About eight ulps of the largest magnitude.
        let tol = 1.0e-6 * f64::from(mag);
        check(
            &a,
            ma,
            &b,
            mb,
            &s_,
            tol,
            &format!("{round}: {a:?} {ma:?} {b:?} {mb:?}"),
        );
        counts[kind][s_.status as usize] += 1;
    }
    for c in counts {
        assert!(c.iter().all(|&n| n > 300), "{counts:?}");
    }
}

#[test]
fn fast_bullets_crossing_thin_lasers_are_caught_at_any_angle_and_speed() {
    let mut rng = Rng::new(0x1a5e_cab0);
    let mut caught = 0;
    for (origin, thick) in [
        (Vec2::ZERO, 0.01),
        (v(1.0e6, 1.0e6), 0.25),
        (Vec2::ZERO, 0.0),
    ] {
        for k in 0..4000 {
            let c = origin + v(rng.range_f32(-5.0, 5.0), rng.range_f32(-5.0, 5.0));
            let turn = rng.range_f32(-4.0, 4.0);
            let half = rng.range_f32(1.0, 20.0);
            let u = v(turn.cos(), turn.sin());
            let laser = Capsule::new(c - u * half, c + u * half, thick);
            // Aimed across the laser, maybe past its ends, from far away.
            let angle = rng.range_f32(0.0, core::f32::consts::TAU);
            let dir = v(angle.cos(), angle.sin());
            let aim = c + u * half * rng.range_f32(-1.2, 1.2);
            let speed = 10f32.powf(rng.range_f32(0.0, 6.0));
            let start = aim - dir * (speed * rng.range_f32(0.1, 0.9));
            let bullet: Other = match k % 3 {
                0 => Other::Circle(Circle::new(start, 0.02)),
                1 => Other::Capsule(Capsule::new(start - dir * 0.5, start, 0.02)),
                _ => Other::Obb2(Obb2::new(start, dir, v(0.5, 0.02))),
            };
            let ml = v(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0));
            let mb = dir * speed + ml;
            let s = sweep(&laser, ml, &bullet, mb);
            let mag = origin.abs().max_element() + 40.0 + speed;
            let what = format!("{k}: {laser:?} {ml:?} {bullet:?} {mb:?}");
            check(&laser, ml, &bullet, mb, &s, 1.0e-6 * f64::from(mag), &what);
            caught += usize::from(s.is_hit());
        }
    }
    assert!(caught > 4000, "{caught}");
}

// ---------------------------------------------------------------------------------------
// The batches
// ---------------------------------------------------------------------------------------

fn same_list(got: &[PairSweep], want: &[PairSweep]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.pair == w.pair && same_sweep(&g.sweep, &w.sweep))
}

#[test]
fn batches_match_the_scalar_kernels_at_every_level_thread_count_and_input() {
    for (n, seed) in [(1, 1), (9, 2), (300, 3), (3000, 4)] {
        let mut rng = Rng::new(seed);
        let special = |rng: &mut Rng, x: f32| {
            if rng.below(60) == 0 {
                narrow_common::special(rng)
            } else {
                x
            }
        };
        let capsules: Vec<Capsule> = (0..n)
            .map(|_| {
                let c = capsule_at(&mut rng, Vec2::ZERO, 8.0);
                Capsule::new(c.a, c.b, special(&mut rng, c.radius))
            })
            .collect();
        let pick = |rng: &mut Rng, k: u32, a: &Capsule| other_at(rng, Vec2::ZERO, 8.0, k, a);
        let boxes: Vec<Aabb> = (0..n)
            .map(|i| match pick(&mut rng, 0, &capsules[i]) {
                Other::Aabb(b) => b,
                _ => unreachable!(),
            })
            .collect();
        let circles: Vec<Circle> = (0..n)
            .map(|i| match pick(&mut rng, 1, &capsules[i]) {
                Other::Circle(b) => b,
                _ => unreachable!(),
            })
            .collect();
        let obbs: Vec<Obb2> = (0..n)
            .map(|i| match pick(&mut rng, 2, &capsules[i]) {
                Other::Obb2(b) => b,
                _ => unreachable!(),
            })
            .collect();
        let motion = |rng: &mut Rng| {
            let x = rng.range_f32(-15.0, 15.0);
            v(special(rng, x), rng.range_f32(-15.0, 15.0))
        };
        let mc: Vec<Vec2> = (0..n).map(|_| motion(&mut rng)).collect();
        let mo: Vec<Vec2> = (0..n).map(|_| motion(&mut rng)).collect();
        let pairs: Vec<Pair> = (0..4 * n + 3)
            .map(|_| Pair::new(rng.below(n as u32), rng.below(n as u32)))
            .collect();
        let want = |f: &dyn Fn(usize, usize) -> Sweep| -> Vec<PairSweep> {
            pairs
                .iter()
                .filter_map(|&p| {
                    let s = f(p.a as usize, p.b as usize);
                    (s.status != Miss).then_some(PairSweep { pair: p, sweep: s })
                })
                .collect()
        };
        let w_aabb = want(&|i, j| sweep_capsule_aabb(&capsules[i], mc[i], &boxes[j], mo[j]));
        let w_circle = want(&|i, j| sweep_capsule_circle(&capsules[i], mc[i], &circles[j], mo[j]));
        let w_obb = want(&|i, j| sweep_capsule_obb2(&capsules[i], mc[i], &obbs[j], mo[j]));
        let w_cap = want(&|i, j| sweep_capsule_capsule(&capsules[i], mc[i], &capsules[j], mc[j]));
        if n >= 300 {
            for w in [&w_aabb, &w_circle, &w_obb, &w_cap] {
                let hits = w.iter().filter(|h| h.sweep.is_hit()).count();
                assert!(hits > 10 && hits < pairs.len() / 2, "{hits}");
            }
        }
        let cs = CapsuleSoa::from(&capsules[..]);
        let (bs, ds, os) = (
            AabbSoa::from(&boxes[..]),
            CircleSoa::from(&circles[..]),
            Obb2Soa::from(&obbs[..]),
        );
        let (mcs, mos) = (MotionSoa::from(&mc[..]), MotionSoa::from(&mo[..]));
        for &level in SimdLevel::available() {
            for threads in [1, 2, 4] {
                pool(threads).install(|| {
                    let mut np = narrow(level, threads > 1);
                    let what = format!("n={n} {level:?} x{threads}");
                    let (c, m, o) = (cs.columns(), mcs.columns(), mos.columns());
                    let got = np
                        .sweep_capsule_aabb(c, m, bs.columns(), o, &pairs)
                        .unwrap();
                    assert!(same_list(got, &w_aabb), "aabb columns {what}");
                    let got = np
                        .sweep_capsule_aabb(&capsules[..], &mc[..], &boxes[..], &mo[..], &pairs)
                        .unwrap();
                    assert!(same_list(got, &w_aabb), "aabb records {what}");
                    let got = np
                        .sweep_capsule_circle(c, m, ds.columns(), o, &pairs)
                        .unwrap();
                    assert!(same_list(got, &w_circle), "circle columns {what}");
                    let got = np
                        .sweep_capsule_circle(&capsules[..], &mc[..], &circles[..], &mo[..], &pairs)
                        .unwrap();
                    assert!(same_list(got, &w_circle), "circle records {what}");
                    let got = np
                        .sweep_capsule_obb2(c, m, os.columns(), o, &pairs)
                        .unwrap();
                    assert!(same_list(got, &w_obb), "obb2 columns {what}");
                    let got = np
                        .sweep_capsule_obb2(&capsules[..], &mc[..], &obbs[..], &mo[..], &pairs)
                        .unwrap();
                    assert!(same_list(got, &w_obb), "obb2 records {what}");
                    let got = np.sweep_capsule_capsule(c, m, &pairs).unwrap();
                    assert!(same_list(got, &w_cap), "capsule columns {what}");
                    let got = np
                        .sweep_capsule_capsule(&capsules[..], &mc[..], &pairs)
                        .unwrap();
                    assert!(same_list(got, &w_cap), "capsule records {what}");
                });
            }
        }
        // Bad input: a pair out of range on either side, motions that do not match.
        let mut np = narrow(SimdLevel::best(), false);
        for bad in [Pair::new(n as u32, 0), Pair::new(0, n as u32)] {
            assert!(
                np.sweep_capsule_aabb(&capsules[..], &mc[..], &boxes[..], &mo[..], &[bad])
                    .is_err()
            );
            assert!(
                np.sweep_capsule_circle(&capsules[..], &mc[..], &circles[..], &mo[..], &[bad])
                    .is_err()
            );
            assert!(
                np.sweep_capsule_obb2(&capsules[..], &mc[..], &obbs[..], &mo[..], &[bad])
                    .is_err()
            );
            assert!(
                np.sweep_capsule_capsule(&capsules[..], &mc[..], &[bad])
                    .is_err()
            );
        }
        assert!(
            np.sweep_capsule_aabb(&capsules[..], &mc[..n - 1], &boxes[..], &mo[..], &pairs)
                .is_err()
        );
        assert!(
            np.sweep_capsule_obb2(&capsules[..], &mc[..], &obbs[..], &mo[..n - 1], &pairs)
                .is_err()
        );
        assert!(
            np.sweep_capsule_capsule(&capsules[..], &mc[..n - 1], &pairs)
                .is_err()
        );
    }
}
