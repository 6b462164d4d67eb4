//! Contact recognizers: e-mail addresses and phone numbers (formatted ones anywhere,
//! bare digit runs only after a phone context word).

use std::sync::LazyLock;

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};
use super::text::{glued_after, glued_before, next_char, opens_line, prev_char, window_start};

const EMAIL: RelevanceRow = RelevanceRow {
    matches: "e-mail address",
    entity_type: "EMAIL",
    relevance: Relevance::Fixed(1.0),
};
const PHONE: RelevanceRow = RelevanceRow {
    matches: "phone by its form: `(555) 010-4417`, `555.010.4417`, `+44 (0)20 7946 0958`, `0049 30 901820`, `02 96 66 12 60`, `(02) 9374 4000`, `07700900123`, an extension (`x704`)",
    entity_type: "PHONE_NUMBER",
    relevance: Relevance::Fixed(1.0),
};
const PHONE_IN_CONTEXT: RelevanceRow = RelevanceRow {
    matches: "phone, any other run of 7–15 digits (`5035550121`, `555-0104`, `609 141 777`) after a phone context word (≤ 40 chars), in a signature, closing a contact line, or in brackets after a name in a list of people and their phones",
    entity_type: "PHONE_NUMBER",
    relevance: Relevance::Fixed(0.85),
};

struct Patterns {
    email: Regex,
    phone: Regex,
    extension: Regex,
    date_like: Regex,
    phone_ctx: Regex,
}

fn build_patterns() -> Result<Patterns, regex::Error> {
    Ok(Patterns {
        email: Regex::new(
            r"(?i)(?-u:\b)[a-z0-9][a-z0-9._%+-]*@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,24}(?-u:\b)",
        )?,
        // A run of digits with the separators phone numbers are written with (one space,
        // '.', '-', '/', brackets), a leading '+' or '(', and an extension; what it is
        // decides `classify`.
        phone: Regex::new(
            r"(?i)[+(]?\+?\d(?:[\d().\-/]| [\d(])*\d\)?(?: ?(?:x|ext\.?|extn\.?|extension) ?\d{1,6}(?-u:\b))?",
        )?,
        extension: Regex::new(r"(?i) ?(?:x|ext\.?|extn\.?|extension) ?\d{1,6}$")?,
        date_like: Regex::new(concat!(
            r"^(?:\d{1,2}[./-]\d{1,2}[./-](?:\d{2}|\d{4})|\d{4}[./-]\d{1,2}[./-]\d{1,2}",
            r"|(?:19|20)\d\d ?[-/] ?(?:19|20)\d\d|\d{1,2}[./-]\d{4})$"
        ))?,
        phone_ctx: Regex::new(
            // Parted from other letters and digits, by an underscore too: a machine's key
            // ("action=update_phone new=…", "mobile_no: …").
            r"(?i)(?:^|[^\p{L}\p{N}])(?:phone|tel|telephone|cell|mobile|fax|call(?:s|ed|er|back|ing)?|number|contact|text(?:ed)?|txt|sms|direct[ \t]+line|ddi|ph|reach(?:ed)?|dial(?:led)?|ring|landline|whatsapp|voicemail|voice mail|vm|mob|hotline|ext|extn|extension|next[ \t]+of[ \t]+kin|nok|emergency|telefon|telefono|telefone|handy|portable|cellulare|tél|teléfono|móvil)(?:[^\p{L}\p{N}]|$)",
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
            let (mut start, mut end) = (m.start(), m.end());
            let run = m.as_str();
            let (opens, closes) = (run.matches('(').count(), run.matches(')').count());
            if run.starts_with('(') && run.ends_with(')') && outer_pair(run) {
                // "(0156205752)": the brackets enclose the number, they are not part of it.
                (start, end) = (start + 1, end - 1);
            } else if run.ends_with(')') && opens < closes {
                // A closing bracket is the number's only when it opened it.
                end -= 1;
            }
            if run.starts_with('(') && opens > closes {
                // "(+1-767-423-7439x6088)": the bracket opens a parenthesis.
                start += 1;
            }
            let s = &text[start..end];
            if !phone_bounded(text, start, end) {
                continue;
            }
            let Some(mut form) = classify(p, s) else {
                continue;
            };
            // "FY 008 268 192": the digits of a lettered id, not a phone by their form.
            if form == Form::Phone && !s.starts_with(['+', '(']) && id_prefix_before(text, start) {
                form = Form::InContext;
            }
            match form {
                Form::Phone => ctx.push(cands, (start, end), &PHONE, Tier::Phone),
                Form::InContext => {
                    let from = window_start(text, start, 60, 0);
                    if p.phone_ctx.is_match(&text[from..start])
                        || signature_line(text, start, end)
                        || contact_field(text, start, end)
                        || bracketed_in_list(text, start, end)
                        || grouped_in_brackets_after_name(text, start, end)
                        || message_header(text, start, end)
                    {
                        ctx.push(cands, (start, end), &PHONE_IN_CONTEXT, Tier::PhoneGuess);
                    }
                }
            }
        }
    }
}

/// The number `start..end` is a text message's sender or recipient: "To 9609512401:
/// Reminder - appt Tue", "From: 07700900461" opening a line, a colon or the line's end
/// after it.
fn message_header(text: &str, start: usize, end: usize) -> bool {
    // (The window stops at the line's start, or short of it on a long line.)
    let from = window_start(text, start, 12, 0);
    if !opens_line(text, from) {
        return false;
    }
    let word = text[from..start].trim().trim_end_matches(':').trim_end();
    let after = text[end..].trim_start_matches(' ');
    ["to", "from"].iter().any(|w| word.eq_ignore_ascii_case(w))
        && (after.starts_with(':') || after.is_empty() || after.starts_with(['\n', '\r']))
}

/// The number `start..end` is alone on its line in a signature: a closing ("Kind
/// regards,") or an e-mail address within the five lines before or after it.
fn signature_line(text: &str, start: usize, end: usize) -> bool {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    if !text[line_start..start].trim().is_empty() || !text[end..line_end].trim().is_empty() {
        return false;
    }
    const CLOSINGS: [&str; 9] = [
        "regards",
        "sincerely",
        "thanks",
        "thank you",
        "best",
        "cheers",
        "yours",
        "warmly",
        "respectfully",
    ];
    let before = text[..line_start].lines().rev().take(5);
    let after = text[line_end..].lines().take(5);
    before.chain(after).any(|l| {
        let l = l.trim().trim_end_matches([',', '.', '!']).to_lowercase();
        l.contains('@') && !l.contains(' ')
            || l.len() <= 24
                && CLOSINGS
                    .iter()
                    .any(|c| l == *c || l.ends_with(&format!(" {c}")))
    })
}

/// The number `start..end` is the last field of a line of fields parted by " - ", " | ",
/// " · " or " / " that opens with a capitalised word, or the last before an e-mail: a
/// contact line ("Lorena Tomescu (she/her) - Talent Acquisition - 6659833625", "Ana Ruiz
/// | Team Leader | 8215 8493", "Talent Acquisition | 008 0327824 | b.k@icloud.com").
fn contact_field(text: &str, start: usize, end: usize) -> bool {
    const SEPARATORS: [&str; 6] = [" - ", " | ", " \u{2013} ", " \u{b7} ", " / ", "\t"];
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let (before, after) = (&text[line_start..start], text[end..line_end].trim());
    let Some(sep) = SEPARATORS.iter().find(|s| before.ends_with(**s)) else {
        return false;
    };
    let head = before.trim_start();
    let mark = sep.trim_matches(' ');
    // ("Talent Acquisition | 008 0327824 | b.k@icloud.com": an e-mail as the last field.)
    let email_after = !mark.is_empty()
        && after.strip_prefix(mark).is_some_and(|r| {
            let r = r.trim();
            r.contains('@') && !r.contains(char::is_whitespace)
        });
    (after.is_empty() || email_after)
        && head.starts_with(char::is_uppercase)
        && head.matches(mark).count() + usize::from(email_after) >= 2
}

/// The number `start..end` fills the brackets after a name on a bulleted line, and the
/// line above or below is another such item with digits in its brackets: a list of
/// people and their phones ("- Anna Berg (9807.4051)⏎- Li Tao (+44 20 7946 0018)").
fn bracketed_in_list(text: &str, start: usize, end: usize) -> bool {
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[end..].find('\n').map_or(text.len(), |i| end + i);
    let item = |line: &str| {
        let l = line.trim();
        ["- ", "* ", "• ", "– "].iter().any(|b| l.starts_with(b)) && l.ends_with(')')
    };
    let named = text[line_start..start]
        .strip_suffix(" (")
        .is_some_and(|b| b.ends_with(char::is_alphabetic));
    if !named || text[end..line_end].trim() != ")" || !item(&text[line_start..line_end]) {
        return false;
    }
    let digits_in_brackets = |line: &str| {
        item(line)
            && line
                .rfind('(')
                .is_some_and(|i| line[i..].bytes().filter(u8::is_ascii_digit).count() >= 7)
    };
    let above = text[..line_start.saturating_sub(1)].rsplit('\n').next();
    let below = text.get(line_end + 1..).and_then(|t| t.split('\n').next());
    line_start > 0 && above.is_some_and(digits_in_brackets) || below.is_some_and(digits_in_brackets)
}

/// The number `start..end`, written in groups parted by blanks, dots or hyphens or with
/// its area code in brackets, fills the brackets after a capitalised word, or follows
/// it and a comma at the line's end: a person's number ("talk to Ana Ruiz (2358 0406)",
/// "Li Tao ((00703) 57427)", "executor Ana Ruiz, 8884.4728"); an id is one group.
fn grouped_in_brackets_after_name(text: &str, start: usize, end: usize) -> bool {
    let named_before = |gap: &str| {
        text[..start]
            .strip_suffix(gap)
            .and_then(|b| b.rsplit([' ', '\t', '\n']).next())
            .is_some_and(|w| {
                w.starts_with(char::is_uppercase) && w.chars().all(char::is_alphabetic)
            })
    };
    if grouped(&text[start..end], 2) && named_before(" (") && text[end..].starts_with(')') {
        return true;
    }
    // "executor Ana Ruiz, 8884.4728⏎": after the name and a comma, closing the line; no
    // group under three digits ("Ana Ruiz, 1234.56" is an amount), none parted by a
    // hyphen ("Queluz, 2785-123", "Salem, 97301-4567" are a town and its postcode).
    let line_ends = text[end..]
        .trim_start_matches([' ', '\t', '.'])
        .starts_with(['\n', '\r'])
        || text[end..].trim_end_matches('.').trim().is_empty();
    grouped(&text[start..end], 3)
        && !text[start..end].contains('-')
        && named_before(", ")
        && line_ends
}

/// Digits in groups parted by blanks, dots or hyphens ("2358 0406", "9964.6219"), seven
/// digits or more, no group shorter than `min` ("(3.5)" is a score).
fn grouped(s: &str, min: usize) -> bool {
    let groups: Vec<&str> = s.split([' ', '.', '-']).collect();
    let digits = s.bytes().filter(u8::is_ascii_digit).count();
    groups.len() >= 2
        && digits >= 7
        && groups.iter().all(|g| {
            let g = g.trim_matches(['(', ')']);
            g.len() >= min && g.bytes().all(|b| b.is_ascii_digit())
        })
}

/// Whether the bracket opening `run` closes at its end: "(0156205752)", "(+33 (0)2 61 27
/// 79 50)", not "(555) 010-4417)".
fn outer_pair(run: &str) -> bool {
    let mut depth = 0i32;
    for (i, b) in run.bytes().enumerate() {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return i + 1 == run.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// [`token_bounded`], except that a comma or a semicolon on either side is a boundary: a
/// run of seven or more digits is not the next group of a thousands-separated number, and
/// in CSV cells ("1943,6920792442") the comma separates fields.
fn phone_bounded(text: &str, start: usize, end: usize) -> bool {
    let cell_edge = |c: Option<char>| matches!(c, Some(',' | ';'));
    (cell_edge(prev_char(text, start)) || !glued_before(text, start))
        && (cell_edge(next_char(text, end)) || !glued_after(text, end))
}

/// How sure a digit run is a phone number by its form alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Form {
    /// A phone number wherever it stands.
    Phone,
    /// A phone number only after a phone context word.
    InContext,
}

/// What a run of digits and separators is: a phone number by its form (an international
/// `+` or `00` prefix, a trunk `0` with grouped digits, `(0)`, an extension, the North
/// American 3-3-4 shapes), a number that is one only in context, or neither (too few or
/// too many digits, a date, a year range, unbalanced brackets, mixed separators).
fn classify(p: &Patterns, s: &str) -> Option<Form> {
    let (core, ext) = match p.extension.find(s) {
        Some(m) => (s[..m.start()].trim_end(), true),
        None => (s, false),
    };
    let digits = core.bytes().filter(u8::is_ascii_digit).count();
    if !(7..=15).contains(&digits) || p.date_like.is_match(core) {
        return None;
    }
    let mut open = false;
    for b in core.bytes() {
        match b {
            b'(' if open => return None,
            b'(' => open = true,
            b')' if !open => return None,
            b')' => open = false,
            _ => {}
        }
    }
    if open {
        return None;
    }
    let plus_at = |i: usize| i == 0 || (i == 1 && core.starts_with('('));
    if core
        .bytes()
        .enumerate()
        .any(|(i, b)| b == b'+' && !plus_at(i))
    {
        return None;
    }
    let is_sep = |b: u8| matches!(b, b' ' | b'.' | b'-' | b'/');
    let bytes = core.as_bytes();
    if bytes.windows(2).any(|w| is_sep(w[0]) && is_sep(w[1])) {
        return None;
    }
    let mut marks = bytes.iter().filter(|&&b| matches!(b, b'.' | b'-' | b'/'));
    if let Some(first) = marks.next()
        && marks.any(|b| b != first)
    {
        return None;
    }
    let groups = core
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .count();
    let lead = core.trim_start_matches(['(', '+']);
    let plus = core.starts_with('+') || core.starts_with("(+");
    let strong = (plus && digits >= 8)
        || ext
        || core.contains("(0)")
        || (lead.starts_with("00") && digits >= 11)
        || north_american(core)
        || (lead.starts_with('0')
            && !lead.starts_with("00")
            && (9..=11).contains(&digits)
            && (groups >= 2 || digits >= 10));
    Some(if strong { Form::Phone } else { Form::InContext })
}

/// `(555) 010-4417`, `555-010-4417`, `555.010.4417`, `555 010 4417`, with an optional
/// `1` or `+1` before: one separator throughout.
fn north_american(core: &str) -> bool {
    // "134-583-0188" is three groups as written: its "1" is no country code.
    three_three_four(core)
        || core
            .strip_prefix("+1")
            .or_else(|| core.strip_prefix('1'))
            .is_some_and(|r| three_three_four(r.trim_start_matches([' ', '.', '-'])))
}

/// Three groups of 3, 3 and 4 digits, one separator throughout or the first group in
/// brackets.
fn three_three_four(rest: &str) -> bool {
    let groups: Vec<&str> = rest
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .collect();
    if groups.iter().map(|g| g.len()).collect::<Vec<_>>() != [3, 3, 4] {
        return false;
    }
    if rest.starts_with('(') {
        return rest.get(4..5) == Some(")");
    }
    let seps: Vec<char> = rest.chars().filter(|c| !c.is_ascii_digit()).collect();
    seps.len() == 2 && seps[0] == seps[1]
}

/// Whether a short all-capitals code and one space come just before `start` ("FY 008
/// 268 192"), so the digits after them belong to an id.
fn id_prefix_before(text: &str, start: usize) -> bool {
    let Some(before) = text.get(..start).and_then(|b| b.strip_suffix(' ')) else {
        return false;
    };
    let code: String = before
        .chars()
        .rev()
        .take_while(char::is_ascii_uppercase)
        .collect();
    (1..=4).contains(&code.len())
        && !before[..before.len() - code.len()]
            .chars()
            .next_back()
            .is_some_and(char::is_alphanumeric)
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

    /// Phones as other countries and faker-like generators write them, anywhere; bare
    /// or unusual runs only after a context word.
    #[test]
    fn phones_of_many_countries_by_their_form() {
        let text = "Phones: (591)341-7776, 206.269.0743x9150, +1-537-640-6812x41586, \
                    +44(0)115 4960914, (0161) 4960066, 106-690-7439 x150, 02 4177 7631, \
                    +61.437.406.812, +64 6 143-9150, +49 (0) 9141 777631, 00669 074391, \
                    +33 (0)1 41 63 60 83, 07 88 35 33 74, 08-170 669 07, 08124158683.";
        let items = run(text);
        for p in [
            "(591)341-7776",
            "206.269.0743x9150",
            "+1-537-640-6812x41586",
            "+44(0)115 4960914",
            "(0161) 4960066",
            "106-690-7439 x150",
            "02 4177 7631",
            "+61.437.406.812",
            "+64 6 143-9150",
            "+49 (0) 9141 777631",
            "00669 074391",
            "+33 (0)1 41 63 60 83",
            "07 88 35 33 74",
            "08-170 669 07",
            "08124158683",
        ] {
            assert!(has(&items, "PHONE_NUMBER", p), "{p}: {items:?}");
        }
        // In brackets, in CSV cells, after a voicemail.
        let items = run(
            "- Ana Paz (+1-767-423-7439x6088)\n1960-05-28,+3186-6156058\n\
                         voicemail left on 8544282882",
        );
        for p in ["+1-767-423-7439x6088", "+3186-6156058", "8544282882"] {
            assert!(has(&items, "PHONE_NUMBER", p), "{p}: {items:?}");
        }
        // A bare number alone on its line in a signature.
        let items = run("Kind regards,\n\nAna Paz\nCase Officer\n3494321201\n");
        assert!(has(&items, "PHONE_NUMBER", "3494321201"), "{items:?}");
        let items = run("Total paid\n3494321201\nend of report");
        assert!(!has(&items, "PHONE_NUMBER", "3494321201"), "{items:?}");
        // Three groups of 3-3-4 whose first digit is a 1; a number after "ext.".
        let items = run("Ana Paz | Team Leader | 124-583-0177
Bo Lind | ext. 45512652");
        for p in ["124-583-0177", "45512652"] {
            assert!(has(&items, "PHONE_NUMBER", p), "{p}: {items:?}");
        }
        // Dates, year ranges, a bare number without context, a lettered id.
        let items = run("On 03.12.2024 and 1990-2020 we paid 4244399738; member FY 008 268 192.");
        assert!(
            items.iter().all(|i| i.entity_type != "PHONE_NUMBER"),
            "{items:?}"
        );
    }

    #[test]
    fn phones_skip_dates_money_and_ids() {
        let items = run("Paid $14,880.00 on 2024-08-22 for claim CLM-2024-0915532 at 16:42.");
        assert!(
            items.iter().all(|i| i.entity_type != "PHONE_NUMBER"),
            "{items:?}"
        );
    }

    #[test]
    fn a_number_closing_a_contact_line_is_a_phone() {
        let items = run("Lorena Tomescu (she/her) - Talent Acquisition - 6659833625");
        assert!(has(&items, "PHONE_NUMBER", "6659833625"), "{items:?}");
        let items = run("Ana Ruiz | Team Leader | 8215 8493\nNext line.");
        assert!(has(&items, "PHONE_NUMBER", "8215 8493"), "{items:?}");
        // One field before it, or words after it: no contact line.
        let items = run("Invoice - 6659833625");
        assert!(!has(&items, "PHONE_NUMBER", "6659833625"), "{items:?}");
        let items = run("Batch - March - 6659833625 units shipped");
        assert!(!has(&items, "PHONE_NUMBER", "6659833625"), "{items:?}");
    }

    #[test]
    fn a_number_on_file_after_a_contact_word_is_a_phone() {
        // "on file" says recorded, not a file's number.
        let items = run("Treating notes describe a burn. Contact on file: 6527840527.");
        assert!(has(&items, "PHONE_NUMBER", "6527840527"), "{items:?}");
        let items = run("See File 65278405 for the notes.");
        assert!(!has(&items, "PHONE_NUMBER", "65278405"), "{items:?}");
    }

    #[test]
    fn a_number_after_a_machine_key_naming_a_phone_is_a_phone() {
        // A key with underscores: "phone" is a word of it.
        let items = run("ts=2021-05-02T09:10 user=\"kdm\" action=update_phone new=3049218876");
        assert!(has(&items, "PHONE_NUMBER", "3049218876"), "{items:?}");
        let items = run("mobile_no: 3049218876");
        assert!(has(&items, "PHONE_NUMBER", "3049218876"), "{items:?}");
        // Not inside another word ("telephonic" aside, "hotel" is no "tel").
        let items = run("hotel_booking ref=3049218876");
        assert!(!has(&items, "PHONE_NUMBER", "3049218876"), "{items:?}");
    }

    #[test]
    fn a_grouped_number_in_brackets_after_a_name_is_a_phone() {
        let items = run("Any swaps, talk to Ana Ruiz (4127 0893). Thanks");
        assert!(has(&items, "PHONE_NUMBER", "4127 0893"), "{items:?}");
        let items = run("Any swaps, talk to Ana Ruiz (4127.0893). Thanks");
        assert!(has(&items, "PHONE_NUMBER", "4127.0893"), "{items:?}");
        let items = run("Estate of Li Tao - executor Ana Ruiz, 8884.4728\nNext line");
        assert!(has(&items, "PHONE_NUMBER", "8884.4728"), "{items:?}");
        let items = run("Posted to Avenida Coelho, S/N, Queluz, 2785-123");
        assert!(
            !items.iter().any(|i| i.entity_type == "PHONE_NUMBER"),
            "{items:?}"
        );
        let items = run("Paid to Ana Ruiz, 12345.67");
        assert!(
            !items.iter().any(|i| i.entity_type == "PHONE_NUMBER"),
            "{items:?}"
        );
        let items = run("Scores: Ana Ruiz (12.5), Li Tao (9.75).");
        assert!(
            !items.iter().any(|i| i.entity_type == "PHONE_NUMBER"),
            "{items:?}"
        );
        let items = run("Any swaps, talk to Ana Ruiz ((00412) 70893). Thanks");
        assert!(has(&items, "PHONE_NUMBER", "(00412) 70893"), "{items:?}");
        // One group is an id's shape; a figure after a word in lower case is no phone.
        let items = run("Any swaps, talk to Ana Ruiz (41270893). Thanks");
        assert!(!has(&items, "PHONE_NUMBER", "41270893"), "{items:?}");
        let items = run("Totals for the year (4127 0893) were down.");
        assert!(!has(&items, "PHONE_NUMBER", "4127 0893"), "{items:?}");
    }

    #[test]
    fn a_number_closing_a_tab_separated_row_is_a_phone() {
        let items =
            run("Ana Pop\t15 February 1945\t3326505884\nIon Rusu\tMay 21, 1970\t4455667788");
        assert!(has(&items, "PHONE_NUMBER", "3326505884"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "4455667788"), "{items:?}");
    }

    #[test]
    fn a_number_in_brackets_after_a_name_in_a_list_of_phones_is_a_phone() {
        let items = run("- Ana Berg (+1-702-455-2265)\n- Li Tao (4634 4957)\nBoth confirmed.");
        assert!(has(&items, "PHONE_NUMBER", "4634 4957"), "{items:?}");
        let items = run("- K. Moss (441-583-3132x871)\n- Eva Lund (9807.4051)");
        assert!(has(&items, "PHONE_NUMBER", "9807.4051"), "{items:?}");
        // Alone, or in a list of anything else, a bracketed number of one group is no
        // phone (in groups after a name it is one: `grouped_in_brackets_after_name`).
        let items = run("- Eva Lund (98074051)\n- Budget (draft)");
        assert!(!has(&items, "PHONE_NUMBER", "98074051"), "{items:?}");
        let items = run("- Invoice total (4634 4957)\n- Tax (2024)");
        assert!(!has(&items, "PHONE_NUMBER", "4634 4957"), "{items:?}");
    }
}
