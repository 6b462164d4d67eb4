//! HL7 version 2 segments: a patient's (`PID`), next of kin's (`NK1`) or guarantor's
//! (`GT1`) record written as fields parted by `|` and components by `^` ("PID|1||
//! N54-WJ0689^^^MRN||ARRIETA^FREDY||20020803|M|||12 Mill Lane^^Leeds^^LS1 4AB||
//! 0113 496 0000"). The standard fixes what each field holds, so the field's position
//! types its value as a column's header types a cell: the name, the ids, the birth
//! date, the address and the phones, whatever they look like.

use super::super::recognizer::{Candidate, Context, Tier};
use super::{ADDRESS_CELL, BIRTH_CELL, ID_CELL, NAME_CELL, PHONE_CELL, trim_span};

/// What a field of a segment holds.
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Name,
    Id,
    Birth,
    Address,
    Phone,
}

/// The fields of the segments read here, by their 1-based position (HL7 v2.5,
/// chapter 3): PID-2/3/4 ids, 5 name, 6 mother's maiden name, 7 birth date, 9 alias,
/// 11 address, 13/14 phones, 18 account, 19 SSN, 20 driver's licence; NK1-2 name,
/// 4 address, 5/6 phones; GT1-3 name, 5 address, 6/7 phones, 12 SSN.
fn field_of(segment: &str, position: usize) -> Option<Field> {
    use Field::*;
    match (segment, position) {
        ("PID", 2..=4 | 18..=20) => Some(Id),
        ("PID", 5 | 6 | 9) | ("NK1", 2) | ("GT1", 3) => Some(Name),
        ("PID", 7) => Some(Birth),
        ("PID", 11) | ("NK1", 4) | ("GT1", 5) => Some(Address),
        ("PID", 13 | 14) | ("NK1", 5 | 6) | ("GT1", 6 | 7) => Some(Phone),
        ("GT1", 12) => Some(Id),
        _ => None,
    }
}

/// Typed fields of the HL7 segments in the text.
pub(super) fn hl7(ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
    let text = ctx.text;
    if !["PID|", "NK1|", "GT1|"].iter().any(|s| text.contains(s)) {
        return;
    }
    let mut start = 0;
    // Segments end at a carriage return (the standard's) or a line feed.
    for piece in text.split_inclusive(['\n', '\r']) {
        let line_start = start;
        start += piece.len();
        let line = piece.trim_end_matches(['\n', '\r']);
        let Some(segment) = ["PID", "NK1", "GT1"]
            .into_iter()
            .find(|s| line.strip_prefix(s).is_some_and(|r| r.starts_with('|')))
        else {
            continue;
        };
        let mut at = line_start + segment.len() + 1;
        for (k, field) in line[segment.len() + 1..].split('|').enumerate() {
            let field_start = at;
            at += field.len() + 1;
            let Some(kind) = field_of(segment, k + 1) else {
                continue;
            };
            // Repetitions are parted by `~`.
            let mut rep_start = field_start;
            for rep in field.split('~') {
                push_field(ctx, cands, kind, rep, rep_start);
                rep_start += rep.len() + 1;
            }
        }
    }
}

/// One repetition of a field at byte `at` of the text.
fn push_field(ctx: &Context<'_>, cands: &mut Vec<Candidate>, kind: Field, value: &str, at: usize) {
    let first = value.split('^').next().unwrap_or("");
    let digits = |s: &str| s.bytes().filter(u8::is_ascii_digit).count();
    let span = match kind {
        // The id, the birth date and the phone are the first component ("N54-WJ0689^^^
        // MRN", "(555)555-1234^PRN^PH").
        Field::Id if digits(first) >= 3 => (at, at + first.len()),
        Field::Birth if digits(first) >= 6 => (at, at + first.len()),
        Field::Phone if digits(first) >= 7 => (at, at + first.len()),
        // The name and the address: every component up to the last one written
        // ("ARRIETA^FREDY^^^", "12 Mill Lane^^Leeds^^LS1 4AB^GB").
        Field::Name | Field::Address => {
            let used = value.trim_end_matches(['^', ' ']);
            if used.is_empty() || kind == Field::Name && digits(used) > 0 {
                return;
            }
            (at, at + used.len())
        }
        _ => return,
    };
    let (s, e) = trim_span(ctx.text, span);
    if s >= e {
        return;
    }
    let row = match kind {
        Field::Name => &NAME_CELL,
        Field::Id => &ID_CELL,
        Field::Birth => &BIRTH_CELL,
        Field::Address => &ADDRESS_CELL,
        Field::Phone => &PHONE_CELL,
    };
    ctx.push(cands, (s, e), row, Tier::Column);
}

#[cfg(test)]
mod tests {
    use super::super::super::tests::{has, run};

    #[test]
    fn an_hl7_patient_segment_types_its_fields_by_position() {
        let items = run("MSH|^~\\&|LAB|HOSP|||202401011200||ADT^A01|1|P|2.5\r\
             PID|1||N54-WJ0689^^^MRN~998877^^^NHS||ARRIETA^FREDY||20020803|M|||\
             Largo Anjos, 39^^Alcacer do Sal^^6848-066||(555)555-1234^PRN^PH\r\
             NK1|1|ARRIETA^LUZ|MTH|12 Mill Lane^^Leeds^^LS1 4AB|0113 496 0000");
        assert!(has(&items, "PATIENT_ID", "N54-WJ0689"), "{items:?}");
        assert!(has(&items, "PATIENT_ID", "998877"), "{items:?}");
        assert!(has(&items, "NAME", "ARRIETA^FREDY"), "{items:?}");
        assert!(has(&items, "BIRTHDATE", "20020803"), "{items:?}");
        assert!(
            has(
                &items,
                "ADDRESS",
                "Largo Anjos, 39^^Alcacer do Sal^^6848-066"
            ),
            "{items:?}"
        );
        assert!(has(&items, "PHONE_NUMBER", "(555)555-1234"), "{items:?}");
        assert!(has(&items, "NAME", "ARRIETA^LUZ"), "{items:?}");
        assert!(has(&items, "PHONE_NUMBER", "0113 496 0000"), "{items:?}");
        // The message header's fields are no person's.
        assert!(!has(&items, "PATIENT_ID", "202401011200"), "{items:?}");
    }
}
