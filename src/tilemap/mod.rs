//! Tile maps: boxes moving through a grid of solid and empty tiles.
//!
//! A [`TileMap`] is a `width × height` grid of one-byte cells ([`EMPTY`] or a solid kind)
//! with a tile size and a world origin. [`TileMap::move_and_slide`] moves a box by a
//! motion, stopping it flush against solid tiles and letting it slide along them, the
//! way a platformer character moves; [`TileMap::cast`] moves it in a straight line and
//! stops at the first contact, the way a bullet moves. [`TileMap::move_and_slide_all`]
//! and [`TileMap::move_bullets`] do the same for many bodies in parallel.
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
//! // Next frame: gravity again; the body stays put, still grounded.
//! let r = map.move_and_slide(body, Vec2::new(0.0, 0.5))?;
//! assert_eq!(r.aabb, body);
//! assert!(r.grounded && r.hit_y.is_some());
//! # Ok::<(), hantei::Error>(())
//! ```
//!
//! # Conventions
//! - **Cells**: cell `(x, y)` covers `origin + (x, y) * tile_size` to
//!   `origin + (x + 1, y + 1) * tile_size`; indices grow with world coordinates. Edges
//!   are computed once, in `f32`, as `origin + k * tile_size`, and every query compares
//!   against those exact values.
//! - **y direction**: nothing depends on it except two choices, both explicit:
//!   [`SlideOptions::down`] (default [`Direction::PosY`], y-down screens; use
//!   [`SlideOptions::y_up`] for y-up worlds), and [`TileMap::from_ascii`] reading the
//!   first line as row 0 ([`TileMap::from_ascii_y_up`] reads it as the top row).
//! - **Solid is open**: a body is *inside* a solid tile when they overlap with positive
//!   area. Touching an edge or a corner never blocks: a body with `max.x` equal to a
//!   wall's `x` is flush, not penetrating, and slides along it freely.
//! - **Zero-size bodies** (segments, points) collide with the interior of the union of
//!   solid tiles: a point strictly inside a tile is blocked by that tile, a point on the
//!   seam between two tiles is blocked only when both are solid.
//! - **Outside the map** every cell has the kind [`TileMap::outside`]: [`EMPTY`] by
//!   default (bodies leave the map freely), or a solid kind set with
//!   [`TileMap::with_outside`] (the map is walled in). Hits on outside cells report the
//!   ring of cells just outside the map (index `-1` or `width`/`height`).
//!
//! # Algorithm: per-axis sweeps
//! [`TileMap::move_and_slide`] resolves the motion one axis at a time, in
//! [`SlideOptions::order`] (x then y by default). On one axis, only the *leading face*
//! (the side facing the motion) can meet a tile. The face is swept through the grid like
//! a DDA: slab by slab (a column of cells for x motion, a row for y), it tests the cells
//! of the slab that the body covers across the motion, starting with the slab the face
//! is in or flush against, and stops at the first one holding a solid cell:
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
//! for Ray Tracing", Eurographics 1987) along one axis, widened from a ray to the
//! body's whole face. Every slab the face crosses is tested, so no speed tunnels through
//! a one-tile wall,
//! and the cost is proportional to the tiles crossed (cells outside the map are uniform
//! and tested once). Resolving the axes separately is what lets a body slide along a
//! wall, walk along a floor under gravity, or jump while touching a wall (seed 003).
//!
//! [`TileMap::cast`] instead moves both axes at once along the straight segment
//! (a two-axis DDA, see [`CastResult`]); it reports the first contact and does not slide.
//!
//! # Guarantees
//! - **Flush**: a face stopped by a tile lands exactly on the tile's edge coordinate,
//!   `hit.coord` (no gap, no penetration) at every magnitude, including `10⁶` where `f32`
//!   steps are `0.0625`.
//! - **Never farther than asked**: each face moves in the direction of the motion by at
//!   most the motion (exactly, not to rounding): a sum that rounds past the target is
//!   rounded back. A motion smaller than the `f32` spacing at the body moves nothing.
//! - **Size**: the leading face is placed exactly and the trailing face follows by the
//!   same displacement. The size is kept exactly whenever the result is representable
//!   (always when both faces share a power-of-two range, as a 16-unit body at `10⁶`
//!   does); otherwise the trailing face lags by less than one ulp: a box never shrinks
//!   (a [`TileMap::cast`] stopped between edges may change it by one ulp either way).
//! - **Never through a solid tile, never into one**: a body that starts outside every
//!   solid tile ends outside all of them, and its path never enters one.
//!
//! # Bodies that start inside
//! A body already overlapping solid tiles may always move *out*, never further *in*: on
//! each axis, if the leading face is inside a solid tile (the tile lies across the
//! body's span, and the face is strictly between its edges), the body does not move on
//! that axis and the hit is reported with [`TileHit::embedded`]. Tiles overlapped only
//! behind the leading face do not block. So no move ever increases the overlap with any
//! solid tile, and a body sunk into a floor can jump out of it but not walk along it.
//!
//! # Grounded
//! [`SlideResult::grounded`] is true when, after the move, a motion of any size in the
//! [`SlideOptions::down`] direction would be blocked at once: the body's down face is
//! flush on a solid tile covering part of its width (not just a corner), or embedded in
//! one. It is a contact test, independent of whether the motion pushed down this frame
//! ([`TileMap::contact`] tests any side).
//!
//! # Many bodies
//! [`TileMap::move_and_slide_all`] and [`TileMap::move_bullets`] validate the whole
//! input first (an error names the lowest bad index and changes nothing), then run on
//! rayon's pool; results come in input order, identical for every thread count. A
//! bullet in open space costs a test of the few cells its swept box covers.
//!
//! # Checks
//! With `cfg(test)` or the `fuzzing` feature, `tilemap::check` holds the property
//! checks the tests and fuzz targets share (`check_move_and_slide`, `check_cast`) and a
//! builder of inputs from raw bytes.

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
pub use map::{EMPTY, SOLID, TileMap};
pub use slide::{AxisOrder, Direction, SlideOptions, SlideResult, TileEdge, TileHit};
