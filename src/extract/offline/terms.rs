//! Large shipped vocabularies looked up word by word instead of compiled into an
//! automaton: the public vocabularies of `data/vocab/` hold ~95,000 terms, and an
//! Aho-Corasick automaton over them costs ~300 ms of start-up (failure transitions)
//! for every command. A hash table of the terms and of their beginnings costs one
//! pass at first use and finds every term by extending a window of words while some
//! term still continues it (a sorted table, binary-searched once per window, spent
//! a tenth of `clam extract`'s time comparing strings).

use rustc_hash::FxHashMap;

use super::text::{Folded, fold_term, word_bounded};

/// At most this many alphanumeric runs (words or hyphen parts) in one term.
const MAX_PARTS: usize = 10;

/// What a folded string is in the table: a term (with the list it came from), the
/// beginning of a longer term up to a separator, or both.
#[derive(Debug, Clone, Copy, Default)]
struct Entry {
    /// The list of the term this string is, if it is one (the first list wins).
    list: Option<u8>,
    /// Some longer term continues this string after a separator (a space, a hyphen,
    /// an apostrophe, a slash or a comma).
    continues: bool,
}

/// The folded terms ([`fold_term`]) of some lists, each with the index of the list it
/// came from (a term in several lists keeps the first), hashed together with every
/// beginning of a term that ends before a separator: a text is read word by word, and
/// one lookup per window of words says whether it is a term and whether a longer one
/// could still match.
pub(super) struct Terms {
    table: FxHashMap<Box<str>, Entry>,
}

/// Characters after which a term may continue with another word.
fn is_separator(b: u8) -> bool {
    matches!(b, b' ' | b'-' | b'\'' | b'/' | b',')
}

impl Terms {
    /// The terms of `lists` (one per line, `#` starts a comment), in priority order;
    /// a list marked `true` also holds the British spelling of its US medical terms.
    pub(super) fn build(lists: &[(&'static str, bool)]) -> Terms {
        // About two entries per line (the term and its beginnings), sized once.
        let lines: usize = lists
            .iter()
            .map(|(l, _)| l.bytes().filter(|&b| b == b'\n').count())
            .sum();
        let mut table: FxHashMap<Box<str>, Entry> =
            FxHashMap::with_capacity_and_hasher(lines * 2, Default::default());
        let mut add = |term: &str, list: u8| {
            let entry = table.entry(term.into()).or_default();
            entry.list = Some(entry.list.map_or(list, |l| l.min(list)));
            for (i, &b) in term.as_bytes().iter().enumerate() {
                if i > 0 && is_separator(b) {
                    table.entry(term[..i].into()).or_default().continues = true;
                }
            }
        };
        for (i, &(list, british)) in lists.iter().enumerate() {
            let i = u8::try_from(i).unwrap_or(u8::MAX);
            for line in list.lines() {
                let entry = line.split('#').next().unwrap_or("").trim();
                if entry.is_empty() {
                    continue;
                }
                let folded = fold_term(entry);
                if british && let Some(variant) = british_spelling(&folded) {
                    add(&variant, i);
                }
                add(&folded, i);
            }
        }
        Terms { table }
    }

    /// The list a folded term belongs to.
    pub(super) fn get(&self, folded: &str) -> Option<u8> {
        self.table.get(folded).and_then(|e| e.list)
    }

    /// Whole-word, leftmost-longest occurrences of the terms in `text` (whose folded
    /// form is `folded`), in original byte offsets, with the list index.
    pub(super) fn find(&self, folded: &Folded, text: &str) -> Vec<(usize, usize, u8)> {
        let hay = folded.text.as_str();
        let bytes = hay.as_bytes();
        let mut out = Vec::new();
        let mut pos = 0;
        while pos < hay.len() {
            let Some(start) = next_word_start(hay, pos) else {
                break;
            };
            let mut best: Option<(usize, u8)> = None;
            let mut end = start;
            for _ in 0..MAX_PARTS {
                end = word_end(hay, end);
                let Some(entry) = self.table.get(&hay[start..end]) else {
                    break;
                };
                if let Some(list) = entry.list {
                    best = Some((end, list));
                }
                if !entry.continues {
                    break;
                }
                // The next part: after one separator (a space, a hyphen, an apostrophe,
                // a slash or a comma and a space) on the same line.
                let rest = &bytes[end..];
                let gap = match rest {
                    [b',', b' ', c, ..] if c.is_ascii_alphanumeric() || *c >= 0x80 => 2,
                    [b' ' | b'-' | b'\'' | b'/', ..] => 1,
                    _ => break,
                };
                let next = end + gap;
                if !hay[next..].starts_with(char::is_alphanumeric) {
                    break;
                }
                end = next;
            }
            match best {
                Some((end, list)) => {
                    if let Some((os, oe)) = folded.original_range(text, start, end)
                        && word_bounded(text, os, oe)
                    {
                        out.push((os, oe, list));
                        pos = end;
                        continue;
                    }
                    pos = word_end(hay, start);
                }
                None => pos = word_end(hay, start),
            }
        }
        out
    }
}

/// US → British spellings of medical words, by word stem (the usual correspondences:
/// ae/oe for e in Greek stems, -our for -or, -aemia for -emia, -rrhoea for -rrhea).
const BRITISH: &[(&str, &str)] = &[
    ("hem", "haem"),
    ("leukem", "leukaem"),
    ("anem", "anaem"),
    ("ischem", "ischaem"),
    ("esophag", "oesophag"),
    ("edem", "oedem"),
    ("estrogen", "oestrogen"),
    ("pediatr", "paediatr"),
    ("orthoped", "orthopaed"),
    ("fetal", "foetal"),
    ("fetus", "foetus"),
    ("celiac", "coeliac"),
    ("cecum", "caecum"),
    ("cecal", "caecal"),
    ("anesthe", "anaesthe"),
    ("dyspne", "dyspnoe"),
    ("apne", "apnoe"),
    ("labor", "labour"),
    ("tumor", "tumour"),
    ("behavior", "behaviour"),
    ("humor", "humour"),
];

/// The British spelling of a folded US medical term, if any word differs:
/// "preterm labor" → "preterm labour", "iron deficiency anemia" → "… anaemia".
fn british_spelling(term: &str) -> Option<String> {
    let mut changed = false;
    let words: Vec<String> = term
        .split(' ')
        .map(|w| {
            let mut out = w.to_string();
            for (us, gb) in BRITISH {
                if let Some(rest) = w.strip_prefix(us) {
                    out = format!("{gb}{rest}");
                    changed = true;
                    break;
                }
            }
            for suffix in ["emia", "rrhea"] {
                if out.ends_with(suffix) && !out.ends_with("aemia") {
                    let stem = &out[..out.len() - suffix.len()];
                    out = match suffix {
                        "emia" => format!("{stem}aemia"),
                        _ => format!("{stem}rrhoea"),
                    };
                    changed = true;
                }
            }
            out
        })
        .collect();
    changed.then(|| words.join(" "))
}

/// The first start of an alphanumeric run at or after `pos` (a char boundary).
fn next_word_start(hay: &str, pos: usize) -> Option<usize> {
    let mut prev_alnum = hay[..pos]
        .chars()
        .next_back()
        .is_some_and(char::is_alphanumeric);
    for (i, c) in hay[pos..].char_indices() {
        let alnum = c.is_alphanumeric();
        if alnum && !prev_alnum {
            return Some(pos + i);
        }
        prev_alnum = alnum;
    }
    None
}

/// The end of the alphanumeric run starting at `start`.
fn word_end(hay: &str, start: usize) -> usize {
    hay[start..]
        .char_indices()
        .find(|(_, c)| !c.is_alphanumeric())
        .map_or(hay.len(), |(i, _)| start + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn british_spellings_of_us_medical_terms() {
        let terms = Terms::build(&[(
            "preterm labor\niron deficiency anemia\ndiarrhea\nhemophilia\n",
            true,
        )]);
        assert_eq!(
            found(
                &terms,
                "Preterm labour; iron deficiency anaemia, diarrhoea and haemophilia."
            ),
            [
                ("Preterm labour", 0),
                ("iron deficiency anaemia", 0),
                ("diarrhoea", 0),
                ("haemophilia", 0)
            ]
        );
        assert_eq!(british_spelling("hepatitis"), None);
    }

    fn found<'t>(terms: &Terms, text: &'t str) -> Vec<(&'t str, u8)> {
        let folded = Folded::new(text);
        terms
            .find(&folded, text)
            .into_iter()
            .map(|(s, e, l)| (&text[s..e], l))
            .collect()
    }

    #[test]
    fn longest_whole_word_terms_first_list_wins() {
        let terms = Terms::build(&[
            ("lennox-gastaut syndrome\ndiabetes\n", false),
            (
                "# comment\ndiabetes mellitus\ntype 2 diabetes mellitus\ndiabetes\nabe\n",
                false,
            ),
        ]);
        assert_eq!(terms.get("diabetes"), Some(0));
        assert_eq!(terms.get("diabetes mellitus"), Some(1));
        assert_eq!(
            found(
                &terms,
                "Has Type 2 Diabetes Mellitus and Lennox-Gastaut syndrome; diabetic, Abel, abe."
            ),
            [
                ("Type 2 Diabetes Mellitus", 1),
                ("Lennox-Gastaut syndrome", 0),
                ("abe", 1)
            ]
        );
    }

    #[test]
    fn folding_and_odd_text_do_not_break_the_lookup() {
        let terms = Terms::build(&[("cystic fibrosis\nerdheim-chester disease\n", false)]);
        let text = "İİ: Erdheim–Chester disease, cystic\u{A0}fibrosis, cystic \n fibrosis, ü";
        assert_eq!(
            found(&terms, text),
            [("Erdheim–Chester disease", 0), ("cystic\u{A0}fibrosis", 0)]
        );
    }
}
