//! The scene of the headless example and of the plugin bench (`benches/plugin.rs`
//! includes this file): a 100 × 100 tile arena with a solid border, a sliding player, a
//! row of 50 enemies and round bullets of both sides flying every way.

use bevy_ecs::prelude::*;
use bevy_math::Vec2;
use bevy_transform::components::Transform;
use hantei_bevy::hantei::frame::layers;
use hantei_bevy::hantei::{Response, TileMap};
use hantei_bevy::{Collider, CollisionLayers, CollisionResponse, CollisionWalls, Velocity};

/// The arena's side in tiles.
pub const TILES: usize = 100;
/// A tile's side in world units.
pub const TILE: f32 = 10.0;
/// Colliders besides the bullets: the player and the enemies.
#[allow(dead_code)] // the bench's
pub const OTHERS: usize = 51;

/// A small deterministic generator (xorshift), so every run is the same scene.
#[derive(Resource)]
pub struct Rng(pub u32);

impl Rng {
    /// The scene's generator, seeded.
    pub fn new() -> Self {
        Rng(0x9e37_79b9)
    }

    fn next(&mut self) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        (self.0 >> 8) as f32 / (1u32 << 24) as f32
    }
}

/// The arena's walls: its border tiles.
pub fn walls() -> CollisionWalls {
    let mut art = String::new();
    for row in 0..TILES {
        for col in 0..TILES {
            let edge = row == 0 || col == 0 || row == TILES - 1 || col == TILES - 1;
            art.push(if edge { '#' } else { '.' });
        }
        art.push('\n');
    }
    let map = TileMap::from_ascii(&art, Vec2::splat(TILE), Vec2::ZERO).expect("valid art");
    CollisionWalls::new(map)
}

/// The player, the enemies and `bullets` bullets.
pub fn spawn(world: &mut World, bullets: usize, rng: &mut Rng) {
    world.spawn((
        Collider::circle(3.0),
        Transform::from_xyz(500.0, 100.0, 0.0),
        Velocity(Vec2::new(30.0, 0.0)),
        CollisionLayers(layers::player()),
        CollisionResponse(Response::Slide),
    ));
    for k in 0..OTHERS - 1 {
        let at = Vec2::new(60.0 + 18.0 * k as f32, 800.0);
        world.spawn((
            Collider::rect(Vec2::splat(6.0)),
            Transform::from_translation(at.extend(0.0)),
            CollisionLayers(layers::enemy()),
        ));
    }
    for _ in 0..bullets {
        spawn_bullet(world, rng);
    }
}

/// One bullet somewhere inside the walls, of either side, at a random speed and heading.
pub fn spawn_bullet(world: &mut World, rng: &mut Rng) {
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
