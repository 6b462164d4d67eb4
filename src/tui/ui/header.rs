//! The header (pipeline progress and corpus figures) and the status bar (state word,
//! last message, key hints). The status bar says `ready` only when extraction and
//! planning are finished, so scripts and tests can wait for that word.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::super::action::Action;
use super::super::app::App;
use super::super::sanitize;
use super::super::state::Pane;

fn secs(d: std::time::Duration) -> String {
    let s = d.as_secs_f64();
    if s < 60.0 {
        format!("{s:.1}s")
    } else {
        format!("{}m{:02}s", (s / 60.0) as u64, (s % 60.0) as u64)
    }
}

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let p = &app.progress;
    let ws = &app.ws;
    let mut first = vec![
        Span::styled("clam review ", t.accent()),
        Span::styled(sanitize::line(&app.corpus_name), t.header()),
        Span::styled(" · ", t.muted()),
    ];
    match p.finished {
        Some(took) => first.push(Span::styled(
            format!("extracted {}/{} in {}", p.done, p.total, secs(took)),
            t.text(),
        )),
        None => {
            first.push(Span::styled(
                format!("extracting {}/{}", p.done, p.total),
                t.busy(),
            ));
            first.push(Span::styled(
                format!(
                    " · {:.0} doc/s · ETA {}",
                    p.rate(),
                    p.eta().map_or("–".to_string(), secs)
                ),
                t.text(),
            ));
        }
    }
    first.push(Span::styled(
        format!(
            " · {} · {} unlocated",
            ws.extractor(),
            ws.store().unlocated_total()
        ),
        t.muted(),
    ));
    if p.fallbacks > 0 {
        first.push(Span::styled(
            format!(" · {} fallback(s)", p.fallbacks),
            t.error(),
        ));
    }
    if p.failed > 0 {
        first.push(Span::styled(format!(" · {} failed", p.failed), t.error()));
    }
    // Input the loader skipped and session edits that no longer apply are never
    // hidden (their details are in the log and in `clam analyze`).
    let skipped = ws.corpus().diagnostics.len();
    if skipped > 0 {
        first.push(Span::styled(
            format!(" · {skipped} file(s) skipped (! lists them)"),
            t.error(),
        ));
    }
    let warnings = ws.warnings().len() + ws.plan().warnings.len();
    if warnings > 0 {
        first.push(Span::styled(
            format!(" · {warnings} warning(s) (! lists them)"),
            t.error(),
        ));
    }
    if ws.analysis().chain_cap.hit() {
        first.push(Span::styled(" · chain cap hit", t.error()));
    }
    let [(h0, h1), (m0, m1), (l0, l1)] = app.chain_counts();
    let (reviewed, masked) = app.reviewed_masks();
    let wide = area.width >= 110;
    // While exploring what-if settings: the candidate's masked count beside the
    // count in effect.
    let candidate = app.whatif.exploring().then(|| {
        match app.whatif.diff.as_ref().filter(|_| !app.whatif_busy()) {
            Some(d) => d.candidate.masked.to_string(),
            None => "…".to_string(),
        }
    });
    let mut second = vec![
        Span::styled(
            if wide {
                format!(
                    "{} documents · {} entities · {} kept edges · chains unmasked→masked ",
                    ws.corpus().documents.len(),
                    ws.model().entities.len(),
                    ws.analysis().edges.len()
                )
            } else {
                format!(
                    "{} docs {} ent {} edges │ chains ",
                    ws.corpus().documents.len(),
                    ws.model().entities.len(),
                    ws.analysis().edges.len()
                )
            },
            t.text(),
        ),
        Span::styled(format!("H {h0}→{h1}"), t.risk(1.0, 0.75, 0.5)),
        Span::styled(" ", t.text()),
        Span::styled(format!("M {m0}→{m1}"), t.risk(0.6, 0.75, 0.5)),
        Span::styled(" ", t.text()),
        Span::styled(format!("L {l0}→{l1}"), t.risk(0.0, 0.75, 0.5)),
    ];
    match &candidate {
        None => {
            second.push(Span::styled(
                if wide {
                    format!(" · {masked} masked · reviewed {reviewed}/{masked}")
                } else {
                    format!(" │ {masked} masked, {reviewed} reviewed")
                },
                t.text(),
            ));
            // Residual risks nobody accepted yet count as unreviewed work.
            let (docs, chains) = app.views.open_residuals;
            if wide && docs + chains > 0 {
                second.push(Span::styled(
                    format!(" · residual {docs} doc(s) {chains} chain(s) open"),
                    t.error(),
                ));
            }
        }
        Some(c) => {
            // The candidate's count right after the count in effect: it must not be
            // the part a narrow header cuts.
            second.push(Span::styled(
                if wide {
                    format!(" · {masked} masked → ")
                } else {
                    format!(" │ {masked} masked → ")
                },
                t.text(),
            ));
            second.push(Span::styled(format!("what-if {c}"), t.accent()));
            if wide {
                second.push(Span::styled(
                    format!(" · reviewed {reviewed}/{masked}"),
                    t.text(),
                ));
            }
        }
    }
    frame.render_widget(
        Paragraph::new(vec![Line::from(first), Line::from(second)]),
        area,
    );
}

pub fn draw_status(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let word = if app.recomputing() {
        Span::styled(" recomputing ", t.busy())
    } else if app.is_ready() {
        Span::styled(" ready ", t.ready())
    } else {
        Span::styled(" extracting ", t.busy())
    };
    let width = area.width as usize;
    let cols = |s: &str| unicode_width::UnicodeWidthStr::width(s);
    let pane = app.ui.focus;
    let hint = |a: Action, what: &str| app.keymap.key_for(pane, a).map(|k| format!("{k} {what}"));
    // The review loop from the first screen: where the proposals are, then this
    // pane's own main keys (a hint shows only where its key works).
    let hints: Vec<String> = [
        hint(Action::Help, "help"),
        hint(Action::Quit, "quit"),
        (pane != Pane::Masks)
            .then(|| hint(Action::FocusMasks, "review masks"))
            .flatten(),
        hint(Action::FocusNext, "pane"),
        // Only while the plan leaves residual risk to accept.
        (!app.ws.plan().residual_docs.is_empty() || !app.ws.plan().residual_chains.is_empty())
            .then(|| hint(Action::AcceptResidual, "accept residual"))
            .flatten(),
        hint(Action::Accept, "accept"),
        hint(Action::Override, "override"),
        hint(Action::Pin, "pin"),
        hint(Action::Open, "read"),
        hint(Action::Search, "filter"),
        hint(Action::Undo, "undo"),
        hint(Action::Export, "export"),
        hint(Action::Adopt, "adopt"),
        hint(Action::ResetSettings, "reviewed"),
        hint(Action::ToggleSweep, "sweep"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let mut used = cols(&word.content) + 2;
    let mut spans = vec![word, Span::styled("│ ", t.status_bar())];
    // The message takes what the first hint (help) leaves; it is cut with an ellipsis,
    // the hints never: those that do not fit whole are left out.
    if let Some(m) = &app.message {
        let style = if m.error { t.error() } else { t.status_bar() };
        let reserve = hints.first().map_or(0, |h| cols(h));
        let room = width.saturating_sub(used + reserve + 3);
        let text = sanitize::fit(&sanitize::line(&m.text), room);
        used += cols(&text) + 3;
        spans.push(Span::styled(format!("{text} "), style));
        spans.push(Span::styled("│ ", t.status_bar()));
    }
    let mut shown: Vec<&str> = Vec::new();
    for h in &hints {
        let extra = cols(h) + if shown.is_empty() { 0 } else { 3 };
        if used + extra > width {
            break;
        }
        used += extra;
        shown.push(h);
    }
    spans.push(Span::styled(shown.join(" · "), t.status_bar()));
    frame.render_widget(
        Paragraph::new(Line::from(spans)).style(t.status_bar()),
        area,
    );
}
