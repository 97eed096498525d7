//! Broad phase: hantei against broccoli, parry2d's BVH, rstar and brute force, side by
//! side in the same run, on the scene generators of `hantei::scene::generate`.
//!
//! ```text
//! cargo bench --bench broad_phase                 # everything
//! cargo bench --bench broad_phase -- uniform_100k # one scene
//! cargo bench --bench broad_phase -- bipartite    # bullets × targets
//! python3 benches/summarize.py                    # ratios table from the last run
//! ```
//!
//! Every peer builds its structure from the boxes and collects every overlapping pair
//! into a reused `Vec` each iteration (a full rebuild per frame, as hantei does). Before
//! timing, each peer's pair count is checked against hantei's.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hantei::scene::generate::Shape;
use hantei::{BandOrder, BroadConfig, BroadPhase, SimdLevel};
use std::hint::black_box;
use std::time::Duration;

mod peers {
    use hantei::Aabb;

    /// broccoli's input: each box as a rect with its index.
    fn fill_rects(boxes: &[Aabb], work: &mut Vec<(broccoli::axgeom::Rect<f32>, u32)>) {
        work.clear();
        work.extend(
            boxes
                .iter()
                .enumerate()
                .map(|(i, b)| (broccoli::rect(b.min.x, b.max.x, b.min.y, b.max.y), i as u32)),
        );
    }

    pub fn broccoli(
        boxes: &[Aabb],
        work: &mut Vec<(broccoli::axgeom::Rect<f32>, u32)>,
        out: &mut Vec<(u32, u32)>,
    ) -> usize {
        fill_rects(boxes, work);
        out.clear();
        let mut tree = broccoli::Tree::new(&mut work[..]);
        tree.find_colliding_pairs(|a, b| out.push((a.1, b.1)));
        out.len()
    }

    pub fn parry_bvh(
        boxes: &[Aabb],
        leaves: &mut Vec<parry2d::bounding_volume::Aabb>,
        out: &mut Vec<(u32, u32)>,
    ) -> usize {
        use parry2d::math::Vector;
        use parry2d::partitioning::{Bvh, BvhBuildStrategy, BvhWorkspace};
        leaves.clear();
        leaves.extend(boxes.iter().map(|b| {
            parry2d::bounding_volume::Aabb::new(
                Vector::new(b.min.x, b.min.y),
                Vector::new(b.max.x, b.max.y),
            )
        }));
        out.clear();
        let bvh = Bvh::from_leaves(BvhBuildStrategy::Binned, leaves);
        let mut ws = BvhWorkspace::default();
        bvh.traverse_bvtt_single_tree::<false>(&mut ws, &mut |a, b| out.push((a, b)));
        out.len()
    }

    type RBox = rstar::primitives::GeomWithData<rstar::primitives::Rectangle<[f32; 2]>, u32>;

    pub fn rstar(boxes: &[Aabb], out: &mut Vec<(u32, u32)>) -> usize {
        let items: Vec<RBox> = boxes
            .iter()
            .enumerate()
            .map(|(i, b)| {
                RBox::new(
                    rstar::primitives::Rectangle::from_corners(
                        [b.min.x, b.min.y],
                        [b.max.x, b.max.y],
                    ),
                    i as u32,
                )
            })
            .collect();
        let tree = rstar::RTree::bulk_load(items);
        out.clear();
        for (a, b) in tree.intersection_candidates_with_other_tree(&tree) {
            if a.data < b.data {
                out.push((a.data, b.data));
            }
        }
        out.len()
    }

    /// Bipartite through broccoli: one tree over both sets, keeping the pairs that
    /// cross between them (`boxes[..first]` and the rest).
    pub fn broccoli_bipartite(
        boxes: &[Aabb],
        first: usize,
        work: &mut Vec<(broccoli::axgeom::Rect<f32>, u32)>,
        out: &mut Vec<(u32, u32)>,
    ) -> usize {
        fill_rects(boxes, work);
        out.clear();
        let first = first as u32;
        let mut tree = broccoli::Tree::new(&mut work[..]);
        tree.find_colliding_pairs(|a, b| {
            if (a.1 < first) != (b.1 < first) {
                out.push((a.1.min(b.1), a.1.max(b.1) - first));
            }
        });
        out.len()
    }

    /// Bipartite by brute force: every box of `a` against every box of `b`.
    pub fn brute_force_bipartite(a: &[Aabb], b: &[Aabb], out: &mut Vec<(u32, u32)>) -> usize {
        out.clear();
        for (i, x) in a.iter().enumerate() {
            for (j, y) in b.iter().enumerate() {
                if x.overlaps(y) {
                    out.push((i as u32, j as u32));
                }
            }
        }
        out.len()
    }

    pub fn brute_force(boxes: &[Aabb], out: &mut Vec<(u32, u32)>) -> usize {
        out.clear();
        for (i, a) in boxes.iter().enumerate() {
            for (j, b) in boxes.iter().enumerate().skip(i + 1) {
                if a.overlaps(b) {
                    out.push((i as u32, j as u32));
                }
            }
        }
        out.len()
    }
}

fn hantei(threads: usize) -> (BroadPhase, rayon::ThreadPool) {
    hantei_with(threads, BandOrder::Buckets)
}

fn hantei_with(threads: usize, order: BandOrder) -> (BroadPhase, rayon::ThreadPool) {
    let bp = BroadPhase::with_config(BroadConfig {
        simd: SimdLevel::best(),
        parallel: threads > 1,
        parallel_threshold: 0,
        order,
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    (bp, pool)
}

fn scene(c: &mut Criterion, shape: Shape, n: usize, label: &str, brute: bool, slow_peers: bool) {
    let boxes = shape.generate(n, 1);
    let mut group = c.benchmark_group(format!("broad/{label}"));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));

    let (mut bp1, pool1) = hantei(1);
    let want = pool1.install(|| bp1.find_pairs(&boxes[..]).unwrap().len());
    let mut out = Vec::new();
    let mut work = Vec::new();
    let mut leaves = Vec::new();
    // Agreement checks (a peer whose count differs is reported, not hidden).
    let counts = [
        ("broccoli", peers::broccoli(&boxes, &mut work, &mut out)),
        (
            "parry2d_bvh",
            peers::parry_bvh(&boxes, &mut leaves, &mut out),
        ),
    ];
    for (name, got) in counts {
        if got != want {
            eprintln!("note: {label}: {name} found {got} pairs, hantei {want}");
        }
    }
    eprintln!("{label}: {n} boxes, {want} pairs");

    group.bench_function(BenchmarkId::new("hantei_1t", n), |b| {
        pool1.install(|| b.iter(|| black_box(bp1.find_pairs(&boxes[..]).unwrap().len())))
    });
    let (mut bp2, pool2) = hantei(2);
    group.bench_function(BenchmarkId::new("hantei_2t", n), |b| {
        pool2.install(|| b.iter(|| black_box(bp2.find_pairs(&boxes[..]).unwrap().len())))
    });
    group.bench_function(BenchmarkId::new("broccoli", n), |b| {
        b.iter(|| black_box(peers::broccoli(&boxes, &mut work, &mut out)))
    });
    if slow_peers {
        group.bench_function(BenchmarkId::new("parry2d_bvh", n), |b| {
            b.iter(|| black_box(peers::parry_bvh(&boxes, &mut leaves, &mut out)))
        });
        group.bench_function(BenchmarkId::new("rstar", n), |b| {
            b.iter(|| black_box(peers::rstar(&boxes, &mut out)))
        });
    }
    if brute {
        group.bench_function(BenchmarkId::new("brute_force", n), |b| {
            b.iter(|| black_box(peers::brute_force(&boxes, &mut out)))
        });
    }
    group.finish();
}

fn broad_phase(c: &mut Criterion) {
    scene(c, Shape::Uniform, 1_000, "uniform_1k", true, true);
    scene(c, Shape::Uniform, 10_000, "uniform_10k", true, true);
    scene(c, Shape::Uniform, 100_000, "uniform_100k", false, true);
    scene(c, Shape::BulletHell, 10_000, "bullet_hell_10k", true, true);
    scene(
        c,
        Shape::BulletHell,
        100_000,
        "bullet_hell_100k",
        false,
        true,
    );
    scene(c, Shape::Clusters, 100_000, "clusters_100k", false, true);
    scene(c, Shape::HorizontalLine, 10_000, "line_10k", true, true);
    scene(c, Shape::Identical, 1_000, "identical_1k", true, true);
    scene(c, Shape::Parked, 100_000, "parked_100k", false, true);
    scene(c, Shape::Uniform, 1_000_000, "uniform_1m", false, false);
}

/// Bipartite mode: 100k uniform boxes (bullets) against a second, smaller set spread
/// over the same field (targets): `count` targets `size` units wide. A sparse set goes
/// through the grid, a dense one through the banded sweep (see `probe.rs`).
fn bipartite(c: &mut Criterion, count: usize, size: f32, label: &str) {
    let bullets = Shape::Uniform.generate(100_000, 1);
    let side = (2.0f32 * 100_000.0).sqrt();
    let targets: Vec<hantei::Aabb> = (0..count)
        .map(|k| {
            let x = (k as f32 * 0.618_034).fract() * side;
            let y = (k as f32 * 0.414_213).fract() * side;
            hantei::Aabb::from_coords(x, y, x + size, y + size)
        })
        .collect();
    let union: Vec<hantei::Aabb> = bullets.iter().chain(&targets).copied().collect();
    let mut group = c.benchmark_group(format!("bipartite/{label}"));
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    let (mut bp1, pool1) = hantei(1);
    let want = pool1.install(|| {
        bp1.find_pairs_bipartite(&bullets[..], &targets[..])
            .unwrap()
            .len()
    });
    let grid = bp1.last_stats().grid;
    let mut out = Vec::new();
    let mut work = Vec::new();
    let got = peers::broccoli_bipartite(&union, bullets.len(), &mut work, &mut out);
    if got != want {
        eprintln!("note: {label}: broccoli found {got} pairs, hantei {want}");
    }
    eprintln!("{label}: {count} targets {size} wide, {want} pairs, grid {grid}");
    group.bench_function("hantei_1t", |b| {
        pool1.install(|| {
            b.iter(|| {
                black_box(
                    bp1.find_pairs_bipartite(&bullets[..], &targets[..])
                        .unwrap()
                        .len(),
                )
            })
        })
    });
    let (mut bp2, pool2) = hantei(2);
    group.bench_function("hantei_2t", |b| {
        pool2.install(|| {
            b.iter(|| {
                black_box(
                    bp2.find_pairs_bipartite(&bullets[..], &targets[..])
                        .unwrap()
                        .len(),
                )
            })
        })
    });
    group.bench_function("broccoli", |b| {
        b.iter(|| {
            black_box(peers::broccoli_bipartite(
                &union,
                bullets.len(),
                &mut work,
                &mut out,
            ))
        })
    });
    group.bench_function("brute_force", |b| {
        b.iter(|| black_box(peers::brute_force_bipartite(&bullets, &targets, &mut out)))
    });
    group.finish();
}

fn bipartite_mode(c: &mut Criterion) {
    bipartite(c, 300, 2.0, "300_sparse");
    bipartite(c, 1000, 10.0, "1000_dense");
}

/// How each band is ordered along the sweep axis: the bucket counting sort (default)
/// against an LSD radix sort and `sort_unstable`, whole broad phase, one thread.
fn band_order(c: &mut Criterion) {
    for (shape, label) in [
        (Shape::Uniform, "uniform_100k"),
        (Shape::Clusters, "clusters_100k"),
    ] {
        let boxes = shape.generate(100_000, 1);
        let mut group = c.benchmark_group(format!("band_order/{label}"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(2));
        for (order, name) in [
            (BandOrder::Buckets, "buckets"),
            (BandOrder::Radix, "radix"),
            (BandOrder::Comparison, "sort_unstable"),
        ] {
            let (mut bp, pool) = hantei_with(1, order);
            group.bench_function(name, |b| {
                pool.install(|| b.iter(|| black_box(bp.find_pairs(&boxes[..]).unwrap().len())))
            });
        }
        group.finish();
    }
}

criterion_group!(benches, broad_phase, bipartite_mode, band_order);
criterion_main!(benches);
