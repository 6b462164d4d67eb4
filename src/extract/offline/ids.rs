//! The id recognizer: codes typed by the context word before them (member / patient /
//! MRN → PATIENT_ID; claim / policy / case ... → NON_PERSONAL_ID), and upper-case codes
//! without one.

use std::sync::LazyLock;

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{in_list, opens_line, token_bounded, window_start};
use crate::entity::DateOrder;
use crate::entity::normalize::parse_date;

const PATIENT_ID: RelevanceRow = RelevanceRow {
    matches: "id after a member/patient/MRN/insured/employee/payroll/student/chart/licence/... context word",
    entity_type: "PATIENT_ID",
    relevance: Relevance::Fixed(1.0),
};
const OTHER_ID: RelevanceRow = RelevanceRow {
    matches: "id after a claim/policy/invoice/case/ticket/... context word",
    entity_type: "NON_PERSONAL_ID",
    relevance: Relevance::Fixed(1.0),
};
const CONTEXT_FREE_ID: RelevanceRow = RelevanceRow {
    matches: "id without context word (upper-case letters + ≥ 4 digits, dash or letter prefix)",
    entity_type: "NON_PERSONAL_ID",
    relevance: Relevance::Fixed(0.7),
};

const ID_BY_PREFIX: RelevanceRow = RelevanceRow {
    matches: "id without context word whose own letters say whose it is (`EMP65911`, `MRN-0042117`, `MBR448213`, `PAT-…`)",
    entity_type: "PATIENT_ID",
    relevance: Relevance::Fixed(0.9),
};
const ID_BOOKED_AGAINST: RelevanceRow = RelevanceRow {
    matches: "a code, or a number of ≥ 5 digits, without context word after `against` or `under` and a verb of bookkeeping (`log the hours against 723150`, `booked under E-824071`): the person the time or cost is booked to",
    entity_type: "PATIENT_ID",
    relevance: Relevance::Fixed(0.9),
};
const ID_WITH_SURNAME: RelevanceRow = RelevanceRow {
    matches: "a reference of any context that holds, between slashes or dashes, the surname of a person named in the document (`Our ref: MBE/MOREAU/0417` to Mr Grégoire Moreau): retyped, relevance at least 0.9",
    entity_type: "PATIENT_ID",
    relevance: Relevance::Kept,
};
const ID_BESIDE_NAME: RelevanceRow = RelevanceRow {
    matches: "a code with ≥ 4 digits in brackets right after or before a person's name (`Harold Brennan (PR-1234-567)`, `TCS653020 (Velitdin Aslan)`, `(Lena Ruiz, EMP05000)`), after the name and a comma, or in the field beside it on a record line (a slash, a bar, a semicolon, a tab, an HTML cell); not a claim/policy/... id",
    entity_type: "PATIENT_ID",
    relevance: Relevance::Fixed(0.9),
};

/// Letter prefixes of a code that name a person's record: an employee, member,
/// patient, staff, customer or student number.
const PERSON_PREFIXES: &[&str] = &[
    "EMP", "EMPL", "EE", "MRN", "PAT", "PID", "MBR", "MEM", "MEMB", "STF", "STAFF", "CUST", "STU",
    "PERS", "SSN", "NHS", "NINO", "EID", "EMPID", "SIN", "BSN", "TFN",
];

struct Patterns {
    beside_after: Regex,
    beside_before: Regex,
    id_code: Regex,
    id_spaced: Regex,
    /// Digit groups parted by single spaces ("123 456 782"): an id only right after a
    /// context word.
    id_digits_spaced: Regex,
    id_ctx: Regex,
    id_gap: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    let patient_ctx = r"policy[ \t]?holders?|dl|bsn|tfn|sin|social[ \t]+insurance|tax[ \t]+file[ \t]+number|medicare(?:[ \t]+card)?|medicaid|member[ \t]+id|member[ \t]+no|member[ \t]+number|patient[ \t]+reference|patient[ \t]+account|patient[ \t]+id|patient[ \t]+no|hosp(?:ital)?\.?[ \t]+(?:no|number|id)|members?|patients?|subscriber|mrn|medical[ \t]+record|insured|id[ \t]+card|payer[ \t]+id|beneficiary|enrollee|health[ \t]+card|nhs[ \t]+number|ssn|social[ \t]+security|employees?|employee[ \t]+id|emp|staff|personnel|badge|students?|chart|passport|(?:driver'?s?[ \t]+)?licen[cs]e|national[ \t]+id|tax[ \t]+id|tax[ \t]+reference|utr|national[ \t]+insurance|nino|payroll|pension|memberships?|customers?|clients?";
    let other_ctx = r"claims?|polic(?:y|ies)|invoices?|authori[sz]ations?|cases?|tickets?|references?|ref|accounts?|surveys?|participants?|loans?|group|orders?|confirmation|transactions?|tracking|application|certificate|contract|receipt|booking|reservation|incident|file|appeals?|complaints?|disputes?|grievances?|referrals?|requests?";
    let id_ctx = Regex::new(&format!(
        r"(?i)(?-u:\b)(?:(?P<p>{patient_ctx})|(?P<n>{other_ctx}))(?-u:\b)"
    ))?;
    let code = r"[A-Za-z0-9](?:[A-Za-z0-9]|[-/][A-Za-z0-9])*";
    // Digit groups parted by single spaces, maybe after a short letter prefix ("YB 337
    // 746 985", "123 456 782"): in brackets right after a name only.
    let spaced = r"(?:[A-Z]{1,3} \d{2,5}(?: \d{2,5}){1,4}|\d{2,5}(?: \d{2,5}){2,4})";
    // The separator of two fields of a record line: " / ", " | ", ";", a tab, an HTML
    // cell's end and the next one's start.
    let sep = r"(?:[ \t]+/[ \t]+|[ \t]*[|;\t][ \t]*|[ \t]*</t[dh]>[ \t]*<t[dh][^>]*>[ \t]*)";
    Ok(Patterns {
        beside_after: Regex::new(&format!(
            r"^(?:[ \t]?[(\[][ \t]*(?i:(?:id|no|nr|num|number|ref|mrn|emp|badge|payroll|ssn|nhs|nino|(?:staff|employee|member|patient)(?:[ \t]+(?:id|no|number))?)(?:\.[ \t]*|[ \t]*[:#][ \t]*|[ \t]+))?(?P<b>{code}|{spaced})[ \t]*[)\]]|,[ \t](?P<c>{code})(?:[ \t]*[,.;)]|[ \t]*$|\n)|{sep}(?P<r>{code})(?:[ \t]*(?:[/|;<\n]|$)))"
        ))?,
        beside_before: Regex::new(&format!(
            r"(?:^|[\s:/(|,>])(?P<id>{code})(?:[ \t]?[(\[][ \t]*|{sep})$"
        ))?,
        id_code: Regex::new(
            // A US court's docket number ("2:21-cv-01234-JLR"), or a code.
            r"(?-u:\b)(?:\d{1,2}:\d{2}-[A-Za-z]{2,4}-\d{3,6}(?:-[A-Za-z]{2,4})*|(?:[A-Za-z]{1,6}[-\x{2013}/])*[A-Za-z]*\d[A-Za-z0-9]*(?:[-\x{2013}/][A-Za-z0-9]+)*)(?-u:\b)",
        )?,
        id_digits_spaced: Regex::new(r"(?-u:\b)\d{2,5}(?: \d{1,5}){1,4}(?-u:\b)")?,
        id_spaced: Regex::new(
            r"(?-u:\b)(?P<prefix>[A-Za-z]{2,5}) (?P<groups>\d{2,}(?: \d{2,}){0,3})(?-u:\b)",
        )?,
        id_ctx,
        id_gap: Regex::new(
            r"(?i)^[\s:#.,()\-]*(?:(?:no|nr|num|number|id|code|#)\.?[\s:#.,()\-]*)?(?:(?:is|was|remains|is[ \t]+now|will[ \t]+be|=)[\s:]*)?$",
        )?,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// Ids, typed by their context word.
pub(super) struct Ids {
    patterns: &'static Patterns,
}

impl Ids {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Ids {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Ids {
    fn name(&self) -> &'static str {
        "id"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[
            PATIENT_ID,
            OTHER_ID,
            CONTEXT_FREE_ID,
            ID_BY_PREFIX,
            ID_BOOKED_AGAINST,
        ]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let (text, p) = (ctx.text, self.patterns);
        let mut raw: Vec<(usize, usize, bool)> = Vec::new(); // (start, end, spaced)
        for m in p.id_code.find_iter(text) {
            raw.push((m.start(), m.end(), false));
        }
        for c in p.id_spaced.captures_iter(text) {
            if let Some(m) = c.get(0) {
                raw.push((m.start(), m.end(), true));
            }
        }
        for m in p.id_digits_spaced.find_iter(text) {
            raw.push((m.start(), m.end(), false));
        }
        raw.sort_unstable();
        let mut floor = 0;
        for (start, end, spaced) in raw {
            let s = &text[start..end];
            if !token_bounded(text, start, end) {
                continue;
            }
            let digits = s.chars().filter(char::is_ascii_digit).count();
            if digits < 3 {
                continue;
            }
            let letters = s.chars().filter(char::is_ascii_alphabetic).count();
            if letters == 0 && is_date_like(s) {
                continue;
            }
            // Context word, nearest first, within 30 chars on the same line, or in the
            // whole label of a field ("Patient number at the treating hospital: …").
            let from = window_start(text, start, 30, floor.min(start));
            let mut window = &text[from..start];
            if !p.id_ctx.is_match(window) {
                let wide_from = window_start(text, start, 64, floor.min(start));
                let wide = &text[wide_from..start];
                if opens_line(text, wide_from) && wide.trim_end().ends_with(':') {
                    window = wide;
                }
            }
            // "Contact on file: 6527840527", "the address on file": "on file" says
            // recorded, not a file's number.
            let (before_last, last) = p
                .id_ctx
                .captures_iter(window)
                .fold((None, None), |(_, last), c| (last, Some(c)));
            let cue = last.as_ref().filter(|c| {
                !c.get(0).is_some_and(|m| {
                    m.as_str().eq_ignore_ascii_case("file")
                        && window[..m.start()].to_ascii_lowercase().ends_with("on ")
                })
            });
            // "insured ref PF 369 925 239", "Policy holder ref: …": a person's word
            // right before a generic reference word says whose the reference is.
            let persons_ref = cue.and_then(|c| c.get(0)).is_some_and(|m| {
                matches!(
                    m.as_str().to_ascii_lowercase().as_str(),
                    "ref" | "reference"
                ) && before_last
                    .as_ref()
                    .and_then(|b| b.name("p"))
                    .is_some_and(|q| window[q.end()..m.start()].trim().is_empty())
            });
            let (cue_row, cue_end) = match cue {
                Some(c) if c.name("p").is_some() || persons_ref => {
                    (Some(&PATIENT_ID), c.get(0).map(|m| m.end()))
                }
                // "Mutia's policy number is …", "your account no.": a person's own.
                Some(c)
                    if c.get(0)
                        .is_some_and(|m| held_by_a_person(window, m.start(), m.as_str())) =>
                {
                    (Some(&PATIENT_ID), c.get(0).map(|m| m.end()))
                }
                Some(c) => (Some(&OTHER_ID), c.get(0).map(|m| m.end())),
                None => (None, None),
            };
            // "Please log the hours against 723150": booked to whom, with no context word.
            let booked = cue_row.is_none() && !spaced && booked_against(text, start);
            let accepted = if booked {
                digits >= 5 || letters > 0 && digits >= 4
            } else if spaced {
                spaced_id_ok(s, cue_row.is_some())
            } else if letters == 0 {
                // Plain numbers only right after a context word ("Case 2024-113").
                let gap_ok = cue_end.is_some_and(|e| p.id_gap.is_match(&window[e..]));
                let dashed = s.contains(['-', '\u{2013}']);
                let grouped = s.contains(' ');
                gap_ok
                    && (digits >= 5 && !grouped || dashed && digits >= 4 || grouped && digits >= 7)
            } else if cue_row.is_some() {
                true
            } else {
                context_free_id_ok(s)
            };
            if !accepted {
                continue;
            }
            let row = match cue_row {
                // "Holiday request EMP51633": a person's prefix says more than a
                // generic context word.
                Some(r) if std::ptr::eq(r, &OTHER_ID) && person_prefix(s) => &ID_BY_PREFIX,
                // "Policy 2175922478 is held jointly by …": the holder follows.
                Some(r)
                    if std::ptr::eq(r, &OTHER_ID)
                        && cue.as_ref().and_then(|c| c.get(0)).is_some_and(|m| {
                            HELD.iter().any(|h| m.as_str().eq_ignore_ascii_case(h))
                        })
                        && holder_follows(&text[end..]) =>
                {
                    &PATIENT_ID
                }
                Some(r) => r,
                None if person_prefix(s) => &ID_BY_PREFIX,
                None if booked => &ID_BOOKED_AGAINST,
                None => &CONTEXT_FREE_ID,
            };
            ctx.push(cands, (start, end), row, Tier::Id);
            floor = end;
        }
    }
}

/// The code at `start` follows "against" or "under" and, a few words before on the same
/// line, a verb of bookkeeping ("log the hours against", "charged the mileage under").
fn booked_against(text: &str, start: usize) -> bool {
    const VERBS: [&str; 16] = [
        "log",
        "logged",
        "book",
        "booked",
        "charge",
        "charged",
        "bill",
        "billed",
        "record",
        "recorded",
        "post",
        "posted",
        "code",
        "coded",
        "allocate",
        "allocated",
    ];
    let from = window_start(text, start, 48, 0);
    let mut words = text[from..start]
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .rev();
    text[..start].ends_with(' ')
        && words
            .next()
            .is_some_and(|w| w.eq_ignore_ascii_case("against") || w.eq_ignore_ascii_case("under"))
        && words
            .take(5)
            .any(|w| VERBS.iter().any(|v| w.eq_ignore_ascii_case(v)))
}

/// What a person holds in their name.
const HELD: [&str; 8] = [
    "policy",
    "policies",
    "account",
    "accounts",
    "loan",
    "loans",
    "contract",
    "contracts",
];

/// The text after a policy's or an account's number names its holder ("… is held
/// jointly by", "… in the name of", "… belongs to").
fn holder_follows(rest: &str) -> bool {
    let r = rest.trim_start_matches([',', ' ']);
    let mut cut = r.len().min(32);
    while !r.is_char_boundary(cut) {
        cut -= 1;
    }
    let r = r[..cut].to_ascii_lowercase();
    let r = r
        .strip_prefix("is ")
        .or_else(|| r.strip_prefix("was "))
        .unwrap_or(&r);
    [
        "held by",
        "held jointly by",
        "held solely by",
        "owned by",
        "in the name of",
        "belongs to",
        "registered to",
    ]
    .iter()
    .any(|p| r.starts_with(p))
}

/// A policy, account, loan or contract a person holds: the context word `word` at `at`
/// of `window` comes right after a possessive ("Mutia's policy", "her account", "your
/// policy"; not "our policy", the writer's firm's) or "holder of".
fn held_by_a_person(window: &str, at: usize, word: &str) -> bool {
    const POSSESSIVES: [&str; 5] = ["his", "her", "their", "my", "your"];
    if !HELD.iter().any(|h| word.eq_ignore_ascii_case(h)) {
        return false;
    }
    let before = window[..at].trim_end_matches([' ', '\t']);
    if before.len() == window[..at].len() {
        return false;
    }
    // "I am …, holder of policy no. ANC514975472": the writer's own.
    let lower = before.to_ascii_lowercase();
    if ["holder of", "holder of the", "holders of"]
        .iter()
        .any(|h| lower.ends_with(h))
    {
        return true;
    }
    let last = before
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '\u{2019}'))
        .next()
        .unwrap_or("");
    let lower = last.to_lowercase();
    (lower.ends_with("'s") || lower.ends_with("\u{2019}s")) && last.starts_with(char::is_uppercase)
        || POSSESSIVES.contains(&lower.as_str())
}

/// Whether a code's leading letters name a person's record ("EMP65911", "MRN-0042117").
fn person_prefix(s: &str) -> bool {
    let letters: String = s.chars().take_while(char::is_ascii_alphabetic).collect();
    PERSON_PREFIXES.contains(&letters.to_ascii_uppercase().as_str())
}

/// Codes written against a person's name: "Harold Brennan (PR-1234-567)", "TCS653020
/// (Velitdin Aslan)", "Harold Brennan, 4417-2210." Runs after the name recognizers and
/// `clinician` (a clinician's number is no patient's id), on the NAME candidates so far.
pub(super) struct IdsBesideNames {
    patterns: &'static Patterns,
}

impl IdsBesideNames {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(IdsBesideNames {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for IdsBesideNames {
    fn name(&self) -> &'static str {
        "id_beside_name"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[ID_BESIDE_NAME, ID_WITH_SURNAME]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let (text, p) = (ctx.text, self.patterns);
        let names: Vec<(usize, usize)> = cands
            .iter()
            .filter(|c| c.ty == "NAME")
            .map(|c| (c.start, c.end))
            .collect();
        // (start, end, in brackets right after the name)
        let mut found: Vec<(usize, usize, bool)> = Vec::new();
        for (start, end) in names {
            let after = &text[end..];
            if let Some(c) = p.beside_after.captures(after) {
                if let Some(m) = c.name("b") {
                    found.push((end + m.start(), end + m.end(), true));
                } else if let Some(m) = c.name("c") {
                    // "(Lena Ruiz, EMP05000)": the name and its code in one pair of
                    // brackets.
                    let opened = text[..start].trim_end_matches([' ', '\t']).ends_with('(');
                    let closed = after[m.end()..]
                        .trim_start_matches([' ', '\t'])
                        .starts_with(')');
                    found.push((end + m.start(), end + m.end(), opened && closed));
                } else if let Some(m) = c.name("r") {
                    found.push((end + m.start(), end + m.end(), false));
                }
            }
            let rest = after.trim_start_matches([' ', '\t']);
            let closes = rest.starts_with([')', ']'])
                || rest.is_empty()
                || rest.starts_with(['/', '|', ';', '\n', '<']);
            let from = window_start(text, start, 40, 0);
            if closes
                && let Some(c) = p.beside_before.captures(&text[from..start])
                && let Some(m) = c.name("id")
            {
                found.push((from + m.start(), from + m.end(), false));
            }
            // A record line opened by the person's code ("E-677117 CLAESSON Stefan -
            // probation extended"): the code alone before the name on its line.
            // (The window stops at the line's start, or short of it on a long line.)
            let line_from = opens_line(text, from).then_some(from);
            let lead = line_from.map_or("", |l| &text[l..start]);
            let code = lead.trim();
            if let Some(line_from) = line_from
                && !code.is_empty()
                && lead.ends_with([' ', '\t'])
                && !code.contains([' ', '\t'])
                && p.id_code.find(code).is_some_and(|m| m.len() == code.len())
            {
                let at = line_from + (lead.len() - lead.trim_start().len());
                found.push((at, at + code.len(), false));
            }
        }
        surname_references(ctx, cands);
        found.sort_unstable();
        found.dedup();
        for (start, end, bracketed) in found {
            let s = &text[start..end];
            let digits = s.chars().filter(char::is_ascii_digit).count();
            let letters = s.chars().filter(char::is_ascii_alphabetic).count();
            let yearish = letters == 0 && digits == 4;
            if digits < 4 || yearish || (letters == 0 && is_date_like(s)) {
                continue;
            }
            // A phone by its form stays a phone ("Arjun Patel (303-555-0187)").
            let phone = cands.iter().any(|c| {
                c.ty == "PHONE_NUMBER" && c.relevance >= 1.0 && c.start <= start && end <= c.end
            });
            if phone {
                continue;
            }
            // In brackets right after the name, the code is the person's even when a
            // claim word comes before the name ("Claim submitted for Harold Brennan
            // (PR-1234-567)"): it wins over the id typed by that word. Elsewhere a claim,
            // policy or case number keeps its own type.
            if bracketed {
                ctx.push(cands, (start, end), &ID_BESIDE_NAME, Tier::Column);
                continue;
            }
            let typed_other = cands.iter().any(|c| {
                c.start < end
                    && start < c.end
                    && c.ty != "NAME"
                    && c.tier <= Tier::Id
                    && !(c.ty == "NON_PERSONAL_ID" && c.relevance < 1.0)
            });
            if !typed_other {
                ctx.push(cands, (start, end), &ID_BESIDE_NAME, Tier::Id);
            }
        }
    }
}

/// References built from the surname of a person named in the document ("Our ref:
/// MBE/MOREAU/0417" in a letter to Mr Grégoire Moreau): the person's, not a file's.
fn surname_references(ctx: &Context<'_>, cands: &mut [Candidate]) {
    let surnames: Vec<String> = cands
        .iter()
        .filter(|c| c.ty == "NAME")
        .filter_map(|c| c.normalized.rsplit(' ').next())
        .filter(|w| w.chars().count() >= 3)
        .map(str::to_lowercase)
        .collect();
    if surnames.is_empty() {
        return;
    }
    for c in cands.iter_mut().filter(|c| c.ty == "NON_PERSONAL_ID") {
        let code = ctx.text[c.start..c.end].to_lowercase();
        if code
            .split(['/', '-', '_', '.'])
            .any(|part| surnames.iter().any(|s| s == part))
        {
            c.ty = ID_WITH_SURNAME.entity_type;
            c.relevance = c.relevance.max(0.9);
        }
    }
}

/// A letter prefix and digit groups separated by single spaces ("CLM 2024 0788120").
fn spaced_id_ok(s: &str, has_context: bool) -> bool {
    let mut parts = s.split(' ');
    let prefix = parts.next().unwrap_or("");
    let groups: Vec<&str> = parts.collect();
    const STOP: &[&str] = &[
        "id", "no", "nr", "num", "ref", "mrn", "dob", "cpt", "icd", "ndc", "hcpcs", "and", "the",
        "for", "tel", "fax", "ph", "room", "rm", "apt", "ste", "box", "po", "us", "usd", "eur",
        "gbp", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
        "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "am", "pm", "ext", "mg", "ml",
        "kg", "lb", "lbs", "hrs", "min", "sec", "vs", "rx",
    ];
    // "AM 860 151 420" is a code: a time's "AM" follows its number, and two digit
    // groups after it read as no time.
    let meridiem_code = matches!(prefix, "AM" | "PM") && groups.len() >= 2;
    // "RX 946 077 581": in capitals before three groups of three digits or more, an
    // abbreviation is a code's prefix, unless it is a label, a phone's, a date's or a
    // currency's word ("USD 125 000 000").
    const NEVER_PREFIX: &[&str] = &[
        "id", "no", "nr", "num", "ref", "mrn", "dob", "tel", "fax", "ph", "us", "usd", "eur",
        "gbp", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
        "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "ext",
    ];
    let grouped_code = prefix.chars().all(|c| c.is_ascii_uppercase())
        && groups.len() >= 3
        && groups.iter().all(|g| g.len() == 3)
        && !in_list(NEVER_PREFIX, prefix);
    if in_list(STOP, prefix) && !meridiem_code && !grouped_code {
        return false;
    }
    let upper = prefix.chars().all(|c| c.is_ascii_uppercase());
    let vowelless = !prefix
        .chars()
        .any(|c| matches!(c.to_ascii_lowercase(), 'a' | 'e' | 'i' | 'o' | 'u' | 'y'));
    if !(upper || vowelless && prefix.len() <= 4) {
        return false;
    }
    if groups.len() >= 2 {
        return true;
    }
    // One group: needs a context word, and "OR 97321" (state + ZIP) is no id.
    let zip = prefix.len() == 2 && groups.first().is_some_and(|g| g.len() == 5);
    has_context && !zip
}

/// Whether a digits-and-separators token is a date in any order ("2024-08-22").
fn is_date_like(s: &str) -> bool {
    [DateOrder::Mdy, DateOrder::Dmy, DateOrder::Ymd]
        .into_iter()
        .any(|o| parse_date(s, o).is_some())
}

/// A code found without a context word: upper-case letters and ≥ 4 digits, with a dash
/// or a letter prefix, and more than a year ("FY2024", "Q2-2024").
fn context_free_id_ok(s: &str) -> bool {
    if s.chars().any(|c| c.is_ascii_lowercase()) {
        return false;
    }
    let digits: Vec<u32> = s.chars().filter_map(|c| c.to_digit(10)).collect();
    if digits.len() < 4 {
        return false;
    }
    let dashed = s.contains(['-', '\u{2013}']);
    let letter_prefix = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    if !(dashed || letter_prefix) {
        return false;
    }
    let groups: Vec<&str> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .collect();
    let yearish = |g: &str| g.len() == 4 && (g.starts_with("19") || g.starts_with("20"));
    let only_year = match groups.as_slice() {
        [y] => yearish(y),
        [a, y] => a.len() == 1 && yearish(y),
        _ => false,
    };
    !only_year
}

#[cfg(test)]
mod tests;
