//! Gold chains: marking, picking in the graph, the gold pane's live figures, import and export.

use super::*;

pub(crate) fn gold_of(app: &App) -> Vec<(Vec<String>, Option<String>)> {
    app.ws
        .state()
        .gold
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect()
}

pub(crate) fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

pub(crate) fn status(app: &App) -> String {
    app.message
        .as_ref()
        .map(|m| m.text.clone())
        .unwrap_or_default()
}

/// Selects document `id` in the list (the graph's selected node follows it).
pub(crate) fn select_doc(app: &mut App, id: &str) {
    let i = app
        .ws
        .corpus()
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
        assert!(
            log.iter()
                .any(|e| e.decision.action.name() == "gold_unmark")
        );
        assert_eq!(log.last().unwrap().decision.action.name(), "gold_mark");
    }
    let mut app = open(small_corpus(), &path);
    assert_eq!(gold_of(&app), vec![(pair, Some("same MBR".into()))]);
    assert!(app.is_gold(0), "the chain table marks it after reopening");
    // The note is on the chains pane's detail line, even at 80 columns.
    key(&mut app, KeyCode::Char('4'));
    let screen = render(&mut app, 80, 24);
    assert!(screen.contains("★ gold: same MBR"), "{screen}");
}

#[test]
fn documents_picked_in_the_graph_become_a_gold_chain_without_an_edge() {
    let (_dir, mut app) = open_fresh(small_corpus());
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
pub(crate) fn gold_app(dir: &tempfile::TempDir) -> App {
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
    assert!(screen.contains("▶ [7] Gold chains"), "{screen}");
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
    let (dir, mut app) = open_fresh(small_corpus());
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
    let outcome = export_through_dialog(&mut app, &out, clam::redact::Mode::Redact);
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
