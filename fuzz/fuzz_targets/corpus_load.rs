//! Corpus loading (JSON file, JSONL file, text file, and a folder of all three) on
//! arbitrary bytes: never panics, and whatever loads is a well-formed document.
#![no_main]

use clam::corpus::{LoadOptions, load};
use libfuzzer_sys::fuzz_target;

fn check(corpus: &clam::corpus::Corpus) {
    for d in &corpus.documents {
        assert!(!d.id.trim().is_empty(), "a document without id was loaded");
        assert!(
            !d.content.is_empty(),
            "a document without content was loaded"
        );
        assert!(
            d.key.starts_with(&d.id),
            "the document key starts with the id"
        );
    }
    for diag in &corpus.diagnostics {
        assert!(!diag.message.is_empty());
    }
}

fuzz_target!(|data: &[u8]| {
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let small = LoadOptions {
        max_document_bytes: 64,
        ..LoadOptions::default()
    };
    for name in ["doc.json", "docs.jsonl", "note.txt"] {
        let path = dir.path().join(name);
        if std::fs::write(&path, data).is_err() {
            return;
        }
        for opts in [&LoadOptions::default(), &small] {
            if let Ok(c) = load(&path, opts) {
                check(&c);
            }
        }
    }
    // A folder: the JSON file wins the format detection; then each forced format.
    for format in [
        None,
        Some(clam::corpus::Format::Jsonl),
        Some(clam::corpus::Format::Text),
    ] {
        let opts = LoadOptions {
            format,
            ..LoadOptions::default()
        };
        if let Ok(c) = load(dir.path(), &opts) {
            check(&c);
        }
    }
});
