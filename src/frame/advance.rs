//! [`Frame::advance`], the whole collision part of a game frame in one call.
//!
//! ```text
//!  BoxStore (&mut)          Level { walls: TileMap, wall_filter }
//!    │ 1-4. Run the broad and narrow phases of the step. They give every hit or
//!    │      overlap between two boxes (the raw hits).
//!    │ 4b.  Sweep each box whose filter pairs with the walls against the solid
//!    │      tiles that its swept bounds reach. This uses the same swept kernels
//!    │      and the same closed rule as boxes: touching counts. Step 1 already
//!    │      listed the boxes that may be near a wall, from the swept bounds it
//!    │      wrote. It tests eight boxes at a time inside the map's open interior.
//!    │ 5.   Walk every hit and wall hit in order of time of impact. A hit is kept
//!    │      while both its boxes still move at its time. A box's first kept hit
//!    │      stops it (Response::Stop) or destroys it (Response::Destroy). Only a
//!    │      hit that the box's motion carries it into can stop it.
//!    │ 6.   Build the contacts (one per body pair), the events, and each body's
//!    │      hits in time order.
//!    │ 7.   Move every box by its motion. A stopped box ends flush at its hit.
//!    ▼      Remove the destroyed boxes.
//!  FrameReport { contacts, began, stayed, ended, wall_hits, destroyed, hits }
//! ```
//!
//! There is one pass and no second sweep. A box that stops at time `t` keeps the
//! contacts it had up to `t`. A box that would have reached it after it stopped finds it
//! on the next frame.

use super::groups::{Grouping, Walls};
use super::statics::{StaticHit, StaticLevel, StaticPass, StaticRaw};
use super::{
    Body, BodyPair, Contact, Frame, FrameTimings, RawHit, clock::Stamp, radix, shapes_point,
};
use crate::error::Error;
use crate::lanes::{F32W, LANES, SimdLevel, SimdTask, dispatch};
use crate::math::{Aabb, Circle, ContactPoint, Shape, box_enters, enters, outside_normal};
use crate::narrow::scalar::sweep_turning;
use crate::narrow::wide::{self, AabbW, CircleW, Vec2W};
use crate::narrow::{Sweep, SweepStatus};
use crate::pair::Pair;
use crate::pool;
use crate::store::{BoxHandle, BoxStore, Filter, Owner, PLAIN, Response};
use crate::tilemap::{EMPTY, Reach, TileMap, free_target, place_axis};
use glam::{IVec2, Vec2};

/// What [`Frame::advance`] collides the moving boxes with, besides each other.
///
/// ```
/// use hantei::frame::Level;
/// use hantei::tilemap::TileMap;
/// use glam::Vec2;
/// let map = TileMap::from_ascii("#...#", Vec2::splat(8.0), Vec2::ZERO)?;
/// let level = Level::walls(&map); // walls on layers::WALL
/// assert!(level.walls.is_some());
/// assert!(Level::none().walls.is_none());
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Level<'a> {
    /// Solid tiles. Every non-empty tile of the map is a wall.
    pub walls: Option<&'a TileMap>,
    /// The walls' filter. A box is swept against the walls when its filter pairs with
    /// this one.
    ///
    /// The default is [`layers::wall()`](super::layers::wall), which pairs with the
    /// player, enemies and every bullet.
    pub wall_filter: Filter,
    /// Boxes that do not move, indexed once. See [`StaticLevel`].
    pub statics: Option<&'a StaticLevel>,
}

impl Level<'static> {
    /// A level with nothing in it. The store's boxes only collide with each other.
    #[must_use]
    pub const fn none() -> Self {
        Level {
            walls: None,
            wall_filter: super::layers::wall(),
            statics: None,
        }
    }
}

impl<'a> Level<'a> {
    /// A level whose walls are the solid tiles of `map`. The walls get the filter
    /// [`layers::wall()`](super::layers::wall).
    #[must_use]
    pub const fn walls(map: &'a TileMap) -> Self {
        Level {
            walls: Some(map),
            wall_filter: super::layers::wall(),
            statics: None,
        }
    }

    /// This level with the walls' filter set. A box is swept against the walls when
    /// its filter pairs with this one, and responds to them when its solid layers
    /// include this filter's layers.
    ///
    /// ```
    /// use hantei::frame::{Level, layers};
    /// use hantei::{Filter, tilemap::TileMap};
    /// use glam::Vec2;
    /// let map = TileMap::from_ascii("#..#", Vec2::splat(8.0), Vec2::ZERO)?;
    /// // Walls that stop only bullets: the player and enemies walk through them.
    /// let bullets = layers::PLAYER_BULLET | layers::ENEMY_BULLET;
    /// let level = Level::walls(&map).with_wall_filter(Filter::new(layers::WALL, bullets));
    /// assert!(!level.wall_filter.pairs_with(layers::player()));
    /// assert!(level.wall_filter.pairs_with(layers::enemy_bullet()));
    /// # Ok::<(), hantei::Error>(())
    /// ```
    #[must_use]
    pub const fn with_wall_filter(self, wall_filter: Filter) -> Self {
        Level {
            wall_filter,
            ..self
        }
    }

    /// This level with the static boxes of `statics` added.
    #[must_use]
    pub const fn with_statics(self, statics: &'a StaticLevel) -> Self {
        Level {
            statics: Some(statics),
            ..self
        }
    }
}

impl Default for Level<'static> {
    fn default() -> Self {
        Self::none()
    }
}

/// A box's earliest contact with a solid tile in [`Frame::advance`].
///
/// When that contact is an overlap, the box gets a second entry for its earliest hit.
/// An overlap never stops a box, but that hit may.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct WallHit {
    /// The box's body.
    pub body: Body,
    /// The box.
    pub handle: BoxHandle,
    /// The box's [`BoxProps::user_data`](crate::BoxProps::user_data).
    pub user_data: u64,
    /// The tile's column and row.
    ///
    /// When the map's outside is solid, a cell outside the map is named by its index
    /// beyond the edge. That index is `-1`, or the map's width or height.
    pub tile: IVec2,
    /// [`SweepStatus::Hit`], or [`SweepStatus::Overlapping`] when the box touched the
    /// tile or was inside it as the frame began.
    pub status: SweepStatus,
    /// The time of impact, as a fraction of the frame. It is `0` for an overlap.
    pub toi: f32,
    /// The normal of the tile's face that was hit, pointing toward the box. It is zero
    /// for an overlap.
    ///
    /// A face shared with a solid neighbour is never hit. So a box that slides along a
    /// floor of many tiles meets no seam.
    pub normal: Vec2,
    /// Where they touched: [`ContactPoint::a`] on the box's shape, where it was at
    /// `toi`, and [`ContactPoint::b`] on the tile.
    ///
    /// For an overlap, the depth and the normal are those of the box against this one
    /// tile. The normal can point into a solid neighbour. A box that
    /// [`Response::Slide`] moved is taken where the slide left it on the hit's axis.
    #[cfg_attr(feature = "serde", serde(default))]
    pub point: ContactPoint,
}

/// A hit's body and time as one integer in [`BodyHit::order`]'s order: the body
/// (owners before lone boxes; an owner's id, a box's slot then generation) above the
/// time's bits.
pub(super) fn key_of(body: Body, toi: f32) -> u128 {
    let body = match body {
        Body::Owner(o) => u128::from(o.0),
        Body::Box(h) => (1 << 64) | u128::from(h.slot) << 32 | u128::from(h.generation),
    };
    body << 32 | u128::from(toi.to_bits())
}

/// [`key_of`] in 64 bits, when the body fits in 32 bits. It does for an owner below
/// `2^31`, and for a box whose slot is below `2^31`, which every slot of a store is
/// ([`MAX_BOXES`](crate::MAX_BOXES)). Among one frame's hits a slot names one box,
/// because they all come from one state of the store. So the generation orders
/// nothing, and the order is the same as [`key_of`]'s.
pub(super) fn key64_of(body: Body, toi: f32) -> Option<u64> {
    const HALF: u64 = 1 << 31;
    let body = match body {
        Body::Owner(o) if o.0 < HALF => o.0,
        Body::Box(h) if u64::from(h.slot) < HALF => HALF | u64::from(h.slot),
        _ => return None,
    };
    Some(body << 32 | u64::from(toi.to_bits()))
}

/// A box that [`Frame::advance`] removed from the store, because its response is
/// [`Response::Destroy`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Destroyed {
    /// The box's handle, which is now stale.
    pub handle: BoxHandle,
    /// The box's [`BoxProps::user_data`](crate::BoxProps::user_data).
    pub user_data: u64,
    /// The box's shape where it was at its first contact, for an impact effect.
    pub shape: Shape,
    /// The time of that contact, as a fraction of the frame.
    pub toi: f32,
}

/// What a body touched, seen from the body.
///
/// [`FrameReport::hits_of`](super::FrameReport::hits_of) lists them for one body.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyHit {
    /// The body.
    pub body: Body,
    /// The body's box that touched.
    pub handle: BoxHandle,
    /// That box's [`BoxProps::user_data`](crate::BoxProps::user_data).
    pub user_data: u64,
    /// What the box touched.
    pub other: HitOther,
    /// [`SweepStatus::Hit`], or [`SweepStatus::Overlapping`] when the two sides already
    /// touched as the frame began.
    pub status: SweepStatus,
    /// The time of impact, as a fraction of the frame. It is `0` for an overlap.
    pub toi: f32,
    /// The normal of the other side's face, pointing toward this body. It is zero for
    /// an overlap.
    pub normal: Vec2,
    /// Where they touched, seen from this body: [`ContactPoint::a`] on this body's box
    /// and [`ContactPoint::b`] on the other side, the normal pointing toward this body.
    /// See [`Contact::point`].
    #[cfg_attr(feature = "serde", serde(default))]
    pub point: ContactPoint,
}

/// The other side of a [`BodyHit`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum HitOther {
    /// A solid tile of the level's walls.
    Wall {
        /// The tile.
        tile: IVec2,
    },
    /// A box of the level's [`StaticLevel`].
    Static {
        /// The static box, as a handle into [`StaticLevel::store`].
        handle: BoxHandle,
        /// Its user data.
        user_data: u64,
    },
    /// Another body.
    Body {
        /// The body.
        body: Body,
        /// The other body's box that touched.
        handle: BoxHandle,
        /// That box's [`BoxProps::user_data`](crate::BoxProps::user_data).
        user_data: u64,
    },
}

impl BodyHit {
    /// A contact seen from both of its bodies.
    pub(super) fn of_contact(c: &Contact) -> (BodyHit, BodyHit) {
        let side = |body, handle, user_data, other: HitOther, normal, point| BodyHit {
            body,
            handle,
            user_data,
            other,
            status: c.status,
            toi: c.toi,
            normal,
            point,
        };
        let BodyPair { a, b } = c.bodies;
        let (ha, hb) = c.boxes;
        let (da, db) = c.user_data;
        let other = |body, handle, user_data| HitOther::Body {
            body,
            handle,
            user_data,
        };
        let p = c.point;
        let back = ContactPoint {
            a: p.b,
            b: p.a,
            normal: Vec2::ZERO - p.normal,
            depth: p.depth,
        };
        (
            side(a, ha, da, other(b, hb, db), c.normal, p),
            side(b, hb, db, other(a, ha, da), Vec2::ZERO - c.normal, back),
        )
    }

    /// A wall hit seen from its body.
    pub(super) fn of_wall(w: &WallHit) -> BodyHit {
        BodyHit {
            body: w.body,
            handle: w.handle,
            user_data: w.user_data,
            other: HitOther::Wall { tile: w.tile },
            status: w.status,
            toi: w.toi,
            normal: w.normal,
            point: w.point,
        }
    }

    /// A static hit seen from its body.
    pub(super) fn of_static(h: &StaticHit) -> BodyHit {
        BodyHit {
            body: h.body,
            handle: h.handle,
            user_data: h.user_data,
            other: HitOther::Static {
                handle: h.static_handle,
                user_data: h.static_user_data,
            },
            status: h.status,
            toi: h.toi,
            normal: h.normal,
            point: h.point,
        }
    }

    /// The body and the time as one integer in [`BodyHit::order`]'s order
    /// ([`key_of`]).
    #[cfg(test)]
    pub(super) fn key(&self) -> u128 {
        key_of(self.body, self.toi)
    }

    /// [`BodyHit::key`] in 64 bits, when the body fits in 32 bits ([`key64_of`]).
    #[cfg(test)]
    pub(super) fn key64(&self) -> Option<u64> {
        key64_of(self.body, self.toi)
    }

    /// By body, time, walls, then statics, then bodies, then the other side.
    pub(super) fn order(&self, other: &BodyHit) -> core::cmp::Ordering {
        let side = |h: &BodyHit| match h.other {
            HitOther::Wall { tile } => (0, None, tile.y, tile.x, h.handle),
            HitOther::Static { handle, .. } => (1, None, 0, 0, handle),
            HitOther::Body { body, handle, .. } => (2, Some((body, handle)), 0, 0, h.handle),
        };
        // The body and the time decide almost always: the rest only on a tie.
        self.body
            .cmp(&other.body)
            .then(self.toi.to_bits().cmp(&other.toi.to_bits()))
            .then_with(|| side(self).cmp(&side(other)))
    }
}

/// What one [`Frame::advance`] did, in counts. [`Frame::report`] has the details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct StepSummary {
    /// Contacts between bodies, one per pair.
    pub contacts: usize,
    /// The number of wall hits in [`FrameReport::wall_hits`](super::FrameReport::wall_hits).
    ///
    /// A box whose earliest wall contact is an overlap can count twice: once for the
    /// overlap and once for its earliest hit.
    pub wall_hits: usize,
    /// The number of static hits in
    /// [`FrameReport::static_hits`](super::FrameReport::static_hits).
    ///
    /// A box whose earliest static contact is an overlap can count twice: once for the
    /// overlap and once for its earliest hit.
    pub static_hits: usize,
    /// Boxes stopped at a hit, because their response is [`Response::Stop`].
    pub stopped: usize,
    /// Boxes destroyed and removed from the store, because their response is
    /// [`Response::Destroy`].
    pub destroyed: usize,
    /// Where the time went.
    pub timings: FrameTimings,
}

/// A box's earliest wall contact, before responses.
#[derive(Debug, Clone, Copy)]
pub(super) struct WallRaw {
    /// The box's dense index.
    pub(super) i: u32,
    tile: IVec2,
    sweep: Sweep,
}

/// A hit in the time-ordered walk of the responses.
#[derive(Debug, Clone, Copy)]
struct Event {
    /// Time of impact, as bits (non-negative: ordered as the times are).
    t: u32,
    /// Index into the raw hits, `STATIC | index` into the static hits, or
    /// `WALL | index` into the wall hits (so at one time: box pairs, statics, walls).
    k: u32,
}

const WALL: u32 = 1 << 31;
const STATIC: u32 = 1 << 30;

/// The buffers of [`Frame::advance`], kept between frames.
#[derive(Debug, Default)]
pub(crate) struct Moves {
    /// Per raw hit: kept (both boxes still moving at its time). Empty after
    /// [`Frame::step`], which keeps all.
    pub(crate) kept: Vec<bool>,
    pub(crate) wall_hits: Vec<WallHit>,
    pub(crate) static_hits: Vec<StaticHit>,
    pub(crate) destroyed: Vec<Destroyed>,
    statics: StaticPass,
    wall_raw: Vec<WallRaw>,
    /// Their contact points, found in step 1.
    wall_points: Vec<ContactPoint>,
    /// Per wall / static raw hit: kept by the walk.
    wall_keep: Vec<bool>,
    /// The kept wall hits' indices into `wall_raw`, ascending.
    wall_kept: Vec<u32>,
    /// The jobs of the parallel passes.
    pub(crate) blocks: Blocks,
    static_keep: Vec<bool>,
    events: Vec<Event>,
    events_scratch: Vec<Event>,
    /// Per event: its box and the other box (its box again for walls and statics).
    event_boxes: Vec<[u32; 2]>,
    /// Per box: the time its motion ended (`∞`: it moves the whole way). Between walks
    /// `∞` but at the dense indices in `held` and `doomed` (reset by the next walk).
    end: Vec<f32>,
    /// The boxes stopped at a hit: dense index and translation.
    held: Vec<(u32, Vec2)>,
    /// Their shapes where they stopped, to write after every box moved.
    held_shapes: Vec<(u32, Shape)>,
    /// The boxes destroyed: dense index and time.
    doomed: Vec<(u32, f32)>,
    doomed_scratch: Vec<(u32, f32)>,
    /// Their dense indices, ascending.
    doomed_index: Vec<u32>,
    stopped: usize,
    /// The sliding boxes' dense indices, ascending; a bit per box for them.
    sliders: Vec<u32>,
    slider_bits: Vec<u64>,
    /// Candidate pairs with a sliding box: (slider, other), sorted.
    meets: Vec<(u32, u32)>,
    /// What one sliding box may stop against, and their final bounds.
    obstacles: Vec<(Obstacle, Aabb)>,
    /// The sliding boxes' shapes where they end, ascending by dense index.
    slid: Vec<(u32, Shape)>,
    /// Their wall and static hits, with their dense indices.
    slide_walls: Vec<(u32, WallHit)>,
    slide_statics: Vec<(u32, StaticHit)>,
}

/// Something a sliding box may stop against, besides wall tiles.
#[derive(Debug, Clone, Copy)]
enum Obstacle {
    /// A box of the level's statics (its dense index there).
    Static(u32),
    /// A box of the store (its dense index).
    Box,
}

impl Moves {
    /// Forgets the last advance (a [`Frame::step`] reports no walls or removals).
    pub(crate) fn clear(&mut self) {
        self.kept.clear();
        self.wall_hits.clear();
        self.static_hits.clear();
        self.destroyed.clear();
        self.wall_raw.clear();
        self.wall_points.clear();
        self.statics.raw.clear();
        self.stopped = 0;
    }
}

impl Frame {
    /// Runs the whole collision part of a game frame, and moves the boxes.
    ///
    /// `advance` finds the same contacts as [`Frame::step`]. It also collides the boxes
    /// with the level's walls and static boxes. Then it moves every box in the store by
    /// its motion, and each box responds to its first contact as its [`Response`] says.
    /// Read the details afterwards with [`Frame::report`].
    ///
    /// The same store and level give the same report and leave the same store, for any
    /// thread count and SIMD level.
    ///
    /// Here a bullet flies through an enemy and on toward a wall. It is destroyed at the
    /// enemy and never reaches the wall:
    ///
    /// ```
    /// use hantei::frame::{Frame, Level, layers};
    /// use hantei::tilemap::TileMap;
    /// use hantei::{BoxProps, BoxStore, Circle, Owner, Response};
    /// use glam::Vec2;
    /// let map = TileMap::from_ascii("..........#", Vec2::splat(10.0), Vec2::ZERO)?;
    /// let mut store = BoxStore::new();
    /// let bullet = store.insert_shape(
    ///     Circle::new(Vec2::new(5.0, 5.0), 1.0),
    ///     BoxProps {
    ///         filter: layers::player_bullet(),
    ///         motion: Vec2::new(200.0, 0.0), // through the enemy, then the wall
    ///         response: Response::Destroy,
    ///         user_data: 1,
    ///         ..Default::default()
    ///     },
    /// )?;
    /// let enemy = Owner::new(0, 0);
    /// store.insert_shape(
    ///     Circle::new(Vec2::new(50.0, 5.0), 4.0),
    ///     BoxProps { filter: layers::enemy(), owner: enemy, user_data: 2, ..Default::default() },
    /// )?;
    /// let mut frame = Frame::new();
    /// let summary = frame.advance(&mut store, &Level::walls(&map))?;
    /// assert_eq!((summary.contacts, summary.destroyed, summary.wall_hits), (1, 1, 0));
    /// let report = frame.report();
    /// assert_eq!(report.contacts[0].user_data, (2, 1)); // the enemy's body sorts first
    /// assert!(!store.contains(bullet));
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Contacts
    /// Contacts are swept as in [`Frame::step`], so nothing tunnels. Then `advance`
    /// walks them in time order. A box stops moving at its first hit when its response
    /// stops or destroys it. A contact is kept while both its boxes still move at its
    /// time, and later contacts are dropped. So a bullet that crosses two enemies and a
    /// wall in one frame is destroyed at the first enemy. Only that contact is reported.
    ///
    /// # Walls and static boxes
    /// A box is swept against the walls of [`Level::walls`] when its filter pairs with
    /// [`Level::wall_filter`]. The sweep uses the box's true shape and the solid tiles
    /// that its swept bounds reach. Walls and static boxes are solid geometry, and they
    /// follow the tile map's touching rule: **touching is not entering**.
    ///
    /// - A box that moves into a wall hits it, even when it starts flush against it.
    /// - A box that touches a wall and slides along it, or moves away, has no contact.
    /// - A box that starts inside a wall is `Overlapping`.
    /// - A face between two solid tiles is never hit.
    ///
    /// [`TileMap::cast`] and [`TileMap::move_and_slide`] follow the same rule, so a
    /// bullet that `advance` stops at a wall stops there in a cast too. Between two boxes
    /// of the store, touching counts, as in [`Frame::step`].
    ///
    /// [`FrameReport::wall_hits`](super::FrameReport::wall_hits) holds each box's
    /// earliest wall contact. The boxes of [`Level::statics`] work the same way, with
    /// each static box's own filter. Their contacts are in
    /// [`FrameReport::static_hits`](super::FrameReport::static_hits). A static disc or
    /// rectangle is the exception to the touching rule: touching it counts.
    ///
    /// # Responses
    /// A box responds only to contacts with its solid layers, [`Filter::solid`]. Its
    /// other contacts are sensor contacts: reported, and nothing more. The presets of
    /// [`layers`](super::layers) make walls solid to everything, enemies and the player
    /// solid to bullets, and nothing solid to the player but walls.
    ///
    /// - A box with [`Response::Pass`] moves the whole way.
    /// - A box with [`Response::Stop`] stops at its first solid *hit*. An overlap does
    ///   not stop it, so nothing gets stuck. The box stops flush with what it hit. When
    ///   that stands still, like a wall or a resting box, the box never ends inside it.
    /// - A box with [`Response::Destroy`] is removed at its first solid contact, a hit
    ///   or an overlap. [`FrameReport::destroyed`](super::FrameReport::destroyed) lists
    ///   it.
    /// - A box with [`Response::Slide`] moves one axis at a time, x first, then y. On
    ///   each axis it stops flush at the first solid wall tile, static box or store box
    ///   in its way, and keeps the rest of its motion on the other axis. Against walls
    ///   alone it ends exactly where [`TileMap::move_and_slide`] puts it.
    ///
    /// A sliding box slides as its bounding box. It meets the store's boxes where this
    /// frame leaves them. So it stops on top of a moving platform where the platform
    /// ends. Sliding boxes are resolved in dense order, and a sliding box meets a later
    /// one where that one starts. A solid box that moves into a sliding box does not
    /// push it. Add a platform's motion to its rider's motion to carry the rider.
    ///
    /// The slide's wall and static hits are in the report with the other hits. Each
    /// has the fraction of its axis's motion done before it as its time. A box that
    /// rests on a floor while gravity pulls it down hits the floor at time 0 each
    /// frame: that hit, with its upward normal, says the box stands on the ground. A
    /// box that slides along a wall without pushing into it has no contact with it. A leading face
    /// already inside a tile or a static box is `Overlapping` and does not move on that
    /// axis. The sliding box's contacts with other boxes are found along its straight
    /// motion, as for every box.
    ///
    /// Destroyed boxes leave the store in a fixed order, so the dense order left behind
    /// depends only on the input. The box with the highest dense index leaves first.
    /// The last box that stays fills each hole. The handles of destroyed boxes are
    /// freed lowest first.
    ///
    /// # Events
    /// Events work as in [`Frame::step`]. The contacts of a destroyed box end on the
    /// next call, with [`PairEvent::removed`](super::PairEvent::removed) set.
    ///
    /// # Errors
    /// - [`Error::OutOfRange`] when a box, grown by its motion, reaches beyond
    ///   [`MAX_COORDINATE`](crate::MAX_COORDINATE), as in [`Frame::step`].
    /// - [`Error::InvalidShape`] when the level's tile map reaches beyond that limit.
    ///
    /// After an error, no box has moved and the events are as they were.
    pub fn advance(
        &mut self,
        store: &mut BoxStore,
        level: &Level<'_>,
    ) -> Result<StepSummary, Error> {
        let start = Stamp::now();
        if level
            .walls
            .is_some_and(|map| !crate::math::within_limit(&map.bounds()))
        {
            return Err(Error::InvalidShape {
                index: 0,
                reason: "the tile map reaches beyond MAX_COORDINATE",
            });
        }
        let walls = level.walls.map(|map| Walls {
            map,
            filter: level.wall_filter,
        });
        let t_broad = self.collide(store, walls)?;
        self.moves.clear();
        self.moves.walls(&self.grouping);
        if let Some(statics) = level.statics {
            self.moves.statics.run(
                store,
                &self.grouping,
                statics,
                self.config.simd,
                self.parallel(store),
            )?;
        }
        let t_narrow = Stamp::now();
        let mut pooled = self
            .moves
            .respond(store, &self.raw, level, self.parallel(store));
        self.moves.slide(store, level, &self.candidates);
        pooled += self.contacts_from_raw(store, self.parallel(store));
        self.events(store);
        let (joined, serial_in_join) = self.index_and_apply(store);
        let end = Stamp::now();
        let serial = end.since(t_narrow).saturating_sub(joined + pooled) + serial_in_join;
        self.stamp([start, t_broad, t_narrow, end], serial, store);
        Ok(StepSummary {
            contacts: self.contacts.len(),
            wall_hits: self.moves.wall_hits.len(),
            static_hits: self.moves.static_hits.len(),
            stopped: self.moves.stopped,
            destroyed: self.moves.destroyed.len(),
            timings: self.timings,
        })
    }

    /// Steps 6' (each body's hits) and 7 (the moves). The hit index reads no store,
    /// so in a parallel frame it is built beside the moves ([`rayon::join`]): the
    /// same lists, and its time hidden behind theirs. Returns the time of both and
    /// the part of it that ran on one thread alone: the moves' serial passes, and the
    /// index where it outlasted the moves.
    fn index_and_apply(
        &mut self,
        store: &mut BoxStore,
    ) -> (std::time::Duration, std::time::Duration) {
        let parallel = self.parallel(store);
        let simd = self.config.simd;
        let start = Stamp::now();
        let walls = core::mem::take(&mut self.moves.wall_hits);
        let statics = core::mem::take(&mut self.moves.static_hits);
        let src = super::HitSources {
            contacts: &self.contacts,
            walls: &walls,
            statics: &statics,
        };
        let (hits, keys, wide) = (&mut self.hits, &mut self.hit_keys, &mut self.hit_keys_wide);
        let moves = &mut self.moves;
        let mut index = || super::index_hits(&src, hits, keys, wide);
        let mut apply = || {
            let start = Stamp::now();
            let pooled = moves.apply(store, parallel, simd);
            (pooled, Stamp::now().since(start))
        };
        let (pooled, applied) = if parallel && rayon::current_num_threads() > 1 {
            rayon::join(index, apply).1
        } else {
            index();
            apply()
        };
        self.moves.wall_hits = walls;
        self.moves.static_hits = statics;
        let both = Stamp::now().since(start);
        (
            both,
            applied.saturating_sub(pooled) + both.saturating_sub(applied),
        )
    }
}

impl Moves {
    /// Step 4b: each box's earliest wall contact, in dense order. Step 1 found them,
    /// chunk by chunk, for the boxes it listed as near the walls ([`Grouping::build`]
    /// with walls, [`wall_contacts`]).
    fn walls(&mut self, grouping: &Grouping) {
        for list in grouping.wall_raw() {
            self.wall_raw.extend(list.iter().map(|&(w, _)| w));
            self.wall_points.extend(list.iter().map(|&(_, p)| p));
        }
    }

    /// Step 5: walks every hit in time order; decides which are kept, when each box
    /// stops moving, its translation and the boxes to remove. The walk is serial. The
    /// passes around it run in blocks on rayon's pool when `parallel` and there is
    /// much to do; returns the time those passes took.
    fn respond(
        &mut self,
        store: &BoxStore,
        raw: &[RawHit],
        level: &Level<'_>,
        parallel: bool,
    ) -> std::time::Duration {
        let n = store.len();
        // `end` is ∞ but for the boxes the last walk stopped or destroyed: reset those
        // (at their dense indices then: the store may have changed since, the positions
        // in `end` have not), instead of rewriting all `n` (4 MB at a million boxes).
        for &(i, _) in &self.held {
            if let Some(e) = self.end.get_mut(i as usize) {
                *e = f32::INFINITY;
            }
        }
        let mut pooled = std::time::Duration::ZERO;
        let start = Stamp::now();
        if reset_ends(&mut self.end, &self.doomed, self.blocks.hits, parallel) {
            pooled += Stamp::now().since(start);
        }
        self.end.resize(n, f32::INFINITY);
        let start = Stamp::now();
        if find_sliders(
            store.responses(),
            &mut self.sliders,
            self.blocks.boxes,
            parallel,
        ) {
            pooled += Stamp::now().since(start);
        }
        self.held.clear();
        self.doomed.clear();
        self.kept.clear();
        self.kept.resize(raw.len(), false);
        self.events.clear();
        self.events
            .extend(raw.iter().enumerate().map(|(k, h)| Event {
                t: h.sweep.t.to_bits(),
                k: k as u32,
            }));
        // A sliding box's solid walls and statics are the slide's (Moves::slide). With
        // no sliding box (the usual frame), no hit reads the response columns.
        let (responses, solids) = (store.responses(), store.solids());
        let any_slider = !self.sliders.is_empty();
        let slides_on = |i: u32, layers: u32| {
            any_slider
                && responses[i as usize] == Response::Slide as u8
                && solids[i as usize] & layers != 0
        };
        let wall_layers = level.wall_filter.layers;
        let static_layers = |s: u32| level.statics.map_or(0, |l| l.store().layers()[s as usize]);
        // Box pairs, statics, then walls: the order of `k` (STATIC < WALL).
        self.events.extend(
            self.statics
                .raw
                .iter()
                .enumerate()
                .filter(|(_, h)| !slides_on(h.i, static_layers(h.s)))
                .map(|(k, h)| Event {
                    t: h.sweep.t.to_bits(),
                    k: STATIC | k as u32,
                }),
        );
        self.events.extend(
            self.wall_raw
                .iter()
                .enumerate()
                .filter(|(_, w)| !slides_on(w.i, wall_layers))
                .map(|(k, w)| Event {
                    t: w.sweep.t.to_bits(),
                    k: WALL | k as u32,
                }),
        );
        // Time, then box pairs, statics, walls, then input order: a function of the
        // input. The list is in the order of `k` already, so a stable sort by the time
        // alone gives that order, in half the passes of a sort by time and `k`.
        debug_assert!(self.events.windows(2).all(|w| w[0].k < w[1].k));
        radix::sort_by_key(&mut self.events, &mut self.events_scratch, |e| e.t);
        let motion = |i: usize| Vec2::new(store.motion_x()[i], store.motion_y()[i]);
        // A plain box standing still: what a stop must end outside of, bit for bit.
        let resting = |i: usize| {
            (motion(i) == Vec2::ZERO && store.shape_entries()[i] == crate::store::PLAIN)
                .then(|| store.aabb_at(i))
                .flatten()
        };
        self.wall_keep.clear();
        self.wall_keep.resize(self.wall_raw.len(), false);
        self.static_keep.clear();
        self.static_keep.resize(self.statics.raw.len(), false);
        let events = core::mem::take(&mut self.events);
        // The hits are far apart in the store: each one's boxes' lines asked for
        // HITS_AHEAD hits before it is read.
        let mut boxes = core::mem::take(&mut self.event_boxes);
        boxes.clear();
        boxes.extend(events.iter().map(|e| {
            if e.k & STATIC != 0 {
                [self.statics.raw[(e.k & !STATIC) as usize].i; 2]
            } else if e.k & WALL != 0 {
                [self.wall_raw[(e.k & !WALL) as usize].i; 2]
            } else {
                let h = &raw[e.k as usize];
                [h.i, h.j]
            }
        }));
        let end = self.end.as_ptr();
        // What every response reads: the box's end, solids and response; for a pair,
        // each side's layers too. A motion is read only when a box stops (rare: a
        // player, not a bullet), so it is not asked for.
        let ask = |&[i, j]: &[u32; 2]| {
            let one = |i: usize| {
                crate::lanes::prefetch(end.wrapping_add(i));
                prefetch_at(responses, i);
                prefetch_at(solids, i);
            };
            one(i as usize);
            if j != i {
                one(j as usize);
                prefetch_at(store.layers(), i as usize);
                prefetch_at(store.layers(), j as usize);
            }
        };
        boxes.iter().take(HITS_AHEAD).for_each(ask);
        for (n, e) in events.iter().enumerate() {
            if let Some(next) = boxes.get(n + HITS_AHEAD) {
                ask(next);
            }
            let t = f32::from_bits(e.t);
            if e.k & STATIC != 0 {
                let k = (e.k & !STATIC) as usize;
                let h = self.statics.raw[k];
                let i = h.i as usize;
                if self.end[i] < t {
                    continue;
                }
                self.static_keep[k] = true;
                // Read only for a stop (a random line of the level per hit).
                let other = || {
                    level.statics.and_then(|l| match l.shape_at(h.s as usize) {
                        Shape::Aabb(b) => Some(b),
                        _ => None,
                    })
                };
                let layers = static_layers(h.s);
                let still = || Vec2::ZERO;
                self.respond_one(store, i, &h.sweep, (still, other), t, layers);
            } else if e.k & WALL == 0 {
                let h = &raw[e.k as usize];
                let (i, j) = (h.i as usize, h.j as usize);
                if self.end[i] < t || self.end[j] < t {
                    continue;
                }
                self.kept[e.k as usize] = true;
                let s = &h.sweep;
                // `i` sees `j` through `s`; `j` sees `i` through its reverse.
                let back = Sweep {
                    normal: Vec2::ZERO - s.normal,
                    stop: Vec2::ZERO - s.stop,
                    ..*s
                };
                let layers = store.layers();
                let (mi, mj) = (|| motion(i), || motion(j));
                self.respond_one(store, i, s, (mj, || resting(j)), t, layers[j]);
                self.respond_one(store, j, &back, (mi, || resting(i)), t, layers[i]);
            } else {
                let k = (e.k & !WALL) as usize;
                let i = self.wall_raw[k].i as usize;
                if self.end[i] < t {
                    continue;
                }
                self.wall_keep[k] = true;
                let (tile, sweep) = (self.wall_raw[k].tile, self.wall_raw[k].sweep);
                let cell = || {
                    level.walls.zip(store.aabb_at(i)).map(|(map, b)| {
                        wall_box(map, tile.x.into(), tile.y.into(), &b.swept(motion(i)))
                    })
                };
                let still = || Vec2::ZERO;
                self.respond_one(store, i, &sweep, (still, cell), t, wall_layers);
            }
        }
        self.events = events;
        self.event_boxes = boxes;
        // The kept ones, in the raw lists' order: dense index, then time. Their boxes
        // are far apart: each one's lines asked for HITS_AHEAD hits before it is read.
        // With `parallel` and many of them, blocks on rayon's pool.
        self.wall_kept.clear();
        self.wall_kept.extend(
            self.wall_keep
                .iter()
                .enumerate()
                .filter_map(|(k, &keep)| keep.then_some(k as u32)),
        );
        let (wall_raw, points, kept) = (&self.wall_raw, &self.wall_points, &self.wall_kept);
        let record = |range: core::ops::Range<usize>, out: &mut [WallHit]| {
            let kept = &kept[range];
            let ask = |k: u32| {
                let i = wall_raw[k as usize].i as usize;
                prefetch_at(store.owners(), i);
                prefetch_at(store.handles(), i);
                prefetch_at(store.user_data(), i);
            };
            kept.iter().take(HITS_AHEAD).for_each(|&k| ask(k));
            for (n, (&k, out)) in kept.iter().zip(out).enumerate() {
                if let Some(&next) = kept.get(n + HITS_AHEAD) {
                    ask(next);
                }
                let (w, point) = (&wall_raw[k as usize], points[k as usize]);
                let i = w.i as usize;
                *out = WallHit {
                    body: Body::of(store, i),
                    handle: store.handles()[i],
                    user_data: store.user_data()[i],
                    tile: w.tile,
                    status: w.sweep.status,
                    toi: w.sweep.t,
                    normal: w.sweep.normal,
                    point,
                };
            }
        };
        debug_assert!(self.wall_hits.is_empty());
        self.wall_hits.resize(kept.len(), BLANK_WALL_HIT);
        let start = Stamp::now();
        if pool::fill_blocks(&mut self.wall_hits, self.blocks.hits, parallel, &record) {
            pooled += Stamp::now().since(start);
        }
        if let Some(statics) = level.statics {
            // The hits are few and far apart: each one's lines asked for HITS_AHEAD
            // hits before it is read (all at once, thousands of them would not stay in
            // cache until then).
            let kept = || {
                self.statics
                    .raw
                    .iter()
                    .zip(&self.static_keep)
                    .filter(|(_, k)| **k)
                    .map(|(h, _)| h)
            };
            let ask = |h: &StaticRaw| {
                let (i, s) = (h.i as usize, h.s as usize);
                prefetch_at(store.owners(), i);
                prefetch_at(store.handles(), i);
                prefetch_at(store.user_data(), i);
                prefetch_at(statics.store().handles(), s);
                prefetch_at(statics.store().user_data(), s);
            };
            let mut ahead = kept();
            ahead.by_ref().take(HITS_AHEAD).for_each(ask);
            self.static_hits.extend(kept().map(|h| {
                if let Some(next) = ahead.next() {
                    ask(next);
                }
                let (i, s) = (h.i as usize, h.s as usize);
                let point = store.shape_at(i).map_or(ContactPoint::default(), |shape| {
                    let (m, sw) = (motion(i), &h.sweep);
                    let shape = turned_at(store, i, shape, sw.t);
                    let other = statics.shape_at(s);
                    shapes_point(&shape, m, &other, Vec2::ZERO, sw.status, sw.t, sw.normal)
                });
                StaticHit {
                    body: Body::of(store, i),
                    handle: store.handles()[i],
                    user_data: store.user_data()[i],
                    static_handle: statics.store().handles()[s],
                    static_user_data: statics.store().user_data()[s],
                    status: h.sweep.status,
                    toi: h.sweep.t,
                    normal: h.sweep.normal,
                    point,
                }
            }));
        }
        pooled
    }

    /// Step 5b: each sliding box's move ([`Response::Slide`]), in dense order: one axis
    /// at a time, x then y, against the wall tiles, the static boxes and the store's
    /// boxes on its solid layers (see [`slide_box`]). The store's boxes are taken where
    /// this frame leaves them: a sliding box earlier in dense order where it slid to, a
    /// later one where it starts. The slide's wall and static hits join the report in
    /// dense order.
    fn slide(&mut self, store: &BoxStore, level: &Level<'_>, candidates: &[Pair]) {
        self.slid.clear();
        self.slide_walls.clear();
        self.slide_statics.clear();
        if self.sliders.is_empty() {
            return;
        }
        // The store's boxes a sliding box may meet: the broad phase's candidates, since
        // a slide stays inside the box's swept bounds.
        self.slider_bits.clear();
        self.slider_bits.resize(store.len().div_ceil(64), 0);
        for &i in &self.sliders {
            self.slider_bits[i as usize / 64] |= 1 << (i % 64);
        }
        let bits = &self.slider_bits;
        let is_slider = |i: u32| bits[i as usize / 64] >> (i % 64) & 1 != 0;
        self.meets.clear();
        for p in candidates {
            if is_slider(p.a) {
                self.meets.push((p.a, p.b));
            }
            if is_slider(p.b) {
                self.meets.push((p.b, p.a));
            }
        }
        self.meets.sort_unstable();
        let (layers, masks, solids) = (store.layers(), store.masks(), store.solids());
        let sliders = core::mem::take(&mut self.sliders);
        let mut obstacles = core::mem::take(&mut self.obstacles);
        for &i in &sliders {
            let iu = i as usize;
            let (Some(b0), Some(shape)) = (store.aabb_at(iu), store.shape_at(iu)) else {
                continue;
            };
            let m = Vec2::new(store.motion_x()[iu], store.motion_y()[iu]);
            let solid = solids[iu];
            let filter = Filter::new(layers[iu], masks[iu]);
            let walls = level.walls.filter(|_| {
                filter.pairs_with(level.wall_filter) && solid & level.wall_filter.layers != 0
            });
            obstacles.clear();
            if let Some(statics) = level.statics {
                for st in self.statics.statics_of(i) {
                    if solid & statics.store().layers()[st as usize] != 0 {
                        let b = statics.shape_at(st as usize).bounds();
                        obstacles.push((Obstacle::Static(st), b));
                    }
                }
            }
            let from = self.meets.partition_point(|p| p.0 < i);
            for &(_, j) in self.meets[from..].iter().take_while(|p| p.0 == i) {
                if solid & layers[j as usize] != 0
                    && let Some(b) = self.final_bounds(store, j)
                {
                    obstacles.push((Obstacle::Box, b));
                }
            }
            let (b1, hits) = slide_box(b0, m, walls, &obstacles);
            // A turning box slides as the bounds of its whole turn, and ends turned.
            let slid = slid_shape(shape, b0, m, b1);
            self.slid.push((i, turned_at(store, iu, slid, 1.0)));
            let (body, handle, user_data) = (
                Body::of(store, iu),
                store.handles()[iu],
                store.user_data()[iu],
            );
            for (a, hit) in hits.into_iter().enumerate() {
                let Some((stop, toi, at)) = hit else {
                    continue;
                };
                let (status, normal) = if stop.embedded() {
                    (SweepStatus::Overlapping, Vec2::ZERO)
                } else {
                    let mut n = Vec2::ZERO;
                    n[a] = -m[a].signum();
                    (SweepStatus::Hit, n)
                };
                // The box where the slide left it on this axis, against what stopped it.
                let here = slid_shape(shape, b0, m, at);
                let point_on = |other: &Shape| {
                    shapes_point(&here, Vec2::ZERO, other, Vec2::ZERO, status, 0.0, normal)
                };
                match stop {
                    SlideStop::Wall(h) => {
                        let point = level.walls.map_or(ContactPoint::default(), |map| {
                            let (c, r) = (h.tile.x.into(), h.tile.y.into());
                            point_on(&Shape::Aabb(wall_box(map, c, r, &b0.swept(m))))
                        });
                        self.slide_walls.push((
                            i,
                            WallHit {
                                body,
                                handle,
                                user_data,
                                tile: h.tile,
                                status,
                                toi,
                                normal,
                                point,
                            },
                        ));
                    }
                    SlideStop::Obstacle(k, _) => {
                        if let (Obstacle::Static(st), Some(statics)) =
                            (obstacles[k].0, level.statics)
                        {
                            let st = st as usize;
                            self.slide_statics.push((
                                i,
                                StaticHit {
                                    body,
                                    handle,
                                    user_data,
                                    static_handle: statics.store().handles()[st],
                                    static_user_data: statics.store().user_data()[st],
                                    status,
                                    toi,
                                    normal,
                                    point: point_on(&statics.shape_at(st)),
                                },
                            ));
                        }
                    }
                }
            }
        }
        self.obstacles = obstacles;
        self.sliders = sliders;
        // Merged into the walk's lists, in dense order (a sliding box has no entry
        // there for what it slides on).
        let index = |h: BoxHandle| store.index_of(h).map_or(u32::MAX, |i| i as u32);
        merge_by_index(&mut self.wall_hits, &self.slide_walls, |w| index(w.handle));
        merge_by_index(&mut self.static_hits, &self.slide_statics, |h| {
            index(h.handle)
        });
    }

    /// Where box `j` ends this frame, for a sliding box to stop against: `None` when it
    /// is destroyed.
    fn final_bounds(&self, store: &BoxStore, j: u32) -> Option<Aabb> {
        let ju = j as usize;
        let shape = store.shape_at(ju)?;
        let response = Response::from_u8(store.responses()[ju]);
        if self.end[ju] != f32::INFINITY {
            // Stopped or destroyed by the walk.
            let (_, offset) = self.held.iter().find(|h| h.0 == j)?;
            let shape = turned_at(store, ju, shape, self.end[ju]);
            return Some(shape.translated(*offset).bounds());
        }
        if response == Response::Slide {
            return Some(match self.slid.binary_search_by_key(&j, |s| s.0) {
                Ok(k) => self.slid[k].1.bounds(),
                Err(_) => shape.bounds(),
            });
        }
        let m = Vec2::new(store.motion_x()[ju], store.motion_y()[ju]);
        Some(match shape {
            Shape::Aabb(b) => b.translated(m),
            other => turned_at(store, ju, other, 1.0).translated(m).bounds(),
        })
    }

    /// Box `i`'s response to a kept contact at time `t` with something on `layers`,
    /// seen through `s` (relative to the other side, whose motion `other_motion` gives
    /// when a stop needs it; `resting`: its box, when it is a plain box standing
    /// still).
    fn respond_one(
        &mut self,
        store: &BoxStore,
        i: usize,
        s: &Sweep,
        (other_motion, resting): (impl FnOnce() -> Vec2, impl FnOnce() -> Option<Aabb>),
        t: f32,
        layers: u32,
    ) {
        if self.end[i] != f32::INFINITY {
            return; // already stopped or destroyed at this very time
        }
        if store.solids()[i] & layers == 0 {
            return; // a sensor contact: reported, nothing else
        }
        match Response::from_u8(store.responses()[i]) {
            Response::Pass | Response::Slide => {}
            Response::Stop if s.status == SweepStatus::Hit => {
                self.end[i] = t;
                self.stopped += 1;
                // Flush: the kernel's stop is the relative displacement that ends
                // touching, never inside, along the hit face's normal; across it (where
                // the kernel would slide the box on) the motion up to `t`. The other
                // side's own motion up to `t` on top.
                let own = Vec2::new(store.motion_x()[i], store.motion_y()[i]);
                let other_motion = other_motion();
                let v = own - other_motion;
                let stop = Vec2::new(
                    if s.normal.x == 0.0 { v.x * t } else { s.stop.x },
                    if s.normal.y == 0.0 { v.y * t } else { s.stop.y },
                );
                let mut offset = if other_motion == Vec2::ZERO {
                    stop
                } else {
                    other_motion * t + stop
                };
                if let (true, Some(other)) = (store.shape_entries()[i] == PLAIN, resting()) {
                    let b = store.aabb_at(i).expect("dense index");
                    offset = outside(b, offset, other, s.normal);
                }
                self.held.push((i as u32, offset));
            }
            Response::Stop => {}
            Response::Destroy => {
                self.end[i] = t;
                self.doomed.push((i as u32, t));
            }
        }
    }

    /// Step 7: every box moved by its motion, the stopped ones where they stopped; the
    /// destroyed removed. Returns the time of the passes that run on rayon's pool in a
    /// parallel frame: the move, and the destroyed boxes' records and removal when
    /// there are many.
    fn apply(
        &mut self,
        store: &mut BoxStore,
        parallel: bool,
        simd: crate::lanes::SimdLevel,
    ) -> std::time::Duration {
        self.destroyed.clear();
        radix::sort_by_key(&mut self.doomed, &mut self.doomed_scratch, |d| {
            u64::from(d.0)
        });
        // The destroyed are few and far apart: each one's lines asked for HITS_AHEAD
        // boxes before it is read. With `parallel`, blocks of them on rayon's pool.
        let doomed = &self.doomed;
        let record = |range: core::ops::Range<usize>, out: &mut [Destroyed]| {
            let doomed = &doomed[range];
            let ask = |i: usize| {
                store.prefetch_shape(i);
                prefetch_at(store.handles(), i);
                prefetch_at(store.user_data(), i);
            };
            for &(i, _) in doomed.iter().take(HITS_AHEAD) {
                ask(i as usize);
            }
            for (k, (&(i, t), out)) in doomed.iter().zip(out).enumerate() {
                if let Some(&(j, _)) = doomed.get(k + HITS_AHEAD) {
                    ask(j as usize);
                }
                let i = i as usize;
                let m = Vec2::new(store.motion_x()[i], store.motion_y()[i]);
                let shape = store.shape_at(i).expect("dense index");
                let shape = turned_at(store, i, shape, t).translated(m * t);
                *out = Destroyed {
                    handle: store.handles()[i],
                    user_data: store.user_data()[i],
                    shape,
                    toi: t,
                };
            }
        };
        let blank = Destroyed {
            handle: BoxHandle {
                slot: 0,
                generation: 0,
            },
            user_data: 0,
            shape: Shape::Aabb(Aabb::from_coords(0.0, 0.0, 0.0, 0.0)),
            toi: 0.0,
        };
        self.destroyed.resize(self.doomed.len(), blank);
        // The time spent in passes that run on the pool in a parallel frame.
        let mut pooled = std::time::Duration::ZERO;
        let start = Stamp::now();
        if pool::fill_blocks(&mut self.destroyed, self.blocks.hits, parallel, &record) {
            pooled += Stamp::now().since(start);
        }
        self.held_shapes.clear();
        self.held_shapes
            .extend(self.held.iter().map(|&(i, offset)| {
                let iu = i as usize;
                let shape = store.shape_at(iu).expect("dense index");
                (
                    i,
                    turned_at(store, iu, shape, self.end[iu]).translated(offset),
                )
            }));
        self.held_shapes.extend_from_slice(&self.slid);
        let start = Stamp::now();
        store.apply_motion(&self.held_shapes, parallel, simd);
        pooled += Stamp::now().since(start);
        // Each box is doomed at most once (its end time is set then): ascending, unique.
        self.doomed_index.clear();
        self.doomed_index.extend(self.doomed.iter().map(|d| d.0));
        let start = Stamp::now();
        if store.remove_sorted(&self.doomed_index, parallel) {
            pooled += Stamp::now().since(start);
        }
        pooled
    }
}

/// `shape`, the shape of box `i`, turned by `t` times the box's turn: unchanged when it
/// does not turn.
#[inline]
pub(super) fn turned_at(store: &BoxStore, i: usize, shape: Shape, t: f32) -> Shape {
    match store.turn_at(i) {
        0.0 => shape,
        turn => crate::math::turn_shape(&shape, turn * t),
    }
}

/// What [`Moves::respond`] fills its list of wall hits with before it writes each.
const BLANK_WALL_HIT: WallHit = WallHit {
    body: Body::Owner(Owner(0)),
    handle: BoxHandle {
        slot: 0,
        generation: 0,
    },
    user_data: 0,
    tile: IVec2::ZERO,
    status: SweepStatus::Miss,
    toi: 0.0,
    normal: Vec2::ZERO,
    point: ContactPoint {
        a: Vec2::ZERO,
        b: Vec2::ZERO,
        normal: Vec2::ZERO,
        depth: 0.0,
    },
};

/// How [`Moves`] cuts its parallel passes into jobs for rayon's pool.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Blocks {
    /// Records per job, when the records of many hits or destroyed boxes are written
    /// ([`pool::fill_blocks`]).
    pub(crate) hits: usize,
    /// Boxes per job of a pass over every box's column ([`find_sliders`]).
    pub(crate) boxes: usize,
}

impl Default for Blocks {
    fn default() -> Self {
        Self {
            hits: 1024,
            boxes: 1 << 18,
        }
    }
}

/// How many hits (or destroyed boxes) ahead the response walk's lists ask for the lines
/// that each one reads.
pub(super) const HITS_AHEAD: usize = 16;

/// Asks for the line holding `col[i]` (a hint: any `i` will do).
#[inline(always)]
pub(super) fn prefetch_at<T>(col: &[T], i: usize) {
    crate::lanes::prefetch(col.as_ptr().wrapping_add(i));
}

/// `offset`, moved back where `b.translated(offset)` would end inside `other` across a
/// face of `normal` (`other`'s face, pointing toward `b`): the kernel's stop is flush
/// relative to the other box, and seen from the other side (or rounded at a far smaller
/// coordinate, e.g. `1.25 + stop` against a face at `2.4e-35`) it can land an ulp inside.
/// Then the face's own coordinate is the target, and the offset is stepped by ulps
/// until the moved face is on it or outside.
fn outside(b: Aabb, mut offset: Vec2, other: Aabb, normal: Vec2) -> Vec2 {
    for a in 0..2 {
        let n = normal[a];
        // `from`: the face of `b` that meets `other`; `to`: `other`'s face.
        let (from, to, up) = if n > 0.0 {
            (b.min[a], other.max[a], true)
        } else if n < 0.0 {
            (b.max[a], other.min[a], false)
        } else {
            continue;
        };
        let inside = |o: f32| if up { from + o < to } else { from + o > to };
        if inside(offset[a]) {
            offset[a] = to - from;
            for _ in 0..8 {
                if !inside(offset[a]) {
                    break;
                }
                offset[a] = if up {
                    offset[a].next_up()
                } else {
                    offset[a].next_down()
                };
            }
        }
    }
    offset
}

/// The wall pass's buffers, kept between frames: the boxes listed near the walls whose
/// swept bounds meet a solid cell, and those (box, cell) pairs.
#[derive(Debug, Default)]
pub(super) struct WallScratch {
    boxes: Vec<WallBox>,
    pairs: Vec<WallPair>,
    /// The pairs of a disc and a cell (indices into `pairs` and `boxes`): swept eight
    /// at a time ([`DiscWalls`]).
    discs: Vec<(u32, u32)>,
}

/// A box of the wall pass whose swept bounds meet a solid cell.
#[derive(Debug, Clone, Copy)]
struct WallBox {
    /// The dense index.
    i: u32,
    shape: Shape,
    m: Vec2,
    swept: Aabb,
    /// Its pairs: `pairs[from..to]`, in the order of the cells.
    pairs: (u32, u32),
}

/// A box and a solid cell its swept bounds meet, and the sweep of the one against the
/// other.
#[derive(Debug, Clone, Copy)]
struct WallPair {
    tile: IVec2,
    cell: Aabb,
    sweep: Sweep,
}

/// Step 4b for the boxes `near` (dense indices; a few percent of the store, far apart):
/// onto `out`, box by box in the order of `near`, the earliest wall contacts
/// ([`wall_contact`]) of those whose filter pairs with `wall`.
///
/// In three passes: each box's pairs with the solid cells its swept bounds meet; their
/// sweeps, a disc's eight pairs at a time in lanes ([`DiscWalls`], the same bits
/// as the scalar sweep) and any other shape's one by one; then each box's contacts.
pub(super) fn wall_contacts(
    store: &BoxStore,
    map: &TileMap,
    wall: Filter,
    near: &[u32],
    scratch: &mut WallScratch,
    simd: SimdLevel,
    out: &mut Vec<(WallRaw, ContactPoint)>,
) {
    let (layers, masks) = (store.layers(), store.masks());
    // Each box's lines asked for HITS_AHEAD boxes before it is read.
    let [disc_x, disc_y, disc_r] = store.disc_columns_ref();
    let ask = |i: u32| {
        let i = i as usize;
        for col in [store.min_x(), store.min_y(), store.max_x(), store.max_y()] {
            prefetch_at(col, i);
        }
        prefetch_at(store.motion_x(), i);
        prefetch_at(store.motion_y(), i);
        prefetch_at(layers, i);
        prefetch_at(masks, i);
        prefetch_at(store.shape_entries(), i);
        for col in [disc_x, disc_y, disc_r] {
            prefetch_at(col, i);
        }
    };
    scratch.boxes.clear();
    scratch.pairs.clear();
    scratch.discs.clear();
    near.iter().take(HITS_AHEAD).copied().for_each(ask);
    for (k, &i) in near.iter().enumerate() {
        if let Some(&j) = near.get(k + HITS_AHEAD) {
            ask(j);
        }
        let i = i as usize;
        if Filter::new(layers[i], masks[i]).pairs_with(wall) {
            wall_pairs(store, map, i, scratch);
        }
    }
    if !scratch.discs.is_empty() {
        dispatch(
            simd,
            DiscWalls {
                scratch: &mut *scratch,
            },
        );
    }
    for b in &scratch.boxes {
        wall_contact(store, map, b, &scratch.pairs, out);
    }
}

/// Onto `scratch`: box `i` and its pairs with the solid cells of `map` that its swept
/// bounds meet, if any. A disc's pairs are left to [`DiscWalls`]; any other shape's
/// are swept here.
fn wall_pairs(store: &BoxStore, map: &TileMap, i: usize, scratch: &mut WallScratch) {
    let Some(b) = store.aabb_at(i) else {
        return;
    };
    let m = Vec2::new(store.motion_x()[i], store.motion_y()[i]);
    // The cells to test. A box inside the map: only those it can meet. Else (a solid
    // outside within reach, or coordinates too far out to index) every cell that
    // `cells_reached` gives, the outside ring among them.
    let tight = match map.reach(b, m) {
        Reach::Clear => return,
        Reach::Cells(xs, ys) if !map.any_solid(xs, ys) => return,
        Reach::Cells(xs, ys) => Some((xs, ys)),
        Reach::Unsure => None,
    };
    // Read only for a box near a solid tile.
    let Some(shape) = store.shape_at(i) else {
        return;
    };
    let turn = store.turn_at(i);
    // A disc (which never turns): swept in lanes.
    let disc = matches!(shape, Shape::Circle(_));
    let swept = b.swept(m);
    let from = scratch.pairs.len() as u32;
    let mut solid = |c: i64, r: i64| {
        let cell = wall_box(map, c, r, &swept);
        // The broad phase's condition, as for pairs of boxes: the swept bounds reach the
        // cell (closed). (A swept test alone can answer a touch a rounding away.)
        if !swept.overlaps(&cell) {
            return;
        }
        let sweep = if disc {
            let at = (scratch.pairs.len() as u32, scratch.boxes.len() as u32);
            scratch.discs.push(at);
            Sweep {
                status: SweepStatus::Miss,
                t: 1.0,
                normal: Vec2::ZERO,
                stop: Vec2::ZERO,
            }
        } else {
            sweep_turning(&shape, m, turn, &Shape::Aabb(cell), Vec2::ZERO, 0.0)
        };
        scratch.pairs.push(WallPair {
            tile: IVec2::new(c as i32, r as i32),
            cell,
            sweep,
        });
    };
    // The solid cells, row by row.
    match tight {
        Some(((c0, c1), (r0, r1))) => {
            // Inside the map: each row's cells as one slice.
            let w = i64::from(map.width());
            for r in r0..r1 + 1 {
                let row = &map.cells()[(r * w + c0) as usize..=(r * w + c1) as usize];
                for (c, _) in (c0..).zip(row).filter(|(_, k)| **k != EMPTY) {
                    solid(c, r);
                }
            }
        }
        None => {
            let (cols, rows) = map.cells_reached(swept);
            for r in rows.0..=rows.1 {
                for c in cols.0..=cols.1 {
                    if map.kind_at(c, r) != EMPTY {
                        solid(c, r);
                    }
                }
            }
        }
    }
    let to = scratch.pairs.len() as u32;
    if to > from {
        scratch.boxes.push(WallBox {
            i: i as u32,
            shape,
            m,
            swept,
            pairs: (from, to),
        });
    }
}

/// The sweeps of the discs' pairs with cells ([`WallScratch::discs`]), eight at a
/// time. A disc against a box is [`wide::sweep_aabb_circle`] with the roles swapped,
/// its normal and stop turned around, as [`sweep_turning()`] does it one pair at a
/// time. The lanes give the scalar kernel's bits, so the contacts do not depend on the
/// SIMD level. The last eight are padded with copies of one pair.
struct DiscWalls<'a> {
    scratch: &'a mut WallScratch,
}

impl SimdTask for DiscWalls<'_> {
    type Output = ();

    #[inline(always)]
    fn run<W: F32W>(self) {
        let WallScratch {
            boxes,
            pairs,
            discs,
        } = self.scratch;
        for group in discs.chunks(LANES) {
            let mut cells = [Aabb::from_coords(0.0, 0.0, 0.0, 0.0); LANES];
            let mut circles = [Circle::new(Vec2::ZERO, 0.0); LANES];
            let mut motions = [Vec2::ZERO; LANES];
            for j in 0..LANES {
                // Past the end: the last pair again (its answer is not kept).
                let (p, k) = group[j.min(group.len() - 1)];
                let b = &boxes[k as usize];
                let Shape::Circle(c) = b.shape else {
                    unreachable!("a disc's pair");
                };
                (cells[j], circles[j], motions[j]) = (pairs[p as usize].cell, c, b.m);
            }
            let s = wide::sweep_aabb_circle::<W>(
                &AabbW::from_array(&cells),
                &Vec2W::splat(Vec2::ZERO),
                &CircleW::from_array(&circles),
                &Vec2W::from_array(&motions),
            )
            .to_array();
            for (&(p, _), s) in group.iter().zip(s) {
                // As `sweep_shapes` turns it for a disc against a box.
                pairs[p as usize].sweep = Sweep {
                    normal: Vec2::ZERO - s.normal,
                    stop: Vec2::ZERO - s.stop,
                    ..s
                };
            }
        }
    }
}

/// Onto `out`: box `b`'s earliest contact with a solid tile, and its earliest hit when
/// the first is an overlap (see [`keep_earliest`]), each with its contact point, from
/// its pairs in `pairs` (swept).
fn wall_contact(
    store: &BoxStore,
    map: &TileMap,
    b: &WallBox,
    pairs: &[WallPair],
    out: &mut Vec<(WallRaw, ContactPoint)>,
) {
    let (shape, m, swept) = (b.shape, b.m, b.swept);
    let i = b.i as usize;
    let mut best: [Option<WallRaw>; 2] = [None, None];
    for p in &pairs[b.pairs.0 as usize..b.pairs.1 as usize] {
        let (c, r) = (i64::from(p.tile.x), i64::from(p.tile.y));
        let Some(mut s) = solid_contact(&shape, m, &p.cell, p.sweep) else {
            continue;
        };
        if s.status == SweepStatus::Hit {
            // A face shared with a solid neighbour is inside the wall: no hit on it.
            let mut n = s.normal;
            if n.x != 0.0 && map.kind_at(c + n.x.signum() as i64, r) != EMPTY {
                n.x = 0.0;
            }
            if n.y != 0.0 && map.kind_at(c, r + n.y.signum() as i64) != EMPTY {
                n.y = 0.0;
            }
            if n == Vec2::ZERO {
                continue;
            }
            s.normal = if n.x != 0.0 && n.y != 0.0 && n != s.normal {
                n.normalize()
            } else if n != s.normal {
                Vec2::new(
                    n.x.signum() * f32::from(n.x != 0.0),
                    n.y.signum() * f32::from(n.y != 0.0),
                )
            } else {
                n
            };
        }
        let w = WallRaw {
            i: b.i,
            tile: p.tile,
            sweep: s,
        };
        keep_earliest(&mut best, w, |w| &w.sweep);
    }
    // The points of the contacts kept (a few percent of the boxes near the walls).
    for w in best.into_iter().flatten() {
        let cell = wall_box(map, w.tile.x.into(), w.tile.y.into(), &swept);
        let s = &w.sweep;
        let point = shapes_point(
            &turned_at(store, i, shape, s.t),
            m,
            &Shape::Aabb(cell),
            Vec2::ZERO,
            s.status,
            s.t,
            s.normal,
        );
        out.push((w, point));
    }
}

/// `s`, the sweep of `shape` moving by `m` against the still solid box `other`, read
/// with the touching rule of solid geometry; `None` when that rule finds no contact.
///
/// The swept kernels count touching. Walls and static boxes do not: a shape that only
/// touches one is outside it (see `math::touch`). So a contact in `s` that begins
/// touching and does not go inward is dropped, and one that goes inward from touching
/// is a hit at time `0` with the touched face's normal. A hit of a box that never
/// enters `other`'s interior (it grazes along a face, touches a corner in passing, or
/// arrives as the frame ends) is no contact; so is a disc's or a rectangle's that
/// arrives as the frame ends.
pub(super) fn solid_contact(shape: &Shape, m: Vec2, other: &Aabb, s: Sweep) -> Option<Sweep> {
    match s.status {
        SweepStatus::Miss => None,
        SweepStatus::Overlapping => match outside_normal(shape, other) {
            None => Some(s),
            Some(normal) => enters(shape, normal, m).then_some(Sweep {
                status: SweepStatus::Hit,
                t: 0.0,
                normal,
                stop: Vec2::ZERO,
            }),
        },
        // A box: whether its open interval ever overlaps `other`'s before the end.
        SweepStatus::Hit => match shape {
            Shape::Aabb(b) => box_enters(b, m, other).then_some(s),
            // Touching only at the end of the frame: the motion stops before entering.
            _ => (s.t < 1.0).then_some(s),
        },
    }
}

/// The dense indices of the boxes with [`Response::Slide`], ascending, into `out`.
/// With `parallel` and more than `block` boxes, blocks of them on rayon's pool.
/// Returns whether the store is that large: whether the pass runs on the pool in a
/// parallel frame.
fn find_sliders(responses: &[u8], out: &mut Vec<u32>, block: usize, parallel: bool) -> bool {
    out.clear();
    let n = responses.len();
    if n <= block {
        sliders_in(responses, 0, out);
        return false;
    }
    if parallel {
        let mut parts = Vec::new();
        pool::map_indices(
            n.div_ceil(block),
            &|k| {
                let block = pool::chunk(k, block, n);
                let mut found = Vec::new();
                sliders_in(&responses[block.clone()], block.start, &mut found);
                found
            },
            &mut parts,
        );
        parts.iter().for_each(|p| out.extend_from_slice(p));
    } else {
        sliders_in(responses, 0, out);
    }
    true
}

/// Pushes on `out` `first + k` for each `k` where `responses[k]` is
/// [`Response::Slide`], ascending.
fn sliders_in(responses: &[u8], first: usize, out: &mut Vec<u32>) {
    let slide = Response::Slide as u8;
    // Sixty-four responses at a time: one compare of each and an `or` of all, which
    // the compiler turns into lane compares, say whether any of them slides. Sliders
    // are rare (a player, not a bullet): nearly every block ends there.
    let mut blocks = responses.chunks_exact(64);
    for (b, block) in (&mut blocks).enumerate() {
        let block: &[u8; 64] = block.try_into().expect("sixty-four bytes");
        if block.iter().fold(false, |any, &r| any | (r == slide)) {
            for (k, &r) in block.iter().enumerate() {
                if r == slide {
                    out.push((first + b * 64 + k) as u32);
                }
            }
        }
    }
    let base = first + responses.len() - blocks.remainder().len();
    for (k, &r) in blocks.remainder().iter().enumerate() {
        if r == slide {
            out.push((base + k) as u32);
        }
    }
}

/// Sets `end` back to `∞` at the dense indices of `doomed` (ascending; those beyond
/// `end` skipped). With `parallel` and more than `block` of them, blocks on rayon's
/// pool, each on its own part of `end` (the indices are ascending, so each
/// block's lie between its first and the next block's first). Returns whether there
/// are that many: whether the pass runs on the pool in a parallel frame.
fn reset_ends(end: &mut [f32], doomed: &[(u32, f32)], block: usize, parallel: bool) -> bool {
    debug_assert!(doomed.windows(2).all(|w| w[0].0 < w[1].0));
    let reset = |end: &mut [f32], first: usize, doomed: &[(u32, f32)]| {
        for &(i, _) in doomed {
            if let Some(e) = end.get_mut(i as usize - first) {
                *e = f32::INFINITY;
            }
        }
    };
    let blocks = doomed.len() > block;
    if parallel && blocks {
        let mut parts = Vec::with_capacity(doomed.len().div_ceil(block));
        let mut rest = end;
        let mut first = 0;
        for (k, part) in doomed.chunks(block).enumerate() {
            // This block's part of `end`: up to the next block's first index.
            let next = doomed
                .get((k + 1) * block)
                .map_or(usize::MAX, |&(i, _)| i as usize);
            let (end_part, tail) = rest.split_at_mut((next - first).min(rest.len()));
            parts.push((end_part, first, part));
            rest = tail;
            first = next;
        }
        pool::for_each_part(&mut parts, &|_, (end, first, doomed)| {
            reset(end, *first, doomed);
        });
    } else {
        reset(end, 0, doomed);
    }
    blocks
}

/// What stopped a sliding box on one axis, the fraction of the axis's motion done, and
/// the box where that axis's move left it.
type AxisStop = Option<(SlideStop, f32, Aabb)>;

/// What stopped a sliding box on one axis.
#[derive(Debug, Clone, Copy)]
enum SlideStop {
    /// A wall tile.
    Wall(crate::tilemap::TileHit),
    /// The obstacle at this index; `true` when the leading face was already inside it.
    Obstacle(usize, bool),
}

impl SlideStop {
    /// Whether the leading face was already inside, so it did not move.
    fn embedded(self) -> bool {
        match self {
            SlideStop::Wall(h) => h.embedded,
            SlideStop::Obstacle(_, e) => e,
        }
    }
}

/// Moves `b0` by `m` one axis at a time, x then y, and stops each axis flush at the
/// first wall tile of `map` or box of `obstacles` in its way. Returns the box where it
/// ends, and per axis what stopped it with the fraction of that axis's motion done and
/// the box where that axis's move left it.
///
/// Against the walls this is [`TileMap::move_and_slide`]'s own sweep, so with no
/// obstacle the result is the same bit for bit. An obstacle follows the same rule as a
/// tile: touching is not blocking, so the box must overlap it across the motion (open
/// intervals). The leading face stops on the obstacle's near face; a leading face
/// already inside an obstacle does not move on that axis.
fn slide_box(
    b0: Aabb,
    m: Vec2,
    map: Option<&TileMap>,
    obstacles: &[(Obstacle, Aabb)],
) -> (Aabb, [AxisStop; 2]) {
    let mut b = b0;
    let mut hits = [None, None];
    for a in [0, 1] {
        let d = m[a];
        if d == 0.0 {
            continue;
        }
        let (up, p) = (d > 0.0, 1 - a);
        let lead0 = if up { b.max[a] } else { b.min[a] };
        let (mut moved, mut stop) = match map {
            Some(map) => {
                let (moved, hit) = map.sweep_axis(b, a, d);
                (moved, hit.map(SlideStop::Wall))
            }
            None => (place_axis(b, a, d, free_target(lead0, d)), None),
        };
        let mut lead1 = if up { moved.max[a] } else { moved.min[a] };
        for (k, (_, o)) in obstacles.iter().enumerate() {
            if !(b.min[p] < o.max[p] && o.min[p] < b.max[p]) {
                continue;
            }
            let (near, far) = if up {
                (o.min[a], o.max[a])
            } else {
                (o.max[a], o.min[a])
            };
            let (coord, embedded) = if (up && near >= lead0) || (!up && near <= lead0) {
                (near, false)
            } else if (up && lead0 < far) || (!up && lead0 > far) {
                (lead0, true)
            } else {
                continue;
            };
            if (up && coord < lead1) || (!up && coord > lead1) {
                lead1 = coord;
                stop = Some(SlideStop::Obstacle(k, embedded));
            }
        }
        if let Some(SlideStop::Obstacle(..)) = stop {
            moved = place_axis(b, a, d, lead1);
        }
        hits[a] = stop.map(|s| {
            let toi = if s.embedded() {
                0.0
            } else {
                ((lead1 - lead0) / d).clamp(0.0, 1.0)
            };
            (s, toi, moved)
        });
        b = moved;
    }
    (b, hits)
}

/// `shape`, whose bounds were `b0`, where a slide by `m` left its bounds at `b1`: moved
/// as its leading face moved on each axis (a box is `b1` itself).
fn slid_shape(shape: Shape, b0: Aabb, m: Vec2, b1: Aabb) -> Shape {
    match shape {
        Shape::Aabb(_) => Shape::Aabb(b1),
        other => {
            let moved = |a: usize| match m[a] {
                d if d > 0.0 => b1.max[a] - b0.max[a],
                d if d < 0.0 => b1.min[a] - b0.min[a],
                _ => 0.0,
            };
            other.translated(Vec2::new(moved(0), moved(1)))
        }
    }
}

/// `extra` (each with its dense index, ascending) merged into `list` (ascending by
/// `index`), keeping both orders.
fn merge_by_index<T: Copy>(list: &mut Vec<T>, extra: &[(u32, T)], index: impl Fn(&T) -> u32) {
    if extra.is_empty() {
        return;
    }
    let old = core::mem::take(list);
    let mut rest = extra.iter().peekable();
    for item in old {
        let k = index(&item);
        while let Some(&&(i, e)) = rest.peek()
            && i < k
        {
            list.push(e);
            rest.next();
        }
        list.push(item);
    }
    list.extend(rest.map(|&(_, e)| e));
}

/// Keeps in `best` a box's earliest contact (`best[0]`) and, when that is an overlap,
/// its earliest hit (`best[1]`): an overlap never blocks a box, so the first thing that
/// can stop it must not hide behind one. Ties keep the first offered.
pub(super) fn keep_earliest<T: Copy>(
    best: &mut [Option<T>; 2],
    new: T,
    sweep: impl Fn(&T) -> &Sweep,
) {
    let s = sweep(&new);
    if best[0].is_none_or(|b| s.t < sweep(&b).t) {
        // The old earliest may still be the earliest hit.
        let old = best[0].replace(new);
        if s.status == SweepStatus::Hit {
            best[1] = None;
        } else if let Some(o) = old
            && sweep(&o).status == SweepStatus::Hit
        {
            best[1] = Some(o);
        }
    } else if s.status == SweepStatus::Hit
        && best[0].is_some_and(|b| sweep(&b).status != SweepStatus::Hit)
        && best[1].is_none_or(|b| s.t < sweep(&b).t)
    {
        best[1] = Some(new);
    }
}

/// The box of cell `(c, r)`, as a box with swept bounds `swept` meets it.
///
/// Inside the map this is a tile. Beyond the map's edge, the solid outside's cells
/// collapse onto the ring of indices `-1` and `width` or `height`. There it is the slab
/// from the edge outward, cut a tile's size beyond where `swept` reaches, and at most
/// at [`MAX_COORDINATE`](super::MAX_COORDINATE). A swept shape inside `swept` meets the
/// cut slab where it meets the whole one. The cut keeps the swept kernels, which work on
/// centres and half extents, at the scale of the scene.
fn wall_box(map: &TileMap, c: i64, r: i64, swept: &Aabb) -> Aabb {
    let far = super::MAX_COORDINATE;
    let (bounds, tile) = (map.bounds(), map.tile_size());
    let (w, h) = (i64::from(map.width()), i64::from(map.height()));
    let inner = map.tile_aabb(IVec2::new(
        c.clamp(0, (w - 1).max(0)) as i32,
        r.clamp(0, (h - 1).max(0)) as i32,
    ));
    let span = |k: i64, n: i64, a: usize| {
        let (edge_lo, edge_hi) = (bounds.min[a], bounds.max[a]);
        if k < 0 {
            (
                (swept.min[a].min(edge_lo - tile[a]) - tile[a]).max(-far),
                edge_lo,
            )
        } else if k >= n {
            (
                edge_hi,
                (swept.max[a].max(edge_hi + tile[a]) + tile[a]).min(far),
            )
        } else {
            (inner.min[a], inner.max[a])
        }
    };
    let (x, y) = (span(c, w, 0), span(r, h, 1));
    Aabb::from_coords(x.0, y.0, x.1, y.1)
}
