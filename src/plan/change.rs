//! What a decision changed in the plan: entities newly masked and newly kept, residual
//! documents and chains that appeared or cleared. Plans are compared by entity and
//! document ids, so an entity edit (which rebuilds the model) compares too.

use std::collections::BTreeMap;
use std::fmt;

use super::Plan;
use crate::analysis::{Analysis, Model};

/// An entity as the comparison names it.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct EntityRef {
    #[serde(rename = "type")]
    pub entity_type: String,
    pub value: String,
    pub id: String,
}

/// The facts of one plan that a decision can change.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PlanFacts {
    /// Every entity: id → (masked, type, value).
    entities: BTreeMap<String, (bool, String, String)>,
    /// Residual documents: id → final risk.
    residual_docs: BTreeMap<String, f64>,
    /// Residual chains: document ids → final risk.
    residual_chains: BTreeMap<Vec<String>, f64>,
}

impl PlanFacts {
    pub fn of(model: &Model, analysis: &Analysis, plan: &Plan) -> Self {
        let entities = model
            .entities
            .iter()
            .enumerate()
            .map(|(i, e)| {
                let masked = plan.masked.get(i).copied().unwrap_or(false);
                (
                    e.id.clone(),
                    (masked, e.entity_type.clone(), e.value.clone()),
                )
            })
            .collect();
        let residual_docs = plan
            .residual_docs
            .iter()
            .filter_map(|&d| {
                let doc = model.docs.get(d as usize)?;
                let risk = plan.doc_risk_final.get(d as usize).copied().unwrap_or(0.0);
                Some((doc.id.clone(), risk))
            })
            .collect();
        let residual_chains = plan
            .residual_chains
            .iter()
            .filter_map(|&c| {
                let chain = analysis.chains.get(c as usize)?;
                let ids = chain
                    .docs()
                    .iter()
                    .filter_map(|&d| model.docs.get(d as usize).map(|x| x.id.clone()))
                    .collect();
                let risk = plan.chains.get(c as usize).map_or(0.0, |r| r.risk_final);
                Some((ids, risk))
            })
            .collect();
        PlanFacts {
            entities,
            residual_docs,
            residual_chains,
        }
    }
}

/// The difference between the plan before a decision and the plan after it.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct PlanChange {
    /// Masked after, not before (or new), by type then value.
    pub newly_masked: Vec<EntityRef>,
    /// Masked before, kept after, by type then value.
    pub newly_kept: Vec<EntityRef>,
    /// Residual documents after that were not before, with their risk.
    pub residual_docs_appeared: Vec<(String, f64)>,
    /// Residual documents before that are not any more.
    pub residual_docs_cleared: Vec<String>,
    /// Residual chains after that were not before, with their risk.
    pub residual_chains_appeared: Vec<(Vec<String>, f64)>,
    /// Residual chains before that are not any more.
    pub residual_chains_cleared: Vec<Vec<String>>,
}

impl PlanChange {
    pub fn between(before: &PlanFacts, after: &PlanFacts) -> Self {
        let mut change = PlanChange::default();
        for (id, (masked, ty, value)) in &after.entities {
            let was = before.entities.get(id).map(|(m, _, _)| *m);
            let r = || EntityRef {
                entity_type: ty.clone(),
                value: value.clone(),
                id: id.clone(),
            };
            match (was, masked) {
                (Some(false) | None, true) => change.newly_masked.push(r()),
                (Some(true), false) => change.newly_kept.push(r()),
                _ => {}
            }
        }
        change.newly_masked.sort();
        change.newly_kept.sort();
        for (doc, risk) in &after.residual_docs {
            if !before.residual_docs.contains_key(doc) {
                change.residual_docs_appeared.push((doc.clone(), *risk));
            }
        }
        for doc in before.residual_docs.keys() {
            if !after.residual_docs.contains_key(doc) {
                change.residual_docs_cleared.push(doc.clone());
            }
        }
        for (chain, risk) in &after.residual_chains {
            if !before.residual_chains.contains_key(chain) {
                change.residual_chains_appeared.push((chain.clone(), *risk));
            }
        }
        for chain in before.residual_chains.keys() {
            if !after.residual_chains.contains_key(chain) {
                change.residual_chains_cleared.push(chain.clone());
            }
        }
        change
    }

    /// Nothing changed in the plan.
    pub fn is_empty(&self) -> bool {
        *self == PlanChange::default()
    }
}

/// One line: "+0 −3 masks, call_04 residual 1.00, chain a → b cleared".
impl fmt::Display for PlanChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "+{} −{} masks",
            self.newly_masked.len(),
            self.newly_kept.len()
        )?;
        let mut parts: Vec<String> = Vec::new();
        for (doc, risk) in &self.residual_docs_appeared {
            parts.push(format!("{doc} residual {risk:.2}"));
        }
        for doc in &self.residual_docs_cleared {
            parts.push(format!("{doc} residual cleared"));
        }
        for (chain, risk) in &self.residual_chains_appeared {
            parts.push(format!("chain {} residual {risk:.2}", chain.join(" → ")));
        }
        for chain in &self.residual_chains_cleared {
            parts.push(format!("chain {} residual cleared", chain.join(" → ")));
        }
        const SHOWN: usize = 3;
        for p in parts.iter().take(SHOWN) {
            write!(f, ", {p}")?;
        }
        if parts.len() > SHOWN {
            write!(f, ", and {} more residual change(s)", parts.len() - SHOWN)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts(entities: &[(&str, bool)], docs: &[(&str, f64)]) -> PlanFacts {
        PlanFacts {
            entities: entities
                .iter()
                .map(|&(id, m)| (id.to_string(), (m, "NAME".to_string(), id.to_lowercase())))
                .collect(),
            residual_docs: docs.iter().map(|&(d, r)| (d.to_string(), r)).collect(),
            residual_chains: BTreeMap::new(),
        }
    }

    #[test]
    fn a_change_names_what_was_masked_kept_and_left_residual() {
        let before = facts(&[("A", true), ("B", true), ("C", false)], &[("d2", 0.97)]);
        let after = facts(
            &[("A", false), ("B", true), ("C", true), ("D", true)],
            &[("d1", 1.0)],
        );
        let c = PlanChange::between(&before, &after);
        let ids = |v: &[EntityRef]| v.iter().map(|e| e.id.clone()).collect::<Vec<_>>();
        assert_eq!(ids(&c.newly_masked), ["C", "D"]);
        assert_eq!(ids(&c.newly_kept), ["A"]);
        assert_eq!(
            c.to_string(),
            "+2 −1 masks, d1 residual 1.00, d2 residual cleared"
        );
        assert!(PlanChange::between(&after, &after).is_empty());
        assert_eq!(
            PlanChange::between(&after, &after).to_string(),
            "+0 −0 masks"
        );
    }
}
