//! Tests of the names-without-cues recognizer.
use super::*;

pub(super) fn names(text: &str) -> Vec<&str> {
    find(text).iter().map(|f| &text[f.start..f.end]).collect()
}

#[test]
fn names_in_running_text_without_a_cue() {
    assert_eq!(
        names("Claim submitted for Harold Brennan (PR-1234-567) on 3 May."),
        ["Harold Brennan"]
    );
    assert_eq!(
        names("Tomasz Wierzbicki, a 52-year-old with chronic pain."),
        ["Tomasz Wierzbicki"]
    );
    assert_eq!(names("(Ines Carvalho, DOB 04/11/1979)"), ["Ines Carvalho"]);
    assert_eq!(
        names("Congratulations to Yusuf Adeyemi, night-shift lead."),
        ["Yusuf Adeyemi"]
    );
    // An age before the name is no house number of a street.
    assert_eq!(
        names("A claim for 61-year-old Marta Lindqvist was paid."),
        ["Marta Lindqvist"]
    );
}

#[test]
fn house_numbers_are_digits_with_at_most_a_letter_or_a_range() {
    for w in ["326", "48g", "18/7", "12-14"] {
        assert!(tokens::house_number(w), "{w}");
    }
    for w in ["2024", "47-year-old", "3rd", "12-week"] {
        assert!(!tokens::house_number(w), "{w}");
    }
}

#[test]
fn last_first_and_capitals_without_a_label() {
    assert_eq!(names("KELLER, MARIA was seen."), ["KELLER, MARIA"]);
    assert_eq!(names("Keller, Maria J. was seen."), ["Keller, Maria J."]);
    assert!(
        names("Smith, Jones and Lee LLP")
            .iter()
            .all(|n| !n.contains(','))
    );
}

#[test]
fn invisible_characters_and_odd_spaces_do_not_hide_a_name() {
    assert_eq!(names("for Harold\u{A0}Brennan."), ["Harold\u{A0}Brennan"]);
    assert_eq!(
        names("for Har\u{200B}old Brennan."),
        ["Har\u{200B}old Brennan"]
    );
}

#[test]
fn names_in_capitals_with_a_cue() {
    assert_eq!(
        names("HELENA LAUKKANEN's claim was approved."),
        ["HELENA LAUKKANEN"]
    );
    assert_eq!(
        names("We spoke with AKGÜNEŞ GÜL about the plan."),
        ["AKGÜNEŞ GÜL"]
    );
    assert_eq!(
        names("The appeal filed by MASON VAN DER HEIJDEN is pending."),
        ["MASON VAN DER HEIJDEN"]
    );
    assert_eq!(names("FRANK RICH declined the offer."), ["FRANK RICH"]);
}

#[test]
fn particles_initials_and_given_names_that_are_words() {
    assert_eq!(
        names("Thanks to June Ó Ciarúcáin for covering."),
        ["June Ó Ciarúcáin"]
    );
    assert_eq!(
        names("Per S. Ó Cairealláin, the dosage"),
        ["S. Ó Cairealláin"]
    );
    assert_eq!(
        names("Spoke to F. de Bruyn re the shipment"),
        ["F. de Bruyn"]
    );
    assert_eq!(
        names("Documents for Mustafa van den Pol were scanned."),
        ["Mustafa van den Pol"]
    );
    assert_eq!(
        names("- Ó Monacháin, Francis, Ceuta"),
        ["Ó Monacháin, Francis"]
    );
    assert_eq!(names("In March, Ugnė G. joined the desk."), ["Ugnė G."]);
    assert_eq!(
        names("Voicemail from Mario Maršić at 17:44"),
        ["Mario Maršić"]
    );
    assert_eq!(names("Lavīze Kļaviņa's claim"), ["Lavīze Kļaviņa"]);
}

#[test]
fn a_tab_ends_a_name() {
    assert_eq!(
        names("Carolina R.\tNovember 7, 2023\tpending"),
        ["Carolina R."]
    );
}

#[test]
fn a_full_name_after_an_organisation_and_a_title_is_found() {
    // The organisation's word made the whole run no person; the title between them
    // says where the organisation ends.
    assert_eq!(
        names("Union Representative Odile Brennan attended the hearing."),
        ["Odile Brennan"]
    );
    assert_eq!(
        names("It was signed by Clinic Manager Tomasz Wierzbicki on Monday."),
        ["Tomasz Wierzbicki"]
    );
    assert_eq!(
        names("Hospital Liaison Ines Carvalho called."),
        ["Ines Carvalho"]
    );
    // Without a title, or without a full name after it, the run stays the
    // organisation's.
    assert!(names("Calloway Genomics Institute Quality Assurance").is_empty());
    assert!(names("Mercy Hospital Emergency Department").is_empty());
    assert!(names("Harbor Clinic Patient Services Brennan").is_empty());
}

/// A role in no vocabulary before a full name is not part of the name.
#[test]
fn an_unknown_agent_noun_before_a_full_name_is_a_role() {
    assert_eq!(
        names("The file was reviewed by Claims Adjuster Dana Whitfield on Monday."),
        ["Dana Whitfield"]
    );
    assert_eq!(
        names("Senior Underwriter Paolo Ricci approved the policy."),
        ["Paolo Ricci"]
    );
}

/// A form's field label (one capitalised word opening a line or a cell, then a colon)
/// is a cue: a name of two given names there is found.
#[test]
fn a_field_label_is_a_cue() {
    assert_eq!(names("Landlord: Mehmet Yıldırım."), ["Mehmet Yıldırım"]);
    assert_eq!(
        names("Tenant: Ong Wei Ling; Landlord: Mehmet Yıldırım."),
        ["Ong Wei Ling", "Mehmet Yıldırım"]
    );
    assert!(names("Seen today. Plan: Will Review").is_empty());
}

/// `LAST, FIRST` with a first name in no vocabulary needs a cue; chat speakers.
#[test]
fn last_first_with_an_unknown_first_name_and_a_cue() {
    assert_eq!(
        names("We called Fulimaru, Tevita. No answer."),
        ["Fulimaru, Tevita"]
    );
    assert_eq!(
        names("The adjuster met ZDRAVKOV, Kostadin at the house."),
        ["ZDRAVKOV, Kostadin"]
    );
    assert_eq!(
        names("Quiroga, Itzel and a colleague both called."),
        ["Quiroga, Itzel"]
    );
    // Without a cue, two capitalised words around a comma are not enough.
    assert!(names("Tevamiru, Ostrava offices closed").is_empty());
    assert_eq!(
        names("[09:14] Kofi Mensah-Bonsu: can someone check this?"),
        ["Kofi Mensah-Bonsu"]
    );
}

/// "X of" phrases, a name in brackets or after a slash right after a code, and a
/// capitalised cue word opening the sentence (invented names).
#[test]
fn names_after_of_phrases_codes_and_an_opening_cue() {
    assert_eq!(
        names("Deposition of Tevita Fulimaru taken by counsel."),
        ["Tevita Fulimaru"]
    );
    assert_eq!(
        names("Lab results for KXT447120 (ZDRAVKO KOSTADINOV) were sent."),
        ["ZDRAVKO KOSTADINOV"]
    );
    assert_eq!(
        names("Re: CLM-2024-118273 / Itzel Quiroga"),
        ["Itzel Quiroga"]
    );
    assert_eq!(
        names("Called Quiroga, Itzel. No answer."),
        ["Quiroga, Itzel"]
    );
    // Not after any "of" or any bracket: a university, a plan in brackets.
    assert!(names("a grant of Northgate Valley (Silver Plan)").is_empty());
}

/// A surname that is an English word, after a known given name, when a cue comes
/// before the name ("paid to Maria Rich yesterday").
#[test]
fn an_english_word_surname_after_a_cue_before_the_name() {
    assert_eq!(
        names("The refund was paid to Maria Rich yesterday."),
        ["Maria Rich"]
    );
    assert!(names("The refund was a Rich Reward.").is_empty());
}

#[test]
fn words_no_vocabulary_knows_are_a_name_by_their_shape() {
    let text = "Thandolwethu Mabuzane in bay 2 is stable.";
    let found = find(text);
    assert_eq!(names(text), ["Thandolwethu Mabuzane"]);
    assert_eq!(found[0].row.matches, UNKNOWN.matches);
    // A common word of another language is known: a firm or a place, not a name.
    for text in [
        "Veldhoven Groep shipped the order on time.",
        "Vieja Kadrolin deliveries resume next week.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
    // In capitals, a heading as often as a name: not by shape alone.
    assert!(names("THANDOLWETHU MABUZANE REPORT").is_empty());
    // One unknown word is no name.
    assert!(names("Mabuzane is stable.").is_empty());
}

#[test]
fn cues_of_records_and_clinical_notes() {
    // "Pt", the clinical abbreviation of "patient".
    assert_eq!(names("Pt Ingrid Solvang seen in ED."), ["Ingrid Solvang"]);
    // A label of two or three words opening its line, then a colon.
    assert_eq!(
        names("Checked.\nInvestigator assigned: Tomasz Brzęczek"),
        ["Tomasz Brzęczek"]
    );
    assert_eq!(
        names("Two claims match. Investigator assigned: Tomasz Brzęczek."),
        ["Tomasz Brzęczek"]
    );
    // An age in apposition after `LAST, FIRST`.
    assert_eq!(
        names("The court heard that Okonjo, Chidera, 45, of Leeds, fell."),
        ["Okonjo, Chidera"]
    );
    // A verb of a person acting after `LAST, FIRST`.
    assert_eq!(
        names("Mabuzane, Thandolwethu phoned in again."),
        ["Mabuzane, Thandolwethu"]
    );
    // After "from": a known given name and a word of no vocabulary.
    assert_eq!(
        names("Statement taken from Ingrid Qvarnheim at the depot."),
        ["Ingrid Qvarnheim"]
    );
    // A place after "from" stays a place.
    assert!(names("Imports from Costa Rica fell.").is_empty());
}

#[test]
fn last_first_with_a_surname_known_only_as_a_rare_given_name() {
    for (text, want) in [
        (
            "Vaskola, Tapio, a 24-year-old warehouse associate, reported whiplash.",
            "Vaskola, Tapio",
        ),
        ("- Čulina, Dragan (+385 1 4920 330)", "Čulina, Dragan"),
    ] {
        assert_eq!(names(text), [want], "{text}");
    }
}

#[test]
fn a_common_given_name_then_an_english_word_listed_as_a_surname() {
    let text = "Helga Mayor moved away.";
    assert_eq!(names(text), ["Helga Mayor"]);
    assert_eq!(find(text)[0].row.matches, GIVEN_WORD.matches);
    // Days, months and a place's first word are no surnames.
    for text in ["Closed on Easter Monday.", "We met Peter in March."] {
        assert!(
            names(text).iter().all(|n| n.split(' ').count() < 2),
            "{text}: {:?}",
            names(text)
        );
    }
}

#[test]
fn times_middle_names_and_sentence_openers_around_names() {
    // The minutes of a time are no house number.
    assert_eq!(
        names("Clinic list: 09:00 Thandiwe Dlamvuzo (QX752792)"),
        ["Thandiwe Dlamvuzo"]
    );
    // A middle name after `LAST, FIRST`.
    assert_eq!(
        names("Cheque issued to Cassiano, Carlos Eduardo for the amount agreed."),
        ["Cassiano, Carlos Eduardo"]
    );
    // An English word opening the sentence before `LAST, FIRST`.
    assert_eq!(
        names("Added Bílek, Ignác to the distribution list."),
        ["Bílek, Ignác"]
    );
}

#[test]
fn an_initial_a_first_name_that_is_a_place_and_for_the_attention_of() {
    // One initial and a surname of no vocabulary, with a cue.
    assert_eq!(
        names("Clinic list: 09:20 F. Ćorkavić (QX325490)"),
        ["F. Ćorkavić"]
    );
    assert_eq!(
        names("Ref: QX94424358\nFor the attention of Dagrel Kuswandoyo"),
        ["Dagrel Kuswandoyo"]
    );
    // A first name that is also a place, after a role word.
    assert_eq!(
        names("The customer Heddermane, Kira reports an error."),
        ["Heddermane, Kira"]
    );
    // A determiner before `LAST, FIRST` makes it a firm's name.
    let text = "The Gates, Kent and Stout warehouse is closed.";
    assert!(
        names(text).iter().all(|n| !n.contains(',')),
        "{:?}",
        names(text)
    );
}

#[test]
fn many_names_in_a_row_and_english_word_surnames_with_a_cue() {
    // Three or four names in a row, the family name first.
    assert_eq!(
        names("hey - is Trương Minh Thu Hà still on the rota?"),
        ["Trương Minh Thu Hà"]
    );
    // A surname that is also an English word, in LAST, FIRST with a cue.
    assert_eq!(names("09:00 METS, Dragan (774-164-897)"), ["METS, Dragan"]);
    // A given name and a rarer surname that is an English word, before "(".
    assert_eq!(names("09:20 Lara Mets (TH 385 996 279)"), ["Lara Mets"]);
}

#[test]
fn managers_kin_ages_with_units_chat_speakers_and_word_given_names_before_a_cue() {
    assert_eq!(
        names("Ruben Quellmar - Paralegal - line manager Iuliu Eftimiescu"),
        ["Ruben Quellmar", "Iuliu Eftimiescu"]
    );
    assert_eq!(
        names("Dx: a sprain. Next of kin Kowalczyk Niemi tel 0412 345 678."),
        ["Kowalczyk Niemi"]
    );
    assert_eq!(
        names("Natasza Kalugowska, 33y, presented at triage."),
        ["Natasza Kalugowska"]
    );
    assert_eq!(
        names("[Ruben Quellmar] 10:42: uploaded\n[Atena Dobrescu] 10:43: thanks"),
        ["Ruben Quellmar", "Atena Dobrescu"]
    );
    assert_eq!(
        names("Leavers: Dick Johanssen (warehouse associate)."),
        ["Dick Johanssen"]
    );
}

#[test]
fn a_name_after_a_code_of_digit_groups_in_a_record() {
    assert_eq!(
        names("Results: 384-791-197 / URSZULA STAWCZYKOWA / 11.10.1955"),
        ["URSZULA STAWCZYKOWA"]
    );
}

#[test]
fn a_name_and_its_code_in_brackets_and_a_second_surname_ending_a_cell() {
    assert_eq!(
        names("Re: leave request (Sunil Arvind, 889698)"),
        ["Sunil Arvind"]
    );
    assert_eq!(
        names("<tr><td>Lopez, Juan Cruz</td><td>QX14097</td></tr>"),
        ["Lopez, Juan Cruz"]
    );
}

#[test]
fn last_first_with_a_surname_listed_only_as_a_given_name_and_an_unknown_first_name() {
    assert_eq!(
        names("The court heard that Ülker, Ferzani, 42, of Pinhel, slipped."),
        ["Ülker, Ferzani"]
    );
    // Without a cue it is left alone.
    assert!(names("Ülker, Ferzani went home.").is_empty());
}

#[test]
fn an_accented_word_is_no_particle_and_thx_is_a_cue() {
    assert_eq!(
        names("Parcel for Lê, Mai left with the neighbour."),
        ["Lê, Mai"]
    );
    assert_eq!(names("Re: Lê Văn Thành called."), ["Lê Văn Thành"]);
    assert_eq!(
        names("thx Kowalczyk Niemi! I'll pass it on"),
        ["Kowalczyk Niemi"]
    );
}

#[test]
fn an_english_word_before_unknown_words_after_a_cue_and_a_code_after_from() {
    assert_eq!(
        names("cc Safari Wanijikuru, Ana Ruiz; bcc payroll"),
        ["Safari Wanijikuru", "Ana Ruiz"]
    );
    assert_eq!(
        names("The van belonging to Till Junckenhof was struck."),
        ["Till Junckenhof"]
    );
    assert_eq!(
        names("Form received from ƏJDƏR KƏRIMLIYEV (611003); forwarded."),
        ["ƏJDƏR KƏRIMLIYEV"]
    );
    // A place after "from" stays a place.
    assert!(names("She moved from Lower Saxony (Germany) last year.").is_empty());
}

#[test]
fn a_word_with_letters_english_does_not_use_is_no_english_word() {
    // "Sööt" folds to "soot", "Bär" to "bar": neither is the English word.
    assert_eq!(names("Solicitor: Mihkel Sööt"), ["Mihkel Sööt"]);
    assert_eq!(names("Reviewed with Jonas Bär today."), ["Jonas Bär"]);
    // A loanword English writes with its accent stays a word.
    assert!(names("Meet at the Café Royal.").is_empty());
}

#[test]
fn two_full_names_joined_by_an_ampersand_are_two_people() {
    assert_eq!(
        names("Notice to quit addressed to Semenica Tudor & Ifunanya Onoh, 12 Mill Lane."),
        ["Semenica Tudor", "Ifunanya Onoh"]
    );
    assert_eq!(
        names("Notice to quit addressed to G. Soylu & Kabiru Yusuf, 86, rue de Rossi."),
        ["G. Soylu", "Kabiru Yusuf"]
    );
    assert_eq!(
        names("Notice to quit addressed to ROBERTS, Ricky & Ruth Fierro, 3423 Brandon Plains"),
        ["ROBERTS, Ricky", "Ruth Fierro"]
    );
    assert!(names("Smith, Jones & Lee LLP acted.").is_empty());
    // One word on either side is a firm.
    assert!(names("Smith & Jones acted for the insurer.").is_empty());
    assert!(names("Visit Merz Schlatter & Partner today.").is_empty());
}

#[test]
fn clinical_and_legal_formulas_after_a_name_are_cues() {
    assert_eq!(
        names("Pt seen w/ wife. Saood Raheel c/o a lumbar strain x3 days."),
        ["Saood Raheel"]
    );
    assert_eq!(
        names("Eral Durmuş, being duly sworn, deposes and says that the tenant fell."),
        ["Eral Durmuş"]
    );
    // A first name that is also an English word, after a surname and before a cue.
    assert_eq!(
        names("Danielsson, Urban c/o a fractured ankle x3 days."),
        ["Danielsson, Urban"]
    );
    assert!(names("Sales, Marketing (ext 22) called.").is_empty());
}

#[test]
fn both_parties_of_a_case_cited_by_surname() {
    assert_eq!(
        names("Hugo Jacobs v Masinde [2021] EWHC 1432 (QB) concerned a similar fall."),
        ["Hugo Jacobs", "Masinde"]
    );
    assert_eq!(
        names("As in Roe v. Wade (1973), the court"),
        ["Roe", "Wade"]
    );
    // Without the year in brackets it is no citation.
    assert!(names("The match was Kowalczyk v Masinde at noon.").is_empty());
}

#[test]
fn a_name_in_capitals_inside_prose() {
    assert_eq!(
        names("Caller identified as SUPASITA CHAROENSUKSOPOL, member 42. Caller reports pain."),
        ["SUPASITA CHAROENSUKSOPOL"]
    );
    // Acronyms, English words, places and firms in capitals are not names.
    for text in [
        "Please send the FAQ PDF to the NHS team today.",
        "URGENT REVIEW of the claim is needed now.",
        "We use NORTHGATE LOGISTICS LTD for all deliveries.",
        "She lives in NEW YORK with her aunt.",
        "The COVID PCR test was negative for the patient.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
    // After a capitalised word ("Policyholder"), and with accented letters.
    assert_eq!(
        names("Policyholder KASHANGAKI KIPKEMEI (03.04.1976) - renewal notice sent."),
        ["KASHANGAKI KIPKEMEI"]
    );
    assert_eq!(names("Seen by Maria KELLER today."), ["Maria KELLER"]);
    // A heading in capitals throughout is no prose.
    assert!(names("SUPASITA CHAROENSUKSOPOL").is_empty());
}

#[test]
fn a_surname_in_capitals_and_a_first_name_need_no_other_cue() {
    assert_eq!(
        names("Please find attached the estimate that VILCIŅŠ, Viļums obtained."),
        ["VILCIŅŠ, Viļums"]
    );
    assert_eq!(
        names("We reimbursed MACPHERSON, Nikora in full"),
        ["MACPHERSON, Nikora"]
    );
    assert_eq!(names("DAHL, Anne Jr. starts Monday"), ["DAHL, Anne"]);
    assert!(names("Visitors from PARIS, Texas came.").is_empty());
}

#[test]
fn maiden_names_nicknames_suffixes_and_display_names() {
    assert_eq!(
        names("Loss of use claim by Mrs North (née Balogun)."),
        ["Balogun"]
    );
    assert_eq!(
        names("Promotion panel notes: Asmini \"Dede\" Atieno is ready."),
        ["Asmini \"Dede\" Atieno"]
    );
    assert_eq!(names("Nuhu Okafor Jr. starts Monday."), ["Nuhu Okafor"]);
    assert_eq!(
        names("\"Owoyemi, Demilade\" <d.owoyemi@example.com> has accepted."),
        ["Owoyemi, Demilade"]
    );
    assert_eq!(
        names("Aliseydi Gül, the team's first-aider, confirmed the fall."),
        ["Aliseydi Gül"]
    );
    // An apposition is no cue for an English word before the name.
    assert_eq!(
        names("Per William Pineda, the dosage was unchanged."),
        ["William Pineda"]
    );
    assert_eq!(
        names("The late GIGER, Emin left the property"),
        ["GIGER, Emin"]
    );
    // A case's title in capitals, with or without its year.
    assert_eq!(
        names("RE: ZAFIR v MONNARD - directions hearing listed for May 9."),
        ["ZAFIR", "MONNARD"]
    );
}

#[test]
fn a_name_in_capitals_on_a_line_of_its_own_among_lower_case_lines() {
    // A record's subject under its heading, a signature's name above the role.
    assert_eq!(
        names("EMPLOYEE RECORD\nBEATRIZ KOVALENKO\nStaff ID: 519233\nHome address: 8 Elm Road"),
        ["BEATRIZ KOVALENKO"]
    );
    assert_eq!(
        names("Thanks for your patience.\n\nKind regards,\n\nTEODOR MWANGI\nClaims Handler\n"),
        ["TEODOR MWANGI"]
    );
    // Headings in capitals stay headings: English words, a place, a document in
    // capitals throughout.
    for text in [
        "Dear member,\n\nANNUAL BENEFITS UPDATE\nThe plan changes in May.",
        "Our offices are moving.\n\nNEW YORK\nThe office closes on Friday.",
        "PATIENT TRANSFER\nZELMORA TRIVANE\nDISCHARGED TODAY\n",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn a_surname_that_is_an_english_word_after_a_cue_before_the_name() {
    assert_eq!(
        names("The file was passed to Ferenc Pop in billing."),
        ["Ferenc Pop"]
    );
    assert_eq!(
        names("Deposition of MARTIN FROST taken by counsel."),
        ["MARTIN FROST"]
    );
    assert_eq!(
        names("IN THE MATTER OF AGNES WARD, Deceased. Notice is given."),
        ["AGNES WARD"]
    );
    // A street type only USPS lists, after a code's slash: the person the code is of;
    // after "moved to" the same words are a street.
    assert_eq!(names("Re: CLM-2024-00187 / Johnny Dam"), ["Johnny Dam"]);
    assert!(names("The warehouse moved to Barbara Key.").is_empty());
}

#[test]
fn a_given_name_that_is_a_word_before_particles_a_dashed_code_and_a_chat_speaker() {
    // Particles after a word that is also a given name: a surname follows.
    assert_eq!(
        names("Rose van der Veldhoven joined the panel."),
        ["Rose van der Veldhoven"]
    );
    assert_eq!(names("Notes: Conan Ó Maoláin hosted."), ["Conan Ó Maoláin"]);
    assert!(names("The conference in Rio de Janeiro ended.").is_empty());
    // A spaced dash after a code, like a bracket or a slash: the person the code is of.
    assert_eq!(
        names("Employee 483920 - Irina Dana - has requested leave."),
        ["Irina Dana"]
    );
    // Words of no vocabulary in brackets after a code; a surname that is an English
    // word ending a sentence.
    assert_eq!(
        names("Lab results for QX-4410-82 (Tivaru Morandeq) were sent."),
        ["Tivaru Morandeq"]
    );
    assert_eq!(
        names("She was reviewed in clinic with Adaeze Frost. Physio to continue."),
        ["Adaeze Frost"]
    );
    // An abbreviation is no surname, whatever follows its dot.
    for text in [
        "We paid to Yüksel San.'s account.",
        "Payment to Yüksel San. Tic. Ltd. was made.",
    ] {
        assert!(
            names(text).iter().all(|n| !n.contains("San")),
            "{text}: {:?}",
            names(text)
        );
    }
    // A surname whose letters, without their accents, spell a legal form ("SA").
    assert_eq!(names("He met Soraia Sá today."), ["Soraia Sá"]);
    assert!(names("Invoices of Mendes Lopes SA were paid.").is_empty());
    // A chat line's speaker whose surname is an English word.
    assert_eq!(
        names("[10:02] Adaeze Frost: can someone check this?"),
        ["Adaeze Frost"]
    );
}

#[test]
fn names_in_capitals_right_after_a_cue_with_english_words_among_them() {
    // The capitals are the name's style inside lower-case prose: a word that is also an
    // English word is taken when the vocabularies list it as a name.
    for (text, name) in [
        (
            "voicemail left for PRIMA PONGPANITCH today.",
            "PRIMA PONGPANITCH",
        ),
        ("released to BO HÅKANSSON by cheque, posted", "BO HÅKANSSON"),
        (
            "IN THE MATTER OF FANG HE, Deceased. Notice is given that claims against the estate",
            "FANG HE",
        ),
        (
            "Served on ĐỨC TÚ HOÀNG personally at the house",
            "ĐỨC TÚ HOÀNG",
        ),
        (
            "RICK VAN DEN BRAND v. Northgate Logistics - the claimant's date of birth is",
            "RICK VAN DEN BRAND",
        ),
    ] {
        assert_eq!(names(text), [name], "{text}");
    }
    // English words no vocabulary lists as names, two surnames that are words, an
    // acronym, a heading in capitals throughout: no name.
    for text in [
        "please send this for URGENT REVIEW by the team",
        "forwarded to HR TEAM for sign off today",
        "the form was sent to WHITE HOUSE for review",
        "patient referred to ICU STEPDOWN for monitoring",
        "thanks to ALL STAFF for the effort",
        "NOTICE TO ALL STAFF\nPLEASE READ",
    ] {
        assert_eq!(names(text), Vec::<&str>::new(), "{text}");
    }
}

#[test]
fn a_name_joined_by_and_to_a_name_found_is_a_name() {
    for (text, want) in [
        (
            "PICHPANDECHA, Nattawun and Carlijn van Dokkum both live at 257 Camacho Manors",
            vec!["PICHPANDECHA, Nattawun", "Carlijn van Dokkum"],
        ),
        (
            "BALVEER GARDE and Janeth Nyawira both live at 89 Roberts Street",
            vec!["BALVEER GARDE", "Janeth Nyawira"],
        ),
        (
            "Jasmin Iversen and Ulug‘bek Humoyunov both live at the same house",
            vec!["Jasmin Iversen", "Ulug‘bek Humoyunov"],
        ),
    ] {
        assert_eq!(names(text), want, "{text}");
    }
    // The next item of a list of names.
    let text = "Attendees: Ana Lima, Raúl Gómez, Chen Jie";
    assert_eq!(names(text), ["Ana Lima", "Raúl Gómez", "Chen Jie"]);
    let text = "Meeting notes - Ikechukwu Obi, Marta Sousa";
    assert_eq!(names(text), ["Ikechukwu Obi", "Marta Sousa"]);
    // An organisation, a department, a place, a role beside a name stay what they are.
    for (text, want) in [
        ("Signed by Raúl Gómez, Senior Adjuster.", vec!["Raúl Gómez"]),
        ("- Ngozi Nwosu, New Gregory", vec!["Ngozi Nwosu"]),
        (
            "Thanks, Ana Lima, Data Protection Officer",
            vec!["Ana Lima"],
        ),
        (
            "The claim was sent to Acme Holdings and Maria Keller for review.",
            vec!["Maria Keller"],
        ),
        (
            "We met Maria Keller and the Claims Department today.",
            vec!["Maria Keller"],
        ),
        (
            "Tickets for New York and Maria Keller were booked.",
            vec!["Maria Keller"],
        ),
        (
            "Payroll and Benefits and Maria Keller",
            vec!["Maria Keller"],
        ),
    ] {
        assert_eq!(names(text), want, "{text}");
    }
}

#[test]
fn a_common_given_name_then_a_surname_that_is_a_word_in_capitals_in_prose() {
    let text = "EMPLOYEE RECORD\nBRADLEY READ\nStaff ID: E-213118\nHome address: 1/11 Eric \
                Link\nEmergency contact: Nicholas Asiedu, 4436947745";
    assert!(names(text).contains(&"BRADLEY READ"), "{:?}", names(text));
    // A heading in capitals throughout stays a heading.
    let text = "BRADLEY READ\nSTAFF RECORD\nHOME ADDRESS";
    assert_eq!(names(text), Vec::<&str>::new());
}

#[test]
fn a_surname_that_is_a_foreign_street_type_after_a_cue() {
    let text = "Note to file: voicemail left for Caridad Carrera on +61-8-9317-4164.";
    assert_eq!(names(text), ["Caridad Carrera"]);
    // An English street word stays a street.
    assert_eq!(
        names("The office moved to Barbara Key last year."),
        Vec::<&str>::new()
    );
}

#[test]
fn the_name_below_a_letters_closing_line() {
    for text in [
        "Met vriendelijke groet,\nBram de Vries",
        "Kind regards,\nBram de Vries\nClaims Team",
    ] {
        assert_eq!(names(text), ["Bram de Vries"], "{text}");
    }
    // Below any other line the same words need a cue of their own.
    assert_eq!(names("Team update\nBram de Vries"), Vec::<&str>::new());
}
