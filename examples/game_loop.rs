//! A complete minimal bullet-hell loop: spawn, move, collide with enemies and walls,
//! damage, despawn, events. Copy it and grow it: `cargo run --release --example game_loop`
//!
//! It has no options but `--help`, which says what it prints.

mod cli;

use cli::{Command, outln};
use glam::Vec2;
use hantei::frame::{Body, Frame, Level, layers};
use hantei::tilemap::TileMap;
use hantei::{Aabb, BoxHandle, BoxProps, BoxStore, Circle, Error, Filter, Owner, Response};

const LEVEL: &str = "
    ################################
    #..............................#
    #..............................#
    #..........########............#
    #..............................#
    ################################";
/// User data: the player is `PLAYER`, an enemy its index, a bullet 0.
const PLAYER: u64 = u64::MAX;

struct Enemy {
    owner: Owner,
    boxes: Vec<BoxHandle>,
    hp: i32,
}

/// The game's own state, with the collision state inside it.
struct Game {
    store: BoxStore,
    frame: Frame,
    walls: TileMap,
    enemies: Vec<Enemy>,
    player: BoxHandle,
    player_hp: i32,
}

impl Game {
    fn new() -> Result<Game, Error> {
        let mut store = BoxStore::new();
        let at = Vec2::new(256.0, 70.0);
        // The player slides along walls; bullets and enemies touching it are only
        // reported (layers::player() makes walls its only solid layer).
        let me = BoxProps::new(layers::player())
            .with_user_data(PLAYER)
            .with_response(Response::Slide);
        let player = store.insert_shape(Circle::new(at, 2.0), me)?;
        let mut enemies = Vec::new();
        for k in 0..20u32 {
            let (owner, c) = (Owner::new(k, 0), Vec2::new(40.0 + 22.0 * k as f32, 26.0));
            // Three boxes of one owner: a compound hitbox that never hits itself.
            let mut boxes = Vec::new();
            for (dx, half) in [(0.0, 6.0), (-6.0, 2.0), (6.0, 2.0)] {
                let part = Aabb::from_center_half_extents(c + Vec2::X * dx, Vec2::splat(half));
                let p = BoxProps::new(layers::enemy()).with_owner(owner);
                let p = p.with_user_data(k.into());
                boxes.push(store.insert_with(part, p)?);
            }
            let hp = 3;
            enemies.push(Enemy { owner, boxes, hp });
        }
        let walls = TileMap::from_ascii(LEVEL, Vec2::splat(16.0), Vec2::ZERO)?;
        let (frame, player_hp) = (Frame::new(), 10);
        let game = Game {
            store,
            frame,
            walls,
            enemies,
            player,
            player_hp,
        };
        Ok(game)
    }

    /// A bullet that flies until it hits something, then is destroyed.
    fn spawn(&mut self, at: Vec2, motion: Vec2, filter: Filter) -> Result<(), Error> {
        let p = BoxProps::new(filter).with_motion(motion);
        let p = p.with_response(Response::Destroy);
        self.store.insert_shape(Circle::new(at, 1.0), p).map(|_| ())
    }

    /// One frame: spawn, then collide and move everything, then react.
    fn update(&mut self, tick: u32) -> Result<(), Error> {
        let at = self
            .store
            .shape(self.player)
            .map_or(Vec2::ZERO, |s| s.bounds().center());
        self.spawn(at, Vec2::new(0.0, -6.0), layers::player_bullet())?;
        for k in (0..20).filter(|k| (tick + k).is_multiple_of(40)) {
            let c = Vec2::new(40.0 + 22.0 * k as f32, 36.0);
            for a in 0..8 {
                self.spawn(
                    c,
                    Vec2::from_angle(a as f32 * 0.785) * 2.0,
                    layers::enemy_bullet(),
                )?;
            }
        }
        let sway = Vec2::new((tick as f32 * 0.05).sin() * 3.0, 0.0);
        self.store.set_motion(self.player, sway)?;
        // Contacts, walls, motion applied, bullets destroyed: one call.
        self.frame
            .advance(&mut self.store, &Level::walls(&self.walls))?;

        // Damage on each contact that began this frame (the report borrows only the frame).
        for e in self.frame.report().began {
            let (a, b) = e.user_data;
            if a == PLAYER || b == PLAYER {
                self.player_hp -= 1;
            } else if let Body::Owner(owner) = e.bodies.a {
                let enemy = &mut self.enemies[a as usize];
                enemy.hp -= i32::from(enemy.owner == owner);
            }
        }
        // A dead enemy respawns in place as a new body: a new owner generation.
        for (k, enemy) in self
            .enemies
            .iter_mut()
            .enumerate()
            .filter(|(_, e)| e.hp <= 0)
        {
            enemy.owner = Owner::new(k as u32, enemy.owner.generation() + 1);
            enemy.hp = 3;
            for &h in &enemy.boxes {
                self.store.set_owner(h, enemy.owner)?;
            }
        }
        Ok(())
    }
}

/// The help: what the program does and prints.
const USAGE: &str = "\
game_loop: a minimal bullet-hell game loop on hantei, 600 frames

usage: game_loop [OPTIONS]

  -h, --help            print this help and exit

It has no other options. It prints two summary lines. They give the boxes still live
and the player's hit points at the end. They give the body contacts, wall hits,
destroyed bullets and enemy respawns summed over the 600 frames. Each run prints
the same lines.
An unknown argument prints one line naming it and exits with 2.
";

/// Only the help flags are known. The first argument decides.
fn parse_args(mut it: cli::Args) -> Result<Command<()>, String> {
    match it.next_arg()? {
        None => Ok(Command::Run(())),
        Some(arg) if cli::is_help(&arg) => Ok(Command::Help),
        Some(arg) => Err(cli::unknown(&arg)),
    }
}

fn main() -> std::process::ExitCode {
    cli::main(USAGE, parse_args(cli::Args::from_env()), |()| run())
}

/// Runs the 600 frames and prints the summary.
fn run() -> Result<(), String> {
    let mut game = Game::new().map_err(|e| e.to_string())?;
    let (mut contacts, mut walls, mut destroyed) = (0, 0, 0);
    for tick in 0..600 {
        game.update(tick)
            .map_err(|e| format!("frame {}: {e}", tick + 1))?;
        let r = game.frame.report();
        contacts += r.contacts.len();
        walls += r.wall_hits.len();
        destroyed += r.destroyed.len();
    }
    let respawns: u32 = game.enemies.iter().map(|e| e.owner.generation()).sum();
    outln!(
        "600 frames: {} boxes live, {contacts} contacts, {walls} wall hits",
        game.store.len()
    )?;
    outln!(
        "{destroyed} bullets destroyed, {respawns} enemy respawns, player hp {}",
        game.player_hp
    )
}
