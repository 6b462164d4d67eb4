//! The id recognizer: codes typed by the context word before them (member / patient /
//! MRN → PATIENT_ID; claim / policy / case ... → NON_PERSONAL_ID), and upper-case codes
//! without one.

use std::sync::LazyLock;

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{in_list, token_bounded, window_start};
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
            r"(?i)^[\s:#.,()\-]*(?:(?:no|nr|num|number|id|#)\.?[\s:#.,()\-]*)?(?:(?:is|was|remains|is[ \t]+now|will[ \t]+be|=)[\s:]*)?$",
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
                let line_start = wide_from == 0 || text[..wide_from].ends_with('\n');
                if line_start && wide.trim_end().ends_with(':') {
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
    let words: Vec<String> = text[from..start]
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_ascii_lowercase)
        .collect();
    let Some((last, before)) = words.split_last() else {
        return false;
    };
    text[..start].ends_with(' ')
        && matches!(last.as_str(), "against" | "under")
        && before
            .iter()
            .rev()
            .take(5)
            .any(|w| VERBS.contains(&w.as_str()))
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
/// policy"; not "our policy", the writer's firm's).
fn held_by_a_person(window: &str, at: usize, word: &str) -> bool {
    const POSSESSIVES: [&str; 5] = ["his", "her", "their", "my", "your"];
    if !HELD.iter().any(|h| word.eq_ignore_ascii_case(h)) {
        return false;
    }
    let before = window[..at].trim_end_matches([' ', '\t']);
    if before.len() == window[..at].len() {
        return false;
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
            let line_from = (from == 0 || text[..from].ends_with('\n')).then_some(from);
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
mod tests {
    use super::super::tests::{find, has, run};

    #[test]
    fn a_code_in_digit_groups_after_am_or_pm_is_an_id_not_a_time() {
        // At the end of a line or of the text, after a label, or before its holder.
        for text in [
            "Member no.: AM 860 151 420",
            "**Member no.:** AM 860 151 420  \n**Address:** 4 Felixbaan",
            "Policy PM 112 904 377 is held jointly by Ann Smith and Bob Smith.",
        ] {
            let items = run(text);
            assert!(
                items.iter().any(|i| i.entity_type == "PATIENT_ID"
                    && (i.normalized == "AM860151420" || i.normalized == "PM112904377")),
                "{text}: {items:?}"
            );
        }
        // A time with one group after it is no code.
        let items = run("The call came at 10 AM 45 minutes late.");
        assert!(
            !items.iter().any(|i| i.entity_type.ends_with("_ID")),
            "{items:?}"
        );
    }

    #[test]
    fn a_labelled_code_in_brackets_after_a_name_is_the_persons() {
        let items = run("Payroll correction for Ingrid Solvang (ID E-402893): June.");
        assert!(has(&items, "PATIENT_ID", "E-402893"), "{items:?}");
        let items = run("Seen: Ingrid Solvang (Staff no. 882104) today.");
        assert!(has(&items, "PATIENT_ID", "882104"), "{items:?}");
        // A hospital number; a verb between the context word and the id.
        let items = run("Pt name: Ingrid Solvang. Hosp no. E46-BY7194.");
        assert!(has(&items, "PATIENT_ID", "E46-BY7194"), "{items:?}");
        let items = run("Your employee number remains 340180.");
        assert!(has(&items, "PATIENT_ID", "340180"), "{items:?}");
        // A code whose letters are a label's is one code.
        let items = run("Absence log - Ingrid Solvang (EMP36188): 3 days.");
        assert!(has(&items, "PATIENT_ID", "EMP36188"), "{items:?}");
    }

    #[test]
    fn ids_typed_by_context() {
        let items = run("Member ID: MBR-448213    Claim no. CLM-2024-00917");
        let m = find(&items, "PATIENT_ID", "MBR-448213").expect("member id");
        assert_eq!(m.normalized, "MBR448213");
        assert!((m.relevance - 1.0).abs() < 1e-9);
        let c = find(&items, "NON_PERSONAL_ID", "CLM-2024-00917").expect("claim");
        assert_eq!(c.normalized, "CLM202400917");
    }

    #[test]
    fn id_variants() {
        let items = run(
            "Member: mbr 448213. MRN: A1234567. Related Claim: CLM 2024 0788120. \
             Patient Reference: HX5521907. Case 2024-113 was opened.",
        );
        assert!(has(&items, "PATIENT_ID", "mbr 448213"), "{items:?}");
        assert!(has(&items, "PATIENT_ID", "A1234567"));
        assert!(has(&items, "NON_PERSONAL_ID", "CLM 2024 0788120"));
        assert!(has(&items, "PATIENT_ID", "HX5521907"));
        assert!(has(&items, "NON_PERSONAL_ID", "2024-113"));
    }

    #[test]
    fn personal_ids_of_employees_students_charts_and_licences() {
        for (text, id) in [
            ("Employee No. 004417 signed the form.", "004417"),
            ("Her chart number is 55-0192-33.", "55-0192-33"),
            (
                "Driver's license D1234-5678-9012 was copied.",
                "D1234-5678-9012",
            ),
            ("Student ID: 2021-88417", "2021-88417"),
            ("Payroll number 882134 was updated.", "882134"),
            ("Membership no: 0044-7781-22", "0044-7781-22"),
        ] {
            let items = run(text);
            assert!(has(&items, "PATIENT_ID", id), "{text}: {items:?}");
        }
        // A code whose letters are separated by slashes ("HR/2024/0113").
        let items = run("Case ref: HR/2024/0113");
        assert!(has(&items, "NON_PERSONAL_ID", "HR/2024/0113"), "{items:?}");
        // A US court's docket number, whole; a time range is none.
        let items = run("Case No. 2:21-cv-01234-JLR was filed.");
        assert!(
            has(&items, "NON_PERSONAL_ID", "2:21-cv-01234-JLR"),
            "{items:?}"
        );
        assert!(run("The meeting ran 2:30-3:15 pm.").is_empty());
    }

    #[test]
    fn ids_written_against_a_name_are_the_persons() {
        for (text, id) in [
            (
                "We spoke with Harold Brennan (PNS987623) today.",
                "PNS987623",
            ),
            ("Referral for Ines Carvalho (806-787-621).", "806-787-621"),
            (
                "Lab results for TCS653020 (Rosa Zuidweg) were sent.",
                "TCS653020",
            ),
            ("Please log the hours against EMP65911.", "EMP65911"),
            // Digit groups parted by spaces in brackets after the name.
            (
                "09:20 Marek Lind (YB 337 746 985); 09:40 …",
                "YB 337 746 985",
            ),
            ("Seen: Harold Brennan (774 164 897).", "774 164 897"),
        ] {
            let items = run(text);
            assert!(has(&items, "PATIENT_ID", id), "{text}: {items:?}");
        }
        // A name and its code in one pair of brackets; a code beside a name in the
        // fields of a record line.
        for (text, id) in [
            ("Re: leave request (Lena Quist, EMP05000)", "EMP05000"),
            (
                "Results: 424-068-262 / Lena Quist / 04/07/1979",
                "424-068-262",
            ),
            (
                "<tr><td>Lena Quist</td><td>258724</td><td>x</td></tr>",
                "258724",
            ),
            ("Lena Quist | QX-88123 | ward 4", "QX-88123"),
        ] {
            let items = run(text);
            assert!(has(&items, "PATIENT_ID", id), "{text}: {items:?}");
        }
        // A date beside a name is no id.
        let items = run("Seen: Lena Quist / 04/07/1979 / ward 4");
        assert!(
            !items.iter().any(|i| i.entity_type == "PATIENT_ID"),
            "{items:?}"
        );
        // A phone by its form in brackets after a name stays a phone.
        let items = run("Regional manager: Arjun Okafor (303-555-0187).");
        assert!(has(&items, "PHONE_NUMBER", "303-555-0187"), "{items:?}");
        // The issue's own example: a claim word before the name does not make the
        // person's code a claim number.
        let items = run("Claim submitted for Harold Brennan (PR-1234-567).");
        assert!(has(&items, "PATIENT_ID", "PR-1234-567"), "{items:?}");
        // A year and a claim number keep what they are.
        let items = run("Harold Brennan (1952) filed claim CLM-2024-00917 (Harold Brennan).");
        assert!(
            has(&items, "NON_PERSONAL_ID", "CLM-2024-00917"),
            "{items:?}"
        );
        assert!(
            items
                .iter()
                .all(|i| i.original != "1952" || i.entity_type != "PATIENT_ID")
        );
    }

    /// National and insurance numbers of other countries after their name, and digit
    /// groups parted by spaces right after a context word (invented numbers).
    #[test]
    fn national_numbers_and_spaced_digits_after_a_context_word() {
        for (text, id) in [
            ("Policyholder no. 88-1234567-01 renewed.", "88-1234567-01"),
            ("DL# D1234567 was scanned.", "D1234567"),
            ("Her tax file number 123 456 782 is on file.", "123 456 782"),
            ("BSN 123456782 checked.", "123456782"),
            ("Medicare card 2123 45670 1 presented.", "2123 45670 1"),
            ("SIN 046 454 286 provided.", "SIN 046 454 286"),
            // A comma between the context word and the number; "staff" alone.
            ("Her employee number, 88341, is on the badge.", "88341"),
            ("Staff #A-20931 was on shift.", "A-20931"),
            // A prefix that is also an abbreviation, before three groups of three.
            ("**Member no.:** RX 946 077 581", "RX 946 077 581"),
        ] {
            let items = run(text);
            assert!(has(&items, "PATIENT_ID", id), "{text}: {items:?}");
        }
        // Spaced digits without a context word, or too few, are no id.
        let items = run("Dispense Rx 500 mg daily. Budget USD 125 000 000 agreed.");
        assert!(
            items.iter().all(|i| !i.entity_type.ends_with("_ID")),
            "{items:?}"
        );
        let items = run("Rooms 12 14 and 16 were cleaned; the member paid 12 50.");
        assert!(
            items.iter().all(|i| !i.entity_type.ends_with("_ID")),
            "{items:?}"
        );
    }

    #[test]
    fn context_free_ids_have_lower_relevance() {
        let items = run("Subject: Escalation – repeat fault, TCK-558201");
        let t = find(&items, "NON_PERSONAL_ID", "TCK-558201").expect("ticket");
        assert!((t.relevance - 0.7).abs() < 1e-9);
    }

    #[test]
    fn plain_numbers_money_and_codes_are_not_ids() {
        let items = run(
            "Claims must be received within 180 days. Charge $14,880.00 (CPT 25607, \
             ICD-10 S52.502A). Rule 2165 applies. Total 8.25% at 16:42. Call 911.",
        );
        assert!(
            items.iter().all(|i| !i.entity_type.ends_with("_ID")),
            "{items:?}"
        );
    }

    #[test]
    fn a_policy_after_a_possessive_is_the_persons_own() {
        let items = run("Mutia's policy number is YKZ224570494.");
        assert!(has(&items, "PATIENT_ID", "YKZ224570494"), "{items:?}");
        let items = run("Please quote your account no. 55082478 when you call.");
        assert!(has(&items, "PATIENT_ID", "55082478"), "{items:?}");
        // The writer's own firm's policy, or a policy without a holder, is no person's.
        let items = run("Under our policy number GP-22987XL the excess is waived.");
        assert!(has(&items, "NON_PERSONAL_ID", "GP-22987XL"), "{items:?}");
        let items = run("Coverage under policy number INS-90876-23A continues.");
        assert!(has(&items, "NON_PERSONAL_ID", "INS-90876-23A"), "{items:?}");
    }
}
