//! Gold-chain annotation (SPEC §10): a gold chain is a set of 2–3 documents that
//! together raise the re-identification risk of a person. The session keeps them by
//! document id (so they survive re-extraction) with an optional note; chains whose
//! documents are no longer in the corpus are kept and shown as orphaned.

use std::collections::HashMap;

use serde_json::Value;

use super::{AuditAction, SessionState};

/// Documents in a gold chain.
pub const SIZES: std::ops::RangeInclusive<usize> = 2..=3;

/// The session's key of a chain: its document ids sorted, each once.
pub fn key(documents: &[String]) -> Vec<String> {
    let mut k = documents.to_vec();
    k.sort();
    k.dedup();
    k
}

/// A gold chain as shown and exported.
#[derive(Debug, Clone, PartialEq)]
pub struct GoldChain {
    /// Document ids in corpus order (ids not in the corpus last, sorted).
    pub documents: Vec<String>,
    pub note: Option<String>,
    /// Document ids not in the corpus (an orphaned chain when not empty).
    pub missing: Vec<String>,
}

impl GoldChain {
    pub fn orphaned(&self) -> bool {
        !self.missing.is_empty()
    }
}

/// Corpus position of each document id.
pub fn positions<'a>(corpus_ids: impl IntoIterator<Item = &'a str>) -> HashMap<&'a str, usize> {
    corpus_ids
        .into_iter()
        .enumerate()
        .map(|(i, d)| (d, i))
        .collect()
}

/// `documents` in corpus order (unknown ids last, sorted).
pub fn corpus_order(documents: &[String], pos: &HashMap<&str, usize>) -> Vec<String> {
    let mut out = key(documents);
    out.sort_by_key(|d| {
        (
            pos.get(d.as_str()).copied().unwrap_or(usize::MAX),
            d.clone(),
        )
    });
    out
}

/// The session's gold chains in corpus order of their documents (orphaned ones
/// last).
pub fn chains(state: &SessionState, pos: &HashMap<&str, usize>) -> Vec<GoldChain> {
    let mut out: Vec<GoldChain> = state
        .gold
        .iter()
        .map(|(docs, note)| GoldChain {
            documents: corpus_order(docs, pos),
            note: note.clone(),
            missing: docs
                .iter()
                .filter(|d| !pos.contains_key(d.as_str()))
                .cloned()
                .collect(),
        })
        .collect();
    let rank = |c: &GoldChain| {
        let p: Vec<usize> = c
            .documents
            .iter()
            .map(|d| pos.get(d.as_str()).copied().unwrap_or(usize::MAX))
            .collect();
        (c.orphaned(), p, c.documents.clone())
    };
    out.sort_by_cached_key(rank);
    out
}

/// The gold chains as written to `gold_chains.json` (thesis gold format), every id
/// and note passed through `map` (the export's replacer).
pub fn to_json(chains: &[GoldChain], map: impl Fn(&str) -> String) -> Value {
    let list: Vec<(Vec<String>, Option<String>)> = chains
        .iter()
        .map(|c| {
            (
                c.documents.iter().map(|d| map(d)).collect(),
                c.note.as_deref().map(&map),
            )
        })
        .collect();
    crate::gold::chains_json(&list)
}

/// What an import will do: one decision per chain to mark, and the chains left out
/// with the reason.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ImportPlan {
    pub marks: Vec<AuditAction>,
    pub skipped: Vec<(Vec<String>, String)>,
}

impl ImportPlan {
    /// `imported 3 gold chain(s); skipped 2: 1 already gold, 1 with a document not in
    /// the corpus`.
    pub fn summary(&self) -> String {
        let mut s = format!("imported {} gold chain(s)", self.marks.len());
        if self.skipped.is_empty() {
            return s;
        }
        let mut reasons: Vec<(String, usize)> = Vec::new();
        for (_, r) in &self.skipped {
            // Grouped by the reason without its details (the ids in brackets).
            let r = r.split(" (").next().unwrap_or(r).to_string();
            match reasons.iter_mut().find(|(x, _)| *x == r) {
                Some((_, n)) => *n += 1,
                None => reasons.push((r, 1)),
            }
        }
        s.push_str(&format!("; skipped {}: ", self.skipped.len()));
        let parts: Vec<String> = reasons.iter().map(|(r, n)| format!("{n} {r}")).collect();
        s.push_str(&parts.join(", "));
        s
    }
}

/// Plans the import of `chains` (from [`crate::gold::load_chains`]) into a
/// session in `state` over a corpus whose documents are at `pos`: chains of more
/// than 3 documents, chains naming a document not in the corpus and chains already
/// gold with the same note are skipped.
pub fn plan_import(
    chains: &[(Vec<String>, Option<String>)],
    state: &SessionState,
    pos: &HashMap<&str, usize>,
) -> ImportPlan {
    let mut plan = ImportPlan::default();
    let mut seen = std::collections::BTreeSet::new();
    for (docs, note) in chains {
        let k = key(docs);
        if !seen.insert(k.clone()) {
            continue;
        }
        let unknown: Vec<&str> = k
            .iter()
            .filter(|d| !pos.contains_key(d.as_str()))
            .map(String::as_str)
            .collect();
        let reason = if !SIZES.contains(&k.len()) {
            Some(format!(
                "with {} document(s) (a gold chain has 2–3)",
                k.len()
            ))
        } else if !unknown.is_empty() {
            Some(format!(
                "with a document not in the corpus ({})",
                unknown.join(", ")
            ))
        } else {
            match state.gold.get(&k) {
                Some(old) if note.is_none() || old == note => Some("already gold".to_string()),
                _ => None,
            }
        };
        match reason {
            Some(r) => plan.skipped.push((k, r)),
            None => plan.marks.push(AuditAction::GoldMark {
                documents: corpus_order(&k, pos),
                note: note.clone(),
            }),
        }
    }
    plan
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn chains_are_listed_in_corpus_order_with_orphans_last() {
        let ids = ["c", "b", "a"];
        let pos = positions(ids);
        let mut state = SessionState::default();
        state.gold.insert(key(&s(&["a", "b"])), None);
        state
            .gold
            .insert(key(&s(&["b", "c"])), Some("same MRN".into()));
        state.gold.insert(key(&s(&["a", "gone"])), None);
        let out = chains(&state, &pos);
        assert_eq!(out[0].documents, s(&["c", "b"]));
        assert_eq!(out[0].note.as_deref(), Some("same MRN"));
        assert_eq!(out[1].documents, s(&["b", "a"]));
        assert!(out[2].orphaned());
        assert_eq!(out[2].missing, s(&["gone"]));
    }

    #[test]
    fn an_import_skips_unknown_documents_long_chains_and_chains_already_gold() {
        let pos = positions(["a", "b", "c", "d", "e"]);
        let mut state = SessionState::default();
        state.gold.insert(s(&["a", "b"]), None);
        let plan = plan_import(
            &[
                (s(&["a", "b"]), None),
                (s(&["b", "c"]), Some("note".into())),
                (s(&["a", "x"]), None),
                (s(&["a", "b", "c", "d"]), None),
                (s(&["c", "b"]), None),
            ],
            &state,
            &pos,
        );
        assert_eq!(
            plan.marks,
            vec![AuditAction::GoldMark {
                documents: s(&["b", "c"]),
                note: Some("note".into())
            }]
        );
        assert_eq!(plan.skipped.len(), 3);
        assert_eq!(
            plan.summary(),
            "imported 1 gold chain(s); skipped 3: 1 already gold, 1 with a document not in the corpus, 1 with 4 document(s)"
        );
    }
    proptest::proptest! {
        /// Whatever a gold file holds, an import marks only chains of 2–3 documents
        /// of the corpus, in corpus order, each once, and accounts for every
        /// distinct chain of the file either as marked or as skipped.
        #[test]
        fn an_import_marks_only_valid_chains_and_accounts_for_each(
            chains in proptest::collection::vec(
                (proptest::collection::vec(0usize..8, 1..5), proptest::option::of("[a-z ]{0,6}")),
                0..12,
            )
        ) {
            // d0..d5 are in the corpus (in reverse order), d6 and d7 are not.
            let ids = ["d5", "d4", "d3", "d2", "d1", "d0"];
            let pos = positions(ids);
            let chains: Vec<(Vec<String>, Option<String>)> = chains
                .into_iter()
                .map(|(d, n)| (d.into_iter().map(|i| format!("d{i}")).collect(), n))
                .collect();
            let plan = plan_import(&chains, &SessionState::default(), &pos);
            let mut marked = std::collections::BTreeSet::new();
            for a in &plan.marks {
                let AuditAction::GoldMark { documents, .. } = a else {
                    panic!("{a:?}");
                };
                proptest::prop_assert!(SIZES.contains(&documents.len()));
                let p: Vec<usize> = documents.iter().map(|d| pos[d.as_str()]).collect();
                proptest::prop_assert!(p.windows(2).all(|w| w[0] < w[1]), "{documents:?}");
                proptest::prop_assert!(marked.insert(key(documents)));
            }
            let distinct: std::collections::BTreeSet<Vec<String>> =
                chains.iter().map(|(d, _)| key(d)).collect();
            proptest::prop_assert_eq!(plan.marks.len() + plan.skipped.len(), distinct.len());
        }
    }
}
