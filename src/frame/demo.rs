//! A ready-made bullet-hell frame for benchmarks, tests and examples.

use super::layers;
use crate::math::Aabb;
use crate::rng::Rng;
use crate::scene::generate;
use crate::store::{BoxProps, BoxStore, Owner};
use crate::tilemap::TileMap;
use glam::Vec2;

/// One frame of a bullet-hell game: bullets (rings and spirals from
/// [`generate::bullet_hell`], flying outward from their emitters), enemies of two boxes
/// each, a player, and a tile map walling the arena in.
#[derive(Debug, Clone)]
pub struct DemoFrame {
    /// Every box with its filter, owner and motion for this frame.
    pub store: BoxStore,
    /// The walls.
    pub map: TileMap,
    /// The bullets' boxes, in the order of [`DemoFrame::bullet_motions`] (for
    /// [`TileMap::move_bullets`]).
    pub bullets: Vec<Aabb>,
    /// The bullets' motions this frame.
    pub bullet_motions: Vec<Vec2>,
}

impl DemoFrame {
    /// A frame with `bullets` bullets, `enemies` enemies and one player, seeded.
    ///
    /// A bullet moves 1 to 4 units a frame, away from the centre of its pattern; one in
    /// twenty belongs to the player (flying up). The tile size is 16 units.
    ///
    /// # Panics
    /// Never for counts up to [`crate::MAX_BOXES`] in all (the scene is valid by
    /// construction).
    #[must_use]
    pub fn new(bullets: usize, enemies: usize, seed: u64) -> DemoFrame {
        let mut rng = Rng::new(seed);
        let boxes = generate::bullet_hell(bullets + 1, seed);
        let lo = boxes
            .iter()
            .fold(Vec2::splat(f32::INFINITY), |m, b| m.min(b.min));
        let hi = boxes
            .iter()
            .fold(Vec2::splat(f32::NEG_INFINITY), |m, b| m.max(b.max));
        // Walls one tile outside the scene, the map's origin aligned on the tile grid.
        let tile = 16.0;
        let origin = (lo / tile).floor() * tile - Vec2::splat(2.0 * tile);
        let cells = ((hi - origin) / tile).ceil() + Vec2::splat(2.0);
        let (w, h) = (cells.x as u32, cells.y as u32);
        let mut map = TileMap::new(w, h, Vec2::splat(tile), origin).expect("a valid map");
        for x in 0..w {
            map.set(x, 0, 1).expect("in the map");
            map.set(x, h - 1, 1).expect("in the map");
        }
        for y in 0..h {
            map.set(0, y, 1).expect("in the map");
            map.set(w - 1, y, 1).expect("in the map");
        }
        let centre = (lo + hi) * 0.5;
        let mut store = BoxStore::with_capacity(bullets + 2 * enemies + 1);
        let mut out = Vec::with_capacity(bullets);
        let mut motions = Vec::with_capacity(bullets);
        for (k, b) in boxes.iter().take(bullets).enumerate() {
            // Small boxes are bullets; the generator's large ones (its enemies) become
            // bullets too, shrunk, so that the count is exact.
            let b = if b.size().max_element() > 8.0 {
                Aabb::from_center_half_extents(b.center(), Vec2::splat(3.0))
            } else {
                *b
            };
            let player_side = k % 20 == 0;
            let motion = if player_side {
                Vec2::new(0.0, -6.0)
            } else {
                let away = (b.center() - centre).normalize_or(Vec2::X);
                // `Vec2::from_angle` with the platform-independent sine and cosine.
                let (sin, cos) = crate::rng::sin_cos(rng.range_f32(-0.6, 0.6));
                let turn = Vec2::new(cos, sin);
                turn.rotate(away) * rng.range_f32(1.0, 4.0)
            };
            let filter = if player_side {
                layers::player_bullet()
            } else {
                layers::enemy_bullet()
            };
            store
                .insert_with(
                    b,
                    BoxProps {
                        filter,
                        owner: Owner::NONE,
                        motion,
                        ..BoxProps::default()
                    },
                )
                .expect("valid bullet");
            out.push(b);
            motions.push(motion);
        }
        for e in 0..enemies {
            let c = Vec2::new(rng.range_f32(lo.x, hi.x), rng.range_f32(lo.y, hi.y));
            let motion = Vec2::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0));
            for half in [Vec2::new(10.0, 14.0), Vec2::new(22.0, 5.0)] {
                store
                    .insert_with(
                        Aabb::from_center_half_extents(c, half),
                        BoxProps {
                            filter: layers::enemy(),
                            owner: Owner(1 + e as u64),
                            motion,
                            ..BoxProps::default()
                        },
                    )
                    .expect("valid enemy");
            }
        }
        store
            .insert_with(
                Aabb::from_center_half_extents(centre, Vec2::splat(3.0)),
                BoxProps {
                    filter: layers::player(),
                    owner: Owner(0),
                    motion: Vec2::new(2.0, 0.0),
                    ..BoxProps::default()
                },
            )
            .expect("valid player");
        DemoFrame {
            store,
            map,
            bullets: out,
            bullet_motions: motions,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_frames_have_what_they_say() {
        let d = DemoFrame::new(5000, 20, 3);
        assert_eq!(d.store.len(), 5000 + 40 + 1);
        assert_eq!(d.bullets.len(), 5000);
        assert_eq!(d.bullet_motions.len(), 5000);
        // Every bullet starts inside the walls.
        let inner = d.map.bounds();
        assert!(d.bullets.iter().all(|b| inner.overlaps(b)));
        let mut frame = super::super::Frame::new();
        let r = frame.step(&d.store).unwrap();
        assert!(r.candidates > 0);
    }

    /// The walls, drawn tile by tile along the border, leave nearly the whole inside as
    /// the map's open interior (the benchmarks' wall pre-test relies on it), at the
    /// sizes the benchmarks use.
    #[test]
    fn demo_walls_leave_the_inside_open() {
        for n in [10_000, 100_000, 1_000_000] {
            let map = DemoFrame::new(n, 50, 1).map;
            let (w, h) = (map.width(), map.height());
            let [x0, y0, x1, y1] = map.interior.tiles();
            let (area, inside) = ((x1 - x0) * (y1 - y0), (w - 2) * (h - 2));
            assert!(
                100 * area >= 99 * inside,
                "{n} bullets: {:?} in {w} x {h}",
                [x0, y0, x1, y1]
            );
        }
    }
}
