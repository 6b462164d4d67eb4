//! Hardening (issue 7): crash safety of the session store, sensitive-data hygiene of
//! the export, logs and files, adversarial document content, and headless robustness
//! on a partly broken corpus. Regression tests for what the fuzz targets in `fuzz/`
//! found live here too.
//!
//! The crash test re-executes this test binary as the child process: with
//! `CLAM_HARDENING_CHILD` set, `crash_child` appends decisions forever and prints each
//! acknowledged one; without it, `crash_child` does nothing.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use clam::session::{AuditAction, Decision, Session};

#[path = "../common/mod.rs"]
mod common;

const CHILD_ENV: &str = "CLAM_HARDENING_CHILD";
const CHILD_TAG_ENV: &str = "CLAM_HARDENING_CHILD_TAG";

// ---------------------------------------------------------------------------------
// Helpers

/// Runs `clam` with its own config, data and cache directories under `home`, in `cwd`,
/// at the default log level.
fn clam_in(home: &Path, cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clam"))
        .args(args)
        .current_dir(cwd)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CACHE_HOME", home.join("cache"))
        .env("HOME", home)
        .env_remove("CLAM_LOG")
        .output()
        .expect("run clam")
}

fn clam(home: &Path, args: &[&str]) -> Output {
    clam_in(home, home, args)
}

/// Runs `clam run INPUT --out OUT EXTRA…` with its directories under `home`.
fn run(home: &Path, input: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["run", s(input), "--out", s(out)];
    args.extend_from_slice(extra);
    clam(home, &args)
}

/// The manifest of the export in `out`.
fn manifest(out: &Path) -> Value {
    crate::common::manifest(out)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Case-insensitive whole-word occurrence: neighbours are not alphanumeric, and a
/// number does not count inside a longer number ("42" in "0.42" or "1,420").
fn contains_word(haystack: &str, needle: &str) -> bool {
    let hay = haystack.to_lowercase();
    let needle = needle.to_lowercase();
    let needle = needle.trim();
    if needle.is_empty() {
        return false;
    }
    let numeric_edge = |c: Option<char>, beyond: Option<char>| {
        matches!(c, Some('.') | Some(',')) && beyond.is_some_and(|b| b.is_ascii_digit())
    };
    let mut from = 0;
    while let Some(pos) = hay[from..].find(needle) {
        let start = from + pos;
        let end = start + needle.len();
        let mut before = hay[..start].chars().rev();
        let (b1, b2) = (before.next(), before.next());
        let mut after = hay[end..].chars();
        let (a1, a2) = (after.next(), after.next());
        let first_digit = needle.starts_with(|c: char| c.is_ascii_digit());
        let last_digit = needle.ends_with(|c: char| c.is_ascii_digit());
        let left = !(b1.is_some_and(char::is_alphanumeric) || first_digit && numeric_edge(b1, b2));
        let right = !(a1.is_some_and(char::is_alphanumeric) || last_digit && numeric_edge(a1, a2));
        if left && right {
            return true;
        }
        from = start + hay[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Every original value of a masked entity, from the mapping file.
fn mapping_originals(mapping: &Path) -> Vec<String> {
    let map: Value =
        serde_json::from_str(&std::fs::read_to_string(mapping).expect("mapping")).expect("json");
    map["masked"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|r| r["originals"].as_array().cloned().unwrap_or_default())
        .filter_map(|v| v.as_str().map(str::to_string))
        .collect()
}

/// Every (file, value) where a masked original occurs in a file under `root`, in
/// its content or its name.
fn leaks(root: &Path, originals: &[String]) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    for path in files_under(root) {
        // The manifest's tables are read decompressed, as a reader would.
        let text = common::export_text(&path);
        let name = path
            .strip_prefix(root)
            .map(s)
            .unwrap_or_default()
            .to_string();
        for o in originals {
            if contains_word(&text, o) || contains_word(&name, o) {
                out.push((path.clone(), o.clone()));
            }
        }
    }
    out
}

#[cfg(unix)]
fn mode(p: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).expect("metadata").permissions().mode() & 0o777
}

fn write(dir: &Path, name: &str, bytes: impl AsRef<[u8]>) {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(p, bytes).expect("write");
}

fn doc(id: &str, content: &str) -> String {
    json!({"id": id, "metadata": {"source": "test"}, "content": content}).to_string()
}

/// A small linked corpus with distinctive direct and quasi identifiers.
fn pii_corpus(dir: &Path) {
    let docs = [
        (
            "claim_a",
            "Claim filed by Ms. Priya Raman (member MBR-448213), born 03/14/1968. Contact priya.raman@example.org or (555) 010-4417. Diagnosis: lupus nephritis. Address: 12 Elm Street, Springfield.",
        ),
        (
            "call_b",
            "Call note: Ms. Raman phoned from (555) 010-4417 about member MBR-448213 and her lupus nephritis treatment at Cedar Clinic.",
        ),
        (
            "letter_c",
            "Dear Dr. Elise Varga, our member born 03/14/1968 treated at Cedar Clinic for lupus nephritis asks about 12 Elm Street billing.",
        ),
        (
            "memo_d",
            "Memo: Jonathan Whitfield (jonathan.whitfield@example.com, MBR-991027) reported a claim; age 42, occupation welder.",
        ),
        (
            "memo_e",
            "Follow-up with Jonathan Whitfield, the welder aged 42, about claim MBR-991027 at Cedar Clinic.",
        ),
    ];
    for (id, content) in docs {
        write(dir, &format!("{id}.json"), doc(id, content));
    }
}

// ---------------------------------------------------------------------------------
// The child of the crash test (crash.rs), here at the crate root: the test
// re-executes this binary with `crash_child --exact`.

fn decision(n: u64, tag: &str) -> Decision {
    let entity = format!("entity-{}", n % 37);
    let action = match n % 4 {
        0 => AuditAction::Override { entity, mask: true },
        1 => AuditAction::Pin {
            entity,
            mask: false,
        },
        2 => AuditAction::Accept { entity, mask: true },
        _ => AuditAction::Unpin { entity },
    };
    Decision {
        actor: "crash-child".into(),
        action,
        reason: Some(format!("{tag}:{n}")),
        state_before: Some("keep".into()),
        state_after: Some("mask".into()),
        config_hash: "crash-test".into(),
    }
}

/// The child of the crash test (a no-op unless `CLAM_HARDENING_CHILD` names a session
/// file): appends decisions forever through the session store and prints
/// `saved <seq> <reason>` after each commit.
#[test]
fn crash_child() {
    let Some(path) = std::env::var_os(CHILD_ENV) else {
        return;
    };
    let tag = std::env::var(CHILD_TAG_ENV).unwrap_or_default();
    let mut session = Session::open(Path::new(&path)).expect("child opens the session");
    let mut out = std::io::stdout().lock();
    for n in 0.. {
        let d = decision(n, &tag);
        let seq = session.append(&d).expect("append");
        let reason = d.reason.unwrap_or_default();
        // Acknowledged only after the commit returned.
        std::io::Write::write_all(&mut out, format!("saved {seq} {reason}\n").as_bytes())
            .expect("stdout");
        std::io::Write::flush(&mut out).expect("flush");
    }
}

// ---------------------------------------------------------------------------------
// The areas, one file each

mod adversarial;
mod crash;
mod fuzz;
mod hygiene;
mod robustness;
