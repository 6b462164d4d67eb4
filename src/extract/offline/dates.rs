//! Date and age recognizers: complete dates in numeric and written forms (birth dates
//! by a context word before them), and ages of a person (not ranges or bounds of a
//! population).

use std::sync::LazyLock;

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{token_bounded, window_start};
use crate::entity::normalize::parse_date;

const BIRTHDATE: RelevanceRow = RelevanceRow {
    matches: "complete date after born / DOB / date of birth (≤ 40 chars, same line)",
    entity_type: "BIRTHDATE",
    relevance: Relevance::Fixed(0.95),
};
const EVENT_DATE: RelevanceRow = RelevanceRow {
    matches: "any other complete date (day + month + year)",
    entity_type: "EVENT_DATE",
    relevance: Relevance::Fixed(0.7),
};
const AGE: RelevanceRow = RelevanceRow {
    matches: "`54-year-old`, `aged 54`, `Age: 54`, `54 y/o`, `54 years of age` (span = digits)",
    entity_type: "AGE",
    relevance: Relevance::Fixed(0.8),
};

const AGE_WORDS: RelevanceRow = RelevanceRow {
    matches: "an age in words: `fifty-two years old`, `a forty-year-old`, `aged sixty-one` (span = the words)",
    entity_type: "AGE",
    relevance: Relevance::Fixed(0.8),
};

/// A number from one to a hundred and nineteen in words.
const NUMBER_WORDS: &str = r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|ten|one|two|three|four|five|six|seven|eight|nine|(?:a|one)[ ]hundred(?:[ ]and[ ][a-z]+(?:-[a-z]+)?)?)";

const MONTH: &str = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const WEEKDAY: &str = r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)";

struct Patterns {
    date_numeric: Regex,
    date_words: Regex,
    birth_ctx: Regex,
    ages: Vec<Regex>,
    age_words: Vec<Regex>,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    let date_words = Regex::new(&format!(
        r"(?i)(?-u:\b)(?:{WEEKDAY}\.?,?[ \t\x{{A0}}]+)?(?:\d{{1,2}}(?:st|nd|rd|th)?[ \t\x{{A0}}]+(?:of[ \t\x{{A0}}]+)?{MONTH}\.?,?[ \t\x{{A0}}]+\d{{4}}|{MONTH}\.?[ \t\x{{A0}}]+\d{{1,2}}(?:st|nd|rd|th)?,?[ \t\x{{A0}}]+\d{{4}})(?-u:\b)"
    ))?;
    let ages = vec![
        Regex::new(r"(?i)(?-u:\b)(\d{1,3})[ -](?:years?|yrs?|yo)[ -]old(?-u:\b)")?,
        Regex::new(r"(?i)(?-u:\b)(\d{1,3}) ?(?:y/o|y\.o\.?|yo(?-u:\b))")?,
        Regex::new(r"(?i)(?-u:\b)age(?:d|\s+of)?[ \t]*[:=]?[ \t]*(\d{1,3})(?-u:\b)")?,
        Regex::new(r"(?i)(?-u:\b)(\d{1,3}) +years? +of +age(?-u:\b)")?,
    ];
    Ok(Patterns {
        date_numeric: Regex::new(
            r"(?-u:\b)(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}[/.-]\d{1,2}[/.-]\d{1,2})(?-u:\b)",
        )?,
        date_words,
        birth_ctx: Regex::new(
            r"(?i)(?:(?-u:\b)born(?-u:\b)|(?-u:\b)dob(?-u:\b)|(?-u:\b)d\.o\.b(?-u:\b)|(?-u:\b)date[ \t]+of[ \t]+birth(?-u:\b)|(?-u:\b)birth[ -]?date(?-u:\b)|(?-u:\b)birthday(?-u:\b))",
        )?,
        ages,
        age_words: vec![
            Regex::new(&format!(
                r"(?i)(?-u:\b)(?P<n>{NUMBER_WORDS})[ -]years?[ -]old(?-u:\b)"
            ))?,
            Regex::new(&format!(
                r"(?i)(?-u:\b)aged[ \t]+(?P<n>{NUMBER_WORDS})(?-u:\b)"
            ))?,
        ],
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// Complete dates: birth dates after a birth context word, other dates as events.
pub(super) struct Dates {
    patterns: &'static Patterns,
}

impl Dates {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Dates {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Dates {
    fn name(&self) -> &'static str {
        "date"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[BIRTHDATE, EVENT_DATE]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let (text, p) = (ctx.text, self.patterns);
        let mut found: Vec<(usize, usize)> = Vec::new();
        for m in p.date_numeric.find_iter(text) {
            let s = m.as_str();
            let seps: Vec<char> = s.chars().filter(|c| !c.is_ascii_digit()).collect();
            if seps.windows(2).any(|w| w[0] != w[1]) {
                continue;
            }
            if seps.first() == Some(&'.') && !s.split('.').any(|t| t.len() == 4) {
                continue;
            }
            if token_bounded(text, m.start(), m.end()) {
                found.push((m.start(), m.end()));
            }
        }
        for m in p.date_words.find_iter(text) {
            if token_bounded(text, m.start(), m.end()) {
                found.push((m.start(), m.end()));
            }
        }
        found.sort_unstable();
        let mut prev_end = 0;
        for (start, end) in found {
            let s = &text[start..end];
            if parse_date(s, ctx.date_order).is_none() {
                continue;
            }
            let from = window_start(text, start, 40, prev_end.min(start));
            let birth = p.birth_ctx.is_match(&text[from..start]);
            let row = if birth { &BIRTHDATE } else { &EVENT_DATE };
            ctx.push(cands, (start, end), row, Tier::Date);
            prev_end = prev_end.max(end);
        }
    }
}

/// Ages of one person; the span is the digits.
pub(super) struct Ages {
    patterns: &'static Patterns,
}

impl Ages {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Ages {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Ages {
    fn name(&self) -> &'static str {
        "age"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[AGE, AGE_WORDS]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let (text, p) = (ctx.text, self.patterns);
        for re in &p.age_words {
            for c in re.captures_iter(text) {
                let (Some(whole), Some(n)) = (c.get(0), c.get(1)) else {
                    continue;
                };
                // "aged twelve weeks" is no age of a person.
                if unit_follows(text, whole.end()) {
                    continue;
                }
                ctx.push(cands, (n.start(), n.end()), &AGE_WORDS, Tier::Date);
            }
        }
        for re in &p.ages {
            for c in re.captures_iter(text) {
                let (Some(whole), Some(n)) = (c.get(0), c.get(1)) else {
                    continue;
                };
                if !token_bounded(text, n.start(), n.end()) {
                    continue;
                }
                let value: u32 = match n.as_str().parse() {
                    Ok(v) => v,
                    Err(_) => continue,
                };
                if !(1..=125).contains(&value) {
                    continue;
                }
                // "aged 52 weeks", "aged 52%" are no age of a person.
                if unit_follows(text, whole.end()) {
                    continue;
                }
                // A range or a bound describes a population, not a person: "aged
                // 58-72", "aged 55+", "over age 65", "aged 40 to 55", "aged 50 and over".
                let after = text[n.end()..]
                    .chars()
                    .take(12)
                    .collect::<String>()
                    .to_lowercase();
                let mut after_chars = after.chars();
                let range_after = after.starts_with('+')
                    || (matches!(after_chars.next(), Some('-' | '–' | '—'))
                        && after_chars.next().is_some_and(|c| c.is_ascii_digit()))
                    || [
                        "s ",
                        " to ",
                        " and over",
                        " and older",
                        " and above",
                        " or older",
                        " or over",
                        " and under",
                        " or younger",
                    ]
                    .iter()
                    .any(|t| after.starts_with(t));
                let from = window_start(text, whole.start(), 24, 0);
                let before = text[from..whole.start()].to_lowercase();
                let bound_before = [
                    "over", "under", "above", "below", "least", "than", "between", "from",
                ]
                .iter()
                .any(|w| before.trim_end().ends_with(w));
                if range_after || bound_before || is_range_end(text, n.start()) {
                    continue;
                }
                ctx.push(cands, (n.start(), n.end()), &AGE, Tier::Date);
            }
        }
    }
}

/// The digits at `start` end a range ("45-65"): a digit, then a dash, right before.
fn is_range_end(text: &str, start: usize) -> bool {
    let mut before = text[..start].chars().rev();
    matches!(before.next(), Some('-' | '–' | '—'))
        && before.next().is_some_and(|c| c.is_ascii_digit())
}

/// A unit other than years (or a percent sign) right after `end`: "aged 52 weeks".
fn unit_follows(text: &str, end: usize) -> bool {
    let rest: String = text[end..]
        .trim_start()
        .chars()
        .take(8)
        .flat_map(char::to_lowercase)
        .collect();
    ["week", "month", "day", "hour", "minute", "%"]
        .iter()
        .any(|u| rest.starts_with(u))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{char_slice, find, has, run};

    #[test]
    fn birthdate_needs_context() {
        let items = run("DOB: 03/14/1968\nDate of service 04/02/2024");
        let b = find(&items, "BIRTHDATE", "03/14/1968").expect("birthdate");
        assert_eq!(b.normalized, "1968-03-14");
        assert!((b.relevance - 0.95).abs() < 1e-9);
        let e = find(&items, "EVENT_DATE", "04/02/2024").expect("event date");
        assert_eq!(e.normalized, "2024-04-02");
        assert!((e.relevance - 0.7).abs() < 1e-9);
    }

    #[test]
    fn dates_in_all_common_forms() {
        let text = "Seen 1968-03-14, then March 14, 1968, then Mar. 14, 1968, then \
                    14 March 1968 and on Thursday 6 Feb 2025. Born on 3/14/68.";
        let items = run(text);
        for d in [
            "1968-03-14",
            "March 14, 1968",
            "Mar. 14, 1968",
            "14 March 1968",
        ] {
            let i = find(&items, "EVENT_DATE", d).unwrap_or_else(|| panic!("{d}: {items:?}"));
            assert_eq!(i.normalized, "1968-03-14");
        }
        let t = find(&items, "EVENT_DATE", "Thursday 6 Feb 2025").expect("weekday date");
        assert_eq!(t.normalized, "2025-02-06");
        assert!(has(&items, "BIRTHDATE", "3/14/68"));
    }

    #[test]
    fn month_only_and_invalid_dates_are_not_entities() {
        let items = run("Scores improved by March 2024; paid in Q2 2024; form dated 02/30/2024.");
        assert!(
            items
                .iter()
                .all(|i| i.entity_type != "EVENT_DATE" && i.entity_type != "BIRTHDATE"),
            "{items:?}"
        );
    }

    #[test]
    fn birth_context_does_not_leak_to_next_date_on_the_line() {
        let items = run("DOB: 02/11/1963    Visit: 14 May 2024");
        assert!(has(&items, "BIRTHDATE", "02/11/1963"));
        assert!(has(&items, "EVENT_DATE", "14 May 2024"));
    }

    #[test]
    fn ages_point_at_the_digits() {
        let text = "A 54-year-old man; Age: 61; aged 52; 47 years old; 33 y/o; 70 years of age.";
        let items = run(text);
        for n in ["54", "61", "52", "47", "33", "70"] {
            let i = find(&items, "AGE", n).unwrap_or_else(|| panic!("{n}: {items:?}"));
            assert_eq!(i.normalized, n);
            assert_eq!(char_slice(text, i.spans[0]), n);
        }
        assert!(!run("aged 12 weeks").iter().any(|i| i.entity_type == "AGE"));
    }

    #[test]
    fn ages_in_words() {
        let ages = |t: &str| -> Vec<String> {
            run(t)
                .into_iter()
                .filter(|i| i.entity_type == "AGE")
                .map(|i| i.original)
                .collect()
        };
        assert_eq!(ages("He is fifty-two years old."), ["fifty-two"]);
        assert_eq!(ages("A forty-year-old teacher called."), ["forty"]);
        assert_eq!(ages("Aged sixty one, she retired."), ["sixty one"]);
        // A decade is already a band: left as it is.
        assert!(ages("a man in his late forties").is_empty());
        assert!(ages("aged twelve weeks").is_empty());
        assert!(ages("Forty people attended.").is_empty());
    }
}
