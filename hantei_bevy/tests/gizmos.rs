//! `HanteiGizmosPlugin` at run time, headless: the lines and circles it draws are read
//! back from the gizmo asset that `bevy_gizmos` builds from them in `Last`.
//!
//! No render pipeline is needed for that: the app has the default gizmo group
//! (`init_gizmo_group`) and the `Assets<GizmoAsset>` resource, not the whole
//! `GizmoPlugin` (its `init_asset` wants Bevy's asset server).
#![cfg(feature = "gizmos")]

use bevy_app::{App, TaskPoolPlugin};
use bevy_asset::Assets;
use bevy_color::{Color, LinearRgba};
use bevy_gizmos::config::DefaultGizmoConfigGroup;
use bevy_gizmos::{AppGizmoBuilder, GizmoAsset, GizmoHandles};
use bevy_math::{Vec2, Vec3};
use bevy_time::{TimePlugin, TimeUpdateStrategy};
use bevy_transform::components::Transform;
use hantei_bevy::hantei::frame::layers;
use hantei_bevy::hantei::{Response, TileMap};
use hantei_bevy::{
    Collider, CollisionLayers, CollisionResponse, CollisionWalls, CollisionWorld, HanteiGizmos,
    HanteiGizmosPlugin, HanteiPlugin, Velocity,
};
use std::any::TypeId;

/// What the gizmos recorded in the last update: line segments (pairs of points) and
/// line strips (circles and polygons), with their colours.
struct Drawn {
    lines: Vec<(Vec3, LinearRgba)>,
    strips: Vec<(Vec3, LinearRgba)>,
}

fn drawn(app: &App) -> Option<Drawn> {
    let handles = app.world().resource::<GizmoHandles>();
    let handle = handles
        .handles()
        .get(&TypeId::of::<DefaultGizmoConfigGroup>())?
        .clone()?;
    let assets = app.world().resource::<Assets<GizmoAsset>>();
    let buffer = assets.get(&handle)?.buffer();
    let zip = |p: &[Vec3], c: &[LinearRgba]| p.iter().copied().zip(c.iter().copied()).collect();
    Some(Drawn {
        lines: zip(&buffer.list_positions, &buffer.list_colors),
        strips: zip(&buffer.strip_positions, &buffer.strip_colors),
    })
}

impl Drawn {
    /// How many strip points lie on the circle of `radius` around `center`.
    fn on_circle(&self, center: Vec2, radius: f32, color: Option<LinearRgba>) -> usize {
        (self.strips.iter())
            .filter(|(p, c)| {
                let d = p.truncate().distance(center);
                (d - radius).abs() < 1e-3 && color.is_none_or(|want| *c == want)
            })
            .count()
    }

    /// Whether a line segment runs from `a` to `b`.
    fn has_line(&self, a: Vec2, b: Vec2, color: LinearRgba) -> bool {
        self.lines.chunks_exact(2).any(|s| {
            s[0].0.truncate().distance(a) < 1e-3
                && s[1].0.truncate().distance(b) < 1e-3
                && s[0].1 == color
        })
    }

    /// Whether a strip passes through `p`.
    fn has_point(&self, p: Vec2) -> bool {
        self.strips
            .iter()
            .any(|(q, _)| q.truncate().distance(p) < 1e-3)
    }
}

/// hantei's colours as Bevy's.
fn linear(c: hantei_bevy::hantei::draw::Color) -> LinearRgba {
    Color::srgba_u8(c.r, c.g, c.b, c.a).to_linear()
}

fn gizmo_app() -> App {
    let mut app = App::new();
    app.add_plugins((
        TaskPoolPlugin::default(),
        TimePlugin,
        HanteiPlugin::default(),
        HanteiGizmosPlugin,
    ))
    .insert_resource(TimeUpdateStrategy::FixedTimesteps(1))
    .init_resource::<Assets<GizmoAsset>>()
    .init_gizmo_group::<DefaultGizmoConfigGroup>();
    app
}

#[test]
fn gizmos_draw_colliders_contacts_and_wall_hits() {
    let mut app = gizmo_app();
    // One wall tile at x 50..60, y 0..10.
    let map = TileMap::from_ascii(".....#", Vec2::splat(10.0), Vec2::ZERO).unwrap();
    app.insert_resource(CollisionWalls::new(map));
    // An enemy with a sensor player overlapping it: a contact every step.
    let enemy = Vec2::new(0.0, 40.0);
    app.world_mut().spawn((
        Collider::circle(4.0),
        Transform::from_translation(enemy.extend(0.0)),
        CollisionLayers(layers::enemy()),
    ));
    let player = Vec2::new(3.0, 40.0);
    app.world_mut().spawn((
        Collider::circle(2.0),
        Transform::from_translation(player.extend(0.0)),
        CollisionLayers(layers::player()),
    ));
    // A crate that stops at the wall's face (x = 50) in its first step.
    let crate_ = app
        .world_mut()
        .spawn((
            Collider::rect(Vec2::splat(2.0)),
            Transform::from_xyz(44.0, 5.0, 0.0),
            Velocity(Vec2::new(640.0, 0.0)),
            CollisionLayers(layers::enemy()),
            CollisionResponse(Response::Stop),
        ))
        .id();
    // Updates until the first fixed step has run and been drawn.
    while app.world().resource::<CollisionWorld>().steps() == 0 {
        app.update();
    }
    let d = drawn(&app).expect("the gizmos were recorded");
    let options = app.world().resource::<HanteiGizmos>().options;

    // Each collider's shape, in its layers' colour: the two discs as circles (a
    // strip of many points on each), the crate as a polygon through its corners.
    let enemy_color = linear((options.palette)(layers::ENEMY));
    let player_color = linear((options.palette)(layers::PLAYER));
    assert!(d.on_circle(enemy, 4.0, Some(enemy_color)) >= 16);
    assert!(d.on_circle(player, 2.0, Some(player_color)) >= 16);
    let at = app.world().get::<Transform>(crate_).unwrap().translation;
    assert_eq!(at.truncate(), Vec2::new(48.0, 5.0), "stopped at the wall");
    for corner in [Vec2::new(46.0, 3.0), Vec2::new(50.0, 7.0)] {
        assert!(d.has_point(corner), "the crate's corner {corner}");
    }
    // The wall tile, a square.
    assert!(d.has_point(Vec2::new(50.0, 0.0)) && d.has_point(Vec2::new(60.0, 10.0)));

    // The contact: the two discs again in the contact colour, and a ring of the marker's
    // radius around the contact point (an overlap: no normal line). The point is the
    // middle of the overlap, between the enemy's rim at x = 4 and the player's at 1.
    let contact = linear(options.contact);
    assert!(d.on_circle(player, 2.0, Some(contact)) >= 16);
    let overlap = Vec2::new(2.5, 40.0);
    assert!(d.on_circle(overlap, options.marker, Some(contact)) >= 16);
    // The wall hit: a ring around where the crate met the wall (the middle of its face,
    // on the wall's at x = 50), and its normal's line, twice the marker long, pointing
    // away from the wall.
    let hit = linear(options.wall_hit);
    let centre = Vec2::new(50.0, 5.0);
    assert!(d.on_circle(centre, options.marker, Some(hit)) >= 16);
    let tip = centre + Vec2::new(-2.0 * options.marker, 0.0);
    assert!(d.has_line(centre, tip, hit), "the wall hit's normal");

    // Switched off, the plugin draws nothing.
    app.world_mut().resource_mut::<HanteiGizmos>().enabled = false;
    app.update();
    assert!(drawn(&app).is_none_or(|d| d.lines.is_empty() && d.strips.is_empty()));
}
