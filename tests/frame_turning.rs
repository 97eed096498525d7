//! Turning shapes in the frame: a laser that turns a radian a frame catches what it
//! passes over; random scenes of turning rectangles and capsules against every kind
//! equal the all-pairs oracle (through `sweep_turning`) at every SIMD level and on 1, 2
//! and 4 threads, and miss no contact that an `f64` sub-stepped oracle sees; `advance`
//! turns the shapes, stops and destroys them where they hit, walls and static boxes
//! included; the store's turn, its errors and its bounds.

use crate::frame_oracle::{all_pairs, bits, frames};
use glam::Vec2;
use hantei::frame::{Body, BodyPair, Contact, Frame, Level, StaticLevel, layers};
use hantei::narrow::SweepStatus;
use hantei::rng::Rng;
use hantei::tilemap::TileMap;
use hantei::{
    Aabb, BoxHandle, BoxProps, BoxStore, Capsule, Circle, Error, Filter, MAX_TURN, Obb2, Owner,
    Response, Shape, ShapeKind,
};

/// A laser of the given kind, 200 long and 2 wide, centred on the origin along +x.
fn laser(capsule: bool) -> Shape {
    if capsule {
        Shape::Capsule(Capsule::new(
            Vec2::new(-100.0, 0.0),
            Vec2::new(100.0, 0.0),
            1.0,
        ))
    } else {
        Shape::Obb2(Obb2::new(Vec2::ZERO, Vec2::X, Vec2::new(100.0, 1.0)))
    }
}

/// A laser turning 1 rad a frame passes over a bullet at 0.5 rad: the step reports the
/// contact a little before half the frame (the beam's and the bullet's widths), with a
/// point on the bullet's side; `advance` destroys the bullet; a bullet beyond the turn
/// is not touched. Both senses, both laser kinds.
#[test]
fn a_laser_turning_a_radian_a_frame_catches_the_bullet_at_half_a_radian() -> Result<(), Error> {
    for capsule in [false, true] {
        for sense in [1.0f32, -1.0] {
            let mut store = BoxStore::new();
            let beam =
                store.insert_shape(laser(capsule), BoxProps::new(Filter::ALL).with_turn(sense))?;
            let at = |angle: f32| Vec2::from_angle(sense * angle) * 60.0;
            let caught = store.insert_shape(
                Circle::new(at(0.5), 2.0),
                BoxProps::new(Filter::ALL).with_response(Response::Destroy),
            )?;
            let beyond = store.insert_shape(
                Circle::new(at(1.2), 2.0),
                BoxProps::new(Filter::ALL).with_response(Response::Destroy),
            )?;
            let mut frame = Frame::new();
            let report = frame.step(&store)?;
            let what = format!("capsule {capsule} sense {sense}");
            assert_eq!(report.contacts.len(), 1, "{what}");
            let c = report.contacts[0];
            assert_eq!(c.status, SweepStatus::Hit, "{what}");
            assert!(c.toi > 0.4 && c.toi < 0.5, "{what}: toi {}", c.toi);
            let other = if c.boxes.0 == beam {
                c.boxes.1
            } else {
                c.boxes.0
            };
            assert_eq!(other, caught, "{what}");
            // The point on the beam lies near the bullet, where the beam then is.
            let on_beam = if c.boxes.0 == beam {
                c.point.a
            } else {
                c.point.b
            };
            assert!((on_beam - at(0.5)).length() < 4.0, "{what}: {on_beam}");
            frame.advance(&mut store, &Level::none())?;
            assert!(!store.contains(caught), "{what}");
            assert!(store.contains(beyond), "{what}");
            // The beam turned by a whole radian about its centre.
            let want = laser(capsule).turned(sense);
            assert_eq!(store.shape(beam), Some(want), "{what}");
        }
    }
    Ok(())
}

/// A turn of three radians a frame still catches a bullet anywhere on its way, and
/// a turn of zero is no turn.
#[test]
fn a_fast_turn_never_jumps_over_a_bullet() -> Result<(), Error> {
    let mut rng = Rng::new(0x7a5e);
    let mut frame = Frame::new();
    for k in 0..300 {
        let mut store = BoxStore::new();
        let turn = rng.range_f32(0.05, 3.0) * if k % 2 == 0 { 1.0 } else { -1.0 };
        let beam = store.insert_shape(laser(k % 3 == 0), BoxProps::new(Filter::ALL))?;
        store.set_turn(beam, turn)?;
        // Somewhere the beam passes over, clear of its start and end.
        let angle = turn * rng.range_f32(0.1, 0.9);
        let r = rng.range_f32(5.0, 95.0);
        let at = Vec2::from_angle(angle) * r * if rng.below(2) == 0 { 1.0 } else { -1.0 };
        store.insert_shape(
            Circle::new(at, rng.range_f32(0.0, 1.0)),
            BoxProps::new(Filter::ALL),
        )?;
        let report = frame.step(&store)?;
        assert_eq!(
            report.contacts.len(),
            1,
            "case {k}: turn {turn}, bullet {at}"
        );
    }
    Ok(())
}

/// `f64` poses and distances for the sub-stepped oracle, independent of the crate's
/// kernels: each shape as a convex core (its corners, its segment or its centre) and a
/// radius, posed with the standard library's `sin` and `cos`.
mod exact {
    use glam::{DVec2, Vec2};
    use hantei::Shape;

    /// A shape's core points and radius, and the centre it turns about.
    pub struct Core {
        pub points: Vec<DVec2>,
        pub radius: f64,
        pub centre: DVec2,
    }

    pub fn core(s: &Shape) -> Core {
        let d = |v: Vec2| v.as_dvec2();
        match s {
            Shape::Aabb(b) => Core {
                points: vec![
                    d(b.min),
                    DVec2::new(b.max.x.into(), b.min.y.into()),
                    d(b.max),
                    DVec2::new(b.min.x.into(), b.max.y.into()),
                ],
                radius: 0.0,
                centre: (d(b.min) + d(b.max)) * 0.5,
            },
            Shape::Circle(c) => Core {
                points: vec![d(c.center)],
                radius: c.radius.into(),
                centre: d(c.center),
            },
            Shape::Obb2(o) => {
                let (u, e) = (d(o.axis), d(o.half_extents));
                let v = u.perp();
                let c = d(o.center);
                Core {
                    points: vec![
                        c - u * e.x - v * e.y,
                        c + u * e.x - v * e.y,
                        c + u * e.x + v * e.y,
                        c - u * e.x + v * e.y,
                    ],
                    radius: 0.0,
                    centre: c,
                }
            }
            Shape::Capsule(k) => Core {
                points: vec![d(k.a), d(k.b)],
                radius: k.radius.into(),
                centre: (d(k.a) + d(k.b)) * 0.5,
            },
        }
    }

    /// The core at time `t` of a frame that moves it by `m` and turns it by `turn`.
    pub fn posed(c: &Core, m: Vec2, turn: f32, t: f64) -> Vec<DVec2> {
        let rot = DVec2::from_angle(f64::from(turn) * t);
        let shift = m.as_dvec2() * t;
        c.points
            .iter()
            .map(|&p| c.centre + rot.rotate(p - c.centre) + shift)
            .collect()
    }

    fn point_segment(p: DVec2, a: DVec2, b: DVec2) -> f64 {
        let e = b - a;
        let ee = e.dot(e);
        let u = if ee > 0.0 {
            ((p - a).dot(e) / ee).clamp(0.0, 1.0)
        } else {
            0.0
        };
        (p - (a + e * u)).length()
    }

    fn segments_cross(a0: DVec2, a1: DVec2, b0: DVec2, b1: DVec2) -> bool {
        let c = |o: DVec2, p: DVec2, q: DVec2| (p - o).perp_dot(q - o);
        let (d1, d2) = (c(a0, a1, b0), c(a0, a1, b1));
        let (d3, d4) = (c(b0, b1, a0), c(b0, b1, a1));
        d1 * d2 < 0.0 && d3 * d4 < 0.0
    }

    fn edges(p: &[DVec2]) -> Vec<(DVec2, DVec2)> {
        match p.len() {
            1 => vec![(p[0], p[0])],
            2 => vec![(p[0], p[1])],
            n => (0..n).map(|k| (p[k], p[(k + 1) % n])).collect(),
        }
    }

    /// Whether `q` lies inside the convex polygon `p` (four corners in turning order).
    fn inside(q: DVec2, p: &[DVec2]) -> bool {
        if p.len() < 3 {
            return false;
        }
        let signs: Vec<f64> = edges(p)
            .iter()
            .map(|&(a, b)| (b - a).perp_dot(q - a))
            .collect();
        signs.iter().all(|&s| s >= 0.0) || signs.iter().all(|&s| s <= 0.0)
    }

    /// The distance between two cores grown by their radii (`<= 0`: in contact).
    pub fn distance(a: &[DVec2], ra: f64, b: &[DVec2], rb: f64) -> f64 {
        if a.iter().any(|&q| inside(q, b)) || b.iter().any(|&q| inside(q, a)) {
            return -(ra + rb);
        }
        let mut best = f64::INFINITY;
        for &(a0, a1) in &edges(a) {
            for &(b0, b1) in &edges(b) {
                if segments_cross(a0, a1, b0, b1) {
                    return -(ra + rb);
                }
                best = best
                    .min(point_segment(a0, b0, b1))
                    .min(point_segment(a1, b0, b1))
                    .min(point_segment(b0, a0, a1))
                    .min(point_segment(b1, a0, a1));
            }
        }
        best - ra - rb
    }
}

/// The sub-stepped oracle's step: 1/1024 of a frame.
const SUB_STEPS: u32 = 1024;

/// Whether the two shapes, each moving and turning, come into contact at one of the
/// oracle's sub-steps (the start and the end included).
fn substeps_meet(a: (&Shape, Vec2, f32), b: (&Shape, Vec2, f32)) -> bool {
    let (ca, cb) = (exact::core(a.0), exact::core(b.0));
    (0..=SUB_STEPS).any(|k| {
        let t = f64::from(k) / f64::from(SUB_STEPS);
        let (pa, pb) = (
            exact::posed(&ca, a.1, a.2, t),
            exact::posed(&cb, b.1, b.2, t),
        );
        exact::distance(&pa, ca.radius, &pb, cb.radius) <= 0.0
    })
}

/// The tolerance `sweep_turning` documents for a pair: `TURN_TOLERANCE` times the
/// fastest relative speed of a point plus both reaches, plus `TURN_TOLERANCE_FLOOR`
/// times the largest coordinate the pair reaches; a hundredth more for rounding.
fn tolerance(a: (&Shape, Vec2, f32), b: (&Shape, Vec2, f32)) -> f64 {
    let reach = |s: &Shape| {
        let c = exact::core(s);
        let far = c
            .points
            .iter()
            .map(|p| (*p - c.centre).length())
            .fold(0.0, f64::max);
        (
            far + c.radius,
            c.centre.abs().max_element() + far + c.radius,
        )
    };
    let ((ra, fa), (rb, fb)) = (reach(a.0), reach(b.0));
    let speed =
        (a.1 - b.1).as_dvec2().length() + f64::from(a.2.abs()) * ra + f64::from(b.2.abs()) * rb;
    let far =
        (fa + f64::from(a.1.abs().max_element())).max(fb + f64::from(b.1.abs().max_element()));
    let tol = hantei::narrow::scalar::TURN_TOLERANCE * (speed + ra + rb)
        + hantei::narrow::scalar::TURN_TOLERANCE_FLOOR * far;
    tol * 1.01 + 1e-9
}

/// The distance between the two shapes at time `t` of the frame.
fn distance_at(a: (&Shape, Vec2, f32), b: (&Shape, Vec2, f32), t: f64) -> f64 {
    let (ca, cb) = (exact::core(a.0), exact::core(b.0));
    let (pa, pb) = (
        exact::posed(&ca, a.1, a.2, t),
        exact::posed(&cb, b.1, b.2, t),
    );
    exact::distance(&pa, ca.radius, &pb, cb.radius)
}

/// A random scene: boxes, discs, rectangles and capsules, a third of the rectangles
/// and capsules turning (some of them laser-long, up to a radian and a half a frame),
/// with motions, owners and layers.
fn scene(n: usize, seed: u64) -> BoxStore {
    let mut rng = Rng::new(seed);
    let mut store = BoxStore::new();
    let filters = layers::PRESETS;
    let side = (n as f32).sqrt() * 10.0;
    for k in 0..n {
        let c = Vec2::new(rng.range_f32(0.0, 1.5 * side), rng.range_f32(0.0, side));
        let size = Vec2::new(rng.range_f32(0.5, 6.0), rng.range_f32(0.5, 6.0));
        let long = k % 7 == 0;
        let shape = match rng.below(4) {
            0 => Shape::Aabb(Aabb::from_center_half_extents(c, size)),
            1 => Shape::Circle(Circle::new(c, size.x)),
            2 if long => Shape::Obb2(Obb2::from_angle(
                c,
                Vec2::new(rng.range_f32(10.0, 40.0), size.y * 0.3),
                rng.range_f32(-3.2, 3.2),
            )),
            2 => Shape::Obb2(Obb2::from_angle(c, size, rng.range_f32(-3.2, 3.2))),
            _ => {
                let len = if long { 60.0 } else { 12.0 };
                let half =
                    Vec2::from_angle(rng.range_f32(-3.2, 3.2)) * rng.range_f32(0.0, len) * 0.5;
                Shape::Capsule(Capsule::new(c - half, c + half, rng.range_f32(0.0, 2.0)))
            }
        };
        let motion = Vec2::new(rng.range_f32(-20.0, 20.0), rng.range_f32(-20.0, 20.0));
        let turn = match shape.kind() {
            ShapeKind::Obb2 | ShapeKind::Capsule if rng.below(3) > 0 => rng.range_f32(-1.5, 1.5),
            _ => 0.0,
        };
        let owner = if rng.below(4) == 0 {
            Owner(u64::from(rng.below(20)))
        } else {
            Owner::NONE
        };
        let filter = filters[rng.below(filters.len() as u32) as usize];
        let props = BoxProps::new(filter)
            .with_owner(owner)
            .with_motion(motion)
            .with_turn(turn);
        store.insert_shape(shape, props).expect("a valid shape");
    }
    store
}

/// Each box's shape, motion and turn, by handle.
fn pose(store: &BoxStore, h: BoxHandle) -> (Shape, Vec2, f32) {
    let p = store.props(h).unwrap();
    (store.shape(h).unwrap(), p.motion, p.turn)
}

/// The step equals the oracle at every SIMD level and thread count, bit for bit, points
/// and all the same on every run; and every pair of boxes that the sub-stepped `f64`
/// oracle sees in contact has a contact between their bodies.
#[test]
fn turning_scenes_match_the_oracle_in_step() -> Result<(), Error> {
    for (n, seed) in [(40, 31), (400, 32), (1500, 33)] {
        let store = scene(n, seed);
        let want = all_pairs(&store);
        assert!(want.len() > n / 20, "n={n}: {} contacts", want.len());
        let turning = want
            .iter()
            .filter(|c| pose(&store, c.boxes.0).2 != 0.0 || pose(&store, c.boxes.1).2 != 0.0)
            .count();
        assert!(
            turning > n / 100,
            "n={n}: {turning} contacts of turning shapes"
        );
        let mut first: Option<Vec<Contact>> = None;
        for (frame, pool, what) in &mut frames() {
            let got = pool.install(|| frame.step(&store).map(|r| r.contacts.to_vec()))?;
            assert_eq!(bits(&got), bits(&want), "n={n} {what}");
            match &first {
                None => first = Some(got),
                Some(f) => assert_eq!(&got, f, "n={n} {what}: points differ"),
            }
        }
        // No contact missed: every pair in contact at a sub-step has one.
        let found: std::collections::BTreeSet<BodyPair> = want.iter().map(|c| c.bodies).collect();
        let body = |h: BoxHandle| match store.props(h).unwrap().owner {
            Owner::NONE => Body::Box(h),
            o => Body::Owner(o),
        };
        let handles = store.handles().to_vec();
        let mut checked = 0;
        for (x, &hi) in handles.iter().enumerate() {
            for &hj in &handles[x + 1..] {
                let (pi, pj) = (store.props(hi).unwrap(), store.props(hj).unwrap());
                if !pi.filter.pairs_with(pj.filter)
                    || (pi.owner != Owner::NONE && pi.owner == pj.owner)
                    || (pi.turn == 0.0 && pj.turn == 0.0)
                {
                    continue;
                }
                let (a, b) = (pose(&store, hi), pose(&store, hj));
                let (si, sj) = (
                    store.get(hi).unwrap().swept(a.1),
                    store.get(hj).unwrap().swept(b.1),
                );
                // Far apart: nothing to check (the sub-steps cost a thousand distances).
                let margin = Vec2::splat(10.0);
                let grown = Aabb::new(si.min - margin, si.max + margin);
                if !grown.overlaps(&sj) {
                    continue;
                }
                if !si.overlaps(&sj) {
                    // The bounds hold every pose of the turn: the oracle agrees.
                    assert!(
                        !substeps_meet((&a.0, a.1, a.2), (&b.0, b.1, b.2)),
                        "n={n} {hi:?} {hj:?}: bounds miss a contact"
                    );
                    continue;
                }
                checked += 1;
                if substeps_meet((&a.0, a.1, a.2), (&b.0, b.1, b.2)) {
                    let (ba, bb) = (body(hi), body(hj));
                    let pair = if ba <= bb {
                        BodyPair { a: ba, b: bb }
                    } else {
                        BodyPair { a: bb, b: ba }
                    };
                    assert!(
                        found.contains(&pair),
                        "n={n}: {hi:?} and {hj:?} meet, no contact"
                    );
                }
            }
        }
        assert!(checked > 0);
        // A reported hit of a turning pair: the shapes are within the tolerance then.
        for c in &want {
            let (a, b) = (pose(&store, c.boxes.0), pose(&store, c.boxes.1));
            if c.status == SweepStatus::Hit && (a.2 != 0.0 || b.2 != 0.0) {
                let (a, b) = ((&a.0, a.1, a.2), (&b.0, b.1, b.2));
                let d = distance_at(a, b, f64::from(c.toi));
                let tol = tolerance(a, b);
                assert!(d <= tol, "n={n}: {c:?} apart by {d} > {tol} at its time");
            }
        }
    }
    Ok(())
}

/// `advance` with every box passing through: the oracle's contacts, and every shape
/// turned by its turn and moved by its motion, as `Shape::turned` and
/// `Shape::translated` do it; twice in a row, so the turned shapes' bounds are right.
#[test]
fn advance_turns_every_shape_by_its_turn() -> Result<(), Error> {
    for (n, seed) in [(60, 41), (800, 42)] {
        let start = scene(n, seed);
        let mut runs = frames();
        let mut stores: Vec<BoxStore> = runs.iter().map(|_| start.clone()).collect();
        let mut model = start.clone();
        for step in 0..2 {
            let want = all_pairs(&model);
            for ((frame, pool, what), store) in runs.iter_mut().zip(&mut stores) {
                pool.install(|| frame.advance(store, &Level::none()))?;
                let got = frame.report().contacts.to_vec();
                assert_eq!(bits(&got), bits(&want), "n={n} step {step} {what}");
            }
            for h in model.handles().to_vec() {
                let (shape, m, turn) = pose(&model, h);
                model.update_shape(h, shape.turned(turn).translated(m))?;
            }
            for ((_, _, what), store) in runs.iter().zip(&stores) {
                for &h in model.handles() {
                    assert_eq!(store.shape(h), model.shape(h), "{what} {h:?}");
                    assert_eq!(store.get(h), model.get(h), "{what} {h:?}");
                    assert_eq!(store.turn(h), model.turn(h), "{what} {h:?}");
                }
            }
        }
    }
    Ok(())
}

/// A turning laser with `Response::Stop` stops where it first touches a disc, turned
/// as far as it had turned then: never through it. One that turns into a wall stops
/// outside it, and one with `Destroy` is destroyed there, with a wall hit.
#[test]
fn turning_shapes_stop_and_are_destroyed_where_they_hit() -> Result<(), Error> {
    let mut rng = Rng::new(0x57_0b);
    for k in 0..60 {
        let capsule = k % 2 == 0;
        let turn = rng.range_f32(0.3, 1.5);
        let mut store = BoxStore::new();
        let beam = store.insert_shape(
            laser(capsule),
            BoxProps::new(Filter::ALL)
                .with_turn(turn)
                .with_response(Response::Stop),
        )?;
        let at = Vec2::from_angle(turn * rng.range_f32(0.3, 0.8)) * rng.range_f32(20.0, 90.0);
        let disc = Circle::new(at, 1.5);
        store.insert_shape(disc, BoxProps::new(Filter::ALL))?;
        let mut frame = Frame::new();
        frame.advance(&mut store, &Level::none())?;
        let hit = frame.report().contacts[0];
        let now = store.shape(beam).unwrap();
        assert_eq!(now, laser(capsule).turned(turn * hit.toi), "case {k}");
        let c = exact::core(&now);
        let d = exact::distance(&c.points, c.radius, &[at.as_dvec2()], 1.5);
        let tol = tolerance(
            (&laser(capsule), Vec2::ZERO, turn),
            (&Shape::Circle(disc), Vec2::ZERO, 0.0),
        );
        assert!(
            d > -1e-3 && d <= tol,
            "case {k}: the stopped beam is {d} from the disc"
        );
    }
    // Walls: a 16-unit tile map with one solid tile at 80..96 × 0..16; the laser turns
    // into it.
    let mut map = TileMap::new(20, 20, Vec2::splat(16.0), Vec2::new(-160.0, -160.0))?;
    map.set(15, 10, hantei::tilemap::SOLID)?;
    for response in [Response::Stop, Response::Destroy] {
        for capsule in [false, true] {
            let mut store = BoxStore::new();
            let start = laser(capsule).turned(-0.6);
            let beam = store.insert_shape(
                start,
                BoxProps::new(layers::player())
                    .with_turn(1.2)
                    .with_response(response),
            )?;
            let mut frame = Frame::new();
            frame.advance(&mut store, &Level::walls(&map))?;
            let r = frame.report();
            assert_eq!(r.wall_hits.len(), 1, "{response:?} capsule {capsule}");
            let w = r.wall_hits[0];
            assert!(w.toi > 0.3 && w.toi < 0.7, "{response:?}: toi {}", w.toi);
            match response {
                Response::Destroy => {
                    assert!(!store.contains(beam));
                    assert_eq!(r.destroyed[0].shape, start.turned(1.2 * w.toi));
                }
                _ => {
                    let now = store.shape(beam).unwrap();
                    assert_eq!(now, start.turned(1.2 * w.toi));
                    let cell = exact::core(&Shape::Aabb(Aabb::from_coords(80.0, 0.0, 96.0, 16.0)));
                    let c = exact::core(&now);
                    let d = exact::distance(&c.points, c.radius, &cell.points, 0.0);
                    assert!(d > -1e-3, "{response:?}: the stopped beam is {d} inside");
                }
            }
        }
    }
    Ok(())
}

/// A turning shape that slides (`Response::Slide`) slides as the bounds of its whole
/// turn: it ends turned by its turn and never inside a wall, whatever it hits.
#[test]
fn a_turning_slider_never_ends_inside_a_wall() -> Result<(), Error> {
    let mut rng = Rng::new(0x511d);
    // A closed room of 16-unit tiles: a border around 14 × 14 open tiles.
    let mut map = TileMap::new(16, 16, Vec2::splat(16.0), Vec2::ZERO)?;
    for k in 0..16 {
        for (x, y) in [(k, 0), (k, 15), (0, k), (15, k)] {
            map.set(x, y, hantei::tilemap::SOLID)?;
        }
    }
    let walls: Vec<Aabb> = (0..16u32)
        .flat_map(|y| (0..16u32).map(move |x| (x, y)))
        .filter(|&(x, y)| x == 0 || y == 0 || x == 15 || y == 15)
        .map(|(x, y)| {
            let (x, y) = (x as f32 * 16.0, y as f32 * 16.0);
            Aabb::from_coords(x, y, x + 16.0, y + 16.0)
        })
        .collect();
    let mut hit_walls = 0;
    for k in 0..200 {
        let mut store = BoxStore::new();
        let c = Vec2::new(rng.range_f32(40.0, 216.0), rng.range_f32(40.0, 216.0));
        let half = Vec2::from_angle(rng.range_f32(-3.2, 3.2)) * rng.range_f32(2.0, 20.0);
        let shape = if k % 2 == 0 {
            Shape::Capsule(Capsule::new(c - half, c + half, rng.range_f32(0.5, 3.0)))
        } else {
            Shape::Obb2(Obb2::from_angle(
                c,
                Vec2::new(half.length(), rng.range_f32(0.5, 3.0)),
                rng.range_f32(-3.2, 3.2),
            ))
        };
        let turn = rng.range_f32(-1.5, 1.5);
        let motion = Vec2::new(rng.range_f32(-60.0, 60.0), rng.range_f32(-60.0, 60.0));
        let slider = store.insert_shape(
            shape,
            BoxProps::new(layers::player())
                .with_motion(motion)
                .with_turn(turn)
                .with_response(Response::Slide),
        )?;
        let mut frame = Frame::new();
        frame.advance(&mut store, &Level::walls(&map))?;
        hit_walls += usize::from(!frame.report().wall_hits.is_empty());
        let now = store.shape(slider).unwrap();
        let core = exact::core(&now);
        for w in &walls {
            let cell = exact::core(&Shape::Aabb(*w));
            let d = exact::distance(&core.points, core.radius, &cell.points, 0.0);
            assert!(d > -1e-3, "case {k}: {now:?} is {d} inside {w:?}");
        }
        // Turned by its whole turn about its centre, wherever the slide took it.
        let centre = |s: &Shape| exact::core(s).centre;
        let moved = centre(&now) - centre(&shape);
        let want = shape
            .turned(turn)
            .translated(Vec2::new(moved.x as f32, moved.y as f32));
        let (a, b) = (exact::core(&now), exact::core(&want));
        for (p, q) in a.points.iter().zip(&b.points) {
            assert!(
                (*p - *q).length() < 1e-2,
                "case {k}: {now:?} against {want:?}"
            );
        }
    }
    assert!(hit_walls > 40, "{hit_walls} of 200 slid against a wall");
    Ok(())
}

/// A turning laser meets the static level's boxes as it meets the store's.
#[test]
fn turning_shapes_hit_static_boxes() -> Result<(), Error> {
    let mut statics = BoxStore::new();
    let post = statics.insert_shape(
        Circle::new(Vec2::from_angle(0.5) * 70.0, 3.0),
        BoxProps::new(layers::wall()),
    )?;
    let statics = StaticLevel::new(statics)?;
    for capsule in [false, true] {
        let mut store = BoxStore::new();
        store.insert_shape(
            laser(capsule),
            BoxProps::new(layers::player())
                .with_turn(1.0)
                .with_response(Response::Stop),
        )?;
        let mut frame = Frame::new();
        frame.advance(&mut store, &Level::none().with_statics(&statics))?;
        let r = frame.report();
        assert_eq!(r.static_hits.len(), 1, "capsule {capsule}");
        let h = r.static_hits[0];
        assert_eq!(h.static_handle, post);
        assert!(h.toi > 0.4 && h.toi < 0.5, "toi {}", h.toi);
    }
    Ok(())
}

/// The store's turn: set, read, kept by `update_shape` for rectangles and capsules,
/// refused for boxes and discs, for NaN and beyond `MAX_TURN`; its bounds hold every
/// pose of the turn; a refused change leaves the store as it was.
#[test]
fn the_store_keeps_turns_and_refuses_bad_ones() -> Result<(), Error> {
    let mut store = BoxStore::new();
    let plain = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
    let disc = store.insert_shape(Circle::new(Vec2::ZERO, 1.0), BoxProps::default())?;
    let beam = store.insert_shape(laser(false), BoxProps::default())?;
    assert_eq!(store.turn(beam), Some(0.0));
    assert_eq!(store.get(beam), Some(laser(false).bounds()));
    store.set_turn(beam, 0.25)?;
    assert_eq!(store.turn(beam), Some(0.25));
    assert_eq!(store.props(beam).unwrap().turn, 0.25);
    let bounds = store.get(beam).unwrap();
    assert_eq!(bounds, laser(false).turn_bounds(0.25));
    for k in 0..=100 {
        let b = laser(false).turned(0.25 * k as f32 / 100.0).bounds();
        let inside = bounds.min.x <= b.min.x
            && bounds.min.y <= b.min.y
            && bounds.max.x >= b.max.x
            && bounds.max.y >= b.max.y;
        assert!(inside, "{k}: {bounds:?} misses {b:?}");
    }
    let before = store.clone();
    for bad in [f32::NAN, f32::INFINITY, MAX_TURN * 1.01, -MAX_TURN * 1.01] {
        assert!(matches!(
            store.set_turn(beam, bad),
            Err(Error::InvalidMotion { .. })
        ));
    }
    assert!(matches!(
        store.set_turn(plain, 1.0),
        Err(Error::InvalidShape { .. })
    ));
    assert!(matches!(
        store.set_turn(disc, 1.0),
        Err(Error::InvalidShape { .. })
    ));
    assert!(
        store
            .insert_with(
                Aabb::from_coords(0.0, 0.0, 1.0, 1.0),
                BoxProps::default().with_turn(1.0)
            )
            .is_err()
    );
    assert!(
        store
            .insert_shape(
                Circle::new(Vec2::ZERO, 1.0),
                BoxProps::default().with_turn(1.0)
            )
            .is_err()
    );
    // Beyond the coordinate limit once turned: refused.
    let far = store.insert_shape(
        Shape::Capsule(Capsule::new(
            Vec2::new(9.8e7, 0.0),
            Vec2::new(9.8e7, 9.0e6),
            0.0,
        )),
        BoxProps::default(),
    )?;
    let before_far = store.clone();
    assert!(matches!(
        store.set_turn(far, 3.0),
        Err(Error::OutOfRange { .. })
    ));
    assert_eq!(store.get(far), before_far.get(far));
    store.remove(far)?;
    assert_eq!(store.set_turn(plain, 0.0), Ok(()));
    assert_eq!(store.turn(disc), Some(0.0));
    for h in [plain, disc, beam] {
        assert_eq!(store.props(h), before.props(h));
        assert_eq!(store.get(h), before.get(h));
    }
    // A new rectangle keeps the turn; a disc drops it; a capsule again has none.
    store.update_shape(beam, laser(true))?;
    assert_eq!(store.turn(beam), Some(0.25));
    assert_eq!(store.get(beam), Some(laser(true).turn_bounds(0.25)));
    store.update_shape(beam, Circle::new(Vec2::ZERO, 2.0))?;
    assert_eq!(store.turn(beam), Some(0.0));
    store.update_shape(beam, laser(true))?;
    assert_eq!(store.turn(beam), Some(0.0));
    // Removal keeps the other shapes' turns with them.
    let mut store = BoxStore::new();
    let hs: Vec<BoxHandle> = (0..6)
        .map(|k| {
            store.insert_shape(
                if k % 2 == 0 {
                    laser(true)
                } else {
                    laser(false)
                },
                BoxProps::default().with_turn(k as f32 * 0.1),
            )
        })
        .collect::<Result<_, _>>()?;
    store.remove(hs[0])?;
    store.remove(hs[3])?;
    for (k, &h) in hs.iter().enumerate().filter(|(k, _)| *k != 0 && *k != 3) {
        assert_eq!(store.turn(h), Some(k as f32 * 0.1));
    }
    Ok(())
}

/// Many frames of turning: a rectangle's axis stays a unit vector and a capsule keeps
/// its length, to rounding.
#[test]
fn a_thousand_frames_of_turning_keep_the_shapes_whole() -> Result<(), Error> {
    let mut store = BoxStore::new();
    let r = store.insert_shape(laser(false), BoxProps::default().with_turn(0.37))?;
    let c = store.insert_shape(laser(true), BoxProps::default().with_turn(-1.3))?;
    let mut frame = Frame::new();
    for _ in 0..1000 {
        frame.advance(&mut store, &Level::none())?;
    }
    let Some(Shape::Obb2(o)) = store.shape(r) else {
        panic!("a rectangle")
    };
    assert!((o.axis.length() - 1.0).abs() < 1e-6, "{o:?}");
    assert!(o.validate().is_ok());
    let Some(Shape::Capsule(k)) = store.shape(c) else {
        panic!("a capsule")
    };
    assert!(((k.a - k.b).length() - 200.0).abs() < 0.05, "{k:?}");
    assert!(((k.a + k.b) * 0.5).length() < 1e-3, "{k:?}");
    Ok(())
}
