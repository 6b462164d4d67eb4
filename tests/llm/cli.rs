//! The binary: --extractor llm, the key never on disk, cache clear, fallbacks and
//! refusals, dropped items per document.

use super::*;

#[test]
fn the_cli_extracts_with_the_llm_and_never_writes_the_key() {
    let server = Server::model();
    let env = common::Env::new();
    fake_model_config(&env, &server.base_url(), WITH_KEY);
    let snap1 = env.path("snap1.json");
    let o = clam_llm(
        &env,
        "extract",
        &sample(),
        &["--out", &snap1.display().to_string()],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(
        err.contains(&server.base_url()),
        "the endpoint is shown: {err}"
    );
    assert!(err.contains("0 fallback(s)"), "{err}");
    let sent = server.count();
    assert_eq!(sent, 50, "25 documents, two passes");
    for r in server.requests() {
        assert_eq!(r.auth.as_deref(), Some(format!("Bearer {KEY}").as_str()));
    }

    // Second run: nothing sent, byte-identical snapshot.
    let snap2 = env.path("snap2.json");
    let o = clam_llm(
        &env,
        "extract",
        &sample(),
        &["--out", &snap2.display().to_string()],
    );
    assert!(o.status.success());
    assert_eq!(server.count(), sent, "second run served from the cache");
    assert_eq!(
        std::fs::read(&snap1).unwrap(),
        std::fs::read(&snap2).unwrap()
    );

    // analyze and run record the extractor, endpoint and model.
    let o = clam_llm(&env, "analyze", &sample(), &["--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["extractor"], "llm");
    assert_eq!(v["llm"]["model"], "fake");
    assert_eq!(v["llm"]["fallbacks"], 0);
    assert_eq!(v["documents"][0]["extraction"]["source"], "llm");
    let out = env.path("export");
    let o = clam_llm(
        &env,
        "run",
        &sample(),
        &["--out", &out.display().to_string()],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let manifest: Value = crate::common::manifest(&out);
    assert_eq!(manifest["extractor"], "llm");
    assert_eq!(
        manifest["llm"]["endpoint"],
        format!("{}/chat/completions", server.base_url())
    );
    assert_eq!(manifest["llm"]["model"], "fake");
    assert_eq!(server.count(), sent, "run and analyze hit the cache too");

    // The key is nowhere on disk: cache, snapshots, export, session, logs.
    let mut scanned = 0;
    for p in files_under(env.home.path()) {
        let bytes = std::fs::read(&p).unwrap();
        let text = String::from_utf8_lossy(&bytes);
        assert!(!text.contains(KEY), "the API key is in {}", p.display());
        scanned += 1;
    }
    assert!(
        files_under(&env.path("cache/clam/llm")).len() == 50,
        "cache entries"
    );
    assert!(scanned > 50);

    let o = clam(&env, &["cache", "clear"]);
    assert!(o.status.success());
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("removed 50"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(!env.path("cache/clam/llm").exists());
}

#[test]
fn the_cli_falls_back_and_says_so() {
    let env = common::Env::new();
    fake_model_config(
        &env,
        &format!("http://127.0.0.1:{}/v1", refused_port()),
        "max_retries = 0\n",
    );
    let o = clam_llm(
        &env,
        "analyze",
        &sample(),
        &["--no-cache", "--allow-fallback"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("25 fallback(s)"), "{out}");
    assert!(
        out.contains("fallback") && out.contains("cannot connect"),
        "{out}"
    );
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("fell back to the offline extractor"), "{err}");
}

#[test]
fn the_cli_refuses_llm_in_a_corpus_clam_toml_and_remote_without_opt_in() {
    let env = common::Env::new();
    let corpus = env.path("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(corpus.join("a.txt"), "Dana Whitfield has lupus nephritis.").unwrap();
    std::fs::write(
        corpus.join("clam.toml"),
        "[llm]\nbase_url = \"https://evil.example/v1\"\n",
    )
    .unwrap();
    let o = clam(&env, &["analyze", &corpus.display().to_string()]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&corpus.join("clam.toml").display().to_string()) && err.contains("[llm]"),
        "{err}"
    );

    std::fs::remove_file(corpus.join("clam.toml")).unwrap();
    user_config(
        &env,
        "[llm]\nbase_url = \"https://llm.example.com/v1\"\nmodel = \"m\"\n",
    );
    let o = clam_llm(&env, "analyze", &corpus.display().to_string(), &[]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("https://llm.example.com/v1") && err.contains("--allow-remote"),
        "{err}"
    );
    // The offline extractor needs no opt-in.
    assert!(
        clam(&env, &["analyze", &corpus.display().to_string()])
            .status
            .success()
    );
}

#[test]
fn the_cli_shows_dropped_and_unlocated_items_per_document() {
    let server = Server::start(|req, _| {
        if req.pass == "context" || !req.doc.contains("lupus") {
            return Reply::Content("{\"entities\": []}".into());
        }
        Reply::Content(
            json!({"entities": [
                ["lupus nephritis", "lupus nephritis", "MEDICAL_CONDITION", 0.9],
                ["x", "x", "SHOE_SIZE", 0.5],
                ["lupus"],
                ["Atlantis General", "atlantis general", "PROVIDER", 0.9]
            ]})
            .to_string(),
        )
    });
    let env = common::Env::new();
    let corpus = env.path("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(corpus.join("a.txt"), "Dana has lupus nephritis.").unwrap();
    std::fs::write(corpus.join("b.txt"), "Nothing here.").unwrap();
    fake_model_config(&env, &server.base_url(), "");
    let o = clam_llm(&env, "analyze", &corpus.display().to_string(), &[]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        out.contains("dropped 2 (shape 1, type 1, relevance 0), unlocated 1"),
        "{out}"
    );
    assert!(out.contains("2 invalid item(s) dropped"), "{out}");
    assert!(
        !out.lines()
            .any(|l| l.trim_start().starts_with("b ") && l.contains("dropped")),
        "clean documents are not listed: {out}"
    );
    let o = clam_llm(&env, "analyze", &corpus.display().to_string(), &["--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["documents"][0]["unlocated"], 1);
    assert_eq!(
        v["documents"][0]["extraction"]["dropped"]["unknown_type"],
        1
    );
    assert_eq!(v["llm"]["dropped"]["shape"], 1);
}
