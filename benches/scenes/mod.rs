//! Scenes shared by the frame benches (`benches/frame.rs`, `benches/frame_ratio.rs`).

use glam::Vec2;
use hantei::frame::{DemoFrame, Frame, Level, StaticLevel, layers};
use hantei::rng::Rng;
use hantei::{Aabb, BoxProps, BoxStore, Response};

/// The demo's store with every bullet destroyed at its first contact (a danmaku's
/// bullets: gone on hitting a wall, the player or an enemy).
pub fn destroying_bullets(demo: &DemoFrame) -> BoxStore {
    let mut store = demo.store.clone();
    let bullets = [layers::enemy_bullet(), layers::player_bullet()];
    for h in demo.store.handles() {
        if bullets.contains(&store.props(*h).expect("alive").filter) {
            store.set_response(*h, Response::Destroy).expect("alive");
        }
    }
    store
}

/// The `static_level/100k` scene: the demo's 100k bullets among 100k boxes of level
/// geometry (2 to 8 units, spread over the arena).
pub struct StaticScene {
    /// The demo (its map: the walls).
    pub demo: DemoFrame,
    /// The bullets in the steady state: those spawned inside the geometry were destroyed
    /// on their first frame (about a quarter); what is left flies among it, and about
    /// 4,900 of them hit it each frame.
    pub bullets: BoxStore,
    /// The geometry in a [`StaticLevel`] (indexed once).
    pub level: StaticLevel,
    /// The bullets and the geometry in one moving store (sorted again every frame).
    pub together: BoxStore,
}

/// Builds [`StaticScene`] (seeded: the same scene every run).
pub fn static_scene() -> StaticScene {
    let demo = DemoFrame::new(100_000, 50, 1);
    let arena = demo.map.bounds();
    let mut rng = Rng::new(0x57a71c);
    let mut geometry = BoxStore::new();
    for _ in 0..100_000 {
        let c = Vec2::new(
            rng.range_f32(arena.min.x + 20.0, arena.max.x - 20.0),
            rng.range_f32(arena.min.y + 20.0, arena.max.y - 20.0),
        );
        let half = Vec2::new(rng.range_f32(1.0, 4.0), rng.range_f32(1.0, 4.0));
        geometry
            .insert_with(
                Aabb::from_center_half_extents(c, half),
                BoxProps::new(layers::wall()),
            )
            .expect("a valid box");
    }
    let level = StaticLevel::new(geometry.clone()).expect("valid geometry");
    let mut bullets = destroying_bullets(&demo);
    Frame::new()
        .advance(&mut bullets, &Level::walls(&demo.map).with_statics(&level))
        .expect("a valid frame");
    let mut together = bullets.clone();
    for (h, b) in geometry.iter() {
        together
            .insert_with(b, geometry.props(h).expect("alive"))
            .expect("a valid box");
    }
    StaticScene {
        demo,
        bullets,
        level,
        together,
    }
}
