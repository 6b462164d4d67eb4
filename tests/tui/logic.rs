//! Focus, navigation, decisions, undo and persistence, the document pane, export.

use super::*;

#[test]
fn tab_and_shift_tab_cycle_the_focus_and_the_focused_pane_is_marked() {
    let (_dir, mut app) = open_fresh(small_corpus());
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
    assert!(screen.contains("▶ [5] Linkage graph"), "{screen}");
    assert!(!screen.contains("▶ [1] Documents"), "{screen}");
    // At 80×24 the focused pane replaces the detail pane beside the list.
    key(&mut app, KeyCode::Char('4'));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("▶ [4] Chains"), "{screen}");
}

#[test]
fn moving_in_the_list_opens_the_document_and_enter_focuses_it() {
    let (_dir, mut app) = open_fresh(small_corpus());
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
    let (_dir, mut app) = open_fresh(sample_corpus());
    let ids = |app: &App| app.ui.documents.rows.clone();
    assert_eq!(ids(&app), (0..25).collect::<Vec<_>>());
    key(&mut app, KeyCode::Char('s'));
    let risk = |app: &App, i: usize| {
        let m = app.views.model_of_doc[i].unwrap();
        app.ws.plan().doc_risk_final[m]
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
    let (_dir, mut app) = open_fresh(sample_corpus());
    key(&mut app, KeyCode::Char('/'));
    chars(&mut app, "claim");
    key(&mut app, KeyCode::Enter);
    let listed: Vec<String> = app
        .ui
        .documents
        .rows
        .iter()
        .map(|&i| app.ws.corpus().documents[i].id.clone())
        .collect();
    assert!(!listed.is_empty());
    assert!(listed.len() < 25);
    assert!(listed.iter().all(|id| {
        app.ws.corpus().documents.iter().any(|d| {
            &d.id == id && (d.id.contains("claim") || d.content.to_lowercase().contains("claim"))
        })
    }));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("/claim"), "{screen}");
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.ui.documents.rows.len(), 25);
}

#[test]
fn a_decision_without_an_entity_says_how_to_pick_one() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('a'));
    app.update(clam::tui::Action::Accept);
    let m = app.message.clone().expect("a message");
    assert!(m.error && m.text.contains("select an entity"), "{m:?}");
    assert!(audit_log(&app).is_empty());
}

#[test]
fn accept_is_committed_and_shown_as_accepted() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('3'));
    let i = app.ui.masks.current().expect("a masked entity");
    assert_eq!(app.views.review[i], ReviewState::Proposed);
    key(&mut app, KeyCode::Char('a'));
    assert_eq!(app.views.review[i], ReviewState::Accepted);
    let log = audit_log(&app);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].decision.actor, "tester");
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("accepted"), "{screen}");
    assert!(screen.contains("1 reviewed"), "{screen}");
}

#[test]
fn override_refuses_an_empty_reason_then_flips_the_plan() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('3'));
    let i = app.ui.masks.current().expect("a masked entity");
    assert!(app.ws.plan().masked[i]);
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
        !app.ws.plan().masked[i],
        "overridden to keep, re-planned at once"
    );
    assert_eq!(app.views.review[i], ReviewState::Overridden);
    let log = audit_log(&app);
    assert_eq!(log.len(), 1);
    assert_eq!(log[0].decision.reason.as_deref(), Some("public figure"));
    assert_eq!(log[0].decision.state_before.as_deref(), Some("mask"));
    assert_eq!(log[0].decision.state_after.as_deref(), Some("keep"));
}

#[test]
fn esc_cancels_an_override_without_a_decision() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "half a thought");
    key(&mut app, KeyCode::Esc);
    assert!(app.layers.is_empty());
    assert!(audit_log(&app).is_empty());
}

#[test]
fn pin_freezes_the_state_and_pin_again_unpins() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('3'));
    let i = app.ui.masks.current().unwrap();
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(app.views.review[i], ReviewState::Pinned);
    assert!(
        app.ws
            .state()
            .force_mask()
            .contains(&app.ws.model().entities[i].id)
    );
    // The cursor moved on to the next row to review; back to the pinned one.
    assert_ne!(app.ui.masks.current(), Some(i));
    key(&mut app, KeyCode::Char('k'));
    assert_eq!(app.ui.masks.current(), Some(i));
    key(&mut app, KeyCode::Char('p'));
    assert_eq!(app.views.review[i], ReviewState::Proposed);
    assert!(app.ws.state().forced.is_empty());
}

#[test]
fn undo_reverts_the_last_decision_and_keeps_the_audit_log() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('3'));
    let i = app.ui.masks.current().unwrap();
    let masked_before = app.ws.plan().masked.clone();
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "not identifying");
    key(&mut app, KeyCode::Enter);
    assert!(!app.ws.plan().masked[i]);
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.ws.plan().masked, masked_before, "the plan is back");
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
fn undo_reverts_only_this_reviews_decisions_and_a_second_review_is_read_only() {
    let dir = tempfile::tempdir().unwrap();
    let path = session_path(&dir);
    let i;
    {
        let mut app = open(small_corpus(), &path);
        key(&mut app, KeyCode::Char('3'));
        i = app.ui.masks.current().unwrap();
        key(&mut app, KeyCode::Char('o'));
        chars(&mut app, "not identifying");
        key(&mut app, KeyCode::Enter);
        assert!(!app.ws.plan().masked[i]);
        // A second review of the same session while this one runs reads only.
        let mut second = open(small_corpus(), &path);
        let text = second
            .message
            .as_ref()
            .map(|m| m.text.clone())
            .unwrap_or_default();
        assert!(text.contains("read-only") && text.contains("pid"), "{text}");
        key(&mut second, KeyCode::Char('3'));
        key(&mut second, KeyCode::Char('a'));
        let text = second
            .message
            .as_ref()
            .map(|m| m.text.clone())
            .unwrap_or_default();
        assert!(
            text.contains("read-only"),
            "the decision is refused: {text}"
        );
        key(&mut second, KeyCode::Char('u'));
        assert_eq!(audit_log(&app).len(), 1, "the reader changed nothing");
    }
    // Reopened, the earlier review's decision holds; undo asks before reverting it.
    let mut app = open(small_corpus(), &path);
    assert!(!app.ws.plan().masked[i]);
    key(&mut app, KeyCode::Char('u'));
    assert!(matches!(
        app.layers.last(),
        Some(Layer::Confirm(clam::tui::app::Confirm::UndoEarlier { .. }))
    ));
    let screen = render(&mut app, 100, 30);
    assert!(screen.contains("before this review"), "{screen}");
    key(&mut app, KeyCode::Char('n'));
    assert!(!app.ws.plan().masked[i], "the earlier decision stands");
    assert_eq!(audit_log(&app).len(), 1);
    key(&mut app, KeyCode::Char('u'));
    key(&mut app, KeyCode::Char('y'));
    assert!(app.ws.plan().masked[i], "reverted once confirmed");
    assert_eq!(audit_log(&app).len(), 2);
    assert!(
        status(&app).contains("an earlier review's"),
        "{}",
        status(&app)
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
        plan = app.ws.plan().masked.clone();
        key(&mut app, KeyCode::Char('q'));
        assert!(app.quit);
    }
    let app = open(sample_corpus(), &path);
    assert_eq!(app.views.review[overridden], ReviewState::Overridden);
    assert_eq!(app.views.review[pinned], ReviewState::Pinned);
    assert!(!app.ws.plan().masked[overridden]);
    assert!(app.ws.plan().masked[pinned]);
    assert_eq!(
        app.ws.plan().masked,
        plan,
        "the same plan as before quitting"
    );
}

#[test]
fn bulk_accept_asks_first_and_accepts_only_the_listed_rows() {
    let (_dir, mut app) = open_fresh(sample_corpus());
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('/'));
    chars(&mut app, "name");
    key(&mut app, KeyCode::Enter);
    let listed = app.ui.masks.rows.clone();
    assert!(listed.len() > 3);
    assert!(
        listed
            .iter()
            .all(|&i| app.ws.model().entities[i].entity_type == "NAME")
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
        app.ws.model().docs.is_empty(),
        "no analysis while N = 0: {} {:?}",
        app.ws.model().docs.len(),
        app.ws
            .store()
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
    extract_until_first_plan(&mut app);
    assert_eq!(
        app.ws.model().docs.len(),
        1,
        "N counts only extracted documents"
    );
    assert_eq!(app.ws.analysis().n, 1);
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("extracting 1/4"), "{screen}");
    assert!(
        screen.contains("pending"),
        "the other documents show as pending"
    );
    assert!(!screen.contains(" ready "));
    assert!(!app.is_ready(), "not ready until the last burst is planned");
    finish_jobs(&mut app);
    assert!(app.is_ready());
    assert_eq!(app.ws.analysis().n, 4);
    assert!(render(&mut app, 80, 24).contains(" ready "));
}

#[test]
fn a_click_focuses_the_pane_and_selects_the_row() {
    use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};
    let (_dir, mut app) = open_fresh(sample_corpus());
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
fn help_lists_every_pane_s_keys_the_focused_one_first_and_scrolls() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('?'));
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("Redaction set pane (3, the one in focus)"),
        "the focused pane first: {screen}"
    );
    assert!(screen.contains("accept all listed (asks)"), "{screen}");
    assert!(screen.contains("j/k PgUp/PgDn scroll"), "{screen}");
    // Further down: the global keys, every other pane's, the glossary, the colours.
    let mut seen = String::new();
    for _ in 0..20 {
        seen.push_str(&render(&mut app, 80, 24));
        key(&mut app, KeyCode::PageDown);
    }
    for text in [
        "quit (decisions are saved)",
        "Document pane (2)",
        "redacted preview on / off",
        "What-if pane (6)",
        "Glossary",
        "global contribution",
        "init / pre / final",
        "Colours",
    ] {
        assert!(seen.contains(text), "{text} is in the help");
    }
    key(&mut app, KeyCode::Char('x'));
    assert!(app.layers.is_empty(), "any other key closes the help");
    assert!(!app.quit);
}

#[test]
fn q_and_ctrl_c_quit() {
    let (dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
    let mut app = open(small_corpus(), &session_path(&dir));
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "half a reas");
    // Inside a text field Ctrl-C cancels the field, as in a shell's prompt.
    ctrl(&mut app, 'c');
    assert!(
        !app.quit && app.layers.is_empty(),
        "ctrl-c cancels the popup"
    );
    assert!(audit_log(&app).is_empty(), "nothing recorded");
    // Elsewhere, and from a popup that is no text field, it quits.
    key(&mut app, KeyCode::Char('?'));
    ctrl(&mut app, 'c');
    assert!(app.quit, "ctrl-c quits from the help");
    let mut app = open(small_corpus(), &session_path(&dir));
    ctrl(&mut app, 'c');
    assert!(app.quit);
}

#[test]
fn destructive_confirmations_take_y_only() {
    let (_dir, mut app) = open_fresh(small_corpus());
    select_mask(&mut app, "MBR390115");
    key(&mut app, KeyCode::Char('X'));
    key(&mut app, KeyCode::Enter);
    assert!(
        matches!(app.layers.last(), Some(clam::tui::app::Layer::Confirm(_))),
        "Enter does not confirm a removal"
    );
    assert!(audit_log(&app).is_empty());
    assert!(
        render(&mut app, 80, 24).contains("y remove"),
        "the popup says y"
    );
    key(&mut app, KeyCode::Char('y'));
    assert_eq!(audit_log(&app).len(), 1, "y confirms");
}

#[test]
fn text_fields_clear_with_ctrl_u_as_in_readline() {
    let (_dir, mut app) = open_fresh(small_corpus());
    select_param(&mut app, "theta_doc");
    // The value prompt opens with the current value, cursor at its end.
    key(&mut app, KeyCode::Char('='));
    ctrl(&mut app, 'u');
    chars(&mut app, "0.8");
    key(&mut app, KeyCode::Enter);
    assert!(app.layers.is_empty(), "0.8 accepted, not 0.950.8");
    let screen = render(&mut app, 160, 48);
    assert!(
        screen.contains("theta_doc      0.95         → 0.8"),
        "{screen}"
    );
    // Ctrl-W deletes a word, Ctrl-A / Ctrl-E move to the ends.
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('/'));
    chars(&mut app, "hannah brooks");
    ctrl(&mut app, 'w');
    ctrl(&mut app, 'a');
    chars(&mut app, "x");
    match app.layers.last() {
        Some(clam::tui::app::Layer::Search { input, .. }) => {
            assert_eq!(input.lines().join(""), "xhannah ")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_document_cursor_walks_the_entities_and_shows_their_figures() {
    let (_dir, mut app) = open_fresh(small_corpus());
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
    let (_dir, mut app) = open_fresh(small_corpus());
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
    let (_dir, mut app) = open_fresh(small_corpus());
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
    assert!(app.ws.plan().masked[name]);
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
    let (_dir, mut app) = open_fresh(small_corpus());
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
    let (dir, mut app) = open_fresh(small_corpus());
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
    app.wait_jobs(Duration::from_secs(60));
    let outcome = |app: &App| match app.layers.last() {
        Some(Layer::Export(d)) => d.outcome.clone(),
        _ => None,
    };
    assert!(
        matches!(outcome(&app), Some(ExportOutcome::Failed(m)) if m.contains("unreviewed")
            && m.contains("switch \"require reviewed\" off") && !m.contains("--")),
        "the in-app way, not a command-line flag: {:?}",
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
    app.wait_jobs(Duration::from_secs(60));
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
    app.wait_jobs(Duration::from_secs(60));
    assert!(matches!(outcome(&app), Some(ExportOutcome::Failed(_))));
    key(&mut app, KeyCode::Esc);
    assert!(app.layers.is_empty());
}

#[test]
fn an_export_into_a_full_folder_says_what_to_do_here() {
    let (dir, mut app) = open_fresh(small_corpus());
    let out = dir.path().join("full");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("mine.txt"), "mine").unwrap();
    let outcome = export_through_dialog(&mut app, &out, clam::redact::Mode::Value);
    match outcome {
        ExportOutcome::Failed(m) => {
            assert!(
                m.contains("type a new folder") && !m.contains("--force"),
                "{m}"
            )
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(
        std::fs::read_to_string(out.join("mine.txt")).unwrap(),
        "mine"
    );
}

#[test]
fn status_messages_expire_and_key_hints_are_never_cut() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('o'));
    key(&mut app, KeyCode::Esc);
    assert_eq!(status(&app), "cancelled: nothing recorded");
    let now = std::time::Instant::now();
    assert!(!app.expire_message(now), "a fresh message stays");
    assert!(app.expire_message(now + clam::tui::app::Message::LIFETIME));
    assert!(app.message.is_none(), "an old one goes");
    // A long message is cut with an ellipsis; every hint shown is whole.
    app.handle_key(KeyEvent::new(KeyCode::Char('o'), KeyModifiers::NONE));
    chars(&mut app, &"a very long reason ".repeat(3));
    key(&mut app, KeyCode::Enter);
    for width in [80u16, 100, 160] {
        let screen = render(&mut app, width, 24);
        let footer = screen.lines().last().unwrap_or("").trim_end();
        let hints = footer.rsplit('│').next().unwrap_or("").trim();
        for h in hints.split(" · ") {
            let words: Vec<&str> = h.split(' ').collect();
            assert!(
                words.len() >= 2 && !words[1].is_empty(),
                "a hint cut mid-key at {width} columns: {h:?} in {footer:?}"
            );
        }
        assert!(hints.starts_with("? help"), "{footer}");
    }
}

#[test]
fn the_redaction_set_cuts_values_with_an_ellipsis_and_spells_out_the_selected_one() {
    let (_dir, mut app) = open_fresh(small_corpus());
    select_mask(&mut app, "hannah brooks");
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("hannah broo…"), "{screen}");
    // The detail line: the whole value and its forms as the documents write them.
    assert!(
        screen.contains("hannah brooks · written Hannah Brooks"),
        "{screen}"
    );
}

#[test]
fn a_decision_in_the_redaction_set_moves_to_the_next_row_to_review() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('3'));
    let rows = app.ui.masks.rows.clone();
    assert!(rows.len() >= 3);
    // `a a a` reviews three rows, no `j` between.
    for _ in 0..3 {
        key(&mut app, KeyCode::Char('a'));
    }
    for &i in &rows[..3] {
        assert_eq!(app.views.review[i], ReviewState::Accepted);
    }
    // `[ui] advance = false` keeps the cursor where it is.
    let (_dir, app2) = open_fresh(small_corpus());
    let mut config = app2.ws.config().clone();
    config.ui.advance = Some(false);
    let mut app = app2;
    app.ws.set_config(config).unwrap();
    key(&mut app, KeyCode::Char('3'));
    let first = app.ui.masks.current();
    key(&mut app, KeyCode::Char('a'));
    assert_eq!(app.ui.masks.current(), first);
}

#[test]
fn skipped_input_files_are_listed_in_the_workspace() {
    let mut corpus = small_corpus();
    corpus.diagnostics.push(clam::corpus::Diagnostic {
        file: "broken.json".into(),
        line: Some(3),
        message: "the id field is missing; skipped".into(),
    });
    // A file that is not a document is listed apart and not counted as skipped.
    corpus.not_read.push(clam::corpus::Diagnostic {
        file: "gold.json".into(),
        line: None,
        message: "a gold file (devset format), not a document; not read".into(),
    });
    let (_dir, mut app) = open_fresh(corpus);
    let screen = render(&mut app, 160, 48);
    assert!(
        screen.contains("1 file(s) skipped (! lists them)"),
        "{screen}"
    );
    key(&mut app, KeyCode::Char('!'));
    let screen = render(&mut app, 100, 30);
    assert!(
        screen.contains("broken.json:3: the id field is missing; skipped"),
        "{screen}"
    );
    assert!(
        screen.contains("1 file(s) not read (not documents)")
            && screen.contains("gold.json: a gold file (devset format), not a document"),
        "{screen}"
    );
    key(&mut app, KeyCode::Char('x'));
    assert!(app.layers.is_empty(), "any key closes it");
}

#[test]
fn a_key_that_does_nothing_here_says_where_it_works() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('1'));
    assert_eq!(app.ui.focus, Pane::Documents);
    key(&mut app, KeyCode::Char('a'));
    let text = status(&app);
    assert!(
        text.starts_with("a (accept the proposal) works in: Document (2), Redaction set (3)"),
        "{text}"
    );
    assert!(text.ends_with("not in the Documents pane"), "{text}");
    assert!(audit_log(&app).is_empty(), "and nothing was decided");
}

#[test]
fn the_graph_has_a_colour_legend_and_the_document_legend_is_whole() {
    let (_dir, mut app) = open_fresh(small_corpus());
    key(&mut app, KeyCode::Char('5'));
    let screen = render(&mut app, 80, 24);
    assert!(
        screen.contains("● HIGH ● MED ● LOW risk · ⠒ strong ⠒ weak link"),
        "{screen}"
    );
    key(&mut app, KeyCode::Char('2'));
    let screen = render(&mut app, 80, 24);
    // Every type of the document in its legend, none cut.
    for ty in [
        "BIRTHDATE",
        "MEDICAL_CONDITION",
        "NAME",
        "PATIENT_ID",
        "PHONE_NUMBER",
        "PROVIDER",
    ] {
        assert!(screen.contains(&format!("■{ty}")), "{ty}: {screen}");
    }
}
