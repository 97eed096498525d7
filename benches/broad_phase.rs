//! Broad phase: hantei against broccoli, parry2d's BVH, rstar and brute force, side by
//! side in the same run, on the scene generators of `hantei::scene::generate`.
//!
//! ```text
//! cargo bench --bench broad_phase                 # everything
//! cargo bench --bench broad_phase -- uniform_100k # one scene
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

    pub fn broccoli(
        boxes: &[Aabb],
        work: &mut Vec<(broccoli::axgeom::Rect<f32>, u32)>,
        out: &mut Vec<(u32, u32)>,
    ) -> usize {
        work.clear();
        work.extend(
            boxes
                .iter()
                .enumerate()
                .map(|(i, b)| (broccoli::rect(b.min.x, b.max.x, b.min.y, b.max.y), i as u32)),
        );
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

criterion_group!(benches, broad_phase, band_order);
criterion_main!(benches);
