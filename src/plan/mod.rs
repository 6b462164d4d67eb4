//! The masking planner (SPEC §4, thesis §4.4): forced states and type policies, the
//! greedy document stage, the chain stage (greedy or knapsack), pruning (stage 3), and
//! provenance for every masked and kept entity.

mod change;
mod knapsack;
mod parallel;
mod provenance;
mod prune;

pub use change::{EntityRef, PlanChange, PlanFacts};
pub use parallel::{components, plan_parallel, plan_parallel_always};
pub use provenance::ProvenanceText;

use std::collections::BTreeSet;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::analysis::{Analysis, Model, RiskCategory};

/// Chain-stage strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    Greedy,
    #[default]
    Knapsack,
}

/// Utility cost of masking an entity in the knapsack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum UtilityCost {
    /// Total mention count over the corpus.
    #[default]
    Mentions,
    /// 1 per entity.
    Count,
}

/// Thresholds of the planner (SPEC §4 defaults: the thesis's final configuration).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct PlanParams {
    pub risk_high: f64,
    pub risk_medium: f64,
    pub theta_doc: f64,
    pub theta_chain: f64,
    pub rho_high: f64,
    pub rho_medium: f64,
    pub strategy: Strategy,
    pub utility_cost: UtilityCost,
    /// Stage 3: release the masks no bound needs (`false`: the thesis's planner).
    #[serde(default = "yes")]
    pub prune: bool,
}

fn yes() -> bool {
    true
}

impl Default for PlanParams {
    fn default() -> Self {
        PlanParams {
            risk_high: 0.75,
            risk_medium: 0.5,
            theta_doc: 0.95,
            theta_chain: 0.5,
            rho_high: 0.5,
            rho_medium: 0.7,
            strategy: Strategy::Knapsack,
            utility_cost: UtilityCost::Mentions,
            prune: true,
        }
    }
}

/// Auditor and policy constraints on the plan.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Constraints {
    /// Entity ids forced to be masked.
    pub force_mask: BTreeSet<String>,
    /// Entity ids forced to be kept.
    pub force_keep: BTreeSet<String>,
    /// Types masked up front (stage `policy`).
    pub always_mask: BTreeSet<String>,
    /// Types never masked by the planner.
    pub never_mask: BTreeSet<String>,
}

/// Stage that masked an entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Stage {
    Forced,
    Policy,
    Document,
    Chain,
}

impl Stage {
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Forced => "forced",
            Stage::Policy => "policy",
            Stage::Document => "document",
            Stage::Chain => "chain",
        }
    }
}

/// What caused a masking event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cause {
    /// A document (model index).
    Document(u32),
    /// A chain (index into `Analysis::chains`).
    Chain(u32),
}

/// One masking event of the document or chain stage.
#[derive(Debug, Clone, PartialEq)]
pub struct MaskEvent {
    pub entity: u32,
    pub stage: Stage,
    pub cause: Cause,
    pub risk_before: f64,
    pub risk_after: f64,
}

/// Why an entity is masked or kept.
#[derive(Debug, Clone, PartialEq)]
pub enum Provenance {
    Masked {
        stage: Stage,
        /// None for forced and policy masks.
        cause: Option<Cause>,
        risk_before: Option<f64>,
        risk_after: Option<f64>,
    },
    /// Masked by the document or chain stage (`stage`, `cause`, risks before and
    /// after as then), then released by pruning: every bound holds without it. The
    /// document or chain that caused the mask ends at `cause_risk` under its bound
    /// `cause_bound` (`max(theta_doc, R(d, M))`, or `max(T, R_chain(M))`).
    KeptPruned {
        stage: Stage,
        cause: Cause,
        risk_before: f64,
        risk_after: f64,
        cause_risk: f64,
        cause_bound: f64,
    },
    KeptForced,
    KeptNeverMask,
    /// Not needed: the highest final risk of its documents, and the number of target
    /// chains it is in (which reached their targets without it, or are residual).
    KeptNotNeeded {
        max_doc_risk: f64,
        target_chains: usize,
    },
}

/// Per-chain results (40 bytes: there are ten million at a million documents).
#[derive(Debug, Clone)]
pub struct ChainResult {
    pub risk_initial: f64,
    pub risk_pre: f64,
    pub risk_final: f64,
    /// The target, NaN for none: see [`ChainResult::target`].
    target: f64,
    pub category_initial: RiskCategory,
    pub category_pre: RiskCategory,
    pub category_final: RiskCategory,
}

impl ChainResult {
    /// `T = min(theta_chain, rho[category] · R_pre)` for targets (chains MEDIUM or HIGH
    /// after the document stage).
    pub fn target(&self) -> Option<f64> {
        (!self.target.is_nan()).then_some(self.target)
    }
}

const _: () = assert!(std::mem::size_of::<ChainResult>() == 40);

impl PartialEq for ChainResult {
    fn eq(&self, other: &Self) -> bool {
        self.risk_initial == other.risk_initial
            && self.risk_pre == other.risk_pre
            && self.risk_final == other.risk_final
            && self.target() == other.target()
            && self.category_initial == other.category_initial
            && self.category_pre == other.category_pre
            && self.category_final == other.category_final
    }
}

/// The masking plan (the default is the plan of an empty corpus).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Plan {
    pub masked: Vec<bool>,
    pub masked_after_document_stage: Vec<bool>,
    /// Entities masked by stages 1–2 and released by pruning, ascending.
    pub pruned: Vec<u32>,
    /// Every masking event of stages 1–2, including those pruning released.
    pub events: Vec<MaskEvent>,
    pub provenance: Vec<Provenance>,
    pub doc_risk_final: Vec<f64>,
    pub chains: Vec<ChainResult>,
    /// Documents still above theta_doc.
    pub residual_docs: Vec<u32>,
    /// Target chains still above their target.
    pub residual_chains: Vec<u32>,
    /// Forced ids unknown to the corpus (ignored).
    pub warnings: Vec<String>,
}

/// Errors of the planner's input.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum PlanError {
    #[error("entity {0} is forced both to mask and to keep")]
    ForcedBoth(String),
}

/// Ties of the document stage: higher `s_e`, then higher `w_type`, then smaller id.
fn better_doc_candidate(model: &Model, an: &Analysis, a: u32, b: u32) -> bool {
    let (sa, sb) = (
        an.global_contribution[a as usize],
        an.global_contribution[b as usize],
    );
    if sa != sb {
        return sa > sb;
    }
    let (wa, wb) = (
        model.entities[a as usize].weight,
        model.entities[b as usize].weight,
    );
    if wa != wb {
        return wa > wb;
    }
    a < b
}

/// Stage, cause, risk before and risk after of an entity's masking.
type MaskRecord = (Stage, Option<Cause>, Option<f64>, Option<f64>);

struct Ctx<'a> {
    model: &'a Model,
    an: &'a Analysis,
    params: &'a PlanParams,
    /// Entities that may never be chosen (forced keep, never_mask types).
    blocked: Vec<bool>,
    masked: Vec<bool>,
    events: Vec<MaskEvent>,
    stage_of: Vec<Option<MaskRecord>>,
}

impl Ctx<'_> {
    fn mask(&mut self, e: u32, stage: Stage, cause: Cause, before: f64, after: f64) {
        self.masked[e as usize] = true;
        self.events.push(MaskEvent {
            entity: e,
            stage,
            cause,
            risk_before: before,
            risk_after: after,
        });
        self.stage_of[e as usize] = Some((stage, Some(cause), Some(before), Some(after)));
    }

    fn document_stage(&mut self) {
        for d in 0..self.model.docs.len() {
            let mut r = self.an.doc_risk(d, &self.masked);
            while r > self.params.theta_doc {
                let mut best: Option<u32> = None;
                for &(e, _) in &self.model.docs[d].entities {
                    if self.masked[e as usize] || self.blocked[e as usize] {
                        continue;
                    }
                    if best.is_none_or(|b| better_doc_candidate(self.model, self.an, e, b)) {
                        best = Some(e);
                    }
                }
                let Some(e) = best else { break };
                self.masked[e as usize] = true;
                let after = self.an.doc_risk(d, &self.masked);
                self.mask(e, Stage::Document, Cause::Document(d as u32), r, after);
                r = after;
            }
        }
    }

    /// Candidates of a chain in impact order: (entity, impact).
    fn candidates(&mut self, chain: usize, r: f64) -> Vec<(u32, f64)> {
        let an = self.an;
        let model = self.model;
        let c = &an.chains[chain];
        let mut ids: Vec<u32> = c
            .docs()
            .iter()
            .flat_map(|&d| model.docs[d as usize].entities.iter().map(|(e, _)| *e))
            .filter(|&e| !self.masked[e as usize] && !self.blocked[e as usize])
            .collect();
        ids.sort_unstable();
        ids.dedup();
        // Risks under M; a candidate only changes the documents and hops that hold it,
        // so the others are reused (the same values the full recomputation yields).
        let doc_risk: Vec<f64> = c
            .docs()
            .iter()
            .map(|&d| an.doc_risk(d as usize, &self.masked))
            .collect();
        let strength: Vec<f64> = c
            .hops()
            .iter()
            .map(|&h| an.edges[h as usize].strength_with(&self.masked))
            .collect();
        let holds = |d: u32, e: u32| {
            model.docs[d as usize]
                .entities
                .binary_search_by_key(&e, |x| x.0)
                .is_ok()
        };
        let mut out: Vec<(u32, f64)> = ids
            .into_iter()
            .map(|e| {
                self.masked[e as usize] = true;
                let risk_of = |k: usize| {
                    let d = c.docs()[k];
                    if holds(d, e) {
                        an.doc_risk(d as usize, &self.masked)
                    } else {
                        doc_risk[k]
                    }
                };
                let with = crate::analysis::one_minus_product(c.hops().iter().enumerate().map(
                    |(k, &h)| {
                        let edge = &an.edges[h as usize];
                        let s = if edge.via.binary_search_by_key(&e, |x| x.0).is_ok() {
                            edge.strength_with(&self.masked)
                        } else {
                            strength[k]
                        };
                        crate::analysis::hop_risk_of(s, risk_of(k), risk_of(k + 1))
                    },
                ));
                self.masked[e as usize] = false;
                (e, r - with)
            })
            .collect();
        out.sort_by(|a, b| {
            b.1.total_cmp(&a.1)
                .then(
                    an.global_contribution[b.0 as usize]
                        .total_cmp(&an.global_contribution[a.0 as usize]),
                )
                .then(a.0.cmp(&b.0))
        });
        out
    }

    fn greedy_chain(&mut self, chain: usize, target: f64) {
        loop {
            let r = self.an.chain_risk(&self.an.chains[chain], &self.masked);
            if r <= target {
                return;
            }
            let cands = self.candidates(chain, r);
            let Some(&(e, impact)) = cands.first() else {
                return;
            };
            if impact <= 1e-12 {
                return;
            }
            self.masked[e as usize] = true;
            let after = self.an.chain_risk(&self.an.chains[chain], &self.masked);
            self.mask(e, Stage::Chain, Cause::Chain(chain as u32), r, after);
        }
    }

    fn knapsack_chain(&mut self, chain: usize, target: f64) {
        for _round in 0..10 {
            let r = self.an.chain_risk(&self.an.chains[chain], &self.masked);
            if r <= target {
                return;
            }
            let cands = self.candidates(chain, r);
            let items: Vec<(u32, u64, u64)> = cands
                .iter()
                .filter_map(|&(e, impact)| {
                    let w = (impact * 1e4 + 0.5).floor();
                    (w >= 1.0)
                        .then(|| (e, w as u64, prune::utility_cost(self.model, self.params, e)))
                })
                .take(64)
                .collect();
            let need = ((r - target) * 1e4).ceil().max(0.0) as u64;
            let weights: Vec<(u64, u64)> = items.iter().map(|&(_, w, c)| (w, c)).collect();
            let Some(chosen) = knapsack::min_cost_cover(&weights, need) else {
                break;
            };
            let set: Vec<u32> = chosen.iter().map(|&i| items[i].0).collect();
            for &e in &set {
                self.masked[e as usize] = true;
            }
            let after = self.an.chain_risk(&self.an.chains[chain], &self.masked);
            for &e in &set {
                self.mask(e, Stage::Chain, Cause::Chain(chain as u32), r, after);
            }
        }
        self.greedy_chain(chain, target);
    }
}

/// Runs the planner.
pub fn plan(
    model: &Model,
    an: &Analysis,
    params: &PlanParams,
    constraints: &Constraints,
) -> Result<Plan, PlanError> {
    let ne = model.entities.len();
    let mut warnings = Vec::new();
    if let Some(id) = constraints
        .force_mask
        .intersection(&constraints.force_keep)
        .next()
    {
        return Err(PlanError::ForcedBoth(id.clone()));
    }
    let mut forced_mask = vec![false; ne];
    let mut forced_keep = vec![false; ne];
    for (set, flags, what) in [
        (&constraints.force_mask, &mut forced_mask, "mask"),
        (&constraints.force_keep, &mut forced_keep, "keep"),
    ] {
        for id in set {
            match model.entity_index(id) {
                Some(i) => flags[i] = true,
                None => warnings.push(format!(
                    "forced {what} of entity {id} ignored: it does not occur in the corpus"
                )),
            }
        }
    }
    let mut ctx = Ctx {
        model,
        an,
        params,
        blocked: (0..ne)
            .map(|i| {
                forced_keep[i]
                    || constraints
                        .never_mask
                        .contains(&model.entities[i].entity_type)
            })
            .collect(),
        masked: forced_mask.clone(),
        events: Vec::new(),
        stage_of: vec![None; ne],
    };
    for i in 0..ne {
        if forced_mask[i] {
            ctx.stage_of[i] = Some((Stage::Forced, None, None, None));
        } else if !forced_keep[i]
            && constraints
                .always_mask
                .contains(&model.entities[i].entity_type)
        {
            ctx.masked[i] = true;
            ctx.stage_of[i] = Some((Stage::Policy, None, None, None));
        }
    }

    ctx.document_stage();
    let masked_after_document_stage = ctx.masked.clone();

    // R(d) with nothing masked and under the masks of stages 1 and policy/forced,
    // once per document instead of once per hop of every chain through it (the same
    // products, so the same values as `Analysis::chain_risk`).
    let empty = vec![false; ne];
    let doc_risk_pre: Vec<f64> = (0..model.docs.len())
        .map(|d| an.doc_risk(d, &ctx.masked))
        .collect();
    let chain_risk_of = |c: &crate::analysis::Chain, masked: &[bool], doc_risk: &[f64]| {
        crate::analysis::one_minus_product(c.hops().iter().map(|&h| {
            let e = &an.edges[h as usize];
            crate::analysis::hop_risk_of(
                e.strength_with(masked),
                doc_risk[e.a as usize],
                doc_risk[e.b as usize],
            )
        }))
    };
    let mut chains: Vec<ChainResult> = an
        .chains
        .iter()
        .map(|c| {
            let risk_initial = chain_risk_of(c, &empty, &an.doc_risk_initial);
            let risk_pre = chain_risk_of(c, &ctx.masked, &doc_risk_pre);
            let category_pre = RiskCategory::of(risk_pre, params.risk_high, params.risk_medium);
            let target = match category_pre {
                RiskCategory::High => Some(params.theta_chain.min(params.rho_high * risk_pre)),
                RiskCategory::Medium => Some(params.theta_chain.min(params.rho_medium * risk_pre)),
                RiskCategory::Low => None,
            };
            ChainResult {
                risk_initial,
                category_initial: RiskCategory::of(
                    risk_initial,
                    params.risk_high,
                    params.risk_medium,
                ),
                risk_pre,
                category_pre,
                risk_final: risk_pre,
                category_final: category_pre,
                target: target.unwrap_or(f64::NAN),
            }
        })
        .collect();
    let mut targets: Vec<u32> = (0..chains.len() as u32)
        .filter(|&i| chains[i as usize].target().is_some())
        .collect();
    // Descending R_pre; ties keep the chains' canonical (lexicographic) order.
    targets.sort_by(|&a, &b| {
        chains[b as usize]
            .risk_pre
            .total_cmp(&chains[a as usize].risk_pre)
    });
    for &c in &targets {
        let c = c as usize;
        let Some(t) = chains[c].target() else {
            continue;
        };
        match params.strategy {
            Strategy::Greedy => ctx.greedy_chain(c, t),
            Strategy::Knapsack => ctx.knapsack_chain(c, t),
        }
    }

    let mut masked = ctx.masked;
    let pruning = params.prune.then(|| {
        let candidates = (0..ne as u32)
            .filter(|&e| {
                matches!(
                    ctx.stage_of[e as usize],
                    Some((Stage::Document | Stage::Chain, ..))
                )
            })
            .collect();
        prune::prune(model, an, params, &chains, candidates, &mut masked)
    });
    let doc_risk_final: Vec<f64> = match &pruning {
        Some(p) => p.doc_risk.clone(),
        None => (0..model.docs.len())
            .map(|d| an.doc_risk(d, &masked))
            .collect(),
    };
    let mut residual_chains = Vec::new();
    for (i, c) in chains.iter_mut().enumerate() {
        c.risk_final = match &pruning {
            Some(p) => p.chain_risk[i],
            None => an.chain_risk(&an.chains[i], &masked),
        };
        c.category_final = RiskCategory::of(c.risk_final, params.risk_high, params.risk_medium);
        if c.target().is_some_and(|t| c.risk_final > t) {
            residual_chains.push(i as u32);
        }
    }
    let residual_docs = (0..model.docs.len() as u32)
        .filter(|&d| doc_risk_final[d as usize] > params.theta_doc)
        .collect();

    // Target chains per entity, each chain counted once however many of its documents
    // hold the entity (`last_chain`: the chain that counted it last).
    let mut target_chains_of_entity = vec![0usize; ne];
    let mut last_chain = vec![u32::MAX; ne];
    for &c in &targets {
        for &d in an.chains[c as usize].docs() {
            for &(e, _) in &model.docs[d as usize].entities {
                if last_chain[e as usize] != c {
                    last_chain[e as usize] = c;
                    target_chains_of_entity[e as usize] += 1;
                }
            }
        }
    }
    drop(last_chain);
    let provenance = (0..ne)
        .map(|i| {
            if let (Some(p), Some((stage, Some(cause), Some(before), Some(after)))) =
                (&pruning, ctx.stage_of[i])
                && !masked[i]
            {
                let (cause_risk, cause_bound) = match cause {
                    Cause::Document(d) => (doc_risk_final[d as usize], p.doc_bound[d as usize]),
                    Cause::Chain(c) => (chains[c as usize].risk_final, p.chain_bound[c as usize]),
                };
                Provenance::KeptPruned {
                    stage,
                    cause,
                    risk_before: before,
                    risk_after: after,
                    cause_risk,
                    cause_bound,
                }
            } else if let Some((stage, cause, before, after)) = ctx.stage_of[i] {
                Provenance::Masked {
                    stage,
                    cause,
                    risk_before: before,
                    risk_after: after,
                }
            } else if forced_keep[i] {
                Provenance::KeptForced
            } else if constraints
                .never_mask
                .contains(&model.entities[i].entity_type)
            {
                Provenance::KeptNeverMask
            } else {
                let max_doc_risk = an.entity_docs[i]
                    .iter()
                    .map(|&d| doc_risk_final[d as usize])
                    .fold(0.0, f64::max);
                Provenance::KeptNotNeeded {
                    max_doc_risk,
                    target_chains: target_chains_of_entity[i],
                }
            }
        })
        .collect();

    Ok(Plan {
        masked,
        masked_after_document_stage,
        pruned: pruning.map(|p| p.released).unwrap_or_default(),
        events: ctx.events,
        provenance,
        doc_risk_final,
        chains,
        residual_docs,
        residual_chains,
        warnings,
    })
}

impl Plan {
    pub fn masked_count(&self) -> usize {
        self.masked.iter().filter(|m| **m).count()
    }

    /// True when stage 1 or 2 masked entity `e` and pruning released it (it is kept).
    pub fn is_released(&self, e: usize) -> bool {
        matches!(self.provenance.get(e), Some(Provenance::KeptPruned { .. }))
    }
}

#[cfg(test)]
mod tests;
