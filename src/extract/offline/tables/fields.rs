//! Fields are one-row tables: a JSON pair, an XML element, a `Key: value` segment of a
//! record line, a form's line beside another (with or without its colon). The key is
//! read as a column's header ([`super::columns`]) and types the value as a cell under it
//! would be ([`super::push_cell`]).

use std::sync::LazyLock;

use regex::Regex;

use super::super::recognizer::{Candidate, Context, Tier};
use super::columns::{Column, column_of};
use super::push_cell;

/// Typed fields (see the module documentation): JSON pairs, XML elements, then record
/// lines.
pub(super) fn fields(
    json_pair: &Regex,
    xml_element: &Regex,
    ctx: &Context<'_>,
    cands: &mut Vec<Candidate>,
) {
    let text = ctx.text;
    if text.contains("\":") || text.contains("\" :") {
        let mut pairs = Vec::new();
        for c in json_pair.captures_iter(text) {
            let (Some(k), Some(v)) = (c.name("k"), c.name("v").or_else(|| c.name("n"))) else {
                continue;
            };
            if let Some(column) = column_of(k.as_str()) {
                pairs.push((column, (v.start(), v.end())));
            }
        }
        push_fields(ctx, cands, pairs);
    }
    // XML elements: `<name>Ward, Richard</name>`, `<phone>…</phone>`.
    if text.contains("</") {
        let mut pairs = Vec::new();
        for c in xml_element.captures_iter(text) {
            let (Some(k), Some(v), Some(k2)) = (c.name("k"), c.name("v"), c.name("k2")) else {
                continue;
            };
            if k.as_str() != k2.as_str() {
                continue;
            }
            let lead = v.as_str().len() - v.as_str().trim_start().len();
            let t = v.as_str().trim();
            if let Some(column) = column_of(k.as_str())
                && !t.is_empty()
            {
                let vs = v.start() + lead;
                pairs.push((column, (vs, vs + t.len())));
            }
        }
        push_fields(ctx, cands, pairs);
    }
    // XML attributes: `<contact kind="mobile" value="…" owner="E-619179"/>`.
    if text.contains("=\"") && text.contains('<') {
        push_fields(ctx, cands, xml_attributes(text));
    }
    bare_form(ctx, cands);
    if !text.contains(':') && !text.contains("...") && !text.contains('…') {
        return;
    }
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut start = 0;
    for (n, line) in lines.iter().enumerate() {
        let s = start;
        start += line.len();
        let body = line.trim_end_matches(['\n', '\r']);
        if !body.contains([':', '.', '…']) || body.len() > 400 {
            continue;
        }
        // A lone `Key: value` line is a field in a form: a line beside it is one too
        // ("Surname: MELIS⏎First name(s): Ruben⏎Policy: …").
        let in_form = field_line(body)
            && (n > 0 && field_line(lines[n - 1])
                || lines.get(n + 1).is_some_and(|l| field_line(l)));
        let segments = record_segments(body);
        let mut typed = Vec::new();
        for &(a, b) in &segments {
            let seg = &body[a..b];
            let Some((key_end, value_start, leader)) = key_separator(seg) else {
                continue;
            };
            // "Claimant (name, address):", "Name (in full):": a key with a bracketed
            // instruction is a form's.
            let (key, qualified) = without_qualifier(without_list_number(seg[..key_end].trim()));
            // A lone `Key: value` line is prose as often as a field; a dot leader is not.
            if segments.len() < 2 && !leader && !in_form && !qualified {
                continue;
            }
            if key.is_empty() || key.len() > 32 || key.bytes().any(|c| c.is_ascii_digit()) {
                continue;
            }
            let value = &seg[value_start..];
            // "R. Tiernan (MMH-602-33158)": a note in brackets after the value is not
            // part of it (a code there is the person's, `id_beside_name`).
            let value = value.find(" (").map_or(value, |b| &value[..b]);
            let lead = value.len() - value.trim_start().len();
            let v = value.trim();
            if v.is_empty() {
                continue;
            }
            if let Some(column) = column_of(key) {
                let vs = s + a + value_start + lead;
                // "Ziggy Dam, 4 Elm Road, Derby", "Isella, Elodie, Faust-Gasse 7/7": the
                // name ends where the address starts.
                let v = match column {
                    Column::Name | Column::Person => name_before_address(v),
                    _ => v,
                };
                typed.push((column, (vs, vs + v.len())));
            }
        }
        // (A form's name may be on a line of its own: "Reg. No.: S80-PY1884⏎Name: …".)
        let named = typed.iter().any(|(c, _)| names_a_person(*c))
            || in_form && form_names_a_person(&lines, n);
        // A record line opened by a name without a key ("FATIMA NOLAN   DOB: …   ID:
        // …"): the line's birth date or person id says whose line it is.
        let personal = typed
            .iter()
            .any(|(c, _)| matches!(c, Column::Birth | Column::PersonId));
        if let Some(&(a, b)) = segments.first()
            && personal
            && !body[a..b].contains(':')
            && body[a..b].split_whitespace().count() >= 2
            && body[a..b]
                .split_whitespace()
                .all(|w| w.starts_with(char::is_uppercase))
        {
            push_cell(ctx, cands, Column::Name, true, (s + a, s + b), Tier::Field);
        }
        for (column, span) in typed {
            push_cell(ctx, cands, column, named || personal, span, Tier::Field);
        }
    }
}

/// A form whose colons were lost (as text copied from a PDF form loses them): two lines
/// or more in a row, each a key of one to three words and its value ("Surname Raju⏎
/// Forename Sathvik⏎Address 5 Leach Towers, St. Sherry").
fn bare_form(ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
    let text = ctx.text;
    let mut block: Vec<(Column, (usize, usize))> = Vec::new();
    let flush = |block: &mut Vec<(Column, (usize, usize))>, cands: &mut Vec<Candidate>| {
        if block.len() >= 2 {
            let named = block.iter().any(|(c, _)| names_a_person(*c));
            for &(column, span) in block.iter() {
                push_cell(ctx, cands, column, named, span, Tier::Field);
            }
        }
        block.clear();
    };
    // Lines of the right shape first (cheap); keys are read only in runs of two or more.
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0, |at, line| {
            let s = *at;
            *at += line.len();
            Some((s, line))
        })
        .collect();
    let shaped = |line: &str| {
        let body = line.trim();
        body.len() <= 112 && body.starts_with(char::is_uppercase) && !body.contains(':')
    };
    for (n, &(s, line)) in lines.iter().enumerate() {
        let in_run = shaped(line)
            && (n > 0 && shaped(lines[n - 1].1) || lines.get(n + 1).is_some_and(|l| shaped(l.1)));
        match in_run.then(|| bare_field(line)).flatten() {
            Some((column, (a, b))) => block.push((column, (s + a, s + b))),
            None => flush(&mut block, cands),
        }
    }
    flush(&mut block, cands);
}

/// One line of a form without colons: a key of one to three words (the first
/// capitalised, no digit) that names a column, then its value (capitalised or a number,
/// at most 80 bytes, no colon). The longest key wins ("Hospital number 55123").
fn bare_field(line: &str) -> Option<(Column, (usize, usize))> {
    let body = line.trim_end_matches(['\n', '\r']);
    let lead = body.len() - body.trim_start().len();
    let body = body.trim();
    if body.len() > 112 || body.contains(':') || !body.starts_with(char::is_uppercase) {
        return None;
    }
    let mut best = None;
    let mut key_end = 0;
    for _ in 0..3 {
        let rest = &body[key_end..];
        let Some(word_len) = rest.trim_start().find(' ') else {
            break;
        };
        let gap = rest.len() - rest.trim_start().len();
        key_end += gap + word_len;
        let key = &body[..key_end];
        if !key
            .chars()
            .all(|c| c.is_alphabetic() || c == ' ' || c == '.' || c == '\'')
        {
            break;
        }
        let value = body[key_end..].trim_start();
        if let Some(column) = column_of(key)
            && !value.is_empty()
            && value.len() <= 80
            && value.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
        {
            let vs = lead + body.len() - value.len();
            best = Some((column, (vs, vs + value.len())));
        }
    }
    best
}

/// The typed values of one JSON text or XML text: a generic `ID` counts where a name or
/// birth-date key is in the same text.
fn push_fields(
    ctx: &Context<'_>,
    cands: &mut Vec<Candidate>,
    pairs: Vec<(Column, (usize, usize))>,
) {
    let named = pairs.iter().any(|(c, _)| names_a_person(*c));
    for (column, span) in pairs {
        push_cell(ctx, cands, column, named, span, Tier::Field);
    }
}

/// The name at the start of a value that goes on with an address: its first one or two
/// comma-parted parts without a digit, when a part with a digit follows ("Ziggy Dam, 4
/// Elm Road" → "Ziggy Dam", "Isella, Elodie, Faust-Gasse 7/7" → "Isella, Elodie").
fn name_before_address(v: &str) -> &str {
    let mut end = 0;
    for (n, part) in v.split(", ").enumerate() {
        if part.bytes().any(|b| b.is_ascii_digit()) {
            return if n == 0 { v } else { &v[..end] };
        }
        if n == 2 {
            break;
        }
        end = if n == 0 {
            part.len()
        } else {
            end + 2 + part.len()
        };
    }
    v
}

/// A key without its bracketed instruction ("Claimant (name, address)" → "Claimant"),
/// and whether it had one.
fn without_qualifier(key: &str) -> (&str, bool) {
    match key
        .strip_suffix(')')
        .and_then(|k| k.rfind('(').map(|o| k[..o].trim_end()))
    {
        Some(core) if !core.is_empty() => (core, true),
        _ => (key, false),
    }
}

/// Where a field's key ends and its value starts in a segment: at the first colon, or
/// around a dot leader ("Full name ........ Ana Ruiz"; `true`).
fn key_separator(seg: &str) -> Option<(usize, usize, bool)> {
    let colon = seg.find(':');
    let leader = seg.find("...").or_else(|| seg.find('…'));
    match (colon, leader) {
        (Some(c), l) if l.is_none_or(|l| c < l) => Some((c, c + 1, false)),
        (_, Some(l)) => {
            let rest = &seg[l..];
            let len = rest.len() - rest.trim_start_matches(['.', '…', ' ']).len();
            Some((l, l + len, true))
        }
        _ => bare_key(seg),
    }
}

/// A short key written without a colon before its value in a record line's segment
/// ("ID P7008952", "DOB 19.05.1988", "MRN 0042117").
fn bare_key(seg: &str) -> Option<(usize, usize, bool)> {
    const KEYS: &[&str] = &[
        "id", "dob", "mrn", "nhs", "ssn", "nino", "d.o.b", "no", "nr",
    ];
    let end = seg.find(' ')?;
    let key = seg[..end].trim_end_matches(['.', '#']).to_ascii_lowercase();
    let value = seg[end..].trim_start();
    (KEYS.contains(&key.as_str()) && !value.is_empty() && value.split_whitespace().count() <= 4)
        .then_some((end, end + 1, false))
}

/// A line of a form: a short key opening it (one to four words, the first capitalised,
/// no digit), a colon, and a short value on the same line.
fn field_line(line: &str) -> bool {
    let body = line.trim_end_matches(['\n', '\r']).trim_start();
    let Some(c) = body.find(':') else {
        return false;
    };
    let (key, value) = (&body[..c], body[c + 1..].trim());
    // A key of a data file is an identifier: "family_name", "givenNames" (YAML, INI).
    let identifier = key.contains('_')
        && key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
        || key.starts_with(|c: char| c.is_ascii_lowercase())
            && key.bytes().all(|b| b.is_ascii_alphabetic())
            && key.bytes().any(|b| b.is_ascii_uppercase());
    !key.is_empty()
        && (key.starts_with(char::is_uppercase) || identifier)
        && key.len() <= 32
        && key.split_whitespace().count() <= 4
        && !key.bytes().any(|b| b.is_ascii_digit())
        && !value.is_empty()
        && value.len() <= 80
        && !value.starts_with("//")
}

/// A field line within three lines of line `n` is keyed by a person's name or birth
/// date.
fn form_names_a_person(lines: &[&str], n: usize) -> bool {
    (n.saturating_sub(3)..lines.len().min(n + 4)).any(|m| {
        m != n && field_line(lines[m]) && {
            let body = lines[m].trim();
            body.split_once(':')
                .and_then(|(k, _)| column_of(without_list_number(k.trim())))
                .is_some_and(names_a_person)
        }
    })
}

/// A key without the number of its item ("1. Employee (last, first, middle)").
fn without_list_number(key: &str) -> &str {
    let digits = key.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 || digits > 2 {
        return key;
    }
    key[digits..]
        .strip_prefix(['.', ')'])
        .map_or(key, |r| r.trim_start())
}

/// A column that says whose the row is: a name or a birth date.
fn names_a_person(c: Column) -> bool {
    matches!(c, Column::Name | Column::Person | Column::Birth)
}

/// The typed `key="value"` attributes of the XML tags in `text` (value spans).
fn xml_attributes(text: &str) -> Vec<(Column, (usize, usize))> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-' | b':');
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    for (eq, _) in text.match_indices("=\"") {
        let mut k = eq;
        while k > 0 && eq - k < 40 && ident(bytes[k - 1]) {
            k -= 1;
        }
        if k == eq
            || k == 0
            || !bytes[k - 1].is_ascii_whitespace()
            || !bytes[k].is_ascii_alphabetic()
        {
            continue;
        }
        let vs = eq + 2;
        let Some(len) = bytes[vs..].iter().take(121).position(|&b| b == b'"') else {
            continue;
        };
        let value = &text[vs..vs + len];
        if len == 0 || len > 120 || value.contains(['\n', '<', '>']) {
            continue;
        }
        if let Some(column) = column_of(&text[k..eq]) {
            out.push((column, (vs, vs + len)));
        }
    }
    out
}

/// `<key>value</key>` of an XML text (the keys compared after the match: no
/// back-references in `regex`).
pub(super) static XML_ELEMENT: LazyLock<Result<Regex, regex::Error>> = LazyLock::new(|| {
    Regex::new(
        r"<(?P<k>[A-Za-z][A-Za-z0-9_.-]{0,39})>(?P<v>[^<>\n]{1,120})</(?P<k2>[A-Za-z][A-Za-z0-9_.-]{0,39})>",
    )
});

/// `"key": "value"` or `"key": 123` of a JSON text.
pub(super) static JSON_PAIR: LazyLock<Result<Regex, regex::Error>> = LazyLock::new(|| {
    Regex::new(
        r#""(?P<k>[A-Za-z][A-Za-z0-9 _.#-]{0,39})"[ \t]*:[ \t]*(?:"(?P<v>[^"\n]{1,120})"|(?P<n>\d[\d-]{3,30}))"#,
    )
});

/// Segments of a record line (byte ranges in `line`): parted by a tab, two spaces or
/// more, `|` or `;`.
fn record_segments(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let (mut start, mut i) = (0, 0);
    while i < b.len() {
        let sep = match b[i] {
            b'\t' | b'|' | b';' => 1,
            b' ' if b.get(i + 1) == Some(&b' ') => {
                b[i..].iter().take_while(|&&c| c == b' ').count()
            }
            _ => 0,
        };
        if sep > 0 {
            out.push((start, i));
            i += sep;
            start = i;
        } else {
            i += 1;
        }
    }
    out.push((start, line.len()));
    out.into_iter()
        .filter_map(|(a, b)| {
            let seg = &line[a..b];
            let lead = seg.len() - seg.trim_start().len();
            let t = seg.trim();
            (!t.is_empty()).then_some((a + lead, a + lead + t.len()))
        })
        .collect()
}
