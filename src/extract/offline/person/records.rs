//! Names that open a record line or fill a quoted value, without a label: "Wall, Ruth -
//! 3 West - bed 12", "1. Gonzalez, Constanza - site engineer", "('Najeeb, Zafeer', …",
//! "WASUNUN Sitiwat<TAB>Case Officer". Where a name stands in the layout is its cue.

use super::*;

impl Run<'_> {
    /// Word `i` opens a record: its line (after a list marker: "1.", "2)", "-", "*",
    /// "•"), a cell (after a tab, "|" or ";"), or a sentence after an ellipsis.
    pub(super) fn opens_record(&self, i: usize) -> bool {
        let before = &self.text[..self.toks[i].start];
        // Only the few bytes before the word: a look back to the line start would make a
        // long line quadratic; a list marker is short.
        let mut from = before.len().saturating_sub(12);
        while !before.is_char_boundary(from) {
            from += 1;
        }
        let tail = &before[from..];
        let t = tail.trim_end_matches(' ');
        if t.ends_with(['\t', '|', ';', '\n', '…']) || t.ends_with("...") {
            return true;
        }
        let line = match tail.rfind('\n') {
            Some(n) => &tail[n + 1..],
            None if from == 0 => tail,
            None => return false,
        };
        let m = line.trim();
        m.is_empty() || matches!(m, "-" | "*" | "•" | "–") || list_number(m)
    }

    /// Word `e` ends a record's first cell: the line ends, or a separator follows (a
    /// tab, " - ", "|", ";"), or the sentence ends ("!", "?", ". ").
    pub(super) fn closes_record(&self, e: usize) -> bool {
        let mut rest = &self.text[self.toks[e].end..];
        if self.toks[e].shape == Shape::Initial {
            rest = rest.strip_prefix('.').unwrap_or(rest);
        }
        if rest.is_empty() || rest.starts_with(['\n', '\r', '\t', '|', ';', '!', '?']) {
            return true;
        }
        if let Some(r) = rest.strip_prefix('.') {
            return r.is_empty() || r.starts_with([' ', '\n', '\r']);
        }
        [" - ", " – ", " — ", " |", " ;"]
            .iter()
            .any(|s| rest.starts_with(s))
    }

    /// Words `i..=e` are the whole of a quoted value ("'Najeeb, Zafeer'").
    pub(super) fn quoted(&self, i: usize, e: usize) -> bool {
        let before = self.text[..self.toks[i].start].chars().next_back();
        let after = self.text[self.toks[e].end..].chars().next();
        matches!(
            (before, after),
            (Some('\''), Some('\''))
                | (Some('"'), Some('"'))
                | (Some('\u{2018}'), Some('\u{2019}'))
                | (Some('\u{201c}'), Some('\u{201d}'))
        )
    }

    /// Words `i..=e` are the whole of their line.
    pub(super) fn alone_on_line(&self, i: usize, e: usize) -> bool {
        let text = self.text;
        let before = text[..self.toks[i].start].rsplit('\n').next().unwrap_or("");
        let after = text[self.toks[e].end..].split('\n').next().unwrap_or("");
        before.trim().is_empty() && after.trim().is_empty()
    }

    /// `LAST, FIRST` (words `i..=e`) as a record's first cell or a quoted value.
    pub(super) fn record_cell(&self, i: usize, e: usize) -> bool {
        self.opens_record(i) && self.closes_record(e) || self.quoted(i, e)
    }

    /// "Kiptoo, Khamisi reacted to …": `LAST, FIRST` (a middle name maybe) opening its
    /// line, then a word in lower case (a verb).
    pub(super) fn opens_line_before_verb(&self, i: usize, e: usize) -> bool {
        let toks = self.toks;
        let e = match toks.get(e + 1) {
            Some(m) if m.shape == Shape::Cap && joined(self.text, &toks[e], m) => e + 1,
            _ => e,
        };
        self.opens_record(i)
            && toks
                .get(e + 1)
                .is_some_and(|n| n.shape == Shape::Lower && self.text[toks[e].end..n.start] == *" ")
    }

    /// "WASUNUN Sitiwat<TAB>Case Officer", "WEST Colin - Practice Manager": a surname in
    /// capitals and a given name (a middle name maybe) opening a record line and filling
    /// its first cell.
    pub(super) fn caps_surname_given(&self, i: usize, out: &mut Vec<Found>) {
        let (text, toks, ev) = (self.text, self.toks, self.ev);
        let (Some(a), Some(b)) = (toks.get(i), toks.get(i + 1)) else {
            return;
        };
        if a.shape != Shape::Upper || b.shape != Shape::Cap || !joined(text, a, b) {
            return;
        }
        let given = |k: usize| {
            let e = &ev[k];
            let w = self.folded(k);
            !in_list(NOT_PERSON, w)
                && !is_calendar_word(w)
                && !self.v.is_place(w)
                && (e.known() && e.given > e.surname || self.unknown_word(k))
        };
        let mut e = i + 1;
        if toks
            .get(i + 2)
            .is_some_and(|c| c.shape == Shape::Cap && joined(text, b, c) && given(i + 2))
        {
            e = i + 2;
        }
        if !given(i + 1) || !self.opens_record(i) || !self.closes_record(e) {
            return;
        }
        let fa = self.folded(i);
        let ea = &ev[i];
        let raw = &text[a.start..a.end];
        // An acronym or a code ("PCR", "HR", "ID"): no vowel, or three letters or fewer
        // and no surname.
        if !crate::extract::offline::text::has_vowel(raw)
            || fa.chars().count() <= 3 && ea.surname <= 0.0
            || self.org(i)
            || in_list(NOT_PERSON, fa)
            || is_calendar_word(fa)
            || self.v.is_place(fa) && ea.surname <= 0.0
        {
            return;
        }
        // A surname that is an English word ("WEST Colin") only before a known given
        // name; a heading word ("SUMMARY Anna") is no surname at all.
        if ea.is_word() && !(ea.surname > 0.0 && ev[i + 1].known() && ev[i + 1].given > 0.0) {
            return;
        }
        out.push(Found {
            start: a.start,
            end: toks[e].end,
            row: &LAST_FIRST,
        });
    }
}

/// A numbered list's marker: "1.", "12)", "(3)", "a)".
fn list_number(m: &str) -> bool {
    let m = m.strip_prefix('(').unwrap_or(m);
    let Some(body) = m.strip_suffix(['.', ')']) else {
        return false;
    };
    (1..=3).contains(&body.len()) && body.bytes().all(|b| b.is_ascii_digit())
        || body.len() == 1 && body.bytes().all(|b| b.is_ascii_lowercase())
}
