//! One coordinate limit for every shape, frame and query (`MAX_COORDINATE`).
//!
//! The second reliability review (issue 34) found discs and rays beyond about 1.8e19
//! silently missed, and wide regions missing oriented rectangles. Every shape now stays
//! within `±MAX_COORDINATE`: the store, the frame and the casts refuse what reaches
//! further with `Error::OutOfRange`, and below the limit the answers are right. These
//! tests hold both halves at the public API.

use glam::Vec2;
use hantei::frame::{Frame, Level, StaticLevel};
use hantei::rng::Rng;
use hantei::{
    Aabb, BoxProps, BoxStore, Circle, Error, Filter, MAX_COORDINATE, Obb2, Ray, Response, Shape,
    TileMap,
};

const L: f32 = MAX_COORDINATE;

fn is_out_of_range<T: std::fmt::Debug>(r: &Result<T, Error>) -> bool {
    matches!(r, Err(Error::OutOfRange { limit, .. }) if *limit == L)
}

/// The review's inputs, each refused with a typed error and the store left as it was.
#[test]
fn the_reviews_inputs_beyond_the_limit_are_refused() {
    let mut store = BoxStore::new();
    let unit = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)).unwrap();
    // A disc of radius 2e19 overlapping a unit box.
    let big = Circle::new(Vec2::ZERO, 2.0e19);
    assert!(is_out_of_range(
        &store.insert_shape(big, BoxProps::default())
    ));
    // A disc with a motion of 1e20.
    let fast = BoxProps::default().with_motion(Vec2::new(1.0e20, 0.0));
    let disc = Circle::new(Vec2::new(-5.0, 0.5), 1.0);
    assert!(is_out_of_range(&store.insert_shape(disc, fast)));
    let h = store.insert_shape(disc, BoxProps::default()).unwrap();
    assert!(is_out_of_range(
        &store.set_motion(h, Vec2::new(1.0e20, 0.0))
    ));
    assert!(is_out_of_range(
        &store.set_motions(&[unit, h], &[Vec2::ZERO, Vec2::new(1.0e20, 0.0)])
    ));
    assert!(is_out_of_range(
        &store.update_shape(h, Circle::new(Vec2::ZERO, 2.0e19))
    ));
    assert!(is_out_of_range(
        &store.update(unit, Aabb::from_coords(0.0, 0.0, 1.0e19, 1.0))
    ));
    assert_eq!(store.len(), 2);
    assert_eq!(store.props(h).unwrap().motion, Vec2::ZERO);
    assert_eq!(store.shape(h), Some(Shape::Circle(disc)));
    // The error names the handle.
    let err = store.set_motion(h, Vec2::new(1.0e20, 0.0)).unwrap_err();
    assert!(matches!(err, Error::OutOfRange { handle: Some(e), .. } if e == h));
    assert!(err.to_string().contains(&h.to_string()), "{err}");
    // A ray of length 1e20 is refused rather than answered wrong.
    let long = Ray::new(Vec2::new(-10.0, 0.5), Vec2::new(1.0e20, 0.0));
    assert!(is_out_of_range(&store.ray_cast(long, Filter::ALL)));
    let mut hits = Vec::new();
    assert!(is_out_of_range(&store.ray_cast_all(
        long,
        Filter::ALL,
        &mut hits
    )));
    assert!(hits.is_empty());
    assert!(is_out_of_range(&store.shape_cast(
        disc,
        Vec2::new(1.0e20, 0.0),
        Filter::ALL
    )));
}

/// Up to the limit, the same scenes are answered: a huge disc over a unit box, a fast
/// disc against a static wall, a point inside a huge disc, a ray across the world.
#[test]
fn inputs_up_to_the_limit_are_answered() {
    let mut store = BoxStore::new();
    let unit = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)).unwrap();
    let big = store
        .insert_shape(Circle::new(Vec2::ZERO, 0.9 * L), BoxProps::default())
        .unwrap();
    let report = Frame::new().step(&store).unwrap().contacts.to_vec();
    assert_eq!(report.len(), 1);
    assert_eq!(report[0].boxes, (unit, big));
    let mut out = Vec::new();
    store
        .query_point(Vec2::new(0.0, 0.85 * L), Filter::ALL, &mut out)
        .unwrap();
    assert_eq!(out, [big]);
    store.remove(big).unwrap();

    // A ray from one side of the world to the other meets a unit disc and a unit
    // rectangle on its path, in order.
    let disc = store
        .insert_shape(
            Circle::new(Vec2::new(0.5 * L, 0.0), 1.0),
            BoxProps::default(),
        )
        .unwrap();
    let turned = Obb2::from_angle(Vec2::new(-0.5 * L, 0.0), Vec2::ONE, 0.7);
    let rect = store.insert_shape(turned, BoxProps::default()).unwrap();
    let across = Ray::new(Vec2::new(-L, 0.25), Vec2::new(2.0 * L, 0.0));
    let mut hits = Vec::new();
    store.ray_cast_all(across, Filter::ALL, &mut hits).unwrap();
    let order: Vec<_> = hits.iter().map(|h| h.handle).collect();
    assert_eq!(order, [rect, unit, disc]);

    // A disc that stops at a static wall box instead of passing through it.
    let mut walls = BoxStore::new();
    walls
        .insert(Aabb::from_coords(0.5 * L, -L, 0.5 * L + 8.0, L))
        .unwrap();
    let level = StaticLevel::new(walls).unwrap();
    let mut movers = BoxStore::new();
    let props = BoxProps::default()
        .with_motion(Vec2::new(1.5 * L, 0.0))
        .with_response(Response::Stop);
    let d = movers
        .insert_shape(Circle::new(Vec2::new(-0.9 * L, 0.0), 1.0), props)
        .unwrap();
    let b = movers
        .insert_with(
            Aabb::from_coords(-0.9 * L, 10.0, -0.9 * L + 2.0, 12.0),
            props,
        )
        .unwrap();
    let mut frame = Frame::new();
    frame
        .advance(&mut movers, &Level::none().with_statics(&level))
        .unwrap();
    assert_eq!(frame.report().static_hits.len(), 2);
    let Some(Shape::Circle(c)) = movers.shape(d) else {
        panic!("the disc is still a disc");
    };
    assert!(c.center.x + c.radius <= 0.5 * L, "{c:?} passed the wall");
    assert!(c.center.x > 0.4 * L, "{c:?} stopped early");
    assert!(movers.get(b).unwrap().max.x <= 0.5 * L);
}

/// A region reaching beyond `f32::MAX` finds every kind of shape: boxes, discs and
/// oriented rectangles.
#[test]
fn a_region_wider_than_f32_finds_every_kind() {
    let mut store = BoxStore::new();
    let a = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)).unwrap();
    let d = store
        .insert_shape(
            Circle::new(Vec2::new(-0.5 * L, 3.0), 2.0),
            BoxProps::default(),
        )
        .unwrap();
    let o = store
        .insert_shape(
            Obb2::from_angle(Vec2::new(0.5 * L, -0.5 * L), Vec2::new(4.0, 1.0), 0.3),
            BoxProps::default(),
        )
        .unwrap();
    for region in [
        Aabb::from_coords(f32::MIN, f32::MIN, f32::MAX, f32::MAX),
        Aabb::from_coords(-L, -L, L, L),
        Aabb::from_coords(-3.0e38, -1.0e30, 1.0e38, 1.0e38),
    ] {
        let mut out = Vec::new();
        store.query_region(region, Filter::ALL, &mut out).unwrap();
        assert_eq!(out, [a, d, o], "{region:?}");
    }
    // Entirely beyond the limit: nothing is there.
    let mut out = Vec::new();
    let far = Aabb::from_coords(2.0 * L, 0.0, 3.0 * L, 1.0);
    store.query_region(far, Filter::ALL, &mut out).unwrap();
    store
        .query_point(Vec2::new(1.0e30, 0.0), Filter::ALL, &mut out)
        .unwrap();
    assert!(out.is_empty());
}

/// A frame refuses a tile map that reaches beyond the limit, and changes nothing.
#[test]
fn a_frame_refuses_a_tile_map_beyond_the_limit() {
    let map = TileMap::new(4, 4, Vec2::splat(1.0e30), Vec2::ZERO).unwrap();
    let mut store = BoxStore::new();
    let h = store
        .insert_with(
            Aabb::from_coords(0.0, 0.0, 1.0, 1.0),
            BoxProps::default().with_motion(Vec2::X),
        )
        .unwrap();
    let got = Frame::new().advance(&mut store, &Level::walls(&map));
    assert!(matches!(got, Err(Error::InvalidShape { .. })), "{got:?}");
    assert_eq!(store.get(h), Some(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)));
}

/// A random scene of boxes, discs and rectangles with fast motions.
fn scene(rng: &mut Rng, scale: f32) -> BoxStore {
    // Coordinates on a grid of 2^-12, so that scaling by a power of two is exact.
    let q = |v: f32| (v * 4096.0).round() / 4096.0;
    let mut store = BoxStore::new();
    for k in 0..300 {
        let c = Vec2::new(q(rng.range_f32(-0.45, 0.45)), q(rng.range_f32(-0.45, 0.45)));
        let e = Vec2::new(q(rng.range_f32(0.0, 0.03)), q(rng.range_f32(0.0, 0.03)));
        let m = Vec2::new(q(rng.range_f32(-0.45, 0.45)), q(rng.range_f32(-0.45, 0.45)));
        let shape = match k % 3 {
            0 => Shape::Aabb(Aabb::from_center_half_extents(c * scale, e * scale)),
            1 => Shape::Circle(Circle::new(c * scale, e.x * scale)),
            _ => Shape::Obb2(Obb2::from_angle(c * scale, e * scale, k as f32 * 0.37)),
        };
        let props = BoxProps::default().with_motion(m * scale);
        store.insert_shape(shape, props).unwrap();
    }
    store
}

/// Scaling a scene by a power of two scales every product exactly, so while nothing
/// overflows, every contact keeps its status, time and normal bit for bit. A scene
/// scaled right up to the limit answers as the same scene near the origin does.
#[test]
fn a_scene_scaled_to_the_limit_keeps_every_contact() {
    let top = 2.0f32.powi(26); // the scenes reach ±0.95 · 2^26 ≈ ±6.4e7, within 1e8
    assert!(0.95 * top <= L);
    let mut rng = Rng::new(34);
    for round in 0..20 {
        let seed = rng.next_u64();
        let near = scene(&mut Rng::new(seed), 1.0);
        let far = scene(&mut Rng::new(seed), top);
        let contacts = |store: &BoxStore| {
            let mut frame = Frame::new();
            let r = frame.step(store).unwrap();
            r.contacts
                .iter()
                .map(|c| {
                    (
                        c.boxes,
                        c.status,
                        c.toi.to_bits(),
                        c.normal.to_array().map(f32::to_bits),
                    )
                })
                .collect::<Vec<_>>()
        };
        let (a, b) = (contacts(&near), contacts(&far));
        assert!(
            !a.is_empty(),
            "round {round}: a scene without contacts tests nothing"
        );
        assert_eq!(a, b, "round {round}");
    }
}

/// Found by the frame fuzz check: a region as wide as the world, one edge flush with the
/// bottom of a thin rectangle, missed it. The rectangle's test rounded at the region's
/// scale; it now sees only the part of the region within the rectangle's bounds.
#[test]
fn a_world_wide_region_finds_a_thin_rectangle_at_its_edge() {
    let mut store = BoxStore::new();
    let segment = Obb2::new(
        Vec2::new(16.0, -2.5),
        Vec2::new(-0.801_143_6, 0.598_472_1),
        Vec2::new(0.0, 0.5),
    );
    let h = store.insert_shape(segment, BoxProps::default()).unwrap();
    let bottom = store.get(h).unwrap().min.y;
    for top in [f32::MAX, L] {
        let region = Aabb::from_coords(-top, bottom, 22.0, top);
        let mut out = Vec::new();
        store.query_region(region, Filter::ALL, &mut out).unwrap();
        assert_eq!(out, [h], "{region:?}");
    }
}
