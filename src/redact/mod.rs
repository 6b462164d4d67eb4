//! Redaction (SPEC §5): corpus-wide replacement of masked entities.
//!
//! Matching reads the text's [projection](crate::text), cut into tokens ([`scan`]):
//! a masked value is found as a whole-token sequence however its white space,
//! invisible characters, width, look-alike letters, accents and case are written,
//! whatever punctuation parts its tokens, and a name also family name first or run
//! together; phones and ids with any separators between their characters; dates in
//! any common written form, read in every order ([`dates`]). Selection is
//! leftmost-longest without overlaps; the replaced span is the whole original span.

mod dates;
mod generalize;
mod scan;

use std::collections::{BTreeMap, HashMap};

use aho_corasick::AhoCorasick;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::entity::Span;
use crate::entity::spans::{leftmost_longest, overlapping_automaton, sort_by_position};
use crate::hashing::hmac_hex;
use crate::schema::{Schema, ValueKind, value_kind};
use crate::text::address::canonical_token;
use crate::text::has_hyphen_break;
use dates::Dates;
use generalize::Generalizer;
use scan::Scan;

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

/// Finds and replaces the masked entities of a corpus.
pub struct Replacer {
    entities: Vec<MaskedEntity>,
    replacements: Vec<String>,
    /// Word-view needles and their owners.
    words: WordNeedles,
    /// Compact-view needles (phones and ids without separators) and their owners.
    compact: Option<AhoCorasick>,
    compact_owner: Vec<usize>,
    dates: Option<Dates>,
    /// The `generalize` mode's replacements, fitted to the words around each hit.
    generalizer: Option<Generalizer>,
}

/// Entities whose needles are made at a time (on every core).
const NEEDLE_BLOCK: usize = 1 << 15;

/// Makes `make(e)` for every masked entity on every core, a block of entities at a
/// time (so it is never held for all of them at once), and hands each result to
/// `take` in entity order, with the entity's index: the replacer's and the leak
/// check's needles, whose owner is the first entity to have them.
pub(crate) fn in_entity_order<'a, N: Send>(
    entities: &'a [MaskedEntity],
    make: impl Fn(&MaskedEntity) -> N + Sync,
    mut take: impl FnMut(usize, &'a MaskedEntity, N),
) {
    use rayon::prelude::*;
    for (b, block) in entities.chunks(NEEDLE_BLOCK).enumerate() {
        let made: Vec<N> = block.par_iter().map(&make).collect();
        for (j, (e, n)) in block.iter().zip(made).enumerate() {
            take(b * NEEDLE_BLOCK + j, e, n);
        }
    }
}

/// Pieces searched together by [`Replacer::find_each`]'s callers.
const BATCH_PIECES: usize = 4096;

/// The word-view needles of one masked entity, as token sequences: every original and
/// the normalized value; for a name of two or more tokens also the family name first
/// ("Marlowe, Edith"), and the tokens run together either way ("EdithMarlowe.txt").
fn word_needles(e: &MaskedEntity) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut push = |toks: Vec<String>| {
        if !toks.is_empty() {
            out.push(toks);
        }
    };
    for v in e.originals.iter().chain(std::iter::once(&e.normalized)) {
        push(scan::value_tokens(v));
    }
    if value_kind(&e.entity_type) == ValueKind::Name {
        let toks = scan::value_tokens(&e.normalized);
        if toks.len() >= 2 {
            let mut reversed = vec![toks[toks.len() - 1].clone()];
            reversed.extend_from_slice(&toks[..toks.len() - 1]);
            push(reversed);
            // Run together, the words are one token of the text, canonicalized as a
            // whole: joined as written, not as their street-suffix spellings ("Cove"
            // is "cv" alone, but "CoveBabab" is "covebabab").
            let words: Vec<String> = e
                .normalized
                .split_whitespace()
                .map(scan::value_compact)
                .filter(|w| !w.is_empty())
                .collect();
            if let Some((last, rest)) = words.split_last() {
                for joined in [words.concat(), format!("{last}{}", rest.concat())] {
                    push(vec![canonical_token(&joined).to_string()]);
                }
            }
        }
    }
    out
}

/// The word-view needles of every masked entity, found as whole-token sequences of
/// the text: each token of a needle is numbered, and a needle is the sequence of its
/// tokens' numbers. A text is read token by token, each looked up once; a sequence is
/// looked up only while every token in it is some needle's. Held this way the needles
/// of a million masked entities take a fraction of what an automaton over their
/// text took to build (SPEC §5's matching is unchanged: the tokens are the word
/// view's). The leak check numbers its tokens the same way in code of its own: SPEC
/// §5 has it share no matching code with the redactor.
#[derive(Default)]
struct WordNeedles {
    /// Token → its number (from 1; 0 is no needle's token).
    vocab: FxHashMap<Box<str>, u32>,
    /// Token numbers of a needle → the first entity to have it.
    owner: FxHashMap<SmallVec<[u32; 4]>, u32>,
    /// Tokens in the longest needle.
    longest: usize,
}

impl WordNeedles {
    /// Adds needle `tokens` of entity `i`; when another entity added it first, returns
    /// that entity and adds nothing.
    fn add(&mut self, tokens: Vec<String>, i: usize) -> Option<usize> {
        let ids: SmallVec<[u32; 4]> = tokens
            .into_iter()
            .map(|t| {
                let n = self.vocab.len() as u32 + 1;
                *self.vocab.entry(t.into_boxed_str()).or_insert(n)
            })
            .collect();
        self.longest = self.longest.max(ids.len());
        match self.owner.entry(ids) {
            std::collections::hash_map::Entry::Occupied(o) => Some(*o.get() as usize),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(i as u32);
                None
            }
        }
    }

    /// Every needle of `scan`'s word view: `(first token, last token, owner)`.
    fn find(&self, scan: &Scan, mut push: impl FnMut(usize, usize, usize)) {
        if self.owner.is_empty() {
            return;
        }
        let ids: Vec<u32> = (0..scan.toks.len())
            .map(|k| self.vocab.get(scan.token(k)).copied().unwrap_or(0))
            .collect();
        for k in 0..ids.len() {
            if ids[k] == 0 {
                continue;
            }
            let piece = scan.toks[k].piece;
            for l in k..ids.len().min(k + self.longest) {
                if ids[l] == 0 || scan.toks[l].piece != piece {
                    break;
                }
                if let Some(&owner) = self.owner.get(&ids[k..=l]) {
                    push(k, l, owner as usize);
                }
            }
        }
    }
}

/// The compact-view needles of a masked phone (its digits; without the country code
/// written after a '+', also with a trunk 0) or id (its letters and digits).
fn compact_needles(e: &MaskedEntity) -> Vec<String> {
    let mut out = Vec::new();
    match value_kind(&e.entity_type) {
        ValueKind::Phone => {
            let digits: String = e.normalized.chars().filter(char::is_ascii_digit).collect();
            if digits.len() >= 5 {
                out.push(digits.clone());
            }
            if e.normalized.starts_with('+') {
                for cc in country_codes(e, &digits) {
                    let national = &digits[cc..];
                    if national.len() >= 7 {
                        out.push(national.to_string());
                        out.push(format!("0{national}"));
                    }
                }
            }
        }
        ValueKind::Id if e.normalized.chars().count() >= 2 => {
            for v in e.originals.iter().chain(std::iter::once(&e.normalized)) {
                let c = scan::value_compact(v);
                if c.chars().count() >= 2 {
                    out.push(c);
                }
            }
        }
        _ => {}
    }
    out
}

/// Lengths of the country code of an international phone: the digits written right
/// after the '+' in an original, or 1 for an 11-digit North American number.
fn country_codes(e: &MaskedEntity, digits: &str) -> Vec<usize> {
    let mut out: Vec<usize> = e
        .originals
        .iter()
        .filter_map(|o| {
            let rest = o.trim_start().strip_prefix('+')?;
            let n = rest.chars().take_while(char::is_ascii_digit).count();
            (1..=3).contains(&n).then_some(n)
        })
        .collect();
    if digits.len() == 11 && digits.starts_with('1') {
        out.push(1);
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Needles in the order they were first added, each with the entity that added it.
#[derive(Default)]
struct NeedleSet {
    needles: Vec<String>,
    owner: Vec<usize>,
    seen: HashMap<String, usize>,
}

impl NeedleSet {
    /// Adds needle `n` of entity `i`; when another entity added it first, returns that
    /// entity and adds nothing.
    fn add(&mut self, n: String, i: usize) -> Option<usize> {
        if let Some(&first) = self.seen.get(&n) {
            return Some(first);
        }
        self.seen.insert(n.clone(), i);
        self.needles.push(n);
        self.owner.push(i);
        None
    }
}

impl Replacer {
    pub fn new(
        entities: Vec<MaskedEntity>,
        mode: Mode,
        schema: &Schema,
        project_key: &[u8],
    ) -> Self {
        let mut words = WordNeedles::default();
        let mut compact = NeedleSet::default();
        // A needle two entities share belongs to the first; the two are one written
        // form, so they are grouped (one pseudonym, see `Groups`).
        let mut groups = Groups::new(entities.len());
        let mut seen_dates: HashMap<&str, usize> = HashMap::new();
        // Which entity a shared needle belongs to depends on the order they are taken in.
        in_entity_order(
            &entities,
            |e| (word_needles(e), compact_needles(e)),
            |i, e, (word_needles, compact_needles)| {
                for n in word_needles {
                    if let Some(first) = words.add(n, i) {
                        groups.join(first, i);
                    }
                }
                for n in compact_needles {
                    if let Some(first) = compact.add(n, i) {
                        groups.join(first, i);
                    }
                }
                if value_kind(&e.entity_type) == ValueKind::Date {
                    match seen_dates.get(e.normalized.as_str()) {
                        Some(&first) => groups.join(first, i),
                        None => {
                            seen_dates.insert(&e.normalized, i);
                        }
                    }
                }
            },
        );
        let replacements = replacement_texts(&entities, mode, schema, project_key, &mut groups);
        let dates = Dates::new(
            entities
                .iter()
                .enumerate()
                .filter(|(_, e)| value_kind(&e.entity_type) == ValueKind::Date)
                .map(|(i, e)| (i, e.normalized.as_str())),
        );
        let generalizer = (mode == Mode::Generalize).then(|| Generalizer::new(&entities, schema));
        // The needles' index (a copy of every needle) is not needed to build the
        // automaton: let go of it first.
        compact.seen = HashMap::new();
        Replacer {
            generalizer,
            words,
            compact: overlapping_automaton(&compact.needles),
            compact_owner: compact.owner,
            dates,
            entities,
            replacements,
        }
    }

    pub fn entities(&self) -> &[MaskedEntity] {
        &self.entities
    }

    /// The masked entities, the replacer let go.
    pub fn into_entities(self) -> Vec<MaskedEntity> {
        self.entities
    }

    /// The replacement text of entity `i`.
    pub fn replacement(&self, i: usize) -> &str {
        &self.replacements[i]
    }

    /// Every occurrence of a masked entity in `text`, leftmost-longest, no overlaps.
    pub fn find(&self, text: &str) -> Vec<Hit> {
        self.find_each(&[text]).pop().unwrap_or_default()
    }

    /// Every occurrence of a masked entity in `text`, overlapping ones included (a value
    /// inside a longer one is found too), ordered by start, then longest first.
    pub fn find_overlapping(&self, text: &str) -> Vec<Hit> {
        let mut all = self.candidates(&[text]).pop().unwrap_or_default();
        sort_by_position(&mut all, |h| (h.span, h.entity));
        all.dedup();
        all
    }

    /// The hits of each piece, exactly as [`Replacer::find`] gives them for that piece
    /// alone: the pieces are searched in one pass, parted by a barrier no match
    /// crosses, so many short strings cost one search instead of one each.
    pub fn find_each(&self, pieces: &[&str]) -> Vec<Vec<Hit>> {
        self.candidates(pieces)
            .into_iter()
            .zip(pieces)
            .map(|(mut all, piece)| {
                self.extend_phones(piece, &mut all);
                sort_by_position(&mut all, |h| (h.span, h.entity));
                leftmost_longest(&all, |h| h.span)
            })
            .collect()
    }

    /// A phone's span extended over a `(` and a `+` country-code prefix written right
    /// before it (`+1 (555) 010-4417` for 5550104417).
    fn extend_phones(&self, text: &str, hits: &mut [Hit]) {
        let phone = |h: &Hit| value_kind(&self.entities[h.entity].entity_type) == ValueKind::Phone;
        if !hits.iter().any(phone) {
            return;
        }
        let starts: Vec<usize> = text.char_indices().map(|(b, _)| b).collect();
        for h in hits.iter_mut().filter(|h| phone(h)) {
            let Some(&b) = starts.get(h.span.start) else {
                continue;
            };
            let s = phone_start(text, b);
            if s < b {
                h.span.start = starts.partition_point(|&x| x < s);
            }
        }
    }

    /// Every candidate match of each piece, before selection. A piece with a hyphen
    /// before a line break is read twice: wraps joined ("Mar-⏎lowe") and not
    /// ("Marlowe-⏎Smith").
    fn candidates(&self, pieces: &[&str]) -> Vec<Vec<Hit>> {
        let mut out: Vec<Vec<Hit>> = vec![Vec::new(); pieces.len()];
        if self.entities.is_empty() {
            return out;
        }
        self.collect(
            &Scan::new(pieces, true, self.compact.is_some()),
            &mut out,
            None,
        );
        let wrapped: Vec<usize> = (0..pieces.len())
            .filter(|&i| has_hyphen_break(pieces[i]))
            .collect();
        if !wrapped.is_empty() {
            let again: Vec<&str> = wrapped.iter().map(|&i| pieces[i]).collect();
            let scan = Scan::new(&again, false, self.compact.is_some());
            self.collect(&scan, &mut out, Some(&wrapped));
        }
        out
    }

    /// The matches of `scan` into `out` (piece `p` of the scan is `out[index[p]]`).
    fn collect(&self, scan: &Scan, out: &mut [Vec<Hit>], index: Option<&[usize]>) {
        let mut push = |k: usize, l: usize, entity: usize| {
            let piece = scan.toks[k].piece as usize;
            let (start, end) = scan.span(k, l);
            out[index.map_or(piece, |ix| ix[piece])].push(Hit {
                entity,
                span: Span {
                    start: start as usize,
                    end: end as usize,
                },
            });
        };
        self.words.find(scan, &mut push);
        if let Some(ac) = &self.compact {
            for m in ac.find_overlapping_iter(scan.compact.as_str()) {
                if let Some((k, l)) = scan.compact_tokens(m.start(), m.end()) {
                    push(k, l, self.compact_owner[m.pattern().as_usize()]);
                }
            }
        }
        if let Some(dates) = &self.dates {
            let mut found = Vec::new();
            for k in 0..scan.toks.len() {
                dates.at(scan, k, &mut found);
                for (l, owner) in found.drain(..) {
                    push(k, l, owner);
                }
            }
        }
    }

    /// `text` with every occurrence replaced.
    pub fn replace(&self, text: &str) -> String {
        let hits = self.find(text);
        if hits.is_empty() {
            return text.to_string();
        }
        self.apply(text, &hits)
    }

    /// Replaces inside every string of a JSON value in place (keys are left alone:
    /// this is for clam's own records, whose keys are clam's field names).
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

    /// A document's JSON data (metadata, extra fields) redacted all the way through:
    /// strings, object keys, and numbers (a number that holds a masked value, such as
    /// a phone, becomes its replaced text). Two keys that become one are told apart by
    /// a counter (" (2)").
    pub fn replace_document_json(&self, value: &serde_json::Value) -> serde_json::Value {
        use serde_json::Value;
        match value {
            Value::String(s) => Value::String(self.replace(s)),
            Value::Number(n) => {
                let text = n.to_string();
                let hits = self.find(&text);
                if hits.is_empty() {
                    value.clone()
                } else {
                    Value::String(self.apply(&text, &hits))
                }
            }
            Value::Array(a) => {
                Value::Array(a.iter().map(|v| self.replace_document_json(v)).collect())
            }
            Value::Object(o) => {
                let mut out = serde_json::Map::new();
                for (k, v) in o {
                    let mut key = self.replace(k);
                    if out.contains_key(&key) {
                        let base = key.clone();
                        let mut n = 2;
                        while out.contains_key(&key) {
                            key = format!("{base} ({n})");
                            n += 1;
                        }
                    }
                    out.insert(key, self.replace_document_json(v));
                }
                Value::Object(out)
            }
            other => other.clone(),
        }
    }

    fn apply(&self, text: &str, hits: &[Hit]) -> String {
        if let Some(g) = &self.generalizer {
            return self.apply_generalized(g, text, hits);
        }
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

    /// [`Replacer::apply`] in the `generalize` mode: each replacement fitted to the
    /// words around it, which it may take the place of (an article, "Dear", a title).
    fn apply_generalized(&self, g: &Generalizer, text: &str, hits: &[Hit]) -> String {
        let chars: Vec<char> = text.chars().collect();
        let mut out = String::with_capacity(text.len());
        let mut at = 0usize;
        for h in hits {
            if h.span.start < at || h.span.end > chars.len() {
                continue;
            }
            let kind = value_kind(&self.entities[h.entity].entity_type);
            let (start, end, replacement) =
                g.fit(&chars, (h.span.start, h.span.end), at, h.entity, kind);
            let start = start.clamp(at, h.span.start);
            let end = end.clamp(h.span.end, chars.len());
            out.extend(&chars[at..start]);
            out.push_str(&replacement);
            at = end;
        }
        out.extend(&chars[at..]);
        out
    }

    /// Replaces inside every string of a JSON value (keys are left alone).
    pub fn replace_json(&self, value: &serde_json::Value) -> serde_json::Value {
        let mut v = value.clone();
        self.replace_json_in_place(&mut v);
        v
    }
}

/// Byte start of a phone match extended over a `(` and a `+` country-code prefix
/// written right before it.
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

/// Pseudonym hex of an entity: HMAC-SHA256(project key, entity_id).
pub fn pseudonym_hex(project_key: &[u8], entity_id: &str) -> String {
    hmac_hex(project_key, entity_id)
}

/// Masked entities that share a written form, as disjoint sets (union-find). Two
/// entities share one when the extractor or an auditor merged a variant into one of
/// them that the other also has ("M. Keller" resolved to "Maria Keller" in one
/// document, alone in another), when a phone is written with and without its country
/// code (+1 555-010-4417, 555-010-4417), or when two dates are the same day. The
/// replacer gives such text to the first entity; the group gives every member one
/// pseudonym, so no written form gets two.
struct Groups {
    parent: Vec<usize>,
}

impl Groups {
    fn new(n: usize) -> Self {
        Groups {
            parent: (0..n).collect(),
        }
    }

    fn root(&mut self, mut i: usize) -> usize {
        while self.parent[i] != i {
            self.parent[i] = self.parent[self.parent[i]];
            i = self.parent[i];
        }
        i
    }

    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.root(a), self.root(b));
        if ra != rb {
            self.parent[ra.max(rb)] = ra.min(rb);
        }
    }
}

/// The pseudonym identity of each entity: its own id, or for an entity grouped with
/// others (see [`Groups`]) the smallest entity id of the group.
fn pseudonym_identities<'e>(entities: &'e [MaskedEntity], groups: &mut Groups) -> Vec<&'e str> {
    let mut smallest: HashMap<usize, &str> = HashMap::new();
    for (i, e) in entities.iter().enumerate() {
        let r = groups.root(i);
        let id = smallest.entry(r).or_insert(e.id.as_str());
        if e.id.as_str() < *id {
            *id = e.id.as_str();
        }
    }
    (0..entities.len())
        .map(|i| {
            let r = groups.root(i);
            smallest.get(&r).copied().unwrap_or(entities[i].id.as_str())
        })
        .collect()
}

fn replacement_texts(
    entities: &[MaskedEntity],
    mode: Mode,
    schema: &Schema,
    key: &[u8],
    groups: &mut Groups,
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
            let identity = pseudonym_identities(entities, groups);
            let full: Vec<String> = identity.iter().map(|id| pseudonym_hex(key, id)).collect();
            // 12 hex digits, lengthened for identities whose prefixes collide (members
            // of one group share theirs).
            let mut len = vec![12usize; entities.len()];
            loop {
                let mut prefixes: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
                for (i, h) in full.iter().enumerate() {
                    prefixes.entry(&h[..len[i]]).or_default().push(i);
                }
                let mut changed = false;
                for members in prefixes.values() {
                    let distinct = members.iter().any(|&i| identity[i] != identity[members[0]]);
                    if !distinct {
                        continue;
                    }
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
mod tests;
