//! The document list: id, format, risk before → after (residual documents marked
//! `!`, or `✓` once their risk is accepted), review status. Only the
//! visible window of rows is built, so the cost per frame does not grow with the
//! corpus. Documents of the selected chain are highlighted.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Row, Table};

use super::super::app::App;
use super::super::sanitize;
use super::super::state::{DocSort, Pane};
use super::{fit, pane_block, risk_bands, risk_text};
use crate::workspace::ReviewState;

/// The format column: the document's `metadata.format` when it has one, else the
/// file extension.
fn format_of(doc: &crate::corpus::Document) -> String {
    match doc.metadata.get("format").as_ref().and_then(|v| v.as_str()) {
        Some(f) => sanitize::line(f),
        None => std::path::Path::new(&doc.source.rel_path)
            .extension()
            .map(|e| sanitize::line(&e.to_string_lossy()))
            .unwrap_or_default(),
    }
}

/// Review status of a document: its masked entities reviewed / all.
fn review_status(app: &App, model_doc: usize) -> (usize, usize) {
    let mut total = 0;
    let mut reviewed = 0;
    for &(e, _) in &app.ws.model().docs[model_doc].entities {
        let e = e as usize;
        if app.ws.plan().masked[e] {
            total += 1;
            if !matches!(
                app.views.review.get(e),
                Some(ReviewState::Proposed | ReviewState::Stale) | None
            ) {
                reviewed += 1;
            }
        }
    }
    (reviewed, total)
}

/// Draws the list; returns the rectangle of the first data row onwards and the
/// first visible row.
pub fn draw(frame: &mut Frame, area: Rect, app: &App, focused: bool) -> (Rect, usize) {
    let t = &app.theme;
    let list = &app.ui.documents;
    let sort = match app.ui.doc_sort {
        DocSort::Id => "by id",
        DocSort::Risk => "by risk",
    };
    // The filter before the sort: in a narrow pane the title is cut at its end.
    let extra = if list.filter.is_empty() {
        format!("{} {sort}", list.rows.len())
    } else {
        format!(
            "{} /{} {sort}",
            list.rows.len(),
            sanitize::line(&list.filter)
        )
    };
    let block = pane_block(&super::titled(app, Pane::Documents), &extra, focused, t);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let body_height = inner.height.saturating_sub(1) as usize;
    let (start, end) = list.window(body_height);
    let chain_docs: Vec<usize> = app
        .selected_chain()
        .map(|c| {
            app.ws.analysis().chains[c]
                .docs()
                .iter()
                .map(|&d| app.ws.model().docs[d as usize].corpus_index)
                .collect()
        })
        .unwrap_or_default();
    let show_format = inner.width >= 48;
    let id_width = inner
        .width
        .saturating_sub(if show_format { 30 } else { 16 }) as usize;
    let (high, medium) = risk_bands(app);
    let rows: Vec<Row> = list.rows[start..end]
        .iter()
        .enumerate()
        .map(|(k, &i)| {
            let doc = &app.ws.corpus().documents[i];
            let model = app.views.model_of_doc.get(i).copied().flatten();
            let risk = match model {
                Some(m) => {
                    let (b, a) = (
                        app.ws.analysis().doc_risk_initial[m],
                        app.ws.plan().doc_risk_final[m],
                    );
                    // A residual document: ! until its risk is accepted, then ✓.
                    let residual = if app
                        .ws
                        .plan()
                        .residual_docs
                        .binary_search(&(m as u32))
                        .is_err()
                    {
                        Span::raw("")
                    } else if app.ws.residual_accepted(std::slice::from_ref(&doc.id)) {
                        Span::styled("✓", t.ok())
                    } else {
                        Span::styled("!", t.error())
                    };
                    Line::from(vec![
                        Span::styled(risk_text(b), t.risk(b, high, medium)),
                        Span::styled("→", t.muted()),
                        Span::styled(risk_text(a), t.risk(a, high, medium)),
                        residual,
                    ])
                }
                None => Line::from(Span::styled("pending", t.muted())),
            };
            let status = match model.map(|m| review_status(app, m)) {
                None => Span::styled("…", t.muted()),
                Some((_, 0)) => Span::styled("—", t.muted()),
                Some((r, n)) if r == n => Span::styled("✓", t.ok()),
                Some((r, n)) => Span::styled(format!("{r}/{n}"), t.text()),
            };
            let mut cells = vec![Cell::from(fit(&sanitize::line(&doc.id), id_width))];
            if show_format {
                cells.push(Cell::from(fit(&format_of(doc), 12)));
            }
            cells.push(Cell::from(risk));
            cells.push(Cell::from(status));
            let mut style = t.text();
            if chain_docs.contains(&i) {
                style = style.patch(t.linked());
            }
            if start + k == list.selected {
                style = style.patch(t.selection(focused));
            }
            Row::new(cells).style(style)
        })
        .collect();
    let mut widths = vec![Constraint::Fill(1)];
    let mut header = vec!["document"];
    if show_format {
        widths.push(Constraint::Length(12));
        header.push("format");
    }
    widths.extend([Constraint::Length(10), Constraint::Length(5)]);
    header.extend(["risk", "rev"]);
    let table = Table::new(rows, widths)
        .header(Row::new(header).style(t.muted()))
        .column_spacing(1);
    frame.render_widget(table, inner);
    let body = Rect {
        y: inner.y + 1,
        height: inner.height.saturating_sub(1),
        ..inner
    };
    (body, start)
}
