//! Frame render time of `clam review` with 10,000 documents loaded (SPEC §9: lists
//! are virtualized, so a frame costs the same as with 20). Documents are generated
//! with text and entities (clusters of 4 share a member id and a name), the
//! workspace is planned once, then each iteration draws a whole 160×48 screen into a
//! `TestBackend`. Run with `cargo bench --bench tui` (or `CLAM_TUI_DOCS=10000` on the
//! bench binary for a quick look without divan).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use clam::Config;
use clam::corpus::{Corpus, Document};
use clam::entity::ExtractedItem;
use clam::tui::app::DeferReplans;
use clam::tui::state::Pane;
use clam::tui::{App, Keymap, Theme};
use clam::workspace::Workspace;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::Terminal;
use ratatui::backend::TestBackend;

fn main() {
    if let Ok(n) = std::env::var("CLAM_TUI_DOCS") {
        // Quick check without divan: load n documents, then time 10 frames.
        let n: usize = n.parse().unwrap_or(10_000);
        let t = std::time::Instant::now();
        let mut app = app(n, true);
        eprintln!("{n} documents extracted and planned in {:?}", t.elapsed());
        let mut term = Terminal::new(TestBackend::new(160, 48)).expect("terminal");
        let t = std::time::Instant::now();
        for _ in 0..10 {
            term.draw(|f| {
                divan::black_box(clam::tui::ui::draw(f, &app));
            })
            .expect("draw");
        }
        eprintln!("10 frames in {:?}", t.elapsed());
        // Decision latency: a pin re-plans. Inline first (that measures the re-plan),
        // then as `clam review` does, which now runs it off the UI thread.
        let key = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        app.defer_replans = DeferReplans::Never;
        let t = std::time::Instant::now();
        app.handle_key(key('p'));
        eprintln!("pin: key handled, re-planned inline, in {:?}", t.elapsed());
        app.defer_replans = DeferReplans::Auto;
        let t = std::time::Instant::now();
        app.handle_key(key('p'));
        let handled = t.elapsed();
        app.wait_jobs(std::time::Duration::from_secs(60));
        eprintln!(
            "unpin: key handled in {handled:?}, plan installed from its thread after {:?}",
            t.elapsed()
        );
        // Bulk accept of every listed mask: one transaction each, no re-plan.
        let listed = app.ui.masks.rows.len();
        let t = std::time::Instant::now();
        app.handle_key(key('A'));
        app.handle_key(key('y'));
        eprintln!("bulk accept of {listed} masks in {:?}", t.elapsed());
        return;
    }
    divan::main();
}

fn item(original: &str, t: &str, relevance: f64) -> ExtractedItem {
    ExtractedItem {
        original: original.into(),
        normalized: String::new(),
        entity_type: t.into(),
        relevance,
        spans: vec![],
    }
}

/// An app over `n` generated documents, extraction complete and planned; with a
/// session (in a temporary file) when `session`.
fn app(n: usize, session: bool) -> App {
    let docs: Vec<Document> = (0..n)
        .map(|i| {
            let c = i / 4;
            Document::new(
                format!("doc_{i:05}"),
                format!(
                    "Claim note {i}\nMember: Person{c} Example    Member ID: MBR-{c:06}\nDiagnosis: condition{} follow-up at Clinic{}.\nThe member called about invoice INV-{i:07}.",
                    c % 97,
                    c % 31
                ),
            )
        })
        .collect();
    let items: Vec<(usize, Vec<ExtractedItem>)> = (0..n)
        .map(|i| {
            let c = i / 4;
            (
                i,
                vec![
                    item(&format!("Person{c} Example"), "NAME", 0.95),
                    item(&format!("MBR-{c:06}"), "PATIENT_ID", 0.9),
                    item(&format!("condition{}", c % 97), "MEDICAL_CONDITION", 0.8),
                    item(&format!("Clinic{}", c % 31), "PROVIDER", 0.7),
                    item(&format!("INV-{i:07}"), "NON_PERSONAL_ID", 0.6),
                ],
            )
        })
        .collect();
    let corpus = Corpus {
        documents: docs,
        ..Corpus::default()
    };
    let t = std::time::Instant::now();
    let session = session.then(|| {
        let path = std::env::temp_dir().join(format!("clam-bench-{}.sqlite", std::process::id()));
        let _ = std::fs::remove_file(&path);
        clam::session::Session::open(&path).expect("session")
    });
    let mut ws =
        Workspace::pending(corpus, Config::default(), session, "generated").expect("workspace");
    eprintln!("pending {:?}", t.elapsed());
    ws.set_extracted(items).expect("plan");
    eprintln!("extracted+planned {:?}", t.elapsed());
    let mut app = App::new(
        ws,
        Theme::named("dark").expect("theme"),
        Keymap::defaults(),
        "bench".into(),
        "generated".into(),
    );
    app.ui.focus(Pane::Masks);
    app.ui.documents.selected = n / 2;
    app
}

#[divan::bench(args = [10_000])]
fn draw_frame(bencher: divan::Bencher, n: usize) {
    let app = app(n, false);
    let mut term = Terminal::new(TestBackend::new(160, 48)).expect("terminal");
    bencher.bench_local(|| {
        term.draw(|f| {
            divan::black_box(clam::tui::ui::draw(f, &app));
        })
        .expect("draw");
    });
}
