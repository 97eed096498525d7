//! A platformer on `Frame::advance`: gravity, jumping, sliding along walls and floors,
//! a moving platform, and coins as sensors. `cargo run --example platformer`
//!
//! The player has `Response::Slide`, so walls and the platform stop it and it slides
//! along them. Coins are only sensed: touching one reports a contact, and the game
//! removes the coin. A scripted input runs, jumps and rides for 600 frames.

mod cli;

use cli::{Command, outln};
use glam::Vec2;
use hantei::frame::{Body, Frame, HitOther, Level, layers};
use hantei::tilemap::TileMap;
use hantei::{Aabb, BoxProps, BoxStore, Filter, Response};

const MAP: &str = "
    ##############################
    #............................#
    #............................#
    #..#####.................###.#
    #..............o.............#
    #.........o..######..........#
    #.......####.................#
    #....o.........o.........o...#
    ######.................#######
    ######.................#######
    ##############################";
const TILE: f32 = 16.0;
const PLATFORM: u32 = 1 << 5;
const COIN: u32 = 1 << 6;

fn run() -> Result<(), Box<dyn std::error::Error>> {
    let walls = TileMap::from_ascii(&MAP.replace('o', "."), Vec2::splat(TILE), Vec2::ZERO)?;
    let level = Level::walls(&walls);
    let mut store = BoxStore::new();
    // The player: walls and the platform are solid, coins are sensed.
    let me = Filter::new(layers::PLAYER, layers::WALL | PLATFORM | COIN)
        .with_solid(layers::WALL | PLATFORM);
    let start = Aabb::from_coords(86.0, 116.0, 96.0, 128.0); // on the left ledge
    let player = store.insert_with(start, BoxProps::new(me).with_response(Response::Slide))?;
    // A platform level with the ledges, moving across the pit and back (y down).
    let lift = Aabb::from_coords(96.0, 128.0, 144.0, 134.0);
    let platform = store.insert_with(lift, BoxProps::new(Filter::new(PLATFORM, layers::PLAYER)))?;
    for (y, row) in MAP.lines().skip(1).enumerate() {
        for (x, _) in row.trim().match_indices('o') {
            let c = Vec2::new(x as f32 + 0.5, y as f32 + 0.5) * TILE;
            let coin = Aabb::from_center_half_extents(c, Vec2::splat(4.0));
            let props =
                BoxProps::new(Filter::new(COIN, layers::PLAYER)).with_user_data(COIN.into());
            store.insert_with(coin, props)?;
        }
    }
    let coins_at_start = store.len() - 2;
    let mut frame = Frame::new();
    let (mut velocity, mut grounded, mut riding) = (Vec2::ZERO, false, Vec2::ZERO);
    let (mut coins, mut jumps, mut bumps, mut rides) = (0, 0, 0, 0);
    for tick in 0..600u32 {
        // Input: ride the platform across the pit, walk off it, run back left into the
        // pit and out again, jumping now and then (never off the moving platform).
        let far_side = store.get(platform).is_some_and(|p| p.max.x >= 360.0);
        velocity.x = match tick {
            _ if riding != Vec2::ZERO && !far_side => 0.0,
            0..=299 => 1.5,
            300..=449 => -1.5,
            _ => 1.5,
        };
        if grounded && riding == Vec2::ZERO && tick % 40 == 10 {
            velocity.y = -7.5;
            jumps += 1;
        }
        velocity.y = (velocity.y + 0.35).min(8.0); // gravity, y down
        // The platform crosses in 224 frames, waits 60 at each end.
        let sway = match tick % 568 {
            0..=223 => 1.0,
            284..=507 => -1.0,
            _ => 0.0,
        };
        store.set_motion(platform, Vec2::new(sway, 0.0))?;
        // A rider moves with the platform under it.
        store.set_motion(player, velocity + riding)?;

        frame.advance(&mut store, &level)?;

        (grounded, riding) = (false, Vec2::ZERO);
        let mut taken = Vec::new();
        for hit in frame.report().hits_of(Body::Box(player)) {
            match hit.other {
                HitOther::Body { handle, .. } if handle != platform => taken.push(handle),
                // On top of the platform: ride it.
                HitOther::Body { .. } if hit.normal.y < 0.0 => {
                    (grounded, riding) = (true, Vec2::new(sway, 0.0));
                    velocity.y = velocity.y.min(0.0);
                    rides += 1;
                }
                _ if hit.normal.y < 0.0 => (grounded, velocity.y) = (true, velocity.y.min(0.0)),
                _ if hit.normal.y > 0.0 => {
                    velocity.y = 0.0; // bumped a ceiling
                    bumps += 1;
                }
                _ => {}
            }
        }
        for coin in taken {
            store.remove(coin)?;
            coins += 1;
        }
        if tick % 100 == 99 {
            let at = store.get(player).map_or(Vec2::ZERO, |b| b.min);
            let state = ["in the air", "on the ground"][usize::from(grounded)];
            outln!(
                "frame {:>3}: player at ({:6.1}, {:6.1}), {state}",
                tick + 1,
                at.x,
                at.y
            )?;
        }
    }
    outln!("{coins} of {coins_at_start} coins taken, {jumps} jumps, {bumps} ceiling bumps")?;
    outln!("{rides} frames riding the platform")?;
    Ok(())
}

/// The help: what the program does and prints.
const USAGE: &str = "\
platformer: a character that runs, jumps, rides a platform and takes coins, 600 frames

usage: platformer [OPTIONS]

  -h, --help            print this help and exit

It prints where the player is every 100 frames, then the coins taken, the jumps, the
ceilings bumped and the frames spent riding the platform. Each run prints the same
lines. An unknown argument prints one line naming it and exits with 2.
";

fn main() -> std::process::ExitCode {
    let command = match cli::Args::from_env().next_arg() {
        Ok(None) => Ok(Command::Run(())),
        Ok(Some(arg)) if cli::is_help(&arg) => Ok(Command::Help),
        Ok(Some(arg)) => Err(cli::unknown(&arg)),
        Err(e) => Err(e),
    };
    cli::main(USAGE, command, |()| run().map_err(|e| e.to_string()))
}
