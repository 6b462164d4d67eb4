//! The entity snapshot: the reference vectors' input format (config, documents with
//! their entities, optional forced states) plus, when written by `clam extract`, each
//! entity's original values and spans. `clam plan` runs analysis and planner on a
//! snapshot with its values taken verbatim and prints the vectors' `expected` shape.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::analysis::{Analysis, Model, ModelInput, all_edges};
use crate::config::ConfigLayer;
use crate::plan::{Cause, Plan};
use crate::schema::Schema;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SnapshotEntity {
    /// Already-normalized value.
    pub value: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    pub relevance: f64,
    #[serde(default = "one")]
    pub mentions: u64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub originals: Vec<String>,
    /// `[start, end)` in code points.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spans: Vec<[usize; 2]>,
}

fn one() -> u64 {
    1
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SnapshotDoc {
    pub id: String,
    pub entities: Vec<SnapshotEntity>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unlocated: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Forced {
    #[serde(default)]
    pub mask: Vec<String>,
    #[serde(default)]
    pub keep: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Snapshot {
    #[serde(default)]
    pub config: Value,
    pub documents: Vec<SnapshotDoc>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub forced: Option<Forced>,
}

impl Snapshot {
    /// The snapshot's config as a configuration layer.
    pub fn config_layer(&self) -> Result<ConfigLayer, crate::config::ConfigError> {
        if self.config.is_null() {
            return Ok(ConfigLayer::default());
        }
        ConfigLayer::from_json(&self.config, "snapshot config")
    }

    /// The analysis model; entity ids are `md5(value::type)` unless given.
    pub fn model(&self, schema: &Schema) -> Model {
        let ids: Vec<Vec<String>> = self
            .documents
            .iter()
            .map(|d| {
                d.entities
                    .iter()
                    .map(|e| {
                        e.id.clone()
                            .unwrap_or_else(|| crate::entity::entity_id(&e.value, &e.entity_type))
                    })
                    .collect()
            })
            .collect();
        Model::build(
            self.documents.iter().enumerate().map(|(di, d)| {
                let ents = d
                    .entities
                    .iter()
                    .enumerate()
                    .map(|(k, e)| ModelInput {
                        id: &ids[di][k],
                        entity_type: &e.entity_type,
                        value: &e.value,
                        relevance: e.relevance,
                        mentions: e.mentions,
                    })
                    .collect::<Vec<_>>();
                (d.id.clone(), di, ents)
            }),
            schema,
        )
    }
}

fn doc_ids(model: &Model, docs: &[u32]) -> Value {
    Value::Array(
        docs.iter()
            .map(|&d| Value::String(model.docs[d as usize].id.clone()))
            .collect(),
    )
}

fn sorted_ids(model: &Model, flags: &[bool]) -> Value {
    let set: BTreeSet<&str> = flags
        .iter()
        .enumerate()
        .filter(|(_, m)| **m)
        .map(|(i, _)| model.entities[i].id.as_str())
        .collect();
    json!(set)
}

/// The reference vectors' `expected` object for a model, its analysis and plan.
pub fn expected_json(model: &Model, an: &Analysis, plan: &Plan) -> Value {
    let mut entities = Map::new();
    for (i, e) in model.entities.iter().enumerate() {
        entities.insert(
            e.id.clone(),
            json!({
                "type": e.entity_type,
                "value": e.value,
                "uniqueness": an.uniqueness[i],
                "global_contribution": an.global_contribution[i],
            }),
        );
    }
    let doc_map = |risks: &[f64]| -> Value {
        let mut m = Map::new();
        for (d, r) in model.docs.iter().zip(risks) {
            m.insert(d.id.clone(), json!(r));
        }
        Value::Object(m)
    };
    let edges_all: Vec<Value> = all_edges(model, &an.entity_docs, &an.uniqueness)
        .iter()
        .map(|e| {
            json!({
                "docs": doc_ids(model, &[e.a, e.b]),
                "via": e.via.iter().map(|(x, _)| model.entities[*x as usize].id.clone()).collect::<Vec<_>>(),
                "strength": e.strength,
            })
        })
        .collect();
    let edges_kept: Vec<Value> = an
        .edges
        .iter()
        .map(|e| doc_ids(model, &[e.a, e.b]))
        .collect();
    let chains: Vec<Value> = an
        .chains
        .iter()
        .zip(&plan.chains)
        .map(|(c, r)| {
            json!({
                "docs": doc_ids(model, &c.docs),
                "risk_initial": r.risk_initial,
                "risk_pre": r.risk_pre,
                "category_pre": r.category_pre.as_str(),
                "risk_final": r.risk_final,
                "category_final": r.category_final.as_str(),
            })
        })
        .collect();
    let mask_log: Vec<Value> = plan
        .events
        .iter()
        .map(|ev| {
            let where_ = match ev.cause {
                Cause::Document(d) => doc_ids(model, &[d]),
                Cause::Chain(c) => doc_ids(model, &an.chains[c as usize].docs),
            };
            json!({
                "entity": model.entities[ev.entity as usize].id,
                "stage": ev.stage.as_str(),
                "where": where_,
                "risk_before": ev.risk_before,
            })
        })
        .collect();
    json!({
        "entities": entities,
        "doc_risk_initial": doc_map(&an.doc_risk_initial),
        "edges_all": edges_all,
        "edges_kept": edges_kept,
        "chains": chains,
        "masked_after_document_stage": sorted_ids(model, &plan.masked_after_document_stage),
        "masked": sorted_ids(model, &plan.masked),
        "mask_log": mask_log,
        "pruned": plan.pruned.iter().map(|&e| model.entities[e as usize].id.clone()).collect::<Vec<_>>(),
        "doc_risk_final": doc_map(&plan.doc_risk_final),
    })
}

/// Runs analysis and planner on a snapshot under `config` (the snapshot's forced
/// states added) and returns the `expected`-shaped JSON.
pub fn plan_snapshot(
    snapshot: &Snapshot,
    config: &crate::Config,
) -> Result<Value, crate::plan::PlanError> {
    let model = snapshot.model(&config.schema);
    let an = Analysis::new(&model, &config.analysis_params());
    let mut constraints = config.constraints();
    if let Some(f) = &snapshot.forced {
        constraints.force_mask.extend(f.mask.iter().cloned());
        constraints.force_keep.extend(f.keep.iter().cloned());
    }
    let plan = crate::plan::plan(&model, &an, &config.plan_params(), &constraints)?;
    Ok(expected_json(&model, &an, &plan))
}
