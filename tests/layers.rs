//! The module layering of `src/` (ARCHITECTURE.md, "Modules and layers"), checked.
//!
//! Every `src/**/*.rs` file is read as text (comments, doc comments and string literals
//! blanked out: a doc link is not a dependency), and every path into the crate is taken
//! from it: `crate::x::...` in `use` items (braces expanded) and inline, and
//! `super::super::...` that climbs out of its top module. The test fails listing every
//! edge from one top module to another that is not allowed by [`LAYERS`] (a module may
//! use the leaves and the modules in lower layers only, never one beside it or above
//! it) or is ruled out by [`FORBIDDEN`], and every path below `lib.rs` that names an
//! item through one of `lib.rs`'s re-exports (`crate::Aabb`, not `crate::math::Aabb`):
//! such a path hides the module it really depends on (`check`, at the top, may).
//!
//! `lib.rs` itself is not checked (the root declares and re-exports every module), and
//! it defines no item of its own that a module could reach. One exemption:
//! `#[cfg(test)]` code may use `check` (the property checks and oracles shared with the
//! fuzz targets, such as `check::broad::pools`), which sits at the top; test code obeys
//! the layers otherwise.
//!
//! Run it alone with `cargo test --test suite layers::`; `LAYERS_SRC=path/to/src` checks another
//! tree (an older commit's, say) with the same rules.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The layers, bottom first: a module may use the modules of lower layers (and the
/// leaves), none beside it and none above.
const LAYERS: &[&[&str]] = &[
    &["lanes"],
    &["math"],
    &["store", "pair", "scene"],
    &["broad", "narrow", "tilemap"],
    &["frame", "query"],
    &["draw"],
    &["check"],
];

/// Modules every module may use. A leaf uses no other module of the crate, except the
/// leaves listed before it (`error` names a `BoxHandle` from `handle`).
const LEAVES: &[&str] = &["rng", "handle", "error", "pool"];

/// The top module (`check`: the property checks shared with the fuzz targets). Test
/// code may use it whatever its layer; and like the fuzz targets it may name the public
/// API by its root paths (`crate::Aabb`), since it may use every module anyway.
const TOP: &str = "check";

/// Edges the layers allow that the design rules out: the narrow phase's kernels are
/// pure functions over columns and slices of shapes, so `narrow` does not read the
/// store (the store hands its columns out as `math::columns` views).
const FORBIDDEN: &[(&str, &str)] = &[("narrow", "store")];

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Punct(char),
    /// `::`
    Path,
}

/// `src` with comments, string, char and byte literals replaced by spaces (newlines
/// kept), so that what is left is code.
fn strip(src: &str) -> String {
    let b: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let blank = |c: char| if c == '\n' { '\n' } else { ' ' };
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let next = b.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < b.len() && b[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == '/' && b.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if b[i] == '*' && b.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r')))
            && !prev_is_ident(&b, i)
            && raw_string_start(&b, i + usize::from(c == 'b') + 1).is_some()
        {
            let start = i + usize::from(c == 'b') + 1;
            let hashes = raw_string_start(&b, start).unwrap();
            // r, #..., "
            let mut j = start + hashes + 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == '"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&'#')) {
                    j += 1 + hashes;
                    break;
                }
                j += 1;
            }
            for &ch in &b[i..j.min(b.len())] {
                out.push(blank(ch));
            }
            i = j;
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < b.len() && b[i] != '"' {
                if b[i] == '\\' {
                    out.push(' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(' ');
            i += 1;
        } else if c == '\'' {
            // A char literal ('x', '\n', '\u{..}'), else a lifetime or a label.
            if next == Some('\\') {
                let mut j = i + 3;
                while j < b.len() && b[j] != '\'' {
                    j += 1;
                }
                for _ in i..=j.min(b.len() - 1) {
                    out.push(' ');
                }
                i = j + 1;
            } else if b.get(i + 2) == Some(&'\'') {
                out.push_str("   ");
                i += 3;
            } else {
                out.push(c);
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

fn prev_is_ident(b: &[char], i: usize) -> bool {
    i > 0 && (b[i - 1].is_alphanumeric() || b[i - 1] == '_')
}

/// The number of `#` of a raw string whose `#`s start at `i`, if one does.
fn raw_string_start(b: &[char], i: usize) -> Option<usize> {
    let mut h = 0;
    while b.get(i + h) == Some(&'#') {
        h += 1;
    }
    (b.get(i + h) == Some(&'"')).then_some(h)
}

fn tokens(code: &str) -> Vec<(Tok, usize)> {
    let b: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    while i < b.len() {
        let c = b[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let s = i;
            i += 1;
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
            out.push((Tok::Ident(b[s..i].iter().collect()), line));
        } else if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_alphanumeric() || b[i] == '_') {
                i += 1;
            }
        } else if c == ':' && b.get(i + 1) == Some(&':') {
            out.push((Tok::Path, line));
            i += 2;
        } else {
            out.push((Tok::Punct(c), line));
            i += 1;
        }
    }
    out
}

fn ident(t: Option<&(Tok, usize)>) -> Option<&str> {
    match t {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

/// Parses the path tree that starts at `toks[i]` (after a `crate::` or `super::`
/// prefix): `a::b::c`, `a::{b, c::{d, e as f}}`, `*`. Each leaf path's segments go to
/// `out`, with its alias (`as f`) if it has one; returns the index after the tree.
fn path_tree(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, Option<String>)>,
) -> usize {
    let mut path = prefix.to_vec();
    loop {
        match toks.get(i) {
            Some((Tok::Ident(s), _)) => {
                path.push(s.clone());
                i += 1;
                if toks.get(i).map(|t| &t.0) == Some(&Tok::Path) {
                    i += 1;
                    continue;
                }
                let mut alias = None;
                if ident(toks.get(i)) == Some("as") {
                    alias = ident(toks.get(i + 1)).map(str::to_string);
                    i += 2;
                }
                out.push((path, alias));
                return i;
            }
            Some((Tok::Punct('*'), _)) => {
                path.push("*".into());
                out.push((path, None));
                return i + 1;
            }
            Some((Tok::Punct('{'), _)) => {
                i += 1;
                loop {
                    match toks.get(i) {
                        Some((Tok::Punct('}'), _)) => return i + 1,
                        Some((Tok::Punct(','), _)) => i += 1,
                        None => return i,
                        _ => i = path_tree(toks, i, &path, out),
                    }
                }
            }
            _ => {
                if !path.is_empty() {
                    out.push((path, None));
                }
                return i;
            }
        }
    }
}

/// One path into the crate found in a file: its line, the module path it resolves to
/// from the crate root (`["narrow", "batch", "Pair"]`), and whether it is test code.
#[derive(Debug)]
struct Use {
    line: usize,
    path: Vec<String>,
    test: bool,
    text: String,
}

/// Child modules a file declares with `mod name;`: name -> whether under `#[cfg(test)]`.
type Children = BTreeMap<String, bool>;

/// Whether the attributes that end just before `toks[i]` include `#[cfg(test)]`.
fn cfg_test_before(toks: &[(Tok, usize)], mut i: usize) -> bool {
    // Skip visibility: `pub`, `pub(crate)`, `pub(super)`, `pub(in path)`.
    if i > 0 && toks[i - 1].0 == Tok::Punct(')') {
        let mut j = i - 1;
        while j > 0 && toks[j].0 != Tok::Punct('(') {
            j -= 1;
        }
        if j > 0 && ident(toks.get(j - 1)) == Some("pub") {
            i = j - 1;
        }
    } else if i > 0 && ident(toks.get(i - 1)) == Some("pub") {
        i -= 1;
    }
    while i > 0 && toks[i - 1].0 == Tok::Punct(']') {
        let mut j = i - 1;
        let mut depth = 0;
        loop {
            match toks[j].0 {
                Tok::Punct(']') => depth += 1,
                Tok::Punct('[') => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                _ => {}
            }
            if j == 0 {
                return false;
            }
            j -= 1;
        }
        let attr: Vec<&Tok> = toks[j + 1..i - 1].iter().map(|t| &t.0).collect();
        if attr
            == [
                &Tok::Ident("cfg".into()),
                &Tok::Punct('('),
                &Tok::Ident("test".into()),
                &Tok::Punct(')'),
            ]
        {
            return true;
        }
        // `#[` (or `#![`) before `[`.
        i = if j > 0 && toks[j - 1].0 == Tok::Punct('#') {
            j - 1
        } else {
            j
        };
    }
    false
}

/// Scans one file whose module path is `module` (`[]` for `lib.rs`), test code when
/// `test`: the crate paths it uses and the child modules it declares out of line.
fn scan(src: &str, module: &[String], test: bool) -> (Vec<Use>, Children) {
    let code = strip(src);
    let toks = tokens(&code);
    let mut uses = Vec::new();
    let mut children = Children::new();
    // Inline modules: (name, brace depth inside it, test).
    let mut scopes: Vec<(String, usize, bool)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < toks.len() {
        let (t, line) = &toks[i];
        let here_test = test || scopes.iter().any(|s| s.2);
        match t {
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                if scopes.last().is_some_and(|s| s.1 == depth) {
                    scopes.pop();
                }
                depth = depth.saturating_sub(1);
            }
            Tok::Ident(kw) if kw == "mod" => {
                if let Some(name) = ident(toks.get(i + 1)) {
                    let is_test = cfg_test_before(&toks, i);
                    match toks.get(i + 2).map(|t| &t.0) {
                        Some(Tok::Punct('{')) => {
                            scopes.push((name.to_string(), depth + 1, is_test));
                        }
                        Some(Tok::Punct(';')) => {
                            children.insert(name.to_string(), is_test || here_test);
                        }
                        _ => {}
                    }
                }
            }
            Tok::Ident(kw)
                if (kw == "crate" || kw == "super")
                    && toks.get(i + 1).map(|t| &t.0) == Some(&Tok::Path) =>
            {
                // Not the tail of a longer path (`a::super` does not occur; `$crate` is
                // an identifier of its own).
                let here: Vec<String> = module
                    .iter()
                    .cloned()
                    .chain(scopes.iter().map(|s| s.0.clone()))
                    .collect();
                let mut base: Vec<String> = if kw == "crate" {
                    Vec::new()
                } else {
                    here.clone()
                };
                let mut j = i;
                if kw == "super" {
                    while ident(toks.get(j)) == Some("super")
                        && toks.get(j + 1).map(|t| &t.0) == Some(&Tok::Path)
                    {
                        base.pop();
                        j += 2;
                    }
                } else {
                    j += 2;
                }
                let mut leaves = Vec::new();
                let end = path_tree(&toks, j, &base, &mut leaves);
                let text: String = toks[i..end]
                    .iter()
                    .map(|t| match &t.0 {
                        Tok::Ident(s) => s.clone(),
                        Tok::Punct(c) => c.to_string(),
                        Tok::Path => "::".into(),
                    })
                    .collect();
                for (path, _) in leaves {
                    uses.push(Use {
                        line: *line,
                        path,
                        test: here_test,
                        text: text.clone(),
                    });
                }
                i = end;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    (uses, children)
}

/// `lib.rs`'s top modules and its re-exports (name -> the top module it comes from).
fn crate_root(lib: &str) -> (BTreeSet<String>, BTreeMap<String, String>) {
    let toks = tokens(&strip(lib));
    let (mut modules, mut reexports) = (BTreeSet::new(), BTreeMap::new());
    for i in 0..toks.len() {
        if ident(toks.get(i)) == Some("mod")
            && toks.get(i + 2).map(|t| &t.0) == Some(&Tok::Punct(';'))
        {
            modules.insert(ident(toks.get(i + 1)).unwrap().to_string());
        }
        if ident(toks.get(i)) == Some("use")
            && ident(i.checked_sub(1).and_then(|k| toks.get(k))) == Some("pub")
        {
            let mut leaves = Vec::new();
            path_tree(&toks, i + 1, &[], &mut leaves);
            for (path, alias) in leaves {
                let name = alias.unwrap_or_else(|| path.last().unwrap().clone());
                reexports.insert(name, path[0].clone());
            }
        }
    }
    (modules, reexports)
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// A file's module path: `src/narrow/batch/mod.rs` -> `[narrow, batch]`.
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|s| s.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|l| l.contains(&module))
}

/// Every edge against the layers, one line each.
fn violations(src_dir: &Path) -> Vec<String> {
    let lib = std::fs::read_to_string(src_dir.join("lib.rs")).unwrap();
    let (modules, reexports) = crate_root(&lib);
    let mut bad = Vec::new();
    for m in &modules {
        if rank(m).is_none() && !LEAVES.contains(&m.as_str()) {
            bad.push(format!(
                "src/lib.rs: module `{m}` is in no layer (add it to LAYERS or LEAVES)"
            ));
        }
    }
    let mut files = Vec::new();
    rust_files(src_dir, &mut files);
    files.sort();
    // Which files are test code: children declared under `#[cfg(test)]`.
    let mut scanned: BTreeMap<Vec<String>, (PathBuf, Vec<Use>, Children)> = BTreeMap::new();
    for f in &files {
        let rel = f.strip_prefix(src_dir).unwrap();
        let module = module_of(rel);
        let (uses, children) = scan(&std::fs::read_to_string(f).unwrap(), &module, false);
        scanned.insert(module, (rel.to_path_buf(), uses, children));
    }
    let is_test = |module: &[String]| {
        (1..=module.len()).any(|k| {
            scanned
                .get(&module[..k - 1])
                .and_then(|(_, _, children)| children.get(&module[k - 1]))
                .copied()
                .unwrap_or(false)
        })
    };
    for (module, (rel, uses, _)) in &scanned {
        let Some(from) = module.first() else {
            continue; // lib.rs: the root re-exports everything
        };
        let file_test = is_test(module);
        for u in uses {
            let Some(first) = u.path.first() else {
                bad.push(format!(
                    "src/{}:{}: `{}` names the crate root",
                    rel.display(),
                    u.line,
                    u.text
                ));
                continue;
            };
            let to = if modules.contains(first) {
                first.clone()
            } else if let Some(m) = reexports.get(first) {
                if from == TOP {
                    continue; // the top may use anything: its root paths hide nothing
                }
                bad.push(format!(
                    "src/{}:{}: `{}` names `{first}` through the crate root's re-export \
                     (name it by its module: `crate::{m}::`...)",
                    rel.display(),
                    u.line,
                    u.text
                ));
                continue;
            } else {
                bad.push(format!(
                    "src/{}:{}: `{}` reaches `{first}`, an item of the crate root (move it into a module)",
                    rel.display(),
                    u.line,
                    u.text
                ));
                continue;
            };
            if &to == from {
                continue;
            }
            let test = u.test || file_test;
            let leaf = |m: &str| LEAVES.iter().position(|l| *l == m);
            let ok = if let Some(f) = leaf(from) {
                leaf(&to).is_some_and(|t| t < f)
            } else if LEAVES.contains(&to.as_str()) || (test && to == TOP) {
                true
            } else {
                match (rank(from), rank(&to)) {
                    (Some(a), Some(b)) => {
                        b < a && !FORBIDDEN.contains(&(from.as_str(), to.as_str()))
                    }
                    _ => false,
                }
            };
            if !ok {
                let how = match (LEAVES.contains(&from.as_str()), rank(from), rank(&to)) {
                    (true, ..) => "a leaf uses another module".to_string(),
                    _ if FORBIDDEN.contains(&(from.as_str(), to.as_str())) => {
                        "ruled out".to_string()
                    }
                    (_, Some(a), Some(b)) if a == b => "sideways".to_string(),
                    (_, Some(_), Some(_)) => "upward".to_string(),
                    _ => "module in no layer".to_string(),
                };
                bad.push(format!(
                    "src/{}:{}: {from} -> {to} ({how}{}): `{}`",
                    rel.display(),
                    u.line,
                    if test { ", test code" } else { "" },
                    u.text
                ));
            }
        }
    }
    bad
}

#[test]
fn modules_use_only_lower_layers() {
    let src = std::env::var_os("LAYERS_SRC").map_or_else(
        || Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        PathBuf::from,
    );
    let bad = violations(&src);
    let mut msg = String::new();
    for b in &bad {
        writeln!(msg, "  {b}").unwrap();
    }
    assert!(
        bad.is_empty(),
        "{} edges against the module layers (ARCHITECTURE.md, \"Modules and layers\"):\n{msg}",
        bad.len()
    );
}

#[test]
fn scanner_sees_every_form_of_path() {
    let src = r##"
        //! Docs name [`crate::frame::Frame`]: not an edge.
        use crate::{math::{Aabb, Circle as C}, error::Error};
        use super::super::narrow::Sweep;
        fn f() -> crate::lanes::SimdLevel { let _ = "crate::frame"; let _ = r#"crate::query"#; let _c = 'x'; todo!() }
        fn g<'a>(x: &'a u8) { let _ = crate::Pair::new(0, 1); }
        #[cfg(test)]
        mod tests {
            use crate::check::broad::pools;
            mod deeper { use super::super::super::super::tilemap; }
        }
        mod plain;
        #[cfg(test)]
        mod tests2;
    "##;
    let module = vec!["store".to_string(), "sub".to_string()];
    let (uses, children) = scan(src, &module, false);
    let got: Vec<(String, bool)> = uses.iter().map(|u| (u.path.join("::"), u.test)).collect();
    let want = [
        ("math::Aabb", false),
        ("math::Circle", false),
        ("error::Error", false),
        ("narrow::Sweep", false),
        ("lanes::SimdLevel", false),
        ("Pair::new", false),
        ("check::broad::pools", true),
        // store::sub::tests::deeper -> tests -> store::sub -> store -> the root.
        ("tilemap", true),
    ];
    let want: Vec<(String, bool)> = want.iter().map(|(p, t)| (p.to_string(), *t)).collect();
    assert_eq!(got, want);
    assert_eq!(children.get("plain"), Some(&false));
    assert_eq!(children.get("tests2"), Some(&true));

    let (modules, reexports) =
        crate_root("mod a;\npub mod b;\npub use a::{X, y::Z as W};\npub use b::V;\n");
    assert_eq!(modules.into_iter().collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(reexports.get("X").map(String::as_str), Some("a"));
    assert_eq!(reexports.get("W").map(String::as_str), Some("a"));
    assert_eq!(reexports.get("V").map(String::as_str), Some("b"));
}
