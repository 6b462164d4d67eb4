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

/// Text of several lines for a terminal (an error report): like [`escape_line`], but
/// line breaks stay line breaks.
pub fn escape_text(s: &str) -> String {
    s.split('\n')
        .map(escape_line)
        .collect::<Vec<_>>()
        .join("\n")
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

/// serde_json's pretty layout with every unsafe character inside strings (keys
/// included) written as a `\uXXXX` escape: the value is the same, and the bytes are
/// safe to print on a terminal.
struct SafePretty(serde_json::ser::PrettyFormatter<'static>);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(fn $name<W: ?Sized + std::io::Write>(&mut self, w: &mut W $(, $arg: $ty)*) -> std::io::Result<()> {
            self.0.$name(w $(, $arg)*)
        })*
    };
}

impl serde_json::ser::Formatter for SafePretty {
    delegate!(
        begin_array(),
        end_array(),
        begin_array_value(first: bool),
        end_array_value(),
        begin_object(),
        end_object(),
        begin_object_key(first: bool),
        begin_object_value(),
        end_object_value(),
    );

    fn write_string_fragment<W: ?Sized + std::io::Write>(
        &mut self,
        w: &mut W,
        fragment: &str,
    ) -> std::io::Result<()> {
        write_json_fragment(w, fragment)
    }
}

/// A piece of a JSON string as serde_json hands it to a formatter, with unsafe
/// characters as `\uXXXX` escapes: every clam formatter writes strings this way.
pub fn write_json_fragment<W: ?Sized + std::io::Write>(
    w: &mut W,
    fragment: &str,
) -> std::io::Result<()> {
    if fragment.chars().any(is_unsafe_char) {
        w.write_all(json_escape_unsafe(fragment).as_bytes())
    } else {
        w.write_all(fragment.as_bytes())
    }
}

/// Writes `value` as pretty JSON that is safe to print: what every `--json` output
/// and every JSON file clam writes for people goes through.
pub fn write_json_pretty<W: std::io::Write, T: serde::Serialize + ?Sized>(
    w: W,
    value: &T,
) -> serde_json::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(
        w,
        SafePretty(serde_json::ser::PrettyFormatter::new()),
    );
    value.serialize(&mut ser)
}

/// Compact JSON on one line, safe to print like [`write_json_pretty`]'s (the bytes
/// [`json_escape_unsafe`] makes of `serde_json::to_string`, written straight to `w`).
pub fn write_json_line<W: std::io::Write, T: serde::Serialize + ?Sized>(
    w: W,
    value: &T,
) -> serde_json::Result<()> {
    struct SafeCompact;
    impl serde_json::ser::Formatter for SafeCompact {
        fn write_string_fragment<X: ?Sized + std::io::Write>(
            &mut self,
            w: &mut X,
            fragment: &str,
        ) -> std::io::Result<()> {
            write_json_fragment(w, fragment)
        }
    }
    value.serialize(&mut serde_json::Serializer::with_formatter(w, SafeCompact))
}

/// [`write_json_pretty`] into a string.
pub fn to_json_pretty<T: serde::Serialize + ?Sized>(value: &T) -> serde_json::Result<String> {
    let mut out = Vec::new();
    write_json_pretty(&mut out, value)?;
    // The serializer writes UTF-8 only.
    Ok(String::from_utf8_lossy(&out).into_owned())
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

    #[test]
    fn safe_pretty_json_is_serde_json_pretty_with_escapes() {
        let v = serde_json::json!({"id\u{202e}": ["a\u{1b}\u{9b}\u{7f}\u{202e}b", 1, {"k": null}]});
        let text = to_json_pretty(&v).unwrap_or_default();
        assert!(
            !text.chars().any(|c| is_unsafe_char(c) && c != '\n'),
            "{text}"
        );
        assert!(
            text.contains("\\u202e") && text.contains("\\u009b"),
            "{text}"
        );
        let back: serde_json::Value = serde_json::from_str(&text).unwrap_or_default();
        assert_eq!(back, v);
        let plain = serde_json::json!({"a": [1, {"b": "c"}], "d": "e"});
        assert_eq!(
            to_json_pretty(&plain).unwrap_or_default(),
            serde_json::to_string_pretty(&plain).unwrap_or_default(),
            "the same layout as serde_json's"
        );
    }
}
