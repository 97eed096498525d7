//! [`BoxStore`] operation sequences against a model.
//!
//! The model is a map from handle to `(bounds, properties)` plus the dense order, which
//! the store documents (insertion appends, removal moves the last box into the hole,
//! `clear` empties). Every operation's result is compared with what the model predicts:
//! the exact typed error for bad input (the lowest bad index for bulk calls, where two
//! errors both apply either is accepted), and after an error every column is bit for
//! bit what it was. After every operation the whole store is compared with the model:
//! `len`, dense order, every column bit for bit, `get`, `props`, `index_of`,
//! `handle_at`, `aabb_at`, `iter`, and every handle ever issued is alive exactly when
//! the model says so (removed handles stay dead, new handles are never old ones, forged
//! handles resolve only to what they name). Region and point queries are compared with
//! a scan of the model at every SIMD level. The store starts from `BoxStore::new()`,
//! `BoxStore::default()` or `BoxStore::with_capacity` (by the input's length): all three
//! must behave alike.
//!
//! # Input layout
//! A sequence of operations until the bytes run out (at most 256), each a tag byte (low
//! four bits: which operation; bit 7: boxes may be invalid) and its arguments, decoded
//! into an [`Op`].

use super::bytes::{Bytes, filter_from, same_bits};
use crate::{
    Aabb, BoxDefect, BoxHandle, BoxProps, BoxStore, Error, Filter, MAX_COORDINATE, Owner, SimdLevel,
};
use glam::Vec2;
use std::collections::HashMap;

/// Which handle an operation names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The `i`-th handle issued so far (modulo their number), alive or dead.
    Issued(usize),
    /// A handle made up from a slot and a generation.
    Forged {
        /// Its slot.
        slot: u32,
        /// Its generation.
        generation: u32,
    },
}

/// One store operation.
#[derive(Debug, Clone, PartialEq)]
pub enum Op {
    /// [`BoxStore::insert_with`].
    Insert(Aabb, BoxProps),
    /// [`BoxStore::insert_many`].
    InsertMany(Vec<Aabb>, BoxProps),
    /// [`BoxStore::update`].
    Update(Pick, Aabb),
    /// [`BoxStore::update_all`].
    UpdateAll(Vec<Aabb>),
    /// [`BoxStore::remove`].
    Remove(Pick),
    /// [`BoxStore::remove_many`].
    RemoveMany(Vec<Pick>),
    /// [`BoxStore::set_motion`].
    SetMotion(Pick, Vec2),
    /// [`BoxStore::set_motion_all`].
    SetMotionAll(Vec<Vec2>),
    /// [`BoxStore::set_filter`].
    SetFilter(Pick, Filter),
    /// [`BoxStore::set_owner`].
    SetOwner(Pick, Owner),
    /// [`BoxStore::clear`].
    Clear,
    /// [`BoxStore::reserve`].
    Reserve(usize),
    /// [`BoxStore::query_region`] (and `query_region_with` at every level).
    QueryRegion(Aabb, Filter),
    /// [`BoxStore::query_point`].
    QueryPoint(Vec2, Filter),
}

impl Op {
    /// Decodes one operation; `len` is the store's current size (bulk operations get
    /// that many items most of the time).
    pub(crate) fn decode(r: &mut Bytes<'_>, len: usize) -> Op {
        let tag = r.u8();
        let dirty = tag & 0x80 != 0;
        let mut prev = None;
        let mut aabb = |r: &mut Bytes<'_>| {
            let b = r.aabb(prev, 1.0, dirty);
            prev = Some(b);
            b
        };
        let pick = |r: &mut Bytes<'_>| {
            let p = r.u8();
            if p < 0xf0 {
                Pick::Issued(usize::from(p))
            } else {
                Pick::Forged {
                    slot: u32::from(r.u8() % 8),
                    generation: u32::from(r.u8() % 4),
                }
            }
        };
        let props = |r: &mut Bytes<'_>| BoxProps {
            filter: filter_from(r.u8()),
            owner: Owner(u64::from(r.u8())),
            motion: if r.u8() < 0xc0 {
                Vec2::new(f32::from(r.u8() % 8), 0.0)
            } else {
                r.vec2_edge()
            },
            ..BoxProps::default()
        };
        let bulk = |r: &mut Bytes<'_>| {
            let b = r.u8();
            if b < 0xc0 { len } else { usize::from(b % 8) }
        };
        match tag & 0x0f {
            0..=2 => Op::Insert(aabb(r), props(r)),
            3 => {
                let n = r.below(9);
                let boxes = (0..n).map(|_| aabb(r)).collect();
                Op::InsertMany(boxes, props(r))
            }
            4 | 5 => Op::Update(pick(r), aabb(r)),
            6 => {
                let n = bulk(r);
                Op::UpdateAll((0..n).map(|_| aabb(r)).collect())
            }
            7 => Op::Remove(pick(r)),
            8 => Op::RemoveMany((0..r.below(9)).map(|_| pick(r)).collect()),
            9 => Op::SetMotion(pick(r), r.vec2_edge()),
            10 => {
                let n = bulk(r);
                let bad = r.u8();
                let motions = (0..n)
                    .map(|i| {
                        if usize::from(bad) == i {
                            r.vec2_edge()
                        } else {
                            Vec2::new(f32::from(r.u8()), -1.5)
                        }
                    })
                    .collect();
                Op::SetMotionAll(motions)
            }
            11 => Op::SetFilter(pick(r), filter_from(r.u8())),
            12 => {
                if r.u8() < 0x20 {
                    Op::Clear
                } else {
                    Op::Reserve(usize::from(r.u8()))
                }
            }
            13 => Op::SetOwner(pick(r), Owner(u64::from(r.u32()) << (r.u8() % 33))),
            14 => Op::QueryRegion(aabb(r), filter_from(r.u8())),
            _ => {
                let p = if r.bool() {
                    // A grid point: often exactly on a box's edge or corner.
                    Vec2::new(f32::from(r.u8() % 32) - 8.0, f32::from(r.u8() % 32) - 8.0)
                } else {
                    r.vec2_edge()
                };
                Op::QueryPoint(p, filter_from(r.u8()))
            }
        }
    }
}

/// What a [`BoxStore`] should hold.
#[derive(Debug, Default, Clone)]
pub struct Model {
    live: HashMap<BoxHandle, (Aabb, BoxProps)>,
    /// Dense index → handle.
    dense: Vec<BoxHandle>,
    /// Every handle issued so far, in order.
    issued: Vec<BoxHandle>,
}

impl Model {
    fn resolve(&self, pick: Pick) -> Option<BoxHandle> {
        match pick {
            Pick::Issued(i) => {
                (!self.issued.is_empty()).then(|| self.issued[i % self.issued.len()])
            }
            Pick::Forged { slot, generation } => Some(BoxHandle { slot, generation }),
        }
    }

    fn push(&mut self, h: BoxHandle, b: Aabb, p: BoxProps) -> Result<(), String> {
        if self.issued.contains(&h) || self.live.contains_key(&h) {
            return Err(format!("handle {h:?} issued twice"));
        }
        self.issued.push(h);
        self.dense.push(h);
        self.live.insert(h, (b, p));
        Ok(())
    }

    /// Compares every observable of `store` with the model.
    ///
    /// # Errors
    /// The first difference.
    pub fn verify(&self, store: &BoxStore) -> Result<(), String> {
        let n = self.dense.len();
        if store.len() != n || store.is_empty() != (n == 0) || self.live.len() != n {
            return Err(format!("store has {} boxes, the model {n}", store.len()));
        }
        if store.handles() != self.dense.as_slice() {
            return Err(format!(
                "dense order {:?}, the model {:?}",
                store.handles(),
                self.dense
            ));
        }
        let cols = [
            store.min_x(),
            store.min_y(),
            store.max_x(),
            store.max_y(),
            store.motion_x(),
            store.motion_y(),
        ];
        if cols.iter().any(|c| c.len() != n)
            || store.layers().len() != n
            || store.masks().len() != n
            || store.solids().len() != n
            || store.owners().len() != n
        {
            return Err("a column has the wrong length".into());
        }
        let mut iter = store.iter();
        for (i, &h) in self.dense.iter().enumerate() {
            let (b, p) = self.live[&h];
            let want = [b.min.x, b.min.y, b.max.x, b.max.y, p.motion.x, p.motion.y];
            let got = cols.map(|c| c[i]);
            if want.map(f32::to_bits) != got.map(f32::to_bits) {
                return Err(format!("box {i}: columns {got:?}, the model {want:?}"));
            }
            let filter =
                Filter::new(store.layers()[i], store.masks()[i]).with_solid(store.solids()[i]);
            if filter != p.filter || store.owners()[i] != p.owner.0 {
                return Err(format!("box {i}: filter or owner columns differ"));
            }
            let ok = store.get(h).is_some_and(|g| same_bits(&g, &b))
                && store.aabb_at(i).is_some_and(|g| same_bits(&g, &b))
                && store.props(h) == Some(p)
                && store.index_of(h) == Some(i)
                && store.handle_at(i) == Some(h)
                && store.contains(h)
                && iter
                    .next()
                    .is_some_and(|(ih, ib)| ih == h && same_bits(&ib, &b));
            if !ok {
                return Err(format!("box {i} ({h:?}): an accessor disagrees"));
            }
        }
        if !store.extent_holds() {
            return Err("a box reaches beyond the store's extent".into());
        }
        if iter.next().is_some() || store.handle_at(n).is_some() || store.aabb_at(n).is_some() {
            return Err("an accessor reaches past the last box".into());
        }
        for h in &self.issued {
            if !self.live.contains_key(h)
                && (store.contains(*h)
                    || store.get(*h).is_some()
                    || store.props(*h).is_some()
                    || store.index_of(*h).is_some())
            {
                return Err(format!("dead handle {h:?} still resolves"));
            }
        }
        Ok(())
    }
}

/// The lowest-indexed invalid box.
fn first_bad_box(boxes: &[Aabb]) -> Option<Error> {
    boxes.iter().enumerate().find_map(|(index, b)| {
        b.validate()
            .err()
            .map(|defect: BoxDefect| Error::InvalidBox { index, defect })
    })
}

fn box_err(b: &Aabb) -> Option<Error> {
    first_bad_box(core::slice::from_ref(b))
}

fn motion_err(m: Vec2, index: usize) -> Option<Error> {
    (!m.is_finite()).then_some(Error::InvalidMotion { index })
}

/// `OutOfRange` when box `b`, or `b` moved by `m` (as `f32` adds it), reaches beyond
/// [`MAX_COORDINATE`]; nothing when `b` or `m` is invalid (their own errors come first).
fn reach_err(b: &Aabb, m: Vec2, handle: Option<BoxHandle>, index: usize) -> Option<Error> {
    if b.validate().is_err() || !m.is_finite() {
        return None;
    }
    let s = b.swept(m);
    let l = MAX_COORDINATE;
    let inside = s.min.x >= -l && s.min.y >= -l && s.max.x <= l && s.max.y <= l;
    (!inside).then_some(Error::OutOfRange {
        handle,
        index,
        limit: l,
    })
}

/// The first box of `bs` (paired with its motion and handle) that reaches too far.
fn first_reach_err(bs: impl Iterator<Item = (Aabb, Vec2, Option<BoxHandle>)>) -> Option<Error> {
    bs.enumerate()
        .find_map(|(i, (b, m, h))| reach_err(&b, m, h, i))
}

/// Compares a result with the errors the model allows (any of `allowed`; none: success).
fn expect<T: core::fmt::Debug>(
    got: &Result<T, Error>,
    allowed: &[Option<Error>],
) -> Result<bool, String> {
    let allowed: Vec<&Error> = allowed.iter().flatten().collect();
    match got {
        Ok(_) if allowed.is_empty() => Ok(true),
        Err(e) if allowed.contains(&e) => Ok(false),
        other => Err(format!("got {other:?}, the model allows {allowed:?}")),
    }
}

/// Every column of a store, as bits, to compare before and after a refused call.
fn snapshot(store: &BoxStore) -> Vec<u32> {
    let mut v: Vec<u32> = [
        store.min_x(),
        store.min_y(),
        store.max_x(),
        store.max_y(),
        store.motion_x(),
        store.motion_y(),
    ]
    .iter()
    .flat_map(|c| c.iter().map(|x| x.to_bits()))
    .collect();
    v.extend(store.layers());
    v.extend(store.masks());
    v.extend(store.solids());
    v.extend(
        store
            .owners()
            .iter()
            .flat_map(|&o| [o as u32, (o >> 32) as u32]),
    );
    v.extend(
        store
            .user_data()
            .iter()
            .flat_map(|&d| [d as u32, (d >> 32) as u32]),
    );
    v.extend(store.responses().iter().map(|&r| u32::from(r)));
    v.extend(store.handles().iter().flat_map(|h| [h.slot, h.generation]));
    v
}

/// The model's answer to a region query: every box overlapping `region` whose filter
/// agrees, in dense order.
fn model_query(model: &Model, hit: impl Fn(&Aabb) -> bool, filter: Filter) -> Vec<BoxHandle> {
    model
        .dense
        .iter()
        .filter(|h| {
            let (b, p) = &model.live[h];
            hit(b) && filter.pairs_with(p.filter)
        })
        .copied()
        .collect()
}

/// Applies one operation to the store and the model, checking the result against the
/// model's prediction (not the state afterwards: see [`Model::verify`]).
///
/// # Errors
/// The first difference.
pub fn apply(store: &mut BoxStore, model: &mut Model, op: &Op) -> Result<(), String> {
    let before = snapshot(store);
    let ok = match op {
        Op::Insert(b, p) => {
            let got = store.insert_with(*b, *p);
            let reach = reach_err(b, p.motion, None, 0);
            let ok = expect(&got, &[box_err(b), motion_err(p.motion, 0), reach])?;
            if let Ok(h) = got {
                model.push(h, *b, *p)?;
            }
            ok
        }
        Op::InsertMany(bs, p) => {
            let got = store.insert_many(bs, *p);
            let reach = first_reach_err(bs.iter().map(|&b| (b, p.motion, None)));
            let bad = [first_bad_box(bs), motion_err(p.motion, 0), reach];
            let ok = expect(&got, &bad)?;
            if let Ok(hs) = got {
                if hs.len() != bs.len() {
                    return Err(format!("{} handles for {} boxes", hs.len(), bs.len()));
                }
                for (h, b) in hs.into_iter().zip(bs) {
                    model.push(h, *b, *p)?;
                }
            }
            ok
        }
        Op::Update(pick, b) => match model.resolve(*pick) {
            None => true,
            Some(h) => {
                let stale = (!model.live.contains_key(&h)).then_some(Error::StaleHandle);
                let reach = model.live.get(&h).and_then(|(_, p)| {
                    let i = model.dense.iter().position(|d| *d == h)?;
                    reach_err(b, p.motion, Some(h), i)
                });
                let ok = expect(&store.update(h, *b), &[stale, box_err(b), reach])?;
                if ok {
                    model.live.get_mut(&h).expect("live").0 = *b;
                }
                ok
            }
        },
        Op::UpdateAll(bs) => {
            let n = model.dense.len();
            let mismatch = (bs.len() != n).then_some(Error::LengthMismatch {
                what: "update_all boxes",
                expected: n,
                found: bs.len(),
            });
            let reach = if mismatch.is_none() && first_bad_box(bs).is_none() {
                let motion = |h: &BoxHandle| model.live[h].1.motion;
                first_reach_err(
                    bs.iter()
                        .zip(&model.dense)
                        .map(|(&b, h)| (b, motion(h), Some(*h))),
                )
            } else {
                None
            };
            let bad = [mismatch, first_bad_box(bs), reach];
            let ok = expect(&store.update_all(bs), &bad)?;
            if ok {
                for (h, b) in model.dense.iter().zip(bs) {
                    model.live.get_mut(h).expect("live").0 = *b;
                }
            }
            ok
        }
        Op::Remove(pick) => match model.resolve(*pick) {
            None => true,
            Some(h) => {
                let got = store.remove(h);
                match model.live.remove(&h) {
                    None => expect(&got, &[Some(Error::StaleHandle)])?,
                    Some((b, _)) => {
                        if !got.as_ref().is_ok_and(|g| same_bits(g, &b)) {
                            return Err(format!("remove({h:?}) gave {got:?}, expected {b:?}"));
                        }
                        let i = model.dense.iter().position(|d| *d == h).expect("dense");
                        model.dense.swap_remove(i);
                        true
                    }
                }
            }
        },
        Op::RemoveMany(picks) => {
            let handles: Vec<BoxHandle> = picks.iter().filter_map(|p| model.resolve(*p)).collect();
            // Each live box once (a handle may repeat); refused if any is stale.
            let at: Vec<Option<usize>> = (handles.iter())
                .map(|h| model.dense.iter().position(|d| d == h))
                .collect();
            let refused = at.contains(&None);
            let mut doomed: Vec<usize> = at.into_iter().flatten().collect();
            doomed.sort_unstable();
            doomed.dedup();
            let bad = [refused.then_some(Error::StaleHandle)];
            let ok = expect(&store.remove_many(&handles), &bad)?;
            if ok {
                // The highest dense index first, each hole filled by the last box.
                for &i in doomed.iter().rev() {
                    let h = model.dense.swap_remove(i);
                    model.live.remove(&h);
                }
            }
            ok
        }
        Op::SetMotion(pick, m) => match model.resolve(*pick) {
            None => true,
            Some(h) => {
                let stale = (!model.live.contains_key(&h)).then_some(Error::StaleHandle);
                let reach = model.live.get(&h).and_then(|(b, _)| {
                    let i = model.dense.iter().position(|d| *d == h)?;
                    reach_err(b, *m, Some(h), i)
                });
                let bad = [stale, motion_err(*m, 0), reach];
                let ok = expect(&store.set_motion(h, *m), &bad)?;
                if ok {
                    model.live.get_mut(&h).expect("live").1.motion = *m;
                }
                ok
            }
        },
        Op::SetMotionAll(ms) => {
            let n = model.dense.len();
            let mismatch = (ms.len() != n).then_some(Error::LengthMismatch {
                what: "set_motion_all motions",
                expected: n,
                found: ms.len(),
            });
            let bad = ms.iter().enumerate().find_map(|(i, m)| motion_err(*m, i));
            let reach = if mismatch.is_none() && bad.is_none() {
                let bounds = |h: &BoxHandle| model.live[h].0;
                first_reach_err(
                    model
                        .dense
                        .iter()
                        .zip(ms)
                        .map(|(h, &m)| (bounds(h), m, Some(*h))),
                )
            } else {
                None
            };
            let ok = expect(&store.set_motion_all(ms), &[mismatch, bad, reach])?;
            if ok {
                for (h, m) in model.dense.iter().zip(ms) {
                    model.live.get_mut(h).expect("live").1.motion = *m;
                }
            }
            ok
        }
        Op::SetFilter(pick, f) => match model.resolve(*pick) {
            None => true,
            Some(h) => {
                let stale = (!model.live.contains_key(&h)).then_some(Error::StaleHandle);
                let ok = expect(&store.set_filter(h, *f), &[stale])?;
                if ok {
                    model.live.get_mut(&h).expect("live").1.filter = *f;
                }
                ok
            }
        },
        Op::SetOwner(pick, o) => match model.resolve(*pick) {
            None => true,
            Some(h) => {
                let stale = (!model.live.contains_key(&h)).then_some(Error::StaleHandle);
                let ok = expect(&store.set_owner(h, *o), &[stale])?;
                if ok {
                    model.live.get_mut(&h).expect("live").1.owner = *o;
                }
                ok
            }
        },
        Op::Clear => {
            store.clear();
            model.live.clear();
            model.dense.clear();
            true
        }
        Op::Reserve(n) => {
            store.reserve(*n);
            true
        }
        Op::QueryRegion(region, filter) => {
            let want = model_query(model, |b| b.overlaps(region), *filter);
            for &level in SimdLevel::available() {
                let mut out = vec![sentinel()];
                let got = store.query_region_with(*region, *filter, level, &mut out);
                expect(&got, &[box_err(region)])?;
                let want_out: Vec<BoxHandle> = core::iter::once(sentinel())
                    .chain(if got.is_ok() { want.clone() } else { vec![] })
                    .collect();
                if out != want_out {
                    return Err(format!(
                        "query_region {region:?} at {level:?}: {out:?}, expected {want_out:?}"
                    ));
                }
            }
            true
        }
        Op::QueryPoint(p, filter) => {
            let mut out = vec![sentinel()];
            let got = store.query_point(*p, *filter, &mut out);
            match (&got, p.is_finite()) {
                (Ok(()), true) => {
                    let want = model_query(model, |b| b.contains_point(*p), *filter);
                    if out[1..] != want[..] {
                        return Err(format!("query_point {p:?}: {out:?}, expected {want:?}"));
                    }
                }
                (Err(Error::InvalidShape { index: 0, .. }), false) if out.len() == 1 => {}
                _ => return Err(format!("query_point {p:?} gave {got:?}, out {out:?}")),
            }
            true
        }
    };
    if !ok && snapshot(store) != before {
        return Err(format!("a refused {op:?} changed the store"));
    }
    Ok(())
}

/// A handle no store hands out early (to see that queries append and keep the rest).
fn sentinel() -> BoxHandle {
    BoxHandle {
        slot: u32::MAX,
        generation: u32::MAX,
    }
}

/// A hook called with the operation's index and the store after each operation, before
/// the store is compared with the model: nothing in [`store_vs_model`]; tests plant bugs
/// with it to show that the check catches them.
pub type Tamper<'t> = &'t dyn Fn(usize, &mut BoxStore);

/// Runs the operations decoded from `data` on a store and on the model (see the
/// [module docs](self)).
///
/// # Panics
/// When the store and the model disagree.
pub fn store_vs_model(data: &[u8]) {
    if let Err(e) = store_vs_model_with(data, &|_, _| {}) {
        panic!("store check failed: {e}");
    }
}

/// [`store_vs_model`] with a [`Tamper`] hook, returning the first difference.
///
/// # Errors
/// The first difference, with the operations so far.
pub fn store_vs_model_with(data: &[u8], tamper: Tamper<'_>) -> Result<(), String> {
    let mut r = Bytes::new(data);
    // Every way to make an empty store (chosen by the input's length, so that the
    // bytes decode to the same operations whichever it is) must behave as `new()`.
    let mut store = match data.len() % 3 {
        0 => BoxStore::new(),
        1 => BoxStore::default(),
        _ => BoxStore::with_capacity(data.len()),
    };
    let mut model = Model::default();
    let mut ops = Vec::new();
    while !r.is_empty() && ops.len() < 256 {
        let op = Op::decode(&mut r, store.len());
        let step = apply(&mut store, &mut model, &op);
        ops.push(op);
        tamper(ops.len() - 1, &mut store);
        step.and_then(|()| model.verify(&store))
            .map_err(|e| format!("{e}\nafter ops {ops:?}"))?;
    }
    Ok(())
}
