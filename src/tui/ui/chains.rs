//! The chain risk table: every chain over kept edges, riskiest first, with its
//! documents, the entities that link them, risk initial / after the document stage /
//! final, and the category before → after. The selected chain's documents light up
//! in the document list.

use ratatui::Frame;
use ratatui::layout::{Constraint, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Row, Table};

use super::super::app::App;
use super::super::sanitize;
use super::super::state::Pane;
use super::pane_block;

pub fn draw(frame: &mut Frame, area: Rect, app: &App, focused: bool) -> (Rect, usize) {
    let t = &app.theme;
    let list = &app.ui.chains;
    let mut extra = format!(
        "{} · residual {}",
        list.rows.len(),
        app.ws.plan.residual_chains.len()
    );
    if !list.filter.is_empty() {
        extra.push_str(&format!(" /{}", sanitize::line(&list.filter)));
    }
    let block = pane_block(Pane::Chains.title(), &extra, focused, t);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    let body_height = inner.height.saturating_sub(1) as usize;
    let (start, end) = list.window(body_height);
    let an = &app.ws.analysis;
    let m = &app.ws.model;
    let (high, medium) = (app.ws.config.risk_high, app.ws.config.risk_medium);
    let wide = inner.width >= 70;
    let rows: Vec<Row> = list.rows[start..end]
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            let chain = &an.chains[c];
            let r = &app.ws.plan.chains[c];
            let docs: Vec<String> = chain
                .docs
                .iter()
                .map(|&d| sanitize::line(&m.docs[d as usize].id))
                .collect();
            let mut via: Vec<String> = chain
                .hops
                .iter()
                .flat_map(|&h| an.edges[h as usize].via.iter().map(|(e, _)| *e as usize))
                .map(|e| {
                    let ent = &m.entities[e];
                    let mark = if app.ws.plan.masked[e] { "▇" } else { "" };
                    format!("{mark}{}", sanitize::line(&ent.value))
                })
                .collect();
            via.dedup();
            let risk = |x: f64| Span::styled(format!("{x:.2}"), t.risk(x, high, medium));
            let mut cells = vec![Cell::from(docs.join("→"))];
            if wide {
                cells.push(Cell::from(via.join(", ")));
            }
            cells.extend([
                Cell::from(risk(r.risk_initial)),
                Cell::from(risk(r.risk_pre)),
                Cell::from(risk(r.risk_final)),
                Cell::from(Line::from(vec![
                    Span::styled(
                        &r.category_pre.as_str()[..1],
                        t.risk(r.risk_pre, high, medium),
                    ),
                    Span::styled("→", t.muted()),
                    Span::styled(
                        &r.category_final.as_str()[..1],
                        t.risk(r.risk_final, high, medium),
                    ),
                ])),
            ]);
            let mut style = t.text();
            if start + k == list.selected {
                style = style.patch(t.selection(focused));
            }
            Row::new(cells).style(style)
        })
        .collect();
    let mut widths = vec![Constraint::Fill(2)];
    let mut header = vec!["documents"];
    if wide {
        widths.push(Constraint::Fill(2));
        header.push("via");
    }
    widths.extend([
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(5),
        Constraint::Length(3),
    ]);
    header.extend(["init", "pre", "final", "cat"]);
    frame.render_widget(
        Table::new(rows, widths)
            .header(Row::new(header).style(t.muted()))
            .column_spacing(1),
        inner,
    );
    let body = Rect {
        y: inner.y + 1,
        height: inner.height.saturating_sub(1),
        ..inner
    };
    (body, start)
}
