//! hantei's docs show its serde examples without running them (the core crate has no
//! postcard or serde_json). They run as this crate's doc tests: each must be here word
//! for word, so that what a user reads is what passes.

use std::path::Path;

/// The code of every fenced block that opens with `open` in the doc comments of
/// `text`, whose doc lines start with `prefix` (`///` or `//!`).
fn blocks(text: &str, prefix: &str, open: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut current: Option<String> = None;
    for line in text.lines() {
        let Some(doc) = line.trim_start().strip_prefix(prefix) else {
            continue;
        };
        let doc = doc.strip_prefix(' ').unwrap_or(doc);
        match current.as_mut() {
            None if doc == open => current = Some(String::new()),
            None => {}
            Some(code) if doc == "```" => {
                out.push(std::mem::take(code));
                current = None;
            }
            Some(code) => {
                code.push_str(doc);
                code.push('\n');
            }
        }
    }
    out
}

#[test]
fn every_serde_example_in_hantei_docs_runs_here() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ours = std::fs::read_to_string(root.join("src/lib.rs")).unwrap();
    let run_here = blocks(&ours, "///", "```");
    let mut seen = 0;
    let mut files = vec![root.join("../src")];
    while let Some(path) = files.pop() {
        if path.is_dir() {
            files.extend(std::fs::read_dir(&path).unwrap().map(|e| e.unwrap().path()));
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for example in blocks(&text, "///", "```ignore") {
            assert!(
                run_here.contains(&example),
                "{} shows an example that serde_tests/src/lib.rs does not run:\n{example}",
                path.display()
            );
            seen += 1;
        }
    }
    // Two examples for the store and two for the tile map: the scan found them all.
    assert_eq!(seen, 4);
    assert_eq!(run_here.len(), 4);
}
