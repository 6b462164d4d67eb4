//! Figures against gold persons, corpus-wide removal, accepted residual risk, slow re-plans.

use super::*;

#[test]
fn gold_persons_give_the_leak_rate_and_utility_of_the_plan_in_effect() {
    let (_dir, mut app) = open_fresh(sample_corpus());
    let gold_file = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample_corpus/gold/gold.json");
    let gold = clam::eval::load(&gold_file, None).unwrap();
    app.set_gold_eval(&gold, "gold.json".into()).unwrap();
    key(&mut app, KeyCode::Char('7'));
    // The pane measures as a job: it says so, then shows the figures.
    assert!(render(&mut app, 160, 48).contains("measuring…"));
    app.wait_jobs(Duration::from_secs(60));
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
    assert!(app.ws.plan().masked[i]);
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "public figure");
    key(&mut app, KeyCode::Enter);
    assert!(!app.ws.plan().masked[i]);
    key(&mut app, KeyCode::Char('7'));
    app.wait_jobs(Duration::from_secs(60));
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
    app.wait_jobs(Duration::from_secs(60));
    let rows = &app.whatif.sweep.as_ref().expect("sweep").rows;
    assert!(!rows.is_empty() && rows.iter().all(|r| r.leak_rate.is_some()));
    let screen = render(&mut app, 160, 48);
    assert!(screen.contains("person leak rate (•)"), "{screen}");
}

#[test]
fn a_gold_file_without_persons_or_questions_is_refused_for_the_figures() {
    let (dir, mut app) = open_fresh(small_corpus());
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
    let gone = |app: &App| app.ws.model().entity_index(&member_id()).is_none();
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
        select_mask(&mut app, "MBR390115");
        key(&mut app, KeyCode::Char('X'));
        key(&mut app, KeyCode::Char('y'));
        assert!(
            app.ws.model().entity_index(&id).is_none(),
            "gone from every document"
        );
        assert_eq!(
            app.ws.orphaned_decisions(),
            vec![(id.clone(), "pinned mask")]
        );
        assert!(render(&mut app, 160, 48).contains("· 1 orphaned"));
        assert!(
            app.ws
                .corpus()
                .documents
                .iter()
                .enumerate()
                .all(|(d, _)| { app.mentions(d).iter().all(|m| m.entity_id != id) })
        );
        let log = audit_log(&app);
        assert_eq!(
            log.last().unwrap().decision.action,
            clam::session::AuditAction::RemoveEntity {
                entity: id.clone(),
                doc: None
            }
        );
        key(&mut app, KeyCode::Char('u'));
        assert!(!gone(&app), "undo brings it back everywhere");
        assert!(
            app.ws.orphaned_decisions().is_empty(),
            "and its pin applies again"
        );
        let i = app.ws.model().entity_index(&member_id()).unwrap();
        assert_eq!(app.views.review[i], ReviewState::Pinned);
        // Removed again, for the reopening below.
        select_mask(&mut app, "MBR390115");
        key(&mut app, KeyCode::Char('X'));
        key(&mut app, KeyCode::Char('y'));
        assert!(gone(&app));
    }
    let mut app = open(small_corpus(), &path);
    assert!(gone(&app), "the removal is restored on reopening");
    // An earlier review's decision is not this review's to undo (SPEC §6).
    key(&mut app, KeyCode::Char('u'));
    assert!(gone(&app));
}

/// The member id entity of the small corpus.
pub(crate) fn member_id() -> String {
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
            .config()
            .schema
            .types
            .iter()
            .map(|t| t.name.clone())
            .collect();
        let mut config = app.ws.config().clone();
        config.redact.always_mask = vec![];
        config.redact.never_mask = types;
        app.ws.set_config(config).expect("re-plan");
        app.refresh();
    };
    {
        let mut app = open(small_corpus(), &path);
        residual_config(&mut app);
        assert!(
            !app.ws.plan().residual_docs.is_empty() && !app.ws.plan().residual_chains.is_empty()
        );
        assert_eq!(
            app.ws.unaccepted_residuals(),
            (
                app.ws.plan().residual_docs.len(),
                app.ws.plan().residual_chains.len()
            )
        );
        // A document that is not residual is refused with the reason why.
        key(&mut app, KeyCode::Char('1'));
        app.select_document(2);
        assert_eq!(app.ws.corpus().documents[2].id, "memo_03");
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
            entry.decision.action,
            clam::session::AuditAction::AcceptResidual {
                documents: vec!["claim_01".into()]
            }
        );
        assert_eq!(
            entry.decision.reason.as_deref(),
            Some("published by the member herself")
        );
        // The chains pane: the first chain is residual; accept it too.
        key(&mut app, KeyCode::Char('4'));
        assert!(
            render(&mut app, 160, 48).contains("R accept residual"),
            "the status bar hint"
        );
        let c = app.selected_chain().unwrap();
        assert!(app.ws.plan().residual_chains.contains(&(c as u32)));
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
        key(&mut app, KeyCode::Char('u'));
        key(&mut app, KeyCode::Char('u'));
        assert_eq!(
            app.ws.unaccepted_residuals(),
            (
                app.ws.plan().residual_docs.len(),
                app.ws.plan().residual_chains.len()
            ),
            "undo takes both acceptances back"
        );
        // claim_01 accepted again, for the reopening below.
        key(&mut app, KeyCode::Char('1'));
        app.select_document(0);
        key(&mut app, KeyCode::Char('R'));
        chars(&mut app, "published by the member herself");
        key(&mut app, KeyCode::Enter);
        assert!(app.ws.residual_accepted(&["claim_01".to_string()]));
    }
    let mut app = open(small_corpus(), &path);
    residual_config(&mut app);
    assert!(
        app.ws.residual_accepted(&["claim_01".to_string()]),
        "restored on reopening"
    );
    // An earlier review's decision is not this review's to undo (SPEC §6).
    key(&mut app, KeyCode::Char('u'));
    assert!(app.ws.residual_accepted(&["claim_01".to_string()]));
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
    app.wait_jobs(Duration::from_secs(10));
    assert!(!app.replanning() && app.is_ready());
    assert!(render(&mut app, 80, 24).contains("ready"));
    assert_eq!(app.ws.plan(), inline.ws.plan(), "the same plan as inline");
    assert_eq!(app.ws.model().entities, inline.ws.model().entities);
    assert_eq!(app.views.review, inline.views.review);
    let i = entity_index(&app, "hannah brooks");
    assert!(!app.ws.plan().masked[i], "the override is in force");
    assert_eq!(app.views.review[i], ReviewState::Overridden);
}

/// Issue 17: an auditor keeps a NAME of call_04, which holds that document at risk
/// 1.00; the masks the document stage then makes for nothing are released by pruning,
/// and the redaction set lists them as released, with why.
#[test]
fn the_redaction_set_lists_the_masks_pruning_released() {
    let (_dir, mut app) = open_fresh(sample_corpus());
    let insurer = entity_index(&app, "meridian mutual health");
    let okafor = select_mask(&mut app, "okafor");
    assert!(app.ws.plan().masked[okafor]);
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "the caller's surname, needed for the callback");
    key(&mut app, KeyCode::Enter);
    app.wait_jobs(Duration::from_secs(60));
    assert!(!app.ws.plan().masked[okafor], "the override holds");
    assert!(app.ws.plan().is_released(insurer));
    let released = app.ws.plan().pruned.len();
    app.ui.show_all_entities = false;
    app.refresh();
    assert!(app.ui.masks.select_item(insurer), "listed although kept");
    key(&mut app, KeyCode::Char('3'));
    let screen = render(&mut app, 160, 48);
    let title = format!(
        "{} masked · {released} released",
        app.ws.plan().masked_count()
    );
    assert!(screen.contains(&title), "{title}\n{screen}");
    assert!(screen.contains("released by pruning"), "{screen}");
    // The status line names the decision and its effect on the plan.
    let status = screen.lines().last().unwrap_or_default();
    assert!(
        status.contains("overridden: keep NAME \"okafor\": +")
            && status.contains("masks, call_04 residual 1.00"),
        "{status}"
    );
    // The document view says it too, for the entity under the cursor.
    assert!(
        screen.contains("KEEP [proposed] kept: masked by the document stage"),
        "{screen}"
    );
}

#[test]
fn every_decision_names_its_effect_on_the_plan() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &dir.path().join("s.sqlite"));
    let i = select_mask(&mut app, "hannah brooks");
    let masked_before = app.ws.plan().masked_count();
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "public figure");
    key(&mut app, KeyCode::Enter);
    assert!(!app.ws.plan().masked[i]);
    // The status line: the decision, then what it changed, in one line.
    let effect = app.effect.clone().expect("an effect");
    let change = effect.change.expect("the plan is current");
    assert!(
        change.newly_kept.iter().any(|e| e.value == "hannah brooks"),
        "{change:?}"
    );
    let delta = app.ws.plan().masked_count() as i64 - masked_before as i64;
    assert_eq!(
        change.newly_masked.len() as i64 - change.newly_kept.len() as i64,
        delta
    );
    let line = status(&app);
    assert!(
        line.starts_with("overridden: keep NAME \"hannah brooks\": +"),
        "{line}"
    );
    assert!(
        line.contains(&format!("−{} masks", change.newly_kept.len())),
        "{line}"
    );
    // The reason shows with the entity in the redaction set.
    select_mask(&mut app, "hannah brooks");
    let screen = render(&mut app, 160, 48);
    assert!(screen.contains("reason: public figure"), "{screen}");
    // The what-if pane lists it the way it lists a candidate's changes.
    key(&mut app, KeyCode::Char('6'));
    let screen = render(&mut app, 160, 48);
    assert!(
        screen.contains("last decision: overridden: keep NAME"),
        "{screen}"
    );
    assert!(screen.contains("− keep NAME"), "{screen}");
    // A decision that changes nothing says so.
    let j = select_mask(&mut app, "MBR390115");
    key(&mut app, KeyCode::Char('p'));
    assert!(app.ws.plan().masked[j]);
    assert!(status(&app).ends_with(": +0 −0 masks"), "{}", status(&app));
    // Undo names the decision and its effect too: the pin changed nothing, so
    // undoing it neither.
    key(&mut app, KeyCode::Char('u'));
    assert!(
        status(&app).starts_with("undone: pin mask PATIENT_ID \"MBR390115\" (decision #"),
        "{}",
        status(&app)
    );
    assert!(status(&app).contains("+0 −0 masks"), "{}", status(&app));
    key(&mut app, KeyCode::Char('u'));
    assert!(
        status(&app).starts_with("undone: override keep NAME \"hannah brooks\""),
        "{}",
        status(&app)
    );
}

#[test]
fn a_deferred_re_plan_reports_the_effect_when_it_lands() {
    use clam::tui::app::DeferReplans;
    let dir = tempfile::tempdir().unwrap();
    let mut app = open(small_corpus(), &dir.path().join("s.sqlite"));
    app.defer_replans = DeferReplans::Always;
    select_mask(&mut app, "hannah brooks");
    key(&mut app, KeyCode::Char('o'));
    chars(&mut app, "public figure");
    key(&mut app, KeyCode::Enter);
    assert!(status(&app).ends_with(": re-planning…"), "{}", status(&app));
    app.wait_jobs(Duration::from_secs(10));
    let line = status(&app);
    assert!(
        line.starts_with("overridden: keep NAME \"hannah brooks\": +"),
        "{line}"
    );
    assert!(
        app.effect
            .as_ref()
            .and_then(|e| e.change.as_ref())
            .is_some_and(|c| c.newly_kept.iter().any(|e| e.value == "hannah brooks"))
    );
}
