//! Redaction (SPEC §5): corpus-wide replacement of masked entities.
//!
//! Matches are every whole-word, case-insensitive occurrence of an original value of
//! a masked entity, plus token sequences whose canonical form equals a masked
//! entity's normalized value: dates (any written form), phone numbers (any
//! separators; also with a `+` country-code prefix, which is stricter than the
//! canonical comparison alone) and ids (any dashes or spaces, any case). Selection is
//! leftmost-longest without overlaps.

use std::collections::{BTreeMap, HashMap};

use aho_corasick::AhoCorasick;
use regex::Regex;
use serde::{Deserialize, Serialize};

use crate::entity::normalize::{DateOrder, canonical_id, parse_date};
use crate::entity::spans::{
    FoldedText, WordMatch, WordMatcher, leftmost_longest, overlapping_automaton,
};
use crate::extract::Span;
use crate::hashing::hmac_hex;
use crate::schema::{Schema, ValueKind, value_kind};

/// Replacement mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// `[REDACTED]`
    Redact,
    /// `[TYPE]`
    #[default]
    Value,
    /// `[TYPE_xxxxxxxxxxxx]`, keyed by the project key.
    Pseudonym,
    /// A per-type phrase ("a person").
    Generalize,
}

impl Mode {
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Redact => "redact",
            Mode::Value => "value",
            Mode::Pseudonym => "pseudonym",
            Mode::Generalize => "generalize",
        }
    }
}

/// A masked entity as the replacer needs it.
#[derive(Debug, Clone, PartialEq)]
pub struct MaskedEntity {
    pub id: String,
    pub entity_type: String,
    pub normalized: String,
    pub originals: Vec<String>,
}

/// A located occurrence of a masked entity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    /// Index into the replacer's entity list.
    pub entity: usize,
    pub span: Span,
}

const MONTH_RE: &str = "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\.?";
const WEEKDAY_RE: &str = "(?:(?:mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)[a-z]*\\.?,?\\s+)?";

/// Finds and replaces the masked entities of a corpus.
pub struct Replacer {
    entities: Vec<MaskedEntity>,
    replacements: Vec<String>,
    words: WordMatcher,
    word_owner: Vec<usize>,
    date_re: Option<Regex>,
    dates: HashMap<String, usize>,
    date_order: DateOrder,
    /// Masked phone numbers by their digits, and ids by their canonical form, found in
    /// one linear pass each (a regex per value would scan every document once per
    /// masked value: quadratic at corpus scale).
    phones: Shaped,
    ids: Shaped,
    /// False when a masked value contains [`PIECE_SEPARATOR`]: then
    /// [`Replacer::find_each`] searches every piece on its own.
    batchable: bool,
}

/// Values of one shape (phone digits, id characters) and who owns them, searched in a
/// projection of the text that drops the separators the shape allows.
struct Shaped {
    automaton: Option<AhoCorasick>,
    owners: Vec<usize>,
}

impl Shaped {
    fn new(keys: Vec<(String, usize)>) -> Self {
        let mut seen = HashMap::new();
        let mut patterns = Vec::new();
        let mut owners = Vec::new();
        for (k, owner) in keys {
            if !k.is_empty() && seen.insert(k.clone(), owner).is_none() {
                patterns.push(k);
                owners.push(owner);
            }
        }
        Shaped {
            automaton: overlapping_automaton(&patterns),
            owners,
        }
    }

    /// Every match in `proj` as (owner, first projected char, last projected char).
    fn find(&self, proj: &Projection) -> Vec<(usize, usize, usize)> {
        let Some(ac) = &self.automaton else {
            return Vec::new();
        };
        ac.find_overlapping_iter(proj.text.as_str())
            .filter_map(|m| {
                let first = proj.char_at_byte(m.start())?;
                let last = proj.char_at_byte(m.end().checked_sub(1)?)?;
                Some((self.owners[m.pattern().as_usize()], first, last))
            })
            .collect()
    }
}

/// The text with allowed separators dropped: each kept char (mapped) remembers the
/// original byte range it came from; a run of more than `max_sep` separators, or a char
/// that is neither kept nor a separator, becomes a barrier no value can cross.
struct Projection {
    text: String,
    /// Per projected char: original byte range.
    origin: Vec<(usize, usize)>,
    /// Byte offset in `text` of each projected char.
    starts: Vec<usize>,
}

const BARRIER: char = '\u{0}';

/// Joins the pieces of [`Replacer::find_each`].
const PIECE_SEPARATOR: char = '\u{0}';

/// Pieces searched together by [`Replacer::find_each`]'s callers.
const BATCH_PIECES: usize = 4096;

impl Projection {
    fn new(
        text: &str,
        keep: impl Fn(char) -> Option<char>,
        is_sep: impl Fn(char) -> bool,
        max_sep: usize,
    ) -> Self {
        let mut p = Projection {
            text: String::with_capacity(text.len()),
            origin: Vec::with_capacity(text.len()),
            starts: Vec::with_capacity(text.len()),
        };
        let mut seps = 0usize;
        let push = |p: &mut Projection, c: char, range: (usize, usize)| {
            p.starts.push(p.text.len());
            p.text.push(c);
            p.origin.push(range);
        };
        for (i, c) in text.char_indices() {
            let range = (i, i + c.len_utf8());
            if let Some(k) = keep(c) {
                seps = 0;
                push(&mut p, k, range);
            } else if is_sep(c) {
                seps += 1;
                if seps == max_sep + 1 {
                    push(&mut p, BARRIER, range);
                }
            } else {
                seps = 0;
                push(&mut p, BARRIER, range);
            }
        }
        p
    }

    fn char_at_byte(&self, b: usize) -> Option<usize> {
        match self.starts.binary_search(&b) {
            Ok(i) => Some(i),
            Err(i) => i.checked_sub(1),
        }
    }
}

/// An id's characters as its canonical form writes them (upper case); dashes and
/// white space are the separators an id may be written with.
fn id_char(c: char) -> Option<char> {
    if c.is_ascii() {
        // The common case without the Unicode tables (same result as below).
        return match c {
            '\t'..='\r' | ' ' | '-' | BARRIER => None,
            _ => Some(c.to_ascii_uppercase()),
        };
    }
    if c.is_whitespace() {
        return None;
    }
    let mut up = c.to_uppercase();
    match (up.next(), up.next()) {
        (Some(u), None) => Some(u),
        _ => Some(c),
    }
}

/// Byte start of a phone match extended over a `(` and a `+` country-code prefix
/// written right before it (`+1 (555) 010-4417` for 5550104417).
fn phone_start(text: &str, start: usize) -> usize {
    let before = &text[..start];
    let mut s = start;
    if before.ends_with('(') {
        s -= 1;
    }
    let head = &text[..s];
    let trimmed = head.trim_end_matches([' ', '.', '-', '\t']);
    if head.len() - trimmed.len() > 2 {
        return s;
    }
    let no_digits = trimmed.trim_end_matches(|c: char| c.is_ascii_digit());
    if trimmed.len() - no_digits.len() <= 3 && no_digits.ends_with('+') {
        return no_digits.len() - 1;
    }
    s
}

impl Replacer {
    pub fn new(
        entities: Vec<MaskedEntity>,
        mode: Mode,
        schema: &Schema,
        project_key: &[u8],
        date_order: DateOrder,
    ) -> Self {
        let replacements = replacement_texts(&entities, mode, schema, project_key);
        let mut values = Vec::new();
        let mut word_owner = Vec::new();
        let mut dates = HashMap::new();
        let mut phone_keys = Vec::new();
        let mut id_keys = Vec::new();
        for (i, e) in entities.iter().enumerate() {
            for o in &e.originals {
                values.push(o.clone());
                word_owner.push(i);
            }
            // The normalized value itself is also a surface form (snapshots, edits).
            values.push(e.normalized.clone());
            word_owner.push(i);
            let kind = value_kind(&e.entity_type);
            if kind == ValueKind::Date && parse_date(&e.normalized, DateOrder::Ymd).is_some() {
                dates.entry(e.normalized.clone()).or_insert(i);
            }
            match kind {
                ValueKind::Phone => {
                    let digits: String =
                        e.normalized.chars().filter(char::is_ascii_digit).collect();
                    if digits.len() >= 5 {
                        phone_keys.push((digits, i));
                    }
                }
                ValueKind::Id if e.normalized.chars().count() >= 2 => {
                    let key: String = e.normalized.chars().filter_map(id_char).collect();
                    id_keys.push((key, i));
                }
                _ => {}
            }
        }
        let date_re = (!dates.is_empty())
            .then(|| {
                Regex::new(&format!(
                    "(?i)\\d{{1,4}}[/.\\-]\\d{{1,2}}[/.\\-]\\d{{2,4}}|{WEEKDAY_RE}\\d{{1,2}}(?:st|nd|rd|th)?\\s+(?:of\\s+)?{MONTH_RE},?\\s+\\d{{4}}|{WEEKDAY_RE}{MONTH_RE}\\s+\\d{{1,2}}(?:st|nd|rd|th)?,?\\s+\\d{{4}}"
                ))
                .ok()
            })
            .flatten();
        Replacer {
            batchable: !values.iter().any(|v| v.contains(PIECE_SEPARATOR)),
            words: WordMatcher::new(&values),
            word_owner,
            entities,
            replacements,
            date_re,
            dates,
            date_order,
            phones: Shaped::new(phone_keys),
            ids: Shaped::new(id_keys),
        }
    }

    pub fn entities(&self) -> &[MaskedEntity] {
        &self.entities
    }

    /// The replacement text of entity `i`.
    pub fn replacement(&self, i: usize) -> &str {
        &self.replacements[i]
    }

    /// Every occurrence of a masked entity in `text`, leftmost-longest, no overlaps.
    pub fn find(&self, text: &str) -> Vec<Hit> {
        select(self.candidates(text))
    }

    /// Every occurrence of a masked entity in `text`, overlapping ones included (a value
    /// inside a longer one is found too), ordered by start, then longest first.
    pub fn find_overlapping(&self, text: &str) -> Vec<Hit> {
        let mut all = self.candidates(text);
        sort_matches(&mut all);
        all.dedup();
        all.into_iter()
            .map(|m| Hit {
                entity: m.pattern,
                span: m.span,
            })
            .collect()
    }

    /// The word, date and shaped matches before selection (`pattern` = entity index).
    fn candidates(&self, text: &str) -> Vec<WordMatch> {
        if self.entities.is_empty() || text.is_empty() {
            return Vec::new();
        }
        let folded = FoldedText::new(text);
        let mut all: Vec<WordMatch> = self
            .words
            .find_all(&folded)
            .into_iter()
            .map(|m| WordMatch {
                pattern: self.word_owner[m.pattern],
                span: m.span,
            })
            .collect();
        if self.date_re.is_none() && self.phones.automaton.is_none() && self.ids.automaton.is_none()
        {
            return all;
        }
        let char_of = CharStarts::new(text);
        let mut push = |start_b: usize, end_b: usize, owner: usize| {
            let (Some(s), Some(e)) = (char_of.char_at(start_b), char_of.char_at(end_b)) else {
                return;
            };
            if folded.is_whole_word(s, e) {
                all.push(WordMatch {
                    pattern: owner,
                    span: Span { start: s, end: e },
                });
            }
        };
        if let Some(re) = &self.date_re {
            for m in re.find_iter(text) {
                if let Some(iso) = parse_date(m.as_str(), self.date_order)
                    && let Some(&owner) = self.dates.get(&iso)
                {
                    push(m.start(), m.end(), owner);
                }
            }
        }
        if self.phones.automaton.is_some() {
            let proj = Projection::new(
                text,
                |c| c.is_ascii_digit().then_some(c),
                |c| c.is_whitespace() || matches!(c, '(' | ')' | '.' | '-'),
                3,
            );
            for (owner, first, last) in self.phones.find(&proj) {
                let start = phone_start(text, proj.origin[first].0);
                push(start, proj.origin[last].1, owner);
            }
        }
        if self.ids.automaton.is_some() {
            let proj = Projection::new(text, id_char, |c| c.is_whitespace() || c == '-', 1);
            for (owner, first, last) in self.ids.find(&proj) {
                let (start, end) = (proj.origin[first].0, proj.origin[last].1);
                if canonical_id(&text[start..end]) == self.entities[owner].normalized {
                    push(start, end, owner);
                }
            }
        }
        all
    }

    /// `text` with every occurrence replaced.
    pub fn replace(&self, text: &str) -> String {
        let hits = self.find(text);
        if hits.is_empty() {
            return text.to_string();
        }
        self.apply(text, &hits)
    }

    /// The hits of each piece, exactly as [`Replacer::find`] gives them for that piece
    /// alone. The pieces are searched in one pass, joined by NUL, which no value, date,
    /// phone or id crosses (it is neither a word character nor a separator), so many
    /// short strings cost one search instead of one each. A piece that holds NUL, ESC
    /// or a C1 lead byte (escape sequences are read across characters) is searched
    /// alone, and so is every piece when a masked value itself contains NUL (found by
    /// fuzzing).
    pub fn find_each(&self, pieces: &[&str]) -> Vec<Vec<Hit>> {
        let mut out: Vec<Vec<Hit>> = vec![Vec::new(); pieces.len()];
        if self.entities.is_empty() {
            return out;
        }
        if !self.batchable {
            return pieces.iter().map(|p| self.find(p)).collect();
        }
        let mut joined = String::with_capacity(pieces.iter().map(|p| p.len() + 1).sum());
        // (first char of the piece in `joined`, piece index), ascending.
        let mut starts: Vec<(usize, usize)> = Vec::with_capacity(pieces.len());
        let mut chars = 0usize;
        for (i, p) in pieces.iter().enumerate() {
            if p.is_empty() {
                continue;
            }
            if p.bytes().any(|b| matches!(b, 0 | 0x1b | 0xc2)) {
                out[i] = self.find(p);
                continue;
            }
            starts.push((chars, i));
            joined.push_str(p);
            joined.push(PIECE_SEPARATOR);
            chars += p.chars().count() + 1;
        }
        for h in self.find(&joined) {
            let k = starts.partition_point(|(s, _)| *s <= h.span.start);
            let Some(&(first, i)) = k.checked_sub(1).and_then(|k| starts.get(k)) else {
                continue;
            };
            out[i].push(Hit {
                entity: h.entity,
                span: Span {
                    start: h.span.start - first,
                    end: h.span.end - first,
                },
            });
        }
        out
    }

    /// `text` with every occurrence replaced, one line at a time (the unit the leak
    /// check scans), lines searched in batches: a long text never needs its
    /// whole-text indices at once.
    pub fn replace_lines(&self, text: &str) -> String {
        use rayon::prelude::*;
        let lines: Vec<&str> = text.split_inclusive('\n').collect();
        // Batches of lines on every core, concatenated in order.
        let parts: Vec<String> = lines
            .par_chunks(BATCH_PIECES)
            .map(|batch| {
                let mut out = String::new();
                // The line break stays outside the searched piece, as in a line scan.
                let bodies: Vec<&str> = batch
                    .iter()
                    .map(|l| l.strip_suffix('\n').unwrap_or(l))
                    .collect();
                for ((line, body), hits) in batch.iter().zip(&bodies).zip(self.find_each(&bodies)) {
                    if hits.is_empty() {
                        out.push_str(line);
                    } else {
                        out.push_str(&self.apply(body, &hits));
                        out.push_str(&line[body.len()..]);
                    }
                }
                out
            })
            .collect();
        let mut out = String::with_capacity(text.len());
        for p in parts {
            out.push_str(&p);
        }
        out
    }

    /// Replaces inside every string of a JSON value in place (keys are left alone);
    /// strings without a hit are not copied.
    pub fn replace_json_in_place(&self, value: &mut serde_json::Value) {
        self.replace_json_slice_in_place(std::slice::from_mut(value));
    }

    /// [`Replacer::replace_json_in_place`] for many values, their strings searched in
    /// batches ([`Replacer::find_each`]).
    pub fn replace_json_slice_in_place(&self, values: &mut [serde_json::Value]) {
        fn strings<'v>(v: &'v mut serde_json::Value, out: &mut Vec<&'v mut String>) {
            use serde_json::Value;
            match v {
                Value::String(s) => out.push(s),
                Value::Array(a) => a.iter_mut().for_each(|x| strings(x, out)),
                Value::Object(o) => o.iter_mut().for_each(|(_, x)| strings(x, out)),
                _ => {}
            }
        }
        let mut all: Vec<&mut String> = Vec::new();
        for v in values.iter_mut() {
            strings(v, &mut all);
        }
        for batch in all.chunks_mut(BATCH_PIECES) {
            let hits = {
                let pieces: Vec<&str> = batch.iter().map(|s| s.as_str()).collect();
                self.find_each(&pieces)
            };
            for (s, h) in batch.iter_mut().zip(hits) {
                if !h.is_empty() {
                    **s = self.apply(s, &h);
                }
            }
        }
    }

    fn apply(&self, text: &str, hits: &[Hit]) -> String {
        let mut out = String::with_capacity(text.len());
        let mut hit_iter = hits.iter().peekable();
        let mut skip_until = 0usize;
        for (ci, ch) in text.chars().enumerate() {
            if ci < skip_until {
                continue;
            }
            if let Some(h) = hit_iter.peek()
                && h.span.start == ci
            {
                out.push_str(&self.replacements[h.entity]);
                skip_until = h.span.end;
                hit_iter.next();
                continue;
            }
            out.push(ch);
        }
        out
    }

    /// Replaces inside every string of a JSON value (keys are left alone).
    pub fn replace_json(&self, value: &serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match value {
            Value::String(s) => Value::String(self.replace(s)),
            Value::Array(a) => Value::Array(a.iter().map(|v| self.replace_json(v)).collect()),
            Value::Object(o) => Value::Object(
                o.iter()
                    .map(|(k, v)| (k.clone(), self.replace_json(v)))
                    .collect(),
            ),
            other => other.clone(),
        }
    }
}

/// Leftmost-longest selection of word, date and shaped matches, as hits.
fn select(mut all: Vec<WordMatch>) -> Vec<Hit> {
    sort_matches(&mut all);
    leftmost_longest(&all)
        .into_iter()
        .map(|m| Hit {
            entity: m.pattern,
            span: m.span,
        })
        .collect()
}

/// By start, then longest first, then entity index.
fn sort_matches(all: &mut [WordMatch]) {
    all.sort_by(|a, b| {
        a.span
            .start
            .cmp(&b.span.start)
            .then(b.span.end.cmp(&a.span.end))
            .then(a.pattern.cmp(&b.pattern))
    });
}

/// Byte offset → code-point index for the regex matches (sorted offsets and a binary
/// search: a hash map per call made large documents and line-by-line leak checks slow).
struct CharStarts(Vec<usize>);

impl CharStarts {
    fn new(text: &str) -> Self {
        let mut starts: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
        starts.push(text.len());
        CharStarts(starts)
    }

    fn char_at(&self, byte: usize) -> Option<usize> {
        self.0.binary_search(&byte).ok()
    }
}

/// Pseudonym hex of an entity: HMAC-SHA256(project key, entity_id).
pub fn pseudonym_hex(project_key: &[u8], entity_id: &str) -> String {
    hmac_hex(project_key, entity_id)
}

fn replacement_texts(
    entities: &[MaskedEntity],
    mode: Mode,
    schema: &Schema,
    key: &[u8],
) -> Vec<String> {
    match mode {
        Mode::Redact => entities.iter().map(|_| "[REDACTED]".to_string()).collect(),
        Mode::Value => entities
            .iter()
            .map(|e| format!("[{}]", e.entity_type))
            .collect(),
        Mode::Generalize => entities
            .iter()
            .map(|e| schema.phrase(&e.entity_type))
            .collect(),
        Mode::Pseudonym => {
            let full: Vec<String> = entities.iter().map(|e| pseudonym_hex(key, &e.id)).collect();
            // 12 hex digits, lengthened for entities whose prefixes collide.
            let mut len = vec![12usize; entities.len()];
            loop {
                let mut groups: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
                for (i, h) in full.iter().enumerate() {
                    groups.entry(&h[..len[i]]).or_default().push(i);
                }
                let mut changed = false;
                for members in groups.values().filter(|m| m.len() > 1) {
                    for &i in members {
                        if len[i] < full[i].len() {
                            len[i] += 1;
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            entities
                .iter()
                .enumerate()
                .map(|(i, e)| format!("[{}_{}]", e.entity_type, &full[i][..len[i]]))
                .collect()
        }
    }
}

/// A masked entity built from literals (tests of the replacer and its users).
#[cfg(test)]
pub(crate) fn test_masked(id: &str, t: &str, norm: &str, originals: &[&str]) -> MaskedEntity {
    MaskedEntity {
        id: id.into(),
        entity_type: t.into(),
        normalized: norm.into(),
        originals: originals.iter().map(|s| s.to_string()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::test_masked as masked;

    fn replacer(mode: Mode) -> Replacer {
        Replacer::new(
            vec![
                masked(
                    "a1",
                    "NAME",
                    "priya raman",
                    &["Priya Raman", "Raman, Priya", "Ms. Raman"],
                ),
                masked("b2", "BIRTHDATE", "1968-03-14", &["03/14/1968"]),
                masked("c3", "PATIENT_ID", "MBR448213", &["MBR-448213"]),
                masked("d4", "PHONE_NUMBER", "5550104417", &["(555) 010-4417"]),
            ],
            mode,
            &Schema::default(),
            b"project key",
            DateOrder::Mdy,
        )
    }

    #[test]
    fn replaces_originals_and_variants_corpus_wide() {
        let r = replacer(Mode::Value);
        let text = "Member RAMAN, PRIYA (mbr 448213), born 14 March 1968, call +1 555.010.4417. Priya Ramanujan is someone else.";
        assert_eq!(
            r.replace(text),
            "Member [NAME] ([PATIENT_ID]), born [BIRTHDATE], call [PHONE_NUMBER]. Priya Ramanujan is someone else."
        );
    }

    #[test]
    fn leftmost_longest_and_multibyte() {
        let r = replacer(Mode::Redact);
        assert_eq!(
            r.replace("Zoë saw Ms. Raman — Priya Raman."),
            "Zoë saw [REDACTED] — [REDACTED]."
        );
    }

    #[test]
    fn modes() {
        let text = "Priya Raman";
        assert_eq!(replacer(Mode::Generalize).replace(text), "a person");
        let p = replacer(Mode::Pseudonym).replace(text);
        assert!(
            p.starts_with("[NAME_") && p.len() == "[NAME_]".len() + 12,
            "{p}"
        );
        assert_eq!(p, replacer(Mode::Pseudonym).replace("priya raman"));
        let other_key = Replacer::new(
            vec![masked("a1", "NAME", "priya raman", &["Priya Raman"])],
            Mode::Pseudonym,
            &Schema::default(),
            b"another key",
            DateOrder::Mdy,
        );
        assert_ne!(p, other_key.replace(text));
    }

    #[test]
    fn overlapping_hits_include_values_inside_longer_ones() {
        let r = Replacer::new(
            vec![
                masked(
                    "h",
                    "PROVIDER",
                    "fenwick falls hospital",
                    &["Fenwick Falls Hospital"],
                ),
                masked("l", "LOCATION", "fenwick falls", &["Fenwick Falls"]),
            ],
            Mode::Value,
            &Schema::default(),
            b"k",
            DateOrder::Mdy,
        );
        let text = "Seen at Fenwick Falls Hospital.";
        assert_eq!(r.find(text).len(), 1);
        let all: Vec<(usize, usize, usize)> = r
            .find_overlapping(text)
            .iter()
            .map(|h| (h.entity, h.span.start, h.span.end))
            .collect();
        assert_eq!(all, vec![(0, 8, 30), (1, 8, 21)]);
    }

    #[test]
    fn unrelated_numbers_survive() {
        let r = replacer(Mode::Value);
        let text = "Claim 03/15/1968, amount 5550104418, id MBR4482139.";
        assert_eq!(r.replace(text), text);
    }

    #[test]
    fn a_masked_value_with_nul_never_matches_between_pieces() {
        // Found by the `redact` fuzz target: the value "\0" matched the separator of
        // the joined pieces.
        let r = Replacer::new(
            vec![masked("n1", "NAME", "\0", &["\0"])],
            Mode::Value,
            &Schema::default(),
            b"k",
            DateOrder::Mdy,
        );
        let pieces = ["P;", "x", "a\0b"];
        let each = r.find_each(&pieces);
        for (p, hits) in pieces.iter().zip(&each) {
            assert_eq!(hits, &r.find(p), "piece {p:?}");
        }
    }

    #[test]
    fn pieces_searched_together_give_each_piece_its_own_hits() {
        let r = replacer(Mode::Value);
        let pieces = [
            "Priya",
            "Raman called (555) 010-",
            "4417 about MBR-448213",
            "",
            "born 03/14/",
            "1968 — Zoë met Priya Raman",
            "\u{1b}[31mPriya Raman\u{1b}[0m",
            "tab\tPriya\u{200d} Raman° and mbr 448213",
            "0.5550104417",
            "Raman, Priya; Ms. Raman",
        ];
        let each = r.find_each(&pieces);
        for (p, hits) in pieces.iter().zip(&each) {
            assert_eq!(hits, &r.find(p), "piece {p:?}");
        }
        // Nothing is found across two pieces.
        assert!(each[0].is_empty() && each[1].is_empty() && each[2].len() == 1);
        let text = "Priya Raman\nMBR-448213 and\n(555) 010-4417\nnothing\n";
        assert_eq!(
            r.replace_lines(text),
            "[NAME]\n[PATIENT_ID] and\n[PHONE_NUMBER]\nnothing\n"
        );
        let mut v =
            serde_json::json!({"a": ["Priya Raman", 3, {"b": "call (555) 010-4417"}], "c": "kept"});
        r.replace_json_in_place(&mut v);
        assert_eq!(
            v,
            serde_json::json!({"a": ["[NAME]", 3, {"b": "call [PHONE_NUMBER]"}], "c": "kept"})
        );
    }
}
