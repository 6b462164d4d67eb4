//! Provenance in words: why an entity is masked or kept ("masked in chain stage for chain claim_1 → record_2: 0.81 → 0.42").

use super::*;

/// Human-readable provenance ("masked in chain stage for chain claim_1 → record_2:
/// 0.81 → 0.42").
pub struct ProvenanceText<'a> {
    pub provenance: &'a Provenance,
    pub model: &'a Model,
    pub analysis: &'a Analysis,
    pub theta_doc: f64,
}

pub(super) fn cause_text(model: &Model, an: &Analysis, cause: Cause) -> String {
    match cause {
        Cause::Document(d) => format!("document {}", model.docs[d as usize].id),
        Cause::Chain(c) => format!(
            "chain {}",
            an.chains[c as usize]
                .docs()
                .iter()
                .map(|&d| model.docs[d as usize].id.as_str())
                .collect::<Vec<_>>()
                .join(" → ")
        ),
    }
}

impl fmt::Display for ProvenanceText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.provenance {
            Provenance::Masked {
                stage: Stage::Forced,
                ..
            } => write!(f, "masked: forced by an auditor decision"),
            Provenance::Masked {
                stage: Stage::Policy,
                ..
            } => write!(f, "masked by type policy (always_mask)"),
            Provenance::Masked {
                stage,
                cause,
                risk_before,
                risk_after,
            } => {
                write!(f, "masked in {} stage", stage.as_str())?;
                if let Some(c) = cause {
                    write!(f, " for {}", cause_text(self.model, self.analysis, *c))?;
                }
                if let (Some(b), Some(a)) = (risk_before, risk_after) {
                    write!(f, ": {b:.2} → {a:.2}")?;
                }
                Ok(())
            }
            Provenance::KeptPruned {
                stage,
                cause,
                risk_before,
                risk_after,
                cause_risk,
                cause_bound,
            } => {
                let what = cause_text(self.model, self.analysis, *cause);
                write!(
                    f,
                    "kept: masked by the {} stage for {what} ({risk_before:.2} → {risk_after:.2}), \
                     released by pruning: every bound holds without it ({what} at {cause_risk:.2} ≤ {cause_bound:.2})",
                    stage.as_str()
                )
            }
            Provenance::KeptForced => write!(f, "kept: forced keep by an auditor decision"),
            Provenance::KeptNeverMask => write!(f, "kept: never_mask type"),
            Provenance::KeptNotNeeded {
                max_doc_risk,
                target_chains,
            } => {
                write!(
                    f,
                    "kept: no target needed it: document risk {max_doc_risk:.2} ≤ theta_doc {:.2}",
                    self.theta_doc
                )?;
                if *target_chains == 0 {
                    write!(f, " and in no target chain")
                } else {
                    write!(
                        f,
                        " and its {} target chain(s) reached their targets without it or are residual",
                        target_chains
                    )
                }
            }
        }
    }
}
