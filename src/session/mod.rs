//! The session (SPEC §6): decisions, entity edits and the project key in one SQLite
//! database (bundled SQLite, WAL, `synchronous=FULL`), one transaction per decision.
//! The audit log is append-only; undo appends a reverting decision.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OptionalExtension, params};
use serde::{Deserialize, Serialize};

use crate::hashing::md5_hex;

pub mod gold;

mod file;
pub use file::lock_path;
use file::{check_existing, check_is_session, create_new, take_lock};

/// Review state of an entity's decision (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ReviewState {
    Proposed,
    Accepted,
    Stale,
    Overridden,
    Pinned,
}

/// What an auditor did.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum AuditAction {
    /// Agree with the proposal (`mask` = what was proposed).
    Accept { entity: String, mask: bool },
    /// Flip the proposal; a forced state with a reason.
    Override { entity: String, mask: bool },
    /// Freeze the current state as forced.
    Pin { entity: String, mask: bool },
    /// Drop a forced state.
    Unpin { entity: String },
    /// Revert the decision with sequence number `seq`.
    Undo { seq: i64 },
    /// Add an entity at a span of a document.
    AddEntity {
        doc: String,
        start: usize,
        end: usize,
        entity_type: String,
        relevance: Option<f64>,
    },
    /// Remove an entity from one document, or everywhere.
    RemoveEntity { entity: String, doc: Option<String> },
    /// Change an entity's type (re-keyed to `new_entity`).
    Retype {
        entity: String,
        entity_type: String,
        new_entity: String,
    },
    /// Merge `from` into `into`.
    Merge { from: String, into: String },
    /// Accept a residual document or chain with a reason.
    AcceptResidual { documents: Vec<String> },
    /// Mark 2–3 documents (ids, corpus order) as a gold chain, or change its note.
    GoldMark {
        documents: Vec<String>,
        note: Option<String>,
    },
    /// Drop the gold chain of these documents.
    GoldUnmark { documents: Vec<String> },
    /// Adopt what-if settings: the changed configuration keys, old → new values.
    Settings {
        old: BTreeMap<String, String>,
        new: BTreeMap<String, String>,
    },
}

impl AuditAction {
    pub fn name(&self) -> &'static str {
        match self {
            AuditAction::Accept { .. } => "accept",
            AuditAction::Override { .. } => "override",
            AuditAction::Pin { .. } => "pin",
            AuditAction::Unpin { .. } => "unpin",
            AuditAction::Undo { .. } => "undo",
            AuditAction::AddEntity { .. } => "add_entity",
            AuditAction::RemoveEntity { .. } => "remove_entity",
            AuditAction::Retype { .. } => "retype",
            AuditAction::Merge { .. } => "merge",
            AuditAction::AcceptResidual { .. } => "accept_residual",
            AuditAction::GoldMark { .. } => "gold_mark",
            AuditAction::GoldUnmark { .. } => "gold_unmark",
            AuditAction::Settings { .. } => "settings",
        }
    }

    /// A gold-chain annotation (no effect on the plan).
    pub fn is_gold(&self) -> bool {
        matches!(
            self,
            AuditAction::GoldMark { .. } | AuditAction::GoldUnmark { .. }
        )
    }

    /// The entity the action is about, if any.
    pub fn entity(&self) -> Option<&str> {
        match self {
            AuditAction::Accept { entity, .. }
            | AuditAction::Override { entity, .. }
            | AuditAction::Pin { entity, .. }
            | AuditAction::Unpin { entity }
            | AuditAction::RemoveEntity { entity, .. }
            | AuditAction::Retype { entity, .. } => Some(entity),
            AuditAction::Merge { from, .. } => Some(from),
            _ => None,
        }
    }
}

/// One row of the audit log: a stored decision with its number and time (serialized
/// flat: `seq`, `time`, then the decision's fields).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditEntry {
    pub seq: i64,
    /// RFC 3339 UTC time.
    pub time: String,
    #[serde(flatten)]
    pub decision: Decision,
}

/// A decision: who, what, why, and the states and configuration it was made under.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub actor: String,
    pub action: AuditAction,
    pub reason: Option<String>,
    pub state_before: Option<String>,
    pub state_after: Option<String>,
    /// [`crate::Config::hash`] under the session's project key (empty without one);
    /// sessions of earlier versions hold an unkeyed md5 here, which nothing compares
    /// and the export keys ([`crate::config::export_config_hash`]).
    pub config_hash: String,
}

/// Errors of the session store.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("session {path}: {source}")]
    Sqlite {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error("session {path}: {message}")]
    Io { path: String, message: String },
    /// The file exists but is not a clam session; it was left as it was.
    #[error("session {path}: {message}")]
    NotASession { path: String, message: String },
    /// Another process writes to this session; this one reads it only.
    #[error(
        "session {path} is open read-only: {holder} holds it; decisions can be taken once it is closed"
    )]
    ReadOnly { path: String, holder: String },
    #[error("session {path}: audit entry {seq} is unreadable: {message}")]
    Corrupt {
        path: String,
        seq: i64,
        message: String,
    },
}

/// The forced states that result from replaying the audit log.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SessionState {
    /// entity id → forced mask (true) or keep (false), with the decision's seq.
    pub forced: BTreeMap<String, (bool, i64)>,
    /// Entities whose forced state comes from a pin (the others: overrides).
    pub pinned: BTreeSet<String>,
    /// entity id → the proposal the auditor accepted (mask?), with its seq.
    pub accepted: BTreeMap<String, (bool, i64)>,
    /// Entity edits in order, to replay on the extracted entities.
    pub edits: Vec<AuditAction>,
    /// Residual documents (one id) and chains (their document ids) whose risk was
    /// accepted, each sorted (see [`gold::key`]).
    pub accepted_residuals: BTreeSet<Vec<String>>,
    /// Gold chains (document ids, sorted: see [`gold::key`]) → note.
    pub gold: BTreeMap<Vec<String>, Option<String>>,
    /// Adopted settings: configuration key → typed value, applied over the
    /// configuration.
    pub settings: crate::config::params::AdoptedSettings,
    /// entity id → the reason of the override in force on it (shown with the
    /// entity in the workspace, the manifest and report.md).
    pub reasons: BTreeMap<String, String>,
}

impl SessionState {
    pub fn force_mask(&self) -> BTreeSet<String> {
        self.forced
            .iter()
            .filter(|(_, (m, _))| *m)
            .map(|(k, _)| k.clone())
            .collect()
    }
    pub fn force_keep(&self) -> BTreeSet<String> {
        self.forced
            .iter()
            .filter(|(_, (m, _))| !*m)
            .map(|(k, _)| k.clone())
            .collect()
    }
}

/// An open session database.
pub struct Session {
    conn: Connection,
    path: PathBuf,
    /// The writer's lock (`<session>.lock`, an advisory lock held while open).
    _lock: Option<std::fs::File>,
    /// Who holds the lock when this process opened the session read-only.
    held_by: Option<String>,
    /// The first audit sequence number this opening can have written: decisions
    /// below it were taken before (by this or another writer).
    own_from: i64,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS audit_log (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    time TEXT NOT NULL,
    actor TEXT NOT NULL,
    action TEXT NOT NULL,
    entity TEXT,
    payload TEXT NOT NULL,
    reason TEXT,
    state_before TEXT,
    state_after TEXT,
    config_hash TEXT NOT NULL
);
";

/// Default location of the session of a corpus: `<data dir>/sessions/<hash>.sqlite`.
pub fn default_session_path(corpus: &Path) -> Option<PathBuf> {
    let abs = std::fs::canonicalize(corpus).unwrap_or_else(|_| corpus.to_path_buf());
    Some(sessions_dir()?.join(format!("{}.sqlite", md5_hex(&abs.to_string_lossy()))))
}

/// clam's own folder of sessions in the user data directory.
fn sessions_dir() -> Option<PathBuf> {
    let dirs = directories::ProjectDirs::from("", "", "clam")?;
    Some(dirs.data_dir().join("sessions"))
}

/// The user name of the process, used as the default actor.
pub fn default_actor() -> String {
    std::env::var("USER")
        .or_else(|_| std::env::var("USERNAME"))
        .unwrap_or_else(|_| "unknown".to_string())
}

fn now_rfc3339() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0);
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

#[cfg(unix)]
fn restrict(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    let _ = std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode));
}

#[cfg(not(unix))]
fn restrict(_path: &Path, _mode: u32) {}

/// Creates a missing database file owner-only before SQLite opens it, so it is never
/// readable by others, not even between creation and `restrict`. SQLite gives its
/// `-wal` and `-shm` files the database file's permissions.
#[cfg(unix)]
fn create_owner_only(path: &Path) {
    use std::os::unix::fs::OpenOptionsExt;
    let _ = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path);
}

#[cfg(not(unix))]
fn create_owner_only(_path: &Path) {}

impl Session {
    /// Opens (creating if needed) the session at `path`, owner-only. One process
    /// writes at a time: the first holds the writer's lock, the others open the
    /// session read-only ([`Session::held_by`] says who writes) and cannot append. A path that
    /// exists must be a clam session: an empty file, a directory or another
    /// program's database is refused and left as it was.
    pub fn open(path: &Path) -> Result<Self, SessionError> {
        let shown = path.display().to_string();
        if let Some(parent) = path.parent()
            && !parent.as_os_str().is_empty()
            && !parent.exists()
        {
            std::fs::create_dir_all(parent).map_err(|e| SessionError::Io {
                path: shown.clone(),
                message: e.to_string(),
            })?;
            restrict(parent, 0o700);
        } else if let Some(parent) = path.parent()
            && sessions_dir().is_some_and(|d| d == parent)
        {
            // clam's own folder is owner-only even when something else made it.
            restrict(parent, 0o700);
        }
        let sql = |source| SessionError::Sqlite {
            path: shown.clone(),
            source,
        };
        if !check_existing(path, &shown)? {
            create_new(path, &shown)?;
        }
        let conn = Connection::open(path).map_err(sql)?;
        check_is_session(&conn, &shown)?;
        restrict(path, 0o600);
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(sql)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(sql)?;
        conn.execute_batch(SCHEMA).map_err(sql)?;
        for suffix in ["-wal", "-shm"] {
            let mut p = path.as_os_str().to_owned();
            p.push(suffix);
            restrict(Path::new(&p), 0o600);
        }
        let (lock, held_by) = take_lock(path);
        // Read after taking the lock: no other writer can append meanwhile.
        let last: i64 = conn
            .query_row("SELECT coalesce(max(seq), 0) FROM audit_log", [], |r| {
                r.get(0)
            })
            .map_err(sql)?;
        let session = Session {
            conn,
            path: path.to_path_buf(),
            _lock: lock,
            held_by,
            own_from: last + 1,
        };
        session.ensure_project_key()?;
        Ok(session)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Who holds the session when this process opened it read-only (another
    /// `clam review`, say); `None` for the writer.
    pub fn held_by(&self) -> Option<&str> {
        self.held_by.as_deref()
    }

    /// The first audit sequence number of this opening's own decisions: undo reverts
    /// only those.
    pub fn own_from(&self) -> i64 {
        self.own_from
    }

    /// True when this process holds the writer's lock.
    pub fn is_writer(&self) -> bool {
        self.held_by.is_none()
    }

    /// The connection's durability settings: the journal mode ("wal") and the
    /// `synchronous` level (2 = FULL), as SQLite reports them.
    pub fn durability(&self) -> Result<(String, i64), SessionError> {
        let mode: String = self
            .conn
            .query_row("PRAGMA journal_mode", [], |r| r.get(0))
            .map_err(|e| self.sql_err(e))?;
        let sync: i64 = self
            .conn
            .query_row("PRAGMA synchronous", [], |r| r.get(0))
            .map_err(|e| self.sql_err(e))?;
        Ok((mode, sync))
    }

    fn sql_err(&self, source: rusqlite::Error) -> SessionError {
        SessionError::Sqlite {
            path: self.path.display().to_string(),
            source,
        }
    }

    fn ensure_project_key(&self) -> Result<(), SessionError> {
        let existing: Option<Vec<u8>> = self
            .conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'project_key'",
                [],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| self.sql_err(e))?;
        if existing.is_none() {
            let mut key = [0u8; 32];
            getrandom::fill(&mut key).map_err(|e| SessionError::Io {
                path: self.path.display().to_string(),
                message: format!("no randomness for the project key: {e}"),
            })?;
            self.conn
                .execute(
                    "INSERT OR IGNORE INTO meta (key, value) VALUES ('project_key', ?1)",
                    params![key.to_vec()],
                )
                .map_err(|e| self.sql_err(e))?;
        }
        Ok(())
    }

    /// The project's secret key (pseudonyms and export ids). Never exported.
    pub fn project_key(&self) -> Result<Vec<u8>, SessionError> {
        self.conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'project_key'",
                [],
                |r| r.get(0),
            )
            .map_err(|e| self.sql_err(e))
    }

    /// Appends a decision in its own transaction; returns its sequence number once
    /// committed.
    pub fn append(&mut self, d: &Decision) -> Result<i64, SessionError> {
        if let Some(holder) = &self.held_by {
            return Err(SessionError::ReadOnly {
                path: self.path.display().to_string(),
                holder: holder.clone(),
            });
        }
        let payload = serde_json::to_string(&d.action).unwrap_or_default();
        let path = self.path.display().to_string();
        let sql = |source| SessionError::Sqlite {
            path: path.clone(),
            source,
        };
        let tx = self.conn.transaction().map_err(sql)?;
        tx.execute(
            "INSERT INTO audit_log (time, actor, action, entity, payload, reason, state_before, state_after, config_hash)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)",
            params![
                now_rfc3339(),
                d.actor,
                d.action.name(),
                d.action.entity(),
                payload,
                d.reason,
                d.state_before,
                d.state_after,
                d.config_hash
            ],
        )
        .map_err(sql)?;
        let seq = tx.last_insert_rowid();
        tx.commit().map_err(sql)?;
        Ok(seq)
    }

    /// The whole audit log in order.
    pub fn audit_log(&self) -> Result<Vec<AuditEntry>, SessionError> {
        let mut stmt = self
            .conn
            .prepare(
                "SELECT seq, time, actor, payload, reason, state_before, state_after, config_hash
                 FROM audit_log ORDER BY seq",
            )
            .map_err(|e| self.sql_err(e))?;
        let rows = stmt
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, String>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, String>(3)?,
                    r.get::<_, Option<String>>(4)?,
                    r.get::<_, Option<String>>(5)?,
                    r.get::<_, Option<String>>(6)?,
                    r.get::<_, String>(7)?,
                ))
            })
            .map_err(|e| self.sql_err(e))?;
        let mut out = Vec::new();
        for row in rows {
            let (seq, time, actor, payload, reason, state_before, state_after, config_hash) =
                row.map_err(|e| self.sql_err(e))?;
            let action: AuditAction =
                serde_json::from_str(&payload).map_err(|e| SessionError::Corrupt {
                    path: self.path.display().to_string(),
                    seq,
                    message: e.to_string(),
                })?;
            out.push(AuditEntry {
                seq,
                time,
                decision: Decision {
                    actor,
                    action,
                    reason,
                    state_before,
                    state_after,
                    config_hash,
                },
            });
        }
        Ok(out)
    }

    /// Replays the audit log into forced states, acceptances and edits.
    pub fn state(&self) -> Result<SessionState, SessionError> {
        Ok(replay(&self.audit_log()?))
    }

    /// Writes a self-contained copy (VACUUM INTO) a reviewer can hand on.
    pub fn export_to(&self, dest: &Path) -> Result<(), SessionError> {
        if dest.exists() {
            return Err(SessionError::Io {
                path: dest.display().to_string(),
                message: "already exists; choose a new file name".into(),
            });
        }
        // VACUUM INTO accepts an empty file: created owner-only, the copy never is
        // readable by others.
        create_owner_only(dest);
        self.conn
            .execute("VACUUM INTO ?1", params![dest.to_string_lossy()])
            .map_err(|e| self.sql_err(e))?;
        restrict(dest, 0o600);
        Ok(())
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.conn.pragma_update(None, "wal_checkpoint", "TRUNCATE");
    }
}

/// Replays an audit log: undone decisions (and undone undos) are skipped.
pub fn replay(log: &[AuditEntry]) -> SessionState {
    let mut undone: BTreeSet<i64> = BTreeSet::new();
    for e in log.iter().rev() {
        if undone.contains(&e.seq) {
            continue;
        }
        if let AuditAction::Undo { seq } = e.decision.action {
            undone.insert(seq);
        }
    }
    let mut state = SessionState::default();
    for e in log {
        if !undone.contains(&e.seq) {
            state.apply_decision(e.seq, &e.decision);
        }
    }
    state
}

impl SessionState {
    /// [`SessionState::apply`], keeping an override's reason beside its forced state.
    pub fn apply_decision(&mut self, seq: i64, decision: &Decision) {
        self.apply(seq, &decision.action);
        match &decision.action {
            AuditAction::Override { entity, .. } => match &decision.reason {
                Some(r) => {
                    self.reasons.insert(entity.clone(), r.clone());
                }
                None => {
                    self.reasons.remove(entity);
                }
            },
            AuditAction::Pin { entity, .. } | AuditAction::Unpin { entity } => {
                self.reasons.remove(entity);
            }
            _ => {}
        }
    }

    /// Applies one decision (audit log number `seq`) that no later entry undoes: the
    /// state after an append, without replaying the log. An `Undo` changes nothing
    /// here; undone decisions need [`replay`].
    pub fn apply(&mut self, seq: i64, action: &AuditAction) {
        let state = self;
        match action {
            AuditAction::Accept { entity, mask } => {
                state.accepted.insert(entity.clone(), (*mask, seq));
            }
            AuditAction::Override { entity, mask } => {
                state.forced.insert(entity.clone(), (*mask, seq));
                state.pinned.remove(entity);
            }
            AuditAction::Pin { entity, mask } => {
                state.forced.insert(entity.clone(), (*mask, seq));
                state.pinned.insert(entity.clone());
            }
            AuditAction::Unpin { entity } => {
                state.forced.remove(entity);
                state.pinned.remove(entity);
            }
            AuditAction::Undo { .. } => {}
            AuditAction::Merge { from, into } => {
                carry(&mut state.forced, from, into);
                carry(&mut state.accepted, from, into);
                carry_set(&mut state.pinned, from, into);
                state.edits.push(action.clone());
            }
            AuditAction::Retype {
                entity, new_entity, ..
            } => {
                carry(&mut state.forced, entity, new_entity);
                carry(&mut state.accepted, entity, new_entity);
                carry_set(&mut state.pinned, entity, new_entity);
                state.edits.push(action.clone());
            }
            AuditAction::AddEntity { .. } | AuditAction::RemoveEntity { .. } => {
                state.edits.push(action.clone());
            }
            AuditAction::AcceptResidual { documents } => {
                state.accepted_residuals.insert(gold::key(documents));
            }
            AuditAction::GoldMark { documents, note } => {
                state.gold.insert(gold::key(documents), note.clone());
            }
            AuditAction::GoldUnmark { documents } => {
                state.gold.remove(&gold::key(documents));
            }
            AuditAction::Settings { new, .. } => state.settings.adopt_all(new),
        }
    }
}

fn carry_set(set: &mut BTreeSet<String>, from: &str, to: &str) {
    if set.remove(from) {
        set.insert(to.to_string());
    }
}

/// Moves `from`'s entry to `to` unless `to` has its own (the newer decision on the
/// surviving entity wins).
fn carry<V>(map: &mut BTreeMap<String, V>, from: &str, to: &str) {
    if let Some(v) = map.remove(from) {
        map.entry(to.to_string()).or_insert(v);
    }
}

#[cfg(test)]
mod tests;
