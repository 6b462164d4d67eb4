//! Gold-chain annotation in the workspace (SPEC §10): mark / unmark a chain as gold
//! (chains pane, or 2–3 documents picked in the graph), a note per chain, import
//! from a gold file, and the live comparison the gold pane shows. Every change is a
//! session decision (undo, reopening and the export see it like any other).

use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;

use crate::eval::{Gold, MaskProbe, PrivacyEvaluator, PrivacyReport, UtilityReport};

use crate::eval::gold::{ChainComparison, compare_chains, load_chains};
use crate::session::AuditAction;
use crate::session::gold::{self, GoldChain};

use super::super::sanitize;
use super::super::state::Pane;
use super::{App, JobEvent, JobKind, Layer, text_input};

/// Gold persons and questions (`clam review --gold FILE`, or a gold file imported
/// with them): the gold pane shows the person leak rate and the utility proxy of
/// the plan in effect (SPEC §10, as `clam eval` computes them), and the sweep chart
/// plots the leak rate.
pub struct GoldEval {
    /// The file's name, for the pane.
    pub source: String,
    pub evaluator: Arc<PrivacyEvaluator>,
    /// The figures of the plan in effect; `None` until measured after a change.
    pub report: Option<(PrivacyReport, UtilityReport)>,
}

/// A row of the gold pane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GoldRow {
    /// A gold chain (index into `GoldView::chains`) whose pairs are not all flagged.
    Missed(usize),
    /// A flagged chain (analysis index) with a pair in no gold chain.
    NotGold(usize),
}

/// The gold chains and how the flagged chains compare with them, recomputed on
/// every re-plan and gold change.
#[derive(Debug, Clone, Default)]
pub struct GoldView {
    /// The session's gold chains, corpus order (orphaned last).
    pub chains: Vec<GoldChain>,
    /// Their keys (sorted ids), for the chain table's mark.
    pub keys: BTreeSet<Vec<String>>,
    /// Chains flagged ≥ MEDIUM on the unmasked corpus (analysis indices).
    pub flagged: Vec<usize>,
    /// Pair precision / recall / F1 and the charged chains; None without gold.
    pub comparison: Option<ChainComparison>,
    pub rows: Vec<GoldRow>,
}

impl GoldView {
    pub fn orphaned(&self) -> usize {
        self.chains.iter().filter(|c| c.orphaned()).count()
    }
}

impl App {
    /// Document ids of analysis chain `c`, sorted (the session's key).
    pub fn chain_key(&self, c: usize) -> Vec<String> {
        gold::key(&self.ws.chain_doc_ids(c))
    }

    /// True when chain `c` is residual and its risk was accepted.
    pub fn residual_chain_accepted(&self, c: usize) -> bool {
        self.ws
            .plan()
            .residual_chains
            .binary_search(&(c as u32))
            .is_ok()
            && self
                .ws
                .state()
                .accepted_residuals
                .contains(&self.chain_key(c))
    }

    /// True when analysis chain `c` is a gold chain.
    pub fn is_gold(&self, c: usize) -> bool {
        !self.views.gold.keys.is_empty() && self.views.gold.keys.contains(&self.chain_key(c))
    }

    fn positions(&self) -> HashMap<&str, usize> {
        gold::positions(self.ws.corpus().documents.iter().map(|d| d.id.as_str()))
    }

    /// Loads the persons and questions of `gold` for the privacy and utility figures;
    /// an error when it has neither.
    pub fn set_gold_eval(&mut self, gold: &Gold, source: String) -> Result<(), String> {
        let evaluator = PrivacyEvaluator::new(&self.ws, gold);
        if !evaluator.has_persons() && !evaluator.has_questions() {
            return Err(format!(
                "{}: no persons or questions for the leak rate and utility",
                sanitize::line(&source)
            ));
        }
        self.gold_eval = Some(GoldEval {
            source,
            evaluator: Arc::new(evaluator),
            report: None,
        });
        self.measure_gold();
        Ok(())
    }

    /// The leak-rate measure of any mask set of the current entities, for sweeps.
    pub fn mask_probe(&self) -> Option<Arc<MaskProbe>> {
        let g = self.gold_eval.as_ref()?;
        g.evaluator.has_persons().then(|| {
            Arc::new(MaskProbe::new(
                &self.ws,
                g.evaluator.clone(),
                &self.project_key,
            ))
        })
    }

    /// Measures the plan in effect, as a job, when the gold pane is on screen and
    /// its figures are out of date (redacting the gold's documents takes a moment
    /// on a large corpus, so it is not done for every re-plan nobody looks at).
    pub(super) fn measure_gold(&mut self) {
        let visible = self.ui.focus == Pane::Gold || self.ui.detail == Pane::Gold;
        let Some(g) = &self.gold_eval else { return };
        if g.report.is_some() || !visible || self.jobs.is_running(JobKind::Gold) {
            return;
        }
        let evaluator = g.evaluator.clone();
        let replacer = self.ws.replacer(&self.project_key);
        self.jobs.start(JobKind::Gold, move |_| {
            JobEvent::Gold(Box::new(evaluator.measure(&replacer)))
        });
    }

    /// Installs a gold measurement job's figures.
    pub(super) fn gold_done(&mut self, report: (PrivacyReport, UtilityReport)) {
        if let Some(g) = &mut self.gold_eval {
            g.report = Some(report);
        }
    }

    pub(super) fn refresh_gold(&mut self) {
        if let Some(g) = &mut self.gold_eval {
            g.report = None;
        }
        // A measurement still running is of the plan before this one.
        self.jobs.cancel(JobKind::Gold);
        let pos = self.positions();
        let chains = gold::chains(self.ws.state(), &pos);
        // The sweep chart scores the gold chains whose documents are all here.
        let scored: Vec<Vec<String>> = chains
            .iter()
            .filter(|c| !c.orphaned())
            .map(|c| c.documents.clone())
            .collect();
        self.whatif.gold = (!scored.is_empty()).then_some(scored);
        let mut view = GoldView {
            keys: self.ws.state().gold.keys().cloned().collect(),
            ..GoldView::default()
        };
        if !chains.is_empty() {
            let ws = &self.ws;
            let flagged_ids = ws.analysis().flagged_chains(
                ws.model(),
                ws.config().plan.risk_high,
                ws.config().plan.risk_medium,
            );
            // flagged_chains keeps the analysis order: walk both to recover indices.
            let mut next = flagged_ids.iter().peekable();
            for c in 0..ws.analysis().chains.len() {
                let Some(ids) = next.peek() else { break };
                let same = ws.analysis().chains[c].docs().len() == ids.len()
                    && ws.analysis().chains[c]
                        .docs()
                        .iter()
                        .zip(ids.iter())
                        .all(|(&d, id)| ws.model().docs[d as usize].id == *id);
                if same {
                    view.flagged.push(c);
                    next.next();
                }
            }
            let gold_docs: Vec<&Vec<String>> = chains.iter().map(|c| &c.documents).collect();
            let gold_docs: Vec<Vec<&str>> = gold_docs
                .iter()
                .map(|d| d.iter().map(String::as_str).collect())
                .collect();
            let cmp = compare_chains(&flagged_ids, &gold_docs);
            view.rows = cmp.missed.iter().map(|&i| GoldRow::Missed(i)).collect();
            let mut not_gold: Vec<usize> = cmp.not_gold.iter().map(|&j| view.flagged[j]).collect();
            not_gold.sort_by(|a, b| {
                ws.plan().chains[*b]
                    .risk_initial
                    .total_cmp(&ws.plan().chains[*a].risk_initial)
                    .then(a.cmp(b))
            });
            view.rows.extend(not_gold.into_iter().map(GoldRow::NotGold));
            view.comparison = Some(cmp);
        }
        view.chains = chains;
        self.ui.gold.set_rows((0..view.rows.len()).collect());
        self.views.gold = view;
    }

    fn selected_gold_row(&self) -> Option<GoldRow> {
        self.ui
            .gold
            .current()
            .and_then(|i| self.views.gold.rows.get(i).copied())
    }

    /// The documents (ids, corpus order) the gold keys apply to in the focused pane.
    fn gold_target(&mut self) -> Option<Vec<String>> {
        let docs = match self.ui.focus {
            Pane::Chains => {
                let c = self.ui.chains.current()?;
                self.chain_key(c)
            }
            Pane::Graph => {
                let picked = &self.ui.gold_pending;
                if !gold::SIZES.contains(&picked.len()) {
                    let space = self
                        .keymap
                        .key_for(Pane::Graph, super::Action::GoldPick)
                        .unwrap_or_else(|| "Space".into());
                    self.error(format!(
                        "pick 2–3 documents first ({space} on the selected document; {} picked)",
                        picked.len()
                    ));
                    return None;
                }
                picked
                    .iter()
                    .map(|&i| self.ws.corpus().documents[i].id.clone())
                    .collect()
            }
            Pane::Gold => match self.selected_gold_row()? {
                GoldRow::Missed(i) => self.views.gold.chains.get(i)?.documents.clone(),
                GoldRow::NotGold(c) => self.chain_key(c),
            },
            _ => return None,
        };
        let pos = self.positions();
        Some(gold::corpus_order(&docs, &pos))
    }

    fn gold_label(docs: &[String]) -> String {
        sanitize::line(&docs.join(" + "))
    }

    /// `g`: marks the target as gold, or unmarks it when it is gold already.
    pub(super) fn toggle_gold(&mut self) {
        let Some(docs) = self.gold_target() else {
            if self.message.is_none() {
                self.error(
                    "select a chain first (chains pane), or pick 2–3 documents in the graph".into(),
                );
            }
            return;
        };
        let label = Self::gold_label(&docs);
        if self.ws.state().gold.contains_key(&gold::key(&docs)) {
            if self.decide(AuditAction::GoldUnmark { documents: docs }, None) {
                self.info(format!("not gold any more: {label} (u undoes)"));
            }
        } else if self.decide(
            AuditAction::GoldMark {
                documents: docs,
                note: None,
            },
            None,
        ) {
            if self.ui.focus == Pane::Graph {
                self.ui.gold_pending.clear();
            }
            self.info(format!("gold chain: {label} (u undoes)"));
        }
    }

    /// `G`: asks for the note of the target gold chain (marking it if needed).
    pub(super) fn start_gold_note(&mut self) {
        let Some(documents) = self.gold_target() else {
            if self.message.is_none() {
                self.error(
                    "select a chain first (chains pane), or pick 2–3 documents in the graph".into(),
                );
            }
            return;
        };
        let old = self
            .ws
            .state()
            .gold
            .get(&gold::key(&documents))
            .cloned()
            .flatten()
            .unwrap_or_default();
        self.layers.push(Layer::GoldNote {
            documents,
            input: text_input(&old),
        });
    }

    pub(super) fn submit_gold_note(&mut self, documents: Vec<String>, note: &str) {
        let note = Some(note.trim().to_string()).filter(|n| !n.is_empty());
        let label = Self::gold_label(&documents);
        let was = self.ws.state().gold.get(&gold::key(&documents)).cloned();
        if was.as_ref() == Some(&note) {
            return self.info("the note is unchanged".into());
        }
        if self.decide(AuditAction::GoldMark { documents, note }, None) {
            if self.ui.focus == Pane::Graph {
                self.ui.gold_pending.clear();
            }
            let what = if was.is_none() {
                "gold chain with a note"
            } else {
                "note saved"
            };
            self.info(format!("{what}: {label} (u undoes)"));
        }
    }

    /// Space in the graph: adds the selected document to the picked ones, or drops it.
    pub(super) fn gold_pick(&mut self) {
        let Some(doc) = self.ui.open_doc else {
            return self.error("select a document first".into());
        };
        let picked = &mut self.ui.gold_pending;
        if let Some(p) = picked.iter().position(|&d| d == doc) {
            picked.remove(p);
        } else if picked.len() >= *gold::SIZES.end() {
            return self
                .error("a gold chain has at most 3 documents (Esc drops the picked ones)".into());
        } else {
            picked.push(doc);
            picked.sort_unstable();
        }
        let ids: Vec<String> = self
            .ui
            .gold_pending
            .iter()
            .map(|&i| self.ws.corpus().documents[i].id.clone())
            .collect();
        let gold = self
            .keymap
            .key_for(Pane::Graph, super::Action::Gold)
            .unwrap_or_else(|| "g".into());
        self.info(format!(
            "picked for a gold chain: {} ({} marks it with 2–3)",
            Self::gold_label(&ids),
            gold
        ));
    }

    pub(super) fn start_gold_import(&mut self) {
        self.layers.push(Layer::GoldImport {
            input: text_input(""),
            error: None,
        });
    }

    /// Imports the gold chains of `path`; Err keeps the popup open with the message.
    pub(super) fn gold_import(&mut self, path: &str) -> Result<(), String> {
        let path = path.trim();
        if path.is_empty() {
            return Err("type the path of a gold file (Esc cancels)".into());
        }
        let path = match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
            (Some(rest), Some(home)) => std::path::PathBuf::from(home).join(rest),
            _ => std::path::PathBuf::from(path),
        };
        let file = load_chains(&path).map_err(|e| sanitize::line(&e.to_string()))?;
        let plan = gold::plan_import(&file.chains, self.ws.state(), &self.positions());
        // One transaction per chain; the views are rebuilt once at the end (gold
        // chains are annotations: they do not change the plan).
        let config_hash = self.ws.config().hash(&self.project_key);
        if self.ws.session().is_none() {
            return Err("no session: gold chains cannot be saved".into());
        }
        let mut failed = None;
        for action in plan.marks.iter().cloned() {
            let decision = crate::session::Decision {
                actor: self.actor.clone(),
                action,
                reason: None,
                state_before: None,
                state_after: None,
                config_hash: config_hash.clone(),
            };
            if let Err(e) = self.ws.record(decision, None) {
                failed = Some(e.to_string());
                break;
            }
        }
        // A devset or thesis gold file also holds the hidden persons and questions:
        // the gold pane then shows the leak rate and utility of the plan.
        let persons = crate::eval::load(&path, None)
            .ok()
            .filter(|g| {
                g.clusters
                    .iter()
                    .any(|c| !c.persons.is_empty() || !c.questions.is_empty())
            })
            .map(|g| {
                let name = path.file_name().map_or_else(
                    || path.display().to_string(),
                    |n| n.to_string_lossy().into_owned(),
                );
                self.set_gold_eval(&g, name)
            });
        self.refresh();
        match failed {
            Some(e) => self.error(format!("import stopped, decision not saved: {e}")),
            None => {
                let mut text = sanitize::line(&plan.summary());
                if let Some(Ok(())) = persons {
                    text.push_str("; its persons give the leak rate and utility");
                }
                self.info(text)
            }
        }
        Ok(())
    }

    /// Enter in the gold pane: the chain selected in the chains pane (and its first
    /// document in the list), or, for a gold chain no chain links, its first document.
    pub(super) fn open_gold_row(&mut self) {
        let Some(row) = self.selected_gold_row() else {
            return;
        };
        let chain = match row {
            GoldRow::NotGold(c) => Some(c),
            GoldRow::Missed(i) => {
                let key = gold::key(&self.views.gold.chains[i].documents);
                (0..self.ws.analysis().chains.len()).find(|&c| self.chain_key(c) == key)
            }
        };
        if let Some(c) = chain {
            if !self.ui.chains.select_item(c) {
                self.ui.chains.filter.clear();
                self.refresh_rows();
                self.ui.chains.select_item(c);
            }
            let first = self.ws.analysis().chains[c].docs()[0] as usize;
            let corpus = self.ws.model().docs[first].corpus_index;
            self.select_document(corpus);
            self.ui.focus(Pane::Chains);
            return;
        }
        let GoldRow::Missed(i) = row else { return };
        let c = self.views.gold.chains[i].clone();
        let label = Self::gold_label(&c.documents);
        let first = c
            .documents
            .iter()
            .find_map(|d| self.ws.corpus().documents.iter().position(|x| x.id == *d));
        if let Some(doc) = first {
            self.select_document(doc);
        }
        if c.orphaned() {
            let missing = sanitize::line(&c.missing.join(", "));
            self.info(format!(
                "orphaned gold chain {label}: not in the corpus: {missing}"
            ));
        } else {
            self.info(format!(
                "gold chain {label}: no chain over kept edges links these documents"
            ));
        }
    }
}
