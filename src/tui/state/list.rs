//! A virtualized list: the rows are indices into a model collection, filtered and
//! sorted by the app; only the visible window is ever drawn, so 10,000 rows cost the
//! same per frame as 20.

/// Selection, scroll offset and text filter of one list pane.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ListState {
    /// The visible rows (indices into the pane's collection), in display order.
    pub rows: Vec<usize>,
    /// Selected position in `rows`.
    pub selected: usize,
    /// First row drawn.
    pub offset: usize,
    /// The text filter (empty: none).
    pub filter: String,
    /// The user moved the selection: new rows keep the selected item. Until then
    /// the selection stays on the first row while results stream in.
    pub touched: bool,
}

impl ListState {
    /// The selected item (an index into the collection), if any.
    pub fn current(&self) -> Option<usize> {
        self.rows.get(self.selected).copied()
    }

    /// Replaces the rows, keeping the selected item when it is still listed.
    pub fn set_rows(&mut self, rows: Vec<usize>) {
        let keep = if self.touched { self.current() } else { None };
        self.rows = rows;
        self.selected = keep
            .and_then(|k| self.rows.iter().position(|r| *r == k))
            .unwrap_or(self.selected.min(self.rows.len().saturating_sub(1)));
    }

    /// Selects the item `item` if listed.
    pub fn select_item(&mut self, item: usize) -> bool {
        match self.rows.iter().position(|r| *r == item) {
            Some(p) => {
                self.selected = p;
                self.touched = true;
                true
            }
            None => false,
        }
    }

    /// Moves the selection by `delta` rows, clamped.
    pub fn move_by(&mut self, delta: isize) {
        if self.rows.is_empty() {
            self.selected = 0;
            return;
        }
        let last = self.rows.len() - 1;
        self.selected = self.selected.saturating_add_signed(delta).min(last);
        self.touched = true;
    }

    pub fn top(&mut self) {
        self.selected = 0;
        self.touched = true;
    }

    pub fn bottom(&mut self) {
        self.selected = self.rows.len().saturating_sub(1);
        self.touched = true;
    }

    /// The window of rows to draw for `height` lines, scrolled so the selection is
    /// visible (the offset is remembered between frames so the list does not jump).
    pub fn window(&self, height: usize) -> (usize, usize) {
        let height = height.max(1);
        let mut offset = self.offset.min(self.rows.len().saturating_sub(1));
        if self.selected < offset {
            offset = self.selected;
        } else if self.selected >= offset + height {
            offset = self.selected + 1 - height;
        }
        (offset, (offset + height).min(self.rows.len()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moving_is_clamped_and_the_window_follows_the_selection() {
        let mut l = ListState {
            rows: (0..100).collect(),
            ..ListState::default()
        };
        l.move_by(-3);
        assert_eq!(l.selected, 0);
        l.move_by(50);
        assert_eq!(l.window(10), (41, 51));
        l.bottom();
        assert_eq!(l.current(), Some(99));
        l.move_by(5);
        assert_eq!(l.selected, 99);
    }

    #[test]
    fn new_rows_keep_the_selected_item() {
        let mut l = ListState {
            rows: vec![4, 5, 6],
            selected: 1,
            ..ListState::default()
        };
        l.set_rows(vec![9, 6, 5]);
        assert_eq!(l.current(), Some(6), "untouched: the position stays");
        l.select_item(5);
        l.set_rows(vec![9, 6, 5]);
        assert_eq!(l.current(), Some(5));
        l.set_rows(vec![1]);
        assert_eq!(l.current(), Some(1));
    }
}
