//! The house plan holds: a module of the library imports only from modules below it
//! in the layer order documented in `src/lib.rs` (read from there, so the document
//! and the check cannot drift apart). Test code (`#[cfg(test)] mod …`, `tests.rs`
//! files) may reach anywhere.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Imports that still climb, each with what removes it. Shrinks to nothing; a climb
/// not listed here fails the test, and so does a listed one that no longer exists.
const KNOWN_CLIMBS: &[(&str, &str, &str)] = &[];

/// The layer order: the `//! 1. name, name` lines of the "Layers" section of
/// `src/lib.rs`, lowest first; modules on one line share a layer.
fn layers(lib: &str) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    let mut in_section = false;
    for line in lib.lines() {
        let Some(doc) = line.strip_prefix("//!") else {
            continue;
        };
        let doc = doc.trim();
        if doc.starts_with("# ") {
            in_section = doc == "# Layers";
            continue;
        }
        if !in_section {
            continue;
        }
        let Some((number, rest)) = doc.split_once(". ") else {
            continue;
        };
        let Ok(rank) = number.parse::<usize>() else {
            continue;
        };
        let names = rest.split(':').next().unwrap_or("");
        for name in names.split(',') {
            let name = name.trim().trim_matches('`');
            if !name.is_empty() {
                out.insert(name.to_string(), rank);
            }
        }
    }
    out
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code of a file without its test modules and comments.
fn production_code(text: &str) -> String {
    let mut out = String::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") && lines.peek().is_some_and(|n| n.contains("mod ")) {
            // The rest of a file after its test module is test code too, in this
            // code base (test modules come last).
            break;
        }
        if t.starts_with("//") {
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Top-level modules named in `crate::name` paths and `use crate::{name, …}` lists.
fn imported(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(i) = rest.find("crate::") {
        rest = &rest[i + "crate::".len()..];
        if let Some(list) = rest.strip_prefix('{') {
            let end = list.find("};").unwrap_or(list.len());
            let mut depth = 0usize;
            let mut item = String::new();
            for c in list[..end].chars() {
                match c {
                    '{' => depth += 1,
                    '}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
                if depth == 0 && c == ',' {
                    out.push(item.clone());
                    item.clear();
                } else if depth == 0 {
                    item.push(c);
                }
            }
            out.push(item);
        } else {
            out.push(rest.to_string());
        }
    }
    out.into_iter()
        .map(|s| {
            s.trim()
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                .collect::<String>()
        })
        .filter(|s| !s.is_empty() && s != "self")
        .collect()
}

#[test]
fn modules_import_only_from_layers_below() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(root.join("lib.rs")).expect("src/lib.rs");
    let rank = layers(&lib);
    assert!(
        rank.len() >= 10,
        "the Layers section of src/lib.rs lists the modules: {rank:?}"
    );
    // Every library module has a layer.
    for line in lib.lines() {
        if let Some(m) = line.strip_prefix("pub mod ") {
            let m = m.trim_end_matches(';');
            assert!(
                rank.contains_key(m),
                "module {m} has no layer in src/lib.rs"
            );
        }
    }
    // `pub use config::Config;` in lib.rs: Config → config.
    let reexports: BTreeMap<String, String> = lib
        .lines()
        .filter_map(|l| l.strip_prefix("pub use "))
        .filter_map(|l| {
            let (module, item) = l.trim_end_matches(';').rsplit_once("::")?;
            let module = module.split("::").next()?;
            Some((item.to_string(), module.to_string()))
        })
        .collect();
    let mut files = Vec::new();
    rust_files(&root, &mut files);
    let mut climbs: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for file in files {
        let rel = file.strip_prefix(&root).expect("under src");
        let top = rel
            .components()
            .next()
            .map(|c| {
                c.as_os_str()
                    .to_string_lossy()
                    .trim_end_matches(".rs")
                    .to_string()
            })
            .unwrap_or_default();
        let Some(&mine) = rank.get(&top) else {
            continue; // the binary (main, cli, commands) and lib.rs itself
        };
        if file.file_name().is_some_and(|n| n == "tests.rs") {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("read source");
        for m in imported(&production_code(&text)) {
            if m == top {
                continue;
            }
            // A re-export at the crate root (`crate::Config`) is its module's.
            let m = reexports.get(&m).cloned().unwrap_or(m);
            let theirs = *rank
                .get(&m)
                .unwrap_or_else(|| panic!("{}: crate::{m} is no module", rel.display()));
            if theirs >= mine {
                climbs
                    .entry((top.clone(), m))
                    .or_default()
                    .push(rel.display().to_string());
            }
        }
    }
    let mut unexpected = Vec::new();
    for ((from, to), files) in &climbs {
        if !KNOWN_CLIMBS.iter().any(|(f, t, _)| f == from && t == to) {
            unexpected.push(format!(
                "{from} imports {to} (same or higher layer) in {files:?}"
            ));
        }
    }
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
    for (from, to, why) in KNOWN_CLIMBS {
        assert!(
            climbs.contains_key(&(from.to_string(), to.to_string())),
            "{from} → {to} no longer climbs ({why}): remove it from KNOWN_CLIMBS"
        );
    }
}

#[test]
fn the_checker_sees_imports_of_both_forms() {
    let code = "use crate::analysis::Model;\nuse crate::{config::Config, plan};\nfn f() { crate::text::reading(x) }\n";
    assert_eq!(imported(code), ["analysis", "config", "plan", "text"]);
    let with_tests = "use crate::a::X;\n#[cfg(test)]\nmod tests {\n use crate::z::Y;\n}\n";
    assert_eq!(imported(&production_code(with_tests)), ["a"]);
    let lib = "//! # Layers\n//!\n//! 1. `text`, `hashing`: utilities\n//! 2. `entity`\n//! # Other\n//! 3. `no`\n";
    let l = layers(lib);
    assert_eq!(l.get("hashing"), Some(&1));
    assert_eq!(l.get("entity"), Some(&2));
    assert_eq!(l.get("no"), None);
}

/// Inside the terminal application, the state (`tui/app`, `tui/state`) is below the
/// drawing (`tui/ui`): drawing reads the state, never the other way.
#[test]
fn the_tui_state_does_not_import_its_drawing() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/tui");
    let mut files = Vec::new();
    rust_files(&root.join("app"), &mut files);
    rust_files(&root.join("state"), &mut files);
    assert!(!files.is_empty());
    for file in files {
        let code = production_code(&std::fs::read_to_string(&file).expect("read source"));
        for needle in ["super::ui", "super::super::ui", "tui::ui", "use ui::"] {
            assert!(
                !code.contains(needle),
                "{} imports the drawing ({needle})",
                file.display()
            );
        }
    }
}
