//! One entity as every listing shows it (`clam analyze`, report.md, manifest.json):
//! its type, reach, global contribution, review state and its provenance in words,
//! why it is masked or why it is kept. The listings build their rows here, so a kept
//! entity reads the same wherever it appears.

use crate::analysis::{Analysis, Model};
use crate::plan::{Plan, Provenance, ProvenanceText};
use crate::session::ReviewState;

use super::ExportSource;

/// Why entity `i` is masked or kept, in words (SPEC §4 step 4).
pub fn provenance_text(
    model: &Model,
    an: &Analysis,
    plan: &Plan,
    theta_doc: f64,
    i: usize,
) -> String {
    ProvenanceText {
        provenance: &plan.provenance[i],
        model,
        analysis: an,
        theta_doc,
    }
    .to_string()
}

/// Why a kept entity is kept, as a key a script can match on: `released_by_pruning`,
/// `forced_keep`, `never_mask` or `not_needed`; `None` for a masked entity.
pub fn kept_because(p: &Provenance) -> Option<&'static str> {
    match p {
        Provenance::Masked { .. } => None,
        Provenance::KeptPruned { .. } => Some("released_by_pruning"),
        Provenance::KeptForced => Some("forced_keep"),
        Provenance::KeptNeverMask => Some("never_mask"),
        Provenance::KeptNotNeeded { .. } => Some("not_needed"),
    }
}

/// One entity of a listing.
#[derive(Debug, Clone)]
pub struct EntityRow {
    /// Model index.
    pub index: usize,
    pub masked: bool,
    /// Documents it occurs in (model indices, corpus order).
    pub documents: Vec<u32>,
    /// `s_e`, the global contribution.
    pub s_e: f64,
    pub review: ReviewState,
    pub provenance: String,
    /// For a kept entity, why (see [`kept_because`]).
    pub kept_because: Option<&'static str>,
}

/// The row of model entity `i`.
pub fn entity_row(ws: &dyn ExportSource, i: usize) -> EntityRow {
    let (m, an, plan) = (ws.model(), ws.analysis(), ws.plan());
    EntityRow {
        index: i,
        masked: plan.masked[i],
        documents: an.entity_docs[i].clone(),
        s_e: an.global_contribution[i],
        review: ws.review_state(i),
        provenance: provenance_text(m, an, plan, ws.config().plan.theta_doc, i),
        kept_because: kept_because(&plan.provenance[i]),
    }
}

/// The entities the plan keeps (model indices), in the order listings show them: in
/// most documents first, then highest `s_e`, then model order. The riskiest kept
/// entities lead.
pub fn kept_entities(an: &Analysis, plan: &Plan) -> Vec<usize> {
    let mut kept: Vec<usize> = (0..plan.masked.len())
        .filter(|&i| !plan.masked[i])
        .collect();
    by_reach(an, &mut kept);
    kept
}

/// Sorts entities (model indices) in most documents first, then highest `s_e`, then
/// model order.
pub fn by_reach(an: &Analysis, list: &mut [usize]) {
    list.sort_by(|&a, &b| {
        an.entity_docs[b]
            .len()
            .cmp(&an.entity_docs[a].len())
            .then(an.global_contribution[b].total_cmp(&an.global_contribution[a]))
            .then(a.cmp(&b))
    });
}
