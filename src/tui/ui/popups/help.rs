//! The help popup, generated from the keymap: the focused pane's keys, then the
//! global ones, each with the description the keymap carries.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::super::super::app::App;
use super::{centered, popup_block};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let pane = app.ui.focus;
    let column = |title: &str, section: &str| {
        let mut lines = vec![Line::from(Span::styled(title.to_string(), t.accent()))];
        for b in app.keymap.section(section) {
            let keys: Vec<String> = b.keys.iter().map(|k| k.label()).collect();
            lines.push(Line::from(vec![
                Span::styled(format!("{:<9} ", keys.join(" ")), t.header()),
                Span::styled(b.desc.clone(), t.text()),
            ]));
        }
        lines
    };
    // Two columns (the focused pane's keys, then the global ones) so the whole
    // table fits in 80×24.
    let left = column(&format!("{} pane", pane.title()), pane.key());
    let right = column("Everywhere", "global");
    let h = (left.len().max(right.len()) as u16 + 3).min(area.height);
    let r = centered(area, 100, h);
    frame.render_widget(Clear, r);
    let block = popup_block("Help — any key closes", t);
    let inner = block.inner(r);
    frame.render_widget(block, r);
    let [l, _, rr] = Layout::horizontal([
        Constraint::Fill(1),
        Constraint::Length(1),
        Constraint::Fill(1),
    ])
    .areas(inner);
    frame.render_widget(Paragraph::new(left).wrap(Wrap { trim: false }), l);
    frame.render_widget(Paragraph::new(right).wrap(Wrap { trim: false }), rr);
}
