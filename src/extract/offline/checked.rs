//! Identifiers with a public format that can be checked without a label: payment card
//! numbers (Luhn), IBANs (ISO 13616, mod 97), US social security numbers (the ranges
//! the SSA never issues excluded), UK National Insurance numbers (HMRC's prefixes), NHS
//! numbers (mod 11, after "NHS"), vehicle identification numbers (ISO 3779; the North
//! American check digit, or a vehicle word before), and registration plates after a
//! plate or registration word. Each is validated as a whole, so a card number is never
//! cut into a phone and an id.

use std::sync::LazyLock;

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{token_bounded, window_start};

const CARD: RelevanceRow = RelevanceRow {
    matches: "payment card number: 13–19 digits (in groups or not) passing the Luhn check, with a card network's prefix",
    entity_type: "PATIENT_ID",
    relevance: Relevance::Fixed(1.0),
};
const NATIONAL: RelevanceRow = RelevanceRow {
    matches: "US social security number `123-45-6789` (never-issued ranges excluded), UK National Insurance number `AB 12 34 56 C`, NHS number after \"NHS\" (mod 11)",
    entity_type: "PATIENT_ID",
    relevance: Relevance::Fixed(1.0),
};
const IBAN: RelevanceRow = RelevanceRow {
    matches: "IBAN: country code, check digits and account, in groups of four or not, passing ISO 13616's mod 97",
    entity_type: "NON_PERSONAL_ID",
    relevance: Relevance::Fixed(1.0),
};
const VEHICLE: RelevanceRow = RelevanceRow {
    matches: "vehicle identification number (17 characters of ISO 3779, with a valid check digit or after a vehicle word); a plate after `reg.`, `registration`, `plate` (≤ 30 chars)",
    entity_type: "NON_PERSONAL_ID",
    relevance: Relevance::Fixed(0.9),
};

struct Patterns {
    card: Regex,
    iban: Regex,
    ssn: Regex,
    nino: Regex,
    nhs: Regex,
    nhs_ctx: Regex,
    vin: Regex,
    vehicle_ctx: Regex,
    plate: Regex,
    plate_ctx: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    Ok(Patterns {
        card: Regex::new(r"(?-u:\b)\d(?:[ -]?\d){12,18}(?-u:\b)")?,
        iban: Regex::new(
            r"(?-u:\b)[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,3})?(?-u:\b)",
        )?,
        ssn: Regex::new(r"(?-u:\b)\d{3}-\d{2}-\d{4}(?-u:\b)")?,
        nino: Regex::new(
            r"(?-u:\b)[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D](?-u:\b)",
        )?,
        nhs: Regex::new(r"(?-u:\b)\d{3}[ -]?\d{3}[ -]?\d{4}(?-u:\b)")?,
        nhs_ctx: Regex::new(r"(?i)(?-u:\b)(?:nhs|chi)(?-u:\b)")?,
        vin: Regex::new(r"(?-u:\b)[A-HJ-NPR-Z0-9]{17}(?-u:\b)")?,
        vehicle_ctx: Regex::new(
            r"(?i)(?-u:\b)(?:vin|vehicle|car|chassis|truck|van|motorcycle|auto)(?-u:\b)",
        )?,
        plate: Regex::new(r"^[\s:#.()\-]*(?P<plate>[A-Z0-9]{1,4}[ -]?[A-Z0-9]{2,5})(?-u:\b)")?,
        plate_ctx: Regex::new(
            r"(?i)(?-u:\b)(?:reg|registration(?:[ \t]+(?:no|number|mark))?|(?:licen[cs]e|number|registration)[ \t]+plate|plate(?:[ \t]+(?:no|number))?|vrm)(?-u:\b)\.?",
        )?,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// Identifiers with a checkable public format.
pub(super) struct Checked {
    patterns: &'static Patterns,
}

impl Checked {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Checked {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Checked {
    fn name(&self) -> &'static str {
        "checked_id"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[CARD, NATIONAL, IBAN, VEHICLE]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let (text, p) = (ctx.text, self.patterns);
        let mut push = |m: regex::Match<'_>, row: &RelevanceRow| {
            if token_bounded(text, m.start(), m.end()) {
                ctx.push(cands, (m.start(), m.end()), row, Tier::Checked);
            }
        };
        for m in p.card.find_iter(text) {
            if is_card(m.as_str()) {
                push(m, &CARD);
            }
        }
        for m in p.iban.find_iter(text) {
            if is_iban(m.as_str()) {
                push(m, &IBAN);
            }
        }
        for m in p.ssn.find_iter(text) {
            if is_ssn(m.as_str()) {
                push(m, &NATIONAL);
            }
        }
        for m in p.nino.find_iter(text) {
            // HMRC never issues these prefixes.
            let prefix: String = m.as_str().chars().take(2).collect();
            if !["BG", "GB", "NK", "KN", "TN", "NT", "ZZ"].contains(&prefix.as_str()) {
                push(m, &NATIONAL);
            }
        }
        let cue_before = |start: usize, re: &Regex| {
            let from = window_start(text, start, 30, 0);
            re.is_match(&text[from..start])
        };
        for m in p.nhs.find_iter(text) {
            if is_nhs(m.as_str()) && cue_before(m.start(), &p.nhs_ctx) {
                push(m, &NATIONAL);
            }
        }
        for m in p.vin.find_iter(text) {
            let v = m.as_str();
            let digits = v.chars().filter(char::is_ascii_digit).count();
            let shaped = (4..17).contains(&digits);
            if shaped && (vin_check_digit_ok(v) || cue_before(m.start(), &p.vehicle_ctx)) {
                push(m, &VEHICLE);
            }
        }
        for c in p.plate_ctx.find_iter(text) {
            let after = &text[c.end()..];
            let Some(m) = p.plate.captures(after).and_then(|x| x.name("plate")) else {
                continue;
            };
            let plate = m.as_str();
            let has_digit = plate.chars().any(|c| c.is_ascii_digit());
            let has_letter = plate.chars().any(|c| c.is_ascii_alphabetic());
            let (start, end) = (c.end() + m.start(), c.end() + m.end());
            if has_digit && has_letter && token_bounded(text, start, end) {
                ctx.push(cands, (start, end), &VEHICLE, Tier::Checked);
            }
        }
    }
}

fn digits_of(s: &str) -> Vec<u32> {
    s.chars().filter_map(|c| c.to_digit(10)).collect()
}

/// Luhn's check over 13–19 digits, with a card network's prefix (Visa 4, Mastercard
/// 51–55 and 2221–2720, American Express 34/37, Discover 6011/65, JCB 35, Diners 36/38,
/// UnionPay 62); groups of one size only when separated.
fn is_card(s: &str) -> bool {
    let d = digits_of(s);
    if !(13..=19).contains(&d.len()) {
        return false;
    }
    let prefix = |n: usize| d.iter().take(n).fold(0u32, |a, &x| a * 10 + x);
    let network = d[0] == 4
        || (51..=55).contains(&prefix(2))
        || (2221..=2720).contains(&prefix(4))
        || [34, 37, 35, 36, 38, 62, 65].contains(&prefix(2))
        || prefix(4) == 6011;
    if !network {
        return false;
    }
    // Separators, when there are any, part groups of 4 (Amex: 4-6-5, Diners 4-6-4).
    let groups: Vec<usize> = s.split([' ', '-']).map(str::len).collect();
    let grouped = groups.len() == 1
        || groups.iter().take(groups.len() - 1).all(|&g| g == 4)
        || matches!(groups.as_slice(), [4, 6, 5] | [4, 6, 4]);
    let sum: u32 = d
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &x)| {
            if i % 2 == 1 {
                let y = x * 2;
                if y > 9 { y - 9 } else { y }
            } else {
                x
            }
        })
        .sum();
    grouped && sum.is_multiple_of(10) && d.iter().any(|&x| x != d[0])
}

/// ISO 13616: the country code and check digits moved to the end, letters as 10–35,
/// the number mod 97 is 1.
fn is_iban(s: &str) -> bool {
    let compact: Vec<char> = s.chars().filter(|c| !c.is_whitespace()).collect();
    if !(15..=34).contains(&compact.len()) {
        return false;
    }
    let mut rem: u64 = 0;
    for c in compact[4..].iter().chain(&compact[..4]) {
        let v = match c.to_digit(36) {
            Some(v) => v as u64,
            None => return false,
        };
        rem = if v < 10 {
            (rem * 10 + v) % 97
        } else {
            (rem * 100 + v) % 97
        };
    }
    rem == 1
}

/// The SSA never issues area 000, 666 or 900–999, group 00 or serial 0000.
fn is_ssn(s: &str) -> bool {
    let parts: Vec<&str> = s.split('-').collect();
    let [area, group, serial] = parts.as_slice() else {
        return false;
    };
    let area: u32 = area.parse().unwrap_or(0);
    area != 0 && area != 666 && area < 900 && *group != "00" && *serial != "0000"
}

/// NHS numbers: ten digits, the last a mod-11 check digit of the first nine.
fn is_nhs(s: &str) -> bool {
    let d = digits_of(s);
    if d.len() != 10 {
        return false;
    }
    let sum: u32 = d[..9].iter().zip((2..=10).rev()).map(|(x, w)| x * w).sum();
    let check = 11 - sum % 11;
    let check = if check == 11 { 0 } else { check };
    check != 10 && check == d[9]
}

/// ISO 3779's North American check digit (position 9): transliterated characters
/// weighted, the sum mod 11 ('X' for 10).
fn vin_check_digit_ok(v: &str) -> bool {
    const WEIGHTS: [u32; 17] = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2];
    let value = |c: char| -> Option<u32> {
        Some(match c {
            '0'..='9' => c.to_digit(10)?,
            'A' | 'J' => 1,
            'B' | 'K' | 'S' => 2,
            'C' | 'L' | 'T' => 3,
            'D' | 'M' | 'U' => 4,
            'E' | 'N' | 'V' => 5,
            'F' | 'W' => 6,
            'G' | 'P' | 'X' => 7,
            'H' | 'Y' => 8,
            'R' | 'Z' => 9,
            _ => return None,
        })
    };
    let mut sum = 0;
    for (c, w) in v.chars().zip(WEIGHTS) {
        match value(c) {
            Some(x) => sum += x * w,
            None => return false,
        }
    }
    let check = match sum % 11 {
        10 => 'X',
        n => char::from_digit(n, 10).unwrap_or('?'),
    };
    v.chars().nth(8) == Some(check)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_accept_valid_and_refuse_altered_numbers() {
        assert!(is_card("4111 1111 1111 1111"));
        assert!(is_card("5500-0000-0000-0004"));
        assert!(is_card("378282246310005"));
        assert!(!is_card("4111 1111 1111 1112"), "Luhn");
        assert!(!is_card("1234 5678 9012 3452"), "no network");
        assert!(!is_card("4111 11111 1111 111"), "groups");
        assert!(is_iban("GB33 BUKB 2020 1555 5555 55"));
        assert!(is_iban("DE89370400440532013000"));
        assert!(!is_iban("GB34 BUKB 2020 1555 5555 55"));
        assert!(is_ssn("123-45-6789"));
        assert!(!is_ssn("666-45-6789") && !is_ssn("912-45-6789") && !is_ssn("123-00-6789"));
        assert!(is_nhs("943 476 5919"));
        assert!(!is_nhs("943 476 5918"));
        assert!(vin_check_digit_ok("1HGCM82633A004352"));
        assert!(!vin_check_digit_ok("1HGCM82643A004352"));
    }
}
