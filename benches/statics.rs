//! Level geometry that never moves against moving bullets: [`StaticGrid`] (built once,
//! queried every frame) against what a frame does without it, the bipartite broad
//! phase re-sorting everything every frame.
//!
//! ```text
//! cargo bench --bench statics -- --warm-up-time 1 --measurement-time 3
//! ```
//!
//! Scene: 100k static boxes 2–8 units wide spread over a 4000 × 4000 field, 100k
//! bullets 1–3 units wide swept by a motion of up to 6 units, same field (the
//! deterministic `hantei::rng::Rng`). One thread everywhere. Rows:
//! - `query`: [`StaticGrid::query`], the grid built once outside the timed loop;
//! - `build_query`: [`StaticGrid::build`] + `query`, the grid rebuilt every frame;
//! - `bipartite`: [`BroadPhase::find_pairs_bipartite`]`(movers, statics)`.
//!
//! Before timing, each row's pair count is checked against the others'.

use criterion::{Criterion, criterion_group, criterion_main};
use glam::Vec2;
use hantei::rng::Rng;
use hantei::{Aabb, BoxSet, BroadConfig, BroadPhase, Pair, StaticGrid};
use std::hint::black_box;
use std::time::Duration;

const N: usize = 100_000;
const FIELD: f32 = 4000.0;

/// The static boxes: 2–8 units on each side.
fn statics(rng: &mut Rng) -> Vec<Aabb> {
    (0..N)
        .map(|_| {
            let p = Vec2::new(rng.range_f32(0.0, FIELD), rng.range_f32(0.0, FIELD));
            let s = Vec2::new(rng.range_f32(2.0, 8.0), rng.range_f32(2.0, 8.0));
            Aabb::from_min_size(p, s)
        })
        .collect()
}

/// The bullets' swept bounds: a 1–3 unit box and the same box moved by up to 6 units.
fn movers(rng: &mut Rng) -> Vec<Aabb> {
    (0..N)
        .map(|_| {
            let p = Vec2::new(rng.range_f32(0.0, FIELD), rng.range_f32(0.0, FIELD));
            let b = Aabb::from_min_size(p, Vec2::splat(rng.range_f32(1.0, 3.0)));
            let angle = rng.range_f32(0.0, std::f32::consts::TAU);
            let d = Vec2::from_angle(angle) * rng.range_f32(0.0, 6.0);
            Aabb::from_coords(
                b.min.x.min(b.min.x + d.x),
                b.min.y.min(b.min.y + d.y),
                b.max.x.max(b.max.x + d.x),
                b.max.y.max(b.max.y + d.y),
            )
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let mut rng = Rng::new(1);
    let statics = statics(&mut rng);
    let movers = movers(&mut rng);
    let config = BroadConfig {
        parallel: false,
        ..BroadConfig::default()
    };
    let mut broad = BroadPhase::with_config(config);
    let mut grid = StaticGrid::new();
    let mut rebuilt = StaticGrid::new();
    let mut out: Vec<Pair> = Vec::new();

    grid.build(BoxSet::from(&statics)).unwrap();
    grid.query(BoxSet::from(&movers), false, &mut out).unwrap();
    let want = broad.find_pairs_bipartite(&movers, &statics).unwrap().len();
    assert_eq!(out.len(), want, "grid and broad phase disagree");
    eprintln!("statics: {N} statics x {N} movers, {want} pairs");

    let mut group = c.benchmark_group("statics/100k");
    group.sample_size(20);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    group.bench_function("query", |b| {
        b.iter(|| {
            grid.query(BoxSet::from(&movers), false, &mut out).unwrap();
            black_box(out.len())
        })
    });
    group.bench_function("build_query", |b| {
        b.iter(|| {
            rebuilt.build(BoxSet::from(&statics)).unwrap();
            rebuilt
                .query(BoxSet::from(&movers), false, &mut out)
                .unwrap();
            black_box(out.len())
        })
    });
    group.bench_function("bipartite", |b| {
        b.iter(|| black_box(broad.find_pairs_bipartite(&movers, &statics).unwrap().len()))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
