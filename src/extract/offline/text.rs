//! Text helpers shared by the recognizers: character neighbours, word and token
//! boundaries, context windows, the folded text that gazetteers and echoed names are
//! matched in (with its map back to the original offsets), whole-word search, and
//! word-list lookup.

use aho_corasick::{AhoCorasick, Input};

/// One space inside a phrase (no line breaks, no field-separating runs of spaces).
pub(super) const SP: &str = r"[ \x{A0}]";

/// Whether the lowercase of `word` is in `list`.
pub(super) fn in_list(list: &[&str], word: &str) -> bool {
    let lower = word.to_lowercase();
    list.contains(&lower.as_str())
}

/// A word has a vowel: one of a, e, i, o, u, y in either case, or a letter with an
/// accent or of another alphabet ("LÁSZLÓ", "QƏŞƏM"). Words in capitals without one are
/// acronyms ("PCR", "MRN").
pub(super) fn has_vowel(word: &str) -> bool {
    word.chars().any(|c| {
        matches!(c.to_ascii_lowercase(), 'a' | 'e' | 'i' | 'o' | 'u' | 'y')
            || !c.is_ascii() && c.is_alphabetic()
    })
}

pub(super) fn prev_char(text: &str, i: usize) -> Option<char> {
    text.get(..i).and_then(|s| s.chars().next_back())
}

pub(super) fn next_char(text: &str, i: usize) -> Option<char> {
    text.get(i..).and_then(|s| s.chars().next())
}

/// Word boundary: the neighbouring characters are not alphanumeric.
pub(super) fn word_bounded(text: &str, start: usize, end: usize) -> bool {
    !prev_char(text, start).is_some_and(char::is_alphanumeric)
        && !next_char(text, end).is_some_and(char::is_alphanumeric)
}

/// Boundary of a numeric-ish token: not glued to letters/digits, not part of a larger
/// number (`$14,880.00`, `3.14`, `16:42`, `08/01/2024`), not a percentage.
pub(super) fn token_bounded(text: &str, start: usize, end: usize) -> bool {
    !glued_before(text, start) && !glued_after(text, end)
}

/// Whether the token starting at `start` continues what comes before it: a letter, a
/// digit, `_`, a currency sign, or a number separator with a digit before it.
pub(super) fn glued_before(text: &str, start: usize) -> bool {
    let mut before = text
        .get(..start)
        .map(|s| s.chars().rev())
        .into_iter()
        .flatten();
    match before.next() {
        None => false,
        Some(c) if c.is_alphanumeric() || c == '_' => true,
        Some('$' | '€' | '£' | '¥') => true,
        Some('-' | '\u{2013}' | '/' | '.' | ',' | '+' | ':') => {
            before.next().is_some_and(|d| d.is_ascii_digit())
        }
        Some(_) => false,
    }
}

/// Whether the token ending at `end` goes on after it: a letter, a digit, `_`, `%`, or a
/// number separator with a digit after it.
pub(super) fn glued_after(text: &str, end: usize) -> bool {
    let mut after = text.get(end..).map(str::chars).into_iter().flatten();
    match after.next() {
        None => false,
        Some(c) if c.is_alphanumeric() || c == '_' || c == '%' => true,
        Some('-' | '\u{2013}' | '/' | '.' | ',' | ':') => {
            after.next().is_some_and(|d| d.is_ascii_digit())
        }
        Some(_) => false,
    }
}

/// Start of the window of at most `max_chars` characters before `pos` on the same line,
/// never before `floor`.
pub(super) fn window_start(text: &str, pos: usize, max_chars: usize, floor: usize) -> usize {
    let mut start = pos;
    for (count, (i, c)) in text
        .get(..pos)
        .unwrap_or("")
        .char_indices()
        .rev()
        .enumerate()
    {
        if c == '\n' || count >= max_chars || i < floor {
            break;
        }
        start = i;
    }
    start.max(floor.min(pos))
}

/// Byte `at` of `text` opens a line: a window from [`window_start`] that reached the
/// line's start, not one cut short on a long line.
pub(super) fn opens_line(text: &str, at: usize) -> bool {
    at == 0 || text[..at].ends_with('\n')
}

/// The document folded for gazetteer matching: lowercase, no-break spaces and line
/// breaks → space, typographic dashes → '-', curly apostrophes → '\'', dotless and
/// dotted i → 'i'. `origin[b]` is the byte offset in the original text of the
/// character that produced folded byte `b` (empty when the mapping is the identity,
/// i.e. for ASCII text).
pub(super) struct Folded {
    pub(super) text: String,
    origin: Vec<u32>,
}

fn fold_char(c: char) -> char {
    match c {
        // Turkish and Azerbaijani dotless and dotted i: "NƏBIQIZI" and "Nəbiqızı" are
        // one name, and "İ" lowers to two characters otherwise.
        'ı' | 'İ' => 'i',
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => '-',
        '\u{2018}' | '\u{2019}' | '\u{02BC}' => '\'',
        c if c.is_whitespace() => ' ',
        c => c,
    }
}

impl Folded {
    pub(super) fn new(text: &str) -> Self {
        if text.is_ascii() {
            let folded: String = text
                .chars()
                .map(|c| fold_char(c).to_ascii_lowercase())
                .collect();
            return Folded {
                text: folded,
                origin: Vec::new(),
            };
        }
        let mut folded = String::with_capacity(text.len() + 16);
        let mut origin = Vec::with_capacity(text.len() + 16);
        for (i, c) in text.char_indices() {
            // Documents are far below 4 GiB (the loader caps them); saturate anyway.
            let at = u32::try_from(i).unwrap_or(u32::MAX);
            if c.is_ascii() {
                folded.push(fold_char(c).to_ascii_lowercase());
                origin.push(at);
                continue;
            }
            for l in fold_char(c).to_lowercase() {
                folded.push(l);
                origin.extend(std::iter::repeat_n(at, l.len_utf8()));
            }
        }
        Folded {
            text: folded,
            origin,
        }
    }

    /// The original byte range of folded range `start..end`, if it covers whole
    /// original characters.
    pub(super) fn original_range(
        &self,
        text: &str,
        start: usize,
        end: usize,
    ) -> Option<(usize, usize)> {
        if self.origin.is_empty() {
            return Some((start, end));
        }
        if start >= end || end > self.origin.len() {
            return None;
        }
        let os = self.origin[start];
        if start > 0 && self.origin[start - 1] == os {
            return None;
        }
        if end < self.origin.len() && self.origin[end] == self.origin[end - 1] {
            return None;
        }
        let (os, last) = (os as usize, self.origin[end - 1] as usize);
        let oe = last + next_char(text, last).map_or(0, char::len_utf8);
        Some((os, oe))
    }
}

/// Folds a gazetteer entry the way [`Folded`] folds the text. A value lowered
/// elsewhere holds "İ" as "i" and a combining dot above: the dot goes.
pub(super) fn fold_term(term: &str) -> String {
    let mut prev = ' ';
    term.chars()
        .map(fold_char)
        .flat_map(char::to_lowercase)
        .filter(|&c| {
            let dot_of_i = c == '\u{307}' && prev == 'i';
            prev = c;
            !dot_of_i
        })
        .collect::<String>()
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whole-word, leftmost-longest matches of `automaton` in `folded`, in original byte
/// offsets, with the pattern index. A match failing the word boundary is retried from
/// the next character so that a real word starting inside it is not lost.
pub(super) fn find_words(
    automaton: &AhoCorasick,
    folded: &Folded,
    text: &str,
) -> Vec<(usize, usize, usize)> {
    let hay = folded.text.as_str();
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < hay.len() {
        let Some(m) = automaton.find(Input::new(hay).range(pos..)) else {
            break;
        };
        match folded.original_range(text, m.start(), m.end()) {
            Some((os, oe)) if word_bounded(text, os, oe) => {
                out.push((os, oe, m.pattern().as_usize()));
                pos = m.end();
            }
            _ => {
                let step = next_char(hay, m.start()).map_or(1, char::len_utf8);
                pos = m.start() + step;
            }
        }
    }
    out
}

/// [`find_words`] for a few patterns without an automaton: leftmost-longest, whole
/// words, in original byte offsets, with the pattern index.
pub(super) fn find_words_few<S: AsRef<str>>(
    patterns: &[S],
    folded: &Folded,
    text: &str,
) -> Vec<(usize, usize, usize)> {
    let hay = folded.text.as_str();
    // Next occurrence at or after `pos` of each pattern (None: no more).
    let mut next: Vec<Option<usize>> = patterns
        .iter()
        .map(|p| {
            Some(p.as_ref())
                .filter(|p| !p.is_empty())
                .and_then(|p| hay.find(p))
        })
        .collect();
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < hay.len() {
        let mut best: Option<(usize, usize, usize)> = None;
        for (i, p) in patterns.iter().enumerate() {
            let p = p.as_ref();
            if next[i].is_some_and(|at| at < pos) {
                next[i] = hay.get(pos..).and_then(|h| h.find(p)).map(|at| at + pos);
            }
            if let Some(at) = next[i] {
                let end = at + p.len();
                if best.is_none_or(|(bs, be, _)| at < bs || (at == bs && end > be)) {
                    best = Some((at, end, i));
                }
            }
        }
        let Some((start, end, i)) = best else { break };
        match folded.original_range(text, start, end) {
            Some((os, oe)) if word_bounded(text, os, oe) => {
                out.push((os, oe, i));
                pos = end;
            }
            _ => pos = start + next_char(hay, start).map_or(1, char::len_utf8),
        }
    }
    out
}
