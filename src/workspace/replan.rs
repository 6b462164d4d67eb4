//! Re-analysis and re-planning off the UI thread: what a change needs, the job that computes it and what it hands back.

use super::*;

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
    pub raw: Vec<Option<Arc<[ExtractedItem]>>>,
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
    pub(super) generation: u64,
    /// The entities to analyse again (`Needs::Analysis`), else the shared analysis.
    pub(super) store: Option<EntityStore>,
    pub(super) model: Arc<Model>,
    pub(super) analysis: Arc<Analysis>,
    pub(super) config: Config,
    pub(super) force: Forced,
}

/// The globals, model and analysis of `store` under `config`.
pub(super) fn analyse(store: &EntityStore, config: &Config) -> Analysed {
    let model = Arc::new(Model::from_store(store, &config.schema));
    let analysis = Arc::new(Analysis::new(&model, &config.analysis_params()));
    (store.globals(), model, analysis)
}

/// [`analyse`] for an export-only workspace: the store's occurrences are let go as
/// soon as the model and the globals are made, before the edges and chains, the
/// analysis's largest part.
pub(super) fn analyse_releasing(store: &mut EntityStore, config: &Config) -> Analysed {
    let model = Arc::new(Model::from_store(store, &config.schema));
    let globals = store.globals();
    store.release_occurrences();
    let analysis = Arc::new(Analysis::new(&model, &config.analysis_params()));
    (globals, model, analysis)
}

/// The plan of `model` and `analysis` under `config` with the forced states `force`.
pub(super) fn plan_forced(
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
#[derive(Debug)]
pub struct ReplanDone {
    pub(super) generation: u64,
    pub(super) analysed: Option<Analysed>,
    pub(super) plan: Plan,
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
