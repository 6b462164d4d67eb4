//! Concurrency and cache: requests in flight stay bounded; a second run is served
//! from the cache.

use super::*;

#[test]
fn never_more_than_max_concurrency_requests_in_flight() {
    let server = Server::start(|_, _| Reply::Slow(Duration::from_millis(150)));
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "max_concurrency = 3\n");
    let many: Vec<Document> = (0..10)
        .map(|i| {
            Document::new(
                format!("d{i}"),
                format!("Note {i}: lupus nephritis at Harbor View Clinic."),
            )
        })
        .collect();
    let r = run(&c, &dirs.no_cache(), &many);
    assert_eq!(server.count(), 20);
    assert_eq!(
        server.peak.load(Ordering::SeqCst),
        3,
        "bounded and actually concurrent"
    );
    assert_eq!(r.report.fallbacks, 0);
}

#[test]
fn a_second_run_is_served_from_the_cache() {
    let server = Server::model();
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "");
    let first = run(&c, &dirs.opts(), &docs());
    assert_eq!(server.count(), 6);
    let second = run(&c, &dirs.opts(), &docs());
    assert_eq!(server.count(), 6, "no request on the second run");
    assert_eq!(first.items, second.items);
    assert_eq!(second.report.cache_hits, 6);
    assert_eq!(second.report.requests, 0);
    assert_eq!(
        second.report.response_format,
        Some(clam::extract::llm::settings::ResponseFormat::JsonSchema),
        "no request, but the cache entries record the format"
    );
    assert_eq!(second.report.response_format, first.report.response_format);
    // --no-cache asks again; a changed document or prompt misses.
    run(&c, &dirs.no_cache(), &docs());
    assert_eq!(server.count(), 12);
    let mut changed = docs();
    changed[0] = Document::new("a", "Dana Whitfield moved; lupus nephritis again.");
    run(&c, &dirs.opts(), &changed);
    assert!(server.count() > 12);
    let before = server.count();
    std::fs::write(
        dirs.tmp.path().join("prompts/local.md"),
        "=== user ===\nList the entities as JSON.\n\"\"\"\n{{document}}\n\"\"\"",
    )
    .unwrap();
    run(&c, &dirs.opts(), &docs());
    assert_eq!(
        server.count(),
        before + 3,
        "new local prompt: 3 local misses; contexts unchanged hit"
    );
}
