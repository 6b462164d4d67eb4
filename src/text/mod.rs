//! The text projection (SPEC §5): one way to read text "as it reads", shared by the
//! redactor, the leak check, span location and display, so that text which reads as a
//! value meets it whatever its bytes.
//!
//! Per character, in order:
//! - every run of white space or line breaks (any `White_Space` character: NBSP,
//!   U+2000–U+200A, U+3000, U+2028, …) is one space;
//! - terminal escape sequences (CSI, OSC and the other string controls, two-character
//!   escapes) count as white space: a terminal shows them as nothing between words;
//! - control characters (`Cc`), invisible format characters (`Cf`: zero-width spaces
//!   and joiners, bidi controls, the soft hyphen, the BOM) and the other
//!   default-ignorable code points are dropped;
//! - a hyphen between a letter and a line break, followed by a letter after the break,
//!   is dropped together with the break ("Berg-⏎lund" reads "Berglund");
//! - everything else is taken through NFKD (compatibility: full-width, ligatures,
//!   super- and subscripts), combining marks dropped (accents), digits of any script
//!   as ASCII, dash punctuation as '-', letters lower-cased and mapped to their UTS #39
//!   confusable prototype (`unicode-security`: Cyrillic "а" and Greek "ο" meet Latin
//!   "a" and "o"; "m" becomes "rn", as the standard's skeleton has it). A letter whose
//!   lower case has no ASCII prototype takes its own or its upper case's when that is
//!   ASCII: Cyrillic "К" reads "K" although its lower case "к" is the small capital
//!   "ĸ" in the tables.
//!
//! The projection of a string is the concatenation of its characters' projections
//! (white space runs aside), so a value's projection is found inside a text's
//! projection wherever the value is written in any of these ways. Every projected
//! character carries the range of original characters it came from, so a match in the
//! projection replaces the whole original span.
//!
//! Cost: one pass; ASCII letters and digits take a table, other characters a
//! per-thread cache.

pub mod address;

use std::cell::RefCell;
use std::collections::HashMap;

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Calls `f(projected char, first original char, end original char)` for every
/// character of the projection of `text`, in order. Original positions are code-point
/// indices; `end` is exclusive. A white-space run gives one `' '` covering the run.
/// With `join_hyphens` false, a hyphen before a line break is kept as a hyphen (the
/// compound reading of "Marlowe-⏎Smith"); see [`has_hyphen_break`].
pub fn for_each_projected(text: &str, join_hyphens: bool, mut f: impl FnMut(char, u32, u32)) {
    let mut chars = text.chars();
    let mut i: u32 = 0;
    // A pending white-space run: (first char, end char).
    let mut space: Option<(u32, u32)> = None;
    // The last projected char (for the hyphen rule).
    let mut last = ' ';
    let mut buf = String::new();
    while let Some(c) = chars.next() {
        let at = i;
        i += 1;
        if c.is_whitespace() {
            space = Some((space.map_or(at, |s| s.0), i));
            continue;
        }
        if is_escape_start(c) {
            let n = escape_len(c, chars.clone());
            for _ in 0..n {
                chars.next();
            }
            i += n as u32;
            space = Some((space.map_or(at, |s| s.0), i));
            continue;
        }
        if join_hyphens && is_hyphen(c) && space.is_none() && last.is_alphabetic() {
            let n = hyphen_break_len(chars.clone());
            if n > 0 {
                for _ in 0..n {
                    chars.next();
                }
                i += n as u32;
                continue;
            }
        }
        // Printable ASCII other than 'm' projects to one char: no buffer.
        if c.is_ascii_graphic() && c != 'm' && c != 'M' {
            if let Some((s, e)) = space.take() {
                f(' ', s, e);
            }
            let p = c.to_ascii_lowercase();
            f(p, at, i);
            last = p;
            continue;
        }
        buf.clear();
        project_char(c, &mut buf);
        if buf.is_empty() {
            continue;
        }
        if let Some((s, e)) = space.take() {
            f(' ', s, e);
        }
        for p in buf.chars() {
            f(p, at, i);
            last = p;
        }
    }
    if let Some((s, e)) = space {
        f(' ', s, e);
    }
}

/// The projection of `text` (hyphen breaks joined), without positions.
pub fn project(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for_each_projected(text, true, |c, _, _| out.push(c));
    out
}

/// Does `text` hold a hyphen right before a line break? Then a hyphenated compound
/// ("Marlowe-⏎Smith") and a hyphenated word ("Mar-⏎lowe") cannot be told apart, and
/// matching reads the text both ways.
pub fn has_hyphen_break(text: &str) -> bool {
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if is_hyphen(c) {
            let mut look = chars.clone();
            while let Some(&n) = look.peek() {
                if is_line_break(n) {
                    return true;
                }
                if !(n.is_whitespace() || is_dropped(n)) {
                    break;
                }
                look.next();
            }
        }
    }
    false
}

/// The text as recognizers read it (SPEC §7): what a reader does not see is gone and
/// every odd space is a space, while letters, case, digits and line structure stay as
/// written (recognizers need capitals and line breaks; matching needs the full
/// [projection](for_each_projected)).
///
/// - escape sequences become one space;
/// - control (but tab and line breaks), format and default-ignorable characters are
///   dropped (zero-width spaces and joiners, bidi controls, soft hyphens);
/// - every other white-space character (NBSP, U+2000–U+200A, U+202F, U+3000) becomes
///   a space, U+2028/U+2029 a line feed.
///
/// Positions are code points; each char of the reading keeps the range of original
/// chars it came from, so a span found in the reading maps back to the whole original
/// span (invisible characters inside it included).
#[derive(Debug, Clone)]
pub struct Reading {
    /// The text as read.
    pub text: String,
    /// Per char of `text`: the first original char it came from.
    starts: Vec<u32>,
    /// Per char of `text`: the end (exclusive) of the original chars it came from.
    ends: Vec<u32>,
}

impl Reading {
    /// The original code-point span of a span of the reading (`start < end`).
    pub fn original_span(&self, start: usize, end: usize) -> Option<(usize, usize)> {
        if start >= end {
            return None;
        }
        let s = *self.starts.get(start)?;
        let e = *self.ends.get(end - 1)?;
        Some((s as usize, e as usize))
    }
}

/// The reading of `text`, or `None` when it reads as written (no escape, invisible
/// character or odd space: the common case costs one scan and no allocation).
pub fn reading(text: &str) -> Option<Reading> {
    let plain = |c: char| {
        if c.is_ascii() {
            !c.is_ascii_control() || matches!(c, '\n' | '\r' | '\t')
        } else {
            !(c.is_whitespace() || is_dropped(c) || is_escape_start(c))
        }
    };
    if text.chars().all(plain) {
        return None;
    }
    let mut out = Reading {
        text: String::with_capacity(text.len()),
        starts: Vec::with_capacity(text.len()),
        ends: Vec::with_capacity(text.len()),
    };
    let push = |out: &mut Reading, c: char, s: u32, e: u32| {
        out.text.push(c);
        out.starts.push(s);
        out.ends.push(e);
    };
    let mut chars = text.chars();
    let mut i: u32 = 0;
    while let Some(c) = chars.next() {
        let at = i;
        i += 1;
        if is_escape_start(c) {
            let n = escape_len(c, chars.clone());
            for _ in 0..n {
                chars.next();
            }
            i += n as u32;
            push(&mut out, ' ', at, i);
        } else if matches!(c, '\u{2028}' | '\u{2029}' | '\u{85}') {
            push(&mut out, '\n', at, i);
        } else if c.is_whitespace() && !matches!(c, ' ' | '\n' | '\r' | '\t') {
            push(&mut out, ' ', at, i);
        } else if is_dropped(c) && !matches!(c, '\n' | '\r' | '\t') {
            // Invisible: the next char read covers it, so a span starting or ending
            // at a visible neighbour still maps to the whole original.
            if let Some(e) = out.ends.last_mut() {
                *e = i;
            }
        } else {
            push(&mut out, c, at, i);
        }
    }
    Some(out)
}

/// A projection with its offset map, materialized.
#[derive(Debug, Clone, Default)]
pub struct Projected {
    /// The projected text.
    pub text: String,
    /// Per byte of `text`: the original char range `[start, end)` it came from.
    origin: Vec<(u32, u32)>,
}

impl Projected {
    pub fn new(text: &str) -> Self {
        let mut p = Projected {
            text: String::with_capacity(text.len()),
            origin: Vec::with_capacity(text.len()),
        };
        for_each_projected(text, true, |c, s, e| {
            p.text.push(c);
            p.origin.resize(p.text.len(), (s, e));
        });
        p
    }

    /// The original char span of the projected bytes `[start, end)` (`None` when the
    /// range is empty or outside the projection).
    pub fn original_span(&self, start: usize, end: usize) -> Option<(u32, u32)> {
        if start >= end || end > self.origin.len() {
            return None;
        }
        Some((self.origin[start].0, self.origin[end - 1].1))
    }
}

thread_local! {
    /// Projections of non-ASCII characters (NFKD, marks, confusables).
    static CACHE: RefCell<HashMap<char, Box<str>>> = RefCell::new(HashMap::new());
}

/// Entries the per-thread cache keeps before it starts again.
const CACHE_LIMIT: usize = 1 << 16;

/// Appends the projection of one character that is neither white space nor the start
/// of an escape sequence.
fn project_char(c: char, out: &mut String) {
    if c.is_ascii() {
        push_ascii(c, out);
        return;
    }
    CACHE.with(|cache| {
        // The cache is never borrowed across a call out of this function.
        let Ok(mut cache) = cache.try_borrow_mut() else {
            out.push_str(&project_uncached(c));
            return;
        };
        if let Some(p) = cache.get(&c) {
            out.push_str(p);
            return;
        }
        let p = project_uncached(c);
        out.push_str(&p);
        if cache.len() >= CACHE_LIMIT {
            cache.clear();
        }
        cache.insert(c, p.into_boxed_str());
    });
}

fn project_uncached(c: char) -> String {
    let mut p = String::new();
    if !is_dropped(c) {
        unicode_normalization::char::decompose_compatible(c, |d| push_decomposed(d, &mut p));
    }
    p
}

/// ASCII: letters lower-cased ('m' to its prototype "rn"), controls dropped.
fn push_ascii(c: char, out: &mut String) {
    match c {
        'm' | 'M' => out.push_str("rn"),
        'A'..='Z' => out.push(c.to_ascii_lowercase()),
        c if c.is_ascii_control() => {}
        c => out.push(c),
    }
}

/// One character of a compatibility decomposition.
fn push_decomposed(d: char, out: &mut String) {
    if d.is_ascii() {
        if !d.is_ascii_whitespace() {
            push_ascii(d, out);
        }
        return;
    }
    if d.is_whitespace() || is_dropped(d) || is_mark(d) {
        return;
    }
    match d.general_category() {
        GeneralCategory::DecimalNumber => out.push(ascii_digit(d)),
        GeneralCategory::DashPunctuation => out.push('-'),
        _ => {
            // The reading a reader would give it: the lower-case letter's prototype
            // when that is plain ASCII ("ι" → "i"); else the letter's own ("К" → "K";
            // its lower case "к" has the small capital "ĸ" as prototype); else the
            // upper case's ("т" → "T").
            let lower: String = d.to_lowercase().collect();
            let mut best = prototype_lower(&lower);
            if !best.is_ascii() {
                let mut b = [0u8; 4];
                let own = prototype_lower(d.encode_utf8(&mut b));
                let upper: String = d.to_uppercase().collect();
                let up = prototype_lower(&upper);
                if own.is_ascii() {
                    best = own;
                } else if up.is_ascii() {
                    best = up;
                }
            }
            for c in best.chars() {
                if c.is_ascii() {
                    push_ascii(c, out);
                } else {
                    out.push(c);
                }
            }
        }
    }
}

/// The UTS #39 skeleton of `s`, lower-cased, without marks, spaces or invisible
/// characters.
fn prototype_lower(s: &str) -> String {
    unicode_security::skeleton(s)
        .flat_map(char::to_lowercase)
        .filter(|&c| !(is_mark(c) || c.is_whitespace() || is_dropped(c)))
        .collect()
}

fn is_mark(c: char) -> bool {
    matches!(
        c.general_category(),
        GeneralCategory::NonspacingMark | GeneralCategory::EnclosingMark
    )
}

/// Characters the projection drops: controls that are not white space, format
/// characters (Cf), and the other default-ignorable code points a reader does not see.
pub fn is_dropped(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control() && !c.is_ascii_whitespace();
    }
    if c.is_whitespace() {
        return false;
    }
    matches!(
        c.general_category(),
        GeneralCategory::Control | GeneralCategory::Format
    ) || matches!(
        c,
        '\u{034F}'
            | '\u{115F}'
            | '\u{1160}'
            | '\u{17B4}'
            | '\u{17B5}'
            | '\u{180B}'..='\u{180F}'
            | '\u{3164}'
            | '\u{FE00}'..='\u{FE0F}'
            | '\u{FFA0}'
            | '\u{E0100}'..='\u{E01EF}'
    )
}

/// A decimal digit of any script as its ASCII digit. Unicode assigns decimal digits
/// only in contiguous runs of 0..9, so the value is the distance from the run's start.
fn ascii_digit(d: char) -> char {
    let mut start = d as u32;
    while let Some(p) = start.checked_sub(1).and_then(char::from_u32) {
        if p.general_category() != GeneralCategory::DecimalNumber {
            break;
        }
        start -= 1;
    }
    char::from_digit((d as u32 - start) % 10, 10).unwrap_or('0')
}

fn is_hyphen(c: char) -> bool {
    matches!(c, '-' | '\u{2010}' | '\u{2011}')
}

fn is_line_break(c: char) -> bool {
    matches!(
        c,
        '\n' | '\r' | '\u{0B}' | '\u{0C}' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// After a hyphen: the number of chars of "[spaces] line break [white space]" when a
/// letter follows them (the hyphen and those chars are then dropped), else 0.
fn hyphen_break_len(rest: std::str::Chars<'_>) -> usize {
    let mut broke = false;
    let mut buf = String::new();
    for (n, c) in rest.enumerate() {
        if is_line_break(c) {
            broke = true;
        } else if !(c.is_whitespace() || is_dropped(c)) {
            buf.clear();
            project_char(c, &mut buf);
            let letter = buf.chars().next().is_some_and(char::is_alphabetic);
            return if broke && letter { n } else { 0 };
        }
    }
    0
}

/// ESC, or a C1 control that opens a sequence (CSI, OSC, DCS, SOS, PM, APC).
fn is_escape_start(c: char) -> bool {
    matches!(
        c,
        '\u{1b}' | '\u{9b}' | '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}'
    )
}

/// The number of chars after `first` that belong to its escape sequence (ECMA-48: CSI
/// parameters and one final byte; string controls up to BEL or ST; two-character
/// escapes).
fn escape_len(first: char, rest: std::str::Chars<'_>) -> usize {
    let mut it = rest.peekable();
    let (csi, string, mut n) = match (first, it.peek().copied()) {
        ('\u{1b}', Some('[')) => (true, false, 1),
        ('\u{9b}', _) => (true, false, 0),
        ('\u{1b}', Some(']' | 'P' | 'X' | '^' | '_')) => (false, true, 1),
        ('\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}', _) => (false, true, 0),
        ('\u{1b}', Some(c)) if (' '..='~').contains(&c) => return 1,
        _ => return 0,
    };
    for _ in 0..n {
        it.next();
    }
    if csi {
        while let Some(&c) = it.peek() {
            if ('\u{20}'..='\u{3f}').contains(&c) {
                n += 1;
                it.next();
            } else {
                break;
            }
        }
        if it.peek().is_some_and(|c| ('\u{40}'..='\u{7e}').contains(c)) {
            n += 1;
        }
        return n;
    }
    debug_assert!(string);
    while let Some(c) = it.next() {
        n += 1;
        match c {
            '\u{7}' | '\u{9c}' => break,
            '\u{1b}' if it.peek() == Some(&'\\') => {
                n += 1;
                break;
            }
            _ => {}
        }
    }
    n
}

#[cfg(test)]
mod tests;
