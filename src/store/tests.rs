//! The store against a simple model (a map from handle to box), driven by seeded random operations.

use super::*;
use crate::rng::{Rng, for_cases};
use std::collections::HashMap;

#[derive(Debug, Clone)]
enum Op {
    Insert(Aabb),
    InsertMany(Vec<Aabb>),
    Update(usize, Aabb),
    UpdateAll(Vec<Aabb>),
    Remove(usize),
    SetMotion(usize, Vec2),
    SetFilter(usize, u32, u32),
    Clear,
}

fn coord(rng: &mut Rng) -> f32 {
    match rng.weighted(&[8, 1, 1, 1]) {
        0 => rng.range_f32(-100.0, 100.0),
        1 => f32::NAN,
        2 => f32::INFINITY,
        _ => 0.0,
    }
}

fn aabb(rng: &mut Rng) -> Aabb {
    // Mostly valid boxes (sorted corners), sometimes inverted or non-finite ones.
    let (a, b, c, d) = (coord(rng), coord(rng), coord(rng), coord(rng));
    if rng.below(8) == 0 {
        Aabb::from_coords(a, b, c, d)
    } else {
        Aabb::from_coords(a.min(c), b.min(d), a.max(c), b.max(d))
    }
}

fn aabbs(rng: &mut Rng, most: u32) -> Vec<Aabb> {
    (0..rng.below(most)).map(|_| aabb(rng)).collect()
}

fn op(rng: &mut Rng) -> Op {
    let i = rng.next_u64() as usize;
    match rng.weighted(&[6, 1, 4, 1, 4, 1, 1, 1]) {
        0 => Op::Insert(aabb(rng)),
        1 => Op::InsertMany(aabbs(rng, 6)),
        2 => Op::Update(i, aabb(rng)),
        3 => Op::UpdateAll(aabbs(rng, 12)),
        4 => Op::Remove(i),
        5 => Op::SetMotion(i, Vec2::new(coord(rng), coord(rng))),
        6 => Op::SetFilter(i, rng.next_u64() as u32, rng.next_u64() as u32),
        _ => Op::Clear,
    }
}

fn same(a: Aabb, b: Aabb) -> bool {
    bytemuck::bytes_of(&a) == bytemuck::bytes_of(&b)
}

#[derive(Default)]
struct Model {
    live: HashMap<BoxHandle, (Aabb, BoxProps)>,
    /// Every handle ever handed out (live or dead), in order.
    issued: Vec<BoxHandle>,
}

impl Model {
    fn pick(&self, i: usize) -> Option<BoxHandle> {
        (!self.issued.is_empty()).then(|| self.issued[i % self.issued.len()])
    }
}

fn check(store: &BoxStore, model: &Model) {
    assert_eq!(store.len(), model.live.len());
    for &h in &model.issued {
        match model.live.get(&h) {
            Some((b, p)) => {
                assert!(same(store.get(h).unwrap(), *b));
                assert_eq!(store.props(h).unwrap(), *p);
                let i = store.index_of(h).unwrap();
                assert_eq!(store.handle_at(i), Some(h));
                assert_eq!(store.min_x()[i].to_bits(), b.min.x.to_bits());
                assert_eq!(store.max_y()[i].to_bits(), b.max.y.to_bits());
            }
            None => {
                assert!(!store.contains(h), "dead handle {h:?} still resolves");
                assert!(store.get(h).is_none());
            }
        }
    }
    // Handles are unique.
    let mut hs = store.handles().to_vec();
    hs.sort();
    hs.dedup();
    assert_eq!(hs.len(), store.len());
}

#[test]
fn store_matches_model() {
    for_cases("store_matches_model", 256, |rng| {
        let ops: Vec<Op> = (0..rng.range_u32(1, 60)).map(|_| op(rng)).collect();
        let mut store = BoxStore::new();
        let mut model = Model::default();
        for op in ops {
            match op {
                Op::Insert(b) => {
                    let r = store.insert(b);
                    assert_eq!(r.is_ok(), b.validate().is_ok());
                    if let Ok(h) = r {
                        assert!(!model.issued.contains(&h), "handle reused: {:?}", h);
                        model.live.insert(h, (b, BoxProps::default()));
                        model.issued.push(h);
                    }
                }
                Op::InsertMany(bs) => {
                    let first_bad = bs.iter().position(|b| b.validate().is_err());
                    match store.insert_many(&bs, BoxProps::default()) {
                        Ok(hs) => {
                            assert!(first_bad.is_none());
                            assert_eq!(hs.len(), bs.len());
                            for (h, b) in hs.into_iter().zip(bs) {
                                model.live.insert(h, (b, BoxProps::default()));
                                model.issued.push(h);
                            }
                        }
                        Err(Error::InvalidBox { index, .. }) => assert_eq!(Some(index), first_bad),
                        Err(e) => panic!("unexpected {e}"),
                    }
                }
                Op::Update(i, b) => {
                    if let Some(h) = model.pick(i) {
                        let r = store.update(h, b);
                        let ok = model.live.contains_key(&h) && b.validate().is_ok();
                        assert_eq!(r.is_ok(), ok);
                        if ok {
                            model.live.get_mut(&h).unwrap().0 = b;
                        }
                    }
                }
                Op::UpdateAll(bs) => {
                    let ok = bs.len() == store.len() && bs.iter().all(|b| b.validate().is_ok());
                    assert_eq!(store.update_all(&bs).is_ok(), ok);
                    if ok {
                        for (i, b) in bs.into_iter().enumerate() {
                            let h = store.handle_at(i).unwrap();
                            model.live.get_mut(&h).unwrap().0 = b;
                        }
                    }
                }
                Op::Remove(i) => {
                    if let Some(h) = model.pick(i) {
                        let r = store.remove(h);
                        match model.live.remove(&h) {
                            Some((b, _)) => assert!(same(r.unwrap(), b)),
                            None => assert_eq!(r, Err(Error::StaleHandle)),
                        }
                    }
                }
                Op::SetMotion(i, m) => {
                    if let Some(h) = model.pick(i) {
                        let ok = model.live.contains_key(&h) && m.is_finite();
                        assert_eq!(store.set_motion(h, m).is_ok(), ok);
                        if ok {
                            model.live.get_mut(&h).unwrap().1.motion = m;
                        }
                    }
                }
                Op::SetFilter(i, l, m) => {
                    if let Some(h) = model.pick(i) {
                        let ok = model.live.contains_key(&h);
                        assert_eq!(store.set_filter(h, Filter::new(l, m)).is_ok(), ok);
                        if ok {
                            model.live.get_mut(&h).unwrap().1.filter = Filter::new(l, m);
                        }
                    }
                }
                Op::Clear => {
                    store.clear();
                    model.live.clear();
                }
            }
            check(&store, &model);
        }
    });
}

#[test]
fn rejected_updates_leave_the_store_unchanged() {
    let mut store = BoxStore::new();
    let boxes: Vec<Aabb> = (0..5)
        .map(|i| Aabb::from_coords(i as f32, 0.0, i as f32 + 1.0, 1.0))
        .collect();
    let hs = store.insert_many(&boxes, BoxProps::default()).unwrap();
    let before = store.clone();
    let mut bad = boxes.clone();
    bad[3] = Aabb::from_coords(0.0, 2.0, 1.0, 1.0);
    assert_eq!(
        store.update_all(&bad),
        Err(Error::InvalidBox {
            index: 3,
            defect: crate::error::BoxDefect::Inverted { axis: 1 }
        })
    );
    assert!(matches!(
        store.update_all(&boxes[..4]),
        Err(Error::LengthMismatch {
            expected: 5,
            found: 4,
            ..
        })
    ));
    assert!(store.insert_many(&bad, BoxProps::default()).is_err());
    assert_eq!(
        store.set_motion(hs[0], Vec2::new(f32::INFINITY, 0.0)),
        Err(Error::InvalidMotion { index: 0 })
    );
    let mut motions = vec![Vec2::ONE; 5];
    motions[4] = Vec2::NAN;
    assert_eq!(
        store.set_motion_all(&motions),
        Err(Error::InvalidMotion { index: 4 })
    );
    assert_eq!(store.min_x(), before.min_x());
    assert_eq!(store.max_y(), before.max_y());
    assert_eq!(store.motion_x(), before.motion_x());
    assert_eq!(store.handles(), before.handles());
}

#[test]
fn exhausted_slot_is_retired_not_reused() {
    let mut store = BoxStore::new();
    let h = store.insert(Aabb::default()).unwrap();
    // Fast-forward the slot to its last generation.
    store.slots[h.slot as usize].generation = u32::MAX - 1;
    store.handle[0].generation = u32::MAX - 1;
    let old = store.handle_at(0).unwrap();
    store.remove(old).unwrap();
    let fresh = store.insert(Aabb::default()).unwrap();
    assert_ne!(
        fresh.slot, old.slot,
        "a slot whose generation wrapped was reused"
    );
    assert!(!store.contains(old));
}

#[test]
fn clear_invalidates_every_handle_and_slots_are_reused() {
    let mut store = BoxStore::new();
    let hs: Vec<_> = (0..4)
        .map(|_| store.insert(Aabb::default()).unwrap())
        .collect();
    store.clear();
    assert!(store.is_empty());
    assert!(hs.iter().all(|&h| !store.contains(h)));
    let again: Vec<_> = (0..4)
        .map(|_| store.insert(Aabb::default()).unwrap())
        .collect();
    let mut slots: Vec<u32> = again.iter().map(|h| h.slot()).collect();
    slots.sort_unstable();
    assert_eq!(slots, vec![0, 1, 2, 3], "freed slots are reused");
    assert!(again.iter().all(|h| h.generation() == 1));
}

#[test]
fn zero_size_boxes_are_stored() {
    let mut store = BoxStore::new();
    let p = Aabb::from_coords(3.0, 4.0, 3.0, 4.0);
    let h = store.insert(p).unwrap();
    assert_eq!(store.get(h), Some(p));
}

/// `remove_sorted` leaves what `remove` on each box (ascending) leaves: the same live
/// handles with the same shapes and properties, the removed ones dead, the shape tables
/// pointing at their boxes, and the same handles handed out next.
#[test]
fn remove_sorted_equals_removing_one_by_one() {
    for_cases("remove_sorted_equals_removing_one_by_one", 256, |rng| {
        let kinds: Vec<u32> = (0..rng.below(40)).map(|_| rng.below(3)).collect();
        let doomed_bits: Vec<bool> = (0..40).map(|_| rng.chance(0.5)).collect();
        let mut store = BoxStore::new();
        for (k, kind) in kinds.iter().enumerate() {
            let c = Vec2::new(k as f32 * 3.0, (k % 7) as f32);
            let props = BoxProps::new(Filter::new(1 << (k % 3), u32::MAX))
                .with_owner(Owner(k as u64 % 5))
                .with_motion(Vec2::new(k as f32, -1.0))
                .with_user_data(k as u64 * 11);
            let shape = match kind {
                0 => Shape::Aabb(Aabb::from_center_half_extents(c, Vec2::splat(1.0))),
                1 => Shape::Circle(crate::math::Circle::new(c, 1.5)),
                _ => Shape::Obb2(crate::math::Obb2::from_angle(
                    c,
                    Vec2::new(2.0, 1.0),
                    0.3 * k as f32,
                )),
            };
            store.insert_shape(shape, props).unwrap();
        }
        let doomed: Vec<u32> = (0..store.len() as u32)
            .filter(|&i| doomed_bits[i as usize])
            .collect();
        let handles: Vec<BoxHandle> = store.handles().to_vec();
        let mut one_by_one = store.clone();
        for &i in &doomed {
            one_by_one.remove(handles[i as usize]).unwrap();
        }
        store.remove_sorted(&doomed, false);
        assert_eq!(store.len(), one_by_one.len());
        for (i, &h) in handles.iter().enumerate() {
            let gone = doomed.contains(&(i as u32));
            assert_eq!(store.contains(h), !gone);
            if gone {
                continue;
            }
            assert_eq!(store.shape(h), one_by_one.shape(h));
            assert_eq!(store.props(h), one_by_one.props(h));
            assert_eq!(store.get(h), one_by_one.get(h));
            // The dense index, the handle column and the shapes agree.
            let d = store.index_of(h).unwrap();
            assert_eq!(store.handles()[d], h);
            assert_eq!(store.shape_at(d), store.shape(h));
        }
        // The free list: the same handles next, in the same order.
        for _ in 0..doomed.len() + 1 {
            let b = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
            assert_eq!(
                store.insert_with(b, BoxProps::default()).unwrap(),
                one_by_one.insert_with(b, BoxProps::default()).unwrap()
            );
        }
    });
}

/// `remove_many` leaves what `remove_sorted` leaves for the same boxes, given in any
/// order and some of them twice (so what `remove` on each leaves, but for the dense
/// order), and refuses a stale handle without removing anything.
#[test]
fn remove_many_removes_the_set_in_one_batch_or_nothing() {
    for_cases(
        "remove_many_removes_the_set_in_one_batch_or_nothing",
        128,
        |rng| {
            let mut store = BoxStore::new();
            for k in 0..rng.below(60) {
                let c = Vec2::new(k as f32 * 3.0, (k % 7) as f32);
                let props = BoxProps::new(Filter::ALL).with_user_data(u64::from(k));
                let shape = match k % 3 {
                    0 => Shape::Aabb(Aabb::from_center_half_extents(c, Vec2::splat(1.0))),
                    1 => Shape::Circle(crate::math::Circle::new(c, 1.5)),
                    _ => Shape::Capsule(crate::math::Capsule::new(c, c + Vec2::X, 0.5)),
                };
                store.insert_shape(shape, props).unwrap();
            }
            let handles: Vec<BoxHandle> = store.handles().to_vec();
            let mut picked: Vec<BoxHandle> = handles
                .iter()
                .copied()
                .filter(|_| rng.chance(0.4))
                .collect();
            for k in (1..picked.len()).rev() {
                picked.swap(k, rng.below(k as u32 + 1) as usize);
            }
            let mut doomed: Vec<u32> = picked
                .iter()
                .map(|&h| store.index_of(h).unwrap() as u32)
                .collect();
            doomed.sort_unstable();
            let mut want = store.clone();
            want.remove_sorted(&doomed, false);
            // Refused: a stale handle; the store unchanged.
            if let Some(&h) = picked.first() {
                let mut gone = store.clone();
                gone.remove(h).unwrap();
                let before = gone.clone();
                assert_eq!(gone.remove_many(&picked), Err(Error::StaleHandle));
                assert_eq!(gone.handles(), before.handles());
                assert_eq!(gone.min_x(), before.min_x());
            }
            // Some handles twice: removed once.
            let mut given = picked.clone();
            given.extend(picked.iter().filter(|_| rng.chance(0.3)));
            store.remove_many(&given).unwrap();
            assert_eq!(store.handles(), want.handles());
            assert_eq!(store.min_x(), want.min_x());
            assert_eq!(store.max_y(), want.max_y());
            for &h in &handles {
                assert_eq!(store.contains(h), !picked.contains(&h));
                assert_eq!(store.shape(h), want.shape(h));
                assert_eq!(store.props(h), want.props(h));
            }
            // The same handles handed out next.
            for _ in 0..picked.len() + 1 {
                let b = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
                assert_eq!(store.insert(b).unwrap(), want.insert(b).unwrap());
            }
        },
    );
}

/// `apply_motion` moves every box by its motion exactly as `Shape::translated` would,
/// the held ones to their given shapes, with the same bits serially and in parallel
/// (several blocks, 1 to 3 threads).
#[test]
fn apply_motion_matches_each_boxs_translation_on_every_path() {
    let mut rng = crate::rng::Rng::new(0x30710);
    let mut store = BoxStore::new();
    let n = 2 * MOTION_BLOCK + 777;
    for k in 0..n {
        let c = Vec2::new(rng.range_f32(-1e4, 1e4), rng.range_f32(-1e4, 1e4));
        let half = Vec2::new(rng.range_f32(0.0, 8.0), rng.range_f32(0.0, 8.0));
        // Some motions zero, some negative zero, the rest anything small.
        let motion = match k % 5 {
            0 => Vec2::ZERO,
            1 => Vec2::new(-0.0, 0.0),
            _ => Vec2::new(rng.range_f32(-9.0, 9.0), rng.range_f32(-9.0, 9.0)),
        };
        let props = BoxProps::default().with_motion(motion);
        store
            .insert_with(Aabb::from_center_half_extents(c, half), props)
            .unwrap();
    }
    let held_box = Aabb::from_coords(1.0, 2.0, 3.0, 4.0);
    let held = [(7u32, Shape::Aabb(held_box))];
    let want: Vec<[u32; 4]> = (0..n)
        .map(|i| {
            let b = if i == 7 {
                held_box
            } else {
                let m = Vec2::new(store.motion_x()[i], store.motion_y()[i]);
                store.aabb_at(i).unwrap().translated(m)
            };
            [b.min.x, b.min.y, b.max.x, b.max.y].map(f32::to_bits)
        })
        .collect();
    for (threads, parallel) in [(1, false), (1, true), (2, true), (3, true)] {
        let mut moved = store.clone();
        let pool = &crate::check::broad::pools()[threads - 1];
        pool.install(|| moved.apply_motion(&held, parallel, SimdLevel::best()));
        let got: Vec<[u32; 4]> = (0..n)
            .map(|i| {
                let b = moved.aabb_at(i).unwrap();
                [b.min.x, b.min.y, b.max.x, b.max.y].map(f32::to_bits)
            })
            .collect();
        assert!(got == want, "{threads} threads, parallel {parallel}");
    }
}

/// The table passes (`move_obbs` and `move_caps` through `move_table`) in blocks on the
/// pool give every box the bounds and every table entry the shape that one thread gives
/// them, bit for bit, with turning and still shapes, and with the tables naming boxes
/// in an order that removals scrambled. Small enough for Miri, which checks the blocks'
/// writes through `BoundsOut` (`.ci/miri`).
#[test]
fn table_passes_in_blocks_equal_one_thread() {
    let mut rng = Rng::new(0x7ab1e);
    let mut store = BoxStore::new();
    let n = 9 * TABLE_BLOCK + 5;
    let mut handles = Vec::new();
    for k in 0..n {
        let c = Vec2::new(rng.range_f32(-1e4, 1e4), rng.range_f32(-1e4, 1e4));
        let half = Vec2::new(rng.range_f32(0.5, 8.0), rng.range_f32(0.5, 8.0));
        let shape = match k % 3 {
            0 => Shape::Capsule(Capsule::new(c - half, c + half, half.y)),
            1 => Shape::Obb2(Obb2::from_angle(c, half, rng.range_f32(-3.0, 3.0))),
            _ => Shape::Circle(Circle::new(c, half.x)),
        };
        let motion = Vec2::new(rng.range_f32(-9.0, 9.0), rng.range_f32(-9.0, 9.0));
        let props = BoxProps::default().with_motion(motion);
        let h = store.insert_shape(shape, props).unwrap();
        // Rectangles and capsules turn, one in four.
        if k % 4 == 0 && k % 3 != 2 {
            store.set_turn(h, rng.range_f32(-0.2, 0.2)).unwrap();
        }
        handles.push(h);
    }
    for &h in handles.iter().step_by(7) {
        store.remove(h).unwrap();
    }
    assert!(store.capsule_table().0.len() > 2 * TABLE_BLOCK);
    assert!(store.obb_table().0.len() > 2 * TABLE_BLOCK);
    let bits = |s: &BoxStore| -> Vec<u32> {
        [s.min_x(), s.min_y(), s.max_x(), s.max_y()]
            .iter()
            .flat_map(|c| c.iter().map(|v| v.to_bits()))
            .collect()
    };
    let mut one = store.clone();
    one.apply_motion(&[], false, SimdLevel::Scalar);
    let threads: &[usize] = if cfg!(miri) { &[2] } else { &[2, 3] };
    for &threads in threads {
        let mut moved = store.clone();
        let pool = &crate::check::broad::pools()[threads - 1];
        pool.install(|| moved.apply_motion(&[], true, SimdLevel::Scalar));
        assert!(bits(&moved) == bits(&one), "{threads} threads");
        for i in 0..moved.len() {
            assert_eq!(
                moved.shape_at(i),
                one.shape_at(i),
                "box {i}, {threads} threads"
            );
        }
    }
}

/// With discs, rectangles and capsules among the boxes, `apply_motion` gives every box the shape
/// `Shape::translated` gives it and the bounds `Shape::bounds` makes of that, bit for
/// bit, serially and in parallel, at every SIMD level; held boxes get their given
/// shapes. Boxes change kind and leave the store first, so that the disc columns hold
/// stale entries under plain boxes.
#[test]
fn apply_motion_moves_discs_and_rectangles_as_their_shapes_say() {
    let mut rng = crate::rng::Rng::new(0xd15c);
    let mut store = BoxStore::new();
    let n = 2 * MOTION_BLOCK + 333;
    let mut handles = Vec::new();
    for k in 0..n {
        let c = Vec2::new(rng.range_f32(-1e5, 1e5), rng.range_f32(-1e5, 1e5));
        let half = Vec2::new(rng.range_f32(0.0, 8.0), rng.range_f32(0.0, 8.0));
        let motion = match k % 7 {
            0 => Vec2::ZERO,
            1 => Vec2::new(-0.0, 0.0),
            _ => Vec2::new(rng.range_f32(-9.0, 9.0), rng.range_f32(-9.0, 9.0)),
        };
        let shape = match k % 5 {
            0 => Shape::Aabb(Aabb::from_center_half_extents(c, half)),
            // Radius 0 too: a disc that is a point.
            1 => Shape::Circle(Circle::new(c, if k % 11 == 0 { 0.0 } else { half.x })),
            2 => Shape::Obb2(Obb2::from_angle(c, half, rng.range_f32(-3.0, 3.0))),
            _ if k.is_multiple_of(2) => Shape::Capsule(Capsule::new(c - half, c + half, half.y)),
            _ => Shape::Circle(Circle::new(c, half.y)),
        };
        let props = BoxProps::default().with_motion(motion);
        handles.push(store.insert_shape(shape, props).unwrap());
    }
    // Some discs become boxes and some boxes discs; some boxes leave.
    for (k, &h) in handles.iter().enumerate().step_by(97) {
        let b = store.get(h).unwrap();
        let shape = if store.shape(h).unwrap().kind() == ShapeKind::Circle {
            Shape::Aabb(b)
        } else {
            Shape::Circle(Circle::new(b.center(), 1.5))
        };
        store.update_shape(h, shape).unwrap();
        if k % 3 == 0 {
            store.remove(h).unwrap();
        }
    }
    let n = store.len();
    let held = [
        (
            5u32,
            store.shape_at(5).unwrap().translated(Vec2::new(0.5, -0.25)),
        ),
        (9u32, store.shape_at(9).unwrap()),
    ];
    let want: Vec<(Shape, [u32; 4])> = (0..n)
        .map(|i| {
            let shape = match held.iter().find(|h| h.0 as usize == i) {
                Some(&(_, s)) => s,
                None => {
                    let m = Vec2::new(store.motion_x()[i], store.motion_y()[i]);
                    store.shape_at(i).unwrap().translated(m)
                }
            };
            let b = shape.bounds();
            (
                shape,
                [b.min.x, b.min.y, b.max.x, b.max.y].map(f32::to_bits),
            )
        })
        .collect();
    for &simd in SimdLevel::available() {
        for (threads, parallel) in [(1, false), (2, true), (3, true)] {
            let mut moved = store.clone();
            let pool = &crate::check::broad::pools()[threads - 1];
            pool.install(|| moved.apply_motion(&held, parallel, simd));
            for (i, (shape, bounds)) in want.iter().enumerate() {
                let b = moved.aabb_at(i).unwrap();
                let got = [b.min.x, b.min.y, b.max.x, b.max.y].map(f32::to_bits);
                let what = format!("box {i}, {simd:?}, {threads} threads");
                assert_eq!(&got, bounds, "{what}");
                assert_eq!(moved.shape_at(i).unwrap(), *shape, "{what}");
            }
        }
    }
}

/// `set_motions` gives each handle's box its motion as `set_motion` one by one would
/// (in any handle order, a handle twice getting its last motion), and on any bad input
/// (a length mismatch, a removed box, a NaN) changes nothing and names the defect.
#[test]
fn set_motions_equals_set_motion_one_by_one_and_is_all_or_nothing() {
    let mut rng = crate::rng::Rng::new(0x5e7);
    let mut store = BoxStore::new();
    let handles: Vec<BoxHandle> = (0..3000)
        .map(|k| {
            let c = Vec2::new(rng.range_f32(0.0, 500.0), rng.range_f32(0.0, 500.0));
            store.insert(Aabb::from_center_half_extents(
                c,
                Vec2::splat(1.0 + (k % 3) as f32),
            ))
        })
        .collect::<Result<_, _>>()
        .unwrap();
    // Some removed, so that slots and dense order disagree.
    for h in handles.iter().step_by(7) {
        store.remove(*h).unwrap();
    }
    let mut live: Vec<BoxHandle> = handles
        .iter()
        .copied()
        .filter(|h| store.contains(*h))
        .collect();
    for k in (1..live.len()).rev() {
        live.swap(k, rng.below(k as u32 + 1) as usize);
    }
    live.push(live[3]); // a handle twice
    let motions: Vec<Vec2> = (0..live.len())
        .map(|_| Vec2::new(rng.range_f32(-9.0, 9.0), rng.range_f32(-9.0, 9.0)))
        .collect();
    let mut one_by_one = store.clone();
    for (&h, &m) in live.iter().zip(&motions) {
        one_by_one.set_motion(h, m).unwrap();
    }
    let before = store.clone();
    store.set_motions(&live, &motions).unwrap();
    assert_eq!(store.motion_x(), one_by_one.motion_x());
    assert_eq!(store.motion_y(), one_by_one.motion_y());
    // Bad input: nothing changes.
    let unchanged =
        |s: &BoxStore| s.motion_x() == store.motion_x() && s.motion_y() == store.motion_y();
    let mut bad = store.clone();
    let stale = handles[0];
    let mut with_stale = live.clone();
    with_stale[1000] = stale;
    assert_eq!(
        bad.set_motions(&with_stale, &motions),
        Err(Error::StaleHandle)
    );
    assert!(unchanged(&bad));
    // The last handle removed: found only after every other one was checked.
    let mut last_stale = live.clone();
    *last_stale.last_mut().unwrap() = stale;
    assert_eq!(
        bad.set_motions(&last_stale, &motions),
        Err(Error::StaleHandle)
    );
    assert!(unchanged(&bad));
    let mut nan = motions.clone();
    nan[1234] = Vec2::new(0.0, f32::NAN);
    assert_eq!(
        bad.set_motions(&live, &nan),
        Err(Error::InvalidMotion { index: 1234 })
    );
    assert!(unchanged(&bad));
    // The first defect in handle order, whatever its kind.
    assert_eq!(bad.set_motions(&with_stale, &nan), Err(Error::StaleHandle));
    let mut nan_first = motions.clone();
    nan_first[999] = Vec2::new(f32::INFINITY, 0.0);
    assert_eq!(
        bad.set_motions(&with_stale, &nan_first),
        Err(Error::InvalidMotion { index: 999 })
    );
    assert!(unchanged(&bad));
    assert!(matches!(
        bad.set_motions(&live, &motions[1..]),
        Err(Error::LengthMismatch { .. })
    ));
    assert!(unchanged(&bad));
    assert!(before.motion_x() != store.motion_x());
    // After the refused calls (which leave indices in the buffer the store keeps
    // between calls), a good call with other motions: as one by one again.
    let other: Vec<Vec2> = motions.iter().rev().map(|m| *m * 0.5).collect();
    bad.set_motions(&live[..2000], &other[..2000]).unwrap();
    let mut again = store.clone();
    for (&h, &m) in live[..2000].iter().zip(&other) {
        again.set_motion(h, m).unwrap();
    }
    assert_eq!(bad.motion_x(), again.motion_x());
    assert_eq!(bad.motion_y(), again.motion_y());
}

/// `set_motions` on many handles, where it skips the bounds of a motion too small to
/// take any box out of range, accepts and refuses exactly what `set_motion` one by one
/// does, with boxes and motions at the edge of `MAX_COORDINATE`; a refused call
/// changes nothing.
#[test]
fn set_motions_checks_the_reach_as_set_motion_does_near_the_limit() {
    let mut rng = crate::rng::Rng::new(0x11_4e4);
    let max = crate::math::MAX_COORDINATE;
    let mut outcomes = [0; 2];
    for far in [0.0, 1.0e3, 0.5 * max, max - 8.0, max] {
        let mut store = BoxStore::new();
        let handles: Vec<BoxHandle> = (0..200)
            .map(|k| {
                let x = match k {
                    0 => far - 1.0,
                    1 => -far,
                    _ => rng.range_f32(-100.0, 100.0),
                };
                store.insert(Aabb::from_coords(x, 0.0, x + 1.0, 1.0))
            })
            .collect::<Result<_, _>>()
            .unwrap();
        // Motions at the limit of the far boxes and of the others, a few ulps either side.
        let edges = [max - far, max - far + 1.0, max - 101.0, max - 100.0, max];
        for _ in 0..100 {
            let motions: Vec<Vec2> = (0..handles.len())
                .map(|_| {
                    let mut v = [0.0f32; 2];
                    for x in &mut v {
                        *x = if rng.below(400) == 0 {
                            let mut e = edges[rng.below(edges.len() as u32) as usize];
                            for _ in 0..rng.below(3) {
                                e = if rng.below(2) == 0 {
                                    e.next_up()
                                } else {
                                    e.next_down()
                                };
                            }
                            if rng.below(2) == 0 { -e } else { e }
                        } else {
                            rng.range_f32(-50.0, 50.0)
                        };
                    }
                    Vec2::from(v)
                })
                .collect();
            let mut one = store.clone();
            let want = (handles.iter().zip(&motions)).try_for_each(|(&h, &m)| one.set_motion(h, m));
            let mut many = store.clone();
            assert_eq!(many.set_motions(&handles, &motions), want, "far {far}");
            outcomes[usize::from(want.is_ok())] += 1;
            let (mx, my) = if want.is_ok() {
                (one.motion_x(), one.motion_y())
            } else {
                (store.motion_x(), store.motion_y())
            };
            assert_eq!((many.motion_x(), many.motion_y()), (mx, my), "far {far}");
        }
    }
    assert!(
        outcomes.iter().all(|&n| n > 50),
        "refused, accepted: {outcomes:?}"
    );
}

/// `remove_sorted` on many boxes leaves the same store on rayon's pool (the columns as
/// tasks) as on the calling thread: every column, bit for bit, and the same shapes and
/// handles.
#[test]
fn remove_sorted_in_parallel_equals_serial() {
    let mut store = BoxStore::new();
    for k in 0..3000u32 {
        let c = Vec2::new((k % 97) as f32 * 3.0, (k / 97) as f32 * 2.5);
        let props = BoxProps::new(Filter::new(1 << (k % 3), u32::MAX))
            .with_owner(Owner(u64::from(k % 5)))
            .with_motion(Vec2::new(k as f32 * 0.01, -1.0))
            .with_user_data(u64::from(k) * 11);
        let shape = match k % 3 {
            0 => Shape::Aabb(Aabb::from_center_half_extents(c, Vec2::splat(1.0))),
            1 => Shape::Circle(crate::math::Circle::new(c, 1.5)),
            _ => Shape::Obb2(crate::math::Obb2::from_angle(
                c,
                Vec2::new(2.0, 1.0),
                0.1 * k as f32,
            )),
        };
        store.insert_shape(shape, props).unwrap();
    }
    // Every third box and a run at the end: far more than the parallel threshold.
    let doomed: Vec<u32> = (0..store.len() as u32)
        .filter(|&i| i % 3 == 1 || i >= 2900)
        .collect();
    let mut serial = store.clone();
    serial.remove_sorted(&doomed, false);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| store.remove_sorted(&doomed, true));
    assert_eq!(store.len(), 3000 - doomed.len());
    let bits = |s: &BoxStore| -> Vec<Vec<u32>> {
        let [dx, dy, dr] = s.disc_columns_ref();
        [
            s.min_x(),
            s.min_y(),
            s.max_x(),
            s.max_y(),
            s.motion_x(),
            s.motion_y(),
            dx,
            dy,
            dr,
        ]
        .iter()
        .map(|c| c.iter().map(|v| v.to_bits()).collect())
        .collect()
    };
    assert_eq!(bits(&store), bits(&serial));
    assert_eq!(store.layers(), serial.layers());
    assert_eq!(store.masks(), serial.masks());
    assert_eq!(store.solids(), serial.solids());
    assert_eq!(store.owners(), serial.owners());
    assert_eq!(store.user_data(), serial.user_data());
    assert_eq!(store.responses(), serial.responses());
    assert_eq!(store.handles(), serial.handles());
    for i in 0..store.len() {
        assert_eq!(store.shape_at(i), serial.shape_at(i), "box {i}");
    }
}

/// `centers_into` gives each box's shape's centre, bit for bit, for every kind, before
/// and after removals and with no disc at all.
#[test]
fn centers_into_matches_each_shapes_center() {
    let center = |s: Shape| match s {
        Shape::Aabb(a) => a.center(),
        Shape::Circle(c) => c.center,
        Shape::Obb2(o) => o.center,
        Shape::Capsule(c) => c.center(),
    };
    for_cases("centers_into_matches_each_shapes_center", 64, |rng| {
        let mut store = BoxStore::new();
        let kinds = rng.pick(&[1u32, 2, 3, 4]);
        for _ in 0..rng.below(300) {
            let c = Vec2::new(rng.range_f32(-1e5, 1e5), rng.range_f32(-1e5, 1e5));
            let h = Vec2::new(rng.range_f32(0.0, 9.0), rng.range_f32(0.0, 9.0));
            let shape = match rng.below(kinds) {
                0 => Shape::Aabb(Aabb::from_center_half_extents(c, h)),
                1 => Shape::Obb2(crate::math::Obb2::from_angle(
                    c,
                    h,
                    rng.range_f32(-3.0, 3.0),
                )),
                2 => Shape::Circle(crate::math::Circle::new(c, h.x)),
                _ => Shape::Capsule(crate::math::Capsule::new(c - h, c + h.perp(), h.y)),
            };
            store.insert_shape(shape, BoxProps::default()).unwrap();
        }
        let mut out = vec![Vec2::NAN; 3];
        for _ in 0..2 {
            store.centers_into(&mut out);
            assert_eq!(out.len(), store.len());
            for (i, got) in out.iter().enumerate() {
                let want = center(store.shape_at(i).unwrap());
                assert_eq!(
                    (got.x.to_bits(), got.y.to_bits()),
                    (want.x.to_bits(), want.y.to_bits())
                );
            }
            let doomed: Vec<u32> = (0..store.len() as u32)
                .filter(|_| rng.chance(0.3))
                .collect();
            store.remove_sorted(&doomed, false);
        }
    });
}

/// `all_within` refuses one motion beyond the limit, infinite or NaN on either axis,
/// wherever it is (in a block of eight or in the last few), and accepts the limit.
#[test]
fn all_within_finds_one_bad_motion_anywhere() {
    let limit = 10.0;
    for n in [0, 1, 7, 8, 9, 23, 64] {
        let ok = vec![Vec2::new(limit, -limit); n];
        assert!(super::all_within(&ok, limit), "{n}");
        for at in 0..n {
            for bad in [limit.next_up(), f32::INFINITY, f32::NAN] {
                for axis in 0..2 {
                    let mut v = ok.clone();
                    v[at][axis] = if at % 2 == 0 { bad } else { -bad };
                    assert!(!super::all_within(&v, limit), "{n} {at} {bad} {axis}");
                }
            }
        }
    }
}

/// The store keeps how far its boxes reach (its extent), and `set_motions` reads that
/// instead of the bounds. After every kind of change of bounds (inserts, updates of
/// boxes and shapes, a turn, the motion pass, removals, a clear) the extent holds, and
/// `set_motions` accepts and refuses exactly what `set_motion` does, for motions that
/// take each box to the coordinate limit and a few ulps either side. Both with the
/// motion pass keeping the extent (after a first `set_motions`) and without.
#[test]
fn set_motions_reads_an_extent_that_every_change_keeps() {
    for keep in [false, true] {
        extent_scenario(keep);
    }
}

fn extent_scenario(keep: bool) {
    let max = crate::math::MAX_COORDINATE;
    let agree = |store: &BoxStore, what: &str| {
        assert!(store.extent_holds(), "{what}: extent {}", store.extent);
        let live: Vec<BoxHandle> = store.handles().to_vec();
        // Each bound's distance to the limit on its side, a few ulps either way.
        let mut reach = Vec::new();
        for i in 0..store.len() {
            let b = store.aabb_at(i).unwrap();
            for v in [b.min.x, b.min.y, b.max.x, b.max.y] {
                let mut d = max - v.abs();
                for _ in 0..2 {
                    d = d.next_down();
                }
                for _ in 0..5 {
                    reach.push(d.copysign(v));
                    d = d.next_up();
                }
            }
        }
        let mut outcomes = [0; 2];
        for &d in &reach {
            for m in [Vec2::new(d, 0.0), Vec2::new(0.0, d)] {
                for &h in &live {
                    let (mut one, mut many) = (store.clone(), store.clone());
                    let want = one.set_motion(h, m);
                    assert_eq!(many.set_motions(&[h], &[m]), want, "{what}: {h:?} by {m}");
                    assert_eq!(many.motion_x(), one.motion_x(), "{what}");
                    outcomes[usize::from(want.is_ok())] += 1;
                    // Every box at once, the same motion each.
                    let mut one = store.clone();
                    let want = live.iter().try_for_each(|&h| one.set_motion(h, m));
                    let mut many = store.clone();
                    let all = vec![m; live.len()];
                    assert_eq!(many.set_motions(&live, &all), want, "{what}: all by {m}");
                }
            }
        }
        // Each store but the empty one has motions either side of the limit.
        assert!(
            live.is_empty() || outcomes.iter().all(|&n| n > 0),
            "{what}: {outcomes:?}"
        );
    };
    let mut store = BoxStore::new();
    if keep {
        store.set_motions(&[], &[]).unwrap();
        assert!(store.keep_extent);
    }
    let a = store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)).unwrap();
    let props = BoxProps::default();
    let disc = store
        .insert_shape(Circle::new(Vec2::ZERO, 1.0), props)
        .unwrap();
    let beam = Obb2::from_angle(Vec2::new(5.0, 5.0), Vec2::new(40.0, 1.0), 0.3);
    let laser = store.insert_shape(beam, props).unwrap();
    agree(&store, "inserted");
    store
        .update(a, Aabb::from_coords(max - 10.0, 0.0, max - 9.0, 1.0))
        .unwrap();
    agree(&store, "a box near the limit");
    store
        .update(a, Aabb::from_coords(0.0, 0.0, 1.0, 1.0))
        .unwrap();
    agree(&store, "back from the limit");
    let far_disc = Circle::new(Vec2::new(0.0, 20.0 - max), 3.0);
    store.update_shape(disc, far_disc).unwrap();
    agree(&store, "a disc near the limit");
    let far_beam = Obb2::from_angle(Vec2::new(max - 1000.0, 0.0), Vec2::new(40.0, 1.0), 0.3);
    store.update_shape(laser, far_beam).unwrap();
    store.set_turn(laser, 0.5).unwrap();
    agree(&store, "a turning rectangle near the limit");
    // The motion pass takes a box from the middle to the limit.
    store
        .update_shape(disc, Circle::new(Vec2::ZERO, 1.0))
        .unwrap();
    store.update_shape(laser, beam).unwrap();
    store.set_motion(a, Vec2::new(max - 3.0, 0.0)).unwrap();
    store.set_motion(laser, Vec2::new(0.0, -1000.0)).unwrap();
    store.apply_motion(&[], false, SimdLevel::best());
    assert_eq!(store.extent == UNKNOWN, !keep);
    agree(&store, "moved to the limit");
    store.set_motion(a, Vec2::ZERO).unwrap();
    store.set_motion(laser, Vec2::ZERO).unwrap();
    store.set_motion(disc, Vec2::new(0.0, 2.0 - max)).unwrap();
    let pool = &crate::check::broad::pools()[1];
    pool.install(|| store.apply_motion(&[], true, SimdLevel::best()));
    agree(&store, "moved on the pool");
    store.remove(a).unwrap();
    agree(&store, "removed");
    store.clear();
    agree(&store, "cleared");
    assert_eq!(store.extent, 0);
    store
        .insert(Aabb::from_coords(-1.0, -1.0, 1.0, 1.0))
        .unwrap();
    store
        .insert(Aabb::from_coords(-max, -max, 1.0 - max, 1.0 - max))
        .unwrap();
    agree(&store, "inserted after a clear");
}

/// `clone_from` into a store that held other boxes (more of them, all four shape kinds,
/// a kept `set_motions` buffer) gives the same store as `clone`: the same columns,
/// tables, handles and free list, so both hand out the same next handle. It keeps the
/// target's room.
#[test]
fn clone_from_copies_everything_into_the_targets_buffers() {
    let shapes = |rng: &mut Rng, n: usize| -> Vec<Shape> {
        (0..n)
            .map(|k| {
                let c = Vec2::new(rng.range_f32(-50.0, 50.0), rng.range_f32(-50.0, 50.0));
                match k % 4 {
                    0 => Shape::Aabb(Aabb::from_center_half_extents(c, Vec2::splat(1.0))),
                    1 => Shape::Circle(Circle::new(c, 2.0)),
                    2 => Shape::Obb2(Obb2::from_angle(c, Vec2::new(3.0, 1.0), 0.5)),
                    _ => Shape::Capsule(Capsule::new(c, c + Vec2::new(2.0, 1.0), 0.5)),
                }
            })
            .collect()
    };
    let mut rng = Rng::new(0xc10e);
    let mut source = BoxStore::new();
    let mut handles = Vec::new();
    for s in shapes(&mut rng, 40) {
        handles.push(source.insert_shape(s, BoxProps::default()).unwrap());
    }
    // Holes in the free list, a turn and motions.
    for h in handles.iter().step_by(3) {
        source.remove(*h).unwrap();
    }
    let live: Vec<BoxHandle> = source.handles().to_vec();
    source
        .set_motions(&live, &vec![Vec2::new(1.0, -2.0); live.len()])
        .unwrap();
    let obb = live
        .iter()
        .find(|&&h| matches!(source.shape(h), Some(Shape::Obb2(_))))
        .copied()
        .unwrap();
    source.set_turn(obb, 0.25).unwrap();

    let mut target = BoxStore::with_capacity(500);
    for s in shapes(&mut rng, 300) {
        target.insert_shape(s, BoxProps::default()).unwrap();
    }
    let theirs: Vec<BoxHandle> = target.handles().to_vec();
    target
        .set_motions(&theirs, &vec![Vec2::ONE; theirs.len()])
        .unwrap();
    let room = target.min_x.capacity();

    target.clone_from(&source);
    let mut copy = source.clone();
    assert_eq!(format!("{target:?}"), format!("{copy:?}"));
    assert_eq!(format!("{target:?}"), format!("{source:?}"));
    assert_eq!(
        target.min_x.capacity(),
        room,
        "clone_from keeps the target's room"
    );
    let b = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
    assert_eq!(target.insert(b).unwrap(), copy.insert(b).unwrap());
    for h in &live {
        assert_eq!(target.props(*h), source.props(*h));
        assert_eq!(target.shape(*h), source.shape(*h));
    }
}
