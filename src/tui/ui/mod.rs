//! Drawing: one module per pane plus popups. Draw functions read the app and the
//! theme and return nothing but pixels (and the rectangles they used, which the app
//! keeps for mouse hit-testing). Every colour comes from the theme.

mod chains;
mod document;
mod documents;
mod gold;
mod graph;
mod header;
mod masks;
pub mod popups;
mod whatif;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Modifier;
use ratatui::text::{Line, Span};
use ratatui::widgets::Block;

use super::app::{App, Rects};
use super::state::Pane;
use super::theme::Theme;

/// Panes side by side need this much room; below it the document list shares the
/// screen with the focused pane.
pub const WIDE: (u16, u16) = (140, 40);

/// Draws the whole screen; returns the rectangles used.
pub fn draw(frame: &mut Frame, app: &App) -> Rects {
    let area = frame.area();
    let [head, body, status] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(area);
    header::draw(frame, head, app);
    let mut rects = Rects {
        doc_scroll: app.ui.doc_scroll,
        ..Rects::default()
    };
    let placement: Vec<(Pane, Rect)> = if area.width >= WIDE.0 && area.height >= WIDE.1 {
        let [left, middle, right] = Layout::horizontal([
            Constraint::Percentage(28),
            Constraint::Percentage(37),
            Constraint::Percentage(35),
        ])
        .areas(body);
        let [docs, graph] =
            Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(left);
        let [masks, chains] =
            Layout::vertical([Constraint::Percentage(50), Constraint::Percentage(50)]).areas(right);
        // The what-if and gold panes take the document view's place while focused.
        let centre = if matches!(app.ui.focus, Pane::WhatIf | Pane::Gold) {
            app.ui.focus
        } else {
            Pane::Document
        };
        vec![
            (Pane::Documents, docs),
            (Pane::Graph, graph),
            (centre, middle),
            (Pane::Masks, masks),
            (Pane::Chains, chains),
        ]
    } else {
        let list_width = (body.width * 2 / 5).min(40);
        let [left, right] =
            Layout::horizontal([Constraint::Length(list_width), Constraint::Fill(1)]).areas(body);
        vec![(Pane::Documents, left), (app.ui.detail, right)]
    };
    for (pane, rect) in &placement {
        let focused = app.ui.focus == *pane;
        match pane {
            Pane::Documents => {
                let (body, offset) = documents::draw(frame, *rect, app, focused);
                rects.list_body.push((*pane, body, offset));
            }
            Pane::Masks => {
                let (body, offset) = masks::draw(frame, *rect, app, focused);
                rects.list_body.push((*pane, body, offset));
            }
            Pane::Chains => {
                let (body, offset) = chains::draw(frame, *rect, app, focused);
                rects.list_body.push((*pane, body, offset));
            }
            Pane::Document => {
                let drawn = document::draw(frame, *rect, app, focused);
                rects.doc_scroll = drawn.scroll;
                rects.mentions = drawn.mentions;
                rects.doc_chars = drawn.chars;
            }
            Pane::Graph => rects.graph = Some(graph::draw(frame, *rect, app, focused)),
            Pane::Gold => {
                let (body, offset) = gold::draw(frame, *rect, app, focused);
                rects.list_body.push((*pane, body, offset));
            }
            Pane::WhatIf => whatif::draw(frame, *rect, app, focused),
        }
    }
    rects.panes = placement;
    header::draw_status(frame, status, app);
    rects.help_max_scroll = popups::draw(frame, area, app);
    rects
}

/// A pane's frame: the focused one has a bold coloured border and a ▶ marker, so
/// focus is visible with and without colour.
pub fn pane_block<'a>(title: &str, extra: &str, focused: bool, theme: &Theme) -> Block<'a> {
    let marker = if focused { "▶ " } else { "" };
    let mut title_style = theme.border(focused);
    if focused {
        title_style = title_style.add_modifier(Modifier::BOLD);
    }
    let mut spans = vec![Span::styled(format!(" {marker}{title} "), title_style)];
    if !extra.is_empty() {
        spans.push(Span::styled(format!("{extra} "), theme.muted()));
    }
    Block::bordered()
        .border_style(theme.border(focused))
        .title(Line::from(spans))
}

pub use super::sanitize::fit;

/// A pane's title with the key that focuses it, lazygit style: "[3] Redaction set"
/// (the keymap's key, so a remapped key shows as remapped).
fn titled(app: &App, pane: Pane) -> String {
    match app.keymap.key_for(pane, pane.focus_action()) {
        Some(k) => format!("[{k}] {}", pane.title()),
        None => pane.title().to_string(),
    }
}

/// The configured risk thresholds (high, medium) that [`Theme::risk`] colours by.
fn risk_bands(app: &App) -> (f64, f64) {
    let plan = &app.ws.config().plan;
    (plan.risk_high, plan.risk_medium)
}

/// `0.93` style risk text.
pub fn risk_text(r: f64) -> String {
    format!("{r:.2}")
}
