//! Shard files: written and read back, merged in corpus order, and every way a set of
//! shard files can disagree with the corpus or with itself refused with its reason.

use super::*;
use crate::corpus::Document;
use crate::entity::Span;
use crate::progress::Silent;

fn corpus(n: usize) -> Corpus {
    Corpus {
        documents: (0..n)
            .map(|i| Document::new(format!("doc-{i}"), format!("Text of document {i}.")))
            .collect(),
        ..Corpus::default()
    }
}

fn items_of(doc: &Document) -> Vec<ExtractedItem> {
    vec![ExtractedItem {
        original: format!("{} \u{1b}[31m", doc.id),
        normalized: doc.id.clone(),
        entity_type: "NAME".into(),
        relevance: 0.95,
        spans: vec![Span { start: 0, end: 4 }],
    }]
}

/// Writes shard `i` of `n` of `whole` (with `config` as its settings) into `dir`.
fn shard_file(dir: &Path, whole: &Corpus, i: u32, n: u32, config: &Value) -> PathBuf {
    let shard = Shard::new(i, n).unwrap();
    let part = Corpus {
        documents: whole
            .documents
            .iter()
            .filter(|d| shard.contains(&d.id))
            .cloned()
            .collect(),
        ..Corpus::default()
    };
    let items: Vec<Vec<ExtractedItem>> = part.documents.iter().map(items_of).collect();
    let header = ShardHeader {
        clam_shard: FORMAT_VERSION,
        shard,
        extractor: "offline".into(),
        config: config.clone(),
        extraction: json!({"date_order": "MDY"}),
        documents: part.documents.len(),
    };
    let path = dir.join(format!("part-{i}-of-{n}.jsonl"));
    let mut out = Vec::new();
    write_shard(&mut out, &header, &part, &items).unwrap();
    std::fs::write(&path, out).unwrap();
    path
}

fn read_all(paths: &[PathBuf]) -> Vec<ShardFile> {
    paths
        .iter()
        .map(|p| read_shard(p, &Silent).unwrap())
        .collect()
}

fn error(whole: &Corpus, paths: &[PathBuf]) -> String {
    match merge(whole, read_all(paths)) {
        Ok(_) => panic!("the merge should fail"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn shards_merge_into_corpus_order() {
    let dir = tempfile::tempdir().unwrap();
    let whole = corpus(40);
    let cfg = json!({"theta_doc": 0.9});
    let paths: Vec<PathBuf> = (1..=3)
        .map(|i| shard_file(dir.path(), &whole, i, 3, &cfg))
        .collect();
    assert!(paths.iter().all(|p| is_shard_file(p).unwrap()));
    let files = read_all(&paths);
    assert_eq!(files.iter().map(|f| f.documents.len()).sum::<usize>(), 40);
    // Escaped on disk, the same string once read.
    let text = std::fs::read_to_string(&paths[0]).unwrap();
    assert!(!text.contains('\u{1b}') && text.contains("\\u001b"));
    // Any order of the files gives the corpus order.
    let mut reversed = files.clone();
    reversed.reverse();
    let merged = merge(&whole, reversed).unwrap();
    let expected: Vec<Vec<ExtractedItem>> = whole.documents.iter().map(items_of).collect();
    assert_eq!(merged.items, expected);
    assert_eq!(merged.config, cfg);
}

#[test]
fn a_snapshot_is_not_a_shard_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("snapshot.json");
    std::fs::write(&path, "{\n  \"config\": {},\n  \"documents\": []\n}\n").unwrap();
    assert!(!is_shard_file(&path).unwrap());
}

#[test]
fn incomplete_or_inconsistent_shards_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let whole = corpus(30);
    let cfg = json!({});
    let p: Vec<PathBuf> = (1..=3)
        .map(|i| shard_file(dir.path(), &whole, i, 3, &cfg))
        .collect();

    let e = error(&whole, &p[..2]);
    assert!(e.contains("shard(s) 3/3 missing"), "{e}");
    let e = error(&whole, &[p[0].clone(), p[1].clone(), p[1].clone()]);
    assert!(e.contains("shard 2/3 is given twice"), "{e}");

    let other = tempfile::tempdir().unwrap();
    let two = shard_file(other.path(), &whole, 1, 2, &cfg);
    let e = error(&whole, &[p[0].clone(), p[1].clone(), two]);
    assert!(e.contains("split into 2 shards"), "{e}");

    let strict = shard_file(other.path(), &whole, 3, 3, &json!({"theta_doc": 0.5}));
    let e = error(&whole, &[p[0].clone(), p[1].clone(), strict]);
    assert!(e.contains("other settings"), "{e}");
}

#[test]
fn a_corpus_that_changed_since_the_extraction_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let whole = corpus(30);
    let cfg = json!({});
    let p: Vec<PathBuf> = (1..=3)
        .map(|i| shard_file(dir.path(), &whole, i, 3, &cfg))
        .collect();

    let mut edited = whole.clone();
    edited.documents[7] = Document::new("doc-7", "Another text.");
    let e = error(&edited, &p);
    assert!(
        e.contains("\"doc-7\" has changed since it was extracted"),
        "{e}"
    );

    let mut grown = whole.clone();
    grown.documents.push(Document::new("doc-new", "New."));
    let e = error(&grown, &p);
    assert!(
        e.contains("\"doc-new\" of the corpus is in no shard file"),
        "{e}"
    );

    let mut shrunk = whole.clone();
    shrunk.documents.remove(3);
    let e = error(&shrunk, &p);
    assert!(e.contains("\"doc-3\" is not in the corpus"), "{e}");
}

#[test]
fn damaged_shard_files_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let whole = corpus(30);
    let p = shard_file(dir.path(), &whole, 1, 2, &json!({}));
    let text = std::fs::read_to_string(&p).unwrap();
    // Cut short: the last document's line is gone.
    let cut: Vec<&str> = text.lines().collect();
    std::fs::write(&p, cut[..cut.len() - 1].join("\n") + "\n").unwrap();
    let e = read_shard(&p, &Silent).unwrap_err().to_string();
    assert!(e.contains("cut short"), "{e}");
    // A document in the wrong shard.
    let q = shard_file(dir.path(), &whole, 2, 2, &json!({}));
    let moved = std::fs::read_to_string(&q).unwrap();
    let line = moved.lines().nth(1).unwrap().to_string();
    std::fs::write(&p, text.clone() + &line + "\n").unwrap();
    let header_fixed = std::fs::read_to_string(&p).unwrap().replacen(
        &format!("\"documents\":{}", cut.len() - 1),
        &format!("\"documents\":{}", cut.len()),
        1,
    );
    std::fs::write(&p, header_fixed).unwrap();
    let e = error(&whole, &[p.clone(), q]);
    assert!(e.contains("belongs to shard 2/2, not 1/2"), "{e}");
    // Not JSON.
    std::fs::write(&p, "{\"clam_shard\": 1\n").unwrap();
    let e = read_shard(&p, &Silent).unwrap_err().to_string();
    assert!(e.contains(":1: not a shard file"), "{e}");
}
