//! The gazetteers: the lists shipped in `data/gazetteers/` and the `[extract]` terms of
//! the configuration, compiled into one automaton per extractor (a resource every
//! recognizer can read through the [`Context`]), and the recognizer that finds their
//! terms in a text, skipping negated conditions.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{find_words, fold_term, window_start};
use crate::config::ExtractConfig;

const CONDITIONS: &str = include_str!("../../../data/gazetteers/conditions.txt");
const TREATMENTS: &str = include_str!("../../../data/gazetteers/treatments.txt");
const TREATMENTS_COMMON: &str = include_str!("../../../data/gazetteers/treatments_common.txt");
const OCCUPATIONS: &str = include_str!("../../../data/gazetteers/occupations.txt");
const DEMOGRAPHICS: &str = include_str!("../../../data/gazetteers/demographics.txt");
const PLACES: &str = include_str!("../../../data/gazetteers/places.txt");

const CONDITION_TERM: RelevanceRow = RelevanceRow {
    matches: "`conditions.txt` (skipped after \"no\", \"denies\", \"negative for\", \"without\" ... within five words, or before \"was ruled out\")",
    entity_type: "MEDICAL_CONDITION",
    relevance: Relevance::Fixed(0.95),
};
const TREATMENT_TERM: RelevanceRow = RelevanceRow {
    matches: "`treatments.txt` (a named drug or procedure is a strong linking value)",
    entity_type: "TREATMENT",
    relevance: Relevance::Fixed(1.0),
};
const COMMON_TREATMENT_TERM: RelevanceRow = RelevanceRow {
    matches: "`treatments_common.txt` (physical therapy, dialysis: many patients get them)",
    entity_type: "TREATMENT",
    relevance: Relevance::Fixed(0.7),
};
const OCCUPATION_TERM: RelevanceRow = RelevanceRow {
    matches: "`occupations.txt` (a leading \"retired\"/\"former\" is kept)",
    entity_type: "INDIRECT_IDENTIFIER",
    relevance: Relevance::Fixed(0.8),
};
const DEMOGRAPHIC_TERM: RelevanceRow = RelevanceRow {
    matches: "`demographics.txt`",
    entity_type: "DEMOGRAPHIC",
    relevance: Relevance::Fixed(0.6),
};
const PLACE_TERM: RelevanceRow = RelevanceRow {
    matches: "`places.txt`",
    entity_type: "LOCATION",
    relevance: Relevance::Fixed(0.6),
};

/// Gazetteers in priority order (a term listed twice keeps its first type).
const GAZETTEERS: &[(&str, RelevanceRow)] = &[
    (CONDITIONS, CONDITION_TERM),
    (TREATMENTS, TREATMENT_TERM),
    (TREATMENTS_COMMON, COMMON_TREATMENT_TERM),
    (OCCUPATIONS, OCCUPATION_TERM),
    (DEMOGRAPHICS, DEMOGRAPHIC_TERM),
    (PLACES, PLACE_TERM),
];

const ROWS: &[RelevanceRow] = &[
    CONDITION_TERM,
    TREATMENT_TERM,
    COMMON_TREATMENT_TERM,
    OCCUPATION_TERM,
    DEMOGRAPHIC_TERM,
    PLACE_TERM,
];

/// Relevance of a configured term whose type has no shipped list.
const CONFIGURED_RELEVANCE: f64 = 0.9;
/// Relevance of a value of the configured deny list.
const DENY_RELEVANCE: f64 = 1.0;

/// The automaton of every gazetteer term of one extractor.
pub(super) struct Gazetteer {
    automaton: AhoCorasick,
    /// Every folded term, for exact lookups.
    terms: BTreeSet<String>,
    /// Per pattern: (entity type, relevance, from the deny list).
    kinds: Vec<(&'static str, f64, bool)>,
}

/// The built-in type name for a configured one (config validation allows only these).
fn static_type(name: &str) -> Option<&'static str> {
    crate::schema::DEFAULT_TYPES
        .iter()
        .map(|(n, ..)| *n)
        .find(|n| *n == name)
}

impl Gazetteer {
    /// The deny list first (relevance 1.0), so that its entries win a tie; then the
    /// shipped lists; then the configured terms (relevance of the type's shipped list,
    /// 0.9 for other types). A term keeps its first type.
    pub(super) fn build(extra: &ExtractConfig) -> Result<Self, aho_corasick::BuildError> {
        let mut seen = BTreeSet::new();
        let mut terms = Vec::new();
        let mut kinds = Vec::new();
        let mut add = |entry: &str, kind: (&'static str, f64, bool)| {
            let term = fold_term(entry.trim());
            if !term.is_empty() && seen.insert(term.clone()) {
                terms.push(term);
                kinds.push(kind);
            }
        };
        for (ty, values) in &extra.deny {
            if let Some(ty) = static_type(ty) {
                for v in values {
                    add(v, (ty, DENY_RELEVANCE, true));
                }
            }
        }
        for (list, row) in GAZETTEERS {
            let Some(relevance) = row.relevance.fixed() else {
                continue;
            };
            for line in list.lines() {
                let entry = line.split('#').next().unwrap_or("").trim();
                if !entry.is_empty() {
                    add(entry, (row.entity_type, relevance, false));
                }
            }
        }
        for (ty, values) in &extra.gazetteer_terms {
            let Some(ty) = static_type(ty) else {
                continue;
            };
            let relevance = GAZETTEERS
                .iter()
                .find(|(_, row)| row.entity_type == ty)
                .and_then(|(_, row)| row.relevance.fixed())
                .unwrap_or(CONFIGURED_RELEVANCE);
            for v in values {
                add(v, (ty, relevance, false));
            }
        }
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&terms)?;
        Ok(Gazetteer {
            automaton,
            terms: seen,
            kinds,
        })
    }

    /// Whether `folded` (folded as [`fold_term`] folds) is a term of some list.
    pub(super) fn lists(&self, folded: &str) -> bool {
        self.terms.contains(folded)
    }
}

/// The negation cues of conditions and the prefixes kept before occupations.
struct Patterns {
    negation: Regex,
    negation_after: Regex,
    occupation_prefix: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    Ok(Patterns {
        negation: Regex::new(
            r"(?i)(?-u:\b)(?:no|not|denies|denied|deny|negative for|ruled out|rules out|rule out|without|free of|absence of|never had)(?-u:\b)",
        )?,
        negation_after: Regex::new(
            r"(?i)^[\s,]*(?:(?:which|that)\s+)?(?:(?:was|were|is|has been|had been|been)\s+)?(?:ruled out|excluded)(?-u:\b)",
        )?,
        occupation_prefix: Regex::new(r"(?i)(?-u:\b)(?:retired|former|semi-retired|ex-)[ \t]*$")?,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// Terms of the gazetteers (the extractor's [`Gazetteer`]), the deny list's first.
pub(super) struct GazetteerTerms {
    patterns: &'static Patterns,
}

impl GazetteerTerms {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(GazetteerTerms {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for GazetteerTerms {
    fn name(&self) -> &'static str {
        "gazetteer"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        ROWS
    }

    /// The shipped lists' types, and any built-in type the deny list or the configured
    /// terms name.
    fn entity_types(&self) -> Vec<&'static str> {
        crate::schema::DEFAULT_TYPES
            .iter()
            .map(|(n, ..)| *n)
            .collect()
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let Some(g) = ctx.gazetteer else {
            return;
        };
        let (text, p) = (ctx.text, self.patterns);
        for (mut start, end, pattern) in find_words(&g.automaton, ctx.folded, text) {
            let Some(&(ty, relevance, denied)) = g.kinds.get(pattern) else {
                continue;
            };
            if denied {
                ctx.push_typed(cands, (start, end), ty, relevance, Tier::Deny);
                continue;
            }
            let original = &text[start..end];
            // Short abbreviations only in upper or lower case ("MS", "ms", not "Ms").
            let letters: Vec<char> = original.chars().filter(|c| c.is_alphabetic()).collect();
            if original.chars().count() <= 3
                && letters.len() > 1
                && letters[0].is_uppercase()
                && letters[1..].iter().any(|c| c.is_lowercase())
            {
                continue;
            }
            if ty == "MEDICAL_CONDITION"
                && negated(&p.negation, &p.negation_after, text, start, end)
            {
                continue;
            }
            if ty == "INDIRECT_IDENTIFIER" {
                let from = window_start(text, start, 16, 0);
                if let Some(m) = p.occupation_prefix.find(&text[from..start]) {
                    start = from + m.start();
                }
            }
            ctx.push_typed(cands, (start, end), ty, relevance, Tier::Gazetteer);
        }
    }
}

/// A negation cue within the five words before `start`, in the same clause.
/// Also a cue right after the term ("stroke, which was ruled out").
fn negated(re: &Regex, after: &Regex, text: &str, start: usize, end: usize) -> bool {
    let rest: String = text[end..].chars().take(40).collect();
    if after.is_match(&rest) {
        return true;
    }
    let from = window_start(text, start, 60, 0);
    let before = &text[from..start];
    let clause_start = before
        .rfind(['.', ';', ':', '!', '?', '\n'])
        .map_or(0, |i| i + 1);
    let clause = &before[clause_start..];
    let words: Vec<&str> = clause.split_whitespace().collect();
    let tail = words[words.len().saturating_sub(5)..].join(" ");
    re.is_match(&tail)
}

#[cfg(test)]
mod tests {
    use super::super::tests::{char_slice, has, run};

    #[test]
    fn gazetteer_types() {
        let items = run(
            "Diagnosis: cystic fibrosis. Started lamotrigine. She is a retired teacher \
             and Deaf. Moved to Chicago.",
        );
        assert!(
            has(&items, "MEDICAL_CONDITION", "cystic fibrosis"),
            "{items:?}"
        );
        assert!(has(&items, "TREATMENT", "lamotrigine"));
        assert!(has(&items, "INDIRECT_IDENTIFIER", "retired teacher"));
        assert!(has(&items, "DEMOGRAPHIC", "Deaf"));
        assert!(has(&items, "LOCATION", "Chicago"));
    }

    #[test]
    fn negated_conditions_are_skipped() {
        let items = run(
            "Patient denies asthma. No evidence of cystic fibrosis. History of epilepsy. \
             Suspected stroke, which was ruled out.",
        );
        assert!(!has(&items, "MEDICAL_CONDITION", "asthma"), "{items:?}");
        assert!(!has(&items, "MEDICAL_CONDITION", "cystic fibrosis"));
        assert!(has(&items, "MEDICAL_CONDITION", "epilepsy"));
        assert!(!has(&items, "MEDICAL_CONDITION", "stroke"));
    }

    #[test]
    fn gazetteer_offsets_survive_case_folding() {
        // 'İ' lowercases to two chars; typographic dash and no-break space fold.
        let text = "İİ note: Erdheim–Chester disease and cystic\u{A0}fibrosis.";
        let items = run(text);
        for i in &items {
            for s in &i.spans {
                assert_eq!(char_slice(text, *s), i.original);
            }
        }
        assert!(
            has(&items, "MEDICAL_CONDITION", "cystic\u{A0}fibrosis"),
            "{items:?}"
        );
    }
}
