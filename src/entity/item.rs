//! What an extractor hands to the entity model: an item (value, normalized value, type,
//! relevance; thesis Listing 4.1) and its spans. These live below extraction so that
//! every layer, the entity model first, names them without importing an extractor.

use serde::{Deserialize, Serialize};

/// A character span in Unicode code points, end exclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

/// One extracted item: `(original_value, normalized_value, entity_type, relevance)`
/// plus spans when the extractor knows them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExtractedItem {
    /// The value as it occurs in the document.
    pub original: String,
    /// The extractor's normalized value; clam canonicalizes it again per type.
    pub normalized: String,
    pub entity_type: String,
    pub relevance: f64,
    /// Spans of this item in the document, if known (code points, end exclusive).
    pub spans: Vec<Span>,
}
