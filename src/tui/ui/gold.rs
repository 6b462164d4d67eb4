//! The gold pane (SPEC §10): chain precision / recall / F1 as document pairs of the
//! chains flagged ≥ MEDIUM on the unmasked corpus against the session's gold chains,
//! then the gold chains that are missed and the flagged chains that are not gold,
//! each selectable. Without gold it says how to add some.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Cell, Paragraph, Row, Table, Wrap};

use super::super::action::Action;
use super::super::app::{App, GoldEval, GoldRow};
use super::super::sanitize;
use super::super::state::Pane;
use super::{pane_block, risk_bands};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, focused: bool) -> (Rect, usize) {
    let t = &app.theme;
    let view = &app.views.gold;
    let mut extra = format!("{} gold", view.chains.len());
    if view.orphaned() > 0 {
        extra.push_str(&format!(" · {} orphaned", view.orphaned()));
    }
    let block = pane_block(&super::titled(app, Pane::Gold), &extra, focused, t);
    let mut inner = block.inner(area);
    frame.render_widget(block, area);
    if let Some(g) = &app.gold_eval {
        let lines = privacy_lines(app, g, inner.width as usize);
        let [top, rest] = Layout::vertical([
            Constraint::Length(lines.len() as u16 + 1),
            Constraint::Fill(1),
        ])
        .areas(inner);
        frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), top);
        inner = rest;
    }
    let key = |pane: Pane, action: Action| app.keymap.key_for(pane, action).unwrap_or_default();
    let Some(cmp) = &view.comparison else {
        let text = vec![
            Line::from(Span::styled(
                "No gold chains yet. A gold chain is 2–3 documents that together identify a person; with gold, this pane shows chain precision / recall / F1 live.",
                t.text(),
            )),
            Line::from(""),
            Line::from(Span::styled(
                format!(
                    "· chains pane ({}): {} marks the selected chain as gold, {} adds a note",
                    key(Pane::Chains, Action::FocusChains),
                    key(Pane::Chains, Action::Gold),
                    key(Pane::Chains, Action::GoldNote),
                ),
                t.muted(),
            )),
            Line::from(Span::styled(
                format!(
                    "· graph pane ({}): {} picks the selected document, {} marks the 2–3 picked",
                    key(Pane::Graph, Action::FocusGraph),
                    key(Pane::Graph, Action::GoldPick),
                    key(Pane::Graph, Action::Gold),
                ),
                t.muted(),
            )),
            Line::from(Span::styled(
                format!(
                    "· here: {} imports gold_chains.json / a thesis or devset gold.json",
                    key(Pane::Gold, Action::GoldImport)
                ),
                t.muted(),
            )),
        ];
        frame.render_widget(Paragraph::new(text).wrap(Wrap { trim: true }), inner);
        return (Rect::default(), 0);
    };
    let [figures, table_area, detail_area] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let p = &cmp.pairs;
    let figure = |name: &str, x: f64| {
        vec![
            Span::styled(format!("{name} "), t.muted()),
            Span::styled(format!("{x:.2}  "), t.accent()),
        ]
    };
    let mut head = vec![Span::styled("chain pairs  ", t.text())];
    head.extend(figure("P", p.precision));
    head.extend(figure("R", p.recall));
    head.extend(figure("F1", p.f1));
    let lines = vec![
        Line::from(head),
        Line::from(Span::styled(
            format!(
                "tp {} · fp {} · fn {} · flagged ≥M {} · gold {} · missed {} · not gold {}",
                p.tp,
                p.fp,
                p.fn_,
                view.flagged.len(),
                view.chains.len(),
                cmp.missed.len(),
                cmp.not_gold.len()
            ),
            t.muted(),
        )),
    ];
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), figures);

    let list = &app.ui.gold;
    let body_height = table_area.height.saturating_sub(1) as usize;
    let (start, end) = list.window(body_height);
    let (high, medium) = risk_bands(app);
    let rows: Vec<Row> = list.rows[start..end]
        .iter()
        .enumerate()
        .map(|(k, &r)| {
            let (kind, docs, detail) = match view.rows[r] {
                GoldRow::Missed(i) => {
                    let c = &view.chains[i];
                    let kind = if c.orphaned() { "orphaned" } else { "missed" };
                    let detail =
                        Span::styled(sanitize::line(c.note.as_deref().unwrap_or("")), t.muted());
                    (kind, c.documents.join(" + "), detail)
                }
                GoldRow::NotGold(c) => {
                    let ids: Vec<&str> = app.ws.analysis().chains[c]
                        .docs()
                        .iter()
                        .map(|&d| app.ws.model().docs[d as usize].id.as_str())
                        .collect();
                    let r = &app.ws.plan().chains[c];
                    let detail = Span::styled(
                        format!(
                            "{:.2} {}",
                            r.risk_initial,
                            &r.category_initial.as_str()[..1]
                        ),
                        t.risk(r.risk_initial, high, medium),
                    );
                    ("not gold", ids.join("→"), detail)
                }
            };
            let mut style = t.text();
            if start + k == list.selected {
                style = style.patch(t.selection(focused));
            }
            Row::new(vec![
                Cell::from(kind),
                Cell::from(sanitize::line(&docs)),
                Cell::from(detail),
            ])
            .style(style)
        })
        .collect();
    frame.render_widget(
        Table::new(
            rows,
            [
                Constraint::Length(8),
                Constraint::Fill(3),
                Constraint::Fill(1),
            ],
        )
        .header(Row::new(["", "documents", "note/risk"]).style(t.muted()))
        .column_spacing(1),
        table_area,
    );
    let hint = if list.rows.is_empty() {
        "every gold chain is flagged and every flagged chain is gold".to_string()
    } else {
        format!(
            "{} select · {} gold/not · {} note · {} import",
            key(Pane::Gold, Action::Open),
            key(Pane::Gold, Action::Gold),
            key(Pane::Gold, Action::GoldNote),
            key(Pane::Gold, Action::GoldImport)
        )
    };
    frame.render_widget(Paragraph::new(Span::styled(hint, t.muted())), detail_area);
    let body = Rect {
        y: table_area.y + 1,
        height: table_area.height.saturating_sub(1),
        ..table_area
    };
    (body, start)
}

/// The person leak rate and the utility proxy of the plan in effect (SPEC §10, as
/// `clam eval` computes them), with the leaked clusters named.
fn privacy_lines(app: &App, g: &GoldEval, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    let source = Span::styled(format!("{} · ", sanitize::line(&g.source)), t.muted());
    let Some((privacy, utility)) = &g.report else {
        return vec![Line::from(vec![
            source,
            Span::styled("measuring…", t.busy()),
        ])];
    };
    let mut first = vec![source];
    match privacy.leak_rate {
        Some(rate) => {
            first.push(Span::styled("person leak rate ", t.text()));
            first.push(Span::styled(format!("{rate:.3}"), t.accent()));
            first.push(Span::styled(
                format!(
                    " · leaked {}/{} HIGH+MEDIUM clusters",
                    privacy.leaked_clusters, privacy.rated_clusters
                ),
                if privacy.leaked_clusters > 0 {
                    t.error()
                } else {
                    t.ok()
                },
            ));
        }
        None => first.push(Span::styled(
            "no HIGH or MEDIUM cluster with persons: no leak rate",
            t.muted(),
        )),
    }
    let mut second = vec![Span::styled("utility R-1 ", t.text())];
    for (key, v) in [
        ("spec/single", utility.means.specific_single),
        ("spec/multi", utility.means.specific_multi),
        ("gen/single", utility.means.general_single),
        ("gen/multi", utility.means.general_multi),
    ] {
        second.push(Span::styled(format!("{key} "), t.muted()));
        second.push(Span::styled(
            v.map_or("–".to_string(), |v| format!("{v:.2}")),
            t.accent(),
        ));
        second.push(Span::raw("  "));
    }
    let leaked: Vec<String> = privacy
        .by_cluster
        .iter()
        .filter(|c| c.leaked)
        .map(|c| {
            format!(
                "{} {:.2}",
                sanitize::line(&c.id),
                c.leak_rate.unwrap_or(0.0)
            )
        })
        .collect();
    let mut lines = vec![Line::from(first), Line::from(second)];
    if !leaked.is_empty() {
        lines.push(Line::from(Span::styled(
            super::fit(&format!("leaked: {}", leaked.join(", ")), width.max(1) * 2),
            t.error(),
        )));
    }
    lines
}
