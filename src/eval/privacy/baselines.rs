//! Baselines: leak rate and utility with no masking, the document stage only, and masking everything extracted.

use super::*;

/// A mask set compared with the plan (thesis Tables 5.3–5.5, 6.3).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Baseline {
    /// `verbatim`, `document_stage`, `pipeline` or `mask_all`.
    pub name: &'static str,
    pub label: &'static str,
    /// Masked entities.
    pub masked: usize,
    pub leak_rate: Option<f64>,
    pub leaked_clusters: usize,
    pub rated_clusters: usize,
    pub utility: ByQuestionType<Option<f64>>,
}

/// The baselines, in order of masking: nothing masked; the planner's state after its
/// document stage (forced, policy and theta_doc masks, no chain stage:
/// `Plan::masked_after_document_stage`); the full plan; every extracted entity.
pub fn baselines(ws: &Workspace, ev: &PrivacyEvaluator, project_key: &[u8]) -> Vec<Baseline> {
    let n = ws.model().entities.len();
    let sets: [(&'static str, &'static str, Vec<bool>); 4] = [
        ("verbatim", "no masking (verbatim)", vec![false; n]),
        (
            "document_stage",
            "document stage only (no chain stage)",
            ws.plan().masked_after_document_stage.clone(),
        ),
        ("pipeline", "full pipeline", ws.plan().masked.clone()),
        ("mask_all", "mask everything extracted", vec![true; n]),
    ];
    sets.into_iter()
        .map(|(name, label, mask)| {
            let (p, u) = ev.measure(&ws.replacer_of(&mask, project_key));
            Baseline {
                name,
                label,
                masked: mask.iter().filter(|m| **m).count(),
                leak_rate: p.leak_rate,
                leaked_clusters: p.leaked_clusters,
                rated_clusters: p.rated_clusters,
                utility: u.means,
            }
        })
        .collect()
}
