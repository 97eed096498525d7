//! The collision step of a game loop, one call per frame.
//!
//! A [`Frame`] looks at a [`BoxStore`] and finds every contact its boxes make during
//! one frame. There are two ways to run it:
//!
//! - [`Frame::step`] reports the contacts and moves nothing. The game then moves its
//!   boxes itself.
//! - [`Frame::advance`] does the whole collision part of a frame. It also collides the
//!   boxes with walls and static geometry, moves every box, and stops or destroys each
//!   box at its first hit as its [`Response`](crate::Response) says.
//!
//! Both return a [`FrameReport`]. [`layers`] has ready-made filters for a bullet-hell
//! game.
//!
//! A *body* is what a game object is to the collision step. A box with an [`Owner`]
//! belongs to that owner's body. A box without one is a body by itself. Several boxes
//! with one owner form a compound hitbox, and two boxes of the same owner never collide.
//!
//! # Determinism
//! The report is the same for the same store contents, whatever the thread count or
//! SIMD level. Contacts and events are sorted by body pair.
//!
//! The order of the work inside a step is fixed as well, because it can change a
//! result. Where two faces tie, the swept test's normal can depend on which shape it
//! sees first. So the step follows these rules:
//!
//! - Groups of boxes are numbered in the order their first box appears in the store's
//!   dense order.
//! - Pairs of groups are visited in `(g, h)` order, with `g <= h`.
//! - Within a pair of groups, the broad phase's order holds, and each pair of boxes
//!   puts the lower dense index first.
//! - The swept test sees two shapes in kind order: `aabb`, then `circle`, then `obb2`.
//!   It sees two shapes of one kind in dense order.
//!
//! # Allocation
//! A [`Frame`] keeps every buffer and reuses it. Once the buffers have grown to the
//! scene's size, a step allocates nothing. A test checks this with a counting allocator.
//! It runs with [`FrameConfig::parallel`] off, because rayon's own job queue may
//! allocate.
//!
//! # How a step works
//! ```text
//!  BoxStore (boxes, motions, filters, owners)
//!    │ 1. Group the boxes by filter (bullets, enemies, player, ...). Compute each
//!    │    box's swept bounds: the box joined with the box moved by its motion.
//!    │ 2. Run the broad phase on the swept bounds, for each pair of groups whose
//!    │    filters agree. Within one group it is a sweep of the group against
//!    │    itself. Between two groups it is a bipartite sweep, or a grid when one
//!    │    side is small (bullets against targets).
//!    │ 3. Drop pairs of boxes that have the same owner.
//!    │ 4. Run the narrow phase on every candidate pair. The swept test of the two
//!    │    shapes gives the time of impact and the normal, so nothing tunnels.
//!    │ 5. Keep the earliest contact of each pair of bodies.
//!    ▼ 6. Compare with the previous step: which pairs began, stayed or ended.
//!  FrameReport { contacts, began, stayed, ended, timings }
//! ```

mod advance;
mod clock;
mod demo;
mod groups;
mod kinds;
pub mod layers;
mod owned;
mod radix;
mod snapshot;
mod statics;

pub use advance::{BodyHit, Destroyed, HitOther, Level, StepSummary, WallHit};
pub use demo::{Danmaku, DanmakuConfig, DemoFrame};
pub use owned::OwnedFrameReport;
pub use snapshot::FrameEvents;
pub use statics::{StaticHit, StaticLevel};

use crate::broad::{BroadConfig, BroadPhase};
use crate::error::Error;
use crate::lanes::SimdLevel;
use crate::math::{ContactPoint, contact_at};
use crate::narrow::columns::{AabbColumns, MotionColumns};
use crate::narrow::{NarrowConfig, NarrowPhase, Sweep, SweepStatus};
use crate::pair::Pair;
use crate::pool;
use crate::store::{BoxHandle, BoxStore, Owner};
use clock::Stamp;
use glam::Vec2;
use groups::{Grouping, Walls};
use kinds::KindBatches;
use std::time::Duration;

pub use crate::math::MAX_COORDINATE;

/// The default [`FrameConfig::parallel_threshold`], in boxes.
///
/// Below this many boxes, handing work to rayon costs more time than a second core
/// saves, so the step runs on the calling thread. `BENCHMARKS.md` has the measurements
/// behind this value.
pub const PARALLEL_THRESHOLD: usize = 32_768;

/// Contacts per parallel task when a frame finds its contact points on the pool
/// (smaller in tests, so that their parallel frames take that path).
const POINT_BLOCK: usize = if cfg!(any(test, feature = "fuzzing")) {
    8
} else {
    256
};

/// The value of [`FrameConfig::parallel_threshold`] for settings saved without it.
#[cfg(feature = "serde")]
fn parallel_threshold() -> usize {
    PARALLEL_THRESHOLD
}

/// Settings of a [`Frame`].
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FrameConfig {
    /// Which SIMD kernels run. The default is the best level this CPU supports.
    pub simd: SimdLevel,
    /// Whether large stores use rayon's current thread pool. The default is `true`.
    ///
    /// A store is large when it holds at least [`FrameConfig::parallel_threshold`]
    /// boxes.
    pub parallel: bool,
    /// The fewest boxes a store needs for a step to run in parallel. The default is
    /// [`PARALLEL_THRESHOLD`].
    ///
    /// A smaller store runs on the calling thread. `0` makes every step parallel, and
    /// `usize::MAX` makes every step serial. The value only matters when
    /// [`FrameConfig::parallel`] is on. Settings saved without this field read back
    /// with the default.
    #[cfg_attr(feature = "serde", serde(default = "parallel_threshold"))]
    pub parallel_threshold: usize,
    /// The most distinct filters that get a group of their own. The default is 32.
    ///
    /// With more filters than this, every box goes into one group, and the broad phase
    /// checks each box's own filter. The contacts are the same, but finding them takes
    /// more work.
    pub max_groups: usize,
}

impl Default for FrameConfig {
    fn default() -> Self {
        Self {
            simd: SimdLevel::best(),
            parallel: true,
            parallel_threshold: PARALLEL_THRESHOLD,
            max_groups: 32,
        }
    }
}

/// The game object that a box belongs to in the collision step.
///
/// A box with an [`Owner`] belongs to that owner. A box without one is a body by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Body {
    /// A game object with one or more boxes, named by its [`Owner`].
    Owner(Owner),
    /// A box without an owner.
    Box(BoxHandle),
}

impl Body {
    /// The body of the box at dense index `i`.
    fn of(store: &BoxStore, i: usize) -> Body {
        let owner = store.owners()[i];
        if owner == Owner::NONE.0 {
            Body::Box(store.handles()[i])
        } else {
            Body::Owner(Owner(owner))
        }
    }
}

/// Two bodies in contact, with `a < b`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BodyPair {
    /// The smaller body.
    pub a: Body,
    /// The larger body.
    pub b: Body,
}

/// The earliest contact between two bodies in one frame.
#[derive(Debug, Clone, Copy, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Contact {
    /// The two bodies.
    pub bodies: BodyPair,
    /// The two boxes that touched first. `boxes.0` belongs to `bodies.a`.
    pub boxes: (BoxHandle, BoxHandle),
    /// [`SweepStatus::Hit`] when the boxes meet during the frame, or
    /// [`SweepStatus::Overlapping`] when they already touched as the frame began.
    pub status: SweepStatus,
    /// The time of impact, as a fraction of the frame. It is `0` when the boxes already
    /// overlapped.
    pub toi: f32,
    /// The normal of the face of `boxes.1` that `boxes.0` hit. It points toward
    /// `boxes.0`, as [`Sweep::normal`](crate::narrow::Sweep::normal) does. It is zero
    /// when the boxes already overlapped.
    pub normal: Vec2,
    /// The game's ids of `boxes.0` and `boxes.1`, from
    /// [`BoxProps::user_data`](crate::BoxProps::user_data).
    pub user_data: (u64, u64),
    /// Where the boxes touched: [`ContactPoint::a`] on `boxes.0`'s shape and
    /// [`ContactPoint::b`] on `boxes.1`'s, in world coordinates, with each box moved by
    /// `toi` times its motion.
    ///
    /// For a hit, the two points are the same up to rounding, the depth is `0`, and
    /// [`ContactPoint::normal`] is `normal` made unit. For an overlap, the point's
    /// normal and depth say how far and which way `boxes.0` would move to leave
    /// `boxes.1`.
    ///
    /// The step computes it only for the contacts it reports. A report saved without
    /// it reads back with every field zero.
    ///
    /// ```
    /// use hantei::frame::{Frame, layers};
    /// use hantei::{Aabb, BoxProps, BoxStore, Circle};
    /// use glam::Vec2;
    /// let mut store = BoxStore::new();
    /// // A bullet of radius 1 flies right into the left face of a wall at x = 10.
    /// let props = BoxProps::new(layers::player_bullet()).with_motion(Vec2::new(20.0, 0.0));
    /// let bullet = store.insert_shape(Circle::new(Vec2::new(0.0, 3.0), 1.0), props)?;
    /// store.insert_with(Aabb::from_coords(10.0, 0.0, 12.0, 8.0), BoxProps::new(layers::enemy()))?;
    /// let mut frame = Frame::new();
    /// let c = frame.step(&store)?.contacts[0];
    /// assert!((c.toi - 0.45).abs() < 1e-6); // the rim reaches x = 10 at 9 / 20
    /// // The spark goes where the bullet's rim meets the wall's face.
    /// let (on_bullet, on_wall) = if c.boxes.0 == bullet {
    ///     (c.point.a, c.point.b)
    /// } else {
    ///     (c.point.b, c.point.a)
    /// };
    /// assert!((on_bullet - Vec2::new(10.0, 3.0)).length() < 1e-5);
    /// assert!((on_wall - Vec2::new(10.0, 3.0)).length() < 1e-5);
    /// assert_eq!(c.point.depth, 0.0);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    #[cfg_attr(feature = "serde", serde(default))]
    pub point: ContactPoint,
}

impl Contact {
    /// The contact of the boxes at dense indices `i` and `j` from their sweep `s` (seen
    /// from `i`), its bodies in order, with the dense indices of its `boxes` (its point
    /// still to find).
    fn new(store: &BoxStore, i: u32, j: u32, s: &Sweep) -> (Contact, [u32; 2]) {
        let (iu, ju) = (i as usize, j as usize);
        let (bi, bj) = (Body::of(store, iu), Body::of(store, ju));
        let (hi, hj) = (store.handles()[iu], store.handles()[ju]);
        let (di, dj) = (store.user_data()[iu], store.user_data()[ju]);
        let (bodies, boxes, normal, user_data, dense) = if bi <= bj {
            (
                BodyPair { a: bi, b: bj },
                (hi, hj),
                s.normal,
                (di, dj),
                [i, j],
            )
        } else {
            // `ZERO - n`, not `-n`: a zero normal stays +0.0 whichever way round.
            (
                BodyPair { a: bj, b: bi },
                (hj, hi),
                Vec2::ZERO - s.normal,
                (dj, di),
                [j, i],
            )
        };
        let c = Contact {
            bodies,
            boxes,
            status: s.status,
            toi: s.t,
            normal,
            user_data,
            point: ContactPoint::default(),
        };
        (c, dense)
    }
}

/// The contact point of the boxes at dense indices `i` and `j` of `store`, each moved
/// by `toi` times its motion (and turned by `toi` times its turn): across `normal` (toward `i`) for a hit, the least overlap
/// otherwise.
pub(crate) fn contact_point(
    store: &BoxStore,
    i: usize,
    j: usize,
    status: SweepStatus,
    toi: f32,
    normal: Vec2,
) -> ContactPoint {
    let (Some(a), Some(b)) = (store.shape_at(i), store.shape_at(j)) else {
        return ContactPoint::default();
    };
    // A turning shape, turned as far as it has turned at the time of impact.
    let posed = |s: crate::math::Shape, k: usize| match store.turn_at(k) {
        0.0 => s,
        turn => crate::math::turn_shape(&s, turn * toi),
    };
    let (a, b) = (posed(a, i), posed(b, j));
    let motion = |k: usize| Vec2::new(store.motion_x()[k], store.motion_y()[k]);
    shapes_point(&a, motion(i), &b, motion(j), status, toi, normal)
}

/// The contact point of shape `a` moving by `ma` and shape `b` moving by `mb`, each
/// moved by `toi` times its motion: across `normal` (toward `a`) for a hit, the least
/// overlap otherwise.
pub(crate) fn shapes_point(
    a: &crate::math::Shape,
    ma: Vec2,
    b: &crate::math::Shape,
    mb: Vec2,
    status: SweepStatus,
    toi: f32,
    normal: Vec2,
) -> ContactPoint {
    let t = f64::from(toi);
    let hit = (status == SweepStatus::Hit).then_some(normal);
    contact_at(a, ma.as_dvec2() * t, b, mb.as_dvec2() * t, hit)
}

/// Time spent in one [`Frame::step`] or [`Frame::advance`], measured with
/// `std::time::Instant`.
///
/// Every duration is zero on `wasm32-unknown-unknown`. That target has no clock and
/// `Instant::now()` panics there, so the step does not read it. `wasm32-wasip1` has a
/// clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FrameTimings {
    /// Grouping the boxes and the broad phase. In [`Frame::advance`], this also covers
    /// the walls: the boxes near them are tested while they are grouped.
    pub broad: Duration,
    /// The narrow phase. In [`Frame::advance`], this also covers the static level.
    pub narrow: Duration,
    /// Everything after the narrow phase: contacts, events and the index of hits. In
    /// [`Frame::advance`], this also covers the responses, moving the boxes and
    /// removing destroyed boxes.
    pub events: Duration,
    /// The whole step.
    pub total: Duration,
    /// The part of `total` that always runs on the calling thread. More threads do not
    /// shorten it.
    ///
    /// It covers contacts, events and the index of hits. Many contacts find their
    /// points on the pool. In [`Frame::advance`], it also covers the walk through the
    /// hits in time order that decides the responses. The records of wall hits and of
    /// destroyed boxes, and the removals, run on the pool when there are many of them.
    /// The index of hits is built beside the moves, so it counts only where it
    /// outlasts them.
    pub serial: Duration,
    /// How many threads the other passes ran on.
    ///
    /// This is rayon's current pool size, or 1 when the frame ran on the calling thread
    /// alone. A frame runs alone when [`FrameConfig::parallel`] is off, or when the
    /// store has fewer than [`FrameConfig::parallel_threshold`] boxes.
    pub threads: usize,
}

/// A change in contact between two bodies from one step to the next.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PairEvent {
    /// The two bodies.
    pub bodies: BodyPair,
    /// The boxes of this step's contact. For an ended pair, they are the boxes of the
    /// last step's contact. `boxes.0` belongs to `bodies.a`.
    pub boxes: (BoxHandle, BoxHandle),
    /// The game's ids of `boxes.0` and `boxes.1`.
    pub user_data: (u64, u64),
    /// Whether the contact ended because one of its boxes left the store. It can be
    /// `true` only in [`FrameReport::ended`].
    ///
    /// A box leaves the store when [`Frame::advance`] destroys it or the game removes
    /// it. It is `false` when the bodies moved apart. Each removed box ends each of its
    /// contacts exactly once.
    pub removed: bool,
}

impl PairEvent {
    fn of(c: &Contact) -> Self {
        PairEvent {
            bodies: c.bodies,
            boxes: c.boxes,
            user_data: c.user_data,
            removed: false,
        }
    }
}

/// The result of one [`Frame::step`] or [`Frame::advance`].
///
/// The report borrows the [`Frame`]. [`Frame::report`] gives it again later and borrows
/// the frame immutably.
#[derive(Debug, Clone, Copy)]
pub struct FrameReport<'a> {
    /// The earliest contact of each pair of bodies, sorted by body pair.
    ///
    /// After [`Frame::advance`], this leaves out contacts that would come after a box
    /// stopped or was destroyed.
    pub contacts: &'a [Contact],
    /// Body pairs in contact in this step but not in the previous one, sorted.
    pub began: &'a [PairEvent],
    /// Body pairs in contact in this step and in the previous one, sorted.
    pub stayed: &'a [PairEvent],
    /// Body pairs in contact in the previous step but not in this one, sorted.
    ///
    /// A pair's [`PairEvent::removed`] says whether it ended because a box left the
    /// store.
    pub ended: &'a [PairEvent],
    /// Each box's earliest contact with a solid tile, from [`Frame::advance`] with
    /// walls. It is empty after [`Frame::step`].
    ///
    /// When a box's earliest contact is an overlap, its earliest hit follows as a second
    /// entry. The list is sorted by the box's dense index before this step's removals,
    /// then by time.
    pub wall_hits: &'a [WallHit],
    /// Each box's earliest contact with a static box, from [`Frame::advance`] with a
    /// [`StaticLevel`]. It is empty after [`Frame::step`].
    ///
    /// When a box's earliest contact is an overlap, its earliest hit follows as a second
    /// entry. The list is sorted by the box's dense index before this step's removals,
    /// then by time.
    pub static_hits: &'a [StaticHit],
    /// The boxes that [`Frame::advance`] destroyed, because their response is
    /// [`Response::Destroy`](crate::Response::Destroy). It is empty after
    /// [`Frame::step`].
    ///
    /// Each entry holds the box's shape where it was at its first contact. The list is
    /// sorted by dense index before the removals.
    pub destroyed: &'a [Destroyed],
    /// Every contact, wall hit and static hit, seen from each body.
    ///
    /// The list is sorted by body, then by time of impact with the earliest first, then
    /// by the other side. [`FrameReport::hits_of`] reads the hits of one body.
    pub hits: &'a [BodyHit],
    /// How many candidate box pairs the broad phase produced, before the owner check
    /// and the narrow phase.
    pub candidates: usize,
    /// Where the time went.
    pub timings: FrameTimings,
}

impl<'a> FrameReport<'a> {
    /// What `body` touched in this step, earliest first.
    ///
    /// For example, `hits_of(bullet).first()` tells what a bullet hit first, a wall or
    /// an enemy.
    #[must_use]
    pub fn hits_of(&self, body: Body) -> &'a [BodyHit] {
        let lo = self.hits.partition_point(|h| h.body < body);
        let n = self.hits[lo..].partition_point(|h| h.body == body);
        &self.hits[lo..lo + n]
    }
}

/// The per-frame collision pipeline. It keeps its buffers between frames.
///
/// A bullet that moves fast enough to jump over an enemy in one frame still hits it:
///
/// ```
/// use hantei::frame::{Frame, layers};
/// use hantei::{Aabb, BoxProps, BoxStore, Owner};
/// use glam::Vec2;
/// let mut store = BoxStore::new();
/// // A bullet flying right, fast enough to jump over the enemy in one frame.
/// store.insert_with(
///     Aabb::from_center_half_extents(Vec2::new(0.0, 0.0), Vec2::splat(1.0)),
///     BoxProps { filter: layers::player_bullet(), motion: Vec2::new(100.0, 0.0), ..Default::default() },
/// )?;
/// store.insert_with(
///     Aabb::from_center_half_extents(Vec2::new(50.0, 0.0), Vec2::splat(4.0)),
///     BoxProps { filter: layers::enemy(), owner: Owner(7), ..Default::default() },
/// )?;
/// let mut frame = Frame::new();
/// let report = frame.step(&store)?;
/// assert_eq!(report.contacts.len(), 1); // no tunnelling
/// assert!((report.contacts[0].toi - 0.45).abs() < 1e-6);
/// assert_eq!(report.began.len(), 1);
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Frame {
    config: FrameConfig,
    broad: BroadPhase,
    narrow: NarrowPhase,
    grouping: Grouping,
    kinds: KindBatches,
    candidates: Vec<Pair>,
    /// Every hit or overlap of the narrow phase (dense indices), before responses.
    raw: Vec<RawHit>,
    contacts: Vec<Contact>,
    /// [`Frame::contacts_from_raw`]'s list: each contact with its boxes' dense indices.
    contacts_dense: Vec<(Contact, [u32; 2])>,
    previous: Vec<PairEvent>,
    current: Vec<PairEvent>,
    began: Vec<PairEvent>,
    stayed: Vec<PairEvent>,
    ended: Vec<PairEvent>,
    moves: advance::Moves,
    hits: Vec<BodyHit>,
    /// [`index_hits`]'s sort buffers, with 64-bit keys ([`advance::key64_of`]).
    hit_keys: [Vec<(u64, u32)>; 2],
    /// The same with 128-bit keys ([`advance::key_of`]), when an owner id is too big.
    hit_keys_wide: [Vec<(u128, u32)>; 2],
    timings: FrameTimings,
}

/// The hits of one frame where [`index_hits`] finds them: each contact seen
/// from both of its bodies, then each wall hit, then each static hit.
struct HitSources<'a> {
    contacts: &'a [Contact],
    walls: &'a [WallHit],
    statics: &'a [StaticHit],
}

impl HitSources<'_> {
    /// Each hit's body and time, in source order.
    fn sides(&self) -> impl Iterator<Item = (Body, f32)> + '_ {
        let contacts = self
            .contacts
            .iter()
            .flat_map(|c| [(c.bodies.a, c.toi), (c.bodies.b, c.toi)]);
        let walls = self.walls.iter().map(|w| (w.body, w.toi));
        let statics = self.statics.iter().map(|h| (h.body, h.toi));
        contacts.chain(walls).chain(statics)
    }

    /// Hit `k` of [`HitSources::sides`], seen from its body.
    fn hit(&self, k: usize) -> BodyHit {
        let sides = 2 * self.contacts.len();
        if k < sides {
            let (a, b) = BodyHit::of_contact(&self.contacts[k / 2]);
            if k.is_multiple_of(2) { a } else { b }
        } else if k - sides < self.walls.len() {
            BodyHit::of_wall(&self.walls[k - sides])
        } else {
            BodyHit::of_static(&self.statics[k - sides - self.walls.len()])
        }
    }
}

/// Every hit of `src` seen from its body, into `hits`, sorted by body then time.
///
/// By body and time in a radix sort of (key, index), in 64 bits when every body fits
/// in 32 (the usual case: half the bytes to sort), then the rare ties (a body touching
/// several things at one time) by the whole order. Each hit is written once, in its
/// place: the keys are what moves in the sort. It reads no store, so
/// [`Frame::advance`] builds it beside the moves.
fn index_hits(
    src: &HitSources<'_>,
    hits: &mut Vec<BodyHit>,
    keys: &mut [Vec<(u64, u32)>; 2],
    wide: &mut [Vec<(u128, u32)>; 2],
) {
    if !sort_hits(src, hits, keys, advance::key64_of) {
        let key = |body, toi| Some(advance::key_of(body, toi));
        sort_hits(src, hits, wide, key);
    }
}

/// Writes the hits of `src` into `hits` in [`BodyHit::order`]: a radix sort of `(key,
/// position)` in `keys`, then each hit written once in that order, then each run of
/// equal keys sorted by the whole order. `key` must order as the body then the time
/// do; `false`, with `hits` untouched, when it is `None` for some hit.
fn sort_hits<K: radix::Key>(
    src: &HitSources<'_>,
    hits: &mut Vec<BodyHit>,
    [keys, keys_scratch]: &mut [Vec<(K, u32)>; 2],
    key: impl Fn(Body, f32) -> Option<K>,
) -> bool {
    keys.clear();
    for (k, (body, toi)) in src.sides().enumerate() {
        let Some(key) = key(body, toi) else {
            return false;
        };
        keys.push((key, k as u32));
    }
    radix::sort_by_key(keys, keys_scratch, |x| x.0);
    hits.clear();
    hits.extend(keys.iter().map(|&(_, k)| src.hit(k as usize)));
    let mut i = 0;
    while i < keys.len() {
        let mut j = i + 1;
        while j < keys.len() && keys[j].0 == keys[i].0 {
            j += 1;
        }
        if j - i > 1 {
            hits[i..j].sort_unstable_by(|x, y| x.order(y));
        }
        i = j;
    }
    true
}

/// One narrow-phase answer: boxes at dense indices `i` and `j`, the sweep seen from `i`.
#[derive(Debug, Clone, Copy)]
struct RawHit {
    i: u32,
    j: u32,
    sweep: Sweep,
}

impl Frame {
    /// A pipeline with the default [`FrameConfig`].
    #[must_use]
    pub fn new() -> Self {
        Self::with_config(FrameConfig::default())
    }

    /// A pipeline with the given settings.
    #[must_use]
    pub fn with_config(config: FrameConfig) -> Self {
        let simd = config.simd.supported();
        Self {
            config: FrameConfig { simd, ..config },
            broad: BroadPhase::with_config(BroadConfig {
                simd,
                parallel: config.parallel,
                ..BroadConfig::default()
            }),
            narrow: NarrowPhase::with_config(NarrowConfig {
                simd,
                parallel: config.parallel,
                ..NarrowConfig::default()
            }),
            ..Self::default()
        }
    }

    /// The settings.
    #[must_use]
    pub fn config(&self) -> &FrameConfig {
        &self.config
    }

    /// Groups in chunks of `chunk` boxes, and cuts the moves' parallel passes into
    /// jobs of `chunk` hits or boxes (tests and fuzzing: many chunks and jobs on small
    /// stores; the report does not depend on it).
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn set_group_chunk(&mut self, chunk: usize) {
        self.grouping.set_chunk(chunk);
        self.moves.blocks = advance::Blocks {
            hits: chunk,
            boxes: chunk,
        };
    }

    /// Forgets the contacts of earlier steps. The next step reports every contact as
    /// begun.
    pub fn reset_events(&mut self) {
        self.previous.clear();
    }

    /// Finds the contacts of one frame without moving any box.
    ///
    /// A box's motion is its displacement over the frame. The step sweeps every box
    /// along its motion and reports the earliest contact of each pair of bodies. It also
    /// reports which contacts began, stayed or ended since the previous step.
    ///
    /// The store does not change. The game moves its boxes afterwards, or calls
    /// [`Frame::advance`] instead to have them moved.
    ///
    /// # Errors
    /// [`Error::OutOfRange`] when a box, grown by its motion, reaches beyond
    /// [`MAX_COORDINATE`]. The error names the lowest such dense index. The events are
    /// then left as they were.
    pub fn step(&mut self, store: &BoxStore) -> Result<FrameReport<'_>, Error> {
        let start = Stamp::now();
        let t_broad = self.collide(store, None)?;
        let t_narrow = Stamp::now();
        self.moves.clear();
        let pooled = self.contacts_from_raw(store, self.parallel(store));
        self.events(store);
        self.index_hits();
        let end = Stamp::now();
        let serial = end.since(t_narrow).saturating_sub(pooled);
        self.stamp([start, t_broad, t_narrow, end], serial, store);
        Ok(self.report())
    }

    /// Records the timings from the stamps taken at the start of a step, after its
    /// broad phase, after its narrow phase and at its end, and the time its serial
    /// passes took.
    fn stamp(
        &mut self,
        [start, broad, narrow, end]: [Stamp; 4],
        serial: Duration,
        store: &BoxStore,
    ) {
        let threads = if self.parallel(store) {
            rayon::current_num_threads()
        } else {
            1
        };
        self.timings = FrameTimings {
            broad: broad.since(start),
            narrow: narrow.since(broad),
            events: end.since(narrow),
            total: end.since(start),
            serial,
            threads,
        };
    }

    /// The report of the last [`Frame::step`] or [`Frame::advance`]. It is empty before
    /// the first step.
    ///
    /// The report borrows the frame immutably. So a game that keeps its `Frame` inside
    /// its own struct can call `advance`, then read the report beside its other fields.
    #[must_use]
    pub fn report(&self) -> FrameReport<'_> {
        FrameReport {
            contacts: &self.contacts,
            began: &self.began,
            stayed: &self.stayed,
            ended: &self.ended,
            wall_hits: &self.moves.wall_hits,
            static_hits: &self.moves.static_hits,
            destroyed: &self.moves.destroyed,
            hits: &self.hits,
            candidates: self.candidates.len(),
            timings: self.timings,
        }
    }

    /// Whether this store's step runs in parallel ([`FrameConfig::parallel`] and
    /// [`FrameConfig::parallel_threshold`]).
    fn parallel(&self, store: &BoxStore) -> bool {
        self.config.parallel && store.len() >= self.config.parallel_threshold
    }

    /// Steps 1 to 4: every hit or overlap of the narrow phase into `raw`; returns when
    /// the broad phase ended. With `walls` (from [`Frame::advance`]), step 1 also lists
    /// the boxes near them.
    fn collide(&mut self, store: &BoxStore, walls: Option<Walls<'_>>) -> Result<Stamp, Error> {
        let parallel = self.parallel(store);
        self.broad.set_parallel(parallel);
        self.narrow.set_parallel(parallel);
        self.group(store, walls)?;
        self.broad_phase(store)?;
        self.drop_same_owner(store);
        let t_broad = Stamp::now();
        self.raw.clear();
        let raw = &mut self.raw;
        let emit = |i: usize, j: usize, s: &Sweep| {
            raw.push(RawHit {
                i: i as u32,
                j: j as u32,
                sweep: *s,
            });
        };
        if store.has_shapes() {
            // Discs or rectangles: each pair through the batch of its kinds.
            self.kinds
                .run(&mut self.narrow, store, &self.candidates, emit)?;
        } else {
            let sweeps = self.narrow.sweep_aabb_aabb(
                AabbColumns::from_store(store),
                MotionColumns::from_store(store),
                &self.candidates,
            )?;
            let mut emit = emit;
            sweeps
                .iter()
                .for_each(|s| emit(s.pair.a as usize, s.pair.b as usize, &s.sweep));
        }
        Ok(t_broad)
    }

    /// Step 5: one contact per body pair, the earliest (ties: the smaller box handles),
    /// from the raw hits `moves` kept (all of them after [`Frame::step`]). With
    /// `parallel` and many contacts, their points are found in blocks on rayon's pool
    /// (each point from its own contact alone, so the same bits on any thread). Returns
    /// the time those blocks took.
    fn contacts_from_raw(&mut self, store: &BoxStore, parallel: bool) -> Duration {
        let kept = &self.moves.kept;
        // The hits are far apart in the store: each one's lines asked for HITS_AHEAD
        // hits before it is read.
        let ask_bodies = |h: &RawHit| {
            for k in [h.i as usize, h.j as usize] {
                advance::prefetch_at(store.owners(), k);
                advance::prefetch_at(store.handles(), k);
                advance::prefetch_at(store.user_data(), k);
            }
        };
        self.raw
            .iter()
            .take(advance::HITS_AHEAD)
            .for_each(ask_bodies);
        // Each contact with the dense indices of `boxes.0` and `boxes.1`.
        let sorted = &mut self.contacts_dense;
        sorted.clear();
        sorted.extend(
            self.raw
                .iter()
                .enumerate()
                .inspect(|(k, _)| {
                    if let Some(next) = self.raw.get(k + advance::HITS_AHEAD) {
                        ask_bodies(next);
                    }
                })
                .filter(|(k, _)| kept.is_empty() || kept[*k])
                .map(|(_, h)| Contact::new(store, h.i, h.j, &h.sweep)),
        );
        sorted.sort_unstable_by(|(x, _), (y, _)| {
            (x.bodies, x.toi.to_bits(), x.boxes).cmp(&(y.bodies, y.toi.to_bits(), y.boxes))
        });
        sorted.dedup_by(|later, first| later.0.bodies == first.0.bodies);
        // Only the reported contacts get a point, from the boxes' dense indices. They
        // are far apart in the store: each one's lines asked for HITS_AHEAD contacts
        // before it is read.
        let points = |part: &[(Contact, [u32; 2])], out: &mut [Contact]| {
            let ask = |&(_, [i, j]): &(Contact, [u32; 2])| {
                store.prefetch_shape(i as usize);
                store.prefetch_shape(j as usize);
            };
            part.iter().take(advance::HITS_AHEAD).for_each(ask);
            for (n, (&(c, [i, j]), out)) in part.iter().zip(out).enumerate() {
                if let Some(next) = part.get(n + advance::HITS_AHEAD) {
                    ask(next);
                }
                let (i, j) = (i as usize, j as usize);
                *out = Contact {
                    point: contact_point(store, i, j, c.status, c.toi, c.normal),
                    ..c
                };
            }
        };
        let sorted = &self.contacts_dense;
        self.contacts.clear();
        self.contacts.extend(sorted.iter().map(|&(c, _)| c));
        if parallel && sorted.len() > POINT_BLOCK && rayon::current_num_threads() > 1 {
            let start = Stamp::now();
            let mut parts: Vec<&mut [Contact]> = self.contacts.chunks_mut(POINT_BLOCK).collect();
            pool::for_each_part(&mut parts, &|k, out| {
                points(&sorted[pool::chunk(k, POINT_BLOCK, sorted.len())], out);
            });
            Stamp::now().since(start)
        } else {
            points(sorted, &mut self.contacts);
            Duration::ZERO
        }
    }

    /// Every contact and wall hit from each side, sorted by body then time
    /// ([`index_hits`]).
    fn index_hits(&mut self) {
        let src = HitSources {
            contacts: &self.contacts,
            walls: &self.moves.wall_hits,
            statics: &self.moves.static_hits,
        };
        index_hits(
            &src,
            &mut self.hits,
            &mut self.hit_keys,
            &mut self.hit_keys_wide,
        );
    }

    /// Step 1: boxes grouped by filter (groups numbered by first appearance), with their
    /// swept bounds `[min + min(motion, 0), max + max(motion, 0)]` ([`groups`]).
    /// With `walls` (from [`Frame::advance`]): also the boxes near them.
    fn group(&mut self, store: &BoxStore, walls: Option<Walls<'_>>) -> Result<(), Error> {
        let parallel = self.parallel(store);
        self.grouping
            .build(
                store,
                self.config.max_groups,
                parallel,
                self.config.simd,
                walls,
            )
            .map_err(|index| Error::OutOfRange {
                handle: store.handle_at(index),
                index,
                limit: MAX_COORDINATE,
            })
    }

    /// Step 2: the broad phase per pair of groups, on swept bounds.
    fn broad_phase(&mut self, store: &BoxStore) -> Result<(), Error> {
        self.candidates.clear();
        let (groups, per_box) = (&self.grouping.groups, self.grouping.per_box);
        let n = groups.len();
        for g in 0..n {
            for h in g..n {
                let (fg, fh) = (groups[g].filter, groups[h].filter);
                if !per_box && !fg.pairs_with(fh) {
                    continue;
                }
                let (gg, gh) = (&groups[g], &groups[h]);
                let found = if g == h {
                    let set = if per_box {
                        gg.boxes()
                            .with_filter_columns(store.layers(), store.masks())?
                    } else {
                        gg.boxes()
                    };
                    self.broad.find_pairs(set)
                } else {
                    self.broad.find_pairs_bipartite(gg.boxes(), gh.boxes())
                };
                let (dg, dh) = (&gg.dense, &gh.dense);
                let found = found.map_err(|e| match e {
                    // Name the box by its dense index in the store.
                    Error::InvalidBox { index, defect } => {
                        let dense = if index < dg.len() || g == h {
                            dg[index]
                        } else {
                            dh[index - dg.len()]
                        };
                        Error::InvalidBox {
                            index: dense as usize,
                            defect,
                        }
                    }
                    e => e,
                })?;
                // The lower dense index first, whichever group it came from: the swept
                // test of two shapes of one kind then sees them in one defined order
                // (its normal can depend on it where faces tie, e.g. two rotated points).
                self.candidates.extend(found.iter().map(|p| {
                    let (a, b) = (dg[p.a as usize], dh[p.b as usize]);
                    Pair::new(a.min(b), a.max(b))
                }));
            }
        }
        Ok(())
    }

    /// Step 3: boxes of one owner never collide.
    fn drop_same_owner(&mut self, store: &BoxStore) {
        let owners = store.owners();
        self.candidates.retain(|p| {
            let (a, b) = (owners[p.a as usize], owners[p.b as usize]);
            a == Owner::NONE.0 || a != b
        });
    }

    /// Step 6: began / stayed / ended, by merging this frame's sorted body pairs with
    /// the previous frame's; an ended pair is `removed` when one of its boxes is no
    /// longer in `store`.
    fn events(&mut self, store: &BoxStore) {
        self.current.clear();
        self.current.extend(self.contacts.iter().map(PairEvent::of));
        self.began.clear();
        self.stayed.clear();
        self.ended.clear();
        let (mut i, mut j) = (0, 0);
        let (prev, cur) = (&self.previous, &self.current);
        let ended = |p: &PairEvent| PairEvent {
            removed: !(store.contains(p.boxes.0) && store.contains(p.boxes.1)),
            ..*p
        };
        while i < prev.len() || j < cur.len() {
            match (prev.get(i), cur.get(j)) {
                (Some(p), Some(c)) if p.bodies == c.bodies => {
                    self.stayed.push(*c);
                    i += 1;
                    j += 1;
                }
                (Some(p), Some(c)) if p.bodies < c.bodies => {
                    self.ended.push(ended(p));
                    i += 1;
                }
                (Some(p), None) => {
                    self.ended.push(ended(p));
                    i += 1;
                }
                (_, Some(c)) => {
                    self.began.push(*c);
                    j += 1;
                }
                (None, None) => unreachable!("loop condition"),
            }
        }
        core::mem::swap(&mut self.previous, &mut self.current);
    }
}

#[cfg(test)]
mod tests;
