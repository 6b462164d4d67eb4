//! Tests of what is made of names and is no person: firms, streets, places, kinds of
//! company and of place, headings and codes (`blocks.rs`).
use super::tests::names;

#[test]
fn headings_places_organisations_and_streets_are_no_names() {
    for text in [
        "Annual Enrollment Notice",
        "Quarterly Benefits Update for March",
        "Calloway Genomics Institute announced",
        "He lives at 12 Keller Street.",
        "CLAIM SUMMARY REPORT",
        "Welcome to the Summer Newsletter",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn firms_named_after_people_are_no_persons() {
    for text in [
        "According to Andersson Johansson HB, the sites",
        "- Bláhová Strnadová a.s., Bloemfontein",
        "We spoke with Nagy Kht. about the shipment",
        "Visit Merz Schlatter & Partner today.",
        "- Toussaint Lebreton et Fils, Dickton",
        "Reviewed by Delattre Mercier S.A. on Monday",
        "We spoke with Leão Ferreira S/A about it",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn streets_places_and_products_are_no_persons() {
    for text in [
        "The warehouse moved to Via Adán Uribe.",
        "The depot on chemin Dominique Menard reopened.",
        "Callejón de Salomé Agudo will be closed for repairs.",
        "Mail goes to 326 Cameron Wells.",
        "Shipments to Sankt Valentin were delayed.",
        "Our West Lynn branch is closed.",
        "Closed between San Irene los bajos and Lewistown.",
        "Lirtravtide Forte is not covered under the plan.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
    // A place and its region are no `LAST, FIRST`.
    let text = "The Compliance Unit in Kellyberg, Mato Grosso now opens at 8.";
    assert!(names(text).iter().all(|n| !n.contains(',')));
}

#[test]
fn street_types_that_come_first_in_romance_languages_make_streets() {
    // libpostal's street types (60 languages), first in Romanian, Portuguese, Italian.
    for text in [
        "The depot on Stradela Harold Brennan reopened.",
        "Calea Ines Carvalho will be closed for repairs.",
        "Salita Tomasz Wierzbicki reopened on Monday.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn a_street_type_that_is_also_a_name_is_no_street() {
    // "dương" is not "đường" (road): the accents must agree.
    assert_eq!(
        names("Send it to Dương Quang Huy before Friday."),
        ["Dương Quang Huy"]
    );
    // Street types that are given names or surnames too.
    assert_eq!(names("Thanks to Arda Kaya for the report."), ["Arda Kaya"]);
    assert_eq!(
        names("Claim submitted for Hussein Banda on 3 May."),
        ["Hussein Banda"]
    );
}

#[test]
fn small_towns_regions_and_kinds_of_place_are_no_persons() {
    for text in [
        // A GeoNames town of a few thousand people (cities1000).
        "Dolní Bousov reported a rise in claims.",
        // A region after a town.
        "The office in Tupelo, Piauí opens at 8.",
        // A kind of place first.
        "Castello Brennan hosts the meeting.",
        // A unit, its number and a comma before.
        "Suite 12, Harold Brennan | Leeds | pending",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn legal_forms_of_the_iso_20275_list_or_in_brackets_make_firms() {
    for text in [
        "We renewed the contract with Ayhan Korkmaz Şti. in May.",
        "Records went to Virtanen Lahtinen Osuuskunta yesterday.",
        "We spoke with Harold Brennan (Pty) Ltd about it.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
}

#[test]
fn partners_before_a_registry_form_are_a_firm() {
    for text in [
        "Dues were paid to Virtanen Laine ry last week.",
        "We spoke with Dvořák Novák o.s. about the shipment.",
        "Reviewed by Popa Dumitrescu SRL on Monday.",
        "Invoices from Lindgren Aho AB2 arrived.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
    // A given name first is a person, whatever follows.
    assert_eq!(names("Thanks to Maria Keller ry."), ["Maria Keller"]);
}

#[test]
fn a_short_code_in_capitals_is_no_surname() {
    assert!(names("Forward it to Radu QXT today.").is_empty());
    // A listed surname in capitals still is one.
    assert_eq!(names("Signed by Maria KELLER today."), ["Maria KELLER"]);
}

#[test]
fn kinds_of_company_first_or_last_make_organisations() {
    // libpostal's company types (12 languages), full forms.
    for text in [
        "The grant came from Groupe Lefebvre last spring.",
        "Invoices went to Brandt Gesellschaft on Monday.",
        "We met Koperasi Sinaga Makmur about the loans.",
        "Thanks to Empresa Quintanilla Robles for the quote.",
        "A letter from Yayasan Siti Rahayu arrived.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
    // A company word elsewhere in the sentence leaves the name alone.
    assert_eq!(
        names("Thanks to Maria Keller for the Groupe report."),
        ["Maria Keller"]
    );
}

#[test]
fn a_compass_word_after_a_place_makes_a_place() {
    for text in [
        "Bekasi Utara reported a rise in claims.",
        "The Frankfurt Süd office opens at 8.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
    // Not after a word that is no place, nor a compass word that is also a name.
    assert_eq!(
        names("Thanks to Hiroshi Nishi for the report."),
        ["Hiroshi Nishi"]
    );
    assert_eq!(
        names("Congratulations to Yılmaz Güney on the award."),
        ["Yılmaz Güney"]
    );
    assert_eq!(names("Forward it to Maria West today."), ["Maria West"]);
}

#[test]
fn legal_forms_written_as_words_and_codes_after_partners_make_firms() {
    for text in [
        "Records went to Ozols Kalniņš Sia yesterday.",
        "Reviewed by Munteanu Vlad OC4 on Monday.",
    ] {
        assert!(names(text).is_empty(), "{text}: {:?}", names(text));
    }
    // A given name first is a person.
    assert_eq!(names("Thanks to Maria Keller OC4."), ["Maria Keller"]);
}

#[test]
fn a_place_before_the_comma_is_no_surname() {
    assert!(
        names("Jakarta, Bologna — the new office opened.")
            .iter()
            .all(|n| !n.contains(','))
    );
    // A surname that is also a place still is one.
    assert_eq!(names("DENVER, Maria was seen."), ["DENVER, Maria"]);
}

/// A word of no name vocabulary is an unknown name word though it is a common word of
/// another language: a given name or a surname of a language the vocabularies miss
/// ("hey Nilufar - is Keji Ojo still on …"). (Invented in their forms.)
#[test]
fn a_common_word_of_another_language_may_be_a_name() {
    assert_eq!(
        names("hey Nilufar - is Keji Ojo still on the rota? need to confirm"),
        ["Keji Ojo"]
    );
}
