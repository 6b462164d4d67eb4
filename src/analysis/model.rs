//! The analysis input: documents with (entity, relevance) and entities with weights,
//! indexed so that ascending entity index is ascending entity id.

use std::collections::BTreeMap;

use crate::entity::EntityStore;
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
        let docs: Vec<(String, usize, Vec<ModelInput<'a>>)> = docs.into_iter().collect();
        let mut index: BTreeMap<&str, (&str, &str, u64)> = BTreeMap::new();
        for (_, _, ents) in &docs {
            for e in ents {
                let slot = index.entry(e.id).or_insert((e.entity_type, e.value, 0));
                slot.2 += e.mentions;
            }
        }
        let position: BTreeMap<&str, u32> = index
            .keys()
            .enumerate()
            .map(|(i, id)| (*id, i as u32))
            .collect();
        let entities = index
            .iter()
            .map(|(id, (t, v, m))| ModelEntity {
                id: id.to_string(),
                entity_type: t.to_string(),
                value: v.to_string(),
                weight: schema.weight(t),
                mentions: *m,
            })
            .collect();
        let docs = docs
            .iter()
            .map(|(id, corpus_index, ents)| {
                let mut list: Vec<(u32, f64)> = Vec::with_capacity(ents.len());
                for e in ents {
                    list.push((position[e.id], e.relevance));
                }
                list.sort_by_key(|a| a.0);
                let mut merged: Vec<(u32, f64)> = Vec::with_capacity(list.len());
                for (e, r) in list {
                    match merged.last_mut() {
                        Some(last) if last.0 == e => last.1 = last.1.max(r),
                        _ => merged.push((e, r)),
                    }
                }
                ModelDoc {
                    id: id.clone(),
                    corpus_index: *corpus_index,
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
                        let key = store.keys.get(&e.entity_id)?;
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
