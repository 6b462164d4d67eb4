//! `clam extract`: the entity snapshot, or with `--shard i/n` one shard file.

use super::*;

use clam::corpus::Shard;
use clam::entity::EntityStore;
use clam::shards::{FORMAT_VERSION, ShardHeader, extraction_settings, write_shard};

pub(super) fn extract(a: ExtractArgs, bars: &Bars) -> Result<u8> {
    if a.shard.is_some() && a.extraction.extractor != ExtractorKind::Offline {
        return Err(UsageError(
            "--shard: only the offline extractor is sharded (the LLM's context pass reads the entities of every document)".into(),
        )
        .into());
    }
    // The output is checked before anything is loaded.
    if a.out.exists() && !a.force {
        bail!(
            "{}: already exists; pass --force to overwrite",
            a.out.display()
        );
    }
    if a.corpus.corpus.is_dir() && clam_is_inside(&a.out, &a.corpus.corpus) {
        bail!(
            "{}: the snapshot would be written into the corpus folder; clam never writes into its input",
            a.out.display()
        );
    }
    let planning = PlanningArgs {
        config: a.config.clone(),
        ..PlanningArgs::default()
    };
    let config = load_config(Some(&a.corpus.corpus), &planning, None, None)?;
    if let Some(shard) = a.shard {
        return extract_shard(&a, &config, shard, bars);
    }
    let x = load_and_extract(&a.corpus, &config, &a.extraction, None, bars)?;
    let _phase = clam::phase::phase("write");
    let mut snapshot = snapshot_of(&x.corpus, &x.store, snapshot_config(&config)?);
    if let Some(r) = &x.llm {
        mark_fallbacks(&mut snapshot, r);
    }
    write_atomic(
        &a.out,
        &(clam::display::to_json_pretty(&snapshot)? + "\n"),
        a.force,
    )?;
    let entities: usize = snapshot.documents.iter().map(|d| d.entities.len()).sum();
    eprintln!(
        "wrote {} documents with {} entity occurrences ({} unlocated items dropped) to {}",
        snapshot.documents.len(),
        entities,
        x.store.unlocated_total(),
        a.out.display()
    );
    Ok(exit_code(&x.corpus))
}

/// `clam extract --shard i/n`: the recognizers' items of the shard's documents.
fn extract_shard(a: &ExtractArgs, config: &Config, shard: Shard, bars: &Bars) -> Result<u8> {
    let phase = clam::phase::phase("load");
    let (corpus, ex) = rayon::join(
        || load_shard(&a.corpus, config, Some(shard), bars),
        || extractor(config),
    );
    let (corpus, ex) = (corpus?, ex?);
    drop(phase);
    let phase = clam::phase::phase("extract");
    let items = clam::workspace::extract_documents(&corpus, &ex, bars);
    bars.clear();
    drop(phase);
    let _phase = clam::phase::phase("write");
    let header = ShardHeader {
        clam_shard: FORMAT_VERSION,
        shard,
        extractor: "offline".into(),
        config: snapshot_config(config)?,
        extraction: extraction_settings(config),
        documents: corpus.documents.len(),
    };
    let dir = a
        .out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let cannot = |e: std::io::Error| anyhow::anyhow!("{}: cannot write: {e}", a.out.display());
    let tmp = tempfile::NamedTempFile::new_in(dir).map_err(cannot)?;
    let mut w = std::io::BufWriter::with_capacity(1 << 16, tmp.as_file());
    write_shard(&mut w, &header, &corpus, &items).map_err(cannot)?;
    drop(w);
    if a.force {
        tmp.persist(&a.out).map_err(|e| cannot(e.error))?;
    } else {
        tmp.persist_noclobber(&a.out).map_err(|e| cannot(e.error))?;
    }
    let found: usize = items.iter().map(Vec::len).sum();
    eprintln!(
        "wrote shard {shard}: {} document(s) with {found} recognizer item(s) to {}; merge every shard with `clam plan --corpus CORPUS SHARD…` or `clam run CORPUS --snapshot SHARD…`",
        corpus.documents.len(),
        a.out.display()
    );
    Ok(exit_code(&corpus))
}

fn exit_code(corpus: &Corpus) -> u8 {
    if corpus.diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    }
}

/// The configuration as a snapshot records it: the flat keys, the schema as the layer
/// format.
pub(super) fn snapshot_config(config: &Config) -> Result<Value> {
    let mut cfg = serde_json::to_value(config)?;
    if let Value::Object(o) = &mut cfg {
        // The schema is part of the configuration; keep it, but as the layer format.
        let schema: BTreeMap<String, Value> = config
            .schema
            .types
            .iter()
            .map(|t| {
                (
                    t.name.clone(),
                    json!({"weight": t.weight, "category": t.category, "phrase": t.phrase}),
                )
            })
            .collect();
        o.insert("schema".into(), json!(schema));
    }
    Ok(cfg)
}

/// The snapshot of an extracted corpus.
pub(super) fn snapshot_of(corpus: &Corpus, store: &EntityStore, config: Value) -> Snapshot {
    let documents: Vec<SnapshotDoc> = store
        .docs
        .iter()
        .enumerate()
        .map(|(i, d)| SnapshotDoc {
            id: d.doc_id.clone(),
            key: corpus.documents.get(i).map(|doc| doc.key.clone()),
            unlocated: d.unlocated,
            fallback: None,
            entities: d
                .entities
                .iter()
                .filter_map(|e| {
                    let k = store.keys.get(&e.entity_id)?;
                    Some(SnapshotEntity {
                        value: k.normalized.clone(),
                        entity_type: k.entity_type.clone(),
                        relevance: e.relevance,
                        mentions: e.mentions,
                        id: None,
                        originals: e.originals.to_vec(),
                        spans: e.spans.iter().map(|s| [s.start, s.end]).collect(),
                    })
                })
                .collect(),
        })
        .collect();
    Snapshot {
        config,
        documents,
        forced: None,
        fallbacks: None,
    }
}

/// Marks the documents whose entities come from the offline fallback of the LLM
/// extractor, and counts them in the header.
fn mark_fallbacks(snapshot: &mut Snapshot, report: &clam::extract::llm::LlmReport) {
    for (d, r) in snapshot.documents.iter_mut().zip(&report.documents) {
        if r.source == LlmSource::Fallback {
            d.fallback = Some(r.reason.clone().unwrap_or_default());
        }
    }
    snapshot.fallbacks = Some(report.fallbacks);
}

fn clam_is_inside(child: &Path, parent: &Path) -> bool {
    let parent = std::fs::canonicalize(parent).unwrap_or_else(|_| parent.to_path_buf());
    let child_dir = child
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::canonicalize(child_dir).is_ok_and(|c| c.starts_with(&parent))
}
