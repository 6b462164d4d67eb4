//! Popups drawn over the panes, topmost last: help (generated from the keymap), the
//! reasons for overrides and accepted residuals (a ratatui-textarea), list filters,
//! the confirmations (bulk accept, merge, corpus-wide removal) and the export dialog.

mod export;
mod help;

use ratatui::Frame;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::super::app::{App, Confirm, Layer, ReasonFor, TypePurpose};
use super::super::sanitize;
use super::super::theme::Theme;
use ratatui::style::Style;

/// A centred rectangle of at most `w`×`h` inside `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let [v] = Layout::vertical([Constraint::Length(h.min(area.height))])
        .flex(Flex::Center)
        .areas(area);
    let [r] = Layout::horizontal([Constraint::Length(w.min(area.width))])
        .flex(Flex::Center)
        .areas(v);
    r
}

fn popup_block<'a>(title: &str, theme: &Theme) -> Block<'a> {
    Block::bordered()
        .border_style(theme.border(true))
        .title(Span::styled(format!(" {title} "), theme.accent()))
}

/// Draws the layers; returns how far the help can scroll at this size (0 when it is
/// not open), which the app keeps to bound its scrolling.
pub fn draw(frame: &mut Frame, area: Rect, app: &App) -> usize {
    let mut help_max = 0;
    let t = &app.theme;
    for layer in &app.layers {
        match layer {
            Layer::Help { scroll } => help_max = help::draw(frame, area, app, *scroll),
            Layer::Problems => draw_problems(frame, area, app),
            Layer::Reason {
                input,
                error,
                purpose,
            } => {
                let prompt = prompt_line(t, "Why? (recorded in the audit log)", error.as_deref());
                let title = match purpose {
                    ReasonFor::Override { mask, .. } => {
                        format!(
                            "Override: {} this entity",
                            if *mask { "mask" } else { "keep" }
                        )
                    }
                    ReasonFor::Residual { documents } if documents.len() == 1 => {
                        format!(
                            "Accept the residual risk of {}",
                            sanitize::line(&documents[0])
                        )
                    }
                    ReasonFor::Residual { documents } => format!(
                        "Accept the residual risk of chain {}",
                        sanitize::line(&documents.join(" → "))
                    ),
                };
                text_popup(
                    frame,
                    area,
                    t,
                    &title,
                    prompt,
                    input,
                    ((64, 9), "Enter save"),
                );
            }
            Layer::Search { pane, input } => {
                let r = Rect {
                    y: area.bottom().saturating_sub(4),
                    height: 3.min(area.height),
                    ..centered(area, 60, 3)
                };
                frame.render_widget(Clear, r);
                let mut input = input.clone();
                input.set_block(popup_block(&format!("Filter {}", pane.title()), t));
                input.set_style(t.text());
                frame.render_widget(&input, r);
            }
            Layer::Confirm(c) => {
                let name = |id: &str| {
                    app.ws
                        .store()
                        .keys
                        .get(id)
                        .map(|k| format!("{} {:?}", k.entity_type, sanitize::line(&k.normalized)))
                        .unwrap_or_default()
                };
                let (title, question, yes) = match c {
                    Confirm::Bulk { entities } => (
                        "Bulk accept",
                        format!(
                            "Accept the proposal for {} listed entit{}?",
                            entities.len(),
                            if entities.len() == 1 { "y" } else { "ies" }
                        ),
                        "accept",
                    ),
                    Confirm::Merge { from, into } => (
                        "Merge entities",
                        format!("Merge {} into {}?", name(from), name(into)),
                        "merge",
                    ),
                    Confirm::ExportWithWhatIf { pending } => (
                        "Export with a what-if change pending",
                        format!(
                            "What-if changes are not adopted: {}. y adopts them and exports that plan; n exports the reviewed plan.",
                            sanitize::line(&pending.join(", "))
                        ),
                        "adopt and export",
                    ),
                    Confirm::UndoEarlier { seq, what } => (
                        "Undo an earlier review's decision",
                        format!(
                            "Decision #{seq} was taken before this review opened the session: {}. Revert it?",
                            sanitize::line(what)
                        ),
                        "revert",
                    ),
                    Confirm::RemoveEverywhere { entity } => {
                        let docs = app.ws.globals().get(entity).map_or(0, |g| g.docs.len());
                        (
                            "Remove everywhere",
                            format!(
                                "Remove {} from all {docs} document(s)? It stops counting as an entity anywhere in the corpus.",
                                name(entity)
                            ),
                            "remove",
                        )
                    }
                };
                let r = centered(area, 64, 6);
                frame.render_widget(Clear, r);
                let text = vec![
                    Line::from(Span::styled(question, t.text())),
                    Line::from(Span::styled(
                        format!("y {yes} · any other key cancels"),
                        t.muted(),
                    )),
                ];
                frame.render_widget(
                    Paragraph::new(text)
                        .wrap(Wrap { trim: true })
                        .block(popup_block(title, t)),
                    r,
                );
            }
            Layer::Export(dialog) => export::draw(frame, area, app, dialog),
            Layer::AddText { input, error, .. } => {
                let prompt = prompt_line(
                    t,
                    "Text to mark (its first whole-word occurrence):",
                    error.as_deref(),
                );
                text_popup(
                    frame,
                    area,
                    t,
                    "New entity",
                    prompt,
                    input,
                    ((64, 7), "Enter choose the type"),
                );
            }
            Layer::TypePicker {
                types,
                selected,
                purpose,
            } => {
                // A new entity also shows its relevance (typed digits; empty is 1.0).
                let relevance = match purpose {
                    TypePurpose::Add { relevance, .. } => Some(relevance),
                    TypePurpose::Retype { .. } => None,
                };
                let extra = u16::from(relevance.is_some());
                let h = (types.len() as u16 + 2 + extra).min(area.height);
                let r = centered(area, 34, h);
                frame.render_widget(Clear, r);
                let block = popup_block("Entity type", t);
                let mut inner = block.inner(r);
                frame.render_widget(block, r);
                if let Some(text) = relevance {
                    let [list, line] =
                        Layout::vertical([Constraint::Fill(1), Constraint::Length(1)]).areas(inner);
                    inner = list;
                    let span = if text.is_empty() {
                        Span::styled("relevance 1.0 · type 0–1 to set", t.muted())
                    } else if super::super::app::parse_relevance(text).is_ok() {
                        Span::styled(format!("relevance {text}"), t.accent())
                    } else {
                        Span::styled(format!("relevance {text}: not in [0, 1]"), t.error())
                    };
                    frame.render_widget(Paragraph::new(span), line);
                }
                let visible = inner.height as usize;
                let start = (*selected + 1).saturating_sub(visible);
                let lines: Vec<Line> = types
                    .iter()
                    .enumerate()
                    .skip(start)
                    .take(visible)
                    .map(|(i, ty)| {
                        let mut style = Style::new().fg(t.type_color(ty));
                        if i == *selected {
                            style = style.patch(t.selection(true));
                        }
                        Line::from(Span::styled(
                            format!("{}{ty}", if i == *selected { "▶ " } else { "  " }),
                            style,
                        ))
                    })
                    .collect();
                frame.render_widget(Paragraph::new(lines), inner);
            }
            Layer::GoldNote { documents, input } => {
                let what = format!("Note on the gold chain {}", documents.join(" + "));
                let prompt = prompt_line(t, &sanitize::line(&what), None);
                text_popup(
                    frame,
                    area,
                    t,
                    "Gold chain note",
                    prompt,
                    input,
                    ((76, 7), "Enter save"),
                );
            }
            Layer::GoldImport { input, error } => {
                let prompt = prompt_line(
                    t,
                    "Gold file: gold_chains.json / thesis gold.json (links) or devset gold.json",
                    error.as_deref(),
                );
                text_popup(
                    frame,
                    area,
                    t,
                    "Import gold chains",
                    prompt,
                    input,
                    ((76, 7), "Enter save"),
                );
            }
            Layer::WhatIf {
                purpose,
                input,
                error,
            } => {
                use super::super::app::WhatIfInput;
                let (title, ask) = match purpose {
                    WhatIfInput::Value(p) => (format!("What-if: {p}"), "Value:".to_string()),
                    WhatIfInput::Range(p) => (
                        format!("Sweep {p}"),
                        "From, to and step (e.g. 0 1 0.05):".to_string(),
                    ),
                };
                let prompt = prompt_line(t, &ask, error.as_deref());
                text_popup(
                    frame,
                    area,
                    t,
                    &title,
                    prompt,
                    input,
                    ((64, 7), "Enter apply"),
                );
            }
        }
    }
    help_max
}

/// A popup's prompt line: the error of the last attempt (sanitized: it may quote
/// what was typed) in the error style, else the question.
fn prompt_line(t: &Theme, ask: &str, error: Option<&str>) -> Line<'static> {
    match error {
        Some(e) => Line::from(Span::styled(sanitize::line(e), t.error())),
        None => Line::from(Span::styled(ask.to_string(), t.text())),
    }
}

/// A text field under a prompt, with the Enter / Esc hint, in a popup of `size`
/// (width, height; 7 rows leave the field one line).
/// The input files the loader skipped (which, why) and the workspace's and the
/// plan's warnings: what the header counts, spelled out.
fn draw_problems(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let ws = &app.ws;
    let mut lines: Vec<Line> = Vec::new();
    let skipped = &ws.corpus().diagnostics;
    lines.push(Line::from(Span::styled(
        format!("{} input file(s) skipped", skipped.len()),
        t.accent(),
    )));
    for d in skipped {
        lines.push(Line::from(Span::styled(
            format!("  {}", sanitize::line(&d.to_string())),
            t.text(),
        )));
    }
    let not_read = &ws.corpus().not_read;
    if !not_read.is_empty() {
        lines.push(Line::from(""));
        lines.push(Line::from(Span::styled(
            format!("{} file(s) not read (not documents)", not_read.len()),
            t.accent(),
        )));
        for d in not_read {
            lines.push(Line::from(Span::styled(
                format!("  {}", sanitize::line(&d.to_string())),
                t.muted(),
            )));
        }
    }
    let warnings: Vec<&String> = ws.warnings().iter().chain(&ws.plan().warnings).collect();
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        format!("{} warning(s)", warnings.len()),
        t.accent(),
    )));
    for w in warnings {
        lines.push(Line::from(Span::styled(
            format!("  {}", sanitize::line(w)),
            t.text(),
        )));
    }
    let w = area.width.saturating_sub(4).min(120);
    let h = area.height.saturating_sub(2);
    let r = centered(area, w, h);
    let inner_h = h.saturating_sub(3) as usize;
    if lines.len() > inner_h && inner_h > 0 {
        let more = lines.len() - inner_h + 1;
        lines.truncate(inner_h - 1);
        lines.push(Line::from(Span::styled(
            format!("… and {more} more line(s): clam analyze lists them all"),
            t.muted(),
        )));
    }
    lines.push(Line::from(Span::styled("any key closes", t.muted())));
    frame.render_widget(Clear, r);
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(popup_block("Skipped input and warnings", t)),
        r,
    );
}

fn text_popup(
    frame: &mut Frame,
    area: Rect,
    t: &Theme,
    title: &str,
    prompt: Line,
    input: &ratatui_textarea::TextArea<'static>,
    ((width, height), enter): ((u16, u16), &str),
) {
    let r = centered(area, width, height);
    frame.render_widget(Clear, r);
    let block = popup_block(title, t);
    let inner = block.inner(r);
    frame.render_widget(block, r);
    let [msg, field, hint] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    frame.render_widget(Paragraph::new(prompt), msg);
    let mut input = input.clone();
    input.set_block(Block::bordered().border_style(t.border(false)));
    input.set_style(t.text());
    frame.render_widget(&input, field);
    frame.render_widget(
        Paragraph::new(Span::styled(format!("{enter} · Esc cancel"), t.muted())),
        hint,
    );
}
