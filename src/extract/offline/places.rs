//! Place recognizers: place-shaped
//! names (`Willow Creek`, `Port Calder`), and a capitalised word after a place
//! preposition (`lives in Millbrook`).

use std::sync::LazyLock;

use regex::Regex;

use super::names::name_stop;
use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{SP, in_list, prev_char};

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
    place_shape: Regex,
    place_prep: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    let place_shape = Regex::new(&format!(
        r"(?:(?:Port|Fort|Mount|Mt\.|Lake|Saint|San|Santa){SP}\p{{Lu}}\p{{Ll}}+|\p{{Lu}}\p{{Ll}}+{SP}(?:Falls|Creek|Heights|Mills|Bluffs?|Springs|Valley|Hills|Harbou?r|Bay|Beach|Ridge|Grove|Point|Landing|Junction|Crossing|City|Village|Township|Rapids|Woods|Meadows|Glen|Hollow|Prairie|Shores?|Cove|Forks|Flats|Corners|Park))(?-u:\b)"
    ))?;
    let place_prep = Regex::new(&format!(
        r"(?-u:\b)(?:lives in|living in|live in|based in|resident of|moved to|from|near|out past|outside|in){SP}(?P<place>\p{{Lu}}\p{{Ll}}+)(?-u:\b)"
    ))?;
    Ok(Patterns {
        place_shape,
        place_prep,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

use crate::entity::normalize::is_calendar_word;

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
            if in_list(PLACE_STOP, first) || is_calendar_word(&first.to_lowercase()) {
                continue;
            }
            ctx.push(cands, (m.start(), m.end()), &PLACE_SHAPE, Tier::Gazetteer);
        }
        for c in p.place_prep.captures_iter(text) {
            let Some(place) = c.name("place") else {
                continue;
            };
            if in_list(PLACE_STOP, place.as_str())
                || name_stop(place.as_str())
                || is_calendar_word(&place.as_str().to_lowercase())
            {
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

#[cfg(test)]
mod tests {
    use super::super::tests::{has, run};

    #[test]
    fn places() {
        let items =
            run("A retired pilot from Port Calder, now near Willow Creek; market in Millbrook.");
        assert!(has(&items, "LOCATION", "Port Calder"), "{items:?}");
        assert!(has(&items, "LOCATION", "Willow Creek"));
        assert!(has(&items, "LOCATION", "Millbrook"));
    }

    /// "in October", "from Monday": a date, not a place (a shared month made a false
    /// link between documents).
    #[test]
    fn months_and_weekdays_are_no_places() {
        let items = run("The leak started in October. Closed from Monday to Friday.");
        assert!(
            items.iter().all(|i| i.entity_type != "LOCATION"),
            "{items:?}"
        );
    }
}
