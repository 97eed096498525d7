//! Static overlap kernels (AABB–AABB, circle–circle, AABB–circle): hand-picked cases from
//! the seed articles and the edges of the closed-interval rule, an f64 oracle, bad input,
//! and the batch at every SIMD level against the scalar kernels.

use crate::narrow_common;

use glam::Vec2;
use hantei::narrow::columns::{AabbSoa, CircleSoa};
use hantei::narrow::scalar::{overlap_aabb_aabb, overlap_aabb_circle, overlap_circle_circle};
use hantei::rng::Rng;
use hantei::{Aabb, Circle, Pair, SimdLevel};
use narrow_common::*;

fn b(x0: f32, y0: f32, x1: f32, y1: f32) -> Aabb {
    Aabb::from_coords(x0, y0, x1, y1)
}

fn c(x: f32, y: f32, r: f32) -> Circle {
    Circle::new(Vec2::new(x, y), r)
}

#[test]
fn aabb_closed_intervals_as_the_broad_phase() {
    let a = b(0.0, 0.0, 2.0, 2.0);
    // (other box, overlaps?)
    let cases = [
        (b(2.0, 0.0, 3.0, 2.0), true),                       // shared edge
        (b(2.0, 2.0, 3.0, 3.0), true),                       // shared corner
        (b(1.0, 1.0, 1.0, 1.0), true),                       // zero-size point inside
        (b(2.0, 1.0, 2.0, 1.0), true),                       // point on the edge
        (b(0.5, -1.0, 0.5, 5.0), true),                      // zero-width segment crossing
        (b(2.0 + f32::EPSILON * 2.0, 0.0, 3.0, 2.0), false), // one ulp away
        (b(-1.0, -1.0, 3.0, 3.0), true),                     // containing
        (b(3.0, 3.0, 4.0, 4.0), false),
        (b(1e30, 1e30, 2e30, 2e30), false),  // huge coordinates
        (b(-3e38, -3e38, 3e38, 3e38), true), // huge but finite: valid, overlaps
    ];
    for (other, want) in cases {
        assert_eq!(overlap_aabb_aabb(&a, &other), want, "{other:?}");
        assert_eq!(overlap_aabb_aabb(&other, &a), want, "{other:?} (swapped)");
        // Same answer as the broad phase's rule on finite boxes.
        assert_eq!(a.overlaps(&other), want, "{other:?} vs Aabb::overlaps");
    }
    // Seed 000 tests with strict inequalities, which misses touching boxes.
    assert!(overlap_aabb_aabb(
        &b(0.0, 0.0, 1.0, 1.0),
        &b(1.0, 0.0, 2.0, 1.0)
    ));
}

#[test]
fn circles_compare_squared_distances() {
    // Seed 001: D² <= (R + r)²; 3-4-5 triangles are exact.
    assert!(overlap_circle_circle(&c(0.0, 0.0, 3.0), &c(3.0, 4.0, 2.0)));
    assert!(!overlap_circle_circle(
        &c(0.0, 0.0, 3.0),
        &c(3.0, 4.0, 1.999_999)
    ));
    assert!(overlap_circle_circle(&c(1.0, 1.0, 0.0), &c(1.0, 1.0, 0.0))); // two equal points
    assert!(!overlap_circle_circle(
        &c(0.0, 0.0, 0.0),
        &c(0.0, 1e-19, 0.0)
    ));
    // Documented limit of squaring: a distance whose square underflows compares as 0.
    assert!(overlap_circle_circle(
        &c(0.0, 0.0, 0.0),
        &c(0.0, 1e-30, 0.0)
    ));
    let (big, step) = (2f32.powi(60), 2f32.powi(56));
    assert!(overlap_circle_circle(
        &c(big, 0.0, step),
        &c(big + step, 0.0, 0.0)
    )); // huge, touching
    assert!(!overlap_circle_circle(
        &c(big, 0.0, step),
        &c(big + 2.0 * step, 0.0, 0.0)
    ));
    // Negative radii are invalid: never a hit, even when the sum would be positive.
    assert!(!overlap_circle_circle(
        &c(0.0, 0.0, -1.0),
        &c(0.5, 0.0, 3.0)
    ));
    // Squares that overflow f32 answer "no" rather than compare ∞ with ∞.
    assert!(!overlap_circle_circle(
        &c(0.0, 0.0, 2e19),
        &c(3e19, 3e19, 2e19)
    ));
}

#[test]
fn aabb_circle_uses_the_closest_point() {
    let a = b(0.0, 0.0, 2.0, 2.0);
    assert!(overlap_aabb_circle(&a, &c(5.0, 6.0, 5.0))); // corner (2, 2), 3-4-5
    assert!(!overlap_aabb_circle(&a, &c(5.0, 6.0, 4.999)));
    assert!(overlap_aabb_circle(&a, &c(1.0, 1.0, 0.0))); // center inside, zero radius
    assert!(overlap_aabb_circle(&a, &c(3.0, 1.0, 1.0))); // touching the right edge
    assert!(!overlap_aabb_circle(&a, &c(3.0, 3.0, 1.0))); // near the corner, not touching
    assert!(overlap_aabb_circle(
        &b(1.0, 1.0, 1.0, 1.0),
        &c(1.0, 2.0, 1.0)
    )); // point box
}

#[test]
fn nan_and_infinity_never_hit() {
    let mut rng = Rng::new(11);
    for _ in 0..20_000 {
        let mut v: [f32; 8] = core::array::from_fn(|_| grid(&mut rng, 4));
        v[rng.below(8) as usize] = special(&mut rng);
        let (p, q) = (
            b(v[0], v[1], v[0] + 1.0, v[1] + 1.0),
            b(v[2], v[3], v[4], v[5]),
        );
        let has_bad = |xs: &[f32]| xs.iter().any(|x| !x.is_finite());
        // A box from -∞ to +∞ would overlap everything under the bare comparisons.
        let box_bad = has_bad(&[
            p.min.x, p.min.y, p.max.x, p.max.y, q.min.x, q.min.y, q.max.x, q.max.y,
        ]);
        if box_bad {
            assert!(!overlap_aabb_aabb(&p, &q), "{p:?} {q:?}");
        }
        let (ca, cb) = (c(v[0], v[1], v[6]), c(v[2], v[3], v[7]));
        if has_bad(&[v[0], v[1], v[2], v[3], v[6], v[7]]) {
            assert!(!overlap_circle_circle(&ca, &cb), "{ca:?} {cb:?}");
        }
        if has_bad(&[q.min.x, q.min.y, q.max.x, q.max.y, v[0], v[1], v[6]]) {
            assert!(!overlap_aabb_circle(&q, &ca), "{q:?} {ca:?}");
        }
    }
    let inf = f32::INFINITY;
    assert!(!overlap_aabb_aabb(
        &b(-inf, -inf, inf, inf),
        &b(0.0, 0.0, 1.0, 1.0)
    ));
    assert!(!overlap_circle_circle(&c(0.0, 0.0, inf), &c(1.0, 1.0, 1.0)));
    assert!(!overlap_aabb_circle(
        &b(-inf, -inf, inf, inf),
        &c(1.0, 1.0, 1.0)
    ));
    assert!(!overlap_aabb_circle(
        &b(0.0, 0.0, 1.0, 1.0),
        &c(0.5, 0.5, inf)
    ));
}

#[test]
fn scalar_kernels_match_an_f64_oracle() {
    let mut rng = Rng::new(12);
    let (mut hits, mut checked) = (0, 0);
    for round in 0..200_000 {
        // Grid values half the time (exact ties), uniform the other half.
        let mut val = |r: f32| {
            if round % 2 == 0 {
                grid(&mut rng, r as u32)
            } else {
                rng.range_f32(-r, r)
            }
        };
        let (x0, y0, w0, h0) = (val(8.0), val(8.0), val(3.0).abs(), val(3.0).abs());
        let (x1, y1, w1, h1) = (val(8.0), val(8.0), val(3.0).abs(), val(3.0).abs());
        let (p, q) = (b(x0, y0, x0 + w0, y0 + h0), b(x1, y1, x1 + w1, y1 + h1));
        let f = |x: f32| x as f64;
        // AABB: exact, no arithmetic on either side.
        let want = f(p.min.x) <= f(q.max.x)
            && f(q.min.x) <= f(p.max.x)
            && f(p.min.y) <= f(q.max.y)
            && f(q.min.y) <= f(p.max.y);
        assert_eq!(overlap_aabb_aabb(&p, &q), want, "{p:?} {q:?}");
        // Circles: decide in f64 unless the exact answer is within rounding of a tie.
        let (ca, cb) = (c(x0, y0, w0), c(x1, y1, h1));
        let d2 = (f(x1) - f(x0)).powi(2) + (f(y1) - f(y0)).powi(2);
        let s2 = (f(w0) + f(h1)).powi(2);
        if (d2 - s2).abs() > 1e-5 * (d2 + s2) || round % 2 == 0 {
            assert_eq!(overlap_circle_circle(&ca, &cb), d2 <= s2, "{ca:?} {cb:?}");
            checked += 1;
            hits += usize::from(d2 <= s2);
        }
        // AABB–circle.
        let qx = f(x1).clamp(f(p.min.x), f(p.max.x));
        let qy = f(y1).clamp(f(p.min.y), f(p.max.y));
        let e2 = (f(x1) - qx).powi(2) + (f(y1) - qy).powi(2);
        let r2 = f(h1).powi(2);
        if (e2 - r2).abs() > 1e-5 * (e2 + r2) || round % 2 == 0 {
            assert_eq!(overlap_aabb_circle(&p, &cb), e2 <= r2, "{p:?} {cb:?}");
        }
    }
    assert!(
        checked > 150_000 && hits > 10_000 && hits < checked - 10_000,
        "{hits}/{checked}"
    );
}

/// Random boxes and circles, some special values, pairs in random order with repeats.
fn scene(n: usize, seed: u64) -> (Vec<Aabb>, Vec<Circle>, Vec<Pair>) {
    let mut rng = Rng::new(seed);
    let val = |rng: &mut Rng| {
        if rng.below(50) == 0 {
            special(rng)
        } else {
            rng.range_f32(0.0, 40.0)
        }
    };
    let boxes: Vec<Aabb> = (0..n)
        .map(|_| {
            let (x, y) = (val(&mut rng), val(&mut rng));
            b(
                x,
                y,
                x + rng.range_f32(0.0, 4.0),
                y + rng.range_f32(0.0, 4.0),
            )
        })
        .collect();
    let circles: Vec<Circle> = (0..n)
        .map(|_| c(val(&mut rng), val(&mut rng), rng.range_f32(0.0, 3.0)))
        .collect();
    let pairs = (0..3 * n + 5)
        .map(|_| Pair::new(rng.below(n as u32), rng.below(n as u32)))
        .collect();
    (boxes, circles, pairs)
}

#[test]
fn batches_match_the_scalar_kernels_at_every_level_and_thread_count() {
    for (n, seed) in [(1, 1), (7, 2), (100, 3), (5000, 4)] {
        let (boxes, circles, pairs) = scene(n, seed);
        let (bs, cs) = (AabbSoa::from(&boxes[..]), CircleSoa::from(&circles[..]));
        let want_aabb: Vec<Pair> = pairs
            .iter()
            .copied()
            .filter(|p| overlap_aabb_aabb(&boxes[p.a as usize], &boxes[p.b as usize]))
            .collect();
        let want_circle: Vec<Pair> = pairs
            .iter()
            .copied()
            .filter(|p| overlap_circle_circle(&circles[p.a as usize], &circles[p.b as usize]))
            .collect();
        let want_mixed: Vec<Pair> = pairs
            .iter()
            .copied()
            .filter(|p| overlap_aabb_circle(&boxes[p.a as usize], &circles[p.b as usize]))
            .collect();
        assert!(n < 100 || (!want_aabb.is_empty() && want_aabb.len() < pairs.len()));
        for &level in SimdLevel::available() {
            for threads in [1, 2, 4] {
                pool(threads).install(|| {
                    let mut np = narrow(level, threads > 1);
                    let what = format!("n={n} {level:?} x{threads}");
                    assert_eq!(
                        np.overlap_aabb_aabb(bs.columns(), &pairs).unwrap(),
                        &want_aabb[..],
                        "aabb {what}"
                    );
                    assert_eq!(
                        np.overlap_circle_circle(cs.columns(), &pairs).unwrap(),
                        &want_circle[..],
                        "circle {what}"
                    );
                    assert_eq!(
                        np.overlap_aabb_circle(bs.columns(), cs.columns(), &pairs)
                            .unwrap(),
                        &want_mixed[..],
                        "mixed {what}"
                    );
                });
            }
        }
    }
}
