//! Hand-written word lists of the name recognizer: organisation and heading words,
//! name particles, and the cue words before and after a name.

/// Words that make a capitalised run an organisation, a street, a product line or a
/// heading (beyond the extractor's own stop list, which every name also passes).
pub(super) const NOT_PERSON: &[&str] = &[
    "genomics",
    "biosciences",
    "bioscience",
    "biotech",
    "therapeutics",
    "pharmaceuticals",
    "pharma",
    "labs",
    "laboratories",
    "laboratory",
    "diagnostics",
    "systems",
    "solutions",
    "technologies",
    "partners",
    "holdings",
    "capital",
    "ventures",
    "gmbh",
    "ag",
    "kg",
    "sa",
    "sarl",
    "srl",
    "spa",
    "bv",
    "nv",
    "plc",
    "corp",
    "co",
    "lp",
    "llp",
    "pc",
    "pllc",
    "oy",
    "ab",
    "as",
    "asa",
    "sro",
    "kft",
    "zrt",
    "sp",
    "pty",
    "pvt",
    "tbk",
    "ltda",
    "sas",
    "cie",
    "sons",
    "brothers",
    "bros",
    "trust",
    "fund",
    "credit",
    "union",
    "surgical",
    "orthopedics",
    "orthopaedics",
    "dental",
    "dentistry",
    "pediatrics",
    "cardiology",
    "oncology",
    "radiology",
    "rehab",
    "rehabilitation",
    "wellness",
    "fitness",
    "imaging",
    "blvd",
    "ave",
    "rd",
    "hwy",
    "pkwy",
    "ln",
    "dr",
    "ct",
    "pl",
    "sq",
    "ter",
    "cir",
    "way",
    "plaza",
    "heights",
    "park",
    "county",
    "city",
    "township",
    "district",
    "province",
    "valley",
    "hills",
    "springs",
    "falls",
    "beach",
    "harbor",
    "harbour",
    "bay",
    "island",
    "islands",
    "isles",
    "creek",
    "river",
    "trial",
    "study",
    "award",
    "prize",
    "fellowship",
    "scholarship",
    "day",
    "week",
    "month",
    "year",
    "weekend",
    "newsletter",
    "bulletin",
    "update",
    "notice",
    "digest",
    "edition",
];

/// Lower-case words allowed inside a name ("Ludwig van Beethoven", "Maria de la Cruz").
pub(super) const PARTICLES: &[&str] = &[
    "van", "von", "de", "del", "della", "der", "den", "di", "da", "du", "dos", "das", "la", "le",
    "ter", "ten", "bin", "binti", "al", "el",  // "van het Heerenveen"
    "het", // "van 't Hoff" (`joined` takes the apostrophe before it).
    "t",
];

/// A word just before a name that introduces a person (with [`PERSON_ONLY_BEFORE`]:
/// [`is_cue_word`]).
pub(super) const BEFORE: &[&str] = &[
    "for",
    "to",
    "by",
    "and",
    "or",
    "signed",
    "contact",
    "call",
    "attention",
    "between",
    "including",
    "per",
    "when",
    "after",
    "yesterday",
    "about",
    "regarding",
    "re",
    "insured",
    // Verbs whose object is a person: "ring Lungile Maluleka back", "discharged
    // Océane Roy today", "executor Frederik Vaško".
    "phone",
    "text",
    "ping",
    "ask",
    "tell",
    "visited",
    "admitted",
    "decedent",
    "family",
    // Role nouns and labels written without a colon: "Interpreter Yashem Kasim
    // present", "Employee Name NELAH ABDI Employee ID …", "call fr Li Tao".
    "member",
    "payee",
    "heir",
    "name",
    "fr",
    "visitor",
    "resident",
    "student",
    "against",
    "send",
    "sent",
    "paid",
    // "the said …".
    "said",
    // "addressed to …", "served …", and a case's second party: "Hugo Jacobs v Masinde".
    "addressed",
    "served",
    // "the late GIGER, Emin".
    "late",
    "v",
    "vs",
];

/// Prepositions and conjunctions that are no name (not "An", "To", "Per": names too),
/// written with a capital only to open a sentence ("In Dagmar Jandová v. …").
pub(super) const SENTENCE_OPENERS: &[&str] = &[
    "in", "on", "at", "for", "by", "with", "from", "of", "and", "but", "or", "if", "as", "after",
    "before", "during", "since", "when", "while", "via", "under", "over", "into", "upon",
];

/// A party's role in a case or a sworn paper, written after its name and a comma in a
/// caption or a signature block ("BALCA AKSU,⏎    Plaintiff,", "HOLM, Per, Affiant"),
/// and before it ("COMES NOW the Plaintiff, ERASLAN, Sunel"). A firm can be a party
/// too: the organisation tests still apply.
pub(super) const PARTY_ROLES: &[&str] = &[
    "plaintiff",
    "plaintiffs",
    "defendant",
    "defendants",
    "petitioner",
    "petitioners",
    "respondent",
    "respondents",
    "appellant",
    "appellants",
    "appellee",
    "appellees",
    "affiant",
    "deponent",
    "declarant",
    "claimant",
    "claimants",
    "complainant",
    "complainants",
    "applicant",
    "applicants",
    "decedent",
    "deceased",
    "testator",
    "testatrix",
    "intervenor",
    "garnishee",
    "debtor",
    "debtors",
];

/// Cue words before a name (besides [`BEFORE`]) that only a person follows: a street, a
/// place or a firm does not ("reviewed with Thomas Wall", "met Anna Lake"; "moved to Barbara Key", "for
/// Garden Court" are places).
pub(super) const PERSON_ONLY_BEFORE: &[&str] = &[
    "with",
    "cc",
    "dear",
    "hi",
    "hello",
    "thanks",
    "thx",
    "congratulations",
    "welcome",
    "contacted",
    "called",
    "attn",
    "met",
    "asked",
    "told",
    "informed",
    "notified",
    "spouse",
    "wife",
    "husband",
    "son",
    "daughter",
    "mother",
    "father",
    "brother",
    "sister",
    "colleague",
    "partner",
    "friend",
    "neighbour",
    "neighbor",
    "carer",
    "guardian",
    "ring",
    "rang",
    "phoned",
    "emailed",
    "texted",
    "pinged",
    "remind",
    "reminded",
    "thank",
    "thanked",
    "discharged",
    "interviewed",
    "reimbursed",
    "invited",
    "interpreter",
    "claimant",
    "patient",
    "executor",
    "executrix",
    "trustee",
    "employee",
    "applicant",
    "tenant",
    "caller",
    "customer",
    "client",
    // "Pt Apollo Reyes seen in ED": the clinical abbreviation of "patient".
    "pt",
    // "line manager Iuliu Eftimie", "next of kin Prima Pongpanitch".
    "manager",
    "supervisor",
    "kin",
    // The people of a claim or a case: "Opposing counsel, Levi de Vries, may be
    // reached", "adjuster Tomás Ruiz".
    "counsel",
    "solicitor",
    "attorney",
    "barrister",
    "advocate",
    "adjuster",
    "adjustor",
    "investigator",
    "assessor",
    "paralegal",
    "notary",
    // "for the named beneficiary, Redmond Ó Críonáin", "referred Bilgin, Öktürk to".
    "beneficiary",
    "policyholder",
    "referred",
];

/// Cue words after a name (besides [`AFTER`]): verbs whose subject is a person, not a
/// street or a place ("Thomas Wall said"; "Main Street was closed").
pub(super) const PERSON_ONLY_AFTER: &[&str] = &[
    "said",
    "says",
    "phoned",
    "rang",
    "emailed",
    "texted",
    "replied",
    "complained",
    "alleged",
    "admitted",
    "denied",
    "refused",
    "stated",
    "signed",
    "requested",
    // "IN THE MATTER OF UCHENNA OBI, Deceased": an estate's notice.
    "deceased",
    "agreed",
    "asked",
    "wrote",
    "noted",
    "explained",
    "declined",
    "underwent",
];

/// Honorifics of other languages, folded, that `HONORIFICS` of `entity::normalize`
/// (dropped from a name's value) does not hold: also a given name or a word ("Sig",
/// "Pani", "HR"), or folded from one it holds ("doña", "dña"). The name-cue
/// recognizer's pattern lists them all.
pub(super) const OTHER_HONORIFICS: &[&str] = &["hr", "dna", "dona", "pani", "sig"];

/// A noun that, with "of" after it, introduces a person: "Deposition of Ming Sun",
/// "on behalf of …", "the estate of …", "care of …".
pub(super) const BEFORE_OF: &[&str] = &[
    "behalf",
    // "In re the Marriage of …", "In the Matter of …".
    "marriage",
    "matter",
    "attention",
    "deposition",
    "statement",
    "affidavit",
    "testimony",
    "declaration",
    "estate",
    "care",
    "custody",
    "guardianship",
    "examination",
    "interview",
    "account",
    "evidence",
    "signature",
    "death",
    "will",
    "widow",
    "widower",
    "son",
    "daughter",
    "wife",
    "husband",
    "employment",
    "dismissal",
    "resignation",
    "termination",
];

/// A word before a capitalised run that makes it a place ("lives in", "near").
pub(super) const PLACE_BEFORE: &[&str] = &[
    "in",
    "at",
    "near",
    "outside",
    "around",
    "across",
    "throughout",
    "via",
    "from",
    "into",
];

/// A word just after a name that says a person acted.
pub(super) const AFTER: &[&str] = &[
    // A case caption: "Polauaypon, Patchaploy v. Northgate Logistics".
    "v",
    "vs",
    "arrived",
    "called",
    "reported",
    "submitted",
    "confirmed",
    "attended",
    "visited",
    "joined",
    "received",
    "was",
    "is",
    "has",
    "had",
    "who",
    "will",
    "would",
    "and",
    "dob",
    "born",
    "aged",
    "age",
    // A suffix: "Nuhu John Jr. starts Monday", "… Esq."
    "jr",
    "jnr",
    "snr",
    "esq",
];

/// Name particles written with a capital inside a name ("Ó Ciarúcáin", "Mac Dhuibh",
/// "VAN DER HEIJDEN", "De Bruyne"): besides [`PARTICLES`], the Irish ones.
/// Generational suffixes after a name ("DAHL, Anne Jr."): no middle name, no region.
pub(super) const SUFFIXES: &[&str] = &["jr", "jnr", "sr", "snr", "ii", "iii"];

pub(super) const CAP_PARTICLES: &[&str] = &["o", "mac", "mc", "ni", "nic", "ui", "ua"];

/// A folded word of either particle list: a lower-case one ("van", "de") or one written
/// with a capital ("Ó", "Mac").
pub(super) fn is_particle(folded: &str) -> bool {
    super::tokens::in_list(PARTICLES, folded) || super::tokens::in_list(CAP_PARTICLES, folded)
}

/// Words that name a product's variant or strength after a brand ("Zelvatrin
/// Forte", "Norvexa Max"): after a word that is no given name, a product.
pub(super) const PRODUCT_WORDS: &[&str] = &[
    "forte", "max", "plus", "duo", "retard", "mite", "rapid", "extra", "ultra", "lite", "mini",
    "junior", "neo", "advance", "xr", "sr", "er", "xl", "cr", "odt", "ds", "hct", "comp",
];

/// Partners' words after "&", "and", "y", "e", "et", "und" … that make a firm of
/// surnames ("Toussaint et Fils", "Teixeira e Filhos", "Merz & Partner").
pub(super) const FIRM_PARTNERS: &[&str] = &[
    "sons",
    "son",
    "fils",
    "filhos",
    "hijos",
    "figli",
    "sohne",
    "sohn",
    "zonen",
    "brothers",
    "bros",
    "freres",
    "hermanos",
    "irmaos",
    "fratelli",
    "partner",
    "partners",
    "associates",
    "asociados",
    "associados",
    "associes",
    "associati",
    "company",
    "co",
    "cia",
    "compania",
    "companhia",
    "compagnie",
    "cie",
];

/// Conjunctions that join the partners of a firm's name.
pub(super) const CONJUNCTIONS: &[&str] = &["and", "y", "e", "et", "und", "en", "og", "och", "i"];

/// Compass words that open a place's name ("West Lynn", "Nord Odal").
pub(super) const COMPASS: &[&str] = &[
    "north",
    "south",
    "east",
    "west",
    "northeast",
    "northwest",
    "southeast",
    "southwest",
    "nord",
    "sud",
    "ost",
    "ouest",
    "norte",
    "sur",
    "oeste",
    "leste",
];

/// Work handed on from a person: "Reassigned LB41486384 from NAME to NAME".
pub(super) const HANDED_ON: &[&str] = &["reassigned", "reallocated", "escalated", "handed"];

/// Words before "from" that make what follows a sender, not a place ("Voicemail
/// from Mario Maršić", "Transferred from …").
pub(super) const FROM_SENDER: &[&str] = &[
    "feedback",
    "voicemail",
    "email",
    "e-mail",
    "mail",
    "message",
    "messages",
    "letter",
    "note",
    "notes",
    "call",
    "calls",
    "referral",
    "transferred",
    "transfer",
    "reply",
    "response",
    "complaint",
    "request",
    "text",
    "fax",
    "memo",
    "quote",
    "comments",
    "word",
    "approval",
    // "Recorded statement taken from Kaamil Sadan".
    "statement",
    "statements",
];

/// A cue word before a name: of [`BEFORE`], [`PERSON_ONLY_BEFORE`] or [`PARTY_ROLES`].
pub(super) fn is_cue_word(folded: &str) -> bool {
    super::tokens::in_list(BEFORE, folded)
        || super::tokens::in_list(PERSON_ONLY_BEFORE, folded)
        || super::tokens::in_list(PARTY_ROLES, folded)
}

/// A cue word after a name: of [`AFTER`] or [`PERSON_ONLY_AFTER`].
pub(super) fn is_after_cue(folded: &str) -> bool {
    super::tokens::in_list(AFTER, folded) || super::tokens::in_list(PERSON_ONLY_AFTER, folded)
}
