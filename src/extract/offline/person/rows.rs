//! The relevance rows of the names recognizer ([`super::Names`]), in the order of the
//! relevance table in `offline/mod.rs` (tested against it).

use super::super::recognizer::{Relevance, RelevanceRow};

pub(super) const FULL_CUED: RelevanceRow = RelevanceRow {
    matches: "a given name first and a surname last (`data/names/`), with a cue before or after",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.95),
};
pub(super) const FULL: RelevanceRow = RelevanceRow {
    matches: "a given name first and a surname last, without a cue (`Harold Brennan`), or the same in capitals",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.9),
};
pub(super) const HALF_KNOWN: RelevanceRow = RelevanceRow {
    matches: "a given name and an unknown word, an unknown word and a surname, a family name first (`Nagy Gábor`, `Dương Mai Bảo Phúc`); in capitals, one end a name and a cue",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.85),
};
pub(super) const CUED: RelevanceRow = RelevanceRow {
    matches: "any other run of two to four capitalised words, with a cue (`for`, `to`, `with`, `dear`, `&` after a full name … before; a letter's closing line above (`Kind regards,⏎Bram de Vries`); `(`, `'s`, `, a 52-year-old`, `DOB`, `c/o` … after); a party of a case cited by surname (`Jacobs v Masinde [2021]`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};
pub(super) const LAST_FIRST: RelevanceRow = RelevanceRow {
    matches: "`LAST, FIRST [M.]`: a surname, a comma, a given name, not a list (`KELLER, Maria`); a surname in capitals and a given name filling a record line's first cell (`WASUNUN Sitiwat⇥Case Officer`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.9),
};
pub(super) const LAST_FIRST_CUED: RelevanceRow = RelevanceRow {
    matches: "`LAST, FIRST` with a first name in no vocabulary and no English word, or a surname that is an English word or known only as a given name, with a cue (`Called Fuli, Mrihani.`, `Gusev, Reet (…)`, `met URBONAS, Gustas at`, `METS, Marko (…)`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.85),
};
pub(super) const UNKNOWN: RelevanceRow = RelevanceRow {
    matches: "two or three capitalised words in no name vocabulary and no English word, without a cue (`Thandolwethu Mabuzane in bay 2`); a gazetteer term, a product or a place wins",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.7),
};
pub(super) const GIVEN_WORD: RelevanceRow = RelevanceRow {
    matches: "a common given name that is no English word, then a capitalised English word also listed as a surname, ending the run, without a cue (`Helga Mayor moved away`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.75),
};
pub(super) const GIVEN_INITIAL: RelevanceRow = RelevanceRow {
    matches: "a given name and an initial (`Ines C.`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};

pub(super) const CAPS_IN_PROSE: RelevanceRow = RelevanceRow {
    matches: "two to four words in capitals inside a line of lower-case prose, or alone on a line among lower-case lines, each a name or a word of no vocabulary with a vowel, none an English word, a place or an organisation's word (`Caller identified as SUPASITA CHAROENSUKSOPOL, member …`, `EMPLOYEE RECORD⏎RICHARD AFOAKWA⏎Staff ID: …`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};
pub(super) const CAPS_CUED: RelevanceRow = RelevanceRow {
    matches: "two or three words in capitals right after a cue inside a line of lower-case prose, an English word among them only when it is listed as a name, one a given name or no English word (`voicemail left for PRIMA PONGPANITCH today`, `IN THE MATTER OF FANG HE, Deceased. Notice is …`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};
pub(super) const COORDINATED: RelevanceRow = RelevanceRow {
    matches: "two or three capitalised words (or `LAST, First`) joined by `and` to a name found, each a name or a word of no vocabulary, none an English word no vocabulary lists as a name, a place or an organisation's word (`PICHPANDECHA, Nattawun and Carlijn van Dokkum both live …`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};
pub(super) const LOWER_CUED: RelevanceRow = RelevanceRow {
    matches: "two words in lower case after a cue word (`talked to miki shimizu today`): a given name and a surname (or a word of no vocabulary), neither an English word",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.75),
};

pub(super) const WORDS_CUED: RelevanceRow = RelevanceRow {
    matches: "a given name and a surname that are English words or name places too, with a cue only a person takes (`Dear Hope Hills,`, `reviewed with Grace Park`), or `LAST, FIRST` of two such words after a cue (`voicemail left for Kong, Na on`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};
pub(super) const ABOVE_ADDRESS: RelevanceRow = RelevanceRow {
    matches: "a line of two to four capitalised words (or `LAST, First`) right above an address's first line, none an English word, a month or an organisation's word, not all of them places (an envelope, an addressee, a shipping label: `ODETOLA, Toki⏎1 Ryan Plains`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};
pub(super) const POSSESSIVE_ALONE: RelevanceRow = RelevanceRow {
    matches: "a surname or a given name alone (or a word of no vocabulary), no English word, place or organisation's word, before `'s` and a word for a person's relation (`Honkanen's supervisor`, `Mac Aogáin's wife`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.75),
};
pub(super) const JUDGE: RelevanceRow = RelevanceRow {
    matches: "a surname alone (a name or a word of no vocabulary) right after a judge's title (`Employment Judge Cui`, `Mr Justice MACKO`, `HHJ Dray`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};

/// The rows of [`Names`], in the order of the relevance table.
pub(super) const ROWS: &[RelevanceRow] = &[
    FULL_CUED,
    FULL,
    HALF_KNOWN,
    CUED,
    LAST_FIRST,
    LAST_FIRST_CUED,
    UNKNOWN,
    GIVEN_WORD,
    GIVEN_INITIAL,
    CAPS_IN_PROSE,
    CAPS_CUED,
    COORDINATED,
    LOWER_CUED,
    WORDS_CUED,
    ABOVE_ADDRESS,
    POSSESSIVE_ALONE,
    JUDGE,
];
