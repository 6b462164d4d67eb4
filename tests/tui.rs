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
use clam::tui::app::{ExportOutcome, Layer, WorkerMsg};
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
    if app.ws.corpus.documents.len() == 4 {
        Box::new(Fixed)
    } else {
        Box::new(clam::extract::offline::OfflineExtractor::new(
            app.ws.config.date_order,
        ))
    }
}

/// An app over `corpus` whose extraction ran to the end (synchronously, through the
/// same worker and message path as the real application).
fn open(corpus: Corpus, session: &Path) -> App {
    let mut app = pending(corpus, session);
    let docs = std::sync::Arc::new(app.ws.corpus.documents.clone());
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let ex = extractor_for(&app);
    clam::tui::worker::extract(
        docs,
        ex.as_ref(),
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

/// An app whose documents are all still pending extraction.
fn pending(corpus: Corpus, session: &Path) -> App {
    let config = Config::default();
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
        .session
        .as_ref()
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
        .model
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

// ----- logic -----

#[test]
fn tab_and_shift_tab_cycle_the_focus_and_the_focused_pane_is_marked() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    assert_eq!(app.ui.focus, Pane::Documents);
    let mut seen = Vec::new();
    for _ in 0..Pane::ALL.len() {
        key(&mut app, KeyCode::Tab);
        seen.push(app.ui.focus);
    }
    // Every pane once, in order, then back to the list.
    let mut expected = Pane::ALL[1..].to_vec();
    expected.push(Pane::Documents);
    assert_eq!(seen, expected);
    assert!(seen.contains(&Pane::Gold) && seen.contains(&Pane::WhatIf));
    key(&mut app, KeyCode::BackTab);
    assert_eq!(app.ui.focus, Pane::ALL[Pane::ALL.len() - 1]);
    key(&mut app, KeyCode::Char('5'));
    let screen = render(&mut app, 160, 48);
    assert!(screen.contains("▶ Linkage graph"), "{screen}");
    assert!(!screen.contains("▶ Documents"), "{screen}");
    // At 80×24 the focused pane replaces the detail pane beside the list.
    key(&mut app, KeyCode::Char('4'));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("▶ Chains"), "{screen}");
}

#[test]
fn moving_in_the_list_opens_the_document_and_enter_focuses_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(app.ui.open_doc, Some(1));
    assert!(render(&mut app, 80, 24).contains("Document record_02"));
    key(&mut app, KeyCode::End);
    assert_eq!(app.ui.open_doc, Some(3));
    key(&mut app, KeyCode::Down);
    assert_eq!(app.ui.open_doc, Some(3), "clamped at the last document");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.ui.focus, Pane::Document);
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.ui.focus, Pane::Documents);
}

#[test]
fn sorting_by_risk_puts_the_riskiest_document_first_and_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(sample_corpus(), &session_path(&dir));
    let ids = |app: &App| app.ui.documents.rows.clone();
    assert_eq!(ids(&app), (0..25).collect::<Vec<_>>());
    key(&mut app, KeyCode::Char('s'));
    let risk = |app: &App, i: usize| {
        let m = app.views.model_of_doc[i].unwrap();
        app.ws.plan.doc_risk_final[m]
    };
    let rows = ids(&app);
    assert!(
        rows.windows(2)
            .all(|w| risk(&app, w[0]) >= risk(&app, w[1]))
    );
    assert_ne!(rows, (0..25).collect::<Vec<_>>());
    assert!(render(&mut app, 80, 24).contains("by risk"));
    key(&mut app, KeyCode::Char('s'));
    assert_eq!(ids(&app), (0..25).collect::<Vec<_>>());
}

#[test]
fn slash_filters_the_document_list_and_esc_clears_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(sample_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('/'));
    chars(&mut app, "claim");
    key(&mut app, KeyCode::Enter);
    let listed: Vec<String> = app
        .ui
        .documents
        .rows
        .iter()
        .map(|&i| app.ws.corpus.documents[i].id.clone())
        .collect();
    assert!(!listed.is_empty());
    assert!(listed.len() < 25);
    assert!(listed.iter().all(|id| {
        app.ws.corpus.documents.iter().any(|d| {
            &d.id == id && (d.id.contains("claim") || d.content.to_lowercase().contains("claim"))
        })
    }));
    assert!(render(&mut app, 80, 24).contains("/claim"));
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.ui.documents.rows.len(), 25);
}

#[test]
fn a_decision_without_an_entity_says_how_to_pick_one() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('a'));
    app.update(clam::tui::Action::Accept);
    let m = app.message.clone().expect("a message");
    assert!(m.error && m.text.contains("select an entity"), "{m:?}");
    assert!(audit_log(&app).is_empty());
}

#[test]
fn accept_is_committed_and_shown_as_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('3'));
    let i = app.ui.masks.current().expect("a masked entity");
    assert_eq!(app.views.review[i], ReviewState::Proposed);
    key(&mut app, KeyCode::Char('a'));
    assert_eq!(app.views.review[i], ReviewState::Accepted);
    let log = audit_log(&app);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].actor, "tester");
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("accepted"), "{screen}");
    assert!(screen.contains("1 reviewed"), "{screen}");
}

#[test]
fn override_refuses_an_empty_reason_then_flips_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('3'));
    let i = app.ui.masks.current().expect("a masked entity");
    assert!(app.ws.plan.masked[i]);
    key(&mut app, KeyCode::Char('o'));
    key(&mut app, KeyCode::Enter);
    assert!(
        matches!(app.layers.last(), Some(Layer::Reason { error: Some(e), .. }) if e.contains("reason is required")),
        "the popup stays open with the refusal"
    );
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("a reason is required"), "{screen}");
    chars(&mut app, "  ");
    key(&mut app, KeyCode::Enter);
    assert!(!app.layers.is_empty(), "blank reason refused too");
    chars(&mut app, "public figure");
    key(&mut app, KeyCode::Enter);
    assert!(app.layers.is_empty());
    assert!(
        !app.ws.plan.masked[i],
        "overridden to keep, re-planned at once"
    );
    assert_eq!(app.views.review[i], ReviewState::Overridden);
    let log = audit_log(&app);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].reason.as_deref(), Some("public figure"));
    assert_eq!(log[0].state_before.as_deref(), Some("mask"));
    assert_eq!(log[0].state_after.as_deref(), Some("keep"));
}

#[test]
fn esc_cancels_an_override_without_a_decision() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "half a thought");
    key(&mut app, KeyCode::Esc);
    assert!(app.layers.is_empty());
    assert!(audit_log(&app).is_empty());
}

#[test]
fn pin_freezes_the_state_and_pin_again_unpins() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('3'));
    let i = app.ui.masks.current().unwrap();
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(app.views.review[i], ReviewState::Pinned);
    assert!(
        app.ws
            .state
            .force_mask()
            .contains(&app.ws.model.entities[i].id)
    );
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(app.views.review[i], ReviewState::Proposed);
    assert!(app.ws.state.forced.is_empty());
}

#[test]
fn undo_reverts_the_last_decision_and_keeps_the_audit_log() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('3'));
    let i = app.ui.masks.current().unwrap();
    let masked_before = app.ws.plan.masked.clone();
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "not identifying");
    key(&mut app, KeyCode::Enter);
    assert!(!app.ws.plan.masked[i]);
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.ws.plan.masked, masked_before, "the plan is back");
    assert_eq!(app.views.review[i], ReviewState::Proposed);
    assert_eq!(audit_log(&app).len(), 2);
    key(&mut app, KeyCode::Char('u'));
    assert!(
        app.message
            .as_ref()
            .unwrap()
            .text
            .contains("nothing to undo")
    );
}

#[test]
fn decisions_are_restored_after_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = session_path(&dir);
    let (overridden, pinned, plan);
    {
        let mut app = open(sample_corpus(), &path);
        overridden = select_mask(&mut app, "hannah brooks");
        key(&mut app, KeyCode::Char('o'));
        chars(&mut app, "already public in the news article");
        key(&mut app, KeyCode::Enter);
        pinned = select_mask(&mut app, "MBR390115");
        key(&mut app, KeyCode::Char('p'));
        plan = app.ws.plan.masked.clone();
        key(&mut app, KeyCode::Char('q'));
        assert!(app.quit);
    }
    let app = open(sample_corpus(), &path);
    assert_eq!(app.views.review[overridden], ReviewState::Overridden);
    assert_eq!(app.views.review[pinned], ReviewState::Pinned);
    assert!(!app.ws.plan.masked[overridden]);
    assert!(app.ws.plan.masked[pinned]);
    assert_eq!(app.ws.plan.masked, plan, "the same plan as before quitting");
}

#[test]
fn bulk_accept_asks_first_and_accepts_only_the_listed_rows() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(sample_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('/'));
    chars(&mut app, "name");
    key(&mut app, KeyCode::Enter);
    let listed = app.ui.masks.rows.clone();
    assert!(listed.len() > 3);
    assert!(
        listed
            .iter()
            .all(|&i| app.ws.model.entities[i].entity_type == "NAME")
    );
    key(&mut app, KeyCode::Char('A'));
    assert!(matches!(
        app.layers.last(),
        Some(Layer::Confirm(clam::tui::app::Confirm::Bulk { .. }))
    ));
    assert!(render(&mut app, 80, 24).contains("Accept the proposal for"));
    key(&mut app, KeyCode::Char('n'));
    assert!(audit_log(&app).is_empty());
    key(&mut app, KeyCode::Char('A'));
    key(&mut app, KeyCode::Char('y'));
    assert!(
        listed
            .iter()
            .all(|&i| app.views.review[i] == ReviewState::Accepted)
    );
    let accepted = app
        .views
        .review
        .iter()
        .filter(|r| **r == ReviewState::Accepted)
        .count();
    assert_eq!(accepted, listed.len(), "nothing outside the filter");
    assert_eq!(
        audit_log(&app).len(),
        listed.len(),
        "one transaction per decision"
    );
}

#[test]
fn results_stream_in_and_ready_appears_only_at_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = pending(small_corpus(), &session_path(&dir));
    assert!(
        app.ws.model.docs.is_empty(),
        "no analysis while N = 0: {} {:?}",
        app.ws.model.docs.len(),
        app.ws
            .store
            .docs
            .iter()
            .map(|d| d.complete)
            .collect::<Vec<_>>()
    );
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("extracting 0/4") && !screen.contains("ready"),
        "{screen}"
    );
    let ex = extractor_for(&app);
    for i in 0..2 {
        let items = ex.extract(&app.ws.corpus.documents[i]).unwrap();
        app.on_worker(WorkerMsg::Extracted { index: i, items });
    }
    app.flush();
    assert_eq!(
        app.ws.model.docs.len(),
        2,
        "N counts only extracted documents"
    );
    assert_eq!(app.ws.analysis.n, 2);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("extracting 2/4"), "{screen}");
    assert!(
        screen.contains("pending"),
        "the other documents show as pending"
    );
    assert!(!screen.contains(" ready "));
    for i in 2..4 {
        let items = ex.extract(&app.ws.corpus.documents[i]).unwrap();
        app.on_worker(WorkerMsg::Extracted { index: i, items });
    }
    app.on_worker(WorkerMsg::Done);
    assert!(!app.is_ready(), "not ready until the burst is planned");
    app.flush();
    assert!(app.is_ready());
    assert_eq!(app.ws.analysis.n, 4);
    assert!(render(&mut app, 80, 24).contains(" ready "));
}

#[test]
fn a_click_focuses_the_pane_and_selects_the_row() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(sample_corpus(), &session_path(&dir));
    render(&mut app, 160, 48);
    let (_, body, _) = *app
        .rects
        .list_body
        .iter()
        .find(|(p, _, _)| *p == Pane::Masks)
        .unwrap();
    app.handle_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: body.x + 2,
        row: body.y + 3,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.ui.focus, Pane::Masks);
    assert_eq!(app.ui.masks.selected, 3);
    let (_, body, _) = *app
        .rects
        .list_body
        .iter()
        .find(|(p, _, _)| *p == Pane::Documents)
        .unwrap();
    app.handle_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: body.x + 1,
        row: body.y + 4,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.ui.focus, Pane::Documents);
    assert_eq!(app.ui.open_doc, Some(4), "the clicked document opens");
}

#[test]
fn help_lists_the_focused_panes_keys_and_the_global_ones() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('?'));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("accept all listed (asks)"), "{screen}");
    assert!(
        screen.contains("undo the last decision") && screen.contains("quit (decisions are saved)"),
        "{screen}"
    );
    assert!(
        !screen.contains("redacted preview on / off"),
        "not the document pane's keys"
    );
    key(&mut app, KeyCode::Char('x'));
    assert!(app.layers.is_empty(), "any key closes the help");
    assert!(!app.quit);
}

#[test]
fn q_and_ctrl_c_quit() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('o'));
    ctrl(&mut app, 'c');
    assert!(app.quit, "ctrl-c quits even from a popup");
}

#[test]
fn the_document_cursor_walks_the_entities_and_shows_their_figures() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('2'));
    let mentions = app.mentions(0);
    assert!(mentions.len() >= 3, "{mentions:?}");
    let first = app.cursor_mention().unwrap();
    key(&mut app, KeyCode::Char('n'));
    let second = app.cursor_mention().unwrap();
    assert!(second.start > first.start);
    key(&mut app, KeyCode::Char('N'));
    assert_eq!(app.cursor_mention().unwrap(), first);
    key(&mut app, KeyCode::Left);
    assert_eq!(app.ui.doc_cursor, mentions.len() - 1, "wraps around");
    let screen = render(&mut app, 80, 24);
    let m = app.cursor_mention().unwrap();
    assert!(screen.contains(&m.entity_type), "{screen}");
    assert!(
        screen.contains("u(e)") && screen.contains("c(e,d)"),
        "{screen}"
    );
    // Accepting in the document view decides the entity under the cursor.
    key(&mut app, KeyCode::Char('a'));
    assert_eq!(app.views.review[m.entity.unwrap()], ReviewState::Accepted);
}

#[test]
fn the_redacted_preview_shows_replacements_instead_of_values() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('2'));
    let plain = render(&mut app, 160, 48);
    assert!(plain.contains("Hannah Brooks"));
    key(&mut app, KeyCode::Char('r'));
    let redacted = render(&mut app, 160, 48);
    assert!(redacted.contains("redacted preview (value)"), "{redacted}");
    assert!(redacted.contains("[NAME]"), "{redacted}");
    let doc_text: String = redacted
        .lines()
        .map(|l| l.chars().skip(45).take(57).collect::<String>())
        .collect();
    assert!(!doc_text.contains("Hannah Brooks"), "{redacted}");
}

#[test]
fn masked_entities_are_drawn_differently_from_kept_ones() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    let mut term = Terminal::new(TestBackend::new(160, 48)).unwrap();
    term.draw(|f| {
        clam::tui::ui::draw(f, &app);
    })
    .unwrap();
    let buf = term.backend().buffer().clone();
    let find = |needle: &str| {
        (0..buf.area.height).find_map(|y| {
            let row: String = (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect();
            // Column in cells: every symbol here is one cell wide.
            row.find(needle)
                .map(|b| (row[..b].chars().count() as u16, y))
        })
    };
    let name = entity_index(&app, "hannah brooks");
    assert!(app.ws.plan.masked[name]);
    let theme = &app.theme;
    let (x, y) = find("Hannah Brooks").expect("name on screen");
    assert_eq!(
        buf[(x, y)].bg,
        theme.type_color("NAME"),
        "masked: a solid block"
    );
    let (x, y) = find("sclerosis").expect("condition on screen");
    assert!(
        buf[(x, y)]
            .modifier
            .contains(ratatui::style::Modifier::UNDERLINED),
        "kept: underlined"
    );
    key(&mut app, KeyCode::Char('q'));
}

#[test]
fn escape_sequences_in_a_document_are_shown_as_placeholders() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::End);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("␛[31mURGENT␛[0m␇"), "{screen}");
    assert!(
        !screen.chars().any(|c| c.is_control() && c != '\n'),
        "no raw control character reaches the terminal"
    );
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Char('r'));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("␛[31mURGENT"), "the preview too: {screen}");
}

#[test]
fn export_writes_the_redacted_corpus_or_refuses_unreviewed_masks() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    let out = dir.path().join("out");
    key(&mut app, KeyCode::Char('e'));
    let set_folder = |app: &mut App, folder: &str| {
        if let Some(Layer::Export(d)) = app.layers.last_mut() {
            d.folder = ratatui_textarea::TextArea::new(vec![folder.to_string()]);
        }
    };
    set_folder(&mut app, &out.display().to_string());
    // Require reviewed: refused while proposals are unreviewed.
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char(' '));
    key(&mut app, KeyCode::Enter);
    assert!(
        render(&mut app, 80, 24).contains("exporting…"),
        "a frame says so first"
    );
    app.run_pending();
    app.wait_export(Duration::from_secs(60));
    let outcome = |app: &App| match app.layers.last() {
        Some(Layer::Export(d)) => d.outcome.clone(),
        _ => None,
    };
    assert!(
        matches!(outcome(&app), Some(ExportOutcome::Failed(m)) if m.contains("unreviewed")),
        "{:?}",
        outcome(&app)
    );
    assert!(!out.exists());
    // Without the switch, in redact mode.
    key(&mut app, KeyCode::Char(' '));
    key(&mut app, KeyCode::Up);
    key(&mut app, KeyCode::Left);
    key(&mut app, KeyCode::Enter);
    app.run_pending();
    // The export runs on its own thread; the dialog waits for it and takes no keys.
    assert!(matches!(outcome(&app), Some(ExportOutcome::Exporting)));
    key(&mut app, KeyCode::Esc);
    assert!(matches!(app.layers.last(), Some(Layer::Export(_))));
    assert!(render(&mut app, 80, 24).contains("exporting…"));
    app.wait_export(Duration::from_secs(60));
    assert!(
        matches!(outcome(&app), Some(ExportOutcome::Written(_))),
        "{:?}",
        outcome(&app)
    );
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("leak check passed"), "{screen}");
    let claim = std::fs::read_to_string(out.join("redacted").join("claim_01.json")).unwrap();
    assert!(
        claim.contains("[REDACTED]") && !claim.contains("Hannah Brooks"),
        "{claim}"
    );
    assert!(out.join("manifest.json").is_file());
    // A second export to the same folder is refused (nothing overwritten).
    key(&mut app, KeyCode::Enter);
    app.run_pending();
    app.wait_export(Duration::from_secs(60));
    assert!(matches!(outcome(&app), Some(ExportOutcome::Failed(_))));
    key(&mut app, KeyCode::Esc);
    assert!(app.layers.is_empty());
}

// ----- snapshots -----

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

// ----- entity edits -----

/// Moves the type picker to `ty` and chooses it.
fn pick_type(app: &mut App, ty: &str) {
    let pos = match app.layers.last() {
        Some(Layer::TypePicker {
            types, selected, ..
        }) => {
            let target = types
                .iter()
                .position(|t| t == ty)
                .expect("type in the schema");
            (target as isize) - (*selected as isize)
        }
        other => panic!("no type picker: {other:?}"),
    };
    for _ in 0..pos.unsigned_abs() {
        key(app, if pos > 0 { KeyCode::Down } else { KeyCode::Up });
    }
    key(app, KeyCode::Enter);
}

#[test]
fn removing_a_false_positive_replans_and_undo_brings_it_back() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('2'));
    let m = app.cursor_mention().unwrap();
    let count = |app: &App| {
        app.mentions(0)
            .iter()
            .filter(|x| x.entity_id == m.entity_id)
            .count()
    };
    assert!(count(&app) > 0);
    let risk_before = app.ws.analysis.doc_risk_initial[0];
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(count(&app), 0, "gone from this document");
    assert!(
        app.ws.analysis.doc_risk_initial[0] < risk_before,
        "the analysis no longer counts it"
    );
    key(&mut app, KeyCode::Char('u'));
    assert!(count(&app) > 0, "undo restores the entity");
    assert_eq!(app.ws.analysis.doc_risk_initial[0], risk_before);
}

#[test]
fn retyping_an_entity_persists_across_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = session_path(&dir);
    {
        let mut app = open(small_corpus(), &path);
        select_mask(&mut app, "hannah brooks");
        key(&mut app, KeyCode::Char('T'));
        pick_type(&mut app, "PROVIDER");
        let e = app
            .ws
            .model
            .entities
            .iter()
            .find(|e| e.value == "hannah brooks")
            .unwrap();
        assert_eq!(e.entity_type, "PROVIDER");
    }
    let app = open(small_corpus(), &path);
    let e = app
        .ws
        .model
        .entities
        .iter()
        .find(|e| e.value == "hannah brooks")
        .unwrap();
    assert_eq!(
        e.entity_type, "PROVIDER",
        "the retype is replayed after extraction"
    );
}

#[test]
fn adding_an_entity_by_text_marks_it_and_refuses_text_that_is_not_there() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Char('+'));
    chars(&mut app, "no such words");
    key(&mut app, KeyCode::Enter);
    assert!(matches!(
        app.layers.last(),
        Some(Layer::AddText { error: Some(_), .. })
    ));
    assert!(render(&mut app, 80, 24).contains("does not occur"));
    for _ in 0.."no such words".len() {
        key(&mut app, KeyCode::Backspace);
    }
    chars(&mut app, "ocrelizumab infusion");
    key(&mut app, KeyCode::Enter);
    // The relevance defaults to 1.0; typed digits set it, and one outside [0, 1] is
    // refused.
    assert!(render(&mut app, 80, 24).contains("relevance 1.0"));
    chars(&mut app, "1.5");
    assert!(render(&mut app, 80, 24).contains("relevance 1.5: not in [0, 1]"));
    key(&mut app, KeyCode::Enter);
    assert!(matches!(app.layers.last(), Some(Layer::TypePicker { .. })));
    assert!(app.message.as_ref().is_some_and(|m| m.error));
    for _ in 0..3 {
        key(&mut app, KeyCode::Backspace);
    }
    chars(&mut app, "0.6");
    pick_type(&mut app, "TREATMENT");
    assert!(app.layers.is_empty());
    assert!(matches!(
        audit_log(&app).last().map(|e| &e.action),
        Some(clam::session::AuditAction::AddEntity { relevance: Some(r), .. }) if *r == 0.6
    ));
    assert!(render(&mut app, 160, 48).contains("rel 0.60"));
    let m = app.cursor_mention().expect("cursor on the new entity");
    assert_eq!(m.entity_type, "TREATMENT");
    let content: Vec<char> = app.ws.corpus.documents[1].content.chars().collect();
    assert_eq!(
        content[m.start..m.end].iter().collect::<String>(),
        "ocrelizumab infusion"
    );
    assert!(
        app.ws
            .model
            .entities
            .iter()
            .any(|e| e.value == "ocrelizumab infusion")
    );
}

/// Screen position (column, row) of the first occurrence of `text` in a render.
fn screen_pos(screen: &str, text: &str) -> (u16, u16) {
    for (row, line) in screen.lines().enumerate() {
        if let Some(byte) = line.find(text) {
            return (line[..byte].chars().count() as u16, row as u16);
        }
    }
    panic!("{text:?} is not on screen:\n{screen}");
}

fn mouse(app: &mut App, kind: crossterm::event::MouseEventKind, (column, row): (u16, u16)) {
    app.handle_mouse(crossterm::event::MouseEvent {
        kind,
        column,
        row,
        modifiers: KeyModifiers::NONE,
    });
}

#[test]
fn dragging_over_text_selects_whole_words_and_plus_adds_them_as_an_entity() {
    use crossterm::event::{MouseButton, MouseEventKind};
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('2'));
    let screen = render(&mut app, 160, 48);
    // From inside "relapsing" to inside "remitting": the selection snaps to the
    // whole words, the hyphen between them included.
    let (x, y) = screen_pos(&screen, "relapsing-remitting");
    mouse(
        &mut app,
        MouseEventKind::Down(MouseButton::Left),
        (x + 2, y),
    );
    mouse(
        &mut app,
        MouseEventKind::Drag(MouseButton::Left),
        (x + 14, y),
    );
    mouse(&mut app, MouseEventKind::Up(MouseButton::Left), (x + 14, y));
    let (a, b) = app.selected_span().expect("a selection");
    let content: Vec<char> = app.ws.corpus.documents[0].content.chars().collect();
    assert_eq!(
        content[a..b].iter().collect::<String>(),
        "relapsing-remitting"
    );
    let screen = render(&mut app, 160, 48);
    assert!(
        screen.contains("selected “relapsing-remitting”"),
        "{screen}"
    );
    key(&mut app, KeyCode::Char('+'));
    pick_type(&mut app, "MEDICAL_CONDITION");
    assert!(app.layers.is_empty());
    assert!(app.ui.doc_selection.is_none(), "the selection is used up");
    assert!(
        app.ws
            .model
            .entities
            .iter()
            .any(|e| e.value == "relapsing-remitting" && e.entity_type == "MEDICAL_CONDITION"),
        "the selected span is a new entity"
    );
    // A click without a drag selects nothing, so + asks for the text instead.
    let screen = render(&mut app, 160, 48);
    let (x, y) = screen_pos(&screen, "Claim review");
    mouse(
        &mut app,
        MouseEventKind::Down(MouseButton::Left),
        (x + 1, y),
    );
    mouse(&mut app, MouseEventKind::Up(MouseButton::Left), (x + 1, y));
    assert!(app.ui.doc_selection.is_none());
    key(&mut app, KeyCode::Char('+'));
    assert!(matches!(app.layers.last(), Some(Layer::AddText { .. })));
    key(&mut app, KeyCode::Esc);
    // Esc clears a selection before it leaves the document.
    mouse(&mut app, MouseEventKind::Down(MouseButton::Left), (x, y));
    mouse(
        &mut app,
        MouseEventKind::Drag(MouseButton::Left),
        (x + 4, y),
    );
    assert!(app.ui.doc_selection.is_some());
    key(&mut app, KeyCode::Esc);
    assert!(app.ui.doc_selection.is_none());
    assert_eq!(app.ui.focus, Pane::Document);
}

#[test]
fn merging_two_entities_keeps_the_target_and_joins_their_documents() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    let from = select_mask(&mut app, "3125550142");
    let from_id = app.ws.model.entities[from].id.clone();
    key(&mut app, KeyCode::Char('m'));
    assert!(app.message.as_ref().unwrap().text.contains("marked"));
    let into = select_mask(&mut app, "MBR390115");
    let into_id = app.ws.model.entities[into].id.clone();
    key(&mut app, KeyCode::Char('m'));
    assert!(render(&mut app, 80, 24).contains("Merge PHONE_NUMBER"));
    key(&mut app, KeyCode::Char('y'));
    assert!(
        app.ws.model.entity_index(&from_id).is_none(),
        "the source is gone"
    );
    let j = app.ws.model.entity_index(&into_id).unwrap();
    assert!(
        app.ws.analysis.entity_docs[j].contains(&0),
        "the target occurs where the source did"
    );
}

#[test]
fn slash_in_the_document_finds_text_and_scrolls_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(sample_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('2'));
    let before = render(&mut app, 80, 24);
    assert!(
        !before.contains("Agent: Marcus Bell"),
        "the end of call_04 is below the fold"
    );
    key(&mut app, KeyCode::Char('/'));
    chars(&mut app, "marcus");
    key(&mut app, KeyCode::Enter);
    let after = render(&mut app, 80, 24);
    assert!(after.contains("Agent: Marcus Bell"), "{after}");
    assert!(after.contains("/marcus: 1 found"), "{after}");
    key(&mut app, KeyCode::Esc);
    assert!(app.ui.doc_search.is_empty(), "Esc clears the search first");
    assert_eq!(app.ui.focus, Pane::Document);
}

#[test]
fn tiny_and_odd_terminal_sizes_draw_without_panicking() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(sample_corpus(), &session_path(&dir));
    let sizes = [
        (1, 1),
        (10, 3),
        (20, 6),
        (40, 10),
        (80, 24),
        (81, 25),
        (139, 39),
        (140, 40),
        (250, 70),
    ];
    for k in ['1', '2', '3', '4', '5', '6'] {
        key(&mut app, KeyCode::Char(k));
        for (w, h) in sizes {
            render(&mut app, w, h);
        }
    }
    // The what-if pane exploring, then its sweep chart and the value field.
    select_param(&mut app, "theta_chain");
    key(&mut app, KeyCode::Char('H'));
    for (w, h) in sizes {
        render(&mut app, w, h);
    }
    key(&mut app, KeyCode::Char('S'));
    app.wait_whatif(Duration::from_secs(60));
    for (w, h) in sizes {
        render(&mut app, w, h);
    }
    key(&mut app, KeyCode::Char('='));
    for (w, h) in sizes {
        render(&mut app, w, h);
    }
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Esc);
    app.wait_whatif(Duration::from_secs(60));
    for popup in ['?', 'e'] {
        key(&mut app, KeyCode::Char('3'));
        key(&mut app, KeyCode::Char(popup));
        for (w, h) in sizes {
            render(&mut app, w, h);
        }
        key(&mut app, KeyCode::Esc);
    }
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains(" ready "), "{screen}");
}

#[test]
fn no_color_draws_without_any_colour_and_focus_stays_visible() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    app.theme = Theme::select(None, true).unwrap();
    key(&mut app, KeyCode::Char('2'));
    let mut term = Terminal::new(TestBackend::new(160, 48)).unwrap();
    term.draw(|f| {
        clam::tui::ui::draw(f, &app);
    })
    .unwrap();
    let buf = term.backend().buffer().clone();
    use ratatui::style::{Color, Modifier};
    assert!(
        buf.content()
            .iter()
            .all(|c| c.fg == Color::Reset && c.bg == Color::Reset),
        "NO_COLOR: every cell in the terminal's own colours"
    );
    assert!(
        buf.content()
            .iter()
            .any(|c| c.modifier.contains(Modifier::REVERSED)),
        "masked entities and the cursor still stand out"
    );
    let text: String = buf.content().iter().map(|c| c.symbol()).collect();
    assert!(text.contains("▶ Document"));
}

#[test]
fn selecting_a_chain_highlights_its_documents_in_the_list() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(sample_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('4'));
    key(&mut app, KeyCode::Char('j'));
    let c = app.ui.chains.current().unwrap();
    let ids: Vec<String> = app.ws.analysis.chains[c]
        .docs
        .iter()
        .map(|&d| app.ws.model.docs[d as usize].id.clone())
        .collect();
    // Tall enough for the document list to show all 25 documents of the sample corpus.
    let mut term = Terminal::new(TestBackend::new(80, 60)).unwrap();
    term.draw(|f| {
        clam::tui::ui::draw(f, &app);
    })
    .unwrap();
    let buf = term.backend().buffer().clone();
    let row_bg = |id: &str| {
        (0..buf.area.height).find_map(|y| {
            let row: String = (0..40).map(|x| buf[(x, y)].symbol().to_string()).collect();
            row.contains(&format!("│{id} ")).then(|| buf[(2, y)].bg)
        })
    };
    for id in &ids {
        assert_eq!(
            row_bg(id),
            Some(app.theme.highlight_bg),
            "{id} is highlighted"
        );
    }
    let other = app
        .ws
        .corpus
        .documents
        .iter()
        .map(|d| d.id.clone())
        .find(|d| !ids.contains(d) && d != "call_04")
        .unwrap();
    assert_ne!(
        row_bg(&other),
        Some(app.theme.highlight_bg),
        "{other} is not"
    );
}

/// Runs the background extract-and-plan worker to the end, collecting its messages.
fn plan_in_background(app: &App) -> Vec<WorkerMsg> {
    let shadow = app.ws.shadow().expect("shadow");
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    let ex = extractor_for(app);
    clam::tui::worker::extract_and_plan(
        shadow,
        ex.as_ref(),
        &tx,
        &tokio_util::sync::CancellationToken::new(),
    );
    let mut out = Vec::new();
    while let Ok(m) = rx.try_recv() {
        out.push(m);
    }
    out
}

#[test]
fn the_workspace_ends_with_the_entities_and_plan_of_clam_run() {
    // The context pass and the linker are corpus-level steps; the review workspace
    // redoes them as documents arrive, so its final entities (and so its export) are
    // those of the headless pipeline, whichever order the results come in.
    let dir = tempfile::tempdir().unwrap();
    let corpus = sample_corpus();
    for linker in [false, true] {
        let config = Config {
            linker,
            ..Config::default()
        };
        let ex = clam::extract::offline::OfflineExtractor::from_config(&config);
        let headless = Workspace::new(
            corpus.clone(),
            config.clone(),
            clam::workspace::extract_all(&corpus, &config, &ex),
            None,
            "offline",
        )
        .unwrap();
        let path = dir.path().join(format!("s{linker}.sqlite"));
        let mut ws = Workspace::pending(
            corpus.clone(),
            config.clone(),
            Some(Session::open(&path).unwrap()),
            "offline",
        )
        .unwrap();
        // Bursts of three, last document first.
        let mut order: Vec<usize> = (0..corpus.documents.len()).rev().collect();
        order.rotate_left(5);
        for chunk in order.chunks(3) {
            ws.set_extracted(chunk.iter().map(|&i| {
                (
                    i,
                    clam::extract::Extractor::extract(&ex, &corpus.documents[i]).unwrap(),
                )
            }))
            .unwrap();
        }
        assert!(ws.extraction_complete());
        assert_eq!(
            ws.store.docs, headless.store.docs,
            "linker = {linker}: the same entities in every document"
        );
        assert_eq!(ws.plan.masked, headless.plan.masked);
        assert_eq!(ws.analysis.chains.len(), headless.analysis.chains.len());
    }
}

#[test]
fn planning_off_the_ui_thread_gives_the_same_plan() {
    let dir = tempfile::tempdir().unwrap();
    let reference = open(sample_corpus(), &dir.path().join("a.sqlite"));
    let mut app = pending(sample_corpus(), &dir.path().join("b.sqlite"));
    let msgs = plan_in_background(&app);
    assert!(matches!(msgs.last(), Some(WorkerMsg::Done)));
    assert!(msgs.iter().any(|m| matches!(m, WorkerMsg::Planned(_))));
    for m in msgs {
        app.on_worker(m);
    }
    assert!(app.is_ready());
    assert_eq!(app.ws.model.docs.len(), 25);
    assert_eq!(app.ws.plan.masked, reference.ws.plan.masked);
    assert_eq!(
        app.ws.analysis.edges.len(),
        reference.ws.analysis.edges.len()
    );
}

#[test]
fn a_decision_taken_while_extraction_runs_survives_the_next_results() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = pending(sample_corpus(), &session_path(&dir));
    let msgs = plan_in_background(&app);
    let mut msgs = msgs.into_iter();
    // Install the first plan, then decide, then install the rest.
    for m in msgs.by_ref() {
        let planned = matches!(m, WorkerMsg::Planned(_));
        app.on_worker(m);
        if planned {
            break;
        }
    }
    let rest: Vec<WorkerMsg> = msgs.collect();
    assert!(
        rest.iter().any(|m| matches!(m, WorkerMsg::Planned(_))),
        "the first document is planned alone, the last burst after it"
    );
    key(&mut app, KeyCode::Char('3'));
    let i = app.ui.masks.current().expect("a mask in the first burst");
    let id = app.ws.model.entities[i].id.clone();
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "decided early");
    key(&mut app, KeyCode::Enter);
    for m in rest {
        app.on_worker(m);
    }
    assert!(app.is_ready());
    let j = app.ws.model.entity_index(&id).unwrap();
    assert!(
        !app.ws.plan.masked[j],
        "the override still holds after later bursts"
    );
    assert_eq!(app.views.review[j], ReviewState::Overridden);
}

#[test]
fn an_acceptance_goes_stale_when_the_proposal_changes_and_counts_as_unreviewed() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(sample_corpus(), &session_path(&dir));
    // A kept entity that a stricter chain target will mask.
    let mut strict = app.ws.config.clone();
    strict.plan.theta_chain = 0.0;
    strict.plan.rho_high = 0.0;
    strict.plan.rho_medium = 0.0;
    let mut probe = app.ws.shadow().unwrap();
    probe.set_config(strict.clone()).unwrap();
    let i = (0..app.ws.model.entities.len())
        .find(|&i| !app.ws.plan.masked[i] && probe.plan.masked[i])
        .expect("an entity only the strict plan masks");
    let value = app.ws.model.entities[i].value.clone();
    select_mask(&mut app, &value);
    key(&mut app, KeyCode::Char('a'));
    assert_eq!(app.views.review[i], ReviewState::Accepted);
    let (reviewed, _) = app.reviewed_masks();
    app.ws.set_config(strict).unwrap();
    app.refresh();
    assert!(app.ws.plan.masked[i]);
    assert_eq!(app.views.review[i], ReviewState::Stale);
    assert_eq!(
        app.reviewed_masks().0,
        reviewed,
        "a stale acceptance is not a review"
    );
    assert!(render(&mut app, 160, 48).contains("stale"));
}

#[test]
fn clicking_an_entity_in_the_document_puts_the_cursor_on_it() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    let screen = render(&mut app, 160, 48);
    let (x, y) = screen
        .lines()
        .enumerate()
        .find_map(|(y, l)| {
            l.find("312-555")
                .map(|b| (l[..b].chars().count() as u16, y as u16))
        })
        .expect("the phone number on screen");
    assert_eq!(app.ui.doc_cursor, 0);
    app.handle_mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: x + 1,
        row: y,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.ui.focus, Pane::Document);
    let m = app.cursor_mention().expect("a mention under the cursor");
    assert_eq!(m.entity_type, "PHONE_NUMBER");
    assert_ne!(
        app.ui.doc_cursor, 0,
        "the cursor moved to the clicked mention"
    );
}

#[test]
fn the_redaction_mode_cycles_and_the_preview_follows() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Char('M'));
    assert_eq!(app.ws.config.redaction, clam::redact::Mode::Pseudonym);
    assert!(app.ui.redacted_preview, "cycling shows the preview");
    let screen = render(&mut app, 160, 48);
    assert!(screen.contains("[NAME_"), "pseudonyms: {screen}");
    key(&mut app, KeyCode::Char('M'));
    let screen = render(&mut app, 160, 48);
    assert!(screen.contains("a person"), "generalize: {screen}");
    key(&mut app, KeyCode::Char('M'));
    assert!(render(&mut app, 160, 48).contains("[REDACTED]"));
}

#[test]
fn skipped_input_is_counted_in_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let mut corpus = small_corpus();
    corpus.diagnostics.push(clam::corpus::Diagnostic {
        file: "broken.json".into(),
        line: None,
        message: "not JSON".into(),
    });
    let mut app = open(corpus, &session_path(&dir));
    assert!(render(&mut app, 120, 30).contains("1 file(s) skipped"));
}

// ----- gold chains -----

fn gold_of(app: &App) -> Vec<(Vec<String>, Option<String>)> {
    app.ws
        .state
        .gold
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn status(app: &App) -> String {
    app.message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

/// Selects document `id` in the list (the graph's selected node follows it).
fn select_doc(app: &mut App, id: &str) {
    let i = app
        .ws
        .corpus
        .documents
        .iter()
        .position(|d| d.id == id)
        .unwrap_or_else(|| panic!("no document {id}"));
    app.select_document(i);
}

#[test]
fn g_marks_the_selected_chain_as_gold_with_a_note_undo_and_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = session_path(&dir);
    let pair = ids(&["claim_01", "record_02"]);
    {
        let mut app = open(small_corpus(), &path);
        key(&mut app, KeyCode::Char('4'));
        key(&mut app, KeyCode::Char('g'));
        assert_eq!(gold_of(&app), vec![(pair.clone(), None)]);
        assert!(status(&app).contains("gold chain: claim_01 + record_02"));
        assert!(app.is_gold(0));
        key(&mut app, KeyCode::Char('g'));
        assert!(gold_of(&app).is_empty(), "g again unmarks");
        key(&mut app, KeyCode::Char('u'));
        assert_eq!(gold_of(&app), vec![(pair.clone(), None)], "undo re-marks");
        // G: the note, in a text popup.
        key(&mut app, KeyCode::Char('G'));
        assert!(matches!(app.layers.last(), Some(Layer::GoldNote { .. })));
        chars(&mut app, "same member id");
        key(&mut app, KeyCode::Enter);
        assert_eq!(
            gold_of(&app),
            vec![(pair.clone(), Some("same member id".into()))]
        );
        key(&mut app, KeyCode::Char('u'));
        assert_eq!(
            gold_of(&app),
            vec![(pair.clone(), None)],
            "undo drops the note"
        );
        key(&mut app, KeyCode::Char('G'));
        chars(&mut app, "same MBR");
        key(&mut app, KeyCode::Enter);
        let log = audit_log(&app);
        assert!(log.iter().any(|e| e.action.name() == "gold_unmark"));
        assert_eq!(log.last().unwrap().action.name(), "gold_mark");
    }
    let app = open(small_corpus(), &path);
    assert_eq!(gold_of(&app), vec![(pair, Some("same MBR".into()))]);
    assert!(app.is_gold(0), "the chain table marks it after reopening");
}

#[test]
fn documents_picked_in_the_graph_become_a_gold_chain_without_an_edge() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('5'));
    key(&mut app, KeyCode::Char('g'));
    assert!(
        status(&app).contains("pick 2–3 documents"),
        "{}",
        status(&app)
    );
    select_doc(&mut app, "claim_01");
    key(&mut app, KeyCode::Char(' '));
    select_doc(&mut app, "memo_03");
    key(&mut app, KeyCode::Char(' '));
    assert_eq!(app.ui.gold_pending, vec![0, 2]);
    let screen = render(&mut app, 160, 48);
    assert!(screen.contains("◆ claim_01 + memo_03"), "{screen}");
    assert!(screen.contains("◆memo_03"), "{screen}");
    // Esc drops the picked documents; pick again, with a third, then a fourth refused.
    key(&mut app, KeyCode::Esc);
    assert!(app.ui.gold_pending.is_empty());
    for id in ["claim_01", "memo_03", "note_04", "record_02"] {
        select_doc(&mut app, id);
        key(&mut app, KeyCode::Char(' '));
    }
    assert!(status(&app).contains("at most 3"), "{}", status(&app));
    assert_eq!(app.ui.gold_pending.len(), 3);
    key(&mut app, KeyCode::Char('g'));
    assert_eq!(
        gold_of(&app),
        vec![(ids(&["claim_01", "memo_03", "note_04"]), None)]
    );
    assert!(
        app.ui.gold_pending.is_empty(),
        "marked: the pick is cleared"
    );
}

/// The small corpus with two gold chains: the flagged claim_01→record_02 and
/// memo_03 + note_04, which no chain links (pairs: tp 1, fp 0, fn 1).
fn gold_app(dir: &tempfile::TempDir) -> App {
    let mut app = snapshot_app(dir);
    key(&mut app, KeyCode::Char('4'));
    key(&mut app, KeyCode::Char('g'));
    key(&mut app, KeyCode::Char('5'));
    for id in ["memo_03", "note_04"] {
        select_doc(&mut app, id);
        key(&mut app, KeyCode::Char(' '));
    }
    key(&mut app, KeyCode::Char('G'));
    chars(&mut app, "same caller");
    key(&mut app, KeyCode::Enter);
    select_doc(&mut app, "claim_01");
    app.message = None;
    app
}

#[test]
fn the_gold_pane_shows_live_f1_and_the_missed_chain_is_selectable() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = snapshot_app(&dir);
    key(&mut app, KeyCode::Char('7'));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("No gold chains yet"), "{screen}");
    drop(app);
    let dir = tempfile::tempdir().unwrap();
    let mut app = gold_app(&dir);
    key(&mut app, KeyCode::Char('7'));
    let cmp = app.views.gold.comparison.clone().expect("gold");
    assert_eq!((cmp.pairs.tp, cmp.pairs.fp, cmp.pairs.fn_), (1, 0, 1));
    assert!((cmp.pairs.f1 - 2.0 / 3.0).abs() < 1e-9);
    let screen = render(&mut app, 160, 48);
    assert!(screen.contains("▶ Gold chains"), "{screen}");
    assert!(
        !screen.contains("Document "),
        "it takes the document view's place"
    );
    assert!(screen.contains("F1 0.67"), "{screen}");
    assert!(screen.contains("missed"), "{screen}");
    // Enter on the missed chain selects its first document.
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.ui.open_doc, Some(2));
    assert!(status(&app).contains("no chain over kept edges"));
    // Unmarking the flagged gold chain: recall 0, and the flagged chain is not gold.
    key(&mut app, KeyCode::Char('4'));
    key(&mut app, KeyCode::Char('g'));
    key(&mut app, KeyCode::Char('7'));
    let cmp = app.views.gold.comparison.clone().expect("gold");
    assert_eq!((cmp.pairs.tp, cmp.pairs.fp, cmp.pairs.fn_), (0, 1, 1));
    key(&mut app, KeyCode::Down);
    assert!(matches!(
        app.views.gold.rows[app.ui.gold.current().unwrap()],
        clam::tui::app::GoldRow::NotGold(0)
    ));
    // g on a flagged chain that is not gold marks it; Enter selects it in the chains pane.
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.ui.focus, Pane::Chains);
    assert_eq!(app.ui.chains.current(), Some(0));
    key(&mut app, KeyCode::Char('7'));
    key(&mut app, KeyCode::Char('g'));
    let cmp = app.views.gold.comparison.clone().expect("gold");
    assert_eq!((cmp.pairs.tp, cmp.pairs.fp, cmp.pairs.fn_), (1, 0, 1));
}

#[test]
fn gold_chains_are_imported_from_both_formats_and_exported_redacted() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    let thesis = dir.path().join("gold_chains.json");
    std::fs::write(
        &thesis,
        r#"{"links": [["record_02", "claim_01"], ["claim_01", "nowhere_9"]],
            "notes": [{"documents": ["claim_01", "record_02"], "note": "Hannah Brooks twice"}]}"#,
    )
    .unwrap();
    let devset = dir.path().join("gold.json");
    std::fs::write(
        &devset,
        r#"{"clusters": [{"cluster_id": "d01", "docs": ["memo_03", "note_04"],
            "gold_chains": [{"docs": ["memo_03", "note_04"], "via": []}, ["claim_01", "record_02"]]}]}"#,
    )
    .unwrap();
    key(&mut app, KeyCode::Char('7'));
    key(&mut app, KeyCode::Char('i'));
    chars(&mut app, "/no/such/gold.json");
    key(&mut app, KeyCode::Enter);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("cannot read"), "{screen}");
    for _ in 0.."/no/such/gold.json".len() {
        key(&mut app, KeyCode::Backspace);
    }
    chars(&mut app, &thesis.display().to_string());
    key(&mut app, KeyCode::Enter);
    assert!(app.layers.is_empty());
    assert_eq!(
        status(&app),
        "imported 1 gold chain(s); skipped 1: 1 with a document not in the corpus"
    );
    key(&mut app, KeyCode::Char('i'));
    chars(&mut app, &devset.display().to_string());
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        status(&app),
        "imported 1 gold chain(s); skipped 1: 1 already gold"
    );
    assert_eq!(
        gold_of(&app),
        vec![
            (
                ids(&["claim_01", "record_02"]),
                Some("Hannah Brooks twice".into())
            ),
            (ids(&["memo_03", "note_04"]), None),
        ]
    );
    // The export writes them in the thesis format, through the replacer.
    let out = dir.path().join("export");
    let outcome = app.run_export(
        &out.display().to_string(),
        clam::redact::Mode::Redact,
        false,
    );
    assert!(matches!(outcome, ExportOutcome::Written(_)), "{outcome:?}");
    let text = std::fs::read_to_string(out.join("gold_chains.json")).unwrap();
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        v["links"],
        serde_json::json!([["claim_01", "record_02"], ["memo_03", "note_04"]])
    );
    assert_eq!(v["notes"][0]["note"], "[REDACTED] twice", "{text}");
    let reread = clam::eval::gold::load_chains(&out.join("gold_chains.json")).unwrap();
    assert_eq!(reread.chains.len(), 2, "the thesis loader reads it back");
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

// ----- what-if -----

/// Focuses the what-if pane and moves the cursor to parameter `name`.
fn select_param(app: &mut App, name: &str) {
    key(app, KeyCode::Char('6'));
    let target = clam::whatif::Param::ALL
        .iter()
        .position(|p| p.name() == name)
        .expect("parameter");
    for _ in 0..20 {
        key(app, KeyCode::Char('k'));
    }
    for _ in 0..target {
        key(app, KeyCode::Char('j'));
    }
    assert_eq!(app.whatif.param().map(|p| p.name()), Some(name));
}

/// Types `value` for the selected parameter.
fn type_value(app: &mut App, value: &str) {
    key(app, KeyCode::Char('='));
    for _ in 0..10 {
        key(app, KeyCode::Backspace);
    }
    chars(app, value);
    key(app, KeyCode::Enter);
}

#[test]
fn a_what_if_change_replans_at_once_and_esc_returns_to_the_reviewed_settings() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    select_param(&mut app, "risk_medium");
    type_value(&mut app, "0.1");
    assert!(app.layers.is_empty(), "a valid value closes the field");
    let d = app.whatif.diff.clone().expect("a diff, planned at once");
    assert_eq!((d.reviewed.masked, d.candidate.masked), (3, 4));
    assert_eq!(d.newly_masked.len(), 1);
    assert_eq!((d.candidate.medium, d.candidate.low), (1, 0));
    assert_eq!(
        app.ws.plan.masked_count(),
        3,
        "the plan in effect is unchanged"
    );
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("3 masked → what-if 4"), "{screen}");
    assert!(screen.contains("→ 0.1"), "{screen}");
    // A fine step from the candidate value.
    key(&mut app, KeyCode::Char('l'));
    assert_eq!(
        app.candidate_config().expect("valid").plan.risk_medium,
        0.11,
        "one fine step up"
    );
    key(&mut app, KeyCode::Esc);
    assert!(!app.whatif.exploring());
    assert!(app.whatif.diff.is_none());
    let screen = render(&mut app, 80, 24);
    assert!(!screen.contains("what-if 4"), "{screen}");
    assert!(screen.contains("3 masked, 0 reviewed"), "{screen}");
}

#[test]
fn a_typed_value_out_of_range_is_refused_with_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    select_param(&mut app, "theta_doc");
    type_value(&mut app, "1.5");
    match app.layers.last() {
        Some(Layer::WhatIf { error: Some(e), .. }) => {
            assert_eq!(e, "what-if: key `theta_doc`: 1.5 is outside [0, 1]")
        }
        other => panic!("the field stays open with the error: {other:?}"),
    }
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("is outside [0, 1]"), "{screen}");
    key(&mut app, KeyCode::Esc);
    assert!(!app.whatif.exploring(), "nothing applied");
    select_param(&mut app, "strategy");
    type_value(&mut app, "fastest");
    assert!(
        matches!(app.layers.last(), Some(Layer::WhatIf { error: Some(e), .. }) if e.contains("greedy, knapsack"))
    );
}

#[test]
fn enter_adopts_the_settings_as_a_decision_that_reopening_restores_and_undo_reverts() {
    let dir = tempfile::tempdir().unwrap();
    {
        let mut app = open(small_corpus(), &session_path(&dir));
        select_param(&mut app, "theta_doc");
        type_value(&mut app, "0.3");
        assert_eq!(
            app.whatif.diff.as_ref().map(|d| d.candidate.masked),
            Some(5)
        );
        key(&mut app, KeyCode::Enter);
        assert!(!app.whatif.exploring());
        assert_eq!(app.ws.config.plan.theta_doc, 0.3);
        assert_eq!(
            app.ws.plan.masked_count(),
            5,
            "the adopted plan is in effect"
        );
        let log = audit_log(&app);
        let last = log.last().expect("a decision");
        assert_eq!(
            last.action,
            clam::session::AuditAction::Settings {
                old: [("theta_doc".to_string(), "0.95".to_string())].into(),
                new: [("theta_doc".to_string(), "0.3".to_string())].into(),
            }
        );
        assert_eq!(last.state_before.as_deref(), Some("theta_doc=0.95"));
        assert_eq!(last.state_after.as_deref(), Some("theta_doc=0.3"));
        let screen = render(&mut app, 80, 24);
        assert!(screen.contains("5 masked"), "{screen}");
        assert!(screen.contains("adopted: theta_doc 0.95 → 0.3"), "{screen}");
    }
    let mut app = open(small_corpus(), &session_path(&dir));
    assert_eq!(app.ws.config.plan.theta_doc, 0.3, "restored on reopening");
    assert_eq!(app.ws.plan.masked_count(), 5);
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(
        app.ws.config.plan.theta_doc, 0.95,
        "undo restores the setting"
    );
    assert_eq!(app.ws.plan.masked_count(), 3);
}

#[test]
fn a_pinned_entity_holds_under_every_what_if_setting() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    select_param(&mut app, "risk_medium");
    type_value(&mut app, "0.1");
    let e = app.whatif.diff.as_ref().expect("diff").newly_masked[0];
    key(&mut app, KeyCode::Esc);
    // Pin it as kept (its state in effect).
    app.update(clam::tui::Action::FocusMasks);
    app.ui.show_all_entities = true;
    app.refresh();
    assert!(app.ui.masks.select_item(e));
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(app.views.review[e], ReviewState::Pinned);
    for (param, values) in [
        ("risk_medium", &["0", "0.1", "0.3"][..]),
        ("theta_doc", &["0", "0.3"][..]),
        ("edge_threshold", &["0", "0.1"][..]),
        ("theta_chain", &["0"][..]),
    ] {
        select_param(&mut app, param);
        for v in values {
            type_value(&mut app, v);
            app.wait_whatif(Duration::from_secs(30));
            let c = app.whatif.candidate.as_ref().expect("candidate");
            assert!(
                !c.plan.masked[e],
                "{param} = {v}: the pinned entity is masked"
            );
        }
        key(&mut app, KeyCode::Esc);
    }
}

#[test]
fn an_analysis_change_is_computed_off_the_ui_thread() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    select_param(&mut app, "edge_threshold");
    type_value(&mut app, "0.1");
    if app.whatif.busy() {
        let screen = render(&mut app, 80, 24);
        assert!(screen.contains("recomputing"), "{screen}");
    }
    app.wait_whatif(Duration::from_secs(30));
    assert!(!app.whatif.busy());
    let d = app.whatif.diff.as_ref().expect("diff");
    assert_eq!((d.reviewed.chains, d.candidate.chains), (1, 3));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("ready"), "{screen}");
    assert!(screen.contains("0/0/1 → 0/0/3"), "{screen}");
    // A planner-only change goes off the UI thread too once a plan took over a frame.
    key(&mut app, KeyCode::Esc);
    app.whatif.last_plan = Duration::from_secs(1);
    select_param(&mut app, "theta_doc");
    type_value(&mut app, "0.3");
    assert!(app.whatif.busy(), "planned on another thread");
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("recomputing"), "{screen}");
    app.wait_whatif(Duration::from_secs(30));
    assert_eq!(
        app.whatif.diff.as_ref().map(|d| d.candidate.masked),
        Some(5)
    );
    assert!(
        app.whatif.last_plan < Duration::from_secs(1),
        "the new timing is kept"
    );
}

#[test]
fn enter_on_a_newly_masked_entity_shows_it_in_the_redaction_set() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    select_param(&mut app, "theta_doc");
    type_value(&mut app, "0.3");
    let first = app.whatif.diff.as_ref().expect("diff").newly_masked[0];
    while app.whatif.selected < clam::whatif::Param::ALL.len() {
        key(&mut app, KeyCode::Char('j'));
    }
    assert_eq!(app.whatif.changed_entity(), Some((first, true)));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.ui.focus, Pane::Masks);
    assert_eq!(app.ui.masks.current(), Some(first));
    assert!(app.whatif.exploring(), "the candidate stays while looking");
}

#[test]
fn the_sweep_chart_plots_the_selected_parameter_and_its_range_is_editable() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    select_param(&mut app, "risk_medium");
    key(&mut app, KeyCode::Char('S'));
    app.wait_whatif(Duration::from_secs(30));
    let s = app.whatif.sweep.clone().expect("sweep");
    assert_eq!((s.from, s.to), (0.0, 0.75), "risk_medium up to risk_high");
    assert!(s.rows.len() > 10);
    let at = |v: f64| s.rows.iter().find(|r| (r.value - v).abs() < 1e-9).cloned();
    assert_eq!(at(0.0).map(|r| r.masked), Some(4));
    assert_eq!(at(0.72).map(|r| r.masked), Some(3));
    key(&mut app, KeyCode::Char('R'));
    for _ in 0..20 {
        key(&mut app, KeyCode::Backspace);
    }
    chars(&mut app, "0.6 0.2 0.1");
    key(&mut app, KeyCode::Enter);
    assert!(
        matches!(app.layers.last(), Some(Layer::WhatIf { error: Some(e), .. }) if e.contains("above to")),
        "a reversed range is refused"
    );
    for _ in 0..20 {
        key(&mut app, KeyCode::Backspace);
    }
    chars(&mut app, "0 0.5 0.1");
    key(&mut app, KeyCode::Enter);
    app.wait_whatif(Duration::from_secs(30));
    let rows = &app.whatif.sweep.as_ref().expect("sweep").rows;
    let values: Vec<f64> = rows.iter().map(|r| r.value).collect();
    assert_eq!(values, vec![0.0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    // With gold chains, each row has the chain pairs F1 and the chart plots it.
    app.whatif.gold = Some(vec![vec!["claim_01".into(), "record_02".into()]]);
    select_param(&mut app, "edge_threshold");
    app.wait_whatif(Duration::from_secs(30));
    let rows = &app.whatif.sweep.as_ref().expect("sweep").rows;
    let f1_at = |v: f64| {
        rows.iter()
            .find(|r| (r.value - v).abs() < 1e-9)
            .and_then(|r| r.f1)
    };
    assert_eq!(f1_at(0.5), Some(1.0), "the one gold pair is the one chain");
    assert_eq!(f1_at(1.0), Some(0.0), "no edge is kept at 1");
    let screen = render(&mut app, 160, 48);
    assert!(screen.contains("chain pairs F1"), "{screen}");
    // A parameter that is not a number says so.
    select_param(&mut app, "strategy");
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("strategy is not a number"), "{screen}");
    key(&mut app, KeyCode::Char('S'));
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("parameter"),
        "back to the parameters: {screen}"
    );
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
    app.wait_whatif(Duration::from_secs(30));
    for (w, h) in [(80, 24), (160, 48)] {
        insta::assert_snapshot!(format!("sweep_{w}x{h}"), render(&mut app, w, h));
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

#[test]
fn adopting_a_new_edge_threshold_installs_the_candidates_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let (masked, chains);
    {
        let mut app = open(small_corpus(), &session_path(&dir));
        select_param(&mut app, "edge_threshold");
        type_value(&mut app, "0.1");
        app.wait_whatif(Duration::from_secs(30));
        let d = app.whatif.diff.clone().expect("diff");
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.ws.config.analysis.edge_threshold, 0.1);
        let fresh = clam::analysis::Analysis::new(&app.ws.model, &app.ws.config.analysis_params());
        assert_eq!(app.ws.analysis.chains, fresh.chains);
        assert_eq!(app.ws.analysis.edges, fresh.edges);
        assert_eq!(app.ws.plan.masked_count(), d.candidate.masked);
        assert_eq!(app.ws.plan.chains.len(), d.candidate.chains);
        (masked, chains) = (app.ws.plan.masked.clone(), app.ws.plan.chains.len());
    }
    let app = open(small_corpus(), &session_path(&dir));
    assert_eq!(app.ws.plan.masked, masked, "reopening plans the same");
    assert_eq!(app.ws.plan.chains.len(), chains);
}

#[test]
fn a_click_focuses_the_what_if_pane_in_the_narrow_layout() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('6'));
    key(&mut app, KeyCode::Char('1'));
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("What-if"),
        "the detail pane stays: {screen}"
    );
    app.handle_mouse(crossterm::event::MouseEvent {
        kind: crossterm::event::MouseEventKind::Down(crossterm::event::MouseButton::Left),
        column: 60,
        row: 10,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(app.ui.focus, Pane::WhatIf);
}

#[test]
fn settings_adopted_while_extraction_runs_hold_for_the_later_results() {
    let dir = tempfile::tempdir().unwrap();
    let reference = {
        let mut r = open(sample_corpus(), &dir.path().join("ref.sqlite"));
        select_param(&mut r, "edge_threshold");
        type_value(&mut r, "0.3");
        r.wait_whatif(Duration::from_secs(60));
        key(&mut r, KeyCode::Enter);
        assert_eq!(r.ws.config.analysis.edge_threshold, 0.3);
        r.ws.plan.masked.clone()
    };
    let mut app = pending(sample_corpus(), &session_path(&dir));
    let mut msgs = plan_in_background(&app).into_iter();
    for m in msgs.by_ref() {
        let planned = matches!(m, WorkerMsg::Planned(_));
        app.on_worker(m);
        if planned {
            break;
        }
    }
    // The worker's copy keeps planning with edge_threshold 0.5.
    app.whatif.synchronous = true;
    select_param(&mut app, "edge_threshold");
    type_value(&mut app, "0.3");
    key(&mut app, KeyCode::Enter);
    for m in msgs {
        app.on_worker(m);
    }
    assert!(app.is_ready());
    assert_eq!(app.ws.config.analysis.edge_threshold, 0.3);
    let fresh = clam::analysis::Analysis::new(&app.ws.model, &app.ws.config.analysis_params());
    assert_eq!(
        app.ws.analysis.edges, fresh.edges,
        "analysed with the adopted value"
    );
    assert_eq!(app.ws.plan.masked, reference);
}

#[test]
fn gold_persons_give_the_leak_rate_and_utility_of_the_plan_in_effect() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(sample_corpus(), &session_path(&dir));
    let gold_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_corpus/gold/gold.json");
    let gold = clam::eval::load(&gold_file, None).unwrap();
    app.set_gold_eval(&gold, "gold.json".into()).unwrap();
    key(&mut app, KeyCode::Char('7'));
    let screen = render(&mut app, 160, 48);
    // The same figure as `clam eval` on the same plan.
    let expected = clam::eval::evaluate(&app.ws, &gold)
        .privacy
        .expect("privacy")
        .leak_rate
        .expect("leak rate");
    assert!(
        screen.contains(&format!("person leak rate {expected:.3}")),
        "{screen}"
    );
    assert!(screen.contains("utility R-1 spec/single"), "{screen}");
    let before = app.gold_eval.as_ref().unwrap().report.clone().unwrap().0;
    // A decision re-plans and the figures follow the new plan.
    let i = select_mask(&mut app, "priya raman");
    assert!(app.ws.plan.masked[i]);
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "public figure");
    key(&mut app, KeyCode::Enter);
    assert!(!app.ws.plan.masked[i]);
    key(&mut app, KeyCode::Char('7'));
    let after = app.gold_eval.as_ref().unwrap().report.clone().unwrap().0;
    assert_ne!(after.leak_rate, before.leak_rate);
    assert_eq!(
        after.leak_rate,
        clam::eval::evaluate(&app.ws, &gold)
            .privacy
            .expect("privacy")
            .leak_rate
    );
    // The sweep chart plots the leak rate at each value.
    key(&mut app, KeyCode::Char('6'));
    key(&mut app, KeyCode::Char('S'));
    app.wait_whatif(Duration::from_secs(60));
    let rows = &app.whatif.sweep.as_ref().expect("sweep").rows;
    assert!(!rows.is_empty() && rows.iter().all(|r| r.leak_rate.is_some()));
    let screen = render(&mut app, 160, 48);
    assert!(screen.contains("person leak rate (•)"), "{screen}");
}

#[test]
fn a_gold_file_without_persons_or_questions_is_refused_for_the_figures() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &session_path(&dir));
    let file = dir.path().join("links.json");
    std::fs::write(&file, r#"{"links": [["claim_01", "record_02"]]}"#).unwrap();
    let gold = clam::eval::load(&file, None).unwrap();
    let err = app.set_gold_eval(&gold, "links.json".into()).unwrap_err();
    assert!(err.contains("no persons or questions"), "{err}");
    assert!(app.gold_eval.is_none());
}

#[test]
fn removing_an_entity_everywhere_asks_first_and_persists() {
    let dir = tempfile::tempdir().unwrap();
    let path = session_path(&dir);
    let gone = |app: &App| app.ws.model.entity_index(&member_id()).is_none();
    {
        let mut app = open(small_corpus(), &path);
        let id = member_id();
        select_mask(&mut app, "MBR390115");
        key(&mut app, KeyCode::Char('X'));
        let screen = render(&mut app, 80, 24);
        assert!(
            screen.contains("Remove everywhere") && screen.contains("from all 3 document(s)"),
            "{screen}"
        );
        key(&mut app, KeyCode::Char('n'));
        assert!(!gone(&app), "any other key cancels");
        assert!(audit_log(&app).is_empty());
        // A pin first: once the entity is gone it is an orphaned decision, kept.
        key(&mut app, KeyCode::Char('p'));
        assert!(!render(&mut app, 160, 48).contains("orphaned"));
        key(&mut app, KeyCode::Char('X'));
        key(&mut app, KeyCode::Char('y'));
        assert!(
            app.ws.model.entity_index(&id).is_none(),
            "gone from every document"
        );
        assert_eq!(
            app.ws.orphaned_decisions(),
            vec![(id.clone(), "pinned mask")]
        );
        assert!(render(&mut app, 160, 48).contains("· 1 orphaned"));
        assert!(
            app.ws
                .corpus
                .documents
                .iter()
                .enumerate()
                .all(|(d, _)| { app.mentions(d).iter().all(|m| m.entity_id != id) })
        );
        let log = audit_log(&app);
        assert_eq!(
            log.last().unwrap().action,
            clam::session::AuditAction::RemoveEntity {
                entity: id.clone(),
                doc: None
            }
        );
    }
    let mut app = open(small_corpus(), &path);
    assert!(gone(&app), "the removal is restored on reopening");
    key(&mut app, KeyCode::Char('u'));
    assert!(!gone(&app), "undo brings it back everywhere");
    assert!(
        app.ws.orphaned_decisions().is_empty(),
        "and its pin applies again"
    );
    let i = app.ws.model.entity_index(&member_id()).unwrap();
    assert_eq!(app.views.review[i], ReviewState::Pinned);
}

/// The member id entity of the small corpus.
fn member_id() -> String {
    clam::entity::entity_id("MBR390115", "PATIENT_ID")
}

#[test]
fn a_residual_document_or_chain_is_accepted_with_a_reason_and_marked() {
    let dir = tempfile::tempdir().unwrap();
    let path = session_path(&dir);
    // Nothing may be masked: the riskiest document and chain stay residual.
    let residual_config = |app: &mut App| {
        let types: Vec<String> = app
            .ws
            .config
            .schema
            .types
            .iter()
            .map(|t| t.name.clone())
            .collect();
        let config = Config {
            always_mask: vec![],
            never_mask: types,
            ..app.ws.config.clone()
        };
        app.ws.set_config(config).expect("re-plan");
        app.refresh();
    };
    {
        let mut app = open(small_corpus(), &path);
        residual_config(&mut app);
        assert!(!app.ws.plan.residual_docs.is_empty() && !app.ws.plan.residual_chains.is_empty());
        assert_eq!(
            app.ws.unaccepted_residuals(),
            (
                app.ws.plan.residual_docs.len(),
                app.ws.plan.residual_chains.len()
            )
        );
        // A document that is not residual is refused with the reason why.
        key(&mut app, KeyCode::Char('1'));
        app.select_document(2);
        assert_eq!(app.ws.corpus.documents[2].id, "memo_03");
        key(&mut app, KeyCode::Char('R'));
        assert!(app.layers.is_empty());
        assert!(app.message.as_ref().unwrap().text.contains("not residual"));
        // claim_01 is: R asks for a reason, refuses an empty one, then records it.
        app.select_document(0);
        let row = |app: &mut App| {
            let screen = render(app, 160, 48);
            screen
                .lines()
                .find(|l| l.starts_with("│claim_01"))
                .map(|l| l.chars().take(45).collect::<String>())
                .unwrap_or_default()
        };
        assert!(
            row(&mut app).contains("!"),
            "residual, open: {}",
            row(&mut app)
        );
        key(&mut app, KeyCode::Char('R'));
        key(&mut app, KeyCode::Enter);
        assert!(
            matches!(app.layers.last(), Some(Layer::Reason { error: Some(e), .. }) if e.contains("reason is required"))
        );
        chars(&mut app, "published by the member herself");
        key(&mut app, KeyCode::Enter);
        assert!(app.layers.is_empty());
        assert!(app.ws.residual_accepted(&["claim_01".to_string()]));
        assert!(row(&mut app).contains("✓") && !row(&mut app).contains("!"));
        let entry = audit_log(&app).pop().unwrap();
        assert_eq!(
            entry.action,
            clam::session::AuditAction::AcceptResidual {
                documents: vec!["claim_01".into()]
            }
        );
        assert_eq!(
            entry.reason.as_deref(),
            Some("published by the member herself")
        );
        // The chains pane: the first chain is residual; accept it too.
        key(&mut app, KeyCode::Char('4'));
        assert!(
            render(&mut app, 160, 48).contains("R accept residual"),
            "the status bar hint"
        );
        let c = app.selected_chain().unwrap();
        assert!(app.ws.plan.residual_chains.contains(&(c as u32)));
        key(&mut app, KeyCode::Char('R'));
        chars(&mut app, "both documents go to the same reviewer");
        key(&mut app, KeyCode::Enter);
        assert!(app.residual_chain_accepted(c));
        let screen = render(&mut app, 160, 48);
        assert!(
            screen.contains("accepted)") && screen.contains("risk accepted ✓"),
            "{screen}"
        );
        // Accepting again says so instead of writing a second decision.
        let n = audit_log(&app).len();
        key(&mut app, KeyCode::Char('R'));
        assert!(app.layers.is_empty());
        assert!(
            app.message
                .as_ref()
                .unwrap()
                .text
                .contains("already accepted")
        );
        assert_eq!(audit_log(&app).len(), n);
    }
    let mut app = open(small_corpus(), &path);
    residual_config(&mut app);
    assert!(
        app.ws.residual_accepted(&["claim_01".to_string()]),
        "restored on reopening"
    );
    key(&mut app, KeyCode::Char('u'));
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(
        app.ws.unaccepted_residuals(),
        (
            app.ws.plan.residual_docs.len(),
            app.ws.plan.residual_chains.len()
        ),
        "undo takes both acceptances back"
    );
}

#[test]
fn slow_re_plans_run_off_the_ui_thread_and_land_as_the_inline_ones_do() {
    use clam::tui::app::DeferReplans;
    let steps = |app: &mut App| {
        // An override (a new plan), then at once a corpus-wide removal (new
        // entities and analysis) while the first may still be computing.
        select_mask(app, "hannah brooks");
        key(app, KeyCode::Char('o'));
        chars(app, "public figure");
        key(app, KeyCode::Enter);
        select_mask(app, "MBR390115");
        key(app, KeyCode::Char('X'));
        key(app, KeyCode::Char('y'));
    };
    let dir = tempfile::tempdir().unwrap();
    let mut inline = open(small_corpus(), &dir.path().join("inline.sqlite"));
    inline.defer_replans = DeferReplans::Never;
    steps(&mut inline);
    assert!(!inline.replanning());

    let mut app = open(small_corpus(), &dir.path().join("deferred.sqlite"));
    app.defer_replans = DeferReplans::Always;
    select_mask(&mut app, "hannah brooks");
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "public figure");
    key(&mut app, KeyCode::Enter);
    // Saved at once; the plan follows.
    assert_eq!(audit_log(&app).len(), 1);
    assert!(app.replanning() && !app.is_ready());
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("recomputing"), "{screen}");
    select_mask(&mut app, "MBR390115");
    key(&mut app, KeyCode::Char('X'));
    key(&mut app, KeyCode::Char('y'));
    app.wait_replan(Duration::from_secs(10));
    assert!(!app.replanning() && app.is_ready());
    assert!(render(&mut app, 80, 24).contains("ready"));
    assert_eq!(app.ws.plan, inline.ws.plan, "the same plan as inline");
    assert_eq!(app.ws.model.entities, inline.ws.model.entities);
    assert_eq!(app.views.review, inline.views.review);
    let i = entity_index(&app, "hannah brooks");
    assert!(!app.ws.plan.masked[i], "the override is in force");
    assert_eq!(app.views.review[i], ReviewState::Overridden);
}
