//! Step 4 of [`Frame::step`](super::Frame::step) when the store holds discs, oriented
//! rectangles or capsules.
//!
//! Each candidate pair goes to the batch for its two shapes' kinds. The pair is put in
//! the canonical kind order, `aabb`, then `circle`, then `obb2`, then `capsule`. Its
//! indices are turned into the indices that the batch reads. The capsule kernels take
//! the capsule first, so a pair with one capsule goes to its batch turned around, and
//! its hits come back turned around again.
//!
//! ```text
//!  candidates (dense index pairs)
//!    │ per pair (lower dense index first, from the broad phase): kinds of both
//!    │ boxes (the store's shape column), swapped into canonical kind order (one
//!    │ kind: left as it is); each index turned into its input's (dense for boxes and
//!    │ discs, the table's for rectangles and capsules)
//!    ▼
//!  ten batches:  aabb×aabb  aabb×circle  aabb×obb2  circle×circle  circle×obb2  obb2×obb2
//!                capsule×aabb  capsule×circle  capsule×obb2  capsule×capsule
//!    │ each a NarrowPhase swept batch (SIMD, parallel), the boxes and discs read from
//!    │ the store's columns, the rectangles and capsules from their tables, the
//!    │ motions of those that a pair names copied into table order
//!    ▼
//!  hits, mapped back to dense indices (in batch order; the frame then sorts contacts)
//! ```
//!
//! A pair in which a rectangle or a capsule turns ([`BoxStore::set_turn`]) goes to an
//! eleventh list instead, in the same canonical order. Each of its pairs runs through
//! [`sweep_turning`](fn@sweep_turning), the scalar time-of-impact search for turning shapes, after the ten
//! batches (on rayon's pool when there are many, the answers kept in list order).
//!
//! A store of plain boxes never comes here. The step checks for it with one branch.

use crate::error::Error;
use crate::math::ShapeKind;
use crate::narrow::columns::{AabbColumns, CircleColumns, MotionColumns};
use crate::narrow::scalar::sweep_turning;
use crate::narrow::{NarrowPhase, PairSweep, Sweep};
use crate::pair::Pair;
use crate::pool;
use crate::store::{BoxStore, SHAPE_INDEX, kind_of};
use glam::Vec2;

/// The batch of a pair of kinds (`a <= b`).
fn batch_of(a: ShapeKind, b: ShapeKind) -> usize {
    match (a, b) {
        (ShapeKind::Aabb, ShapeKind::Aabb) => 0,
        (ShapeKind::Aabb, ShapeKind::Circle) => 1,
        (ShapeKind::Aabb, ShapeKind::Obb2) => 2,
        (ShapeKind::Circle, ShapeKind::Circle) => 3,
        (ShapeKind::Circle, ShapeKind::Obb2) => 4,
        (ShapeKind::Obb2, ShapeKind::Obb2) => 5,
        (ShapeKind::Aabb, ShapeKind::Capsule) => 6,
        (ShapeKind::Circle, ShapeKind::Capsule) => 7,
        (ShapeKind::Obb2, ShapeKind::Capsule) => 8,
        _ => 9,
    }
}

/// The number of batches.
const BATCHES: usize = 10;

/// The buffers of the ten batches, kept between frames.
#[derive(Debug, Default)]
pub(crate) struct KindBatches {
    pairs: [Vec<Pair>; BATCHES],
    obb_motion: Vec<Vec2>,
    capsule_motion: Vec<Vec2>,
    /// The pairs with a turning shape, as dense indices in canonical kind order.
    turning: Vec<Pair>,
    /// Their answers, in the same order.
    turning_sweeps: Vec<Sweep>,
}

/// Turning pairs per parallel task of [`sweep_turning`](fn@sweep_turning) (each pair is a search of many
/// distance tests).
const TURNING_CHUNK: usize = 32;

impl KindBatches {
    /// Runs every candidate through the batch of its kinds; calls `emit(a, b, sweep)`
    /// with the dense indices of each hit or overlap (`sweep` as seen from `a`).
    pub(crate) fn run(
        &mut self,
        narrow: &mut NarrowPhase,
        store: &BoxStore,
        candidates: &[Pair],
        mut emit: impl FnMut(usize, usize, &Sweep),
    ) -> Result<(), Error> {
        let entries = store.shape_entries();
        for p in &mut self.pairs {
            p.clear();
        }
        self.turning.clear();
        let (obb_turn, cap_turn) = store.turn_tables();
        let turns = store.has_turns();
        // Whether the box of this shape entry turns.
        let turning = |e: u32| match kind_of(e) {
            ShapeKind::Obb2 => obb_turn[(e & SHAPE_INDEX) as usize] != 0.0,
            ShapeKind::Capsule => cap_turn[(e & SHAPE_INDEX) as usize] != 0.0,
            ShapeKind::Aabb | ShapeKind::Circle => false,
        };
        // The rectangles' and capsules' motions in table order, for the batches. Only
        // the entries that a pair names are written: a large table (a million
        // needles) is not gathered through whole each frame. The batches read no
        // other entry but as padding of a wide load, which they drop.
        let (obbs, obb_box) = store.obb_table();
        let (caps, cap_box) = store.capsule_table();
        let (mx, my) = (store.motion_x(), store.motion_y());
        let motion = |d: u32| Vec2::new(mx[d as usize], my[d as usize]);
        self.obb_motion.resize(obbs.len(), Vec2::ZERO);
        self.capsule_motion.resize(caps.len(), Vec2::ZERO);
        for p in candidates {
            let (mut a, mut b) = (p.a, p.b);
            let (mut ea, mut eb) = (entries[a as usize], entries[b as usize]);
            if kind_of(ea) > kind_of(eb) {
                core::mem::swap(&mut a, &mut b);
                core::mem::swap(&mut ea, &mut eb);
            }
            // Boxes and discs: their dense index; rectangles and capsules: their
            // table's.
            let index = |dense: u32, e: u32| {
                if kind_of(e) >= ShapeKind::Obb2 {
                    e & SHAPE_INDEX
                } else {
                    dense
                }
            };
            if turns && (turning(ea) || turning(eb)) {
                self.turning.push(Pair::new(a, b));
                continue;
            }
            let (ka, kb) = (kind_of(ea), kind_of(eb));
            let (ia, ib) = (index(a, ea), index(b, eb));
            for (k, i, d) in [(ka, ia, a), (kb, ib, b)] {
                match k {
                    ShapeKind::Obb2 => self.obb_motion[i as usize] = motion(d),
                    ShapeKind::Capsule => self.capsule_motion[i as usize] = motion(d),
                    ShapeKind::Aabb | ShapeKind::Circle => {}
                }
            }
            // The capsule kernels take the capsule first (two capsules: as they are).
            let pair = if kb == ShapeKind::Capsule && ka != ShapeKind::Capsule {
                Pair::new(ib, ia)
            } else {
                Pair::new(ia, ib)
            };
            self.pairs[batch_of(ka, kb)].push(pair);
        }
        let [cx, cy, cr] = store.disc_columns_ref();
        let circles = CircleColumns::new(cx, cy, cr)?;
        let (boxes, box_motion) = (
            AabbColumns::from_store(store),
            MotionColumns::from_store(store),
        );
        // The discs' motions are the store's, one per disc column entry (none while the
        // store has never held a disc: the kernels check the lengths agree).
        let cm = if cx.is_empty() {
            MotionColumns::new(&[], &[])?
        } else {
            box_motion
        };
        let om = &self.obb_motion[..];
        let capm = &self.capsule_motion[..];
        // Each side's dense indices: the kernel's own (boxes, discs), or its table's.
        let (plain, circle, obb, cap) = (None, None, Some(obb_box), Some(cap_box));
        let p = &self.pairs;
        let e = &mut emit;
        let hits = narrow.sweep_aabb_aabb(boxes, box_motion, &p[0])?;
        emit_hits(hits, plain, plain, e);
        let hits = narrow.sweep_aabb_circle(boxes, box_motion, circles, cm, &p[1])?;
        emit_hits(hits, plain, circle, e);
        let hits = narrow.sweep_aabb_obb2(boxes, box_motion, obbs, om, &p[2])?;
        emit_hits(hits, plain, obb, e);
        let hits = narrow.sweep_circle_circle(circles, cm, &p[3])?;
        emit_hits(hits, circle, circle, e);
        let hits = narrow.sweep_circle_obb2(circles, cm, obbs, om, &p[4])?;
        emit_hits(hits, circle, obb, e);
        let hits = narrow.sweep_obb2_obb2(obbs, om, &p[5])?;
        emit_hits(hits, obb, obb, e);
        // A capsule and another kind: emitted turned around, the other shape first, as
        // `sweep_shapes` answers in canonical kind order.
        let hits = narrow.sweep_capsule_aabb(caps, capm, boxes, box_motion, &p[6])?;
        emit_turned(hits, cap, plain, e);
        let hits = narrow.sweep_capsule_circle(caps, capm, circles, cm, &p[7])?;
        emit_turned(hits, cap, circle, e);
        let hits = narrow.sweep_capsule_obb2(caps, capm, obbs, om, &p[8])?;
        emit_turned(hits, cap, obb, e);
        let hits = narrow.sweep_capsule_capsule(caps, capm, &p[9])?;
        emit_hits(hits, cap, cap, e);
        self.run_turning(store, narrow.parallel());
        for (p, s) in self.turning.iter().zip(&self.turning_sweeps) {
            if s.status != crate::narrow::SweepStatus::Miss {
                e(p.a as usize, p.b as usize, s);
            }
        }
        Ok(())
    }

    /// Each turning pair through [`sweep_turning`](fn@sweep_turning), the answers in list order.
    fn run_turning(&mut self, store: &BoxStore, parallel: bool) {
        let one = |p: &Pair| {
            let (a, b) = (p.a as usize, p.b as usize);
            let motion = |i: usize| Vec2::new(store.motion_x()[i], store.motion_y()[i]);
            match (store.shape_at(a), store.shape_at(b)) {
                (Some(sa), Some(sb)) => sweep_turning(
                    &sa,
                    motion(a),
                    store.turn_at(a),
                    &sb,
                    motion(b),
                    store.turn_at(b),
                ),
                _ => Sweep::default(),
            }
        };
        self.turning_sweeps.clear();
        if parallel && self.turning.len() > TURNING_CHUNK && rayon::current_num_threads() > 1 {
            let turning = &self.turning;
            self.turning_sweeps.resize(turning.len(), Sweep::default());
            let mut parts: Vec<&mut [Sweep]> =
                self.turning_sweeps.chunks_mut(TURNING_CHUNK).collect();
            pool::for_each_part(&mut parts, &|k, out| {
                for (o, t) in out.iter_mut().zip(&turning[k * TURNING_CHUNK..]) {
                    *o = one(t);
                }
            });
        } else {
            self.turning_sweeps.extend(self.turning.iter().map(one));
        }
    }
}

/// Calls `emit` with each hit's dense indices: `a`'s and `b`'s kernel index as it is
/// (`None`: a box, indexed densely) or through its table's dense indices.
#[inline]
fn emit_hits(
    hits: &[PairSweep],
    a: Option<&[u32]>,
    b: Option<&[u32]>,
    emit: &mut impl FnMut(usize, usize, &Sweep),
) {
    let dense = |table: Option<&[u32]>, k: u32| table.map_or(k, |t| t[k as usize]) as usize;
    for h in hits {
        emit(dense(a, h.pair.a), dense(b, h.pair.b), &h.sweep);
    }
}

/// [`emit_hits`] turned around: `emit` gets `b`'s index first and the sweep as seen
/// from `b` (the normal and the stop negated as `0 - x`, as
/// [`sweep_shapes`](crate::narrow::scalar::sweep_shapes) does).
#[inline]
fn emit_turned(
    hits: &[PairSweep],
    a: Option<&[u32]>,
    b: Option<&[u32]>,
    emit: &mut impl FnMut(usize, usize, &Sweep),
) {
    let dense = |table: Option<&[u32]>, k: u32| table.map_or(k, |t| t[k as usize]) as usize;
    for h in hits {
        let turned = Sweep {
            normal: Vec2::ZERO - h.sweep.normal,
            stop: Vec2::ZERO - h.sweep.stop,
            ..h.sweep
        };
        emit(dense(b, h.pair.b), dense(a, h.pair.a), &turned);
    }
}
