//! Provider recognizers: organisations by their suffix (`… Clinic`, `… Oncology
//! Associates`), and [`Clinicians`], which retypes the names found before it that are
//! written as a clinician's (`Dr. Anton Brevik`, `Therapist: Owen Castellanos`,
//! `Harriet Lindqvist, RN`) as PROVIDER, like the thesis's schema and both labelled
//! sets do.

use std::collections::BTreeSet;
use std::sync::LazyLock;

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{SP, in_list, window_start, word_bounded};

const ORGANISATION: RelevanceRow = RelevanceRow {
    matches: "capitalised words + Clinic / Hospital / Health / Pharmacy / Oncology / Network / Bank / ...",
    entity_type: "PROVIDER",
    relevance: Relevance::Fixed(0.8),
};
const CLINICIAN: RelevanceRow = RelevanceRow {
    matches: "a clinician: a name (above) after `Dr.`, a clinical role (`Therapist:`, `surgeon`) or before credentials (`, RN`, `, MD`); every mention of it, each keeping its relevance",
    entity_type: "PROVIDER",
    relevance: Relevance::Kept,
};

struct Patterns {
    provider: Regex,
    clinician_before: Regex,
    clinician_after: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    let pw = r"\p{Lu}[\p{L}'’-]*";
    let provider = Regex::new(&format!(
        r"(?:(?-u:\b)(?:St\.?|Saint|Mt\.?|Mount){SP})?(?:{pw}{SP}(?:(?:&|of|for|the){SP})?){{1,5}}(?:(?:Medical Cent(?:er|re)|Health System|Medical Group|Urgent Care|Physical Therapy|Credit Union|Health Plans?|Health Insurance|Healthcare|Clinic|Hospital|Cent(?:er|re)|Health|Pharmacy|Associates|Practice|Laborator(?:y|ies)|Labs?|Imaging|Therapy|Rehabilitation|Bank|Insurance|Mobile|Wireless|Telecom|Institute|Infirmary|Hospice|Dental|Network|Oncology|Urology|Neurology|Cardiology|Radiology|Orthop(?:a)?edics|Dermatology|Pediatrics|Paediatrics|Gastroenterology|Rheumatology|Nephrology|Psychiatry|Obstetrics|Surgical|Surgery Cent(?:er|re)|Care)(?-u:\b)|Hosp\.)"
    ))?;
    let clinician_before = Regex::new(
        r"(?i)(?-u:\b)(?:dr|doctor|physician|surgeon|therapist|physiotherapist|nurse|clinician|pharmacist|dentist|psychiatrist|psychologist|specialist|practitioner|oncologist|cardiologist|neurologist|radiologist|orthopa?edist|midwife|dietitian|counsel+or|provider|consultant|anaesthetist|anesthesiologist)\.?[ \t]*[:,]?[ \t]*$",
    )?;
    let clinician_after = Regex::new(
        r"^,?[ \t]+(?:MD|M\.D\.|DO|RN|LPN|NP|PA-C|PT|DPT|OT|PharmD|DDS|CNM|FRCS|MBBS)(?-u:\b)",
    )?;
    Ok(Patterns {
        provider,
        clinician_before,
        clinician_after,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// Leading words dropped from a provider phrase ("The Bayshore Clinic").
const PROVIDER_LEAD_STOP: &[&str] = &[
    "the",
    "a",
    "an",
    "our",
    "your",
    "their",
    "his",
    "her",
    "at",
    "in",
    "to",
    "from",
    "copy",
    "dear",
    "re",
    "subject",
    "by",
    "with",
    "and",
    "of",
    "for",
    "via",
    "new",
    "this",
    "that",
    "local",
    "nearest",
    "any",
    "under",
    "per",
    "on",
    "after",
    "before",
    "during",
    "since",
    "until",
    "as",
    "if",
    "when",
    "while",
    "visited",
    "seen",
    "called",
    "contact",
    "contacted",
    "call",
    "please",
    "thank",
    "thanks",
    "see",
    "ask",
    "both",
    "all",
    "every",
    "each",
];

/// Single words that do not make a provider name on their own ("Home Health").
const PROVIDER_GENERIC: &[&str] = &[
    "quality",
    "pastoral",
    "planned",
    "preferred",
    "provider",
    "palliative",
    "managed",
    "critical",
    "intensive",
    "acute",
    "standard",
    "narrow",
    "tiered",
    "social",
    "family",
    "senior",
    "child",
    "patient",
    "respite",
    "skilled",
    "nursing",
    "comprehensive",
    "integrated",
    "coordinated",
    "continuing",
    "urgent",
    "emergency",
    "home",
    "current",
    "primary",
    "physical",
    "mental",
    "public",
    "community",
    "member",
    "customer",
    "monitoring",
    "processing",
    "specialty",
    "postnatal",
    "prenatal",
    "walk-in",
    "outpatient",
    "inpatient",
    "behavioral",
    "behavioural",
    "occupational",
    "speech",
    "hand",
    "manual",
    "sleep",
    "health",
    "medical",
    "call",
    "service",
    "services",
    "support",
    "data",
    "research",
    "cancer",
    "heart",
    "eye",
    "dental",
    "animal",
    "local",
    "regional",
    "national",
    "online",
    "internet",
    "digital",
    "retail",
    "mail-order",
    "specialist",
    "general",
    "family",
    "urgent",
    "emergency",
    "your",
    "our",
    "the",
    "private",
    "state",
    "county",
    "city",
    "federal",
    "children's",
    "women's",
    "men's",
    "veterans",
    "university",
    "main",
    "central",
];

/// Organisations that provide care, insurance, banking or telephony.
pub(super) struct Providers {
    patterns: &'static Patterns,
}

impl Providers {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Providers {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Providers {
    fn name(&self) -> &'static str {
        "provider"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[ORGANISATION]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let text = ctx.text;
        for m in self.patterns.provider.find_iter(text) {
            let mut start = m.start();
            let end = m.end();
            // Drop leading stop words while at least two words remain.
            loop {
                let s = &text[start..end];
                let words: Vec<&str> = s.split([' ', '\u{A0}']).collect();
                if words.len() > 2 && in_list(PROVIDER_LEAD_STOP, words[0]) {
                    start += words[0].len() + 1;
                    // keep char boundary: the separator may be a 2-byte no-break space
                    while !text.is_char_boundary(start) {
                        start += 1;
                    }
                } else {
                    break;
                }
            }
            let s = &text[start..end];
            let words: Vec<&str> = s.split([' ', '\u{A0}']).filter(|w| !w.is_empty()).collect();
            let name_words: Vec<&str> = words
                .iter()
                .copied()
                .filter(|w| !matches!(*w, "&" | "and" | "of" | "for" | "the"))
                .collect();
            if name_words.len() < 2 {
                continue;
            }
            let saint = matches!(name_words[0], "St." | "St" | "Saint");
            if name_words.len() == 2 && !saint && in_list(PROVIDER_GENERIC, name_words[0]) {
                continue;
            }
            if !word_bounded(text, start, end) && !s.ends_with('.') {
                continue;
            }
            ctx.push(cands, (start, end), &ORGANISATION, Tier::Provider);
        }
    }
}

/// Clinicians are providers (thesis schema and both labelled sets): a name of the
/// recognizers before this one (every candidate typed NAME) written as a clinician's
/// makes every candidate with its normalized value PROVIDER.
pub(super) struct Clinicians {
    patterns: &'static Patterns,
}

impl Clinicians {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Clinicians {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Clinicians {
    fn name(&self) -> &'static str {
        "clinician"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[CLINICIAN]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        // "Dr. Anton Brevik", "Therapist: Owen Castellanos", "Harriet Lindqvist, RN".
        // Every mention of such a name in the document follows.
        // A title before a surname alone that stands for a full name written in the
        // document without one ("Dear Dr Ojo, … your patient Ada Ojo") makes no
        // clinician of that person: the patient stays a name, and the doctor's
        // mention with it.
        // Each name mention once: (mention, written as a clinician's, written whole).
        let mentions: Vec<(&Candidate, bool, bool)> = cands
            .iter()
            .filter(|c| c.ty == "NAME")
            .map(|c| {
                (
                    c,
                    clinician_context(self.patterns, ctx.text, c.start, c.end),
                    writes_whole_name(&ctx.text[c.start..c.end], &c.normalized),
                )
            })
            .collect();
        let named_plainly: BTreeSet<&str> = mentions
            .iter()
            .filter(|&&(_, clinical, whole)| whole && !clinical)
            .map(|(c, _, _)| c.normalized.as_str())
            .collect();
        let clinicians: BTreeSet<String> = mentions
            .iter()
            .filter(|&&(c, clinical, whole)| {
                clinical && (whole || !named_plainly.contains(c.normalized.as_str()))
            })
            .map(|(c, _, _)| c.normalized.clone())
            .collect();
        for c in cands.iter_mut().filter(|c| c.ty == "NAME") {
            if clinicians.contains(&c.normalized) {
                c.ty = CLINICIAN.entity_type;
            }
        }
    }
}

/// The mention `written` holds the first and the last word of the name `normalized`
/// (not a surname alone standing for it).
fn writes_whole_name(written: &str, normalized: &str) -> bool {
    let written = written.to_lowercase();
    let mut words = normalized.split(' ');
    let first = words.next().unwrap_or("");
    let last = words.next_back().unwrap_or(first);
    written.contains(first) && written.contains(last)
}

/// A name written as a clinician's: a doctor's title, a clinical role right before it
/// (same line), or clinical credentials right after it.
fn clinician_context(p: &Patterns, text: &str, start: usize, end: usize) -> bool {
    let mention = &text[start..end];
    if ["Dr ", "Dr.", "DR ", "DR.", "Doctor ", "Prof"]
        .iter()
        .any(|h| mention.starts_with(h))
    {
        return true;
    }
    let from = window_start(text, start, 40, 0);
    let before = &text[from..start];
    let line = before.rsplit('\n').next().unwrap_or(before);
    let role_before = p
        .clinician_before
        .find(line)
        .is_some_and(|m| !office_role(&line[..m.start()], m.as_str()));
    role_before || p.clinician_after.is_match(&text[end..])
}

/// Role words that are clinical in a clinic and clerical in an office ("Payroll
/// Specialist", "Benefits Consultant", "IT Provider"), and the departments that make
/// them clerical when they come right before.
const AMBIGUOUS_ROLES: &[&str] = &["specialist", "consultant", "provider", "practitioner"];
const OFFICE_DEPARTMENTS: &[&str] = &[
    "payroll",
    "benefits",
    "hr",
    "it",
    "marketing",
    "sales",
    "finance",
    "financial",
    "legal",
    "claims",
    "insurance",
    "tax",
    "mortgage",
    "leasing",
    "recruitment",
    "recruiting",
    "procurement",
    "compliance",
    "accounts",
    "billing",
    "customer",
    "support",
    "technical",
    "security",
    "training",
    "communications",
    "pension",
    "pensions",
    "data",
    "software",
    "network",
    "retail",
    "property",
    "investment",
    "management",
    "business",
    "logistics",
    "admissions",
    "enrollment",
    "enrolment",
];

/// `role` (a match of the clinician cue) is an ambiguous role word after an office
/// department word (`before` is the line before the match).
fn office_role(before: &str, role: &str) -> bool {
    let word = role
        .trim_end_matches(|c: char| !c.is_alphabetic())
        .to_lowercase();
    AMBIGUOUS_ROLES.contains(&word.as_str())
        && before
            .split_whitespace()
            .next_back()
            .is_some_and(|w| OFFICE_DEPARTMENTS.contains(&w.to_lowercase().as_str()))
}

#[cfg(test)]
mod tests {
    use super::super::tests::{find, has, run};

    #[test]
    fn providers() {
        let items = run(
            "Facility: Fenwick Falls Community Hospital. Seen at St. Brennan's Women's Hospital \
             and Bayshore Oncology Associates; billed by Harborline Specialty Pharmacy. \
             Home Health referral placed.",
        );
        for p in [
            "Fenwick Falls Community Hospital",
            "St. Brennan's Women's Hospital",
            "Bayshore Oncology Associates",
            "Harborline Specialty Pharmacy",
        ] {
            let i = find(&items, "PROVIDER", p).unwrap_or_else(|| panic!("{p}: {items:?}"));
            assert!((i.relevance - 0.8).abs() < 1e-9);
        }
        assert!(!has(&items, "PROVIDER", "Home Health"));
        // A plural suffix is read whole.
        let plans = run("Coverage is under policy GP-4471 with Granite Ridge Health Plans.");
        assert!(
            has(&plans, "PROVIDER", "Granite Ridge Health Plans"),
            "{plans:?}"
        );
        let more = run("Seen at Hemisphere Oncology; Quality of Care and Pastoral Care teams.");
        assert!(has(&more, "PROVIDER", "Hemisphere Oncology"), "{more:?}");
        assert!(
            !more.iter().any(|i| i.original.contains("Care")),
            "{more:?}"
        );
    }

    #[test]
    fn clinicians_are_providers() {
        let items = run(
            "Therapist: Owen Castellanos, PT\nVisit by Harriet Lindqvist, RN. \
             The treating surgeon, Dr. Anton Brevik, asked us to call Anton Brevik back. \
             Patient: Priya Raman",
        );
        for n in ["Owen Castellanos", "Harriet Lindqvist", "Dr. Anton Brevik"] {
            assert!(has(&items, "PROVIDER", n), "{n}: {items:?}");
        }
        // The name's other mention follows; the patient stays a NAME.
        assert!(has(&items, "PROVIDER", "Anton Brevik"), "{items:?}");
        assert!(has(&items, "NAME", "Priya Raman"));
    }

    /// An office's specialist or consultant is no clinician; a clinic's is.
    #[test]
    fn office_roles_are_not_clinicians() {
        let items = run(
            "Payroll Specialist Jonas Lindqvist flagged it. Benefits Consultant Maria Keller \
             replied. Referred to specialist Anton Brevik.",
        );
        assert!(has(&items, "NAME", "Jonas Lindqvist"), "{items:?}");
        assert!(has(&items, "NAME", "Maria Keller"), "{items:?}");
        assert!(has(&items, "PROVIDER", "Anton Brevik"), "{items:?}");
    }
}
