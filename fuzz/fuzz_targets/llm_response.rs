//! The LLM response parser: a model's answer (bare, fenced or embedded JSON, or
//! anything else) through `entities_of` and `validate`, then the entity store's span
//! location and unlocated guard against a random document. Never panics; every kept
//! item has a schema type, a relevance in [0, 1] and a non-empty trimmed value; every
//! located span is inside the document.
#![no_main]

use arbitrary::Arbitrary;
use clam::Schema;
use clam::corpus::Document;
use clam::entity::EntityStore;
use clam::entity::normalize::DateOrder;
use clam::entity::spans::CharIndex;
use clam::extract::llm::validate::{entities_of, validate};
use libfuzzer_sys::fuzz_target;

#[derive(Debug, Arbitrary)]
struct Input {
    /// The model's text, or the JSON body when `wrap` puts it in an envelope.
    answer: String,
    /// How the answer is presented: bare, fenced, fenced with `json`, inside prose,
    /// or as an `{"entities": [...]}` object built from `items`.
    wrap: u8,
    items: Vec<(String, String, u8, f64)>,
    document: String,
}

const TYPES: [&str; 7] = [
    "NAME",
    "medical condition",
    "PATIENT-ID",
    "AGE",
    "SHOE_SIZE",
    "",
    "EMAIL",
];

fn answer_of(input: &Input) -> String {
    match input.wrap % 6 {
        0 => input.answer.clone(),
        1 => format!("```\n{}\n```", input.answer),
        2 => format!("Sure! Here you go:\n```json\n{}\n```\nDone.", input.answer),
        3 => format!("The entities are {} — hope this helps}}", input.answer),
        _ => {
            let entries: Vec<serde_json::Value> = input
                .items
                .iter()
                .take(16)
                .map(|(o, n, t, r)| {
                    serde_json::json!([o, n, TYPES[*t as usize % TYPES.len()], r])
                })
                .collect();
            let body = serde_json::json!({ "entities": entries }).to_string();
            if input.wrap % 6 == 4 {
                body
            } else {
                format!("{}{}{}", input.answer, body, input.answer)
            }
        }
    }
}

fuzz_target!(|input: Input| {
    let answer = answer_of(&input);
    let schema = Schema::default();
    let Some(entries) = entities_of(&answer) else {
        return;
    };
    let (items, dropped) = validate(&entries, &schema);
    assert_eq!(items.len() + dropped.total(), entries.len());
    for it in &items {
        assert!(schema.contains(&it.entity_type), "type {:?}", it.entity_type);
        assert!((0.0..=1.0).contains(&it.relevance), "relevance {}", it.relevance);
        assert!(!it.original.is_empty() && it.original.trim() == it.original);
    }
    let doc = Document::new("d", input.document.as_str());
    let mut store = EntityStore::with_documents(std::slice::from_ref(&doc));
    store.set_document_items(0, &doc, &items, &schema, DateOrder::Mdy);
    let chars = CharIndex::new(&doc.content);
    let d = &store.docs[0];
    assert!(d.complete);
    for e in &d.entities {
        assert!(store.keys.contains_key(&e.entity_id));
        for s in &e.spans {
            assert!(chars.slice(&doc.content, *s).is_some(), "span {s:?} out of bounds");
        }
    }
    assert!(d.entities.len() + d.unlocated + d.invalid <= items.len());
});
