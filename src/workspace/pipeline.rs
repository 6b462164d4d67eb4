//! Extraction of a corpus into an entity store, with progress steps and phase timings.

use super::*;
use crate::progress::{Progress, Silent, Unit};

/// Runs `extractor` over every document of the corpus, then (unless disabled) the
/// context pass that finds every typed value in the other documents too, and (when
/// enabled) the corpus-level linker pass over what the recognizers left untyped.
pub fn extract_all(
    corpus: &Corpus,
    config: &Config,
    extractor: &(dyn Extractor + Sync),
) -> EntityStore {
    extract_all_with(corpus, config, extractor, &Silent)
}

/// [`extract_all`], reporting each document extracted, then the corpus-level steps, to
/// `progress`.
pub fn extract_all_with(
    corpus: &Corpus,
    config: &Config,
    extractor: &(dyn Extractor + Sync),
    progress: &dyn Progress,
) -> EntityStore {
    let items = extract_documents(corpus, extractor, progress);
    finish_extraction_with(corpus, config, items, progress)
}

/// The extractor's items of every document, in corpus order, before the corpus-level
/// steps (what a shard of `clam extract --shard` holds). Documents are extracted on
/// every core; each one reports to `progress`.
pub fn extract_documents(
    corpus: &Corpus,
    extractor: &(dyn Extractor + Sync),
    progress: &dyn Progress,
) -> Vec<Vec<ExtractedItem>> {
    use rayon::prelude::*;
    let _phase = crate::phase::phase("extract.documents");
    progress.stage("extracting", corpus.documents.len() as u64, Unit::Documents);
    // `collect` keeps corpus order, whatever order the documents finish in.
    corpus
        .documents
        .par_iter()
        .map(|doc| {
            let items = extractor.extract(doc).unwrap_or_else(|e| {
                tracing::warn!(doc = %doc.id, error = %e, "extraction failed");
                Vec::new()
            });
            progress.advance(1);
            items
        })
        .collect()
}

/// The corpus-level steps after a per-document extractor (offline or LLM): the
/// context pass, the linker, then canonicalization and the unlocated guard.
pub fn finish_extraction(
    corpus: &Corpus,
    config: &Config,
    items: Vec<Vec<ExtractedItem>>,
) -> EntityStore {
    finish_extraction_with(corpus, config, items, &Silent)
}

/// [`finish_extraction`], naming its steps to `progress`.
pub fn finish_extraction_with(
    corpus: &Corpus,
    config: &Config,
    mut items: Vec<Vec<ExtractedItem>>,
    progress: &dyn Progress,
) -> EntityStore {
    let phase = crate::phase::phase("extract.corpus_passes");
    progress.stage("context pass", 0, Unit::Documents);
    corpus_steps(corpus, config, &mut items, None);
    drop(phase);
    let _phase = crate::phase::phase("extract.store");
    progress.stage("entity store", 0, Unit::Documents);
    EntityStore::from_owned_items(
        &corpus.documents,
        items,
        &config.schema,
        config.extraction.date_order,
    )
}

/// The corpus-level steps on per-document extractor items: the context pass
/// (one type per value, typed values carried to the other documents) and the
/// linker. With `done`, only the documents marked done are extracted so far:
/// nothing is carried into the others, and the linker, which needs every
/// document, waits until all are done. Once every document is done the result is
/// the same as for a whole corpus extracted at once.
pub(super) fn corpus_steps(
    corpus: &Corpus,
    config: &Config,
    items: &mut [Vec<ExtractedItem>],
    done: Option<&[bool]>,
) {
    let is_done = |i: usize| done.is_none_or(|d| d.get(i).copied().unwrap_or(false));
    if config.extraction.context_pass {
        crate::extract::propagate::harmonize_types(items);
        let short_forms = config.extract.short_forms.unwrap_or(true);
        if short_forms {
            crate::extract::propagate::merge_short_forms(items);
        }
        let carried = crate::extract::propagate::propagate(&corpus.documents, items, short_forms);
        for (i, (mine, extra)) in items.iter_mut().zip(carried).enumerate() {
            if is_done(i) {
                mine.extend(extra);
                crate::extract::propagate::drop_places_under_names(mine);
            }
        }
    }
    let all_done = (0..items.len()).all(is_done);
    if all_done
        && config.extraction.linker
        && config.schema.contains(crate::extract::linker::LINKER_TYPE)
    {
        let linked = crate::extract::linker::link(&corpus.documents, items);
        for (mine, extra) in items.iter_mut().zip(linked) {
            mine.extend(extra);
        }
    }
}
