//! serde support for [`BoxStore`].
//!
//! It writes the whole store, handles and free list included, and checks it on the way
//! in.
//!
//! ```text
//!  BoxStore {
//!    min_x min_y max_x max_y motion_x motion_y layers mask solid   the columns, dense order
//!    owner user_data response                                      (responses checked: 0..=3;
//!                                                                  solid may be missing)
//!    handles                                                       dense index → handle
//!    circles circle_boxes obbs obb_boxes                           the shapes, as tables
//!    capsules capsule_boxes                                        (discs in dense order)
//!    obb_turns capsule_turns                                       each one's turn (may be
//!                                                                  missing: no turns)
//!    generations                                                   per slot
//!    free                                                          the free slots, head first
//!  }
//! ```
//!
//! Only what cannot be derived is written. A slot is alive when a handle names it, and
//! its dense index is where that handle is. A slot is retired when it is not alive and
//! its generation is `u32::MAX`. Every other slot is free. The free list is written in
//! order, so the store read back hands out the same handles as the store written.
//!
//! Reading checks every invariant that the store's methods rely on, and names the first
//! defect as a serde error. A store read back never panics and never hands out a handle
//! twice.

use super::{BoxHandle, BoxStore, KIND_SHIFT, NO_SLOT, PLAIN, SHAPE_INDEX, Slot};
use crate::math::{Aabb, Capsule, Circle, Obb2, Shape, box_defect};
use serde::de::Error as _;
use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The store as written: borrowed columns, the slot table as generations and free list.
#[derive(Serialize)]
#[serde(rename = "BoxStore")]
struct StoreRef<'a> {
    min_x: &'a [f32],
    min_y: &'a [f32],
    max_x: &'a [f32],
    max_y: &'a [f32],
    motion_x: &'a [f32],
    motion_y: &'a [f32],
    layers: &'a [u32],
    mask: &'a [u32],
    solid: &'a [u32],
    owner: &'a [u64],
    user_data: &'a [u64],
    response: &'a [u8],
    handles: &'a [BoxHandle],
    circles: Vec<Circle>,
    circle_boxes: Vec<u32>,
    obbs: &'a [Obb2],
    obb_boxes: &'a [u32],
    capsules: &'a [Capsule],
    capsule_boxes: &'a [u32],
    obb_turns: &'a [f32],
    capsule_turns: &'a [f32],
    generations: Generations<'a>,
    free: FreeList<'a>,
}

/// The store as read, before any check.
#[derive(Deserialize)]
#[serde(rename = "BoxStore")]
struct StoreFields {
    min_x: Vec<f32>,
    min_y: Vec<f32>,
    max_x: Vec<f32>,
    max_y: Vec<f32>,
    motion_x: Vec<f32>,
    motion_y: Vec<f32>,
    layers: Vec<u32>,
    mask: Vec<u32>,
    /// Empty in a store written before `solid` existed: then every contact is solid.
    #[serde(default)]
    solid: Vec<u32>,
    owner: Vec<u64>,
    user_data: Vec<u64>,
    response: Vec<u8>,
    handles: Vec<BoxHandle>,
    #[serde(default)]
    circles: Vec<Circle>,
    #[serde(default)]
    circle_boxes: Vec<u32>,
    #[serde(default)]
    obbs: Vec<Obb2>,
    #[serde(default)]
    obb_boxes: Vec<u32>,
    /// Empty in a store written before capsules existed.
    #[serde(default)]
    capsules: Vec<Capsule>,
    #[serde(default)]
    capsule_boxes: Vec<u32>,
    /// Empty in a store written before shapes turned: then none turns.
    #[serde(default)]
    obb_turns: Vec<f32>,
    #[serde(default)]
    capsule_turns: Vec<f32>,
    generations: Vec<u32>,
    free: Vec<u32>,
}

/// Each slot's generation, in slot order.
struct Generations<'a>(&'a [Slot]);

impl Serialize for Generations<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|slot| slot.generation))
    }
}

/// The free slots in the order `push` takes them (head first).
struct FreeList<'a> {
    slots: &'a [Slot],
    head: u32,
}

impl FreeList<'_> {
    fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        let link = |s: u32| (s != NO_SLOT).then_some(s);
        core::iter::successors(link(self.head), move |&s| link(self.slots[s as usize].link))
            // The list is acyclic (every mutation keeps it so); bounded all the same.
            .take(self.slots.len())
    }
}

impl Serialize for FreeList<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Length first: formats such as postcard write it before the elements.
        let mut seq = s.serialize_seq(Some(self.iter().count()))?;
        for slot in self.iter() {
            seq.serialize_element(&slot)?;
        }
        seq.end()
    }
}

/// Writes the whole store: its boxes in dense order with their properties and handles,
/// and its slot table of generations and free slots.
///
/// A store read back is the same store. Every handle resolves to the same box. The
/// dense order is the same, so every report comes in the same order. The next inserts
/// get the same handles. A rollback game saves this each frame, together with its
/// frame's [`FrameEvents`](crate::frame::FrameEvents).
///
/// For a bit-exact restore, use a format that writes an `f32` as its bits. Postcard,
/// bincode and other binary formats do.
///
/// The example runs in the repository's serde tests (`serde_tests/`), where postcard and
/// serde_json are dependencies:
///
/// ```ignore
/// use hantei::{Aabb, BoxStore};
/// let mut store = BoxStore::new();
/// let a = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
/// let b = store.insert(Aabb::from_coords(2.0, 0.0, 3.0, 1.0))?;
/// store.remove(a)?;
/// let bytes = postcard::to_allocvec(&store).unwrap();
/// let mut restored: BoxStore = postcard::from_bytes(&bytes).unwrap();
/// assert_eq!(restored.get(b), store.get(b));
/// assert!(!restored.contains(a)); // still stale
/// // The next insert reuses the same slot with the same new generation.
/// let boxed = Aabb::from_coords(5.0, 5.0, 6.0, 6.0);
/// assert_eq!(restored.insert(boxed)?, store.insert(boxed)?);
/// # Ok::<(), hantei::Error>(())
/// ```
impl Serialize for BoxStore {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // The discs live in columns; written as a table, in dense order.
        let disc_boxes: Vec<u32> = (0..self.shape.len() as u32)
            .filter(|&i| self.shape[i as usize] >> KIND_SHIFT == 1)
            .collect();
        StoreRef {
            min_x: &self.min_x,
            min_y: &self.min_y,
            max_x: &self.max_x,
            max_y: &self.max_y,
            motion_x: &self.motion_x,
            motion_y: &self.motion_y,
            layers: &self.layers,
            mask: &self.mask,
            solid: &self.solid,
            owner: &self.owner,
            user_data: &self.user_data,
            response: &self.response,
            handles: &self.handle,
            circles: disc_boxes.iter().map(|&i| self.disc(i as usize)).collect(),
            circle_boxes: disc_boxes,
            obbs: &self.obbs,
            obb_boxes: &self.obb_box,
            capsules: &self.caps,
            capsule_boxes: &self.cap_box,
            obb_turns: &self.obb_turn,
            capsule_turns: &self.cap_turn,
            generations: Generations(&self.slots),
            free: FreeList {
                slots: &self.slots,
                head: self.free_head,
            },
        }
        .serialize(s)
    }
}

/// Reads a store written by its `Serialize`, and checks every invariant.
///
/// # Errors
/// A serde error that names the first defect it finds:
/// - columns of different lengths,
/// - more than [`MAX_BOXES`](crate::MAX_BOXES) boxes, or more slots than `u32`
///   indices allow,
/// - an invalid box (NaN, infinite or inverted), or a box beyond
///   [`MAX_COORDINATE`](crate::MAX_COORDINATE),
/// - a motion that is NaN or infinite,
/// - a response other than 0 (pass), 1 (stop), 2 (destroy) or 3 (slide),
/// - a `solid` column that is neither empty nor as long as the others,
/// - a table of discs, oriented rectangles or capsules whose two lists differ in
///   length, or that holds more than `2^30 - 1` shapes,
/// - a disc, oriented rectangle or capsule that is invalid, names no box, names a box that
///   already has a shape, or whose bounds differ from its box's bounds,
/// - a handle that names no slot, names a retired slot, or has another generation than
///   its slot,
/// - a slot named by two handles,
/// - a free-list entry that is out of range, alive, retired or repeated, or
/// - a free slot missing from the free list.
///
/// The example runs in the repository's serde tests (`serde_tests/`), where postcard and
/// serde_json are dependencies:
///
/// ```ignore
/// use hantei::{Aabb, BoxStore};
/// let mut store = BoxStore::new();
/// store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0))?;
/// let mut json = serde_json::to_value(&store).unwrap();
/// json["max_x"][0] = (-1.0).into(); // inverted
/// let err = serde_json::from_value::<BoxStore>(json).unwrap_err();
/// assert!(err.to_string().contains("box at dense index 0"));
/// # Ok::<(), hantei::Error>(())
/// ```
impl<'de> Deserialize<'de> for BoxStore {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        StoreFields::deserialize(d)?
            .into_store()
            .map_err(|e| D::Error::custom(format_args!("invalid box store: {e}")))
    }
}

/// One shape table as read: its name, its kind, its shapes, their boxes and turns.
type Table<'a> = (&'a str, u32, Vec<Shape>, &'a [u32], &'a [f32]);

impl StoreFields {
    /// The per-box `shape` column rebuilt from the shape tables, once every shape is
    /// valid, names a distinct box in range, and has that box's bounds, bit for bit.
    fn shape_column(
        &self,
        n: usize,
        obb_turn: &[f32],
        cap_turn: &[f32],
    ) -> Result<Vec<u32>, String> {
        let mut shape = vec![PLAIN; n];
        let no_turns = vec![0.0; self.circles.len()];
        let tables: [Table<'_>; 3] = [
            (
                "circle",
                1,
                self.circles.iter().map(|&c| Shape::Circle(c)).collect(),
                &self.circle_boxes,
                &no_turns,
            ),
            (
                "oriented rectangle",
                2,
                self.obbs.iter().map(|&o| Shape::Obb2(o)).collect(),
                &self.obb_boxes,
                obb_turn,
            ),
            (
                "capsule",
                3,
                self.capsules.iter().map(|&c| Shape::Capsule(c)).collect(),
                &self.capsule_boxes,
                cap_turn,
            ),
        ];
        for (what, kind, shapes, boxes, turns) in tables {
            if shapes.len() != boxes.len() {
                return Err(format!(
                    "{} {what}s but {} {what} box indices",
                    shapes.len(),
                    boxes.len()
                ));
            }
            if shapes.len() > SHAPE_INDEX as usize {
                return Err(format!("{} {what}s, more than 2^30 - 1", shapes.len()));
            }
            for (k, ((sh, &b), &turn)) in shapes.iter().zip(boxes).zip(turns).enumerate() {
                let i = b as usize;
                if i >= n {
                    return Err(format!("{what} {k} names box {b}, of {n}"));
                }
                if shape[i] != PLAIN {
                    return Err(format!("box {b} has two shapes ({what} {k} and another)"));
                }
                if let Err(e) = sh.check(k) {
                    return Err(format!("{what} {k}: {e}"));
                }
                let bounds = sh.turn_bounds(turn);
                let column = [self.min_x[i], self.min_y[i], self.max_x[i], self.max_y[i]];
                let derived = [bounds.min.x, bounds.min.y, bounds.max.x, bounds.max.y];
                if column.map(f32::to_bits) != derived.map(f32::to_bits) {
                    return Err(format!(
                        "box {b}'s bounds {column:?} are not those of its {what} {derived:?}"
                    ));
                }
                // A disc's entry is its kind alone (its data is in the disc columns).
                shape[i] = if kind == 1 {
                    1 << KIND_SHIFT
                } else {
                    (kind << KIND_SHIFT) | k as u32
                };
            }
        }
        Ok(shape)
    }

    /// The store, once every invariant holds; else the first defect.
    fn into_store(self) -> Result<BoxStore, String> {
        let n = self.handles.len();
        for (column, len) in [
            ("min_x", self.min_x.len()),
            ("min_y", self.min_y.len()),
            ("max_x", self.max_x.len()),
            ("max_y", self.max_y.len()),
            ("motion_x", self.motion_x.len()),
            ("motion_y", self.motion_y.len()),
            ("layers", self.layers.len()),
            ("mask", self.mask.len()),
            ("owner", self.owner.len()),
            ("user_data", self.user_data.len()),
            ("response", self.response.len()),
            (
                "solid",
                if self.solid.is_empty() {
                    n
                } else {
                    self.solid.len()
                },
            ),
        ] {
            if len != n {
                return Err(format!(
                    "column {column} has {len} entries, handles has {n}"
                ));
            }
        }
        if n > crate::error::MAX_BOXES {
            return Err(format!("{n} boxes, more than {}", crate::error::MAX_BOXES));
        }
        // Slot indices are u32 and u32::MAX is the "no slot" link.
        if self.generations.len() >= NO_SLOT as usize {
            return Err(format!(
                "{} slots, more than u32 indices allow",
                self.generations.len()
            ));
        }
        for i in 0..n {
            let c = (self.min_x[i], self.min_y[i], self.max_x[i], self.max_y[i]);
            if let Some(defect) = box_defect(c.0, c.1, c.2, c.3) {
                return Err(format!("box at dense index {i}: {defect}"));
            }
            // Not its motion: a frame moves a box and keeps its motion, so a store may
            // hold a box whose next motion would carry it out (the next frame refuses).
            if !crate::math::within_limit(&Aabb::from_coords(c.0, c.1, c.2, c.3)) {
                return Err(format!(
                    "box at dense index {i} lies beyond ±{:e} (MAX_COORDINATE)",
                    crate::math::MAX_COORDINATE
                ));
            }
            if !(self.motion_x[i].is_finite() && self.motion_y[i].is_finite()) {
                return Err(format!("motion at dense index {i} is NaN or infinite"));
            }
            if self.response[i] > super::Response::Slide as u8 {
                return Err(format!(
                    "response at dense index {i} is {}, not 0 (pass), 1 (stop), 2 (destroy) or 3 (slide)",
                    self.response[i]
                ));
            }
        }

        let turns = |what: &str, turns: &[f32], count: usize| {
            if turns.is_empty() {
                return Ok(vec![0.0; count]);
            }
            if turns.len() != count {
                return Err(format!("{count} {what}s but {} {what} turns", turns.len()));
            }
            match turns
                .iter()
                .position(|t| t.is_nan() || t.abs() > crate::math::MAX_TURN)
            {
                Some(k) => Err(format!(
                    "{what} {k}'s turn {} is NaN, infinite or above MAX_TURN",
                    turns[k]
                )),
                None => Ok(turns.to_vec()),
            }
        };
        let obb_turn = turns("oriented rectangle", &self.obb_turns, self.obbs.len())?;
        let cap_turn = turns("capsule", &self.capsule_turns, self.capsules.len())?;
        let shape = self.shape_column(n, &obb_turn, &cap_turn)?;
        // The disc columns: one entry per box once any box is a disc.
        let mut discs = [Vec::new(), Vec::new(), Vec::new()];
        if !self.circles.is_empty() {
            discs = [vec![0.0; n], vec![0.0; n], vec![0.0; n]];
            for (c, &i) in self.circles.iter().zip(&self.circle_boxes) {
                let i = i as usize;
                discs[0][i] = c.center.x;
                discs[1][i] = c.center.y;
                discs[2][i] = c.radius;
            }
        }
        let disc_count = self.circles.len();
        let [disc_x, disc_y, disc_r] = discs;

        let mut slots: Vec<Slot> = self
            .generations
            .iter()
            .map(|&generation| Slot {
                generation,
                link: NO_SLOT,
                alive: false,
            })
            .collect();
        let slot_count = slots.len();
        for (i, h) in self.handles.iter().enumerate() {
            let Some(slot) = slots.get_mut(h.slot as usize) else {
                return Err(format!(
                    "the handle at dense index {i} names slot {}, of {slot_count}",
                    h.slot
                ));
            };
            if slot.alive {
                return Err(format!(
                    "slot {} is named by the handles at dense indices {} and {i}",
                    h.slot, slot.link
                ));
            }
            if slot.generation != h.generation {
                return Err(format!(
                    "the handle at dense index {i} has generation {}, its slot {} has {}",
                    h.generation, h.slot, slot.generation
                ));
            }
            if h.generation == u32::MAX {
                return Err(format!(
                    "the handle at dense index {i} is in retired slot {} (generation u32::MAX)",
                    h.slot
                ));
            }
            slot.alive = true;
            slot.link = i as u32;
        }

        // Link the free list in the order written; `seen` catches a repeat (a cycle).
        let mut seen = vec![false; slot_count];
        for (k, &s) in self.free.iter().enumerate() {
            let Some(slot) = slots.get(s as usize) else {
                return Err(format!(
                    "free list entry {k} names slot {s}, of {slot_count}"
                ));
            };
            if slot.alive {
                return Err(format!(
                    "free list entry {k} names slot {s}, which is alive"
                ));
            }
            if slot.generation == u32::MAX {
                return Err(format!(
                    "free list entry {k} names slot {s}, which is retired (generation u32::MAX)"
                ));
            }
            if core::mem::replace(&mut seen[s as usize], true) {
                return Err(format!("free list entry {k} repeats slot {s}"));
            }
            if let Some(&next) = self.free.get(k + 1) {
                slots[s as usize].link = next;
            }
        }
        // Every free slot must be reachable, or it would never be reused.
        if let Some(s) = (0..slot_count)
            .find(|&s| !slots[s].alive && slots[s].generation != u32::MAX && !seen[s])
        {
            return Err(format!(
                "slot {s} is free (not alive, not retired) but not on the free list"
            ));
        }

        // A store written before `solid` existed: every paired layer is solid.
        let solid = if self.solid.is_empty() {
            self.mask.clone()
        } else {
            self.solid
        };
        Ok(BoxStore {
            min_x: self.min_x,
            min_y: self.min_y,
            max_x: self.max_x,
            max_y: self.max_y,
            motion_x: self.motion_x,
            motion_y: self.motion_y,
            layers: self.layers,
            mask: self.mask,
            solid,
            owner: self.owner,
            user_data: self.user_data,
            response: self.response,
            handle: self.handles,
            shape,
            disc_x,
            disc_y,
            disc_r,
            discs: disc_count,
            obbs: self.obbs,
            obb_box: self.obb_boxes,
            caps: self.capsules,
            cap_box: self.capsule_boxes,
            obb_turn,
            cap_turn,
            slots,
            free_head: self.free.first().copied().unwrap_or(NO_SLOT),
            // Found by the first `set_motions`, which reads the bounds once.
            extent: super::UNKNOWN,
            keep_extent: false,
            found: super::Scratch::default(),
        })
    }
}
