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
//! Not persons, though made of names (see `blocks.rs`): a firm ("Andersson Johansson
//! HB", "Bláhová Strnadová a.s.", "Merz & Partner", "Toussaint et Fils": a legal form of
//! `cleanco` or ISO 20275 after the run, written with dots or in capitals or in brackets,
//! "&", or a partners' word after a conjunction); a street (a street type of
//! `data/address/street_types.txt`, Mapbox's 28 languages and libpostal's 60, first, last
//! or just before: "Via Adán Uribe", "Stradela …", "avenue Julie Ledoux", or a house
//! number before: "326 Cameron Wells", or a unit, its number and a comma: "Suite 12, …"); a
//! place (a GeoNames town of 1,000 people or a region, whole; a compass word, a kind of
//! place of `data/address/place_types.txt` or a word that opens many GeoNames places,
//! rare as a name, first: "West Lynn", "Castello …", "Sankt Pölten"; a compass word of
//! `data/address/directionals.txt`, rare as a name, after a GeoNames place: "Tangerang
//! Selatan"); an organisation (a kind of company of `data/address/company_types.txt`,
//! libpostal's, first or last: "Groupe Lefebvre", "Keller Gesellschaft"); a product's variant
//! after a word that is no given name ("Zelvatrin Forte"). Particles inside a name may be capitalised or several ("Ó Ciarúcáin", "VAN
//! DER HEIJDEN", "van den Pol"); initials, particles and a surname after a cue make a
//! name ("S. Ó Cairealláin"). An English word that is also a common given name or
//! surname is taken in at a run's end when a cue says a person is meant ("to June Ó
//! Ciarúcáin", "FRANK RICH declined").
//!
//! Words in capitals count only where the whole run is in capitals and both ends are in
//! the vocabularies, or with a cue, or in the `LAST, FIRST` form, or among lower-case
//! words (in a line of prose, or alone on a line with lower-case lines around it):
//! capitals are how headings are written.
//! The vocabularies are read once per process into sorted tables (binary search, no
//! hashing at start-up).

mod blocks;
mod context;
mod coordinated;
mod forms;
mod judge;
mod lists;
mod records;
mod rows;
mod segment;
mod tokens;
mod vocab;

use super::recognizer::{Candidate, Context, Recognizer, RelevanceRow, Tier};
use crate::entity::normalize::is_calendar_word;
use forms::{accented_non_english, nickname};
use lists::{
    BEFORE_OF, CAP_PARTICLES, CONJUNCTIONS, FROM_SENDER, HANDED_ON, NOT_PERSON, OTHER_HONORIFICS,
    PARTICLES, PARTY_ROLES, PERSON_ONLY_AFTER, PERSON_ONLY_BEFORE, PLACE_BEFORE, SENTENCE_OPENERS,
    SUFFIXES, is_after_cue, is_cue_word,
};
use rows::*;
use tokens::{Shape, Tok, Tokens, in_list, joined, period_end, tokens};
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
    words.len() >= 2 && words.iter().all(|t| v.evidence(toks.fold_of(t)).is_word())
}

/// The Zipf frequency of a lowercase English word (`words.tsv`; 0 when absent).
pub(super) fn word_zipf(word: &str) -> f32 {
    vocab().words.get(word)
}

/// A lowercase word that is a given name or a surname of the vocabularies.
pub(super) fn is_name_word(word: &str) -> bool {
    vocab().evidence(word).name() > 0.0
}

/// A lowercase word that is a surname of one person in 100,000 or more ("page",
/// "ward", "lane"), English word or not.
pub(super) fn common_surname(word: &str) -> bool {
    vocab().evidence(&fold_word(word)).surname >= WORD_NAME_MIN
}

/// A lowercase word that is a given name of the vocabularies, however rare, more often
/// given than a surname and not clearly more an English word ("xiuying", "guiying").
pub(super) fn is_given_name(word: &str) -> bool {
    let e = vocab().evidence(word);
    e.known() && e.given > e.surname
}

/// `first` is a common given name (`COMMON_GIVEN` or more) whatever else it is (a
/// month, a preposition: "May", "Per", "June"), and `second` a surname that is no
/// English word ("Eliassen", "Falk") or a capitalised word of four letters or more that
/// no vocabulary knows at all, as a name or as a word ("Vestergaard"): a person's name,
/// though its first word stops most names.
pub(super) fn given_word_before_surname(first: &str, second: &str) -> bool {
    let v = vocab();
    let folded = fold_word(second);
    let (a, b) = (v.evidence(&fold_word(first)), v.evidence(&folded));
    let unknown = b.name() == 0.0
        && b.word == 0.0
        && folded.chars().count() >= 4
        && second.starts_with(char::is_uppercase)
        && second.chars().skip(1).all(char::is_lowercase)
        && !v.foreign_words.contains(&folded)
        && !v.is_place(&folded);
    a.given >= COMMON_GIVEN && (b.surname > 0.0 && b.known() || unknown)
}

/// A verb after a name that only a person takes ("said", "replied": [`PERSON_ONLY_AFTER`]),
/// folded.
pub(super) fn is_person_only_after(folded: &str) -> bool {
    in_list(PERSON_ONLY_AFTER, folded)
}

/// A lowercase word that is a name, not clearly more an English word ("gutierrez",
/// not "dates").
pub(super) fn is_known_name(word: &str) -> bool {
    vocab().evidence(word).known()
}

/// A street type of Mapbox's 28 languages (`data/address/street_types.txt`, folded:
/// "rue", "calle", "strasse", "straat"); libpostal's further types, many of them
/// surnames, are left out.
pub(super) fn is_street_type(folded: &str) -> bool {
    vocab().street_types.contains(folded)
}

/// A street type of Mapbox's or of libpostal's 60 languages ("gardens", "walk",
/// "vej", "gade" too): only after a house number and a capitalised name.
pub(super) fn is_any_street_type(folded: &str) -> bool {
    is_street_type(folded) || vocab().street_libpostal.contains(folded)
}

/// A kind of place of libpostal's dictionaries (`data/address/place_types.txt`:
/// "urbanización", "praia", "borgo"; compass words and qualifiers too).
pub(super) fn is_place_type(folded: &str) -> bool {
    vocab().place_types.contains(folded)
}

/// A unit designator (`data/address/unit_types.txt`: "flat", "apt", "suite", "etage").
pub(super) fn is_unit_type(folded: &str) -> bool {
    vocab().unit_types.contains(folded)
}

/// A word folded as the name vocabularies are: lower case, accents removed.
pub(super) fn fold_word(word: &str) -> String {
    tokens::fold(word)
}

/// Loads the vocabularies now rather than at their first use (the extractor builds
/// them on one core while it builds its other parts on another).
pub(super) fn load_vocabularies() {
    let _ = vocab();
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
        let addresses: Vec<usize> = cands
            .iter()
            .filter(|c| c.ty == "ADDRESS")
            .map(|c| c.start)
            .collect();
        for span in records::names_above(ctx.text, &addresses) {
            ctx.push(cands, span, &ABOVE_ADDRESS, Tier::Name);
        }
        for f in find(ctx.text) {
            // English words all, with a cue only a person takes: a name all the same.
            let span = if f.row.matches == WORDS_CUED.matches {
                super::names::cued_name_span(ctx.text, f.start, f.end, true)
            } else {
                super::names::name_span(ctx.text, f.start, f.end, true)
            };
            if let Some(span) = span {
                let tier = if f.row.matches == UNKNOWN.matches {
                    Tier::NameGuess
                } else {
                    Tier::Name
                };
                ctx.push(cands, span, f.row, tier);
            }
        }
    }
}

/// Names of `text` found from the vocabularies, shape and context.
pub(super) fn find(text: &str) -> Vec<Found> {
    let v = vocab();
    let toks = tokens(text);
    let mut out = Vec::new();
    let ev = vocab::evidence_of(text, &toks, v);
    let r = Run {
        text,
        v,
        toks: &toks,
        ev: &ev,
    };
    let mut i = 0;
    while i < toks.len() {
        if !matches!(toks[i].shape, Shape::Cap | Shape::Upper) && !cap_particle(&toks, i) {
            i += 1;
            continue;
        }
        // "ROTA wk 32: Mon Nyoman Pradana / …": a weekday (mostly abbreviated) before two
        // capitalised words is the day, not a first name ("Sun Li" stays a name).
        if toks[i].shape == Shape::Cap
            && crate::entity::normalize::WEEKDAYS.contains(&toks.fold_of(&toks[i]))
            && (i + 1..=i + 2).all(|k| {
                toks.get(k)
                    .is_some_and(|t| t.shape == Shape::Cap && joined(text, &toks[k - 1], t))
            })
        {
            i += 1;
            continue;
        }
        // "In Dagmar Jandová v. …": a preposition or a conjunction capitalised only
        // because it opens the sentence opens no name.
        if toks[i].shape == Shape::Cap
            && in_list(SENTENCE_OPENERS, toks.fold_of(&toks[i]))
            && r.opens_sentence(i)
        {
            i += 1;
            continue;
        }
        // The run: capitalised words, initials and particles joined by single spaces.
        let mut j = i;
        while j + 1 < toks.len()
            && (joined(text, &toks[j], &toks[j + 1]) || nickname(text, &toks, j))
            // "Sabari Mathenge Emp#: 556768": a key glued to its "#" ends the name.
            && !text[toks[j + 1].end..].starts_with('#')
            // "Re: Anna Berg   DOB …": a record's key in capitals is the next field.
            && !(toks[j + 1].shape == Shape::Upper
                && matches!(toks.fold_of(&toks[j + 1]), "dob" | "mrn" | "nhs" | "ssn" | "dod"))
            // "NELAH ABDI Employee ID 4471": a cue word or label after a name in
            // capitals opens the next field.
            && !(toks[j].shape == Shape::Upper
                && toks[j + 1].shape == Shape::Cap
                && is_cue_word(toks.fold_of(&toks[j + 1])))
            // "Employee Name Sevican Duran Employee ID": likewise after a name word, when
            // the cue word is an English word and no name.
            && !(j > i
                && toks[j + 1].shape == Shape::Cap
                && !is_cue_word(toks.fold_of(&toks[j]))
                && is_cue_word(toks.fold_of(&toks[j + 1]))
                && ev[j + 1].is_word()
                && ev[j + 1].name() == 0.0)
            // "Policyholder KASHANGAKI KIPKEMEI": a capitalised word, then a name in
            // capitals ("Maria KELLER" is one name: one word in capitals).
            && !(toks[j].shape == Shape::Cap
                && toks[j + 1].shape == Shape::Upper
                && toks
                    .get(j + 2)
                    .is_some_and(|n| n.shape == Shape::Upper && joined(text, &toks[j + 1], n)))
            && match toks[j + 1].shape {
                Shape::Cap | Shape::Upper | Shape::Initial => true,
                // "van den Pol", "de la Cruz": particles before a capitalised word.
                Shape::Lower => particles_then_name(text, &toks, j + 1),
                Shape::Other => false,
            }
        {
            j += 1;
        }
        // A short word in capitals after a capitalised name, known as no name, is a code
        // or an acronym ("Stan SPI", "Florea LOC"), not a surname in capitals ("Maria
        // KELLER", "Anh BUI" are listed): the run ends before it.
        let mut end = j;
        if end > i
            && toks[end].shape == Shape::Upper
            && toks[end - 1].shape == Shape::Cap
            && toks[end].end - toks[end].start <= 3
            && ev[end].name() <= 0.0
        {
            end -= 1;
        }
        r.run(i, end, &mut out);
        r.possessive_alone(i, end, &mut out);
        r.after_judicial_title(i, end, &mut out);
        r.last_first(i, &mut out);
        r.caps_surname_given(i, &mut out);
        // "Called Fuli, Mrihani.", "Added Bílek, Ignác to …": a capitalised cue word, or
        // an English word opening the sentence, opens the run.
        if i < end
            && toks[i].shape == Shape::Cap
            && (is_cue_word(toks.fold_of(&toks[i]))
                || is_honorific(toks.fold_of(&toks[i]))
                || ev[i].is_word() && r.opens_sentence(i))
        {
            r.last_first(i + 1, &mut out);
        }
        // "Employee Name Gadzina, Grzegorz": the run's last word before the comma, after
        // a cue word or an honorific deeper in the run.
        if end >= i + 2
            && (is_cue_word(toks.fold_of(&toks[end - 1]))
                || is_honorific(toks.fold_of(&toks[end - 1])))
        {
            r.last_first(end, &mut out);
        }
        i = j + 1;
    }
    records::lower_case_names(text, &toks, v, &mut out);
    // Longest first at each start; a name inside another ("Maria J." inside
    // "Keller, Maria J.") is part of it.
    out.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    let mut kept: Vec<Found> = Vec::with_capacity(out.len());
    for f in out {
        // Sorted by start, the kept names' ends rise: only the last can hold `f`.
        if kept.last().is_none_or(|k| f.end > k.end) {
            kept.push(f);
        }
    }
    // Names joined by "and" to a name found, or beside one in a list.
    let mut more = coordinated::coordinated(&r, &kept);
    if !more.is_empty() {
        kept.append(&mut more);
        kept.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
    }
    kept
}

/// An honorific of English or of another language, folded ("mr", "herr", "sra").
fn is_honorific(folded: &str) -> bool {
    crate::entity::normalize::HONORIFICS.contains(&folded) || in_list(OTHER_HONORIFICS, folded)
}

/// Word `k` is a name particle written with a capital ("Ó", "Mac", "VAN", "De") and a
/// capitalised word follows: part of a surname.
fn cap_particle(toks: &Tokens, k: usize) -> bool {
    // A particle of PARTICLES is written without accents: "Lê" (Vietnamese) is a name,
    // not "Le". (Irish "Ó", "Ní" fold to CAP_PARTICLES.)
    let f = toks.folded(k);
    let plain = toks[k].end - toks[k].start == f.len();
    // Irish and Scottish particles do not stack: before one ("Mac Ó Maolruanaí") a
    // word is the given name.
    matches!(toks[k].shape, Shape::Cap | Shape::Upper | Shape::Initial)
        && (in_list(CAP_PARTICLES, f) || in_list(PARTICLES, f) && plain)
        && toks.get(k + 1).is_some_and(|n| {
            matches!(n.shape, Shape::Cap | Shape::Upper) || lists::is_particle(toks.fold_of(n))
        })
        && !(in_list(CAP_PARTICLES, f)
            && toks.get(k + 1).is_some_and(|n| {
                n.shape != Shape::Lower && in_list(CAP_PARTICLES, toks.fold_of(n))
            }))
}

/// Lower-case particles from word `k` on (one to three), then a capitalised word, all
/// joined.
fn particles_then_name(text: &str, toks: &Tokens, k: usize) -> bool {
    let mut x = k;
    while x < k + 3 && x < toks.len() && toks[x].shape == Shape::Lower {
        if !in_list(PARTICLES, toks.folded(x)) {
            return false;
        }
        match toks.get(x + 1) {
            Some(n) if joined(text, &toks[x], n) => x += 1,
            _ => return false,
        }
    }
    toks.get(x)
        .is_some_and(|n| matches!(n.shape, Shape::Cap | Shape::Upper))
}

/// What one run is judged with.
struct Run<'a> {
    text: &'a str,
    v: &'a Vocab,
    toks: &'a Tokens,
    ev: &'a [Evidence],
}

impl<'a> Run<'a> {
    fn folded(&self, k: usize) -> &str {
        self.toks.folded(k)
    }

    /// The last `n` bytes (or a few fewer, at a character boundary) before word `k`,
    /// and the part of them on word `k`'s line when that line starts within them.
    /// Only a few bytes are read: a look back to the line start would make a long
    /// line quadratic, and what is sought there (a bullet, a list number) is short.
    fn near_before(&self, k: usize, n: usize) -> (&'a str, Option<&'a str>) {
        let before = &self.text[..self.toks[k].start];
        let mut from = before.len().saturating_sub(n);
        while !before.is_char_boundary(from) {
            from += 1;
        }
        let tail = &before[from..];
        let line = match tail.rfind('\n') {
            Some(i) => Some(&tail[i + 1..]),
            None => (from == 0).then_some(tail),
        };
        (tail, line)
    }

    /// Word `k` is a common given name (`COMMON_GIVEN` or more), more often given
    /// than a surname.
    fn common_given(&self, k: usize) -> bool {
        let e = &self.ev[k];
        e.known() && e.given >= COMMON_GIVEN && e.given > e.surname
    }

    fn is_name_word(&self, k: usize) -> bool {
        matches!(self.toks[k].shape, Shape::Cap | Shape::Upper)
    }

    /// Word `k` is one no person bears ([`NOT_PERSON`]: a firm's, a place's kind, a
    /// legal form), written as such a word is: a legal form is written in ASCII ("Sá"
    /// is a Portuguese surname, "SA" a legal form).
    fn not_person(&self, k: usize) -> bool {
        in_list(NOT_PERSON, self.folded(k))
            && !accented_non_english(&self.text[self.toks[k].start..self.toks[k].end])
    }

    /// An organisation word or legal form ("Mustonen Laitinen Oyj", "Nagy Kht.",
    /// "Andersson Johansson HB"), or a word glued to one by a dot ("Nagy S.Com.").
    fn org(&self, k: usize) -> bool {
        let (text, toks, v) = (self.text, self.toks, self.v);
        let w = self.folded(k);
        let after = &text[toks[k].end..];
        // A legal form is written in ASCII: "Sá" (Portuguese) is a surname, not "SA".
        let ascii_form = !accented_non_english(&text[toks[k].start..toks[k].end]);
        if self.not_person(k) || v.org_words.contains(w) {
            return true;
        }
        if let Some(glued) = after.strip_prefix('.') {
            if glued.starts_with(char::is_alphabetic) {
                return true;
            }
            let mut dotted = String::with_capacity(w.len() + 1);
            dotted.push_str(w);
            dotted.push('.');
            if v.org_words.contains(&dotted) {
                return true;
            }
        }
        // A short legal form in capitals after a name ("HB", "BA"), not a given name
        // before one ("BO HÅKANSSON"), nor a name's middle word or particle ("NGỌC VI
        // PHẠM", "JOÃO DA PAZ"): a legal form ends the firm's name.
        toks[k].shape == Shape::Upper
            && ascii_form
            && v.org_short.contains(w)
            && k.checked_sub(1)
                .is_some_and(|p| self.is_name_word(p) && joined(text, &toks[p], &toks[k]))
            && !toks.get(k + 1).is_some_and(|n| {
                matches!(n.shape, Shape::Upper | Shape::Cap)
                    && joined(text, &toks[k], n)
                    && self.is_name_word(k + 1)
            })
    }

    /// A run of words `i..=j`: cut at English words, judge each segment.
    fn run(&self, i: usize, j: usize, out: &mut Vec<Found>) {
        let (toks, ev) = (self.toks, self.ev);
        // A given name and a surname that is an English word or names places too, with
        // a cue only a person takes ("Dear Hope Hills,"): a place's or firm's word is
        // no matter.
        if self.word_pair(i, j) {
            out.push(Found {
                start: toks[j - 1].start,
                end: toks[j].end,
                row: &WORDS_CUED,
            });
            return;
        }
        let org = (i..=j)
            .rev()
            .find(|&k| self.org(k) && !(k == i && cap_particle(toks, k)));
        if let Some(o) = org {
            // "Union Representative Maria Keller", "Clinic Manager …": an organisation's
            // word, a title (an English word), then a given name and a surname. Only a
            // full name is taken from such a run; anything else in it is the
            // organisation's.
            let title = (o + 1..j.saturating_sub(1))
                .find(|&k| self.is_name_word(k) && word_zipf(self.folded(k)) >= 3.0);
            if let Some(t) = title {
                let mut tail = Vec::new();
                self.run(t + 1, j, &mut tail);
                out.extend(
                    tail.into_iter()
                        // (Rows are constants: compared by what they say, not where.)
                        .filter(|f| [FULL.matches, FULL_CUED.matches].contains(&f.row.matches)),
                );
            }
            return;
        }
        // A place of GeoNames, whole ("Tarnowskie Góry", "Satu Mare"), a town of 1,000
        // people or a region included.
        let whole: Vec<&str> = (i..=j).map(|k| self.folded(k)).collect();
        if self.v.is_place(&whole.join(" ")) && !self.person_named_place(i, j) {
            return;
        }
        // A firm: "Smith & Jones", "… & Partner", "Toussaint Lebreton et Fils",
        // "Bláhová Strnadová a.s.".
        let mut lastname = j;
        while lastname > i && !self.is_name_word(lastname) {
            lastname -= 1;
        }
        if self.firm_before(i)
            || self.firm_after(j)
            || self.firm_after(lastname)
            || self.registry_after(i, j)
            || self.legal_form_last(i, j)
        {
            return;
        }
        if let Some((k, last)) = self.cued_caps(i, j) {
            out.push(Found {
                start: toks[k].start,
                end: toks[last].end,
                row: &CAPS_CUED,
            });
            return;
        }
        // "Boca Raton, FL": a place. A following organisation word was checked above.
        let mut k = i;
        while k <= j {
            // After a particle an English word is a surname ("Annabel van Tours").
            let usable = |k: usize| match toks[k].shape {
                Shape::Cap | Shape::Upper => {
                    !ev[k].is_word()
                        || cap_particle(toks, k)
                        || self.after_particle(k)
                        || self.given_before_particle(k)
                        // "Smith v Hook [2021] EWHC 1432": a party of a case.
                        || self.case_party(k)
                        // `Sam "Kit" Madsen`: a nickname in quotes inside a name.
                        || k > i && k < j && nickname(self.text, toks, k)
                        // "THU VI BÙI": a given name that is also an English word
                        // between two name words that are none.
                        || k > i
                            && k < j
                            && ev[k].given > 0.0
                            && toks[k - 1].shape == toks[k].shape
                            && toks[k + 1].shape == toks[k].shape
                            && [k - 1, k + 1]
                                .iter()
                                .all(|&x| ev[x].known() && !in_list(NOT_PERSON, self.folded(x)))
                }
                Shape::Initial | Shape::Lower => true,
                Shape::Other => false,
            };
            let starts = |k: usize| self.is_name_word(k) || cap_particle(toks, k);
            if !usable(k) || !starts(k) {
                k += 1;
                continue;
            }
            let mut e = k;
            while e < j && usable(e + 1) {
                e += 1;
            }
            // Trailing initials and particles are not part of a name ("Ines C." aside).
            let mut last = e;
            while last > k && !self.is_name_word(last) {
                last -= 1;
            }
            // A given name that is also an English word, before a name with a cue
            // ("to June Ó Ciarúcáin", "Made Dūmiņa" on a bulleted line), or a surname
            // that is one after a given name ("FRANK RICH declined").
            let mut from = k;
            let mut worded = false;
            let same_case = |a: usize, b: usize| toks[a].shape == toks[b].shape;
            // "cc Safari Wanijiku", "belonging to Till Juncken": after a cue word, a
            // capitalised English word before words no vocabulary knows is a first name.
            let word_then_unknown = k > i
                && self.is_name_word(k - 1)
                && self.ev[k - 1].is_word()
                && toks[k - 1].shape == Shape::Cap
                && (k..=last).all(|x| self.unknown_word(x))
                && !in_list(NOT_PERSON, self.folded(k - 1))
                // A cue word is no first name ("Employee Name Gadzina").
                && !is_cue_word(self.folded(k - 1))
                && !is_calendar_word(self.folded(k - 1))
                && !self.v.place_openers.contains(self.folded(k - 1))
                && self.listed_cue_before(k - 1);
            // "Tutu Kowalski, a 67-year-old …", "Wren Okafor said": an English word that
            // is some people's name, before the surname, with a cue only a person
            // takes after it.
            // A chat line's speaker ("[09:16] Wage Hutapea: on it", "[09:16] Per
            // Nilsen: …"): any capitalised word before a surname or a word of no
            // vocabulary.
            // Both: a capitalised word, neither a calendar word nor one no person
            // bears, before a surname or an unknown word that ends the run.
            let word_before = k > i
                && last == e
                && toks[k - 1].shape == Shape::Cap
                && (ev[e].surname > 0.0 || self.unknown_word(e))
                && !in_list(NOT_PERSON, self.folded(k - 1))
                && !is_calendar_word(self.folded(k - 1));
            let speaker = word_before && self.chat_speaker(k - 1, e);
            // ("Later Smith said", "Then Ward said": one of the commonest English words
            // opening the sentence is no rare given name.)
            let rare_given_cued = word_before
                && ev[k - 1].name() > 0.0
                && ev[k - 1].word < RARE_GIVEN_WORD_MAX
                && !is_cue_word(self.folded(k - 1))
                && !self.v.place_openers.contains(self.folded(k - 1))
                && !self.v.is_place(self.folded(k - 1))
                && (self.person_only_after(e)
                    // "can you check with Harsh Lalla re …": a cue only a person takes.
                    || self.person_only_before(k - 1)
                    // "Interview panel: Eta Bhandari (chair)", "Re: CLM-2025-964832 /
                    // Comfort Anokye⏎", "taken by Safari Adan. The": a label or a code
                    // before and a bracket, the line's or the sentence's end after.
                    || self.cue_before(k - 1)
                        && !self.bullet_before(k - 1)
                        && (self.cue_after(e)
                            || self.line_ends_after(e)
                            || self.sentence_ends_after(e)
                            // "on behalf of Safari Otieno after …", "Counsel for Sonata
                            // Kavaliauskas filed": a rarer English word before a surname
                            // that is none, the surname ending the run.
                            || e == k
                                && ev[e].surname > 0.0
                                && !ev[e].is_word()
                                && ev[k - 1].word < RARE_GIVEN_BEFORE_SURNAME_MAX))
                || speaker;
            if k > i
                && (self.word_given(k - 1) || word_then_unknown || rare_given_cued)
                && same_case(k - 1, k)
                && (self.cue_before(k - 1)
                    || self.cue_after(e) && !is_calendar_word(self.folded(k - 1))
                    || rare_given_cued)
            {
                from = k - 1;
                worded = true;
            }
            // "Claims Adjuster Dana Whitfield", "Underwriter Paolo Ricci": a word in no
            // vocabulary, shaped like an agent noun, before a known given name and
            // another name word is the person's role, not part of the name.
            if from == k
                && last >= k + 2
                && self.role_shaped(k)
                && ev[k + 1].known()
                && ev[k + 1].given > 0.0
            {
                from = k + 1;
            }
            let mut to = last;
            let mut to_e = e;
            // A cue around the name and the word after it: after that word, before the
            // name ("reviewed with Nkiruka Obi", "to Cantemir Pop in billing",
            // "Deposition of DOMINIC ROUT"), or a chat line's speaker ("[09:14] Chijioke
            // Obi: …").
            // ("Reassigned CLM-… from Francisco Javier Canals to …": a sender.)
            let cued_pair = || {
                self.cue_after(e + 1)
                    || self.cue_before(k)
                    || self.chat_speaker(k, e + 1)
                    || self.sent_from(k)
            };
            if last == e
                && e < j
                && (self.word_surname(e + 1)
                    || self.ev[e + 1].is_word()
                        && self.ev[e + 1].surname > 0.0
                        && self.is_name_word(e + 1)
                        && !in_list(NOT_PERSON, self.folded(e + 1))
                        // An abbreviation is no surname ("Yüksel San.'s invoice").
                        && !self.abbreviated(e + 1)
                        && cued_pair()
                    // "adjuster Thomas Chevrolet", "contact Sébastien Chevrolet @ …": a
                    // rarer English word (a brand's, a comparative) that no vocabulary
                    // lists as a name, after a common given name, ending the run
                    // ("Autumn Payroll Summary" is a title), with a cue.
                    || e + 1 == j
                        && self.rare_word_surname(e + 1)
                        && self.common_given(e)
                        && cued_pair()
                    // ("[Hermina Jug] 10:43:", "- **Hermina Jug** (forklift operator)":
                    // after a rarer given name, with a cue right after the pair.)
                    || e + 1 == j
                        && self.rare_word_surname(e + 1)
                        && ev[e].known()
                        && ev[e].given > ev[e].surname
                        && self.cue_after(e + 1))
                && same_case(e, e + 1)
                && (ev[e].known() && ev[e].given > 0.0
                    || k == e && self.unknown_word(e) && self.cue_before(k))
                && cued_pair()
            {
                to = e + 1;
                to_e = e + 1;
                worded = true;
            }
            // "Helga Mayor moved away": a common given name
            // that is no word, then a capitalised English word that is also listed as a
            // surname, ending the run: a person without a cue.
            let mut uncued = false;
            if !worded
                && from == k
                && k == e
                && e + 1 == j
                // In capitals inside prose too ("EMPLOYEE RECORD⏎BRADLEY READ⏎Staff ID").
                && (toks[e].shape == Shape::Cap && toks[j].shape == Shape::Cap
                    || toks[e].shape == Shape::Upper
                        && toks[j].shape == Shape::Upper
                        && self.prose_around(e, j))
                && self.common_given(e)
                && ev[j].is_word()
                && ev[j].surname > 0.0
                && !in_list(NOT_PERSON, self.folded(j))
                // "Easter Monday", "Aslan San …": a day, a month, a place's first word.
                && !is_calendar_word(self.folded(j))
                && !is_calendar_word(self.folded(e))
                && !self.v.place_openers.contains(self.folded(j))
            {
                to = j;
                to_e = j;
                worded = true;
                uncued = true;
            }
            if self.blocked(i, j, from, to) {
                k = e + 1;
                continue;
            }
            self.segment(from, to, to_e, worded, uncued, out);
            k = e + 1;
        }
    }
}

/// An English word counts as a name at a run's end (with a cue) from this Zipf value
/// as a name (one person in 100,000).
const WORD_NAME_MIN: f32 = 3.0;

/// A capitalised English word before a surname is a rarer given name, with a cue only a
/// person takes, below this Zipf value as a word ("Tutu", "Wren" are; "Later", "Then"
/// are not).
const RARE_GIVEN_WORD_MAX: f32 = 5.0;

/// Below this Zipf value as a word, a capitalised English word that is also a rarer
/// given name, after a cue word, before a surname that is no word, is the first name
/// ("Safari", "Sonata"; not "Grant", "Rose").
const RARE_GIVEN_BEFORE_SURNAME_MAX: f32 = 4.0;

/// A given name this common (Zipf as a name: three people in 100,000) makes the
/// capitalised English word after it a surname without a cue.
const COMMON_GIVEN: f32 = 3.5;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_cues;
#[cfg(test)]
mod tests_layout;
#[cfg(test)]
mod tests_not_persons;
#[cfg(test)]
mod tests_orders;
