//! `pairs`: every overlapping pair of a scene file, for throughput benchmarking.
//!
//! ```text
//! cargo run --release --example pairs -- [SCENE] [--threads N] [--count] [--repeat R]
//!                                        [--gap-ms G] [--gen SHAPE:N[:SEED]] [--save PATH]
//! ```
//!
//! - `SCENE`: an `AABB2D` v1 file (see `docs/scene-format.md`). Prints the canonical
//!   listing: one `i j` line per overlapping pair, `i < j`, sorted.
//! - `--count`: print only the number of pairs.
//! - `--repeat R`: run the whole broad phase R times (from the boxes in memory to the
//!   complete pair list) and print `median_ms: X` on stderr.
//! - `--gap-ms G`: with `--repeat`, pause G milliseconds (a decimal) before each timed
//!   run, as a game does between frames (default 0: back to back). Idle pool threads go
//!   to sleep, and the time they take to wake shows in the median.
//! - `--threads N`: rayon pool size (default: all cores).
//! - `--gen SHAPE:N[:SEED]`: generate the scene instead of reading one (shapes: uniform,
//!   bullet_hell, clusters, horizontal_line, vertical_line, identical, huge_and_tiny,
//!   parked).
//! - `--save PATH`: write the scene to PATH (e.g. a generated one, for other tools).
//! - `--summary`: print the summary below instead of the listing.
//!
//! With no SCENE and no `--gen`, runs on the embedded default (a 100k-box bullet-hell
//! frame, seed 1) and prints a summary: boxes, pairs, median milliseconds.
//! A malformed file or argument prints one line naming the problem and exits with 2.

use hantei::scene::{self, generate::Shape};
use hantei::{Aabb, BroadPhase, Pair};
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

struct Args {
    scene: Option<String>,
    generate: Option<(Shape, usize, u64)>,
    save: Option<String>,
    threads: Option<usize>,
    count: bool,
    summary: bool,
    repeat: Option<usize>,
    gap_ms: f64,
}

fn usage() -> &'static str {
    "usage: pairs [SCENE] [--threads N] [--count] [--summary] [--repeat R] [--gap-ms G] [--gen SHAPE:N[:SEED]] [--save PATH]"
}

fn parse_num<T: std::str::FromStr>(flag: &str, v: Option<String>) -> Result<T, String> {
    let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
    v.parse()
        .map_err(|_| format!("{flag}: '{v}' is not a valid number"))
}

fn parse_gen(v: Option<String>) -> Result<(Shape, usize, u64), String> {
    let v = v.ok_or("--gen needs SHAPE:N[:SEED]")?;
    let mut parts = v.split(':');
    let name = parts.next().unwrap_or_default();
    let shape = Shape::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Shape::ALL.iter().map(|s| s.name()).collect();
        format!(
            "--gen: unknown shape '{name}' (one of {})",
            names.join(", ")
        )
    })?;
    let n = parse_num("--gen N", parts.next().map(str::to_owned))?;
    let seed = match parts.next() {
        Some(s) => parse_num("--gen SEED", Some(s.to_owned()))?,
        None => 1,
    };
    if parts.next().is_some() {
        return Err(format!("--gen: '{v}' has too many parts"));
    }
    if n > hantei::MAX_BOXES {
        return Err(format!(
            "--gen: {n} boxes is more than {}",
            hantei::MAX_BOXES
        ));
    }
    Ok((shape, n, seed))
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        scene: None,
        generate: None,
        save: None,
        threads: None,
        count: false,
        summary: false,
        repeat: None,
        gap_ms: 0.0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        match a.as_str() {
            "--threads" => {
                let n: usize = parse_num("--threads", it.next())?;
                if n == 0 {
                    return Err("--threads must be at least 1".into());
                }
                args.threads = Some(n);
            }
            "--repeat" => {
                let r: usize = parse_num("--repeat", it.next())?;
                if r == 0 {
                    return Err("--repeat must be at least 1".into());
                }
                args.repeat = Some(r);
            }
            "--gap-ms" => {
                let g: f64 = parse_num("--gap-ms", it.next())?;
                if !(0.0..=10_000.0).contains(&g) {
                    return Err("--gap-ms must be between 0 and 10000".into());
                }
                args.gap_ms = g;
            }
            "--count" => args.count = true,
            "--summary" => args.summary = true,
            "--gen" => args.generate = Some(parse_gen(it.next())?),
            "--save" => args.save = Some(it.next().ok_or("--save needs a path")?),
            "-h" | "--help" => return Err(usage().into()),
            s if s.starts_with('-') => return Err(format!("unknown option '{s}' ({})", usage())),
            s => {
                if args.scene.replace(s.to_owned()).is_some() {
                    return Err(format!("more than one scene given ({})", usage()));
                }
            }
        }
    }
    if args.scene.is_some() && args.generate.is_some() {
        return Err("give a SCENE or --gen, not both".into());
    }
    Ok(args)
}

/// Runs the broad phase `repeat` times, pausing `gap_ms` before each run; returns the
/// median milliseconds.
fn time_runs(
    broad: &mut BroadPhase,
    boxes: &[Aabb],
    repeat: usize,
    gap_ms: f64,
) -> Result<f64, String> {
    let mut ms = Vec::with_capacity(repeat);
    for _ in 0..repeat {
        if gap_ms > 0.0 {
            std::thread::sleep(std::time::Duration::from_secs_f64(gap_ms / 1e3));
        }
        let t = Instant::now();
        let n = broad.find_pairs(boxes).map_err(|e| e.to_string())?.len();
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(n);
    }
    ms.sort_by(f64::total_cmp);
    Ok(ms[ms.len() / 2])
}

/// Writes the canonical listing fast: one `i j\n` per pair.
fn write_listing(pairs: &mut [Pair], out: &mut impl Write) -> std::io::Result<()> {
    pairs.sort_unstable();
    let mut buf = Vec::with_capacity(1 << 16);
    for p in pairs.iter() {
        push_u32(&mut buf, p.a);
        buf.push(b' ');
        push_u32(&mut buf, p.b);
        buf.push(b'\n');
        if buf.len() > (1 << 16) - 32 {
            out.write_all(&buf)?;
            buf.clear();
        }
    }
    out.write_all(&buf)?;
    out.flush()
}

fn push_u32(buf: &mut Vec<u8>, mut v: u32) {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (v % 10) as u8;
        v /= 10;
        if v == 0 {
            break;
        }
    }
    buf.extend_from_slice(&digits[i..]);
}

fn run(args: Args) -> Result<(), String> {
    let default_scene = args.scene.is_none() && args.generate.is_none();
    let summary = default_scene || args.summary;
    let boxes: Vec<Aabb> = match (&args.scene, args.generate) {
        (Some(path), _) => scene::load(path).map_err(|e| format!("{path}: {e}"))?,
        (None, Some((shape, n, seed))) => shape.generate(n, seed),
        (None, None) => Shape::BulletHell.generate(100_000, 1),
    };
    if let Some(path) = &args.save {
        scene::save(path, &boxes).map_err(|e| format!("{path}: {e}"))?;
    }
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        builder = builder.num_threads(n);
    }
    let pool = builder
        .build()
        .map_err(|e| format!("cannot start {} threads: {e}", args.threads.unwrap_or(0)))?;
    pool.install(|| {
        let mut broad = BroadPhase::new();
        let repeat = args.repeat.or(summary.then_some(20));
        let median = repeat
            .map(|r| time_runs(&mut broad, &boxes, r, args.gap_ms))
            .transpose()?;
        let mut pairs = broad
            .find_pairs(&boxes[..])
            .map_err(|e| e.to_string())?
            .to_vec();
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        let io = |e: std::io::Error| format!("writing the output: {e}");
        if summary {
            let what = match (&args.scene, args.generate) {
                (Some(path), _) => path.clone(),
                (None, Some((shape, n, seed))) => format!("generated {}:{n}:{seed}", shape.name()),
                (None, None) => "embedded default scene: bullet hell (100k boxes, seed 1)".into(),
            };
            writeln!(out, "{what}: {} boxes", boxes.len()).map_err(io)?;
            writeln!(out, "threads: {}", rayon::current_num_threads()).map_err(io)?;
            writeln!(out, "simd: {}", broad.config().simd.name()).map_err(io)?;
            writeln!(out, "pairs: {}", pairs.len()).map_err(io)?;
            let st = broad.last_stats();
            writeln!(
                out,
                "bands: {} (sweeping along {}), box copies: {}",
                st.bands,
                if st.sweep_axis == 0 { 'x' } else { 'y' },
                st.entries
            )
            .map_err(io)?;
            if let Some(m) = median {
                writeln!(out, "median_ms: {m:.3} (of {} runs)", repeat.unwrap_or(1)).map_err(io)?;
            }
            out.flush().map_err(io)?;
        } else if args.count {
            writeln!(out, "{}", pairs.len()).map_err(io)?;
            out.flush().map_err(io)?;
        } else {
            write_listing(&mut pairs, &mut out).map_err(io)?;
        }
        if let (Some(m), false) = (median, summary) {
            eprintln!("median_ms: {m:.3}");
        }
        Ok(())
    })
}

fn main() -> ExitCode {
    let result = parse_args().and_then(run);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // A closed pipe (`pairs scene | head`) is not an error worth a message.
            if !e.contains("Broken pipe") {
                eprintln!("error: {e}");
            }
            ExitCode::from(2)
        }
    }
}
