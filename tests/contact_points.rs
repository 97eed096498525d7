//! Contact points and depths in the frame's report, at the public API: a point on each
//! shape at the time of impact, and for a pair already overlapping the depth and the
//! normal of least overlap. Hand-made cases for each kind, walls and statics, `step`
//! and `advance`; random scenes against an `f64` oracle (signed distances to each shape
//! and a sweep of directions for the depth); the same bits at 1, 2 and 4 threads and
//! at every SIMD level.

use glam::{DVec2, Vec2};
use hantei::frame::{Frame, FrameConfig, Level, StaticLevel, layers};
use hantei::narrow::SweepStatus;
use hantei::rng::Rng;
use hantei::tilemap::TileMap;
use hantei::{Aabb, BoxProps, BoxStore, Circle, Obb2, Shape, SimdLevel};

fn close(p: Vec2, q: Vec2, tol: f32) -> bool {
    (p - q).length() <= tol
}

/// A bullet and a still enemy; the contact's point on the bullet and on the enemy.
fn bullet_hits(bullet: Shape, motion: Vec2, enemy: Shape) -> hantei::frame::Contact {
    let mut store = BoxStore::new();
    let b = store
        .insert_shape(
            bullet,
            BoxProps::new(layers::player_bullet()).with_motion(motion),
        )
        .unwrap();
    store
        .insert_shape(enemy, BoxProps::new(layers::enemy()))
        .unwrap();
    let mut frame = Frame::new();
    let report = frame.step(&store).unwrap();
    assert_eq!(report.contacts.len(), 1);
    let c = report.contacts[0];
    // Seen from the bullet: `a` on the bullet, `b` on the enemy.
    if c.boxes.0 == b {
        c
    } else {
        let p = c.point;
        hantei::frame::Contact {
            boxes: (c.boxes.1, c.boxes.0),
            normal: -c.normal,
            point: hantei::ContactPoint {
                a: p.b,
                b: p.a,
                normal: -p.normal,
                depth: p.depth,
            },
            ..c
        }
    }
}

#[test]
fn a_disc_hitting_a_face_touches_it_at_the_face() {
    let enemy = Shape::Aabb(Aabb::from_coords(10.0, -5.0, 14.0, 5.0));
    let disc = Shape::Circle(Circle::new(Vec2::new(0.0, 2.0), 1.0));
    let c = bullet_hits(disc, Vec2::new(20.0, 0.0), enemy);
    assert_eq!(c.status, SweepStatus::Hit);
    assert!(close(c.point.a, Vec2::new(10.0, 2.0), 1e-5), "{c:?}");
    assert!(close(c.point.b, Vec2::new(10.0, 2.0), 1e-5), "{c:?}");
    assert_eq!((c.point.normal, c.point.depth), (Vec2::new(-1.0, 0.0), 0.0));
}

#[test]
fn corner_hits_touch_at_the_corner() {
    let enemy = Shape::Aabb(Aabb::from_coords(10.0, 10.0, 14.0, 14.0));
    // A box flying diagonally meets the enemy corner to corner at (10, 10).
    let bullet = Shape::Aabb(Aabb::from_coords(0.0, 0.0, 2.0, 2.0));
    let c = bullet_hits(bullet, Vec2::new(16.0, 16.0), enemy);
    assert_eq!(c.status, SweepStatus::Hit);
    assert_eq!(
        (c.point.a, c.point.b),
        (Vec2::splat(10.0), Vec2::splat(10.0))
    );
    let diagonal = -Vec2::ONE.normalize();
    assert!(close(c.point.normal, diagonal, 1e-7), "{c:?}");
}

#[test]
fn a_disc_reaches_a_box_corner() {
    // The disc's centre runs along y = 12.7, above the box's top face, toward its
    // corner (10, 10): it meets the corner when the centre is 4.5 = r from it.
    let enemy = Shape::Aabb(Aabb::from_coords(10.0, 0.0, 14.0, 10.0));
    let disc = Shape::Circle(Circle::new(Vec2::new(0.0, 12.7), 4.5));
    let c = bullet_hits(disc, Vec2::new(20.0, 0.0), enemy);
    assert_eq!(c.status, SweepStatus::Hit);
    // Centre at (10 - 3.6, 12.7) = distance 4.5 from the corner (3.6² + 2.7² = 4.5²).
    assert!(close(c.point.b, Vec2::new(10.0, 10.0), 1e-5), "{c:?}");
    assert!(close(c.point.a, Vec2::new(10.0, 10.0), 1e-4), "{c:?}");
    assert!(close(c.point.normal, Vec2::new(-0.8, 0.6), 1e-5), "{c:?}");
}

#[test]
fn overlapping_discs_get_depth_and_normal() {
    let a = Shape::Circle(Circle::new(Vec2::new(3.0, 4.0), 2.5));
    let b = Shape::Circle(Circle::new(Vec2::ZERO, 4.0));
    let c = bullet_hits(a, Vec2::ZERO, b);
    assert_eq!(c.status, SweepStatus::Overlapping);
    assert_eq!(c.normal, Vec2::ZERO, "the contact's own normal stays zero");
    assert_eq!(c.point.depth, 1.5); // 2.5 + 4 - 5
    assert!(close(c.point.normal, Vec2::new(0.6, 0.8), 1e-7));
    assert!(close(c.point.a, Vec2::new(1.5, 2.0), 1e-6), "{c:?}");
    assert!(close(c.point.b, Vec2::new(2.4, 3.2), 1e-6), "{c:?}");
    assert!(close(c.point.b - c.point.a, c.point.normal * 1.5, 1e-6));
}

#[test]
fn rectangles() {
    // A diamond (a square turned 45°) flies down onto a box's top face: its lowest
    // corner touches the face.
    let diamond = Shape::Obb2(Obb2::from_angle(
        Vec2::new(5.0, 20.0),
        Vec2::ONE,
        core::f32::consts::FRAC_PI_4,
    ));
    let floor = Shape::Aabb(Aabb::from_coords(0.0, 0.0, 10.0, 4.0));
    let c = bullet_hits(diamond, Vec2::new(0.0, -20.0), floor);
    assert_eq!(c.status, SweepStatus::Hit);
    assert!(close(c.point.a, Vec2::new(5.0, 4.0), 1e-5), "{c:?}");
    assert!(close(c.point.b, Vec2::new(5.0, 4.0), 1e-5), "{c:?}");
    assert!(close(c.point.normal, Vec2::Y, 1e-6), "{c:?}");
    // A laser lying flat lands on the face: the middle of the shared stretch.
    let laser = Shape::Obb2(Obb2::new(
        Vec2::new(12.0, 10.0),
        Vec2::X,
        Vec2::new(4.0, 0.5),
    ));
    let c = bullet_hits(laser, Vec2::new(0.0, -10.0), floor);
    // The laser spans x in [8, 16], the box [0, 10]: the middle of [8, 10] is 9.
    assert!(close(c.point.a, Vec2::new(9.0, 4.0), 1e-5), "{c:?}");
    assert!(close(c.point.b, Vec2::new(9.0, 4.0), 1e-5), "{c:?}");
    // Overlapping rectangles: the separating axis of least overlap.
    let deep = Shape::Obb2(Obb2::new(
        Vec2::new(5.0, 4.0),
        Vec2::X,
        Vec2::new(1.0, 0.75),
    ));
    let c = bullet_hits(deep, Vec2::ZERO, floor);
    assert_eq!(c.status, SweepStatus::Overlapping);
    assert_eq!((c.point.normal, c.point.depth), (Vec2::Y, 0.75));
    assert!(close(c.point.a, Vec2::new(5.0, 3.25), 1e-6), "{c:?}");
    assert!(close(c.point.b, Vec2::new(5.0, 4.0), 1e-6), "{c:?}");
}

#[test]
fn wall_and_static_hits_carry_points() {
    // Tiles of 10: the wall column is x in [40, 50].
    let map = TileMap::from_ascii("....#\n....#\n....#", Vec2::splat(10.0), Vec2::ZERO).unwrap();
    let mut pillars = BoxStore::new();
    pillars
        .insert_shape(
            Circle::new(Vec2::new(20.0, 25.0), 2.0),
            BoxProps::new(layers::wall()),
        )
        .unwrap();
    let statics = StaticLevel::new(pillars).unwrap();
    let mut store = BoxStore::new();
    // A disc into the wall's left face at y = 5; a box falling onto the pillar's top.
    let disc = store
        .insert_shape(
            Circle::new(Vec2::new(30.0, 5.0), 1.0),
            BoxProps::new(layers::enemy_bullet()).with_motion(Vec2::new(20.0, 0.0)),
        )
        .unwrap();
    let falling = store
        .insert_with(
            Aabb::from_center_half_extents(Vec2::new(20.0, 15.0), Vec2::splat(1.0)),
            BoxProps::new(layers::enemy_bullet()).with_motion(Vec2::new(0.0, 10.0)),
        )
        .unwrap();
    let mut frame = Frame::new();
    frame
        .advance(&mut store, &Level::walls(&map).with_statics(&statics))
        .unwrap();
    let r = frame.report();
    let w = r
        .wall_hits
        .iter()
        .find(|w| w.handle == disc)
        .expect("a wall hit");
    assert_eq!(w.status, SweepStatus::Hit);
    assert!(close(w.point.a, Vec2::new(40.0, 5.0), 1e-5), "{w:?}");
    assert!(close(w.point.b, Vec2::new(40.0, 5.0), 1e-5), "{w:?}");
    assert_eq!(w.point.normal, Vec2::new(-1.0, 0.0));
    let s = r
        .static_hits
        .iter()
        .find(|h| h.handle == falling)
        .expect("a static hit");
    // y grows downward here: the box's bottom face at y = 16 meets the pillar's top at 23.
    assert!(close(s.point.a, Vec2::new(20.0, 23.0), 1e-5), "{s:?}");
    assert!(close(s.point.b, Vec2::new(20.0, 23.0), 1e-5), "{s:?}");
    // The body's view of its hits carries the same points.
    let hits = r.hits_of(hantei::frame::Body::Box(disc));
    assert!(hits.iter().any(|h| h.point == w.point));
}

/// A box overlapping a wall tile: the depth and normal against that tile.
#[test]
fn a_box_inside_a_wall_gets_its_depth() {
    let map = TileMap::from_ascii("..#..", Vec2::splat(10.0), Vec2::ZERO).unwrap();
    let mut store = BoxStore::new();
    let h = store
        .insert_with(
            Aabb::from_coords(17.0, 2.0, 21.0, 6.0),
            BoxProps::new(layers::enemy_bullet()),
        )
        .unwrap();
    let mut frame = Frame::new();
    frame.advance(&mut store, &Level::walls(&map)).unwrap();
    let w = frame.report().wall_hits[0];
    assert_eq!((w.handle, w.status), (h, SweepStatus::Overlapping));
    assert_eq!((w.point.normal, w.point.depth), (Vec2::new(-1.0, 0.0), 1.0));
    assert_eq!(w.point.a, Vec2::new(21.0, 4.0));
    assert_eq!(w.point.b, Vec2::new(20.0, 4.0));
}

// ---- random scenes against an f64 oracle ----

enum Solid {
    Rect(DVec2, DVec2, DVec2),
    Disc(DVec2, f64),
    /// A capsule: its segment's ends and its radius.
    Capsule(DVec2, DVec2, f64),
}

/// `s` moved by `offset`, in `f64`.
fn solid(s: &Shape, offset: DVec2) -> Solid {
    match s {
        Shape::Aabb(b) => {
            let (lo, hi) = (b.min.as_dvec2(), b.max.as_dvec2());
            Solid::Rect((lo + hi) / 2.0 + offset, DVec2::X, (hi - lo) / 2.0)
        }
        Shape::Circle(c) => Solid::Disc(c.center.as_dvec2() + offset, f64::from(c.radius)),
        Shape::Obb2(o) => Solid::Rect(
            o.center.as_dvec2() + offset,
            o.axis.as_dvec2().normalize(),
            o.half_extents.as_dvec2(),
        ),
        Shape::Capsule(k) => Solid::Capsule(
            k.a.as_dvec2() + offset,
            k.b.as_dvec2() + offset,
            f64::from(k.radius),
        ),
    }
}

fn sd(s: &Solid, p: DVec2) -> f64 {
    match *s {
        Solid::Disc(c, r) => (p - c).length() - r,
        Solid::Capsule(a, b, r) => {
            let ab = b - a;
            let len2 = ab.length_squared();
            let t = if len2 > 0.0 {
                ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
            } else {
                0.0
            };
            (p - (a + ab * t)).length() - r
        }
        Solid::Rect(c, u, e) => {
            let v = DVec2::new(-u.y, u.x);
            let d = p - c;
            let q = DVec2::new(d.dot(u).abs(), d.dot(v).abs()) - e;
            q.max(DVec2::ZERO).length() + q.x.max(q.y).min(0.0)
        }
    }
}

fn reach(s: &Solid, d: DVec2) -> f64 {
    match *s {
        Solid::Disc(c, r) => c.dot(d) + r * d.length(),
        Solid::Capsule(a, b, r) => a.dot(d).max(b.dot(d)) + r * d.length(),
        Solid::Rect(c, u, e) => {
            let v = DVec2::new(-u.y, u.x);
            c.dot(d) + e.x * u.dot(d).abs() + e.y * v.dot(d).abs()
        }
    }
}

/// The least overlap over 3,600 directions, refined twice by a hundredth of the step.
fn least_overlap(a: &Solid, b: &Solid) -> f64 {
    let f = |th: f64| {
        let n = DVec2::new(th.cos(), th.sin());
        reach(b, n) + reach(a, -n)
    };
    let (mut best_th, mut best) = (0.0, f64::INFINITY);
    let mut step = core::f64::consts::TAU / 3600.0;
    for (center, n) in [(0.0, 1800), (f64::NAN, 200), (f64::NAN, 200)] {
        let c = if center.is_nan() { best_th } else { center };
        if center.is_nan() {
            step /= 100.0;
        }
        for k in -n..=n {
            let th = c + f64::from(k) * step;
            let o = f(th);
            if o < best {
                (best, best_th) = (o, th);
            }
        }
    }
    best
}

fn random_scene(rng: &mut Rng, n: usize) -> BoxStore {
    let mut store = BoxStore::new();
    for k in 0..n {
        let c = Vec2::new(rng.range_f32(0.0, 200.0), rng.range_f32(0.0, 200.0));
        let size = |rng: &mut Rng| rng.range_f32(0.0, 8.0);
        let shape = match rng.below(3) {
            0 => Shape::Aabb(Aabb::from_center_half_extents(
                c,
                Vec2::new(size(rng), size(rng)),
            )),
            1 => Shape::Circle(Circle::new(c, size(rng))),
            _ => Shape::Obb2(Obb2::from_angle(
                c,
                Vec2::new(size(rng), size(rng)),
                rng.range_f32(-3.2, 3.2),
            )),
        };
        let motion = if rng.below(4) == 0 {
            Vec2::ZERO
        } else {
            Vec2::new(rng.range_f32(-40.0, 40.0), rng.range_f32(-40.0, 40.0))
        };
        let filter = if k % 2 == 0 {
            layers::player_bullet()
        } else {
            layers::enemy()
        };
        store
            .insert_shape(shape, BoxProps::new(filter).with_motion(motion))
            .unwrap();
    }
    store
}

/// Every contact of random scenes of every kind pair: each point on its own shape at
/// the time of impact; a hit's two points together and on both shapes; an overlap's
/// depth the least overlap of the two shapes, achieved along its normal.
#[test]
fn random_scenes_match_the_oracle() {
    let mut rng = Rng::new(0xC0_4AC7_5EED);
    let (mut hits, mut overlaps) = (0, 0);
    for round in 0..40 {
        let store = random_scene(&mut rng, 300);
        let mut frame = Frame::new();
        let report = frame.step(&store).unwrap();
        for c in report.contacts {
            let (i, j) = (
                store.index_of(c.boxes.0).unwrap(),
                store.index_of(c.boxes.1).unwrap(),
            );
            let at = |k: usize| {
                let m = Vec2::new(store.motion_x()[k], store.motion_y()[k]);
                solid(&store.shape_at(k).unwrap(), m.as_dvec2() * f64::from(c.toi))
            };
            let (sa, sb) = (at(i), at(j));
            let (pa, pb) = (c.point.a.as_dvec2(), c.point.b.as_dvec2());
            let what = format!("round {round}: {c:?}");
            // Coordinates up to ~250: f32 rounding of the time of impact moves the
            // shapes by up to ~1e-4.
            let tol = 2e-3;
            assert!(sd(&sa, pa).abs() <= tol, "a off a: {what}");
            assert!(sd(&sb, pb).abs() <= tol, "b off b: {what}");
            assert!((c.point.normal.length() - 1.0).abs() < 1e-5, "{what}");
            match c.status {
                SweepStatus::Hit => {
                    hits += 1;
                    assert_eq!(c.point.depth, 0.0);
                    assert!((pa - pb).length() <= 2.0 * tol, "apart: {what}");
                    assert!(
                        sd(&sb, pa).abs() <= tol && sd(&sa, pb).abs() <= tol,
                        "{what}"
                    );
                    let unit = c.normal.normalize();
                    assert!(close(c.point.normal, unit, 1e-6), "{what}");
                }
                _ => {
                    overlaps += 1;
                    let least = least_overlap(&sa, &sb);
                    let depth = f64::from(c.point.depth);
                    assert!(
                        depth <= least + 1e-4 && depth >= least - 2e-3,
                        "{least}: {what}"
                    );
                    let n = c.point.normal.as_dvec2();
                    let along = reach(&sb, n) + reach(&sa, -n);
                    assert!((along - depth).abs() <= 1e-4, "{along}: {what}");
                }
            }
        }
    }
    assert!(
        hits > 200 && overlaps > 100,
        "{hits} hits, {overlaps} overlaps"
    );
}

/// `step` and `advance` (nothing stops or is destroyed) report the same points, and so
/// does every thread count and SIMD level, bit for bit.
#[test]
fn same_points_from_step_and_advance_at_any_thread_count_and_simd_level() {
    let mut rng = Rng::new(0xD37);
    let store = random_scene(&mut rng, 2000);
    let mut frame = Frame::new();
    let want = frame.step(&store).unwrap().to_owned_report();
    assert!(want.contacts.len() > 50);
    let bits = |cs: &[hantei::frame::Contact]| -> Vec<[u32; 7]> {
        cs.iter()
            .map(|c| {
                let p = c.point;
                [p.a.x, p.a.y, p.b.x, p.b.y, p.normal.x, p.normal.y, p.depth].map(f32::to_bits)
            })
            .collect()
    };
    let mut moved = store.clone();
    let mut frame = Frame::new();
    frame.advance(&mut moved, &Level::none()).unwrap();
    assert_eq!(bits(frame.report().contacts), bits(&want.contacts));
    for threads in [1, 2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        for simd in [SimdLevel::Scalar, SimdLevel::Portable, SimdLevel::best()] {
            let mut frame = Frame::with_config(FrameConfig {
                simd,
                parallel_threshold: 0,
                ..FrameConfig::default()
            });
            let got = pool.install(|| frame.step(&store).unwrap().to_owned_report());
            assert_eq!(
                bits(&got.contacts),
                bits(&want.contacts),
                "{threads} {simd:?}"
            );
            assert_eq!(got.contacts, want.contacts);
        }
    }
}
