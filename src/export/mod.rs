//! Export (SPEC §5): the redacted corpus plus manifest.json, decisions.jsonl and
//! report.md, built in a temporary sibling folder, leak-checked, and renamed into
//! place only when complete.
//!
//! Nothing written contains an original value of a masked entity: entities are
//! referenced by export id (HMAC of the entity id under the project key) and type,
//! and every string passes through the replacer before it is written.

mod leak;
mod report;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::corpus::Format;
use crate::display::json_escape_unsafe;
use crate::extract::Extractor;
use crate::hashing::hmac_hex;
use crate::plan::ProvenanceText;
use crate::redact::Replacer;
use crate::workspace::Workspace;

/// One place where a masked value was still found.
#[derive(Debug, Clone, PartialEq)]
pub struct LeakHit {
    /// File relative to the export folder.
    pub file: String,
    /// 1-based line and column (code points); 0 for a file name.
    pub line: usize,
    pub column: usize,
    pub export_id: String,
    pub entity_type: String,
}

impl std::fmt::Display for LeakHit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            write!(
                f,
                "{} (file name): {} {}",
                self.file, self.entity_type, self.export_id
            )
        } else {
            write!(
                f,
                "{}:{}:{}: {} {}",
                self.file, self.line, self.column, self.entity_type, self.export_id
            )
        }
    }
}

/// Errors of the export.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error("{0}: the export folder exists and is not empty; choose a new folder or pass --force")]
    NotEmpty(PathBuf),
    #[error("{0}: the export folder is inside the corpus folder; clam never writes into its input")]
    InsideInput(PathBuf),
    #[error("{0}: the mapping file must be outside the export folder")]
    MappingInsideExport(PathBuf),
    #[error("{path}: {message}")]
    Io { path: PathBuf, message: String },
    #[error("leak check failed: {} occurrence(s) of masked values remain; nothing was exported", .0.len())]
    Leak(Vec<LeakHit>),
    #[error("{0} proposed mask(s) are unreviewed or stale; review them or drop --require-reviewed")]
    Unreviewed(usize),
}

fn io_err(path: &Path, e: impl std::fmt::Display) -> ExportError {
    ExportError::Io {
        path: path.to_path_buf(),
        message: e.to_string(),
    }
}

/// Options of an export.
#[derive(Debug, Clone, Default)]
pub struct ExportOptions {
    pub force: bool,
    pub with_mapping: Option<PathBuf>,
    pub require_reviewed: bool,
}

/// What an export wrote.
#[derive(Debug, Clone)]
pub struct ExportSummary {
    pub out: PathBuf,
    pub documents: usize,
    pub files_scanned: usize,
    pub masked: usize,
    pub skipped: usize,
    pub warnings: Vec<String>,
}

/// Export id of an entity: 16 hex of HMAC-SHA256(project key, entity id).
pub fn export_id(key: &[u8], entity_id: &str) -> String {
    hmac_hex(key, entity_id)[..16].to_string()
}

/// Every warning of an export (planner, session replay, second scan), with internal
/// entity ids (md5 of the value, which anyone can recompute from a guess) replaced by
/// export ids.
pub fn export_warnings(ws: &Workspace, scan_warnings: &[String], key: &[u8]) -> Vec<String> {
    static ENTITY_ID: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"\b[0-9a-f]{32}\b").expect("a valid pattern")
    });
    ws.plan
        .warnings
        .iter()
        .chain(ws.warnings.iter())
        .chain(scan_warnings.iter())
        .map(|w| {
            ENTITY_ID
                .replace_all(w, |c: &regex::Captures| export_id(key, &c[0]))
                .into_owned()
        })
        .collect()
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).map_err(|e| io_err(parent, e))?;
    }
    std::fs::write(path, bytes).map_err(|e| io_err(path, e))
}

fn is_inside(child: &Path, parent: &Path) -> bool {
    resolve_path(child).starts_with(resolve_path(parent))
}

/// `p` made absolute, `.` and `..` applied, and symlinks resolved for the part that
/// exists, so that paths that do not exist yet (a new export folder, a relative
/// `--with-mapping` inside it) compare correctly with existing ones.
fn resolve_path(p: &Path) -> PathBuf {
    let abs = if p.is_absolute() {
        p.to_path_buf()
    } else {
        std::env::current_dir()
            .map(|cwd| cwd.join(p))
            .unwrap_or_else(|_| p.to_path_buf())
    };
    let mut lexical = PathBuf::new();
    for c in abs.components() {
        match c {
            std::path::Component::CurDir => {}
            std::path::Component::ParentDir => {
                lexical.pop();
            }
            other => lexical.push(other.as_os_str()),
        }
    }
    let mut existing = lexical.clone();
    let mut rest = Vec::new();
    loop {
        if let Ok(mut resolved) = std::fs::canonicalize(&existing) {
            for name in rest.iter().rev() {
                resolved.push(name);
            }
            return resolved;
        }
        match (
            existing.file_name().map(|n| n.to_os_string()),
            existing.parent(),
        ) {
            (Some(name), Some(up)) => {
                rest.push(name);
                existing = up.to_path_buf();
            }
            _ => return lexical,
        }
    }
}

/// The ids documents are exported under (SPEC §5): a document whose id holds a masked
/// value is exported as `doc-<export id>` (16 hex of the HMAC of its id under the
/// project key, lengthened if two would meet), everywhere the export names it:
/// its file, its JSON, the manifest, the report, the audit log and the gold chains.
pub struct DocIds {
    /// Per corpus document.
    ids: Vec<String>,
    /// Original id → export id, for the renamed ones.
    renamed: HashMap<String, String>,
    /// Finds renamed ids in free text (warnings, reasons), longest first, and the
    /// export id of each of its patterns.
    finder: Option<aho_corasick::AhoCorasick>,
    replacements: Vec<String>,
}

impl DocIds {
    pub fn new(ws: &Workspace, replacer: &Replacer, key: &[u8]) -> DocIds {
        use rayon::prelude::*;
        let docs = &ws.corpus.documents;
        let hit: Vec<bool> = docs
            .par_iter()
            .map(|d| !replacer.find(&d.id).is_empty())
            .collect();
        let mut taken: std::collections::HashSet<String> = docs
            .iter()
            .zip(&hit)
            .filter(|(_, h)| !**h)
            .map(|(d, _)| d.id.clone())
            .collect();
        let mut ids = Vec::with_capacity(docs.len());
        let mut renamed = HashMap::new();
        for (d, h) in docs.iter().zip(&hit) {
            if !*h {
                ids.push(d.id.clone());
                continue;
            }
            let full = hmac_hex(key, &d.id);
            let mut len = 16;
            let mut id = format!("doc-{}", &full[..len]);
            while taken.contains(&id) && len < full.len() {
                len += 1;
                id = format!("doc-{}", &full[..len]);
            }
            taken.insert(id.clone());
            renamed.insert(d.id.clone(), id.clone());
            ids.push(id);
        }
        let (patterns, replacements): (Vec<&String>, Vec<String>) =
            renamed.iter().map(|(from, to)| (from, to.clone())).unzip();
        let finder = (!patterns.is_empty())
            .then(|| {
                aho_corasick::AhoCorasick::builder()
                    .match_kind(aho_corasick::MatchKind::LeftmostLongest)
                    .build(&patterns)
                    .ok()
            })
            .flatten();
        DocIds {
            ids,
            renamed,
            finder,
            replacements,
        }
    }

    /// The export id of corpus document `i` when it is not the document's own id.
    fn renamed_of(&self, i: usize, own: &str) -> Option<&str> {
        (self.ids[i] != own).then(|| self.ids[i].as_str())
    }

    /// The export id of corpus document `i`.
    pub fn of(&self, i: usize) -> &str {
        &self.ids[i]
    }

    /// The export id of the document with id `id`.
    pub fn id<'a>(&'a self, id: &'a str) -> &'a str {
        self.renamed.get(id).map_or(id, String::as_str)
    }

    /// `text` with every renamed document id in it replaced by its export id.
    pub fn rename_in(&self, text: &str) -> String {
        match &self.finder {
            None => text.to_string(),
            Some(f) => f.replace_all(text, &self.replacements),
        }
    }
}

/// The redacted file name of a document: its own, unless it holds a masked value;
/// then `doc-<export id>` with its extension: the document's export id when its id
/// was renamed too, else (its id held no masked value, or the file is a JSON Lines
/// file that holds many documents) one of the file's own.
fn redacted_rel_path(
    replacer: &Replacer,
    key: &[u8],
    rel: &str,
    renamed: Option<&str>,
    jsonl: bool,
) -> String {
    if replacer.find(rel).is_empty() {
        return rel.to_string();
    }
    let ext = Path::new(rel)
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    match renamed {
        Some(id) if !jsonl => format!("{id}{ext}"),
        _ => format!("doc-{}{ext}", &hmac_hex(key, rel)[..16]),
    }
}

/// Every string of `v` through `f`.
fn map_strings(v: &mut Value, f: &impl Fn(&str) -> String) {
    match v {
        Value::String(s) => *s = f(s),
        Value::Array(a) => a.iter_mut().for_each(|x| map_strings(x, f)),
        Value::Object(o) => o.iter_mut().for_each(|(_, x)| map_strings(x, f)),
        _ => {}
    }
}

/// Exports the workspace's plan to `out`.
pub fn export(
    ws: &Workspace,
    project_key: &[u8],
    out: &Path,
    opts: &ExportOptions,
    scanner: &(dyn Extractor + Sync),
) -> Result<ExportSummary, ExportError> {
    // SPEC §5: only proposed masks need review; residual risks are reported (and
    // marked accepted where the auditor did) but do not block.
    let masks = ws.unreviewed_masks();
    if opts.require_reviewed && masks > 0 {
        return Err(ExportError::Unreviewed(masks));
    }
    if ws.corpus.root.is_dir() && is_inside(out, &ws.corpus.root) {
        return Err(ExportError::InsideInput(out.to_path_buf()));
    }
    if out.exists() {
        let non_empty = std::fs::read_dir(out)
            .map_err(|e| io_err(out, e))?
            .next()
            .is_some();
        if non_empty && !opts.force {
            return Err(ExportError::NotEmpty(out.to_path_buf()));
        }
    }
    if let Some(m) = &opts.with_mapping
        && is_inside(m, out)
    {
        return Err(ExportError::MappingInsideExport(m.clone()));
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| io_err(&parent, e))?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "export".into());
    let tmp = tempfile::Builder::new()
        .prefix(&format!(".{name}.clam-tmp-"))
        .tempdir_in(&parent)
        .map_err(|e| io_err(&parent, e))?;
    let t = std::time::Instant::now();
    let replacer = ws.replacer(project_key);

    // Each document is redacted once; the files and the second scan share the text.
    let contents: Vec<String> = {
        use rayon::prelude::*;
        ws.corpus
            .documents
            .par_iter()
            .map(|d| replacer.replace(&d.content))
            .collect()
    };
    let doc_ids = DocIds::new(ws, &replacer, project_key);
    let documents = write_redacted(ws, &replacer, &doc_ids, &contents, project_key, tmp.path())?;
    crate::workspace::report_phase("export.redact", t);
    let t = std::time::Instant::now();
    let scan_warnings = second_scan(ws, &contents, scanner);
    drop(contents);
    crate::workspace::report_phase("export.second_scan", t);
    let t = std::time::Instant::now();
    write_manifest(
        ws,
        project_key,
        &scan_warnings,
        &replacer,
        &doc_ids,
        &tmp.path().join("manifest.json"),
    )?;
    let mut decisions = String::new();
    if let Some(s) = &ws.session {
        let log = s.audit_log().map_err(|e| io_err(s.path(), e))?;
        for entry in log {
            let mut v = serde_json::to_value(&entry).unwrap_or(Value::Null);
            // Entities are referenced by export id only.
            reference_entities_by_export_id(&mut v, project_key);
            map_strings(&mut v, &|s| doc_ids.rename_in(s));
            let mut redacted = replacer.replace_json(&v);
            // The log's own structured fields are not document text: a masked age
            // "32" must not turn the time 05:32:00 into 05:[AGE]:00.
            if let (Some(out), Some(orig)) = (redacted.as_object_mut(), v.as_object()) {
                for key in ["seq", "time", "config_hash"] {
                    if let Some(x) = orig.get(key) {
                        out.insert(key.to_string(), x.clone());
                    }
                }
                // A session of an earlier version holds unkeyed md5 hashes: keyed here.
                if let Some(Value::String(h)) = out.get_mut("config_hash") {
                    *h = crate::config::export_config_hash(h, project_key);
                }
            }
            decisions.push_str(&json_escape_unsafe(
                &serde_json::to_string(&redacted).unwrap_or_default(),
            ));
            decisions.push('\n');
        }
    }
    write_file(&tmp.path().join("decisions.jsonl"), decisions.as_bytes())?;
    let report =
        replacer.replace(&doc_ids.rename_in(&report::render(ws, project_key, &scan_warnings)));
    write_file(&tmp.path().join("report.md"), report.as_bytes())?;
    if !ws.state.gold.is_empty() {
        // The annotators' gold chains (thesis gold format), ids and notes redacted.
        use crate::session::gold;
        let pos = gold::positions(ws.corpus.documents.iter().map(|d| d.id.as_str()));
        let v = gold::to_json(&gold::chains(&ws.state, &pos), |s| {
            replacer.replace(&doc_ids.rename_in(s))
        });
        let text = json_escape_unsafe(&serde_json::to_string_pretty(&v).unwrap_or_default());
        write_file(
            &tmp.path().join("gold_chains.json"),
            (text + "\n").as_bytes(),
        )?;
    }
    drop(report);
    crate::workspace::report_phase("export.manifest_report", t);
    let t = std::time::Instant::now();

    let (hits, files_scanned) =
        leak::LeakCheck::new(replacer.entities(), project_key).scan_tree(tmp.path())?;
    crate::workspace::report_phase("export.leak_check", t);
    if !hits.is_empty() {
        return Err(ExportError::Leak(hits));
    }

    let tmp_path = tmp.keep();
    if out.exists() {
        let backup = parent.join(format!(".{name}.clam-old-{}", std::process::id()));
        std::fs::rename(out, &backup).map_err(|e| io_err(out, e))?;
        if let Err(e) = std::fs::rename(&tmp_path, out) {
            let _ = std::fs::rename(&backup, out);
            return Err(io_err(out, e));
        }
        let _ = std::fs::remove_dir_all(&backup);
    } else if let Err(e) = std::fs::rename(&tmp_path, out) {
        let _ = std::fs::remove_dir_all(&tmp_path);
        return Err(io_err(out, e));
    }
    if let Some(m) = &opts.with_mapping {
        write_mapping(ws, project_key, m)?;
    }
    Ok(ExportSummary {
        out: out.to_path_buf(),
        documents,
        files_scanned,
        masked: ws.plan.masked_count(),
        skipped: ws.corpus.diagnostics.len(),
        warnings: scan_warnings,
    })
}

fn reference_entities_by_export_id(v: &mut Value, key: &[u8]) {
    if let Value::Object(entry) = v
        && let Some(Value::Object(action)) = entry.get_mut("action")
    {
        for field in ["entity", "from", "into", "new_entity"] {
            if let Some(Value::String(id)) = action.get(field).cloned() {
                action.insert(field.to_string(), Value::String(export_id(key, &id)));
            }
        }
    }
}

fn write_redacted(
    ws: &Workspace,
    replacer: &Replacer,
    doc_ids: &DocIds,
    contents: &[String],
    key: &[u8],
    tmp: &Path,
) -> Result<usize, ExportError> {
    let base = tmp.join("redacted");
    std::fs::create_dir_all(&base).map_err(|e| io_err(&base, e))?;
    use rayon::prelude::*;
    let format = ws.corpus.format;
    // Each document's file (or JSONL line) is made on every core, then written in
    // corpus order.
    let made: Vec<(String, String)> = ws
        .corpus
        .documents
        .par_iter()
        .zip(contents)
        .enumerate()
        .map(|(i, (doc, content))| {
            let rel = redacted_rel_path(
                replacer,
                key,
                &doc.source.rel_path,
                doc_ids.renamed_of(i, &doc.id),
                format == Some(Format::Jsonl),
            );
            if format == Some(Format::Text) {
                return (rel, content.clone());
            }
            let mut obj = doc.raw.clone().unwrap_or_else(|| {
                let mut m = serde_json::Map::new();
                m.insert("id".into(), Value::String(doc.id.clone()));
                m.insert("metadata".into(), Value::Object(doc.metadata.clone()));
                m
            });
            // The content is already redacted and the id is the export id; every
            // other field (metadata keys, values of every type) is redacted here.
            // Placeholders keep the fields' places.
            obj.insert("content".into(), Value::String(String::new()));
            obj.insert("id".into(), Value::String(String::new()));
            let mut v = replacer.replace_document_json(&Value::Object(obj));
            if let Value::Object(o) = &mut v {
                o.insert("id".into(), Value::String(doc_ids.of(i).to_string()));
                o.insert("content".into(), Value::String(content.clone()));
            }
            let text = if format == Some(Format::Jsonl) {
                serde_json::to_string(&v).unwrap_or_default() + "\n"
            } else {
                serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
            };
            (rel, text)
        })
        .collect();
    let mut jsonl: BTreeMap<String, String> = BTreeMap::new();
    for (rel, text) in made {
        if format == Some(Format::Jsonl) {
            jsonl.entry(rel).or_default().push_str(&text);
        } else {
            write_file(&base.join(rel), text.as_bytes())?;
        }
    }
    for (rel, text) in jsonl {
        write_file(&base.join(rel), text.as_bytes())?;
    }
    Ok(ws.corpus.documents.len())
}

/// Runs the offline direct-identifier recognizers over the redacted text; what they
/// still find is listed (document, type, count — never the value) in the report.
fn second_scan(
    ws: &Workspace,
    contents: &[String],
    scanner: &(dyn Extractor + Sync),
) -> Vec<String> {
    use rayon::prelude::*;
    let schema = &ws.config.schema;
    ws.corpus
        .documents
        .par_iter()
        .zip(contents)
        .flat_map_iter(|(doc, content)| {
            // The recognizers read only the text; the rest is not copied.
            let redacted = crate::corpus::Document {
                id: doc.id.clone(),
                metadata: serde_json::Map::new(),
                content: content.clone(),
                key: doc.key.clone(),
                source: doc.source.clone(),
                raw: None,
            };
            let mut counts: BTreeMap<String, usize> = BTreeMap::new();
            for item in scanner.extract(&redacted).unwrap_or_default() {
                if schema.is_direct_identifier(&item.entity_type)
                    && !item.original.starts_with('[')
                {
                    *counts.entry(item.entity_type).or_default() += item.spans.len().max(1);
                }
            }
            counts.into_iter().map(move |(t, n)| {
                format!(
                    "{}: the offline recognizers still find {n} {t} mention(s) in the redacted text",
                    doc.id
                )
            })
        })
        .collect()
}

/// The manifest, serialized as it is generated: the head fields, then the entity,
/// document and chain rows in batches (built on every core, their strings passed
/// through the replacer together), so a corpus of 100,000 documents never holds the
/// whole manifest in memory.
struct Manifest<'a> {
    ws: &'a Workspace,
    key: &'a [u8],
    scan_warnings: &'a [String],
    replacer: &'a Replacer,
    doc_ids: &'a DocIds,
}

/// `n` rows made by `row`, serialized in batches.
struct Rows<'a, F: Fn(usize) -> Value + Sync> {
    n: usize,
    row: F,
    replacer: &'a Replacer,
}

/// Rows built and replaced at a time.
const ROW_BATCH: usize = 8192;

impl<F: Fn(usize) -> Value + Sync> serde::Serialize for Rows<'_, F> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use rayon::prelude::*;
        use serde::ser::SerializeSeq;
        let mut seq = s.serialize_seq(Some(self.n))?;
        let mut start = 0;
        while start < self.n {
            let end = (start + ROW_BATCH).min(self.n);
            let mut rows: Vec<Value> = (start..end).into_par_iter().map(&self.row).collect();
            rows.par_chunks_mut(ROW_BATCH / 8)
                .for_each(|chunk| self.replacer.replace_json_slice_in_place(chunk));
            for r in &rows {
                seq.serialize_element(r)?;
            }
            start = end;
        }
        seq.end()
    }
}

impl serde::Serialize for Manifest<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let ws = self.ws;
        let key = self.key;
        let m = &ws.model;
        let an = &ws.analysis;
        let plan = &ws.plan;
        let exported = self.doc_ids;
        let doc_id = |d: u32| exported.of(m.docs[d as usize].corpus_index).to_string();
        let doc_ids = |docs: &[u32]| -> Vec<String> { docs.iter().map(|&d| doc_id(d)).collect() };
        // The rows are built on every core: no reference to the workspace (its
        // session is not shared between threads) goes into them.
        let theta_doc = ws.config.theta_doc;
        let store = &ws.store;
        let review: Vec<crate::workspace::ReviewState> =
            (0..m.entities.len()).map(|i| ws.review_state(i)).collect();
        // One HMAC per entity, not one per row that names it.
        let ids: Vec<String> = {
            use rayon::prelude::*;
            m.entities
                .par_iter()
                .map(|e| export_id(key, &e.id))
                .collect()
        };
        let mut map = s.serialize_map(None)?;
        let head = |map: &mut S::SerializeMap, k: &str, mut v: Value| {
            self.replacer.replace_json_in_place(&mut v);
            map.serialize_entry(k, &v)
        };
        head(
            &mut map,
            "tool",
            json!({"name": "clam", "version": env!("CARGO_PKG_VERSION")}),
        )?;
        head(&mut map, "extractor", json!(ws.extractor))?;
        head(&mut map, "llm", json!(ws.llm))?;
        head(
            &mut map,
            "corpus",
            json!({
                "format": ws.corpus.format,
                "documents": ws.corpus.documents.len(),
                "skipped": ws.corpus.diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
                "unlocated": ws.store.unlocated_total(),
            }),
        )?;
        // Term lists as counts and file names only; the hash keyed (SPEC §5).
        head(&mut map, "config", ws.config.export_json())?;
        head(&mut map, "config_hash", json!(ws.config.hash(key)))?;
        head(
            &mut map,
            "summary",
            json!({
                "entities": m.entities.len(),
                "masked": plan.masked_count(),
                "edges_kept": an.edges.len(),
                "chains": an.chains.len(),
            }),
        )?;
        head(
            &mut map,
            "chain_cap",
            json!({
                "max_chains_per_component": an.chain_cap.limit,
                "hit": an.chain_cap.hit(),
                "capped_components": an.chain_cap.capped_components.iter().map(|&d| doc_id(d)).collect::<Vec<_>>(),
            }),
        )?;
        map.serialize_entry(
            "entities",
            &Rows {
                n: m.entities.len(),
                replacer: self.replacer,
                row: |i| {
                    let e = &m.entities[i];
                    let stage = match &plan.provenance[i] {
                        crate::plan::Provenance::Masked { stage, .. } => Some(stage.as_str()),
                        _ => None,
                    };
                    json!({
                        "export_id": ids[i],
                        "type": e.entity_type,
                        "decision": if plan.masked[i] { "mask" } else { "keep" },
                        "stage": stage,
                        "provenance": ProvenanceText {
                            provenance: &plan.provenance[i],
                            model: m,
                            analysis: an,
                            theta_doc,
                        }.to_string(),
                        "review_state": review[i],
                        "documents": doc_ids(&an.entity_docs[i]),
                        "mentions": e.mentions,
                        "uniqueness": an.uniqueness[i],
                        "global_contribution": an.global_contribution[i],
                    })
                },
            },
        )?;
        map.serialize_entry(
            "documents",
            &Rows {
                n: m.docs.len(),
                replacer: self.replacer,
                row: |d| {
                    let doc = &m.docs[d];
                    json!({
                        "id": exported.of(doc.corpus_index),
                        "risk_before": an.doc_risk_initial[d],
                        "risk_after": plan.doc_risk_final[d],
                        "residual": plan.doc_risk_final[d] > theta_doc,
                        "unlocated": store.docs.get(doc.corpus_index).map_or(0, |x| x.unlocated),
                    })
                },
            },
        )?;
        let mut residual_chain = vec![false; an.chains.len()];
        for &c in &plan.residual_chains {
            residual_chain[c as usize] = true;
        }
        map.serialize_entry(
            "chains",
            &Rows {
                n: an.chains.len(),
                replacer: self.replacer,
                row: |ci| {
                    let (c, r) = (&an.chains[ci], &plan.chains[ci]);
                    let mut via: Vec<String> = c
                        .hops
                        .iter()
                        .flat_map(|&h| an.edges[h as usize].via.iter().map(|(e, _)| *e))
                        .collect::<std::collections::BTreeSet<u32>>()
                        .into_iter()
                        .map(|e| ids[e as usize].clone())
                        .collect();
                    via.sort();
                    json!({
                        "documents": doc_ids(&c.docs),
                        "via": via,
                        "risk_initial": r.risk_initial,
                        "category_initial": r.category_initial,
                        "risk_pre": r.risk_pre,
                        "category_pre": r.category_pre,
                        "risk_final": r.risk_final,
                        "category_final": r.category_final,
                        "target": r.target,
                        "residual": residual_chain[ci],
                    })
                },
            },
        )?;
        let (accepted_docs, accepted_chains) = ws.accepted_residuals();
        let accepted_docs: Vec<&str> = accepted_docs.iter().map(|d| exported.id(d)).collect();
        let accepted_chains: Vec<Vec<&str>> = accepted_chains
            .iter()
            .map(|c| c.iter().map(|d| exported.id(d)).collect())
            .collect();
        head(
            &mut map,
            "residuals",
            json!({
                "documents": plan.residual_docs.iter().map(|&d| doc_id(d)).collect::<Vec<_>>(),
                "chains": plan.residual_chains.iter().map(|&c| doc_ids(&an.chains[c as usize].docs)).collect::<Vec<_>>(),
                // Residual risks the auditor accepted (a decision with a reason in
                // decisions.jsonl), in the same forms.
                "accepted_documents": accepted_docs,
                "accepted_chains": accepted_chains,
            }),
        )?;
        head(
            &mut map,
            "orphaned_decisions",
            json!(
                ws.orphaned_decisions()
                    .iter()
                    .map(|(id, decision)| json!({"id": export_id(key, id), "decision": decision}))
                    .collect::<Vec<_>>()
            ),
        )?;
        head(
            &mut map,
            "warnings",
            json!(
                export_warnings(ws, self.scan_warnings, key)
                    .iter()
                    .map(|w| exported.rename_in(w))
                    .collect::<Vec<_>>()
            ),
        )?;
        map.end()
    }
}

/// Pretty at the top (one field per line, one row per line inside the arrays), each
/// row on one line (`"key": value, ...`): readable, greppable with one line per
/// entity, document or chain, and half the size of fully indented JSON. Characters a
/// terminal would interpret (controls, bidi overrides) are escaped as `\uXXXX`.
struct RowFormatter {
    depth: usize,
    /// Whether the current container at each depth has had a value.
    has_value: Vec<bool>,
}

/// Containers nested deeper than this are written on one line.
const PRETTY_DEPTH: usize = 2;

impl RowFormatter {
    /// The current container has had a value.
    fn mark_value(&mut self) {
        if let Some(h) = self.has_value.last_mut() {
            *h = true;
        }
    }

    fn new() -> Self {
        RowFormatter {
            depth: 0,
            has_value: Vec::new(),
        }
    }

    fn newline<W: ?Sized + std::io::Write>(&self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b"\n")?;
        for _ in 0..self.depth {
            w.write_all(b"  ")?;
        }
        Ok(())
    }

    fn begin<W: ?Sized + std::io::Write>(&mut self, w: &mut W, open: &[u8]) -> std::io::Result<()> {
        self.depth += 1;
        self.has_value.push(false);
        w.write_all(open)
    }

    fn end<W: ?Sized + std::io::Write>(&mut self, w: &mut W, close: &[u8]) -> std::io::Result<()> {
        self.depth -= 1;
        let had = self.has_value.pop().unwrap_or(false);
        if had && self.depth < PRETTY_DEPTH {
            self.newline(w)?;
        }
        w.write_all(close)
    }

    fn item<W: ?Sized + std::io::Write>(&mut self, w: &mut W, first: bool) -> std::io::Result<()> {
        if !first {
            w.write_all(if self.depth <= PRETTY_DEPTH {
                b","
            } else {
                b", "
            })?;
        }
        if self.depth <= PRETTY_DEPTH {
            self.newline(w)?;
        }
        Ok(())
    }
}

impl serde_json::ser::Formatter for RowFormatter {
    fn begin_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.begin(w, b"[")
    }
    fn end_array<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.end(w, b"]")
    }
    fn begin_array_value<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn end_array_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.mark_value();
        Ok(())
    }
    fn begin_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.begin(w, b"{")
    }
    fn end_object<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        self.end(w, b"}")
    }
    fn begin_object_key<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> std::io::Result<()> {
        self.item(w, first)
    }
    fn begin_object_value<W: ?Sized + std::io::Write>(&mut self, w: &mut W) -> std::io::Result<()> {
        w.write_all(b": ")
    }
    fn end_object_value<W: ?Sized + std::io::Write>(&mut self, _w: &mut W) -> std::io::Result<()> {
        self.mark_value();
        Ok(())
    }
    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        if fragment.chars().any(crate::display::is_unsafe_char) {
            w.write_all(json_escape_unsafe(fragment).as_bytes())
        } else {
            w.write_all(fragment.as_bytes())
        }
    }
}

/// Writes `manifest.json` as it is generated.
fn write_manifest(
    ws: &Workspace,
    key: &[u8],
    scan_warnings: &[String],
    replacer: &Replacer,
    doc_ids: &DocIds,
    path: &Path,
) -> Result<(), ExportError> {
    use serde::Serialize;
    use std::io::Write;
    let file = std::fs::File::create(path).map_err(|e| io_err(path, e))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut ser = serde_json::Serializer::with_formatter(&mut w, RowFormatter::new());
    Manifest {
        ws,
        key,
        scan_warnings,
        replacer,
        doc_ids,
    }
    .serialize(&mut ser)
    .map_err(|e| io_err(path, e))?;
    w.write_all(b"\n").map_err(|e| io_err(path, e))?;
    w.flush().map_err(|e| io_err(path, e))
}

fn write_mapping(ws: &Workspace, key: &[u8], path: &Path) -> Result<(), ExportError> {
    let rows: Vec<Value> = ws
        .masked_entities()
        .iter()
        .map(|e| {
            json!({
                "export_id": export_id(key, &e.id),
                "type": e.entity_type,
                "normalized": e.normalized,
                "originals": e.originals,
            })
        })
        .collect();
    let text = serde_json::to_string_pretty(&json!({"masked": rows})).unwrap_or_default() + "\n";
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(|e| io_err(path, e))?;
    std::io::Write::write_all(&mut tmp, text.as_bytes()).map_err(|e| io_err(path, e))?;
    tmp.persist(path).map_err(|e| io_err(path, e.error))?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    }
    Ok(())
}
