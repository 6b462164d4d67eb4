//! The gazetteers: the hand-written lists in `data/gazetteers/` and the `[extract]`
//! terms of the configuration, compiled into one automaton per extractor (a resource
//! every recognizer can read through the [`Context`]); the public vocabularies in
//! `data/vocab/` (ICD-10-CM conditions and symptoms, a drug dictionary, GeoNames
//! places; built by `scripts/build_vocab.py`, sources and licences in
//! `data/README.md`), a sorted table read once per process ([`super::terms`]: no
//! automaton to build for 95,000 terms); and the recognizer that finds their terms in a
//! text, skipping negated conditions. Where terms of both overlap the longer wins, and
//! the same term keeps the first list's type and relevance: the hand-written lists and
//! the configuration come first, then the vocabularies in the order of the table.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, MatchKind};
use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use rustc_hash::FxHashSet;

use super::terms::Terms;
use super::text::{Folded, find_words, fold_term, window_start};
use crate::config::ExtractConfig;

const CONDITIONS: &str = include_str!("../../../data/gazetteers/conditions.txt");
const TREATMENTS: &str = include_str!("../../../data/gazetteers/treatments.txt");
const TREATMENTS_COMMON: &str = include_str!("../../../data/gazetteers/treatments_common.txt");
const OCCUPATIONS: &str = include_str!("../../../data/gazetteers/occupations.txt");
const DEMOGRAPHICS: &str = include_str!("../../../data/gazetteers/demographics.txt");
const PLACES: &str = include_str!("../../../data/gazetteers/places.txt");
const ICD_CONDITIONS: &str = include_str!("../../../data/vocab/conditions.txt");
const ICD_SYMPTOMS: &str = include_str!("../../../data/vocab/symptoms.txt");
const DRUGS: &str = include_str!("../../../data/vocab/treatments.txt");
const GEONAMES: &str = include_str!("../../../data/vocab/places.txt");

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
    matches: "`treatments_common.txt` (physiotherapy, dialysis: many patients get them)",
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

const ICD_CONDITION_TERM: RelevanceRow = RelevanceRow {
    matches: "`vocab/conditions.txt` (ICD-10-CM titles and inclusion terms; negated ones skipped as above)",
    entity_type: "MEDICAL_CONDITION",
    relevance: Relevance::Fixed(0.9),
};
const SYMPTOM_TERM: RelevanceRow = RelevanceRow {
    matches: "`vocab/symptoms.txt` (ICD-10-CM signs and symptoms, weaker than a diagnosis; negated ones skipped)",
    entity_type: "MEDICAL_CONDITION",
    relevance: Relevance::Fixed(0.6),
};
const DRUG_TERM: RelevanceRow = RelevanceRow {
    matches: "`vocab/treatments.txt` (drug generic and brand names)",
    entity_type: "TREATMENT",
    relevance: Relevance::Fixed(0.95),
};
const GEONAMES_TERM: RelevanceRow = RelevanceRow {
    matches: "`vocab/places.txt` (GeoNames: cities of 15,000 and more, countries, US states and counties), written with a capital",
    entity_type: "LOCATION",
    relevance: Relevance::Fixed(0.6),
};

/// The public vocabularies in priority order, each with its row, whether a match must
/// begin with a capital letter (a place name in lower case is a word: "tui") and
/// whether its US spellings also stand in British spelling ("labor" → "labour").
/// One public vocabulary of `data/vocab/`.
struct Vocabulary {
    /// The file's text, one term per line.
    text: &'static str,
    /// Its row of the relevance table.
    row: RelevanceRow,
    /// A term counts only where it is written with a capital (places).
    capitalised: bool,
    /// British spellings are derived for its terms ("anaemia" for "anemia").
    british: bool,
}

const VOCABULARIES: &[Vocabulary] = &[
    Vocabulary {
        text: ICD_CONDITIONS,
        row: ICD_CONDITION_TERM,
        capitalised: false,
        british: true,
    },
    Vocabulary {
        text: ICD_SYMPTOMS,
        row: SYMPTOM_TERM,
        capitalised: false,
        british: true,
    },
    Vocabulary {
        text: DRUGS,
        row: DRUG_TERM,
        capitalised: false,
        british: false,
    },
    Vocabulary {
        text: GEONAMES,
        row: GEONAMES_TERM,
        capitalised: true,
        british: false,
    },
];

/// The vocabularies' terms, read at first use.
static VOCABULARY_TERMS: LazyLock<Terms> = LazyLock::new(|| {
    let lists: Vec<(&'static str, bool)> =
        VOCABULARIES.iter().map(|v| (v.text, v.british)).collect();
    Terms::build(&lists)
});

/// Reads the vocabularies' terms now rather than at their first use.
pub(super) fn load_vocabularies() {
    let _ = &*VOCABULARY_TERMS;
}

const ROWS: &[RelevanceRow] = &[
    CONDITION_TERM,
    TREATMENT_TERM,
    COMMON_TREATMENT_TERM,
    OCCUPATION_TERM,
    DEMOGRAPHIC_TERM,
    PLACE_TERM,
    ICD_CONDITION_TERM,
    SYMPTOM_TERM,
    DRUG_TERM,
    GEONAMES_TERM,
];

/// Relevance of a configured term whose type has no shipped list.
const CONFIGURED_RELEVANCE: f64 = 0.9;
/// Relevance of a value of the configured deny list.
const DENY_RELEVANCE: f64 = 1.0;

/// The automaton of every gazetteer term of one extractor.
pub(super) struct Gazetteer {
    automaton: AhoCorasick,
    /// Every folded term, for exact lookups (hashed: the clinical phrases look up
    /// every tail of every phrase).
    terms: FxHashSet<String>,
    /// Per pattern: (entity type, relevance, from the deny list).
    kinds: Vec<(&'static str, f64, bool)>,
}

/// The type name of a configured list as the extractor holds it: a built-in type, or
/// a type the configuration's schema declares (`[schema.SHOE_SIZE]`; configuration
/// validation checks that it does), interned.
fn static_type(name: &str) -> Option<&'static str> {
    let name = name.trim();
    if name.is_empty() {
        return None;
    }
    crate::schema::DEFAULT_TYPES
        .iter()
        .map(|(n, ..)| *n)
        .find(|n| *n == name)
        .or_else(|| Some(intern_type(name)))
}

/// Type names declared by configurations, each stored once for the life of the
/// process (a handful: the extractor's candidates carry `&'static str` types).
static DECLARED_TYPES: std::sync::Mutex<BTreeSet<&'static str>> =
    std::sync::Mutex::new(BTreeSet::new());

fn intern_type(name: &str) -> &'static str {
    let mut declared = match DECLARED_TYPES.lock() {
        Ok(d) => d,
        Err(poisoned) => poisoned.into_inner(),
    };
    if let Some(t) = declared.get(name) {
        return t;
    }
    let t: &'static str = Box::leak(name.to_string().into_boxed_str());
    declared.insert(t);
    t
}

/// The declared (non-built-in) types interned so far.
fn declared_types() -> Vec<&'static str> {
    match DECLARED_TYPES.lock() {
        Ok(d) => d.iter().copied().collect(),
        Err(poisoned) => poisoned.into_inner().iter().copied().collect(),
    }
}

impl Gazetteer {
    /// The deny list first (relevance 1.0), so that its entries win a tie; then the
    /// shipped lists; then the configured terms (relevance of the type's shipped list,
    /// 0.9 for other types, such as one the schema declares). A term keeps its first
    /// type.
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
            terms: seen.into_iter().collect(),
            kinds,
        })
    }

    /// Whether `folded` (folded as [`fold_term`] folds) is a term of some list or
    /// vocabulary.
    pub(super) fn lists(&self, folded: &str) -> bool {
        self.terms.contains(folded) || VOCABULARY_TERMS.get(folded).is_some()
    }

    /// Whole-word matches of the lists and the vocabularies in `text`: (start, end,
    /// type, relevance, from the deny list, must be capitalised), leftmost-longest
    /// over both, the lists first where spans are equal.
    fn matches(&self, folded: &Folded, text: &str) -> Vec<Match> {
        let mut all: Vec<Match> = find_words(&self.automaton, folded, text)
            .into_iter()
            .filter_map(|(start, end, pattern)| {
                let &(ty, relevance, denied) = self.kinds.get(pattern)?;
                Some(Match {
                    start,
                    end,
                    ty,
                    relevance,
                    denied,
                    capitalised: false,
                })
            })
            .collect();
        for (start, end, list) in VOCABULARY_TERMS.find(folded, text) {
            let Some(Vocabulary {
                row, capitalised, ..
            }) = VOCABULARIES.get(usize::from(list))
            else {
                continue;
            };
            let Some(relevance) = row.relevance.fixed() else {
                continue;
            };
            all.push(Match {
                start,
                end,
                ty: row.entity_type,
                relevance,
                denied: false,
                capitalised: *capitalised,
            });
        }
        // Stable: among equal spans the lists' match (pushed first) stays first.
        all.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
        // The deny list's matches all stay (they win every overlap later, by tier).
        let (mut kept, rest): (Vec<Match>, Vec<Match>) = all.into_iter().partition(|m| m.denied);
        let mut last_end = 0;
        for m in rest {
            if m.start >= last_end {
                last_end = m.end;
                // A combination product is one treatment: "elexacaftor/tezacaftor/ivacaftor".
                if let Some(prev) = kept.last_mut()
                    && !prev.denied
                    && prev.ty == "TREATMENT"
                    && m.ty == "TREATMENT"
                    && text[prev.end..m.start].trim() == "/"
                {
                    prev.end = m.end;
                    prev.relevance = prev.relevance.max(m.relevance);
                    continue;
                }
                kept.push(m);
            }
        }
        kept
    }
}

/// One gazetteer match, in original byte offsets.
struct Match {
    start: usize,
    end: usize,
    ty: &'static str,
    relevance: f64,
    /// From the deny list: wins every overlap.
    denied: bool,
    /// Counts only when written with a capital.
    capitalised: bool,
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

    /// The shipped lists' types, any built-in type the deny list or the configured
    /// terms name, and the types a configuration's schema declared for them.
    fn entity_types(&self) -> Vec<&'static str> {
        crate::schema::DEFAULT_TYPES
            .iter()
            .map(|(n, ..)| *n)
            .chain(declared_types())
            .collect()
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let Some(g) = ctx.gazetteer else {
            return;
        };
        let (text, p) = (ctx.text, self.patterns);
        for m in g.matches(ctx.folded, text) {
            let (mut start, end, ty, relevance) = (m.start, m.end, m.ty, m.relevance);
            if m.denied {
                ctx.push_typed(cands, (start, end), ty, relevance, Tier::Deny);
                continue;
            }
            let original = &text[start..end];
            // A place is written with a capital; a short word in capitals is an
            // acronym ("SIM"), not a place.
            if m.capitalised
                && (!original.starts_with(char::is_uppercase)
                    || original.chars().count() <= 4 && original.chars().all(|c| !c.is_lowercase()))
            {
                continue;
            }
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
                start = occupation_compound_start(text, start);
                let from = window_start(text, start, 16, 0);
                if let Some(m) = p.occupation_prefix.find(&text[from..start]) {
                    start = from + m.start();
                }
            }
            ctx.push_typed(cands, (start, end), ty, relevance, Tier::Gazetteer);
        }
    }
}

/// Words that say how good or how long, not which occupation ("a dedicated teacher").
const NOT_OCCUPATIONAL: &[&str] = &[
    "beloved",
    "dedicated",
    "experienced",
    "favorite",
    "favourite",
    "wonderful",
    "great",
    "good",
    "old",
    "local",
    "young",
    "longtime",
    "long-time",
    "amazing",
    "popular",
    "respected",
    "trusted",
    "busy",
    "full-time",
    "part-time",
    "sole",
    "only",
    "best",
    "first",
    "last",
    "main",
];

/// The start of an occupation with the nouns that make it specific: "school bus
/// driver", "kindergarten teacher" for a listed "bus driver", "teacher". At most two
/// lowercase words on the same line, none a function word, verb form or evaluation.
fn occupation_compound_start(text: &str, start: usize) -> usize {
    let mut at = start;
    for _ in 0..2 {
        let before = &text[..at];
        let Some(gap_start) = before.strip_suffix(' ').map(str::len) else {
            break;
        };
        let word_start = before[..gap_start]
            .rfind(|c: char| !(c.is_alphabetic() || c == '-'))
            .map_or(0, |i| {
                i + before[i..].chars().next().map_or(1, char::len_utf8)
            });
        let word = &before[word_start..gap_start];
        // A whole word: not the tail of "52-year-old" or of a number.
        let glued = before[..word_start]
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() || c == '-');
        if glued
            || word.starts_with('-')
            || word.chars().count() < 3
            || !word.chars().all(|c| c.is_lowercase() || c == '-')
            || super::clinical::generic_modifier(word)
            || NOT_OCCUPATIONAL.contains(&word)
        {
            break;
        }
        at = word_start;
    }
    at
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
            "Diagnosis: scleroderma. Started glatiramer acetate. She is a retired teacher \
             and Hispanic. Moved to Chicago.",
        );
        assert!(has(&items, "MEDICAL_CONDITION", "scleroderma"), "{items:?}");
        assert!(has(&items, "TREATMENT", "glatiramer acetate"));
        assert!(has(&items, "INDIRECT_IDENTIFIER", "retired teacher"));
        assert!(has(&items, "DEMOGRAPHIC", "Hispanic"));
        assert!(has(&items, "LOCATION", "Chicago"));
    }

    /// Terms only the public vocabularies hold (ICD-10-CM, the drug dictionary,
    /// GeoNames); a place in lower case is a word.
    #[test]
    fn vocabulary_terms() {
        let items = run(
            "Mantle cell lymphoma, treated with abciximab; acalculia noted. Moved from \
             Rotterdam to the tui exhibit.",
        );
        assert!(
            has(&items, "MEDICAL_CONDITION", "Mantle cell lymphoma"),
            "{items:?}"
        );
        assert!(has(&items, "TREATMENT", "abciximab"));
        assert!(has(&items, "MEDICAL_CONDITION", "acalculia"));
        assert!(has(&items, "LOCATION", "Rotterdam"));
        assert!(!items.iter().any(|i| i.original == "tui"), "{items:?}");
        let negated = run("No mantle cell lymphoma was found.");
        assert!(!has(&negated, "MEDICAL_CONDITION", "mantle cell lymphoma"));
    }

    /// Classes of writing the lists alone would miss: an occupation made specific by
    /// the nouns before it, a combination product, a British spelling, an acronym
    /// that is also a town.
    #[test]
    fn compounds_combinations_and_acronyms() {
        let items = run(
            "A 52-year-old kindergarten teacher, our dedicated teacher and a school bus \
             driver. Started elexacaftor/tezacaftor/ivacaftor. Preterm labour. New SIM card.",
        );
        assert!(
            has(&items, "INDIRECT_IDENTIFIER", "kindergarten teacher"),
            "{items:?}"
        );
        assert!(has(&items, "INDIRECT_IDENTIFIER", "teacher"));
        assert!(has(&items, "INDIRECT_IDENTIFIER", "school bus driver"));
        assert!(has(&items, "TREATMENT", "elexacaftor/tezacaftor/ivacaftor"));
        assert!(has(&items, "MEDICAL_CONDITION", "Preterm labour"));
        assert!(!items.iter().any(|i| i.original == "SIM"), "{items:?}");
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
