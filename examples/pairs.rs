//! `pairs`: every overlapping pair of a scene file, for checking and throughput
//! benchmarking.
//!
//! ```text
//! cargo run --release --example pairs -- [SCENE | --gen SHAPE:N[:SEED]] [OPTIONS]
//! cargo run --release --example pairs -- --help
//! ```
//!
//! - `SCENE`: an `AABB2D` v1 file (see `docs/scene-format.md`). Prints the canonical
//!   listing: one `i j` line per overlapping pair, `i < j`, sorted.
//! - `--gen SHAPE:N[:SEED]`: generate the scene instead of reading one (shapes: uniform,
//!   bullet_hell, clusters, horizontal_line, vertical_line, identical, huge_and_tiny,
//!   parked; seed 1 by default).
//! - `--save PATH`: write the scene to PATH (e.g. a generated one, for other tools).
//! - `--count`: print only the number of pairs.
//! - `--summary`: print a summary instead of the listing: boxes, threads, SIMD level,
//!   pairs, bands, and the timing of 20 runs (or `--repeat R`).
//! - `--json`: the summary as one JSON object: min / median / max milliseconds, ns per box
//!   and per pair, boxes, pairs, threads, SIMD level, the machine (CPU model, arch).
//! - `--repeat R`: run the whole broad phase R times (from the boxes in memory to the
//!   complete pair list) and print `median_ms: X (min Y, max Z, of R runs)` on stderr
//!   (in the summary with `--summary`, in the object with `--json`). A run longer than
//!   a second reports its progress on stderr (`run k/R`) about once a second.
//! - `--gap-ms G`: with timed runs, pause G milliseconds (a decimal) before each, as a
//!   game does between frames (default 0: back to back). Idle pool threads go to sleep,
//!   and the time they take to wake shows in the timings.
//! - `--threads N`: rayon pool size (default: all cores).
//! - `-h`, `--help`: print the options and exit.
//!
//! With no SCENE and no `--gen`, runs on the embedded default (a 100k-box bullet-hell
//! frame, seed 1) and prints a summary. `--count`, `--summary` and `--json` exclude each
//! other, as do SCENE and `--gen`; an option given twice is refused. A malformed file or
//! argument prints one line naming the problem and exits with 2.

mod cli;

use cli::Command;
use hantei::scene::{self, generate::Shape};
use hantei::{Aabb, BroadPhase, Pair, SimdLevel};
use std::fmt::Write as _;
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

/// What the program prints on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Output {
    /// One `i j` line per pair.
    Listing,
    /// The number of pairs.
    Count,
    /// The human summary.
    Summary,
    /// The summary as JSON.
    Json,
}

struct Args {
    scene: Option<String>,
    generate: Option<(Shape, usize, u64)>,
    save: Option<String>,
    threads: Option<usize>,
    output: Output,
    repeat: Option<usize>,
    gap_ms: Option<f64>,
}

/// The help text: the usage line, then every option on a line of its own.
fn help() -> String {
    let shapes: Vec<&str> = Shape::ALL.iter().map(|s| s.name()).collect();
    let mut h = String::new();
    h.push_str("pairs: every overlapping pair of a 2D box scene (hantei's broad phase)\n\n");
    h.push_str("usage: pairs [SCENE | --gen SHAPE:N[:SEED]] [OPTIONS]\n\n");
    let rows = [
        (
            "SCENE",
            "an AABB2D v1 scene file: prints its pairs as `i j` lines, i < j, sorted",
        ),
        (
            "--gen SHAPE:N[:SEED]",
            "generate N boxes instead of reading a file (SEED 1 by default)",
        ),
        (
            "--save PATH",
            "write the scene to PATH (e.g. a generated one)",
        ),
        ("--count", "print only the number of pairs"),
        (
            "--summary",
            "print a summary: boxes, threads, SIMD level, pairs, bands, timing",
        ),
        (
            "--json",
            "the summary as one JSON object (min/median/max ms, ns per box/pair, machine)",
        ),
        (
            "--repeat R",
            "time R runs (default 20 with --summary, --json); median/min/max ms on stderr",
        ),
        (
            "--gap-ms G",
            "pause G ms (0 to 10000) before each timed run, as a game between frames",
        ),
        ("--threads N", "rayon pool size (default: all cores)"),
        ("-h, --help", "print this help and exit"),
    ];
    for (name, what) in rows {
        let _ = writeln!(h, "  {name:<22}{what}");
    }
    let _ = writeln!(h, "\nSHAPE is one of:\n  {}\n", shapes.join(", "));
    h.push_str(
        "Without SCENE or --gen: a summary of the embedded 100k-box bullet-hell frame (seed 1).\n\
         --count, --summary and --json exclude each other; an option given twice is refused.\n\
         A malformed file or argument prints one line naming the problem and exits with 2.\n",
    );
    h
}

/// `--gen`'s value: `SHAPE:N[:SEED]`.
fn parse_gen(v: &str) -> Result<(Shape, usize, u64), String> {
    let mut parts = v.split(':');
    let name = parts.next().unwrap_or_default();
    let shape = Shape::from_name(name).ok_or_else(|| {
        let names: Vec<&str> = Shape::ALL.iter().map(|s| s.name()).collect();
        format!(
            "--gen: unknown shape '{name}' (one of {})",
            names.join(", ")
        )
    })?;
    let n = match parts.next() {
        Some(n) => cli::parse_number("--gen N", n)?,
        None => return Err(format!("--gen: '{v}' has no N (SHAPE:N[:SEED])")),
    };
    let seed = match parts.next() {
        Some(s) => cli::parse_number("--gen SEED", s)?,
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

fn parse_args(mut it: cli::Args) -> Result<Command<Args>, String> {
    let mut args = Args {
        scene: None,
        generate: None,
        save: None,
        threads: None,
        output: Output::Listing,
        repeat: None,
        gap_ms: None,
    };
    // The output options given, in order, to name the conflicting ones.
    let mut outputs: Vec<&str> = Vec::new();
    // A flag given twice is refused by `next_arg`.
    while let Some(a) = it.next_arg()? {
        match a.as_str() {
            "--threads" => args.threads = Some(it.threads("--threads")?),
            "--repeat" => {
                let r: usize = it.number("--repeat")?;
                if r == 0 {
                    return Err("--repeat must be at least 1".into());
                }
                args.repeat = Some(r);
            }
            "--gap-ms" => {
                let g: f64 = it.number("--gap-ms")?;
                if !(0.0..=10_000.0).contains(&g) {
                    return Err(format!("--gap-ms: {g} is not between 0 and 10000"));
                }
                args.gap_ms = Some(g);
            }
            "--count" => {
                outputs.push("--count");
                args.output = Output::Count;
            }
            "--summary" => {
                outputs.push("--summary");
                args.output = Output::Summary;
            }
            "--json" => {
                outputs.push("--json");
                args.output = Output::Json;
            }
            "--gen" => args.generate = Some(parse_gen(&it.value("--gen")?)?),
            "--save" => args.save = Some(it.value("--save")?),
            h if cli::is_help(h) => return Ok(Command::Help),
            s if s.starts_with('-') => return Err(cli::unknown(s)),
            s => {
                if args.scene.replace(s.to_owned()).is_some() {
                    return Err("more than one scene given (see --help)".into());
                }
            }
        }
    }
    if let [a, b, ..] = outputs[..] {
        return Err(format!(
            "{a} and {b} cannot be used together (each chooses the output)"
        ));
    }
    if args.scene.is_some() && args.generate.is_some() {
        return Err("give a SCENE or --gen, not both".into());
    }
    if args.scene.is_none() && args.generate.is_none() && args.output == Output::Listing {
        // The embedded default scene is summarised.
        args.output = Output::Summary;
    }
    let timed = args.repeat.is_some() || matches!(args.output, Output::Summary | Output::Json);
    if args.gap_ms.is_some() && !timed {
        return Err("--gap-ms needs timed runs (--repeat, --summary or --json)".into());
    }
    Ok(Command::Run(args))
}

/// The milliseconds of the timed runs.
#[derive(Debug, Clone, Copy)]
struct Timing {
    min: f64,
    /// The middle run (the upper of the two middle ones for an even count).
    median: f64,
    max: f64,
    runs: usize,
}

impl Timing {
    /// `median_ms: X (min Y, max Z, of R runs)`.
    fn line(&self) -> String {
        format!(
            "median_ms: {:.3} (min {:.3}, max {:.3}, of {} runs)",
            self.median, self.min, self.max, self.runs
        )
    }
}

/// Runs the broad phase `repeat` times, pausing `gap_ms` before each run. Reports
/// progress on stderr about once a second (`run k/R`) when the runs take that long.
fn time_runs(
    broad: &mut BroadPhase,
    boxes: &[Aabb],
    repeat: usize,
    gap_ms: f64,
) -> Result<Timing, String> {
    // The list grows as the runs go; a huge --repeat does not reserve it all at once.
    let mut ms = Vec::with_capacity(repeat.min(1 << 16));
    let mut reported = Instant::now();
    for k in 0..repeat {
        if gap_ms > 0.0 {
            std::thread::sleep(Duration::from_secs_f64(gap_ms / 1e3));
        }
        let t = Instant::now();
        let n = broad.find_pairs(boxes).map_err(|e| e.to_string())?.len();
        ms.push(t.elapsed().as_secs_f64() * 1e3);
        std::hint::black_box(n);
        if k + 1 < repeat && reported.elapsed() >= Duration::from_secs(1) {
            eprintln!("run {}/{repeat}", k + 1);
            reported = Instant::now();
        }
    }
    ms.sort_by(f64::total_cmp);
    Ok(Timing {
        min: ms[0],
        median: ms[ms.len() / 2],
        max: ms[ms.len() - 1],
        runs: ms.len(),
    })
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

/// The CPU's model name from `/proc/cpuinfo` (Linux), else `unknown`.
fn cpu_model() -> String {
    let info = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    ["model name", "Hardware", "Processor", "cpu model"]
        .iter()
        .find_map(|key| {
            info.lines().find_map(|line| {
                let (k, v) = line.split_once(':')?;
                (k.trim() == *key && !v.trim().is_empty()).then(|| v.trim().to_owned())
            })
        })
        .unwrap_or_else(|| "unknown".into())
}

/// `s` as a JSON string literal.
fn json_str(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// What the summary and the JSON object report.
struct Report<'a> {
    scene: &'a str,
    boxes: usize,
    pairs: usize,
    threads: usize,
    simd: SimdLevel,
    gap_ms: f64,
    timing: Timing,
}

/// The JSON object, on one line. Per-box and per-pair figures are of the median run;
/// `ns_per_pair` is `null` without pairs.
fn json(r: &Report) -> String {
    let per = |n: usize| {
        if n == 0 {
            "null".to_owned()
        } else {
            format!("{:.3}", r.timing.median * 1e6 / n as f64)
        }
    };
    format!(
        "{{\"scene\": {}, \"boxes\": {}, \"pairs\": {}, \"threads\": {}, \"simd\": {}, \
         \"repeat\": {}, \"gap_ms\": {}, \"min_ms\": {:.6}, \"median_ms\": {:.6}, \
         \"max_ms\": {:.6}, \"ns_per_box\": {}, \"ns_per_pair\": {}, \
         \"machine\": {{\"cpu\": {}, \"arch\": {}, \"logical_cpus\": {}}}}}",
        json_str(r.scene),
        r.boxes,
        r.pairs,
        r.threads,
        json_str(r.simd.name()),
        r.timing.runs,
        r.gap_ms,
        r.timing.min,
        r.timing.median,
        r.timing.max,
        per(r.boxes),
        per(r.pairs),
        json_str(&cpu_model()),
        json_str(std::env::consts::ARCH),
        std::thread::available_parallelism().map_or(0, |n| n.get()),
    )
}

fn run(args: Args) -> Result<(), String> {
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
    let summarised = matches!(args.output, Output::Summary | Output::Json);
    let gap_ms = args.gap_ms.unwrap_or(0.0);
    pool.install(|| {
        let mut broad = BroadPhase::new();
        let repeat = args.repeat.or(summarised.then_some(20));
        let timing = repeat
            .map(|r| time_runs(&mut broad, &boxes, r, gap_ms))
            .transpose()?;
        let mut pairs = broad
            .find_pairs(&boxes[..])
            .map_err(|e| e.to_string())?
            .to_vec();
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        let io = cli::output_error;
        let what = match (&args.scene, args.generate) {
            (Some(path), _) => path.clone(),
            (None, Some((shape, n, seed))) => format!("generated {}:{n}:{seed}", shape.name()),
            (None, None) => "embedded default scene: bullet hell (100k boxes, seed 1)".into(),
        };
        match args.output {
            Output::Summary => {
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
                if let Some(t) = timing {
                    writeln!(out, "{}", t.line()).map_err(io)?;
                }
            }
            Output::Json => {
                let timing = timing.expect("--json always times");
                let report = Report {
                    scene: &what,
                    boxes: boxes.len(),
                    pairs: pairs.len(),
                    threads: rayon::current_num_threads(),
                    simd: broad.config().simd,
                    gap_ms,
                    timing,
                };
                writeln!(out, "{}", json(&report)).map_err(io)?;
            }
            Output::Count => writeln!(out, "{}", pairs.len()).map_err(io)?,
            Output::Listing => write_listing(&mut pairs, &mut out).map_err(io)?,
        }
        out.flush().map_err(io)?;
        if let (Some(t), false) = (timing, summarised) {
            eprintln!("{}", t.line());
        }
        Ok(())
    })
}

fn main() -> ExitCode {
    cli::main(&help(), parse_args(cli::Args::from_env()), run)
}
