//! Tests of cues only a person takes (a street type or a town as a surname or a first
//! name), names in capitals laid out as a signature or a list item, `LAST, FIRST` with
//! a middle name or a town as the first name, letters no decomposition strips, and
//! the Dutch particle "'t".
use super::tests::names;

#[test]
fn a_street_type_or_a_town_is_a_name_after_a_cue_no_street_takes() {
    for (text, want) in [
        (
            "The file was reviewed with Oliver Wall this morning.",
            "Oliver Wall",
        ),
        ("Emma Lake, a 39-year-old nurse, slipped.", "Emma Lake"),
        ("Oliver Wall said the form was late.", "Oliver Wall"),
        ("Admitted: Sanne van Dam, DOB 2 May 1950.", "Sanne van Dam"),
        ("We rang Vitória Pereira twice.", "Vitória Pereira"),
        // An English word that is somebody's name, before the surname, with an age.
        ("Tutu Nowicki, a 70-year-old roofer, fell.", "Tutu Nowicki"),
        // A rarer given name and a street type of one list that is no English word,
        // after a cue and with no house number before.
        ("cc'd Ana Pop and Urvi Amble on the reply", "Urvi Amble"),
        // A rarer English word ("Pont") with a cue before or a person's code after.
        (
            "Dx: whiplash. Seen by Rebeca Pont. Next of kin …",
            "Rebeca Pont",
        ),
        ("09:20 Rebeca Pont (4497267806)", "Rebeca Pont"),
        // A street type first ("Rua") with a cue only a person takes.
        (
            "Return-to-work interview held with Rua Barasa.",
            "Rua Barasa",
        ),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    // The cues a street or a place takes as well leave them streets and places.
    for text in [
        "The office moved to Oliver Wall last year.",
        "Steven Knoll will be closed on Monday.",
        "Bay Street said nothing about it.",
        "Yesterday Nowicki, a 70-year-old roofer, fell.",
        "The parcel went to 14 Urvi Amble on Monday.",
        "The office is at Rua Barasa, Lisboa.",
    ] {
        assert!(
            !names(text)
                .iter()
                .any(|n| ["Wall", "Knoll", "Street", "Amble", "Barasa"]
                    .iter()
                    .any(|w| n.contains(w))),
            "{text}: {:?}",
            names(text)
        );
    }
}

#[test]
fn last_first_with_a_middle_name_in_letters_of_their_own_or_a_town_first_name() {
    assert_eq!(
        names("The surveyor met Trần, Đức Minh at the site."),
        ["Trần, Đức Minh"]
    );
    assert_eq!(
        names("The surveyor met Alvarado, Santiago at the site."),
        ["Alvarado, Santiago"]
    );
    // A place and its region stay a place.
    assert!(names("Offices in Valparaíso, Santiago and Lima.").is_empty());
}

#[test]
fn names_in_capitals_in_a_signature_a_list_item_or_a_record() {
    assert_eq!(
        names("Best regards,\n\nTHANH VI NGUYEN\nClaims Officer\n+44 20 7946 0018"),
        ["THANH VI NGUYEN"]
    );
    assert_eq!(
        names("- MARIA EDUARDA DA SILVA (+351 912 345 678)\n- Ana Lopes (0612345678)"),
        ["MARIA EDUARDA DA SILVA", "Ana Lopes"]
    );
    assert_eq!(
        names("STAFF FILE\nKIRAN BRUNO ARAÚJO\nEmployee no: 55120"),
        ["KIRAN BRUNO ARAÚJO"]
    );
    // Headings and firms in capitals stay unnamed.
    for text in [
        "Best regards,\n\nCLAIMS TEAM\n+44 20 7946 0018",
        "- ANNUAL REVIEW (2024)\n- Budget (draft)",
        "Invoices to NORDIC TRADING AB by Friday.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn the_dutch_particle_t_joins_a_name() {
    assert_eq!(
        names("Left a message for Joris van 't Hek about the claim."),
        ["Joris van 't Hek"]
    );
    assert_eq!(
        names("Left a message for J. van 't Hek about the claim."),
        ["J. van 't Hek"]
    );
}

#[test]
fn an_english_word_as_a_first_name_in_a_chat_speaker_a_labelled_field_or_before_who() {
    for (text, want) in [
        (
            "[10:02] Dina Osei: can you check this?\n[10:05] Wage Marpaung: on it",
            "Wage Marpaung",
        ),
        ("[10:05] Per Lindqvist: done", "Per Lindqvist"),
        (
            "Selection panel: Eta Wanjiru (chair). The candidate arrived.",
            "Eta Wanjiru",
        ),
        (
            "Re: CLM-2024-118204 / Comfort Mensah\nThe insured asked us to call.",
            "Comfort Mensah",
        ),
        (
            "A reference for Bale Okonkwo, who drove for us until May.",
            "Bale Okonkwo",
        ),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    // Subjects and fields of ordinary words stay unnamed.
    for text in [
        "Subject: Annual Leave\nHi all",
        "Re: Summer Picnic\nHi all",
        "Status: Grace Period (ends Friday)",
        "Re: CLM-2024-118204 / Grace Period\nThe insured asked us to call.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn last_first_with_a_middle_name_and_the_cue_after_it() {
    assert_eq!(
        names("- SALES, Ana Beatriz (+351 912 345 678)\n- Rui Costa (+351 913 000 111)"),
        ["SALES, Ana Beatriz", "Rui Costa"]
    );
}

#[test]
fn a_surname_that_is_an_english_word_is_a_party_of_a_cited_case() {
    assert_eq!(
        names("Ann Smith v Hook [2021] EWHC 1432 (QB) concerned a similar fall."),
        ["Ann Smith", "Hook"]
    );
    assert_eq!(
        names("RE: SMITH v HOOK - directions hearing listed for November 9."),
        ["SMITH", "HOOK"]
    );
    // No year in brackets, no case: "Hook" is a word.
    assert_eq!(names("Ann Smith v Hook is a riddle."), ["Ann Smith"]);
}

#[test]
fn the_other_end_of_a_handover_is_a_name() {
    assert_eq!(
        names("Reassigned CASE-2 from Alberta Nistor to Bo Li."),
        ["Alberta Nistor", "Bo Li"]
    );
    assert_eq!(
        names("Reassigned CASE-1 from Bo Lu to Lubomír Marek today."),
        ["Bo Lu", "Lubomír Marek"]
    );
    // A place or a department at the other end stays what it is.
    assert_eq!(
        names("Transferred from New York to Ann Smith."),
        ["Ann Smith"]
    );
    assert_eq!(
        names("The file went from Legal Services to Ann Smith."),
        ["Ann Smith"]
    );
}

/// `LAST, FIRST` where the first word is listed only as a given name and the second
/// is a given name too, neither a place: with a cue it is one person, whichever word is
/// the surname. (Names invented from the given-name list.)
#[test]
fn last_first_with_two_given_names_and_a_cue() {
    for text in [
        "Parcel for Flamur, Sudershan left with the neighbour.",
        "Flamur, Sudershan's claim is the one with the burst pipe.",
    ] {
        assert!(
            names(text).contains(&"Flamur, Sudershan"),
            "{text}: {:?}",
            names(text)
        );
    }
}

/// A surname no vocabulary lists as a name but as a rarer English word (a brand's, a
/// comparative), after a common given name, with a cue and ending the run; a title of
/// such words is none. (Names invented.)
#[test]
fn a_rare_word_as_a_surname_after_a_common_given_name_with_a_cue() {
    for (text, want) in [
        (
            "Beneficiaries: the insured (50%), Thomas Peugeot (50%)",
            "Thomas Peugeot",
        ),
        (
            "Pls contact Sébastien Peugeot @ 555-0101 before Friday",
            "Sébastien Peugeot",
        ),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    let text = "December newsletter: Autumn Payroll Summary.";
    assert!(names(text).is_empty(), "{text}: {:?}", names(text));
}

/// A given name and a surname that are English words, or that name a place or a park
/// too, are a person's with a cue only a person takes; `LAST, FIRST` of two such words
/// after a cue; lower-case particles before the surname of `LAST, FIRST` belong to it.
/// The same words with other cues, or before a noun of their phrase, are the place's.
/// (Names invented.)
#[test]
fn english_words_and_places_as_a_name_with_a_cue_only_a_person_takes() {
    for (text, want) in [
        ("Dear Hope Hills,\n\nFurther to our meeting", "Hope Hills"),
        ("Dear HOPE HILLS,\n\nFurther to our meeting", "HOPE HILLS"),
        (
            "The file was reviewed with Grace Park on Monday.",
            "Grace Park",
        ),
        ("voicemail left for Kong, Na on 555-0101.", "Kong, Na"),
        (
            "voicemail left for de Haan, Jente on 555-0101",
            "de Haan, Jente",
        ),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    for text in [
        "Thanks to Grace Park for the venue.",
        "We drove to Hope Hills on Sunday.",
        "The meeting with Grace Park staff went well.",
        "We flew into Kong, Na on Monday.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

/// A surname in capitals that is a rarer English word or a place, before a given name
/// that is an English word too, is a name with a cue; a place and its country or a
/// word in capitals before an address is none. (Names invented.)
#[test]
fn a_rare_word_in_capitals_before_a_worded_given_name_with_a_cue() {
    for text in [
        "Reminder for MOL, Isis: appointment moved.",
        "Shared the document with ab@example.com (MOL, Isis)",
        "Can someone ring MOL, Isis back on 555-0101?",
    ] {
        assert!(
            names(text).contains(&"MOL, Isis"),
            "{text}: {:?}",
            names(text)
        );
    }
    for text in [
        "Flights to NICE, France were cancelled.",
        "URGENT, Grace please call.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

/// `LAST, FIRST` with a surname written with accents that make it no legal form ("Sá",
/// not "SA"), or in letters no English word has before a first name that is an English
/// word, with a cue (names invented).
#[test]
fn last_first_with_an_accented_surname() {
    for (text, want) in [
        ("Shout-out to Sá, Bruna from the store!", "Sá, Bruna"),
        (
            "Asked Əsgərli, Valid to resubmit the timesheet.",
            "Əsgərli, Valid",
        ),
        // A second given name that is an English word after a surname in capitals.
        (
            "DƯƠNG, Thị Vi wrote:\n> I still have not heard back",
            "DƯƠNG, Thị Vi",
        ),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    for text in ["Shares of Acme, SA fell.", "Zürich, Switzerland is lovely."] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}
