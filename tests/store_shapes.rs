//! Shapes in the store: discs, oriented rectangles and capsules beside plain boxes, their bounds
//! derived from them, bad shapes refused with the store unchanged, and a long random
//! sequence of inserts, shape changes and removals checked against a plain model.

use glam::Vec2;
use hantei::rng::Rng;
use hantei::{
    Aabb, BoxHandle, BoxProps, BoxStore, Capsule, Circle, Error, Obb2, Owner, Shape, ShapeKind,
};
use std::collections::HashMap;

fn random_shape(rng: &mut Rng) -> Shape {
    let c = Vec2::new(rng.range_f32(-50.0, 50.0), rng.range_f32(-50.0, 50.0));
    match rng.below(4) {
        0 => Shape::Aabb(Aabb::from_center_half_extents(
            c,
            Vec2::new(rng.range_f32(0.0, 4.0), rng.range_f32(0.0, 4.0)),
        )),
        1 => Shape::Circle(Circle::new(c, rng.range_f32(0.0, 4.0))),
        2 => Shape::Capsule(Capsule::new(
            c,
            c + Vec2::new(rng.range_f32(-8.0, 8.0), rng.range_f32(-8.0, 8.0)),
            rng.range_f32(0.0, 2.0),
        )),
        _ => Shape::Obb2(Obb2::from_angle(
            c,
            Vec2::new(rng.range_f32(0.0, 6.0), rng.range_f32(0.0, 1.0)),
            rng.range_f32(-3.0, 3.0),
        )),
    }
}

/// Every column and shape of the store, bit for bit, for "nothing changed" checks.
fn snapshot(s: &BoxStore) -> Vec<u32> {
    let mut out: Vec<u32> = [s.min_x(), s.min_y(), s.max_x(), s.max_y()]
        .iter()
        .flat_map(|c| c.iter().map(|v| v.to_bits()))
        .collect();
    for i in 0..s.len() {
        out.push(match s.shape_at(i).unwrap() {
            Shape::Aabb(_) => 0,
            Shape::Circle(c) => c.radius.to_bits() ^ c.center.x.to_bits(),
            Shape::Obb2(o) => o.axis.x.to_bits() ^ o.half_extents.y.to_bits(),
            Shape::Capsule(c) => c.b.x.to_bits() ^ c.radius.to_bits(),
        });
    }
    out
}

#[test]
fn shapes_keep_their_bounds_and_their_kind() -> Result<(), Error> {
    let mut store = BoxStore::new();
    let disc = Circle::new(Vec2::new(10.0, 5.0), 2.0);
    let laser = Obb2::from_angle(Vec2::new(0.0, 0.0), Vec2::new(10.0, 0.5), 0.5);
    let plain = Aabb::from_coords(-1.0, -1.0, 1.0, 1.0);
    let d = store.insert_shape(disc, BoxProps::default())?;
    let l = store.insert_shape(laser, BoxProps::default())?;
    let p = store.insert(plain)?;
    assert!(store.has_shapes());
    assert_eq!(store.shape(d), Some(Shape::Circle(disc)));
    assert_eq!(store.shape(l), Some(Shape::Obb2(laser)));
    assert_eq!(store.shape(p), Some(Shape::Aabb(plain)));
    // The bounds contain the shape, a hair wider than its rounded box.
    let b = store.get(d).unwrap();
    assert!(b.min.x < 8.0 && b.max.x > 12.0 && b.max.x - 12.0 < 1e-5);
    assert_eq!(store.get(l), Some(Shape::Obb2(laser).bounds()));
    assert_eq!(store.get(p), Some(plain));
    // A disc cannot be moved as a box; it moves as a shape, and can change kind.
    assert!(matches!(
        store.update(d, plain),
        Err(Error::InvalidShape { .. })
    ));
    assert!(matches!(
        store.update_all(&[plain; 3]),
        Err(Error::InvalidShape { index: 0, .. })
    ));
    store.update_shape(d, Circle::new(Vec2::new(20.0, 5.0), 1.0))?;
    assert_eq!(store.get(d).unwrap().center(), Vec2::new(20.0, 5.0));
    store.update_shape(d, plain)?;
    assert_eq!(store.shape(d).map(|s| s.kind()), Some(ShapeKind::Aabb));
    store.update_shape(p, disc)?;
    assert_eq!(store.shape(p), Some(Shape::Circle(disc)));
    store.remove(l)?;
    store.remove(p)?;
    assert!(!store.has_shapes());
    store.update(d, plain.translated(Vec2::ONE))?; // a plain box again
    Ok(())
}

#[test]
fn bad_shapes_are_refused_and_change_nothing() -> Result<(), Error> {
    let mut store = BoxStore::new();
    let d = store.insert_shape(Circle::new(Vec2::ZERO, 1.0), BoxProps::default())?;
    store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
    let before = snapshot(&store);
    let bad: [Shape; 8] = [
        Circle::new(Vec2::ZERO, f32::NAN).into(),
        Circle::new(Vec2::ZERO, -1.0).into(),
        Circle::new(Vec2::new(f32::INFINITY, 0.0), 1.0).into(),
        Circle::new(Vec2::new(f32::MAX, 0.0), f32::MAX).into(), // bounds overflow
        Obb2::new(Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::ONE).into(), // not a rotation
        Obb2::new(Vec2::ZERO, Vec2::X, Vec2::new(-1.0, 1.0)).into(),
        Obb2::from_angle(Vec2::ZERO, Vec2::ONE, f32::NAN).into(),
        Aabb::from_coords(1.0, 0.0, 0.0, 1.0).into(),
    ];
    for shape in bad {
        assert!(shape.validate().is_err(), "{shape:?}");
        assert!(
            store.insert_shape(shape, BoxProps::default()).is_err(),
            "{shape:?}"
        );
        assert!(store.update_shape(d, shape).is_err(), "{shape:?}");
        assert_eq!(snapshot(&store), before, "{shape:?}");
    }
    let bad_motion = BoxProps {
        motion: Vec2::new(f32::NAN, 0.0),
        ..BoxProps::default()
    };
    assert!(
        store
            .insert_shape(Circle::new(Vec2::ZERO, 1.0), bad_motion)
            .is_err()
    );
    assert_eq!(snapshot(&store), before);
    Ok(())
}

#[test]
fn random_inserts_changes_and_removals_match_a_model() -> Result<(), Error> {
    let mut rng = Rng::new(0x5_4a_9e);
    let mut store = BoxStore::default();
    let mut model: HashMap<BoxHandle, (Shape, u64)> = HashMap::new();
    let mut alive: Vec<BoxHandle> = Vec::new();
    for step in 0..20_000 {
        match rng.below(10) {
            0..=3 => {
                let shape = random_shape(&mut rng);
                let owner = u64::from(rng.below(50));
                let props = BoxProps {
                    owner: Owner(owner),
                    ..BoxProps::default()
                };
                let h = store.insert_shape(shape, props)?;
                model.insert(h, (shape, owner));
                alive.push(h);
            }
            4..=6 if !alive.is_empty() => {
                let h = alive[rng.below(alive.len() as u32) as usize];
                let shape = random_shape(&mut rng);
                store.update_shape(h, shape)?;
                model.get_mut(&h).unwrap().0 = shape;
            }
            _ if !alive.is_empty() => {
                let k = rng.below(alive.len() as u32) as usize;
                let h = alive.swap_remove(k);
                let bounds = store.remove(h)?;
                assert_eq!(bounds, model.remove(&h).unwrap().0.bounds());
                assert_eq!(store.shape(h), None);
            }
            _ => {}
        }
        if step % 97 == 0 || step > 19_900 {
            assert_eq!(store.len(), model.len());
            for (i, (h, bounds)) in store.iter().enumerate() {
                let (shape, owner) = model[&h];
                assert_eq!(store.shape(h), Some(shape), "step {step}");
                assert_eq!(store.shape_at(i), Some(shape));
                assert_eq!(bounds, shape.bounds());
                assert_eq!(store.owners()[i], owner);
            }
            let shaped = model.values().any(|(s, _)| s.kind() != ShapeKind::Aabb);
            assert_eq!(store.has_shapes(), shaped);
        }
    }
    store.clear();
    assert!(!store.has_shapes());
    Ok(())
}
