//! Export (SPEC §5): the redacted corpus plus manifest.json, decisions.jsonl and
//! report.md, built in a temporary sibling folder, leak-checked, and renamed into
//! place only when complete.
//!
//! Nothing written contains an original value of a masked entity: entities are
//! referenced by export id (HMAC of the entity id under the project key) and type,
//! and every string passes through the replacer before it is written.

mod report;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::corpus::Format;
use crate::display::json_escape_unsafe;
use crate::extract::Extractor;
use crate::hashing::hmac_hex;
use crate::plan::ProvenanceText;
use crate::redact::{Hit, Replacer};
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

/// The redacted file name of a document: its own, unless it contains a masked value.
fn redacted_rel_path(replacer: &Replacer, key: &[u8], rel: &str, doc_id: &str) -> String {
    if replacer.find(rel).is_empty() {
        return rel.to_string();
    }
    let ext = Path::new(rel)
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    format!("doc-{}{ext}", &hmac_hex(key, doc_id)[..16])
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
    let documents = write_redacted(ws, &replacer, &contents, project_key, tmp.path())?;
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
        &tmp.path().join("manifest.json"),
    )?;
    let mut decisions = String::new();
    if let Some(s) = &ws.session {
        let log = s.audit_log().map_err(|e| io_err(s.path(), e))?;
        for entry in log {
            let mut v = serde_json::to_value(&entry).unwrap_or(Value::Null);
            // Entities are referenced by export id only.
            reference_entities_by_export_id(&mut v, project_key);
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
    let report = replacer.replace_lines(&report::render(ws, project_key, &scan_warnings));
    write_file(&tmp.path().join("report.md"), report.as_bytes())?;
    if !ws.state.gold.is_empty() {
        // The annotators' gold chains (thesis gold format), ids and notes redacted.
        use crate::session::gold;
        let pos = gold::positions(ws.corpus.documents.iter().map(|d| d.id.as_str()));
        let v = gold::to_json(&gold::chains(&ws.state, &pos), |s| replacer.replace(s));
        let text = json_escape_unsafe(&serde_json::to_string_pretty(&v).unwrap_or_default());
        write_file(
            &tmp.path().join("gold_chains.json"),
            (text + "\n").as_bytes(),
        )?;
    }
    drop(report);
    crate::workspace::report_phase("export.manifest_report", t);
    let t = std::time::Instant::now();

    let (hits, files_scanned) = leak_check(&replacer, project_key, tmp.path())?;
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
        .map(|(doc, content)| {
            let rel = redacted_rel_path(replacer, key, &doc.source.rel_path, &doc.id);
            if format == Some(Format::Text) {
                return (rel, content.clone());
            }
            let mut obj = doc.raw.clone().unwrap_or_else(|| {
                let mut m = serde_json::Map::new();
                m.insert("id".into(), Value::String(doc.id.clone()));
                m.insert("metadata".into(), Value::Object(doc.metadata.clone()));
                m
            });
            // The content is already redacted: only the other fields are searched
            // (an empty placeholder keeps the field's place).
            obj.insert("content".into(), Value::String(String::new()));
            let mut v = Value::Object(obj);
            replacer.replace_json_in_place(&mut v);
            if let Value::Object(o) = &mut v {
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
        let doc_ids = |docs: &[u32]| -> Vec<String> {
            docs.iter()
                .map(|&d| m.docs[d as usize].id.clone())
                .collect()
        };
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
                "capped_components": an.chain_cap.capped_components.iter().map(|&d| m.docs[d as usize].id.clone()).collect::<Vec<_>>(),
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
                        "id": doc.id,
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
        head(
            &mut map,
            "residuals",
            json!({
                "documents": plan.residual_docs.iter().map(|&d| m.docs[d as usize].id.clone()).collect::<Vec<_>>(),
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
            json!(export_warnings(ws, self.scan_warnings, key)),
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
    }
    .serialize(&mut ser)
    .map_err(|e| io_err(path, e))?;
    w.write_all(b"\n").map_err(|e| io_err(path, e))?;
    w.flush().map_err(|e| io_err(path, e))
}

/// The files clam writes itself beside `redacted/`. Their numbers are clam's own
/// figures (counts, risks, decision numbers, offsets), never document text: that
/// only reaches them as strings, through the replacer.
const OWN_FILES: [&str; 4] = [
    "manifest.json",
    "decisions.jsonl",
    "gold_chains.json",
    "report.md",
];

/// Code-point ranges of the bare numbers on a line of one of clam's own files: JSON
/// number tokens outside strings, or (`markdown`) runs of ASCII digits. A masked age
/// of 34 must not make the leak check refuse an export because it is decision 34 or
/// the 34th document; document text in these files is checked as before.
fn own_figures(line: &str, markdown: bool) -> Vec<(usize, usize)> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut in_string = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if !markdown && in_string {
            match c {
                '\\' => i += 1,
                '"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        if !markdown && c == '"' {
            // A string that is a whole RFC 3339 time is the audit log's own clock.
            let len = chars[i + 1..].iter().take_while(|&&c| c != '"').count();
            if is_rfc3339(&chars[i + 1..i + 1 + len]) {
                out.push((i + 1, i + 1 + len));
                i += len + 2;
                continue;
            }
            in_string = true;
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            let number = |c: char| {
                c.is_ascii_digit() || (!markdown && matches!(c, '.' | 'e' | 'E' | '+' | '-'))
            };
            while i < chars.len() && number(chars[i]) {
                i += 1;
            }
            let glued = |c: Option<&char>| c.is_some_and(|c| c.is_alphanumeric() || *c == '_');
            if !glued(start.checked_sub(1).and_then(|p| chars.get(p))) && !glued(chars.get(i)) {
                out.push((start, i));
            }
            continue;
        }
        i += 1;
    }
    out
}

/// `2026-11-24T05:32:00Z`, with optional fractional seconds and a `Z` or `±hh:mm` offset.
fn is_rfc3339(s: &[char]) -> bool {
    let digits = |r: std::ops::Range<usize>| {
        r.clone()
            .all(|i| s.get(i).is_some_and(char::is_ascii_digit))
    };
    let at = |i: usize, c: char| s.get(i) == Some(&c);
    if s.len() < 20
        || !(digits(0..4) && at(4, '-') && digits(5..7) && at(7, '-') && digits(8..10))
        || !(at(10, 'T') && digits(11..13) && at(13, ':') && digits(14..16) && at(16, ':'))
        || !digits(17..19)
    {
        return false;
    }
    let mut i = 19;
    if at(i, '.') {
        i += 1;
        let start = i;
        while s.get(i).is_some_and(char::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match s.get(i) {
        Some('Z') => i + 1 == s.len(),
        Some('+' | '-') => {
            i + 6 == s.len() && digits(i + 1..i + 3) && at(i + 3, ':') && digits(i + 4..i + 6)
        }
        _ => false,
    }
}

/// Scans every file and file name under `root` for masked values; returns the hits and
/// the number of files scanned.
pub fn leak_check(
    replacer: &Replacer,
    key: &[u8],
    root: &Path,
) -> Result<(Vec<LeakHit>, usize), ExportError> {
    let mut hits = Vec::new();
    let mut files = 0;
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let entries = std::fs::read_dir(&dir).map_err(|e| io_err(&dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| io_err(&dir, e))?;
            let path = entry.path();
            let rel = path
                .strip_prefix(root)
                .map(|p| p.to_string_lossy().replace('\\', "/"))
                .unwrap_or_default();
            let name = entry.file_name().to_string_lossy().to_string();
            for h in replacer.find(&name) {
                let e = &replacer.entities()[h.entity];
                hits.push(LeakHit {
                    file: rel.clone(),
                    line: 0,
                    column: 0,
                    export_id: export_id(key, &e.id),
                    entity_type: e.entity_type.clone(),
                });
            }
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            files += 1;
            scan_file(replacer, key, &path, &rel, &mut hits)?;
        }
    }
    hits.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
    Ok((hits, files))
}

/// Bytes of lines read and scanned at a time by [`scan_file`], split among the cores.
const SCAN_BLOCK: usize = 8 << 20;

/// Scans one file line by line (streamed: a large manifest is never read whole),
/// blocks of lines on every core, each block's lines searched together
/// ([`Replacer::find_each`]).
fn scan_file(
    replacer: &Replacer,
    key: &[u8],
    path: &Path,
    rel: &str,
    hits: &mut Vec<LeakHit>,
) -> Result<(), ExportError> {
    use rayon::prelude::*;
    use std::io::BufRead;
    let (own, markdown) = (OWN_FILES.contains(&rel), rel.ends_with(".md"));
    let file = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let mut first_line = 1usize;
    loop {
        let mut lines: Vec<String> = Vec::new();
        let mut size = 0usize;
        let mut buf = Vec::new();
        while size < SCAN_BLOCK {
            buf.clear();
            let n = reader
                .read_until(b'\n', &mut buf)
                .map_err(|e| io_err(path, e))?;
            if n == 0 {
                break;
            }
            if buf.last() == Some(&b'\n') {
                buf.pop();
                if buf.last() == Some(&b'\r') {
                    buf.pop();
                }
            }
            size += n;
            lines.push(String::from_utf8_lossy(&buf).into_owned());
        }
        if lines.is_empty() {
            return Ok(());
        }
        let per_task = lines
            .len()
            .div_ceil(rayon::current_num_threads() * 4)
            .max(1);
        let found: Vec<(usize, Hit)> = lines
            .par_chunks(per_task)
            .enumerate()
            .flat_map_iter(|(k, chunk)| {
                let pieces: Vec<&str> = chunk.iter().map(String::as_str).collect();
                replacer
                    .find_each(&pieces)
                    .into_iter()
                    .enumerate()
                    .flat_map(move |(j, hs)| hs.into_iter().map(move |h| (k * per_task + j, h)))
                    .collect::<Vec<_>>()
            })
            .collect();
        for (ln, h) in found {
            if own
                && own_figures(&lines[ln], markdown)
                    .iter()
                    .any(|&(a, b)| a <= h.span.start && h.span.end <= b)
            {
                continue;
            }
            let e = &replacer.entities()[h.entity];
            hits.push(LeakHit {
                file: rel.to_string(),
                line: first_line + ln,
                column: h.span.start + 1,
                export_id: export_id(key, &e.id),
                entity_type: e.entity_type.clone(),
            });
        }
        first_line += lines.len();
    }
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

#[cfg(test)]
mod tests {
    use super::own_figures;

    fn figures(line: &str, markdown: bool) -> Vec<String> {
        let chars: Vec<char> = line.chars().collect();
        own_figures(line, markdown)
            .into_iter()
            .map(|(a, b)| chars[a..b].iter().collect())
            .collect()
    }

    #[test]
    fn json_numbers_outside_strings_are_figures_and_text_is_not() {
        assert_eq!(
            figures(
                r#"{"seq": 34, "reason": "aged 34", "risk": 0.34, "n": -2e5}"#,
                false
            ),
            vec!["34", "0.34", "2e5"]
        );
        // An escaped quote does not end the string.
        assert_eq!(
            figures(r#"{"note": "say \"34\" twice", "k": 7}"#, false),
            vec!["7"]
        );
        assert!(figures(r#"{"id": "member 34"}"#, false).is_empty());
    }

    #[test]
    fn the_audit_log_clock_is_a_figure_and_other_strings_are_text() {
        let line = r#"{"seq": 3, "time": "2026-11-24T05:32:00.123Z", "reason": "at 05:32:00"}"#;
        assert_eq!(figures(line, false), vec!["3", "2026-11-24T05:32:00.123Z"]);
        assert_eq!(
            figures(r#"{"time": "2026-11-24T05:32:00+01:00"}"#, false),
            vec!["2026-11-24T05:32:00+01:00"]
        );
        for not_a_time in [
            "2026-11-24",
            "2026-11-24T05:32Z",
            "2026-11-24T05:32:00Zx",
            "x2026-11-24T05:32:00Z",
        ] {
            assert!(
                figures(&format!(r#"{{"t": "{not_a_time}"}}"#), false).is_empty(),
                "{not_a_time}"
            );
        }
    }

    #[test]
    fn report_digit_runs_are_figures_unless_glued_to_a_word() {
        assert_eq!(
            figures("| claim_34 | 34 | x34 | 2024-03-14 |", true),
            vec!["34", "2024", "03", "14"]
        );
    }
}
