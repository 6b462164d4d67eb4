//! Generated corpora and gold persons: gen-corpus, eval, gold import and export.

use super::*;

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
    let o = run_to(&env, sample(), &out, &["--session", session]);
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
