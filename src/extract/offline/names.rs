//! Person-name recognizers. [`NameCues`] finds names by a cue: a field label, an
//! honorific, a role word, clinical credentials, an introduction or a closing, an
//! initial. [`NameEchoes`] then works on the names found so far: a partial name
//! (`Ms. Raman`) takes the one full name of the document it fits, and other occurrences
//! of the full names, or of their first name or surname alone, are names too.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{SP, find_words_few, fold_term, in_list, next_char, prev_char};

mod echo;

pub(super) use echo::echoable;

const LABELLED: RelevanceRow = RelevanceRow {
    matches: "field label (`Patient:`, `Member name:`, `Claimant:`, staff roles ...) + `First [M.] Last`, `Last, First`, `F. Last` or the same in capitals",
    entity_type: "NAME",
    relevance: Relevance::Fixed(1.0),
};
const HONORIFIC: RelevanceRow = RelevanceRow {
    matches: "honorific + capitalised words, particles included (`Dr. Elise Varga`, `Ms. Raman`, `Mme van Dijk`, `Ms Ó Rócháin`); after a personal one (`Mrs`, `Ms`, `Sr.`, `Mme` ...) also an English word (`Mrs Pan`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(1.0),
};
const AFTER_ROLE: RelevanceRow = RelevanceRow {
    matches: "a role word (`patient`, `participant`, `member`, `claimant`, `witness`, `tenant`, `husband`, `counsel`, `family contact` ...) + a full name, maybe after a comma (`patient Rex Marin`, `opposing counsel, Izaaz Zahrun,`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.95),
};
const WITH_CREDENTIALS: RelevanceRow = RelevanceRow {
    matches: "two or three capitalised words + clinical credentials (`Harriet Lindqvist, RN`; then PROVIDER, below)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.95),
};
const INTRODUCED: RelevanceRow = RelevanceRow {
    matches: "`this is` / `my name is` / a closing (`Kind regards,`) + two or three capitalised words",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.95),
};
const MAIDEN: RelevanceRow = RelevanceRow {
    matches: "`née`, `nee`, `geb.` or `geborene` + a surname or a full name, particles included (`(née Balogun)`, `née de Hóir`, `geb. Strand`): any capitalised word, English word or place",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.95),
};
const CASE_PARTY: RelevanceRow = RelevanceRow {
    matches: "a party of a case cited by name: the words after `v`, `v.` or `vs` and before the year in brackets (`Smith v Van Bragt [2021] EWHC 1432`, `Roe v. Wade (1973)`), or before or after ` v ` up to a dash in a `RE:` line (`RE: SMITH v LIE - directions`); English words and particles included",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.9),
};
const WORD_SURNAME: RelevanceRow = RelevanceRow {
    matches: "a given name of the vocabularies and a surname that is also an English word written with a capital inside the sentence (`Ming He wrote`, `Yan Ma reports`: a pronoun or a word there is written in lower case)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.85),
};
const INITIAL: RelevanceRow = RelevanceRow {
    matches: "initial + surname (`M. Quintero-Hale`)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.85),
};
const ECHO: RelevanceRow = RelevanceRow {
    matches: "another occurrence in the document of a full name found above",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.95),
};
const GUESS_ECHO: RelevanceRow = RelevanceRow {
    matches: "another occurrence of a name found by its shape alone (`name_vocab`'s words in no vocabulary), or its first name or surname alone: ranked with that name, below gazetteer terms",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.7),
};
const PARTIAL_ECHO: RelevanceRow = RelevanceRow {
    matches: "the first name or surname alone, when it belongs to one full name of the document (or the surname to one name written with initials, `M. Turunen`, when no full name has it)",
    entity_type: "NAME",
    relevance: Relevance::Fixed(0.8),
};

/// A capitalised name word: `Raman`, `Quintero-Hale`, `O'Brien`, `McDonald`, `Müller`.
const NW: &str =
    r"\p{Lu}(?:\p{Ll}|['’]\p{Lu})[\p{L}'’]*(?:-\p{Lu}(?:\p{Ll}|['’]\p{Lu})[\p{L}'’]*)?";
const INIT: &str = r"\p{Lu}\.";
/// A name word in capitals, as forms write them: `MILLER`, `QUINTERO-HALE`, `O'NEIL`.
const CW: &str = r"\p{Lu}{2,}(?:['’-]\p{Lu}{2,})?";
/// Honorifics, English and of the languages clam's documents come in ("Sra. Ruiz",
/// "Mme Bachinger", "Herr Gumprich", "Mevr. de Vries", "Pani Nowak").
const HON: &str = r"(?:Mrs|Mr|Ms|Miss|Mx|Dr|Prof|MRS|MR|MS|DR|PROF|Sr|Sra|Srta|Mme|Mlle|Herr|Frau|Hr|Dott|Dña|Doña|Mevr|Dhr|Pani|Sig|Sigra)";

struct Patterns {
    name_label: Regex,
    name_honorific: Regex,
    name_role: Regex,
    name_credential: Regex,
    name_intro: Regex,
    name_initial: Regex,
    name_maiden: Regex,
    name_case: Regex,
    name_case_title: Regex,
    name_case_title_first: Regex,
    name_word_surname: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    let labels = r"name|full[ \t]+name|patient(?:[ \t]+name)?|member(?:[ \t]+name)?|claimant|insured(?:[ \t]+name)?|policy[ \t]?holder|subscriber|caller|customer(?:[ \t]+name)?|client(?:[ \t]+name)?|borrower|co-borrower|applicant|account[ \t]+holder|respondent|beneficiary|employee|guarantor|tenant|student|pupil|parent|guardian|spouse|emergency[ \t]+contact|prepared[ \t]+by|reported[ \t]+by|logged[ \t]+by|signed[ \t]+by|submitted[ \t]+by|reviewed[ \t]+by|approved[ \t]+by|completed[ \t]+by|attn|attention|from|to|cc|analyst|auditor|lead[ \t]+auditor|audit[ \t]+lead|underwriter|reviewer|adjuster|agent|representative|case[ \t]+manager|relationship[ \t]+manager|manager|rm|nurse|therapist|pharmacist|technician|physician|attending(?:[ \t]+physician)?|referring[ \t]+physician|clinician|surgeon|doctor|counsell?or|coach|teacher|officer|investigator|coordinator|witness|interpreter|represented[ \t]+by|handled[ \t]+by|assigned[ \t]+to|(?:investigator|adjuster|handler|officer|reviewer|assessor|examiner|inspector|solicitor|caseworker|case[ \t]+worker|nurse|clinician)[ \t]+assigned|claims[ \t]+handler|handler|assessor|examiner|inspector|supervisor|solicitor|attorney|paralegal|caseworker|case[ \t]+worker";
    let name_label = Regex::new(&format!(
        r"(?i:(?-u:\b)(?:{labels}))[ \t]*:[ \t]*(?P<name>(?:{HON}\.?{SP}+)?(?:{NW},{SP}+{NW}(?:{SP}+{INIT})?|{NW}(?:{SP}{INIT})?{SP}{NW}(?:{SP}{NW})?|{INIT}{SP}?{NW}|{CW},{SP}+{CW}(?:{SP}+{INIT})?|{CW}(?:{SP}{INIT})?{SP}{CW}(?:{SP}{CW})?))"
    ))?;
    // Particles of a surname ("de", "van", "Ó", "Ní", "Mac").
    let particle = r"(?:[Dd]e|[Dd]a|[Dd]os|[Dd]as|[Dd]el|[Dd]ella|[Dd]i|[Dd]u|[Vv]an|[Vv]on|[Dd]er|[Dd]en|[Tt]er|[Ll]e|[Ll]a|Ó|Ní|Nic|Mac|Mc|Ua|[Bb]in|[Aa]l|[Ee]l|'t)";
    // "Ms Raman", "Mme van Dijk", "Ms Ó Rócháin", "Dr. J. Alvarez de la Cruz".
    let name_honorific = Regex::new(&format!(
        r"(?-u:\b){HON}\.?{SP}+(?:{INIT}{SP}?){{0,2}}(?:{particle}{SP}){{0,2}}{NW}(?:{SP}(?:{INIT}{SP})?(?:{particle}{SP}){{0,2}}{NW}){{0,2}}"
    ))?;
    // A role word directly before a full name, without a colon: "patient Rex Marin",
    // "Participant Victor M. Ramirez".
    // Parties of a case and relatives too: "witness Aylin Demir", "her husband Tariq
    // Farouk", "the deceased Eleanor Whitcombe".
    let roles = r"patients?|participants?|members?|claimants?|insured|policy[ \t]?holders?|clients?|customers?|callers?|enrollees?|beneficiar(?:y|ies)|subscribers?|applicants?|residents?|employees?|borrowers?|students?|veterans?|widow(?:er)?|donors?|recipients?|witness(?:es)?|tenants?|landlords?|defendants?|plaintiffs?|respondents?|appellants?|petitioners?|complainants?|victims?|suspects?|deceased|decedent|spouse|husband|wife|partner|son|daughter|mother|father|brother|sister|nephew|niece|grandson|granddaughter|workers?|contractors?|candidates?|interviewees?|trainees?|apprentices?|counsel|deponents?|colleagues?|payees?|insureds|(?:family|emergency|next[ \t]+of[ \t]+kin)[ \t]+contacts?|adjusters?|assessors?|investigators?|claims?[ \t]+handlers?|examiners?|inspectors?|underwriters?|supervisors?|caseworkers?|case[ \t]+workers?|paralegals?|solicitors?|attorneys?|representatives?|coordinators?";
    let name_role = Regex::new(&format!(
        r"(?i:(?-u:\b)(?:{roles})),?[ \t]+(?P<name>{NW}(?:{SP}{INIT})?{SP}{NW})"
    ))?;
    let name_credential = Regex::new(&format!(
        r"(?P<name>{NW}(?:{SP}{INIT})?{SP}{NW}),?{SP}(?:MD|M\.D\.|DO|RN|LPN|NP|PA-C|DPT|PharmD|DDS|CNM|FRCS|MBBS)(?-u:\b)"
    ))?;
    let name_intro = Regex::new(&format!(
        r"(?-u:\b)(?:[Tt]his is|[Mm]y name is|I am|I'm|I’m|[Nn]ame is|[Ss]incerely,?|(?:[Kk]ind |[Bb]est |[Ww]arm )?[Rr]egards,?|[Tt]hanks,?|[Tt]hank you,?|[Cc]heers,?|[Yy]ours (?:sincerely|faithfully|truly),?)[ \t\r\n]+(?P<name>{NW}(?:{SP}{INIT})?{SP}{NW}(?:{SP}{NW})?)"
    ))?;
    // "I. Carvalho", "C. van Drenthe": an initial, a surname's particles, the surname.
    let name_initial = Regex::new(&format!(r"{INIT}{SP}?(?:{particle}{SP}){{0,2}}{NW}"))?;
    // A maiden name: what follows "née" is a person's surname whatever else the word
    // is ("née Strand", "née Kade").
    let name_maiden = Regex::new(&format!(
        r"(?-u:\b)(?:[Nn]ée|[Nn]ee|NÉE|NEE|[Gg]eb\.|[Gg]eborene)[ \t]+(?P<name>(?:{particle}[ \t]+){{0,2}}(?:{NW}|{CW})(?:{SP}(?:{particle}{SP}){{0,2}}(?:{NW}|{CW})){{0,2}})"
    ))?;
    // The other party of a cited case ("Lane v Lie [2021] EWHC"): a year in brackets
    // after it, or a "RE:" line in capitals and a dash.
    let name_case = Regex::new(&format!(
        r"(?-u:\b)(?:v|vs)\.?[ \t]+(?P<name>(?:{particle}[ \t]+){{0,2}}(?:{NW}|{CW})(?:[ \t]+(?:{particle}[ \t]+){{0,2}}(?:{NW}|{CW})){{0,2}})[ \t]*[\[(](?:1[89]|20)\d\d[\])]"
    ))?;
    let caps_particle =
        r"(?:DA|DE|DO|DOS|DAS|DEL|DELLA|DI|DU|VAN|VON|DER|DEN|TER|LE|LA|Ó|NÍ|MAC|MC|AL|EL|BIN)";
    let name_case_title = Regex::new(&format!(
        r"(?m)^[ \t]*(?:RE|Re):[ \t]+[^\n]{{1,80}}?[ \t]v\.?[ \t]+(?P<name>(?:{caps_particle}[ \t]+){{0,2}}{CW}(?:[ \t]+(?:{caps_particle}[ \t]+){{0,2}}{CW}){{0,2}})[ \t]+[-–—]"
    ))?;
    // The first party of a `RE:` line's case ("RE: TAKAHASHI v LIE - directions").
    let name_case_title_first = Regex::new(&format!(
        r"(?m)^[ \t]*(?:RE|Re):[ \t]+(?P<name>(?:{caps_particle}[ \t]+){{0,2}}{CW}(?:[ \t]+(?:{caps_particle}[ \t]+){{0,2}}{CW}){{0,2}})[ \t]+v\.?[ \t]+[^\n]{{1,80}}?[ \t][-–—]"
    ))?;
    let name_word_surname = Regex::new(
        r"(?-u:\b)(?:(?P<given>\p{Lu}\p{Ll}+)[ ](?:He|Ma)|(?P<caps>\p{Lu}{2,})[ ](?:HE|MA))(?-u:\b)",
    )?;
    Ok(Patterns {
        name_word_surname,
        name_case,
        name_case_title,
        name_case_title_first,
        name_label,
        name_honorific,
        name_role,
        name_credential,
        name_intro,
        name_initial,
        name_maiden,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// Words that make a capitalised phrase an organisation or heading, not a person.
pub(super) const NAME_STOP: &[&str] = &[
    "team",
    "support",
    "services",
    "service",
    "care",
    "bank",
    "health",
    "hospital",
    "clinic",
    "office",
    "department",
    "unit",
    "desk",
    "operations",
    "network",
    "center",
    "centre",
    "committee",
    "program",
    "programme",
    "group",
    "pharmacy",
    "associates",
    "mobile",
    "mutual",
    "national",
    "regional",
    "business",
    "customer",
    "member",
    "patient",
    "claims",
    "claim",
    "thank",
    "thanks",
    "name",
    "signature",
    "withheld",
    "unknown",
    "deputy",
    "head",
    "chair",
    "benefits",
    "outpatient",
    "inpatient",
    "communications",
    "corporate",
    "financial",
    "crimes",
    "fraud",
    "advocacy",
    "the",
    "this",
    "that",
    "these",
    "please",
    "dear",
    "plan",
    "note",
    "yes",
    "no",
    "we",
    "our",
    "your",
    "his",
    "her",
    "their",
    "all",
    "any",
    "each",
    "total",
    "date",
    "visit",
    "section",
    "item",
    "finding",
    "call",
    "re",
    "subject",
    "see",
    "per",
    "and",
    "for",
    "with",
    "from",
    "to",
    "of",
    "in",
    "on",
    "at",
    "by",
    "an",
    "a",
    "it",
    "he",
    "she",
    "they",
    "you",
    "street",
    "avenue",
    "road",
    "lane",
    "drive",
    "insurance",
    "company",
    "inc",
    "ltd",
    "llc",
    "foundation",
    "university",
    "school",
    "academy",
    "college",
    "institute",
    "council",
    "board",
    "agency",
    "authority",
    "ministry",
    "court",
    "police",
    "registry",
    "review",
    "report",
    "form",
    "policy",
    "manager",
    "coordinator",
    "lead",
    "staff",
    "admin",
    "administrator",
    "medical",
    "medicine",
    "therapy",
    "emergency",
    "general",
    "public",
    "private",
    "st",
    "saint",
    "mount",
    "lake",
    "port",
    "room",
    "ward",
    "floor",
    "suite",
    "building",
    "appendix",
    "table",
    "figure",
    "page",
    "step",
    "part",
    "items",
    "version",
    "summary",
    "chapter",
    "schedule",
    "exhibit",
];

/// A word of [`NAME_STOP`], or a month or weekday name.
pub(super) fn name_stop(w: &str) -> bool {
    in_list(NAME_STOP, w) || crate::entity::normalize::is_calendar_word(w)
}

/// Words after which a capital letter and a period are a label, not an initial.
const INITIAL_PREV_STOP: &[&str] = &[
    "appendix",
    "section",
    "part",
    "schedule",
    "exhibit",
    "table",
    "figure",
    "plan",
    "vitamin",
    "type",
    "grade",
    "class",
    "level",
    "stage",
    "phase",
    "hepatitis",
    "group",
    "tier",
    "annex",
    "item",
    "option",
    "form",
    "finding",
    "block",
    "wing",
    "unit",
    "ward",
    "room",
    "building",
    "lot",
    "row",
    "bay",
    "gate",
    "zone",
    "area",
    "category",
    "list",
    "step",
    "question",
    "q",
    "no",
    "ref",
    "model",
    "series",
    "version",
    "variant",
    "strain",
    "factor",
    "protein",
];

/// Names found by a cue before or after them.
pub(super) struct NameCues {
    patterns: &'static Patterns,
}

impl NameCues {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(NameCues {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for NameCues {
    fn name(&self) -> &'static str {
        "name_cue"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[
            LABELLED,
            HONORIFIC,
            AFTER_ROLE,
            WITH_CREDENTIALS,
            INTRODUCED,
            INITIAL,
            MAIDEN,
            CASE_PARTY,
            WORD_SURNAME,
        ]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let (text, p) = (ctx.text, self.patterns);
        // The cue is enough for these: an English word or a place is a maiden name or a
        // party here (no `only_words` test), an organisation word is not.
        let cued = [
            (&p.name_maiden, &MAIDEN),
            (&p.name_case, &CASE_PARTY),
            (&p.name_case_title, &CASE_PARTY),
            (&p.name_case_title_first, &CASE_PARTY),
        ];
        for (pattern, row) in cued {
            for c in pattern.captures_iter(text) {
                let Some(m) = c.name("name") else {
                    continue;
                };
                if let Some(span) = cued_name_span(text, m.start(), m.end(), true) {
                    ctx.push(cands, span, row, Tier::Name);
                }
            }
        }
        // "Ming He wrote:": a common given name, then "He" or "Ma" with a capital
        // where the word would be in lower case (the given name before it: no sentence
        // starts there). A possessive or a letter after it ends no name.
        // ("XIUYING HE was reviewed": the same in capitals, in a line that is not in
        // capitals throughout.)
        for c in p.name_word_surname.captures_iter(text) {
            let Some(all) = c.get(0) else {
                continue;
            };
            let (given, caps) = match (c.name("given"), c.name("caps")) {
                (Some(g), _) => (g, false),
                (None, Some(g)) => (g, true),
                (None, None) => continue,
            };
            // In a title written in capitals throughout ("Finding Grace He Stayed") the
            // capital says nothing: a capitalised word before or after is one (a word
            // in capitals, for a name in capitals: "MEETING WITH XIUYING HE").
            let heading = |w: &str| {
                if caps {
                    w.chars().filter(|c| c.is_alphabetic()).count() >= 2
                        && w.chars().all(|c| !c.is_alphabetic() || c.is_uppercase())
                } else {
                    w.starts_with(char::is_uppercase)
                }
            };
            let word_before = text[..all.start()]
                .strip_suffix(' ')
                .and_then(|b| b.rsplit([' ', '\t', '\n']).next())
                .is_some_and(|w| heading(w) && !w.ends_with([':', ',']));
            let word_after = text[all.end()..]
                .strip_prefix(' ')
                .and_then(|a| a.split([' ', '\t', '\n']).next())
                .is_some_and(heading);
            if next_char(text, all.end()).is_some_and(|ch| ch.is_alphanumeric() || ch == '-')
                || word_before
                || word_after
                // Any given name ("Xiuying He (care assistant)"): "He" and "Ma" are
                // written with a capital inside a sentence only as a name.
                || !super::person::is_given_name(&given.as_str().to_lowercase())
            {
                continue;
            }
            ctx.push(cands, (all.start(), all.end()), &WORD_SURNAME, Tier::Name);
        }
        // `english`: the cue is strong enough for a name made of English words.
        let mut add = |start: usize, end: usize, row: &RelevanceRow, english: bool| {
            let span = if english {
                cued_name_span(text, start, end, true)
            } else {
                name_span(text, start, end, false)
            };
            if let Some(span) = span {
                ctx.push(cands, span, row, Tier::Name);
            }
        };
        for c in p.name_label.captures_iter(text) {
            if let Some(m) = c.name("name") {
                // "Name: Sabari Mathenge Emp#: 556768": a key glued to its "#" is the
                // next field's, not the name's last word.
                let end = if text[m.end()..].starts_with('#') {
                    text[m.start()..m.end()]
                        .rfind(' ')
                        .map_or(m.end(), |s| m.start() + s)
                } else {
                    m.end()
                };
                add(m.start(), end, &LABELLED, false);
            }
        }
        for m in p.name_honorific.find_iter(text) {
            // After a personal honorific the surname may be an English word ("Mrs
            // Pan", "Ms Sans", "Sr. Gay"); not after "Dr" (a street's "Drive") or one
            // in capitals ("MR Imaging", "MS Excel").
            add(
                m.start(),
                m.end(),
                &HONORIFIC,
                personal_honorific(m.as_str()),
            );
        }
        for c in p.name_role.captures_iter(text) {
            let (Some(all), Some(m)) = (c.get(0), c.name("name")) else {
                continue;
            };
            // A capitalised role word inside a line is a title ("Health – Member
            // Reimbursement Request"), not a role before a name.
            if text[all.start()..].starts_with(char::is_uppercase)
                && !sentence_start(text, all.start())
            {
                continue;
            }
            add(m.start(), m.end(), &AFTER_ROLE, false);
        }
        for c in p.name_credential.captures_iter(text) {
            if let Some(m) = c.name("name") {
                add(m.start(), m.end(), &WITH_CREDENTIALS, false);
            }
        }
        for c in p.name_intro.captures_iter(text) {
            if let Some(m) = c.name("name") {
                add(m.start(), m.end(), &INTRODUCED, false);
            }
        }
        for m in p.name_initial.find_iter(text) {
            if prev_char(text, m.start()).is_some_and(|c| c == '.' || c.is_alphanumeric()) {
                continue;
            }
            // "Appendix B. Room 12", "Vitamin D. Take", "Room 4. Ward 7" are no names.
            let before = text[..m.start()].trim_end();
            let prev_word = before
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("");
            if in_list(INITIAL_PREV_STOP, prev_word)
                || prev_word.chars().any(|c| c.is_ascii_digit())
            {
                continue;
            }
            let after = text[m.end()..].trim_start_matches([' ', '\u{A0}']);
            if after.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                continue;
            }
            // "S.Com.", "S.Coop.": a legal form's abbreviation (an initial glued to a
            // short word that ends with a period), not a name.
            let s = m.as_str();
            if s.get(1..2) == Some(".")
                && s.chars().count() <= 6
                && text[m.end()..].starts_with('.')
            {
                continue;
            }
            add(m.start(), m.end(), &INITIAL, false);
        }
    }
}

/// Works on the names of the recognizers before it (every candidate typed NAME): a
/// partial name takes the one full name of the document it fits; other occurrences of
/// the full names, and their first name or surname alone when unambiguous within the
/// document, are added. Never across documents.
pub(super) struct NameEchoes;

/// Is `pos` at the start of the text, a line or a sentence?
fn sentence_start(text: &str, pos: usize) -> bool {
    let before = &text[..pos];
    let trimmed = before.trim_end_matches([' ', '\t', '\u{A0}']);
    match trimmed.chars().next_back() {
        None => true,
        Some(c) => matches!(
            c,
            '.' | '!' | '?' | '\n' | '\r' | ':' | ';' | '(' | '"' | '“'
        ),
    }
}

/// A trailing possessive "'s" is not part of a name.
/// The span of a person name found at `start..end`, if it is one: without a possessive
/// "'s", not glued to a following letter or digit, no organisation or heading word, not
/// a phrase of English words only ("Quality Assurance"). Every name recognizer's names
/// pass here.
///
/// `surnames_judged`: the names-without-cues recognizer has already told streets,
/// places and organisations from persons by the vocabularies and the context, so a
/// heading word after the first word that is also a common surname stays ("Harold
/// Page (…)", "reviewed with Thomas Ward", "Anna Lane called"); the pattern
/// recognizers, which have not, pass `false`.
pub(super) fn name_span(
    text: &str,
    start: usize,
    end: usize,
    surnames_judged: bool,
) -> Option<(usize, usize)> {
    cued_name_span(text, start, end, surnames_judged)
        .filter(|&(start, end)| !super::person::only_words(&text[start..end]))
}

/// [`name_span`] where the cue is strong enough for a name made of English words
/// (a maiden name, a case's party, a surname after a personal honorific).
pub(super) fn cued_name_span(
    text: &str,
    start: usize,
    end: usize,
    surnames_judged: bool,
) -> Option<(usize, usize)> {
    let (start, end) = trim_possessive(text, start, end);
    if next_char(text, end).is_some_and(char::is_alphanumeric) {
        return None;
    }
    name_words_ok(text.get(start..end)?, surnames_judged).then_some((start, end))
}

/// Whether a name after an honorific starts with one that only a person takes,
/// written in title case ("Mrs", "Ms", "Sr.", "Mme", "Herr"): "Dr" is also a street's
/// "Drive", and "MR", "MS" in capitals are also abbreviations.
fn personal_honorific(name: &str) -> bool {
    const PERSONAL: &[&str] = &[
        "Mr", "Mrs", "Ms", "Miss", "Mx", "Mme", "Mlle", "Sra", "Srta", "Herr", "Frau", "Dña",
        "Doña", "Mevr", "Pani", "Sig", "Sigra",
    ];
    let word = name.split([' ', '\t', '\u{A0}']).next().unwrap_or("");
    PERSONAL.contains(&word.trim_end_matches('.')) || word == "Sr."
}

fn trim_possessive(text: &str, start: usize, end: usize) -> (usize, usize) {
    let s = &text[start..end];
    for suffix in ["'s", "’s"] {
        if s.ends_with(suffix) && s.len() > suffix.len() {
            return (start, end - suffix.len());
        }
    }
    (start, end)
}

/// No word of a candidate name is an organisation/heading word (with
/// `surnames_judged`, one after the first word may be, when it is a common surname of
/// four letters or more: "Page", "Ward", "Lane").
fn name_words_ok(original: &str, surnames_judged: bool) -> bool {
    let is_honorific =
        |w: &&str| crate::entity::normalize::HONORIFICS.contains(&w.to_lowercase().as_str());
    let split: Vec<&str> = original
        .split([' ', ',', '\u{A0}'])
        .map(|w| w.trim_end_matches('.'))
        .collect();
    // After an initial the first word is a surname ("T. Ward"); so is a first word
    // before a comma ("Ward, Gareth").
    let after_initial = split
        .first()
        .is_some_and(|w| w.chars().count() == 1 && w.chars().all(char::is_uppercase));
    let before_comma = original
        .split_once(',')
        .is_some_and(|(first, _)| !first.trim().contains([' ', '\u{A0}']));
    let all: Vec<&str> = split
        .into_iter()
        .filter(|w| w.chars().count() > 1)
        .collect();
    // After an honorific the first word is a surname ("Mrs Lane").
    let honorific_first = all.first().is_some_and(is_honorific);
    let surname_first = honorific_first || after_initial || before_comma;
    let words: Vec<&str> = all.into_iter().filter(|w| !is_honorific(w)).collect();
    // An acronym ("PCR", "MRN"); "LÁSZLÓ", "QƏŞƏM" are names.
    let caps_without_vowel = |w: &&str| {
        w.chars().all(|c| !c.is_alphabetic() || c.is_uppercase()) && !super::text::has_vowel(w)
    };
    let stop = |(n, w): (usize, &&str)| {
        name_stop(w)
            // "name: Per Falk", "by May Eliassen": a word that is also a common given
            // name, before a surname that is no English word.
            && !(n == 0
                && words
                    .get(1)
                    .is_some_and(|next| super::person::given_word_before_surname(w, next)))
            // "HOLM, Per, Affiant": the same after the surname and its comma.
            && !(n == 1
                && before_comma
                && super::person::given_word_before_surname(w, words[0]))
            && !(surnames_judged
                && (n > 0 || surname_first)
                && w.chars().count() >= 4
                && super::person::common_surname(&w.to_lowercase()))
            // "Ms He is a pleasant …": the one word after an honorific is a surname,
            // however short, when a common one.
            && !(honorific_first
                && words.len() == 1
                && super::person::common_surname(&w.to_lowercase()))
    };
    !words.is_empty()
        && !words.iter().enumerate().any(stop)
        && !words.iter().any(caps_without_vowel)
}

#[cfg(test)]
mod tests;
