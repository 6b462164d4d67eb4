//! Planning independent parts of the corpus in parallel.
//!
//! Two documents that share no entity at all (kept edge or not) cannot influence each
//! other's plan: the document stage of a document only masks and reads its own
//! entities, and a chain's candidates, risks and knapsack only involve the entities
//! of its documents (all in one component, since a kept edge needs a shared entity).
//! So the documents are split into the connected components of the entity
//! co-occurrence graph, components are grouped into work units, and each unit is
//! planned on its own by the sequential planner ([`super::plan`]) on a sub-model whose
//! indices keep the global order (documents in corpus order, entities by id, chains in
//! canonical order) and whose values are the global ones (u(e) and s_e over the whole
//! corpus, global mention counts for the knapsack costs).
//!
//! The per-unit results are merged back into the exact sequential order: document
//! stage events by document in corpus order, chain stage events by the position of
//! their chain among all target chains ordered by `R_pre` across the whole corpus
//! (ties: canonical chain order), provenance and chain results by global index,
//! residuals and released (pruned) entities ascending. Pruning (stage 3) runs inside
//! each unit: a candidate's release only touches its own documents and the chains
//! through them, all in its component, and the units visit their candidates in the
//! same relative order as the whole corpus would, so the released set is the same.
//! The result is identical to [`super::plan`]
//! (`tests/properties.rs` checks it).

use rayon::prelude::*;

use super::{Cause, Constraints, MaskEvent, Plan, PlanError, PlanParams, Provenance, Stage, plan};
use crate::analysis::{Analysis, Chain, Edge, Model, ModelDoc};

/// Below this many document-entity pairs a corpus is planned sequentially: the
/// sub-models would cost more than the parallelism gains.
const MIN_PARALLEL_MENTIONS: usize = 20_000;

/// Union-find with path halving.
struct Dsu(Vec<u32>);

impl Dsu {
    fn find(&mut self, mut x: u32) -> u32 {
        while self.0[x as usize] != x {
            let p = self.0[self.0[x as usize] as usize];
            self.0[x as usize] = p;
            x = p;
        }
        x
    }
    fn union(&mut self, a: u32, b: u32) {
        let (ra, rb) = (self.find(a), self.find(b));
        if ra != rb {
            let (lo, hi) = if ra < rb { (ra, rb) } else { (rb, ra) };
            self.0[hi as usize] = lo;
        }
    }
}

/// The connected components of the entity co-occurrence graph, as lists of document
/// indices (ascending), ordered by their first document.
pub fn components(an: &Analysis, n_docs: usize) -> Vec<Vec<u32>> {
    let mut dsu = Dsu((0..n_docs as u32).collect());
    for docs in &an.entity_docs {
        if let Some((&first, rest)) = docs.split_first() {
            for &d in rest {
                dsu.union(first, d);
            }
        }
    }
    let mut slot = vec![u32::MAX; n_docs];
    let mut out: Vec<Vec<u32>> = Vec::new();
    for d in 0..n_docs as u32 {
        let r = dsu.find(d) as usize;
        if slot[r] == u32::MAX {
            slot[r] = out.len() as u32;
            out.push(Vec::new());
        }
        out[slot[r] as usize].push(d);
    }
    out
}

/// A unit of work: a union of components with the sub-model's index maps.
struct Unit {
    /// Global document index of each local document (ascending).
    docs: Vec<u32>,
    /// Global entity index of each local entity (ascending).
    entities: Vec<u32>,
    /// Global chain index of each local chain (ascending).
    chains: Vec<u32>,
    /// Global index of each local kept edge (ascending).
    edges: Vec<u32>,
}

/// What one unit's sequential plan produced, with its maps.
struct UnitPlan {
    unit: Unit,
    plan: Plan,
}

/// Runs the planner per independent part of the corpus on the rayon pool and merges
/// the results; identical to [`super::plan`] on the whole corpus.
pub fn plan_parallel(
    model: &Model,
    an: &Analysis,
    params: &PlanParams,
    constraints: &Constraints,
) -> Result<Plan, PlanError> {
    let mentions: usize = model.docs.iter().map(|d| d.entities.len()).sum();
    let threads = rayon::current_num_threads();
    if threads < 2 || mentions < MIN_PARALLEL_MENTIONS {
        return plan(model, an, params, constraints);
    }
    let units = units(model, an, threads * 4);
    if units.len() < 2 {
        return plan(model, an, params, constraints);
    }
    plan_units(model, an, params, constraints, units)
}

/// [`plan_parallel`] without the size shortcut: every component is split out however
/// small the corpus (for tests).
pub fn plan_parallel_always(
    model: &Model,
    an: &Analysis,
    params: &PlanParams,
    constraints: &Constraints,
    max_units: usize,
) -> Result<Plan, PlanError> {
    let units = units(model, an, max_units.max(1));
    plan_units(model, an, params, constraints, units)
}

/// Groups the components into at most `max_units` units of similar size (largest
/// first onto the lightest unit), each unit's indices ascending.
fn units(model: &Model, an: &Analysis, max_units: usize) -> Vec<Unit> {
    let n = model.docs.len();
    let comps = components(an, n);
    let weight = |c: &Vec<u32>| -> usize {
        c.iter()
            .map(|&d| model.docs[d as usize].entities.len() + 1)
            .sum()
    };
    let k = max_units.min(comps.len()).max(1);
    let mut order: Vec<usize> = (0..comps.len()).collect();
    let weights: Vec<usize> = comps.iter().map(weight).collect();
    order.sort_by(|&a, &b| weights[b].cmp(&weights[a]).then(a.cmp(&b)));
    let mut load = vec![0usize; k];
    let mut unit_of_comp = vec![0usize; comps.len()];
    for c in order {
        let (u, _) = load
            .iter()
            .enumerate()
            .min_by_key(|(i, l)| (**l, *i))
            .unwrap_or((0, &0));
        load[u] += weights[c];
        unit_of_comp[c] = u;
    }
    let mut unit_of_doc = vec![0u32; n];
    for (c, docs) in comps.iter().enumerate() {
        for &d in docs {
            unit_of_doc[d as usize] = unit_of_comp[c] as u32;
        }
    }
    let mut units: Vec<Unit> = (0..k)
        .map(|_| Unit {
            docs: Vec::new(),
            entities: Vec::new(),
            chains: Vec::new(),
            edges: Vec::new(),
        })
        .collect();
    for d in 0..n {
        units[unit_of_doc[d] as usize].docs.push(d as u32);
    }
    for (e, docs) in an.entity_docs.iter().enumerate() {
        // An entity in no document (possible after edits) goes to the first unit.
        let u = docs
            .first()
            .map_or(0, |&d| unit_of_doc[d as usize] as usize);
        units[u].entities.push(e as u32);
    }
    for (i, e) in an.edges.iter().enumerate() {
        units[unit_of_doc[e.a as usize] as usize]
            .edges
            .push(i as u32);
    }
    for (i, c) in an.chains.iter().enumerate() {
        if let Some(&d) = c.docs().first() {
            units[unit_of_doc[d as usize] as usize]
                .chains
                .push(i as u32);
        }
    }
    units.retain(|u| !u.docs.is_empty() || !u.entities.is_empty());
    units
}

/// The sub-model and sub-analysis of a unit: local indices in global order, global
/// values.
fn sub_problem(model: &Model, an: &Analysis, unit: &Unit) -> (Model, Analysis) {
    const NONE: u32 = u32::MAX;
    let mut local_entity = vec![NONE; model.entities.len()];
    for (i, &e) in unit.entities.iter().enumerate() {
        local_entity[e as usize] = i as u32;
    }
    let mut local_doc = vec![NONE; model.docs.len()];
    for (i, &d) in unit.docs.iter().enumerate() {
        local_doc[d as usize] = i as u32;
    }
    let le = |e: u32| local_entity[e as usize];
    let ld = |d: u32| local_doc[d as usize];
    let sub_model = Model {
        docs: unit
            .docs
            .iter()
            .map(|&d| {
                let md = &model.docs[d as usize];
                ModelDoc {
                    id: md.id.clone(),
                    corpus_index: md.corpus_index,
                    entities: md.entities.iter().map(|&(e, r)| (le(e), r)).collect(),
                }
            })
            .collect(),
        entities: unit
            .entities
            .iter()
            .map(|&e| model.entities[e as usize].clone())
            .collect(),
    };
    // Kept edges of the unit, in global (a, b) order.
    let edges: Vec<Edge> = unit
        .edges
        .iter()
        .map(|&h| {
            let e = &an.edges[h as usize];
            Edge {
                a: ld(e.a),
                b: ld(e.b),
                via: e.via.iter().map(|&(x, s)| (le(x), s)).collect(),
                strength: e.strength,
            }
        })
        .collect();
    let local_edge = |h: u32| unit.edges.binary_search(&h).map_or(u32::MAX, |i| i as u32);
    let chains = unit
        .chains
        .iter()
        .map(|&c| {
            let ch = &an.chains[c as usize];
            let docs: Vec<u32> = ch.docs().iter().map(|&d| ld(d)).collect();
            let hops: Vec<u32> = ch.hops().iter().map(|&h| local_edge(h)).collect();
            Chain::new(&docs, &hops)
        })
        .collect();
    let pick = |v: &[f64]| -> Vec<f64> { unit.entities.iter().map(|&e| v[e as usize]).collect() };
    let sub_an = Analysis {
        n: an.n,
        entity_docs: unit
            .entities
            .iter()
            .map(|&e| an.entity_docs[e as usize].iter().map(|&d| ld(d)).collect())
            .collect(),
        uniqueness: pick(&an.uniqueness),
        global_contribution: pick(&an.global_contribution),
        contributions: unit
            .docs
            .iter()
            .map(|&d| {
                an.contributions[d as usize]
                    .iter()
                    .map(|&(e, c)| (le(e), c))
                    .collect()
            })
            .collect(),
        doc_risk_initial: unit
            .docs
            .iter()
            .map(|&d| an.doc_risk_initial[d as usize])
            .collect(),
        edges,
        chains,
        chain_cap: an.chain_cap.clone(),
    };
    (sub_model, sub_an)
}

/// The constraints restricted to a unit's entities (forced ids by id).
fn sub_constraints(model: &Model, constraints: &Constraints, unit: &Unit) -> Constraints {
    let mine = |id: &String| {
        model
            .entity_index(id)
            .is_some_and(|i| unit.entities.binary_search(&(i as u32)).is_ok())
    };
    Constraints {
        force_mask: constraints
            .force_mask
            .iter()
            .filter(|id| mine(id))
            .cloned()
            .collect(),
        force_keep: constraints
            .force_keep
            .iter()
            .filter(|id| mine(id))
            .cloned()
            .collect(),
        always_mask: constraints.always_mask.clone(),
        never_mask: constraints.never_mask.clone(),
    }
}

fn plan_units(
    model: &Model,
    an: &Analysis,
    params: &PlanParams,
    constraints: &Constraints,
    units: Vec<Unit>,
) -> Result<Plan, PlanError> {
    // The checks and warnings of the whole corpus, in the sequential planner's order.
    if let Some(id) = constraints
        .force_mask
        .intersection(&constraints.force_keep)
        .next()
    {
        return Err(PlanError::ForcedBoth(id.clone()));
    }
    let mut warnings = Vec::new();
    for (set, what) in [
        (&constraints.force_mask, "mask"),
        (&constraints.force_keep, "keep"),
    ] {
        for id in set {
            if model.entity_index(id).is_none() {
                warnings.push(format!(
                    "forced {what} of entity {id} ignored: it does not occur in the corpus"
                ));
            }
        }
    }
    let results: Vec<Result<UnitPlan, PlanError>> = units
        .into_par_iter()
        .map(|unit| {
            let (m, a) = sub_problem(model, an, &unit);
            let c = sub_constraints(model, constraints, &unit);
            let plan = plan(&m, &a, params, &c)?;
            Ok(UnitPlan { unit, plan })
        })
        .collect();
    let mut parts = Vec::with_capacity(results.len());
    for r in results {
        parts.push(r?);
    }
    Ok(merge(model, an, parts, warnings))
}

fn merge(model: &Model, an: &Analysis, parts: Vec<UnitPlan>, warnings: Vec<String>) -> Plan {
    let ne = model.entities.len();
    let nd = model.docs.len();
    let mut masked = vec![false; ne];
    let mut masked_after_document_stage = vec![false; ne];
    let mut provenance: Vec<Option<Provenance>> = vec![None; ne];
    let mut doc_risk_final = vec![0.0; nd];
    let mut chains: Vec<Option<super::ChainResult>> = vec![None; an.chains.len()];
    let mut residual_docs = Vec::new();
    let mut residual_chains = Vec::new();
    let mut pruned = Vec::new();
    let mut doc_events: Vec<MaskEvent> = Vec::new();
    let mut chain_events: Vec<MaskEvent> = Vec::new();
    for UnitPlan { unit, plan: p } in parts {
        let ge = |e: u32| unit.entities[e as usize];
        let gd = |d: u32| unit.docs[d as usize];
        let gc = |c: u32| unit.chains[c as usize];
        let cause = |c: Cause| match c {
            Cause::Document(d) => Cause::Document(gd(d)),
            Cause::Chain(k) => Cause::Chain(gc(k)),
        };
        for (i, &e) in unit.entities.iter().enumerate() {
            masked[e as usize] = p.masked[i];
            masked_after_document_stage[e as usize] = p.masked_after_document_stage[i];
        }
        for (i, pr) in p.provenance.into_iter().enumerate() {
            provenance[ge(i as u32) as usize] = Some(match pr {
                Provenance::Masked {
                    stage,
                    cause: c,
                    risk_before,
                    risk_after,
                } => Provenance::Masked {
                    stage,
                    cause: c.map(cause),
                    risk_before,
                    risk_after,
                },
                Provenance::KeptPruned {
                    stage,
                    cause: c,
                    risk_before,
                    risk_after,
                    cause_risk,
                    cause_bound,
                } => Provenance::KeptPruned {
                    stage,
                    cause: cause(c),
                    risk_before,
                    risk_after,
                    cause_risk,
                    cause_bound,
                },
                other => other,
            });
        }
        for (i, r) in p.doc_risk_final.into_iter().enumerate() {
            doc_risk_final[gd(i as u32) as usize] = r;
        }
        for (i, c) in p.chains.into_iter().enumerate() {
            chains[gc(i as u32) as usize] = Some(c);
        }
        pruned.extend(p.pruned.into_iter().map(ge));
        residual_docs.extend(p.residual_docs.into_iter().map(gd));
        residual_chains.extend(p.residual_chains.into_iter().map(gc));
        for ev in p.events {
            let ev = MaskEvent {
                entity: ge(ev.entity),
                cause: cause(ev.cause),
                ..ev
            };
            if ev.stage == Stage::Document {
                doc_events.push(ev);
            } else {
                chain_events.push(ev);
            }
        }
    }
    let chains: Vec<super::ChainResult> = chains.into_iter().flatten().collect();
    // The sequential chain stage's order: target chains by descending R_pre, ties in
    // canonical order; a chain's events stay together in their own order.
    let mut targets: Vec<usize> = (0..chains.len())
        .filter(|&i| chains[i].target().is_some())
        .collect();
    targets.sort_by(|&a, &b| chains[b].risk_pre.total_cmp(&chains[a].risk_pre));
    let mut rank = vec![u32::MAX; chains.len()];
    for (r, &c) in targets.iter().enumerate() {
        rank[c] = r as u32;
    }
    let chain_rank = |ev: &MaskEvent| match ev.cause {
        Cause::Chain(c) => rank[c as usize],
        Cause::Document(_) => u32::MAX,
    };
    let doc_of = |ev: &MaskEvent| match ev.cause {
        Cause::Document(d) => d,
        Cause::Chain(_) => u32::MAX,
    };
    doc_events.sort_by_key(doc_of);
    chain_events.sort_by_key(chain_rank);
    let mut events = doc_events;
    events.extend(chain_events);
    residual_docs.sort_unstable();
    residual_chains.sort_unstable();
    pruned.sort_unstable();
    Plan {
        masked,
        masked_after_document_stage,
        pruned,
        events,
        provenance: provenance
            .into_iter()
            .map(|p| {
                p.unwrap_or(Provenance::KeptNotNeeded {
                    max_doc_risk: 0.0,
                    target_chains: 0,
                })
            })
            .collect(),
        doc_risk_final,
        chains,
        residual_docs,
        residual_chains,
        warnings,
    }
}
