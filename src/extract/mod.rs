//! Extraction: the `Extractor` trait every extractor implements (offline recognizers,
//! an LLM extractor). The items they return (thesis Listing 4.1) are
//! [`crate::entity::ExtractedItem`]s, defined with the entity model below this layer.
//! Extractors only find; canonicalization, span location and the unlocated guard
//! happen in [`crate::entity`], so every extractor plugs in without touching analysis.

pub mod linker;
pub mod llm;
pub mod offline;
pub mod propagate;

use crate::corpus::Document;
use crate::entity::ExtractedItem;

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
