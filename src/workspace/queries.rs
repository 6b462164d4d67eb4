//! What the front ends and the export read from a workspace: review states, masked entities and their replacer, residual risk accepted by the auditor, decisions left without an entity.

use super::*;

impl Workspace {
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
        use rayon::prelude::*;
        // On every core, with no reference to the workspace (its session is not
        // shared between threads).
        let globals = &self.globals;
        self.model
            .entities
            .par_iter()
            .enumerate()
            .filter(|(i, _)| masked.get(*i).copied().unwrap_or(false))
            .map(|(_, e)| MaskedEntity {
                id: e.id.clone(),
                entity_type: e.entity_type.clone(),
                normalized: e.value.clone(),
                originals: globals
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
            self.config.redact.mode,
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
            .docs()
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
