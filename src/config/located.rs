//! Where in a configuration file an error is: the line of a key, and a TOML parse
//! error's line shown with a caret under the offending column as a terminal draws it
//! (tabs expanded, wide characters two columns, control characters escaped).

use std::path::Path;

use unicode_width::UnicodeWidthChar;

use super::{ConfigError, MAX_CONFIG_FILE_BYTES, files::read_capped};

/// Columns a tab takes in the quoted line.
const TAB: usize = 4;

/// `c` as the quoted line shows it.
fn shown(c: char) -> String {
    match c {
        '\t' => " ".repeat(TAB),
        c if crate::display::is_unsafe_char(c) => format!("\\u{{{:x}}}", c as u32),
        c => c.to_string(),
    }
}

fn width(s: &str) -> usize {
    s.chars().map(|c| c.width().unwrap_or(0)).sum()
}

/// The 1-based line and character column of byte offset `at` in `text`.
pub fn line_column(text: &str, at: usize) -> (usize, usize) {
    let at = at.min(text.len());
    let at = (0..=at)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        text[line_start..at].chars().count() + 1,
    )
}

/// The quoted line of `text` holding byte range `span`, with carets under it:
/// "\n  |\n3 | theta_doc = 1..5\n  |             ^^^^".
pub fn caret_snippet(text: &str, span: std::ops::Range<usize>) -> String {
    let start = span.start.min(text.len());
    let start = (0..=start)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let line_end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = text[line_start..line_end].trim_end_matches('\r');
    let (number, _) = line_column(text, start);
    let prefix: String = text[line_start..start.min(line_start + line.len())]
        .chars()
        .map(shown)
        .collect();
    let marked: String = text[start..span.end.clamp(start, line_start + line.len())]
        .chars()
        .map(shown)
        .collect();
    let quoted: String = line.chars().map(shown).collect();
    let gutter = " ".repeat(number.to_string().len());
    format!(
        "\n{gutter} |\n{number} | {quoted}\n{gutter} | {}{}",
        " ".repeat(width(&prefix)),
        "^".repeat(width(&marked).max(1))
    )
}

/// A TOML parse error of `text` (from `origin`): line and column of the error, the
/// parser's message, and the quoted line with its caret.
pub fn parse_error(text: &str, origin: &str, e: &toml::de::Error) -> ConfigError {
    let message = e.message().trim_end().to_string();
    match e.span() {
        Some(span) => {
            let (line, column) = line_column(text, span.start);
            ConfigError::Parse {
                origin: origin.to_string(),
                line: Some(line),
                column: Some(column),
                message,
                snippet: caret_snippet(text, span),
            }
        }
        None => ConfigError::Parse {
            origin: origin.to_string(),
            line: None,
            column: None,
            message,
            snippet: String::new(),
        },
    }
}

/// The 1-based line where `key` (`theta_doc`, `llm.model`, `schema.NAME.weight`) is
/// set in the TOML `text`, or the line of the nearest table above it that is.
pub fn key_line(text: &str, key: &str) -> Option<usize> {
    use toml::de::{DeTable, DeValue};
    let root = DeTable::parse(text).ok()?;
    let mut table = root.get_ref();
    let mut found = None;
    for part in key.split('.') {
        let (k, v) = table.iter().find(|(k, _)| k.get_ref().as_ref() == part)?;
        found = Some(k.span().start);
        match v.get_ref() {
            DeValue::Table(t) => table = t,
            _ => break,
        }
    }
    found.map(|at| line_column(text, at).0)
}

/// `e` with the line of its key, when it names a key of a configuration file that
/// sets it (`origin` is then the file's path).
pub fn locate(e: ConfigError) -> ConfigError {
    match e {
        ConfigError::Invalid {
            origin,
            key,
            message,
            line: None,
        } => {
            let line = Path::new(&origin)
                .is_file()
                .then(|| read_capped(Path::new(&origin), MAX_CONFIG_FILE_BYTES).ok())
                .flatten()
                .flatten()
                .and_then(|text| key_line(&text, &key));
            ConfigError::Invalid {
                origin,
                key,
                message,
                line,
            }
        }
        e => e,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_stands_under_the_error_after_tabs_and_wide_characters() {
        let text = "a = 1\n\tname = \"日本\" = 2\n";
        let at = text.find("= 2").unwrap_or(0);
        let s = caret_snippet(text, at..at + 1);
        let lines: Vec<&str> = s.lines().collect();
        assert_eq!(lines[2], "2 |     name = \"日本\" = 2");
        let col = |l: &str| width(&l[..l.find(['=', '^']).unwrap_or(0)]);
        let quoted = lines[2];
        let caret = lines[3];
        // The caret's column is that of the second `=` as the terminal draws it.
        let second_eq = quoted.rfind('=').unwrap_or(0);
        assert_eq!(
            width(&caret[..caret.find('^').unwrap_or(0)]),
            width(&quoted[..second_eq])
        );
        assert!(col(quoted) > 0);
    }

    #[test]
    fn a_key_is_found_in_its_table() {
        let text =
            "theta_doc = 0.9\n\n[llm]\n# the model\nmodel = \"x\"\n[schema.NAME]\nweight = 2\n";
        assert_eq!(key_line(text, "theta_doc"), Some(1));
        assert_eq!(key_line(text, "llm.model"), Some(5));
        assert_eq!(key_line(text, "schema.NAME.weight"), Some(7));
        assert_eq!(key_line(text, "risk_high"), None);
    }
}
