//! # hantei (当たり判定, "hit detection")
//!
//! Finds every collision among tens of thousands to a million moving 2D boxes per frame,
//! fast enough for a 60 Hz game loop, with the same answer in the same order on every
//! run, thread count and SIMD width.
//!
//! ```
//! use hantei::{Aabb, BroadPhase};
//! let boxes = [
//!     Aabb::from_coords(0.0, 0.0, 2.0, 2.0),
//!     Aabb::from_coords(1.0, 1.0, 3.0, 3.0),
//!     Aabb::from_coords(2.0, 2.0, 4.0, 4.0), // touches box 0 at a corner
//!     Aabb::from_coords(9.0, 9.0, 9.5, 9.5),
//! ];
//! let mut broad = BroadPhase::new();
//! let mut pairs = broad.find_pairs(&boxes[..])?.to_vec();
//! pairs.sort_unstable();
//! let pairs: Vec<(u32, u32)> = pairs.iter().map(|p| (p.a, p.b)).collect();
//! assert_eq!(pairs, [(0, 1), (0, 2), (1, 2)]);
//! # Ok::<(), hantei::Error>(())
//! ```
//!
//! ## Conventions
//! - **Coordinates**: 2D, `f32`, any y direction (nothing here depends on y pointing up or
//!   down; the tile map's "grounded" flag takes the direction of gravity).
//! - **Overlap is closed**: boxes `a` and `b` overlap iff
//!   `a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y`,
//!   compared directly on the stored values. Touching edges and corners count.
//! - **Zero-size boxes** (`min == max` on one or both axes) are valid: a zero-width box is
//!   a vertical segment, a zero-size box a point, and they pair by the same closed rule
//!   (a point on another box's edge overlaps it).
//! - **Valid boxes** have finite coordinates and `min <= max`. Every entry point checks
//!   and answers a NaN, an infinity or an inverted box with [`Error::InvalidBox`]; a store
//!   that rejects an update is left exactly as it was.
//! - **Pairs** are `(a, b)` indices into the input with `a < b`, each unordered pair once
//!   (in bipartite mode `a` indexes the first set and `b` the second).
//! - **Determinism**: the same input gives the same pairs in the same order for any
//!   thread count and SIMD level; see [`broad`] for the order.
//!
//! ## Where things are
//! | you want | look at |
//! |---|---|
//! | boxes with handles, layers, owners, motions | [`BoxStore`] |
//! | one call per frame: contacts and events | [`frame::Frame`], [`frame::layers`] |
//! | all overlapping pairs | [`BroadPhase`] ([`broad`]) |
//! | the O(N²) reference | [`broad::brute_force_pairs`] |
//! | exact tests on candidate pairs (swept AABB, circles, rays, OBB SAT) | [`narrow`], [`NarrowPhase`] |
//! | tile maps: move-and-slide, bullets against walls | [`tilemap::TileMap`] |
//! | region, point, ray and shape queries | [`BoxStore::query_region`], [`BoxStore::ray_cast`], [`BoxStore::shape_cast`] |
//! | scene files, generators | [`scene`], [`scene::generate`] |
//! | SIMD flavours and dispatch | [`SimdLevel`] |
//!
//! The design (data flow, SoA layout, band scheme, SIMD policy, determinism contract) is
//! described in `ARCHITECTURE.md` at the root of the repository.

#![deny(missing_docs)]
#![warn(clippy::undocumented_unsafe_blocks)]

// The README's example compiles and runs as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

pub mod broad;
#[cfg(any(test, feature = "fuzzing"))]
pub mod check;
mod error;
pub mod frame;
mod lanes;
mod math;
pub mod narrow;
mod query;
pub mod rng;
pub mod scene;
mod store;
pub mod tilemap;

pub use broad::{BandOrder, BoxSet, BroadConfig, BroadPhase, BroadStats, Pair};
pub use error::{BoxDefect, Error};
pub use lanes::{LANES, SimdLevel};
pub use math::{Aabb, Circle, Obb2, Obb3, Ray};
pub use narrow::{NarrowConfig, NarrowPhase};
pub use query::CastHit;
pub use store::{BoxHandle, BoxProps, BoxStore, Filter, Owner};
pub use tilemap::TileMap;

/// The most boxes one store or one broad-phase call can hold (`2^31 - 1`).
pub const MAX_BOXES: usize = i32::MAX as usize;
