//! Attacks on the export's central promise (SPEC §5): after an export, nothing in the
//! export folder reads as a masked value. Generated values are written back into
//! documents through random combinations of the ways real text and hostile input
//! write the same value — white space and line breaks, hyphenated wraps, invisible
//! characters, full width, look-alike letters, accents, case, separators, name order
//! — in content, document ids, file names, metadata keys and metadata values of every
//! type. Each export must pass the independent leak check (an `ExportError::Leak`
//! fails the case), and a third, naive oracle here checks that no written form
//! survives verbatim in any decoded string, key or file name.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::path::Path;

#[path = "common/mod.rs"]
mod common;

use clam::config::Config;
use clam::corpus::{Corpus, Document, Format, Source};
use clam::entity::EntityStore;
use clam::entity::ExtractedItem;
use clam::export::{ExportError, ExportOptions, export};
use clam::extract::offline::OfflineExtractor;
use clam::redact::Mode;
use clam::workspace::Workspace;
use proptest::prelude::*;

/// A generated masked value.
#[derive(Debug, Clone)]
struct Value {
    entity_type: &'static str,
    text: String,
}

fn word(seed: &[u8]) -> String {
    const CONS: &[u8] = b"bcdfgklmnprstvz";
    const VOW: &[u8] = b"aeiou";
    let mut w = String::new();
    for (i, b) in seed.iter().enumerate() {
        let set = if i % 2 == 0 { CONS } else { VOW };
        let c = set[*b as usize % set.len()] as char;
        w.push(if i == 0 { c.to_ascii_uppercase() } else { c });
    }
    w
}

fn value_strategy() -> impl Strategy<Value = Value> {
    prop_oneof![
        (
            prop::collection::vec(any::<u8>(), 4..8),
            prop::collection::vec(any::<u8>(), 5..9)
        )
            .prop_map(|(a, b)| Value {
                entity_type: "NAME",
                text: format!("{} {}", word(&a), word(&b)),
            }),
        (200u32..999, 200u32..999, 0u32..9999).prop_map(|(a, b, c)| Value {
            entity_type: "PHONE_NUMBER",
            text: format!("{a}-{b}-{c:04}"),
        }),
        (prop::collection::vec(0u8..26, 2..3), 10000u32..99999).prop_map(|(l, n)| Value {
            entity_type: "PATIENT_ID",
            text: format!(
                "{}-{n}",
                l.iter().map(|c| (b'A' + c) as char).collect::<String>()
            ),
        }),
        (
            100u32..9999,
            prop::collection::vec(any::<u8>(), 5..9),
            prop::sample::select(vec![
                ("Parkway", "Pkwy."),
                ("Street", "St."),
                ("Avenue", "Ave"),
                ("Boulevard", "Blvd")
            ])
        )
            .prop_map(|(n, w, (long, _))| Value {
                entity_type: "ADDRESS",
                text: format!("{n} {} {long}", word(&w)),
            }),
    ]
}

/// One way of writing a value differently.
#[derive(Debug, Clone, Copy)]
enum Transform {
    /// The space between words: a line break, two spaces, NBSP, U+2009, U+3000, a tab.
    Space(u8),
    /// A hyphenated line wrap inside a word, at a position.
    Wrap(u8),
    /// An invisible character inside, at a position.
    Invisible(u8, u8),
    FullWidth,
    /// Look-alike Cyrillic or Greek letters.
    LookAlike,
    /// Accents on vowels (precomposed or combining).
    Accents(bool),
    Upper,
    Lower,
    /// Separators of phones and ids: en dash, em dash, '/', '.', '_', ' '.
    Separator(u8),
    /// Names: family name first ("Marlowe, Edith"), or the words run together.
    NameOrder(u8),
}

fn transform_strategy() -> impl Strategy<Value = Transform> {
    prop_oneof![
        (0u8..6).prop_map(Transform::Space),
        any::<u8>().prop_map(Transform::Wrap),
        (any::<u8>(), 0u8..6).prop_map(|(p, k)| Transform::Invisible(p, k)),
        Just(Transform::FullWidth),
        Just(Transform::LookAlike),
        any::<bool>().prop_map(Transform::Accents),
        Just(Transform::Upper),
        Just(Transform::Lower),
        (0u8..6).prop_map(Transform::Separator),
        (0u8..3).prop_map(Transform::NameOrder),
    ]
}

/// Position `p` (mod the number of chars) strictly inside a word of `s`.
fn inside_word(s: &str, p: u8) -> Option<usize> {
    let chars: Vec<char> = s.chars().collect();
    let spots: Vec<usize> = (1..chars.len())
        .filter(|&i| chars[i - 1].is_alphanumeric() && chars[i].is_alphanumeric())
        .collect();
    (!spots.is_empty()).then(|| spots[p as usize % spots.len()])
}

fn insert_at(s: &str, at: usize, what: &str) -> String {
    let mut out: String = s.chars().take(at).collect();
    out.push_str(what);
    out.extend(s.chars().skip(at));
    out
}

fn apply(v: &Value, t: Transform, s: &str) -> String {
    match t {
        Transform::Space(k) => {
            let sp = ["\n", "  ", "\u{a0}", "\u{2009}", "\u{3000}", "\t"][k as usize % 6];
            s.replace(' ', sp)
        }
        Transform::Wrap(p) => match inside_word(s, p) {
            Some(at) => {
                let chars: Vec<char> = s.chars().collect();
                // Only between two letters: a reader joins a wrapped word, not digits.
                if chars[at - 1].is_alphabetic() && chars[at].is_alphabetic() {
                    insert_at(s, at, "-\n")
                } else {
                    s.to_string()
                }
            }
            None => s.to_string(),
        },
        Transform::Invisible(p, k) => {
            let c = [
                "\u{200b}", "\u{ad}", "\u{200d}", "\u{feff}", "\u{2060}", "\u{202e}",
            ][k as usize % 6];
            match inside_word(s, p) {
                Some(at) => insert_at(s, at, c),
                None => s.to_string(),
            }
        }
        Transform::FullWidth => s
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() {
                    char::from_u32(c as u32 + 0xFEE0).unwrap_or(c)
                } else {
                    c
                }
            })
            .collect(),
        Transform::LookAlike => s
            .chars()
            .map(|c| match c {
                'a' => '\u{430}',
                'e' => '\u{435}',
                'o' => '\u{3bf}',
                'p' => '\u{440}',
                'c' => '\u{441}',
                'A' => '\u{391}',
                'E' => '\u{415}',
                'O' => '\u{41e}',
                'K' => '\u{39a}',
                'T' => '\u{422}',
                c => c,
            })
            .collect(),
        Transform::Accents(combining) => s
            .chars()
            .flat_map(|c| {
                let pre = match c {
                    'a' => Some('á'),
                    'e' => Some('é'),
                    'i' => Some('ï'),
                    'o' => Some('ö'),
                    'u' => Some('ú'),
                    _ => None,
                };
                match (pre, combining) {
                    (Some(_), true) => vec![c, '\u{301}'],
                    (Some(p), false) => vec![p],
                    (None, _) => vec![c],
                }
            })
            .collect(),
        Transform::Upper => s.to_uppercase(),
        Transform::Lower => s.to_lowercase(),
        Transform::Separator(k) => {
            if matches!(v.entity_type, "PHONE_NUMBER" | "PATIENT_ID") {
                let sep = ["\u{2013}", "\u{2014}", "/", ".", "_", " "][k as usize % 6];
                s.replace('-', sep)
            } else {
                s.to_string()
            }
        }
        Transform::NameOrder(k) => {
            if v.entity_type != "NAME" {
                return s.to_string();
            }
            let words: Vec<&str> = s.split(' ').collect();
            if words.len() != 2 {
                return s.to_string();
            }
            match k {
                0 => format!("{}, {}", words[1], words[0]),
                1 => format!("{}{}", words[0], words[1]),
                _ => format!("{}-{}", words[1].to_uppercase(), words[0].to_uppercase()),
            }
        }
    }
}

/// Where a written form goes.
#[derive(Debug, Clone, Copy)]
enum Place {
    Content,
    Id,
    FileName,
    MetadataKey,
    MetadataValue,
    /// A phone or id's digits as a JSON number.
    MetadataNumber,
}

fn place_strategy() -> impl Strategy<Value = Place> {
    prop_oneof![
        Just(Place::Content),
        Just(Place::Id),
        Just(Place::FileName),
        Just(Place::MetadataKey),
        Just(Place::MetadataValue),
        Just(Place::MetadataNumber),
    ]
}

fn document(
    id: String,
    rel: String,
    content: String,
    metadata: serde_json::Map<String, serde_json::Value>,
) -> Document {
    let mut d = Document::new(id.clone(), content.clone());
    d.source = Source {
        rel_path: rel,
        line: None,
        format: Format::Json,
    };
    d.metadata = clam::corpus::Metadata::from_map(&metadata);
    let mut raw = serde_json::Map::new();
    raw.insert("id".into(), serde_json::Value::String(id));
    raw.insert("metadata".into(), serde_json::Value::Object(metadata));
    raw.insert("content".into(), serde_json::Value::String(content));
    d.raw = Some(Box::new(raw));
    d
}

/// Every decoded string, key and number of a JSON value.
fn json_texts(v: &serde_json::Value, out: &mut Vec<String>) {
    use serde_json::Value as J;
    match v {
        J::String(s) => out.push(s.clone()),
        J::Number(n) => out.push(n.to_string()),
        J::Array(a) => a.iter().for_each(|x| json_texts(x, out)),
        J::Object(o) => o.iter().for_each(|(k, x)| {
            out.push(k.clone());
            json_texts(x, out);
        }),
        _ => {}
    }
}

/// Every text of the export folder as a reader would read it.
fn exported_texts(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir") {
            let path = entry.expect("entry").path();
            out.push(
                path.file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default(),
            );
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            // The manifest's tables decompressed, as a reader sees them.
            let text = common::export_text(&path);
            let name = path.to_string_lossy().trim_end_matches(".gz").to_string();
            if name.ends_with(".json") {
                if let Ok(v) = serde_json::from_str::<serde_json::Value>(&text) {
                    json_texts(&v, &mut out);
                }
            } else if name.ends_with(".jsonl") {
                for line in text.lines() {
                    if let Ok(v) = serde_json::from_str::<serde_json::Value>(line) {
                        json_texts(&v, &mut out);
                    }
                }
            }
            out.push(text);
        }
    }
    out
}

const MODES: [Mode; 4] = [Mode::Value, Mode::Redact, Mode::Pseudonym, Mode::Generalize];

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn no_written_form_of_a_masked_value_survives_the_export(
        values in prop::collection::vec(value_strategy(), 1..4),
        forms in prop::collection::vec(
            (0usize..4, prop::collection::vec(transform_strategy(), 1..4), place_strategy()),
            1..8,
        ),
        mode in 0usize..4,
    ) {
        // Document 0 holds every value as written: that is where it is extracted.
        let verbatim = values.iter().map(|v| format!("Record: {}.", v.text)).collect::<Vec<_>>().join("\n");
        let mut docs = vec![document("record".into(), "record.json".into(), verbatim, serde_json::Map::new())];
        let mut written = Vec::new();
        for (k, (vi, transforms, place)) in forms.iter().enumerate() {
            let v = &values[vi % values.len()];
            let mut s = v.text.clone();
            for t in transforms {
                s = apply(v, *t, &s);
            }
            let mut meta = serde_json::Map::new();
            let (mut id, mut rel, mut content) = (format!("note{k}"), format!("note{k}.json"), format!("Follow-up note {k}."));
            match place {
                Place::Content => content = format!("Seen today: {s}, again."),
                Place::Id => id = format!("case {s}"),
                Place::FileName => rel = format!("{}.json", s.replace(['/', '\n', '\0'], "_")),
                Place::MetadataKey => {
                    meta.insert(s.clone(), serde_json::Value::Bool(true));
                }
                Place::MetadataValue => {
                    meta.insert("contact".into(), serde_json::Value::String(s.clone()));
                }
                Place::MetadataNumber => {
                    let digits: String = v.text.chars().filter(char::is_ascii_digit).collect();
                    if v.entity_type == "PHONE_NUMBER" && let Ok(n) = digits.parse::<u64>() {
                        meta.insert("tel".into(), serde_json::Value::from(n));
                        s = digits;
                    } else {
                        meta.insert("contact".into(), serde_json::Value::String(s.clone()));
                    }
                }
            }
            written.push(s);
            docs.push(document(id, rel, content, meta));
        }
        // Ids and file names must be unique in a corpus.
        let mut seen = std::collections::HashSet::new();
        docs.retain(|d| seen.insert(d.id.clone()) && seen.insert(format!("\0{}", d.source.rel_path)));

        let config = Config::default();
        let mut store = EntityStore::with_documents(&docs);
        let items: Vec<ExtractedItem> = values
            .iter()
            .map(|v| ExtractedItem {
                original: v.text.clone(),
                normalized: String::new(),
                entity_type: v.entity_type.to_string(),
                relevance: 1.0,
                spans: vec![],
            })
            .collect();
        store.set_document_items(0, &docs[0], &items, &config.schema, config.extraction.date_order);
        let corpus = Corpus { root: std::path::PathBuf::from("/nonexistent-corpus"), format: Some(Format::Json), documents: docs, diagnostics: vec![], not_read: vec![] };
        let mut config = config;
        config.redact.mode = MODES[mode];
        let ws = Workspace::new(corpus, config, store, None, "test").expect("workspace");
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        let scanner = OfflineExtractor::new(ws.config().extraction.date_order);
        match export(&ws, b"key", &out, &ExportOptions::default(), &scanner) {
            Ok(_) => {}
            Err(ExportError::Leak(hits)) => {
                prop_assert!(false, "the leak check found {hits:?} (written as {written:?})");
            }
            Err(e) => prop_assert!(false, "export failed: {e}"),
        }
        // The naive oracle: no written form, verbatim, anywhere.
        let texts = exported_texts(&out);
        for s in written.iter().chain(values.iter().map(|v| &v.text)) {
            for t in &texts {
                prop_assert!(!t.contains(s.as_str()), "{s:?} survives in {t:?}");
            }
        }
        // No two exported documents share an id.
        let ids: Vec<String> = std::fs::read_dir(out.join("redacted")).expect("redacted").map(|e| {
            let text = std::fs::read_to_string(e.expect("entry").path()).expect("read");
            serde_json::from_str::<serde_json::Value>(&text).expect("json")["id"].as_str().unwrap_or_default().to_string()
        }).collect();
        let unique: std::collections::HashSet<&String> = ids.iter().collect();
        prop_assert_eq!(unique.len(), ids.len(), "{:?}", ids);
    }
}
