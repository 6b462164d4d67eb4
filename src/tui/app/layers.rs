//! The layers drawn over the panes (help, popups, prompts, confirmations) and what a prompt is for.

use super::*;

/// A popup; the topmost gets the keys.
#[derive(Debug)]
pub enum Layer {
    /// The help, scrolled down `scroll` lines.
    Help {
        scroll: usize,
    },
    /// The skipped input files and the warnings (any key closes it).
    Problems,
    /// A decision that needs a reason (recorded in the audit log).
    Reason {
        purpose: ReasonFor,
        input: TextArea<'static>,
        error: Option<String>,
    },
    /// Filter text for a list pane.
    Search {
        pane: Pane,
        input: TextArea<'static>,
    },
    /// A decision that asks first (`y` only: they are destructive).
    Confirm(Confirm),
    Export(Box<ExportDialog>),
    /// Text to mark as a new entity in document `doc` (corpus index).
    AddText {
        doc: usize,
        input: TextArea<'static>,
        error: Option<String>,
    },
    /// Choose an entity type for `purpose`.
    TypePicker {
        purpose: TypePurpose,
        types: Vec<String>,
        selected: usize,
    },
    /// The note of the gold chain of `documents` (ids, corpus order).
    GoldNote {
        documents: Vec<String>,
        input: TextArea<'static>,
    },
    /// The path of a gold file to import.
    GoldImport {
        input: TextArea<'static>,
        error: Option<String>,
    },
    /// A what-if value or sweep range.
    WhatIf {
        purpose: WhatIfInput,
        input: TextArea<'static>,
        error: Option<String>,
    },
}

impl Layer {
    /// A layer that edits text: Ctrl-C cancels it instead of quitting.
    pub fn is_text_field(&self) -> bool {
        matches!(
            self,
            Layer::Reason { .. }
                | Layer::Search { .. }
                | Layer::AddText { .. }
                | Layer::GoldNote { .. }
                | Layer::GoldImport { .. }
                | Layer::WhatIf { .. }
                | Layer::Export(_)
        )
    }
}

/// What a reason popup's reason is for.
#[derive(Debug, Clone, PartialEq)]
pub enum ReasonFor {
    /// Override `entity` to `mask`.
    Override { entity: String, mask: bool },
    /// Accept the residual risk of a document (one id) or a chain (its ids).
    Residual { documents: Vec<String> },
}

/// A decision waiting for `y`.
#[derive(Debug, Clone, PartialEq)]
pub enum Confirm {
    /// Accept the proposal of these entities.
    Bulk { entities: Vec<String> },
    /// Merge `from` into `into`.
    Merge { from: String, into: String },
    /// Remove `entity` from every document.
    RemoveEverywhere { entity: String },
    /// Revert decision `seq` (described as `what`), taken by an earlier review of
    /// the session: undo asks before it reaches back past this review.
    UndoEarlier { seq: i64, what: String },
    /// Export while what-if changes are pending: `y` adopts them first, `n` exports
    /// the reviewed plan.
    ExportWithWhatIf { pending: Vec<String> },
}

/// What a chosen type is for.
#[derive(Debug, Clone, PartialEq)]
pub enum TypePurpose {
    Retype {
        entity: String,
    },
    /// A new entity at `start..end` of document `doc`, with the relevance typed in
    /// the picker (empty: 1.0, SPEC §2).
    Add {
        doc: usize,
        start: usize,
        end: usize,
        relevance: String,
    },
}
