//! A whole bullet-hell frame: hantei's collision step (swept broad phase per layer
//! pair, narrow phase, events) plus the tile map's bullet sweep, at 10k, 100k and 1M
//! bullets, on one thread and on all threads.
//!
//! ```text
//! cargo bench --bench frame
//! FRAME_THREADS=1,2,4,8,16 cargo bench --bench frame   # other thread counts
//! cargo bench --bench frame -- frame_shapes            # round bullets against box bullets
//! FRAME_SIZES=1000,4000,20000 cargo bench --bench frame -- step_   # other scene sizes
//! ```
//!
//! Rows per scene size and thread count: `step_<t>t` the collision step alone;
//! `<t>t` the step plus `TileMap::move_bullets` (what a game wrote before
//! `Frame::advance`: its copies and write-backs not counted); `advance_<t>t` the whole
//! collision part of the frame in one call: the step, the walls, every box moved, the
//! bullets that hit something destroyed and removed. `step_` and `advance_` run on a
//! fresh copy of the same store each iteration (the copy not timed): a game's store
//! changes every frame, and the step run again and again on one unchanged store finds
//! its columns in cache (at 100k, two threads, AMD EPYC Zen 4: 0.19 ms so, 0.30 on
//! fresh copies).
//!
//! `frame_shapes/<n>`: the collision step alone on one thread, the same scene with its
//! bullets as boxes (`boxes`) and as discs inscribed in those boxes (`round`): what a
//! game pays for exact round hitboxes.
//!
//! `danmaku/<n>` (first): the scene a bullet-hell game has,
//! [`hantei::frame::Danmaku`]: round bullets in rings, fast rings, three lasers,
//! enemies of three parts, a round player stopped by walls, pillars and an inner wall.
//! Rows `step_<t>t` and `advance_<t>t` per variant: `danmaku` (the default), `squares`
//! (square bullets), `open` (only the border as walls), `squares_open` (both),
//! `grouped` (each side's bullets in one block of the store, not interleaved). The
//! ratio of `advance` to `step` is `frame_ratio`'s business (interleaved); these rows
//! are criterion's view of the same frames.
//!
//! `store_calls/100k`: a game's own calls on a store of 100k discs in scrambled order,
//! 1,250 at a time (`remove`, `remove_many`, `insert_shape`) and `set_motions` on
//! every box. Divide by 1,250 (or 100k) for a call's cost.
//!
//! The other groups' scene is [`hantei::frame::DemoFrame`]: bullets in rings and spirals flying
//! outward, 50 enemies of two boxes each, a player, walls around the arena. Each
//! iteration runs `Frame::step` and `TileMap::move_bullets` on a fresh copy of the
//! bullets (the copy is not timed).

use criterion::{BatchSize, BenchmarkId, Criterion, criterion_group, criterion_main};
use glam::Vec2;
use hantei::frame::{Danmaku, DanmakuConfig, DemoFrame, Frame, FrameConfig, Level, layers};
use hantei::rng::Rng;
use hantei::tilemap::BulletResponse;
use hantei::{Aabb, BoxProps, Circle, Shape};
use scenes::{StaticScene, destroying_bullets, static_scene};
use std::hint::black_box;
use std::time::{Duration, Instant};

mod scenes;

/// The thread counts of `FRAME_THREADS` (default one and every core).
fn thread_counts() -> Vec<usize> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    match std::env::var("FRAME_THREADS") {
        Ok(list) => list
            .split(',')
            .map(|t| {
                t.trim()
                    .parse()
                    .expect("FRAME_THREADS: a comma-separated list")
            })
            .collect(),
        Err(_) => vec![1, cores],
    }
}

/// The scene sizes of `FRAME_SIZES` (default 10k, 100k and 1M).
fn scene_sizes() -> Vec<usize> {
    match std::env::var("FRAME_SIZES") {
        Ok(list) => list
            .split(',')
            .map(|t| {
                t.trim()
                    .parse()
                    .expect("FRAME_SIZES: a comma-separated list")
            })
            .collect(),
        Err(_) => vec![10_000, 100_000, 1_000_000],
    }
}

/// `danmaku/<n>`: the danmaku scene and its variants, the step and the whole frame, on
/// fresh copies of the store (the copy not timed); one thread runs serially.
fn danmaku(c: &mut Criterion) {
    let sizes = scene_sizes();
    for n in sizes {
        let mut group = c.benchmark_group(format!("danmaku/{n}"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(if n >= 1_000_000 { 6 } else { 2 }));
        let base = DanmakuConfig::new(n);
        for (name, config) in [
            ("danmaku", base),
            ("squares", base.with_square_bullets()),
            ("open", base.with_open_arena()),
            ("squares_open", base.with_square_bullets().with_open_arena()),
            ("grouped", base.with_sides_grouped()),
            ("still", base.with_still_lasers()),
        ] {
            let scene = Danmaku::new(config);
            for threads in thread_counts() {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                let config = FrameConfig {
                    parallel: threads > 1,
                    ..FrameConfig::default()
                };
                let mut frame = Frame::with_config(config);
                let id = BenchmarkId::new(format!("{name}/step_{threads}t"), n);
                group.bench_function(id, |b| {
                    pool.install(|| {
                        b.iter_batched_ref(
                            || scene.store.clone(),
                            |store| black_box(frame.step(store).unwrap().contacts.len()),
                            BatchSize::LargeInput,
                        )
                    })
                });
                let id = BenchmarkId::new(format!("{name}/advance_{threads}t"), n);
                group.bench_function(id, |b| {
                    pool.install(|| {
                        b.iter_batched_ref(
                            || scene.store.clone(),
                            |store| {
                                let s = frame.advance(store, &Level::walls(&scene.map)).unwrap();
                                black_box(s.contacts + s.destroyed)
                            },
                            BatchSize::LargeInput,
                        )
                    })
                });
            }
        }
        group.finish();
    }
}

fn frame(c: &mut Criterion) {
    let threads = thread_counts();
    let sizes = scene_sizes();
    for n in sizes {
        let label = match n {
            1_000_000 => "1m".to_string(),
            n if n % 1000 == 0 => format!("{}k", n / 1000),
            n => n.to_string(),
        };
        let demo = DemoFrame::new(n, 50, 1);
        let destroying = destroying_bullets(&demo);
        let mut group = c.benchmark_group(format!("frame/{label}"));
        group.sample_size(10);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(if n >= 1_000_000 { 6 } else { 2 }));
        for &threads in &threads {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut step = Frame::new();
            let mut hits = Vec::new();
            let id = BenchmarkId::new(format!("{threads}t"), n);
            // The collision step alone, on the same fresh copies as `advance` below (the
            // same store, the same caches: the step run again and again on one unchanged
            // store finds its columns in cache, which no game's changing store does).
            group.bench_function(BenchmarkId::new(format!("step_{threads}t"), n), |b| {
                pool.install(|| {
                    b.iter_batched_ref(
                        || destroying.clone(),
                        |store| black_box(step.step(store).unwrap().contacts.len()),
                        BatchSize::LargeInput,
                    )
                })
            });
            // The step plus the tile map.
            group.bench_function(id, |b| {
                pool.install(|| {
                    b.iter_batched_ref(
                        || demo.bullets.clone(),
                        |bullets| {
                            let r = step.step(&demo.store).unwrap().contacts.len();
                            demo.map
                                .move_bullets(
                                    bullets,
                                    &demo.bullet_motions,
                                    BulletResponse::Destroy,
                                    &mut hits,
                                )
                                .unwrap();
                            black_box((r, hits.len()))
                        },
                        BatchSize::LargeInput,
                    )
                })
            });
            let mut whole = Frame::new();
            group.bench_function(BenchmarkId::new(format!("advance_{threads}t"), n), |b| {
                pool.install(|| {
                    b.iter_batched_ref(
                        || destroying.clone(),
                        |store| {
                            let s = whole.advance(store, &Level::walls(&demo.map)).unwrap();
                            black_box(s.contacts + s.destroyed)
                        },
                        BatchSize::LargeInput,
                    )
                })
            });
        }
        group.finish();
    }
}

/// The demo's store with every bullet a disc inscribed in its box.
fn round_bullets(demo: &DemoFrame) -> hantei::BoxStore {
    let mut store = demo.store.clone();
    let bullets = [layers::enemy_bullet(), layers::player_bullet()];
    for h in demo.store.handles() {
        let filter = store.props(*h).expect("alive").filter;
        if bullets.contains(&filter)
            && let Some(Shape::Aabb(b)) = store.shape(*h)
        {
            let disc = Circle::new(b.center(), b.half_extents().min_element());
            store.update_shape(*h, disc).expect("a valid disc");
        }
    }
    store
}

fn frame_shapes(c: &mut Criterion) {
    for (n, label) in [(10_000, "10k"), (100_000, "100k")] {
        let demo = DemoFrame::new(n, 50, 1);
        let round = round_bullets(&demo);
        let mut group = c.benchmark_group(format!("frame_shapes/{label}"));
        group.sample_size(20);
        group.warm_up_time(Duration::from_millis(500));
        group.measurement_time(Duration::from_secs(3));
        let mut step = Frame::with_config(FrameConfig {
            parallel: false,
            ..FrameConfig::default()
        });
        for (id, store) in [("boxes", &demo.store), ("round", &round)] {
            group.bench_function(id, |b| {
                b.iter(|| black_box(step.step(store).unwrap().contacts.len()))
            });
        }
        group.finish();
    }
}

/// `static_level/100k`: the demo's 100k bullets among 100k boxes of level geometry
/// (2 to 8 units, spread over the arena; the bullets spawned inside it removed first,
/// about a quarter), one thread: the geometry as boxes standing in
/// the moving store (`in_store`: sorted again every frame with everything else) against
/// the same boxes in a `StaticLevel` (`static_level`: indexed once).
fn static_level(c: &mut Criterion) {
    let StaticScene {
        demo,
        bullets,
        level,
        together,
    } = static_scene();
    let mut group = c.benchmark_group("static_level/100k");
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(3));
    let config = FrameConfig {
        parallel: false,
        ..FrameConfig::default()
    };
    let mut frame = Frame::with_config(config);
    group.bench_function("in_store_1t", |b| {
        b.iter_batched_ref(
            || together.clone(),
            |store| black_box(frame.advance(store, &Level::walls(&demo.map)).unwrap()),
            BatchSize::LargeInput,
        )
    });
    let mut frame = Frame::with_config(config);
    group.bench_function("static_level_1t", |b| {
        b.iter_batched_ref(
            || bullets.clone(),
            |store| {
                let level = Level::walls(&demo.map).with_statics(&level);
                black_box(frame.advance(store, &level).unwrap())
            },
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// `wide_boxes/10k`: the demo's 10k bullets plus 2,000 long boxes (lasers: 8 to 320
/// units long, 1 to 20 tiles, 4 to 12 high) flying through open space, one thread:
/// the whole frame (`advance_1t`), where a box larger than a tile takes the coarse
/// open-space lookup instead of the exact wall test.
fn wide_boxes(c: &mut Criterion) {
    let demo = DemoFrame::new(10_000, 50, 1);
    let mut store = destroying_bullets(&demo);
    let arena = demo.map.bounds();
    let mut rng = Rng::new(0x1a5e5);
    for _ in 0..2_000 {
        let c = Vec2::new(
            rng.range_f32(arena.min.x + 400.0, arena.max.x - 400.0),
            rng.range_f32(arena.min.y + 400.0, arena.max.y - 400.0),
        );
        let half = Vec2::new(rng.range_f32(4.0, 160.0), rng.range_f32(2.0, 6.0));
        let props = BoxProps::new(layers::enemy_bullet()).with_motion(Vec2::new(1.0, 0.5));
        store
            .insert_with(Aabb::from_center_half_extents(c, half), props)
            .unwrap();
    }
    let mut group = c.benchmark_group("wide_boxes/10k");
    group.sample_size(20);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    let mut frame = Frame::with_config(FrameConfig {
        parallel: false,
        ..FrameConfig::default()
    });
    group.bench_function("advance_1t", |b| {
        b.iter_batched_ref(
            || store.clone(),
            |store| black_box(frame.advance(store, &Level::walls(&demo.map)).unwrap()),
            BatchSize::LargeInput,
        )
    });
    group.finish();
}

/// `store_calls/100k`: what a game's own calls cost on a store of 100k discs whose
/// dense order respawns have scrambled (a random half of the handles given in random
/// order). Each row makes 1,250 calls, or one call for 1,250 boxes (`set_motions`:
/// every box). Before each round, and not timed, the store is copied into one store kept
/// for the whole group. The rows: `remove` one by one, `remove_many` once,
/// `insert_shape` into the holes, `set_motions` on every handle.
fn store_calls(c: &mut Criterion) {
    let n = 100_000;
    let mut rng = Rng::new(0xca11);
    let mut store = hantei::BoxStore::with_capacity(n);
    let side = |k: usize| match k % 2 {
        0 => layers::player_bullet(),
        _ => layers::enemy_bullet(),
    };
    let disc = |rng: &mut Rng| {
        let c = Vec2::new(rng.range_f32(0.0, 1000.0), rng.range_f32(0.0, 1000.0));
        Circle::new(c, 3.0)
    };
    for k in 0..n {
        let props = BoxProps::new(side(k)).with_motion(Vec2::new(2.0, 1.0));
        store.insert_shape(disc(&mut rng), props).unwrap();
    }
    // Respawns: a random half of the boxes removed and inserted again.
    let mut handles = store.handles().to_vec();
    for k in (1..n).rev() {
        handles.swap(k, rng.below(k as u32 + 1) as usize);
    }
    store.remove_many(&handles[..n / 2]).unwrap();
    for (k, h) in handles[..n / 2].iter_mut().enumerate() {
        let props = BoxProps::new(side(k)).with_motion(Vec2::new(2.0, 1.0));
        *h = store.insert_shape(disc(&mut rng), props).unwrap();
    }
    for k in (1..n).rev() {
        handles.swap(k, rng.below(k as u32 + 1) as usize);
    }
    let picks = &handles[..1250];
    let mut emptied = store.clone();
    emptied.remove_many(picks).unwrap();
    let discs: Vec<Circle> = (0..picks.len()).map(|_| disc(&mut rng)).collect();
    let motions: Vec<Vec2> = (0..n)
        .map(|k| Vec2::new(1.0 + (k % 7) as f32, 2.0))
        .collect();

    let mut group = c.benchmark_group("store_calls/100k");
    group.sample_size(20);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
    // Each row restores one store before each round, not timed, with `clone_from`: it
    // keeps its room and its pages, which the first round touched. A game's store has
    // both. A fresh clone has neither: its first inserts would time the growth of every
    // column.
    let mut s = store.clone();
    let mut restored = |b: &mut criterion::Bencher<'_>,
                        from: &hantei::BoxStore,
                        calls: &dyn Fn(&mut hantei::BoxStore)| {
        b.iter_custom(|rounds| {
            let mut total = Duration::ZERO;
            for _ in 0..rounds {
                s.clone_from(from);
                let start = Instant::now();
                calls(&mut s);
                total += start.elapsed();
            }
            total
        });
    };
    group.bench_function("remove_1250", |b| {
        restored(b, &store, &|s| {
            picks.iter().for_each(|&h| drop(black_box(s.remove(h))));
        });
    });
    group.bench_function("remove_many_1250", |b| {
        restored(b, &store, &|s| drop(black_box(s.remove_many(picks))));
    });
    group.bench_function("insert_shape_1250", |b| {
        restored(b, &emptied, &|s| {
            for (k, &d) in discs.iter().enumerate() {
                black_box(s.insert_shape(d, BoxProps::new(side(k))).unwrap());
            }
        });
    });
    group.bench_function("set_motions_100k", |b| {
        restored(b, &store, &|s| {
            drop(black_box(s.set_motions(&handles, &motions)))
        });
    });
    group.finish();
}

criterion_group!(
    benches,
    danmaku,
    frame,
    frame_shapes,
    static_level,
    wide_boxes,
    store_calls
);
criterion_main!(benches);
