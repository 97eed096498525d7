//! The turning sweep against its `f64` oracle.
//!
//! One input decodes two shapes of any kinds, their motions and their turns, biased
//! toward the edge cases: NaN, `±∞`, huge and tiny values, zero and negative sizes,
//! turns of zero (either sign), at and past the limit of 64 full turns, and a second
//! shape placed near the first one's centre. The check then requires:
//! - with both turns zero, [`sweep_shapes`](scalar::sweep_shapes)'s answer, bit for bit;
//! - bad input (a NaN or infinite value, a turn past the limit, a negative radius or
//!   half extent, a rectangle's zero axis, an inverted box) is a miss;
//! - a miss, a hit and overlapping have the fields the [`Sweep`] docs give;
//! - swapping `a` and `b` gives the same status and the same bits of `t`, and the
//!   normal and the stop negated;
//! - the oracle's judge ([`turning_oracle::judge`](super::turning_oracle::judge)): the
//!   frame in 4096 sub-steps, each refined where the gap could dip to zero, then
//!   bisection to the crossing. (a) If the oracle sees contact at `τ`, the kernel
//!   reports a hit at `t <= τ`, or overlapping: never a missed contact, never late.
//!   (b) A hit at `t` has a gap of at most the documented tolerance at `t` (plus the
//!   `f32` rounding of `t`), no sub-step before `t` is in contact, and its normal is a
//!   unit vector that points toward `a`. (c) Overlapping only when the gap at `t = 0`
//!   is at most zero (plus rounding).
//!
//! # Input layout
//! ```text
//!  byte 0     the kinds of a (mod 4) and b (bits 2..4, mod 4)
//!  byte 1     scale of the grid values
//!  then       a, its motion, its turn; whether b sits near a; b, its motion, its turn
//! ```

use super::bytes::Bytes;
use super::turning_oracle::{self as oracle, Answer, Body, Form};
use crate::math::MAX_TURN;
use crate::narrow::{Sweep, SweepStatus, scalar};
use crate::{Capsule, Circle, Obb2, Shape};
use glam::Vec2;

/// An `f32` biased toward the edge cases, scaled when it is a plain grid value.
fn value(r: &mut Bytes<'_>, scale: f32) -> f32 {
    let v = r.f32_edge();
    if v.fract() == 0.0 || (v * 4.0).fract() == 0.0 {
        v * scale
    } else {
        v
    }
}

fn vec2(r: &mut Bytes<'_>, scale: f32) -> Vec2 {
    Vec2::new(value(r, scale), value(r, scale))
}

/// A shape of `kind` around `near` (or anywhere).
fn shape(r: &mut Bytes<'_>, kind: usize, scale: f32, near: Option<Vec2>) -> Shape {
    let at = |r: &mut Bytes<'_>| match near {
        Some(c) => c + Vec2::new(grid(r), grid(r)) * scale,
        None => vec2(r, scale),
    };
    match kind {
        0 => {
            let dirty = r.below(8) == 0;
            let b = r.aabb(None, scale, dirty);
            match near {
                Some(_) => Shape::Aabb(b.translated(at(r) - b.min)),
                None => Shape::Aabb(b),
            }
        }
        1 => {
            let c = at(r);
            let radius = if r.below(4) == 0 {
                0.0
            } else {
                value(r, scale)
            };
            Shape::Circle(Circle::new(c, radius))
        }
        2 => {
            let c = at(r);
            let half = vec2(r, scale);
            let axis = match r.below(4) {
                0 => [Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y][r.below(4)],
                1 => r.vec2_edge(),
                _ => {
                    let turn = f32::from(r.u8()) / 256.0 * core::f32::consts::TAU;
                    Vec2::new(turn.cos(), turn.sin())
                }
            };
            Shape::Obb2(Obb2::new(c, axis, half))
        }
        _ => {
            let a = at(r);
            let b = match r.below(4) {
                0 => a,
                1 => Vec2::new(value(r, scale), a.y),
                _ => at(r),
            };
            let radius = if r.below(4) == 0 {
                0.0
            } else {
                value(r, scale)
            };
            Shape::Capsule(Capsule::new(a, b, radius))
        }
    }
}

/// A small offset: `-4..4` in quarter steps.
fn grid(r: &mut Bytes<'_>) -> f32 {
    f32::from(r.u8() % 32) * 0.25 - 4.0
}

/// A turn: zero of either sign, a multiple of `1/16`, a special value, any value, or up
/// to the limit.
fn turn(r: &mut Bytes<'_>) -> f32 {
    let sign = if r.bool() { -1.0 } else { 1.0 };
    match r.below(8) {
        0 => 0.0,
        1 => -0.0,
        2..=4 => sign * f32::from(r.u8()) / 16.0,
        5 => [
            MAX_TURN,
            -MAX_TURN,
            MAX_TURN.next_up(),
            f32::NAN,
            f32::INFINITY,
            3.0,
            1.0,
            -1.0,
        ][r.below(8)],
        6 => r.f32_edge(),
        _ => sign * f32::from(r.u8()) / 255.0 * MAX_TURN,
    }
}

fn p(v: Vec2) -> [f64; 2] {
    [f64::from(v.x), f64::from(v.y)]
}

/// The oracle's body for a valid input, `None` for bad input (see the module docs).
#[must_use]
pub fn body(shape: &Shape, motion: Vec2, turn: f32) -> Option<Body> {
    if !(motion.is_finite() && turn.is_finite() && turn.abs() <= MAX_TURN) {
        return None;
    }
    let form = match shape {
        Shape::Aabb(b) => {
            let ok = b.min.is_finite() && b.max.is_finite();
            if !(ok && b.min.x <= b.max.x && b.min.y <= b.max.y) {
                return None;
            }
            let (lo, hi) = (p(b.min), p(b.max));
            Form::Rect {
                centre: [(lo[0] + hi[0]) * 0.5, (lo[1] + hi[1]) * 0.5],
                axis: [1.0, 0.0],
                half: [(hi[0] - lo[0]) * 0.5, (hi[1] - lo[1]) * 0.5],
            }
        }
        Shape::Circle(c) => {
            if !(c.center.is_finite() && c.radius.is_finite() && c.radius >= 0.0) {
                return None;
            }
            Form::Disc {
                centre: p(c.center),
                r: f64::from(c.radius),
            }
        }
        Shape::Obb2(o) => {
            let ok = o.center.is_finite() && o.axis.is_finite() && o.half_extents.is_finite();
            let u = p(o.axis);
            let len = u[0].hypot(u[1]);
            if !(ok && o.half_extents.x >= 0.0 && o.half_extents.y >= 0.0 && len > 0.0) {
                return None;
            }
            Form::Rect {
                centre: p(o.center),
                axis: [u[0] / len, u[1] / len],
                half: p(o.half_extents),
            }
        }
        Shape::Capsule(c) => {
            let ok = c.a.is_finite() && c.b.is_finite() && c.radius.is_finite();
            if !(ok && c.radius >= 0.0) {
                return None;
            }
            Form::Capsule {
                a: p(c.a),
                b: p(c.b),
                r: f64::from(c.radius),
            }
        }
    };
    Some(Body {
        form,
        motion: p(motion),
        turn: f64::from(turn),
    })
}

/// The kernel's answer in the oracle's terms.
#[must_use]
pub fn answer(s: &Sweep) -> Answer {
    Answer {
        status: s.status as u8,
        t: f64::from(s.t),
        normal: p(s.normal),
    }
}

fn same_bits(a: &Sweep, b: &Sweep) -> bool {
    let bits = |s: &Sweep| [s.t, s.normal.x, s.normal.y, s.stop.x, s.stop.y].map(f32::to_bits);
    a.status == b.status && bits(a) == bits(b)
}

/// One case: `a` and `b` with their motions and turns.
#[derive(Debug, Clone, Copy)]
pub struct Case {
    /// The first shape.
    pub a: Shape,
    /// Its motion.
    pub motion_a: Vec2,
    /// Its turn.
    pub turn_a: f32,
    /// The second shape.
    pub b: Shape,
    /// Its motion.
    pub motion_b: Vec2,
    /// Its turn.
    pub turn_b: f32,
}

fn decode(r: &mut Bytes<'_>) -> Case {
    let kinds = r.u8();
    let scale = r.scale();
    let a = shape(r, usize::from(kinds & 3), scale, None);
    let motion_a = if r.below(4) == 0 {
        Vec2::ZERO
    } else {
        vec2(r, scale)
    };
    let turn_a = turn(r);
    let near = (r.below(3) != 0).then(|| crate::math::turn_centre(&a));
    let b = shape(r, usize::from((kinds >> 2) & 3), scale, near);
    let motion_b = if r.below(3) == 0 {
        Vec2::ZERO
    } else {
        vec2(r, scale)
    };
    let turn_b = turn(r);
    Case {
        a,
        motion_a,
        turn_a,
        b,
        motion_b,
        turn_b,
    }
}

/// Checks one case (see the [module docs](self)).
///
/// # Errors
/// Which property failed.
pub fn check_case(c: &Case) -> Result<(), String> {
    let s = scalar::sweep_turning(&c.a, c.motion_a, c.turn_a, &c.b, c.motion_b, c.turn_b);
    let w = scalar::sweep_turning(&c.b, c.motion_b, c.turn_b, &c.a, c.motion_a, c.turn_a);
    if c.turn_a == 0.0 && c.turn_b == 0.0 {
        let want = scalar::sweep_shapes(&c.a, c.motion_a, &c.b, c.motion_b);
        if !same_bits(&s, &want) {
            return Err(format!("no turn: {s:?}, sweep_shapes {want:?}"));
        }
        return Ok(());
    }
    if w.status != s.status || w.t.to_bits() != s.t.to_bits() {
        return Err(format!("swapped: {w:?}, straight {s:?}"));
    }
    let neg = |x: Vec2, y: Vec2| {
        let one = |u: f32, v: f32| u == -v || (u.is_nan() && v.is_nan());
        one(x.x, y.x) && one(x.y, y.y)
    };
    if !(neg(w.normal, s.normal) && neg(w.stop, s.stop)) {
        return Err(format!("swapped: {w:?}, not the negated {s:?}"));
    }
    let rel = c.motion_a - c.motion_b;
    let fields_ok = match s.status {
        SweepStatus::Miss => s.t == 1.0 && s.normal == Vec2::ZERO && same_vec(s.stop, rel),
        SweepStatus::Overlapping => s.t == 0.0 && s.normal == Vec2::ZERO && s.stop == Vec2::ZERO,
        SweepStatus::Hit => (0.0..=1.0).contains(&s.t) && same_vec(s.stop, rel * s.t),
    };
    if !fields_ok {
        return Err(format!("fields of {s:?} against the Sweep docs"));
    }
    let (Some(a), Some(b)) = (
        body(&c.a, c.motion_a, c.turn_a),
        body(&c.b, c.motion_b, c.turn_b),
    ) else {
        if s.status != SweepStatus::Miss {
            return Err(format!("bad input, but {s:?}"));
        }
        return Ok(());
    };
    oracle::judge(&a, &b, answer(&s)).map_err(|e| format!("{s:?}: {e}"))
}

fn same_vec(a: Vec2, b: Vec2) -> bool {
    a.x.to_bits() == b.x.to_bits() && a.y.to_bits() == b.y.to_bits()
}

/// [`sweep_turning`](scalar::sweep_turning) against the `f64` oracle on the input
/// decoded from `data` (see the [module docs](self)).
///
/// # Panics
/// When a property is violated.
pub fn turning_vs_oracle(data: &[u8]) {
    if let Err(e) = turning_vs_oracle_with(data) {
        panic!("turning check failed: {e}");
    }
}

/// [`turning_vs_oracle`], returning the first violated property.
///
/// # Errors
/// A description of the first violated property, with the decoded input.
pub fn turning_vs_oracle_with(data: &[u8]) -> Result<(), String> {
    let c = decode(&mut Bytes::new(data));
    check_case(&c).map_err(|e| format!("{e}\ncase: {c:?}"))
}
