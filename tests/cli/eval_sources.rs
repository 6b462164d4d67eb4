//! `clam eval` with the LLM extractor (a real chat-completions server on 127.0.0.1)
//! and on a snapshot: extraction quality measured the same way as offline.

use super::*;

use fake_llm::Server;

/// `clam eval SAMPLE --gold … --json EXTRA…` (exit 0), its report.
fn eval_json(env: &Env, extra: &[&str], vars: &[(&str, &str)]) -> Value {
    let corpus = sample();
    let gold = Path::new(&corpus).join("gold").join("gold.json");
    let gold = gold.to_str().expect("utf8");
    let mut args = vec!["eval", &corpus, "--gold", gold, "--json"];
    args.extend_from_slice(extra);
    let o = env.clam_with(&args, vars);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("json")
}

/// The report without the field naming where the entities came from.
fn figures(mut v: Value) -> Value {
    if let Some(o) = v.as_object_mut() {
        o.remove("extractor");
    }
    v
}

#[test]
fn eval_measures_a_snapshot_as_the_extraction_it_was_taken_from() {
    let env = Env::new();
    let snap = env.path("snap.json");
    let snap_s = snap.to_str().expect("utf8");
    let o = env.clam(&["extract", &sample(), "--out", snap_s]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let direct = eval_json(&env, &[], &[]);
    let from_snapshot = eval_json(&env, &["--snapshot", snap_s], &[]);
    assert_eq!(direct["extractor"], "offline");
    assert_eq!(from_snapshot["extractor"], "snapshot");
    assert!(
        direct["chains"]["pairs"]["f1"].as_f64().is_some(),
        "{}",
        direct["chains"]
    );
    assert_eq!(figures(direct), figures(from_snapshot));

    // A snapshot of another corpus is refused, naming the documents.
    let other = corpus_with(&env, &[("a.json", GOOD.as_bytes())]);
    let other_snap = env.path("other.json");
    let o = env.clam(&[
        "extract",
        other.to_str().expect("utf8"),
        "--out",
        other_snap.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let gold = Path::new(&sample()).join("gold").join("gold.json");
    let o = env.clam(&[
        "eval",
        &sample(),
        "--gold",
        gold.to_str().expect("utf8"),
        "--snapshot",
        other_snap.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("does not match the corpus")
            && err.contains("25 document(s) of the corpus not in the snapshot")
            && err.contains("good_1"),
        "{err}"
    );
    // A snapshot is the extraction: no extractor to choose as well.
    let o = env.clam(&[
        "eval",
        &sample(),
        "--gold",
        gold.to_str().expect("utf8"),
        "--snapshot",
        snap_s,
        "--extractor",
        "llm",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
}

#[test]
fn eval_measures_the_llm_extractor_and_its_snapshot_alike() {
    let server = Server::model();
    let env = Env::new();
    let dir = env.path("config/clam");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(
        dir.join("clam.toml"),
        format!(
            "[llm]\nbase_url = \"{}\"\nmodel = \"fake\"\nbackoff_ms = 10\n",
            server.base_url()
        ),
    )
    .expect("write");
    let offline = eval_json(&env, &[], &[]);
    let llm = eval_json(&env, &["--extractor", "llm"], &[]);
    assert_eq!(llm["extractor"], "llm");
    assert_eq!(server.count(), 50, "25 documents, two passes each");
    for key in ["chains", "mentions", "entities", "privacy"] {
        assert!(!llm[key].is_null(), "{key}: {llm}");
    }
    assert_ne!(
        figures(offline)["mentions"],
        figures(llm.clone())["mentions"],
        "the model's entities are measured, not the offline extractor's"
    );
    // The same extraction as a snapshot (from the cache: nothing sent again) gives the
    // same figures.
    let snap = env.path("llm.json");
    let o = env.clam(&[
        "extract",
        &sample(),
        "--extractor",
        "llm",
        "--out",
        snap.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(server.count(), 50);
    let from_snapshot = eval_json(&env, &["--snapshot", snap.to_str().expect("utf8")], &[]);
    assert_eq!(figures(llm), figures(from_snapshot));
}
