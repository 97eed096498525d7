//! The pipeline against an all-pairs oracle, plus its contracts: events, compound
//! hitboxes, layers, determinism.

use super::*;
use crate::math::Aabb;
use crate::rng::Rng;
use crate::store::BoxProps;
use crate::store::Filter;

/// A scene of moving boxes with random layers and owners.
fn random_store(n: usize, seed: u64, owners: u32) -> BoxStore {
    let mut rng = Rng::new(seed);
    let filters = layers::PRESETS;
    let mut store = BoxStore::new();
    let side = (n as f32).sqrt() * 6.0;
    for _ in 0..n {
        let c = Vec2::new(rng.range_f32(0.0, side), rng.range_f32(0.0, side));
        let h = Vec2::new(rng.range_f32(0.5, 3.0), rng.range_f32(0.5, 3.0));
        let motion = if rng.below(4) == 0 {
            Vec2::ZERO
        } else {
            Vec2::new(rng.range_f32(-20.0, 20.0), rng.range_f32(-20.0, 20.0))
        };
        let owner = if owners > 0 && rng.below(2) == 0 {
            Owner(u64::from(rng.below(owners)))
        } else {
            Owner::NONE
        };
        let filter = filters[rng.below(filters.len() as u32) as usize];
        store
            .insert_with(
                Aabb::from_center_half_extents(c, h),
                BoxProps {
                    filter,
                    owner,
                    motion,
                    ..BoxProps::default()
                },
            )
            .unwrap();
    }
    store
}

/// The all-pairs oracle shared with the fuzz target.
fn oracle(store: &BoxStore) -> Vec<Contact> {
    crate::check::frame::oracle(store)
}

fn scalar_frame(parallel: bool) -> Frame {
    Frame::with_config(FrameConfig {
        simd: SimdLevel::Scalar,
        parallel,
        ..FrameConfig::default()
    })
}

#[test]
fn contacts_match_the_all_pairs_oracle() {
    for (n, seed, owners) in [(0, 1, 0), (1, 2, 0), (50, 3, 5), (600, 4, 40), (1500, 5, 0)] {
        let store = random_store(n, seed, owners);
        let want = oracle(&store);
        let mut frame = scalar_frame(false);
        let got = frame.step(&store).unwrap().contacts.to_vec();
        assert!(n < 600 || !want.is_empty(), "scene too sparse to test");
        assert_eq!(got, want, "n={n} seed={seed}");
    }
}

#[test]
fn every_simd_level_and_thread_count_gives_the_same_report() {
    let store = random_store(3000, 9, 100);
    let mut reference: Option<(Vec<Contact>, Vec<PairEvent>)> = None;
    for &simd in SimdLevel::available() {
        for threads in [1, 2, 4] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let mut frame = Frame::with_config(FrameConfig {
                simd,
                parallel: threads > 1,
                parallel_threshold: 0,
                ..FrameConfig::default()
            });
            let got = pool.install(|| {
                let r = frame.step(&store).unwrap();
                (r.contacts.to_vec(), r.began.to_vec())
            });
            match &reference {
                None => reference = Some(got),
                Some(r) => {
                    // Statuses and pairs exactly; times within the narrow phase's bound.
                    assert_eq!(r.1, got.1, "{simd:?} × {threads}");
                    assert_eq!(r.0.len(), got.0.len());
                    for (x, y) in r.0.iter().zip(&got.0) {
                        assert_eq!((x.bodies, x.status), (y.bodies, y.status));
                        assert!((x.toi - y.toi).abs() <= 1e-5, "{x:?} {y:?}");
                    }
                }
            }
        }
    }
}

#[test]
fn many_distinct_filters_fall_back_to_per_box_filters() {
    let mut store = random_store(800, 11, 10);
    let mut rng = Rng::new(12);
    let handles: Vec<BoxHandle> = store.handles().to_vec();
    for h in handles {
        let bit = 1 << rng.below(8);
        store
            .set_filter(h, Filter::new(bit, rng.next_u64() as u32 | bit))
            .unwrap();
    }
    let want = oracle(&store);
    let mut grouped = Frame::with_config(FrameConfig {
        simd: SimdLevel::Scalar,
        parallel: false,
        max_groups: 100_000,
        ..FrameConfig::default()
    });
    let mut per_box = Frame::with_config(FrameConfig {
        simd: SimdLevel::Scalar,
        parallel: false,
        max_groups: 4,
        ..FrameConfig::default()
    });
    assert_eq!(grouped.step(&store).unwrap().contacts, &want[..]);
    assert_eq!(per_box.step(&store).unwrap().contacts, &want[..]);
    assert!(per_box.grouping.per_box && !grouped.grouping.per_box);
}

/// ```text
///   B →→→→→→→→→→→→→→ (moves 100 per frame)
///              [ E ]          the enemy is 8 wide: B jumps over it between frames
/// ```
#[test]
fn fast_bullets_do_not_tunnel() {
    let mut store = BoxStore::new();
    let bullet = store
        .insert_with(
            Aabb::from_center_half_extents(Vec2::ZERO, Vec2::splat(0.5)),
            BoxProps {
                filter: layers::player_bullet(),
                motion: Vec2::new(100.0, 0.0),
                ..Default::default()
            },
        )
        .unwrap();
    let enemy = store
        .insert_with(
            Aabb::from_center_half_extents(Vec2::new(50.0, 0.0), Vec2::splat(4.0)),
            BoxProps {
                filter: layers::enemy(),
                owner: Owner(1),
                ..Default::default()
            },
        )
        .unwrap();
    let mut frame = Frame::new();
    let r = frame.step(&store).unwrap();
    assert_eq!(r.contacts.len(), 1);
    let c = r.contacts[0];
    assert_eq!(c.status, SweepStatus::Hit);
    assert_eq!(c.toi, 0.455); // (50 - 4 - 0.5) / 100
    // Body order: owners sort before owner-less boxes.
    assert_eq!(c.bodies.a, Body::Owner(Owner(1)));
    assert_eq!(c.bodies.b, Body::Box(bullet));
    assert_eq!(c.boxes, (enemy, bullet));
    assert_eq!(
        c.normal,
        Vec2::new(1.0, 0.0),
        "the bullet's face the enemy met"
    );
}

/// A bullet crossing an enemy over five frames: began once, stayed, ended once.
#[test]
fn events_begin_stay_and_end_once() {
    let mut store = BoxStore::new();
    let bullet = store
        .insert_with(
            Aabb::from_center_half_extents(Vec2::new(-10.0, 0.0), Vec2::splat(1.0)),
            BoxProps {
                filter: layers::enemy_bullet(),
                motion: Vec2::new(4.0, 0.0),
                ..Default::default()
            },
        )
        .unwrap();
    store
        .insert_with(
            Aabb::from_center_half_extents(Vec2::ZERO, Vec2::splat(3.0)),
            BoxProps {
                filter: layers::player(),
                owner: Owner(0),
                ..Default::default()
            },
        )
        .unwrap();
    let mut frame = Frame::new();
    let mut log = Vec::new();
    for _ in 0..8 {
        let r = frame.step(&store).unwrap();
        log.push((r.began.len(), r.stayed.len(), r.ended.len()));
        let b = store.get(bullet).unwrap();
        store
            .update(bullet, b.translated(Vec2::new(4.0, 0.0)))
            .unwrap();
    }
    // The bullet spans [x - 1, x + 1], x = -10 + 4k at the start of frame k and 4 more
    // at its end; the player spans [-3, 3].
    assert_eq!(
        log,
        [
            (0, 0, 0), // [-11, -9] → [-7, -5]: apart
            (1, 0, 0), // [-7, -5] → [-3, -1]: touches at t = 0.5: begins
            (0, 1, 0), // [-3, -1] at the start: overlapping
            (0, 1, 0), // [1, 3]: still touching at the start
            (0, 0, 1), // [5, 7] moving away: ends, once
            (0, 0, 0),
            (0, 0, 0),
            (0, 0, 0),
        ]
    );
    frame.reset_events();
}

/// An enemy made of three boxes; a bullet sweeping through two of them is one contact,
/// the earliest; the enemy's own boxes overlap but never collide with each other.
#[test]
fn compound_hitboxes_report_one_contact_per_body_pair() {
    let mut store = BoxStore::new();
    let enemy = |store: &mut BoxStore, x: f32| {
        store
            .insert_with(
                Aabb::from_center_half_extents(Vec2::new(x, 0.0), Vec2::new(3.0, 3.0)),
                BoxProps {
                    filter: Filter::new(layers::ENEMY, layers::ENEMY | layers::PLAYER_BULLET),
                    owner: Owner(42),
                    ..Default::default()
                },
            )
            .unwrap()
    };
    let near = enemy(&mut store, 10.0);
    let _mid = enemy(&mut store, 14.0);
    let _far = enemy(&mut store, 18.0);
    let bullet = store
        .insert_with(
            Aabb::from_center_half_extents(Vec2::ZERO, Vec2::splat(0.5)),
            BoxProps {
                filter: layers::player_bullet(),
                motion: Vec2::new(30.0, 0.0),
                ..Default::default()
            },
        )
        .unwrap();
    let mut frame = scalar_frame(false);
    let r = frame.step(&store).unwrap();
    assert_eq!(r.contacts.len(), 1, "{:?}", r.contacts);
    let c = r.contacts[0];
    assert_eq!(
        c.bodies,
        BodyPair {
            a: Body::Owner(Owner(42)),
            b: Body::Box(bullet)
        }
    );
    assert_eq!(c.boxes, (near, bullet), "the earliest of the three hits");
    assert_eq!(c.toi, 6.5 / 30.0);
    assert_eq!(r.candidates, 3);
}

#[test]
fn bullets_ignore_bullets_unless_asked() {
    let mut store = BoxStore::new();
    let b = |store: &mut BoxStore, f: Filter| {
        store
            .insert_with(
                Aabb::from_coords(0.0, 0.0, 1.0, 1.0),
                BoxProps {
                    filter: f,
                    ..Default::default()
                },
            )
            .unwrap()
    };
    b(&mut store, layers::player_bullet());
    b(&mut store, layers::enemy_bullet());
    b(&mut store, layers::enemy_bullet());
    let mut frame = Frame::new();
    assert!(frame.step(&store).unwrap().contacts.is_empty());
    let mut store2 = BoxStore::new();
    b(
        &mut store2,
        layers::with_bullets_colliding(layers::player_bullet()),
    );
    b(
        &mut store2,
        layers::with_bullets_colliding(layers::enemy_bullet()),
    );
    b(&mut store2, layers::enemy_bullet());
    let r = frame.step(&store2).unwrap();
    assert_eq!(r.contacts.len(), 1);
    assert_eq!(r.contacts[0].status, SweepStatus::Overlapping);
}

#[test]
fn out_of_range_boxes_are_an_error_naming_the_box() {
    let l = MAX_COORDINATE;
    let mut store = BoxStore::new();
    store.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)).unwrap();
    // The store refuses a box whose motion leaves the range.
    let far = BoxProps {
        motion: Vec2::new(0.6 * l, 0.0),
        ..Default::default()
    };
    let out = store.insert_with(Aabb::from_coords(0.5 * l, 0.0, 0.5 * l, 1.0), far);
    assert!(matches!(out, Err(Error::OutOfRange { handle: None, .. })));
    // A box that reaches the edge this frame is fine; the frame moves it there and
    // keeps its motion, so the next frame would leave the range.
    let h = store
        .insert_with(Aabb::from_coords(0.2 * l, 0.0, 0.2 * l, 1.0), far)
        .unwrap();
    let mut frame = Frame::new();
    assert!(frame.step(&store).is_ok());
    frame.advance(&mut store, &Level::none()).unwrap();
    let err = frame.step(&store).unwrap_err();
    assert_eq!(
        err,
        Error::OutOfRange {
            handle: Some(h),
            index: store.index_of(h).unwrap(),
            limit: MAX_COORDINATE
        }
    );
    assert!(err.to_string().contains(&h.to_string()), "{err}");
    // A new motion must keep it in range; a motion back is accepted.
    assert!(matches!(
        store.set_motion(h, Vec2::new(0.3 * l, 0.0)),
        Err(Error::OutOfRange { handle: Some(e), .. }) if e == h
    ));
    store.set_motion(h, Vec2::new(-l, 0.0)).unwrap();
    assert!(frame.step(&store).is_ok());
}

/// One group: its filter, dense indices and swept boxes.
type NaiveGroup = (Filter, Vec<u32>, Vec<Aabb>);

/// Groups built one box at a time, in order of first appearance, or one group of every
/// box beyond `max` filters (then `true`).
fn naive_groups(store: &BoxStore, max: usize) -> (Vec<NaiveGroup>, bool) {
    let mut groups: Vec<NaiveGroup> = Vec::new();
    let swept = |k: usize| {
        let (dx, dy) = (store.motion_x()[k], store.motion_y()[k]);
        Aabb::from_coords(
            store.min_x()[k] + dx.min(0.0),
            store.min_y()[k] + dy.min(0.0),
            store.max_x()[k] + dx.max(0.0),
            store.max_y()[k] + dy.max(0.0),
        )
    };
    let n = store.len();
    let filters: Vec<Filter> = (0..n)
        .map(|k| Filter::new(store.layers()[k], store.masks()[k]))
        .collect();
    let mut seen: Vec<Filter> = Vec::new();
    for f in &filters {
        if !seen.contains(f) {
            seen.push(*f);
        }
    }
    if seen.len() > max.max(1) {
        let all = (0..n).map(|k| k as u32).collect();
        return (vec![(filters[0], all, (0..n).map(swept).collect())], true);
    }
    for (k, f) in filters.iter().enumerate() {
        let g = match groups.iter().position(|g| g.0 == *f) {
            Some(g) => g,
            None => {
                groups.push((*f, Vec::new(), Vec::new()));
                groups.len() - 1
            }
        };
        groups[g].1.push(k as u32);
        groups[g].2.push(swept(k));
    }
    (groups, false)
}

/// A store whose filters come in runs of random lengths (1 to 40 boxes), drawn from
/// `kinds` filters.
fn store_with_runs(n: usize, seed: u64, kinds: u32) -> BoxStore {
    let mut store = random_store(n, seed, 0);
    let mut rng = Rng::new(seed + 1);
    let handles: Vec<BoxHandle> = store.handles().to_vec();
    let mut left = 0;
    let mut filter = Filter::ALL;
    for h in handles {
        if left == 0 {
            left = 1 + rng.below(40);
            let k = rng.below(kinds);
            filter = Filter::new(1 << (k % 32), k.wrapping_mul(0x9e37_79b9) | 1);
        }
        left -= 1;
        store.set_filter(h, filter).unwrap();
    }
    store
}

/// A random store whose box `k` gets filter `side(k, rng)` of `sides` distinct ones.
fn two_sides(n: usize, seed: u64, side: impl Fn(usize, &mut Rng) -> u32, sides: u32) -> BoxStore {
    let mut store = random_store(n, seed, 0);
    let mut rng = Rng::new(seed + 1);
    let handles: Vec<BoxHandle> = store.handles().to_vec();
    for (k, h) in handles.into_iter().enumerate() {
        let s = side(k, &mut rng);
        assert!(s < sides);
        store.set_filter(h, Filter::new(1 << s, !(1 << s))).unwrap();
    }
    store
}

#[test]
fn grouping_in_chunks_on_any_thread_count_equals_one_box_at_a_time() {
    let stores = [
        ("random filters", random_store(3000, 21, 0)),
        ("runs of 6 filters", store_with_runs(5000, 22, 6)),
        ("runs of 60 filters", store_with_runs(5000, 23, 60)),
        // More filters than a byte names, changing at every box: runs, not ids.
        ("300 filters box by box", {
            let mut store = random_store(3000, 25, 0);
            let handles = store.handles().to_vec();
            for (k, h) in handles.into_iter().enumerate() {
                let f = Filter::new(1 + (k as u32 * 7919) % 300, u32::MAX);
                store.set_filter(h, f).unwrap();
            }
            store
        }),
        // Two sides' bullets (ids, two filters a block), in turn and shuffled; now and
        // then a third filter (a block box by box), or a fifth (box by box into groups).
        (
            "two sides in turn",
            two_sides(3000, 26, |k, _| (k % 2) as u32, 2),
        ),
        (
            "two sides shuffled",
            two_sides(3000, 27, |_, r| r.below(2), 2),
        ),
        ("two sides and a few others", {
            two_sides(
                3000,
                28,
                |_, r| {
                    if r.below(50) == 0 {
                        2 + r.below(2)
                    } else {
                        r.below(2)
                    }
                },
                4,
            )
        }),
        ("five sides", two_sides(3000, 29, |_, r| r.below(5), 5)),
        ("empty", BoxStore::new()),
        ("one box", random_store(1, 24, 0)),
    ];
    // Walls over the stores' area (sides up to 6·√5000 ≈ 424), solid one tile in ten,
    // for the near-walls lists.
    let mut rng = Rng::new(0x3a11);
    let cells = (0..60 * 60).map(|_| u8::from(rng.below(10) == 0)).collect();
    let map =
        crate::tilemap::TileMap::from_cells(60, 60, cells, Vec2::splat(8.0), Vec2::ZERO).unwrap();
    for (name, store) in &stores {
        for max_groups in [1, 4, 32, 1000] {
            let (want, want_per_box) = naive_groups(store, max_groups);
            let wall_filter = layers::wall();
            // Every box whose group pairs with the walls and whose swept bounds reach a
            // solid tile must be listed.
            let must: Vec<u32> = (0..store.len())
                .filter(|&i| {
                    let f = Filter::new(store.layers()[i], store.masks()[i]);
                    let m = Vec2::new(store.motion_x()[i], store.motion_y()[i]);
                    (want_per_box || f.pairs_with(wall_filter))
                        && !map.open_space(store.aabb_at(i).unwrap(), m)
                })
                .map(|i| i as u32)
                .collect();
            assert!(
                store.len() < 100 || !must.is_empty(),
                "{name}: boxes near walls"
            );
            let mut listed: Option<Vec<u32>> = None;
            for chunk in [1, 7, 64, 1000, 0] {
                for threads in [1, 2, 3] {
                    let pool = &crate::check::broad::pools()[threads - 1];
                    let mut g = Grouping::default();
                    g.set_chunk(chunk);
                    // Twice: the second build reuses the first one's buffers; the first
                    // with walls, the second without.
                    for walls in [true, false] {
                        let w = walls.then_some(groups::Walls {
                            map: &map,
                            filter: wall_filter,
                        });
                        let simd = SimdLevel::available()[threads % SimdLevel::available().len()];
                        pool.install(|| g.build(store, max_groups, threads > 1, simd, w))
                            .unwrap();
                        let case =
                            format!("{name}, max {max_groups}, chunk {chunk}, {threads} threads");
                        let mut near: Vec<u32> = g.near().flatten().copied().collect();
                        near.sort_unstable();
                        if walls {
                            assert!(near.windows(2).all(|w| w[0] < w[1]), "{case}: listed once");
                            assert!(must.iter().all(|i| near.binary_search(i).is_ok()), "{case}");
                            // The same boxes whatever the chunks, threads and lanes.
                            match &listed {
                                Some(l) => assert_eq!(&near, l, "{case}"),
                                None => listed = Some(near),
                            }
                        } else {
                            assert!(near.is_empty(), "{case}: no walls, no list");
                        }
                        assert_eq!(g.per_box, want_per_box, "{case}");
                        assert_eq!(g.groups.len(), want.len(), "{case}");
                        for (got, want) in g.groups.iter().zip(&want) {
                            if !want_per_box {
                                assert_eq!(got.filter, want.0, "{case}");
                            }
                            assert_eq!(got.dense, want.1, "{case}");
                            assert_eq!(
                                bytemuck::cast_slice::<Aabb, u32>(&got.swept),
                                bytemuck::cast_slice::<Aabb, u32>(&want.2),
                                "{case}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn out_of_range_names_the_lowest_box_whatever_the_chunks() {
    let mut store = store_with_runs(2000, 31, 5);
    let handles: Vec<BoxHandle> = store.handles().to_vec();
    // Carried near the edge with their motions kept: the next frame leaves the range.
    for &k in &[1500, 700, 1999] {
        store
            .set_motion(handles[k], Vec2::new(0.0, -0.6 * MAX_COORDINATE))
            .unwrap();
    }
    store.apply_motion(&[], false, SimdLevel::Scalar);
    for chunk in [1, 64, 0] {
        for threads in [1, 2] {
            let pool = &crate::check::broad::pools()[threads - 1];
            let mut g = Grouping::default();
            g.set_chunk(chunk);
            let got = pool.install(|| g.build(&store, 32, threads > 1, SimdLevel::Scalar, None));
            assert_eq!(
                got,
                Err(store.index_of(handles[700]).unwrap()),
                "chunk {chunk}"
            );
        }
    }
}

/// A demo frame of several grouping chunks (production chunk size), stepped twice:
/// the same report on one thread without rayon and on 2 and 4 threads.
#[test]
fn a_frame_of_several_chunks_is_the_same_on_any_thread_count() {
    let demo = DemoFrame::new(40_000, 50, 3);
    let report = |frame: &mut Frame| {
        let r = frame.step(&demo.store).unwrap();
        (r.contacts.to_vec(), r.began.to_vec(), r.candidates)
    };
    let mut serial = Frame::with_config(FrameConfig {
        parallel: false,
        ..FrameConfig::default()
    });
    let want = [report(&mut serial), report(&mut serial)];
    assert!(
        !want[0].0.is_empty() && want[0].2 > 0,
        "the demo frame has contacts"
    );
    assert!(want[1].1.is_empty(), "the second step began nothing new");
    assert!(serial.grouping.groups.len() >= 3);
    for threads in [2, 4] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let mut frame = Frame::new();
        for want in &want {
            let got = pool.install(|| report(&mut frame));
            assert_eq!(&got, want, "{threads} threads");
            let groups = |f: &Frame| -> Vec<(Filter, Vec<u32>, Vec<u32>)> {
                let bits = |g: &groups::Group| bytemuck::cast_slice(&g.swept).to_vec();
                let g = &f.grouping.groups;
                g.iter()
                    .map(|g| (g.filter, g.dense.clone(), bits(g)))
                    .collect()
            };
            assert!(
                groups(&frame) == groups(&serial),
                "{threads} threads: groups"
            );
        }
    }
}

/// The radix key of a hit orders bodies and times as [`BodyHit::order`] does: owners
/// before lone boxes, then the owner or the handle, then the time; equal keys only for
/// equal bodies and times.
#[test]
fn a_hits_radix_key_follows_its_order() {
    let mut rng = Rng::new(0x6b1);
    let pick = |rng: &mut Rng| -> Body {
        let small = |rng: &mut Rng, big: bool| {
            if big {
                rng.next_u64() as u32
            } else {
                rng.below(3)
            }
        };
        if rng.below(2) == 0 {
            let o = if rng.below(2) == 0 {
                rng.next_u64() >> 1
            } else {
                u64::from(rng.below(3))
            };
            Body::Owner(Owner(o))
        } else {
            let big = rng.below(2) == 0;
            Body::Box(BoxHandle {
                slot: small(rng, big),
                generation: small(rng, big),
            })
        }
    };
    let toi = |rng: &mut Rng| [0.0, 0.25, 1.0, rng.unit_f32()][rng.below(4) as usize];
    let hit = |body: Body, toi: f32| BodyHit {
        body,
        handle: BoxHandle {
            slot: 0,
            generation: 0,
        },
        user_data: 0,
        other: HitOther::Wall {
            tile: glam::IVec2::ZERO,
        },
        status: SweepStatus::Hit,
        toi,
        normal: Vec2::ZERO,
        point: crate::math::ContactPoint::default(),
    };
    for _ in 0..20_000 {
        let (x, y) = (
            hit(pick(&mut rng), toi(&mut rng)),
            hit(pick(&mut rng), toi(&mut rng)),
        );
        let want = x
            .body
            .cmp(&y.body)
            .then(x.toi.to_bits().cmp(&y.toi.to_bits()));
        assert_eq!(x.key().cmp(&y.key()), want, "{x:?} {y:?}");
        assert_eq!(x.key().cmp(&y.key()), x.order(&y), "{x:?} {y:?}");
        // The 64-bit key: for bodies of one frame (a slot names one box, so one
        // generation), the same order; `None` only for an owner or a slot from 2^31 on.
        let big = |h: &BodyHit| match h.body {
            Body::Owner(o) => o.0 >= 1 << 31,
            Body::Box(b) => b.slot >= 1 << 31,
        };
        assert_eq!(x.key64().is_none(), big(&x), "{x:?}");
        let same_slot_other_generation = matches!(
            (x.body, y.body),
            (Body::Box(a), Body::Box(b)) if a.slot == b.slot && a.generation != b.generation
        );
        if let (Some(kx), Some(ky)) = (x.key64(), y.key64())
            && !same_slot_other_generation
        {
            assert_eq!(kx.cmp(&ky), want, "{x:?} {y:?}");
        }
    }
}

/// `index_hits` sorts a frame's hits by [`BodyHit::order`], through 64-bit keys when
/// every owner is below 2^31 and through 128-bit keys when one is not: the same order
/// both ways (ties at one time included).
#[test]
fn hits_are_indexed_in_order_through_either_key() {
    let mut rng = Rng::new(0x1d3);
    for (round, big_owner) in [(0, false), (1, true), (2, false), (3, true)] {
        let mut frame = Frame::new();
        // Both paths at both sizes.
        let n = [40, 3000][round / 2];
        for k in 0..n {
            let body = match rng.below(3) {
                0 => Body::Owner(Owner(u64::from(rng.below(7)))),
                1 if big_owner => Body::Owner(Owner((1 << 31) + u64::from(rng.below(3)))),
                // A slot names one box: its generation follows from it.
                _ => {
                    let slot = rng.below(50);
                    Body::Box(BoxHandle {
                        slot,
                        generation: slot % 3,
                    })
                }
            };
            frame.moves.wall_hits.push(WallHit {
                body,
                handle: BoxHandle {
                    slot: rng.below(50),
                    generation: 0,
                },
                user_data: k,
                // Distinct tiles: no two hits tie on the whole order.
                tile: glam::IVec2::new(k as i32, 0),
                status: SweepStatus::Hit,
                toi: [0.0, 0.5, 1.0, rng.unit_f32()][rng.below(4) as usize],
                normal: Vec2::ZERO,
                point: crate::math::ContactPoint::default(),
            });
        }
        let mut want: Vec<BodyHit> = frame.moves.wall_hits.iter().map(BodyHit::of_wall).collect();
        want.sort_by(|x, y| x.order(y));
        frame.index_hits();
        assert_eq!(frame.hits, want, "round {round}");
        // The path taken: the wide keys only with a big owner.
        assert_eq!(
            frame.hit_keys_wide[0].is_empty(),
            !big_owner,
            "round {round}"
        );
    }
}

/// `FrameTimings` says how many threads the frame ran on and how much of it ran on the
/// calling thread alone: one thread below the threshold or with `parallel` off, the
/// pool's size above it; the serial part never exceeds the whole, and on one thread it
/// is the whole of the step's last part.
#[test]
fn timings_name_the_threads_and_the_serial_part() {
    let scene = super::Danmaku::new(super::DanmakuConfig::new(3_000));
    let level = Level::walls(&scene.map);
    let pool = &crate::check::broad::pools()[1]; // two threads
    for (config, threads) in [
        (FrameConfig::default(), 1), // 3k boxes: below the default threshold
        (
            FrameConfig {
                parallel_threshold: 0,
                ..FrameConfig::default()
            },
            2,
        ),
        (
            FrameConfig {
                parallel: false,
                parallel_threshold: 0,
                ..FrameConfig::default()
            },
            1,
        ),
    ] {
        let mut frame = Frame::with_config(config);
        let mut store = scene.store.clone();
        let t = pool
            .install(|| frame.advance(&mut store, &level))
            .unwrap()
            .timings;
        assert_eq!(t.threads, threads, "{config:?}");
        assert!(t.serial <= t.events && t.events <= t.total, "{t:?}");
        let t = pool.install(|| frame.step(&store).unwrap().timings);
        assert_eq!(t.threads, threads, "{config:?}");
        // The step's last part is serial on one thread; on more, many contacts find
        // their points on the pool.
        if threads == 1 {
            assert_eq!(t.serial, t.events, "{config:?}");
        } else {
            assert!(t.serial <= t.events, "{t:?}");
        }
    }
}

/// The wall pass sweeps discs against cells eight at a time in lanes. Its wall hits,
/// and the boxes it stops and destroys, equal the scalar oracle's bit for bit at every
/// SIMD level and thread count: discs of many sizes flying at pillars, walls and
/// corners from every side, some already inside, some touching, some still, among boxes
/// and capsules (swept one by one). Enough discs near the walls for many full groups of
/// eight and a partial one.
#[test]
fn wall_hits_of_discs_in_lanes_equal_the_scalar_oracle() {
    use crate::math::{Capsule, Circle, Shape};
    use crate::store::Response;
    use crate::tilemap::TileMap;
    let mut rng = Rng::new(0x0d15c);
    let (w, h, tile) = (24u32, 18u32, 8.0f32);
    let cells = (0..w * h)
        .map(|k| {
            let (x, y) = (k % w, k / w);
            let border = x == 0 || y == 0 || x == w - 1 || y == h - 1;
            u8::from(border || rng.below(9) == 0)
        })
        .collect();
    let map = TileMap::from_cells(w, h, cells, Vec2::splat(tile), Vec2::new(-3.0, 5.0)).unwrap();
    let wall = layers::wall();
    let filter = Filter::new(1, wall.layers);
    let mut store = BoxStore::new();
    let (lo, hi) = (map.bounds().min, map.bounds().max);
    for k in 0..700 {
        // On the grid of quarter tiles (exact touches) or anywhere.
        let mut at = Vec2::new(rng.range_f32(lo.x, hi.x), rng.range_f32(lo.y, hi.y));
        if k % 3 == 0 {
            at = (at / (tile / 4.0)).round() * (tile / 4.0);
        }
        let r = match k % 4 {
            0 => 0.0,
            1 => tile / 4.0,
            2 => rng.range_f32(0.1, tile),
            _ => rng.range_f32(0.1, 2.0),
        };
        let motion = match k % 5 {
            0 => Vec2::ZERO,
            1 => Vec2::new(rng.range_f32(-1.0, 1.0), 0.0) * tile * 2.0,
            2 => Vec2::new(0.0, rng.range_f32(-1.0, 1.0)) * tile * 2.0,
            _ => Vec2::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0)) * tile * 3.0,
        };
        let response = [Response::Destroy, Response::Pass, Response::Stop][k % 3];
        let props = BoxProps {
            filter,
            motion,
            response,
            ..BoxProps::default()
        };
        let h = match k % 23 {
            // A box, then a capsule: their pairs are swept one by one. (The oracle does
            // not turn shapes: none turns here.)
            0 => store.insert_with(
                Aabb::from_center_half_extents(at, Vec2::splat(r + 0.5)),
                props,
            ),
            1 => {
                let cap = Capsule::new(at, at + Vec2::new(r + 1.0, 0.5), r * 0.5);
                store.insert_shape(Shape::Capsule(cap), props)
            }
            _ => store.insert_shape(Shape::Circle(Circle::new(at, r)), props),
        };
        h.unwrap();
    }
    let want = crate::check::advance::oracle(&store, Some(&map), wall);
    assert!(want.walls.len() > 100, "{} wall hits", want.walls.len());
    let level = Level::walls(&map).with_wall_filter(wall);
    for &simd in SimdLevel::available() {
        for threads in [1, 2] {
            let pool = &crate::check::broad::pools()[threads - 1];
            let mut frame = Frame::with_config(FrameConfig {
                simd,
                parallel: threads > 1,
                parallel_threshold: 0,
                ..FrameConfig::default()
            });
            let mut moved = store.clone();
            let summary = pool.install(|| frame.advance(&mut moved, &level)).unwrap();
            let r = frame.report();
            let got = crate::check::advance::compare(
                &store,
                &want,
                &moved,
                (Some(&map), wall),
                r.wall_hits,
                (r.contacts, r.destroyed, summary.stopped),
            );
            assert_eq!(got, Ok(()), "{simd:?}, {threads} threads");
        }
    }
}
