//! Extraction: the `Extractor` trait every extractor implements (offline recognizers
//! now, an LLM extractor later) and the items they return (thesis Listing 4.1).
//! Extractors only find; canonicalization, span location and the unlocated guard
//! happen in [`crate::entity`], so every extractor plugs in without touching analysis.

mod coined;
pub mod linker;
pub mod llm;
pub mod offline;
mod person;
pub mod propagate;

use serde::{Deserialize, Serialize};

use crate::corpus::Document;

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

/// Errors an extractor may report for one document.
#[derive(Debug, thiserror::Error)]
pub enum ExtractError {
    #[error("extractor failed on document {doc}: {message}")]
    Failed { doc: String, message: String },
}

/// Something that finds entities in one document.
pub trait Extractor: Send + Sync {
    /// Short name shown to the user and recorded in the manifest ("offline", "llm").
    fn name(&self) -> &str;
    /// Items of one document. Must be deterministic for the same document.
    fn extract(&self, doc: &Document) -> Result<Vec<ExtractedItem>, ExtractError>;
}
