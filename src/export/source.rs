//! What the export reads: a view of the reviewed corpus (the workspace implements
//! it), so the export's layer stays below the workspace's.

use crate::analysis::{Analysis, Model};
use crate::config::Config;
use crate::corpus::Corpus;
use crate::entity::EntityStore;
use crate::plan::Plan;
use crate::redact::Replacer;
use crate::session::{ReviewState, Session, SessionState};

/// The corpus, its entities, analysis, plan and decisions as the export needs
/// them.
pub trait ExportSource {
    fn corpus(&self) -> &Corpus;
    /// The configuration in effect.
    fn config(&self) -> &Config;
    /// The entities after the session's edits.
    fn store(&self) -> &EntityStore;
    fn session(&self) -> Option<&Session>;
    fn state(&self) -> &SessionState;
    /// The extractor's name.
    fn extractor(&self) -> &str;
    /// How the LLM extractor went; `None` when offline.
    fn llm(&self) -> Option<&crate::extract::llm::LlmReport>;
    fn model(&self) -> &Model;
    fn analysis(&self) -> &Analysis;
    /// The plan in effect.
    fn plan(&self) -> &Plan;
    /// Warnings from replaying the session.
    fn warnings(&self) -> &[String];
    /// The review state of model entity `i`.
    fn review_state(&self, i: usize) -> ReviewState;
    /// The replacer of the plan in effect.
    fn replacer(&self, project_key: &[u8]) -> Replacer;
    /// True when the residual risk of these documents was accepted.
    fn residual_accepted(&self, documents: &[String]) -> bool;
    /// The document ids of analysis chain `chain`.
    fn chain_doc_ids(&self, chain: usize) -> Vec<String>;
    /// Residual documents and chains whose risk an auditor accepted.
    fn accepted_residuals(&self) -> (Vec<String>, Vec<Vec<String>>);
    /// Residual documents and chains whose risk is not accepted yet.
    fn unaccepted_residuals(&self) -> (usize, usize);
    /// Decisions on entities no longer in the corpus, with what they were.
    fn orphaned_decisions(&self) -> Vec<(String, &'static str)>;
    /// The masked entities of the plan in effect.
    fn masked_entities(&self) -> Vec<crate::redact::MaskedEntity>;
    /// Masks nobody has reviewed.
    fn unreviewed_masks(&self) -> usize;
}
