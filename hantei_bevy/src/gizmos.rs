//! Gizmo drawing of the collision state, behind the `gizmos` feature.
//!
//! Add [`HanteiGizmosPlugin`] next to [`HanteiPlugin`](crate::HanteiPlugin) in an app
//! that has Bevy's gizmos (`DefaultPlugins`, or `bevy_gizmos`' `GizmoPlugin`). Each
//! `PostUpdate` it draws the walls, every collider (moving and static), each moving
//! collider's swept bounds and the last step's contacts, through hantei's
//! [`hantei::draw`] module. [`HanteiGizmos`] chooses what is drawn.

use crate::{CollisionWalls, CollisionWorld};
use bevy_app::{App, Plugin, PostUpdate};
use bevy_color::Color;
use bevy_ecs::prelude::*;
use bevy_gizmos::gizmos::Gizmos;
use bevy_math::Vec2;
use hantei::draw::{self, DebugDraw, DrawOptions};

/// Draws the collision state with gizmos each frame.
#[derive(Debug, Clone, Copy, Default)]
pub struct HanteiGizmosPlugin;

impl Plugin for HanteiGizmosPlugin {
    fn build(&self, app: &mut App) {
        app.init_resource::<HanteiGizmos>()
            .add_systems(PostUpdate, draw_collisions);
    }
}

/// What [`HanteiGizmosPlugin`] draws: hantei's [`DrawOptions`], and a switch.
#[derive(Resource, Debug, Clone, Copy)]
pub struct HanteiGizmos {
    /// Whether to draw at all. The default is `true`.
    pub enabled: bool,
    /// What to draw and in which colours. The default draws shapes, swept bounds,
    /// contacts and wall hits.
    pub options: DrawOptions,
}

impl Default for HanteiGizmos {
    fn default() -> Self {
        HanteiGizmos {
            enabled: true,
            options: DrawOptions {
                swept: true,
                ..DrawOptions::default()
            },
        }
    }
}

/// hantei's drawing calls, as gizmos.
struct GizmoDraw<'a, 'w, 's>(&'a mut Gizmos<'w, 's>);

fn color(c: draw::Color) -> Color {
    Color::srgba_u8(c.r, c.g, c.b, c.a)
}

impl DebugDraw for GizmoDraw<'_, '_, '_> {
    fn line(&mut self, a: Vec2, b: Vec2, c: draw::Color) {
        self.0.line_2d(a, b, color(c));
    }

    fn circle(&mut self, center: Vec2, radius: f32, c: draw::Color) {
        self.0.circle_2d(center, radius, color(c));
    }

    fn polygon(&mut self, points: &[Vec2], c: draw::Color) {
        let first = points.first().copied();
        self.0
            .linestrip_2d(points.iter().copied().chain(first), color(c));
    }
}

/// Draws the walls, the static and moving colliders and the last step's report.
fn draw_collisions(
    mut gizmos: Gizmos,
    settings: Res<HanteiGizmos>,
    world: Option<Res<CollisionWorld>>,
    walls: Option<Res<CollisionWalls>>,
) {
    let Some(world) = world.filter(|_| settings.enabled) else {
        return;
    };
    let mut out = GizmoDraw(&mut gizmos);
    let options = &settings.options;
    draw::draw_store(&mut out, world.statics().store(), options);
    draw::draw_world(
        &mut out,
        world.store(),
        walls.as_deref().map(|w| &w.map),
        Some(world.frame().report()),
        options,
    );
}
