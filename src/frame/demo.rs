//! Ready-made bullet-hell scenes for benchmarks, tests and examples.

use super::layers;
use crate::math::{Aabb, Capsule, Circle, Obb2, Shape};
use crate::rng::Rng;
use crate::scene::generate;
use crate::store::{BoxHandle, BoxProps, BoxStore, Filter, Owner, Response};
use crate::tilemap::TileMap;
use glam::Vec2;

/// One frame of a simple bullet-hell game, for benchmarks and tests.
///
/// The bullets are the rings and spirals of [`generate::bullet_hell`], flying outward
/// from the scene's centre. Each enemy has two boxes. There is one player, and a tile
/// map walls the arena in. [`Danmaku`] is the fuller scene that a game would build.
#[derive(Debug, Clone)]
pub struct DemoFrame {
    /// Every box, with its filter, owner and motion for this frame.
    pub store: BoxStore,
    /// The walls.
    pub map: TileMap,
    /// The bullets' boxes, in the order of [`DemoFrame::bullet_motions`]. They suit
    /// [`TileMap::move_bullets`].
    pub bullets: Vec<Aabb>,
    /// The bullets' motions this frame.
    pub bullet_motions: Vec<Vec2>,
}

impl DemoFrame {
    /// A frame with `bullets` bullets, `enemies` enemies and one player. The same seed
    /// gives the same frame.
    ///
    /// An enemy bullet moves 1 to 4 units a frame, away from the scene's centre and
    /// turned by up to 0.6 radians. One bullet in twenty is the player's. It moves 6
    /// units a frame toward negative y, which is up on a screen whose y axis points
    /// down. The tiles are 16 units wide.
    ///
    /// # Panics
    /// Never, for up to [`MAX_BOXES`](crate::MAX_BOXES) boxes in all. The scene is
    /// valid by construction.
    #[must_use]
    pub fn new(bullets: usize, enemies: usize, seed: u64) -> DemoFrame {
        let mut rng = Rng::new(seed);
        let boxes = generate::bullet_hell(bullets + 1, seed);
        let lo = boxes
            .iter()
            .fold(Vec2::splat(f32::INFINITY), |m, b| m.min(b.min));
        let hi = boxes
            .iter()
            .fold(Vec2::splat(f32::NEG_INFINITY), |m, b| m.max(b.max));
        // Walls one tile outside the scene, the map's origin aligned on the tile grid.
        let tile = 16.0;
        let origin = (lo / tile).floor() * tile - Vec2::splat(2.0 * tile);
        let cells = ((hi - origin) / tile).ceil() + Vec2::splat(2.0);
        let (w, h) = (cells.x as u32, cells.y as u32);
        let mut map = TileMap::new(w, h, Vec2::splat(tile), origin).expect("a valid map");
        for x in 0..w {
            map.set(x, 0, 1).expect("in the map");
            map.set(x, h - 1, 1).expect("in the map");
        }
        for y in 0..h {
            map.set(0, y, 1).expect("in the map");
            map.set(w - 1, y, 1).expect("in the map");
        }
        let centre = (lo + hi) * 0.5;
        let mut store = BoxStore::with_capacity(bullets + 2 * enemies + 1);
        let mut out = Vec::with_capacity(bullets);
        let mut motions = Vec::with_capacity(bullets);
        for (k, b) in boxes.iter().take(bullets).enumerate() {
            // Small boxes are bullets; the generator's large ones (its enemies) become
            // bullets too, shrunk, so that the count is exact.
            let b = if b.size().max_element() > 8.0 {
                Aabb::from_center_half_extents(b.center(), Vec2::splat(3.0))
            } else {
                *b
            };
            let player_side = k % 20 == 0;
            let motion = if player_side {
                Vec2::new(0.0, -6.0)
            } else {
                let away = (b.center() - centre).normalize_or(Vec2::X);
                // `Vec2::from_angle` with the platform-independent sine and cosine.
                let (sin, cos) = crate::rng::sin_cos(rng.range_f32(-0.6, 0.6));
                let turn = Vec2::new(cos, sin);
                turn.rotate(away) * rng.range_f32(1.0, 4.0)
            };
            let filter = if player_side {
                layers::player_bullet()
            } else {
                layers::enemy_bullet()
            };
            store
                .insert_with(
                    b,
                    BoxProps {
                        filter,
                        owner: Owner::NONE,
                        motion,
                        ..BoxProps::default()
                    },
                )
                .expect("valid bullet");
            out.push(b);
            motions.push(motion);
        }
        for e in 0..enemies {
            let c = Vec2::new(rng.range_f32(lo.x, hi.x), rng.range_f32(lo.y, hi.y));
            let motion = Vec2::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0));
            for half in [Vec2::new(10.0, 14.0), Vec2::new(22.0, 5.0)] {
                store
                    .insert_with(
                        Aabb::from_center_half_extents(c, half),
                        BoxProps {
                            filter: layers::enemy(),
                            owner: Owner(1 + e as u64),
                            motion,
                            ..BoxProps::default()
                        },
                    )
                    .expect("valid enemy");
            }
        }
        store
            .insert_with(
                Aabb::from_center_half_extents(centre, Vec2::splat(3.0)),
                BoxProps {
                    filter: layers::player(),
                    owner: Owner(0),
                    motion: Vec2::new(2.0, 0.0),
                    ..BoxProps::default()
                },
            )
            .expect("valid player");
        DemoFrame {
            store,
            map,
            bullets: out,
            bullet_motions: motions,
        }
    }
}

/// What [`Danmaku::new`] builds: how many bullets, of which shape, in which arena.
///
/// The default is the scene that a bullet-hell game has, with round bullets among
/// pillars. The switches give the variants that the benchmarks keep as extra rows, so
/// that the cost of each feature shows.
///
/// ```
/// use hantei::frame::DanmakuConfig;
/// let scene = DanmakuConfig::new(10_000);
/// assert!(scene.round_bullets && scene.pillars);
/// let plain = scene.with_square_bullets().with_open_arena();
/// assert!(!plain.round_bullets && !plain.pillars);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DanmakuConfig {
    /// How many bullets the store holds, counting both sides.
    pub bullets: usize,
    /// Whether the bullets are discs. The default is `true`. With `false`, they are
    /// axis-aligned squares of the same size.
    pub round_bullets: bool,
    /// Whether the tile map has pillars and an inner wall. The default is `true`. With
    /// `false`, the map has only its border.
    pub pillars: bool,
    /// Whether each side's bullets are stored in one block, the enemies' block first.
    ///
    /// The default is `false`. Then the bullets are stored in firing order, with the
    /// two sides mixed, as a game spawns them.
    pub sides_grouped: bool,
    /// Whether the player slides along walls and only senses bullets and enemies.
    ///
    /// The default is `true`: the player has [`Response::Slide`] and
    /// [`layers::player()`], whose only solid layer is the walls. With `false`, the
    /// player has [`Response::Stop`] and every contact is solid to it, so the frame
    /// pays for no sensor and no slide. The benchmarks compare the two.
    pub sliding_player: bool,
    /// Whether the lasers turn during the frame ([`BoxStore::set_turn`]), each about
    /// its enemy, between 0.05 and 0.3 radians a frame. The default is `true`. With
    /// `false`, they hold still.
    pub turning_lasers: bool,
    /// Whether one enemy bullet in ten is a needle: a short capsule along its motion.
    /// The default is `true`. With `false`, every bullet has the same shape.
    pub needles: bool,
    /// The seed of every random choice.
    pub seed: u64,
}

impl DanmakuConfig {
    /// A scene of `bullets` round bullets among pillars, with seed 1.
    #[must_use]
    pub const fn new(bullets: usize) -> Self {
        DanmakuConfig {
            bullets,
            round_bullets: true,
            pillars: true,
            sides_grouped: false,
            sliding_player: true,
            turning_lasers: true,
            needles: true,
            seed: 1,
        }
    }

    /// The same scene with square bullets.
    #[must_use]
    pub const fn with_square_bullets(self) -> Self {
        DanmakuConfig {
            round_bullets: false,
            ..self
        }
    }

    /// The same scene with only the border as walls.
    #[must_use]
    pub const fn with_open_arena(self) -> Self {
        DanmakuConfig {
            pillars: false,
            ..self
        }
    }

    /// The same bullets, stored in one block per side, the enemies' block first.
    #[must_use]
    pub const fn with_sides_grouped(self) -> Self {
        DanmakuConfig {
            sides_grouped: true,
            ..self
        }
    }

    /// The same scene with a player that stops at its first hit of any kind, as in
    /// [`DanmakuConfig::sliding_player`] `= false`.
    #[must_use]
    pub const fn with_stopping_player(self) -> Self {
        DanmakuConfig {
            sliding_player: false,
            ..self
        }
    }

    /// The same scene with lasers that hold still and no needles: every enemy bullet
    /// has the same shape. The benchmarks compare it with the default, to show what
    /// turning and capsules cost.
    #[must_use]
    pub const fn with_still_lasers(self) -> Self {
        DanmakuConfig {
            turning_lasers: false,
            needles: false,
            ..self
        }
    }

    /// The same scene with another seed.
    #[must_use]
    pub const fn with_seed(self, seed: u64) -> Self {
        DanmakuConfig { seed, ..self }
    }
}

/// One frame of a bullet-hell game, built as a game would build it.
///
/// The frame benchmarks and the main example run this scene. It holds:
///
/// - A tile map of 120 × 68 tiles of 16 units, with a solid border. With
///   [`DanmakuConfig::pillars`], the map also has twelve pillars of 2 × 2 tiles and a
///   one-tile inner wall.
/// - 20 enemies. Each has three boxes under one owner: a round core and two wings.
///   They drift slowly.
/// - A round player hitbox with [`Response::Slide`], moving toward a wall. Only walls
///   are solid to it: bullets and enemies touching it are sensor contacts.
/// - Three thin lasers ([`Obb2`]), each at its own angle, turning about their enemy
///   ([`DanmakuConfig::turning_lasers`]). They hit the player.
/// - The bullets, in the order a game fires them. Each enemy fires rings in turn, and
///   every sixth ring is fast. The player's shots fan out upward between the rings, so
///   the two sides' bullets are mixed in the store. With
///   [`DanmakuConfig::sides_grouped`], each side is in one block instead. Every bullet
///   has [`Response::Destroy`], so it is gone at the first wall or body it meets. One
///   enemy bullet in ten is a needle, a short capsule ([`DanmakuConfig::needles`]).
///
/// ```
/// use hantei::frame::{Danmaku, DanmakuConfig, Frame, Level};
/// let mut scene = Danmaku::new(DanmakuConfig::new(5_000));
/// let mut frame = Frame::new();
/// let summary = frame.advance(&mut scene.store, &Level::walls(&scene.map))?;
/// assert!(summary.destroyed > 0); // bullets meet walls, pillars and bodies
/// assert!(summary.wall_hits > 0);
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Clone)]
pub struct Danmaku {
    /// Every moving box, with its filter, owner, response and motion for this frame.
    pub store: BoxStore,
    /// The walls.
    pub map: TileMap,
    /// The player's hitbox.
    pub player: BoxHandle,
    /// The lasers.
    pub lasers: [BoxHandle; 3],
    /// The enemies' boxes, three per enemy.
    pub enemies: Vec<[BoxHandle; 3]>,
    /// How many of the bullets are the player's.
    pub player_bullets: usize,
}

/// The tile map's size in tiles, and a tile's size in units.
const ARENA: (u32, u32, f32) = (120, 68, 16.0);

impl Danmaku {
    /// The scene that `config` describes. Every run builds the same store, in the
    /// same order.
    ///
    /// # Panics
    /// Never, for up to [`MAX_BOXES`](crate::MAX_BOXES) bullets. The scene is valid by
    /// construction.
    #[must_use]
    pub fn new(config: DanmakuConfig) -> Danmaku {
        let (w, h, tile) = ARENA;
        let mut rng = Rng::new(config.seed);
        let mut map = TileMap::new(w, h, Vec2::splat(tile), Vec2::ZERO).expect("a valid map");
        let mut solid = |x0: u32, y0: u32, x1: u32, y1: u32| {
            for y in y0..y1 {
                for x in x0..x1 {
                    map.set(x, y, 1).expect("in the map");
                }
            }
        };
        solid(0, 0, w, 1);
        solid(0, h - 1, w, h);
        solid(0, 0, 1, h);
        solid(w - 1, 0, w, h);
        if config.pillars {
            for px in [16, 38, 60, 82, 104] {
                for py in [14, 52] {
                    solid(px, py, px + 2, py + 2);
                }
            }
            solid(26, 33, 28, 35);
            solid(92, 33, 94, 35);
            // The inner wall: one tile thick, across the lower middle.
            solid(40, 44, 80, 45);
        }
        let size = Vec2::new(w as f32, h as f32) * tile;
        let inside = |p: Vec2, r: f32| {
            let lo = ((p - r) / tile).floor().as_ivec2();
            let hi = ((p + r) / tile).floor().as_ivec2();
            let within = lo.min_element() >= 0 && hi.x < w as i32 && hi.y < h as i32;
            within
                && (lo.y..=hi.y)
                    .all(|y| (lo.x..=hi.x).all(|x| !map.is_solid(glam::IVec2::new(x, y))))
        };
        let n = config.bullets;
        let mut store = BoxStore::with_capacity(n + 64);

        // The enemies: a round core and two wings, drifting on slow circles.
        let mut emitters = Vec::with_capacity(20);
        let mut drifts = Vec::with_capacity(20);
        let mut enemies = Vec::with_capacity(20);
        for e in 0..20u32 {
            let c = Vec2::new(
                (2.0 + (e % 10) as f32 * 11.6) * tile + 12.0 * tile * 0.5,
                if e < 10 { 8.0 * tile } else { 24.0 * tile },
            ) + Vec2::new(rng.range_f32(-20.0, 20.0), rng.range_f32(-20.0, 20.0));
            let (s, co) = crate::rng::sin_cos(rng.range_f32(-3.1, 3.1));
            let drift = Vec2::new(co, s);
            drifts.push(drift);
            let props = BoxProps::new(layers::enemy())
                .with_owner(Owner(1 + u64::from(e)))
                .with_motion(drift);
            let core = store
                .insert_shape(Circle::new(c, 12.0), props)
                .expect("a valid enemy");
            let wing = |dx: f32| {
                Aabb::from_center_half_extents(c + Vec2::new(dx, 4.0), Vec2::new(9.0, 4.0))
            };
            let left = store
                .insert_with(wing(-20.0), props)
                .expect("a valid enemy");
            let right = store.insert_with(wing(20.0), props).expect("a valid enemy");
            emitters.push(c);
            enemies.push([core, left, right]);
        }
        // The player: a small disc moving toward the left wall, sliding along walls
        // and sensing the rest; or stopped by whatever it hits first.
        let me = Vec2::new(0.5 * size.x, 0.85 * size.y);
        let (filter, response) = if config.sliding_player {
            (layers::player(), Response::Slide)
        } else {
            let all = layers::player();
            (all.with_solid(all.mask), Response::Stop)
        };
        let player = store
            .insert_shape(
                Circle::new(me, 3.0),
                BoxProps::new(filter)
                    .with_owner(Owner(0))
                    .with_motion(Vec2::new(-3.0, 1.0))
                    .with_response(response),
            )
            .expect("a valid player");
        // The lasers: long thin rectangles from three of the enemies, each at its own
        // angle; they hit the player and pass through walls.
        let laser_filter = Filter::new(layers::ENEMY_BULLET, layers::PLAYER);
        // A turning laser turns about its enemy: its centre moves along the chord of
        // its arc, on top of the enemy's drift, and it turns about its centre.
        let lasers = [3usize, 9, 15].map(|e| {
            let angle = rng.range_f32(0.6, 2.5);
            let (s, c) = crate::rng::sin_cos(angle);
            let axis = Vec2::new(c, s);
            let half = Vec2::new(300.0, 3.0);
            let arm = half.x + 14.0;
            let beam = Obb2::new(emitters[e] + axis * arm, axis, half);
            let turn = if config.turning_lasers {
                rng.range_f32(0.05, 0.3) * if e == 9 { -1.0 } else { 1.0 }
            } else {
                0.0
            };
            let turned = Shape::Obb2(beam).turned(turn);
            let Shape::Obb2(turned) = turned else {
                unreachable!("a rectangle turns into a rectangle")
            };
            let chord = (turned.axis - axis) * arm;
            store
                .insert_shape(
                    beam,
                    BoxProps::new(laser_filter)
                        .with_owner(Owner(1 + e as u64))
                        .with_motion(drifts[e] + chord)
                        .with_turn(turn),
                )
                .expect("a valid laser")
        });

        // The bullets, in firing order: enemy after enemy fires a ring (every sixth
        // ring fast), and between rings the player fires a fan of four shots upward.
        // A ring fired `age` frames ago has spread `age * speed` units; a bullet that
        // would start inside a wall is left out, as the game would have destroyed it.
        let radius = 3.0;
        // Each bullet's centre, motion, filter and id, in firing order.
        let mut fired: Vec<(Vec2, Vec2, Filter, usize)> = Vec::with_capacity(n);
        let mut enemy_bullets = 0usize;
        let mut place = |p: Vec2, motion: Vec2, filter: Filter, id: usize| {
            let open = inside(p, radius + 0.5);
            if open {
                fired.push((p, motion, filter, id));
            }
            open
        };
        let (mut placed, mut player_bullets, mut ring) = (0usize, 0usize, 0u32);
        // Bounded, though a seeded scene always fills up long before.
        while placed < n && ring < 1 << 24 {
            let e = (ring % 20) as usize;
            let fast = ring % 6 == 5;
            let speed = if fast {
                rng.range_f32(7.0, 10.0)
            } else {
                rng.range_f32(1.5, 3.0)
            };
            let age = rng.range_f32(2.0, 400.0 / speed);
            let count = 24 + rng.below(41);
            let phase = rng.range_f32(0.0, core::f32::consts::TAU);
            for k in 0..count {
                let angle = phase + k as f32 * (core::f32::consts::TAU / count as f32);
                let (s, c) = crate::rng::sin_cos(angle);
                let dir = Vec2::new(c, s);
                let p = emitters[e] + dir * (16.0 + speed * age);
                let filter = layers::enemy_bullet();
                if placed < n && place(p, dir * speed, filter, placed) {
                    placed += 1;
                }
            }
            for k in 0..4 {
                let (s, c) =
                    crate::rng::sin_cos(-core::f32::consts::FRAC_PI_2 + (k as f32 - 1.5) * 0.12);
                let dir = Vec2::new(c, s);
                let p = me + dir * (8.0 + 10.0 * rng.range_f32(0.0, 100.0));
                let filter = layers::player_bullet();
                if placed < n && place(p, dir * 10.0, filter, placed) {
                    placed += 1;
                    player_bullets += 1;
                }
            }
            ring += 1;
        }
        if config.sides_grouped {
            // A stable sort: each side keeps its firing order.
            fired.sort_by_key(|f| f.2 == layers::player_bullet());
        }
        for (p, motion, filter, id) in fired {
            let props = BoxProps::new(filter)
                .with_motion(motion)
                .with_response(Response::Destroy)
                .with_user_data(id as u64);
            let enemy = filter == layers::enemy_bullet();
            enemy_bullets += usize::from(enemy);
            if config.needles && enemy && enemy_bullets.is_multiple_of(10) {
                // A needle: a capsule as long as a bullet is wide, along its motion.
                let along = motion.normalize_or_zero() * (radius * 0.5);
                store.insert_shape(Capsule::new(p - along, p + along, radius * 0.5), props)
            } else if config.round_bullets {
                store.insert_shape(Circle::new(p, radius), props)
            } else {
                let square = Aabb::from_center_half_extents(p, Vec2::splat(radius));
                store.insert_with(square, props)
            }
            .expect("a valid bullet");
        }
        Danmaku {
            store,
            map,
            player,
            lasers,
            enemies,
            player_bullets,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_frames_have_what_they_say() {
        let d = DemoFrame::new(5000, 20, 3);
        assert_eq!(d.store.len(), 5000 + 40 + 1);
        assert_eq!(d.bullets.len(), 5000);
        assert_eq!(d.bullet_motions.len(), 5000);
        // Every bullet starts inside the walls.
        let inner = d.map.bounds();
        assert!(d.bullets.iter().all(|b| inner.overlaps(b)));
        let mut frame = super::super::Frame::new();
        let r = frame.step(&d.store).unwrap();
        assert!(r.candidates > 0);
    }

    /// The walls, drawn tile by tile along the border, leave nearly the whole inside as
    /// the map's open interior (the benchmarks' wall pre-test relies on it), at the
    /// sizes the benchmarks use.
    #[test]
    fn demo_walls_leave_the_inside_open() {
        for n in [10_000, 100_000, 1_000_000] {
            let map = DemoFrame::new(n, 50, 1).map;
            let (w, h) = (map.width(), map.height());
            let [x0, y0, x1, y1] = map.interior.tiles();
            let (area, inside) = ((x1 - x0) * (y1 - y0), (w - 2) * (h - 2));
            assert!(
                100 * area >= 99 * inside,
                "{n} bullets: {:?} in {w} x {h}",
                [x0, y0, x1, y1]
            );
        }
    }

    /// The danmaku scene holds what its docs say: exactly the bullets asked for, both
    /// sides interleaved in the store, discs or squares as configured, every bullet
    /// clear of the walls, pillars only when asked for; and its frame is the same at
    /// every SIMD level and thread count.
    #[test]
    fn danmaku_scenes_have_what_they_say() {
        use crate::frame::{Frame, FrameConfig, Level};
        use crate::lanes::SimdLevel;
        use crate::math::ShapeKind;
        let n = 40_000;
        let round = Danmaku::new(DanmakuConfig::new(n));
        // Grouped: the same bullets, each side in one block.
        let grouped = Danmaku::new(DanmakuConfig::new(n).with_sides_grouped());
        let sides = |s: &Danmaku| {
            let bullets = (0..s.store.len()).filter(|&i| s.store.responses()[i] == 2);
            let layers: Vec<u32> = bullets.map(|i| s.store.layers()[i]).collect();
            layers.windows(2).filter(|w| w[0] != w[1]).count()
        };
        assert_eq!(sides(&grouped), 1);
        assert!(sides(&round) > n / 100);
        assert_eq!(grouped.player_bullets, round.player_bullets);
        let square = Danmaku::new(
            DanmakuConfig::new(n)
                .with_square_bullets()
                .with_open_arena(),
        );
        for scene in [&round, &square] {
            // The bullets, 20 enemies of three boxes, the player and three lasers.
            assert_eq!(scene.store.len(), n + 60 + 1 + 3);
            assert!(scene.player_bullets > n / 20 && scene.player_bullets < n / 2);
            let bullet = |i: usize| scene.store.responses()[i] == Response::Destroy as u8;
            let side = |i: usize| scene.store.layers()[i];
            let bullets: Vec<usize> = (0..scene.store.len()).filter(|&i| bullet(i)).collect();
            assert_eq!(bullets.len(), n);
            // Interleaved: the sides change many times along the store.
            let changes = bullets
                .windows(2)
                .filter(|w| side(w[0]) != side(w[1]))
                .count();
            assert!(changes > n / 100, "{changes} changes of side");
            for &i in &bullets {
                let b = scene.store.aabb_at(i).unwrap();
                let (lo, hi) = (scene.map.tile_at(b.min), scene.map.tile_at(b.max));
                let (lo, hi) = (lo.unwrap(), hi.unwrap());
                for y in lo.y..=hi.y {
                    for x in lo.x..=hi.x {
                        assert!(!scene.map.is_solid(glam::IVec2::new(x, y)), "bullet {i}");
                    }
                }
            }
        }
        let kind = |s: &Danmaku, i: usize| s.store.shape_at(i).unwrap().kind();
        let last = round.store.len() - 1;
        assert_eq!(kind(&round, last), ShapeKind::Circle);
        assert_eq!(kind(&square, last), ShapeKind::Aabb);
        let solid = |s: &Danmaku| s.map.cells().iter().filter(|&&c| c != 0).count();
        assert!(solid(&round) > solid(&square) + 40);
        // The same frame at every level and thread count.
        let run = |simd: SimdLevel, threads: usize| {
            let config = FrameConfig {
                simd,
                parallel_threshold: 0,
                ..FrameConfig::default()
            };
            let pool = &crate::check::broad::pools()[threads - 1];
            let mut store = round.store.clone();
            let mut frame = Frame::with_config(config);
            let summary = pool
                .install(|| frame.advance(&mut store, &Level::walls(&round.map)))
                .unwrap();
            let bits: Vec<u32> = [store.min_x(), store.min_y(), store.max_x(), store.max_y()]
                .iter()
                .flat_map(|c| c.iter().map(|v| v.to_bits()))
                .collect();
            let contacts = frame.report().contacts.to_vec();
            (summary.destroyed, summary.wall_hits, contacts, bits)
        };
        let want = run(SimdLevel::Scalar, 1);
        assert!(want.0 > 0 && want.1 > 0 && !want.2.is_empty());
        for &simd in SimdLevel::available() {
            for threads in [1, 2] {
                assert!(run(simd, threads) == want, "{simd:?}, {threads} threads");
            }
        }
    }
}
