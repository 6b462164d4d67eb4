//! Errors for scripts: with `--json`, an error is also written to stdout as one JSON
//! object, `{"error": {"kind", "file", "line", "key", "message"}}` (the human text
//! still goes to stderr, as cargo's `--message-format json` keeps its own messages on
//! stdout and its diagnostics for people on stderr). Exit codes are unchanged.

use serde_json::{Value, json};

use clam::config::ConfigError;
use clam::corpus::CorpusError;
use clam::session::SessionError;

use super::UsageError;
use super::decide::{NotFound, RequestFileError};

/// What a script needs to know about an error.
#[derive(Debug, Default, PartialEq)]
pub struct ErrorReport {
    /// `usage`, `config`, `input`, `request`, `not_found`, `session`, `io` or `error`.
    pub kind: &'static str,
    pub file: Option<String>,
    pub line: Option<usize>,
    pub key: Option<String>,
    pub message: String,
}

impl ErrorReport {
    pub fn to_json(&self) -> Value {
        json!({"error": {
            "kind": self.kind,
            "file": self.file,
            "line": self.line,
            "key": self.key,
            "message": self.message,
        }})
    }
}

/// The report of `e`: the first error of its chain that says more than its text.
pub fn report(e: &anyhow::Error) -> ErrorReport {
    let whole = format!("{e:#}");
    for c in e.chain() {
        if let Some(c) = c.downcast_ref::<ConfigError>() {
            return config(c);
        }
        if let Some(r) = c.downcast_ref::<RequestFileError>() {
            let first = r.errors.first();
            return ErrorReport {
                kind: "request",
                file: Some(r.file.display().to_string()),
                line: first.and_then(|e| e.line),
                key: first.and_then(|e| e.key.clone()),
                message: whole,
            };
        }
        if c.downcast_ref::<NotFound>().is_some() {
            return ErrorReport {
                kind: "not_found",
                message: whole,
                ..ErrorReport::default()
            };
        }
        if c.downcast_ref::<UsageError>().is_some() {
            return ErrorReport {
                kind: "usage",
                message: whole,
                ..ErrorReport::default()
            };
        }
        if let Some(c) = c.downcast_ref::<CorpusError>() {
            let file = match c {
                CorpusError::NotFound { path }
                | CorpusError::Io { path, .. }
                | CorpusError::UnknownFormat { path } => path.display().to_string(),
                CorpusError::StdinFormat { .. } => "<stdin>".to_string(),
            };
            return ErrorReport {
                kind: "input",
                file: Some(file),
                message: whole,
                ..ErrorReport::default()
            };
        }
        if let Some(c) = c.downcast_ref::<SessionError>() {
            let path = match c {
                SessionError::Sqlite { path, .. }
                | SessionError::Io { path, .. }
                | SessionError::NotASession { path, .. }
                | SessionError::ReadOnly { path, .. }
                | SessionError::Corrupt { path, .. } => path,
            };
            return ErrorReport {
                kind: "session",
                file: Some(path.clone()),
                message: whole,
                ..ErrorReport::default()
            };
        }
    }
    let io = e
        .chain()
        .any(|c| c.downcast_ref::<std::io::Error>().is_some());
    ErrorReport {
        kind: if io { "io" } else { "error" },
        message: whole,
        ..ErrorReport::default()
    }
}

/// A configuration error: the file (none for a flag), its line and the key; the
/// message without the location, which the other fields hold.
fn config(c: &ConfigError) -> ErrorReport {
    let file = |origin: &str| {
        std::path::Path::new(origin)
            .is_file()
            .then(|| origin.to_string())
    };
    match c {
        ConfigError::Read { origin, message } => ErrorReport {
            kind: "config",
            file: Some(origin.clone()),
            message: format!("cannot read: {message}"),
            ..ErrorReport::default()
        },
        ConfigError::Parse {
            origin,
            line,
            message,
            ..
        } => ErrorReport {
            kind: "config",
            file: file(origin),
            line: *line,
            message: message.clone(),
            ..ErrorReport::default()
        },
        ConfigError::Invalid {
            origin,
            key,
            message,
            line,
        } => ErrorReport {
            kind: if origin == "command line" {
                "usage"
            } else {
                "config"
            },
            file: file(origin),
            line: *line,
            key: Some(key.clone()),
            message: message.clone(),
        },
    }
}

/// A command-line error of clap's: its text without the usage lines and styles.
pub fn clap_report(e: &clap::Error) -> ErrorReport {
    let text = e.render().to_string();
    let message = text
        .lines()
        .next()
        .unwrap_or("")
        .trim_start_matches("error: ")
        .to_string();
    let key = e
        .get(clap::error::ContextKind::InvalidArg)
        .map(|v| v.to_string());
    ErrorReport {
        kind: "usage",
        key,
        message,
        ..ErrorReport::default()
    }
}
