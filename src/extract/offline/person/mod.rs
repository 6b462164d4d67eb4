//! Person names without cues (SPEC §7): "Claim submitted for Harold Brennan (…)",
//! "Tomasz Wierzbicki, a 52-year-old …", "KELLER, MARIA".
//!
//! A name is a run of two to four capitalised words (initials and particles such as
//! "van", "de" inside) on one line, or "LAST, FIRST". Each word is judged against three
//! public vocabularies (`data/names/`, built by `scripts/build_name_vocab.py`):
//! given names and surnames with their frequency per 100,000 people (US Census,
//! `nam_dict.txt`), and English words with their Zipf frequency (`wordfreq`).
//! A word is **a word, not a name** when it is more frequent as an English word than
//! as a name (both on the Zipf scale: a name's share per 100,000 people, log10, + 3):
//! "Will", "Street", "January", "Annual". A run is cut at such words ("Dear Maria
//! Keller" gives "Maria Keller"); a run holding an organisation, street or heading
//! word is no person at all ("Calloway Genomics Institute", "Keller Street").
//!
//! What the remaining words are decides the relevance: a given name first and a
//! surname last, with or without a cue; one known end; a cue alone; `LAST, FIRST`; a
//! given name and an initial. The rows (`name_vocab`) are in the relevance table of
//! [`super`], declared below as `RelevanceRow` constants. A cue is a preceding "for",
//! "to", "with", "by", "cc", "dear", "congratulations" …, or a following "(", "'s",
//! ", a NN-year-old", "DOB", "said", "called" …; two surnames alone are how firms are
//! named ("Paavola Niemi"), so they need one.
//!
//! Words in capitals count only where the whole run is in capitals and both ends are in
//! the vocabularies, or in the `LAST, FIRST` form: capitals are how headings are written.
//! The vocabularies are read once per process into sorted tables (binary search, no
//! hashing at start-up).

mod lists;
mod tokens;
mod vocab;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use lists::{AFTER, BEFORE, NOT_PERSON, PARTICLES, PLACE_BEFORE};
use tokens::{Shape, Tok, in_list, joined, tokens};
use vocab::vocab;
use vocab::{Evidence, Vocab};
/// Every word of a phrase of two words or more is an English word, much more frequent
/// as a word than as a name ("Quality Assurance", "Provider Relations"): a department
/// or a heading after a label, not a person.
pub(super) fn only_words(phrase: &str) -> bool {
    let v = vocab();
    let toks = tokens(phrase);
    let words: Vec<&Tok> = toks
        .iter()
        .filter(|t| matches!(t.shape, Shape::Cap | Shape::Upper | Shape::Lower))
        .collect();
    words.len() >= 2 && words.iter().all(|t| v.evidence(&t.folded).is_word())
}

/// The Zipf frequency of a lowercase English word (`words.tsv`; 0 when absent).
pub(super) fn word_zipf(word: &str) -> f32 {
    vocab().words.get(word)
}

/// A lowercase word of `words.tsv` (Zipf ≥ 3: an ordinary English word).
pub(super) fn is_english_word(word: &str) -> bool {
    vocab().words.get(word) >= 3.0
}

/// A candidate name found without a cue: byte span and the row of the relevance
/// table it meets.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct Found {
    pub start: usize,
    pub end: usize,
    pub row: &'static RelevanceRow,
}

const FULL_CUED: RelevanceRow = RelevanceRow {
    matches: "a given name first and a surname last (`data/names/`), with a cue before or after",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.95),
};
const FULL: RelevanceRow = RelevanceRow {
    matches: "a given name first and a surname last, without a cue (`Harold Brennan`), or the same in capitals",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.9),
};
const HALF_KNOWN: RelevanceRow = RelevanceRow {
    matches: "a given name and an unknown word, an unknown word and a surname, a family name first (`Nagy Gábor`); in capitals, one end a name and a cue",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.85),
};
const CUED: RelevanceRow = RelevanceRow {
    matches: "any other run of two to four capitalised words, with a cue (`for`, `to`, `with`, `dear` … before; `(`, `'s`, `, a 52-year-old`, `DOB` … after)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};
const LAST_FIRST: RelevanceRow = RelevanceRow {
    matches: "`LAST, FIRST [M.]`: a surname, a comma, a given name, not a list (`KELLER, Maria`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.9),
};
const GIVEN_INITIAL: RelevanceRow = RelevanceRow {
    matches: "a given name and an initial (`Ines C.`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};

/// The rows of [`Names`], in the order of the relevance table.
const ROWS: &[RelevanceRow] = &[FULL_CUED, FULL, HALF_KNOWN, CUED, LAST_FIRST, GIVEN_INITIAL];

/// Person names without a cue, judged by the name and word vocabularies (see the
/// module documentation). Runs before `name_echo`, which finds their other mentions.
pub(in crate::extract::offline) struct Names;

impl Names {
    pub(in crate::extract::offline) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Names)
    }
}

impl Recognizer for Names {
    fn name(&self) -> &'static str {
        "name_vocab"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        ROWS
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        for f in find(ctx.text) {
            if let Some(span) = super::names::name_span(ctx.text, f.start, f.end) {
                ctx.push(cands, span, f.row, Tier::Name);
            }
        }
    }
}

/// Names of `text` found from the vocabularies, shape and context.
pub(super) fn find(text: &str) -> Vec<Found> {
    let v = vocab();
    let toks = tokens(text);
    let mut out = Vec::new();
    let ev: Vec<Evidence> = toks
        .iter()
        .map(|t| match t.shape {
            Shape::Cap | Shape::Upper => v.evidence(&t.folded),
            _ => Evidence::default(),
        })
        .collect();
    let mut i = 0;
    while i < toks.len() {
        if !matches!(toks[i].shape, Shape::Cap | Shape::Upper) {
            i += 1;
            continue;
        }
        // The run: capitalised words, initials and particles joined by single spaces.
        let mut j = i;
        while j + 1 < toks.len()
            && joined(text, &toks[j], &toks[j + 1])
            && match toks[j + 1].shape {
                Shape::Cap | Shape::Upper | Shape::Initial => true,
                Shape::Lower => {
                    in_list(PARTICLES, &toks[j + 1].folded)
                        && toks
                            .get(j + 2)
                            .is_some_and(|n| matches!(n.shape, Shape::Cap | Shape::Upper))
                }
                Shape::Other => false,
            }
        {
            j += 1;
        }
        run(text, v, &toks, &ev, i, j, &mut out);
        last_first(text, &toks, &ev, i, &mut out);
        i = j + 1;
    }
    // Longest first at each start; a name inside another ("Maria J." inside
    // "Keller, Maria J.") is part of it.
    out.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let mut kept: Vec<Found> = Vec::with_capacity(out.len());
    for f in out {
        if !kept.iter().any(|k| k.start <= f.start && f.end <= k.end) {
            kept.push(f);
        }
    }
    kept
}

/// A run of words `i..=j`: cut at English words, judge each segment.
fn run(
    text: &str,
    v: &Vocab,
    toks: &[Tok],
    ev: &[Evidence],
    i: usize,
    j: usize,
    out: &mut Vec<Found>,
) {
    // An organisation word or legal form anywhere ("Mustonen Laitinen Oyj"), or a
    // word glued to one by a dot ("Nagy S.Com.").
    let org = |k: usize| {
        let w = toks[k].folded.as_str();
        in_list(NOT_PERSON, w) || v.org_words.contains(w) || {
            let after = &text[toks[k].end..];
            after.starts_with('.') && after[1..].starts_with(char::is_alphabetic)
        }
    };
    if (i..=j).any(org) {
        return;
    }
    // A place of GeoNames, whole ("Tarnowskie Góry", "Satu Mare").
    let whole: Vec<&str> = (i..=j).map(|k| toks[k].folded.as_str()).collect();
    if v.places.contains(&whole.join(" ")) {
        return;
    }
    // "Boca Raton, FL": a place. A following organisation word was checked above.
    let mut k = i;
    while k <= j {
        let usable = |k: usize| match toks[k].shape {
            Shape::Cap | Shape::Upper => !ev[k].is_word(),
            Shape::Initial | Shape::Lower => true,
            Shape::Other => false,
        };
        if !usable(k) || !matches!(toks[k].shape, Shape::Cap | Shape::Upper) {
            k += 1;
            continue;
        }
        let mut e = k;
        while e < j && usable(e + 1) {
            e += 1;
        }
        // Trailing initials and particles are not part of a name ("Ines C." aside).
        let mut last = e;
        while last > k && !matches!(toks[last].shape, Shape::Cap | Shape::Upper) {
            last -= 1;
        }
        segment(text, toks, ev, k, last, e, out);
        k = e + 1;
    }
}

/// One segment `k..=last` of name-like words (`e` ≥ `last`: trailing initials).
fn segment(
    text: &str,
    toks: &[Tok],
    ev: &[Evidence],
    k: usize,
    last: usize,
    e: usize,
    out: &mut Vec<Found>,
) {
    let words: Vec<usize> = (k..=last)
        .filter(|&x| matches!(toks[x].shape, Shape::Cap | Shape::Upper))
        .collect();
    let cue = cue_before(text, toks, k) || cue_after(text, toks, e);
    if words.len() == 1 {
        // "Ines C.": a given name and an initial, after or before a cue.
        let w = words[0];
        if e > last
            && toks[e].shape == Shape::Initial
            && text[toks[e].end..].starts_with('.')
            && toks[w].shape == Shape::Cap
            && (ev[w].known() && ev[w].given > ev[w].surname || cue)
            && !ev[w].is_word()
            && !followed_by_capital(text, toks, e)
        {
            let end = period_end(text, toks[e].end);
            out.push(Found {
                start: toks[w].start,
                end,
                row: &GIVEN_INITIAL,
            });
        }
        return;
    }
    if words.len() > 4 {
        return;
    }
    let all_upper = words.iter().all(|&x| toks[x].shape == Shape::Upper);
    let mixed_case = !all_upper && words.iter().any(|&x| toks[x].shape == Shape::Upper);
    let (first, lastw) = (words[0], words[words.len() - 1]);
    let (f, l) = (ev[first], ev[lastw]);
    // "Garcia Mews", "Adams Crossway": a street unless the last word is a common
    // surname ("Hill", "Lane", "Ford").
    if l.surname < 4.5 && crate::text::address::is_address_word(&toks[lastw].folded) {
        return;
    }
    let given_first = f.given > 0.0 && f.given >= f.surname - 1.0;
    let surname_last = l.surname > 0.0 && l.surname >= l.given - 1.0;
    // Family name first ("Nguyen Van Anh", "Nagy Gábor"): a surname that is no given
    // name, then a given name.
    let family_first = f.surname > 0.0 && !given_first && l.given > l.surname;
    let unknown = |e: &Evidence| e.name() == 0.0;
    // "in Kettering Mills", "near Boca Raton": a place, unless a given name and a
    // surname say otherwise.
    let place_before = k.checked_sub(1).and_then(|p| toks.get(p)).is_some_and(|p| {
        in_list(PLACE_BEFORE, &p.folded) && text[p.end..toks[k].start].trim().is_empty()
    });
    if place_before && !(given_first && surname_last) {
        return;
    }
    let row = if all_upper || mixed_case {
        // Capitals are how headings are written: both ends must be names.
        if (given_first && surname_last || family_first) && words.iter().all(|&x| ev[x].known()) {
            &FULL
        } else if cue && (given_first || surname_last) {
            &HALF_KNOWN
        } else {
            return;
        }
    } else if given_first && surname_last {
        if cue { &FULL_CUED } else { &FULL }
    } else if given_first && unknown(&l) || unknown(&f) && surname_last || family_first {
        &HALF_KNOWN
    } else if cue {
        // Two surnames ("Paavola Niemi" is a firm), two given names, unknown words.
        &CUED
    } else {
        return;
    };
    out.push(Found {
        start: toks[k].start,
        end: toks[last].end,
        row,
    });
}

/// `LAST, FIRST [M.]` starting at word `i`.
fn last_first(text: &str, toks: &[Tok], ev: &[Evidence], i: usize, out: &mut Vec<Found>) {
    let (Some(a), Some(b)) = (toks.get(i), toks.get(i + 1)) else {
        return;
    };
    if !matches!(a.shape, Shape::Cap | Shape::Upper)
        || !matches!(b.shape, Shape::Cap | Shape::Upper)
    {
        return;
    }
    // "Keller, MARIA" is no way to write a name; "KELLER, Maria" is.
    if a.shape == Shape::Cap && b.shape == Shape::Upper {
        return;
    }
    let gap = &text[a.end..b.start];
    if !(gap.starts_with(',') && gap.len() <= 3 && gap[1..].chars().all(|c| c == ' ')) {
        return;
    }
    let (ea, eb) = (&ev[i], &ev[i + 1]);
    // A surname (or an unknown word) and a given name that is more a given name than
    // a surname ("Smith, Jones" is two surnames).
    let surname_ok = ea.known() && ea.surname > 0.0 || ea.name() == 0.0 && !ea.is_word();
    if !(surname_ok && eb.known() && eb.given > eb.surname) {
        return;
    }
    if in_list(NOT_PERSON, &a.folded) || in_list(NOT_PERSON, &b.folded) {
        return;
    }
    // The name before the comma must start its run (not "Harbor Smith, Anna").
    if i > 0 && joined(text, &toks[i - 1], a) && toks[i - 1].shape != Shape::Lower {
        return;
    }
    let mut end = b.end;
    let mut next = i + 2;
    if let Some(m) = toks.get(next)
        && m.shape == Shape::Initial
        && joined(text, b, m)
    {
        end = period_end(text, m.end);
        next += 1;
    }
    // A firm of partners ("Smith, Jones & Lee") is no LAST, FIRST.
    let rest = text[end..].trim_start_matches(' ');
    if rest.starts_with('&') {
        return;
    }
    if let Some(n) = toks.get(next)
        && n.folded == "and"
        && text[end..n.start].trim().is_empty()
    {
        return;
    }
    out.push(Found {
        start: a.start,
        end,
        row: &LAST_FIRST,
    });
}

fn period_end(text: &str, end: usize) -> usize {
    if text[end..].starts_with('.') {
        end + 1
    } else {
        end
    }
}

fn followed_by_capital(text: &str, toks: &[Tok], e: usize) -> bool {
    toks.get(e + 1)
        .is_some_and(|n| joined(text, &toks[e], n) && matches!(n.shape, Shape::Cap | Shape::Upper))
}

/// A cue word right before word `k` (only white space or a colon between), or a
/// list bullet ("- ", "• ") opening the line.
fn cue_before(text: &str, toks: &[Tok], k: usize) -> bool {
    // Only the few bytes before the word: a bullet is short, and a look back to the
    // line start would make a long line quadratic.
    let before = &text[..toks[k].start];
    let mut from = before.len().saturating_sub(8);
    while !before.is_char_boundary(from) {
        from += 1;
    }
    let tail = &before[from..];
    let line = tail
        .rfind('\n')
        .map(|i| &tail[i + 1..])
        .or((from == 0).then_some(tail));
    if line.is_some_and(|l| matches!(l.trim(), "-" | "*" | "•" | "–")) {
        return true;
    }
    let Some(p) = k.checked_sub(1).and_then(|p| toks.get(p)) else {
        return false;
    };
    let gap = &text[p.end..toks[k].start];
    gap.len() <= 3
        && gap.chars().all(|c| c == ' ' || c == ':' || c == ',')
        && in_list(BEFORE, &p.folded)
}

/// A cue right after word `e`: "(", "'s", ", a 52-year-old", "DOB", "said" …
fn cue_after(text: &str, toks: &[Tok], e: usize) -> bool {
    let rest = &text[toks[e].end..];
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    if rest.starts_with("'s") || rest.starts_with("’s") {
        return true;
    }
    let trimmed = rest.trim_start_matches(' ');
    // "(", or the first cell of a record row ("Name | date | status", tab-separated).
    if trimmed.starts_with(['(', '|', '\t']) {
        return true;
    }
    let after_comma = trimmed.strip_prefix(',').map(|r| r.trim_start_matches(' '));
    if let Some(r) = after_comma {
        let lower: String = r.chars().take(16).flat_map(char::to_lowercase).collect();
        if lower.starts_with("a ")
            || lower.starts_with("an ")
            || lower.starts_with("age")
            || lower.starts_with("dob")
            || lower.starts_with("born")
            || lower.starts_with("who ")
        {
            return true;
        }
        if r.starts_with(|c: char| c.is_ascii_digit()) && lower.contains("year") {
            return true;
        }
    }
    let Some(n) = toks.get(e + 1) else {
        return false;
    };
    let gap = &text[toks[e].end..n.start];
    gap.chars().all(|c| c == ' ' || c == ',') && gap.len() <= 2 && in_list(AFTER, &n.folded)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(text: &str) -> Vec<&str> {
        find(text).iter().map(|f| &text[f.start..f.end]).collect()
    }

    #[test]
    fn names_in_running_text_without_a_cue() {
        assert_eq!(
            names("Claim submitted for Harold Brennan (PR-1234-567) on 3 May."),
            ["Harold Brennan"]
        );
        assert_eq!(
            names("Tomasz Wierzbicki, a 52-year-old with chronic pain."),
            ["Tomasz Wierzbicki"]
        );
        assert_eq!(names("(Ines Carvalho, DOB 04/11/1979)"), ["Ines Carvalho"]);
        assert_eq!(
            names("Congratulations to Yusuf Adeyemi, night-shift lead."),
            ["Yusuf Adeyemi"]
        );
    }

    #[test]
    fn last_first_and_capitals_without_a_label() {
        assert_eq!(names("KELLER, MARIA was seen."), ["KELLER, MARIA"]);
        assert_eq!(names("Keller, Maria J. was seen."), ["Keller, Maria J."]);
        assert!(
            names("Smith, Jones and Lee LLP")
                .iter()
                .all(|n| !n.contains(','))
        );
    }

    #[test]
    fn headings_places_organisations_and_streets_are_no_names() {
        for text in [
            "Annual Enrollment Notice",
            "Quarterly Benefits Update for March",
            "Calloway Genomics Institute announced",
            "He lives at 12 Keller Street.",
            "CLAIM SUMMARY REPORT",
            "Welcome to the Summer Newsletter",
        ] {
            assert!(names(text).is_empty(), "{text}: {:?}", names(text));
        }
    }

    #[test]
    fn invisible_characters_and_odd_spaces_do_not_hide_a_name() {
        assert_eq!(names("for Harold\u{A0}Brennan."), ["Harold\u{A0}Brennan"]);
        assert_eq!(
            names("for Har\u{200B}old Brennan."),
            ["Har\u{200B}old Brennan"]
        );
    }
}
