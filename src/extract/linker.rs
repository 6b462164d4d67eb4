//! The corpus-level linker pass: word sequences that no recognizer typed but that recur
//! in a few documents and are rare in the corpus are exactly what links documents
//! ("bone-grafting technique", "skateboarder"). They become UNIQUE_FACT items with a
//! modest relevance, so that one shared phrase alone rarely makes an edge but adds to
//! the entities two documents already share.
//!
//! Guards against flooding the graph with common phrases: a phrase must occur in at
//! least 2 and at most `max(2, 8 % of the documents)` documents; it may not start or
//! end with a function word or a word from the domain's boilerplate list; it needs a
//! content word of at least 5 letters (a single word: 6 letters and written with a
//! capital inside a sentence, like a name); it never
//! crosses punctuation or overlaps a recognized entity; a phrase contained in a longer
//! kept phrase with the same documents is dropped.

use std::collections::{BTreeMap, BTreeSet};

use crate::corpus::Document;
use crate::entity::spans::fold_char;
use crate::entity::{ExtractedItem, Span};

/// Type given to linker phrases.
pub const LINKER_TYPE: &str = "UNIQUE_FACT";
/// Relevance of a multi-word phrase; single words get less.
const PHRASE_RELEVANCE: f64 = 0.5;
const WORD_RELEVANCE: f64 = 0.35;
const MAX_WORDS: usize = 4;

/// Function words and administrative boilerplate that never start or end a phrase.
const STOP: &[&str] = &[
    "a",
    "an",
    "the",
    "and",
    "or",
    "but",
    "nor",
    "of",
    "in",
    "on",
    "at",
    "to",
    "for",
    "from",
    "by",
    "with",
    "without",
    "within",
    "into",
    "onto",
    "over",
    "under",
    "after",
    "before",
    "during",
    "since",
    "until",
    "about",
    "above",
    "below",
    "between",
    "through",
    "per",
    "via",
    "as",
    "is",
    "are",
    "was",
    "were",
    "be",
    "been",
    "being",
    "has",
    "have",
    "had",
    "do",
    "does",
    "did",
    "will",
    "would",
    "shall",
    "should",
    "can",
    "could",
    "may",
    "might",
    "must",
    "not",
    "no",
    "yes",
    "this",
    "that",
    "these",
    "those",
    "it",
    "its",
    "he",
    "she",
    "they",
    "them",
    "his",
    "her",
    "their",
    "our",
    "we",
    "you",
    "your",
    "i",
    "me",
    "my",
    "who",
    "whom",
    "which",
    "what",
    "when",
    "where",
    "why",
    "how",
    "all",
    "any",
    "each",
    "every",
    "both",
    "some",
    "such",
    "other",
    "than",
    "then",
    "also",
    "only",
    "very",
    "more",
    "most",
    "less",
    "least",
    "new",
    "same",
    "one",
    "two",
    "three",
    "first",
    "second",
    "last",
    "next",
    "up",
    "out",
    "off",
    "so",
    "if",
    "there",
    "here",
    "including",
    "following",
    "due",
    "per",
    "following",
    "patient",
    "patients",
    "member",
    "members",
    "claim",
    "claims",
    "policy",
    "provider",
    "providers",
    "plan",
    "plans",
    "coverage",
    "covered",
    "request",
    "requested",
    "review",
    "reviewed",
    "approved",
    "denied",
    "date",
    "dates",
    "service",
    "services",
    "report",
    "reported",
    "note",
    "notes",
    "record",
    "records",
    "document",
    "documents",
    "documentation",
    "information",
    "required",
    "requires",
    "requiring",
    "submitted",
    "received",
    "noted",
    "program",
    "programs",
    "benefit",
    "benefits",
    "insurance",
    "health",
    "medical",
    "care",
    "treatment",
    "visit",
    "visits",
    "number",
    "total",
    "amount",
    "payment",
    "billing",
    "code",
    "codes",
    "team",
    "department",
    "office",
    "staff",
    "case",
    "cases",
    "file",
    "status",
    "update",
    "updated",
    "process",
    "processing",
    "period",
    "year",
    "years",
    "month",
    "months",
    "week",
    "weeks",
    "day",
    "days",
    "today",
    "recent",
    "recently",
    "current",
    "currently",
];

fn is_stop(w: &str) -> bool {
    STOP.contains(&w)
}

/// One word of a document: folded text and its char span.
struct Word {
    text: String,
    span: Span,
    /// The word follows punctuation that ends a phrase (or starts the text).
    breaks_before: bool,
    /// Written with a capital inside a sentence (a proper-noun shape).
    capital_inside: bool,
}

fn words(content: &str) -> Vec<Word> {
    let chars: Vec<char> = content.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    let mut brk = true;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric()
                    || (matches!(chars[i], '-' | '\'' | '’')
                        && i + 1 < chars.len()
                        && chars[i + 1].is_alphanumeric()))
            {
                i += 1;
            }
            let sentence_start = out.last().is_none_or(|w: &Word| {
                chars[w.span.end..start]
                    .iter()
                    .any(|c| matches!(c, '.' | '!' | '?' | '\n' | ':' | ';'))
            });
            out.push(Word {
                text: chars[start..i].iter().map(|c| fold_char(*c)).collect(),
                span: Span { start, end: i },
                breaks_before: brk,
                capital_inside: chars[start].is_uppercase() && !sentence_start,
            });
            brk = false;
        } else {
            if !c.is_whitespace() {
                brk = true;
            }
            if c == '\n' {
                brk = true;
            }
            i += 1;
        }
    }
    out
}

/// Where a phrase occurs.
#[derive(Default)]
struct Phrase {
    docs: BTreeSet<usize>,
    /// (document, span)
    occurrences: Vec<(usize, Span)>,
}

fn content_ok(ws: &[&str]) -> bool {
    let letters = |w: &str| w.chars().filter(|c| c.is_alphabetic()).count();
    if ws.iter().any(|w| w.chars().any(|c| c.is_ascii_digit())) {
        return false;
    }
    if ws.len() == 1 {
        return letters(ws[0]) >= 6;
    }
    ws.iter().any(|w| !is_stop(w) && letters(w) >= 5)
}

/// Linker items per document (in corpus order), given the recognizers' items.
pub fn link(docs: &[Document], items: &[Vec<ExtractedItem>]) -> Vec<Vec<ExtractedItem>> {
    let n = docs.len();
    let max_df = ((n as f64) * 0.08).floor().max(2.0) as usize;
    let mut table: BTreeMap<String, Phrase> = BTreeMap::new();
    for (d, doc) in docs.iter().enumerate() {
        let covered: Vec<Span> = items
            .get(d)
            .map(|its| its.iter().flat_map(|i| i.spans.iter().copied()).collect())
            .unwrap_or_default();
        let overlaps = |s: Span| covered.iter().any(|c| c.start < s.end && s.start < c.end);
        let ws = words(&doc.content);
        for i in 0..ws.len() {
            for len in 1..=MAX_WORDS {
                let j = i + len;
                if j > ws.len() || (len > 1 && ws[j - 1].breaks_before) {
                    break;
                }
                let texts: Vec<&str> = ws[i..j].iter().map(|w| w.text.as_str()).collect();
                if is_stop(texts[0]) || is_stop(texts[len - 1]) || !content_ok(&texts) {
                    continue;
                }
                // A lone word links only when written like a name ("SilverPath").
                if len == 1 && !ws[i].capital_inside {
                    continue;
                }
                let span = Span {
                    start: ws[i].span.start,
                    end: ws[j - 1].span.end,
                };
                if overlaps(span) {
                    continue;
                }
                let entry = table.entry(texts.join(" ")).or_default();
                entry.docs.insert(d);
                entry.occurrences.push((d, span));
            }
        }
    }
    let mut kept: Vec<(String, Phrase)> = table
        .into_iter()
        .filter(|(_, p)| p.docs.len() >= 2 && p.docs.len() <= max_df)
        .collect();
    // Longest phrases first; a phrase inside a kept one with the same documents goes.
    kept.sort_by(|a, b| {
        b.0.split(' ')
            .count()
            .cmp(&a.0.split(' ').count())
            .then(a.0.cmp(&b.0))
    });
    let mut chosen: Vec<(String, Phrase)> = Vec::new();
    for (text, phrase) in kept {
        let inside = chosen
            .iter()
            .any(|(t, p)| p.docs == phrase.docs && format!(" {t} ").contains(&format!(" {text} ")));
        if !inside {
            chosen.push((text, phrase));
        }
    }
    let mut out: Vec<Vec<ExtractedItem>> = vec![Vec::new(); n];
    for (phrase, Phrase { occurrences, .. }) in chosen {
        let relevance = if phrase.contains(' ') {
            PHRASE_RELEVANCE
        } else {
            WORD_RELEVANCE
        };
        for (d, span) in occurrences {
            let original: String = docs[d]
                .content
                .chars()
                .skip(span.start)
                .take(span.end - span.start)
                .collect();
            out[d].push(ExtractedItem {
                original,
                normalized: phrase.clone(),
                entity_type: LINKER_TYPE.to_string(),
                relevance,
                spans: vec![span],
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rare_recurring_phrases_link_and_common_ones_do_not() {
        let mut docs: Vec<Document> = (0..30)
            .map(|i| {
                Document::new(
                    format!("d{i}"),
                    format!("Routine note {i}. The prior authorization was approved."),
                )
            })
            .collect();
        docs[3] = Document::new(
            "d3",
            "A novel bone-grafting technique was used. The prior authorization was approved.",
        );
        docs[7] = Document::new(
            "d7",
            "Outcomes of the Bone-Grafting Technique were good; the SkateCo rider recovered.",
        );
        docs[9] = Document::new(
            "d9",
            "The SkateCo rider returned. The prior authorization was approved.",
        );
        let items = vec![Vec::new(); docs.len()];
        let out = link(&docs, &items);
        let found: BTreeSet<(usize, String)> = out
            .iter()
            .enumerate()
            .flat_map(|(d, its)| its.iter().map(move |i| (d, i.normalized.clone())))
            .collect();
        assert!(
            found.contains(&(3, "bone-grafting technique".to_string())),
            "{found:?}"
        );
        assert!(
            found.contains(&(7, "bone-grafting technique".to_string())),
            "{found:?}"
        );
        assert!(
            found.contains(&(7, "skateco rider".to_string())),
            "{found:?}"
        );
        assert!(
            found.contains(&(9, "skateco rider".to_string())),
            "{found:?}"
        );
        assert!(
            !found.iter().any(|(_, p)| p.contains("authorization")),
            "{found:?}"
        );
        // "technique" alone is inside the kept phrase with the same documents.
        assert!(!found.iter().any(|(_, p)| p == "technique"), "{found:?}");
        // Spans point at the original text.
        for (d, its) in out.iter().enumerate() {
            for i in its {
                let s = i.spans[0];
                let text: String = docs[d]
                    .content
                    .chars()
                    .skip(s.start)
                    .take(s.end - s.start)
                    .collect();
                assert_eq!(text, i.original);
            }
        }
    }

    #[test]
    fn recognized_entities_and_punctuation_are_not_crossed() {
        let docs = vec![
            Document::new("a", "Seen at Cedar Clinic. Extraordinarily rare reaction."),
            Document::new("b", "Cedar Clinic again, extraordinarily rare reaction"),
        ];
        let span = |d: &Document, v: &str| {
            let start = d
                .content
                .find(v)
                .map(|b| d.content[..b].chars().count())
                .unwrap_or(0);
            Span {
                start,
                end: start + v.chars().count(),
            }
        };
        let items: Vec<Vec<ExtractedItem>> = docs
            .iter()
            .map(|d| {
                vec![ExtractedItem {
                    original: "Cedar Clinic".into(),
                    normalized: String::new(),
                    entity_type: "PROVIDER".into(),
                    relevance: 0.7,
                    spans: vec![span(d, "Cedar Clinic")],
                }]
            })
            .collect();
        let out = link(&docs, &items);
        let phrases: BTreeSet<String> =
            out.iter().flatten().map(|i| i.normalized.clone()).collect();
        assert!(
            phrases.contains("extraordinarily rare reaction"),
            "{phrases:?}"
        );
        assert!(!phrases.iter().any(|p| p.contains("cedar")), "{phrases:?}");
        assert!(!phrases.iter().any(|p| p.contains("again")), "{phrases:?}");
    }
}
