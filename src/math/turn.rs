//! Turning shapes: a sine and cosine that give the same bits on every machine, and a
//! shape turned about its centre.
//!
//! The standard library's `sin` and `cos` call the platform's maths library, which may
//! round differently on another architecture. Rollback netcode needs the same bits
//! everywhere. So [`sin_cos`] uses only `+`, `-`, `*` and `/` on `f64`, which IEEE 754
//! rounds the same way on every machine.

use super::{Capsule, Obb2, Shape};
use glam::Vec2;

/// The largest turn per frame a store accepts, in radians: 64 full turns.
///
/// A turn is an angle per frame. Beyond a full turn a frame it no longer changes where
/// the shape reaches. The limit keeps the time-of-impact search's cost bounded.
pub const MAX_TURN: f32 = 64.0 * core::f32::consts::TAU;

/// `(sin x, cos x)` for a finite `x` with `|x| <= 1e6`, correct to about `1e-15`.
///
/// Only IEEE arithmetic on `f64`: the same bits on every machine.
#[must_use]
pub(crate) fn sin_cos(x: f64) -> (f64, f64) {
    // x = k·π/2 + r, |r| <= π/4 (plus rounding). π/2 in three parts (Cody and Waite):
    // the first two have few enough bits that k·part is exact for |k| < 2^20.
    const P1: f64 = 1.570_796_326_734_125_614_166_259_765_625; // 33 bits
    const P2: f64 = 6.077_100_506_303_965_976_661_443_710_327_148_437_5e-11;
    const P3: f64 = 2.022_266_248_795_950_6e-21;
    let k = round_half_even(x * core::f64::consts::FRAC_2_PI);
    let r = ((x - k * P1) - k * P2) - k * P3;
    let r2 = r * r;
    // Taylor series to the 17th and 16th power: the first term left out is below
    // (π/4)^18 / 18! ≈ 2e-18 of the result.
    let s = r
        * (1.0
            + r2 * (-1.0 / 6.0
                + r2 * (1.0 / 120.0
                    + r2 * (-1.0 / 5040.0
                        + r2 * (1.0 / 362_880.0
                            + r2 * (-1.0 / 39_916_800.0
                                + r2 * (1.0 / 6_227_020_800.0
                                    + r2 * (-1.0 / 1_307_674_368_000.0
                                        + r2 * (1.0 / 355_687_428_096_000.0)))))))));
    let c = 1.0
        + r2 * (-0.5
            + r2 * (1.0 / 24.0
                + r2 * (-1.0 / 720.0
                    + r2 * (1.0 / 40_320.0
                        + r2 * (-1.0 / 3_628_800.0
                            + r2 * (1.0 / 479_001_600.0
                                + r2 * (-1.0 / 87_178_291_200.0
                                    + r2 * (1.0 / 20_922_789_888_000.0))))))));
    // The quadrant, from k mod 4 (k is an integer in f64).
    let q = k - 4.0 * floor_exact(k * 0.25);
    if q == 0.0 {
        (s, c)
    } else if q == 1.0 {
        (c, -s)
    } else if q == 2.0 {
        (-s, -c)
    } else {
        (-c, s)
    }
}

/// `x` rounded to the nearest integer, ties to even, for `|x| < 2^52`.
#[inline]
fn round_half_even(x: f64) -> f64 {
    // Adding and subtracting 1.5·2^52 rounds to an integer in the current (nearest,
    // ties to even) mode: plain IEEE arithmetic.
    const BIG: f64 = 6_755_399_441_055_744.0;
    (x + BIG) - BIG
}

/// `floor(x)` for `|x| < 2^51`, exact.
#[inline]
fn floor_exact(x: f64) -> f64 {
    let r = round_half_even(x);
    if r > x { r - 1.0 } else { r }
}

/// `v` turned counter-clockwise by the angle whose sine and cosine are `(s, c)`.
#[inline]
#[must_use]
pub(crate) fn rotate(v: [f64; 2], (s, c): (f64, f64)) -> [f64; 2] {
    [c * v[0] - s * v[1], s * v[0] + c * v[1]]
}

/// The centre a shape turns about: a rectangle's centre, a capsule's midpoint, a disc's
/// centre, a box's centre.
#[must_use]
pub(crate) fn turn_centre(shape: &Shape) -> Vec2 {
    match shape {
        Shape::Aabb(b) => (b.min + b.max) * 0.5,
        Shape::Circle(c) => c.center,
        Shape::Obb2(o) => o.center,
        Shape::Capsule(c) => capsule_mid(c),
    }
}

/// A capsule's midpoint, rounded once from `f64`.
#[inline]
fn capsule_mid(c: &Capsule) -> Vec2 {
    Vec2::new(
        ((f64::from(c.a.x) + f64::from(c.b.x)) * 0.5) as f32,
        ((f64::from(c.a.y) + f64::from(c.b.y)) * 0.5) as f32,
    )
}

/// `o` turned by `angle` radians counter-clockwise about its centre: its axis turned,
/// made unit again in `f64`, rounded once.
#[must_use]
pub(crate) fn turn_obb2(o: &Obb2, angle: f32) -> Obb2 {
    if angle == 0.0 {
        return *o;
    }
    let [x, y] = rotate(
        [f64::from(o.axis.x), f64::from(o.axis.y)],
        sin_cos(f64::from(angle)),
    );
    let len = (x * x + y * y).sqrt();
    let axis = if len > 0.0 {
        Vec2::new((x / len) as f32, (y / len) as f32)
    } else {
        o.axis
    };
    Obb2::new(o.center, axis, o.half_extents)
}

/// `c` turned by `angle` radians counter-clockwise about its midpoint, in `f64`,
/// rounded once.
#[must_use]
pub(crate) fn turn_capsule(c: &Capsule, angle: f32) -> Capsule {
    if angle == 0.0 {
        return *c;
    }
    let sc = sin_cos(f64::from(angle));
    let m = [
        (f64::from(c.a.x) + f64::from(c.b.x)) * 0.5,
        (f64::from(c.a.y) + f64::from(c.b.y)) * 0.5,
    ];
    let end = |p: Vec2| {
        let [x, y] = rotate([f64::from(p.x) - m[0], f64::from(p.y) - m[1]], sc);
        Vec2::new((m[0] + x) as f32, (m[1] + y) as f32)
    };
    Capsule::new(end(c.a), end(c.b), c.radius)
}

/// `shape` turned by `angle` radians counter-clockwise about its centre. Discs are
/// unchanged. A plain box cannot turn and is returned unchanged.
#[must_use]
pub(crate) fn turn_shape(shape: &Shape, angle: f32) -> Shape {
    match shape {
        Shape::Obb2(o) => Shape::Obb2(turn_obb2(o, angle)),
        Shape::Capsule(c) => Shape::Capsule(turn_capsule(c, angle)),
        other => *other,
    }
}

/// How far the farthest point of `shape` lies from its [`turn_centre`], rounded up: the
/// radius of the disc it sweeps when it turns a full turn.
#[must_use]
fn reach(shape: &Shape) -> f32 {
    let r = match shape {
        Shape::Aabb(b) => {
            let h = (b.max - b.min) * 0.5;
            hypot(f64::from(h.x), f64::from(h.y))
        }
        Shape::Circle(c) => f64::from(c.radius),
        Shape::Obb2(o) => hypot(f64::from(o.half_extents.x), f64::from(o.half_extents.y)),
        Shape::Capsule(c) => {
            let h = [
                (f64::from(c.b.x) - f64::from(c.a.x)) * 0.5,
                (f64::from(c.b.y) - f64::from(c.a.y)) * 0.5,
            ];
            hypot(h[0], h[1]) + f64::from(c.radius)
        }
    };
    up_f32(r)
}

/// `r` as the smallest `f32` at least `r`.
#[inline]
fn up_f32(r: f64) -> f32 {
    let f = r as f32;
    if f64::from(f) < r { f.next_up() } else { f }
}

/// `sqrt(x² + y²)` with IEEE operations only (no platform `hypot`). Both inputs come
/// from `f32`, so the squares cannot overflow.
#[inline]
fn hypot(x: f64, y: f64) -> f64 {
    (x * x + y * y).sqrt()
}

/// The shape's exact axis-aligned box, not grown.
#[inline]
fn raw_aabb(shape: &Shape) -> super::Aabb {
    match shape {
        Shape::Aabb(b) => *b,
        Shape::Circle(c) => c.aabb(),
        Shape::Obb2(o) => o.aabb(),
        Shape::Capsule(c) => c.aabb(),
    }
}

/// The box that holds `shape` wherever its turn by up to `angle` radians (either sign)
/// takes it, before any linear motion: the bounds at the start and at the end of the
/// turn, grown by how far an arc can bulge beyond its chord, or the disc of its reach
/// when the turn is a quarter turn or more. Not grown for rounding: the caller grows it.
#[must_use]
pub(crate) fn turn_bounds(shape: &Shape, angle: f32) -> super::Aabb {
    let start = raw_aabb(shape);
    if angle == 0.0 {
        return start;
    }
    let c = turn_centre(shape);
    let r = reach(shape);
    let a = f64::from(angle).abs();
    if a >= core::f64::consts::FRAC_PI_2 {
        return super::Aabb::from_coords(c.x - r, c.y - r, c.x + r, c.y + r);
    }
    let end = raw_aabb(&turn_shape(shape, angle));
    // A point at distance r from the centre turning by a stays within r·(1 − cos(a/2))
    // of its chord; the chord lies in the union of the two boxes.
    let (_, half_cos) = sin_cos(a * 0.5);
    let bulge = up_f32(f64::from(r) * (1.0 - half_cos)) * 1.0001 + f32::EPSILON * r;
    let u = start.union(&end);
    super::Aabb::from_coords(
        u.min.x - bulge,
        u.min.y - bulge,
        u.max.x + bulge,
        u.max.y + bulge,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::math::{Aabb, Circle};

    #[test]
    fn sin_cos_matches_the_standard_library() {
        let mut worst = 0.0f64;
        for i in -200_000..=200_000 {
            let x = f64::from(i) * 1.0e-3 * core::f64::consts::E;
            let (s, c) = sin_cos(x);
            worst = worst.max((s - x.sin()).abs()).max((c - x.cos()).abs());
        }
        assert!(worst < 1.0e-13, "worst error {worst:e}");
        assert_eq!(sin_cos(0.0), (0.0, 1.0));
        let (s, c) = sin_cos(core::f64::consts::FRAC_PI_2);
        assert!((s - 1.0).abs() < 1e-15 && c.abs() < 1e-15);
        let (s, c) = sin_cos(1.0e6);
        assert!((s - 1.0e6f64.sin()).abs() < 1e-9 && (c - 1.0e6f64.cos()).abs() < 1e-9);
    }

    #[test]
    fn turned_shapes_keep_their_size_and_centre() {
        let o = Obb2::new(Vec2::new(3.0, -2.0), Vec2::X, Vec2::new(5.0, 1.0));
        let t = turn_obb2(&o, core::f32::consts::FRAC_PI_2);
        assert_eq!(t.center, o.center);
        assert!((t.axis - Vec2::Y).length() < 1e-6);
        let c = Capsule::new(Vec2::new(-4.0, 1.0), Vec2::new(6.0, 1.0), 0.5);
        let t = turn_capsule(&c, core::f32::consts::PI);
        assert!((t.a - Vec2::new(6.0, 1.0)).length() < 1e-5);
        assert!((t.b - Vec2::new(-4.0, 1.0)).length() < 1e-5);
        assert_eq!(turn_capsule(&c, 0.0), c);
        let d = Shape::Circle(Circle::new(Vec2::ONE, 2.0));
        assert_eq!(turn_shape(&d, 1.0), d);
    }

    #[test]
    fn turn_bounds_hold_every_pose_of_the_turn() {
        let shapes = [
            Shape::Obb2(Obb2::new(
                Vec2::new(1.0, 2.0),
                Vec2::new(0.6, 0.8),
                Vec2::new(40.0, 1.5),
            )),
            Shape::Capsule(Capsule::new(
                Vec2::new(-30.0, 5.0),
                Vec2::new(10.0, -7.0),
                2.0,
            )),
            Shape::Capsule(Capsule::new(
                Vec2::new(1e5, 1e5),
                Vec2::new(1e5 + 300.0, 1e5),
                0.0,
            )),
        ];
        for shape in shapes {
            for angle in [1e-4f32, -0.01, 0.3, -1.0, 1.5, 2.0, -7.0, 40.0] {
                let b = turn_bounds(&shape, angle);
                for k in 0..=400 {
                    let pose = raw_aabb(&turn_shape(&shape, angle * k as f32 / 400.0));
                    assert!(
                        b.min.x <= pose.min.x
                            && b.min.y <= pose.min.y
                            && b.max.x >= pose.max.x
                            && b.max.y >= pose.max.y,
                        "{shape:?} turning {angle}: {b:?} misses {pose:?} at step {k}"
                    );
                }
            }
        }
        let a = Shape::Aabb(Aabb::from_coords(0.0, 0.0, 1.0, 1.0));
        assert_eq!(turn_bounds(&a, 0.0), raw_aabb(&a));
    }
}
