//! The analysis input: documents with (entity, relevance) and entities with weights,
//! indexed so that ascending entity index is ascending entity id.

use rustc_hash::FxHashMap;

use crate::entity::EntityStore;
use crate::entity::store::EntityKey;
use crate::schema::Schema;

#[derive(Debug, Clone, PartialEq)]
pub struct ModelEntity {
    pub id: String,
    pub entity_type: String,
    pub value: String,
    /// w_type
    pub weight: f64,
    /// Total mention count over the corpus (the knapsack's utility cost).
    pub mentions: u64,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ModelDoc {
    pub id: String,
    /// Index of the document in the corpus.
    pub corpus_index: usize,
    /// (entity index, relevance), ascending entity index.
    pub entities: Vec<(u32, f64)>,
}

/// A document while its model is built: id, corpus index, (slot, relevance) per input.
type SlotDoc = (String, usize, Vec<(u32, f64)>);

/// Analysis input. `entities` is sorted by id.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Model {
    pub docs: Vec<ModelDoc>,
    pub entities: Vec<ModelEntity>,
}

/// One document's entity for [`Model::build`]: (id, type, value, relevance, mentions).
pub struct ModelInput<'a> {
    pub id: &'a str,
    pub entity_type: &'a str,
    pub value: &'a str,
    pub relevance: f64,
    pub mentions: u64,
}

impl Model {
    /// Builds a model from per-document entity lists. The same entity twice in one
    /// document keeps the higher relevance and adds up mentions.
    pub fn build<'a>(
        docs: impl IntoIterator<Item = (String, usize, Vec<ModelInput<'a>>)>,
        schema: &Schema,
    ) -> Self {
        // Each distinct id once, with the type and value of its first occurrence and
        // its mentions over the corpus; one hash lookup per occurrence (a sorted map
        // compared 32-character ids a dozen times per occurrence). Each document's
        // inputs are turned into (slot, relevance) as they come, so a corpus's inputs
        // are never all held at once.
        let mut slot_of: FxHashMap<&str, u32> = FxHashMap::default();
        let mut index: Vec<(&str, &str, &str, u64)> = Vec::new();
        let mut by_slot: Vec<SlotDoc> = Vec::new();
        for (id, corpus_index, ents) in docs {
            let mut list: Vec<(u32, f64)> = Vec::with_capacity(ents.len());
            for e in ents {
                let slot = *slot_of.entry(e.id).or_insert_with(|| {
                    index.push((e.id, e.entity_type, e.value, 0));
                    (index.len() - 1) as u32
                });
                index[slot as usize].3 += e.mentions;
                list.push((slot, e.relevance));
            }
            by_slot.push((id, corpus_index, list));
        }
        drop(slot_of);
        let mut order: Vec<u32> = (0..index.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| index[a as usize].0.cmp(index[b as usize].0));
        let mut position = vec![0u32; index.len()];
        for (i, &slot) in order.iter().enumerate() {
            position[slot as usize] = i as u32;
        }
        let entities = order
            .iter()
            .map(|&slot| {
                let (id, t, v, m) = index[slot as usize];
                ModelEntity {
                    id: id.to_string(),
                    entity_type: t.to_string(),
                    value: v.to_string(),
                    weight: schema.weight(t),
                    mentions: m,
                }
            })
            .collect();
        let docs = by_slot
            .into_iter()
            .map(|(id, corpus_index, mut list)| {
                for entry in list.iter_mut() {
                    entry.0 = position[entry.0 as usize];
                }
                // Stable: of one entity twice, the first keeps its place, as before.
                list.sort_by_key(|a| a.0);
                let mut merged: Vec<(u32, f64)> = Vec::with_capacity(list.len());
                for (e, r) in list {
                    match merged.last_mut() {
                        Some(last) if last.0 == e => last.1 = last.1.max(r),
                        _ => merged.push((e, r)),
                    }
                }
                ModelDoc {
                    id,
                    corpus_index,
                    entities: merged,
                }
            })
            .collect();
        Model { docs, entities }
    }

    /// A model from per-document lists of `(entity id, type, relevance)`, one mention
    /// each, the value being the id, documents named `d0`, `d1`, … (tests, benchmarks).
    pub fn from_lists<S: AsRef<str>>(docs: &[Vec<(S, &str, f64)>], schema: &Schema) -> Self {
        Model::build(
            docs.iter().enumerate().map(|(i, ents)| {
                let list = ents
                    .iter()
                    .map(|(id, t, r)| ModelInput {
                        id: id.as_ref(),
                        entity_type: t,
                        value: id.as_ref(),
                        relevance: *r,
                        mentions: 1,
                    })
                    .collect::<Vec<_>>();
                (format!("d{i}"), i, list)
            }),
            schema,
        )
    }

    /// The model of the documents whose extraction is complete.
    pub fn from_store(store: &EntityStore, schema: &Schema) -> Self {
        let keys: FxHashMap<&str, &EntityKey> =
            store.keys.iter().map(|(id, k)| (id.as_str(), k)).collect();
        let docs = store
            .docs
            .iter()
            .enumerate()
            .filter(|(_, d)| d.complete)
            .map(|(i, d)| {
                let ents = d
                    .entities
                    .iter()
                    .filter_map(|e| {
                        let key = *keys.get(e.entity_id.as_str())?;
                        Some(ModelInput {
                            id: &e.entity_id,
                            entity_type: &key.entity_type,
                            value: &key.normalized,
                            relevance: e.relevance,
                            mentions: e.mentions,
                        })
                    })
                    .collect();
                (d.doc_id.clone(), i, ents)
            });
        Model::build(docs, schema)
    }

    /// Index of an entity id.
    pub fn entity_index(&self, id: &str) -> Option<usize> {
        self.entities
            .binary_search_by(|e| e.id.as_str().cmp(id))
            .ok()
    }
}
