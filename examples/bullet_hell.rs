//! `bullet_hell`: hantei's main job. A danmaku frame loop on [`Frame::advance`]:
//! emitters firing rings, spirals and aimed bursts of round bullets, lasers that sweep
//! the arena (capsules that turn during the frame, so nothing slips between two angles),
//! about fifty enemies with mixed hulls (a box body, a round head, two slanted wings),
//! a tiny round player hitbox, and walls from a tile map.
//!
//! Each frame is the game's own part (spawning, steering, setting motions, turning the
//! lasers) plus one `frame.advance(&mut store, &Level::walls(&map))`, which finds every
//! contact (swept), sweeps bullets and the player against the walls, moves everything
//! and removes the bullets that hit something (`Response::Destroy`); then the game
//! reacts to the report (damage from `began` events).
//!
//! ```text
//! cargo run --release --example bullet_hell -- [--bullets N] [--frames F] [--threads T]
//!                                              [--seed S] [--enemies E] [--svg PATH]
//! ```
//!
//! With no arguments: at most 50,000 live bullets (`--bullets` is a cap: the emitters
//! stop firing while it is reached), 600 frames (10 s of a 60 Hz game), all cores,
//! seed 1, 50 enemies. `--help` lists the options.
//!
//! Every 60 frames it prints a progress line: that frame's live bullets, body contacts
//! and wall hits, then the mean time of `advance` over the last 60 frames. Then a
//! summary of counts summed over all frames. Each count with parts is written as
//! `total = part + part`, and each part is named. Body contacts are split into new and
//! continuing ones, and by the kinds of the two bodies. Wall hits are split by who
//! hit, and destroyed bullets by where each first touched something. Then the mean and
//! p99 milliseconds per frame of `advance` and of its parts. Last, it draws the last
//! frame through `hantei::draw` into an SVG picture (`examples/svg/mod.rs` is that
//! `DebugDraw` backend): the enemy bullets faint at the bottom, the player's bullets
//! above them, the player in a ring, this frame's contacts as rings on top, and a
//! legend. The same arguments give the same output apart from its timing lines (the
//! lines with `ms`). A malformed argument prints one line naming it and exits with 2.
//!
//! p99: on Linux the summary counts the frames whose `advance` waited for a CPU (the
//! process's threads runnable but not running, from `/proc/self/task/*/schedstat`) and
//! gives the p99 of the others. On a shared or busy machine those frames are the p99
//! spikes (a scheduler time slice, some 4 ms, lost to another process); the first frames
//! are not slower, since the bullets ramp up to the cap over about two seconds and the
//! buffers grow by doubling.

mod cli;
mod svg;

use cli::{Command, outln};
use glam::Vec2;
use hantei::draw::DebugDraw as _;
use hantei::draw::{Color, DrawOptions, draw_report, draw_store, draw_tiles};
use hantei::frame::{Body, Frame, FrameTimings, HitOther, Level, layers};
use hantei::rng::Rng;
use hantei::tilemap::TileMap;
use hantei::{Aabb, BoxHandle, BoxProps, BoxStore, Capsule, Circle, Filter, Obb2, Owner, Response};
use hantei::{Shape, SimdLevel};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use svg::{Style, Svg};

const TILE: f32 = 16.0;
/// A frame whose `advance` waited this long for a CPU counts as disturbed by other
/// processes (see `cpu_wait`).
const DISTURBED: Duration = Duration::from_micros(500);
/// Hits an enemy takes before it is downed (and comes back as a new body).
const ENEMY_HP: u32 = 40;

/// What a box is: the high half of its user data (the low half: an index).
const PLAYER: u64 = 1;
const ENEMY: u64 = 2;
const LASER: u64 = 3;
const PLAYER_BULLET: u64 = 4;
const ENEMY_BULLET: u64 = 5;

fn tag(kind: u64, index: usize) -> u64 {
    kind << 32 | index as u64
}

fn kind(user_data: u64) -> u64 {
    user_data >> 32
}

fn index(user_data: u64) -> usize {
    (user_data & 0xffff_ffff) as usize
}

/// A layer of the game's own (the layers above `layers::WALL` are free): the lasers',
/// so that the picture can tell them from bullets. No filter's mask names it, so it
/// changes no contact.
const LASER_LAYER: u32 = 1 << 5;

/// A laser hits the player only: it is on the enemy bullets' layer, but passes walls.
const fn laser_filter() -> Filter {
    Filter::new(layers::ENEMY_BULLET | LASER_LAYER, layers::PLAYER)
}

struct Args {
    bullets: usize,
    frames: usize,
    threads: Option<usize>,
    seed: u64,
    enemies: usize,
    svg: String,
}

/// The help: what the program does, then every option on a line of its own.
const USAGE: &str = "\
bullet_hell: a danmaku game's frames on hantei's Frame::advance, timed

usage: bullet_hell [OPTIONS]

  --bullets N           at most N live bullets (default 50000, at most 10000000)
  --frames F            how many frames to run (default 600)
  --threads T           rayon pool size (default: all cores; at most 1024)
  --seed S              the random seed (default 1)
  --enemies E           how many enemies (default 50, at most 10000)
  --svg PATH            where to draw the last frame (default target/bullet_hell.svg)
  -h, --help            print this help and exit

Prints a progress line every 60 frames, then a summary. The same arguments give
the same output apart from the lines with timings (the lines with ms).
A bad argument prints one line naming it and exits with 2.
";

fn parse_args(mut it: cli::Args) -> Result<Command<Args>, String> {
    let mut a = Args {
        bullets: 50_000,
        frames: 600,
        threads: None,
        seed: 1,
        enemies: 50,
        svg: "target/bullet_hell.svg".into(),
    };
    while let Some(flag) = it.next_arg()? {
        match flag.as_str() {
            "--bullets" => a.bullets = it.number("--bullets")?,
            "--frames" => a.frames = it.number("--frames")?,
            "--threads" => a.threads = Some(it.threads("--threads")?),
            "--seed" => a.seed = it.number("--seed")?,
            "--enemies" => a.enemies = it.number("--enemies")?,
            "--svg" => a.svg = it.value("--svg")?,
            f if cli::is_help(f) => return Ok(Command::Help),
            other => return Err(cli::unknown(other)),
        }
    }
    if a.frames == 0 {
        return Err("--frames must be at least 1".into());
    }
    if a.bullets > 10_000_000 {
        return Err(format!("--bullets: {} is more than 10000000", a.bullets));
    }
    if a.enemies > 10_000 {
        return Err(format!("--enemies: {} is more than 10000", a.enemies));
    }
    if a.svg.is_empty() {
        return Err("--svg: the path is empty".into());
    }
    Ok(Command::Run(a))
}

/// An enemy: one owner, four boxes of three kinds.
struct Enemy {
    owner: Owner,
    phase: f32,
    pattern: u8,
    hp: u32,
    /// The body (an axis-aligned box; its center is the enemy's position), the head (a
    /// disc) and two wings (oriented rectangles).
    parts: [BoxHandle; 4],
}

/// A laser anchored at an enemy, turning.
struct Laser {
    enemy: usize,
    beam: BoxHandle,
    angle: f32,
    spin: f32,
}

/// The enemy's parts around its center: shapes, in the order of `Enemy::parts`.
fn hull(at: Vec2) -> [Shape; 4] {
    let wing = |dx: f32, angle: f32| {
        Obb2::from_angle(at + Vec2::new(dx, 2.0), Vec2::new(10.0, 3.0), angle)
    };
    [
        Aabb::from_center_half_extents(at, Vec2::new(8.0, 10.0)).into(),
        Circle::new(at + Vec2::new(0.0, -14.0), 6.0).into(),
        wing(-16.0, 0.35).into(),
        wing(16.0, -0.35).into(),
    ]
}

/// A laser's beam: a long thin capsule from just beyond the enemy's hull, `half.x`
/// half long and `half.y` in radius.
fn beam(at: Vec2, angle: f32, half: Vec2) -> Capsule {
    let dir = Vec2::from_angle(angle);
    Capsule::new(at + dir * 16.0, at + dir * (16.0 + 2.0 * half.x), half.y)
}

/// How far a laser's centre moves while the laser turns by `spin` about its enemy at
/// `angle`: the chord of the centre's arc. The store moves the centre along it and
/// turns the beam about the centre, so the beam stays on its enemy.
fn chord(angle: f32, spin: f32, half: Vec2) -> Vec2 {
    let arm = 16.0 + half.x;
    (Vec2::from_angle(angle + spin) - Vec2::from_angle(angle)) * arm
}

/// The game: the store holds every box, the game only its handles and rules.
struct Game {
    store: BoxStore,
    map: TileMap,
    arena: Aabb,
    rng: Rng,
    cap: usize,
    player: BoxHandle,
    enemies: Vec<Enemy>,
    lasers: Vec<Laser>,
    /// The lasers' half extents: long enough to sweep the player's half of the arena.
    laser_half: Vec2,
    tick: u64,
    tally: Tally,
}

/// Body contacts counted by what their two bodies are. Each contact counts once.
#[derive(Default, Clone, Copy)]
struct PairCounts {
    player_enemy_bullet: u64,
    player_laser: u64,
    player_enemy: u64,
    enemy_player_bullet: u64,
    /// Any other pair. This game's filters make none.
    other: u64,
}

impl PairCounts {
    /// Counts the contact of the boxes with these user data.
    fn add(&mut self, (a, b): (u64, u64)) {
        let (a, b) = (kind(a).min(kind(b)), kind(a).max(kind(b)));
        let count = match (a, b) {
            (PLAYER, ENEMY_BULLET) => &mut self.player_enemy_bullet,
            (PLAYER, LASER) => &mut self.player_laser,
            (PLAYER, ENEMY) => &mut self.player_enemy,
            (ENEMY, PLAYER_BULLET) => &mut self.enemy_player_bullet,
            _ => &mut self.other,
        };
        *count += 1;
    }

    /// Every contact counted.
    fn total(&self) -> u64 {
        self.player_enemy_bullet
            + self.player_laser
            + self.player_enemy
            + self.enemy_player_bullet
            + self.other
    }

    /// `total = part + part + ...`, each part named.
    fn sum(&self) -> String {
        sum(&[
            (self.player_enemy_bullet, "player & enemy bullet"),
            (self.player_laser, "player & laser"),
            (self.player_enemy, "player & enemy"),
            (self.enemy_player_bullet, "enemy & player bullet"),
            (self.other, "other"),
        ])
    }
}

/// `total = n name + n name + ...`. A part named "other" shows only when it is not 0.
fn sum(parts: &[(u64, &str)]) -> String {
    let shown: Vec<String> = parts
        .iter()
        .filter(|(n, name)| *n > 0 || *name != "other")
        .map(|(n, name)| format!("{n} {name}"))
        .collect();
    let total: u64 = parts.iter().map(|p| p.0).sum();
    format!("{total} = {}", shown.join(" + "))
}

/// What happened, summed over the frames. Every total is the sum of its parts.
#[derive(Default)]
struct Tally {
    /// Every body contact: one for each pair of bodies touching in a frame.
    contacts: PairCounts,
    /// The contacts whose bodies did not touch in the frame before. The game's hits.
    began: PairCounts,
    /// Wall hits by bullets: one for each bullet touching a wall in a frame.
    bullet_wall_hits: u64,
    /// Wall hits by the player.
    player_wall_hits: u64,
    /// Wall hits by any other box. This game's filters make none.
    other_wall_hits: u64,
    /// Destroyed bullets whose first contact was a wall.
    destroyed_at_walls: u64,
    /// Destroyed bullets whose first contact was a body.
    destroyed_at_bodies: u64,
    /// Destroyed boxes with no contact to show. None in this game.
    destroyed_other: u64,
    /// Enemies that lost their last hit point, each time one did.
    enemies_downed: u64,
}

impl Game {
    fn new(cap: usize, enemies: usize, seed: u64) -> Game {
        let mut rng = Rng::new(seed);
        // The arena grows with the cap: about 110 square units per bullet.
        let scale = ((cap.max(1000) as f32) * 110.0 / (16.0 * 9.0)).sqrt();
        let (w, h) = (
            ((scale * 16.0 / TILE) as u32).max(24),
            ((scale * 9.0 / TILE) as u32).max(16),
        );
        let mut map = TileMap::new(w, h, Vec2::splat(TILE), Vec2::ZERO).expect("valid map");
        let mut solid = |x: u32, y: u32| map.set(x.min(w - 1), y.min(h - 1), 1).map(|_| ());
        for x in 0..w {
            solid(x, 0).and(solid(x, h - 1)).expect("in the map");
        }
        for y in 0..h {
            solid(0, y).and(solid(w - 1, y)).expect("in the map");
        }
        // A few pillars in the lower half (cover for the player).
        let pillars = (w / 20).max(2);
        for k in 0..pillars {
            let x = 4 + k * (w - 8) / pillars;
            for y in h * 2 / 3..h * 2 / 3 + 3 {
                solid(x, y).and(solid(x + 1, y)).expect("in the map");
            }
        }
        let arena = map.bounds();
        let mut store = BoxStore::with_capacity(cap + 6 * enemies + 1);
        let start = Vec2::new(arena.center().x, arena.max.y - 5.0 * TILE);
        // The player slides along walls. Only walls are solid to it (layers::player()):
        // the bullets, lasers and enemies that touch it are reported, and it moves on.
        let me = BoxProps::new(layers::player())
            .with_user_data(tag(PLAYER, 0))
            .with_response(Response::Slide);
        let player = store
            .insert_shape(Circle::new(start, 2.0), me)
            .expect("valid shape");
        let (mut list, mut lasers) = (Vec::new(), Vec::new());
        let laser_half = Vec2::new(arena.size().y * 0.45, 2.0);
        for k in 0..enemies {
            let at = Vec2::new(
                rng.range_f32(arena.min.x + 4.0 * TILE, arena.max.x - 4.0 * TILE),
                rng.range_f32(arena.min.y + 4.0 * TILE, arena.center().y),
            );
            // A compound hitbox of mixed shapes: one owner, so its parts never collide.
            let owner = Owner::new(k as u32, 0);
            let props = BoxProps::new(layers::enemy())
                .with_owner(owner)
                .with_user_data(tag(ENEMY, k));
            let parts = hull(at).map(|s| store.insert_shape(s, props).expect("valid shape"));
            let phase = rng.range_f32(0.0, core::f32::consts::TAU);
            if k % 10 == 0 {
                // Pointing down at first (y grows downward), toward the player's side.
                let angle = core::f32::consts::FRAC_PI_2 + (phase - 3.0) * 0.3;
                let props = BoxProps::new(laser_filter()).with_user_data(tag(LASER, lasers.len()));
                let beam = store.insert_shape(beam(at, angle, laser_half), props);
                let beam = beam.expect("valid shape");
                // The turn is swept: the frame finds the first contact anywhere along
                // it, so the beam's tip may cross many times its width in a frame.
                let sign = if k % 20 == 0 { 1.0 } else { -0.75 };
                let spin = sign * 0.04;
                let enemy = k;
                lasers.push(Laser {
                    enemy,
                    beam,
                    angle,
                    spin,
                });
            }
            let (pattern, hp) = ((k % 3) as u8, ENEMY_HP);
            list.push(Enemy {
                owner,
                phase,
                pattern,
                hp,
                parts,
            });
        }
        Game {
            store,
            map,
            arena,
            rng,
            cap,
            player,
            enemies: list,
            lasers,
            laser_half,
            tick: 0,
            tally: Tally::default(),
        }
    }

    fn bullets(&self) -> usize {
        self.store.len() - 1 - 4 * self.enemies.len() - self.lasers.len()
    }

    fn center(&self, h: BoxHandle) -> Vec2 {
        self.store
            .shape(h)
            .map_or(Vec2::ZERO, |s| s.bounds().center())
    }

    /// A round bullet that flies until its first contact, then is destroyed; none while
    /// the cap is reached.
    fn spawn(&mut self, at: Vec2, v: Vec2, enemy: bool) {
        if self.bullets() >= self.cap {
            return;
        }
        let (filter, radius, kind) = if enemy {
            (layers::enemy_bullet(), 2.5, ENEMY_BULLET)
        } else {
            (layers::player_bullet(), 1.5, PLAYER_BULLET)
        };
        let props = BoxProps::new(filter)
            .with_motion(v)
            .with_response(Response::Destroy)
            .with_user_data(tag(kind, 0));
        self.store
            .insert_shape(Circle::new(at, radius), props)
            .expect("valid bullet");
    }

    /// `v` if it keeps `at` two tiles inside the walls, else standing still.
    fn inside(&self, at: Vec2, v: Vec2) -> Vec2 {
        let inner = Aabb::new(
            self.arena.min + Vec2::splat(2.0 * TILE),
            self.arena.max - Vec2::splat(2.0 * TILE),
        );
        if inner.contains_point(at + v) {
            v
        } else {
            Vec2::ZERO
        }
    }

    /// The game's part of a frame: emitters fire, enemies, lasers and the player move.
    fn think(&mut self) {
        self.tick += 1;
        let t = self.tick as f32;
        let player_at = self.center(self.player);
        // The player weaves slowly and fires up.
        let pv = self.inside(
            player_at,
            Vec2::new((t * 0.02).cos() * 2.5, (t * 0.03).sin()),
        );
        self.store.set_motion(self.player, pv).expect("player");
        if self.tick.is_multiple_of(2) {
            for dx in [-6.0, 0.0, 6.0] {
                let at = player_at + Vec2::new(dx, -6.0);
                self.spawn(at, Vec2::new(dx * 0.05, -9.0), false);
            }
        }
        let room = self.cap.saturating_sub(self.bullets());
        let per_enemy = (room / self.enemies.len().max(1)).min(64);
        let mut motions = Vec::with_capacity(self.enemies.len());
        for k in 0..self.enemies.len() {
            let (parts, phase, pattern) = {
                let e = &self.enemies[k];
                (e.parts, e.phase, e.pattern)
            };
            let at = self.center(parts[0]);
            let wander = Vec2::new((t * 0.01 + phase).cos(), (t * 0.013 + phase).sin()) * 0.6;
            let v = self.inside(at, wander);
            for h in parts {
                self.store.set_motion(h, v).expect("enemy part");
            }
            motions.push((at, v));
            if per_enemy == 0 || !(self.tick + k as u64).is_multiple_of(8) {
                continue;
            }
            let speed = self.rng.range_f32(1.2, 3.0);
            let tau = core::f32::consts::TAU;
            match pattern {
                // A ring, staggered every other volley.
                0 => {
                    let n = per_enemy.max(8);
                    let off = 0.5 * ((self.tick / 8) % 2) as f32;
                    for j in 0..n {
                        let a = (j as f32 + off) * tau / n as f32 + phase;
                        self.spawn(at, Vec2::from_angle(a) * speed, true);
                    }
                }
                // A five-armed spiral, turning.
                1 => {
                    let n = per_enemy.max(5);
                    for j in 0..n {
                        let arm = (j / 5) as f32;
                        let a = t * 0.07 + (j % 5) as f32 * tau / 5.0 + arm * 0.05;
                        self.spawn(at, Vec2::from_angle(a) * speed * (1.0 + arm * 0.04), true);
                    }
                }
                // An aimed burst with spread.
                _ => {
                    let n = per_enemy.max(4);
                    let to = (player_at - at).normalize_or(Vec2::Y);
                    for j in 0..n {
                        let d = Vec2::from_angle((j as f32 - n as f32 / 2.0) * 0.03).rotate(to);
                        self.spawn(at, d * (speed + 1.0), true);
                    }
                }
            }
        }
        // Each laser is put back on its enemy at its angle, then turns by its spin over
        // the frame and moves with the enemy (both swept).
        for l in &mut self.lasers {
            let (at, v) = motions[l.enemy];
            self.store
                .update_shape(l.beam, beam(at, l.angle, self.laser_half))
                .expect("valid beam");
            self.store.set_turn(l.beam, l.spin).expect("a small turn");
            let m = v + chord(l.angle, l.spin, self.laser_half);
            self.store.set_motion(l.beam, m).expect("laser");
            l.angle += l.spin;
        }
    }

    /// The game's reaction to the frame's report: tallies and damage.
    fn react(&mut self, frame: &Frame) {
        let r = frame.report();
        let t = &mut self.tally;
        for c in r.contacts {
            t.contacts.add(c.user_data);
        }
        for w in r.wall_hits {
            match kind(w.user_data) {
                PLAYER_BULLET | ENEMY_BULLET => t.bullet_wall_hits += 1,
                PLAYER => t.player_wall_hits += 1,
                _ => t.other_wall_hits += 1, // enemies
            }
        }
        // Each destroyed bullet where it first touched something (a box without an
        // owner is a body of its own).
        for d in r.destroyed {
            match r.hits_of(Body::Box(d.handle)).first().map(|h| h.other) {
                Some(HitOther::Wall { .. }) => t.destroyed_at_walls += 1,
                Some(HitOther::Body { .. }) => t.destroyed_at_bodies += 1,
                _ => t.destroyed_other += 1,
            }
        }
        for e in r.began {
            t.began.add(e.user_data);
            let (a, b) = e.user_data;
            if let (ENEMY, PLAYER_BULLET) | (PLAYER_BULLET, ENEMY) = (kind(a), kind(b)) {
                let id = if kind(a) == ENEMY { a } else { b };
                let enemy = &mut self.enemies[index(id)];
                enemy.hp = enemy.hp.saturating_sub(1);
            }
        }
        // A downed enemy comes back at once as a new body: a new owner generation.
        for (k, enemy) in self
            .enemies
            .iter_mut()
            .enumerate()
            .filter(|(_, e)| e.hp == 0)
        {
            self.tally.enemies_downed += 1;
            enemy.owner = Owner::new(k as u32, enemy.owner.generation() + 1);
            enemy.hp = ENEMY_HP;
            for &h in &enemy.parts {
                self.store.set_owner(h, enemy.owner).expect("enemy part");
            }
        }
    }
}

/// How long this process's threads have been ready to run but waiting for a CPU
/// (Linux's schedstat; `None` elsewhere): on a shared machine, time other processes
/// took from a frame.
fn cpu_wait() -> Option<Duration> {
    let mut ns = 0;
    for task in std::fs::read_dir("/proc/self/task").ok()? {
        let stat = std::fs::read_to_string(task.ok()?.path().join("schedstat")).ok()?;
        ns += stat.split_whitespace().nth(1)?.parse::<u64>().ok()?;
    }
    Some(Duration::from_nanos(ns))
}

/// Milliseconds: mean and 99th percentile (0 for no samples).
fn stats(samples: &[Duration]) -> (f64, f64) {
    let mut ms: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    let mean = ms.iter().sum::<f64>() / ms.len().max(1) as f64;
    let k = ((ms.len() as f64 * 0.99).ceil() as usize).max(1) - 1;
    let p99 = ms.get(k).copied().unwrap_or(0.0);
    (mean, p99)
}

/// The picture's colours: the palette of `draw_store`, by a box's layers.
const WALL_COLOR: Color = Color::rgb(0x55, 0x55, 0x66);
/// Faint, so that the player, its bullets and the contacts show above them.
const ENEMY_BULLET_COLOR: Color = Color::rgba(0xff, 0x66, 0xcc, 0x73);
const PLAYER_BULLET_COLOR: Color = Color::rgb(0x66, 0xff, 0xff);
const LASER_COLOR: Color = Color::rgba(0xff, 0x99, 0x33, 0xcc);
const ENEMY_COLOR: Color = Color::rgb(0xff, 0xcc, 0x00);
const PLAYER_COLOR: Color = Color::rgb(0x33, 0xff, 0x66);
const CONTACT_COLOR: Color = Color::rgb(0xff, 0x20, 0x20);
const WALL_HIT_COLOR: Color = Color::WHITE;

/// The colour of a box on `layers`.
fn palette(layers: u32) -> Color {
    match layers {
        l if l & LASER_LAYER != 0 => LASER_COLOR,
        layers::ENEMY_BULLET => ENEMY_BULLET_COLOR,
        layers::PLAYER_BULLET => PLAYER_BULLET_COLOR,
        layers::ENEMY => ENEMY_COLOR,
        layers::PLAYER => PLAYER_COLOR,
        _ => Color::WHITE,
    }
}

/// The last frame through `hantei::draw`, bottom first: tiles, the enemy bullets (faint)
/// and lasers, the enemies' hulls, the player's bullets, this frame's wall hits, the
/// player with a ring around it, this frame's contacts as rings, and a legend.
///
/// The picture is at most 1920 pixels wide, so with 50,000 bullets a bullet is a dot
/// of a few pixels: the player and the contacts get rings of a fixed size in pixels.
fn write_svg(game: &Game, frame: &Frame, path: &str) -> std::io::Result<()> {
    let (a, store) = (game.arena, &game.store);
    let mut svg = Svg::new(a, a.size().x.min(1920.0), Color::rgb(0x0b, 0x0b, 0x1a));
    let px = svg.unit();
    let options = DrawOptions {
        palette,
        tile: WALL_COLOR,
        contact: CONTACT_COLOR,
        wall_hit: WALL_HIT_COLOR,
        ..DrawOptions::default()
    };
    draw_tiles(&mut svg, &game.map, &options);
    // The shapes, one group of layers at a time, filled except the enemies' hulls. The
    // player's bullets are drawn at least 1.5 pixels in radius, as large as an enemy
    // bullet, so that their few show among the many.
    for (layers, style, min_px) in [
        (layers::ENEMY_BULLET, Style::Fill, 0.0), // with the lasers, on that layer too
        (layers::ENEMY, Style::Stroke(1.5), 0.0),
        (layers::PLAYER_BULLET, Style::Fill, 1.5),
    ] {
        svg.set_style(style);
        svg.set_min_radius(min_px);
        draw_store(&mut svg, store, &DrawOptions { layers, ..options });
    }
    svg.set_min_radius(0.0);
    let report = frame.report();
    svg.set_style(Style::Stroke(1.0));
    let wall_hits = DrawOptions {
        contacts: false,
        marker: 3.0 * px,
        ..options
    };
    draw_report(&mut svg, store, report, &wall_hits);
    // The player: its hitbox, and a ring that shows where it is among the bullets.
    svg.set_style(Style::Fill);
    let player = DrawOptions {
        layers: layers::PLAYER,
        ..options
    };
    draw_store(&mut svg, store, &player);
    svg.set_style(Style::Stroke(2.0));
    svg.circle(game.center(game.player), 12.0 * px, PLAYER_COLOR);
    // The contacts on top: both shapes outlined, a ring, the normal.
    svg.set_style(Style::Stroke(2.5));
    let contacts = DrawOptions {
        wall_hits: false,
        marker: 9.0 * px,
        ..options
    };
    draw_report(&mut svg, store, report, &contacts);
    svg.legend(
        &[
            (WALL_COLOR, "wall tile"),
            (ENEMY_BULLET_COLOR, "enemy bullet (disc)"),
            (
                PLAYER_BULLET_COLOR,
                "player bullet (disc, drawn at least 3 px wide)",
            ),
            (LASER_COLOR, "laser (turning capsule)"),
            (
                ENEMY_COLOR,
                "enemy hull: box body, disc head, rotated wings",
            ),
            (PLAYER_COLOR, "player hitbox (disc, radius 2) in a ring"),
            (
                CONTACT_COLOR,
                "contact this frame (a ring; both shapes outlined)",
            ),
            (
                WALL_HIT_COLOR,
                "wall hit this frame (line: the tile's normal)",
            ),
        ],
        2.0 * TILE,
    );
    svg.write(path)
}

fn run(args: Args) -> Result<(), String> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t);
    }
    let pool = builder
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", args.threads.unwrap_or(0)))?;
    pool.install(|| simulate(&args))
}

fn simulate(args: &Args) -> Result<(), String> {
    let mut game = Game::new(args.bullets, args.enemies, args.seed);
    let mut frame = Frame::new();
    outln!(
        "hantei bullet_hell: at most {} live bullets, {} enemies, {} lasers, arena {}×{} ({}×{} tiles), {} frames, threads: {}, simd {}",
        args.bullets,
        args.enemies,
        game.lasers.len(),
        game.arena.size().x,
        game.arena.size().y,
        game.map.width(),
        game.map.height(),
        args.frames,
        rayon::current_num_threads(),
        SimdLevel::best().name()
    )?;
    // The lists grow as the frames go; a huge --frames does not reserve it all at once.
    let mut times: Vec<FrameTimings> = Vec::with_capacity(args.frames.min(1 << 16));
    let mut disturbed: Vec<Option<bool>> = Vec::with_capacity(args.frames.min(1 << 16));
    let mut bullets_sum = 0u64;
    let start = Instant::now();
    for f in 0..args.frames {
        game.think();
        bullets_sum += game.bullets() as u64;
        let waited = cpu_wait();
        // The collision part of the frame: one call.
        let step = frame
            .advance(&mut game.store, &Level::walls(&game.map))
            .map_err(|e| format!("frame {}: {e}", f + 1))?;
        times.push(step.timings);
        disturbed.push(match (waited, cpu_wait()) {
            (Some(a), Some(b)) => Some(b.saturating_sub(a) >= DISTURBED),
            _ => None,
        });
        game.react(&frame);
        if (f + 1) % 60 == 0 || f + 1 == args.frames {
            // The counts are this frame's; the time is the mean of the last 60 frames.
            let first = times.len().saturating_sub(60);
            let (mean, _) = stats(&times[first..].iter().map(|t| t.total).collect::<Vec<_>>());
            outln!(
                "frame {:>5}: {:>8} live bullets, {:>4} body contacts, {:>4} wall hits (this frame); advance {mean:.3} ms a frame (mean of frames {}-{})",
                f + 1,
                game.bullets(),
                step.contacts,
                step.wall_hits,
                first + 1,
                f + 1,
            )?;
        }
    }
    let wall = start.elapsed();
    let t = &game.tally;
    let mean_bullets = bullets_sum as f64 / args.frames as f64;
    outln!("\nsummary (counts summed over all {} frames)", args.frames)?;
    outln!("  frames:                {}", args.frames)?;
    outln!(
        "  live bullets:          {} at the end (cap {}), {mean_bullets:.0} a frame on average",
        game.bullets(),
        game.cap
    )?;
    let continuing = t.contacts.total() - t.began.total();
    outln!(
        "  body contacts:         {} (one for each pair of bodies touching in a frame)",
        sum(&[(t.began.total(), "new"), (continuing, "continuing")])
    )?;
    outln!("    by pair:             {}", t.contacts.sum())?;
    outln!(
        "    new ones by pair:    {} (each new contact is a hit)",
        t.began.sum()
    )?;
    outln!(
        "  enemies downed:        {} (each after {ENEMY_HP} hits by player bullets)",
        t.enemies_downed
    )?;
    outln!(
        "  wall hits:             {} (one for each box touching a wall in a frame)",
        sum(&[
            (t.bullet_wall_hits, "by bullets"),
            (t.player_wall_hits, "by the player"),
            (t.other_wall_hits, "by enemies"),
        ])
    )?;
    outln!(
        "  destroyed bullets:     {} (where each first touched something)",
        sum(&[
            (t.destroyed_at_walls, "at a wall"),
            (t.destroyed_at_bodies, "at a body"),
            (t.destroyed_other, "other"),
        ])
    )?;
    let row = |name: &str, part: fn(&FrameTimings) -> Duration| {
        let (mean, p99) = stats(&times.iter().map(part).collect::<Vec<_>>());
        outln!("  {name:<22} mean {mean:.3} ms, p99 {p99:.3} ms")
    };
    outln!("  time per frame, over all {} frames:", args.frames)?;
    row("advance total:", |t| t.total)?;
    row("  broad phase:", |t| t.broad)?;
    row("  narrow + walls:", |t| t.narrow)?;
    row("  responses, moves:", |t| t.events)?;
    row("  on one thread:", |t| t.serial)?;
    // Where the p99 spikes come from: frames whose advance waited for a CPU.
    if disturbed.iter().any(Option::is_some) {
        let calm: Vec<Duration> = (times.iter().zip(&disturbed))
            .filter(|(_, d)| **d != Some(true))
            .map(|(t, _)| t.total)
            .collect();
        let (_, p99) = stats(&calm);
        outln!(
            "  p99 spikes:            {} frames waited >= {:.1} ms for a CPU (other processes); advance p99 of the other {}: {p99:.3} ms",
            times.len() - calm.len(),
            DISTURBED.as_secs_f64() * 1e3,
            calm.len()
        )?;
    }
    let (total, _) = stats(&times.iter().map(|t| t.total).collect::<Vec<_>>());
    outln!(
        "  throughput:            {:.1} M bullets/s (mean live bullets / mean advance time, ms)",
        mean_bullets / (total / 1e3) / 1e6
    )?;
    outln!(
        "  wall time:             {:.0} ms (including the game's own part)",
        wall.as_secs_f64() * 1e3
    )?;
    write_svg(&game, &frame, &args.svg).map_err(|e| format!("writing {}: {e}", args.svg))?;
    outln!("  picture of the last frame: {}", args.svg)
}

fn main() -> ExitCode {
    cli::main(USAGE, parse_args(cli::Args::from_env()), run)
}
