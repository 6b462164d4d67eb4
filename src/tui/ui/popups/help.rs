//! The help popup, generated from the keymap: the focused pane's keys, then the
//! global ones, each with the description the keymap carries.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use super::super::super::app::App;
use super::{centered, popup_block};

pub fn draw(frame: &mut Frame, area: Rect, app: &App) {
    let t = &app.theme;
    let pane = app.ui.focus;
    let mut lines = Vec::new();
    for (title, section) in [(pane.title(), pane.key()), ("Everywhere", "global")] {
        lines.push(Line::from(Span::styled(title.to_string(), t.accent())));
        for b in app.keymap.section(section) {
            let keys: Vec<String> = b.keys.iter().map(|k| k.label()).collect();
            lines.push(Line::from(vec![
                Span::styled(format!("  {:<14}", keys.join(" ")), t.header()),
                Span::styled(b.desc.clone(), t.text()),
            ]));
        }
    }
    lines.push(Line::from(Span::styled(
        "any key closes this help · mouse: click a pane or row",
        t.muted(),
    )));
    let h = (lines.len() as u16 + 2).min(area.height);
    let r = centered(area, 70, h);
    frame.render_widget(Clear, r);
    frame.render_widget(Paragraph::new(lines).block(popup_block("Help", t)), r);
}
