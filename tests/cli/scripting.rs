//! What scripts rely on: errors as JSON with `--json`, skipped input as objects,
//! `--verbose` and `--quiet`.

use super::*;

/// The one JSON error object a command printed on stdout.
fn json_error(o: &Output) -> Value {
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    let v: Value = serde_json::from_str(text.trim()).unwrap_or_else(|e| panic!("{e}: {text}"));
    v["error"].clone()
}

#[test]
fn with_json_an_error_is_an_object_with_kind_file_line_and_key() {
    let env = Env::new();
    let cfg = env.path("bad.toml");
    std::fs::write(&cfg, "edge_threshold = 0.4\ntheta_doc = 1.5\n").expect("write");
    let cfg_s = cfg.to_str().expect("utf8");
    let o = env.clam(&["analyze", &sample(), "--json", "--config", cfg_s]);
    assert_eq!(o.status.code(), Some(1), "exit codes unchanged");
    let e = json_error(&o);
    assert_eq!(e["kind"], "config");
    assert_eq!(e["file"], cfg_s);
    assert_eq!(e["line"], 2);
    assert_eq!(e["key"], "theta_doc");
    assert_eq!(e["message"], "1.5 is outside [0, 1]");
    assert!(stderr(&o).contains("error: "), "people still read stderr");
    // Without --json, stdout stays empty.
    let o = env.clam(&["analyze", &sample(), "--config", cfg_s]);
    assert_eq!(o.status.code(), Some(1));
    assert!(o.stdout.is_empty());

    // A flag's bad value and an unknown flag: usage errors (2), naming the key.
    let o = env.clam(&["analyze", &sample(), "--json", "--theta-doc", "7"]);
    assert_eq!(o.status.code(), Some(2));
    let e = json_error(&o);
    assert_eq!(
        (e["kind"].as_str(), e["key"].as_str()),
        (Some("usage"), Some("theta_doc"))
    );
    assert_eq!(e["file"], Value::Null);
    let o = env.clam(&["sweep", &sample(), "--json", "--frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(json_error(&o)["kind"], "usage");

    // A missing corpus, and an entity no decision can find.
    let missing = env.path("nowhere");
    let o = env.clam(&["analyze", missing.to_str().expect("utf8"), "--json"]);
    assert_eq!(o.status.code(), Some(1));
    let e = json_error(&o);
    assert_eq!(e["kind"], "input");
    assert_eq!(e["file"], missing.to_str().expect("utf8"));
    let session = env.path("s.sqlite");
    let o = env.clam(&[
        "decide",
        &sample(),
        "accept",
        "ffffffffffffffff",
        "--json",
        "--session",
        session.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = json_error(&o);
    assert_eq!(e["kind"], "not_found");
    assert!(
        e["message"]
            .as_str()
            .is_some_and(|m| m.contains("ffffffffffffffff")),
        "{e}"
    );
    // A bad line of a request file: the file, its line and the key.
    let file = env.path("d.jsonl");
    std::fs::write(&file, "{\"action\": \"accept\", \"entity\": \"x\"}\n{\"action\": \"override\", \"entity\": \"x\"}\n").expect("write");
    let o = env.clam(&[
        "decide",
        &sample(),
        "--from",
        file.to_str().expect("utf8"),
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let e = json_error(&o);
    assert_eq!(e["kind"], "request");
    assert_eq!(
        (e["line"].as_u64(), e["key"].as_str()),
        (Some(2), Some("reason"))
    );
}

#[test]
fn skipped_input_is_listed_as_objects() {
    let env = Env::new();
    let corpus = corpus_with(
        &env,
        &[("a.json", GOOD.as_bytes()), ("b.json", b"{not json")],
    );
    let bad_lines = env.path("lines.jsonl");
    std::fs::write(&bad_lines, format!("{GOOD}\n{{\"id\": \"x\"}}\n")).expect("write");
    let o = env.clam(&["analyze", corpus.to_str().expect("utf8"), "--json"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    let s = &v["skipped"][0];
    assert_eq!(s["file"], "b.json");
    assert!(s.get("line").is_none(), "no line for a whole file: {s}");
    assert!(s["reason"].as_str().is_some_and(|r| !r.is_empty()), "{s}");
    let o = env.clam(&["analyze", bad_lines.to_str().expect("utf8"), "--json"]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["skipped"][0]["line"], 2, "{}", v["skipped"]);
    // The manifest lists them the same way.
    let out = env.path("out");
    let o = run_to(&env, &corpus, &out, &[]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    let m: Value = crate::common::manifest(&out);
    assert_eq!(m["corpus"]["skipped"][0]["file"], "b.json");
}

#[test]
fn verbose_prints_phase_timings_and_conflicts_with_quiet() {
    let env = Env::new();
    let corpus = corpus_with(&env, &[("a.json", GOOD.as_bytes())]);
    let corpus = corpus.to_str().expect("utf8");
    let o = env.clam(&["analyze", corpus, "-v"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for phase in ["load", "extract", "analyze", "plan"] {
        assert!(
            stderr(&o).contains(&format!("timing: {phase}=")),
            "{}",
            stderr(&o)
        );
    }
    let o = env.clam(&["analyze", corpus]);
    assert!(!stderr(&o).contains("timing:"), "{}", stderr(&o));
    let o = env.clam(&["analyze", corpus, "--verbose", "--quiet"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

/// The log names the command as it was typed, not an enum's discriminant.
#[test]
fn the_log_names_the_command() {
    let env = Env::new();
    let o = env.clam(&[
        "gold",
        "export",
        &sample(),
        &env.path("g.json").display().to_string(),
    ]);
    assert!(o.status.code().is_some(), "{}", stderr(&o));
    let o = env.clam(&["analyze", &sample()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log = std::fs::read_to_string(env.path("data/clam/logs/clam.log")).expect("the log");
    assert!(log.contains("command=\"analyze\""), "{log}");
    assert!(log.contains("command=\"gold export\""), "{log}");
    assert!(!log.contains("Discriminant"), "{log}");
}
