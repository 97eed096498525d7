//! [`StaticLevel`], level geometry that does not move.
//!
//! A static level indexes its boxes once in a [`StaticGrid`]. Each
//! [`Frame::advance`](super::Frame::advance) then tests every moving box against it.
//!
//! ```text
//!  StaticLevel { BoxStore (any shapes, filters, user data), StaticGrid }
//!    built once by StaticLevel::new, rebuilt only by StaticLevel::edit
//!  each advance:
//!    the moving store's swept bounds ──► StaticGrid::query ──► (box, static) pairs
//!    ──► sweep_shapes(box shape, motion, static shape, 0) ──► earliest per box
//! ```

use super::advance::{keep_earliest, solid_contact};
use super::groups::Grouping;
use super::{Body, MAX_COORDINATE, radix};
use crate::broad::{BoxSet, StaticGrid};
use crate::error::Error;
use crate::lanes::SimdLevel;
use crate::math::{Aabb, ContactPoint, Shape};
use crate::narrow::scalar::sweep_turning;
use crate::narrow::{Sweep, SweepStatus};
use crate::pair::Pair;
use crate::store::{BoxHandle, BoxStore, PLAIN};
use glam::Vec2;

/// Level geometry that does not move, such as pillars, rubble or a boss's fixed parts.
///
/// A static level holds a [`BoxStore`] of its shapes and indexes them once.
/// [`Frame::advance`](super::Frame::advance) tests every moving box against them. Pass
/// the level to `advance` with [`Level::with_statics`](super::Level::with_statics).
///
/// Building the index costs about as much as one frame of the same boxes in the moving
/// store. A static level pays that cost once. After that, each frame only looks up the
/// moving boxes in the index.
///
/// The static boxes stand still, so their motions are ignored. Their filters and user
/// data are used. Their owners have no effect: a moving box meets a static box even
/// when both have the same owner.
///
/// A bullet falls onto a row of pillars and is destroyed on pillar 2:
///
/// ```
/// use hantei::frame::{Frame, Level, StaticLevel, layers};
/// use hantei::{Aabb, BoxProps, BoxStore, Circle, Response};
/// use glam::Vec2;
/// let mut pillars = BoxStore::new();
/// for k in 0..10 {
///     let c = Vec2::new(20.0 * k as f32, 0.0);
///     pillars.insert_shape(Circle::new(c, 3.0), BoxProps::new(layers::wall()).with_user_data(k))?;
/// }
/// let level = StaticLevel::new(pillars)?;
///
/// let mut store = BoxStore::new();
/// let bullet = BoxProps::new(layers::enemy_bullet())
///     .with_motion(Vec2::new(0.0, 10.0))
///     .with_response(Response::Destroy);
/// store.insert_with(Aabb::from_center_half_extents(Vec2::new(40.0, -8.0), Vec2::splat(1.0)), bullet)?;
/// let mut frame = Frame::new();
/// frame.advance(&mut store, &Level::none().with_statics(&level))?;
/// let hit = frame.report().static_hits[0];
/// assert_eq!((hit.static_user_data, hit.toi), (2, 0.4)); // pillar 2, its top at y = -3
/// assert!(store.is_empty()); // destroyed
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Clone, Default)]
pub struct StaticLevel {
    store: BoxStore,
    grid: StaticGrid,
    /// Every static is a plain box: its shape is its bounds in the grid.
    plain: bool,
}

impl StaticLevel {
    /// Indexes the boxes of `store`.
    ///
    /// # Errors
    /// - [`Error::OutOfRange`] when a box reaches beyond [`MAX_COORDINATE`]. The error
    ///   names the lowest such dense index.
    /// - Any error of [`StaticGrid::build`].
    pub fn new(store: BoxStore) -> Result<Self, Error> {
        let mut level = StaticLevel {
            store,
            grid: StaticGrid::new(),
            plain: false,
        };
        level.rebuild()?;
        Ok(level)
    }

    /// The static boxes.
    #[must_use]
    pub fn store(&self) -> &BoxStore {
        &self.store
    }

    /// Changes the static boxes with `f`, then rebuilds the index. Returns what `f`
    /// returns.
    ///
    /// Use it when the level changes, for example when a door opens or a pillar breaks.
    ///
    /// # Errors
    /// The errors of [`StaticLevel::new`]. The level then keeps the boxes that `f` left,
    /// but its index is empty. No static box is hit until an edit succeeds.
    pub fn edit<R>(&mut self, f: impl FnOnce(&mut BoxStore) -> R) -> Result<R, Error> {
        let r = f(&mut self.store);
        if let Err(e) = self.rebuild() {
            self.grid = StaticGrid::new();
            return Err(e);
        }
        Ok(r)
    }

    fn rebuild(&mut self) -> Result<(), Error> {
        let s = &self.store;
        if let Some(index) = (0..s.len()).find(|&i| {
            let b = s.aabb_at(i).expect("dense index");
            !crate::math::within_limit(&b)
        }) {
            return Err(Error::OutOfRange {
                handle: s.handle_at(index),
                index,
                limit: MAX_COORDINATE,
            });
        }
        self.plain = s.shape_entries().iter().all(|&e| e == PLAIN);
        self.grid.build(BoxSet::from(s))
    }

    /// Asks for the lines static `s`'s shape is read from.
    #[inline]
    fn prefetch(&self, s: usize) {
        if self.plain {
            self.grid.prefetch_bounds(s);
        } else {
            crate::lanes::prefetch(self.store.shape_entries().as_ptr().wrapping_add(s));
        }
    }

    /// Static `s`'s shape (a dense index of its store).
    #[inline]
    pub(super) fn shape_at(&self, s: usize) -> Shape {
        if self.plain {
            let [x0, y0, x1, y1] = self.grid.bounds(s);
            Shape::Aabb(Aabb::from_coords(x0, y0, x1, y1))
        } else {
            self.store.shape_at(s).expect("dense index")
        }
    }
}

/// A moving box's earliest contact with a static box in
/// [`Frame::advance`](super::Frame::advance).
///
/// When that contact is an overlap, the box gets a second entry for its earliest hit.
/// An overlap never stops a box, but that hit may.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StaticHit {
    /// The moving box's body.
    pub body: Body,
    /// The moving box.
    pub handle: BoxHandle,
    /// The moving box's [`BoxProps::user_data`](crate::BoxProps::user_data).
    pub user_data: u64,
    /// The static box, as a handle into [`StaticLevel::store`].
    pub static_handle: BoxHandle,
    /// The static box's user data.
    pub static_user_data: u64,
    /// [`SweepStatus::Hit`], or [`SweepStatus::Overlapping`] when the boxes already
    /// touched as the frame began.
    pub status: SweepStatus,
    /// The time of impact, as a fraction of the frame. It is `0` for an overlap.
    pub toi: f32,
    /// The normal of the static box's face that was hit, pointing toward the moving
    /// box. It is zero for an overlap.
    pub normal: Vec2,
    /// Where they touched: [`ContactPoint::a`] on the moving box's shape, where it was
    /// at `toi`, and [`ContactPoint::b`] on the static box's. See
    /// [`Contact::point`](super::Contact::point).
    #[cfg_attr(feature = "serde", serde(default))]
    pub point: ContactPoint,
}

/// A box's earliest static contact (or its earliest hit), before responses.
#[derive(Debug, Clone, Copy)]
pub(super) struct StaticRaw {
    /// The moving box's dense index.
    pub(super) i: u32,
    /// The static box's dense index in the level's store.
    pub(super) s: u32,
    pub(super) sweep: Sweep,
}

/// How many pairs ahead the static pass asks for a pair's boxes.
const PAIRS_AHEAD: usize = 8;

/// The buffers of the static pass, kept between frames.
#[derive(Debug, Default)]
pub(super) struct StaticPass {
    /// One group's pairs, then every group's by `(dense index, static)`.
    found: Vec<Pair>,
    pairs: Vec<Pair>,
    pairs_scratch: Vec<Pair>,
    pub(super) raw: Vec<StaticRaw>,
}

impl StaticPass {
    /// The static boxes whose bounds box `i`'s swept bounds reach (dense indices of the
    /// level's store), from the last [`StaticPass::run`].
    pub(super) fn statics_of(&self, i: u32) -> impl Iterator<Item = u32> + '_ {
        let from = self.pairs.partition_point(|p| p.a < i);
        self.pairs[from..]
            .iter()
            .take_while(move |p| p.a == i)
            .map(|p| p.b)
    }

    /// Each moving box's earliest contact with a static box (and its earliest hit when
    /// that is an overlap), in dense order.
    pub(super) fn run(
        &mut self,
        store: &BoxStore,
        grouping: &Grouping,
        level: &StaticLevel,
        simd: SimdLevel,
        parallel: bool,
    ) -> Result<(), Error> {
        self.raw.clear();
        self.pairs.clear();
        if level.grid.is_empty() {
            return Ok(());
        }
        // The step's groups hold every box's swept bounds already: each group is
        // looked up with its filter, its pairs mapped to dense indices.
        self.pairs.clear();
        for g in &grouping.groups {
            let movers = if grouping.per_box {
                g.boxes()
                    .with_filter_columns(store.layers(), store.masks())?
            } else if level.grid.meets(g.filter) {
                g.boxes().with_filter(g.filter)
            } else {
                continue;
            };
            level
                .grid
                .query_at(movers, parallel, simd, &mut self.found)
                .map_err(|e| match e {
                    Error::InvalidBox { index, defect } => Error::InvalidBox {
                        index: g.dense[index] as usize,
                        defect,
                    },
                    e => e,
                })?;
            let dense = &g.dense;
            self.pairs.extend(
                self.found
                    .iter()
                    .map(|p| Pair::new(dense[p.a as usize], p.b)),
            );
        }
        if grouping.groups.len() > 1 {
            // One sorted run per group: merged by a radix sort (its buffer kept).
            radix::sort_by_key(&mut self.pairs, &mut self.pairs_scratch, |p| {
                u64::from(p.a) << 32 | u64::from(p.b)
            });
        }
        let (mx, my) = (store.motion_x(), store.motion_y());
        // The pairs' boxes are few and far apart: ask for a pair's lines a few pairs
        // ahead (the mover's bounds, shape and motion; the static's bounds).
        let ask = |k: usize| {
            if let Some(p) = self.pairs.get(k) {
                let (i, s) = (p.a as usize, p.b as usize);
                for col in [
                    store.min_x(),
                    store.min_y(),
                    store.max_x(),
                    store.max_y(),
                    mx,
                    my,
                ] {
                    crate::lanes::prefetch(col.as_ptr().wrapping_add(i));
                }
                crate::lanes::prefetch(store.shape_entries().as_ptr().wrapping_add(i));
                level.prefetch(s);
            }
        };
        for k in 0..PAIRS_AHEAD {
            ask(k);
        }
        let mut k = 0;
        while k < self.pairs.len() {
            let i = self.pairs[k].a;
            let shape = store.shape_at(i as usize).expect("dense index");
            let m = Vec2::new(mx[i as usize], my[i as usize]);
            let turn = store.turn_at(i as usize);
            let mut best: [Option<StaticRaw>; 2] = [None, None];
            while k < self.pairs.len() && self.pairs[k].a == i {
                let s = self.pairs[k].b;
                ask(k + PAIRS_AHEAD);
                k += 1;
                let other = level.shape_at(s as usize);
                let sweep = sweep_turning(&shape, m, turn, &other, Vec2::ZERO, 0.0);
                // A static box is solid geometry: touching it is not entering it.
                let sweep = match other {
                    Shape::Aabb(o) => solid_contact(&shape, m, &o, sweep),
                    _ => (sweep.status != SweepStatus::Miss).then_some(sweep),
                };
                if let Some(sweep) = sweep {
                    keep_earliest(&mut best, StaticRaw { i, s, sweep }, |h| &h.sweep);
                }
            }
            self.raw.extend(best.into_iter().flatten());
        }
        Ok(())
    }
}
