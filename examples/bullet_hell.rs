//! `bullet_hell`: hantei's main job. A danmaku frame loop: emitters firing rings,
//! spirals and aimed bursts, tens of thousands of live bullets, about fifty enemies
//! (two boxes each), a player, and walls from a tile map; every frame runs hantei's
//! collision step (swept broad phase, narrow phase, events) and the tile map's bullet
//! sweep, and times them.
//!
//! ```text
//! cargo run --release --example bullet_hell -- [--bullets N] [--frames F] [--threads T]
//!                                              [--seed S] [--enemies E] [--svg PATH]
//! ```
//!
//! With no arguments: 50,000 bullets, 600 frames (10 s of a 60 Hz game), all cores,
//! seed 1. Prints progress, then a summary (frames, live bullets, contacts, mean and p99
//! milliseconds per frame for the broad phase, the narrow phase, the tile map and the
//! total, bullets tested per second), and writes an SVG picture of the last frame.
//! A malformed argument prints one line naming it and exits with 2.

use glam::Vec2;
use hantei::frame::{Frame, FrameConfig, layers};
use hantei::rng::Rng;
use hantei::tilemap::{BulletHit, BulletResponse, TileMap};
use hantei::{Aabb, BoxHandle, BoxProps, BoxStore, Owner, SimdLevel};
use std::fmt::Write as _;
use std::process::ExitCode;
use std::time::{Duration, Instant};

const TILE: f32 = 16.0;

struct Args {
    bullets: usize,
    frames: usize,
    threads: Option<usize>,
    seed: u64,
    enemies: usize,
    svg: String,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        bullets: 50_000,
        frames: 600,
        threads: None,
        seed: 1,
        enemies: 50,
        svg: "target/bullet_hell.svg".into(),
    };
    let mut it = std::env::args().skip(1);
    let num = |flag: &str, v: Option<String>| -> Result<u64, String> {
        let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
        v.parse()
            .map_err(|_| format!("{flag}: '{v}' is not a valid number"))
    };
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--bullets" => a.bullets = num("--bullets", it.next())? as usize,
            "--frames" => a.frames = num("--frames", it.next())? as usize,
            "--threads" => a.threads = Some(num("--threads", it.next())? as usize),
            "--seed" => a.seed = num("--seed", it.next())?,
            "--enemies" => a.enemies = num("--enemies", it.next())? as usize,
            "--svg" => a.svg = it.next().ok_or("--svg needs a path")?,
            "-h" | "--help" => {
                return Err(
                    "usage: bullet_hell [--bullets N] [--frames F] [--threads T] \
                            [--seed S] [--enemies E] [--svg PATH]"
                        .into(),
                );
            }
            other => return Err(format!("unknown argument '{other}' (see --help)")),
        }
    }
    if a.frames == 0 {
        return Err("--frames must be at least 1".into());
    }
    if a.threads == Some(0) {
        return Err("--threads must be at least 1".into());
    }
    if a.bullets > 10_000_000 {
        return Err("--bullets: at most 10,000,000".into());
    }
    if a.enemies > 10_000 {
        return Err("--enemies: at most 10,000".into());
    }
    Ok(a)
}

/// What a box in the store is, in dense order alongside the store's columns.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Player,
    /// Enemy `k` (two boxes each).
    Enemy(u32),
    PlayerBullet,
    EnemyBullet,
}

/// The game: the store holds every box; `kind` and `vel` follow its dense order.
struct Game {
    store: BoxStore,
    kind: Vec<Kind>,
    vel: Vec<Vec2>,
    map: TileMap,
    arena: Aabb,
    rng: Rng,
    target_bullets: usize,
    enemies: Vec<Enemy>,
    player: BoxHandle,
    player_hits: u64,
    enemy_hits: u64,
    wall_hits: u64,
    tick: u64,
}

struct Enemy {
    home: Vec2,
    phase: f32,
    pattern: u8,
    boxes: [BoxHandle; 2],
}

impl Game {
    fn new(bullets: usize, enemies: usize, seed: u64) -> Game {
        let mut rng = Rng::new(seed);
        // The arena grows with the bullet count: about 110 square units per bullet.
        let scale = ((bullets.max(1000) as f32) * 110.0 / (16.0 * 9.0)).sqrt();
        let (w, h) = (
            ((scale * 16.0 / TILE) as u32).max(24),
            ((scale * 9.0 / TILE) as u32).max(16),
        );
        let mut map = TileMap::new(w, h, Vec2::splat(TILE), Vec2::ZERO).expect("valid map");
        for x in 0..w {
            for y in [0, h - 1] {
                map.set(x, y, 1).expect("in the map");
            }
        }
        for y in 0..h {
            for x in [0, w - 1] {
                map.set(x, y, 1).expect("in the map");
            }
        }
        // A few pillars in the lower half (cover for the player).
        for k in 0..((w / 20).max(2)) {
            let x = 4 + k * (w - 8) / (w / 20).max(2);
            for y in h * 2 / 3..h * 2 / 3 + 3 {
                for dx in 0..2 {
                    map.set((x + dx).min(w - 2), y, 1).expect("in the map");
                }
            }
        }
        let arena = map.bounds();
        let mut store = BoxStore::with_capacity(bullets + 2 * enemies + 1);
        let mut kind = Vec::new();
        let mut vel = Vec::new();
        let player = store
            .insert_with(
                Aabb::from_center_half_extents(
                    Vec2::new(arena.center().x, arena.max.y - 6.0 * TILE),
                    Vec2::splat(3.0),
                ),
                BoxProps {
                    filter: layers::player(),
                    owner: Owner(0),
                    ..Default::default()
                },
            )
            .expect("valid box");
        kind.push(Kind::Player);
        vel.push(Vec2::ZERO);
        let mut list = Vec::new();
        for k in 0..enemies {
            let home = Vec2::new(
                rng.range_f32(arena.min.x + 4.0 * TILE, arena.max.x - 4.0 * TILE),
                rng.range_f32(arena.min.y + 4.0 * TILE, arena.center().y),
            );
            let owner = Owner(1 + k as u64);
            // A compound hitbox: a body and wings, one owner.
            let parts = [Vec2::new(10.0, 14.0), Vec2::new(22.0, 5.0)];
            let boxes = parts.map(|half| {
                store
                    .insert_with(
                        Aabb::from_center_half_extents(home, half),
                        BoxProps {
                            filter: layers::enemy(),
                            owner,
                            ..Default::default()
                        },
                    )
                    .expect("valid box")
            });
            kind.extend([Kind::Enemy(k as u32); 2]);
            vel.extend([Vec2::ZERO; 2]);
            list.push(Enemy {
                home,
                phase: rng.range_f32(0.0, core::f32::consts::TAU),
                pattern: (k % 3) as u8,
                boxes,
            });
        }
        Game {
            store,
            kind,
            vel,
            map,
            arena,
            rng,
            target_bullets: bullets,
            enemies: list,
            player,
            player_hits: 0,
            enemy_hits: 0,
            wall_hits: 0,
            tick: 0,
        }
    }

    fn bullets(&self) -> usize {
        self.store.len() - 1 - 2 * self.enemies.len()
    }

    fn spawn(&mut self, at: Vec2, v: Vec2, enemy: bool) {
        let (filter, half, kind) = if enemy {
            (layers::enemy_bullet(), 2.5, Kind::EnemyBullet)
        } else {
            (layers::player_bullet(), 1.5, Kind::PlayerBullet)
        };
        let ok = self.store.insert_with(
            Aabb::from_center_half_extents(at, Vec2::splat(half)),
            BoxProps {
                filter,
                motion: v,
                ..Default::default()
            },
        );
        if ok.is_ok() {
            self.kind.push(kind);
            self.vel.push(v);
        }
    }

    /// Emitters fire, enemies and the player move: sets this frame's motions.
    fn think(&mut self) {
        self.tick += 1;
        let t = self.tick as f32;
        let player_at = self
            .store
            .get(self.player)
            .map_or(Vec2::ZERO, |b| b.center());
        // The player circles slowly and fires up.
        let pv = Vec2::new((t * 0.02).cos() * 2.5, (t * 0.03).sin() * 1.0);
        self.vel[self.store.index_of(self.player).expect("player")] = pv;
        if self.tick.is_multiple_of(2) {
            for dx in [-6.0, 0.0, 6.0] {
                self.spawn(
                    player_at + Vec2::new(dx, -6.0),
                    Vec2::new(dx * 0.05, -9.0),
                    false,
                );
            }
        }
        let room = self.target_bullets.saturating_sub(self.bullets());
        let per_enemy = (room / self.enemies.len().max(1)).min(64);
        for k in 0..self.enemies.len() {
            let e = &self.enemies[k];
            let ev = Vec2::new((t * 0.01 + e.phase).cos(), (t * 0.013 + e.phase).sin()) * 0.6;
            let at = self.store.get(e.boxes[0]).map_or(e.home, |b| b.center());
            let boxes = e.boxes;
            for h in boxes {
                if let Some(i) = self.store.index_of(h) {
                    self.vel[i] = ev;
                }
            }
            if per_enemy == 0 || !(self.tick + k as u64).is_multiple_of(8) {
                continue;
            }
            let (pattern, phase) = (e.pattern, e.phase);
            let speed = self.rng.range_f32(1.2, 3.0);
            match pattern {
                // A ring, staggered every other volley.
                0 => {
                    let n = per_enemy.max(8);
                    let off = if (self.tick / 8).is_multiple_of(2) {
                        0.0
                    } else {
                        0.5
                    };
                    for j in 0..n {
                        let a = (j as f32 + off) * core::f32::consts::TAU / n as f32 + phase;
                        self.spawn(at, Vec2::new(a.cos(), a.sin()) * speed, true);
                    }
                }
                // A five-armed spiral, turning.
                1 => {
                    let n = per_enemy.max(5);
                    for j in 0..n {
                        let a = t * 0.07
                            + (j % 5) as f32 * core::f32::consts::TAU / 5.0
                            + (j / 5) as f32 * 0.05;
                        let s = speed * (1.0 + (j / 5) as f32 * 0.04);
                        self.spawn(at, Vec2::new(a.cos(), a.sin()) * s, true);
                    }
                }
                // An aimed burst with spread.
                _ => {
                    let n = per_enemy.max(4);
                    let to = (player_at - at).normalize_or(Vec2::Y);
                    for j in 0..n {
                        let spread = (j as f32 - n as f32 / 2.0) * 0.03;
                        let d = Vec2::from_angle(spread).rotate(to);
                        self.spawn(at, d * (speed + 1.0), true);
                    }
                }
            }
        }
        // Motions into the store, in dense order.
        self.store
            .set_motion_all(&self.vel)
            .expect("finite motions");
    }

    /// Applies the frame's outcome: removes dead bullets, moves everything else.
    fn apply(&mut self, dead: &mut Vec<usize>, moved: &[Aabb]) {
        // Move first (dense order is still this frame's), then remove from the back so
        // the dense indices of the rest stay valid.
        let mut next: Vec<Aabb> = Vec::with_capacity(self.store.len());
        let mut b = 0;
        for i in 0..self.store.len() {
            let cur = self.store.aabb_at(i).expect("in range");
            let new = match self.kind[i] {
                Kind::PlayerBullet | Kind::EnemyBullet => {
                    let m = moved[b];
                    b += 1;
                    m
                }
                _ => {
                    // Keep enemies and the player inside the walls.
                    let t = cur.translated(self.vel[i]);
                    let inner = Aabb::new(
                        self.arena.min + Vec2::splat(2.0 * TILE),
                        self.arena.max - Vec2::splat(2.0 * TILE),
                    );
                    if t.min.cmpge(inner.min).all() && t.max.cmple(inner.max).all() {
                        t
                    } else {
                        cur
                    }
                }
            };
            next.push(new);
        }
        self.store.update_all(&next).expect("finite boxes");
        dead.sort_unstable();
        dead.dedup();
        for &i in dead.iter().rev() {
            let h = self.store.handle_at(i).expect("in range");
            self.store.remove(h).expect("alive");
            self.kind.swap_remove(i);
            self.vel.swap_remove(i);
        }
    }
}

/// Milliseconds: mean and 99th percentile.
fn stats(samples: &[Duration]) -> (f64, f64) {
    let mut ms: Vec<f64> = samples.iter().map(|d| d.as_secs_f64() * 1e3).collect();
    ms.sort_by(f64::total_cmp);
    let mean = ms.iter().sum::<f64>() / ms.len().max(1) as f64;
    let p99 = ms[((ms.len() as f64 * 0.99).ceil() as usize).clamp(1, ms.len()) - 1];
    (mean, p99)
}

fn write_svg(game: &Game, contacts: &[Aabb], path: &str) -> std::io::Result<()> {
    let a = game.arena;
    let mut s = String::with_capacity(64 * game.store.len() + 4096);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="{} {} {} {}" width="{}" height="{}" style="background:#0b0b1a">"#,
        a.min.x,
        a.min.y,
        a.size().x,
        a.size().y,
        a.size().x.min(1920.0),
        a.size().y * a.size().x.min(1920.0) / a.size().x
    );
    let _ = writeln!(
        s,
        r##"<rect x="{}" y="{}" width="{}" height="{}" fill="#0b0b1a"/>"##,
        a.min.x,
        a.min.y,
        a.size().x,
        a.size().y
    );
    // Walls.
    s.push_str(r##"<g fill="#556">"##);
    for y in 0..game.map.height() {
        for x in 0..game.map.width() {
            let t = glam::IVec2::new(x as i32, y as i32);
            if game.map.is_solid(t) {
                let b = game.map.tile_aabb(t);
                let _ = write!(
                    s,
                    r#"<rect x="{}" y="{}" width="{}" height="{}"/>"#,
                    b.min.x, b.min.y, TILE, TILE
                );
            }
        }
    }
    s.push_str("</g>\n");
    let rect = |s: &mut String, b: &Aabb| {
        let _ = write!(
            s,
            r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{:.1}"/>"#,
            b.min.x,
            b.min.y,
            b.size().x,
            b.size().y
        );
    };
    for (k, color) in [
        (Kind::EnemyBullet, "#ff66cc"),
        (Kind::PlayerBullet, "#66ffff"),
    ] {
        let _ = write!(s, r#"<g fill="{color}">"#);
        for (i, b) in game.store.iter().enumerate() {
            if game.kind[i] == k {
                rect(&mut s, &b.1);
            }
        }
        s.push_str("</g>\n");
    }
    s.push_str(r##"<g fill="none" stroke="#ffcc00" stroke-width="1.5">"##);
    for (i, b) in game.store.iter().enumerate() {
        if matches!(game.kind[i], Kind::Enemy(_)) {
            rect(&mut s, &b.1);
        }
    }
    s.push_str("</g>\n");
    if let Some(p) = game.store.get(game.player) {
        s.push_str(r##"<g fill="#33ff66">"##);
        rect(&mut s, &p);
        s.push_str("</g>\n");
    }
    s.push_str(r##"<g fill="none" stroke="#ff2020" stroke-width="2">"##);
    for c in contacts {
        let _ = write!(
            s,
            r#"<circle cx="{:.1}" cy="{:.1}" r="{:.1}"/>"#,
            c.center().x,
            c.center().y,
            c.size().max_element() + 4.0
        );
    }
    s.push_str("</g>\n</svg>\n");
    if let Some(dir) = std::path::Path::new(path).parent()
        && !dir.as_os_str().is_empty()
    {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, s)
}

fn run(args: Args) -> Result<(), String> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(t) = args.threads {
        builder = builder.num_threads(t);
    }
    let pool = builder.build().map_err(|e| format!("thread pool: {e}"))?;
    pool.install(|| simulate(&args))
}

fn simulate(args: &Args) -> Result<(), String> {
    let mut game = Game::new(args.bullets, args.enemies, args.seed);
    let mut frame = Frame::with_config(FrameConfig::default());
    println!(
        "hantei bullet_hell: {} target bullets, {} enemies, arena {}×{} ({}×{} tiles), {} frames, {} threads, simd {}",
        args.bullets,
        args.enemies,
        game.arena.size().x,
        game.arena.size().y,
        game.map.width(),
        game.map.height(),
        args.frames,
        rayon::current_num_threads(),
        SimdLevel::best().name()
    );
    let (mut t_broad, mut t_narrow, mut t_map, mut t_total) = (vec![], vec![], vec![], vec![]);
    let (mut contacts_total, mut bullets_sum, mut last_contacts) = (0u64, 0u64, Vec::new());
    let mut bullet_boxes: Vec<Aabb> = Vec::new();
    let mut bullet_motions: Vec<Vec2> = Vec::new();
    let mut bullet_dense: Vec<usize> = Vec::new();
    let mut wall_hits: Vec<BulletHit> = Vec::new();
    let mut dead: Vec<usize> = Vec::new();
    let start = Instant::now();
    for f in 0..args.frames {
        game.think();
        // Collision work, timed: the store's step, then bullets against the walls.
        let report = frame.step(&game.store).map_err(|e| e.to_string())?;
        let timings = report.timings;
        dead.clear();
        last_contacts.clear();
        let frame_contacts = report.contacts.len();
        for c in report.contacts {
            for h in [c.boxes.0, c.boxes.1] {
                let i = game.store.index_of(h).expect("alive");
                match game.kind[i] {
                    Kind::EnemyBullet => {
                        dead.push(i);
                        game.player_hits += 1;
                    }
                    Kind::PlayerBullet => {
                        dead.push(i);
                        game.enemy_hits += 1;
                    }
                    Kind::Player | Kind::Enemy(_) => {}
                }
            }
            if f + 1 == args.frames {
                let b = game.store.get(c.boxes.1).expect("alive");
                last_contacts.push(b);
            }
        }
        contacts_total += report.contacts.len() as u64;
        bullet_boxes.clear();
        bullet_motions.clear();
        bullet_dense.clear();
        let (mx, my) = (game.store.motion_x(), game.store.motion_y());
        for (i, (_, b)) in game.store.iter().enumerate() {
            if matches!(game.kind[i], Kind::PlayerBullet | Kind::EnemyBullet) {
                bullet_boxes.push(b);
                bullet_motions.push(Vec2::new(mx[i], my[i]));
                bullet_dense.push(i);
            }
        }
        let map_start = Instant::now();
        game.map
            .move_bullets(
                &mut bullet_boxes,
                &bullet_motions,
                BulletResponse::Destroy,
                &mut wall_hits,
            )
            .map_err(|e| e.to_string())?;
        let t_map_one = map_start.elapsed();
        for h in &wall_hits {
            dead.push(bullet_dense[h.index as usize]);
            game.wall_hits += 1;
        }
        // Bullets that left the arena some other way (the outside is empty).
        for (k, b) in bullet_boxes.iter().enumerate() {
            if !b.overlaps(&game.arena) {
                dead.push(bullet_dense[k]);
            }
        }
        bullets_sum += bullet_boxes.len() as u64;
        t_broad.push(timings.broad);
        t_narrow.push(timings.narrow);
        t_map.push(t_map_one);
        t_total.push(timings.total + t_map_one);
        game.apply(&mut dead, &bullet_boxes);
        if (f + 1) % 60 == 0 || f + 1 == args.frames {
            let (mean, _) = stats(&t_total[t_total.len().saturating_sub(60)..]);
            println!(
                "frame {:>5}: {:>8} live bullets, {:>5} contacts, collision {:.3} ms/frame (last 60)",
                f + 1,
                game.bullets(),
                frame_contacts,
                mean
            );
        }
    }
    let wall = start.elapsed();
    let (broad, broad99) = stats(&t_broad);
    let (narrow, narrow99) = stats(&t_narrow);
    let (map, map99) = stats(&t_map);
    let (total, total99) = stats(&t_total);
    let mean_bullets = bullets_sum as f64 / args.frames as f64;
    println!("\nsummary");
    println!("  frames:                {}", args.frames);
    println!(
        "  live bullets:          {} at the end, {:.0} on average",
        game.bullets(),
        mean_bullets
    );
    println!(
        "  contacts:              {contacts_total} ({} player hits, {} enemy hits, {} wall hits)",
        game.player_hits, game.enemy_hits, game.wall_hits
    );
    println!("  broad phase ms/frame:  mean {broad:.3}, p99 {broad99:.3}");
    println!("  narrow phase ms/frame: mean {narrow:.3}, p99 {narrow99:.3}");
    println!("  tile map ms/frame:     mean {map:.3}, p99 {map99:.3}");
    println!(
        "  total ms/frame:        mean {total:.3}, p99 {total99:.3}  (collision work: step + tile map)"
    );
    println!(
        "  bullets tested/s:      {:.1} M",
        mean_bullets / (total / 1e3) / 1e6
    );
    println!(
        "  wall time:             {:.2} s (including the game logic)",
        wall.as_secs_f64()
    );
    write_svg(&game, &last_contacts, &args.svg)
        .map_err(|e| format!("writing {}: {e}", args.svg))?;
    println!("  picture of the last frame: {}", args.svg);
    Ok(())
}

fn main() -> ExitCode {
    match parse_args().and_then(run) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
