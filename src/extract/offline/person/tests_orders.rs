//! Tests of names in other orders and forms: a family name first, a middle name that is
//! a word, a sender after "from", names after a code and a colon, a rota's days, names
//! in lower case.
use super::tests::names;

/// A family name as often a given name, then a given name more often given, is a name
/// without a cue, family name first ("Yang Su"; names invented in their order).
#[test]
fn a_family_name_first_that_is_a_given_name_too() {
    assert_eq!(
        names("Who's covering for her while she's off? Yang Su maybe?"),
        ["Yang Su"]
    );
    assert_eq!(
        names("Reassigned JH43635517 from Chen Li to the night team."),
        ["Chen Li"]
    );
}

/// A given name that is an English word too, between two name words that are none,
/// is a middle name (names invented).
#[test]
fn a_worded_middle_name_between_two_names() {
    assert_eq!(names("Pt THU VI BÙI seen in ED."), ["THU VI BÙI"]);
    assert_eq!(names("Report by JOHN MAY SMITH today"), ["JOHN MAY SMITH"]);
}

/// A sender after "from" that follows a handover or a voicemail word is cued as after
/// "for" ("two given names": "Sanya Seth"); a rarer given name that is an English word
/// before a surname, after a cue only a person takes ("check with Harsh Lalla re …").
/// (Names invented in their forms.)
#[test]
fn a_sender_and_a_worded_rare_given_name_after_a_person_only_cue() {
    assert_eq!(
        names("Reassigned JH43635517 from Sanya Seth to the night team."),
        ["Sanya Seth"]
    );
    assert_eq!(
        names("@Irma can you check with Harsh Lalla re the claim?"),
        ["Harsh Lalla"]
    );
    assert!(names("We moved from Santa Rosa to Napa.").is_empty());
}

/// Two given names after a code and a colon ("Holiday request XM54374: Jun Xia"), and a
/// second given name that is an English word ending `LAST, FIRST` at a comma ("Bùi, Thị
/// Vi, regarding …"). (Names invented in their forms.)
#[test]
fn given_names_after_a_code_and_a_worded_second_given_name() {
    assert_eq!(
        names("Holiday request XM54374: Jun Xia - 5 days"),
        ["Jun Xia"]
    );
    assert_eq!(
        names("We write on behalf of our client, Bùi, Thị Vi, regarding the claim"),
        ["Bùi, Thị Vi"]
    );
    assert!(names("Claim CLM-2024-1234: Water Damage reported").is_empty());
}

/// A weekday's abbreviation before a name is the day ("ROTA wk 32: Mon Ana Pop / Tue
/// Tiffany Weeks"); names in lower case after a cue that are common words in wordfreq
/// because they are common names ("talked to julia mutai today"). (Names invented.)
#[test]
fn a_rota_day_before_a_name_and_common_names_in_lower_case() {
    assert_eq!(
        names("ROTA wk 32: Mon Ana Pop / Tue Tiffany Weeks / Wed Ana Pop"),
        ["Ana Pop", "Tiffany Weeks", "Ana Pop"]
    );
    assert_eq!(
        names("talked to julia mutai today, she'll send the form"),
        ["julia mutai"]
    );
    assert!(names("talked to the team today").is_empty());
}

/// Names the context settles though their words are ambiguous (names invented in
/// their forms): two given names in capitals alone on a line above an identifier's
/// line ("EMPLOYEE RECORD⏎ZBIGNIEW LIDIA⏎Staff ID: …"); `LAST, FIRST` in brackets
/// right after a code, the surname a town too ("Q7731204 (Adelaide, Tiberio)"); a
/// surname in capitals no vocabulary knows, then a rare English word, as an e-mail's
/// display name; `LAST, First` before "and" and a name found, the first name shaped
/// like an agent noun ("Qodirov, Jamshidor and Maria Keller"); a name before a
/// number in square brackets, as a contact list writes a phone.
#[test]
fn names_settled_by_an_id_line_a_code_an_address_or_a_name_beside() {
    assert_eq!(
        names("EMPLOYEE RECORD\nZBIGNIEW LIDIA\nStaff ID: 447120\nHome address: 4 Mill Lane"),
        ["ZBIGNIEW LIDIA"]
    );
    assert_eq!(
        names("EMPLOYEE RECORD\nDARIUSZ ALINA\nDOB: 02/03/1981"),
        ["DARIUSZ ALINA"]
    );
    // A heading and a ward above an identifier are no person.
    assert!(names("DISCHARGE SUMMARY\nCARDIOLOGY WARD\nPatient ID: 1234").is_empty());
    assert_eq!(
        names("Lab results for Q7731204 (Adelaide, Tiberio) were sent to the patient."),
        ["Adelaide, Tiberio"]
    );
    // Without the code the town and its region stay a place.
    assert!(names("The shipment went to (Adelaide, Tiberio) last week.").is_empty());
    assert_eq!(
        names("From: ƏLİYEVA, Kiwi <q.t@example.org>\nTo: HR Shared Inbox"),
        ["ƏLİYEVA, Kiwi"]
    );
    assert!(names("Stock: KIWIFRUIT, Kiwi\nOrigin: NZ").is_empty());
    assert_eq!(
        names("Qodirov, Jamshidor and Maria Keller both signed the lease."),
        ["Qodirov, Jamshidor", "Maria Keller"]
    );
    assert_eq!(
        names("- Ana Kowalczyk [+48 600 123 456]\n- Both confirmed for the visit."),
        ["Ana Kowalczyk"]
    );
}

/// A lower-case name with one particle between the given name and the surname after a
/// cue ("talked to maria de souza"); a particle alone is no surname ("cc jan van …").
/// (Names invented.)
#[test]
fn lower_case_names_with_a_particle() {
    assert_eq!(
        names("talked to maria de souza today, she will call back"),
        ["maria de souza"]
    );
    assert_eq!(
        names("thanks to anna ó ceallaigh for the notes"),
        ["anna ó ceallaigh"]
    );
    assert!(names("cc jan van on the reply").is_empty());
}

/// A town named after a person ("Antônio Gonçalves", "Benito Juárez") is the person
/// after a cue only a person takes ("met") or as a chat line's speaker, not after "to";
/// after an Irish particle written with a capital an English word or a place is a
/// surname ("Adeline Ó Maine"); a rarer given name and a rarer English word with a
/// cue right after ("- **Hermina Chevrolet** (forklift operator)"). (Invented.)
#[test]
fn towns_named_like_persons_irish_particles_and_rare_given_names_with_a_cue() {
    assert_eq!(names("We met Benito Juárez today."), ["Benito Juárez"]);
    assert_eq!(
        names("[09:14] Benito Juárez: can someone check the claim?"),
        ["Benito Juárez"]
    );
    assert!(names("We drove to Benito Juárez today.").is_empty());
    assert_eq!(
        names("family contact Adeline Ó Maine on 0161 496 0000."),
        ["Adeline Ó Maine"]
    );
    assert_eq!(
        names("- **Hermina Chevrolet** (forklift operator)"),
        ["Hermina Chevrolet"]
    );
    assert!(names("Hermina Chevrolet left.").is_empty());
}

/// A surname that is a rarer English word ends a three-word name after a sender's
/// "from" ("Reassigned CLM-1 from Francisco Javier Canals to …"). (Invented.)
#[test]
fn a_worded_surname_after_a_senders_from() {
    assert_eq!(
        names("Reassigned CLM-1 from Francisco Javier Canals to the night team."),
        ["Francisco Javier Canals"]
    );
    // A given name that is a street type, after a handover's "from".
    assert_eq!(
        names("Reassigned CLM-1 from Rua Okonkwo to the night team."),
        ["Rua Okonkwo"]
    );
}

/// Irish particles do not stack: before one a word is the given name ("Mac Ó
/// Maolruanaí"); "van het" is a Dutch surname's particles; a rarer English word that
/// is also a given name before a surname that is no word, after a cue word ("on
/// behalf of Safari Otieno after …"), not a commoner word ("for Grant Thornton").
/// (Names invented in their forms.)
#[test]
fn stacked_particles_and_rarer_worded_given_names_after_a_cue() {
    assert_eq!(
        names("Opposing counsel, Mac Ó Ceallaigh, may be reached by phone."),
        ["Mac Ó Ceallaigh"]
    );
    assert_eq!(
        names("I have forwarded them to Pieter van het Hoogland in billing."),
        ["Pieter van het Hoogland"]
    );
    assert_eq!(
        names("The claim was lodged on behalf of Safari Wanjiru after the fall."),
        ["Safari Wanjiru"]
    );
    assert_eq!(
        names("Counsel for Sonata Kavaliauskaite filed a motion."),
        ["Sonata Kavaliauskaite"]
    );
}

/// `LAST, First` whose first name is also a town, the surname in letters no English
/// word has and known to no vocabulary, with a cue ("for Akgündüz, Eşim;"); a town
/// and its region after a cue stay a place. (Names invented in their forms.)
#[test]
fn last_first_with_a_first_name_that_is_a_town_and_a_foreign_surname() {
    assert_eq!(
        names("Please update the bank details for Yıldırımöz, Eşim; new payslips follow."),
        ["Yıldırımöz, Eşim"]
    );
    assert!(names("The parcel for Kellyberg, Bavaria was sent.").is_empty());
    assert!(names("Report\n\nPolička, Aosta — Branch news").is_empty());
}

/// A surname in capitals that is no place, then a first name that is a town, with a
/// cue after: a bracket or "v." naming the other party of a case ("ARSLAN, Esna v.
/// Northgate Logistics"). A town and its country stay a place. (Invented.)
#[test]
fn a_surname_in_capitals_before_a_town_with_a_cue_after() {
    assert_eq!(
        names("ARSLAN, Esna v. Northgate Logistics - the claimant's date of birth"),
        ["ARSLAN, Esna"]
    );
    assert_eq!(names("ARSLAN, Esna (claimant)"), ["ARSLAN, Esna"]);
    assert!(names("VIENNA, Austria (head office)").is_empty());
}

/// A surname of one capital after lower-case particles, in `LAST, FIRST` ("de la O,
/// Agustín"); a surname in capitals that is also a village, before a first name that is
/// an English word too, with a cue ("- **CHHABRA, Om** (forklift operator)"). (Invented
/// in their forms.)
#[test]
fn one_letter_surnames_after_particles_and_caps_surnames_that_are_villages() {
    assert_eq!(
        names("Following service on de la O, Rubén at the house, nothing was filed."),
        ["de la O, Rubén"]
    );
    assert_eq!(
        names("- **CHHABRA, Om** (forklift operator)"),
        ["CHHABRA, Om"]
    );
}
