//! The application state machine: the [`Workspace`] (which owns every number shown),
//! UI state, the popup stack and the extraction progress. Keys become [`Action`]s
//! through the keymap and `update` is the only place that acts on them; worker
//! results are buffered and applied as one burst with one re-plan. Nothing here
//! touches a terminal, so the whole app is driven in tests by calling `handle_key`
//! and `on_worker` and drawing into a `TestBackend`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};
use ratatui_textarea::TextArea;

use crate::analysis::RiskCategory;
use crate::export::{ExportError, ExportOptions};
use crate::extract::ExtractedItem;
use crate::plan::{Provenance, Stage};
use crate::redact::{Mode, Replacer};
use crate::session::{Action as SessionAction, Decision};
use crate::workspace::{ReviewState, Workspace};

use super::action::Action;
use super::graph::GraphLayout;
use super::keymap::{Key, Keymap};
use super::state::{DocSort, ExportField, Pane, UiState};
use super::theme::Theme;

/// A message from the extraction worker.
#[derive(Debug)]
pub enum WorkerMsg {
    /// The items of one document (corpus index).
    Extracted {
        index: usize,
        items: Vec<ExtractedItem>,
    },
    /// The corpus-level linker pass: complete item lists for every document.
    Linked(Vec<(usize, Vec<ExtractedItem>)>),
    /// A document the extractor failed on (recorded with no entities).
    Failed { index: usize, message: String },
    /// Documents extracted so far (and how many failed), between plans.
    Progress { done: usize, failed: usize },
    /// Entities, analysis and plan computed off the UI thread for the documents
    /// extracted so far.
    Planned(Box<crate::workspace::Derived>),
    /// The worker has finished.
    Done,
}

/// Extraction progress for the header.
#[derive(Debug, Clone)]
pub struct Progress {
    pub total: usize,
    pub done: usize,
    pub failed: usize,
    pub started: Instant,
    pub finished: Option<Duration>,
}

impl Progress {
    /// Documents per second so far.
    pub fn rate(&self) -> f64 {
        let secs = self
            .finished
            .unwrap_or_else(|| self.started.elapsed())
            .as_secs_f64();
        if secs > 0.0 {
            self.done as f64 / secs
        } else {
            0.0
        }
    }

    /// Estimated time left, when the rate is known.
    pub fn eta(&self) -> Option<Duration> {
        let rate = self.rate();
        (self.finished.is_none() && rate > 0.0).then(|| {
            Duration::from_secs_f64((self.total - self.done.min(self.total)) as f64 / rate)
        })
    }
}

/// A line in the status bar.
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    pub text: String,
    pub error: bool,
}

/// What the export dialog shows after a run.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportOutcome {
    Written(Vec<String>),
    Leak(Vec<String>),
    Failed(String),
}

/// The export dialog's fields.
#[derive(Debug)]
pub struct ExportDialog {
    pub folder: TextArea<'static>,
    pub mode: Mode,
    pub require_reviewed: bool,
    pub field: ExportField,
    pub outcome: Option<ExportOutcome>,
}

/// A popup; the topmost gets the keys.
#[derive(Debug)]
pub enum Layer {
    Help,
    /// The reason for an override of `entity` to `mask`.
    Reason {
        entity: String,
        mask: bool,
        input: TextArea<'static>,
        error: Option<String>,
    },
    /// Filter text for a list pane.
    Search {
        pane: Pane,
        input: TextArea<'static>,
    },
    /// Accept these entities?
    ConfirmBulk {
        entities: Vec<String>,
    },
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
    /// Merge `from` into `into`?
    ConfirmMerge {
        from: String,
        into: String,
    },
}

/// What a chosen type is for.
#[derive(Debug, Clone, PartialEq)]
pub enum TypePurpose {
    Retype {
        entity: String,
    },
    Add {
        doc: usize,
        start: usize,
        end: usize,
    },
}

/// The rectangles of the last draw, for mouse hit-testing, plus the scroll offsets
/// the draw settled on (kept so lists do not jump between frames).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rects {
    pub panes: Vec<(Pane, Rect)>,
    /// First data row of each list on screen, and the list's first visible row.
    pub list_body: Vec<(Pane, Rect, usize)>,
    pub doc_scroll: usize,
    pub graph: Option<Rect>,
}

/// One entity mention in the open document.
#[derive(Debug, Clone, PartialEq)]
pub struct Mention {
    pub start: usize,
    pub end: usize,
    pub entity_id: String,
    /// Model index, when the entity is in the analysis.
    pub entity: Option<usize>,
    pub entity_type: String,
}

/// Derived per-replan views (cheap lookups for drawing).
#[derive(Default)]
pub struct Views {
    /// corpus index → model document index (None while pending).
    pub model_of_doc: Vec<Option<usize>>,
    /// Review state per model entity.
    pub review: Vec<ReviewState>,
    /// The replacer of the current plan (redacted preview).
    pub replacer: Option<Replacer>,
    pub layout: GraphLayout,
}

/// The application.
pub struct App {
    pub ws: Workspace,
    pub ui: UiState,
    pub layers: Vec<Layer>,
    pub keymap: Keymap,
    pub theme: Theme,
    pub actor: String,
    pub progress: Progress,
    pub message: Option<Message>,
    pub rects: Rects,
    pub views: Views,
    pub quit: bool,
    /// Something changed since the last draw.
    pub dirty: bool,
    /// The corpus as the user named it (header).
    pub corpus_name: String,
    /// Default export folder offered by the dialog.
    pub export_default: PathBuf,
    /// Entity marked as the source of a merge.
    pub merge_from: Option<String>,
    /// How long the last burst's re-plan took, and whether one is running now.
    pub last_replan: Duration,
    pub recomputing: bool,
    /// Inside a bulk decision: views are refreshed once at the end.
    batch: bool,
    project_key: Vec<u8>,
    burst: Vec<(usize, Vec<ExtractedItem>)>,
}

fn review_word(r: ReviewState) -> &'static str {
    match r {
        ReviewState::Proposed => "proposed",
        ReviewState::Accepted => "accepted",
        ReviewState::Stale => "stale",
        ReviewState::Overridden => "overridden",
        ReviewState::Pinned => "pinned",
    }
}

/// The review word of an entity.
pub fn review_label(r: ReviewState) -> &'static str {
    review_word(r)
}

fn text_input(initial: &str) -> TextArea<'static> {
    let mut t = TextArea::new(vec![initial.to_string()]);
    t.move_cursor(ratatui_textarea::CursorMove::End);
    t
}

impl App {
    /// An app over `ws`; `total` documents are (or will be) extracted by a worker.
    pub fn new(
        ws: Workspace,
        theme: Theme,
        keymap: Keymap,
        actor: String,
        corpus_name: String,
    ) -> Self {
        let project_key = ws
            .session
            .as_ref()
            .and_then(|s| s.project_key().ok())
            .unwrap_or_default();
        let total = ws.corpus.documents.len();
        let done = ws
            .extracted
            .as_ref()
            .unwrap_or(&ws.store)
            .docs
            .iter()
            .filter(|d| d.complete)
            .count();
        let export_default = std::env::current_dir()
            .unwrap_or_default()
            .join(format!("{corpus_name}-redacted"));
        let mut app = App {
            ws,
            ui: UiState::new(),
            layers: Vec::new(),
            keymap,
            theme,
            actor,
            progress: Progress {
                total,
                done,
                failed: 0,
                started: Instant::now(),
                finished: (done == total).then_some(Duration::ZERO),
            },
            message: None,
            rects: Rects::default(),
            views: Views::default(),
            quit: false,
            dirty: true,
            corpus_name,
            export_default,
            merge_from: None,
            last_replan: Duration::ZERO,
            recomputing: false,
            batch: false,
            project_key,
            burst: Vec::new(),
        };
        app.refresh();
        app.ui.open_doc = app.ui.documents.current();
        app
    }

    /// True once extraction and planning are finished and nothing recomputes.
    pub fn is_ready(&self) -> bool {
        self.progress.finished.is_some() && self.burst.is_empty()
    }

    /// Buffers a worker message; call [`App::flush`] after draining the channel.
    pub fn on_worker(&mut self, msg: WorkerMsg) {
        match msg {
            WorkerMsg::Extracted { index, items } => {
                self.progress.done += 1;
                self.burst.push((index, items));
            }
            WorkerMsg::Failed { index, message } => {
                self.progress.done += 1;
                self.progress.failed += 1;
                tracing::warn!(index, %message, "extraction failed");
                self.burst.push((index, Vec::new()));
            }
            WorkerMsg::Linked(all) => self.burst.extend(all),
            WorkerMsg::Progress { done, failed } => {
                self.progress.done = done;
                self.progress.failed = failed;
            }
            WorkerMsg::Planned(derived) => {
                let started = Instant::now();
                if let Err(e) = self.ws.install(*derived) {
                    self.error(format!("re-plan failed: {e}"));
                }
                self.refresh();
                self.last_replan = started.elapsed();
            }
            WorkerMsg::Done => {
                self.progress.done = self.progress.total;
                self.progress.finished = Some(self.progress.started.elapsed());
            }
        }
        self.dirty = true;
    }

    /// Applies the buffered burst with one re-plan.
    pub fn flush(&mut self) {
        if self.burst.is_empty() {
            return;
        }
        let started = Instant::now();
        let burst = std::mem::take(&mut self.burst);
        if let Err(e) = self.ws.set_extracted(burst) {
            self.error(format!("re-plan failed: {e}"));
        }
        self.refresh();
        self.last_replan = started.elapsed();
        self.recomputing = false;
    }

    /// True when results are waiting and the last re-plan took longer than a frame:
    /// the loop then shows `recomputing` before it starts the next one.
    pub fn slow_replan_ahead(&self) -> bool {
        !self.burst.is_empty() && self.last_replan > super::FRAME
    }

    fn error(&mut self, text: String) {
        self.message = Some(Message { text, error: true });
    }

    fn info(&mut self, text: String) {
        self.message = Some(Message { text, error: false });
    }

    /// Recomputes the derived views after the plan or a filter changed.
    pub fn refresh(&mut self) {
        let ws = &self.ws;
        let mut model_of_doc = vec![None; ws.corpus.documents.len()];
        for (m, d) in ws.model.docs.iter().enumerate() {
            if let Some(slot) = model_of_doc.get_mut(d.corpus_index) {
                *slot = Some(m);
            }
        }
        self.views.review = (0..ws.model.entities.len())
            .map(|i| ws.review_state(i))
            .collect();
        self.views.replacer = Some(ws.replacer(&self.project_key));
        self.views.layout.update(&ws.model, &ws.analysis);
        self.views.model_of_doc = model_of_doc;
        self.refresh_rows();
        self.dirty = true;
    }

    fn refresh_rows(&mut self) {
        let ws = &self.ws;
        // Documents.
        let needle = self.ui.documents.filter.to_lowercase();
        let mut docs: Vec<usize> = (0..ws.corpus.documents.len())
            .filter(|&i| {
                needle.is_empty() || {
                    let d = &ws.corpus.documents[i];
                    d.id.to_lowercase().contains(&needle)
                        || d.content.to_lowercase().contains(&needle)
                }
            })
            .collect();
        if self.ui.doc_sort == DocSort::Risk {
            let risk = |i: usize| {
                self.views
                    .model_of_doc
                    .get(i)
                    .copied()
                    .flatten()
                    .map_or(-1.0, |m| ws.plan.doc_risk_final[m])
            };
            docs.sort_by(|a, b| risk(*b).total_cmp(&risk(*a)).then(a.cmp(b)));
        }
        self.ui.documents.set_rows(docs);
        // Masks.
        let needle = self.ui.masks.filter.to_lowercase();
        let mut masks: Vec<usize> = (0..ws.model.entities.len())
            .filter(|&i| self.ui.show_all_entities || ws.plan.masked[i])
            .filter(|&i| {
                needle.is_empty() || {
                    let e = &ws.model.entities[i];
                    e.value.to_lowercase().contains(&needle)
                        || e.entity_type.to_lowercase().contains(&needle)
                        || review_word(self.views.review[i]).contains(&needle)
                }
            })
            .collect();
        // Highest global contribution s_e first: the entities that matter most.
        let s_e = &ws.analysis.global_contribution;
        masks.sort_by(|a, b| s_e[*b].total_cmp(&s_e[*a]).then(a.cmp(b)));
        self.ui.masks.set_rows(masks);
        // Chains, riskiest first.
        let needle = self.ui.chains.filter.to_lowercase();
        let mut chains: Vec<usize> = (0..ws.analysis.chains.len())
            .filter(|&c| {
                needle.is_empty()
                    || ws.plan.chains[c]
                        .category_pre
                        .as_str()
                        .to_lowercase()
                        .contains(&needle)
                    || ws.analysis.chains[c].docs.iter().any(|&d| {
                        ws.model.docs[d as usize]
                            .id
                            .to_lowercase()
                            .contains(&needle)
                    })
            })
            .collect();
        chains.sort_by(|a, b| {
            ws.plan.chains[*b]
                .risk_pre
                .total_cmp(&ws.plan.chains[*a].risk_pre)
                .then(a.cmp(b))
        });
        self.ui.chains.set_rows(chains);
    }

    /// Mentions of the open document, sorted by position.
    pub fn mentions(&self, doc: usize) -> Vec<Mention> {
        let store = &self.ws.store;
        let Some(d) = store.docs.get(doc) else {
            return Vec::new();
        };
        let mut out: Vec<Mention> = d
            .entities
            .iter()
            .flat_map(|e| {
                let entity_type = store
                    .keys
                    .get(&e.entity_id)
                    .map(|k| k.entity_type.clone())
                    .unwrap_or_default();
                let entity = self.ws.model.entity_index(&e.entity_id);
                e.spans.iter().map(move |s| Mention {
                    start: s.start,
                    end: s.end,
                    entity_id: e.entity_id.clone(),
                    entity,
                    entity_type: entity_type.clone(),
                })
            })
            .collect();
        out.sort_by(|a, b| a.start.cmp(&b.start).then(b.end.cmp(&a.end)));
        out
    }

    /// The mention under the document cursor.
    pub fn cursor_mention(&self) -> Option<Mention> {
        let doc = self.ui.open_doc?;
        self.mentions(doc).get(self.ui.doc_cursor).cloned()
    }

    /// The entity (model index) the decision keys apply to in the focused pane.
    pub fn target_entity(&self) -> Option<usize> {
        match self.ui.focus {
            Pane::Masks => self.ui.masks.current(),
            Pane::Document => self.cursor_mention().and_then(|m| m.entity),
            _ => None,
        }
    }

    /// The selected chain (index into the analysis), when the chains pane is in view.
    pub fn selected_chain(&self) -> Option<usize> {
        (self.ui.focus == Pane::Chains)
            .then(|| self.ui.chains.current())
            .flatten()
    }

    // ----- input -----

    /// A key press: popups first, then the keymap of the focused pane.
    pub fn handle_key(&mut self, key: KeyEvent) {
        if key.kind == KeyEventKind::Release {
            return;
        }
        self.dirty = true;
        if !self.layers.is_empty() {
            self.popup_key(key);
            return;
        }
        if let Some(action) = self.keymap.lookup(self.ui.focus, Key::from_event(&key)) {
            self.update(action);
        }
    }

    /// A mouse event: a click focuses the pane under it and selects the row.
    pub fn handle_mouse(&mut self, ev: MouseEvent) {
        if !self.layers.is_empty() {
            return;
        }
        let pos = Position::new(ev.column, ev.row);
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let Some(pane) = self
                    .rects
                    .panes
                    .iter()
                    .find(|(_, r)| r.contains(pos))
                    .map(|(p, _)| *p)
                else {
                    return;
                };
                self.ui.focus(pane);
                if let Some((_, body, offset)) = self
                    .rects
                    .list_body
                    .iter()
                    .find(|(p, r, _)| *p == pane && r.contains(pos))
                    .copied()
                {
                    let row = offset + (pos.y - body.y) as usize;
                    if let Some(list) = self.ui.list_mut(pane)
                        && row < list.rows.len()
                    {
                        list.selected = row;
                        list.touched = true;
                    }
                    self.after_move(pane);
                }
                if pane == Pane::Graph
                    && let Some(area) = self.rects.graph
                    && let Some(doc) = self.views.layout.hit(
                        area,
                        pos,
                        self.ui
                            .open_doc
                            .and_then(|d| self.views.model_of_doc.get(d).copied().flatten()),
                        &self.ws.analysis,
                    )
                {
                    let corpus = self.ws.model.docs[doc].corpus_index;
                    self.select_document(corpus);
                }
                self.dirty = true;
            }
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let down = ev.kind == MouseEventKind::ScrollDown;
                if let Some(pane) = self
                    .rects
                    .panes
                    .iter()
                    .find(|(_, r)| r.contains(pos))
                    .map(|(p, _)| *p)
                {
                    let saved = self.ui.focus;
                    self.ui.focus = pane;
                    self.update(if down { Action::Down } else { Action::Up });
                    self.ui.focus = saved;
                }
            }
            _ => {}
        }
    }

    /// Acts on an action (the only place UI state changes).
    pub fn update(&mut self, action: Action) {
        self.dirty = true;
        let pane = self.ui.focus;
        match action {
            Action::Quit => self.quit = true,
            Action::FocusNext => self.ui.focus(pane.next()),
            Action::FocusPrev => self.ui.focus(pane.prev()),
            Action::FocusDocuments => self.ui.focus(Pane::Documents),
            Action::FocusDocument => self.ui.focus(Pane::Document),
            Action::FocusMasks => self.ui.focus(Pane::Masks),
            Action::FocusChains => self.ui.focus(Pane::Chains),
            Action::FocusGraph => self.ui.focus(Pane::Graph),
            Action::Help => self.layers.push(Layer::Help),
            Action::Back => {
                if let Some(list) = self.ui.list_mut(pane)
                    && !list.filter.is_empty()
                {
                    list.filter.clear();
                    self.refresh_rows();
                } else if pane == Pane::Document && !self.ui.doc_search.is_empty() {
                    self.ui.doc_search.clear();
                } else if pane == Pane::Document {
                    self.ui.focus(Pane::Documents);
                }
                self.message = None;
                self.merge_from = None;
            }
            Action::Up | Action::Down | Action::PageUp | Action::PageDown => {
                let step: isize = match action {
                    Action::Up => -1,
                    Action::Down => 1,
                    Action::PageUp => -10,
                    _ => 10,
                };
                match pane {
                    Pane::Document => {
                        self.ui.doc_scroll = self.ui.doc_scroll.saturating_add_signed(step);
                    }
                    Pane::Graph => {
                        self.ui.documents.move_by(step);
                        self.after_move(Pane::Documents);
                    }
                    _ => {
                        if let Some(list) = self.ui.list_mut(pane) {
                            list.move_by(step);
                        }
                        self.after_move(pane);
                    }
                }
            }
            Action::Top | Action::Bottom => {
                if let Some(list) = self.ui.list_mut(pane) {
                    if action == Action::Top {
                        list.top();
                    } else {
                        list.bottom();
                    }
                }
                self.after_move(pane);
            }
            Action::Open => self.open(),
            Action::Search => {
                if let Some(list) = self.ui.list(pane) {
                    let input = text_input(&list.filter);
                    self.layers.push(Layer::Search { pane, input });
                } else if pane == Pane::Document {
                    let input = text_input(&self.ui.doc_search);
                    self.layers.push(Layer::Search { pane, input });
                }
            }
            Action::ToggleSort => {
                self.ui.doc_sort = match self.ui.doc_sort {
                    DocSort::Id => DocSort::Risk,
                    DocSort::Risk => DocSort::Id,
                };
                self.refresh_rows();
            }
            Action::NextEntity | Action::PrevEntity => {
                if let Some(doc) = self.ui.open_doc {
                    let n = self.mentions(doc).len();
                    if n > 0 {
                        self.ui.doc_cursor = if action == Action::NextEntity {
                            (self.ui.doc_cursor + 1) % n
                        } else {
                            (self.ui.doc_cursor + n - 1) % n
                        };
                        self.ui.doc_follow = true;
                    }
                }
            }
            Action::ToggleRedacted => self.ui.redacted_preview = !self.ui.redacted_preview,
            Action::ToggleAll => {
                self.ui.show_all_entities = !self.ui.show_all_entities;
                self.refresh_rows();
            }
            Action::Accept => self.accept(),
            Action::Override => self.start_override(),
            Action::Pin => self.pin(),
            Action::Undo => self.undo(),
            Action::BulkAccept => self.start_bulk_accept(),
            Action::Export => self.open_export(),
            Action::RemoveEntity => self.remove_entity(),
            Action::Retype => self.start_retype(),
            Action::AddEntity => self.start_add(),
            Action::Merge => self.merge(),
        }
    }

    /// After a list selection moved: the document view follows the document list.
    fn after_move(&mut self, pane: Pane) {
        if pane == Pane::Documents && self.ui.documents.current() != self.ui.open_doc {
            self.ui.open_doc = self.ui.documents.current();
            self.ui.doc_cursor = 0;
            self.ui.doc_scroll = 0;
        }
    }

    /// Selects document `corpus` in the list (clearing a filter that hides it).
    pub fn select_document(&mut self, corpus: usize) {
        if !self.ui.documents.select_item(corpus) {
            self.ui.documents.filter.clear();
            self.refresh_rows();
            self.ui.documents.select_item(corpus);
        }
        self.after_move(Pane::Documents);
    }

    fn open(&mut self) {
        match self.ui.focus {
            Pane::Documents | Pane::Graph => {
                self.after_move(Pane::Documents);
                self.ui.focus(Pane::Document);
            }
            Pane::Masks => {
                let Some(e) = self.ui.masks.current() else {
                    return;
                };
                let Some(&first) = self.ws.analysis.entity_docs[e].first() else {
                    return;
                };
                let corpus = self.ws.model.docs[first as usize].corpus_index;
                self.select_document(corpus);
                let id = self.ws.model.entities[e].id.clone();
                if let Some(pos) = self.mentions(corpus).iter().position(|m| m.entity_id == id) {
                    self.ui.doc_cursor = pos;
                    self.ui.doc_follow = true;
                }
                self.ui.focus(Pane::Document);
            }
            Pane::Chains => {
                let Some(c) = self.ui.chains.current() else {
                    return;
                };
                let first = self.ws.analysis.chains[c].docs[0] as usize;
                let corpus = self.ws.model.docs[first].corpus_index;
                self.select_document(corpus);
                self.ui.focus(Pane::Document);
            }
            Pane::Document => {}
        }
    }

    // ----- decisions -----

    fn entity_label(&self, i: usize) -> String {
        let e = &self.ws.model.entities[i];
        format!("{} {:?}", e.entity_type, super::sanitize::line(&e.value))
    }

    fn no_target(&mut self) {
        self.error(
            "select an entity first: in the redaction set, or with n / N in the document".into(),
        );
    }

    /// Records a decision (committed before this returns) and re-plans.
    fn decide(
        &mut self,
        action: SessionAction,
        reason: Option<String>,
        entity: Option<usize>,
    ) -> bool {
        let before = entity.map(|i| {
            if self.ws.plan.masked[i] {
                "mask"
            } else {
                "keep"
            }
            .to_string()
        });
        // What the entity will be once the decision is in force, where the decision
        // itself says so (an unpin or an edit is known only after the re-plan).
        let after = match &action {
            SessionAction::Override { mask, .. } => {
                Some(if *mask { "mask" } else { "keep" }.to_string())
            }
            SessionAction::Accept { .. } | SessionAction::Pin { .. } => before.clone(),
            _ => None,
        };
        let decision = Decision {
            actor: self.actor.clone(),
            action,
            reason,
            state_before: before,
            state_after: after,
            config_hash: self.ws.config.hash(),
        };
        match self.ws.apply(decision) {
            Ok(_) => {
                if !self.batch {
                    self.refresh();
                }
                true
            }
            Err(e) => {
                self.error(format!("decision not saved: {e}"));
                false
            }
        }
    }

    fn accept(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        let mask = self.ws.plan.masked[i];
        let id = self.ws.model.entities[i].id.clone();
        let label = self.entity_label(i);
        if self.decide(SessionAction::Accept { entity: id, mask }, None, Some(i)) {
            self.info(format!(
                "accepted: {} {label}",
                if mask { "mask" } else { "keep" }
            ));
        }
    }

    fn start_override(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        self.layers.push(Layer::Reason {
            entity: self.ws.model.entities[i].id.clone(),
            mask: !self.ws.plan.masked[i],
            input: TextArea::default(),
            error: None,
        });
    }

    /// Completes an override with `reason`; an empty reason is refused.
    fn submit_override(&mut self, entity: String, mask: bool, reason: &str) -> Result<(), String> {
        let reason = reason.trim();
        if reason.is_empty() {
            return Err("a reason is required for an override (Esc cancels)".into());
        }
        let Some(i) = self.ws.model.entity_index(&entity) else {
            return Err("the entity is no longer in the corpus".into());
        };
        let label = self.entity_label(i);
        if self.decide(
            SessionAction::Override { entity, mask },
            Some(reason.to_string()),
            Some(i),
        ) {
            self.info(format!(
                "overridden: {} {label}",
                if mask { "mask" } else { "keep" }
            ));
        }
        Ok(())
    }

    fn pin(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        let id = self.ws.model.entities[i].id.clone();
        let label = self.entity_label(i);
        if self.ws.state.pinned.contains(&id) {
            if self.decide(SessionAction::Unpin { entity: id }, None, Some(i)) {
                self.info(format!("unpinned: {label}"));
            }
        } else {
            let mask = self.ws.plan.masked[i];
            if self.decide(SessionAction::Pin { entity: id, mask }, None, Some(i)) {
                self.info(format!(
                    "pinned: {} {label}",
                    if mask { "mask" } else { "keep" }
                ));
            }
        }
    }

    fn undo(&mut self) {
        let log = match self.ws.session.as_ref().map(|s| s.audit_log()) {
            Some(Ok(log)) => log,
            Some(Err(e)) => return self.error(format!("cannot read the audit log: {e}")),
            None => return self.error("no session: nothing to undo".into()),
        };
        // The newest decision still in effect (undone ones and undos are skipped).
        let mut undone = std::collections::BTreeSet::new();
        let mut target = None;
        for e in log.iter().rev() {
            if undone.contains(&e.seq) {
                continue;
            }
            if let SessionAction::Undo { seq } = e.action {
                undone.insert(seq);
                continue;
            }
            target = Some(e.clone());
            break;
        }
        let Some(entry) = target else {
            return self.info("nothing to undo".into());
        };
        let is_edit = matches!(
            entry.action,
            SessionAction::AddEntity { .. }
                | SessionAction::RemoveEntity { .. }
                | SessionAction::Retype { .. }
                | SessionAction::Merge { .. }
        );
        if self.decide(SessionAction::Undo { seq: entry.seq }, None, None) {
            if is_edit && let Err(e) = self.ws.rebuild_store() {
                self.error(format!("re-plan failed: {e}"));
            }
            self.refresh();
            self.info(format!(
                "undone: {} (decision #{})",
                entry.action.name(),
                entry.seq
            ));
        }
    }

    fn start_bulk_accept(&mut self) {
        let entities: Vec<String> = self
            .ui
            .masks
            .rows
            .iter()
            .filter(|&&i| {
                matches!(
                    self.views.review[i],
                    ReviewState::Proposed | ReviewState::Stale
                )
            })
            .map(|&i| self.ws.model.entities[i].id.clone())
            .collect();
        if entities.is_empty() {
            return self.info("nothing to accept: every listed entity is reviewed".into());
        }
        self.layers.push(Layer::ConfirmBulk { entities });
    }

    fn bulk_accept(&mut self, entities: &[String]) {
        // One transaction per decision, but the views are rebuilt once at the end.
        self.batch = true;
        let n = self.accept_each(entities);
        self.batch = false;
        self.refresh();
        if let Some(n) = n {
            self.info(format!("accepted {n} proposal(s)"));
        }
    }

    /// Accepts each entity's current proposal; None when a decision failed (the
    /// error is in the status bar).
    fn accept_each(&mut self, entities: &[String]) -> Option<usize> {
        let mut n = 0;
        for id in entities {
            let Some(i) = self.ws.model.entity_index(id) else {
                continue;
            };
            let mask = self.ws.plan.masked[i];
            if !self.decide(
                SessionAction::Accept {
                    entity: id.clone(),
                    mask,
                },
                None,
                Some(i),
            ) {
                return None;
            }
            n += 1;
        }
        Some(n)
    }

    // ----- entity edits -----

    fn schema_types(&self) -> Vec<String> {
        self.ws
            .config
            .schema
            .names()
            .into_iter()
            .map(str::to_string)
            .collect()
    }

    fn remove_entity(&mut self) {
        let Some(m) = self
            .cursor_mention()
            .filter(|_| self.ui.focus == Pane::Document)
        else {
            return self.no_target();
        };
        let Some(doc) = self.ui.open_doc else {
            return;
        };
        let doc_id = self.ws.corpus.documents[doc].id.clone();
        let label = match m.entity {
            Some(i) => self.entity_label(i),
            None => m.entity_type.clone(),
        };
        if self.decide(
            SessionAction::RemoveEntity {
                entity: m.entity_id,
                doc: Some(doc_id.clone()),
            },
            None,
            m.entity,
        ) {
            self.ui.doc_cursor = self
                .ui
                .doc_cursor
                .min(self.mentions(doc).len().saturating_sub(1));
            self.info(format!(
                "removed {label} from {} (u undoes)",
                super::sanitize::line(&doc_id)
            ));
        }
    }

    fn start_retype(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        let types = self.schema_types();
        let current = &self.ws.model.entities[i].entity_type;
        let selected = types.iter().position(|t| t == current).unwrap_or(0);
        self.layers.push(Layer::TypePicker {
            purpose: TypePurpose::Retype {
                entity: self.ws.model.entities[i].id.clone(),
            },
            types,
            selected,
        });
    }

    fn start_add(&mut self) {
        let Some(doc) = self.ui.open_doc else {
            return self.error("open a document first".into());
        };
        self.layers.push(Layer::AddText {
            doc,
            input: TextArea::default(),
            error: None,
        });
    }

    /// The first whole-word occurrence of `text` in document `doc` (code points).
    fn locate_text(&self, doc: usize, text: &str) -> Result<(usize, usize), String> {
        let text = text.trim();
        if text.is_empty() {
            return Err("type the text to mark (Esc cancels)".into());
        }
        let content = &self.ws.corpus.documents[doc].content;
        crate::entity::spans::locate(content, text)
            .first()
            .map(|s| (s.start, s.end))
            .ok_or_else(|| {
                format!(
                    "{:?} does not occur as whole words in this document",
                    super::sanitize::line(text)
                )
            })
    }

    fn choose_type(&mut self, purpose: TypePurpose, entity_type: String) {
        match purpose {
            TypePurpose::Retype { entity } => {
                let Some(key) = self.ws.store.keys.get(&entity) else {
                    return self.error("the entity is no longer in the corpus".into());
                };
                if key.entity_type == entity_type {
                    return self.info("the type is unchanged".into());
                }
                let new_entity = crate::entity::entity_id(&key.normalized, &entity_type);
                let i = self.ws.model.entity_index(&entity);
                if self.decide(
                    SessionAction::Retype {
                        entity,
                        entity_type: entity_type.clone(),
                        new_entity,
                    },
                    None,
                    i,
                ) {
                    self.info(format!("retyped to {entity_type} (u undoes)"));
                }
            }
            TypePurpose::Add { doc, start, end } => {
                let doc_id = self.ws.corpus.documents[doc].id.clone();
                if self.decide(
                    SessionAction::AddEntity {
                        doc: doc_id,
                        start,
                        end,
                        entity_type: entity_type.clone(),
                        relevance: None,
                    },
                    None,
                    None,
                ) {
                    if let Some(pos) = self.mentions(doc).iter().position(|m| m.start == start) {
                        self.ui.doc_cursor = pos;
                        self.ui.doc_follow = true;
                    }
                    self.info(format!("added a {entity_type} entity (u undoes)"));
                }
            }
        }
    }

    fn merge(&mut self) {
        let Some(i) = self.target_entity() else {
            return self.no_target();
        };
        let id = self.ws.model.entities[i].id.clone();
        match self.merge_from.take() {
            None => {
                self.merge_from = Some(id);
                self.info(format!(
                    "merge: {} marked; select the entity to merge it into and press m again (Esc cancels)",
                    self.entity_label(i)
                ));
            }
            Some(from) if from == id => self.info("merge cancelled".into()),
            Some(from) => self.layers.push(Layer::ConfirmMerge { from, into: id }),
        }
    }

    // ----- export -----

    fn open_export(&mut self) {
        self.layers.push(Layer::Export(Box::new(ExportDialog {
            folder: text_input(&self.export_default.display().to_string()),
            mode: self.ws.config.redaction,
            require_reviewed: false,
            field: ExportField::Folder,
            outcome: None,
        })));
    }

    /// Masked entities still proposed or stale (what `--require-reviewed` refuses).
    pub fn unreviewed_masks(&self) -> usize {
        self.ws
            .masked_indices()
            .into_iter()
            .filter(|&i| {
                matches!(
                    self.views.review.get(i),
                    Some(ReviewState::Proposed | ReviewState::Stale)
                ) && !matches!(
                    self.ws.plan.provenance[i],
                    Provenance::Masked {
                        stage: Stage::Forced,
                        ..
                    }
                )
            })
            .count()
    }

    /// Runs the same export as `clam run` (leak check included).
    pub fn run_export(
        &mut self,
        folder: &str,
        mode: Mode,
        require_reviewed: bool,
    ) -> ExportOutcome {
        if !self.is_ready() {
            return ExportOutcome::Failed("extraction is still running; wait for `ready`".into());
        }
        if folder.trim().is_empty() {
            return ExportOutcome::Failed("type the output folder".into());
        }
        if self.project_key.is_empty() {
            return ExportOutcome::Failed(
                "no session, so no project key: open with --session FILE".into(),
            );
        }
        if mode != self.ws.config.redaction {
            let config = crate::Config {
                redaction: mode,
                ..self.ws.config.clone()
            };
            if let Err(e) = self.ws.set_config(config) {
                return ExportOutcome::Failed(e.to_string());
            }
            self.refresh();
        }
        let scanner = crate::extract::offline::OfflineExtractor::new(self.ws.config.date_order);
        let out = PathBuf::from(folder.trim());
        let opts = ExportOptions {
            force: false,
            with_mapping: None,
            require_reviewed,
        };
        match crate::export::export(&self.ws, &self.project_key, &out, &opts, &scanner) {
            Ok(s) => {
                let mut lines = vec![format!(
                    "exported {} documents to {} ({} mode): {} of {} entities masked; leak check passed ({} files)",
                    s.documents,
                    s.out.display(),
                    mode.as_str(),
                    s.masked,
                    self.ws.model.entities.len(),
                    s.files_scanned
                )];
                lines.extend(s.warnings.iter().map(|w| format!("warning: {w}")));
                if s.skipped > 0 {
                    lines.push(format!(
                        "{} input document(s) skipped (listed in report.md)",
                        s.skipped
                    ));
                }
                ExportOutcome::Written(lines)
            }
            Err(ExportError::Leak(hits)) => {
                ExportOutcome::Leak(hits.iter().map(ToString::to_string).collect())
            }
            Err(e) => ExportOutcome::Failed(e.to_string()),
        }
    }

    // ----- popups -----

    fn popup_key(&mut self, key: KeyEvent) {
        let Some(layer) = self.layers.pop() else {
            return;
        };
        let ctrl_c = key.code == KeyCode::Char('c')
            && key
                .modifiers
                .contains(crossterm::event::KeyModifiers::CONTROL);
        if ctrl_c {
            self.quit = true;
            return;
        }
        match layer {
            Layer::Help => {
                // Any key closes the help.
            }
            Layer::Reason {
                entity,
                mask,
                mut input,
                ..
            } => match key.code {
                KeyCode::Esc => self.info("override cancelled".into()),
                KeyCode::Enter => {
                    let reason = input.lines().join("\n");
                    if let Err(msg) = self.submit_override(entity.clone(), mask, &reason) {
                        self.layers.push(Layer::Reason {
                            entity,
                            mask,
                            input,
                            error: Some(msg),
                        });
                    }
                }
                _ => {
                    input.input(key);
                    self.layers.push(Layer::Reason {
                        entity,
                        mask,
                        input,
                        error: None,
                    });
                }
            },
            Layer::Search { pane, mut input } => match key.code {
                KeyCode::Esc => {}
                KeyCode::Enter => {}
                _ => {
                    input.input(key);
                    let text = input.lines().join(" ");
                    if pane == Pane::Document {
                        self.ui.doc_search = text.clone();
                        self.ui.doc_search_jump = true;
                    }
                    if let Some(list) = self.ui.list_mut(pane) {
                        list.filter = text;
                    }
                    self.refresh_rows();
                    self.after_move(pane);
                    self.layers.push(Layer::Search { pane, input });
                }
            },
            Layer::AddText { doc, mut input, .. } => match key.code {
                KeyCode::Esc => {}
                KeyCode::Enter => match self.locate_text(doc, &input.lines().join(" ")) {
                    Ok((start, end)) => self.layers.push(Layer::TypePicker {
                        purpose: TypePurpose::Add { doc, start, end },
                        types: self.schema_types(),
                        selected: 0,
                    }),
                    Err(msg) => self.layers.push(Layer::AddText {
                        doc,
                        input,
                        error: Some(msg),
                    }),
                },
                _ => {
                    input.input(key);
                    self.layers.push(Layer::AddText {
                        doc,
                        input,
                        error: None,
                    });
                }
            },
            Layer::TypePicker {
                purpose,
                types,
                mut selected,
            } => match key.code {
                KeyCode::Esc => {}
                KeyCode::Enter => {
                    if let Some(t) = types.get(selected).cloned() {
                        self.choose_type(purpose, t);
                    }
                }
                code => {
                    match code {
                        KeyCode::Up | KeyCode::Char('k') => selected = selected.saturating_sub(1),
                        KeyCode::Down | KeyCode::Char('j') => {
                            selected = (selected + 1).min(types.len().saturating_sub(1));
                        }
                        _ => {}
                    }
                    self.layers.push(Layer::TypePicker {
                        purpose,
                        types,
                        selected,
                    });
                }
            },
            Layer::ConfirmMerge { from, into } => match key.code {
                KeyCode::Char('y') | KeyCode::Enter => {
                    let i = self.ws.model.entity_index(&from);
                    if self.decide(
                        SessionAction::Merge {
                            from,
                            into: into.clone(),
                        },
                        None,
                        i,
                    ) {
                        if let Some(j) = self.ws.model.entity_index(&into) {
                            self.ui.masks.select_item(j);
                        }
                        self.info("merged (u undoes)".into());
                    }
                }
                _ => self.info("merge cancelled".into()),
            },
            Layer::ConfirmBulk { entities } => match key.code {
                KeyCode::Char('y') | KeyCode::Enter => self.bulk_accept(&entities),
                _ => self.info("bulk accept cancelled".into()),
            },
            Layer::Export(mut dialog) => {
                match key.code {
                    KeyCode::Esc => return,
                    KeyCode::Tab | KeyCode::Down => {
                        dialog.field = match dialog.field {
                            ExportField::Folder => ExportField::Mode,
                            ExportField::Mode => ExportField::RequireReviewed,
                            ExportField::RequireReviewed => ExportField::Folder,
                        };
                    }
                    KeyCode::BackTab | KeyCode::Up => {
                        dialog.field = match dialog.field {
                            ExportField::Folder => ExportField::RequireReviewed,
                            ExportField::Mode => ExportField::Folder,
                            ExportField::RequireReviewed => ExportField::Mode,
                        };
                    }
                    KeyCode::Enter => {
                        let folder = dialog.folder.lines().join("");
                        dialog.outcome =
                            Some(self.run_export(&folder, dialog.mode, dialog.require_reviewed));
                    }
                    KeyCode::Left | KeyCode::Right | KeyCode::Char(' ')
                        if dialog.field != ExportField::Folder =>
                    {
                        if dialog.field == ExportField::Mode {
                            const MODES: [Mode; 4] =
                                [Mode::Redact, Mode::Value, Mode::Pseudonym, Mode::Generalize];
                            let i = MODES.iter().position(|m| *m == dialog.mode).unwrap_or(0);
                            let next = if key.code == KeyCode::Left {
                                i + 3
                            } else {
                                i + 1
                            };
                            dialog.mode = MODES[next % 4];
                        } else {
                            dialog.require_reviewed = !dialog.require_reviewed;
                        }
                    }
                    _ if dialog.field == ExportField::Folder => {
                        dialog.folder.input(key);
                    }
                    _ => {}
                }
                self.layers.push(Layer::Export(dialog));
            }
        }
    }

    /// Header figures: chains per category before (pre) and after the plan.
    pub fn chain_counts(&self) -> [(usize, usize); 3] {
        let mut out = [(0, 0); 3];
        for c in &self.ws.plan.chains {
            let slot = |cat: RiskCategory| match cat {
                RiskCategory::High => 0,
                RiskCategory::Medium => 1,
                RiskCategory::Low => 2,
            };
            out[slot(c.category_pre)].0 += 1;
            out[slot(c.category_final)].1 += 1;
        }
        out
    }

    /// Masked entities that are reviewed (accepted, overridden or pinned).
    pub fn reviewed_masks(&self) -> (usize, usize) {
        let masked = self.ws.masked_indices();
        let total = masked.len();
        (total - self.unreviewed_masks(), total)
    }

    /// Keeps the scroll offsets the last draw settled on.
    pub fn set_rects(&mut self, rects: Rects) {
        for (pane, _, offset) in &rects.list_body {
            if let Some(list) = self.ui.list_mut(*pane) {
                list.offset = *offset;
            }
        }
        self.ui.doc_scroll = rects.doc_scroll;
        self.ui.doc_follow = false;
        self.ui.doc_search_jump = false;
        self.rects = rects;
    }
}
