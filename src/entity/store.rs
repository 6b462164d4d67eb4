//! Global entities and their occurrences per document, built from extractor output
//! with canonicalization, span location and the unlocated guard (SPEC §2), plus the
//! auditor's entity edits as plain operations.

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use super::normalize::{DateOrder, canonical};
use super::spans::{CharIndex, locate};
use crate::corpus::Document;
use crate::entity::{ExtractedItem, Span, entity_id};
use crate::schema::Schema;

/// Original values, sorted, without repeats: inline when there is one.
pub type Originals = SmallVec<[String; 1]>;

/// An entity as the corpus knows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GlobalEntity {
    pub id: String,
    pub entity_type: String,
    pub normalized: String,
    /// Every original value seen, sorted, without repeats (a vector: a set's node
    /// for the usual one or two values was a quarter of a large run's entity index).
    pub originals: Originals,
    /// Indices of the documents it occurs in, ascending.
    pub docs: Vec<usize>,
    /// Total mention count over the corpus.
    pub mentions: u64,
}

/// An entity's occurrence in one document.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntityInDoc {
    pub entity_id: String,
    pub relevance: f64,
    /// Located spans (code points, end exclusive), sorted; empty for snapshot input.
    /// Inline when there is one, as there usually is.
    pub spans: SmallVec<[Span; 1]>,
    /// Mention count in this document (the number of spans when spans are known).
    pub mentions: u64,
    /// Original values of this entity in this document, sorted, without repeats (a
    /// vector: most occurrences have one, and a set's node is ten times its size;
    /// held inline when there is one).
    pub originals: Originals,
}

/// Extraction results of one document.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct DocEntities {
    pub doc_id: String,
    /// Sorted by entity id (ascending), the order every product is computed in.
    pub entities: Vec<EntityInDoc>,
    /// Items dropped because their value does not occur in the text.
    pub unlocated: usize,
    /// Items dropped as invalid (unknown type, relevance outside [0,1], empty value).
    pub invalid: usize,
    /// False while extraction of this document is pending.
    pub complete: bool,
}

/// What the corpus knows about one entity id, independent of documents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntityKey {
    pub entity_type: String,
    pub normalized: String,
}

/// The keys a document's entities use, in item order.
type SlotKeys = Vec<(String, EntityKey)>;

/// Documents whose slots are made on every core before their keys are merged.
const SLOT_BATCH: usize = 16_384;

/// Inserts `value` into the sorted vector `list` unless it is there.
fn insert_sorted(list: &mut Originals, value: &str) {
    if let Err(pos) = list.binary_search_by(|x| x.as_str().cmp(value)) {
        list.insert(pos, value.to_string());
    }
}

/// All entities of a corpus.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct EntityStore {
    pub docs: Vec<DocEntities>,
    pub keys: BTreeMap<String, EntityKey>,
}

/// Errors of the entity edits.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum EditError {
    #[error("unknown entity {0}")]
    UnknownEntity(String),
    #[error("unknown entity type {0:?}; the schema has: {1}")]
    UnknownType(String, String),
    #[error("document index {0} is out of range")]
    NoSuchDocument(usize),
    #[error("span {start}..{end} is empty or outside the document")]
    BadSpan { start: usize, end: usize },
    #[error("relevance {0} is outside [0, 1]")]
    BadRelevance(f64),
    #[error("cannot merge an entity into itself")]
    SelfMerge,
}

impl EntityStore {
    /// A store with one empty, pending slot per document.
    pub fn with_documents(docs: &[Document]) -> Self {
        EntityStore {
            docs: docs
                .iter()
                .map(|d| DocEntities {
                    doc_id: d.id.clone(),
                    ..DocEntities::default()
                })
                .collect(),
            keys: BTreeMap::new(),
        }
    }

    /// Records the extractor's items for document `index` (replacing earlier ones):
    /// canonicalizes values, locates spans, drops and counts invalid and unlocated items.
    pub fn set_document_items(
        &mut self,
        index: usize,
        doc: &Document,
        items: &[ExtractedItem],
        schema: &Schema,
        date_order: DateOrder,
    ) {
        let (slot, keys) = Self::document_slot(doc, items, schema, date_order);
        self.install_slot(index, slot, keys);
        self.prune_keys();
    }

    /// The store of `docs`, each with its own extracted items (`items[i]` for
    /// `docs[i]`).
    pub fn from_document_items(
        docs: &[Document],
        items: &[Vec<ExtractedItem>],
        schema: &Schema,
        date_order: DateOrder,
    ) -> Self {
        let mut store = Self::with_documents(docs);
        store.set_many_document_items(
            docs.iter()
                .zip(items)
                .enumerate()
                .map(|(i, (doc, its))| (i, doc, its.as_slice())),
            schema,
            date_order,
        );
        store
    }

    /// [`EntityStore::from_document_items`], consuming the items: each batch of
    /// documents' items is freed once its slots are made, so the items and the store
    /// are never whole in memory side by side (a million documents' items are over a
    /// gigabyte).
    pub fn from_owned_items(
        docs: &[Document],
        items: Vec<Vec<ExtractedItem>>,
        schema: &Schema,
        date_order: DateOrder,
    ) -> Self {
        let mut store = Self::with_documents(docs);
        let mut batch: Vec<(usize, &Document, Vec<ExtractedItem>)> = docs
            .iter()
            .zip(items)
            .enumerate()
            .map(|(i, (doc, its))| (i, doc, its))
            .collect();
        store.install_in_batches(&mut batch, |(index, doc, its)| {
            let its = std::mem::take(its);
            (*index, Self::document_slot(doc, &its, schema, date_order))
        });
        store
    }

    /// [`EntityStore::set_document_items`] for many documents; unused keys are pruned
    /// once at the end, so loading n documents costs O(n), not O(n²).
    pub fn set_many_document_items<'a>(
        &mut self,
        batch: impl IntoIterator<Item = (usize, &'a Document, &'a [ExtractedItem])>,
        schema: &Schema,
        date_order: DateOrder,
    ) {
        let mut batch: Vec<(usize, &Document, &[ExtractedItem])> = batch.into_iter().collect();
        self.install_in_batches(&mut batch, |&mut (index, doc, items)| {
            (index, Self::document_slot(doc, items, schema, date_order))
        });
    }

    /// Makes each entry's slot (its document index, entities and keys) with `slot` on
    /// every core and installs them in entry order, a bounded batch at a time (every
    /// slot's keys at once were a gigabyte at a million documents); unused keys are
    /// pruned once at the end.
    fn install_in_batches<T: Send>(
        &mut self,
        entries: &mut [T],
        slot: impl Fn(&mut T) -> (usize, (DocEntities, SlotKeys)) + Sync,
    ) {
        use rayon::prelude::*;
        for part in entries.chunks_mut(SLOT_BATCH) {
            let made: Vec<(usize, (DocEntities, SlotKeys))> =
                part.par_iter_mut().map(&slot).collect();
            for (index, (entities, keys)) in made {
                self.install_slot(index, entities, keys);
            }
        }
        self.prune_keys();
    }

    fn install_slot(&mut self, index: usize, slot: DocEntities, keys: SlotKeys) {
        for (id, key) in keys {
            self.keys.entry(id).or_insert(key);
        }
        if index < self.docs.len() {
            self.docs[index] = slot;
        }
    }

    /// A document's entities from the extractor's items, and the keys they use (in
    /// item order).
    fn document_slot(
        doc: &Document,
        items: &[ExtractedItem],
        schema: &Schema,
        date_order: DateOrder,
    ) -> (DocEntities, SlotKeys) {
        let mut keys: SlotKeys = Vec::new();
        let mut slot = DocEntities {
            doc_id: doc.id.clone(),
            complete: true,
            ..DocEntities::default()
        };
        let mut by_id: BTreeMap<String, EntityInDoc> = BTreeMap::new();
        let chars = CharIndex::new(&doc.content);
        for item in items {
            let relevance_ok = item.relevance.is_finite() && (0.0..=1.0).contains(&item.relevance);
            if !schema.contains(&item.entity_type)
                || !relevance_ok
                || item.original.trim().is_empty()
            {
                slot.invalid += 1;
                continue;
            }
            let source = if item.normalized.trim().is_empty() {
                &item.original
            } else {
                &item.normalized
            };
            let normalized = canonical(source, &item.entity_type, date_order);
            if normalized.is_empty() {
                slot.invalid += 1;
                continue;
            }
            // The extractor's spans are trusted only when they point at the value.
            let given: Vec<Span> = item
                .spans
                .iter()
                .copied()
                .filter(|s| chars.slice(&doc.content, *s).is_some())
                .collect();
            let spans = if given.is_empty() {
                locate(&doc.content, &item.original)
            } else {
                given
            };
            if spans.is_empty() {
                slot.unlocated += 1;
                continue;
            }
            let id = entity_id(&normalized, &item.entity_type);
            if !by_id.contains_key(&id) {
                keys.push((
                    id.clone(),
                    EntityKey {
                        entity_type: item.entity_type.clone(),
                        normalized,
                    },
                ));
            }
            let entry = by_id.entry(id.clone()).or_insert_with(|| EntityInDoc {
                entity_id: id,
                relevance: item.relevance,
                spans: SmallVec::new(),
                mentions: 0,
                originals: SmallVec::new(),
            });
            entry.relevance = entry.relevance.max(item.relevance);
            entry.spans.extend(spans);
            insert_sorted(&mut entry.originals, &item.original);
        }
        slot.entities = by_id
            .into_values()
            .map(|mut e| {
                e.spans.sort();
                e.spans.dedup();
                e.mentions = e.spans.len() as u64;
                e
            })
            .collect();
        (slot, keys)
    }

    fn prune_keys(&mut self) {
        let used: FxHashSet<&str> = self
            .docs
            .iter()
            .flat_map(|d| d.entities.iter().map(|e| e.entity_id.as_str()))
            .collect();
        self.keys.retain(|id, _| used.contains(id.as_str()));
    }

    /// Lets go of every document's entities and of the keys, keeping each
    /// document's counts (unlocated, invalid, complete): what an export-only
    /// workspace keeps once its model is built.
    pub fn release_occurrences(&mut self) {
        for d in &mut self.docs {
            d.entities = Vec::new();
        }
        self.keys = BTreeMap::new();
    }

    /// Documents whose extraction is complete (N of SPEC §3).
    pub fn complete_count(&self) -> usize {
        self.docs.iter().filter(|d| d.complete).count()
    }

    /// Global view of every entity, keyed by id (ascending).
    pub fn globals(&self) -> BTreeMap<String, GlobalEntity> {
        // Each key's position in id order: one hash lookup per occurrence, and the
        // map built at the end from entities already in order.
        let keys: Vec<(&String, &EntityKey)> = self.keys.iter().collect();
        let position: FxHashMap<&str, u32> = keys
            .iter()
            .enumerate()
            .map(|(i, (id, _))| (id.as_str(), i as u32))
            .collect();
        let mut slots: Vec<Option<GlobalEntity>> = Vec::new();
        slots.resize_with(keys.len(), || None);
        for (di, doc) in self.docs.iter().enumerate() {
            if !doc.complete {
                continue;
            }
            for e in &doc.entities {
                let Some(&p) = position.get(e.entity_id.as_str()) else {
                    continue;
                };
                let g = slots[p as usize].get_or_insert_with(|| {
                    let key = keys[p as usize].1;
                    GlobalEntity {
                        id: e.entity_id.clone(),
                        entity_type: key.entity_type.clone(),
                        normalized: key.normalized.clone(),
                        originals: SmallVec::new(),
                        docs: Vec::new(),
                        mentions: 0,
                    }
                });
                for o in &e.originals {
                    insert_sorted(&mut g.originals, o);
                }
                g.docs.push(di);
                g.mentions += e.mentions;
            }
        }
        slots
            .into_iter()
            .flatten()
            .map(|g| (g.id.clone(), g))
            .collect()
    }

    /// Unlocated items over the corpus.
    pub fn unlocated_total(&self) -> usize {
        self.docs.iter().map(|d| d.unlocated).sum()
    }

    fn insert_occurrence(&mut self, doc: usize, occ: EntityInDoc) {
        let list = &mut self.docs[doc].entities;
        match list.binary_search_by(|e| e.entity_id.cmp(&occ.entity_id)) {
            Ok(pos) => {
                let e = &mut list[pos];
                e.relevance = e.relevance.max(occ.relevance);
                e.spans.extend(occ.spans);
                e.spans.sort();
                e.spans.dedup();
                for o in &occ.originals {
                    insert_sorted(&mut e.originals, o);
                }
                e.mentions = if e.spans.is_empty() {
                    e.mentions + occ.mentions
                } else {
                    e.spans.len() as u64
                };
            }
            Err(pos) => list.insert(pos, occ),
        }
    }

    /// Adds an entity at `span` of document `doc` (relevance 1.0 unless given);
    /// returns its id. Other occurrences of the same text in the document are found too.
    #[allow(clippy::too_many_arguments)] // one edit's inputs plus the canonicalization settings
    pub fn add_entity(
        &mut self,
        doc_index: usize,
        doc: &Document,
        span: Span,
        entity_type: &str,
        relevance: Option<f64>,
        schema: &Schema,
        date_order: DateOrder,
    ) -> Result<String, EditError> {
        if doc_index >= self.docs.len() {
            return Err(EditError::NoSuchDocument(doc_index));
        }
        if !schema.contains(entity_type) {
            return Err(EditError::UnknownType(
                entity_type.to_string(),
                schema.names().join(", "),
            ));
        }
        let relevance = relevance.unwrap_or(1.0);
        if !(0.0..=1.0).contains(&relevance) {
            return Err(EditError::BadRelevance(relevance));
        }
        let original = CharIndex::new(&doc.content)
            .slice(&doc.content, span)
            .filter(|t| !t.trim().is_empty())
            .map(str::to_string)
            .ok_or(EditError::BadSpan {
                start: span.start,
                end: span.end,
            })?;
        let normalized = canonical(&original, entity_type, date_order);
        let id = entity_id(&normalized, entity_type);
        let mut spans = locate(&doc.content, &original);
        if !spans.contains(&span) {
            spans.push(span);
            spans.sort();
        }
        self.keys.entry(id.clone()).or_insert(EntityKey {
            entity_type: entity_type.to_string(),
            normalized,
        });
        let mentions = spans.len() as u64;
        self.insert_occurrence(
            doc_index,
            EntityInDoc {
                entity_id: id.clone(),
                relevance,
                spans: SmallVec::from_vec(spans),
                mentions,
                originals: smallvec::smallvec![original],
            },
        );
        self.docs[doc_index].complete = true;
        Ok(id)
    }

    /// Removes an entity from one document, or from every document when `doc` is None.
    pub fn remove_entity(&mut self, id: &str, doc: Option<usize>) -> Result<(), EditError> {
        if !self.keys.contains_key(id) {
            return Err(EditError::UnknownEntity(id.to_string()));
        }
        for (i, d) in self.docs.iter_mut().enumerate() {
            if doc.is_none_or(|only| only == i) {
                d.entities.retain(|e| e.entity_id != id);
            }
        }
        self.prune_keys();
        Ok(())
    }

    /// Merges entity `from` into `into`: `into` keeps its id and value and gains every
    /// occurrence of `from`.
    pub fn merge(&mut self, from: &str, into: &str) -> Result<(), EditError> {
        if from == into {
            return Err(EditError::SelfMerge);
        }
        for id in [from, into] {
            if !self.keys.contains_key(id) {
                return Err(EditError::UnknownEntity(id.to_string()));
            }
        }
        for di in 0..self.docs.len() {
            let list = &mut self.docs[di].entities;
            if let Some(pos) = list.iter().position(|e| e.entity_id == from) {
                let mut occ = list.remove(pos);
                occ.entity_id = into.to_string();
                self.insert_occurrence(di, occ);
            }
        }
        self.prune_keys();
        Ok(())
    }

    /// Changes an entity's type; the entity is re-keyed (merged into an existing
    /// entity of that value and type if there is one). Returns the new id.
    pub fn retype(
        &mut self,
        id: &str,
        new_type: &str,
        schema: &Schema,
    ) -> Result<String, EditError> {
        let key = self
            .keys
            .get(id)
            .cloned()
            .ok_or_else(|| EditError::UnknownEntity(id.to_string()))?;
        if !schema.contains(new_type) {
            return Err(EditError::UnknownType(
                new_type.to_string(),
                schema.names().join(", "),
            ));
        }
        let new_id = entity_id(&key.normalized, new_type);
        if new_id == id {
            return Ok(new_id);
        }
        self.keys.entry(new_id.clone()).or_insert(EntityKey {
            entity_type: new_type.to_string(),
            normalized: key.normalized,
        });
        self.merge(id, &new_id)?;
        Ok(new_id)
    }
}

#[cfg(test)]
mod tests;
