//! The linkage graph on a braille Canvas: documents as nodes coloured by final risk,
//! kept edges coloured by their strength under the current masks, the selected
//! document and its neighbours labelled. When the whole graph would not be legible
//! in the pane, only the selected document's neighbourhood is drawn.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::symbols::Marker;
use ratatui::text::Span;
use ratatui::widgets::canvas::{Canvas, Line as CanvasLine};

use super::super::app::App;
use super::super::graph::neighbours;
use super::super::sanitize;
use super::super::state::Pane;
use super::{fit, pane_block, risk_bands};

/// Draws the graph; returns the canvas area (for click hit-testing).
pub fn draw(frame: &mut Frame, area: Rect, app: &App, focused: bool) -> Rect {
    let t = &app.theme;
    let an = app.ws.analysis();
    let selected = app
        .ui
        .open_doc
        .and_then(|d| app.views.model_of_doc.get(d).copied().flatten());
    let probe = pane_block(&super::titled(app, Pane::Graph), "", focused, t).inner(area);
    let whole = app.views.layout.whole_graph_fits(an.n, probe);
    let mut extra = if whole {
        format!("{} docs · {} edges", an.n, an.edges.len())
    } else {
        "neighbourhood of the selected document".to_string()
    };
    // Documents picked for a new gold chain (◆ on the canvas).
    let picked = &app.ui.gold_pending;
    if !picked.is_empty() {
        let ids: Vec<String> = picked
            .iter()
            .map(|&i| sanitize::line(&app.ws.corpus().documents[i].id))
            .collect();
        extra = format!("◆ {}", ids.join(" + "));
    }
    let block = pane_block(&super::titled(app, Pane::Graph), &extra, focused, t);
    let whole_inner = block.inner(area);
    frame.render_widget(block, area);
    // The colours' legend on the last row, when there is room for a canvas above it.
    let legend_rows = u16::from(whole_inner.height >= 6);
    let inner = Rect {
        height: whole_inner.height - legend_rows,
        ..whole_inner
    };
    if legend_rows == 1 {
        let (high, medium) = risk_bands(app);
        let legend = ratatui::text::Line::from(vec![
            Span::styled("● HIGH ", t.risk(1.0, high, medium)),
            Span::styled("● MED ", t.risk(0.6, high, medium)),
            Span::styled("● LOW", t.risk(0.0, high, medium)),
            Span::styled(" risk · ", t.muted()),
            Span::styled("⠒ strong", ratatui::style::Style::new().fg(t.edge(1.0))),
            Span::styled(" ", t.muted()),
            Span::styled("⠒ weak", ratatui::style::Style::new().fg(t.edge(0.0))),
            Span::styled(" link", t.muted()),
        ]);
        frame.render_widget(
            ratatui::widgets::Paragraph::new(legend),
            Rect {
                y: inner.y + inner.height,
                height: 1,
                ..whole_inner
            },
        );
    }
    let nodes = app.views.layout.visible(inner, selected, an);
    let pos = |d: usize| nodes.iter().find(|n| n.0 == d).map(|n| (n.1, n.2));
    let near: Vec<usize> = selected.map(|s| neighbours(an, s)).unwrap_or_default();
    let masked = &app.ws.plan().masked;
    let (high, medium) = risk_bands(app);
    let canvas = Canvas::default()
        .marker(Marker::Braille)
        .x_bounds([0.0, 1.0])
        .y_bounds([0.0, 1.0])
        .paint(|ctx| {
            for e in &an.edges {
                let (a, b) = (e.a as usize, e.b as usize);
                if let (Some((x1, y1)), Some((x2, y2))) = (pos(a), pos(b)) {
                    ctx.draw(&CanvasLine {
                        x1,
                        y1,
                        x2,
                        y2,
                        color: t.edge(e.strength_with(masked)),
                    });
                }
            }
            ctx.layer();
            let labelled = nodes.len() <= 12;
            // Neighbours first, the selected document last, so its label is on top.
            let mut order: Vec<&(usize, f64, f64)> = nodes.iter().collect();
            order.sort_by_key(|(d, _, _)| (Some(*d) == selected, near.contains(d)));
            // Cells already taken by a label, per row: a label that would overlap
            // one drawn later in priority order is left out (the node still shows).
            let (w, h) = (
                f64::from(inner.width.max(1)),
                f64::from(inner.height.max(1)),
            );
            let mut taken: Vec<(u16, u16, u16)> = Vec::new();
            for &&(d, x, y) in order.iter().rev() {
                let r = app.ws.plan().doc_risk_final.get(d).copied().unwrap_or(0.0);
                let is_sel = Some(d) == selected;
                let is_picked = picked.contains(&app.ws.model().docs[d].corpus_index);
                let mut style = if is_picked {
                    t.accent().add_modifier(Modifier::BOLD)
                } else {
                    t.risk(r, high, medium)
                };
                let node = if is_picked { "◆" } else { "●" };
                let col = (x * w).min(w - 1.0) as u16;
                let row = ((1.0 - y) * h).min(h - 1.0) as u16;
                let overlaps = |a: u16, b: u16| {
                    taken
                        .iter()
                        .any(|&(r0, a0, b0)| r0 == row && a <= b0 + 1 && a0 <= b + 1)
                };
                if overlaps(col, col) {
                    continue;
                }
                let mut text = if is_picked { node } else { "•" }.to_string();
                let mut at = x;
                if is_sel || is_picked || near.contains(&d) || labelled {
                    if is_sel {
                        style = style.add_modifier(Modifier::BOLD | Modifier::REVERSED);
                    }
                    let id = fit(&sanitize::line(&app.ws.model().docs[d].id), 14);
                    let len = id.chars().count() as u16;
                    // Near the right edge the label goes to the left of the node.
                    let (a, b, label) = if f64::from(col + 1 + len) <= w {
                        (col, col + len, format!("{node}{id}"))
                    } else {
                        (col.saturating_sub(len), col, format!("{id}{node}"))
                    };
                    if !overlaps(a, b) {
                        at = if a < col { x - f64::from(len) / w } else { x };
                        text = label;
                    } else {
                        text = node.to_string();
                    }
                }
                let start = ((at * w).max(0.0)) as u16;
                taken.push((row, start, start + text.chars().count() as u16 - 1));
                ctx.print(at, y, Span::styled(text, style));
            }
        });
    frame.render_widget(canvas, inner);
    inner
}
