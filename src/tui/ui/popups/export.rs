//! The export dialog: output folder (a text input), redaction mode, the
//! require-reviewed switch, a summary of what will be written, and after Enter the
//! result of the same export `clam run` performs — or the leak-check hits.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Wrap};

use super::super::super::app::{App, ExportDialog, ExportOutcome};
use super::super::super::sanitize;
use super::super::super::state::ExportField;
use super::{centered, popup_block};

pub fn draw(frame: &mut Frame, area: Rect, app: &App, d: &ExportDialog) {
    let t = &app.theme;
    let r = centered(area, 76, 18);
    frame.render_widget(Clear, r);
    let block = popup_block("Export the redacted corpus", t);
    let inner = block.inner(r);
    frame.render_widget(block, r);
    let [folder, mode, reviewed, summary, result, hint] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Length(1),
        Constraint::Length(1),
        Constraint::Length(2),
        Constraint::Fill(1),
        Constraint::Length(1),
    ])
    .areas(inner);
    let mut input = d.folder.clone();
    input.set_block(
        Block::bordered()
            .border_style(t.border(d.field == ExportField::Folder))
            .title(" output folder "),
    );
    input.set_style(t.text());
    frame.render_widget(&input, folder);
    let marker = |f: ExportField| if d.field == f { "▶ " } else { "  " };
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(format!("{}mode: ", marker(ExportField::Mode)), t.text()),
            Span::styled(format!("◀ {} ▶", d.mode.as_str()), t.accent()),
        ])),
        mode,
    );
    frame.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled(
                format!(
                    "{}require every mask reviewed: ",
                    marker(ExportField::RequireReviewed)
                ),
                t.text(),
            ),
            Span::styled(if d.require_reviewed { "[x]" } else { "[ ]" }, t.accent()),
        ])),
        reviewed,
    );
    let (reviewed_n, masked) = app.reviewed_masks();
    let (open_docs, open_chains) = app.views.open_residuals;
    frame.render_widget(
        Paragraph::new(Span::styled(
            format!(
                "{} documents · {} of {} entities masked · {} unreviewed · {} residual doc(s), {} residual chain(s), {} not accepted",
                app.ws.corpus().documents.len(),
                masked,
                app.ws.model().entities.len(),
                masked - reviewed_n,
                app.ws.plan().residual_docs.len(),
                app.ws.plan().residual_chains.len(),
                open_docs + open_chains
            ),
            t.muted(),
        ))
        .wrap(Wrap { trim: true }),
        summary,
    );
    let lines: Vec<Line> = match &d.outcome {
        None => Vec::new(),
        Some(ExportOutcome::Running | ExportOutcome::Exporting) => vec![Line::from(Span::styled(
            "exporting… (redacting, writing, leak check)",
            t.busy(),
        ))],
        Some(ExportOutcome::Written(lines)) => lines
            .iter()
            .map(|l| Line::from(Span::styled(sanitize::line(l), t.ok())))
            .collect(),
        Some(ExportOutcome::Leak(hits)) => {
            let mut v = vec![Line::from(Span::styled(
                format!("leak check failed, nothing exported: {} hit(s)", hits.len()),
                t.error(),
            ))];
            v.extend(
                hits.iter()
                    .map(|h| Line::from(Span::styled(sanitize::line(h), t.text()))),
            );
            v
        }
        Some(ExportOutcome::Failed(msg)) => {
            vec![Line::from(Span::styled(sanitize::line(msg), t.error()))]
        }
    };
    frame.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), result);
    frame.render_widget(
        Paragraph::new(Span::styled(
            "Tab/↑↓ field · ←→/Space change · Enter export · Esc close",
            t.muted(),
        )),
        hint,
    );
}
