//! The document view: the text with every entity mention highlighted in its type's
//! colour (masked ones as solid blocks, kept ones underlined), the mention under the
//! cursor with its figures (type, relevance, u(e), c(e,d), decision and why), and a
//! legend. `r` shows the redacted preview in the chosen mode instead. The text is
//! wrapped here rather than by `Paragraph` so the view knows which line the cursor
//! is on and can keep it visible; every character goes through `sanitize`.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use unicode_width::UnicodeWidthChar;

use crate::plan::ProvenanceText;

use super::super::app::{App, review_label};
use super::super::sanitize;
use super::super::state::Pane;
use super::{fit, pane_block};

/// One drawn character: the character, its style, the mention it belongs to,
/// whether it is part of the first search match, and its offset in the document
/// (code points; none for the text of a replacement in the redacted preview).
type Cell = (char, Style, Option<usize>, bool, Option<usize>);

/// Character ranges of case-insensitive matches of `needle` in `chars`.
fn find_all(chars: &[char], needle: &str) -> Vec<(usize, usize)> {
    let fold = |c: char| c.to_lowercase().next().unwrap_or(c);
    let pat: Vec<char> = needle.chars().map(fold).collect();
    if pat.is_empty() || pat.len() > chars.len() {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i + pat.len() <= chars.len() {
        if chars[i..i + pat.len()]
            .iter()
            .zip(&pat)
            .all(|(a, b)| fold(*a) == *b)
        {
            out.push((i, i + pat.len()));
            i += pat.len();
        } else {
            i += 1;
        }
    }
    out
}

/// Highlights search matches and flags the first, so the view can scroll to it.
fn mark_matches(out: &mut [Cell], needle: &str, style: Style) -> usize {
    let chars: Vec<char> = out.iter().map(|c| c.0).collect();
    let hits = find_all(&chars, needle);
    for (k, &(a, b)) in hits.iter().enumerate() {
        for cell in &mut out[a..b] {
            cell.1 = cell.1.patch(style);
            cell.3 |= k == 0;
        }
    }
    hits.len()
}

/// Styled characters of the document, `\n` kept as line breaks.
fn cells(app: &App, doc: usize) -> Vec<Cell> {
    let t = &app.theme;
    let content = &app.ws.corpus().documents[doc].content;
    let chars: Vec<char> = content.chars().collect();
    let mut out: Vec<Cell> = Vec::with_capacity(chars.len());
    if app.ui.redacted_preview {
        let Some(replacer) = &app.views.replacer else {
            return out;
        };
        let hits = replacer.find(content);
        let mut ci = 0;
        for h in hits {
            while ci < h.span.start && ci < chars.len() {
                out.push((chars[ci], t.text(), None, false, Some(ci)));
                ci += 1;
            }
            let ty = &replacer.entities()[h.entity].entity_type;
            for c in replacer.replacement(h.entity).chars() {
                out.push((c, t.entity(ty, true), None, false, None));
            }
            ci = h.span.end;
        }
        let from = ci.min(chars.len());
        out.extend(
            chars[from..]
                .iter()
                .enumerate()
                .map(|(k, &c)| (c, t.text(), None, false, Some(from + k))),
        );
        return out;
    }
    out.extend(
        chars
            .iter()
            .enumerate()
            .map(|(i, &c)| (c, t.text(), None, false, Some(i))),
    );
    let mentions = app.mentions(doc);
    // The via entities of the chain selected in the chains pane stand out.
    let via: Vec<usize> = app
        .selected_chain()
        .map(|c| {
            app.ws.analysis().chains[c]
                .hops()
                .iter()
                .flat_map(|&h| {
                    app.ws.analysis().edges[h as usize]
                        .via
                        .iter()
                        .map(|(e, _)| *e as usize)
                })
                .collect()
        })
        .unwrap_or_default();
    for (k, m) in mentions.iter().enumerate() {
        let masked = m.entity.is_some_and(|i| app.ws.plan().masked[i]);
        let style = if k == app.ui.doc_cursor && app.ui.focus == Pane::Document {
            t.cursor()
        } else if m.entity.is_some_and(|i| via.contains(&i)) {
            t.entity(&m.entity_type, masked)
                .add_modifier(Modifier::BOLD | Modifier::ITALIC)
        } else {
            t.entity(&m.entity_type, masked)
        };
        for cell in out.iter_mut().take(m.end.min(chars.len())).skip(m.start) {
            // Nested mentions keep the outer one's cursor mark.
            if cell.2 != Some(app.ui.doc_cursor) || k == app.ui.doc_cursor {
                cell.1 = style;
                cell.2 = Some(k);
            }
        }
    }
    mark_matches(&mut out, &app.ui.doc_search, t.linked());
    if let Some(sel) = app.ui.doc_selection.filter(|s| s.doc == doc) {
        let (a, b) = sel.range();
        let style = t.selection(true).add_modifier(Modifier::UNDERLINED);
        for cell in out.iter_mut().take(b.min(chars.len())).skip(a) {
            cell.1 = cell.1.patch(style);
        }
    }
    out
}

/// Greedy word wrap of `cells` to `width` columns; returns the lines and the line
/// holding mention `cursor`.
fn wrap(cells: &[Cell], width: usize, cursor: usize) -> (Vec<Vec<Cell>>, Option<usize>) {
    let (lines, found) = wrap_lines(cells, width);
    let line_of = |m: usize| found.iter().position(|l| l.contains(&m));
    (lines, line_of(cursor))
}

/// The line holding the first search match.
fn match_line(lines: &[Vec<Cell>]) -> Option<usize> {
    lines.iter().position(|l| l.iter().any(|c| c.3))
}

fn wrap_lines(cells: &[Cell], width: usize) -> (Vec<Vec<Cell>>, Vec<Vec<usize>>) {
    let width = width.max(1);
    let mut lines: Vec<Vec<Cell>> = Vec::new();
    for logical in cells.split(|c| c.0 == '\n') {
        let mut cur: Vec<Cell> = Vec::new();
        let mut cur_w = 0usize;
        for &(ch, style, m, found, off) in logical {
            if ch == '\r' {
                continue;
            }
            let ch = sanitize::placeholder(ch).unwrap_or(ch);
            let cw = ch.width().unwrap_or(0);
            if cur_w + cw > width && !cur.is_empty() {
                let split = cur
                    .iter()
                    .rposition(|c| c.0 == ' ')
                    .filter(|&p| p > 0)
                    .map(|p| p + 1)
                    .unwrap_or(cur.len());
                let rest = cur.split_off(split);
                lines.push(std::mem::replace(&mut cur, rest));
                cur_w = cur.iter().map(|c| c.0.width().unwrap_or(0)).sum();
            }
            cur.push((ch, style, m, found, off));
            cur_w += cw;
        }
        lines.push(cur);
    }
    let mentions = lines
        .iter()
        .map(|l| {
            let mut m: Vec<usize> = l.iter().filter_map(|c| c.2).collect();
            m.dedup();
            m
        })
        .collect();
    (lines, mentions)
}

fn to_line(cells: &[Cell]) -> Line<'static> {
    let mut spans: Vec<Span> = Vec::new();
    let mut buf = String::new();
    let mut style = None;
    for &(ch, s, _, _, _) in cells {
        if style != Some(s) {
            if let Some(prev) = style {
                spans.push(Span::styled(std::mem::take(&mut buf), prev));
            }
            style = Some(s);
        }
        buf.push(ch);
    }
    if let Some(prev) = style {
        spans.push(Span::styled(buf, prev));
    }
    Line::from(spans)
}

/// The cursor mention's figures, two lines.
fn info(app: &App, doc: usize, width: usize) -> Vec<Line<'static>> {
    let t = &app.theme;
    let Some(m) = app.mentions(doc).get(app.ui.doc_cursor).cloned() else {
        return vec![Line::from(Span::styled(
            "no entities in this document",
            t.muted(),
        ))];
    };
    let value = sanitize::line(
        &app.ws
            .store()
            .keys
            .get(&m.entity_id)
            .map(|k| k.normalized.clone())
            .unwrap_or_default(),
    );
    let mut first = vec![
        Span::styled(m.entity_type.clone(), t.entity(&m.entity_type, false)),
        Span::styled(format!(" “{}”", fit(&value, 30)), t.text()),
    ];
    let Some(i) = m.entity else {
        first.push(Span::styled(" · not in the analysis yet", t.muted()));
        return vec![Line::from(first)];
    };
    let an = app.ws.analysis();
    let model_doc = app.views.model_of_doc.get(doc).copied().flatten();
    let relevance = app.ws.store().docs[doc]
        .entities
        .iter()
        .find(|e| e.entity_id == m.entity_id)
        .map_or(0.0, |e| e.relevance);
    let c = model_doc
        .and_then(|md| {
            an.contributions[md]
                .iter()
                .find(|(e, _)| *e as usize == i)
                .map(|(_, c)| *c)
        })
        .unwrap_or(0.0);
    first.push(Span::styled(
        format!(
            " · rel {relevance:.2} · u(e) {:.2} · c(e,d) {c:.2} · s_e {:.2}",
            an.uniqueness[i], an.global_contribution[i]
        ),
        t.text(),
    ));
    let masked = app.ws.plan().masked[i];
    let review = app
        .views
        .review
        .get(i)
        .map_or("proposed", |r| review_label(*r));
    let why = ProvenanceText {
        provenance: &app.ws.plan().provenance[i],
        model: app.ws.model(),
        analysis: an,
        theta_doc: app.ws.config().plan.theta_doc,
    }
    .to_string();
    let second = vec![
        Span::styled(
            if masked { "MASK " } else { "KEEP " },
            if masked { t.error() } else { t.ok() },
        ),
        Span::styled(format!("[{review}] "), t.accent()),
        Span::styled(
            fit(&sanitize::line(&why), width.saturating_sub(20)),
            t.muted(),
        ),
    ];
    vec![Line::from(first), Line::from(second)]
}

fn legend(app: &App, doc: usize) -> Line<'static> {
    let t = &app.theme;
    let mut types: Vec<String> = app
        .mentions(doc)
        .into_iter()
        .map(|m| m.entity_type)
        .collect();
    types.sort();
    types.dedup();
    let mut spans = vec![
        Span::styled("masked", t.entity("NAME", true)),
        Span::styled(" kept", t.muted()),
        Span::styled(" │ ", t.muted()),
    ];
    for ty in types {
        spans.push(Span::styled(
            format!("■{ty} "),
            Style::new().fg(t.type_color(&ty)),
        ));
    }
    Line::from(spans)
}

/// Screen rectangles of the mentions on visible lines, for mouse clicks.
fn mention_rects(lines: &[Vec<Cell>], area: Rect) -> Vec<(Rect, usize)> {
    let mut out = Vec::new();
    for (row, line) in lines.iter().enumerate().take(area.height as usize) {
        let mut col = 0u16;
        let mut run: Option<(u16, usize)> = None;
        for &(ch, _, m, _, _) in line {
            let w = ch.width().unwrap_or(0) as u16;
            match (run, m) {
                (Some((_, k)), Some(m)) if k == m => {}
                _ => {
                    if let Some((start, k)) = run.take() {
                        out.push((
                            Rect::new(area.x + start, area.y + row as u16, col - start, 1),
                            k,
                        ));
                    }
                    run = m.map(|m| (col, m));
                }
            }
            col += w;
        }
        if let Some((start, k)) = run {
            out.push((
                Rect::new(area.x + start, area.y + row as u16, col - start, 1),
                k,
            ));
        }
    }
    out.retain(|(r, _)| r.right() <= area.right());
    out
}

/// Screen cells of the characters on visible lines (one column each, or two for
/// wide characters) with their document offsets, for mouse selection.
fn char_rects(lines: &[Vec<Cell>], area: Rect) -> Vec<(Rect, usize)> {
    let mut out = Vec::new();
    for (row, line) in lines.iter().enumerate().take(area.height as usize) {
        let mut col = 0u16;
        for &(ch, _, _, _, off) in line {
            let w = ch.width().unwrap_or(0) as u16;
            if let Some(off) = off
                && w > 0
                && col + w <= area.width
            {
                out.push((Rect::new(area.x + col, area.y + row as u16, w, 1), off));
            }
            col = col.saturating_add(w);
        }
    }
    out
}

/// What the document view drew: the scroll offset it settled on, where the
/// mentions are, and where each visible character is.
pub struct Drawn {
    pub scroll: usize,
    pub mentions: Vec<(Rect, usize)>,
    pub chars: Vec<(Rect, usize)>,
}

/// Draws the view; returns the scroll offset used and where the mentions and
/// characters are.
pub fn draw(frame: &mut Frame, area: Rect, app: &App, focused: bool) -> Drawn {
    let t = &app.theme;
    let Some(doc) = app
        .ui
        .open_doc
        .filter(|d| *d < app.ws.corpus().documents.len())
    else {
        let block = pane_block(&super::titled(app, Pane::Document), "", focused, t);
        frame.render_widget(
            Paragraph::new(Span::styled("no document selected", t.muted())).block(block),
            area,
        );
        return Drawn {
            scroll: 0,
            mentions: Vec::new(),
            chars: Vec::new(),
        };
    };
    let d = &app.ws.corpus().documents[doc];
    let mut mode = if app.ui.redacted_preview {
        format!(
            "redacted preview ({})",
            app.ws.config().redact.mode.as_str()
        )
    } else {
        let n = app.mentions(doc).len();
        format!("{} mention(s)", n)
    };
    if !app.ui.doc_search.is_empty() {
        let chars: Vec<char> = d.content.chars().collect();
        mode = format!(
            "/{}: {} found",
            sanitize::line(&app.ui.doc_search),
            find_all(&chars, &app.ui.doc_search).len()
        );
    }
    let title = format!(
        "{} {}",
        super::titled(app, Pane::Document),
        sanitize::line(&d.id)
    );
    let block = pane_block(&title, &mode, focused, t);
    let inner = block.inner(area);
    frame.render_widget(block, area);
    // The legend wraps onto a second row rather than be cut.
    let legend_line = legend(app, doc);
    let legend_rows = if legend_line.width() > inner.width as usize {
        2
    } else {
        1
    };
    let [text_area, info_area, legend_area] = Layout::vertical([
        Constraint::Fill(1),
        Constraint::Length(if inner.height >= 30 { 4 } else { 3 }),
        Constraint::Length(legend_rows),
    ])
    .areas(inner);
    let (lines, cursor_line) = wrap(
        &cells(app, doc),
        text_area.width as usize,
        app.ui.doc_cursor,
    );
    let height = text_area.height as usize;
    let max_scroll = lines.len().saturating_sub(height);
    let mut scroll = app.ui.doc_scroll.min(max_scroll);
    let target = if app.ui.doc_search_jump {
        match_line(&lines)
    } else if app.ui.doc_follow {
        cursor_line
    } else {
        None
    };
    if let Some(cl) = target {
        if cl < scroll {
            scroll = cl;
        } else if cl >= scroll + height {
            scroll = (cl + 1).saturating_sub(height);
        }
    }
    let visible: Vec<Line> = lines
        .iter()
        .skip(scroll)
        .take(height)
        .map(|l| to_line(l))
        .collect();
    frame.render_widget(Paragraph::new(visible), text_area);
    frame.render_widget(
        Paragraph::new(info(app, doc, 2 * info_area.width as usize)).wrap(Wrap { trim: true }),
        info_area,
    );
    frame.render_widget(
        Paragraph::new(legend_line).wrap(Wrap { trim: true }),
        legend_area,
    );
    let shown = &lines[scroll.min(lines.len())..];
    if app.ui.redacted_preview {
        Drawn {
            scroll,
            mentions: Vec::new(),
            chars: Vec::new(),
        }
    } else {
        Drawn {
            scroll,
            mentions: mention_rects(shown, text_area),
            chars: char_rects(shown, text_area),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrapping_breaks_at_spaces_and_finds_the_cursor_line() {
        let s = Style::new();
        let cells: Vec<Cell> = "alpha beta gamma\ndelta"
            .chars()
            .enumerate()
            .map(|(i, c)| (c, s, (11..16).contains(&i).then_some(3), false, Some(i)))
            .collect();
        let (lines, cursor) = wrap(&cells, 11, 3);
        let text: Vec<String> = lines
            .iter()
            .map(|l| l.iter().map(|c| c.0).collect())
            .collect();
        assert_eq!(text, vec!["alpha beta ", "gamma", "delta"]);
        assert_eq!(cursor, Some(1));
    }
}
