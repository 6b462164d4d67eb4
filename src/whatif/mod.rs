//! What-if tuning and threshold sweeps (SPEC §8): a candidate configuration is
//! planned on the workspace's model with the session's forced states (pins and
//! overrides hold under every setting) and compared with the reviewed plan; a sweep
//! plans one parameter over a range. Only `edge_threshold` and `chain_length` need a
//! new analysis; every other parameter re-plans on the reviewed analysis. The
//! terminal UI and `clam sweep` call these; neither computes risk itself.

use std::collections::BTreeSet;

use serde::Serialize;

use crate::analysis::{Analysis, Model, RiskCategory};
use crate::config::{Config, ConfigError};
use crate::plan::{Constraints, Plan, PlanError, plan};
use crate::session::SessionState;
use crate::workspace::Workspace;

use crate::config::params::tidy;
pub use crate::config::params::{Kind, ORIGIN, Param, ParamError, apply_settings};

/// Most plans one sweep computes.
pub const MAX_SWEEP_STEPS: usize = 1000;

/// Errors of what-if values and sweeps; each names the parameter.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum WhatIfError {
    #[error(transparent)]
    Param(#[from] ParamError),
    #[error(transparent)]
    Config(#[from] ConfigError),
    #[error("sweep of {param}: {message}")]
    Sweep {
        param: &'static str,
        message: String,
    },
    #[error(transparent)]
    Plan(#[from] PlanError),
}

/// The parameters whose values differ between two configurations: (param, old, new).
pub fn changes(reviewed: &Config, candidate: &Config) -> Vec<(Param, String, String)> {
    Param::ALL
        .into_iter()
        .filter_map(|p| {
            let (a, b) = (p.value(reviewed), p.value(candidate));
            (a != b).then_some((p, a, b))
        })
        .collect()
}

/// What a what-if plan starts from: the reviewed model, analysis, plan and
/// configuration, and the session's forced states.
#[derive(Debug, Clone, Copy)]
pub struct Basis<'a> {
    pub model: &'a Model,
    pub analysis: &'a Analysis,
    pub plan: &'a Plan,
    pub config: &'a Config,
    pub state: &'a SessionState,
}

impl<'a> Basis<'a> {
    pub fn of(ws: &'a Workspace) -> Self {
        Basis {
            model: ws.model(),
            analysis: ws.analysis(),
            plan: ws.plan(),
            config: ws.config(),
            state: ws.state(),
        }
    }
}

/// An owned [`Basis`], to plan on another thread.
#[derive(Debug, Clone)]
pub struct OwnedBasis {
    /// Shared with the workspace: taking a basis copies no model or analysis.
    pub model: std::sync::Arc<Model>,
    pub analysis: std::sync::Arc<Analysis>,
    pub plan: Plan,
    pub config: Config,
    pub state: SessionState,
}

impl OwnedBasis {
    pub fn of(ws: &Workspace) -> Self {
        OwnedBasis {
            model: ws.model().clone(),
            analysis: ws.analysis().clone(),
            plan: ws.plan().clone(),
            config: ws.config().clone(),
            state: ws.state().clone(),
        }
    }

    pub fn basis(&self) -> Basis<'_> {
        Basis {
            model: &self.model,
            analysis: &self.analysis,
            plan: &self.plan,
            config: &self.config,
            state: &self.state,
        }
    }
}

/// A candidate plan: its configuration, its analysis when that differs from the
/// reviewed one, and the plan.
#[derive(Debug, Clone)]
pub struct Candidate {
    pub config: Config,
    pub analysis: Option<Analysis>,
    pub plan: Plan,
}

impl Candidate {
    /// The analysis the plan was made on.
    pub fn analysis<'a>(&'a self, basis: &Basis<'a>) -> &'a Analysis {
        self.analysis.as_ref().unwrap_or(basis.analysis)
    }
}

fn constraints(config: &Config, state: &SessionState) -> Constraints {
    let mut c = config.constraints();
    c.force_mask = state.force_mask();
    c.force_keep = state.force_keep();
    c
}

/// True when `config` needs another analysis than the basis's.
pub fn needs_analysis(basis: &Basis, config: &Config) -> bool {
    config.analysis_params() != basis.config.analysis_params()
        || config.schema != basis.config.schema
}

/// Plans `config` on the basis's model with its forced states; analyses again only
/// when the analysis parameters differ.
pub fn plan_candidate(basis: &Basis, config: &Config) -> Result<Candidate, WhatIfError> {
    let analysis = needs_analysis(basis, config)
        .then(|| Analysis::new(basis.model, &config.analysis_params()));
    let an = analysis.as_ref().unwrap_or(basis.analysis);
    let plan = plan(
        basis.model,
        an,
        &config.plan_params(),
        &constraints(config, basis.state),
    )?;
    Ok(Candidate {
        config: config.clone(),
        analysis,
        plan,
    })
}

/// The figures of a plan the what-if pane and the sweep compare. Chain figures are
/// over every chain of the plan's analysis (chains of kept edges), with their final
/// risk (after masking).
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct PlanSummary {
    pub masked: usize,
    pub max_chain_risk: f64,
    pub mean_chain_risk: f64,
    pub chains: usize,
    pub high: usize,
    pub medium: usize,
    pub low: usize,
    pub residual_docs: usize,
    pub residual_chains: usize,
}

impl PlanSummary {
    pub fn of(plan: &Plan) -> Self {
        let mut s = PlanSummary {
            masked: plan.masked_count(),
            chains: plan.chains.len(),
            residual_docs: plan.residual_docs.len(),
            residual_chains: plan.residual_chains.len(),
            ..PlanSummary::default()
        };
        let mut sum = 0.0;
        for c in &plan.chains {
            s.max_chain_risk = s.max_chain_risk.max(c.risk_final);
            sum += c.risk_final;
            match c.category_final {
                RiskCategory::High => s.high += 1,
                RiskCategory::Medium => s.medium += 1,
                RiskCategory::Low => s.low += 1,
            }
        }
        if !plan.chains.is_empty() {
            s.mean_chain_risk = sum / plan.chains.len() as f64;
        }
        s
    }
}

/// A candidate plan against the reviewed plan.
#[derive(Debug, Clone, PartialEq)]
pub struct PlanDiff {
    pub reviewed: PlanSummary,
    pub candidate: PlanSummary,
    /// Entities (model indices) masked by the candidate and not by the reviewed
    /// plan, by type then value.
    pub newly_masked: Vec<usize>,
    /// Entities masked by the reviewed plan and not by the candidate.
    pub newly_unmasked: Vec<usize>,
}

/// Compares `candidate` with the basis's (reviewed) plan.
pub fn diff(basis: &Basis, candidate: &Candidate) -> PlanDiff {
    let order = |list: &mut Vec<usize>| {
        list.sort_by(|&a, &b| {
            let (x, y) = (&basis.model.entities[a], &basis.model.entities[b]);
            (&x.entity_type, &x.value, a).cmp(&(&y.entity_type, &y.value, b))
        })
    };
    let (old, new) = (&basis.plan.masked, &candidate.plan.masked);
    let mut newly_masked: Vec<usize> = (0..new.len().min(old.len()))
        .filter(|&i| new[i] && !old[i])
        .collect();
    let mut newly_unmasked: Vec<usize> = (0..new.len().min(old.len()))
        .filter(|&i| old[i] && !new[i])
        .collect();
    order(&mut newly_masked);
    order(&mut newly_unmasked);
    PlanDiff {
        reviewed: PlanSummary::of(basis.plan),
        candidate: PlanSummary::of(&candidate.plan),
        newly_masked,
        newly_unmasked,
    }
}

/// One row of a sweep.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SweepRow {
    pub value: f64,
    pub masked: usize,
    pub max_chain_risk: f64,
    pub mean_chain_risk: f64,
    pub high: usize,
    pub medium: usize,
    pub low: usize,
    /// Chain pairs F1 of the chains flagged ≥ MEDIUM on the unmasked corpus against
    /// the gold chains, when gold was given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub f1: Option<f64>,
    /// Person leak rate after redaction (mean over the HIGH and MEDIUM clusters of
    /// the gold persons, SPEC §10), when gold persons were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub leak_rate: Option<f64>,
}

/// Measures a plan's mask set (model entity indices) for a sweep: the person leak
/// rate, from [`crate::eval::MaskProbe::leak_rate`].
pub type LeakRate<'a> = &'a (dyn Fn(&[bool]) -> Option<f64> + Sync);

/// The values of a sweep: `from`, `from + step`, … up to `to` (inclusive, within
/// rounding), each valid for `param` with the rest of `config`.
pub fn sweep_values(
    param: Param,
    config: &Config,
    from: f64,
    to: f64,
    step: f64,
) -> Result<Vec<f64>, WhatIfError> {
    let err = |message: String| WhatIfError::Sweep {
        param: param.name(),
        message,
    };
    if param.number(config).is_none() {
        return Err(err(format!(
            "not a numeric parameter; sweep one of: {}",
            Param::ALL
                .into_iter()
                .filter(|p| p.number(config).is_some())
                .map(Param::name)
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    if !(from.is_finite() && to.is_finite() && step.is_finite()) {
        return Err(err("from, to and step must be numbers".into()));
    }
    if step <= 0.0 {
        return Err(err(format!("step {step} must be above 0")));
    }
    if from > to {
        return Err(err(format!("from {from} is above to {to}")));
    }
    let span = (to - from) / step;
    if span + 1.0 > MAX_SWEEP_STEPS as f64 {
        return Err(err(format!(
            "{from}..{to} by {step} is {} steps; at most {MAX_SWEEP_STEPS}: use a larger step",
            span.floor() as u64 + 1
        )));
    }
    let n = (span + 1e-9).floor() as usize + 1;
    let values: Vec<f64> = (0..n).map(|i| tidy(from + i as f64 * step)).collect();
    for &v in &values {
        param
            .set_number(config, v)
            .map_err(|e| err(e.to_string()))?;
    }
    Ok(values)
}

/// Plans the basis with `param` set to each value of `from..=to` by `step`
/// (`range`; see [`sweep_values`]). Forced states hold at every value. With `gold`
/// chains, each row carries the chain pairs F1 of the analysis at that value.
/// `stop` is asked before each value: when it says so the sweep ends with an error
/// (the workspace cancels a sweep a newer one supersedes).
pub fn sweep(
    basis: &Basis,
    param: Param,
    range: (f64, f64, f64),
    gold: Option<&[Vec<String>]>,
    leak: Option<LeakRate>,
    stop: &dyn Fn() -> bool,
) -> Result<Vec<SweepRow>, WhatIfError> {
    sweep_with(
        basis,
        param,
        range,
        gold,
        leak,
        stop,
        &crate::progress::Silent,
    )
}

/// [`sweep`], reporting each value planned to `progress`.
pub fn sweep_with(
    basis: &Basis,
    param: Param,
    (from, to, step): (f64, f64, f64),
    gold: Option<&[Vec<String>]>,
    leak: Option<LeakRate>,
    stop: &dyn Fn() -> bool,
    progress: &dyn crate::progress::Progress,
) -> Result<Vec<SweepRow>, WhatIfError> {
    let values = sweep_values(param, basis.config, from, to, step)?;
    progress.stage(
        "sweeping",
        values.len() as u64,
        crate::progress::Unit::Values,
    );
    let gold_pairs = gold.map(crate::eval::metrics::pairs_of);
    let mut rows = Vec::with_capacity(values.len());
    for v in values {
        if stop() {
            return Err(WhatIfError::Sweep {
                param: param.name(),
                message: "stopped".into(),
            });
        }
        let config = param.set_number(basis.config, v)?;
        let cand = plan_candidate(basis, &config)?;
        let s = PlanSummary::of(&cand.plan);
        let f1 = gold_pairs.as_ref().map(|g| {
            let flagged = cand.analysis(basis).flagged_chains(
                basis.model,
                config.plan.risk_high,
                config.plan.risk_medium,
            );
            let predicted: BTreeSet<_> = crate::eval::metrics::pairs_of(&flagged);
            crate::eval::metrics::Prf::of_sets(&predicted, g).f1
        });
        rows.push(SweepRow {
            value: v,
            masked: s.masked,
            max_chain_risk: s.max_chain_risk,
            mean_chain_risk: s.mean_chain_risk,
            high: s.high,
            medium: s.medium,
            low: s.low,
            f1,
            leak_rate: leak.and_then(|f| f(&cand.plan.masked)),
        });
        progress.advance(1);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests;
