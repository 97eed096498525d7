//! The structure-of-arrays box store.
//!
//! ```text
//!  handle ──► slots[handle.slot] ──► dense index i ──► column entries at i
//!
//!  slots:    [ gen│dense ][ gen│dense ][ gen│free→ ][ gen│dense ] ...   (stable)
//!                  │            │                       │
//!  dense i:        0            1            2          ...             (packed)
//!  min_x     [ f32 ][ f32 ][ f32 ] ...
//!  min_y     [ f32 ][ f32 ][ f32 ] ...       four f32 columns: what the SIMD
//!  max_x     [ f32 ][ f32 ][ f32 ] ...       kernels stream through
//!  max_y     [ f32 ][ f32 ][ f32 ] ...
//!  motion_x  [ f32 ][ f32 ][ f32 ] ...       per-frame displacement (0 by default)
//!  motion_y  [ f32 ][ f32 ][ f32 ] ...
//!  layers    [ u32 ][ u32 ][ u32 ] ...       Filter::layers
//!  mask      [ u32 ][ u32 ][ u32 ] ...       Filter::mask
//!  solid     [ u32 ][ u32 ][ u32 ] ...       Filter::solid
//!  owner     [ u64 ][ u64 ][ u64 ] ...       Owner
//!  user_data [ u64 ][ u64 ][ u64 ] ...       the game's id for the box (an entity)
//!  response  [ u8  ][ u8  ][ u8  ] ...       Response: pass, stop, destroy or slide
//!  handle    [ BoxHandle ] ...               dense index → handle
//!  shape     [ u32 ][ u32 ][ u32 ] ...       0: the box itself; else its kind, and for
//!                                            a rectangle or a capsule its index into
//!                                            obbs or caps
//!  disc_x    [ f32 ][ f32 ][ f32 ] ...       a disc's centre and radius, at its dense
//!  disc_y    [ f32 ][ f32 ][ f32 ] ...       index (empty until the first disc; then
//!  disc_r    [ f32 ][ f32 ][ f32 ] ...       one entry per box, unused for the others)
//!  obbs      [ Obb2 ]   + obb_box    [ u32 ]  the oriented rectangles and their dense
//!                                            indices
//!  caps      [ Capsule ] + cap_box   [ u32 ]  the capsules and their dense indices
//!  obb_turn, cap_turn [ f32 ]                each rectangle's and capsule's turn per
//!                                            frame, in radians (0 for most)
//! ```
//!
//! A box's [`Shape`] is an axis-aligned box, a disc, an oriented rectangle or a
//! capsule. The
//! axis-aligned box is the default. The four bound columns always hold the shape's
//! bounds, as [`Shape::bounds`] makes them. So the broad phase never looks at shapes,
//! and a store of plain boxes carries only one `u32` of zero per box for its shapes.
//! Discs are the common bullet. They live in columns beside the box columns, so moving
//! them is one pass in dense order, like moving boxes.
//!
//! A rectangle or a capsule may also turn during the frame ([`BoxStore::set_turn`]).
//! Its bounds then hold it at every angle of that turn (see [`Shape::turn_bounds`]), so
//! the broad phase's swept bounds cover the turn with no extra work.
//!
//! The columns are packed. A removal moves the last box into the hole (`swap_remove`).
//! So insert, update and remove are O(1), and every column stays a contiguous slice.
//! This means that dense indices change on removal, while handles do not. Broad-phase
//! pairs are dense indices, and [`BoxStore::handle_at`] turns them back into handles.
//!
//! Every call that changes the store checks its input first and writes second. A call
//! that returns an error has left the store exactly as it was.

mod handle;
#[cfg(feature = "serde")]
mod wire;
pub use handle::{BoxHandle, Filter, Owner, Response};

use crate::error::{Error, check_len};
use crate::lanes::{F32W, SimdLevel, SimdTask, dispatch};
use crate::math::{
    Aabb, AabbColumns, Capsule, Circle, MAX_COORDINATE, MAX_TURN, MotionColumns, Obb2, Shape,
    ShapeKind, down2_finite, grow_finite, turn_capsule, turn_obb2, up2_finite, within_limit,
};
use glam::Vec2;

#[derive(Debug, Clone, Copy)]
struct Slot {
    generation: u32,
    /// The dense index while alive; the next free slot (or `u32::MAX`) while free.
    link: u32,
    alive: bool,
}

/// The properties of a box besides its bounds, for [`BoxStore::insert_with`] and
/// [`BoxStore::insert_shape`].
#[derive(Debug, Clone, Copy, PartialEq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BoxProps {
    /// Which boxes this box may pair with.
    pub filter: Filter,
    /// The game object that the box belongs to.
    pub owner: Owner,
    /// The box's displacement over this frame, which the swept tests use. It is zero
    /// for a box that stands still.
    pub motion: Vec2,
    /// What the box does at its first contact when
    /// [`Frame::advance`](crate::frame::Frame::advance) moves it. The default is
    /// [`Response::Pass`].
    pub response: Response,
    /// The game's own id for the box, such as an entity or an index into the game's
    /// tables. Contacts and events return it. The default is `0`.
    pub user_data: u64,
    /// How far the shape turns over this frame, in radians, counter-clockwise about its
    /// centre. Only oriented rectangles and capsules turn; it is `0` for every other
    /// box. See [`BoxStore::set_turn`].
    #[cfg_attr(feature = "serde", serde(default))]
    pub turn: f32,
}

impl BoxProps {
    /// Properties with `filter` and defaults for everything else.
    ///
    /// The defaults are no owner, no motion, [`Response::Pass`] and user data 0. The
    /// `with_*` methods set the other fields.
    ///
    /// ```
    /// use hantei::{BoxProps, Owner, Response, frame::layers};
    /// use glam::Vec2;
    /// let bullet = BoxProps::new(layers::enemy_bullet())
    ///     .with_motion(Vec2::new(0.0, 3.0))
    ///     .with_response(Response::Destroy)
    ///     .with_user_data(42);
    /// assert_eq!(bullet.owner, Owner::NONE);
    /// assert_eq!(BoxProps::new(hantei::Filter::ALL), BoxProps::default());
    /// ```
    #[must_use]
    pub const fn new(filter: Filter) -> Self {
        BoxProps {
            filter,
            owner: Owner::NONE,
            motion: Vec2::ZERO,
            response: Response::Pass,
            user_data: 0,
            turn: 0.0,
        }
    }

    /// Returns these properties with `owner` set.
    #[must_use]
    pub const fn with_owner(self, owner: Owner) -> Self {
        BoxProps { owner, ..self }
    }

    /// Returns these properties with `motion` set.
    #[must_use]
    pub const fn with_motion(self, motion: Vec2) -> Self {
        BoxProps { motion, ..self }
    }

    /// Returns these properties with `response` set.
    #[must_use]
    pub const fn with_response(self, response: Response) -> Self {
        BoxProps { response, ..self }
    }

    /// Returns these properties with `user_data` set.
    #[must_use]
    pub const fn with_user_data(self, user_data: u64) -> Self {
        BoxProps { user_data, ..self }
    }

    /// Returns these properties with `turn` set: the angle, in radians, that an oriented
    /// rectangle or a capsule turns over each frame. See [`BoxStore::set_turn`].
    #[must_use]
    pub const fn with_turn(self, turn: f32) -> Self {
        BoxProps { turn, ..self }
    }
}

/// A store of 2D boxes, kept as a structure of arrays, with generational handles.
///
/// Each inserted box gets a [`BoxHandle`]. The handle stays valid until the box is
/// removed, and then it stays dead. The store keeps each property in its own column,
/// such as [`BoxStore::min_x`]. The columns are plain slices in dense order. Removing a
/// box moves the last box into its place, so dense indices change but handles do not.
///
/// Every call that changes the store checks its input first. A call that returns an
/// error leaves the store exactly as it was.
///
/// ```
/// use hantei::{Aabb, BoxStore};
/// let mut store = BoxStore::new();
/// let a = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
/// let b = store.insert(Aabb::from_coords(0.5, 0.5, 2.0, 2.0))?;
/// store.update(a, Aabb::from_coords(1.0, 1.0, 3.0, 3.0))?;
/// assert_eq!(store.len(), 2);
/// store.remove(b)?;
/// assert!(store.get(b).is_none()); // a removed handle stays dead
/// assert_eq!(store.min_x(), &[1.0]); // columns are plain slices
/// // Bad input is refused and the store is untouched.
/// assert!(store.update(a, Aabb::from_coords(f32::NAN, 0.0, 1.0, 1.0)).is_err());
/// assert_eq!(store.get(a), Some(Aabb::from_coords(1.0, 1.0, 3.0, 3.0)));
/// # Ok::<(), hantei::Error>(())
/// ```
#[derive(Debug)]
pub struct BoxStore {
    min_x: Vec<f32>,
    min_y: Vec<f32>,
    max_x: Vec<f32>,
    max_y: Vec<f32>,
    motion_x: Vec<f32>,
    motion_y: Vec<f32>,
    layers: Vec<u32>,
    mask: Vec<u32>,
    /// [`Filter::solid`], per box.
    solid: Vec<u32>,
    owner: Vec<u64>,
    user_data: Vec<u64>,
    response: Vec<u8>,
    handle: Vec<BoxHandle>,
    /// Per box: [`PLAIN`], or its kind above [`KIND_SHIFT`] (and for a rectangle or a
    /// capsule its index into `obbs` or `caps` below).
    shape: Vec<u32>,
    /// The discs' centres and radii, at their boxes' dense indices: empty until the
    /// first disc, then as long as every other column (unused entries are junk).
    disc_x: Vec<f32>,
    disc_y: Vec<f32>,
    disc_r: Vec<f32>,
    /// How many boxes are discs.
    discs: usize,
    obbs: Vec<Obb2>,
    /// The dense index of each oriented rectangle's box.
    obb_box: Vec<u32>,
    caps: Vec<Capsule>,
    /// The dense index of each capsule's box.
    cap_box: Vec<u32>,
    /// Each rectangle's turn per frame, in table order.
    obb_turn: Vec<f32>,
    /// Each capsule's turn per frame, in table order.
    cap_turn: Vec<f32>,
    slots: Vec<Slot>,
    free_head: u32,
    /// No box's bounds reach beyond `±extent` on either axis: the bits of that `f32`
    /// (never NaN, so the bits order as the values do), or [`UNKNOWN`]. Every write of
    /// bounds raises it; removals leave it as it is, too large at worst.
    /// [`BoxStore::set_motions`] reads it instead of the bound columns.
    extent: u32,
    /// Whether the motion pass, which writes every box's bounds, makes [`extent`] exact
    /// again; else it leaves it [`UNKNOWN`]. Set by the first
    /// [`BoxStore::set_motions`]: a store that never takes that call never pays for
    /// its extent.
    ///
    /// [`extent`]: BoxStore::extent
    keep_extent: bool,
    /// [`BoxStore::set_motions`]' dense indices, looked up once while checking the
    /// handles (kept between calls: no allocation in a steady game).
    found: Scratch,
}

/// A buffer kept between calls. Not part of the store's contents: a clone starts
/// empty, `clone_from` keeps the target's own, and `Debug` shows nothing of it.
#[derive(Default)]
struct Scratch(Vec<u32>);

impl Clone for Scratch {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl core::fmt::Debug for Scratch {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("Scratch")
    }
}

/// A copy of the store: the same boxes, handles and free list. The copy hands out the
/// same handles as the original.
///
/// `clone_from` copies into the target's own buffers. A game that keeps a snapshot and
/// restores it every frame, as rollback netcode does, allocates nothing once the
/// target's buffers are as large as the snapshot's.
///
/// ```
/// use hantei::{Aabb, BoxStore};
/// let mut store = BoxStore::new();
/// let a = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
/// let snapshot = store.clone();
/// store.remove(a)?;
/// store.clone_from(&snapshot);
/// assert_eq!(store.get(a), Some(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)));
/// # Ok::<(), hantei::Error>(())
/// ```
impl Clone for BoxStore {
    fn clone(&self) -> Self {
        let mut copy = Self::new();
        copy.clone_from(self);
        copy
    }

    fn clone_from(&mut self, source: &Self) {
        // Every field named: a new field does not compile until it is copied here.
        let Self {
            min_x,
            min_y,
            max_x,
            max_y,
            motion_x,
            motion_y,
            layers,
            mask,
            solid,
            owner,
            user_data,
            response,
            handle,
            shape,
            disc_x,
            disc_y,
            disc_r,
            discs,
            obbs,
            obb_box,
            caps,
            cap_box,
            obb_turn,
            cap_turn,
            slots,
            free_head,
            extent,
            keep_extent,
            found: _,
        } = source;
        self.min_x.clone_from(min_x);
        self.min_y.clone_from(min_y);
        self.max_x.clone_from(max_x);
        self.max_y.clone_from(max_y);
        self.motion_x.clone_from(motion_x);
        self.motion_y.clone_from(motion_y);
        self.layers.clone_from(layers);
        self.mask.clone_from(mask);
        self.solid.clone_from(solid);
        self.owner.clone_from(owner);
        self.user_data.clone_from(user_data);
        self.response.clone_from(response);
        self.handle.clone_from(handle);
        self.shape.clone_from(shape);
        self.disc_x.clone_from(disc_x);
        self.disc_y.clone_from(disc_y);
        self.disc_r.clone_from(disc_r);
        self.discs = *discs;
        self.obbs.clone_from(obbs);
        self.obb_box.clone_from(obb_box);
        self.caps.clone_from(caps);
        self.cap_box.clone_from(cap_box);
        self.obb_turn.clone_from(obb_turn);
        self.cap_turn.clone_from(cap_turn);
        self.slots.clone_from(slots);
        self.free_head = *free_head;
        self.extent = *extent;
        self.keep_extent = *keep_extent;
    }
}

/// [`BoxStore::extent`] not known: the next [`BoxStore::set_motions`] reads the bounds
/// once to find it. Raising it by any bound leaves it unknown.
const UNKNOWN: u32 = u32::MAX;

/// The bits of `|x|` for an `f32` that is not NaN: they order as the values do.
#[inline(always)]
fn abs_bits(x: f32) -> u32 {
    x.to_bits() & 0x7fff_ffff
}

/// The largest [`abs_bits`] of a box's four bounds.
#[inline(always)]
fn bounds_bits(b: &Aabb) -> u32 {
    let [x0, y0, x1, y1] = [b.min.x, b.min.y, b.max.x, b.max.y].map(abs_bits);
    x0.max(y0).max(x1).max(y1)
}

/// The `shape` entry of a plain axis-aligned box.
pub(crate) const PLAIN: u32 = 0;
/// Where a `shape` entry keeps its [`ShapeKind`].
pub(crate) const KIND_SHIFT: u32 = 30;
/// The index part of a `shape` entry.
pub(crate) const SHAPE_INDEX: u32 = (1 << KIND_SHIFT) - 1;

/// The kind of a `shape` entry.
#[inline]
pub(crate) fn kind_of(entry: u32) -> ShapeKind {
    match entry >> KIND_SHIFT {
        0 => ShapeKind::Aabb,
        1 => ShapeKind::Circle,
        2 => ShapeKind::Obb2,
        _ => ShapeKind::Capsule,
    }
}

const NO_SLOT: u32 = u32::MAX;

/// Boxes per parallel task of [`BoxStore::apply_motion`] (256 KB of columns each).
const MOTION_BLOCK: usize = 1 << 14;

/// One axis of [`BoxStore::apply_motion`] for a store without discs: both bounds of
/// every box moved by its motion. With `KEEP`, returns the largest [`abs_bits`] of the
/// new bounds; else `0`.
#[inline]
fn move_boxes<const KEEP: bool>((lo, hi): (&mut [f32], &mut [f32]), m: &[f32]) -> u32 {
    let mut top = 0;
    for ((a, b), d) in lo.iter_mut().zip(hi.iter_mut()).zip(m) {
        *a += d;
        *b += d;
        if KEEP {
            top = top.max(abs_bits(*a)).max(abs_bits(*b));
        }
    }
    top
}

/// [`move_boxes`] on both axes, the x bounds `x` by `mx` and the y bounds `y` by `my`.
/// With `keep`, returns the largest [`abs_bits`] of the new bounds; else `0`.
#[inline]
fn move_box_axes(
    keep: bool,
    x: (&mut [f32], &mut [f32]),
    y: (&mut [f32], &mut [f32]),
    (mx, my): (&[f32], &[f32]),
) -> u32 {
    if keep {
        move_boxes::<true>(x, mx).max(move_boxes::<true>(y, my))
    } else {
        move_boxes::<false>(x, mx);
        move_boxes::<false>(y, my)
    }
}

/// One axis's columns for [`move_discs`]: shape entries, bounds, disc centres, radii
/// and motions.
type DiscAxis<'a> = (
    &'a [u32],
    (&'a mut [f32], &'a mut [f32]),
    &'a mut [f32],
    &'a [f32],
    &'a [f32],
);

/// [`move_discs`] on both axes, compiled for the SIMD level's target features (the
/// loop is plain code the compiler vectorises: the same operations, so the same bits
/// at every level).
///
/// With `keep`, it also finds the largest [`abs_bits`] of the new bounds.
struct MoveDiscs<'a> {
    axes: [DiscAxis<'a>; 2],
    keep: bool,
}

impl SimdTask for MoveDiscs<'_> {
    /// With `keep`, the largest [`abs_bits`] of the new bounds; else `0`.
    type Output = u32;

    #[inline(always)]
    fn run<W: F32W>(self) -> u32 {
        let mut top = 0;
        for (shape, bounds, centre, radius, m) in self.axes {
            top = top.max(if self.keep {
                move_discs::<true>(shape, bounds, centre, radius, m)
            } else {
                move_discs::<false>(shape, bounds, centre, radius, m)
            });
        }
        top
    }
}

/// One axis of [`BoxStore::apply_motion`] for a store with discs, in one pass the
/// compiler vectorises (no branch): a disc's centre moved by its motion and its bounds
/// made again from it, as [`Shape::bounds`] makes them (the same operations, so the
/// same bits); any other box's bounds moved by its motion. A rectangle's bounds are
/// made again afterwards from its table. With `KEEP`, returns the largest
/// [`abs_bits`] of the new bounds; else `0`.
#[inline(always)]
fn move_discs<const KEEP: bool>(
    shape: &[u32],
    (lo, hi): (&mut [f32], &mut [f32]),
    centre: &mut [f32],
    radius: &[f32],
    m: &[f32],
) -> u32 {
    let n = lo.len();
    let (hi, shape, centre, radius, m) = (
        &mut hi[..n],
        &shape[..n],
        &mut centre[..n],
        &radius[..n],
        &m[..n],
    );
    // All ones where the box is a disc.
    let pick =
        |disc: u32, a: f32, b: f32| f32::from_bits((a.to_bits() & disc) | (b.to_bits() & !disc));
    let mut top = 0;
    for i in 0..n {
        let disc = 0u32.wrapping_sub(u32::from(shape[i] >> KIND_SHIFT == 1));
        let d = m[i];
        let c = centre[i] + d;
        let r = radius[i];
        let (l, h) = (
            pick(disc, down2_finite(c - r), lo[i] + d),
            pick(disc, up2_finite(c + r), hi[i] + d),
        );
        lo[i] = l;
        hi[i] = h;
        centre[i] = pick(disc, c, centre[i]);
        if KEEP {
            top = top.max(abs_bits(l)).max(abs_bits(h));
        }
    }
    top
}

/// The same empty store as [`BoxStore::new`]. A game struct's `#[derive(Default)]`
/// calls this.
impl Default for BoxStore {
    fn default() -> Self {
        Self::new()
    }
}

impl BoxStore {
    /// An empty store.
    #[must_use]
    pub fn new() -> Self {
        Self {
            min_x: Vec::new(),
            min_y: Vec::new(),
            max_x: Vec::new(),
            max_y: Vec::new(),
            motion_x: Vec::new(),
            motion_y: Vec::new(),
            layers: Vec::new(),
            mask: Vec::new(),
            solid: Vec::new(),
            owner: Vec::new(),
            user_data: Vec::new(),
            response: Vec::new(),
            handle: Vec::new(),
            shape: Vec::new(),
            disc_x: Vec::new(),
            disc_y: Vec::new(),
            disc_r: Vec::new(),
            discs: 0,
            obbs: Vec::new(),
            obb_box: Vec::new(),
            caps: Vec::new(),
            cap_box: Vec::new(),
            obb_turn: Vec::new(),
            cap_turn: Vec::new(),
            slots: Vec::new(),
            // No free slot: `0` would name slot 0 before it exists.
            free_head: NO_SLOT,
            extent: 0,
            keep_extent: false,
            found: Scratch::default(),
        }
    }

    /// An empty store with room for `n` boxes. The number is a hint, as in
    /// [`BoxStore::reserve`].
    #[must_use]
    pub fn with_capacity(n: usize) -> Self {
        let mut s = Self::new();
        s.reserve(n);
        s
    }

    /// Makes room for `n` more boxes. The number is a hint, and this never panics.
    ///
    /// A request for more than [`MAX_BOXES`](crate::MAX_BOXES) boxes in all reserves
    /// nothing, and so does a request that the allocator refuses. Inserting later still
    /// grows the columns as needed, or reports [`Error::TooManyBoxes`].
    pub fn reserve(&mut self, n: usize) {
        if self.len().saturating_add(n) > crate::error::MAX_BOXES {
            return;
        }
        // All or nothing is not needed here: capacity is only a hint.
        for c in self.f32_columns() {
            if c.try_reserve(n).is_err() {
                return;
            }
        }
        let _ = self.layers.try_reserve(n).is_ok()
            && self.mask.try_reserve(n).is_ok()
            && self.solid.try_reserve(n).is_ok()
            && self.owner.try_reserve(n).is_ok()
            && self.user_data.try_reserve(n).is_ok()
            && self.response.try_reserve(n).is_ok()
            && self.handle.try_reserve(n).is_ok()
            && self.shape.try_reserve(n).is_ok()
            && self.slots.try_reserve(n).is_ok();
    }

    /// The number of boxes.
    #[must_use]
    pub fn len(&self) -> usize {
        self.handle.len()
    }

    /// Whether the store holds no box.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.handle.is_empty()
    }

    /// Removes every box. Every handle handed out so far becomes stale.
    pub fn clear(&mut self) {
        let handles = core::mem::take(&mut self.handle);
        for h in handles.iter().rev() {
            self.free_slot(h.slot);
        }
        self.handle = handles;
        self.handle.clear();
        for c in self.f32_columns() {
            c.clear();
        }
        self.layers.clear();
        self.mask.clear();
        self.solid.clear();
        self.owner.clear();
        self.user_data.clear();
        self.response.clear();
        self.shape.clear();
        for c in self.disc_columns() {
            c.clear();
        }
        self.discs = 0;
        self.extent = 0;
        self.obbs.clear();
        self.obb_box.clear();
        self.caps.clear();
        self.cap_box.clear();
        self.obb_turn.clear();
        self.cap_turn.clear();
    }

    /// Inserts a box with default properties and returns its handle.
    ///
    /// The defaults are [`Filter::ALL`], no owner and no motion, as in
    /// [`BoxProps::default`].
    ///
    /// # Errors
    /// - [`Error::InvalidBox`] for NaN, infinite or inverted bounds.
    /// - [`Error::OutOfRange`] when the box reaches beyond [`MAX_COORDINATE`].
    /// - [`Error::TooManyBoxes`] when the store is full.
    pub fn insert(&mut self, aabb: Aabb) -> Result<BoxHandle, Error> {
        self.insert_with(aabb, BoxProps::default())
    }

    /// Inserts a box with the given properties and returns its handle.
    ///
    /// # Errors
    /// - [`Error::InvalidBox`] for NaN, infinite or inverted bounds.
    /// - [`Error::InvalidMotion`] when the motion is NaN or infinite.
    /// - [`Error::InvalidShape`] when `props.turn` is not zero: a plain box cannot
    ///   turn.
    /// - [`Error::OutOfRange`] when the box, or the box moved by its motion, reaches
    ///   beyond [`MAX_COORDINATE`].
    /// - [`Error::TooManyBoxes`] when the store is full.
    pub fn insert_with(&mut self, aabb: Aabb, props: BoxProps) -> Result<BoxHandle, Error> {
        aabb.check(0)?;
        check_motion(props.motion, 0)?;
        check_turn(ShapeKind::Aabb, props.turn, 0)?;
        check_reach(aabb, props.motion, None, 0)?;
        self.check_room(1)?;
        Ok(self.push(aabb, props))
    }

    /// Inserts a shape with the given properties and returns its handle.
    ///
    /// The shape can be an axis-aligned box, a disc, an oriented rectangle or a capsule.
    /// The store computes the box's bounds from it with [`Shape::bounds`].
    ///
    /// It costs the shape's checks, a slot from the free list and one push onto each
    /// column: constant time. The columns grow as a `Vec` does, so reserve room once
    /// with [`BoxStore::with_capacity`] or [`BoxStore::reserve`] and a game loop that
    /// spawns bullets never reallocates.
    ///
    /// ```
    /// use hantei::{BoxProps, BoxStore, Circle, Obb2, Shape};
    /// use glam::Vec2;
    /// let mut store = BoxStore::new();
    /// let bullet = store.insert_shape(Circle::new(Vec2::new(0.0, 0.0), 2.0), BoxProps::default())?;
    /// let laser = Obb2::from_angle(Vec2::new(50.0, 0.0), Vec2::new(40.0, 1.0), 0.3);
    /// let beam = store.insert_shape(laser, BoxProps::default())?;
    /// assert_eq!(store.shape(bullet), Some(Shape::Circle(Circle::new(Vec2::ZERO, 2.0))));
    /// assert_eq!(store.shape(beam), Some(Shape::Obb2(laser)));
    /// assert!(store.get(bullet).unwrap().contains_point(Vec2::new(2.0, 0.0)));
    /// // A bad shape is refused, and the store is unchanged.
    /// assert!(store.insert_shape(Circle::new(Vec2::ZERO, f32::NAN), BoxProps::default()).is_err());
    /// assert_eq!(store.len(), 2);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// - [`Error::InvalidBox`] or [`Error::InvalidShape`] for a bad shape, as
    ///   [`Shape::validate`] finds it.
    /// - [`Error::InvalidMotion`] when the motion is NaN or infinite, or the turn is NaN,
    ///   infinite or larger than [`MAX_TURN`].
    /// - [`Error::InvalidShape`] when the turn is not zero and the shape is a plain box
    ///   or a disc: only rectangles and capsules turn.
    /// - [`Error::OutOfRange`] when the shape, or the shape moved by its motion, reaches
    ///   beyond [`MAX_COORDINATE`].
    /// - [`Error::TooManyBoxes`] when the store is full, or already holds `2^30 - 1`
    ///   oriented rectangles (or capsules) and the shape is one more.
    pub fn insert_shape(
        &mut self,
        shape: impl Into<Shape>,
        props: BoxProps,
    ) -> Result<BoxHandle, Error> {
        let shape = shape.into();
        let still = shape.checked_bounds(0)?;
        check_motion(props.motion, 0)?;
        check_turn(shape.kind(), props.turn, 0)?;
        let bounds = match props.turn {
            0.0 => still,
            turn => shape.turn_bounds(turn),
        };
        check_reach(bounds, props.motion, None, 0)?;
        self.check_room(1)?;
        self.check_shape_room(shape.kind())?;
        let h = self.push(bounds, props);
        let i = self.len() - 1;
        self.attach(i, shape, props.turn);
        Ok(h)
    }

    /// Replaces a box's shape, and its bounds with the new shape's bounds.
    ///
    /// The new shape can be of any kind, whatever the old one was. The box keeps its
    /// handle and its properties. A rectangle or a capsule that becomes a rectangle or a
    /// capsule keeps its turn; a box or a disc does not turn, so its turn becomes zero.
    ///
    /// # Errors
    /// - [`Error::StaleHandle`] when the box was removed.
    /// - [`Error::InvalidBox`] or [`Error::InvalidShape`] for a bad shape, as
    ///   [`Shape::validate`] finds it.
    /// - [`Error::OutOfRange`] when the shape, or the shape moved by the box's motion,
    ///   reaches beyond [`MAX_COORDINATE`].
    /// - [`Error::TooManyBoxes`] when the new shape is an oriented rectangle or a
    ///   capsule and the store already holds `2^30 - 1` of that kind.
    ///
    /// Nothing changes after an error.
    pub fn update_shape(&mut self, h: BoxHandle, shape: impl Into<Shape>) -> Result<(), Error> {
        let shape = shape.into();
        let i = self.dense(h)?;
        let still = shape.checked_bounds(0)?;
        let turn = match shape.kind() {
            ShapeKind::Obb2 | ShapeKind::Capsule => self.turn_at(i),
            _ => 0.0,
        };
        let bounds = match turn {
            0.0 => still,
            turn => shape.turn_bounds(turn),
        };
        check_reach(bounds, self.motion(i), Some(h), i)?;
        if kind_of(self.shape[i]) != shape.kind() {
            self.check_shape_room(shape.kind())?;
        }
        self.write(i, bounds);
        if kind_of(self.shape[i]) == shape.kind() {
            let k = (self.shape[i] & SHAPE_INDEX) as usize;
            match shape {
                Shape::Aabb(_) => {}
                Shape::Circle(c) => self.set_disc(i, c),
                Shape::Obb2(o) => self.obbs[k] = o,
                Shape::Capsule(c) => self.caps[k] = c,
            }
        } else {
            self.detach(i);
            self.attach(i, shape, turn);
        }
        Ok(())
    }

    /// The shape of box `h`, if it is alive.
    #[must_use]
    pub fn shape(&self, h: BoxHandle) -> Option<Shape> {
        self.dense(h).ok().and_then(|i| self.shape_at(i))
    }

    /// The shape of the box at dense index `i`, if there is one.
    #[must_use]
    #[inline]
    pub fn shape_at(&self, i: usize) -> Option<Shape> {
        let entry = *self.shape.get(i)?;
        let k = (entry & SHAPE_INDEX) as usize;
        Some(match kind_of(entry) {
            ShapeKind::Aabb => Shape::Aabb(self.aabb_at(i)?),
            ShapeKind::Circle => Shape::Circle(self.disc(i)),
            ShapeKind::Obb2 => Shape::Obb2(self.obbs[k]),
            ShapeKind::Capsule => Shape::Capsule(self.caps[k]),
        })
    }

    /// Every box's centre, in dense order, written into `out` (cleared first).
    ///
    /// A plain box's centre is [`Aabb::center`] of its bounds. A disc's or a
    /// rectangle's is its own `center`. A capsule's is [`Capsule::center`], the middle
    /// of its segment. So `out[i]` is the centre of [`shape_at(i)`](Self::shape_at),
    /// bit for bit.
    ///
    /// This is one pass over the columns, then one write per rectangle or capsule. It is much
    /// cheaper than calling `shape_at` for each box, for example to copy every position
    /// back to a game's entities after a frame.
    ///
    /// ```
    /// use hantei::{Aabb, BoxProps, BoxStore, Circle, Shape};
    /// use glam::Vec2;
    /// let mut store = BoxStore::new();
    /// store.insert(Aabb::from_coords(0.0, 0.0, 2.0, 4.0))?;
    /// store.insert_shape(Shape::Circle(Circle::new(Vec2::new(5.0, 5.0), 1.0)), BoxProps::default())?;
    /// let mut centers = Vec::new();
    /// store.centers_into(&mut centers);
    /// assert_eq!(centers, [Vec2::new(1.0, 2.0), Vec2::new(5.0, 5.0)]);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    pub fn centers_into(&self, out: &mut Vec<Vec2>) {
        let n = self.len();
        out.clear();
        out.resize(n, Vec2::ZERO);
        let (lo_x, lo_y) = (&self.min_x[..n], &self.min_y[..n]);
        let (hi_x, hi_y) = (&self.max_x[..n], &self.max_y[..n]);
        for (o, ((x0, x1), (y0, y1))) in out
            .iter_mut()
            .zip(lo_x.iter().zip(hi_x).zip(lo_y.iter().zip(hi_y)))
        {
            *o = Vec2::new(x0 + x1, y0 + y1) * 0.5;
        }
        if self.discs > 0 {
            let (dx, dy, shape) = (&self.disc_x[..n], &self.disc_y[..n], &self.shape[..n]);
            for (o, ((&x, &y), &kind)) in out.iter_mut().zip(dx.iter().zip(dy).zip(shape)) {
                let disc = kind >> KIND_SHIFT == ShapeKind::Circle as u32;
                *o = if disc { Vec2::new(x, y) } else { *o };
            }
        }
        for (o, &i) in self.obbs.iter().zip(&self.obb_box) {
            out[i as usize] = o.center;
        }
        for (c, &i) in self.caps.iter().zip(&self.cap_box) {
            out[i as usize] = c.center();
        }
    }

    /// Whether any box is a disc, an oriented rectangle or a capsule.
    ///
    /// When this is `false`, every box is its own bounds, and the frame takes a faster
    /// path for plain boxes.
    #[must_use]
    pub fn has_shapes(&self) -> bool {
        self.discs > 0 || !self.obbs.is_empty() || !self.caps.is_empty()
    }

    /// Inserts every box of `boxes` with the same properties, all or nothing. Returns
    /// the handles in input order.
    ///
    /// # Errors
    /// - [`Error::InvalidBox`] for the first box with NaN, infinite or inverted bounds.
    /// - [`Error::InvalidMotion`] when the motion is NaN or infinite.
    /// - [`Error::OutOfRange`] for the first box that, where it is or moved by the
    ///   motion, reaches beyond [`MAX_COORDINATE`].
    /// - [`Error::TooManyBoxes`] when the boxes do not fit in the store.
    ///
    /// The error's `index` is the box's position in `boxes`. Nothing is inserted after
    /// an error.
    pub fn insert_many(
        &mut self,
        boxes: &[Aabb],
        props: BoxProps,
    ) -> Result<Vec<BoxHandle>, Error> {
        validate_all(boxes)?;
        check_motion(props.motion, 0)?;
        for (i, &b) in boxes.iter().enumerate() {
            check_reach(b, props.motion, None, i)?;
        }
        self.check_room(boxes.len())?;
        self.reserve(boxes.len());
        Ok(boxes.iter().map(|&b| self.push(b, props)).collect())
    }

    /// Moves an axis-aligned box to new bounds.
    ///
    /// A disc, an oriented rectangle or a capsule moves with [`BoxStore::update_shape`]
    /// instead.
    ///
    /// # Errors
    /// - [`Error::StaleHandle`] when the box was removed.
    /// - [`Error::InvalidShape`] when the box is a disc, an oriented rectangle or a
    ///   capsule.
    /// - [`Error::InvalidBox`] for NaN, infinite or inverted bounds.
    /// - [`Error::OutOfRange`] when the new bounds, or the bounds moved by the box's
    ///   motion, reach beyond [`MAX_COORDINATE`].
    ///
    /// Nothing changes after an error.
    pub fn update(&mut self, h: BoxHandle, aabb: Aabb) -> Result<(), Error> {
        let i = self.dense(h)?;
        self.check_plain(i, 0)?;
        aabb.check(0)?;
        check_reach(aabb, self.motion(i), Some(h), i)?;
        self.write(i, aabb);
        Ok(())
    }

    /// Replaces the bounds of every box, in dense order, all or nothing. `boxes[i]` goes
    /// to dense index `i`.
    ///
    /// # Errors
    /// - [`Error::LengthMismatch`] unless `boxes.len() == self.len()`.
    /// - [`Error::InvalidShape`] naming the first box that is a disc, an oriented
    ///   rectangle or a capsule.
    /// - [`Error::InvalidBox`] for the first box with NaN, infinite or inverted bounds.
    /// - [`Error::OutOfRange`] for the first box that, where it is or moved by its
    ///   motion, reaches beyond [`MAX_COORDINATE`].
    ///
    /// Nothing changes after an error.
    pub fn update_all(&mut self, boxes: &[Aabb]) -> Result<(), Error> {
        check_len("update_all boxes", self.len(), boxes.len())?;
        if let Some(i) = self.shape.iter().position(|&e| e != PLAIN) {
            self.check_plain(i, i)?;
        }
        validate_all(boxes)?;
        for (i, &b) in boxes.iter().enumerate() {
            check_reach(b, self.motion(i), Some(self.handle[i]), i)?;
        }
        for (i, &b) in boxes.iter().enumerate() {
            self.write(i, b);
        }
        Ok(())
    }

    /// Sets a box's displacement for this frame.
    ///
    /// It reads the handle's slot and the box's bounds (to check the reach), and writes
    /// the two motion columns. In a large store these land on random cache lines once
    /// removals have moved boxes around. To set many motions each frame,
    /// [`BoxStore::set_motions`] takes them in one call, overlaps those reads and
    /// mostly skips the bounds.
    ///
    /// # Errors
    /// - [`Error::StaleHandle`] when the box was removed.
    /// - [`Error::InvalidMotion`] when the motion is NaN or infinite.
    /// - [`Error::OutOfRange`] when the box moved by `motion` reaches beyond [`MAX_COORDINATE`].
    ///
    /// Nothing changes after an error.
    pub fn set_motion(&mut self, h: BoxHandle, motion: Vec2) -> Result<(), Error> {
        let i = self.dense(h)?;
        check_motion(motion, 0)?;
        check_reach(self.bounds(i), motion, Some(h), i)?;
        self.motion_x[i] = motion.x;
        self.motion_y[i] = motion.y;
        Ok(())
    }

    /// Sets the displacement of each box in `handles` to the motion at the same
    /// position, all or nothing. A handle given twice gets its last motion.
    ///
    /// A game that keeps its bullets' handles in its own order calls this once a frame,
    /// instead of calling [`BoxStore::set_motion`] for each bullet. The call asks for
    /// each handle's slot and motion a few handles ahead, so the random reads of a large
    /// store overlap.
    ///
    /// The store knows how far out its boxes reach. A motion too small to take any box
    /// beyond [`MAX_COORDINATE`] needs no read of its box's bounds. So each handle
    /// costs one read of its slot and the write of its motion. The first call reads
    /// every box's bounds once to find that reach. From then on
    /// [`Frame::advance`](crate::frame::Frame::advance) keeps it up to date as it
    /// moves the boxes.
    ///
    /// The check of the handles keeps each box's place for the writes. The store holds
    /// that list between calls, so a game that calls this every frame allocates
    /// nothing after the first call.
    ///
    /// ```
    /// use hantei::{Aabb, BoxStore};
    /// use glam::Vec2;
    /// let mut store = BoxStore::new();
    /// let a = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
    /// let b = store.insert(Aabb::from_coords(5.0, 0.0, 6.0, 1.0))?;
    /// store.set_motions(&[b, a], &[Vec2::new(0.0, 2.0), Vec2::new(1.0, 0.0)])?;
    /// assert_eq!(store.props(a).unwrap().motion, Vec2::new(1.0, 0.0));
    /// // A NaN anywhere: an error, and no motion changes.
    /// assert!(store.set_motions(&[a, b], &[Vec2::ZERO, Vec2::NAN]).is_err());
    /// assert_eq!(store.props(a).unwrap().motion, Vec2::new(1.0, 0.0));
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// - [`Error::LengthMismatch`] when `handles` and `motions` differ in length.
    /// - [`Error::StaleHandle`] for a box that was removed.
    /// - [`Error::InvalidMotion`] naming the position of the first motion that is NaN
    ///   or infinite.
    /// - [`Error::OutOfRange`] when a box moved by its motion reaches beyond [`MAX_COORDINATE`].
    ///
    /// The handles are checked in order, and the first problem is reported. Nothing
    /// changes after an error.
    pub fn set_motions(&mut self, handles: &[BoxHandle], motions: &[Vec2]) -> Result<(), Error> {
        check_len("set_motions motions", handles.len(), motions.len())?;
        // One pass checks the handles (and the motions) and keeps each one's dense
        // index; one writes the motions there. Each slot is read once: in a large store
        // whose handles come in no particular order, that read is a cache miss.
        let mut found = core::mem::take(&mut self.found.0);
        found.clear();
        // A motion no larger than `limit` on each axis keeps every box of the store
        // within MAX_COORDINATE: its box's bounds need not be read. The store keeps
        // how far its boxes reach (`extent`), so this costs no pass over the bounds.
        let limit = (MAX_COORDINATE - self.extent()).next_down().next_down();
        let mut keep = |i: usize| found.push(i as u32);
        let slots = self.slots.as_slice();
        let checked = if all_within(motions, limit) {
            // Every motion is valid and needs no bounds read: only the handles to check.
            each_dense(slots, handles, motions, &[], |_, _, i| {
                keep(i);
                Ok(())
            })
        } else {
            let (x0, y0, x1, y1) = (&self.min_x, &self.min_y, &self.max_x, &self.max_y);
            let ask = [x0, y0, x1, y1].map(|c| c.as_ptr());
            each_dense(slots, handles, motions, &ask, |k, m, i| {
                check_motion(m, k)?;
                if m.x.abs() > limit || m.y.abs() > limit {
                    let b = Aabb::from_coords(x0[i], y0[i], x1[i], y1[i]);
                    check_reach(b, m, Some(handles[k]), i)?;
                }
                keep(i);
                Ok(())
            })
        };
        if checked.is_ok() {
            // Every handle is alive and every motion valid: only writes now.
            self.write_motions(&found, motions);
        }
        self.found.0 = found;
        checked
    }

    /// `motions[k]` as the motion of the box at dense index `found[k]`, each box's
    /// lines asked for a few boxes before.
    fn write_motions(&mut self, found: &[u32], motions: &[Vec2]) {
        const AHEAD: usize = 16;
        let (mx, my) = (&mut self.motion_x, &mut self.motion_y);
        let (px, py) = (mx.as_ptr(), my.as_ptr());
        let ask = |i: u32| {
            crate::lanes::prefetch(px.wrapping_add(i as usize));
            crate::lanes::prefetch(py.wrapping_add(i as usize));
        };
        found.iter().take(AHEAD).copied().for_each(ask);
        for (k, (&i, m)) in found.iter().zip(motions).enumerate() {
            if let Some(&j) = found.get(k + AHEAD) {
                ask(j);
            }
            mx[i as usize] = m.x;
            my[i as usize] = m.y;
        }
    }

    /// Sets every box's displacement, in dense order, all or nothing. `motions[i]` goes
    /// to dense index `i`.
    ///
    /// # Errors
    /// - [`Error::LengthMismatch`] unless `motions.len() == self.len()`.
    /// - [`Error::InvalidMotion`] for the first motion that is NaN or infinite.
    /// - [`Error::OutOfRange`] for the first box that, moved by its motion, reaches
    ///   beyond [`MAX_COORDINATE`].
    ///
    /// Nothing changes after an error.
    pub fn set_motion_all(&mut self, motions: &[Vec2]) -> Result<(), Error> {
        check_len("set_motion_all motions", self.len(), motions.len())?;
        for (i, m) in motions.iter().enumerate() {
            check_motion(*m, i)?;
            check_reach(self.bounds(i), *m, Some(self.handle[i]), i)?;
        }
        for (i, m) in motions.iter().enumerate() {
            self.motion_x[i] = m.x;
            self.motion_y[i] = m.y;
        }
        Ok(())
    }

    /// Sets how far a box's shape turns over each frame, in radians, counter-clockwise
    /// about its centre. Only an oriented rectangle ([`Obb2`], about its `center`) or a
    /// capsule (about the middle of its segment) turns.
    ///
    /// The turn is an angular motion. Like the motion it stays until it is set again,
    /// and [`Frame::advance`](crate::frame::Frame::advance) turns the shape by it each
    /// frame. The swept tests find the first contact anywhere along the turn, so a
    /// laser that sweeps the screen in a few frames still hits what it passes over.
    /// While the turn is not zero, the box's bounds hold the shape at every angle of
    /// one frame's turn.
    ///
    /// ```
    /// use hantei::{BoxProps, BoxStore, Capsule, Circle, Filter};
    /// use hantei::frame::Frame;
    /// use glam::Vec2;
    /// let mut store = BoxStore::new();
    /// // A laser along +x from the origin, and a bullet at 0.5 rad, 60 units out.
    /// let laser = store.insert_shape(
    ///     Capsule::new(Vec2::new(-100.0, 0.0), Vec2::new(100.0, 0.0), 1.0),
    ///     BoxProps::new(Filter::ALL),
    /// )?;
    /// let at = Vec2::new(0.5f32.cos(), 0.5f32.sin()) * 60.0;
    /// store.insert_shape(Circle::new(at, 2.0), BoxProps::new(Filter::ALL))?;
    /// store.set_turn(laser, 1.0)?; // one radian a frame
    /// let mut frame = Frame::new();
    /// let report = frame.step(&store)?;
    /// assert_eq!(report.contacts.len(), 1);
    /// // A little before half a radian: the beam and the bullet have widths.
    /// let toi = report.contacts[0].toi;
    /// assert!(toi > 0.4 && toi < 0.5);
    /// // A plain box or a disc cannot turn.
    /// let b = store.insert(hantei::Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
    /// assert!(store.set_turn(b, 1.0).is_err());
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// - [`Error::StaleHandle`] when the box was removed.
    /// - [`Error::InvalidMotion`] when `turn` is NaN, infinite, or larger than
    ///   [`MAX_TURN`] either way.
    /// - [`Error::InvalidShape`] when `turn` is not zero and the box is a plain box or a
    ///   disc.
    /// - [`Error::OutOfRange`] when the shape's bounds over the turn, moved by the
    ///   box's motion, reach beyond [`MAX_COORDINATE`].
    ///
    /// Nothing changes after an error.
    pub fn set_turn(&mut self, h: BoxHandle, turn: f32) -> Result<(), Error> {
        let i = self.dense(h)?;
        let entry = self.shape[i];
        check_turn(kind_of(entry), turn, 0)?;
        let Some(shape) = self.shape_at(i) else {
            return Err(Error::StaleHandle);
        };
        let bounds = shape.turn_bounds(turn);
        check_reach(bounds, self.motion(i), Some(h), i)?;
        let k = (entry & SHAPE_INDEX) as usize;
        match kind_of(entry) {
            ShapeKind::Obb2 => self.obb_turn[k] = turn,
            ShapeKind::Capsule => self.cap_turn[k] = turn,
            // Checked above: a box or a disc only takes a turn of zero.
            ShapeKind::Aabb | ShapeKind::Circle => return Ok(()),
        }
        self.write(i, bounds);
        Ok(())
    }

    /// How far box `h` turns over each frame, in radians ([`BoxStore::set_turn`]), if
    /// it is alive. It is `0` for a box that does not turn.
    #[must_use]
    pub fn turn(&self, h: BoxHandle) -> Option<f32> {
        self.dense(h).ok().map(|i| self.turn_at(i))
    }

    /// The turn of the box at dense index `i` (in range).
    #[inline]
    pub(crate) fn turn_at(&self, i: usize) -> f32 {
        let entry = self.shape[i];
        let k = (entry & SHAPE_INDEX) as usize;
        match kind_of(entry) {
            ShapeKind::Obb2 => self.obb_turn[k],
            ShapeKind::Capsule => self.cap_turn[k],
            ShapeKind::Aabb | ShapeKind::Circle => 0.0,
        }
    }

    /// Sets a box's collision filter.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when the box was removed.
    pub fn set_filter(&mut self, h: BoxHandle, filter: Filter) -> Result<(), Error> {
        let i = self.dense(h)?;
        self.layers[i] = filter.layers;
        self.mask[i] = filter.mask;
        self.solid[i] = filter.solid;
        Ok(())
    }

    /// Sets a box's owner.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when the box was removed.
    pub fn set_owner(&mut self, h: BoxHandle, owner: Owner) -> Result<(), Error> {
        let i = self.dense(h)?;
        self.owner[i] = owner.0;
        Ok(())
    }

    /// Sets a box's response to its first contact in
    /// [`Frame::advance`](crate::frame::Frame::advance).
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when the box was removed.
    pub fn set_response(&mut self, h: BoxHandle, response: Response) -> Result<(), Error> {
        let i = self.dense(h)?;
        self.response[i] = response as u8;
        Ok(())
    }

    /// Sets the game's id for a box. Contacts and events return it.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when the box was removed.
    pub fn set_user_data(&mut self, h: BoxHandle, user_data: u64) -> Result<(), Error> {
        let i = self.dense(h)?;
        self.user_data[i] = user_data;
        Ok(())
    }

    /// Removes a box of any shape and returns its bounds.
    ///
    /// The last box in dense order takes the removed box's dense index. The handle
    /// becomes stale.
    ///
    /// It costs one read of the handle's slot and one swap with the last box in each
    /// column: constant time. [`Frame::advance`](crate::frame::Frame::advance) removes
    /// the boxes it destroys in one batch instead, column by column.
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when the box was already removed.
    pub fn remove(&mut self, h: BoxHandle) -> Result<Aabb, Error> {
        let i = self.dense(h)?;
        let aabb = self.aabb_at(i).expect("dense index is in range");
        self.detach(i);
        for c in self.f32_columns() {
            c.swap_remove(i);
        }
        for c in self.disc_columns() {
            if !c.is_empty() {
                c.swap_remove(i);
            }
        }
        self.layers.swap_remove(i);
        self.mask.swap_remove(i);
        self.solid.swap_remove(i);
        self.owner.swap_remove(i);
        self.user_data.swap_remove(i);
        self.response.swap_remove(i);
        self.handle.swap_remove(i);
        self.shape.swap_remove(i);
        if let Some(moved) = self.handle.get(i) {
            self.slots[moved.slot as usize].link = i as u32;
            self.set_back_link(i);
        }
        self.free_slot(h.slot);
        Ok(aabb)
    }

    /// Removes many boxes at once, all or nothing.
    ///
    /// The boxes left keep their handles, shapes and properties, as after
    /// [`BoxStore::remove`] on each. The dense order left behind is fixed by the set
    /// of boxes removed, not by the order of `handles`: the box with the highest dense
    /// index leaves first, and the last box that stays fills each hole. This is the
    /// order in which [`Frame::advance`](crate::frame::Frame::advance) removes the boxes
    /// it destroys.
    ///
    /// A handle may appear more than once, as a bullet that hit two things does in a
    /// list of the dead. Its box is removed once.
    ///
    /// It costs a read of each handle's slot and a sort of their dense indices, then
    /// one pass per column. On a large store each removed box waits on a line of every
    /// column. One call lets those waits overlap, so it costs less than a
    /// [`BoxStore::remove`] for each box.
    ///
    /// ```
    /// use hantei::{Aabb, BoxStore};
    /// let mut store = BoxStore::new();
    /// let h: Vec<_> = (0..5)
    ///     .map(|k| store.insert(Aabb::from_coords(k as f32, 0.0, k as f32 + 1.0, 1.0)))
    ///     .collect::<Result<_, _>>()?;
    /// // A handle given twice is removed once.
    /// store.remove_many(&[h[3], h[0], h[3]])?;
    /// assert_eq!(store.len(), 3);
    /// assert!(!store.contains(h[0]) && store.contains(h[1]));
    /// // A removed handle: an error, and nothing is removed.
    /// assert!(store.remove_many(&[h[1], h[0]]).is_err());
    /// assert_eq!(store.len(), 3);
    /// # Ok::<(), hantei::Error>(())
    /// ```
    ///
    /// # Errors
    /// [`Error::StaleHandle`] when a box was already removed. Nothing is removed then.
    pub fn remove_many(&mut self, handles: &[BoxHandle]) -> Result<(), Error> {
        let mut doomed = Vec::with_capacity(handles.len());
        for &h in handles {
            doomed.push(self.dense(h)? as u32);
        }
        doomed.sort_unstable();
        doomed.dedup();
        self.remove_sorted(&doomed, false);
        Ok(())
    }

    /// Removes the boxes at dense indices `doomed` (ascending, each once, all in
    /// range), as [`BoxStore::remove`] on each in that order would but for the dense
    /// order left behind: here the highest goes first, so that a box swapped into a
    /// hole is never one to remove. Their slots are freed in `doomed`'s order. Column
    /// by column, so that each column's writes stay in cache; with `parallel` and many
    /// doomed, the plain columns as tasks on rayon's current pool (the same swaps on
    /// any thread). Returns whether there were that many (whether the columns would
    /// run on the pool in a parallel frame).
    pub(crate) fn remove_sorted(&mut self, doomed: &[u32], parallel: bool) -> bool {
        let many = doomed.len() >= 256;
        let parallel = parallel && many && rayon::current_num_threads() > 1;
        debug_assert!(doomed.windows(2).all(|w| w[0] < w[1]));
        debug_assert!(doomed.last().is_none_or(|&i| (i as usize) < self.len()));
        // The doomed are far apart in a large store: each loop asks for the lines it
        // reads AHEAD removals before (a slot's line once its handle's line came).
        const AHEAD: usize = 16;
        let ask = |v: &[u32], i: usize| crate::lanes::prefetch(v.as_ptr().wrapping_add(i));
        let ask_slot = |s: &Self, i: usize| {
            if let Some(h) = s.handle.get(i) {
                crate::lanes::prefetch(s.slots.as_ptr().wrapping_add(h.slot as usize));
            }
        };
        for (k, &i) in doomed.iter().enumerate() {
            if let Some(&next) = doomed.get(k + 2 * AHEAD) {
                crate::lanes::prefetch(self.handle.as_ptr().wrapping_add(next as usize));
            }
            if let Some(&next) = doomed.get(k + AHEAD) {
                ask_slot(self, next as usize);
            }
            self.free_slot(self.handle[i as usize].slot);
        }
        let n = self.len();
        for (r, &i) in doomed.iter().rev().enumerate() {
            // Removal `r` reads the box at `i` and the last box, at `n - 1 - r`.
            if let Some(&next) = doomed.len().checked_sub(r + 1 + AHEAD).map(|k| &doomed[k]) {
                ask(&self.shape, next as usize);
                crate::lanes::prefetch(self.handle.as_ptr().wrapping_add(next as usize));
            }
            if let Some(last) = n.checked_sub(r + 1 + AHEAD) {
                ask_slot(self, last);
                ask(&self.shape, last);
            }
            let i = i as usize;
            self.detach(i);
            self.shape.swap_remove(i);
            self.handle.swap_remove(i);
            if let Some(moved) = self.handle.get(i) {
                self.slots[moved.slot as usize].link = i as u32;
                self.set_back_link(i);
            }
        }
        // The plain columns: each one the same swaps, independent of the others. The
        // disc columns are empty when the store holds no disc.
        let mut columns = [
            Column::F32(&mut self.min_x),
            Column::F32(&mut self.min_y),
            Column::F32(&mut self.max_x),
            Column::F32(&mut self.max_y),
            Column::F32(&mut self.motion_x),
            Column::F32(&mut self.motion_y),
            Column::F32(&mut self.disc_x),
            Column::F32(&mut self.disc_y),
            Column::F32(&mut self.disc_r),
            Column::U32(&mut self.layers),
            Column::U32(&mut self.mask),
            Column::U32(&mut self.solid),
            Column::U64(&mut self.owner),
            Column::U64(&mut self.user_data),
            Column::U8(&mut self.response),
        ];
        let remove = |c: &mut Column<'_>| match c {
            Column::F32(c) if c.is_empty() => {}
            Column::F32(c) => remove_all(c, doomed),
            Column::U32(c) => remove_all(c, doomed),
            Column::U64(c) => remove_all(c, doomed),
            Column::U8(c) => remove_all(c, doomed),
        };
        if parallel {
            crate::pool::for_each_part(&mut columns, &|_, c| remove(c));
        } else {
            columns.iter_mut().for_each(remove);
        }
        many
    }

    /// The six `f32` columns (the bounds, then the motion), for what is done to each
    /// alike.
    fn f32_columns(&mut self) -> [&mut Vec<f32>; 6] {
        [
            &mut self.min_x,
            &mut self.min_y,
            &mut self.max_x,
            &mut self.max_y,
            &mut self.motion_x,
            &mut self.motion_y,
        ]
    }

    /// The three disc columns (empty, or one entry per box).
    fn disc_columns(&mut self) -> [&mut Vec<f32>; 3] {
        [&mut self.disc_x, &mut self.disc_y, &mut self.disc_r]
    }

    /// The disc of the box at dense index `i` (a disc).
    #[inline]
    fn disc(&self, i: usize) -> Circle {
        Circle::new(Vec2::new(self.disc_x[i], self.disc_y[i]), self.disc_r[i])
    }

    /// Writes `c` into the disc columns at dense index `i` (allocated).
    #[inline]
    fn set_disc(&mut self, i: usize, c: Circle) {
        self.disc_x[i] = c.center.x;
        self.disc_y[i] = c.center.y;
        self.disc_r[i] = c.radius;
    }

    /// Whether `h` refers to a box in this store.
    #[must_use]
    pub fn contains(&self, h: BoxHandle) -> bool {
        self.dense(h).is_ok()
    }

    /// The bounds of box `h`, if it is alive.
    #[must_use]
    pub fn get(&self, h: BoxHandle) -> Option<Aabb> {
        self.dense(h).ok().and_then(|i| self.aabb_at(i))
    }

    /// The properties of box `h`, if it is alive.
    #[must_use]
    pub fn props(&self, h: BoxHandle) -> Option<BoxProps> {
        let i = self.dense(h).ok()?;
        Some(BoxProps {
            filter: Filter::new(self.layers[i], self.mask[i]).with_solid(self.solid[i]),
            owner: Owner(self.owner[i]),
            motion: Vec2::new(self.motion_x[i], self.motion_y[i]),
            response: Response::from_u8(self.response[i]),
            user_data: self.user_data[i],
            turn: self.turn_at(i),
        })
    }

    /// The dense index of box `h`, if it is alive. The dense index is the box's
    /// position in every column.
    #[must_use]
    pub fn index_of(&self, h: BoxHandle) -> Option<usize> {
        self.dense(h).ok()
    }

    /// The handle of the box at dense index `i`, if there is one.
    #[must_use]
    pub fn handle_at(&self, i: usize) -> Option<BoxHandle> {
        self.handle.get(i).copied()
    }

    /// The bounds of the box at dense index `i`, if there is one.
    #[must_use]
    pub fn aabb_at(&self, i: usize) -> Option<Aabb> {
        (i < self.len())
            .then(|| Aabb::from_coords(self.min_x[i], self.min_y[i], self.max_x[i], self.max_y[i]))
    }

    /// Every box as a `(handle, bounds)` pair, in dense order.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (BoxHandle, Aabb)> + '_ {
        (0..self.len()).map(|i| {
            (
                self.handle[i],
                Aabb::from_coords(self.min_x[i], self.min_y[i], self.max_x[i], self.max_y[i]),
            )
        })
    }

    /// The column of `min.x`, in dense order.
    #[must_use]
    pub fn min_x(&self) -> &[f32] {
        &self.min_x
    }
    /// The column of `min.y`, in dense order.
    #[must_use]
    pub fn min_y(&self) -> &[f32] {
        &self.min_y
    }
    /// The column of `max.x`, in dense order.
    #[must_use]
    pub fn max_x(&self) -> &[f32] {
        &self.max_x
    }
    /// The column of `max.y`, in dense order.
    #[must_use]
    pub fn max_y(&self) -> &[f32] {
        &self.max_y
    }
    /// The column of each box's x displacement this frame, in dense order.
    #[must_use]
    pub fn motion_x(&self) -> &[f32] {
        &self.motion_x
    }
    /// The column of each box's y displacement this frame, in dense order.
    #[must_use]
    pub fn motion_y(&self) -> &[f32] {
        &self.motion_y
    }
    /// The column of [`Filter::layers`], in dense order.
    #[must_use]
    pub fn layers(&self) -> &[u32] {
        &self.layers
    }
    /// The column of [`Filter::mask`], in dense order.
    #[must_use]
    pub fn masks(&self) -> &[u32] {
        &self.mask
    }
    /// The column of [`Filter::solid`], in dense order.
    #[must_use]
    pub fn solids(&self) -> &[u32] {
        &self.solid
    }
    /// The column of [`Owner`] ids, in dense order.
    #[must_use]
    pub fn owners(&self) -> &[u64] {
        &self.owner
    }
    /// The column of the game's ids, [`BoxProps::user_data`], in dense order.
    #[must_use]
    pub fn user_data(&self) -> &[u64] {
        &self.user_data
    }
    /// The column of [`Response`]s, in dense order.
    ///
    /// Each response is a `u8`: 0 for pass, 1 for stop, 2 for destroy and 3 for slide.
    #[must_use]
    pub fn responses(&self) -> &[u8] {
        &self.response
    }
    /// The column of handles, in dense order. It maps a dense index to its box's
    /// handle.
    #[must_use]
    pub fn handles(&self) -> &[BoxHandle] {
        &self.handle
    }

    fn dense(&self, h: BoxHandle) -> Result<usize, Error> {
        dense_of(&self.slots, h)
    }

    /// [`Error::InvalidShape`] (naming `index`) unless the box at `i` is a plain box.
    fn check_plain(&self, i: usize, index: usize) -> Result<(), Error> {
        if self.shape[i] == PLAIN {
            Ok(())
        } else {
            Err(Error::InvalidShape {
                index,
                reason: "a disc, an oriented rectangle or a capsule moves with update_shape, \
                         not with new bounds",
            })
        }
    }

    /// Room for one more shape of `kind`: a rectangle or a capsule needs a table index
    /// below `2^30` (discs live in columns: no limit beyond the store's).
    fn check_shape_room(&self, kind: ShapeKind) -> Result<(), Error> {
        let n = match kind {
            ShapeKind::Aabb => return Ok(()),
            ShapeKind::Circle => return Ok(()),
            ShapeKind::Obb2 => self.obbs.len(),
            ShapeKind::Capsule => self.caps.len(),
        };
        if n >= SHAPE_INDEX as usize {
            return Err(Error::TooManyBoxes { requested: n + 1 });
        }
        Ok(())
    }

    /// Gives the box at dense index `i` (a plain box) `shape`, appending to its table,
    /// with `turn` for a rectangle or a capsule (checked by the caller).
    fn attach(&mut self, i: usize, shape: Shape, turn: f32) {
        self.shape[i] = match shape {
            Shape::Aabb(_) => PLAIN,
            Shape::Circle(c) => {
                if self.disc_r.is_empty() {
                    let n = self.len();
                    for col in self.disc_columns() {
                        col.resize(n, 0.0);
                    }
                }
                self.set_disc(i, c);
                self.discs += 1;
                1 << KIND_SHIFT
            }
            Shape::Obb2(o) => {
                self.obbs.push(o);
                self.obb_box.push(i as u32);
                self.obb_turn.push(turn);
                (2 << KIND_SHIFT) | (self.obbs.len() - 1) as u32
            }
            Shape::Capsule(c) => {
                self.caps.push(c);
                self.cap_box.push(i as u32);
                self.cap_turn.push(turn);
                (3 << KIND_SHIFT) | (self.caps.len() - 1) as u32
            }
        };
    }

    /// Makes the box at dense index `i` a plain box again: its table entry is removed
    /// (the table's last entry takes its place, and that entry's box is told).
    fn detach(&mut self, i: usize) {
        let entry = self.shape[i];
        let k = (entry & SHAPE_INDEX) as usize;
        let moved_box = match kind_of(entry) {
            ShapeKind::Aabb => return,
            ShapeKind::Circle => {
                self.discs -= 1;
                None
            }
            ShapeKind::Obb2 => {
                self.obbs.swap_remove(k);
                self.obb_box.swap_remove(k);
                self.obb_turn.swap_remove(k);
                self.obb_box.get(k)
            }
            ShapeKind::Capsule => {
                self.caps.swap_remove(k);
                self.cap_box.swap_remove(k);
                self.cap_turn.swap_remove(k);
                self.cap_box.get(k)
            }
        };
        if let Some(&b) = moved_box {
            self.shape[b as usize] = (entry & !SHAPE_INDEX) | k as u32;
        }
        self.shape[i] = PLAIN;
    }

    /// Points the table entry of the box now at dense index `i` back at `i`.
    fn set_back_link(&mut self, i: usize) {
        let entry = self.shape[i];
        let k = (entry & SHAPE_INDEX) as usize;
        match kind_of(entry) {
            ShapeKind::Aabb | ShapeKind::Circle => {}
            ShapeKind::Obb2 => self.obb_box[k] = i as u32,
            ShapeKind::Capsule => self.cap_box[k] = i as u32,
        }
    }

    /// Moves every box by its motion, except the boxes in `held`, which get the shapes
    /// given there (of their own kind): bounds, discs, rectangles and capsules alike, each exactly
    /// as [`Shape::translated`] and [`Shape::bounds`] would. The caller
    /// ([`Frame::advance`](crate::frame::Frame::advance)) has checked that every moved box
    /// stays within the frame's coordinate range, so nothing becomes invalid.
    ///
    /// `parallel` (and a pool of more than one thread): blocks of [`MOTION_BLOCK`] boxes
    /// on rayon's pool (the same additions, so the same bits).
    pub(crate) fn apply_motion(&mut self, held: &[(u32, Shape)], parallel: bool, simd: SimdLevel) {
        let parallel = parallel && rayon::current_num_threads() > 1;
        let n = self.len();
        let discs = !self.disc_r.is_empty();
        let keep = self.keep_extent;
        let (x0, y0, x1, y1) = (
            &mut self.min_x[..],
            &mut self.min_y[..],
            &mut self.max_x[..],
            &mut self.max_y[..],
        );
        let (mx, my) = (&self.motion_x[..], &self.motion_y[..]);
        let (shape, cx, cy, r) = (
            &self.shape[..],
            &mut self.disc_x[..],
            &mut self.disc_y[..],
            &self.disc_r[..],
        );
        // On a pool of one thread, the serial loops: one pass per axis over whole
        // columns was faster than the same additions block by block (1M boxes: the
        // motion, the walk and the removals 0.83 → 0.61–0.72 ms serially, no change in
        // blocks).
        let top = if parallel {
            // Block `k` of every column to one job.
            let b = MOTION_BLOCK;
            let block = |k: usize| crate::pool::chunk(k, b, n);
            let mut bounds: Vec<_> = x0
                .chunks_mut(b)
                .zip(x1.chunks_mut(b))
                .zip(y0.chunks_mut(b).zip(y1.chunks_mut(b)))
                .collect();
            // Each block's largest bound, in block order (a maximum: the same whatever
            // the order).
            let mut tops = Vec::new();
            if discs {
                let mut centres: Vec<_> = cx.chunks_mut(b).zip(cy.chunks_mut(b)).collect();
                let mut parts: Vec<_> = bounds.iter_mut().zip(&mut centres).collect();
                crate::pool::map_parts(
                    &mut parts,
                    &|k, (((x0, x1), (y0, y1)), (cx, cy))| {
                        let (e, r) = (&shape[block(k)], &r[block(k)]);
                        let (mx, my) = (&mx[block(k)], &my[block(k)]);
                        dispatch(
                            simd,
                            MoveDiscs {
                                axes: [
                                    (e, (&mut **x0, &mut **x1), &mut **cx, r, mx),
                                    (e, (&mut **y0, &mut **y1), &mut **cy, r, my),
                                ],
                                keep,
                            },
                        )
                    },
                    &mut tops,
                );
            } else {
                crate::pool::map_parts(
                    &mut bounds,
                    &|k, ((x0, x1), (y0, y1))| {
                        let m = (&mx[block(k)], &my[block(k)]);
                        move_box_axes(keep, (x0, x1), (y0, y1), m)
                    },
                    &mut tops,
                );
            }
            tops.into_iter().max().unwrap_or(0)
        } else if discs {
            let task = MoveDiscs {
                axes: [(shape, (x0, x1), cx, r, mx), (shape, (y0, y1), cy, r, my)],
                keep,
            };
            dispatch(simd, task)
        } else {
            move_box_axes(keep, (x0, x1), (y0, y1), (mx, my))
        };
        debug_assert_eq!(x0.len(), n);
        // Every box's bounds were just written: the extent is exact again (the tables'
        // shapes and the held boxes raise it below), or unknown.
        self.extent = if keep { top } else { UNKNOWN };
        if keep {
            self.move_obbs::<true>(parallel);
            self.move_caps::<true>(parallel);
        } else {
            self.move_obbs::<false>(parallel);
            self.move_caps::<false>(parallel);
        }
        for &(i, shape) in held {
            let i = i as usize;
            let k = (self.shape[i] & SHAPE_INDEX) as usize;
            match shape {
                Shape::Aabb(_) => {}
                Shape::Circle(c) => self.set_disc(i, c),
                Shape::Obb2(o) => self.obbs[k] = o,
                Shape::Capsule(c) => self.caps[k] = c,
            }
            let turn = self.turn_at(i);
            self.write(i, shape.turn_bounds(turn));
        }
    }

    /// The four bound columns, for [`move_table`]'s jobs.
    fn bounds_out(&mut self) -> BoundsOut {
        BoundsOut::of([
            &mut self.min_x,
            &mut self.min_y,
            &mut self.max_x,
            &mut self.max_y,
        ])
    }

    /// The oriented rectangles turned by their turns and moved by their boxes' motions,
    /// and their boxes' bounds made again from them ([`Shape::turn_bounds`]), in one
    /// pass over the table ([`move_table`]); with `KEEP`, the extent raised by those
    /// bounds.
    fn move_obbs<const KEEP: bool>(&mut self, parallel: bool) {
        let out = self.bounds_out();
        let motion = (&self.motion_x[..], &self.motion_y[..]);
        let step = |o: &mut Obb2, turn: f32, m: Vec2| {
            if turn != 0.0 {
                *o = turn_obb2(o, turn);
            }
            o.center += m;
            if turn != 0.0 {
                Shape::Obb2(*o).turn_bounds(turn)
            } else {
                // The store's shapes are finite: no NaN check, no branch.
                grow_finite(o.aabb())
            }
        };
        let table = (&mut self.obbs[..], &self.obb_box[..], &self.obb_turn[..]);
        let top = move_table::<_, KEEP>(table, motion, out, parallel, &step);
        self.extent = self.extent.max(top);
    }

    /// The capsules turned by their turns and moved by their boxes' motions, and their
    /// boxes' bounds made again from them ([`Shape::turn_bounds`]), in one pass over
    /// the table ([`move_table`]); with `KEEP`, the extent raised by those bounds.
    fn move_caps<const KEEP: bool>(&mut self, parallel: bool) {
        let out = self.bounds_out();
        let motion = (&self.motion_x[..], &self.motion_y[..]);
        let step = |c: &mut Capsule, turn: f32, m: Vec2| {
            if turn != 0.0 {
                *c = turn_capsule(c, turn);
            }
            *c = c.translated(m);
            if turn != 0.0 {
                Shape::Capsule(*c).turn_bounds(turn)
            } else {
                // The store's shapes are finite: no NaN check, no branch.
                grow_finite(c.aabb())
            }
        };
        let table = (&mut self.caps[..], &self.cap_box[..], &self.cap_turn[..]);
        let top = move_table::<_, KEEP>(table, motion, out, parallel, &step);
        self.extent = self.extent.max(top);
    }

    /// Each box's `shape` entry, in dense order ([`PLAIN`], or kind and table index).
    pub(crate) fn shape_entries(&self) -> &[u32] {
        &self.shape
    }

    /// Asks for the lines that [`BoxStore::shape_at`] and the motion of the box at dense
    /// index `i` read (a hint: any `i` will do). An oriented rectangle's table entry is
    /// not asked for.
    #[inline]
    pub(crate) fn prefetch_shape(&self, i: usize) {
        let at = |col: &[f32]| crate::lanes::prefetch(col.as_ptr().wrapping_add(i));
        crate::lanes::prefetch(self.shape.as_ptr().wrapping_add(i));
        for col in [&self.min_x, &self.min_y, &self.max_x, &self.max_y] {
            at(col);
        }
        for col in [&self.disc_x, &self.disc_y, &self.disc_r] {
            at(col);
        }
        at(&self.motion_x);
        at(&self.motion_y);
    }

    /// The disc columns (centres' x and y, radii) in dense order: empty while no box
    /// has been a disc, else one entry per box, meaningful where the box is a disc.
    pub(crate) fn disc_columns_ref(&self) -> [&[f32]; 3] {
        [&self.disc_x, &self.disc_y, &self.disc_r]
    }

    /// The oriented rectangles, in table order, and the dense index of each one's box.
    pub(crate) fn obb_table(&self) -> (&[Obb2], &[u32]) {
        (&self.obbs, &self.obb_box)
    }

    /// The capsules, in table order, and the dense index of each one's box.
    pub(crate) fn capsule_table(&self) -> (&[Capsule], &[u32]) {
        (&self.caps, &self.cap_box)
    }

    /// Each rectangle's turn and each capsule's turn, in table order.
    pub(crate) fn turn_tables(&self) -> (&[f32], &[f32]) {
        (&self.obb_turn, &self.cap_turn)
    }

    /// Whether any rectangle or capsule turns.
    pub(crate) fn has_turns(&self) -> bool {
        self.obb_turn
            .iter()
            .chain(&self.cap_turn)
            .any(|&t| t != 0.0)
    }

    fn check_room(&self, extra: usize) -> Result<(), Error> {
        let total = self.len().saturating_add(extra);
        // Room in dense indices, and in slots when none is free (retired slots are lost).
        if total > crate::error::MAX_BOXES {
            return Err(Error::TooManyBoxes { requested: total });
        }
        Ok(())
    }

    /// No box's bounds reach beyond `±extent` on either axis (see the field
    /// [`BoxStore::extent`]). From now on the motion pass keeps it; the first call, and
    /// any after a motion pass that did not keep it, reads the bounds once.
    fn extent(&mut self) -> f32 {
        self.keep_extent = true;
        if self.extent == UNKNOWN {
            self.extent = self.scan_extent().to_bits();
        }
        f32::from_bits(self.extent)
    }

    /// Whether [`BoxStore::extent`] holds: unknown, or no box's bounds beyond it. The
    /// store checks of `check` call it after every operation.
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn extent_holds(&self) -> bool {
        self.extent == UNKNOWN || self.scan_extent() <= f32::from_bits(self.extent)
    }

    /// Makes the motion pass keep [`BoxStore::extent`] from now on, as the first
    /// [`BoxStore::set_motions`] does: for the checks, which compare both ways.
    #[cfg(any(test, feature = "fuzzing"))]
    pub(crate) fn keep_extent(&mut self) {
        self.extent();
    }

    /// The largest absolute value of any box's bounds, `0` for an empty store: every
    /// box lies within `±extent` on both axes. One pass over the bound columns, eight
    /// lanes at a time.
    fn scan_extent(&self) -> f32 {
        let mut acc = [0.0f32; 8];
        for col in [&self.min_x, &self.min_y, &self.max_x, &self.max_y] {
            let chunks = col.chunks_exact(8);
            // A compare and select, not `f32::max`: the form a vector `max` takes (the
            // bounds are never NaN).
            let max = |a: f32, v: f32| if v.abs() > a { v.abs() } else { a };
            for &v in chunks.remainder() {
                acc[0] = max(acc[0], v);
            }
            for chunk in chunks {
                for (a, &v) in acc.iter_mut().zip(chunk) {
                    *a = max(*a, v);
                }
            }
        }
        acc.into_iter().fold(0.0, f32::max)
    }

    /// The bounds of the box at dense index `i` (in range).
    fn bounds(&self, i: usize) -> Aabb {
        Aabb::from_coords(self.min_x[i], self.min_y[i], self.max_x[i], self.max_y[i])
    }

    /// The motion of the box at dense index `i` (in range).
    fn motion(&self, i: usize) -> Vec2 {
        Vec2::new(self.motion_x[i], self.motion_y[i])
    }

    fn write(&mut self, i: usize, b: Aabb) {
        self.min_x[i] = b.min.x;
        self.min_y[i] = b.min.y;
        self.max_x[i] = b.max.x;
        self.max_y[i] = b.max.y;
        self.extent = self.extent.max(bounds_bits(&b));
    }

    fn push(&mut self, b: Aabb, props: BoxProps) -> BoxHandle {
        let dense = self.len() as u32;
        let slot = if self.free_head != NO_SLOT {
            let s = self.free_head;
            let slot = &mut self.slots[s as usize];
            self.free_head = slot.link;
            slot.link = dense;
            slot.alive = true;
            s
        } else {
            self.slots.push(Slot {
                generation: 0,
                link: dense,
                alive: true,
            });
            (self.slots.len() - 1) as u32
        };
        let h = BoxHandle {
            slot,
            generation: self.slots[slot as usize].generation,
        };
        self.min_x.push(b.min.x);
        self.min_y.push(b.min.y);
        self.max_x.push(b.max.x);
        self.max_y.push(b.max.y);
        self.extent = self.extent.max(bounds_bits(&b));
        self.motion_x.push(props.motion.x);
        self.motion_y.push(props.motion.y);
        self.layers.push(props.filter.layers);
        self.mask.push(props.filter.mask);
        self.solid.push(props.filter.solid);
        self.owner.push(props.owner.0);
        self.user_data.push(props.user_data);
        self.response.push(props.response as u8);
        self.handle.push(h);
        self.shape.push(PLAIN);
        if !self.disc_r.is_empty() {
            for c in self.disc_columns() {
                c.push(0.0);
            }
        }
        h
    }

    fn free_slot(&mut self, slot: u32) {
        let s = &mut self.slots[slot as usize];
        s.alive = false;
        s.generation = s.generation.wrapping_add(1);
        if s.generation == u32::MAX {
            // Retired: reusing it would let the next wrap alias an old handle.
            s.link = NO_SLOT;
        } else {
            s.link = self.free_head;
            self.free_head = slot;
        }
    }
}

/// One of the store's plain columns, for [`BoxStore::remove_sorted`]'s tasks.
enum Column<'a> {
    F32(&'a mut Vec<f32>),
    U32(&'a mut Vec<u32>),
    U64(&'a mut Vec<u64>),
    U8(&'a mut Vec<u8>),
}

/// Table entries per parallel task of [`move_table`] (a few under Miri, so that its
/// test of the blocks stays small).
const TABLE_BLOCK: usize = if cfg!(miri) { 8 } else { 1 << 11 };

/// How many entries ahead [`move_table`] asks for the lines of an entry's box.
const TABLE_AHEAD: usize = 16;

/// The four bound columns, for the jobs of [`move_table`]: each job writes the bounds
/// of its own boxes, which are scattered through the columns.
#[derive(Clone, Copy)]
struct BoundsOut {
    /// `min_x`, `min_y`, `max_x`, `max_y`.
    cols: [*mut f32; 4],
    /// Their length.
    len: usize,
}

// SAFETY: a `BoundsOut` only carries the columns' addresses. Its one writer,
// `BoundsOut::write`, asks its callers to write each index from one job alone, so
// jobs on other threads never touch the same element.
unsafe impl Send for BoundsOut {}
// SAFETY: as for `Send`: shared between jobs, it is only written through, at indices
// each of which one job owns.
unsafe impl Sync for BoundsOut {}

impl BoundsOut {
    /// The columns' addresses. They stay valid while the borrow they came from would
    /// have lasted: the caller uses them before it touches the columns again.
    fn of(cols: [&mut Vec<f32>; 4]) -> Self {
        let len = cols[0].len();
        debug_assert!(cols.iter().all(|c| c.len() == len));
        Self {
            cols: cols.map(|c| c.as_mut_ptr()),
            len,
        }
    }

    /// Asks for the lines that [`BoundsOut::write`] at `i` writes (a hint: any `i`
    /// will do).
    #[inline(always)]
    fn prefetch(&self, i: usize) {
        for c in self.cols {
            crate::lanes::prefetch(c.wrapping_add(i));
        }
    }

    /// Writes `b` as the bounds of the box at dense index `i`.
    ///
    /// # Safety
    /// No other thread reads or writes index `i` of these columns while this runs:
    /// in [`move_table`], each table entry names a box of its own.
    #[inline(always)]
    unsafe fn write(&self, i: usize, b: &Aabb) {
        // Out of range would be a bug in the store's tables: stop, never write there.
        assert!(i < self.len, "a table entry names no box");
        let [x0, y0, x1, y1] = self.cols;
        // SAFETY: `i` is in range (above), and the caller guarantees that no other
        // thread touches index `i` now.
        unsafe {
            *x0.add(i) = b.min.x;
            *y0.add(i) = b.min.y;
            *x1.add(i) = b.max.x;
            *y1.add(i) = b.max.y;
        }
    }
}

/// One pass over a shape table (`entries`, the dense index of each entry's box, each
/// entry's turn): `step` moves each entry by its box's motion and gives the box's new
/// bounds, which go into the bound columns through `out`. With `KEEP`, returns the
/// largest [`abs_bits`] of those bounds.
///
/// The boxes are scattered through the columns: each entry's lines are asked for
/// [`TABLE_AHEAD`] entries before it is read. With `parallel` and a large table,
/// blocks of [`TABLE_BLOCK`] entries on rayon's pool. Each entry is moved the same way
/// on any thread, and the maximum is the same in any order, so the result is too.
fn move_table<T: Send, const KEEP: bool>(
    (entries, boxes, turns): (&mut [T], &[u32], &[f32]),
    (mx, my): (&[f32], &[f32]),
    out: BoundsOut,
    parallel: bool,
    step: &(impl Fn(&mut T, f32, Vec2) -> Aabb + Sync),
) -> u32 {
    debug_assert!(entries.len() == boxes.len() && boxes.len() == turns.len());
    let run = |first: usize, part: &mut [T]| {
        let boxes = &boxes[first..first + part.len()];
        let turns = &turns[first..first + part.len()];
        let ask = |i: u32| {
            let i = i as usize;
            crate::lanes::prefetch(mx.as_ptr().wrapping_add(i));
            crate::lanes::prefetch(my.as_ptr().wrapping_add(i));
            out.prefetch(i);
        };
        boxes.iter().take(TABLE_AHEAD).for_each(|&i| ask(i));
        let mut top = 0;
        for (k, (e, (&i, &turn))) in part.iter_mut().zip(boxes.iter().zip(turns)).enumerate() {
            if let Some(&ahead) = boxes.get(k + TABLE_AHEAD) {
                ask(ahead);
            }
            let i = i as usize;
            let b = step(e, turn, Vec2::new(mx[i], my[i]));
            // SAFETY: each table entry names a box of its own (the store keeps its
            // tables so), and the jobs get disjoint blocks of entries: no other job
            // writes box `i`, and none reads the bound columns during the pass.
            unsafe { out.write(i, &b) };
            if KEEP {
                top = top.max(bounds_bits(&b));
            }
        }
        top
    };
    if parallel && entries.len() > TABLE_BLOCK {
        let mut parts: Vec<&mut [T]> = entries.chunks_mut(TABLE_BLOCK).collect();
        let mut tops = Vec::new();
        crate::pool::map_parts(&mut parts, &|k, part| run(k * TABLE_BLOCK, part), &mut tops);
        tops.into_iter().max().unwrap_or(0)
    } else {
        run(0, entries)
    }
}

/// `c` with the entries at `doomed` (ascending dense indices) removed, highest first,
/// each by a swap with the last entry ([`Vec::swap_remove`]). The doomed are far apart
/// in a large column: each one's line is asked for `AHEAD` removals before it is
/// written.
fn remove_all<T>(c: &mut Vec<T>, doomed: &[u32]) {
    const AHEAD: usize = 8;
    for (k, &i) in doomed.iter().enumerate().rev() {
        if let Some(&next) = k.checked_sub(AHEAD).map(|k| &doomed[k]) {
            crate::lanes::prefetch(c.as_ptr().wrapping_add(next as usize));
        }
        c.swap_remove(i as usize);
    }
}

// The store hands out its columns as the views the narrow phase's batches read (the
// views are plain data in `math`, so the narrow phase needs no store).
impl<'a> AabbColumns<'a> {
    /// The box columns of a store (dense indices, as the broad phase's pairs).
    #[must_use]
    pub fn from_store(store: &'a BoxStore) -> Self {
        Self {
            min_x: store.min_x(),
            min_y: store.min_y(),
            max_x: store.max_x(),
            max_y: store.max_y(),
        }
    }
}

impl<'a> MotionColumns<'a> {
    /// The motion columns of a store.
    #[must_use]
    pub fn from_store(store: &'a BoxStore) -> Self {
        Self {
            x: store.motion_x(),
            y: store.motion_y(),
        }
    }
}

/// Validates every box; the first defect names its index.
pub(crate) fn validate_all(boxes: &[Aabb]) -> Result<(), Error> {
    for (i, b) in boxes.iter().enumerate() {
        b.check(i)?;
    }
    Ok(())
}

/// Calls `each(k, motion, i)` for each handle `handles[k]` in order, with its motion
/// `motions[k]` and its box's dense index `i`; stops at the first error (of `each`, or
/// [`Error::StaleHandle`]). The caller has checked that the two have one length.
///
/// It asks for each handle's slot `4 · AHEAD` handles before it reaches it. With
/// `cols`, it also reads each slot `AHEAD` handles before (in cache by then) and asks
/// for the box's lines in `cols`. Handles that do not follow the store's dense order
/// would otherwise make every read wait on memory.
#[inline]
fn each_dense(
    slots: &[Slot],
    handles: &[BoxHandle],
    motions: &[Vec2],
    cols: &[*const f32],
    mut each: impl FnMut(usize, Vec2, usize) -> Result<(), Error>,
) -> Result<(), Error> {
    const AHEAD: usize = 16;
    let ask_slot = |h: &BoxHandle| {
        crate::lanes::prefetch(slots.as_ptr().wrapping_add(h.slot as usize));
    };
    let ask_box = |&h: &BoxHandle| {
        if let Ok(j) = dense_of(slots, h) {
            for col in cols {
                crate::lanes::prefetch(col.wrapping_add(j));
            }
        }
    };
    handles.iter().take(4 * AHEAD).for_each(ask_slot);
    if !cols.is_empty() {
        handles.iter().take(AHEAD).for_each(ask_box);
    }
    for (k, (&h, &m)) in handles.iter().zip(motions).enumerate() {
        if let Some(h) = handles.get(k + 4 * AHEAD) {
            ask_slot(h);
        }
        if !cols.is_empty()
            && let Some(h) = handles.get(k + AHEAD)
        {
            ask_box(h);
        }
        each(k, m, dense_of(slots, h)?)?;
    }
    Ok(())
}

/// Whether every motion is finite and at most `limit` on each axis (NaN is not):
/// eight at a time, without a branch.
fn all_within(motions: &[Vec2], limit: f32) -> bool {
    let within = |v: &[Vec2]| {
        v.iter().fold(1u32, |ok, m| {
            ok & u32::from(m.x.abs() <= limit) & u32::from(m.y.abs() <= limit)
        })
    };
    let mut blocks = motions.chunks_exact(8);
    let mut ok = 1;
    for b in &mut blocks {
        ok &= within(b);
    }
    ok & within(blocks.remainder()) == 1
}

/// The dense index of the live box `h` names among `slots`, or
/// [`Error::StaleHandle`].
#[inline]
fn dense_of(slots: &[Slot], h: BoxHandle) -> Result<usize, Error> {
    match slots.get(h.slot as usize) {
        Some(s) if s.alive && s.generation == h.generation => Ok(s.link as usize),
        _ => Err(Error::StaleHandle),
    }
}

/// `Err(OutOfRange)` unless `bounds`, and `bounds` moved by `motion`, lie within
/// [`MAX_COORDINATE`] (see there).
fn check_reach(
    bounds: Aabb,
    motion: Vec2,
    handle: Option<BoxHandle>,
    index: usize,
) -> Result<(), Error> {
    if within_limit(&bounds.swept(motion)) {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            handle,
            index,
            limit: MAX_COORDINATE,
        })
    }
}

/// A turn the store takes for a shape of `kind`: finite, within [`MAX_TURN`], and zero
/// unless the shape is a rectangle or a capsule.
fn check_turn(kind: ShapeKind, turn: f32, index: usize) -> Result<(), Error> {
    if turn.is_nan() || turn.abs() > MAX_TURN {
        return Err(Error::InvalidMotion { index });
    }
    match kind {
        ShapeKind::Obb2 | ShapeKind::Capsule => Ok(()),
        ShapeKind::Aabb | ShapeKind::Circle if turn == 0.0 => Ok(()),
        ShapeKind::Aabb | ShapeKind::Circle => Err(Error::InvalidShape {
            index,
            reason: "only oriented rectangles and capsules turn",
        }),
    }
}

fn check_motion(m: Vec2, index: usize) -> Result<(), Error> {
    if m.is_finite() {
        Ok(())
    } else {
        Err(Error::InvalidMotion { index })
    }
}

#[cfg(test)]
mod tests;
