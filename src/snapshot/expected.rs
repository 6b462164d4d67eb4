//! The `expected` object of the reference vectors, serialized straight from the model,
//! the analysis and the plan: field for field what the vectors hold, in their order,
//! with no JSON tree built in memory.

use std::collections::BTreeSet;

use serde::Serialize;
use serde::ser::{SerializeMap, Serializer};

use crate::analysis::{Analysis, Model, all_edges};
use crate::plan::{Cause, Plan};

/// The `expected` object of a model, its analysis and its plan.
pub struct Expected<'a> {
    model: &'a Model,
    an: &'a Analysis,
    plan: &'a Plan,
}

impl<'a> Expected<'a> {
    pub fn new(model: &'a Model, an: &'a Analysis, plan: &'a Plan) -> Self {
        Expected { model, an, plan }
    }
}

/// Document ids of model indices, as a JSON array.
struct DocIds<'a, D>(&'a Model, D);

impl<D: AsRef<[u32]>> Serialize for DocIds<'_, D> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.1.as_ref().iter().map(|&d| &self.0.docs[d as usize].id))
    }
}

/// The sorted ids of the entities flagged in `flags`.
struct FlaggedIds<'a>(&'a Model, &'a [bool]);

impl Serialize for FlaggedIds<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let set: BTreeSet<&str> = self
            .1
            .iter()
            .enumerate()
            .filter(|(_, m)| **m)
            .map(|(i, _)| self.0.entities[i].id.as_str())
            .collect();
        s.collect_seq(set)
    }
}

/// Document id → risk.
struct DocMap<'a>(&'a Model, &'a [f64]);

impl Serialize for DocMap<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.docs.iter().zip(self.1).map(|(d, r)| (&d.id, r)))
    }
}

#[derive(Serialize)]
struct EntityRow<'a> {
    #[serde(rename = "type")]
    entity_type: &'a str,
    value: &'a str,
    uniqueness: f64,
    global_contribution: f64,
}

struct Entities<'a>(&'a Model, &'a Analysis);

impl Serialize for Entities<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let (model, an) = (self.0, self.1);
        s.collect_map(model.entities.iter().enumerate().map(|(i, e)| {
            (
                &e.id,
                EntityRow {
                    entity_type: &e.entity_type,
                    value: &e.value,
                    uniqueness: an.uniqueness[i],
                    global_contribution: an.global_contribution[i],
                },
            )
        }))
    }
}

struct EdgesAll<'a>(&'a Model, &'a Analysis);

impl Serialize for EdgesAll<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Row<'a> {
            docs: DocIds<'a, [u32; 2]>,
            via: Vec<&'a str>,
            strength: f64,
        }
        let model = self.0;
        let edges = all_edges(model, &self.1.entity_docs, &self.1.uniqueness);
        s.collect_seq(edges.iter().map(|e| {
            Row {
                docs: DocIds(model, [e.a, e.b]),
                via: e
                    .via
                    .iter()
                    .map(|(x, _)| model.entities[*x as usize].id.as_str())
                    .collect(),
                strength: e.strength,
            }
        }))
    }
}

/// Where a masking event happened: its document, or its chain's documents.
enum Where<'a> {
    Document([u32; 1]),
    Chain(&'a [u32]),
}

impl AsRef<[u32]> for Where<'_> {
    fn as_ref(&self) -> &[u32] {
        match self {
            Where::Document(d) => d,
            Where::Chain(c) => c,
        }
    }
}

impl Serialize for Expected<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Chain<'a> {
            docs: DocIds<'a, &'a [u32]>,
            risk_initial: f64,
            risk_pre: f64,
            category_pre: &'a str,
            risk_final: f64,
            category_final: &'a str,
        }
        #[derive(Serialize)]
        struct Event<'a> {
            entity: &'a str,
            stage: &'a str,
            #[serde(rename = "where")]
            where_: DocIds<'a, Where<'a>>,
            risk_before: f64,
        }
        let (model, an, plan) = (self.model, self.an, self.plan);
        let mut m = s.serialize_map(Some(10))?;
        m.serialize_entry("entities", &Entities(model, an))?;
        m.serialize_entry("doc_risk_initial", &DocMap(model, &an.doc_risk_initial))?;
        m.serialize_entry("edges_all", &EdgesAll(model, an))?;
        m.serialize_entry(
            "edges_kept",
            &an.edges
                .iter()
                .map(|e| DocIds(model, [e.a, e.b]))
                .collect::<Vec<_>>(),
        )?;
        let chains: Vec<Chain> = an
            .chains
            .iter()
            .zip(&plan.chains)
            .map(|(c, r)| Chain {
                docs: DocIds(model, c.docs()),
                risk_initial: r.risk_initial,
                risk_pre: r.risk_pre,
                category_pre: r.category_pre.as_str(),
                risk_final: r.risk_final,
                category_final: r.category_final.as_str(),
            })
            .collect();
        m.serialize_entry("chains", &chains)?;
        m.serialize_entry(
            "masked_after_document_stage",
            &FlaggedIds(model, &plan.masked_after_document_stage),
        )?;
        m.serialize_entry("masked", &FlaggedIds(model, &plan.masked))?;
        let events: Vec<Event> = plan
            .events
            .iter()
            .map(|ev| Event {
                entity: &model.entities[ev.entity as usize].id,
                stage: ev.stage.as_str(),
                where_: DocIds(
                    model,
                    match ev.cause {
                        Cause::Document(d) => Where::Document([d]),
                        Cause::Chain(c) => Where::Chain(an.chains[c as usize].docs()),
                    },
                ),
                risk_before: ev.risk_before,
            })
            .collect();
        m.serialize_entry("mask_log", &events)?;
        m.serialize_entry(
            "pruned",
            &plan
                .pruned
                .iter()
                .map(|&e| model.entities[e as usize].id.as_str())
                .collect::<Vec<_>>(),
        )?;
        m.serialize_entry("doc_risk_final", &DocMap(model, &plan.doc_risk_final))?;
        m.end()
    }
}
