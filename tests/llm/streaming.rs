//! Results as they arrive: the event channel of a run, and the review workspace
//! extracting with the model.

use super::*;

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
