//! Risk analysis (SPEC §3, thesis §4.3): uniqueness, contributions, document risk,
//! the document graph with pruned edges, chains and chain risk.
//!
//! All products `1 − Π(1 − x)` start from 1.0 and multiply in ascending entity-id
//! order (hops: in path order); factors are evaluated left to right as written.

mod edges;
mod model;

pub use edges::{all_edges, kept_edges};
pub use model::{Model, ModelDoc, ModelEntity, ModelInput};

use serde::{Deserialize, Serialize};

/// Risk category of a chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "UPPERCASE")]
pub enum RiskCategory {
    Low,
    Medium,
    High,
}

impl RiskCategory {
    /// HIGH if r ≥ risk_high, MEDIUM if r ≥ risk_medium, else LOW.
    pub fn of(r: f64, risk_high: f64, risk_medium: f64) -> Self {
        if r >= risk_high {
            RiskCategory::High
        } else if r >= risk_medium {
            RiskCategory::Medium
        } else {
            RiskCategory::Low
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            RiskCategory::Low => "LOW",
            RiskCategory::Medium => "MEDIUM",
            RiskCategory::High => "HIGH",
        }
    }
}

/// The shared entities of an edge: held inline when there is one (most kept edges
/// of a large corpus; a heap block each was half a gigabyte at a million documents),
/// no larger than a `Vec` otherwise.
pub type EdgeVia = smallvec::SmallVec<[(u32, f64); 1]>;

/// An edge between two documents (model indices, `a < b`).
#[derive(Debug, Clone, PartialEq)]
pub struct Edge {
    pub a: u32,
    pub b: u32,
    /// Shared entities (ascending index = ascending id) with
    /// `s_e(di,dj) = max(relevance(e,di), relevance(e,dj)) · u(e) · w_type(e)`.
    pub via: EdgeVia,
    /// Strength with nothing masked.
    pub strength: f64,
}

impl Edge {
    /// `strength = 1 − Π(1 − s_e(di,dj))` over the unmasked via entities.
    pub fn strength_with(&self, masked: &[bool]) -> f64 {
        one_minus_product(
            self.via
                .iter()
                .filter(|(e, _)| !masked[*e as usize])
                .map(|(_, s)| *s),
        )
    }
}

/// A chain: a simple path of documents over kept edges, first < last in corpus order.
/// Its documents and the hops between them are held in one inline array up to three
/// documents (a corpus of a million documents has ten million chains: two arrays each
/// were half a gigabyte more).
#[derive(Debug, Clone, PartialEq)]
pub struct Chain {
    /// The documents, then the index into `Analysis::edges` of each hop in path order.
    path: smallvec::SmallVec<[u32; 5]>,
}

const _: () = assert!(std::mem::size_of::<Chain>() == 32);

impl Chain {
    /// The chain of `docs` over `hops` (one fewer).
    pub fn new(docs: &[u32], hops: &[u32]) -> Chain {
        debug_assert_eq!(docs.len(), hops.len() + 1);
        let mut path = smallvec::SmallVec::with_capacity(docs.len() + hops.len());
        path.extend_from_slice(docs);
        path.extend_from_slice(hops);
        Chain { path }
    }

    /// Its documents (model indices), in path order.
    pub fn docs(&self) -> &[u32] {
        &self.path[..self.path.len().div_ceil(2)]
    }

    /// The index into `Analysis::edges` of each hop, in path order.
    pub fn hops(&self) -> &[u32] {
        &self.path[self.path.len().div_ceil(2)..]
    }
}

/// `hop_risk(di,dj) = strength · (1 + (R(di)+R(dj))/2) / 2` from the hop's strength
/// and its documents' risks (the planner evaluates it on risks it keeps up to date).
pub fn hop_risk_of(strength: f64, ra: f64, rb: f64) -> f64 {
    strength * (1.0 + (ra + rb) / 2.0) / 2.0
}

/// `1 − Π(1 − x)`, multiplying in iteration order from 1.0.
pub fn one_minus_product(xs: impl IntoIterator<Item = f64>) -> f64 {
    let mut p = 1.0;
    for x in xs {
        p *= 1.0 - x;
    }
    1.0 - p
}

/// Default cap on the chains of one component of the document graph
/// (`max_chains_per_component`): about 200 MB of chains and chain results.
pub const DEFAULT_MAX_CHAINS_PER_COMPONENT: usize = 1_000_000;

fn default_max_chains() -> usize {
    DEFAULT_MAX_CHAINS_PER_COMPONENT
}

/// Parameters of the analysis (the configuration's analysis group, serialized flat).
#[derive(Debug, Clone, Copy, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct AnalysisParams {
    pub edge_threshold: f64,
    pub chain_length: usize,
    /// Chains kept per connected component of the document graph (kept edges). The
    /// 2-document chains (the kept edges) are always kept; longer chains fill what is
    /// left, shortest first, each length in canonical order (see [`ChainCap`]).
    #[serde(default = "default_max_chains")]
    pub max_chains_per_component: usize,
}

impl Default for AnalysisParams {
    fn default() -> Self {
        AnalysisParams {
            edge_threshold: 0.5,
            chain_length: 2,
            max_chains_per_component: DEFAULT_MAX_CHAINS_PER_COMPONENT,
        }
    }
}

/// Where the chain cap was hit.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChainCap {
    /// `max_chains_per_component`.
    pub limit: usize,
    /// The first document (model index) of each component of the document graph whose
    /// chains of 3 or more documents did not all fit under the cap, ascending.
    pub capped_components: Vec<u32>,
}

impl ChainCap {
    /// True when some chains were not enumerated.
    pub fn hit(&self) -> bool {
        !self.capped_components.is_empty()
    }
}

/// Uniqueness of an entity found in `freq` of `n` documents (SPEC §3):
/// `u(e) = ln((N+1)/freq_e) / ln(N+1)`; 0 for an entity in no document or an empty
/// corpus. It never depends on masking.
pub fn uniqueness(n: usize, freq: usize) -> f64 {
    if freq == 0 || n == 0 {
        return 0.0;
    }
    ((n + 1) as f64 / freq as f64).ln() / ((n + 1) as f64).ln()
}

/// The analysis of a model: everything that does not depend on masking.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// N: number of documents whose extraction is complete.
    pub n: usize,
    /// Documents containing each entity (ascending).
    pub entity_docs: Vec<Vec<u32>>,
    /// `u(e) = ln((N+1)/freq_e) / ln(N+1)`.
    pub uniqueness: Vec<f64>,
    /// `s_e = max_d relevance(e,d) · u(e) · w_type(e)`.
    pub global_contribution: Vec<f64>,
    /// Per document: `(entity, c(e,d))` in ascending entity order,
    /// `c(e,d) = relevance(e,d) · u(e) · w_type(e)`.
    pub contributions: Vec<Vec<(u32, f64)>>,
    /// R(d) with nothing masked.
    pub doc_risk_initial: Vec<f64>,
    /// Kept edges, by (a, b) in corpus order: the document graph (a document's edges
    /// to later documents are a run of it).
    pub edges: Vec<Edge>,
    /// Chains in canonical order.
    pub chains: Vec<Chain>,
    /// Whether `max_chains_per_component` dropped chains, and where.
    pub chain_cap: ChainCap,
}

impl Analysis {
    pub fn new(model: &Model, params: &AnalysisParams) -> Self {
        let n = model.docs.len();
        let ne = model.entities.len();
        let mut entity_docs: Vec<Vec<u32>> = vec![Vec::new(); ne];
        for (di, d) in model.docs.iter().enumerate() {
            for &(e, _) in &d.entities {
                entity_docs[e as usize].push(di as u32);
            }
        }
        let uniqueness: Vec<f64> = entity_docs
            .iter()
            .map(|docs| uniqueness(n, docs.len()))
            .collect();
        let mut global_contribution = vec![0.0f64; ne];
        let contributions: Vec<Vec<(u32, f64)>> = model
            .docs
            .iter()
            .map(|d| {
                d.entities
                    .iter()
                    .map(|&(e, rel)| {
                        let ei = e as usize;
                        let c = rel * uniqueness[ei] * model.entities[ei].weight;
                        if c > global_contribution[ei] {
                            global_contribution[ei] = c;
                        }
                        (e, c)
                    })
                    .collect()
            })
            .collect();
        let doc_risk_initial = contributions
            .iter()
            .map(|cs| one_minus_product(cs.iter().map(|(_, c)| *c)))
            .collect();
        let edges = kept_edges(
            model,
            &entity_docs,
            &uniqueness,
            &global_contribution,
            params.edge_threshold,
        );
        let (chains, chain_cap) = enumerate_chains(
            &edges,
            n,
            params.chain_length,
            params.max_chains_per_component,
        );
        Analysis {
            n,
            entity_docs,
            uniqueness,
            global_contribution,
            contributions,
            doc_risk_initial,
            edges,
            chains,
            chain_cap,
        }
    }

    /// R(d) = 1 − Π(1 − c(e,d)) over the unmasked entities of d.
    pub fn doc_risk(&self, doc: usize, masked: &[bool]) -> f64 {
        one_minus_product(
            self.contributions[doc]
                .iter()
                .filter(|(e, _)| !masked[*e as usize])
                .map(|(_, c)| *c),
        )
    }

    /// `hop_risk = strength · (1 + (R(di)+R(dj))/2) / 2` for kept edge `edge`.
    pub fn hop_risk(&self, edge: usize, masked: &[bool]) -> f64 {
        let e = &self.edges[edge];
        let ra = self.doc_risk(e.a as usize, masked);
        let rb = self.doc_risk(e.b as usize, masked);
        hop_risk_of(e.strength_with(masked), ra, rb)
    }

    /// Document ids of the chains whose risk with nothing masked is MEDIUM or HIGH
    /// (`≥ risk_medium`), in chain order: the chains the evaluation compares with gold.
    pub fn flagged_chains(
        &self,
        model: &Model,
        risk_high: f64,
        risk_medium: f64,
    ) -> Vec<Vec<String>> {
        let nothing = vec![false; model.entities.len()];
        self.chains
            .iter()
            .filter(|c| {
                RiskCategory::of(self.chain_risk(c, &nothing), risk_high, risk_medium)
                    >= RiskCategory::Medium
            })
            .map(|c| {
                c.docs()
                    .iter()
                    .map(|&d| model.docs[d as usize].id.clone())
                    .collect()
            })
            .collect()
    }

    /// `R_chain = 1 − Π(1 − hop_risk)` over the hops in path order.
    pub fn chain_risk(&self, chain: &Chain, masked: &[bool]) -> f64 {
        one_minus_product(
            chain
                .hops()
                .iter()
                .map(|&h| self.hop_risk(h as usize, masked)),
        )
    }
}

/// Every simple path of 2..=max_len documents over the graph, each once with its first
/// document earlier than its last, in lexicographic order of document indices — as
/// long as each connected component of the graph has at most `cap` chains. Where a
/// component has more, its 2-document chains are all kept and the rest of the cap is
/// filled with 3-document chains in lexicographic order, then 4-document ones, and so
/// on; the rest are never built, so memory stays bounded.
fn enumerate_chains(
    edges: &[Edge],
    n: usize,
    max_len: usize,
    cap: usize,
) -> (Vec<Chain>, ChainCap) {
    // Neighbours (and the edge to each) sorted by document index, so depth-first
    // pre-order is lexicographic.
    let mut degree = vec![0usize; n];
    for e in edges {
        degree[e.a as usize] += 1;
        degree[e.b as usize] += 1;
    }
    let mut adjacency: Vec<Vec<(u32, u32)>> =
        degree.iter().map(|&d| Vec::with_capacity(d)).collect();
    drop(degree);
    for (k, e) in edges.iter().enumerate() {
        adjacency[e.a as usize].push((e.b, k as u32));
        adjacency[e.b as usize].push((e.a, k as u32));
    }
    for list in &mut adjacency {
        list.sort_unstable();
    }
    // Components of the document graph (by their first document) and their pairs.
    let mut comp = vec![u32::MAX; n];
    let mut stack = Vec::new();
    for s in 0..n as u32 {
        if comp[s as usize] != u32::MAX {
            continue;
        }
        comp[s as usize] = s;
        stack.push(s);
        while let Some(x) = stack.pop() {
            for &(y, _) in &adjacency[x as usize] {
                if comp[y as usize] == u32::MAX {
                    comp[y as usize] = s;
                    stack.push(y);
                }
            }
        }
    }
    // Every kept edge is a 2-document chain: sized for them at once (ten million
    // chains grown by doubling were half again their size).
    let mut chains: Vec<Chain> = Vec::with_capacity(edges.len());
    for a in 0..n as u32 {
        for &(b, edge) in &adjacency[a as usize] {
            if a < b {
                chains.push(Chain::new(&[a, b], &[edge]));
            }
        }
    }
    let mut budget = vec![0usize; n];
    for c in &chains {
        budget[comp[c.docs()[0] as usize] as usize] += 1;
    }
    for b in budget.iter_mut() {
        *b = cap.saturating_sub(*b);
    }
    let mut capped = vec![false; n];
    let mut path: Vec<u32> = Vec::with_capacity(max_len);
    let mut hops: Vec<u32> = Vec::with_capacity(max_len);
    for len in 3..=max_len {
        for start in 0..n as u32 {
            let c = comp[start as usize] as usize;
            if capped[c] || adjacency[start as usize].is_empty() {
                continue;
            }
            path.push(start);
            let mut walk = Walk {
                adjacency: &adjacency,
                len,
                budget: &mut budget[c],
                capped: false,
                out: &mut chains,
            };
            walk.extend(&mut path, &mut hops);
            capped[c] = walk.capped;
            path.clear();
            hops.clear();
        }
    }
    if max_len > 2 {
        // Pre-order of the depth-first enumeration = lexicographic order of the paths.
        chains.sort_unstable_by(|x, y| x.docs().cmp(y.docs()));
    }
    let capped_components = (0..n as u32).filter(|&c| capped[c as usize]).collect();
    (
        chains,
        ChainCap {
            limit: cap,
            capped_components,
        },
    )
}

/// Depth-first enumeration of the chains of exactly `len` documents from one start.
struct Walk<'a> {
    adjacency: &'a [Vec<(u32, u32)>],
    len: usize,
    /// Chains this component may still take.
    budget: &'a mut usize,
    /// Set when a chain did not fit.
    capped: bool,
    out: &'a mut Vec<Chain>,
}

impl Walk<'_> {
    fn extend(&mut self, path: &mut Vec<u32>, hops: &mut Vec<u32>) {
        let Some(&last) = path.last() else { return };
        for &(next, edge) in &self.adjacency[last as usize] {
            if self.capped {
                return;
            }
            if path.contains(&next) {
                continue;
            }
            path.push(next);
            hops.push(edge);
            if path.len() == self.len {
                if path[0] < next {
                    if *self.budget == 0 {
                        self.capped = true;
                    } else {
                        *self.budget -= 1;
                        self.out.push(Chain::new(path, hops));
                    }
                }
            } else {
                self.extend(path, hops);
            }
            path.pop();
            hops.pop();
        }
    }
}

#[cfg(test)]
mod tests;
