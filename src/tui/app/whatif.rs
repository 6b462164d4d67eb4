//! The what-if pane's logic: candidate settings over the reviewed ones, the diff of
//! the candidate plan against the reviewed plan, adoption as a session decision,
//! and the sweep chart. Everything is computed by `crate::whatif`; a change that
//! needs a new analysis (edge_threshold, chain_length) and every sweep run as jobs
//! (see [`super::Jobs`]), and the pane says "recomputing" until they are back.

use std::collections::BTreeMap;
use std::time::Duration;

use crate::Config;
use crate::session::AuditAction;
use crate::whatif::{self, Basis, Candidate, OwnedBasis, Param, PlanDiff, SweepRow, WhatIfError};

use super::super::state::Pane;
use super::{App, JobEvent, JobKind, Layer, text_input};

/// What a what-if text field is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WhatIfInput {
    /// A value of the parameter.
    Value(Param),
    /// The sweep range of the parameter: `from to step`.
    Range(Param),
}

/// The sweep chart's parameter, range and rows.
#[derive(Debug, Clone, PartialEq)]
pub struct SweepView {
    pub param: Param,
    pub from: f64,
    pub to: f64,
    pub step: f64,
    pub rows: Vec<SweepRow>,
    pub error: Option<String>,
}

/// The what-if pane's state.
#[derive(Debug, Default)]
pub struct WhatIf {
    /// Cursor: rows 0..11 are the parameters, then the newly masked entities, then
    /// the newly unmasked ones.
    pub selected: usize,
    /// Candidate values that differ from the settings in effect.
    pub overrides: BTreeMap<Param, String>,
    pub candidate: Option<Candidate>,
    pub diff: Option<PlanDiff>,
    /// Why the candidate could not be planned.
    pub error: Option<String>,
    /// The chart is shown instead of the diff.
    pub show_sweep: bool,
    pub sweep: Option<SweepView>,
    /// Gold chains (document ids): when set, each sweep row carries the chain pairs
    /// F1 and the chart plots it.
    pub gold: Option<Vec<Vec<String>>>,
    /// How long the last candidate plan took: a planner-only change runs on the UI
    /// thread only while that fits in a frame.
    pub last_plan: Duration,
}

impl WhatIf {
    /// True when candidate settings differ from the ones in effect.
    pub fn exploring(&self) -> bool {
        !self.overrides.is_empty()
    }

    /// The parameter under the cursor, when the cursor is on a parameter.
    pub fn param(&self) -> Option<Param> {
        Param::ALL.get(self.selected).copied()
    }

    /// The changed entity (model index) under the cursor and whether it is newly
    /// masked.
    pub fn changed_entity(&self) -> Option<(usize, bool)> {
        let d = self.diff.as_ref()?;
        let k = self.selected.checked_sub(Param::ALL.len())?;
        if k < d.newly_masked.len() {
            Some((d.newly_masked[k], true))
        } else {
            d.newly_unmasked
                .get(k - d.newly_masked.len())
                .map(|&e| (e, false))
        }
    }

    fn rows(&self) -> usize {
        Param::ALL.len()
            + self
                .diff
                .as_ref()
                .map_or(0, |d| d.newly_masked.len() + d.newly_unmasked.len())
    }
}

/// The default sweep of a parameter: its valid range in 20 steps (whole steps for
/// chain_length).
fn default_range(p: Param, config: &Config) -> Option<(f64, f64, f64)> {
    let (lo, hi) = p.range(config)?;
    let step = match p.kind() {
        whatif::Kind::Whole { .. } => 1.0,
        _ => ((hi - lo) / 20.0 * 100.0).round().max(1.0) / 100.0,
    };
    Some((lo, hi, step))
}

impl App {
    /// True while a candidate or a sweep computes as a job.
    pub fn whatif_busy(&self) -> bool {
        self.jobs.is_running(JobKind::Candidate) || self.jobs.is_running(JobKind::Sweep)
    }

    /// True while the sweep computes.
    pub fn whatif_sweeping(&self) -> bool {
        self.jobs.is_running(JobKind::Sweep)
    }

    /// The candidate settings: the settings in effect with the pane's overrides.
    pub fn candidate_config(&self) -> Result<Config, WhatIfError> {
        let mut c = self.ws.config().clone();
        for (p, v) in &self.whatif.overrides {
            p.assign(&mut c, v)?;
        }
        c.validate(whatif::ORIGIN)?;
        Ok(c)
    }

    /// Sets the candidate to `config` (overrides = the keys that differ from the
    /// settings in effect) and re-plans it.
    fn set_candidate(&mut self, config: &Config) {
        self.whatif.overrides = whatif::changes(self.ws.config(), config)
            .into_iter()
            .map(|(p, _, new)| (p, new))
            .collect();
        self.whatif_replan();
    }

    /// Plans the candidate again (after it or the reviewed plan changed): on this
    /// thread when only planner thresholds differ and that fits in a frame, else as
    /// a job.
    pub(super) fn whatif_replan(&mut self) {
        self.whatif.error = None;
        // A value the settings in effect reached on their own (an adoption, `M`) is
        // no longer a candidate change.
        let config = self.ws.config();
        self.whatif.overrides.retain(|p, v| p.value(config) != *v);
        if !self.whatif.exploring() {
            self.whatif.candidate = None;
            self.whatif.diff = None;
            self.jobs.cancel(JobKind::Candidate);
        } else {
            match self.candidate_config() {
                Err(e) => {
                    self.whatif.error = Some(e.to_string());
                    self.whatif.candidate = None;
                    self.whatif.diff = None;
                }
                Ok(config) => {
                    let basis = Basis::of(&self.ws);
                    let fast = !whatif::needs_analysis(&basis, &config)
                        && self.whatif.last_plan <= super::super::FRAME;
                    if fast {
                        self.jobs.cancel(JobKind::Candidate);
                        let started = std::time::Instant::now();
                        let planned = whatif::plan_candidate(&basis, &config);
                        self.whatif.last_plan = started.elapsed();
                        match planned {
                            Ok(c) => {
                                self.whatif.diff = Some(whatif::diff(&basis, &c));
                                self.whatif.candidate = Some(c);
                            }
                            Err(e) => {
                                self.whatif.error = Some(e.to_string());
                                self.whatif.candidate = None;
                                self.whatif.diff = None;
                            }
                        }
                    } else {
                        let owned = OwnedBasis::of(&self.ws);
                        self.jobs.start(JobKind::Candidate, move |_| {
                            let b = owned.basis();
                            let r = whatif::plan_candidate(&b, &config)
                                .map(|c| {
                                    let d = whatif::diff(&b, &c);
                                    Box::new((c, d))
                                })
                                .map_err(|e| e.to_string());
                            JobEvent::Candidate(r)
                        });
                    }
                }
            }
        }
        self.whatif.selected = self.whatif.selected.min(self.whatif.rows() - 1);
        self.dirty = true;
    }

    /// After the plan in effect changed: the candidate is planned again, and the
    /// sweep (which starts from the settings in effect) computed again when shown.
    pub(super) fn whatif_refresh(&mut self) {
        self.whatif_replan();
        if self.whatif.show_sweep {
            self.start_sweep();
        }
    }

    /// Starts computing the sweep of the selected parameter over its range.
    fn start_sweep(&mut self) {
        let Some(param) = self
            .whatif
            .param()
            .or(self.whatif.sweep.as_ref().map(|s| s.param))
        else {
            return;
        };
        let keep = self
            .whatif
            .sweep
            .as_ref()
            .filter(|s| s.param == param)
            .map(|s| (s.from, s.to, s.step));
        let Some((from, to, step)) = keep.or_else(|| default_range(param, self.ws.config())) else {
            self.whatif.sweep = Some(SweepView {
                param,
                from: 0.0,
                to: 0.0,
                step: 0.0,
                rows: Vec::new(),
                error: Some(format!(
                    "{param} is not a number: select a numeric parameter to sweep"
                )),
            });
            self.jobs.cancel(JobKind::Sweep);
            return;
        };
        self.whatif.sweep = Some(SweepView {
            param,
            from,
            to,
            step,
            rows: Vec::new(),
            error: None,
        });
        let owned = OwnedBasis::of(&self.ws);
        let gold = self.whatif.gold.clone();
        let probe = self.mask_probe();
        self.jobs.start(JobKind::Sweep, move |job| {
            let leak = probe.as_ref().map(|p| move |m: &[bool]| p.leak_rate(m));
            let leak_fn = leak.as_ref().map(|f| f as whatif::LeakRate);
            let r = whatif::sweep(
                &owned.basis(),
                param,
                (from, to, step),
                gold.as_deref(),
                leak_fn,
                &|| job.cancelled(),
            )
            .map_err(|e| e.to_string());
            JobEvent::Sweep(r)
        });
    }

    /// Installs a candidate job's plan and diff.
    pub(super) fn candidate_done(
        &mut self,
        r: Result<Box<(Candidate, PlanDiff)>, String>,
        took: Duration,
    ) {
        // An analysis change says nothing about the next planner-only one.
        if !self
            .candidate_config()
            .is_ok_and(|c| whatif::needs_analysis(&Basis::of(&self.ws), &c))
        {
            self.whatif.last_plan = took;
        }
        match r {
            Ok(b) => {
                let (c, d) = *b;
                self.whatif.candidate = Some(c);
                self.whatif.diff = Some(d);
            }
            Err(e) => {
                self.whatif.error = Some(e);
                self.whatif.candidate = None;
                self.whatif.diff = None;
            }
        }
        self.whatif.selected = self.whatif.selected.min(self.whatif.rows() - 1);
    }

    /// Installs a sweep job's rows.
    pub(super) fn sweep_done(&mut self, r: Result<Vec<SweepRow>, String>) {
        if let Some(s) = &mut self.whatif.sweep {
            match r {
                Ok(rows) => s.rows = rows,
                Err(e) => s.error = Some(e),
            }
        }
    }

    /// h / l / H / L: the selected parameter one step down or up.
    pub(super) fn whatif_step(&mut self, up: bool, coarse: bool) {
        let Some(p) = self.whatif.param() else {
            return self.info("select a parameter (j / k) to change it".into());
        };
        let result = self
            .candidate_config()
            .and_then(|c| Ok(p.step(&c, up, coarse)?));
        match result {
            Ok(c) => self.set_candidate(&c),
            Err(e) => self.error(e.to_string()),
        }
    }

    /// `=`: type a value for the selected parameter.
    pub(super) fn whatif_type_value(&mut self) {
        let Some(p) = self.whatif.param() else {
            return self.info("select a parameter (j / k) to type its value".into());
        };
        let current = self
            .candidate_config()
            .map(|c| p.value(&c))
            .unwrap_or_default();
        self.layers.push(Layer::WhatIf {
            purpose: WhatIfInput::Value(p),
            input: text_input(&current),
            error: None,
        });
    }

    /// `R`: type the sweep range of the selected parameter.
    pub(super) fn whatif_edit_range(&mut self) {
        let Some(p) = self.whatif.param() else {
            return self.info("select a parameter (j / k) to sweep it".into());
        };
        let current = match self.whatif.sweep.as_ref().filter(|s| s.param == p) {
            Some(s) => Some((s.from, s.to, s.step)),
            None => default_range(p, self.ws.config()),
        };
        let Some((from, to, step)) = current else {
            return self.error(format!("{p} is not a number: it cannot be swept"));
        };
        self.layers.push(Layer::WhatIf {
            purpose: WhatIfInput::Range(p),
            input: text_input(&format!("{from} {to} {step}")),
            error: None,
        });
    }

    /// Applies a typed value or range; an error leaves everything as it was.
    pub(super) fn submit_whatif(&mut self, purpose: WhatIfInput, text: &str) -> Result<(), String> {
        match purpose {
            WhatIfInput::Value(p) => {
                let c = self
                    .candidate_config()
                    .and_then(|c| Ok(p.set(&c, text)?))
                    .map_err(|e| e.to_string())?;
                self.set_candidate(&c);
                Ok(())
            }
            WhatIfInput::Range(p) => {
                let nums: Vec<f64> = text
                    .split([' ', ',', ';'])
                    .filter(|s| !s.is_empty())
                    .map(|s| s.parse::<f64>())
                    .collect::<Result<_, _>>()
                    .map_err(|_| "type three numbers: from to step".to_string())?;
                let [from, to, step] = nums[..] else {
                    return Err("type three numbers: from to step".into());
                };
                whatif::sweep_values(p, self.ws.config(), from, to, step)
                    .map_err(|e| e.to_string())?;
                self.whatif.sweep = Some(SweepView {
                    param: p,
                    from,
                    to,
                    step,
                    rows: Vec::new(),
                    error: None,
                });
                self.whatif.show_sweep = true;
                self.start_sweep();
                Ok(())
            }
        }
    }

    /// `S`: the sweep chart of the selected parameter, or back to the diff.
    pub(super) fn whatif_toggle_sweep(&mut self) {
        self.whatif.show_sweep = !self.whatif.show_sweep;
        if self.whatif.show_sweep {
            self.start_sweep();
        } else {
            self.jobs.cancel(JobKind::Sweep);
        }
    }

    /// j / k moved the cursor: the chart follows the selected parameter.
    pub(super) fn whatif_moved(&mut self, step: isize) {
        let n = self.whatif.rows();
        self.whatif.selected = self.whatif.selected.saturating_add_signed(step).min(n - 1);
        if self.whatif.show_sweep
            && let Some(p) = self.whatif.param()
            && self.whatif.sweep.as_ref().is_none_or(|s| s.param != p)
        {
            self.start_sweep();
        }
    }

    /// `Esc`: back to the settings in effect.
    pub(super) fn whatif_reset(&mut self) {
        if !self.whatif.exploring() {
            self.message = None;
            return;
        }
        self.whatif.overrides.clear();
        self.whatif_replan();
        self.info("what-if: back to the reviewed settings".into());
    }

    /// `Enter`: on a parameter, adopt the candidate settings (a session decision,
    /// old → new values); on a changed entity, show it in the redaction set.
    pub(super) fn whatif_enter(&mut self) {
        if let Some((e, _)) = self.whatif.changed_entity() {
            if !self.ws.plan().masked[e] && !self.ui.show_all_entities {
                self.ui.show_all_entities = true;
            }
            self.ui.masks.filter.clear();
            self.refresh_rows();
            self.ui.masks.select_item(e);
            self.ui.focus(Pane::Masks);
            return;
        }
        self.adopt_candidate();
    }

    /// The what-if changes pending (parameter, reviewed value, candidate value).
    pub(super) fn pending_whatif(&self) -> Vec<String> {
        if !self.whatif.exploring() {
            return Vec::new();
        }
        match self.candidate_config() {
            Ok(c) => whatif::changes(self.ws.config(), &c)
                .iter()
                .map(|(p, o, n)| format!("{p} {o} → {n}"))
                .collect(),
            Err(_) => Vec::new(),
        }
    }

    /// Adopts the candidate settings as a decision; false when there was nothing to
    /// adopt or the decision failed (the status line says why).
    pub(super) fn adopt_candidate(&mut self) -> bool {
        let config = match self.candidate_config() {
            Ok(c) => c,
            Err(e) => {
                self.error(e.to_string());
                return false;
            }
        };
        let changes = whatif::changes(self.ws.config(), &config);
        if changes.is_empty() {
            self.info("nothing to adopt: change a parameter first (h / l, H / L or =)".into());
            return false;
        }
        let old: BTreeMap<String, String> = changes
            .iter()
            .map(|(p, o, _)| (p.name().to_string(), o.clone()))
            .collect();
        let new: BTreeMap<String, String> = changes
            .iter()
            .map(|(p, _, n)| (p.name().to_string(), n.clone()))
            .collect();
        let text: Vec<String> = changes
            .iter()
            .map(|(p, o, n)| format!("{p} {o} → {n}"))
            .collect();
        // The candidate's analysis, when it is the one the adopted settings need.
        let analysis = self
            .whatif
            .candidate
            .as_ref()
            .filter(|c| !self.whatif_busy() && c.config == config)
            .and_then(|c| c.analysis.clone());
        let saved = std::mem::take(&mut self.whatif.overrides);
        if self.decide_with(AuditAction::Settings { old, new }, None, analysis) {
            self.decided(format!("adopted: {}", text.join(", ")));
            true
        } else {
            self.whatif.overrides = saved;
            self.whatif_replan();
            false
        }
    }
}
