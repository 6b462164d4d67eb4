//! Both passes and the context filter: which entities of other documents a
//! context request carries, capped and filtered as in the thesis.

use super::*;

#[test]
fn both_passes_run_and_the_context_is_filtered() {
    let server = Server::model();
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "");
    let r = run(&c, &dirs.no_cache(), &docs());
    let reqs = server.requests();
    assert_eq!(
        reqs.len(),
        6,
        "one local and one context request per document"
    );
    assert_eq!(reqs.iter().filter(|r| r.pass == "local").count(), 3);
    for req in &reqs {
        assert_eq!(req.body["model"], "fake");
        assert_eq!(req.body["temperature"], 0.01);
        assert!(req.auth.is_none(), "no key configured, no header");
    }
    let ctx = |doc: &str| -> Vec<[String; 2]> {
        reqs.iter()
            .find(|r| r.pass == "context" && r.doc.starts_with(doc))
            .unwrap()
            .existing
            .clone()
    };
    // Document b sees a's condition, provider and place; never a's name (a direct
    // identifier), never the corpus-wide "massachusetts" (u(e) = 0: filter score 0).
    let b = ctx("A night-shift");
    assert!(
        b.contains(&["lupus nephritis".into(), "MEDICAL_CONDITION".into()]),
        "{b:?}"
    );
    assert!(
        b.contains(&["harbor view clinic".into(), "PROVIDER".into()]),
        "{b:?}"
    );
    assert!(
        !b.iter()
            .any(|[_, t]| t == "NAME" || t == "EMAIL" || t == "PHONE_NUMBER"),
        "{b:?}"
    );
    assert!(!b.iter().any(|[v, _]| v == "massachusetts"), "{b:?}");
    // Document a's context holds nothing found only in a.
    let a = ctx("Ms. Dana Whitfield");
    assert!(
        !a.iter()
            .any(|[v, _]| v == "port calder" || v == "harbor view clinic"),
        "{a:?}"
    );
    assert!(
        a.contains(&["lakeshore triathlon".into(), "EVENT".into()]),
        "{a:?}"
    );
    // The context pass found what the local pass could not.
    assert!(values(&r, 1).contains(&"INDIRECT_IDENTIFIER:night-shift baker".into()));
    assert!(values(&r, 0).contains(&"MEDICAL_CONDITION:lupus nephritis".into()));
    assert_eq!(r.report.fallbacks, 0);
    assert!(
        r.report
            .documents
            .iter()
            .all(|d| d.source == Source::Llm && d.reason.is_none())
    );
}

#[test]
fn the_context_is_capped_highest_score_first() {
    let server = Server::model();
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "context_cap = 1\n");
    run(&c, &dirs.no_cache(), &docs());
    for req in server.requests().iter().filter(|r| r.pass == "context") {
        assert!(req.existing.len() <= 1, "{:?}", req.existing);
    }
    let strict = config(&server.base_url(), "entity_filter_strength = 1.0\n");
    let before = server.count();
    run(&strict, &dirs.no_cache(), &docs());
    let reqs = server.requests();
    assert!(
        reqs[before..]
            .iter()
            .filter(|r| r.pass == "context")
            .all(|r| r.existing.is_empty())
    );
}

#[test]
fn the_existing_entities_follow_the_thesis_filter() {
    let d = docs();
    let c = config("http://127.0.0.1:9/v1", "");
    let item = |v: &str, t: &str, r: f64| clam::entity::ExtractedItem {
        original: v.into(),
        normalized: String::new(),
        entity_type: t.into(),
        relevance: r,
        spans: vec![],
    };
    let items = vec![
        vec![
            item("lupus nephritis", "MEDICAL_CONDITION", 0.9),
            item("Massachusetts", "LOCATION", 1.0),
        ],
        vec![
            item("Massachusetts", "LOCATION", 1.0),
            item("lupus nephritis", "MEDICAL_CONDITION", 0.5),
        ],
        vec![
            item("Massachusetts", "LOCATION", 1.0),
            item("Lakeshore Triathlon", "EVENT", 0.39),
        ],
    ];
    let ex = clam::extract::llm::existing_entities(&d, &items, &c);
    // lupus nephritis: freq 2 of N = 3, u = ln(4/2)/ln 4 = 0.5, score 0.9 · 0.5 = 0.45.
    // Lakeshore Triathlon: u = 1, score 0.39 < 0.4. Massachusetts: u = 0.
    assert_eq!(
        ex[2],
        vec![[
            "lupus nephritis".to_string(),
            "MEDICAL_CONDITION".to_string()
        ]]
    );
    assert_eq!(ex[0], ex[2]);
}
