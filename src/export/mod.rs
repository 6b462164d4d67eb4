//! Export (SPEC §5): the redacted corpus plus manifest.json, decisions.jsonl and
//! report.md, built in a temporary sibling folder, leak-checked, and renamed into
//! place only when complete.
//!
//! Nothing written contains an original value of a masked entity: entities are
//! referenced by export id (HMAC of the entity id under the project key) and type,
//! and every string passes through the replacer before it is written.

mod ids;
mod leak;
mod manifest;
mod publish;
mod report;
pub mod rows;
mod source;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::corpus::Format;
use crate::display::json_escape_unsafe;
use crate::extract::Extractor;
use crate::hashing::hmac_hex;
use crate::redact::{MaskedEntity, Replacer};
pub use ids::DocIds;
use ids::redacted_rel_path;
use manifest::write_manifest;
pub use source::ExportSource;

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
    #[error("{0}: the mapping file is inside the corpus folder; clam never writes into its input")]
    MappingInsideInput(PathBuf),
    #[error("{0}: the mapping file exists; choose a new path or pass --force")]
    MappingExists(PathBuf),
    #[error(
        "{0}: appeared (or filled up) while clam was exporting; nothing was replaced and the new export was removed; pass --force to replace it"
    )]
    Appeared(PathBuf),
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
    /// Documents and types in which the offline recognizers, run again over the
    /// redacted text, still find a direct identifier (one line each among `warnings`).
    pub still_found: usize,
}

impl ExportSummary {
    /// The leak check's outcome as the summary line says it: passed, and, when the
    /// offline recognizers still find direct identifiers in the redacted text (kept by
    /// a decision, or missed by the extraction and found now), that too — the check
    /// looks only for the values that were masked.
    pub fn leak_line(&self) -> String {
        let passed = format!("leak check passed ({} files)", self.files_scanned);
        if self.still_found == 0 {
            passed
        } else {
            format!(
                "{passed}, but the offline recognizers still find direct identifiers in the redacted text ({} finding(s), listed below and in report.md)",
                self.still_found
            )
        }
    }
}

/// Export id of an entity: 16 hex of HMAC-SHA256(project key, entity id).
pub fn export_id(key: &[u8], entity_id: &str) -> String {
    hmac_hex(key, entity_id)[..16].to_string()
}

/// Every warning of an export (planner, session replay, second scan), with internal
/// entity ids (md5 of the value, which anyone can recompute from a guess) replaced by
/// export ids.
pub fn export_warnings(ws: &dyn ExportSource, scan_warnings: &[String], key: &[u8]) -> Vec<String> {
    ws.plan()
        .warnings
        .iter()
        .chain(ws.warnings().iter())
        .chain(scan_warnings.iter())
        .map(|w| replace_entity_ids(w, key))
        .collect()
}

/// `text` with every word of exactly 32 lowercase hex digits (an entity id) replaced
/// by its export id.
fn replace_entity_ids(text: &str, key: &[u8]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word_start: Option<usize> = None;
    let flush = |out: &mut String, word: &str| {
        if word.len() == 32 && word.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f')) {
            out.push_str(&export_id(key, word));
        } else {
            out.push_str(word);
        }
    };
    for (i, c) in text.char_indices() {
        let in_word = c.is_alphanumeric() || c == '_';
        match (in_word, word_start) {
            (true, None) => word_start = Some(i),
            (false, Some(start)) => {
                flush(&mut out, &text[start..i]);
                word_start = None;
                out.push(c);
            }
            (false, None) => out.push(c),
            (true, Some(_)) => {}
        }
    }
    if let Some(start) = word_start {
        flush(&mut out, &text[start..]);
    }
    out
}

/// Creates the folder `path` goes into.
fn create_parent(path: &Path) -> Result<(), ExportError> {
    match path.parent() {
        Some(parent) => std::fs::create_dir_all(parent).map_err(|e| io_err(parent, e)),
        None => Ok(()),
    }
}

fn write_file(path: &Path, bytes: &[u8]) -> Result<(), ExportError> {
    create_parent(path)?;
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

/// Every string of `v` through `f`.
fn map_strings(v: &mut Value, f: &impl Fn(&str) -> String) {
    match v {
        Value::String(s) => *s = f(s),
        Value::Array(a) => a.iter_mut().for_each(|x| map_strings(x, f)),
        Value::Object(o) => o.iter_mut().for_each(|(_, x)| map_strings(x, f)),
        _ => {}
    }
}

/// The checks of an export's folder and mapping file that need no plan: not inside
/// the corpus `root`, not an existing non-empty folder (unless forced), the mapping
/// neither inside the export nor the corpus nor existing. `clam run` calls this before
/// it reads the corpus, so a refusal costs nothing; [`export`] calls it again.
pub fn check_targets(root: &Path, out: &Path, opts: &ExportOptions) -> Result<(), ExportError> {
    if root.is_dir() && is_inside(out, root) {
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
    if let Some(m) = &opts.with_mapping {
        if is_inside(m, out) {
            return Err(ExportError::MappingInsideExport(m.clone()));
        }
        if root.is_dir() && is_inside(m, root) {
            return Err(ExportError::MappingInsideInput(m.clone()));
        }
        if m.exists() && !opts.force {
            return Err(ExportError::MappingExists(m.clone()));
        }
    }
    Ok(())
}

/// Exports the workspace's plan to `out`.
pub fn export(
    ws: &dyn ExportSource,
    project_key: &[u8],
    out: &Path,
    opts: &ExportOptions,
    scanner: &(dyn Extractor + Sync),
) -> Result<ExportSummary, ExportError> {
    stage(ws, project_key, out, opts, scanner)?.finish()
}

/// An export written in its staging folder, the leak check and publication to come
/// ([`Staged::finish`]). They read only the files and the masked values, so a caller
/// done with its workspace lets it go in between (`clam run` at a million documents:
/// the leak check no longer runs on top of the corpus, the analysis and the plan).
pub struct Staged {
    tmp: publish::Staging,
    claim: publish::Claim,
    masked: Vec<MaskedEntity>,
    project_key: Vec<u8>,
    opts: ExportOptions,
    summary: ExportSummary,
}

impl Staged {
    /// The leak check over every file and file name of the staging folder; when it
    /// passes, the mapping (if asked for), then the folder renamed into place.
    pub fn finish(self) -> Result<ExportSummary, ExportError> {
        let phase = crate::phase::phase("export.leak_check");
        let needles = crate::phase::phase("export.leak_check.needles");
        let check = leak::LeakCheck::new(&self.masked, &self.project_key);
        drop(needles);
        let (hits, files_scanned) = check.scan_tree(self.tmp.path())?;
        drop(check);
        drop(phase);
        if !hits.is_empty() {
            return Err(ExportError::Leak(hits));
        }
        // The mapping first: a failure there leaves no export.
        if let Some(m) = &self.opts.with_mapping {
            write_mapping(&self.masked, &self.project_key, m, self.opts.force)?;
        }
        self.tmp.publish(&self.summary.out, self.claim)?;
        Ok(ExportSummary {
            files_scanned,
            ..self.summary
        })
    }
}

/// Writes the export of the workspace's plan into a staging folder beside `out`.
pub fn stage(
    ws: &dyn ExportSource,
    project_key: &[u8],
    out: &Path,
    opts: &ExportOptions,
    scanner: &(dyn Extractor + Sync),
) -> Result<Staged, ExportError> {
    // SPEC §5: only proposed masks need review; residual risks are reported (and
    // marked accepted where the auditor did) but do not block.
    let masks = ws.unreviewed_masks();
    if opts.require_reviewed && masks > 0 {
        return Err(ExportError::Unreviewed(masks));
    }
    check_targets(&ws.corpus().root, out, opts)?;
    // How the target may be claimed at the end is decided now (see publish.rs).
    let claim = if opts.force {
        publish::Claim::Force
    } else if out.exists() {
        publish::Claim::Empty
    } else {
        publish::Claim::Fresh
    };
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(|e| io_err(&parent, e))?;
    let name = out
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_else(|| "export".into());
    let leftovers = publish::sweep_leftovers(&parent);
    let tmp = publish::Staging::new(&parent, &name)?;
    let phase = crate::phase::phase("export.replacer");
    let replacer = ws.replacer(project_key);
    drop(phase);

    // Each document is redacted once; its file and the second scan share the text.
    let phase = crate::phase::phase("export.redact_and_scan");
    let doc_ids = DocIds::new(ws, &replacer, project_key);
    let (documents, scan_warnings) =
        write_redacted(ws, &replacer, &doc_ids, project_key, tmp.path(), scanner)?;
    drop(phase);
    let phase = crate::phase::phase("export.manifest_report");
    write_manifest(
        ws,
        project_key,
        &scan_warnings,
        &replacer,
        &doc_ids,
        tmp.path(),
    )?;
    let mut decisions = String::new();
    if let Some(s) = ws.session() {
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
    if !ws.state().gold.is_empty() {
        // The annotators' gold chains (thesis gold format), ids and notes redacted.
        use crate::session::gold;
        let pos = gold::positions(ws.corpus().documents.iter().map(|d| d.id.as_str()));
        let v = gold::to_json(&gold::chains(ws.state(), &pos), |s| {
            replacer.replace(&doc_ids.rename_in(s))
        });
        let text = json_escape_unsafe(&serde_json::to_string_pretty(&v).unwrap_or_default());
        write_file(
            &tmp.path().join("gold_chains.json"),
            (text + "\n").as_bytes(),
        )?;
    }
    drop(report);
    drop(phase);

    let mut warnings = leftovers;
    let still_found = scan_warnings.len();
    warnings.extend(scan_warnings);
    Ok(Staged {
        tmp,
        claim,
        masked: replacer.into_entities(),
        project_key: project_key.to_vec(),
        opts: opts.clone(),
        summary: ExportSummary {
            out: out.to_path_buf(),
            documents,
            files_scanned: 0,
            masked: ws.plan().masked_count(),
            skipped: ws.corpus().diagnostics.len(),
            warnings,
            still_found,
        },
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

/// Writes the redacted corpus and runs the second scan over it, a batch of
/// documents at a time (the redacted corpus is never whole in memory); returns the
/// number of documents and the second scan's warnings.
fn write_redacted(
    ws: &dyn ExportSource,
    replacer: &Replacer,
    doc_ids: &DocIds,
    key: &[u8],
    tmp: &Path,
    scanner: &(dyn Extractor + Sync),
) -> Result<(usize, Vec<String>), ExportError> {
    let base = tmp.join("redacted");
    std::fs::create_dir_all(&base).map_err(|e| io_err(&base, e))?;
    use rayon::prelude::*;
    use std::io::Write;
    // Each document's file (or JSONL line) is made on every core, a batch at a time,
    // then written in corpus order, in the format of the file it came from (a folder
    // may mix them). JSON Lines files are appended to as their lines come, so the
    // redacted corpus is never whole in memory.
    let docs = &ws.corpus().documents;
    let make = |i: usize, content: &String| {
        let doc = &docs[i];
        let format = doc.source.format;
        let rel = redacted_rel_path(
            replacer,
            key,
            &doc.source.rel_path,
            doc_ids.renamed_of(i, &doc.id),
            format == Format::Jsonl,
        );
        if format == Format::Text {
            return (rel, format, content.clone());
        }
        let mut obj = doc.raw.as_deref().cloned().unwrap_or_else(|| {
            // The plain object: id, content, metadata (the placeholders are
            // filled below).
            let mut m = serde_json::Map::new();
            m.insert("id".into(), Value::Null);
            m.insert("content".into(), Value::Null);
            m.insert("metadata".into(), Value::Object(serde_json::Map::new()));
            m
        });
        // The content is already redacted and the id is the export id; every
        // other field (metadata keys, values of every type) is redacted here.
        // Placeholders keep the fields' places.
        obj.insert("content".into(), Value::String(String::new()));
        obj.insert("id".into(), Value::String(String::new()));
        // The metadata lives in `doc.metadata`; `raw` keeps its place (an object) or
        // the null the input had.
        if let Some(m @ Value::Object(_)) = obj.get_mut("metadata") {
            *m = Value::Object(doc.metadata.to_map());
        }
        let mut v = replacer.replace_document_json(&Value::Object(obj));
        if let Value::Object(o) = &mut v {
            o.insert("id".into(), Value::String(doc_ids.of(i).to_string()));
            o.insert("content".into(), Value::String(content.clone()));
        }
        let text = if format == Format::Jsonl {
            serde_json::to_string(&v).unwrap_or_default() + "\n"
        } else {
            serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
        };
        (rel, format, text)
    };
    const BATCH: usize = 16_384;
    // The JSON Lines file being written, and the files already begun (a file whose
    // lines come again after another file's is appended to).
    let mut open: Option<(String, std::io::BufWriter<std::fs::File>)> = None;
    let mut begun: std::collections::HashSet<String> = std::collections::HashSet::new();
    let close = |open: &mut Option<(String, std::io::BufWriter<std::fs::File>)>| match open.take() {
        Some((rel, mut w)) => w.flush().map_err(|e| io_err(&base.join(rel), e)),
        None => Ok(()),
    };
    let mut warnings = Vec::new();
    for start in (0..docs.len()).step_by(BATCH) {
        let end = (start + BATCH).min(docs.len());
        let contents: Vec<String> = docs[start..end]
            .par_iter()
            .map(|d| replacer.replace(&d.content))
            .collect();
        let made: Vec<(String, Format, String)> = (start..end)
            .into_par_iter()
            .map(|i| make(i, &contents[i - start]))
            .collect();
        for (rel, format, text) in made {
            if format != Format::Jsonl {
                write_file(&base.join(rel), text.as_bytes())?;
                continue;
            }
            if open.as_ref().is_none_or(|(r, _)| *r != rel) {
                close(&mut open)?;
                let path = base.join(&rel);
                create_parent(&path)?;
                // A file begun before is appended to; a new one is created.
                let again = !begun.insert(rel.clone());
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .append(again)
                    .write(true)
                    .truncate(!again)
                    .open(&path)
                    .map_err(|e| io_err(&path, e))?;
                open = Some((rel, std::io::BufWriter::with_capacity(1 << 20, file)));
            }
            if let Some((rel, w)) = open.as_mut() {
                w.write_all(text.as_bytes())
                    .map_err(|e| io_err(&base.join(rel.as_str()), e))?;
            }
        }
        warnings.extend(second_scan(ws, start, &contents, scanner));
    }
    close(&mut open)?;
    Ok((ws.corpus().documents.len(), warnings))
}

/// Runs the offline direct-identifier recognizers over the redacted text `contents`
/// of the documents from `start`; what they still find is listed (document, type,
/// count — never the value) in the report.
fn second_scan(
    ws: &dyn ExportSource,
    start: usize,
    contents: &[String],
    scanner: &(dyn Extractor + Sync),
) -> Vec<String> {
    use rayon::prelude::*;
    let schema = &ws.config().schema;
    ws.corpus().documents[start..start + contents.len()]
        .par_iter()
        .zip(contents)
        .flat_map_iter(|(doc, content)| {
            // The recognizers read only the text; the rest is not copied.
            let redacted = crate::corpus::Document {
                id: doc.id.clone(),
                metadata: Default::default(),
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

/// Writes the mapping file: complete or not at all, and over an existing file only
/// with `force` (one that appeared meanwhile is an error).
fn write_mapping(
    masked: &[MaskedEntity],
    key: &[u8],
    path: &Path,
    force: bool,
) -> Result<(), ExportError> {
    let rows: Vec<Value> = masked
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
    if force {
        tmp.persist(path).map_err(|e| io_err(path, e.error))?;
    } else {
        tmp.persist_noclobber(path).map_err(|e| {
            if e.error.kind() == std::io::ErrorKind::AlreadyExists {
                ExportError::MappingExists(path.to_path_buf())
            } else {
                io_err(path, e.error)
            }
        })?;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_ids_in_warnings_become_export_ids() {
        let id = "0123456789abcdef0123456789abcdef";
        let w = format!("entity {id}: kept; x{id} and {id}0 stay");
        let out = replace_entity_ids(&w, b"k");
        assert_eq!(
            out,
            format!("entity {}: kept; x{id} and {id}0 stay", export_id(b"k", id))
        );
    }
}
