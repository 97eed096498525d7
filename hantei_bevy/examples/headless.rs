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
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use hantei_bevy::{ColliderDestroyed, CollisionStarted, CollisionWorld, HanteiPlugin};
use std::time::Instant;

/// The arena, the player, the enemies and the bullets.
mod scene;
use scene::{Rng, spawn_bullet};

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

    app.insert_resource(scene::walls());
    let mut rng = Rng::new();
    scene::spawn(app.world_mut(), bullets, &mut rng);

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
