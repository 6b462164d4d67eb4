//! Text that comes from documents or file names, shown to people in a terminal or a
//! Markdown viewer: escape sequences must not act on the screen, and bidirectional
//! controls must not reorder what is displayed around them.

/// C0 and C1 controls, DEL, the bidirectional embeddings, overrides, isolates and
/// marks, and the Unicode line and paragraph separators.
pub fn is_unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200E}'
                | '\u{200F}'
                | '\u{202A}'..='\u{202E}'
                | '\u{2066}'..='\u{2069}'
                | '\u{2028}'
                | '\u{2029}'
        )
}

/// One line for a terminal or a Markdown paragraph: unsafe characters (newlines
/// included) become visible `\u{…}` escapes.
pub fn escape_line(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if is_unsafe_char(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

/// A Markdown table cell: [`escape_line`] with `|` escaped so it cannot split the row.
pub fn markdown_cell(s: &str) -> String {
    escape_line(s).replace('|', "\\|")
}

/// Serialized JSON with every unsafe character written as a `\uXXXX` escape. Outside
/// strings serde_json writes only ASCII, and inside strings the escape decodes to the
/// same character, so the value is unchanged; only its bytes become safe to print.
pub fn json_escape_unsafe(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        // serde_json escapes C0 controls inside strings itself; raw '\n' is layout.
        if is_unsafe_char(c) && c != '\n' {
            out.push_str(&format!("\\u{:04x}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_controls_and_bidi() {
        assert_eq!(
            escape_line("a\u{1b}[31mb\u{202e}c\n"),
            "a\\u{1b}[31mb\\u{202e}c\\u{a}"
        );
        assert_eq!(markdown_cell("x|y"), "x\\|y");
        assert_eq!(
            escape_line("Zoë e\u{301} \u{200d}"),
            "Zoë e\u{301} \u{200d}"
        );
    }

    #[test]
    fn json_escape_keeps_the_value() {
        let v = serde_json::json!({"id": "a\u{1b}\u{9b}\u{7f}\u{202e}b"});
        let text = json_escape_unsafe(&serde_json::to_string_pretty(&v).unwrap_or_default());
        assert!(!text.chars().any(|c| is_unsafe_char(c) && c != '\n'));
        let back: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(back, v);
    }
}
