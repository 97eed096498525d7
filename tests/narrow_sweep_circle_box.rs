//! Swept AABB–circle and circle–OBB: the documented statuses, the seeds' edge cases
//! (touching at both ends of the frame, exact corner hits, zero radius against the
//! moving point, zero motion on an axis, near-parallel edges, huge speeds, coordinates
//! near 10⁶, NaN/∞), the first contact (apart just before, touching at it), no
//! tunnelling at any speed, no penetration at the stop, an f64 oracle (the rounded box
//! in f64, every corner disc tried), and the batches at every level, thread count and
//! input kind.

use crate::narrow_common;

use glam::Vec2;
use hantei::narrow::columns::{AabbSoa, CircleSoa, MotionSoa, Obb2Soa};
use hantei::narrow::scalar::{cast_point_aabb, sweep_aabb_circle, sweep_circle_obb2};
use hantei::narrow::{PairSweep, Sweep, SweepStatus};
use hantei::rng::Rng;
use hantei::{Aabb, Circle, Obb2, Pair, Ray, SimdLevel};
use narrow_common::*;

use SweepStatus::{Hit, Miss, Overlapping};

fn c(x: f32, y: f32, r: f32) -> Circle {
    Circle::new(Vec2::new(x, y), r)
}

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

fn b(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
    Aabb::from_coords(x0, y0, x1, y1)
}

/// The box `a` still, the disc `b` moving by `m` (the box's view: it moves by `-m`).
fn sweep(a: Aabb, d: Circle, m: Vec2) -> Sweep {
    sweep_aabb_circle(&a, Vec2::ZERO, &d, m)
}

// ---------------------------------------------------------------------------------------
// The f64 oracle: a disc's center moving against the box grown by r with rounded
// corners, in the box's frame: the two slabs and all four corner discs, the earliest.
// ---------------------------------------------------------------------------------------

type P = [f64; 2];

/// The oracle's answer: status, time, and the rounded box's outward normal.
#[derive(Debug, Clone, Copy)]
struct Round64 {
    status: SweepStatus,
    t: f64,
    normal: P,
}

fn slab64(lo: f64, hi: f64, c: f64, w: f64) -> (f64, f64) {
    if w == 0.0 {
        if lo <= c && c <= hi {
            (f64::NEG_INFINITY, f64::INFINITY)
        } else {
            (f64::INFINITY, f64::NEG_INFINITY)
        }
    } else {
        let (t0, t1) = ((lo - c) / w, (hi - c) / w);
        (t0.min(t1), t0.max(t1))
    }
}

/// Distance from `p` to the box `[lo, hi]`, and the vector from its closest point.
fn off64(lo: P, hi: P, p: P) -> (f64, P) {
    let q = [p[0].clamp(lo[0], hi[0]), p[1].clamp(lo[1], hi[1])];
    let e = [p[0] - q[0], p[1] - q[1]];
    (e[0].hypot(e[1]), e)
}

/// The first contact of a disc (radius `r`, center `c` moving by `w`) with the box.
fn rounded64(lo: P, hi: P, c: P, w: P, r: f64) -> Round64 {
    let (d0, e0) = off64(lo, hi, c);
    let miss = Round64 {
        status: Miss,
        t: 1.0,
        normal: [0.0; 2],
    };
    let over = Round64 {
        status: Overlapping,
        t: 0.0,
        normal: [0.0; 2],
    };
    // The earliest entry into a slab or a corner disc, within [0, 1].
    let mut best = f64::INFINITY;
    for (gx, gy) in [(r, 0.0), (0.0, r)] {
        let (ix, ox) = slab64(lo[0] - gx, hi[0] + gx, c[0], w[0]);
        let (iy, oy) = slab64(lo[1] - gy, hi[1] + gy, c[1], w[1]);
        let (enter, exit) = (ix.max(iy), ox.min(oy));
        if enter <= exit && (0.0..=1.0).contains(&enter) {
            best = best.min(enter);
        }
    }
    if r > 0.0 {
        for k in [
            [lo[0], lo[1]],
            [hi[0], lo[1]],
            [lo[0], hi[1]],
            [hi[0], hi[1]],
        ] {
            let d = [c[0] - k[0], c[1] - k[1]];
            let (aa, bb) = (w[0] * w[0] + w[1] * w[1], d[0] * w[0] + d[1] * w[1]);
            let cc = d[0] * d[0] + d[1] * d[1] - r * r;
            let disc = bb * bb - aa * cc;
            if cc >= 0.0 && bb < 0.0 && disc >= 0.0 {
                let t = cc / (disc.sqrt() - bb);
                if t <= 1.0 {
                    best = best.min(t);
                }
            }
        }
    }
    if d0 < r {
        return over;
    }
    if d0 == r {
        let is_moving_in = if r > 0.0 {
            -(e0[0] * w[0] + e0[1] * w[1]) > 0.0
        } else {
            best == 0.0
        };
        if !is_moving_in {
            return over;
        }
    }
    if best > 1.0 {
        return miss;
    }
    let p = [c[0] + best * w[0], c[1] + best * w[1]];
    let (len, e) = off64(lo, hi, p);
    let normal = if len > 0.0 {
        [e[0] / len, e[1] / len]
    } else {
        [0.0; 2]
    };
    Round64 {
        status: Hit,
        t: best + 0.0, // no -0
        normal,
    }
}

/// The closest the center's path over the frame comes to the box (f64): a convex
/// function of t, minimised by golden-section search after a coarse scan.
fn closest64(lo: P, hi: P, c: P, w: P) -> f64 {
    let at = |t: f64| off64(lo, hi, [c[0] + t * w[0], c[1] + t * w[1]]).0;
    let n = 64;
    let k = (0..=n)
        .min_by(|&i, &j| at(i as f64 / n as f64).total_cmp(&at(j as f64 / n as f64)))
        .unwrap();
    let (mut a, mut b) = (
        (k.max(1) - 1) as f64 / n as f64,
        (k + 1).min(n) as f64 / n as f64,
    );
    for _ in 0..100 {
        let m1 = a + (b - a) * 0.381_966;
        let m2 = b - (b - a) * 0.381_966;
        if at(m1) <= at(m2) {
            b = m2;
        } else {
            a = m1;
        }
    }
    at(a).min(at(0.0)).min(at(1.0))
}

fn f(x: f32) -> f64 {
    f64::from(x)
}

/// The AABB–circle inputs in the oracle's terms (the disc moves relative to the box).
fn aabb_case(a: &Aabb, ma: Vec2, d: &Circle, md: Vec2) -> (P, P, P, P, f64) {
    (
        [f(a.min.x), f(a.min.y)],
        [f(a.max.x), f(a.max.y)],
        [f(d.center.x), f(d.center.y)],
        [f(md.x) - f(ma.x), f(md.y) - f(ma.y)],
        f(d.radius),
    )
}

/// The circle–OBB inputs in the oracle's terms: the box's frame, built in f64 from the
/// `f32` values (the axis normalised in f64).
fn obb_case(d: &Circle, md: Vec2, o: &Obb2, mo: Vec2) -> (P, P, P, P, f64, [P; 2]) {
    let len = f(o.axis.x).hypot(f(o.axis.y));
    let u = [f(o.axis.x) / len, f(o.axis.y) / len];
    let uy = [-u[1], u[0]];
    let dd = [f(d.center.x) - f(o.center.x), f(d.center.y) - f(o.center.y)];
    let vv = [f(md.x) - f(mo.x), f(md.y) - f(mo.y)];
    let dot = |p: P, q: P| p[0] * q[0] + p[1] * q[1];
    let h = [f(o.half_extents.x), f(o.half_extents.y)];
    (
        [-h[0], -h[1]],
        h,
        [dot(dd, u), dot(dd, uy)],
        [dot(vv, u), dot(vv, uy)],
        f(d.radius),
        [u, uy],
    )
}

/// The first contact: touching at `t` (within `tol`), apart just before, and the
/// normal unit; all in the box's frame in f64.
fn check_contact((lo, hi, c, w, r): (P, P, P, P, f64), s: &Sweep, tol: f64, what: &str) {
    let at = |t: f64| off64(lo, hi, [c[0] + t * w[0], c[1] + t * w[1]]).0;
    let t = f(s.t);
    assert!(
        (at(t) - r).abs() <= tol,
        "not touching at t: {} vs {r}: {what}",
        at(t)
    );
    if t > 1e-3 {
        assert!(at(t - 1e-3) > r - tol, "inside before t: {what}");
    }
    let n = f(s.normal.x).hypot(f(s.normal.y));
    assert!((n - 1.0).abs() < 1e-6, "normal not unit: {what}");
}

/// `a` (the box) translated by the stop does not overlap the disc (f64 on the f32 box).
fn check_aabb_stop(a: &Aabb, d: &Circle, s: &Sweep, what: &str) {
    let m = a.translated(s.stop);
    let (dist, _) = off64(
        [f(m.min.x), f(m.min.y)],
        [f(m.max.x), f(m.max.y)],
        [f(d.center.x), f(d.center.y)],
    );
    assert!(
        dist >= f(d.radius),
        "the stop penetrates by {}: {what}",
        f(d.radius) - dist
    );
}

/// The disc `a` moved by the stop does not overlap the oriented box (f64 on the f32
/// values).
fn check_obb_stop(d: &Circle, o: &Obb2, s: &Sweep, what: &str) {
    let moved = Circle::new(d.center + s.stop, d.radius);
    let (lo, hi, c, _, r, _) = obb_case(&moved, Vec2::ZERO, o, Vec2::ZERO);
    let (dist, _) = off64(lo, hi, c);
    assert!(dist >= r, "the stop penetrates by {}: {what}", r - dist);
}

// ---------------------------------------------------------------------------------------
// sweep_aabb_circle
// ---------------------------------------------------------------------------------------

#[test]
fn statuses_and_touching_at_the_ends_of_the_frame() {
    let wall = b(10.0, -5.0, 12.0, 5.0);
    // Head on into the left face: the gap of 10 - 1 closed at t = 0.9.
    let s = sweep(wall, c(0.0, 0.0, 1.0), v(10.0, 0.0));
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.9, v(1.0, 0.0)));
    // Touching exactly at the end of the frame: a hit at t = 1 (closed).
    let s = sweep(wall, c(0.0, 0.0, 1.0), v(9.0, 0.0));
    assert_eq!((s.status, s.t), (Hit, 1.0));
    // One ulp short: a miss, the stop the whole relative motion of the box.
    let s = sweep(wall, c(0.0, 0.0, 1.0), v(8.999_999, 0.0));
    assert_eq!((s.status, s.t, s.stop), (Miss, 1.0, v(-8.999_999, 0.0)));
    // Touching at rest and moving in: a hit at t = 0 on that face.
    let s = sweep(wall, c(9.0, 2.0, 1.0), v(1.0, 0.0));
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.0, v(1.0, 0.0)));
    // Touching at rest and sliding along or moving away: overlapping.
    for m in [v(0.0, 3.0), v(-1.0, 0.0), v(0.0, 0.0), v(0.0, -30.0)] {
        let s = sweep(wall, c(9.0, 2.0, 1.0), m);
        assert_eq!(
            (s.status, s.t, s.normal, s.stop),
            (Overlapping, 0.0, Vec2::ZERO, Vec2::ZERO),
            "{m:?}"
        );
    }
    // Touching a corner at rest (a 3-4-5 triangle) and moving in, or sliding along it.
    let s = sweep(wall, c(15.0, 9.0, 5.0), v(-1.0, -1.0));
    assert_eq!((s.status, s.t), (Hit, 0.0));
    assert!((s.normal - v(-0.6, -0.8)).length() < 1e-6, "{s:?}");
    let s = sweep(wall, c(15.0, 9.0, 5.0), v(4.0, -3.0));
    assert_eq!(s.status, Overlapping);
    // Overlapping at rest whatever the motion; both moving: only the relative motion.
    assert_eq!(
        sweep(wall, c(11.0, 0.0, 0.5), v(1e4, 3.0)).status,
        Overlapping
    );
    let d = c(0.0, 0.0, 1.0);
    let both = sweep_aabb_circle(&wall, v(-4.0, 1.0), &d, v(6.0, 1.0));
    assert_eq!(both, sweep(wall, d, v(10.0, 0.0)));
    // Moving away: a miss.
    assert_eq!(sweep(wall, d, v(-10.0, 0.0)).status, Miss);
}

#[test]
fn a_round_bullet_inside_the_bounding_box_but_outside_the_corner_never_touches() {
    // Danmaku: grazing a corner must not count. The disc's bounding box overlaps the
    // wall all along, the disc itself passes 0.05 outside the rounded corner.
    let wall = b(0.0, 0.0, 4.0, 4.0);
    let r = 1.0;
    let off = (r + 0.05) / 2f32.sqrt();
    for (k, dir) in [v(1.0, -1.0), v(-1.0, 1.0)].into_iter().enumerate() {
        let start = v(4.0 + off, 4.0 + off) - dir * 3.0;
        let s = sweep(wall, Circle::new(start, r), dir * 6.0);
        assert_eq!(s.status, Miss, "{k}: {s:?}");
    }
    // Aimed 0.05 closer: the corner's disc is hit where the path enters it, half a
    // chord (√(r² - 0.95²)) before the closest approach.
    let off = (r - 0.05) / 2f32.sqrt();
    let s = sweep(
        wall,
        Circle::new(v(4.0 + off - 3.0, 4.0 + off + 3.0), r),
        v(6.0, -6.0),
    );
    assert_eq!(s.status, Hit, "{s:?}");
    let half = (1.0 - 0.95f32 * 0.95).sqrt();
    let n = -v(0.95 - half, 0.95 + half) / 2f32.sqrt();
    assert!((s.normal - n).length() < 1e-5, "{s:?}");
}

#[test]
fn exact_corner_hits_and_tangent_grazes() {
    let wall = b(0.0, 0.0, 4.0, 4.0);
    // Aimed straight at the corner (4, 4) along a 3-4-5 diagonal, r = 5: contact when
    // the center is 5 from the corner, from 15 away: t = 10 / 15.
    let s = sweep(wall, c(13.0, 16.0, 5.0), v(-9.0, -12.0));
    assert_eq!(s.status, Hit);
    assert!(ulps(s.t, 10.0 / 15.0) <= 2, "{s:?}");
    assert!((s.normal - v(-0.6, -0.8)).length() < 1e-6, "{s:?}");
    // A path tangent to the corner's disc (closest distance exactly r): a hit.
    let s = sweep(wall, c(-4.0, 5.0, 1.0), v(12.0, 0.0));
    assert_eq!((s.status, s.t), (Hit, 1.0 / 3.0), "{s:?}"); // along the top, from x = 0
    assert_eq!(s.normal, v(0.0, -1.0));
    // The same path a hair higher: a miss.
    assert_eq!(
        sweep(wall, c(-4.0, 5.000_001, 1.0), v(12.0, 0.0)).status,
        Miss
    );
    // Crossing the corner square [4, 5]² through (4.9, 4.9), outside the disc: a miss.
    assert_eq!(sweep(wall, c(3.8, 6.0, 1.0), v(2.0, -2.0)).status, Miss);
}

#[test]
fn zero_radius_is_the_moving_point() {
    // With r = 0 the status and t are cast_point_aabb's bit for bit; the normal too
    // (turned around: it points from the point to the box) except at exact corners,
    // where cast_point_aabb sets both axes and this kernel x's.
    let mut rng = Rng::new(0x5eed_0b0c);
    let mut counts = [0usize; 3];
    for _ in 0..100_000 {
        let mut val = |r: u32| grid(&mut rng, r);
        let (x0, y0) = (val(4), val(4));
        let a = b(x0, y0, x0 + val(4).abs(), y0 + val(4).abs());
        let p = v(x0 + val(4), y0 + val(4));
        let (ma, md) = (v(val(8), val(8)), v(val(8), val(8)));
        let s = sweep_aabb_circle(&a, ma, &Circle::new(p, 0.0), md);
        let cast = cast_point_aabb(&Ray::new(p, md - ma), &a);
        let what = format!("{a:?} {ma:?} {p:?} {md:?}: {s:?} vs {cast:?}");
        assert_eq!(
            (s.status, s.t.to_bits()),
            (cast.status, cast.t.to_bits()),
            "{what}"
        );
        if s.is_hit() {
            let want = if cast.is_corner() {
                v(-cast.normal.x, 0.0)
            } else {
                -cast.normal
            };
            assert_eq!(s.normal, want, "{what}");
            check_aabb_stop(&a.translated(Vec2::ZERO), &Circle::new(p, 0.0), &s, &what);
        }
        counts[s.status as usize] += 1;
    }
    assert!(counts.iter().all(|&n| n > 3_000), "{counts:?}");
}

#[test]
fn zero_motion_on_an_axis_and_near_parallel_edges() {
    let wall = b(0.0, 0.0, 10.0, 1.0);
    // Straight down onto the top face (no x motion), and onto the top-right corner.
    let s = sweep(wall, c(5.0, 4.0, 1.0), v(0.0, -4.0));
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.5, v(0.0, -1.0)));
    let s = sweep(wall, c(10.6, 4.0, 1.0), v(0.0, -4.0));
    assert_eq!(s.status, Hit);
    assert!((s.normal - v(-0.6, -0.8)).length() < 1e-6, "{s:?}");
    // Sliding along the top at exactly r: touching all along, overlapping.
    assert_eq!(sweep(wall, c(-3.0, 2.0, 1.0), v(20.0, 0.0)).status, Hit); // grazes (0, 1)
    assert_eq!(
        sweep(wall, c(3.0, 2.0, 1.0), v(20.0, 0.0)).status,
        Overlapping
    );
    // Nearly parallel to the top face, 1e-4 above touching, sinking 1.1e-4 to 1e-3
    // over a run of 8: hits the face, at the time the gap closes.
    let start = c(1.0, 2.0001, 1.0);
    for k in 11..100 {
        let drop = k as f32 * 1e-5;
        let s = sweep(wall, start, v(8.0, -drop));
        assert_eq!((s.status, s.normal), (Hit, v(0.0, -1.0)), "{k}: {s:?}");
        let t = (f(start.center.y) - 2.0) / f(drop);
        assert!((f(s.t) - t).abs() < 1e-3 * t, "{k}: {s:?} vs {t}");
    }
}

#[test]
fn bad_input_never_hits() {
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let wall = b(0.0, 0.0, 1.0, 1.0);
    let d = c(3.0, 0.5, 1.0);
    for (a, m, d) in [
        (b(nan, 0.0, 1.0, 1.0), v(-5.0, 0.0), d),
        (wall, v(inf, 0.0), d),
        (wall, v(-5.0, 0.0), c(3.0, nan, 1.0)),
        (wall, v(-5.0, 0.0), c(3.0, 0.5, inf)),
        (wall, v(-5.0, 0.0), c(3.0, 0.5, -1.0)), // a negative radius
        (wall, v(0.0, 0.0), c(0.5, 0.5, -0.1)),  // "inside" by a negative radius
        (b(1.0, 0.0, 0.0, 1.0), v(-5.0, 0.0), d), // inverted
        (b(-3e38, 0.0, 3e38, 1.0), v(1e38, 0.0), d), // squares overflow
    ] {
        let s = sweep_aabb_circle(&a, m, &d, Vec2::ZERO);
        assert_eq!(
            (s.status, s.t, s.normal),
            (Miss, 1.0, Vec2::ZERO),
            "{a:?} {m:?} {d:?}"
        );
    }
}

#[test]
fn no_tunnelling_at_any_speed_near_the_origin_and_near_a_million() {
    let mut rng = Rng::new(1919);
    let mut crossings = 0;
    for (origin, thick) in [
        (Vec2::ZERO, 0.02),
        (v(1.0e6, -1.0e6), 2.0),
        (Vec2::ZERO, 0.0),
    ] {
        for k in 0..3000 {
            // A thin wall (or a zero-thickness laser) across x or y, and a tiny bullet
            // crossing it at any angle and speed up to 10^6, aimed near its middle, now
            // and then near an end.
            let along = rng.below(2) == 0;
            let len = 10.0;
            let (hx, hy) = if along { (len, thick) } else { (thick, len) };
            let w0 = origin + v(rng.range_f32(-5.0, 5.0), rng.range_f32(-5.0, 5.0));
            let wall = b(w0.x, w0.y, w0.x + hx, w0.y + hy);
            let angle = rng.range_f32(0.0, core::f32::consts::TAU);
            let dir = v(angle.cos(), angle.sin());
            let aim = if rng.below(4) == 0 {
                wall.max + v(rng.range_f32(-0.03, 0.03), rng.range_f32(-0.03, 0.03))
            } else {
                wall.center()
            };
            let speed = 10f32.powf(rng.range_f32(0.0, 6.0));
            let start = aim - dir * (speed * rng.range_f32(0.1, 0.9));
            let bullet = Circle::new(start, 0.01);
            // Both move: the wall a little, the bullet the rest.
            let mw = v(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0));
            let mb = dir * speed + mw;
            let s = sweep_aabb_circle(&wall, mw, &bullet, mb);
            let (lo, hi, cc, ww, r) = aabb_case(&wall, mw, &bullet, mb);
            let m = start.abs().max_element().max(wall.max.abs().max_element());
            let margin = 4.0 * (ulp(m) + ulp(speed));
            let what = format!("{k}: {wall:?} moving {mw:?}, {bullet:?} moving {mb:?}: {s:?}");
            let (must_hit, closest) = judge(lo, hi, cc, ww, r, margin);
            if must_hit {
                assert_ne!(s.status, Miss, "tunnelled: {what} (closest {closest})");
                crossings += 1;
            } else if closest > r + margin {
                assert_eq!(s.status, Miss, "hit from afar: {what} (closest {closest})");
            }
            if s.is_hit() {
                check_aabb_stop(&wall, &bullet, &s, &what);
            }
        }
    }
    assert!(crossings > 5000, "{crossings}");
}

/// Whether a thin wall's crossing must be caught, and the closest the path comes to it
/// (f64). Rounding is monotone, so no thin slab can be crossed unseen: a path that
/// meets the wall's middle line (the long axis shortened by `margin` at both ends, for
/// the rounding of where along the wall it crosses) within `r` must hit.
fn judge(lo: P, hi: P, c: P, w: P, r: f64, margin: f64) -> (bool, f64) {
    let long = usize::from(hi[1] - lo[1] > hi[0] - lo[0]);
    let (mut core_lo, mut core_hi) = (lo, hi);
    let mid = 0.5 * (lo[1 - long] + hi[1 - long]);
    core_lo[1 - long] = mid;
    core_hi[1 - long] = mid;
    core_lo[long] += margin;
    core_hi[long] -= margin;
    let must_hit = core_lo[long] <= core_hi[long] && closest64(core_lo, core_hi, c, w) <= r;
    (must_hit, closest64(lo, hi, c, w))
}

/// `ulp(x)` of an `f32` magnitude, in f64.
fn ulp(x: f32) -> f64 {
    let x = x.abs();
    f64::from(f32::from_bits(x.to_bits() + 1) - x)
}

#[test]
fn on_a_coarse_grid_the_answers_are_exact() {
    // Half-integers: every difference, square, product and the discriminant are exact,
    // so every decision is the exact one, `t` is the root rounded a few times, and the
    // answer is the oracle's (which tries all four corners).
    let mut rng = Rng::new(0x5eed_b0c1);
    let mut counts = [0usize; 3];
    let mut corners = 0;
    for _ in 0..100_000 {
        let mut half = |r: u32| (rng.below(4 * r + 1) as f32 - 2.0 * r as f32) * 0.5;
        let (x0, y0) = (half(4), half(4));
        let a = b(x0, y0, x0 + half(2).abs(), y0 + half(2).abs());
        let d = c(half(6), half(6), half(2).abs());
        let (ma, md) = (v(half(2), half(2)), v(half(4), half(4)));
        let s = sweep_aabb_circle(&a, ma, &d, md);
        let (lo, hi, cc, ww, r) = aabb_case(&a, ma, &d, md);
        let o = rounded64(lo, hi, cc, ww, r);
        let what = format!("{a:?} {ma:?} {d:?} {md:?}: {s:?}, oracle {o:?}");
        assert_eq!(s.status, o.status, "{what}");
        if s.is_hit() {
            assert!(ulps(s.t, o.t as f32) <= 3, "{what}");
            if r > 0.0 {
                // From the disc toward the box: the oracle's outward normal turned round.
                let n = v(-o.normal[0] as f32, -o.normal[1] as f32);
                assert!((s.normal - n).length() < 1e-5, "{what}");
                corners += usize::from(s.normal.x != 0.0 && s.normal.y != 0.0);
            }
            check_contact((lo, hi, cc, ww, r), &s, 1e-5 * (1.0 + r), &what);
            check_aabb_stop(&a, &d, &s, &what);
        }
        counts[s.status as usize] += 1;
    }
    assert!(counts.iter().all(|&n| n > 5_000), "{counts:?}");
    assert!(corners > 1_000, "{corners}");
}

/// Whether a disagreement with the oracle is at a tie: touching at rest, grazing, or
/// at t = 1 (all within `tol`).
fn near_tie(lo: P, hi: P, c: P, w: P, r: f64, t: &[f64], tol: f64) -> bool {
    let d0 = off64(lo, hi, c).0;
    let closest = closest64(lo, hi, c, w);
    (d0 - r).abs() <= tol || (closest - r).abs() <= tol || t.iter().any(|t| (t - 1.0).abs() <= 1e-4)
}

#[test]
fn scalar_sweeps_match_an_f64_oracle_and_hit_first() {
    let mut rng = Rng::new(0x5eed_b0c2);
    let mut counts = [0usize; 3];
    for round in 0..100_000 {
        let scale: f32 = [1.0, 10.0, 1.0e3][round % 3];
        let mut val = |r: f32| rng.range_f32(-r, r) * scale;
        let (x0, y0) = (val(8.0), val(8.0));
        let a = b(x0, y0, x0 + val(4.0).abs(), y0 + val(4.0).abs());
        let d = c(x0 + val(8.0), y0 + val(8.0), val(2.0).abs());
        let (ma, md) = (v(val(4.0), val(4.0)), v(val(16.0), val(16.0)));
        let s = sweep_aabb_circle(&a, ma, &d, md);
        let (lo, hi, cc, ww, r) = aabb_case(&a, ma, &d, md);
        let o = rounded64(lo, hi, cc, ww, r);
        let what = format!("{a:?} {ma:?} {d:?} {md:?}: {s:?}, oracle {o:?}");
        let tol = 1e-5 * f(scale);
        if s.status != o.status {
            assert!(near_tie(lo, hi, cc, ww, r, &[o.t, f(s.t)], tol), "{what}");
        }
        if s.is_hit() {
            check_contact((lo, hi, cc, ww, r), &s, tol, &what);
            check_aabb_stop(&a, &d, &s, &what);
        }
        if s.is_hit() && o.status == Hit {
            let n = v(-o.normal[0] as f32, -o.normal[1] as f32);
            assert!((s.normal - n).length() < 1e-3, "{what}");
        }
        counts[s.status as usize] += 1;
    }
    assert!(counts.iter().all(|&n| n > 5_000), "{counts:?}");
}

#[test]
fn huge_speeds_and_coordinates_near_a_million() {
    // A wall near 10^6 hit by a bullet at 10^6 per frame: the time is the gap over the
    // speed (within the rounding of the gap), the stop leaves it flush, not inside.
    let wall = b(1.0e6, 1.0e6, 1.0e6 + 0.5, 1.0e6 + 10.0);
    let bullet = c(1.0e6 - 5.0e5, 1.0e6 + 5.0, 0.01);
    let s = sweep(wall, bullet, v(1.0e6, 0.0));
    assert_eq!((s.status, s.normal), (Hit, v(1.0, 0.0)));
    assert!((f(s.t) - (5.0e5 - 0.01) / 1.0e6).abs() < 1e-7, "{s:?}");
    check_aabb_stop(&wall, &bullet, &s, "near 1e6");
    // Zero radius, the same: the moving point.
    let s = sweep(wall, c(1.0e6 - 5.0e5, 1.0e6 + 5.0, 0.0), v(1.0e6, 0.0));
    assert_eq!((s.status, s.t), (Hit, 0.5));
}

/// Boxes and discs with motions, some special values; pairs in random order.
type Scene = (Vec<Aabb>, Vec<Vec2>, Vec<Circle>, Vec<Vec2>, Vec<Pair>);

fn scene(n: usize, seed: u64) -> Scene {
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
    let boxes = (0..n)
        .map(|_| {
            let (x, y) = (val(&mut rng, 10.0), val(&mut rng, 10.0));
            b(
                x,
                y,
                x + rng.range_f32(0.0, 4.0),
                y + rng.range_f32(0.0, 4.0),
            )
        })
        .collect();
    let circles = (0..n)
        .map(|_| {
            c(
                val(&mut rng, 10.0),
                val(&mut rng, 10.0),
                rng.range_f32(0.0, 2.0),
            )
        })
        .collect();
    let motions = |rng: &mut Rng| -> Vec<Vec2> {
        (0..n).map(|_| v(val(rng, 15.0), val(rng, 15.0))).collect()
    };
    let (mb, mc) = (motions(&mut rng), motions(&mut rng));
    let pairs = (0..4 * n + 3)
        .map(|_| Pair::new(rng.below(n as u32), rng.below(n as u32)))
        .collect();
    (boxes, mb, circles, mc, pairs)
}

fn same_list(got: &[PairSweep], want: &[PairSweep]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.pair == w.pair && same_sweep(&g.sweep, &w.sweep))
}

#[test]
fn aabb_circle_batches_match_the_scalar_kernel_at_every_level_thread_count_and_input() {
    for (n, seed) in [(1, 1), (9, 2), (300, 3), (6000, 4)] {
        let (boxes, mb, circles, mc, pairs) = scene(n, seed);
        let want: Vec<PairSweep> = pairs
            .iter()
            .filter_map(|&p| {
                let (i, j) = (p.a as usize, p.b as usize);
                let s = sweep_aabb_circle(&boxes[i], mb[i], &circles[j], mc[j]);
                (s.status != Miss).then_some(PairSweep { pair: p, sweep: s })
            })
            .collect();
        if n >= 300 {
            let hits = want.iter().filter(|h| h.sweep.is_hit()).count();
            assert!(hits > 10 && hits < pairs.len() / 2, "{hits}");
        }
        let (bs, cs) = (AabbSoa::from(&boxes[..]), CircleSoa::from(&circles[..]));
        let (mbs, mcs) = (MotionSoa::from(&mb[..]), MotionSoa::from(&mc[..]));
        for &level in SimdLevel::available() {
            for threads in [1, 2, 4] {
                pool(threads).install(|| {
                    let mut np = narrow(level, threads > 1);
                    let what = format!("n={n} {level:?} x{threads}");
                    let got = np
                        .sweep_aabb_circle(
                            bs.columns(),
                            mbs.columns(),
                            cs.columns(),
                            mcs.columns(),
                            &pairs,
                        )
                        .unwrap();
                    assert!(same_list(got, &want), "columns {what}");
                    let got = np
                        .sweep_aabb_circle(&boxes[..], &mb[..], &circles[..], &mc[..], &pairs)
                        .unwrap();
                    assert!(same_list(got, &want), "records {what}");
                });
            }
        }
        // Bad input: a pair out of range on either side, motions that do not match.
        let mut np = narrow(SimdLevel::best(), false);
        for bad in [Pair::new(n as u32, 0), Pair::new(0, n as u32)] {
            let r = np.sweep_aabb_circle(&boxes[..], &mb[..], &circles[..], &mc[..], &[bad]);
            assert!(r.is_err());
        }
        let r = np.sweep_aabb_circle(&boxes[..], &mb[..n - 1], &circles[..], &mc[..], &pairs);
        assert!(r.is_err());
        let r = np.sweep_aabb_circle(&boxes[..], &mb[..], &circles[..], &mc[..n - 1], &pairs);
        assert!(r.is_err());
    }
}

// ---------------------------------------------------------------------------------------
// sweep_circle_obb2
// ---------------------------------------------------------------------------------------

#[test]
fn an_axis_aligned_oriented_box_answers_as_the_aabb_kernel() {
    // On a half-integer grid the turn by a quarter turn is exact: the status and t are
    // sweep_aabb_circle's bit for bit, the normal its opposite (the roles swap).
    let mut rng = Rng::new(0x5eed_0bb2);
    let mut counts = [0usize; 3];
    for round in 0..60_000 {
        let mut half = |r: u32| (rng.below(4 * r + 1) as f32 - 2.0 * r as f32) * 0.5;
        let center = v(half(4), half(4));
        let h = v(half(2).abs(), half(2).abs());
        let d = c(half(6), half(6), half(2).abs());
        let (md, mo) = (v(half(4), half(4)), v(half(2), half(2)));
        let (axis, hw) = match round % 4 {
            0 => (Vec2::X, h),
            1 => (Vec2::Y, v(h.y, h.x)),
            2 => (Vec2::NEG_X, h),
            _ => (Vec2::NEG_Y, v(h.y, h.x)),
        };
        let o = Obb2::new(center, axis, hw);
        let aabb = Aabb::from_center_half_extents(center, h);
        let s = sweep_circle_obb2(&d, md, &o, mo);
        let t = sweep_aabb_circle(&aabb, mo, &d, md);
        let what = format!("{d:?} {md:?} {o:?} {mo:?}: {s:?} vs {t:?}");
        assert_eq!(
            (s.status, s.t.to_bits()),
            (t.status, t.t.to_bits()),
            "{what}"
        );
        if s.is_hit() && d.radius > 0.0 {
            assert!((s.normal + t.normal).length() < 1e-6, "{what}");
            check_obb_stop(&d, &o, &s, &what);
        }
        counts[s.status as usize] += 1;
    }
    assert!(counts.iter().all(|&n| n > 3_000), "{counts:?}");
}

#[test]
fn circle_obb2_statuses_normals_and_bad_input() {
    let laser = Obb2::from_angle(v(5.0, 5.0), v(10.0, 0.5), 0.6);
    let (u, uy) = (laser.axis, laser.axis_y());
    // Straight at the face from 4 away along the local y axis: t = (4 - 0.5 - 1) / 5.
    let d = Circle::new(laser.center + uy * 4.0, 1.0);
    let s = sweep_circle_obb2(&d, -uy * 5.0, &laser, Vec2::ZERO);
    assert_eq!(s.status, Hit);
    assert!(
        (s.t - 0.5).abs() < 1e-6 && (s.normal - uy).length() < 1e-6,
        "{s:?}"
    );
    check_obb_stop(&d, &laser, &s, "face");
    // The box moving instead of the disc: the same answer.
    let t = sweep_circle_obb2(&d, Vec2::ZERO, &laser, uy * 5.0);
    assert_eq!((t.status, t.t), (s.status, s.t));
    // Past the end along the axis (10 + 1 + 0.1): a miss; at the end's corner: a hit.
    let far = Circle::new(laser.center + u * 11.1 + uy * 4.0, 1.0);
    assert_eq!(
        sweep_circle_obb2(&far, -uy * 8.0, &laser, Vec2::ZERO).status,
        Miss
    );
    let end = Circle::new(laser.center + u * 10.6 + uy * 4.0, 1.0);
    let s = sweep_circle_obb2(&end, -uy * 8.0, &laser, Vec2::ZERO);
    assert_eq!(s.status, Hit);
    assert!((s.normal - (u * 0.6 + uy * 0.8)).length() < 1e-4, "{s:?}");
    // Touching at rest (a quarter turn: exact): moving in is a hit at t = 0, sliding
    // along or moving away is overlapping.
    let upright = Obb2::new(v(5.0, 5.0), Vec2::Y, v(10.0, 0.5));
    let touch = c(3.5, 5.0, 1.0);
    let s = sweep_circle_obb2(&touch, v(1.0, 0.0), &upright, Vec2::ZERO);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.0, v(-1.0, 0.0)), "{s:?}");
    for m in [v(0.0, 1.0), v(-1.0, 0.0)] {
        let s = sweep_circle_obb2(&touch, m, &upright, Vec2::ZERO);
        assert_eq!(s.status, Overlapping, "{s:?}");
    }
    // Bad input: NaN/∞ anywhere, a negative radius or half extent.
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let m = -uy * 5.0;
    for (d, o, m) in [
        (c(nan, 0.0, 1.0), laser, m),
        (
            d,
            Obb2::new(laser.center, v(nan, 0.0), laser.half_extents),
            m,
        ),
        (d, Obb2::new(laser.center, u, v(inf, 1.0)), m),
        (d, Obb2::new(laser.center, u, v(-1.0, 1.0)), m),
        (c(d.center.x, d.center.y, -1.0), laser, m),
        (d, laser, v(inf, 0.0)),
    ] {
        let s = sweep_circle_obb2(&d, m, &o, Vec2::ZERO);
        assert_eq!(
            (s.status, s.t, s.normal),
            (Miss, 1.0, Vec2::ZERO),
            "{d:?} {o:?}"
        );
    }
}

#[test]
fn a_fast_round_bullet_crossing_a_thin_laser_at_any_angle_is_caught() {
    let mut rng = Rng::new(0x1a5e);
    let mut crossings = 0;
    for (origin, thick) in [
        (Vec2::ZERO, 0.01),
        (v(1.0e6, 1.0e6), 0.25),
        (Vec2::ZERO, 0.0),
    ] {
        for k in 0..3000 {
            let laser = Obb2::from_angle(
                origin + v(rng.range_f32(-5.0, 5.0), rng.range_f32(-5.0, 5.0)),
                v(rng.range_f32(1.0, 20.0), thick),
                rng.range_f32(-4.0, 4.0),
            );
            let angle = rng.range_f32(0.0, core::f32::consts::TAU);
            let dir = v(angle.cos(), angle.sin());
            let aim = laser.center + laser.axis * laser.half_extents.x * rng.range_f32(-1.1, 1.1);
            let speed = 10f32.powf(rng.range_f32(0.0, 6.0));
            let start = aim - dir * (speed * rng.range_f32(0.1, 0.9));
            let bullet = Circle::new(start, 0.02);
            let ml = v(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0));
            let mb = dir * speed + ml;
            let s = sweep_circle_obb2(&bullet, mb, &laser, ml);
            let (lo, hi, cc, ww, r, _) = obb_case(&bullet, mb, &laser, ml);
            let m = start
                .abs()
                .max_element()
                .max(laser.center.abs().max_element());
            // The turn into the frame rounds once more: a few ulps of the distances.
            let margin = 8.0 * (ulp(m) + ulp(speed)) + 1e-6 * (speed as f64 + 20.0);
            let what = format!("{k}: {bullet:?} moving {mb:?}, {laser:?} moving {ml:?}: {s:?}");
            let (must_hit, closest) = judge(lo, hi, cc, ww, r, margin);
            if must_hit {
                assert_ne!(s.status, Miss, "tunnelled: {what} (closest {closest})");
                crossings += 1;
            } else if closest > r + margin {
                assert_eq!(s.status, Miss, "hit from afar: {what} (closest {closest})");
            }
            if s.is_hit() {
                check_obb_stop(&bullet, &laser, &s, &what);
            }
        }
    }
    assert!(crossings > 4000, "{crossings}");
}

#[test]
fn circle_obb2_matches_an_f64_oracle_in_world_space_and_hits_first() {
    let mut rng = Rng::new(0x5eed_0bb3);
    let mut counts = [0usize; 3];
    for round in 0..100_000 {
        let scale: f32 = [1.0, 10.0, 1.0e3][round % 3];
        let mut val = |r: f32| rng.range_f32(-r, r) * scale;
        let center = v(val(8.0), val(8.0));
        let h = v(val(3.0).abs(), val(3.0).abs());
        let o = Obb2::from_angle(center, h, rng.range_f32(-4.0, 4.0));
        let mut val = |r: f32| rng.range_f32(-r, r) * scale;
        let d = c(center.x + val(8.0), center.y + val(8.0), val(2.0).abs());
        let (md, mo) = (v(val(16.0), val(16.0)), v(val(4.0), val(4.0)));
        let s = sweep_circle_obb2(&d, md, &o, mo);
        let (lo, hi, cc, ww, r, [u, uy]) = obb_case(&d, md, &o, mo);
        let or = rounded64(lo, hi, cc, ww, r);
        let what = format!("{d:?} {md:?} {o:?} {mo:?}: {s:?}, oracle {or:?}");
        // The frame's rounding: a few ulps of the distances and the motion.
        let tol = 2e-5 * f(scale);
        if s.status != or.status {
            assert!(near_tie(lo, hi, cc, ww, r, &[or.t, f(s.t)], tol), "{what}");
        }
        if s.is_hit() {
            // The normal back in the box's frame, for the contact check.
            let n = [
                f(s.normal.x) * u[0] + f(s.normal.y) * u[1],
                f(s.normal.x) * uy[0] + f(s.normal.y) * uy[1],
            ];
            let local = Sweep {
                normal: v(n[0] as f32, n[1] as f32),
                ..s
            };
            check_contact((lo, hi, cc, ww, r), &local, tol, &what);
            check_obb_stop(&d, &o, &s, &what);
            if or.status == Hit {
                let want = [
                    or.normal[0] * u[0] + or.normal[1] * uy[0],
                    or.normal[0] * u[1] + or.normal[1] * uy[1],
                ];
                let e = (f(s.normal.x) - want[0]).hypot(f(s.normal.y) - want[1]);
                assert!(e < 1e-3, "{what}");
            }
        }
        counts[s.status as usize] += 1;
    }
    assert!(counts.iter().all(|&n| n > 5_000), "{counts:?}");
}

#[test]
fn circle_obb2_batches_match_the_scalar_kernel_at_every_level_thread_count_and_input() {
    for (n, seed) in [(1, 5), (9, 6), (300, 7), (6000, 8)] {
        let (boxes, mb, circles, mc, pairs) = scene(n, seed);
        let mut rng = Rng::new(seed);
        let obbs: Vec<Obb2> = boxes
            .iter()
            .map(|a| match rng.below(40) {
                0 => Obb2::new(a.center(), v(f32::NAN, 0.0), a.half_extents()),
                1 => Obb2::new(a.center(), Vec2::Y, a.half_extents()),
                _ => Obb2::from_angle(a.center(), a.half_extents(), rng.range_f32(-4.0, 4.0)),
            })
            .collect();
        let want: Vec<PairSweep> = pairs
            .iter()
            .filter_map(|&p| {
                let (i, j) = (p.a as usize, p.b as usize);
                let s = sweep_circle_obb2(&circles[i], mc[i], &obbs[j], mb[j]);
                (s.status != Miss).then_some(PairSweep { pair: p, sweep: s })
            })
            .collect();
        if n >= 300 {
            let hits = want.iter().filter(|h| h.sweep.is_hit()).count();
            assert!(hits > 10 && hits < pairs.len() / 2, "{hits}");
        }
        let (os, cs) = (Obb2Soa::from(&obbs[..]), CircleSoa::from(&circles[..]));
        let (mbs, mcs) = (MotionSoa::from(&mb[..]), MotionSoa::from(&mc[..]));
        for &level in SimdLevel::available() {
            for threads in [1, 2, 4] {
                pool(threads).install(|| {
                    let mut np = narrow(level, threads > 1);
                    let what = format!("n={n} {level:?} x{threads}");
                    let got = np
                        .sweep_circle_obb2(
                            cs.columns(),
                            mcs.columns(),
                            os.columns(),
                            mbs.columns(),
                            &pairs,
                        )
                        .unwrap();
                    assert!(same_list(got, &want), "columns {what}");
                    let got = np
                        .sweep_circle_obb2(&circles[..], &mc[..], &obbs[..], &mb[..], &pairs)
                        .unwrap();
                    assert!(same_list(got, &want), "records {what}");
                });
            }
        }
        let mut np = narrow(SimdLevel::best(), false);
        for bad in [Pair::new(n as u32, 0), Pair::new(0, n as u32)] {
            let r = np.sweep_circle_obb2(&circles[..], &mc[..], &obbs[..], &mb[..], &[bad]);
            assert!(r.is_err());
        }
        let r = np.sweep_circle_obb2(&circles[..], &mc[..n - 1], &obbs[..], &mb[..], &pairs);
        assert!(r.is_err());
    }
}
