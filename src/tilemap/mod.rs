//! Tile maps (in progress).
