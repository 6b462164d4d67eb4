//! Edge discovery through an inverted index (SPEC §3, §9), never enumerating all
//! document pairs.
//!
//! A pair can only be kept when `strength ≥ edge_threshold`, i.e. when
//! `Σ −ln(1 − s_e(di,dj)) ≥ L = −ln(1 − edge_threshold)`. Every `s_e(di,dj)` is at
//! most the entity's global contribution `s_e`. Entities in more than `RARE_MAX`
//! documents are "frequent"; pairs sharing a rare entity are found through the rare
//! entities' posting lists. A pair sharing only frequent entities has strength at most
//! `1 − exp(−F(d))` for both of its documents, where `F(d) = Σ −ln(1 − s_e)` over
//! d's frequent entities, so only documents with `F(d) ≥ L` need to be paired through
//! frequent entities. A hub entity in every document has `u(e) ≈ 0`, adds nearly
//! nothing to F and so never makes the analysis quadratic.

use super::{one_minus_product, Edge, Model};

/// Entities in at most this many documents are paired directly.
const RARE_MAX: usize = 32;

/// Strength of the pair (a, b) over their shared entities, or None if they share none.
fn pair_edge(model: &Model, uniqueness: &[f64], a: u32, b: u32) -> Option<Edge> {
    let (da, db) = (&model.docs[a as usize].entities, &model.docs[b as usize].entities);
    let (mut i, mut j) = (0, 0);
    let mut via = Vec::new();
    while i < da.len() && j < db.len() {
        match da[i].0.cmp(&db[j].0) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                let e = da[i].0;
                let ei = e as usize;
                let s = da[i].1.max(db[j].1) * uniqueness[ei] * model.entities[ei].weight;
                via.push((e, s));
                i += 1;
                j += 1;
            }
        }
    }
    if via.is_empty() {
        return None;
    }
    let strength = one_minus_product(via.iter().map(|(_, s)| *s));
    Some(Edge { a, b, via, strength })
}

/// Every pair of documents sharing at least one entity (for reports and the
/// reference vectors; quadratic for hub entities by nature).
pub fn all_edges(model: &Model, entity_docs: &[Vec<u32>], uniqueness: &[f64]) -> Vec<Edge> {
    let n = model.docs.len();
    let mut out = Vec::new();
    let mut seen = vec![u32::MAX; n];
    for a in 0..n as u32 {
        let mut partners: Vec<u32> = Vec::new();
        for &(e, _) in &model.docs[a as usize].entities {
            for &b in &entity_docs[e as usize] {
                if b > a && seen[b as usize] != a {
                    seen[b as usize] = a;
                    partners.push(b);
                }
            }
        }
        partners.sort_unstable();
        out.extend(partners.into_iter().filter_map(|b| pair_edge(model, uniqueness, a, b)));
    }
    out
}

/// Edges whose unmasked strength is ≥ `threshold`, by (a, b) in corpus order.
pub fn kept_edges(
    model: &Model,
    entity_docs: &[Vec<u32>],
    uniqueness: &[f64],
    global_contribution: &[f64],
    threshold: f64,
) -> Vec<Edge> {
    let n = model.docs.len();
    if threshold <= 0.0 {
        return all_edges(model, entity_docs, uniqueness);
    }
    let limit = -(1.0 - threshold.min(1.0)).ln();
    let weight = |e: usize| -> f64 { -(1.0 - global_contribution[e]).ln() };
    let frequent = |e: usize| entity_docs[e].len() > RARE_MAX;
    // A conservative margin so rounding in the bound never prunes a kept pair.
    let may_reach = |f: f64| f * (1.0 + 1e-9) + 1e-12 >= limit;
    let heavy: Vec<bool> = model
        .docs
        .iter()
        .map(|d| {
            let f: f64 = d
                .entities
                .iter()
                .filter(|(e, _)| frequent(*e as usize))
                .map(|(e, _)| weight(*e as usize))
                .sum();
            may_reach(f)
        })
        .collect();
    let mut out = Vec::new();
    let mut seen = vec![u32::MAX; n];
    let mut partners: Vec<u32> = Vec::new();
    for a in 0..n as u32 {
        partners.clear();
        for &(e, _) in &model.docs[a as usize].entities {
            let ei = e as usize;
            let through_frequent = frequent(ei);
            if through_frequent && !heavy[a as usize] {
                continue;
            }
            for &b in &entity_docs[ei] {
                if b <= a || seen[b as usize] == a {
                    continue;
                }
                if through_frequent && !heavy[b as usize] {
                    continue;
                }
                seen[b as usize] = a;
                partners.push(b);
            }
        }
        partners.sort_unstable();
        for &b in &partners {
            if let Some(edge) = pair_edge(model, uniqueness, a, b)
                && edge.strength >= threshold
            {
                out.push(edge);
            }
        }
    }
    out
}
