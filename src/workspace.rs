//! The workspace: corpus, entities, session, analysis and plan in one place. The CLI
//! and the terminal UI drive it; neither computes risk itself.

use std::collections::BTreeMap;

use crate::analysis::{Analysis, Model};
use crate::config::Config;
use crate::corpus::Corpus;
use crate::entity::{EntityStore, GlobalEntity};
use crate::extract::{Extractor, Span};
use crate::plan::{Plan, PlanError, Provenance, plan};
use crate::redact::{MaskedEntity, Replacer};
use crate::session::{Action, Decision, Session, SessionError, SessionState};

/// Review state of an entity's decision (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewState {
    Proposed,
    Accepted,
    Stale,
    Overridden,
    Pinned,
}

/// Errors of workspace operations.
#[derive(Debug, thiserror::Error)]
pub enum WorkspaceError {
    #[error(transparent)]
    Plan(#[from] PlanError),
    #[error(transparent)]
    Session(#[from] SessionError),
    #[error(transparent)]
    Edit(#[from] crate::entity::store::EditError),
    #[error("unknown document {0}")]
    UnknownDocument(String),
}

/// Runs `extractor` over every document of the corpus.
pub fn extract_all(corpus: &Corpus, config: &Config, extractor: &dyn Extractor) -> EntityStore {
    let mut store = EntityStore::with_documents(&corpus.documents);
    for (i, doc) in corpus.documents.iter().enumerate() {
        match extractor.extract(doc) {
            Ok(items) => {
                store.set_document_items(i, doc, &items, &config.schema, config.date_order)
            }
            Err(e) => {
                tracing::warn!(doc = %doc.id, error = %e, "extraction failed");
                store.set_document_items(i, doc, &[], &config.schema, config.date_order);
            }
        }
    }
    store
}

/// Everything the product knows about a corpus.
pub struct Workspace {
    pub corpus: Corpus,
    pub config: Config,
    pub store: EntityStore,
    pub session: Option<Session>,
    pub state: SessionState,
    pub extractor: String,
    pub model: Model,
    pub analysis: Analysis,
    pub plan: Plan,
    /// Entity globals keyed by id (derived from the store).
    pub globals: BTreeMap<String, GlobalEntity>,
    /// Warnings from replaying the session (edits that no longer apply).
    pub warnings: Vec<String>,
}

impl Workspace {
    /// Builds the workspace: replays the session's entity edits on the extracted
    /// entities, then analyses and plans.
    pub fn new(
        corpus: Corpus,
        config: Config,
        store: EntityStore,
        session: Option<Session>,
        extractor: &str,
    ) -> Result<Self, WorkspaceError> {
        let state = match &session {
            Some(s) => s.state()?,
            None => SessionState::default(),
        };
        let model = Model::default();
        let analysis = Analysis::new(&model, &config.analysis_params());
        let mut ws = Workspace {
            plan: plan(
                &model,
                &analysis,
                &config.plan_params(),
                &config.constraints(),
            )?,
            corpus,
            config,
            store,
            session,
            state,
            extractor: extractor.to_string(),
            model,
            analysis,
            globals: BTreeMap::new(),
            warnings: Vec::new(),
        };
        let edits = ws.state.edits.clone();
        for edit in &edits {
            if let Err(e) = ws.apply_edit(edit) {
                ws.warnings.push(format!(
                    "session edit {} no longer applies: {e}",
                    edit.name()
                ));
            }
        }
        ws.replan()?;
        Ok(ws)
    }

    fn doc_index(&self, id: &str) -> Result<usize, WorkspaceError> {
        self.corpus
            .documents
            .iter()
            .position(|d| d.id == id)
            .ok_or_else(|| WorkspaceError::UnknownDocument(id.to_string()))
    }

    fn apply_edit(&mut self, action: &Action) -> Result<(), WorkspaceError> {
        match action {
            Action::AddEntity {
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
                    self.config.date_order,
                )?;
            }
            Action::RemoveEntity { entity, doc } => {
                let i = match doc {
                    Some(d) => Some(self.doc_index(d)?),
                    None => None,
                };
                self.store.remove_entity(entity, i)?;
            }
            Action::Retype {
                entity,
                entity_type,
                ..
            } => {
                self.store
                    .retype(entity, entity_type, &self.config.schema)?;
            }
            Action::Merge { from, into } => self.store.merge(from, into)?,
            _ => {}
        }
        Ok(())
    }

    /// Recomputes analysis and plan from the store, the config and the session.
    pub fn replan(&mut self) -> Result<(), WorkspaceError> {
        self.globals = self.store.globals();
        self.model = Model::from_store(&self.store, &self.config.schema);
        self.analysis = Analysis::new(&self.model, &self.config.analysis_params());
        let mut constraints = self.config.constraints();
        constraints.force_mask = self.state.force_mask();
        constraints.force_keep = self.state.force_keep();
        self.plan = plan(
            &self.model,
            &self.analysis,
            &self.config.plan_params(),
            &constraints,
        )?;
        Ok(())
    }

    /// Records a decision in the session (committed before this returns), applies it
    /// and re-plans.
    pub fn apply(&mut self, decision: Decision) -> Result<i64, WorkspaceError> {
        let seq = match &mut self.session {
            Some(s) => s.append(&decision)?,
            None => 0,
        };
        if let Some(s) = &self.session {
            self.state = s.state()?;
        }
        self.apply_edit(&decision.action)?;
        self.replan()?;
        Ok(seq)
    }

    /// Review state of entity `i` (model index).
    pub fn review_state(&self, i: usize) -> ReviewState {
        let id = &self.model.entities[i].id;
        if self.state.forced.contains_key(id) {
            return if self.state.pinned.contains(id) {
                ReviewState::Pinned
            } else {
                ReviewState::Overridden
            };
        }
        match self.state.accepted.get(id) {
            Some((mask, _)) if *mask == self.plan.masked[i] => ReviewState::Accepted,
            Some(_) => ReviewState::Stale,
            None => ReviewState::Proposed,
        }
    }

    /// The masked entities with every original value, for the replacer.
    pub fn masked_entities(&self) -> Vec<MaskedEntity> {
        self.model
            .entities
            .iter()
            .enumerate()
            .filter(|(i, _)| self.plan.masked[*i])
            .map(|(_, e)| MaskedEntity {
                id: e.id.clone(),
                entity_type: e.entity_type.clone(),
                normalized: e.value.clone(),
                originals: self
                    .globals
                    .get(&e.id)
                    .map(|g| g.originals.iter().cloned().collect())
                    .unwrap_or_default(),
            })
            .collect()
    }

    /// A replacer for the current plan.
    pub fn replacer(&self, project_key: &[u8]) -> Replacer {
        Replacer::new(
            self.masked_entities(),
            self.config.redaction,
            &self.config.schema,
            project_key,
            self.config.date_order,
        )
    }

    /// Entities whose provenance says they were masked (model indices).
    pub fn masked_indices(&self) -> Vec<usize> {
        (0..self.model.entities.len())
            .filter(|&i| self.plan.masked[i])
            .collect()
    }

    /// True when any proposed mask is unreviewed or stale.
    pub fn has_unreviewed_masks(&self) -> bool {
        self.masked_indices().into_iter().any(|i| {
            matches!(
                self.review_state(i),
                ReviewState::Proposed | ReviewState::Stale
            ) && !matches!(
                self.plan.provenance[i],
                Provenance::Masked {
                    stage: crate::plan::Stage::Forced,
                    ..
                }
            )
        })
    }
}
