//! The redactor's view of a text: its [projection](crate::text) cut into tokens, and
//! two strings:
//!
//! - the word view: every token (address spellings read as their class) between
//!   single spaces, `" t1 t2 … "`, read token by token (a value is found as a
//!   whole-token sequence whatever punctuation or white space separates the tokens in
//!   the text: "Marlowe, Edith", "edith_marlowe", "Edith⏎Marlowe");
//! - the compact view: the tokens' characters without separators, a barrier where
//!   two tokens are parted by anything but a separator (white space, '-', '.', '/',
//!   '_', '(', ')'), searched with an automaton, so a phone or an id written with any
//!   separators matches, but only from a token's start to a token's end.
//!
//! A token is a run of letters and digits; a '.' between two digits stays inside it
//! ("0.75"), so a masked age 75 is not found in a decimal, and so does a ',' before a
//! thousands group ("1,075"). Any other ',' parts two tokens: in a CSV row
//! "1943,6920792442" the phone after the comma is a value of its own.

use crate::text::{address::canonical_token, for_each_projected};

/// Separates pieces searched together (never part of a needle: the projection drops
/// control characters).
pub(super) const BARRIER: char = '\u{0}';

/// One token of the text.
#[derive(Debug, Clone, Copy)]
pub(super) struct Tok {
    /// Original char range (piece-local).
    pub orig: (u32, u32),
    /// Byte range in the word view.
    pub w: (u32, u32),
    /// Byte range in the compact view (when it is built).
    pub c: (u32, u32),
    /// Index of the piece the token belongs to.
    pub piece: u32,
}

/// The views of one or more pieces of text.
#[derive(Default)]
pub(super) struct Scan {
    pub word: String,
    pub compact: String,
    pub toks: Vec<Tok>,
}

/// Separators a phone or an id may be written with (after projection: every dash is
/// '-', every white-space run one space).
fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '-' | '.' | '/' | '_' | '(' | ')')
}

struct Builder<'s> {
    scan: &'s mut Scan,
    with_compact: bool,
    piece: u32,
    /// The current token's projected text and original range.
    cur: String,
    cur_orig: (u32, u32),
    /// A '.' or ',' right after a digit of the current token, waiting for a digit.
    held: Option<(char, u32, u32)>,
    /// The gap since the last token holds only separators.
    gap_sep: bool,
    /// No token yet in this piece.
    first: bool,
    /// Char offsets (piece-local) of the commas before a thousands group ("1,075").
    thousands: Vec<u32>,
}

impl Builder<'_> {
    fn push(&mut self, c: char, s: u32, e: u32) {
        if c.is_alphanumeric() {
            if let Some((h, _, he)) = self.held.take() {
                if c.is_ascii_digit() {
                    self.cur.push(h);
                    self.cur_orig.1 = he;
                } else {
                    self.close();
                    self.gap_sep = is_separator(h);
                }
            }
            if self.cur.is_empty() {
                self.cur_orig = (s, e);
            }
            self.cur.push(c);
            self.cur_orig.1 = e;
            return;
        }
        if let Some((h, _, _)) = self.held.take() {
            self.close();
            self.gap_sep = is_separator(h);
        }
        if (c == '.' || c == ',' && self.thousands.binary_search(&s).is_ok())
            && self.cur.ends_with(|l: char| l.is_ascii_digit())
        {
            self.held = Some((c, s, e));
            return;
        }
        if !self.cur.is_empty() {
            self.close();
            self.gap_sep = true;
        }
        self.gap_sep &= is_separator(c);
    }

    fn close(&mut self) {
        if self.cur.is_empty() {
            return;
        }
        let scan = &mut *self.scan;
        let w_start = scan.word.len() as u32;
        scan.word.push_str(canonical_token(&self.cur));
        let w = (w_start, scan.word.len() as u32);
        scan.word.push(' ');
        let mut c = (0, 0);
        if self.with_compact {
            if self.first || !self.gap_sep {
                scan.compact.push(BARRIER);
            }
            let start = scan.compact.len() as u32;
            scan.compact
                .extend(self.cur.chars().filter(|c| !matches!(c, '.' | ',')));
            c = (start, scan.compact.len() as u32);
        }
        scan.toks.push(Tok {
            orig: self.cur_orig,
            w,
            c,
            piece: self.piece,
        });
        self.cur.clear();
        self.first = false;
    }

    fn finish_piece(&mut self) {
        self.held = None;
        self.close();
        self.scan.word.push(BARRIER);
        self.scan.word.push(' ');
        if self.with_compact {
            self.scan.compact.push(BARRIER);
        }
    }
}

/// Char offsets of the commas of `piece` that separate thousands: a digit before, then
/// exactly three digits and no fourth.
fn thousands_commas(piece: &str) -> Vec<u32> {
    if !piece.contains(',') {
        return Vec::new();
    }
    let chars: Vec<char> = piece.chars().collect();
    let digit = |k: usize| chars.get(k).is_some_and(char::is_ascii_digit);
    (1..chars.len())
        .filter(|&k| {
            chars[k] == ','
                && digit(k + 1)
                && digit(k + 2)
                && digit(k + 3)
                && !digit(k + 4)
                && number_before(&chars, k)
        })
        .map(|k| k as u32)
        .collect()
}

/// The digits before the comma at `k` are a number's leading group or a thousands group:
/// one to three digits, not the last part of a date, a time or a code ("1959-07-19,782").
fn number_before(chars: &[char], k: usize) -> bool {
    let run = chars[..k]
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .count();
    (1..=3).contains(&run)
        && !k
            .checked_sub(run + 1)
            .is_some_and(|b| matches!(chars[b], '-' | '/' | '.' | ':' | '\u{2013}'))
}

impl Scan {
    /// The views of `pieces` (each searched on its own: no match crosses two), read
    /// with hyphenated line wraps joined or not.
    pub fn new(pieces: &[&str], join_hyphens: bool, with_compact: bool) -> Scan {
        let total: usize = pieces.iter().map(|p| p.len() + 2).sum();
        let mut scan = Scan {
            word: String::with_capacity(total + 1),
            compact: String::with_capacity(if with_compact { total } else { 0 }),
            toks: Vec::with_capacity(total / 5),
        };
        scan.word.push(' ');
        let mut b = Builder {
            scan: &mut scan,
            with_compact,
            piece: 0,
            cur: String::new(),
            cur_orig: (0, 0),
            held: None,
            gap_sep: true,
            first: true,
            thousands: Vec::new(),
        };
        for (i, p) in pieces.iter().enumerate() {
            b.piece = i as u32;
            b.first = true;
            b.gap_sep = true;
            b.thousands = thousands_commas(p);
            for_each_projected(p, join_hyphens, |c, s, e| b.push(c, s, e));
            b.finish_piece();
        }
        scan
    }

    /// The tokens `[k, l]` of a compact-view match `[start, end)`, when it starts at a
    /// token's start and ends at a token's end.
    pub fn compact_tokens(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        let k = self
            .toks
            .binary_search_by_key(&(start as u32), |t| t.c.0)
            .ok()?;
        let l = self
            .toks
            .binary_search_by_key(&(end as u32), |t| t.c.1)
            .ok()?;
        (k <= l && self.toks[k].piece == self.toks[l].piece).then_some((k, l))
    }

    /// The word-view text of token `k`.
    pub fn token(&self, k: usize) -> &str {
        let (s, e) = self.toks[k].w;
        &self.word[s as usize..e as usize]
    }

    /// The original char span of tokens `[k, l]`.
    pub fn span(&self, k: usize, l: usize) -> (u32, u32) {
        (self.toks[k].orig.0, self.toks[l].orig.1)
    }
}

/// The tokens of a value, read as the word view reads them (address spellings as
/// their class).
pub(super) fn value_tokens(value: &str) -> Vec<String> {
    let scan = Scan::new(&[value], true, false);
    (0..scan.toks.len())
        .map(|k| scan.token(k).to_string())
        .collect()
}

/// A value's compact form: its tokens' letters and digits, no separators.
pub(super) fn value_compact(value: &str) -> String {
    let scan = Scan::new(&[value], true, true);
    scan.compact.chars().filter(|&c| c != BARRIER).collect()
}
