//! `[extract]`: the offline extractor's gazetteer extensions, allow and deny lists, as a layer and resolved.

use super::*;

/// The `[extract]` table of a layer: extensions of the offline extractor. Lists add up
/// across layers (a corpus's terms extend the user's).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtractLayer {
    /// Type → gazetteer files (one term per line, `#` starts a comment), relative to
    /// the configuration file. Read when the file is parsed; their terms join
    /// `gazetteer_terms`.
    pub gazetteer_files: Option<BTreeMap<String, Vec<PathBuf>>>,
    /// Type → extra gazetteer terms.
    pub gazetteer_terms: Option<BTreeMap<String, Vec<String>>>,
    /// Values that are never extracted, whatever recognizer finds them (the
    /// insurer's own name, a ward called "Hope").
    pub allow: Option<Vec<String>>,
    /// Type → values that are always extracted with that type and relevance 1.0
    /// wherever they occur as whole words.
    pub deny: Option<BTreeMap<String, Vec<String>>>,
    /// Whether an organisation's short form ("Calloway Genomics") meets the longer
    /// name it begins ("Calloway Genomics Institute") within the corpus (default on).
    pub short_forms: Option<bool>,
    /// Type → the gazetteer files read into `gazetteer_terms` (base name and term
    /// count), for the export's record of the configuration. Set when the files
    /// are read, never from a file.
    #[serde(skip)]
    pub loaded_files: BTreeMap<String, Vec<GazetteerFile>>,
}

/// A gazetteer file that was read: its base name (no folder) and how many terms it
/// held. The export records these instead of the terms (SPEC §5).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct GazetteerFile {
    pub file: String,
    pub terms: usize,
}

/// The resolved `[extract]` table.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ExtractConfig {
    pub gazetteer_terms: BTreeMap<String, Vec<String>>,
    pub allow: Vec<String>,
    pub deny: BTreeMap<String, Vec<String>>,
    /// Type → the gazetteer files whose terms are in `gazetteer_terms`. Not
    /// serialized (snapshots, config hash): the terms are.
    #[serde(skip)]
    pub gazetteer_files: BTreeMap<String, Vec<GazetteerFile>>,
    /// `[extract] short_forms`: unset means on. Serialized only when set, so the
    /// configurations written before it existed keep their hash.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub short_forms: Option<bool>,
}

impl ExtractConfig {
    /// Nothing configured: the extractor runs as shipped.
    pub fn is_empty(&self) -> bool {
        self.gazetteer_terms.is_empty() && self.allow.is_empty() && self.deny.is_empty()
    }

    /// The table as the export records it (SPEC §5: term lists appear only as counts
    /// and file names, never the terms, not even redacted): each list becomes
    /// `{"count": n}`, and the gazetteer files their base names with the number of
    /// terms each held.
    pub fn export_json(&self) -> serde_json::Value {
        use serde_json::json;
        let counts =
            |m: &BTreeMap<String, Vec<String>>| -> serde_json::Map<String, serde_json::Value> {
                m.iter()
                    .map(|(ty, list)| (ty.clone(), json!({"count": list.len()})))
                    .collect()
            };
        let mut out = json!({
            "gazetteer_terms": counts(&self.gazetteer_terms),
            "gazetteer_files": self.gazetteer_files,
            "allow": {"count": self.allow.len()},
            "deny": counts(&self.deny),
        });
        if let (Some(on), Some(o)) = (self.short_forms, out.as_object_mut()) {
            o.insert("short_forms".into(), json!(on));
        }
        out
    }

    /// Number of terms in each list: gazetteer terms, allow, deny.
    pub fn term_counts(&self) -> (usize, usize, usize) {
        let total = |m: &BTreeMap<String, Vec<String>>| m.values().map(Vec::len).sum::<usize>();
        (
            total(&self.gazetteer_terms),
            self.allow.len(),
            total(&self.deny),
        )
    }
}

pub(super) fn extend_unique(list: &mut Vec<String>, extra: &[String]) {
    for v in extra {
        let v = v.trim();
        if !v.is_empty() && !list.iter().any(|x| x == v) {
            list.push(v.to_string());
        }
    }
}
