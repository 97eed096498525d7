//! Straight-line box casts through the grid, the way a bullet moves.
//!
//! The box moves along its motion as one segment. It stops at the first solid tile and
//! does not slide.
//!
//! # Algorithm
//! The cast is a DDA over both axes at once. Each axis tracks two slabs as cell indices.
//! One holds the leading face and the other holds the trailing face, just after the
//! current time. The box occupies every cell between them on both axes.
//!
//! An event is a time at which a face crosses a tile edge. Its time is
//! `t = (edge - face₀) / motion`, computed in `f64`. The cast applies all events at the
//! earliest time together. Then it tests every slab that a leading face has just
//! entered, over the current range of the other axis. Applying simultaneous events
//! together catches a box that enters a tile exactly through its corner.
//!
//! # Placement
//! At the stop, a leading face that crossed an edge at that exact time sits exactly on
//! the edge. The hit face always does. Any other leading face is rounded back toward its
//! start. It is then clamped between the last edge it crossed and the next one.
//!
//! Trailing faces follow their leading face as in a slide, see [`exact`](super::exact).
//! They never lag behind an edge they crossed. So the box ends where the event order
//! says it is. It never overlaps a cell that the sweep did not clear.

use super::exact::{advance, follow, round_back};
use super::map::{Span, TileMap};
use super::slide::{TileEdge, TileHit, check_input};
use crate::error::Error;
use crate::math::Aabb;
use glam::{IVec2, Vec2};

/// What [`TileMap::cast`] found.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CastResult {
    /// The box where it stopped, or at the end of the motion when nothing was hit.
    pub aabb: Aabb,
    /// The tile that stopped the box.
    ///
    /// When the box enters a tile exactly through its corner, the x edge is reported. The
    /// box is then flush on both axes.
    pub hit: Option<TileHit>,
    /// The fraction of the motion travelled before the hit, in `[0, 1]`.
    ///
    /// It is `1` when nothing was hit. It is computed in `f64`, so it equals the time of
    /// the hit only up to rounding. The hit face itself is placed exactly.
    pub toi: f32,
}

/// One axis of a cast.
#[derive(Debug, Clone, Copy)]
struct Axis {
    /// +1, -1, or 0 for an axis that does not move.
    sign: i8,
    lead0: f32,
    trail0: f32,
    target: f32,
    target_trail: f32,
    d: f64,
    /// Slab of the leading / trailing face just after the current time.
    lead_k: i64,
    trail_k: i64,
    /// Time of the next edge crossing of each face (`INFINITY`: none before the end).
    next_lead: f64,
    next_trail: f64,
    /// The last edge each face crossed (its start value before any).
    lead_edge: f32,
    trail_edge: f32,
    /// The cells occupied across this axis when it does not move.
    still: Span,
}

impl Axis {
    /// The axis before the first event (its event times are set by [`Axis::start`]).
    fn new(map: &TileMap, a: usize, lo: f32, hi: f32, d: f32) -> Self {
        let up = d > 0.0;
        let (lead0, trail0) = if up { (hi, lo) } else { (lo, hi) };
        let target = advance(lead0, d);
        let sign = if d > 0.0 {
            1
        } else if d < 0.0 {
            -1
        } else {
            0
        };
        let (lead_k, trail_k, still) = if sign == 0 {
            let s = map.still_span(a, f64::from(lo), f64::from(hi));
            (s.lo, s.hi, s)
        } else {
            // Until `start`, `lead_k` holds the slab the leading face ends in (see `swept`).
            let (trail_k, end_k) = if up {
                let end = if target > lead0 {
                    map.ceil_index(a, f64::from(target))
                } else {
                    map.floor_index(a, f64::from(lead0))
                };
                (map.floor_index(a, f64::from(trail0)), end)
            } else {
                let end = if target < lead0 {
                    map.floor_index(a, f64::from(target))
                } else {
                    map.ceil_index(a, f64::from(lead0))
                };
                (map.ceil_index(a, f64::from(trail0)), end)
            };
            (
                end_k,
                trail_k,
                Span {
                    lo: 0,
                    hi: -1,
                    all: false,
                },
            )
        };
        Axis {
            sign,
            lead0,
            trail0,
            target,
            target_trail: follow(trail0, lead0, target),
            d: f64::from(d),
            lead_k,
            trail_k,
            next_lead: f64::INFINITY,
            next_trail: f64::INFINITY,
            lead_edge: lead0,
            trail_edge: trail0,
            still,
        }
    }

    /// Places the leading face in its first slab and schedules each face's first edge
    /// crossing.
    fn start(&mut self, map: &TileMap, a: usize) {
        if self.sign != 0 {
            let x = f64::from(self.lead0);
            self.lead_k = if self.sign > 0 {
                map.floor_index(a, x)
            } else {
                map.ceil_index(a, x)
            };
            self.next_lead = self.next_time(map, a, self.lead_k, self.lead0, self.target);
            self.next_trail = self.next_time(map, a, self.trail_k, self.trail0, self.target_trail);
        }
    }

    /// The edge a face in slab `k` crosses next, moving this way.
    #[inline]
    fn next_edge(&self, map: &TileMap, a: usize, k: i64) -> Option<f32> {
        if self.sign > 0 {
            (k < map.n(a)).then(|| map.line(a, k + 1))
        } else {
            (k >= 0).then(|| map.line(a, k))
        }
    }

    /// When a face starting at `from`, now in slab `k`, crosses its next edge, if that
    /// edge lies strictly before `end`.
    #[inline]
    fn next_time(&self, map: &TileMap, a: usize, k: i64, from: f32, end: f32) -> f64 {
        match self.next_edge(map, a, k) {
            Some(e) if (self.sign > 0 && e < end) || (self.sign < 0 && e > end) => {
                (f64::from(e) - f64::from(from)) / self.d
            }
            _ => f64::INFINITY,
        }
    }

    fn step_lead(&mut self, map: &TileMap, a: usize) {
        if let Some(e) = self.next_edge(map, a, self.lead_k) {
            self.lead_edge = e;
        }
        self.lead_k += i64::from(self.sign);
        self.next_lead = self.next_time(map, a, self.lead_k, self.lead0, self.target);
    }

    fn step_trail(&mut self, map: &TileMap, a: usize) {
        if let Some(e) = self.next_edge(map, a, self.trail_k) {
            self.trail_edge = e;
        }
        self.trail_k += i64::from(self.sign);
        self.next_trail = self.next_time(map, a, self.trail_k, self.trail0, self.target_trail);
    }

    /// Whether the trailing face is in a slab behind the leading face's (so that it may
    /// cross an edge without passing it).
    #[inline]
    fn trail_behind_lead(&self) -> bool {
        if self.sign > 0 {
            self.trail_k < self.lead_k
        } else {
            self.trail_k > self.lead_k
        }
    }

    /// The cells this axis occupies just after the current time.
    #[inline]
    fn span(&self) -> Span {
        if self.sign == 0 {
            self.still
        } else {
            Span {
                lo: self.lead_k.min(self.trail_k),
                hi: self.lead_k.max(self.trail_k),
                all: false,
            }
        }
    }

    /// Cells swept over the whole motion, before [`Axis::start`] (a superset of every
    /// span the DDA tests: from the trailing face's first slab to the leading face's
    /// last, which is never before its first).
    #[inline]
    fn swept(&self) -> (i64, i64) {
        match self.sign {
            0 => (self.still.lo, self.still.hi),
            s if s > 0 => (self.trail_k, self.lead_k),
            _ => (self.lead_k, self.trail_k),
        }
    }

    /// The faces `(lo, hi)` at the stop time `t`; `crossed_now`: the leading face crossed
    /// an edge exactly at `t`.
    fn faces_at(&self, map: &TileMap, a: usize, t: f64, crossed_now: bool) -> (f32, f32) {
        if self.sign == 0 || t <= 0.0 {
            return self.order(self.lead0, self.trail0);
        }
        let up = self.sign > 0;
        let lead = if crossed_now {
            self.lead_edge
        } else {
            let raw = round_back(f64::from(self.lead0) + t * self.d, up);
            let ahead = self
                .next_edge(map, a, self.lead_k)
                .map_or(self.target, |e| pick(e, self.target, up, true));
            clamp_dir(raw, self.lead_edge, ahead, up)
        };
        let trail = follow(self.trail0, self.lead0, lead);
        let trail = clamp_dir(trail, self.trail_edge, lead, up);
        self.order(lead, trail)
    }

    #[inline]
    fn order(&self, lead: f32, trail: f32) -> (f32, f32) {
        if self.sign > 0 {
            (trail, lead)
        } else {
            (lead, trail)
        }
    }
}

/// The nearer (`near == true`) or farther of `x`, `y` along the motion.
#[inline]
fn pick(x: f32, y: f32, up: bool, near: bool) -> f32 {
    if up == near { x.min(y) } else { x.max(y) }
}

/// `x` clamped between `back` and `fwd` along the motion (`back` wins a conflict).
#[inline]
fn clamp_dir(x: f32, back: f32, fwd: f32, up: bool) -> f32 {
    let x = pick(x, fwd, up, true);
    pick(x, back, up, false)
}

impl TileMap {
    /// Moves `body` along `motion` in a straight line until it touches a solid tile.
    ///
    /// The body stops flush against the tile and does not slide. This is a shape cast,
    /// the way a bullet moves.
    ///
    /// The conventions of [`TileMap::move_and_slide`] hold here too:
    /// - Touching is not blocking.
    /// - A face inside a solid tile stays put. The hit is `embedded` and `toi` is 0.
    /// - No face moves farther than asked.
    /// - The hit face lands exactly on the tile edge.
    ///
    /// ```
    /// use hantei::{Aabb, tilemap::{TileEdge, TileMap}};
    /// use glam::Vec2;
    /// let map = TileMap::from_ascii("....#", Vec2::splat(8.0), Vec2::ZERO)?;
    /// let bullet = Aabb::from_coords(0.0, 3.0, 2.0, 5.0);
    /// let r = map.cast(bullet, Vec2::new(100.0, 1.0))?;
    /// let hit = r.hit.unwrap();
    /// assert_eq!((hit.edge, hit.coord, r.aabb.max.x), (TileEdge::MinX, 32.0, 32.0));
    /// assert!((r.toi - 0.3).abs() < 1e-6);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// All errors use index 0.
    /// - [`Error::InvalidBox`] when the body is NaN, infinite or inverted.
    /// - [`Error::InvalidMotion`] when the motion is NaN or infinite.
    /// - [`Error::OutOfRange`], with limit `f32::MAX`, when the whole motion would carry a
    ///   face beyond `±f32::MAX`.
    pub fn cast(&self, body: Aabb, motion: Vec2) -> Result<CastResult, Error> {
        check_input(body, motion, 0)?;
        Ok(self.cast_unchecked(body, motion, true))
    }

    /// [`TileMap::cast`] on checked input; `fast`: try the open-space shortcut first.
    pub(crate) fn cast_unchecked(&self, body: Aabb, motion: Vec2, fast: bool) -> CastResult {
        // Open space, decided conservatively in plain floats before any exact arithmetic:
        // the common case for bullets, and the free result is the same one the full walk
        // returns below (the same `advance` and `follow` of each face).
        if fast && self.open_space(body, motion) {
            let free_axis = |lo: f32, hi: f32, d: f32| {
                if d == 0.0 {
                    return (lo, hi);
                }
                let (lead0, trail0) = if d > 0.0 { (hi, lo) } else { (lo, hi) };
                let lead1 = advance(lead0, d);
                let trail1 = follow(trail0, lead0, lead1);
                if d > 0.0 {
                    (trail1, lead1)
                } else {
                    (lead1, trail1)
                }
            };
            let (x0, x1) = free_axis(body.min.x, body.max.x, motion.x);
            let (y0, y1) = free_axis(body.min.y, body.max.y, motion.y);
            return CastResult {
                aabb: Aabb::from_coords(x0, y0, x1, y1),
                hit: None,
                toi: 1.0,
            };
        }
        let mut ax = [
            Axis::new(self, 0, body.min.x, body.max.x, motion.x),
            Axis::new(self, 1, body.min.y, body.max.y, motion.y),
        ];
        let free = |ax: &[Axis; 2]| {
            let (x0, x1) = ax[0].order(ax[0].target, ax[0].target_trail);
            let (y0, y1) = ax[1].order(ax[1].target, ax[1].target_trail);
            CastResult {
                aabb: Aabb::from_coords(x0, y0, x1, y1),
                hit: None,
                toi: 1.0,
            }
        };
        if ax[0].sign == 0 && ax[1].sign == 0 {
            return CastResult {
                aabb: body,
                hit: None,
                toi: 1.0,
            };
        }
        // Open space: nothing solid anywhere in the swept cells.
        if fast && !self.any_solid(ax[0].swept(), ax[1].swept()) {
            return free(&ax);
        }
        ax[0].start(self, 0);
        ax[1].start(self, 1);
        // t = 0: the slab each moving leading face is in (or flush against).
        for a in 0..2 {
            if ax[a].sign != 0 {
                let span = ax[1 - a].span();
                if let Some((j, kind)) = self.first_solid(a, ax[a].lead_k, span) {
                    return self.stop(&ax, a, j, kind, 0.0, [false; 2]);
                }
            }
        }
        loop {
            let t = ax
                .iter()
                .map(|s| s.next_lead.min(s.next_trail))
                .fold(f64::INFINITY, f64::min);
            if t == f64::INFINITY {
                return free(&ax);
            }
            let mut entered = [false; 2];
            let mut moved = false;
            for (a, s) in ax.iter_mut().enumerate() {
                if s.next_lead == t {
                    s.step_lead(self, a);
                    entered[a] = true;
                    moved = true;
                }
                // A trailing face can cross several edges at one time (far from the map,
                // where `f64` cannot tell the edges' times apart): all of those cells are
                // behind it before the leading faces' slabs are tested. But never the
                // leading face's slab: in `f64` too the trailing face crosses an edge no
                // earlier than the leading one (`trail0` is behind `lead0`, and the
                // subtraction and division are monotone), so the leading face has
                // already taken any edge the trailing one may cross now; a further
                // crossing at the same time waits for the leading face's next step
                // (which the next event, at this same time, makes).
                while s.next_trail == t && s.trail_behind_lead() {
                    s.step_trail(self, a);
                    moved = true;
                }
            }
            if !moved {
                // Not reached by the argument above (a refused crossing at `t` means the
                // leading face also crosses at `t`); kept so that every event moves a
                // face and the walk cannot stall whatever the rounding.
                for (a, s) in ax.iter_mut().enumerate() {
                    if s.next_trail == t {
                        s.step_trail(self, a);
                    }
                }
            }
            for a in 0..2 {
                if entered[a] {
                    let span = ax[1 - a].span();
                    if let Some((j, kind)) = self.first_solid(a, ax[a].lead_k, span) {
                        return self.stop(&ax, a, j, kind, t, entered);
                    }
                }
            }
        }
    }

    /// The result of a cast stopped at time `t` by cell `(lead_k, j)` of axis `a`.
    fn stop(
        &self,
        ax: &[Axis; 2],
        a: usize,
        j: i64,
        kind: u8,
        t: f64,
        entered: [bool; 2],
    ) -> CastResult {
        let s = &ax[a];
        let up = s.sign > 0;
        let k = s.lead_k;
        let embedded = t <= 0.0
            && if up {
                k < 0 || self.line(a, k) < s.lead0
            } else {
                k >= self.n(a) || s.lead0 < self.line(a, k + 1)
            };
        let (x0, x1) = ax[0].faces_at(self, 0, t, entered[0]);
        let (y0, y1) = ax[1].faces_at(self, 1, t, entered[1]);
        let coord = if t <= 0.0 { s.lead0 } else { s.lead_edge };
        let tile = if a == 0 {
            IVec2::new(k as i32, j as i32)
        } else {
            IVec2::new(j as i32, k as i32)
        };
        CastResult {
            aabb: Aabb::from_coords(x0, y0, x1, y1),
            hit: Some(TileHit {
                edge: TileEdge::facing(a, up),
                coord,
                tile,
                kind,
                embedded,
            }),
            toi: t.clamp(0.0, 1.0) as f32,
        }
    }
}
