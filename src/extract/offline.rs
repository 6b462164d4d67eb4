//! The offline extractor (SPEC §7): regular expressions with context words, name
//! patterns, provider / address / place patterns and gazetteers shipped as data files.
//! No network, deterministic, linear-ish in the document length.
//!
//! # Recognizers and relevance
//!
//! | recognizer | type | relevance |
//! |---|---|---|
//! | e-mail address | EMAIL | 1.0 |
//! | phone, `(555) 010-4417`, `555-010-4417`, `555.010.4417`, `+1 555 010 4417` | PHONE_NUMBER | 1.0 |
//! | phone, bare 10/11 digits, `555-0104` or `07700 900123` after a phone context word (≤ 40 chars) | PHONE_NUMBER | 0.85 |
//! | id after a member/patient/MRN/insured/... context word | PATIENT_ID | 1.0 |
//! | id after a claim/policy/invoice/case/ticket/... context word | NON_PERSONAL_ID | 1.0 |
//! | id without context word (upper-case letters + ≥ 4 digits, dash or letter prefix) | NON_PERSONAL_ID | 0.7 |
//! | complete date after born / DOB / date of birth (≤ 40 chars, same line) | BIRTHDATE | 0.95 |
//! | any other complete date (day + month + year) | EVENT_DATE | 0.7 |
//! | `54-year-old`, `aged 54`, `Age: 54`, `54 y/o`, `54 years of age` (span = digits) | AGE | 0.8 |
//! | house number + street + suffix, or `P.O. Box n` [+ `, City[, ST 12345]`] | ADDRESS | 1.0 (0.95 without a city) |
//! | field label (`Patient:`, `Member name:`, `Claimant:`, staff roles ...) + `First [M.] Last`, `Last, First`, `F. Last` or the same in capitals | NAME | 1.0 |
//! | honorific + capitalised words (`Dr. Elise Varga`, `Ms. Raman`) | NAME | 1.0 |
//! | a role word (`patient`, `participant`, `member`, `claimant` ...) + a full name (`patient Rex Marin`) | NAME | 0.95 |
//! | two or three capitalised words + clinical credentials (`Harriet Lindqvist, RN`) | NAME (then PROVIDER, below) | 0.95 |
//! | `this is` / `my name is` / a closing (`Kind regards,`) + two or three capitalised words | NAME | 0.95 |
//! | initial + surname (`M. Quintero-Hale`) | NAME | 0.85 |
//! | another occurrence in the document of a full name found above | NAME | 0.95 |
//! | the first name or surname alone, when it belongs to one full name of the document | NAME | 0.8 |
//! | capitalised words + Clinic / Hospital / Health / Pharmacy / Oncology / Network / Bank / ... | PROVIDER | 0.8 |
//! | a clinician: a name (above) after `Dr.`, a clinical role (`Therapist:`, `surgeon`) or before credentials (`, RN`, `, MD`) | PROVIDER | the name's |
//! | clinical noun phrase by its head (`degenerative disc disease`, `… syndrome`, `… fracture`) or suffix (`thyroiditis`) | MEDICAL_CONDITION | 0.85 |
//! | clinical noun phrase by its head (`aquatic therapy`, `nerve blocks`, `… repair`) or suffix (`arthroplasty`, `adalimumab`) | TREATMENT | 0.9 |
//! | gazetteer `conditions.txt` (skipped after "no", "denies", "negative for", "without" ... within five words, or before "was ruled out") | MEDICAL_CONDITION | 0.85 |
//! | gazetteer `treatments.txt` (a named drug or procedure is a strong linking value) | TREATMENT | 1.0 |
//! | gazetteer `treatments_common.txt` (physical therapy, dialysis: many patients get them) | TREATMENT | 0.7 |
//! | gazetteer `occupations.txt` (a leading "retired"/"former" is kept) | INDIRECT_IDENTIFIER | 0.8 |
//! | gazetteer `demographics.txt` | DEMOGRAPHIC | 0.6 |
//! | gazetteer `places.txt`; place-shaped names (`Willow Creek`, `Port Calder`) | LOCATION | 0.6 |
//! | a named event (`Lakeshore Triathlon`, `… Marathon`) or an accident (`fall from a ladder`) | EVENT | 0.7 |
//! | a superlative pinned to a population (`the only such case in the state`) | UNIQUE_FACT | 0.8 |
//! | a single capitalised word after `in` / `from` / `near` / `lives in` ... | LOCATION | 0.5 |
//!
//! Within one document a surname-only or initial+surname mention (`Ms. Raman`,
//! `M. Quintero-Hale`) whose surname belongs to exactly one full name found in the same
//! document gets that full name as its normalized value; never across documents.
//!
//! Overlaps are resolved so that no two emitted spans overlap, preferring EMAIL, then
//! PHONE_NUMBER, ids, dates and ages, ADDRESS, NAME, PROVIDER, echoed partial names,
//! gazetteer types, guessed places; among equals the longer span, then the higher
//! relevance, then the earlier start.
//!
//! # Extending it from the configuration
//!
//! `[extract]` in `clam.toml` adds gazetteer terms per built-in type
//! (`gazetteer_terms`, or `gazetteer_files` read relative to the configuration file;
//! relevance of the type's shipped list), a deny list (`deny = { TYPE = [values] }`:
//! always extracted with that type, relevance 1.0, winning every overlap) and an allow
//! list (`allow = [values]`: never extracted, nor anything inside their occurrences).
//!
//! # Pattern compilation
//!
//! All regular expressions are literals compiled once per process into a
//! [`LazyLock`]`<Result<Patterns, regex::Error>>`. A compile error can only be a bug in
//! this file (a unit test compiles them); rather than panicking, [`OfflineExtractor::new`]
//! then logs the error and runs with the gazetteers only, and
//! [`OfflineExtractor::pattern_error`] reports it. The gazetteer automaton is built in
//! `new`; if that fails (it cannot for the shipped lists) the gazetteers are disabled
//! the same way.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::LazyLock;

use aho_corasick::{AhoCorasick, Input, MatchKind};
use regex::Regex;

use super::{ExtractError, Extractor};
use crate::config::{Config, ExtractConfig};
use crate::corpus::Document;
use crate::entity::normalize::{DateOrder, canonical, parse_date};
use crate::entity::{ExtractedItem, Span};

const CONDITIONS: &str = include_str!("../../data/gazetteers/conditions.txt");
const TREATMENTS: &str = include_str!("../../data/gazetteers/treatments.txt");
const TREATMENTS_COMMON: &str = include_str!("../../data/gazetteers/treatments_common.txt");
const OCCUPATIONS: &str = include_str!("../../data/gazetteers/occupations.txt");
const DEMOGRAPHICS: &str = include_str!("../../data/gazetteers/demographics.txt");
const PLACES: &str = include_str!("../../data/gazetteers/places.txt");

/// Gazetteers in priority order (a term listed twice keeps its first type).
const GAZETTEERS: &[(&str, &str, f64)] = &[
    (CONDITIONS, "MEDICAL_CONDITION", 0.95),
    (TREATMENTS, "TREATMENT", 1.0),
    (TREATMENTS_COMMON, "TREATMENT", 0.7),
    (OCCUPATIONS, "INDIRECT_IDENTIFIER", 0.8),
    (DEMOGRAPHICS, "DEMOGRAPHIC", 0.6),
    (PLACES, "LOCATION", 0.6),
];

/// Preference when spans overlap: lower wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Tier {
    /// A value of the configured deny list: it wins every overlap.
    Deny,
    Email,
    Phone,
    Id,
    Date,
    Address,
    Name,
    Provider,
    NameEcho,
    Gazetteer,
    PlaceGuess,
}

/// One candidate mention, in byte offsets of the document.
#[derive(Debug, Clone)]
struct Cand {
    start: usize,
    end: usize,
    ty: &'static str,
    normalized: String,
    relevance: f64,
    tier: Tier,
}

// ---------------------------------------------------------------------------
// Patterns
// ---------------------------------------------------------------------------

/// Every compiled regular expression of the extractor.
struct Patterns {
    email: Regex,
    phone: Regex,
    phone_loose: Regex,
    phone_ctx: Regex,
    date_numeric: Regex,
    date_words: Regex,
    birth_ctx: Regex,
    ages: Vec<Regex>,
    id_code: Regex,
    id_spaced: Regex,
    id_ctx: Regex,
    id_gap: Regex,
    name_honorific: Regex,
    name_label: Regex,
    name_role: Regex,
    event_named: Regex,
    event_accident: Regex,
    unique_fact: Regex,
    condition_phrase: Regex,
    treatment_phrase: Regex,
    clinician_before: Regex,
    name_credential: Regex,
    clinician_after: Regex,
    name_intro: Regex,
    name_initial: Regex,
    provider: Regex,
    address: Regex,
    place_shape: Regex,
    place_prep: Regex,
    negation: Regex,
    negation_after: Regex,
    occupation_prefix: Regex,
}

/// Head words of condition phrases ("… disease", "… fracture").
const CONDITION_HEADS: &str = "disease|disorder|syndrome|fracture|dementia|cancer|carcinoma|lymphoma|leukemia|leukaemia|melanoma|sarcoma|tumou?r|failure|injury|deficiency|insufficiency|dystrophy|stenosis|sclerosis|infection|palsy|neuropathy|myopathy|embolism|thrombosis|aneurysm|hernia|ulcer|nerve[ \\x{A0}]damage|lesion|degeneration|impairment";
/// Suffixes that make one word a condition ("thyroiditis", "lymphoma").
const CONDITION_SUFFIXES: &str = "itis|osis|emia|aemia|oma|pathy|plegia|algia|trophy";
/// Head words of treatment phrases ("aquatic therapy", "nerve blocks").
const TREATMENT_HEADS: &str = "therapy|surgery|repair|ablation|grafting|graft|transplant|transplantation|replacement|blocks?|injections?|infusions?|rehabilitation|reconstruction|implant|implantation|bypass|resection|fixation|fusion|dialysis|stimulation|retraining|immunotherapy|chemotherapy|radiotherapy";
/// Suffixes of procedures and drug stems ("arthroplasty", "adalimumab").
const TREATMENT_SUFFIXES: &str = "ectomy|otomy|ostomy|plasty|scopy|mab|tinib|prazole|sartan|statin|olol|cillin|mycin|floxacin|parin|gliptin|triptan|zepam|oxetine";

const MONTH: &str = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const WEEKDAY: &str = r"(?:mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:r(?:s(?:day)?)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?)";
/// One space inside a phrase (no line breaks, no field-separating runs of spaces).
const SP: &str = r"[ \x{A0}]";
/// A capitalised name word: `Raman`, `Quintero-Hale`, `O'Brien`, `McDonald`, `Müller`.
const NW: &str =
    r"\p{Lu}(?:\p{Ll}|['’]\p{Lu})[\p{L}'’]*(?:-\p{Lu}(?:\p{Ll}|['’]\p{Lu})[\p{L}'’]*)?";
const INIT: &str = r"\p{Lu}\.";
/// A name word in capitals, as forms write them: `MILLER`, `QUINTERO-HALE`, `O'NEIL`.
const CW: &str = r"\p{Lu}{2,}(?:['’-]\p{Lu}{2,})?";
const HON: &str = r"(?:Mrs|Mr|Ms|Miss|Mx|Dr|Prof|MRS|MR|MS|DR|PROF)";

fn build_patterns() -> Result<Patterns, regex::Error> {
    let phone = Regex::new(concat!(
        r"(?:\+\d{1,3}[ .-]?|1[ .-]?)?\(\d{3}\)[ .-]?\d{3}[ .-]\d{4}",
        r"|(?:\+\d{1,3}[ .-]|1[ .-])?\d{3}[ .-]\d{3}[ .-]\d{4}",
        r"|\+\d{1,3}(?:[ .-]?\d{2,4}){2,5}",
    ))?;
    let date_words = Regex::new(&format!(
        r"(?i)(?-u:\b)(?:{WEEKDAY}\.?,?[ \t\x{{A0}}]+)?(?:\d{{1,2}}(?:st|nd|rd|th)?[ \t\x{{A0}}]+(?:of[ \t\x{{A0}}]+)?{MONTH}\.?,?[ \t\x{{A0}}]+\d{{4}}|{MONTH}\.?[ \t\x{{A0}}]+\d{{1,2}}(?:st|nd|rd|th)?,?[ \t\x{{A0}}]+\d{{4}})(?-u:\b)"
    ))?;
    let ages = vec![
        Regex::new(r"(?i)(?-u:\b)(\d{1,3})[ -](?:years?|yrs?|yo)[ -]old(?-u:\b)")?,
        Regex::new(r"(?i)(?-u:\b)(\d{1,3}) ?(?:y/o|y\.o\.?|yo(?-u:\b))")?,
        Regex::new(r"(?i)(?-u:\b)age(?:d|\s+of)?[ \t]*[:=]?[ \t]*(\d{1,3})(?-u:\b)")?,
        Regex::new(r"(?i)(?-u:\b)(\d{1,3}) +years? +of +age(?-u:\b)")?,
    ];
    let patient_ctx = r"member[ \t]+id|member[ \t]+no|member[ \t]+number|patient[ \t]+reference|patient[ \t]+account|patient[ \t]+id|patient[ \t]+no|members?|patients?|subscriber|mrn|medical[ \t]+record|insured|id[ \t]+card|payer[ \t]+id|beneficiary|enrollee|health[ \t]+card|nhs[ \t]+number|ssn|social[ \t]+security";
    let other_ctx = r"claims?|polic(?:y|ies)|invoices?|authori[sz]ations?|cases?|tickets?|references?|ref|accounts?|surveys?|participants?|loans?|group|orders?|confirmation|transactions?|tracking|application|certificate|contract|receipt|booking|reservation|incident|file|appeals?|complaints?|disputes?|grievances?|referrals?|requests?";
    let id_ctx = Regex::new(&format!(
        r"(?i)(?-u:\b)(?:(?P<p>{patient_ctx})|(?P<n>{other_ctx}))(?-u:\b)"
    ))?;
    let labels = r"name|full[ \t]+name|patient(?:[ \t]+name)?|member(?:[ \t]+name)?|claimant|insured(?:[ \t]+name)?|policy[ \t]?holder|subscriber|caller|customer(?:[ \t]+name)?|client(?:[ \t]+name)?|borrower|co-borrower|applicant|account[ \t]+holder|respondent|beneficiary|employee|guarantor|tenant|student|pupil|parent|guardian|spouse|emergency[ \t]+contact|prepared[ \t]+by|reported[ \t]+by|logged[ \t]+by|signed[ \t]+by|submitted[ \t]+by|reviewed[ \t]+by|approved[ \t]+by|completed[ \t]+by|attn|attention|from|to|cc|analyst|auditor|lead[ \t]+auditor|audit[ \t]+lead|underwriter|reviewer|adjuster|agent|representative|case[ \t]+manager|relationship[ \t]+manager|manager|rm|nurse|therapist|pharmacist|technician|physician|attending(?:[ \t]+physician)?|referring[ \t]+physician|clinician|surgeon|doctor|counsell?or|coach|teacher|officer|investigator|coordinator|witness|interpreter";
    let name_label = Regex::new(&format!(
        r"(?i:(?-u:\b)(?:{labels}))[ \t]*:[ \t]*(?P<name>(?:{HON}\.?{SP}+)?(?:{NW},{SP}+{NW}(?:{SP}+{INIT})?|{NW}(?:{SP}{INIT})?{SP}{NW}(?:{SP}{NW})?|{INIT}{SP}?{NW}|{CW},{SP}+{CW}(?:{SP}+{INIT})?|{CW}(?:{SP}{INIT})?{SP}{CW}(?:{SP}{CW})?))"
    ))?;
    let name_honorific = Regex::new(&format!(
        r"(?-u:\b){HON}\.?{SP}+(?:{INIT}{SP}?){{0,2}}{NW}(?:{SP}(?:{INIT}{SP})?{NW}){{0,2}}"
    ))?;
    // A role word directly before a full name, without a colon: "patient Rex Marin",
    // "Participant Victor M. Ramirez".
    let roles = r"patients?|participants?|members?|claimants?|insured|policy[ \t]?holders?|clients?|customers?|callers?|enrollees?|beneficiar(?:y|ies)|subscribers?|applicants?|residents?|employees?|borrowers?|students?|veterans?|widow(?:er)?|donors?|recipients?";
    let name_role = Regex::new(&format!(
        r"(?i:(?-u:\b)(?:{roles}))[ \t]+(?P<name>{NW}(?:{SP}{INIT})?{SP}{NW})(?-u:\b)"
    ))?;
    // Clinical noun phrases by their head word ("lumbar degenerative disc disease",
    // "aquatic therapy"), or single words by a clinical suffix ("thyroiditis",
    // "arthroplasty", "adalimumab"); leading function words are trimmed later.
    let modifier = r"[\p{L}][\p{L}'’-]*";
    let condition_phrase = Regex::new(&format!(
        r"(?:{modifier}{SP}+){{0,3}}(?:(?i:{CONDITION_HEADS})|\p{{Ll}}[\p{{L}}-]{{2,}}(?:{CONDITION_SUFFIXES}))(?-u:\b)"
    ))?;
    let treatment_phrase = Regex::new(&format!(
        r"(?:{modifier}{SP}+){{0,3}}(?:(?i:{TREATMENT_HEADS})|\p{{Ll}}[\p{{L}}-]{{2,}}(?:{TREATMENT_SUFFIXES}))(?-u:\b)"
    ))?;
    let clinician_before = Regex::new(
        r"(?i)(?-u:\b)(?:dr|doctor|physician|surgeon|therapist|physiotherapist|nurse|clinician|pharmacist|dentist|psychiatrist|psychologist|specialist|practitioner|oncologist|cardiologist|neurologist|radiologist|orthopa?edist|midwife|dietitian|counsel+or|provider|consultant|anaesthetist|anesthesiologist)\.?[ \t]*[:,]?[ \t]*$",
    )?;
    let name_credential = Regex::new(&format!(
        r"(?P<name>{NW}(?:{SP}{INIT})?{SP}{NW}),?{SP}(?:MD|M\.D\.|DO|RN|LPN|NP|PA-C|DPT|PharmD|DDS|CNM|FRCS|MBBS)(?-u:\b)"
    ))?;
    let clinician_after = Regex::new(
        r"^,?[ \t]+(?:MD|M\.D\.|DO|RN|LPN|NP|PA-C|PT|DPT|OT|PharmD|DDS|CNM|FRCS|MBBS)(?-u:\b)",
    )?;
    let event_named = Regex::new(&format!(
        r"(?-u:\b)(?:{pw0}{SP}){{1,4}}(?:Half Marathon|Fun Run|Triathlon|Marathon|Festival|Championships?|Tournament|Regatta|Parade|Gala|Expo|Summit|Jamboree|Rodeo|Fair)(?-u:\b)",
        pw0 = r"\p{Lu}[\p{L}'’-]*"
    ))?;
    let event_accident = Regex::new(
        r"(?i)(?-u:\b)(?:(?:fall|fell|fallen)[ \t]+(?:off|from)[ \t]+(?:a|an|the|his|her|their)[ \t]+(?:[a-z-]+[ \t]+){0,2}(?:ladder|roof|horse|bike|bicycle|scaffold(?:ing)?|tree|stairs|staircase|balcony|platform|truck|trailer)|(?:car|motor[ \t]+vehicle|motorcycle|bicycle|boating|skiing|workplace|farm|tractor|forklift)[ \t]+(?:accident|crash|collision)|house[ \t]+fire|dog[ \t]+(?:bite|attack))(?-u:\b)",
    )?;
    // "the only such case in the state registry", "first spontaneous triplets delivered
    // at the hospital in eleven years": a superlative pinned to a population.
    let unique_fact = Regex::new(
        r"(?i)(?-u:\b)(?:only|first|sole|last|youngest|oldest)[ \t][^.;:\n]{3,70}?(?-u:\b)in[ \t](?:the[ \t])?(?:[a-z-]+[ \t]){0,3}?(?:state|county|city|town|region|country|nation|world|registry|district|province|history|(?:[a-z]+[ \t])?years?)(?-u:\b)",
    )?;
    let name_intro = Regex::new(&format!(
        r"(?-u:\b)(?:[Tt]his is|[Mm]y name is|I am|I'm|I’m|[Nn]ame is|[Ss]incerely,?|(?:[Kk]ind |[Bb]est |[Ww]arm )?[Rr]egards,?|[Tt]hanks,?|[Tt]hank you,?|[Cc]heers,?|[Yy]ours (?:sincerely|faithfully|truly),?)[ \t\r\n]+(?P<name>{NW}(?:{SP}{INIT})?{SP}{NW}(?:{SP}{NW})?)"
    ))?;
    let name_initial = Regex::new(&format!(r"{INIT}{SP}?{NW}"))?;
    let pw = r"\p{Lu}[\p{L}'’-]*";
    let provider = Regex::new(&format!(
        r"(?:(?-u:\b)(?:St\.?|Saint|Mt\.?|Mount){SP})?(?:{pw}{SP}(?:(?:&|of|for|the){SP})?){{1,5}}(?:(?:Medical Cent(?:er|re)|Health System|Medical Group|Urgent Care|Physical Therapy|Credit Union|Health Plan|Health Insurance|Healthcare|Clinic|Hospital|Cent(?:er|re)|Health|Pharmacy|Associates|Practice|Laborator(?:y|ies)|Labs?|Imaging|Therapy|Rehabilitation|Bank|Insurance|Mobile|Wireless|Telecom|Institute|Infirmary|Hospice|Dental|Health Plans|Network|Oncology|Urology|Neurology|Cardiology|Radiology|Orthop(?:a)?edics|Dermatology|Pediatrics|Paediatrics|Gastroenterology|Rheumatology|Nephrology|Psychiatry|Obstetrics|Surgical|Surgery Cent(?:er|re)|Care)(?-u:\b)|Hosp\.)"
    ))?;
    let street_full = r"Street|Avenue|Road|Lane|Drive|Boulevard|Court|Way|Place|Terrace|Row|Parkway|Highway|Circle|Square|Trail|Crescent|Close|Alley|Plaza|Pike|Loop|Mews";
    let street_abbr = r"St|Ave|Rd|Ln|Dr|Blvd|Ct|Pl|Pkwy|Hwy|Cir|Sq|Ter|Trl|Cres";
    let address = Regex::new(&format!(
        r"(?:(?-u:\b)\d{{1,6}}[A-Za-z]?{SP}(?:(?:[NSEW]\.?|North|South|East|West|N[EW]|S[EW]){SP})?(?:(?:\p{{Lu}}[\p{{L}}'’-]*|\d+(?:st|nd|rd|th)){SP}){{1,4}}(?:(?:{street_full})(?-u:\b)|(?:{street_abbr})(?-u:\b)\.?)|(?-u:\b)(?i:P\.?{SP}?O\.?{SP}?Box){SP}\d+)(?:,?{SP}(?:Apt|Apartment|Suite|Ste|Unit|Fl|Floor|#)\.?{SP}?[A-Za-z0-9-]+)?(?:,{SP}\p{{Lu}}[\p{{L}}'’.-]*(?:{SP}\p{{Lu}}[\p{{L}}'’.-]*){{0,2}}(?:,?{SP}[A-Z]{{2}}(?:{SP}\d{{5}}(?:-\d{{4}})?)?)?)?"
    ))?;
    let place_shape = Regex::new(&format!(
        r"(?:(?:Port|Fort|Mount|Mt\.|Lake|Saint|San|Santa){SP}\p{{Lu}}\p{{Ll}}+|\p{{Lu}}\p{{Ll}}+{SP}(?:Falls|Creek|Heights|Mills|Bluffs?|Springs|Valley|Hills|Harbou?r|Bay|Beach|Ridge|Grove|Point|Landing|Junction|Crossing|City|Village|Township|Rapids|Woods|Meadows|Glen|Hollow|Prairie|Shores?|Cove|Forks|Flats|Corners|Park))(?-u:\b)"
    ))?;
    let place_prep = Regex::new(&format!(
        r"(?-u:\b)(?:lives in|living in|live in|based in|resident of|moved to|from|near|out past|outside|in){SP}(?P<place>\p{{Lu}}\p{{Ll}}+)(?-u:\b)"
    ))?;
    Ok(Patterns {
        email: Regex::new(
            r"(?i)(?-u:\b)[a-z0-9][a-z0-9._%+-]*@[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*\.[a-z]{2,24}(?-u:\b)",
        )?,
        phone,
        phone_loose: Regex::new(
            r"(?-u:\b)(?:\d{10,11}|\d{3}[-.]\d{4}|0\d{2,4}[ -]\d{6}|0\d{2,4}[ -]\d{3,4}[ -]\d{3,4})(?-u:\b)",
        )?,
        phone_ctx: Regex::new(
            r"(?i)(?-u:\b)(?:phone|tel|telephone|cell|mobile|fax|call(?:s|ed|er|back|ing)?|number|contact|text|sms|ph|reach(?:ed)?|dial|ring|landline|whatsapp)(?-u:\b)",
        )?,
        date_numeric: Regex::new(
            r"(?-u:\b)(?:\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}|\d{4}[/.-]\d{1,2}[/.-]\d{1,2})(?-u:\b)",
        )?,
        date_words,
        birth_ctx: Regex::new(
            r"(?i)(?:(?-u:\b)born(?-u:\b)|(?-u:\b)dob(?-u:\b)|(?-u:\b)d\.o\.b(?-u:\b)|(?-u:\b)date[ \t]+of[ \t]+birth(?-u:\b)|(?-u:\b)birth[ -]?date(?-u:\b)|(?-u:\b)birthday(?-u:\b))",
        )?,
        ages,
        id_code: Regex::new(
            r"(?-u:\b)(?:[A-Za-z]{1,6}[-\x{2013}])*[A-Za-z]*\d[A-Za-z0-9]*(?:[-\x{2013}/][A-Za-z0-9]+)*(?-u:\b)",
        )?,
        id_spaced: Regex::new(
            r"(?-u:\b)(?P<prefix>[A-Za-z]{2,5}) (?P<groups>\d{2,}(?: \d{2,}){0,3})(?-u:\b)",
        )?,
        id_ctx,
        id_gap: Regex::new(r"(?i)^[\s:#.()\-]*(?:(?:no|nr|num|number|id|#)\.?[\s:#.()\-]*)?$")?,
        name_honorific,
        name_label,
        name_role,
        event_named,
        condition_phrase,
        treatment_phrase,
        clinician_before,
        name_credential,
        clinician_after,
        event_accident,
        unique_fact,
        name_intro,
        name_initial,
        provider,
        address,
        place_shape,
        place_prep,
        negation: Regex::new(
            r"(?i)(?-u:\b)(?:no|not|denies|denied|deny|negative for|ruled out|rules out|rule out|without|free of|absence of|never had)(?-u:\b)",
        )?,
        negation_after: Regex::new(
            r"(?i)^[\s,]*(?:(?:which|that)\s+)?(?:(?:was|were|is|has been|had been|been)\s+)?(?:ruled out|excluded)(?-u:\b)",
        )?,
        occupation_prefix: Regex::new(r"(?i)(?-u:\b)(?:retired|former|semi-retired|ex-)[ \t]*$")?,
    })
}

static PATTERNS: LazyLock<Result<Patterns, regex::Error>> = LazyLock::new(build_patterns);

// ---------------------------------------------------------------------------
// Word lists
// ---------------------------------------------------------------------------

/// Words that make a capitalised phrase an organisation or heading, not a person.
const NAME_STOP: &[&str] = &[
    "team",
    "support",
    "services",
    "service",
    "care",
    "bank",
    "health",
    "hospital",
    "clinic",
    "office",
    "department",
    "unit",
    "desk",
    "operations",
    "network",
    "center",
    "centre",
    "committee",
    "program",
    "programme",
    "group",
    "pharmacy",
    "associates",
    "mobile",
    "mutual",
    "national",
    "regional",
    "business",
    "customer",
    "member",
    "patient",
    "claims",
    "claim",
    "thank",
    "thanks",
    "name",
    "signature",
    "withheld",
    "unknown",
    "deputy",
    "head",
    "chair",
    "benefits",
    "outpatient",
    "inpatient",
    "communications",
    "corporate",
    "financial",
    "crimes",
    "fraud",
    "advocacy",
    "the",
    "this",
    "that",
    "these",
    "please",
    "dear",
    "plan",
    "note",
    "yes",
    "no",
    "we",
    "our",
    "your",
    "his",
    "her",
    "their",
    "all",
    "any",
    "each",
    "total",
    "date",
    "visit",
    "section",
    "item",
    "finding",
    "call",
    "re",
    "subject",
    "see",
    "per",
    "and",
    "for",
    "with",
    "from",
    "to",
    "of",
    "in",
    "on",
    "at",
    "by",
    "an",
    "a",
    "it",
    "he",
    "she",
    "they",
    "you",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "street",
    "avenue",
    "road",
    "lane",
    "drive",
    "insurance",
    "company",
    "inc",
    "ltd",
    "llc",
    "foundation",
    "university",
    "school",
    "academy",
    "college",
    "institute",
    "council",
    "board",
    "agency",
    "authority",
    "ministry",
    "court",
    "police",
    "registry",
    "review",
    "report",
    "form",
    "policy",
    "manager",
    "coordinator",
    "lead",
    "staff",
    "admin",
    "administrator",
    "medical",
    "medicine",
    "therapy",
    "emergency",
    "general",
    "public",
    "private",
    "st",
    "saint",
    "mount",
    "lake",
    "port",
    "room",
    "ward",
    "floor",
    "suite",
    "building",
    "appendix",
    "table",
    "figure",
    "page",
    "step",
    "part",
    "items",
    "version",
    "summary",
    "chapter",
    "schedule",
    "exhibit",
];

/// Words after which a capital letter and a period are a label, not an initial.
const INITIAL_PREV_STOP: &[&str] = &[
    "appendix",
    "section",
    "part",
    "schedule",
    "exhibit",
    "table",
    "figure",
    "plan",
    "vitamin",
    "type",
    "grade",
    "class",
    "level",
    "stage",
    "phase",
    "hepatitis",
    "group",
    "tier",
    "annex",
    "item",
    "option",
    "form",
    "finding",
    "block",
    "wing",
    "unit",
    "ward",
    "room",
    "building",
    "lot",
    "row",
    "bay",
    "gate",
    "zone",
    "area",
    "category",
    "list",
    "step",
    "question",
    "q",
    "no",
    "ref",
    "model",
    "series",
    "version",
    "variant",
    "strain",
    "factor",
    "protein",
];

/// Leading words dropped from a provider phrase ("The Bayshore Clinic").
const PROVIDER_LEAD_STOP: &[&str] = &[
    "the",
    "a",
    "an",
    "our",
    "your",
    "their",
    "his",
    "her",
    "at",
    "in",
    "to",
    "from",
    "copy",
    "dear",
    "re",
    "subject",
    "by",
    "with",
    "and",
    "of",
    "for",
    "via",
    "new",
    "this",
    "that",
    "local",
    "nearest",
    "any",
    "under",
    "per",
    "on",
    "after",
    "before",
    "during",
    "since",
    "until",
    "as",
    "if",
    "when",
    "while",
    "visited",
    "seen",
    "called",
    "contact",
    "contacted",
    "call",
    "please",
    "thank",
    "thanks",
    "see",
    "ask",
    "both",
    "all",
    "every",
    "each",
];

/// Single words that do not make a provider name on their own ("Home Health").
const PROVIDER_GENERIC: &[&str] = &[
    "quality",
    "pastoral",
    "planned",
    "preferred",
    "provider",
    "palliative",
    "managed",
    "critical",
    "intensive",
    "acute",
    "standard",
    "narrow",
    "tiered",
    "social",
    "family",
    "senior",
    "child",
    "patient",
    "respite",
    "skilled",
    "nursing",
    "comprehensive",
    "integrated",
    "coordinated",
    "continuing",
    "urgent",
    "emergency",
    "home",
    "current",
    "primary",
    "physical",
    "mental",
    "public",
    "community",
    "member",
    "customer",
    "monitoring",
    "processing",
    "specialty",
    "postnatal",
    "prenatal",
    "walk-in",
    "outpatient",
    "inpatient",
    "behavioral",
    "behavioural",
    "occupational",
    "speech",
    "hand",
    "manual",
    "sleep",
    "health",
    "medical",
    "call",
    "service",
    "services",
    "support",
    "data",
    "research",
    "cancer",
    "heart",
    "eye",
    "dental",
    "animal",
    "local",
    "regional",
    "national",
    "online",
    "internet",
    "digital",
    "retail",
    "mail-order",
    "specialist",
    "general",
    "family",
    "urgent",
    "emergency",
    "your",
    "our",
    "the",
    "private",
    "state",
    "county",
    "city",
    "federal",
    "children's",
    "women's",
    "men's",
    "veterans",
    "university",
    "main",
    "central",
];

/// Words that never start a guessed place ("in March", "from Primary Care").
const PLACE_STOP: &[&str] = &[
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
    "section",
    "policy",
    "person",
    "english",
    "spanish",
    "french",
    "german",
    "tier",
    "week",
    "month",
    "year",
    "member",
    "members",
    "services",
    "care",
    "online",
    "banking",
    "enhanced",
    "review",
    "writing",
    "order",
    "progress",
    "total",
    "general",
    "network",
    "accessibility",
    "benefits",
    "plan",
    "program",
    "phase",
    "part",
    "form",
    "appendix",
    "table",
    "figure",
    "chapter",
    "step",
    "stage",
    "room",
    "unit",
    "ward",
    "office",
    "department",
    "team",
    "committee",
    "public",
    "dashboards",
    "medicine",
    "prescriber",
    "communications",
    "primary",
    "emergency",
    "internet",
    "home",
    "health",
    "fiber",
    "mobile",
    "support",
    "customer",
    "business",
    "regulation",
    "rule",
    "tech",
    "field",
    "school",
    "sports",
    "hall",
    "hospital",
    "clinic",
    "the",
    "this",
    "that",
    "a",
    "an",
    "our",
    "your",
    "my",
    "his",
    "her",
    "their",
    "its",
    "all",
    "each",
    "good",
    "full",
    "time",
    "spring",
    "summer",
    "autumn",
    "fall",
    "winter",
    "christmas",
    "easter",
    "person",
    "compliance",
    "principle",
    "theory",
    "practice",
    "addition",
    "total",
    "particular",
    "general",
    "fact",
    "response",
    "writing",
    "advance",
    "error",
    "summary",
    "transit",
    "prior",
    "patient",
    "patients",
    "claims",
    "claim",
    "appendix",
    "exhibit",
    "schedule",
    "annex",
    "attachment",
    "item",
    "stock",
    "mind",
    "case",
    "cases",
    "cash",
    "kind",
    "room",
    "ward",
    "floor",
    "building",
    "suite",
    "page",
    "items",
    "version",
];

fn in_list(list: &[&str], word: &str) -> bool {
    let lower = word.to_lowercase();
    list.contains(&lower.as_str())
}

// ---------------------------------------------------------------------------
// Text helpers
// ---------------------------------------------------------------------------

fn prev_char(text: &str, i: usize) -> Option<char> {
    text.get(..i).and_then(|s| s.chars().next_back())
}

fn next_char(text: &str, i: usize) -> Option<char> {
    text.get(i..).and_then(|s| s.chars().next())
}

/// Word boundary: the neighbouring characters are not alphanumeric.
fn word_bounded(text: &str, start: usize, end: usize) -> bool {
    !prev_char(text, start).is_some_and(char::is_alphanumeric)
        && !next_char(text, end).is_some_and(char::is_alphanumeric)
}

/// Boundary of a numeric-ish token: not glued to letters/digits, not part of a larger
/// number (`$14,880.00`, `3.14`, `16:42`, `08/01/2024`), not a percentage.
fn token_bounded(text: &str, start: usize, end: usize) -> bool {
    let mut before = text
        .get(..start)
        .map(|s| s.chars().rev())
        .into_iter()
        .flatten();
    let glued_before = match before.next() {
        None => false,
        Some(c) if c.is_alphanumeric() || c == '_' => true,
        Some('$' | '€' | '£' | '¥') => true,
        Some('-' | '\u{2013}' | '/' | '.' | ',' | '+' | ':') => {
            before.next().is_some_and(|d| d.is_ascii_digit())
        }
        Some(_) => false,
    };
    if glued_before {
        return false;
    }
    let mut after = text.get(end..).map(str::chars).into_iter().flatten();
    match after.next() {
        None => true,
        Some(c) if c.is_alphanumeric() || c == '_' || c == '%' => false,
        Some('-' | '\u{2013}' | '/' | '.' | ',' | ':') => {
            !after.next().is_some_and(|d| d.is_ascii_digit())
        }
        Some(_) => true,
    }
}

/// Start of the window of at most `max_chars` characters before `pos` on the same line,
/// never before `floor`.
fn window_start(text: &str, pos: usize, max_chars: usize, floor: usize) -> usize {
    let mut start = pos;
    for (count, (i, c)) in text
        .get(..pos)
        .unwrap_or("")
        .char_indices()
        .rev()
        .enumerate()
    {
        if c == '\n' || count >= max_chars || i < floor {
            break;
        }
        start = i;
    }
    start.max(floor.min(pos))
}

/// The document folded for gazetteer matching: lowercase, no-break spaces and line
/// breaks → space, typographic dashes → '-', curly apostrophes → '\''. `origin[b]` is
/// the byte offset in the original text of the character that produced folded byte `b`
/// (empty when the mapping is the identity, i.e. for ASCII text).
struct Folded {
    text: String,
    origin: Vec<u32>,
}

fn fold_char(c: char) -> char {
    match c {
        '\u{2010}'..='\u{2015}' | '\u{2212}' | '\u{FE58}' | '\u{FE63}' | '\u{FF0D}' => '-',
        '\u{2018}' | '\u{2019}' | '\u{02BC}' => '\'',
        c if c.is_whitespace() => ' ',
        c => c,
    }
}

impl Folded {
    fn new(text: &str) -> Self {
        if text.is_ascii() {
            let folded: String = text
                .chars()
                .map(|c| fold_char(c).to_ascii_lowercase())
                .collect();
            return Folded {
                text: folded,
                origin: Vec::new(),
            };
        }
        let mut folded = String::with_capacity(text.len() + 16);
        let mut origin = Vec::with_capacity(text.len() + 16);
        for (i, c) in text.char_indices() {
            // Documents are far below 4 GiB (the loader caps them); saturate anyway.
            let at = u32::try_from(i).unwrap_or(u32::MAX);
            if c.is_ascii() {
                folded.push(fold_char(c).to_ascii_lowercase());
                origin.push(at);
                continue;
            }
            for l in fold_char(c).to_lowercase() {
                folded.push(l);
                origin.extend(std::iter::repeat_n(at, l.len_utf8()));
            }
        }
        Folded {
            text: folded,
            origin,
        }
    }

    /// The original byte range of folded range `start..end`, if it covers whole
    /// original characters.
    fn original_range(&self, text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
        if self.origin.is_empty() {
            return Some((start, end));
        }
        if start >= end || end > self.origin.len() {
            return None;
        }
        let os = self.origin[start];
        if start > 0 && self.origin[start - 1] == os {
            return None;
        }
        if end < self.origin.len() && self.origin[end] == self.origin[end - 1] {
            return None;
        }
        let (os, last) = (os as usize, self.origin[end - 1] as usize);
        let oe = last + next_char(text, last).map_or(0, char::len_utf8);
        Some((os, oe))
    }
}

/// Folds a gazetteer entry the way [`Folded`] folds the text.
fn fold_term(term: &str) -> String {
    term.chars()
        .map(fold_char)
        .flat_map(char::to_lowercase)
        .collect::<String>()
        .split(' ')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

// ---------------------------------------------------------------------------
// Gazetteer automaton
// ---------------------------------------------------------------------------

struct Gazetteer {
    automaton: AhoCorasick,
    /// Every folded term, for exact lookups.
    terms: BTreeSet<String>,
    /// Per pattern: (entity type, relevance, from the deny list).
    kinds: Vec<(&'static str, f64, bool)>,
}

/// The built-in type name for a configured one (config validation allows only these).
fn static_type(name: &str) -> Option<&'static str> {
    crate::schema::DEFAULT_TYPES
        .iter()
        .map(|(n, ..)| *n)
        .find(|n| *n == name)
}

impl Gazetteer {
    /// The shipped lists, then the configured terms (relevance of the type's shipped
    /// list, 0.9 for other types), then the deny list (relevance 1.0). The deny list
    /// goes first into the automaton so that its entries win a tie.
    fn build(extra: &ExtractConfig) -> Result<Self, aho_corasick::BuildError> {
        let mut seen = BTreeSet::new();
        let mut terms = Vec::new();
        let mut kinds = Vec::new();
        let mut add = |entry: &str, kind: (&'static str, f64, bool)| {
            let term = fold_term(entry.trim());
            if !term.is_empty() && seen.insert(term.clone()) {
                terms.push(term);
                kinds.push(kind);
            }
        };
        for (ty, values) in &extra.deny {
            if let Some(ty) = static_type(ty) {
                for v in values {
                    add(v, (ty, 1.0, true));
                }
            }
        }
        for (list, ty, relevance) in GAZETTEERS {
            for line in list.lines() {
                let entry = line.split('#').next().unwrap_or("").trim();
                if !entry.is_empty() {
                    add(entry, (ty, *relevance, false));
                }
            }
        }
        for (ty, values) in &extra.gazetteer_terms {
            let Some(ty) = static_type(ty) else {
                continue;
            };
            let relevance = GAZETTEERS
                .iter()
                .find(|(_, t, _)| *t == ty)
                .map_or(0.9, |(_, _, r)| *r);
            for v in values {
                add(v, (ty, relevance, false));
            }
        }
        let automaton = AhoCorasick::builder()
            .match_kind(MatchKind::LeftmostLongest)
            .build(&terms)?;
        Ok(Gazetteer {
            automaton,
            terms: seen,
            kinds,
        })
    }
}

/// Whole-word, leftmost-longest matches of `automaton` in `folded`, in original byte
/// offsets, with the pattern index. A match failing the word boundary is retried from
/// the next character so that a real word starting inside it is not lost.
fn find_words(automaton: &AhoCorasick, folded: &Folded, text: &str) -> Vec<(usize, usize, usize)> {
    let hay = folded.text.as_str();
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < hay.len() {
        let Some(m) = automaton.find(Input::new(hay).range(pos..)) else {
            break;
        };
        match folded.original_range(text, m.start(), m.end()) {
            Some((os, oe)) if word_bounded(text, os, oe) => {
                out.push((os, oe, m.pattern().as_usize()));
                pos = m.end();
            }
            _ => {
                let step = next_char(hay, m.start()).map_or(1, char::len_utf8);
                pos = m.start() + step;
            }
        }
    }
    out
}

/// [`find_words`] for a few patterns without an automaton: leftmost-longest, whole
/// words, in original byte offsets, with the pattern index.
fn find_words_few<S: AsRef<str>>(
    patterns: &[S],
    folded: &Folded,
    text: &str,
) -> Vec<(usize, usize, usize)> {
    let hay = folded.text.as_str();
    // Next occurrence at or after `pos` of each pattern (None: no more).
    let mut next: Vec<Option<usize>> = patterns
        .iter()
        .map(|p| {
            Some(p.as_ref())
                .filter(|p| !p.is_empty())
                .and_then(|p| hay.find(p))
        })
        .collect();
    let mut out = Vec::new();
    let mut pos = 0;
    while pos < hay.len() {
        let mut best: Option<(usize, usize, usize)> = None;
        for (i, p) in patterns.iter().enumerate() {
            let p = p.as_ref();
            if next[i].is_some_and(|at| at < pos) {
                next[i] = hay.get(pos..).and_then(|h| h.find(p)).map(|at| at + pos);
            }
            if let Some(at) = next[i] {
                let end = at + p.len();
                if best.is_none_or(|(bs, be, _)| at < bs || (at == bs && end > be)) {
                    best = Some((at, end, i));
                }
            }
        }
        let Some((start, end, i)) = best else { break };
        match folded.original_range(text, start, end) {
            Some((os, oe)) if word_bounded(text, os, oe) => {
                out.push((os, oe, i));
                pos = end;
            }
            _ => pos = start + next_char(hay, start).map_or(1, char::len_utf8),
        }
    }
    out
}

// ---------------------------------------------------------------------------
// The extractor
// ---------------------------------------------------------------------------

/// The first built-in extractor: regular expressions, name/provider/address patterns
/// and gazetteers. See the module documentation for the recognizers and relevances.
pub struct OfflineExtractor {
    date_order: DateOrder,
    patterns: Option<&'static Patterns>,
    gazetteer: Option<Gazetteer>,
    /// Folded values of the allow list: never extracted.
    allow: BTreeSet<String>,
}

impl OfflineExtractor {
    /// Builds the extractor. Regular expressions are compiled once per process; the
    /// gazetteer automaton is built here.
    pub fn new(date_order: DateOrder) -> Self {
        Self::with_extensions(date_order, &ExtractConfig::default())
    }

    /// The extractor a configuration asks for: its date order, gazetteer terms, allow
    /// and deny lists (`[extract]` in `clam.toml`).
    pub fn from_config(config: &Config) -> Self {
        Self::with_extensions(config.date_order, &config.extract)
    }

    fn with_extensions(date_order: DateOrder, extra: &ExtractConfig) -> Self {
        let patterns = match &*PATTERNS {
            Ok(p) => Some(p),
            Err(e) => {
                tracing::error!("offline extractor: pattern failed to compile: {e}");
                None
            }
        };
        let gazetteer = match Gazetteer::build(extra) {
            Ok(g) => Some(g),
            Err(e) => {
                tracing::error!("offline extractor: gazetteer automaton failed: {e}");
                None
            }
        };
        OfflineExtractor {
            date_order,
            patterns,
            gazetteer,
            allow: extra.allow.iter().map(|v| fold_term(v.trim())).collect(),
        }
    }

    /// The compile error of the pattern set, if any (the extractor then runs with the
    /// gazetteers only).
    pub fn pattern_error() -> Option<String> {
        PATTERNS.as_ref().err().map(ToString::to_string)
    }

    /// Items of one text (the body of [`Extractor::extract`]).
    pub fn extract_text(&self, text: &str) -> Vec<ExtractedItem> {
        let folded = Folded::new(text);
        let mut cands = Vec::new();
        if let Some(p) = self.patterns {
            self.emails(p, text, &mut cands);
            self.phones(p, text, &mut cands);
            self.ids(p, text, &mut cands);
            self.dates(p, text, &mut cands);
            self.ages(p, text, &mut cands);
            self.addresses(p, text, &mut cands);
            self.names(p, text, &folded, &mut cands);
            self.providers(p, text, &mut cands);
            self.places(p, text, &mut cands);
            self.events_and_facts(p, text, &mut cands);
            self.clinical_phrases(p, text, &mut cands);
        }
        if let Some(g) = &self.gazetteer {
            self.gazetteer_terms(g, text, &folded, &mut cands);
        }
        if !self.allow.is_empty() {
            // An allowed value and everything inside its occurrences stays text
            // ("Fenwick Falls" inside an allowed "Fenwick Falls Community Hospital").
            let allowed: Vec<&String> = self.allow.iter().collect();
            let regions: Vec<(usize, usize)> = find_words_few(&allowed, &folded, text)
                .into_iter()
                .map(|(s, e, _)| (s, e))
                .collect();
            cands.retain(|c| {
                c.tier == Tier::Deny
                    || !(self.allow.contains(&c.normalized.to_lowercase())
                        || regions.iter().any(|&(s, e)| s <= c.start && c.end <= e))
            });
        }
        let kept = resolve_overlaps(cands);
        to_items(text, kept)
    }

    /// Named events ("Lakeshore Triathlon"), accidents ("fall from a picking ladder")
    /// and superlatives pinned to a population ("the only such case in the state").
    fn events_and_facts(&self, p: &Patterns, text: &str, cands: &mut Vec<Cand>) {
        for (re, ty, relevance) in [
            (&p.event_named, "EVENT", 0.7),
            (&p.event_accident, "EVENT", 0.7),
            (&p.unique_fact, "UNIQUE_FACT", 0.8),
        ] {
            for m in re.find_iter(text) {
                self.push(
                    cands,
                    text,
                    (m.start(), m.end()),
                    ty,
                    relevance,
                    Tier::Gazetteer,
                );
            }
        }
    }

    /// Conditions and treatments the gazetteers do not list, by their head word or a
    /// clinical suffix. Leading function words, generic adjectives and verb forms are
    /// trimmed ("diagnosed with early-onset Lewy body dementia" → "early-onset Lewy
    /// body dementia"); a head word alone ("the disease") is no entity.
    fn clinical_phrases(&self, p: &Patterns, text: &str, cands: &mut Vec<Cand>) {
        for (re, ty, relevance, suffixes) in [
            (
                &p.condition_phrase,
                "MEDICAL_CONDITION",
                0.85,
                CONDITION_SUFFIXES,
            ),
            (&p.treatment_phrase, "TREATMENT", 0.9, TREATMENT_SUFFIXES),
        ] {
            for m in re.find_iter(text) {
                if prev_char(text, m.start()).is_some_and(char::is_alphanumeric) {
                    continue;
                }
                let mut start = m.start();
                let phrase = m.as_str();
                let words: Vec<&str> = phrase
                    .split([' ', '\u{a0}'])
                    .filter(|w| !w.is_empty())
                    .collect();
                // The phrase starts after its last function word, verb form or
                // possessive ("utilization of physical therapy", "Maplewood's aquatic
                // therapy", "wait for pulsed ablation" → the clinical part only).
                let cut = words[..words.len().saturating_sub(1)]
                    .iter()
                    .rposition(|w| generic_modifier(w) || w.ends_with("'s") || w.ends_with("’s"))
                    .map_or(0, |i| i + 1);
                let mut kept = words.len();
                for w in &words[..cut] {
                    kept -= 1;
                    start += text[start..].find(w).map_or(0, |i| i + w.len());
                    start += text[start..].len() - text[start..].trim_start().len();
                }
                let last = words.last().map(|w| w.to_lowercase()).unwrap_or_default();
                if NOT_CLINICAL.contains(&last.as_str()) {
                    continue;
                }
                // A head word needs a modifier; a suffix word stands alone.
                let by_suffix =
                    last.chars().count() >= 6 && suffixes.split('|').any(|x| last.ends_with(x));
                if kept == 0 || (kept < 2 && !by_suffix) {
                    continue;
                }
                // A listed term keeps its list's relevance ("physical therapy").
                if self
                    .gazetteer
                    .as_ref()
                    .is_some_and(|g| g.terms.contains(&fold_term(&text[start..m.end()])))
                {
                    continue;
                }
                self.push(
                    cands,
                    text,
                    (start, m.end()),
                    ty,
                    relevance,
                    Tier::Gazetteer,
                );
            }
        }
    }

    fn push(
        &self,
        cands: &mut Vec<Cand>,
        text: &str,
        (start, end): (usize, usize),
        ty: &'static str,
        relevance: f64,
        tier: Tier,
    ) {
        let Some(original) = text.get(start..end) else {
            return;
        };
        let normalized = canonical(original, ty, self.date_order);
        if normalized.is_empty() {
            return;
        }
        cands.push(Cand {
            start,
            end,
            ty,
            normalized,
            relevance,
            tier,
        });
    }

    fn emails(&self, p: &Patterns, text: &str, cands: &mut Vec<Cand>) {
        for m in p.email.find_iter(text) {
            self.push(cands, text, (m.start(), m.end()), "EMAIL", 1.0, Tier::Email);
        }
    }

    fn phones(&self, p: &Patterns, text: &str, cands: &mut Vec<Cand>) {
        for m in p.phone.find_iter(text) {
            let s = m.as_str();
            if !token_bounded(text, m.start(), m.end()) {
                continue;
            }
            // 555-010-4417 / 555.010.4417 / 555 010 4417: one separator throughout.
            if !s.contains('(') && !s.starts_with('+') {
                let seps: Vec<char> = s.chars().filter(|c| !c.is_ascii_digit()).collect();
                if seps.windows(2).any(|w| w[0] != w[1]) {
                    continue;
                }
            }
            let digits = s.chars().filter(char::is_ascii_digit).count();
            if !(7..=15).contains(&digits) {
                continue;
            }
            self.push(
                cands,
                text,
                (m.start(), m.end()),
                "PHONE_NUMBER",
                1.0,
                Tier::Phone,
            );
        }
        for m in p.phone_loose.find_iter(text) {
            if !token_bounded(text, m.start(), m.end()) {
                continue;
            }
            let from = window_start(text, m.start(), 40, 0);
            if !p.phone_ctx.is_match(&text[from..m.start()]) {
                continue;
            }
            self.push(
                cands,
                text,
                (m.start(), m.end()),
                "PHONE_NUMBER",
                0.85,
                Tier::Phone,
            );
        }
    }

    fn ids(&self, p: &Patterns, text: &str, cands: &mut Vec<Cand>) {
        let mut raw: Vec<(usize, usize, bool)> = Vec::new(); // (start, end, spaced)
        for m in p.id_code.find_iter(text) {
            raw.push((m.start(), m.end(), false));
        }
        for c in p.id_spaced.captures_iter(text) {
            if let Some(m) = c.get(0) {
                raw.push((m.start(), m.end(), true));
            }
        }
        raw.sort_unstable();
        let mut floor = 0;
        for (start, end, spaced) in raw {
            let s = &text[start..end];
            if !token_bounded(text, start, end) {
                continue;
            }
            let digits = s.chars().filter(char::is_ascii_digit).count();
            if digits < 3 {
                continue;
            }
            let letters = s.chars().filter(char::is_ascii_alphabetic).count();
            if letters == 0 && is_date_like(s) {
                continue;
            }
            // Context word, nearest first, within 30 chars on the same line.
            let from = window_start(text, start, 30, floor.min(start));
            let window = &text[from..start];
            let ctx = p.id_ctx.captures_iter(window).last();
            let (ctx_type, ctx_end) = match &ctx {
                Some(c) if c.name("p").is_some() => (Some("PATIENT_ID"), c.get(0).map(|m| m.end())),
                Some(c) => (Some("NON_PERSONAL_ID"), c.get(0).map(|m| m.end())),
                None => (None, None),
            };
            let accepted = if spaced {
                spaced_id_ok(s, ctx_type.is_some())
            } else if letters == 0 {
                // Plain numbers only right after a context word ("Case 2024-113").
                let gap_ok = ctx_end.is_some_and(|e| p.id_gap.is_match(&window[e..]));
                let dashed = s.contains(['-', '\u{2013}']);
                gap_ok && (digits >= 5 || dashed && digits >= 4)
            } else if ctx_type.is_some() {
                true
            } else {
                context_free_id_ok(s)
            };
            if !accepted {
                continue;
            }
            let (ty, relevance) = match ctx_type {
                Some(t) => (t, 1.0),
                None => ("NON_PERSONAL_ID", 0.7),
            };
            self.push(cands, text, (start, end), ty, relevance, Tier::Id);
            floor = end;
        }
    }

    fn dates(&self, p: &Patterns, text: &str, cands: &mut Vec<Cand>) {
        let mut found: Vec<(usize, usize)> = Vec::new();
        for m in p.date_numeric.find_iter(text) {
            let s = m.as_str();
            let seps: Vec<char> = s.chars().filter(|c| !c.is_ascii_digit()).collect();
            if seps.windows(2).any(|w| w[0] != w[1]) {
                continue;
            }
            if seps.first() == Some(&'.') && !s.split('.').any(|t| t.len() == 4) {
                continue;
            }
            if token_bounded(text, m.start(), m.end()) {
                found.push((m.start(), m.end()));
            }
        }
        for m in p.date_words.find_iter(text) {
            if token_bounded(text, m.start(), m.end()) {
                found.push((m.start(), m.end()));
            }
        }
        found.sort_unstable();
        let mut prev_end = 0;
        for (start, end) in found {
            let s = &text[start..end];
            if parse_date(s, self.date_order).is_none() {
                continue;
            }
            let from = window_start(text, start, 40, prev_end.min(start));
            let birth = p.birth_ctx.is_match(&text[from..start]);
            let (ty, relevance) = if birth {
                ("BIRTHDATE", 0.95)
            } else {
                ("EVENT_DATE", 0.7)
            };
            self.push(cands, text, (start, end), ty, relevance, Tier::Date);
            prev_end = prev_end.max(end);
        }
    }

    fn ages(&self, p: &Patterns, text: &str, cands: &mut Vec<Cand>) {
        for re in &p.ages {
            for c in re.captures_iter(text) {
                let (Some(whole), Some(n)) = (c.get(0), c.get(1)) else {
                    continue;
                };
                if !token_bounded(text, n.start(), n.end()) {
                    continue;
                }
                let value: u32 = match n.as_str().parse() {
                    Ok(v) => v,
                    Err(_) => continue,
                };
                if !(1..=125).contains(&value) {
                    continue;
                }
                // "aged 52 weeks" is no age of a person.
                let rest: String = text[whole.end()..]
                    .trim_start()
                    .chars()
                    .take(8)
                    .flat_map(char::to_lowercase)
                    .collect();
                if ["week", "month", "day", "hour", "minute", "%"]
                    .iter()
                    .any(|u| rest.starts_with(u))
                {
                    continue;
                }
                // A range or a bound describes a population, not a person: "aged
                // 58-72", "aged 55+", "over age 65", "aged 40 to 55", "aged 50 and over".
                let after = text[n.end()..]
                    .chars()
                    .take(12)
                    .collect::<String>()
                    .to_lowercase();
                let mut after_chars = after.chars();
                let range_after = after.starts_with('+')
                    || (matches!(after_chars.next(), Some('-' | '–' | '—'))
                        && after_chars.next().is_some_and(|c| c.is_ascii_digit()))
                    || [
                        "s ",
                        " to ",
                        " and over",
                        " and older",
                        " and above",
                        " or older",
                        " or over",
                        " and under",
                        " or younger",
                    ]
                    .iter()
                    .any(|t| after.starts_with(t));
                let from = window_start(text, whole.start(), 24, 0);
                let before = text[from..whole.start()].to_lowercase();
                let bound_before = [
                    "over", "under", "above", "below", "least", "than", "between", "from",
                ]
                .iter()
                .any(|w| before.trim_end().ends_with(w));
                if range_after || bound_before || is_range_end(text, n.start()) {
                    continue;
                }
                self.push(cands, text, (n.start(), n.end()), "AGE", 0.8, Tier::Date);
            }
        }
    }

    fn addresses(&self, p: &Patterns, text: &str, cands: &mut Vec<Cand>) {
        for m in p.address.find_iter(text) {
            let (start, mut end) = (m.start(), m.end());
            let digits = leading_digits(m.as_str());
            if digits > 0 && !token_bounded(text, start, start + digits) {
                continue;
            }
            // A trailing sentence period after a city is not part of the address.
            let s = &text[start..end];
            // (Street abbreviations such as "Ln." and "Blvd." keep theirs.)
            if s.ends_with('.') {
                let last_word = s.rsplit([' ', ',']).next().unwrap_or("");
                if last_word.chars().count() > 5 {
                    end -= 1;
                }
            }
            let relevance = if text[start..end].contains(',') {
                1.0
            } else {
                0.95
            };
            self.push(
                cands,
                text,
                (start, end),
                "ADDRESS",
                relevance,
                Tier::Address,
            );
        }
    }

    fn providers(&self, p: &Patterns, text: &str, cands: &mut Vec<Cand>) {
        for m in p.provider.find_iter(text) {
            let mut start = m.start();
            let end = m.end();
            // Drop leading stop words while at least two words remain.
            loop {
                let s = &text[start..end];
                let words: Vec<&str> = s.split([' ', '\u{A0}']).collect();
                if words.len() > 2 && in_list(PROVIDER_LEAD_STOP, words[0]) {
                    start += words[0].len() + 1;
                    // keep char boundary: the separator may be a 2-byte no-break space
                    while !text.is_char_boundary(start) {
                        start += 1;
                    }
                } else {
                    break;
                }
            }
            let s = &text[start..end];
            let words: Vec<&str> = s.split([' ', '\u{A0}']).filter(|w| !w.is_empty()).collect();
            let name_words: Vec<&str> = words
                .iter()
                .copied()
                .filter(|w| !matches!(*w, "&" | "and" | "of" | "for" | "the"))
                .collect();
            if name_words.len() < 2 {
                continue;
            }
            let saint = matches!(name_words[0], "St." | "St" | "Saint");
            if name_words.len() == 2 && !saint && in_list(PROVIDER_GENERIC, name_words[0]) {
                continue;
            }
            if !word_bounded(text, start, end) && !s.ends_with('.') {
                continue;
            }
            self.push(cands, text, (start, end), "PROVIDER", 0.8, Tier::Provider);
        }
    }

    fn places(&self, p: &Patterns, text: &str, cands: &mut Vec<Cand>) {
        for m in p.place_shape.find_iter(text) {
            if prev_char(text, m.start()).is_some_and(char::is_alphanumeric) {
                continue;
            }
            let first = m.as_str().split([' ', '\u{A0}']).next().unwrap_or("");
            if in_list(PLACE_STOP, first) {
                continue;
            }
            self.push(
                cands,
                text,
                (m.start(), m.end()),
                "LOCATION",
                0.6,
                Tier::Gazetteer,
            );
        }
        for c in p.place_prep.captures_iter(text) {
            let Some(place) = c.name("place") else {
                continue;
            };
            if in_list(PLACE_STOP, place.as_str()) || in_list(NAME_STOP, place.as_str()) {
                continue;
            }
            // "in Prescriber Communications": a capitalised phrase, not a town.
            let rest = &text[place.end()..];
            let mut rest_chars = rest.chars();
            if rest_chars.next() == Some(' ') && rest_chars.next().is_some_and(char::is_uppercase) {
                continue;
            }
            self.push(
                cands,
                text,
                (place.start(), place.end()),
                "LOCATION",
                0.5,
                Tier::PlaceGuess,
            );
        }
    }

    fn gazetteer_terms(&self, g: &Gazetteer, text: &str, folded: &Folded, cands: &mut Vec<Cand>) {
        let negation = self.patterns.map(|p| (&p.negation, &p.negation_after));
        let occupation_prefix = self.patterns.map(|p| &p.occupation_prefix);
        for (mut start, end, pattern) in find_words(&g.automaton, folded, text) {
            let Some(&(ty, relevance, denied)) = g.kinds.get(pattern) else {
                continue;
            };
            if denied {
                self.push(cands, text, (start, end), ty, relevance, Tier::Deny);
                continue;
            }
            let original = &text[start..end];
            // Short abbreviations only in upper or lower case ("MS", "ms", not "Ms").
            let letters: Vec<char> = original.chars().filter(|c| c.is_alphabetic()).collect();
            if original.chars().count() <= 3
                && letters.len() > 1
                && letters[0].is_uppercase()
                && letters[1..].iter().any(|c| c.is_lowercase())
            {
                continue;
            }
            if ty == "MEDICAL_CONDITION"
                && negation.is_some_and(|(re, after)| negated(re, after, text, start, end))
            {
                continue;
            }
            if ty == "INDIRECT_IDENTIFIER"
                && let Some(re) = occupation_prefix
            {
                let from = window_start(text, start, 16, 0);
                if let Some(m) = re.find(&text[from..start]) {
                    start = from + m.start();
                }
            }
            self.push(cands, text, (start, end), ty, relevance, Tier::Gazetteer);
        }
    }

    fn names(&self, p: &Patterns, text: &str, folded: &Folded, cands: &mut Vec<Cand>) {
        let mut found: Vec<Cand> = Vec::new();
        let mut add = |start: usize, end: usize, relevance: f64| {
            let (start, end) = trim_possessive(text, start, end);
            if next_char(text, end).is_some_and(char::is_alphanumeric) {
                return;
            }
            let Some(original) = text.get(start..end) else {
                return;
            };
            if !name_words_ok(original) {
                return;
            }
            let normalized = canonical(original, "NAME", self.date_order);
            if normalized.is_empty() {
                return;
            }
            found.push(Cand {
                start,
                end,
                ty: "NAME",
                normalized,
                relevance,
                tier: Tier::Name,
            });
        };
        for c in p.name_label.captures_iter(text) {
            if let Some(m) = c.name("name") {
                add(m.start(), m.end(), 1.0);
            }
        }
        for m in p.name_honorific.find_iter(text) {
            add(m.start(), m.end(), 1.0);
        }
        for c in p.name_role.captures_iter(text) {
            let (Some(all), Some(m)) = (c.get(0), c.name("name")) else {
                continue;
            };
            // A capitalised role word inside a line is a title ("Health – Member
            // Reimbursement Request"), not a role before a name.
            if text[all.start()..].starts_with(char::is_uppercase)
                && !sentence_start(text, all.start())
            {
                continue;
            }
            add(m.start(), m.end(), 0.95);
        }
        for c in p.name_credential.captures_iter(text) {
            if let Some(m) = c.name("name") {
                add(m.start(), m.end(), 0.95);
            }
        }
        for c in p.name_intro.captures_iter(text) {
            if let Some(m) = c.name("name") {
                add(m.start(), m.end(), 0.95);
            }
        }
        for m in p.name_initial.find_iter(text) {
            if prev_char(text, m.start()).is_some_and(|c| c == '.' || c.is_alphanumeric()) {
                continue;
            }
            // "Appendix B. Room 12", "Vitamin D. Take", "Room 4. Ward 7" are no names.
            let before = text[..m.start()].trim_end();
            let prev_word = before
                .rsplit(|c: char| !c.is_alphanumeric())
                .next()
                .unwrap_or("");
            if in_list(INITIAL_PREV_STOP, prev_word)
                || prev_word.chars().any(|c| c.is_ascii_digit())
            {
                continue;
            }
            let after = text[m.end()..].trim_start_matches([' ', '\u{A0}']);
            if after.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                continue;
            }
            add(m.start(), m.end(), 0.85);
        }

        // Full names of this document: at least two words, the first not an initial.
        let full: BTreeSet<String> = found
            .iter()
            .map(|c| c.normalized.clone())
            .filter(|n| is_full_name(n))
            .collect();
        for c in &mut found {
            if !is_full_name(&c.normalized)
                && let Some(target) = resolve_partial(&c.normalized, &full)
            {
                c.normalized = target;
            }
        }
        let mut echoes = Vec::new();
        self.echo_names(text, folded, &full, &mut echoes);
        found.extend(echoes);
        // Clinicians are providers (thesis schema and both labelled sets): "Dr. Anton
        // Brevik", "Therapist: Owen Castellanos", "Harriet Lindqvist, RN". Every
        // mention of such a name in the document follows.
        let clinicians: BTreeSet<String> = found
            .iter()
            .filter(|c| clinician_context(p, text, c.start, c.end))
            .map(|c| c.normalized.clone())
            .collect();
        for c in &mut found {
            if clinicians.contains(&c.normalized) {
                c.ty = "PROVIDER";
            }
        }
        cands.extend(found);
    }

    /// Other occurrences of the document's full names ("this is Gideon Farrow"), and
    /// their first name or surname alone when unambiguous within the document.
    fn echo_names(
        &self,
        text: &str,
        folded: &Folded,
        full: &BTreeSet<String>,
        cands: &mut Vec<Cand>,
    ) {
        if full.is_empty() {
            return;
        }
        let mut patterns: BTreeMap<String, (Option<String>, f64)> = BTreeMap::new();
        let mut partial_owner: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for name in full {
            let words: Vec<&str> = name.split(' ').collect();
            let (Some(first), Some(last)) = (words.first(), words.last()) else {
                continue;
            };
            patterns.insert(name.clone(), (Some(name.clone()), 0.95));
            patterns.insert(format!("{last}, {first}"), (Some(name.clone()), 0.95));
            patterns.insert(format!("{first} {last}"), (Some(name.clone()), 0.95));
            for w in [first, last] {
                if w.chars().count() >= 3 && !w.contains('.') && !in_list(NAME_STOP, w) {
                    partial_owner
                        .entry((*w).to_string())
                        .or_default()
                        .insert(name.clone());
                }
            }
        }
        for (word, owners) in partial_owner {
            if patterns.contains_key(&word) {
                continue;
            }
            let owner = if owners.len() == 1 {
                owners.into_iter().next()
            } else {
                None
            };
            patterns.insert(word, (owner, 0.8));
        }
        let keys: Vec<&String> = patterns.keys().collect();
        // A handful of names per document: plain substring search beats building an
        // automaton for every document.
        for (start, end, pattern) in find_words_few(&keys, folded, text) {
            let Some(key) = keys.get(pattern) else {
                continue;
            };
            let Some((Some(owner), relevance)) = patterns.get(*key) else {
                continue;
            };
            // Names are written capitalised; "grace" or "will" in running text are words.
            if !next_char(text, start).is_some_and(char::is_uppercase) {
                continue;
            }
            let tier = if *relevance >= 0.85 {
                Tier::Name
            } else {
                Tier::NameEcho
            };
            cands.push(Cand {
                start,
                end,
                ty: "NAME",
                normalized: owner.clone(),
                relevance: *relevance,
                tier,
            });
        }
    }
}

impl Extractor for OfflineExtractor {
    fn name(&self) -> &str {
        "offline"
    }

    fn extract(&self, doc: &Document) -> Result<Vec<ExtractedItem>, ExtractError> {
        Ok(self.extract_text(&doc.content))
    }
}

// ---------------------------------------------------------------------------
// Helpers of the recognizers
// ---------------------------------------------------------------------------

/// Ordinary words with a clinical suffix.
const NOT_CLINICAL: &[&str] = &[
    "diagnosis",
    "prognosis",
    "academia",
    "sympathy",
    "empathy",
    "telepathy",
    "diploma",
    "aroma",
    "nostalgia",
    "dichotomy",
    "hypnosis",
    "osmosis",
    "symbiosis",
    "apotheosis",
    "metamorphosis",
    "neurosis",
    "microscopy",
    "philanthropy",
    "stroma",
    "genoma",
];

/// Words that start no clinical phrase: function words, determiners, generic
/// adjectives and verb forms ("with", "his", "rare", "novel", "requiring", "treated").
fn generic_modifier(word: &str) -> bool {
    const GENERIC: &str = "a an the and or of in on at to for from by with without after \
        before during since as is are was were be been has have had his her their its our \
        my your this that these those any all some no not new rare novel unusual \
        specialized specialised several other previous prior current recent such more most \
        many multiple various certain specific additional related standard further possible \
        suspected known severe mild moderate both also patient patients covered experimental \
        outpatient inpatient which who whose than via per into under over between among \
        while then including includes included include when where whether because though \
        although within wait shows show showed underwent undergo undergoes receive receives \
        received require requires required start starts began begin begins needs need \
        completed completes prescribed scheduled denied approved recommended reported noted \
        indicates reveals suggests analysis utilization use uses using like due post pre \
        cost costs coverage claims claim billing authorization approval documentation \
        outcomes";
    let lower = word.to_lowercase();
    let lower = lower.trim_end_matches(['\'', '’']);
    GENERIC.split_whitespace().any(|g| g == lower)
        || (lower.len() > 4
            && (lower.ends_with("ing") || lower.ends_with("ed"))
            && !lower.contains('-'))
        || lower.chars().all(|c| c.is_ascii_digit())
}

/// A name written as a clinician's: a doctor's title, a clinical role right before it
/// (same line), or clinical credentials right after it.
fn clinician_context(p: &Patterns, text: &str, start: usize, end: usize) -> bool {
    let mention = &text[start..end];
    if ["Dr ", "Dr.", "DR ", "DR.", "Doctor ", "Prof"]
        .iter()
        .any(|h| mention.starts_with(h))
    {
        return true;
    }
    let from = window_start(text, start, 40, 0);
    let before = &text[from..start];
    let line = before.rsplit('\n').next().unwrap_or(before);
    p.clinician_before.is_match(line) || p.clinician_after.is_match(&text[end..])
}

/// The digits at `start` end a range ("45-65"): a digit, then a dash, right before.
fn is_range_end(text: &str, start: usize) -> bool {
    let mut before = text[..start].chars().rev();
    matches!(before.next(), Some('-' | '–' | '—'))
        && before.next().is_some_and(|c| c.is_ascii_digit())
}

fn leading_digits(s: &str) -> usize {
    s.bytes().take_while(u8::is_ascii_digit).count()
}

/// A letter prefix and digit groups separated by single spaces ("CLM 2024 0788120").
fn spaced_id_ok(s: &str, has_context: bool) -> bool {
    let mut parts = s.split(' ');
    let prefix = parts.next().unwrap_or("");
    let groups: Vec<&str> = parts.collect();
    const STOP: &[&str] = &[
        "id", "no", "nr", "num", "ref", "mrn", "dob", "cpt", "icd", "ndc", "hcpcs", "and", "the",
        "for", "tel", "fax", "ph", "room", "rm", "apt", "ste", "box", "po", "us", "usd", "eur",
        "gbp", "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "sept", "oct", "nov",
        "dec", "mon", "tue", "wed", "thu", "fri", "sat", "sun", "am", "pm", "ext", "mg", "ml",
        "kg", "lb", "lbs", "hrs", "min", "sec", "vs", "rx",
    ];
    if in_list(STOP, prefix) {
        return false;
    }
    let upper = prefix.chars().all(|c| c.is_ascii_uppercase());
    let vowelless = !prefix
        .chars()
        .any(|c| matches!(c.to_ascii_lowercase(), 'a' | 'e' | 'i' | 'o' | 'u' | 'y'));
    if !(upper || vowelless && prefix.len() <= 4) {
        return false;
    }
    if groups.len() >= 2 {
        return true;
    }
    // One group: needs a context word, and "OR 97321" (state + ZIP) is no id.
    let zip = prefix.len() == 2 && groups.first().is_some_and(|g| g.len() == 5);
    has_context && !zip
}

/// Whether a digits-and-separators token is a date in any order ("2024-08-22").
fn is_date_like(s: &str) -> bool {
    [DateOrder::Mdy, DateOrder::Dmy, DateOrder::Ymd]
        .into_iter()
        .any(|o| parse_date(s, o).is_some())
}

/// A code found without a context word: upper-case letters and ≥ 4 digits, with a dash
/// or a letter prefix, and more than a year ("FY2024", "Q2-2024").
fn context_free_id_ok(s: &str) -> bool {
    if s.chars().any(|c| c.is_ascii_lowercase()) {
        return false;
    }
    let digits: Vec<u32> = s.chars().filter_map(|c| c.to_digit(10)).collect();
    if digits.len() < 4 {
        return false;
    }
    let dashed = s.contains(['-', '\u{2013}']);
    let letter_prefix = s.chars().next().is_some_and(|c| c.is_ascii_alphabetic());
    if !(dashed || letter_prefix) {
        return false;
    }
    let groups: Vec<&str> = s
        .split(|c: char| !c.is_ascii_digit())
        .filter(|g| !g.is_empty())
        .collect();
    let yearish = |g: &str| g.len() == 4 && (g.starts_with("19") || g.starts_with("20"));
    let only_year = match groups.as_slice() {
        [y] => yearish(y),
        [a, y] => a.len() == 1 && yearish(y),
        _ => false,
    };
    !only_year
}

/// A trailing possessive "'s" is not part of a name.
/// Is `pos` at the start of the text, a line or a sentence?
fn sentence_start(text: &str, pos: usize) -> bool {
    let before = &text[..pos];
    let trimmed = before.trim_end_matches([' ', '\t', '\u{A0}']);
    match trimmed.chars().next_back() {
        None => true,
        Some(c) => matches!(
            c,
            '.' | '!' | '?' | '\n' | '\r' | ':' | ';' | '(' | '"' | '“'
        ),
    }
}

fn trim_possessive(text: &str, start: usize, end: usize) -> (usize, usize) {
    let s = &text[start..end];
    for suffix in ["'s", "’s"] {
        if s.ends_with(suffix) && s.len() > suffix.len() {
            return (start, end - suffix.len());
        }
    }
    (start, end)
}

/// No word of a candidate name is an organisation/heading word.
fn name_words_ok(original: &str) -> bool {
    let words: Vec<&str> = original
        .split([' ', ',', '\u{A0}'])
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| w.chars().count() > 1)
        .filter(|w| !crate::entity::normalize::HONORIFICS.contains(&w.to_lowercase().as_str()))
        .collect();
    let caps_without_vowel = |w: &&str| {
        w.chars().all(|c| !c.is_alphabetic() || c.is_uppercase())
            && !w
                .chars()
                .any(|c| matches!(c, 'A' | 'E' | 'I' | 'O' | 'U' | 'Y'))
    };
    !words.is_empty()
        && !words.iter().any(|w| in_list(NAME_STOP, w))
        && !words.iter().any(caps_without_vowel)
}

fn is_full_name(normalized: &str) -> bool {
    let words: Vec<&str> = normalized.split(' ').collect();
    words.len() >= 2
        && words
            .first()
            .is_some_and(|w| !w.ends_with('.') && w.chars().count() > 1)
}

/// The full name a partial name ("raman", "m. quintero-hale") stands for, if exactly one
/// full name of the document fits.
fn resolve_partial(partial: &str, full: &BTreeSet<String>) -> Option<String> {
    let words: Vec<&str> = partial.split(' ').collect();
    let surname = *words.last()?;
    let initials: Vec<char> = words[..words.len() - 1]
        .iter()
        .filter_map(|w| w.chars().next())
        .collect();
    let mut fits = full.iter().filter(|f| {
        let fw: Vec<&str> = f.split(' ').collect();
        fw.last() == Some(&surname)
            && initials
                .first()
                .is_none_or(|i| fw.first().is_some_and(|w| w.starts_with(*i)))
    });
    let first = fits.next()?;
    if fits.next().is_some() {
        return None;
    }
    Some(first.clone())
}

/// A negation cue within the five words before `start`, in the same clause.
/// Also a cue right after the term ("stroke, which was ruled out").
fn negated(re: &Regex, after: &Regex, text: &str, start: usize, end: usize) -> bool {
    let rest: String = text[end..].chars().take(40).collect();
    if after.is_match(&rest) {
        return true;
    }
    let from = window_start(text, start, 60, 0);
    let before = &text[from..start];
    let clause_start = before
        .rfind(['.', ';', ':', '!', '?', '\n'])
        .map_or(0, |i| i + 1);
    let clause = &before[clause_start..];
    let words: Vec<&str> = clause.split_whitespace().collect();
    let tail = words[words.len().saturating_sub(5)..].join(" ");
    re.is_match(&tail)
}

// ---------------------------------------------------------------------------
// Overlaps and output
// ---------------------------------------------------------------------------

/// Keeps a set of non-overlapping candidates, preferring lower tiers, then longer spans,
/// then higher relevance, then earlier starts.
fn resolve_overlaps(mut cands: Vec<Cand>) -> Vec<Cand> {
    cands.retain(|c| c.start < c.end);
    cands.sort_by(|a, b| {
        a.tier
            .cmp(&b.tier)
            .then((b.end - b.start).cmp(&(a.end - a.start)))
            .then(b.relevance.total_cmp(&a.relevance))
            .then(a.start.cmp(&b.start))
            .then(a.ty.cmp(b.ty))
            .then(a.normalized.cmp(&b.normalized))
    });
    let mut taken: BTreeMap<usize, usize> = BTreeMap::new();
    let mut kept = Vec::new();
    for c in cands {
        let clash_before = taken
            .range(..c.end)
            .next_back()
            .is_some_and(|(_, &end)| end > c.start);
        if clash_before {
            continue;
        }
        taken.insert(c.start, c.end);
        kept.push(c);
    }
    kept.sort_by(|a, b| a.start.cmp(&b.start).then(a.end.cmp(&b.end)));
    kept
}

/// Groups kept candidates into items (one per type, normalized value and original text)
/// with code-point spans, sorted by first span start.
fn to_items(text: &str, kept: Vec<Cand>) -> Vec<ExtractedItem> {
    let mut offsets: Vec<usize> = kept.iter().flat_map(|c| [c.start, c.end]).collect();
    offsets.sort_unstable();
    offsets.dedup();
    let mut chars_at = Vec::with_capacity(offsets.len());
    let mut next = 0;
    let mut char_count = 0;
    for (byte, _) in text
        .char_indices()
        .chain(std::iter::once((text.len(), ' ')))
    {
        while next < offsets.len() && offsets[next] <= byte {
            chars_at.push(char_count);
            next += 1;
        }
        if next == offsets.len() {
            break;
        }
        char_count += 1;
    }
    let to_char = |b: usize| -> usize {
        match offsets.binary_search(&b) {
            Ok(i) => chars_at.get(i).copied().unwrap_or(char_count),
            Err(_) => text.get(..b).map_or(0, |s| s.chars().count()),
        }
    };
    let mut groups: BTreeMap<(&'static str, String, String), (f64, Vec<Span>)> = BTreeMap::new();
    for c in kept {
        let original = text[c.start..c.end].to_string();
        let span = Span {
            start: to_char(c.start),
            end: to_char(c.end),
        };
        let entry = groups
            .entry((c.ty, c.normalized, original))
            .or_insert((c.relevance, Vec::new()));
        entry.0 = entry.0.max(c.relevance);
        entry.1.push(span);
    }
    let mut items: Vec<ExtractedItem> = groups
        .into_iter()
        .map(|((ty, normalized, original), (relevance, mut spans))| {
            spans.sort();
            ExtractedItem {
                original,
                normalized,
                entity_type: ty.to_string(),
                relevance,
                spans,
            }
        })
        .collect();
    items.sort_by(|a, b| {
        a.spans
            .first()
            .cmp(&b.spans.first())
            .then(a.entity_type.cmp(&b.entity_type))
    });
    items
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex() -> OfflineExtractor {
        OfflineExtractor::new(DateOrder::Mdy)
    }

    fn run(text: &str) -> Vec<ExtractedItem> {
        ex().extract(&Document::new("t", text)).expect("extract")
    }

    fn find<'a>(items: &'a [ExtractedItem], ty: &str, original: &str) -> Option<&'a ExtractedItem> {
        items
            .iter()
            .find(|i| i.entity_type == ty && i.original == original)
    }

    fn has(items: &[ExtractedItem], ty: &str, original: &str) -> bool {
        find(items, ty, original).is_some()
    }

    fn char_slice(text: &str, span: Span) -> String {
        text.chars()
            .skip(span.start)
            .take(span.end - span.start)
            .collect()
    }

    #[test]
    fn events_and_unique_facts() {
        let e = ex();
        let items = e.extract_text(
            "Injured in a fall from a picking ladder before the Lakeshore Triathlon. She is the only such case in the state rare-disease registry and ran the Harbor City Half Marathon. It was the first spontaneous triplets delivered at the hospital in eleven years. A car accident followed.",
        );
        let of = |t: &str| -> Vec<&str> {
            items
                .iter()
                .filter(|i| i.entity_type == t)
                .map(|i| i.original.as_str())
                .collect()
        };
        let events = of("EVENT");
        for v in [
            "fall from a picking ladder",
            "Lakeshore Triathlon",
            "Harbor City Half Marathon",
            "car accident",
        ] {
            assert!(events.contains(&v), "{v}: {events:?}");
        }
        let facts = of("UNIQUE_FACT");
        assert!(facts.contains(&"only such case in the state"), "{facts:?}");
        assert!(
            facts.contains(&"first spontaneous triplets delivered at the hospital in eleven years"),
            "{facts:?}"
        );
        // Not every "only" is a fact.
        let plain = e.extract_text("Only one visit was approved in March.");
        assert!(
            plain.iter().all(|i| i.entity_type != "UNIQUE_FACT"),
            "{plain:?}"
        );
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
    fn patterns_compile() {
        assert_eq!(OfflineExtractor::pattern_error(), None);
        assert!(ex().gazetteer.is_some());
        assert_eq!(ex().name(), "offline");
    }

    #[test]
    fn emails() {
        let items = run("Respondent email: mquintero.hale@example.com, cc Ops.");
        let e = find(&items, "EMAIL", "mquintero.hale@example.com").expect("email");
        assert_eq!(e.normalized, "mquintero.hale@example.com");
        assert!(e.relevance >= 0.9);
    }

    #[test]
    fn phones_in_common_formats() {
        let text = "Phone: (555) 010-4417, cell 555-010-4417, fax 555.010.4417, \
                    abroad +1 555 010 4417. Caller (via interpreter): 5035550121.";
        let items = run(text);
        for p in [
            "(555) 010-4417",
            "555-010-4417",
            "555.010.4417",
            "+1 555 010 4417",
        ] {
            let i = find(&items, "PHONE_NUMBER", p).unwrap_or_else(|| panic!("{p}: {items:?}"));
            assert!(i.normalized.ends_with("5550104417"));
        }
        assert!(has(&items, "PHONE_NUMBER", "5035550121"));
    }

    #[test]
    fn phones_skip_dates_money_and_ids() {
        let items = run("Paid $14,880.00 on 2024-08-22 for claim CLM-2024-0915532 at 16:42.");
        assert!(
            items.iter().all(|i| i.entity_type != "PHONE_NUMBER"),
            "{items:?}"
        );
    }

    #[test]
    fn birthdate_needs_context() {
        let items = run("DOB: 03/14/1968\nDate of service 04/02/2024");
        let b = find(&items, "BIRTHDATE", "03/14/1968").expect("birthdate");
        assert_eq!(b.normalized, "1968-03-14");
        assert!((b.relevance - 0.95).abs() < 1e-9);
        let e = find(&items, "EVENT_DATE", "04/02/2024").expect("event date");
        assert_eq!(e.normalized, "2024-04-02");
        assert!((e.relevance - 0.7).abs() < 1e-9);
    }

    #[test]
    fn dates_in_all_common_forms() {
        let text = "Seen 1968-03-14, then March 14, 1968, then Mar. 14, 1968, then \
                    14 March 1968 and on Thursday 6 Feb 2025. Born on 3/14/68.";
        let items = run(text);
        for d in [
            "1968-03-14",
            "March 14, 1968",
            "Mar. 14, 1968",
            "14 March 1968",
        ] {
            let i = find(&items, "EVENT_DATE", d).unwrap_or_else(|| panic!("{d}: {items:?}"));
            assert_eq!(i.normalized, "1968-03-14");
        }
        let t = find(&items, "EVENT_DATE", "Thursday 6 Feb 2025").expect("weekday date");
        assert_eq!(t.normalized, "2025-02-06");
        assert!(has(&items, "BIRTHDATE", "3/14/68"));
    }

    #[test]
    fn month_only_and_invalid_dates_are_not_entities() {
        let items = run("Scores improved by March 2024; paid in Q2 2024; form dated 02/30/2024.");
        assert!(
            items
                .iter()
                .all(|i| i.entity_type != "EVENT_DATE" && i.entity_type != "BIRTHDATE"),
            "{items:?}"
        );
    }

    #[test]
    fn birth_context_does_not_leak_to_next_date_on_the_line() {
        let items = run("DOB: 02/11/1963    Visit: 14 May 2024");
        assert!(has(&items, "BIRTHDATE", "02/11/1963"));
        assert!(has(&items, "EVENT_DATE", "14 May 2024"));
    }

    #[test]
    fn ages_point_at_the_digits() {
        let text = "A 54-year-old man; Age: 61; aged 52; 47 years old; 33 y/o; 70 years of age.";
        let items = run(text);
        for n in ["54", "61", "52", "47", "33", "70"] {
            let i = find(&items, "AGE", n).unwrap_or_else(|| panic!("{n}: {items:?}"));
            assert_eq!(i.normalized, n);
            assert_eq!(char_slice(text, i.spans[0]), n);
        }
        assert!(!run("aged 12 weeks").iter().any(|i| i.entity_type == "AGE"));
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
    fn configured_terms_allow_and_deny_lists() {
        let mut config = Config::default();
        config
            .extract
            .gazetteer_terms
            .insert("TREATMENT".into(), vec!["Zyntheril".into()]);
        config.extract.allow = vec!["Fenwick Falls Community Hospital".into()];
        config
            .extract
            .deny
            .insert("NAME".into(), vec!["jo public".into()]);
        let ex = OfflineExtractor::from_config(&config);
        let items = ex.extract_text(
            "Jo Public started zyntheril at Fenwick Falls Community Hospital; \
             Bayshore Oncology Associates agreed.",
        );
        let jo = find(&items, "NAME", "Jo Public").expect("deny list");
        assert_eq!(jo.relevance, 1.0);
        assert!(has(&items, "TREATMENT", "zyntheril"), "{items:?}");
        assert!(
            !items.iter().any(|i| i.original.contains("Fenwick")),
            "allowed value extracted: {items:?}"
        );
        assert!(has(&items, "PROVIDER", "Bayshore Oncology Associates"));
        // Without the configuration none of this happens.
        let plain = run("Jo Public started zyntheril at Fenwick Falls Community Hospital.");
        assert!(!has(&plain, "NAME", "Jo Public") && !has(&plain, "TREATMENT", "zyntheril"));
        assert!(has(&plain, "PROVIDER", "Fenwick Falls Community Hospital"));
    }

    /// Pathological inputs finish and give sane output. The bound is on input size
    /// (megabytes of hostile text), not on wall time; a super-linear path would turn
    /// this test into minutes and fail CI's time limit.
    #[test]
    fn pathological_inputs_finish() {
        // A 10 MB document on one line.
        let unit = "Patient Rex Marin paid $12.50 on 2024-01-02 at Bayshore Oncology Associates; ";
        let reps = 10_000_000 / unit.len() + 1;
        let big = unit.repeat(reps);
        let items = run(&big);
        let name = find(&items, "NAME", "Rex Marin").expect("name");
        assert_eq!(name.spans.len(), reps);
        let provider = find(&items, "PROVIDER", "Bayshore Oncology Associates").expect("provider");
        assert_eq!(provider.spans.len(), reps);
        // 100k repeated tokens of every shape the patterns start on.
        for token in [
            "Hospital ",
            "Mary ",
            "Dr. ",
            "12345 ",
            "MRN ",
            "born ",
            "St. ",
            "disease ",
        ] {
            let text = token.repeat(100_000);
            let items = run(&text);
            assert!(
                items.iter().map(|i| i.spans.len()).sum::<usize>() <= 100_000,
                "{token}"
            );
        }
        // Deeply repeated punctuation and separators.
        for unit in ["(", "-", ".", "@", "#-", "'", ", ", "/", "\u{a0}"] {
            let text = unit.repeat(1_000_000 / unit.len());
            assert!(run(&text).is_empty(), "{unit:?}");
        }
    }

    #[test]
    fn unicode_text_never_panics_and_keeps_code_point_spans() {
        let text = "Dr.\u{a0}Zoë Müller-Lüdenscheidt saw Ñuño Pérez. \
                    שלום עולם مرحبا بالعالم — patient Renée O'Brien, \
                    phone 555\u{a0}010\u{a0}4417, 👩‍⚕️ e\u{301}te\u{301} ﷽ \u{200f}\u{202e}abc";
        let items = run(text);
        for i in &items {
            for sp in &i.spans {
                assert_eq!(char_slice(text, *sp), i.original, "{i:?}");
            }
        }
        assert!(
            has(&items, "PROVIDER", "Dr.\u{a0}Zoë Müller-Lüdenscheidt"),
            "{items:?}"
        );
        assert!(has(&items, "NAME", "Renée O'Brien"), "{items:?}");
        // Right-to-left scripts, emoji sequences and lone combining marks alone.
        for t in [
            "שלום עולם",
            "مرحبا بالعالم 2024-01-02",
            "\u{301}\u{301}",
            "👩‍⚕️👩‍⚕️",
            "\u{202e}",
        ] {
            let _ = run(t);
        }
    }

    #[test]
    fn clinicians_are_providers() {
        let items = run(
            "Therapist: Owen Castellanos, PT\nVisit by Harriet Lindqvist, RN. \
             The treating surgeon, Dr. Anton Brevik, asked us to call Anton Brevik back. \
             Patient: Priya Raman",
        );
        for n in ["Owen Castellanos", "Harriet Lindqvist", "Dr. Anton Brevik"] {
            assert!(has(&items, "PROVIDER", n), "{n}: {items:?}");
        }
        // The name's other mention follows; the patient stays a NAME.
        assert!(has(&items, "PROVIDER", "Anton Brevik"), "{items:?}");
        assert!(has(&items, "NAME", "Priya Raman"));
    }

    #[test]
    fn clinical_phrases_by_head_word_and_suffix() {
        let items = run(
            "Patients with lumbar degenerative disc disease were diagnosed with \
             autoimmune thyroiditis and received aquatic therapy and monthly nerve blocks. \
             The disease was stable; diagnosis pending; the therapy continues.",
        );
        assert!(
            has(
                &items,
                "MEDICAL_CONDITION",
                "lumbar degenerative disc disease"
            ),
            "{items:?}"
        );
        assert!(
            has(&items, "MEDICAL_CONDITION", "autoimmune thyroiditis"),
            "{items:?}"
        );
        assert!(has(&items, "TREATMENT", "aquatic therapy"), "{items:?}");
        assert!(
            has(&items, "TREATMENT", "monthly nerve blocks"),
            "{items:?}"
        );
        // A head word alone, or an ordinary word with a clinical suffix, is no entity.
        for w in ["disease", "diagnosis", "therapy"] {
            assert!(
                !items.iter().any(|i| i.original.eq_ignore_ascii_case(w)),
                "{w}: {items:?}"
            );
        }
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
            "jonathan a. miller"
        );
        assert!(has(&items, "PATIENT_ID", "XJH 882 1190 02"));
        assert!(has(&items, "NAME", "Sarah Connelly"));
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

    #[test]
    fn initials_before_labels_are_not_names() {
        let items = run("See Appendix B. Room 12 is on Ward 7. Vitamin D. Take daily.");
        assert!(items.iter().all(|i| i.entity_type != "NAME"), "{items:?}");
    }

    #[test]
    fn multibyte_text_gives_code_point_spans() {
        let text = "Zoë Müller — Dr. Elise Varga";
        let items = run(text);
        let d = find(&items, "PROVIDER", "Dr. Elise Varga").expect("name");
        assert_eq!(d.spans, vec![Span { start: 13, end: 28 }]);
        assert_eq!(char_slice(text, d.spans[0]), "Dr. Elise Varga");
    }

    #[test]
    fn providers() {
        let items = run(
            "Facility: Fenwick Falls Community Hospital. Seen at St. Brennan's Women's Hospital \
             and Bayshore Oncology Associates; billed by Harborline Specialty Pharmacy. \
             Home Health referral placed.",
        );
        for p in [
            "Fenwick Falls Community Hospital",
            "St. Brennan's Women's Hospital",
            "Bayshore Oncology Associates",
            "Harborline Specialty Pharmacy",
        ] {
            let i = find(&items, "PROVIDER", p).unwrap_or_else(|| panic!("{p}: {items:?}"));
            assert!((i.relevance - 0.8).abs() < 1e-9);
        }
        assert!(!has(&items, "PROVIDER", "Home Health"));
        let more = run("Seen at Hemisphere Oncology; Quality of Care and Pastoral Care teams.");
        assert!(has(&more, "PROVIDER", "Hemisphere Oncology"), "{more:?}");
        assert!(
            !more.iter().any(|i| i.original.contains("Care")),
            "{more:?}"
        );
    }

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
    fn gazetteer_types() {
        let items = run(
            "Diagnosis: cystic fibrosis. Started lamotrigine. She is a retired teacher \
             and Deaf. Moved to Chicago.",
        );
        assert!(
            has(&items, "MEDICAL_CONDITION", "cystic fibrosis"),
            "{items:?}"
        );
        assert!(has(&items, "TREATMENT", "lamotrigine"));
        assert!(has(&items, "INDIRECT_IDENTIFIER", "retired teacher"));
        assert!(has(&items, "DEMOGRAPHIC", "Deaf"));
        assert!(has(&items, "LOCATION", "Chicago"));
    }

    #[test]
    fn negated_conditions_are_skipped() {
        let items = run(
            "Patient denies asthma. No evidence of cystic fibrosis. History of epilepsy. \
             Suspected stroke, which was ruled out.",
        );
        assert!(!has(&items, "MEDICAL_CONDITION", "asthma"), "{items:?}");
        assert!(!has(&items, "MEDICAL_CONDITION", "cystic fibrosis"));
        assert!(has(&items, "MEDICAL_CONDITION", "epilepsy"));
        assert!(!has(&items, "MEDICAL_CONDITION", "stroke"));
    }

    #[test]
    fn gazetteer_offsets_survive_case_folding() {
        // 'İ' lowercases to two chars; typographic dash and no-break space fold.
        let text = "İİ note: Erdheim–Chester disease and cystic\u{A0}fibrosis.";
        let items = run(text);
        for i in &items {
            for s in &i.spans {
                assert_eq!(char_slice(text, *s), i.original);
            }
        }
        assert!(
            has(&items, "MEDICAL_CONDITION", "cystic\u{A0}fibrosis"),
            "{items:?}"
        );
    }

    #[test]
    fn places() {
        let items =
            run("A retired pilot from Port Calder, now near Willow Creek; market in Millbrook.");
        assert!(has(&items, "LOCATION", "Port Calder"), "{items:?}");
        assert!(has(&items, "LOCATION", "Willow Creek"));
        assert!(has(&items, "LOCATION", "Millbrook"));
    }

    #[test]
    fn spans_never_overlap_and_output_is_sorted() {
        let text = "Member: Rosalind Tiernan (MMH-602-33158), rosie.tiernan@example.org, \
                    414-555-0182, 42 Gannet Row, Port Calder, ME 04652, seen 07/28/2024 at \
                    St. Brennan's Women's Hospital by Dr. Miriam Oduya for triplet pregnancy.";
        let items = run(text);
        let mut spans: Vec<Span> = items.iter().flat_map(|i| i.spans.clone()).collect();
        spans.sort();
        for w in spans.windows(2) {
            assert!(w[0].end <= w[1].start, "overlap {:?} {:?}", w[0], w[1]);
        }
        let firsts: Vec<usize> = items.iter().map(|i| i.spans[0].start).collect();
        assert!(firsts.windows(2).all(|w| w[0] <= w[1]));
        for i in &items {
            for s in &i.spans {
                assert_eq!(char_slice(text, *s), i.original);
            }
        }
    }

    #[test]
    fn deterministic() {
        let text = "Patient: Quintero-Hale, Marisol    DOB: 1979-08-22    Member No.: MMH44820917\n\
                    Ms. Quintero-Hale, an orchard manager, has a left distal radius fracture.";
        let a = run(text);
        for _ in 0..3 {
            assert_eq!(run(text), a);
        }
    }

    /// Runs over the development corpus: every span must equal its original; prints a
    /// mention-level recall against `mentions.jsonl` (exact span + type, and overlap
    /// with the same type).
    #[test]
    fn devset_spans_and_recall() {
        use std::collections::HashMap;
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/devset");
        let Ok(dir) = std::fs::read_dir(root.join("corpus")) else {
            println!("devset not found at {}; skipping", root.display());
            return;
        };
        let extractor = ex();
        let mut docs: Vec<(String, String)> = Vec::new();
        for entry in dir.flatten() {
            let Ok(raw) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            let Ok(v) = serde_json::from_str::<serde_json::Value>(&raw) else {
                continue;
            };
            let id = v["id"].as_str().unwrap_or_default().to_string();
            let content = v["content"].as_str().unwrap_or_default().to_string();
            docs.push((id, content));
        }
        docs.sort();
        let mut by_doc: HashMap<String, Vec<ExtractedItem>> = HashMap::new();
        let mut bytes = 0usize;
        let started = std::time::Instant::now();
        for (id, content) in &docs {
            bytes += content.len();
            let items = extractor
                .extract(&Document::new(id.clone(), content.clone()))
                .expect("extract");
            for i in &items {
                for s in &i.spans {
                    assert_eq!(char_slice(content, *s), i.original, "{id}: {i:?}");
                }
            }
            by_doc.insert(id.clone(), items);
        }
        let elapsed = started.elapsed();
        let big: String = docs
            .iter()
            .map(|(_, c)| c.as_str())
            .collect::<Vec<_>>()
            .join("\n\n")
            .repeat(20);
        let _warm = extractor.extract_text(&big);
        let t = std::time::Instant::now();
        let n = extractor.extract_text(&big).len();
        let secs = t.elapsed().as_secs_f64();
        println!(
            "throughput: {} bytes in one document, {n} items, {secs:.3}s = {:.2} MB/s (this build)",
            big.len(),
            big.len() as f64 / secs / 1e6
        );
        let Ok(mentions) = std::fs::read_to_string(root.join("mentions.jsonl")) else {
            println!("mentions.jsonl not found; skipping recall");
            return;
        };
        let mut per_type: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
        let (mut total, mut exact, mut overlap, mut any_type) = (0, 0, 0, 0);
        let mut missed = Vec::new();
        let mut gold_spans: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
        for line in mentions.lines().filter(|l| !l.trim().is_empty()) {
            let Ok(m) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let doc = m["doc"].as_str().unwrap_or_default();
            let ty = m["type"].as_str().unwrap_or_default();
            let (s, e) = (
                m["start"].as_u64().unwrap_or(0) as usize,
                m["end"].as_u64().unwrap_or(0) as usize,
            );
            let items = by_doc.get(doc).map(Vec::as_slice).unwrap_or(&[]);
            let same: Vec<Span> = items
                .iter()
                .filter(|i| i.entity_type == ty)
                .flat_map(|i| i.spans.clone())
                .collect();
            let is_exact = same.iter().any(|sp| sp.start == s && sp.end == e);
            let is_overlap = same.iter().any(|sp| sp.start < e && s < sp.end);
            any_type += usize::from(
                items
                    .iter()
                    .flat_map(|i| i.spans.iter())
                    .any(|sp| sp.start < e && s < sp.end),
            );
            total += 1;
            exact += usize::from(is_exact);
            overlap += usize::from(is_overlap);
            let t = per_type.entry(ty.to_string()).or_default();
            t.0 += 1;
            t.1 += usize::from(is_exact);
            t.2 += usize::from(is_overlap);
            if !is_exact {
                let how = if is_overlap { "partial" } else { "missed" };
                missed.push(format!(
                    "{how}: {doc} {ty} {:?}",
                    m["text"].as_str().unwrap_or("")
                ));
            }
            gold_spans.entry(doc.to_string()).or_default().push((s, e));
        }
        let emitted: usize = by_doc.values().flatten().map(|i| i.spans.len()).sum();
        println!(
            "devset: {} docs, {bytes} bytes in {elapsed:?}; {emitted} spans emitted",
            docs.len()
        );
        println!(
            "mention recall: exact {exact}/{total} = {:.3}, overlap {overlap}/{total} = {:.3}",
            exact as f64 / total.max(1) as f64,
            overlap as f64 / total.max(1) as f64
        );
        println!(
            "span recall ignoring type: overlap {any_type}/{total} = {:.3}",
            any_type as f64 / total.max(1) as f64
        );
        for (ty, (n, e, o)) in &per_type {
            println!("  {ty:<20} {n:>3}  exact {e:>3}  overlap {o:>3}");
        }
        for m in &missed {
            println!("  {m}");
        }
        let mut unmatched = Vec::new();
        for (id, items) in &by_doc {
            let gold = gold_spans.get(id).map(Vec::as_slice).unwrap_or(&[]);
            for i in items {
                for sp in &i.spans {
                    if !gold.iter().any(|&(s, e)| sp.start < e && s < sp.end) {
                        unmatched.push(format!("{id} {} {:?}", i.entity_type, i.original));
                    }
                }
            }
        }
        unmatched.sort();
        println!(
            "emitted spans overlapping no gold mention: {}",
            unmatched.len()
        );
        for u in &unmatched {
            println!("  extra: {u}");
        }
    }
}
