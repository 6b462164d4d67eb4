//! Entity edits (remove, retype, add, merge), mouse selection, odd terminal sizes, background planning.

use super::*;

/// Moves the type picker to `ty` and chooses it.
pub(crate) fn pick_type(app: &mut App, ty: &str) {
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
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('2'));
    let m = app.cursor_mention().unwrap();
    let count = |app: &App| {
        app.mentions(0)
            .iter()
            .filter(|x| x.entity_id == m.entity_id)
            .count()
    };
    assert!(count(&app) > 0);
    let risk_before = app.ws.analysis().doc_risk_initial[0];
    key(&mut app, KeyCode::Char('x'));
    assert_eq!(count(&app), 0, "gone from this document");
    assert!(
        app.ws.analysis().doc_risk_initial[0] < risk_before,
        "the analysis no longer counts it"
    );
    key(&mut app, KeyCode::Char('u'));
    assert!(count(&app) > 0, "undo restores the entity");
    assert_eq!(app.ws.analysis().doc_risk_initial[0], risk_before);
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
        let e = &app.ws.model().entities[entity_index(&app, "hannah brooks")];
        assert_eq!(e.entity_type, "PROVIDER");
    }
    let app = open(small_corpus(), &path);
    let e = &app.ws.model().entities[entity_index(&app, "hannah brooks")];
    assert_eq!(
        e.entity_type, "PROVIDER",
        "the retype is replayed after extraction"
    );
}

#[test]
fn adding_an_entity_by_text_marks_it_and_refuses_text_that_is_not_there() {
    let (_dir, mut app) = open_fresh(small_corpus());
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
        audit_log(&app).last().map(|e| &e.decision.action),
        Some(clam::session::AuditAction::AddEntity { relevance: Some(r), .. }) if *r == 0.6
    ));
    assert!(render(&mut app, 160, 48).contains("rel 0.60"));
    let m = app.cursor_mention().expect("cursor on the new entity");
    assert_eq!(m.entity_type, "TREATMENT");
    let content: Vec<char> = app.ws.corpus().documents[1].content.chars().collect();
    assert_eq!(
        content[m.start..m.end].iter().collect::<String>(),
        "ocrelizumab infusion"
    );
    assert!(
        app.ws
            .model()
            .entities
            .iter()
            .any(|e| e.value == "ocrelizumab infusion")
    );
}

/// Screen position (column, row) of the first occurrence of `text` in a render.
pub(crate) fn screen_pos(screen: &str, text: &str) -> (u16, u16) {
    for (row, line) in screen.lines().enumerate() {
        if let Some(byte) = line.find(text) {
            return (line[..byte].chars().count() as u16, row as u16);
        }
    }
    panic!("{text:?} is not on screen:\n{screen}");
}

pub(crate) fn mouse(
    app: &mut App,
    kind: crossterm::event::MouseEventKind,
    (column, row): (u16, u16),
) {
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
    let (_dir, mut app) = open_fresh(small_corpus());
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
    let content: Vec<char> = app.ws.corpus().documents[0].content.chars().collect();
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
            .model()
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
    let (_dir, mut app) = open_fresh(small_corpus());
    let from = select_mask(&mut app, "3125550142");
    let from_id = app.ws.model().entities[from].id.clone();
    key(&mut app, KeyCode::Char('m'));
    assert!(app.message.as_ref().unwrap().text.contains("marked"));
    let into = select_mask(&mut app, "MBR390115");
    let into_id = app.ws.model().entities[into].id.clone();
    key(&mut app, KeyCode::Char('m'));
    assert!(render(&mut app, 80, 24).contains("Merge PHONE_NUMBER"));
    key(&mut app, KeyCode::Char('y'));
    assert!(
        app.ws.model().entity_index(&from_id).is_none(),
        "the source is gone"
    );
    let j = app.ws.model().entity_index(&into_id).unwrap();
    assert!(
        app.ws.analysis().entity_docs[j].contains(&0),
        "the target occurs where the source did"
    );
}

#[test]
fn slash_in_the_document_finds_text_and_scrolls_to_it() {
    let (_dir, mut app) = open_fresh(sample_corpus());
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
    let (_dir, mut app) = open_fresh(sample_corpus());
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
    app.wait_jobs(Duration::from_secs(60));
    for (w, h) in sizes {
        render(&mut app, w, h);
    }
    key(&mut app, KeyCode::Char('='));
    for (w, h) in sizes {
        render(&mut app, w, h);
    }
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Esc);
    app.wait_jobs(Duration::from_secs(60));
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
    let (_dir, mut app) = open_fresh(small_corpus());
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
    assert!(text.contains("▶ [2] Document"));
}

#[test]
fn selecting_a_chain_highlights_its_documents_in_the_list() {
    let (_dir, mut app) = open_fresh(sample_corpus());
    key(&mut app, KeyCode::Char('4'));
    key(&mut app, KeyCode::Char('j'));
    let c = app.ui.chains.current().unwrap();
    let ids: Vec<String> = app.ws.analysis().chains[c]
        .docs()
        .iter()
        .map(|&d| app.ws.model().docs[d as usize].id.clone())
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
        .corpus()
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

/// The configuration (with or without the linker), the offline extractor and the
/// workspace `clam run` builds from `corpus`.
fn headless(
    corpus: &Corpus,
    linker: bool,
) -> (Config, clam::extract::offline::OfflineExtractor, Workspace) {
    let mut config = Config::default();
    config.extraction.linker = linker;
    let ex = clam::extract::offline::OfflineExtractor::from_config(&config);
    let ws = Workspace::new(
        corpus.clone(),
        config.clone(),
        clam::workspace::extract_all(corpus, &config, &ex),
        None,
        "offline",
    )
    .unwrap();
    (config, ex, ws)
}

#[test]
fn the_workspace_ends_with_the_entities_and_plan_of_clam_run() {
    // The context pass and the linker are corpus-level steps; the review workspace
    // redoes them as documents arrive, so its final entities (and so its export) are
    // those of the headless pipeline, whichever order the results come in.
    let dir = tempfile::tempdir().unwrap();
    let corpus = sample_corpus();
    for linker in [false, true] {
        let (config, ex, headless) = headless(&corpus, linker);
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
            ws.store().docs,
            headless.store().docs,
            "linker = {linker}: the same entities in every document"
        );
        assert_eq!(ws.plan().masked, headless.plan().masked);
        assert_eq!(ws.analysis().chains.len(), headless.analysis().chains.len());
    }
}

#[test]
fn planning_off_the_ui_thread_gives_the_plan_of_clam_run() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = sample_corpus();
    for linker in [false, true] {
        let (config, ex, headless) = headless(&corpus, linker);
        let path = dir.path().join(format!("job{linker}.sqlite"));
        let mut app = pending_with(corpus.clone(), &path, config);
        app.start_extraction(Box::new(ex));
        assert!(!app.is_ready());
        let plans = finish_jobs(&mut app);
        assert!(plans >= 1, "the extraction job plans as it goes");
        assert!(app.is_ready());
        assert_eq!(app.ws.model().docs.len(), 25);
        assert_eq!(
            app.ws.store().docs,
            headless.store().docs,
            "linker = {linker}"
        );
        assert_eq!(app.ws.plan().masked, headless.plan().masked);
        assert_eq!(app.ws.analysis().edges, headless.analysis().edges);
    }
}

#[test]
fn a_decision_taken_while_extraction_runs_survives_the_next_results() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = pending(sample_corpus(), &session_path(&dir));
    // Install the first plan, then decide, then install the rest.
    extract_until_first_plan(&mut app);
    assert_eq!(
        app.ws.model().docs.len(),
        1,
        "the first document is planned alone"
    );
    key(&mut app, KeyCode::Char('3'));
    let i = app.ui.masks.current().expect("a mask in the first burst");
    let id = app.ws.model().entities[i].id.clone();
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "decided early");
    key(&mut app, KeyCode::Enter);
    assert!(
        finish_jobs(&mut app) >= 1,
        "the other documents are planned after the decision"
    );
    assert!(app.is_ready());
    let j = app.ws.model().entity_index(&id).unwrap();
    assert!(
        !app.ws.plan().masked[j],
        "the override still holds after later bursts"
    );
    assert_eq!(app.views.review[j], ReviewState::Overridden);
}

#[test]
fn an_acceptance_goes_stale_when_the_proposal_changes_and_counts_as_unreviewed() {
    let (_dir, mut app) = open_fresh(sample_corpus());
    // A kept entity that a stricter chain target will mask.
    let mut strict = app.ws.config().clone();
    strict.plan.theta_chain = 0.0;
    strict.plan.rho_high = 0.0;
    strict.plan.rho_medium = 0.0;
    let mut probe = app.ws.shadow().unwrap();
    probe.set_config(strict.clone()).unwrap();
    let i = (0..app.ws.model().entities.len())
        .find(|&i| !app.ws.plan().masked[i] && probe.plan().masked[i])
        .expect("an entity only the strict plan masks");
    let value = app.ws.model().entities[i].value.clone();
    select_mask(&mut app, &value);
    key(&mut app, KeyCode::Char('a'));
    assert_eq!(app.views.review[i], ReviewState::Accepted);
    let (reviewed, _) = app.reviewed_masks();
    app.ws.set_config(strict).unwrap();
    app.refresh();
    assert!(app.ws.plan().masked[i]);
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
    let (_dir, mut app) = open_fresh(small_corpus());
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
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Char('M'));
    assert_eq!(app.ws.config().redact.mode, clam::redact::Mode::Pseudonym);
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
