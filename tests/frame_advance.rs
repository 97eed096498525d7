//! `Frame::advance`: motion applied with responses, walls in the step, entities and
//! events, against brute force and by hand.

use glam::{IVec2, Vec2};
use hantei::frame::{Body, Frame, FrameConfig, HitOther, Level, StaticLevel, layers};
use hantei::narrow::SweepStatus;
use hantei::narrow::scalar::sweep_shapes;
use hantei::rng::Rng;
use hantei::tilemap::TileMap;
use hantei::{Aabb, BoxProps, BoxStore, Circle, Filter, Obb2, Owner, Response, Shape};

fn props(filter: Filter, motion: Vec2, response: Response, user_data: u64) -> BoxProps {
    BoxProps {
        filter,
        motion,
        response,
        user_data,
        ..BoxProps::default()
    }
}

/// Whether two shapes' interiors overlap (touching is not penetrating), in f64.
fn penetrates(a: &Shape, b: &Shape) -> bool {
    match (a, b) {
        (Shape::Aabb(a), Shape::Aabb(b)) => {
            a.min.x < b.max.x && b.min.x < a.max.x && a.min.y < b.max.y && b.min.y < a.max.y
        }
        (Shape::Circle(c), Shape::Aabb(b)) | (Shape::Aabb(b), Shape::Circle(c)) => {
            let (cx, cy) = (f64::from(c.center.x), f64::from(c.center.y));
            let qx = cx.clamp(f64::from(b.min.x), f64::from(b.max.x));
            let qy = cy.clamp(f64::from(b.min.y), f64::from(b.max.y));
            let r = f64::from(c.radius);
            (cx - qx).powi(2) + (cy - qy).powi(2) < r * r * (1.0 - 1e-6)
        }
        (Shape::Circle(a), Shape::Circle(b)) => {
            let d = f64::from(a.center.x - b.center.x).hypot(f64::from(a.center.y - b.center.y));
            d < f64::from(a.radius + b.radius) * (1.0 - 1e-6)
        }
        _ => unreachable!("not used"),
    }
}

/// The example of the issue: a bullet crossing two enemies and then a wall in one
/// frame is destroyed at the first enemy and reported once.
#[test]
fn a_bullet_through_two_enemies_and_a_wall_is_destroyed_at_the_first() {
    let map = TileMap::from_ascii("..........#", Vec2::splat(10.0), Vec2::ZERO).unwrap();
    let mut store = BoxStore::new();
    let bullet = store
        .insert_shape(
            Circle::new(Vec2::new(5.0, 5.0), 1.0),
            props(
                layers::player_bullet(),
                Vec2::new(200.0, 0.0),
                Response::Destroy,
                100,
            ),
        )
        .unwrap();
    // The farther enemy first in the store: the order of the store does not matter.
    for (k, x) in [(2u64, 70.0), (1, 35.0)] {
        store
            .insert_with(
                Aabb::from_center_half_extents(Vec2::new(x, 5.0), Vec2::splat(4.0)),
                BoxProps {
                    owner: Owner::new(k as u32, 0),
                    ..props(layers::enemy(), Vec2::ZERO, Response::Pass, k)
                },
            )
            .unwrap();
    }
    let mut frame = Frame::new();
    let s = frame.advance(&mut store, &Level::walls(&map)).unwrap();
    assert_eq!((s.contacts, s.destroyed, s.wall_hits), (1, 1, 0));
    let r = frame.report();
    assert_eq!(r.contacts[0].user_data, (1, 100));
    // The bullet's right edge (x = 6) meets the first enemy's left face (x = 31).
    assert_eq!(r.contacts[0].toi, 25.0 / 200.0);
    assert_eq!(r.destroyed.len(), 1);
    let d = r.destroyed[0];
    assert_eq!((d.handle, d.user_data, d.toi), (bullet, 100, 0.125));
    assert_eq!(
        d.shape,
        Shape::Circle(Circle::new(Vec2::new(30.0, 5.0), 1.0))
    );
    let hits = r.hits_of(Body::Box(bullet));
    assert_eq!(hits.len(), 1);
    assert!(matches!(hits[0].other, HitOther::Body { user_data: 1, .. }));
    assert!(!store.contains(bullet));
    assert_eq!(store.len(), 2);

    // Next frame: the contact ends, flagged removed, once.
    frame.advance(&mut store, &Level::walls(&map)).unwrap();
    let r = frame.report();
    assert_eq!(r.ended.len(), 1);
    assert!(r.ended[0].removed);
    assert_eq!(r.ended[0].user_data, (1, 100));
    frame.advance(&mut store, &Level::walls(&map)).unwrap();
    assert!(frame.report().ended.is_empty());
}

/// Without the enemies, the same bullet hits the wall: a wall hit with its tile and
/// face, and it is destroyed there.
#[test]
fn a_bullet_hits_the_wall_tile_and_face() {
    let map = TileMap::from_ascii("..........#", Vec2::splat(10.0), Vec2::ZERO).unwrap();
    let mut store = BoxStore::new();
    let bullet = store
        .insert_shape(
            Circle::new(Vec2::new(5.0, 5.0), 1.0),
            props(
                layers::enemy_bullet(),
                Vec2::new(200.0, 0.0),
                Response::Destroy,
                7,
            ),
        )
        .unwrap();
    let mut frame = Frame::new();
    let s = frame.advance(&mut store, &Level::walls(&map)).unwrap();
    assert_eq!((s.contacts, s.destroyed, s.wall_hits), (0, 1, 1));
    let w = frame.report().wall_hits[0];
    assert_eq!((w.handle, w.user_data), (bullet, 7));
    assert_eq!(
        (w.tile, w.status, w.normal),
        (IVec2::new(10, 0), SweepStatus::Hit, Vec2::NEG_X)
    );
    assert_eq!(w.toi, 94.0 / 200.0);
    let hits = frame.report().hits_of(Body::Box(bullet));
    assert!(matches!(hits[0].other, HitOther::Wall { tile } if tile == IVec2::new(10, 0)));
}

/// Stop leaves no penetration at any speed: boxes and discs fired at resting boxes and
/// at walls, from 0.01 to 10⁶ units a frame, end flush or short, never inside.
#[test]
fn stop_flush_never_penetrates_at_any_speed() {
    let map = TileMap::from_ascii(
        "
        ##########
        #........#
        #...##...#
        #........#
        ##########",
        Vec2::splat(8.0),
        Vec2::ZERO,
    )
    .unwrap();
    let mut rng = Rng::new(0x5709);
    let mut stopped = 0;
    for _ in 0..3000 {
        let mut store = BoxStore::new();
        let target = Shape::Aabb(Aabb::from_center_half_extents(
            Vec2::new(rng.range_f32(12.0, 68.0), rng.range_f32(12.0, 28.0)),
            Vec2::new(rng.range_f32(0.5, 3.0), rng.range_f32(0.5, 3.0)),
        ));
        let c = Vec2::new(rng.range_f32(9.0, 71.0), rng.range_f32(9.0, 31.0));
        let mover = if rng.below(2) == 0 {
            Shape::Circle(Circle::new(c, rng.range_f32(0.2, 0.9)))
        } else {
            Shape::Aabb(Aabb::from_center_half_extents(
                c,
                Vec2::new(rng.range_f32(0.1, 0.9), rng.range_f32(0.1, 0.9)),
            ))
        };
        let speed = 10f32.powf(rng.range_f32(-2.0, 6.0));
        let dir = Vec2::from_angle(rng.range_f32(0.0, core::f32::consts::TAU));
        let everything = Filter::new(u32::MAX, u32::MAX);
        store
            .insert_shape(target, props(everything, Vec2::ZERO, Response::Pass, 0))
            .unwrap();
        let h = store
            .insert_shape(mover, props(everything, dir * speed, Response::Stop, 1))
            .unwrap();
        let mut frame = Frame::new();
        let level = Level {
            walls: Some(&map),
            wall_filter: everything,
            statics: None,
        };
        let Ok(s) = frame.advance(&mut store, &level) else {
            continue;
        };
        stopped += s.stopped;
        let moved = store.shape(h).unwrap();
        // Started outside everything: ends outside everything it was stopped by.
        let inside_at_start = penetrates(&mover, &target)
            || (0..5).any(|r| {
                (0..10).any(|c| {
                    map.is_solid(IVec2::new(c, r))
                        && penetrates(&mover, &Shape::Aabb(map.tile_aabb(IVec2::new(c, r))))
                })
            });
        if inside_at_start {
            continue;
        }
        if let Some(hit) = frame.report().hits_of(Body::Box(h)).first()
            && hit.status == SweepStatus::Hit
        {
            let other = match hit.other {
                HitOther::Wall { tile } => Shape::Aabb(map.tile_aabb(tile)),
                HitOther::Body { .. } => target,
                HitOther::Static { .. } => unreachable!("no static level here"),
            };
            assert!(
                !penetrates(&moved, &other),
                "{mover:?} at {speed} along {dir:?} ended at {moved:?} inside {other:?}"
            );
        }
    }
    assert!(
        stopped > 1000,
        "only {stopped} stops: the scene tests too little"
    );
}

/// The touching rules. Walls are solid geometry: flush and sliding along, or moving
/// away, is no contact at all, as in `TileMap::move_and_slide`; moving into a wall
/// while flush is a hit at `t = 0`. Between two boxes touching counts: flush and
/// sliding along is an overlap, reported, that never blocks.
#[test]
fn flush_and_sliding_contacts_follow_the_rules_for_walls_and_boxes() {
    // A floor of tiles from y = 10 down, and a floor box from y = 10 down, side by side.
    let map = TileMap::from_ascii(
        "
        ..........
        ##########",
        Vec2::splat(10.0),
        Vec2::ZERO,
    )
    .unwrap();
    let everything = Filter::new(u32::MAX, u32::MAX);
    let level = Level {
        walls: Some(&map),
        wall_filter: everything,
        statics: None,
    };
    for (motion, want) in [
        (Vec2::new(15.0, 0.0), SweepStatus::Overlapping), // sliding along
        (Vec2::new(0.0, -3.0), SweepStatus::Overlapping), // moving away
        (Vec2::new(15.0, 3.0), SweepStatus::Hit),         // into it while flush
    ] {
        // Against the tiles: a box resting on the floor (its bottom at y = 10).
        let mut store = BoxStore::new();
        let on_tiles = store
            .insert_with(
                Aabb::from_coords(2.0, 7.0, 5.0, 10.0),
                props(everything, motion, Response::Stop, 0),
            )
            .unwrap();
        let mut frame = Frame::new();
        frame.advance(&mut store, &level).unwrap();
        let w = frame.report().wall_hits;
        let end = store.get(on_tiles).unwrap();
        if want == SweepStatus::Hit {
            assert_eq!(w.len(), 1, "{motion:?}");
            assert_eq!((w[0].status, w[0].toi), (want, 0.0), "{motion:?}");
            assert_eq!(w[0].normal, Vec2::NEG_Y);
            assert_eq!(end.max.y, 10.0, "stopped flush");
            assert_eq!(end.min.x, 2.0, "stopped at t = 0");
        } else {
            assert!(w.is_empty(), "touching a wall is no contact: {w:?}");
            assert_eq!(end.min, Vec2::new(2.0, 7.0) + motion, "moved on");
        }

        // Against a box: an overlap when touching, a hit when moving in.
        let mut store = BoxStore::new();
        store
            .insert_with(
                Aabb::from_coords(-100.0, 10.0, 100.0, 20.0),
                props(everything, Vec2::ZERO, Response::Pass, 0),
            )
            .unwrap();
        let on_box = store
            .insert_with(
                Aabb::from_coords(2.0, 7.0, 5.0, 10.0),
                props(everything, motion, Response::Stop, 0),
            )
            .unwrap();
        frame.advance(&mut store, &Level::none()).unwrap();
        let c = frame.report().contacts;
        assert_eq!(c.len(), 1, "{motion:?}");
        assert_eq!((c[0].status, c[0].toi), (want, 0.0), "{motion:?}");
        let end = store.get(on_box).unwrap();
        if want == SweepStatus::Hit {
            assert_eq!(end.max.y, 10.0);
        } else {
            assert_eq!(end.min, Vec2::new(2.0, 7.0) + motion);
        }
    }
    // Sliding along a floor of many tiles meets no seam (no face between two solid
    // tiles is ever hit): the box slides all the way.
    let mut store = BoxStore::new();
    let h = store
        .insert_with(
            Aabb::from_coords(2.0, 7.0, 5.0, 10.0),
            props(everything, Vec2::new(80.0, 0.0), Response::Destroy, 0),
        )
        .unwrap();
    let mut frame = Frame::new();
    frame.advance(&mut store, &level).unwrap();
    // Flush on the floor is no contact: even a destroy slides along it.
    assert!(frame.report().destroyed.is_empty());
    assert_eq!(store.get(h).unwrap().min.x, 82.0);
    let mut store = BoxStore::new();
    let h = store
        .insert_with(
            Aabb::from_coords(2.0, 7.0, 5.0, 10.0),
            props(everything, Vec2::new(80.0, 0.0), Response::Stop, 0),
        )
        .unwrap();
    frame.advance(&mut store, &level).unwrap();
    assert_eq!(store.get(h).unwrap().min.x, 82.0, "no seam stopped it");
}

/// Owners with generations: an enemy respawned in the same slot while touching the
/// player is a new body: the old contact ends, the new one begins.
#[test]
fn a_respawn_while_touching_ends_the_old_body_and_begins_the_new() {
    let mut store = BoxStore::new();
    let player = store
        .insert_with(
            Aabb::from_coords(0.0, 0.0, 2.0, 2.0),
            props(layers::player(), Vec2::ZERO, Response::Pass, 1),
        )
        .unwrap();
    let enemy_box = |owner| BoxProps {
        owner,
        ..props(layers::enemy(), Vec2::ZERO, Response::Pass, 2)
    };
    let first = Owner::new(7, 0);
    let e = store
        .insert_with(Aabb::from_coords(1.0, 0.0, 3.0, 2.0), enemy_box(first))
        .unwrap();
    let mut frame = Frame::new();
    frame.advance(&mut store, &Level::none()).unwrap();
    assert_eq!(frame.report().began.len(), 1);
    // Killed and respawned at once, in the same place, by the game.
    store.remove(e).unwrap();
    let again = Owner::new(7, 1);
    store
        .insert_with(Aabb::from_coords(1.0, 0.0, 3.0, 2.0), enemy_box(again))
        .unwrap();
    frame.advance(&mut store, &Level::none()).unwrap();
    let r = frame.report();
    assert_eq!(r.began.len(), 1);
    assert_eq!(r.began[0].bodies.a, Body::Owner(again));
    assert_eq!(r.ended.len(), 1);
    assert_eq!(r.ended[0].bodies.a, Body::Owner(first));
    assert!(r.ended[0].removed, "its box was removed");
    assert!(r.stayed.is_empty());
    assert_eq!(r.began[0].bodies.b, Body::Box(player));
    assert_eq!(r.began[0].user_data, (2, 1));
}

/// Boxes moved apart end their contact without the removed flag; a box the game
/// removes ends its contacts once, flagged.
#[test]
fn ended_says_whether_a_box_was_removed() {
    let mut store = BoxStore::new();
    let all = Filter::new(u32::MAX, u32::MAX);
    let a = store
        .insert_with(
            Aabb::from_coords(0.0, 0.0, 1.0, 1.0),
            props(all, Vec2::ZERO, Response::Pass, 1),
        )
        .unwrap();
    let b = store
        .insert_with(
            Aabb::from_coords(0.5, 0.0, 1.5, 1.0),
            props(all, Vec2::ZERO, Response::Pass, 2),
        )
        .unwrap();
    let c = store
        .insert_with(
            Aabb::from_coords(-0.5, 0.0, 0.2, 1.0),
            props(all, Vec2::ZERO, Response::Pass, 3),
        )
        .unwrap();
    let mut frame = Frame::new();
    frame.advance(&mut store, &Level::none()).unwrap();
    assert_eq!(frame.report().began.len(), 2); // a-b, a-c
    store.set_motion(b, Vec2::new(10.0, 0.0)).unwrap();
    frame.advance(&mut store, &Level::none()).unwrap(); // b sweeps away (still touches)
    store.set_motion(b, Vec2::ZERO).unwrap();
    store.remove(c).unwrap();
    frame.advance(&mut store, &Level::none()).unwrap();
    let r = frame.report();
    let mut ended: Vec<_> = r.ended.iter().map(|e| (e.user_data, e.removed)).collect();
    ended.sort_unstable();
    assert_eq!(ended, [((1, 2), false), ((1, 3), true)]);
    assert!(store.contains(a));
}

/// A scene of every kind, walls and responses, stepped 30 frames: the report and the
/// store afterwards are the same for 1, 2 and 4 threads and every SIMD level.
#[test]
fn advance_is_the_same_on_every_thread_count_and_simd_level() {
    let map = TileMap::from_ascii(
        "
        ################################
        #..............................#
        #....###..........###..........#
        #..............................#
        #.........#............#.......#
        #..............................#
        ################################",
        Vec2::splat(16.0),
        Vec2::ZERO,
    )
    .unwrap();
    let scene = || {
        let mut rng = Rng::new(0xadd);
        let mut store = BoxStore::new();
        let field = (Vec2::splat(17.0), Vec2::new(495.0, 95.0));
        for k in 0..3000u64 {
            let c = Vec2::new(
                rng.range_f32(field.0.x, field.1.x),
                rng.range_f32(field.0.y, field.1.y),
            );
            let v = Vec2::from_angle(rng.range_f32(0.0, core::f32::consts::TAU))
                * rng.range_f32(0.0, 30.0);
            let (shape, filter, response): (Shape, _, _) = match k % 5 {
                0 => (
                    Circle::new(c, 1.0).into(),
                    layers::enemy_bullet(),
                    Response::Destroy,
                ),
                1 => (
                    Circle::new(c, 1.5).into(),
                    layers::player_bullet(),
                    Response::Destroy,
                ),
                2 => (
                    Obb2::from_angle(c, Vec2::new(6.0, 1.0), k as f32).into(),
                    layers::enemy_bullet(),
                    Response::Pass,
                ),
                3 => (
                    Aabb::from_center_half_extents(c, Vec2::splat(4.0)).into(),
                    layers::enemy(),
                    Response::Stop,
                ),
                _ => (
                    Aabb::from_center_half_extents(c, Vec2::splat(2.0)).into(),
                    layers::player(),
                    Response::Stop,
                ),
            };
            let owner = if k % 5 == 3 {
                Owner::new((k / 10) as u32, 0)
            } else {
                Owner::NONE
            };
            store
                .insert_shape(
                    shape,
                    BoxProps {
                        owner,
                        ..props(filter, v, response, k)
                    },
                )
                .unwrap();
        }
        store
    };
    let mut reference: Option<(String, Vec<Option<Shape>>)> = None;
    for (mut frame, pool, case) in crate::frame_oracle::frames() {
        let mut store = scene();
        let handles = store.handles().to_vec();
        let mut log = String::new();
        pool.install(|| {
            for _ in 0..30 {
                frame.advance(&mut store, &Level::walls(&map)).unwrap();
                let r = frame.report();
                log += &format!(
                    "{:?}{:?}{:?}{:?}{:?}{:?}{:?}",
                    r.contacts, r.began, r.stayed, r.ended, r.wall_hits, r.destroyed, r.hits
                );
            }
        });
        let shapes: Vec<_> = handles.iter().map(|&h| store.shape(h)).collect();
        match &reference {
            None => {
                assert!(log.contains("Destroyed"), "nothing destroyed");
                reference = Some((log, shapes));
            }
            Some((l, s)) => {
                assert!(*l == log, "{case}: the reports differ");
                assert!(*s == shapes, "{case}: the stores differ");
            }
        }
    }
}

/// Against brute force: every box pair through the scalar swept test and every box
/// against every solid tile, then the documented walk (time order, first hit stops or
/// destroys), on random small scenes.
#[test]
fn advance_matches_a_brute_force_walk() {
    let map = TileMap::from_ascii(
        "
        ########
        #......#
        #..#...#
        #......#
        ########",
        Vec2::splat(4.0),
        Vec2::ZERO,
    )
    .unwrap();
    let all = Filter::new(u32::MAX, u32::MAX);
    let level = Level {
        walls: Some(&map),
        wall_filter: all,
        statics: None,
    };
    let mut rng = Rng::new(0xb7u64);
    let mut compared = 0;
    // One frame for every store: nothing of one advance may leak into the next.
    let mut frame = Frame::with_config(FrameConfig {
        parallel: false,
        ..FrameConfig::default()
    });
    for _ in 0..400 {
        let mut store = BoxStore::new();
        for k in 0..12u64 {
            let c = Vec2::new(rng.range_f32(4.0, 28.0), rng.range_f32(4.0, 16.0));
            let shape: Shape = if rng.below(2) == 0 {
                Circle::new(c, rng.range_f32(0.2, 1.0)).into()
            } else {
                Aabb::from_center_half_extents(c, Vec2::splat(rng.range_f32(0.2, 1.0))).into()
            };
            let v = Vec2::new(rng.range_f32(-12.0, 12.0), rng.range_f32(-12.0, 12.0));
            let response =
                [Response::Pass, Response::Stop, Response::Destroy][rng.below(3) as usize];
            store
                .insert_shape(shape, props(all, v, response, k))
                .unwrap();
        }
        let before = store.clone();
        frame.advance(&mut store, &level).unwrap();
        let want = brute(&before, &map);
        let r = frame.report();
        let got_walls: Vec<_> = r
            .wall_hits
            .iter()
            .map(|w| (w.user_data, w.tile, w.toi.to_bits()))
            .collect();
        assert_eq!(got_walls, want.walls);
        let mut got_destroyed: Vec<_> = r.destroyed.iter().map(|d| d.user_data).collect();
        got_destroyed.sort_unstable();
        assert_eq!(got_destroyed, want.destroyed);
        let mut got_pairs: Vec<_> = r
            .contacts
            .iter()
            .map(|c| {
                let (a, b) = c.user_data;
                (a.min(b), a.max(b), c.toi.to_bits())
            })
            .collect();
        got_pairs.sort_unstable();
        assert_eq!(got_pairs, want.pairs);
        compared += want.pairs.len() + want.walls.len();
    }
    assert!(compared > 500, "only {compared} contacts compared");
}

struct Brute {
    walls: Vec<(u64, IVec2, u32)>,
    destroyed: Vec<u64>,
    pairs: Vec<(u64, u64, u32)>,
}

/// The documented walk on all pairs and all tiles, no broad phase, no shortcuts.
fn brute(store: &BoxStore, map: &TileMap) -> Brute {
    let n = store.len();
    let shape = |i: usize| store.shape_at(i).unwrap();
    let motion = |i: usize| Vec2::new(store.motion_x()[i], store.motion_y()[i]);
    let data = |i: usize| store.user_data()[i];
    let response = |i: usize| store.props(store.handle_at(i).unwrap()).unwrap().response;
    // (t bits, kind 0 = pair / 1 = wall, pair: dense i < j; wall: dense i and tile)
    let mut events: Vec<(u32, u8, usize, usize, SweepStatus, IVec2)> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            let (mut a, mut b) = (i, j);
            if shape(b).kind() < shape(a).kind() {
                core::mem::swap(&mut a, &mut b);
            }
            let s = sweep_shapes(&shape(a), motion(a), &shape(b), motion(b));
            if s.status != SweepStatus::Miss {
                events.push((s.t.to_bits(), 0, i, j, s.status, IVec2::ZERO));
            }
        }
        let mut first: Option<(f32, IVec2, SweepStatus)> = None;
        let mut hit: Option<(f32, IVec2, SweepStatus)> = None;
        for r in -1..=map.height() as i32 {
            for c in -1..=map.width() as i32 {
                let tile = IVec2::new(c, r);
                if !map.is_solid(tile) {
                    continue;
                }
                let s = sweep_shapes(
                    &shape(i),
                    motion(i),
                    &Shape::Aabb(map.tile_aabb(tile)),
                    Vec2::ZERO,
                );
                if s.status == SweepStatus::Miss {
                    continue;
                }
                if s.status == SweepStatus::Hit {
                    // Faces toward a solid neighbour are not hit.
                    let n = s.normal;
                    let fx = n.x != 0.0 && !map.is_solid(tile + IVec2::new(n.x.signum() as i32, 0));
                    let fy = n.y != 0.0 && !map.is_solid(tile + IVec2::new(0, n.y.signum() as i32));
                    if !(fx || fy) {
                        continue;
                    }
                }
                // The earliest contact, and the earliest hit behind an earliest overlap.
                if first.is_none_or(|(t, _, _)| s.t < t) {
                    let old = first.replace((s.t, tile, s.status));
                    if s.status == SweepStatus::Hit {
                        hit = None;
                    } else if old.is_some_and(|o| o.2 == SweepStatus::Hit) {
                        hit = old;
                    }
                } else if s.status == SweepStatus::Hit
                    && first.is_some_and(|f| f.2 != SweepStatus::Hit)
                    && hit.is_none_or(|(t, _, _)| s.t < t)
                {
                    hit = Some((s.t, tile, s.status));
                }
            }
        }
        for (t, tile, status) in [first, hit].into_iter().flatten() {
            events.push((t.to_bits(), 1, i, 0, status, tile));
        }
    }
    // Pairs before walls at one time (as documented), then input order.
    events.sort_by_key(|e| (e.0, e.1, e.2, e.3, e.5.y, e.5.x));
    let mut end = vec![f32::INFINITY; n];
    let mut out = Brute {
        walls: Vec::new(),
        destroyed: Vec::new(),
        pairs: Vec::new(),
    };
    let respond = |end: &mut Vec<f32>, out: &mut Brute, i: usize, t: f32, status| {
        if end[i] != f32::INFINITY {
            return;
        }
        match response(i) {
            Response::Stop if status == SweepStatus::Hit => end[i] = t,
            Response::Destroy => {
                end[i] = t;
                out.destroyed.push(data(i));
            }
            _ => {}
        }
    };
    for (tb, kind, i, j, status, tile) in events {
        let t = f32::from_bits(tb);
        if kind == 0 {
            if end[i] < t || end[j] < t {
                continue;
            }
            let (a, b) = (data(i), data(j));
            out.pairs.push((a.min(b), a.max(b), tb));
            respond(&mut end, &mut out, i, t, status);
            respond(&mut end, &mut out, j, t, status);
        } else {
            if end[i] < t {
                continue;
            }
            out.walls.push((data(i), tile, tb));
            respond(&mut end, &mut out, i, t, status);
        }
    }
    // Wall hits in dense order; pairs and destroyed sorted.
    out.walls
        .sort_by_key(|w| ((0..n).find(|&i| data(i) == w.0), w.2));
    out.pairs.sort_unstable();
    out.destroyed.sort_unstable();
    out
}

/// A static level gives the moving boxes what the same boxes standing still in the
/// moving store give them: the same first hits, the same destroyed, the same final
/// shapes, on random scenes with every kind of shape and response, over 1 and 2
/// threads. (The store path is checked against brute force above.) The two differ
/// only on exact touches, which random coordinates do not make: a static box is level
/// geometry, where touching is not entering, and a store box counts a touch.
#[test]
fn a_static_level_acts_as_the_same_boxes_standing_in_the_store() {
    let mut rng = Rng::new(0x57a7);
    let mut compared = 0;
    for round in 0..60 {
        let mut statics = BoxStore::new();
        let mut movers = BoxStore::new();
        for k in 0..300u64 {
            let c = Vec2::new(rng.range_f32(0.0, 200.0), rng.range_f32(0.0, 200.0));
            let shape: Shape = match rng.below(3) {
                0 => Circle::new(c, rng.range_f32(0.5, 4.0)).into(),
                1 => Obb2::from_angle(c, Vec2::new(rng.range_f32(0.5, 5.0), 1.0), k as f32).into(),
                _ => Aabb::from_center_half_extents(c, Vec2::splat(rng.range_f32(0.5, 4.0))).into(),
            };
            let filter = [layers::wall(), layers::enemy()][rng.below(2) as usize];
            statics
                .insert_shape(shape, BoxProps::new(filter).with_user_data(1000 + k))
                .unwrap();
        }
        for k in 0..400u64 {
            let c = Vec2::new(rng.range_f32(0.0, 200.0), rng.range_f32(0.0, 200.0));
            let shape: Shape = if rng.below(2) == 0 {
                Circle::new(c, rng.range_f32(0.2, 1.5)).into()
            } else {
                Aabb::from_center_half_extents(c, Vec2::splat(rng.range_f32(0.2, 1.5))).into()
            };
            let v = Vec2::from_angle(rng.range_f32(0.0, core::f32::consts::TAU))
                * rng.range_f32(0.0, 20.0);
            let response =
                [Response::Pass, Response::Stop, Response::Destroy][rng.below(3) as usize];
            let filter = [layers::enemy_bullet(), layers::player_bullet()][rng.below(2) as usize];
            movers
                .insert_shape(shape, props(filter, v, response, k))
                .unwrap();
        }
        // The same statics appended to the moving store, standing still.
        let mut together = movers.clone();
        for (h, _) in statics.iter() {
            let p = statics.props(h).unwrap();
            together.insert_shape(statics.shape(h).unwrap(), p).unwrap();
        }
        let level = StaticLevel::new(statics).unwrap();
        let threads = 1 + round % 2;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let config = FrameConfig {
            parallel_threshold: 0,
            parallel: threads > 1,
            ..FrameConfig::default()
        };
        let (mut a, mut b) = (Frame::with_config(config), Frame::with_config(config));
        let handles = movers.handles().to_vec();
        pool.install(|| {
            a.advance(&mut movers, &Level::none().with_statics(&level))
                .unwrap();
            b.advance(&mut together, &Level::none()).unwrap();
        });
        let (ra, rb) = (a.report(), b.report());
        let data = |d: &[hantei::frame::Destroyed]| {
            let mut v: Vec<_> = d.iter().map(|d| (d.user_data, d.toi.to_bits())).collect();
            v.sort_unstable();
            v
        };
        assert_eq!(data(ra.destroyed), data(rb.destroyed), "round {round}");
        for &h in &handles {
            assert_eq!(
                movers.shape(h),
                together.shape(h),
                "round {round}: {h:?} {:?} {:?}",
                ra.hits_of(Body::Box(h)),
                rb.hits_of(Body::Box(h))
            );
            // The first hit: the same time and the same other side.
            let first = |r: &hantei::frame::FrameReport<'_>| {
                r.hits_of(Body::Box(h)).first().map(|x| {
                    let other = match x.other {
                        HitOther::Static { user_data, .. } => user_data,
                        HitOther::Body { user_data, .. } => user_data,
                        HitOther::Wall { .. } => unreachable!(),
                    };
                    (x.toi.to_bits(), x.status, other)
                })
            };
            let (fa, fb) = (first(&ra), first(&rb));
            if fb.is_some_and(|(_, _, o)| o >= 1000) || fa.is_some_and(|(_, _, o)| o >= 1000) {
                // Ties at one time may name either side of the tie: compare times.
                assert_eq!(fa.map(|x| x.0), fb.map(|x| x.0), "round {round}: {h:?}");
                compared += 1;
            }
        }
        assert!(
            ra.static_hits.len() <= 2 * handles.len(),
            "at most two per box"
        );
    }
    assert!(
        compared > 2000,
        "only {compared} static first hits compared"
    );
}

/// A box sliding flush along a floor (no contact with it: touching solid geometry is
/// not entering it) into a wall ahead stops at the wall, whether the floor and the
/// wall are tiles or static boxes.
#[test]
fn a_box_sliding_along_a_floor_stops_at_the_wall_ahead() {
    let map = TileMap::from_ascii(
        "
        .......#
        ########",
        Vec2::splat(10.0),
        Vec2::ZERO,
    )
    .unwrap();
    let all = Filter::new(u32::MAX, u32::MAX);
    let body = Aabb::from_coords(2.0, 7.0, 5.0, 10.0); // resting on the floor (y = 10)
    let mut store = BoxStore::new();
    let h = store
        .insert_with(body, props(all, Vec2::new(100.0, 0.0), Response::Stop, 1))
        .unwrap();
    let level = Level {
        walls: Some(&map),
        wall_filter: all,
        statics: None,
    };
    let mut frame = Frame::new();
    frame.advance(&mut store, &level).unwrap();
    assert_eq!(
        store.get(h).unwrap().max.x,
        70.0,
        "flush against the wall tile"
    );
    let w = frame.report().wall_hits;
    assert_eq!(
        w.len(),
        1,
        "the wall hit, and no contact with the floor: {w:?}"
    );
    assert_eq!(
        (w[0].tile, w[0].status),
        (IVec2::new(7, 0), SweepStatus::Hit)
    );

    // The same floor and wall as static boxes.
    let mut statics = BoxStore::new();
    for b in [
        Aabb::from_coords(0.0, 10.0, 80.0, 20.0),
        Aabb::from_coords(70.0, 0.0, 80.0, 10.0),
    ] {
        statics.insert_with(b, BoxProps::new(all)).unwrap();
    }
    let statics = StaticLevel::new(statics).unwrap();
    let mut store = BoxStore::new();
    let h = store
        .insert_with(body, props(all, Vec2::new(100.0, 0.0), Response::Stop, 1))
        .unwrap();
    frame
        .advance(&mut store, &Level::none().with_statics(&statics))
        .unwrap();
    assert_eq!(
        store.get(h).unwrap().max.x,
        70.0,
        "flush against the static wall"
    );
    assert_eq!(
        frame.report().static_hits.len(),
        1,
        "the wall, not the floor"
    );
}
