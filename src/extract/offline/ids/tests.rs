//! Tests of the id recognizers.
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
