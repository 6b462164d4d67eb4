//! How the words of a run are judged one by one: a word that is a given name, a
//! surname or an English word too, a nickname's or a particle's neighbour, a house
//! number after a name, a town named like a person.

use super::lists::{CAP_PARTICLES, NOT_PERSON, PARTICLES, is_after_cue, is_cue_word};
use super::tokens::{Shape, in_list, joined};
use super::{
    COMMON_GIVEN, Run, WORD_NAME_MIN, cap_particle, is_any_street_type, particles_then_name,
};
use crate::entity::normalize::is_calendar_word;

/// A word no vocabulary lists as a name may be a surname after a common given name,
/// with a cue, below this Zipf frequency as an English word ("Chevrolet" 3.6, "Warmer"
/// 3.8; not "Street", "Centre", "Hospital").
const RARE_WORD_SURNAME_MAX: f32 = 4.0;

impl Run<'_> {
    /// Words `p - 1` and `p` end a name of two words or more: capitalised (or in
    /// capitals), the first maybe an initial, joined or parted by a comma ("Ana Pop",
    /// "G. Soylu", "ROBERTS, Ricky").
    pub(super) fn two_caps_end_at(&self, p: usize) -> bool {
        let toks = self.toks;
        p >= 1
            && matches!(toks[p].shape, Shape::Cap | Shape::Upper)
            && matches!(
                toks[p - 1].shape,
                Shape::Cap | Shape::Upper | Shape::Initial
            )
            && (super::tokens::joined(self.text, &toks[p - 1], &toks[p])
                || self.text[toks[p - 1].end..toks[p].start] == *", ")
    }

    /// Words `n` and `n + 1` are capitalised (or in capitals) and joined: the start of a
    /// name of two words or more.
    pub(super) fn two_caps_start_at(&self, n: usize) -> bool {
        let toks = self.toks;
        n + 1 < toks.len()
            && matches!(toks[n].shape, Shape::Cap | Shape::Upper)
            && matches!(toks[n + 1].shape, Shape::Cap | Shape::Upper)
            && super::tokens::joined(self.text, &toks[n], &toks[n + 1])
    }

    /// Word `e` ends a chat line's speaker in brackets before the time ("[Atena Dobre]
    /// 10:43:").
    pub(super) fn bracketed_speaker(&self, e: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        let rest = text[toks[e].end..].trim_start_matches(['*', '_']);
        let Some(r) = rest.strip_prefix("] ") else {
            return false;
        };
        let t = r.as_bytes();
        let time = t.len() >= 4
            && t[0].is_ascii_digit()
            && (t[1] == b':' || t[1].is_ascii_digit() && t[2] == b':');
        time && text[..toks[e].start]
            .rsplit('\n')
            .next()
            .is_some_and(|l| l.trim_start().starts_with('['))
    }

    /// Word `e` ends a chat export's speaker line: the name, then the time alone to the
    /// line's end ("Tabitha Edin  09:14", "Ana Pop - 9:05 AM").
    pub(super) fn speaker_before_time(&self, e: usize) -> bool {
        let rest = &self.text[self.toks[e].end..];
        // (Only the next bytes are read: the line must end within them.)
        let mut cut = rest.len().min(24);
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let line = match rest[..cut].find('\n') {
            Some(n) => &rest[..n],
            None if cut == rest.len() => rest,
            None => return false,
        };
        let line = line.trim_end_matches('\r');
        let t = line.trim_start_matches([' ', '\t', '-', '\u{2013}', '|']);
        if t.len() == line.len() {
            return false;
        }
        let t = t.trim_end();
        let t = ["AM", "PM", "am", "pm"]
            .iter()
            .find_map(|m| t.strip_suffix(m))
            .unwrap_or(t)
            .trim_end();
        let b = t.as_bytes();
        let colon = b.iter().position(|&c| c == b':');
        colon.is_some_and(|c| {
            (1..=2).contains(&c)
                && b.len() == c + 3
                && b.iter()
                    .enumerate()
                    .all(|(i, x)| i == c || x.is_ascii_digit())
        })
    }

    /// Only a time ("10:04:11", "9:05") stands before word `p` on its line.
    pub(super) fn time_opens_line(&self, p: usize) -> bool {
        let Some(line) = self.near_before(p, 12).1 else {
            return false;
        };
        clock_time(line.trim())
    }

    /// Words `k..=e` are the speaker of a chat line: a time opens the line ("[09:14]",
    /// "09:14 -") and a colon follows ("[09:14] Gambo Buhari: can someone …").
    pub(super) fn chat_speaker(&self, k: usize, e: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        if !text[toks[e].end..].starts_with(':') {
            return false;
        }
        let line = text[..toks[k].start].rsplit('\n').next().unwrap_or("");
        let t = line
            .trim()
            .trim_start_matches(['[', '('])
            .trim_end_matches(['-', '–', ' ', ']', ')']);
        let t = t
            .strip_suffix("AM")
            .or_else(|| t.strip_suffix("PM"))
            .or_else(|| t.strip_suffix("am"))
            .or_else(|| t.strip_suffix("pm"))
            .unwrap_or(t)
            .trim_end();
        clock_time(t)
    }

    /// Words `i..=j` name a place and a person alike, and a cue says a person is meant:
    /// a common given name, a surname that is no English word, and a bracket, a
    /// possessive or an age after them, a cue only a person takes before them ("met")
    /// or a chat line's speaker ("Present: Ana Cole, Juan Diaz (neighbour)"; towns
    /// are named after people: "Juan Díaz", "Benito Juárez", "Antônio Gonçalves").
    pub(super) fn person_named_place(&self, i: usize, j: usize) -> bool {
        let ev = &self.ev[j];
        (i + 1..=i + 2).contains(&j)
            && self.common_given(i)
            && ev.surname > 0.0
            && !ev.is_word()
            // After the name: "to Benito Juárez" is as often a journey.
            && (self.cue_after(j)
                || self.person_only_after(j)
                || self.person_only_before(i)
                || self.chat_speaker(i, j))
    }

    /// Word `k` follows a lower-case particle, or an Irish or Scottish one written with
    /// a capital, that follows a name word ("Annabel van Tours", "Maria de Souza",
    /// "Adeline Ó Maine"), all joined.
    pub(super) fn after_particle(&self, k: usize) -> bool {
        let toks = self.toks;
        k >= 2
            && (toks[k - 1].shape == Shape::Lower && in_list(PARTICLES, self.folded(k - 1))
                || in_list(CAP_PARTICLES, self.folded(k - 1)) && cap_particle(toks, k - 1))
            && joined(self.text, &toks[k - 1], &toks[k])
            && joined(self.text, &toks[k - 2], &toks[k - 1])
            && matches!(toks[k - 2].shape, Shape::Cap | Shape::Upper)
            && !self.ev[k - 2].is_word()
    }

    /// Word `k` is written as an abbreviation: a dot right after it, then no blank
    /// ("San.'s", "S.Com."), or a blank and another word with its dot ("San. Tic.").
    /// A dot that ends a sentence ("… with Nkiruka Obi. Physio to continue") is none.
    pub(super) fn abbreviated(&self, k: usize) -> bool {
        let Some(rest) = self.text[self.toks[k].end..].strip_prefix('.') else {
            return false;
        };
        let Some(next) = rest.strip_prefix([' ', '\n', '\t', '\r']) else {
            return !rest.is_empty();
        };
        let word = next.trim_start().split([' ', '\n']).next().unwrap_or("");
        word.len() <= 5 && word.ends_with('.')
    }

    /// Word `k` is a given name that is also an English word, right before a name's
    /// particles and a surname that is none ("Cas van den Heuvel", "Conan Ó Gaora",
    /// "Will de Souza"): the particles say a surname follows, so the word before them
    /// is the first name.
    pub(super) fn given_before_particle(&self, k: usize) -> bool {
        let (text, toks, ev) = (self.text, self.toks, self.ev);
        let Some(n) = toks.get(k + 1) else {
            return false;
        };
        let particles = if n.shape == Shape::Lower {
            particles_then_name(text, toks, k + 1)
        } else {
            cap_particle(toks, k + 1)
        };
        // The surname: the first capitalised word after the particles.
        let surname = (k + 2..toks.len().min(k + 5)).find(|&x| {
            matches!(toks[x].shape, Shape::Cap | Shape::Upper) && !cap_particle(toks, x)
        });
        let w = self.folded(k);
        toks[k].shape == Shape::Cap
            && joined(text, &toks[k], n)
            && particles
            && !cap_particle(toks, k)
            && ev[k].name() > 0.0
            && surname.is_some_and(|x| !ev[x].is_word())
            // "Vial de Cristian Bello 45": a street's type before a name, and its house
            // number after.
            && !surname.is_some_and(|x| self.number_after(x))
            && !in_list(NOT_PERSON, w)
            && !is_cue_word(w)
            && !is_calendar_word(w)
            && !self.v.place_openers.contains(w)
            && !self.v.is_place(w)
    }

    /// The word after `x` (its last word with the capitalised ones that follow) is a
    /// number: a house number.
    pub(super) fn number_after(&self, x: usize) -> bool {
        let toks = self.toks;
        let mut n = x + 1;
        while n < toks.len()
            && matches!(toks[n].shape, Shape::Cap | Shape::Upper)
            && joined(self.text, &toks[n - 1], &toks[n])
        {
            n += 1;
        }
        toks.get(n).is_some_and(|t| {
            joined(self.text, &toks[n - 1], t)
                && self.text[t.start..t.end].starts_with(|c: char| c.is_ascii_digit())
        })
    }

    /// A capitalised word in no vocabulary with the suffix of an agent noun
    /// ("Adjuster", "Underwriter", "Actuary" is not one): a role, where a name follows.
    pub(super) fn role_shaped(&self, k: usize) -> bool {
        const AGENT: [&str; 6] = ["er", "or", "ist", "ant", "ian", "ee"];
        let w = self.folded(k);
        self.toks[k].shape == Shape::Cap
            && self.ev[k].name() == 0.0
            && w.chars().count() >= 6
            && AGENT.iter().any(|s| w.ends_with(s))
    }

    /// A capitalised word (not in capitals) of three letters or more that no vocabulary
    /// knows: no name, no English word of Zipf 2 or more, no common word of another
    /// language, no place, no street, unit, place or company kind.
    pub(super) fn unknown_word(&self, k: usize) -> bool {
        let w = self.folded(k);
        let e = &self.ev[k];
        self.toks[k].shape == Shape::Cap
            && w.chars().count() >= 3
            && e.name() == 0.0
            && e.word < 2.0
            && !self.v.foreign_words.contains(w)
            && !self.place_or_kind(w)
    }

    /// A folded word that is a GeoNames place or a street, place, company or unit kind.
    fn place_or_kind(&self, w: &str) -> bool {
        let v = self.v;
        v.is_place(w)
            || is_any_street_type(w)
            || v.place_types.contains(w)
            || v.company_types.contains(w)
            || v.unit_types.contains(w)
    }

    /// An English word at `k` that is also a common given name ("June", "Frank",
    /// "Made").
    pub(super) fn word_given(&self, k: usize) -> bool {
        let e = &self.ev[k];
        self.is_name_word(k)
            && e.is_word()
            && e.given >= WORD_NAME_MIN
            // "May" is a surname about as often as a given name.
            && (e.given >= e.surname || e.given >= COMMON_GIVEN)
            && !in_list(NOT_PERSON, self.folded(k))
            && !self.v.place_openers.contains(self.folded(k))
    }

    /// A capitalised word at `k` that is a rarer English word (Zipf under
    /// [`RARE_WORD_SURNAME_MAX`]) and no name of the vocabularies, no place, no street,
    /// unit, place or company kind, no calendar word and no word no person bears
    /// ("Chevrolet", "Warmer").
    pub(super) fn rare_word_surname(&self, k: usize) -> bool {
        let (e, w) = (&self.ev[k], self.folded(k));
        self.toks[k].shape == Shape::Cap
            && w.chars().count() >= 4
            && e.name() == 0.0
            && e.word > 0.0
            && e.word < RARE_WORD_SURNAME_MAX
            && !in_list(NOT_PERSON, w)
            && !is_calendar_word(w)
            && !self.abbreviated(k)
            && !self.place_or_kind(w)
            && !self.v.org_words.contains(w)
    }

    /// Words `j - 1` and `j`, ending the run, are a person's name although both are
    /// English words ("Dear Hope Hills,", "reviewed with Grace Park", "Mark Field
    /// said"): a word that is a common given name, then one that is a common surname,
    /// both capitalised or both in capitals, with a cue only a person takes. A place,
    /// a park or a street named so takes the other cues only ("to Grace Park").
    pub(super) fn word_pair(&self, i: usize, j: usize) -> bool {
        let Some(k) = j.checked_sub(1).filter(|&k| k >= i) else {
            return false;
        };
        // (A surname that names places and firms too, "Hills", "Park", is one here.)
        self.toks[k].shape == self.toks[j].shape
            && self.is_name_word(k)
            && (self.word_given(k) || self.common_given(k))
            && self.ev[j].surname >= WORD_NAME_MIN
            && (self.ev[j].is_word() || self.place_or_kind(self.folded(j)))
            && !is_calendar_word(self.folded(k))
            && !is_calendar_word(self.folded(j))
            && (self.person_only_before(k)
                || k == i && self.person_only_after(j)
                // A chat line's speaker ("[09:16] Richard Field: on it", "[Rebecca
                // Field] 10:43: thanks").
                || k == i && (self.chat_speaker(k, j) || self.bracketed_speaker(j)))
            && self.clause_goes_on_after(j)
    }

    /// After word `j` no noun of the phrase follows ("with Grace Park staff" names the
    /// park's staff): punctuation, a line's or the text's end, or a word that goes on
    /// with the clause ("with Grace Park on Monday", "Mark Field said").
    fn clause_goes_on_after(&self, j: usize) -> bool {
        const GOES_ON: &[&str] = &[
            "about",
            "after",
            "and",
            "as",
            "at",
            "before",
            "but",
            "by",
            "for",
            "from",
            "had",
            "has",
            "in",
            "is",
            "on",
            "or",
            "over",
            "re",
            "regarding",
            "so",
            "that",
            "this",
            "to",
            "today",
            "via",
            "was",
            "when",
            "who",
            "will",
            "would",
            "yesterday",
        ];
        let rest = self.text[self.toks[j].end..].trim_start_matches([' ', '\t']);
        if !rest.starts_with(char::is_alphabetic) {
            return true;
        }
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphabetic())
            .flat_map(char::to_lowercase)
            .collect();
        GOES_ON.contains(&word.as_str()) || is_after_cue(&word)
    }

    /// Words `i..=e` fill a pair of brackets right after a code ("P0280518 (Montserrat,
    /// Natalio)", "#48213 (…)"): a code of four digits or more, letters maybe.
    pub(super) fn bracketed_after_code(&self, i: usize, e: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        let Some(before) = text[..toks[i].start].strip_suffix('(') else {
            return false;
        };
        let code = before
            .trim_end_matches(' ')
            .rsplit([' ', '\t', '\n'])
            .next()
            .unwrap_or("")
            .trim_start_matches('#');
        is_code(code) && text[toks[e].end..].starts_with(')')
    }

    /// A person's code in brackets right after word `e` ("… KƏRIMLI (611003)"): four
    /// digits or more, letters maybe, and the bracket's end.
    pub(super) fn code_after(&self, e: usize) -> bool {
        let rest = self.text[self.toks[e].end..].trim_start_matches([' ', '\t']);
        rest.strip_prefix('(').is_some_and(code_then_bracket)
    }

    /// Word `k` opens a sender's name: "from" right before it after a voicemail's or a
    /// handover's word ("Reassigned CLM-… from Sanya Seth to …", "voicemail from …").
    pub(super) fn sent_from(&self, k: usize) -> bool {
        k >= 1 && self.folded(k - 1) == "from" && self.sender_before(k - 1)
    }

    /// An English word at `k` that is also a common surname ("Rich", "Warrior").
    pub(super) fn word_surname(&self, k: usize) -> bool {
        let e = &self.ev[k];
        self.is_name_word(k)
            && e.is_word()
            && e.surname >= WORD_NAME_MIN
            && !in_list(NOT_PERSON, self.folded(k))
    }
}

/// `s` opens with a person's code (letters, digits and dashes, four digits or more) and
/// the bracket that closes it: "611003)", "EMP53022) …".
pub(super) fn code_then_bracket(s: &str) -> bool {
    let len = s
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '-'))
        .unwrap_or(s.len());
    is_code(&s[..len]) && s[len..].starts_with(')')
}

/// A person's code: letters, digits and dashes, four digits or more ("611003",
/// "EMP53022", "P0280518").
pub(super) fn is_code(code: &str) -> bool {
    code.bytes().filter(u8::is_ascii_digit).count() >= 4
        && code.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// A clock time of two or three groups of one or two digits ("09:14", "10:04:11").
fn clock_time(t: &str) -> bool {
    (2..=3).contains(&t.split(':').count())
        && t.split(':')
            .all(|g| (1..=2).contains(&g.len()) && g.bytes().all(|b| b.is_ascii_digit()))
}
