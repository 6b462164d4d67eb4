//! `clam run`: extract, plan and export in one go.

use super::*;

pub(super) fn run(a: RunArgs) -> Result<u8> {
    let opts = ExportOptions {
        force: a.force,
        with_mapping: a.with_mapping.clone(),
        require_reviewed: a.require_reviewed,
    };
    // The export folder and the mapping are checked before the corpus is read.
    clam::export::check_targets(&a.corpus.corpus, &a.out, &opts)?;
    let ws = build_workspace(&a.corpus, &a.planning, a.mode, true, &a.extraction)?;
    let key = match ws.session() {
        Some(s) => s.project_key()?,
        None => bail!(
            "this platform has no user data directory for the project key; pass --session FILE"
        ),
    };
    let ex = extractor(ws.config())?;
    let phase = clam::phase::phase("export");
    let exported = export(&ws, &key, &a.out, &opts, &ex);
    drop(phase);
    if ws.analysis().chain_cap.hit() {
        eprintln!(
            "warning: chain cap hit: {} component(s) of the document graph have more chains than max_chains_per_component = {}; longer chains beyond it were not analysed (see report.md)",
            ws.analysis().chain_cap.capped_components.len(),
            ws.analysis().chain_cap.limit
        );
    }
    match exported {
        Ok(summary) => {
            let chains_after = |cat| {
                ws.plan()
                    .chains
                    .iter()
                    .filter(|c| c.category_final == cat)
                    .count()
            };
            let chains_before = |cat| {
                ws.plan()
                    .chains
                    .iter()
                    .filter(|c| c.category_initial == cat)
                    .count()
            };
            use clam::analysis::RiskCategory::{High, Medium};
            eprintln!(
                "exported {} documents to {} ({} mode): {} of {} entities masked; chains HIGH/MEDIUM unmasked {}/{} → masked {}/{}; {} residual document(s), {} residual chain(s); leak check passed ({} files)",
                summary.documents,
                summary.out.display(),
                ws.config().redact.mode.as_str(),
                summary.masked,
                ws.model().entities.len(),
                chains_before(High),
                chains_before(Medium),
                chains_after(High),
                chains_after(Medium),
                ws.plan().residual_docs.len(),
                ws.plan().residual_chains.len(),
                summary.files_scanned
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
