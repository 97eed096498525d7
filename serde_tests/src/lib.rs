//! hantei's serde tests, as a package of their own (nothing to use here).
//!
//! The tests read and write hantei's types with two wire formats: postcard for compact
//! rollback snapshots and serde_json for readable ones. They live outside the core crate
//! so that those formats are not its dev-dependencies, and a first `cargo run
//! --example` builds only hantei's own dependencies.
//!
//! - `tests/snapshot.rs`: a game saves its store and its frame's events, restores them
//!   and replays, bit for bit; every corrupted snapshot is refused by name.
//! - `tests/stores.rs`: shapes, turns and layers survive a round trip, and stores written
//!   before capsules, turns or solid layers existed still load.
//! - `tests/docs.rs`: hantei's serde examples, which its docs show without running
//!   them, are those of the module `examples`, word for word.
//!
//! With the `serde` feature, the module `examples` holds the examples of hantei's
//! `Serialize` and `Deserialize` docs: they run as this crate's doc tests.

/// The examples of hantei's `Serialize` and `Deserialize` docs, which run here as this
/// crate's doc tests.
///
/// A store written with postcard reads back as the same store. Stale handles stay
/// stale, and the next insert gets the same handle:
///
/// ```
/// use hantei::{Aabb, BoxStore};
/// let mut store = BoxStore::new();
/// let a = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
/// let b = store.insert(Aabb::from_coords(2.0, 0.0, 3.0, 1.0))?;
/// store.remove(a)?;
/// let bytes = postcard::to_allocvec(&store).unwrap();
/// let mut restored: BoxStore = postcard::from_bytes(&bytes).unwrap();
/// assert_eq!(restored.get(b), store.get(b));
/// assert!(!restored.contains(a)); // still stale
/// // The next insert reuses the same slot with the same new generation.
/// let boxed = Aabb::from_coords(5.0, 5.0, 6.0, 6.0);
/// assert_eq!(restored.insert(boxed)?, store.insert(boxed)?);
/// # Ok::<(), hantei::Error>(())
/// ```
///
/// A store whose box is inverted is refused, and the error names the box:
///
/// ```
/// use hantei::{Aabb, BoxStore};
/// let mut store = BoxStore::new();
/// store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
/// let mut json = serde_json::to_value(&store).unwrap();
/// json["max_x"][0] = (-1.0).into(); // inverted
/// let err = serde_json::from_value::<BoxStore>(json).unwrap_err();
/// assert!(err.to_string().contains("box at dense index 0"));
/// # Ok::<(), hantei::Error>(())
/// ```
///
/// A tile map round-trips through postcard:
///
/// ```
/// use hantei::TileMap;
/// use glam::Vec2;
/// let map = TileMap::from_ascii("#..#\n####", Vec2::splat(16.0), Vec2::ZERO)?.with_outside(1);
/// let bytes = postcard::to_allocvec(&map).unwrap();
/// assert_eq!(postcard::from_bytes::<TileMap>(&bytes).unwrap(), map);
/// # Ok::<(), hantei::Error>(())
/// ```
///
/// A tile map with too few cells is refused, and the error says how many it expected:
///
/// ```
/// use hantei::TileMap;
/// let json = r#"{"width": 2, "height": 2, "tile_size": [16.0, 16.0],
///                "origin": [0.0, 0.0], "outside": 0, "cells": [0, 1, 0]}"#;
/// let err = serde_json::from_str::<TileMap>(json).unwrap_err();
/// assert!(err.to_string().contains("expected length 4, found 3"));
/// ```
#[cfg(feature = "serde")]
pub mod examples {}
