//! The frame pipeline allocates nothing in steady state: after a few warm-up steps
//! (buffers grow to the scene's size), a step makes no heap allocation. Counted with a
//! counting global allocator, on one thread (rayon's job queue may allocate).

use glam::Vec2;
use hantei::frame::{Frame, FrameConfig, layers};
use hantei::rng::Rng;
use hantei::{Aabb, BoxProps, BoxStore, Owner, SimdLevel};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards every call to the system allocator unchanged; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
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
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        for _ in 0..5 {
            step(&mut store, &mut frame);
        }
        let after = ALLOCATIONS.load(Ordering::Relaxed);
        assert!(contacts > 0, "the scene must produce contacts");
        assert!(
            after - before == 0,
            "{simd:?}: {} allocations in 5 steady-state steps",
            after - before
        );
    }
}
