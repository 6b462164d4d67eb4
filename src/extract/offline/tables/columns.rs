//! What a table's column or a field's key holds, by its header or key: a person's
//! name, a phone, an e-mail, an address, a person's id, a birth date (English header
//! words and those of other languages, read without accents).

/// What a column holds, by its header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Column {
    Name,
    /// `Member`, `Patient`, `Employee`: a name, or the person's id when the cell has a digit.
    Person,
    Phone,
    Email,
    Address,
    PersonId,
    /// `ID`, `No.`, `Ref`: the person's id in a table that has a name column.
    GenericId,
    Birth,
}

/// Words that make a `… name` header something other than a person's name.
const NOT_PERSON: &[&str] = &[
    "company",
    "plan",
    "provider",
    "product",
    "drug",
    "file",
    "user",
    "facility",
    "hospital",
    "clinic",
    "employer",
    "org",
    "organisation",
    "organization",
    "brand",
    "account",
    "bank",
    "event",
    "project",
    "group",
    "street",
    "city",
    "place",
    "insurer",
    "carrier",
    "medication",
    "test",
    "procedure",
    "department",
    "dept",
    "team",
    "business",
    "trading",
    "vendor",
    "supplier",
    "site",
    "branch",
    "practice",
    "pharmacy",
    "policy",
    "course",
    "domain",
    "host",
    "field",
    "column",
    "table",
    "device",
    "payer",
    // A case's, a claim's, an order's number is no person's ("Case No.: FR-88213"
    // beside "Customer: …").
    "case",
    "claim",
    "invoice",
    "ticket",
    "order",
    "loan",
    "incident",
    "transaction",
    "booking",
];

pub(super) fn column_of(header: &str) -> Option<Column> {
    // Folded, so "Téléphone" and "Prénom" read as "telephone" and "prenom".
    let h: String = super::super::person::fold_word(header)
        .chars()
        .map(|c| match c {
            '_' | '-' | '.' | '/' | '#' | ':' | '(' | ')' => ' ',
            c => c.to_ascii_lowercase(),
        })
        .collect();
    let words: Vec<&str> = h.split_whitespace().collect();
    let has = |w: &str| words.contains(&w);
    let any = |ws: &[&str]| ws.iter().any(|w| has(w));
    if words.is_empty() || words.len() > 4 || any(NOT_PERSON) {
        return None;
    }
    // Header words of other languages (French, Spanish, Italian, Portuguese, German,
    // Dutch, Polish, the Nordic languages), beside the English ones below.
    if any(&[
        "naissance",
        "nacimiento",
        "nascita",
        "nascimento",
        "geburtsdatum",
        "geboortedatum",
        "urodzenia",
        "fodselsdato",
        "fodelsedatum",
        "syntymaaika",
    ]) {
        return Some(Column::Birth);
    }
    if any(&["courriel", "correo"]) {
        return Some(Column::Email);
    }
    if any(&[
        "telefon",
        "telefono",
        "telefone",
        "tel",
        "movil",
        "portable",
        "handy",
        "cellulare",
        "celular",
        "puhelin",
    ]) {
        return Some(Column::Phone);
    }
    if any(&[
        "adresse",
        "direccion",
        "domicilio",
        "indirizzo",
        "endereco",
        "adres",
        "anschrift",
        "osoite",
    ]) {
        return Some(Column::Address);
    }
    if any(&[
        "nom",
        "prenom",
        "nombre",
        "apellido",
        "apellidos",
        "nome",
        "cognome",
        "sobrenome",
        "vorname",
        "nachname",
        "familienname",
        "naam",
        "voornaam",
        "achternaam",
        "imie",
        "nazwisko",
        "fornavn",
        "etternavn",
        "efternamn",
        "fornamn",
        "etunimi",
        "sukunimi",
    ]) && !any(&["id", "no", "nr", "numero", "number"])
    {
        return Some(Column::Name);
    }
    if any(&["dob", "birth", "birthdate", "born"]) || h.contains("d o b") {
        return Some(Column::Birth);
    }
    if any(&["email", "mail"]) || h.contains("e mail") {
        return Some(Column::Email);
    }
    if any(&["ip", "web", "url", "mac"]) {
        return None;
    }
    if any(&[
        "phone",
        "telephone",
        "tel",
        "mobile",
        "cell",
        "fax",
        "landline",
    ]) {
        return Some(Column::Phone);
    }
    if any(&["address", "addr", "street", "residence"]) {
        return Some(Column::Address);
    }
    let person = any(&[
        "member",
        "patient",
        "employee",
        "emp",
        "staff",
        "claimant",
        "insured",
        "policyholder",
        "subscriber",
        "beneficiary",
        "applicant",
        "tenant",
        "student",
        "client",
        "customer",
        "dependant",
        "dependent",
        "spouse",
        "contact",
        "witness",
        "worker",
        "person",
        "resident",
        "owner",
        "holder",
    ]);
    let id = any(&[
        "id",
        "mrn",
        "ssn",
        "nhs",
        "nino",
        "badge",
        "payroll",
        "no",
        "nr",
        "number",
        "num",
        "ref",
        "reference",
        "identifier",
    ]);
    if any(&[
        "name",
        "surname",
        "forename",
        "forenames",
        "firstname",
        "lastname",
        "fullname",
        "given",
    ]) {
        return (!id).then_some(Column::Name);
    }
    match (person, id) {
        (true, true) => Some(Column::PersonId),
        (true, false) => Some(Column::Person),
        (false, true) if any(&["mrn", "ssn", "nhs", "nino", "badge", "payroll"]) => {
            Some(Column::PersonId)
        }
        (false, true) if words.len() <= 2 => Some(Column::GenericId),
        _ => None,
    }
}
