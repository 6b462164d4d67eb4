//! `clam run`: extract, plan and export in one go.

use super::*;

pub(super) fn run(a: RunArgs, bars: &Bars) -> Result<u8> {
    let opts = ExportOptions {
        force: a.force,
        with_mapping: a.with_mapping.clone(),
        require_reviewed: a.require_reviewed,
    };
    // The export folder and the mapping are checked before the corpus is read.
    clam::export::check_targets(&a.corpus.corpus, &a.out, &opts)?;
    let ws = if a.snapshots.is_empty() {
        build_export_workspace(&a.corpus, &a.planning, a.mode, &a.extraction, bars)?
    } else {
        workspace_of_shards(&a, bars)?
    };
    let key = match ws.session() {
        Some(s) => s.project_key()?,
        None => bail!(
            "this platform has no user data directory for the project key; pass --session FILE"
        ),
    };
    let ex = extractor(ws.config())?;
    let phase = clam::phase::phase("export");
    bars.spinner("exporting: redacting");
    let scanner = progress::CountedScan::new(&ex, bars, ws.corpus().documents.len());
    let staged = clam::export::stage(&*ws, &key, &a.out, &opts, &scanner);
    // What the summary line says, read now: the workspace is let go before the leak
    // check, which reads only the files and the masked values.
    use clam::analysis::RiskCategory::{High, Medium};
    // (HIGH, MEDIUM) chains unmasked and masked.
    let (mut before, mut after) = ((0, 0), (0, 0));
    for c in &ws.plan().chains {
        for (cat, n) in [
            (c.category_initial, &mut before),
            (c.category_final, &mut after),
        ] {
            match cat {
                High => n.0 += 1,
                Medium => n.1 += 1,
                _ => {}
            }
        }
    }
    let entities = ws.model().entities.len();
    let residuals = (
        ws.plan().residual_docs.len(),
        ws.plan().residual_chains.len(),
    );
    let cap = &ws.analysis().chain_cap;
    let cap_hit = cap
        .hit()
        .then_some((cap.capped_components.len(), cap.limit));
    let mode = ws.config().redact.mode.as_str();
    drop(ws);
    let exported = staged.and_then(clam::export::Staged::finish);
    bars.clear();
    drop(phase);
    if let Some((components, limit)) = cap_hit {
        eprintln!(
            "warning: chain cap hit: {components} component(s) of the document graph have more chains than max_chains_per_component = {limit}; longer chains beyond it were not analysed (see report.md)"
        );
    }
    match exported {
        Ok(summary) => {
            eprintln!(
                "exported {} documents to {} ({mode} mode): {} of {entities} entities masked; chains HIGH/MEDIUM unmasked {}/{} → masked {}/{}; {} residual document(s), {} residual chain(s); {}",
                summary.documents,
                summary.out.display(),
                summary.masked,
                before.0,
                before.1,
                after.0,
                after.1,
                residuals.0,
                residuals.1,
                summary.leak_line()
            );
            for w in &summary.warnings {
                eprintln!("warning: {}", escape_line(w));
            }
            if summary.skipped > 0 {
                eprintln!(
                    "{} input document(s) skipped (listed in report.md)",
                    summary.skipped
                );
                Ok(EXIT_SKIPPED)
            } else {
                Ok(EXIT_OK)
            }
        }
        Err(ExportError::Leak(hits)) => {
            eprintln!("error: leak check failed; nothing was exported. Masked values remain at:");
            for h in &hits {
                eprintln!("  {}", escape_line(&h.to_string()));
            }
            Ok(EXIT_LEAK)
        }
        Err(e) => Err(e.into()),
    }
}

/// The workspace of `clam run CORPUS --snapshot SHARD…`: the corpus loaded, its shard
/// files merged into it, the corpus-level passes run here with this run's configuration
/// (the shards must have been extracted with the same extraction settings).
fn workspace_of_shards(a: &RunArgs, bars: &Bars) -> Result<ExportOnly> {
    use clam::shards::{extraction_settings, merge, read_shard};
    if a.extraction.extractor != ExtractorKind::Offline {
        return Err(UsageError(
            "--snapshot: shard files hold the offline extractor's items; --extractor llm extracts anew".into(),
        )
        .into());
    }
    let config = load_config(Some(&a.corpus.corpus), &a.planning, a.mode, None)?;
    let files = a
        .snapshots
        .iter()
        .map(|p| {
            if !clam::shards::is_shard_file(p)? {
                return Err(UsageError(format!(
                    "--snapshot {}: not a shard file of `clam extract --shard i/n` (a whole-corpus snapshot is for clam plan)",
                    p.display()
                ))
                .into());
            }
            Ok(read_shard(p, bars)?)
        })
        .collect::<Result<Vec<_>>>()?;
    // Checked before the corpus is read (the merge checks the shards against each other).
    if let Some(f) = files.first()
        && f.header.extraction != extraction_settings(&config)
    {
        bail!(
            "{}: extracted with other extraction settings (date_order, max_document_bytes, linker, context_pass, [extract], schema) than this run's configuration: run with the configuration the shards were extracted with, or extract them again",
            f.path.display()
        );
    }
    let phase = clam::phase::phase("load");
    let corpus = load_corpus(&a.corpus, &config, bars)?;
    drop(phase);
    let _phase = clam::phase::phase("extract");
    let merged = merge(&corpus, files)?;
    let store = clam::workspace::finish_extraction_with(&corpus, &config, merged.items, bars);
    bars.clear();
    let x = Extracted {
        corpus,
        store,
        name: "offline",
        llm: None,
    };
    made_with(
        x,
        config,
        &a.corpus,
        &a.planning,
        true,
        bars,
        Workspace::new_for_export,
    )
}
