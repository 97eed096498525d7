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
//!
//! Before any lookup, [`Interior`]: one large rectangle of empty tiles (an arena's whole
//! inside), tested with four comparisons per box.

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

/// The map's open interior: one rectangle of empty tiles, large (the largest at build
/// time), kept valid as tiles change, and its inside in world coordinates. A swept box
/// inside that is clear of every solid tile with four comparisons, whatever its size and
/// wherever it lies in the rectangle: the common case of an arena walled at its border
/// costs eight boxes four lane compares, not eight lookups.
///
/// A cache, not part of the map's value: [`TileMap::set`] shrinks the rectangle around a
/// new solid tile (to the largest of the four parts beside it) and rebuilds it from the
/// cells only now and then ([`Interior::update`]), so two maps with the same cells may
/// hold different rectangles. Equality ignores it; no result depends on it (it only
/// lets the exact test be skipped where that test finds nothing).
#[derive(Clone, Debug)]
pub(crate) struct Interior {
    /// Tiles `x0..x1 × y0..y1`, every one empty (`x0 == x1` when there is none).
    tiles: [u32; 4],
    /// The rectangle's area when it was last built from the cells.
    built: u64,
    /// Tiles that turned empty or solid since then.
    changes: u64,
    /// `[x0, y0, x1, y1]`: a box with `min ≥ (x0, y0)` and `max ≤ (x1, y1)` lies a
    /// quarter of a tile or more inside the rectangle's edges (never true without one).
    pub(crate) world: [f32; 4],
}

impl Default for Interior {
    fn default() -> Self {
        Self {
            tiles: [0; 4],
            built: 0,
            changes: 0,
            world: Self::NONE,
        }
    }
}

impl PartialEq for Interior {
    /// Always equal: a cache (see the type's docs).
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Interior {
    /// The inside of no rectangle: no finite box is in it.
    const NONE: [f32; 4] = [
        f32::INFINITY,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NEG_INFINITY,
    ];

    /// The largest rectangle of empty tiles of `map` (the first found, scanning rows
    /// upwards, on ties), by the largest rectangle in each row's histogram of empty runs:
    /// `O(width × height)`.
    pub(crate) fn build(map: &TileMap) -> Self {
        let (w, h) = (map.width() as usize, map.height() as usize);
        let cells = map.cells();
        let mut heights = vec![0u32; w];
        let mut stack: Vec<(usize, u32)> = Vec::with_capacity(w + 1);
        let (mut best, mut tiles) = (0u64, [0u32; 4]);
        for y in 0..h {
            let row = &cells[y * w..(y + 1) * w];
            for (hx, &c) in heights.iter_mut().zip(row) {
                *hx = if c == EMPTY { *hx + 1 } else { 0 };
            }
            // Largest rectangle under the histogram: a stack of (start, height), heights
            // increasing; a column lower than the top closes the taller rectangles.
            stack.clear();
            for (x, hx) in heights.iter().copied().chain([0]).enumerate() {
                let mut start = x;
                while let Some(&(s, top)) = stack.last() {
                    if top < hx {
                        break;
                    }
                    stack.pop();
                    let area = u64::from(top) * (x - s) as u64;
                    if area > best {
                        best = area;
                        let y1 = y as u32 + 1;
                        tiles = [s as u32, y1 - top, x as u32, y1];
                    }
                    start = s;
                }
                stack.push((start, hx));
            }
        }
        let mut interior = Self {
            tiles,
            built: best,
            changes: 0,
            world: Self::NONE,
        };
        interior.locate(map);
        interior
    }

    fn area(t: [u32; 4]) -> u64 {
        u64::from(t[2] - t[0]) * u64::from(t[3] - t[1])
    }

    /// [`Interior::world`] from [`Interior::tiles`]: each edge a quarter of a tile
    /// inside, rounded inwards to `f32` (from the same `f32` edges every query uses).
    fn locate(&mut self, map: &TileMap) {
        let [x0, y0, x1, y1] = self.tiles;
        if x0 >= x1 || y0 >= y1 || map.fast_index.is_none() {
            self.world = Self::NONE;
            return;
        }
        let inward = |a: usize, k: u32, sign: f64| {
            let v = map.line64(a, i64::from(k)) + sign * 0.25 * f64::from(map.tile_size()[a]);
            let f = v as f32;
            match (sign > 0.0, f64::from(f).total_cmp(&v)) {
                (true, core::cmp::Ordering::Less) => f.next_up(),
                (false, core::cmp::Ordering::Greater) => f.next_down(),
                _ => f,
            }
        };
        self.world = [
            inward(0, x0, 1.0),
            inward(1, y0, 1.0),
            inward(0, x1, -1.0),
            inward(1, y1, -1.0),
        ];
        if !(self.world[0] < self.world[2] && self.world[1] < self.world[3]) {
            self.world = Self::NONE;
        }
    }

    /// Whether the box `[x0, y0, x1, y1]` lies inside [`Interior::world`] (clear of every
    /// solid tile; never for a NaN).
    #[inline(always)]
    pub(crate) fn contains(&self, [x0, y0, x1, y1]: [f32; 4]) -> bool {
        let w = self.world;
        x0 >= w[0] && y0 >= w[1] && x1 <= w[2] && y1 <= w[3]
    }

    /// After tile `(x, y)` of `map` changed from kind `old`. A rebuild from the cells
    /// (`O(cells)`, about 3 ns a cell) is allowed once `max(16, cells / 1024)` tiles
    /// turned empty or solid since the last one, so that `set` costs at most about
    /// 1,024 cells' work amortised (3 µs), whatever the pattern of changes; then:
    /// - a solid tile inside the rectangle shrinks it to the largest of the four parts
    ///   beside the tile, or rebuilds it when that part is under 7/8 of the area last
    ///   built and a rebuild is allowed (a wall drawn tile by tile along the border eats
    ///   the rectangle a column at a time until then);
    /// - an emptied tile leaves it as it is (still all empty), or rebuilds it when
    ///   allowed, so that carved-out space is found.
    pub(crate) fn update(&mut self, map: &TileMap, x: u32, y: u32, old: u8) {
        let empty = map.kind_at(i64::from(x), i64::from(y)) == EMPTY;
        if empty == (old == EMPTY) {
            return;
        }
        self.changes += 1;
        let allowed = self.changes >= (map.cells().len() as u64 / 1024).max(16);
        if empty {
            if allowed {
                *self = Self::build(map);
            }
            return;
        }
        let [x0, y0, x1, y1] = self.tiles;
        if !((x0..x1).contains(&x) && (y0..y1).contains(&y)) {
            return;
        }
        let parts = [
            [x0, y0, x, y1],
            [x + 1, y0, x1, y1],
            [x0, y0, x1, y],
            [x0, y + 1, x1, y1],
        ];
        let part =
            parts.into_iter().fold(
                [0; 4],
                |b, p| if Self::area(p) > Self::area(b) { p } else { b },
            );
        if allowed && 8 * Self::area(part) < 7 * self.built {
            *self = Self::build(map);
        } else {
            self.tiles = part;
            self.locate(map);
        }
    }

    /// The rectangle's tiles, `[x0, y0, x1, y1)` (tests).
    #[cfg(test)]
    pub(crate) fn tiles(&self) -> [u32; 4] {
        self.tiles
    }
}
