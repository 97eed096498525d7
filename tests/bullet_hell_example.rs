//! `examples/bullet_hell.rs` end to end: it runs, its summary is the same on every run
//! apart from the timing lines (determinism, on one thread too), the parts of each of
//! its counts add up to the count, it draws the last frame's shapes, contacts and a
//! legend (the enemy bullets at the bottom, the player and the contacts on top),
//! `--help` prints the usage, and a bad argument is one line and exit code 2.

use crate::example_cli;

use std::path::PathBuf;
use std::process::Output;

fn run(args: &[&str]) -> Output {
    example_cli::run(&example_cli::bin("bullet_hell"), args)
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
    check_counts_add_up(out);
    // The progress line of the last frame says which figures are that frame's and
    // which are means.
    let progress = out
        .lines()
        .find(|l| l.starts_with("frame    30:"))
        .unwrap_or_else(|| panic!("no progress line for frame 30\n{out}"));
    assert!(progress.contains("wall hits (this frame);"), "{progress}");
    assert!(
        progress.contains("a frame (mean of frames 1-30)"),
        "{progress}"
    );

    let svg = std::fs::read_to_string(&svgs[0]).unwrap();
    for other in &svgs[1..] {
        assert_eq!(svg, std::fs::read_to_string(other).unwrap());
    }
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"));
    assert!(svg.contains("<circle"), "round bullets and player");
    assert!(
        svg.contains(r##"<g fill="#ff9933" fill-opacity="0.8"><polygon points=""##),
        "lasers as turning capsules: their bodies"
    );
    assert!(
        svg.contains(r##"fill="none" stroke="#ffcc00""##),
        "enemy hulls"
    );
    assert!(svg.contains("<rect"), "tiles and enemy bodies");
    // Drawn bottom first through hantei::draw (examples/svg): the faint enemy bullets,
    // then the player's bullets, the ring around the player, this frame's contacts (if
    // any), and the legend last.
    let at = |needle: &str| {
        svg.find(needle)
            .unwrap_or_else(|| panic!("the picture has no {needle}"))
    };
    let enemy_bullets = at(r##"<g fill="#ff66cc" fill-opacity="0.45"><circle"##);
    let player_bullets = at(r##"<g fill="#66ffff"><circle"##);
    let ring = at(r##"<g fill="none" stroke="#33ff66""##);
    let legend = at("id=\"legend\"");
    assert!(
        enemy_bullets < player_bullets,
        "enemy bullets below the player's"
    );
    assert!(
        player_bullets < ring && ring < legend,
        "the player's ring above them"
    );
    if let Some(contacts) = svg.find(r##"stroke="#ff2020""##) {
        assert!(ring < contacts && contacts < legend, "contacts on top");
    }
    for text in [
        "id=\"legend\"",
        "enemy bullet (disc)",
        "laser (turning capsule)",
        "player hitbox",
        "contact this frame",
        "wall hit this frame",
    ] {
        assert!(svg.contains(text), "the legend names '{text}'");
    }
}

/// The counts of a summary line `label: total = n part + n part (comment)`.
fn total_and_parts(out: &str, label: &str) -> (u64, Vec<(u64, String)>) {
    let line = out
        .lines()
        .find_map(|l| l.trim_start().strip_prefix(label))
        .unwrap_or_else(|| panic!("no '{label}' line\n{out}"));
    let sum = line.split(" (").next().unwrap().trim();
    let (total, parts) = sum
        .split_once(" = ")
        .unwrap_or_else(|| panic!("'{label}' is not 'total = parts': {line}"));
    let parts = parts
        .split(" + ")
        .map(|p| {
            let (n, name) = p.split_once(' ').expect(line);
            (n.parse().expect(line), name.to_owned())
        })
        .collect();
    (total.parse().expect(line), parts)
}

/// The part named `name`.
fn part(parts: &[(u64, String)], name: &str) -> u64 {
    parts
        .iter()
        .find(|p| p.1 == name)
        .unwrap_or_else(|| panic!("no part '{name}' in {parts:?}"))
        .0
}

/// Each count of the summary is the sum of its parts, and the counts agree.
fn check_counts_add_up(out: &str) {
    let labels = [
        "body contacts:",
        "by pair:",
        "new ones by pair:",
        "wall hits:",
        "destroyed bullets:",
    ];
    let [contacts, by_pair, new_by_pair, walls, destroyed] =
        labels.map(|label| total_and_parts(out, label));
    for (label, (total, parts)) in
        labels
            .iter()
            .zip([&contacts, &by_pair, &new_by_pair, &walls, &destroyed])
    {
        let sum: u64 = parts.iter().map(|p| p.0).sum();
        assert_eq!(sum, *total, "the parts of '{label}' add up\n{out}");
    }
    // Two splits of the same contacts: new or continuing, and by pair.
    assert_eq!(by_pair.0, contacts.0, "{out}");
    assert_eq!(new_by_pair.0, part(&contacts.1, "new"), "{out}");
    // This run has a laser staying on the player for some frames: contacts that
    // continue, which are not new. The old summary added new ones only, and its parts
    // fell short of its total.
    assert!(part(&contacts.1, "continuing") > 0, "{out}");
    assert!(part(&by_pair.1, "enemy & player bullet") > 0, "{out}");
    for name in [
        "player & enemy bullet",
        "player & laser",
        "player & enemy",
        "enemy & player bullet",
    ] {
        assert!(
            part(&new_by_pair.1, name) <= part(&by_pair.1, name),
            "new {name} contacts are some of them\n{out}"
        );
    }
    // Every bullet is destroyed at its first contact, and a wall hit after it is not
    // reported: each bullet's wall hit is where it was destroyed.
    assert_eq!(
        part(&walls.1, "by bullets"),
        part(&destroyed.1, "at a wall"),
        "{out}"
    );
    // A bullet destroyed at a body made a contact (two bodies at once make two).
    let bullet_contacts =
        part(&by_pair.1, "player & enemy bullet") + part(&by_pair.1, "enemy & player bullet");
    assert!(part(&destroyed.1, "at a body") <= bullet_contacts, "{out}");
    assert!(part(&destroyed.1, "at a body") > 0, "{out}");
}

#[test]
fn help_prints_the_usage_and_an_unknown_flag_is_refused() {
    example_cli::check_help_and_unknown_flag(
        &example_cli::bin("bullet_hell"),
        "bullet_hell",
        &[
            "--bullets",
            "--frames",
            "--threads",
            "--seed",
            "--enemies",
            "--svg",
            "--help",
        ],
    );
}

#[test]
fn a_bad_argument_is_one_line_naming_it_and_exit_code_2() {
    let cases: [(&[&str], &[&str]); 13] = [
        (
            &["--frames", "ten"],
            &["--frames", "'ten'", "not a valid number"],
        ),
        (&["--frames", "-1"], &["--frames", "'-1'"]),
        (
            &["--seed", "99999999999999999999"],
            &["--seed", "too large"],
        ),
        (&["--bullets"], &["--bullets needs a value"]),
        (&["--svg"], &["--svg needs a value"]),
        (&["--svg", ""], &["--svg", "empty"]),
        (&["--frames", "0"], &["--frames must be at least 1"]),
        (&["--threads", "0"], &["--threads must be at least 1"]),
        (&["--threads", "5000"], &["--threads", "5000", "1024"]),
        (&["--bullets", "20000000"], &["--bullets", "20000000"]),
        (&["--enemies", "10001"], &["--enemies", "10001"]),
        (&["--seed", "1", "--seed", "2"], &["--seed given twice"]),
        (&["extra"], &["unknown argument 'extra'"]),
    ];
    let bin = example_cli::bin("bullet_hell");
    for (args, names) in cases {
        example_cli::check_refused(&bin, args, names);
    }
}

#[cfg(unix)]
#[test]
fn an_argument_that_is_not_utf8_is_refused_without_a_panic() {
    use std::os::unix::ffi::OsStrExt;
    let arg = std::ffi::OsStr::from_bytes(b"--svg\xff");
    let out = std::process::Command::new(example_cli::bin("bullet_hell"))
        .arg(arg)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("error: ") && err.contains("not valid UTF-8"),
        "{err}"
    );
}
