//! # hantei (当たり判定, "hit detection")
//!
//! hantei finds every collision among tens of thousands to a million moving 2D shapes
//! per frame. It is fast enough for a 60 Hz game loop. It gives the same answer in the
//! same order on every run, thread count and SIMD level.
//!
//! ## A frame loop
//! A game keeps its shapes in a [`BoxStore`] and keeps one [`Frame`](frame::Frame).
//! Each shape has a motion, its displacement this frame. Each frame, the game calls
//! [`Frame::advance`](frame::Frame::advance) once. That call finds every contact,
//! checks the walls of a [`TileMap`], and moves every shape. A shape whose
//! [`Response`] is `Stop` stops at its first hit, one whose response is `Destroy`
//! leaves the store, and one whose response is `Slide` slides along walls like a
//! platformer character. Each shape responds only to its solid layers
//! ([`Filter::solid`]). The rest are sensor contacts: the player that slides along
//! walls only reports the bullets that touch it. The game then reads what happened
//! with [`Frame::report`](frame::Frame::report).
//!
//! ```
//! use glam::Vec2;
//! use hantei::frame::{Frame, Level, layers};
//! use hantei::{BoxProps, BoxStore, Circle, Owner, Response, TileMap};
//!
//! // A corridor with a wall at each end, tiles 10 units wide.
//! let walls = TileMap::from_ascii("#..........#", Vec2::splat(10.0), Vec2::ZERO)?;
//!
//! let mut store = BoxStore::new();
//! let bullet = BoxProps::new(layers::player_bullet())
//!     .with_motion(Vec2::new(200.0, 0.0)) // fast enough to cross the map in one frame
//!     .with_response(Response::Destroy)
//!     .with_user_data(1);
//! store.insert_shape(Circle::new(Vec2::new(15.0, 5.0), 1.0), bullet)?;
//! let enemy = BoxProps::new(layers::enemy())
//!     .with_owner(Owner::new(0, 0))
//!     .with_user_data(2);
//! store.insert_shape(Circle::new(Vec2::new(60.0, 5.0), 4.0), enemy)?;
//!
//! let mut frame = Frame::new(); // keep it: it holds buffers and events between frames
//! frame.advance(&mut store, &Level::walls(&walls))?;
//!
//! let report = frame.report();
//! assert_eq!(report.began[0].user_data, (2, 1)); // bullet 1 hit enemy 2
//! assert_eq!(report.destroyed.len(), 1); // the bullet is gone
//! assert_eq!(store.len(), 1); // it never reached the wall
//! # Ok::<(), hantei::Error>(())
//! ```
//!
//! `examples/game_loop.rs` is a complete bullet-hell loop built on this call, and
//! `examples/platformer.rs` a platformer with gravity, a moving platform and coins.
//! Copy them and grow them.
//!
//! ## Moving shapes yourself
//! A game that moves its shapes itself calls [`Frame::step`](frame::Frame::step)
//! instead. `step` finds the contacts and moves nothing. The game sets each motion,
//! calls `step`, reads the [`FrameReport`](frame::FrameReport), and then moves its
//! shapes and removes the ones that died.
//!
//! ```
//! use glam::Vec2;
//! use hantei::frame::{Frame, layers};
//! use hantei::{Aabb, BoxProps, BoxStore};
//!
//! let mut store = BoxStore::new();
//! let wall = store.insert_with(
//!     Aabb::from_coords(100.0, -50.0, 110.0, 50.0),
//!     BoxProps::new(layers::wall()),
//! )?;
//! let bullet = store.insert_with(
//!     Aabb::from_coords(0.0, -1.0, 2.0, 1.0),
//!     BoxProps::new(layers::enemy_bullet()),
//! )?;
//! let velocity = Vec2::new(40.0, 0.0); // units per frame
//!
//! let mut frame = Frame::new();
//! let mut frames = 0;
//! while store.contains(bullet) {
//!     store.set_motion(bullet, velocity)?;
//!     let report = frame.step(&store)?;
//!     frames += 1;
//!     if let Some(hit) = report.contacts.first() {
//!         assert_eq!(hit.boxes, (wall, bullet)); // boxes.0 belongs to the smaller body
//!         assert!((hit.toi - 0.45).abs() < 1e-6); // 45% into the third frame
//!         assert_eq!(hit.normal, Vec2::X); // the wall's face that the bullet met
//!         store.remove(bullet)?;
//!     } else {
//!         let moved = store.get(bullet).expect("alive").translated(velocity);
//!         store.update(bullet, moved)?;
//!     }
//! }
//! assert_eq!(frames, 3);
//! // The next step reports that the contact ended.
//! assert_eq!(frame.step(&store)?.ended.len(), 1);
//! # Ok::<(), hantei::Error>(())
//! ```
//!
//! ## Conventions
//! - **Coordinates** are 2D `f32` values. Nothing depends on which way y points. The
//!   tile map learns the direction of gravity from [`tilemap::SlideOptions::down`].
//! - **One coordinate limit.** Every shape in a store lies within
//!   `±`[`MAX_COORDINATE`] on both axes, and so does every place its motion takes it.
//!   The store, the frame, the static level and the casts refuse anything further
//!   with [`Error::OutOfRange`]. Below the limit every answer is exact up to rounding.
//!   A region or a point query may reach beyond the limit, and finds nothing there.
//!   The broad phase on slices and a tile map's own calls only compare and add
//!   coordinates, so they accept any finite value.
//! - **Valid boxes** have finite coordinates and `min <= max`. Every entry point
//!   answers a NaN, an infinity or an inverted box with [`Error::InvalidBox`].
//! - **Shapes in the store are closed.** Touching counts as overlapping. Two boxes
//!   overlap when `a.min.x <= b.max.x && b.min.x <= a.max.x` and the same holds on y,
//!   compared on the stored values ([`Aabb::overlaps`]). Two circles at distance
//!   `r₁ + r₂` touch. A sweep that ends flush at `t = 1` is a hit. Two shapes that
//!   touch when a frame begins are in contact. That contact is a hit at `t = 0` when
//!   the motion pushes one into the other, and
//!   [`SweepStatus::Overlapping`](narrow::SweepStatus::Overlapping) otherwise.
//! - **Level geometry is open: touching is not entering.** This is the one rule for
//!   solid tiles and static boxes, in every API that meets them: the tile map's own
//!   calls ([`TileMap::move_and_slide`], [`TileMap::cast`], [`TileMap::move_bullets`])
//!   and [`Frame::advance`](frame::Frame::advance) against its walls and its
//!   [`StaticLevel`](frame::StaticLevel). A body is inside a solid tile only when they
//!   overlap with positive area. A body flush against a wall touches it without
//!   entering it. It slides along the wall freely and has no contact with it. A motion
//!   into the wall is a hit at once, with `toi == 0`. [`TileMap::contact`] reports
//!   the touch itself. A zero-size body collides with the inside of the union of solid
//!   tiles, so a point on the seam of two tiles is blocked only when both are solid.
//!   The [`tilemap`] module has the details. A static disc or rotated rectangle is
//!   the one exception: touching it counts, as between boxes of the store.
//! - **Shapes.** A shape in the store is an axis-aligned box, a disc, an oriented
//!   rectangle or a capsule ([`Shape`], [`BoxStore::insert_shape`]). The store derives its bounds.
//!   The broad phase sweeps the bounds, and the frame and the queries answer by the
//!   true shape. A round bullet inside a box's bounds but beside its corner does not
//!   hit it.
//! - **Turning.** During a frame a shape moves by its motion. A rectangle or a
//!   capsule may also turn by its turn ([`BoxStore::set_turn`]), counter-clockwise
//!   about its centre, at an even rate. The swept tests then find the first contact
//!   anywhere along the turn. The time they report is never after it, and the shapes
//!   are then within a small tolerance of touching ([`sweep_turning`](fn@narrow::scalar::sweep_turning)
//!   states it). So a laser that sweeps the screen in a few frames hits what
//!   it passes over. To turn a laser about one end, turn it and move its centre along
//!   the chord of the centre's arc.
//! - **Zero-size boxes** are valid. A zero-width box is a vertical segment and a
//!   zero-size box is a point. They touch by the same closed rule.
//! - **Pairs** are `(a, b)` indices into the input with `a < b`, each unordered pair
//!   once. In bipartite mode `a` indexes the first set and `b` the second. Their order
//!   depends only on the input; the [`broad`] module states it. Sort them to get the
//!   `(a, b)` order.
//! - **Motion and time.** A motion is a displacement over one frame. A swept test
//!   reports the time of first contact as a fraction of the frame, `t` or `toi`, in
//!   `[0, 1]`.
//! - **Bodies.** A [`Contact`](frame::Contact) is between two bodies. A box's body is
//!   its [`Owner`] when it has one, and the box itself otherwise. Boxes of one owner
//!   form a compound hitbox and never collide with each other. In a contact,
//!   `bodies.a < bodies.b` and `boxes.0` belongs to `bodies.a`.
//! - **Normals.** [`Sweep::normal`](narrow::Sweep::normal) is the outward normal of the
//!   face of `b` that `a` hits. It points toward `a`. A box moving right into a wall
//!   gets `(-1, 0)`, the wall's left face. Between two boxes its components are `-1`,
//!   `0` or `1`, and both are set for an exact corner hit. For the other shapes it
//!   is the unit normal of `b`'s surface at the contact. A contact's `normal` is the
//!   face of `boxes.1` that `boxes.0` hit. The separating-axis tests answer the other
//!   way round: [`Mtv2::normal`](narrow::Mtv2::normal) points from `a` toward `b`.
//! - **Determinism.** The same input gives the same pairs, contacts and events in the
//!   same order, bit for bit, on any thread count and SIMD level. The SIMD kernels
//!   agree with the scalar reference kernels to the last bit.
//! - **Errors, never panics.** Bad input comes back as a typed [`Error`] that names the
//!   problem. In a batch, the error names the lowest bad index. A call that returns an
//!   error has changed nothing: a store that rejects an update stays exactly as it was.
//!
//! Boxes of the store meet each other by the closed rule, because a graze between a
//! bullet and the player must be reported. Walls meet boxes by the open rule, because a
//! character sliding along a floor must not hit it every frame. The two rules side by
//! side, for the same body flush against the same wall:
//!
//! ```
//! use glam::Vec2;
//! use hantei::{Aabb, TileMap};
//! let body = Aabb::from_coords(6.0, 2.0, 10.0, 6.0); // its right face at x = 10
//! // A wall in the store is closed: the flush body overlaps it.
//! let wall = Aabb::from_coords(10.0, 0.0, 20.0, 10.0);
//! assert!(body.overlaps(&wall));
//! // A solid tile is open: the flush body slides along it.
//! let map = TileMap::from_ascii(".#", Vec2::splat(10.0), Vec2::ZERO)?; // tile 1: x 10..20
//! let r = map.move_and_slide(body, Vec2::new(0.0, 3.0))?;
//! assert!(r.hit_x.is_none() && r.hit_y.is_none());
//! assert_eq!(r.aabb, body.translated(Vec2::new(0.0, 3.0)));
//! // A motion into the tile stops at once, where the body was.
//! let r = map.move_and_slide(body, Vec2::new(5.0, 0.0))?;
//! assert_eq!((r.aabb, r.hit_x.unwrap().coord), (body, 10.0));
//! // `advance` meets the tile by the same rule: sliding along it, no wall hit.
//! use hantei::frame::{Frame, Level, layers};
//! use hantei::{BoxProps, BoxStore};
//! let mut store = BoxStore::new();
//! let props = BoxProps::new(layers::player()).with_motion(Vec2::new(0.0, 3.0));
//! store.insert_with(body, props)?;
//! let mut frame = Frame::new();
//! frame.advance(&mut store, &Level::walls(&map))?;
//! assert!(frame.report().wall_hits.is_empty());
//! # Ok::<(), hantei::Error>(())
//! ```
//!
//! ## Where things are
//! | you want | look at |
//! |---|---|
//! | shapes with handles, layers, owners and motions | [`BoxStore`], [`Filter`], [`Owner`] |
//! | round bullets and lasers | [`Shape`], [`BoxStore::insert_shape`] |
//! | one call per frame, with contacts and events | [`frame::Frame`], [`frame::layers`] |
//! | level geometry that never moves | [`frame::StaticLevel`] |
//! | every overlapping pair | [`BroadPhase`] in [`broad`] |
//! | the all-pairs reference | [`broad::brute_force_pairs`] |
//! | exact tests on candidate pairs | [`narrow`], [`NarrowPhase`], [`narrow::scalar::sweep_shapes`] |
//! | tile maps, move-and-slide, bullets against walls | [`tilemap::TileMap`] |
//! | region, point, ray and shape queries | [`BoxStore::query_region`], [`BoxStore::ray_cast`], [`BoxStore::shape_cast`] |
//! | scene files and generators | [`scene`], [`scene::generate`] |
//! | SIMD levels and dispatch | [`SimdLevel`] |
//! | drawing shapes, walls and contacts for debugging | [`draw::DebugDraw`], [`draw::draw_world`] |
//!
//! ## Cargo features
//! - `glam-0_34`, the one default feature, or `glam-0_33`: which [glam](https://docs.rs/glam)
//!   hantei's vectors are. Choose exactly one. A Bevy 0.20 game takes glam 0.33 with
//!   `default-features = false, features = ["glam-0_33"]`. Each feature pins one glam
//!   version, so `cargo update` never adds a second one. [`glam`] names the chosen one.
//! - `serde` adds `Serialize` and `Deserialize` to the public data types, to the whole
//!   [`BoxStore`] and to a [`Frame`](frame::Frame)'s event state. A rollback game uses
//!   them for snapshots. Reading a store back checks every invariant.
//! - `force-scalar` makes the scalar reference kernels the default level
//!   ([`SimdLevel::best`] returns [`SimdLevel::Scalar`]). CI runs the tests this way.
//! - `fuzzing` exposes `hantei::check`, the property checks that the fuzz targets call.
//!   It is not part of the API for games.
//!
//! `ARCHITECTURE.md` describes the design: the data flow, the memory layout, the band
//! scheme, the SIMD policy and the determinism contract. `BENCHMARKS.md` holds the
//! measurements and `docs/scene-format.md` the scene file format. All three are at the
//! root of the repository and of the package.

#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

// The README's and the scene format's examples compile and run as doctests.
/// Marks a `#[repr(C)]` struct of plain floats or integers as [`bytemuck::Pod`], checking
/// at compile time that its size is the sum of its fields' sizes (no padding bytes).
/// Written out rather than derived, so bytemuck's derive macro (and a proc-macro build
/// before everything else) stays out of the first build.
macro_rules! plain_old_data {
    ($t:ty { $($field:ty),+ $(,)? }) => {
        const _: () = assert!(core::mem::size_of::<$t>() == 0 $(+ core::mem::size_of::<$field>())+);
        // SAFETY: `$t` is `#[repr(C)]`, `Copy` and `'static`; its fields are plain
        // floats or integers (every bit pattern valid, zero included), and the assertion
        // above proves it has no padding.
        unsafe impl bytemuck::Zeroable for $t {}
        // SAFETY: as for `Zeroable` just above.
        unsafe impl bytemuck::Pod for $t {}
    };
}

#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

#[cfg(doctest)]
#[doc = include_str!("../docs/scene-format.md")]
struct SceneFormatDoctests;

pub mod broad;
// The fuzz targets' property checks: public for them, not part of the API.
#[cfg(any(test, feature = "fuzzing"))]
#[doc(hidden)]
pub mod check;
// Debug drawing through the `DebugDraw` trait; its own page (src/draw.rs) is its docs.
pub mod draw;
mod error;
pub mod frame;
mod handle;
mod lanes;
mod math;
pub mod narrow;
mod pair;
mod pool;
mod query;
#[doc(hidden)]
pub mod rng;
pub mod scene;
mod store;
pub mod tilemap;

// One glam, chosen by a feature; the crate names it `glam` either way.
#[cfg(all(feature = "glam-0_33", feature = "glam-0_34"))]
compile_error!(
    "hantei: the features `glam-0_33` and `glam-0_34` are both on; choose one. A crate that \
     wants glam 0.33 must depend on hantei with `default-features = false, features = \
     [\"glam-0_33\"]`, and so must every other crate in the build that depends on hantei."
);
#[cfg(not(any(feature = "glam-0_33", feature = "glam-0_34")))]
compile_error!(
    "hantei: no glam chosen. Turn on the feature `glam-0_34` (a default feature) or \
     `glam-0_33` (the glam of bevy 0.20)."
);
/// The glam crate whose vectors hantei takes and returns: 0.34 by default, 0.33 with
/// the feature `glam-0_33`. A game can name its types through it and never mismatch.
#[cfg(all(feature = "glam-0_33", not(feature = "glam-0_34")))]
pub extern crate glam033 as glam;

pub use broad::{BandOrder, BoxSet, BroadConfig, BroadPhase, BroadStats, StaticGrid};
pub use error::{AsciiDefect, BoxDefect, Error, MAX_BOXES};
/// The glam crate whose vectors hantei takes and returns: 0.34 by default, 0.33 with
/// the feature `glam-0_33`. A game can name its types through it and never mismatch.
#[cfg(feature = "glam-0_34")]
pub use glam;
pub use lanes::{LANES, SimdLevel};
pub use math::{
    Aabb, Capsule, Circle, ContactPoint, MAX_COORDINATE, MAX_TURN, Obb2, Obb3, Ray, Shape,
    ShapeKind,
};
pub use narrow::{NarrowConfig, NarrowPhase};
pub use pair::Pair;
pub use query::CastHit;
pub use store::{BoxHandle, BoxProps, BoxStore, Filter, Owner, Response};
pub use tilemap::TileMap;
