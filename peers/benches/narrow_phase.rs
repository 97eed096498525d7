//! Narrow phase: ns per pair for our scalar reference, our f32x8 batch (portable `wide`,
//! AVX2 and, where the CPU has it, the AVX-512 level), parry's per-pair calls, and, for the cheap kernels, the time it takes just
//! to stream the inputs through memory.
//!
//! parry's calls: `intersection_test` on cuboids (AABB, oriented boxes) and balls,
//! `cast_shapes` on cuboids for the swept tests (AABB, oriented boxes; on a cuboid and a
//! ball for the swept box–disc and disc–oriented-box tests, on balls for discs, on a
//! capsule and a capsule, cuboid or ball for the swept capsules; `cast_shapes_nonlinear`
//! for a turning capsule against a ball, beside our scalar `sweep_turning`),
//! `Cuboid::cast_local_ray` (in the box's
//! frame, max time 1) for the moving point; for AABBs also `bounding_volume::Aabb::
//! intersects` (`parry_bv`), its cheapest AABB test.
//!
//! ```text
//! cargo bench --bench narrow_phase -- --warm-up-time 1 --measurement-time 3 --sample-size 10
//! ```
//!
//! Two batch sizes: 64k pairs (cache-resident: the columns fit in L2/L3) and 1M pairs
//! (memory-bound: 30–120 MB of columns). Pair `k` is `(2k, 2k + 1)`: the shapes are laid
//! out in pair order, as a broad phase feeding the narrow phase in band order would, and
//! each pair is drawn at random and kept as a hit or a miss by a fair coin (rejection
//! sampling), so about half hit in an unpredictable order and branches cannot be learned.
//! The `records` rows run the best level on slices of the shapes (`&[Aabb]`, ...)
//! instead of columns: the same kernels, a whole shape gathered per load.
//! Our batches run on one thread (`parallel: false`) so that they compare with parry's
//! per-pair calls; the result is the same with threads.
//!
//! After criterion has run, the bench prints a markdown table of ns per pair (the
//! fastest of criterion's samples divided by the batch size, read back from its
//! `sample.json`: on a shared machine that is the least disturbed measurement).

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, Throughput};
use glam::{Quat, Vec2, Vec3};
use hantei::narrow::columns::{
    AabbSoa, CapsuleSoa, CircleSoa, MotionSoa, Obb2Soa, Obb3Soa, RaySoa,
};
use hantei::narrow::{NarrowConfig, NarrowPhase, Sweep, SweepStatus, scalar};
use hantei::rng::Rng;
use hantei::{Aabb, Capsule, Circle, Obb2, Obb3, Pair, Ray, Shape, SimdLevel};
use parry2d::query::RayCast;
use std::hint::black_box;

const SIZES: [(&str, usize); 2] = [("64k", 1 << 16), ("1M", 1 << 20)];

/// Pairs `(2k, 2k + 1)` of shapes from `gen`, each kept as a hit or a miss by a coin.
fn pairs_of<S>(
    n: usize,
    seed: u64,
    mut make: impl FnMut(&mut Rng) -> (S, S),
    hits: impl Fn(&S, &S) -> bool,
) -> (Vec<S>, Vec<Pair>) {
    let mut rng = Rng::new(seed);
    let mut shapes = Vec::with_capacity(2 * n);
    for _ in 0..n {
        let want = rng.below(2) == 0;
        let (a, b) = loop {
            let (a, b) = make(&mut rng);
            if hits(&a, &b) == want {
                break (a, b);
            }
        };
        shapes.push(a);
        shapes.push(b);
    }
    let pairs = (0..n as u32).map(|k| Pair::new(2 * k, 2 * k + 1)).collect();
    (shapes, pairs)
}

fn center(rng: &mut Rng) -> Vec2 {
    Vec2::new(rng.range_f32(0.0, 1000.0), rng.range_f32(0.0, 1000.0))
}

fn near(rng: &mut Rng, c: Vec2, r: f32) -> Vec2 {
    c + Vec2::new(rng.range_f32(-r, r), rng.range_f32(-r, r))
}

fn random_aabb(rng: &mut Rng, c: Vec2) -> Aabb {
    Aabb::from_center_half_extents(
        c,
        Vec2::new(rng.range_f32(0.5, 4.0), rng.range_f32(0.5, 4.0)),
    )
}

fn gen_aabb(rng: &mut Rng) -> (Aabb, Aabb) {
    let c = center(rng);
    let a = random_aabb(rng, c);
    let cb = near(rng, c, 9.0);
    (a, random_aabb(rng, cb))
}

fn gen_circle(rng: &mut Rng) -> (Circle, Circle) {
    let c = center(rng);
    let a = Circle::new(c, rng.range_f32(0.5, 4.0));
    (a, Circle::new(near(rng, c, 7.0), rng.range_f32(0.5, 4.0)))
}

fn gen_sweep(rng: &mut Rng) -> ((Aabb, Vec2), (Aabb, Vec2)) {
    let c = center(rng);
    let a = random_aabb(rng, c);
    let cb = near(rng, c, 14.0);
    let b = random_aabb(rng, cb);
    let mut m = || Vec2::new(rng.range_f32(-8.0, 8.0), rng.range_f32(-8.0, 8.0));
    ((a, m()), (b, m()))
}

fn gen_ray(rng: &mut Rng) -> (Ray, Aabb) {
    let c = center(rng);
    let b = random_aabb(rng, c);
    let motion = Vec2::new(rng.range_f32(-12.0, 12.0), rng.range_f32(-12.0, 12.0));
    (Ray::new(near(rng, c, 8.0), motion), b)
}

fn random_obb2(rng: &mut Rng, c: Vec2) -> Obb2 {
    let h = Vec2::new(rng.range_f32(0.5, 4.0), rng.range_f32(0.5, 4.0));
    Obb2::from_angle(c, h, rng.range_f32(-3.2, 3.2))
}

fn gen_obb2(rng: &mut Rng) -> (Obb2, Obb2) {
    let c = center(rng);
    let a = random_obb2(rng, c);
    let cb = near(rng, c, 7.0);
    (a, random_obb2(rng, cb))
}

fn random_obb3(rng: &mut Rng, c: Vec3) -> Obb3 {
    let h = Vec3::new(
        rng.range_f32(0.5, 4.0),
        rng.range_f32(0.5, 4.0),
        rng.range_f32(0.5, 4.0),
    );
    let q = Quat::from_xyzw(
        rng.normal_f32(),
        rng.normal_f32(),
        rng.normal_f32(),
        rng.normal_f32(),
    );
    Obb3::from_rotation(c, q, h)
}

fn gen_obb3(rng: &mut Rng) -> (Obb3, Obb3) {
    let c = Vec3::new(
        rng.range_f32(0.0, 1000.0),
        rng.range_f32(0.0, 1000.0),
        rng.range_f32(0.0, 1000.0),
    );
    let a = random_obb3(rng, c);
    let d = Vec3::new(
        rng.range_f32(-8.0, 8.0),
        rng.range_f32(-8.0, 8.0),
        rng.range_f32(-8.0, 8.0),
    );
    (a, random_obb3(rng, c + d))
}

fn narrow(level: SimdLevel) -> NarrowPhase {
    NarrowPhase::with_config(NarrowConfig {
        simd: level,
        parallel: false,
        ..NarrowConfig::default()
    })
}

/// Our rows of a kernel's group: every SIMD level this CPU runs on the columns, then the
/// best level on the records. `run(np, records)` runs the batch once and returns its
/// number of hits.
fn ours(
    g: &mut BenchmarkGroup<'_, WallTime>,
    mut run: impl FnMut(&mut NarrowPhase, bool) -> usize,
) {
    for level in levels() {
        let mut np = narrow(level);
        g.bench_function(BenchmarkId::from_parameter(level.name()), |b| {
            b.iter(|| run(&mut np, false))
        });
    }
    let mut np = narrow(SimdLevel::best());
    g.bench_function(BenchmarkId::from_parameter("records"), |b| {
        b.iter(|| run(&mut np, true))
    });
}

/// Every level this CPU runs, by name.
fn levels() -> Vec<SimdLevel> {
    SimdLevel::available().to_vec()
}

/// The streaming floor: every input byte read once, in order (pairs and columns).
fn stream(pairs: &[Pair], columns: &[&[f32]]) -> u32 {
    let p: &[u32] = bytemuck::cast_slice(pairs);
    let mut sum = p.iter().fold(0u32, |s, &x| s.wrapping_add(x));
    for c in columns {
        sum = c.iter().fold(sum, |s, &x| s.wrapping_add(x.to_bits()));
    }
    sum
}

fn p2(v: Vec2) -> parry2d::math::Vector {
    parry2d::math::Vector::new(v.x, v.y)
}

fn p3(v: Vec3) -> parry3d::math::Vector {
    parry3d::math::Vector::new(v.x, v.y, v.z)
}

fn bench_aabb(c: &mut Criterion) {
    use parry2d::{math::Pose, query::intersection_test, shape::Cuboid};
    for (name, n) in SIZES {
        let (shapes, pairs) = pairs_of(n, 1, gen_aabb, scalar::overlap_aabb_aabb);
        let soa = AabbSoa::from(&shapes[..]);
        let parry: Vec<(Pose, Cuboid)> = shapes
            .iter()
            .map(|b| {
                (
                    Pose::from_translation(p2(b.center())),
                    Cuboid::new(p2(b.half_extents())),
                )
            })
            .collect();
        let mut g = c.benchmark_group(format!("aabb_aabb/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.overlap_aabb_aabb(&shapes[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                np.overlap_aabb_aabb(soa.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (pa, ca) = &parry[p.a as usize];
                        let (pb, cb) = &parry[p.b as usize];
                        intersection_test(pa, ca, pb, cb).unwrap().intersecting
                    })
                    .count()
            })
        });
        // parry's bounding-volume test, the cheapest per-pair AABB call it has.
        let bv: Vec<parry2d::bounding_volume::Aabb> = shapes
            .iter()
            .map(|b| parry2d::bounding_volume::Aabb::new(p2(b.min), p2(b.max)))
            .collect();
        g.bench_function(BenchmarkId::from_parameter("parry_bv"), |b| {
            use parry2d::bounding_volume::BoundingVolume;
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| bv[p.a as usize].intersects(&bv[p.b as usize]))
                    .count()
            })
        });
        let cols = [&soa.min_x[..], &soa.min_y, &soa.max_x, &soa.max_y];
        g.bench_function(BenchmarkId::from_parameter("floor"), |b| {
            b.iter(|| stream(black_box(&pairs), &cols))
        });
        g.finish();
    }
}

fn bench_circle(c: &mut Criterion) {
    use parry2d::{math::Pose, query::intersection_test, shape::Ball};
    for (name, n) in SIZES {
        let (shapes, pairs) = pairs_of(n, 2, gen_circle, scalar::overlap_circle_circle);
        let soa = CircleSoa::from(&shapes[..]);
        let parry: Vec<(Pose, Ball)> = shapes
            .iter()
            .map(|s| (Pose::from_translation(p2(s.center)), Ball::new(s.radius)))
            .collect();
        let mut g = c.benchmark_group(format!("circle_circle/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.overlap_circle_circle(&shapes[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                np.overlap_circle_circle(soa.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (pa, ca) = &parry[p.a as usize];
                        let (pb, cb) = &parry[p.b as usize];
                        intersection_test(pa, ca, pb, cb).unwrap().intersecting
                    })
                    .count()
            })
        });
        let cols = [&soa.x[..], &soa.y, &soa.radius];
        g.bench_function(BenchmarkId::from_parameter("floor"), |b| {
            b.iter(|| stream(black_box(&pairs), &cols))
        });
        g.finish();
    }
}

fn bench_aabb_circle(c: &mut Criterion) {
    use parry2d::{math::Pose, query::intersection_test, shape::Ball, shape::Cuboid};
    for (name, n) in SIZES {
        let make = |rng: &mut Rng| {
            let c = center(rng);
            (
                random_aabb(rng, c),
                Circle::new(near(rng, c, 7.0), rng.range_f32(0.5, 4.0)),
            )
        };
        // Boxes and circles in two column sets; pair k = (box k, circle k).
        let mut rng = Rng::new(3);
        let (mut boxes, mut circles) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for _ in 0..n {
            let want = rng.below(2) == 0;
            let (b, c) = loop {
                let (b, c) = make(&mut rng);
                if scalar::overlap_aabb_circle(&b, &c) == want {
                    break (b, c);
                }
            };
            boxes.push(b);
            circles.push(c);
        }
        let pairs: Vec<Pair> = (0..n as u32).map(|k| Pair::new(k, k)).collect();
        let (bs, cs) = (AabbSoa::from(&boxes[..]), CircleSoa::from(&circles[..]));
        let pb: Vec<(Pose, Cuboid)> = boxes
            .iter()
            .map(|b| {
                (
                    Pose::from_translation(p2(b.center())),
                    Cuboid::new(p2(b.half_extents())),
                )
            })
            .collect();
        let pc: Vec<(Pose, Ball)> = circles
            .iter()
            .map(|s| (Pose::from_translation(p2(s.center)), Ball::new(s.radius)))
            .collect();
        let mut g = c.benchmark_group(format!("aabb_circle/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.overlap_aabb_circle(&boxes[..], &circles[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                np.overlap_aabb_circle(bs.columns(), cs.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (pa, ca) = &pb[p.a as usize];
                        let (pb_, cb) = &pc[p.b as usize];
                        intersection_test(pa, ca, pb_, cb).unwrap().intersecting
                    })
                    .count()
            })
        });
        g.finish();
    }
}

fn bench_sweep(c: &mut Criterion) {
    use parry2d::{
        math::Pose,
        query::{ShapeCastOptions, cast_shapes},
        shape::Cuboid,
    };
    for (name, n) in SIZES {
        let (shapes, pairs) = pairs_of(n, 4, gen_sweep, |(a, ma), (b, mb)| {
            scalar::sweep_aabb_aabb(a, *ma, b, *mb).is_hit()
        });
        let boxes: Vec<Aabb> = shapes.iter().map(|s| s.0).collect();
        let motions: Vec<Vec2> = shapes.iter().map(|s| s.1).collect();
        let (bs, ms) = (AabbSoa::from(&boxes[..]), MotionSoa::from(&motions[..]));
        let parry: Vec<(Pose, Cuboid, parry2d::math::Vector)> = shapes
            .iter()
            .map(|(b, m)| {
                (
                    Pose::from_translation(p2(b.center())),
                    Cuboid::new(p2(b.half_extents())),
                    p2(*m),
                )
            })
            .collect();
        let options = ShapeCastOptions::with_max_time_of_impact(1.0);
        let mut g = c.benchmark_group(format!("sweep_aabb_aabb/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.sweep_aabb_aabb(&boxes[..], &motions[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                np.sweep_aabb_aabb(bs.columns(), ms.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (pa, ca, va) = &parry[p.a as usize];
                        let (pb, cb, vb) = &parry[p.b as usize];
                        cast_shapes(pa, *va, ca, pb, *vb, cb, options)
                            .unwrap()
                            .is_some()
                    })
                    .count()
            })
        });
        g.finish();
    }
}

fn gen_sweep_circle(rng: &mut Rng) -> ((Circle, Vec2), (Circle, Vec2)) {
    let (a, b) = gen_circle(rng);
    let b = Circle::new(near(rng, a.center, 14.0), b.radius);
    let mut m = || Vec2::new(rng.range_f32(-8.0, 8.0), rng.range_f32(-8.0, 8.0));
    ((a, m()), (b, m()))
}

fn bench_sweep_circle(c: &mut Criterion) {
    use parry2d::{
        math::Pose,
        query::{ShapeCastOptions, cast_shapes},
        shape::Ball,
    };
    for (name, n) in SIZES {
        let (shapes, pairs) = pairs_of(n, 9, gen_sweep_circle, |(a, ma), (b, mb)| {
            scalar::sweep_circle_circle(a, *ma, b, *mb).is_hit()
        });
        let circles: Vec<Circle> = shapes.iter().map(|s| s.0).collect();
        let motions: Vec<Vec2> = shapes.iter().map(|s| s.1).collect();
        let (cs, ms) = (CircleSoa::from(&circles[..]), MotionSoa::from(&motions[..]));
        let parry: Vec<(Pose, Ball, parry2d::math::Vector)> = shapes
            .iter()
            .map(|(c, m)| {
                (
                    Pose::from_translation(p2(c.center)),
                    Ball::new(c.radius),
                    p2(*m),
                )
            })
            .collect();
        let options = ShapeCastOptions::with_max_time_of_impact(1.0);
        let mut g = c.benchmark_group(format!("sweep_circle_circle/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.sweep_circle_circle(&circles[..], &motions[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                np.sweep_circle_circle(cs.columns(), ms.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (pa, ca, va) = &parry[p.a as usize];
                        let (pb, cb, vb) = &parry[p.b as usize];
                        cast_shapes(pa, *va, ca, pb, *vb, cb, options)
                            .unwrap()
                            .is_some()
                    })
                    .count()
            })
        });
        g.finish();
    }
}

fn bench_ray(c: &mut Criterion) {
    use parry2d::{query::Ray as PRay, shape::Cuboid};
    for (name, n) in SIZES {
        let mut rng = Rng::new(5);
        let (mut rays, mut boxes) = (Vec::with_capacity(n), Vec::with_capacity(n));
        for _ in 0..n {
            let want = rng.below(2) == 0;
            let (r, b) = loop {
                let (r, b) = gen_ray(&mut rng);
                if scalar::cast_point_aabb(&r, &b).is_hit() == want {
                    break (r, b);
                }
            };
            rays.push(r);
            boxes.push(b);
        }
        let pairs: Vec<Pair> = (0..n as u32).map(|k| Pair::new(k, k)).collect();
        let (rs, bs) = (RaySoa::from(&rays[..]), AabbSoa::from(&boxes[..]));
        // parry casts in the box's local frame.
        let parry: Vec<(Cuboid, parry2d::math::Vector)> = boxes
            .iter()
            .map(|b| (Cuboid::new(p2(b.half_extents())), p2(b.center())))
            .collect();
        let mut g = c.benchmark_group(format!("cast_point_aabb/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.cast_point_aabb(&rays[..], &boxes[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                np.cast_point_aabb(rs.columns(), bs.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let r = &rays[p.a as usize];
                        let (cub, c) = &parry[p.b as usize];
                        let ray = PRay::new(p2(r.origin) - *c, p2(r.motion));
                        cub.cast_local_ray(&ray, 1.0, true).is_some()
                    })
                    .count()
            })
        });
        g.finish();
    }
}

fn bench_obb2(c: &mut Criterion) {
    use parry2d::{math::Pose, query::intersection_test, shape::Cuboid};
    for (name, n) in SIZES {
        let (shapes, pairs) = pairs_of(n, 6, gen_obb2, |a, b| {
            scalar::overlap_obb2_obb2(a, b).is_some()
        });
        let soa = Obb2Soa::from(&shapes[..]);
        let parry: Vec<(Pose, Cuboid)> = shapes
            .iter()
            .map(|s| {
                let angle = s.axis.y.atan2(s.axis.x);
                (
                    Pose::new(p2(s.center), angle),
                    Cuboid::new(p2(s.half_extents)),
                )
            })
            .collect();
        let mut g = c.benchmark_group(format!("obb2_obb2/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.overlap_obb2_obb2(&shapes[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                np.overlap_obb2_obb2(soa.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (pa, ca) = &parry[p.a as usize];
                        let (pb, cb) = &parry[p.b as usize];
                        intersection_test(pa, ca, pb, cb).unwrap().intersecting
                    })
                    .count()
            })
        });
        g.finish();
    }
}

/// A moving oriented box near another (`axis_aligned`: the first one is not turned).
fn gen_sweep_obb2(rng: &mut Rng, axis_aligned: bool) -> ((Obb2, Vec2), (Obb2, Vec2)) {
    let c = center(rng);
    let mut a = random_obb2(rng, c);
    if axis_aligned {
        a.axis = Vec2::X;
    }
    let cb = near(rng, c, 14.0);
    let b = random_obb2(rng, cb);
    let mut m = || Vec2::new(rng.range_f32(-8.0, 8.0), rng.range_f32(-8.0, 8.0));
    ((a, m()), (b, m()))
}

/// parry's pose, shape and velocity of a moving oriented box.
fn parry_obb2(
    (b, m): &(Obb2, Vec2),
) -> (
    parry2d::math::Pose,
    parry2d::shape::Cuboid,
    parry2d::math::Vector,
) {
    let angle = b.axis.y.atan2(b.axis.x);
    (
        parry2d::math::Pose::new(p2(b.center), angle),
        parry2d::shape::Cuboid::new(p2(b.half_extents)),
        p2(*m),
    )
}

/// parry's `cast_shapes` on cuboids for every pair, counting the hits.
fn parry_casts(
    a: &[(
        parry2d::math::Pose,
        parry2d::shape::Cuboid,
        parry2d::math::Vector,
    )],
    b: &[(
        parry2d::math::Pose,
        parry2d::shape::Cuboid,
        parry2d::math::Vector,
    )],
    pairs: &[Pair],
) -> usize {
    use parry2d::query::{ShapeCastOptions, cast_shapes};
    let options = ShapeCastOptions::with_max_time_of_impact(1.0);
    pairs
        .iter()
        .filter(|p| {
            let (pa, ca, va) = &a[p.a as usize];
            let (pb, cb, vb) = &b[p.b as usize];
            cast_shapes(pa, *va, ca, pb, *vb, cb, options)
                .unwrap()
                .is_some()
        })
        .count()
}

fn bench_sweep_obb2(c: &mut Criterion) {
    for (name, n) in SIZES {
        let (shapes, pairs) = pairs_of(
            n,
            8,
            |rng| gen_sweep_obb2(rng, false),
            |(a, ma), (b, mb)| scalar::sweep_obb2_obb2(a, *ma, b, *mb).is_hit(),
        );
        let boxes: Vec<Obb2> = shapes.iter().map(|s| s.0).collect();
        let motions: Vec<Vec2> = shapes.iter().map(|s| s.1).collect();
        let (bs, ms) = (Obb2Soa::from(&boxes[..]), MotionSoa::from(&motions[..]));
        let parry: Vec<_> = shapes.iter().map(parry_obb2).collect();
        let mut g = c.benchmark_group(format!("sweep_obb2_obb2/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.sweep_obb2_obb2(&boxes[..], &motions[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                np.sweep_obb2_obb2(bs.columns(), ms.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| parry_casts(&parry, &parry, &pairs))
        });
        g.finish();
    }
}

fn bench_sweep_aabb_obb2(c: &mut Criterion) {
    for (name, n) in SIZES {
        // Pair `k` is (AABB k, OBB k): the shapes of each side in pair order.
        let (shapes, _) = pairs_of(
            n,
            9,
            |rng| gen_sweep_obb2(rng, true),
            |(a, ma), (b, mb)| scalar::sweep_aabb_obb2(&a.aabb(), *ma, b, *mb).is_hit(),
        );
        let (a_side, b_side): (Vec<_>, Vec<_>) = shapes.chunks(2).map(|ab| (ab[0], ab[1])).unzip();
        let pairs: Vec<Pair> = (0..n as u32).map(|k| Pair::new(k, k)).collect();
        let aabbs: Vec<Aabb> = a_side.iter().map(|s| s.0.aabb()).collect();
        let aabb_motions: Vec<Vec2> = a_side.iter().map(|s| s.1).collect();
        let obbs: Vec<Obb2> = b_side.iter().map(|s| s.0).collect();
        let obb_motions: Vec<Vec2> = b_side.iter().map(|s| s.1).collect();
        let (als, ams) = (
            AabbSoa::from(&aabbs[..]),
            MotionSoa::from(&aabb_motions[..]),
        );
        let (os, oms) = (Obb2Soa::from(&obbs[..]), MotionSoa::from(&obb_motions[..]));
        let parry_a: Vec<_> = a_side.iter().map(parry_obb2).collect();
        let parry_b: Vec<_> = b_side.iter().map(parry_obb2).collect();
        let mut g = c.benchmark_group(format!("sweep_aabb_obb2/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.sweep_aabb_obb2(
                    &aabbs[..],
                    &aabb_motions[..],
                    &obbs[..],
                    &obb_motions[..],
                    black_box(&pairs),
                )
                .unwrap()
                .len()
            } else {
                np.sweep_aabb_obb2(
                    als.columns(),
                    ams.columns(),
                    os.columns(),
                    oms.columns(),
                    black_box(&pairs),
                )
                .unwrap()
                .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| parry_casts(&parry_a, &parry_b, &pairs))
        });
        g.finish();
    }
}

fn bench_obb3(c: &mut Criterion) {
    use parry3d::{
        math::{Pose, Rot3},
        query::intersection_test,
        shape::Cuboid,
    };
    for (name, n) in SIZES {
        let (shapes, pairs) = pairs_of(n, 7, gen_obb3, |a, b| {
            scalar::overlap_obb3_obb3(a, b).is_some()
        });
        let soa = Obb3Soa::from(&shapes[..]);
        let parry: Vec<(Pose, Cuboid)> = shapes
            .iter()
            .map(|s| {
                let q = Quat::from_mat3(&glam::Mat3::from_cols(s.axes[0], s.axes[1], s.axes[2]));
                let rot = Rot3::from_xyzw(q.x, q.y, q.z, q.w);
                (
                    Pose::from_parts(p3(s.center), rot),
                    Cuboid::new(p3(s.half_extents)),
                )
            })
            .collect();
        let mut g = c.benchmark_group(format!("obb3_obb3/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.overlap_obb3_obb3(&shapes[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                np.overlap_obb3_obb3(soa.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (pa, ca) = &parry[p.a as usize];
                        let (pb, cb) = &parry[p.b as usize];
                        intersection_test(pa, ca, pb, cb).unwrap().intersecting
                    })
                    .count()
            })
        });
        g.finish();
    }
}

/// Two inputs with their motions, and the pairs `(k, k)`.
type TwoSided<A, B> = (Vec<A>, Vec<Vec2>, Vec<B>, Vec<Vec2>, Vec<Pair>);

/// Pairs `k = (a[k], b[k])` from two inputs, each with its own motion, kept as a hit or a
/// miss by a coin; the shapes near each other, motions up to 8 per axis.
fn two_sided<A, B>(
    n: usize,
    seed: u64,
    mut make: impl FnMut(&mut Rng) -> (A, B),
    hits: impl Fn(&A, Vec2, &B, Vec2) -> bool,
) -> TwoSided<A, B> {
    let mut rng = Rng::new(seed);
    let (mut a, mut ma, mut b, mut mb) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    let motion = |rng: &mut Rng| Vec2::new(rng.range_f32(-8.0, 8.0), rng.range_f32(-8.0, 8.0));
    for _ in 0..n {
        let want = rng.below(2) == 0;
        loop {
            let (x, y) = make(&mut rng);
            let (mx, my) = (motion(&mut rng), motion(&mut rng));
            if hits(&x, mx, &y, my) == want {
                a.push(x);
                ma.push(mx);
                b.push(y);
                mb.push(my);
                break;
            }
        }
    }
    let pairs = (0..n as u32).map(|k| Pair::new(k, k)).collect();
    (a, ma, b, mb, pairs)
}

fn bench_sweep_aabb_circle(c: &mut Criterion) {
    use parry2d::{
        math::Pose,
        query::{ShapeCastOptions, cast_shapes},
        shape::{Ball, Cuboid},
    };
    for (name, n) in SIZES {
        let make = |rng: &mut Rng| {
            let c = center(rng);
            (
                random_aabb(rng, c),
                Circle::new(near(rng, c, 14.0), rng.range_f32(0.5, 4.0)),
            )
        };
        let (boxes, mb, circles, mc, pairs) = two_sided(n, 8, make, |b, mb, c, mc| {
            scalar::sweep_aabb_circle(b, mb, c, mc).is_hit()
        });
        let (bs, cs) = (AabbSoa::from(&boxes[..]), CircleSoa::from(&circles[..]));
        let (mbs, mcs) = (MotionSoa::from(&mb[..]), MotionSoa::from(&mc[..]));
        let pb: Vec<(Pose, Cuboid)> = boxes
            .iter()
            .map(|b| {
                (
                    Pose::from_translation(p2(b.center())),
                    Cuboid::new(p2(b.half_extents())),
                )
            })
            .collect();
        let pc: Vec<(Pose, Ball)> = circles
            .iter()
            .map(|s| (Pose::from_translation(p2(s.center)), Ball::new(s.radius)))
            .collect();
        let options = ShapeCastOptions::with_max_time_of_impact(1.0);
        let mut g = c.benchmark_group(format!("sweep_aabb_circle/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.sweep_aabb_circle(
                    &boxes[..],
                    &mb[..],
                    &circles[..],
                    &mc[..],
                    black_box(&pairs),
                )
                .unwrap()
                .len()
            } else {
                let (b, c) = (bs.columns(), cs.columns());
                np.sweep_aabb_circle(b, mbs.columns(), c, mcs.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (i, j) = (p.a as usize, p.b as usize);
                        let ((pa, ca), (pc_, cc)) = (&pb[i], &pc[j]);
                        cast_shapes(pa, p2(mb[i]), ca, pc_, p2(mc[j]), cc, options)
                            .unwrap()
                            .is_some()
                    })
                    .count()
            })
        });
        g.finish();
    }
}

fn bench_sweep_circle_obb2(c: &mut Criterion) {
    use parry2d::{
        math::Pose,
        query::{ShapeCastOptions, cast_shapes},
        shape::{Ball, Cuboid},
    };
    for (name, n) in SIZES {
        let make = |rng: &mut Rng| {
            let c = center(rng);
            (
                Circle::new(near(rng, c, 14.0), rng.range_f32(0.5, 4.0)),
                random_obb2(rng, c),
            )
        };
        let (circles, mc, boxes, mb, pairs) = two_sided(n, 9, make, |c, mc, b, mb| {
            scalar::sweep_circle_obb2(c, mc, b, mb).is_hit()
        });
        let (cs, bs) = (CircleSoa::from(&circles[..]), Obb2Soa::from(&boxes[..]));
        let (mcs, mbs) = (MotionSoa::from(&mc[..]), MotionSoa::from(&mb[..]));
        let pc: Vec<(Pose, Ball)> = circles
            .iter()
            .map(|s| (Pose::from_translation(p2(s.center)), Ball::new(s.radius)))
            .collect();
        let pb: Vec<(Pose, Cuboid)> = boxes
            .iter()
            .map(|s| {
                let angle = s.axis.y.atan2(s.axis.x);
                (
                    Pose::new(p2(s.center), angle),
                    Cuboid::new(p2(s.half_extents)),
                )
            })
            .collect();
        let options = ShapeCastOptions::with_max_time_of_impact(1.0);
        let mut g = c.benchmark_group(format!("sweep_circle_obb2/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.sweep_circle_obb2(
                    &circles[..],
                    &mc[..],
                    &boxes[..],
                    &mb[..],
                    black_box(&pairs),
                )
                .unwrap()
                .len()
            } else {
                let (c, b) = (cs.columns(), bs.columns());
                np.sweep_circle_obb2(c, mcs.columns(), b, mbs.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |b| {
            b.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (i, j) = (p.a as usize, p.b as usize);
                        let ((pc_, cc), (pa, ca)) = (&pc[i], &pb[j]);
                        cast_shapes(pc_, p2(mc[i]), cc, pa, p2(mb[j]), ca, options)
                            .unwrap()
                            .is_some()
                    })
                    .count()
            })
        });
        g.finish();
    }
}

/// A capsule near `c`: a segment 1 to 12 long at any angle, radius 0.25 to 2.
fn random_capsule(rng: &mut Rng, c: Vec2) -> Capsule {
    let half = rng.range_f32(0.5, 6.0);
    let turn = rng.range_f32(-3.2, 3.2);
    let u = Vec2::new(turn.cos(), turn.sin()) * half;
    Capsule::new(c - u, c + u, rng.range_f32(0.25, 2.0))
}

fn bench_sweep_capsule_capsule(c: &mut Criterion) {
    use parry2d::{
        math::Pose,
        query::{ShapeCastOptions, cast_shapes},
        shape::Capsule as ParryCapsule,
    };
    for (name, n) in SIZES {
        let make = |rng: &mut Rng| {
            let c = center(rng);
            let cb = near(rng, c, 14.0);
            (random_capsule(rng, c), random_capsule(rng, cb))
        };
        let (a, ma, b, mb, pairs) = two_sided(n, 10, make, |a, ma, b, mb| {
            scalar::sweep_capsule_capsule(a, ma, b, mb).is_hit()
        });
        // One input of both sides, `a`s first: pair `k` is `(k, n + k)`.
        let all: Vec<Capsule> = a.iter().chain(&b).copied().collect();
        let moves: Vec<Vec2> = ma.iter().chain(&mb).copied().collect();
        let pairs: Vec<Pair> = pairs
            .iter()
            .map(|p| Pair::new(p.a, n as u32 + p.b))
            .collect();
        let (cs, ms) = (CapsuleSoa::from(&all[..]), MotionSoa::from(&moves[..]));
        let parry: Vec<(Pose, ParryCapsule)> = all
            .iter()
            .map(|s| {
                let m = (s.a + s.b) * 0.5;
                let shape = ParryCapsule::new(p2(s.a - m), p2(s.b - m), s.radius);
                (Pose::from_translation(p2(m)), shape)
            })
            .collect();
        let options = ShapeCastOptions::with_max_time_of_impact(1.0);
        let mut g = c.benchmark_group(format!("sweep_capsule_capsule/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours(&mut g, |np, records| {
            if records {
                np.sweep_capsule_capsule(&all[..], &moves[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                np.sweep_capsule_capsule(cs.columns(), ms.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |bch| {
            bch.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (i, j) = (p.a as usize, p.b as usize);
                        let ((pa, ca), (pb, cb)) = (&parry[i], &parry[j]);
                        cast_shapes(pa, p2(moves[i]), ca, pb, p2(moves[j]), cb, options)
                            .unwrap()
                            .is_some()
                    })
                    .count()
            })
        });
        g.finish();
    }
}

/// Whether a sweep makes contact this frame: a hit or an overlap. That is what the
/// batches keep, and what parry's `cast_shapes` reports (it answers an overlap as a hit at
/// time 0), so the capsule rows below split their pairs on it.
fn contact(s: Sweep) -> bool {
    s.status != SweepStatus::Miss
}

/// Times our rows as [`ours`] does, after asserting that every level, on the columns
/// and on the records, finds `want` contacts (the scalar kernel's count).
fn ours_checked(
    g: &mut BenchmarkGroup<'_, WallTime>,
    kernel: &str,
    want: usize,
    mut run: impl FnMut(&mut NarrowPhase, bool) -> usize,
) {
    let mut levels_and_records: Vec<(SimdLevel, bool)> =
        levels().into_iter().map(|level| (level, false)).collect();
    levels_and_records.push((SimdLevel::best(), true));
    for (level, records) in levels_and_records {
        let got = run(&mut narrow(level), records);
        assert_eq!(
            got,
            want,
            "{kernel}: {} (records: {records}) finds {got} contacts, the scalar kernel {want}",
            level.name(),
        );
    }
    ours(g, run);
}

/// How many pairs in `0..sample` parry and our scalar kernel disagree on (contact or
/// not), each way. Printed, and asserted to be at most `per_mille` in a thousand: a pair
/// that only grazes can fall either way in `f32`.
fn check_parry(
    kernel: &str,
    sample: usize,
    per_mille: usize,
    ours: impl Fn(usize) -> bool,
    parry: impl Fn(usize) -> bool,
) {
    let (mut ours_only, mut parry_only, mut hits) = (0, 0, 0);
    for k in 0..sample {
        let (o, p) = (ours(k), parry(k));
        hits += usize::from(o);
        ours_only += usize::from(o && !p);
        parry_only += usize::from(p && !o);
    }
    let differ = ours_only + parry_only;
    eprintln!(
        "{kernel}: of {sample} pairs ({hits} contacts for us), {ours_only} are contacts only for us, {parry_only} only for parry"
    );
    assert!(
        differ * 1000 <= sample * per_mille,
        "{kernel}: parry and hantei disagree on {differ} of {sample} pairs"
    );
}

/// parry's pose and shape of a capsule: the segment about its midpoint, unturned.
fn parry_capsule(s: &Capsule) -> (parry2d::math::Pose, parry2d::shape::Capsule) {
    let m = (s.a + s.b) * 0.5;
    let shape = parry2d::shape::Capsule::new(p2(s.a - m), p2(s.b - m), s.radius);
    (parry2d::math::Pose::from_translation(p2(m)), shape)
}

/// parry's `cast_shapes` over one frame: whether the shapes make contact.
fn parry_contact(
    (pa, va, a): (&parry2d::math::Pose, Vec2, &dyn parry2d::shape::Shape),
    (pb, vb, b): (&parry2d::math::Pose, Vec2, &dyn parry2d::shape::Shape),
) -> bool {
    use parry2d::query::{ShapeCastOptions, cast_shapes};
    let options = ShapeCastOptions::with_max_time_of_impact(1.0);
    cast_shapes(pa, p2(va), a, pb, p2(vb), b, options)
        .unwrap()
        .is_some()
}

/// The pairs checked against parry before timing.
const PARRY_SAMPLE: usize = 1 << 14;

fn bench_sweep_capsule_aabb(c: &mut Criterion) {
    use parry2d::{math::Pose, shape::Cuboid};
    for (name, n) in SIZES {
        let make = |rng: &mut Rng| {
            let c = center(rng);
            let cb = near(rng, c, 14.0);
            (random_capsule(rng, c), random_aabb(rng, cb))
        };
        let (caps, mc, boxes, mb, pairs) = two_sided(n, 11, make, |c, mc, b, mb| {
            contact(scalar::sweep_capsule_aabb(c, mc, b, mb))
        });
        let (cs, bs) = (CapsuleSoa::from(&caps[..]), AabbSoa::from(&boxes[..]));
        let (mcs, mbs) = (MotionSoa::from(&mc[..]), MotionSoa::from(&mb[..]));
        let pc: Vec<_> = caps.iter().map(parry_capsule).collect();
        let pb: Vec<(Pose, Cuboid)> = boxes
            .iter()
            .map(|b| {
                (
                    Pose::from_translation(p2(b.center())),
                    Cuboid::new(p2(b.half_extents())),
                )
            })
            .collect();
        let scalar_hit = |k: usize| {
            contact(scalar::sweep_capsule_aabb(
                &caps[k], mc[k], &boxes[k], mb[k],
            ))
        };
        let parry_hit =
            |k: usize| parry_contact((&pc[k].0, mc[k], &pc[k].1), (&pb[k].0, mb[k], &pb[k].1));
        if name == "64k" {
            check_parry(
                "sweep_capsule_aabb",
                PARRY_SAMPLE.min(n),
                1,
                scalar_hit,
                parry_hit,
            );
        }
        let want = (0..n).filter(|&k| scalar_hit(k)).count();
        let mut g = c.benchmark_group(format!("sweep_capsule_aabb/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours_checked(&mut g, "sweep_capsule_aabb", want, |np, records| {
            if records {
                np.sweep_capsule_aabb(&caps[..], &mc[..], &boxes[..], &mb[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                let (c, b) = (cs.columns(), bs.columns());
                np.sweep_capsule_aabb(c, mcs.columns(), b, mbs.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |bch| {
            bch.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (i, j) = (p.a as usize, p.b as usize);
                        parry_contact((&pc[i].0, mc[i], &pc[i].1), (&pb[j].0, mb[j], &pb[j].1))
                    })
                    .count()
            })
        });
        g.finish();
    }
}

fn bench_sweep_capsule_circle(c: &mut Criterion) {
    use parry2d::{math::Pose, shape::Ball};
    for (name, n) in SIZES {
        let make = |rng: &mut Rng| {
            let c = center(rng);
            let cb = near(rng, c, 14.0);
            (
                random_capsule(rng, c),
                Circle::new(cb, rng.range_f32(0.5, 4.0)),
            )
        };
        let (caps, mc, circles, md, pairs) = two_sided(n, 12, make, |c, mc, d, md| {
            contact(scalar::sweep_capsule_circle(c, mc, d, md))
        });
        let (cs, ds) = (CapsuleSoa::from(&caps[..]), CircleSoa::from(&circles[..]));
        let (mcs, mds) = (MotionSoa::from(&mc[..]), MotionSoa::from(&md[..]));
        let pc: Vec<_> = caps.iter().map(parry_capsule).collect();
        let pd: Vec<(Pose, Ball)> = circles
            .iter()
            .map(|s| (Pose::from_translation(p2(s.center)), Ball::new(s.radius)))
            .collect();
        let scalar_hit = |k: usize| {
            contact(scalar::sweep_capsule_circle(
                &caps[k],
                mc[k],
                &circles[k],
                md[k],
            ))
        };
        let parry_hit =
            |k: usize| parry_contact((&pc[k].0, mc[k], &pc[k].1), (&pd[k].0, md[k], &pd[k].1));
        if name == "64k" {
            check_parry(
                "sweep_capsule_circle",
                PARRY_SAMPLE.min(n),
                1,
                scalar_hit,
                parry_hit,
            );
        }
        let want = (0..n).filter(|&k| scalar_hit(k)).count();
        let mut g = c.benchmark_group(format!("sweep_capsule_circle/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours_checked(&mut g, "sweep_capsule_circle", want, |np, records| {
            if records {
                np.sweep_capsule_circle(
                    &caps[..],
                    &mc[..],
                    &circles[..],
                    &md[..],
                    black_box(&pairs),
                )
                .unwrap()
                .len()
            } else {
                let (c, d) = (cs.columns(), ds.columns());
                np.sweep_capsule_circle(c, mcs.columns(), d, mds.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |bch| {
            bch.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (i, j) = (p.a as usize, p.b as usize);
                        parry_contact((&pc[i].0, mc[i], &pc[i].1), (&pd[j].0, md[j], &pd[j].1))
                    })
                    .count()
            })
        });
        g.finish();
    }
}

fn bench_sweep_capsule_obb2(c: &mut Criterion) {
    use parry2d::{math::Pose, shape::Cuboid};
    for (name, n) in SIZES {
        let make = |rng: &mut Rng| {
            let c = center(rng);
            let cb = near(rng, c, 14.0);
            (random_capsule(rng, c), random_obb2(rng, cb))
        };
        let (caps, mc, boxes, mb, pairs) = two_sided(n, 13, make, |c, mc, b, mb| {
            contact(scalar::sweep_capsule_obb2(c, mc, b, mb))
        });
        let (cs, bs) = (CapsuleSoa::from(&caps[..]), Obb2Soa::from(&boxes[..]));
        let (mcs, mbs) = (MotionSoa::from(&mc[..]), MotionSoa::from(&mb[..]));
        let pc: Vec<_> = caps.iter().map(parry_capsule).collect();
        let pb: Vec<(Pose, Cuboid)> = boxes
            .iter()
            .map(|s| {
                let angle = s.axis.y.atan2(s.axis.x);
                (
                    Pose::new(p2(s.center), angle),
                    Cuboid::new(p2(s.half_extents)),
                )
            })
            .collect();
        let scalar_hit = |k: usize| {
            contact(scalar::sweep_capsule_obb2(
                &caps[k], mc[k], &boxes[k], mb[k],
            ))
        };
        let parry_hit =
            |k: usize| parry_contact((&pc[k].0, mc[k], &pc[k].1), (&pb[k].0, mb[k], &pb[k].1));
        if name == "64k" {
            check_parry(
                "sweep_capsule_obb2",
                PARRY_SAMPLE.min(n),
                1,
                scalar_hit,
                parry_hit,
            );
        }
        let want = (0..n).filter(|&k| scalar_hit(k)).count();
        let mut g = c.benchmark_group(format!("sweep_capsule_obb2/{name}"));
        g.throughput(Throughput::Elements(n as u64));
        ours_checked(&mut g, "sweep_capsule_obb2", want, |np, records| {
            if records {
                np.sweep_capsule_obb2(&caps[..], &mc[..], &boxes[..], &mb[..], black_box(&pairs))
                    .unwrap()
                    .len()
            } else {
                let (c, b) = (cs.columns(), bs.columns());
                np.sweep_capsule_obb2(c, mcs.columns(), b, mbs.columns(), black_box(&pairs))
                    .unwrap()
                    .len()
            }
        });
        g.bench_function(BenchmarkId::from_parameter("parry"), |bch| {
            bch.iter(|| {
                pairs
                    .iter()
                    .filter(|p| {
                        let (i, j) = (p.a as usize, p.b as usize);
                        parry_contact((&pc[i].0, mc[i], &pc[i].1), (&pb[j].0, mb[j], &pb[j].1))
                    })
                    .count()
            })
        });
        g.finish();
    }
}

/// Turning lasers against small moving discs, at 64k pairs only (each pair costs
/// microseconds): our scalar `sweep_turning` against parry's `cast_shapes_nonlinear`.
/// A laser is a capsule 40 to 200 long at any angle, radius 0.25 to 2, turning 0.05 to
/// 1 radian per frame (either way) about its midpoint; a disc has radius 0.25 to 2 and
/// lies in or near the laser's sweep. Both move up to 8 per axis. There is no batch of
/// turning pairs, so the rows are `scalar` and `parry` only, and few samples are taken.
fn bench_sweep_turning(c: &mut Criterion) {
    use parry2d::{
        math::{Pose, Vector},
        query::{NonlinearRigidMotion, cast_shapes_nonlinear},
        shape::{Ball, Capsule as ParryCapsule},
    };
    let (name, n) = SIZES[0];
    let make = |rng: &mut Rng| {
        let c = center(rng);
        let half = rng.range_f32(20.0, 100.0);
        let angle = rng.range_f32(-3.2, 3.2);
        let turn = rng.range_f32(0.05, 1.0) * if rng.below(2) == 0 { 1.0 } else { -1.0 };
        let u = Vec2::new(angle.cos(), angle.sin()) * half;
        let laser = Capsule::new(c - u, c + u, rng.range_f32(0.25, 2.0));
        // Somewhere in the laser's sweep, or a little before or beyond it.
        let at = angle + turn * rng.range_f32(-0.5, 1.5);
        let r = rng.range_f32(-1.2, 1.2) * half;
        let disc = Circle::new(
            c + Vec2::new(at.cos(), at.sin()) * r,
            rng.range_f32(0.25, 2.0),
        );
        ((laser, turn), disc)
    };
    let hit = |(l, turn): &(Capsule, f32), ml: Vec2, d: &Circle, md: Vec2| {
        contact(scalar::sweep_turning(
            &Shape::Capsule(*l),
            ml,
            *turn,
            &Shape::Circle(*d),
            md,
            0.0,
        ))
    };
    let (lasers, ml, discs, md, pairs) = two_sided(n, 14, make, hit);
    let ls: Vec<(Shape, f32)> = lasers
        .iter()
        .map(|(l, turn)| (Shape::Capsule(*l), *turn))
        .collect();
    let ds: Vec<Shape> = discs.iter().map(|d| Shape::Circle(*d)).collect();
    let pl: Vec<(NonlinearRigidMotion, ParryCapsule)> = lasers
        .iter()
        .zip(&ml)
        .map(|((l, turn), m)| {
            let mid = (l.a + l.b) * 0.5;
            let shape = ParryCapsule::new(p2(l.a - mid), p2(l.b - mid), l.radius);
            let start = Pose::from_translation(p2(mid));
            (
                NonlinearRigidMotion::new(start, Vector::ZERO, p2(*m), *turn),
                shape,
            )
        })
        .collect();
    let pd: Vec<(NonlinearRigidMotion, Ball)> = discs
        .iter()
        .zip(&md)
        .map(|(d, m)| {
            let start = Pose::from_translation(p2(d.center));
            (
                NonlinearRigidMotion::new(start, Vector::ZERO, p2(*m), 0.0),
                Ball::new(d.radius),
            )
        })
        .collect();
    // Pair `k` is `(k, k)`: laser `k` against disc `k`.
    let ours_hit = |k: usize| {
        let ((a, turn), b) = (&ls[k], &ds[k]);
        contact(scalar::sweep_turning(a, ml[k], *turn, b, md[k], 0.0))
    };
    let parry_hit = |k: usize| {
        let ((ma, a), (mb, b)) = (&pl[k], &pd[k]);
        cast_shapes_nonlinear(ma, a, mb, b, 0.0, 1.0, true)
            .unwrap()
            .is_some()
    };
    // Our kernel reports a pair that passes within its tolerance (1/4096 of the gap's
    // reach per frame, see `sweep_turning`) as a hit, and parry's root finding has its
    // own: near misses fall either way, so allow one pair in a hundred.
    check_parry(
        "sweep_turning",
        PARRY_SAMPLE.min(n),
        10,
        ours_hit,
        parry_hit,
    );
    let mut g = c.benchmark_group(format!("sweep_turning/{name}"));
    g.throughput(Throughput::Elements(n as u64));
    g.sample_size(10);
    g.bench_function(BenchmarkId::from_parameter("scalar"), |bch| {
        bch.iter(|| {
            black_box(&pairs)
                .iter()
                .filter(|p| ours_hit(p.a as usize))
                .count()
        })
    });
    g.bench_function(BenchmarkId::from_parameter("parry"), |bch| {
        bch.iter(|| {
            black_box(&pairs)
                .iter()
                .filter(|p| parry_hit(p.a as usize))
                .count()
        })
    });
    g.finish();
}

/// The fastest of criterion's samples for `group/id` (time per iteration, in ns), if it
/// ran. On a machine shared with other work the fastest sample is the one least
/// disturbed; the medians criterion prints are kept in its own report.
fn fastest_ns(dir: &std::path::Path, group: &str, id: &str) -> Option<f64> {
    let path = dir
        .join(group.replace('/', "_"))
        .join(id)
        .join("new/sample.json");
    let text = std::fs::read_to_string(path).ok()?;
    let list = |key: &str| -> Option<Vec<f64>> {
        let rest = &text[text.find(key)? + key.len()..];
        let body = &rest[rest.find('[')? + 1..rest.find(']')?];
        body.split(',').map(|x| x.trim().parse().ok()).collect()
    };
    let (iters, times) = (list("\"iters\"")?, list("\"times\"")?);
    iters
        .iter()
        .zip(&times)
        .map(|(i, t)| t / i)
        .reduce(f64::min)
}

/// Prints ns per pair for every group that ran, as a markdown table.
fn print_table() {
    let target = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
    let dir = std::path::Path::new(&target).join("criterion");
    let kernels = [
        "aabb_aabb",
        "circle_circle",
        "aabb_circle",
        "sweep_aabb_aabb",
        "sweep_circle_circle",
        "cast_point_aabb",
        "obb2_obb2",
        "obb3_obb3",
        "sweep_obb2_obb2",
        "sweep_aabb_obb2",
        "sweep_aabb_circle",
        "sweep_circle_obb2",
        "sweep_capsule_capsule",
        "sweep_capsule_aabb",
        "sweep_capsule_circle",
        "sweep_capsule_obb2",
        "sweep_turning",
    ];
    let cols = [
        "scalar", "portable", "avx2", "avx512", "records", "parry", "floor",
    ];
    println!("\nns per pair (fastest criterion sample / pairs)\n");
    println!(
        "| kernel | pairs | scalar | f32x8 portable | f32x8 avx2 | f32x8 avx512 | f32x8 records | parry | floor | avx2 vs scalar | parry vs avx2 | parry vs records |"
    );
    println!("|---|---|---|---|---|---|---|---|---|---|---|---|");
    let mut notes = Vec::new();
    for k in kernels {
        for (name, n) in SIZES {
            let group = format!("{k}/{name}");
            let v: Vec<Option<f64>> = cols
                .iter()
                .map(|id| fastest_ns(&dir, &group, id).map(|t| t / n as f64))
                .collect();
            if v.iter().all(Option::is_none) {
                continue;
            }
            let cell = |x: Option<f64>| x.map_or("–".to_string(), |x| format!("{x:.2}"));
            let ratio = |a: Option<f64>, b: Option<f64>| match (a, b) {
                (Some(a), Some(b)) => format!("{:.1}×", a / b),
                _ => "–".into(),
            };
            if let Some(bv) = fastest_ns(&dir, &group, "parry_bv") {
                notes.push(format!(
                    "{k}/{name}: parry `bounding_volume::Aabb::intersects` {:.2} ns per pair",
                    bv / n as f64
                ));
            }
            println!(
                "| {k} | {name} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
                cell(v[0]),
                cell(v[1]),
                cell(v[2]),
                cell(v[3]),
                cell(v[4]),
                cell(v[5]),
                cell(v[6]),
                ratio(v[0], v[2]),
                ratio(v[5], v[2]),
                ratio(v[5], v[4]),
            );
        }
    }
    for note in notes {
        println!("\n{note}");
    }
}

fn main() {
    let mut c = Criterion::default().configure_from_args();
    bench_aabb(&mut c);
    bench_circle(&mut c);
    bench_aabb_circle(&mut c);
    bench_sweep(&mut c);
    bench_sweep_circle(&mut c);
    bench_ray(&mut c);
    bench_obb2(&mut c);
    bench_obb3(&mut c);
    bench_sweep_obb2(&mut c);
    bench_sweep_aabb_obb2(&mut c);
    bench_sweep_aabb_circle(&mut c);
    bench_sweep_circle_obb2(&mut c);
    bench_sweep_capsule_capsule(&mut c);
    bench_sweep_capsule_aabb(&mut c);
    bench_sweep_capsule_circle(&mut c);
    bench_sweep_capsule_obb2(&mut c);
    bench_sweep_turning(&mut c);
    c.final_summary();
    print_table();
}
