//! The whole frame against the step alone, measured interleaved: round after round,
//! `Frame::step` then `Frame::advance` (and for the static level, the geometry in the
//! store then in a `StaticLevel`), each on a fresh copy of the same store (the copy not
//! timed), so that both meet the same caches and the same neighbours. Prints the median
//! of each and the median of the per-round ratios with its quartiles; under each frame
//! row, the floor: the step plus the least a whole frame adds to it, every box's bounds
//! moved by its motion in a plain loop ([`motion_floor`]).
//!
//! ```text
//! cargo bench --bench frame_ratio
//! FRAME_SIZES=1000000 FRAME_ROUNDS=80 cargo bench --bench frame_ratio
//! FRAME_SIZES= cargo bench --bench frame_ratio   # the static level only
//! FRAME_SIZES=100000 FRAME_SCENES=danmaku,squares FRAME_STATIC=0 cargo bench --bench frame_ratio
//! ```
//!
//! Why beside criterion's `frame` bench: on a shared 2-vCPU VM, a criterion row moves by
//! up to 30% between the minutes it runs in (its step and advance rows run minutes
//! apart); a ratio of two rows then says as much about the neighbours as about the
//! frame. Here both halves of each ratio run within milliseconds of each other.
//! The static level is timed twice a round: right after the in-store frame (its index
//! pushed out of the caches by that frame's 30 MB) and again right after itself (the
//! index in cache, as in a game that runs the frame after the frame and in criterion's
//! rows).
//! The frame rows run [`hantei::frame::Danmaku`], the scene a bullet-hell game has, and
//! its variants: `danmaku` (round bullets among pillars), `squares` (square bullets),
//! `open` (only the border as walls), `squares-open` (both), `grouped` (the same
//! bullets stored in one block per side, not interleaved), `still` (lasers that hold
//! still and no needle capsules). Under each row, `advance`'s
//! parts from its `FrameTimings` (medians): broad with the walls, narrow with the
//! statics, the rest.
//! `FRAME_SIZES` (default `10000,100000,1000000`), `FRAME_THREADS` (default one and all
//! cores), `FRAME_SCENES` (default all six, comma-separated), `FRAME_ROUNDS` (default:
//! 400 at 10k, 150 at 100k, 40 at 1M; the static level as 100k, one thread),
//! `FRAME_STATIC=0` (skip the static level), `FRAME_RESPONSES=0` (skip the rows that
//! price sensors and a sliding player: the danmaku scene against the same scene with a
//! player that stops at any hit, one thread), `FRAME_TURNING=0` (skip the rows that
//! price turning lasers and needles: the danmaku scene against the same scene with
//! still lasers and round bullets only, one thread). Not a criterion bench: `cargo bench` runs
//! it with the others; run by hand, it times only with `--bench` (what `cargo bench`
//! passes), so `cargo test --benches` runs nothing of it.

use hantei::BoxStore;
use hantei::frame::{Danmaku, DanmakuConfig, Frame, FrameConfig, Level};
use rayon::prelude::*;
use scenes::{StaticScene, static_scene};
use std::hint::black_box;
use std::time::Instant;

mod scenes;

/// Median of `v` (sorted in place).
fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Medians of `a` and `b` (ms) and the per-round ratio `a / b`: median and quartiles.
fn report(label: &str, names: (&str, &str), mut a: Vec<f64>, mut b: Vec<f64>) {
    let mut ratio: Vec<f64> = a.iter().zip(&b).map(|(x, y)| x / y).collect();
    let (ma, mb, mr) = (median(&mut a), median(&mut b), median(&mut ratio));
    let q = |f: f64| ratio[((ratio.len() - 1) as f64 * f) as usize];
    println!(
        "{label:<18} {} {ma:8.3} ms   {} {mb:8.3} ms   ratio {mr:5.2}x  (quartiles {:.2}-{:.2}, {} rounds)",
        names.0,
        names.1,
        q(0.25),
        q(0.75),
        ratio.len()
    );
}

/// The least any whole frame adds to the step: every box's bounds moved by its motion
/// (four bound columns and two motion columns read, four written), in a plain loop on
/// fresh copies of the store's columns (the copies not timed), in ms; with `parallel`,
/// in blocks of 16,384 boxes on rayon's current pool (as `Frame::advance` moves them).
fn motion_floor(store: &BoxStore, parallel: bool) -> f64 {
    let mut b = [
        store.min_x().to_vec(),
        store.min_y().to_vec(),
        store.max_x().to_vec(),
        store.max_y().to_vec(),
    ];
    let m = [store.motion_x().to_vec(), store.motion_y().to_vec()];
    let add = |lo: &mut [f32], hi: &mut [f32], m: &[f32]| {
        for ((lo, hi), d) in lo.iter_mut().zip(hi.iter_mut()).zip(m) {
            *lo += d;
            *hi += d;
        }
    };
    let t = Instant::now();
    let [x0, y0, x1, y1] = &mut b;
    if parallel {
        const BLOCK: usize = 1 << 14;
        x0.par_chunks_mut(BLOCK)
            .zip(x1.par_chunks_mut(BLOCK))
            .zip(y0.par_chunks_mut(BLOCK))
            .zip(y1.par_chunks_mut(BLOCK))
            .zip(m[0].par_chunks(BLOCK).zip(m[1].par_chunks(BLOCK)))
            .for_each(|((((x0, x1), y0), y1), (mx, my))| {
                add(x0, x1, mx);
                add(y0, y1, my);
            });
    } else {
        add(x0, x1, &m[0]);
        add(y0, y1, &m[1]);
    }
    let ms = t.elapsed().as_secs_f64() * 1e3;
    black_box(&b);
    ms
}

/// Times `f` on a copy of `store` (the copy not timed), in ms. Every copy goes into the
/// same store, kept for the whole run (`clone_from`): its buffers stay, as a game's
/// store keeps its own between frames. A fresh clone each time would time new memory.
fn timed(store: &BoxStore, f: impl FnOnce(&mut BoxStore)) -> f64 {
    thread_local! {
        static COPY: std::cell::RefCell<BoxStore> = std::cell::RefCell::new(BoxStore::new());
    }
    COPY.with_borrow_mut(|copy| {
        copy.clone_from(store);
        let t = Instant::now();
        f(copy);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        black_box(copy);
        ms
    })
}

fn env_list(name: &str) -> Option<Vec<usize>> {
    std::env::var(name).ok().map(|list| {
        list.split(',')
            .filter(|t| !t.trim().is_empty())
            .map(|t| t.trim().parse().expect("a comma-separated list of counts"))
            .collect()
    })
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing (and
    // `--list` lists): time only when asked to.
    if !std::env::args().any(|a| a == "--bench") {
        return;
    }
    let sizes = env_list("FRAME_SIZES").unwrap_or(vec![10_000, 100_000, 1_000_000]);
    let rounds = |n: usize| {
        env_list("FRAME_ROUNDS")
            .and_then(|r| r.first().copied())
            .unwrap_or(match n {
                n if n >= 1_000_000 => 40,
                n if n >= 100_000 => 150,
                _ => 400,
            })
    };
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let threads = env_list("FRAME_THREADS").unwrap_or(vec![1, cores]);
    let scenes: Vec<String> = std::env::var("FRAME_SCENES")
        .unwrap_or("danmaku,still,squares,open,squares-open,grouped".into())
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().to_string())
        .collect();
    let serial = FrameConfig {
        parallel: false,
        ..FrameConfig::default()
    };
    println!("each ratio: advance / step (frame rows), in store / static level (one thread)");
    println!("advance's parts (medians): broad and walls / narrow and statics / the rest");
    for &n in &sizes {
        for name in &scenes {
            let config = DanmakuConfig::new(n);
            let config = match name.as_str() {
                "danmaku" => config,
                "squares" => config.with_square_bullets(),
                "open" => config.with_open_arena(),
                "squares-open" => config.with_square_bullets().with_open_arena(),
                "grouped" => config.with_sides_grouped(),
                "still" => config.with_still_lasers(),
                other => panic!("FRAME_SCENES: no scene {other:?}"),
            };
            let scene = Danmaku::new(config);
            let (store, level) = (&scene.store, Level::walls(&scene.map));
            for &t in &threads {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .expect("a thread pool");
                // One thread: serial; more: the default (parallel above the threshold).
                let config = if t == 1 {
                    serial
                } else {
                    FrameConfig::default()
                };
                let (mut step, mut whole) =
                    (Frame::with_config(config), Frame::with_config(config));
                let (mut s, mut a, mut f) = (Vec::new(), Vec::new(), Vec::new());
                let mut parts = [Vec::new(), Vec::new(), Vec::new()];
                pool.install(|| {
                    for _ in 0..rounds(n) {
                        s.push(timed(store, |st| {
                            black_box(step.step(st).expect("valid").contacts.len());
                        }));
                        let mut tm = None;
                        a.push(timed(store, |st| {
                            tm = Some(whole.advance(st, &level).expect("valid").timings);
                        }));
                        let tm = tm.expect("timed");
                        parts[0].push(tm.broad.as_secs_f64() * 1e3);
                        parts[1].push(tm.narrow.as_secs_f64() * 1e3);
                        parts[2].push(tm.events.as_secs_f64() * 1e3);
                        f.push(motion_floor(store, t > 1));
                    }
                });
                let floor: Vec<f64> = s.iter().zip(&f).map(|(s, f)| s + f).collect();
                report(
                    &format!("{name}/{n}/{t}t"),
                    ("advance", "step"),
                    a,
                    s.clone(),
                );
                let [mut b, mut w, mut r] = parts;
                println!(
                    "  parts            {:.3} / {:.3} / {:.3} ms",
                    median(&mut b),
                    median(&mut w),
                    median(&mut r)
                );
                report("  floor", ("step + motion", "step"), floor, s);
            }
        }
    }
    if std::env::var("FRAME_RESPONSES").map_or(true, |v| v != "0") {
        for &n in &sizes {
            responses(n, rounds(n), serial);
        }
    }
    if std::env::var("FRAME_TURNING").map_or(true, |v| v != "0") {
        for &n in &sizes {
            turning(n, rounds(n), serial);
        }
    }
    if std::env::var("FRAME_STATIC").map_or(true, |v| v != "0") {
        static_level(rounds(100_000), serial);
    }
}

/// What sensors and a sliding player cost: the danmaku scene's `advance` (the player
/// slides, bullets and enemies are sensor contacts for it) against the same scene with
/// a player that stops at whatever it hits first, interleaved, one thread.
fn responses(n: usize, rounds: usize, config: FrameConfig) {
    let sliding = DanmakuConfig::new(n);
    let stopping = DanmakuConfig::new(n).with_stopping_player();
    let label = format!("responses/{n}/1t");
    compare(
        &label,
        ("slide+sensors", "stop"),
        (sliding, stopping),
        rounds,
        config,
    );
}

/// What turning lasers and needles cost: the danmaku scene's `advance` (its lasers
/// turn, one enemy bullet in ten is a capsule) against the same scene with still
/// lasers and no capsules, interleaved, one thread.
fn turning(n: usize, rounds: usize, config: FrameConfig) {
    let turning = DanmakuConfig::new(n);
    let still = DanmakuConfig::new(n).with_still_lasers();
    let label = format!("turning/{n}/1t");
    compare(
        &label,
        ("turning+needles", "still"),
        (turning, still),
        rounds,
        config,
    );
}

/// The `advance` of two scenes, interleaved round by round, reported as a ratio.
fn compare(
    label: &str,
    names: (&str, &str),
    (x, y): (DanmakuConfig, DanmakuConfig),
    rounds: usize,
    config: FrameConfig,
) {
    let (x, y) = (Danmaku::new(x), Danmaku::new(y));
    let (mut fx, mut fy) = (Frame::with_config(config), Frame::with_config(config));
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        a.push(timed(&x.store, |st| {
            let level = Level::walls(&x.map);
            black_box(fx.advance(st, &level).expect("valid").contacts);
        }));
        b.push(timed(&y.store, |st| {
            let level = Level::walls(&y.map);
            black_box(fy.advance(st, &level).expect("valid").contacts);
        }));
    }
    report(label, names, a, b);
}

/// `static_level/100k` of `benches/frame.rs`, interleaved.
fn static_level(rounds: usize, config: FrameConfig) {
    let StaticScene {
        demo,
        bullets,
        level: statics,
        together,
    } = static_scene();
    let with_statics = Level::walls(&demo.map).with_statics(&statics);
    let walls = Level::walls(&demo.map);
    let (mut in_store, mut indexed) = (Frame::with_config(config), Frame::with_config(config));
    let (mut a, mut b, mut again) = (Vec::new(), Vec::new(), Vec::new());
    let mut static_frame = || {
        timed(&bullets, |st| {
            black_box(indexed.advance(st, &with_statics).expect("valid").contacts);
        })
    };
    for _ in 0..rounds {
        a.push(timed(&together, |st| {
            black_box(in_store.advance(st, &walls).expect("valid").contacts);
        }));
        // Right after the in-store frame, which has pushed most of the level's index
        // out of the caches; then again, as a game's frame follows its last frame.
        b.push(static_frame());
        again.push(static_frame());
    }
    report("static_level/100k", ("in store", "static"), a.clone(), b);
    report("  level in cache", ("in store", "static"), a, again);
}
