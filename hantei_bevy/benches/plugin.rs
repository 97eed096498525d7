//! The plugin's whole fixed step against `Frame::advance` alone, on one thread.
//!
//! The scene is the headless example's: a walled arena of 100 × 100 tiles, a sliding
//! player, 50 enemies and BULLETS bullet entities that die on walls and on what they
//! hit. Before each step, untimed, the bench spawns new bullets for the ones that died,
//! so the count stays at BULLETS.
//!
//! - `whole_step`: one `App::update` that runs one fixed step: the plugin's sync,
//!   `advance`, the write-back to `Transform`, the messages and the despawns, and Bevy's
//!   own schedules around them.
//! - `advance`: `Frame::advance` alone, on a copy (not timed) of the store that one of
//!   the plugin's steps began with, with the same walls.
//!
//! After the criterion rows, each size prints the two measured interleaved: step after
//! step, the whole step's time over the time of its own `advance` (hantei's
//! `FrameTimings::total`): the median ratio and its quartiles. On a shared machine this
//! ratio is steadier than the ratio of two rows that ran a minute apart.
//!
//! Beside it, each size prints a floor: what any plugin must pay on top of `advance`,
//! measured step by step as well. It is the step's own `advance`, plus one pass that
//! reads and writes every collider's `Transform` right after an `advance` (so the
//! transforms are as cold as in the step), plus Bevy's own despawn of as many bullets
//! as the step destroyed, in a world of the same bullets without the plugin. The floor
//! leaves out the sync, the messages and the change ticks, so it is a lower bound.
//!
//! Everything runs on one thread: a one-thread rayon pool whose thread is the bench's
//! own, Bevy's single-threaded executor for every schedule and a task pool of one
//! thread. A system between the plugin's sync and step checks it.
//!
//! ```text
//! cargo bench -p hantei_bevy --bench plugin
//! PLUGIN_SIZES=100000 cargo bench -p hantei_bevy --bench plugin
//! ```
//!
//! `cargo test -p hantei_bevy --benches` runs each row once on 1000 bullets, untimed,
//! and prints the interleaved line and the floor over three steps.

use bevy_app::{App, FixedUpdate, TaskPoolOptions, TaskPoolPlugin};
use bevy_ecs::prelude::*;
use bevy_ecs::schedule::{Schedules, SingleThreadedExecutor};
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;
use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use hantei_bevy::hantei::BoxStore;
use hantei_bevy::hantei::frame::{Frame, FrameConfig, Level, layers};
use hantei_bevy::{Collider, CollisionWalls, CollisionWorld, HanteiPlugin, HanteiSystems};
use std::hint::black_box;
use std::time::{Duration, Instant};

/// The arena: 100 × 100 tiles of 10 units, walls all round.
#[path = "../examples/scene/mod.rs"]
mod scene;
use scene::{OTHERS, Rng, spawn_bullet};

/// A copy of the store as the step's `advance` will find it, when asked for.
#[derive(Resource, Default)]
struct Snapshot {
    wanted: bool,
    store: Option<BoxStore>,
}

fn snapshot(mut snap: ResMut<Snapshot>, world: Res<CollisionWorld>) {
    if snap.wanted {
        snap.wanted = false;
        snap.store = Some(world.store().clone());
    }
}

/// Fails unless the step runs on a one-thread rayon pool.
fn one_thread() {
    assert_eq!(
        rayon::current_num_threads(),
        1,
        "the step runs on one thread"
    );
}

/// The scene with `bullets` bullets, its first step run.
fn scene(bullets: usize) -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin {
            task_pool_options: TaskPoolOptions::with_num_threads(1),
        },
        TimePlugin,
        HanteiPlugin::default(),
    ))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .init_resource::<Snapshot>()
    .add_systems(
        FixedUpdate,
        (snapshot, one_thread)
            .after(HanteiSystems::Sync)
            .before(HanteiSystems::Step),
    );
    app.insert_resource(scene::walls());
    for (_, schedule) in app.world_mut().resource_mut::<Schedules>().iter_mut() {
        schedule.set_executor(SingleThreadedExecutor::new());
    }

    let world = app.world_mut();
    let mut rng = Rng::new();
    scene::spawn(world, bullets, &mut rng);
    world.insert_resource(rng);
    // Bevy's first update runs no fixed step; the second inserts every bullet.
    while app.world().resource::<CollisionWorld>().steps() == 0 {
        app.update();
    }
    app
}

/// Spawns a bullet for each one that died, then runs one fixed step; returns its time.
fn step(app: &mut App, bullets: usize) -> Duration {
    let alive = app.world().resource::<CollisionWorld>().len() - OTHERS;
    app.world_mut().resource_scope(|world, mut rng: Mut<Rng>| {
        for _ in alive..bullets {
            spawn_bullet(world, &mut rng);
        }
    });
    let steps = app.world().resource::<CollisionWorld>().steps();
    let start = Instant::now();
    app.update();
    let time = start.elapsed();
    assert_eq!(
        app.world().resource::<CollisionWorld>().steps(),
        steps + 1,
        "one fixed step per update"
    );
    time
}

/// The store that the next step's `advance` begins with; the step runs.
fn take_snapshot(app: &mut App, bullets: usize) -> BoxStore {
    app.world_mut().resource_mut::<Snapshot>().wanted = true;
    step(app, bullets);
    let snap = app.world_mut().resource_mut::<Snapshot>().store.take();
    snap.expect("the snapshot system ran")
}

/// Whether this is a timed run (`cargo bench` passes `--bench`), not a test run.
fn timed() -> bool {
    std::env::args().any(|a| a == "--bench")
}

/// `PLUGIN_SIZES`, or 10k and 100k bullets; 1000 in a test run (`cargo test --benches`).
fn sizes() -> Vec<usize> {
    match std::env::var("PLUGIN_SIZES") {
        Ok(s) => s.split(',').filter_map(|n| n.trim().parse().ok()).collect(),
        Err(_) if timed() => vec![10_000, 100_000],
        Err(_) => vec![1000],
    }
}

/// Median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The quartiles of `v`, sorted already.
fn quartiles(v: &[f64]) -> (f64, f64) {
    let q = |f: f64| v[((v.len() - 1) as f64 * f) as usize];
    (q(0.25), q(0.75))
}

/// One pass over every collider's `Transform` that reads and writes its translation,
/// as the least a write-back must do. It writes the value it read and leaves the
/// change ticks alone, so the plugin's next sync sees nothing new. Returns its time.
fn transform_pass(app: &mut App) -> Duration {
    let world = app.world_mut();
    let mut query = world.query_filtered::<&mut Transform, (With<Collider>, Without<ChildOf>)>();
    let start = Instant::now();
    for mut t in query.iter_mut(world) {
        let t = t.bypass_change_detection();
        t.translation = black_box(t.translation);
    }
    start.elapsed()
}

/// `bullets` bullets in a world without the plugin: Bevy's own despawns, measured.
struct Ghosts {
    world: World,
    rng: Rng,
}

impl Ghosts {
    fn new(bullets: usize) -> Self {
        let mut world = World::new();
        let mut rng = Rng::new();
        for _ in 0..bullets {
            spawn_bullet(&mut world, &mut rng);
        }
        Ghosts { world, rng }
    }

    /// Despawns `n` bullets spread over the table, from the last row up as the plugin
    /// does, and spawns `n` new ones (not timed). Returns the despawns' time.
    fn despawn(&mut self, n: usize) -> Duration {
        let rows: Vec<Entity> = self
            .world
            .query_filtered::<Entity, With<Collider>>()
            .iter(&self.world)
            .collect();
        let every = (rows.len() / n.max(1)).max(1);
        let doomed: Vec<Entity> = rows.iter().step_by(every).take(n).rev().copied().collect();
        let start = Instant::now();
        for &e in &doomed {
            self.world.despawn(e);
        }
        let time = start.elapsed();
        for _ in 0..doomed.len() {
            spawn_bullet(&mut self.world, &mut self.rng);
        }
        time
    }
}

/// The whole step over its own `advance`, step after step, and the floor beside it:
/// prints the medians. `evict` runs an `advance` of the same size (not timed), so that
/// each part of the floor starts from caches as an `advance` leaves them.
fn interleaved(app: &mut App, bullets: usize, rounds: usize, evict: &mut dyn FnMut()) {
    let mut ghosts = Ghosts::new(bullets);
    let (mut whole, mut adv, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    let (mut pass, mut despawn, mut floor) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = step(app, bullets).as_secs_f64() * 1e3;
        let report = app.world().resource::<CollisionWorld>().frame().report();
        let a = report.timings.total.as_secs_f64() * 1e3;
        let destroyed = report.destroyed.len();
        evict();
        let p = transform_pass(app).as_secs_f64() * 1e3;
        evict();
        let d = ghosts.despawn(destroyed).as_secs_f64() * 1e3;
        whole.push(t);
        adv.push(a);
        ratio.push(t / a);
        pass.push(p);
        despawn.push(d);
        floor.push((a + p + d) / a);
    }
    let (w, a, r) = (median(&mut whole), median(&mut adv), median(&mut ratio));
    let (p, d, f) = (median(&mut pass), median(&mut despawn), median(&mut floor));
    let (r0, r1) = quartiles(&ratio);
    let (f0, f1) = quartiles(&floor);
    println!(
        "plugin_step/{bullets}: interleaved over {rounds} steps: whole step {w:.3} ms, \
         its advance {a:.3} ms, ratio {r:.2}x (quartiles {r0:.2}-{r1:.2})"
    );
    println!(
        "plugin_step/{bullets}: floor: transform pass {p:.3} ms, Bevy's despawns {d:.3} ms, \
         floor {f:.2}x its advance (quartiles {f0:.2}-{f1:.2})"
    );
}

fn bench(c: &mut Criterion) {
    // This thread is the pool's one thread: rayon's work runs here (neither criterion
    // nor a Bevy app can move into `ThreadPool::install`).
    let _pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .use_current_thread()
        .build()
        .expect("a one-thread pool");
    {
        for bullets in sizes() {
            let mut app = scene(bullets);
            // A few steps so that the scene settles: contacts, deaths, refills.
            for _ in 0..10 {
                step(&mut app, bullets);
            }
            let snap = take_snapshot(&mut app, bullets);
            let map = app.world().resource::<CollisionWalls>().map.clone();
            let level = Level {
                walls: Some(&map),
                wall_filter: layers::wall(),
                ..Level::none()
            };
            let mut frame = Frame::with_config(FrameConfig::default());
            frame
                .advance(&mut snap.clone(), &level)
                .expect("the scene is valid");

            let mut group = c.benchmark_group("plugin_step");
            group.sample_size(if bullets >= 50_000 { 20 } else { 50 });
            group.bench_function(BenchmarkId::new("whole_step", bullets), |b| {
                b.iter_custom(|iters| (0..iters).map(|_| step(&mut app, bullets)).sum());
            });
            group.bench_function(BenchmarkId::new("advance", bullets), |b| {
                b.iter_custom(|iters| {
                    let mut time = Duration::ZERO;
                    for _ in 0..iters {
                        let mut store = snap.clone();
                        let start = Instant::now();
                        let summary = frame.advance(&mut store, &level);
                        time += start.elapsed();
                        black_box(summary.expect("the scene is valid"));
                        black_box(store);
                    }
                    time
                });
            });
            group.finish();
            // A test run goes through the interleaved line and the floor once, briefly.
            let rounds = match (timed(), bullets >= 50_000) {
                (false, _) => 3,
                (true, true) => 100,
                (true, false) => 400,
            };
            let mut evict = || {
                let summary = frame.advance(&mut snap.clone(), &level);
                black_box(summary.expect("the scene is valid"));
            };
            interleaved(&mut app, bullets, rounds, &mut evict);
            // Every collider is in the store: the dead were despawned, the new inserted.
            let colliders = app
                .world_mut()
                .query::<&Collider>()
                .iter(app.world())
                .count();
            let stored = app.world().resource::<CollisionWorld>().len();
            assert_eq!(colliders, stored, "the scene kept its colliders in step");
        }
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
