//! `clam extract`: the entity snapshot.

use super::*;

pub(super) fn extract(a: ExtractArgs) -> Result<u8> {
    let planning = PlanningArgs::default();
    let config = load_config(
        Some(&a.corpus.corpus),
        a.config.as_ref(),
        &planning,
        None,
        None,
    )?;
    let phase = clam::phase::phase("load");
    let corpus = load_corpus(&a.corpus, &config)?;
    drop(phase);
    if a.out.exists() && !a.force {
        bail!(
            "{}: already exists; pass --force to overwrite",
            a.out.display()
        );
    }
    if corpus.root.is_dir() && clam_is_inside(&a.out, &corpus.root) {
        bail!(
            "{}: the snapshot would be written into the corpus folder; clam never writes into its input",
            a.out.display()
        );
    }
    let phase = clam::phase::phase("extract");
    let (store, _, _) = extract_store(&corpus, &config, &a.extraction)?;
    drop(phase);
    let _phase = clam::phase::phase("write");
    let documents: Vec<SnapshotDoc> = store
        .docs
        .iter()
        .enumerate()
        .map(|(i, d)| SnapshotDoc {
            id: d.doc_id.clone(),
            key: Some(corpus.documents[i].key.clone()),
            unlocated: d.unlocated,
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
    let mut cfg = serde_json::to_value(&config)?;
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
    let snapshot = Snapshot {
        config: cfg,
        documents,
        forced: None,
    };
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
        store.unlocated_total(),
        a.out.display()
    );
    Ok(if corpus.diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    })
}

fn clam_is_inside(child: &Path, parent: &Path) -> bool {
    let parent = std::fs::canonicalize(parent).unwrap_or_else(|_| parent.to_path_buf());
    let child_dir = child
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::canonicalize(child_dir).is_ok_and(|c| c.starts_with(&parent))
}
