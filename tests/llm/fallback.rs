//! Fallbacks as the binary reports them: every document falling back is an error
//! unless --allow-fallback, the snapshot marks the documents that fell back, and the
//! manifest records the response format when every answer came from the cache.

use super::*;

/// A server that answers every request with a 500 and the configuration that does
/// not retry.
fn failing_server(env: &common::Env) -> Server {
    let server =
        Server::start(|_, _| Reply::Raw(500, vec![], "{\"error\": \"model crashed\"}".into()));
    fake_model_config(env, &server.base_url(), "max_retries = 0\n");
    server
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).to_string()
}

#[test]
fn every_document_falling_back_is_an_error_and_nothing_is_written() {
    let env = common::Env::new();
    let server = failing_server(&env);
    let out = env.path("export");
    let o = clam_llm(
        &env,
        "run",
        &sample(),
        &["--out", &out.display().to_string()],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error: the LLM extractor failed for all 25 document(s)")
            && err.contains("HTTP 500")
            && err.contains("--allow-fallback"),
        "{err}"
    );
    assert_eq!(server.count(), 25, "one local pass per document, no retry");
    assert!(!out.exists(), "nothing is exported");

    let snap = env.path("snap.json");
    let o = clam_llm(
        &env,
        "extract",
        &sample(),
        &["--out", &snap.display().to_string()],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(!snap.exists(), "no snapshot is written");

    // analyze prints no analysis: with --json, the error object only.
    let o = clam_llm(&env, "analyze", &sample(), &["--json"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    let message = v["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("failed for all 25"), "{v}");
    assert!(v.get("documents").is_none(), "{v}");
}

#[test]
fn allow_fallback_goes_on_with_a_warning_and_the_snapshot_marks_the_fallbacks() {
    let env = common::Env::new();
    let _server = failing_server(&env);
    let out = env.path("export");
    let o = clam_llm(
        &env,
        "run",
        &sample(),
        &["--out", &out.display().to_string(), "--allow-fallback"],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: the LLM extractor failed for all 25 document(s)")
            && err.contains("HTTP 500"),
        "{err}"
    );
    assert!(!err.contains("error:"), "{err}");
    let manifest = common::manifest(&out);
    assert_eq!(manifest["llm"]["fallbacks"], 25);

    let snap = env.path("snap.json");
    let o = clam_llm(
        &env,
        "extract",
        &sample(),
        &["--out", &snap.display().to_string(), "--allow-fallback"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&snap).unwrap()).unwrap();
    assert_eq!(v["fallbacks"], 25);
    let docs = v["documents"].as_array().unwrap();
    assert_eq!(docs.len(), 25);
    for d in docs {
        let why = d["fallback"].as_str().unwrap_or_default();
        assert!(why.contains("HTTP 500"), "{d}");
    }
    // The offline extractor's entities are there.
    assert!(
        docs.iter()
            .any(|d| !d["entities"].as_array().unwrap().is_empty())
    );
    // The marked snapshot is read like any other.
    let o = clam(&env, &["plan", &snap.display().to_string()]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

#[test]
fn some_documents_falling_back_is_a_warning_and_only_they_are_marked() {
    let server = Server::start(|req, _| {
        if req.doc.contains("Dana") {
            Reply::Raw(503, vec![], "{\"error\": \"busy\"}".into())
        } else {
            Reply::Model
        }
    });
    let env = common::Env::new();
    fake_model_config(&env, &server.base_url(), "max_retries = 0\n");
    let corpus = env.path("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(
        corpus.join("a.txt"),
        "Dana Whitfield has lupus nephritis. E-mail dana.w@example.org.",
    )
    .unwrap();
    std::fs::write(
        corpus.join("b.txt"),
        "A baker from Port Calder ran the Lakeshore Triathlon.",
    )
    .unwrap();
    let snap = env.path("snap.json");
    let o = clam_llm(
        &env,
        "extract",
        &corpus.display().to_string(),
        &["--out", &snap.display().to_string()],
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("warning: a: fell back to the offline extractor"),
        "{err}"
    );
    assert!(err.contains("1 fallback(s)"), "{err}");
    assert!(!err.contains("failed for all"), "{err}");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&snap).unwrap()).unwrap();
    assert_eq!(v["fallbacks"], 1);
    assert!(
        v["documents"][0]["fallback"]
            .as_str()
            .unwrap_or_default()
            .contains("HTTP 503"),
        "{v}"
    );
    assert!(v["documents"][1].get("fallback").is_none(), "{v}");

    // The offline extractor writes neither mark.
    let off = env.path("offline.json");
    let o = clam(
        &env,
        &[
            "extract",
            &corpus.display().to_string(),
            "--out",
            &off.display().to_string(),
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(&off).unwrap();
    assert!(!text.contains("fallback"), "{text}");
}

#[test]
fn the_manifest_records_the_response_format_when_every_answer_is_cached() {
    // The server refuses json_schema, so the format in effect is json_object.
    let server = Server::start(
        |req, _| match req.body["response_format"]["type"].as_str() {
            Some("json_schema") => {
                Reply::Raw(400, vec![], "{\"error\": \"response_format\"}".into())
            }
            _ => Reply::Model,
        },
    );
    let env = common::Env::new();
    fake_model_config(&env, &server.base_url(), "");
    let mut formats = Vec::new();
    let mut sent = Vec::new();
    for name in ["first", "second"] {
        let out = env.path(name);
        let o = clam_llm(
            &env,
            "run",
            &sample(),
            &["--out", &out.display().to_string()],
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        formats.push(common::manifest(&out)["llm"]["response_format"].clone());
        sent.push(server.count());
    }
    assert!(sent[0] >= 50, "{sent:?}");
    assert_eq!(
        sent[1], sent[0],
        "the second run is answered from the cache"
    );
    assert_eq!(formats, [json!("json_object"), json!("json_object")]);
}
