//! A snapshot's entities set back on the corpus it was extracted from, so that what a
//! past extraction found (`clam extract`, the offline or the LLM extractor) can be
//! measured and planned again without extracting (`clam eval --snapshot`).

use std::collections::HashMap;

use super::Snapshot;
use crate::Config;
use crate::corpus::Corpus;
use crate::entity::{EntityStore, ExtractedItem, Span};

/// The snapshot was not taken of this corpus.
#[derive(Debug, thiserror::Error)]
#[error("the snapshot does not match the corpus: {0}")]
pub struct SnapshotMismatch(pub String);

/// At most this many ids are named in a mismatch.
const NAMED: usize = 5;

fn listed(what: &str, ids: &[&str]) -> Option<String> {
    if ids.is_empty() {
        return None;
    }
    let shown: Vec<&str> = ids.iter().take(NAMED).copied().collect();
    Some(format!(
        "{} document(s) {what} ({}{})",
        ids.len(),
        shown.join(", "),
        if ids.len() > NAMED { ", …" } else { "" }
    ))
}

impl Snapshot {
    /// The entities of this snapshot on `corpus`, as extraction left them: each
    /// entity's original values at its recorded spans (or wherever the values occur
    /// when it has none). Every document must be in both, with the content it had
    /// when the snapshot was taken (its key), so the figures are those of that
    /// extraction.
    pub fn store_for(
        &self,
        corpus: &Corpus,
        config: &Config,
    ) -> Result<EntityStore, SnapshotMismatch> {
        let by_id: HashMap<&str, usize> = self
            .documents
            .iter()
            .enumerate()
            .map(|(i, d)| (d.id.as_str(), i))
            .collect();
        let in_corpus: HashMap<&str, usize> = corpus
            .documents
            .iter()
            .enumerate()
            .map(|(i, d)| (d.id.as_str(), i))
            .collect();
        let missing: Vec<&str> = corpus
            .documents
            .iter()
            .filter(|d| !by_id.contains_key(d.id.as_str()))
            .map(|d| d.id.as_str())
            .collect();
        let extra: Vec<&str> = self
            .documents
            .iter()
            .filter(|d| !in_corpus.contains_key(d.id.as_str()))
            .map(|d| d.id.as_str())
            .collect();
        let changed: Vec<&str> = corpus
            .documents
            .iter()
            .filter(|d| {
                by_id
                    .get(d.id.as_str())
                    .and_then(|&i| self.documents[i].key.as_deref())
                    .is_some_and(|k| k != d.key)
            })
            .map(|d| d.id.as_str())
            .collect();
        let problems: Vec<String> = [
            listed("of the corpus not in the snapshot", &missing),
            listed("of the snapshot not in the corpus", &extra),
            listed("changed since the snapshot was taken", &changed),
        ]
        .into_iter()
        .flatten()
        .collect();
        if !problems.is_empty() {
            return Err(SnapshotMismatch(problems.join("; ")));
        }
        let items: Vec<Vec<ExtractedItem>> = corpus
            .documents
            .iter()
            .map(|d| {
                let snap = by_id.get(d.id.as_str()).map(|&i| &self.documents[i]);
                snap.map(|s| s.entities.iter().flat_map(items_of).collect())
                    .unwrap_or_default()
            })
            .collect();
        let mut store = EntityStore::from_owned_items(
            &corpus.documents,
            items,
            &config.schema,
            config.extraction.date_order,
        );
        // What the extractor dropped as unlocated then is part of that extraction.
        for (slot, d) in store.docs.iter_mut().zip(&corpus.documents) {
            if let Some(&i) = by_id.get(d.id.as_str()) {
                slot.unlocated += self.documents[i].unlocated;
            }
        }
        Ok(store)
    }
}

/// The items of one snapshot entity: one per original value, each with every span
/// (the store merges them back into one entity with those spans).
fn items_of(e: &super::SnapshotEntity) -> Vec<ExtractedItem> {
    let spans: Vec<Span> = e
        .spans
        .iter()
        .map(|&[start, end]| Span { start, end })
        .collect();
    let originals: Vec<&String> = if e.originals.is_empty() {
        vec![&e.value]
    } else {
        e.originals.iter().collect()
    };
    originals
        .into_iter()
        .map(|o| ExtractedItem {
            original: o.clone(),
            normalized: e.value.clone(),
            entity_type: e.entity_type.clone(),
            relevance: e.relevance,
            spans: spans.clone(),
        })
        .collect()
}
