//! What each decision changed in the plan (issue 17): the plan's facts are taken
//! before the decision is recorded and compared with the plan once it is re-planned,
//! inline or by a job. The status line names the decision and its effect in one line;
//! the what-if pane lists the entities it newly masked and kept.

use crate::plan::{PlanChange, PlanFacts};

use super::App;

/// The last decision and what it changed (None while its re-plan runs).
#[derive(Debug, Clone, PartialEq)]
pub struct DecisionEffect {
    pub label: String,
    pub change: Option<PlanChange>,
}

impl App {
    /// The plan's facts before a decision (kept while its re-plan runs: a second
    /// decision meanwhile is measured from the same installed plan).
    pub(super) fn note_plan_before(&mut self) {
        if self.effect_before.is_none() || !self.replanning() {
            self.effect_before = Some(PlanFacts::of(
                self.ws.model(),
                self.ws.analysis(),
                self.ws.plan(),
            ));
        }
    }

    /// A decision was recorded: `label` names it ("overridden: keep NAME \"okafor\"").
    /// The status line adds its effect, or says the plan is being recomputed.
    pub(super) fn decided(&mut self, label: String) {
        self.effect = Some(DecisionEffect {
            label,
            change: None,
        });
        self.settle_effect();
    }

    /// Once the plan is current, the last decision's effect is computed and shown.
    pub(super) fn settle_effect(&mut self) {
        if self.replanning() {
            if let Some(e) = &self.effect {
                let text = format!("{}: re-planning…", e.label);
                self.info(text);
            }
            return;
        }
        let Some(before) = self.effect_before.take() else {
            return;
        };
        let after = PlanFacts::of(self.ws.model(), self.ws.analysis(), self.ws.plan());
        let change = PlanChange::between(&before, &after);
        if let Some(e) = &mut self.effect {
            let text = format!("{}: {change}", e.label);
            e.change = Some(change);
            self.info(text);
        }
    }
}
