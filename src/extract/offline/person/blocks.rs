//! What makes a run of capitalised words no person by what it holds or what stands
//! around it: a street (a street type first or last, a house number or a unit before), a
//! place (a compass word, a word that opens many places, a kind of place first; a compass
//! word after a place), a kind of company first or last, a product's variant, a firm ("&",
//! a legal form after it).

use super::Run;
use super::lists::{COMPASS, CONJUNCTIONS, FIRM_PARTNERS, PARTICLES, PRODUCT_WORDS};
use super::tokens::{self, Shape, in_list, joined};

impl Run<'_> {
    /// Word `k` is a street type (`data/address/street_types.txt`) as written: its folded
    /// letters are listed and, when it is written with accents and the sources always
    /// write that type with accents, it is listed with the same accents ("Praça",
    /// "Cañada" (Mapbox writes "Canada"); not Vietnamese "Dương", a name, for "đường",
    /// road).
    fn street_type(&self, k: usize) -> bool {
        let folded = self.folded(k);
        if !self.v.street_types.contains(folded) && !self.v.street_libpostal.contains(folded) {
            return false;
        }
        if self.raw(k).is_ascii() || !self.v.street_accented.contains(folded) {
            return true;
        }
        let lower = self.lower_as_written(k);
        lower == folded || self.v.street_types.contains(&lower)
    }

    fn raw(&self, k: usize) -> &str {
        &self.text[self.toks[k].start..self.toks[k].end]
    }

    /// Word `k`'s letters in lower case, accents kept ("Süd" → "süd").
    fn lower_as_written(&self, k: usize) -> String {
        self.raw(k)
            .chars()
            .filter(|c| c.is_alphabetic())
            .flat_map(char::to_lowercase)
            .collect()
    }

    /// Word `k` is one of `terms` (kinds of place, compass words) as written: in ASCII
    /// any listed spelling; written with accents, only with the same accents listed
    /// ("Löwer" is a surname, not "lower"; "Süd" is listed as written).
    fn listed_as_written(&self, terms: &super::vocab::Terms, k: usize) -> bool {
        if self.raw(k).is_ascii() {
            return terms.contains(self.folded(k));
        }
        terms.contains(&self.lower_as_written(k))
    }

    /// After a kind of place that is no English word, only surnames that are no English
    /// word and no place ("Sondre Kristensen": Norwegian "søndre", south, is also a given
    /// name): a person, not a place ("Nord Kivu", "Lower Sonning" stay places).
    fn surnames_after_place_type(&self, from: usize, to: usize) -> bool {
        let ev = self.ev;
        ev[from].word < 3.0
            // "Praia Vargas", "Conjunto Barros": a common word of another language.
            && !self.v.foreign_words.contains(self.folded(from))
            && (from + 1..=to).all(|x| {
                ev[x].surname > 0.0
                    && ev[x].known()
                    && !ev[x].is_word()
                    && !self.v.is_place(self.folded(x))
            })
    }

    /// Whether the words `from..=to` of run `i..=j` are a street, a place or a product
    /// by their first or last word or what stands before them.
    pub(super) fn blocked(&self, i: usize, j: usize, from: usize, to: usize) -> bool {
        let (text, toks, ev, v) = (self.text, self.toks, self.ev, self.v);
        let first = self.folded(from);
        let last = self.folded(to);
        // A street type first ("Via Adán Uribe", "Calle …", "Rua de Moura", "Aleea …")
        // unless it is also a name ("Chase", "Arda", "Ngo").
        let street = |k: usize| {
            self.folded(k).chars().count() >= 3
                && self.street_type(k)
                && ev[k].given < STREET_GIVEN_MAX
                && ev[k].surname < STREET_SURNAME_MAX
        };
        // ("Return-to-work interview held with Rua Barasa": with a cue only a person
        // takes, or closing a letter, the first word is a given name.)
        // (Nor a sender's: "Reassigned … from Rua Abdullahi to …".)
        if street(from)
            && !(from < to
                && (self.person_only_cue(from, to)
                    || self.after_closing(from)
                    || self.sent_from(from)))
        {
            return true;
        }
        // … or last ("Benson Laneway", "Garcia Mews") unless a common surname ("Lane"),
        // or any surname for a type only libpostal lists ("Banda", "Corso").
        // "Re: CLM-… / Johnny Dam": a common given name and a surname that only USPS or
        // libpostal list as a street type, after a code's slash or bracket, a cue only a
        // person takes ("moved to Barbara Key", "Steven Knoll will be closed" are
        // streets).
        let code_side = text[..toks[from].start]
            .trim_end_matches([' ', '\t'])
            .ends_with(['/', '(', '[']);
        let person_first = from + 1 == to
            && code_side
            && self.cue_before(from)
            && self.common_given(from)
            && ev[to].surname >= super::WORD_NAME_MIN
            && !v.street_types.contains(last);
        // "voicemail left for Caridad Carrera": a common given name and a surname that
        // is a street type of another language and no English word, after a cue ("to
        // Barbara Key", "Steven Knoll" stay streets: English words).
        // ("cc'd Urvi Amble": a rarer given name too, with no house number before it.)
        let house_number_before = text[..toks[from].start]
            .trim_end_matches([' ', '\t', ','])
            .ends_with(|c: char| c.is_ascii_digit());
        // ("Seen by Rebeca Pont.", "09:20 Rebeca Pont (4497267806)": a rarer English
        // word, "pont" 3.1, with a cue before or a person's code after.)
        let foreign_type_surname = from + 1 == to
            && (self.cue_before(from) || self.code_after(to) || self.sent_from(from))
            && (self.common_given(from)
                || ev[from].known() && ev[from].given > ev[from].surname && !house_number_before)
            && ev[to].surname > 0.0
            && ev[to].word < FOREIGN_TYPE_WORD_MAX;
        // "reviewed with Thomas Wall", "Maria Lake, a 44-year-old": a common given name
        // and a surname (of one in 100,000 or more) that is a street type, with a cue
        // no street takes.
        // ("Seen today: Thijs van Dam, DOB …": particles between.)
        let person_cued = from < to
            && (from + 1..to).all(|x| {
                toks[x].shape == Shape::Lower && in_list(super::lists::PARTICLES, self.folded(x))
            })
            && self.common_given(from)
            && ev[to].surname >= super::WORD_NAME_MIN
            && self.person_only_cue(from, to);
        // "Margaret Ó Coillte", "Jan van Dam": after a particle the last word is a
        // surname.
        let after_particle = from < to && super::lists::is_particle(self.folded(to - 1));
        if from < to
            && !person_first
            && !foreign_type_surname
            && !person_cued
            && !after_particle
            && ev[to].surname < 4.5
            // (USPS's words are English: "Löwer" is no "lower".)
            && (crate::text::address::is_address_word(last) && self.raw(to).is_ascii()
                || last.chars().count() >= 4
                    && self.street_type(to)
                    && (v.street_types.contains(last) || ev[to].name() <= 0.0))
        {
            return true;
        }
        // A place: a compass word or a word that opens many places first ("West
        // Lynn", "Sankt Pölten", "Vila Nova de Famalicão").
        // ("Called Vitória Pereira.": a given name that opens places and a surname,
        // with a cue no place takes, is a person.)
        let named = from + 1 == to
            && ev[from].known()
            && ev[from].given > ev[from].surname
            && ev[to].known()
            && ev[to].surname > 0.0
            && self.person_only_cue(from, to);
        if from < to && (in_list(COMPASS, first) || v.place_heads.contains(first) && !named) {
            return true;
        }
        // A kind of place or a compass word of another language first, rare as a name
        // ("Castello …", "Praia …", "Nord …"; not "Park", "Hall", "Dong").
        if from < to
            && first.chars().count() >= 3
            && self.listed_as_written(&v.place_types, from)
            && ev[from].name() < PLACE_TYPE_NAME_MAX
            && !self.surnames_after_place_type(from, to)
            // "[09:16] Yoga Ardianto: on it": a chat line's speaker is a person.
            && !self.chat_speaker(from, to)
        {
            return true;
        }
        // A compass word last after a GeoNames place, rare as a name ("Tangerang Selatan",
        // "Frankfurt Süd"; not "West", "Timur").
        if from < to
            && self.listed_as_written(&v.directionals, to)
            && ev[to].name() < PLACE_TYPE_NAME_MAX
            && self.place(from, to - 1)
        {
            return true;
        }
        // A kind of company or association first or last, or right before or after the
        // words in the run ("Groupe Lefebvre", "Koperasi Sinaga", "Keller Gesellschaft",
        // "Maria Keller Foundation").
        if self.company_type(from)
            || self.company_type(to)
            || from > i && self.company_type(from - 1)
            || to < j && self.company_type(to + 1)
        {
            return true;
        }
        // A word that opens many places just before ("San Lorenzo Di Vasto").
        if from > i && v.place_openers.contains(self.folded(from - 1)) {
            return true;
        }
        // A product's variant after a word that is no given name ("Lirtravtide Forte").
        if from < to
            && in_list(PRODUCT_WORDS, last)
            && (ev[from].given <= 0.0 || ev[from].is_word())
        {
            return true;
        }
        // What stands before the run.
        if let Some(p) = i.checked_sub(1) {
            let gap = &text[toks[p].end..toks[i].start];
            if joined(text, &toks[p], &toks[i]) || gap == " de " {
                let w = toks.folded(p);
                // "avenue Julie Ledoux", "chemin Dominique Menard" (a lower-case street
                // type of four letters or more: not "via", "la").
                // (A cue word is no street: "ring Lungile Maluleka back".)
                if toks[p].shape == Shape::Lower
                    && w.chars().count() >= 4
                    && self.street_type(p)
                    && !super::lists::is_cue_word(w)
                {
                    return true;
                }
                // A house number: "326 Cameron Wells", "1 Joshua Hill" (not a year, nor
                // the minutes of a time: "09:00 Karl Obi").
                if from == i
                    && toks[p].shape == Shape::Other
                    && tokens::house_number(&text[toks[p].start..toks[p].end])
                    && !text[..toks[p].start].ends_with(':')
                {
                    return true;
                }
            }
        }
        // A unit, its number and a comma before the run: "Flat 4b, Rose Court", "Apt. 12,
        // Kent House": a building or a street.
        if from == i && self.after_unit(i) {
            return true;
        }
        // A street type or particle run before the words: "Callejón de Salomé Agudo".
        if from > i {
            let mut p = from - 1;
            while p > i && toks[p].shape == Shape::Lower {
                p -= 1;
            }
            if street(p) {
                return true;
            }
        }
        false
    }

    /// The words `a..=b` are a GeoNames place ("Tangerang", "Satu Mare").
    fn place(&self, a: usize, b: usize) -> bool {
        let mut whole = String::new();
        for k in a..=b {
            if k > a {
                whole.push(' ');
            }
            whole.push_str(self.folded(k));
        }
        self.v.is_place(&whole)
    }

    /// Word `k` is a capitalised kind of company or association
    /// (`data/address/company_types.txt`), rare as a name ("Groupe", "Gesellschaft",
    /// "Yayasan"; not "Trust", a given name of some).
    fn company_type(&self, k: usize) -> bool {
        matches!(self.toks[k].shape, Shape::Cap | Shape::Upper)
            && self.v.company_types.contains(self.folded(k))
            && self.ev[k].name() < COMPANY_TYPE_NAME_MAX
    }

    /// The run `i..=j` ends in a short legal form written as a word ("Ozols Kalniņš Sia";
    /// `data/vocab/org_suffixes_short.txt`), rare as a name and no English word, after
    /// partners' names, the first no given name: a firm, as [`Run::registry_after`].
    pub(super) fn legal_form_last(&self, i: usize, j: usize) -> bool {
        let (toks, ev) = (self.toks, self.ev);
        j > i
            && toks[j].shape == Shape::Cap
            && (2..=5).contains(&self.folded(j).chars().count())
            && self.v.org_short.contains(self.folded(j))
            && ev[j].name() < LEGAL_FORM_NAME_MAX
            && !ev[j].is_word()
            && (ev[i].given <= 0.0 || ev[i].is_word())
    }

    /// Word `i` follows a unit designator and its number and a comma ("Flat 4b, ").
    fn after_unit(&self, i: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        let (Some(n), Some(u)) = (i.checked_sub(1), i.checked_sub(2)) else {
            return false;
        };
        let number = &text[toks[n].start..toks[n].end];
        text[toks[n].end..toks[i].start] == *", "
            && number.starts_with(|c: char| c.is_ascii_digit())
            && number.len() <= 6
            && text[toks[u].end..toks[n].start]
                .chars()
                .all(|c| c == ' ' || c == '.')
            && matches!(toks[u].shape, Shape::Cap | Shape::Upper | Shape::Lower)
            && self.v.unit_types.contains(toks.folded(u))
    }

    /// "& Jones": the run is a partner in a firm's name.
    pub(super) fn firm_before(&self, i: usize) -> bool {
        let before = self.text[..self.toks[i].start].trim_end_matches(' ');
        before.ends_with('&') && !self.names_around_amp(i.saturating_sub(1))
    }

    /// "Semenica Tudor & Ifunanya Onoh": two capitalised words on either side of the
    /// "&" after word `p` are two people; "Smith & Jones", "Merz Schlatter & Partner"
    /// are firms.
    pub(super) fn names_around_amp(&self, p: usize) -> bool {
        self.two_caps_end_at(p)
            && self.two_caps_start_at(p + 1)
            && !(p + 1..=p + 2).any(|k| self.org(k) || in_list(FIRM_PARTNERS, self.folded(k)))
    }

    /// A firm after the run's last word `j`: "&", a legal form written with dots or in
    /// capitals ("a.s.", "Kht.", "S/A", "- EI"), or a conjunction and a partners' word
    /// ("et Fils", "e Filhos").
    pub(super) fn firm_after(&self, j: usize) -> bool {
        let (text, toks, v) = (self.text, self.toks, self.v);
        let rest = &text[toks[j].end..];
        let rest = rest.strip_prefix('.').unwrap_or(rest);
        let trimmed = rest.trim_start_matches(' ');
        if trimmed.starts_with('&') {
            return !self.names_around_amp(j);
        }
        // A legal form in brackets: "… (Persero) Tbk", "… (Pty) Ltd".
        if let Some((inner, _)) = trimmed.strip_prefix('(').and_then(|r| r.split_once(')'))
            && (2..=24).contains(&inner.len())
            && v.org_words.contains(&tokens::fold(inner.trim()))
        {
            return true;
        }
        let dash = trimmed
            .strip_prefix(['-', '–'])
            .map(|r| r.trim_start_matches(' '));
        let chunk_src = dash.unwrap_or(trimmed);
        if (trimmed.len() < rest.len() || dash.is_some()) && v.legal_form(chunk_src) {
            return true;
        }
        if let (Some(c), Some(p)) = (toks.get(j + 1), toks.get(j + 2))
            && in_list(CONJUNCTIONS, toks.fold_of(c))
            && in_list(FIRM_PARTNERS, toks.fold_of(p))
            && text[toks[j].end..c.start].trim().is_empty()
            && text[c.end..p.start].trim().is_empty()
        {
            return true;
        }
        false
    }
}

impl Run<'_> {
    /// Names of partners, the first no given name, and right after them an abbreviation
    /// shaped like a registry form: "Virtanen Laine ry", "Dvořák Novák o.s.", "Popa
    /// Stan SRL", "Dumitru Ene OC2". Two or three lower-case letters that are no English
    /// word nor a particle, lower-case letters with dots, or two to five capitals (with
    /// digits or not) that are no name. Persons are not written so; firms are named after
    /// their partners so in many countries, with forms no list holds.
    pub(super) fn registry_after(&self, i: usize, j: usize) -> bool {
        let (text, toks, ev) = (self.text, self.toks, self.ev);
        if j == i || (ev[i].given > 0.0 && !ev[i].is_word()) {
            return false;
        }
        let Some(after) = text[toks[j].end..].strip_prefix(' ') else {
            return false;
        };
        let word = after
            .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | ')' | '('))
            .next()
            .unwrap_or("");
        let letters: String = word.chars().filter(|c| c.is_alphabetic()).collect();
        let folded = tokens::fold(&letters);
        let n = word.chars().count();
        let lower_abbreviation = (2..=3).contains(&n)
            && word.chars().all(char::is_lowercase)
            && !super::is_english_word(&folded)
            && !in_list(PARTICLES, &folded);
        let dotted = (3..=8).contains(&n)
            && word.chars().all(|c| c.is_lowercase() || c == '.')
            && word.trim_end_matches('.').contains('.');
        // A code with digits is no name whatever its letters are ("OC3": "Oc" is a rare
        // given name).
        let capitals = (2..=5).contains(&n)
            && word
                .chars()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
            && word.starts_with(|c: char| c.is_ascii_uppercase())
            && (word.contains(|c: char| c.is_ascii_digit())
                || self.v.evidence(&folded).name() <= 0.0);
        lower_abbreviation || dotted || capitals
    }
}

/// A street type is no street first word when it is this common a given name
/// ("Chase", "Arda": one person in 100,000) …
const STREET_GIVEN_MAX: f32 = 3.0;
/// … or this common a surname ("Ngo", "Costa": four people in 100,000).
const STREET_SURNAME_MAX: f32 = 3.6;
/// A short legal form written as a word after partners' names makes a firm when it is
/// rarer than this as a name (one person in 100,000: "Sia", not "Doo" or Icelandic "Ósk").
const LEGAL_FORM_NAME_MAX: f32 = 3.0;
/// A kind of company first or last makes an organisation when it is rarer than this as a
/// name (one person in 100,000).
const COMPANY_TYPE_NAME_MAX: f32 = 3.0;
/// A kind of place first makes a place when it is rarer than this as a name (one person
/// in 100,000).
const PLACE_TYPE_NAME_MAX: f32 = 3.0;

/// A street type of another language is a surname after a given name, with a cue,
/// below this Zipf frequency as an English word ("Pont" 3.1; not "Glen" 3.9, "Lake").
const FOREIGN_TYPE_WORD_MAX: f32 = 3.5;
