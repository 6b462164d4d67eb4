//! Decisions and entity edits (SPEC §6): each becomes one session transaction
//! through the workspace, which re-plans; the app only refreshes its views.

use ratatui_textarea::TextArea;

use crate::session::AuditAction;
use crate::workspace::ReviewState;
use crate::workspace::decide::{Verb, decided_label, settings_text};

use super::super::sanitize;
use super::super::state::Pane;
use super::{App, Confirm, Layer, ReasonFor, TypePurpose};

impl App {
    pub(super) fn entity_label(&self, i: usize) -> String {
        let e = &self.ws.model().entities[i];
        format!("{} {:?}", e.entity_type, sanitize::line(&e.value))
    }

    pub(super) fn no_target(&mut self) {
        self.error(
            "select an entity first: in the redaction set, or with n / N in the document".into(),
        );
    }

    /// Records a decision (committed before this returns) and re-plans.
    pub(super) fn decide(&mut self, action: AuditAction, reason: Option<String>) -> bool {
        self.decide_with(action, reason, None)
    }

    /// [`App::decide`] with a precomputed analysis (see `Workspace::apply_with`).
    pub(super) fn decide_with(
        &mut self,
        action: AuditAction,
        reason: Option<String>,
        analysis: Option<crate::analysis::Analysis>,
    ) -> bool {
        let decision = self
            .ws
            .decision(&self.actor, action, reason, &self.project_key);
        if !self.batch {
            self.note_plan_before();
        }
        match self.ws.record(decision, analysis) {
            Ok((_, needs)) => {
                self.after_record(needs);
                if !self.batch {
                    self.refresh();
                }
                true
            }
            Err(e) => {
                self.error(format!("decision not saved: {e}"));
                false
            }
        }
    }

    pub(super) fn accept(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        let mask = self.ws.plan().masked[i];
        let label = self.entity_label(i);
        let Some(action) = self.ws.entity_action(Verb::Accept, i, None) else {
            return;
        };
        if self.decide(action, None) {
            self.decided(decided_label(Verb::Accept, mask, &label));
            self.advance();
        }
    }

    pub(super) fn start_override(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        self.layers.push(Layer::Reason {
            purpose: ReasonFor::Override {
                entity: self.ws.model().entities[i].id.clone(),
                mask: !self.ws.plan().masked[i],
            },
            input: TextArea::default(),
            error: None,
        });
    }

    /// Completes an override with `reason`; an empty reason is refused.
    pub(super) fn submit_override(
        &mut self,
        entity: String,
        mask: bool,
        reason: &str,
    ) -> Result<(), String> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err("a reason is required for an override (Esc cancels)".into());
        }
        let Some(i) = self.ws.model().entity_index(&entity) else {
            return Err("the entity is no longer in the corpus".into());
        };
        let label = self.entity_label(i);
        if self.decide(
            AuditAction::Override { entity, mask },
            Some(reason.to_string()),
        ) {
            self.decided(decided_label(Verb::Override, mask, &label));
            self.advance();
        }
        Ok(())
    }

    /// Pins the state in effect, or unpins a pinned entity.
    pub(super) fn pin(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        let mask = self.ws.plan().masked[i];
        let label = self.entity_label(i);
        let pinned = self
            .ws
            .state()
            .pinned
            .contains(&self.ws.model().entities[i].id);
        let verb = if pinned { Verb::Unpin } else { Verb::Pin };
        let Some(action) = self.ws.entity_action(verb, i, None) else {
            return;
        };
        if self.decide(action, None) {
            self.decided(decided_label(verb, mask, &label));
            if verb == Verb::Pin {
                self.advance();
            }
        }
    }

    pub(super) fn undo(&mut self) {
        let (log, own_from) = match self.ws.session().map(|s| (s.audit_log(), s.own_from())) {
            Some((Ok(log), own_from)) => (log, own_from),
            Some((Err(e), _)) => return self.error(format!("cannot read the audit log: {e}")),
            None => return self.error("no session: nothing to undo".into()),
        };
        // The newest decision of this review still in effect (undone ones and undos
        // are skipped). Decisions taken before this review opened the session are
        // not this writer's to revert.
        let mut undone = std::collections::BTreeSet::new();
        let mut target = None;
        for e in log.iter().rev() {
            if undone.contains(&e.seq) {
                continue;
            }
            if let AuditAction::Undo { seq } = e.decision.action {
                undone.insert(seq);
                continue;
            }
            target = Some(e.clone());
            break;
        }
        let Some(entry) = target else {
            return self.info("nothing to undo".into());
        };
        if entry.seq < own_from {
            // Not this review's: ask first, naming it.
            let what = self.describe(&entry.decision.action);
            self.layers.push(Layer::Confirm(Confirm::UndoEarlier {
                seq: entry.seq,
                what,
            }));
            return;
        }
        // An undone entity edit rebuilds the entities inside the decision (and may
        // re-plan off the UI thread like any other).
        // Described before the undo: an undone edit may take the entity away.
        let what = self.describe(&entry.decision.action);
        if self.decide(AuditAction::Undo { seq: entry.seq }, None) {
            self.decided(format!("undone: {what} (decision #{})", entry.seq));
        }
    }

    /// A decision in words, its entity named as the redaction set shows it
    /// ("override keep NAME \"okafor\"").
    pub(super) fn describe(&self, action: &AuditAction) -> String {
        let entity = |id: &str| match self.ws.model().entity_index(id) {
            Some(i) => self.entity_label(i),
            None => format!("entity {}", id.get(..8).unwrap_or(id)),
        };
        let state = |mask: bool| if mask { "mask" } else { "keep" };
        let docs = |d: &[String]| sanitize::line(&d.join(" + "));
        match action {
            AuditAction::Accept { entity: e, mask } => {
                format!("accept {} {}", state(*mask), entity(e))
            }
            AuditAction::Override { entity: e, mask } => {
                format!("override {} {}", state(*mask), entity(e))
            }
            AuditAction::Pin { entity: e, mask } => format!("pin {} {}", state(*mask), entity(e)),
            AuditAction::Unpin { entity: e } => format!("unpin {}", entity(e)),
            AuditAction::Undo { seq } => format!("undo of decision #{seq}"),
            AuditAction::AddEntity {
                doc, entity_type, ..
            } => format!("add a {entity_type} entity in {}", sanitize::line(doc)),
            AuditAction::RemoveEntity { entity: e, doc } => match doc {
                Some(d) => format!("remove {} from {}", entity(e), sanitize::line(d)),
                None => format!("remove {} everywhere", entity(e)),
            },
            // After a retype the entity goes by its new id.
            AuditAction::Retype {
                entity: e,
                entity_type,
                new_entity,
            } => match self.ws.model().entity_index(new_entity) {
                Some(i) => format!("retype to {entity_type}: {}", self.entity_label(i)),
                None => format!("retype {} to {entity_type}", entity(e)),
            },
            AuditAction::Merge { from, into } => {
                format!("merge {} into {}", entity(from), entity(into))
            }
            AuditAction::AcceptResidual { documents } => {
                format!("accept the residual risk of {}", docs(documents))
            }
            AuditAction::GoldMark { documents, .. } => format!("gold chain {}", docs(documents)),
            AuditAction::GoldUnmark { documents } => {
                format!("unmark gold chain {}", docs(documents))
            }
            AuditAction::Settings { new, .. } => format!("adopted {}", settings_text(new)),
        }
    }

    /// After a decision in the redaction set, the cursor moves to the next row still
    /// to review (proposed or stale), so a review is `a a o …`, not `j a j a …`
    /// (`[ui] advance = false` keeps it in place).
    fn advance(&mut self) {
        if self.ui.focus != Pane::Masks || self.ws.config().ui.advance == Some(false) {
            return;
        }
        let list = &self.ui.masks;
        let open = |i: usize| {
            matches!(
                self.views.review.get(i),
                Some(ReviewState::Proposed | ReviewState::Stale)
            )
        };
        let next = (list.selected + 1..list.rows.len()).find(|&k| open(list.rows[k]));
        if let Some(k) = next {
            self.ui.masks.selected = k;
            self.after_move(Pane::Masks);
        }
    }

    pub(super) fn start_bulk_accept(&mut self) {
        let entities: Vec<String> = self
            .ui
            .masks
            .rows
            .iter()
            .filter(|&&i| {
                matches!(
                    self.views.review[i],
                    ReviewState::Proposed | ReviewState::Stale
                )
            })
            .map(|&i| self.ws.model().entities[i].id.clone())
            .collect();
        if entities.is_empty() {
            return self.info("nothing to accept: every listed entity is reviewed".into());
        }
        self.layers.push(Layer::Confirm(Confirm::Bulk { entities }));
    }

    pub(super) fn bulk_accept(&mut self, entities: &[String]) {
        // One transaction per decision, but the views are rebuilt once at the end.
        self.batch = true;
        let n = self.accept_each(entities);
        self.batch = false;
        self.refresh();
        if let Some(n) = n {
            self.info(format!("accepted {n} proposal(s)"));
        }
    }

    /// Accepts each entity's current proposal; None when a decision failed (the
    /// error is in the status bar).
    pub(super) fn accept_each(&mut self, entities: &[String]) -> Option<usize> {
        let mut n = 0;
        for id in entities {
            let Some(i) = self.ws.model().entity_index(id) else {
                continue;
            };
            let mask = self.ws.plan().masked[i];
            if !self.decide(
                AuditAction::Accept {
                    entity: id.clone(),
                    mask,
                },
                None,
            ) {
                return None;
            }
            n += 1;
        }
        Some(n)
    }

    // ----- entity edits -----

    /// Keeps the document cursor on a mention after mentions went away.
    fn clamp_doc_cursor(&mut self) {
        if let Some(doc) = self.ui.open_doc {
            self.ui.doc_cursor = self
                .ui
                .doc_cursor
                .min(self.mentions(doc).len().saturating_sub(1));
        }
    }

    pub(super) fn schema_types(&self) -> Vec<String> {
        self.ws
            .config()
            .schema
            .names()
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    pub(super) fn remove_entity(&mut self) {
        let Some(m) = self
            .cursor_mention()
            .filter(|_| self.ui.focus == Pane::Document)
        else {
            return self.no_target();
        };
        let Some(doc) = self.ui.open_doc else {
            return;
        };
        let doc_id = self.ws.corpus().documents[doc].id.clone();
        let label = match m.entity {
            Some(i) => self.entity_label(i),
            None => m.entity_type.clone(),
        };
        if self.decide(
            AuditAction::RemoveEntity {
                entity: m.entity_id,
                doc: Some(doc_id.clone()),
            },
            None,
        ) {
            self.clamp_doc_cursor();
            self.decided(format!(
                "removed {label} from {} (u undoes)",
                sanitize::line(&doc_id)
            ));
        }
    }

    /// Asks before removing the selected entity from every document (SPEC §2: a
    /// removal is per document, or corpus-wide on request).
    pub(super) fn start_remove_everywhere(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        self.layers.push(Layer::Confirm(Confirm::RemoveEverywhere {
            entity: self.ws.model().entities[i].id.clone(),
        }));
    }

    /// A confirmed decision.
    pub(super) fn confirmed(&mut self, c: Confirm) {
        match c {
            Confirm::Bulk { entities } => self.bulk_accept(&entities),
            // Answered by its own keys (see popups.rs): y adopts, then exports.
            Confirm::ExportWithWhatIf { .. } => {
                if self.adopt_candidate() {
                    self.open_export();
                }
            }
            Confirm::Merge { from, into } => {
                if self.decide(
                    AuditAction::Merge {
                        from,
                        into: into.clone(),
                    },
                    None,
                ) {
                    if let Some(j) = self.ws.model().entity_index(&into) {
                        self.ui.masks.select_item(j);
                    }
                    self.decided("merged (u undoes)".into());
                }
            }
            Confirm::UndoEarlier { seq, what } => {
                if self.decide(AuditAction::Undo { seq }, None) {
                    self.decided(format!(
                        "undone: {what} (decision #{seq}, an earlier review's)"
                    ));
                }
            }
            Confirm::RemoveEverywhere { entity } => {
                let Some(i) = self.ws.model().entity_index(&entity) else {
                    return self.error("the entity is no longer in the corpus".into());
                };
                let label = self.entity_label(i);
                let docs = self.ws.globals().get(&entity).map_or(0, |g| g.docs.len());
                if self.decide(AuditAction::RemoveEntity { entity, doc: None }, None) {
                    self.clamp_doc_cursor();
                    self.decided(format!(
                        "removed {label} from all {docs} document(s) (u undoes)"
                    ));
                }
            }
        }
    }

    /// The residual document (documents pane) or chain (chains pane) under the
    /// selection, as document ids; `None` when it is not residual.
    fn selected_residual(&self) -> Result<Vec<String>, String> {
        match self.ui.focus {
            Pane::Documents => {
                let d = self.ui.documents.current().ok_or("no document selected")?;
                let id = self.ws.corpus().documents[d].id.clone();
                let residual = self
                    .views
                    .model_of_doc
                    .get(d)
                    .copied()
                    .flatten()
                    .is_some_and(|m| self.ws.plan().residual_docs.contains(&(m as u32)));
                if residual {
                    Ok(vec![id])
                } else {
                    Err(format!(
                        "{} is not residual: its risk after masking is within theta_doc",
                        sanitize::line(&id)
                    ))
                }
            }
            Pane::Chains => {
                let c = self.selected_chain().ok_or("no chain selected")?;
                if self.ws.plan().residual_chains.contains(&(c as u32)) {
                    Ok(self.ws.chain_doc_ids(c))
                } else {
                    Err("this chain is not residual: it reached its target".into())
                }
            }
            _ => Err("select a residual document or chain first".into()),
        }
    }

    /// Asks for the reason to accept the selected residual document or chain.
    pub(super) fn start_accept_residual(&mut self) {
        match self.selected_residual() {
            Ok(documents) if self.ws.residual_accepted(&documents) => self.info(format!(
                "already accepted: {} (u undoes the last decision)",
                sanitize::line(&documents.join(" → "))
            )),
            Ok(documents) => self.layers.push(Layer::Reason {
                purpose: ReasonFor::Residual { documents },
                input: TextArea::default(),
                error: None,
            }),
            Err(msg) => self.info(msg),
        }
    }

    /// Records the acceptance of a residual risk; an empty reason is refused.
    pub(super) fn submit_residual(
        &mut self,
        documents: Vec<String>,
        reason: &str,
    ) -> Result<(), String> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err("a reason is required to accept a residual risk (Esc cancels)".into());
        }
        let label = sanitize::line(&documents.join(" → "));
        if self.decide(
            AuditAction::AcceptResidual { documents },
            Some(reason.to_string()),
        ) {
            self.decided(format!("residual risk accepted: {label}"));
        }
        Ok(())
    }

    pub(super) fn start_retype(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        let types = self.schema_types();
        let current = &self.ws.model().entities[i].entity_type;
        let selected = types.iter().position(|t| t == current).unwrap_or(0);
        self.layers.push(Layer::TypePicker {
            purpose: TypePurpose::Retype {
                entity: self.ws.model().entities[i].id.clone(),
            },
            types,
            selected,
        });
    }

    /// The type picker for a new entity at `start..end` of document `doc`.
    pub(super) fn pick_type_to_add(&mut self, doc: usize, start: usize, end: usize) {
        self.layers.push(Layer::TypePicker {
            purpose: TypePurpose::Add {
                doc,
                start,
                end,
                relevance: String::new(),
            },
            types: self.schema_types(),
            selected: 0,
        });
    }

    pub(super) fn start_add(&mut self) {
        let Some(doc) = self.ui.open_doc else {
            return self.error("open a document first".into());
        };
        if let Some((start, end)) = self.selected_span() {
            self.ui.doc_selection = None;
            return self.pick_type_to_add(doc, start, end);
        }
        self.layers.push(Layer::AddText {
            doc,
            input: TextArea::default(),
            error: None,
        });
    }

    /// The first whole-word occurrence of `text` in document `doc` (code points).
    pub(super) fn locate_text(&self, doc: usize, text: &str) -> Result<(usize, usize), String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("type the text to mark (Esc cancels)".into());
        }
        let content = &self.ws.corpus().documents[doc].content;
        crate::entity::spans::locate(content, text)
            .first()
            .map(|s| (s.start, s.end))
            .ok_or_else(|| {
                format!(
                    "{:?} does not occur as whole words in this document",
                    sanitize::line(text)
                )
            })
    }

    pub(super) fn choose_type(&mut self, purpose: TypePurpose, entity_type: String) {
        match purpose {
            TypePurpose::Retype { entity } => {
                let Some(key) = self.ws.store().keys.get(&entity) else {
                    return self.error("the entity is no longer in the corpus".into());
                };
                if key.entity_type == entity_type {
                    return self.info("the type is unchanged".into());
                }
                let new_entity = crate::entity::entity_id(&key.normalized, &entity_type);
                if self.decide(
                    AuditAction::Retype {
                        entity,
                        entity_type: entity_type.clone(),
                        new_entity,
                    },
                    None,
                ) {
                    self.decided(format!("retyped to {entity_type} (u undoes)"));
                }
            }
            TypePurpose::Add {
                doc,
                start,
                end,
                relevance,
            } => {
                let doc_id = self.ws.corpus().documents[doc].id.clone();
                if self.decide(
                    AuditAction::AddEntity {
                        doc: doc_id,
                        start,
                        end,
                        entity_type: entity_type.clone(),
                        relevance: parse_relevance(&relevance).ok().flatten(),
                    },
                    None,
                ) {
                    if let Some(pos) = self.mentions(doc).iter().position(|m| m.start == start) {
                        self.ui.doc_cursor = pos;
                        self.ui.doc_follow = true;
                    }
                    self.decided(format!("added a {entity_type} entity (u undoes)"));
                }
            }
        }
    }

    pub(super) fn merge(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        let id = self.ws.model().entities[i].id.clone();
        match self.merge_from.take() {
            None => {
                self.merge_from = Some(id);
                self.info(format!(
                    "merge: {} marked; select the entity to merge it into and press m again (Esc cancels)",
                    self.entity_label(i)
                ));
            }
            Some(from) if from == id => self.info("merge cancelled".into()),
            Some(from) => self
                .layers
                .push(Layer::Confirm(Confirm::Merge { from, into: id })),
        }
    }
}

/// The relevance typed in the type picker: `None` when empty (1.0), an error unless a
/// number in [0, 1].
pub fn parse_relevance(text: &str) -> Result<Option<f64>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(Some(r)),
        _ => Err(format!("relevance {text:?} is not a number in [0, 1]")),
    }
}
