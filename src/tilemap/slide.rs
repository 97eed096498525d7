//! Move-and-slide: per-axis sweeps of a box through the grid.
//!
//! The [module docs](crate::tilemap) describe the algorithm and its guarantees.

use super::exact::{advance, follow};
use super::map::{Span, TileMap};
use crate::error::Error;
use crate::math::Aabb;
use glam::{IVec2, Vec2};

/// One of the four edges of a tile, named by the coordinate it lies on.
///
/// A body that moves toward `+x` hits a tile's `MinX` edge. A body that moves toward `-x`
/// hits its `MaxX` edge, and so on. In y-down screen coordinates, `MinY` is the top of a
/// tile. A falling body lands on it. In a y-up world, `MinY` is the bottom of a tile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TileEdge {
    /// The edge at the tile's smallest x. This is its left side.
    MinX,
    /// The edge at the tile's largest x. This is its right side.
    MaxX,
    /// The edge at the tile's smallest y.
    MinY,
    /// The edge at the tile's largest y.
    MaxY,
}

impl TileEdge {
    /// The edge a body moving along axis `a` (0 = x, 1 = y) in direction `positive` meets.
    #[inline]
    pub(crate) fn facing(a: usize, positive: bool) -> Self {
        match (a, positive) {
            (0, true) => TileEdge::MinX,
            (0, false) => TileEdge::MaxX,
            (_, true) => TileEdge::MinY,
            (_, false) => TileEdge::MaxY,
        }
    }

    /// The axis the edge is perpendicular to (0 = x, 1 = y).
    #[inline]
    #[must_use]
    pub fn axis(self) -> usize {
        match self {
            TileEdge::MinX | TileEdge::MaxX => 0,
            TileEdge::MinY | TileEdge::MaxY => 1,
        }
    }
}

/// A direction along one axis.
///
/// It says which way is down for [`SlideResult::grounded`]. It also names the side that
/// [`TileMap::contact`] probes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Direction {
    /// Toward `+x`.
    PosX,
    /// Toward `-x`.
    NegX,
    /// Toward `+y`. This is down in y-down screen coordinates.
    PosY,
    /// Toward `-y`. This is down in a y-up world.
    NegY,
}

impl Direction {
    /// The axis (0 = x, 1 = y) and whether the direction is positive.
    #[inline]
    #[must_use]
    pub fn axis_sign(self) -> (usize, bool) {
        match self {
            Direction::PosX => (0, true),
            Direction::NegX => (0, false),
            Direction::PosY => (1, true),
            Direction::NegY => (1, false),
        }
    }
}

/// Which axis of a motion is resolved first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum AxisOrder {
    /// Horizontal, then vertical. This is the default.
    ///
    /// It is the usual order in platformers. A body that walks off a ledge moves
    /// sideways first, then falls.
    #[default]
    XThenY,
    /// Vertical, then horizontal.
    YThenX,
}

impl AxisOrder {
    /// The axes (0 = x, 1 = y) in the order they are resolved.
    #[inline]
    #[must_use]
    pub fn axes(self) -> [usize; 2] {
        match self {
            AxisOrder::XThenY => [0, 1],
            AxisOrder::YThenX => [1, 0],
        }
    }
}

/// Settings of [`TileMap::move_and_slide_with`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SlideOptions {
    /// Which axis moves first. The default is [`AxisOrder::XThenY`].
    pub order: AxisOrder,
    /// The direction of gravity, used by [`SlideResult::grounded`].
    ///
    /// The default is [`Direction::PosY`]. That suits y-down screen coordinates, as in
    /// ASCII maps.
    pub down: Direction,
}

impl Default for SlideOptions {
    fn default() -> Self {
        Self {
            order: AxisOrder::XThenY,
            down: Direction::PosY,
        }
    }
}

impl SlideOptions {
    /// Returns the defaults for a y-up world, where `down` is [`Direction::NegY`].
    #[must_use]
    pub fn y_up() -> Self {
        Self {
            down: Direction::NegY,
            ..Self::default()
        }
    }

    /// Returns these options with `order` set.
    #[must_use]
    pub fn with_order(self, order: AxisOrder) -> Self {
        Self { order, ..self }
    }

    /// Returns these options with `down` set.
    #[must_use]
    pub fn with_down(self, down: Direction) -> Self {
        Self { down, ..self }
    }
}

/// The tile that stopped a body on one axis.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TileHit {
    /// The edge of the tile that was hit. This is the side of the tile that faces the
    /// body.
    pub edge: TileEdge,
    /// Where the body's leading face stopped on this axis.
    ///
    /// After a normal hit, this is exactly the edge's coordinate. For example,
    /// `body.max.x == coord` after a hit on `MinX`. After an `embedded` hit, this is the
    /// face's own coordinate, because the face did not move.
    pub coord: f32,
    /// The tile's cell.
    ///
    /// A cell outside the map is reported on the ring just outside it. Its x index is
    /// `-1` or `width`, and its y index is `-1` or `height`.
    pub tile: IVec2,
    /// The tile's kind. It is never zero.
    pub kind: u8,
    /// True when the body's leading face was already inside this tile.
    ///
    /// Then the body did not move on this axis. See "Bodies that start inside" in the
    /// [module docs](crate::tilemap).
    pub embedded: bool,
}

/// What [`TileMap::move_and_slide`] did.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SlideResult {
    /// The box after the move.
    pub aabb: Aabb,
    /// The tile that stopped the horizontal part of the motion, if any.
    pub hit_x: Option<TileHit>,
    /// The tile that stopped the vertical part of the motion, if any.
    pub hit_y: Option<TileHit>,
    /// Whether the body stands on solid ground after the move.
    ///
    /// It is true when any motion in the [`SlideOptions::down`] direction would be
    /// blocked at once.
    pub grounded: bool,
}

impl SlideResult {
    /// The hit on axis `a` (0 = x, 1 = y).
    #[inline]
    #[must_use]
    pub fn hit(&self, a: usize) -> Option<&TileHit> {
        if a == 0 {
            self.hit_x.as_ref()
        } else {
            self.hit_y.as_ref()
        }
    }
}

impl TileMap {
    /// Moves `body` by `motion`, and slides it along solid tiles.
    ///
    /// The body stops flush against solid tiles and slides along them. This uses the
    /// default [`SlideOptions`]: x moves first, then y, and y points down.
    ///
    /// ```
    /// use hantei::{Aabb, tilemap::TileMap};
    /// use glam::Vec2;
    /// let map = TileMap::from_ascii("...\n.#.\n...", Vec2::splat(10.0), Vec2::ZERO)?;
    /// // A 4×4 body left of the solid tile, pushed right and down.
    /// let body = Aabb::from_coords(0.0, 12.0, 4.0, 16.0);
    /// let r = map.move_and_slide(body, Vec2::new(20.0, 3.0))?;
    /// assert_eq!(r.aabb, Aabb::from_coords(6.0, 15.0, 10.0, 19.0)); // flush at x = 10
    /// assert_eq!(r.hit_x.unwrap().coord, 10.0);
    /// assert!(r.hit_y.is_none() && !r.grounded);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// All errors use index 0.
    /// - [`Error::InvalidBox`] when the body is NaN, infinite or inverted.
    /// - [`Error::InvalidMotion`] when the motion is NaN or infinite.
    /// - [`Error::OutOfRange`], with limit `f32::MAX`, when the whole motion would carry a
    ///   face beyond `±f32::MAX`.
    pub fn move_and_slide(&self, body: Aabb, motion: Vec2) -> Result<SlideResult, Error> {
        self.move_and_slide_with(body, motion, &SlideOptions::default())
    }

    /// Works like [`TileMap::move_and_slide`], with explicit settings.
    ///
    /// # Errors
    /// The same as [`TileMap::move_and_slide`].
    pub fn move_and_slide_with(
        &self,
        body: Aabb,
        motion: Vec2,
        options: &SlideOptions,
    ) -> Result<SlideResult, Error> {
        check_input(body, motion, 0)?;
        Ok(self.slide_unchecked(body, motion, options))
    }

    /// Returns the tile that the body touches on its `side`.
    ///
    /// This is the tile that would stop a motion of any size toward `side` at once. The
    /// hit is `embedded` when the face is already inside the tile.
    ///
    /// [`SlideResult::grounded`] equals `contact(aabb, down).is_some()`. Probe the sides
    /// to find out whether a body touches a wall, for example for wall jumps.
    ///
    /// # Errors
    /// - [`Error::InvalidBox`], with index 0, when the body is NaN, infinite or inverted.
    pub fn contact(&self, body: Aabb, side: Direction) -> Result<Option<TileHit>, Error> {
        body.check(0)?;
        Ok(self.probe(body, side))
    }

    pub(crate) fn slide_unchecked(
        &self,
        body: Aabb,
        motion: Vec2,
        options: &SlideOptions,
    ) -> SlideResult {
        let mut b = body;
        let mut hits = [None, None];
        for a in options.order.axes() {
            let (moved, hit) = self.sweep_axis(b, a, motion[a]);
            b = moved;
            hits[a] = hit;
        }
        SlideResult {
            aabb: b,
            hit_x: hits[0],
            hit_y: hits[1],
            grounded: self.probe(b, options.down).is_some(),
        }
    }

    /// The contact on `side` (see [`TileMap::contact`]).
    pub(crate) fn probe(&self, b: Aabb, side: Direction) -> Option<TileHit> {
        let (a, up) = side.axis_sign();
        let p = 1 - a;
        let span = self.still_span(p, f64::from(b.min[p]), f64::from(b.max[p]));
        let lead = if up { b.max[a] } else { b.min[a] };
        self.first_block(a, up, lead, lead, span)
    }

    /// Moves the faces of `b` on axis `a` by up to `d`: the box afterwards and the tile
    /// that stopped it.
    pub(crate) fn sweep_axis(&self, b: Aabb, a: usize, d: f32) -> (Aabb, Option<TileHit>) {
        if d == 0.0 {
            return (b, None);
        }
        let p = 1 - a;
        let up = d > 0.0;
        let span = self.still_span(p, f64::from(b.min[p]), f64::from(b.max[p]));
        let lead0 = if up { b.max[a] } else { b.min[a] };
        let target = advance(lead0, d);
        let hit = self.first_block(a, up, lead0, target, span);
        let lead1 = hit.map_or(target, |h| h.coord);
        (place_axis(b, a, d, lead1), hit)
    }

    /// The first slab of cells that blocks a leading face moving on axis `a` from `lead0`
    /// to `target` (in direction `up`), over `span` across the motion.
    ///
    /// The DDA: the slab the face is in (or, flush on an edge, about to enter) is tested
    /// first, whatever the distance; then every slab whose interior the face would sweep,
    /// in order. A face inside a solid slab stays put (`embedded`); otherwise it stops on
    /// the slab's near edge, which lies in `[lead0, target]`.
    pub(crate) fn first_block(
        &self,
        a: usize,
        up: bool,
        lead0: f32,
        target: f32,
        span: Span,
    ) -> Option<TileHit> {
        let n = self.n(a);
        let (x0, xt) = (f64::from(lead0), f64::from(target));
        let edge = TileEdge::facing(a, up);
        let make = |k: i64, j: i64, kind: u8, embedded: bool, coord: f32| TileHit {
            edge,
            coord,
            tile: if a == 0 {
                IVec2::new(k as i32, j as i32)
            } else {
                IVec2::new(j as i32, k as i32)
            },
            kind,
            embedded,
        };
        // With an empty outside, slabs beyond the map never block: skip them.
        let (lo_ok, hi_ok) = if self.outside() == super::EMPTY {
            (0, n - 1)
        } else {
            (-1, n)
        };
        if up {
            let k0 = self.floor_index(a, x0);
            let k_last = k0.max(self.ceil_index(a, xt));
            for k in k0.max(lo_ok)..=k_last.min(hi_ok) {
                if let Some((j, kind)) = self.first_solid(a, k, span) {
                    let embedded = k == k0 && (k0 < 0 || self.line(a, k0) < lead0);
                    let coord = if embedded { lead0 } else { self.line(a, k) };
                    return Some(make(k, j, kind, embedded, coord));
                }
            }
        } else {
            let k0 = self.ceil_index(a, x0);
            let k_last = k0.min(self.floor_index(a, xt));
            for k in (k_last.max(lo_ok)..=k0.min(hi_ok)).rev() {
                if let Some((j, kind)) = self.first_solid(a, k, span) {
                    let embedded = k == k0 && (k0 >= n || lead0 < self.line(a, k0 + 1));
                    let coord = if embedded { lead0 } else { self.line(a, k + 1) };
                    return Some(make(k, j, kind, embedded, coord));
                }
            }
        }
        None
    }
}

/// `b` with its leading face on axis `a` (the face toward the motion `d`, not zero) at
/// `lead1`, and its trailing face following it (see `exact::follow`).
#[inline]
pub(crate) fn place_axis(b: Aabb, a: usize, d: f32, lead1: f32) -> Aabb {
    let mut out = b;
    if d > 0.0 {
        out.max[a] = lead1;
        out.min[a] = follow(b.min[a], b.max[a], lead1);
    } else {
        out.min[a] = lead1;
        out.max[a] = follow(b.max[a], b.min[a], lead1);
    }
    out
}

/// Where a face at `lead` moving by `d` goes in open space: never past `lead + d`.
#[inline]
pub(crate) fn free_target(lead: f32, d: f32) -> f32 {
    advance(lead, d)
}

/// Checks one body and its motion, naming `index` in the error.
#[inline]
pub(crate) fn check_input(body: Aabb, motion: Vec2, index: usize) -> Result<(), Error> {
    body.check(index)?;
    if !motion.is_finite() {
        return Err(Error::InvalidMotion { index });
    }
    if leaves_f32(body, motion) {
        return Err(Error::OutOfRange {
            handle: None,
            index,
            limit: f32::MAX,
        });
    }
    Ok(())
}

/// Whether moving `body` by all of `motion` carries a face beyond `±f32::MAX`, where
/// no end position can be given (faces saturated there, and the body then seemed to
/// cross tiles its true path misses). Branch-free, for the batches' vectorised pass.
#[inline(always)]
pub(crate) fn leaves_f32(body: Aabb, motion: Vec2) -> bool {
    !(((body.min.x + motion.x).abs() <= f32::MAX)
        & ((body.min.y + motion.y).abs() <= f32::MAX)
        & ((body.max.x + motion.x).abs() <= f32::MAX)
        & ((body.max.y + motion.y).abs() <= f32::MAX))
}
