//! Address and place recognizers: street addresses and post-office boxes, place-shaped
//! names (`Willow Creek`, `Port Calder`), and a capitalised word after a place
//! preposition (`lives in Millbrook`).

use std::sync::LazyLock;

use regex::Regex;

use super::names::name_stop;
use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{SP, in_list, prev_char, token_bounded};

const ADDRESS: RelevanceRow = RelevanceRow {
    matches: "house number + street + suffix, or `P.O. Box n`, with a part after a comma (`, City[, ST 12345]`, `, Apt 4`)",
    entity_type: "ADDRESS",
    relevance: Relevance::Fixed(1.0),
};
const ADDRESS_ALONE: RelevanceRow = RelevanceRow {
    matches: "the same without a comma (no city)",
    entity_type: "ADDRESS",
    relevance: Relevance::Fixed(0.95),
};
const PLACE_SHAPE: RelevanceRow = RelevanceRow {
    matches: "place-shaped names (`Willow Creek`, `Port Calder`)",
    entity_type: "LOCATION",
    relevance: Relevance::Fixed(0.6),
};
const PLACE_GUESS: RelevanceRow = RelevanceRow {
    matches: "a single capitalised word after `in` / `from` / `near` / `lives in` ...",
    entity_type: "LOCATION",
    relevance: Relevance::Fixed(0.5),
};

struct Patterns {
    address: Regex,
    place_shape: Regex,
    place_prep: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    let street_full = r"Street|Avenue|Road|Lane|Drive|Boulevard|Court|Way|Place|Terrace|Row|Parkway|Highway|Circle|Square|Trail|Crescent|Close|Alley|Plaza|Pike|Loop|Mews";
    let street_abbr = r"St|Ave|Rd|Ln|Dr|Blvd|Ct|Pl|Pkwy|Hwy|Cir|Sq|Ter|Trl|Cres";
    let address = Regex::new(&format!(
        r"(?:(?-u:\b)\d{{1,6}}[A-Za-z]?{SP}(?:(?:[NSEW]\.?|North|South|East|West|N[EW]|S[EW]){SP})?(?:(?:\p{{Lu}}[\p{{L}}'’-]*|\d+(?:st|nd|rd|th)){SP}){{1,4}}(?:(?:{street_full})(?-u:\b)|(?:{street_abbr})(?-u:\b)\.?)|(?-u:\b)(?i:P\.?{SP}?O\.?{SP}?Box){SP}\d+)(?:,?{SP}(?:Apt|Apartment|Suite|Ste|Unit|Fl|Floor|#)\.?{SP}?[A-Za-z0-9-]+)?(?:,{SP}\p{{Lu}}[\p{{L}}'’.-]*(?:{SP}\p{{Lu}}[\p{{L}}'’.-]*){{0,2}}(?:,?{SP}[A-Z]{{2}}(?:{SP}\d{{5}}(?:-\d{{4}})?)?)?)?"
    ))?;
    let place_shape = Regex::new(&format!(
        r"(?:(?:Port|Fort|Mount|Mt\.|Lake|Saint|San|Santa){SP}\p{{Lu}}\p{{Ll}}+|\p{{Lu}}\p{{Ll}}+{SP}(?:Falls|Creek|Heights|Mills|Bluffs?|Springs|Valley|Hills|Harbou?r|Bay|Beach|Ridge|Grove|Point|Landing|Junction|Crossing|City|Village|Township|Rapids|Woods|Meadows|Glen|Hollow|Prairie|Shores?|Cove|Forks|Flats|Corners|Park))(?-u:\b)"
    ))?;
    let place_prep = Regex::new(&format!(
        r"(?-u:\b)(?:lives in|living in|live in|based in|resident of|moved to|from|near|out past|outside|in){SP}(?P<place>\p{{Lu}}\p{{Ll}}+)(?-u:\b)"
    ))?;
    Ok(Patterns {
        address,
        place_shape,
        place_prep,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// Words that never start a guessed place ("from Primary Care"; month and weekday
/// names, "in March", are checked beside it).
const PLACE_STOP: &[&str] = &[
    "section",
    "policy",
    "person",
    "english",
    "spanish",
    "french",
    "german",
    "tier",
    "week",
    "month",
    "year",
    "member",
    "members",
    "services",
    "care",
    "online",
    "banking",
    "enhanced",
    "review",
    "writing",
    "order",
    "progress",
    "total",
    "general",
    "network",
    "accessibility",
    "benefits",
    "plan",
    "program",
    "phase",
    "part",
    "form",
    "appendix",
    "table",
    "figure",
    "chapter",
    "step",
    "stage",
    "room",
    "unit",
    "ward",
    "office",
    "department",
    "team",
    "committee",
    "public",
    "dashboards",
    "medicine",
    "prescriber",
    "communications",
    "primary",
    "emergency",
    "internet",
    "home",
    "health",
    "fiber",
    "mobile",
    "support",
    "customer",
    "business",
    "regulation",
    "rule",
    "tech",
    "field",
    "school",
    "sports",
    "hall",
    "hospital",
    "clinic",
    "the",
    "this",
    "that",
    "a",
    "an",
    "our",
    "your",
    "my",
    "his",
    "her",
    "their",
    "its",
    "all",
    "each",
    "good",
    "full",
    "time",
    "spring",
    "summer",
    "autumn",
    "fall",
    "winter",
    "christmas",
    "easter",
    "person",
    "compliance",
    "principle",
    "theory",
    "practice",
    "addition",
    "total",
    "particular",
    "general",
    "fact",
    "response",
    "writing",
    "advance",
    "error",
    "summary",
    "transit",
    "prior",
    "patient",
    "patients",
    "claims",
    "claim",
    "appendix",
    "exhibit",
    "schedule",
    "annex",
    "attachment",
    "item",
    "stock",
    "mind",
    "case",
    "cases",
    "cash",
    "kind",
    "room",
    "ward",
    "floor",
    "building",
    "suite",
    "page",
    "items",
    "version",
];

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
        &[ADDRESS, ADDRESS_ALONE]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let text = ctx.text;
        for m in self.patterns.address.find_iter(text) {
            let (start, mut end) = (m.start(), m.end());
            let digits = leading_digits(m.as_str());
            if digits > 0 && !token_bounded(text, start, start + digits) {
                continue;
            }
            // A trailing sentence period after a city is not part of the address.
            let s = &text[start..end];
            // (Street abbreviations such as "Ln." and "Blvd." keep theirs.)
            if s.ends_with('.') {
                let last_word = s.rsplit([' ', ',']).next().unwrap_or("");
                if last_word.chars().count() > 5 {
                    end -= 1;
                }
            }
            let row = if text[start..end].contains(',') {
                &ADDRESS
            } else {
                &ADDRESS_ALONE
            };
            ctx.push(cands, (start, end), row, Tier::Address);
        }
    }
}

/// Place-shaped names, and single capitalised words after a place preposition.
pub(super) struct Places {
    patterns: &'static Patterns,
}

impl Places {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Places {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Places {
    fn name(&self) -> &'static str {
        "place"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[PLACE_SHAPE, PLACE_GUESS]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let (text, p) = (ctx.text, self.patterns);
        for m in p.place_shape.find_iter(text) {
            if prev_char(text, m.start()).is_some_and(char::is_alphanumeric) {
                continue;
            }
            let first = m.as_str().split([' ', '\u{A0}']).next().unwrap_or("");
            if in_list(PLACE_STOP, first) || crate::entity::normalize::is_calendar_word(first) {
                continue;
            }
            ctx.push(cands, (m.start(), m.end()), &PLACE_SHAPE, Tier::Gazetteer);
        }
        for c in p.place_prep.captures_iter(text) {
            let Some(place) = c.name("place") else {
                continue;
            };
            if in_list(PLACE_STOP, place.as_str()) || name_stop(place.as_str()) {
                continue;
            }
            // "in Prescriber Communications": a capitalised phrase, not a town.
            let rest = &text[place.end()..];
            let mut rest_chars = rest.chars();
            if rest_chars.next() == Some(' ') && rest_chars.next().is_some_and(char::is_uppercase) {
                continue;
            }
            ctx.push(
                cands,
                (place.start(), place.end()),
                &PLACE_GUESS,
                Tier::PlaceGuess,
            );
        }
    }
}

fn leading_digits(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

#[cfg(test)]
mod tests {
    use super::super::tests::{find, has, run};

    #[test]
    fn addresses() {
        let items = run(
            "Mailing Address: 1187 Larkspur Lane, Fenwick Falls, OR 97321\n\
             Confirmed his mailing address (2260 West Alder St., Millbrook).",
        );
        let a = find(
            &items,
            "ADDRESS",
            "1187 Larkspur Lane, Fenwick Falls, OR 97321",
        )
        .unwrap_or_else(|| panic!("{items:?}"));
        assert_eq!(a.normalized, "1187 larkspur lane, fenwick falls, or 97321");
        assert!(
            has(&items, "ADDRESS", "2260 West Alder St., Millbrook"),
            "{items:?}"
        );
    }

    #[test]
    fn more_phone_and_address_forms() {
        let items = run(
            "Call 1-800-555-0199 or reach her on 07700 900123. Write to P.O. Box 4410, \
             Asheville, NC 28802.",
        );
        assert!(has(&items, "PHONE_NUMBER", "1-800-555-0199"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "07700 900123"));
        assert!(has(&items, "ADDRESS", "P.O. Box 4410, Asheville, NC 28802"));
    }

    #[test]
    fn places() {
        let items =
            run("A retired pilot from Port Calder, now near Willow Creek; market in Millbrook.");
        assert!(has(&items, "LOCATION", "Port Calder"), "{items:?}");
        assert!(has(&items, "LOCATION", "Willow Creek"));
        assert!(has(&items, "LOCATION", "Millbrook"));
    }
}
