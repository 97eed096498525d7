//! Open space at every scale: the one-lookup "certainly clear of walls" test for a box
//! of any size.
//!
//! [`TileMap`]'s own clear bits answer for a box no larger than a tile: its centre's
//! cell and that cell's eight neighbours all empty. Here the same bit exists for coarser
//! cells: level `k` cuts the map into cells of `2^k × 2^k` tiles (cell `(X, Y)` covers
//! tiles `X·2^k ..` and `Y·2^k ..`; the last cells reach past the map's edge). Per level:
//! - `solid`: the cell holds a solid tile, or reaches past the map while the outside is
//!   solid;
//! - `clear`: the cell and its eight neighbours are not `solid` (neighbours beyond the
//!   last cell count as the outside).
//!
//! A box no larger than `2^k` tiles on each axis whose centre lies in a clear level-`k`
//! cell lies inside that cell's 3×3 block by more than a third of a cell on each side,
//! more than the `f32` error of locating it (see [`TileMap::region_clear`]), so it meets
//! no solid tile, edges included. Level `k`'s cell is the level-0 cell shifted right by
//! `k`: one lookup, whatever the box's size.
//!
//! The levels are derived data: built with the map, patched by [`TileMap::set`] (one cell
//! and its 3×3 clear bits per level) and rebuilt when the outside kind changes.

use super::map::{EMPTY, TileMap};

/// One coarse level: its size in cells and its two bit sets (row-major, 64 a word).
#[derive(Clone, PartialEq, Default)]
struct Level {
    dims: [u32; 2],
    solid: Vec<u64>,
    clear: Vec<u64>,
}

impl Level {
    fn bit(bits: &[u64], i: usize) -> bool {
        bits[i / 64] & (1 << (i % 64)) != 0
    }

    fn put(bits: &mut [u64], i: usize, on: bool) {
        bits[i / 64] = (bits[i / 64] & !(1 << (i % 64))) | (u64::from(on) << (i % 64));
    }

    /// Whether cell `(x, y)` (any integers) is solid; beyond the level, the outside.
    fn solid_at(&self, x: i64, y: i64, outside_solid: bool) -> bool {
        let (w, h) = (i64::from(self.dims[0]), i64::from(self.dims[1]));
        if (0..w).contains(&x) && (0..h).contains(&y) {
            Self::bit(&self.solid, (y * w + x) as usize)
        } else {
            outside_solid
        }
    }

    /// Recomputes the clear bits of the cells in `x0..=x1 × y0..=y1` (clamped).
    fn update_clear(&mut self, [x0, y0, x1, y1]: [i64; 4], outside_solid: bool) {
        let (w, h) = (i64::from(self.dims[0]), i64::from(self.dims[1]));
        for y in y0.max(0)..=y1.min(h - 1) {
            for x in x0.max(0)..=x1.min(w - 1) {
                let open = (-1..=1)
                    .all(|dy| (-1..=1).all(|dx| !self.solid_at(x + dx, y + dy, outside_solid)));
                Self::put(&mut self.clear, (y * w + x) as usize, open);
            }
        }
    }
}

/// The coarse levels `1, 2, …` of a map's open space (level 0 is the map's own clear
/// bits), up to the first level of a single cell.
#[derive(Clone, PartialEq, Default)]
pub(crate) struct Coarse {
    levels: Vec<Level>,
}

impl Coarse {
    /// Every level of `map`, from its cells and outside kind.
    pub(crate) fn build(map: &TileMap) -> Self {
        let mut levels: Vec<Level> = Vec::new();
        let [mut w, mut h] = [map.width(), map.height()];
        while w > 1 || h > 1 {
            (w, h) = (w.div_ceil(2), h.div_ceil(2));
            let words = (w as usize * h as usize).div_ceil(64);
            levels.push(Level {
                dims: [w, h],
                solid: vec![0; words],
                clear: vec![0; words],
            });
        }
        let mut coarse = Self { levels };
        let solid = map.outside() != EMPTY;
        for k in 0..coarse.levels.len() {
            let [w, h] = coarse.levels[k].dims;
            for y in 0..i64::from(h) {
                for x in 0..i64::from(w) {
                    coarse.update_solid(map, k, x, y);
                }
            }
            coarse.levels[k].update_clear([0, 0, i64::from(w), i64::from(h)], solid);
        }
        coarse
    }

    /// Recomputes the solid bit of cell `(x, y)` of `levels[k]` (level `k + 1`) from its
    /// four children one level down.
    fn update_solid(&mut self, map: &TileMap, k: usize, x: i64, y: i64) {
        let outside_solid = map.outside() != EMPTY;
        let child = |cx: i64, cy: i64| {
            if k == 0 {
                map.kind_at(cx, cy) != EMPTY
            } else {
                self.levels[k - 1].solid_at(cx, cy, outside_solid)
            }
        };
        let any = (0..2).any(|dy| (0..2).any(|dx| child(2 * x + dx, 2 * y + dy)));
        let level = &mut self.levels[k];
        let i = (y * i64::from(level.dims[0]) + x) as usize;
        Level::put(&mut level.solid, i, any);
    }

    /// Patches every level after cell `(x, y)` of `map` changed kind.
    pub(crate) fn update(&mut self, map: &TileMap, x: u32, y: u32) {
        let outside_solid = map.outside() != EMPTY;
        for k in 0..self.levels.len() {
            let shift = k + 1;
            let (cx, cy) = (i64::from(x >> shift), i64::from(y >> shift));
            self.update_solid(map, k, cx, cy);
            self.levels[k].update_clear([cx - 1, cy - 1, cx + 1, cy + 1], outside_solid);
        }
    }

    /// The clear bit of level `k` (at least 1) for the level-0 cell `(x, y)` inside the
    /// map; `false` beyond the last level.
    #[inline]
    pub(crate) fn is_clear(&self, k: usize, x: u32, y: u32) -> bool {
        let Some(level) = self.levels.get(k.wrapping_sub(1)) else {
            return false;
        };
        let (x, y) = ((x >> k) as usize, (y >> k) as usize);
        Level::bit(&level.clear, y * level.dims[0] as usize + x)
    }

    /// How many coarse levels there are (the coarsest is a single cell).
    pub(crate) fn len(&self) -> usize {
        self.levels.len()
    }
}
