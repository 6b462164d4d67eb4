//! Dates in the word view: a masked date is found in any common written form, read
//! every way a reader could read it (a numeric date is tried as month-day-year,
//! day-month-year and year-month-day, so "14/03/1968" is found for 1968-03-14 whatever
//! `date_order` says; a two-digit year as 19xx and 20xx).
//!
//! Forms, as token sequences (any punctuation between the tokens):
//! `m d y`, `d m y`, `y m d` in digits (also one token with dots: `14.03.1968`),
//! `yyyymmdd`, `d[st|nd|rd|th] [of] Month y`, `Month d[st|nd|rd|th] y`, with the month
//! written out, abbreviated to three letters, or "Sept".

use std::collections::HashMap;

use super::scan::Scan;
use crate::entity::normalize::MONTHS;
use crate::text::{address::canonical_token, project};

pub(super) struct Dates {
    masked: HashMap<(i32, u32, u32), usize>,
    months: HashMap<String, u32>,
    of: String,
}

fn word(s: &str) -> String {
    canonical_token(&project(s)).to_string()
}

fn ymd(iso: &str) -> Option<(i32, u32, u32)> {
    let mut it = iso.split('-');
    let y = it.next()?.parse().ok()?;
    let m = it.next()?.parse().ok()?;
    let d = it.next()?.parse().ok()?;
    (it.next().is_none() && iso.len() == 10).then_some((y, m, d))
}

fn digits(t: &str, lens: std::ops::RangeInclusive<usize>) -> Option<u32> {
    (lens.contains(&t.len()) && t.bytes().all(|b| b.is_ascii_digit()))
        .then(|| t.parse().ok())
        .flatten()
}

/// A day, with an ordinal suffix or without.
fn day(t: &str) -> Option<u32> {
    let n = t.trim_end_matches(|c: char| c.is_ascii_lowercase());
    let suffix = &t[n.len()..];
    if !matches!(suffix, "" | "st" | "nd" | "rd" | "th") {
        return None;
    }
    digits(n, 1..=2)
}

impl Dates {
    /// The dates among the masked `(entity index, normalized value)` pairs (ISO
    /// `YYYY-MM-DD`; others are ignored); `None` when there is none.
    pub fn new<'a>(masked: impl Iterator<Item = (usize, &'a str)>) -> Option<Dates> {
        let mut map = HashMap::new();
        for (i, norm) in masked {
            if let Some(d) = ymd(norm) {
                map.entry(d).or_insert(i);
            }
        }
        if map.is_empty() {
            return None;
        }
        let mut months = HashMap::new();
        for (i, m) in MONTHS.iter().enumerate() {
            let n = i as u32 + 1;
            months.insert(word(m), n);
            months.insert(word(&m[..3]), n);
        }
        months.insert(word("sept"), 9);
        Some(Dates {
            masked: map,
            months,
            of: word("of"),
        })
    }

    fn owner(&self, y: i32, m: u32, d: u32) -> Option<usize> {
        self.masked.get(&(y, m, d)).copied()
    }

    /// Owners of every reading of the numeric date `a b c`.
    fn numeric(&self, a: &str, b: &str, c: &str, out: &mut Vec<usize>) {
        let (Some(x), Some(y)) = (digits(a, 1..=4), digits(b, 1..=2)) else {
            return;
        };
        if a.len() == 4 {
            if let Some(d) = digits(c, 1..=2) {
                out.extend(self.owner(x as i32, y, d));
            }
            return;
        }
        if a.len() > 2 {
            return;
        }
        let years: Vec<i32> = match (c.len(), digits(c, 2..=4)) {
            (4, Some(v)) => vec![v as i32],
            (2, Some(v)) => vec![1900 + v as i32, 2000 + v as i32],
            _ => return,
        };
        for year in years {
            out.extend(self.owner(year, x, y));
            out.extend(self.owner(year, y, x));
        }
    }

    /// Every masked date written from token `k`: `(last token, owner)`.
    pub fn at(&self, scan: &Scan, k: usize, out: &mut Vec<(usize, usize)>) {
        let piece = scan.toks[k].piece;
        let tok = |i: usize| -> Option<&str> {
            scan.toks
                .get(i)
                .filter(|t| t.piece == piece)
                .map(|_| scan.token(i))
        };
        let Some(t0) = tok(k) else { return };
        // Every form starts with a digit or a month name.
        if !t0.starts_with(|c: char| c.is_ascii_digit()) && !self.months.contains_key(t0) {
            return;
        }
        let mut owners = Vec::new();
        // One token: 14.03.1968, 19680314.
        let mut parts = t0.split('.');
        if let (Some(a), Some(b), Some(c), None) =
            (parts.next(), parts.next(), parts.next(), parts.next())
        {
            self.numeric(a, b, c, &mut owners);
        } else if t0.len() == 8
            && t0.bytes().all(|b| b.is_ascii_digit())
            && let (Some(y), Some(m), Some(d)) = (
                digits(&t0[..4], 4..=4),
                digits(&t0[4..6], 2..=2),
                digits(&t0[6..], 2..=2),
            )
        {
            owners.extend(self.owner(y as i32, m, d));
        }
        out.extend(owners.drain(..).map(|o| (k, o)));
        let (Some(t1), Some(t2)) = (tok(k + 1), tok(k + 2)) else {
            return;
        };
        // Three numbers.
        self.numeric(t0, t1, t2, &mut owners);
        out.extend(owners.drain(..).map(|o| (k + 2, o)));
        // Month first: March 14th 1968.
        if let (Some(&m), Some(d), Some(y)) = (self.months.get(t0), day(t1), digits(t2, 4..=4)) {
            out.extend(self.owner(y as i32, m, d).map(|o| (k + 2, o)));
        }
        // Day first: 14 March 1968, 14th of March 1968.
        if let Some(d) = day(t0) {
            let (m_at, y_at) = if t1 == self.of {
                (k + 2, k + 3)
            } else {
                (k + 1, k + 2)
            };
            if let (Some(m), Some(y)) = (
                tok(m_at).and_then(|t| self.months.get(t)),
                tok(y_at).and_then(|t| digits(t, 4..=4)),
            ) {
                out.extend(self.owner(y as i32, *m, d).map(|o| (y_at, o)));
            }
        }
    }
}
