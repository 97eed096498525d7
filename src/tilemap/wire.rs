//! serde for [`TileMap`].
//!
//! A map is written as its size, tile size, origin, outside kind and cells. It is read
//! back through [`TileMap::from_cells`]. So a malformed map gives a serde error. The
//! lookup tables are always rebuilt, never trusted.

use super::map::TileMap;
use glam::Vec2;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The map as written.
#[derive(Serialize)]
#[serde(rename = "TileMap")]
struct MapRef<'a> {
    width: u32,
    height: u32,
    tile_size: Vec2,
    origin: Vec2,
    outside: u8,
    cells: &'a [u8],
}

/// The map as read, before any check.
#[derive(Deserialize)]
#[serde(rename = "TileMap")]
struct MapFields {
    width: u32,
    height: u32,
    tile_size: Vec2,
    origin: Vec2,
    outside: u8,
    cells: Vec<u8>,
}

/// Writes a tile map as its size, tile size, origin, outside kind and cells.
///
/// The cells are row-major, one byte each.
///
/// The example runs in the repository's serde tests (`serde_tests/`), where postcard and
/// serde_json are dependencies:
///
/// ```ignore
/// use hantei::TileMap;
/// use glam::Vec2;
/// let map = TileMap::from_ascii("#..#\n####", Vec2::splat(16.0), Vec2::ZERO)?.with_outside(1);
/// let bytes = postcard::to_allocvec(&map).unwrap();
/// assert_eq!(postcard::from_bytes::<TileMap>(&bytes).unwrap(), map);
/// # Ok::<(), hantei::Error>(())
/// ```
impl Serialize for TileMap {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        MapRef {
            width: self.width(),
            height: self.height(),
            tile_size: self.tile_size(),
            origin: self.origin(),
            outside: self.outside(),
            cells: self.cells(),
        }
        .serialize(s)
    }
}

/// Reads a map through [`TileMap::from_cells`].
///
/// # Errors
/// Returns a serde error for every map that [`TileMap::from_cells`] refuses:
/// - a cell count other than `width * height`,
/// - a side or a cell count over the limits,
/// - a tile size that is not finite and positive,
/// - an origin that is not finite,
/// - tiles too small for their coordinates.
///
/// The example runs in the repository's serde tests (`serde_tests/`), where postcard and
/// serde_json are dependencies:
///
/// ```ignore
/// use hantei::TileMap;
/// let json = r#"{"width": 2, "height": 2, "tile_size": [16.0, 16.0],
///                "origin": [0.0, 0.0], "outside": 0, "cells": [0, 1, 0]}"#;
/// let err = serde_json::from_str::<TileMap>(json).unwrap_err();
/// assert!(err.to_string().contains("expected length 4, found 3"));
/// ```
impl<'de> Deserialize<'de> for TileMap {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let f = MapFields::deserialize(d)?;
        TileMap::from_cells(f.width, f.height, f.cells, f.tile_size, f.origin)
            .map(|map| map.with_outside(f.outside))
            .map_err(|e| D::Error::custom(format_args!("invalid tile map: {e}")))
    }
}
