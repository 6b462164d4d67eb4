//! The redaction set: every entity the plan masks and every mask pruning released
//! (or, toggled, every entity) with type, value, documents, s_e, stage and review
//! state; the selected row's provenance is spelled out under the table.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, Wrap};

use crate::plan::{Provenance, ProvenanceText};
use crate::workspace::ReviewState;

use super::super::app::{App, review_label};
use super::super::sanitize;
use super::super::state::Pane;
use super::{fit, pane_block};

fn stage(p: &Provenance) -> &'static str {
    match p {
        Provenance::Masked { stage, .. } => stage.as_str(),
        Provenance::KeptPruned { .. } => "released",
        Provenance::KeptForced => "kept:forced",
        Provenance::KeptNeverMask => "kept:never",
        Provenance::KeptNotNeeded { .. } => "kept",
    }
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App, focused: bool) -> (Rect, usize) {
    let t = &app.theme;
    let list = &app.ui.masks;
    let mut extra = if app.ui.show_all_entities {
        format!("{} all entities", list.rows.len())
    } else {
        // The default list: the masks, and the masks pruning released (kept).
        let released = list
            .rows
            .iter()
            .filter(|&&i| app.ws.plan().is_released(i))
            .count();
        let mut s = format!("{} masked", list.rows.len() - released);
        if released > 0 {
            s.push_str(&format!(" · {released} released"));
        }
        s
    };
    // Decisions on entities no longer in the corpus (kept; see `clam analyze`).
    let orphaned = app.views.orphaned;
    if orphaned > 0 {
        extra.push_str(&format!(" · {orphaned} orphaned"));
    }
    if !list.filter.is_empty() {
        extra.push_str(&format!(" /{}", sanitize::line(&list.filter)));
    }
    let block = pane_block(&super::titled(app, Pane::Masks), &extra, focused, t);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let [table_area, detail_area] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(2)]).areas(inner);
    let body_height = table_area.height.saturating_sub(1) as usize;
    let (start, end) = list.window(body_height);
    let wide = table_area.width >= 70;
    let an = app.ws.analysis();
    // The value column's width: what the fixed columns and the spaces between leave.
    let fixed = 12 + 4 + 4 + 10 + if wide { 11 } else { 0 };
    let gaps = if wide { 5 } else { 4 };
    let value_width = (table_area.width as usize).saturating_sub(fixed + gaps);
    let rows: Vec<Row> = list.rows[start..end]
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let e = &app.ws.model().entities[i];
            let review = app
                .views
                .review
                .get(i)
                .copied()
                .unwrap_or(ReviewState::Proposed);
            let review_style = match review {
                ReviewState::Proposed => t.muted(),
                ReviewState::Stale => t.error(),
                _ => t.ok(),
            };
            let masked = app.ws.plan().masked[i];
            let mut cells = vec![
                Cell::from(Span::styled(
                    fit(&e.entity_type, 12),
                    t.entity(&e.entity_type, masked),
                )),
                Cell::from(fit(&sanitize::line(&e.value), value_width)),
                Cell::from(format!("{}", an.entity_docs[i].len())),
                Cell::from(format!("{:.2}", an.global_contribution[i])),
            ];
            if wide {
                cells.push(Cell::from(stage(&app.ws.plan().provenance[i])));
            }
            cells.push(Cell::from(Span::styled(review_label(review), review_style)));
            let mut style = t.text();
            if start + k == list.selected {
                style = style.patch(t.selection(focused));
            }
            Row::new(cells).style(style)
        })
        .collect();
    let mut widths = vec![
        Constraint::Length(12),
        Constraint::Fill(1),
        Constraint::Length(4),
        Constraint::Length(4),
    ];
    let mut header = vec!["type", "value", "docs", "s_e"];
    if wide {
        widths.push(Constraint::Length(11));
        header.push("stage");
    }
    widths.push(Constraint::Length(10));
    header.push("review");
    frame.render_widget(
        Table::new(rows, widths)
            .header(Row::new(header).style(t.muted()))
            .column_spacing(1),
        table_area,
    );
    let detail = match list.current() {
        Some(i) => {
            let text = ProvenanceText {
                provenance: &app.ws.plan().provenance[i],
                model: app.ws.model(),
                analysis: an,
                theta_doc: app.ws.config().plan.theta_doc,
            }
            .to_string();
            // The full value and its forms as written in the documents, then why.
            let e = &app.ws.model().entities[i];
            let written: Vec<String> = app
                .ws
                .globals()
                .get(&e.id)
                .map(|g| g.originals.iter().map(|o| sanitize::line(o)).collect())
                .unwrap_or_default();
            let mut spans = vec![Span::styled(sanitize::line(&e.value), t.text())];
            if !written.is_empty() {
                spans.push(Span::styled(
                    format!(" · written {}", written.join(" | ")),
                    t.muted(),
                ));
            }
            spans.push(Span::styled(
                format!(" · {}", sanitize::line(&text)),
                t.muted(),
            ));
            if let Some(reason) = app.ws.state().reasons.get(&e.id) {
                spans.push(Span::styled(
                    format!(" · reason: {}", sanitize::line(reason)),
                    t.accent(),
                ));
            }
            Line::from(spans)
        }
        None => Line::from(Span::styled(
            if app.ws.model().entities.is_empty() {
                "no entities yet"
            } else {
                "nothing listed (t shows every entity, Esc clears the filter)"
            },
            t.muted(),
        )),
    };
    frame.render_widget(
        Paragraph::new(detail).wrap(Wrap { trim: true }),
        detail_area,
    );
    let body = Rect {
        y: table_area.y + 1,
        height: table_area.height.saturating_sub(1),
        ..table_area
    };
    (body, start)
}
