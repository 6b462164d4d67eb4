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

/// With the environment variable `CLAM_TIMINGS` set, prints how long a phase took to
/// stderr as `timing: LABEL=SECONDS` (headless runs; `scripts/scale.sh` reads it).
pub fn report_phase(label: &str, start: std::time::Instant) {
    if std::env::var_os("CLAM_TIMINGS").is_some() {
        eprintln!("timing: {label}={:.2}", start.elapsed().as_secs_f64());
    }
}

/// Runs `extractor` over every document of the corpus, then (unless disabled) the
/// context pass that finds every typed value in the other documents too, and (when
/// enabled) the corpus-level linker pass over what the recognizers left untyped.
pub fn extract_all(
    corpus: &Corpus,
    config: &Config,
    extractor: &(dyn Extractor + Sync),
) -> EntityStore {
    use rayon::prelude::*;
    // Documents are extracted on every core; `collect` keeps corpus order.
    let items: Vec<Vec<ExtractedItem>> = corpus
        .documents
        .par_iter()
        .map(|doc| {
            extractor.extract(doc).unwrap_or_else(|e| {
                tracing::warn!(doc = %doc.id, error = %e, "extraction failed");
                Vec::new()
            })
        })
        .collect();
    finish_extraction(corpus, config, items)
}

/// The corpus-level steps after a per-document extractor (offline or LLM): the
/// context pass, the linker, then canonicalization and the unlocated guard.
pub fn finish_extraction(
    corpus: &Corpus,
    config: &Config,
    mut items: Vec<Vec<ExtractedItem>>,
) -> EntityStore {
    let mut store = EntityStore::with_documents(&corpus.documents);
    corpus_steps(corpus, config, &mut items, None);
    store.set_many_document_items(
        corpus
            .documents
            .iter()
            .zip(&items)
            .enumerate()
            .map(|(i, (doc, its))| (i, doc, its.as_slice())),
        &config.schema,
        config.date_order,
    );
    store
}

/// The corpus-level steps on per-document extractor items: the context pass
/// (one type per value, typed values carried to the other documents) and the
/// linker. With `done`, only the documents marked done are extracted so far:
/// nothing is carried into the others, and the linker, which needs every
/// document, waits until all are done. Once every document is done the result is
/// the same as for a whole corpus extracted at once.
fn corpus_steps(
    corpus: &Corpus,
    config: &Config,
    items: &mut [Vec<ExtractedItem>],
    done: Option<&[bool]>,
) {
    let is_done = |i: usize| done.is_none_or(|d| d.get(i).copied().unwrap_or(false));
    if config.context_pass {
        crate::extract::propagate::harmonize_types(items);
        let short_forms = config.extract.short_forms.unwrap_or(true);
        if short_forms {
            crate::extract::propagate::merge_short_forms(items);
        }
        let carried = crate::extract::propagate::propagate(&corpus.documents, items, short_forms);
        for (i, (mine, extra)) in items.iter_mut().zip(carried).enumerate() {
            if is_done(i) {
                mine.extend(extra);
            }
        }
    }
    let all_done = (0..items.len()).all(is_done);
    if all_done && config.linker && config.schema.contains(crate::extract::linker::LINKER_TYPE) {
        let linked = crate::extract::linker::link(&corpus.documents, items);
        for (mine, extra) in items.iter_mut().zip(linked) {
            mine.extend(extra);
        }
    }
}

/// Entities, analysis and plan computed by a background copy of a workspace
/// ([`Workspace::shadow`]), to be installed with [`Workspace::install`].
#[derive(Debug, Clone)]
pub struct Derived {
    pub extracted: EntityStore,
    pub store: EntityStore,
    pub globals: BTreeMap<String, GlobalEntity>,
    pub model: Arc<Model>,
    pub analysis: Arc<Analysis>,
    pub plan: Plan,
    pub warnings: Vec<String>,
    /// The session state the plan was computed for.
    pub state: SessionState,
    /// The extractor's own items per document (see [`Workspace::raw`]).
    pub raw: Vec<Option<Vec<ExtractedItem>>>,
    /// The configuration the plan was computed with.
    pub config: Config,
}

/// What a recorded decision leaves to compute.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Needs {
    /// Nothing: the plan's inputs did not change.
    Nothing,
    /// A new plan on the current analysis (forced states, planner settings).
    Plan,
    /// Entities, analysis and plan (entity edits, analysis settings).
    Analysis,
}

/// A re-plan's inputs, owned, to run off the UI thread.
pub struct ReplanJob {
    generation: u64,
    /// The entities to analyse again (`Needs::Analysis`), else the shared analysis.
    store: Option<EntityStore>,
    model: Arc<Model>,
    analysis: Arc<Analysis>,
    config: Config,
    force: Forced,
}

/// The session's forced states: entities forced masked, entities forced kept.
type Forced = (
    std::collections::BTreeSet<String>,
    std::collections::BTreeSet<String>,
);

/// What a re-plan recomputes before planning: entity globals, model and analysis.
type Analysed = (BTreeMap<String, GlobalEntity>, Arc<Model>, Arc<Analysis>);

/// The globals, model and analysis of `store` under `config`.
fn analyse(store: &EntityStore, config: &Config) -> Analysed {
    let model = Arc::new(Model::from_store(store, &config.schema));
    let analysis = Arc::new(Analysis::new(&model, &config.analysis_params()));
    (store.globals(), model, analysis)
}

/// The plan of `model` and `analysis` under `config` with the forced states `force`.
fn plan_forced(
    model: &Model,
    analysis: &Analysis,
    config: &Config,
    force: Forced,
) -> Result<Plan, PlanError> {
    let mut constraints = config.constraints();
    (constraints.force_mask, constraints.force_keep) = force;
    crate::plan::plan_parallel(model, analysis, &config.plan_params(), &constraints)
}

/// A finished [`ReplanJob`].
pub struct ReplanDone {
    generation: u64,
    analysed: Option<Analysed>,
    plan: Plan,
}

impl ReplanJob {
    /// Computes what the job needs: the same steps as [`Workspace::replan`] or the
    /// plan alone.
    pub fn run(self) -> Result<ReplanDone, WorkspaceError> {
        let analysed = self
            .store
            .as_ref()
            .map(|store| analyse(store, &self.config));
        let (model, analysis) = match &analysed {
            Some((_, model, analysis)) => (model.clone(), analysis.clone()),
            None => (self.model, self.analysis),
        };
        let plan = plan_forced(&model, &analysis, &self.config, self.force)?;
        Ok(ReplanDone {
            generation: self.generation,
            analysed,
            plan,
        })
    }
}

/// Everything the product knows about a corpus.
pub struct Workspace {
    pub corpus: Corpus,
    /// The configuration in effect: `base_config` with the session's adopted
    /// settings (what-if `Settings` decisions).
    pub config: Config,
    /// The configuration from files and flags, before the session's settings.
    pub base_config: Config,
    pub store: EntityStore,
    pub session: Option<Session>,
    pub state: SessionState,
    pub extractor: String,
    /// How the LLM extractor went (fallbacks, dropped items); `None` when offline.
    pub llm: Option<crate::extract::llm::LlmReport>,
    pub model: Arc<Model>,
    pub analysis: Arc<Analysis>,
    pub plan: Plan,
    /// Entity globals keyed by id (derived from the store).
    pub globals: BTreeMap<String, GlobalEntity>,
    /// Warnings from replaying the session (edits that no longer apply).
    pub warnings: Vec<String>,
    /// The extractor's results before session edits, kept by workspaces that are
    /// extracted incrementally ([`Workspace::pending`]) so a burst of new results or
    /// an undone edit can rebuild `store` as extracted + edits.
    pub extracted: Option<EntityStore>,
    /// The extractor's own items per document (`None` while pending), kept by
    /// incrementally extracted workspaces so the corpus-level steps (context pass,
    /// linker) can be redone as documents arrive.
    pub raw: Vec<Option<Vec<ExtractedItem>>>,
    /// Number of the newest [`ReplanJob`]: an older job's result is not installed.
    pub generation: u64,
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
        ws.replan()?;
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

    /// The derived results of this workspace, to install in another.
    pub fn derived(&self) -> Derived {
        Derived {
            extracted: self.extracted.clone().unwrap_or_else(|| self.store.clone()),
            store: self.store.clone(),
            globals: self.globals.clone(),
            model: self.model.clone(),
            analysis: self.analysis.clone(),
            plan: self.plan.clone(),
            warnings: self.warnings.clone(),
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
                self.raw[i] = Some(items);
                touched.push(i);
            }
        }
        let done: Vec<bool> = self.raw.iter().map(Option::is_some).collect();
        let all_done = done.iter().all(|d| *d);
        let linker = self.config.linker
            && self
                .config
                .schema
                .contains(crate::extract::linker::LINKER_TYPE);
        let extracted = self.extracted.get_or_insert_with(|| self.store.clone());
        if self.config.context_pass || (linker && all_done) {
            // Every document that is in can gain values from the new ones.
            let mut items: Vec<Vec<ExtractedItem>> = self
                .raw
                .iter()
                .map(|r| r.clone().unwrap_or_default())
                .collect();
            corpus_steps(&self.corpus, &self.config, &mut items, Some(&done));
            extracted.set_many_document_items(
                items
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| done[*i])
                    .map(|(i, its)| (i, &self.corpus.documents[i], its.as_slice())),
                &self.config.schema,
                self.config.date_order,
            );
        } else {
            let raw = &self.raw;
            extracted.set_many_document_items(
                touched.iter().map(|&i| {
                    let its = raw[i].as_deref().unwrap_or(&[]);
                    (i, &self.corpus.documents[i], its)
                }),
                &self.config.schema,
                self.config.date_order,
            );
        }
        self.rebuild_store()
    }

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
    fn restore_store(&mut self) {
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

    fn doc_index(&self, id: &str) -> Result<usize, WorkspaceError> {
        self.corpus
            .documents
            .iter()
            .position(|d| d.id == id)
            .ok_or_else(|| WorkspaceError::UnknownDocument(id.to_string()))
    }

    /// Applies an entity edit to the store; false when `action` is not an edit.
    fn apply_edit(&mut self, action: &AuditAction) -> Result<bool, WorkspaceError> {
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
                    self.config.date_order,
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

    /// Recomputes analysis and plan from the store, the config and the session.
    pub fn replan(&mut self) -> Result<(), WorkspaceError> {
        let t = std::time::Instant::now();
        (self.globals, self.model, self.analysis) = analyse(&self.store, &self.config);
        report_phase("analyze", t);
        let t = std::time::Instant::now();
        self.plan_only()?;
        report_phase("plan", t);
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

    /// Brings `config` in line with the session's adopted settings after they changed
    /// from `before` (a `Settings` decision, or its undo): each changed key takes the
    /// adopted value, or the base configuration's once no setting holds it. Other
    /// keys keep their current value. True when the analysis must be recomputed.
    fn sync_settings(&mut self, before: &BTreeMap<String, String>) -> bool {
        let now = &self.state.settings;
        if before == now {
            return false;
        }
        let mut config = self.config.clone();
        let keys: std::collections::BTreeSet<&String> = before.keys().chain(now.keys()).collect();
        for key in keys {
            if before.get(key) == now.get(key) {
                continue;
            }
            let Ok(p) = crate::config::Param::parse(key) else {
                continue;
            };
            let value = now
                .get(key)
                .cloned()
                .unwrap_or_else(|| p.value(&self.base_config));
            if let Err(e) = p.assign(&mut config, &value) {
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
            Some(_) => self.state.apply(seq, &decision.action),
            // Without a session, adopted settings still take effect.
            None => {
                if let AuditAction::Settings { new, .. } = &decision.action {
                    self.state.settings.extend(new.clone());
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
        self.masked_entities_of(&self.plan.masked)
    }

    /// The entities flagged in `masked` (by model index; another plan's or a baseline's
    /// mask set) with every original value.
    pub fn masked_entities_of(&self, masked: &[bool]) -> Vec<MaskedEntity> {
        self.model
            .entities
            .iter()
            .enumerate()
            .filter(|(i, _)| masked.get(*i).copied().unwrap_or(false))
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
        self.replacer_of(&self.plan.masked, project_key)
    }

    /// A replacer for the mask set `masked` (model indices), in the configured mode.
    pub fn replacer_of(&self, masked: &[bool], project_key: &[u8]) -> Replacer {
        Replacer::new(
            self.masked_entities_of(masked),
            self.config.redaction,
            &self.config.schema,
            project_key,
        )
    }

    /// Entities whose provenance says they were masked (model indices).
    pub fn masked_indices(&self) -> Vec<usize> {
        (0..self.model.entities.len())
            .filter(|&i| self.plan.masked[i])
            .collect()
    }

    /// True when the auditor accepted the residual risk of this document (one id) or
    /// chain (its document ids, any order).
    pub fn residual_accepted(&self, documents: &[String]) -> bool {
        self.state
            .accepted_residuals
            .contains(&crate::session::gold::key(documents))
    }

    /// The document ids of a chain (analysis index).
    pub fn chain_doc_ids(&self, chain: usize) -> Vec<String> {
        self.analysis.chains[chain]
            .docs
            .iter()
            .map(|&d| self.model.docs[d as usize].id.clone())
            .collect()
    }

    /// The plan's residual documents (ids) and chains (document ids) whose risk the
    /// auditor accepted, in plan order.
    pub fn accepted_residuals(&self) -> (Vec<String>, Vec<Vec<String>>) {
        if self.state.accepted_residuals.is_empty() {
            return (Vec::new(), Vec::new());
        }
        let docs = self
            .plan
            .residual_docs
            .iter()
            .map(|&d| self.model.docs[d as usize].id.clone())
            .filter(|id| self.residual_accepted(std::slice::from_ref(id)))
            .collect();
        let chains = self
            .plan
            .residual_chains
            .iter()
            .map(|&c| self.chain_doc_ids(c as usize))
            .filter(|ids| self.residual_accepted(ids))
            .collect();
        (docs, chains)
    }

    /// Residual documents and chains of the plan whose risk nobody accepted yet.
    pub fn unaccepted_residuals(&self) -> (usize, usize) {
        let (docs, chains) = self.accepted_residuals();
        (
            self.plan.residual_docs.len() - docs.len(),
            self.plan.residual_chains.len() - chains.len(),
        )
    }

    /// Decisions on entities that no longer occur in the corpus (SPEC §6: listed as
    /// orphaned, never dropped; they apply again if the entity comes back): entity
    /// id and the decision in force, sorted by id.
    pub fn orphaned_decisions(&self) -> Vec<(String, &'static str)> {
        let gone = |id: &String| self.model.entity_index(id).is_none();
        let mut out: Vec<(String, &'static str)> = self
            .state
            .forced
            .iter()
            .filter(|(id, _)| gone(id))
            .map(|(id, (mask, _))| {
                let kind = match (self.state.pinned.contains(id), mask) {
                    (true, true) => "pinned mask",
                    (true, false) => "pinned keep",
                    (false, true) => "override to mask",
                    (false, false) => "override to keep",
                };
                (id.clone(), kind)
            })
            .collect();
        out.extend(
            self.state
                .accepted
                .iter()
                .filter(|(id, _)| gone(id) && !self.state.forced.contains_key(*id))
                .map(|(id, (mask, _))| {
                    (
                        id.clone(),
                        if *mask {
                            "accepted mask"
                        } else {
                            "accepted keep"
                        },
                    )
                }),
        );
        out.sort();
        out
    }

    /// Proposed masks that are unreviewed or stale (masks forced by the type policy
    /// need no review).
    pub fn unreviewed_masks(&self) -> usize {
        self.masked_indices()
            .into_iter()
            .filter(|&i| {
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
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Document;
    use crate::entity::ExtractedItem;

    fn item(v: &str, t: &str) -> ExtractedItem {
        ExtractedItem {
            original: v.into(),
            normalized: String::new(),
            entity_type: t.into(),
            relevance: 0.9,
            spans: vec![],
        }
    }

    /// The extracted items of document `i` of [`workspace`]'s corpus.
    fn items_of(i: usize) -> Vec<ExtractedItem> {
        let mut items = vec![item("Cedar Clinic", "PROVIDER")];
        if i < 2 {
            items.push(item("MBR-1001", "PATIENT_ID"));
            items.push(item("lupus nephritis", "MEDICAL_CONDITION"));
        }
        items
    }

    fn workspace() -> Workspace {
        let docs = vec![
            Document::new(
                "a",
                "Member MBR-1001 has lupus nephritis, seen at Cedar Clinic.",
            ),
            Document::new("b", "MBR-1001: lupus nephritis follow-up at Cedar Clinic."),
            Document::new("c", "Unrelated note about Cedar Clinic."),
        ];
        let config = Config {
            always_mask: vec![],
            ..Config::default()
        };
        let mut store = EntityStore::with_documents(&docs);
        for (i, d) in docs.iter().enumerate() {
            store.set_document_items(i, d, &items_of(i), &config.schema, config.date_order);
        }
        let corpus = Corpus {
            documents: docs,
            ..Corpus::default()
        };
        Workspace::new(corpus, config, store, None, "test").expect("workspace")
    }

    #[test]
    fn every_decision_leaves_the_plan_a_full_re_plan_would_make() {
        let dir = tempfile::tempdir().expect("tempdir");
        let mut ws = workspace();
        ws.session = Some(Session::open(&dir.path().join("s.sqlite")).expect("session"));
        let id = |ws: &Workspace, i: usize| ws.model.entities[i].id.clone();
        let decision = |action: AuditAction| Decision {
            actor: "t".into(),
            action,
            reason: Some("r".into()),
            state_before: None,
            state_after: None,
            config_hash: String::new(),
        };
        let masked = (0..ws.model.entities.len())
            .find(|&i| ws.plan.masked[i])
            .expect("a masked entity");
        let steps = [
            AuditAction::Accept {
                entity: id(&ws, masked),
                mask: true,
            },
            AuditAction::Override {
                entity: id(&ws, masked),
                mask: false,
            },
            AuditAction::Accept {
                entity: id(&ws, 0),
                mask: ws.plan.masked[0],
            },
            AuditAction::AcceptResidual {
                documents: vec!["a".into()],
            },
            AuditAction::Unpin {
                entity: id(&ws, masked),
            },
            AuditAction::Pin {
                entity: id(&ws, 1),
                mask: true,
            },
        ];
        for step in steps {
            ws.apply(decision(step.clone())).expect("apply");
            let kept = ws.plan.clone();
            ws.replan().expect("replan");
            assert_eq!(ws.plan, kept, "after {step:?}");
            match step {
                AuditAction::Override { .. } => {
                    assert!(!ws.plan.masked[masked], "override in force")
                }
                AuditAction::Unpin { .. } => {
                    assert!(ws.plan.masked[masked], "the proposal is back")
                }
                AuditAction::Pin { .. } => assert!(ws.plan.masked[1], "the pin holds"),
                _ => {}
            }
        }
    }

    #[test]
    fn undoing_an_entity_edit_brings_the_entity_back() {
        let dir = tempfile::tempdir().expect("tempdir");
        let docs = workspace().corpus.documents;
        let corpus = Corpus {
            documents: docs,
            ..Corpus::default()
        };
        let session = Session::open(&dir.path().join("s.sqlite")).expect("session");
        let mut ws =
            Workspace::pending(corpus, Config::default(), Some(session), "test").expect("ws");
        ws.set_extracted((0..3).map(|i| (i, items_of(i))))
            .expect("extracted");
        let (entities, plan) = (ws.model.entities.clone(), ws.plan.clone());
        let id = crate::entity::entity_id("MBR1001", "PATIENT_ID");
        let decide = |ws: &mut Workspace, action: AuditAction| {
            ws.apply(Decision {
                actor: "t".into(),
                action,
                reason: None,
                state_before: None,
                state_after: None,
                config_hash: String::new(),
            })
            .expect("apply")
        };
        let seq = decide(
            &mut ws,
            AuditAction::RemoveEntity {
                entity: id.clone(),
                doc: None,
            },
        );
        assert!(ws.model.entity_index(&id).is_none());
        decide(&mut ws, AuditAction::Undo { seq });
        assert_eq!(ws.model.entities, entities, "the entity is back");
        assert_eq!(ws.plan, plan);
    }

    #[test]
    fn the_linker_pass_runs_when_enabled() {
        struct Nothing;
        impl Extractor for Nothing {
            fn name(&self) -> &str {
                "nothing"
            }
            fn extract(
                &self,
                _: &crate::corpus::Document,
            ) -> Result<Vec<ExtractedItem>, crate::extract::ExtractError> {
                Ok(Vec::new())
            }
        }
        let corpus = Corpus {
            documents: vec![
                Document::new("a", "A novel bone-grafting technique was used."),
                Document::new("b", "The bone-grafting technique again."),
            ],
            ..Corpus::default()
        };
        let mut config = Config::default();
        let off = extract_all(&corpus, &config, &Nothing);
        assert!(off.globals().is_empty());
        config = crate::config::ConfigLayer::from_toml("linker = true", "test")
            .and_then(|layer| {
                let mut c = config.clone();
                layer.apply(&mut c, "test").map(|_| c)
            })
            .expect("config");
        let on = extract_all(&corpus, &config, &Nothing);
        let values: Vec<String> = on
            .globals()
            .values()
            .map(|g| g.normalized.clone())
            .collect();
        assert_eq!(values, vec!["bone-grafting technique".to_string()]);
    }

    #[test]
    fn adopted_settings_persist_in_the_session_and_undo_restores_the_base() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("s.sqlite");
        let settings = |old: &str, new: &str| Decision {
            actor: "t".into(),
            action: AuditAction::Settings {
                old: BTreeMap::from([("edge_threshold".to_string(), old.to_string())]),
                new: BTreeMap::from([("edge_threshold".to_string(), new.to_string())]),
            },
            reason: None,
            state_before: None,
            state_after: None,
            config_hash: "h".into(),
        };
        let seq;
        {
            let mut ws = workspace();
            ws.session = Some(Session::open(&path).expect("session"));
            assert_eq!(ws.analysis.edges.len(), 1);
            seq = ws.apply(settings("0.5", "1")).expect("adopt");
            assert_eq!(ws.config.analysis.edge_threshold, 1.0);
            assert!(ws.analysis.edges.is_empty(), "re-analysed");
        }
        let reopened = |ws: Workspace| {
            let Workspace {
                corpus,
                base_config,
                store,
                ..
            } = ws;
            let session = Session::open(&path).expect("session");
            Workspace::new(corpus, base_config, store, Some(session), "test").expect("ws")
        };
        let mut ws = reopened(workspace());
        assert_eq!(
            ws.config.analysis.edge_threshold, 1.0,
            "restored on reopening"
        );
        assert_eq!(ws.base_config.analysis.edge_threshold, 0.5);
        assert!(ws.analysis.edges.is_empty());
        let undo = Decision {
            action: AuditAction::Undo { seq },
            ..settings("", "")
        };
        ws.apply(undo).expect("undo");
        assert_eq!(ws.config.analysis.edge_threshold, 0.5, "back to the base");
        assert_eq!(ws.analysis.edges.len(), 1);
    }

    #[test]
    fn a_planner_threshold_change_keeps_the_analysis_and_replans() {
        let mut ws = workspace();
        assert_eq!(ws.analysis.edges.len(), 1);
        let before = ws.plan.masked_count();
        let mut strict = ws.config.clone();
        strict.plan.theta_chain = 0.0;
        strict.plan.rho_high = 0.0;
        strict.plan.rho_medium = 0.0;
        let edges_ptr = ws.analysis.edges.as_ptr();
        ws.set_config(strict).expect("set config");
        assert_eq!(ws.analysis.edges.as_ptr(), edges_ptr, "analysis reused");
        assert!(ws.plan.masked_count() > before);
        let mut pruned = ws.config.clone();
        pruned.analysis.edge_threshold = 1.0;
        ws.set_config(pruned).expect("set config");
        assert!(
            ws.analysis.edges.is_empty(),
            "re-analysed with the new threshold"
        );
    }
}
