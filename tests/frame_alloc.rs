//! The frame pipeline allocates nothing in steady state: after a few warm-up steps
//! (buffers grow to the scene's size), a step makes no heap allocation. Counted with a
//! counting global allocator, per thread (the test's own: the harness allocates on its
//! thread as it reports the other tests), with `parallel` off (rayon's job queue may
//! allocate). The same for `Frame::advance` with walls, a static level, stopped boxes
//! and destroyed bullets respawned.

use glam::Vec2;
use hantei::frame::{Frame, FrameConfig, Level, StaticLevel, layers};
use hantei::rng::Rng;
use hantei::tilemap::TileMap;
use hantei::{Aabb, BoxProps, BoxStore, Circle, Owner, Response, SimdLevel};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

struct Counting;

thread_local! {
    /// Allocations made by this thread.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    // `try_with`: a thread's last allocations may come after its locals are gone.
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
}

/// The allocations this thread has made so far.
fn allocated() -> usize {
    ALLOCATIONS.with(Cell::get)
}

/// The tests of this binary, one at a time (each is heavy; the counts are per thread).
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn scene(n: usize) -> BoxStore {
    let mut rng = Rng::new(3);
    let mut store = BoxStore::new();
    for k in 0..n {
        let (filter, owner, half) = match k % 100 {
            0 => (layers::enemy(), Owner(k as u64 / 100), 6.0),
            1 => (layers::player_bullet(), Owner::NONE, 1.0),
            _ => (layers::enemy_bullet(), Owner::NONE, 1.5),
        };
        let c = Vec2::new(rng.range_f32(0.0, 500.0), rng.range_f32(0.0, 500.0));
        let motion = Vec2::new(rng.range_f32(-6.0, 6.0), rng.range_f32(-6.0, 6.0));
        store
            .insert_with(
                Aabb::from_center_half_extents(c, Vec2::splat(half)),
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
        .insert_with(
            Aabb::from_center_half_extents(Vec2::splat(250.0), Vec2::splat(3.0)),
            BoxProps {
                filter: layers::player(),
                owner: Owner(1_000_000),
                ..Default::default()
            },
        )
        .unwrap();
    store
}

#[test]
fn steady_state_steps_do_not_allocate() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for simd in SimdLevel::available().iter().copied() {
        let mut store = scene(20_000);
        let mut frame = Frame::with_config(FrameConfig {
            simd,
            parallel: false,
            ..FrameConfig::default()
        });
        let handles: Vec<_> = store.handles().to_vec();
        let motions: Vec<Vec2> = handles
            .iter()
            .map(|&h| store.props(h).unwrap().motion)
            .collect();
        let mut contacts = 0;
        let mut sign = 1.0;
        // Boxes move forth and back: the scene's states repeat, so after the warm-up
        // every buffer has seen its largest size (that is the steady state).
        let mut step = |store: &mut BoxStore, frame: &mut Frame| {
            let r = frame.step(store).unwrap();
            contacts += r.contacts.len();
            for (&h, &m) in handles.iter().zip(&motions) {
                let b = store.get(h).unwrap();
                store.update(h, b.translated(m * sign)).unwrap();
            }
            sign = -sign;
        };
        for _ in 0..5 {
            step(&mut store, &mut frame);
        }
        let before = allocated();
        for _ in 0..5 {
            step(&mut store, &mut frame);
        }
        let after = allocated();
        assert!(contacts > 0, "the scene must produce contacts");
        assert!(
            after - before == 0,
            "{simd:?}: {} allocations in 5 steady-state steps",
            after - before
        );
    }
}

/// A bullet of kind `k` (even: the enemy's, odd: the player's) somewhere in the room,
/// flying in some direction; destroyed at its first contact.
fn bullet(rng: &mut Rng, k: u64) -> (Circle, BoxProps) {
    let c = Vec2::new(rng.range_f32(20.0, 620.0), rng.range_f32(20.0, 460.0));
    let v = Vec2::from_angle(rng.range_f32(0.0, core::f32::consts::TAU)) * rng.range_f32(1.0, 12.0);
    let filter = if k.is_multiple_of(2) {
        layers::enemy_bullet()
    } else {
        layers::player_bullet()
    };
    (
        Circle::new(c, 1.5),
        BoxProps {
            filter,
            motion: v,
            response: Response::Destroy,
            user_data: k,
            ..BoxProps::default()
        },
    )
}

/// `Frame::advance` with a tile map, thousands of bullets destroyed on walls, enemies and
/// the player and respawned after each frame (the count stays steady; a respawn reuses a
/// removed box's slot and the store's grown columns), and a few boxes that stop at walls
/// and at each other, moving forth and back: after a warm-up, no allocation in
/// `advance`.
#[test]
fn steady_state_advance_does_not_allocate() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut art = String::new();
    for r in 0..30 {
        for c in 0..40 {
            let border = r == 0 || r == 29 || c == 0 || c == 39;
            let pillar = r % 6 == 3 && c % 8 == 4;
            art.push(if border || pillar { '#' } else { '.' });
        }
        art.push('\n');
    }
    let map = TileMap::from_ascii(&art, Vec2::splat(16.0), Vec2::ZERO)
        .unwrap()
        .with_outside(1);
    // Level geometry in a static level too: rubble and round pillars, dense enough that
    // a frame has thousands of (bullet, static) pairs (its sorts then outgrow any
    // stack scratch).
    let mut rubble = BoxStore::new();
    let mut rng = Rng::new(99);
    for k in 0..2400u64 {
        let c = Vec2::new(rng.range_f32(30.0, 610.0), rng.range_f32(30.0, 450.0));
        let props = BoxProps::new(layers::wall()).with_user_data(k);
        if k % 8 == 0 {
            rubble.insert_shape(Circle::new(c, 4.0), props).unwrap();
        } else {
            let half = Vec2::new(rng.range_f32(1.5, 4.0), rng.range_f32(1.5, 4.0));
            rubble
                .insert_with(Aabb::from_center_half_extents(c, half), props)
                .unwrap();
        }
    }
    let statics = StaticLevel::new(rubble).unwrap();
    let level = Level::walls(&map).with_statics(&statics);
    for simd in SimdLevel::available().iter().copied() {
        let mut rng = Rng::new(11);
        let mut store = BoxStore::new();
        for k in 0..4000u64 {
            let (c, props) = bullet(&mut rng, k);
            store.insert_shape(c, props).unwrap();
        }
        // Enemies (compound: two boxes each) and the player, all stopping at walls.
        let mut movers = Vec::new();
        for e in 0..12u32 {
            let c = Vec2::new(40.0 + 45.0 * e as f32, 100.0 + 20.0 * (e % 5) as f32);
            let v = Vec2::new(rng.range_f32(-20.0, 20.0), rng.range_f32(-20.0, 20.0));
            for dx in [-5.0, 5.0] {
                let h = store
                    .insert_with(
                        Aabb::from_center_half_extents(c + Vec2::new(dx, 0.0), Vec2::splat(5.0)),
                        BoxProps {
                            filter: layers::enemy(),
                            owner: Owner::new(e, 0),
                            motion: v,
                            response: Response::Stop,
                            user_data: 1_000_000 + u64::from(e),
                            turn: 0.0,
                        },
                    )
                    .unwrap();
                movers.push((h, v));
            }
        }
        let v = Vec2::new(7.0, -9.0);
        let player = store
            .insert_with(
                Aabb::from_center_half_extents(Vec2::new(320.0, 240.0), Vec2::splat(4.0)),
                BoxProps {
                    filter: layers::player(),
                    motion: v,
                    response: Response::Stop,
                    user_data: 2_000_000,
                    ..BoxProps::default()
                },
            )
            .unwrap();
        movers.push((player, v));
        let mut frame = Frame::with_config(FrameConfig {
            simd,
            parallel: false,
            ..FrameConfig::default()
        });
        let (mut destroyed, mut walls, mut stopped, mut pillars) = (0, 0, 0, 0);
        let mut gone = Vec::with_capacity(4096);
        let mut allocations = 0;
        for f in 0..200 {
            let before = allocated();
            let s = frame.advance(&mut store, &level).unwrap();
            let after = allocated();
            if f >= 170 {
                allocations += after - before;
                destroyed += s.destroyed;
                walls += s.wall_hits;
                stopped += s.stopped;
                pillars += s.static_hits;
            }
            // Respawn the destroyed bullets; the movers turn around every 8 frames.
            gone.clear();
            gone.extend(frame.report().destroyed.iter().map(|d| d.user_data));
            for &k in &gone {
                // The same bullet again: the scene's states come back, so after the
                // warm-up every buffer has seen its largest size (the steady state).
                let (c, props) = bullet(&mut Rng::new(k), k);
                store.insert_shape(c, props).unwrap();
            }
            if f % 8 == 7 {
                for (h, v) in &mut movers {
                    *v = -*v;
                    store.set_motion(*h, *v).unwrap();
                }
            }
        }
        assert_eq!(store.len(), 4000 + 25, "the count stays steady");
        assert!(
            destroyed > 1000 && walls > 1000 && stopped > 0 && pillars > 30 * 600,
            "the scene must destroy, hit walls and statics and stop: \
             {destroyed} {walls} {pillars} {stopped}"
        );
        assert_eq!(
            allocations, 0,
            "{simd:?}: {allocations} allocations in 30 steady-state advances"
        );
    }
}

/// Rollback: a game that keeps a snapshot of its store and of its frame's events, and
/// restores both every frame (`clone_from`, `Frame::restore_events`), then advances
/// again, allocates nothing after the first restore, though each frame destroys bullets
/// and shrinks the store.
#[test]
fn restoring_a_snapshot_every_frame_does_not_allocate() {
    let _serial = SERIAL
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let map = TileMap::from_ascii(
        "##########\n#........#\n#...##...#\n#........#\n##########\n",
        Vec2::splat(64.0),
        Vec2::ZERO,
    )
    .unwrap();
    let level = Level::walls(&map);
    let mut store = BoxStore::new();
    let mut rng = Rng::new(7);
    for k in 0..3000 {
        let (c, props) = bullet(&mut rng, k);
        let c = Circle::new(c.center * Vec2::new(1.0, 0.6), c.radius);
        store.insert_shape(c, props).unwrap();
    }
    let snapshot = store.clone();
    let mut frame = Frame::with_config(FrameConfig {
        parallel: false,
        ..FrameConfig::default()
    });
    frame.advance(&mut store.clone(), &level).unwrap();
    let events = frame.events_snapshot();
    let mut destroyed = 0;
    let mut allocations = 0;
    for f in 0..20 {
        let before = allocated();
        store.clone_from(&snapshot);
        frame.restore_events(&events);
        let s = frame.advance(&mut store, &level).unwrap();
        let after = allocated();
        if f >= 2 {
            allocations += after - before;
            destroyed += s.destroyed;
        }
    }
    assert!(destroyed > 0, "the frames must destroy bullets");
    assert_eq!(
        allocations, 0,
        "{allocations} allocations in 18 restores and advances"
    );
}
