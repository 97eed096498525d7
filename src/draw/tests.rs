//! The drawing functions against a backend that records every call.

use super::*;
use crate::frame::{Frame, Level, StaticLevel, layers};
use crate::math::{Circle, Obb2};
use crate::store::{BoxProps, Owner, Response};

/// One call to the backend.
#[derive(Debug, Clone, PartialEq)]
enum Call {
    Line(Vec2, Vec2, Color),
    Circle(Vec2, f32, Color),
    Polygon(Vec<Vec2>, Color),
}

/// A backend that records its calls.
#[derive(Default)]
struct Record(Vec<Call>);

impl DebugDraw for Record {
    fn line(&mut self, a: Vec2, b: Vec2, color: Color) {
        self.0.push(Call::Line(a, b, color));
    }
    fn circle(&mut self, center: Vec2, radius: f32, color: Color) {
        self.0.push(Call::Circle(center, radius, color));
    }
    fn polygon(&mut self, points: &[Vec2], color: Color) {
        self.0.push(Call::Polygon(points.to_vec(), color));
    }
}

/// The points of an axis-aligned box from `(x0, y0)` to `(x1, y1)`, in draw order.
fn quad(x0: f32, y0: f32, x1: f32, y1: f32) -> Vec<Vec2> {
    vec![
        Vec2::new(x0, y0),
        Vec2::new(x1, y0),
        Vec2::new(x1, y1),
        Vec2::new(x0, y1),
    ]
}

fn near(a: Vec2, b: Vec2) -> bool {
    a.distance(b) <= 1e-4
}

/// `got` is `want`, the points within 1e-4 (the sweeps' times of impact round).
fn assert_calls(got: &[Call], want: &[Call]) {
    let same = |g: &Call, w: &Call| match (g, w) {
        (Call::Line(a, b, c), Call::Line(x, y, z)) => near(*a, *x) && near(*b, *y) && c == z,
        (Call::Circle(p, r, c), Call::Circle(q, s, z)) => {
            near(*p, *q) && (r - s).abs() <= 1e-4 && c == z
        }
        (Call::Polygon(p, c), Call::Polygon(q, z)) => {
            p.len() == q.len() && p.iter().zip(q).all(|(a, b)| near(*a, *b)) && c == z
        }
        _ => false,
    };
    assert!(
        got.len() == want.len() && got.iter().zip(want).all(|(g, w)| same(g, w)),
        "got  {got:#?}\nwant {want:#?}"
    );
}

fn record(f: impl FnOnce(&mut Record)) -> Vec<Call> {
    let mut out = Record::default();
    f(&mut out);
    out.0
}

/// A box on the walls' layer, a disc on the player's, a rectangle turned a quarter
/// on the enemies', in that dense order.
fn three_shapes() -> (BoxStore, Obb2) {
    let mut store = BoxStore::new();
    let wall = BoxProps::new(layers::wall());
    store
        .insert_with(Aabb::from_coords(0.0, 0.0, 4.0, 2.0), wall)
        .unwrap();
    let player = BoxProps::new(layers::player());
    store
        .insert_shape(Circle::new(Vec2::new(10.0, 10.0), 3.0), player)
        .unwrap();
    let wing = Obb2::from_angle(
        Vec2::new(20.0, 0.0),
        Vec2::new(2.0, 1.0),
        core::f32::consts::FRAC_PI_2,
    );
    store
        .insert_shape(wing, BoxProps::new(layers::enemy()))
        .unwrap();
    (store, wing)
}

#[test]
fn each_shape_is_its_primitive_in_its_layers_colour() {
    let (store, wing) = three_shapes();
    let got = record(|out| draw_store(out, &store, &DrawOptions::default()));
    // The wing's local x axis points along +y: its first corner is center - (0, 2) -
    // (-1, 0).
    let turned = vec![
        Vec2::new(21.0, -2.0),
        Vec2::new(21.0, 2.0),
        Vec2::new(19.0, 2.0),
        Vec2::new(19.0, -2.0),
    ];
    let want = [
        Call::Polygon(quad(0.0, 0.0, 4.0, 2.0), Color::GREY),
        Call::Circle(Vec2::new(10.0, 10.0), 3.0, Color::GREEN),
        Call::Polygon(turned, Color::YELLOW),
    ];
    assert_calls(&got, &want);
    // The rectangle's corners are exactly Obb2::corners.
    assert_eq!(
        got[2],
        Call::Polygon(wing.corners().to_vec(), Color::YELLOW)
    );

    // A palette of the game's own.
    let options = DrawOptions {
        palette: |l| match l {
            layers::PLAYER => Color::BLUE,
            _ => Color::BLACK.with_alpha(10),
        },
        ..DrawOptions::default()
    };
    let colors: Vec<Color> = record(|out| draw_store(out, &store, &options))
        .into_iter()
        .map(|c| match c {
            Call::Line(.., c) | Call::Circle(.., c) | Call::Polygon(_, c) => c,
        })
        .collect();
    let faint = Color::rgba(0, 0, 0, 10);
    assert_eq!(colors, [faint, Color::BLUE, faint]);
}

#[test]
fn layers_choose_the_boxes_and_shapes_off_draws_none() {
    let (store, _) = three_shapes();
    let only = |layers| DrawOptions {
        layers,
        ..DrawOptions::default()
    };
    let got = record(|out| draw_store(out, &store, &only(layers::PLAYER)));
    assert_calls(
        &got,
        &[Call::Circle(Vec2::new(10.0, 10.0), 3.0, Color::GREEN)],
    );
    let got = record(|out| draw_store(out, &store, &only(layers::WALL | layers::ENEMY)));
    assert_eq!(got.len(), 2);
    assert!(matches!(got[0], Call::Polygon(_, Color::GREY)));
    assert!(matches!(got[1], Call::Polygon(_, Color::YELLOW)));
    assert!(record(|out| draw_store(out, &store, &only(layers::PLAYER_BULLET))).is_empty());
    let off = DrawOptions {
        shapes: false,
        ..DrawOptions::default()
    };
    assert!(record(|out| draw_store(out, &store, &off)).is_empty());

    // A box on no layer is drawn by default, and white.
    let mut store = BoxStore::new();
    let nowhere = BoxProps::new(crate::store::Filter::new(0, 0));
    store
        .insert_with(Aabb::from_coords(1.0, 1.0, 2.0, 2.0), nowhere)
        .unwrap();
    let got = record(|out| draw_store(out, &store, &DrawOptions::default()));
    assert_calls(
        &got,
        &[Call::Polygon(quad(1.0, 1.0, 2.0, 2.0), Color::WHITE)],
    );
}

#[test]
fn swept_bounds_come_first_at_half_alpha() {
    let mut store = BoxStore::new();
    let props = BoxProps::new(layers::player_bullet()).with_motion(Vec2::new(3.0, -1.0));
    store
        .insert_with(Aabb::from_coords(0.0, 0.0, 2.0, 2.0), props)
        .unwrap();
    let still = BoxProps::new(layers::enemy());
    store
        .insert_shape(Circle::new(Vec2::new(10.0, 0.0), 1.0), still)
        .unwrap();
    let options = DrawOptions {
        swept: true,
        ..DrawOptions::default()
    };
    let got = record(|out| draw_store(out, &store, &options));
    let want = [
        Call::Polygon(quad(0.0, -1.0, 5.0, 2.0), Color::CYAN.with_alpha(127)),
        // A box that does not move: its bounds.
        Call::Polygon(quad(9.0, -1.0, 11.0, 1.0), Color::YELLOW.with_alpha(127)),
        Call::Polygon(quad(0.0, 0.0, 2.0, 2.0), Color::CYAN),
        Call::Circle(Vec2::new(10.0, 0.0), 1.0, Color::YELLOW),
    ];
    assert_calls(&got, &want);
    // The disc's bounds are a little wider than the rounded ones, never narrower.
    let Call::Polygon(p, _) = &got[1] else {
        panic!("{got:?}")
    };
    assert!(p[0].x <= 9.0 && p[2].x >= 11.0);
}

#[test]
fn tiles_are_drawn_only_where_solid() {
    let map = TileMap::from_ascii("#..\n..#", Vec2::splat(10.0), Vec2::new(100.0, 0.0)).unwrap();
    let options = DrawOptions {
        tile: Color::BLUE,
        ..DrawOptions::default()
    };
    let got = record(|out| draw_tiles(out, &map, &options));
    let want = [
        Call::Polygon(map.tile_aabb(IVec2::new(0, 0)).corners_vec(), Color::BLUE),
        Call::Polygon(map.tile_aabb(IVec2::new(2, 1)).corners_vec(), Color::BLUE),
    ];
    assert_calls(&got, &want);
    // Row 0 at the origin, row 1 below it.
    assert_calls(
        &got[..1],
        &[Call::Polygon(quad(100.0, 0.0, 110.0, 10.0), Color::BLUE)],
    );
    assert_calls(
        &got[1..],
        &[Call::Polygon(quad(120.0, 10.0, 130.0, 20.0), Color::BLUE)],
    );

    let empty = TileMap::new(4, 3, Vec2::ONE, Vec2::ZERO).unwrap();
    assert!(record(|out| draw_tiles(out, &empty, &options)).is_empty());
}

trait CornersVec {
    fn corners_vec(&self) -> Vec<Vec2>;
}

impl CornersVec for Aabb {
    fn corners_vec(&self) -> Vec<Vec2> {
        quad(self.min.x, self.min.y, self.max.x, self.max.y)
    }
}

#[test]
fn a_contact_is_its_two_shapes_a_ring_and_its_normal() {
    let mut store = BoxStore::new();
    let enemy = BoxProps::new(layers::enemy()).with_owner(Owner::new(0, 0));
    store
        .insert_with(Aabb::from_coords(17.0, -5.0, 27.0, 5.0), enemy)
        .unwrap();
    // Meets the enemy's left face halfway through the frame, at x = 16.
    let bullet = BoxProps::new(layers::player_bullet())
        .with_motion(Vec2::new(32.0, 0.0))
        .with_response(Response::Destroy);
    store
        .insert_shape(Circle::new(Vec2::ZERO, 1.0), bullet)
        .unwrap();
    let mut frame = Frame::new();
    frame.advance(&mut store, &Level::none()).unwrap();
    let report = frame.report();
    assert_eq!((report.contacts.len(), report.destroyed.len()), (1, 1));

    let options = DrawOptions {
        marker: 5.0,
        ..DrawOptions::default()
    };
    let got = record(|out| draw_report(out, &store, report, &options));
    // boxes.0 is the enemy (an owner's body sorts before a lone box), so the normal is
    // the bullet's face that the enemy met: +x. The bullet is drawn where it was
    // destroyed, the ring around the contact point on the enemy's face.
    let red = Color::RED;
    let (bullet_at, at) = (Vec2::new(16.0, 0.0), Vec2::new(17.0, 0.0));
    let want = [
        Call::Polygon(quad(17.0, -5.0, 27.0, 5.0), red),
        Call::Circle(bullet_at, 1.0, red),
        Call::Circle(at, 5.0, red),
        Call::Line(at, at + Vec2::new(10.0, 0.0), red),
    ];
    assert_calls(&got, &want);

    // Off: nothing. draw_world after the frame: the store's enemy, then the contact.
    let off = DrawOptions {
        contacts: false,
        ..options
    };
    assert!(record(|out| draw_report(out, &store, report, &off)).is_empty());
    let got = record(|out| draw_world(out, &store, None, Some(report), &options));
    assert_calls(&got[1..], &want);
    assert_calls(
        &got[..1],
        &[Call::Polygon(quad(17.0, -5.0, 27.0, 5.0), Color::YELLOW)],
    );
}

#[test]
fn wall_and_static_hits_are_drawn_where_the_box_was_hit_or_is_now() {
    let map = TileMap::from_ascii("#....#", Vec2::splat(10.0), Vec2::ZERO).unwrap();
    let mut store = BoxStore::new();
    // Meets the right wall's face x = 50 halfway through the frame, and is destroyed.
    let bullet = BoxProps::new(layers::enemy_bullet())
        .with_motion(Vec2::new(56.0, 0.0))
        .with_response(Response::Destroy);
    store
        .insert_shape(Circle::new(Vec2::new(21.0, 5.0), 1.0), bullet)
        .unwrap();
    // Stops at the left wall's face x = 10, and stays in the store there.
    let crate_ = BoxProps::new(layers::enemy())
        .with_motion(Vec2::new(-8.0, 0.0))
        .with_response(Response::Stop);
    store
        .insert_with(Aabb::from_coords(14.0, 2.0, 16.0, 4.0), crate_)
        .unwrap();
    let mut frame = Frame::new();
    frame.advance(&mut store, &Level::walls(&map)).unwrap();
    let report = frame.report();
    assert_eq!(report.wall_hits.len(), 2, "{report:#?}");

    let got = record(|out| draw_report(out, &store, report, &DrawOptions::default()));
    let white = Color::WHITE;
    // The rings are at the contact points, on the walls' faces.
    let (bullet_at, bullet_hit) = (Vec2::new(49.0, 5.0), Vec2::new(50.0, 5.0));
    let crate_hit = Vec2::new(10.0, 3.0);
    let want = [
        Call::Circle(bullet_at, 1.0, white),
        Call::Circle(bullet_hit, 4.0, white),
        Call::Line(bullet_hit, bullet_hit - Vec2::new(8.0, 0.0), white),
        Call::Polygon(quad(10.0, 2.0, 12.0, 4.0), white),
        Call::Circle(crate_hit, 4.0, white),
        Call::Line(crate_hit, crate_hit + Vec2::new(8.0, 0.0), white),
    ];
    assert_calls(&got, &want);
    let off = DrawOptions {
        wall_hits: false,
        ..DrawOptions::default()
    };
    assert!(record(|out| draw_report(out, &store, report, &off)).is_empty());

    // A static box: the bullet's hit is drawn as a wall hit.
    let mut pillars = BoxStore::new();
    pillars
        .insert_with(
            Aabb::from_coords(40.0, 0.0, 42.0, 10.0),
            BoxProps::new(layers::wall()),
        )
        .unwrap();
    let level = StaticLevel::new(pillars).unwrap();
    let mut store = BoxStore::new();
    store
        .insert_shape(Circle::new(Vec2::new(21.0, 5.0), 1.0), bullet)
        .unwrap();
    frame
        .advance(&mut store, &Level::none().with_statics(&level))
        .unwrap();
    let report = frame.report();
    assert_eq!(report.static_hits.len(), 1);
    let got = record(|out| draw_report(out, &store, report, &DrawOptions::default()));
    let (bullet_at, at) = (Vec2::new(39.0, 5.0), Vec2::new(40.0, 5.0));
    let want = [
        Call::Circle(bullet_at, 1.0, white),
        Call::Circle(at, 4.0, white),
        Call::Line(at, at - Vec2::new(8.0, 0.0), white),
    ];
    assert_calls(&got, &want);
}

#[test]
fn an_empty_store_draws_nothing() {
    let store = BoxStore::new();
    let mut frame = Frame::new();
    let report = frame.step(&store).unwrap();
    let all = DrawOptions {
        swept: true,
        ..DrawOptions::default()
    };
    assert!(record(|out| draw_world(out, &store, None, Some(report), &all)).is_empty());
    let open = TileMap::new(3, 3, Vec2::ONE, Vec2::ZERO).unwrap();
    assert!(record(|out| draw_world(out, &store, Some(&open), None, &all)).is_empty());
}

#[test]
fn a_backend_can_be_a_trait_object() {
    let (store, _) = three_shapes();
    let mut recorder = Record::default();
    let out: &mut dyn DebugDraw = &mut recorder;
    draw_world(out, &store, None, None, &DrawOptions::default());
    draw_shape(
        out,
        &Shape::Aabb(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)),
        Color::RED,
    );
    assert_eq!(recorder.0.len(), 4);
    assert_calls(
        &recorder.0[3..],
        &[Call::Polygon(quad(0.0, 0.0, 1.0, 1.0), Color::RED)],
    );
}

#[test]
fn a_bad_marker_is_a_ring_of_radius_zero() {
    let map = TileMap::from_ascii(".#", Vec2::splat(10.0), Vec2::ZERO).unwrap();
    for marker in [f32::NAN, -3.0, f32::NEG_INFINITY, f32::INFINITY] {
        let mut store = BoxStore::new();
        let props = BoxProps::new(layers::player_bullet())
            .with_motion(Vec2::new(10.0, 0.0))
            .with_response(Response::Destroy);
        store
            .insert_with(Aabb::from_coords(4.0, 4.0, 6.0, 6.0), props)
            .unwrap();
        let mut frame = Frame::new();
        frame.advance(&mut store, &Level::walls(&map)).unwrap();
        let options = DrawOptions {
            marker,
            ..DrawOptions::default()
        };
        let got = record(|out| draw_report(out, &store, frame.report(), &options));
        let at = Vec2::new(10.0, 5.0);
        let white = Color::WHITE;
        let want = [
            Call::Polygon(quad(8.0, 4.0, 10.0, 6.0), white),
            Call::Circle(at, 0.0, white),
            Call::Line(at, at, white),
        ];
        assert_calls(&got, &want);
    }
}

#[test]
fn the_default_palette_tells_the_preset_layers_apart() {
    let presets = [
        layers::PLAYER,
        layers::ENEMY,
        layers::PLAYER_BULLET,
        layers::ENEMY_BULLET,
        layers::WALL,
    ];
    let mut colors: Vec<Color> = presets.iter().map(|&l| layer_color(l)).collect();
    colors.push(Color::WHITE);
    for (i, a) in colors.iter().enumerate() {
        for b in &colors[i + 1..] {
            assert_ne!(a, b, "{colors:?}");
        }
    }
    // The lowest layer decides; a game's own layers take the extra colours in turn.
    assert_eq!(
        layer_color(layers::ENEMY_BULLET | 1 << 5),
        layer_color(layers::ENEMY_BULLET)
    );
    assert_eq!(layer_color(1 << 5), Color::ORANGE);
    assert_eq!(layer_color(1 << 6), Color::BLUE);
    assert_eq!(layer_color(1 << 9), Color::ORANGE);
    assert_eq!(layer_color(1 << 31), layer_color(1 << 7));
    assert_eq!(layer_color(0), Color::WHITE);
}
