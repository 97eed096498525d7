//! Tile maps: boxes that move through a grid of solid and empty tiles.
//!
//! A [`TileMap`] is a `width × height` grid of one-byte cells. Each cell is [`EMPTY`] or
//! a solid kind. The map also has a tile size and a world origin.
//!
//! - [`TileMap::move_and_slide`] moves a box the way a platformer character moves. The
//!   box stops flush against solid tiles and slides along them.
//! - [`TileMap::cast`] moves a box the way a bullet moves. The box travels in a straight
//!   line and stops at the first contact.
//! - [`TileMap::move_and_slide_all`] and [`TileMap::move_bullets`] do the same for many
//!   bodies in parallel.
//!
//! ```
//! use hantei::{Aabb, tilemap::{TileEdge, TileMap}};
//! use glam::{IVec2, Vec2};
//! // y points down: row 0 is the top line of the picture.
//! let art = [
//!     "......",
//!     "......",
//!     "######",
//! ];
//! let map = TileMap::from_ascii(&art.join("\n"), Vec2::splat(16.0), Vec2::ZERO)?;
//! // A 12×14 character in the air, falling 9 units this frame while walking right.
//! let mut body = Aabb::from_min_size(Vec2::new(20.0, 14.0), Vec2::new(12.0, 14.0));
//! let r = map.move_and_slide(body, Vec2::new(2.0, 9.0))?;
//! assert_eq!(r.aabb.max.y, 32.0); // landed exactly on the floor's top edge
//! assert_eq!(r.aabb.min, Vec2::new(22.0, 18.0)); // walked the full 2 units
//! let hit = r.hit_y.unwrap();
//! assert_eq!((hit.edge, hit.coord, hit.tile), (TileEdge::MinY, 32.0, IVec2::new(1, 2)));
//! assert!(r.grounded);
//! body = r.aabb;
//! // Next frame: gravity pulls again. The body stays put and is still grounded.
//! let r = map.move_and_slide(body, Vec2::new(0.0, 0.5))?;
//! assert_eq!(r.aabb, body);
//! assert!(r.grounded && r.hit_y.is_some());
//! # Ok::<(), hantei::Error>(())
//! ```
//!
//! # Conventions
//!
//! **Cells.** Cell `(x, y)` covers the box from `origin + (x, y) * tile_size` to
//! `origin + (x + 1, y + 1) * tile_size`. Indices grow with world coordinates. Each edge
//! is computed once in `f32` as `origin + k * tile_size`. Every query compares against
//! those exact values.
//!
//! **Direction of y.** Only two things depend on it, and you choose both:
//! - [`SlideOptions::down`] says which way is down. The default is [`Direction::PosY`],
//!   for y-down screens. Use [`SlideOptions::y_up`] for y-up worlds.
//! - [`TileMap::from_ascii`] reads the first line as row 0.
//!   [`TileMap::from_ascii_y_up`] reads the first line as the top row.
//!
//! **Touching is not blocking.** A body is *inside* a solid tile when the two overlap
//! with positive area. Touching an edge or a corner never blocks. For example, a body
//! whose `max.x` equals a wall's `x` is flush with the wall. It does not penetrate it,
//! and it slides along it freely.
//!
//! **Zero-size bodies.** Segments and points collide with the interior of the union of
//! solid tiles. A point strictly inside a tile is blocked by that tile. A point on the
//! seam between two tiles is blocked only when both tiles are solid.
//!
//! **Outside the map.** Every cell outside the map has the kind [`TileMap::outside`].
//! By default this is [`EMPTY`], so bodies leave the map freely. Set a solid kind with
//! [`TileMap::with_outside`] to wall the map in. A hit on an outside cell reports a cell
//! in the ring just outside the map, with index `-1`, `width` or `height`.
//!
//! # Algorithm: one axis at a time
//!
//! [`TileMap::move_and_slide`] resolves the motion one axis at a time. The order comes
//! from [`SlideOptions::order`] and is x then y by default. On one axis, only the
//! *leading face* can meet a tile. This is the side of the body that faces the motion.
//!
//! The face is swept through the grid one slab at a time. A slab is a column of cells
//! for motion along x, or a row for motion along y. In each slab, the sweep tests the
//! cells that the body covers across the motion. It starts with the slab that the face
//! is in or flush against. It stops at the first slab that holds a solid cell:
//! ```text
//!                  motion ──▶
//!          column  0  1  2  3  4
//!          row 0   .  .  .  .  #    not under the body: never tested
//!          row 1  [B  B] .  .  .    the body covers rows 1-2 across the motion
//!          row 2  [B  B] .  #  .
//!                       ^  ^
//!                       |  slab 3 holds (3, 2): stop with max.x = x(3), exactly
//!                       slab 2: the leading face is flush against it, tested first
//! ```
//! This is the grid traversal of Amanatides & Woo ("A Fast Voxel Traversal Algorithm
//! for Ray Tracing", Eurographics 1987) along one axis. It is widened from a ray to the
//! whole face of the body.
//!
//! The sweep tests every slab the face crosses, so no speed can tunnel through a wall
//! one tile thick. The cost grows with the number of tiles crossed. Cells outside the
//! map are all alike, so the sweep tests them only once. Because each axis is resolved
//! on its own, a body can slide along a wall, walk along a floor under gravity, and
//! jump while it touches a wall.
//!
//! [`TileMap::cast`] works differently. It moves along both axes at once, following the
//! straight segment of the motion. It reports the first contact and does not slide. See
//! [`CastResult`] for details.
//!
//! # Guarantees
//!
//! **Flush contact.** When a tile stops a face, the face lands exactly on the tile's
//! edge coordinate, `hit.coord`. There is no gap and no penetration. This holds at every
//! magnitude, even at `10⁶`, where the spacing of `f32` values is `0.0625`.
//!
//! **Never farther than asked.** Each face moves in the direction of the motion by at
//! most the motion. This bound is exact, not just up to rounding. If a sum rounds past
//! the target, the result is rounded back. A motion smaller than the `f32` spacing at
//! the body does not move it at all.
//!
//! **Size.** The leading face is placed exactly. The trailing face follows by the same
//! displacement. The size stays exact whenever the result is representable. This is
//! always true when both faces lie in the same power-of-two range, as for a 16-unit body
//! at `10⁶`. Otherwise the trailing face lags by less than one ulp, so a box never
//! shrinks. The one exception is [`TileMap::cast`]: when it stops between tile edges, the
//! size may change by one ulp in either direction.
//!
//! **Never through a solid tile, never into one.** A body that starts outside every
//! solid tile ends outside all of them. Its path never enters one.
//!
//! # Bodies that start inside
//!
//! A body that already overlaps solid tiles may always move *out* of them, but never
//! further *in*. On each axis, the body checks whether its leading face is inside a
//! solid tile. That means the tile lies across the body's span and the face is strictly
//! between the tile's edges. If so, the body does not move on that axis, and the hit is
//! reported with [`TileHit::embedded`]. Tiles that overlap the body only behind the
//! leading face do not block it.
//!
//! As a result, no move ever increases the overlap with any solid tile. A body sunk into
//! a floor can jump out of it, but it cannot walk along it.
//!
//! # Grounded
//!
//! [`SlideResult::grounded`] tells you whether the body stands on something after the
//! move. It is true when any motion in the [`SlideOptions::down`] direction would be
//! blocked at once. That happens in two cases:
//! - The body's down face is flush on a solid tile that covers part of its width. A
//!   corner alone does not count.
//! - The body's down face is embedded in a solid tile.
//!
//! This is a contact test. It does not depend on whether this frame's motion pushed
//! down. To test any other side, use [`TileMap::contact`].
//!
//! # Many bodies
//!
//! [`TileMap::move_and_slide_all`] and [`TileMap::move_bullets`] validate the whole input
//! first. If any input is bad, the error names the lowest bad index and nothing changes.
//! Then they run on rayon's thread pool. Results come back in input order, and they are
//! identical for every thread count. A bullet in open space costs only a test of the few
//! cells its swept box covers.
//!
//! # Checks
//!
//! With `cfg(test)` or the `fuzzing` feature, the module `tilemap::check` is available.
//! It holds the property checks that the tests and fuzz targets share, such as
//! `check_move_and_slide` and `check_cast`. It also holds a builder that makes inputs
//! from raw bytes.

mod batch;
mod bits;
mod cast;
mod exact;
mod map;
mod open;
mod slide;
#[cfg(feature = "serde")]
mod wire;

#[cfg(any(test, feature = "fuzzing"))]
pub mod check;

#[cfg(test)]
mod tests;

pub use batch::{BulletHit, BulletResponse};
pub use cast::CastResult;
pub(crate) use map::Reach;
pub use map::{EMPTY, SOLID, TileMap};
pub use slide::{AxisOrder, Direction, SlideOptions, SlideResult, TileEdge, TileHit};
pub(crate) use slide::{free_target, place_axis};
