//! Mouse input: clicks and scrolls on the panes, the character under the pointer, the text selection in the document pane.

use super::*;

impl App {
    /// A mouse event: a click focuses the pane under it and selects the row.
    pub fn handle_mouse(&mut self, ev: MouseEvent) {
        if !self.layers.is_empty() {
            return;
        }
        let pos = Position::new(ev.column, ev.row);
        match ev.kind {
            MouseEventKind::Down(MouseButton::Left) => {
                let Some(pane) = self
                    .rects
                    .panes
                    .iter()
                    .find(|(_, r)| r.contains(pos))
                    .map(|(p, _)| *p)
                else {
                    return;
                };
                self.ui.focus(pane);
                if let Some((_, body, offset)) = self
                    .rects
                    .list_body
                    .iter()
                    .find(|(p, r, _)| *p == pane && r.contains(pos))
                    .copied()
                {
                    let row = offset + (pos.y - body.y) as usize;
                    if let Some(list) = self.ui.list_mut(pane)
                        && row < list.rows.len()
                    {
                        list.selected = row;
                        list.touched = true;
                    }
                    self.after_move(pane);
                }
                if pane == Pane::Document
                    && let Some((_, k)) = self.rects.mentions.iter().find(|(r, _)| r.contains(pos))
                {
                    self.ui.doc_cursor = *k;
                }
                self.ui.doc_selection = None;
                if pane == Pane::Document
                    && let Some(doc) = self.ui.open_doc
                    && let Some(at) = self.char_at(pos, true)
                {
                    self.ui.doc_selection = Some(DocSelection {
                        doc,
                        anchor: at,
                        head: at,
                    });
                }
                if pane == Pane::Graph
                    && let Some(area) = self.rects.graph
                    && let Some(doc) = self.views.layout.hit(
                        area,
                        pos,
                        self.ui
                            .open_doc
                            .and_then(|d| self.views.model_of_doc.get(d).copied().flatten()),
                        self.ws.analysis(),
                    )
                {
                    let corpus = self.ws.model().docs[doc].corpus_index;
                    self.select_document(corpus);
                }
                self.measure_gold();
                self.dirty = true;
            }
            MouseEventKind::Drag(MouseButton::Left) => {
                if let Some(sel) = self.ui.doc_selection
                    && let Some(at) = self.char_at(pos, false)
                {
                    self.ui.doc_selection = Some(DocSelection { head: at, ..sel });
                    self.dirty = true;
                }
            }
            MouseEventKind::Up(MouseButton::Left) => {
                if let Some(sel) = self.ui.doc_selection {
                    if sel.anchor == sel.head {
                        // A click, not a drag.
                        self.ui.doc_selection = None;
                    } else if let Some((a, b)) = self.selected_span() {
                        let text: String = self.ws.corpus().documents[sel.doc]
                            .content
                            .chars()
                            .skip(a)
                            .take(b - a)
                            .collect();
                        self.info(format!(
                            "selected “{}” · + adds it as an entity · Esc clears",
                            sanitize::fit(&sanitize::line(&text), 40)
                        ));
                    }
                    self.dirty = true;
                }
            }
            MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
                let down = ev.kind == MouseEventKind::ScrollDown;
                if let Some(pane) = self
                    .rects
                    .panes
                    .iter()
                    .find(|(_, r)| r.contains(pos))
                    .map(|(p, _)| *p)
                {
                    let saved = self.ui.focus;
                    self.ui.focus = pane;
                    self.update(if down { Action::Down } else { Action::Up });
                    self.ui.focus = saved;
                }
            }
            _ => {}
        }
    }

    /// The document offset of the character at `pos` in the document view; with
    /// `exact` false, a pointer past the end of a line takes the line's last
    /// character (dragging beyond the text still extends the selection).
    pub(super) fn char_at(&self, pos: Position, exact: bool) -> Option<usize> {
        let chars = &self.rects.doc_chars;
        if let Some((_, off)) = chars.iter().find(|(r, _)| r.contains(pos)) {
            return Some(*off);
        }
        if exact {
            return None;
        }
        chars
            .iter()
            .filter(|(r, _)| r.y == pos.y && r.x <= pos.x)
            .max_by_key(|(r, _)| r.x)
            .map(|(_, off)| *off)
    }

    /// The mouse selection of the open document widened to whole words and trimmed
    /// of surrounding spaces and punctuation (half-open, code points), if any is
    /// left.
    pub fn selected_span(&self) -> Option<(usize, usize)> {
        let sel = self.ui.doc_selection?;
        if Some(sel.doc) != self.ui.open_doc {
            return None;
        }
        let chars: Vec<char> = self
            .ws
            .corpus()
            .documents
            .get(sel.doc)?
            .content
            .chars()
            .collect();
        let (mut a, mut b) = sel.range();
        b = b.min(chars.len());
        let word = |c: char| c.is_alphanumeric();
        while a > 0 && a < chars.len() && word(chars[a]) && word(chars[a - 1]) {
            a -= 1;
        }
        while b > 0 && b < chars.len() && word(chars[b - 1]) && word(chars[b]) {
            b += 1;
        }
        let edge = |c: char| c.is_whitespace() || ",;:.!?()[]{}\"'«»“”‘’".contains(c);
        while a < b && edge(chars[a]) {
            a += 1;
        }
        while b > a && edge(chars[b - 1]) {
            b -= 1;
        }
        (a < b).then_some((a, b))
    }

    /// Keeps the scroll offsets the last draw settled on.
    pub fn set_rects(&mut self, rects: Rects) {
        for (pane, _, offset) in &rects.list_body {
            if let Some(list) = self.ui.list_mut(*pane) {
                list.offset = *offset;
            }
        }
        self.ui.doc_scroll = rects.doc_scroll;
        self.ui.doc_follow = false;
        self.ui.doc_search_jump = false;
        self.rects = rects;
    }
}
