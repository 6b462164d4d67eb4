//! The leak check's streaming JSON reader: the strings, numbers and keys of a JSON
//! file as pieces to search, with their line and column.

/// A piece of a JSON file to search: a decoded string, or a bare number, its text a
/// range of [`Pieces::text`].
#[derive(Clone, Copy)]
pub(super) struct Piece {
    start: usize,
    end: usize,
    pub(super) line: usize,
    pub(super) column: usize,
}

/// Pieces read from a JSON file, their texts one after the other in one buffer (a
/// million documents' tables are tens of millions of strings, which were one
/// allocation each).
#[derive(Default)]
pub(super) struct Pieces {
    text: String,
    pub(super) list: Vec<Piece>,
}

impl Pieces {
    /// The text of piece `p`.
    pub(super) fn text(&self, p: &Piece) -> &str {
        &self.text[p.start..p.end]
    }

    /// About the memory the pieces hold.
    pub(super) fn bytes(&self) -> usize {
        self.text.len() + self.list.len() * std::mem::size_of::<Piece>()
    }

    /// Appends `bytes` (as UTF-8, invalid sequences replaced) as a piece's text.
    fn append(&mut self, bytes: &[u8], at: (usize, usize)) -> Piece {
        let start = self.text.len();
        match std::str::from_utf8(bytes) {
            Ok(s) => self.text.push_str(s),
            Err(_) => self.text.push_str(&String::from_utf8_lossy(bytes)),
        }
        Piece {
            start,
            end: self.text.len(),
            line: at.0,
            column: at.1,
        }
    }
}

#[derive(Clone, Copy, PartialEq)]
enum LexState {
    Outside,
    InString,
    Escape,
    Unicode(u8),
    Number,
}

/// A streaming JSON reader that yields the strings (and, outside clam's own files,
/// the numbers and the keys) to search. It never fails: bytes it cannot read as JSON
/// are searched as text between the strings.
pub(super) struct JsonLexer {
    own: bool,
    state: LexState,
    pub(super) line: usize,
    pub(super) column: usize,
    cur: Vec<u8>,
    cur_at: (usize, usize),
    hex: u32,
    high_surrogate: Option<u32>,
    /// A string just closed (the last text in `pieces`): it is a key when ':'
    /// follows.
    pending: Option<Piece>,
    pub(super) pieces: Pieces,
}

impl JsonLexer {
    pub(super) fn new(own: bool) -> Self {
        JsonLexer {
            own,
            state: LexState::Outside,
            line: 1,
            column: 0,
            cur: Vec::new(),
            cur_at: (1, 1),
            hex: 0,
            high_surrogate: None,
            pending: None,
            pieces: Pieces::default(),
        }
    }

    /// The pieces read so far, handed over. A string whose closing quote was read
    /// but not what follows it (a key or a value?) stays, moved into the new pieces.
    pub(super) fn take_pieces(&mut self) -> Pieces {
        let carried = self.pending.map(|p| {
            let text = self.pieces.text(&p).to_string();
            self.pieces.text.truncate(p.start);
            (text, p)
        });
        let out = std::mem::take(&mut self.pieces);
        if let Some((text, p)) = carried {
            self.pending = Some(self.pieces.append(text.as_bytes(), (p.line, p.column)));
        }
        out
    }

    /// The current string or number as a piece.
    fn emit_current(&mut self) {
        let p = self.pieces.append(&self.cur, self.cur_at);
        self.pieces.list.push(p);
    }

    fn settle_pending(&mut self, key: bool) {
        if let Some(p) = self.pending.take() {
            // Keys of clam's own files are clam's field names.
            if key && self.own {
                self.pieces.text.truncate(p.start);
            } else {
                self.pieces.list.push(p);
            }
        }
    }

    fn push_char(&mut self, c: u32) {
        let ch = char::from_u32(c).unwrap_or('\u{fffd}');
        let mut b = [0u8; 4];
        self.cur
            .extend_from_slice(ch.encode_utf8(&mut b).as_bytes());
    }

    pub(super) fn feed(&mut self, bytes: &[u8]) {
        let mut i = 0;
        while i < bytes.len() {
            // Inside a string, the bytes up to its closing quote, an escape or a line
            // break are the string's own: copied at once (most of a table's bytes).
            if self.state == LexState::InString {
                let run =
                    memchr::memchr3(b'"', b'\\', b'\n', &bytes[i..]).unwrap_or(bytes.len() - i);
                let chunk = &bytes[i..i + run];
                self.column += chunk.iter().filter(|&&b| b & 0xC0 != 0x80).count();
                self.cur.extend_from_slice(chunk);
                i += run;
                if i == bytes.len() {
                    break;
                }
            }
            let b = bytes[i];
            i += 1;
            if b == b'\n' {
                self.line += 1;
                self.column = 0;
            } else if b & 0xC0 != 0x80 {
                self.column += 1;
            }
            match self.state {
                LexState::Outside => self.outside(b),
                LexState::Number => match b {
                    b'0'..=b'9' | b'.' | b'e' | b'E' | b'+' | b'-' => self.cur.push(b),
                    _ => {
                        self.end_number();
                        self.state = LexState::Outside;
                        self.outside(b);
                    }
                },
                LexState::InString => match b {
                    b'"' => {
                        self.state = LexState::Outside;
                        let piece = self.pieces.append(&self.cur, self.cur_at);
                        if self.own && is_rfc3339(self.pieces.text(&piece)) {
                            // The audit log's own clock.
                            self.pieces.text.truncate(piece.start);
                            continue;
                        }
                        self.pending = Some(piece);
                    }
                    b'\\' => self.state = LexState::Escape,
                    _ => self.cur.push(b),
                },
                LexState::Escape => {
                    self.state = LexState::InString;
                    match b {
                        b'n' => self.cur.push(b'\n'),
                        b't' => self.cur.push(b'\t'),
                        b'r' => self.cur.push(b'\r'),
                        b'b' => self.cur.push(8),
                        b'f' => self.cur.push(12),
                        b'u' => {
                            self.hex = 0;
                            self.state = LexState::Unicode(0);
                        }
                        other => self.cur.push(other),
                    }
                }
                LexState::Unicode(n) => {
                    let v = (b as char).to_digit(16).unwrap_or(0);
                    self.hex = self.hex * 16 + v;
                    if n < 3 {
                        self.state = LexState::Unicode(n + 1);
                        continue;
                    }
                    self.state = LexState::InString;
                    let u = self.hex;
                    match (self.high_surrogate.take(), u) {
                        (None, 0xD800..=0xDBFF) => self.high_surrogate = Some(u),
                        (Some(h), 0xDC00..=0xDFFF) => {
                            self.push_char(0x10000 + ((h - 0xD800) << 10) + (u - 0xDC00))
                        }
                        (Some(_), u) => {
                            self.push_char(0xFFFD);
                            self.push_char(u);
                        }
                        (None, u) => self.push_char(u),
                    }
                }
            }
        }
    }

    /// A byte outside strings and numbers.
    fn outside(&mut self, b: u8) {
        match b {
            b'"' => {
                self.settle_pending(false);
                self.state = LexState::InString;
                self.cur.clear();
                self.cur_at = (self.line, self.column);
            }
            b':' => self.settle_pending(true),
            b' ' | b'\t' | b'\r' | b'\n' => {}
            b'-' | b'0'..=b'9' => {
                self.settle_pending(false);
                self.state = LexState::Number;
                self.cur.clear();
                self.cur.push(b);
                self.cur_at = (self.line, self.column);
            }
            _ => self.settle_pending(false),
        }
    }

    fn end_number(&mut self) {
        if !self.own {
            self.emit_current();
        }
    }

    pub(super) fn finish(&mut self) {
        match self.state {
            LexState::Number => self.end_number(),
            LexState::InString | LexState::Escape | LexState::Unicode(_) => {
                // An unterminated string is still text.
                self.emit_current();
            }
            LexState::Outside => {}
        }
        self.state = LexState::Outside;
        self.settle_pending(false);
    }
}

/// `2026-11-24T05:32:00Z`, with optional fractional seconds and a `Z` or `±hh:mm` offset
/// (ASCII only, read as bytes: it is asked of every string of clam's own files).
pub(super) fn is_rfc3339(s: &str) -> bool {
    let s = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| r.clone().all(|i| s.get(i).is_some_and(u8::is_ascii_digit));
    let at = |i: usize, c: u8| s.get(i) == Some(&c);
    if s.len() < 20
        || !(digits(0..4) && at(4, b'-') && digits(5..7) && at(7, b'-') && digits(8..10))
        || !(at(10, b'T') && digits(11..13) && at(13, b':') && digits(14..16) && at(16, b':'))
        || !digits(17..19)
    {
        return false;
    }
    let mut i = 19;
    if at(i, b'.') {
        i += 1;
        let start = i;
        while s.get(i).is_some_and(u8::is_ascii_digit) {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    match s.get(i) {
        Some(b'Z') => i + 1 == s.len(),
        Some(b'+' | b'-') => {
            i + 6 == s.len() && digits(i + 1..i + 3) && at(i + 3, b':') && digits(i + 4..i + 6)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The pieces of `text` fed in blocks of `chunk` bytes, handed over after every
    /// block (as the leak check hands them to the searching threads).
    fn lex(text: &[u8], chunk: usize, own: bool) -> Vec<(String, usize, usize)> {
        let mut lexer = JsonLexer::new(own);
        let mut out = Vec::new();
        let mut take = |pieces: Pieces| {
            out.extend(
                pieces
                    .list
                    .iter()
                    .map(|p| (pieces.text(p).to_string(), p.line, p.column)),
            )
        };
        for part in text.chunks(chunk.max(1)) {
            lexer.feed(part);
            take(lexer.take_pieces());
        }
        lexer.finish();
        take(lexer.take_pieces());
        out
    }

    proptest! {
        /// Whatever the blocks a file is read in, the same strings at the same line
        /// and column, decoded as serde_json decodes them (keys of clam's own files
        /// aside).
        #[test]
        fn pieces_do_not_depend_on_the_blocks(
            rows in proptest::collection::vec(
                ("\\PC{0,12}", "[a-z\\u{e9}\\u{4e2d}\"\\\\\\n\\t/]{0,12}", -1000i64..1000),
                1..8,
            ),
            chunk in 1usize..40,
        ) {
            let mut text = String::new();
            let mut want = Vec::new();
            for (a, b, n) in &rows {
                let row = serde_json::json!({"k": a, "v": [b, n]});
                text.push_str(&serde_json::to_string_pretty(&row).unwrap_or_default());
                text.push('\n');
                want.push(a.clone());
                want.push(b.clone());
            }
            let whole = lex(text.as_bytes(), text.len(), true);
            prop_assert_eq!(&lex(text.as_bytes(), chunk, true), &whole);
            let strings: Vec<String> = whole.into_iter().map(|(t, _, _)| t).collect();
            prop_assert_eq!(strings, want);
        }
    }

    #[test]
    fn a_string_is_placed_at_its_opening_quote() {
        let text = "{\n  \"a\": \"x\\u00e9y\",\n  \"b\": [\"l\u{e9}\", 12]\n}";
        let pieces = lex(text.as_bytes(), 3, false);
        let want: Vec<(String, usize, usize)> = vec![
            ("a".into(), 2, 3),
            ("x\u{e9}y".into(), 2, 8),
            ("b".into(), 3, 3),
            ("l\u{e9}".into(), 3, 9),
            ("12".into(), 3, 15),
        ];
        assert_eq!(pieces, want);
    }
}
