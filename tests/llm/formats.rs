//! The response format: the fallback from a JSON schema to JSON to text when a
//! server refuses one, and the bounds the schema sets on what a model can write.

use super::*;

#[test]
fn the_response_format_falls_back_when_refused() {
    let (r, server, _) = one_doc("", |req, _| {
        match req.body["response_format"]["type"].as_str() {
            Some("json_schema") => Reply::Raw(
                400,
                vec![],
                "{\"error\": \"response_format not supported\"}".into(),
            ),
            // llama-cpp-python answers an unknown response_format with a 500.
            Some("json_object") => Reply::Raw(
                500,
                vec![],
                "{\"error\": \"body.response_format.type: Input should be 'text'\"}".into(),
            ),
            _ => Reply::Content(format!(
                "Here you go:\n```json\n{}\n```",
                "{\"entities\": [[\"lupus nephritis\", \"lupus nephritis\", \"MEDICAL_CONDITION\", 0.9]]}"
            )),
        }
    });
    assert_eq!(r.report.documents[0].source, Source::Llm);
    assert!(values(&r, 0).contains(&"MEDICAL_CONDITION:lupus nephritis".into()));
    let formats: Vec<Value> = server
        .requests()
        .iter()
        .map(|r| r.body["response_format"]["type"].clone())
        .collect();
    assert_eq!(
        formats[..3],
        [json!("json_schema"), json!("json_object"), Value::Null]
    );
    assert_eq!(
        formats[3],
        Value::Null,
        "the context pass starts at the accepted format"
    );
    assert_eq!(
        r.report.response_format,
        Some(clam::extract::llm::settings::ResponseFormat::Text)
    );
}

#[test]
fn queued_requests_ask_for_the_accepted_format() {
    let server = Server::start(
        |req, _| match req.body["response_format"]["type"].as_str() {
            Some("json_schema") => {
                Reply::Raw(422, vec![], "{\"detail\": \"response_format\"}".into())
            }
            _ => Reply::Model,
        },
    );
    let dirs = Dirs::new();
    let c = config(&server.base_url(), "max_concurrency = 1\n");
    let r = run(&c, &dirs.no_cache(), &docs());
    assert_eq!(r.report.fallbacks, 0);
    let schema = server
        .requests()
        .iter()
        .filter(|r| r.body["response_format"]["type"] == "json_schema")
        .count();
    assert_eq!(schema, 1, "only the first request is refused");
    assert_eq!(server.count(), 7);
}

/// The response schema keeps a small model on the thesis's shape: at most
/// `max_entities` entries, each exactly four items, one-line values, a known type and
/// a relevance from a fixed grid (a grammar-constrained server such as llama.cpp turns
/// this into its grammar; a 270M model otherwise ran values across lines, wrote
/// -1000000000000000 as a relevance and repeated itself until `max_tokens` cut it off).
#[test]
fn the_response_schema_bounds_what_a_small_model_can_write() {
    let (r, server, _) = one_doc("max_entities = 5\n", |_, _| {
        Reply::Content("{\"entities\": []}".into())
    });
    assert_eq!(r.report.documents[0].source, Source::Llm);
    let reqs = server.requests();
    let schema = &reqs[0].body["response_format"]["json_schema"]["schema"];
    let list = &schema["properties"]["entities"];
    assert_eq!(list["maxItems"], 5);
    let items = &list["items"]["prefixItems"];
    let pattern = items[0]["pattern"].as_str().unwrap();
    assert_eq!(pattern, items[1]["pattern"].as_str().unwrap());
    assert!(
        pattern.contains("\\n") && pattern.ends_with("{1,80}$"),
        "{pattern}"
    );
    assert!(
        items[2]["enum"]
            .as_array()
            .unwrap()
            .contains(&json!("MEDICAL_CONDITION"))
    );
    assert_eq!(items[3]["enum"].as_array().unwrap().len(), 10);
    assert_eq!(items[3]["enum"][9], 1.0);
    // The default leaves room for long documents.
    let (_, server, _) = one_doc("", |_, _| Reply::Content("{\"entities\": []}".into()));
    let body = &server.requests()[0].body;
    assert_eq!(
        body["response_format"]["json_schema"]["schema"]["properties"]["entities"]["maxItems"],
        100
    );
}
