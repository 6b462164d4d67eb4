//! Span location (SPEC §2): whole-word, case-insensitive occurrences of values in a
//! text, in Unicode code points. Matching reads the text's [projection](crate::text)
//! (the one the redactor reads), so a value is found however its white space,
//! invisible characters, width or look-alike letters are written; spans are the
//! original characters the match came from.
//!
//! Word boundary: the neighbouring character is not alphanumeric. One refinement: a
//! value that starts (ends) with a digit does not match right after (before) a
//! decimal or thousands separator that itself touches a digit, so the age "75" is
//! not found inside "0.75" or "1,075".

use aho_corasick::{AhoCorasick, MatchKind};

use crate::entity::Span;
use crate::text::{Projected, project};

/// Simple case folding of one character: its lowercase when that is one character.
pub fn fold_char(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(l), None) => l,
        _ => c,
    }
}

/// Simple case folding of a string (same number of characters).
pub fn fold(s: &str) -> String {
    if s.is_ascii() {
        return s.to_ascii_lowercase();
    }
    s.chars().map(fold_char).collect()
}

/// A text prepared for matching: its [projection](crate::text), which reads the text
/// as a reader does (case, white-space runs, invisible characters, escape sequences,
/// look-alikes, full width, accents, digits of any script), with the map back to the
/// original characters.
pub struct FoldedText {
    projected: Projected,
}

/// Invisible format characters a reader does not see (zero-width spaces and joiners,
/// the soft hyphen, the BOM, bidi controls): the projection drops them, so
/// "Pri\u{200d}ya" is found (and masked) as "Priya".
pub fn is_ignorable(c: char) -> bool {
    !c.is_ascii() && crate::text::is_dropped(c)
}

impl FoldedText {
    pub fn new(text: &str) -> Self {
        FoldedText {
            projected: Projected::new(text),
        }
    }

    /// Is the projected byte range `[start, end)` delimited by word boundaries? A value
    /// that starts (ends) with a digit does not match right after (before) a decimal
    /// or thousands separator that itself touches a digit.
    fn is_whole(&self, start: usize, end: usize) -> bool {
        let t = self.projected.text.as_str();
        if start >= end || end > t.len() {
            return false;
        }
        let separator = |c: Option<char>| matches!(c, Some('.' | ','));
        let digit = |c: Option<char>| c.is_some_and(|c| c.is_ascii_digit());
        let mut before = t[..start].chars().rev();
        let mut after = t[end..].chars();
        let (prev, prev2) = (before.next(), before.next());
        let (next, next2) = (after.next(), after.next());
        let first = t[start..].chars().next();
        let last = t[..end].chars().next_back();
        let left_ok = !(prev.is_some_and(char::is_alphanumeric)
            || (digit(first) && separator(prev) && digit(prev2)));
        let right_ok = !(next.is_some_and(char::is_alphanumeric)
            || (digit(last) && separator(next) && digit(next2)));
        left_ok && right_ok
    }
}

/// One whole-word match of pattern `pattern` at `span`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WordMatch {
    pub pattern: usize,
    pub span: Span,
}

/// An automaton for overlapping search over `patterns`; `None` when there are none
/// (or the automaton cannot be built, which leaves the values unmatched).
pub fn overlapping_automaton(patterns: &[String]) -> Option<AhoCorasick> {
    if patterns.is_empty() {
        return None;
    }
    AhoCorasick::builder()
        .match_kind(MatchKind::Standard)
        .build(patterns)
        .ok()
}

/// A set of values to find as whole words, case-insensitively.
pub struct WordMatcher {
    automaton: Option<AhoCorasick>,
    /// Pattern index in the automaton → caller's pattern index.
    index: Vec<usize>,
}

impl WordMatcher {
    /// Builds a matcher over `values`; values that read as nothing never match.
    pub fn new<S: AsRef<str>>(values: &[S]) -> Self {
        let mut patterns = Vec::new();
        let mut index = Vec::new();
        for (i, v) in values.iter().enumerate() {
            let p = project(v.as_ref());
            let p = p.trim();
            if p.is_empty() {
                continue;
            }
            patterns.push(p.to_string());
            index.push(i);
        }
        WordMatcher {
            automaton: overlapping_automaton(&patterns),
            index,
        }
    }

    /// Every whole-word match, overlapping ones included, ordered by start then longest.
    pub fn find_all(&self, text: &FoldedText) -> Vec<WordMatch> {
        let Some(ac) = &self.automaton else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for m in ac.find_overlapping_iter(text.projected.text.as_str()) {
            if !text.is_whole(m.start(), m.end()) {
                continue;
            }
            if let Some((start, end)) = text.projected.original_span(m.start(), m.end()) {
                out.push(WordMatch {
                    pattern: self.index[m.pattern().as_usize()],
                    span: Span {
                        start: start as usize,
                        end: end as usize,
                    },
                });
            }
        }
        sort_by_position(&mut out, |m| (m.span, m.pattern));
        out.dedup();
        out
    }
}

/// Sorts matches by start, then longest first, then pattern: the order
/// [`leftmost_longest`] selects from.
pub fn sort_by_position<T>(all: &mut [T], key: impl Fn(&T) -> (Span, usize)) {
    all.sort_by(|a, b| {
        let ((sa, pa), (sb, pb)) = (key(a), key(b));
        sa.start
            .cmp(&sb.start)
            .then(sb.end.cmp(&sa.end))
            .then(pa.cmp(&pb))
    });
}

/// Leftmost-longest selection without overlaps from matches sorted by
/// (start ascending, end descending).
pub fn leftmost_longest<T: Copy>(sorted: &[T], span: impl Fn(&T) -> Span) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    let mut covered_to = 0usize;
    for m in sorted {
        let s = span(m);
        if !out.is_empty() && s.start < covered_to {
            continue;
        }
        covered_to = s.end;
        out.push(*m);
    }
    out
}

/// Every whole-word, case-insensitive occurrence of `value` in `text`.
pub fn locate(text: &str, value: &str) -> Vec<Span> {
    let folded = FoldedText::new(text);
    WordMatcher::new(&[value])
        .find_all(&folded)
        .into_iter()
        .map(|m| m.span)
        .collect()
}

/// Byte offsets of every character of a text, so code-point spans slice in O(1).
pub struct CharIndex {
    /// Byte offset of each char, plus the text's length at the end.
    starts: Vec<usize>,
}

impl CharIndex {
    pub fn new(text: &str) -> Self {
        let mut starts: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
        starts.push(text.len());
        CharIndex { starts }
    }

    /// Number of characters.
    pub fn len(&self) -> usize {
        self.starts.len() - 1
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The text of a non-empty code-point span, if it lies inside the text.
    pub fn slice<'a>(&self, text: &'a str, span: Span) -> Option<&'a str> {
        if span.start >= span.end || span.end > self.len() {
            return None;
        }
        text.get(self.starts[span.start]..self.starts[span.end])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spans(text: &str, value: &str) -> Vec<(usize, usize)> {
        locate(text, value)
            .into_iter()
            .map(|s| (s.start, s.end))
            .collect()
    }

    #[test]
    fn whole_word_case_insensitive() {
        assert_eq!(
            spans("Boston and BOSTON, not Bostonian", "boston"),
            vec![(0, 6), (11, 17)]
        );
        assert_eq!(spans("Jane Doe's file", "jane doe"), vec![(0, 8)]);
        assert!(spans("JaneDoe", "jane").is_empty());
    }

    #[test]
    fn offsets_are_code_points() {
        // "Zoë Müller" precedes: ë and ü are one code point each.
        let text = "Zoë Müller — Dr. Elise Varga";
        assert_eq!(spans(text, "dr. elise varga"), vec![(13, 28)]);
        assert_eq!(spans(text, "MÜLLER"), vec![(4, 10)]);
    }

    #[test]
    fn numbers_do_not_match_inside_decimals() {
        assert!(spans("threshold 0.75 and 1,075", "75").is_empty());
        assert_eq!(spans("aged 75.", "75"), vec![(5, 7)]);
        assert_eq!(spans("75, retired", "75"), vec![(0, 2)]);
    }

    #[test]
    fn leftmost_longest_prefers_longer_at_same_start() {
        let text = FoldedText::new("Dr. Elise Varga saw Elise");
        let m = WordMatcher::new(&["Elise", "Dr. Elise Varga", "Elise Varga"]);
        let all = m.find_all(&text);
        let chosen = leftmost_longest(&all, |m| m.span);
        let got: Vec<_> = chosen
            .iter()
            .map(|m| (m.pattern, m.span.start, m.span.end))
            .collect();
        assert_eq!(got, vec![(1, 0, 15), (0, 20, 25)]);
    }

    #[test]
    fn terminal_escape_sequences_are_word_boundaries() {
        let text = "\u{1b}[1;31mPriya Raman\u{1b}[0m and \u{1b}]0;x\u{7}Priya Raman\u{9b}2Jok";
        assert_eq!(spans(text, "priya raman"), vec![(7, 18), (33, 44)]);
        // Without an escape, a glued letter still prevents the match.
        assert!(spans("mPriya Raman", "priya raman").is_empty());
        // An escape sequence's own letters never match.
        assert!(spans("\u{1b}[31m", "m").is_empty());
    }

    #[test]
    fn invisible_format_characters_are_skipped_by_matching() {
        // ZWJ and ZWSP inside, a bidi override around: spans cover the original chars.
        let text = "Ms. Pri\u{200d}ya Ra\u{200b}man and \u{202e}Priya Raman\u{202c}.";
        assert_eq!(spans(text, "priya raman"), vec![(4, 17), (23, 34)]);
        // A value with a soft hyphen finds the plain spelling, and vice versa.
        assert_eq!(spans("Jonathan", "Jona\u{ad}than"), vec![(0, 8)]);
        assert_eq!(spans("Jona\u{ad}than W.", "jonathan"), vec![(0, 9)]);
        // A zero-width space does not make a word boundary inside a visible word.
        assert!(spans("John\u{200b}Smith", "john").is_empty());
        // Only ignorable characters: nothing to find.
        assert!(spans("a \u{200d} b", "\u{200d}").is_empty());
    }

    #[test]
    fn char_index_slices_code_point_spans() {
        let text = "Zoë x";
        let idx = CharIndex::new(text);
        assert_eq!(idx.len(), 5);
        assert_eq!(idx.slice(text, Span { start: 4, end: 5 }), Some("x"));
        assert_eq!(idx.slice(text, Span { start: 0, end: 3 }), Some("Zoë"));
        assert_eq!(idx.slice(text, Span { start: 0, end: 9 }), None);
        assert_eq!(idx.slice(text, Span { start: 2, end: 2 }), None);
    }
}
