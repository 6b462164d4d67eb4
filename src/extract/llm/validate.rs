//! Response validation. The model's text must hold `{"entities": [[original_value,
//! normalized_value, entity_type, relevance], ...]}` (thesis Listing 4.1), as bare
//! JSON, in a fenced block, or between the first `{` and the last `}`. Entries of the
//! wrong shape, with an unknown type or a relevance outside [0, 1] are dropped and
//! counted; values not found in the document are dropped and counted later by the
//! entity store (the unlocated guard of SPEC §2).

use serde::Serialize;
use serde_json::Value;

use crate::entity::ExtractedItem;
use crate::schema::Schema;

/// Entries dropped from one response, by reason.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Dropped {
    /// Not a list of four: text, text, text, number (or an empty value).
    pub shape: usize,
    /// A type the schema does not have.
    pub unknown_type: usize,
    /// Relevance outside [0, 1].
    pub relevance: usize,
}

impl Dropped {
    pub fn total(&self) -> usize {
        self.shape + self.unknown_type + self.relevance
    }

    pub fn add(&mut self, other: &Dropped) {
        self.shape += other.shape;
        self.unknown_type += other.unknown_type;
        self.relevance += other.relevance;
    }
}

/// Reads the JSON object out of the model's text; `None` when there is none.
pub fn json_of(text: &str) -> Option<Value> {
    let text = text.trim();
    if let Ok(v) = serde_json::from_str::<Value>(text) {
        return Some(v);
    }
    // A fenced block: ```json … ``` or ``` … ```.
    if let Some(start) = text.find("```") {
        let body = &text[start + 3..];
        let body = body.strip_prefix("json").unwrap_or(body);
        if let Some(end) = body.find("```")
            && let Ok(v) = serde_json::from_str::<Value>(body[..end].trim())
        {
            return Some(v);
        }
    }
    let (start, end) = (text.find('{')?, text.rfind('}')?);
    if start < end {
        serde_json::from_str::<Value>(&text[start..=end]).ok()
    } else {
        None
    }
}

/// The `entities` list of a response; `None` when the response has none (a fault).
pub fn entities_of(text: &str) -> Option<Vec<Value>> {
    match json_of(text)? {
        Value::Object(mut o) => match o.remove("entities")? {
            Value::Array(a) => Some(a),
            _ => None,
        },
        _ => None,
    }
}

/// Validates the entries of one response against the schema.
pub fn validate(entries: &[Value], schema: &Schema) -> (Vec<ExtractedItem>, Dropped) {
    let mut items = Vec::new();
    let mut dropped = Dropped::default();
    for entry in entries {
        let Some([original, normalized, ty, relevance]) = entry.as_array().map(Vec::as_slice)
        else {
            dropped.shape += 1;
            continue;
        };
        let (Some(original), Some(normalized), Some(ty), Some(relevance)) = (
            original.as_str(),
            normalized.as_str(),
            ty.as_str(),
            relevance.as_f64(),
        ) else {
            dropped.shape += 1;
            continue;
        };
        if original.trim().is_empty() {
            dropped.shape += 1;
            continue;
        }
        let ty = ty.trim().to_uppercase().replace([' ', '-'], "_");
        if !schema.contains(&ty) {
            dropped.unknown_type += 1;
            continue;
        }
        if !(relevance.is_finite() && (0.0..=1.0).contains(&relevance)) {
            dropped.relevance += 1;
            continue;
        }
        items.push(ExtractedItem {
            original: original.trim().to_string(),
            normalized: normalized.to_string(),
            entity_type: ty,
            relevance,
            spans: Vec::new(),
        });
    }
    (items, dropped)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn json_is_found_bare_fenced_or_embedded() {
        assert!(entities_of("{\"entities\": []}").is_some());
        assert!(
            entities_of("Sure!\n```json\n{\"entities\": [[\"a\",\"a\",\"AGE\",1]]}\n```").is_some()
        );
        assert!(entities_of("Here: {\"entities\": []} done").is_some());
        assert!(entities_of("no json here").is_none());
        assert!(entities_of("{\"items\": []}").is_none());
        assert!(entities_of("[1, 2]").is_none());
    }

    #[test]
    fn bad_entries_are_dropped_and_counted() {
        let entries = vec![
            json!(["Dana Whitfield", "dana whitfield", "NAME", 1.0]),
            json!(["lupus", "lupus", "medical condition", 0.8]),
            json!(["x", "x", "SHOE_SIZE", 0.5]),
            json!(["y", "y", "AGE", 1.5]),
            json!(["z", "z", "AGE"]),
            json!(["z", "z", "AGE", "high"]),
            json!({"original_value": "q"}),
            json!(["  ", "", "AGE", 0.5]),
        ];
        let (items, dropped) = validate(&entries, &Schema::default());
        assert_eq!(items.len(), 2);
        assert_eq!(items[1].entity_type, "MEDICAL_CONDITION");
        assert_eq!(
            dropped,
            Dropped {
                shape: 4,
                unknown_type: 1,
                relevance: 1
            }
        );
    }
}
