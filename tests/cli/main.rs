//! End-to-end tests of the `clam` binary: the pipeline on sample_corpus, every
//! bad-input kind, exit codes, and the configuration errors.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

#[path = "../common/mod.rs"]
mod common;
#[path = "../fake_llm/mod.rs"]
mod fake_llm;

use common::Env;

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample_corpus")
        .to_string_lossy()
        .to_string()
}

/// Naive whole-word search: every substring occurrence whose neighbours are not
/// alphanumeric.
fn contains_word(haystack: &str, needle: &str) -> bool {
    let mut from = 0;
    while let Some(pos) = haystack[from..].find(needle) {
        let start = from + pos;
        let end = start + needle.len();
        let before = haystack[..start].chars().next_back();
        let after = haystack[end..].chars().next();
        if !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric) {
            return true;
        }
        from = start + haystack[start..].chars().next().map_or(1, char::len_utf8);
    }
    false
}

/// Every file under `root` with its text (the manifest's tables decompressed), by
/// path relative to `root`.
fn read_all_files(root: &Path) -> Vec<(PathBuf, String)> {
    common::export_files(root)
        .into_iter()
        .map(|(rel, text)| (PathBuf::from(rel), text))
        .collect()
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).expect("write");
}

/// A folder `corpus` in `env` holding `files` (name, bytes).
fn corpus_with(env: &Env, files: &[(&str, &[u8])]) -> PathBuf {
    let corpus = env.path("corpus");
    std::fs::create_dir_all(&corpus).expect("mkdir");
    for (name, bytes) in files {
        write(&corpus, name, bytes);
    }
    corpus
}

/// Runs `clam run CORPUS --out OUT EXTRA…`.
fn run_to(env: &Env, corpus: impl AsRef<Path>, out: &Path, extra: &[&str]) -> Output {
    let corpus = corpus.as_ref().to_str().expect("utf8");
    let mut args = vec!["run", corpus, "--out", out.to_str().expect("utf8")];
    args.extend_from_slice(extra);
    env.clam(&args)
}

/// A decision by `actor` for `reason`, with no states before and after and no
/// configuration hash.
fn decision(
    actor: &str,
    action: clam::session::AuditAction,
    reason: Option<&str>,
) -> clam::session::Decision {
    clam::session::Decision {
        actor: actor.into(),
        action,
        reason: reason.map(Into::into),
        state_before: None,
        state_after: None,
        config_hash: String::new(),
    }
}

const GOOD: &str = r#"{"id": "good_1", "content": "Member ID: MBR-448213. Contact jane.doe@example.com or (555) 010-4417."}"#;

// The areas, one file each.
mod bad_inputs;
mod config;
mod decide;
mod eval_sources;
mod export;
mod formats;
mod gold;
mod kept;
mod meta;
mod parallel;
mod pipeline;
mod progress;
mod pruning;
mod scripting;
mod session;
mod shards;
mod sweep;
