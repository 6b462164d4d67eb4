//! The leak check (SPEC §5): an independent reading of everything the export wrote.
//!
//! It shares no matching code with the redactor (`crate::redact`): it reduces every
//! byte stream and file name to a token skeleton — the [projection](crate::text), then
//! runs of letters and digits (a '.' between two digits stays inside a number, and a
//! ',' before a thousands group: "1,075", not "1943,6920792442"),
//! address spellings read as their class — and looks for the skeleton of every
//! original and normalized value of every masked entity as a whole-token sequence,
//! with the variants a reader would recognise: a name family-name-first or run
//! together, a date in every common written form (generated here from the ISO value,
//! where the redactor parses what it reads), a phone or an id with any separators
//! between its tokens. A hit is a leak whatever the redactor thought.
//!
//! JSON files are read as JSON: each string decoded (escapes included) and searched on
//! its own, object keys too; numbers outside strings are searched in the documents of
//! `redacted/`, and are clam's own figures in its own files (manifest.json,
//! decisions.jsonl, gold_chains.json), as bare numbers are in report.md.

use std::collections::HashSet;

use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;
use std::io::Read;
use std::path::Path;

use crate::entity::normalize::MONTHS;
use crate::redact::MaskedEntity;
use crate::schema::{ValueKind, value_kind};
use crate::text::{address::canonical_token, for_each_projected, has_hyphen_break};

use super::{ExportError, LeakHit, export_id, io_err};

mod json;
use json::JsonLexer;

/// Bytes of a text file searched at a time (a report.md of a large corpus is never
/// whole in memory), and the lines of each block that start the next one.
const TEXT_BLOCK: usize = 4 << 20;
/// Clean strings of a JSON file remembered by the leak check (about 100 bytes each).
const CLEAN_CACHE: usize = 1 << 20;
const OVERLAP_LINES: usize = 3;
const OVERLAP_BYTES: usize = 4096;

/// Clam's own files beside `redacted/` (and the manifest's tables under `tables/`):
/// their bare numbers are figures.
const OWN_FILES: [&str; 4] = [
    "manifest.json",
    "decisions.jsonl",
    "gold_chains.json",
    "report.md",
];

/// One token of a skeleton: its text, its first original char, and whether only
/// separators part it from the token before.
struct Token {
    text: String,
    at: u32,
    joined: bool,
    /// An '_' touches it on either side ("claim_34"): part of a name, never a figure.
    glued: bool,
}

fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '-' | '.' | '/' | '_' | '(' | ')')
}

/// The token skeleton of `text`.
fn skeleton(text: &str, join_hyphens: bool) -> Vec<Token> {
    let mut projected: Vec<(char, u32)> = Vec::with_capacity(text.len());
    for_each_projected(text, join_hyphens, |c, s, _| projected.push((c, s)));
    let mut out: Vec<Token> = Vec::new();
    let mut cur = String::new();
    let mut at = 0;
    let mut gap_ok = true;
    let mut glued = false;
    let mut prev = ' ';
    for (i, &(c, s)) in projected.iter().enumerate() {
        let digit_at = |k: usize| projected.get(k).is_some_and(|(n, _)| n.is_ascii_digit());
        // A ',' stays inside a number only before a thousands group ("1,075"): in
        // "1943,6920792442" (a CSV row) it parts two values.
        let inside_number = matches!(c, '.' | ',')
            && cur.ends_with(|p: char| p.is_ascii_digit())
            && digit_at(i + 1)
            && (c == '.'
                || (digit_at(i + 2) && digit_at(i + 3) && !digit_at(i + 4) && {
                    // One to three digits before, not the end of a date or a code
                    // ("1959-07-19,782-672-7403").
                    let run = projected[..i]
                        .iter()
                        .rev()
                        .take_while(|(p, _)| p.is_ascii_digit())
                        .count();
                    (1..=3).contains(&run)
                        && !i
                            .checked_sub(run + 1)
                            .is_some_and(|b| matches!(projected[b].0, '-' | '/' | '.' | ':'))
                }));
        if c.is_alphanumeric() || inside_number {
            if cur.is_empty() {
                at = s;
                glued = prev == '_';
            }
            cur.push(c);
        } else {
            if !cur.is_empty() {
                out.push(Token {
                    text: std::mem::take(&mut cur),
                    at,
                    joined: gap_ok,
                    glued: glued || c == '_',
                });
                gap_ok = true;
            }
            gap_ok &= is_separator(c);
        }
        prev = c;
    }
    if !cur.is_empty() {
        out.push(Token {
            text: cur,
            at,
            joined: gap_ok,
            glued,
        });
    }
    if let Some(first) = out.first_mut() {
        first.joined = false;
    }
    out
}

fn value_tokens(value: &str) -> Vec<String> {
    skeleton(value, true)
        .into_iter()
        .map(|t| canonical_token(&t.text).to_string())
        .collect()
}

fn compact(token: &str) -> impl Iterator<Item = char> + '_ {
    token.chars().filter(|c| !matches!(c, '.' | ','))
}

/// Every written form of a date `(y, m, d)` as token strings to skeletonize.
fn date_forms(y: i32, m: u32, d: u32) -> Vec<String> {
    let mut out = Vec::new();
    let ms = [m.to_string(), format!("{m:02}")];
    let ds = [d.to_string(), format!("{d:02}")];
    let mut years = vec![y.to_string()];
    if (1900..=2099).contains(&y) {
        years.push(format!("{:02}", y % 100));
    }
    for mm in &ms {
        for dd in &ds {
            for yy in &years {
                for (a, b, c) in [(mm, dd, yy), (dd, mm, yy)] {
                    out.push(format!("{a} {b} {c}"));
                    out.push(format!("{a}.{b}.{c}"));
                }
            }
            out.push(format!("{y} {mm} {dd}"));
            out.push(format!("{y}.{mm}.{dd}"));
        }
    }
    out.push(format!("{y:04}{m:02}{d:02}"));
    let suffix = match d {
        1 | 21 | 31 => "st",
        2 | 22 => "nd",
        3 | 23 => "rd",
        _ => "th",
    };
    let full = MONTHS[(m - 1) as usize];
    let mut names = vec![full.to_string(), full[..3].to_string()];
    if m == 9 {
        names.push("sept".into());
    }
    for name in &names {
        for dd in &ds {
            for day in [dd.clone(), format!("{dd}{suffix}")] {
                out.push(format!("{day} {name} {y}"));
                out.push(format!("{day} of {name} {y}"));
                out.push(format!("{name} {day} {y}"));
            }
        }
    }
    out
}

fn iso_date(s: &str) -> Option<(i32, u32, u32)> {
    let b = s.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return None;
    }
    let (y, m, d) = (
        s[..4].parse().ok()?,
        s[5..7].parse().ok()?,
        s[8..].parse().ok()?,
    );
    ((1..=12).contains(&m) && (1..=31).contains(&d)).then_some((y, m, d))
}

/// The needles of one masked entity: its word forms (token sequences) and, for
/// phones and ids, its compact forms.
fn entity_needles(e: &MaskedEntity) -> (Vec<Vec<String>>, Vec<String>) {
    let mut compacts: Vec<String> = Vec::new();
    let kind = value_kind(&e.entity_type);
    let mut forms: Vec<Vec<String>> = e
        .originals
        .iter()
        .chain(std::iter::once(&e.normalized))
        .map(|v| value_tokens(v))
        .collect();
    if kind == ValueKind::Name {
        let t = value_tokens(&e.normalized);
        if let Some((last, rest)) = t.split_last()
            && !rest.is_empty()
        {
            let family_first: Vec<String> = std::iter::once(last.clone())
                .chain(rest.iter().cloned())
                .collect();
            forms.push(family_first);
            // Run together the words are one token, canonicalized as a whole:
            // joined as written ("CoveBabab"), not as suffix spellings ("cv").
            let raw: Vec<String> = skeleton(&e.normalized, true)
                .into_iter()
                .map(|t| t.text)
                .collect();
            if let Some((last, rest)) = raw.split_last() {
                for joined in [raw.concat(), format!("{last}{}", rest.concat())] {
                    forms.push(vec![canonical_token(&joined).to_string()]);
                }
            }
        }
    }
    if kind == ValueKind::Date
        && let Some((y, m, d)) = iso_date(&e.normalized)
    {
        forms.extend(date_forms(y, m, d).iter().map(|f| value_tokens(f)));
    }
    match kind {
        ValueKind::Phone => {
            let digits: String = e.normalized.chars().filter(char::is_ascii_digit).collect();
            if digits.len() >= 5 {
                compacts.push(digits.clone());
            }
            if e.normalized.starts_with('+') {
                for o in &e.originals {
                    let Some(rest) = o.trim_start().strip_prefix('+') else {
                        continue;
                    };
                    let cc = rest.chars().take_while(char::is_ascii_digit).count();
                    if (1..=3).contains(&cc) && digits.len() >= cc + 7 {
                        compacts.push(digits[cc..].to_string());
                        compacts.push(format!("0{}", &digits[cc..]));
                    }
                }
            }
        }
        ValueKind::Id if e.normalized.chars().count() >= 2 => {
            for v in e.originals.iter().chain(std::iter::once(&e.normalized)) {
                let c: String = skeleton(v, true)
                    .iter()
                    .flat_map(|t| compact(&t.text))
                    .collect();
                if c.chars().count() >= 2 {
                    compacts.push(c);
                }
            }
        }
        _ => {}
    }
    (forms, compacts)
}

/// The needles of every masked entity.
pub struct LeakCheck {
    /// (export id, type) per entity.
    names: Vec<(String, String)>,
    vocab: FxHashMap<String, u32>,
    /// Token ids of a word form → the entities it belongs to (inline: most forms
    /// have a few tokens and one owner; a heap block for each was most of the check's
    /// memory at a million masked entities).
    words: FxHashMap<SmallVec<[u32; 4]>, Owners>,
    longest: usize,
    compact: FxHashMap<String, Owners>,
    /// Hashes of every beginning of a compact needle: a scan reads on only while its
    /// text so far begins one (a colliding hash only costs a lookup in `compact`).
    prefixes: FxHashSet<u64>,
}

/// The entities a needle belongs to.
type Owners = SmallVec<[u32; 2]>;

/// The hash of a compact needle's beginning in [`LeakCheck::prefixes`].
fn prefix_hash(s: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write(s.as_bytes());
    h.finish()
}

impl LeakCheck {
    pub fn new(masked: &[MaskedEntity], key: &[u8]) -> LeakCheck {
        let mut check = LeakCheck {
            names: {
                use rayon::prelude::*;
                masked
                    .par_iter()
                    .map(|e| (export_id(key, &e.id), e.entity_type.clone()))
                    .collect()
            },
            vocab: FxHashMap::default(),
            words: FxHashMap::default(),
            longest: 0,
            compact: FxHashMap::default(),
            prefixes: FxHashSet::default(),
        };
        crate::redact::in_entity_order(masked, entity_needles, |i, _, (forms, compacts)| {
            for f in forms.into_iter().filter(|f| !f.is_empty()) {
                check.add_word(f, i);
            }
            for c in compacts {
                check.add_compact(c, i);
            }
        });
        check
    }

    fn add_word(&mut self, tokens: Vec<String>, owner: usize) {
        let owner = owner as u32;
        let ids: SmallVec<[u32; 4]> = tokens
            .into_iter()
            .map(|t| {
                let n = self.vocab.len() as u32 + 1;
                *self.vocab.entry(t).or_insert(n)
            })
            .collect();
        self.longest = self.longest.max(ids.len());
        let owners = self.words.entry(ids).or_default();
        if !owners.contains(&owner) {
            owners.push(owner);
        }
    }

    fn add_compact(&mut self, needle: String, owner: usize) {
        let owner = owner as u32;
        for (i, _) in needle.char_indices().skip(1) {
            self.prefixes.insert(prefix_hash(&needle[..i]));
        }
        self.prefixes.insert(prefix_hash(&needle));
        let owners = self.compact.entry(needle).or_default();
        if !owners.contains(&owner) {
            owners.push(owner);
        }
    }

    /// The masked entities found in `text`: `(first original char, entity)`.
    /// `figures`: bare numbers are clam's own figures, not text.
    fn find(&self, text: &str, figures: bool) -> Vec<(u32, usize)> {
        let mut out = Vec::new();
        if self.names.is_empty() {
            return out;
        }
        self.find_in(&skeleton(text, true), figures, &mut out);
        if has_hyphen_break(text) {
            self.find_in(&skeleton(text, false), figures, &mut out);
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn find_in(&self, tokens: &[Token], figures: bool, out: &mut Vec<(u32, usize)>) {
        let figure = |t: &Token| {
            figures
                && !t.glued
                && t.text
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, '.' | ','))
        };
        let ids: Vec<u32> = tokens
            .iter()
            .map(|t| {
                if figure(t) {
                    0
                } else {
                    self.vocab
                        .get(canonical_token(&t.text))
                        .copied()
                        .unwrap_or(0)
                }
            })
            .collect();
        for i in 0..ids.len() {
            if ids[i] == 0 {
                continue;
            }
            for len in 1..=self.longest.min(ids.len() - i) {
                if ids[i + len - 1] == 0 {
                    break;
                }
                if let Some(owners) = self.words.get(&ids[i..i + len]) {
                    out.extend(owners.iter().map(|&o| (tokens[i].at, o as usize)));
                }
            }
        }
        if self.compact.is_empty() {
            return;
        }
        let mut acc = String::new();
        for i in 0..tokens.len() {
            acc.clear();
            for (j, t) in tokens.iter().enumerate().skip(i) {
                if figure(t) || (j > i && !t.joined) {
                    break;
                }
                acc.extend(compact(&t.text));
                if !self.prefixes.contains(&prefix_hash(&acc)) {
                    break;
                }
                if let Some(owners) = self.compact.get(&acc) {
                    out.extend(owners.iter().map(|&o| (tokens[i].at, o as usize)));
                }
            }
        }
    }

    fn hit(&self, file: &str, line: usize, column: usize, entity: usize) -> LeakHit {
        let (export_id, entity_type) = &self.names[entity];
        LeakHit {
            file: file.to_string(),
            line,
            column,
            export_id: export_id.clone(),
            entity_type: entity_type.clone(),
        }
    }

    /// Scans every file and file name under `root`; returns the hits and the number of
    /// files scanned.
    pub fn scan_tree(&self, root: &Path) -> Result<(Vec<LeakHit>, usize), ExportError> {
        let mut hits = Vec::new();
        let mut files = 0;
        let mut stack = vec![root.to_path_buf()];
        while let Some(dir) = stack.pop() {
            let entries = std::fs::read_dir(&dir).map_err(|e| io_err(&dir, e))?;
            for entry in entries {
                let entry = entry.map_err(|e| io_err(&dir, e))?;
                let path = entry.path();
                let rel = path
                    .strip_prefix(root)
                    .map(|p| p.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default();
                let name = entry.file_name().to_string_lossy().to_string();
                for (_, e) in self.find(&name, false) {
                    hits.push(self.hit(&rel, 0, 0, e));
                }
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                files += 1;
                self.scan_file(&path, &rel, &mut hits)?;
            }
        }
        hits.sort_by(|a, b| (&a.file, a.line, a.column).cmp(&(&b.file, b.line, b.column)));
        hits.dedup();
        Ok((hits, files))
    }

    fn scan_file(
        &self,
        path: &Path,
        rel: &str,
        hits: &mut Vec<LeakHit>,
    ) -> Result<(), ExportError> {
        let own = OWN_FILES.contains(&rel) || rel.starts_with("tables/");
        let lower = rel.to_ascii_lowercase();
        let file = std::fs::File::open(path).map_err(|e| io_err(path, e))?;
        // A compressed file (the manifest's tables) is read as what it decompresses to.
        let (lower, file): (&str, Box<dyn Read + Send>) = match lower.strip_suffix(".gz") {
            Some(inner) => (inner, Box::new(flate2::read::MultiGzDecoder::new(file))),
            None => (&lower, Box::new(file)),
        };
        if lower.ends_with(".json") || lower.ends_with(".jsonl") {
            return self.scan_json(file, path, rel, own, hits);
        }
        // Streamed in blocks of lines; each block starts with the last lines of the
        // one before, so a value wrapped across the seam is read whole, and a hit in
        // that overlap is reported once.
        use std::io::BufRead;
        let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
        let mut carry = String::new();
        // Line number where `carry` starts; absolute char offset of `carry`'s start.
        let (mut carry_line, mut carry_at) = (1usize, 0u64);
        let mut reported: HashSet<(u64, usize)> = HashSet::new();
        let mut buf = Vec::new();
        loop {
            let mut block = std::mem::take(&mut carry);
            let carried = block.len();
            let mut eof = false;
            while block.len() - carried < TEXT_BLOCK {
                buf.clear();
                let n = reader
                    .read_until(b'\n', &mut buf)
                    .map_err(|e| io_err(path, e))?;
                if n == 0 {
                    eof = true;
                    break;
                }
                block.push_str(&String::from_utf8_lossy(&buf));
            }
            if block.len() == carried {
                return Ok(());
            }
            let mut now = HashSet::new();
            let (mut line, mut col, mut at) = (carry_line, 1usize, 0u32);
            let mut chars = block.chars();
            for (pos, e) in self.find(&block, own) {
                while at < pos {
                    match chars.next() {
                        Some('\n') => {
                            line += 1;
                            col = 1;
                        }
                        Some(_) => col += 1,
                        None => break,
                    }
                    at += 1;
                }
                let abs = carry_at + u64::from(pos);
                now.insert((abs, e));
                if !reported.contains(&(abs, e)) {
                    hits.push(self.hit(rel, line, col, e));
                }
            }
            if eof {
                return Ok(());
            }
            // The overlap: the block's last lines, at most OVERLAP bytes.
            let mut cut = block.len();
            for _ in 0..OVERLAP_LINES {
                match block[..cut.saturating_sub(1)].rfind('\n') {
                    Some(i) if block.len() - (i + 1) <= OVERLAP_BYTES => cut = i + 1,
                    _ => break,
                }
            }
            carry_line += block[..cut].matches('\n').count();
            carry_at += block[..cut].chars().count() as u64;
            carry = block[cut..].to_string();
            reported = now;
        }
    }

    /// A JSON or JSON Lines file, streamed: every string decoded and searched alone
    /// (located at its opening quote), blocks of strings on every core.
    fn scan_json(
        &self,
        file: Box<dyn Read + Send>,
        path: &Path,
        rel: &str,
        own: bool,
        hits: &mut Vec<LeakHit>,
    ) -> Result<(), ExportError> {
        use rayon::prelude::*;
        // One thread reads and decompresses the file, another splits it into
        // strings, handing blocks of them over; the blocks are searched on every core
        // meanwhile.
        let (send_bytes, receive_bytes) =
            std::sync::mpsc::sync_channel::<std::io::Result<Vec<u8>>>(4);
        let inflate = move || {
            let mut file = file;
            loop {
                let mut buf = Vec::with_capacity(1 << 20);
                let read = (&mut file).take(1 << 20).read_to_end(&mut buf);
                let done = !matches!(read, Ok(n) if n > 0);
                if send_bytes.send(read.map(|_| buf)).is_err() || done {
                    return;
                }
            }
        };
        let (send, receive) = std::sync::mpsc::sync_channel::<json::Pieces>(2);
        let read = move || -> std::io::Result<()> {
            let mut lexer = JsonLexer::new(own);
            for bytes in receive_bytes.iter() {
                let bytes = bytes?;
                if bytes.is_empty() {
                    lexer.finish();
                } else {
                    lexer.feed(&bytes);
                }
                if (lexer.pieces.bytes() >= 8 << 20 || bytes.is_empty())
                    && (send.send(lexer.take_pieces()).is_err() || bytes.is_empty())
                {
                    return Ok(());
                }
            }
            Err(std::io::Error::other(
                "the leak check's decompressing reader stopped",
            ))
        };
        // Strings already searched and found clean: a string is searched alone, so
        // the same string gives the same result wherever it is (a table names each
        // document and entity many times). Bounded, so memory stays small.
        let mut clean: rustc_hash::FxHashSet<String> = rustc_hash::FxHashSet::default();
        let search = |pieces: json::Pieces,
                      clean: &mut rustc_hash::FxHashSet<String>,
                      hits: &mut Vec<LeakHit>| {
            let found: Vec<(usize, Vec<LeakHit>)> = pieces
                .list
                .par_iter()
                .enumerate()
                .filter(|(_, p)| !clean.contains(pieces.text(p)))
                .map(|(i, p)| {
                    let found = self
                        .find(pieces.text(p), false)
                        .into_iter()
                        .map(|(_, e)| self.hit(rel, p.line, p.column, e))
                        .collect::<Vec<_>>();
                    (i, found)
                })
                .collect();
            for (i, found) in found {
                if found.is_empty() {
                    if clean.len() < CLEAN_CACHE {
                        clean.insert(pieces.text(&pieces.list[i]).to_string());
                    }
                } else {
                    hits.extend(found);
                }
            }
        };
        std::thread::scope(|scope| {
            let inflater = scope.spawn(inflate);
            let reader = scope.spawn(read);
            for pieces in receive.iter() {
                search(pieces, &mut clean, hits);
            }
            let read = reader.join();
            let inflated = inflater.join();
            match (read, inflated) {
                (Ok(r), Ok(())) => r.map_err(|e| io_err(path, e)),
                _ => Err(io_err(path, "the leak check's reader failed")),
            }
        })
    }
}

#[cfg(test)]
mod tests;
