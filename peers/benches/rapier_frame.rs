//! A whole danmaku collision frame, hantei against rapier2d, timed interleaved in one
//! process on one thread: round after round, one frame of each engine back to back
//! (hantei, rapier `cast_shape`, rapier `intersect_shape`), each advancing its own copy
//! of the scene ([`hantei_peers::Scene`]). Prints, per bullet count, the median time of
//! each, the median of the per-round ratios of each rapier variant to hantei with its
//! quartiles, and the hits per frame each engine found (bullets that hit a wall, an
//! enemy or the player, and in brackets those that hit an enemy or the player).
//!
//! ```text
//! cargo bench -p hantei-peers --bench rapier_frame
//! PEER_SIZES=10000,100000 cargo bench -p hantei-peers --bench rapier_frame
//! PEER_SIZES=1000000 PEER_ROUNDS=3 cargo bench -p hantei-peers --bench rapier_frame
//! ```
//!
//! Run by hand, the binary times only with `--bench` (what `cargo bench` passes);
//! without it (`cargo test --benches`), or with `--test` or `--list`, it exits at once.
//!
//! `PEER_SIZES`: bullet counts, comma-separated (default `10000,100000,1000000`);
//! `PEER_ROUNDS`: timed rounds at every size (default 60 at 10k, 30 at 100k, 6 at 1M).
//!
//! A frame is the whole of a game's collision frame, its own side included: (1) set
//! each bullet's motion, (2) collide swept over the frame, (3) read every contact,
//! (4) respawn each bullet that hit anything, (5) move the enemies and the player.
//!
//! - hantei: every disc in one `BoxStore`, `Frame::advance` against the border
//!   `TileMap` (one thread: `FrameConfig { parallel: false, .. }`); bullets are
//!   `Response::Destroy` and carry their slot as user data; a destroyed one is inserted
//!   anew. The enemies and the player move in the same `advance`, swept against the
//!   bullets (relative motion).
//! - rapier: the targets (enemies, player, four wall cuboids) are parentless colliders;
//!   each frame they are moved with `Collider::set_translation` and a
//!   `CollisionPipeline::step` refreshes the broad phase's BVH that the query pipeline
//!   reads. Bullets are not colliders but one query each, filtered by collision groups
//!   to what they may hit: `cast_shape` (a `Ball` swept along its velocity, max time of
//!   impact 1, against the targets where the frame starts) or `intersect_shape` (the
//!   ball at its new position, discrete: it misses grazing hits). Rapier has no motion
//!   to set for a query, so its step (1) is nothing.

use glam::Vec2;
use hantei::frame::{Body, Frame, FrameConfig, Level, layers};
use hantei::tilemap::TileMap;
use hantei::{BoxHandle, BoxProps, BoxStore, Circle, Owner, Response};
use hantei_peers::{
    BULLET_RADIUS, Bullet, ENEMY_RADIUS, PLAYER_RADIUS, Scene, border_map, border_walls,
    is_player_bullet,
};
use rapier2d::parry::query::ShapeCastOptions;
use rapier2d::parry::shape::Ball;
use rapier2d::prelude::{
    BroadPhaseBvh, ColliderBuilder, ColliderHandle, ColliderSet, CollisionPipeline, Group,
    InteractionGroups, InteractionTestMode, IslandManager, NarrowPhase, Pose, QueryFilter,
    RigidBodySet, Vector,
};
use std::hint::black_box;
use std::time::Instant;

const SEED: u64 = 0x5eed_da11;
/// Frames each engine runs before the timed rounds (the first of them from the same
/// scene, compared): enough for respawns to have scrambled hantei's dense order and for
/// the hits per frame to settle, so that the timed rounds see a running game, not a
/// fresh store.
const WARMUP_FRAMES: usize = 20;

/// What one frame found: bullets that hit anything, those of them that hit an enemy or
/// the player, and a sum over every contact read (so that nothing is optimised away).
#[derive(Debug, Clone, Copy, Default)]
struct Hits {
    all: usize,
    targets: usize,
    checksum: f64,
}

/// The rapier glam's vector from the scene's (hantei's glam may be another version).
fn vector(v: Vec2) -> Vector {
    Vector::new(v.x, v.y)
}

/// hantei's side: the store, the frame and the game's own state.
struct HanteiSide {
    scene: Scene,
    map: TileMap,
    store: BoxStore,
    frame: Frame,
    /// Each bullet slot's box (replaced on respawn).
    bullets: Vec<BoxHandle>,
    /// Each bullet slot's motion this frame (the game's buffer for `set_motions`).
    motions: Vec<Vec2>,
    enemies: Vec<BoxHandle>,
    player: BoxHandle,
}

impl HanteiSide {
    fn bullet_props(slot: usize, vel: Vec2) -> BoxProps {
        let filter = if is_player_bullet(slot) {
            layers::player_bullet()
        } else {
            layers::enemy_bullet()
        };
        BoxProps::new(filter)
            .with_motion(vel)
            .with_response(Response::Destroy)
            .with_user_data(slot as u64)
    }

    fn new(scene: Scene) -> Self {
        let mut store = BoxStore::with_capacity(scene.bullets.len() + scene.enemies.len() + 1);
        let bullets = (scene.bullets.iter().enumerate())
            .map(|(slot, b)| {
                let disc = Circle::new(b.pos, BULLET_RADIUS);
                store.insert_shape(disc, Self::bullet_props(slot, b.vel))
            })
            .collect::<Result<_, _>>()
            .expect("valid bullets");
        let enemies = (scene.enemies.iter().enumerate())
            .map(|(e, m)| {
                let props = BoxProps::new(layers::enemy())
                    .with_owner(Owner(1 + e as u64))
                    .with_motion(m.motion());
                store.insert_shape(Circle::new(m.pos, ENEMY_RADIUS), props)
            })
            .collect::<Result<_, _>>()
            .expect("valid enemies");
        let player = store
            .insert_shape(
                Circle::new(scene.player.pos, PLAYER_RADIUS),
                BoxProps::new(layers::player())
                    .with_owner(Owner(0))
                    .with_motion(scene.player.motion()),
            )
            .expect("a valid player");
        let frame = Frame::with_config(FrameConfig {
            parallel: false,
            ..FrameConfig::default()
        });
        HanteiSide {
            scene,
            map: border_map(),
            store,
            frame,
            bullets,
            motions: Vec::new(),
            enemies,
            player,
        }
    }

    fn frame(&mut self) -> Hits {
        let HanteiSide {
            scene,
            map,
            store,
            frame,
            bullets,
            motions,
            enemies,
            player,
        } = self;
        // (1) Motions: the bullets' (constant, set anyway) in one call, the enemies' and
        // the player's.
        motions.clear();
        motions.extend(scene.bullets.iter().map(|b| b.vel));
        store.set_motions(bullets, motions).expect("live bullets");
        for (h, m) in enemies.iter().zip(&scene.enemies) {
            store.set_motion(*h, m.motion()).expect("a live enemy");
        }
        store
            .set_motion(*player, scene.player.motion())
            .expect("the player");
        // (2) Collide, swept; everything moves, the bullets that hit are removed.
        frame
            .advance(store, &Level::walls(map))
            .expect("a valid frame");
        // (3) Read every contact.
        let report = frame.report();
        let mut hits = Hits::default();
        for c in report.contacts {
            hits.checksum += f64::from(c.toi);
            // Bullets have no owner; `Body::Owner` sorts first, so a bullet is `b`.
            if matches!(c.bodies.b, Body::Box(_)) {
                hits.targets += 1;
            }
        }
        for w in report.wall_hits {
            hits.checksum += f64::from(w.toi) + f64::from(w.tile.x);
        }
        // (4) Respawn each destroyed bullet: a new box in its slot.
        for d in report.destroyed {
            let slot = d.user_data as usize;
            hits.all += 1;
            hits.checksum += f64::from(d.toi);
            let b = Bullet::spawn(&mut scene.rng);
            scene.bullets[slot] = b;
            bullets[slot] = store
                .insert_shape(
                    Circle::new(b.pos, BULLET_RADIUS),
                    Self::bullet_props(slot, b.vel),
                )
                .expect("a valid bullet");
        }
        // (5) The game's copy of the enemies and the player (the store moved them).
        scene.move_targets();
        hits
    }
}

/// Which query rapier runs per bullet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Query {
    /// `QueryPipeline::cast_shape` from the bullet's position along its velocity.
    CastShape,
    /// `QueryPipeline::intersect_shape` at the bullet's new position.
    IntersectShape,
}

const WALLS: Group = Group::GROUP_1;
const ENEMIES: Group = Group::GROUP_2;
const PLAYER: Group = Group::GROUP_3;
const PLAYER_BULLETS: Group = Group::GROUP_4;
const ENEMY_BULLETS: Group = Group::GROUP_5;

/// rapier's side: the targets as colliders, the structures that keep their BVH, the
/// game's own state.
struct RapierSide {
    query: Query,
    scene: Scene,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    broad_phase: BroadPhaseBvh,
    narrow_phase: NarrowPhase,
    islands: IslandManager,
    pipeline: CollisionPipeline,
    enemies: Vec<ColliderHandle>,
    player: ColliderHandle,
}

impl RapierSide {
    fn new(scene: Scene, query: Query) -> Self {
        let mut colliders = ColliderSet::new();
        let groups = |g: Group| InteractionGroups::new(g, Group::ALL, InteractionTestMode::And);
        for (centre, half) in border_walls() {
            colliders.insert(
                ColliderBuilder::cuboid(half.x, half.y)
                    .translation(vector(centre))
                    .collision_groups(groups(WALLS)),
            );
        }
        let enemies = (scene.enemies.iter().enumerate())
            .map(|(e, m)| {
                colliders.insert(
                    ColliderBuilder::ball(ENEMY_RADIUS)
                        .translation(vector(m.pos))
                        .collision_groups(groups(ENEMIES))
                        .user_data(1 + e as u128),
                )
            })
            .collect();
        let player = colliders.insert(
            ColliderBuilder::ball(PLAYER_RADIUS)
                .translation(vector(scene.player.pos))
                .collision_groups(groups(PLAYER)),
        );
        let mut side = RapierSide {
            query,
            scene,
            bodies: RigidBodySet::new(),
            colliders,
            broad_phase: BroadPhaseBvh::new(),
            narrow_phase: NarrowPhase::new(),
            islands: IslandManager::new(),
            pipeline: CollisionPipeline::new(),
            enemies,
            player,
        };
        side.refresh();
        side
    }

    /// The broad phase's BVH (what the query pipeline reads) brought up to date with the
    /// colliders' positions.
    fn refresh(&mut self) {
        self.pipeline.step(
            0.0,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &(),
            &(),
        );
    }

    fn frame(&mut self) -> Hits {
        let mut hits = Hits::default();
        {
            let RapierSide {
                query,
                scene,
                bodies,
                colliders,
                broad_phase,
                narrow_phase,
                player,
                ..
            } = self;
            let shots = |me: Group, targets: Group| {
                QueryFilter::new().groups(InteractionGroups::new(
                    me,
                    targets,
                    InteractionTestMode::And,
                ))
            };
            let of_player = broad_phase.as_query_pipeline(
                narrow_phase.query_dispatcher(),
                bodies,
                colliders,
                shots(PLAYER_BULLETS, ENEMIES | WALLS),
            );
            let of_enemies = of_player.with_filter(shots(ENEMY_BULLETS, PLAYER | WALLS));
            let ball = Ball::new(BULLET_RADIUS);
            let options = ShapeCastOptions {
                max_time_of_impact: 1.0,
                // Not read on an overlap; spare rapier the work.
                compute_impact_geometry_on_penetration: false,
                ..ShapeCastOptions::default()
            };
            // (1) Nothing to set: a query takes the velocity. (2)-(4) per bullet.
            for (slot, b) in scene.bullets.iter_mut().enumerate() {
                let qp = if is_player_bullet(slot) {
                    &of_player
                } else {
                    &of_enemies
                };
                let hit = match query {
                    Query::CastShape => {
                        let pose = Pose::translation(b.pos.x, b.pos.y);
                        qp.cast_shape(&pose, vector(b.vel), &ball, options)
                            .map(|(h, hit)| (h, hit.time_of_impact))
                    }
                    Query::IntersectShape => {
                        let to = b.pos + b.vel;
                        let pose = Pose::translation(to.x, to.y);
                        qp.intersect_shape(pose, &ball)
                            .next()
                            .map(|(h, _)| (h, 1.0))
                    }
                };
                match hit {
                    Some((h, toi)) => {
                        hits.all += 1;
                        let target = colliders[h].user_data != 0 || h == *player;
                        hits.targets += usize::from(target);
                        hits.checksum += f64::from(toi) + f64::from(h.into_raw_parts().0);
                        *b = Bullet::spawn(&mut scene.rng);
                    }
                    None => b.pos += b.vel,
                }
            }
        }
        // (5) The enemies and the player move; their colliders follow, the BVH too.
        self.scene.move_targets();
        for (h, m) in self.enemies.iter().zip(&self.scene.enemies) {
            self.colliders[*h].set_translation(vector(m.pos));
        }
        self.colliders[self.player].set_translation(vector(self.scene.player.pos));
        self.refresh();
        hits
    }
}

/// Parses `name` as comma-separated counts (`None` when unset; empty entries skipped).
fn env_list(name: &str) -> Option<Vec<usize>> {
    let v = std::env::var(name).ok()?;
    Some(
        v.split(',')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(|s| {
                s.parse()
                    .unwrap_or_else(|_| panic!("{name}: bad count {s:?}"))
            })
            .collect(),
    )
}

/// Median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times `f` once, in milliseconds.
fn time(f: impl FnOnce() -> Hits) -> (f64, Hits) {
    let start = Instant::now();
    let hits = black_box(f());
    (start.elapsed().as_secs_f64() * 1e3, hits)
}

/// One engine's timed rounds.
#[derive(Default)]
struct Row {
    ms: Vec<f64>,
    hits: usize,
    targets: usize,
}

impl Row {
    fn push(&mut self, (ms, hits): (f64, Hits)) {
        self.ms.push(ms);
        self.hits += hits.all;
        self.targets += hits.targets;
        black_box(hits.checksum);
    }

    fn print(&self, name: &str, baseline: Option<&Row>) {
        let rounds = self.ms.len() as f64;
        let mut ms = self.ms.clone();
        let mut line = format!(
            "  {name:<24} {:9.3} ms   hits/frame {:9.1} ({:7.1} on targets)",
            median(&mut ms),
            self.hits as f64 / rounds,
            self.targets as f64 / rounds,
        );
        if let Some(base) = baseline {
            let mut ratio: Vec<f64> = self.ms.iter().zip(&base.ms).map(|(a, b)| a / b).collect();
            let m = median(&mut ratio);
            let q = |f: f64| ratio[((ratio.len() - 1) as f64 * f) as usize];
            line += &format!(
                "   {m:6.2}x hantei (quartiles {:.2}-{:.2})",
                q(0.25),
                q(0.75)
            );
        }
        println!("{line}");
    }
}

/// After one frame from `start`, prints which bullets each engine respawned (a bullet
/// that hit draws a new velocity) against hantei's.
fn agreement(start: &Scene, [hantei, cast, intersect]: [&Scene; 3]) {
    let hit = |s: &Scene| -> Vec<bool> {
        (start.bullets.iter().zip(&s.bullets))
            .map(|(a, b)| a.vel != b.vel)
            .collect()
    };
    let base = hit(hantei);
    let compare = |name: &str, s: &Scene| {
        let other = hit(s);
        let both = base.iter().zip(&other).filter(|(a, b)| **a && **b).count();
        let only = |x: &[bool], y: &[bool]| x.iter().zip(y).filter(|(a, b)| **a && !**b).count();
        format!(
            "{name} {} (both {both}, only rapier {}, only hantei {})",
            other.iter().filter(|&&b| b).count(),
            only(&other, &base),
            only(&base, &other),
        )
    };
    println!(
        "  first frame, same scene: bullets hit: hantei {}; {}; {}",
        base.iter().filter(|&&b| b).count(),
        compare("cast_shape", cast),
        compare("intersect_shape", intersect),
    );
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing (or `--list`,
    // `--test`): nothing to check there, so the timing runs only under `--bench`.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let has = |flag: &str| args.iter().any(|a| a == flag);
    if !has("--bench") || has("--test") || has("--list") {
        if args.is_empty() {
            eprintln!("rapier_frame: nothing to test; `cargo bench` (or `--bench`) times it");
        }
        return;
    }
    let sizes = env_list("PEER_SIZES").unwrap_or(vec![10_000, 100_000, 1_000_000]);
    let rounds = |n: usize| {
        env_list("PEER_ROUNDS")
            .and_then(|r| r.first().copied())
            .unwrap_or(match n {
                n if n >= 1_000_000 => 6,
                n if n >= 100_000 => 30,
                _ => 60,
            })
            .max(1)
    };
    println!(
        "hantei (this tree) vs rapier2d {}: one danmaku frame per engine, interleaved, one \
         thread ({} enemies, 1 player, border walls; median ms, hits = bullets respawned)",
        rapier2d::VERSION,
        hantei_peers::ENEMIES,
    );
    for n in sizes {
        let rounds = rounds(n);
        println!("{n} bullets, {WARMUP_FRAMES} warm-up frames, {rounds} timed rounds");
        let scene = Scene::new(n, SEED);
        let mut hantei = HanteiSide::new(scene.clone());
        let mut cast = RapierSide::new(scene.clone(), Query::CastShape);
        let mut intersect = RapierSide::new(scene.clone(), Query::IntersectShape);
        // The first frame, from the same scene: which bullets each engine found a hit for.
        black_box(hantei.frame());
        black_box(cast.frame());
        black_box(intersect.frame());
        agreement(&scene, [&hantei.scene, &cast.scene, &intersect.scene]);
        for _ in 1..WARMUP_FRAMES {
            black_box(hantei.frame());
            black_box(cast.frame());
            black_box(intersect.frame());
        }
        let (mut h, mut c, mut i) = (Row::default(), Row::default(), Row::default());
        for _ in 0..rounds {
            h.push(time(|| hantei.frame()));
            c.push(time(|| cast.frame()));
            i.push(time(|| intersect.frame()));
        }
        h.print("hantei advance (swept)", None);
        c.print("rapier cast_shape", Some(&h));
        i.print("rapier intersect_shape", Some(&h));
    }
}
