//! Capsules as a shape kind: in the frame (`step` and `advance`) against every kind,
//! equal to the all-pairs scalar oracle at every SIMD level and on 1, 2 and 4 threads;
//! against walls and static boxes; in the store (insert, update, remove, serde) and in
//! the queries.

use crate::frame_oracle::{all_pairs, bits, frames};
use glam::{IVec2, Vec2};
use hantei::frame::{Contact, Frame, Level, StaticLevel, layers};
use hantei::narrow::SweepStatus;
use hantei::narrow::scalar::sweep_shapes;
use hantei::rng::Rng;
use hantei::tilemap::TileMap;
use hantei::{
    Aabb, BoxProps, BoxStore, Capsule, Circle, ContactPoint, Error, Filter, Obb2, Owner, Ray,
    Response, Shape, ShapeKind,
};

fn props(filter: Filter, owner: Owner, motion: Vec2) -> BoxProps {
    BoxProps {
        filter,
        owner,
        motion,
        ..BoxProps::default()
    }
}

/// A random capsule around `c`: a segment up to `len` long, radius in `[0, r)` (a few
/// plain segments of radius 0).
fn capsule(rng: &mut Rng, c: Vec2, len: f32, r: f32) -> Capsule {
    let half = Vec2::from_angle(rng.range_f32(-3.2, 3.2)) * rng.range_f32(0.0, len) * 0.5;
    let radius = if rng.below(8) == 0 {
        0.0
    } else {
        rng.range_f32(0.0, r)
    };
    Capsule::new(c - half, c + half, radius)
}

/// Seeded scenes of every kind, capsules the most common, with motions, owners and
/// layers.
fn scene(n: usize, seed: u64) -> BoxStore {
    let mut rng = Rng::new(seed);
    let mut store = BoxStore::new();
    let filters = layers::PRESETS;
    let side = (n as f32).sqrt() * 8.0;
    for _ in 0..n {
        let c = Vec2::new(rng.range_f32(0.0, 1.5 * side), rng.range_f32(0.0, side));
        let size = Vec2::new(rng.range_f32(0.5, 6.0), rng.range_f32(0.5, 6.0));
        let shape = match rng.below(5) {
            0 => Shape::Aabb(Aabb::from_center_half_extents(c, size)),
            1 => Shape::Circle(Circle::new(c, size.x)),
            2 => Shape::Obb2(Obb2::from_angle(c, size, rng.range_f32(-3.2, 3.2))),
            _ => Shape::Capsule(capsule(&mut rng, c, 16.0, 3.0)),
        };
        let motion = Vec2::new(rng.range_f32(-30.0, 30.0), rng.range_f32(-30.0, 30.0));
        let owner = if rng.below(4) == 0 {
            Owner(u64::from(rng.below(20)))
        } else {
            Owner::NONE
        };
        let filter = filters[rng.below(filters.len() as u32) as usize];
        store
            .insert_shape(shape, props(filter, owner, motion))
            .expect("a valid shape");
    }
    store
}

/// `contacts` with their points cleared: the oracle leaves them out
/// (tests/contact_points.rs checks them).
fn without_points(contacts: Vec<Contact>) -> Vec<Contact> {
    let clear = |c: Contact| Contact {
        point: ContactPoint::default(),
        ..c
    };
    contacts.into_iter().map(clear).collect()
}

/// The capsule pairs the oracle's contacts cover.
fn capsule_pairs(store: &BoxStore, want: &[Contact]) -> std::collections::BTreeSet<ShapeKind> {
    let mut kinds = std::collections::BTreeSet::new();
    for c in want {
        let k = |h| store.shape(h).unwrap().kind();
        let (a, b) = (k(c.boxes.0), k(c.boxes.1));
        if a == ShapeKind::Capsule {
            kinds.insert(b);
        } else if b == ShapeKind::Capsule {
            kinds.insert(a);
        }
    }
    kinds
}

#[test]
fn capsule_pairs_of_every_kind_match_the_oracle_in_step() -> Result<(), Error> {
    for (n, seed) in [(40, 11), (400, 12), (3000, 13)] {
        let store = scene(n, seed);
        let want = all_pairs(&store);
        assert!(want.len() > n / 20, "n={n}: {} contacts", want.len());
        if n >= 400 {
            assert_eq!(capsule_pairs(&store, &want).len(), 4, "n={n}");
        }
        for (frame, pool, what) in &mut frames() {
            let got = pool.install(|| frame.step(&store).map(|r| r.contacts.to_vec()))?;
            assert_eq!(bits(&got), bits(&want), "n={n} {what}");
            assert_eq!(without_points(got), want, "n={n} {what}");
        }
    }
    Ok(())
}

/// `advance` with every box passing through: the same contacts as the oracle, and every
/// shape moved by its motion exactly as `Shape::translated` moves it; twice in a row.
#[test]
fn capsule_pairs_of_every_kind_match_the_oracle_in_advance() -> Result<(), Error> {
    for (n, seed) in [(60, 21), (1500, 22)] {
        let start = scene(n, seed);
        let mut runs = frames();
        let mut stores: Vec<BoxStore> = runs.iter().map(|_| start.clone()).collect();
        let mut model = start.clone();
        for step in 0..2 {
            let want = all_pairs(&model);
            if n >= 1500 {
                assert_eq!(capsule_pairs(&model, &want).len(), 4, "n={n}");
            }
            for ((frame, pool, what), store) in runs.iter_mut().zip(&mut stores) {
                pool.install(|| frame.advance(store, &Level::none()))?;
                let got = frame.report().contacts.to_vec();
                assert_eq!(bits(&got), bits(&want), "n={n} step {step} {what}");
            }
            for h in model.handles().to_vec() {
                let m = model.props(h).unwrap().motion;
                let moved = model.shape(h).unwrap().translated(m);
                model.update_shape(h, moved)?;
            }
            for ((_, _, what), store) in runs.iter().zip(&stores) {
                for &h in model.handles() {
                    assert_eq!(store.shape(h), model.shape(h), "{what} {h:?}");
                    assert_eq!(store.get(h), model.get(h), "{what} {h:?}");
                }
            }
        }
    }
    Ok(())
}

/// A fast thin capsule never tunnels through a thin laser capsule, at any angle and
/// speed, in the frame.
#[test]
fn a_fast_capsule_never_tunnels_through_a_laser() -> Result<(), Error> {
    let mut rng = Rng::new(0xca75);
    let mut frame = Frame::new();
    for k in 0..400 {
        let mut store = BoxStore::new();
        let dir = Vec2::from_angle(rng.range_f32(0.0, core::f32::consts::PI));
        let centre = Vec2::new(3.0, -2.0);
        let laser = Capsule::new(centre - dir * 60.0, centre + dir * 60.0, 0.0);
        store.insert_shape(laser, props(layers::enemy_bullet(), Owner(9), Vec2::ZERO))?;
        let across = Vec2::from_angle(rng.range_f32(-1.0, 1.0)).rotate(dir.perp());
        let speed = 10f32.powf(rng.range_f32(1.0, 4.0));
        let start =
            centre + dir * rng.range_f32(-20.0, 20.0) - across * speed * rng.range_f32(0.2, 0.8);
        let bullet = capsule(&mut rng, start, 2.0, 0.2);
        let b = store.insert_shape(bullet, props(layers::player(), Owner::NONE, across * speed))?;
        let report = frame.step(&store)?;
        assert_eq!(
            report.contacts.len(),
            1,
            "{k}: {laser:?} {bullet:?} {speed}"
        );
        let c = report.contacts[0];
        assert_eq!((c.status, c.boxes.1), (SweepStatus::Hit, b), "{k}");
        assert!(c.toi > 0.0 && c.toi < 1.0, "{k}");
        frame.reset_events();
    }
    Ok(())
}

/// A capsule bullet hits a wall tile on its face, at the time its rounded end reaches
/// it, and is destroyed there; a capsule resting flush on the floor slides along it
/// without a hit and stops flush when it moves into it.
#[test]
fn capsules_hit_walls_by_the_touching_rule() -> Result<(), Error> {
    let map = TileMap::from_ascii("..........#", Vec2::splat(10.0), Vec2::ZERO)?;
    let mut store = BoxStore::new();
    let bullet = store.insert_shape(
        Capsule::new(Vec2::new(2.0, 5.0), Vec2::new(5.0, 5.0), 1.0),
        BoxProps {
            response: Response::Destroy,
            user_data: 7,
            ..props(layers::enemy_bullet(), Owner::NONE, Vec2::new(200.0, 0.0))
        },
    )?;
    let mut frame = Frame::new();
    let s = frame.advance(&mut store, &Level::walls(&map))?;
    assert_eq!((s.contacts, s.destroyed, s.wall_hits), (0, 1, 1));
    let w = frame.report().wall_hits[0];
    assert_eq!((w.handle, w.user_data), (bullet, 7));
    assert_eq!(
        (w.tile, w.status, w.normal),
        (IVec2::new(10, 0), SweepStatus::Hit, Vec2::NEG_X)
    );
    assert_eq!(w.toi, 94.0 / 200.0);
    assert!(!store.contains(bullet));

    let floor = TileMap::from_ascii(
        "..........
        ##########",
        Vec2::splat(10.0),
        Vec2::ZERO,
    )?;
    let everything = Filter::new(u32::MAX, u32::MAX);
    let level = Level {
        walls: Some(&floor),
        wall_filter: everything,
        statics: None,
    };
    for (motion, want) in [
        (Vec2::new(15.0, 0.0), None),                   // sliding along
        (Vec2::new(0.0, -3.0), None),                   // moving away
        (Vec2::new(15.0, 3.0), Some(SweepStatus::Hit)), // into it while flush
        (Vec2::new(0.0, 1e5), Some(SweepStatus::Hit)),  // very fast into it
    ] {
        // A lying capsule whose underside rests on the floor (its bottom at y = 10).
        let mut store = BoxStore::new();
        let cap = Capsule::new(Vec2::new(2.0, 8.0), Vec2::new(6.0, 8.0), 2.0);
        let h = store.insert_shape(
            cap,
            BoxProps {
                response: Response::Stop,
                ..props(everything, Owner::NONE, motion)
            },
        )?;
        let mut frame = Frame::new();
        frame.advance(&mut store, &level)?;
        let w = frame.report().wall_hits;
        let Some(Shape::Capsule(end)) = store.shape(h) else {
            panic!("still a capsule");
        };
        match want {
            None => {
                // No entering hit. (Sliding along the floor, the capsule's flat side
                // grazes the next tile's top face: a hit with the floor's normal at the
                // time it reaches that tile, as for any rounded shape; it stops there.)
                assert!(
                    w.iter().all(|w| w.normal == Vec2::NEG_Y),
                    "{motion:?}: {w:?}"
                );
                assert!(end.a.y + end.radius <= 10.0, "{motion:?}: {end:?}");
                assert!(end.b.y + end.radius <= 10.0, "{motion:?}: {end:?}");
            }
            Some(status) => {
                assert_eq!(w.len(), 1, "{motion:?}");
                assert_eq!((w[0].status, w[0].toi), (status, 0.0), "{motion:?}");
                assert_eq!(w[0].normal, Vec2::NEG_Y);
                // Stopped flush: its underside still on the floor, never inside.
                assert!(end.a.y + end.radius <= 10.0, "{motion:?}: {end:?}");
            }
        }
    }
    Ok(())
}

/// Capsules against a static level of boxes, discs, rectangles and capsules: each moving
/// capsule's static hit is the earliest of the scalar sweeps against every static
/// shape, and `Stop` leaves it short of all of them.
#[test]
fn capsules_hit_statics_of_every_kind() -> Result<(), Error> {
    let mut rng = Rng::new(0x57a7);
    for round in 0..40 {
        let mut statics = BoxStore::new();
        for _ in 0..24 {
            let c = Vec2::new(rng.range_f32(0.0, 200.0), rng.range_f32(0.0, 200.0));
            let size = Vec2::new(rng.range_f32(1.0, 8.0), rng.range_f32(1.0, 8.0));
            let shape = match rng.below(4) {
                0 => Shape::Aabb(Aabb::from_center_half_extents(c, size)),
                1 => Shape::Circle(Circle::new(c, size.x)),
                2 => Shape::Obb2(Obb2::from_angle(c, size, rng.range_f32(-3.2, 3.2))),
                _ => Shape::Capsule(capsule(&mut rng, c, 20.0, 3.0)),
            };
            statics.insert_shape(shape, props(Filter::ALL, Owner::NONE, Vec2::ZERO))?;
        }
        let level_statics = StaticLevel::new(statics.clone())?;
        let level = Level {
            walls: None,
            wall_filter: layers::wall(),
            statics: Some(&level_statics),
        };
        let mut store = BoxStore::new();
        let mut moving = Vec::new();
        for _ in 0..16 {
            let c = Vec2::new(rng.range_f32(0.0, 200.0), rng.range_f32(0.0, 200.0));
            let m = Vec2::new(rng.range_f32(-80.0, 80.0), rng.range_f32(-80.0, 80.0));
            let cap = capsule(&mut rng, c, 10.0, 2.0);
            let h = store.insert_shape(
                cap,
                BoxProps {
                    response: Response::Pass,
                    ..props(Filter::ALL, Owner::NONE, m)
                },
            )?;
            moving.push((h, cap, m));
        }
        let mut frame = Frame::new();
        frame.advance(&mut store, &level)?;
        let hits = frame.report().static_hits.to_vec();
        for &(h, cap, m) in &moving {
            // The earliest static contact by the scalar sweeps (ties: any of them).
            let mut best: Option<f32> = None;
            for k in 0..statics.len() {
                let other = statics.shape_at(k).unwrap();
                let b = statics.aabb_at(k).unwrap();
                if !Shape::Capsule(cap).bounds().swept(m).overlaps(&b) {
                    continue;
                }
                let s = sweep_shapes(&Shape::Capsule(cap), m, &other, Vec2::ZERO);
                let s = match other {
                    // Touching a static box is not entering it.
                    Shape::Aabb(_) if s.status == SweepStatus::Hit && s.t >= 1.0 => continue,
                    _ => s,
                };
                if s.status != SweepStatus::Miss {
                    best = Some(best.map_or(s.t, |t: f32| t.min(s.t)));
                }
            }
            let got: Vec<f32> = hits
                .iter()
                .filter(|x| x.handle == h)
                .map(|x| x.toi)
                .collect();
            match best {
                None => assert!(got.is_empty(), "{round}: {cap:?} {m:?} {got:?}"),
                Some(t) => {
                    let first = got.iter().copied().fold(f32::INFINITY, f32::min);
                    if !(first == t || (first - t).abs() <= 1e-6) {
                        // A static box the capsule only touches is left out (the
                        // touching rule): then nothing earlier may be reported.
                        assert!(first >= t, "{round}: {cap:?} {m:?} {got:?} want {t}");
                    }
                }
            }
        }
    }
    Ok(())
}

/// Insert, update (to and from other kinds), remove and `centers_into` keep every
/// capsule and its bounds; removals move the table's last capsule into the hole.
#[test]
fn store_round_trips_keep_capsules() -> Result<(), Error> {
    let mut rng = Rng::new(0x5702);
    let mut store = BoxStore::new();
    let mut model: Vec<(hantei::BoxHandle, Shape)> = Vec::new();
    for step in 0..3000 {
        match rng.below(6) {
            0..=2 => {
                let c = Vec2::new(rng.range_f32(-100.0, 100.0), rng.range_f32(-100.0, 100.0));
                let shape = match rng.below(3) {
                    0 => Shape::Circle(Circle::new(c, 1.0)),
                    _ => Shape::Capsule(capsule(&mut rng, c, 10.0, 2.0)),
                };
                let h = store.insert_shape(shape, BoxProps::default())?;
                model.push((h, shape));
            }
            3 if !model.is_empty() => {
                let k = rng.below(model.len() as u32) as usize;
                let c = Vec2::new(rng.range_f32(-100.0, 100.0), rng.range_f32(-100.0, 100.0));
                let shape = match rng.below(3) {
                    0 => Shape::Aabb(Aabb::from_center_half_extents(c, Vec2::ONE)),
                    1 => Shape::Obb2(Obb2::from_angle(c, Vec2::ONE, 0.3)),
                    _ => Shape::Capsule(capsule(&mut rng, c, 10.0, 2.0)),
                };
                store.update_shape(model[k].0, shape)?;
                model[k].1 = shape;
            }
            _ if !model.is_empty() => {
                let k = rng.below(model.len() as u32) as usize;
                let (h, shape) = model.swap_remove(k);
                assert_eq!(store.remove(h)?, shape.bounds());
            }
            _ => {}
        }
        assert_eq!(store.len(), model.len(), "{step}");
        if step % 100 == 0 || step == 2999 {
            let mut centers = Vec::new();
            store.centers_into(&mut centers);
            for &(h, shape) in &model {
                assert_eq!(store.shape(h), Some(shape), "{step}");
                assert_eq!(store.get(h), Some(shape.bounds()), "{step}");
                let i = store.index_of(h).unwrap();
                let want = match shape {
                    Shape::Capsule(c) => c.center(),
                    Shape::Circle(c) => c.center,
                    Shape::Obb2(o) => o.center,
                    Shape::Aabb(b) => b.center(),
                };
                assert_eq!(centers[i], want, "{step}");
            }
        }
    }
    // A capsule moves as a shape, never as new bounds.
    if let Some(&(h, Shape::Capsule(_))) =
        model.iter().find(|(_, s)| s.kind() == ShapeKind::Capsule)
    {
        assert!(matches!(
            store.update(h, Aabb::from_coords(0.0, 0.0, 1.0, 1.0)),
            Err(Error::InvalidShape { .. })
        ));
    }
    // Bad capsules are refused and change nothing.
    let before = store.clone();
    for bad in [
        Capsule::new(Vec2::ZERO, Vec2::X, -1.0),
        Capsule::new(Vec2::new(f32::NAN, 0.0), Vec2::X, 1.0),
        Capsule::new(Vec2::ZERO, Vec2::new(f32::INFINITY, 0.0), 1.0),
    ] {
        assert!(store.insert_shape(bad, BoxProps::default()).is_err());
    }
    assert_eq!(store.len(), before.len());
    Ok(())
}

/// Region, point, ray and shape queries answer by the capsule, not its bounds.
#[test]
fn queries_answer_by_the_capsule() -> Result<(), Error> {
    let mut store = BoxStore::new();
    // A diagonal laser: its bounds' corners are far outside it.
    let laser = Capsule::new(Vec2::new(0.0, 0.0), Vec2::new(20.0, 20.0), 1.0);
    let h = store.insert_shape(laser, BoxProps::default())?;
    let mut out = Vec::new();
    store.query_point(Vec2::new(10.0, 10.0), Filter::ALL, &mut out)?;
    assert_eq!(out, [h]);
    out.clear();
    store.query_point(Vec2::new(18.0, 2.0), Filter::ALL, &mut out)?;
    assert!(
        out.is_empty(),
        "a corner of the bounds, outside the capsule"
    );
    store.query_region(
        Aabb::from_coords(15.0, -1.0, 21.0, 4.0),
        Filter::ALL,
        &mut out,
    )?;
    assert!(out.is_empty());
    store.query_region(Aabb::from_coords(9.0, 9.0, 9.5, 9.5), Filter::ALL, &mut out)?;
    assert_eq!(out, [h]);
    // A ray from below the laser, straight up through (10, 10).
    let hit = store
        .ray_cast(
            Ray::new(Vec2::new(10.0, -10.0), Vec2::new(0.0, 40.0)),
            Filter::ALL,
        )?
        .unwrap();
    assert_eq!(hit.handle, h);
    let want = (20.0 - 2f32.sqrt()) / 40.0;
    assert!((hit.t - want).abs() < 1e-5, "{}", hit.t);
    assert!(hit.normal.y < 0.0 && hit.normal.x > 0.0);
    // A ray past the end of the segment misses.
    assert!(
        store
            .ray_cast(
                Ray::new(Vec2::new(25.0, -10.0), Vec2::new(0.0, 40.0)),
                Filter::ALL
            )?
            .is_none()
    );
    // A capsule cast: a short capsule falling onto a floor box hits it.
    let floor = store.insert(Aabb::from_coords(30.0, -5.0, 60.0, 0.0))?;
    let falling = Capsule::new(Vec2::new(40.0, 10.0), Vec2::new(44.0, 12.0), 1.0);
    let hit = store
        .shape_cast(falling, Vec2::new(0.0, -18.0), Filter::ALL)?
        .unwrap();
    assert_eq!(hit.handle, floor);
    assert!((hit.t - 0.5).abs() < 1e-6, "{}", hit.t);
    assert!((hit.normal - Vec2::Y).length() < 1e-6, "{}", hit.normal);
    Ok(())
}
