//! The value after an address label ("Address:", "mailing address is …"): where it
//! ends, and what makes it no postal address.

use regex::Captures;

use super::super::person::{fold_word, is_any_street_type, is_street_type, is_unit_type};
use super::super::text::{next_char, prev_char};

/// `s` opens with a house number ("987", "5/578", "12b", "4-6") and a capitalised word.
fn house_number_then_name(s: &str) -> bool {
    let digits = s.len() - s.trim_start_matches(|ch: char| ch.is_ascii_digit()).len();
    if digits == 0 {
        return false;
    }
    let rest = s[digits..]
        .trim_start_matches(|ch: char| ch.is_ascii_alphanumeric() || ch == '/' || ch == '-');
    rest.strip_prefix(' ')
        .is_some_and(|r| r.starts_with(char::is_uppercase))
}

/// Words, with the blanks around them, that go on with a sentence after an address
/// written in it.
const PROSE_AFTER_ADDRESS: [&str; 9] = [
    " and ",
    " but ",
    " which ",
    " who ",
    " where ",
    " because ",
    " since ",
    " until ",
    " so ",
];

/// The value of an address field, to the end of its line or cell, cut before another
/// field ("  Phone:", " Tel:") or at a sentence's end; it must hold a digit and no
/// placeholder ("on file", "see above", "[ADDRESS]").
pub(super) fn labelled_value(text: &str, c: &Captures<'_>) -> Option<(usize, usize)> {
    let all = c.get(0)?;
    let v = c.name("v")?;
    // Without a colon or "is" ("Forwarding address 987 Smith Upper, Austinhaven"),
    // only a qualified label before a house number: "address 2 issues" is a verb's.
    if c.name("bare").is_some() && !(c.name("q").is_some() && house_number_then_name(v.as_str())) {
        return None;
    }
    // "E-mail address:", "IP address:": not a postal address.
    let before = text[..all.start()].trim_end_matches([' ', '\t']);
    let prev_word: String = before
        .chars()
        .rev()
        .take_while(|ch| ch.is_alphanumeric() || *ch == '-')
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let label_first = all.as_str().split([' ', '\t', ':']).next().unwrap_or("");
    let not_postal = |w: &str| {
        matches!(
            w.to_lowercase().as_str(),
            "email"
                | "e-mail"
                | "mail"
                | "ip"
                | "mac"
                | "web"
                | "url"
                | "wallet"
                | "server"
                | "memory"
                | "return"
        )
    };
    if not_postal(&prev_word) || not_postal(label_first) {
        return None;
    }
    if prev_char(text, all.start()).is_some_and(char::is_alphanumeric) {
        return None;
    }
    let s = v.as_str();
    let mut cut = s.len();
    // Another field on the same line.
    if let Some(k) = s.find("  ") {
        cut = cut.min(k);
    }
    for (k, _) in s.match_indices(": ") {
        // Back to the start of the label's words.
        let head = &s[..k];
        let label_start = head.rfind([',', '.']).map_or(0, |x| x + 1);
        let label = head[label_start..].trim();
        if !label.is_empty()
            && label.split(' ').count() <= 3
            && label.chars().all(|ch| ch.is_alphabetic() || ch == ' ')
        {
            cut = cut.min(label_start);
            break;
        }
    }
    // A sentence's end: ". " and a capital after a word that is no abbreviation.
    for (k, _) in s.match_indices(". ") {
        if k >= cut {
            break;
        }
        let word = s[..k].rsplit([' ', ',']).next().unwrap_or("");
        // "St.", "Apt.", "Blvd.": a short word, or a street or unit type ("Lyon. She
        // moved" ends the sentence).
        let folded = fold_word(word);
        let abbreviation = word.chars().all(char::is_alphabetic)
            && word.starts_with(char::is_uppercase)
            && (word.chars().count() <= 3 || is_any_street_type(&folded) || is_unit_type(&folded));
        if !abbreviation && s[k + 2..].starts_with(char::is_uppercase) {
            cut = k;
            break;
        }
    }
    // The sentence going on after the address ("… 6286 LE and asked that letters go
    // there"): a lower-case conjunction or relative word ends it; no street, town or
    // postcode is written with one.
    for word in PROSE_AFTER_ADDRESS {
        if let Some(k) = s[..cut].find(word) {
            cut = k;
        }
    }
    let value = s[..cut].trim_end_matches([' ', ',', '.', ')', '\u{A0}']);
    let lower = value.to_lowercase();
    // A digit, or a street type among its words ("chemin Pauline Jacquot", "Rua das
    // Flores"): a street named without a house number.
    let streety = || {
        value
            .split([' ', ','])
            .any(|w| w.chars().count() >= 3 && is_street_type(&fold_word(w)))
    };
    if !(value.chars().any(|ch| ch.is_ascii_digit()) || streety())
        || !value.chars().any(char::is_alphabetic)
        || value.starts_with(['[', '<', '{'])
        || [
            "on file", "see ", "same as", "n/a", "none", "unknown", "withheld", "redacted",
        ]
        .iter()
        .any(|p| lower.starts_with(p))
    {
        return None;
    }
    let start = v.start();
    let end = start + value.len();
    if next_char(text, end).is_some_and(char::is_alphanumeric) {
        return None;
    }
    Some((start, end))
}
