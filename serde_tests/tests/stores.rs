//! Shapes, turns and layers through serde: round trips in both formats, stores written
//! by older versions, and the defects each new field brings.

use hantei::frame::layers;
use hantei::glam::Vec2;
use hantei::{Aabb, BoxProps, BoxStore, Capsule, Circle, Error, Filter, Obb2, Owner, Shape};

/// A shape of every kind, rectangles and capsules turning, under mixed layers, owners
/// and motions: a store that uses every field of the wire format.
fn turning_store() -> BoxStore {
    let v = Vec2::new;
    let shapes = [
        Shape::Aabb(Aabb::from_coords(0.0, 0.0, 2.0, 1.0)),
        Shape::Circle(Circle::new(v(5.0, 1.0), 1.5)),
        Shape::Obb2(Obb2::from_angle(v(10.0, 3.0), v(4.0, 0.5), 0.3)),
        Shape::Obb2(Obb2::from_angle(v(20.0, 3.0), v(1.0, 2.0), -1.0)),
        Shape::Capsule(Capsule::new(v(30.0, 0.0), v(36.0, 2.0), 0.5)),
        Shape::Capsule(Capsule::new(v(40.0, 0.0), v(40.0, 5.0), 0.0)),
    ];
    let turns = [0.0, 0.0, 0.8, 0.0, -1.2, 0.4];
    let mut store = BoxStore::new();
    for (k, (shape, turn)) in shapes.into_iter().zip(turns).enumerate() {
        let props = BoxProps::new(layers::PRESETS[k % layers::PRESETS.len()])
            .with_owner(Owner(k as u64 % 3))
            .with_motion(v(k as f32, -2.0))
            .with_turn(turn);
        store.insert_shape(shape, props).expect("a valid shape");
    }
    store
}

/// Capsules survive both formats, a capsule whose bounds are not its box's is refused,
/// and a store written before capsules existed still loads.
#[test]
fn capsules_survive_serde_and_old_stores_still_load() -> Result<(), Error> {
    let mut store = BoxStore::new();
    let plain = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
    let laser = Capsule::new(Vec2::new(-3.0, 1.0), Vec2::new(9.0, 4.0), 0.5);
    let a = store.insert_shape(laser, BoxProps::default())?;
    let b = store.insert_shape(
        Capsule::new(Vec2::new(5.0, 5.0), Vec2::new(5.0, 9.0), 0.0),
        BoxProps::default(),
    )?;
    let c = store.insert_shape(Circle::new(Vec2::new(2.0, 2.0), 1.0), BoxProps::default())?;
    store.remove(a)?; // the last capsule moves into the hole
    let bytes = postcard::to_allocvec(&store).unwrap();
    let back: BoxStore = postcard::from_bytes(&bytes).unwrap();
    for h in [plain, b, c] {
        assert_eq!(back.shape(h), store.shape(h));
        assert_eq!(back.get(h), store.get(h));
    }
    assert_eq!(postcard::to_allocvec(&back).unwrap(), bytes);
    let json = serde_json::to_value(&store).unwrap();
    let back: BoxStore = serde_json::from_value(json.clone()).unwrap();
    assert_eq!(back.shape(b), store.shape(b));
    // A capsule whose bounds are not its box's is refused.
    let mut bad = json.clone();
    bad["capsules"][0]["radius"] = 3.0.into();
    let err = serde_json::from_value::<BoxStore>(bad).unwrap_err();
    assert!(err.to_string().contains("capsule"), "{err}");
    // A store written before capsules existed (no capsule fields) still loads.
    let mut old = BoxStore::new();
    let o = old.insert_shape(Circle::new(Vec2::ZERO, 2.0), BoxProps::default())?;
    let mut json = serde_json::to_value(&old).unwrap();
    let fields = json.as_object_mut().unwrap();
    fields.remove("capsules");
    fields.remove("capsule_boxes");
    let back: BoxStore = serde_json::from_value(json).unwrap();
    assert_eq!(back.shape(o), old.shape(o));
    // The shape itself, and its kind.
    let shape = Shape::Capsule(laser);
    let text = serde_json::to_string(&shape).unwrap();
    assert_eq!(serde_json::from_str::<Shape>(&text).unwrap(), shape);
    let old_shape = serde_json::to_string(&Shape::Circle(Circle::new(Vec2::ONE, 1.0))).unwrap();
    assert!(serde_json::from_str::<Shape>(&old_shape).is_ok());
    Ok(())
}

/// A turning store survives serde with its turns. Without its turn lists it is
/// refused, as its bounds no longer fit its shapes; so is a turn out of range.
#[test]
fn turns_survive_serde() -> Result<(), Error> {
    let store = turning_store();
    assert!(store.handles().iter().any(|&h| store.turn(h) != Some(0.0)));
    let json = serde_json::to_string(&store).unwrap();
    let back: BoxStore = serde_json::from_str(&json).unwrap();
    for &h in store.handles() {
        assert_eq!(back.turn(h), store.turn(h));
        assert_eq!(back.get(h), store.get(h));
    }
    let bytes = postcard::to_allocvec(&store).unwrap();
    let back: BoxStore = postcard::from_bytes(&bytes).unwrap();
    for &h in store.handles() {
        assert_eq!(back.turn(h), store.turn(h));
    }
    // Without the turn lists: the bounds no longer fit the shapes, so it is refused.
    let mut value = serde_json::to_value(&store).unwrap();
    value.as_object_mut().unwrap().remove("obb_turns");
    value.as_object_mut().unwrap().remove("capsule_turns");
    assert!(serde_json::from_value::<BoxStore>(value).is_err());
    // A bad turn is refused by name.
    let mut value = serde_json::to_value(&store).unwrap();
    value["capsule_turns"][0] = (1.0e9).into();
    let err = serde_json::from_value::<BoxStore>(value).unwrap_err();
    assert!(err.to_string().contains("turn"), "{err}");
    Ok(())
}

/// A filter written before `solid` existed reads back with every paired layer solid.
#[test]
fn a_store_written_without_solid_layers_reads_back_all_solid() {
    let mut store = BoxStore::new();
    let h = store
        .insert_with(
            Aabb::from_coords(0.0, 0.0, 1.0, 1.0),
            BoxProps::new(Filter::new(1, 6)),
        )
        .unwrap();
    let mut json: serde_json::Value = serde_json::to_value(&store).unwrap();
    json.as_object_mut().unwrap().remove("solid").unwrap();
    let back: BoxStore = serde_json::from_value(json).unwrap();
    assert_eq!(back.props(h).unwrap().filter, Filter::new(1, 6));
    let filter: Filter = serde_json::from_str(r#"{"layers":1,"mask":6}"#).unwrap();
    for layer in 0..32 {
        let l = 1 << layer;
        assert_eq!(
            filter.responds_to(l & filter.mask),
            Filter::new(1, 6).responds_to(l)
        );
    }
}
