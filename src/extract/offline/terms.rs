//! Large shipped vocabularies looked up word by word instead of compiled into an
//! automaton: the public vocabularies of `data/vocab/` hold ~95,000 terms, and an
//! Aho-Corasick automaton over them costs ~300 ms of start-up (failure transitions)
//! for every command. A sorted table costs a sort at first use and finds every
//! term by extending a window of words while some term still begins with it.

use std::borrow::Cow;

use super::text::{Folded, fold_term, word_bounded};

/// At most this many alphanumeric runs (words or hyphen parts) in one term.
const MAX_PARTS: usize = 10;

/// A sorted table of folded terms ([`fold_term`]), each with the index of the list it
/// came from; a term in several lists keeps the first.
pub(super) struct Terms {
    rows: Vec<(Cow<'static, str>, u8)>,
    /// Sorted hashes of the terms' first words: most words of a text begin no term,
    /// and one integer search says so without comparing strings.
    first_words: Vec<u64>,
}

/// FNV-1a: a fast hash of a short word (collisions only cost a table lookup).
fn word_hash(word: &str) -> u64 {
    word.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

impl Terms {
    /// The terms of `lists` (one per line, `#` starts a comment), in priority order;
    /// a list marked `true` also holds the British spelling of its US medical terms.
    pub(super) fn build(lists: &[(&'static str, bool)]) -> Terms {
        let mut rows: Vec<(Cow<'static, str>, u8)> = Vec::new();
        for (i, &(list, british)) in lists.iter().enumerate() {
            let i = u8::try_from(i).unwrap_or(u8::MAX);
            for line in list.lines() {
                let entry = line.split('#').next().unwrap_or("").trim();
                if entry.is_empty() {
                    continue;
                }
                let folded = fold_term(entry);
                if british && let Some(variant) = british_spelling(&folded) {
                    rows.push((Cow::Owned(variant), i));
                }
                let term = if folded == entry {
                    Cow::Borrowed(entry)
                } else {
                    Cow::Owned(folded)
                };
                rows.push((term, i));
            }
        }
        rows.sort_unstable();
        rows.dedup_by(|later, first| later.0 == first.0);
        let mut first_words: Vec<u64> = rows
            .iter()
            .map(|(t, _)| word_hash(&t[..word_end(t, 0)]))
            .collect();
        first_words.sort_unstable();
        first_words.dedup();
        Terms { rows, first_words }
    }

    /// The list a folded term belongs to.
    pub(super) fn get(&self, folded: &str) -> Option<u8> {
        self.rows
            .binary_search_by(|(t, _)| t.as_ref().cmp(folded))
            .ok()
            .map(|i| self.rows[i].1)
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
            if self
                .first_words
                .binary_search(&word_hash(&hay[start..word_end(hay, start)]))
                .is_err()
            {
                pos = word_end(hay, start);
                continue;
            }
            let mut best: Option<(usize, u8)> = None;
            let mut end = start;
            for _ in 0..MAX_PARTS {
                end = word_end(hay, end);
                let window = &hay[start..end];
                let at = self.rows.partition_point(|(t, _)| t.as_ref() < window);
                let Some((term, list)) = self.rows.get(at) else {
                    break;
                };
                if term.as_ref() == window {
                    best = Some((end, *list));
                } else if !term.starts_with(window) {
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
