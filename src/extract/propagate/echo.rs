//! Partial echoes of the names the context pass carries: the first name or surname
//! alone of a full name carried to a document.

use std::collections::{BTreeMap, BTreeSet};

use crate::entity::spans::fold;
use crate::entity::{ExtractedItem, Span};

/// A partial echo ranks below the full names (the offline extractor's row for the
/// first name or surname alone).
const ECHO_RELEVANCE: f64 = 0.8;

/// The first name or surname alone of a full name the context pass carried to this
/// document (`carried`), where no recognizer found that name: "Statement taken from
/// MITURU HASEGAWA … Hasegawa confirmed", when only another document gave the name.
/// A word counts when it starts with a capital, belongs to one full name of the
/// document only, may stand alone for a name (`offline::echoes_alone`), and lies in no
/// span found already.
pub(super) fn echoes(
    content: &[char],
    mine: &[ExtractedItem],
    carried: &[ExtractedItem],
) -> Vec<ExtractedItem> {
    let full = |i: &&ExtractedItem| i.entity_type == "NAME" && i.normalized.contains(' ');
    let carried_names: BTreeMap<&str, f64> = carried
        .iter()
        .filter(full)
        .map(|i| (i.normalized.as_str(), i.relevance))
        .collect();
    if carried_names.is_empty() {
        return Vec::new();
    }
    // Word → the full names of the document it may stand for.
    let mut owners: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for item in mine.iter().chain(carried).filter(full) {
        let words: Vec<&str> = item.normalized.split(' ').collect();
        for (w, surname) in [(words[0], false), (words[words.len() - 1], true)] {
            if crate::extract::offline::echoes_alone(w, surname) {
                owners
                    .entry(w)
                    .or_default()
                    .insert(item.normalized.as_str());
            }
        }
    }
    let targets: BTreeMap<&str, &str> = owners
        .into_iter()
        .filter_map(|(w, o)| {
            let mut o = o.into_iter();
            match (o.next(), o.next()) {
                (Some(owner), None) if carried_names.contains_key(owner) => Some((w, owner)),
                _ => None,
            }
        })
        .collect();
    if targets.is_empty() {
        return Vec::new();
    }
    // The spans found already, merged into disjoint ranges sorted by start, so that
    // whether a word lies in one is a search, not a scan (a long document has many).
    // (A place found there is no obstacle: "Kumi confirmed" after "NICOLA KUMI" is the
    // surname, whatever town GeoNames knows by it; `drop_places_under_names` then
    // removes the place.)
    let mut taken: Vec<Span> = mine
        .iter()
        .filter(|i| i.entity_type != "LOCATION")
        .chain(carried)
        .flat_map(|i| i.spans.iter().copied())
        .collect();
    taken.sort_unstable_by_key(|t| (t.start, t.end));
    let mut merged: Vec<Span> = Vec::with_capacity(taken.len());
    for t in taken {
        match merged.last_mut() {
            Some(last) if t.start <= last.end => last.end = last.end.max(t.end),
            _ => merged.push(t),
        }
    }
    let in_taken = |start: usize, end: usize| {
        let i = merged.partition_point(|t| t.end <= start);
        merged.get(i).is_some_and(|t| t.start < end)
    };
    let mut found: BTreeMap<&str, Vec<Span>> = BTreeMap::new();
    for (start, end) in words_of(content) {
        if !content[start].is_uppercase() || in_taken(start, end) {
            continue;
        }
        let word: String = content[start..end].iter().collect();
        let word = fold(&word);
        let word = word
            .strip_suffix("'s")
            .or_else(|| word.strip_suffix("’s"))
            .unwrap_or(&word);
        if let Some(owner) = targets.get(word) {
            let end = start + word.chars().count();
            found.entry(owner).or_default().push(Span { start, end });
        }
    }
    found
        .into_iter()
        .filter_map(|(owner, spans)| {
            let first = spans.first()?;
            Some(ExtractedItem {
                original: content[first.start..first.end].iter().collect(),
                normalized: owner.to_string(),
                entity_type: "NAME".to_string(),
                relevance: carried_names
                    .get(owner)
                    .map_or(ECHO_RELEVANCE, |r| r.min(ECHO_RELEVANCE)),
                spans,
            })
        })
        .collect()
}

/// The words of a text as character ranges: letters and digits, with an apostrophe or
/// a hyphen between two of them ("O'Brien", "Quintero-Hale", "Smith's").
fn words_of(content: &[char]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < content.len() {
        if !content[i].is_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        while i < content.len()
            && (content[i].is_alphanumeric()
                || matches!(content[i], '\'' | '’' | '-')
                    && i > start
                    && content.get(i + 1).is_some_and(|c| c.is_alphanumeric()))
        {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::Document;

    fn name(original: &str, spans: Vec<Span>) -> ExtractedItem {
        ExtractedItem {
            original: original.into(),
            normalized: original.to_lowercase(),
            entity_type: "NAME".into(),
            relevance: 0.95,
            spans,
        }
    }

    fn chars(s: &str) -> Vec<char> {
        s.chars().collect()
    }

    #[test]
    fn a_surname_alone_after_a_carried_name_is_that_name() {
        let docs = vec![
            Document::new("a", "Claimant: Mituru Hasegawa"),
            Document::new(
                "b",
                "Statement taken from MITURU HASEGAWA at the plant. Hasegawa's account \
                 was clear; Mituru agreed.",
            ),
        ];
        let items = vec![
            vec![name("Mituru Hasegawa", vec![Span { start: 10, end: 25 }])],
            vec![],
        ];
        let out = super::super::propagate(&docs, &items, true);
        let b = &out[1];
        assert_eq!(b.len(), 2, "{b:?}");
        let echo = b
            .iter()
            .find(|i| i.original == "Hasegawa")
            .expect("surname alone");
        assert_eq!(echo.normalized, "mituru hasegawa");
        assert!(echo.relevance <= ECHO_RELEVANCE);
        // The surname with its possessive cut off, and the first name alone.
        let text = chars(&docs[1].content);
        let written: Vec<String> = echo
            .spans
            .iter()
            .map(|s| text[s.start..s.end].iter().collect())
            .collect();
        assert_eq!(written, ["Hasegawa", "Mituru"]);
        assert_eq!(echo.spans[0], Span { start: 51, end: 59 });
    }

    #[test]
    fn a_surname_a_place_recognizer_took_is_the_carried_names() {
        let docs = vec![
            Document::new("a", "Claimant: Nicola Kumi"),
            Document::new(
                "b",
                "Statement taken from NICOLA KUMI at head office. Kumi confirmed it.",
            ),
        ];
        let place = ExtractedItem {
            original: "Kumi".into(),
            normalized: "kumi".into(),
            entity_type: "LOCATION".into(),
            relevance: 0.55,
            spans: vec![Span { start: 49, end: 53 }],
        };
        let mut items = vec![
            vec![name("Nicola Kumi", vec![Span { start: 10, end: 21 }])],
            vec![place],
        ];
        let out = super::super::propagate(&docs, &items, true);
        let echo = out[1]
            .iter()
            .find(|i| i.original == "Kumi")
            .expect("surname alone");
        assert_eq!(echo.normalized, "nicola kumi");
        assert_eq!(echo.entity_type, "NAME");
        items[1].extend(out[1].iter().cloned());
        super::super::drop_places_under_names(&mut items[1]);
        assert!(
            !items[1].iter().any(|i| i.entity_type == "LOCATION"),
            "{:?}",
            items[1]
        );
    }

    #[test]
    fn no_echo_of_a_shared_or_common_word_or_in_lower_case() {
        // Two carried names share the surname: whose it is cannot be told.
        let content = chars("Ana Ruiz and Luis Ruiz came. Ruiz left.");
        let carried = vec![
            name("Ana Ruiz", vec![Span { start: 0, end: 8 }]),
            name("Luis Ruiz", vec![Span { start: 13, end: 22 }]),
        ];
        assert!(echoes(&content, &[], &carried).is_empty());
        // A common English word ("Will") is no echo, nor a word in lower case.
        let content = chars("Will Hasegawa came. Will you call? hasegawa said no.");
        let carried = vec![name("Will Hasegawa", vec![Span { start: 0, end: 13 }])];
        assert!(echoes(&content, &[], &carried).is_empty());
        // A name the recognizers found here has their echoes already.
        let content = chars("Mituru Hasegawa came. Hasegawa left.");
        let mine = vec![name("Mituru Hasegawa", vec![Span { start: 0, end: 15 }])];
        assert!(echoes(&content, &mine, &[]).is_empty());
    }

    #[test]
    fn words_keep_their_apostrophes_and_hyphens() {
        let text = chars("O'Brien met Quintero-Hale's aide - then left.");
        let words: Vec<String> = words_of(&text)
            .into_iter()
            .map(|(s, e)| text[s..e].iter().collect())
            .collect();
        assert_eq!(
            words,
            ["O'Brien", "met", "Quintero-Hale's", "aide", "then", "left"]
        );
    }
}
