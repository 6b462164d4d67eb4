//! Every bad-input kind is skipped with a clear message; an empty folder or a missing
//! path fails.

use super::*;

fn bad_input_case(name: &str, file: &str, bytes: &[u8], expect: &str, extra: &[&str]) {
    let env = Env::new();
    let corpus = corpus_with(&env, &[("a_good.json", GOOD.as_bytes()), (file, bytes)]);
    let out = env.path("out");
    let o = run_to(&env, &corpus, &out, extra);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(4), "{name}: {err}");
    assert!(
        err.contains(file),
        "{name}: message does not name {file}: {err}"
    );
    assert!(
        err.to_lowercase().contains(expect),
        "{name}: expected {expect:?} in {err}"
    );
    let exported = std::fs::read_dir(out.join("redacted"))
        .expect("export")
        .count();
    assert_eq!(
        exported, 1,
        "{name}: the valid file must still load and export"
    );
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains(file),
        "{name}: the report lists the skipped file"
    );
}

#[test]
fn bad_inputs_are_skipped_with_a_clear_message() {
    bad_input_case(
        "malformed",
        "b_bad.json",
        b"{\"id\": \"x\", \"content\": ",
        "json",
        &[],
    );
    bad_input_case(
        "missing content",
        "b_bad.json",
        br#"{"id": "x"}"#,
        "content",
        &[],
    );
    bad_input_case(
        "duplicate id",
        "b_dup.json",
        GOOD.as_bytes(),
        "duplicate",
        &[],
    );
    bad_input_case(
        "non-utf8",
        "b_bin.json",
        b"{\"id\": \"x\", \"content\": \"\xff\xfe\"}",
        "utf-8",
        &[],
    );
    let big = format!(r#"{{"id": "big", "content": "{}"}}"#, "word ".repeat(400));
    let cfg = Env::new();
    let cfg_path = cfg.path("small.toml");
    std::fs::write(&cfg_path, "max_document_bytes = 1000\n").expect("write");
    bad_input_case(
        "oversized",
        "b_big.json",
        big.as_bytes(),
        "limit",
        &["--config", cfg_path.to_str().expect("utf8")],
    );
}

#[test]
fn empty_folder_and_missing_path_fail_clearly() {
    let env = Env::new();
    let empty = env.path("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let o = env.clam(&["analyze", empty.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("empty"), "{}", stderr(&o));
    let o = env.clam(&["analyze", env.path("nowhere").to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("nowhere"), "{}", stderr(&o));
}

#[test]
fn an_output_that_would_be_refused_is_refused_before_the_corpus_is_read() {
    // A corpus with a broken document: reading it would print a warning first.
    let env = Env::new();
    let corpus = corpus_with(
        &env,
        &[
            ("good.json", GOOD.as_bytes()),
            ("broken.json", b"{not json"),
        ],
    );
    let snap = env.path("snap.json");
    write(&env.path(""), "snap.json", b"{}");
    let o = env.clam(&[
        "extract",
        corpus.to_str().expect("utf8"),
        "--out",
        snap.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("already exists"), "{err}");
    assert!(
        !err.contains("broken.json"),
        "the corpus was read first: {err}"
    );

    let out = env.path("out");
    std::fs::create_dir_all(&out).expect("mkdir");
    write(&out, "keep.txt", b"mine");
    let o = run_to(&env, &corpus, &out, &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("not empty"), "{err}");
    assert!(
        !err.contains("broken.json"),
        "the corpus was read first: {err}"
    );
    assert_eq!(std::fs::read(out.join("keep.txt")).expect("kept"), b"mine");
}

#[test]
fn a_reader_that_leaves_early_ends_clam_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::{Command, Stdio};
    // A corpus whose JSON analysis is far larger than a pipe's buffer.
    let env = Env::new();
    let corpus = env.path("g");
    let o = env.clam(&[
        "gen-corpus",
        "--docs",
        "400",
        "--out",
        corpus.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let mut child = Command::new(env!("CARGO_BIN_EXE_clam"))
        .args([
            "analyze",
            corpus.join("corpus.jsonl").to_str().expect("utf8"),
            "--json",
        ])
        .env("XDG_CONFIG_HOME", env.path("config"))
        .env("XDG_DATA_HOME", env.path("data"))
        .env("XDG_CACHE_HOME", env.path("cache"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    // `| head -1`: one line, then the reader is gone.
    let mut first = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut first)
        .expect("read");
    assert_eq!(first.trim(), "{");
    let out = child.wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(
        !err.contains("Broken pipe") && !err.contains("error"),
        "{err}"
    );
}
