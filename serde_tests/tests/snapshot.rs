//! Rollback snapshots (the `serde` feature): a game runs N frames, saves its store and
//! its frame's events at frame k, goes on, then restores the saved bytes into fresh
//! objects and replays frames k..N with the same inputs. Every report of the replay must
//! be bit for bit the one of the first run (every `f32` compared by `to_bits`), and so
//! must every handle the replay hands out.
//!
//! The wire format is postcard (compact, serde-native, a documented stable format);
//! corrupted snapshots are written through a mirror of the store's serialized form, so
//! that each defect is exactly the one named.

use hantei::frame::{
    Body, BodyPair, Frame, FrameConfig, FrameEvents, FrameReport, PairEvent, layers,
};
use hantei::glam::{Vec2, Vec3};
use hantei::narrow::{Sweep, SweepStatus};
use hantei::{
    Aabb, BoxHandle, BoxProps, BoxStore, Circle, Filter, Obb2, Obb3, Owner, Pair, Ray, SimdLevel,
};
use serde::{Deserialize, Serialize};

/// splitmix64: the test's own inputs, fixed by the seed.
struct Inputs(u64);

impl Inputs {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    /// In `[lo, hi)`, on a 1/1024 grid (so positions are exact).
    fn range(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (self.next() >> 40) as f32 / (1u64 << 24) as f32 * (hi - lo)
    }
}

const ARENA: f32 = 1024.0;
const SEED: u64 = 0x5EED_0021;

fn is_bullet(filter: Filter) -> bool {
    filter == layers::player_bullet() || filter == layers::enemy_bullet()
}

fn spawn_bullet(store: &mut BoxStore, inputs: &mut Inputs, filter: Filter) -> BoxHandle {
    let c = Vec2::new(inputs.range(0.0, ARENA), inputs.range(0.0, ARENA));
    let speed = inputs.range(1.0, 24.0);
    let angle = inputs.range(-core::f32::consts::PI, core::f32::consts::PI);
    store
        .insert_with(
            Aabb::from_center_half_extents(c, Vec2::splat(inputs.range(0.5, 3.0))),
            BoxProps {
                filter,
                owner: Owner::NONE,
                motion: Vec2::from_angle(angle) * speed,
                ..BoxProps::default()
            },
        )
        .expect("a valid bullet")
}

fn spawn_enemy(store: &mut BoxStore, inputs: &mut Inputs, owner: Owner) -> Vec<BoxHandle> {
    let c = Vec2::new(
        inputs.range(64.0, ARENA - 64.0),
        inputs.range(64.0, ARENA - 64.0),
    );
    let motion = Vec2::new(inputs.range(-2.0, 2.0), inputs.range(-2.0, 2.0));
    // A compound hitbox: body and head, one owner.
    [Vec2::ZERO, Vec2::new(0.0, -14.0)]
        .iter()
        .map(|&off| {
            let props = BoxProps {
                filter: layers::enemy(),
                owner,
                motion,
                ..BoxProps::default()
            };
            store
                .insert_with(
                    Aabb::from_center_half_extents(c + off, Vec2::splat(8.0)),
                    props,
                )
                .expect("a valid enemy")
        })
        .collect()
}

/// The arena at frame 0: walls, a player, enemies, bullets.
fn scene() -> BoxStore {
    let mut inputs = Inputs(SEED);
    let mut store = BoxStore::new();
    let wall = BoxProps {
        filter: layers::wall(),
        ..Default::default()
    };
    for b in [
        Aabb::from_coords(-16.0, -16.0, ARENA + 16.0, 0.0),
        Aabb::from_coords(-16.0, ARENA, ARENA + 16.0, ARENA + 16.0),
        Aabb::from_coords(-16.0, 0.0, 0.0, ARENA),
        Aabb::from_coords(ARENA, 0.0, ARENA + 16.0, ARENA),
    ] {
        store.insert_with(b, wall).unwrap();
    }
    let player = BoxProps {
        filter: layers::player(),
        owner: Owner(0),
        motion: Vec2::new(3.0, 0.0),
        ..BoxProps::default()
    };
    store
        .insert_with(Aabb::from_coords(500.0, 900.0, 512.0, 916.0), player)
        .unwrap();
    for e in 1..=40 {
        spawn_enemy(&mut store, &mut inputs, Owner(e));
    }
    for k in 0..3000 {
        let filter = if k % 3 == 0 {
            layers::player_bullet()
        } else {
            layers::enemy_bullet()
        };
        spawn_bullet(&mut store, &mut inputs, filter);
    }
    store
}

/// One contact with every float as its bits.
#[derive(Debug, PartialEq)]
struct ContactBits {
    bodies: BodyPair,
    boxes: (BoxHandle, BoxHandle),
    status: SweepStatus,
    toi: u32,
    normal: [u32; 2],
}

/// What one frame produced: its report and the handles its inserts got.
#[derive(Debug, PartialEq)]
struct FrameRecord {
    contacts: Vec<ContactBits>,
    began: Vec<PairEvent>,
    stayed: Vec<PairEvent>,
    ended: Vec<PairEvent>,
    candidates: usize,
    spawned: Vec<BoxHandle>,
}

fn record(report: &FrameReport<'_>, spawned: Vec<BoxHandle>) -> FrameRecord {
    FrameRecord {
        contacts: report
            .contacts
            .iter()
            .map(|c| ContactBits {
                bodies: c.bodies,
                boxes: c.boxes,
                status: c.status,
                toi: c.toi.to_bits(),
                normal: [c.normal.x.to_bits(), c.normal.y.to_bits()],
            })
            .collect(),
        began: report.began.to_vec(),
        stayed: report.stayed.to_vec(),
        ended: report.ended.to_vec(),
        candidates: report.candidates,
        spawned,
    }
}

/// Frame `f` of the game: the inputs of frame `f` (a function of the seed and `f` only),
/// the collision step, the game's reaction to the report (bullets that hit are removed),
/// then every box moves by its motion. Everything else the game knows is in the store.
fn advance(store: &mut BoxStore, frame: &mut Frame, f: u64) -> FrameRecord {
    let mut inputs = Inputs(SEED ^ (f + 1).wrapping_mul(0xA076_1D64_78BD_642F));
    let mut spawned = Vec::new();

    // Inputs: churn (removals free slots, spawns reuse them), steering, a new wave.
    for _ in 0..40 {
        let i = inputs.below(store.len());
        let h = store.handle_at(i).unwrap();
        if is_bullet(store.props(h).unwrap().filter) {
            store.remove(h).unwrap();
        }
    }
    for k in 0..60 {
        let filter = if k % 4 == 0 {
            layers::player_bullet()
        } else {
            layers::enemy_bullet()
        };
        spawned.push(spawn_bullet(store, &mut inputs, filter));
    }
    if f % 5 == 2 {
        // An enemy dies (both its boxes) and a new one comes in.
        let owners = store.owners();
        let victim = owners[inputs.below(owners.len())];
        let next = owners
            .iter()
            .filter(|&&o| o != Owner::NONE.0)
            .max()
            .unwrap()
            + 1;
        if victim != Owner::NONE.0 && victim != 0 {
            let dead: Vec<BoxHandle> = (0..store.len())
                .filter(|&i| store.owners()[i] == victim)
                .map(|i| store.handle_at(i).unwrap())
                .collect();
            for h in dead {
                store.remove(h).unwrap();
            }
        }
        spawned.extend(spawn_enemy(store, &mut inputs, Owner(next)));
    }
    let player = (0..store.len()).find(|&i| store.owners()[i] == 0).unwrap();
    let player = store.handle_at(player).unwrap();
    store
        .set_motion(
            player,
            Vec2::new(inputs.range(-6.0, 6.0), inputs.range(-6.0, 6.0)),
        )
        .unwrap();

    // The collision step.
    let report = frame.step(store).unwrap();
    let rec = record(&report, spawned);
    let hit: Vec<BoxHandle> = report
        .contacts
        .iter()
        .flat_map(|c| [c.boxes.0, c.boxes.1])
        .collect();

    // Reactions: bullets that hit something are gone, but one in two (by slot) pierces.
    for h in hit {
        if store.contains(h) && is_bullet(store.props(h).unwrap().filter) && h.slot() % 2 == 0 {
            store.remove(h).unwrap();
        }
    }
    // Motion: everything moves; bullets that leave the arena are gone, the rest stay in.
    let arena = Aabb::from_coords(0.0, 0.0, ARENA, ARENA);
    let all: Vec<(BoxHandle, Aabb)> = store.iter().collect();
    for (h, b) in all {
        let props = store.props(h).unwrap();
        let moved = b.translated(props.motion);
        if is_bullet(props.filter) && !moved.overlaps(&arena) {
            store.remove(h).unwrap();
        } else if props.filter != layers::wall() && arena.contains_point(moved.center()) {
            store.update(h, moved).unwrap();
        }
    }
    rec
}

const FRAMES: u64 = 40;
const SNAPSHOT_AT: u64 = 17;

/// Runs frames `from..FRAMES`.
fn run(store: &mut BoxStore, frame: &mut Frame, from: u64) -> Vec<FrameRecord> {
    (from..FRAMES).map(|f| advance(store, frame, f)).collect()
}

fn assert_same_reports(replay: &[FrameRecord], first: &[FrameRecord], what: &str) {
    assert_eq!(replay.len(), first.len());
    for (k, (r, o)) in replay.iter().zip(first).enumerate() {
        assert_eq!(r, o, "{what}: frame {} differs", SNAPSHOT_AT + k as u64);
    }
}

#[test]
fn restored_snapshot_replays_bit_identical_reports() {
    let mut store = scene();
    let mut frame = Frame::new();
    let mut first = Vec::new();
    let mut saved = None;
    for f in 0..FRAMES {
        if f == SNAPSHOT_AT {
            let store_bytes = postcard::to_allocvec(&store).unwrap();
            let events_bytes = postcard::to_allocvec(&frame.events_snapshot()).unwrap();
            saved = Some((store_bytes, events_bytes, store.clone()));
        }
        first.push(advance(&mut store, &mut frame, f));
    }
    let (store_bytes, events_bytes, at_snapshot) = saved.unwrap();
    let first = &first[SNAPSHOT_AT as usize..];

    // The scenario exercises what a snapshot must carry.
    let count = |f: fn(&FrameRecord) -> usize| first.iter().map(f).sum::<usize>();
    eprintln!(
        "frames {SNAPSHOT_AT}..{FRAMES}: {} contacts, {} began, {} stayed, {} ended",
        count(|r| r.contacts.len()),
        count(|r| r.began.len()),
        count(|r| r.stayed.len()),
        count(|r| r.ended.len()),
    );
    assert!(first.iter().all(|r| !r.contacts.is_empty()));
    for what in [
        |r: &FrameRecord| r.began.len(),
        |r: &FrameRecord| r.stayed.len(),
        |r: &FrameRecord| r.ended.len(),
    ] {
        assert!(first.iter().map(what).sum::<usize>() > 0);
    }
    // Removals left free slots, and spawns reuse them with newer generations.
    assert!(
        first
            .iter()
            .flat_map(|r| &r.spawned)
            .any(|h| h.generation() > 0)
    );
    let restored: BoxStore = postcard::from_bytes(&store_bytes).unwrap();
    assert!(
        restored.handles().iter().map(|h| h.slot()).max().unwrap() as usize + 1 > restored.len()
    );
    // The snapshot's bytes are canonical: writing the restored store gives them again.
    assert_eq!(postcard::to_allocvec(&restored).unwrap(), store_bytes);

    // Replay from the bytes into fresh objects, with the default settings and with the
    // scalar kernels on one thread (another peer's machine): the same reports.
    for (config, what) in [
        (FrameConfig::default(), "default settings"),
        (
            FrameConfig {
                simd: SimdLevel::Scalar,
                parallel: false,
                ..FrameConfig::default()
            },
            "scalar, one thread",
        ),
    ] {
        let mut store: BoxStore = postcard::from_bytes(&store_bytes).unwrap();
        let mut frame = Frame::with_config(config);
        let events: FrameEvents = postcard::from_bytes(&events_bytes).unwrap();
        frame.restore_events(&events);
        let replay = run(&mut store, &mut frame, SNAPSHOT_AT);
        assert_same_reports(&replay, first, what);
    }

    // The events state matters: without it the first replayed frame reports every
    // contact as begun.
    let mut store: BoxStore = postcard::from_bytes(&store_bytes).unwrap();
    let replay = run(&mut store, &mut Frame::new(), SNAPSHOT_AT);
    assert_ne!(replay[0].began, first[0].began);

    // Handles: every box of the snapshot resolves to the same box at the same dense
    // index with the same properties; no other handle resolves.
    for (i, (h, b)) in at_snapshot.iter().enumerate() {
        assert_eq!(restored.get(h), Some(b));
        assert_eq!(restored.index_of(h), Some(i));
        assert_eq!(restored.props(h), at_snapshot.props(h));
    }
    assert_eq!(restored.len(), at_snapshot.len());
    for h in first.iter().flat_map(|r| &r.spawned) {
        // Handed out after the snapshot: stale or a different generation in both.
        assert_eq!(restored.contains(*h), at_snapshot.contains(*h));
    }
}

#[test]
fn events_snapshot_round_trips_and_checks_order() {
    let mut store = BoxStore::new();
    let unit = Aabb::from_coords(0.0, 0.0, 1.0, 1.0);
    let (h0, h1) = (store.insert(unit).unwrap(), store.insert(unit).unwrap());
    let pair = |a: u64, b: u64| PairEvent {
        bodies: BodyPair {
            a: Body::Owner(Owner(a)),
            b: Body::Owner(Owner(b)),
        },
        boxes: (h0, h1),
        user_data: (a << 8, b << 8),
        removed: false,
    };
    let events = FrameEvents::from_events(vec![pair(1, 2), pair(1, 5), pair(3, 4)]).unwrap();
    let bytes = postcard::to_allocvec(&events).unwrap();
    assert_eq!(postcard::from_bytes::<FrameEvents>(&bytes).unwrap(), events);

    // Through JSON, edited: unsorted, repeated, and a pair with a > b are refused.
    let json = serde_json::to_value(&events).unwrap();
    for (edit, want) in [
        (vec![pair(1, 5), pair(1, 2)], "event pair 1 is invalid"),
        (vec![pair(1, 2), pair(1, 2)], "event pair 1 is invalid"),
        (vec![pair(3, 4), pair(2, 1)], "event pair 1 is invalid"),
        (vec![pair(7, 7)], "event pair 0 is invalid"),
        (
            vec![PairEvent {
                removed: true,
                ..pair(1, 2)
            }],
            "event pair 0 is invalid",
        ),
    ] {
        let mut bad = json.clone();
        bad["pairs"] = serde_json::to_value(&edit).unwrap();
        let err = serde_json::from_value::<FrameEvents>(bad).unwrap_err();
        assert!(err.to_string().contains(want), "{err}");
    }
}

/// The store's serialized form, field for field: postcard is not self-describing, so
/// this mirror reads and writes the same bytes, and lets a test break one invariant.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct StoreMirror {
    min_x: Vec<f32>,
    min_y: Vec<f32>,
    max_x: Vec<f32>,
    max_y: Vec<f32>,
    motion_x: Vec<f32>,
    motion_y: Vec<f32>,
    layers: Vec<u32>,
    mask: Vec<u32>,
    solid: Vec<u32>,
    owner: Vec<u64>,
    user_data: Vec<u64>,
    response: Vec<u8>,
    handles: Vec<(u32, u32)>,
    circles: Vec<hantei::Circle>,
    circle_boxes: Vec<u32>,
    obbs: Vec<hantei::Obb2>,
    obb_boxes: Vec<u32>,
    capsules: Vec<hantei::Capsule>,
    capsule_boxes: Vec<u32>,
    obb_turns: Vec<f32>,
    capsule_turns: Vec<f32>,
    generations: Vec<u32>,
    free: Vec<u32>,
}

/// A store with removals behind it: slots 1 and 3 free (3 at the head), generations
/// above zero, a dense order that differs from slot order.
fn churned() -> BoxStore {
    let mut store = BoxStore::new();
    let b = |x: f32| Aabb::from_coords(x, 0.0, x + 1.0, 1.0);
    let h: Vec<BoxHandle> = (0..5).map(|i| store.insert(b(i as f32)).unwrap()).collect();
    store.remove(h[1]).unwrap();
    let again = store.insert(b(10.0)).unwrap(); // slot 1, generation 1
    store.remove(again).unwrap();
    store.remove(h[3]).unwrap();
    store.set_motion(h[4], Vec2::new(1.0, -2.0)).unwrap();
    store
}

fn read(mirror: &StoreMirror) -> Result<BoxStore, postcard::Error> {
    postcard::from_bytes(&postcard::to_allocvec(mirror).unwrap())
}

#[test]
fn store_snapshot_keeps_free_list_and_generations() {
    let store = churned();
    let m: StoreMirror = postcard::from_bytes(&postcard::to_allocvec(&store).unwrap()).unwrap();
    assert_eq!(m.handles, [(0, 0), (4, 0), (2, 0)]);
    assert_eq!(m.generations, [0, 2, 0, 1, 0]);
    assert_eq!(m.free, [3, 1]);

    let mut a = store.clone();
    let mut b = read(&m).unwrap();
    for k in 0..4 {
        let x = Aabb::from_coords(k as f32, 5.0, k as f32 + 1.0, 6.0);
        assert_eq!(a.insert(x).unwrap(), b.insert(x).unwrap());
    }
    assert_eq!(a.handles(), b.handles());

    // A retired slot (generation u32::MAX, not free) is accepted and never reused.
    let mut retired = m.clone();
    retired.generations[3] = u32::MAX;
    retired.free = vec![1];
    let mut r = read(&retired).unwrap();
    let h: Vec<BoxHandle> = (0..3)
        .map(|_| r.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)).unwrap())
        .collect();
    assert_eq!(
        h.iter()
            .map(|h| (h.slot(), h.generation()))
            .collect::<Vec<_>>(),
        [(1, 2), (5, 0), (6, 0)]
    );
}

#[test]
fn corrupted_store_snapshots_are_refused() {
    let good: StoreMirror =
        postcard::from_bytes(&postcard::to_allocvec(&churned()).unwrap()).unwrap();
    read(&good).expect("the unedited snapshot reads");
    type Edit = fn(&mut StoreMirror);
    let cases: [(&str, Edit, &str); 20] = [
        (
            "short column",
            |m| {
                m.min_y.pop();
            },
            "column min_y has 2 entries",
        ),
        (
            "short user data column",
            |m| {
                m.user_data.pop();
            },
            "column user_data has 2 entries",
        ),
        (
            "unknown response",
            |m| m.response[1] = 4,
            "response at dense index 1 is 4",
        ),
        (
            "short solid column",
            |m| {
                m.solid.pop();
            },
            "column solid has 2 entries",
        ),
        (
            "long column",
            |m| m.owner.push(7),
            "column owner has 4 entries",
        ),
        (
            "NaN bound",
            |m| m.max_x[1] = f32::NAN,
            "box at dense index 1: a coordinate is NaN",
        ),
        (
            "infinite bound",
            |m| m.min_y[0] = f32::NEG_INFINITY,
            "box at dense index 0",
        ),
        (
            "inverted box",
            |m| m.max_y[2] = -1.0,
            "box at dense index 2: min_y > max_y",
        ),
        (
            "box beyond the coordinate limit",
            |m| m.max_x[2] = 2.0e8,
            "box at dense index 2 lies beyond ±1e8",
        ),
        (
            "infinite motion",
            |m| m.motion_x[1] = f32::INFINITY,
            "motion at dense index 1",
        ),
        (
            "handle past the slots",
            |m| m.handles[2].0 = 9,
            "names slot 9, of 5",
        ),
        (
            "handle of another generation",
            |m| m.handles[0].1 = 1,
            "has generation 1, its slot 0 has 0",
        ),
        (
            "slot named twice",
            |m| m.handles[2] = (0, 0),
            "named by the handles at dense indices 0 and 2",
        ),
        (
            "alive retired slot",
            |m| {
                m.generations[0] = u32::MAX;
                m.handles[0].1 = u32::MAX;
            },
            "retired slot 0",
        ),
        (
            "free list past the slots",
            |m| m.free.push(5),
            "free list entry 2 names slot 5",
        ),
        (
            "free list names a live slot",
            |m| m.free.push(4),
            "slot 4, which is alive",
        ),
        (
            "free list cycle",
            |m| m.free.push(3),
            "free list entry 2 repeats slot 3",
        ),
        (
            "free slot lost",
            |m| {
                m.free.pop();
            },
            "slot 1 is free (not alive, not retired) but not on the free list",
        ),
        (
            "free list names a retired slot",
            |m| m.generations[1] = u32::MAX,
            "slot 1, which is retired",
        ),
        (
            "handle in a free slot",
            |m| m.handles[2] = (3, 1),
            "free list entry 0 names slot 3, which is alive",
        ),
    ];
    for (what, edit, want) in cases {
        let mut m = good.clone();
        edit(&mut m);
        // Refused by the store's check (a custom error), not as malformed bytes.
        assert_eq!(
            read(&m).expect_err(what),
            postcard::Error::SerdeDeCustom,
            "{what}"
        );
        // postcard drops the message; JSON keeps it (and has no NaN or infinity).
        let floats = [
            &m.min_x,
            &m.min_y,
            &m.max_x,
            &m.max_y,
            &m.motion_x,
            &m.motion_y,
        ];
        if floats.iter().all(|c| c.iter().all(|v| v.is_finite())) {
            let json = serde_json::to_value(&m).unwrap();
            let err = serde_json::from_value::<BoxStore>(json).expect_err(what);
            assert!(err.to_string().contains(want), "{what}: {err}");
        }
    }
}

#[test]
fn mangled_store_bytes_never_panic() {
    let mut store = churned();
    for i in 0..40 {
        let x = i as f32;
        store
            .insert_with(
                Aabb::from_coords(x, x, x + 2.0, x + 2.0),
                BoxProps {
                    motion: Vec2::new(1.0, 0.5),
                    owner: Owner(i % 7),
                    ..Default::default()
                },
            )
            .unwrap();
    }
    let bytes = postcard::to_allocvec(&store).unwrap();
    let mut inputs = Inputs(99);
    let mut accepted = 0;
    for round in 0..4000 {
        let mut b = bytes.clone();
        match round % 3 {
            0 => {
                let i = inputs.below(b.len());
                b[i] ^= 1 << inputs.below(8);
            }
            1 => {
                let i = inputs.below(b.len());
                b[i] = inputs.next() as u8;
            }
            _ => b.truncate(inputs.below(b.len())),
        }
        let Ok(mut s) = postcard::from_bytes::<BoxStore>(&b) else {
            continue;
        };
        // Whatever was accepted is a whole store: every operation works.
        accepted += 1;
        let handles = s.handles().to_vec();
        Frame::new().step(&s).map(|_| ()).unwrap_or(());
        for h in &handles {
            assert!(s.get(*h).is_some());
        }
        let fresh: Vec<BoxHandle> = (0..8)
            .map(|_| s.insert(Aabb::from_coords(0.0, 0.0, 1.0, 1.0)).unwrap())
            .collect();
        for h in handles.iter().chain(&fresh) {
            s.remove(*h).unwrap();
        }
        assert!(s.is_empty());
    }
    // Flips in the floats' low bits keep the store valid: some inputs were accepted.
    eprintln!("{accepted} of 4000 mangled snapshots were whole stores");
    assert!(accepted > 0);
}

#[test]
fn shapes_and_reports_round_trip() {
    fn round_trip<T: Serialize + for<'de> Deserialize<'de> + PartialEq + core::fmt::Debug>(v: T) {
        let bytes = postcard::to_allocvec(&v).unwrap();
        assert_eq!(postcard::from_bytes::<T>(&bytes).unwrap(), v);
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(serde_json::from_str::<T>(&json).unwrap(), v);
    }
    round_trip(Aabb::from_coords(-1.5, 0.0, 2.0, 3.25));
    round_trip(Circle::new(Vec2::new(1.0, 2.0), 0.5));
    round_trip(Ray::new(Vec2::ONE, Vec2::new(-3.0, 0.0)));
    let obb2 = Obb2::from_angle(Vec2::new(4.0, 5.0), Vec2::new(2.0, 1.0), 0.7);
    round_trip(obb2);
    let obb3 = Obb3::from_rotation(Vec3::ONE, glam::Quat::from_rotation_z(0.3), Vec3::ONE);
    round_trip(obb3);
    round_trip(Filter::new(3, 12));
    round_trip(Owner(9));
    round_trip(BoxProps {
        filter: layers::enemy(),
        owner: Owner(2),
        motion: Vec2::new(0.5, -0.25),
        ..BoxProps::default()
    });
    round_trip(Pair::new(3, 8));
    round_trip(Sweep {
        status: SweepStatus::Hit,
        t: 0.25,
        normal: Vec2::new(-1.0, 0.0),
        stop: Vec2::new(2.0, 0.0),
    });
    round_trip(FrameConfig {
        simd: SimdLevel::Portable,
        parallel: false,
        parallel_threshold: 1000,
        max_groups: 4,
    });
    // Settings saved before the parallel threshold existed read back with its default.
    let old: FrameConfig =
        serde_json::from_str(r#"{"simd":"Portable","parallel":true,"max_groups":4}"#).unwrap();
    assert_eq!(old.parallel_threshold, hantei::frame::PARALLEL_THRESHOLD);
    assert!(old.parallel && old.max_groups == 4);

    // The oriented boxes are kept bit for bit (no re-normalisation) and checked: an axis
    // that is not a unit vector, or axes that are not orthonormal, are refused.
    let json = serde_json::to_value(obb2).unwrap();
    let mut bad = json.clone();
    bad["axis"] = serde_json::json!([3.0, 4.0]);
    let err = serde_json::from_value::<Obb2>(bad).unwrap_err().to_string();
    assert!(
        err.contains("invalid Obb2: axis is not a unit vector"),
        "{err}"
    );
    let mut bad = serde_json::to_value(obb3).unwrap();
    bad["axes"][1] = serde_json::json!([1.0, 0.0, 0.0]);
    let err = serde_json::from_value::<Obb3>(bad).unwrap_err().to_string();
    assert!(
        err.contains("invalid Obb3: axes are not orthonormal"),
        "{err}"
    );
}

/// Discs and oriented rectangles round-trip with their tables; a snapshot whose shapes
/// contradict the boxes is refused.
#[test]
fn store_snapshots_keep_shapes_and_refuse_bad_ones() {
    use hantei::{BoxProps, Circle, Obb2, Shape};
    let mut store = churned();
    let c = store
        .insert_shape(Circle::new(Vec2::new(3.0, 4.0), 1.5), BoxProps::default())
        .unwrap();
    let o = store
        .insert_shape(
            Obb2::from_angle(Vec2::new(-2.0, 1.0), Vec2::new(4.0, 0.5), 0.7),
            BoxProps::default(),
        )
        .unwrap();
    let c2 = store
        .insert_shape(Circle::new(Vec2::new(9.0, 4.0), 0.5), BoxProps::default())
        .unwrap();
    store.remove(c).unwrap(); // the table's last disc moves into the hole
    let bytes = postcard::to_allocvec(&store).unwrap();
    let back: BoxStore = postcard::from_bytes(&bytes).unwrap();
    for h in [o, c2] {
        assert_eq!(back.shape(h), store.shape(h));
        assert_eq!(back.get(h), store.get(h));
    }
    assert!(matches!(back.shape(c2), Some(Shape::Circle(_))));
    assert_eq!(postcard::to_allocvec(&back).unwrap(), bytes);

    let good: StoreMirror = postcard::from_bytes(&bytes).unwrap();
    type Edit = fn(&mut StoreMirror);
    let cases: [(&str, Edit, &str); 5] = [
        (
            "box out of range",
            |m| m.circle_boxes[0] = 99,
            "names box 99",
        ),
        (
            "two shapes",
            |m| m.obb_boxes[0] = m.circle_boxes[0],
            "has two shapes",
        ),
        (
            "bad radius",
            |m| m.circles[0].radius = -1.0,
            "negative radius",
        ),
        (
            "bounds that are not the shape's",
            |m| m.circles[0].radius *= 2.0,
            "are not those of its circle",
        ),
        ("ragged table", |m| m.obb_boxes.push(0), "box indices"),
    ];
    for (what, edit, want) in cases {
        let mut m = good.clone();
        edit(&mut m);
        let err = read(&m).expect_err(what).to_string();
        let json = serde_json::to_value(&m).unwrap();
        let detail = serde_json::from_value::<BoxStore>(json)
            .expect_err(what)
            .to_string();
        assert!(detail.contains(want), "{what}: {detail} ({err})");
    }
}

/// A frame's report, owned: kept past the next step, serialized and read back equal,
/// for logs, replays and rollback. Equality leaves out the timings.
#[test]
fn owned_reports_outlive_the_frame_and_round_trip() {
    use hantei::frame::{Danmaku, DanmakuConfig, Level, OwnedFrameReport};
    let mut scene = Danmaku::new(DanmakuConfig::new(3_000));
    let mut frame = Frame::new();
    let mut kept: Vec<OwnedFrameReport> = Vec::new();
    for _ in 0..3 {
        frame
            .advance(&mut scene.store, &Level::walls(&scene.map))
            .unwrap();
        kept.push(frame.report().to_owned_report());
    }
    let first = &kept[0];
    assert!(!first.contacts.is_empty() && !first.wall_hits.is_empty());
    assert!(!first.destroyed.is_empty() && !first.hits.is_empty());
    assert!(
        kept.iter()
            .any(|r| !r.stayed.is_empty() || !r.ended.is_empty())
    );
    for r in &kept {
        let bytes = postcard::to_allocvec(r).unwrap();
        let back: OwnedFrameReport = postcard::from_bytes(&bytes).unwrap();
        assert_eq!(&back, r);
        assert_eq!(back.timings, r.timings);
        let json = serde_json::to_string(r).unwrap();
        assert_eq!(&serde_json::from_str::<OwnedFrameReport>(&json).unwrap(), r);
        // The borrowed view reads the same hits.
        let player = Body::Box(scene.player);
        assert_eq!(r.hits_of(player), r.as_report().hits_of(player));
    }
    // Equality is about the collisions: other timings, the same report.
    let mut later = kept[0].clone();
    later.timings.total += std::time::Duration::from_millis(5);
    assert_eq!(later, kept[0]);
    later.candidates += 1;
    assert_ne!(later, kept[0]);
}

/// Reports saved before contacts had points read back, with every point zero.
#[test]
fn reports_saved_without_points_read_back() {
    use hantei::frame::{Danmaku, DanmakuConfig, Level, OwnedFrameReport};
    let mut scene = Danmaku::new(DanmakuConfig::new(3_000));
    let mut frame = Frame::new();
    frame
        .advance(&mut scene.store, &Level::walls(&scene.map))
        .unwrap();
    let report = frame.report().to_owned_report();
    assert!(!report.contacts.is_empty() && !report.wall_hits.is_empty());
    assert!(report.contacts.iter().any(|c| c.point.a != Vec2::ZERO));
    let mut json = serde_json::to_value(&report).unwrap();
    for list in ["contacts", "wall_hits", "static_hits", "hits"] {
        for item in json[list].as_array_mut().unwrap() {
            assert!(item.as_object_mut().unwrap().remove("point").is_some());
        }
    }
    let old: OwnedFrameReport = serde_json::from_value(json).unwrap();
    assert_eq!(old.contacts.len(), report.contacts.len());
    assert!(
        old.contacts
            .iter()
            .all(|c| c.point == hantei::ContactPoint::default())
    );
    assert!(
        old.hits
            .iter()
            .zip(&report.hits)
            .all(|(o, r)| o.toi == r.toi)
    );
}
