//! Tables inside a document: a markdown table (`| Member | ID | Phone |` over a
//! `|---|---|---|` rule) or delimited lines (CSV, semicolons, tabs) under a header line.
//! A column whose header names a direct identifier or a birth date (`name`,
//! `member_id`, `Phone`, `E-mail`, `Home address`, `DOB` …) types every cell under it,
//! whatever the cell looks like: "4869381319" under `ID` is an id and under `Phone` a
//! phone number, "Min Xiang" under `name` is a name although nothing else in the row
//! says so. A cell must still have the shape of its type (a name has no digit, a phone
//! has seven digits or more, an id has a digit); other cells are left to the other
//! recognizers.

use super::recognizer::{Candidate, Context, Recognizer, Relevance, RelevanceRow, Tier};

const NAME_CELL: RelevanceRow = cell(
    "a table cell (markdown table, or CSV / semicolon / tab lines under a header line) in a column headed by a person's name (`name`, `Member name`, `Claimant`, `Surname` …): no digit, a capital",
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

/// What a column holds, by its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Column {
    Name,
    /// `Member`, `Patient`, `Employee`: a name, or the person's id when the cell has a digit.
    Person,
    Phone,
    Email,
    Address,
    PersonId,
    /// `ID`, `No.`, `Ref`: the person's id in a table that has a name column.
    GenericId,
    Birth,
}

/// Words that make a `… name` header something other than a person's name.
const NOT_PERSON: &[&str] = &[
    "company",
    "plan",
    "provider",
    "product",
    "drug",
    "file",
    "user",
    "facility",
    "hospital",
    "clinic",
    "employer",
    "org",
    "organisation",
    "organization",
    "brand",
    "account",
    "bank",
    "event",
    "project",
    "group",
    "street",
    "city",
    "place",
    "insurer",
    "carrier",
    "medication",
    "test",
    "procedure",
    "department",
    "dept",
    "team",
    "business",
    "trading",
    "vendor",
    "supplier",
    "site",
    "branch",
    "practice",
    "pharmacy",
    "policy",
    "course",
    "domain",
    "host",
    "field",
    "column",
    "table",
    "device",
    "payer",
];

fn column_of(header: &str) -> Option<Column> {
    let h: String = header
        .chars()
        .map(|c| match c {
            '_' | '-' | '.' | '/' | '#' | ':' | '(' | ')' => ' ',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    let words: Vec<&str> = h.split_whitespace().collect();
    let has = |w: &str| words.contains(&w);
    let any = |ws: &[&str]| ws.iter().any(|w| has(w));
    if words.is_empty() || words.len() > 4 || any(NOT_PERSON) {
        return None;
    }
    if any(&["dob", "birth", "birthdate", "born"]) || h.contains("d o b") {
        return Some(Column::Birth);
    }
    if any(&["email", "mail"]) || h.contains("e mail") {
        return Some(Column::Email);
    }
    if any(&["ip", "web", "url", "mac"]) {
        return None;
    }
    if any(&[
        "phone",
        "telephone",
        "tel",
        "mobile",
        "cell",
        "fax",
        "landline",
    ]) {
        return Some(Column::Phone);
    }
    if any(&["address", "addr", "street", "residence"]) {
        return Some(Column::Address);
    }
    let person = any(&[
        "member",
        "patient",
        "employee",
        "emp",
        "staff",
        "claimant",
        "insured",
        "policyholder",
        "subscriber",
        "beneficiary",
        "applicant",
        "tenant",
        "student",
        "client",
        "customer",
        "dependant",
        "dependent",
        "spouse",
        "contact",
        "witness",
        "worker",
        "person",
        "resident",
    ]);
    let id = any(&[
        "id",
        "mrn",
        "ssn",
        "nhs",
        "nino",
        "badge",
        "payroll",
        "no",
        "nr",
        "number",
        "num",
        "ref",
        "reference",
        "identifier",
    ]);
    if any(&[
        "name",
        "surname",
        "forename",
        "forenames",
        "firstname",
        "lastname",
        "fullname",
        "given",
    ]) {
        return (!id).then_some(Column::Name);
    }
    match (person, id) {
        (true, true) => Some(Column::PersonId),
        (true, false) => Some(Column::Person),
        (false, true) if any(&["mrn", "ssn", "nhs", "nino", "badge", "payroll"]) => {
            Some(Column::PersonId)
        }
        (false, true) if words.len() <= 2 => Some(Column::GenericId),
        _ => None,
    }
}

/// Cells of one line: byte ranges (trimmed) in the text.
fn split_cells(text: &str, line: (usize, usize), delim: u8, markdown: bool) -> Vec<(usize, usize)> {
    let (from, to) = line;
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
        .map(|(s, e)| {
            let cell = &text[s..e];
            let lead = cell.len() - cell.trim_start().len();
            let trail = cell.len() - cell.trim_end().len();
            let (mut s, mut e) = (s + lead, e - trail);
            if !markdown && e > s + 1 && text[s..e].starts_with('"') && text[s..e].ends_with('"') {
                (s, e) = (s + 1, e - 1);
            }
            (s, e)
        })
        .collect()
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

/// Typed tables.
pub(super) struct Tables;

impl Tables {
    pub(super) fn new() -> Result<Self, &'static regex::Error> {
        Ok(Tables)
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
        ]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        let text = ctx.text;
        // A table is a header line and at least one row under it.
        if !text.contains('\n') || !text.contains(['|', ',', ';', '\t']) {
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
                if !markdown && !body.as_bytes().contains(&delim) {
                    break;
                }
                let cells = split_cells(text, (rs, re), delim, markdown);
                for (k, cell) in aligned(&columns, &cells) {
                    if let Some(column) = columns[k] {
                        push_cell(ctx, cands, column, named, cell);
                    }
                }
                row += 1;
            }
            i = row;
        }
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
    let row = match column {
        Column::Name | Column::Person if name_shaped => &NAME_CELL,
        Column::Person | Column::PersonId if id_shaped => &ID_CELL,
        Column::GenericId if id_shaped && named => &ID_CELL,
        Column::Phone if (7..=15).contains(&digits) && letters <= 4 => &PHONE_CELL,
        Column::Email if cell.contains('@') && words == 1 => &EMAIL_CELL,
        Column::Address if letters >= 3 && chars >= 5 => &ADDRESS_CELL,
        Column::Birth if digits >= 2 => &BIRTH_CELL,
        _ => return,
    };
    ctx.push(cands, (s, e), row, Tier::Column);
}

#[cfg(test)]
mod tests {
    use super::super::tests::{has, run};

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
}
