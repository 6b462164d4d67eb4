//! The `generalize` mode's replacements fitted to the words around them: the phrase's
//! article agrees with the text ("a an age" is never written), a salutation or a title
//! before a name reads as one ("Dear Sir or Madam", "the patient"), an age inside a
//! "-year-old" compound stays a compound, a sentence still starts with a capital; and
//! dates, ages and places become a coarser value where the schema says so
//! ([`Generalization`]: year, month, age band, region).
//!
//! What is written comes only from the schema's phrases, fixed words, and the coarse
//! value (a year, a month's name, a decade's word, a region's name); a coarse value
//! that equals a masked value falls back to the phrase, so the independent leak check
//! can never meet a masked value in it.

use std::collections::HashSet;

use super::MaskedEntity;
use crate::entity::normalize::MONTHS;
use crate::schema::{Generalization, Schema, ValueKind, value_kind};

/// Per masked entity: its phrase and its coarse value, if it has one.
pub(super) struct Generalizer {
    phrases: Vec<String>,
    coarse: Vec<Option<Coarse>>,
    /// Entities whose type generalizes to a region.
    to_region: Vec<bool>,
    /// Every masked value, lowercased (a coarse value equal to one is not written).
    masked: HashSet<String>,
}

/// A coarser form of a masked value.
#[derive(Debug, Clone, PartialEq)]
enum Coarse {
    /// A date's year, or month and year: written after "in" ("in 1968").
    Date(String),
    /// An age's decade (its first year: 40 for 40–49; 0 for a child, 13 for a teen).
    Band(u32),
    /// A region's name.
    Region(String),
}

/// Words before a name that say what the person is ("Patient Maria Keller").
const ROLES: &[&str] = &[
    "patient",
    "claimant",
    "member",
    "insured",
    "policyholder",
    "client",
    "customer",
    "employee",
    "applicant",
    "beneficiary",
    "resident",
    "caller",
    "subscriber",
    "enrollee",
];

/// Honorifics written before a name.
const HONORIFICS: &[&str] = &[
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "madam",
];

/// Determiners after which a phrase drops its own article ("her a condition").
const DETERMINERS: &[&str] = &[
    "the", "his", "her", "their", "its", "our", "your", "my", "this", "that", "these", "those",
    "whose", "any", "no", "each", "every",
];

/// Words that do not name what a "-year-old" compound describes.
const NOT_NOUNS: &[&str] = &[
    "is",
    "was",
    "were",
    "are",
    "be",
    "been",
    "has",
    "had",
    "have",
    "will",
    "would",
    "could",
    "can",
    "may",
    "might",
    "should",
    "must",
    "did",
    "does",
    "do",
    "who",
    "which",
    "that",
    "and",
    "or",
    "but",
    "with",
    "in",
    "on",
    "at",
    "of",
    "from",
    "to",
    "for",
    "by",
    "as",
    "came",
    "said",
    "told",
    "reported",
    "presented",
    "died",
    "visited",
    "called",
    "went",
];

/// US states (name, postal code) and a few countries, for [`Generalization::Region`].
const US_STATES: &[(&str, &str)] = &[
    ("Alabama", "AL"),
    ("Alaska", "AK"),
    ("Arizona", "AZ"),
    ("Arkansas", "AR"),
    ("California", "CA"),
    ("Colorado", "CO"),
    ("Connecticut", "CT"),
    ("Delaware", "DE"),
    ("District of Columbia", "DC"),
    ("Florida", "FL"),
    ("Georgia", "GA"),
    ("Hawaii", "HI"),
    ("Idaho", "ID"),
    ("Illinois", "IL"),
    ("Indiana", "IN"),
    ("Iowa", "IA"),
    ("Kansas", "KS"),
    ("Kentucky", "KY"),
    ("Louisiana", "LA"),
    ("Maine", "ME"),
    ("Maryland", "MD"),
    ("Massachusetts", "MA"),
    ("Michigan", "MI"),
    ("Minnesota", "MN"),
    ("Mississippi", "MS"),
    ("Missouri", "MO"),
    ("Montana", "MT"),
    ("Nebraska", "NE"),
    ("Nevada", "NV"),
    ("New Hampshire", "NH"),
    ("New Jersey", "NJ"),
    ("New Mexico", "NM"),
    ("New York", "NY"),
    ("North Carolina", "NC"),
    ("North Dakota", "ND"),
    ("Ohio", "OH"),
    ("Oklahoma", "OK"),
    ("Oregon", "OR"),
    ("Pennsylvania", "PA"),
    ("Rhode Island", "RI"),
    ("South Carolina", "SC"),
    ("South Dakota", "SD"),
    ("Tennessee", "TN"),
    ("Texas", "TX"),
    ("Utah", "UT"),
    ("Vermont", "VT"),
    ("Virginia", "VA"),
    ("Washington", "WA"),
    ("West Virginia", "WV"),
    ("Wisconsin", "WI"),
    ("Wyoming", "WY"),
];

const COUNTRIES: &[&str] = &[
    "USA",
    "United States",
    "Canada",
    "Mexico",
    "United Kingdom",
    "UK",
    "Ireland",
    "France",
    "Germany",
    "Spain",
    "Portugal",
    "Italy",
    "Netherlands",
    "Belgium",
    "Switzerland",
    "Austria",
    "Poland",
    "Sweden",
    "Norway",
    "Denmark",
    "Finland",
    "India",
    "China",
    "Japan",
    "Australia",
    "New Zealand",
    "Brazil",
    "Argentina",
    "South Africa",
];

impl Generalizer {
    pub(super) fn new(entities: &[MaskedEntity], schema: &Schema) -> Self {
        // Every masked value as written and canonical, lowercased: a coarse value
        // equal to one of them is not written.
        let masked: HashSet<String> = entities
            .iter()
            .flat_map(|e| e.originals.iter().chain(std::iter::once(&e.normalized)))
            .map(|v| v.trim().to_lowercase())
            .collect();
        let coarse = entities
            .iter()
            .map(|e| {
                let c = coarse_value(e, schema.generalization(&e.entity_type))?;
                let written = match &c {
                    Coarse::Date(s) | Coarse::Region(s) => s.to_lowercase(),
                    Coarse::Band(d) => band_words(*d).1.to_string(),
                };
                (!masked.contains(&written)).then_some(c)
            })
            .collect();
        Generalizer {
            phrases: entities
                .iter()
                .map(|e| schema.phrase(&e.entity_type))
                .collect(),
            coarse,
            to_region: entities
                .iter()
                .map(|e| schema.generalization(&e.entity_type) == Generalization::Region)
                .collect(),
            masked,
        }
    }

    /// The replacement of entity `entity` at chars `start..end` of `text`, and the span
    /// it replaces (widened over the words it takes the place of), never starting
    /// before `floor` (the end of the previous replacement).
    pub(super) fn fit(
        &self,
        text: &[char],
        (start, end): (usize, usize),
        floor: usize,
        entity: usize,
        kind: ValueKind,
    ) -> (usize, usize, String) {
        let phrase = self.phrases[entity].as_str();
        let coarse = self.coarse[entity].as_ref();
        let mut start = start;
        let mut end = end;
        let out: String;

        // The words before: (start of the word, the word) for up to two words.
        let prev = word_before(text, start, floor);
        let prev_lower = prev.as_ref().map(|(_, w)| w.to_lowercase());

        if kind == ValueKind::Name {
            // "Dear Mr. Keller" → "Dear Sir or Madam"; "Mr. Keller" → "a person";
            // "Patient Keller" → "the patient".
            let mut at = start;
            let mut word = prev.clone();
            if let Some((s, w)) = &prev
                && HONORIFICS.contains(&w.trim_end_matches('.').to_lowercase().as_str())
            {
                at = *s;
                word = word_before(text, *s, floor);
            }
            match word {
                Some((_, w)) if w.eq_ignore_ascii_case("dear") => {
                    return (at, end, "Sir or Madam".to_string());
                }
                Some((s, w))
                    if at == start
                        && w.starts_with(char::is_uppercase)
                        && ROLES.contains(&w.to_lowercase().as_str()) =>
                {
                    let role = format!("the {}", w.to_lowercase());
                    return (s, end, capitalized_at(text, s, &role));
                }
                _ => start = at,
            }
        }

        // An age in a compound ("45-year-old", "45 years old") and after "aged".
        if kind == ValueKind::Age {
            let after: String = text[end..text.len().min(end + 12)].iter().collect();
            let after = after.to_lowercase();
            let compound = ["-year-old", "-year old", "-years-old", "-yr-old"]
                .iter()
                .find(|s| after.starts_with(**s));
            let predicative = [" years old", " year old", " years of age", " yrs old"]
                .iter()
                .find(|s| after.starts_with(**s));
            if let Some(suffix) = compound {
                end += suffix.chars().count();
                let (word, noun) = match coarse {
                    Some(Coarse::Band(d)) => (band_words(*d).0.to_string(), false),
                    // Without a band the compound goes; a noun after it stays ("a man").
                    _ => (String::new(), true),
                };
                return with_article(text, (start, end), floor, word, noun);
            }
            if let Some(suffix) = predicative {
                end += suffix.chars().count();
            }
            if let Some(Coarse::Band(d)) = coarse {
                if prev_lower
                    .as_deref()
                    .is_some_and(|w| w == "aged" || w == "age")
                    && let Some((s, _)) = &prev
                {
                    start = *s;
                }
                let label = text[..start].iter().rev().find(|c| !c.is_whitespace()) == Some(&':');
                let words = band_words(*d);
                out = if label {
                    words.1.to_string()
                } else {
                    words.2.to_string()
                };
                return (start, end, capitalized_at(text, start, &out));
            }
        }

        // A place whose state or country follows it ("Springfield, IL"): the region,
        // in place of both.
        if coarse.is_none() && self.to_region[entity] {
            let line_end = (end..text.len())
                .find(|&i| text[i] == '\n')
                .unwrap_or(text.len());
            let after: String = text[end..line_end.min(end + 40)].iter().collect();
            if let Some(rest) = after.strip_prefix(", ") {
                let candidate: String = rest
                    .chars()
                    .take_while(|c| c.is_alphabetic() || *c == ' ' || *c == '.')
                    .collect();
                // The longest run of words that names a region ("New York", "IL").
                let words: Vec<&str> = candidate.split(' ').collect();
                for n in (1..=words.len().min(3)).rev() {
                    let name = words[..n].join(" ");
                    let bare = name.trim_end_matches('.');
                    if let Some(Coarse::Region(r)) = region(&format!("x, {bare}"))
                        && !self.masked.contains(&r.to_lowercase())
                    {
                        let taken = 2 + bare.chars().count();
                        return (start, end + taken, capitalized_at(text, start, &r));
                    }
                }
            }
        }

        match coarse {
            Some(Coarse::Date(value)) => {
                // "on 14 March 1968" → "in 1968".
                if let (Some((s, w)), Some(lower)) = (&prev, prev_lower.as_deref())
                    && lower == "on"
                {
                    let word = if w.starts_with(char::is_uppercase) {
                        "In"
                    } else {
                        "in"
                    };
                    return (*s, end, format!("{word} {value}"));
                }
                out = value.clone();
            }
            Some(Coarse::Region(region)) => out = region.clone(),
            _ => return with_article(text, (start, end), floor, phrase.to_string(), false),
        }
        let fitted = capitalized_at(text, start, &out);
        (start, end, fitted)
    }
}

/// `word` (or the phrase) at `start..end` with the article before it made to agree: a
/// phrase's own article replaces one written before it ("a an age" → "an age"), and is
/// dropped after a determiner ("her a condition" → "her condition"). With `noun` and
/// an empty word the compound is removed and the article agrees with the next word
/// ("an 8-year-old boy" → "a boy"), or "a person" stands for it when no word follows.
fn with_article(
    text: &[char],
    (start, end): (usize, usize),
    floor: usize,
    word: String,
    noun: bool,
) -> (usize, usize, String) {
    let prev = word_before(text, start, floor);
    let prev_lower = prev.as_ref().map(|(_, w)| w.to_lowercase());
    let mut word = word;
    let mut end = end;
    if noun && word.is_empty() {
        // The next word, if a lowercase noun-like word follows on the line.
        let next_start = (end..text.len()).find(|&i| !text[i].is_whitespace() || text[i] == '\n');
        let next_word: String = next_start
            .filter(|&i| i > end && text[end..i].iter().all(|c| *c == ' '))
            .map(|i| text[i..].iter().take_while(|c| c.is_alphabetic()).collect())
            .unwrap_or_default();
        // A noun follows ("a 45-year-old man"), not a verb or a function word ("the
        // 45-year-old was").
        let follows =
            !next_word.is_empty() && !NOT_NOUNS.contains(&next_word.to_lowercase().as_str());
        if follows {
            // Remove the compound and the space after it.
            end = next_start.unwrap_or(end);
            let next: String = text[end..]
                .iter()
                .take_while(|c| c.is_alphanumeric())
                .collect();
            if let (Some((s, w)), Some(lower)) = (&prev, prev_lower.as_deref())
                && (lower == "a" || lower == "an")
            {
                let article = article_for(&next, w.starts_with(char::is_uppercase));
                return (*s, end, format!("{article} "));
            }
            return (start, end, String::new());
        }
        word = "a person".to_string();
    }
    let (own_article, rest) = split_article(&word);
    match (&prev, prev_lower.as_deref()) {
        (Some((s, w)), Some("a" | "an")) => {
            let capital = w.starts_with(char::is_uppercase);
            let text_out = match own_article {
                Some(_) => capitalize_if(&word, capital),
                None => format!("{} {word}", article_for(&word, capital)),
            };
            (*s, end, text_out)
        }
        (Some(_), Some(lower)) if DETERMINERS.contains(&lower) && own_article.is_some() => {
            (start, end, rest.to_string())
        }
        _ => (start, end, capitalized_at(text, start, &word)),
    }
}

/// The coarse value of a masked entity under the schema's generalization, if any.
fn coarse_value(e: &MaskedEntity, how: Generalization) -> Option<Coarse> {
    match (how, value_kind(&e.entity_type)) {
        (Generalization::Year | Generalization::Month, ValueKind::Date) => {
            let mut it = e.normalized.split('-');
            let year: u32 = it.next()?.parse().ok()?;
            let month: usize = it.next()?.parse().ok()?;
            if how == Generalization::Year {
                Some(Coarse::Date(year.to_string()))
            } else {
                let name = MONTHS.get(month.checked_sub(1)?)?;
                let mut name_chars = name.chars();
                let first = name_chars.next()?.to_uppercase().collect::<String>();
                Some(Coarse::Date(format!(
                    "{first}{} {year}",
                    name_chars.as_str()
                )))
            }
        }
        (Generalization::Band, _) => {
            let digits: String = e.normalized.chars().filter(char::is_ascii_digit).collect();
            let age: u32 = digits.parse().ok()?;
            if digits.len() > 3 || age > 130 {
                return None;
            }
            Some(Coarse::Band(match age {
                0..=12 => 0,
                13..=19 => 13,
                _ => age / 10 * 10,
            }))
        }
        (Generalization::Region, _) => region(&e.normalized),
        _ => None,
    }
}

/// The US state or country written after the last comma of a place ("springfield,
/// il" → "Illinois"); `None` for a place with nothing after a comma.
fn region(value: &str) -> Option<Coarse> {
    let (_, tail) = value.rsplit_once(',')?;
    let tail = tail.trim().trim_end_matches('.');
    // "il 62701": the state before a ZIP code.
    let tail = tail
        .split_whitespace()
        .filter(|w| !w.chars().all(|c| c.is_ascii_digit() || c == '-'))
        .collect::<Vec<_>>()
        .join(" ");
    if let Some((name, _)) = US_STATES
        .iter()
        .find(|(name, code)| name.eq_ignore_ascii_case(&tail) || code.eq_ignore_ascii_case(&tail))
    {
        return Some(Coarse::Region((*name).to_string()));
    }
    COUNTRIES
        .iter()
        .find(|c| c.eq_ignore_ascii_case(&tail))
        .map(|c| Coarse::Region((*c).to_string()))
}

/// An age band's words: attributive ("fortysomething"), as a noun ("forties"), and
/// predicative ("in their forties").
fn band_words(decade: u32) -> (&'static str, &'static str, &'static str) {
    match decade {
        0 => ("young", "childhood", "a child"),
        13 => ("teenage", "teens", "in their teens"),
        20 => ("twentysomething", "twenties", "in their twenties"),
        30 => ("thirtysomething", "thirties", "in their thirties"),
        40 => ("fortysomething", "forties", "in their forties"),
        50 => ("fiftysomething", "fifties", "in their fifties"),
        60 => ("sixtysomething", "sixties", "in their sixties"),
        70 => ("seventysomething", "seventies", "in their seventies"),
        80 => ("eightysomething", "eighties", "in their eighties"),
        90 => ("ninetysomething", "nineties", "in their nineties"),
        _ => ("centenarian", "over a hundred", "over a hundred"),
    }
}

/// The word before chars `at` (skipping spaces on the same line), not before `floor`:
/// (its start, the word, with a trailing '.').
fn word_before(text: &[char], at: usize, floor: usize) -> Option<(usize, String)> {
    let mut i = at;
    while i > floor && matches!(text[i - 1], ' ' | '\t' | '\u{A0}') {
        i -= 1;
    }
    if i == at {
        return None;
    }
    let end = i;
    let mut s = if i > floor && text[i - 1] == '.' {
        i - 1
    } else {
        i
    };
    while s > floor && text[s - 1].is_alphabetic() {
        s -= 1;
    }
    let word_end = if end > s && text[end - 1] == '.' {
        end - 1
    } else {
        end
    };
    if s == word_end {
        return None;
    }
    // A whole word: not the tail of "x-ray" or "3rd".
    if s > floor && (text[s - 1].is_alphanumeric() || text[s - 1] == '-') {
        return None;
    }
    Some((s, text[s..end].iter().collect()))
}

/// "a"/"an" before `word` (an initial vowel letter, or a digit read as 8, 11, 18).
fn article_for(word: &str, capital: bool) -> &'static str {
    let lower = word.to_lowercase();
    let an = lower.starts_with(['a', 'e', 'i', 'o'])
        || (lower.starts_with('u') && !lower.starts_with("uni") && !lower.starts_with("use"))
        || lower.starts_with('8')
        || lower.starts_with("11")
        || lower.starts_with("18");
    match (an, capital) {
        (true, true) => "An",
        (true, false) => "an",
        (false, true) => "A",
        (false, false) => "a",
    }
}

/// A phrase's own article and the rest ("an age" → (Some("an"), "age")).
fn split_article(phrase: &str) -> (Option<&str>, &str) {
    for article in ["a ", "an ", "A ", "An "] {
        if let Some(rest) = phrase.strip_prefix(article) {
            return (Some(article.trim_end()), rest);
        }
    }
    (None, phrase)
}

fn capitalize_if(s: &str, capital: bool) -> String {
    if !capital {
        return s.to_string();
    }
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `s` capitalized when chars `at` of `text` starts a sentence (the text's start, or
/// after '.', '!', '?' and white space, or a blank line).
fn capitalized_at(text: &[char], at: usize, s: &str) -> String {
    let mut i = at;
    while i > 0 && text[i - 1].is_whitespace() {
        i -= 1;
    }
    let starts = i == 0 || (i < at && matches!(text[i - 1], '.' | '!' | '?'));
    capitalize_if(s, starts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::redact::test_masked as masked;

    #[test]
    fn region_takes_the_state_or_country_after_the_last_comma() {
        assert_eq!(
            region("springfield, il"),
            Some(Coarse::Region("Illinois".into()))
        );
        assert_eq!(
            region("colorado springs, colorado 80903"),
            Some(Coarse::Region("Colorado".into()))
        );
        assert_eq!(
            region("lyon, france"),
            Some(Coarse::Region("France".into()))
        );
        assert_eq!(region("colorado springs"), None);
        assert_eq!(region("springfield, nowhere"), None);
    }

    #[test]
    fn coarse_values_of_dates_and_ages() {
        let d = masked("d", "BIRTHDATE", "1968-03-14", &["03/14/1968"]);
        assert_eq!(
            coarse_value(&d, Generalization::Year),
            Some(Coarse::Date("1968".into()))
        );
        assert_eq!(
            coarse_value(&d, Generalization::Month),
            Some(Coarse::Date("March 1968".into()))
        );
        assert_eq!(coarse_value(&d, Generalization::Phrase), None);
        let a = masked("a", "AGE", "45", &["45"]);
        assert_eq!(
            coarse_value(&a, Generalization::Band),
            Some(Coarse::Band(40))
        );
        let t = masked("t", "AGE", "17", &["17"]);
        assert_eq!(
            coarse_value(&t, Generalization::Band),
            Some(Coarse::Band(13))
        );
    }

    #[test]
    fn articles_agree() {
        assert_eq!(article_for("age", false), "an");
        assert_eq!(article_for("person", true), "A");
        assert_eq!(article_for("eightysomething", false), "an");
        assert_eq!(article_for("universal", false), "a");
        assert_eq!(split_article("an age"), (Some("an"), "age"));
    }
}
