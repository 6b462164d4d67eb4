//! Keys while a popup is open: the topmost layer gets them all, so typing a reason
//! or a filter never triggers a command.

use crossterm::event::{KeyCode, KeyEvent};

use super::super::state::{ExportField, Pane};
use super::{App, Confirm, ExportOutcome, Layer, ReasonFor, TypePurpose};

impl App {
    pub(super) fn popup_key(&mut self, key: KeyEvent) {
        let Some(layer) = self.layers.pop() else {
            return;
        };
        let ctrl_c = key.code == KeyCode::Char('c')
            && key
                .modifiers
                .contains(crossterm::event::KeyModifiers::CONTROL);
        if ctrl_c {
            // Inside a text field Ctrl-C cancels the field, as in a shell's prompt; an
            // export that runs keeps its dialog. Elsewhere it quits.
            match layer {
                Layer::Export(d)
                    if matches!(
                        d.outcome,
                        Some(ExportOutcome::Running | ExportOutcome::Exporting)
                    ) =>
                {
                    self.layers.push(Layer::Export(d));
                }
                l if l.is_text_field() => self.info("cancelled: nothing recorded".into()),
                _ => self.quit = true,
            }
            return;
        }
        match layer {
            Layer::Help { scroll } => {
                // j / k and the page keys scroll; any other key closes it.
                let page = 10;
                let scroll = match key.code {
                    KeyCode::Char('j') | KeyCode::Down => Some(scroll + 1),
                    KeyCode::Char('k') | KeyCode::Up => Some(scroll.saturating_sub(1)),
                    KeyCode::PageDown | KeyCode::Char(' ') => Some(scroll + page),
                    KeyCode::PageUp => Some(scroll.saturating_sub(page)),
                    _ => None,
                };
                if let Some(scroll) = scroll {
                    // Bounded by what the last draw could show (see `Rects`).
                    self.layers.push(Layer::Help {
                        scroll: scroll.min(self.rects.help_max_scroll),
                    });
                }
            }
            Layer::Problems => {
                // Any key closes it.
            }
            Layer::Reason {
                purpose, mut input, ..
            } => match key.code {
                KeyCode::Esc => self.info("cancelled: nothing recorded".into()),
                KeyCode::Enter => {
                    let reason = input.lines().join("\n");
                    let done = match &purpose {
                        ReasonFor::Override { entity, mask } => {
                            self.submit_override(entity.clone(), *mask, &reason)
                        }
                        ReasonFor::Residual { documents } => {
                            self.submit_residual(documents.clone(), &reason)
                        }
                    };
                    if let Err(msg) = done {
                        self.layers.push(Layer::Reason {
                            purpose,
                            input,
                            error: Some(msg),
                        });
                    }
                }
                _ => {
                    super::edit_line(&mut input, key);
                    self.layers.push(Layer::Reason {
                        purpose,
                        input,
                        error: None,
                    });
                }
            },
            Layer::Search { pane, mut input } => match key.code {
                KeyCode::Esc => {}
                KeyCode::Enter => {}
                _ => {
                    super::edit_line(&mut input, key);
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
                    Ok((start, end)) => self.pick_type_to_add(doc, start, end),
                    Err(msg) => self.layers.push(Layer::AddText {
                        doc,
                        input,
                        error: Some(msg),
                    }),
                },
                _ => {
                    super::edit_line(&mut input, key);
                    self.layers.push(Layer::AddText {
                        doc,
                        input,
                        error: None,
                    });
                }
            },
            Layer::TypePicker {
                mut purpose,
                types,
                mut selected,
            } => match key.code {
                KeyCode::Esc => {}
                KeyCode::Enter => {
                    let relevance = match &purpose {
                        TypePurpose::Add { relevance, .. } => {
                            super::decide::parse_relevance(relevance)
                        }
                        TypePurpose::Retype { .. } => Ok(None),
                    };
                    match (relevance, types.get(selected).cloned()) {
                        (Ok(_), Some(t)) => self.choose_type(purpose, t),
                        (Err(msg), _) => {
                            self.error(msg);
                            self.layers.push(Layer::TypePicker {
                                purpose,
                                types,
                                selected,
                            });
                        }
                        (Ok(_), None) => {}
                    }
                }
                code => {
                    match (code, &mut purpose) {
                        (KeyCode::Up | KeyCode::Char('k'), _) => {
                            selected = selected.saturating_sub(1)
                        }
                        (KeyCode::Down | KeyCode::Char('j'), _) => {
                            selected = (selected + 1).min(types.len().saturating_sub(1));
                        }
                        // A new entity's relevance: typed digits (empty means 1.0).
                        (
                            KeyCode::Char(c @ ('0'..='9' | '.')),
                            TypePurpose::Add { relevance, .. },
                        ) if relevance.len() < 8 => relevance.push(c),
                        (KeyCode::Backspace, TypePurpose::Add { relevance, .. }) => {
                            relevance.pop();
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
            Layer::WhatIf {
                purpose, mut input, ..
            } => match key.code {
                KeyCode::Esc => {}
                KeyCode::Enter => {
                    if let Err(msg) = self.submit_whatif(purpose, &input.lines().join(" ")) {
                        self.layers.push(Layer::WhatIf {
                            purpose,
                            input,
                            error: Some(msg),
                        });
                    }
                }
                _ => {
                    super::edit_line(&mut input, key);
                    self.layers.push(Layer::WhatIf {
                        purpose,
                        input,
                        error: None,
                    });
                }
            },
            Layer::GoldNote {
                documents,
                mut input,
            } => match key.code {
                KeyCode::Esc => self.info("note cancelled".into()),
                KeyCode::Enter => self.submit_gold_note(documents, &input.lines().join(" ")),
                _ => {
                    super::edit_line(&mut input, key);
                    self.layers.push(Layer::GoldNote { documents, input });
                }
            },
            Layer::GoldImport { mut input, .. } => match key.code {
                KeyCode::Esc => self.info("import cancelled".into()),
                KeyCode::Enter => {
                    if let Err(msg) = self.gold_import(&input.lines().join("")) {
                        self.layers.push(Layer::GoldImport {
                            input,
                            error: Some(msg),
                        });
                    }
                }
                _ => {
                    super::edit_line(&mut input, key);
                    self.layers.push(Layer::GoldImport { input, error: None });
                }
            },
            // Destructive: `y` only. Enter, the key that confirms everywhere else,
            // keeps the question open rather than acting on a reflex.
            Layer::Confirm(Confirm::ExportWithWhatIf { pending }) => match key.code {
                KeyCode::Char('y') => {
                    if self.adopt_candidate() {
                        self.open_export();
                    }
                }
                KeyCode::Char('n') => {
                    self.info(
                        "exporting the reviewed plan; the what-if change stays pending".into(),
                    );
                    self.open_export();
                }
                KeyCode::Enter => {
                    self.info("press y to adopt the what-if change and export it, n to export the reviewed plan".into());
                    self.layers
                        .push(Layer::Confirm(Confirm::ExportWithWhatIf { pending }));
                }
                _ => self.info("cancelled: nothing exported".into()),
            },
            Layer::Confirm(c) => match key.code {
                KeyCode::Char('y') => self.confirmed(c),
                KeyCode::Enter => {
                    self.info("press y to confirm; any other key cancels".into());
                    self.layers.push(Layer::Confirm(c));
                }
                _ => self.info("cancelled: nothing recorded".into()),
            },
            Layer::Export(dialog)
                if matches!(
                    dialog.outcome,
                    Some(ExportOutcome::Running | ExportOutcome::Exporting)
                ) =>
            {
                // The dialog waits for its export (the outcome lands in it).
                self.layers.push(Layer::Export(dialog));
            }
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
                        // Run by `run_pending` after a frame shows "exporting…".
                        dialog.outcome = Some(ExportOutcome::Running);
                    }
                    KeyCode::Left | KeyCode::Right | KeyCode::Char(' ')
                        if dialog.field != ExportField::Folder =>
                    {
                        if dialog.field == ExportField::Mode {
                            let step = if key.code == KeyCode::Left { -1 } else { 1 };
                            dialog.mode = super::next_mode(dialog.mode, step);
                        } else {
                            dialog.require_reviewed = !dialog.require_reviewed;
                        }
                    }
                    _ if dialog.field == ExportField::Folder => {
                        super::edit_line(&mut dialog.folder, key);
                    }
                    _ => {}
                }
                self.layers.push(Layer::Export(dialog));
            }
        }
    }
}
