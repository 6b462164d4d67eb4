//! UI-only state: which pane has focus, the popup stack, selections, scroll and
//! filters. Nothing here knows about risk; it is plain data so focus and navigation
//! are tested without a terminal.

mod list;

pub use list::ListState;

use serde::{Deserialize, Serialize};

/// The panes, in Tab order.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Pane {
    #[default]
    Documents,
    Document,
    Masks,
    Chains,
    Graph,
    WhatIf,
    /// Gold chains: live chain precision / recall / F1, missed and not-gold chains.
    Gold,
}

impl Pane {
    pub const ALL: [Pane; 7] = [
        Pane::Documents,
        Pane::Document,
        Pane::Masks,
        Pane::Chains,
        Pane::Graph,
        Pane::WhatIf,
        Pane::Gold,
    ];

    /// The keymap section of the pane.
    pub fn key(self) -> &'static str {
        match self {
            Pane::Documents => "documents",
            Pane::Document => "document",
            Pane::Masks => "masks",
            Pane::Chains => "chains",
            Pane::Graph => "graph",
            Pane::WhatIf => "whatif",
            Pane::Gold => "gold",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            Pane::Documents => "Documents",
            Pane::Document => "Document",
            Pane::Masks => "Redaction set",
            Pane::Chains => "Chains",
            Pane::Graph => "Linkage graph",
            Pane::WhatIf => "What-if",
            Pane::Gold => "Gold chains",
        }
    }

    /// The action that focuses the pane (its number key).
    pub fn focus_action(self) -> crate::tui::action::Action {
        use crate::tui::action::Action;
        match self {
            Pane::Documents => Action::FocusDocuments,
            Pane::Document => Action::FocusDocument,
            Pane::Masks => Action::FocusMasks,
            Pane::Chains => Action::FocusChains,
            Pane::Graph => Action::FocusGraph,
            Pane::WhatIf => Action::FocusWhatIf,
            Pane::Gold => Action::FocusGold,
        }
    }

    pub fn next(self) -> Pane {
        let i = Pane::ALL.iter().position(|p| *p == self).unwrap_or(0);
        Pane::ALL[(i + 1) % Pane::ALL.len()]
    }

    pub fn prev(self) -> Pane {
        let i = Pane::ALL.iter().position(|p| *p == self).unwrap_or(0);
        Pane::ALL[(i + Pane::ALL.len() - 1) % Pane::ALL.len()]
    }
}

/// Sort order of the document list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DocSort {
    /// Corpus order.
    #[default]
    Id,
    /// Highest final risk first (ties: corpus order).
    Risk,
}

/// Which export field has the cursor.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExportField {
    #[default]
    Folder,
    Mode,
    RequireReviewed,
}

/// Focus, popups and per-pane selections.
#[derive(Debug, Clone, Default)]
pub struct UiState {
    pub focus: Pane,
    /// The pane shown beside the document list when the screen is too small for all
    /// of them: the last focused pane other than the list.
    pub detail: Pane,
    pub documents: ListState,
    pub masks: ListState,
    pub chains: ListState,
    pub doc_sort: DocSort,
    pub show_all_entities: bool,
    /// Document view: the corpus index shown, the cursor (index into its mention
    /// list) and the first visible line.
    pub open_doc: Option<usize>,
    pub doc_cursor: usize,
    pub doc_scroll: usize,
    /// The next draw scrolls the document so the cursor is visible.
    pub doc_follow: bool,
    /// Text searched in the open document (highlighted), and whether the next draw
    /// scrolls to its first match.
    pub doc_search: String,
    pub doc_search_jump: bool,
    pub redacted_preview: bool,
    /// Text selected with the mouse in the document view (to add as an entity).
    pub doc_selection: Option<DocSelection>,
    /// Gold pane rows (indices into `Views::gold.rows`), and the documents (corpus
    /// indices) picked in the graph for a new gold chain.
    pub gold: ListState,
    pub gold_pending: Vec<usize>,
}

/// A span of the open document selected by dragging the mouse: the character where
/// the drag started and the one under the pointer now (code points, inclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DocSelection {
    pub doc: usize,
    pub anchor: usize,
    pub head: usize,
}

impl DocSelection {
    /// The selected characters as a half-open range.
    pub fn range(&self) -> (usize, usize) {
        (self.anchor.min(self.head), self.anchor.max(self.head) + 1)
    }
}

impl UiState {
    pub fn new() -> Self {
        UiState {
            detail: Pane::Document,
            ..UiState::default()
        }
    }

    /// Moves focus; the detail pane follows so the focused pane is always visible.
    pub fn focus(&mut self, pane: Pane) {
        self.focus = pane;
        if pane != Pane::Documents {
            self.detail = pane;
        }
    }

    pub fn list_mut(&mut self, pane: Pane) -> Option<&mut ListState> {
        match pane {
            Pane::Documents => Some(&mut self.documents),
            Pane::Masks => Some(&mut self.masks),
            Pane::Chains => Some(&mut self.chains),
            Pane::Gold => Some(&mut self.gold),
            Pane::Document | Pane::Graph | Pane::WhatIf => None,
        }
    }

    pub fn list(&self, pane: Pane) -> Option<&ListState> {
        match pane {
            Pane::Documents => Some(&self.documents),
            Pane::Masks => Some(&self.masks),
            Pane::Chains => Some(&self.chains),
            Pane::Gold => Some(&self.gold),
            Pane::Document | Pane::Graph | Pane::WhatIf => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tab_order_cycles_through_every_pane_both_ways() {
        let mut p = Pane::Documents;
        let mut seen = vec![p];
        for _ in 1..Pane::ALL.len() {
            p = p.next();
            seen.push(p);
        }
        assert_eq!(seen, Pane::ALL.to_vec());
        assert_eq!(p.next(), Pane::Documents);
        assert_eq!(Pane::Documents.prev(), Pane::ALL[Pane::ALL.len() - 1]);
    }

    #[test]
    fn the_detail_pane_follows_focus_but_not_to_the_list() {
        let mut ui = UiState::new();
        ui.focus(Pane::Chains);
        ui.focus(Pane::Documents);
        assert_eq!(ui.detail, Pane::Chains);
    }
}
