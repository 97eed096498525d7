//! `Frame::step` or `Frame::advance` on the danmaku scene in a plain loop: for comparing
//! two commits run by run (build this bench at each, then alternate the binaries), and
//! for profilers (`perf record`, `valgrind --tool=callgrind`), which see nothing else
//! of the bench in the loop but the store's copy.
//!
//! ```text
//! cargo bench --bench frame_loop -- 100000 advance 150
//! THREADS=2 cargo bench --bench frame_loop -- 1000000 step 6
//! valgrind --tool=callgrind --toggle-collect='*Frame*advance*' \
//!     target/release/deps/frame_loop-<hash> --bench 100000 advance 5
//! ```
//!
//! Arguments: bullets (default 100,000), `step`, `advance` or `nowalls` (`advance`
//! with `Level::none()`; default `advance`), rounds (default 150). The environment:
//! `THREADS` (default 1: a serial frame; more: a parallel frame on a pool of that many),
//! and the scene's variants `SQUARES=1`, `OPEN=1`, `GROUPED=1`, `STILL=1` (still lasers,
//! no needles). Prints the mean time of a call and of its `FrameTimings` parts (broad
//! and walls, narrow and statics, the rest) and its serial part, in ms, and the last
//! call's contacts, wall hits and destroyed boxes. Each call runs on a fresh copy of the
//! store (the copy not timed). Run without `--bench` (as `cargo test --benches` does),
//! it does nothing.

use hantei::frame::{Danmaku, DanmakuConfig, Frame, FrameConfig, Level};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if !args.iter().any(|a| a == "--bench") {
        return;
    }
    let mut args = args.iter().filter(|a| !a.starts_with("--"));
    let n: usize = args.next().map_or(100_000, |s| s.parse().expect("a count"));
    let mode = args.next().map_or("advance", |s| s.as_str());
    let rounds: usize = args.next().map_or(150, |s| s.parse().expect("a count"));
    let set = |name: &str| std::env::var(name).is_ok_and(|v| v != "0");
    let mut config = DanmakuConfig::new(n);
    if set("SQUARES") {
        config = config.with_square_bullets();
    }
    if set("OPEN") {
        config = config.with_open_arena();
    }
    if set("STILL") {
        config = config.with_still_lasers();
    }
    if set("GROUPED") {
        config = config.with_sides_grouped();
    }
    let scene = Danmaku::new(config);
    let level = match mode {
        "advance" | "step" => Level::walls(&scene.map),
        "nowalls" => Level::none(),
        other => panic!("no mode {other:?}: step, advance or nowalls"),
    };
    let threads: usize = std::env::var("THREADS").map_or(1, |t| t.parse().expect("a count"));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let mut frame = Frame::with_config(FrameConfig {
        parallel: threads > 1,
        ..FrameConfig::default()
    });
    let mut store = scene.store.clone();
    let mut sums = [0.0f64; 5];
    let mut counts = (0, 0, 0);
    pool.install(|| {
        for _ in 0..rounds {
            store.clone_from(&scene.store);
            let start = Instant::now();
            let timings = if mode == "step" {
                let report = frame.step(&store).expect("valid");
                counts = (report.contacts.len(), 0, 0);
                report.timings
            } else {
                let summary = frame.advance(&mut store, &level).expect("valid");
                counts = (summary.contacts, summary.wall_hits, summary.destroyed);
                summary.timings
            };
            sums[0] += start.elapsed().as_secs_f64();
            sums[1] += timings.broad.as_secs_f64();
            sums[2] += timings.narrow.as_secs_f64();
            sums[3] += timings.events.as_secs_f64();
            sums[4] += timings.serial.as_secs_f64();
        }
    });
    let ms = |s: f64| s * 1e3 / rounds as f64;
    println!(
        "{n} bullets, {mode}, {threads} thread(s): {:.3} ms a call; parts {:.3} / {:.3} / {:.3} ms",
        ms(sums[0]),
        ms(sums[1]),
        ms(sums[2]),
        ms(sums[3])
    );
    println!(
        "  of which serial (FrameTimings::serial): {:.3} ms",
        ms(sums[4])
    );
    println!(
        "  a call's contacts, wall hits, destroyed: {} / {} / {}",
        counts.0, counts.1, counts.2
    );
}
