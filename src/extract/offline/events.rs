//! The event recognizer: named events (`Lakeshore Triathlon`), accidents (`fall from a
//! picking ladder`) and superlatives pinned to a population (`the only such case in the
//! state`), which make a person stand out.

use std::sync::LazyLock;

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::SP;

const EVENT: RelevanceRow = RelevanceRow {
    matches: "a named event (`Lakeshore Triathlon`, `… Marathon`) or an accident (`fall from a ladder`)",
    entity_type: "EVENT",
    relevance: Relevance::Fixed(0.7),
};
const UNIQUE_FACT: RelevanceRow = RelevanceRow {
    matches: "a superlative pinned to a population (`the only such case in the state`)",
    entity_type: "UNIQUE_FACT",
    relevance: Relevance::Fixed(0.8),
};

struct Patterns {
    event_named: Regex,
    event_accident: Regex,
    unique_fact: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    let event_named = Regex::new(&format!(
        r"(?-u:\b)(?:{pw0}{SP}){{1,4}}(?:Half Marathon|Fun Run|Triathlon|Marathon|Festival|Championships?|Tournament|Regatta|Parade|Gala|Expo|Summit|Jamboree|Rodeo|Fair)(?-u:\b)",
        pw0 = r"\p{Lu}[\p{L}'’-]*"
    ))?;
    let event_accident = Regex::new(
        r"(?i)(?-u:\b)(?:(?:fall|fell|fallen)[ \t]+(?:off|from)[ \t]+(?:a|an|the|his|her|their)[ \t]+(?:[a-z-]+[ \t]+){0,2}(?:ladder|roof|horse|bike|bicycle|scaffold(?:ing)?|tree|stairs|staircase|balcony|platform|truck|trailer)|(?:car|motor[ \t]+vehicle|motorcycle|bicycle|boating|skiing|workplace|farm|tractor|forklift)[ \t]+(?:accident|crash|collision)|house[ \t]+fire|dog[ \t]+(?:bite|attack))(?-u:\b)",
    )?;
    // "the only such case in the state registry", "first spontaneous triplets delivered
    // at the hospital in eleven years": a superlative pinned to a population.
    let unique_fact = Regex::new(
        r"(?i)(?-u:\b)(?:only|first|sole|last|youngest|oldest)[ \t][^.;:\n]{3,70}?(?-u:\b)in[ \t](?:the[ \t])?(?:[a-z-]+[ \t]){0,3}?(?:state|county|city|town|region|country|nation|world|registry|district|province|history|(?:[a-z]+[ \t])?years?)(?-u:\b)",
    )?;
    Ok(Patterns {
        event_named,
        event_accident,
        unique_fact,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// Named events, accidents and unique facts.
pub(super) struct Events {
    patterns: &'static Patterns,
}

impl Events {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Events {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Events {
    fn name(&self) -> &'static str {
        "event"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[EVENT, UNIQUE_FACT]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let p = self.patterns;
        for (re, row) in [
            (&p.event_named, &EVENT),
            (&p.event_accident, &EVENT),
            (&p.unique_fact, &UNIQUE_FACT),
        ] {
            for m in re.find_iter(ctx.text) {
                ctx.push(cands, (m.start(), m.end()), row, Tier::Gazetteer);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::ex;

    #[test]
    fn events_and_unique_facts() {
        let e = ex();
        let items = e.extract_text(
            "Injured in a fall from a picking ladder before the Lakeshore Triathlon. She is the only such case in the state rare-disease registry and ran the Harbor City Half Marathon. It was the first spontaneous triplets delivered at the hospital in eleven years. A car accident followed.",
        );
        let of = |t: &str| -> Vec<&str> {
            items
                .iter()
                .filter(|i| i.entity_type == t)
                .map(|i| i.original.as_str())
                .collect()
        };
        let events = of("EVENT");
        for v in [
            "fall from a picking ladder",
            "Lakeshore Triathlon",
            "Harbor City Half Marathon",
            "car accident",
        ] {
            assert!(events.contains(&v), "{v}: {events:?}");
        }
        let facts = of("UNIQUE_FACT");
        assert!(facts.contains(&"only such case in the state"), "{facts:?}");
        assert!(
            facts.contains(&"first spontaneous triplets delivered at the hospital in eleven years"),
            "{facts:?}"
        );
        // Not every "only" is a fact.
        let plain = e.extract_text("Only one visit was approved in March.");
        assert!(
            plain.iter().all(|i| i.entity_type != "UNIQUE_FACT"),
            "{plain:?}"
        );
    }
}
