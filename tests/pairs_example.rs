//! The `pairs` example end to end: canonical listing, `--count`, `--repeat`, the
//! summary, `--json`, `--help`, progress, and a one-line error with exit code 2 for every
//! malformed input and every conflicting or repeated option.

use crate::example_cli;

use hantei::scene;
use hantei::{Aabb, broad::brute_force_pairs};
use std::path::PathBuf;
use std::process::Output;

fn run(args: &[&str]) -> Output {
    example_cli::run(&example_cli::bin("pairs"), args)
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
    assert!(err.contains(", of 3 runs)"), "{err}");
    let [min, median, max] = timing_line(err.trim_end());
    assert!(min <= median && median <= max, "{err}");
}

/// `[min, median, max]` from `median_ms: X (min Y, max Z, of R runs)`.
fn timing_line(line: &str) -> [f64; 3] {
    let rest = line.strip_prefix("median_ms: ").expect(line);
    let (median, rest) = rest.split_once(" (min ").expect(line);
    let (min, rest) = rest.split_once(", max ").expect(line);
    let (max, _) = rest.split_once(", of ").expect(line);
    [min, median, max].map(|x| x.parse().expect(line))
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
    let line = text
        .lines()
        .find(|l| l.starts_with("median_ms: "))
        .expect(&text);
    assert!(line.ends_with(", of 2 runs)"), "{text}");
    let [min, median, max] = timing_line(line);
    assert!(min <= median && median <= max, "{text}");
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
        &["--gen", "uniform:10", "--save"],
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{args:?}: {err}");
    }
}

#[test]
fn a_bad_value_is_named_with_its_flag() {
    let cases: [(&[&str], &[&str]); 8] = [
        (
            &["--threads", "x"],
            &["--threads", "'x'", "not a valid number"],
        ),
        (&["--threads", "5000"], &["--threads", "5000", "1024"]),
        (&["--repeat", "-2"], &["--repeat", "'-2'"]),
        (
            &["--gap-ms", "nan"],
            &["--gap-ms", "NaN", "between 0 and 10000"],
        ),
        (&["--gap-ms", "20000"], &["--gap-ms", "20000"]),
        (&["--gen", "uniform"], &["--gen", "'uniform'", "no N"]),
        (&["--gen", "uniform:abc"], &["--gen N", "'abc'"]),
        (&["--gen"], &["--gen needs a value"]),
    ];
    let bin = example_cli::bin("pairs");
    for (args, names) in cases {
        example_cli::check_refused(&bin, args, names);
    }
}

/// Every option of the example, as the help names it.
const OPTIONS: [&str; 10] = [
    "SCENE",
    "--gen",
    "--save",
    "--count",
    "--summary",
    "--json",
    "--repeat",
    "--gap-ms",
    "--threads",
    "--help",
];

#[test]
fn help_names_every_option_on_its_own_line() {
    for flag in ["--help", "-h"] {
        let out = run(&[flag]);
        assert_eq!(out.status.code(), Some(0), "{flag}");
        assert!(out.stderr.is_empty(), "{flag}");
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("usage: pairs "), "{text}");
        for option in OPTIONS {
            let lines: Vec<&str> = text
                .lines()
                .filter_map(|l| l.strip_prefix("  "))
                .filter(|l| {
                    let l = l.trim_start_matches("-h, ");
                    l.starts_with(option) && l.len() > option.len() + 10
                })
                .collect();
            assert_eq!(
                lines.len(),
                1,
                "{option}: one line with a description\n{text}"
            );
        }
        assert!(text.contains("-h, --help"), "{text}");
        assert!(
            text.contains("bullet_hell"),
            "the shapes are listed\n{text}"
        );
    }
    // The rules every example follows: the help wins over what follows it, not over
    // an error before it, and an unknown flag is one line naming it.
    example_cli::check_help_and_unknown_flag(&example_cli::bin("pairs"), "pairs", &OPTIONS);
}

#[test]
fn conflicting_and_repeated_options_are_refused() {
    let cases: [(&[&str], &str); 10] = [
        (
            &["--summary", "--count"],
            "--summary and --count cannot be used together",
        ),
        (
            &["--count", "--summary"],
            "--count and --summary cannot be used together",
        ),
        (
            &["--gen", "uniform:10", "--json", "--count"],
            "--json and --count cannot be used together",
        ),
        (
            &["--json", "--summary"],
            "--json and --summary cannot be used together",
        ),
        (
            &["a.aabb", "--gen", "uniform:10"],
            "give a SCENE or --gen, not both",
        ),
        (
            &["--threads", "1", "--threads", "2"],
            "--threads given twice",
        ),
        (&["--count", "--count"], "--count given twice"),
        (
            &["--gen", "uniform:10", "--gen", "uniform:20"],
            "--gen given twice",
        ),
        (
            &["--gen", "uniform:10", "--repeat", "2", "--repeat", "3"],
            "--repeat given twice",
        ),
        (
            &["--gen", "uniform:10", "--gap-ms", "5"],
            "--gap-ms needs timed runs",
        ),
    ];
    for (args, message) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with(&format!("error: {message}")),
            "{args:?}: {err}"
        );
    }
}

#[test]
fn json_is_one_object_with_the_timings_machine_and_simd_level() {
    let out = run(&[
        "--gen",
        "clusters:3000:2",
        "--json",
        "--repeat",
        "5",
        "--threads",
        "2",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 1, "{text}");
    let Json::Object(fields) = Json::parse(&text) else {
        panic!("not an object: {text}");
    };
    let get = |key: &str| {
        fields
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v)
            .unwrap_or_else(|| panic!("no {key}: {text}"))
    };
    let num = |key: &str| match get(key) {
        Json::Number(x) => *x,
        v => panic!("{key} is {v:?}"),
    };
    let string = |v: &Json| match v {
        Json::String(s) => s.clone(),
        v => panic!("{v:?} is not a string"),
    };
    let boxes = scene::generate::clusters(3000, 2);
    let pairs = brute_force_pairs(&boxes).unwrap().len();
    assert_eq!(num("boxes"), 3000.0);
    assert_eq!(num("pairs"), pairs as f64);
    assert_eq!(num("threads"), 2.0);
    assert_eq!(num("repeat"), 5.0);
    assert_eq!(num("gap_ms"), 0.0);
    let (min, median, max) = (num("min_ms"), num("median_ms"), num("max_ms"));
    assert!(0.0 < min && min <= median && median <= max, "{text}");
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-3 * b.max(1.0);
    assert!(close(num("ns_per_box"), median * 1e6 / 3000.0), "{text}");
    assert!(
        close(num("ns_per_pair"), median * 1e6 / pairs as f64),
        "{text}"
    );
    assert_eq!(string(get("scene")), "generated clusters:3000:2");
    let simd = string(get("simd"));
    assert!(
        hantei::SimdLevel::available()
            .iter()
            .any(|l| l.name() == simd),
        "{simd}"
    );
    let Json::Object(machine) = get("machine") else {
        panic!("machine is not an object: {text}");
    };
    let keys: Vec<&str> = machine.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(keys, ["cpu", "arch", "logical_cpus"]);
    assert_eq!(string(&machine[1].1), std::env::consts::ARCH);
    assert!(!string(&machine[0].1).is_empty());

    // No pairs: no time per pair.
    let out = run(&["--gen", "uniform:1", "--json", "--repeat", "1"]);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("\"ns_per_pair\": null"), "{text}");
    assert!(matches!(Json::parse(&text), Json::Object(_)));
}

#[test]
fn long_runs_report_progress_on_stderr() {
    // Five runs with 300 ms pauses: more than a second in all.
    let out = run(&[
        "--gen",
        "uniform:500:2",
        "--count",
        "--repeat",
        "5",
        "--gap-ms",
        "300",
    ]);
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert_eq!(
        stdout.lines().count(),
        1,
        "only the count on stdout: {stdout}"
    );
    let err = String::from_utf8(out.stderr).unwrap();
    let progress: Vec<&str> = err.lines().filter(|l| l.starts_with("run ")).collect();
    assert!(!progress.is_empty(), "{err}");
    assert!(progress.iter().all(|l| l.ends_with("/5")), "{err}");
    assert!(
        err.lines().last().unwrap().starts_with("median_ms: "),
        "{err}"
    );
}

/// Just enough JSON to check the example's output: a strict parser of one value.
#[derive(Debug, PartialEq)]
enum Json {
    Null,
    Bool(bool),
    Number(f64),
    String(String),
    Array(Vec<Json>),
    Object(Vec<(String, Json)>),
}

impl Json {
    /// Parses `text` (one value, then only white space).
    ///
    /// # Panics
    /// On anything that is not JSON.
    fn parse(text: &str) -> Json {
        let mut p = Parser(text.as_bytes(), 0);
        let v = p.value();
        p.ws();
        assert_eq!(p.1, text.len(), "trailing text in {text}");
        v
    }
}

struct Parser<'a>(&'a [u8], usize);

impl Parser<'_> {
    fn ws(&mut self) {
        while self.1 < self.0.len() && b" \t\r\n".contains(&self.0[self.1]) {
            self.1 += 1;
        }
    }
    fn peek(&mut self) -> u8 {
        self.ws();
        *self.0.get(self.1).expect("unexpected end of JSON")
    }
    fn eat(&mut self, b: u8) {
        assert_eq!(self.peek() as char, b as char, "at byte {}", self.1);
        self.1 += 1;
    }
    fn word(&mut self, w: &str) {
        assert!(
            self.0[self.1..].starts_with(w.as_bytes()),
            "at byte {}",
            self.1
        );
        self.1 += w.len();
    }
    fn value(&mut self) -> Json {
        match self.peek() {
            b'{' => {
                self.eat(b'{');
                let mut fields = Vec::new();
                if self.peek() != b'}' {
                    loop {
                        let Json::String(k) = self.value() else {
                            panic!("a key must be a string");
                        };
                        self.eat(b':');
                        fields.push((k, self.value()));
                        if self.peek() == b'}' {
                            break;
                        }
                        self.eat(b',');
                    }
                }
                self.eat(b'}');
                Json::Object(fields)
            }
            b'[' => {
                self.eat(b'[');
                let mut items = Vec::new();
                if self.peek() != b']' {
                    loop {
                        items.push(self.value());
                        if self.peek() == b']' {
                            break;
                        }
                        self.eat(b',');
                    }
                }
                self.eat(b']');
                Json::Array(items)
            }
            b'"' => {
                self.1 += 1;
                let mut s = String::new();
                loop {
                    let c = self.0[self.1];
                    self.1 += 1;
                    match c {
                        b'"' => break,
                        b'\\' => {
                            let e = self.0[self.1];
                            self.1 += 1;
                            s.push(match e {
                                b'"' => '"',
                                b'\\' => '\\',
                                b'/' => '/',
                                b'n' => '\n',
                                b't' => '\t',
                                b'r' => '\r',
                                b'b' => '\u{8}',
                                b'f' => '\u{c}',
                                b'u' => {
                                    let hex = std::str::from_utf8(&self.0[self.1..self.1 + 4]);
                                    self.1 += 4;
                                    char::from_u32(u32::from_str_radix(hex.unwrap(), 16).unwrap())
                                        .expect("a scalar value")
                                }
                                e => panic!("bad escape \\{}", e as char),
                            });
                        }
                        c if c < 0x20 => panic!("control character in a string"),
                        _ => {
                            // Copy the whole UTF-8 sequence this byte starts.
                            let start = self.1 - 1;
                            let len = match c {
                                0xf0.. => 4,
                                0xe0.. => 3,
                                0xc0.. => 2,
                                _ => 1,
                            };
                            self.1 = start + len;
                            s.push_str(std::str::from_utf8(&self.0[start..self.1]).unwrap());
                        }
                    }
                }
                Json::String(s)
            }
            b't' => {
                self.word("true");
                Json::Bool(true)
            }
            b'f' => {
                self.word("false");
                Json::Bool(false)
            }
            b'n' => {
                self.word("null");
                Json::Null
            }
            _ => {
                // -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
                let start = self.1;
                let digits = |p: &mut Self| {
                    let from = p.1;
                    while p.1 < p.0.len() && p.0[p.1].is_ascii_digit() {
                        p.1 += 1;
                    }
                    assert!(p.1 > from, "digits expected at byte {from}");
                };
                if self.0[self.1] == b'-' {
                    self.1 += 1;
                }
                let lead = self.1;
                digits(self);
                assert!(self.0[lead] != b'0' || self.1 == lead + 1, "leading zero");
                if self.0.get(self.1) == Some(&b'.') {
                    self.1 += 1;
                    digits(self);
                }
                if matches!(self.0.get(self.1), Some(b'e' | b'E')) {
                    self.1 += 1;
                    if matches!(self.0.get(self.1), Some(b'+' | b'-')) {
                        self.1 += 1;
                    }
                    digits(self);
                }
                let text = std::str::from_utf8(&self.0[start..self.1]).unwrap();
                Json::Number(text.parse().unwrap())
            }
        }
    }
}

#[test]
fn the_json_checker_is_strict() {
    assert_eq!(
        Json::parse(r#" {"a": [1, -2.5e3, true, null], "b": "x\"\u00e9"} "#),
        Json::Object(vec![
            (
                "a".into(),
                Json::Array(vec![
                    Json::Number(1.0),
                    Json::Number(-2500.0),
                    Json::Bool(true),
                    Json::Null
                ])
            ),
            ("b".into(), Json::String("x\"é".into())),
        ])
    );
    for bad in [
        "{\"a\": 1,}",
        "{\"a\" 1}",
        "[01]",
        "{\"a\": NaN}",
        "{} x",
        "\"\u{1}\"",
    ] {
        assert!(
            std::panic::catch_unwind(|| Json::parse(bad)).is_err(),
            "{bad} was accepted"
        );
    }
}
