//! The context pass (the offline counterpart of the thesis's context-aware extraction,
//! §4.2.2): a value the recognizers typed in one document is looked for in every other
//! document, so that "Rex Marin" found after "patient" in a claim is also found in the
//! survey that says "Rex Marin's positive experience" with no context word at all.
//!
//! Only the value itself is carried over, whole-word and case-insensitively, never a
//! guess: a partial name is not resolved across documents (SPEC §2), so names carry
//! over only as full names, and proper-noun types only where the occurrence is
//! capitalised as written. Values that are too short or too common to identify anyone
//! (ages, dates, demographics, bare numbers) stay where their recognizer found them.
//! A carried value gets the highest relevance its recognizers gave it anywhere: the
//! value is the same identifier wherever it occurs.

use std::collections::{BTreeMap, BTreeSet};

use rayon::prelude::*;

use crate::corpus::Document;
use crate::entity::spans::{FoldedText, WordMatcher, fold};
use crate::entity::{ExtractedItem, Span};

mod echo;

use echo::echoes;

/// Types whose values are carried to other documents.
const CARRIED: &[&str] = &[
    "NAME",
    "PATIENT_ID",
    "NON_PERSONAL_ID",
    "EMAIL",
    "PHONE_NUMBER",
    "ADDRESS",
    "PROVIDER",
    "LOCATION",
    "EVENT",
    "UNIQUE_FACT",
    "INDIRECT_IDENTIFIER",
    "MEDICAL_CONDITION",
    "TREATMENT",
];

/// Proper-noun types: an occurrence must start with a capital letter (or digit) as
/// written, so "Mercy" the hospital does not match "mercy" the word.
const PROPER: &[&str] = &["NAME", "PROVIDER", "LOCATION", "EVENT"];

/// A value in more than this share of the documents identifies nobody; it is not
/// carried (its own occurrences stay).
const MAX_SHARE: f64 = 0.5;

fn carried_value_ok(ty: &str, original: &str) -> bool {
    let letters = original.chars().filter(|c| c.is_alphabetic()).count();
    let digits = original.chars().filter(|c| c.is_ascii_digit()).count();
    match ty {
        "NAME" => original.split_whitespace().count() >= 2 && letters >= 5,
        "PATIENT_ID" | "NON_PERSONAL_ID" | "PHONE_NUMBER" => letters + digits >= 5,
        _ => letters >= 4,
    }
}

/// Types that one value may be given by different recognizers in different documents
/// ("PT-8872-3A" after "patient ID" in a claim, bare in an audit); the first listed
/// wins ties.
const TYPE_GROUPS: &[&[&str]] = &[
    &["PATIENT_ID", "NON_PERSONAL_ID"],
    &["PROVIDER", "LOCATION"],
];

fn group_key(ty: &str, original: &str) -> Option<(usize, String)> {
    let g = TYPE_GROUPS.iter().position(|g| g.contains(&ty))?;
    let key = if g == 0 {
        original
            .chars()
            .filter(|c| c.is_alphanumeric())
            .flat_map(char::to_uppercase)
            .collect()
    } else {
        fold(original.trim())
    };
    Some((g, key))
}

/// A person's id found with this relevance or more (a person's context word, a code
/// in brackets after a name, a person's column) makes the id a person's in every
/// document.
const PERSONAL_ID_WINS: f64 = 0.85;

/// Gives one value one type across the corpus: within each group of [`TYPE_GROUPS`],
/// every occurrence takes the type of the most relevant one (ties: the group's
/// order), so the same id is one entity whether or not a context word said "patient".
/// An id that one document clearly writes as a person's ("patient Gerald Okoro (ID
/// QX-8872-3A)") is a person's everywhere, even where a stronger word calls it a case
/// ("Notable case: QX-8872-3A"): a direct identifier is masked by default, and typing
/// it a case number would leave it readable in the other documents.
pub fn harmonize_types(items: &mut [Vec<ExtractedItem>]) {
    // Each item's group key, made on every core. The best type of a group is the
    // most relevant (then lowest-ranked) one whatever order the items come in.
    let keys: Vec<Vec<Option<(usize, String)>>> = items
        .par_iter()
        .map(|its| {
            its.iter()
                .map(|it| group_key(&it.entity_type, &it.original))
                .collect()
        })
        .collect();
    let mut best: rustc_hash::FxHashMap<&(usize, String), (f64, usize)> =
        rustc_hash::FxHashMap::default();
    for (it, key) in items.iter().flatten().zip(keys.iter().flatten()) {
        let Some(key) = key else {
            continue;
        };
        let rank = TYPE_GROUPS[key.0]
            .iter()
            .position(|t| *t == it.entity_type)
            .unwrap_or(usize::MAX);
        // Rank 0 of the id group is PATIENT_ID.
        let relevance = if key.0 == 0 && rank == 0 && it.relevance >= PERSONAL_ID_WINS {
            f64::INFINITY
        } else {
            it.relevance
        };
        let slot = best.entry(key).or_insert((relevance, rank));
        if relevance > slot.0 || (relevance == slot.0 && rank < slot.1) {
            *slot = (relevance, rank);
        }
    }
    let best = &best;
    items.par_iter_mut().zip(&keys).for_each(|(its, keys)| {
        for (it, key) in its.iter_mut().zip(keys) {
            let Some(key) = key else {
                continue;
            };
            if let Some((_, rank)) = best.get(key)
                && let Some(ty) = TYPE_GROUPS[key.0].get(*rank)
                && it.entity_type != *ty
            {
                it.entity_type = (*ty).to_string();
            }
        }
    });
}

/// Words an organisation's short form cannot end with ("Bank of", "Institute for").
const SHORT_FORM_TAIL_STOP: &[&str] = &[
    "of", "the", "and", "for", "at", "in", "on", "de", "du", "la", "&", "-", "st", "st.",
];

/// A PROVIDER value's key: folded, white-space runs as one space.
fn provider_key(original: &str) -> String {
    fold(&original.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// Organisation short forms of the corpus (SPEC §7, "Calloway Genomics" for
/// "Calloway Genomics Institute"): folded short form → (relevance, normalized value)
/// of the one longer PROVIDER value it begins. A short form has at
/// least two words, is a strict word prefix of a PROVIDER value of at least three
/// words, begins no other PROVIDER value (differently normalized), and does not end
/// in a connecting word; or it is one coined brand word ("LuxCare" for "LuxCare
/// Network", see the offline extractor's `coined` recognizer) that begins one longer
/// PROVIDER value.
fn short_forms(items: &[Vec<ExtractedItem>]) -> BTreeMap<String, (f64, String)> {
    // Folded original → (relevance, normalized) of every PROVIDER value, and whether
    // its first word is a coined brand ("LuxCare Network").
    let mut providers: BTreeMap<String, (f64, String)> = BTreeMap::new();
    let mut branded: BTreeSet<String> = BTreeSet::new();
    for it in items.iter().flatten() {
        if it.entity_type != "PROVIDER" {
            continue;
        }
        let key = provider_key(&it.original);
        if it
            .original
            .split_whitespace()
            .next()
            .is_some_and(crate::extract::offline::is_brand)
        {
            branded.insert(key.clone());
        }
        let slot = providers
            .entry(key)
            .or_insert((it.relevance, it.normalized.clone()));
        if it.relevance > slot.0 {
            *slot = (it.relevance, it.normalized.clone());
        }
    }
    // Short form → the normalized values it begins (None once two differ).
    let mut owners: BTreeMap<String, Option<(f64, String)>> = BTreeMap::new();
    for (long, (relevance, normalized)) in &providers {
        let words: Vec<&str> = long.split(' ').collect();
        // A coined brand alone is a short form of any longer name it begins; other
        // short forms have two words or more, of a name of three or more.
        let first = if branded.contains(long) { 1 } else { 2 };
        if words.len() <= first {
            continue;
        }
        for k in first..words.len() {
            if SHORT_FORM_TAIL_STOP.contains(&words[k - 1]) {
                continue;
            }
            let short = words[..k].join(" ");
            let slot = owners
                .entry(short)
                .or_insert_with(|| Some((*relevance, normalized.clone())));
            if slot.as_ref().is_some_and(|(_, n)| n != normalized) {
                *slot = None;
            }
        }
    }
    owners
        .into_iter()
        .filter_map(|(short, owner)| {
            let owner = owner?;
            // A short form that is itself a value of another entity stays that entity.
            match providers.get(&short) {
                Some((_, n)) if *n != owner.1 && !short_form_of(n, &owner.1) => None,
                _ => Some((short, owner)),
            }
        })
        .collect()
}

/// Words an organisation's acronym skips ("Bank of America": "BOA" is not read; "BA"
/// would be, but acronyms need three letters).
const ACRONYM_SKIP: &[&str] = &[
    "of", "the", "and", "for", "at", "in", "on", "de", "du", "la", "&", "-", "a", "an",
];

/// The acronym of an organisation's name: the first letter of each of its words
/// written with a capital ("Granite Falls Medical Center": "GFMC"), or `None` when it has
/// fewer than three or a word is not capitalised.
fn acronym(original: &str) -> Option<String> {
    let mut out = String::new();
    for w in original.split_whitespace() {
        if ACRONYM_SKIP.contains(&w.to_lowercase().as_str()) {
            continue;
        }
        let first = w.chars().next()?;
        if !first.is_uppercase() {
            return None;
        }
        out.extend(first.to_uppercase());
    }
    (3..=6).contains(&out.chars().count()).then_some(out)
}

/// Acronyms of the corpus's organisation names (folded acronym → relevance and
/// normalized value of the one PROVIDER value it stands for): "GFMC" for "Granite Falls
/// Medical Center". An acronym two organisations
/// share, or that is an English word ("CARE"), stands for none.
fn acronyms(items: &[Vec<ExtractedItem>]) -> BTreeMap<String, (f64, String)> {
    let mut owners: BTreeMap<String, Option<(f64, String)>> = BTreeMap::new();
    for it in items.iter().flatten() {
        if it.entity_type != "PROVIDER" || it.original.split_whitespace().count() < 3 {
            continue;
        }
        let Some(a) = acronym(&it.original) else {
            continue;
        };
        let a = a.to_lowercase();
        if crate::extract::offline::is_english_word(&a) {
            continue;
        }
        let slot = owners
            .entry(a)
            .or_insert_with(|| Some((it.relevance, it.normalized.clone())));
        match slot {
            Some((r, n)) if *n == it.normalized => *r = r.max(it.relevance),
            _ => *slot = None,
        }
    }
    owners
        .into_iter()
        .filter_map(|(a, owner)| Some((a, owner?)))
        .collect()
}

/// `short` normalized is a word prefix of `long` normalized.
fn short_form_of(short: &str, long: &str) -> bool {
    long.len() > short.len() && long.starts_with(short) && long[short.len()..].starts_with(' ')
}

/// Gives every PROVIDER item that is a short form of a longer organisation name of the
/// corpus the longer name's value (the item keeps its own original, which the entity
/// then lists among its forms). Returns how many items it changed.
pub fn merge_short_forms(items: &mut [Vec<ExtractedItem>]) -> usize {
    let aliases = short_forms(items);
    let mut changed = 0;
    for it in items.iter_mut().flatten() {
        if it.entity_type != "PROVIDER" {
            continue;
        }
        let key = provider_key(&it.original);
        if let Some((_, normalized)) = aliases.get(&key)
            && *normalized != it.normalized
        {
            it.normalized = normalized.clone();
            changed += 1;
        }
    }
    changed
}

/// Removes the places of a document whose every span lies inside a name's span: a
/// carried name or its echo ("Kumi confirmed" after "NICOLA KUMI") says whose word it
/// is.
pub fn drop_places_under_names(items: &mut Vec<ExtractedItem>) {
    let names: Vec<Span> = items
        .iter()
        .filter(|i| i.entity_type == "NAME")
        .flat_map(|i| i.spans.iter().copied())
        .collect();
    if names.is_empty() {
        return;
    }
    items.retain(|i| {
        i.entity_type != "LOCATION"
            || i.spans.is_empty()
            || !i
                .spans
                .iter()
                .all(|s| names.iter().any(|n| n.start <= s.start && s.end <= n.end))
    });
}

/// Items the context pass adds per document (corpus order), given every document's
/// recognizer items. With `short_forms`, an organisation's short form (see
/// [`merge_short_forms`]) is looked for too, as the longer name's entity.
pub fn propagate(
    docs: &[Document],
    items: &[Vec<ExtractedItem>],
    with_short_forms: bool,
) -> Vec<Vec<ExtractedItem>> {
    // (type, folded original) → best relevance and the normalized value.
    let mut values: BTreeMap<(String, String), (f64, String)> = BTreeMap::new();
    for its in items {
        for it in its {
            if !CARRIED.contains(&it.entity_type.as_str())
                || !carried_value_ok(&it.entity_type, it.original.trim())
            {
                continue;
            }
            let key = (it.entity_type.clone(), fold(it.original.trim()));
            let slot = values
                .entry(key)
                .or_insert((it.relevance, it.normalized.clone()));
            if it.relevance > slot.0 {
                *slot = (it.relevance, it.normalized.clone());
            }
        }
    }
    // Short forms (their value is the longer name's, see `merge_short_forms`), and
    // acronyms, found only where written in capitals.
    let mut alias_keys: BTreeSet<(String, String)> = BTreeSet::new();
    let mut acronym_keys: BTreeSet<(String, String)> = BTreeSet::new();
    if with_short_forms {
        for (short, (relevance, normalized)) in short_forms(items) {
            let key = ("PROVIDER".to_string(), short);
            values.entry(key.clone()).or_insert((relevance, normalized));
            alias_keys.insert(key);
        }
        for (a, (relevance, normalized)) in acronyms(items) {
            let key = ("PROVIDER".to_string(), a);
            if values.contains_key(&key) {
                continue;
            }
            values.insert(key.clone(), (relevance, normalized));
            alias_keys.insert(key.clone());
            acronym_keys.insert(key);
        }
    }
    let keys: Vec<(String, String)> = values.keys().cloned().collect();
    let patterns: Vec<&str> = keys.iter().map(|(_, v)| v.as_str()).collect();
    let matcher = WordMatcher::new(&patterns);

    // One scan per document, on every core; then document frequencies by counting
    // (documents are visited in order, so a pattern's last document dedups).
    let found: Vec<Vec<(usize, Span)>> = docs
        .par_iter()
        .map(|doc| {
            let folded = FoldedText::new(&doc.content);
            let chars: Vec<char> = doc.content.chars().collect();
            matcher
                .find_all(&folded)
                .into_iter()
                .filter(|m| {
                    let (ty, _) = &keys[m.pattern];
                    if acronym_keys.contains(&keys[m.pattern]) {
                        return chars
                            .get(m.span.start..m.span.end)
                            .is_some_and(|w| w.iter().all(|c| c.is_uppercase()));
                    }
                    !PROPER.contains(&ty.as_str())
                        || chars
                            .get(m.span.start)
                            .is_some_and(|c| c.is_uppercase() || c.is_ascii_digit())
                })
                .map(|m| (m.pattern, m.span))
                .collect::<Vec<_>>()
        })
        .map(|here: Vec<(usize, Span)>| {
            if alias_keys.is_empty() {
                return here;
            }
            // A short form inside an occurrence of a longer value is that value.
            let covered = |k: usize, s: Span| {
                here.iter()
                    .any(|&(o, t)| o != k && t.start <= s.start && s.end <= t.end && t != s)
            };
            here.iter()
                .copied()
                .filter(|&(k, s)| !(alias_keys.contains(&keys[k]) && covered(k, s)))
                .collect()
        })
        .collect();
    drop(matcher);
    let mut df = vec![0usize; keys.len()];
    let mut last_doc = vec![usize::MAX; keys.len()];
    for (d, here) in found.iter().enumerate() {
        for &(k, _) in here {
            if last_doc[k] != d {
                last_doc[k] = d;
                df[k] += 1;
            }
        }
    }
    drop(last_doc);
    let max_df = ((docs.len() as f64) * MAX_SHARE).floor().max(2.0) as usize;

    found
        .into_par_iter()
        .enumerate()
        .map(|(d, here)| {
            let mut out = Vec::new();
            let mine = items.get(d).map(Vec::as_slice).unwrap_or(&[]);
            let has: BTreeSet<(&str, String)> = mine
                .iter()
                .map(|i| (i.entity_type.as_str(), fold(i.original.trim())))
                .collect();
            let mut by_key: BTreeMap<usize, Vec<Span>> = BTreeMap::new();
            for (k, span) in here {
                if df[k] > max_df {
                    continue;
                }
                let (ty, v) = &keys[k];
                if has.contains(&(ty.as_str(), v.clone())) {
                    continue;
                }
                // The same place already typed otherwise (an id read as a phone) stays.
                if mine.iter().any(|i| i.spans.contains(&span)) {
                    continue;
                }
                // A short form inside a value the recognizers found is part of it.
                if alias_keys.contains(&keys[k])
                    && mine.iter().any(|i| {
                        i.spans
                            .iter()
                            .any(|t| t.start <= span.start && span.end <= t.end)
                    })
                {
                    continue;
                }
                by_key.entry(k).or_default().push(span);
            }
            if by_key.is_empty() {
                return out;
            }
            let content: Vec<char> = docs[d].content.chars().collect();
            for (k, spans) in by_key {
                let (ty, _) = &keys[k];
                let (relevance, normalized) = &values[&keys[k]];
                let Some(first) = spans.first() else {
                    continue;
                };
                out.push(ExtractedItem {
                    original: content[first.start..first.end].iter().collect(),
                    normalized: normalized.clone(),
                    entity_type: ty.clone(),
                    relevance: *relevance,
                    spans,
                });
            }
            let echoed = echoes(&content, mine, &out);
            out.extend(echoed);
            out
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(id: &str, content: &str) -> Document {
        Document::new(id, content)
    }

    fn item(original: &str, ty: &str, relevance: f64) -> ExtractedItem {
        ExtractedItem {
            original: original.into(),
            normalized: original.to_lowercase(),
            entity_type: ty.into(),
            relevance,
            spans: Vec::new(),
        }
    }

    #[test]
    fn full_names_and_ids_are_found_in_other_documents() {
        let docs = vec![
            doc("a", "Claim for patient Rex Marin, policy GP-22987XL."),
            doc("b", "The survey praised Rex Marin's recovery."),
            doc("c", "Coverage under GP-22987XL was confirmed."),
            doc("d", "Nothing here about rex marin in lower case? yes."),
        ];
        let items = vec![
            vec![
                item("Rex Marin", "NAME", 0.9),
                item("GP-22987XL", "NON_PERSONAL_ID", 0.8),
            ],
            vec![],
            vec![],
            vec![],
        ];
        let out = propagate(&docs, &items, true);
        assert!(out[0].is_empty(), "nothing new where it was found");
        assert_eq!(out[1].len(), 1);
        assert_eq!(out[1][0].entity_type, "NAME");
        assert_eq!(out[1][0].relevance, 0.9);
        assert_eq!(out[1][0].spans, vec![Span { start: 19, end: 28 }]);
        assert_eq!(out[2][0].entity_type, "NON_PERSONAL_ID");
        // A proper noun written in lower case is not the name.
        assert!(out[3].is_empty());
    }

    #[test]
    fn an_organisation_short_form_meets_the_full_name() {
        let docs = vec![
            doc(
                "a",
                "Samples were sent to Calloway Genomics Institute in May.",
            ),
            doc("b", "Calloway Genomics confirmed the variant."),
            doc(
                "c",
                "Per Calloway Genomics: no change. Calloway Genomics Institute agreed.",
            ),
            doc(
                "d",
                "Harbor Point Clinic and Harbor Point Dental are two places.",
            ),
        ];
        let mut items = vec![
            vec![item("Calloway Genomics Institute", "PROVIDER", 0.8)],
            vec![],
            vec![
                item("Calloway Genomics", "PROVIDER", 0.7),
                ExtractedItem {
                    spans: vec![Span { start: 39, end: 66 }],
                    ..item("Calloway Genomics Institute", "PROVIDER", 0.8)
                },
            ],
            vec![
                item("Harbor Point Clinic", "PROVIDER", 0.8),
                item("Harbor Point Dental", "PROVIDER", 0.8),
            ],
        ];
        assert_eq!(merge_short_forms(&mut items), 1);
        assert_eq!(items[2][0].normalized, "calloway genomics institute");
        let out = propagate(&docs, &items, true);
        assert_eq!(out[1].len(), 1, "{:?}", out[1]);
        assert_eq!(out[1][0].original, "Calloway Genomics");
        assert_eq!(out[1][0].normalized, "calloway genomics institute");
        assert_eq!(out[1][0].spans, vec![Span { start: 0, end: 17 }]);
        // Not inside the full name of document a, nor as a second entity of c.
        assert!(out[0].is_empty(), "{:?}", out[0]);
        // "Harbor Point" begins two organisations: it stands for neither.
        assert!(out[3].is_empty(), "{:?}", out[3]);
        // Switched off, the short form is not looked for.
        assert!(propagate(&docs, &items, false)[1].is_empty());
    }

    #[test]
    fn a_coined_brand_alone_is_the_short_form_of_its_network() {
        let mut items = vec![
            vec![item("BrightHarbor Network", "PROVIDER", 0.8)],
            vec![item("BrightHarbor", "PROVIDER", 0.75)],
            vec![item("Mercy Network", "PROVIDER", 0.8)],
            vec![item("Mercy", "PROVIDER", 0.5)],
        ];
        assert_eq!(merge_short_forms(&mut items), 1);
        assert_eq!(items[1][0].normalized, "brightharbor network");
        // An ordinary word alone stands for no organisation.
        assert_eq!(items[3][0].normalized, "mercy");
    }

    #[test]
    fn an_organisations_acronym_in_capitals_is_the_organisation() {
        let docs = vec![
            doc("a", "Seen at Granite Falls Medical Center on Monday."),
            doc("b", "The GFMC cardiology team agreed."),
            doc("c", "gfmc in lower case is not it."),
            doc(
                "d",
                "Covered by Harbor Ridge Insurance and Harbor Ridge Infirmary.",
            ),
            doc("e", "HRI would be either."),
            doc("f", "Care Alliance Research East"),
            doc("g", "CARE is a word."),
            doc("h", "Nothing."),
            doc("i", "Nothing."),
            doc("j", "Nothing."),
        ];
        let mut items = vec![Vec::new(); docs.len()];
        items[0].push(item("Granite Falls Medical Center", "PROVIDER", 0.8));
        items[3].push(item("Harbor Ridge Insurance", "PROVIDER", 0.8));
        items[3].push(item("Harbor Ridge Infirmary", "PROVIDER", 0.8));
        items[5].push(item("Care Alliance Research East", "PROVIDER", 0.8));
        let out = propagate(&docs, &items, true);
        assert_eq!(out[1].len(), 1, "{out:?}");
        assert_eq!(out[1][0].normalized, "granite falls medical center");
        assert_eq!(out[1][0].original, "GFMC");
        assert!(out[2].is_empty(), "{out:?}");
        // Two organisations share "HRI"; "CARE" is an English word.
        assert!(out[4].is_empty(), "{out:?}");
        assert!(out[6].is_empty(), "{out:?}");
        // Without short forms, no acronyms either.
        let out = propagate(&docs, &items, false);
        assert!(out[1].is_empty(), "{out:?}");
    }

    #[test]
    fn one_id_gets_one_type_across_documents() {
        let mut items = vec![
            vec![item("PT-8872-3A", "PATIENT_ID", 1.0)],
            vec![item("PT88723A", "NON_PERSONAL_ID", 0.7)],
            vec![item("CLM-1", "NON_PERSONAL_ID", 1.0)],
            vec![item("Mercy Hospital", "LOCATION", 0.5)],
            vec![item("mercy hospital", "PROVIDER", 0.7)],
        ];
        harmonize_types(&mut items);
        assert_eq!(items[1][0].entity_type, "PATIENT_ID");
        assert_eq!(items[2][0].entity_type, "NON_PERSONAL_ID");
        assert_eq!(items[3][0].entity_type, "PROVIDER");
        // A person's id in one document is a person's where a case word calls it a case;
        // a weak guess that it is a person's is not enough.
        let mut items = vec![
            vec![item("QX-8872-3A", "PATIENT_ID", 0.9)],
            vec![item("QX-8872-3A", "NON_PERSONAL_ID", 1.0)],
            vec![item("RB-1", "PATIENT_ID", 0.8)],
            vec![item("RB-1", "NON_PERSONAL_ID", 1.0)],
        ];
        harmonize_types(&mut items);
        assert_eq!(items[1][0].entity_type, "PATIENT_ID");
        assert_eq!(items[3][0].entity_type, "NON_PERSONAL_ID");
    }

    #[test]
    fn partial_names_short_values_and_common_values_stay_put() {
        let mut docs = vec![doc(
            "a",
            "Dr. Varga saw the patient, aged 58, in Mercy Hall.",
        )];
        for i in 0..5 {
            docs.push(doc(
                &format!("d{i}"),
                "Varga noted 58 visits at Mercy Hall.",
            ));
        }
        let items = vec![
            vec![
                item("Varga", "NAME", 0.9),
                item("58", "AGE", 0.7),
                item("Mercy Hall", "PROVIDER", 0.7),
            ],
            vec![],
            vec![],
            vec![],
            vec![],
            vec![],
        ];
        let out = propagate(&docs, &items, true);
        // "Mercy Hall" is in every document: it identifies nobody.
        assert!(out.iter().all(Vec::is_empty), "{out:?}");
    }
}
