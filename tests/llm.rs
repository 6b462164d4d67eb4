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

mod common;
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

// ---------------------------------------------------------------------------
// Both passes and the context filter
// ---------------------------------------------------------------------------

#[test]
fn both_passes_run_and_the_context_is_filtered() {
    let server = Server::model();
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "");
    let r = run(&c, &dirs.no_cache(), &docs());
    let reqs = server.requests();
    assert_eq!(
        reqs.len(),
        6,
        "one local and one context request per document"
    );
    assert_eq!(reqs.iter().filter(|r| r.pass == "local").count(), 3);
    for req in &reqs {
        assert_eq!(req.body["model"], "fake");
        assert_eq!(req.body["temperature"], 0.01);
        assert!(req.auth.is_none(), "no key configured, no header");
    }
    let ctx = |doc: &str| -> Vec<[String; 2]> {
        reqs.iter()
            .find(|r| r.pass == "context" && r.doc.starts_with(doc))
            .unwrap()
            .existing
            .clone()
    };
    // Document b sees a's condition, provider and place; never a's name (a direct
    // identifier), never the corpus-wide "massachusetts" (u(e) = 0: filter score 0).
    let b = ctx("A night-shift");
    assert!(
        b.contains(&["lupus nephritis".into(), "MEDICAL_CONDITION".into()]),
        "{b:?}"
    );
    assert!(
        b.contains(&["harbor view clinic".into(), "PROVIDER".into()]),
        "{b:?}"
    );
    assert!(
        !b.iter()
            .any(|[_, t]| t == "NAME" || t == "EMAIL" || t == "PHONE_NUMBER"),
        "{b:?}"
    );
    assert!(!b.iter().any(|[v, _]| v == "massachusetts"), "{b:?}");
    // Document a's context holds nothing found only in a.
    let a = ctx("Ms. Dana Whitfield");
    assert!(
        !a.iter()
            .any(|[v, _]| v == "port calder" || v == "harbor view clinic"),
        "{a:?}"
    );
    assert!(
        a.contains(&["lakeshore triathlon".into(), "EVENT".into()]),
        "{a:?}"
    );
    // The context pass found what the local pass could not.
    assert!(values(&r, 1).contains(&"INDIRECT_IDENTIFIER:night-shift baker".into()));
    assert!(values(&r, 0).contains(&"MEDICAL_CONDITION:lupus nephritis".into()));
    assert_eq!(r.report.fallbacks, 0);
    assert!(
        r.report
            .documents
            .iter()
            .all(|d| d.source == Source::Llm && d.reason.is_none())
    );
}

#[test]
fn the_context_is_capped_highest_score_first() {
    let server = Server::model();
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "context_cap = 1\n");
    run(&c, &dirs.no_cache(), &docs());
    for req in server.requests().iter().filter(|r| r.pass == "context") {
        assert!(req.existing.len() <= 1, "{:?}", req.existing);
    }
    let strict = config(&server.base_url(), "entity_filter_strength = 1.0\n");
    let before = server.count();
    run(&strict, &dirs.no_cache(), &docs());
    let reqs = server.requests();
    assert!(
        reqs[before..]
            .iter()
            .filter(|r| r.pass == "context")
            .all(|r| r.existing.is_empty())
    );
}

#[test]
fn the_existing_entities_follow_the_thesis_filter() {
    let d = docs();
    let c = config("http://127.0.0.1:9/v1", "");
    let item = |v: &str, t: &str, r: f64| clam::entity::ExtractedItem {
        original: v.into(),
        normalized: String::new(),
        entity_type: t.into(),
        relevance: r,
        spans: vec![],
    };
    let items = vec![
        vec![
            item("lupus nephritis", "MEDICAL_CONDITION", 0.9),
            item("Massachusetts", "LOCATION", 1.0),
        ],
        vec![
            item("Massachusetts", "LOCATION", 1.0),
            item("lupus nephritis", "MEDICAL_CONDITION", 0.5),
        ],
        vec![
            item("Massachusetts", "LOCATION", 1.0),
            item("Lakeshore Triathlon", "EVENT", 0.39),
        ],
    ];
    let ex = clam::extract::llm::existing_entities(&d, &items, &c);
    // lupus nephritis: freq 2 of N = 3, u = ln(4/2)/ln 4 = 0.5, score 0.9 · 0.5 = 0.45.
    // Lakeshore Triathlon: u = 1, score 0.39 < 0.4. Massachusetts: u = 0.
    assert_eq!(
        ex[2],
        vec![[
            "lupus nephritis".to_string(),
            "MEDICAL_CONDITION".to_string()
        ]]
    );
    assert_eq!(ex[0], ex[2]);
}

// ---------------------------------------------------------------------------
// Validation and defence in depth
// ---------------------------------------------------------------------------

#[test]
fn invalid_entries_are_dropped_counted_and_shown() {
    let server = Server::start(|req, _| {
        if req.pass == "context" {
            return Reply::Content("{\"entities\": []}".into());
        }
        Reply::Content(
            json!({"entities": [
                ["lupus nephritis", "lupus nephritis", "MEDICAL_CONDITION", 0.9],
                ["x", "x", "SHOE_SIZE", 0.5],
                ["Massachusetts", "massachusetts", "LOCATION", 7],
                ["Massachusetts"],
                {"value": "Massachusetts"},
                ["Atlantis General", "atlantis general", "PROVIDER", 0.9]
            ]})
            .to_string(),
        )
    });
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "");
    let d = docs();
    let r = run(&c, &dirs.no_cache(), &d[..1]);
    let doc = &r.report.documents[0];
    assert_eq!(doc.dropped.unknown_type, 1);
    assert_eq!(doc.dropped.relevance, 1);
    assert_eq!(doc.dropped.shape, 2);
    assert_eq!(r.report.dropped.total(), 4);
    // The hallucinated provider reaches the store, which drops it as unlocated.
    let corpus = Corpus {
        documents: d[..1].to_vec(),
        ..Corpus::default()
    };
    let store = clam::workspace::finish_extraction(&corpus, &c, r.items);
    assert_eq!(store.docs[0].unlocated, 1);
    assert!(
        store
            .keys
            .values()
            .any(|k| k.normalized == "lupus nephritis")
    );
}

#[test]
fn direct_identifiers_survive_a_model_that_reports_nothing() {
    let server = Server::start(|_, _| Reply::Content("{\"entities\": []}".into()));
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "");
    let r = run(&c, &dirs.no_cache(), &docs());
    assert!(
        values(&r, 0).contains(&"EMAIL:dana.w@example.org".into()),
        "{:?}",
        values(&r, 0)
    );
    assert!(
        values(&r, 0).iter().any(|v| v.contains("Dana Whitfield")),
        "{:?}",
        values(&r, 0)
    );
    assert!(values(&r, 2).contains(&"PHONE_NUMBER:555-010-4417".into()));
    assert!(
        !values(&r, 0)
            .iter()
            .any(|v| v.starts_with("MEDICAL_CONDITION")),
        "only direct identifiers are added"
    );
    assert_eq!(r.report.fallbacks, 0);
    assert!(r.report.documents[0].offline_identifiers >= 2);
}

// ---------------------------------------------------------------------------
// Faults
// ---------------------------------------------------------------------------

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

#[test]
fn connection_refused_falls_back_after_the_retries() {
    let dirs = Dirs::new();
    let c = config(&format!("http://127.0.0.1:{}/v1", refused_port()), "");
    let r = run(&c, &dirs.no_cache(), &docs()[..1]);
    assert_fallback(&r, "cannot connect");
    assert_eq!(r.report.documents[0].passes[0].attempts, 3);
    assert_eq!(r.report.requests, 3, "first attempt + max_retries");
}

#[test]
fn server_errors_are_retried_then_fall_back() {
    for status in [500, 503] {
        let (r, server, _) = one_doc("", move |_, _| {
            Reply::Raw(status, vec![], "{\"error\": \"busy\"}".into())
        });
        assert_fallback(&r, &format!("HTTP {status}"));
        assert_eq!(server.count(), 3);
    }
}

#[test]
fn a_transient_503_is_retried_and_succeeds() {
    let (r, server, _) = one_doc("", |_, n| {
        if n == 0 {
            Reply::Raw(503, vec![], String::new())
        } else {
            Reply::Model
        }
    });
    assert_eq!(r.report.documents[0].source, Source::Llm);
    assert_eq!(r.report.documents[0].passes[0].attempts, 2);
    assert_eq!(server.count(), 3);
}

#[test]
fn http_429_honours_retry_after() {
    let (r, server, took) = one_doc("", |_, n| {
        if n == 0 {
            Reply::Raw(429, vec![("Retry-After", "1".into())], String::new())
        } else {
            Reply::Model
        }
    });
    assert_eq!(r.report.documents[0].source, Source::Llm);
    assert!(took >= Duration::from_millis(1000), "waited only {took:?}");
    assert_eq!(server.count(), 3);
}

#[test]
fn truncated_and_non_json_bodies_fall_back() {
    let (r, server, _) = one_doc("", |_, _| Reply::Truncated);
    assert_fallback(&r, "response body");
    assert_eq!(server.count(), 3);
    let (r, _, _) = one_doc("", |_, _| {
        Reply::Raw(200, vec![], "<html>gateway</html>".into())
    });
    assert_fallback(&r, "not JSON");
    let (r, _, _) = one_doc("", |_, _| Reply::Content("I cannot help with that.".into()));
    assert_fallback(&r, "no {\"entities\"");
}

#[test]
fn client_errors_are_not_retried_and_never_echo_the_key() {
    let server = Server::start(|req, _| {
        let echo = req.auth.clone().unwrap_or_default();
        Reply::Raw(401, vec![], format!("{{\"error\": \"bad key {echo}\"}}"))
    });
    let dirs = Dirs::new();
    // Any variable that is set serves as the key here (PATH: long and distinctive).
    let key = std::env::var("PATH").unwrap();
    let c = config(&server.base_url(), "api_key_env = \"PATH\"\n");
    let r = run(&c, &dirs.no_cache(), &docs()[..1]);
    assert_fallback(&r, "HTTP 401");
    assert_eq!(server.count(), 1, "a 401 is not retried");
    assert_eq!(r.report.documents[0].passes[0].attempts, 1);
    let all = serde_json::to_string(&r.report).unwrap();
    assert!(!all.contains(&key), "{all}");
    assert!(all.contains("<redacted>"), "{all}");
}

/// SPEC §5/§7: `user:pass@` in the base URL still authenticates (reqwest sends it as
/// basic authentication) but is never shown or written: not in the report, the
/// cache, the endpoint shown before sending, a refusal or a configuration error.
#[test]
fn url_credentials_authenticate_but_are_never_shown_or_written() {
    let server = Server::model();
    let dirs = Dirs::new();
    let c = config(
        &format!("http://user:secret@127.0.0.1:{}/v1", server.port),
        "",
    );
    let r = run(&c, &dirs.opts(), &docs());
    assert_eq!(r.report.fallbacks, 0, "{:?}", r.report.documents);
    let requests = server.requests();
    assert!(!requests.is_empty());
    for req in requests {
        // base64("user:secret")
        assert_eq!(req.auth.as_deref(), Some("Basic dXNlcjpzZWNyZXQ="));
    }
    assert_eq!(
        r.report.endpoint,
        format!("{}/chat/completions", server.base_url())
    );
    let all = serde_json::to_string(&r.report).unwrap();
    assert!(!all.contains("secret") && !all.contains("user:"), "{all}");
    let shown = LlmExtractor::new(&c, &dirs.opts()).unwrap().endpoint();
    assert_eq!(shown, format!("{}/chat/completions", server.base_url()));
    let cached = files_under(&dirs.tmp.path().join("cache"));
    assert_eq!(cached.len(), 6, "two passes of three documents");
    for p in cached {
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(
            !text.contains("secret") && !text.contains("user:"),
            "{}: {text}",
            p.display()
        );
    }
    // The cache is keyed without the credentials: the same server, no request.
    let again = run(&config(&server.base_url(), ""), &dirs.opts(), &docs());
    assert_eq!(again.report.requests, 0);

    // A refusal names the endpoint without credentials or a key in the query.
    let remote = config(
        "https://user:secret@llm.example.com/v1?api_key=k3y-value",
        "",
    );
    let e = LlmExtractor::new(&remote, &dirs.opts())
        .err()
        .expect("a remote endpoint is refused")
        .to_string();
    assert!(e.contains("https://llm.example.com/v1"), "{e}");
    assert!(
        !e.contains("secret") && !e.contains("user:") && !e.contains("k3y-value"),
        "{e}"
    );
    // So does a configuration error about the URL.
    let e = ConfigLayer::from_toml(
        "[llm]\nbase_url = \"http://user:secret@host:99999/v1\"",
        "c.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("llm.base_url") && e.contains("host:99999"),
        "{e}"
    );
    assert!(!e.contains("secret") && !e.contains("user:"), "{e}");
}

#[test]
fn a_stalled_response_times_out_and_falls_back() {
    let (r, server, took) = one_doc("timeout_secs = 1\nmax_retries = 1\n", |_, _| Reply::Stall);
    assert_fallback(&r, "timed out");
    assert_eq!(server.count(), 2);
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn a_slow_answer_within_the_timeout_is_used() {
    let (r, _, _) = one_doc("timeout_secs = 5\n", |_, _| {
        Reply::Slow(Duration::from_millis(300))
    });
    assert_eq!(r.report.documents[0].source, Source::Llm);
    assert!(values(&r, 0).contains(&"PROVIDER:Harbor View Clinic".into()));
}

#[test]
fn oversized_responses_are_cut_off() {
    let big = format!("{{\"entities\": [], \"pad\": \"{}\"}}", "x".repeat(4096));
    let (r, _, _) = one_doc(
        "max_response_bytes = 2048\nmax_retries = 0\n",
        move |_, _| Reply::Content(big.clone()),
    );
    assert_fallback(&r, "larger than 2048");
}

#[test]
fn a_failed_context_pass_keeps_the_local_pass() {
    let (r, _, _) = one_doc("max_retries = 0\n", |req, _| {
        if req.pass == "context" {
            Reply::Raw(500, vec![], String::new())
        } else {
            Reply::Model
        }
    });
    let d = &r.report.documents[0];
    assert_eq!(d.source, Source::Llm);
    assert!(
        d.reason
            .as_deref()
            .unwrap_or("")
            .contains("context pass failed"),
        "{d:?}"
    );
    assert!(values(&r, 0).contains(&"PROVIDER:Harbor View Clinic".into()));
}

#[test]
fn the_response_format_falls_back_when_refused() {
    let (r, server, _) = one_doc("", |req, _| {
        match req.body["response_format"]["type"].as_str() {
            Some("json_schema") => Reply::Raw(
                400,
                vec![],
                "{\"error\": \"response_format not supported\"}".into(),
            ),
            // llama-cpp-python answers an unknown response_format with a 500.
            Some("json_object") => Reply::Raw(
                500,
                vec![],
                "{\"error\": \"body.response_format.type: Input should be 'text'\"}".into(),
            ),
            _ => Reply::Content(format!(
                "Here you go:\n```json\n{}\n```",
                "{\"entities\": [[\"lupus nephritis\", \"lupus nephritis\", \"MEDICAL_CONDITION\", 0.9]]}"
            )),
        }
    });
    assert_eq!(r.report.documents[0].source, Source::Llm);
    assert!(values(&r, 0).contains(&"MEDICAL_CONDITION:lupus nephritis".into()));
    let formats: Vec<Value> = server
        .requests()
        .iter()
        .map(|r| r.body["response_format"]["type"].clone())
        .collect();
    assert_eq!(
        formats[..3],
        [json!("json_schema"), json!("json_object"), Value::Null]
    );
    assert_eq!(
        formats[3],
        Value::Null,
        "the context pass starts at the accepted format"
    );
    assert_eq!(
        r.report.response_format,
        Some(clam::extract::llm::settings::ResponseFormat::Text)
    );
}

#[test]
fn results_stream_through_the_channel() {
    use clam::extract::llm::LlmEvent;
    let server = Server::start(|req, _| {
        if req.doc.contains("night-shift") && req.pass == "local" {
            Reply::Raw(500, vec![], String::new())
        } else {
            Reply::Model
        }
    });
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "max_retries = 0\n");
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let ex = LlmExtractor::new(&c, &dirs.no_cache()).unwrap();
    let run = ex.run_blocking(&docs(), Some(tx)).unwrap();
    let mut events = Vec::new();
    while let Ok(e) = rx.try_recv() {
        events.push(e);
    }
    assert!(matches!(
        events[0],
        LlmEvent::Started {
            documents: 3,
            passes: 6
        }
    ));
    let passes = events
        .iter()
        .filter(|e| matches!(e, LlmEvent::Pass { .. }))
        .count();
    assert_eq!(passes, 6, "a skipped context pass is reported too");
    let local_a = events.iter().find_map(|e| match e {
        LlmEvent::Pass {
            index: 0,
            pass,
            items,
            ..
        } if pass.as_str() == "local" => Some(items.len()),
        _ => None,
    });
    assert!(local_a.unwrap() >= 3);
    let finished: Vec<(usize, Source)> = events
        .iter()
        .filter_map(|e| match e {
            LlmEvent::Document { index, report, .. } => Some((*index, report.source)),
            _ => None,
        })
        .collect();
    assert_eq!(
        finished,
        vec![
            (0, Source::Llm),
            (1, Source::Fallback),
            (2, Source::Fallback)
        ]
    );
    assert_eq!(run.report.fallbacks, 2);
}

#[test]
fn the_review_workspace_extracts_with_the_model_and_counts_fallbacks() {
    // `clam review --extractor llm`: the worker runs both passes on the app's
    // runtime, plans what arrives, and the header shows the fallbacks; at the end the
    // entities are those of the headless pipeline on the same answers.
    use clam::tui::app::JobEvent;
    let server = Server::start(|req, _| {
        if req.doc.contains("night-shift baker in") {
            Reply::Raw(500, vec![], String::new())
        } else {
            Reply::Model
        }
    });
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "max_retries = 0\n");
    let corpus = Corpus {
        documents: docs(),
        ..Corpus::default()
    };
    let ws = clam::workspace::Workspace::pending(corpus.clone(), c.clone(), None, "llm").unwrap();
    let mut app = clam::tui::App::new(
        ws,
        clam::tui::Theme::named("dark").unwrap(),
        clam::tui::Keymap::load(None).unwrap(),
        "tester".into(),
        "fixture".into(),
    );
    let llm = LlmExtractor::new(&c, &dirs.opts()).unwrap();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // The job `clam review` starts; its reports installed as the event loop does.
    app.start_llm_extraction(llm, rt.handle().clone());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let mut interim = 0;
    while app.jobs.any_running() {
        let m = app
            .jobs
            .recv_timeout(deadline)
            .expect("the job ends in time");
        if let JobEvent::Progress { done, .. } = m.event
            && done == 0
        {
            interim += 1;
        }
        app.on_job(m);
    }
    assert!(interim > 0, "local passes show before any document is done");
    assert!(app.is_ready());
    assert_eq!(app.progress.fallbacks, 1);
    let report = app.ws.llm().expect("the report reaches the workspace");
    assert_eq!(report.fallbacks, 1);
    assert!(
        app.ws
            .model()
            .entities
            .iter()
            .any(|e| e.value == "lupus nephritis"),
        "the model's entities are in the analysis"
    );
    let mut term = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 30)).unwrap();
    term.draw(|f| {
        clam::tui::ui::draw(f, &app);
    })
    .unwrap();
    let screen: String = term
        .backend()
        .buffer()
        .content()
        .iter()
        .map(|c| c.symbol())
        .collect();
    assert!(screen.contains("llm · "), "the extractor is named");
    assert!(screen.contains("1 fallback(s)"), "{screen}");
    // The same answers (now cached) through the headless path give the same entities.
    let run = LlmExtractor::new(&c, &dirs.opts())
        .unwrap()
        .run_blocking(&corpus.documents, None)
        .unwrap();
    assert_eq!(
        run.report.requests, 1,
        "answers come from the cache; only the failed document is asked again"
    );
    let headless = clam::workspace::finish_extraction(&corpus, &c, run.items);
    assert_eq!(app.ws.store().docs, headless.docs);
}

#[test]
fn queued_requests_ask_for_the_accepted_format() {
    let server = Server::start(
        |req, _| match req.body["response_format"]["type"].as_str() {
            Some("json_schema") => {
                Reply::Raw(422, vec![], "{\"detail\": \"response_format\"}".into())
            }
            _ => Reply::Model,
        },
    );
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "max_concurrency = 1\n");
    let r = run(&c, &dirs.no_cache(), &docs());
    assert_eq!(r.report.fallbacks, 0);
    let schema = server
        .requests()
        .iter()
        .filter(|r| r.body["response_format"]["type"] == "json_schema")
        .count();
    assert_eq!(schema, 1, "only the first request is refused");
    assert_eq!(server.count(), 7);
}

// ---------------------------------------------------------------------------
// Concurrency and cache
// ---------------------------------------------------------------------------

#[test]
fn never_more_than_max_concurrency_requests_in_flight() {
    let server = Server::start(|_, _| Reply::Slow(Duration::from_millis(150)));
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "max_concurrency = 3\n");
    let many: Vec<Document> = (0..10)
        .map(|i| {
            Document::new(
                format!("d{i}"),
                format!("Note {i}: lupus nephritis at Harbor View Clinic."),
            )
        })
        .collect();
    let r = run(&c, &dirs.no_cache(), &many);
    assert_eq!(server.count(), 20);
    assert_eq!(
        server.peak.load(Ordering::SeqCst),
        3,
        "bounded and actually concurrent"
    );
    assert_eq!(r.report.fallbacks, 0);
}

#[test]
fn a_second_run_is_served_from_the_cache() {
    let server = Server::model();
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "");
    let first = run(&c, &dirs.opts(), &docs());
    assert_eq!(server.count(), 6);
    let second = run(&c, &dirs.opts(), &docs());
    assert_eq!(server.count(), 6, "no request on the second run");
    assert_eq!(first.items, second.items);
    assert_eq!(second.report.cache_hits, 6);
    assert_eq!(second.report.requests, 0);
    assert_eq!(
        second.report.response_format, None,
        "no request, so no format to report"
    );
    // --no-cache asks again; a changed document or prompt misses.
    run(&c, &dirs.no_cache(), &docs());
    assert_eq!(server.count(), 12);
    let mut changed = docs();
    changed[0] = Document::new("a", "Dana Whitfield moved; lupus nephritis again.");
    run(&c, &dirs.opts(), &changed);
    assert!(server.count() > 12);
    let before = server.count();
    std::fs::write(
        dirs.tmp.path().join("prompts/local.md"),
        "=== user ===\nList the entities as JSON.\n\"\"\"\n{{document}}\n\"\"\"",
    )
    .unwrap();
    run(&c, &dirs.opts(), &docs());
    assert_eq!(
        server.count(),
        before + 3,
        "new local prompt: 3 local misses; contexts unchanged hit"
    );
}

// ---------------------------------------------------------------------------
// Configuration: remote opt-in, corpus clam.toml, validation
// ---------------------------------------------------------------------------

#[test]
fn a_remote_endpoint_needs_an_explicit_opt_in() {
    let dirs = Dirs::new();
    let c = config("https://llm.example.com/v1", "");
    let err = LlmExtractor::new(&c, &dirs.opts())
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("https://llm.example.com/v1/chat/completions"),
        "{err}"
    );
    assert!(
        err.contains("allow_remote") && err.contains("--allow-remote"),
        "{err}"
    );
    let opted = LlmOptions {
        allow_remote: true,
        ..dirs.opts()
    };
    assert!(LlmExtractor::new(&c, &opted).is_ok());
    assert!(
        LlmExtractor::new(
            &config("https://llm.example.com/v1", "allow_remote = true\n"),
            &dirs.opts()
        )
        .is_ok()
    );
    for local in [
        "http://localhost:8080/v1",
        "http://127.0.0.2:1/v1",
        "http://[::1]:8000/v1",
    ] {
        assert!(
            LlmExtractor::new(&config(local, ""), &dirs.opts()).is_ok(),
            "{local}"
        );
    }
}

#[test]
fn a_corpus_clam_toml_can_never_set_llm() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("clam.toml"),
        "theta_doc = 0.9\n[llm]\nmodel = \"x\"\n",
    )
    .unwrap();
    let err = resolve(&ConfigSources {
        corpus_dir: Some(dir.path().to_path_buf()),
        ..ConfigSources::default()
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains(&dir.path().join("clam.toml").display().to_string()),
        "{err}"
    );
    assert!(err.contains("[llm]"), "{err}");
    // Thresholds alone are fine.
    std::fs::write(dir.path().join("clam.toml"), "theta_doc = 0.9\n").unwrap();
    assert!(
        resolve(&ConfigSources {
            corpus_dir: Some(dir.path().to_path_buf()),
            ..ConfigSources::default()
        })
        .is_ok()
    );
}

#[test]
fn allow_remote_is_refused_in_a_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("team.toml");
    std::fs::write(
        &file,
        "[llm]\nbase_url = \"https://x.example/v1\"\nallow_remote = true\n",
    )
    .unwrap();
    let err = resolve(&ConfigSources {
        file: Some(file.clone()),
        ..ConfigSources::default()
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("team.toml") && err.contains("llm.allow_remote"),
        "{err}"
    );
    std::fs::write(
        &file,
        "[llm]\nbase_url = \"http://127.0.0.1:8080/v1\"\nmodel = \"m\"\n",
    )
    .unwrap();
    let c = resolve(&ConfigSources {
        file: Some(file),
        ..ConfigSources::default()
    })
    .unwrap();
    assert_eq!(c.llm.model, "m");
}

#[test]
fn llm_keys_are_validated_with_their_names() {
    for (toml, key) in [
        ("[llm]\nbase_url = \"ftp://x\"", "llm.base_url"),
        ("[llm]\ntemperature = 3.0", "llm.temperature"),
        ("[llm]\nmax_concurrency = 0", "llm.max_concurrency"),
        ("[llm]\nmax_entities = 0", "llm.max_entities"),
        ("[llm]\napi_key_env = \"sk-abc def\"", "llm.api_key_env"),
        (
            "[llm]\nentity_filter_strength = 1.5",
            "llm.entity_filter_strength",
        ),
    ] {
        let e = ConfigLayer::from_toml(toml, "c.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains(key), "{toml}: {e}");
    }
    let e = ConfigLayer::from_toml("[llm]\napi_key = \"sk-1\"", "c.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("api_key"), "{e}");
    let c = Config::default();
    assert_eq!(c.llm.temperature, 0.01);
    assert_eq!(c.llm.entity_filter_strength, 0.4);
    assert!(Schema::default().contains("NAME"));
}

// ---------------------------------------------------------------------------
// The binary: --extractor llm, the key never on disk, cache clear
// ---------------------------------------------------------------------------

const KEY: &str = "sk-test-7f3a9c1e5b2d4f6a8c0e";

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

#[test]
fn the_cli_extracts_with_the_llm_and_never_writes_the_key() {
    let server = Server::model();
    let env = common::Env::new();
    user_config(
        &env,
        &format!(
            "[llm]\nbase_url = \"{}\"\nmodel = \"fake\"\napi_key_env = \"CLAM_TEST_KEY\"\nbackoff_ms = 10\n",
            server.base_url()
        ),
    );
    let snap1 = env.path("snap1.json");
    let o = clam(
        &env,
        &[
            "extract",
            &sample(),
            "--extractor",
            "llm",
            "--out",
            &snap1.display().to_string(),
        ],
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
    let o = clam(
        &env,
        &[
            "extract",
            &sample(),
            "--extractor",
            "llm",
            "--out",
            &snap2.display().to_string(),
        ],
    );
    assert!(o.status.success());
    assert_eq!(server.count(), sent, "second run served from the cache");
    assert_eq!(
        std::fs::read(&snap1).unwrap(),
        std::fs::read(&snap2).unwrap()
    );

    // analyze and run record the extractor, endpoint and model.
    let o = clam(
        &env,
        &["analyze", &sample(), "--extractor", "llm", "--json"],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["extractor"], "llm");
    assert_eq!(v["llm"]["model"], "fake");
    assert_eq!(v["llm"]["fallbacks"], 0);
    assert_eq!(v["documents"][0]["extraction"]["source"], "llm");
    let out = env.path("export");
    let o = clam(
        &env,
        &[
            "run",
            &sample(),
            "--extractor",
            "llm",
            "--out",
            &out.display().to_string(),
        ],
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("manifest.json")).unwrap()).unwrap();
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
    user_config(
        &env,
        &format!(
            "[llm]\nbase_url = \"http://127.0.0.1:{}/v1\"\nmodel = \"fake\"\nmax_retries = 0\n",
            refused_port()
        ),
    );
    let o = clam(
        &env,
        &["analyze", &sample(), "--extractor", "llm", "--no-cache"],
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
    let o = clam(
        &env,
        &[
            "analyze",
            &corpus.display().to_string(),
            "--extractor",
            "llm",
        ],
    );
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
    user_config(
        &env,
        &format!(
            "[llm]\nbase_url = \"{}\"\nmodel = \"fake\"\n",
            server.base_url()
        ),
    );
    let o = clam(
        &env,
        &[
            "analyze",
            &corpus.display().to_string(),
            "--extractor",
            "llm",
        ],
    );
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
    let o = clam(
        &env,
        &[
            "analyze",
            &corpus.display().to_string(),
            "--extractor",
            "llm",
            "--json",
        ],
    );
    let v: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["documents"][0]["unlocated"], 1);
    assert_eq!(
        v["documents"][0]["extraction"]["dropped"]["unknown_type"],
        1
    );
    assert_eq!(v["llm"]["dropped"]["shape"], 1);
}

/// The response schema keeps a small model on the thesis's shape: at most
/// `max_entities` entries, each exactly four items, one-line values, a known type and
/// a relevance from a fixed grid (a grammar-constrained server such as llama.cpp turns
/// this into its grammar; a 270M model otherwise ran values across lines, wrote
/// -1000000000000000 as a relevance and repeated itself until `max_tokens` cut it off).
#[test]
fn the_response_schema_bounds_what_a_small_model_can_write() {
    let (r, server, _) = one_doc("max_entities = 5\n", |_, _| {
        Reply::Content("{\"entities\": []}".into())
    });
    assert_eq!(r.report.documents[0].source, Source::Llm);
    let reqs = server.requests();
    let schema = &reqs[0].body["response_format"]["json_schema"]["schema"];
    let list = &schema["properties"]["entities"];
    assert_eq!(list["maxItems"], 5);
    let items = &list["items"]["prefixItems"];
    let pattern = items[0]["pattern"].as_str().unwrap();
    assert_eq!(pattern, items[1]["pattern"].as_str().unwrap());
    assert!(
        pattern.contains("\\n") && pattern.ends_with("{1,80}$"),
        "{pattern}"
    );
    assert!(
        items[2]["enum"]
            .as_array()
            .unwrap()
            .contains(&json!("MEDICAL_CONDITION"))
    );
    assert_eq!(items[3]["enum"].as_array().unwrap().len(), 10);
    assert_eq!(items[3]["enum"][9], 1.0);
    // The default leaves room for long documents.
    let (_, server, _) = one_doc("", |_, _| Reply::Content("{\"entities\": []}".into()));
    let body = &server.requests()[0].body;
    assert_eq!(
        body["response_format"]["json_schema"]["schema"]["properties"]["entities"]["maxItems"],
        100
    );
}

/// SPEC §7: what a server sends back is scrubbed of the API key and of every
/// fragment of it of 6 or more characters, and of the base URL's credentials,
/// before clam shows, logs or writes it.
#[test]
fn the_cli_never_shows_or_writes_the_key_its_fragments_or_url_credentials() {
    // Rejects every request, echoing the key whole, its first 11 and last 8
    // characters, a piece of its middle, the Authorization header and the userinfo.
    let server = Server::start(|req, _| {
        let auth = req.auth.clone().unwrap_or_default();
        let echo = format!(
            "invalid key {KEY} ({}…, …{}, {}) sent as {auth} by user:secret",
            &KEY[..11],
            &KEY[KEY.len() - 8..],
            &KEY[10..20]
        );
        Reply::Raw(401, vec![], json!({ "error": echo }).to_string())
    });
    let env = common::Env::new();
    user_config(
        &env,
        &format!(
            "[llm]\nbase_url = \"http://user:secret@127.0.0.1:{}/v1\"\nmodel = \"fake\"\napi_key_env = \"CLAM_TEST_KEY\"\nbackoff_ms = 10\n",
            server.port
        ),
    );
    let out = env.path("export");
    let o = clam(
        &env,
        &[
            "run",
            &sample(),
            "--extractor",
            "llm",
            "--out",
            &out.display().to_string(),
        ],
    );
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    );
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert_eq!(server.count(), 25, "a 401 is not retried");
    assert!(server.requests().iter().all(|r| r.auth.is_some()));
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    let v: Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(v["llm"]["fallbacks"], 25);
    assert_eq!(
        v["llm"]["endpoint"],
        format!("{}/chat/completions", server.base_url())
    );
    // The server's text did reach the manifest and the terminal, scrubbed.
    assert!(manifest.contains("<redacted>"), "{manifest}");
    assert!(stderr.contains("<redacted>"), "{stderr}");

    let mut needles: Vec<String> = vec![
        KEY.into(),
        KEY[..11].into(),
        KEY[KEY.len() - 8..].into(),
        KEY[10..20].into(),
        "secret".into(),
        "user:".into(),
        // base64("user:secret"), the basic-authentication header
        "dXNlcjpzZWNyZXQ".into(),
    ];
    // Every 6-character fragment of the key (those of hex digits only could occur
    // by chance in the random hashes of the export; the 8-character ones above
    // stand for them).
    let chars: Vec<char> = KEY.chars().collect();
    needles.extend(
        chars
            .windows(6)
            .filter(|w| w.iter().any(|c| !c.is_ascii_hexdigit()))
            .map(|w| w.iter().collect::<String>()),
    );
    let mut texts = vec![
        ("stdout".to_string(), stdout),
        ("stderr".to_string(), stderr),
    ];
    let config_dir = env.path("config");
    for p in files_under(env.home.path()) {
        // The user's own config holds the URL as written.
        if p.starts_with(&config_dir) {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).to_string();
        texts.push((p.display().to_string(), text));
    }
    assert!(
        texts.iter().any(|(n, _)| n.ends_with("clam.log")),
        "the log is scanned too"
    );
    for (name, text) in &texts {
        for needle in &needles {
            assert!(!text.contains(needle.as_str()), "{needle:?} in {name}");
        }
    }
}
