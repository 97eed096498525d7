//! A headless bullet-hell scene on the plugin: thousands of bullet entities, enemies,
//! a player and walls, one fixed step per `App::update`. It prints the time of each
//! step and a summary.
//!
//! `cargo run --release -p hantei_bevy --example headless -- [BULLETS] [STEPS]`
//!
//! BULLETS is the number of bullets alive at the start (default 10000), STEPS the
//! number of fixed steps (default 120). Destroyed bullets are replaced each step, so
//! the count stays near BULLETS.

use bevy_app::{App, TaskPoolPlugin, Update};
use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;
use hantei_bevy::hantei::frame::layers;
use hantei_bevy::hantei::{Response, TileMap};
use hantei_bevy::{
    Collider, ColliderDestroyed, CollisionLayers, CollisionResponse, CollisionStarted,
    CollisionWalls, CollisionWorld, HanteiPlugin, Velocity,
};
use std::time::Instant;

/// The arena: 100 × 100 tiles of 10 units, walls all round.
const TILES: usize = 100;
const TILE: f32 = 10.0;

/// Counts of what happened, summed over the run.
#[derive(Resource, Default)]
struct Tally {
    started: usize,
    destroyed: usize,
}

fn count(
    mut tally: ResMut<Tally>,
    mut started: MessageReader<CollisionStarted>,
    mut destroyed: MessageReader<ColliderDestroyed>,
) {
    tally.started += started.read().count();
    tally.destroyed += destroyed.read().count();
}

/// A small deterministic generator (xorshift), so every run is the same scene.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1u32 << 24) as f32
    }
}

fn spawn_bullet(world: &mut World, rng: &mut Rng) {
    let side = TILES as f32 * TILE;
    let at = Vec2::new(
        TILE * 2.0 + rng.next() * (side - 4.0 * TILE),
        TILE * 2.0 + rng.next() * (side - 4.0 * TILE),
    );
    let v = Vec2::from_angle(rng.next() * std::f32::consts::TAU) * (60.0 + 120.0 * rng.next());
    let filter = if rng.next() < 0.5 {
        layers::enemy_bullet()
    } else {
        layers::player_bullet()
    };
    world.spawn((
        Collider::circle(1.0),
        Transform::from_translation(at.extend(0.0)),
        Velocity(v),
        CollisionLayers(filter),
        CollisionResponse(Response::Destroy),
    ));
}

fn arg(n: usize, default: usize) -> usize {
    std::env::args()
        .nth(n)
        .and_then(|a| a.parse().ok())
        .unwrap_or(default)
}

fn main() {
    let (bullets, steps) = (arg(1, 10_000), arg(2, 120));
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        HanteiPlugin::default(),
    ))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .init_resource::<Tally>()
    .add_systems(Update, count);

    let mut art = String::new();
    for row in 0..TILES {
        for col in 0..TILES {
            let edge = row == 0 || col == 0 || row == TILES - 1 || col == TILES - 1;
            art.push(if edge { '#' } else { '.' });
        }
        art.push('\n');
    }
    let map = TileMap::from_ascii(&art, Vec2::splat(TILE), Vec2::ZERO).expect("valid art");
    app.insert_resource(CollisionWalls::new(map));

    let world = app.world_mut();
    world.spawn((
        Collider::circle(3.0),
        Transform::from_xyz(500.0, 100.0, 0.0),
        Velocity(Vec2::new(30.0, 0.0)),
        CollisionLayers(layers::player()),
        CollisionResponse(Response::Slide),
    ));
    for k in 0..50 {
        let at = Vec2::new(60.0 + 18.0 * k as f32, 800.0);
        world.spawn((
            Collider::rect(Vec2::splat(6.0)),
            Transform::from_translation(at.extend(0.0)),
            CollisionLayers(layers::enemy()),
        ));
    }
    let mut rng = Rng(0x9e37_79b9);
    for _ in 0..bullets {
        spawn_bullet(world, &mut rng);
    }

    let (mut total, mut in_hantei, mut worst) = (0.0, 0.0, 0.0f64);
    let mut destroyed = 0;
    let mut done = 0;
    while done < steps as u64 {
        let start = Instant::now();
        app.update();
        let ms = start.elapsed().as_secs_f64() * 1e3;
        let cw = app.world().resource::<CollisionWorld>();
        if cw.steps() == done {
            continue; // Bevy's first update runs no fixed step
        }
        done = cw.steps();
        let hantei_ms = cw.frame().report().timings.total.as_secs_f64() * 1e3;
        println!(
            "step {done:4}: {ms:7.3} ms in all, {hantei_ms:7.3} ms in hantei's advance, {} colliders",
            cw.len()
        );
        total += ms;
        in_hantei += hantei_ms;
        worst = worst.max(ms);
        // Keep the bullet count up: replace the ones destroyed this step.
        let now = app.world().resource::<Tally>().destroyed;
        let world = app.world_mut();
        for _ in destroyed..now {
            spawn_bullet(world, &mut rng);
        }
        destroyed = now;
    }
    let tally = app.world().resource::<Tally>();
    println!(
        "{steps} steps, {bullets} bullets: {:.3} ms per step on average ({:.3} ms in hantei), \
         {worst:.3} ms at worst; {} contacts began, {} bullets destroyed",
        total / steps.max(1) as f64,
        in_hantei / steps.max(1) as f64,
        tally.started,
        tally.destroyed
    );
}
