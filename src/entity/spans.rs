//! Span location (SPEC §2): whole-word, case-insensitive occurrences of values in a
//! text, in Unicode code points. Case-insensitivity is Unicode simple case folding
//! (one character to one character), so offsets in the folded text map one-to-one
//! onto the original's characters.
//!
//! Word boundary: the neighbouring character is not alphanumeric. One refinement: a
//! value that starts (ends) with a digit does not match right after (before) a
//! decimal or thousands separator that itself touches a digit, so the age "75" is
//! not found inside "0.75" or "1,075".

use aho_corasick::{AhoCorasick, MatchKind};

use crate::extract::Span;

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

/// A text prepared for matching: its folded form and the byte offset of every char.
pub struct FoldedText {
    folded: String,
    chars: Vec<char>,
    /// Byte offset in `folded` of each char, plus the total length at the end.
    byte_starts: Vec<usize>,
    /// Chars that belong to a terminal escape sequence, when the text has any: they
    /// are word boundaries, so "\x1b[31mPriya" still shows (and matches) "Priya".
    in_escape: Option<Vec<bool>>,
    /// Original char index of each visible char, when the text has ignorable ones.
    original: Option<Vec<usize>>,
}

/// Marks the characters of ECMA-48 escape sequences: CSI (`ESC [` or U+009B, then
/// parameters and one final byte), string controls (OSC, DCS, SOS, PM, APC up to BEL
/// or ST) and two-character escapes.
fn escape_sequences(text: &str) -> Option<Vec<bool>> {
    // ESC, or the lead byte of U+0090..U+00BF (the C1 introducers among them).
    let bytes = text.as_bytes();
    if !bytes.contains(&0x1b) && !bytes.contains(&0xc2) {
        return None;
    }
    let chars: Vec<char> = text.chars().collect();
    let mut marks = vec![false; chars.len()];
    let mut i = 0;
    while i < chars.len() {
        let (csi, string) = match (chars[i], chars.get(i + 1)) {
            ('\u{1b}', Some('[')) => (Some(i + 2), None),
            ('\u{9b}', _) => (Some(i + 1), None),
            ('\u{1b}', Some(']' | 'P' | 'X' | '^' | '_')) => (None, Some(i + 2)),
            ('\u{9d}' | '\u{90}', _) => (None, Some(i + 1)),
            ('\u{1b}', Some(c)) if (' '..='~').contains(c) => {
                marks[i] = true;
                marks[i + 1] = true;
                i += 2;
                continue;
            }
            _ => {
                i += 1;
                continue;
            }
        };
        let mut j = if let Some(mut j) = csi {
            while j < chars.len() && ('\u{20}'..='\u{3f}').contains(&chars[j]) {
                j += 1;
            }
            if j < chars.len() && ('\u{40}'..='\u{7e}').contains(&chars[j]) {
                j += 1;
            }
            j
        } else {
            let mut j = string.unwrap_or(i + 1);
            while j < chars.len() {
                match (chars[j], chars.get(j + 1)) {
                    ('\u{7}' | '\u{9c}', _) => {
                        j += 1;
                        break;
                    }
                    ('\u{1b}', Some('\\')) => {
                        j += 2;
                        break;
                    }
                    _ => j += 1,
                }
            }
            j
        };
        j = j.min(chars.len());
        for m in &mut marks[i..j] {
            *m = true;
        }
        i = j.max(i + 1);
    }
    Some(marks)
}

/// Invisible format characters a reader does not see: zero-width spaces, joiners and
/// non-joiners, the word joiner and invisible operators, the soft hyphen, the BOM,
/// and the bidirectional marks, embeddings, overrides and isolates. Matching skips
/// them, so "Pri\u{200d}ya" is found (and masked) as "Priya".
pub fn is_ignorable(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{202A}'..='\u{202E}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{FEFF}'
    )
}

/// `s` without its [ignorable](is_ignorable) characters.
pub fn strip_ignorable(s: &str) -> std::borrow::Cow<'_, str> {
    if s.chars().any(is_ignorable) {
        std::borrow::Cow::Owned(s.chars().filter(|&c| !is_ignorable(c)).collect())
    } else {
        std::borrow::Cow::Borrowed(s)
    }
}

impl FoldedText {
    pub fn new(text: &str) -> Self {
        let in_escape = escape_sequences(text);
        let visible = strip_ignorable(text);
        // Original char index of each kept char, when some were skipped.
        let original: Option<Vec<usize>> = match &visible {
            std::borrow::Cow::Borrowed(_) => None,
            std::borrow::Cow::Owned(_) => Some(
                text.chars()
                    .enumerate()
                    .filter(|(_, c)| !is_ignorable(*c))
                    .map(|(i, _)| i)
                    .collect(),
            ),
        };
        let in_escape = match (in_escape, &original) {
            (Some(marks), Some(orig)) => Some(orig.iter().map(|&i| marks[i]).collect()),
            (marks, _) => marks,
        };
        let folded = fold(&visible);
        let mut byte_starts = Vec::with_capacity(folded.len() + 1);
        let mut chars = Vec::with_capacity(folded.len());
        for (i, c) in folded.char_indices() {
            byte_starts.push(i);
            chars.push(c);
        }
        byte_starts.push(folded.len());
        FoldedText {
            folded,
            chars,
            byte_starts,
            in_escape,
            original,
        }
    }

    /// Number of visible (not ignorable) characters.
    pub fn char_len(&self) -> usize {
        self.chars.len()
    }

    fn char_index(&self, byte: usize) -> Option<usize> {
        self.byte_starts.binary_search(&byte).ok()
    }

    /// The original text's span of visible chars `[start, end)`.
    fn original_span(&self, start: usize, end: usize) -> Span {
        match &self.original {
            None => Span { start, end },
            Some(orig) => Span {
                start: orig[start],
                end: orig[end - 1] + 1,
            },
        }
    }

    /// The visible-char index of original char `i` (or of the next visible one).
    fn visible_index(&self, i: usize) -> usize {
        match &self.original {
            None => i,
            Some(orig) => orig.partition_point(|&o| o < i),
        }
    }

    /// Is `[start, end)` (code points of the original text) delimited by word
    /// boundaries? Ignorable characters at either edge do not count.
    pub fn is_whole_word(&self, start: usize, end: usize) -> bool {
        self.is_whole_visible_word(self.visible_index(start), self.visible_index(end))
    }

    fn is_whole_visible_word(&self, start: usize, end: usize) -> bool {
        if start >= end || end > self.chars.len() {
            return false;
        }
        let first = self.chars[start];
        let last = self.chars[end - 1];
        let separator = |c: char| matches!(c, '.' | ',');
        let digit_at = |i: usize| self.chars.get(i).is_some_and(char::is_ascii_digit);
        let escape = |i: usize| {
            self.in_escape
                .as_ref()
                .is_some_and(|m| m.get(i).copied().unwrap_or(false))
        };
        if escape(start) || escape(end - 1) {
            return false;
        }
        let left_ok = start == 0 || escape(start - 1) || {
            let prev = self.chars[start - 1];
            let inside_number =
                first.is_ascii_digit() && separator(prev) && start >= 2 && digit_at(start - 2);
            !prev.is_alphanumeric() && !inside_number
        };
        let right_ok = end == self.chars.len() || escape(end) || {
            let next = self.chars[end];
            let inside_number = last.is_ascii_digit() && separator(next) && digit_at(end + 1);
            !next.is_alphanumeric() && !inside_number
        };
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
    /// Builds a matcher over `values`; empty (after trimming) values never match.
    pub fn new<S: AsRef<str>>(values: &[S]) -> Self {
        let mut patterns = Vec::new();
        let mut index = Vec::new();
        for (i, v) in values.iter().enumerate() {
            let v = v.as_ref();
            let v = strip_ignorable(v);
            if v.trim().is_empty() {
                continue;
            }
            patterns.push(fold(&v));
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
        for m in ac.find_overlapping_iter(&text.folded) {
            let (Some(start), Some(end)) = (text.char_index(m.start()), text.char_index(m.end()))
            else {
                continue;
            };
            if text.is_whole_visible_word(start, end) {
                out.push(WordMatch {
                    pattern: self.index[m.pattern().as_usize()],
                    span: text.original_span(start, end),
                });
            }
        }
        out.sort_by(|a, b| {
            a.span
                .start
                .cmp(&b.span.start)
                .then(b.span.end.cmp(&a.span.end))
                .then(a.pattern.cmp(&b.pattern))
        });
        out
    }
}

/// Leftmost-longest selection without overlaps from matches sorted by
/// (start ascending, end descending).
pub fn leftmost_longest(sorted: &[WordMatch]) -> Vec<WordMatch> {
    let mut out: Vec<WordMatch> = Vec::new();
    let mut covered_to = 0usize;
    for m in sorted {
        if !out.is_empty() && m.span.start < covered_to {
            continue;
        }
        covered_to = m.span.end;
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
        let chosen = leftmost_longest(&all);
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
