//! The workspace: corpus, entities, session, analysis and plan in one place. The CLI
//! and the terminal UI drive it; neither computes risk itself.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::analysis::{Analysis, Model};
use crate::config::Config;
use crate::corpus::Corpus;
use crate::entity::{EntityStore, ExtractedItem, GlobalEntity, Span};
use crate::extract::Extractor;
use crate::plan::{Plan, PlanError, Provenance, plan};
use crate::redact::{MaskedEntity, Replacer};
use crate::session::{AuditAction, Decision, Session, SessionError, SessionState};

pub mod decide;
mod decisions;
mod queries;

mod pipeline;
mod replan;
use pipeline::*;
pub use pipeline::{
    extract_all, extract_all_with, extract_documents, finish_extraction, finish_extraction_with,
};
pub use replan::Derived;
pub use replan::Needs;
pub use replan::ReplanDone;
pub use replan::ReplanJob;
use replan::*;

pub use crate::session::ReviewState;

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

/// The session's forced states: entities forced masked, entities forced kept.
type Forced = (
    std::collections::BTreeSet<String>,
    std::collections::BTreeSet<String>,
);

/// What a re-plan recomputes before planning: entity globals, model and analysis.
type Analysed = (BTreeMap<String, GlobalEntity>, Arc<Model>, Arc<Analysis>);

/// Everything the product knows about a corpus. Its fields are its own: the UI and
/// the commands read them through the views below and change them only through
/// the workspace's commands (decisions, settings, extraction results), so every
/// change goes through the same re-plan and audit path.
pub struct Workspace {
    corpus: Corpus,
    /// The configuration in effect: `base_config` with the session's adopted
    /// settings (what-if `Settings` decisions).
    config: Config,
    /// The configuration from files and flags, before the session's settings.
    base_config: Config,
    store: EntityStore,
    session: Option<Session>,
    state: SessionState,
    extractor: String,
    /// How the LLM extractor went (fallbacks, dropped items); `None` when offline.
    llm: Option<crate::extract::llm::LlmReport>,
    model: Arc<Model>,
    analysis: Arc<Analysis>,
    plan: Plan,
    /// Entity globals keyed by id (derived from the store).
    globals: BTreeMap<String, GlobalEntity>,
    /// Warnings from replaying the session (edits that no longer apply).
    warnings: Vec<String>,
    /// The extractor's results before session edits, kept by workspaces that are
    /// extracted incrementally ([`Workspace::pending`]) so a burst of new results or
    /// an undone edit can rebuild `store` as extracted + edits.
    extracted: Option<EntityStore>,
    /// The extractor's own items per document (`None` while pending), kept by
    /// incrementally extracted workspaces so the corpus-level steps (context pass,
    /// linker) can be redone as documents arrive.
    /// Shared per document: a burst's results reach the UI without copying them.
    raw: Vec<Option<Arc<[ExtractedItem]>>>,
    /// Number of the newest [`ReplanJob`]: an older job's result is not installed.
    generation: u64,
}

impl Workspace {
    /// The corpus.
    pub fn corpus(&self) -> &Corpus {
        &self.corpus
    }

    /// The configuration in effect: the files' and flags' with the session's
    /// adopted settings.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The configuration from files and flags, before the session's settings.
    pub fn base_config(&self) -> &Config {
        &self.base_config
    }

    /// The entities, after the session's entity edits.
    pub fn store(&self) -> &EntityStore {
        &self.store
    }

    /// The session, when the workspace has one.
    pub fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }

    /// The session's replayed state (decisions, settings, gold chains).
    pub fn state(&self) -> &SessionState {
        &self.state
    }

    /// The extractor's name ("offline", "llm", ...).
    pub fn extractor(&self) -> &str {
        &self.extractor
    }

    /// How the LLM extractor went; `None` when offline.
    pub fn llm(&self) -> Option<&crate::extract::llm::LlmReport> {
        self.llm.as_ref()
    }

    /// Records how the LLM extractor went.
    pub fn set_llm_report(&mut self, report: Option<crate::extract::llm::LlmReport>) {
        self.llm = report;
    }

    /// The analysed model (documents and entities of the extracted documents).
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    /// The analysis of the model under the configuration in effect.
    pub fn analysis(&self) -> &Arc<Analysis> {
        &self.analysis
    }

    /// The plan in effect.
    pub fn plan(&self) -> &Plan {
        &self.plan
    }

    /// Entity globals keyed by id.
    pub fn globals(&self) -> &BTreeMap<String, GlobalEntity> {
        &self.globals
    }

    /// Warnings from replaying the session (edits that no longer apply).
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    /// Builds the workspace: replays the session's entity edits on the extracted
    /// entities, then analyses and plans.
    pub fn new(
        corpus: Corpus,
        config: Config,
        store: EntityStore,
        session: Option<Session>,
        extractor: &str,
    ) -> Result<Self, WorkspaceError> {
        Self::build(corpus, config, store, session, extractor, false)
    }

    /// [`Workspace::new`] for a workspace that is exported and never reviewed or
    /// edited (`clam run`): once the entities are analysed, every occurrence's spans
    /// and originals and the store's keys are let go before the plan (the entity
    /// index keeps what the export reads), which is a gigabyte at a million
    /// documents. The result only reads.
    pub fn new_for_export(
        corpus: Corpus,
        config: Config,
        store: EntityStore,
        session: Option<Session>,
        extractor: &str,
    ) -> Result<ExportOnly, WorkspaceError> {
        Self::build(corpus, config, store, session, extractor, true).map(ExportOnly)
    }

    fn build(
        corpus: Corpus,
        config: Config,
        store: EntityStore,
        session: Option<Session>,
        extractor: &str,
        export_only: bool,
    ) -> Result<Self, WorkspaceError> {
        let state = match &session {
            Some(s) => s.state()?,
            None => SessionState::default(),
        };
        let base_config = config.clone();
        let (config, settings_warnings) =
            crate::config::params::apply_settings(&base_config, &state.settings);
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
            base_config,
            store,
            session,
            state,
            extractor: extractor.to_string(),
            llm: None,
            model: Arc::new(model),
            analysis: Arc::new(analysis),
            globals: BTreeMap::new(),
            warnings: settings_warnings,
            extracted: None,
            raw: Vec::new(),
            generation: 0,
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
        ws.analyse_and_plan(export_only)?;
        Ok(ws)
    }

    /// A workspace whose documents are all still pending extraction: the terminal
    /// application shows it at once and feeds results in with
    /// [`Workspace::set_extracted`]. Session edits wait until their documents are
    /// extracted (an added entity would otherwise mark its document complete).
    pub fn pending(
        corpus: Corpus,
        config: Config,
        session: Option<Session>,
        extractor: &str,
    ) -> Result<Self, WorkspaceError> {
        let store = EntityStore::with_documents(&corpus.documents);
        let mut ws = Workspace::new(corpus, config, store, None, extractor)?;
        if let Some(s) = &session {
            ws.state = s.state()?;
            ws.config =
                crate::config::params::apply_settings(&ws.base_config, &ws.state.settings).0;
        }
        ws.session = session;
        ws.raw = vec![None; ws.corpus.documents.len()];
        ws.extracted = Some(ws.store.clone());
        ws.rebuild_store()?;
        Ok(ws)
    }

    /// A copy without the session, for planning extraction results off the UI
    /// thread: it holds the corpus, configuration, extracted entities and session
    /// state as they are now.
    pub fn shadow(&self) -> Result<Workspace, WorkspaceError> {
        let store = EntityStore::with_documents(&self.corpus.documents);
        let mut ws = Workspace::new(
            self.corpus.clone(),
            self.config.clone(),
            store,
            None,
            &self.extractor,
        )?;
        ws.state = self.state.clone();
        ws.raw = self.raw.clone();
        ws.extracted = Some(self.extracted.clone().unwrap_or_else(|| self.store.clone()));
        ws.rebuild_store()?;
        Ok(ws)
    }

    /// A copy to export from another thread: the same corpus, entities, plan and
    /// state, with its own connection to the session (for the audit log). Model and
    /// analysis are shared, not copied.
    pub fn snapshot(&self) -> Result<Workspace, WorkspaceError> {
        let session = match &self.session {
            Some(s) => Some(Session::open(s.path())?),
            None => None,
        };
        Ok(Workspace {
            corpus: self.corpus.clone(),
            config: self.config.clone(),
            base_config: self.base_config.clone(),
            store: self.store.clone(),
            session,
            state: self.state.clone(),
            extractor: self.extractor.clone(),
            llm: self.llm.clone(),
            model: self.model.clone(),
            analysis: self.analysis.clone(),
            plan: self.plan.clone(),
            globals: self.globals.clone(),
            warnings: self.warnings.clone(),
            extracted: None,
            raw: Vec::new(),
            generation: self.generation,
        })
    }

    /// The derived results of this workspace, to install in another, taken out of
    /// it: what the next [`Workspace::set_extracted`] recomputes anyway (entities
    /// after edits, globals, plan, warnings) is moved, model and analysis and each
    /// document's raw items are shared, and only the extracted entities (which both
    /// workspaces go on editing), the session state and the configuration are
    /// copied. The extraction job sends one per burst.
    pub fn take_derived(&mut self) -> Derived {
        Derived {
            extracted: self.extracted.clone().unwrap_or_else(|| self.store.clone()),
            store: std::mem::take(&mut self.store),
            globals: std::mem::take(&mut self.globals),
            model: self.model.clone(),
            analysis: self.analysis.clone(),
            plan: std::mem::take(&mut self.plan),
            warnings: std::mem::take(&mut self.warnings),
            state: self.state.clone(),
            raw: self.raw.clone(),
            config: self.config.clone(),
        }
    }

    /// Installs results computed by a shadow. Decisions taken since the shadow's
    /// state are applied on top: entity edits rebuild the entities, other decisions
    /// only re-plan.
    pub fn install(&mut self, d: Derived) -> Result<(), WorkspaceError> {
        let edits_changed = d.state.edits != self.state.edits;
        let state_changed = d.state != self.state;
        // Settings adopted since the shadow started: its results used the old ones.
        let reanalyse = d.config.analysis_params() != self.config.analysis_params()
            || d.config.schema != self.config.schema;
        let config_changed = d.config != self.config;
        self.extracted = Some(d.extracted);
        self.raw = d.raw;
        self.store = d.store;
        self.globals = d.globals;
        self.model = d.model;
        self.analysis = d.analysis;
        self.plan = d.plan;
        self.warnings = d.warnings;
        self.generation += 1;
        if edits_changed {
            self.rebuild_store()
        } else if reanalyse {
            self.replan()
        } else if state_changed || config_changed {
            self.plan_only()
        } else {
            Ok(())
        }
    }

    /// True when every document's extraction is complete.
    pub fn extraction_complete(&self) -> bool {
        let store = self.extracted.as_ref().unwrap_or(&self.store);
        store.docs.iter().all(|d| d.complete)
    }

    /// How many documents are extracted so far.
    pub fn extracted_documents(&self) -> usize {
        let store = self.extracted.as_ref().unwrap_or(&self.store);
        store.docs.iter().filter(|d| d.complete).count()
    }

    /// Records the extractor's items for a burst of documents (corpus indices), then
    /// redoes the corpus-level steps (context pass, and the linker once every
    /// document is in), rebuilds the entities and re-plans once for the whole burst.
    /// When the last document is in, the entities are those of [`extract_all`].
    pub fn set_extracted(
        &mut self,
        batch: impl IntoIterator<Item = (usize, Vec<ExtractedItem>)>,
    ) -> Result<(), WorkspaceError> {
        let n = self.corpus.documents.len();
        if self.raw.len() != n {
            self.raw = vec![None; n];
        }
        let mut touched: Vec<usize> = Vec::new();
        for (i, items) in batch {
            if i < n {
                self.raw[i] = Some(items.into());
                touched.push(i);
            }
        }
        let done: Vec<bool> = self.raw.iter().map(Option::is_some).collect();
        let all_done = done.iter().all(|d| *d);
        let linker = self.config.extraction.linker
            && self
                .config
                .schema
                .contains(crate::extract::linker::LINKER_TYPE);
        let extracted = self.extracted.get_or_insert_with(|| self.store.clone());
        if self.config.extraction.context_pass || (linker && all_done) {
            // Every document that is in can gain values from the new ones.
            let mut items: Vec<Vec<ExtractedItem>> = self
                .raw
                .iter()
                .map(|r| r.as_deref().map(<[_]>::to_vec).unwrap_or_default())
                .collect();
            corpus_steps(&self.corpus, &self.config, &mut items, Some(&done));
            extracted.set_many_document_items(
                items
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| done[*i])
                    .map(|(i, its)| (i, &self.corpus.documents[i], its.as_slice())),
                &self.config.schema,
                self.config.extraction.date_order,
            );
        } else {
            let raw = &self.raw;
            extracted.set_many_document_items(
                touched.iter().map(|&i| {
                    let its = raw[i].as_deref().unwrap_or(&[]);
                    (i, &self.corpus.documents[i], its)
                }),
                &self.config.schema,
                self.config.extraction.date_order,
            );
        }
        self.rebuild_store()
    }

    /// Recomputes analysis and plan from the store, the config and the session.
    pub fn replan(&mut self) -> Result<(), WorkspaceError> {
        self.analyse_and_plan(false)
    }

    /// Analyses the store and plans; with `release` (an export-only workspace) the
    /// store's occurrences are let go once the model is made, and the document graph
    /// once the plan is.
    fn analyse_and_plan(&mut self, release: bool) -> Result<(), WorkspaceError> {
        let p = crate::phase::phase("analyze");
        (self.globals, self.model, self.analysis) = if release {
            analyse_releasing(&mut self.store, &self.config)
        } else {
            analyse(&self.store, &self.config)
        };
        drop(p);
        let _p = crate::phase::phase("plan");
        self.plan_only()?;
        Ok(())
    }

    /// Changes the configuration; the analysis (edges, chains) is kept when neither
    /// its parameters nor the schema changed, so a planner-threshold change only
    /// re-plans.
    pub fn set_config(&mut self, config: Config) -> Result<(), WorkspaceError> {
        let reanalyse = config.schema != self.config.schema
            || config.analysis_params() != self.config.analysis_params();
        self.config = config;
        if reanalyse {
            self.replan()
        } else {
            self.plan_only()
        }
    }

    /// The session's forced states (overrides and pins).
    fn forced(&self) -> Forced {
        (self.state.force_mask(), self.state.force_keep())
    }

    /// Re-plans on the current analysis (decisions and planner thresholds changed).
    fn plan_only(&mut self) -> Result<(), WorkspaceError> {
        // Whatever a re-plan job still running computes is older than this.
        self.generation += 1;
        self.plan = plan_forced(&self.model, &self.analysis, &self.config, self.forced())?;
        Ok(())
    }

    /// Runs the re-plan `needs` asks for, here.
    pub fn compute(&mut self, needs: Needs) -> Result<(), WorkspaceError> {
        match needs {
            Needs::Nothing => Ok(()),
            Needs::Plan => self.plan_only(),
            Needs::Analysis => self.replan(),
        }
    }

    /// The inputs of the re-plan `needs` asks for, to compute on another thread; the
    /// model and analysis are shared, not copied. Install the result with
    /// [`Workspace::install_replan`].
    pub fn replan_job(&mut self, needs: Needs) -> ReplanJob {
        self.generation += 1;
        ReplanJob {
            generation: self.generation,
            store: (needs == Needs::Analysis).then(|| self.store.clone()),
            model: self.model.clone(),
            analysis: self.analysis.clone(),
            config: self.config.clone(),
            force: self.forced(),
        }
    }

    /// Installs a re-plan computed by [`ReplanJob::run`]; false (and nothing
    /// changes) when a newer job was started since, whose result will follow.
    pub fn install_replan(&mut self, done: ReplanDone) -> bool {
        if done.generation != self.generation {
            return false;
        }
        if let Some((globals, model, analysis)) = done.analysed {
            self.globals = globals;
            self.model = model;
            self.analysis = analysis;
        }
        self.plan = done.plan;
        true
    }
}

/// A workspace made to be exported ([`Workspace::new_for_export`]): it reads like a
/// workspace, but its entity store holds only per-document counts, so it offers no
/// decision, edit or re-plan.
pub struct ExportOnly(Workspace);

impl ExportOnly {
    /// Records how the LLM extractor went, for the report.
    pub fn set_llm_report(&mut self, report: Option<crate::extract::llm::LlmReport>) {
        self.0.set_llm_report(report);
    }
}

impl std::borrow::Borrow<Workspace> for ExportOnly {
    fn borrow(&self) -> &Workspace {
        &self.0
    }
}

impl std::ops::Deref for ExportOnly {
    type Target = Workspace;
    fn deref(&self) -> &Workspace {
        &self.0
    }
}

/// The export reads the workspace through this view (the export's layer is below
/// the workspace's).
impl crate::export::ExportSource for Workspace {
    fn corpus(&self) -> &Corpus {
        &self.corpus
    }
    fn config(&self) -> &Config {
        &self.config
    }
    fn store(&self) -> &EntityStore {
        &self.store
    }
    fn session(&self) -> Option<&Session> {
        self.session.as_ref()
    }
    fn state(&self) -> &SessionState {
        &self.state
    }
    fn extractor(&self) -> &str {
        &self.extractor
    }
    fn llm(&self) -> Option<&crate::extract::llm::LlmReport> {
        self.llm.as_ref()
    }
    fn model(&self) -> &Model {
        &self.model
    }
    fn analysis(&self) -> &Analysis {
        &self.analysis
    }
    fn plan(&self) -> &Plan {
        &self.plan
    }
    fn warnings(&self) -> &[String] {
        &self.warnings
    }
    fn review_state(&self, i: usize) -> ReviewState {
        Workspace::review_state(self, i)
    }
    fn replacer(&self, project_key: &[u8]) -> Replacer {
        Workspace::replacer(self, project_key)
    }
    fn residual_accepted(&self, documents: &[String]) -> bool {
        Workspace::residual_accepted(self, documents)
    }
    fn chain_doc_ids(&self, chain: usize) -> Vec<String> {
        Workspace::chain_doc_ids(self, chain)
    }
    fn accepted_residuals(&self) -> (Vec<String>, Vec<Vec<String>>) {
        Workspace::accepted_residuals(self)
    }
    fn unaccepted_residuals(&self) -> (usize, usize) {
        Workspace::unaccepted_residuals(self)
    }
    fn orphaned_decisions(&self) -> Vec<(String, &'static str)> {
        Workspace::orphaned_decisions(self)
    }
    fn masked_entities(&self) -> Vec<MaskedEntity> {
        Workspace::masked_entities(self)
    }
    fn unreviewed_masks(&self) -> usize {
        Workspace::unreviewed_masks(self)
    }
}

#[cfg(test)]
mod tests;
