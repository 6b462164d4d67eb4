//! Ways a name is written that the run's rules read apart: letters English does not
//! use, a nickname in quotes inside it, a case cited by its parties' surnames, a maiden
//! name, a name in capitals inside prose.

use super::super::text::has_vowel;
use super::lists::NOT_PERSON;
use super::tokens::{Shape, Tokens, in_list, joined};
use super::{Run, cap_particle};
use crate::entity::normalize::is_calendar_word;

/// How far around a line of capitals alone (in bytes, each way) lower-case words are
/// looked for.
const AROUND: usize = 160;

/// A word written with letters English does not use ("Sööt", "Bär", "Hüge", "Møller"):
/// the English word its folded letters spell ("soot", "bar", "huge") is not what it is.
/// The few loanwords English writes with their accents ("Café", "Résumé") stay words.
pub(super) fn accented_non_english(word: &str) -> bool {
    const LOANWORDS: &[&str] = &[
        "café",
        "cafés",
        "résumé",
        "résumés",
        "naïve",
        "fiancé",
        "fiancée",
        "protégé",
        "élite",
        "façade",
        "déjà",
        "décor",
        "entrée",
        "rosé",
        "soirée",
        "cliché",
        "crème",
        "über",
        "señor",
        "señora",
        "jalapeño",
        "piñata",
        "mañana",
        "coöperation",
        "pâté",
        "exposé",
        "communiqué",
        "attaché",
        "sauté",
        "purée",
        "chargé",
        "habitué",
        "négligé",
    ];
    if word.is_ascii() {
        return false;
    }
    let lower = word.to_lowercase();
    lower.chars().any(|c| c.is_alphabetic() && !c.is_ascii())
        && !LOANWORDS.contains(&lower.as_str())
}

/// Words `j` and `j + 1` are joined by a nickname in quotes between them, or are the
/// quoted nickname and the word after it: `Asmini "Dede" Atieno`, `Scott “Max” Robson`.
pub(super) fn nickname(text: &str, toks: &Tokens, j: usize) -> bool {
    let gap = |a: usize, b: usize| &text[toks[a].end..toks[b].start];
    let cap = |k: usize| toks.get(k).is_some_and(|t| t.shape == Shape::Cap);
    // After the nickname, the surname or its particles (`Janna "Max" de Kale`).
    let surname = |k: usize| {
        cap(k)
            || toks
                .get(k)
                .is_some_and(|t| super::lists::is_particle(toks.fold_of(t)))
    };
    let opens = |g: &str| matches!(g, " \"" | " \u{201c}");
    let closes = |g: &str| matches!(g, "\" " | "\u{201d} ");
    // Given ⟶ "Nick": the nickname closes and a capitalised word follows.
    let into = j + 2 < toks.len()
        && opens(gap(j, j + 1))
        && closes(gap(j + 1, j + 2))
        && cap(j)
        && cap(j + 1)
        && surname(j + 2);
    // "Nick" ⟶ Surname: the nickname was opened after a capitalised word.
    let out_of = j >= 1
        && j + 1 < toks.len()
        && opens(gap(j - 1, j))
        && closes(gap(j, j + 1))
        && cap(j - 1)
        && cap(j)
        && surname(j + 1);
    into || out_of
}

impl Run<'_> {
    /// Word `w` is a party of a case cited by its parties' surnames: "Jacobs v Masinde
    /// [2021] EWHC 1432", "Roe v. Wade (1973)" — "v", "v.", "vs" or "vs." between two
    /// capitalised words and the year in brackets after them; no English word unless
    /// a listed surname, no organisation's word.
    pub(super) fn case_party(&self, w: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        const SEPS: [&str; 4] = [" v ", " v. ", " vs ", " vs. "];
        let caps = toks[w].shape == Shape::Upper;
        // An English word that is also a listed surname may be a party ("Bruce Hook" …
        // "v Hook [2021]").
        if !(toks[w].shape == Shape::Cap || caps && self.folded(w).chars().count() >= 3)
            || self.ev[w].is_word() && self.ev[w].surname < super::WORD_NAME_MIN
            || self.org(w)
            || self.v.is_place(self.folded(w))
        {
            return false;
        }
        let before = &text[..toks[w].start];
        let after = &text[toks[w].end..];
        let other_after = SEPS
            .iter()
            .find_map(|s| after.strip_prefix(s))
            .filter(|r| r.starts_with(char::is_uppercase));
        let other_before = SEPS
            .iter()
            .find_map(|s| before.strip_suffix(s))
            .filter(|b| b.ends_with(char::is_alphabetic));
        let cited = |rest: &str| {
            let line = rest.split('\n').next().unwrap_or("");
            let mut cut = line.len().min(60);
            while !line.is_char_boundary(cut) {
                cut -= 1;
            }
            let window = &line[..cut];
            window.char_indices().any(|(i, c)| {
                matches!(c, '[' | '(')
                    && window[i + 1..].len() >= 5
                    && window.as_bytes()[i + 1..i + 5]
                        .iter()
                        .all(u8::is_ascii_digit)
                    && matches!(window.as_bytes()[i + 5], b']' | b')')
            })
        };
        // In capitals ("RE: ZAFIR v MONNARD - directions hearing"), both parties are one
        // word in capitals each: a case's title, with or without its year.
        let caps_title = |other: Option<&str>, before_side: bool| {
            caps && other.is_some_and(|o| {
                let word: &str = if before_side {
                    o.rsplit(|c: char| !c.is_alphabetic()).next().unwrap_or("")
                } else {
                    o.split(|c: char| !c.is_alphabetic()).next().unwrap_or("")
                };
                word.chars().count() >= 3 && word.chars().all(char::is_uppercase)
            })
        };
        match (other_before, other_after) {
            (Some(b), _) => cited(after) || caps_title(Some(b), true),
            (None, Some(r)) => cited(r) || caps_title(Some(r), false),
            _ => false,
        }
    }

    /// Word `w` is a maiden name: a capitalised word right after "née", "nee", "né",
    /// "geb." or "geborene" ("Mrs North (née Balogun)").
    pub(super) fn maiden_name(&self, w: usize) -> bool {
        let toks = self.toks;
        toks[w].shape == Shape::Cap
            && !self.ev[w].is_word()
            && w >= 1
            && matches!(self.folded(w - 1), "nee" | "ne" | "geb" | "geborene")
            && matches!(
                self.text[toks[w - 1].end..toks[w].start].trim_start_matches('.'),
                " "
            )
    }

    /// Words `k..=last` in capitals are a name written in capitals inside prose: the
    /// line holds two lower-case words or more (a heading is in capitals throughout),
    /// the capitals are the whole run (no English word in capitals beside them), and
    /// each word is a known name or has three letters or more with a vowel (no
    /// acronym: "PCR", "MRN"). A run alone on its line counts when the lines around it
    /// hold lower-case words.
    pub(super) fn caps_in_prose(&self, k: usize, last: usize, words: &[usize]) -> bool {
        if !(2..=4).contains(&words.len()) || !self.prose_around(k, last) {
            return false;
        }
        let (text, toks) = (self.text, self.toks);
        let whole: Vec<&str> = words.iter().map(|&x| self.folded(x)).collect();
        if self.v.is_place(&whole.join(" ")) {
            return false;
        }
        words.iter().all(|&x| {
            let w = self.folded(x);
            let vowel = has_vowel(&text[toks[x].start..toks[x].end]);
            !self.ev[x].is_word()
                && !in_list(NOT_PERSON, w)
                && !self.org(x)
                && !is_calendar_word(w)
                && !self.v.is_place(w)
                && (self.ev[x].known() || w.chars().count() >= 3 && vowel)
        })
    }
}

impl Run<'_> {
    /// Words `k..=last` in capitals are the whole run of capitals and stand in lower-case
    /// prose: their line holds two lower-case words or more (a heading is in capitals
    /// throughout), or they are alone on their line ("EMPLOYEE RECORD⏎RICHARD
    /// AFOAKWA⏎Staff ID: …", a signature's "KALEVI PENNANEN⏎Claims Handler") and the
    /// text around it, within a few lines, is in lower case: the capitals are a name's
    /// style, not a heading's.
    pub(super) fn prose_around(&self, k: usize, last: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        let whole_run = |x: usize, step: isize| {
            let n = x as isize + step;
            n < 0
                || toks.get(n as usize).is_none_or(|t| {
                    !matches!(t.shape, Shape::Upper | Shape::Initial)
                        || !(if step < 0 {
                            joined(text, t, &toks[x])
                        } else {
                            joined(text, &toks[x], t)
                        })
                })
        };
        if !whole_run(k, -1) || !whole_run(last, 1) {
            return false;
        }
        let (line_start, line_end) = self.line_of(k, last);
        let alone = self.alone_on_line(k, last) && {
            // (Byte offsets, compared with the tokens' only.)
            let (from, to) = (line_start.saturating_sub(AROUND), line_end + AROUND);
            self.lower_words(from, line_start) + self.lower_words(line_end, to) >= 2
        };
        alone || self.lower_words(line_start, line_end) >= 2
    }

    /// The byte range of the line holding words `k..=last`.
    fn line_of(&self, k: usize, last: usize) -> (usize, usize) {
        let (text, toks) = (self.text, self.toks);
        let line_start = text[..toks[k].start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = text[toks[last].end..]
            .find('\n')
            .map_or(text.len(), |i| toks[last].end + i);
        (line_start, line_end)
    }

    /// How many lower-case words of two letters or more lie in bytes `from..to` (the
    /// tokens are in text order: those of a span are found by bisection).
    fn lower_words(&self, from: usize, to: usize) -> usize {
        let toks = self.toks;
        let a = toks.partition_point(|t| t.start < from);
        let b = toks.partition_point(|t| t.end <= to);
        toks[a..b.max(a)]
            .iter()
            .filter(|t| t.shape == Shape::Lower && t.end - t.start >= 2)
            .count()
    }

    /// The end of the run `i..=j` in capitals is a name written in capitals right after
    /// a cue, inside a line of lower-case prose, English words among it: "voicemail
    /// left for PRIMA PONGPANITCH today", "released to BO HÅKANSSON by cheque", "IN THE
    /// MATTER OF FANG HE, Deceased. Notice is given …". The capitals are the name's
    /// style, so a word that is also an English word is taken when the vocabularies list
    /// it as a name; an English word no vocabulary lists as a name ("for URGENT
    /// REVIEW", "to HR TEAM"), a place, a month, an organisation's word or an acronym
    /// makes no name. Returns the name's first and last word.
    pub(super) fn cued_caps(&self, i: usize, j: usize) -> Option<(usize, usize)> {
        let toks = self.toks;
        if j <= i || toks[j].shape != Shape::Upper {
            return None;
        }
        // The name opens after a cue before it, or is the whole run with a cue after it
        // ("RICK VAN DEN BRAND v. Northgate Logistics").
        let k = (i..j)
            .find(|&k| toks[k].shape == Shape::Upper && self.cue_before(k))
            .or_else(|| {
                (toks[i].shape == Shape::Upper && (self.cue_after(j) || self.after_closing(i)))
                    .then_some(i)
            })?;
        if (k..=j).any(|x| !matches!(toks[x].shape, Shape::Upper) && !cap_particle(toks, x)) {
            return None;
        }
        let words: Vec<usize> = (k..=j)
            .filter(|&x| !(x < j && cap_particle(toks, x)))
            .collect();
        if !(2..=3).contains(&words.len()) {
            return None;
        }
        // Outside prose, a layout only a person's name takes, and a word the name
        // vocabularies know: a letter's signature ("Kind regards,⏎⏎NGỌC VI PHẠM"), a
        // list item with the person's phone or code in brackets ("- JOÃO DA PAZ
        // (+44 …)"). Headings are in capitals too ("- ANNUAL REVIEW (2024)").
        let laid_out = || {
            let item = self.cue_before(k) && self.bullet_before(k) && self.code_after_bracket(j);
            (item || k == i && self.after_closing(i)) && words.iter().any(|&x| self.ev[x].known())
        };
        let (line_start, line_end) = self.line_of(k, j);
        if self.lower_words(line_start, line_end) < 2 && !laid_out() {
            return None;
        }
        (!self.v.is_place(&self.joined_words(&words))
            && words.iter().all(|&x| self.name_by_its_word(x))
            && self.one_named(&words))
        .then_some((k, j))
    }

    /// Nothing but blanks follows word `e` on its line.
    pub(super) fn line_ends_after(&self, e: usize) -> bool {
        // (Only the blanks are read: a look to the line's end would make a long line
        // quadratic.)
        let rest = self.text[self.toks[e].end..].trim_start_matches([' ', '\t', '\r']);
        rest.is_empty() || rest.starts_with('\n')
    }

    /// A sentence ends right after word `e`: ".", "!" or "?", then a blank and a capital
    /// or the line's end.
    pub(super) fn sentence_ends_after(&self, e: usize) -> bool {
        let rest = &self.text[self.toks[e].end..];
        let Some(r) = rest.strip_prefix(['.', '!', '?']) else {
            return false;
        };
        let r = r.trim_start_matches([' ', '\t', '\r']);
        r.is_empty()
            || r.starts_with('\n')
            || r.starts_with(char::is_uppercase) && r.len() < rest.len() - 1
    }

    /// A list bullet ("- ", "• ", "* ") opens the line before word `k`.
    pub(super) fn bullet_before(&self, k: usize) -> bool {
        self.near_before(k, 12)
            .1
            .is_some_and(super::records::is_bullet)
    }

    /// After word `e`, a bracket whose first word holds four digits or more: a phone
    /// or a person's code ("(+44(0)1164960988)", "(EMP-53022)").
    fn code_after_bracket(&self, e: usize) -> bool {
        let rest = self.text[self.toks[e].end..].trim_start_matches([' ', '\t']);
        rest.strip_prefix('(').is_some_and(|r| {
            let first = r
                .split(|c: char| c.is_whitespace() || c == ',')
                .next()
                .unwrap_or("");
            first.bytes().filter(u8::is_ascii_digit).count() >= 4
        })
    }

    /// The folded words `words` joined by single spaces, as GeoNames places are.
    pub(super) fn joined_words(&self, words: &[usize]) -> String {
        let whole: Vec<&str> = words.iter().map(|&x| self.folded(x)).collect();
        whole.join(" ")
    }

    /// Word `x` may be part of a name whose style or neighbour says a person is meant:
    /// no organisation's word, month or place (unless a common name too), and an English
    /// word only when the vocabularies list it as a name; a word of no vocabulary needs
    /// three letters and a vowel (no acronym).
    pub(super) fn name_by_its_word(&self, x: usize) -> bool {
        let w = self.folded(x);
        let e = &self.ev[x];
        !in_list(NOT_PERSON, w)
            && !self.org(x)
            && !is_calendar_word(w)
            // (A town that is also a name of one in 100,000 or more is a name here:
            // "PAZ", "VI".)
            && (!self.v.is_place(w) || e.name() >= super::WORD_NAME_MIN)
            && if e.is_word() {
                e.name() > 0.0
            } else {
                e.known() || w.chars().count() >= 3 && has_vowel(w)
            }
    }

    /// One of `words` at least is a given name or no English word: two surnames that
    /// are words ("WHITE HOUSE") are no name.
    pub(super) fn one_named(&self, words: &[usize]) -> bool {
        let ev = self.ev;
        words
            .iter()
            .any(|&x| !ev[x].is_word() || ev[x].given > 0.0 && ev[x].given >= ev[x].surname)
    }
}

/// The last word of a letter's closing line, in the languages of the name vocabularies
/// ("Kind regards,", "Met vriendelijke groet,", "Cordialement,", "Pozdrawiam").
const CLOSINGS: &[&str] = &[
    "regards",
    "sincerely",
    "thanks",
    "best",
    "cheers",
    "yours",
    "wishes",
    "respectfully",
    "faithfully",
    "truly",
    "groet",
    "groeten",
    "cordialement",
    "salutations",
    "saludos",
    "atentamente",
    "cordiales",
    "cumprimentos",
    "atenciosamente",
    "abraços",
    "saluti",
    "cordialmente",
    "grüßen",
    "grussen",
    "grüße",
    "grusse",
    "gruß",
    "pozdrawiam",
    "pozdrowienia",
    "hälsningar",
    "hälsning",
    "hilsen",
    "hilsner",
    "terveisin",
    "pozdravom",
    "pozdrav",
    "pozdravem",
    "üdvözlettel",
];

impl Run<'_> {
    /// Words `k..` open their line below a letter's closing line, blank lines between
    /// or none ("Kind regards,⏎Bram de Vries"): the signature's name.
    pub(super) fn after_closing(&self, k: usize) -> bool {
        let text = self.text;
        let before = &text[..self.toks[k].start];
        let Some(line_start) = before.rfind('\n') else {
            return false;
        };
        if !before[line_start + 1..].trim().is_empty() {
            return false;
        }
        // (Blank lines between: "Kind regards,⏎⏎Bram de Vries".)
        let prev = before[..line_start].trim_end_matches(['\r', '\n', ' ', '\t']);
        let prev_line = prev.rsplit('\n').next().unwrap_or("").trim();
        if prev_line.is_empty() || prev_line.chars().count() > 40 {
            return false;
        }
        let last = prev_line
            .trim_end_matches([',', '!', '.'])
            .rsplit(' ')
            .next()
            .unwrap_or("")
            .to_lowercase();
        CLOSINGS.contains(&last.as_str())
    }
}
