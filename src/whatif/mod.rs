//! What-if tuning and threshold sweeps (SPEC §8): a candidate configuration is
//! planned on the workspace's model with the session's forced states (pins and
//! overrides hold under every setting) and compared with the reviewed plan; a sweep
//! plans one parameter over a range. Only `edge_threshold` and `chain_length` need a
//! new analysis; every other parameter re-plans on the reviewed analysis. The
//! terminal UI and `clam sweep` call these; neither computes risk itself.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::Serialize;

use crate::analysis::{Analysis, Model, RiskCategory};
use crate::config::{Config, ConfigError, ConfigLayer, MAX_CHAIN_LENGTH};
use crate::plan::{Constraints, Plan, PlanError, plan};
use crate::session::SessionState;
use crate::workspace::Workspace;

/// Where what-if values come from, in error messages.
pub const ORIGIN: &str = "what-if";

/// Most plans one sweep computes.
pub const MAX_SWEEP_STEPS: usize = 1000;

/// A tunable parameter: every threshold of SPEC §4 and the redaction mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Param {
    EdgeThreshold,
    ChainLength,
    RiskHigh,
    RiskMedium,
    ThetaDoc,
    ThetaChain,
    RhoHigh,
    RhoMedium,
    Strategy,
    UtilityCost,
    Redaction,
}

/// What kind of value a parameter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A number in a sub-range of [0, 1].
    Unit,
    /// A whole number (chain_length).
    Whole,
    /// One of a few words.
    Choice(&'static [&'static str]),
}

/// Errors of what-if values and sweeps; each names the parameter.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum WhatIfError {
    #[error("unknown parameter {0:?}; the parameters are: {list}", list = Param::names())]
    UnknownParam(String),
    #[error("{param}: {value:?} is not {expected}")]
    BadValue {
        param: &'static str,
        value: String,
        expected: String,
    },
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

const STRATEGIES: &[&str] = &["greedy", "knapsack"];
const COSTS: &[&str] = &["mentions", "count"];
const MODES: &[&str] = &["redact", "value", "pseudonym", "generalize"];

/// Rounds away binary noise so 0.5 − 0.01 shows (and is stored) as 0.49.
fn tidy(v: f64) -> f64 {
    (v * 1e9).round() / 1e9
}

impl Param {
    pub const ALL: [Param; 11] = [
        Param::EdgeThreshold,
        Param::ChainLength,
        Param::RiskHigh,
        Param::RiskMedium,
        Param::ThetaDoc,
        Param::ThetaChain,
        Param::RhoHigh,
        Param::RhoMedium,
        Param::Strategy,
        Param::UtilityCost,
        Param::Redaction,
    ];

    /// The configuration key.
    pub fn name(self) -> &'static str {
        match self {
            Param::EdgeThreshold => "edge_threshold",
            Param::ChainLength => "chain_length",
            Param::RiskHigh => "risk_high",
            Param::RiskMedium => "risk_medium",
            Param::ThetaDoc => "theta_doc",
            Param::ThetaChain => "theta_chain",
            Param::RhoHigh => "rho_high",
            Param::RhoMedium => "rho_medium",
            Param::Strategy => "strategy",
            Param::UtilityCost => "utility_cost",
            Param::Redaction => "redaction",
        }
    }

    fn names() -> String {
        Param::ALL.map(Param::name).join(", ")
    }

    /// Parses a configuration key (`theta_chain`, also `theta-chain`).
    pub fn parse(name: &str) -> Result<Param, WhatIfError> {
        let key = name.trim().replace('-', "_");
        Param::ALL
            .into_iter()
            .find(|p| p.name() == key)
            .ok_or_else(|| WhatIfError::UnknownParam(name.to_string()))
    }

    pub fn kind(self) -> Kind {
        match self {
            Param::ChainLength => Kind::Whole,
            Param::Strategy => Kind::Choice(STRATEGIES),
            Param::UtilityCost => Kind::Choice(COSTS),
            Param::Redaction => Kind::Choice(MODES),
            _ => Kind::Unit,
        }
    }

    /// True when a change needs a new analysis (edges, chains), not only a re-plan.
    pub fn needs_analysis(self) -> bool {
        matches!(self, Param::EdgeThreshold | Param::ChainLength)
    }

    /// False for the redaction mode: it changes the replacements, not the plan.
    pub fn affects_plan(self) -> bool {
        self != Param::Redaction
    }

    /// The value in `config`, when the parameter is a number.
    pub fn number(self, c: &Config) -> Option<f64> {
        Some(match self {
            Param::EdgeThreshold => c.edge_threshold,
            Param::ChainLength => c.chain_length as f64,
            Param::RiskHigh => c.risk_high,
            Param::RiskMedium => c.risk_medium,
            Param::ThetaDoc => c.theta_doc,
            Param::ThetaChain => c.theta_chain,
            Param::RhoHigh => c.rho_high,
            Param::RhoMedium => c.rho_medium,
            Param::Strategy | Param::UtilityCost | Param::Redaction => return None,
        })
    }

    /// The value in `config` as text (as stored in the session and typed by a user).
    pub fn value(self, c: &Config) -> String {
        match self {
            Param::Strategy => word(&c.strategy),
            Param::UtilityCost => word(&c.utility_cost),
            Param::Redaction => c.redaction.as_str().to_string(),
            Param::ChainLength => c.chain_length.to_string(),
            _ => self.number(c).map(tidy).unwrap_or_default().to_string(),
        }
    }

    /// The values allowed given the rest of `config` (risk_medium ≤ risk_high),
    /// for numeric parameters.
    pub fn range(self, c: &Config) -> Option<(f64, f64)> {
        match self.kind() {
            Kind::Choice(_) => None,
            Kind::Whole => Some((2.0, MAX_CHAIN_LENGTH as f64)),
            Kind::Unit => Some(match self {
                Param::RiskHigh => (c.risk_medium, 1.0),
                Param::RiskMedium => (0.0, c.risk_high),
                _ => (0.0, 1.0),
            }),
        }
    }

    /// Fine and coarse steps of a numeric parameter.
    pub fn steps(self) -> (f64, f64) {
        match self.kind() {
            Kind::Whole => (1.0, 1.0),
            _ => (0.01, 0.1),
        }
    }

    /// `config` with this parameter set to `text`, validated like a configuration
    /// file (an error names the key and leaves nothing changed).
    pub fn set(self, c: &Config, text: &str) -> Result<Config, WhatIfError> {
        let mut out = c.clone();
        self.assign(&mut out, text)?;
        out.validate(ORIGIN)?;
        Ok(out)
    }

    /// `config` with this numeric parameter set to `v`, validated.
    pub fn set_number(self, c: &Config, v: f64) -> Result<Config, WhatIfError> {
        let mut out = c.clone();
        self.assign_number(&mut out, v)?;
        out.validate(ORIGIN)?;
        Ok(out)
    }

    /// Sets this parameter to `text` with the checks of its own key only (range,
    /// word); [`Config::validate`] checks the whole afterwards.
    pub fn assign(self, c: &mut Config, text: &str) -> Result<(), WhatIfError> {
        let text = text.trim();
        let bad = |expected: String| WhatIfError::BadValue {
            param: self.name(),
            value: text.to_string(),
            expected,
        };
        match self.kind() {
            Kind::Choice(words) => {
                let w = text.to_lowercase();
                if !words.contains(&w.as_str()) {
                    return Err(bad(format!("one of {}", words.join(", "))));
                }
                let v = serde_json::Value::String(w);
                let parsed = match self {
                    Param::Strategy => serde_json::from_value(v).map(|s| c.strategy = s),
                    Param::UtilityCost => serde_json::from_value(v).map(|s| c.utility_cost = s),
                    _ => serde_json::from_value(v).map(|s| c.redaction = s),
                };
                parsed.map_err(|e| bad(e.to_string()))
            }
            Kind::Whole => {
                let k: usize = text
                    .parse()
                    .map_err(|_| bad(format!("a whole number (2..={MAX_CHAIN_LENGTH})")))?;
                self.assign_number(c, k as f64)
            }
            Kind::Unit => {
                let v: f64 = text.parse().map_err(|_| bad("a number in [0, 1]".into()))?;
                self.assign_number(c, v)
            }
        }
    }

    /// Sets this numeric parameter to `v`, checked like a configuration file key.
    pub fn assign_number(self, c: &mut Config, v: f64) -> Result<(), WhatIfError> {
        let mut layer = ConfigLayer::default();
        let v = tidy(v);
        match self {
            Param::EdgeThreshold => layer.edge_threshold = Some(v),
            Param::ChainLength => {
                if v.fract() != 0.0 || v < 0.0 {
                    return Err(WhatIfError::BadValue {
                        param: self.name(),
                        value: v.to_string(),
                        expected: format!("a whole number (2..={MAX_CHAIN_LENGTH})"),
                    });
                }
                layer.chain_length = Some(v as usize);
            }
            Param::RiskHigh => layer.risk_high = Some(v),
            Param::RiskMedium => layer.risk_medium = Some(v),
            Param::ThetaDoc => layer.theta_doc = Some(v),
            Param::ThetaChain => layer.theta_chain = Some(v),
            Param::RhoHigh => layer.rho_high = Some(v),
            Param::RhoMedium => layer.rho_medium = Some(v),
            Param::Strategy | Param::UtilityCost | Param::Redaction => {
                return Err(WhatIfError::BadValue {
                    param: self.name(),
                    value: v.to_string(),
                    expected: "a word, not a number".into(),
                });
            }
        }
        layer.validate(ORIGIN)?;
        layer.apply(c, ORIGIN)?;
        Ok(())
    }

    /// `config` moved one step up (`up`) or down: a fine or coarse step for numbers,
    /// kept inside [`Param::range`]; the next or previous word for choices.
    pub fn step(self, c: &Config, up: bool, coarse: bool) -> Result<Config, WhatIfError> {
        match self.kind() {
            Kind::Choice(words) => {
                let cur = self.value(c);
                let i = words.iter().position(|w| *w == cur).unwrap_or(0);
                let n = words.len();
                let j = if up { (i + 1) % n } else { (i + n - 1) % n };
                self.set(c, words[j])
            }
            _ => {
                let (fine, big) = self.steps();
                let step = if coarse { big } else { fine };
                let (lo, hi) = self.range(c).unwrap_or((0.0, 1.0));
                let cur = self.number(c).unwrap_or(lo);
                let next = tidy(if up { cur + step } else { cur - step }).clamp(lo, hi);
                self.set_number(c, next)
            }
        }
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The serde name of an enum value (`knapsack`).
fn word<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
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

/// `config` with adopted session settings (key → value) applied. A setting that no
/// longer applies (unknown key, bad value) is skipped, and if the result is invalid
/// as a whole (risk_medium above risk_high after a configuration file changed) no
/// setting is applied; the returned warnings say which.
pub fn apply_settings(
    config: &Config,
    settings: &BTreeMap<String, String>,
) -> (Config, Vec<String>) {
    let mut out = config.clone();
    let mut warnings = Vec::new();
    for (key, value) in settings {
        if let Err(e) = Param::parse(key).and_then(|p| p.assign(&mut out, value)) {
            warnings.push(format!(
                "adopted setting {key} = {value} no longer applies: {e}"
            ));
        }
    }
    if let Err(e) = out.validate(ORIGIN) {
        warnings.push(format!(
            "adopted settings no longer apply together ({e}); the configuration is used as is"
        ));
        return (config.clone(), warnings);
    }
    (out, warnings)
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
            model: &ws.model,
            analysis: &ws.analysis,
            plan: &ws.plan,
            config: &ws.config,
            state: &ws.state,
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
            model: ws.model.clone(),
            analysis: ws.analysis.clone(),
            plan: ws.plan.clone(),
            config: ws.config.clone(),
            state: ws.state.clone(),
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

/// Plans the basis with `param` set to each value of `from..=to` by `step` (see
/// [`sweep_values`]). Forced states hold at every value. With `gold` chains, each
/// row carries the chain pairs F1 of the analysis at that value.
pub fn sweep(
    basis: &Basis,
    param: Param,
    from: f64,
    to: f64,
    step: f64,
    gold: Option<&[Vec<String>]>,
    leak: Option<LeakRate>,
) -> Result<Vec<SweepRow>, WhatIfError> {
    let values = sweep_values(param, basis.config, from, to, step)?;
    let gold_pairs = gold.map(crate::eval::metrics::pairs_of);
    let mut rows = Vec::with_capacity(values.len());
    for v in values {
        let config = param.set_number(basis.config, v)?;
        let cand = plan_candidate(basis, &config)?;
        let s = PlanSummary::of(&cand.plan);
        let f1 = gold_pairs.as_ref().map(|g| {
            let flagged = crate::eval::flagged_chains(basis.model, cand.analysis(basis), &config);
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
    }
    Ok(rows)
}

#[cfg(test)]
mod tests;
