//! # hantei (当たり判定, "hit detection")
//!
//! Finds every collision among tens of thousands to a million moving 2D boxes per frame,
//! fast enough for a 60 Hz game loop, with the same answer in the same order on every
//! run, thread count and SIMD level.
//!
//! ## A frame loop
//! A game keeps its boxes in a [`BoxStore`] and one [`Frame`](frame::Frame). The whole
//! collision part of a frame is one call, [`Frame::advance`](frame::Frame::advance):
//! contacts, walls from a [`TileMap`], every box moved by its motion and stopped or
//! destroyed at its first hit as its [`Response`] says; the report is then read with
//! [`Frame::report`](frame::Frame::report). `examples/game_loop.rs` is a complete
//! bullet-hell loop on it, to copy.
//!
//! A game that moves its boxes itself sets each moving box's motion (its displacement
//! this frame), calls
//! [`Frame::step`](frame::Frame::step) once, reads the [`FrameReport`](frame::FrameReport)
//! (the earliest contact per pair of bodies, and the contacts that began, stayed and
//! ended), then moves the boxes and removes what died:
//!
//! ```
//! use glam::Vec2;
//! use hantei::frame::{Frame, layers};
//! use hantei::{Aabb, BoxProps, BoxStore};
//!
//! let mut store = BoxStore::new();
//! let wall = store.insert_with(
//!     Aabb::from_coords(100.0, -50.0, 110.0, 50.0),
//!     BoxProps { filter: layers::wall(), ..Default::default() },
//! )?;
//! let bullet = store.insert_with(
//!     Aabb::from_coords(0.0, -1.0, 2.0, 1.0),
//!     BoxProps { filter: layers::enemy_bullet(), ..Default::default() },
//! )?;
//! let velocity = Vec2::new(40.0, 0.0); // units per frame
//!
//! let mut frame = Frame::new(); // keeps its buffers and the event state between frames
//! let mut frames = 0;
//! while store.contains(bullet) {
//!     store.set_motion(bullet, velocity)?; // this frame's displacement
//!     let report = frame.step(&store)?; // everything that touches during the frame
//!     frames += 1;
//!     if let Some(hit) = report.contacts.first() {
//!         assert_eq!(report.began.len(), 1);
//!         assert_eq!(hit.boxes, (wall, bullet)); // boxes.0 belongs to the smaller body
//!         assert!((hit.toi - 0.45).abs() < 1e-6); // (100 - 82) / 40 into the third frame
//!         assert_eq!(hit.normal, Vec2::X); // the bullet's face that the wall met
//!         store.remove(bullet)?; // the bullet dies on the wall
//!     } else {
//!         let moved = store.get(bullet).expect("alive").translated(velocity);
//!         store.update(bullet, moved)?; // no contact: it moves the whole way
//!     }
//! }
//! assert_eq!(frames, 3);
//! // The next step reports the contact as ended (the bullet's handle is now stale).
//! assert_eq!(frame.step(&store)?.ended.len(), 1);
//! # Ok::<(), hantei::Error>(())
//! ```
//!
//! ## Conventions, all in one place
//! - **Coordinates**: 2D, `f32`, any y direction (nothing here depends on y pointing up or
//!   down; the tile map's "grounded" flag takes the direction of gravity from
//!   [`tilemap::SlideOptions::down`]).
//! - **Valid boxes** have finite coordinates and `min <= max`. Every entry point checks
//!   and answers a NaN, an infinity or an inverted box with [`Error::InvalidBox`].
//! - **Store boxes are closed**: boxes `a` and `b` overlap iff
//!   `a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y`,
//!   compared directly on the stored values ([`Aabb::overlaps`]). Touching edges and
//!   corners count, in the broad phase, the narrow phase (two circles at distance
//!   `r₁ + r₂`; a sweep that ends flush at `t = 1` is a hit) and the frame: two boxes
//!   touching when a frame begins are in contact (a hit at `t = 0` when the motion
//!   pushes one into the other, else
//!   [`SweepStatus::Overlapping`](narrow::SweepStatus::Overlapping)).
//! - **Solid tiles are open**: a body is inside a solid tile of a [`TileMap`] only when
//!   they overlap with positive area. A body flush against a wall (its `max.x` equal to
//!   the wall's `x`) touches it without penetrating it: it slides along the wall freely,
//!   and only a motion *into* the wall is stopped, at once (a hit with `toi == 0`,
//!   [`TileMap::contact`] tells it). A zero-size body collides with the interior of the
//!   union of solid tiles (a point on the seam of two tiles is blocked only when both are
//!   solid). See the [`tilemap`] conventions.
//! - **Shapes**: a box in the store is an axis-aligned box (the default), a disc or an
//!   oriented rectangle ([`Shape`], [`BoxStore::insert_shape`]); its bounds are derived
//!   from it, the broad phase sweeps the bounds, and the frame and the scene queries
//!   answer by the true shape (a round bullet beside a box's corner, inside its bounds,
//!   does not hit). Over a frame a shape translates by its motion; a rectangle's rotation
//!   is held for the frame.
//! - **Zero-size boxes** (`min == max` on one or both axes) are valid: a zero-width box is
//!   a vertical segment, a zero-size box a point, and they pair by the same closed rule
//!   (a point on another box's edge overlaps it).
//! - **Pairs** are `(a, b)` indices into the input with `a < b`, each unordered pair once
//!   (in bipartite mode `a` indexes the first set and `b` the second). Their order is a
//!   function of the input ([`broad`] states it); sort them for the canonical `(a, b)`
//!   order.
//! - **Motions and time**: a motion is a displacement over one frame; swept tests report
//!   the time of first contact as a fraction `t` (or `toi`) of the frame, in `[0, 1]`.
//!   A [`Contact`](frame::Contact) is between *bodies*: a box's [`Owner`] when it has one
//!   (boxes of one owner form a compound hitbox and never collide with each other), else
//!   the box itself; `bodies.a < bodies.b`, and `boxes.0` belongs to `bodies.a`.
//! - **Sign of a swept normal**: [`Sweep::normal`](narrow::Sweep::normal) is the outward
//!   normal of the face of `b` that `a` hits, pointing toward `a`; between two boxes its
//!   components are in `{-1, 0, 1}` (both set for an exact corner hit): a box moving
//!   right into a wall gets `(-1, 0)`, the wall's left face. For a disc or a rectangle it
//!   is the unit normal of `b`'s surface at the contact. A [`Contact`](frame::Contact)'s `normal` is the
//!   same for its boxes: the face of `boxes.1` that `boxes.0` hit, pointing toward
//!   `boxes.0`. (The separating-axis tests answer the other way round:
//!   [`Mtv2::normal`](narrow::Mtv2::normal) points from `a` toward `b`.)
//! - **Determinism**: the same input gives the same pairs, contacts and events in the
//!   same order, bit for bit, for any thread count and SIMD level; the SIMD kernels agree
//!   with the scalar references to the last bit.
//! - **Errors, never panics**: bad input (NaN, infinities, inverted boxes, mismatched
//!   lengths, stale handles, malformed files) comes back as a typed [`Error`] (or
//!   [`scene::SceneError`]) that names the problem (in a batch, the lowest bad index).
//!   A call that returns an error has changed nothing: a store that rejects an update
//!   is left exactly as it was.
//!
//! The two touching rules side by side, on the same body flush against the same wall:
//!
//! ```
//! use glam::Vec2;
//! use hantei::{Aabb, TileMap};
//! let body = Aabb::from_coords(6.0, 2.0, 10.0, 6.0); // its right face at x = 10
//! // A wall in the store is closed: the flush body overlaps it.
//! let wall = Aabb::from_coords(10.0, 0.0, 20.0, 10.0);
//! assert!(body.overlaps(&wall));
//! // A solid tile is open: the flush body is not inside it and slides along it...
//! let map = TileMap::from_ascii(".#", Vec2::splat(10.0), Vec2::ZERO)?; // tile 1: x 10..20
//! let r = map.move_and_slide(body, Vec2::new(0.0, 3.0))?;
//! assert!(r.hit_x.is_none() && r.hit_y.is_none());
//! assert_eq!(r.aabb, body.translated(Vec2::new(0.0, 3.0)));
//! // ...and a motion into it stops at once, flush where it was.
//! let r = map.move_and_slide(body, Vec2::new(5.0, 0.0))?;
//! assert_eq!((r.aabb, r.hit_x.unwrap().coord), (body, 10.0));
//! # Ok::<(), hantei::Error>(())
//! ```
//!
//! ## Where things are
//! | you want | look at |
//! |---|---|
//! | boxes with handles, layers, owners, motions | [`BoxStore`], [`Filter`], [`Owner`] |
//! | round bullets, lasers: discs and oriented rectangles | [`Shape`], [`BoxStore::insert_shape`] |
//! | one call per frame: contacts and events | [`frame::Frame`], [`frame::layers`] |
//! | all overlapping pairs | [`BroadPhase`] ([`broad`]) |
//! | the O(N²) reference | [`broad::brute_force_pairs`] |
//! | exact tests on candidate pairs (swept boxes, discs and rectangles, rays, OBB SAT) | [`narrow`], [`NarrowPhase`], [`narrow::scalar::sweep_shapes`] |
//! | tile maps: move-and-slide, bullets against walls | [`tilemap::TileMap`] |
//! | region, point, ray and shape queries | [`BoxStore::query_region`], [`BoxStore::ray_cast`], [`BoxStore::shape_cast`] |
//! | scene files, generators | [`scene`], [`scene::generate`] |
//! | SIMD flavours and dispatch | [`SimdLevel`] |
//!
//! ## Cargo features
//! - `serde`: Serialize / Deserialize for the public data types, the whole [`BoxStore`]
//!   (shapes, handles, generations and free list included; checked on the way in) and a
//!   [`Frame`](frame::Frame)'s event state, for rollback snapshots.
//! - `force-scalar`: [`SimdLevel::best`], the default level everywhere, is
//!   [`SimdLevel::Scalar`] (the scalar reference kernels, no SIMD dispatch); CI runs the
//!   tests so.
//! - `fuzzing`: exposes `hantei::check`, the property checks that the fuzz targets call
//!   (not part of the API for games).
//!
//! The design (data flow, SoA layout, band scheme, SIMD policy, determinism contract) is
//! described in `ARCHITECTURE.md`, the measurements in `BENCHMARKS.md` and the scene file
//! format in `docs/scene-format.md`, at the root of the repository and of the package.

#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

// The README's and the scene format's examples compile and run as doctests.
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
mod error;
pub mod frame;
mod lanes;
mod math;
pub mod narrow;
mod query;
#[doc(hidden)]
pub mod rng;
pub mod scene;
mod store;
pub mod tilemap;

pub use broad::{BandOrder, BoxSet, BroadConfig, BroadPhase, BroadStats, Pair, StaticGrid};
pub use error::{AsciiDefect, BoxDefect, Error};
pub use lanes::{LANES, SimdLevel};
pub use math::{Aabb, Circle, Obb2, Obb3, Ray, Shape, ShapeKind};
pub use narrow::{NarrowConfig, NarrowPhase};
pub use query::CastHit;
pub use store::{BoxHandle, BoxProps, BoxStore, Filter, Owner, Response};
pub use tilemap::TileMap;

/// The most boxes one store or one broad-phase call can hold (`2^31 - 1`).
pub const MAX_BOXES: usize = i32::MAX as usize;
