//! The session file itself: what may be opened as a session, how a new one is made without ever leaving a half-made one, and the writer's lock.

use super::*;

/// Before opening: a path that exists must be a regular file, and an empty one is
/// refused (clam never leaves an empty session, and taking it for a new one would
/// silently drop the decisions and the project key of whatever was meant). True
/// when the file exists. A 0-byte file whose write-ahead log holds data is a
/// session SQLite has not checkpointed yet, and is opened.
pub(super) fn check_existing(path: &Path, shown: &str) -> Result<bool, SessionError> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(false);
    };
    let refuse = |message: &str| SessionError::NotASession {
        path: shown.to_string(),
        message: message.to_string(),
    };
    if !meta.is_file() {
        return Err(refuse("not a regular file"));
    }
    let mut wal = path.as_os_str().to_owned();
    wal.push("-wal");
    let wal_len = std::fs::metadata(Path::new(&wal)).map_or(0, |m| m.len());
    if meta.len() == 0 && wal_len == 0 {
        return Err(refuse(
            "the file is empty, so it is not a clam session; nothing was changed. Remove it \
             to start a new session there, or pass the session you meant",
        ));
    }
    Ok(true)
}

/// A database that already holds tables must hold clam's (before clam changes
/// anything in it: journal mode, schema).
pub(super) fn check_is_session(conn: &Connection, shown: &str) -> Result<(), SessionError> {
    let tables = || -> rusqlite::Result<Vec<String>> {
        let mut stmt = conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table'")?;
        stmt.query_map([], |r| r.get(0))?.collect()
    };
    let tables = tables().map_err(|source| SessionError::Sqlite {
        path: shown.to_string(),
        source,
    })?;
    let clam = ["meta", "audit_log"];
    if tables.is_empty() || clam.iter().all(|t| tables.iter().any(|n| n == t)) {
        return Ok(());
    }
    Err(SessionError::NotASession {
        path: shown.to_string(),
        message: "a SQLite database, but not a clam session (it has no audit_log and meta \
                  tables); nothing was changed"
            .into(),
    })
}

/// Makes a new session at `path` without ever leaving a half-made one there: the
/// schema and the project key are written to a temporary file beside it (owner-only),
/// which is then linked into place only if nothing holds the path yet (another
/// process that created it first wins, and its session is the one opened). A
/// process killed meanwhile leaves at most a hidden `.clam-session-*.new` file.
pub(super) fn create_new(path: &Path, shown: &str) -> Result<(), SessionError> {
    let io = |e: std::io::Error| SessionError::Io {
        path: shown.to_string(),
        message: e.to_string(),
    };
    let parent = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let tmp = tempfile::Builder::new()
        .prefix(".clam-session-")
        .suffix(".new")
        .tempfile_in(parent)
        .map_err(io)?;
    {
        let sql = |source| SessionError::Sqlite {
            path: shown.to_string(),
            source,
        };
        let conn = Connection::open(tmp.path()).map_err(sql)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(sql)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(sql)?;
        conn.execute_batch(SCHEMA).map_err(sql)?;
        let made = Session {
            conn,
            path: tmp.path().to_path_buf(),
            _lock: None,
            held_by: None,
            own_from: 0,
        };
        made.ensure_project_key()?;
        // Closing checkpoints the write-ahead log into the file.
    }
    match tmp.persist_noclobber(path) {
        Ok(_) => Ok(()),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(io(e.error)),
    }
}

/// The path of the writer's lock of the session at `path`.
pub fn lock_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".lock");
    PathBuf::from(p)
}

/// Takes the writer's lock of the session at `path` (an advisory lock on
/// `<session>.lock`, released when the process ends, however it ends) and writes
/// who holds it there. When another process holds it: no lock, and who that is.
/// Where locks cannot be taken at all (a file system without them), the session
/// opens as the writer, as before.
pub(super) fn take_lock(path: &Path) -> (Option<std::fs::File>, Option<String>) {
    use std::io::{Read, Seek, Write};
    let lock_path = lock_path(path);
    let mut options = std::fs::OpenOptions::new();
    options.read(true).write(true).create(true).truncate(false);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = match options.open(&lock_path) {
        Ok(f) => f,
        Err(e) => {
            tracing::warn!(path = %lock_path.display(), error = %e, "no session lock");
            return (None, None);
        }
    };
    match fs4::FileExt::try_lock(&file) {
        Ok(()) => {
            let holder = format!(
                "clam (pid {}, {}) since {}",
                std::process::id(),
                default_actor(),
                now_rfc3339()
            );
            let written = file
                .set_len(0)
                .and_then(|()| file.rewind())
                .and_then(|()| file.write_all(holder.as_bytes()))
                .and_then(|()| file.sync_data());
            if let Err(e) = written {
                tracing::warn!(error = %e, "could not record the session's holder");
            }
            (Some(file), None)
        }
        Err(fs4::TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.take(512).read_to_string(&mut text);
            let text = crate::display::escape_line(text.trim());
            let holder = if text.is_empty() {
                "another clam process".to_string()
            } else {
                text
            };
            (None, Some(holder))
        }
        Err(fs4::TryLockError::Error(e)) => {
            tracing::warn!(path = %lock_path.display(), error = %e, "no session lock");
            (None, None)
        }
    }
}
