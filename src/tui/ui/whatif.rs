//! The what-if pane: every parameter with its reviewed and candidate value, the
//! candidate plan against the reviewed one (masked count, chain risk, chains by
//! category, residuals, the entities newly masked / unmasked), or the sweep chart of
//! the selected parameter. Every figure comes from `crate::whatif`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::symbols::Marker;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph, Wrap};

use crate::plan::EntityRef;
use crate::whatif::{Param, PlanSummary};

use super::super::app::{App, DecisionEffect};
use super::super::sanitize;
use super::super::state::Pane;
use super::{fit, pane_block};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, focused: bool) {
    let t = &app.theme;
    let w = &app.whatif;
    let extra = if app.whatif_busy() {
        "recomputing…"
    } else if w.exploring() {
        "candidate vs reviewed"
    } else {
        "reviewed settings"
    };
    let block = pane_block(&super::titled(app, Pane::WhatIf), extra, focused, t);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    if w.show_sweep {
        return draw_sweep(frame, inner, app);
    }
    let params_h = Param::ALL.len() as u16 + 1;
    let [params, summary, changes] = Layout::vertical([
        Constraint::Length(params_h),
        Constraint::Length(4),
        Constraint::Fill(1),
    ])
    .areas(inner);
    draw_params(frame, params, app, focused);
    draw_summary(frame, summary, app);
    draw_changes(frame, changes, app, focused);
}

fn draw_params(frame: &mut Frame, area: Rect, app: &App, focused: bool) {
    let t = &app.theme;
    let w = &app.whatif;
    let candidate = app.candidate_config().ok();
    let name_w = 15;
    let val_w = ((area.width as usize).saturating_sub(name_w + 5) / 2).clamp(4, 12);
    let mut lines = vec![Line::from(Span::styled(
        format!(
            "  {:<name_w$}{:<val_w$} {}",
            "parameter", "reviewed", "candidate"
        ),
        t.muted(),
    ))];
    for (i, p) in Param::ALL.into_iter().enumerate() {
        let reviewed = p.value(app.ws.config());
        let cand = candidate
            .as_ref()
            .map(|c| p.value(c))
            .unwrap_or_else(|| w.overrides.get(&p).cloned().unwrap_or_default());
        let changed = cand != reviewed;
        let selected = i == w.selected;
        let mut base = t.text();
        if selected {
            base = base.patch(t.selection(focused));
        }
        let cand_style = if changed {
            base.patch(t.accent())
        } else {
            base
        };
        lines.push(Line::from(vec![
            Span::styled(if selected { "▶ " } else { "  " }, base),
            Span::styled(format!("{:<name_w$}", p.name()), base),
            Span::styled(format!("{:<val_w$} ", fit(&reviewed, val_w)), base),
            Span::styled(
                fit(&if changed { format!("→ {cand}") } else { cand }, val_w + 2),
                cand_style,
            ),
        ]));
    }
    frame.render_widget(Paragraph::new(lines), area);
}

fn figures(s: &PlanSummary) -> [String; 4] {
    [
        format!("{}", s.masked),
        format!("{:.2} / {:.2}", s.max_chain_risk, s.mean_chain_risk),
        format!("{}/{}/{}", s.high, s.medium, s.low),
        format!("{} · {}", s.residual_docs, s.residual_chains),
    ]
}

fn draw_summary(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let w = &app.whatif;
    let labels = if area.width >= 50 {
        [
            "masked",
            "chain risk max/mean",
            "chains H/M/L",
            "residual docs·chains",
        ]
    } else {
        ["masked", "risk max/mean", "chains H/M/L", "residual d·c"]
    };
    let reviewed = figures(&PlanSummary::of(app.ws.plan()));
    let label_w = if area.width >= 50 { 21 } else { 14 };
    let lines: Vec<Line> = if let Some(e) = &w.error {
        vec![Line::from(Span::styled(sanitize::line(e), t.error()))]
    } else {
        let cand = w.diff.as_ref().map(|d| figures(&d.candidate));
        labels
            .iter()
            .enumerate()
            .map(|(i, label)| {
                let mut spans = vec![
                    Span::styled(format!("{:<label_w$}", fit(label, label_w - 1)), t.muted()),
                    Span::styled(reviewed[i].clone(), t.text()),
                ];
                if w.exploring() {
                    match &cand {
                        Some(c) if !app.whatif_busy() => {
                            let style = if c[i] != reviewed[i] {
                                t.accent()
                            } else {
                                t.text()
                            };
                            spans.push(Span::styled(" → ", t.muted()));
                            spans.push(Span::styled(c[i].clone(), style));
                            if i == 0
                                && let Some(d) = &w.diff
                            {
                                spans.push(Span::styled(
                                    format!(
                                        " (+{} −{})",
                                        d.newly_masked.len(),
                                        d.newly_unmasked.len()
                                    ),
                                    t.muted(),
                                ));
                            }
                        }
                        _ => spans.push(Span::styled(" → recomputing…", t.busy())),
                    }
                }
                Line::from(spans)
            })
            .collect()
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}

fn draw_changes(frame: &mut Frame, area: Rect, app: &App, focused: bool) {
    let t = &app.theme;
    let w = &app.whatif;
    if area.height == 0 {
        return;
    }
    let Some(d) = w
        .diff
        .as_ref()
        .filter(|_| w.exploring() && !app.whatif_busy())
    else {
        if !w.exploring()
            && let Some(e) = &app.effect
        {
            return draw_effect(frame, area, app, e);
        }
        let hint = if w.exploring() {
            ""
        } else {
            "h/l or H/L change the selected parameter, = types a value, S its sweep chart"
        };
        frame.render_widget(
            Paragraph::new(Span::styled(hint, t.muted())).wrap(Wrap { trim: true }),
            area,
        );
        return;
    };
    let rows: Vec<(usize, bool)> = d
        .newly_masked
        .iter()
        .map(|&e| (e, true))
        .chain(d.newly_unmasked.iter().map(|&e| (e, false)))
        .collect();
    if rows.is_empty() {
        frame.render_widget(
            Paragraph::new(Span::styled(
                "the same entities are masked (Enter adopts, Esc goes back)",
                t.muted(),
            ))
            .wrap(Wrap { trim: true }),
            area,
        );
        return;
    }
    let height = area.height as usize;
    let cursor = w.selected.checked_sub(Param::ALL.len());
    let start = cursor.map_or(0, |c| (c + 1).saturating_sub(height));
    let width = area.width as usize;
    let lines: Vec<Line> = rows
        .iter()
        .enumerate()
        .skip(start)
        .take(height)
        .map(|(k, &(e, masked))| {
            let ent = &app.ws.model().entities[e];
            let selected = cursor == Some(k);
            let mut style = t.text();
            if selected {
                style = style.patch(t.selection(focused));
            }
            let sign = if masked { "+ mask " } else { "− keep " };
            Line::from(vec![
                Span::styled(if selected { "▶ " } else { "  " }, style),
                Span::styled(sign, style),
                Span::styled(
                    format!("{} ", fit(&ent.entity_type, 12)),
                    style.patch(t.entity(&ent.entity_type, false)),
                ),
                Span::styled(
                    fit(
                        &sanitize::line(&ent.value),
                        width.saturating_sub(9 + ent.entity_type.len().min(12) + 1),
                    ),
                    style,
                ),
            ])
        })
        .collect();
    frame.render_widget(Paragraph::new(lines), area);
}

/// What the last decision changed, when no candidate is explored: its line, then
/// "+ mask …" / "− keep …" rows and the residuals that appeared or cleared.
fn draw_effect(frame: &mut Frame, area: Rect, app: &App, e: &DecisionEffect) {
    let t = &app.theme;
    let width = area.width as usize;
    let mut lines: Vec<Line> = Vec::new();
    let Some(change) = &e.change else {
        lines.push(Line::from(Span::styled(
            fit(
                &format!("{}: re-planning…", sanitize::line(&e.label)),
                width,
            ),
            t.busy(),
        )));
        frame.render_widget(Paragraph::new(lines), area);
        return;
    };
    lines.push(Line::from(Span::styled(
        fit(
            &format!("last decision: {}", sanitize::line(&e.label)),
            width,
        ),
        t.muted(),
    )));
    let effect = format!("effect: {change}");
    lines.push(Line::from(Span::styled(fit(&effect, width), t.muted())));
    let entity_row = |sign: &'static str, ent: &EntityRef| {
        Line::from(vec![
            Span::styled(sign, t.text()),
            Span::styled(
                format!("{} ", fit(&ent.entity_type, 12)),
                t.entity(&ent.entity_type, false),
            ),
            Span::styled(
                fit(
                    &sanitize::line(&ent.value),
                    width.saturating_sub(7 + ent.entity_type.len().min(12) + 1),
                ),
                t.text(),
            ),
        ])
    };
    for ent in &change.newly_masked {
        lines.push(entity_row("+ mask ", ent));
    }
    for ent in &change.newly_kept {
        lines.push(entity_row("− keep ", ent));
    }
    let residual = |text: String| Line::from(Span::styled(fit(&text, width), t.text()));
    for (doc, risk) in &change.residual_docs_appeared {
        lines.push(residual(format!(
            "! residual {} {risk:.2}",
            sanitize::line(doc)
        )));
    }
    for doc in &change.residual_docs_cleared {
        lines.push(residual(format!("✓ cleared {}", sanitize::line(doc))));
    }
    for (chain, risk) in &change.residual_chains_appeared {
        lines.push(residual(format!(
            "! residual chain {} {risk:.2}",
            sanitize::line(&chain.join(" → "))
        )));
    }
    for chain in &change.residual_chains_cleared {
        lines.push(residual(format!(
            "✓ cleared chain {}",
            sanitize::line(&chain.join(" → "))
        )));
    }
    if change.is_empty() {
        lines.push(Line::from(Span::styled("the plan is unchanged", t.muted())));
    }
    let height = area.height as usize;
    if lines.len() > height && height > 0 {
        // The decision and its effect stay; the rows after them give way first.
        let keep = height.saturating_sub(1).max(height.min(2));
        let more = lines.len() - keep;
        lines.truncate(keep);
        if lines.len() < height {
            lines.push(Line::from(Span::styled(
                format!("… and {more} more"),
                t.muted(),
            )));
        } else if keep == 2 {
            lines[1] = Line::from(Span::styled(
                fit(&format!("{effect} · {more} more"), width),
                t.muted(),
            ));
        }
    }
    frame.render_widget(Paragraph::new(lines), area);
}

/// Axis labels: the bounds and the middle, short.
fn labels(lo: f64, hi: f64, whole: bool) -> Vec<Line<'static>> {
    if whole {
        return vec![Line::from(format!("{lo}")), Line::from(format!("{hi}"))];
    }
    let f = |v: f64| format!("{v:.2}");
    vec![
        Line::from(f(lo)),
        Line::from(f((lo + hi) / 2.0)),
        Line::from(f(hi)),
    ]
}

fn draw_sweep(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let w = &app.whatif;
    let Some(s) = &w.sweep else {
        return;
    };
    let with_f1 = s
        .rows
        .iter()
        .any(|r| r.f1.is_some() || r.leak_rate.is_some());
    let [title, top, bottom, third] = Layout::vertical([
        Constraint::Length(2),
        Constraint::Ratio(1, if with_f1 { 3 } else { 2 }),
        Constraint::Ratio(1, if with_f1 { 3 } else { 2 }),
        Constraint::Ratio(if with_f1 { 1 } else { 0 }, 3),
    ])
    .areas(area);
    let current = s
        .param
        .number(app.ws.config())
        .filter(|_| s.error.is_none());
    let head = vec![
        Line::from(vec![
            Span::styled(format!("sweep {} ", s.param), t.accent()),
            Span::styled(
                if s.error.is_none() {
                    format!("{}..{} by {}", s.from, s.to, s.step)
                } else {
                    String::new()
                },
                t.text(),
            ),
        ]),
        Line::from(vec![
            Span::styled(
                current.map_or(String::new(), |v| format!("┃ reviewed {v} ")),
                t.ok(),
            ),
            Span::styled("· R range · S diff · j/k parameter", t.muted()),
        ]),
    ];
    frame.render_widget(Paragraph::new(head), title);
    if let Some(e) = &s.error {
        frame.render_widget(
            Paragraph::new(Span::styled(sanitize::line(e), t.error())).wrap(Wrap { trim: true }),
            top,
        );
        return;
    }
    if app.whatif_sweeping() || s.rows.is_empty() {
        frame.render_widget(Paragraph::new(Span::styled("recomputing…", t.busy())), top);
        return;
    }
    let x = [s.from, s.to.max(s.from + f64::EPSILON)];
    let whole_x = matches!(s.param.kind(), crate::whatif::Kind::Whole { .. });
    let masked: Vec<(f64, f64)> = s.rows.iter().map(|r| (r.value, r.masked as f64)).collect();
    let max: Vec<(f64, f64)> = s.rows.iter().map(|r| (r.value, r.max_chain_risk)).collect();
    let mean: Vec<(f64, f64)> = s
        .rows
        .iter()
        .map(|r| (r.value, r.mean_chain_risk))
        .collect();
    let (mut lo, mut hi) = masked
        .iter()
        .fold((f64::MAX, f64::MIN), |(a, b), &(_, y)| (a.min(y), b.max(y)));
    if lo >= hi {
        lo -= 1.0;
        hi += 1.0;
    }
    let risk_hi = s
        .rows
        .iter()
        .map(|r| r.max_chain_risk)
        .fold(0.0_f64, f64::max)
        .max(0.01);
    let marker = |y0: f64, y1: f64| current.map(|v| vec![(v, y0), (v, y1)]).unwrap_or_default();
    let mark_masked = marker(lo, hi);
    let mark_risk = marker(0.0, risk_hi);
    let f1: Vec<(f64, f64)> = s
        .rows
        .iter()
        .filter_map(|r| r.f1.map(|f| (r.value, f)))
        .collect();
    let leak: Vec<(f64, f64)> = s
        .rows
        .iter()
        .filter_map(|r| r.leak_rate.map(|l| (r.value, l)))
        .collect();
    let mark_f1 = marker(0.0, 1.0);
    let cur_style = t.ok();
    // Datasets borrow their points: keep them alive for the frame.
    let masked_chart = Chart::new(vec![
        ds(&mark_masked, cur_style, Marker::Braille, GraphType::Line),
        ds(&masked, t.accent(), Marker::Braille, GraphType::Line),
    ]);
    let risk_chart = Chart::new(vec![
        ds(&mark_risk, cur_style, Marker::Braille, GraphType::Line),
        ds(
            &max,
            Style::new().fg(t.risk_color(1.0, 0.75, 0.5)),
            Marker::Braille,
            GraphType::Line,
        ),
        ds(
            &mean,
            Style::new().fg(t.risk_color(0.6, 0.75, 0.5)),
            Marker::Dot,
            GraphType::Scatter,
        ),
    ]);
    let theme = t;
    frame.render_widget(
        with_axes(
            masked_chart,
            theme,
            x,
            whole_x,
            "masked entities".into(),
            [lo, hi],
            true,
        ),
        top,
    );
    frame.render_widget(
        with_axes(
            risk_chart,
            theme,
            x,
            whole_x,
            "final chain risk: max (line) · mean (•)".into(),
            [0.0, risk_hi],
            false,
        ),
        bottom,
    );
    if with_f1 {
        let f1_chart = Chart::new(vec![
            ds(&mark_f1, cur_style, Marker::Braille, GraphType::Line),
            ds(&f1, t.accent(), Marker::Braille, GraphType::Line),
            ds(&leak, t.error(), Marker::Dot, GraphType::Scatter),
        ]);
        let title = match (f1.is_empty(), leak.is_empty()) {
            (false, false) => "chain pairs F1 (line) · person leak rate (•)",
            (false, true) => "chain pairs F1 against the gold chains",
            _ => "person leak rate (•) of the gold persons",
        };
        frame.render_widget(
            with_axes(f1_chart, theme, x, whole_x, title.into(), [0.0, 1.0], false),
            third,
        );
    }
}

/// A dataset over `data`.
fn ds<'a>(data: &'a [(f64, f64)], style: Style, m: Marker, g: GraphType) -> Dataset<'a> {
    Dataset::default()
        .data(data)
        .graph_type(g)
        .marker(m)
        .style(style)
}

fn with_axes<'a>(
    c: Chart<'a>,
    t: &super::super::theme::Theme,
    x: [f64; 2],
    whole_x: bool,
    name: String,
    y: [f64; 2],
    whole_y: bool,
) -> Chart<'a> {
    c.x_axis(
        Axis::default()
            .bounds(x)
            .labels(labels(x[0], x[1], whole_x))
            .style(t.muted()),
    )
    .block(ratatui::widgets::Block::new().title(Span::styled(name, t.text())))
    .y_axis(
        Axis::default()
            .bounds(y)
            .labels(labels(y[0], y[1], whole_y))
            .style(t.muted()),
    )
    .legend_position(None)
}
