//! The chain risk table: every chain over kept edges, riskiest first, with its
//! documents, the entities that link them, risk initial / after the document stage /
//! final, and the category before → after. The selected chain's documents light up
//! in the document list.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, Wrap};

use super::super::app::App;
use super::super::sanitize;
use super::super::state::Pane;
use super::{pane_block, risk_bands};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, focused: bool) -> (Rect, usize) {
    let t = &app.theme;
    let list = &app.ui.chains;
    let residual = app.ws.plan().residual_chains.len();
    let mut extra = format!("{} · residual {residual}", list.rows.len());
    let open = app.views.open_residuals.1;
    if open < residual {
        extra.push_str(&format!(" ({} accepted)", residual - open));
    }
    if !list.filter.is_empty() {
        extra.push_str(&format!(" /{}", sanitize::line(&list.filter)));
    }
    let block = pane_block(&super::titled(app, Pane::Chains), &extra, focused, t);
    let outer = block.inner(area);
    frame.render_widget(block, area);
    let [inner, detail_area] =
        Layout::vertical([Constraint::Fill(1), Constraint::Length(2)]).areas(outer);
    let body_height = inner.height.saturating_sub(1) as usize;
    let (start, end) = list.window(body_height);
    let an = app.ws.analysis();
    let m = app.ws.model();
    let (high, medium) = risk_bands(app);
    let wide = inner.width >= 70;
    // The gold mark column, once the session holds gold chains.
    let gold = !app.views.gold.keys.is_empty();
    let rows: Vec<Row> = list.rows[start..end]
        .iter()
        .enumerate()
        .map(|(k, &c)| {
            let chain = &an.chains[c];
            let r = &app.ws.plan().chains[c];
            let docs: Vec<String> = chain
                .docs()
                .iter()
                .map(|&d| sanitize::line(&m.docs[d as usize].id))
                .collect();
            let mut via: Vec<String> = chain
                .hops()
                .iter()
                .flat_map(|&h| an.edges[h as usize].via.iter().map(|(e, _)| *e as usize))
                .map(|e| {
                    let ent = &m.entities[e];
                    let mark = if app.ws.plan().masked[e] { "▇" } else { "" };
                    format!("{mark}{}", sanitize::line(&ent.value))
                })
                .collect();
            via.dedup();
            let risk = |x: f64| Span::styled(format!("{x:.2}"), t.risk(x, high, medium));
            let mut cells = vec![Cell::from(docs.join("→"))];
            if gold {
                let mark = if app.is_gold(c) { "★" } else { "" };
                cells.push(Cell::from(Span::styled(mark, t.accent())));
            }
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
                    Span::styled(
                        if app.residual_chain_accepted(c) {
                            "✓"
                        } else {
                            ""
                        },
                        t.ok(),
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
    if gold {
        widths.push(Constraint::Length(4));
        header.push("gold");
    }
    if wide {
        widths.push(Constraint::Fill(2));
        header.push("via");
    }
    widths.extend([
        Constraint::Length(4),
        Constraint::Length(4),
        Constraint::Length(5),
        Constraint::Length(4),
    ]);
    header.extend(["init", "pre", "final", "cat"]);
    frame.render_widget(
        Table::new(rows, widths)
            .header(Row::new(header).style(t.muted()))
            .column_spacing(1),
        inner,
    );
    frame.render_widget(
        Paragraph::new(detail(app, list.current())).wrap(Wrap { trim: true }),
        detail_area,
    );
    let body = Rect {
        y: inner.y + 1,
        height: inner.height.saturating_sub(1),
        ..inner
    };
    (body, start)
}

/// The selected chain's residual state, gold mark and note, via entities (▇ = masked)
/// and target, under the table.
fn detail(app: &App, chain: Option<usize>) -> Line<'static> {
    let t = &app.theme;
    let Some(c) = chain else {
        return Line::from(Span::styled(
            "no chains: no two documents share strong enough entities",
            t.muted(),
        ));
    };
    let an = app.ws.analysis();
    let mut via: Vec<usize> = an.chains[c]
        .hops()
        .iter()
        .flat_map(|&h| an.edges[h as usize].via.iter().map(|(e, _)| *e as usize))
        .collect();
    via.sort_unstable();
    via.dedup();
    let mut spans = Vec::new();
    // A residual chain says so first: the status must not be cut off by long values.
    if app
        .ws
        .plan()
        .residual_chains
        .binary_search(&(c as u32))
        .is_ok()
    {
        spans.push(if app.residual_chain_accepted(c) {
            Span::styled("residual, risk accepted ✓ · ", t.ok())
        } else {
            Span::styled("residual: R accepts its risk · ", t.error())
        });
    }
    // The gold mark and its note come next, for the same reason (an annotator reads
    // them back here; a long list of values must not push them off).
    if let Some(note) = app.ws.state().gold.get(&app.chain_key(c)) {
        let text = match note.as_deref().map(sanitize::line) {
            Some(n) => format!("★ gold: {n} · "),
            None => "★ gold · ".to_string(),
        };
        spans.push(Span::styled(text, t.accent()));
    }
    spans.push(Span::styled("via ", t.muted()));
    for (k, e) in via.iter().enumerate() {
        let ent = &app.ws.model().entities[*e];
        let masked = app.ws.plan().masked[*e];
        if k > 0 {
            spans.push(Span::styled(", ", t.muted()));
        }
        spans.push(Span::styled(
            format!(
                "{}{}",
                if masked { "▇" } else { "" },
                sanitize::line(&ent.value)
            ),
            t.entity(&ent.entity_type, masked),
        ));
    }
    if let Some(target) = app.ws.plan().chains[c].target() {
        spans.push(Span::styled(format!(" · target {target:.2}"), t.muted()));
    }
    Line::from(spans)
}
