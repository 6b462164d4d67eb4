//! Tables inside a document: a markdown table (`| Member | ID | Phone |` over a
//! `|---|---|---|` rule) or delimited lines (CSV, semicolons, tabs) under a header line.
//! A column whose header names a direct identifier or a birth date (`name`,
//! `member_id`, `Phone`, `E-mail`, `Home address`, `DOB` …) types every cell under it,
//! whatever the cell looks like: "4869381319" under `ID` is an id and under `Phone` a
//! phone number, "Min Xiang" under `name` is a name although nothing else in the row
//! says so. A cell must still have the shape of its type (a name has no digit, a phone
//! has seven digits or more, an id has a digit); other cells are left to the other
//! recognizers.
//!
//! Fields are one-row tables: a JSON pair (`"member_id": "0071229893"`, anywhere in a
//! document) or a `Key: value` segment of a record line whose segments are parted by a
//! tab, two spaces or more, `|` or `;` (`FATIMA NOLAN   DOB: 1942-11-11   ID: MLA202062`).
//! The key is read as a header; a generic `ID` counts where a name or birth-date key
//! is in the same JSON text or on the same line.
//!
//! HL7 v2 segments (`PID|…`, `NK1|…`, `GT1|…`) are records whose fields the standard
//! fixes by position: each field is typed as a cell of its column would be
//! ([`hl7`]).

use regex::Regex;

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};

mod columns;
mod fields;
mod hl7;

use columns::{Column, column_of};
use fields::{JSON_PAIR, XML_ELEMENT, fields};

const NAME_CELL: RelevanceRow = cell(
    "a table cell (markdown table, or CSV / semicolon / tab lines under a header line) or a field's value (a JSON pair, a `Key: value` segment of a record line or a form's line beside another, `ID X` / `DOB X` without a colon) in a column headed by a person's name (`name`, `Member name`, `Claimant`, `Surname`, `Nom`, `Nachname` …): no digit, a capital; the name field of an HL7 v2 segment (PID-5, `ARRIETA^FREDY`), as the fields below for ids, phones, addresses and birth dates",
    "NAME",
);
const PHONE_CELL: RelevanceRow = cell(
    "a table cell in a column headed `Phone`, `Tel`, `Mobile` …: 7–15 digits",
    "PHONE_NUMBER",
);
const EMAIL_CELL: RelevanceRow = cell(
    "a table cell in a column headed `E-mail` …: one word with `@`",
    "EMAIL",
);
const ADDRESS_CELL: RelevanceRow = cell(
    "a table cell in a column headed `Address`, `Street` …",
    "ADDRESS",
);
const ID_CELL: RelevanceRow = cell(
    "a table cell with a digit in a column headed by a person's id (`member_id`, `MRN`, `Staff no.`, `Employee` …; a generic `ID` only in a table with a name column)",
    "PATIENT_ID",
);
const ID_FIELD: RelevanceRow = RelevanceRow {
    matches: "a field's value with a digit under a person's id key (`\"member_id\": \"…\"`; `ID:` on a record line with a name or a birth date): the key is its context word",
    entity_type: "PATIENT_ID",
    relevance: Relevance::Fixed(1.0),
};
const BIRTH_CELL: RelevanceRow = cell(
    "a table cell in a column headed `DOB`, `Date of birth`, `Birth date` …",
    "BIRTHDATE",
);

const fn cell(matches: &'static str, entity_type: &'static str) -> RelevanceRow {
    RelevanceRow {
        matches,
        entity_type,
        relevance: Relevance::Fixed(0.95),
    }
}

/// The delimiter of a table whose columns are aligned by two spaces or more.
const SPACED: u8 = 0;

/// Cells of one line: byte ranges (trimmed) in the text.
fn split_cells(text: &str, line: (usize, usize), delim: u8, markdown: bool) -> Vec<(usize, usize)> {
    let (from, to) = line;
    if delim == SPACED {
        let (mut cells, mut start, mut i) = (Vec::new(), from, from);
        let bytes = text.as_bytes();
        while i < to {
            if bytes[i] == b' ' && bytes.get(i + 1) == Some(&b' ') {
                let run = bytes[i..to].iter().take_while(|&&b| b == b' ').count();
                if !text[start..i].trim().is_empty() {
                    cells.push((start, i));
                }
                i += run;
                start = i;
            } else {
                i += 1;
            }
        }
        if !text[start..to].trim().is_empty() {
            cells.push((start, to));
        }
        return cells
            .into_iter()
            .map(|span| trim_span(text, span))
            .collect();
    }
    let bytes = text.as_bytes();
    let mut cells = Vec::new();
    let mut start = from;
    let mut quoted = false;
    let mut i = from;
    while i < to {
        let b = bytes[i];
        if b == b'"' && !markdown {
            quoted = !quoted;
        } else if b == delim && !quoted {
            cells.push((start, i));
            start = i + 1;
        }
        i += 1;
    }
    cells.push((start, to));
    if markdown {
        // "| a | b |": the empty first and last pieces are the table's border.
        if cells
            .first()
            .is_some_and(|&(s, e)| text[s..e].trim().is_empty())
        {
            cells.remove(0);
        }
        if cells
            .last()
            .is_some_and(|&(s, e)| text[s..e].trim().is_empty())
        {
            cells.pop();
        }
    }
    cells
        .into_iter()
        .map(|span| {
            let (mut s, mut e) = trim_span(text, span);
            if !markdown && e > s + 1 && text[s..e].starts_with('"') && text[s..e].ends_with('"') {
                (s, e) = (s + 1, e - 1);
            }
            (s, e)
        })
        .collect()
}

/// The span without white space at either end.
fn trim_span(text: &str, (s, e): (usize, usize)) -> (usize, usize) {
    let v = &text[s..e];
    let lead = v.len() - v.trim_start().len();
    let trail = v.len() - v.trim_end().len();
    (s + lead, (e - trail).max(s + lead))
}

fn is_rule(line: &str) -> bool {
    let t = line.trim();
    t.contains("---")
        && t.contains('|')
        && t.chars().all(|c| matches!(c, '|' | '-' | ':' | ' ' | '\t'))
}

/// A header line of a delimited table: two or more cells, each a short label without a
/// digit, and one of them a column this recognizer types.
fn header_columns(cells: &[&str]) -> Option<Vec<Option<Column>>> {
    if cells.len() < 2
        || cells.iter().any(|c| {
            c.is_empty()
                || c.chars().count() > 30
                || c.chars().any(|ch| ch.is_ascii_digit() || ch == '@')
                || c.split_whitespace().count() > 4
        })
    {
        return None;
    }
    let columns: Vec<Option<Column>> = cells.iter().map(|c| column_of(c)).collect();
    columns.iter().any(Option::is_some).then_some(columns)
}

/// Typed tables and fields.
pub(super) struct Tables {
    json_pair: &'static Regex,
    xml_element: &'static Regex,
}

impl Tables {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Tables {
            json_pair: JSON_PAIR.as_ref()?,
            xml_element: XML_ELEMENT.as_ref()?,
        })
    }
}

impl Recognizer for Tables {
    fn name(&self) -> &'static str {
        "table_column"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[
            NAME_CELL,
            PHONE_CELL,
            EMAIL_CELL,
            ADDRESS_CELL,
            ID_CELL,
            BIRTH_CELL,
            ID_FIELD,
        ]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        fields(self.json_pair, self.xml_element, ctx, cands);
        hl7::hl7(ctx, cands);
        let text = ctx.text;
        // A table is a header line and at least one row under it.
        if !text.contains('\n') || !text.contains(['|', ',', ';', '\t']) && !text.contains("  ") {
            return;
        }
        let mut lines: Vec<(usize, usize)> = Vec::new();
        let mut start = 0;
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                lines.push((start, i));
                start = i + 1;
            }
        }
        lines.push((start, text.len()));
        let lines: Vec<(usize, usize)> = lines
            .into_iter()
            .map(|(s, e)| (s, if text[s..e].ends_with('\r') { e - 1 } else { e }))
            .collect();
        let mut i = 0;
        while i + 1 < lines.len() {
            let (s, e) = lines[i];
            let line = &text[s..e];
            // A header is short labels without a digit: most lines are ruled out here.
            if line.len() > 240 || line.bytes().any(|b| b.is_ascii_digit()) {
                i += 1;
                continue;
            }
            let markdown = line.trim_start().starts_with('|')
                && is_rule(&text[lines[i + 1].0..lines[i + 1].1]);
            let delim = if markdown {
                b'|'
            } else if let Some(d) = [b'\t', b';', b',']
                .into_iter()
                .find(|&d| line.as_bytes().contains(&d))
            {
                d
            } else if line.trim().contains("  ") {
                // Columns aligned by runs of spaces ("Name  Mon  Tue  Total").
                SPACED
            } else {
                i += 1;
                continue;
            };
            let header = split_cells(text, (s, e), delim, markdown);
            let labels: Vec<&str> = header.iter().map(|&(a, b)| &text[a..b]).collect();
            let Some(columns) = header_columns(&labels) else {
                i += 1;
                continue;
            };
            let named = columns
                .iter()
                .any(|c| matches!(c, Some(Column::Name | Column::Person)));
            let mut row = i + 1 + usize::from(markdown);
            while row < lines.len() {
                let (rs, re) = lines[row];
                let body = &text[rs..re];
                if body.trim().is_empty() || (markdown && !body.trim_start().starts_with('|')) {
                    break;
                }
                if !markdown && delim != SPACED && !body.as_bytes().contains(&delim)
                    || delim == SPACED && !body.trim().contains("  ")
                {
                    break;
                }
                let cells = split_cells(text, (rs, re), delim, markdown);
                for (k, cell) in aligned(&columns, &cells) {
                    if let Some(column) = columns[k] {
                        push_cell(ctx, cands, column, named, cell, Tier::Column);
                    }
                }
                row += 1;
            }
            i = row;
        }
    }
}

/// A name cell without its leading honorific ("Mrs. Rosalind Tiernan", "DR ANA RUIZ").
fn without_honorific(text: &str, (s, e): (usize, usize)) -> (usize, usize) {
    const HONORIFICS: [&str; 8] = ["mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir"];
    let cell = &text[s..e];
    let Some(first) = cell.split_whitespace().next() else {
        return (s, e);
    };
    let word = first.trim_end_matches('.').to_ascii_lowercase();
    let rest = cell[first.len()..].trim_start();
    if HONORIFICS.contains(&word.as_str()) && rest.split_whitespace().count() >= 1 {
        (e - rest.len(), e)
    } else {
        (s, e)
    }
}

/// Pairs each cell with its column. With as many cells as columns, in order; with more
/// (an unquoted comma inside a value, "December 21, 1941"), the columns before the
/// first date column are read from the left and those after it from the right, and the
/// date column's cells are skipped; with fewer, from the left.
fn aligned(columns: &[Option<Column>], cells: &[(usize, usize)]) -> Vec<(usize, (usize, usize))> {
    if cells.len() <= columns.len() {
        return cells.iter().copied().enumerate().collect();
    }
    let split = columns
        .iter()
        .position(|c| *c == Some(Column::Birth))
        .unwrap_or(columns.len());
    let mut out: Vec<(usize, (usize, usize))> =
        cells.iter().copied().take(split).enumerate().collect();
    let right = columns.len() - (split + 1).min(columns.len());
    let skip = cells.len() - right;
    out.extend(
        cells
            .iter()
            .copied()
            .skip(skip)
            .enumerate()
            .map(|(j, c)| (columns.len() - right + j, c)),
    );
    out
}

fn push_cell(
    ctx: &Context<'_>,
    cands: &mut Vec<Candidate>,
    column: Column,
    named: bool,
    (s, e): (usize, usize),
    mut tier: Tier,
) {
    let cell = &ctx.text[s..e];
    let chars = cell.chars().count();
    if chars == 0 || chars > 120 {
        return;
    }
    let digits = cell.chars().filter(char::is_ascii_digit).count();
    let letters = cell.chars().filter(|c| c.is_alphabetic()).count();
    let lower = cell.to_lowercase();
    if matches!(
        lower.as_str(),
        "n/a" | "na" | "none" | "null" | "-" | "—" | "tbc" | "unknown"
    ) {
        return;
    }
    let words = cell.split_whitespace().count();
    let name_shaped = digits == 0
        && letters >= 2
        && words <= 5
        && cell.chars().any(char::is_uppercase)
        && !cell.contains('@');
    let id_shaped = digits >= 2 && words <= 4 && chars <= 40 && !cell.contains('@');
    // "Contact: 414-555-0182": digits grouped as a phone writes them are no id of a
    // column that may hold either.
    let phone_shaped = (7..=15).contains(&digits)
        && letters == 0
        && cell
            .chars()
            .any(|c| matches!(c, '-' | ' ' | '.' | '(' | ')' | '+'));
    if matches!(column, Column::Name | Column::Person) && name_shaped {
        // "Mrs. Rosalind Tiernan": the honorific is not part of the name.
        let (s, e) = without_honorific(ctx.text, (s, e));
        ctx.push(cands, (s, e), &NAME_CELL, tier);
        return;
    }
    let id_row = if tier == Tier::Field {
        // The key is the id's context word: it wins over an id found without one.
        tier = Tier::Column;
        &ID_FIELD
    } else {
        &ID_CELL
    };
    let row = match column {
        Column::Person if id_shaped && !phone_shaped => id_row,
        Column::PersonId if id_shaped => id_row,
        Column::GenericId if id_shaped && named => id_row,
        Column::Phone if (7..=15).contains(&digits) && letters <= 4 => &PHONE_CELL,
        Column::Email if cell.contains('@') && words == 1 => &EMAIL_CELL,
        Column::Address if letters >= 3 && chars >= 5 => &ADDRESS_CELL,
        // (Not "mailto:nascimento61@…" after a key that reads "birth" in Portuguese.)
        Column::Birth if digits >= 2 && !cell.contains('@') => &BIRTH_CELL,
        _ => return,
    };
    ctx.push(cands, (s, e), row, tier);
}

#[cfg(test)]
mod tests {
    use super::super::tests::{has, run};

    #[test]
    fn a_cell_of_spaces_types_nothing_and_never_panics() {
        // An untrusted table: a name cell left blank with spaces (it once made an
        // inverted span and crashed `clam extract`), and a row aligned by spaces.
        let items =
            run("| Name | Phone |\n|---|---|\n|   | 5552013344 |\n\nName  Mon  Tue\n   8  8");
        assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "5552013344"), "{items:?}");
    }

    #[test]
    fn markdown_table_columns_type_their_cells() {
        let items = run("| Member | ID | Phone |\n|---|---|---|\n\
             | Hélène Hébert | 4869381319 | 7902843467 |\n| MARYSE FABRE | M-537566-58 | 05468478503 |");
        assert!(has(&items, "NAME", "Hélène Hébert"), "{items:?}");
        assert!(has(&items, "PATIENT_ID", "4869381319"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "7902843467"), "{items:?}");
        assert!(has(&items, "PATIENT_ID", "M-537566-58"), "{items:?}");
    }

    #[test]
    fn csv_columns_and_an_unquoted_comma_in_a_date() {
        let items = run("member_id,name,dob,phone\n\
             ELC217924533,Min Xiang,14 November 1978,6920792442\n\
             6551652301,Tove Lind,\"December 21, 1941\",03 80 92 21 22\n\
             M-312018-09,Oskar Berg,December 21, 1941,782-672-7403");
        assert!(has(&items, "NAME", "Min Xiang"), "{items:?}");
        assert!(has(&items, "PATIENT_ID", "ELC217924533"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "6920792442"), "{items:?}");
        assert!(has(&items, "BIRTHDATE", "December 21, 1941"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "782-672-7403"), "{items:?}");
        assert!(has(&items, "NAME", "Oskar Berg"), "{items:?}");
    }

    #[test]
    fn fields_of_json_and_record_lines_are_typed_by_their_key() {
        let items = run(
            r#"{"claimant": "Ingrid Solvang", "member_id": "0071229893", "phone": "555-201-3344"}"#,
        );
        assert!(has(&items, "PATIENT_ID", "0071229893"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "555-201-3344"), "{items:?}");
        // A record line: the name opening it, a birth date, a generic ID.
        let items = run("INGRID SOLVANG   DOB: 1942-11-11   ID: QXR202062
Vitals stable.");
        assert!(has(&items, "NAME", "INGRID SOLVANG"), "{items:?}");
        assert!(has(&items, "PATIENT_ID", "QXR202062"), "{items:?}");
        // A form with dot leaders.
        let items = run("  Full name ........ Ingrid Solvang
  Telephone ........ 0161 496 0734");
        assert!(has(&items, "NAME", "Ingrid Solvang"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "0161 496 0734"), "{items:?}");
        // A note in brackets after the value is not part of it.
        let items = run("Member: R. Solvang (QX-602-33158)    Related Claim: CLM 2024 0788120");
        assert!(has(&items, "NAME", "R. Solvang"), "{items:?}");
        assert!(has(&items, "PATIENT_ID", "QX-602-33158"), "{items:?}");
        // XML elements.
        let items = run(
            "<claimant><name>Ward, Ruben</name><phone>3907748572</phone><member>QX-4471</member></claimant>",
        );
        assert!(has(&items, "NAME", "Ward, Ruben"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "3907748572"), "{items:?}");
        assert!(has(&items, "PATIENT_ID", "QX-4471"), "{items:?}");
        // A header of another language.
        let items = run("Nom;Prénom;Téléphone\nQuellmar;Ruben;1895307025\nAvezzo;Lina;26111782");
        assert!(has(&items, "NAME", "Quellmar"), "{items:?}");
        assert!(has(&items, "NAME", "Lina"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "26111782"), "{items:?}");
        // Keys without a colon on a record line.
        let items = run("Pt: Ruben Quellmar | DOB 19.05.1988 | ID QX7008952");
        assert!(has(&items, "PATIENT_ID", "QX7008952"), "{items:?}");
        assert!(has(&items, "BIRTHDATE", "19.05.1988"), "{items:?}");
        // A form: one field per line.
        let items = run("Surname: QUELLMAR\nFirst name(s): Ruben\nPolicy: M-151296-42");
        assert!(has(&items, "NAME", "QUELLMAR"), "{items:?}");
        assert!(has(&items, "NAME", "Ruben"), "{items:?}");
        // A phone under a key that may name a person or their id stays a phone.
        let items = run("Client: Ingrid Solvang    Contact: 414-555-0182");
        assert!(has(&items, "PHONE_NUMBER", "414-555-0182"), "{items:?}");
    }

    #[test]
    fn fields_that_name_no_person_are_left_alone() {
        // A generic ID with no name or birth date beside it; a lone `Key: value` line.
        for text in [
            "Order ID: 4455667   Status: shipped",
            r#"{"order": "A-99812", "id": "4455667"}"#,
            "Address: see the attached letter",
        ] {
            let items = run(text);
            assert!(
                items
                    .iter()
                    .all(|i| !matches!(i.entity_type.as_str(), "PATIENT_ID" | "ADDRESS")),
                "{text}: {items:?}"
            );
        }
    }

    #[test]
    fn other_tables_are_left_alone() {
        // A price list and a table of plans: no column names a person's identifier.
        let items = run(
            "| Plan name | Code | Monthly |\n|---|---|---|\n| Silver Choice | 4417 | 210 |\n\
             product,sku,price\nWidget Pro,8812345,19.99",
        );
        assert!(
            items.iter().all(|i| !matches!(
                i.entity_type.as_str(),
                "NAME" | "PATIENT_ID" | "PHONE_NUMBER"
            )),
            "{items:?}"
        );
        // A generic ID column without a name column is not a person's id.
        let items = run("claim,id,status\nwater damage,4455667,open");
        assert!(!has(&items, "PATIENT_ID", "4455667"), "{items:?}");
    }

    #[test]
    fn a_form_that_lost_its_colons_is_still_a_form() {
        let items = run("Hospital number 55123\nSurname Raju\nForename Sathvik\n\
                         Address 62076 Green Brooks, East Christopher\n\nSeen today.");
        assert!(has(&items, "NAME", "Raju"), "{items:?}");
        assert!(has(&items, "NAME", "Sathvik"), "{items:?}");
        assert!(
            has(&items, "ADDRESS", "62076 Green Brooks, East Christopher"),
            "{items:?}"
        );
        // One such line alone is prose.
        let items = run("Name changes are handled by HR.\nAddress Book export failed.");
        assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
    }

    #[test]
    fn a_key_with_a_bracketed_instruction_is_a_forms() {
        let items = run("Claimant (name, address): Ziggy Dam, 4 Elm Road, Derby DE1 2AB");
        assert!(has(&items, "NAME", "Ziggy Dam"), "{items:?}");
        assert!(
            has(&items, "ADDRESS", "4 Elm Road, Derby DE1 2AB"),
            "{items:?}"
        );
    }
}
