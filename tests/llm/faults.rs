//! Faults of the server: refused connections, 5xx and 429 replies, truncated or
//! non-JSON bodies, stalls, slow and oversized answers, a failed context pass.

use super::*;

#[test]
fn connection_refused_falls_back_after_the_retries() {
    let dirs = Dirs::new();
    let c = config(&format!("http://127.0.0.1:{}/v1", refused_port()), "");
    let r = run(&c, &dirs.no_cache(), &docs()[..1]);
    assert_fallback(&r, "cannot connect");
    assert_eq!(r.report.documents[0].passes[0].attempts, 3);
    assert_eq!(r.report.requests, 3, "first attempt + max_retries");
}

#[test]
fn server_errors_are_retried_then_fall_back() {
    for status in [500, 503] {
        let (r, server, _) = one_doc("", move |_, _| {
            Reply::Raw(status, vec![], "{\"error\": \"busy\"}".into())
        });
        assert_fallback(&r, &format!("HTTP {status}"));
        assert_eq!(server.count(), 3);
    }
}

#[test]
fn a_transient_503_is_retried_and_succeeds() {
    let (r, server, _) = one_doc("", |_, n| {
        if n == 0 {
            Reply::Raw(503, vec![], String::new())
        } else {
            Reply::Model
        }
    });
    assert_eq!(r.report.documents[0].source, Source::Llm);
    assert_eq!(r.report.documents[0].passes[0].attempts, 2);
    assert_eq!(server.count(), 3);
}

#[test]
fn http_429_honours_retry_after() {
    let (r, server, took) = one_doc("", |_, n| {
        if n == 0 {
            Reply::Raw(429, vec![("Retry-After", "1".into())], String::new())
        } else {
            Reply::Model
        }
    });
    assert_eq!(r.report.documents[0].source, Source::Llm);
    assert!(took >= Duration::from_millis(1000), "waited only {took:?}");
    assert_eq!(server.count(), 3);
}

#[test]
fn truncated_and_non_json_bodies_fall_back() {
    let (r, server, _) = one_doc("", |_, _| Reply::Truncated);
    assert_fallback(&r, "response body");
    assert_eq!(server.count(), 3);
    let (r, _, _) = one_doc("", |_, _| {
        Reply::Raw(200, vec![], "<html>gateway</html>".into())
    });
    assert_fallback(&r, "not JSON");
    let (r, _, _) = one_doc("", |_, _| Reply::Content("I cannot help with that.".into()));
    assert_fallback(&r, "no {\"entities\"");
}

#[test]
fn a_stalled_response_times_out_and_falls_back() {
    let (r, server, took) = one_doc("timeout_secs = 1\nmax_retries = 1\n", |_, _| Reply::Stall);
    assert_fallback(&r, "timed out");
    assert_eq!(server.count(), 2);
    assert!(took < Duration::from_secs(10), "{took:?}");
}

#[test]
fn a_slow_answer_within_the_timeout_is_used() {
    let (r, _, _) = one_doc("timeout_secs = 5\n", |_, _| {
        Reply::Slow(Duration::from_millis(300))
    });
    assert_eq!(r.report.documents[0].source, Source::Llm);
    assert!(values(&r, 0).contains(&"PROVIDER:Harbor View Clinic".into()));
}

#[test]
fn oversized_responses_are_cut_off() {
    let big = format!("{{\"entities\": [], \"pad\": \"{}\"}}", "x".repeat(4096));
    let (r, _, _) = one_doc(
        "max_response_bytes = 2048\nmax_retries = 0\n",
        move |_, _| Reply::Content(big.clone()),
    );
    assert_fallback(&r, "larger than 2048");
}

#[test]
fn a_failed_context_pass_keeps_the_local_pass() {
    let (r, _, _) = one_doc("max_retries = 0\n", |req, _| {
        if req.pass == "context" {
            Reply::Raw(500, vec![], String::new())
        } else {
            Reply::Model
        }
    });
    let d = &r.report.documents[0];
    assert_eq!(d.source, Source::Llm);
    assert!(
        d.reason
            .as_deref()
            .unwrap_or("")
            .contains("context pass failed"),
        "{d:?}"
    );
    assert!(values(&r, 0).contains(&"PROVIDER:Harbor View Clinic".into()));
}
