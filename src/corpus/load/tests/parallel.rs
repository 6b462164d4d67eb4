//! Loading on every core keeps the order of one core.

use super::*;

/// Files and JSONL lines are parsed on every core, in chunks and batches: the corpus
/// order, the keys and the diagnostics (their order included) are those of one core,
/// across chunk boundaries, with bad files, bad lines and duplicate ids among them.
#[test]
fn loading_on_every_core_keeps_the_order_of_one_core() {
    let d = tmp();
    let mut jsonl = String::new();
    for i in 0..9_000 {
        match i % 997 {
            13 => jsonl.push_str("{not json\n"),
            14 => jsonl.push_str(&format!("{}\n", doc_json("L5", "a duplicate id"))),
            _ => jsonl.push_str(&format!(
                "{}\n",
                doc_json(&format!("L{i}"), &format!("Caf\u{E9} line {i}"))
            )),
        }
    }
    write(d.path(), "lines/corpus.jsonl", jsonl);
    for i in 0..2_500 {
        let body = if i % 701 == 3 {
            "[1, 2".to_string()
        } else {
            doc_json(&format!("F{i:05}"), &format!("file {i}, Cafe\u{301}"))
        };
        write(d.path(), &format!("files/{i:05}.json"), body);
    }
    let one_core = |path: &Path| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .expect("pool")
            .install(|| load_default(path))
    };
    let every_core = |path: &Path| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(4)
            .build()
            .expect("pool")
            .install(|| load_default(path))
    };
    for path in [d.path().join("lines/corpus.jsonl"), d.path().join("files")] {
        let (a, b) = (one_core(&path), every_core(&path));
        let keys = |c: &Corpus| {
            c.documents
                .iter()
                .map(|d| (d.id.clone(), d.key.clone(), d.source.line))
                .collect::<Vec<_>>()
        };
        assert_eq!(keys(&a), keys(&b));
        assert_eq!(a.diagnostics, b.diagnostics);
        assert!(
            a.documents
                .iter()
                .all(|d| d.key == doc_key(&d.id, &d.content))
        );
        assert!(!a.diagnostics.is_empty());
    }
    let lines = one_core(&d.path().join("lines/corpus.jsonl"));
    // Ten bad lines and ten duplicates of L5, reported in line order.
    assert_eq!(lines.documents.len(), 9_000 - 2 * 10);
    let bad: Vec<Option<usize>> = lines.diagnostics.iter().map(|x| x.line).collect();
    let expected: Vec<Option<usize>> = (0..9_000)
        .filter(|i| matches!(i % 997, 13 | 14))
        .map(|i| Some(i + 1))
        .collect();
    assert_eq!(bad, expected);
    let files = one_core(&d.path().join("files"));
    assert_eq!(files.documents.len(), 2_500 - 4);
    assert_eq!(files.documents[0].id, "F00000");
    assert_eq!(
        files.documents.last().map(|d| d.id.as_str()),
        Some("F02499")
    );
}
