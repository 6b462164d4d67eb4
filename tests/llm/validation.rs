//! Validation and defence in depth: invalid entries are dropped and counted, and
//! direct identifiers are found even when the model reports nothing.

use super::*;

#[test]
fn invalid_entries_are_dropped_counted_and_shown() {
    let server = Server::start(|req, _| {
        if req.pass == "context" {
            return Reply::Content("{\"entities\": []}".into());
        }
        Reply::Content(
            json!({"entities": [
                ["lupus nephritis", "lupus nephritis", "MEDICAL_CONDITION", 0.9],
                ["x", "x", "SHOE_SIZE", 0.5],
                ["Massachusetts", "massachusetts", "LOCATION", 7],
                ["Massachusetts"],
                {"value": "Massachusetts"},
                ["Atlantis General", "atlantis general", "PROVIDER", 0.9]
            ]})
            .to_string(),
        )
    });
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "");
    let d = docs();
    let r = run(&c, &dirs.no_cache(), &d[..1]);
    let doc = &r.report.documents[0];
    assert_eq!(doc.dropped.unknown_type, 1);
    assert_eq!(doc.dropped.relevance, 1);
    assert_eq!(doc.dropped.shape, 2);
    assert_eq!(r.report.dropped.total(), 4);
    // The hallucinated provider reaches the store, which drops it as unlocated.
    let corpus = Corpus {
        documents: d[..1].to_vec(),
        ..Corpus::default()
    };
    let store = clam::workspace::finish_extraction(&corpus, &c, r.items);
    assert_eq!(store.docs[0].unlocated, 1);
    assert!(
        store
            .keys
            .values()
            .any(|k| k.normalized == "lupus nephritis")
    );
}

#[test]
fn direct_identifiers_survive_a_model_that_reports_nothing() {
    let server = Server::start(|_, _| Reply::Content("{\"entities\": []}".into()));
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "");
    let r = run(&c, &dirs.no_cache(), &docs());
    assert!(
        values(&r, 0).contains(&"EMAIL:dana.w@example.org".into()),
        "{:?}",
        values(&r, 0)
    );
    assert!(
        values(&r, 0).iter().any(|v| v.contains("Dana Whitfield")),
        "{:?}",
        values(&r, 0)
    );
    assert!(values(&r, 2).contains(&"PHONE_NUMBER:555-010-4417".into()));
    assert!(
        !values(&r, 0)
            .iter()
            .any(|v| v.starts_with("MEDICAL_CONDITION")),
        "only direct identifiers are added"
    );
    assert_eq!(r.report.fallbacks, 0);
    assert!(r.report.documents[0].offline_identifiers >= 2);
}
