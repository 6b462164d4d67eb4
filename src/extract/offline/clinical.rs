//! The clinical-phrase recognizer: conditions and treatments the gazetteers do not
//! list, found by their head word (`degenerative disc disease`, `aquatic therapy`) or a
//! clinical suffix (`thyroiditis`, `arthroplasty`, `adalimumab`).

use std::sync::LazyLock;

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{SP, fold_term, prev_char};

const CONDITION_PHRASE: RelevanceRow = RelevanceRow {
    matches: "clinical noun phrase by its head (`degenerative disc disease`, `… syndrome`, `… fracture`) or suffix (`thyroiditis`)",
    entity_type: "MEDICAL_CONDITION",
    relevance: Relevance::Fixed(0.85),
};
const TREATMENT_PHRASE: RelevanceRow = RelevanceRow {
    matches: "clinical noun phrase by its head (`aquatic therapy`, `nerve blocks`, `… repair`) or suffix (`arthroplasty`, `adalimumab`)",
    entity_type: "TREATMENT",
    relevance: Relevance::Fixed(0.9),
};
const COMMON_TREATMENT_PHRASE: RelevanceRow = RelevanceRow {
    matches: "the same by its head, every other word a common English word (Zipf ≥ 4.5: `physical therapy`, `group therapy`): many patients get it",
    entity_type: "TREATMENT",
    relevance: Relevance::Fixed(0.7),
};

/// Zipf frequency from which a modifier is a common English word.
const COMMON_WORD_ZIPF: f32 = 4.5;

/// Head words of condition phrases ("… disease", "… fracture").
const CONDITION_HEADS: &str = "disease|disorder|syndrome|fracture|dementia|cancer|carcinoma|lymphoma|leukemia|leukaemia|melanoma|sarcoma|tumou?r|failure|injury|deficiency|insufficiency|dystrophy|stenosis|sclerosis|infection|palsy|neuropathy|myopathy|embolism|thrombosis|aneurysm|hernia|ulcer|nerve[ \\x{A0}]damage|lesion|degeneration|impairment";
/// Suffixes that make one word a condition ("thyroiditis", "lymphoma").
const CONDITION_SUFFIXES: &str = "itis|osis|emia|aemia|oma|pathy|plegia|algia|trophy";
/// Head words of treatment phrases ("aquatic therapy", "nerve blocks").
const TREATMENT_HEADS: &str = "therapy|surgery|repair|ablation|grafting|graft|transplant|transplantation|replacement|blocks?|injections?|infusions?|rehabilitation|reconstruction|implant|implantation|bypass|resection|fixation|fusion|dialysis|stimulation|retraining|immunotherapy|chemotherapy|radiotherapy";
/// Suffixes of procedures and drug stems ("arthroplasty", "adalimumab").
const TREATMENT_SUFFIXES: &str = "ectomy|otomy|ostomy|plasty|scopy|mab|tinib|prazole|sartan|statin|olol|cillin|mycin|floxacin|parin|gliptin|triptan|zepam|oxetine";

struct Patterns {
    condition_phrase: Regex,
    treatment_phrase: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    // Clinical noun phrases by their head word ("lumbar degenerative disc disease",
    // "aquatic therapy"), or single words by a clinical suffix ("thyroiditis",
    // "arthroplasty", "adalimumab"); leading function words are trimmed later.
    // Words joined by any dash ("Erdheim–Chester") are one modifier.
    let modifier = r"[\p{L}][\p{L}'’\p{Pd}]*";
    let condition_phrase = Regex::new(&format!(
        r"(?:{modifier}{SP}+){{0,3}}(?:(?i:{CONDITION_HEADS})|\p{{Ll}}[\p{{L}}-]{{2,}}(?:{CONDITION_SUFFIXES}))(?-u:\b)"
    ))?;
    let treatment_phrase = Regex::new(&format!(
        r"(?:{modifier}{SP}+){{0,3}}(?:(?i:{TREATMENT_HEADS})|\p{{Ll}}[\p{{L}}-]{{2,}}(?:{TREATMENT_SUFFIXES}))(?-u:\b)"
    ))?;
    Ok(Patterns {
        condition_phrase,
        treatment_phrase,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// Conditions and treatments the gazetteers do not list, by their head word or a
/// clinical suffix. Leading function words, generic adjectives and verb forms are
/// trimmed ("diagnosed with early-onset Lewy body dementia" → "early-onset Lewy
/// body dementia"); a head word alone ("the disease") is no entity, and a phrase the
/// gazetteers list is left to them.
pub(super) struct ClinicalPhrases {
    patterns: &'static Patterns,
}

impl ClinicalPhrases {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(ClinicalPhrases {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for ClinicalPhrases {
    fn name(&self) -> &'static str {
        "clinical_phrase"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[CONDITION_PHRASE, TREATMENT_PHRASE, COMMON_TREATMENT_PHRASE]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let (text, p) = (ctx.text, self.patterns);
        for (re, row, suffixes) in [
            (&p.condition_phrase, &CONDITION_PHRASE, CONDITION_SUFFIXES),
            (&p.treatment_phrase, &TREATMENT_PHRASE, TREATMENT_SUFFIXES),
        ] {
            for m in re.find_iter(text) {
                if prev_char(text, m.start()).is_some_and(char::is_alphanumeric) {
                    continue;
                }
                let mut start = m.start();
                let phrase = m.as_str();
                let words: Vec<&str> = phrase
                    .split([' ', '\u{a0}'])
                    .filter(|w| !w.is_empty())
                    .collect();
                // The phrase starts after its last function word, verb form,
                // possessive or brand ("utilization of physical therapy", "Maplewood's
                // aquatic therapy", "wait for pulsed ablation", "the LuxCare vision
                // therapy" → the clinical part only).
                let cut = words[..words.len().saturating_sub(1)]
                    .iter()
                    .rposition(|w| {
                        generic_modifier(w)
                            || w.ends_with("'s")
                            || w.ends_with("’s")
                            || super::is_brand(w)
                    })
                    .map_or(0, |i| i + 1);
                let mut kept = words.len();
                for w in &words[..cut] {
                    kept -= 1;
                    start += text[start..].find(w).map_or(0, |i| i + w.len());
                    start += text[start..].len() - text[start..].trim_start().len();
                }
                let last = words.last().map(|w| w.to_lowercase()).unwrap_or_default();
                if NOT_CLINICAL.contains(&last.as_str()) {
                    continue;
                }
                // A head word needs a modifier; a suffix word stands alone.
                let by_suffix =
                    last.chars().count() >= 6 && suffixes.split('|').any(|x| last.ends_with(x));
                if kept == 0 || (kept < 2 && !by_suffix) {
                    continue;
                }
                // A listed term keeps its list's relevance ("physical therapy"), and a
                // listed term after modifiers is that term ("refractory mantle cell
                // lymphoma" is the "mantle cell lymphoma" other documents name).
                let listed_tail = |g: &super::gazetteer::Gazetteer| {
                    let phrase = fold_term(&text[start..m.end()]);
                    let mut tail = phrase.as_str();
                    loop {
                        // The whole phrase, or a tail of two words or more (one
                        // listed word, "lymphoma", is less than the phrase says).
                        if (tail.len() == phrase.len() || tail.contains(' ')) && g.lists(tail) {
                            return true;
                        }
                        match tail.split_once(' ') {
                            Some((_, rest)) => tail = rest,
                            None => return false,
                        }
                    }
                };
                if ctx.gazetteer.is_some_and(listed_tail) {
                    continue;
                }
                // "physical therapy", "group therapy": common words before a head word
                // name what many patients get.
                let common = !by_suffix
                    && row.entity_type == TREATMENT_PHRASE.entity_type
                    && words[words.len() - kept..words.len() - 1]
                        .iter()
                        .all(|w| super::person::word_zipf(&w.to_lowercase()) >= COMMON_WORD_ZIPF);
                let row = if common {
                    &COMMON_TREATMENT_PHRASE
                } else {
                    row
                };
                ctx.push(cands, (start, m.end()), row, Tier::Gazetteer);
            }
        }
    }
}

/// Ordinary words with a clinical suffix.
const NOT_CLINICAL: &[&str] = &[
    "diagnosis",
    "prognosis",
    "academia",
    "sympathy",
    "empathy",
    "telepathy",
    "diploma",
    "aroma",
    "nostalgia",
    "dichotomy",
    "hypnosis",
    "osmosis",
    "symbiosis",
    "apotheosis",
    "metamorphosis",
    "neurosis",
    "microscopy",
    "philanthropy",
    "stroma",
    "genoma",
];

/// Words that start no clinical phrase: function words, determiners, generic
/// adjectives and verb forms ("with", "his", "rare", "novel", "requiring", "treated").
pub(super) fn generic_modifier(word: &str) -> bool {
    const GENERIC: &str = "a an the and or of in on at to for from by with without after \
        before during since as is are was were be been has have had his her their its our \
        my your this that these those any all some no not new rare novel unusual \
        specialized specialised several other previous prior current recent such more most \
        many multiple various certain specific additional related standard further possible \
        suspected known severe mild moderate both also patient patients covered experimental \
        outpatient inpatient which who whose than via per into under over between among \
        while then including includes included include when where whether because though \
        although within wait shows show showed underwent undergo undergoes receive receives \
        received require requires required start starts began begin begins needs need \
        completed completes prescribed scheduled denied approved recommended reported noted \
        indicates reveals suggests analysis utilization use uses using like due post pre \
        cost costs coverage claims claim billing authorization approval documentation \
        outcomes one two three four five six seven eight nine ten eleven twelve first \
        second third fourth fifth sixth single double triple";
    static WORDS: std::sync::LazyLock<rustc_hash::FxHashSet<&'static str>> =
        std::sync::LazyLock::new(|| GENERIC.split_whitespace().collect());
    let lower = word.to_lowercase();
    let lower = lower.trim_end_matches(['\'', '’']);
    WORDS.contains(lower)
        || (lower.len() > 4
            && (lower.ends_with("ing") || lower.ends_with("ed"))
            && lower.split('-').next().is_none_or(|first| first.len() >= 3))
        || lower.chars().all(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::super::tests::{has, run};

    #[test]
    fn a_name_joined_by_a_dash_stays_whole() {
        let items = run("Diagnosis: Erdheim–Chester disease, biopsy-confirmed Morvan syndrome.");
        assert!(
            has(&items, "MEDICAL_CONDITION", "Erdheim–Chester disease"),
            "{items:?}"
        );
        assert!(has(&items, "MEDICAL_CONDITION", "Morvan syndrome"));
    }

    #[test]
    fn numbers_and_brands_are_no_part_of_a_clinical_phrase() {
        let items =
            run("Improvement after three infusion cycles of the NorthGate cognitive therapy.");
        assert!(has(&items, "TREATMENT", "cognitive therapy"), "{items:?}");
        assert!(
            !items.iter().any(|i| i.original.starts_with("three")
                || i.entity_type == "TREATMENT" && i.original.contains("NorthGate")),
            "{items:?}"
        );
    }

    #[test]
    fn clinical_phrases_by_head_word_and_suffix() {
        let items = run(
            "Patients with lumbar degenerative disc disease were diagnosed with \
             autoimmune thyroiditis and received aquatic therapy and monthly nerve blocks. \
             The disease was stable; diagnosis pending; the therapy continues.",
        );
        assert!(
            has(
                &items,
                "MEDICAL_CONDITION",
                "lumbar degenerative disc disease"
            ),
            "{items:?}"
        );
        assert!(
            has(&items, "MEDICAL_CONDITION", "autoimmune thyroiditis"),
            "{items:?}"
        );
        assert!(has(&items, "TREATMENT", "aquatic therapy"), "{items:?}");
        assert!(
            has(&items, "TREATMENT", "monthly nerve blocks"),
            "{items:?}"
        );
        // A head word alone, or an ordinary word with a clinical suffix, is no entity.
        for w in ["disease", "diagnosis", "therapy"] {
            assert!(
                !items.iter().any(|i| i.original.eq_ignore_ascii_case(w)),
                "{w}: {items:?}"
            );
        }
    }
}
