//! Decisions and entity edits applied to a workspace: the session records them, the store and the plan follow.

use super::*;
use crate::config::params::{AdoptedSettings, Setting};

impl Workspace {
    /// `store` = extracted results + the session's entity edits, then re-plans.
    /// Warnings about edits that no longer apply are kept only once extraction is
    /// complete (before that, an edit's entity may simply not be extracted yet).
    pub fn rebuild_store(&mut self) -> Result<(), WorkspaceError> {
        self.restore_store();
        self.replan()
    }

    /// Rebuilds the entities from the extractor's results and the session's edits,
    /// without re-planning. Workspaces without kept extractor results (headless
    /// runs) keep their entities.
    pub(super) fn restore_store(&mut self) {
        let Some(raw) = &self.extracted else {
            return;
        };
        self.store = raw.clone();
        let complete = self.extraction_complete();
        self.warnings =
            crate::config::params::apply_settings(&self.base_config, &self.state.settings).1;
        let edits = self.state.edits.clone();
        for edit in &edits {
            if let AuditAction::AddEntity { doc, .. } = edit {
                let ready = self
                    .corpus
                    .documents
                    .iter()
                    .position(|d| &d.id == doc)
                    .and_then(|i| self.store.docs.get(i))
                    .is_some_and(|d| d.complete);
                if !ready {
                    continue;
                }
            }
            if let Err(e) = self.apply_edit(edit)
                && complete
            {
                self.warnings.push(format!(
                    "session edit {} no longer applies: {e}",
                    edit.name()
                ));
            }
        }
    }

    pub(super) fn doc_index(&self, id: &str) -> Result<usize, WorkspaceError> {
        self.corpus
            .documents
            .iter()
            .position(|d| d.id == id)
            .ok_or_else(|| WorkspaceError::UnknownDocument(id.to_string()))
    }

    /// Applies an entity edit to the store; false when `action` is not an edit.
    pub(super) fn apply_edit(&mut self, action: &AuditAction) -> Result<bool, WorkspaceError> {
        match action {
            AuditAction::AddEntity {
                doc,
                start,
                end,
                entity_type,
                relevance,
            } => {
                let i = self.doc_index(doc)?;
                self.store.add_entity(
                    i,
                    &self.corpus.documents[i],
                    Span {
                        start: *start,
                        end: *end,
                    },
                    entity_type,
                    *relevance,
                    &self.config.schema,
                    self.config.extraction.date_order,
                )?;
            }
            AuditAction::RemoveEntity { entity, doc } => {
                let i = match doc {
                    Some(d) => Some(self.doc_index(d)?),
                    None => None,
                };
                self.store.remove_entity(entity, i)?;
            }
            AuditAction::Retype {
                entity,
                entity_type,
                ..
            } => {
                self.store
                    .retype(entity, entity_type, &self.config.schema)?;
            }
            AuditAction::Merge { from, into } => self.store.merge(from, into)?,
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Brings `config` in line with the session's adopted settings after they changed
    /// from `before` (a `Settings` decision, or its undo): each changed key takes the
    /// adopted value, or the base configuration's once no setting holds it. Other
    /// keys keep their current value. True when the analysis must be recomputed.
    pub(super) fn sync_settings(&mut self, before: &AdoptedSettings) -> bool {
        let now = &self.state.settings;
        if before == now {
            return false;
        }
        let mut config = self.config.clone();
        let keys: std::collections::BTreeSet<&String> =
            before.iter().chain(now.iter()).map(|(k, _)| k).collect();
        for key in keys {
            if before.get(key) == now.get(key) {
                continue;
            }
            let (p, value) = match now.get(key) {
                Some(Setting::Typed(p, v)) => (*p, v.clone()),
                Some(Setting::Unreadable { value, error }) => {
                    self.warnings.push(format!(
                        "adopted setting {key} = {value} does not apply: {error}"
                    ));
                    continue;
                }
                // No setting holds it any more: the base configuration's value.
                None => match crate::config::Param::parse(key) {
                    Ok(p) => (p, p.def().get(&self.base_config)),
                    Err(_) => continue,
                },
            };
            if let Err(e) = p.assign_value(&mut config, value.clone()) {
                self.warnings.push(format!(
                    "adopted setting {key} = {value} does not apply: {e}"
                ));
            }
        }
        if let Err(e) = config.validate(crate::config::params::ORIGIN) {
            self.warnings
                .push(format!("adopted settings do not apply together: {e}"));
            return false;
        }
        let reanalyse = config.analysis_params() != self.config.analysis_params();
        self.config = config;
        reanalyse
    }

    /// Records a decision in the session (committed before this returns), applies it
    /// and re-plans.
    pub fn apply(&mut self, decision: Decision) -> Result<i64, WorkspaceError> {
        self.apply_with(decision, None)
    }

    /// [`Workspace::apply`] with the analysis a `Settings` decision needs already
    /// computed (the what-if candidate's, for this model and the adopted analysis
    /// parameters), so adopting a new edge_threshold or chain_length only re-plans.
    /// It is used only when the decision changes the analysis parameters; the caller
    /// guarantees it was computed on this model with the adopted ones.
    pub fn apply_with(
        &mut self,
        decision: Decision,
        analysis: Option<Analysis>,
    ) -> Result<i64, WorkspaceError> {
        let (seq, needs) = self.record(decision, analysis)?;
        self.compute(needs)?;
        Ok(seq)
    }

    /// Commits `decision` to the session (before this returns) and applies it to the
    /// state, the configuration and the entities, but leaves the re-plan to the
    /// caller: what it needs is returned (run it with [`Workspace::apply_with`]'s
    /// steps, or off the UI thread with [`Workspace::replan_job`]).
    pub fn record(
        &mut self,
        decision: Decision,
        analysis: Option<Analysis>,
    ) -> Result<(i64, Needs), WorkspaceError> {
        let seq = match &mut self.session {
            Some(s) => s.append(&decision)?,
            None => 0,
        };
        let settings_before = self.state.settings.clone();
        let forced_before = self.forced();
        let edits_before = self.state.edits.len();
        match &self.session {
            // An undo can revert any earlier decision: replay the log.
            Some(s) if matches!(decision.action, AuditAction::Undo { .. }) => {
                self.state = s.state()?
            }
            // Anything else is the last word on what it touches: apply it alone (a
            // bulk accept of thousands does not replay a growing log each time).
            Some(_) => self.state.apply_decision(seq, &decision),
            // Without a session, adopted settings still take effect.
            None => {
                if let AuditAction::Settings { new, .. } = &decision.action {
                    self.state.settings.adopt_all(new);
                }
            }
        }
        if decision.action.is_gold()
            || matches!(decision.action, AuditAction::AcceptResidual { .. })
        {
            // Gold chains and accepted residuals are annotations: the plan stays.
            return Ok((seq, Needs::Nothing));
        }
        let reanalyse = self.sync_settings(&settings_before);
        let needs = if self.apply_edit(&decision.action)? {
            Needs::Analysis
        } else if self.state.edits.len() != edits_before {
            // An undone edit: the entities are rebuilt without it.
            self.restore_store();
            Needs::Analysis
        } else if reanalyse && let Some(an) = analysis {
            self.analysis = Arc::new(an);
            Needs::Plan
        } else if reanalyse {
            Needs::Analysis
        } else if settings_before != self.state.settings || forced_before != self.forced() {
            Needs::Plan
        } else {
            // An acceptance (or its undo): the plan's inputs are unchanged, and so is
            // the plan, so a bulk accept of thousands of entities costs no re-plan.
            Needs::Nothing
        };
        Ok((seq, needs))
    }
}
