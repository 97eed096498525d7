//! What the example tests share: finding an example's binary, and checking the
//! command-line rules that every example follows (`examples/cli/mod.rs`).

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary of the example `name`, which `cargo test` built next to the tests.
pub fn bin(name: &str) -> PathBuf {
    let mut p = std::env::current_exe().unwrap();
    p.pop(); // deps
    if p.ends_with("deps") {
        p.pop();
    }
    p.push("examples");
    p.push(format!("{name}{}", std::env::consts::EXE_SUFFIX));
    assert!(
        p.exists(),
        "{} not built (cargo test builds examples)",
        p.display()
    );
    p
}

/// Runs `bin` with `args`.
pub fn run(bin: &Path, args: &[&str]) -> Output {
    Command::new(bin).args(args).output().unwrap()
}

/// The standard output of the example `name` run with no arguments, after checking that
/// it succeeded. Runs it twice: a deterministic example prints the same both times.
pub fn stdout_twice(name: &str) -> String {
    let once = || {
        let out = run(&bin(name), &[]);
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let first = once();
    assert_eq!(first, once(), "{name}: the same run gives the same output");
    first
}

/// The numbers in `text`, in order (a `-` before digits makes them negative).
pub fn numbers(text: &str) -> Vec<i64> {
    text.split(|c: char| !(c.is_ascii_digit() || c == '-'))
        .filter_map(|w| w.parse().ok())
        .collect()
}

/// Checks the rules for the help and for an unknown flag.
///
/// `--help` and `-h` print the usage on stdout, nothing on stderr, and exit with 0.
/// The usage names each of `options` at the start of a line, with a description.
/// The help wins over what follows it, not over an error before it. `--bogus` prints
/// one line on stderr that names it, nothing on stdout, and exits with 2.
pub fn check_help_and_unknown_flag(bin: &Path, name: &str, options: &[&str]) {
    for flag in ["--help", "-h"] {
        let out = run(bin, &[flag]);
        assert_eq!(out.status.code(), Some(0), "{name} {flag}");
        assert!(
            out.stderr.is_empty(),
            "{name} {flag}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains(&format!("usage: {name} ")), "{text}");
        for option in options {
            let described = text.lines().filter_map(|l| l.strip_prefix("  ")).any(|l| {
                let l = l.trim_start_matches("-h, ");
                l.starts_with(option) && l.len() > option.len() + 10
            });
            assert!(described, "{name}: {option} has a line of its own\n{text}");
        }
        assert!(text.contains("exits with 2"), "{text}");
    }
    assert_eq!(run(bin, &["--help", "--bogus"]).status.code(), Some(0));
    for args in [&["--bogus"][..], &["--bogus", "--help"]] {
        let out = run(bin, args);
        assert_eq!(out.status.code(), Some(2), "{name} {args:?}");
        assert!(out.stdout.is_empty(), "{name} {args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(
            err, "error: unknown argument '--bogus' (see --help)\n",
            "{name} {args:?}"
        );
    }
}

/// Checks that `args` are refused: exit code 2, nothing on stdout, and one line on
/// stderr that starts with `error: ` and contains each of `names`.
pub fn check_refused(bin: &Path, args: &[&str], names: &[&str]) {
    let out = run(bin, args);
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    for n in names {
        assert!(err.contains(n), "{args:?}: '{n}' is named in {err}");
    }
}
