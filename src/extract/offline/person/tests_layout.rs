//! Tests of names found by where they stand in a layout (record lines, quoted and
//! bracketed values, letters' address blocks, labels without colons), by cue words
//! and honorifics of other languages, and in lower case.
use super::tests::names;

#[test]
fn names_filling_the_first_cell_of_a_record_line_or_a_quoted_value() {
    for (text, want) in [
        ("Wall, Ruth - 3 West - bed 12", "Wall, Ruth"),
        (
            "1. Gonzalez, Constanza - site engineer",
            "Gonzalez, Constanza",
        ),
        ("VALUES ('Najeeb, Zafeer', '1989-04-08');", "Najeeb, Zafeer"),
        ("And the winner is... Ali, Dalili!", "Ali, Dalili"),
        ("Kiptoo, Khamisi reacted to your message", "Kiptoo, Khamisi"),
        ("Nguyễn, Vi - 3 West", "Nguyễn, Vi"),
        (
            "WASUNUN Sitiwat\tCase Officer\tx@example.org",
            "WASUNUN Sitiwat",
        ),
        ("WEST Colin\tPractice Manager", "WEST Colin"),
        (
            "1. Leigh Powell - bus driver\n2. Eder Riša - bus driver",
            "Eder Riša",
        ),
        (
            "Neither HOÀNG, Đức Hưng nor the insurer attended.",
            "HOÀNG, Đức Hưng",
        ),
        (
            "Case 12: MACKESEY, PEARCE (aged 38) - adjourned",
            "MACKESEY, PEARCE",
        ),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    // Headings, places and departments in the same places are no persons.
    for text in [
        "However, Ruth said it was fine.",
        "Paris, France - travel notes",
        "URGENT Claim\tOpen",
        "SUMMARY Review - 2024",
        "Annual Review - 2024",
        "Sales, Marketing - team list",
        "Nord Kivu - field report",
        "NOTE Please call back.",
        "Radenthein, Sachsen-Anhalt — Stowarzyszenie Leśna",
        "Oversteeg Groep — Quarterly Payroll Newsletter",
        "The warehouse moved to Praia Vargas last year.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn a_name_is_no_place_word_by_letters_its_accents_or_its_language_deny() {
    // Norwegian "søndre" (south) is a kind of place and a given name; "Löwer" is a
    // surname, not "lower"; after a particle an English word is a surname.
    assert_eq!(names("Sondre Kristensen called."), ["Sondre Kristensen"]);
    assert_eq!(
        names("Subject: Helena Löwer - windscreen"),
        ["Helena Löwer"]
    );
    assert_eq!(
        names("Forwarded on behalf of Annabel van Tours"),
        ["Annabel van Tours"]
    );
    assert!(names("Lower Sonning flooded again.").is_empty());
}

#[test]
fn a_relative_in_brackets_and_the_display_name_of_an_address_are_cued() {
    assert_eq!(
        names("Lives with partner (Jan Theunis) at the farm."),
        ["Jan Theunis"]
    );
    assert_eq!(
        names("Shared the document with a.held@example.org (ALMA HELD)"),
        ["ALMA HELD"]
    );
}

#[test]
fn last_first_with_a_surname_in_capitals_or_after_a_legal_cue() {
    for (text, want) in [
        (
            "Plaintiff HUZAIFA, Awmar, pro se, filed an amended complaint.",
            "HUZAIFA, Awmar",
        ),
        (
            "Just got off the phone with ŞAFAK, Şayan - very upset",
            "ŞAFAK, Şayan",
        ),
        (
            "Witness: Herr WEEKS, Brandi, wohnhaft 12 Road.",
            "WEEKS, Brandi",
        ),
        (
            "Name: SAYYID, Nyuki Emp#: 556 Dept: Logistics",
            "SAYYID, Nyuki",
        ),
        (
            "MIGUEL, Modesto, MRN#55, DOB:24 December 1958",
            "MIGUEL, Modesto",
        ),
        (
            "Łabaj, Błażej, MRN#55, DOB:5 June 1951, allergies",
            "Łabaj, Błażej",
        ),
        ("fyi RAYYONOVA, Saida moved - new addr", "RAYYONOVA, Saida"),
        ("Dear MAŁOTA, Iwo,\n\nFurther to our meeting", "MAŁOTA, Iwo"),
        (
            "Following service on Sinaga, Parman at 12 Road, no reply",
            "Sinaga, Parman",
        ),
        (
            "> On January 3, Waskita, Okta <o.w@example.org> wrote:",
            "Waskita, Okta",
        ),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    assert!(names("Visitors from PARIS, Texas came.").is_empty());
}

#[test]
fn verbs_whose_object_is_a_person_and_a_birth_date_in_brackets_are_cues() {
    for (text, want) in [
        (
            "Can someone ring Lungile Maluleka back on 555?",
            "Lungile Maluleka",
        ),
        ("Physio discharged Océane Roy today.", "Océane Roy"),
        (
            "Consent obtained from Lungile Mbekwa (12 June 1945) for it.",
            "Lungile Mbekwa",
        ),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    // A place after "from" has no birth date.
    assert!(names("Shipped from Kettering Mills (since 2019) today.").is_empty());
}

#[test]
fn names_in_lower_case_after_a_cue_word() {
    assert_eq!(
        names("talked to antoine chabot today, she'll send the form"),
        ["antoine chabot"]
    );
    for text in [
        "talked to the team today",
        "sent to head office today",
        "spoke with rose garden staff",
        "welcome to san diego everyone",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn markdown_emphasis_numbered_labels_addressees_and_work_handed_on() {
    for (text, want) in [
        (
            "- **Þorvarðsson, Arnmundur** (forklift operator)",
            "Þorvarðsson, Arnmundur",
        ),
        ("- **IIDA RÖNKKÖ** (site engineer)", "IIDA RÖNKKÖ"),
        (
            "In re the Marriage of Muhammadazizov, Fuzayl and the other.",
            "Muhammadazizov, Fuzayl",
        ),
        (
            "Reassigned LB41486384 from Chayapat Trikasemmart to Ana.",
            "Chayapat Trikasemmart",
        ),
        ("Driver 1: TIRZA CADEFAU, licence 4471", "TIRZA CADEFAU"),
        (
            "ADESOJI EDUN\n12 Harbour Road\nLeeds LS1 2AB\n\nDear Policyholder,",
            "ADESOJI EDUN",
        ),
        (
            "Attending note: family (Bakianto Wacana) updated by phone.",
            "Bakianto Wacana",
        ),
        ("Signed: ____Ana Whitlock____  Date: May 2", "Ana Whitlock"),
        (
            "Name/DOB verified: SHANI ANYANGO / 01/05/1973",
            "SHANI ANYANGO",
        ),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    // A heading above an address is no addressee unless it is made of name words.
    assert!(names("ANNUAL REPORT\n12 Harbour Road\nLeeds").is_empty());
    // Goods moved from a place stay a place.
    assert!(names("Stock moved from Kettering Mills to the depot.").is_empty());
}

#[test]
fn labels_without_colons_role_nouns_and_bracketed_last_first() {
    for (text, want) in [
        (
            "Employee Name Gadzina, Grzegorz Employee ID 4471",
            "Gadzina, Grzegorz",
        ),
        ("Employee Name NELAH ABDI Employee ID 4471", "NELAH ABDI"),
        (
            "Interpreter Yashem Kasim present throughout.",
            "Yashem Kasim",
        ),
        (
            "The claimant (KONG, Yong) was employed as a carer.",
            "KONG, Yong",
        ),
        (
            "The applicant's full name is Okwuosa, Chidera.",
            "Okwuosa, Chidera",
        ),
        ("Rec'd call fr Li Tao re: HX06133375", "Li Tao"),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    for text in [
        "Brand Name Product Registry",
        "(Paris, France)",
        "Patient Safety Team",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn a_party_above_its_role_and_a_name_between_two_labels() {
    assert_eq!(
        names("SOMTOCHUKWU IROHA\nClaimant\n-v-\nNORTHGATE LOGISTICS LTD\nDefendant"),
        ["SOMTOCHUKWU IROHA"]
    );
    assert!(names("Employee Name Sevican Duran Employee ID 4471").contains(&"Sevican Duran"));
    // A heading above a role is no party unless made of names.
    assert!(names("WITNESS STATEMENT\nClaimant").is_empty());
}

/// A first word that stops most names (a month, a preposition) but is a common given
/// name, before a surname that is no word; a town named like a person, with a role in
/// brackets; a given name before particles, whatever else it is; not a street's type
/// before particles, a name and a house number. (Names invented.)
#[test]
fn given_names_that_are_words_places_named_like_people_and_particles() {
    for (text, want) in [
        (
            "claimant:\n  name: Per Lindqvist\n  dob: 1970-01-02",
            "Per Lindqvist",
        ),
        (
            "Triage: 40M. Brought in by May Halvorsen. Pt name withheld.",
            "May Halvorsen",
        ),
        (
            "Present: the insured, Benito Juárez (neighbour).",
            "Benito Juárez",
        ),
        // A town named after a person with a rarer surname.
        (
            "Attendees - the manager, Carlos Chagas (store manager)",
            "Carlos Chagas",
        ),
        (
            "Statement taken from Gerrard de Bruin at the depot.",
            "Gerrard de Bruin",
        ),
        (
            "[09:14] Kick van der Berg: can someone check the claim?",
            "Kick van der Berg",
        ),
        // A street type after a particle is a surname ("coillte": woods, in Irish).
        (
            "Present: Ann Cole; Margaret Ó Coillte; Bob Hart (HR)",
            "Margaret Ó Coillte",
        ),
    ] {
        assert!(names(text).contains(&want), "{text}: {:?}", names(text));
    }
    for (text, not) in [
        ("Per the policy, Halvorsen pays.", "Per"),
        (
            "He lives at Vial de Ramiro Sosa 45, Girona.",
            "Vial de Ramiro Sosa",
        ),
        ("We drove to Benito Juárez on Monday.", "Benito Juárez"),
    ] {
        assert!(
            !names(text).iter().any(|n| n.contains(not)),
            "{text}: {:?}",
            names(text)
        );
    }
}

/// A nickname in quotes that is an English word, and a surname with particles after a
/// nickname, are inside the name. (Names invented.)
#[test]
fn nicknames_that_are_words_or_before_particles() {
    for (text, want) in [
        (
            "Promotion panel notes: Sam \"Kit\" Hansen is ready.",
            "Sam \"Kit\" Hansen",
        ),
        (
            "Promotion panel notes: Janna \"Max\" de Vos is ready.",
            "Janna \"Max\" de Vos",
        ),
        (
            "Promotion panel notes: Liam \"Lulu\" Ó Briain is ready.",
            "Liam \"Lulu\" Ó Briain",
        ),
    ] {
        assert_eq!(names(text), [want], "{text}");
    }
}

/// A chat line's speaker whose first name is a kind of place in some list ("Yoga")
/// (names invented).
#[test]
fn a_chat_speaker_whose_first_name_is_a_kind_of_place() {
    let text = "[09:14] Ana Pop: can someone check claim 4471?\n[09:16] Yoga Ardianto: on it";
    assert!(names(text).contains(&"Yoga Ardianto"), "{:?}", names(text));
}
