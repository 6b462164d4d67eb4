//! The offline extractor (SPEC §7): regular expressions with context words, name
//! patterns, provider / address / place patterns and gazetteers shipped as data files.
//! No network, deterministic, linear-ish in the document length.
//!
//! It is a registry of recognizers, after Presidio's analyzer: each recognizer
//! (`recognizer::Recognizer`) finds one family of mentions and declares
//! what it matches, with the type and relevance it gives, beside its patterns, one
//! module per family. The extractor runs them in registry order over one list of
//! candidates, drops the allow list's values, resolves overlaps and groups what is
//! left into items.
//!
//! # Recognizers and relevance
//!
//! In registry order; a unit test holds this table to the rows the recognizers declare.
//!
//! | recognizer | what it matches | type | relevance |
//! |---|---|---|---|
//! | `checked_id` | payment card number: 13–19 digits (in groups or not) passing the Luhn check, with a card network's prefix | PATIENT_ID | 1.0 |
//! | `checked_id` | US social security number `123-45-6789` (never-issued ranges excluded), UK National Insurance number `AB 12 34 56 C`, NHS number after "NHS" (mod 11) | PATIENT_ID | 1.0 |
//! | `checked_id` | IBAN: country code, check digits and account, in groups of four or not, passing ISO 13616's mod 97 | NON_PERSONAL_ID | 1.0 |
//! | `checked_id` | vehicle identification number (17 characters of ISO 3779, with a valid check digit or after a vehicle word); a plate after `reg.`, `registration`, `plate` (≤ 30 chars) | NON_PERSONAL_ID | 0.9 |
//! | `table_column` | a table cell (markdown table, or CSV / semicolon / tab lines under a header line) or a field's value (a JSON pair, a `Key: value` segment of a record line or a form's line beside another, `ID X` / `DOB X` without a colon) in a column headed by a person's name (`name`, `Member name`, `Claimant`, `Surname`, `Nom`, `Nachname` …): no digit, a capital; the name field of an HL7 v2 segment (PID-5, `ARRIETA^FREDY`), as the fields below for ids, phones, addresses and birth dates | NAME | 0.95 |
//! | `table_column` | a table cell in a column headed `Phone`, `Tel`, `Mobile` …: 7–15 digits | PHONE_NUMBER | 0.95 |
//! | `table_column` | a table cell in a column headed `E-mail` …: one word with `@` | EMAIL | 0.95 |
//! | `table_column` | a table cell in a column headed `Address`, `Street` … | ADDRESS | 0.95 |
//! | `table_column` | a table cell with a digit in a column headed by a person's id (`member_id`, `MRN`, `Staff no.`, `Employee` …; a generic `ID` only in a table with a name column) | PATIENT_ID | 0.95 |
//! | `table_column` | a table cell in a column headed `DOB`, `Date of birth`, `Birth date` … | BIRTHDATE | 0.95 |
//! | `table_column` | a field's value with a digit under a person's id key (`"member_id": "…"`; `ID:` on a record line with a name or a birth date): the key is its context word | PATIENT_ID | 1.0 |
//! | `email` | e-mail address | EMAIL | 1.0 |
//! | `phone` | phone by its form: `(555) 010-4417`, `555.010.4417`, `+44 (0)20 7946 0958`, `0049 30 901820`, `02 96 66 12 60`, `(02) 9374 4000`, `07700900123`, an extension (`x704`) | PHONE_NUMBER | 1.0 |
//! | `phone` | phone, any other run of 7–15 digits (`5035550121`, `555-0104`, `609 141 777`) after a phone context word (≤ 40 chars), in a signature, closing a contact line, or in brackets after a name in a list of people and their phones | PHONE_NUMBER | 0.85 |
//! | `id` | id after a member/patient/MRN/insured/employee/payroll/student/chart/licence/... context word | PATIENT_ID | 1.0 |
//! | `id` | id after a claim/policy/invoice/case/ticket/... context word | NON_PERSONAL_ID | 1.0 |
//! | `id` | id without context word (upper-case letters + ≥ 4 digits, dash or letter prefix) | NON_PERSONAL_ID | 0.7 |
//! | `id` | id without context word whose own letters say whose it is (`EMP65911`, `MRN-0042117`, `MBR448213`, `PAT-…`) | PATIENT_ID | 0.9 |
//! | `id` | a code, or a number of ≥ 5 digits, without context word after `against` or `under` and a verb of bookkeeping (`log the hours against 723150`, `booked under E-824071`): the person the time or cost is booked to | PATIENT_ID | 0.9 |
//! | `date` | complete date after born / DOB / date of birth (≤ 40 chars, same line) | BIRTHDATE | 0.95 |
//! | `date` | any other complete date (day + month + year) | EVENT_DATE | 0.7 |
//! | `age` | `54-year-old`, `aged 54`, `Age: 54`, `54 y/o`, `54 years of age` (span = digits) | AGE | 0.8 |
//! | `age` | an age in words: `fifty-two years old`, `a forty-year-old`, `aged sixty-one` (span = the words) | AGE | 0.8 |
//! | `address` | a street address (house number and street, in the forms of `data/address/street_types.txt`'s languages; `P.O. Box n`) with a part after a comma (`, City[, ST 12345]`, `, 75019 Paris`, `, Apt 4`) | ADDRESS | 1.0 |
//! | `address` | the same without a comma (no city) | ADDRESS | 0.95 |
//! | `address` | the value of an address field (`Address:`, `Home address:`, `Adresse:`, `Dirección:` …) to the end of its line or cell, holding a digit | ADDRESS | 1.0 |
//! | `name_cue` | field label (`Patient:`, `Member name:`, `Claimant:`, staff roles ...) + `First [M.] Last`, `Last, First`, `F. Last` or the same in capitals | NAME | 1.0 |
//! | `name_cue` | honorific + capitalised words, particles included (`Dr. Elise Varga`, `Ms. Raman`, `Mme van Dijk`, `Ms Ó Rócháin`); after a personal one (`Mrs`, `Ms`, `Sr.`, `Mme` ...) also an English word (`Mrs Pan`) | NAME | 1.0 |
//! | `name_cue` | a role word (`patient`, `participant`, `member`, `claimant`, `witness`, `tenant`, `husband`, `counsel`, `family contact` ...) + a full name, maybe after a comma (`patient Rex Marin`, `opposing counsel, Izaaz Zahrun,`) | NAME | 0.95 |
//! | `name_cue` | two or three capitalised words + clinical credentials (`Harriet Lindqvist, RN`; then PROVIDER, below) | NAME | 0.95 |
//! | `name_cue` | `this is` / `my name is` / a closing (`Kind regards,`) + two or three capitalised words | NAME | 0.95 |
//! | `name_cue` | initial + surname (`M. Quintero-Hale`) | NAME | 0.85 |
//! | `name_cue` | `née`, `nee`, `geb.` or `geborene` + a surname or a full name, particles included (`(née Balogun)`, `née de Hóir`, `geb. Strand`): any capitalised word, English word or place | NAME | 0.95 |
//! | `name_cue` | a party of a case cited by name: the words after `v`, `v.` or `vs` and before the year in brackets (`Smith v Van Bragt [2021] EWHC 1432`, `Roe v. Wade (1973)`), or before or after ` v ` up to a dash in a `RE:` line (`RE: SMITH v LIE - directions`); English words and particles included | NAME | 0.9 |
//! | `name_cue` | a given name of the vocabularies and a surname that is also an English word written with a capital inside the sentence (`Ming He wrote`, `Yan Ma reports`: a pronoun or a word there is written in lower case) | NAME | 0.85 |
//! | `name_vocab` | a given name first and a surname last (`data/names/`), with a cue before or after | NAME | 0.95 |
//! | `name_vocab` | a given name first and a surname last, without a cue (`Harold Brennan`), or the same in capitals | NAME | 0.9 |
//! | `name_vocab` | a given name and an unknown word, an unknown word and a surname, a family name first (`Nagy Gábor`, `Dương Mai Bảo Phúc`); in capitals, one end a name and a cue | NAME | 0.85 |
//! | `name_vocab` | any other run of two to four capitalised words, with a cue (`for`, `to`, `with`, `dear`, `&` after a full name … before; a letter's closing line above (`Kind regards,⏎Bram de Vries`); `(`, `'s`, `, a 52-year-old`, `DOB`, `c/o` … after); a party of a case cited by surname (`Jacobs v Masinde [2021]`) | NAME | 0.8 |
//! | `name_vocab` | `LAST, FIRST [M.]`: a surname, a comma, a given name, not a list (`KELLER, Maria`); a surname in capitals and a given name filling a record line's first cell (`WASUNUN Sitiwat⇥Case Officer`) | NAME | 0.9 |
//! | `name_vocab` | `LAST, FIRST` with a first name in no vocabulary and no English word, or a surname that is an English word or known only as a given name, with a cue (`Called Fuli, Mrihani.`, `Gusev, Reet (…)`, `met URBONAS, Gustas at`, `METS, Marko (…)`) | NAME | 0.85 |
//! | `name_vocab` | two or three capitalised words in no name vocabulary and no English word, without a cue (`Thandolwethu Mabuzane in bay 2`); a gazetteer term, a product or a place wins | NAME | 0.7 |
//! | `name_vocab` | a common given name that is no English word, then a capitalised English word also listed as a surname, ending the run, without a cue (`Helga Mayor moved away`) | NAME | 0.75 |
//! | `name_vocab` | a given name and an initial (`Ines C.`) | NAME | 0.8 |
//! | `name_vocab` | two to four words in capitals inside a line of lower-case prose, or alone on a line among lower-case lines, each a name or a word of no vocabulary with a vowel, none an English word, a place or an organisation's word (`Caller identified as SUPASITA CHAROENSUKSOPOL, member …`, `EMPLOYEE RECORD⏎RICHARD AFOAKWA⏎Staff ID: …`) | NAME | 0.8 |
//! | `name_vocab` | two or three words in capitals right after a cue inside a line of lower-case prose, an English word among them only when it is listed as a name, one a given name or no English word (`voicemail left for PRIMA PONGPANITCH today`, `IN THE MATTER OF FANG HE, Deceased. Notice is …`) | NAME | 0.8 |
//! | `name_vocab` | two or three capitalised words (or `LAST, First`) joined by `and` to a name found, each a name or a word of no vocabulary, none an English word no vocabulary lists as a name, a place or an organisation's word (`PICHPANDECHA, Nattawun and Carlijn van Dokkum both live …`) | NAME | 0.8 |
//! | `name_vocab` | two words in lower case after a cue word (`talked to miki shimizu today`): a given name and a surname (or a word of no vocabulary), neither an English word | NAME | 0.75 |
//! | `name_vocab` | a given name and a surname that are English words or name places too, with a cue only a person takes (`Dear Hope Hills,`, `reviewed with Grace Park`), or `LAST, FIRST` of two such words after a cue (`voicemail left for Kong, Na on`) | NAME | 0.8 |
//! | `name_vocab` | a line of two to four capitalised words (or `LAST, First`) right above an address's first line, none an English word, a month or an organisation's word, not all of them places (an envelope, an addressee, a shipping label: `ODETOLA, Toki⏎1 Ryan Plains`) | NAME | 0.8 |
//! | `name_vocab` | a surname or a given name alone (or a word of no vocabulary), no English word, place or organisation's word, before `'s` and a word for a person's relation (`Honkanen's supervisor`, `Mac Aogáin's wife`) | NAME | 0.75 |
//! | `name_vocab` | a surname alone (a name or a word of no vocabulary) right after a judge's title (`Employment Judge Cui`, `Mr Justice MACKO`, `HHJ Dray`) | NAME | 0.8 |
//! | `coined` | a capitalised coined word (no English word), a hyphen and a number (`Zelvatrin-4`, `Norvexa-12b`) | TREATMENT | 0.85 |
//! | `coined` | two to six capitals (no English word, nor a public code such as `ICD`, `COVID`, `IL`), a hyphen and two to four digits (`ORX-311`); an English word (`BRIDGE-12`) within 40 characters of a study word (trial, study, protocol, cohort …) | NON_PERSONAL_ID | 0.75 |
//! | `coined` | a coined name in camel case, two or more capitalised parts of three letters or more, no English word nor a name (`LuxCare`, `SilverPath`): an insurer's network, plan or programme | PROVIDER | 0.75 |
//! | `name_echo` | another occurrence in the document of a full name found above | NAME | 0.95 |
//! | `name_echo` | the first name or surname alone, when it belongs to one full name of the document (or the surname to one name written with initials, `M. Turunen`, when no full name has it) | NAME | 0.8 |
//! | `name_echo` | another occurrence of a name found by its shape alone (`name_vocab`'s words in no vocabulary), or its first name or surname alone: ranked with that name, below gazetteer terms | NAME | 0.7 |
//! | `clinician` | a clinician: a name (above) after `Dr.`, a clinical role (`Therapist:`, `surgeon`) or before credentials (`, RN`, `, MD`); every mention of it, each keeping its relevance | PROVIDER | kept |
//! | `id_beside_name` | a code with ≥ 4 digits in brackets right after or before a person's name (`Harold Brennan (PR-1234-567)`, `TCS653020 (Velitdin Aslan)`, `(Lena Ruiz, EMP05000)`), after the name and a comma, or in the field beside it on a record line (a slash, a bar, a semicolon, a tab, an HTML cell); not a claim/policy/... id | PATIENT_ID | 0.9 |
//! | `id_beside_name` | a reference of any context that holds, between slashes or dashes, the surname of a person named in the document (`Our ref: MBE/MOREAU/0417` to Mr Grégoire Moreau): retyped, relevance at least 0.9 | PATIENT_ID | kept |
//! | `provider` | capitalised words + Clinic / Hospital / Health / Pharmacy / Oncology / Network / Bank / ... | PROVIDER | 0.8 |
//! | `place` | place-shaped names (`Willow Creek`, `Port Calder`) | LOCATION | 0.6 |
//! | `place` | a single capitalised word after `in` / `from` / `near` / `lives in` ... | LOCATION | 0.5 |
//! | `event` | a named event (`Lakeshore Triathlon`, `… Marathon`) or an accident (`fall from a ladder`) | EVENT | 0.7 |
//! | `event` | a superlative pinned to a population (`the only such case in the state`) | UNIQUE_FACT | 0.8 |
//! | `clinical_phrase` | clinical noun phrase by its head (`degenerative disc disease`, `… syndrome`, `… fracture`) or suffix (`thyroiditis`) | MEDICAL_CONDITION | 0.85 |
//! | `clinical_phrase` | clinical noun phrase by its head (`aquatic therapy`, `nerve blocks`, `… repair`) or suffix (`arthroplasty`, `adalimumab`) | TREATMENT | 0.9 |
//! | `clinical_phrase` | the same by its head, every other word a common English word (Zipf ≥ 4.5: `physical therapy`, `group therapy`): many patients get it | TREATMENT | 0.7 |
//! | `gazetteer` | `conditions.txt` (skipped after "no", "denies", "negative for", "without" ... within five words, or before "was ruled out") | MEDICAL_CONDITION | 0.95 |
//! | `gazetteer` | `treatments.txt` (a named drug or procedure is a strong linking value) | TREATMENT | 1.0 |
//! | `gazetteer` | `treatments_common.txt` (physiotherapy, dialysis: many patients get them) | TREATMENT | 0.7 |
//! | `gazetteer` | `occupations.txt` (a leading "retired"/"former" is kept) | INDIRECT_IDENTIFIER | 0.8 |
//! | `gazetteer` | `demographics.txt` | DEMOGRAPHIC | 0.6 |
//! | `gazetteer` | `places.txt` | LOCATION | 0.6 |
//! | `gazetteer` | `vocab/conditions.txt` (ICD-10-CM titles and inclusion terms; negated ones skipped as above) | MEDICAL_CONDITION | 0.9 |
//! | `gazetteer` | `vocab/symptoms.txt` (ICD-10-CM signs and symptoms, weaker than a diagnosis; negated ones skipped) | MEDICAL_CONDITION | 0.6 |
//! | `gazetteer` | `vocab/treatments.txt` (drug generic and brand names) | TREATMENT | 0.95 |
//! | `gazetteer` | `vocab/places.txt` (GeoNames: cities of 15,000 and more, countries, US states and counties), written with a capital | LOCATION | 0.6 |
//!
//! Within one document a surname-only or initial+surname mention (`Ms. Raman`,
//! `M. Quintero-Hale`) whose surname belongs to exactly one full name found in the same
//! document gets that full name as its normalized value; never across documents.
//!
//! Overlaps are resolved so that no two emitted spans overlap, preferring checked ids,
//! then table cells typed by their column and codes in brackets after a person's name,
//! then EMAIL, PHONE_NUMBER by its form, ids, phones by context, dates and ages,
//! ADDRESS, NAME, PROVIDER, echoed partial names,
//! gazetteer types, guessed places (`recognizer::Tier`); among equals the longer span,
//! then the higher relevance, then the earlier start.
//!
//! # Recognizers that read earlier ones
//!
//! A recognizer receives the candidates of every recognizer before it in the registry.
//! Most only append theirs; `name_echo` reads the names found by `name_cue` (every
//! candidate typed NAME so far) to resolve partial names and find the other mentions
//! of full names, and `clinician` retypes those names (echoes included) as PROVIDER
//! when one mention is written as a clinician's; `id_beside_name` reads the names left
//! after `clinician` to type the codes written against them. The allow list is not a recognizer:
//! it filters the candidates of all of them, before overlaps are resolved.
//!
//! # Adding a recognizer
//!
//! 1. A new module beside these, say `foo.rs`, with a doc comment saying what it
//!    finds; its patterns in its own `LazyLock<Result<Patterns, regex::Error>>` and its
//!    `RelevanceRow` constants next to them; a struct with `new() -> Result<Self,
//!    &'static regex::Error>` and an `impl Recognizer` whose `recognize` pushes
//!    candidates with `Context::push` and one of its rows; its tests in a `tests`
//!    module at its bottom (`super::super::tests` has `run`, `find` and `has`).
//! 2. `mod foo;` above, and one line in `registry()`, placed by what it must see: a
//!    recognizer of person names that `name_echo` and `clinician` should work on goes
//!    before `name_echo`.
//! 3. Its rows in the table above, in registry order (`cargo test --lib relevance_table`
//!    prints the rows it expects).
//!
//! # Extending it from the configuration
//!
//! `[extract]` in `clam.toml` adds gazetteer terms per built-in type
//! (`gazetteer_terms`, or `gazetteer_files` read relative to the configuration file;
//! relevance of the type's shipped list), a deny list (`deny = { TYPE = [values] }`:
//! always extracted with that type, relevance 1.0, winning every overlap) and an allow
//! list (`allow = [values]`: never extracted, nor anything inside their occurrences).
//!
//! # Pattern compilation
//!
//! All regular expressions are literals compiled once per process, each family's into
//! its own `LazyLock<Result<Patterns, regex::Error>>`. A compile error can only be a
//! bug in this module (a unit test compiles them all); rather than panicking,
//! [`OfflineExtractor::new`] then logs the error and runs without the recognizers of
//! that family, and [`OfflineExtractor::pattern_error`] reports it. The gazetteer
//! automaton is built in `new`; if that fails (it cannot for the shipped lists) the
//! gazetteers are disabled the same way.

mod addresses;
mod checked;
mod clinical;
mod coined;
mod contact;
mod dates;
mod events;
mod gazetteer;
mod ids;
mod names;
mod person;
mod places;
mod providers;
mod recognizer;
mod tables;
mod terms;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_records;
mod text;

use std::collections::{BTreeMap, BTreeSet};

use super::{ExtractError, Extractor};
use crate::config::{Config, ExtractConfig};
use crate::corpus::Document;
use crate::entity::{DateOrder, ExtractedItem, Span};
use gazetteer::Gazetteer;
use recognizer::{Candidate, Context, Recognizer, Tier};
use text::{Folded, find_words_few, fold_term};

/// A lowercase word of the English word list at Zipf 3 or more ("care", "hope").
pub(crate) fn is_english_word(word: &str) -> bool {
    person::is_english_word(word)
}

/// A camel-case coined name such as an insurer's network or plan (`LuxCare`): no
/// English word, no name of the vocabularies (the `coined` recognizer's brand row).
pub(crate) fn is_brand(word: &str) -> bool {
    coined::camel_brand(word, person::is_english_word)
}

/// A word of a person's full name that may stand alone for it in a document the
/// name was carried to by the context pass: what may echo a name within a document
/// (a surname of two letters only when rare as a word, no initial, no organisation
/// word), no calendar word, and no common English word (Zipf 4 or more: "Will" or
/// "Page" opening a sentence is a word, and there no recognizer vouched for the name).
pub(crate) fn echoes_alone(word: &str, surname: bool) -> bool {
    names::echoable(word, surname)
        && !crate::entity::normalize::is_calendar_word(word)
        && person::word_zipf(word) < 4.0
}

/// A registry entry: a recognizer, or the compile error of its patterns.
type Entry = Result<Box<dyn Recognizer>, &'static regex::Error>;

fn entry<R: Recognizer + 'static>(recognizer: Result<R, &'static regex::Error>) -> Entry {
    recognizer.map(|r| Box::new(r) as Box<dyn Recognizer>)
}

/// The registry: every recognizer, in the order it runs. Each one sees the candidates
/// of those above it.
fn registry() -> Vec<Entry> {
    vec![
        entry(checked::Checked::new()),
        entry(tables::Tables::new()),
        entry(contact::Email::new()),
        entry(contact::Phone::new()),
        entry(ids::Ids::new()),
        entry(dates::Dates::new()),
        entry(dates::Ages::new()),
        entry(addresses::Addresses::new()),
        entry(names::NameCues::new()),
        entry(person::Names::new()),
        entry(coined::Coined::new()),
        // Reads the names above.
        entry(names::NameEchoes::new()),
        // Reads the names above, echoes included.
        entry(providers::Clinicians::new()),
        // Reads the names left after `clinician`.
        entry(ids::IdsBesideNames::new()),
        entry(providers::Providers::new()),
        entry(places::Places::new()),
        entry(events::Events::new()),
        // Reads the gazetteers, to leave their terms to them.
        entry(clinical::ClinicalPhrases::new()),
        entry(gazetteer::GazetteerTerms::new()),
    ]
}

/// The first built-in extractor: regular expressions, name/provider/address patterns
/// and gazetteers. See the module documentation for the recognizers and relevances.
pub struct OfflineExtractor {
    date_order: DateOrder,
    /// The registry's recognizers whose patterns compiled, in registry order.
    recognizers: Vec<Box<dyn Recognizer>>,
    gazetteer: Option<Gazetteer>,
    /// Folded values of the allow list: never extracted.
    allow: BTreeSet<String>,
}

impl OfflineExtractor {
    /// Builds the extractor. Regular expressions are compiled once per process; the
    /// gazetteer automaton is built here.
    pub fn new(date_order: DateOrder) -> Self {
        Self::with_extensions(date_order, &ExtractConfig::default())
    }

    /// The extractor a configuration asks for: its date order, gazetteer terms, allow
    /// and deny lists (`[extract]` in `clam.toml`).
    pub fn from_config(config: &Config) -> Self {
        Self::with_extensions(config.extraction.date_order, &config.extract)
    }

    fn with_extensions(date_order: DateOrder, extra: &ExtractConfig) -> Self {
        // The parts are independent and each takes tens of milliseconds: they are built
        // on every core (the vocabularies would otherwise load inside the first
        // document's extraction, on one core).
        let ((recognizers, gazetteer), ()) = rayon::join(
            || {
                rayon::join(
                    || -> Vec<Box<dyn Recognizer>> {
                        registry()
                            .into_iter()
                            .filter_map(|entry| match entry {
                                Ok(r) => Some(r),
                                Err(e) => {
                                    tracing::error!(
                                        "offline extractor: pattern failed to compile: {e}"
                                    );
                                    None
                                }
                            })
                            .collect()
                    },
                    || match Gazetteer::build(extra) {
                        Ok(g) => Some(g),
                        Err(e) => {
                            tracing::error!("offline extractor: gazetteer automaton failed: {e}");
                            None
                        }
                    },
                )
            },
            || {
                rayon::join(person::load_vocabularies, gazetteer::load_vocabularies);
            },
        );
        OfflineExtractor {
            date_order,
            recognizers,
            gazetteer,
            allow: extra.allow.iter().map(|v| fold_term(v.trim())).collect(),
        }
    }

    /// The first compile error of the recognizers' patterns, if any (the extractor then
    /// runs without the recognizers of that family).
    pub fn pattern_error() -> Option<String> {
        registry()
            .into_iter()
            .find_map(Result::err)
            .map(ToString::to_string)
    }

    /// Items of one text (the body of [`Extractor::extract`]). The text is read as a
    /// reader sees it ([`crate::text::reading`]: escapes, invisible characters and odd
    /// spaces do not hide a value); spans and originals are those of `text`.
    pub fn extract_text(&self, text: &str) -> Vec<ExtractedItem> {
        let Some(reading) = crate::text::reading(text) else {
            return self.extract_read(text);
        };
        let chars: Vec<char> = text.chars().collect();
        let mut items = self.extract_read(&reading.text);
        for it in &mut items {
            it.spans = it
                .spans
                .iter()
                .filter_map(|s| reading.original_span(s.start, s.end))
                .map(|(start, end)| Span { start, end })
                .collect();
            if let Some(first) = it.spans.first()
                && let Some(original) = chars.get(first.start..first.end)
            {
                it.original = original.iter().collect();
            }
        }
        items
    }

    /// Items of a text already read through [`crate::text::reading`].
    fn extract_read(&self, text: &str) -> Vec<ExtractedItem> {
        let folded = Folded::new(text);
        let ctx = Context {
            text,
            folded: &folded,
            date_order: self.date_order,
            gazetteer: self.gazetteer.as_ref(),
        };
        let mut cands = Vec::new();
        for recognizer in &self.recognizers {
            let before = cands.len();
            recognizer.recognize(&ctx, &mut cands);
            debug_assert!(
                {
                    let types = recognizer.entity_types();
                    cands[before..].iter().all(|c| types.contains(&c.ty))
                },
                "recognizer {} gave a type it does not declare",
                recognizer.name()
            );
        }
        self.drop_allowed(&folded, text, &mut cands);
        let kept = resolve_overlaps(text, cands);
        to_items(text, kept)
    }

    /// Drops the candidates the allow list names: an allowed value and everything
    /// inside its occurrences stays text ("Fenwick Falls" inside an allowed "Fenwick
    /// Falls Community Hospital"); the deny list's values stay.
    fn drop_allowed(&self, folded: &Folded, text: &str, cands: &mut Vec<Candidate>) {
        if self.allow.is_empty() {
            return;
        }
        let allowed: Vec<&String> = self.allow.iter().collect();
        let regions: Vec<(usize, usize)> = find_words_few(&allowed, folded, text)
            .into_iter()
            .map(|(s, e, _)| (s, e))
            .collect();
        cands.retain(|c| {
            c.tier == Tier::Deny
                || !(self.allow.contains(&c.normalized.to_lowercase())
                    || regions.iter().any(|&(s, e)| s <= c.start && c.end <= e))
        });
    }
}

impl Extractor for OfflineExtractor {
    fn name(&self) -> &str {
        "offline"
    }

    fn extract(&self, doc: &Document) -> Result<Vec<ExtractedItem>, ExtractError> {
        Ok(self.extract_text(&doc.content))
    }
}

/// Keeps a set of non-overlapping candidates, preferring lower tiers, then longer spans,
/// then higher relevance, then earlier starts. An address whose tail (town, postcode)
/// runs into a candidate kept before it keeps its part before that candidate, when a
/// comma parts them ("Rua Simões, 71, Lousada, 8264-494" with "8264-494" an id):
/// the street is the address's identifying part.
fn resolve_overlaps(text: &str, mut cands: Vec<Candidate>) -> Vec<Candidate> {
    cands.retain(|c| c.start < c.end);
    cands.sort_by(|a, b| {
        a.tier
            .cmp(&b.tier)
            .then((b.end - b.start).cmp(&(a.end - a.start)))
            .then(b.relevance.total_cmp(&a.relevance))
            .then(a.start.cmp(&b.start))
            .then(a.ty.cmp(b.ty))
            .then(a.normalized.cmp(&b.normalized))
    });
    let mut taken: BTreeMap<usize, usize> = BTreeMap::new();
    let mut kept = Vec::new();
    for mut c in cands {
        let clash_before = taken
            .range(..c.end)
            .next_back()
            .is_some_and(|(_, &end)| end > c.start);
        if clash_before {
            // The first kept candidate inside the address, and none over its start.
            let first_inside = taken.range(c.start + 1..c.end).next().map(|(&s, _)| s);
            let over_start = taken
                .range(..=c.start)
                .next_back()
                .is_some_and(|(_, &end)| end > c.start);
            let cut = match first_inside {
                Some(s) if c.ty == "ADDRESS" && !over_start => {
                    text[c.start..s].rfind(',').map(|i| c.start + i)
                }
                _ => None,
            };
            match cut {
                Some(end) if text[c.start..end].chars().any(|ch| ch.is_ascii_digit()) => {
                    c.end = c.start + text[c.start..end].trim_end().len();
                    // (An address's canonical form reads no date order.)
                    c.normalized =
                        crate::entity::canonical(&text[c.start..c.end], c.ty, DateOrder::Dmy);
                }
                _ => continue,
            }
        }
        taken.insert(c.start, c.end);
        kept.push(c);
    }
    kept.sort_by(|a, b| a.start.cmp(&b.start).then(a.end.cmp(&b.end)));
    kept
}

/// Groups kept candidates into items (one per type, normalized value and original text)
/// with code-point spans, sorted by first span start.
fn to_items(text: &str, kept: Vec<Candidate>) -> Vec<ExtractedItem> {
    let mut offsets: Vec<usize> = kept.iter().flat_map(|c| [c.start, c.end]).collect();
    offsets.sort_unstable();
    offsets.dedup();
    let mut chars_at = Vec::with_capacity(offsets.len());
    let mut next = 0;
    let mut char_count = 0;
    for (byte, _) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        while next < offsets.len() && offsets[next] <= byte {
            chars_at.push(char_count);
            next += 1;
        }
        if next == offsets.len() {
            break;
        }
        char_count += 1;
    }
    let to_char = |b: usize| -> usize {
        match offsets.binary_search(&b) {
            Ok(i) => chars_at.get(i).copied().unwrap_or(char_count),
            Err(_) => text.get(..b).map_or(0, |s| s.chars().count()),
        }
    };
    let mut groups: BTreeMap<(&'static str, String, String), (f64, Vec<Span>)> = BTreeMap::new();
    for c in kept {
        let original = text[c.start..c.end].to_string();
        let span = Span {
            start: to_char(c.start),
            end: to_char(c.end),
        };
        let entry = groups
            .entry((c.ty, c.normalized, original))
            .or_insert((c.relevance, Vec::new()));
        entry.0 = entry.0.max(c.relevance);
        entry.1.push(span);
    }
    let mut items: Vec<ExtractedItem> = groups
        .into_iter()
        .map(|((ty, normalized, original), (relevance, mut spans))| {
            spans.sort();
            ExtractedItem {
                original,
                normalized,
                entity_type: ty.to_string(),
                relevance,
                spans,
            }
        })
        .collect();
    items.sort_by(|a, b| {
        a.spans
            .first()
            .cmp(&b.spans.first())
            .then(a.entity_type.cmp(&b.entity_type))
    });
    items
}
