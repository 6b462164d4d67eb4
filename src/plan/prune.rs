//! Stage 3, pruning (SPEC §4): release the masks of the document and chain stages
//! that no bound needs any more.
//!
//! Stages 1–2 mask target by target and never look back, so the mask set M they leave
//! can hold masks that a later mask made unnecessary, or that never helped (a document
//! held at R = 1.0 by a forced keep). The bounds are fixed from M:
//! - each document: `R(d) ≤ max(theta_doc, R(d, M))`;
//! - each target chain: `R_chain ≤ max(T, R_chain(M))`;
//! - every other chain: `R_chain < risk_medium` (LOW) or `R_chain ≤ R_chain(M)`.
//!
//! Candidates are the document- and chain-stage masks (never forced or policy masks),
//! visited once in descending utility cost (the knapsack's: mentions over the corpus,
//! or 1), then ascending `s_e`, then ascending entity id. A candidate is released when
//! every bound still holds without it under the current (already pruned) mask set.
//!
//! Releasing e changes only the documents containing e and the hops whose via holds
//! e (both of whose documents contain e), so only the chains through e's documents
//! are evaluated, on document risks and hop strengths kept up to date: the same
//! products, in the same order, as [`Analysis::doc_risk`] and [`Analysis::chain_risk`]
//! compute from scratch. Removing a mask only raises risks, so a mask kept by the
//! single pass could not be removed alone at the end either: the plan is irredundant.

use super::{ChainResult, PlanParams, UtilityCost};
use crate::analysis::{Analysis, Model, hop_risk_of, one_minus_product};

/// What pruning leaves: the released entities and the final risks under the pruned
/// mask set, with the bounds they were held to.
#[derive(Debug, Clone)]
pub(super) struct Pruning {
    /// Released entities, ascending (= ascending id).
    pub released: Vec<u32>,
    /// R(d) under the final mask set.
    pub doc_risk: Vec<f64>,
    /// R_chain under the final mask set.
    pub chain_risk: Vec<f64>,
    /// `max(theta_doc, R(d, M))`.
    pub doc_bound: Vec<f64>,
    /// `max(T, R_chain(M))` for target chains, `R_chain(M)` for the others.
    pub chain_bound: Vec<f64>,
}

/// The pruning pass over one mask set.
struct Pruner<'a> {
    model: &'a Model,
    an: &'a Analysis,
    risk_medium: f64,
    /// Each chain's results of stages 1–2: a target when it has a `T`.
    chains: &'a [ChainResult],
    doc_bound: Vec<f64>,
    chain_bound: Vec<f64>,
    /// R(d) under the current mask set.
    doc_risk: Vec<f64>,
    /// Strength of each kept edge under the current mask set.
    strength: Vec<f64>,
    /// R_chain under the current mask set.
    chain_risk: Vec<f64>,
    /// Chains through each document, ascending.
    chains_of_doc: Vec<Vec<u32>>,
    /// Chains evaluated for the current candidate (`seen[c] == round`).
    seen: Vec<u32>,
    round: u32,
    /// What a tentative release changed: (document, old risk), (edge, old strength),
    /// (chain, new risk).
    undo_docs: Vec<(u32, f64)>,
    undo_edges: Vec<(u32, f64)>,
    /// The kept edges of document d to later ones: `edges_from[d]..edges_from[d + 1]`.
    edges_from: Vec<u32>,
    new_chains: Vec<(u32, f64)>,
}

impl Pruner<'_> {
    /// R_chain of chain `c` from the current document risks and hop strengths.
    fn chain_risk_now(&self, c: usize) -> f64 {
        one_minus_product(self.an.chains[c].hops().iter().map(|&h| {
            let e = &self.an.edges[h as usize];
            hop_risk_of(
                self.strength[h as usize],
                self.doc_risk[e.a as usize],
                self.doc_risk[e.b as usize],
            )
        }))
    }

    fn chain_holds(&self, c: usize, r: f64) -> bool {
        let limit = self.chain_bound[c];
        if self.chains[c].target().is_some() {
            r <= limit
        } else {
            r < self.risk_medium || r <= limit
        }
    }

    /// Unmasks `e` if every bound holds without it; true when released.
    fn try_release(&mut self, e: u32, masked: &mut [bool]) -> bool {
        let an = self.an;
        masked[e as usize] = false;
        self.undo_docs.clear();
        self.undo_edges.clear();
        self.new_chains.clear();
        let docs = &an.entity_docs[e as usize];
        let mut holds = true;
        for &d in docs {
            let r = an.doc_risk(d as usize, masked);
            if r > self.doc_bound[d as usize] {
                holds = false;
                break;
            }
            self.undo_docs.push((d, self.doc_risk[d as usize]));
            self.doc_risk[d as usize] = r;
        }
        if holds {
            // Hops whose via holds e join two documents that both contain e: each is
            // met once, from its first document.
            for &d in docs {
                for h in self.edges_from[d as usize]..self.edges_from[d as usize + 1] {
                    let edge = &an.edges[h as usize];
                    if edge.via.binary_search_by_key(&e, |x| x.0).is_ok() {
                        self.undo_edges.push((h, self.strength[h as usize]));
                        self.strength[h as usize] = edge.strength_with(masked);
                    }
                }
            }
            self.round = self.round.wrapping_add(1);
            if self.round == 0 {
                self.seen.fill(0);
                self.round = 1;
            }
            'docs: for &d in docs {
                for k in 0..self.chains_of_doc[d as usize].len() {
                    let c = self.chains_of_doc[d as usize][k] as usize;
                    if self.seen[c] == self.round {
                        continue;
                    }
                    self.seen[c] = self.round;
                    let r = self.chain_risk_now(c);
                    if !self.chain_holds(c, r) {
                        holds = false;
                        break 'docs;
                    }
                    self.new_chains.push((c as u32, r));
                }
            }
        }
        if holds {
            for &(c, r) in &self.new_chains {
                self.chain_risk[c as usize] = r;
            }
        } else {
            masked[e as usize] = true;
            for &(d, r) in &self.undo_docs {
                self.doc_risk[d as usize] = r;
            }
            for &(h, s) in &self.undo_edges {
                self.strength[h as usize] = s;
            }
        }
        holds
    }
}

/// The knapsack's utility cost of masking `e`.
pub(super) fn utility_cost(model: &Model, params: &PlanParams, e: u32) -> u64 {
    match params.utility_cost {
        UtilityCost::Mentions => model.entities[e as usize].mentions,
        UtilityCost::Count => 1,
    }
}

/// Stage 3 over `masked` (the mask set M of stages 1–2, pruned in place).
/// `candidates` are the document- and chain-stage masks; each of `chains` has its
/// `T` (None for chains that were no target).
pub(super) fn prune(
    model: &Model,
    an: &Analysis,
    params: &PlanParams,
    chains: &[ChainResult],
    mut candidates: Vec<u32>,
    masked: &mut [bool],
) -> Pruning {
    let doc_risk: Vec<f64> = (0..model.docs.len())
        .map(|d| an.doc_risk(d, masked))
        .collect();
    let strength: Vec<f64> = an.edges.iter().map(|e| e.strength_with(masked)).collect();
    // The kept edges are sorted by their first document: those of document d are
    // `edges_from[d]..edges_from[d + 1]`.
    let mut edges_from = vec![0u32; model.docs.len() + 1];
    for e in &an.edges {
        edges_from[e.a as usize + 1] += 1;
    }
    for d in 0..model.docs.len() {
        edges_from[d + 1] += edges_from[d];
    }
    let mut p = Pruner {
        model,
        an,
        edges_from,
        risk_medium: params.risk_medium,
        chains,
        doc_bound: doc_risk.iter().map(|&r| params.theta_doc.max(r)).collect(),
        chain_bound: Vec::new(),
        doc_risk,
        strength,
        chain_risk: Vec::new(),
        chains_of_doc: Vec::new(),
        seen: Vec::new(),
        round: 0,
        undo_docs: Vec::new(),
        undo_edges: Vec::new(),
        new_chains: Vec::new(),
    };
    p.chain_risk = (0..an.chains.len()).map(|c| p.chain_risk_now(c)).collect();
    p.chain_bound = p
        .chain_risk
        .iter()
        .zip(chains)
        .map(|(&r, c)| c.target().map_or(r, |t| t.max(r)))
        .collect();
    let mut released = Vec::new();
    if !candidates.is_empty() {
        let mut chains_of_doc: Vec<Vec<u32>> = vec![Vec::new(); model.docs.len()];
        for (c, chain) in an.chains.iter().enumerate() {
            for &d in chain.docs() {
                chains_of_doc[d as usize].push(c as u32);
            }
        }
        p.chains_of_doc = chains_of_doc;
        p.seen = vec![0; an.chains.len()];
        let s_e = &an.global_contribution;
        candidates.sort_by(|&a, &b| {
            utility_cost(p.model, params, b)
                .cmp(&utility_cost(p.model, params, a))
                .then(s_e[a as usize].total_cmp(&s_e[b as usize]))
                .then(a.cmp(&b))
        });
        for e in candidates {
            if p.try_release(e, masked) {
                released.push(e);
            }
        }
        released.sort_unstable();
    }
    Pruning {
        released,
        doc_risk: p.doc_risk,
        chain_risk: p.chain_risk,
        doc_bound: p.doc_bound,
        chain_bound: p.chain_bound,
    }
}
