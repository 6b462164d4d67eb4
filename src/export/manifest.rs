//! `manifest.json` (SPEC §5), streamed: head fields, then one line per entity,
//! document and chain, their strings passed through the replacer in batches.

use std::path::Path;

use serde_json::{Value, json};

use super::ExportSource;
use super::{DocIds, ExportError, export_id, export_warnings, io_err};
use crate::redact::Replacer;

/// The manifest, serialized as it is generated: the head fields, then the entity,
/// document and chain rows in batches (built on every core, their strings passed
/// through the replacer together), so a corpus of 100,000 documents never holds the
/// whole manifest in memory.
struct Manifest<'a> {
    ws: &'a dyn ExportSource,
    key: &'a [u8],
    scan_warnings: &'a [String],
    replacer: &'a Replacer,
    doc_ids: &'a DocIds,
    /// Where each table was written and how many rows it has.
    tables: Value,
}

/// `n` rows made by `row`: one table of the manifest, written as it is generated.
/// Its strings pass through the replacer (free text: provenance, override reasons).
struct Rows<'a, F: Fn(usize) -> Value + Sync> {
    n: usize,
    row: F,
    replacer: &'a Replacer,
}

/// Rows per gzip member (compressed on every core; a file of several members is one
/// gzip stream to `zcat`, Python's `gzip` and every other reader), and members made
/// at a time (so a table is never whole in memory).
const MEMBER_ROWS: usize = 1024;
const BATCH_MEMBERS: usize = 64;

/// Risks, uniqueness and contributions in the tables, to four decimals: the
/// manifest records decisions, and `clam analyze --json` and `clam plan` give the
/// exact figures; sixteen digits per figure would be half of every compressed table.
fn figure(x: f64) -> f64 {
    (x * 1e4).round() / 1e4
}

/// zlib-rs level 5: within 1 % of the size of gzip's default level 6 (at a million
/// documents the chains table was 136 MB against 138), a third less time; level 4
/// wrote tables 7–10 % larger, level 1 half again as large.
const GZIP_LEVEL: u32 = 5;

/// Writes `n` rows to `path` as gzip-compressed JSON Lines, one row per line: the
/// members (rows `range`, written by `rows` into the encoder) are made on every core,
/// a batch at a time, and written in order.
fn write_members(
    path: &Path,
    n: usize,
    rows: impl Fn(std::ops::Range<usize>, &mut dyn std::io::Write) -> std::io::Result<()> + Sync,
) -> Result<(), ExportError> {
    use rayon::prelude::*;
    use std::io::Write;
    let file = std::fs::File::create(path).map_err(|e| io_err(path, e))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let member = |range: std::ops::Range<usize>| -> std::io::Result<Vec<u8>> {
        // The rows are written to a buffer and compressed in one call: the encoder
        // runs deflate on every write, and a row is dozens of small writes.
        let mut text = Vec::with_capacity(range.len() * 256);
        rows(range, &mut text)?;
        let mut gz = flate2::write::GzEncoder::new(
            Vec::with_capacity(text.len() / 8),
            flate2::Compression::new(GZIP_LEVEL),
        );
        gz.write_all(&text)?;
        gz.finish()
    };
    if n == 0 {
        // An empty table is still a valid gzip file.
        w.write_all(&member(0..0).map_err(|e| io_err(path, e))?)
            .map_err(|e| io_err(path, e))?;
    }
    let mut start = 0;
    while start < n {
        let end = (start + MEMBER_ROWS * BATCH_MEMBERS).min(n);
        let members: Vec<Vec<u8>> = (start..end)
            .step_by(MEMBER_ROWS)
            .collect::<Vec<_>>()
            .into_par_iter()
            .map(|s| member(s..(s + MEMBER_ROWS).min(end)))
            .collect::<std::io::Result<_>>()
            .map_err(|e| io_err(path, e))?;
        for m in &members {
            w.write_all(m).map_err(|e| io_err(path, e))?;
        }
        start = end;
    }
    w.flush().map_err(|e| io_err(path, e))
}

/// One row as a line of the table.
fn write_row<T: serde::Serialize>(w: &mut dyn std::io::Write, row: &T) -> std::io::Result<()> {
    crate::display::write_json_line(&mut *w, row)?;
    w.write_all(b"\n")
}

impl<F: Fn(usize) -> Value + Sync> Rows<'_, F> {
    /// Writes the table to `path`, never holding more than a batch of rows in memory.
    fn write(&self, path: &Path) -> Result<(), ExportError> {
        write_members(path, self.n, |range, w| {
            let mut rows: Vec<Value> = range.map(&self.row).collect();
            self.replacer.replace_json_slice_in_place(&mut rows);
            rows.iter().try_for_each(|r| write_row(w, r))
        })
    }
}

/// Writes a table whose rows hold no free text — export ids, document export ids
/// (already renamed where they held a masked value: [`DocIds`]), figures and
/// categories — straight from typed rows, without the replacer (the leak check still
/// reads every byte of it).
fn write_plain_rows<T: serde::Serialize>(
    path: &Path,
    n: usize,
    row: impl Fn(usize) -> T + Sync,
) -> Result<(), ExportError> {
    write_members(path, n, |range, w| {
        range.into_iter().try_for_each(|i| write_row(w, &row(i)))
    })
}

/// A row of the documents table.
#[derive(serde::Serialize)]
struct DocumentRow<'a> {
    id: &'a str,
    risk_before: f64,
    risk_after: f64,
    residual: bool,
    unlocated: usize,
}

/// A row of the chains table: an array of [`CHAIN_COLUMNS`], not an object. A
/// million documents make ten million chains; their field names were 40 % of the
/// table's bytes, which the export compressed and the leak check read back as ten
/// strings a row.
#[derive(serde::Serialize)]
struct ChainRow<'a>(
    Vec<&'a str>,
    Vec<&'a str>,
    f64,
    crate::analysis::RiskCategory,
    f64,
    crate::analysis::RiskCategory,
    f64,
    crate::analysis::RiskCategory,
    Option<f64>,
    bool,
);

/// The columns of the chains table, in the order of each row's array (named in
/// manifest.json's `tables.chains.columns`).
pub(super) const CHAIN_COLUMNS: [&str; 10] = [
    "documents",
    "via",
    "risk_initial",
    "category_initial",
    "risk_pre",
    "category_pre",
    "risk_final",
    "category_final",
    "target",
    "residual",
];

impl serde::Serialize for Manifest<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let ws = self.ws;
        let key = self.key;
        let m = ws.model();
        let an = ws.analysis();
        let plan = ws.plan();
        let exported = self.doc_ids;
        let doc_id = |d: u32| exported.of(m.docs[d as usize].corpus_index).to_string();
        let doc_ids = |docs: &[u32]| -> Vec<String> { docs.iter().map(|&d| doc_id(d)).collect() };
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
        head(&mut map, "extractor", json!(ws.extractor()))?;
        head(&mut map, "llm", json!(ws.llm()))?;
        head(
            &mut map,
            "corpus",
            json!({
                "format": ws.corpus().format,
                "documents": ws.corpus().documents.len(),
                "skipped": ws.corpus().diagnostics.iter().map(crate::corpus::Diagnostic::to_json).collect::<Vec<_>>(),
                "not_read": ws.corpus().not_read.iter().map(crate::corpus::Diagnostic::to_json).collect::<Vec<_>>(),
                "unlocated": ws.store().unlocated_total(),
            }),
        )?;
        // Term lists as counts and file names only; the hash keyed (SPEC §5).
        head(&mut map, "config", ws.config().export_json())?;
        head(&mut map, "config_hash", json!(ws.config().hash(key)))?;
        head(
            &mut map,
            "summary",
            json!({
                "entities": m.entities.len(),
                "masked": plan.masked_count(),
                "released_by_pruning": plan.pruned.len(),
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
        head(&mut map, "tables", self.tables.clone())?;
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
                "chains": plan.residual_chains.iter().map(|&c| doc_ids(an.chains[c as usize].docs())).collect::<Vec<_>>(),
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

/// The manifest's tables: (name, file in the export folder).
pub(super) const TABLES: [(&str, &str); 3] = [
    ("entities", "tables/entities.jsonl.gz"),
    ("documents", "tables/documents.jsonl.gz"),
    ("chains", "tables/chains.jsonl.gz"),
];

/// Writes the entity, document and chain tables into `dir/tables/`; returns their
/// description for manifest.json.
fn write_tables(
    ws: &dyn ExportSource,
    key: &[u8],
    replacer: &Replacer,
    exported: &DocIds,
    dir: &Path,
) -> Result<Value, ExportError> {
    let m = ws.model();
    let an = ws.analysis();
    let plan = ws.plan();
    let doc_id = |d: u32| exported.of(m.docs[d as usize].corpus_index).to_string();
    let doc_ids = |docs: &[u32]| -> Vec<String> { docs.iter().map(|&d| doc_id(d)).collect() };
    // The rows are built on every core: no reference to the workspace (its
    // session is not shared between threads) goes into them.
    let theta_doc = ws.config().plan.theta_doc;
    let store = ws.store();
    let review: Vec<crate::session::ReviewState> =
        (0..m.entities.len()).map(|i| ws.review_state(i)).collect();
    let reasons = &ws.state().reasons;
    // One HMAC per entity, not one per row that names it.
    let ids: Vec<String> = {
        use rayon::prelude::*;
        m.entities
            .par_iter()
            .map(|e| export_id(key, &e.id))
            .collect()
    };
    let tables = dir.join("tables");
    std::fs::create_dir_all(&tables).map_err(|e| io_err(&tables, e))?;
    Rows {
        n: m.entities.len(),
        replacer,
        row: |i| {
            let e = &m.entities[i];
            let stage = match &plan.provenance[i] {
                crate::plan::Provenance::Masked { stage, .. } => Some(stage.as_str()),
                _ => None,
            };
            let mut row = json!({
                "export_id": ids[i],
                "type": e.entity_type,
                "decision": if plan.masked[i] { "mask" } else { "keep" },
                "stage": stage,
                "released_by_pruning": plan.is_released(i),
                "provenance": super::rows::provenance_text(m, an, plan, theta_doc, i),
                "kept_because": super::rows::kept_because(&plan.provenance[i]),
                "review_state": review[i],
                "documents": doc_ids(&an.entity_docs[i]),
                "mentions": e.mentions,
                "uniqueness": figure(an.uniqueness[i]),
                "global_contribution": figure(an.global_contribution[i]),
            });
            // An override's reason, only where there is one (it passes through
            // the replacer like every string of the manifest).
            if let (Some(reason), Some(o)) = (reasons.get(&e.id), row.as_object_mut()) {
                o.insert("override_reason".into(), json!(reason));
            }
            row
        },
    }
    .write(&dir.join(TABLES[0].1))?;
    write_plain_rows(&dir.join(TABLES[1].1), m.docs.len(), |d| {
        let doc = &m.docs[d];
        DocumentRow {
            id: exported.of(doc.corpus_index),
            risk_before: figure(an.doc_risk_initial[d]),
            risk_after: figure(plan.doc_risk_final[d]),
            residual: plan.doc_risk_final[d] > theta_doc,
            unlocated: store.docs.get(doc.corpus_index).map_or(0, |x| x.unlocated),
        }
    })?;
    let mut residual_chain = vec![false; an.chains.len()];
    for &c in &plan.residual_chains {
        residual_chain[c as usize] = true;
    }
    write_plain_rows(&dir.join(TABLES[2].1), an.chains.len(), |ci| {
        let (c, r) = (&an.chains[ci], &plan.chains[ci]);
        let mut via: Vec<u32> = c
            .hops()
            .iter()
            .flat_map(|&h| an.edges[h as usize].via.iter().map(|(e, _)| *e))
            .collect();
        via.sort_unstable();
        via.dedup();
        let mut via: Vec<&str> = via.iter().map(|&e| ids[e as usize].as_str()).collect();
        via.sort_unstable();
        ChainRow(
            c.docs()
                .iter()
                .map(|&d| exported.of(m.docs[d as usize].corpus_index))
                .collect(),
            via,
            figure(r.risk_initial),
            r.category_initial,
            figure(r.risk_pre),
            r.category_pre,
            figure(r.risk_final),
            r.category_final,
            r.target().map(figure),
            residual_chain[ci],
        )
    })?;
    let rows = [m.entities.len(), m.docs.len(), an.chains.len()];
    Ok(Value::Object(
        TABLES
            .iter()
            .zip(rows)
            .map(|((name, file), rows)| {
                let table = if *name == "chains" {
                    json!({
                        "file": file,
                        "rows": rows,
                        "format": "JSON Lines, gzip, one array per row",
                        "columns": CHAIN_COLUMNS,
                    })
                } else {
                    json!({"file": file, "rows": rows, "format": "JSON Lines, gzip, one object per row"})
                };
                (name.to_string(), table)
            })
            .collect(),
    ))
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
        crate::display::write_json_fragment(w, fragment)
    }
}

/// Writes `manifest.json` as it is generated.
pub(super) fn write_manifest(
    ws: &dyn ExportSource,
    key: &[u8],
    scan_warnings: &[String],
    replacer: &Replacer,
    doc_ids: &DocIds,
    dir: &Path,
) -> Result<(), ExportError> {
    use serde::Serialize;
    use std::io::Write;
    let tables = write_tables(ws, key, replacer, doc_ids, dir)?;
    let path = &dir.join("manifest.json");
    let file = std::fs::File::create(path).map_err(|e| io_err(path, e))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let mut ser = serde_json::Serializer::with_formatter(&mut w, RowFormatter::new());
    Manifest {
        ws,
        key,
        scan_warnings,
        replacer,
        doc_ids,
        tables,
    }
    .serialize(&mut ser)
    .map_err(|e| io_err(path, e))?;
    w.write_all(b"\n").map_err(|e| io_err(path, e))?;
    w.flush().map_err(|e| io_err(path, e))
}
