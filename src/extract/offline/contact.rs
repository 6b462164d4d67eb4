//! Contact recognizers: e-mail addresses and phone numbers (formatted ones anywhere,
//! bare digit runs only after a phone context word).

use std::sync::LazyLock;

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{token_bounded, window_start};

const EMAIL: RelevanceRow = RelevanceRow {
    matches: "e-mail address",
    entity_type: "EMAIL",
    relevance: Relevance::Fixed(1.0),
};
const PHONE: RelevanceRow = RelevanceRow {
    matches: "phone, `(555) 010-4417`, `555-010-4417`, `555.010.4417`, `+1 555 010 4417`, `(02) 9374 4000`",
    entity_type: "PHONE_NUMBER",
    relevance: Relevance::Fixed(1.0),
};
const PHONE_IN_CONTEXT: RelevanceRow = RelevanceRow {
    matches: "phone, bare 10/11 digits, `555-0104` or `07700 900123` after a phone context word (≤ 40 chars)",
    entity_type: "PHONE_NUMBER",
    relevance: Relevance::Fixed(0.85),
};

struct Patterns {
    email: Regex,
    phone: Regex,
    phone_loose: Regex,
    phone_ctx: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    let phone = Regex::new(concat!(
        r"(?:\+\d{1,3}[ .-]?|1[ .-]?)?\(\d{3}\)[ .-]?\d{3}[ .-]\d{4}",
        r"|(?:\+\d{1,3}[ .-]|1[ .-])?\d{3}[ .-]\d{3}[ .-]\d{4}",
        r"|\+\d{1,3}(?:[ .-]?\d{2,4}){2,5}",
        // A trunk prefix in brackets: "(02) 9374 4000", "(020) 7946 0958", "(0161) 496 0000".
        r"|\(0\d{1,4}\)[ .-]?\d{3,4}[ .-]?\d{3,4}",
    ))?;
    Ok(Patterns {
        email: Regex::new(
            r"(?i)(?-u:\b)[a-z0-9][a-z0-9._%+-]*@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,24}(?-u:\b)",
        )?,
        phone,
        phone_loose: Regex::new(
            r"(?-u:\b)(?:\d{10,11}|\d{3}[-.]\d{4}|0\d{2,4}[ -]\d{6}|0\d{2,4}[ -]\d{3,4}[ -]\d{3,4})(?-u:\b)",
        )?,
        phone_ctx: Regex::new(
            r"(?i)(?-u:\b)(?:phone|tel|telephone|cell|mobile|fax|call(?:s|ed|er|back|ing)?|number|contact|text|sms|ph|reach(?:ed)?|dial|ring|landline|whatsapp)(?-u:\b)",
        )?,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

/// E-mail addresses.
pub(super) struct Email {
    patterns: &'static Patterns,
}

impl Email {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Email {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Email {
    fn name(&self) -> &'static str {
        "email"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[EMAIL]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        for m in self.patterns.email.find_iter(ctx.text) {
            ctx.push(cands, (m.start(), m.end()), &EMAIL, Tier::Email);
        }
    }
}

/// Phone numbers: formatted ones anywhere, bare digit runs after a context word.
pub(super) struct Phone {
    patterns: &'static Patterns,
}

impl Phone {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Phone {
            patterns: PATTERNS.as_ref()?,
        })
    }
}

impl Recognizer for Phone {
    fn name(&self) -> &'static str {
        "phone"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[PHONE, PHONE_IN_CONTEXT]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let (text, p) = (ctx.text, self.patterns);
        for m in p.phone.find_iter(text) {
            let s = m.as_str();
            if !token_bounded(text, m.start(), m.end()) {
                continue;
            }
            // 555-010-4417 / 555.010.4417 / 555 010 4417: one separator throughout.
            if !s.contains('(') && !s.starts_with('+') {
                let seps: Vec<char> = s.chars().filter(|c| !c.is_ascii_digit()).collect();
                if seps.windows(2).any(|w| w[0] != w[1]) {
                    continue;
                }
            }
            let digits = s.chars().filter(char::is_ascii_digit).count();
            if !(7..=15).contains(&digits) {
                continue;
            }
            ctx.push(cands, (m.start(), m.end()), &PHONE, Tier::Phone);
        }
        for m in p.phone_loose.find_iter(text) {
            if !token_bounded(text, m.start(), m.end()) {
                continue;
            }
            let from = window_start(text, m.start(), 40, 0);
            if !p.phone_ctx.is_match(&text[from..m.start()]) {
                continue;
            }
            ctx.push(cands, (m.start(), m.end()), &PHONE_IN_CONTEXT, Tier::Phone);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{find, has, run};

    #[test]
    fn emails() {
        let items = run("Respondent email: mquintero.hale@example.com, cc Ops.");
        let e = find(&items, "EMAIL", "mquintero.hale@example.com").expect("email");
        assert_eq!(e.normalized, "mquintero.hale@example.com");
        assert!(e.relevance >= 0.9);
    }

    #[test]
    fn phones_in_common_formats() {
        let text = "Phone: (555) 010-4417, cell 555-010-4417, fax 555.010.4417, \
                    abroad +1 555 010 4417. Caller (via interpreter): 5035550121.";
        let items = run(text);
        for p in [
            "(555) 010-4417",
            "555-010-4417",
            "555.010.4417",
            "+1 555 010 4417",
        ] {
            let i = find(&items, "PHONE_NUMBER", p).unwrap_or_else(|| panic!("{p}: {items:?}"));
            assert!(i.normalized.ends_with("5550104417"));
        }
        assert!(has(&items, "PHONE_NUMBER", "5035550121"));
        // A trunk prefix in brackets, outside North America.
        let items = run("Ring (02) 9374 4000 or (0161) 496 0000 today.");
        assert!(has(&items, "PHONE_NUMBER", "(02) 9374 4000"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "(0161) 496 0000"), "{items:?}");
    }

    #[test]
    fn phones_skip_dates_money_and_ids() {
        let items = run("Paid $14,880.00 on 2024-08-22 for claim CLM-2024-0915532 at 16:42.");
        assert!(
            items.iter().all(|i| i.entity_type != "PHONE_NUMBER"),
            "{items:?}"
        );
    }
}
