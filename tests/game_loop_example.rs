//! `examples/game_loop.rs` runs to the end, and its summary is the same on every run
//! (determinism) and shows every part of the loop at work. `--help` prints the usage,
//! and an argument it does not know is one line and exit code 2.

use crate::example_cli;

use example_cli::numbers;

#[test]
fn the_game_loop_runs_and_every_part_works() {
    let first = example_cli::stdout_twice("game_loop");
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

#[test]
fn help_prints_the_usage_and_an_unknown_argument_is_refused() {
    let bin = example_cli::bin("game_loop");
    // It has no options but the help.
    example_cli::check_help_and_unknown_flag(&bin, "game_loop", &["--help"]);
    example_cli::check_refused(&bin, &["600"], &["unknown argument '600'"]);
    example_cli::check_refused(&bin, &["--frames", "10"], &["'--frames'"]);
}
