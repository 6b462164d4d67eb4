//! The entity schema: types with a risk weight `w_type ∈ [0,1]`, a category and a
//! generalization phrase (SPEC §2, thesis Table 4.1).

use serde::{Deserialize, Serialize};

/// Category of an entity type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    /// Names, ids, addresses, phones, e-mails: identify a person on their own.
    DirectIdentifier,
    /// Special-category (health) data.
    Health,
    /// Quasi-identifiers and context that identify in combination.
    QuasiIdentifier,
}

impl Category {
    pub fn label(self) -> &'static str {
        match self {
            Category::DirectIdentifier => "direct identifier",
            Category::Health => "special category / health",
            Category::QuasiIdentifier => "quasi-identifier / context",
        }
    }
}

/// What the `generalize` redaction mode writes for a type's values (`generalize` in
/// `[schema.TYPE]`): the type's phrase, or a coarser form of the value itself. A value
/// that has no such form (a date that does not parse, a place without a known region)
/// gets the phrase.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Generalization {
    /// The phrase ("a date").
    #[default]
    Phrase,
    /// A date's year ("1968"; "on 14 March 1968" → "in 1968").
    Year,
    /// A date's month and year ("March 1968").
    Month,
    /// An age's band ("45" → "in their forties", "45-year-old" → "fortysomething").
    Band,
    /// A place's region: the US state or the country written after its last comma
    /// ("Springfield, IL" → "Illinois").
    Region,
}

impl Generalization {
    pub fn is_phrase(&self) -> bool {
        *self == Generalization::Phrase
    }
}

/// One entity type of the schema.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EntityType {
    pub name: String,
    pub weight: f64,
    pub category: Category,
    /// Phrase used by the `generalize` redaction mode ("a person").
    pub phrase: String,
    /// What the `generalize` mode writes: the phrase (default) or a coarser value.
    #[serde(default, skip_serializing_if = "Generalization::is_phrase")]
    pub generalize: Generalization,
}

/// The schema: an ordered table of entity types.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Schema {
    pub types: Vec<EntityType>,
}

/// How a type's values are canonicalized (SPEC §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueKind {
    Name,
    Age,
    Date,
    Phone,
    Id,
    Text,
}

/// The default insurance-domain schema (thesis Table 4.1).
pub const DEFAULT_TYPES: &[(&str, f64, Category, &str)] = &[
    ("NAME", 1.00, Category::DirectIdentifier, "a person"),
    (
        "PATIENT_ID",
        0.95,
        Category::DirectIdentifier,
        "an identifier",
    ),
    ("ADDRESS", 0.90, Category::DirectIdentifier, "an address"),
    (
        "PHONE_NUMBER",
        0.85,
        Category::DirectIdentifier,
        "a phone number",
    ),
    (
        "EMAIL",
        0.80,
        Category::DirectIdentifier,
        "an e-mail address",
    ),
    (
        "MEDICAL_CONDITION",
        0.85,
        Category::Health,
        "a medical condition",
    ),
    ("TREATMENT", 0.72, Category::Health, "a treatment"),
    (
        "NON_PERSONAL_ID",
        0.80,
        Category::QuasiIdentifier,
        "a reference number",
    ),
    (
        "UNIQUE_FACT",
        0.78,
        Category::QuasiIdentifier,
        "a distinctive fact",
    ),
    (
        "BIRTHDATE",
        0.75,
        Category::QuasiIdentifier,
        "a date of birth",
    ),
    (
        "INDIRECT_IDENTIFIER",
        0.70,
        Category::QuasiIdentifier,
        "a personal detail",
    ),
    ("PROVIDER", 0.65, Category::QuasiIdentifier, "a provider"),
    ("EVENT_DATE", 0.60, Category::QuasiIdentifier, "a date"),
    ("AGE", 0.55, Category::QuasiIdentifier, "an age"),
    ("LOCATION", 0.55, Category::QuasiIdentifier, "a place"),
    ("EVENT", 0.50, Category::QuasiIdentifier, "an event"),
    (
        "DEMOGRAPHIC",
        0.35,
        Category::QuasiIdentifier,
        "a demographic detail",
    ),
];

/// Types the product masks up front by default (SPEC §4).
pub const DIRECT_IDENTIFIERS: &[&str] = &["NAME", "PATIENT_ID", "ADDRESS", "PHONE_NUMBER", "EMAIL"];

impl Default for Schema {
    fn default() -> Self {
        Schema {
            types: DEFAULT_TYPES
                .iter()
                .map(|&(name, weight, category, phrase)| EntityType {
                    name: name.to_string(),
                    weight,
                    category,
                    phrase: phrase.to_string(),
                    generalize: Generalization::Phrase,
                })
                .collect(),
        }
    }
}

impl Schema {
    pub fn get(&self, name: &str) -> Option<&EntityType> {
        self.types.iter().find(|t| t.name == name)
    }

    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// `w_type`; 0 for a type the schema does not know (such entities carry no risk).
    pub fn weight(&self, name: &str) -> f64 {
        self.get(name).map_or(0.0, |t| t.weight)
    }

    pub fn phrase(&self, name: &str) -> String {
        self.get(name)
            .map_or_else(|| "something".to_string(), |t| t.phrase.clone())
    }

    /// What the `generalize` mode writes for the type (the phrase when unknown).
    pub fn generalization(&self, name: &str) -> Generalization {
        self.get(name)
            .map_or(Generalization::Phrase, |t| t.generalize)
    }

    pub fn is_direct_identifier(&self, name: &str) -> bool {
        self.get(name)
            .is_some_and(|t| t.category == Category::DirectIdentifier)
    }

    pub fn names(&self) -> Vec<&str> {
        self.types.iter().map(|t| t.name.as_str()).collect()
    }
}

/// How values of `type_name` are canonicalized. Types outside the default schema are
/// treated as free text unless their name says otherwise.
pub fn value_kind(type_name: &str) -> ValueKind {
    match type_name {
        "NAME" => ValueKind::Name,
        "AGE" => ValueKind::Age,
        "BIRTHDATE" | "EVENT_DATE" => ValueKind::Date,
        "PHONE_NUMBER" => ValueKind::Phone,
        "PATIENT_ID" | "NON_PERSONAL_ID" => ValueKind::Id,
        other if other.ends_with("_DATE") || other == "DATE" => ValueKind::Date,
        other if other.ends_with("_ID") => ValueKind::Id,
        _ => ValueKind::Text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_schema_has_seventeen_types_with_thesis_weights() {
        let s = Schema::default();
        assert_eq!(s.types.len(), 17);
        assert_eq!(s.weight("NAME"), 1.0);
        assert_eq!(s.weight("DEMOGRAPHIC"), 0.35);
        assert_eq!(s.weight("NOT_A_TYPE"), 0.0);
        assert!(s.is_direct_identifier("EMAIL"));
        assert!(!s.is_direct_identifier("AGE"));
    }

    #[test]
    fn value_kinds() {
        assert_eq!(value_kind("BIRTHDATE"), ValueKind::Date);
        assert_eq!(value_kind("NON_PERSONAL_ID"), ValueKind::Id);
        assert_eq!(value_kind("LOCATION"), ValueKind::Text);
    }
}
