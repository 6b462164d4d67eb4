//! The entity snapshot: the reference vectors' input format (config, documents with
//! their entities, optional forced states) plus, when written by `clam extract`, each
//! entity's original values and spans. `clam plan` runs analysis and planner on a
//! snapshot with its values taken verbatim and prints the vectors' `expected` shape.

use serde::{Deserialize, Serialize};
use serde_json::Value;

mod corpus;
mod expected;
pub use corpus::SnapshotMismatch;
pub use expected::Expected;

use crate::analysis::{Analysis, Model, ModelInput};
use crate::config::ConfigLayer;
use crate::plan::Plan;
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
    /// Written by `clam extract --extractor llm` when the model failed for this
    /// document: why, its entities coming from the offline extractor instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallback: Option<String>,
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
    /// Written by `clam extract --extractor llm`: how many documents fell back to the
    /// offline extractor (each marked `fallback`); absent for the offline extractor.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fallbacks: Option<usize>,
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

/// The reference vectors' `expected` object for a model, its analysis and plan, as a
/// JSON tree (tests index into it; `clam plan` writes [`Expected`] directly).
pub fn expected_json(model: &Model, an: &Analysis, plan: &Plan) -> Value {
    serde_json::to_value(Expected::new(model, an, plan)).unwrap_or(Value::Null)
}

/// Runs analysis and planner on a snapshot under `config` (the snapshot's forced
/// states added) and returns the `expected`-shaped JSON.
pub fn plan_snapshot(
    snapshot: &Snapshot,
    config: &crate::Config,
) -> Result<Value, crate::plan::PlanError> {
    let p = Planned::new(snapshot, config)?;
    Ok(expected_json(&p.model, &p.an, &p.plan))
}

/// A snapshot planned under a configuration: what `clam plan` writes.
pub struct Planned {
    model: Model,
    an: Analysis,
    plan: Plan,
}

impl Planned {
    /// Runs analysis and planner on `snapshot` under `config` (the snapshot's forced
    /// states added).
    pub fn new(
        snapshot: &Snapshot,
        config: &crate::Config,
    ) -> Result<Planned, crate::plan::PlanError> {
        let model = snapshot.model(&config.schema);
        let an = Analysis::new(&model, &config.analysis_params());
        let mut constraints = config.constraints();
        if let Some(f) = &snapshot.forced {
            constraints.force_mask.extend(f.mask.iter().cloned());
            constraints.force_keep.extend(f.keep.iter().cloned());
        }
        let plan = crate::plan::plan(&model, &an, &config.plan_params(), &constraints)?;
        Ok(Planned { model, an, plan })
    }
}

/// A planned snapshot written to `out` as pretty JSON without building a JSON tree
/// (a 1,000-document snapshot's tree took 250 MB; the text is 26 MB).
pub fn write_planned(planned: &Planned, out: impl std::io::Write) -> serde_json::Result<()> {
    crate::display::write_json_pretty(
        out,
        &Expected::new(&planned.model, &planned.an, &planned.plan),
    )
}

/// [`plan_snapshot`] written to `out` (see [`write_planned`]).
pub fn write_plan(
    snapshot: &Snapshot,
    config: &crate::Config,
    out: impl std::io::Write,
) -> Result<(), WritePlanError> {
    write_planned(&Planned::new(snapshot, config)?, out)?;
    Ok(())
}

/// Why [`write_plan`] failed.
#[derive(Debug, thiserror::Error)]
pub enum WritePlanError {
    #[error(transparent)]
    Plan(#[from] crate::plan::PlanError),
    #[error("writing the plan: {0}")]
    Write(#[from] serde_json::Error),
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fallback_marks_are_optional_and_round_trip() {
        // A snapshot of a version without the marks reads, unmarked.
        let old = r#"{"config": {}, "documents": [{"id": "a", "entities": []}]}"#;
        let s: Snapshot = serde_json::from_str(old).unwrap();
        assert_eq!(s.fallbacks, None);
        assert_eq!(s.documents[0].fallback, None);
        // Unmarked, nothing is written; marked, both marks are.
        let text = serde_json::to_string(&s).unwrap();
        assert!(!text.contains("fallback"), "{text}");
        let mut marked = s;
        marked.fallbacks = Some(1);
        marked.documents[0].fallback = Some("local pass failed: HTTP 500".into());
        let text = serde_json::to_string(&marked).unwrap();
        let back: Snapshot = serde_json::from_str(&text).unwrap();
        assert_eq!(back, marked);
        assert!(text.contains("\"fallbacks\":1"), "{text}");
    }
}
