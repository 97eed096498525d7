//! `examples/bullet_hell.rs` end to end: it runs, its summary is the same on every run
//! apart from the timing lines (determinism, on one thread too), it draws the last
//! frame's shapes, contacts and a legend, and a bad argument is one line and exit code 2.

use std::path::PathBuf;
use std::process::{Command, Output};

/// The example binary `cargo test` built next to this test.
fn bullet_hell_bin() -> PathBuf {
    let mut p = std::env::current_exe().unwrap();
    p.pop(); // deps
    if p.ends_with("deps") {
        p.pop();
    }
    p.push("examples");
    p.push(format!("bullet_hell{}", std::env::consts::EXE_SUFFIX));
    assert!(
        p.exists(),
        "{} not built (cargo test builds examples)",
        p.display()
    );
    p
}

fn run(args: &[&str]) -> Output {
    Command::new(bullet_hell_bin()).args(args).output().unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hantei-bullet-hell-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

/// The output without its timing lines (those with "ms") and the picture's path.
fn without_timings(out: &str) -> String {
    out.lines()
        .filter(|l| !l.contains("ms") && !l.contains("picture of the last frame"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first number after `label` on the line that starts with it.
fn number_after(out: &str, label: &str) -> u64 {
    let line = out
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(label))
        .unwrap_or_else(|| panic!("no '{label}' line\n{out}"));
    line.split(|c: char| !c.is_ascii_digit())
        .find_map(|w| w.parse().ok())
        .unwrap_or_else(|| panic!("no number after '{label}'\n{out}"))
}

#[test]
fn runs_deterministically_and_draws_the_last_frame() {
    let svgs = [tmp("a.svg"), tmp("b.svg"), tmp("c.svg")];
    // Twice as they come, then on one thread.
    let threads = [None, None, Some("1")];
    let outs = [0, 1, 2].map(|k| {
        let mut args = vec!["--frames", "30", "--bullets", "3000"];
        args.extend(["--svg", svgs[k].to_str().unwrap()]);
        args.extend(threads[k].map(|t| ["--threads", t]).into_iter().flatten());
        let out = run(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    });
    assert_eq!(
        without_timings(&outs[0]),
        without_timings(&outs[1]),
        "the same arguments give the same summary"
    );
    let no_header = |out: &str| {
        without_timings(out)
            .lines()
            .skip(1)
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        no_header(&outs[0]),
        no_header(&outs[2]),
        "any thread count gives the same summary"
    );
    let out = &outs[0];
    assert!(out.contains("summary"), "{out}");
    assert!(out.contains("cap 3000"), "{out}");
    assert!(out.contains("p99"), "{out}");
    assert!(number_after(out, "frames:") == 30, "{out}");
    let live = number_after(out, "live bullets:");
    assert!(live > 0 && live <= 3000, "the cap holds: {out}");
    assert!(number_after(out, "destroyed bullets:") > 0, "{out}");
    assert!(number_after(out, "wall hits:") > 0, "{out}");
    assert!(out.contains("advance total:"), "{out}");

    let svg = std::fs::read_to_string(&svgs[0]).unwrap();
    for other in &svgs[1..] {
        assert_eq!(svg, std::fs::read_to_string(other).unwrap());
    }
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("<circle"), "round bullets and player");
    assert!(
        svg.contains(r##"<g fill="#ff9933" fill-opacity="0.8"><polygon points=""##),
        "lasers as rotated rectangles"
    );
    assert!(
        svg.contains(r##"fill="none" stroke="#ffcc00""##),
        "enemy hulls"
    );
    assert!(svg.contains("<rect"), "tiles and enemy bodies");
    for text in [
        "id=\"legend\"",
        "enemy bullet (disc)",
        "laser (rotated rectangle)",
        "player hitbox",
        "contact this frame",
        "wall hit this frame",
    ] {
        assert!(svg.contains(text), "the legend names '{text}'");
    }
}

#[test]
fn a_bad_argument_is_one_line_and_exit_code_2() {
    for args in [
        &["--frames", "ten"][..],
        &["--bogus"],
        &["--bullets"],
        &["--frames", "0"],
        &["--threads", "0"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
    let err = String::from_utf8(run(&["--frames", "ten"]).stderr).unwrap();
    assert!(err.contains("--frames") && err.contains("ten"), "{err}");
}
