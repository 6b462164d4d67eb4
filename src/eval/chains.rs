//! Chain pairs against gold (SPEC §10): clusters, pair counts, the chain figures.

use super::*;

/// Document id → cluster id.
pub(super) fn cluster_map(gold: &Gold) -> BTreeMap<&str, &str> {
    let mut m = BTreeMap::new();
    for c in &gold.clusters {
        for d in &c.docs {
            m.insert(d.as_str(), c.id.as_str());
        }
    }
    m
}

pub(super) fn count_pairs<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    clusters: &BTreeMap<&str, &str>,
) -> ClusterCounts {
    let mut c = ClusterCounts::default();
    for (a, b) in pairs {
        c.total += 1;
        match (clusters.get(a), clusters.get(b)) {
            (Some(x), Some(y)) if x == y => c.intra += 1,
            (Some(_), Some(_)) => c.inter += 1,
            _ => c.outside += 1,
        }
    }
    c
}

pub(super) fn chain_eval(
    model: &Model,
    an: &Analysis,
    config: &Config,
    gold: &Gold,
    clusters: &BTreeMap<&str, &str>,
) -> (Option<ChainEval>, Option<ClusterCounts>) {
    let edges = (!clusters.is_empty()).then(|| {
        count_pairs(
            an.edges.iter().map(|e| {
                (
                    model.docs[e.a as usize].id.as_str(),
                    model.docs[e.b as usize].id.as_str(),
                )
            }),
            clusters,
        )
    });
    let Some(gold_chains) = &gold.chains else {
        return (None, edges);
    };
    let flagged = an.flagged_chains(model, config.plan.risk_high, config.plan.risk_medium);
    let predicted_pairs = metrics::pairs_of(&flagged);
    let eval = ChainEval {
        pairs: Prf::of_sets(&predicted_pairs, &metrics::pairs_of(gold_chains)),
        exact: Prf::of_sets(
            &metrics::doc_sets(&flagged),
            &metrics::doc_sets(gold_chains),
        ),
        chains: an.chains.len(),
        flagged: flagged.len(),
        flagged_pairs: (!clusters.is_empty()).then(|| {
            count_pairs(
                predicted_pairs
                    .iter()
                    .map(|(a, b)| (a.as_str(), b.as_str())),
                clusters,
            )
        }),
    };
    (Some(eval), edges)
}
