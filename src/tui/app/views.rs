//! What the panes show, derived from the workspace: rows after a change, mentions of a document, the selected targets, counts for the header.

use super::*;

impl App {
    /// Recomputes the derived views after the plan or a filter changed.
    pub fn refresh(&mut self) {
        let ws = &self.ws;
        let mut model_of_doc = vec![None; ws.corpus().documents.len()];
        for (m, d) in ws.model().docs.iter().enumerate() {
            if let Some(slot) = model_of_doc.get_mut(d.corpus_index) {
                *slot = Some(m);
            }
        }
        self.views.review = (0..ws.model().entities.len())
            .map(|i| ws.review_state(i))
            .collect();
        self.views.replacer = Some(ws.replacer(&self.project_key));
        self.views.layout.update(ws.model(), ws.analysis());
        self.views.model_of_doc = model_of_doc;
        self.views.open_residuals = ws.unaccepted_residuals();
        self.views.orphaned = ws.orphaned_decisions().len();
        self.refresh_gold();
        self.refresh_rows();
        self.whatif_refresh();
        self.measure_gold();
        self.dirty = true;
    }

    pub(super) fn refresh_rows(&mut self) {
        let ws = &self.ws;
        // Documents.
        let needle = self.ui.documents.filter.to_lowercase();
        let mut docs: Vec<usize> = (0..ws.corpus().documents.len())
            .filter(|&i| {
                needle.is_empty() || {
                    let d = &ws.corpus().documents[i];
                    d.id.to_lowercase().contains(&needle)
                        || d.content.to_lowercase().contains(&needle)
                }
            })
            .collect();
        if self.ui.doc_sort == DocSort::Risk {
            let risk = |i: usize| {
                self.views
                    .model_of_doc
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or(-1.0, |m| ws.plan().doc_risk_final[m])
            };
            docs.sort_by(|a, b| risk(*b).total_cmp(&risk(*a)).then(a.cmp(b)));
        }
        self.ui.documents.set_rows(docs);
        // Masks.
        let needle = self.ui.masks.filter.to_lowercase();
        let mut masks: Vec<usize> = (0..ws.model().entities.len())
            .filter(|&i| {
                self.ui.show_all_entities || ws.plan().masked[i] || ws.plan().is_released(i)
            })
            .filter(|&i| {
                needle.is_empty() || {
                    let e = &ws.model().entities[i];
                    e.value.to_lowercase().contains(&needle)
                        || e.entity_type.to_lowercase().contains(&needle)
                        || review_label(self.views.review[i]).contains(&needle)
                }
            })
            .collect();
        // Highest global contribution s_e first: the entities that matter most.
        let s_e = &ws.analysis().global_contribution;
        masks.sort_by(|a, b| s_e[*b].total_cmp(&s_e[*a]).then(a.cmp(b)));
        self.ui.masks.set_rows(masks);
        // Chains, riskiest first.
        let needle = self.ui.chains.filter.to_lowercase();
        let mut chains: Vec<usize> = (0..ws.analysis().chains.len())
            .filter(|&c| {
                needle.is_empty()
                    || ws.plan().chains[c]
                        .category_pre
                        .as_str()
                        .to_lowercase()
                        .contains(&needle)
                    || ws.analysis().chains[c].docs().iter().any(|&d| {
                        ws.model().docs[d as usize]
                            .id
                            .to_lowercase()
                            .contains(&needle)
                    })
            })
            .collect();
        chains.sort_by(|a, b| {
            ws.plan().chains[*b]
                .risk_pre
                .total_cmp(&ws.plan().chains[*a].risk_pre)
                .then(a.cmp(b))
        });
        self.ui.chains.set_rows(chains);
    }

    /// Mentions of the open document, sorted by position.
    pub fn mentions(&self, doc: usize) -> Vec<Mention> {
        let store = self.ws.store();
        let Some(d) = store.docs.get(doc) else {
            return Vec::new();
        };
        let mut out: Vec<Mention> = d
            .entities
            .iter()
            .flat_map(|e| {
                let entity_type = store
                    .keys
                    .get(&e.entity_id)
                    .map(|k| k.entity_type.clone())
                    .unwrap_or_default();
                let entity = self.ws.model().entity_index(&e.entity_id);
                e.spans.iter().map(move |s| Mention {
                    start: s.start,
                    end: s.end,
                    entity_id: e.entity_id.clone(),
                    entity,
                    entity_type: entity_type.clone(),
                })
            })
            .collect();
        out.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
        out
    }

    /// The mention under the document cursor.
    pub fn cursor_mention(&self) -> Option<Mention> {
        let doc = self.ui.open_doc?;
        self.mentions(doc).get(self.ui.doc_cursor).cloned()
    }

    /// The entity (model index) the decision keys apply to in the focused pane.
    pub fn target_entity(&self) -> Option<usize> {
        match self.ui.focus {
            Pane::Masks => self.ui.masks.current(),
            Pane::Document => self.cursor_mention().and_then(|m| m.entity),
            _ => None,
        }
    }

    /// The selected chain (index into the analysis), when the chains pane is in view.
    pub fn selected_chain(&self) -> Option<usize> {
        (self.ui.focus == Pane::Chains)
            .then(|| self.ui.chains.current())
            .flatten()
    }

    /// Header figures: chains per category unmasked and masked (the plan in effect):
    /// the same "before" as `clam run` and report.md.
    pub fn chain_counts(&self) -> [(usize, usize); 3] {
        let mut out = [(0, 0); 3];
        for c in &self.ws.plan().chains {
            let slot = |cat: RiskCategory| match cat {
                RiskCategory::High => 0,
                RiskCategory::Medium => 1,
                RiskCategory::Low => 2,
            };
            out[slot(c.category_initial)].0 += 1;
            out[slot(c.category_final)].1 += 1;
        }
        out
    }

    /// Masked entities that are reviewed (accepted, overridden or pinned).
    pub fn reviewed_masks(&self) -> (usize, usize) {
        let masked = self.ws.masked_indices();
        let total = masked.len();
        (total - self.ws.unreviewed_masks(), total)
    }
}
