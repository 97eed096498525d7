//! `examples/platformer.rs` runs to the end, and its summary is the same on every run
//! (determinism) and shows every part at work: coins sensed and taken, jumps, ceilings
//! bumped, the platform ridden. `--help` prints the usage, and an argument it does not
//! know is one line and exit code 2.

use crate::example_cli;

/// The numbers of the output's last two lines, in order.
fn summary(text: &str) -> Vec<i64> {
    let lines: Vec<&str> = text.lines().collect();
    example_cli::numbers(&lines[lines.len().saturating_sub(2)..].join(" "))
}

#[test]
fn the_platformer_runs_and_every_part_works() {
    let first = example_cli::stdout_twice("platformer");
    // "C of N coins taken, J jumps, B ceiling bumps" / "R frames riding the platform"
    let n = summary(&first);
    assert_eq!(n.len(), 5, "{first}");
    let (coins, all, jumps, bumps, rides) = (n[0], n[1], n[2], n[3], n[4]);
    assert!(coins > 0 && coins <= all, "{first}");
    assert!(jumps > 0 && bumps > 0 && rides > 0, "{first}");
    // Every position line: the player stays inside the map's border, 30 × 11 tiles of
    // 16 units, and above its floor (the walls stop it).
    let positions: Vec<(f32, f32)> = first
        .lines()
        .filter_map(|l| l.split_once("at (")?.1.split_once(')'))
        .map(|(xy, _)| {
            let (x, y) = xy.split_once(',').unwrap();
            (x.trim().parse().unwrap(), y.trim().parse().unwrap())
        })
        .collect();
    assert_eq!(positions.len(), 6, "{first}");
    for (x, y) in positions {
        assert!(
            (16.0..=464.0).contains(&x) && (16.0..=148.0).contains(&y),
            "{first}"
        );
    }
}

#[test]
fn help_prints_the_usage_and_an_unknown_argument_is_refused() {
    let bin = example_cli::bin("platformer");
    example_cli::check_help_and_unknown_flag(&bin, "platformer", &["--help"]);
    example_cli::check_refused(&bin, &["600"], &["unknown argument '600'"]);
}
