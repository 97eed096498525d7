//! The `pairs` example end to end: canonical listing, `--count`, `--repeat`, the
//! summary, and a one-line error with exit code 2 for every malformed input.

use hantei::scene;
use hantei::{Aabb, broad::brute_force_pairs};
use std::path::PathBuf;
use std::process::{Command, Output};

/// The example binary `cargo test` built next to this test.
fn pairs_bin() -> PathBuf {
    let mut p = std::env::current_exe().unwrap();
    p.pop(); // deps
    if p.ends_with("deps") {
        p.pop();
    }
    p.push("examples");
    p.push(format!("pairs{}", std::env::consts::EXE_SUFFIX));
    assert!(
        p.exists(),
        "{} not built (cargo test builds examples)",
        p.display()
    );
    p
}

fn run(args: &[&str]) -> Output {
    Command::new(pairs_bin()).args(args).output().unwrap()
}

fn tmp(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("hantei-pairs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn listing_is_canonical_and_matches_brute_force() {
    let boxes = scene::generate::clusters(3000, 5);
    let path = tmp("clusters.aabb");
    scene::save(&path, &boxes).unwrap();
    let out = run(&[path.to_str().unwrap(), "--threads", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want: String = brute_force_pairs(&boxes)
        .unwrap()
        .iter()
        .map(|p| format!("{} {}\n", p.a, p.b))
        .collect();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), want);

    let out = run(&[
        path.to_str().unwrap(),
        "--count",
        "--repeat",
        "3",
        "--threads",
        "1",
    ]);
    assert!(out.status.success());
    let n = brute_force_pairs(&boxes).unwrap().len();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{n}\n"));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.starts_with("median_ms: "), "{err}");
}

#[test]
fn touching_boxes_and_empty_scenes() {
    let path = tmp("touch.aabb");
    let boxes = [
        Aabb::from_coords(0.0, 0.0, 1.0, 1.0),
        Aabb::from_coords(1.0, 1.0, 2.0, 2.0),
        Aabb::from_coords(3.0, 3.0, 3.0, 3.0),
    ];
    scene::save(&path, &boxes).unwrap();
    let out = run(&[path.to_str().unwrap()]);
    assert_eq!(String::from_utf8(out.stdout).unwrap(), "0 1\n");
    scene::save(&path, &[]).unwrap();
    let out = run(&[path.to_str().unwrap()]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
}

#[test]
fn generated_scenes_and_summary() {
    let out = run(&["--gen", "uniform:2000:3", "--summary", "--repeat", "2"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let want = brute_force_pairs(&scene::generate::uniform(2000, 3))
        .unwrap()
        .len();
    assert!(text.contains(&format!("pairs: {want}\n")), "{text}");
    assert!(text.contains("median_ms: "), "{text}");
}

#[test]
fn gap_pauses_before_each_timed_run() {
    let t = std::time::Instant::now();
    let out = run(&[
        "--gen",
        "uniform:500:2",
        "--count",
        "--repeat",
        "3",
        "--gap-ms",
        "40",
    ]);
    let elapsed = t.elapsed();
    assert!(out.status.success());
    let want = brute_force_pairs(&scene::generate::uniform(500, 2))
        .unwrap()
        .len();
    assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{want}\n"));
    assert!(
        elapsed >= std::time::Duration::from_millis(120),
        "three runs with 40 ms gaps took {elapsed:?}"
    );
}

#[test]
fn malformed_input_is_one_line_and_exit_2() {
    let good = scene::encode(&scene::generate::uniform(10, 1)).unwrap();
    let mut nan = good.clone();
    nan[16 + 16 * 4..16 + 16 * 4 + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    let mut inverted = good.clone();
    inverted[16 + 16 * 2..16 + 16 * 2 + 4].copy_from_slice(&1e9f32.to_le_bytes());
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("magic.aabb", b"NOTASCENE_______".to_vec(), "bad magic"),
        ("short.aabb", good[..20].to_vec(), "size mismatch"),
        ("nan.aabb", nan, "record 4"),
        ("inverted.aabb", inverted, "record 2: min_x > max_x"),
        ("header.aabb", b"AABB2D".to_vec(), "truncated header"),
    ];
    for (name, bytes, needle) in cases {
        let path = tmp(name);
        std::fs::write(&path, bytes).unwrap();
        let out = run(&[path.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{name}: {err}");
        assert!(err.contains(needle), "{name}: {err}");
        assert!(out.stdout.is_empty(), "{name}");
    }
    for args in [
        &["--threads", "0"][..],
        &["--threads", "x"],
        &["--repeat", "0"],
        &["--gap-ms", "-1"],
        &["--gap-ms", "nan"],
        &["--gen", "spiral:10"],
        &["--gen", "uniform:abc"],
        &["--bogus"],
        &["a.aabb", "b.aabb"],
        &["/nonexistent/scene.aabb"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}
