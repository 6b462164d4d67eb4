//! Tests of the address recognizer.
use super::super::tests::{find, has, run};

#[test]
fn addresses() {
    let items = run(
        "Mailing Address: 1187 Larkspur Lane, Fenwick Falls, OR 97321\n\
         Confirmed his mailing address (2260 West Alder St., Millbrook).",
    );
    let a = find(
        &items,
        "ADDRESS",
        "1187 Larkspur Lane, Fenwick Falls, OR 97321",
    )
    .unwrap_or_else(|| panic!("{items:?}"));
    assert_eq!(a.normalized, "1187 larkspur lane, fenwick falls, or 97321");
    assert!(
        has(&items, "ADDRESS", "2260 West Alder St., Millbrook"),
        "{items:?}"
    );
}

#[test]
fn more_phone_and_address_forms() {
    let items = run(
        "Call 1-800-555-0199 or reach her on 07700 900123. Write to P.O. Box 4410, \
         Asheville, NC 28802.",
    );
    assert!(has(&items, "PHONE_NUMBER", "1-800-555-0199"), "{items:?}");
    assert!(has(&items, "PHONE_NUMBER", "07700 900123"));
    assert!(has(&items, "ADDRESS", "P.O. Box 4410, Asheville, NC 28802"));
}

/// The address of each text, as written, or `None`.
fn address(text: &str) -> Option<String> {
    let items = run(text);
    let found: Vec<&str> = items
        .iter()
        .filter(|i| i.entity_type == "ADDRESS")
        .map(|i| i.original.as_str())
        .collect();
    match found.as_slice() {
        [] => None,
        [one] => Some((*one).to_owned()),
        _ => panic!("several addresses in {text:?}: {found:?}"),
    }
}

#[test]
fn streets_in_the_forms_of_other_countries() {
    for (text, want) in [
        (
            "He moved to 9 rue des Lilas, 75019 Paris.",
            "9 rue des Lilas, 75019 Paris",
        ),
        ("Envoyez-le au 12 avenue Foch.", "12 avenue Foch"),
        (
            "Wohnhaft in der Hauptstraße 12, 10115 Berlin",
            "Hauptstraße 12, 10115 Berlin",
        ),
        (
            "Adres: Kerkstraat 5, 1017 GC Amsterdam",
            "Kerkstraat 5, 1017 GC Amsterdam",
        ),
        ("Bor på Storgatan 3, Umeå.", "Storgatan 3, Umeå"),
        ("Vive en Calle Mayor 5, Madrid", "Calle Mayor 5, Madrid"),
        (
            "Mieszka przy ul. Długa 5, 00-238 Warszawa",
            "ul. Długa 5, 00-238 Warszawa",
        ),
        (
            "Send it to Via della Spiga 12; thanks",
            "Via della Spiga 12",
        ),
        // A unit's number and a slash before the house number (Australian style).
        (
            "The insured lives at 4/27 Beach Rd, Bondi NSW 2026.",
            "4/27 Beach Rd, Bondi NSW 2026",
        ),
        ("lives at 4/27 Beach Rd", "4/27 Beach Rd"),
        // A unit type in lower case and its number after the house number.
        (
            "Spedire a Via Roma 4 int. 2, 00184 Roma",
            "Via Roma 4 int. 2, 00184 Roma",
        ),
        (
            "Wohnhaft in der Lindenweg 7 whg. 3, Graz",
            "Lindenweg 7 whg. 3, Graz",
        ),
        // A kind of place that is no English word leads a street too.
        (
            "the premises at Urbanización Rosaura Escalona 47, Málaga since October",
            "Urbanización Rosaura Escalona 47, Málaga",
        ),
        (
            "at the property (Urbanización de Vinicio Palma 74) to inspect",
            "Urbanización de Vinicio Palma 74",
        ),
    ] {
        assert_eq!(address(text).as_deref(), Some(want), "{text}");
    }
}

#[test]
fn units_cities_and_postcodes_around_a_street() {
    for (text, want) in [
        (
            "Address: Flat 3, 22 Kingsley Gardens, Leeds LS6 1AA",
            "Flat 3, 22 Kingsley Gardens, Leeds LS6 1AA",
        ),
        (
            "Please send it to 47 Quayside Rd., Portsmouth PO1 3AB.",
            "47 Quayside Rd., Portsmouth PO1 3AB",
        ),
        (
            "Forward mail to PO Box 1123, Dayton OH 45401.",
            "PO Box 1123, Dayton OH 45401",
        ),
        (
            "She lives at 1208 N. Elm St. Apt 4B, Springfield, IL 62704.",
            "1208 N. Elm St. Apt 4B, Springfield, IL 62704",
        ),
        ("Home: 4 Hollins Walk near the park", "4 Hollins Walk"),
        (
            "Patient resides at 184 Marlborough St #4, Boston (617-555-0184).",
            "184 Marlborough St #4, Boston",
        ),
    ] {
        assert_eq!(address(text).as_deref(), Some(want), "{text}");
    }
}

#[test]
fn the_value_of_an_address_field_is_an_address() {
    assert_eq!(
        address("Home address: Rm 5 Block C Taman Melati 53100 KL   Phone: 555-0100").as_deref(),
        Some("Rm 5 Block C Taman Melati 53100 KL")
    );
    assert_eq!(
        address("Adresse : Le Clos Fleuri, lot 14, Saint-Paul. Merci.").as_deref(),
        Some("Le Clos Fleuri, lot 14, Saint-Paul")
    );
    // Not postal addresses, or no address at all.
    for text in [
        "Email address: maria.keller@example.org",
        "IP address: 10.0.0.12",
        "Address: on file (updated 2023)",
        "Address: [ADDRESS]",
        "Address: Kingsley Gardens, Leeds",
    ] {
        assert_eq!(address(text), None, "{text}");
    }
}

#[test]
fn numbers_before_ordinary_words_are_no_streets() {
    for text in [
        "She has 2 Court Dates next month.",
        "We set 3 Place Settings for the dinner.",
        "He ran Highway 61 and Broadway 5 times.",
        "Visit Gateway 2, the new portal.",
        "Room 12 Maria Keller was discharged.",
        "The visit is at UIHC's Level 4 Epilepsy Center.",
        "It took 3 Weeks Longer than planned.",
    ] {
        assert_eq!(address(text), None, "{text}");
    }
}

/// A house-number range is one address, a year range is not; a county between the
/// town and the postcode keeps the postcode in the address.
#[test]
fn number_ranges_and_a_county_before_the_postcode() {
    assert_eq!(
        address("Property: Unit 12, 45-47 Harbour Rd, Fremantle WA 6160").as_deref(),
        Some("Unit 12, 45-47 Harbour Rd, Fremantle WA 6160")
    );
    assert_eq!(
        address("She lives at 12–14 Quarry Road.").as_deref(),
        Some("12–14 Quarry Road")
    );
    assert_eq!(address("In 2019-2021 Harbour Road works closed it."), None);
    assert_eq!(
        address("The home at 88 Old Mill Lane, Little Snoring, Norfolk NR21 0AB flooded.")
            .as_deref(),
        Some("88 Old Mill Lane, Little Snoring, Norfolk NR21 0AB")
    );
    // Without a postcode, a second place after the town is not taken.
    assert_eq!(
        address("Seen at 12 Main Street, Springfield, Dr. Smith said.").as_deref(),
        Some("12 Main Street, Springfield")
    );
}

/// "address is" labels the value like "Address:", and a sentence ends after a town of
/// four letters.
#[test]
fn an_address_after_address_is() {
    assert_eq!(
        address("Her address is Calle Mayor 12, 3º B, 28013 Madrid.").as_deref(),
        Some("Calle Mayor 12, 3º B, 28013 Madrid")
    );
    assert_eq!(
        address("Her address was 14 Rue des Lilas, 69003 Lyon. She moved.").as_deref(),
        Some("14 Rue des Lilas, 69003 Lyon")
    );
    assert_eq!(
        address("His email address is j.doe@example.com today."),
        None
    );
    assert_eq!(address("The address is unknown."), None);
    // "address Is…": the label's "is" is a word, not a street's first letters; the
    // sentence going on after the address is none of it.
    assert_eq!(
        address("She gave the mailing address Isarweg 17, Kleinwald 4821 KT and asked that letters go there.")
            .as_deref(),
        Some("Isarweg 17, Kleinwald 4821 KT")
    );
}

/// A street type in lower case and a name, without a number or a town, after a
/// preposition of place.
#[test]
fn a_street_without_a_number_after_a_preposition_of_place() {
    assert_eq!(
        address("The tenant lives at chemin Gaspard Morel.").as_deref(),
        Some("chemin Gaspard Morel")
    );
    assert_eq!(
        address("Running late, stuck on boulevard Pichon").as_deref(),
        Some("boulevard Pichon")
    );
    assert_eq!(address("We walked along the chemin Gaspard Morel."), None);
    // A common type ("avenue") in lower case: with a particle and a town, or a town and
    // its postcode.
    assert_eq!(
        address("Witnessed by the porter, avenue de Lanvin, Mirecourt").as_deref(),
        Some("avenue de Lanvin, Mirecourt")
    );
    assert_eq!(
        address("Notice sent to the tenant, avenue Gaspard Morel, Mirecourt 88500.").as_deref(),
        Some("avenue Gaspard Morel, Mirecourt 88500")
    );
    assert_eq!(address("Turn onto the avenue Gaspard, then left."), None);
    // … or alone on its line of an address block, the town and postcode on the next;
    // or with a particle in brackets, after the word "address", before a postcode.
    assert_eq!(
        address("Ana Pop\navenue Gaspard\nMirecourt 88500\n\nDear Policyholder,").as_deref(),
        Some("avenue Gaspard\nMirecourt 88500")
    );
    assert_eq!(
        address("The adjuster met her at the property (avenue de Lanvin) today.").as_deref(),
        Some("avenue de Lanvin")
    );
    assert_eq!(
        address("Moved to Mirecourt, new address avenue de Lanvin, 88500").as_deref(),
        Some("avenue de Lanvin, 88500")
    );
    assert_eq!(
        address("We walked down the avenue de Gaulle with friends."),
        None
    );
    assert_eq!(address("Take the avenue\nParis 75001"), None);
    // After the word "address" any type; a date before is no house number.
    assert_eq!(
        address("fyi she moved - new addr avenue Gaspard, Mirecourt").as_deref(),
        Some("avenue Gaspard, Mirecourt")
    );
    assert_eq!(
        address("Re: Ana Pop, d.o.b. 1950-02-03, rue de Lanvin, Mirecourt").as_deref(),
        Some("rue de Lanvin, Mirecourt")
    );
    assert_eq!(
        address("Re: Ana Pop, d.o.b. February 7, 1979, avenue de Lanvin, Mirecourt\nThank you")
            .as_deref(),
        Some("avenue de Lanvin, Mirecourt")
    );
}

/// Streets of other countries' forms and of the USPS suffix list, written without a
/// house number after a unit, or with a floor after the number (classes the leak
/// benchmark showed; the streets here are invented).
#[test]
fn leading_types_usps_suffixes_units_and_floors() {
    for (text, want) in [
        (
            "Posted to Vicolo Berni, 12 Piano 3, Lecco, 23900.",
            "Vicolo Berni, 12 Piano 3, Lecco, 23900",
        ),
        (
            "They live at Borgo Tessa, 48, Rimini.",
            "Borgo Tessa, 48, Rimini",
        ),
        ("Reach her at Travessa Lima, 7.", "Travessa Lima, 7"),
        (
            "Sent to 914 Harlow Neck, Dover 19901.",
            "914 Harlow Neck, Dover 19901",
        ),
        (
            "Sent to 77 Pell Glens Apt. 4 today.",
            "77 Pell Glens Apt. 4",
        ),
        (
            "Posted to Flat 9, Dunmore Estate, Leeds.",
            "Flat 9, Dunmore Estate, Leeds",
        ),
        (
            "Posted to 12/4 Corra Spur, Perth 6000.",
            "12/4 Corra Spur, Perth 6000",
        ),
        (
            "Both live at 8, rue Antoine, Lyon, so.",
            "8, rue Antoine, Lyon",
        ),
        (
            "Served at Largo Pinto, S/N, Almeirim, on Monday.",
            "Largo Pinto, S/N, Almeirim",
        ),
        // A libpostal type that is an English word too, capitalised, before a name
        // that is none.
        (
            "She lives at Piazza Gabbiani 24, Lecco 23900.",
            "Piazza Gabbiani 24, Lecco 23900",
        ),
    ] {
        assert_eq!(address(text).as_deref(), Some(want), "{text}");
    }
    // An address field naming a street without a number.
    let items = run("Home address: chemin des Vignes\nPhone: none");
    assert!(has(&items, "ADDRESS", "chemin des Vignes"), "{items:?}");
    // English street types do not lead a street ("Terrace Bar 5").
    assert_eq!(address("Meet at Terrace Bar 5, then home."), None);
}

/// A letter's address block: the town and postcode on the line after the street are
/// the address's too; a line of prose after a street is not.
#[test]
fn the_town_and_postcode_on_the_next_line() {
    for (text, want) in [
        (
            "Harold Brennan\n42 Elm Street\nSpringfield, IL 62704\n\nDear Mr Brennan,",
            "42 Elm Street\nSpringfield, IL 62704",
        ),
        (
            "Ana Paz\n9 rue des Lilas\n75019 Paris\nFrance",
            "9 rue des Lilas\n75019 Paris",
        ),
        (
            "Flat 3, 22 Kingsley Gardens\nLeeds LS6 1AA\nThank you.",
            "Flat 3, 22 Kingsley Gardens\nLeeds LS6 1AA",
        ),
        (
            "She lives at 42 Elm Street.\nThe claim was paid in 2024 and closed.",
            "42 Elm Street",
        ),
    ] {
        assert_eq!(address(text).as_deref(), Some(want), "{text}");
    }
}

/// A street's name that is a person's name listed in the English word list is no
/// English word: "Via Gutierrez 99" is a street, "Way Forward 2" is not.
#[test]
fn a_street_named_after_a_person_after_an_english_word_type() {
    assert_eq!(
        address("Send it to Via Quintana 99, 00100 Roma.").as_deref(),
        Some("Via Quintana 99, 00100 Roma")
    );
    assert_eq!(
        address("Garaged at Alameda Fernando Ropero 1 Piso 7, Madrid 39577.").as_deref(),
        Some("Alameda Fernando Ropero 1 Piso 7, Madrid 39577")
    );
    assert_eq!(address("We found the Way Forward 2 times."), None);
}

/// A street type in lower case without a house number, before a town and a postcode.
#[test]
fn a_lower_case_street_type_before_a_town_and_postcode() {
    assert_eq!(
        address("He confirmed the mailing address rue Quellmar, Loubens 31760 and left.")
            .as_deref(),
        Some("rue Quellmar, Loubens 31760")
    );
    // After a determiner: prose about a street, not an address; an English word is no
    // such type.
    assert_eq!(
        address("We walked down the rue Quellmar, Loubens today."),
        None
    );
    assert_eq!(address("Sent via Quellmar, Loubens 31760 by post."), None);
}

#[test]
fn streets_named_after_a_particle_and_lower_case_types_without_a_postcode() {
    for (text, want) in [
        // A particle after an abbreviated type: no English prose.
        (
            "Forwarding address Av de Santa Luzia, 14, Ovar.",
            "Av de Santa Luzia, 14, Ovar",
        ),
        // A common English word as the type, with a particle, a town and a postcode.
        (
            "A copy went to avenue de Lattre, Vienne 38200.",
            "avenue de Lattre, Vienne 38200",
        ),
        // A rarer type: with a particle alone, or with a town after a comma.
        (
            "The adjuster met her at the property (rue du Moulin) today.",
            "rue du Moulin",
        ),
        (
            "Forwarding address boulevard Henri Ruel, Nantes.",
            "boulevard Henri Ruel, Nantes",
        ),
    ] {
        assert_eq!(address(text).as_deref(), Some(want), "{text}");
    }
    // English prose keeps its words: no particle, no town, a common type word.
    for text in [
        "We walked down the avenue Marie liked best.",
        "Sent via de Boer Logistics, Utrecht.",
        "I rue the day Harold Brennan called.",
    ] {
        assert_eq!(address(text), None, "{text}");
    }
}

#[test]
fn a_street_keeps_its_address_when_its_tail_runs_into_an_id() {
    // A town named after a person, then the postcode: read as a person's code, an id,
    // which wins its overlap with the address; the street before them is still an
    // address, not left as text.
    let text = "The cheque was posted to Travessa Nunes, 12, Paulo de Frontin, 2600-123.";
    let items = run(text);
    assert!(
        items
            .iter()
            .any(|i| i.entity_type == "ADDRESS" && i.original.starts_with("Travessa Nunes, 12")),
        "{items:?}"
    );
}

#[test]
fn a_qualified_address_label_without_a_colon_before_a_house_number() {
    // Whatever the street's type: the label and the number say it.
    let items = run("Exit interview notes. Forwarding address 987 Smith Upper, Austinhaven.");
    assert!(
        has(&items, "ADDRESS", "987 Smith Upper, Austinhaven"),
        "{items:?}"
    );
    let items = run("Her home address 78 Delacruz Cul-de-sac, Lake Thomas is on file.");
    assert!(
        items
            .iter()
            .any(|i| i.entity_type == "ADDRESS" && i.original.starts_with("78 Delacruz Cul-de-sac")),
        "{items:?}"
    );
    // "address" as a verb, or a number that opens no street's name, is no address.
    for text in [
        "Please address 2 issues in the report.",
        "Our new address 4 you is below.",
    ] {
        let items = run(text);
        assert!(
            !items.iter().any(|i| i.entity_type == "ADDRESS"),
            "{text}: {items:?}"
        );
    }
}

/// A street type abbreviated to a capital and a dot ("R." for "Rua"), a particle, a
/// name, a comma and a house number; an initial before a particle and a name is a
/// person's ("R. de Souza, 555 0101": a phone after the comma).
#[test]
fn a_type_abbreviated_to_one_letter_before_a_particle_and_a_number() {
    assert_eq!(
        address("Vehicle garaged at R. das Oliveiras, 217.").as_deref(),
        Some("R. das Oliveiras, 217")
    );
    assert_eq!(address("Call R. de Souza, 555 0101 tomorrow."), None);
    assert_eq!(address("Signed: R. de Souza, 12 March 2024."), None);
}

/// A compound street name whose type follows two letters only ("Kaweg 3").
#[test]
fn a_compound_street_with_a_short_first_part() {
    assert_eq!(
        address("They both live at Kaweg 3, Asten, so one pack was posted.").as_deref(),
        Some("Kaweg 3, Asten")
    );
}

/// A common street type in lower case right after "at" or "on", then a name of two
/// words, each a name or no English word, ending the sentence (invented streets); an
/// English phrase after "at avenue" is no street.
#[test]
fn a_lower_case_common_type_after_at_with_a_name_ending_the_sentence() {
    let items = run("Vehicle garaged at avenue Mathilde Roussel.");
    assert!(
        has(&items, "ADDRESS", "avenue Mathilde Roussel"),
        "{items:?}"
    );
    let items = run("We looked at avenue Options Today, then left.");
    assert!(
        !items.iter().any(|i| i.entity_type == "ADDRESS"),
        "{items:?}"
    );
    let items = run("running late, stuck on avenue Roussel");
    assert!(has(&items, "ADDRESS", "avenue Roussel"), "{items:?}");
    let items = run("I, Ana Pop, of avenue Mathilde Roussel, Marchand, make this statement.");
    assert!(
        items.iter().any(
            |i| i.entity_type == "ADDRESS" && i.original.starts_with("avenue Mathilde Roussel")
        ),
        "{items:?}"
    );
    let items = run("the address given by Ana Pop (boulevard Roussel) matches two claims");
    assert!(has(&items, "ADDRESS", "boulevard Roussel"), "{items:?}");
    let items = run("The road (avenue Theory) is closed.");
    assert!(
        !items.iter().any(|i| i.entity_type == "ADDRESS"),
        "{items:?}"
    );
    let items = run("The courier waits at avenue Mathilde Roussel depot.");
    assert!(
        !has(&items, "ADDRESS", "avenue Mathilde Roussel"),
        "{items:?}"
    );
}

/// A street type written with hyphens ("Cul-de-sac"), listed by its first word; a
/// particle inside an English street's name ("69 de Lacy Street"); a capitalised
/// word of no vocabulary, a name, a comma, the house number and a unit with its
/// number ("Crocevia Aldo, 8 Piano 2"), not an English phrase there. (Invented.)
#[test]
fn hyphenated_types_particles_in_english_streets_and_a_unit_after_the_number() {
    let items = run("I, Ana Pop, of 531 Rowan Cul-de-sac, South Amanda, make this statement.");
    assert!(
        items
            .iter()
            .any(|i| i.entity_type == "ADDRESS" && i.original.starts_with("531 Rowan Cul-de-sac")),
        "{items:?}"
    );
    let items = run("Letter copied to: Ana Pop, 69 de Lacy Street, Kathleen Ville K53 4T51");
    assert!(
        items
            .iter()
            .any(|i| i.entity_type == "ADDRESS" && i.original.starts_with("69 de Lacy Street")),
        "{items:?}"
    );
    let items = run("Parcel left with the neighbour at Crocevia Aldo, 8 Piano 2.");
    assert!(
        has(&items, "ADDRESS", "Crocevia Aldo, 8 Piano 2"),
        "{items:?}"
    );
    let items = run("Meeting with Zorblax Industries, 12 Apt 3 units sold.");
    assert!(
        !items.iter().any(|i| i.entity_type == "ADDRESS"),
        "{items:?}"
    );
    let items = run("We met at 12 Jean-Pierre Dupont today.");
    assert!(
        !items.iter().any(|i| i.entity_type == "ADDRESS"),
        "{items:?}"
    );
}
