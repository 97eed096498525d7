//! The grid itself: cells, tile size, origin, and the exact mapping between world
//! coordinates and cell indices.
//!
//! # Edges and indices
//! Along an axis with `n` cells, edge `k` lies at `line(k) = origin + (k as f32) *
//! tile_size`, for `k` in `0..=n`. Each edge is evaluated once in `f32`, exactly as
//! written: a multiply, then an add. Rust never fuses the two. Cell `k` is the closed
//! interval `[line(k), line(k + 1)]`. Every decision compares coordinates with these
//! `f32` values directly. So a box stopped at `line(k)` is flush with cell `k` by
//! construction.
//!
//! Every cell outside the map has the map's [`TileMap::outside`] kind. All cells beyond
//! one side behave alike. So the code and the reported hits collapse them onto the ring
//! of indices `-1` and `n`:
//! ```text
//!   index:   -1  |  0  |  1  | ... | n-1 |  n
//!   world: (-∞, line(0)] ... cells ...  [line(n), +∞)
//! ```

use super::bits;
use super::open::{Coarse, Interior};
use crate::error::{AsciiDefect, Error};
use crate::lanes::{F32W, LANES, MaskW};
use crate::math::Aabb;
use glam::{IVec2, Vec2};

/// The kind of an empty cell. Every other kind is solid.
pub const EMPTY: u8 = 0;

/// The kind [`TileMap::from_ascii`] gives a `#`.
pub const SOLID: u8 = 1;

/// A rectangular grid of tiles.
///
/// Each tile is [`EMPTY`] or solid. Any kind other than [`EMPTY`] is solid. The kind is a
/// `u8`, so a game can use different kinds for things like spikes or ice.
///
/// Cells are stored row-major, one byte each. Cell `(x, y)` is `cells[y * width + x]`.
/// Index `x` grows with world x, and index `y` grows with world y. Cell `(x, y)` covers
/// the box from `origin + (x, y) * tile_size` to `origin + (x + 1, y + 1) * tile_size`.
///
/// ```
/// use hantei::tilemap::TileMap;
/// use glam::{IVec2, Vec2};
/// let map = TileMap::from_ascii("#..#\n####", Vec2::splat(16.0), Vec2::ZERO)?;
/// assert_eq!((map.width(), map.height()), (4, 2));
/// assert!(map.is_solid(IVec2::new(0, 0)) && !map.is_solid(IVec2::new(1, 0)));
/// assert_eq!(map.tile_at(Vec2::new(20.0, 3.0)), Some(IVec2::new(1, 0)));
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Clone, PartialEq)]
pub struct TileMap {
    dims: [u32; 2],
    tile_size: Vec2,
    origin: Vec2,
    inv_tile: [f64; 2],
    cells: Vec<u8>,
    outside: u8,
    /// Per cell: 1 when it and its eight neighbours are all empty (outside cells count
    /// as [`TileMap::outside`]). A box no larger than a tile whose centre lies in such a
    /// cell is in open space: the one-lookup test of [`TileMap::move_bullets`]. One bit
    /// per cell (row-major), so that the whole map stays in the first-level cache.
    clear: Vec<u64>,
    /// The clear bits of coarser cells, for boxes larger than a tile (see
    /// [`TileMap::region_clear`]).
    pub(super) coarse: Coarse,
    /// A large rectangle of empty tiles, for the four-comparison open-space test (see
    /// [`Interior`]).
    pub(crate) interior: Interior,
    /// `[origin.x, origin.y, 1 / tile.x, 1 / tile.y, width, height]` in `f32`, when
    /// `f32` arithmetic locates a point within a quarter of a cell anywhere in and around
    /// the map (see [`TileMap::small_box_clear`]); `None` for maps too large or too far
    /// out.
    pub(crate) fast_index: Option<[f32; 6]>,
    /// In cells, with `fast_index`: more than the error of a box edge located in `f32`
    /// through `fast_index`, plus the tile edges' [`TileMap::edge_slack`], plus the
    /// margin of [`TileMap::open_space`] (see [`TileMap::small_box_near`]).
    near_margin: f32,
    /// Per axis, in cells: how far a tile edge may lie from `origin + k · tile_size`
    /// computed exactly (edges are rounded to `f32`: two roundings at the map's largest
    /// coordinate). Tiny tiles far from the origin have a large slack.
    edge_slack: [f64; 2],
}

/// Prints a summary instead of every cell, because a map may hold millions of cells.
///
/// The summary shows the size, the tile size, the origin, the outside kind, and how
/// many cells are not empty.
///
/// ```
/// use hantei::TileMap;
/// use glam::Vec2;
/// let map = TileMap::from_ascii("#..\n.#.", Vec2::splat(16.0), Vec2::ZERO)?;
/// let text = format!("{map:?}");
/// assert!(text.contains("3 x 2") && text.contains("non_empty: 2"));
/// # Ok::<(), hantei::Error>(())
/// ```
impl core::fmt::Debug for TileMap {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("TileMap")
            .field(
                "cells",
                &format_args!("{} x {}", self.dims[0], self.dims[1]),
            )
            .field("tile_size", &self.tile_size)
            .field("origin", &self.origin)
            .field("outside", &self.outside)
            .field(
                "non_empty",
                &self.cells.iter().filter(|&&c| c != EMPTY).count(),
            )
            .finish_non_exhaustive()
    }
}

/// A range of cell indices across the direction of motion, as [`TileMap::first_solid`]
/// tests it.
///
/// `all == false`: blocked when any cell of `lo..=hi` is solid (a body of positive extent
/// on this axis). `all == true`: the body has zero extent and lies exactly on the edge
/// between cells `lo` and `hi = lo + 1`; it is blocked only when both are solid (it is in
/// the interior of the solid region only then).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Span {
    pub(crate) lo: i64,
    pub(crate) hi: i64,
    pub(crate) all: bool,
}

impl TileMap {
    /// The largest number of cells along one axis.
    ///
    /// It is `2^24`, so every index is exact as an `f32`.
    pub const MAX_SIDE: u32 = crate::error::MAP_MAX_SIDE;

    /// The largest number of cells in one map.
    ///
    /// It is `2^30`. Each cell takes one byte.
    pub const MAX_CELLS: usize = crate::error::MAP_MAX_CELLS;

    /// Creates an empty map of `width × height` tiles.
    ///
    /// Each tile has size `tile_size`. The min corner of cell `(0, 0)` lies at `origin`.
    ///
    /// # Errors
    /// The same as [`TileMap::from_cells`].
    pub fn new(width: u32, height: u32, tile_size: Vec2, origin: Vec2) -> Result<Self, Error> {
        check_geometry(width, height, tile_size, origin)?;
        let cells = vec![EMPTY; width as usize * height as usize];
        Self::assemble(width, height, cells, tile_size, origin, true)
    }

    /// Creates a map from its cells.
    ///
    /// The cells are row-major, so cell `(x, y)` is `cells[y * width + x]`. Each cell is
    /// [`EMPTY`] or a solid kind. A map may have zero cells. Then every cell is outside
    /// the map.
    ///
    /// The map also builds its open-space tables. These lookups let bodies in open space
    /// skip the exact sweep. The build reads the cells once and then works on 64 cells
    /// at a time. Its cost grows linearly with the number of cells. On maps with many
    /// rows, part of the work runs on rayon's thread pool.
    ///
    /// # Errors
    /// - [`Error::MapTooLarge`] when a side exceeds [`TileMap::MAX_SIDE`], or the map
    ///   has more than [`TileMap::MAX_CELLS`] cells.
    /// - [`Error::LengthMismatch`] when `cells.len() != width * height`.
    /// - [`Error::InvalidShape`], with index 0, when the tile size is not finite and
    ///   positive, or the origin is not finite. It is also returned when the tiles are
    ///   too small for their coordinates. That happens when two neighbouring tile edges
    ///   round to the same `f32`, or when the far edge overflows.
    pub fn from_cells(
        width: u32,
        height: u32,
        cells: Vec<u8>,
        tile_size: Vec2,
        origin: Vec2,
    ) -> Result<Self, Error> {
        Self::assemble(width, height, cells, tile_size, origin, false)
    }

    /// [`TileMap::from_cells`], told whether every cell is known to be empty (then the
    /// cells are not read: a fresh map's pages stay untouched until written).
    fn assemble(
        width: u32,
        height: u32,
        cells: Vec<u8>,
        tile_size: Vec2,
        origin: Vec2,
        all_empty: bool,
    ) -> Result<Self, Error> {
        check_geometry(width, height, tile_size, origin)?;
        crate::error::check_len(
            "tile map cells",
            width as usize * height as usize,
            cells.len(),
        )?;
        let mut map = Self {
            dims: [width, height],
            tile_size,
            origin,
            inv_tile: [1.0 / f64::from(tile_size.x), 1.0 / f64::from(tile_size.y)],
            cells,
            outside: EMPTY,
            clear: Vec::new(),
            coarse: Coarse::default(),
            interior: Interior::default(),
            fast_index: None,
            near_margin: f32::INFINITY,
            edge_slack: [0.0; 2],
        };
        for a in 0..2 {
            let n = map.n(a);
            if !map.line(a, n).is_finite() || (0..n).any(|k| map.line(a, k + 1) <= map.line(a, k)) {
                return Err(invalid(
                    "tile edges must be distinct finite f32 values (tiles too small for \
                     their coordinates, or the map too far out)",
                ));
            }
        }
        map.edge_slack = [0, 1].map(|a| {
            let far = map.line(a, 0).abs().max(map.line(a, map.n(a)).abs());
            let ulp = f64::from(far.next_up() - far);
            2.0 * ulp * map.inv_tile[a]
        });
        if map.edge_slack.iter().all(|&s| s < 0.25)
            && let Some((fast, err)) = map.f32_index()
        {
            map.fast_index = Some(fast);
            let slack = map.edge_slack[0].max(map.edge_slack[1]);
            map.near_margin = (2.0 * (err + slack) + 2f64.powi(-19)) as f32;
        }
        // The open-space tables, from one bit per cell (the outside is empty). With no
        // solid cell, every cell is clear and the interior is the whole map.
        let n = map.cells.len();
        let solid = if all_empty {
            vec![0; n.div_ceil(64)]
        } else {
            bits::solid(&map.cells)
        };
        map.coarse = Coarse::from_solid(&solid, width, height, false);
        let mut interior = if all_empty {
            Interior::whole(width, height)
        } else {
            Interior::from_solid(&solid, width, height)
        };
        interior.locate(&map);
        map.interior = interior;
        map.clear = if all_empty {
            let mut clear = solid;
            bits::fill(&mut clear, 0, n, true);
            clear
        } else {
            bits::open(solid, width as usize, n)
        };
        Ok(map)
    }

    /// The `f32` indexing constants, if `f32` is precise enough here: a centre within a
    /// tile of the map (coordinates up to `S` in size) is computed with an error of a few
    /// ulps of `2S`, and scaling to a cell index adds `2⁻²²` of the index; both must stay
    /// well under a quarter of a cell. Also that error bound, in cells.
    fn f32_index(&self) -> Option<([f32; 6], f64)> {
        let b = self.bounds();
        let s = [b.min.x, b.min.y, b.max.x, b.max.y]
            .iter()
            .fold(0.0f32, |m, v| m.max(v.abs()));
        let ulp = |x: f32| f64::from(x.next_up() - x);
        let big = (2.0 * s + 2.0 * self.tile_size.max_element()).min(f32::MAX / 2.0);
        let coord_err = 4.0 * ulp(big) / f64::from(self.tile_size.min_element());
        let index_err = f64::from(self.dims[0].max(self.dims[1])) * 2f64.powi(-22);
        (coord_err + index_err < 0.125).then(|| {
            let fast = [
                self.origin.x,
                self.origin.y,
                self.inv_tile[0] as f32,
                self.inv_tile[1] as f32,
                self.dims[0] as f32,
                self.dims[1] as f32,
            ];
            (fast, coord_err + index_err)
        })
    }

    /// Whether a swept box `[x0, x1] × [y0, y1]` no larger than a tile is certainly in
    /// open space ([`TileMap::clear_around`] in `f32` arithmetic when the map allows it).
    #[inline(always)]
    pub(crate) fn small_box_clear(&self, x0: f32, y0: f32, x1: f32, y1: f32) -> bool {
        let Some([ox, oy, ix, iy, w, h]) = self.fast_index else {
            return self.clear_around([
                (f64::from(x0) + f64::from(x1)) * 0.5,
                (f64::from(y0) + f64::from(y1)) * 0.5,
            ]);
        };
        let fx = ((x0 + x1) * 0.5 - ox) * ix;
        let fy = ((y0 + y1) * 0.5 - oy) * iy;
        if !(fx >= 0.0 && fy >= 0.0 && fx < w && fy < h) {
            return false;
        }
        // In range and non-negative: the conversions truncate exactly.
        let (x, y) = (fx as i32 as usize, fy as i32 as usize);
        self.is_clear(y * self.dims[0] as usize + x)
    }

    /// Whether the box `[x0, x1] × [y0, y1]`, of any size, is certainly clear of solid
    /// tiles, edges included, on a map with `fast` (its `fast_index`): one lookup, in
    /// the clear bits of the level whose cells (`2^k` tiles a side) are the smallest
    /// the box fits in, at the cell holding its centre (see the `open` module). `false`
    /// means "not sure": a centre outside the map, or a box larger than the map's
    /// coarsest cell.
    ///
    /// Exact enough: the centre's cell index is computed within an eighth of a cell at
    /// level 0 (the condition for `fast`, which also covers the sum `x0 + x1` of a box
    /// up to a tile wide); a box `2^k` tiles wide adds at most a few ulps of its own
    /// size, under `2^-20` of a level-`k` cell. A box at most one cell wide whose centre
    /// is within an eighth of a cell of the computed one stays more than a third of a
    /// cell inside the 3×3 block around that cell.
    #[inline]
    pub(crate) fn region_clear(&self, fast: [f32; 6], [x0, y0, x1, y1]: [f32; 4]) -> bool {
        let [ox, oy, ix, iy, w, h] = fast;
        let fx = ((x0 + x1) * 0.5 - ox) * ix;
        let fy = ((y0 + y1) * 0.5 - oy) * iy;
        if !(fx >= 0.0 && fy >= 0.0 && fx < w && fy < h) {
            return false;
        }
        // In range and non-negative: the conversions truncate exactly.
        let (cx, cy) = (fx as u32, fy as u32);
        let (bw, bh) = (x1 - x0, y1 - y0);
        let (mut tw, mut th) = (self.tile_size.x, self.tile_size.y);
        let mut k = 0;
        // `!(a <= b)`, not `a > b`: a NaN size finds no level.
        while !(bw <= tw && bh <= th) {
            k += 1;
            if k > self.coarse.len() {
                return false;
            }
            (tw, th) = (tw * 2.0, th * 2.0);
        }
        if k == 0 {
            self.is_clear(cy as usize * self.dims[0] as usize + cx as usize)
        } else {
            self.coarse.is_clear(k, cx, cy)
        }
    }

    /// Whether the box `[x0, x1] × [y0, y1]` may reach a solid tile, on a map with
    /// `fast` (its `fast_index`): `false` only when the box is no larger than a tile,
    /// its centre lies in the map, and no solid tile (or solid outside) lies among the
    /// cells it reaches. `true` means "not sure".
    ///
    /// The finer half of the near-walls listing: [`TileMap::region_clear`] answers
    /// with the centre's cell and all eight around it, so a box in a cell beside a wall
    /// is "not sure" even when it keeps clear of the wall. Here each side of the box is
    /// located in `f32`. A side within [`TileMap::near_margin`] of the centre cell's
    /// edge counts as reaching the cells beyond that edge. That margin covers the error
    /// of locating it, the tile edges' slack and the margin of
    /// [`TileMap::open_space`], so a box that `open_space` does not call clear is never
    /// called clear here.
    #[inline]
    pub(crate) fn small_box_near(&self, fast: [f32; 6], b: [f32; 4]) -> bool {
        match self.near_reach(fast, b) {
            None => true,
            Some((cell, cols, rows)) => self.reaches_solid(cell, cols, rows),
        }
    }

    /// [`TileMap::small_box_near`]'s box located: `None` when it is larger than a tile
    /// or its centre lies outside the map, else its centre's cell and the offsets from
    /// it that the box reaches, `c0..=c1` across and `r0..=r1` down (each `-1..=0` and
    /// `0..=1`).
    #[inline(always)]
    pub(super) fn near_reach(
        &self,
        fast: [f32; 6],
        [x0, y0, x1, y1]: [f32; 4],
    ) -> Option<([u32; 2], [i64; 2], [i64; 2])> {
        let [ox, oy, ix, iy, w, h] = fast;
        let fx = ((x0 + x1) * 0.5 - ox) * ix;
        let fy = ((y0 + y1) * 0.5 - oy) * iy;
        // `!(a <= b)`: a NaN size is not small.
        if !(fx >= 0.0
            && fy >= 0.0
            && fx < w
            && fy < h
            && x1 - x0 <= self.tile_size.x
            && y1 - y0 <= self.tile_size.y)
        {
            return None;
        }
        // In range and non-negative: the truncations are exact. The box lies within
        // the 3 × 3 cells around its centre's (see `region_clear`).
        let (cx, cy) = (fx as u32, fy as u32);
        let m = self.near_margin;
        let reach = |lo: f32, hi: f32, c: f32| {
            let before = lo <= c + m;
            let after = hi >= c + 1.0 - m;
            [-i64::from(before), i64::from(after)]
        };
        // Cell indices below `2^24` (the condition for `fast`): exact in `f32`.
        let cols = reach((x0 - ox) * ix, (x1 - ox) * ix, cx as f32);
        let rows = reach((y0 - oy) * iy, (y1 - oy) * iy, cy as f32);
        Some(([cx, cy], cols, rows))
    }

    /// Whether any cell `(cx + c, cy + r)` for `c` in `c0..=c1` and `r` in `r0..=r1` is
    /// solid (or outside the map, counted as [`TileMap::outside`]). Offsets are `-1`,
    /// `0` or `1`. Away from the map's edge: the nine cells around `(cx, cy)` as bits,
    /// and the ones reached as a mask, with no branch on the cells.
    #[inline(always)]
    pub(super) fn reaches_solid(
        &self,
        [cx, cy]: [u32; 2],
        [c0, c1]: [i64; 2],
        [r0, r1]: [i64; 2],
    ) -> bool {
        let [w, h] = self.dims;
        if cx == 0 || cy == 0 || cx + 1 >= w || cy + 1 >= h {
            return self.reaches_solid_by_cells([cx, cy], [c0, c1], [r0, r1]);
        }
        let w = w as usize;
        let mut solid = 0u32;
        for r in 0..3 {
            let at = (cy as usize + r - 1) * w + cx as usize - 1;
            for (c, &kind) in self.cells[at..at + 3].iter().enumerate() {
                solid |= u32::from(kind != EMPTY) << (3 * r + c);
            }
        }
        // Bit `k` of each: offset `k - 1` is reached (the centre's always is).
        let (cols, rows) = (((c1 << 2) | 2 | -c0) as u32, ((r1 << 2) | 2 | -r0) as u32);
        let rows =
            ((rows & 1) * 0b111) | (((rows >> 1) & 1) * 0b111_000) | ((rows >> 2) * 0b111_000_000);
        (solid & (cols * 0b001_001_001) & rows) != 0
    }

    /// [`TileMap::reaches_solid`] cell by cell: the answer at the map's edge, and the
    /// reference for the tests.
    pub(super) fn reaches_solid_by_cells(
        &self,
        [cx, cy]: [u32; 2],
        [c0, c1]: [i64; 2],
        [r0, r1]: [i64; 2],
    ) -> bool {
        let (cx, cy) = (i64::from(cx), i64::from(cy));
        (r0..=r1).any(|r| (c0..=c1).any(|c| self.kind_at(cx + c, cy + r) != EMPTY))
    }

    /// [`TileMap::small_box_clear`]'s first half for eight boxes `[x0, x1] × [y0, y1]`
    /// swept along `(mx, my)`, on a map with `fast` (its `fast_index`): per lane, whether
    /// the swept box is no larger than a tile and its centre in the map (the bit), and
    /// the centre's cell (exact where the bit is set). The caller looks the cells up
    /// with [`TileMap::is_clear`]. Also, per lane, whether the swept box lies inside the
    /// map's open interior (`Interior`: clear without a lookup).
    #[inline(always)]
    pub(crate) fn open_lanes<W: F32W>(
        &self,
        fast: [f32; 6],
        [x0, y0, x1, y1]: [W; 4],
        [mx, my]: [W; 2],
    ) -> (u32, [i32; LANES], [i32; LANES], u32) {
        let zero = W::splat(0.0);
        let (sx0, sy0) = (x0 + mx.min(zero), y0 + my.min(zero));
        let (sx1, sy1) = (x1 + mx.max(zero), y1 + my.max(zero));
        let [ix0, iy0, ix1, iy1] = self.interior.world.map(W::splat);
        let inside = sx0.ge(ix0) & sy0.ge(iy0) & sx1.le(ix1) & sy1.le(iy1);
        let (bits, fx, fy) = self.open_centres::<W>(fast, [sx0, sy0, sx1, sy1]);
        // In range and non-negative where the bit is set: exact truncations.
        (bits, fx.trunc_i32(), fy.trunc_i32(), inside.bitmask())
    }

    /// [`TileMap::open_lanes`] on eight swept boxes, before the conversion: the bits,
    /// and the centres in cell units (their cells are the integer parts where the bit
    /// is set).
    #[inline(always)]
    pub(crate) fn open_centres<W: F32W>(
        &self,
        fast: [f32; 6],
        [sx0, sy0, sx1, sy1]: [W; 4],
    ) -> (u32, W, W) {
        let [ox, oy, ix, iy, w, h] = fast;
        let (zero, half) = (W::splat(0.0), W::splat(0.5));
        let fx = ((sx0 + sx1) * half - W::splat(ox)) * W::splat(ix);
        let fy = ((sy0 + sy1) * half - W::splat(oy)) * W::splat(iy);
        let ok = (sx1 - sx0).le(W::splat(self.tile_size.x))
            & (sy1 - sy0).le(W::splat(self.tile_size.y))
            & fx.ge(zero)
            & fy.ge(zero)
            & fx.lt(W::splat(w))
            & fy.lt(W::splat(h));
        (ok.bitmask(), fx, fy)
    }

    /// The one-lookup open-space test on eight swept boxes `[x0, y0, x1, y1]`, on a map
    /// with `fast` (its `fast_index`): per lane, whether the box is no larger than a
    /// tile and its centre in the map (`small`), and whether it is certainly clear of
    /// solid tiles besides (`open`: its centre's cell and the eight around it are
    /// empty, [`TileMap::is_clear`]). The eight lookups are one [`F32W::test_bits`];
    /// the cells are computed in `f32` lanes where that is exact (every partial result
    /// an integer below `2^24`: maps of at most `2^24` cells).
    #[inline(always)]
    pub(crate) fn open_mask<W: F32W>(&self, fast: [f32; 6], swept: [W; 4]) -> (u32, u32) {
        let (small, fx, fy) = self.open_centres::<W>(fast, swept);
        let mut cells = [0u32; LANES];
        if self.cells.len() <= 1 << 24 {
            let index = (fy.floor() * W::splat(fast[4]) + fx.floor()).trunc_i32();
            for (c, i) in cells.iter_mut().zip(index) {
                *c = i as u32;
            }
        } else {
            let (cx, cy) = (fx.trunc_i32(), fy.trunc_i32());
            for j in 0..LANES {
                cells[j] = (cy[j] as u32)
                    .wrapping_mul(self.dims[0])
                    .wrapping_add(cx[j] as u32);
            }
        }
        // Lanes without the `small` bit: any cell (read safely), their bit masked off.
        (small, W::test_bits(&self.clear, &cells) & small)
    }

    /// Recomputes [`TileMap::clear`] for the cells in `x0..x1 × y0..y1` (clamped), cell
    /// by cell: for the few cells around a change.
    fn rebuild_clear(&mut self, x0: u32, y0: u32, x1: u32, y1: u32) {
        let w = self.dims[0] as usize;
        for y in y0..y1.min(self.dims[1]) {
            for x in x0..x1.min(self.dims[0]) {
                let (x, y) = (i64::from(x), i64::from(y));
                let open =
                    (y - 1..=y + 1).all(|r| (x - 1..=x + 1).all(|c| self.kind_at(c, r) == EMPTY));
                bits::put(&mut self.clear, y as usize * w + x as usize, open);
            }
        }
    }

    /// Whether a box at most one tile wide and high, with centre `c`, is certainly clear
    /// of solid tiles (see [`TileMap::clear`]); `false` means "not sure".
    ///
    /// The box lies within half a tile of its centre, so within one cell of the centre's
    /// cell; the centre's index is computed in `f64` (error far below half a cell).
    ///
    /// Tile edges may lie up to [`TileMap::edge_slack`] from their exact place; the test
    /// is valid while that stays well under half a cell, and answers "not sure" beyond.
    #[inline(always)]
    pub(crate) fn clear_around(&self, c: [f64; 2]) -> bool {
        if self.edge_slack[0] >= 0.25 || self.edge_slack[1] >= 0.25 {
            return false;
        }
        let fx = (c[0] - f64::from(self.origin.x)) * self.inv_tile[0];
        let fy = (c[1] - f64::from(self.origin.y)) * self.inv_tile[1];
        let (w, h) = (f64::from(self.dims[0]), f64::from(self.dims[1]));
        if !(fx >= 0.0 && fy >= 0.0 && fx < w && fy < h) {
            return false;
        }
        let (x, y) = (fx as usize, fy as usize);
        self.is_clear(y * self.dims[0] as usize + x)
    }

    /// The clear bit of cell `i` (row-major).
    #[inline(always)]
    pub(crate) fn is_clear(&self, i: usize) -> bool {
        self.clear[i / 64] & (1 << (i % 64)) != 0
    }

    /// Creates a map from ASCII art.
    ///
    /// Each text line is one row of tiles. The first line is row 0, which has the
    /// smallest y. In y-down screen coordinates, that is the top of the picture. For
    /// y-up worlds, use [`TileMap::from_ascii_y_up`].
    ///
    /// The characters mean:
    /// - `.` is [`EMPTY`].
    /// - `#` is [`SOLID`].
    /// - A digit `0`–`9` is that kind. So `0` is empty.
    ///
    /// Each line is trimmed of surrounding whitespace. Blank lines before the first row
    /// and after the last row are ignored. So you can indent the art in source code.
    ///
    /// # Errors
    /// - [`Error::InvalidAscii`] when the text has no rows, has a blank line between
    ///   rows, has an unknown character, or has rows of different lengths. Ragged art is
    ///   never padded. The [`AsciiDefect`] says which problem it found, and names its
    ///   line and column in the text.
    /// - [`Error::MapTooLarge`] when the picture is wider or taller than
    ///   [`TileMap::MAX_SIDE`] tiles, or has more than [`TileMap::MAX_CELLS`] tiles. This
    ///   is checked before the tiles are read.
    /// - The other errors of [`TileMap::from_cells`], for a bad tile size or origin.
    ///
    /// ```
    /// use hantei::{AsciiDefect, Error, TileMap};
    /// use glam::Vec2;
    /// let art = "
    ///     ....
    ///     .x..
    /// ";
    /// let err = TileMap::from_ascii(art, Vec2::ONE, Vec2::ZERO).unwrap_err();
    /// let defect = AsciiDefect::UnknownTile { line: 3, column: 6, found: 'x' };
    /// assert_eq!(err, Error::InvalidAscii(defect));
    /// assert_eq!(
    ///     err.to_string(),
    ///     "ascii tile map, line 3, column 6: unknown tile 'x' (use '.', '#' or a digit)"
    /// );
    /// ```
    pub fn from_ascii(art: &str, tile_size: Vec2, origin: Vec2) -> Result<Self, Error> {
        Self::ascii(art, tile_size, origin, false)
    }

    /// Creates a map from ASCII art, with the last line as row 0.
    ///
    /// Row 0 has the smallest y. So the picture reads naturally in a y-up world. In all
    /// other ways this works like [`TileMap::from_ascii`].
    ///
    /// # Errors
    /// The same as [`TileMap::from_ascii`].
    pub fn from_ascii_y_up(art: &str, tile_size: Vec2, origin: Vec2) -> Result<Self, Error> {
        Self::ascii(art, tile_size, origin, true)
    }

    fn ascii(art: &str, tile_size: Vec2, origin: Vec2, y_up: bool) -> Result<Self, Error> {
        let bad = |defect| Err(Error::InvalidAscii(defect));
        // (line number from 1, indentation in characters, the row's text)
        let lines: Vec<(usize, usize, &str)> = art
            .lines()
            .enumerate()
            .map(|(i, line)| {
                let row = line.trim();
                let indent = line.chars().count() - line.trim_start().chars().count();
                (i + 1, indent, row)
            })
            .collect();
        let first = lines.iter().position(|l| !l.2.is_empty());
        let last = lines.iter().rposition(|l| !l.2.is_empty());
        let (Some(first), Some(last)) = (first, last) else {
            return bad(AsciiDefect::NoRows);
        };
        let rows = &lines[first..=last];
        let (first_line, _, first_row) = rows[0];
        let width = first_row.chars().count();
        check_size(width as u64, rows.len() as u64)?;
        let mut cells = Vec::with_capacity(width * rows.len());
        for &(line, indent, row) in rows {
            if row.is_empty() {
                return bad(AsciiDefect::BlankLine { line });
            }
            let mut tiles = 0;
            for ch in row.chars() {
                tiles += 1;
                cells.push(match ch {
                    '.' => EMPTY,
                    '#' => SOLID,
                    '0'..='9' => ch as u8 - b'0',
                    found => {
                        let column = indent + tiles;
                        return bad(AsciiDefect::UnknownTile {
                            line,
                            column,
                            found,
                        });
                    }
                });
            }
            if tiles != width {
                return bad(AsciiDefect::Ragged {
                    line,
                    tiles,
                    first_line,
                    first_tiles: width,
                });
            }
        }
        if y_up {
            // The last line is row 0: reverse the rows.
            let height = rows.len();
            for y in 0..height / 2 {
                let (top, bottom) = cells.split_at_mut((height - 1 - y) * width);
                top[y * width..(y + 1) * width].swap_with_slice(&mut bottom[..width]);
            }
        }
        // Both sides are within MAX_SIDE (checked above).
        let side = |v: usize| u32::try_from(v).unwrap_or(u32::MAX);
        Self::from_cells(side(width), side(rows.len()), cells, tile_size, origin)
    }

    /// Returns the same map, with every cell outside it set to `kind`.
    ///
    /// The default is [`EMPTY`], which lets bodies leave the map. A solid kind walls the
    /// map in.
    #[must_use]
    pub fn with_outside(mut self, kind: u8) -> Self {
        let walled = kind != EMPTY;
        let was_walled = core::mem::replace(&mut self.outside, kind) != EMPTY;
        if walled == was_walled {
            return self; // one solid kind for another: the same open space
        }
        // Only the border cells see outside neighbours. A solid outside takes them all out
        // of open space; an empty one lets each be open again if its neighbours are.
        let (w, h) = (self.dims[0], self.dims[1]);
        if walled {
            bits::wall_off(&mut self.clear, w as usize, h as usize, [1; 4]);
        } else {
            self.rebuild_clear(0, 0, w, 1);
            self.rebuild_clear(0, h.saturating_sub(1), w, h);
            self.rebuild_clear(0, 0, 1, h);
            self.rebuild_clear(w.saturating_sub(1), 0, w, h);
        }
        self.coarse.outside_changed(walled);
        self
    }

    /// Number of columns.
    #[inline]
    #[must_use]
    pub fn width(&self) -> u32 {
        self.dims[0]
    }

    /// Number of rows.
    #[inline]
    #[must_use]
    pub fn height(&self) -> u32 {
        self.dims[1]
    }

    /// The size of one tile.
    #[inline]
    #[must_use]
    pub fn tile_size(&self) -> Vec2 {
        self.tile_size
    }

    /// Returns the world position of the min corner of cell `(0, 0)`.
    #[inline]
    #[must_use]
    pub fn origin(&self) -> Vec2 {
        self.origin
    }

    /// Returns the kind of every cell outside the map.
    ///
    /// It is [`EMPTY`] unless you set it with [`TileMap::with_outside`].
    #[inline]
    #[must_use]
    pub fn outside(&self) -> u8 {
        self.outside
    }

    /// Returns the cells, in row-major order.
    #[inline]
    #[must_use]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Returns the kind of cell `tile`.
    ///
    /// For a cell outside the map, this is [`TileMap::outside`].
    #[inline]
    #[must_use]
    pub fn get(&self, tile: IVec2) -> u8 {
        self.kind_at(i64::from(tile.x), i64::from(tile.y))
    }

    /// Returns whether cell `tile` is solid.
    ///
    /// For a cell outside the map, this tells whether [`TileMap::outside`] is solid.
    #[inline]
    #[must_use]
    pub fn is_solid(&self, tile: IVec2) -> bool {
        self.get(tile) != EMPTY
    }

    /// Sets cell `(x, y)` to `kind` and returns its previous kind.
    ///
    /// The map patches its open-space tables in place. It updates the bits around the
    /// cell, one cell per coarse level, and the rectangle of open interior. Now and then
    /// it also rebuilds that rectangle. On average, one change costs about the work of a
    /// thousand cells. To build a whole map, use [`TileMap::from_cells`] or
    /// [`TileMap::from_ascii`] instead. They make the map in one pass.
    ///
    /// # Errors
    /// - [`Error::InvalidShape`] when the cell is outside the map. Nothing changes.
    pub fn set(&mut self, x: u32, y: u32, kind: u8) -> Result<u8, Error> {
        if x >= self.dims[0] || y >= self.dims[1] {
            return Err(invalid("tile outside the map"));
        }
        let i = y as usize * self.dims[0] as usize + x as usize;
        let old = core::mem::replace(&mut self.cells[i], kind);
        self.rebuild_clear(x.saturating_sub(1), y.saturating_sub(1), x + 2, y + 2);
        let mut coarse = core::mem::take(&mut self.coarse);
        coarse.update(self, x, y);
        self.coarse = coarse;
        let mut interior = core::mem::take(&mut self.interior);
        interior.update(self, x, y, old);
        self.interior = interior;
        Ok(old)
    }

    /// Returns the world box of cell `tile`.
    ///
    /// The box uses the same edge values as every query. For a cell outside the map, the
    /// same formula is extended. Far from the map, it may overflow to infinity.
    #[must_use]
    pub fn tile_aabb(&self, tile: IVec2) -> Aabb {
        let (x, y) = (i64::from(tile.x), i64::from(tile.y));
        Aabb::from_coords(
            self.line(0, x),
            self.line(1, y),
            self.line(0, x + 1),
            self.line(1, y + 1),
        )
    }

    /// Returns the world box of the whole map.
    #[must_use]
    pub fn bounds(&self) -> Aabb {
        Aabb::from_coords(
            self.line(0, 0),
            self.line(1, 0),
            self.line(0, self.n(0)),
            self.line(1, self.n(1)),
        )
    }

    /// Returns the cell that contains `p`.
    ///
    /// Here each cell is half-open, `[line(k), line(k + 1))`. Returns `None` when `p` is
    /// outside the map or not finite.
    #[must_use]
    pub fn tile_at(&self, p: Vec2) -> Option<IVec2> {
        let x = self.floor_index(0, f64::from(p.x));
        let y = self.floor_index(1, f64::from(p.y));
        let inside = |k: i64, a: usize| p[a].is_finite() && (0..self.n(a)).contains(&k);
        (inside(x, 0) && inside(y, 1)).then(|| IVec2::new(x as i32, y as i32))
    }

    // ----- crate-internal index arithmetic -----------------------------------------

    /// Number of cells along axis `a` (0 = x, 1 = y).
    #[inline]
    pub(crate) fn n(&self, a: usize) -> i64 {
        i64::from(self.dims[a])
    }

    /// The coordinate of edge `k` along axis `a` (see the module docs).
    #[inline]
    pub(crate) fn line(&self, a: usize, k: i64) -> f32 {
        self.origin[a] + (k as f32) * self.tile_size[a]
    }

    /// [`TileMap::line`] as `f64` (exact).
    #[inline]
    pub(crate) fn line64(&self, a: usize, k: i64) -> f64 {
        f64::from(self.line(a, k))
    }

    /// The cell containing `(x, x + ε)` along axis `a`, in `-1..=n`: the `k` with
    /// `line(k) <= x < line(k + 1)`, `-1` left of the map, `n` at or right of its far edge.
    #[inline]
    pub(crate) fn floor_index(&self, a: usize, x: f64) -> i64 {
        let n = self.n(a);
        // Estimate, clamped to -1..=n (NaN lands on -1), then settle on the exact f32
        // edges, treating line(-1) as -∞ and line(n + 1) as +∞: almost always zero or
        // one step, and the steps only ever go one way.
        let est = (x - f64::from(self.origin[a])) * self.inv_tile[a];
        let mut k = est.max(-1.0).min(n as f64) as i64;
        loop {
            if k >= 0 && self.line64(a, k) > x {
                k -= 1;
            } else if k < n && self.line64(a, k + 1) <= x {
                k += 1;
            } else {
                return k;
            }
        }
    }

    /// The cell containing `(x - ε, x)` along axis `a`, in `-1..=n`: the `k` with
    /// `line(k) < x <= line(k + 1)`.
    #[inline]
    pub(crate) fn ceil_index(&self, a: usize, x: f64) -> i64 {
        let k = self.floor_index(a, x);
        if (0..=self.n(a)).contains(&k) && self.line64(a, k) == x {
            k - 1
        } else {
            k
        }
    }

    /// The cells a still interval `[lo, hi]` on axis `a` occupies (open overlap; a
    /// zero-length interval on an edge occupies both neighbours jointly).
    #[inline]
    pub(crate) fn still_span(&self, a: usize, lo: f64, hi: f64) -> Span {
        if lo < hi {
            Span {
                lo: self.floor_index(a, lo),
                hi: self.ceil_index(a, hi),
                all: false,
            }
        } else {
            let k = self.floor_index(a, lo);
            if (0..=self.n(a)).contains(&k) && self.line64(a, k) == lo {
                Span {
                    lo: k - 1,
                    hi: k,
                    all: true,
                }
            } else {
                Span {
                    lo: k,
                    hi: k,
                    all: false,
                }
            }
        }
    }

    /// The kind of cell `(c, r)`, any indices.
    #[inline]
    pub(crate) fn kind_at(&self, c: i64, r: i64) -> u8 {
        if (0..self.n(0)).contains(&c) && (0..self.n(1)).contains(&r) {
            self.cells[r as usize * self.dims[0] as usize + c as usize]
        } else {
            self.outside
        }
    }

    /// The kind of the cell at index `k` along axis `a` and `j` across it.
    #[inline]
    pub(crate) fn kind_along(&self, a: usize, k: i64, j: i64) -> u8 {
        if a == 0 {
            self.kind_at(k, j)
        } else {
            self.kind_at(j, k)
        }
    }

    /// Whether the slab of cells at index `k` along axis `a`, over `span` across it,
    /// blocks a body (see [`Span`]); if so, the first blocking cell's cross index and kind.
    #[inline]
    pub(crate) fn first_solid(&self, a: usize, k: i64, span: Span) -> Option<(i64, u8)> {
        if self.outside == EMPTY && !(0..self.n(a)).contains(&k) {
            return None;
        }
        if span.all {
            let mut first = None;
            for j in span.lo..=span.hi {
                let kind = self.kind_along(a, k, j);
                if kind == EMPTY {
                    return None;
                }
                first.get_or_insert((j, kind));
            }
            first
        } else {
            // Cells across the map boundary all share the outside kind: test one of them.
            let p = 1 - a;
            let (lo, hi) = if self.outside == EMPTY {
                (span.lo.max(0), span.hi.min(self.n(p) - 1))
            } else {
                (span.lo, span.hi)
            };
            (lo..=hi).find_map(|j| {
                let kind = self.kind_along(a, k, j);
                (kind != EMPTY).then_some((j, kind))
            })
        }
    }

    /// Whether the box swept along `motion` is certainly clear of solid tiles: no solid
    /// cell among those its swept bounds reach, edges included. `false` means "not sure".
    /// See [`TileMap::reach`] for the cells tested.
    #[inline]
    pub(crate) fn open_space(&self, body: Aabb, motion: Vec2) -> bool {
        match self.reach(body, motion) {
            Reach::Clear => true,
            Reach::Cells(xs, ys) => !self.any_solid(xs, ys),
            Reach::Unsure => false,
        }
    }

    /// The cells of the map that the box swept along `motion` reaches, edges included.
    ///
    /// The indices are computed in `f64` from the `f32` inputs, with a margin of `2⁻²⁰`
    /// of a cell plus the edges' rounding slack on each side: more than the computation's
    /// error (below `2⁻²⁷` of a cell on maps of at most [`TileMap::MAX_SIDE`] cells a
    /// side) plus how far a rounded edge can stray. So a cell left out of
    /// [`Reach::Cells`] never meets the swept box, not even at an edge.
    #[inline]
    pub(crate) fn reach(&self, body: Aabb, motion: Vec2) -> Reach {
        const MARGIN: f64 = 1.0 / 1_048_576.0;
        // Edges rounded to f32 lie up to `edge_slack` cells from where the formula puts
        // them (tiny tiles far out): widen the cells tested by that much.
        let lo = [
            f64::from(body.min.x) + f64::from(motion.x.min(0.0)),
            f64::from(body.min.y) + f64::from(motion.y.min(0.0)),
        ];
        let hi = [
            f64::from(body.max.x) + f64::from(motion.x.max(0.0)),
            f64::from(body.max.y) + f64::from(motion.y.max(0.0)),
        ];
        let origin = [f64::from(self.origin.x), f64::from(self.origin.y)];
        let mut r = [(0i64, 0i64); 2];
        for a in 0..2 {
            let n = self.n(a) as f64;
            let margin = MARGIN + self.edge_slack[a];
            let f0 = (lo[a] - origin[a]) * self.inv_tile[a] - margin;
            let f1 = (hi[a] - origin[a]) * self.inv_tile[a] + margin;
            if !(f0 > -1.0e15 && f1 < 1.0e15) {
                return Reach::Unsure; // not finite, or too far out to index
            }
            let (i0, i1) = (floor_i64(f0), floor_i64(f1));
            if self.outside != EMPTY && (i0 < 0 || i1 >= n as i64) {
                return Reach::Unsure;
            }
            // The cells reached inside the map; none (entirely outside an empty-outside
            // map, or a map with no cells on this axis) is open space.
            let (c0, c1) = (i0.max(0), i1.min(n as i64 - 1));
            if c0 > c1 {
                return Reach::Clear;
            }
            r[a] = (c0, c1);
        }
        Reach::Cells(r[0], r[1])
    }

    /// The cells a closed box reaches, per axis an inclusive index range widened by one
    /// cell on each side (more than any rounding of the edges), clamped to the map and,
    /// when the outside is solid, the ring of outside cells around it (`-1` and `n`).
    /// An empty range (`lo > hi`) when it reaches no cell that can be solid.
    pub(crate) fn cells_reached(&self, b: Aabb) -> ((i64, i64), (i64, i64)) {
        let range = |a: usize, lo: f32, hi: f32| {
            let n = self.n(a);
            let (min, max) = if self.outside == EMPTY {
                (0, n - 1)
            } else {
                (-1, n)
            };
            let o = f64::from(if a == 0 { self.origin.x } else { self.origin.y });
            let f0 = (f64::from(lo) - o) * self.inv_tile[a];
            let f1 = (f64::from(hi) - o) * self.inv_tile[a];
            // NaN-free for finite boxes; clamp before converting. With a solid outside
            // both ends clamp into the ring (a box far beyond an edge reaches its ring
            // cell, whose slab reaches out to it); else a box beyond an edge reaches no
            // cell (an empty range).
            let (c0, c1) = (f0.floor() - 1.0, f1.floor() + 1.0);
            if self.outside == EMPTY {
                let c0 = c0.clamp(min as f64, (max + 1) as f64) as i64;
                (c0, c1.clamp((min - 1) as f64, max as f64) as i64)
            } else {
                let c0 = c0.clamp(min as f64, max as f64) as i64;
                (c0, c1.clamp(min as f64, max as f64) as i64)
            }
        };
        (range(0, b.min.x, b.max.x), range(1, b.min.y, b.max.y))
    }

    /// Whether any cell of `xs × ys` (both "any" ranges) is solid.
    #[inline]
    pub(crate) fn any_solid(&self, xs: (i64, i64), ys: (i64, i64)) -> bool {
        let (mut x0, mut x1, mut y0, mut y1) = (xs.0, xs.1, ys.0, ys.1);
        if self.outside != EMPTY {
            let out = |lo: i64, hi: i64, n: i64| lo < 0 || hi >= n;
            if x0 <= x1 && y0 <= y1 && (out(x0, x1, self.n(0)) || out(y0, y1, self.n(1))) {
                return true;
            }
        }
        x0 = x0.max(0);
        y0 = y0.max(0);
        x1 = x1.min(self.n(0) - 1);
        y1 = y1.min(self.n(1) - 1);
        if x0 > x1 || y0 > y1 {
            return false;
        }
        let w = self.dims[0] as usize;
        (y0..=y1).any(|r| {
            let row = &self.cells[r as usize * w..][x0 as usize..=x1 as usize];
            row.iter().any(|&c| c != EMPTY)
        })
    }
}

/// The cells a swept box reaches ([`TileMap::reach`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Reach {
    /// No cell that can be solid. The box lies wholly outside a map whose outside is
    /// empty, or the map has no cells.
    Clear,
    /// The inclusive ranges of columns and rows, inside the map. Every cell that meets
    /// the swept box is among them. With a solid outside, the box keeps off it.
    Cells((i64, i64), (i64, i64)),
    /// Not computed: a coordinate not finite or too far out, or a box that reaches a
    /// solid outside.
    Unsure,
}

/// `⌊x⌋` for `|x| < 2⁵³` through an integer conversion: `f64::floor` is a libm call
/// on the baseline x86-64 target (no `roundsd` before SSE4.1).
#[inline(always)]
fn floor_i64(x: f64) -> i64 {
    let t = x as i64;
    if (t as f64) > x { t - 1 } else { t }
}

fn invalid(reason: &'static str) -> Error {
    Error::InvalidShape { index: 0, reason }
}

/// [`Error::MapTooLarge`] unless a map of `width × height` tiles is within
/// [`TileMap::MAX_SIDE`] and [`TileMap::MAX_CELLS`].
fn check_size(width: u64, height: u64) -> Result<(), Error> {
    let side = u64::from(TileMap::MAX_SIDE);
    if width > side || height > side || width * height > TileMap::MAX_CELLS as u64 {
        return Err(Error::MapTooLarge { width, height });
    }
    Ok(())
}

fn check_geometry(width: u32, height: u32, tile_size: Vec2, origin: Vec2) -> Result<(), Error> {
    check_size(width.into(), height.into())?;
    if !(tile_size.is_finite() && tile_size.x > 0.0 && tile_size.y > 0.0) {
        return Err(invalid("tile size must be finite and positive"));
    }
    if !origin.is_finite() {
        return Err(invalid("tile map origin must be finite"));
    }
    Ok(())
}
