//! `examples/game_loop.rs` runs to the end, and its summary is the same on every run
//! (determinism) and shows every part of the loop at work.

use std::path::PathBuf;
use std::process::Command;

fn game_loop_bin() -> PathBuf {
    let mut p = std::env::current_exe().unwrap();
    p.pop();
    if p.ends_with("deps") {
        p.pop();
    }
    p.push("examples");
    p.push(format!("game_loop{}", std::env::consts::EXE_SUFFIX));
    assert!(
        p.exists(),
        "{} not built (cargo test builds examples)",
        p.display()
    );
    p
}

/// The numbers of the summary, in order.
fn numbers(text: &str) -> Vec<i64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn the_game_loop_runs_and_every_part_works() {
    let run = || {
        let out = Command::new(game_loop_bin()).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let first = run();
    assert_eq!(first, run(), "the same loop gives the same summary");
    // "600 frames: B boxes live, C contacts, W wall hits" / "D bullets destroyed, R enemy
    // respawns, player hp H"
    let n = numbers(&first);
    assert_eq!(n.len(), 7, "{first}");
    let (boxes, contacts, walls, destroyed, respawns) = (n[1], n[2], n[3], n[4], n[5]);
    assert!(
        boxes > 61,
        "bullets live besides the player and enemies: {first}"
    );
    assert!(contacts > 0 && walls > 0 && respawns > 0, "{first}");
    assert!(
        destroyed >= walls,
        "every wall hit destroys its bullet: {first}"
    );
}
