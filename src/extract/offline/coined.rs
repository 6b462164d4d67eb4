//! Coined product, trial and device names (SPEC §7, issue 14): "Zelvatrin-4",
//! "ORX-311", "BRIDGE-12". No vocabulary can hold them — they are made up for each
//! product and study — so they are recognised by their form, with the English word
//! list (`data/names/words.tsv`) telling coined stems from ordinary words.
//!
//! The forms, their types and relevances are the `coined` rows of the relevance
//! table in [`super`].
//!
//! Codes that name a classification, a gene, a protein or a virus (`ICD-10`,
//! `COVID-19`, `IL-17`, `CD-20`, `TP-53`) are public knowledge, not identifiers: their
//! letter part is in [`PUBLIC_CODES`]. Longer ids (four digits and up, with context
//! words) are the id recognizer's and win overlaps.

use std::sync::LazyLock;

use regex::Regex;

use super::person::{is_english_word, is_name_word};
use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};

/// Letter parts of public codes: classifications, genes, proteins, viruses, units.
const PUBLIC_CODES: &[&str] = &[
    "icd", "cpt", "drg", "hcpcs", "ndc", "dsm", "loinc", "snomed", "covid", "sars", "mers", "hiv",
    "hpv", "hcv", "hbv", "cd", "il", "hla", "her", "brca", "tp", "tnf", "cox", "glp", "sglt",
    "ace", "pd", "ctla", "igf", "hif", "jak", "vegf", "egfr", "alk", "fev", "spf", "uv", "iso",
    "iec", "pm", "mp", "usb", "tv", "fm", "am", "ps", "xr", "hba", "mmr", "dtap", "bcg", "ipv",
    "opv", "apoe", "fy", "cy", "ww", "q", "ft", "no", "nr", "vs", "rs", "en", "din", "astm",
    "ansi", "ieee", "rfc", "nist", "pci", "hipaa", "gdpr", "ssa", "irs", "w",
];

const PRODUCT: RelevanceRow = RelevanceRow {
    matches: "a capitalised coined word (no English word), a hyphen and a number (`Zelvatrin-4`, `Norvexa-12b`)",
    entity_type: "TREATMENT",
    relevance: Relevance::Fixed(0.85),
};
const CODE: RelevanceRow = RelevanceRow {
    matches: "two to six capitals (no English word, nor a public code such as `ICD`, `COVID`, `IL`), a hyphen and two to four digits (`ORX-311`); an English word (`BRIDGE-12`) within 40 characters of a study word (trial, study, protocol, cohort …)",
    entity_type: "NON_PERSONAL_ID",
    relevance: Relevance::Fixed(0.75),
};

const BRAND: RelevanceRow = RelevanceRow {
    matches: "a coined name in camel case, two or more capitalised parts of three letters or more, no English word nor a name (`LuxCare`, `SilverPath`): an insurer's network, plan or programme",
    entity_type: "PROVIDER",
    relevance: Relevance::Fixed(0.75),
};

/// Coined product, trial and device names. Longer ids with context words are the id
/// recognizer's (a lower tier wins overlaps).
pub(super) struct Coined;

impl Coined {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        PATTERNS.as_ref().map(|_| Coined)
    }
}

impl Recognizer for Coined {
    fn name(&self) -> &'static str {
        "coined"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[PRODUCT, CODE, BRAND]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        for c in find(ctx.text, is_english_word) {
            let tier = match c.row.entity_type {
                "TREATMENT" => Tier::Gazetteer,
                "PROVIDER" => Tier::Provider,
                _ => Tier::Id,
            };
            ctx.push(cands, (c.start, c.end), c.row, tier);
        }
    }
}

struct Patterns {
    product: Regex,
    code: Regex,
    study: Regex,
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(|| {
    Ok(Patterns {
        product: Regex::new(r"\b\p{Lu}\p{Ll}{3,}-\d{1,3}[a-zA-Z]?\b")?,
        code: Regex::new(r"\b(\p{Lu}{2,6})-(\d{2,4})[A-Z]?\b")?,
        study: Regex::new(
            r"(?i)\b(?:trials?|stud(?:y|ies)|protocols?|cohorts?|registry|phase|compound|investigational|candidate|enrolled|arm)\b",
        )?,
    })
});

/// One coined name: byte span and its row.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Found {
    start: usize,
    end: usize,
    row: &'static RelevanceRow,
}

/// Coined names of `text`.
fn find(text: &str, is_word: impl Fn(&str) -> bool) -> Vec<Found> {
    let Ok(p) = &*PATTERNS else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for m in p.product.find_iter(text) {
        let stem = m.as_str().split('-').next().unwrap_or("").to_lowercase();
        if is_word(&stem) || followed_by_hyphen_digit(text, m.end()) {
            continue;
        }
        out.push(Found {
            start: m.start(),
            end: m.end(),
            row: &PRODUCT,
        });
    }
    for c in p.code.captures_iter(text) {
        let (Some(m), Some(letters)) = (c.get(0), c.get(1)) else {
            continue;
        };
        let letters = letters.as_str().to_lowercase();
        if PUBLIC_CODES.contains(&letters.as_str()) || followed_by_hyphen_digit(text, m.end()) {
            continue;
        }
        let near = |from: usize, to: usize| text.get(from..to).is_some_and(|w| p.study.is_match(w));
        let before = floor_char(text, m.start().saturating_sub(40));
        let after = ceil_char(text, (m.end() + 40).min(text.len()));
        if is_word(&letters) && !near(before, m.start()) && !near(m.end(), after) {
            continue;
        }
        out.push(Found {
            start: m.start(),
            end: m.end(),
            row: &CODE,
        });
    }
    for (start, end) in camel_words(text) {
        if camel_brand(&text[start..end], &is_word) && !followed_by_hyphen_digit(text, end) {
            out.push(Found {
                start,
                end,
                row: &BRAND,
            });
        }
    }
    out.sort_by_key(|f| f.start);
    out
}

/// Byte spans of the words of `text` written in camel case: letters only, bounded by
/// no letter, digit or `_`, a capital first and a capital after a small letter inside
/// ("LuxCare"). A scan, not a pattern: it runs over every document.
fn camel_words(text: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some((start, c)) = it.next() {
        if !c.is_alphanumeric() && c != '_' {
            continue;
        }
        // One word: letters, digits and `_` up to the next other character.
        let (mut end, mut camel, mut letters_only) =
            (start + c.len_utf8(), false, c.is_alphabetic());
        let mut prev_lower = c.is_lowercase();
        while let Some(&(i, d)) = it.peek() {
            if !d.is_alphanumeric() && d != '_' {
                break;
            }
            camel |= prev_lower && d.is_uppercase();
            letters_only &= d.is_alphabetic();
            prev_lower = d.is_lowercase();
            end = i + d.len_utf8();
            it.next();
        }
        if camel && letters_only && c.is_uppercase() {
            out.push((start, end));
        }
    }
    out
}

/// Name prefixes written in camel case ("MacArthur", "VanDyke", "FitzGerald"): a
/// person's name, not a brand.
const NAME_PREFIXES: &[&str] = &[
    "mac", "van", "von", "der", "den", "del", "des", "fitz", "ten", "ter",
];

/// A camel-case coined name (`LuxCare`, `CoastalCare`): capitalised parts of three
/// letters or more, neither a name prefix first nor, folded whole, an English word
/// (`HealthCare`) or a name in the vocabularies (`McKenzie` has a part of two letters).
pub(crate) fn camel_brand(word: &str, is_word: impl Fn(&str) -> bool) -> bool {
    // Most words have no capital inside: no parts to build (clinical phrases ask of
    // every modifier).
    if !word.chars().skip(1).any(char::is_uppercase) {
        return false;
    }
    let mut parts: Vec<String> = Vec::new();
    for c in word.chars() {
        if !c.is_alphabetic() {
            return false;
        }
        match parts.last_mut() {
            Some(part) if !c.is_uppercase() => part.extend(c.to_lowercase()),
            _ => parts.push(c.to_lowercase().collect()),
        }
    }
    let folded = word.to_lowercase();
    parts.len() >= 2
        && parts.iter().all(|p| p.chars().count() >= 3)
        && !NAME_PREFIXES.contains(&parts[0].as_str())
        && !is_word(&folded)
        && !is_name_word(&folded)
}

/// "PR-1234-567": the match is the head of a longer id.
fn followed_by_hyphen_digit(text: &str, end: usize) -> bool {
    let rest = &text[end..];
    rest.starts_with('-') && rest[1..].starts_with(|c: char| c.is_ascii_alphanumeric())
}

// `str::floor_char_boundary` / `ceil_char_boundary` need Rust 1.91; the MSRV is 1.88.
fn floor_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(text: &str, mut i: usize) -> usize {
    while !text.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(&str, &'static str)> {
        let words = ["bridge", "march", "version", "table", "phase"];
        find(text, |w| words.contains(&w))
            .into_iter()
            .map(|c| (&text[c.start..c.end], c.row.entity_type))
            .collect()
    }

    #[test]
    fn coined_products_and_codes_are_found() {
        assert!(Coined::new().is_ok());
        assert_eq!(
            found("She started Zelvatrin-4 in May."),
            [("Zelvatrin-4", "TREATMENT")]
        );
        assert_eq!(
            found("Enrolled under ORX-311 last year."),
            [("ORX-311", "NON_PERSONAL_ID")]
        );
        assert_eq!(
            found("Site 4 of the BRIDGE-12 trial."),
            [("BRIDGE-12", "NON_PERSONAL_ID")]
        );
    }

    #[test]
    fn camel_case_brands_are_providers_but_not_words_or_names() {
        let brand = |w: &str| camel_brand(w, super::super::person::is_english_word);
        for w in ["BrightHarbor", "LumaCare", "SilverPath", "NorthGate"] {
            assert!(brand(w), "{w}");
        }
        for w in [
            "HealthCare",
            "McKenzie",
            "MacArthur",
            "LinkedIn",
            "PharmD",
            "DeShawn",
            "VanDyke",
            "Lumacare",
        ] {
            assert!(!brand(w), "{w}");
        }
        let items = super::super::tests::run(
            "Claims via the LumaCare vision therapy program; LumaCare's review.",
        );
        let brands: Vec<&str> = items
            .iter()
            .filter(|i| i.entity_type == "PROVIDER")
            .map(|i| i.original.as_str())
            .collect();
        assert_eq!(brands, ["LumaCare"], "{items:?}");
        assert!(super::super::tests::has(
            &items,
            "TREATMENT",
            "vision therapy"
        ));
    }

    #[test]
    fn words_public_codes_and_longer_ids_are_not() {
        for text in [
            "See Table-12 and Version-2 of the form.",
            "Coded as ICD-10 and COVID-19 since 2020; IL-17 was low.",
            "The BRIDGE-12 was closed for repairs.",
            "Claim PR-1234-567 was paid.",
        ] {
            assert!(found(text).is_empty(), "{text}: {:?}", found(text));
        }
    }
}
