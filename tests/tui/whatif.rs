//! What-if tuning and sweeps, adopted settings.

use super::*;

/// Focuses the what-if pane and moves the cursor to parameter `name`.
pub(crate) fn select_param(app: &mut App, name: &str) {
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
pub(crate) fn type_value(app: &mut App, value: &str) {
    key(app, KeyCode::Char('='));
    for _ in 0..10 {
        key(app, KeyCode::Backspace);
    }
    chars(app, value);
    key(app, KeyCode::Enter);
}

#[test]
fn a_what_if_change_replans_at_once_and_esc_returns_to_the_reviewed_settings() {
    let (_dir, mut app) = open_fresh(small_corpus());
    select_param(&mut app, "risk_medium");
    type_value(&mut app, "0.1");
    assert!(app.layers.is_empty(), "a valid value closes the field");
    let d = app.whatif.diff.clone().expect("a diff, planned at once");
    assert_eq!((d.reviewed.masked, d.candidate.masked), (3, 4));
    assert_eq!(d.newly_masked.len(), 1);
    assert_eq!((d.candidate.medium, d.candidate.low), (1, 0));
    assert_eq!(
        app.ws.plan().masked_count(),
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
    let (_dir, mut app) = open_fresh(small_corpus());
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
        assert_eq!(app.ws.config().plan.theta_doc, 0.3);
        assert_eq!(
            app.ws.plan().masked_count(),
            5,
            "the adopted plan is in effect"
        );
        let log = audit_log(&app);
        let last = log.last().expect("a decision");
        assert_eq!(
            last.decision.action,
            clam::session::AuditAction::Settings {
                old: [("theta_doc".to_string(), "0.95".to_string())].into(),
                new: [("theta_doc".to_string(), "0.3".to_string())].into(),
            }
        );
        assert_eq!(
            last.decision.state_before.as_deref(),
            Some("theta_doc=0.95")
        );
        assert_eq!(last.decision.state_after.as_deref(), Some("theta_doc=0.3"));
        let screen = render(&mut app, 80, 24);
        assert!(screen.contains("5 masked"), "{screen}");
        assert!(screen.contains("adopted: theta_doc 0.95 → 0.3"), "{screen}");
        key(&mut app, KeyCode::Char('u'));
        assert_eq!(
            app.ws.config().plan.theta_doc,
            0.95,
            "undo restores the setting"
        );
        assert_eq!(app.ws.plan().masked_count(), 3);
        // Adopted again, for the reopening below.
        select_param(&mut app, "theta_doc");
        type_value(&mut app, "0.3");
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.ws.config().plan.theta_doc, 0.3);
    }
    let mut app = open(small_corpus(), &session_path(&dir));
    assert_eq!(app.ws.config().plan.theta_doc, 0.3, "restored on reopening");
    assert_eq!(app.ws.plan().masked_count(), 5);
    // An earlier review's decision is not this review's to undo (SPEC §6).
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.ws.config().plan.theta_doc, 0.3);
}

#[test]
fn a_pinned_entity_holds_under_every_what_if_setting() {
    let (_dir, mut app) = open_fresh(small_corpus());
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
            app.wait_jobs(Duration::from_secs(30));
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
    let (_dir, mut app) = open_fresh(small_corpus());
    select_param(&mut app, "edge_threshold");
    type_value(&mut app, "0.1");
    if app.whatif_busy() {
        let screen = render(&mut app, 80, 24);
        assert!(screen.contains("recomputing"), "{screen}");
    }
    app.wait_jobs(Duration::from_secs(30));
    assert!(!app.whatif_busy());
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
    assert!(app.whatif_busy(), "planned on another thread");
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("recomputing"), "{screen}");
    app.wait_jobs(Duration::from_secs(30));
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
    let (_dir, mut app) = open_fresh(small_corpus());
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
    let (_dir, mut app) = open_fresh(small_corpus());
    select_param(&mut app, "risk_medium");
    key(&mut app, KeyCode::Char('S'));
    app.wait_jobs(Duration::from_secs(30));
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
    app.wait_jobs(Duration::from_secs(30));
    let rows = &app.whatif.sweep.as_ref().expect("sweep").rows;
    let values: Vec<f64> = rows.iter().map(|r| r.value).collect();
    assert_eq!(values, vec![0.0, 0.1, 0.2, 0.3, 0.4, 0.5]);
    // With gold chains, each row has the chain pairs F1 and the chart plots it.
    app.whatif.gold = Some(vec![vec!["claim_01".into(), "record_02".into()]]);
    select_param(&mut app, "edge_threshold");
    app.wait_jobs(Duration::from_secs(30));
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
fn adopting_a_new_edge_threshold_installs_the_candidates_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let (masked, chains);
    {
        let mut app = open(small_corpus(), &session_path(&dir));
        select_param(&mut app, "edge_threshold");
        type_value(&mut app, "0.1");
        app.wait_jobs(Duration::from_secs(30));
        let d = app.whatif.diff.clone().expect("diff");
        key(&mut app, KeyCode::Enter);
        assert_eq!(app.ws.config().analysis.edge_threshold, 0.1);
        let fresh =
            clam::analysis::Analysis::new(app.ws.model(), &app.ws.config().analysis_params());
        assert_eq!(app.ws.analysis().chains, fresh.chains);
        assert_eq!(app.ws.analysis().edges, fresh.edges);
        assert_eq!(app.ws.plan().masked_count(), d.candidate.masked);
        assert_eq!(app.ws.plan().chains.len(), d.candidate.chains);
        (masked, chains) = (app.ws.plan().masked.clone(), app.ws.plan().chains.len());
    }
    let app = open(small_corpus(), &session_path(&dir));
    assert_eq!(app.ws.plan().masked, masked, "reopening plans the same");
    assert_eq!(app.ws.plan().chains.len(), chains);
}

#[test]
fn a_click_focuses_the_what_if_pane_in_the_narrow_layout() {
    let (_dir, mut app) = open_fresh(small_corpus());
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
        r.wait_jobs(Duration::from_secs(60));
        key(&mut r, KeyCode::Enter);
        assert_eq!(r.ws.config().analysis.edge_threshold, 0.3);
        r.ws.plan().masked.clone()
    };
    let mut app = pending(sample_corpus(), &session_path(&dir));
    extract_until_first_plan(&mut app);
    // The extraction job's copy keeps planning with edge_threshold 0.5.
    select_param(&mut app, "edge_threshold");
    type_value(&mut app, "0.3");
    key(&mut app, KeyCode::Enter);
    finish_jobs(&mut app);
    assert!(app.is_ready());
    assert_eq!(app.ws.config().analysis.edge_threshold, 0.3);
    let fresh = clam::analysis::Analysis::new(app.ws.model(), &app.ws.config().analysis_params());
    assert_eq!(
        app.ws.analysis().edges,
        fresh.edges,
        "analysed with the adopted value"
    );
    assert_eq!(app.ws.plan().masked, reference);
}

#[test]
fn a_sweep_superseded_by_a_newer_one_never_reaches_the_chart() {
    let (_dir, mut app) = open_fresh(sample_corpus());
    select_param(&mut app, "edge_threshold");
    // `S` starts the chart of edge_threshold; `j` at once moves to the next
    // parameter, whose sweep supersedes it (the first is cancelled).
    key(&mut app, KeyCode::Char('S'));
    assert!(app.whatif_sweeping());
    key(&mut app, KeyCode::Char('j'));
    let newest = app.whatif.param().expect("a parameter");
    assert_ne!(newest.name(), "edge_threshold");
    app.wait_jobs(Duration::from_secs(60));
    assert!(!app.whatif_sweeping() && !app.jobs.any_running());
    let s = app.whatif.sweep.as_ref().expect("the chart");
    assert_eq!(s.param, newest, "the newest sweep is the one shown");
    assert!(s.error.is_none(), "{:?}", s.error);
    assert!(!s.rows.is_empty());
    assert_eq!(s.rows[0].value, s.from, "its rows are of its own range");
}

#[test]
fn exporting_with_a_what_if_change_pending_asks_which_plan() {
    let (dir, mut app) = open_fresh(small_corpus());
    select_param(&mut app, "theta_doc");
    type_value(&mut app, "0.3");
    assert!(app.whatif.exploring());
    key(&mut app, KeyCode::Char('e'));
    assert!(
        matches!(
            app.layers.last(),
            Some(Layer::Confirm(
                clam::tui::app::Confirm::ExportWithWhatIf { .. }
            ))
        ),
        "{:?}",
        app.layers.last()
    );
    let screen = render(&mut app, 100, 30);
    assert!(screen.contains("theta_doc 0.95 → 0.3"), "{screen}");
    // n: the reviewed plan, the change still pending.
    key(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.layers.last(), Some(Layer::Export(_))));
    assert!(app.whatif.exploring());
    key(&mut app, KeyCode::Esc);
    // y: adopted first, then the dialog.
    key(&mut app, KeyCode::Char('e'));
    key(&mut app, KeyCode::Char('y'));
    assert!(matches!(app.layers.last(), Some(Layer::Export(_))));
    assert!(!app.whatif.exploring(), "adopted");
    assert_eq!(app.ws.config().plan.theta_doc, 0.3);
    let _ = dir;
}
