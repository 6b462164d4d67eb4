//! Street addresses in the forms of many countries, by the street-type vocabulary of
//! `data/address/street_types.txt` (Mapbox's 28 languages and libpostal's 60) rather
//! than a list of English suffixes:
//! - a house number, a name and a street type (`1187 Larkspur Lane`, `22 Kingsley
//!   Gardens`) or a post-office box (`P.O. Box 4410`);
//! - a house number, then a street type before the name (`9 rue des Lilas`, `12
//!   avenue Foch`);
//! - a street type, a name and a house number (`Calle Mayor 5`, `ul. Długa 5`), or one
//!   word that ends in a street type (`Hauptstraße 12`, `Storgatan 3`, `Kerkstraat
//!   5`), where the number ends the street (a comma, a line's end, a postcode follows);
//! - the value of an address field (`Address:`, `Home address:`, `Adresse:`,
//!   `Dirección:` …) on its line, when it holds a digit.
//!
//! Each is then extended by what follows on its line: a unit (`, Apt 4B`), a city with
//! a postcode before or after it and a state (`, 75019 Paris`, `, Springfield, IL
//! 62704`, `, Leeds LS6 1AA`), or a postcode alone (`Dayton OH 45401`, `Portsmouth PO1
//! 3AB`); and a unit just before it is taken in (`Flat 3, 22 Kingsley Gardens`).

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::person::{
    fold_word, is_any_street_type, is_known_name, is_place_type, is_street_type, is_unit_type,
    word_zipf,
};
use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{SP, prev_char, token_bounded};
use labelled::labelled_value;

mod labelled;

const ADDRESS: RelevanceRow = RelevanceRow {
    matches: "a street address (house number and street, in the forms of `data/address/street_types.txt`'s languages; `P.O. Box n`) with a part after a comma (`, City[, ST 12345]`, `, 75019 Paris`, `, Apt 4`)",
    entity_type: "ADDRESS",
    relevance: Relevance::Fixed(1.0),
};
const ADDRESS_ALONE: RelevanceRow = RelevanceRow {
    matches: "the same without a comma (no city)",
    entity_type: "ADDRESS",
    relevance: Relevance::Fixed(0.95),
};
const LABELLED: RelevanceRow = RelevanceRow {
    matches: "the value of an address field (`Address:`, `Home address:`, `Adresse:`, `Dirección:` …) to the end of its line or cell, holding a digit",
    entity_type: "ADDRESS",
    relevance: Relevance::Fixed(1.0),
};

/// A word this common in English (Zipf) is a word in a street's name, no person's.
const ENGLISH_WORD_MIN: f32 = 3.0;

/// Lower-case words inside a street's or a city's name ("rue des Lilas", "Via della
/// Spiga", "Frankfurt am Main").
const PART: &str = r"(?:de|del|della|delle|dei|degli|des|du|la|le|les|da|do|dos|das|di|van|von|der|den|het|am|an|im|auf|sur|en|y|i)";
/// A capitalised word of a street's name, maybe after "d'" or "l'".
const CAPW: &str = r"(?:[dDlL]['’])?\p{Lu}[\p{L}'’-]*";
/// A house number: `12`, `12a`, `12 bis`, `18/7`, `12-14`.
const NUM: &str =
    r"\d{1,5}(?:[a-zA-Z](?-u:\b)|[ \x{A0}]?(?:bis|ter)(?-u:\b))?(?:[/-]\d{1,4}[a-zA-Z]?)?";

/// A unit's number: digits with letters (`4B`, `12-3`, `210`) or one capital (`C`).
const UNIT_NO: &str = r"(?:\d[A-Za-z0-9-]{0,5}|[A-Z])(?-u:\b)";

struct Patterns {
    english: Regex,
    number_caps: Regex,
    number_type: Regex,
    type_number: Regex,
    compound: Regex,
    labelled: Regex,
    unit: Regex,
    city: Regex,
    region_postcode: Regex,
    next_line: Regex,
    postcode: Regex,
    unit_street: Regex,
    unit_before: Regex,
    lower_type: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    let street_full = r"Street|Avenue|Road|Lane|Drive|Boulevard|Court|Way|Place|Terrace|Row|Parkway|Highway|Circle|Square|Trail|Crescent|Close|Alley|Plaza|Pike|Loop|Mews";
    let street_abbr = r"St|Ave|Rd|Ln|Dr|Blvd|Ct|Pl|Pkwy|Hwy|Cir|Sq|Ter|Trl|Cres";
    // The street itself; the city, the unit and the postcode are the tail's.
    let english = Regex::new(&format!(
        r"(?:(?-u:\b)\d{{1,6}}[A-Za-z]?{SP}(?:(?:[NSEW]\.?|North|South|East|West|N[EW]|S[EW]){SP})?(?:(?:{PART}{SP})?(?:\p{{Lu}}[\p{{L}}'’-]*|\d+(?:st|nd|rd|th)){SP}){{1,4}}(?:(?:{street_full})(?-u:\b)|(?:{street_abbr})(?-u:\b)\.?)|(?-u:\b)(?i:P\.?{SP}?O\.?{SP}?Box){SP}\d+)"
    ))?;
    let number_caps = Regex::new(&format!(
        r"(?-u:\b)(?:\d{{1,4}}/)?\d{{1,6}}[A-Za-z]?{SP}(?P<words>\p{{Lu}}[\p{{L}}'’-]*(?:{SP}\p{{Lu}}[\p{{L}}'’-]*){{1,4}})"
    ))?;
    let name = format!(r"(?:{PART}{SP})*{CAPW}(?:{SP}(?:{PART}{SP})*{CAPW}){{0,3}}");
    let number_type = Regex::new(&format!(
        r"(?-u:\b){NUM},?{SP}(?P<ty>\p{{L}}+\.?){SP}(?P<name>{name})"
    ))?;
    let type_number = Regex::new(&format!(
        r"(?P<ty>\p{{Lu}}\p{{L}}*\.?|(?:ul|al|pl)\.){SP}(?P<name>{name}),?{SP}(?P<num>{NUM}|[Ss]/[Nn](?-u:\b))"
    ))?;
    let compound = Regex::new(&format!(
        r"(?P<w>\p{{Lu}}\p{{Ll}}[\p{{L}}'’-]*)\.?{SP}(?P<num>{NUM})"
    ))?;
    let labelled = Regex::new(
        r"(?im)(?:(?P<q>home|mailing|postal|street|residential|residence|billing|current|new|old|previous|prior|permanent|correspondence|contact|patient|member|claimant|employee|delivery|shipping|forwarding|last known)[ \t]+)?(?:address|addr\.?|adresse|anschrift|adres|adresa|dirección|direccion|domicilio|indirizzo|endereço|endereco|morada|osoite|cím)(?:[ \t]+(?:line[ \t]*\d|on file|of record))?(?:[ \t]*[:：]|[ \t]+(?:is|was)(?:[ \t]+now)?(?-u:\b)|(?P<bare>[ \t]+))[ \t]*(?P<v>[^\n\r\t|;]{4,160})",
    )?;
    let unit = Regex::new(&format!(
        r"^,?{SP}(?:(?P<u>\p{{L}}{{2,}})\.?{SP}?#?|#{SP}?){UNIT_NO}"
    ))?;
    let pc = r"(?:[A-Z]{1,2}\d[A-Z\d]?[ \x{A0}]?\d[A-Z]{2}|[A-Z]\d[A-Z][ \x{A0}]?\d[A-Z]\d|\d{5}(?:-\d{4})?|\d{4}[ \x{A0}]?[A-Z]{2}|\d{2}-\d{3}|\d{4}-\d{3}|(?:[A-Z]{1,2}-)?\d{4,5})(?-u:\b)";
    let city_name = format!(
        r"\p{{Lu}}[\p{{L}}'’.-]*\b(?:[ \x{{A0}}-](?:{PART}[ \x{{A0}}-])?\p{{Lu}}[\p{{L}}'’.-]*\b){{0,2}}"
    );
    let city = Regex::new(&format!(
        r"^,{SP}(?:{pc}{SP})?{city_name}(?:,?{SP}[A-Z]{{2,3}}(?-u:\b))?(?:,?{SP}{pc})?"
    ))?;
    // The next line of a letter's address block: "Springfield, IL 62704", "75019 Paris",
    // "Leeds LS6 1AA"; a postcode must be on it, so a line of prose is never taken.
    let next_line = Regex::new(&format!(
        r"^[ \t]*\r?\n[ \t]*(?:{city_name},?{SP}(?:[A-Z]{{2,3}}{SP})?(?:[A-Z]{{1,2}}\d[A-Z\d]?[ \x{{A0}}]?\d[A-Z]{{2}}|[A-Z]\d[A-Z][ \x{{A0}}]?\d[A-Z]\d|\d{{4,5}}(?:-\d{{4}})?)|\d{{4,5}}{SP}{city_name})(?-u:\b)[ \t]*(?:\r?\n|$)"
    ))?;
    let region_postcode = Regex::new(&format!(
        r"^,{SP}{city_name}(?:,?{SP}[A-Z]{{2,3}})?,?{SP}(?:[A-Z]{{1,2}}\d[A-Z\d]?[ \x{{A0}}]?\d[A-Z]{{2}}|[A-Z]\d[A-Z][ \x{{A0}}]?\d[A-Z]\d|\d{{4,5}}(?:-\d{{4}})?)(?-u:\b)"
    ))?;
    let postcode = Regex::new(
        r"^,?[ \x{A0}](?:[A-Z]{2}[ \x{A0}])?(?:[A-Z]{1,2}\d[A-Z\d]?[ \x{A0}]?\d[A-Z]{2}|[A-Z]\d[A-Z][ \x{A0}]?\d[A-Z]\d|\d{5}(?:-\d{4})?)(?-u:\b)",
    )?;
    let unit_street = Regex::new(&format!(
        r"(?-u:\b)(?P<u>\p{{Lu}}\p{{L}}+)\.?{SP}#?{UNIT_NO},{SP}(?P<words>\p{{Lu}}[\p{{L}}'’-]*(?:{SP}\p{{Lu}}[\p{{L}}'’-]*){{1,3}})"
    ))?;
    let unit_before = Regex::new(&format!(
        r"(?:^|[\s(:,])(?P<u>\p{{L}}{{2,}})\.?{SP}?#?{UNIT_NO},?{SP}$"
    ))?;
    // "rue Meyer, Lyon 69003": a street type in lower case, no house number.
    let lower_type = Regex::new(&format!(
        r"(?-u:\b)(?P<ty>\p{{Ll}}{{3,}}){SP}(?P<name>{name})"
    ))?;
    Ok(Patterns {
        lower_type,
        english,
        number_caps,
        number_type,
        type_number,
        compound,
        labelled,
        unit,
        city,
        region_postcode,
        next_line,
        postcode,
        unit_street,
        unit_before,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// Street addresses and post-office boxes.
pub(super) struct Addresses {
    patterns: &'static Patterns,
}

impl Addresses {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Addresses {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Addresses {
    fn name(&self) -> &'static str {
        "address"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[ADDRESS, ADDRESS_ALONE, LABELLED]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let (text, p) = (ctx.text, self.patterns);
        let mut streets: Vec<(usize, usize)> = Vec::new();
        scan(&p.english, text, |c| english_street(text, c), &mut streets);
        scan(
            &p.number_caps,
            text,
            |c| number_then_name(text, c),
            &mut streets,
        );
        scan(
            &p.number_type,
            text,
            |c| number_then_type(text, c),
            &mut streets,
        );
        scan(
            &p.type_number,
            text,
            |c| type_then_number(text, c),
            &mut streets,
        );
        scan(
            &p.compound,
            text,
            |c| compound_street(text, c),
            &mut streets,
        );
        scan(
            &p.unit_street,
            text,
            |c| unit_then_street(text, c),
            &mut streets,
        );
        scan(
            &p.lower_type,
            text,
            |c| self.lower_type_street(text, c),
            &mut streets,
        );
        for (start, end) in streets {
            let (start, end) = (self.unit_before(text, start), self.tail(text, end));
            let row = if text[start..end].contains(',') {
                &ADDRESS
            } else {
                &ADDRESS_ALONE
            };
            ctx.push(
                cands,
                (start, trim_end(text, start, end)),
                row,
                Tier::Address,
            );
        }
        for c in p.labelled.captures_iter(text) {
            if let Some(span) = labelled_value(text, &c) {
                ctx.push(cands, span, &LABELLED, Tier::Address);
            }
        }
    }
}

impl Addresses {
    /// "rue Meyer, Lyon 69003", "calle Rosales, 28013 Madrid": a street type in lower
    /// case, a capitalised name and no house number. A type that is a common English
    /// word ("avenue") needs a particle after it and a town with a postcode after a
    /// comma (without them it is too often prose), or a particle and a bracket, a
    /// preposition of place, the word "address" or a postcode; a rarer one ("rue",
    /// "boulevard", "calle") a town after a comma, or a particle ("(rue de Dufour)").
    /// Any type alone on its line, the town and postcode on the next, is an address
    /// block's street.
    fn lower_type_street(&self, text: &str, c: &Captures<'_>) -> Option<(usize, usize)> {
        let (m, name) = (c.get(0)?, c.name("name")?);
        if prev_char(text, m.start()).is_some_and(char::is_alphanumeric) {
            return None;
        }
        // "8, rue Antoine" is the house number's street (`number_then_type`); "down the
        // rue Quellmar" is prose about a street, not an address written out.
        let before = text[..m.start()].trim_end_matches([' ', ',', '\u{A0}', '\t']);
        let last_word = before
            .rsplit(|ch: char| !ch.is_alphanumeric())
            .next()
            .unwrap_or("");
        // (A date before is no house number: "d.o.b. 1950-02-03, rue de Lesage",
        // "d.o.b. February 7, 1979, avenue de Rossi".)
        let house_number = before.strip_suffix(last_word).is_some_and(|head| {
            let year_of_date = last_word.len() == 4
                && (last_word.starts_with("19") || last_word.starts_with("20"))
                && head.trim_end().ends_with(',');
            last_word.len() <= 5
                && last_word.starts_with(|ch: char| ch.is_ascii_digit())
                && !head.ends_with(['-', '/', '.'])
                && !year_of_date
        });
        if house_number
            || ["the", "a", "an", "this", "that"]
                .iter()
                .any(|d| last_word.eq_ignore_ascii_case(d))
        {
            return None;
        }
        let ty = folded(c, "ty");
        // "via", "place" are among the commonest English words ("sent via Lyon, 69003
        // …" is prose); "avenue" is a common one, "rue", "boulevard" are rarer ones. A
        // particle after the type ("avenue de Tessier", "rue du Four") is no English
        // prose.
        let zipf = word_zipf(&ty);
        let particle = starts_with_particle(name.as_str());
        if !is_street_type(&ty) || zipf >= 5.0 {
            return None;
        }
        // "(rue de Dufour)": a rare type and a particle are a street by themselves;
        // so is a rare type after a preposition of place ("lives at chemin Antoine",
        // "stuck on boulevard Maillet").
        if zipf < 4.0 && (particle || place_preposition_before(before)) {
            return Some((m.start(), name.end()));
        }
        let rest = &text[name.end()..];
        // "avenue Delahaye⏎Schmittville 11848": the street alone on its line of a
        // letter's address block, the town and a postcode on the next.
        let line_start = before.is_empty() || text[..m.start()].ends_with(['\n', '\r']);
        if line_start && self.patterns.next_line.is_match(rest) {
            return Some((m.start(), name.end()));
        }
        // "new addr avenue Bruneau": after the word "address" any type is a street.
        // "(avenue de Chauveau)", "avenue de Lagarde, 66276": a common type and a
        // particle in brackets, after a preposition of place, or before a postcode.
        if ["address", "addr"]
            .iter()
            .any(|w| last_word.eq_ignore_ascii_case(w))
            || particle
                && (before.ends_with('(')
                    || place_preposition_before(before)
                    || postcode_after_comma(rest))
        {
            return Some((m.start(), name.end()));
        }
        // "garaged at avenue Julien Guillet.", "stuck on avenue Seguin", "I, …, of
        // avenue Suzanne Grégoire, Marchand": a common type in lower case right after
        // "at", "on" or "of" (English writes "at the avenue"), then a name, each word a
        // person's name or no English word, that ends the sentence, the clause or the
        // line ("looked at avenue Options Today" is no street); or the type and such a
        // name filling a pair of brackets ("the address given by … (boulevard
        // Rousseau) matches").
        let at_on = ["at", "on", "of"]
            .iter()
            .any(|w| last_word.eq_ignore_ascii_case(w));
        let ends = rest.is_empty() || rest.starts_with(['.', ',', ';', '\n', '\r', ')']);
        let bracketed = before.ends_with('(') && rest.starts_with(')');
        if (at_on && ends || bracketed) && name_like_words(name.as_str()) {
            return Some((m.start(), name.end()));
        }
        let city = self.patterns.city.find(rest)?;
        // "boulevard Jules Chrétien, Normand": a rare type, a name and a town after a
        // comma; so is a common type ("avenue") with a particle ("avenue de Chauvin,
        // Guilbert"). Without one, a common type needs a postcode too ("avenue
        // Lemonnier, Colasville 61495").
        if zipf < 4.0 || particle {
            return Some((m.start(), name.end()));
        }
        let after = &rest[city.end()..];
        let postcode = |s: &str| {
            s.trim_start_matches(',')
                .trim_start()
                .starts_with(|ch: char| ch.is_ascii_digit())
        };
        let has_postcode = city.as_str().chars().any(|ch| ch.is_ascii_digit())
            || self.patterns.postcode.find(after).is_some()
            || postcode(after) && self.patterns.region_postcode.find(after).is_some();
        has_postcode.then_some((m.start(), name.end()))
    }

    /// The unit, city, state and postcode after a street on its line.
    fn tail(&self, text: &str, mut end: usize) -> usize {
        let p = self.patterns;
        if let Some(c) = p.unit.captures(&text[end..])
            && c.name("u")
                .is_none_or(|u| is_unit_type(&fold_word(u.as_str())))
        {
            end += c.get(0).map_or(0, |m| m.end());
        }
        if let Some(m) = p.city.find(&text[end..]) {
            end += m.end();
            // A county or region before the postcode ("Little Snoring, Norfolk NR21
            // 0AB"): a second place is taken only when a postcode ends it.
            if let Some(m) = p.region_postcode.find(&text[end..]) {
                end += m.end();
            }
        }
        if let Some(m) = p.postcode.find(&text[end..]) {
            end += m.end();
        }
        // A street ending its line, the town and postcode on the next (a letter's
        // address block): the next line is the address's too, its line break excluded.
        if let Some(m) = p.next_line.find(&text[end..]) {
            end += m.as_str().trim_end().len();
        }
        end
    }

    /// A unit just before a street ("Flat 3, 22 Kingsley Gardens").
    fn unit_before(&self, text: &str, start: usize) -> usize {
        let from = floor_boundary(text, start.saturating_sub(24));
        let before = &text[from..start];
        match self.patterns.unit_before.captures(before) {
            Some(c) => match c.name("u") {
                Some(u) if is_unit_type(&fold_word(u.as_str())) => from + u.start(),
                _ => start,
            },
            None => start,
        }
    }
}

/// Every match of `re` that `check` accepts, trying again one word further on after a
/// rejected match ("Visit Calle Mayor 5": not "Visit …", but "Calle Mayor 5").
fn scan(
    re: &Regex,
    text: &str,
    check: impl Fn(&Captures<'_>) -> Option<(usize, usize)>,
    out: &mut Vec<(usize, usize)>,
) {
    let mut pos = 0;
    while pos < text.len() {
        let Some(c) = re.captures_at(text, pos) else {
            break;
        };
        let Some(m) = c.get(0) else {
            break;
        };
        if let Some(span) = check(&c) {
            out.push(span);
            pos = m.end().max(pos + 1);
        } else {
            // The next word of the match.
            let rest = &text[m.start()..];
            let skip = rest
                .find(|ch: char| ch.is_whitespace())
                .map_or(rest.len(), |k| k + 1);
            pos = m.start() + skip.max(1);
        }
        while !text.is_char_boundary(pos) {
            pos += 1;
        }
    }
}

fn floor_boundary(text: &str, mut i: usize) -> usize {
    while i > 0 && !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// A trailing sentence period after a city is not part of the address (street
/// abbreviations such as "Ln." and "Blvd." keep theirs).
fn trim_end(text: &str, start: usize, end: usize) -> usize {
    let s = &text[start..end];
    if let Some(head) = s.strip_suffix('.') {
        let last_word = head.rsplit([' ', ',']).next().unwrap_or("");
        if last_word.chars().count() > 4 || last_word.chars().any(|c| c.is_ascii_digit()) {
            return end - 1;
        }
    }
    end
}

fn folded(c: &Captures<'_>, group: &str) -> String {
    c.name(group)
        .map(|m| fold_word(m.as_str().trim_end_matches('.')))
        .unwrap_or_default()
}

/// The English form: house number, capitalised words and a suffix, or a post-office
/// box.
fn english_street(text: &str, c: &Captures<'_>) -> Option<(usize, usize)> {
    let m = c.get(0)?;
    let digits = m.as_str().bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Some((m.start(), m.end()));
    }
    if let Some(start) = range_start(text, m.start()).or_else(|| unit_slash_start(text, m.start()))
    {
        return Some((start, m.end()));
    }
    if !token_bounded(text, m.start(), m.start() + digits) {
        return None;
    }
    Some((m.start(), m.end()))
}

/// The start of a house-number range ending at `start` ("45-47 Harbour Rd", "12–14
/// High Street"): the first number, when a hyphen or dash and a whole number of up to
/// five digits come right before (not a year).
fn range_start(text: &str, start: usize) -> Option<usize> {
    let before = &text[..start];
    let dash = before
        .chars()
        .next_back()
        .filter(|c| matches!(c, '-' | '\u{2013}'))?;
    let head = &before[..before.len() - dash.len_utf8()];
    let (first, digits, open) = number_before(head);
    // "2019-2021 Harbour Road works": years, not houses.
    let year = digits == 4
        && head[first..]
            .parse::<u32>()
            .is_ok_and(|y| (1800..=2100).contains(&y));
    ((1..=5).contains(&digits) && open && !year).then_some(first)
}

/// The start of a unit's number written before the house number with a slash ("4/27
/// Beach Rd", Australian style): one to four digits and a slash right before `start`,
/// opening a word.
fn unit_slash_start(text: &str, start: usize) -> Option<usize> {
    let head = text[..start].strip_suffix('/')?;
    let (first, digits, open) = number_before(head);
    ((1..=4).contains(&digits) && open).then_some(first)
}

/// The digits that end `head`: where they start, how many, and whether they open a
/// word (a blank, a bracket or a punctuation mark before them, or nothing).
fn number_before(head: &str) -> (usize, usize, bool) {
    let digits = head.bytes().rev().take_while(u8::is_ascii_digit).count();
    let first = head.len() - digits;
    let open = head[..first]
        .chars()
        .next_back()
        .is_none_or(|c| c.is_whitespace() || matches!(c, '(' | ',' | ':' | ';'));
    (first, digits, open)
}

/// A house number, capitalised words and a street type of any language among them
/// after the first ("22 Kingsley Gardens", "4 Hollins Walk"): the street ends there.
fn number_then_name(text: &str, c: &Captures<'_>) -> Option<(usize, usize)> {
    let (m, words) = (c.get(0)?, c.name("words")?);
    // "29/3 Craig Spur": a unit's number, a slash and the house number.
    let digits = m
        .as_str()
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b'/')
        .count();
    let start = range_start(text, m.start());
    if start.is_none() && !token_bounded(text, m.start(), m.start() + digits)
        || numbered_title(text, m.start())
    {
        return None;
    }
    let start = start.unwrap_or(m.start());
    let mut offset = words.start();
    for (k, w) in words.as_str().split([' ', '\u{A0}']).enumerate() {
        let end = offset + w.len();
        // ("531 Rowan Cul-de-sac": a hyphenated type is listed by its first word.)
        let folded = fold_word(w);
        let typed = is_trailing_street_type(&folded)
            || folded.split_once('-').is_some_and(|(head, _)| {
                head.chars().count() >= 3 && is_trailing_street_type(head)
            });
        if k > 0 && w.chars().count() >= 3 && typed {
            return Some((start, end));
        }
        offset = end + text[end..].chars().next().map_or(1, char::len_utf8);
    }
    None
}

/// A street type that ends a street's name: any of `data/address/street_types.txt`, or a
/// street suffix of USPS Publication 28 (`data/address/abbreviations.tsv`: "Neck",
/// "Glens", "Lock"), which libpostal's English list lacks.
fn is_trailing_street_type(folded: &str) -> bool {
    is_any_street_type(folded) || crate::text::address::is_street_suffix(folded)
}

/// A unit, its number and a comma, then a street without a house number ("Flat 90,
/// Sykes Estate", "Studio 6, Mitchell Crossroad", "Apartment 4B, Rose Court").
fn unit_then_street(text: &str, c: &Captures<'_>) -> Option<(usize, usize)> {
    let (m, u, words) = (c.get(0)?, c.name("u")?, c.name("words")?);
    if !is_unit_type(&fold_word(u.as_str())) {
        return None;
    }
    let mut offset = words.start();
    let mut found = None;
    for (k, w) in words.as_str().split([' ', '\u{A0}']).enumerate() {
        let end = offset + w.len();
        if k > 0 && w.chars().count() >= 3 && is_trailing_street_type(&fold_word(w)) {
            found = Some(end);
        }
        offset = end + text[end..].chars().next().map_or(1, char::len_utf8);
    }
    found.map(|end| (m.start(), end))
}

/// The number at `start` numbers the capitalised word just before it ("Level 4
/// Epilepsy Center", "Ward 5 Nurses Station", "Suite 200 Harbor Plaza"), not a house.
fn numbered_title(text: &str, start: usize) -> bool {
    let before = &text[..start];
    let Some(head) = before.strip_suffix([' ', '\u{A0}']) else {
        return false;
    };
    let word: String = head
        .chars()
        .rev()
        .take_while(|c| c.is_alphabetic())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    // A unit's or floor's number too ("Level 4 Epilepsy Center", "Suite 200 Harbor
    // Plaza"): the house number of a street comes after the unit's, with a comma.
    word.starts_with(char::is_uppercase)
}

/// `9 rue des Lilas`, `12 avenue Foch`, `25 Calle Mayor`: a street type after the
/// number. An English word written with a capital ("2 Court Dates") must be followed by
/// a name that is no English word.
fn number_then_type(text: &str, c: &Captures<'_>) -> Option<(usize, usize)> {
    let m = c.get(0)?;
    let digits = m.as_str().bytes().take_while(u8::is_ascii_digit).count();
    if !token_bounded(text, m.start(), m.start() + digits) || numbered_title(text, m.start()) {
        return None;
    }
    let ty = folded(c, "ty");
    if ty.chars().count() < 3 || !is_street_type(&ty) {
        return None;
    }
    let name = c.name("name")?;
    // Written in lower case ("8, rue Antoine") the type is no English word.
    let capital = c
        .name("ty")
        .is_some_and(|t| t.as_str().starts_with(char::is_uppercase));
    if capital && word_zipf(&ty) >= 3.0 && english_first_word(name.as_str()) {
        return None;
    }
    Some((m.start(), name.end()))
}

/// A street's name opens with a particle in lower case ("de São João", "du Four").
fn starts_with_particle(name: &str) -> bool {
    name.starts_with(char::is_lowercase)
}

/// The first capitalised word of a street's name is an English word ("Court Dates"),
/// more an English word than a name ("Via Gutierrez 99": "Gutierrez" is in the word
/// list as the name it is).
fn english_first_word(name: &str) -> bool {
    name.split([' ', '\u{A0}'])
        .find(|w| w.starts_with(char::is_uppercase))
        .is_some_and(|w| {
            let f = fold_word(w);
            word_zipf(&f) >= 3.0 && !is_known_name(&f)
        })
}

/// `Calle Mayor 5`, `ul. Długa 5`, `Via della Spiga 12`: a street type, a name and the
/// house number, which ends the street.
fn type_then_number(text: &str, c: &Captures<'_>) -> Option<(usize, usize)> {
    let (m, num, name) = (c.get(0)?, c.name("num")?, c.name("name")?);
    if prev_char(text, m.start()).is_some_and(char::is_alphanumeric) {
        return None;
    }
    let ty = folded(c, "ty");
    // libpostal's further types lead a street when they are no English word ("Borgo",
    // "Largo", "Travessa", "Rambla", "Glorieta"), or written with a capital before a
    // name that is none ("Piazza Gabbiani 24"; not "Terrace", "Hill" before a word).
    let capital = c
        .name("ty")
        .is_some_and(|t| t.as_str().starts_with(char::is_uppercase));
    let leading = is_street_type(&ty)
        || is_any_street_type(&ty)
            && (word_zipf(&ty) < 3.0 || capital && !english_first_word(name.as_str()))
        // "Urbanización Rosaura Escalona 47": a kind of place of six letters or more that
        // is no English word, capitalised, before a name and a house number.
        || capital
            && ty.chars().count() >= 6
            && word_zipf(&ty) < 2.5
            && is_place_type(&ty)
            && !english_first_word(name.as_str())
        // "R. de Lima, 4", "Av. das Conchas, 582": a type abbreviated to a capital and a
        // dot, a particle, a name, a comma and the house number (a person's initial is
        // followed by no number).
        || ty.chars().count() <= 2
            && c.name("ty").is_some_and(|t| t.as_str().ends_with('.'))
            && starts_with_particle(name.as_str())
            && text[name.end()..num.start()].starts_with(',')
        // "Incrocio Aldo, 74 Piano 8": a capitalised word that no vocabulary knows (a
        // street type of no list), a name, a comma, the house number and a unit with its
        // number: the unit says an address is written.
        || capital
            && ty.chars().count() >= 5
            && word_zipf(&ty) <= 0.0
            && !is_known_name(&ty)
            && text[name.end()..num.start()].starts_with(',')
            && name_like_words(name.as_str())
            && (unit_follows(&text[num.end()..]) || residence_before(&text[..m.start()]));
    if !leading || !ends_street(text, num.start(), num.end()) {
        return None;
    }
    // "Av de São João de Deus, 20": after a particle the name is no English prose.
    if word_zipf(&ty) >= 3.0
        && !starts_with_particle(name.as_str())
        && english_first_word(name.as_str())
    {
        return None;
    }
    Some((m.start(), num.end()))
}

/// Every word of a street's name is a person's name or no English word ("Julien
/// Guillet", not "Options Today", "Zorblax Industries").
fn name_like_words(name: &str) -> bool {
    name.split([' ', '\u{A0}'])
        .map(fold_word)
        .all(|w| is_known_name(&w) || word_zipf(&w) < ENGLISH_WORD_MIN)
}

/// `before` ends with a verb of residence and "at" ("resides at", "lives at", "domiciled
/// at"): an address follows, its type in no list or not ("resides at Incrocio Liverotti,
/// 98, Monastier").
fn residence_before(before: &str) -> bool {
    const VERBS: [&str; 8] = [
        "resides",
        "residing",
        "lives",
        "living",
        "domiciled",
        "resident",
        "reside",
        "live",
    ];
    let mut words = before
        .trim_end_matches([' ', '\t'])
        .rsplit([' ', '\t', '\n'])
        .map(str::to_lowercase);
    words.next().as_deref() == Some("at")
        && words.next().is_some_and(|w| VERBS.contains(&w.as_str()))
}

/// `rest` opens with a unit type and its number (" Piano 8", " Apt. 4B").
fn unit_follows(rest: &str) -> bool {
    let rest = rest.trim_start_matches([' ', '\u{A0}']);
    let word: String = rest.chars().take_while(|c| c.is_alphabetic()).collect();
    let after = rest[word.len()..].trim_start_matches(['.', ' ', '\u{A0}', '#']);
    word.chars().count() >= 2
        && is_unit_type(&fold_word(&word))
        && after.starts_with(|c: char| c.is_ascii_digit())
}

/// `before` ends with a preposition of place: "lives at", "stuck on", "garaged in".
/// A comma and a postcode of four or five digits ending the phrase (", 66276").
fn postcode_after_comma(rest: &str) -> bool {
    let Some(r) = rest.strip_prefix(", ") else {
        return false;
    };
    let digits = r.bytes().take_while(u8::is_ascii_digit).count();
    (4..=5).contains(&digits) && !r[digits..].starts_with(|c: char| c.is_alphanumeric())
}

fn place_preposition_before(before: &str) -> bool {
    const PREPOSITIONS: [&str; 8] = ["at", "on", "in", "near", "off", "from", "to", "into"];
    let last = before.rsplit([' ', '\t', '\n']).next().unwrap_or("");
    PREPOSITIONS.contains(&last.to_lowercase().as_str())
}

/// `Hauptstraße 12`, `Storgatan 3`, `Nørregade 5`, `Boweg 3`: one word that ends in a street
/// type after two letters or more, then the house number, which ends the street.
fn compound_street(text: &str, c: &Captures<'_>) -> Option<(usize, usize)> {
    let (m, w, num) = (c.get(0)?, c.name("w")?, c.name("num")?);
    if prev_char(text, m.start()).is_some_and(char::is_alphanumeric)
        || !ends_street(text, num.start(), num.end())
    {
        return None;
    }
    let word = fold_word(w.as_str());
    // An English word ("Broadway", "Gateway", "Highway") is not read as a compound.
    if word_zipf(&word) >= 3.0 {
        return None;
    }
    let chars: Vec<(usize, char)> = word.char_indices().collect();
    let n = chars.len();
    let compound = (3..=n.saturating_sub(2)).any(|k| {
        let suffix = &word[chars[n - k].0..];
        is_any_street_type(suffix)
    });
    compound.then_some((m.start(), num.end()))
}

/// The house number `start..end` ends a street: a comma, a semicolon, a bracket, a
/// line's end or the text's end follows, or a postcode or a unit.
fn ends_street(text: &str, start: usize, end: usize) -> bool {
    if !token_bounded(text, start, end) {
        return false;
    }
    let rest = text[end..].trim_start_matches([' ', '\u{A0}', '\t']);
    // The word that follows, if one does.
    let word: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
    match rest.chars().next() {
        None | Some(',' | ';' | ')' | '\n' | '\r' | '|') => true,
        Some('.') => rest[1..].chars().next().is_none_or(|ch| ch.is_whitespace()),
        Some(ch) if ch.is_ascii_digit() || ch.is_ascii_uppercase() => {
            word.chars().any(|c| c.is_ascii_digit()) || is_unit_type(&fold_word(&word))
        }
        // "ul. Długa 5 m. 3", "Via Roma 4 int. 2": a unit type in lower case and its
        // number.
        Some(ch) if ch.is_lowercase() => {
            // "the roof at Vicolo Ivan, 56 had been covered": the sentence goes on.
            const GOES_ON: [&str; 16] = [
                "had", "has", "have", "was", "were", "is", "are", "and", "since", "until", "where",
                "which", "for", "from", "after", "when",
            ];
            let after = rest[word.len()..].trim_start_matches(['.', ' ', '\u{A0}']);
            is_unit_type(&fold_word(&word)) && after.starts_with(|c: char| c.is_ascii_digit())
                || GOES_ON.contains(&word.as_str())
        }
        Some(_) => false,
    }
}

#[cfg(test)]
mod tests;
