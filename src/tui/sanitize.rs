//! Document text comes from untrusted files: an ESC byte or another control character
//! sent to the terminal could move the cursor, change colours or worse. Everything the
//! UI draws from a document passes through here and comes out as visible
//! placeholders (`␛`, `␀`…`␟`, `␡`, `�`), one character for one, so entity spans
//! (code-point offsets) still line up with what is drawn.

/// The visible stand-in for a control or bidirectional-override character, or None
/// when `c` is safe to draw as is. Tabs become one space; `\n` is handled by callers.
pub fn placeholder(c: char) -> Option<char> {
    match c {
        '\t' => Some(' '),
        '\u{7f}' => Some('\u{2421}'),
        c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32),
        // C1 controls, bidi marks, embeddings, overrides and isolates, line and
        // paragraph separators: the set of `display::is_unsafe_char`, the one sanitizer's.
        c if crate::display::is_unsafe_char(c) => Some('\u{fffd}'),
        _ => None,
    }
}

/// A single-line string safe to draw (ids, values, reasons): newlines become `␤`.
pub fn line(s: &str) -> String {
    s.chars().map(|c| placeholder(c).unwrap_or(c)).collect()
}

/// `s` cut to `width` columns with an ellipsis.
pub fn fit(s: &str, width: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let mut out = String::new();
    let mut w = 0;
    let total: usize = s.chars().map(|c| c.width().unwrap_or(0)).sum();
    if total <= width {
        return s.to_string();
    }
    for c in s.chars() {
        let cw = c.width().unwrap_or(0);
        if w + cw + 1 > width {
            break;
        }
        out.push(c);
        w += cw;
    }
    if width > 0 {
        out.push('…');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_sequences_become_visible_placeholders() {
        let s = line("a\u{1b}[31mred\u{7}\u{9b}x\u{202e}");
        assert_eq!(s, "a␛[31mred␇�x�");
        assert!(!s.chars().any(|c| c.is_control()));
    }

    #[test]
    fn the_screen_hides_what_the_one_sanitizer_calls_unsafe() {
        for c in (0u32..0x3000).filter_map(char::from_u32) {
            if crate::display::is_unsafe_char(c) {
                let shown = placeholder(c).unwrap_or(c);
                assert!(!crate::display::is_unsafe_char(shown), "U+{:04X}", c as u32);
            }
        }
    }

    #[test]
    fn one_character_for_one() {
        let text = "x\u{1b}\ty\n";
        assert_eq!(line(text).chars().count(), text.chars().count());
    }
}
