//! Flagged chains against gold chains (SPEC §10). The gold files themselves are read
//! by [`crate::gold`]; their types are re-exported here for the evaluation's callers.

use std::collections::BTreeSet;

pub use crate::gold::*;

/// Flagged chains against gold chains as document pairs (SPEC §10), and which
/// chains the pair figures charge: a gold chain is *missed* when one of its pairs is
/// in no flagged chain (a false negative), a flagged chain is *not gold* when one of
/// its pairs is in no gold chain (a false positive).
#[derive(Debug, Clone, PartialEq)]
pub struct ChainComparison {
    pub pairs: super::metrics::Prf,
    /// Indices into the gold chains.
    pub missed: Vec<usize>,
    /// Indices into the flagged chains.
    pub not_gold: Vec<usize>,
}

pub fn compare_chains<S: AsRef<str>, T: AsRef<str>>(
    flagged: &[Vec<S>],
    gold: &[Vec<T>],
) -> ChainComparison {
    use super::metrics::{Prf, pairs_of};
    let fp = pairs_of(flagged);
    let gp = pairs_of(gold);
    fn outside<S: AsRef<str>>(c: &[S], other: &BTreeSet<super::metrics::DocPair>) -> bool {
        let c: Vec<&str> = c.iter().map(AsRef::as_ref).collect();
        !pairs_of(&[c]).is_subset(other)
    }
    ChainComparison {
        pairs: Prf::of_sets(&fp, &gp),
        missed: (0..gold.len())
            .filter(|&i| outside(&gold[i], &fp))
            .collect(),
        not_gold: (0..flagged.len())
            .filter(|&i| outside(&flagged[i], &gp))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn chain_comparison_lists_missed_and_not_gold_chains_by_index() {
        let chains = |cs: &[&[&str]]| -> Vec<Vec<String>> {
            cs.iter()
                .map(|c| c.iter().map(|s| s.to_string()).collect())
                .collect()
        };
        let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
        // Flagged {a,b,c} (pairs ab ac bc), {d,e}, {a,b} again; gold {a,b}, {b,c},
        // {c,d}, {e,f,g}.
        let flagged = chains(&[&["c", "b", "a"], &["d", "e"], &["a", "b"]]);
        let gold = chains(&[&["b", "a"], &["b", "c"], &["c", "d"], &["e", "f", "g"]]);
        let c = compare_chains(&flagged, &gold);
        // Pairs: flagged ab ac bc de; gold ab bc cd ef eg fg → tp 2, fp 2, fn 4.
        assert_eq!((c.pairs.tp, c.pairs.fp, c.pairs.fn_), (2, 2, 4));
        assert!(close(c.pairs.precision, 0.5));
        assert!(close(c.pairs.recall, 2.0 / 6.0));
        assert_eq!(c.missed, vec![2, 3]);
        // {a,b} is gold; {a,b,c} has ac, {d,e} has de, neither gold.
        assert_eq!(c.not_gold, vec![0, 1]);
        // Everything found: nothing missed, nothing extra.
        let same = compare_chains(&gold, &gold);
        assert!(same.missed.is_empty() && same.not_gold.is_empty());
        assert!(close(same.pairs.f1, 1.0));
        let none = compare_chains::<&str, String>(&[], &gold);
        assert_eq!(none.missed.len(), 4);
        assert_eq!(none.pairs.undefined, vec!["precision"]);
    }

    #[test]
    fn chain_comparison_on_a_hand_made_case() {
        // Flagged pairs {ab, bc, de}; gold pairs {ab, ac, bc, fg}: tp 2, fp 1, fn 2.
        let flagged = vec![ids(&["a", "b"]), ids(&["b", "c"]), ids(&["d", "e"])];
        let gold = vec![ids(&["a", "b", "c"]), ids(&["f", "g"])];
        let c = compare_chains(&flagged, &gold);
        assert_eq!((c.pairs.tp, c.pairs.fp, c.pairs.fn_), (2, 1, 2));
        assert!((c.pairs.precision - 2.0 / 3.0).abs() < 1e-12);
        assert!((c.pairs.recall - 0.5).abs() < 1e-12);
        assert!((c.pairs.f1 - 4.0 / 7.0).abs() < 1e-12);
        assert_eq!(
            c.missed,
            vec![0, 1],
            "ac is in no flagged chain; fg neither"
        );
        assert_eq!(c.not_gold, vec![2]);
        let perfect = compare_chains(&gold, &gold);
        assert_eq!(perfect.pairs.f1, 1.0);
        assert!(perfect.missed.is_empty() && perfect.not_gold.is_empty());
    }
}
