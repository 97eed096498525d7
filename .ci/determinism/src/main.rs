//! `hantei-determinism`: writes [`hantei_determinism::report`] to a file (see the
//! library's docs for what it holds and `.ci/wasm` for how the check runs).
//!
//! ```text
//! hantei-determinism OUT [--simd LEVEL] [--threads N]
//! hantei-determinism --levels
//! ```
//!
//! The file is written in one piece, to a file rather than a pipe (Node's WASI may drop
//! writes to a full pipe).

use hantei::SimdLevel;
use hantei_determinism::report;
use std::io::Write as _;
use std::process::ExitCode;

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

fn usage() -> &'static str {
    "usage: hantei-determinism OUT [--simd LEVEL] [--threads N] | --levels"
}

fn run() -> Result<(), String> {
    let mut out = None;
    let mut simd = None;
    let mut threads = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--levels" => {
                let names: Vec<&str> = SimdLevel::available().iter().map(|l| l.name()).collect();
                println!("{}", names.join(" "));
                return Ok(());
            }
            "--simd" => {
                let name = args.next().ok_or("--simd needs a level")?;
                let level = SimdLevel::available()
                    .iter()
                    .copied()
                    .find(|l| l.name() == name)
                    .ok_or_else(|| format!("--simd: '{name}' is not available here"))?;
                simd = Some(level);
            }
            "--threads" => {
                let n = args.next().ok_or("--threads needs a count")?;
                let n: usize = n
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--threads: '{n}' is not a positive count"))?;
                threads = Some(n);
            }
            s if s.starts_with('-') => return Err(format!("unknown option '{s}' ({})", usage())),
            s => {
                if out.replace(s.to_owned()).is_some() {
                    return Err(format!("more than one output file ({})", usage()));
                }
            }
        }
    }
    let out = out.ok_or(usage())?;
    let level = simd.unwrap_or_else(SimdLevel::best);
    let text = match threads {
        // A pool of its own only when asked: wasm has no threads, and rayon's global
        // pool then runs on the calling thread.
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| format!("cannot start {n} threads: {e}"))?
            .install(|| report(level)),
        None => report(level),
    }?;
    let mut file = std::fs::File::create(&out).map_err(|e| format!("{out}: {e}"))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| format!("{out}: {e}"))?;
    Ok(())
}
