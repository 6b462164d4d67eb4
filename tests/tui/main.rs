//! The terminal application without a terminal: the app is driven by keys and worker
//! messages and drawn into ratatui's `TestBackend`. Logic tests check what a privacy
//! officer would notice (focus, navigation, decisions re-planning, undo, persistence
//! across reopening); snapshot tests pin each pane at 80×24 and 160×48.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::path::Path;
use std::time::Duration;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

use clam::Config;
use clam::corpus::{Corpus, Document, LoadOptions};
use clam::session::Session;
use clam::tui::app::{ExportOutcome, JobEvent, Layer};
use clam::tui::state::Pane;
use clam::tui::{App, Keymap, Theme};
use clam::workspace::{ReviewState, Workspace};

fn sample_corpus() -> Corpus {
    let config = Config::default();
    clam::corpus::load(
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("sample_corpus")
            .as_path(),
        &LoadOptions {
            format: None,
            recursive: false,
            max_document_bytes: config.extraction.max_document_bytes,
            shard: None,
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
                "Claim review\nMember: Hannah Brooks    Member ID: MBR-390115    DOB: 03/14/1981\nDiagnosis: relapsing-remitting multiple sclerosis\nBilling provider: Northgate Neurology Medical Group\nPhone: 312-555-0142",
            ),
            Document::new(
                "record_02",
                "Clinic record\nPatient: Hannah Brooks (MBR-390115), seen at Northgate Neurology Medical Group for multiple sclerosis; ocrelizumab infusion planned.",
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

/// The extractor of the small corpus: fixed items, so the snapshots and the tests
/// on it do not move when the offline recognizers are tuned.
struct Fixed;

impl clam::extract::Extractor for Fixed {
    fn name(&self) -> &str {
        "fixed"
    }

    fn extract(
        &self,
        doc: &Document,
    ) -> Result<Vec<clam::entity::ExtractedItem>, clam::extract::ExtractError> {
        let item = |v: &str, t: &str, relevance: f64| clam::entity::ExtractedItem {
            original: v.into(),
            normalized: String::new(),
            entity_type: t.into(),
            relevance,
            spans: vec![],
        };
        let member = || item("MBR-390115", "PATIENT_ID", 0.9);
        let name = || item("Hannah Brooks", "NAME", 0.95);
        let provider = || item("Northgate Neurology Medical Group", "PROVIDER", 0.7);
        let condition = || item("multiple sclerosis", "MEDICAL_CONDITION", 0.85);
        Ok(match doc.id.as_str() {
            "claim_01" => vec![
                name(),
                member(),
                item("03/14/1981", "BIRTHDATE", 0.9),
                condition(),
                provider(),
                item("312-555-0142", "PHONE_NUMBER", 0.9),
            ],
            "record_02" => vec![name(), member(), provider(), condition()],
            "note_04" => vec![member()],
            _ => vec![],
        })
    }
}

/// The extractor a test corpus is read with: fixed items for the small corpus, the
/// offline recognizers for sample_corpus.
fn extractor_for(app: &App) -> Box<dyn clam::extract::Extractor> {
    if app.ws.corpus().documents.len() == 4 {
        Box::new(Fixed)
    } else {
        Box::new(clam::extract::offline::OfflineExtractor::new(
            app.ws.config().extraction.date_order,
        ))
    }
}

/// An app over `corpus` whose extraction ran to the end: the extraction job `clam
/// review` starts, its reports installed as the event loop installs them.
fn open(corpus: Corpus, session: &Path) -> App {
    let mut app = pending(corpus, session);
    let ex = extractor_for(&app);
    app.start_extraction(ex);
    app.wait_jobs(Duration::from_secs(120));
    // Fixed timings so the header is the same on every run.
    app.progress.finished = Some(Duration::from_millis(250));
    assert!(app.is_ready());
    app
}

/// [`open`] with its session in a new temporary folder, which lives as long as the
/// returned handle.
fn open_fresh(corpus: Corpus) -> (tempfile::TempDir, App) {
    let dir = tempfile::tempdir().expect("tempdir");
    let app = open(corpus, &session_path(&dir));
    (dir, app)
}

/// An app whose documents are all still pending extraction.
fn pending(corpus: Corpus, session: &Path) -> App {
    pending_with(corpus, session, Config::default())
}

/// Starts the extraction job of a [`pending`] app and installs its reports up to
/// and including the first plan (the first document is planned alone); the rest
/// is left in the job's channel, as it is while a user acts between bursts.
fn extract_until_first_plan(app: &mut App) {
    let ex = extractor_for(app);
    app.start_extraction(ex);
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    while let Some(m) = app.jobs.recv_timeout(deadline) {
        let planned = matches!(m.event, JobEvent::Planned(_));
        app.on_job(m);
        if planned {
            return;
        }
    }
    panic!("the extraction job planned nothing");
}

/// Installs job reports until none runs; how many extraction plans came.
fn finish_jobs(app: &mut App) -> usize {
    let deadline = std::time::Instant::now() + Duration::from_secs(120);
    let mut plans = 0;
    while app.jobs.any_running() {
        let m = app
            .jobs
            .recv_timeout(deadline)
            .expect("the jobs end in time");
        plans += usize::from(matches!(m.event, JobEvent::Planned(_)));
        app.on_job(m);
    }
    plans
}

/// An app whose documents are all still pending extraction, under `config`.
fn pending_with(corpus: Corpus, session: &Path, config: Config) -> App {
    let session = Session::open(session).expect("session");
    let name = if corpus.documents.len() == 4 {
        "fixed"
    } else {
        "offline"
    };
    let ws = Workspace::pending(corpus, config, Some(session), name).expect("workspace");
    let mut app = App::new(
        ws,
        Theme::named("dark").expect("theme"),
        Keymap::defaults(),
        "tester".into(),
        "fixture".into(),
    );
    // Decisions re-plan inline, whatever the machine's load made the extraction's
    // re-plan take (tests of the background path ask for it explicitly).
    app.defer_replans = clam::tui::app::DeferReplans::Never;
    assert!(!app.is_ready(), "extraction has not run yet");
    app
}

/// Exports to `out` in `mode` through the export dialog, as a user does (`e`, the
/// folder, the mode, Enter), and waits for the export job's outcome.
fn export_through_dialog(app: &mut App, out: &Path, mode: clam::redact::Mode) -> ExportOutcome {
    key(app, KeyCode::Char('e'));
    if let Some(Layer::Export(d)) = app.layers.last_mut() {
        d.folder = ratatui_textarea::TextArea::new(vec![out.display().to_string()]);
        d.mode = mode;
    }
    key(app, KeyCode::Enter);
    app.run_pending();
    app.wait_jobs(Duration::from_secs(120));
    match app.layers.last() {
        Some(Layer::Export(d)) => d.outcome.clone().expect("an outcome"),
        other => panic!("the export dialog is gone: {other:?}"),
    }
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

fn ctrl(app: &mut App, c: char) {
    app.handle_key(KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL));
}

/// The session's audit log.
fn audit_log(app: &App) -> Vec<clam::session::AuditEntry> {
    app.ws
        .session()
        .expect("a session")
        .audit_log()
        .expect("the audit log")
}

fn session_path(dir: &tempfile::TempDir) -> std::path::PathBuf {
    dir.path().join("session.sqlite")
}

/// Model index of the entity with normalized value `value`.
fn entity_index(app: &App, value: &str) -> usize {
    app.ws
        .model()
        .entities
        .iter()
        .position(|e| e.value == value)
        .unwrap_or_else(|| panic!("no entity {value}"))
}

/// Index of the masks row showing entity value `value`.
fn select_mask(app: &mut App, value: &str) -> usize {
    let i = entity_index(app, value);
    app.update(clam::tui::Action::FocusMasks);
    app.ui.masks.filter.clear();
    app.ui.show_all_entities = true;
    app.refresh();
    assert!(app.ui.masks.select_item(i));
    i
}

mod edits;
mod gold;
mod logic;
mod review;
mod whatif;

// Helpers of one area used by another.
#[allow(unused_imports)]
use {edits::*, gold::*, logic::*, review::*, whatif::*};

// ----- snapshots (here, at the crate root, so their file names stay tui__NAME) -----

fn snapshot_app(dir: &tempfile::TempDir) -> App {
    let mut app = open(small_corpus(), &session_path(dir));
    app.export_default = "/exports/fixture-redacted".into();
    app
}

#[test]
fn snapshots_of_each_pane_at_both_sizes() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = snapshot_app(&dir);
    for (k, name) in [
        ('1', "documents"),
        ('2', "document"),
        ('3', "masks"),
        ('4', "chains"),
        ('5', "graph"),
    ] {
        key(&mut app, KeyCode::Char(k));
        for (w, h) in [(80, 24), (160, 48)] {
            insta::assert_snapshot!(format!("{name}_{w}x{h}"), render(&mut app, w, h));
        }
    }
}

#[test]
fn snapshots_of_the_popups() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = snapshot_app(&dir);
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Char('r'));
    insta::assert_snapshot!("redacted_preview_80x24", render(&mut app, 80, 24));
    key(&mut app, KeyCode::Char('?'));
    insta::assert_snapshot!("help_80x24", render(&mut app, 80, 24));
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('o'));
    key(&mut app, KeyCode::Enter);
    insta::assert_snapshot!("override_refused_80x24", render(&mut app, 80, 24));
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('e'));
    insta::assert_snapshot!("export_80x24", render(&mut app, 80, 24));
}

#[test]
fn snapshots_of_the_gold_pane_and_the_chain_table_with_gold_marks() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = snapshot_app(&dir);
    key(&mut app, KeyCode::Char('7'));
    insta::assert_snapshot!("gold_empty_80x24", render(&mut app, 80, 24));
    let dir = tempfile::tempdir().unwrap();
    let mut app = gold_app(&dir);
    for (k, name) in [('7', "gold"), ('4', "chains_gold")] {
        key(&mut app, KeyCode::Char(k));
        for (w, h) in [(80, 24), (160, 48)] {
            insta::assert_snapshot!(format!("{name}_{w}x{h}"), render(&mut app, w, h));
        }
    }
}

#[test]
fn snapshots_of_the_what_if_pane_and_the_sweep_chart() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = snapshot_app(&dir);
    select_param(&mut app, "theta_doc");
    type_value(&mut app, "0.3");
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("whatif_{w}x{h}"), render(&mut app, w, h));
    }
    key(&mut app, KeyCode::Esc);
    select_param(&mut app, "risk_medium");
    key(&mut app, KeyCode::Char('S'));
    app.wait_jobs(Duration::from_secs(30));
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("sweep_{w}x{h}"), render(&mut app, w, h));
    }
}

#[test]
fn snapshot_of_a_decision_s_effect_in_the_what_if_pane() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = snapshot_app(&dir);
    select_mask(&mut app, "hannah brooks");
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "public figure");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('6'));
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("decision_effect_{w}x{h}"), render(&mut app, w, h));
    }
}

#[test]
fn the_readme_key_table_is_the_keymap() {
    // The key table of docs/workspace.md is generated from the embedded keymap, so it cannot
    // drift: CLAM_UPDATE_README=1 rewrites it.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/workspace.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (start, end) = ("<!-- keys:start -->\n", "<!-- keys:end -->");
    let a = readme.find(start).expect("key table start marker") + start.len();
    let b = readme.find(end).expect("key table end marker");
    let table = Keymap::defaults().markdown_table();
    if std::env::var_os("CLAM_UPDATE_README").is_some() {
        std::fs::write(&path, format!("{}{table}{}", &readme[..a], &readme[b..])).unwrap();
        return;
    }
    assert_eq!(
        &readme[a..b],
        table,
        "docs/workspace.md key table is stale: run CLAM_UPDATE_README=1 cargo test --test tui the_readme_key_table"
    );
}
