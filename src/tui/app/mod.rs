//! The application state machine: the [`Workspace`] (which owns every number shown),
//! UI state, the popup stack, the extraction progress and the background [`Jobs`].
//! Keys become [`Action`]s through the keymap and `update` is the only place that
//! acts on them; every job's report comes back through [`App::on_job`]. Nothing here
//! touches a terminal, so the whole app is driven in tests by calling `handle_key`,
//! starting the same jobs `clam review` starts and pumping their reports
//! ([`App::wait_jobs`]), and drawing into a `TestBackend`.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use crossterm::event::{KeyEvent, KeyEventKind, MouseButton, MouseEvent, MouseEventKind};
use ratatui::layout::{Position, Rect};
use ratatui_textarea::TextArea;

use crate::analysis::RiskCategory;
use crate::redact::{Mode, Replacer};
use crate::workspace::{Needs, ReviewState, Workspace};

mod background;
mod decide;
mod effect;
mod export;
mod gold;
mod jobs;
mod mouse;
mod popups;
mod replan;
mod views;
mod whatif;

pub use decide::parse_relevance;
pub use effect::DecisionEffect;
pub use jobs::{JobEvent, JobKind, JobMsg, Jobs, Reporter};
pub use replan::{DeferReplans, ReplanTimes};
pub use whatif::{SweepView, WhatIf, WhatIfInput};

pub use gold::{GoldEval, GoldRow, GoldView};

use super::action::Action;
use super::graph::GraphLayout;
use super::keymap::{Key, Keymap};
use super::sanitize;
use super::state::{DocSelection, DocSort, ExportField, Pane, UiState};
use super::theme::Theme;

mod layers;
pub use layers::Confirm;
pub use layers::Layer;
pub use layers::ReasonFor;
pub use layers::TypePurpose;

/// Extraction progress for the header.
#[derive(Debug, Clone)]
pub struct Progress {
    pub total: usize,
    pub done: usize,
    pub failed: usize,
    /// Documents the LLM extractor left to the offline recognizers.
    pub fallbacks: usize,
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
    /// When it was set: messages expire ([`Message::LIFETIME`]), so old ones stop
    /// crowding the key hints off the status bar.
    pub at: Instant,
}

impl Message {
    /// How long a message stays: an error twice as long as a note.
    pub const LIFETIME: Duration = Duration::from_secs(6);

    fn expired(&self, now: Instant) -> bool {
        let life = if self.error {
            2 * Self::LIFETIME
        } else {
            Self::LIFETIME
        };
        now.saturating_duration_since(self.at) >= life
    }
}

/// What the export dialog shows after a run.
#[derive(Debug, Clone, PartialEq)]
pub enum ExportOutcome {
    /// Asked for; starts after the next frame (see [`App::run_pending`]).
    Running,
    /// Running as a job (its outcome comes back through [`App::on_job`]).
    Exporting,
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

/// The rectangles of the last draw, for mouse hit-testing, plus the scroll offsets
/// the draw settled on (kept so lists do not jump between frames).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rects {
    pub panes: Vec<(Pane, Rect)>,
    /// First data row of each list on screen, and the list's first visible row.
    pub list_body: Vec<(Pane, Rect, usize)>,
    pub doc_scroll: usize,
    /// Mentions on screen in the document view (rectangle, mention index).
    pub mentions: Vec<(Rect, usize)>,
    /// Visible characters of the document view (cell, document offset).
    pub doc_chars: Vec<(Rect, usize)>,
    pub graph: Option<Rect>,
    /// How far the help can scroll at the size it was drawn.
    pub help_max_scroll: usize,
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
    pub gold: GoldView,
    /// Residual documents and chains whose risk is not accepted yet.
    pub open_residuals: (usize, usize),
    /// Decisions on entities no longer in the corpus.
    pub orphaned: usize,
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
    /// How long installing the last extraction burst's plan took.
    pub last_replan: Duration,
    /// The what-if pane: candidate settings, their diff and the sweep chart.
    pub whatif: WhatIf,
    /// Gold persons and questions for the privacy and utility figures.
    pub gold_eval: Option<gold::GoldEval>,
    /// Background work: extraction, re-plans, what-if, sweeps, gold, export.
    pub jobs: Jobs,
    /// What the re-plan job running computes.
    replan_needs: Needs,
    /// When decisions re-plan off the UI thread.
    pub defer_replans: DeferReplans,
    pub replan_times: ReplanTimes,
    /// Inside a bulk decision: views are refreshed once at the end.
    batch: bool,
    project_key: Vec<u8>,
    /// The last decision and what it changed in the plan.
    pub effect: Option<effect::DecisionEffect>,
    /// The plan's facts before the decision whose re-plan is not installed yet.
    effect_before: Option<crate::plan::PlanFacts>,
}

/// The review word of an entity.
pub fn review_label(r: ReviewState) -> &'static str {
    match r {
        ReviewState::Proposed => "proposed",
        ReviewState::Accepted => "accepted",
        ReviewState::Stale => "stale",
        ReviewState::Overridden => "overridden",
        ReviewState::Pinned => "pinned",
    }
}

/// The redaction mode `step` places after `mode` (wrapping).
pub(super) fn next_mode(mode: crate::redact::Mode, step: isize) -> crate::redact::Mode {
    use crate::redact::Mode;
    const MODES: [Mode; 4] = [Mode::Redact, Mode::Value, Mode::Pseudonym, Mode::Generalize];
    let i = MODES.iter().position(|m| *m == mode).unwrap_or(0) as isize;
    MODES[(i + step).rem_euclid(4) as usize]
}

/// One key in a one-line text field, with readline's line keys: Ctrl-U deletes to
/// the start of the line (all of it from the end, where the cursor starts), Ctrl-K to
/// its end, Ctrl-W the word before the cursor, Ctrl-A / Ctrl-E move to the start / end.
/// The text area's own bindings do the rest (its Ctrl-U would undo).
pub(super) fn edit_line(input: &mut TextArea<'static>, key: crossterm::event::KeyEvent) {
    use crossterm::event::{KeyCode, KeyModifiers};
    use ratatui_textarea::CursorMove;
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        match key.code {
            KeyCode::Char('u') => {
                input.delete_line_by_head();
                return;
            }
            KeyCode::Char('k') => {
                input.delete_line_by_end();
                return;
            }
            KeyCode::Char('w') => {
                input.delete_word();
                return;
            }
            KeyCode::Char('a') => {
                input.move_cursor(CursorMove::Head);
                return;
            }
            KeyCode::Char('e') => {
                input.move_cursor(CursorMove::End);
                return;
            }
            _ => {}
        }
    }
    input.input(key);
}

pub(super) fn text_input(initial: &str) -> TextArea<'static> {
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
            .session()
            .and_then(|s| s.project_key().ok())
            .unwrap_or_default();
        let total = ws.corpus().documents.len();
        let done = ws.extracted_documents();
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
                fallbacks: 0,
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
            whatif: WhatIf::default(),
            jobs: Jobs::default(),
            replan_needs: Needs::Nothing,
            defer_replans: DeferReplans::default(),
            replan_times: ReplanTimes::default(),
            batch: false,
            gold_eval: None,
            project_key,
            effect: None,
            effect_before: None,
        };
        app.refresh();
        app.ui.open_doc = app.ui.documents.current();
        if let Some(holder) = app.ws.session().and_then(|s| s.held_by()) {
            app.error(format!(
                "read-only: {holder} holds this session; decisions cannot be saved until it is closed"
            ));
        }
        app
    }

    /// True once extraction and planning are finished and no decision re-plans.
    pub fn is_ready(&self) -> bool {
        self.progress.finished.is_some()
            && !self.jobs.is_running(JobKind::Extract)
            && !self.jobs.is_running(JobKind::Replan)
    }

    /// True while a re-plan, a what-if candidate or a sweep computes.
    pub fn recomputing(&self) -> bool {
        self.replanning() || self.whatif_busy()
    }

    /// Drops the status message once it is older than its lifetime (called on every
    /// tick of the event loop); true when one was dropped.
    pub fn expire_message(&mut self, now: Instant) -> bool {
        if self.message.as_ref().is_some_and(|m| m.expired(now)) {
            self.message = None;
            self.dirty = true;
            return true;
        }
        false
    }

    pub(super) fn error(&mut self, text: String) {
        self.message = Some(Message {
            text,
            error: true,
            at: Instant::now(),
        });
    }

    pub(super) fn info(&mut self, text: String) {
        self.message = Some(Message {
            text,
            error: false,
            at: Instant::now(),
        });
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
        let k = Key::from_event(&key);
        if let Some(action) = self.keymap.lookup(self.ui.focus, k) {
            self.update(action);
            self.measure_gold();
        } else {
            self.say_where_it_works(k);
        }
    }

    /// A key that does nothing in the focused pane says where it works, never
    /// nothing at all ("a accepts the proposal in the document and redaction set
    /// panes (2, 3)").
    fn say_where_it_works(&mut self, k: Key) {
        let places = self.keymap.elsewhere(k);
        let Some((_, first)) = places.first() else {
            return;
        };
        let panes: Vec<String> = places
            .iter()
            .filter_map(|(section, _)| Pane::ALL.iter().find(|p| p.key() == *section))
            .map(|p| match self.keymap.key_for(*p, p.focus_action()) {
                Some(n) => format!("{} ({n})", p.title()),
                None => p.title().to_string(),
            })
            .collect();
        let text = format!(
            "{} ({}) works in: {}; not in the {} pane",
            k.label(),
            first.desc,
            panes.join(", "),
            self.ui.focus.title()
        );
        self.info(text);
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
            Action::FocusGold => self.ui.focus(Pane::Gold),
            Action::FocusWhatIf => self.ui.focus(Pane::WhatIf),
            Action::Help => self.layers.push(Layer::Help { scroll: 0 }),
            Action::Problems => self.layers.push(Layer::Problems),
            Action::Back => {
                if let Some(list) = self.ui.list_mut(pane)
                    && !list.filter.is_empty()
                {
                    list.filter.clear();
                    self.refresh_rows();
                } else if pane == Pane::Document && self.ui.doc_selection.is_some() {
                    self.ui.doc_selection = None;
                } else if pane == Pane::Document && !self.ui.doc_search.is_empty() {
                    self.ui.doc_search.clear();
                } else if pane == Pane::Document {
                    self.ui.focus(Pane::Documents);
                } else if pane == Pane::Graph {
                    self.ui.gold_pending.clear();
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
                    Pane::WhatIf => self.whatif_moved(step),
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
            Action::CycleMode => {
                let mode = next_mode(self.ws.config().redact.mode, 1);
                let mut config = self.ws.config().clone();
                config.redact.mode = mode;
                match self.ws.set_config(config) {
                    Ok(()) => {
                        self.refresh();
                        self.ui.redacted_preview = true;
                        self.info(format!("redaction mode: {}", mode.as_str()));
                    }
                    Err(e) => self.error(format!("re-plan failed: {e}")),
                }
            }
            Action::ToggleAll => {
                self.ui.show_all_entities = !self.ui.show_all_entities;
                self.refresh_rows();
            }
            Action::Accept => self.accept(),
            Action::Override => self.start_override(),
            Action::Pin => self.pin(),
            Action::Undo => self.undo(),
            Action::BulkAccept => self.start_bulk_accept(),
            Action::Export => {
                // A what-if change is pending: export it or the reviewed plan?
                let pending = self.pending_whatif();
                if pending.is_empty() {
                    self.open_export();
                } else {
                    self.layers
                        .push(Layer::Confirm(Confirm::ExportWithWhatIf { pending }));
                }
            }
            Action::RemoveEntity => self.remove_entity(),
            Action::RemoveEverywhere => self.start_remove_everywhere(),
            Action::AcceptResidual => self.start_accept_residual(),
            Action::Retype => self.start_retype(),
            Action::AddEntity => self.start_add(),
            Action::Merge => self.merge(),
            Action::Gold => self.toggle_gold(),
            Action::GoldNote => self.start_gold_note(),
            Action::GoldPick => self.gold_pick(),
            Action::GoldImport => self.start_gold_import(),
            Action::StepDown => self.whatif_step(false, false),
            Action::StepUp => self.whatif_step(true, false),
            Action::CoarseDown => self.whatif_step(false, true),
            Action::CoarseUp => self.whatif_step(true, true),
            Action::TypeValue => self.whatif_type_value(),
            Action::Adopt => self.whatif_enter(),
            Action::ResetSettings => self.whatif_reset(),
            Action::ToggleSweep => self.whatif_toggle_sweep(),
            Action::SweepRange => self.whatif_edit_range(),
        }
    }

    /// After a list selection moved: the document view follows the document list.
    pub(super) fn after_move(&mut self, pane: Pane) {
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
                let Some(&first) = self.ws.analysis().entity_docs[e].first() else {
                    return;
                };
                let corpus = self.ws.model().docs[first as usize].corpus_index;
                self.select_document(corpus);
                let id = self.ws.model().entities[e].id.clone();
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
                let first = self.ws.analysis().chains[c].docs()[0] as usize;
                let corpus = self.ws.model().docs[first].corpus_index;
                self.select_document(corpus);
                self.ui.focus(Pane::Document);
            }
            Pane::Gold => self.open_gold_row(),
            Pane::Document | Pane::WhatIf => {}
        }
    }

    /// True when work waits for [`App::run_pending`] (an export was asked for).
    pub fn has_pending(&self) -> bool {
        matches!(
            self.layers.last(),
            Some(Layer::Export(d)) if d.outcome == Some(ExportOutcome::Running)
        )
    }

    /// Runs work the last key asked for and that takes long enough to deserve a
    /// frame saying so first: the loop draws, then calls this.
    pub fn run_pending(&mut self) {
        if !self.has_pending() {
            return;
        }
        let Some(Layer::Export(mut dialog)) = self.layers.pop() else {
            return;
        };
        let folder = dialog.folder.lines().join("");
        // Checks fail at once; the export itself runs on its own thread and stays
        // `Exporting` until the job's outcome comes back (`App::on_job`).
        dialog.outcome = Some(
            self.start_export(&folder, dialog.mode, dialog.require_reviewed)
                .unwrap_or(ExportOutcome::Exporting),
        );
        self.layers.push(Layer::Export(dialog));
        self.dirty = true;
    }
}
