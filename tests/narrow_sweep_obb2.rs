//! Swept OBB–OBB and AABB–OBB: the documented statuses, the normal's sign and tie order,
//! the seeds' edge cases (touching at the ends of the frame, exact corner hits, zero
//! motion on an axis, near-parallel edges, huge speeds, coordinates near 10⁶, bad input),
//! the first contact (apart just before, touching at it), no tunnelling at any speed, no
//! penetration at the stop, an f64 oracle, agreement with the swept AABB on axis-aligned
//! boxes, and the batches at every level, thread count and input kind.
//!
//! Every geometric judgement is made in f64 on the `f32` inputs by an oracle that shares
//! no code with the kernels: each box's axis normalised in f64, its corners projected on
//! the four edge normals.

use crate::narrow_common;

use glam::Vec2;
use hantei::narrow::columns::{AabbSoa, MotionSoa, Obb2Soa};
use hantei::narrow::scalar::{
    overlap_obb2_obb2, sweep_aabb_aabb, sweep_aabb_obb2, sweep_obb2_obb2,
};
use hantei::narrow::{PairSweep, Sweep, SweepStatus};
use hantei::rng::Rng;
use hantei::{Aabb, Obb2, Pair, SimdLevel};
use narrow_common::{narrow, pool, same_sweep, special};

use SweepStatus::{Hit, Miss, Overlapping};

fn v(x: f32, y: f32) -> Vec2 {
    Vec2::new(x, y)
}

/// An axis-aligned oriented box.
fn rect(x: f32, y: f32, hx: f32, hy: f32) -> Obb2 {
    Obb2::new(v(x, y), Vec2::X, v(hx, hy))
}

/// `a` moving by `m` against the still `b`.
fn sweep(a: Obb2, m: Vec2, b: Obb2) -> Sweep {
    sweep_obb2_obb2(&a, m, &b, Vec2::ZERO)
}

// ---------------------------------------------------------------------------------------
// The f64 oracle.
// ---------------------------------------------------------------------------------------

/// A box in f64: center, unit axis (normalised here), half extents.
#[derive(Debug, Clone, Copy)]
struct Box64 {
    c: [f64; 2],
    u: [f64; 2],
    h: [f64; 2],
}

impl Box64 {
    fn obb(b: &Obb2) -> Self {
        let (ux, uy) = (f64::from(b.axis.x), f64::from(b.axis.y));
        let len = ux.hypot(uy);
        Self {
            c: [f64::from(b.center.x), f64::from(b.center.y)],
            u: [ux / len, uy / len],
            h: [f64::from(b.half_extents.x), f64::from(b.half_extents.y)],
        }
    }

    fn aabb(a: &Aabb) -> Self {
        let f = f64::from;
        Self {
            c: [
                (f(a.min.x) + f(a.max.x)) / 2.0,
                (f(a.min.y) + f(a.max.y)) / 2.0,
            ],
            u: [1.0, 0.0],
            h: [
                (f(a.max.x) - f(a.min.x)) / 2.0,
                (f(a.max.y) - f(a.min.y)) / 2.0,
            ],
        }
    }

    /// Grown (or, for a negative `m`, shrunk) by `m` on every side.
    fn grown(mut self, m: f64) -> Self {
        self.h = self.h.map(|h| (h + m).max(0.0));
        self
    }

    fn moved(mut self, d: [f64; 2]) -> Self {
        self.c = [self.c[0] + d[0], self.c[1] + d[1]];
        self
    }

    /// The projection of the box on the unit direction `l`, from its four corners.
    fn interval(&self, l: [f64; 2]) -> (f64, f64) {
        let (u, w) = (self.u, [-self.u[1], self.u[0]]);
        let mut lo = f64::INFINITY;
        let mut hi = f64::NEG_INFINITY;
        for (sx, sy) in [(-1.0, -1.0), (1.0, -1.0), (1.0, 1.0), (-1.0, 1.0)] {
            let p = [
                self.c[0] + sx * self.h[0] * u[0] + sy * self.h[1] * w[0],
                self.c[1] + sx * self.h[0] * u[1] + sy * self.h[1] * w[1],
            ];
            let d = p[0] * l[0] + p[1] * l[1];
            lo = lo.min(d);
            hi = hi.max(d);
        }
        (lo, hi)
    }
}

fn axes64(a: &Box64, b: &Box64) -> [[f64; 2]; 4] {
    [b.u, [-b.u[1], b.u[0]], a.u, [-a.u[1], a.u[0]]]
}

/// How far apart the boxes are (the largest gap over the four axes; `<= 0`: touching or
/// overlapping) when `a` has moved by `t·v`.
fn sep64(a: &Box64, b: &Box64, vel: [f64; 2], t: f64) -> f64 {
    let a = a.moved([t * vel[0], t * vel[1]]);
    axes64(&a, b)
        .iter()
        .map(|&l| {
            let (a0, a1) = a.interval(l);
            let (b0, b1) = b.interval(l);
            (b0 - a1).max(a0 - b1)
        })
        .fold(f64::NEG_INFINITY, f64::max)
}

/// The swept answer in f64: status and time of first contact.
fn oracle(a: &Box64, b: &Box64, vel: [f64; 2]) -> (SweepStatus, f64) {
    let (mut enter, mut exit) = (f64::NEG_INFINITY, f64::INFINITY);
    for l in axes64(a, b) {
        let (a0, a1) = a.interval(l);
        let (b0, b1) = b.interval(l);
        let w = vel[0] * l[0] + vel[1] * l[1];
        let (e, x) = if w == 0.0 {
            if a0 <= b1 && b0 <= a1 {
                (f64::NEG_INFINITY, f64::INFINITY)
            } else {
                (f64::INFINITY, f64::NEG_INFINITY)
            }
        } else if w > 0.0 {
            ((b0 - a1) / w, (b1 - a0) / w)
        } else {
            ((b1 - a0) / w, (b0 - a1) / w)
        };
        enter = enter.max(e);
        exit = exit.min(x);
    }
    if !(enter <= exit && enter <= 1.0 && exit >= 0.0) {
        (Miss, 1.0)
    } else if enter < 0.0 {
        (Overlapping, 0.0)
    } else {
        (Hit, enter)
    }
}

fn rel64(ma: Vec2, mb: Vec2) -> [f64; 2] {
    [
        f64::from(ma.x) - f64::from(mb.x),
        f64::from(ma.y) - f64::from(mb.y),
    ]
}

/// The magnitude the kernels' rounding scales with: the nudge's sum
/// (`|centers| + Σ half extents + |v|`, componentwise).
fn scale(a: &Box64, b: &Box64, vel: [f64; 2]) -> f64 {
    a.c[0].abs()
        + a.c[1].abs()
        + b.c[0].abs()
        + b.c[1].abs()
        + a.h[0]
        + a.h[1]
        + b.h[0]
        + b.h[1]
        + vel[0].abs()
        + vel[1].abs()
}

/// The stated accuracy: the first contact is found to within this distance (`2⁻²¹` of
/// the scale, about 4 ulps of it; the kernels measured at most 1 ulp).
const TOLERANCE: f64 = 1.0 / 2_097_152.0;

/// The status that every answer within `tol` of the inputs agrees on, if any: the boxes
/// grown and shrunk by `tol` give the same status.
fn robust_status(a: &Box64, b: &Box64, vel: [f64; 2], tol: f64) -> Option<SweepStatus> {
    let grown = oracle(&a.grown(tol), &b.grown(tol), vel).0;
    let shrunk = oracle(&a.grown(-tol), &b.grown(-tol), vel).0;
    (grown == shrunk).then_some(grown)
}

/// What every hit must satisfy, judged in f64: touching at `t` (within the tolerance),
/// apart just before `t` and approaching (so, the sep being convex in `t`, apart on all
/// of `[0, t)`: the first contact), a unit normal, and `a` moved by the stop (in `f32`,
/// as a game would) is not inside `b`. Returns `|sep(t)| / scale`.
fn check_hit(a: &Box64, b: &Box64, vel: [f64; 2], s: &Sweep, moved: &Box64, what: &str) -> f64 {
    assert_eq!(s.status, Hit, "{what}");
    let scale = scale(a, b, vel);
    let tol = TOLERANCE * scale;
    let t = f64::from(s.t);
    let at = sep64(a, b, vel, t);
    assert!(
        at.abs() <= tol,
        "not touching at t: sep {at}, tol {tol}: {what}"
    );
    let n = [f64::from(s.normal.x), f64::from(s.normal.y)];
    assert!(
        (n[0].hypot(n[1]) - 1.0).abs() < 1e-6,
        "normal not unit: {what}"
    );
    let closing = -(vel[0] * n[0] + vel[1] * n[1]);
    assert!(closing > 0.0, "the normal does not face the motion: {what}");
    if t > 0.0 {
        let before = (t - 4.0 * tol / closing).max(0.0);
        let sep = sep64(a, b, vel, before);
        assert!(
            sep > 0.0 && sep > at,
            "not apart just before t: sep({before}) = {sep}, sep(t) = {at}: {what}"
        );
    }
    let gap = sep64(moved, b, [0.0, 0.0], 0.0);
    assert!(gap >= 0.0, "the stop penetrates by {}: {what}", -gap);
    at.abs() / scale
}

/// The kernel's oriented-box answer, checked against the oracle: the status wherever no
/// tie is within the tolerance, and every hit by [`check_hit`].
fn check_obb(a: &Obb2, ma: Vec2, b: &Obb2, mb: Vec2) -> (Sweep, f64) {
    let s = sweep_obb2_obb2(a, ma, b, mb);
    let (a64, b64, vel) = (Box64::obb(a), Box64::obb(b), rel64(ma, mb));
    let what = format!(
        "{a:?} {ma:?} {b:?} {mb:?}: {s:?}, oracle {:?}",
        oracle(&a64, &b64, vel)
    );
    let tol = TOLERANCE * scale(&a64, &b64, vel);
    if let Some(status) = robust_status(&a64, &b64, vel, tol) {
        assert_eq!(s.status, status, "{what}");
    }
    let mut err = 0.0;
    if s.status == Hit {
        let moved = Box64::obb(&Obb2 {
            center: a.center + s.stop,
            ..*a
        });
        err = check_hit(&a64, &b64, vel, &s, &moved, &what);
        // The f32 static test agrees: a gap, or touching.
        let flush = Obb2 {
            center: a.center + s.stop,
            ..*a
        };
        assert!(
            overlap_obb2_obb2(&flush, b).is_none_or(|m| m.depth <= tol as f32),
            "{what}"
        );
    }
    (s, err)
}

/// The same for an axis-aligned `a`.
fn check_aabb(a: &Aabb, ma: Vec2, b: &Obb2, mb: Vec2) -> (Sweep, f64) {
    let s = sweep_aabb_obb2(a, ma, b, mb);
    let (a64, b64, vel) = (Box64::aabb(a), Box64::obb(b), rel64(ma, mb));
    let what = format!(
        "{a:?} {ma:?} {b:?} {mb:?}: {s:?}, oracle {:?}",
        oracle(&a64, &b64, vel)
    );
    let tol = TOLERANCE * scale(&a64, &b64, vel);
    if let Some(status) = robust_status(&a64, &b64, vel, tol) {
        assert_eq!(s.status, status, "{what}");
    }
    let mut err = 0.0;
    if s.status == Hit {
        let moved = Box64::aabb(&a.translated(s.stop));
        err = check_hit(&a64, &b64, vel, &s, &moved, &what);
    }
    (s, err)
}

// ---------------------------------------------------------------------------------------
// Statuses and the seeds' edge cases.
// ---------------------------------------------------------------------------------------

#[test]
fn statuses_and_touching_at_the_ends_of_the_frame() {
    let b = rect(10.0, 0.0, 1.0, 2.0);
    let a = rect(0.0, 0.0, 1.0, 1.0);
    // Head on: the gap of 8 closed at t = 0.8, on b's left face.
    let s = sweep(a, v(10.0, 0.0), b);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.8, v(-1.0, 0.0)));
    // Touching exactly at the end of the frame: a hit at t = 1 (closed).
    let s = sweep(a, v(8.0, 0.0), b);
    assert_eq!((s.status, s.t), (Hit, 1.0));
    // One ulp short: a miss, the whole motion as the stop.
    let short = v(7.999_999_5, 0.0);
    let s = sweep(a, short, b);
    assert_eq!(
        (s.status, s.t, s.normal, s.stop),
        (Miss, 1.0, Vec2::ZERO, short)
    );
    // Touching at the start and moving in: a hit at t = 0.
    let touching = rect(8.0, 0.0, 1.0, 1.0);
    let s = sweep(touching, v(1.0, 0.5), b);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.0, v(-1.0, 0.0)));
    // Touching at the start and sliding along, moving away or still: overlapping.
    for m in [v(0.0, 3.0), v(-1.0, 0.0), Vec2::ZERO] {
        let s = sweep(touching, m, b);
        assert_eq!(
            (s.status, s.t, s.normal, s.stop),
            (Overlapping, 0.0, Vec2::ZERO, Vec2::ZERO),
            "{m:?}"
        );
    }
    // Overlapping when the frame begins, whatever the motion.
    assert_eq!(
        sweep(rect(9.0, 1.0, 1.0, 1.0), v(-100.0, 4.0), b).status,
        Overlapping
    );
    // Moving away, or passing above: a miss.
    assert_eq!(sweep(a, v(-10.0, 0.0), b).status, Miss);
    assert_eq!(
        sweep(rect(0.0, 3.5, 1.0, 0.5), v(20.0, 0.0), b).status,
        Miss
    );
    // Grazing exactly along the top face (touching at y = 2 for t in [0.4, 0.6]): a hit.
    let s = sweep(rect(0.0, 3.0, 1.0, 1.0), v(20.0, 0.0), b);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.4, v(-1.0, 0.0)));
}

#[test]
fn both_motions_count_and_zero_motion_on_an_axis_divides_nothing() {
    let (a, b) = (rect(0.0, 0.0, 1.0, 1.0), rect(10.0, 0.0, 1.0, 2.0));
    // Only the relative motion matters.
    let moving = sweep_obb2_obb2(&a, v(6.0, 0.0), &b, v(-4.0, 0.0));
    assert_eq!(moving, sweep(a, v(10.0, 0.0), b));
    // Equal motions: no relative motion: a miss apart, overlapping in contact.
    let s = sweep_obb2_obb2(&a, v(3.0, 4.0), &b, v(3.0, 4.0));
    assert_eq!((s.status, s.stop), (Miss, Vec2::ZERO));
    let s = sweep_obb2_obb2(&rect(9.5, 2.5, 1.0, 1.0), v(3.0, 4.0), &b, v(3.0, 4.0));
    assert_eq!(s.status, Overlapping);
    // Motion along y only, onto a box turned 90° (its x axis is the world's y).
    let turned = Obb2::new(v(0.0, 10.0), Vec2::Y, v(2.0, 5.0));
    let s = sweep(a, v(0.0, 20.0), turned);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.35, v(0.0, -1.0)));
    // Zero half extents: a point against a box, a segment against a segment.
    let point = rect(0.0, 0.0, 0.0, 0.0);
    let s = sweep(point, v(20.0, 0.0), b);
    assert_eq!((s.status, s.t), (Hit, 0.45));
    let wall = rect(5.0, 0.0, 0.0, 3.0);
    let s = sweep(rect(0.0, 0.0, 0.0, 1.0), v(10.0, 0.0), wall);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.5, v(-1.0, 0.0)));
}

#[test]
fn exact_corner_hits_and_the_normals_tie_order() {
    // Corner to corner along the diagonal: both axes enter at t = 0.5. The normal stays
    // unit: b's x face, the first in the order B.x, B.y, A.x, A.y.
    let (a, b) = (rect(0.0, 0.0, 0.5, 0.5), rect(2.0, 2.0, 0.5, 0.5));
    let s = sweep(a, v(2.0, 2.0), b);
    assert_eq!((s.status, s.t, s.normal), (Hit, 0.5, v(-1.0, 0.0)));
    // The swept AABB sets both components there.
    let (aa, bb) = (
        Aabb::from_coords(-0.5, -0.5, 0.5, 0.5),
        Aabb::from_coords(1.5, 1.5, 2.5, 2.5),
    );
    let r = sweep_aabb_aabb(&aa, v(2.0, 2.0), &bb, Vec2::ZERO);
    assert_eq!((r.status, r.t, r.normal), (Hit, 0.5, v(-1.0, -1.0)));
    // Corner to corner, one box turned a quarter (same square, axis (0, 1)): same answer.
    let quarter = Obb2::new(b.center, Vec2::Y, b.half_extents);
    let s = sweep(a, v(2.0, 2.0), quarter);
    assert_eq!((s.status, s.t), (Hit, 0.5));
    // A diamond's corner against a square's face: the hit axis is a's (A.x), the normal
    // still points from b toward a.
    let diamond = Obb2::new(v(4.0, 0.0), v(0.6, 0.8), v(1.0, 1.0));
    let (s, _) = check_obb(&rect(0.0, 0.0, 1.0, 1.0), v(4.0, 0.0), &diamond, Vec2::ZERO);
    assert_eq!(s.status, Hit);
    assert_eq!(s.normal, v(-1.0, 0.0));
    // The mirror: a's corner against b's face: b's face normal.
    let (s, _) = check_obb(
        &diamond,
        v(-4.0, 0.0),
        &rect(0.0, 0.0, 1.0, 1.0),
        Vec2::ZERO,
    );
    assert_eq!((s.status, s.normal), (Hit, v(1.0, 0.0)));
    // Rotated corner hits (45°, not exact in f32) against the oracle, from every side.
    for k in 0..16 {
        let angle = k as f32 * core::f32::consts::FRAC_PI_8;
        let dir = v(angle.cos(), angle.sin());
        let b = Obb2::from_angle(Vec2::ZERO, v(1.0, 1.0), core::f32::consts::FRAC_PI_4);
        let a = Obb2::from_angle(
            -dir * 5.0,
            v(0.5, 0.5),
            angle + core::f32::consts::FRAC_PI_4,
        );
        let (s, _) = check_obb(&a, dir * 10.0, &b, Vec2::ZERO);
        assert_eq!(s.status, Hit, "{k}");
    }
}

#[test]
fn near_parallel_edges() {
    // Two long boxes whose axes differ by 1e-7 rad (and by 0, and a few ulps): a face
    // approaching a face. Either axis may be the hit axis; the answer is the oracle's.
    let mut errs: f64 = 0.0;
    for (k, delta) in [0.0, 1e-7, -1e-7, 3e-7, 1e-6].into_iter().enumerate() {
        for angle in [0.0f32, 0.3, 1.0, 2.5] {
            let b = Obb2::from_angle(Vec2::ZERO, v(50.0, 0.5), angle);
            let a = Obb2::from_angle(b.axis_y() * 3.0, v(40.0, 0.25), angle + delta);
            let m = b.axis_y() * -5.0 + b.axis * 7.0;
            let (s, err) = check_obb(&a, m, &b, Vec2::ZERO);
            assert_eq!(s.status, Hit, "{k} {angle}");
            // The gap of 2.25 closed at 5 per frame.
            assert!((s.t - 0.45).abs() < 1e-5, "{k} {angle}: {s:?}");
            errs = errs.max(err);
        }
    }
    assert!(errs <= TOLERANCE, "{errs}");
}

#[test]
fn bad_input_never_hits() {
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let a = rect(0.0, 0.0, 1.0, 1.0);
    let b = rect(3.0, 0.0, 1.0, 1.0);
    let m = v(5.0, 0.0);
    let with = |mut o: Obb2, f: &dyn Fn(&mut Obb2)| {
        f(&mut o);
        o
    };
    for (a, m, b) in [
        (with(a, &|o| o.center.x = nan), m, b),
        (a, v(inf, 0.0), b),
        (a, v(nan, 0.0), b),
        (a, m, with(b, &|o| o.half_extents.y = inf)),
        (a, m, with(b, &|o| o.axis.x = nan)),
        (with(a, &|o| o.half_extents.x = -1.0), m, b), // negative half extent
        (a, m, with(b, &|o| o.half_extents.y = -0.5)),
        (with(a, &|o| o.half_extents = v(-5.0, -5.0)), Vec2::ZERO, b), // "inside"
        (a, m, with(b, &|o| o.axis = v(1.001, 0.0))),                  // not a unit axis
        (with(a, &|o| o.axis = v(0.6, 0.6)), m, b),
        (a, m, with(b, &|o| o.axis = Vec2::ZERO)),
        (
            rect(-3e38, 0.0, 1.0, 1.0),
            v(3e38, 0.0),
            rect(3e38, 0.0, 1.0, 1.0),
        ), // overflow
        (
            with(a, &|o| o.center.x = 3e38),
            m,
            with(b, &|o| o.center.x = -3e38),
        ),
    ] {
        for s in [sweep(a, m, b), sweep_obb2_obb2(&a, Vec2::ZERO, &b, -m)] {
            assert_eq!(
                (s.status, s.t, s.normal),
                (Miss, 1.0, Vec2::ZERO),
                "{a:?} {m:?} {b:?}"
            );
        }
    }
    // Within the unit tolerance the axis is accepted as given.
    let s = sweep(a, m, with(b, &|o| o.axis = v(1.0 + 5e-5, 0.0)));
    assert_eq!(s.status, Hit);
    // An inverted AABB is a negative half extent.
    let inverted = Aabb::from_coords(1.0, 0.0, 0.0, 1.0);
    assert_eq!(sweep_aabb_obb2(&inverted, m, &b, Vec2::ZERO).status, Miss);
    let s = sweep_aabb_obb2(&Aabb::from_coords(nan, 0.0, 1.0, 1.0), m, &b, Vec2::ZERO);
    assert_eq!(s.status, Miss);
}

// ---------------------------------------------------------------------------------------
// No tunnelling, first contact, the oracle.
// ---------------------------------------------------------------------------------------

#[test]
fn no_tunnelling_at_any_speed_near_the_origin_and_near_a_million() {
    let mut rng = Rng::new(0x5eed_00b2);
    let mut crossings = 0;
    let mut errs: f64 = 0.0;
    for origin in [Vec2::ZERO, v(1.0e6, -1.0e6)] {
        for k in 0..4000 {
            // A thin rotated laser (20 × 0.02) and a small bullet box crossing it at any
            // angle and speed up to 10^6 per frame, aimed near its middle or its ends.
            let laser = Obb2::from_angle(
                origin + v(rng.range_f32(-5.0, 5.0), rng.range_f32(-5.0, 5.0)),
                v(10.0, 0.01),
                rng.range_f32(0.0, core::f32::consts::TAU),
            );
            let angle = rng.range_f32(0.0, core::f32::consts::TAU);
            let dir = v(angle.cos(), angle.sin());
            let along = laser.axis * rng.range_f32(-10.5, 10.5);
            let speed = 10f32.powf(rng.range_f32(0.0, 6.0));
            let start = laser.center + along - dir * (speed * rng.range_f32(0.1, 0.9));
            let bullet = Obb2::from_angle(start, v(0.05, 0.02), rng.range_f32(-3.0, 3.0));
            let m = dir * speed;
            let (s, err) = check_obb(&bullet, m, &laser, Vec2::ZERO);
            errs = errs.max(err);
            // The same bullet as its bounding box, through the AABB kernel.
            let (sa, err) = check_aabb(&bullet.aabb(), m, &laser, Vec2::ZERO);
            errs = errs.max(err);
            // Must hit: the f64 sweep of the boxes shrunk by the tolerance hits.
            let (a64, b64, vel) = (
                Box64::obb(&bullet),
                Box64::obb(&laser),
                rel64(m, Vec2::ZERO),
            );
            let tol = TOLERANCE * scale(&a64, &b64, vel);
            if oracle(&a64.grown(-tol), &b64.grown(-tol), vel).0 != Miss {
                assert_ne!(s.status, Miss, "tunnelled: {k} {bullet:?} {m:?} {laser:?}");
                crossings += 1;
            }
            let (a64, b64) = (Box64::aabb(&bullet.aabb()), Box64::obb(&laser));
            if oracle(&a64.grown(-tol), &b64.grown(-tol), vel).0 != Miss {
                assert_ne!(sa.status, Miss, "tunnelled (AABB): {k} {m:?} {laser:?}");
            }
        }
    }
    assert!(crossings > 4000, "{crossings}");
    assert!(errs <= TOLERANCE, "{errs}");
}

/// A random box: a center, any angle (or a quarter turn, or axis-aligned), half extents.
fn random_obb(rng: &mut Rng, scale: f32) -> Obb2 {
    let c = v(rng.range_f32(-6.0, 6.0), rng.range_f32(-6.0, 6.0)) * scale;
    let h = v(rng.range_f32(0.0, 2.0), rng.range_f32(0.0, 2.0)) * scale;
    match rng.below(4) {
        0 => Obb2::new(
            c,
            [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y][rng.below(4) as usize],
            h,
        ),
        _ => Obb2::from_angle(c, h, rng.range_f32(-4.0, 4.0)),
    }
}

#[test]
fn scalar_sweeps_match_an_f64_oracle_and_hit_first() {
    let mut rng = Rng::new(0x5eed_00b3);
    let mut counts = [[0usize; 3]; 2];
    let mut errs: f64 = 0.0;
    for round in 0..100_000 {
        let scale = [1.0, 10.0, 1.0e3, 1.0e6][round % 4];
        let a = random_obb(&mut rng, scale);
        let b = random_obb(&mut rng, scale);
        let mut mv = |r: f32| v(rng.range_f32(-r, r), rng.range_f32(-r, r)) * scale;
        let (ma, mb) = (mv(16.0), mv(4.0));
        let (s, err) = check_obb(&a, ma, &b, mb);
        counts[0][s.status as usize] += 1;
        errs = errs.max(err);
        let (s, err) = check_aabb(&a.aabb(), ma, &b, mb);
        counts[1][s.status as usize] += 1;
        errs = errs.max(err);
    }
    // Every status in fair numbers.
    assert!(counts.iter().flatten().all(|&n| n > 5_000), "{counts:?}");
    assert!(errs <= TOLERANCE, "{errs}");
    eprintln!("largest |sep(t)| / scale: {errs:e} (tolerance {TOLERANCE:e})");
}

#[test]
fn huge_speeds_and_coordinates_near_a_million() {
    let mut rng = Rng::new(0x5eed_00b4);
    for _ in 0..20_000 {
        let base = v(1.0e6, -1.0e6) * if rng.below(2) == 0 { 1.0 } else { -1.0 };
        let a = Obb2::from_angle(
            base + v(rng.range_f32(-50.0, 50.0), rng.range_f32(-50.0, 50.0)),
            v(rng.range_f32(0.0, 3.0), rng.range_f32(0.0, 3.0)),
            rng.range_f32(-4.0, 4.0),
        );
        let b = Obb2::from_angle(
            base + v(rng.range_f32(-50.0, 50.0), rng.range_f32(-50.0, 50.0)),
            v(rng.range_f32(0.0, 30.0), rng.range_f32(0.0, 0.1)),
            rng.range_f32(-4.0, 4.0),
        );
        // Aimed at b from far away at up to 10^6 per frame, or nudged around it.
        let m = if rng.below(2) == 0 {
            (b.center - a.center) * 10f32.powf(rng.range_f32(0.0, 4.0))
        } else {
            v(rng.range_f32(-200.0, 200.0), rng.range_f32(-200.0, 200.0))
        };
        check_obb(&a, m, &b, Vec2::ZERO);
        check_aabb(&a.aabb(), m, &b, Vec2::ZERO);
    }
}

// ---------------------------------------------------------------------------------------
// Agreement with the swept AABB.
// ---------------------------------------------------------------------------------------

/// A multiple of 1/8 in `[-r, r]`.
fn eighth(rng: &mut Rng, r: u32) -> f32 {
    (rng.below(16 * r + 1) as f32 - 8.0 * r as f32) / 8.0
}

#[test]
fn axis_aligned_boxes_agree_with_the_swept_aabb() {
    // On a grid every difference is exact, so both kernels compute the same gap and the
    // same velocity: the same status and the same bits of `t`. The normal is the same
    // except at exact corners (the AABB sets both components; these keep b's x face), and
    // the stop differs by the nudge (the AABB's is the gap itself, exact on a grid).
    let mut rng = Rng::new(0x5eed_00b5);
    let mut hits = 0;
    for _ in 0..100_000 {
        let half = |rng: &mut Rng| eighth(rng, 2).abs();
        let a = Aabb::from_center_half_extents(
            v(eighth(&mut rng, 8), eighth(&mut rng, 8)),
            v(half(&mut rng), half(&mut rng)),
        );
        let b = Aabb::from_center_half_extents(
            v(eighth(&mut rng, 8), eighth(&mut rng, 8)),
            v(half(&mut rng), half(&mut rng)),
        );
        let (ma, mb) = (
            v(eighth(&mut rng, 16), eighth(&mut rng, 16)),
            v(eighth(&mut rng, 4), eighth(&mut rng, 4)),
        );
        let quarter = [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y][rng.below(4) as usize];
        let to_obb = |x: &Aabb, axis: Vec2| {
            let (c, h) = ((x.min + x.max) * 0.5, (x.max - x.min) * 0.5);
            Obb2::new(c, axis, if axis.x != 0.0 { h } else { v(h.y, h.x) })
        };
        let want = sweep_aabb_aabb(&a, ma, &b, mb);
        for got in [
            sweep_obb2_obb2(&to_obb(&a, Vec2::X), ma, &to_obb(&b, quarter), mb),
            sweep_obb2_obb2(&to_obb(&a, quarter), ma, &to_obb(&b, Vec2::X), mb),
            sweep_aabb_obb2(&a, ma, &to_obb(&b, quarter), mb),
        ] {
            let what = format!("{a:?} {ma:?} {b:?} {mb:?}: {got:?} vs {want:?}");
            assert_eq!(got.status, want.status, "{what}");
            assert_eq!(got.t.to_bits(), want.t.to_bits(), "{what}");
            if want.is_hit() && !want.is_corner() {
                assert_eq!(got.normal, want.normal, "{what}");
            }
            if want.is_hit() {
                // Across the hit face both stops end flush (to within the nudge); along
                // it the AABB slides the whole motion, the oriented sweep stops at t.
                let n = got.normal;
                assert!((got.stop.dot(n) - want.stop.dot(n)).abs() <= 1e-4, "{what}");
            }
        }
        hits += usize::from(want.is_hit());
    }
    assert!(hits > 10_000, "{hits}");
}

// ---------------------------------------------------------------------------------------
// The batches.
// ---------------------------------------------------------------------------------------

/// Moving boxes with some special values; pairs in random order.
fn scene(n: usize, seed: u64) -> (Vec<Obb2>, Vec<Aabb>, Vec<Vec2>, Vec<Pair>) {
    let mut rng = Rng::new(seed);
    let mut obbs: Vec<Obb2> = (0..n).map(|_| random_obb(&mut rng, 1.0)).collect();
    let mut aabbs: Vec<Aabb> = (0..n).map(|_| random_obb(&mut rng, 1.0).aabb()).collect();
    for _ in 0..n / 50 {
        let i = rng.below(n as u32) as usize;
        obbs[i].half_extents.x = special(&mut rng);
        let j = rng.below(n as u32) as usize;
        aabbs[j].max.y = special(&mut rng);
    }
    let motions = (0..n)
        .map(|_| {
            if rng.below(60) == 0 {
                v(special(&mut rng), 0.0)
            } else {
                v(rng.range_f32(-15.0, 15.0), rng.range_f32(-15.0, 15.0))
            }
        })
        .collect();
    let pairs = (0..4 * n + 3)
        .map(|_| Pair::new(rng.below(n as u32), rng.below(n as u32)))
        .collect();
    (obbs, aabbs, motions, pairs)
}

fn same_list(got: &[PairSweep], want: &[PairSweep]) -> bool {
    got.len() == want.len()
        && got
            .iter()
            .zip(want)
            .all(|(g, w)| g.pair == w.pair && same_sweep(&g.sweep, &w.sweep))
}

#[test]
fn batches_match_the_scalar_kernels_at_every_level_thread_count_and_input() {
    for (n, seed) in [(1, 1), (9, 2), (300, 3), (6000, 4)] {
        let (obbs, aabbs, motions, pairs) = scene(n, seed);
        // The AABBs move by the motions reversed: each side its own.
        let aabb_motions: Vec<Vec2> = motions.iter().map(|&m| -m).collect();
        let keep =
            |p: Pair, s: Sweep| (s.status != Miss).then_some(PairSweep { pair: p, sweep: s });
        let want_obb: Vec<PairSweep> = pairs
            .iter()
            .filter_map(|&p| {
                let (i, j) = (p.a as usize, p.b as usize);
                keep(
                    p,
                    sweep_obb2_obb2(&obbs[i], motions[i], &obbs[j], motions[j]),
                )
            })
            .collect();
        let want_aabb: Vec<PairSweep> = pairs
            .iter()
            .filter_map(|&p| {
                let (i, j) = (p.a as usize, p.b as usize);
                keep(
                    p,
                    sweep_aabb_obb2(&aabbs[i], aabb_motions[i], &obbs[j], motions[j]),
                )
            })
            .collect();
        if n >= 300 {
            for want in [&want_obb, &want_aabb] {
                let hits = want.iter().filter(|h| h.sweep.is_hit()).count();
                assert!(hits > 10 && hits < pairs.len() / 2, "{hits}");
            }
        }
        let os = Obb2Soa::from(&obbs[..]);
        let als = AabbSoa::from(&aabbs[..]);
        let (ms, ams) = (
            MotionSoa::from(&motions[..]),
            MotionSoa::from(&aabb_motions[..]),
        );
        for &level in SimdLevel::available() {
            for threads in [1, 2, 4] {
                pool(threads).install(|| {
                    let mut np = narrow(level, threads > 1);
                    let what = format!("n={n} {level:?} x{threads}");
                    let got = np
                        .sweep_obb2_obb2(os.columns(), ms.columns(), &pairs)
                        .unwrap();
                    assert!(same_list(got, &want_obb), "obb columns {what}");
                    let got = np.sweep_obb2_obb2(&obbs[..], &motions[..], &pairs).unwrap();
                    assert!(same_list(got, &want_obb), "obb records {what}");
                    let got = np
                        .sweep_aabb_obb2(
                            als.columns(),
                            ams.columns(),
                            os.columns(),
                            ms.columns(),
                            &pairs,
                        )
                        .unwrap();
                    assert!(same_list(got, &want_aabb), "aabb columns {what}");
                    let got = np
                        .sweep_aabb_obb2(
                            &aabbs[..],
                            &aabb_motions[..],
                            &obbs[..],
                            &motions[..],
                            &pairs,
                        )
                        .unwrap();
                    assert!(same_list(got, &want_aabb), "aabb records {what}");
                });
            }
        }
        // Bad input: a pair out of range and motions that do not match.
        let mut np = narrow(SimdLevel::best(), false);
        let bad = [Pair::new(0, n as u32)];
        assert!(np.sweep_obb2_obb2(&obbs[..], &motions[..], &bad).is_err());
        assert!(
            np.sweep_obb2_obb2(&obbs[..], &motions[..n - 1], &pairs)
                .is_err()
        );
        let (a, am, o, om) = (&aabbs[..], &aabb_motions[..], &obbs[..], &motions[..]);
        assert!(np.sweep_aabb_obb2(a, am, o, om, &bad).is_err());
        assert!(np.sweep_aabb_obb2(a, am, &o[..n - 1], om, &pairs).is_err());
        assert!(np.sweep_aabb_obb2(a, &am[..n - 1], o, om, &pairs).is_err());
        assert!(np.sweep_aabb_obb2(a, am, o, &om[..n - 1], &pairs).is_err());
    }
}
