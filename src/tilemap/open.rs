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
//! Each level stores which of its cells hold a solid tile of the map (`filled`) and which
//! are clear; "reaches past the map" is a property of its last column and row (`ragged`),
//! so the `filled` bits do not depend on the outside kind.
//!
//! The levels are derived data. They are built with the map a word at a time: level
//! `k + 1`'s `filled` bits from level `k`'s by [`bits::halve`], and each level's clear
//! bits by [`bits::open`] and [`bits::wall_off`], so building all of them costs less than
//! reading the cells once. [`TileMap::set`] patches one cell and its 3×3 clear bits per
//! level. When the outside turns solid or empty, only the clear bits are recomputed.
//!
//! Before any lookup, [`Interior`]: one large rectangle of empty tiles (an arena's whole
//! inside), tested with four comparisons per box.

use super::bits;
use super::map::{EMPTY, TileMap};

/// One coarse level: its size in cells, which of its cells hold a solid tile, and its
/// clear bits (both row-major, one bit a cell, 64 a word, as in the `bits` module).
#[derive(Clone, PartialEq, Default)]
struct Level {
    dims: [u32; 2],
    /// Per axis: whether the last column (row) reaches past the map's edge.
    ragged: [bool; 2],
    /// Set where the cell holds a solid tile of the map (whatever the outside).
    filled: Vec<u64>,
    clear: Vec<u64>,
}

impl Level {
    /// Whether cell `(x, y)` (any integers) is solid: it holds a solid tile, or it
    /// reaches past the map while the outside is solid; beyond the level, the outside.
    fn solid_at(&self, x: i64, y: i64, outside_solid: bool) -> bool {
        let (w, h) = (i64::from(self.dims[0]), i64::from(self.dims[1]));
        if (0..w).contains(&x) && (0..h).contains(&y) {
            let past = (self.ragged[0] && x == w - 1) || (self.ragged[1] && y == h - 1);
            bits::get(&self.filled, (y * w + x) as usize) || (outside_solid && past)
        } else {
            outside_solid
        }
    }

    /// Recomputes the clear bits of the cells in `x0..=x1 × y0..=y1` (clamped), cell by
    /// cell: for the few cells around one that changed.
    fn update_clear(&mut self, [x0, y0, x1, y1]: [i64; 4], outside_solid: bool) {
        let (w, h) = (i64::from(self.dims[0]), i64::from(self.dims[1]));
        for y in y0.max(0)..=y1.min(h - 1) {
            for x in x0.max(0)..=x1.min(w - 1) {
                let mut open = true;
                for (dx, dy) in NEIGHBOURHOOD {
                    open &= !self.solid_at(x + dx, y + dy, outside_solid);
                }
                bits::put(&mut self.clear, (y * w + x) as usize, open);
            }
        }
    }

    /// Recomputes every clear bit, a word at a time.
    fn rebuild_clear(&mut self, outside_solid: bool) {
        let (w, h) = (self.dims[0] as usize, self.dims[1] as usize);
        self.clear = bits::open(self.filled.clone(), w, w * h);
        if outside_solid {
            let [px, py] = self.ragged.map(usize::from);
            bits::wall_off(&mut self.clear, w, h, [1, 1, 1 + px, 1 + py]);
        }
    }
}

/// A cell and its eight neighbours, as offsets.
const NEIGHBOURHOOD: [(i64, i64); 9] = [
    (-1, -1),
    (0, -1),
    (1, -1),
    (-1, 0),
    (0, 0),
    (1, 0),
    (-1, 1),
    (0, 1),
    (1, 1),
];

/// The coarse levels `1, 2, …` of a map's open space (level 0 is the map's own clear
/// bits), up to the first level of a single cell.
#[derive(Clone, PartialEq, Default)]
pub(crate) struct Coarse {
    levels: Vec<Level>,
}

impl Coarse {
    /// Every level of `map`, from its cells and outside kind.
    #[cfg(test)]
    pub(crate) fn build(map: &TileMap) -> Self {
        Self::from_solid(
            &bits::solid(map.cells()),
            map.width(),
            map.height(),
            map.outside() != EMPTY,
        )
    }

    /// Every level of a `w × h` map whose solid tiles are `solid` (see the `bits`
    /// module), with a solid outside or not: each level's cells halve the finer level's,
    /// then the clear bits, a word at a time.
    pub(crate) fn from_solid(solid: &[u64], w: u32, h: u32, outside_solid: bool) -> Self {
        let mut levels: Vec<Level> = Vec::new();
        let (mut fw, mut fh) = (w as usize, h as usize);
        while fw > 1 || fh > 1 {
            let fine = levels.last().map_or(solid, |l| &l.filled);
            let filled = bits::halve(fine, fw, fh);
            (fw, fh) = (fw.div_ceil(2), fh.div_ceil(2));
            let side = 1u64 << (levels.len() + 1);
            levels.push(Level {
                dims: [fw as u32, fh as u32],
                ragged: [u64::from(w) % side != 0, u64::from(h) % side != 0],
                filled,
                clear: Vec::new(),
            });
        }
        for level in &mut levels {
            level.rebuild_clear(outside_solid);
        }
        Self { levels }
    }

    /// After the map's outside turned solid or empty: every level's clear bits anew.
    pub(crate) fn outside_changed(&mut self, outside_solid: bool) {
        for level in &mut self.levels {
            level.rebuild_clear(outside_solid);
        }
    }

    /// Patches every level after cell `(x, y)` of `map` changed kind: per level, the
    /// one cell above it and the clear bits of the 3×3 cells around that.
    pub(crate) fn update(&mut self, map: &TileMap, x: u32, y: u32) {
        let outside_solid = map.outside() != EMPTY;
        for k in 0..self.levels.len() {
            let (cx, cy) = (i64::from(x >> (k + 1)), i64::from(y >> (k + 1)));
            // The four children one level down that exist (tiles of the map for level 1).
            let mut any = false;
            for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                let (fx, fy) = (2 * cx + dx, 2 * cy + dy);
                any |= if k == 0 {
                    map.kind_at(fx, fy) != EMPTY
                        && fx < i64::from(map.width())
                        && fy < i64::from(map.height())
                } else {
                    let fine = &self.levels[k - 1];
                    let [fw, fh] = fine.dims.map(i64::from);
                    fx < fw && fy < fh && bits::get(&fine.filled, (fy * fw + fx) as usize)
                };
            }
            let level = &mut self.levels[k];
            let i = (cy * i64::from(level.dims[0]) + cx) as usize;
            bits::put(&mut level.filled, i, any);
            level.update_clear([cx - 1, cy - 1, cx + 1, cy + 1], outside_solid);
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
        bits::get(&level.clear, y * level.dims[0] as usize + x)
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

    /// The largest rectangle of empty tiles of `map` (see [`Interior::from_solid`]).
    pub(crate) fn build(map: &TileMap) -> Self {
        let mut interior = Self::from_solid(&bits::solid(map.cells()), map.width(), map.height());
        interior.locate(map);
        interior
    }

    /// The largest rectangle of empty tiles of a `w × h` map whose solid tiles are `solid`
    /// (the first found, scanning rows upwards, on ties), by the largest rectangle in each
    /// row's histogram of empty runs upwards, without its world box (see
    /// [`Interior::locate`]).
    ///
    /// The histogram is searched column by column, as a stack of increasing heights, but
    /// only where it can beat the best rectangle so far. Three cuts, none of which changes
    /// the answer, ties included (a skipped rectangle is never the first of the largest):
    /// - a row is searched only when the next row has a solid tile where it has none.
    ///   Otherwise every rectangle standing on it also stands, taller, on the next row.
    /// - in a row whose longest empty stretch is `L` tiles, a rectangle lower than
    ///   `best / L + 1` tiles cannot beat `best`: lower columns are searched as height 0.
    ///   The bound tightens with the longest stretch of the columns left, and a row with
    ///   none left is skipped.
    /// - columns of equal height in a row count once (the rectangles at the columns
    ///   inside the stretch are smaller versions of the one at its end).
    ///
    /// Each column keeps the row its empty streak started in, which changes only where a
    /// solid tile ends. So an open map, or one of a few walls, costs a few word operations
    /// a row; a map of noise costs a few operations a tile.
    pub(crate) fn from_solid(solid: &[u64], w: u32, h: u32) -> Self {
        // Bands of at least 256 rows, and of streaks that take at most 32 MiB in all.
        let streak_bytes = 4 * 64 * (w as usize).div_ceil(64).max(1);
        let by_memory = ((32 << 20) / streak_bytes).max(1);
        let bands = rayon::current_num_threads()
            .min(h as usize / 256)
            .min(by_memory)
            .max(1);
        Self::from_solid_in(solid, w, h, bands as u32)
    }

    /// The interior of a `w × h` map of empty tiles: all of it (what
    /// [`Interior::from_solid`] finds there), without its world box.
    pub(crate) fn whole(w: u32, h: u32) -> Self {
        let area = u64::from(w) * u64::from(h);
        Self {
            tiles: if area > 0 { [0, 0, w, h] } else { [0; 4] },
            built: area,
            changes: 0,
            world: Self::NONE,
        }
    }

    /// [`Interior::from_solid`] in `bands` bands of rows.
    pub(crate) fn from_solid_in(solid: &[u64], w: u32, h: u32, bands: u32) -> Self {
        let bands = bands.clamp(1, h.max(1));
        let cut = |k: u32| (u64::from(h) * u64::from(k) / u64::from(bands)) as u32;
        let mut found: Vec<(u64, [u32; 4])> = Vec::new();
        crate::pool::map_indices(
            bands as usize,
            &|k| {
                let k = k as u32;
                search_rows(solid, w, h, cut(k)..cut(k + 1))
            },
            &mut found,
        );
        // The first band's rectangle of the largest area (strictly larger replaces).
        let (best, tiles) = found
            .into_iter()
            .fold((0, [0; 4]), |a, b| if b.0 > a.0 { b } else { a });
        Self {
            tiles,
            built: best,
            changes: 0,
            world: Self::NONE,
        }
    }
}

/// The largest rectangle of empty tiles standing on one of `rows` (the first found on
/// ties) and its area, by the search of [`Interior::from_solid`]; rectangles may reach up
/// into the rows above.
fn search_rows(solid: &[u64], w: u32, h: u32, rows: core::ops::Range<u32>) -> (u64, [u32; 4]) {
    let (wu, words) = (w as usize, (w as usize).div_ceil(64));
    let mut streaks = Streaks::above(solid, wu, rows.start);
    // This row's, the row before's and the next row's solid tiles, and the columns
    // searched, row-aligned.
    let [mut prev, mut cur, mut next, mut open] = [(); 4].map(|()| vec![0u64; words]);
    let mut stack: Vec<(u32, u32)> = Vec::new();
    let (mut best, mut tiles) = (0u64, [0u32; 4]);
    if rows.is_empty() {
        return (0, [0; 4]);
    }
    bits::read(solid, rows.start as usize * wu, wu, &mut next);
    if rows.start == 0 {
        for (q, p) in prev.iter_mut().enumerate() {
            *p = streaks.valid(q); // before row 0, every column is solid
        }
    } else {
        bits::read(solid, (rows.start as usize - 1) * wu, wu, &mut cur);
    }
    for y in rows {
        if y == 0 {
            core::mem::swap(&mut cur, &mut next);
        } else {
            core::mem::swap(&mut prev, &mut cur);
            core::mem::swap(&mut cur, &mut next);
        }
        if y + 1 < h {
            bits::read(solid, (y as usize + 1) * wu, wu, &mut next);
        }
        for (q, (&p, &c)) in prev.iter().zip(&cur).enumerate() {
            streaks.begin(q, p & !c, y as i32);
        }
        // Dominated: the next row covers no column this row leaves open.
        if y + 1 < h && next.iter().zip(&cur).all(|(&n, &c)| n & !c == 0) {
            continue;
        }
        // The lowest height that can beat `best`, from the longest empty stretch of
        // the row, then of the columns at least that high, until it settles.
        for (q, (o, &c)) in open.iter_mut().zip(&cur).enumerate() {
            *o = !c & streaks.valid(q);
        }
        let mut low = 1u32;
        loop {
            let longest = longest_ones(&open);
            if longest == 0 {
                break;
            }
            let need = u32::try_from(best / longest as u64 + 1).unwrap_or(u32::MAX);
            if need <= low {
                break;
            }
            low = need;
            if low > y + 1 {
                open.fill(0);
                break;
            }
            // Columns at least `low` high: their streak started by row y + 1 - low.
            let limit = (y + 1 - low) as i32;
            for (q, o) in open.iter_mut().enumerate() {
                if *o != 0 {
                    *o &= streaks.started_by(q, limit);
                }
            }
        }
        if open.iter().all(|&o| o == 0) {
            continue;
        }
        // Largest rectangle under the histogram (height 0 outside `open`): a stack of
        // (start, height), heights increasing; a lower column closes the taller
        // rectangles.
        stack.clear();
        let mut visit = |x: usize, hx: u32, stack: &mut Vec<(u32, u32)>| {
            let mut from = x as u32;
            while let Some(&(s, top)) = stack.last() {
                if top < hx {
                    break;
                }
                stack.pop();
                let area = u64::from(top) * u64::from(x as u32 - s);
                if area > best {
                    best = area;
                    tiles = [s, y + 1 - top, x as u32, y + 1];
                }
                from = s;
            }
            stack.push((from, hx));
        };
        let mut x = 0usize;
        while x < wu {
            let a = bits::next_one(&open, x, wu);
            if a == wu {
                break;
            }
            let b = bits::next_zero(&open, a, wu);
            let mut c = a;
            while c < b {
                visit(c, (y as i32 + 1 - streaks.get(c)) as u32, &mut stack);
                c = streaks.same_until(c, b);
            }
            if b < wu {
                visit(b, 0, &mut stack);
            }
            x = b;
        }
        visit(wu, 0, &mut stack);
    }
    (best, tiles)
}

impl Interior {
    fn area(t: [u32; 4]) -> u64 {
        u64::from(t[2] - t[0]) * u64::from(t[3] - t[1])
    }

    /// [`Interior::world`] from [`Interior::tiles`]: each edge a quarter of a tile
    /// inside, rounded inwards to `f32` (from the same `f32` edges every query uses).
    pub(crate) fn locate(&mut self, map: &TileMap) {
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
    /// (`O(cells)`: the cells read into bits, then [`Interior::from_solid`]) is allowed
    /// once `max(16, cells / 1024)` tiles turned empty or solid since the last one, so
    /// that `set` costs at most about 1,024 cells' work amortised, whatever the pattern
    /// of changes; then:
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

/// Per column of a map, the first row of its current empty streak (whatever a column
/// solid in the current row holds), a word of 64 columns at a time: a word whose columns
/// all hold the same row keeps it once, so a map's open stretches are read a word at a
/// time.
struct Streaks {
    width: usize,
    /// Per word: the row all its columns hold, or `MIXED`.
    common: Vec<i32>,
    /// Per column of a `MIXED` word: its row.
    start: Vec<i32>,
}

/// [`Streaks::common`] for a word whose columns hold different rows.
const MIXED: i32 = -1;

impl Streaks {
    fn new(width: usize) -> Self {
        let words = width.div_ceil(64);
        Self {
            width,
            common: vec![0; words],
            start: vec![0; 64 * words],
        }
    }

    /// The streaks that row `y0` of a `width`-wide map whose solid tiles are `solid`
    /// inherits: each column's first row after its last solid tile above `y0` (0 when
    /// none), found by a scan upwards a word of columns at a time, which stops once
    /// every column has met a solid tile.
    fn above(solid: &[u64], width: usize, y0: u32) -> Self {
        let mut streaks = Self::new(width);
        if y0 == 0 {
            return streaks;
        }
        let words = streaks.common.len();
        let mut found = vec![0u64; words];
        let mut row = vec![0u64; words];
        let mut left = width;
        for y in (0..y0).rev() {
            bits::read(solid, y as usize * width, width, &mut row);
            for (q, (f, &r)) in found.iter_mut().zip(&row).enumerate() {
                let mut new = r & !*f;
                *f |= new;
                left -= new.count_ones() as usize;
                while new != 0 {
                    streaks.start[64 * q + new.trailing_zeros() as usize] = y as i32 + 1;
                    new &= new - 1;
                }
            }
            if left == 0 {
                break;
            }
        }
        for q in 0..words {
            let count = (width - 64 * q).min(64);
            let word = &streaks.start[64 * q..64 * q + count];
            streaks.common[q] = if word.iter().all(|&v| v == word[0]) {
                word[0]
            } else {
                MIXED
            };
        }
        streaks
    }

    /// The columns of word `q` that are in the map.
    #[inline]
    fn valid(&self, q: usize) -> u64 {
        let count = (self.width - 64 * q).min(64);
        if count == 64 { !0 } else { (1 << count) - 1 }
    }

    /// The row column `c`'s streak started in.
    #[inline]
    fn get(&self, c: usize) -> i32 {
        match self.common[c / 64] {
            MIXED => self.start[c],
            row => row,
        }
    }

    /// The columns `ends` of word `q` start a streak on row `y`.
    #[inline]
    fn begin(&mut self, q: usize, ends: u64, y: i32) {
        if ends == 0 {
            return;
        }
        if ends == self.valid(q) {
            self.common[q] = y;
            return;
        }
        let word = &mut self.start[64 * q..64 * q + 64];
        if self.common[q] != MIXED {
            word.fill(self.common[q]);
            self.common[q] = MIXED;
        }
        let mut e = ends;
        while e != 0 {
            word[e.trailing_zeros() as usize] = y;
            e &= e - 1;
        }
    }

    /// The columns of word `q` whose streak started by row `limit`.
    #[inline]
    fn started_by(&self, q: usize, limit: i32) -> u64 {
        match self.common[q] {
            MIXED => {}
            row => return if row <= limit { self.valid(q) } else { 0 },
        }
        let limit = wide::i32x8::splat(limit);
        let mut mask = 0u64;
        let values = &self.start[64 * q..64 * q + 64];
        for (k, chunk) in values.as_chunks::<8>().0.iter().enumerate() {
            let later = wide::i32x8::new(*chunk).simd_gt(limit).to_bitmask() as u64;
            mask |= (!later & 0xff) << (8 * k);
        }
        mask
    }

    /// The first column of `c + 1..b` whose streak started on another row than column
    /// `c`'s (`b` if none).
    #[inline]
    fn same_until(&self, c: usize, b: usize) -> usize {
        let row = self.get(c);
        let mut c = c + 1;
        while c < b {
            match self.common[c / 64] {
                MIXED if self.start[c] == row => c += 1,
                MIXED => return c,
                common if common != row => return c,
                _ => c = (c / 64 + 1) * 64,
            }
        }
        b
    }
}

/// The longest run of set bits in `bits`, across words.
fn longest_ones(bits: &[u64]) -> usize {
    let (mut best, mut run) = (0usize, 0usize);
    for &word in bits {
        if word == !0 {
            run += 64;
            continue;
        }
        best = best.max(run + word.trailing_ones() as usize);
        best = best.max(longest_in_word(word));
        run = word.leading_ones() as usize;
    }
    best.max(run)
}

/// The longest run of set bits in one word. `x` keeps the bits that start a run of `len`
/// set bits: `len` doubles while some run is that long, then grows by halves (a binary
/// search; a step of `k <= len` joins two overlapping runs).
#[inline]
fn longest_in_word(mut x: u64) -> usize {
    if x == 0 {
        return 0;
    }
    let mut len = 1;
    while len < 64 {
        let longer = x & (x >> len);
        if longer == 0 {
            break;
        }
        x = longer;
        len *= 2;
    }
    let mut k = len / 2;
    while k > 0 {
        let longer = x & (x >> k);
        if longer != 0 {
            x = longer;
            len += k;
        }
        k /= 2;
    }
    len
}
