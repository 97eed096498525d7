//! The scene the peer benchmarks run on each engine: a danmaku collision frame, seeded,
//! so that every engine starts from the same numbers.
//!
//! A 1000 × 1000 arena walled by 20-unit tiles along its border; [`ENEMIES`] enemy
//! discs of radius [`ENEMY_RADIUS`], each circling its own centre at about one unit a
//! frame; one player disc of radius [`PLAYER_RADIUS`] circling the arena's centre at
//! half a unit a frame; and `n` bullet discs of radius [`BULLET_RADIUS`] flying at 2 to
//! 8 units a frame in random directions, spawned at random points at least
//! [`SPAWN_MARGIN`] from the arena's edge. Bullets in even slots are the player's (they
//! hit enemies and walls), in odd slots the enemies' (they hit the player and walls);
//! bullets never test against bullets. A bullet that hits anything respawns at a fresh
//! point with a fresh velocity, drawn from the scene's [`Rng`].
//!
//! Each engine advances its own copy ([`Scene`] is `Clone`): the copies agree until the
//! first frame where the engines disagree on a hit (then their random draws part), and
//! the enemies and the player follow the same paths in every copy whatever the bullets do.

use glam::Vec2;
use hantei::rng::Rng;
use hantei::tilemap::TileMap;

/// The arena's side, in units.
pub const ARENA: f32 = 1000.0;
/// The side of a wall tile.
pub const TILE: f32 = 20.0;
/// Tiles along each side of the arena (`ARENA / TILE`).
pub const TILES: u32 = 50;
/// How far from the arena's edge a bullet spawns at least (the wall tile plus room for a
/// bullet and its fastest frame).
pub const SPAWN_MARGIN: f32 = 40.0;
/// A bullet's radius.
pub const BULLET_RADIUS: f32 = 3.0;
/// An enemy's radius.
pub const ENEMY_RADIUS: f32 = 12.0;
/// The player's radius.
pub const PLAYER_RADIUS: f32 = 4.0;
/// How many enemies the scene has.
pub const ENEMIES: usize = 50;
/// The slowest bullet, in units a frame.
pub const MIN_SPEED: f32 = 2.0;
/// The fastest bullet, in units a frame.
pub const MAX_SPEED: f32 = 8.0;

/// A bullet of the game's own state: where it is and its displacement each frame.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bullet {
    /// Its centre.
    pub pos: Vec2,
    /// Its displacement per frame (constant until it respawns).
    pub vel: Vec2,
}

impl Bullet {
    /// A fresh bullet: a random point at least [`SPAWN_MARGIN`] inside the arena, a
    /// random direction and a speed in `[MIN_SPEED, MAX_SPEED)`. Draws four numbers.
    pub fn spawn(rng: &mut Rng) -> Bullet {
        let pos = Vec2::new(
            rng.range_f32(SPAWN_MARGIN, ARENA - SPAWN_MARGIN),
            rng.range_f32(SPAWN_MARGIN, ARENA - SPAWN_MARGIN),
        );
        let angle = rng.range_f32(0.0, core::f32::consts::TAU);
        let speed = rng.range_f32(MIN_SPEED, MAX_SPEED);
        let (sin, cos) = angle.sin_cos();
        Bullet {
            pos,
            vel: Vec2::new(cos, sin) * speed,
        }
    }
}

/// Whether the bullet in `slot` is the player's (even slots) or an enemy's (odd slots).
#[must_use]
pub const fn is_player_bullet(slot: usize) -> bool {
    slot.is_multiple_of(2)
}

/// A disc going round a circle at a constant angular step: an enemy, or the player.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mover {
    /// The centre of its circle.
    pub centre: Vec2,
    /// The radius of its circle.
    pub orbit: f32,
    /// Where on the circle it is, in radians.
    pub angle: f32,
    /// Radians per frame (negative: clockwise).
    pub step: f32,
    /// Its position (the game's copy, moved by [`Mover::motion`] each frame).
    pub pos: Vec2,
}

impl Mover {
    /// A mover at `angle` on the circle of `orbit` around `centre`, moving `speed`
    /// units a frame (about: along the chord), clockwise when `speed` is negative.
    #[must_use]
    pub fn new(centre: Vec2, orbit: f32, angle: f32, speed: f32) -> Mover {
        Mover {
            centre,
            orbit,
            angle,
            step: speed / orbit,
            pos: Self::at(centre, orbit, angle),
        }
    }

    fn at(centre: Vec2, orbit: f32, angle: f32) -> Vec2 {
        let (sin, cos) = angle.sin_cos();
        centre + Vec2::new(cos, sin) * orbit
    }

    /// Its displacement this frame.
    #[must_use]
    pub fn motion(&self) -> Vec2 {
        Self::at(self.centre, self.orbit, self.angle + self.step)
            - Self::at(self.centre, self.orbit, self.angle)
    }

    /// Moves it by [`Mover::motion`] (the position the game keeps; an engine that moves
    /// it by the same motion agrees with it).
    pub fn advance(&mut self) {
        self.pos += self.motion();
        self.angle = (self.angle + self.step).rem_euclid(core::f32::consts::TAU);
    }
}

/// The whole scene as the game keeps it: bullets, enemies, the player and the random
/// stream that respawns bullets.
#[derive(Debug, Clone)]
pub struct Scene {
    /// The bullets, by slot (see [`is_player_bullet`]).
    pub bullets: Vec<Bullet>,
    /// The enemies (enemy `e` is `Owner(1 + e)` in hantei).
    pub enemies: Vec<Mover>,
    /// The player.
    pub player: Mover,
    /// Draws every respawn.
    pub rng: Rng,
}

impl Scene {
    /// `bullets` bullets, [`ENEMIES`] enemies and the player, from `seed`.
    #[must_use]
    pub fn new(bullets: usize, seed: u64) -> Scene {
        let mut rng = Rng::new(seed);
        let enemies = (0..ENEMIES)
            .map(|_| {
                let centre = Vec2::new(rng.range_f32(200.0, 800.0), rng.range_f32(200.0, 800.0));
                let orbit = rng.range_f32(20.0, 120.0);
                let angle = rng.range_f32(0.0, core::f32::consts::TAU);
                let speed = if rng.below(2) == 0 { 1.0 } else { -1.0 };
                Mover::new(centre, orbit, angle, speed)
            })
            .collect();
        let player = Mover::new(Vec2::splat(ARENA / 2.0), 250.0, 0.0, 0.5);
        let bullets = (0..bullets).map(|_| Bullet::spawn(&mut rng)).collect();
        Scene {
            bullets,
            enemies,
            player,
            rng,
        }
    }

    /// Step 5 of a frame: the enemies and the player move by their motions.
    pub fn move_targets(&mut self) {
        self.enemies.iter_mut().for_each(Mover::advance);
        self.player.advance();
    }
}

/// The arena's walls as hantei's tile map: `TILES × TILES` tiles of `TILE`, the
/// border ones solid.
///
/// # Panics
/// Never (the map is valid by construction).
#[must_use]
pub fn border_map() -> TileMap {
    let mut map =
        TileMap::new(TILES, TILES, Vec2::splat(TILE), Vec2::ZERO).expect("a valid tile map");
    for k in 0..TILES {
        for (x, y) in [(k, 0), (k, TILES - 1), (0, k), (TILES - 1, k)] {
            map.set(x, y, 1).expect("inside the map");
        }
    }
    map
}

/// The same walls as four long rectangles, `(centre, half extents)`: the bottom, top,
/// left and right rows of tiles (the corners covered twice).
#[must_use]
pub fn border_walls() -> [(Vec2, Vec2); 4] {
    let half = ARENA / 2.0;
    let t = TILE / 2.0;
    [
        (Vec2::new(half, t), Vec2::new(half, t)),
        (Vec2::new(half, ARENA - t), Vec2::new(half, t)),
        (Vec2::new(t, half), Vec2::new(t, half)),
        (Vec2::new(ARENA - t, half), Vec2::new(t, half)),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scene_is_seeded_and_inside_the_arena() {
        let (a, b) = (Scene::new(1000, 7), Scene::new(1000, 7));
        assert_eq!(a.bullets, b.bullets);
        assert_eq!(a.enemies, b.enemies);
        let map = border_map();
        for bullet in &a.bullets {
            let p = bullet.pos;
            assert!(p.min_element() >= SPAWN_MARGIN && p.max_element() < ARENA - SPAWN_MARGIN);
            let speed = bullet.vel.length();
            assert!((MIN_SPEED - 1e-3..MAX_SPEED + 1e-3).contains(&speed));
        }
        // The border is solid, the inside open.
        let last = TILES as i32 - 1;
        assert_eq!(map.get(glam::IVec2::new(0, 7)), 1);
        assert_eq!(map.get(glam::IVec2::new(last, 7)), 1);
        assert_eq!(map.get(glam::IVec2::new(7, last)), 1);
        assert_eq!(map.get(glam::IVec2::new(1, 1)), 0);
    }

    #[test]
    fn movers_go_about_one_unit_a_frame_and_stay_clear_of_the_walls() {
        let mut scene = Scene::new(0, 3);
        for _ in 0..2000 {
            for e in &scene.enemies {
                let m = e.motion().length();
                assert!((0.99..=1.01).contains(&m), "{m}");
            }
            scene.move_targets();
            for e in &scene.enemies {
                let p = e.pos;
                assert!(p.min_element() > TILE + ENEMY_RADIUS);
                assert!(p.max_element() < ARENA - TILE - ENEMY_RADIUS);
            }
        }
    }
}
