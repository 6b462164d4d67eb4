//! The one way the UI changes state: keys (through the keymap), mouse clicks and
//! popups all become an [`Action`], and `App::update` is the only place that acts on
//! one. Actions are data (serde, snake_case) so the keymap file names them directly.

use serde::{Deserialize, Serialize};

/// Everything a user can ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Quit,
    FocusNext,
    FocusPrev,
    FocusDocuments,
    FocusDocument,
    FocusChains,
    FocusMasks,
    FocusGraph,
    FocusWhatIf,
    Help,
    /// List the input files that were skipped (which, why) and the warnings.
    Problems,
    /// Close the topmost popup, or clear a filter.
    Back,
    Up,
    Down,
    PageUp,
    PageDown,
    Top,
    Bottom,
    /// Open the selected document (lists, graph).
    Open,
    /// Filter the focused list by text.
    Search,
    ToggleSort,
    NextEntity,
    PrevEntity,
    ToggleRedacted,
    /// Next redaction mode (redact, value, pseudonym, generalize) for the preview
    /// and the export.
    CycleMode,
    /// Masks pane: show every entity, not only the masked ones.
    ToggleAll,
    Accept,
    Override,
    Pin,
    Undo,
    /// Accept every proposal in the (filtered) masks list, after a confirmation.
    BulkAccept,
    Export,
    /// Remove the entity under the cursor from this document (a false positive).
    RemoveEntity,
    /// Remove the selected entity from every document, after a confirmation.
    RemoveEverywhere,
    /// Accept the residual risk of the selected document or chain, with a reason.
    AcceptResidual,
    /// Change the type of the selected entity.
    Retype,
    /// Mark text of the open document as a new entity.
    AddEntity,
    /// Mark the selected entity for a merge; on a second entity, merge into it.
    Merge,
    FocusGold,
    /// Mark / unmark the selected chain (or the documents picked in the graph) as gold.
    Gold,
    /// Add or edit the note of the selected gold chain.
    GoldNote,
    /// Graph: add / remove the selected document to the documents of a new gold chain.
    GoldPick,
    /// Import gold chains from a file (asks for the path).
    GoldImport,
    /// What-if: the selected parameter one fine step down / up, one coarse step.
    StepDown,
    StepUp,
    CoarseDown,
    CoarseUp,
    /// What-if: type a value for the selected parameter.
    TypeValue,
    /// What-if: adopt the candidate settings (on a changed entity: show it).
    Adopt,
    /// What-if: back to the settings in effect.
    ResetSettings,
    /// What-if: the sweep chart of the selected parameter, or back to the diff.
    ToggleSweep,
    /// What-if: type the sweep range.
    SweepRange,
}
