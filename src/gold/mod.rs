//! Gold files in the two formats of SPEC §10 (read and written here, below the
//! session, which stores gold chains, and the evaluation, which measures against them): the devset format (`clusters` with
//! persons and pairwise `gold_chains`, plus a `mentions.jsonl` of spans) and the
//! thesis format (`entities`, `links`, `redaction`, with persons in `files/`).

use std::collections::BTreeSet;
use std::fmt;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use crate::analysis::RiskCategory;

mod chains;
mod formats;
pub use chains::{ChainFile, chains_json, load_chains};
use formats::{chain_docs, devset, thesis, thesis_clusters};

/// Which gold format a file is in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GoldFormat {
    Devset,
    Thesis,
}

impl GoldFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            GoldFormat::Devset => "devset",
            GoldFormat::Thesis => "thesis",
        }
    }
}

/// An entity of a hidden person.
#[derive(Debug, Clone, PartialEq)]
pub struct GoldEntity {
    /// The canonical (devset) or listed (thesis) value.
    pub value: String,
    /// The entity type, mapped to the schema's name (thesis `PROCESS_ID` →
    /// `NON_PERSONAL_ID`).
    pub entity_type: String,
    /// Other surface forms (devset only).
    pub variants: Vec<String>,
}

impl GoldEntity {
    /// The value followed by its variants.
    pub fn forms(&self) -> impl Iterator<Item = &str> + Clone {
        std::iter::once(self.value.as_str()).chain(self.variants.iter().map(String::as_str))
    }
}

/// A gold question about a cluster (devset `clusters[].questions`, thesis
/// `metadata.questions`).
#[derive(Debug, Clone, PartialEq)]
pub struct GoldQuestion {
    pub question: String,
    /// The reference answer.
    pub answer: String,
    /// Ids of the documents the answer comes from.
    pub sources: Vec<String>,
    /// `specific` or `general` (as written, lowercased).
    pub kind: String,
}

/// A cluster: the documents about one hidden person.
#[derive(Debug, Clone, PartialEq)]
pub struct GoldCluster {
    pub id: String,
    pub docs: Vec<String>,
    pub persons: Vec<GoldEntity>,
    /// Devset `risk`, thesis `metadata.cluster_risk`; `None` when the gold has none.
    pub risk: Option<RiskCategory>,
    pub questions: Vec<GoldQuestion>,
}

/// One gold mention span (code points, end exclusive).
#[derive(Debug, Clone, PartialEq)]
pub struct GoldMention {
    pub doc: String,
    pub start: usize,
    pub end: usize,
    pub text: String,
    pub entity_type: String,
    pub person: bool,
    /// 1-based line in the mentions file.
    pub line: usize,
}

/// Everything a gold file (and its neighbours) says.
#[derive(Debug, Clone, PartialEq)]
pub struct Gold {
    pub format: GoldFormat,
    /// The gold.json read, or the set's folder when it has none.
    pub source: PathBuf,
    pub clusters: Vec<GoldCluster>,
    /// Gold chains as document-id lists; `None` when the gold has none (a thesis set
    /// without gold.json).
    pub chains: Option<Vec<Vec<String>>>,
    /// Thesis `entities`: per document, the values judged relevant.
    pub relevant: Option<Vec<(String, Vec<String>)>>,
    /// Thesis `redaction`: the values whose masking suffices.
    pub redaction: Option<Vec<String>>,
    pub mentions: Option<Vec<GoldMention>>,
    pub mentions_file: Option<PathBuf>,
    /// What the gold lacks, for the report.
    pub notes: Vec<String>,
}

/// A bad or unreadable gold file, naming the file (and line, and key).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct GoldError {
    pub file: PathBuf,
    pub line: Option<usize>,
    pub message: String,
}

impl fmt::Display for GoldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(l) => write!(f, "{}:{l}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

/// The schema's name of a gold type.
pub fn schema_type(t: &str) -> String {
    match t {
        "PROCESS_ID" => "NON_PERSONAL_ID".to_string(),
        _ => t.to_string(),
    }
}

fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// Typed access to JSON values with errors that name the file, line and key.
struct Reader<'a> {
    file: &'a Path,
    line: Option<usize>,
}

impl Reader<'_> {
    fn err(&self, key: &str, message: impl fmt::Display) -> GoldError {
        GoldError {
            file: self.file.to_path_buf(),
            line: self.line,
            message: if key.is_empty() {
                message.to_string()
            } else {
                format!("key `{key}`: {message}")
            },
        }
    }

    fn object<'v>(&self, v: &'v Value, key: &str) -> Result<&'v Map<String, Value>, GoldError> {
        v.as_object()
            .ok_or_else(|| self.err(key, format!("expected an object, found {}", kind(v))))
    }

    fn array<'v>(&self, v: &'v Value, key: &str) -> Result<&'v Vec<Value>, GoldError> {
        v.as_array()
            .ok_or_else(|| self.err(key, format!("expected a list, found {}", kind(v))))
    }

    fn string<'v>(&self, v: &'v Value, key: &str) -> Result<&'v str, GoldError> {
        v.as_str()
            .ok_or_else(|| self.err(key, format!("expected a string, found {}", kind(v))))
    }

    fn non_empty<'v>(&self, v: &'v Value, key: &str) -> Result<&'v str, GoldError> {
        let s = self.string(v, key)?;
        if s.trim().is_empty() {
            return Err(self.err(key, "is empty"));
        }
        Ok(s)
    }

    fn index(&self, v: &Value, key: &str) -> Result<usize, GoldError> {
        v.as_u64()
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| {
                self.err(
                    key,
                    format!("expected a non-negative integer, found {}", kind(v)),
                )
            })
    }

    fn field<'v>(
        &self,
        obj: &'v Map<String, Value>,
        parent: &str,
        name: &str,
    ) -> Result<&'v Value, GoldError> {
        obj.get(name)
            .ok_or_else(|| self.err(&join(parent, name), "missing"))
    }

    fn strings(&self, v: &Value, key: &str) -> Result<Vec<String>, GoldError> {
        self.array(v, key)?
            .iter()
            .enumerate()
            .map(|(i, x)| Ok(self.non_empty(x, &format!("{key}[{i}]"))?.to_string()))
            .collect()
    }
}

impl Reader<'_> {
    /// An optional `HIGH` / `MEDIUM` / `LOW` (any case).
    fn risk(&self, v: Option<&Value>, key: &str) -> Result<Option<RiskCategory>, GoldError> {
        let Some(v) = v else { return Ok(None) };
        match self.string(v, key)?.trim().to_ascii_uppercase().as_str() {
            "HIGH" => Ok(Some(RiskCategory::High)),
            "MEDIUM" => Ok(Some(RiskCategory::Medium)),
            "LOW" => Ok(Some(RiskCategory::Low)),
            other => Err(self.err(
                key,
                format!("expected HIGH, MEDIUM or LOW, found {other:?}"),
            )),
        }
    }

    /// An optional list of `{q, a, sources, type}`.
    fn questions(&self, v: Option<&Value>, key: &str) -> Result<Vec<GoldQuestion>, GoldError> {
        let Some(v) = v else { return Ok(Vec::new()) };
        let mut out = Vec::new();
        for (i, q) in self.array(v, key)?.iter().enumerate() {
            let k = format!("{key}[{i}]");
            let o = self.object(q, &k)?;
            out.push(GoldQuestion {
                question: match o.get("q") {
                    Some(q) => self.string(q, &join(&k, "q"))?.to_string(),
                    None => String::new(),
                },
                answer: self
                    .string(self.field(o, &k, "a")?, &join(&k, "a"))?
                    .to_string(),
                sources: self.strings(self.field(o, &k, "sources")?, &join(&k, "sources"))?,
                kind: self
                    .non_empty(self.field(o, &k, "type")?, &join(&k, "type"))?
                    .trim()
                    .to_lowercase(),
            });
        }
        Ok(out)
    }
}

fn join(parent: &str, name: &str) -> String {
    if parent.is_empty() {
        name.to_string()
    } else {
        format!("{parent}.{name}")
    }
}

fn read_json(file: &Path) -> Result<Value, GoldError> {
    let text = std::fs::read_to_string(file).map_err(|e| GoldError {
        file: file.to_path_buf(),
        line: None,
        message: format!("cannot read: {e}"),
    })?;
    serde_json::from_str(text.trim_start_matches('\u{feff}')).map_err(|e| GoldError {
        file: file.to_path_buf(),
        line: Some(e.line()),
        message: format!("not valid JSON: {e}"),
    })
}

/// Loads the gold at `path` (a gold.json, or a folder holding a gold.json and/or a
/// thesis `files/` folder) and the mentions: `mentions` if given, else a
/// `mentions.jsonl` beside a devset-format gold.json.
pub fn load(path: &Path, mentions: Option<&Path>) -> Result<Gold, GoldError> {
    let (file, folder) = if path.is_dir() {
        let f = path.join("gold.json");
        (f.is_file().then_some(f), path.to_path_buf())
    } else if path.is_file() {
        (
            Some(path.to_path_buf()),
            path.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf),
        )
    } else {
        return Err(GoldError {
            file: path.to_path_buf(),
            line: None,
            message: "no such file or folder".into(),
        });
    };
    let files_dir = folder.join("files");
    let mut gold = match &file {
        Some(f) => {
            let v = read_json(f)?;
            let r = Reader {
                file: f,
                line: None,
            };
            let obj = r.object(&v, "")?;
            if obj.contains_key("clusters") {
                devset(&r, obj)?
            } else if ["links", "entities", "redaction"]
                .iter()
                .any(|k| obj.contains_key(*k))
            {
                thesis(&r, obj)?
            } else {
                return Err(r.err(
                    "",
                    "neither `clusters` (devset format) nor `links`/`entities`/`redaction` (thesis format)",
                ));
            }
        }
        None if files_dir.is_dir() => Gold {
            format: GoldFormat::Thesis,
            source: folder.clone(),
            clusters: Vec::new(),
            chains: None,
            relevant: None,
            redaction: None,
            mentions: None,
            mentions_file: None,
            notes: vec![format!(
                "{} has no gold.json: persons only; chain, relevant-entity and redaction metrics are absent",
                folder.display()
            )],
        },
        None => {
            return Err(GoldError {
                file: path.to_path_buf(),
                line: None,
                message: "no gold.json and no files/ folder of clusters here".into(),
            });
        }
    };
    if gold.format == GoldFormat::Thesis && files_dir.is_dir() {
        gold.clusters = thesis_clusters(&files_dir)?;
    }
    if gold.format == GoldFormat::Thesis && gold.clusters.is_empty() {
        gold.notes
            .push("no files/ folder beside the gold: clusters and persons unknown".into());
    }
    let mentions_file = match mentions {
        Some(m) => Some(m.to_path_buf()),
        None if gold.format == GoldFormat::Devset => {
            Some(folder.join("mentions.jsonl")).filter(|m| m.is_file())
        }
        None => None,
    };
    if let Some(m) = &mentions_file {
        gold.mentions = Some(load_mentions(m)?);
    } else if gold.relevant.is_some() {
        gold.notes.push(
            "no mentions file: mention metrics are absent; the ceiling uses the gold `entities` (relevance 1.0, person types, others UNIQUE_FACT)".into(),
        );
    } else {
        gold.notes
            .push("no mentions file: mention metrics and the ceiling are absent".into());
    }
    gold.mentions_file = mentions_file;
    Ok(gold)
}

/// Reads a mentions.jsonl: `{doc, start, end, text, type, person}` per line.
pub fn load_mentions(file: &Path) -> Result<Vec<GoldMention>, GoldError> {
    let text = std::fs::read_to_string(file).map_err(|e| GoldError {
        file: file.to_path_buf(),
        line: None,
        message: format!("cannot read: {e}"),
    })?;
    let mut out = Vec::new();
    for (i, line) in text.trim_start_matches('\u{feff}').lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let r = Reader {
            file,
            line: Some(i + 1),
        };
        let v: Value =
            serde_json::from_str(line).map_err(|e| r.err("", format!("not valid JSON: {e}")))?;
        let o = r.object(&v, "")?;
        let start = r.index(r.field(o, "", "start")?, "start")?;
        let end = r.index(r.field(o, "", "end")?, "end")?;
        if end <= start {
            return Err(r.err("end", format!("{end} is not after start {start}")));
        }
        let person = match o.get("person") {
            None | Some(Value::Null) => false,
            Some(Value::Bool(b)) => *b,
            Some(other) => {
                return Err(r.err(
                    "person",
                    format!("expected a boolean, found {}", kind(other)),
                ));
            }
        };
        out.push(GoldMention {
            doc: r.non_empty(r.field(o, "", "doc")?, "doc")?.to_string(),
            start,
            end,
            text: match o.get("text") {
                Some(t) => r.string(t, "text")?.to_string(),
                None => String::new(),
            },
            entity_type: schema_type(r.non_empty(r.field(o, "", "type")?, "type")?),
            person,
            line: i + 1,
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests;
