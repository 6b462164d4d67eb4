//! The help popup, generated from the keymap: the focused pane's keys first, then the
//! global ones and every other pane's, then a glossary of the figures the panes show
//! and the colours of the graph. It scrolls (j / k, PgUp / PgDn); any other key
//! closes it.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::super::super::app::App;
use super::super::super::state::Pane;
use super::{centered, popup_block};

/// The figures and marks the panes show, in words.
pub const GLOSSARY: &[(&str, &str)] = &[
    (
        "u(e)",
        "uniqueness: ln((N+1)/freq) / ln(N+1); 1 for an entity in one document",
    ),
    (
        "c(e,d)",
        "contribution to a document's risk: relevance · u(e) · type weight",
    ),
    (
        "s_e",
        "global contribution: the largest c(e,d) of the entity over its documents",
    ),
    (
        "risk",
        "R(d) = 1 − Π(1 − c(e,d)) over the unmasked entities of d",
    ),
    (
        "init / pre / final",
        "a chain's risk unmasked / after the document stage / masked",
    ),
    (
        "H→L",
        "a chain's category unmasked → masked (HIGH, MEDIUM, LOW)",
    ),
    (
        "rev",
        "reviewed: accepted, overridden or pinned, of the masked entities",
    ),
    ("▇ value", "masked entity (via lists, graph labels)"),
    (
        "! / ✓",
        "residual risk the plan could not lower / accepted with a reason",
    ),
    (
        "★",
        "gold chain (annotated); ◆ documents picked for a new one",
    ),
];

/// Every line of the help, in order.
pub fn lines(app: &App) -> Vec<Line<'static>> {
    let t = &app.theme;
    let focus = app.ui.focus;
    let mut out: Vec<Line<'static>> = Vec::new();
    let section = |out: &mut Vec<Line<'static>>, title: String, name: &str| {
        out.push(Line::from(Span::styled(title, t.accent())));
        for b in app.keymap.section(name) {
            let keys: Vec<String> = b.keys.iter().map(|k| k.label()).collect();
            out.push(Line::from(vec![
                Span::styled(format!("  {:<12} ", keys.join(" ")), t.header()),
                Span::styled(b.desc.clone(), t.text()),
            ]));
        }
        out.push(Line::from(""));
    };
    let number = |p: Pane| Pane::ALL.iter().position(|x| *x == p).map_or(0, |i| i + 1);
    section(
        &mut out,
        format!(
            "{} pane ({}, the one in focus)",
            focus.title(),
            number(focus)
        ),
        focus.key(),
    );
    section(&mut out, "Everywhere".to_string(), "global");
    for p in Pane::ALL.iter().filter(|p| **p != focus) {
        section(
            &mut out,
            format!("{} pane ({})", p.title(), number(*p)),
            p.key(),
        );
    }
    out.push(Line::from(Span::styled("Glossary", t.accent())));
    for (term, meaning) in GLOSSARY {
        out.push(Line::from(vec![
            Span::styled(format!("  {term:<18} "), t.header()),
            Span::styled(*meaning, t.text()),
        ]));
    }
    out.push(Line::from(""));
    out.push(Line::from(Span::styled("Colours", t.accent())));
    let (high, medium) = super::super::risk_bands(app);
    out.push(Line::from(vec![
        Span::styled("  documents  ", t.header()),
        Span::styled("● HIGH risk ", t.risk(1.0, high, medium)),
        Span::styled("● MEDIUM ", t.risk(0.6, high, medium)),
        Span::styled("● LOW", t.risk(0.0, high, medium)),
        Span::styled(" (after masking; graph nodes, risk columns)", t.muted()),
    ]));
    out.push(Line::from(vec![
        Span::styled("  edges      ", t.header()),
        Span::styled("⠒ strong ", Style::new().fg(t.edge(1.0))),
        Span::styled("⠒ weak", Style::new().fg(t.edge(0.0))),
        Span::styled(" (strength under the masks in effect)", t.muted()),
    ]));
    out.push(Line::from(vec![
        Span::styled("  entities   ", t.header()),
        Span::styled("masked", t.entity("NAME", true)),
        Span::styled(
            " kept; each type its colour (the document pane's legend)",
            t.muted(),
        ),
    ]));
    out
}

/// Draws the help scrolled down `scroll` rows; returns the largest useful scroll.
pub fn draw(frame: &mut Frame, area: Rect, app: &App, scroll: usize) -> usize {
    let t = &app.theme;
    let all = lines(app);
    let r = centered(area, 100, area.height);
    let inner_w = r.width.saturating_sub(2).max(1) as usize;
    // Lines as drawn: a long one wraps onto several rows.
    let rows: usize = all.iter().map(|l| l.width().max(1).div_ceil(inner_w)).sum();
    let h = (rows as u16 + 2).min(area.height);
    let r = centered(area, 100, h);
    frame.render_widget(Clear, r);
    let visible = (h as usize).saturating_sub(2);
    let scroll = scroll.min(rows.saturating_sub(visible));
    let title = if rows > visible {
        format!(
            "Help {}–{} of {} — j/k PgUp/PgDn scroll · any other key closes",
            scroll + 1,
            (scroll + visible).min(rows),
            rows
        )
    } else {
        "Help — any other key closes".to_string()
    };
    frame.render_widget(
        Paragraph::new(all)
            .wrap(Wrap { trim: false })
            .scroll((scroll.min(u16::MAX as usize) as u16, 0))
            .block(popup_block(&title, t)),
        r,
    );
    rows.saturating_sub(visible)
}
