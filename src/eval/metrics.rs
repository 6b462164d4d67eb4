//! Precision, recall and F1 over sets of chains, document pairs and mention spans.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

/// Precision, recall and F1 with the counts behind them. A ratio whose denominator is
/// 0 is reported as 0.0 and named in `undefined`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prf {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub tp: usize,
    pub fp: usize,
    #[serde(rename = "fn")]
    pub fn_: usize,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub undefined: Vec<&'static str>,
}

fn ratio(num: usize, den: usize) -> Option<f64> {
    (den > 0).then(|| num as f64 / den as f64)
}

impl Prf {
    /// From one-to-one matches: P = tp/(tp+fp), R = tp/(tp+fn).
    pub fn from_counts(tp: usize, fp: usize, fn_: usize) -> Self {
        Self::from_matches(tp, tp + fp, tp, tp + fn_)
    }

    /// From matches counted on each side (overlap matching, where one predicted span
    /// may cover two gold spans): P = matched predicted / predicted,
    /// R = matched gold / gold; `tp` = matched gold, `fp` = unmatched predicted,
    /// `fn` = unmatched gold.
    pub fn from_matches(
        matched_predicted: usize,
        predicted: usize,
        matched_gold: usize,
        gold: usize,
    ) -> Self {
        let mut undefined = Vec::new();
        let precision = ratio(matched_predicted, predicted).unwrap_or_else(|| {
            undefined.push("precision");
            0.0
        });
        let recall = ratio(matched_gold, gold).unwrap_or_else(|| {
            undefined.push("recall");
            0.0
        });
        let f1 = if precision + recall > 0.0 {
            2.0 * precision * recall / (precision + recall)
        } else {
            0.0
        };
        Prf {
            precision,
            recall,
            f1,
            tp: matched_gold,
            fp: predicted - matched_predicted,
            fn_: gold - matched_gold,
            undefined,
        }
    }

    /// Set comparison: tp = |P ∩ G|, fp = |P \ G|, fn = |G \ P|.
    pub fn of_sets<T: Ord>(predicted: &BTreeSet<T>, gold: &BTreeSet<T>) -> Self {
        let tp = predicted.intersection(gold).count();
        Self::from_counts(tp, predicted.len() - tp, gold.len() - tp)
    }
}

/// An unordered pair of documents, smaller id first.
pub type DocPair = (String, String);

/// Every unordered pair of documents within each chain: {a,b,c} → ab, ac, bc.
pub fn pairs_of<S: AsRef<str>>(chains: &[Vec<S>]) -> BTreeSet<DocPair> {
    let mut out = BTreeSet::new();
    for c in chains {
        for (i, a) in c.iter().enumerate() {
            for b in &c[i + 1..] {
                let (a, b) = (a.as_ref(), b.as_ref());
                if a == b {
                    continue;
                }
                let p = if a < b { (a, b) } else { (b, a) };
                out.insert((p.0.to_string(), p.1.to_string()));
            }
        }
    }
    out
}

/// Chains as sets of document ids (order and repeats ignored).
pub fn doc_sets<S: AsRef<str>>(chains: &[Vec<S>]) -> BTreeSet<Vec<String>> {
    chains
        .iter()
        .map(|c| {
            c.iter()
                .map(|d| d.as_ref().to_string())
                .collect::<BTreeSet<_>>()
                .into_iter()
                .collect()
        })
        .collect()
}

/// A typed span in a document (code points, end exclusive).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct TypedSpan {
    pub doc: String,
    pub start: usize,
    pub end: usize,
    pub entity_type: String,
}

/// Mention scores of one type (or overall).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MentionScores {
    /// Same document, start, end and type.
    pub exact: Prf,
    /// Same document and type, overlapping spans.
    pub overlap: Prf,
    pub predicted: usize,
    pub gold: usize,
}

/// Mention scores overall and per type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MentionReport {
    pub overall: MentionScores,
    pub by_type: BTreeMap<String, MentionScores>,
}

type Groups<'a> = BTreeMap<(&'a str, &'a str), Vec<&'a TypedSpan>>;

/// (doc, type) → spans, for the overlap search.
fn group<'a>(set: &BTreeSet<&'a TypedSpan>) -> Groups<'a> {
    let mut m: Groups<'a> = BTreeMap::new();
    for s in set {
        m.entry((s.doc.as_str(), s.entity_type.as_str()))
            .or_default()
            .push(*s);
    }
    m
}

fn overlaps(a: &TypedSpan, b: &TypedSpan) -> bool {
    a.start < b.end && b.start < a.end
}

#[derive(Default)]
struct Tally {
    predicted: usize,
    gold: usize,
    exact: usize,
    matched_predicted: usize,
    matched_gold: usize,
}

impl Tally {
    fn scores(&self) -> MentionScores {
        MentionScores {
            exact: Prf::from_counts(
                self.exact,
                self.predicted - self.exact,
                self.gold - self.exact,
            ),
            overlap: Prf::from_matches(
                self.matched_predicted,
                self.predicted,
                self.matched_gold,
                self.gold,
            ),
            predicted: self.predicted,
            gold: self.gold,
        }
    }
}

/// Exact and overlap matching of predicted against gold spans (duplicates count once).
pub fn mention_scores(predicted: &[TypedSpan], gold: &[TypedSpan]) -> MentionReport {
    let p: BTreeSet<&TypedSpan> = predicted.iter().collect();
    let g: BTreeSet<&TypedSpan> = gold.iter().collect();
    let pg = group(&p);
    let gg = group(&g);
    let hit = |s: &TypedSpan, other: &Groups| {
        other
            .get(&(s.doc.as_str(), s.entity_type.as_str()))
            .is_some_and(|v| v.iter().any(|o| overlaps(s, o)))
    };
    let mut by_type: BTreeMap<String, Tally> = BTreeMap::new();
    for s in &p {
        let t = by_type.entry(s.entity_type.clone()).or_default();
        t.predicted += 1;
        if g.contains(s) {
            t.exact += 1;
        }
        if hit(s, &gg) {
            t.matched_predicted += 1;
        }
    }
    for s in &g {
        let t = by_type.entry(s.entity_type.clone()).or_default();
        t.gold += 1;
        if hit(s, &pg) {
            t.matched_gold += 1;
        }
    }
    let mut all = Tally::default();
    for t in by_type.values() {
        all.predicted += t.predicted;
        all.gold += t.gold;
        all.exact += t.exact;
        all.matched_predicted += t.matched_predicted;
        all.matched_gold += t.matched_gold;
    }
    MentionReport {
        overall: all.scores(),
        by_type: by_type.into_iter().map(|(k, t)| (k, t.scores())).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    fn chains(list: &[&[&str]]) -> Vec<Vec<String>> {
        list.iter()
            .map(|c| c.iter().map(|s| s.to_string()).collect())
            .collect()
    }

    #[test]
    fn prf_arithmetic() {
        let p = Prf::from_counts(3, 1, 2);
        assert!(close(p.precision, 0.75));
        assert!(close(p.recall, 0.6));
        assert!(close(p.f1, 2.0 * 0.75 * 0.6 / 1.35));
        assert!(p.undefined.is_empty());
        let z = Prf::from_counts(0, 0, 0);
        assert_eq!((z.precision, z.recall, z.f1), (0.0, 0.0, 0.0));
        assert_eq!(z.undefined, vec!["precision", "recall"]);
        let json = serde_json::to_value(&z).expect("json");
        assert_eq!(json["fn"], 0);
        assert!(json["precision"].is_number());
        let none_found = Prf::from_counts(0, 0, 4);
        assert_eq!(none_found.undefined, vec!["precision"]);
        assert!(close(none_found.recall, 0.0));
    }

    #[test]
    fn pairs_and_exact_sets_hand_computed() {
        // Predicted chains {a,b,c} and {d,e}: pairs ab ac bc de.
        let predicted = chains(&[&["a", "b", "c"], &["e", "d"]]);
        // Gold chains {a,b}, {b,c}, {c,d}: pairs ab bc cd.
        let gold = chains(&[&["b", "a"], &["b", "c"], &["c", "d"]]);
        let pp = pairs_of(&predicted);
        assert_eq!(pp.len(), 4);
        assert!(pp.contains(&("d".to_string(), "e".to_string())));
        let pairs = Prf::of_sets(&pp, &pairs_of(&gold));
        // tp = ab, bc; fp = ac, de; fn = cd.
        assert_eq!((pairs.tp, pairs.fp, pairs.fn_), (2, 2, 1));
        assert!(close(pairs.precision, 0.5));
        assert!(close(pairs.recall, 2.0 / 3.0));
        assert!(close(pairs.f1, 4.0 / 7.0));
        // Exact: {a,b,c} and {d,e} vs {a,b}, {b,c}, {c,d}: nothing equal.
        let exact = Prf::of_sets(&doc_sets(&predicted), &doc_sets(&gold));
        assert_eq!((exact.tp, exact.fp, exact.fn_), (0, 2, 3));
        assert_eq!(exact.f1, 0.0);
        // Order inside a chain does not matter for exact sets.
        let exact = Prf::of_sets(
            &doc_sets(&chains(&[&["b", "a"], &["c", "d"]])),
            &doc_sets(&gold),
        );
        assert_eq!((exact.tp, exact.fp, exact.fn_), (2, 0, 1));
        assert!(close(exact.f1, 0.8));
    }

    fn span(doc: &str, start: usize, end: usize, t: &str) -> TypedSpan {
        TypedSpan {
            doc: doc.into(),
            start,
            end,
            entity_type: t.into(),
        }
    }

    #[test]
    fn overlap_vs_exact_mention_matching() {
        let gold = vec![
            span("a", 0, 10, "NAME"),
            span("a", 20, 25, "AGE"),
            span("a", 30, 40, "NAME"),
            span("b", 0, 5, "NAME"),
        ];
        let predicted = vec![
            span("a", 0, 10, "NAME"), // exact
            span("a", 18, 22, "AGE"), // overlap only
            span("a", 30, 40, "AGE"), // right span, wrong type
            span("b", 6, 9, "NAME"),  // touches nothing (end exclusive 5)
            span("a", 0, 10, "NAME"), // duplicate: counted once
            span("a", 2, 4, "NAME"),  // inside the first gold span
        ];
        let r = mention_scores(&predicted, &gold);
        let o = &r.overall;
        assert_eq!((o.predicted, o.gold), (5, 4));
        // Exact: tp 1 (a 0-10 NAME); fp 4; fn 3.
        assert_eq!((o.exact.tp, o.exact.fp, o.exact.fn_), (1, 4, 3));
        assert!(close(o.exact.precision, 0.2));
        assert!(close(o.exact.recall, 0.25));
        // Overlap: predicted matched = a0-10, a18-22, a2-4 → 3/5; gold matched =
        // a0-10 NAME, a20-25 AGE → 2/4.
        assert!(close(o.overlap.precision, 0.6));
        assert!(close(o.overlap.recall, 0.5));
        assert_eq!((o.overlap.tp, o.overlap.fp, o.overlap.fn_), (2, 2, 2));
        assert!(close(o.overlap.f1, 2.0 * 0.6 * 0.5 / 1.1));
        let age = &r.by_type["AGE"];
        assert_eq!((age.predicted, age.gold), (2, 1));
        assert!(close(age.exact.precision, 0.0) && close(age.exact.recall, 0.0));
        assert!(close(age.overlap.precision, 0.5) && close(age.overlap.recall, 1.0));
        let name = &r.by_type["NAME"];
        assert!(close(name.exact.precision, 1.0 / 3.0));
        assert!(close(name.overlap.recall, 1.0 / 3.0));
    }

    #[test]
    fn empty_sides_are_zero_not_nan() {
        let r = mention_scores(&[], &[span("a", 0, 1, "AGE")]);
        assert_eq!(r.overall.exact.undefined, vec!["precision"]);
        assert_eq!(r.overall.overlap.recall, 0.0);
        let json = serde_json::to_string(&r).expect("json");
        assert!(!json.contains("NaN") && !json.contains("null"));
    }
}
