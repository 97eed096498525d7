//! Responses as a game uses them: solid and sensor layers, `Response::Slide`, and the
//! touching rule that walls follow in every API.

use glam::{IVec2, Vec2};
use hantei::frame::{Frame, FrameConfig, HitOther, Level, StaticLevel, layers};
use hantei::narrow::SweepStatus;
use hantei::rng::Rng;
use hantei::tilemap::{EMPTY, TileMap};
use hantei::{Aabb, BoxProps, BoxStore, Circle, Filter, Response, SimdLevel};

fn props(filter: Filter, motion: Vec2, response: Response) -> BoxProps {
    BoxProps::new(filter)
        .with_motion(motion)
        .with_response(response)
}

/// Every frame configuration the determinism promise covers.
fn frames() -> Vec<Frame> {
    let mut out = Vec::new();
    for &simd in SimdLevel::available() {
        for parallel in [false, true] {
            out.push(Frame::with_config(FrameConfig {
                simd,
                parallel,
                parallel_threshold: 0,
                ..FrameConfig::default()
            }));
        }
    }
    out
}

/// The case: a player that stops at walls is not halted by a bullet. The
/// bullet is destroyed, the contact is reported, and the player moves the whole way.
#[test]
fn a_bullet_is_a_sensor_contact_for_the_player() {
    for response in [Response::Stop, Response::Slide] {
        let mut store = BoxStore::new();
        let player = store
            .insert_with(
                Aabb::from_coords(0.0, 0.0, 4.0, 4.0),
                props(layers::player(), Vec2::new(10.0, 0.0), response),
            )
            .unwrap();
        let bullet = store
            .insert_shape(
                Circle::new(Vec2::new(8.0, -6.0), 1.0),
                props(
                    layers::enemy_bullet(),
                    Vec2::new(0.0, 12.0),
                    Response::Destroy,
                ),
            )
            .unwrap();
        let mut frame = Frame::new();
        let summary = frame.advance(&mut store, &Level::none()).unwrap();
        assert_eq!(
            (summary.contacts, summary.destroyed, summary.stopped),
            (1, 1, 0)
        );
        assert_eq!(
            store.get(player).unwrap(),
            Aabb::from_coords(10.0, 0.0, 14.0, 4.0),
            "{response:?}: the player moved the whole way"
        );
        assert!(!store.contains(bullet), "the bullet responds to the player");
    }
}

/// A box's own solid mask decides, whatever the other side's response.
#[test]
fn solid_layers_choose_what_stops_a_box() {
    const A: u32 = 1;
    const B: u32 = 2;
    const C: u32 = 4;
    for (solid, stops) in [(B | C, true), (C, false), (0, false)] {
        let mut store = BoxStore::new();
        let mover = store
            .insert_with(
                Aabb::from_coords(0.0, 0.0, 2.0, 2.0),
                props(
                    Filter::new(A, B | C).with_solid(solid),
                    Vec2::new(10.0, 0.0),
                    Response::Stop,
                ),
            )
            .unwrap();
        store
            .insert_with(
                Aabb::from_coords(5.0, -1.0, 6.0, 3.0),
                props(Filter::new(B, A), Vec2::ZERO, Response::Pass),
            )
            .unwrap();
        let mut frame = Frame::new();
        let summary = frame.advance(&mut store, &Level::none()).unwrap();
        assert_eq!(summary.contacts, 1, "reported either way");
        let end = store.get(mover).unwrap();
        if stops {
            assert_eq!(end.max.x, 5.0);
        } else {
            assert_eq!(end.min.x, 10.0, "solid {solid:#b}: a sensor contact");
        }
    }
}

/// Walls stop what the presets say: every moving preset layer.
#[test]
fn walls_stop_every_preset_layer() {
    // The case: an enemy from x 20 toward x 50 through the wall tile at 40..50.
    let map = TileMap::from_ascii("....#....", Vec2::splat(10.0), Vec2::ZERO).unwrap();
    for (name, filter) in [
        ("player", layers::player()),
        ("enemy", layers::enemy()),
        ("player bullet", layers::player_bullet()),
        ("enemy bullet", layers::enemy_bullet()),
    ] {
        for response in [Response::Stop, Response::Slide] {
            let mut store = BoxStore::new();
            let h = store
                .insert_with(
                    Aabb::from_coords(20.0, 2.0, 26.0, 8.0),
                    props(filter, Vec2::new(30.0, 0.0), response),
                )
                .unwrap();
            let mut frame = Frame::new();
            frame.advance(&mut store, &Level::walls(&map)).unwrap();
            assert_eq!(store.get(h).unwrap().max.x, 40.0, "{name} {response:?}");
            let w = frame.report().wall_hits;
            assert_eq!(w.len(), 1, "{name} {response:?}");
            assert_eq!(
                (w[0].tile, w[0].status, w[0].normal),
                (IVec2::new(4, 0), SweepStatus::Hit, Vec2::NEG_X)
            );
        }
        // A bullet with Destroy is removed at the wall.
        let mut store = BoxStore::new();
        store
            .insert_with(
                Aabb::from_coords(20.0, 2.0, 26.0, 8.0),
                props(filter, Vec2::new(30.0, 0.0), Response::Destroy),
            )
            .unwrap();
        let mut frame = Frame::new();
        let s = frame.advance(&mut store, &Level::walls(&map)).unwrap();
        assert_eq!(s.destroyed, 1, "{name}");
    }
}

/// The case: moving diagonally into a wall, `Slide` slides along it as
/// `TileMap::move_and_slide` does.
#[test]
fn slide_slides_along_a_wall_like_move_and_slide() {
    let map = TileMap::from_ascii(
        "
        .#
        .#
        .#",
        Vec2::splat(10.0),
        Vec2::ZERO,
    )
    .unwrap();
    let body = Aabb::from_coords(0.0, 0.0, 8.0, 8.0);
    let motion = Vec2::new(5.0, 5.0);
    let want = map.move_and_slide(body, motion).unwrap();
    assert_eq!(want.aabb, Aabb::from_coords(2.0, 5.0, 10.0, 13.0));
    let mut store = BoxStore::new();
    let h = store
        .insert_with(body, props(layers::player(), motion, Response::Slide))
        .unwrap();
    let mut frame = Frame::new();
    frame.advance(&mut store, &Level::walls(&map)).unwrap();
    assert_eq!(store.get(h).unwrap(), want.aabb);
    let w = frame.report().wall_hits;
    assert_eq!(w.len(), 1);
    assert_eq!(
        (w[0].tile, w[0].status, w[0].normal),
        (IVec2::new(1, 0), SweepStatus::Hit, Vec2::NEG_X)
    );
    assert_eq!(w[0].toi, 0.4, "two of the five units along x");

    // Next frame, flush against the wall and moving down along it: no contact.
    store.set_motion(h, Vec2::new(0.0, 5.0)).unwrap();
    frame.advance(&mut store, &Level::walls(&map)).unwrap();
    assert!(frame.report().wall_hits.is_empty());
    assert_eq!(
        store.get(h).unwrap(),
        Aabb::from_coords(2.0, 10.0, 10.0, 18.0)
    );
}

/// A random map: solid tiles one in `1/density`, the outside sometimes solid.
fn random_map(rng: &mut Rng, density: u32) -> TileMap {
    let (w, h) = (1 + rng.below(12), 1 + rng.below(12));
    let cells: Vec<u8> = (0..w * h)
        .map(|_| if rng.below(density) == 0 { 1 } else { EMPTY })
        .collect();
    let tile = Vec2::new(
        [1.0, 2.0, 8.0, 0.5][rng.below(4) as usize],
        [1.0, 2.0, 8.0, 0.5][rng.below(4) as usize],
    );
    let origin = Vec2::new(rng.below(9) as f32 - 4.0, rng.below(9) as f32 - 4.0);
    let map = TileMap::from_cells(w, h, cells, tile, origin).unwrap();
    if rng.below(2) == 0 {
        map.with_outside(1)
    } else {
        map
    }
}

/// A random box in or near `map`, often with faces on tile edges (flush), and a motion
/// from still to many tiles, often along one axis only.
fn random_body(rng: &mut Rng, map: &TileMap) -> (Aabb, Vec2) {
    let b = map.bounds();
    let t = map.tile_size();
    let coord = |rng: &mut Rng, a: usize| {
        let cells = ((b.max[a] - b.min[a]) / t[a]) as u32 + 3;
        let k = rng.below(cells) as f32 - 1.0;
        if rng.below(2) == 0 {
            b.min[a] + k * t[a] // on a tile edge
        } else {
            b.min[a] + (k + rng.below(1000) as f32 / 1000.0) * t[a]
        }
    };
    let (x0, y0) = (coord(rng, 0), coord(rng, 1));
    let size = |rng: &mut Rng, a: usize| match rng.below(4) {
        0 => t[a],
        1 => 0.0,
        _ => t[a] * (rng.below(300) as f32 / 100.0),
    };
    let body = Aabb::from_coords(x0, y0, x0 + size(rng, 0), y0 + size(rng, 1));
    let component = |rng: &mut Rng, a: usize| match rng.below(5) {
        0 => 0.0,
        1 => t[a] * (rng.below(7) as f32 - 3.0),
        _ => t[a] * (rng.below(2000) as f32 / 100.0 - 10.0),
    };
    (body, Vec2::new(component(rng, 0), component(rng, 1)))
}

/// `Slide` against walls alone ends where `TileMap::move_and_slide` puts each box, bit
/// for bit, and reports the tiles that stopped it, on every configuration.
#[test]
fn slide_matches_move_and_slide_on_random_maps() {
    let mut rng = Rng::new(0x511d3);
    let mut compared = 0;
    let mut stopped_by_a_tile = 0;
    for _ in 0..300 {
        let density = 1 + rng.below(4);
        let map = random_map(&mut rng, density);
        let bodies: Vec<(Aabb, Vec2)> = (0..1 + rng.below(6))
            .map(|_| random_body(&mut rng, &map))
            .collect();
        let mut store = BoxStore::new();
        let handles: Vec<_> = bodies
            .iter()
            .map(|&(b, m)| {
                // Players do not pair with players: each slides on the walls alone.
                store
                    .insert_with(b, props(layers::player(), m, Response::Slide))
                    .unwrap()
            })
            .collect();
        for mut frame in frames() {
            let mut s = store.clone();
            frame.advance(&mut s, &Level::walls(&map)).unwrap();
            let walls = frame.report().wall_hits;
            for (&h, &(b, m)) in handles.iter().zip(&bodies) {
                let want = map.move_and_slide(b, m).unwrap();
                let got = s.get(h).unwrap();
                assert_eq!(got, want.aabb, "{b:?} moving {m:?} on {:?}", map.bounds());
                let mine: Vec<_> = walls.iter().filter(|w| w.handle == h).collect();
                let tiles: Vec<IVec2> = [want.hit_x, want.hit_y]
                    .into_iter()
                    .flatten()
                    .map(|t| t.tile)
                    .collect();
                assert_eq!(
                    mine.iter().map(|w| w.tile).collect::<Vec<_>>(),
                    tiles,
                    "{b:?} moving {m:?}"
                );
                stopped_by_a_tile += tiles.len();
                compared += 1;
            }
        }
    }
    assert!(
        compared > 1000 && stopped_by_a_tile > 200,
        "{compared} {stopped_by_a_tile}"
    );
}

/// One touching rule for a tile map: a box that `advance` stops at a wall is stopped
/// by `TileMap::cast` at the same time and face, and a box `cast` lets through (flush
/// along a wall, say) has no wall contact in `advance`.
#[test]
fn advance_and_cast_agree_on_when_a_box_meets_a_wall() {
    let mut rng = Rng::new(0x7a11);
    let (mut hits, mut free) = (0, 0);
    for _ in 0..1500 {
        let density = 2 + rng.below(4);
        let map = random_map(&mut rng, density);
        let (body, motion) = random_body(&mut rng, &map);
        // Boxes that start inside a solid tile are another matter (overlaps): inside
        // one tile, or on a seam between two (the cast's embedded hit).
        let cast = map.cast(body, motion).unwrap();
        let (t, o) = (map.tile_size(), map.bounds().min);
        let lo = ((body.min - o) / t).floor().as_ivec2() - IVec2::ONE;
        let hi = ((body.max - o) / t).ceil().as_ivec2() + IVec2::ONE;
        let inside = (lo.y..=hi.y)
            .flat_map(|y| (lo.x..=hi.x).map(move |x| IVec2::new(x, y)))
            .any(|c| {
                let tb = map.tile_aabb(c);
                map.is_solid(c)
                    && body.min.x < tb.max.x
                    && tb.min.x < body.max.x
                    && body.min.y < tb.max.y
                    && tb.min.y < body.max.y
            });
        // Zero-size boxes meet the tile map as the interior of the union of its solid
        // tiles (a segment on a seam between two solid tiles is inside), and `advance`
        // meets each tile on its own: they are left out here.
        let flat = body.min.x == body.max.x || body.min.y == body.max.y;
        if inside || flat || cast.hit.is_some_and(|h| h.embedded) {
            continue;
        }
        let mut store = BoxStore::new();
        let h = store
            .insert_with(body, props(layers::player_bullet(), motion, Response::Stop))
            .unwrap();
        let mut frame = Frame::new();
        frame.advance(&mut store, &Level::walls(&map)).unwrap();
        let w = frame.report().wall_hits;
        match cast.hit {
            None => {
                assert!(
                    w.is_empty(),
                    "{body:?} moving {motion:?}: {w:?}, cast {cast:?}"
                );
                assert_eq!(store.get(h).unwrap(), body.translated(motion));
                free += 1;
            }
            Some(t) => {
                assert_eq!(w.len(), 1, "{body:?} moving {motion:?}: cast {cast:?}");
                assert_eq!(
                    w[0].status,
                    SweepStatus::Hit,
                    "{body:?} moving {motion:?} on {:?} outside {}: {w:?}, cast {cast:?}",
                    map.bounds(),
                    map.outside()
                );
                let got = store.get(h).unwrap();
                if w[0].tile != t.tile {
                    // Two tiles met at one time: either is the first contact. The box
                    // stops at that time either way.
                    assert_eq!(
                        w[0].toi, cast.toi,
                        "{body:?} moving {motion:?}: {w:?} {cast:?}"
                    );
                    let near = |x: f32, y: f32| (x - y).abs() <= 1e-4 * (1.0 + x.abs());
                    assert!(
                        near(got.min.x, cast.aabb.min.x) && near(got.min.y, cast.aabb.min.y),
                        "{body:?} moving {motion:?}: {got:?}, cast {cast:?}"
                    );
                    hits += 1;
                    continue;
                }
                // The same face, but at an exact corner, where either face is right.
                let tile = map.tile_aabb(w[0].tile);
                let touches = |a: usize| got.max[a] == tile.min[a] || got.min[a] == tile.max[a];
                let a = if touches(0) && touches(1) {
                    (0..2).find(|&a| w[0].normal[a] != 0.0).unwrap()
                } else {
                    t.edge.axis()
                };
                assert_ne!(w[0].normal[a], 0.0, "the same face: {w:?} {cast:?}");
                let tol = 1e-5 * (1.0 + motion.length());
                assert!(
                    (w[0].toi - cast.toi).abs() <= tol,
                    "{body:?} moving {motion:?} on {:?}: {w:?} {cast:?}",
                    map.bounds()
                );
                // Stopped flush on that face, where the cast stops.
                let (g, c) = if motion[a] > 0.0 {
                    (got.max[a], cast.aabb.max[a])
                } else {
                    (got.min[a], cast.aabb.min[a])
                };
                assert_eq!(g, c, "{body:?} moving {motion:?}: {got:?}, cast {cast:?}");
                hits += 1;
            }
        }
    }
    assert!(hits > 100 && free > 100, "{hits} hits, {free} free");
}

/// A sliding box stops on static boxes and on solid boxes of the store, where the
/// frame leaves them: a player rides a moving platform and lands on a pillar.
#[test]
fn slide_stops_on_statics_and_on_solid_boxes() {
    const PLATFORM: u32 = 1 << 5;
    let player_filter =
        Filter::new(layers::PLAYER, layers::WALL | PLATFORM).with_solid(layers::WALL | PLATFORM);
    // A pillar from x 30 to 40, top at y 50 (y points down).
    let mut pillars = BoxStore::new();
    pillars
        .insert_with(
            Aabb::from_coords(30.0, 50.0, 40.0, 100.0),
            BoxProps::new(layers::wall()).with_user_data(7),
        )
        .unwrap();
    let statics = StaticLevel::new(pillars).unwrap();
    let level = Level::none().with_statics(&statics);

    let mut store = BoxStore::new();
    let platform = store
        .insert_with(
            Aabb::from_coords(0.0, 20.0, 20.0, 24.0),
            props(
                Filter::new(PLATFORM, layers::PLAYER),
                Vec2::new(2.0, 0.0),
                Response::Pass,
            ),
        )
        .unwrap();
    // Standing on the platform; gravity 3 a frame, carried by the platform's 2.
    let player = store
        .insert_with(
            Aabb::from_coords(5.0, 16.0, 9.0, 20.0),
            props(player_filter, Vec2::new(2.0, 3.0), Response::Slide),
        )
        .unwrap();
    let mut frame = Frame::new();
    for _ in 0..5 {
        frame.advance(&mut store, &level).unwrap();
        let p = store.get(platform).unwrap();
        let me = store.get(player).unwrap();
        assert_eq!(me.max.y, p.min.y, "riding on the platform");
    }
    assert_eq!(store.get(player).unwrap().min.x, 15.0);

    // Off the platform, falling onto the pillar from above.
    store.remove(platform).unwrap();
    store
        .update(player, Aabb::from_coords(32.0, 40.0, 36.0, 44.0))
        .unwrap();
    store.set_motion(player, Vec2::new(1.0, 10.0)).unwrap();
    frame.advance(&mut store, &level).unwrap();
    assert_eq!(
        store.get(player).unwrap(),
        Aabb::from_coords(33.0, 46.0, 37.0, 50.0),
        "landed flush on the pillar"
    );
    let hits = frame.report().static_hits;
    assert_eq!(hits.len(), 1);
    assert_eq!(
        (hits[0].static_user_data, hits[0].status, hits[0].normal),
        (7, SweepStatus::Hit, Vec2::NEG_Y)
    );
    let mine = frame
        .report()
        .hits_of(hantei::frame::Body::Box(player))
        .to_vec();
    assert!(matches!(
        mine[0].other,
        HitOther::Static { user_data: 7, .. }
    ));
}
