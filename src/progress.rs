//! How far a long loop got (loading a corpus, extracting its documents, a sweep's
//! values), for a front end to show. The library only reports, through [`Progress`];
//! it never draws. The `clam` binary draws the reports as bars with a rate and an ETA
//! on a terminal (`src/commands/progress.rs`); the LLM extractor reports through its
//! own event channel ([`crate::extract::llm::LlmEvent`]) in the same way.

/// What the steps of a stage are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Documents (or files) of the corpus.
    Documents,
    /// Bytes of input (a JSONL file is counted in bytes: its lines are not known
    /// before it is read).
    Bytes,
    /// Values of a sweep.
    Values,
    /// Requests of the LLM extractor (two passes per document).
    Passes,
}

/// Where a long loop reports: a stage and its number of steps, then the steps as they
/// are done. Reports come from every core (documents are extracted in parallel), so an
/// implementation is shared and must be cheap.
pub trait Progress: Sync {
    /// A stage begins: `total` steps of `unit` (0 when the total is not known).
    fn stage(&self, name: &'static str, total: u64, unit: Unit);
    /// `n` more steps of the current stage are done.
    fn advance(&self, n: u64);
}

/// Reports nowhere: for callers that show no progress.
#[derive(Debug, Clone, Copy, Default)]
pub struct Silent;

impl Progress for Silent {
    fn stage(&self, _: &'static str, _: u64, _: Unit) {}
    fn advance(&self, _: u64) {}
}
