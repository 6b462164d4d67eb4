//! Corpus loading (SPEC §1): a folder of JSON files, a JSONL file, or a folder of
//! `.txt`/`.md` files; corpus order; document keys; per-file diagnostics.

mod load;
mod shard;

pub use load::{LoadOptions, load, load_reader, load_with};
pub use shard::{Shard, ShardError};

use serde::{Deserialize, Serialize};
use std::path::PathBuf;

use crate::hashing::md5_hex;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// Default size limit of one document (10 MiB).
pub const DEFAULT_MAX_DOCUMENT_BYTES: u64 = 10 * 1024 * 1024;

/// The corpus path that means standard input (as for ripgrep and cargo: a file
/// named `-` is written `./-`).
pub const STDIN_PATH: &str = "-";
/// How standard input is named in messages.
pub const STDIN_NAME: &str = "<stdin>";
/// The relative path of the documents read from standard input (the export's
/// `redacted/` file of them).
pub const STDIN_REL: &str = "stdin.jsonl";

/// Whether a corpus path means standard input.
pub fn is_stdin(path: &std::path::Path) -> bool {
    path.as_os_str() == STDIN_PATH
}

/// Input format of a corpus.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// A folder of `*.json` files, each `{"id", "metadata"?, "content"}`.
    #[default]
    Json,
    /// One `.jsonl` file, one such object per line.
    Jsonl,
    /// A folder of `.txt` / `.md` files (id = file stem).
    Text,
}

impl Format {
    /// The name `--format` takes.
    pub fn name(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Jsonl => "jsonl",
            Format::Text => "text",
        }
    }
}

/// Where a document came from, so the export can write it back in the same shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Source {
    /// Path relative to the corpus root ('/' separators); for JSONL the file name.
    pub rel_path: String,
    /// 1-based line number for JSONL documents.
    pub line: Option<usize>,
    /// The format of the file it came from (a folder may mix them); the export writes
    /// the document back in it.
    #[serde(default)]
    pub format: Format,
}

/// One loaded document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Document {
    pub id: String,
    /// The `metadata` object (for text files `{"path": rel_path}`).
    pub metadata: Metadata,
    /// Content in its original form (display and redaction use it as is).
    pub content: String,
    /// `id + ":" + md5_hex(NFC(lowercase(content)))`.
    pub key: String,
    pub source: Source,
    /// The original JSON object (JSON and JSONL formats), so unknown top-level fields
    /// survive the export in their places. Its `content` is null and its `metadata` an
    /// empty object: both are moved into the fields above, not held twice. `None` for
    /// text files and for the plain `{"id", "content", "metadata"}` object, which the
    /// export writes in that order.
    /// Boxed: most documents have none, and an empty map is 72 bytes.
    pub raw: Option<Box<serde_json::Map<String, serde_json::Value>>>,
}

/// A document's `metadata` object, held as its compact JSON text (keys in their
/// order): a map of one or two short fields is about 250 bytes held as a map and 40
/// as text, a quarter of a generated document's memory. Read by parsing; serialized
/// as the object it is.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Metadata(Box<str>);

impl Metadata {
    /// The metadata of `map` (empty text for an empty map).
    pub fn from_map(map: &serde_json::Map<String, serde_json::Value>) -> Self {
        if map.is_empty() {
            return Metadata::default();
        }
        // A map of string keys always serializes.
        Metadata(serde_json::to_string(map).unwrap_or_default().into())
    }

    /// The object, keys in their order.
    pub fn to_map(&self) -> serde_json::Map<String, serde_json::Value> {
        if self.0.is_empty() {
            return serde_json::Map::new();
        }
        serde_json::from_str(&self.0).unwrap_or_default()
    }

    /// The value of field `key`.
    pub fn get(&self, key: &str) -> Option<serde_json::Value> {
        self.to_map().get(key).cloned()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl Serialize for Metadata {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_map().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Metadata {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde_json::Map::deserialize(d).map(|m| Metadata::from_map(&m))
    }
}

/// Why a file or line was skipped.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Diagnostic {
    /// The file, relative to the corpus root when it is inside it.
    pub file: String,
    pub line: Option<usize>,
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.file, line, self.message),
            None => write!(f, "{}: {}", self.file, self.message),
        }
    }
}

impl Diagnostic {
    /// The skipped file or line as JSON output lists it: `{"file", "line"?, "reason"}`.
    pub fn to_json(&self) -> serde_json::Value {
        let mut o = serde_json::Map::new();
        o.insert("file".into(), self.file.clone().into());
        if let Some(line) = self.line {
            o.insert("line".into(), line.into());
        }
        o.insert("reason".into(), self.message.clone().into());
        serde_json::Value::Object(o)
    }
}

/// A loaded corpus: documents in corpus order plus the diagnostics of skipped input.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct Corpus {
    /// The path as given (`-` for standard input).
    pub root: PathBuf,
    /// The format of every document when they share one (`None` for a folder that
    /// mixes formats, or when nothing loaded).
    pub format: Option<Format>,
    pub documents: Vec<Document>,
    /// Documents skipped because they are broken (exit code 4).
    pub diagnostics: Vec<Diagnostic>,
    /// Files of a corpus folder that are not documents, each with why it was not
    /// read: a gold file, a README, the corpus's clam.toml, another extension, a
    /// hidden file, a subfolder without `--recursive`. Not an error: the exit code
    /// does not change.
    #[serde(default)]
    pub not_read: Vec<Diagnostic>,
}

impl Corpus {
    /// Whether the corpus was read from standard input (`-`).
    pub fn is_stdin(&self) -> bool {
        is_stdin(&self.root)
    }
}

/// Errors that stop loading altogether (the corpus path itself is unusable).
#[derive(Debug, thiserror::Error)]
pub enum CorpusError {
    #[error("{path}: no such file or folder")]
    NotFound { path: PathBuf },
    #[error("{path}: cannot read: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error(
        "{path}: cannot tell the corpus format (expected a folder of .json, .jsonl, .txt or .md files, or one such file; use --format json|jsonl|text)"
    )]
    UnknownFormat { path: PathBuf },
    #[error(
        "standard input (`-`) is read as JSONL, one {{\"id\", \"content\", \"metadata\"}} object per line; --format {format} needs a file or folder"
    )]
    StdinFormat { format: &'static str },
}

/// The text used for matching and document keys: Unicode NFC, then lowercase. ASCII
/// and text already in NFC (nearly every document) skip the normalization.
pub fn normalize_for_key(content: &str) -> String {
    if content.is_ascii() {
        return content.to_ascii_lowercase();
    }
    if is_nfc_quick(content.chars()) == IsNormalized::Yes {
        return content.to_lowercase();
    }
    content.nfc().collect::<String>().to_lowercase()
}

/// `doc_key = id + ":" + md5_hex(normalize(content))` (SPEC §1).
pub fn doc_key(id: &str, content: &str) -> String {
    format!("{id}:{}", md5_hex(&normalize_for_key(content)))
}

impl Document {
    /// A document built in memory (tests, benchmarks, snapshots).
    pub fn new(id: impl Into<String>, content: impl Into<String>) -> Self {
        let id = id.into();
        let content = content.into();
        let key = doc_key(&id, &content);
        Document {
            source: Source {
                rel_path: format!("{id}.json"),
                line: None,
                format: Format::Json,
            },
            id,
            metadata: Metadata::default(),
            content,
            key,
            raw: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(content: &str) -> String {
        content.nfc().collect::<String>().to_lowercase()
    }

    /// Metadata held as text reads back as the object it was: keys in their order,
    /// nested values, numbers, text that needs escaping; and serializes as that object.
    #[test]
    fn metadata_held_as_text_is_the_object_it_was() {
        let obj = serde_json::json!({
            "zeta": 1, "alpha": [1.5, -2, 12345678901234567890u64, null],
            "nested": {"b": true, "a": "line\nbreak \"quoted\" \u{e9}"}, "": {}
        });
        let serde_json::Value::Object(map) = obj else {
            panic!("an object")
        };
        let m = Metadata::from_map(&map);
        assert_eq!(m.to_map(), map);
        let keys: Vec<String> = m.to_map().keys().cloned().collect();
        assert_eq!(keys, ["zeta", "alpha", "nested", ""]);
        assert_eq!(m.get("zeta"), Some(serde_json::Value::from(1)));
        assert_eq!(m.get("missing"), None);
        let text = serde_json::to_string(&m).expect("serializes");
        assert_eq!(text, serde_json::to_string(&map).expect("serializes"));
        let back: Metadata = serde_json::from_str(&text).expect("deserializes");
        assert_eq!(back, m);
        let empty = Metadata::from_map(&serde_json::Map::new());
        assert!(empty.is_empty() && empty.to_map().is_empty());
        assert_eq!(serde_json::to_string(&empty).expect("serializes"), "{}");
    }

    /// The ASCII and already-NFC shortcuts give the key the definition gives.
    #[test]
    fn keys_of_odd_text_are_those_of_the_definition() {
        for text in [
            "Plain ASCII Claim #12",
            "Cafe\u{301} (decomposed) and Caf\u{E9} (composed)",
            "\u{212A}elvin and \u{2126}hm: NFC changes them",
            "ODYSSEUS \u{39F}\u{394}\u{3A5}\u{3A3}\u{3A3}\u{395}\u{3A5}\u{3A3}",
            "Pri\u{200D}ya\u{A0}Raman",
        ] {
            assert_eq!(normalize_for_key(text), plain(text), "{text:?}");
        }
        assert_ne!(doc_key("a", "Cafe\u{301}"), doc_key("a", "Cafe"));
        assert_eq!(doc_key("a", "Cafe\u{301}"), doc_key("a", "CAF\u{C9}"));
    }

    proptest::proptest! {
        #[test]
        fn any_text_keys_as_defined(v in "(\\PC|\\s|[\u{300}-\u{36F}\u{212A}\u{2126}\u{3A3}])*") {
            proptest::prop_assert_eq!(normalize_for_key(&v), plain(&v));
        }
    }
}
