//! The LLM extractor against a real HTTP server on 127.0.0.1, started by each test:
//! a small chat-completions server with a scripted fake model and fault modes
//! (refused, 429 with Retry-After, 500/503, truncated body, non-JSON, stall, slow),
//! counting requests in flight and recording the Authorization header.

// Test helpers outside #[test] functions unwrap too.
#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use clam::config::{ConfigLayer, ConfigSources, resolve};
use clam::corpus::{Corpus, Document};
use clam::extract::llm::{LlmExtractor, LlmOptions, LlmRun, Source};
use clam::{Config, Schema};

#[path = "../common/mod.rs"]
mod common;
#[path = "../fake_llm/mod.rs"]
mod fake_llm;

use fake_llm::*;

// ---------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------

fn config(base_url: &str, extra: &str) -> Config {
    let defaults = ["timeout_secs = 2", "max_retries = 2", "backoff_ms = 10"];
    let mut text = format!("[llm]\nbase_url = \"{base_url}\"\nmodel = \"fake\"\n{extra}");
    for d in defaults {
        let key = d.split(' ').next().unwrap_or("");
        if !extra.contains(&format!("{key} =")) {
            text.push_str(d);
            text.push('\n');
        }
    }
    let mut c = Config::default();
    ConfigLayer::from_toml(&text, "test.toml")
        .unwrap()
        .apply(&mut c, "test.toml")
        .unwrap();
    c.validate("test.toml").unwrap();
    c
}

struct Dirs {
    tmp: tempfile::TempDir,
}

impl Dirs {
    fn new() -> Dirs {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(tmp.path().join("prompts")).unwrap();
        Dirs { tmp }
    }
    fn opts(&self) -> LlmOptions {
        LlmOptions {
            cache_dir: Some(self.tmp.path().join("cache")),
            prompt_dir: Some(self.tmp.path().join("prompts")),
            ..LlmOptions::default()
        }
    }
    fn no_cache(&self) -> LlmOptions {
        LlmOptions {
            no_cache: true,
            ..self.opts()
        }
    }
}

fn docs() -> Vec<Document> {
    vec![
        Document::new(
            "a",
            "Ms. Dana Whitfield of Port Calder, Massachusetts, has lupus nephritis and is seen at Harbor View Clinic. E-mail dana.w@example.org.",
        ),
        Document::new(
            "b",
            "A night-shift baker in Massachusetts was admitted with lupus nephritis after the Lakeshore Triathlon.",
        ),
        Document::new(
            "c",
            "Massachusetts survey: a night-shift baker finished the Lakeshore Triathlon. Call 555-010-4417.",
        ),
    ]
}

fn run(c: &Config, opts: &LlmOptions, docs: &[Document]) -> LlmRun {
    LlmExtractor::new(c, opts)
        .unwrap()
        .run_blocking(docs, None)
        .unwrap()
}

fn values(run: &LlmRun, doc: usize) -> Vec<String> {
    let mut v: Vec<String> = run.items[doc]
        .iter()
        .map(|i| format!("{}:{}", i.entity_type, i.original))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Runs one document against `script`; returns the run, the server and the time taken.
fn one_doc(
    extra: &str,
    script: impl Fn(&Req, usize) -> Reply + Send + Sync + 'static,
) -> (LlmRun, Server, Duration) {
    let server = Server::start(script);
    let dirs = Dirs::new();
    let c = config(&server.base_url(), extra);
    let start = Instant::now();
    let r = run(&c, &dirs.no_cache(), &docs()[..1]);
    (r, server, start.elapsed())
}

fn assert_fallback(r: &LlmRun, reason: &str) {
    let d = &r.report.documents[0];
    assert_eq!(d.source, Source::Fallback, "{d:?}");
    let why = d.reason.clone().unwrap_or_default();
    assert!(why.contains(reason), "{why:?} should mention {reason:?}");
    assert_eq!(r.report.fallbacks, 1);
    // The offline extractor's items are used: the e-mail and the condition.
    assert!(
        values(r, 0).contains(&"EMAIL:dana.w@example.org".into()),
        "{:?}",
        values(r, 0)
    );
}

// ---------------------------------------------------------------------------
// Helpers of the tests that run the binary
// ---------------------------------------------------------------------------

const KEY: &str = "sk-test-7f3a9c1e5b2d4f6a8c0e";

/// `[llm]` lines that send [`KEY`] (which [`clam`] sets as CLAM_TEST_KEY) and retry soon.
const WITH_KEY: &str = "api_key_env = \"CLAM_TEST_KEY\"\nbackoff_ms = 10\n";

fn clam(env: &common::Env, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_clam"))
        .args(args)
        .env("XDG_CONFIG_HOME", env.path("config"))
        .env("XDG_DATA_HOME", env.path("data"))
        .env("XDG_CACHE_HOME", env.path("cache"))
        .env("HOME", env.home.path())
        .env_remove("CLAM_CACHE_DIR")
        .env("CLAM_TEST_KEY", KEY)
        .output()
        .unwrap()
}

fn user_config(env: &common::Env, text: &str) {
    let dir = env.path("config/clam");
    std::fs::create_dir_all(&dir).unwrap();
    let mut f = std::fs::File::create(dir.join("clam.toml")).unwrap();
    f.write_all(text.as_bytes()).unwrap();
}

/// A user configuration for the fake model at `base_url`, with `extra` lines in its
/// `[llm]` table.
fn fake_model_config(env: &common::Env, base_url: &str, extra: &str) {
    user_config(
        env,
        &format!("[llm]\nbase_url = \"{base_url}\"\nmodel = \"fake\"\n{extra}"),
    );
}

/// Runs `clam COMMAND CORPUS --extractor llm EXTRA…`.
fn clam_llm(env: &common::Env, command: &str, corpus: &str, extra: &[&str]) -> Output {
    let mut args = vec![command, corpus, "--extractor", "llm"];
    args.extend_from_slice(extra);
    clam(env, &args)
}

fn sample() -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample_corpus")
        .display()
        .to_string()
}

fn files_under(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The areas, one file each
// ---------------------------------------------------------------------------

mod cli;
mod concurrency;
mod config;
mod context;
mod fallback;
mod faults;
mod formats;
mod secrets;
mod streaming;
mod validation;
