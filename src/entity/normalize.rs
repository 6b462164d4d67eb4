//! Canonical forms per type (SPEC §2), so that variants of one value meet.
//!
//! Every canonical form starts from NFC with no-break spaces folded to spaces and
//! typographic dashes folded to '-'. Then: dates → ISO `YYYY-MM-DD`; phones → digits
//! (a leading '+' kept); ids → uppercase without spaces or dashes; names → honorifics
//! dropped and "Last, First" reordered; everything else → lowercase, whitespace
//! collapsed, surrounding punctuation trimmed.

use serde::{Deserialize, Serialize};
use std::borrow::Cow;

use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

use crate::schema::{ValueKind, value_kind};

/// How an ambiguous numeric date such as `03/04/2024` is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum DateOrder {
    #[default]
    #[serde(rename = "MDY")]
    Mdy,
    #[serde(rename = "DMY")]
    Dmy,
    #[serde(rename = "YMD")]
    Ymd,
}

/// Honorifics dropped from names: English, and of other languages where the word is
/// no given name too ("Sra. Ruiz" is "Ruiz"; "Sig", "Dona" and "Pani" can be names).
pub const HONORIFICS: &[&str] = &[
    "dr", "mr", "mrs", "ms", "prof", "miss", "mx", "sr", "sra", "srta", "mme", "mlle", "herr",
    "frau", "mevr", "dhr", "dott", "doña", "dña", "sigra",
];

/// NFC, no-break spaces → space, typographic dashes → '-'.
pub fn fold_basic(value: &str) -> String {
    folded_basic(value).into_owned()
}

/// [`fold_basic`], borrowing `value` when it is already folded: ASCII text (the common
/// case) and NFC text without a no-break space or typographic dash need no work.
fn folded_basic(value: &str) -> Cow<'_, str> {
    fn fold(c: char) -> char {
        match c {
            '\u{00A0}' | '\u{2007}' | '\u{202F}' => ' ',
            '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => '-',
            c => c,
        }
    }
    if value.is_ascii() {
        return Cow::Borrowed(value);
    }
    if is_nfc_quick(value.chars()) == IsNormalized::Yes {
        if value.chars().all(|c| fold(c) == c) {
            return Cow::Borrowed(value);
        }
        return Cow::Owned(value.chars().map(fold).collect());
    }
    Cow::Owned(value.nfc().map(fold).collect())
}

/// The canonical form of `value` as an entity of type `entity_type`.
pub fn canonical(value: &str, entity_type: &str, date_order: DateOrder) -> String {
    let folded = folded_basic(value);
    match value_kind(entity_type) {
        ValueKind::Date => {
            parse_date(&folded, date_order).unwrap_or_else(|| canonical_text(&folded))
        }
        ValueKind::Phone => canonical_phone(&folded).unwrap_or_else(|| canonical_text(&folded)),
        ValueKind::Id => canonical_id(&folded),
        ValueKind::Name => canonical_name(&folded),
        ValueKind::Age => canonical_age(&folded).unwrap_or_else(|| canonical_text(&folded)),
        ValueKind::Text => canonical_text(&folded),
    }
}

fn is_trim_punct(c: char) -> bool {
    !c.is_alphanumeric() && !matches!(c, '+' | '#' | '%' | '$' | '€' | '£')
}

/// Lowercase, whitespace collapsed, surrounding punctuation trimmed.
pub fn canonical_text(value: &str) -> String {
    let mut collapsed = String::with_capacity(value.len());
    for word in value.split_whitespace() {
        if !collapsed.is_empty() {
            collapsed.push(' ');
        }
        collapsed.push_str(word);
    }
    // `str::to_lowercase` reads context (a final sigma), so non-ASCII text is lowered
    // whole, as before; ASCII in place.
    let lower = if collapsed.is_ascii() {
        collapsed.make_ascii_lowercase();
        collapsed
    } else {
        collapsed.to_lowercase()
    };
    let trimmed = lower.trim_matches(|c: char| is_trim_punct(c) || c.is_whitespace());
    if trimmed.len() == lower.len() {
        lower
    } else {
        trimmed.to_string()
    }
}

/// Digits, with a leading '+' kept; `None` when there are too few digits to be a phone.
pub fn canonical_phone(value: &str) -> Option<String> {
    let trimmed = value.trim();
    let digits: String = trimmed.chars().filter(|c| c.is_ascii_digit()).collect();
    if digits.len() < 5 {
        return None;
    }
    if trimmed.starts_with('+') {
        Some(format!("+{digits}"))
    } else {
        Some(digits)
    }
}

/// Uppercase without spaces or dashes (surrounding punctuation trimmed).
pub fn canonical_id(value: &str) -> String {
    value
        .trim_matches(|c: char| is_trim_punct(c) || c.is_whitespace())
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_uppercase)
        .collect()
}

/// The number of an age written with one number ("56-year-old", "aged 56", "56 y/o");
/// `None` for anything else (ranges such as "16-25" keep their text).
pub fn canonical_age(value: &str) -> Option<String> {
    let numbers: Vec<&str> = value
        .split(|c: char| !c.is_ascii_digit())
        .filter(|t| !t.is_empty())
        .collect();
    match numbers.as_slice() {
        [n] if n.len() <= 3 => {
            Some(n.trim_start_matches('0').to_string()).filter(|s| !s.is_empty())
        }
        _ => None,
    }
}

/// Honorifics dropped and "Last, First" reordered to "first last".
pub fn canonical_name(value: &str) -> String {
    let text = canonical_text(value);
    let reordered = match text.split_once(',') {
        Some((last, first)) if !first.trim().is_empty() && !last.trim().is_empty() => {
            format!("{} {}", first.trim(), last.trim())
        }
        _ => text,
    };
    let mut words: Vec<&str> = reordered
        .split_whitespace()
        .filter(|w| !HONORIFICS.contains(&w.trim_end_matches('.')))
        .collect();
    // A middle initial is no part of the name's identity: "Victor M. Ramirez" and
    // "Victor Ramirez" are one name, as a reader links them (first and last words
    // stay, so "J. Okafor" keeps its initial).
    if words.len() >= 3 {
        let last = words.len() - 1;
        let mut k = 0;
        words.retain(|w| {
            let middle = k > 0 && k < last;
            k += 1;
            !(middle && w.trim_end_matches('.').chars().count() == 1)
        });
    }
    let joined = words.join(" ");
    canonical_text(&joined)
}

/// A month or weekday name (lowercase): a date word, never a name or a place.
pub fn is_calendar_word(w: &str) -> bool {
    MONTHS.contains(&w) || WEEKDAYS.contains(&w)
}

/// English month names, January first.
pub const MONTHS: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];
/// English weekday names, Monday first.
pub const WEEKDAYS: &[&str] = &[
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "mon",
    "tue",
    "tues",
    "wed",
    "thu",
    "thur",
    "thurs",
    "fri",
    "sat",
    "sun",
];

/// Month number of a month name or its abbreviation ("sep", "sept", "sep.").
pub fn month_number(word: &str) -> Option<u32> {
    let w = word.trim_end_matches('.').to_lowercase();
    if w.len() < 3 {
        return None;
    }
    if w == "sept" {
        return Some(9);
    }
    MONTHS
        .iter()
        .position(|m| *m == w || (w.len() == 3 && m.starts_with(&w)))
        .map(|i| i as u32 + 1)
}

fn days_in_month(year: i32, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        _ => 0,
    }
}

fn iso(year: i32, month: u32, day: u32) -> Option<String> {
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    if !(1000..=2999).contains(&year) {
        return None;
    }
    Some(format!("{year:04}-{month:02}-{day:02}"))
}

fn year_of(token: &str) -> Option<i32> {
    let y: i32 = token.parse().ok()?;
    match token.len() {
        4 => Some(y),
        // Two-digit years pivot at 30: 24 → 2024, 68 → 1968.
        2 if y <= 30 => Some(2000 + y),
        2 => Some(1900 + y),
        _ => None,
    }
}

/// Parses a complete date in any common written form to ISO `YYYY-MM-DD`.
pub fn parse_date(value: &str, order: DateOrder) -> Option<String> {
    let lower = value.trim().to_lowercase();
    let tokens: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',' || c == '/' || c == '-' || c == '.')
        .filter(|t| !t.is_empty())
        .collect();
    let tokens: Vec<&str> = tokens
        .into_iter()
        .skip_while(|t| WEEKDAYS.contains(t))
        .filter(|t| *t != "of" && *t != "the")
        .collect();
    if tokens.len() != 3 {
        return None;
    }
    let strip_ordinal = |t: &str| -> String {
        let t = t.trim_end_matches(|c: char| c.is_alphabetic());
        t.to_string()
    };
    let numeric = |t: &str| t.chars().all(|c| c.is_ascii_digit());
    let (a, b, c) = (tokens[0], tokens[1], tokens[2]);
    // Month names: "march 14 1968", "14 march 1968", "1968 march 14".
    if let Some(m) = month_number(a) {
        let d: u32 = strip_ordinal(b).parse().ok()?;
        return iso(year_of(c)?, m, d);
    }
    if let Some(m) = month_number(b) {
        if c.len() == 4 && numeric(c) {
            let d: u32 = strip_ordinal(a).parse().ok()?;
            return iso(year_of(c)?, m, d);
        }
        if a.len() == 4 && numeric(a) {
            let d: u32 = strip_ordinal(c).parse().ok()?;
            return iso(year_of(a)?, m, d);
        }
        return None;
    }
    if !(numeric(a) && numeric(b) && numeric(c)) {
        return None;
    }
    if a.len() == 4 {
        return iso(year_of(a)?, b.parse().ok()?, c.parse().ok()?);
    }
    if a.len() > 2 || b.len() > 2 || !(c.len() == 4 || c.len() == 2) {
        return None;
    }
    let (x, y): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
    let year = year_of(c)?;
    // Unambiguous when one side exceeds 12; otherwise the configured order decides.
    let (month, day) = if x > 12 {
        (y, x)
    } else if y > 12 {
        (x, y)
    } else {
        match order {
            DateOrder::Dmy => (y, x),
            DateOrder::Mdy | DateOrder::Ymd => (x, y),
        }
    };
    iso(year, month, day)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: &str, t: &str) -> String {
        canonical(v, t, DateOrder::Mdy)
    }

    #[test]
    fn dates_meet_in_iso_form() {
        for v in [
            "03/14/1968",
            "1968-03-14",
            "March 14, 1968",
            "14 March 1968",
            "Mar. 14, 1968",
            "14th of March 1968",
            "Thursday, 14 Mar 1968",
            "3/14/68",
        ] {
            assert_eq!(c(v, "BIRTHDATE"), "1968-03-14", "{v}");
        }
        assert_eq!(
            canonical("03/04/2024", "EVENT_DATE", DateOrder::Dmy),
            "2024-04-03"
        );
        assert_eq!(c("03/04/2024", "EVENT_DATE"), "2024-03-04");
        // not a date: falls back to text
        assert_eq!(c("Spring 2024", "EVENT_DATE"), "spring 2024");
        assert_eq!(c("02/30/2024", "EVENT_DATE"), "02/30/2024");
    }

    #[test]
    fn phones_become_digits_keeping_plus() {
        assert_eq!(c("(555) 010-4417", "PHONE_NUMBER"), "5550104417");
        assert_eq!(c("555.010.4417", "PHONE_NUMBER"), "5550104417");
        assert_eq!(c("+1 555 010 4417", "PHONE_NUMBER"), "+15550104417");
    }

    #[test]
    fn ids_uppercase_without_dashes_or_spaces() {
        assert_eq!(c("MBR-448213", "PATIENT_ID"), "MBR448213");
        assert_eq!(c("mbr 448213", "PATIENT_ID"), "MBR448213");
        assert_eq!(
            c("CLM\u{2013}2024\u{2013}00917", "NON_PERSONAL_ID"),
            "CLM202400917"
        );
    }

    #[test]
    fn names_drop_honorifics_and_reorder() {
        assert_eq!(c("Raman, Priya", "NAME"), "priya raman");
        assert_eq!(c("Ms. Priya Raman", "NAME"), "priya raman");
        assert_eq!(c("Dr Elise  Varga", "NAME"), "elise varga");
        assert_eq!(c("Quintero-Hale, Marisol", "NAME"), "marisol quintero-hale");
        // Middle initials are dropped; a first initial stays.
        assert_eq!(c("Victor M. Ramirez", "NAME"), "victor ramirez");
        assert_eq!(c("Achterberg, Desmond J.", "NAME"), "desmond achterberg");
        assert_eq!(c("J. Okafor", "NAME"), "j. okafor");
        assert_eq!(c("Anna K L Berg", "NAME"), "anna berg");
    }

    #[test]
    fn ages_become_their_number() {
        for v in ["56-year-old", "aged 56", "Age: 56", "56 y/o", "56"] {
            assert_eq!(c(v, "AGE"), "56", "{v}");
        }
        assert_eq!(c("16-25", "AGE"), "16-25");
        assert_eq!(c("mid-forties", "AGE"), "mid-forties");
    }

    #[test]
    fn text_is_lowercased_collapsed_and_trimmed() {
        assert_eq!(
            c("  Lupus\u{00A0}Nephritis. ", "MEDICAL_CONDITION"),
            "lupus nephritis"
        );
        assert_eq!(c("\"Boston\",", "LOCATION"), "boston");
    }
}

/// The fast paths of [`fold_basic`] and [`canonical_text`] (ASCII, text already in NFC)
/// give what the plain definitions give, for any text.
#[cfg(test)]
mod fast_paths {
    use super::*;

    fn fold_basic_plain(value: &str) -> String {
        value
            .nfc()
            .map(|c| match c {
                '\u{00A0}' | '\u{2007}' | '\u{202F}' => ' ',
                '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => '-',
                c => c,
            })
            .collect()
    }

    fn canonical_text_plain(value: &str) -> String {
        let collapsed = value
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase();
        collapsed
            .trim_matches(|c: char| is_trim_punct(c) || c.is_whitespace())
            .to_string()
    }

    /// Odd characters: decomposed accents, no-break and typographic spaces, dashes,
    /// a final sigma, the Kelvin sign, invisible characters.
    const ODD: &[&str] = &[
        "Cafe\u{301} Me\u{301}lodie",
        "Jos\u{E9}\u{A0}Garc\u{ED}a",
        "ODYSSEUS \u{39F}\u{394}\u{3A5}\u{3A3}\u{3A3}\u{395}\u{3A5}\u{3A3}",
        "\u{212A}elvin\u{2013}Str.\u{2007}5",
        "  \u{201C}Ro\u{200B}se\u{201D}, ",
        "\u{FF21}\u{FF22} 12\u{2212}3",
        "Ha\u{308}\u{323}nsel",
    ];

    #[test]
    fn odd_characters_fold_as_before() {
        for v in ODD {
            assert_eq!(fold_basic(v), fold_basic_plain(v), "{v:?}");
            assert_eq!(canonical_text(v), canonical_text_plain(v), "{v:?}");
        }
    }

    proptest::proptest! {
        #[test]
        fn any_text_folds_as_before(v in "(\\PC|\\s|[\u{300}-\u{36F}\u{A0}\u{2010}-\u{2015}\u{3A3}])*") {
            proptest::prop_assert_eq!(fold_basic(&v), fold_basic_plain(&v));
            proptest::prop_assert_eq!(canonical_text(&v), canonical_text_plain(&v));
        }
    }
}
