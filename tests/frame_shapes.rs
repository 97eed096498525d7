//! Shapes in the frame: discs and oriented rectangles collide by their true shapes (not
//! their bounds), swept (no tunnelling), in compound bodies of mixed kinds, and every
//! kind against every kind gives the all-pairs scalar oracle's report at every SIMD
//! level and thread count.

use crate::frame_oracle::{all_pairs, bits, frames};
use glam::Vec2;
use hantei::frame::{Body, Contact, Frame, layers};
use hantei::narrow::SweepStatus;
use hantei::rng::Rng;
use hantei::{Aabb, BoxProps, BoxStore, Circle, ContactPoint, Error, Obb2, Owner, Shape};

fn props(filter: hantei::Filter, owner: Owner, motion: Vec2) -> BoxProps {
    BoxProps {
        filter,
        owner,
        motion,
        ..BoxProps::default()
    }
}

/// A round bullet beside a box's corner, inside the corner of its bounds but outside the
/// disc: no contact (its bounding box would have "hit").
#[test]
fn a_round_bullet_grazing_a_corner_is_not_a_hit() -> Result<(), Error> {
    let mut store = BoxStore::new();
    store.insert_with(
        Aabb::from_coords(0.0, 0.0, 10.0, 10.0),
        props(layers::enemy(), Owner(1), Vec2::ZERO),
    )?;
    // Center 0.8 beyond the corner on both axes: 1.13 from it, radius 1.
    let still = store.insert_shape(
        Circle::new(Vec2::new(10.8, 10.8), 1.0),
        props(layers::player_bullet(), Owner::NONE, Vec2::ZERO),
    )?;
    // And one flying past the corner along the diagonal's normal, 1.05 away.
    let d = Vec2::new(1.0, -1.0).normalize();
    let passing = store.insert_shape(
        Circle::new(
            Vec2::splat(10.0) + Vec2::ONE.normalize() * 1.05 - d * 20.0,
            1.0,
        ),
        props(layers::player_bullet(), Owner::NONE, d * 40.0),
    )?;
    let mut frame = Frame::new();
    let report = frame.step(&store)?;
    assert!(report.candidates >= 2, "the bounds do overlap");
    assert!(report.contacts.is_empty(), "{:?}", report.contacts);
    // Pushed 0.2 closer (center 0.8485 from the corner): a contact.
    store.update_shape(still, Circle::new(Vec2::new(10.6, 10.6), 1.0))?;
    let report = frame.step(&store)?;
    assert_eq!(report.contacts.len(), 1);
    assert_eq!(report.contacts[0].boxes.1, still);
    let _ = passing;
    Ok(())
}

/// A fast round bullet crossing a thin rotated laser at any angle is caught.
#[test]
fn a_fast_round_bullet_never_tunnels_through_a_thin_laser() -> Result<(), Error> {
    let mut rng = Rng::new(0x1a5e);
    let mut frame = Frame::new();
    for k in 0..500 {
        let mut store = BoxStore::new();
        let angle = rng.range_f32(0.0, core::f32::consts::PI);
        let laser = Obb2::from_angle(Vec2::new(3.0, -2.0), Vec2::new(60.0, 0.05), angle);
        store.insert_shape(laser, props(layers::enemy_bullet(), Owner(9), Vec2::ZERO))?;
        // The bullet crosses the laser's middle third, at right angles give or take 60°.
        let along = laser.axis * rng.range_f32(-20.0, 20.0);
        let across = Vec2::from_angle(rng.range_f32(-1.0, 1.0)).rotate(laser.axis_y());
        let speed = 10f32.powf(rng.range_f32(1.0, 4.0));
        let start = laser.center + along - across * speed * rng.range_f32(0.2, 0.8);
        let bullet = store.insert_shape(
            Circle::new(start, 0.1),
            props(layers::player(), Owner::NONE, across * speed),
        )?;
        let report = frame.step(&store)?;
        assert_eq!(report.contacts.len(), 1, "{k}: {laser:?} {start:?} {speed}");
        let c = report.contacts[0];
        assert_eq!((c.status, c.boxes.1), (SweepStatus::Hit, bullet), "{k}");
        assert!(c.toi > 0.0 && c.toi < 1.0);
        frame.reset_events();
    }
    Ok(())
}

/// An enemy whose hull mixes a disc and two boxes is one body: one contact per body
/// pair, the earliest of its parts.
#[test]
fn mixed_hulls_report_one_contact_per_body_the_earliest() -> Result<(), Error> {
    let mut store = BoxStore::new();
    let enemy = Owner(7);
    let e = props(layers::enemy(), enemy, Vec2::ZERO);
    let head = store.insert_shape(Circle::new(Vec2::new(50.0, 0.0), 5.0), e)?;
    store.insert_with(Aabb::from_coords(55.0, -2.0, 70.0, 2.0), e)?; // a wing
    store.insert_shape(
        Obb2::from_angle(Vec2::new(62.0, 0.0), Vec2::new(8.0, 1.0), 0.4),
        e,
    )?;
    // A round bullet flying right through the whole hull: the head is first.
    let bullet = store.insert_shape(
        Circle::new(Vec2::new(0.0, 0.0), 1.0),
        props(layers::player_bullet(), Owner::NONE, Vec2::new(100.0, 0.0)),
    )?;
    let mut frame = Frame::new();
    let report = frame.step(&store)?;
    assert_eq!(report.contacts.len(), 1);
    let c = report.contacts[0];
    assert_eq!(c.bodies.a, Body::Owner(enemy));
    assert_eq!(c.boxes, (head, bullet));
    assert_eq!(c.toi, 0.44); // (50 - 5 - 1) / 100
    assert_eq!(c.normal, Vec2::new(1.0, 0.0)); // the bullet's face, toward the enemy
    Ok(())
}

/// Seeded scenes of every kind with motions, owners and layers.
fn scene(n: usize, seed: u64) -> BoxStore {
    let mut rng = Rng::new(seed);
    let mut store = BoxStore::new();
    let filters = layers::PRESETS;
    let side = (n as f32).sqrt() * 8.0;
    for _ in 0..n {
        let c = Vec2::new(rng.range_f32(0.0, 1.5 * side), rng.range_f32(0.0, side));
        let size = Vec2::new(rng.range_f32(0.5, 6.0), rng.range_f32(0.5, 6.0));
        let shape = match rng.below(3) {
            0 => Shape::Aabb(Aabb::from_center_half_extents(c, size)),
            1 => Shape::Circle(Circle::new(c, size.x)),
            _ => Shape::Obb2(Obb2::from_angle(c, size, rng.range_f32(-3.2, 3.2))),
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

#[test]
fn every_kind_against_every_kind_matches_the_oracle_everywhere() -> Result<(), Error> {
    for (n, seed) in [(40, 1), (400, 2), (3000, 3)] {
        let store = scene(n, seed);
        let want = all_pairs(&store);
        assert!(want.len() > n / 20, "n={n}: {} contacts", want.len());
        // Every pair of kinds is exercised.
        let mut kinds = std::collections::BTreeSet::new();
        for c in &want {
            let k = |h| store.shape(h).unwrap().kind();
            let (a, b) = (k(c.boxes.0), k(c.boxes.1));
            kinds.insert((a.min(b), a.max(b)));
        }
        if n >= 400 {
            assert_eq!(kinds.len(), 6, "n={n}: {kinds:?}");
        }
        for (frame, pool, what) in &mut frames() {
            let got = pool.install(|| frame.step(&store).map(|r| r.contacts.to_vec()))?;
            assert_eq!(bits(&got), bits(&want), "n={n} {what}");
            // The oracle leaves the points out (tests/contact_points.rs checks them).
            let no_point = |c: &Contact| Contact {
                point: ContactPoint::default(),
                ..*c
            };
            assert_eq!(got.iter().map(no_point).collect::<Vec<_>>(), want);
        }
    }
    Ok(())
}
