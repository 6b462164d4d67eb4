//! Tests of the cued name recognizer and the name echoes.
use super::super::tests::{char_slice, ex, find, has, run};

#[test]
fn honorific_and_label_names() {
    let items = run(
        "Patient: Raman, Priya    DOB: 01/02/1970\nSeen by Dr. Elise Varga today. \
         Member Name: Maria T. Lopez",
    );
    let r = find(&items, "NAME", "Raman, Priya").expect("label name");
    assert_eq!(r.normalized, "priya raman");
    assert!((r.relevance - 1.0).abs() < 1e-9);
    // A doctor is a provider (thesis schema), named without the title.
    let d = find(&items, "PROVIDER", "Dr. Elise Varga").expect("honorific");
    assert_eq!(d.normalized, "elise varga");
    assert!((d.relevance - 1.0).abs() < 1e-9);
    assert!(has(&items, "NAME", "Maria T. Lopez"));
    let ms = run("Seen by Ms. Priya Raman today.");
    assert!(has(&ms, "NAME", "Ms. Priya Raman"), "{ms:?}");
}

#[test]
fn role_word_before_a_full_name() {
    let e = ex();
    let items = e.extract_text(
        "Amarillo General Hospital submitted a claim for patient Rex Marin. Participant Victor M. Ramirez agreed. Patient Services Department replied. Meridian Mutual Health – Member Reimbursement Request.",
    );
    let names: Vec<&str> = items
        .iter()
        .filter(|i| i.entity_type == "NAME")
        .map(|i| i.original.as_str())
        .collect();
    assert!(names.contains(&"Rex Marin"), "{names:?}");
    assert!(names.contains(&"Victor M. Ramirez"), "{names:?}");
    assert!(!names.iter().any(|n| n.contains("Services")), "{names:?}");
    assert!(
        !names.iter().any(|n| n.contains("Reimbursement")),
        "{names:?}"
    );
}

#[test]
fn surname_mention_resolves_within_the_document() {
    let items = run("Claimant: Priya Raman\nWe called Ms. Raman on Monday.");
    let m = find(&items, "NAME", "Ms. Raman").expect("partial");
    assert_eq!(m.normalized, "priya raman");
    // never across documents
    let other = run("We called Ms. Raman on Monday.");
    assert_eq!(
        find(&other, "NAME", "Ms. Raman").expect("alone").normalized,
        "raman"
    );
}

#[test]
fn initial_and_echoed_names() {
    let items = run(
        "Member Name: Marisol Quintero-Hale\nRe: Member M. Quintero-Hale\n\
         Hi, this is Marisol Quintero-Hale. Thanks,\nMarisol",
    );
    let i = find(&items, "NAME", "M. Quintero-Hale").expect("initial");
    assert_eq!(i.normalized, "marisol quintero-hale");
    let full = find(&items, "NAME", "Marisol Quintero-Hale").expect("full");
    assert_eq!(full.spans.len(), 2);
    assert_eq!(
        find(&items, "NAME", "Marisol")
            .expect("first name")
            .normalized,
        "marisol quintero-hale"
    );
}

#[test]
fn organisations_after_labels_are_not_names() {
    let items = run(
        "To: Outpatient Benefits Team\nFrom: Renata Szabo, Coordinator\nPrepared by: Financial Crimes Unit, Chicago",
    );
    assert!(has(&items, "NAME", "Renata Szabo"));
    let names: Vec<_> = items.iter().filter(|i| i.entity_type == "NAME").collect();
    assert_eq!(names.len(), 1, "{names:?}");
}

#[test]
fn capitalised_form_names_and_signatures() {
    let items = run(
        "Subscriber: JONATHAN A. MILLER    Subscriber ID: XJH 882 1190 02\n\
         Jonathan called back.\nKind regards,\nSarah Connelly\nClaims Handler",
    );
    assert!(has(&items, "NAME", "JONATHAN A. MILLER"), "{items:?}");
    assert_eq!(
        find(&items, "NAME", "Jonathan").expect("echo").normalized,
        "jonathan miller"
    );
    assert!(has(&items, "PATIENT_ID", "XJH 882 1190 02"));
    assert!(has(&items, "NAME", "Sarah Connelly"));
}

#[test]
fn initials_before_labels_are_not_names() {
    let items = run("See Appendix B. Room 12 is on Ward 7. Vitamin D. Take daily.");
    assert!(items.iter().all(|i| i.entity_type != "NAME"), "{items:?}");
}

/// Parties of a case and relatives are role words before a full name; a vehicle after
/// "driver" is no person.
#[test]
fn parties_and_relatives_before_a_full_name() {
    let items = run("Taken from witness Aylin Demir. Her husband Tariq Farouk disputed it.");
    assert!(has(&items, "NAME", "Aylin Demir"), "{items:?}");
    assert!(has(&items, "NAME", "Tariq Farouk"), "{items:?}");
    let items = run("The driver Ford Focus was damaged.");
    assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
}

/// A name written only with an initial ("M. Turunen"): its surname alone later in the
/// document is the same person (it was left readable in the export before).
#[test]
fn the_surname_of_a_name_written_with_an_initial_echoes_it() {
    let items = run("Lab results (M. Turunen) were sent at Turunen's request.");
    let s = find(&items, "NAME", "Turunen").unwrap_or_else(|| panic!("{items:?}"));
    assert_eq!(s.normalized, "m. turunen");
    // A full name with the surname keeps it ("S. Romero" inside "Ignacio S. Romero").
    let items = run("cc: Ignacio S. Romero; Records Office\nRomero asked again.");
    let s = find(&items, "NAME", "Romero").unwrap_or_else(|| panic!("{items:?}"));
    assert_eq!(s.normalized, "ignacio romero");
    // Two names with the same surname: the surname alone is nobody's in particular.
    let items = run("M. Turunen and K. Turunen came; Turunen paid.");
    assert!(
        items
            .iter()
            .all(|i| i.original != "Turunen" || i.normalized != "m. turunen"),
        "{items:?}"
    );
}

#[test]
fn echoes_of_a_name_found_by_its_shape_rank_with_it() {
    let items = run("Thandolwethu Mabuzane in bay 2 is stable. Told Thandolwethu the plan.");
    let n = find(&items, "NAME", "Thandolwethu Mabuzane").expect("name by shape");
    assert!((n.relevance - 0.7).abs() < 1e-9, "{n:?}");
    assert!(has(&items, "NAME", "Thandolwethu"), "{items:?}");
}

#[test]
fn honorifics_of_other_languages_and_a_key_glued_to_its_hash() {
    let items = run("Sr. Arellano y Sra. Budiyanto comparecen ante el notario.");
    assert!(has(&items, "NAME", "Sr. Arellano"), "{items:?}");
    assert!(has(&items, "NAME", "Sra. Budiyanto"), "{items:?}");
    let items = run("Mme Bachinger a été vue en consultation. Herr Gumprich rief an.");
    assert!(has(&items, "NAME", "Mme Bachinger"), "{items:?}");
    assert!(has(&items, "NAME", "Herr Gumprich"), "{items:?}");
    let items = run("Name: Sabari Mathenge Emp#: 556768 Dept: Logistics");
    assert!(has(&items, "NAME", "Sabari Mathenge"), "{items:?}");
    assert!(has(&items, "PATIENT_ID", "556768"), "{items:?}");
}

#[test]
fn a_name_in_capitals_with_accents_is_no_acronym() {
    let items = run("Consent obtained from LÁSZLÓ NAGY (06/08/1970) for the procedure.");
    assert!(has(&items, "NAME", "LÁSZLÓ NAGY"), "{items:?}");
    let items = run("Caller identified as QƏŞƏM SULTANOV, member X.");
    assert!(has(&items, "NAME", "QƏŞƏM SULTANOV"), "{items:?}");
    let items = run("Please run the PCR test.");
    assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
}

#[test]
fn a_surname_that_names_a_day_or_a_month_echoes_its_name_unless_beside_a_number() {
    let text = "Statement of Wei Sun, taken on Sun 12 May. Later Sun added that \
                the gate was open on 3 May.";
    let items = run(text);
    let sun = find(&items, "NAME", "Sun").expect("echo");
    assert_eq!(sun.normalized, "wei sun");
    // Once: "Sun 12 May" is a date.
    assert_eq!(sun.spans.len(), 1, "{items:?}");
    assert_eq!(char_slice(text, sun.spans[0]), "Sun");
    assert_eq!(
        Some(sun.spans[0].start),
        text.find("Later Sun").map(|i| i + 6)
    );
}

#[test]
fn a_heading_word_that_is_a_common_surname_ends_a_name_found_by_its_context() {
    // The names-without-cues recognizer told these from streets and boards; the
    // heading words of the cued recognizers' stop list no longer undo that.
    for (text, want) in [
        (
            "Claim submitted for Harold Page (PR-1234-567) on 3 May.",
            "Harold Page",
        ),
        (
            "The file was reviewed with Thomas Ward today.",
            "Thomas Ward",
        ),
        ("Anna Lane called about the invoice.", "Anna Lane"),
    ] {
        assert!(has(&run(text), "NAME", want), "{text}: {:?}", run(text));
    }
    for text in [
        "The Review Board met on Monday.",
        "Parking is on Church Lane.",
        "Sent to the County Council and the Harbour Board.",
    ] {
        let items = run(text);
        assert!(
            !items.iter().any(|i| i.entity_type == "NAME"),
            "{text}: {items:?}"
        );
    }
}

#[test]
fn a_surname_of_two_letters_echoes_its_name_unless_a_common_word() {
    let text = "Results for 124-559-822 (L. Su) were sent at Su's request.";
    let su = find(&run(text), "NAME", "Su").map(|i| i.normalized.clone());
    assert_eq!(su.as_deref(), Some("l. su"));
    let text = "We spoke with Ming Ye today. Ye confirmed the address.";
    let ye = find(&run(text), "NAME", "Ye").map(|i| i.normalized.clone());
    assert_eq!(ye.as_deref(), Some("ming ye"));
    // "He" is a pronoun before it is anybody's surname.
    let items = run("Thanks to Xia He for the receipts. He said they were all there.");
    assert!(find(&items, "NAME", "He").is_none(), "{items:?}");
}

#[test]
fn a_maiden_name_after_nee_is_a_name_whatever_else_the_word_is() {
    // An English word, a place, particles, a full name.
    let items = run("Loss of use claim by Ria Kade (née Strand); payment to follow.");
    assert!(has(&items, "NAME", "Strand"), "{items:?}");
    let items = run("Loss of use claim by Mrs North (née Kade); payment to follow.");
    assert!(has(&items, "NAME", "Kade"), "{items:?}");
    let items = run("Claim by Elva de Hóir (née de Hóir) was paid.");
    assert!(has(&items, "NAME", "de Hóir"), "{items:?}");
    let items = run("Frau Weber, geb. Hertrampf, rief an.");
    assert!(has(&items, "NAME", "Hertrampf"), "{items:?}");
    // "nee" inside a word, or an organisation after it, is no maiden name.
    let items = run("The knee Clinic and nee Health Services replied.");
    assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
}

#[test]
fn a_doctor_named_by_a_patients_surname_leaves_the_patient_a_name() {
    // "Dr Ojo" stands for no clinician named in full: the patient written in full
    // stays a person (masked by default), and the doctor's mention with them.
    let items = run("Dear Dr Ojo,\nI saw your patient Oluwagbemiga Ojo (19.05.1974) today.");
    assert!(has(&items, "NAME", "Oluwagbemiga Ojo"), "{items:?}");
    assert!(
        !items.iter().any(|i| i.entity_type == "PROVIDER"),
        "{items:?}"
    );
    // A clinician written in full stays a clinician, surname alone included.
    let items = run("Seen by Dr. Anton Brevik today. Brevik advised rest.");
    let d = find(&items, "PROVIDER", "Dr. Anton Brevik").expect("clinician");
    assert_eq!(d.normalized, "anton brevik");
    assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
}

#[test]
fn the_other_party_of_a_cited_case_is_a_name_whatever_its_words() {
    for (text, party) in [
        (
            "Ann Smith v Van Bragt [2021] EWHC 1432 (QB) concerned a fall.",
            "Van Bragt",
        ),
        (
            "Ann Smith v Grand [2021] EWHC 1432 (QB) concerned a fall.",
            "Grand",
        ),
        (
            "Ann Smith v Ó Hóráin [2021] EWHC 1432 (QB) concerned a fall.",
            "Ó Hóráin",
        ),
        ("Roe v. Wade (1973) is cited.", "Wade"),
        (
            "RE: ANN SMITH v DA CONCEIÇÃO - directions hearing listed",
            "DA CONCEIÇÃO",
        ),
        (
            "RE: ANN SMITH v LIE - directions hearing listed for May 9.",
            "LIE",
        ),
        // The first party of a `RE:` line, one word that a vocabulary reads as a place.
        (
            "RE: BLANES v ANN SMITH - directions hearing listed for May 9.",
            "BLANES",
        ),
    ] {
        let items = run(text);
        assert!(has(&items, "NAME", party), "{text}: {items:?}");
    }
    // A firm is no person; numbers, and a "v" without a year or a "RE:" line, are
    // nothing.
    for text in [
        "Ann Smith v. Northgate Logistics Ltd [2020] UKSC 3 applies.",
        "Pay 200 v 300 (2021) figures.",
        "Grand v Lie is a riddle.",
    ] {
        let items = run(text);
        assert!(
            !items
                .iter()
                .any(|i| i.entity_type == "NAME" && !i.original.contains("Smith")),
            "{text}: {items:?}"
        );
    }
}

#[test]
fn a_surname_that_is_an_english_word_after_a_given_name() {
    for (text, name) in [
        ("Ming He wrote: I still have not received it.", "Ming He"),
        (
            "Ticket 12: customer Yan Ma reports a wrong claim.",
            "Yan Ma",
        ),
        ("Ming He's claim was paid.", "Ming He"),
        // A rarer given name, one that names a place too (names invented).
        (
            "Leavers: Ana Pop (the plant); Xiuying He (care assistant).",
            "Xiuying He",
        ),
    ] {
        let items = run(text);
        assert!(has(&items, "NAME", name), "{text}: {items:?}");
    }
    // The pronoun opening a sentence, or inside a title in capitals throughout.
    for text in [
        "I told Tom. He said no.",
        "Finding Grace He Stayed",
        "In Boston He said nothing.",
    ] {
        let items = run(text);
        assert!(
            !items.iter().any(|i| i.original.ends_with(" He")),
            "{text}: {items:?}"
        );
    }
}

#[test]
fn after_a_personal_honorific_a_surname_with_particles_or_an_english_word() {
    for (text, name, value) in [
        (
            "Ms Ó Rócháin is a pleasant lady.",
            "Ms Ó Rócháin",
            "ó rócháin",
        ),
        (
            "Mme van Dijk a été vue en consultation.",
            "Mme van Dijk",
            "van dijk",
        ),
        ("Claim by Mrs Pan; payment due.", "Mrs Pan", "pan"),
        (
            "Sr. Gay y otro comparecen ante el notario.",
            "Sr. Gay",
            "gay",
        ),
        (
            "Mr and Mrs Brands attended together.",
            "Mrs Brands",
            "brands",
        ),
        // A surname that also names a street or a place's part ("Lane", "Field").
        ("We met Mrs Lane yesterday.", "Mrs Lane", "lane"),
        ("Sra. Field firmó el acuerdo.", "Sra. Field", "field"),
    ] {
        let items = run(text);
        let n = find(&items, "NAME", name).unwrap_or_else(|| panic!("{text}: {items:?}"));
        assert_eq!(n.normalized, value, "{text}");
    }
    // Not after "Dr" (a street's "Drive") or an honorific in capitals (an abbreviation).
    for text in [
        "Visit 45 Maple Dr North Bay today.",
        "MR Imaging Report pending.",
    ] {
        let items = run(text);
        let named = |w: &str| {
            items
                .iter()
                .any(|i| i.entity_type == "NAME" && i.original.contains(w))
        };
        assert!(!named("North") && !named("Imaging"), "{text}: {items:?}");
    }
}

/// An initial, a surname's particles and the surname: one name, and its surname alone
/// echoes it. (Names invented.)
#[test]
fn an_initial_before_particles_and_a_surname() {
    for (text, name, value) in [
        (
            "Heads up - C. van Brakel is calling again.",
            "C. van Brakel",
            "c. van brakel",
        ),
        (
            "We spoke with E. da Silveira today. da Silveira confirmed.",
            "E. da Silveira",
            "e. da silveira",
        ),
    ] {
        let items = run(text);
        let n = find(&items, "NAME", name).unwrap_or_else(|| panic!("{text}: {items:?}"));
        assert_eq!(n.normalized, value, "{text}");
    }
}

/// A name after a role word that ends in a letter outside ASCII: the pattern's end is
/// the word's, not an ASCII word boundary inside it ("Bērziņš" was cut to "Bērzi"
/// and dropped). (Names invented.)
#[test]
fn a_name_after_a_role_word_ending_in_a_letter_outside_ascii() {
    let text = "Opposing counsel, Jakobs Bērziņš, may be reached by phone.";
    let items = run(text);
    assert!(has(&items, "NAME", "Jakobs Bērziņš"), "{items:?}");
}

/// A staff role before a full name, as a client's role is: "adjuster", "investigator",
/// "claims handler", "solicitor" … (names invented); a role before English words is no
/// name.
#[test]
fn a_staff_role_before_a_full_name() {
    for (text, name) in [
        (
            "Claim notes (adjuster Purity Wanjiru): insured confirmed receipt.",
            "Purity Wanjiru",
        ),
        ("The investigator Lintang Sari called back.", "Lintang Sari"),
        (
            "Passed to claims handler Oyelaran Bode today.",
            "Oyelaran Bode",
        ),
    ] {
        let items = run(text);
        assert!(has(&items, "NAME", name), "{text}: {items:?}");
    }
    let items = run("Our representative Human Resources will call.");
    assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
}

/// Labels of a person's role in a case other than "Role:": "Represented by:",
/// "Investigator assigned:", "Assigned to:" (names invented).
#[test]
fn labels_of_who_handles_a_case() {
    for (text, name) in [
        (
            "Respondent: Ana Pop | Represented by: Tania Day",
            "Tania Day",
        ),
        (
            "Matches two earlier claims. Investigator assigned: Julie Cross.",
            "Julie Cross",
        ),
        ("Ticket 4471. Assigned to: Ibrahim Sesay", "Ibrahim Sesay"),
    ] {
        let items = run(text);
        assert!(has(&items, "NAME", name), "{text}: {items:?}");
    }
}

/// A surname that is a stop word of the name labels ("Ward") after an initial, as after
/// an honorific, or before the comma of `LAST, FIRST` (names invented).
#[test]
fn an_initial_before_a_surname_that_is_a_word() {
    let items = run("Absence log - T. Ward (E-1234): 3 days, a fractured ankle.");
    assert!(has(&items, "NAME", "T. Ward"), "{items:?}");
    // … and before the comma of `LAST, FIRST`.
    let items = run("Seen today: Ward, Gareth, DOB 16 January 1966, patient ID 4471.");
    assert!(has(&items, "NAME", "Ward, Gareth"), "{items:?}");
}

/// A common given name that is also a function word ("Per", "Will") before a surname
/// no vocabulary knows, as a word or a name, is a person's name (invented names).
#[test]
fn a_function_word_given_name_before_an_unknown_surname() {
    let items = run("I have forwarded them to Per Sønderskov in billing.");
    assert!(has(&items, "NAME", "Per Sønderskov"), "{items:?}");
    let items = run("The fee is charged per Annum and per Diem.");
    assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
}

/// A surname alone after the full name meets it across the case of Turkish and
/// Azerbaijani i ("ELIF YILDIZ" … "Yıldız's request"; "İpek Işıkoğlu" …
/// "Işıkoğlu said"); a surname that is an English word echoes before a verb only a
/// person takes ("Ward said"), not elsewhere ("the Ward was closed"). (Invented names.)
#[test]
fn surname_echoes_across_dotless_i_and_worded_surnames_before_a_verb() {
    let echoes = |text: &str, full: &str, alone: &str| {
        let items = run(text);
        let f = find(&items, "NAME", full).expect("full name");
        items
            .iter()
            .any(|i| i.original == alone && i.normalized == f.normalized)
    };
    assert!(echoes(
        "Results for KJ-1990-459 (ELIF YILDIZ) were sent at Yıldız's request.",
        "ELIF YILDIZ",
        "Yıldız"
    ));
    assert!(echoes(
        "The adjuster met İpek Işıkoğlu on site. Işıkoğlu said it leaked.",
        "İpek Işıkoğlu",
        "Işıkoğlu"
    ));
    assert!(echoes(
        "The adjuster met Patricia Ward on site. Ward said it leaked.",
        "Patricia Ward",
        "Ward"
    ));
    assert!(!echoes(
        "The adjuster met Patricia Ward on site. The Ward was closed.",
        "Patricia Ward",
        "Ward"
    ));
    // One of the commonest words opening a sentence is no given name.
    let items = run("Later Ward said the leak started in April.");
    assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
}

/// "He" and "Ma" in capitals after a given name in capitals are a surname inside a
/// line that is not in capitals throughout ("the vehicle belonging to XIUYING HE
/// was struck"), not in a heading ("MEETING WITH JOHN HE TODAY"). (Invented.)
#[test]
fn a_worded_two_letter_surname_in_capitals() {
    let items = run("The vehicle belonging to GUIYING HE was struck while parked.");
    assert!(has(&items, "NAME", "GUIYING HE"), "{items:?}");
    let items = run("Present: GUIYING MA, the neighbour.");
    assert!(has(&items, "NAME", "GUIYING MA"), "{items:?}");
    let items = run("WHEN JOHN HE SAID IT");
    assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
}

/// The one word after a personal honorific is a surname however short when a common
/// one ("Ms He is a pleasant 40-year-old …"), and meets the full name found before.
#[test]
fn a_short_common_surname_after_an_honorific() {
    let items = run("Referral for Guiying He. Ms He is a pleasant 40-year-old lady.");
    let full = find(&items, "NAME", "Guiying He").expect("full name");
    let short = find(&items, "NAME", "Ms He").expect("surname after the honorific");
    assert_eq!(short.normalized, full.normalized, "{items:?}");
}
