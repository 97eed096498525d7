//! Swept test of two shapes that move and turn during one frame: conservative
//! advancement on the exact `f64` distance between them.
//!
//! The math is documented on [`sweep_turning`](fn@super::sweep_turning).

use super::sweep_shapes;
use crate::math::{MAX_TURN, Shape, rotate, sin_cos};
use crate::narrow::{Sweep, SweepStatus};
use glam::Vec2;

/// A point or a vector in `f64`.
type P = [f64; 2];

/// The part of the pair's size and speed that [`sweep_turning`](fn@super::sweep_turning)
/// accepts as contact: `2⁻¹²`.
///
/// The tolerance is `TURN_TOLERANCE · (L + reach_a + reach_b)`, plus
/// [`TURN_TOLERANCE_FLOOR`] times the pair's largest coordinate. `L` is the fastest any
/// point of one shape moves relative to the other. The search takes at most about
/// `1 / TURN_TOLERANCE` steps.
pub const TURN_TOLERANCE: f64 = 1.0 / 4096.0;

/// The part of the pair's largest coordinate that
/// [`sweep_turning`](fn@super::sweep_turning) adds to its tolerance: `2⁻²²`, about two
/// `f32` steps at that coordinate.
///
/// Positions are `f32`, so a gap of a few of their steps has no meaning.
pub const TURN_TOLERANCE_FLOOR: f64 = 1.0 / 4_194_304.0;

/// The most distance evaluations one call makes. The tolerance bounds the count near
/// `4098`; this cap is only a guard.
const MAX_STEPS: u32 = 8192;

/// A shape as a convex core (a point, a segment or a quadrilateral) plus a radius, and
/// its motion: the core's corners relative to the turn centre.
#[derive(Debug, Clone, Copy)]
struct Mover {
    /// The turn centre at the start of the frame.
    c: P,
    /// How far the turn centre moves in the frame.
    m: P,
    /// The turn in the frame, in radians.
    turn: f64,
    /// The core's corners relative to the turn centre: 1, 2 or 4 of them.
    off: [P; 4],
    /// How many corners.
    n: usize,
    /// The radius around the core.
    r: f64,
    /// How far the farthest point of the shape lies from its turn centre.
    reach: f64,
}

fn p(v: Vec2) -> P {
    [f64::from(v.x), f64::from(v.y)]
}

fn sub(a: P, b: P) -> P {
    [a[0] - b[0], a[1] - b[1]]
}

fn dot(a: P, b: P) -> f64 {
    a[0] * b[0] + a[1] * b[1]
}

fn cross(a: P, b: P) -> f64 {
    a[0] * b[1] - a[1] * b[0]
}

/// The largest magnitude of a coordinate of `q`.
fn mag(q: P) -> f64 {
    q[0].abs().max(q[1].abs())
}

impl Mover {
    /// The mover of a shape of finite values, or `None` for a negative radius, a
    /// negative half extent, a zero axis or an inverted box.
    fn new(shape: &Shape, motion: Vec2, turn: f32) -> Option<Self> {
        let (c, off, n, r) = match shape {
            Shape::Circle(d) => (p(d.center), [[0.0; 2]; 4], 1, f64::from(d.radius)),
            Shape::Capsule(k) => {
                let (a, b) = (p(k.a), p(k.b));
                // Exact: the sum of two f32 is exact in f64, and so is the halving.
                let mid = [(a[0] + b[0]) * 0.5, (a[1] + b[1]) * 0.5];
                let mut off = [[0.0; 2]; 4];
                off[0] = sub(a, mid);
                off[1] = sub(b, mid);
                (mid, off, 2, f64::from(k.radius))
            }
            Shape::Obb2(o) => {
                if !(o.half_extents.x >= 0.0 && o.half_extents.y >= 0.0) {
                    return None;
                }
                // The axis made unit in f64, as a turned rectangle's is.
                let u = p(o.axis);
                let len = dot(u, u).sqrt();
                // The caller checked that every value is finite.
                if len == 0.0 {
                    return None;
                }
                let (u, h) = ([u[0] / len, u[1] / len], p(o.half_extents));
                let x = [u[0] * h[0], u[1] * h[0]];
                let y = [-u[1] * h[1], u[0] * h[1]];
                (p(o.center), quad(x, y), 4, 0.0)
            }
            Shape::Aabb(b) => {
                if !(b.min.x <= b.max.x && b.min.y <= b.max.y) {
                    return None;
                }
                let (lo, hi) = (p(b.min), p(b.max));
                let c = [(lo[0] + hi[0]) * 0.5, (lo[1] + hi[1]) * 0.5];
                let h = sub(hi, c);
                (c, quad([h[0], 0.0], [0.0, h[1]]), 4, 0.0)
            }
        };
        if r < 0.0 {
            return None;
        }
        let far = off[..n].iter().fold(0.0f64, |m, &q| m.max(dot(q, q)));
        Some(Self {
            c,
            m: p(motion),
            turn: f64::from(turn),
            off,
            n,
            r,
            reach: far.sqrt() + r,
        })
    }

    /// The core's corners at time `t`.
    fn pose(&self, t: f64) -> [P; 4] {
        let sc = if self.turn == 0.0 {
            (0.0, 1.0)
        } else {
            sin_cos(t * self.turn)
        };
        let at = [self.c[0] + t * self.m[0], self.c[1] + t * self.m[1]];
        let mut out = [[0.0; 2]; 4];
        for (o, &q) in out.iter_mut().zip(&self.off[..self.n]) {
            let w = rotate(q, sc);
            *o = [at[0] + w[0], at[1] + w[1]];
        }
        out
    }
}

/// The corners `±x ± y`, in order around the quadrilateral.
fn quad(x: P, y: P) -> [P; 4] {
    [
        [x[0] + y[0], x[1] + y[1]],
        [-x[0] + y[0], -x[1] + y[1]],
        [-x[0] - y[0], -x[1] - y[1]],
        [x[0] - y[0], x[1] - y[1]],
    ]
}

/// The edges of a core of `n` corners: a point is one edge of zero length, a segment
/// one edge, a quadrilateral four.
fn edges(q: &[P; 4], n: usize) -> impl Iterator<Item = (P, P)> + '_ {
    let count = if n == 4 { 4 } else { 1 };
    (0..count).map(move |i| (q[i], q[(i + 1) % n]))
}

/// The point of the segment `[a, b]` closest to `q`.
fn closest_on_segment(q: P, a: P, b: P) -> P {
    let e = sub(b, a);
    let ee = dot(e, e);
    let u = if ee > 0.0 {
        (dot(sub(q, a), e) / ee).clamp(0.0, 1.0)
    } else {
        0.0
    };
    [a[0] + u * e[0], a[1] + u * e[1]]
}

/// Whether the segments cross at a single point inside both (every side test strict).
fn cross_properly(a0: P, a1: P, b0: P, b1: P) -> bool {
    let (ea, eb) = (sub(a1, a0), sub(b1, b0));
    let d1 = cross(ea, sub(b0, a0));
    let d2 = cross(ea, sub(b1, a0));
    let d3 = cross(eb, sub(a0, b0));
    let d4 = cross(eb, sub(a1, b0));
    ((d1 > 0.0 && d2 < 0.0) || (d1 < 0.0 && d2 > 0.0))
        && ((d3 > 0.0 && d4 < 0.0) || (d3 < 0.0 && d4 > 0.0))
}

/// Whether `q` lies strictly inside the quadrilateral `k` (either orientation).
fn strictly_inside(q: P, k: &[P; 4]) -> bool {
    let mut pos = true;
    let mut neg = true;
    for i in 0..4 {
        let s = cross(sub(k[(i + 1) % 4], k[i]), sub(q, k[i]));
        pos &= s > 0.0;
        neg &= s < 0.0;
    }
    pos || neg
}

/// The distance between two convex cores, and the closest points (on `a`, on `b`).
///
/// When the cores meet, the distance is `0` and the points are `None`. Otherwise the
/// closest pair has a corner of one core, so the distance is the least distance from a
/// corner of either core to an edge of the other.
fn core_distance(a: &[P; 4], na: usize, b: &[P; 4], nb: usize) -> (f64, Option<(P, P)>) {
    let meet = edges(a, na)
        .any(|(a0, a1)| edges(b, nb).any(|(b0, b1)| cross_properly(a0, a1, b0, b1)))
        || (nb == 4 && strictly_inside(a[0], b))
        || (na == 4 && strictly_inside(b[0], a));
    if meet {
        return (0.0, None);
    }
    let mut best = f64::INFINITY;
    let mut pair = (a[0], b[0]);
    for &q in &a[..na] {
        for (b0, b1) in edges(b, nb) {
            let s = closest_on_segment(q, b0, b1);
            let d = sub(q, s);
            let dd = dot(d, d);
            if dd < best {
                best = dd;
                pair = (q, s);
            }
        }
    }
    for &q in &b[..nb] {
        for (a0, a1) in edges(a, na) {
            let s = closest_on_segment(q, a0, a1);
            let d = sub(s, q);
            let dd = dot(d, d);
            if dd < best {
                best = dd;
                pair = (s, q);
            }
        }
    }
    let d = sub(pair.0, pair.1);
    let len = dot(d, d).sqrt();
    if len > 0.0 {
        (len, Some(pair))
    } else {
        (0.0, None)
    }
}

/// A total order on the inputs of one side, to run every pair in one canonical order.
fn key(shape: &Shape, motion: Vec2, turn: f32) -> [u32; 10] {
    let mut k = [0u32; 10];
    let fields: &[f32] = &match shape {
        Shape::Aabb(b) => [b.min.x, b.min.y, b.max.x, b.max.y, 0.0, 0.0],
        Shape::Circle(c) => [c.center.x, c.center.y, c.radius, 0.0, 0.0, 0.0],
        Shape::Obb2(o) => [
            o.center.x,
            o.center.y,
            o.axis.x,
            o.axis.y,
            o.half_extents.x,
            o.half_extents.y,
        ],
        Shape::Capsule(c) => [c.a.x, c.a.y, c.b.x, c.b.y, c.radius, 0.0],
    };
    k[0] = shape.kind() as u32;
    for (slot, v) in k[1..7].iter_mut().zip(fields) {
        *slot = v.to_bits();
    }
    k[7] = motion.x.to_bits();
    k[8] = motion.y.to_bits();
    k[9] = turn.to_bits();
    k
}

/// Whether every value of the shape is finite.
fn shape_finite(shape: &Shape) -> bool {
    match shape {
        Shape::Aabb(b) => b.min.is_finite() && b.max.is_finite(),
        Shape::Circle(c) => c.center.is_finite() && c.radius.is_finite(),
        Shape::Obb2(o) => o.center.is_finite() && o.axis.is_finite() && o.half_extents.is_finite(),
        Shape::Capsule(c) => c.a.is_finite() && c.b.is_finite() && c.radius.is_finite(),
    }
}

/// `t` rounded down to an `f32`: never after `t`.
fn down_f32(t: f64) -> f32 {
    let f = t as f32;
    if f64::from(f) > t { f.next_down() } else { f }
}

/// The tolerance and the Lipschitz bound of a pair, from the documented formula.
struct Bounds {
    /// How fast the gap between the shapes can change, per frame.
    lip: f64,
    /// The gap accepted as contact.
    tol: f64,
    /// The allowance for rounding in one distance evaluation.
    slack: f64,
}

fn bounds(a: &Mover, b: &Mover) -> Bounds {
    let dm = sub(a.m, b.m);
    let spin = a.turn.abs() * a.reach + b.turn.abs() * b.reach;
    let lip = dot(dm, dm).sqrt() + spin;
    let size = lip + (a.reach + b.reach);
    let ends = |m: &Mover| mag(m.c).max(mag([m.c[0] + m.m[0], m.c[1] + m.m[1]]));
    let far = ends(a).max(ends(b)) + (a.reach + b.reach);
    Bounds {
        lip,
        tol: TURN_TOLERANCE * size + TURN_TOLERANCE_FLOOR * far,
        // Rounding in the poses and the distance is a few units of 2⁻⁵² of these.
        slack: (far + lip) * (1.0 / 1_099_511_627_776.0),
    }
}

/// Sweeps shape `a`, moving by `motion_a` and turning by `turn_a`, against shape `b`,
/// moving by `motion_b` and turning by `turn_b`, over one frame. The answer is seen
/// from `a`.
///
/// # Motion
/// At time `t` in `[0, 1]`, a shape's turn centre has moved by `t · motion`, and the
/// shape has turned by `t · turn` radians counter-clockwise (from `+x` toward `+y`)
/// about it. The turn centre is a rectangle's centre, a capsule's midpoint (exact, in
/// `f64`), a disc's centre or a box's centre. A rectangle's axis is made a unit vector
/// in `f64` first. A turn changes nothing for a disc. A box
/// ([`Shape::Aabb`]) with a turn turns like an [`Obb2`](crate::Obb2) with axis `(1, 0)`;
/// the store never passes one.
///
/// When both turns are zero (either sign), the answer is
/// [`sweep_shapes`](fn@super::sweep_shapes)'s, bit for bit.
///
/// # Search
/// Otherwise the kernel works in `f64`. Each shape is a convex core (a point, a segment
/// or a quadrilateral) and a radius. At time `t`, the gap `d(t)` is the exact distance
/// between the cores, posed with the crate's own sine and cosine, less the two radii.
/// The gap changes by at most `L` per frame, with
/// `L = |motion_a − motion_b| + |turn_a|·reach_a + |turn_b|·reach_b`. `reach` is how far
/// the shape reaches from its turn centre.
///
/// The search starts at `t = 0`. A gap of zero or less there is
/// [`Overlapping`](SweepStatus::Overlapping). Then it steps `t` forward by `d / L`
/// (less a rounding allowance), which no contact can come within. It stops with a hit
/// at the first `t` where the gap is at most `tol`. If a step passes the end of the
/// frame, it measures the gap at `t = 1` and reports a miss when it is more than `tol`.
///
/// `tol = (L + reach_a + reach_b) / 4096 + far / 4194304`, where `far` is the largest
/// coordinate the pair reaches (see [`TURN_TOLERANCE`] and [`TURN_TOLERANCE_FLOOR`]).
/// Each step moves `t` by at least `tol / L`, so a call takes at most about 4100
/// distance evaluations.
///
/// **It reports a hit when the shapes come within `tol`; the reported time is never
/// after the first contact.** It never misses a contact. Two shapes that pass within
/// `tol` of each other without touching may be reported as a hit.
///
/// # Answer
/// - A hit: `t` is the time of the hit, rounded down to `f32`. The normal is the unit
///   vector from `b`'s closest point to `a`'s at that time, so it points toward `a`.
///   The stop is `t · (motion_a − motion_b)`.
/// - Overlapping and a miss are as in the [`Sweep`] docs.
///
/// The pair is searched in one fixed order of its inputs. So swapping `a` and `b` gives
/// the same status and `t`, the normal negated, and the stop negated.
///
/// # Bad input
/// A NaN or infinite value, a turn of more than 64 full turns in size, a
/// negative radius or half extent, a rectangle's zero axis, or an inverted box is a
/// [`Miss`](SweepStatus::Miss).
///
/// ```
/// use hantei::{Capsule, Circle, Obb2, Shape};
/// use hantei::narrow::{SweepStatus, scalar::sweep_turning};
/// use glam::Vec2;
/// // A laser 100 long, centred at the origin along +x, turning 1 radian this frame.
/// let laser = Shape::Obb2(Obb2::new(Vec2::ZERO, Vec2::X, Vec2::new(50.0, 0.05)));
/// // A small disc 40 from the centre, at an angle of 0.5 radians.
/// let at = Vec2::new(0.5f32.cos(), 0.5f32.sin()) * 40.0;
/// let disc = Shape::Circle(Circle::new(at, 0.1));
/// let s = sweep_turning(&laser, Vec2::ZERO, 1.0, &disc, Vec2::ZERO, 0.0);
/// assert_eq!(s.status, SweepStatus::Hit);
/// assert!((s.t - 0.5).abs() < 0.01);
/// // The normal points from the disc toward the laser.
/// assert!(s.normal.dot(Vec2::new(0.5f32.sin(), -0.5f32.cos())) > 0.99);
/// // A capsule laser gives the same time, and so does the swapped call.
/// let cap = Shape::Capsule(Capsule::new(Vec2::new(-50.0, 0.0), Vec2::new(50.0, 0.0), 0.05));
/// let c = sweep_turning(&cap, Vec2::ZERO, 1.0, &disc, Vec2::ZERO, 0.0);
/// assert!(c.is_hit() && (c.t - 0.5).abs() < 0.01);
/// let back = sweep_turning(&disc, Vec2::ZERO, 0.0, &cap, Vec2::ZERO, 1.0);
/// assert_eq!((back.status, back.t, back.normal), (c.status, c.t, -c.normal));
/// ```
#[must_use]
pub fn sweep_turning(
    a: &Shape,
    motion_a: Vec2,
    turn_a: f32,
    b: &Shape,
    motion_b: Vec2,
    turn_b: f32,
) -> Sweep {
    sweep_turning_counted(a, motion_a, turn_a, b, motion_b, turn_b).0
}

/// [`sweep_turning`], with the number of distance evaluations it made.
pub(crate) fn sweep_turning_counted(
    a: &Shape,
    motion_a: Vec2,
    turn_a: f32,
    b: &Shape,
    motion_b: Vec2,
    turn_b: f32,
) -> (Sweep, u32) {
    if turn_a == 0.0 && turn_b == 0.0 {
        return (sweep_shapes(a, motion_a, b, motion_b), 0);
    }
    let rel = motion_a - motion_b;
    let miss = Sweep {
        status: SweepStatus::Miss,
        t: 1.0,
        normal: Vec2::ZERO,
        stop: rel,
    };
    let good = |s: &Shape, m: Vec2, turn: f32| {
        shape_finite(s) && m.is_finite() && turn.is_finite() && turn.abs() <= MAX_TURN
    };
    if !(good(a, motion_a, turn_a) && good(b, motion_b, turn_b)) {
        return (miss, 0);
    }
    let (Some(ma), Some(mb)) = (
        Mover::new(a, motion_a, turn_a),
        Mover::new(b, motion_b, turn_b),
    ) else {
        return (miss, 0);
    };
    // One canonical order, so that the swapped call makes the same steps.
    let swapped = key(b, motion_b, turn_b) < key(a, motion_a, turn_a);
    let (first, second) = if swapped { (mb, ma) } else { (ma, mb) };
    let (status, t, normal, evals) = search(&first, &second);
    let sweep = match status {
        SweepStatus::Miss => miss,
        SweepStatus::Overlapping => Sweep {
            status,
            t: 0.0,
            normal: Vec2::ZERO,
            stop: Vec2::ZERO,
        },
        SweepStatus::Hit => {
            let normal = if swapped { Vec2::ZERO - normal } else { normal };
            Sweep {
                status,
                t,
                normal,
                stop: rel * t,
            }
        }
    };
    (sweep, evals)
}

/// Conservative advancement from `t = 0`: the status, the time rounded down, the
/// normal toward `a`, and the number of distance evaluations.
fn search(a: &Mover, b: &Mover) -> (SweepStatus, f32, Vec2, u32) {
    let Bounds { lip, tol, slack } = bounds(a, b);
    let radii = a.r + b.r;
    let mut t = 0.0f64;
    let mut last: Option<P> = None;
    let mut evals = 0;
    loop {
        let (dist, pair) = core_distance(&a.pose(t), a.n, &b.pose(t), b.n);
        evals += 1;
        let d = dist - radii;
        if t == 0.0 && d <= 0.0 {
            return (SweepStatus::Overlapping, 0.0, Vec2::ZERO, evals);
        }
        let dir = pair.map(|(pa, pb)| sub(pa, pb));
        // Past the guard, a hit now is still never after the first contact.
        if d <= tol || evals >= MAX_STEPS {
            let n = dir.or(last).map_or(Vec2::ZERO, |v| {
                let len = dot(v, v).sqrt();
                Vec2::new((v[0] / len) as f32, (v[1] / len) as f32)
            });
            return (SweepStatus::Hit, down_f32(t), n, evals);
        }
        if t >= 1.0 {
            return (SweepStatus::Miss, 1.0, Vec2::ZERO, evals);
        }
        last = dir;
        // `d > tol > slack`, so the step is positive; no contact comes within it.
        let next = t + (d - slack) / lip;
        t = if next < 1.0 { next } else { 1.0 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Capsule, Circle, Obb2};
    use crate::rng::Rng;

    /// The cost of a call: distance evaluations and time, for a bullet well away (a
    /// miss), a hit and a graze. `cargo test --release --lib sweep_turning::tests::cost
    /// -- --ignored --nocapture`.
    #[test]
    #[ignore = "a measurement: run in release with --nocapture"]
    fn cost() {
        let mut rng = Rng::new(5);
        let n = 20_000;
        // The laser reaches 50.0025 (rectangle) or 50.5 (capsule); the disc's radius is
        // 0.5. A graze passes 0.1 beyond the tip: about twice the tolerance, still.
        for (name, gap) in [("miss", 30.0f32), ("hit", -5.0), ("graze", 0.1)] {
            let cases: Vec<_> = (0..n)
                .map(|i| {
                    let laser = if i % 2 == 0 {
                        Shape::Obb2(Obb2::new(Vec2::ZERO, Vec2::X, Vec2::new(50.0, 0.5)))
                    } else {
                        Shape::Capsule(Capsule::new(
                            Vec2::new(-50.0, 0.0),
                            Vec2::new(50.0, 0.0),
                            0.5,
                        ))
                    };
                    let turn = rng.range_f32(0.5, 4.0);
                    let angle = rng.range_f32(0.1, 0.9) * turn;
                    let reach = if i % 2 == 0 { 50.0025 } else { 50.5 };
                    let at = Vec2::new(angle.cos(), angle.sin()) * (reach + 0.5 + gap);
                    let disc = Shape::Circle(Circle::new(at, 0.5));
                    let m = if name == "graze" {
                        Vec2::ZERO
                    } else {
                        Vec2::new(rng.range_f32(-2.0, 2.0), rng.range_f32(-2.0, 2.0))
                    };
                    (laser, turn, disc, m)
                })
                .collect();
            let mut evals = 0u64;
            let mut hits = 0;
            let start = std::time::Instant::now();
            for (laser, turn, disc, m) in &cases {
                let (s, e) = sweep_turning_counted(laser, Vec2::ZERO, *turn, disc, *m, 0.0);
                evals += u64::from(e);
                hits += usize::from(s.is_hit());
            }
            let ns = start.elapsed().as_nanos() as f64 / n as f64;
            eprintln!(
                "{name}: {:.1} distance evaluations per call, {ns:.0} ns per call, {hits} hits of {n}",
                evals as f64 / n as f64
            );
        }
    }
}
