//! [`ContactPoint`] against an `f64` oracle of its own: signed distances to each shape,
//! and the depth of overlap as the least, over a fine sweep of directions, of how far
//! the shapes overlap along a direction.

use super::*;
use crate::math::{Aabb, Capsule, Circle, Obb2};
use crate::rng::Rng;

/// The oracle's shape: a rectangle (centre, unit axis, half extents) or a disc, in
/// `f64`, built from the `f32` shape on its own.
enum Solid {
    Rect(DVec2, DVec2, DVec2),
    Disc(DVec2, f64),
    /// A capsule: its segment's ends and its radius.
    Capsule(DVec2, DVec2, f64),
}

fn solid(s: &Shape) -> Solid {
    match s {
        Shape::Aabb(b) => {
            let (lo, hi) = (b.min.as_dvec2(), b.max.as_dvec2());
            Solid::Rect((lo + hi) / 2.0, DVec2::X, (hi - lo) / 2.0)
        }
        Shape::Circle(c) => Solid::Disc(c.center.as_dvec2(), f64::from(c.radius)),
        Shape::Obb2(o) => Solid::Rect(
            o.center.as_dvec2(),
            o.axis.as_dvec2().normalize(),
            o.half_extents.as_dvec2(),
        ),
        Shape::Capsule(k) => Solid::Capsule(k.a.as_dvec2(), k.b.as_dvec2(), f64::from(k.radius)),
    }
}

/// The signed distance from `p` to the shape's boundary: negative inside.
fn sd(s: &Solid, p: DVec2) -> f64 {
    match *s {
        Solid::Disc(c, r) => (p - c).length() - r,
        Solid::Capsule(a, b, r) => {
            let ab = b - a;
            let len2 = ab.length_squared();
            let t = if len2 > 0.0 {
                ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (p - (a + ab * t)).length() - r
        }
        Solid::Rect(c, u, e) => {
            let v = DVec2::new(-u.y, u.x);
            let d = p - c;
            let q = DVec2::new(d.dot(u).abs(), d.dot(v).abs()) - e;
            q.max(DVec2::ZERO).length() + q.x.max(q.y).min(0.0)
        }
    }
}

/// `max x·d` over the shape.
fn reach(s: &Solid, d: DVec2) -> f64 {
    match *s {
        Solid::Disc(c, r) => c.dot(d) + r * d.length(),
        Solid::Rect(c, u, e) => {
            let v = DVec2::new(-u.y, u.x);
            c.dot(d) + e.x * u.dot(d).abs() + e.y * v.dot(d).abs()
        }
        Solid::Capsule(a, b, r) => a.dot(d).max(b.dot(d)) + r * d.length(),
    }
}

/// How far `a` must move along the unit `n` to leave `b`.
fn overlap_along(a: &Solid, b: &Solid, n: DVec2) -> f64 {
    reach(b, n) + reach(a, -n)
}

/// The least overlap over all directions: a sweep of 3,600 angles, refined twice around
/// the best, each time a hundredth of the step. An upper bound within about `1e-7` rad.
fn least_overlap(a: &Solid, b: &Solid) -> f64 {
    let f = |th: f64| overlap_along(a, b, DVec2::new(th.cos(), th.sin()));
    let (mut best_th, mut best) = (0.0, f64::INFINITY);
    let mut step = core::f64::consts::TAU / 3600.0;
    for (level, n) in [1800, 200, 200].into_iter().enumerate() {
        if level > 0 {
            step /= 100.0;
        }
        let center = best_th;
        for k in -n..=n {
            let th = center + f64::from(k) * step;
            let o = f(th);
            if o < best {
                (best, best_th) = (o, th);
            }
        }
    }
    best
}

/// The size of the scene, for tolerances.
fn scale(a: &Shape, b: &Shape) -> f64 {
    let m = |s: &Shape| {
        let b = s.bounds();
        f64::from(b.min.abs().max(b.max.abs()).max_element())
    };
    1.0 + m(a).max(m(b))
}

fn random_shape(rng: &mut Rng, center: Vec2) -> Shape {
    let size = |rng: &mut Rng| {
        if rng.below(10) == 0 {
            0.0
        } else {
            rng.range_f32(0.5, 20.0)
        }
    };
    match rng.below(3) {
        0 => Shape::Aabb(Aabb::from_center_half_extents(
            center,
            Vec2::new(size(rng), size(rng)),
        )),
        1 => Shape::Circle(Circle::new(center, size(rng))),
        _ => {
            // Now and then an axis-aligned or a square-on rectangle: parallel faces.
            let angle = match rng.below(4) {
                0 => 0.0,
                1 => core::f32::consts::FRAC_PI_2,
                _ => rng.range_f32(-3.2, 3.2),
            };
            Shape::Obb2(Obb2::from_angle(
                center,
                Vec2::new(size(rng), size(rng)),
                angle,
            ))
        }
    }
}

fn random_pair(rng: &mut Rng) -> (Shape, Shape) {
    let ca = Vec2::new(rng.range_f32(-50.0, 50.0), rng.range_f32(-50.0, 50.0));
    let a = random_shape(rng, ca);
    let off = Vec2::new(rng.range_f32(-25.0, 25.0), rng.range_f32(-25.0, 25.0));
    let b = random_shape(rng, ca + off);
    (a, b)
}

fn pair_name(a: &Shape, b: &Shape) -> (ShapeKind, ShapeKind) {
    (a.kind(), b.kind())
}

use crate::math::ShapeKind;

/// Overlapping pairs of every kind: the depth is the least overlap over all
/// directions, the normal achieves it, each point is on its own shape's boundary, and
/// (but for features that do not face each other, rare) `b - a = normal * depth`.
#[test]
fn overlaps_match_the_oracle_for_every_kind_pair() {
    let mut rng = Rng::new(0xC0_47AC7);
    let mut seen = std::collections::BTreeMap::new();
    let mut facing = 0;
    let mut tested = 0;
    while seen.values().copied().min().unwrap_or(0) < 150 || seen.len() < 9 {
        let (a, b) = random_pair(&mut rng);
        let (sa, sb) = (solid(&a), solid(&b));
        let least = least_overlap(&sa, &sb);
        if least < 0.0 {
            continue;
        }
        *seen.entry(pair_name(&a, &b)).or_insert(0) += 1;
        tested += 1;
        let p = ContactPoint::between(&a, &b);
        let tol = 1e-6 * scale(&a, &b);
        let (n, depth) = (p.normal.as_dvec2(), f64::from(p.depth));
        let (pa, pb) = (p.a.as_dvec2(), p.b.as_dvec2());
        let what = format!("{a:?} {b:?} -> {p:?} (least {least})");
        assert!((n.length() - 1.0).abs() < 1e-6, "{what}");
        assert!(depth >= 0.0, "{what}");
        // The normal achieves the depth, and no direction does better than it (the
        // sweep's answer is an upper bound, off by at most its angular step).
        assert!(
            (overlap_along(&sa, &sb, n) - depth).abs() <= 2.0 * tol,
            "{what}"
        );
        assert!(depth <= least + 2.0 * tol, "{what}");
        assert!(depth >= least - 1e-4 * scale(&a, &b), "{what}");
        assert!(sd(&sa, pa).abs() <= tol, "a's point off a: {what}");
        assert!(sd(&sb, pb).abs() <= tol, "b's point off b: {what}");
        let gap = pb - pa - n * depth;
        if gap.length() <= tol {
            facing += 1;
            // Facing features: `a` moved out by the depth touches `b` at point `b`.
            let out = a.translated((n * depth).as_vec2());
            assert!(sd(&solid(&out), pb).abs() <= 1e-5 * scale(&a, &b), "{what}");
        }
    }
    assert_eq!(seen.len(), 9, "{seen:?}");
    // Features that do not face each other (one deep inside a much larger shape, off
    // its face) are rare.
    assert!(facing * 20 >= tested * 19, "{facing} of {tested}");
}

/// Touching pairs (an overlapping pair, `a` moved out along the normal): the points
/// coincide, on both shapes, for the normal of least overlap and for a normal a
/// little off it, as a hit's rounded normal is.
#[test]
fn touching_pairs_meet_at_one_point() {
    let mut rng = Rng::new(0x70_0C4);
    let mut n_tested = 0;
    while n_tested < 3000 {
        let (a, b) = random_pair(&mut rng);
        let p = ContactPoint::between(&a, &b);
        let n = p.normal.as_dvec2();
        let out = n * f64::from(p.depth);
        let touch = contact_at(&a, out, &b, DVec2::ZERO, Some(p.normal));
        let moved = a.translated(out.as_vec2());
        let (sa, sb) = (solid(&moved), solid(&b));
        // `moved` is rounded to f32: allow for it.
        let tol = 1e-5 * scale(&a, &b);
        let what = format!("{a:?} {b:?} {p:?} -> {touch:?}");
        if least_overlap(&sa, &sb) < -tol {
            continue; // the move overshot by rounding: not a touching pair
        }
        n_tested += 1;
        assert_eq!(touch.depth, 0.0);
        assert!((touch.normal - p.normal).length() < 1e-6, "{what}");
        let (pa, pb) = (touch.a.as_dvec2(), touch.b.as_dvec2());
        assert!((pa - pb).length() <= 2.0 * tol, "apart: {what}");
        assert!(
            sd(&sa, pa).abs() <= tol && sd(&sb, pa).abs() <= tol,
            "{what}"
        );
        assert!(
            sd(&sa, pb).abs() <= tol && sd(&sb, pb).abs() <= tol,
            "{what}"
        );
    }
}

#[test]
fn a_disc_on_a_face_and_on_a_corner() {
    let block = Shape::Aabb(Aabb::from_coords(0.0, 0.0, 10.0, 4.0));
    // Resting on the right face.
    let disc = Shape::Circle(Circle::new(Vec2::new(12.0, 1.0), 2.0));
    let p = ContactPoint::along(&disc, &block, Vec2::X);
    assert_eq!((p.a, p.b), (Vec2::new(10.0, 1.0), Vec2::new(10.0, 1.0)));
    // Off the top-right corner at 3-4-5.
    let disc = Shape::Circle(Circle::new(Vec2::new(13.0, 8.0), 5.0));
    let p = ContactPoint::between(&disc, &block);
    assert_eq!(p.depth, 0.0);
    assert!((p.normal - Vec2::new(0.6, 0.8)).length() < 1e-7);
    assert_eq!(p.b, Vec2::new(10.0, 4.0));
    assert!((p.a - Vec2::new(10.0, 4.0)).length() < 1e-6);
    // The box seen as `a`: the normal turns, the points swap.
    let q = ContactPoint::between(&block, &disc);
    assert_eq!((q.a, q.b, q.normal), (p.b, p.a, -p.normal));
}

#[test]
fn overlapping_discs() {
    let a = Shape::Circle(Circle::new(Vec2::new(3.0, 4.0), 2.0));
    let b = Shape::Circle(Circle::new(Vec2::ZERO, 4.0));
    let p = ContactPoint::between(&a, &b);
    assert_eq!(p.depth, 1.0); // 2 + 4 - 5
    assert!((p.normal - Vec2::new(0.6, 0.8)).length() < 1e-7);
    assert!((p.a - Vec2::new(1.8, 2.4)).length() < 1e-6);
    assert!((p.b - Vec2::new(2.4, 3.2)).length() < 1e-6);
    // One centre: the world's x axis.
    let c = Shape::Circle(Circle::new(Vec2::ZERO, 1.0));
    let p = ContactPoint::between(&c, &b);
    assert_eq!((p.normal, p.depth), (Vec2::X, 5.0));
    assert_eq!((p.a, p.b), (Vec2::new(-1.0, 0.0), Vec2::new(4.0, 0.0)));
}

#[test]
fn rectangles_face_to_face_meet_in_the_middle_of_the_shared_stretch() {
    // Two boxes side by side, sharing x = 2 over y in [1, 3].
    let a = Shape::Aabb(Aabb::from_coords(2.0, 1.0, 5.0, 6.0));
    let b = Shape::Aabb(Aabb::from_coords(0.0, 0.0, 2.0, 3.0));
    let p = ContactPoint::along(&a, &b, Vec2::X);
    assert_eq!((p.a, p.b), (Vec2::new(2.0, 2.0), Vec2::new(2.0, 2.0)));
    // Overlapping by 0.5 along x.
    let a = Shape::Aabb(Aabb::from_coords(1.5, 1.0, 5.0, 6.0));
    let p = ContactPoint::between(&a, &b);
    assert_eq!((p.normal, p.depth), (Vec2::X, 0.5));
    assert_eq!((p.a, p.b), (Vec2::new(1.5, 2.0), Vec2::new(2.0, 2.0)));
    // A diamond's corner in a box's top face.
    let diamond = Shape::Obb2(Obb2::new(
        Vec2::new(1.0, 3.0 + core::f32::consts::SQRT_2 - 0.25),
        Vec2::new(
            core::f32::consts::FRAC_1_SQRT_2,
            core::f32::consts::FRAC_1_SQRT_2,
        ),
        Vec2::ONE,
    ));
    let p = ContactPoint::between(&diamond, &b);
    assert!((p.normal - Vec2::Y).length() < 1e-6, "{p:?}");
    assert!((p.depth - 0.25).abs() < 1e-6, "{p:?}");
    assert!((p.a - Vec2::new(1.0, 2.75)).length() < 1e-5, "{p:?}");
    assert!((p.b - Vec2::new(1.0, 3.0)).length() < 1e-5, "{p:?}");
}

/// Zero-size shapes, identical shapes, NaN: an answer, never a panic.
#[test]
fn degenerate_input() {
    let point = |x: f32, y: f32| Shape::Aabb(Aabb::from_coords(x, y, x, y));
    let p = ContactPoint::between(&point(1.0, 1.0), &point(1.0, 1.0));
    assert_eq!(
        (p.a, p.b, p.normal, p.depth),
        (Vec2::ONE, Vec2::ONE, Vec2::X, 0.0)
    );
    let dot = Shape::Circle(Circle::new(Vec2::ONE, 0.0));
    let p = ContactPoint::between(&dot, &dot);
    assert_eq!(
        (p.a, p.b, p.normal, p.depth),
        (Vec2::ONE, Vec2::ONE, Vec2::X, 0.0)
    );
    // A point at a box's centre leaves through its x face (a tie with y).
    let block = Shape::Aabb(Aabb::from_coords(0.0, 0.0, 2.0, 2.0));
    let p = ContactPoint::between(&point(1.0, 1.0), &block);
    assert_eq!((p.normal, p.depth), (Vec2::X, 1.0));
    assert_eq!((p.a, p.b), (Vec2::ONE, Vec2::new(2.0, 1.0)));
    let p = ContactPoint::between(&block, &block);
    assert_eq!((p.normal, p.depth), (Vec2::X, 2.0));
    let zero_axis = Shape::Obb2(Obb2::new(Vec2::ONE, Vec2::ZERO, Vec2::ONE));
    let p = ContactPoint::between(&zero_axis, &block);
    assert!(p.a.is_finite() && p.depth == 2.0, "{p:?}");
    let nan = Shape::Circle(Circle::new(Vec2::new(f32::NAN, 0.0), 1.0));
    for s in [nan, zero_axis, block, dot] {
        let _ = ContactPoint::between(&nan, &s);
        let _ = ContactPoint::between(&s, &nan);
        let _ = ContactPoint::along(&s, &nan, Vec2::new(f32::NAN, 1.0));
        let _ = ContactPoint::along(&s, &block, Vec2::ZERO);
    }
}

/// `contact_at`'s copies for the pairs of discs and axis-aligned boxes give the general
/// path's answer bit for bit: random pairs, apart, touching and overlapping, with and
/// without a hit normal (random, along an axis, diagonal, zero, NaN), with offsets.
#[test]
fn the_copies_per_pair_match_the_general_path_bit_for_bit() {
    let bits = |p: &ContactPoint| {
        [p.a.x, p.a.y, p.b.x, p.b.y, p.normal.x, p.normal.y, p.depth].map(f32::to_bits)
    };
    let mut rng = Rng::new(0x5EED_C0DE);
    let plain = |rng: &mut Rng, center: Vec2| loop {
        let s = random_shape(rng, center);
        if !matches!(s, Shape::Obb2(_)) {
            return s;
        }
    };
    let mut kinds = std::collections::BTreeSet::new();
    for round in 0..40_000 {
        let ca = Vec2::new(rng.range_f32(-50.0, 50.0), rng.range_f32(-50.0, 50.0));
        let a = plain(&mut rng, ca);
        let mut b = plain(&mut rng, ca);
        // Now and then b set flush against a's right or top side: touching faces.
        b = match (round % 4, a.bounds(), b) {
            (1, ab, Shape::Aabb(bb)) => {
                Shape::Aabb(bb.translated(Vec2::new(ab.max.x - bb.min.x, 0.0)))
            }
            (2, ab, Shape::Circle(c)) => Shape::Circle(Circle::new(
                Vec2::new(c.center.x, ab.max.y + c.radius),
                c.radius,
            )),
            (3, _, s) => {
                let off = Vec2::new(rng.range_f32(-25.0, 25.0), rng.range_f32(-25.0, 25.0));
                s.translated(off)
            }
            (_, _, s) => s,
        };
        let normal = match rng.below(7) {
            0 => None,
            1 => Some(Vec2::new(
                rng.range_f32(-1.0, 1.0),
                rng.range_f32(-1.0, 1.0),
            )),
            2 => Some([Vec2::X, Vec2::Y, Vec2::NEG_X, Vec2::NEG_Y][rng.below(4) as usize]),
            3 => Some(Vec2::new(0.5, -0.5)),
            4 => Some(Vec2::ZERO),
            5 => Some(Vec2::new(f32::NAN, 1.0)),
            _ => None,
        };
        let offset = |rng: &mut Rng| match rng.below(3) {
            0 => DVec2::ZERO,
            _ => DVec2::new(
                f64::from(rng.range_f32(-5.0, 5.0)),
                f64::from(rng.range_f32(-5.0, 5.0)),
            ),
        };
        let (oa, ob) = (offset(&mut rng), offset(&mut rng));
        let fast = contact_at(&a, oa, &b, ob, normal);
        let general = contact_general(&a, oa, &b, ob, normal);
        assert_eq!(
            bits(&fast),
            bits(&general),
            "{a:?} {oa} {b:?} {ob} {normal:?}: {fast:?} vs {general:?}"
        );
        kinds.insert(pair_name(&a, &b));
    }
    assert_eq!(kinds.len(), 4, "{kinds:?}");
    // NaN in: the same NaN out.
    let nan = Shape::Circle(Circle::new(Vec2::new(f32::NAN, 0.0), 1.0));
    let block = Shape::Aabb(Aabb::from_coords(0.0, 0.0, 2.0, 2.0));
    for (a, b) in [(nan, block), (block, nan), (nan, nan)] {
        for normal in [None, Some(Vec2::X)] {
            let fast = contact_at(&a, DVec2::ZERO, &b, DVec2::ONE, normal);
            let general = contact_general(&a, DVec2::ZERO, &b, DVec2::ONE, normal);
            assert_eq!(bits(&fast), bits(&general));
        }
    }
}

/// A capsule against each kind. Overlapping: against a disc the depth is the least
/// overlap; against the others it is never less (the faces' axes only). Touching across
/// a random normal: each point lies on its own shape's boundary.
#[test]
fn capsules_overlap_no_less_than_the_oracle_and_touch_on_their_boundaries() {
    let mut rng = Rng::new(0xCA95);
    let mut exact = 0;
    for _ in 0..3000 {
        let (other, _) = random_pair(&mut rng);
        let c = Vec2::new(rng.range_f32(-30.0, 30.0), rng.range_f32(-30.0, 30.0));
        let half = Vec2::new(rng.range_f32(-15.0, 15.0), rng.range_f32(-15.0, 15.0));
        let r = if rng.below(8) == 0 {
            0.0
        } else {
            rng.range_f32(0.5, 8.0)
        };
        let cap = Shape::Capsule(Capsule::new(c - half, c + half, r));
        for (a, b) in [(cap, other), (other, cap)] {
            let p = ContactPoint::between(&a, &b);
            let (sa, sb) = (solid(&a), solid(&b));
            let least = least_overlap(&sa, &sb);
            let tol = 1e-6 * scale(&a, &b);
            if least <= 0.0 {
                continue; // apart: `between` reports no depth to compare
            }
            assert!(
                f64::from(p.depth) >= least - tol,
                "{a:?} {b:?}: {} < {least}",
                p.depth
            );
            if matches!(other, Shape::Circle(_)) {
                assert!(
                    (f64::from(p.depth) - least).abs() <= tol,
                    "{a:?} {b:?}: {} vs {least}",
                    p.depth
                );
                exact += 1;
            }
            assert!((f64::from(p.normal.length()) - 1.0).abs() < 1e-6);
        }
        // Touching across a normal: the points on each boundary.
        let n = Vec2::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0));
        if n.length() > 0.1 {
            let p = ContactPoint::along(&cap, &other, n);
            let tol = 1e-4 * scale(&cap, &other);
            assert!(
                sd(&solid(&cap), p.a.as_dvec2()).abs() <= tol,
                "{cap:?} {n:?} {:?}",
                p.a
            );
            assert!(
                sd(&solid(&other), p.b.as_dvec2()).abs() <= tol,
                "{other:?} {n:?} {:?}",
                p.b
            );
        }
    }
    assert!(exact > 100, "only {exact} capsule–disc overlaps");
}
