//! End-to-end tests of the `clam` binary: the pipeline on sample_corpus, every
//! bad-input kind, exit codes, and the configuration errors.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::path::{Path, PathBuf};
use std::process::Output;

use serde_json::Value;

mod common;

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

fn read_all_files(root: &Path) -> Vec<(PathBuf, String)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).expect("read dir") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                stack.push(p);
            } else {
                let text = String::from_utf8_lossy(&std::fs::read(&p).expect("read")).to_string();
                out.push((p, text));
            }
        }
    }
    out
}

#[test]
fn run_on_sample_corpus_exports_a_verified_redacted_corpus() {
    let env = Env::new();
    let out = env.path("export");
    let mapping = env.path("mapping.json");
    let o = env.clam(&[
        "run",
        &sample(),
        "--out",
        out.to_str().expect("utf8"),
        "--with-mapping",
        mapping.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("leak check passed"), "{}", stderr(&o));
    for f in ["manifest.json", "decisions.jsonl", "report.md"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let inputs: Vec<_> = std::fs::read_dir(sample())
        .expect("sample")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .collect();
    let redacted: Vec<_> = std::fs::read_dir(out.join("redacted"))
        .expect("redacted dir")
        .collect();
    assert_eq!(inputs.len(), redacted.len());

    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).expect("read"))
            .expect("manifest json");
    let masked = manifest["summary"]["masked"]
        .as_u64()
        .expect("masked count");
    assert!(masked > 0);
    let chains = manifest["chains"].as_array().expect("chains");
    let cat = |c: &Value, k: &str| c[k].as_str().unwrap_or_default().to_string();
    assert!(
        chains.iter().any(|c| cat(c, "category_initial") == "HIGH"),
        "no HIGH chain"
    );
    assert!(
        chains
            .iter()
            .any(|c| cat(c, "category_initial") == "MEDIUM" || cat(c, "category_pre") == "MEDIUM"),
        "no MEDIUM chain"
    );

    // Independent naive scan: no original value of a masked entity, lowercased, appears
    // in the redacted documents as a substring that is not part of a longer word (short
    // values such as "sle" or "42" legitimately occur inside "newsletter" or "4420").
    let map: Value =
        serde_json::from_str(&std::fs::read_to_string(&mapping).expect("mapping")).expect("json");
    let originals: Vec<String> = map["masked"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|r| r["originals"].as_array().cloned().unwrap_or_default())
        .filter_map(|v| v.as_str().map(str::to_lowercase))
        .collect();
    assert!(!originals.is_empty());
    for (path, text) in read_all_files(&out.join("redacted")) {
        let lower = text.to_lowercase();
        for o in &originals {
            assert!(
                !contains_word(&lower, o),
                "{} still contains a masked value",
                path.display()
            );
        }
    }
    // The manifest, report and audit log reference entities by export id only: no
    // masked value of more than three characters occurs in them (short numbers could
    // coincide with digits of a risk figure).
    for f in ["manifest.json", "report.md", "decisions.jsonl"] {
        let lower = std::fs::read_to_string(out.join(f))
            .expect("read")
            .to_lowercase();
        for o in originals.iter().filter(|o| o.chars().count() > 3) {
            assert!(!lower.contains(o.as_str()), "{f} contains a masked value");
        }
    }

    // A second run into the same folder is refused without --force, accepted with it.
    let again = env.clam(&["run", &sample(), "--out", out.to_str().expect("utf8")]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    let forced = env.clam(&[
        "run",
        &sample(),
        "--out",
        out.to_str().expect("utf8"),
        "--force",
        "--mode",
        "pseudonym",
    ]);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    let text: String = read_all_files(&out.join("redacted"))
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert!(text.contains("[NAME_"), "pseudonyms in the redacted text");
}

#[test]
fn analyze_json_reports_documents_edges_chains_and_masks() {
    let env = Env::new();
    let o = env.clam(&["analyze", &sample(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    for key in ["documents", "edges", "chains", "masks"] {
        assert!(
            v[key].as_array().is_some_and(|a| !a.is_empty()),
            "{key} empty"
        );
    }
    let mask = &v["masks"][0];
    assert!(
        mask["provenance"]
            .as_str()
            .is_some_and(|p| p.starts_with("masked"))
    );
    let human = env.clam(&["analyze", &sample()]);
    assert_eq!(human.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&human.stdout).contains("PROPOSED MASKS"));
}

#[test]
fn extract_then_plan_reproduces_the_vector_shape() {
    let env = Env::new();
    let snap = env.path("snap.json");
    let o = env.clam(&["extract", &sample(), "--out", snap.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(&snap).expect("read")).expect("json");
    let e = &s["documents"][0]["entities"][0];
    for k in [
        "value",
        "type",
        "relevance",
        "mentions",
        "originals",
        "spans",
    ] {
        assert!(!e[k].is_null(), "snapshot entity lacks {k}");
    }
    let p1 = env.clam(&["plan", snap.to_str().expect("utf8")]);
    assert_eq!(p1.status.code(), Some(0), "{}", stderr(&p1));
    let p2 = env.clam(&["plan", snap.to_str().expect("utf8")]);
    assert_eq!(p1.stdout, p2.stdout, "plan output is deterministic");
    let v: Value = serde_json::from_slice(&p1.stdout).expect("json");
    for k in [
        "entities",
        "doc_risk_initial",
        "edges_all",
        "edges_kept",
        "chains",
        "masked_after_document_stage",
        "masked",
        "mask_log",
        "doc_risk_final",
    ] {
        assert!(!v[k].is_null(), "plan output lacks {k}");
    }
    // A reference vector through the binary.
    let vector =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testvectors/small_forced.json");
    let full: Value =
        serde_json::from_str(&std::fs::read_to_string(&vector).expect("vector")).expect("json");
    let input = env.path("input.json");
    std::fs::write(&input, full["input"].to_string()).expect("write");
    let o = env.clam(&["plan", input.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["masked"], full["expected"]["masked"]);
    assert_eq!(v["edges_kept"], full["expected"]["edges_kept"]);
}

fn write(dir: &Path, name: &str, bytes: &[u8]) {
    std::fs::write(dir.join(name), bytes).expect("write");
}

const GOOD: &str = r#"{"id": "good_1", "content": "Member ID: MBR-448213. Contact jane.doe@example.com or (555) 010-4417."}"#;

fn bad_input_case(name: &str, file: &str, bytes: &[u8], expect: &str, extra: &[&str]) {
    let env = Env::new();
    let corpus = env.path("corpus");
    std::fs::create_dir_all(&corpus).expect("mkdir");
    write(&corpus, "a_good.json", GOOD.as_bytes());
    write(&corpus, file, bytes);
    let out = env.path("out");
    let mut args = vec![
        "run",
        corpus.to_str().expect("utf8"),
        "--out",
        out.to_str().expect("utf8"),
    ];
    args.extend_from_slice(extra);
    let o = env.clam(&args);
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
fn usage_and_config_errors() {
    let env = Env::new();
    assert_eq!(env.clam(&["run"]).status.code(), Some(2));
    assert_eq!(env.clam(&["frobnicate"]).status.code(), Some(2));
    for cmd in ["run", "analyze", "extract", "plan", "session"] {
        let o = env.clam(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{cmd} --help");
    }
    let o = env.clam(&["analyze", &sample(), "--theta-doc", "1.5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("theta_doc"), "{}", stderr(&o));
    let cfg = env.path("bad.toml");
    std::fs::write(&cfg, "always_mask = [\"SHOE_SIZE\"]\n").expect("write");
    let o = env.clam(&[
        "analyze",
        &sample(),
        "--config",
        cfg.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("always_mask") && stderr(&o).contains("SHOE_SIZE"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_leak_aborts_the_export_with_exit_code_3() {
    // A masked name that reads like its own placeholder: "[NAME]" still shows the
    // value "Name", so the independent leak check must catch it and export nothing.
    let env = Env::new();
    let corpus = env.path("corpus");
    std::fs::create_dir_all(&corpus).expect("mkdir");
    write(
        &corpus,
        "a.json",
        br#"{"id": "a", "content": "Name: Name. Call (555) 010-4417 about member MBR-448213."}"#,
    );
    write(
        &corpus,
        "clam.toml",
        b"[extract]\ndeny = { NAME = [\"Name\"] }\n",
    );
    let out = env.path("out");
    let o = env.clam(&[
        "run",
        corpus.to_str().expect("utf8"),
        "--out",
        out.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(stderr(&o).contains("leak check failed"), "{}", stderr(&o));
    assert!(stderr(&o).contains("NAME"), "{}", stderr(&o));
    assert!(!out.exists(), "nothing is exported");
}

#[test]
fn masked_values_in_metadata_keys_numbers_and_ids_are_redacted() {
    // A phone as a JSON number, a name in a metadata key and in the id and file name:
    // all redacted; the document is exported as doc-<export id>.
    let env = Env::new();
    let corpus = env.path("corpus");
    std::fs::create_dir_all(&corpus).expect("mkdir");
    write(
        &corpus,
        "edith_marlowe.json",
        r#"{"id": "MARLOWE-EDITH", "metadata": {"phones": [5550104417], "Edith Marlowe": true}, "content": "Call Edith Marlowe at (555) 010-4417."}"#.as_bytes(),
    );
    write(
        &corpus,
        "b.json",
        br#"{"id": "b", "content": "Nothing here."}"#,
    );
    write(
        &corpus,
        "clam.toml",
        b"[extract]\ndeny = { NAME = [\"Edith Marlowe\"] }\n",
    );
    let out = env.path("out");
    let o = env.clam(&[
        "run",
        corpus.to_str().expect("utf8"),
        "--out",
        out.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let names: Vec<String> = std::fs::read_dir(out.join("redacted"))
        .expect("redacted")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .collect();
    let renamed = names
        .iter()
        .find(|n| n.starts_with("doc-") && n.ends_with(".json"))
        .expect("a renamed file");
    let v: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("redacted").join(renamed)).expect("read"),
    )
    .expect("json");
    assert_eq!(v["id"].as_str(), Some(renamed.trim_end_matches(".json")));
    assert_eq!(v["metadata"]["phones"][0].as_str(), Some("[PHONE_NUMBER]"));
    assert_eq!(v["metadata"]["[NAME]"].as_bool(), Some(true));
    for f in ["manifest.json", "report.md"] {
        let text = std::fs::read_to_string(out.join(f))
            .expect("read")
            .to_lowercase();
        assert!(
            !text.contains("marlowe") && !text.contains("5550104417"),
            "{f}"
        );
    }
}

#[test]
fn configuration_layers_apply_in_precedence_order() {
    let env = Env::new();
    let corpus = env.path("corpus");
    std::fs::create_dir_all(&corpus).expect("mkdir");
    write(&corpus, "a.json", GOOD.as_bytes());
    let user_dir = env.path("config/clam");
    std::fs::create_dir_all(&user_dir).expect("mkdir");
    let threshold = |o: &Output| -> f64 {
        let v: Value = serde_json::from_slice(&o.stdout).expect("json");
        v["config"]["edge_threshold"]
            .as_f64()
            .expect("edge_threshold")
    };
    let analyze = |extra: &[&str]| {
        let mut args = vec!["analyze", corpus.to_str().expect("utf8"), "--json"];
        args.extend_from_slice(extra);
        env.clam(&args)
    };
    assert_eq!(threshold(&analyze(&[])), 0.5, "default");
    std::fs::write(user_dir.join("clam.toml"), "edge_threshold = 0.1\n").expect("write");
    assert_eq!(threshold(&analyze(&[])), 0.1, "user config over defaults");
    std::fs::write(corpus.join("clam.toml"), "edge_threshold = 0.2\n").expect("write");
    assert_eq!(
        threshold(&analyze(&[])),
        0.2,
        "corpus clam.toml over user config"
    );
    let file = env.path("other.toml");
    std::fs::write(&file, "edge_threshold = 0.3\n").expect("write");
    let file = file.to_str().expect("utf8");
    assert_eq!(
        threshold(&analyze(&["--config", file])),
        0.3,
        "--config over corpus"
    );
    assert_eq!(
        threshold(&analyze(&["--config", file, "--edge-threshold", "0.4"])),
        0.4,
        "flags over --config"
    );
    std::fs::write(corpus.join("clam.toml"), "edge_threshold = -1\n").expect("write");
    let o = analyze(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("clam.toml") && stderr(&o).contains("edge_threshold"),
        "{}",
        stderr(&o)
    );

    // `[ui] theme` chooses the workspace's theme; an unknown one is refused, naming
    // the file and the key, before the terminal is taken over. --theme wins.
    std::fs::write(corpus.join("clam.toml"), "[ui]\ntheme = \"sepia\"\n").expect("write");
    let review = |extra: &[&str]| {
        let mut args = vec!["review", corpus.to_str().expect("utf8")];
        args.extend_from_slice(extra);
        env.clam(&args)
    };
    let o = review(&[]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("clam.toml") && err.contains("ui.theme") && err.contains("sepia"),
        "{err}"
    );
    let o = review(&["--theme", "nope"]);
    assert!(
        stderr(&o).contains("\"nope\"") && !stderr(&o).contains("sepia"),
        "{}",
        stderr(&o)
    );
    // A user theme file makes the name known (the review then stops at the missing
    // terminal, past the theme).
    std::fs::create_dir_all(user_dir.join("themes")).expect("mkdir");
    let dark =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("themes/dark.toml"))
            .expect("dark theme");
    std::fs::write(
        user_dir.join("themes/sepia.toml"),
        dark.replace("name = \"dark\"", "name = \"sepia\""),
    )
    .expect("write");
    let o = review(&[]);
    assert!(!stderr(&o).contains("ui.theme"), "{}", stderr(&o));
    std::fs::write(corpus.join("clam.toml"), "[ui]\ncolour = \"red\"\n").expect("write");
    let o = analyze(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("clam.toml") && stderr(&o).contains("colour"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_session_decision_is_applied_by_headless_commands() {
    use clam::session::{AuditAction, Decision, Session};
    let env = Env::new();
    let before = env.clam(&["analyze", &sample(), "--json"]);
    let v: Value = serde_json::from_slice(&before.stdout).expect("json");
    let first = v["masks"][0]["id"]
        .as_str()
        .expect("a proposed mask")
        .to_string();
    let session = env.path("review.sqlite");
    {
        let mut s = Session::open(&session).expect("session");
        s.append(&Decision {
            actor: "auditor".into(),
            action: AuditAction::Override {
                entity: first.clone(),
                mask: false,
            },
            reason: Some("public information".into()),
            state_before: Some("mask".into()),
            state_after: Some("keep".into()),
            config_hash: String::new(),
        })
        .expect("append");
    }
    let session = session.to_str().expect("utf8");
    let after = env.clam(&["analyze", &sample(), "--json", "--session", session]);
    assert_eq!(after.status.code(), Some(0), "{}", stderr(&after));
    let v: Value = serde_json::from_slice(&after.stdout).expect("json");
    let masks: Vec<&str> = v["masks"]
        .as_array()
        .expect("masks")
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    assert!(
        !masks.contains(&first.as_str()),
        "the overridden entity is kept"
    );

    // The export carries the decision, by export id, with its reason.
    let out = env.path("out");
    let o = env.clam(&[
        "run",
        &sample(),
        "--out",
        out.to_str().expect("utf8"),
        "--session",
        session,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log = std::fs::read_to_string(out.join("decisions.jsonl")).expect("decisions");
    assert_eq!(log.lines().count(), 1);
    assert!(
        log.contains("public information") && !log.contains(&first),
        "{log}"
    );
    let manifest = std::fs::read_to_string(out.join("manifest.json")).expect("manifest");
    assert!(manifest.contains("\"overridden\""));

    // --require-reviewed refuses while proposed masks are unreviewed.
    let o = env.clam(&[
        "run",
        &sample(),
        "--out",
        env.path("out2").to_str().expect("utf8"),
        "--session",
        session,
        "--require-reviewed",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unreviewed"), "{}", stderr(&o));
    assert!(!env.path("out2").exists());
}

#[test]
fn accepted_residuals_and_orphaned_decisions_are_listed_by_analyze_and_the_export() {
    use clam::session::{AuditAction, Decision, Session};
    let env = Env::new();
    // Nothing may be masked, so documents and chains stay residual.
    let config = env.path("keep-all.toml");
    let types = clam::Config::default()
        .schema
        .types
        .iter()
        .map(|t| format!("{:?}", t.name))
        .collect::<Vec<_>>()
        .join(", ");
    std::fs::write(
        &config,
        format!("always_mask = []\nnever_mask = [{types}]\n"),
    )
    .expect("write");
    let config = config.to_str().expect("utf8");
    let session = env.path("review.sqlite");
    let session_s = session.to_str().expect("utf8");
    let sample_s = sample();
    let analyze = |with_session: bool| {
        let mut args = vec!["analyze", &sample_s, "--json", "--config", config];
        if with_session {
            args.extend(["--session", session_s]);
        }
        let o = env.clam(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        serde_json::from_slice::<Value>(&o.stdout).expect("json")
    };
    let v = analyze(false);
    let doc = v["residual_documents"][0]
        .as_str()
        .expect("a residual document")
        .to_string();
    let chain: Vec<String> = v["residual_chains"][0]
        .as_array()
        .expect("a residual chain")
        .iter()
        .map(|d| d.as_str().expect("id").to_string())
        .collect();
    let ghost = clam::entity::entity_id("no such value", "NAME");
    {
        let mut s = Session::open(&session).expect("session");
        let decide = |s: &mut Session, action: AuditAction, reason: &str| {
            s.append(&Decision {
                actor: "auditor".into(),
                action,
                reason: Some(reason.into()),
                state_before: None,
                state_after: None,
                config_hash: String::new(),
            })
            .expect("append");
        };
        decide(
            &mut s,
            AuditAction::AcceptResidual {
                documents: vec![doc.clone()],
            },
            "public record",
        );
        // The chain in the other order is the same chain.
        let mut reversed = chain.clone();
        reversed.reverse();
        decide(
            &mut s,
            AuditAction::AcceptResidual {
                documents: reversed,
            },
            "same reviewer",
        );
        decide(
            &mut s,
            AuditAction::Pin {
                entity: ghost.clone(),
                mask: true,
            },
            "from an older corpus",
        );
    }
    let v = analyze(true);
    assert_eq!(v["accepted_residual_documents"], serde_json::json!([doc]));
    assert_eq!(v["accepted_residual_chains"], serde_json::json!([chain]));
    assert_eq!(
        v["orphaned_decisions"],
        serde_json::json!([{"id": ghost, "decision": "pinned mask"}])
    );
    let o = env.clam(&[
        "analyze",
        &sample(),
        "--config",
        config,
        "--session",
        session_s,
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("RESIDUAL RISK") && text.contains("accepted") && text.contains("open"),
        "{text}"
    );
    assert!(
        text.contains("ORPHANED DECISIONS") && text.contains(&ghost),
        "{text}"
    );

    let out = env.path("out");
    let o = env.clam(&[
        "run",
        &sample(),
        "--out",
        out.to_str().expect("utf8"),
        "--config",
        config,
        "--session",
        session_s,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let manifest: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("manifest.json")).expect("manifest"),
    )
    .expect("json");
    assert_eq!(
        manifest["residuals"]["accepted_documents"],
        serde_json::json!([doc])
    );
    assert_eq!(
        manifest["residuals"]["accepted_chains"],
        serde_json::json!([chain])
    );
    let orphans = manifest["orphaned_decisions"].as_array().expect("orphans");
    assert_eq!(orphans.len(), 1);
    assert_eq!(orphans[0]["decision"], "pinned mask");
    assert_ne!(
        orphans[0]["id"],
        serde_json::json!(ghost),
        "by export id, never the md5 id"
    );
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("yes, accepted") && report.contains("## Orphaned decisions"),
        "{report}"
    );
    for (path, text) in read_all_files(&out) {
        assert!(
            !text.contains(&ghost),
            "{}: the internal entity id",
            path.display()
        );
    }
}

#[test]
fn gen_corpus_is_deterministic_and_its_gold_evaluates() {
    let env = Env::new();
    let a = env.path("gen-a");
    let b = env.path("gen-b");
    for dir in [&a, &b] {
        let o = env.clam(&[
            "gen-corpus",
            "--docs",
            "120",
            "--seed",
            "9",
            "--out",
            &dir.display().to_string(),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    }
    for f in ["corpus.jsonl", "gold.json"] {
        let x = std::fs::read(a.join(f)).expect("read");
        let y = std::fs::read(b.join(f)).expect("read");
        assert!(!x.is_empty());
        assert_eq!(x, y, "{f} differs between two runs with the same seed");
    }
    let lines = std::fs::read_to_string(a.join("corpus.jsonl")).expect("read");
    assert_eq!(lines.lines().count(), 120);
    // Existing output is not overwritten without --force.
    let again = env.clam(&[
        "gen-corpus",
        "--docs",
        "5",
        "--out",
        &a.display().to_string(),
    ]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    // The corpus and its gold go straight into clam eval.
    let o = env.clam(&[
        "eval",
        &a.join("corpus.jsonl").display().to_string(),
        "--gold",
        &a.join("gold.json").display().to_string(),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let r: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(r["documents"], 120);
    let recall = r["chains"]["pairs"]["recall"].as_f64().expect("recall");
    assert!(recall > 0.5, "generated links are found: recall {recall}");
}

#[test]
fn gold_import_and_export_round_trip_and_reach_the_redacted_export() {
    let env = Env::new();
    let session = env.path("gold.sqlite");
    let session = session.to_str().expect("utf8");
    let devset = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_corpus/gold/gold.json");
    let expected = clam::eval::gold::load_chains(&devset).expect("sample gold");
    let o = env.clam(&[
        "gold",
        "import",
        &sample(),
        devset.to_str().expect("utf8"),
        "--session",
        session,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!(
            "imported {} gold chain(s) from",
            expected.chains.len()
        )) && stderr(&o).contains("(devset format)"),
        "{}",
        stderr(&o)
    );
    // The thesis format: a note (with a name the plan masks) and an unknown document.
    let thesis = env.path("links.json");
    std::fs::write(
        &thesis,
        r#"{"links": [["claim_08", "memo_05", "news_06"], ["claim_08", "ghost_99"]],
            "notes": [{"documents": ["news_06", "memo_05", "claim_08"], "note": "Priya Raman in the news"}]}"#,
    )
    .expect("write");
    let o = env.clam(&[
        "gold",
        "import",
        &sample(),
        thesis.to_str().expect("utf8"),
        "--session",
        session,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("skipped claim_08, ghost_99: with a document not in the corpus (ghost_99)")
            && err.contains("imported 1 gold chain(s); skipped 1"),
        "{err}"
    );

    // Headless export: every chain, ids in corpus order, the note as written.
    let file = env.path("gold_chains.json");
    let file_s = file.to_str().expect("utf8");
    let o = env.clam(&["gold", "export", &sample(), file_s, "--session", session]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("file")).expect("json");
    let links = v["links"].as_array().expect("links");
    assert_eq!(links.len(), expected.chains.len() + 1);
    assert!(links.contains(&serde_json::json!(["claim_08", "memo_05", "news_06"])));
    assert_eq!(v["notes"][0]["note"], "Priya Raman in the news");
    let back = clam::eval::gold::load_chains(&file).expect("reads back");
    assert_eq!(back.chains.len(), links.len());
    let o = env.clam(&["gold", "export", &sample(), file_s, "--session", session]);
    assert_eq!(o.status.code(), Some(1), "an existing file needs --force");

    // Every export writes gold_chains.json, redacted like the rest (leak check passed).
    // With 41 decisions, decisions.jsonl's `"seq": 34` reads as the masked age 34 of
    // sample_corpus: clam's own figures are not document text, so the leak check
    // lets it pass and the audit log keeps its numbers — its clock too (05:34 is not
    // the age 34).
    {
        let db = rusqlite::Connection::open(session).expect("session db");
        db.execute(
            "UPDATE audit_log SET time = '2026-11-24T05:34:34Z' WHERE seq = 2",
            [],
        )
        .expect("set a time");
    }
    let out = env.path("out");
    let o = env.clam(&[
        "run",
        &sample(),
        "--out",
        out.to_str().expect("utf8"),
        "--session",
        session,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(out.join("gold_chains.json")).expect("gold in export");
    let v: Value = serde_json::from_str(&text).expect("json");
    assert_eq!(v["links"].as_array().expect("links").len(), links.len());
    assert!(!contains_word(&text, "Priya Raman"), "{text}");
    let log = std::fs::read_to_string(out.join("decisions.jsonl")).expect("decisions");
    assert_eq!(log.lines().count(), links.len());
    let seq34: Value = serde_json::from_str(log.lines().nth(33).expect("line 34")).expect("json");
    assert_eq!(seq34["seq"], 34, "{seq34}");
    let seq33: Value = serde_json::from_str(log.lines().nth(32).expect("line 33")).expect("json");
    assert_eq!(seq33["seq"], 33);
    let seq2: Value = serde_json::from_str(log.lines().nth(1).expect("line 2")).expect("json");
    assert_eq!(seq2["time"], "2026-11-24T05:34:34Z", "{seq2}");
    assert!(text.contains("in the news"), "{text}");

    // A bad gold file fails naming it, before anything is written.
    let o = env.clam(&[
        "gold",
        "import",
        &sample(),
        out.join("manifest.json").to_str().expect("utf8"),
        "--session",
        session,
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("manifest.json"), "{}", stderr(&o));
}

#[test]
fn sweep_prints_one_row_per_value_as_json_csv_and_a_table() {
    let env = Env::new();
    let args = |extra: &[&str]| {
        let mut a = vec![
            "sweep",
            &sample(),
            "--param",
            "theta_chain",
            "--from",
            "0",
            "--to",
            "1",
            "--step",
            "0.25",
        ]
        .into_iter()
        .map(String::from)
        .collect::<Vec<_>>();
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |extra: &[&str]| {
        let a = args(extra);
        env.clam(&a.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let o = run(&["--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: Vec<Value> = serde_json::from_slice(&o.stdout).expect("json");
    let values: Vec<f64> = rows.iter().filter_map(|r| r["value"].as_f64()).collect();
    assert_eq!(values, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    for r in &rows {
        let keys: Vec<&str> = r
            .as_object()
            .expect("row")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys.len(),
            7,
            "value, masked, max/mean chain risk, high/medium/low: {keys:?}"
        );
        assert!(r["mean_chain_risk"].as_f64() <= r["max_chain_risk"].as_f64());
    }
    // At theta_chain 0 every chain is brought to 0.
    assert_eq!(rows[0]["max_chain_risk"].as_f64(), Some(0.0));
    // The row at the default 0.5 is the plan `analyze` reports.
    let a = env.clam(&["analyze", &sample(), "--json"]);
    let analysed: Value = serde_json::from_slice(&a.stdout).expect("json");
    let masks = analysed["masks"].as_array().map(Vec::len);
    assert_eq!(rows[2]["masked"].as_u64().map(|n| n as usize), masks);

    let o = run(&["--csv", "--gold", &format!("{}/gold/gold.json", sample())]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let csv = String::from_utf8_lossy(&o.stdout).to_string();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "value,masked,max_chain_risk,mean_chain_risk,high,medium,low,f1,leak_rate"
    );
    assert_eq!(lines.len(), 6);
    let third: Vec<&str> = lines[3].split(',').collect();
    assert_eq!(third[0], "0.5");
    assert_eq!(third[1], rows[2]["masked"].to_string());
    let f1: f64 = third[7].parse().expect("f1");
    assert!(
        (f1 - 0.964).abs() < 0.001,
        "sample corpus chain pairs F1: {f1}"
    );
    // The leak rate at the value in effect is the one `clam eval` reports, and
    // masking less (theta_chain 1) never leaks less than masking more (0).
    let leak: Vec<f64> = lines[1..]
        .iter()
        .map(|l| {
            l.rsplit(',')
                .next()
                .expect("leak")
                .parse()
                .expect("leak rate")
        })
        .collect();
    let e = env.clam(&[
        "eval",
        &sample(),
        "--gold",
        &format!("{}/gold/gold.json", sample()),
        "--json",
    ]);
    let evaluated: Value = serde_json::from_slice(&e.stdout).expect("json");
    let expected = evaluated["privacy"]["leak_rate"]
        .as_f64()
        .expect("leak rate");
    assert!((leak[2] - expected).abs() < 1e-12, "{leak:?} vs {expected}");
    assert!(leak[0] <= leak[4], "{leak:?}");

    let table = run(&[]);
    let text = String::from_utf8_lossy(&table.stdout).to_string();
    assert!(
        text.contains("THETA_CHAIN") && text.contains("MAX RISK"),
        "{text}"
    );

    let o = env.clam(&[
        "sweep",
        &sample(),
        "--param",
        "theta_chain",
        "--from",
        "0",
        "--to",
        "1",
        "--step",
        "0.0001",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("at most 1000"), "{}", stderr(&o));
    let o = env.clam(&[
        "sweep",
        &sample(),
        "--param",
        "theta",
        "--from",
        "0",
        "--to",
        "1",
        "--step",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown parameter"), "{}", stderr(&o));
}

#[test]
fn adopted_what_if_settings_in_the_session_apply_to_analyze_and_sweep() {
    use clam::session::{AuditAction, Decision, Session};
    let env = Env::new();
    let o = env.clam(&[
        "sweep",
        &sample(),
        "--param",
        "theta_chain",
        "--from",
        "0.3",
        "--to",
        "0.5",
        "--step",
        "0.2",
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: Vec<Value> = serde_json::from_slice(&o.stdout).expect("json");
    let (at_03, at_05) = (rows[0]["masked"].as_u64(), rows[1]["masked"].as_u64());
    assert_ne!(
        at_03, at_05,
        "theta_chain 0.3 changes the plan of sample_corpus"
    );
    let session = env.path("review.sqlite");
    Session::open(&session)
        .expect("session")
        .append(&Decision {
            actor: "analyst".into(),
            action: AuditAction::Settings {
                old: [("theta_chain".to_string(), "0.5".to_string())].into(),
                new: [("theta_chain".to_string(), "0.3".to_string())].into(),
            },
            reason: None,
            state_before: None,
            state_after: None,
            config_hash: String::new(),
        })
        .expect("append");
    let session = session.to_str().expect("utf8");
    let a = env.clam(&["analyze", &sample(), "--json", "--session", session]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let v: Value = serde_json::from_slice(&a.stdout).expect("json");
    assert_eq!(
        v["masks"].as_array().map(|m| m.len() as u64),
        at_03,
        "analyze plans with the adopted theta_chain"
    );
    // A sweep starts from the adopted settings too: its row at 0.5 is unchanged.
    let o = env.clam(&[
        "sweep",
        &sample(),
        "--param",
        "theta_chain",
        "--from",
        "0.5",
        "--to",
        "0.5",
        "--step",
        "0.1",
        "--json",
        "--session",
        session,
    ]);
    let rows: Vec<Value> = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(rows[0]["masked"].as_u64(), at_05);
}

/// Does `text` hold `word` not glued to letters or digits (so "0177" inside a random
/// hex export id or pseudonym is not a leak, and "555-0177" is)?
fn has_word(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + word.len()..].chars().next();
        !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
    })
}

/// Every way `tests/data/adversarial` writes its two people's identifiers (see
/// tests/data/adversarial.md), as a naive oracle: after an export in any mode, none
/// of them is in any exported file or file name, and no two documents share an id.
#[test]
fn the_adversarial_corpus_exports_without_a_leak_in_every_mode() {
    let corpus = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/adversarial");
    let forms = [
        "Edith",
        "Marlowe",
        "EdithMarlowe",
        "EDITH",
        "MARLOWE",
        "Mar-\nlowe",
        "Mar\u{200b}lowe",
        "Mar\u{ad}lowe",
        "\u{ff25}\u{ff24}\u{ff29}\u{ff34}\u{ff28}",
        "M\u{430}rlowe",
        "\u{415}dith",
        "\u{c9}dith",
        "Marl\u{f6}we",
        "Tomasz",
        "Wierzbicki",
        "0177",
        "\u{ff10}\u{ff11}\u{ff17}\u{ff17}",
        "40311",
        "\u{ff14}\u{ff10}\u{ff13}\u{ff11}\u{ff11}",
        "Lakeshore",
        "LAKESHORE",
        "0148",
        "88102",
    ];
    for mode in ["value", "redact", "pseudonym", "generalize"] {
        let env = Env::new();
        let out = env.path("out");
        let o = env.clam(&[
            "run",
            corpus.to_str().expect("utf8"),
            "--out",
            out.to_str().expect("utf8"),
            "--mode",
            mode,
        ]);
        assert_eq!(o.status.code(), Some(0), "{mode}: {}", stderr(&o));
        let mut ids = std::collections::BTreeSet::new();
        let mut stack = vec![out.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("read dir") {
                let path = entry.expect("entry").path();
                let name = path.to_string_lossy().to_string();
                let bytes = std::fs::read(&path).unwrap_or_default();
                // JSON escapes decoded: every string as a reader of the file sees it.
                let mut text = String::from_utf8_lossy(&bytes).to_string();
                if name.ends_with(".json")
                    && let Ok(v) = serde_json::from_slice::<Value>(&bytes)
                {
                    fn strings(v: &Value, out: &mut String) {
                        match v {
                            Value::String(s) => out.push_str(s),
                            Value::Number(n) => out.push_str(&n.to_string()),
                            Value::Array(a) => a.iter().for_each(|x| strings(x, out)),
                            Value::Object(o) => o.iter().for_each(|(k, x)| {
                                out.push_str(k);
                                out.push('\n');
                                strings(x, out);
                            }),
                            _ => {}
                        }
                        out.push('\n');
                    }
                    strings(&v, &mut text);
                    if name.contains("/redacted/") {
                        assert!(
                            ids.insert(v["id"].to_string()),
                            "{mode}: duplicate id {}",
                            v["id"]
                        );
                    }
                }
                for f in forms {
                    let rel = name
                        .strip_prefix(out.to_str().expect("utf8"))
                        .unwrap_or(&name);
                    assert!(!has_word(rel, f), "{mode}: {f:?} in the file name {rel}");
                    assert!(!has_word(&text, f), "{mode}: {f:?} survives in {rel}");
                }
                if path.is_dir() {
                    stack.push(path);
                }
            }
        }
        assert_eq!(ids.len(), 14, "{mode}");
    }
}

/// SPEC §5: no export field is a function of masked values that anyone can
/// recompute. Term lists of the configuration (a corpus folder's clam.toml and
/// --config) appear in manifest.json and report.md only as counts and file names,
/// and the configuration hash is keyed with the project key; the unkeyed md5 hashes
/// of an earlier version's session are keyed on export.
#[test]
fn the_export_shows_term_lists_as_counts_and_a_keyed_config_hash() {
    use clam::session::{AuditAction, Decision, Session};
    let env = Env::new();
    let corpus = env.path("corpus");
    std::fs::create_dir_all(&corpus).expect("mkdir");
    write(
        &corpus,
        "a.json",
        br#"{"id": "a", "content": "Quorra Vantablack was seen at the clinic. Member ID: MBR-448213."}"#,
    );
    write(
        &corpus,
        "b.json",
        br#"{"id": "b", "content": "Follow-up for Quorra Vantablack, member ID MBR-448213, by phone (555) 010-4417."}"#,
    );
    // The corpus's own clam.toml deny-lists a name that occurs and one that does not.
    write(
        &corpus,
        "clam.toml",
        b"[extract]\ndeny = { NAME = [\"Quorra Vantablack\", \"Ignatius Farthingale\"] }\n",
    );
    // The user's --config: an allow list, a term, and a gazetteer file in a folder.
    let policy = env.path("policy");
    std::fs::create_dir_all(policy.join("lists")).expect("mkdir");
    write(
        &policy.join("lists"),
        "rare.txt",
        b"# house list\nZorblatt syndrome\nKeffer palsy\n",
    );
    write(
        &policy,
        "clam.toml",
        b"[extract]\nallow = [\"Meridian Mutual Health\"]\n\
          gazetteer_terms = { TREATMENT = [\"Pexorabine\"] }\n\
          gazetteer_files = { MEDICAL_CONDITION = [\"lists/rare.txt\"] }\n",
    );
    // A session of an earlier version: its audit log holds an unkeyed md5 hash.
    let legacy = clam::hashing::md5_hex("{\"edge_threshold\":0.5}");
    let session = env.path("review.sqlite");
    {
        let mut s = Session::open(&session).expect("session");
        s.append(&Decision {
            actor: "auditor".into(),
            action: AuditAction::AcceptResidual {
                documents: vec!["a".into()],
            },
            reason: Some("reviewed".into()),
            state_before: None,
            state_after: None,
            config_hash: legacy.clone(),
        })
        .expect("append");
    }
    let config = policy.join("clam.toml");
    let run = |out: &Path, session: &Path| {
        env.clam(&[
            "run",
            corpus.to_str().expect("utf8"),
            "--config",
            config.to_str().expect("utf8"),
            "--out",
            out.to_str().expect("utf8"),
            "--session",
            session.to_str().expect("utf8"),
        ])
    };
    let out = env.path("out");
    let o = run(&out, &session);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let manifest = std::fs::read_to_string(out.join("manifest.json")).expect("manifest");
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    let decisions = std::fs::read_to_string(out.join("decisions.jsonl")).expect("decisions");
    for (name, text) in [
        ("manifest.json", &manifest),
        ("report.md", &report),
        ("decisions.jsonl", &decisions),
    ] {
        for term in [
            "Quorra",
            "Vantablack",
            "Ignatius",
            "Farthingale",
            "Meridian",
            "Pexorabine",
            "Zorblatt",
            "Keffer",
            "lists/",
            policy.to_str().expect("utf8"),
        ] {
            assert!(!text.contains(term), "{term} in {name}:\n{text}");
        }
    }
    let v: Value = serde_json::from_str(&manifest).expect("json");
    let x = &v["config"]["extract"];
    assert_eq!(x["deny"]["NAME"]["count"], 2, "{x}");
    assert_eq!(x["allow"]["count"], 1, "{x}");
    assert_eq!(x["gazetteer_terms"]["TREATMENT"]["count"], 1, "{x}");
    assert_eq!(x["gazetteer_terms"]["MEDICAL_CONDITION"]["count"], 2, "{x}");
    assert_eq!(
        x["gazetteer_files"]["MEDICAL_CONDITION"],
        serde_json::json!([{"file": "rare.txt", "terms": 2}]),
        "{x}"
    );
    assert_eq!(v["config"]["edge_threshold"], 0.5, "scalars stay");
    assert!(
        report.contains("| configured terms: gazetteer / allow / deny | 3 / 1 / 2 |"),
        "{report}"
    );
    assert!(
        report.contains("rare.txt (MEDICAL_CONDITION, 2 terms)"),
        "{report}"
    );

    // The hash: HMAC-SHA256 under the project key, in the manifest and the report.
    let hash = v["config_hash"].as_str().expect("config_hash").to_string();
    let is_hex64 = |h: &str| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit());
    assert!(is_hex64(&hash), "{hash}");
    assert!(report.contains(&hash), "{report}");
    // The legacy md5 of the audit log is keyed on export.
    let entry: Value =
        serde_json::from_str(decisions.lines().next().expect("a line")).expect("json");
    let logged = entry["config_hash"].as_str().expect("logged hash");
    assert!(is_hex64(logged) && logged != legacy, "{logged}");
    assert!(!decisions.contains(&legacy), "{decisions}");
    // Stable for the same configuration and project; another project, another hash.
    let again = env.path("again");
    let o = run(&again, &session);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v2: Value = serde_json::from_str(
        &std::fs::read_to_string(again.join("manifest.json")).expect("manifest"),
    )
    .expect("json");
    assert_eq!(v2["config_hash"], v["config_hash"]);
    let other = env.path("other");
    let o = run(&other, &env.path("other.sqlite"));
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v3: Value = serde_json::from_str(
        &std::fs::read_to_string(other.join("manifest.json")).expect("manifest"),
    )
    .expect("json");
    assert_ne!(v3["config_hash"], v["config_hash"]);
}
