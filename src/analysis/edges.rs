//! Edge discovery through an inverted index (SPEC §3, §9), never enumerating all
//! document pairs.
//!
//! A pair is kept when `strength ≥ edge_threshold`, i.e. when
//! `Σ −ln(1 − s_e(di,dj)) ≥ L = −ln(1 − edge_threshold)` over the shared entities.
//! Every `s_e(di,dj)` is at most the entity's global contribution `s_e`, so with
//! `x_e = −ln(1 − s_e)` a kept pair's shared entities have `Σ x_e ≥ L`.
//!
//! Prefix filtering (as in similarity joins): order all entities rarest first; a
//! document's *prefix* is its entities, in that order, for as long as the sum of `x_e`
//! from there to the end of the document is still ≥ L. The first shared entity of a
//! kept pair lies in both documents' prefixes, so candidate pairs are generated only
//! through prefix entities. A hub entity in every document comes last in the order
//! and has `u(e) ≈ 0`, so it is in no prefix and adds no pairs.

use super::{Edge, EdgeVia, Model, one_minus_product};

/// Strength of the pair (a, b), with `rel_in_a[e]` holding a's relevance of each of
/// its entities (negative elsewhere). b's entities are visited in ascending id order,
/// so the product runs in the specified order.
fn pair_strength(model: &Model, uniqueness: &[f64], rel_in_a: &[f64], b: u32) -> f64 {
    let mut p = 1.0;
    for &(e, rel_b) in &model.docs[b as usize].entities {
        let ei = e as usize;
        let rel_a = rel_in_a[ei];
        if rel_a >= 0.0 {
            p *= 1.0 - rel_a.max(rel_b) * uniqueness[ei] * model.entities[ei].weight;
        }
    }
    1.0 - p
}

/// Strength of the pair (a, b) over their shared entities, or None if they share none.
fn pair_edge(model: &Model, uniqueness: &[f64], a: u32, b: u32) -> Option<Edge> {
    let (da, db) = (
        &model.docs[a as usize].entities,
        &model.docs[b as usize].entities,
    );
    let (mut i, mut j) = (0, 0);
    let mut via = EdgeVia::new();
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
    Some(Edge {
        a,
        b,
        via,
        strength,
    })
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
        out.extend(
            partners
                .into_iter()
                .filter_map(|b| pair_edge(model, uniqueness, a, b)),
        );
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
    // A conservative margin so rounding in the bound never prunes a kept pair.
    let may_reach = |sum: f64| sum * (1.0 + 1e-9) + 1e-12 >= limit;
    let ne = entity_docs.len();
    let mut by_rarity: Vec<u32> = (0..ne as u32).collect();
    by_rarity.sort_by_key(|&e| (entity_docs[e as usize].len(), e));
    let mut rank = vec![0u32; ne];
    for (r, &e) in by_rarity.iter().enumerate() {
        rank[e as usize] = r as u32;
    }
    let x = |e: u32| -> f64 { -(1.0 - global_contribution[e as usize]).ln() };
    let mut prefixes: Vec<Vec<u32>> = Vec::with_capacity(n);
    let mut postings: Vec<Vec<u32>> = vec![Vec::new(); ne];
    let mut ents: Vec<u32> = Vec::new();
    let mut sums: Vec<f64> = Vec::new();
    for (d, doc) in model.docs.iter().enumerate() {
        ents.clear();
        ents.extend(doc.entities.iter().map(|(e, _)| *e));
        ents.sort_by_key(|&e| rank[e as usize]);
        sums.clear();
        sums.resize(ents.len(), 0.0);
        let mut suffix = 0.0;
        for k in (0..ents.len()).rev() {
            suffix += x(ents[k]);
            sums[k] = suffix;
        }
        let prefix: Vec<u32> = ents
            .iter()
            .zip(&sums)
            .take_while(|(_, s)| may_reach(**s))
            .map(|(e, _)| *e)
            .collect();
        for &e in &prefix {
            postings[e as usize].push(d as u32);
        }
        prefixes.push(prefix);
    }
    // Documents are processed in blocks, by as many threads as there are cores; the
    // blocks' edges are concatenated in block order, so the result is the same as a
    // sequential pass.
    const BLOCK: usize = 64;
    let blocks = n.div_ceil(BLOCK);
    let threads = std::thread::available_parallelism()
        .map_or(1, |p| p.get())
        .min(blocks.max(1));
    let next_block = std::sync::atomic::AtomicUsize::new(0);
    let worker = || {
        let mut done: Vec<(usize, Vec<Edge>)> = Vec::new();
        let mut seen = vec![u32::MAX; n];
        let mut partners: Vec<u32> = Vec::new();
        let mut rel_in_a = vec![-1.0f64; ne];
        loop {
            let block = next_block.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            if block >= blocks {
                break;
            }
            let mut out = Vec::new();
            for a in (block * BLOCK) as u32..((block + 1) * BLOCK).min(n) as u32 {
                partners.clear();
                for &e in &prefixes[a as usize] {
                    let list = &postings[e as usize];
                    // Postings are in document order and hold `a`: only later documents pair.
                    let from = list.partition_point(|&b| b <= a);
                    for &b in &list[from..] {
                        if seen[b as usize] != a {
                            seen[b as usize] = a;
                            partners.push(b);
                        }
                    }
                }
                if partners.is_empty() {
                    continue;
                }
                partners.sort_unstable();
                let own = &model.docs[a as usize].entities;
                for &(e, r) in own {
                    rel_in_a[e as usize] = r;
                }
                for &b in &partners {
                    if pair_strength(model, uniqueness, &rel_in_a, b) >= threshold
                        && let Some(edge) = pair_edge(model, uniqueness, a, b)
                    {
                        out.push(edge);
                    }
                }
                for &(e, _) in own {
                    rel_in_a[e as usize] = -1.0;
                }
            }
            done.push((block, out));
        }
        done
    };
    let mut results: Vec<(usize, Vec<Edge>)> = if threads <= 1 {
        worker()
    } else {
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
            handles
                .into_iter()
                .flat_map(|h| {
                    h.join()
                        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
                })
                .collect()
        })
    };
    results.sort_by_key(|(block, _)| *block);
    // Sized once: grown by doubling, ten million edges were twice their size at the
    // last copy.
    let mut edges = Vec::with_capacity(results.iter().map(|(_, e)| e.len()).sum());
    for (_, block) in results {
        edges.extend(block);
    }
    edges
}
