//! Publishing an export (SPEC §5, §11): the folder is built in a hidden temporary
//! sibling (`.NAME.clam-tmp-XXXXXX`) whose lock file beside it
//! (`.NAME.clam-tmp-XXXXXX.lock`) is held while the run builds it, and claimed at the
//! end in one atomic step that never replaces what clam did not create:
//!
//! * the target did not exist when the export started: it is claimed only if it
//!   still does not exist (`renameat2(RENAME_NOREPLACE)`); one that appeared
//!   meanwhile (another tool, another clam run) is an error, and nothing is replaced;
//! * the target was an empty folder: it is replaced only while still empty (a
//!   rename over a non-empty folder fails);
//! * `--force` given at the start: the new export and the target are exchanged
//!   atomically (`RENAME_EXCHANGE`) and the old one is removed afterwards.
//!
//! A run killed at any point leaves the target complete or absent, never half
//! written. What it leaves in the parent folder (a temporary folder whose lock no
//! process holds any more) is recognised, removed and reported by the next export
//! to the same parent.

use std::fs::File;
use std::path::{Path, PathBuf};

use super::{ExportError, io_err};

/// What marks a temporary export folder in its name.
const TMP_MARK: &str = ".clam-tmp-";

/// How the target may be claimed, decided when the export starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Claim {
    /// It did not exist: claim it only if it still does not.
    Fresh,
    /// It was an empty folder: replace it only while it is still empty.
    Empty,
    /// `--force`: whatever is there is replaced.
    Force,
}

/// A temporary export folder being built, and the lock that says a live run owns it.
pub(super) struct Staging {
    dir: PathBuf,
    lock_path: PathBuf,
    _lock: File,
}

impl Staging {
    /// Creates the temporary folder for an export named `name` in `parent` (lock
    /// first, so a folder without a live lock is always a leftover).
    pub(super) fn new(parent: &Path, name: &str) -> Result<Staging, ExportError> {
        use std::io::Write;
        let mut last = None;
        for _ in 0..16 {
            let mut suffix = [0u8; 6];
            getrandom::fill(&mut suffix).map_err(|e| io_err(parent, e))?;
            let tag: String = suffix
                .iter()
                .map(|b| char::from(b"abcdefghijklmnopqrstuvwxyz0123456789"[usize::from(*b) % 36]))
                .collect();
            let dir = parent.join(format!(".{name}{TMP_MARK}{tag}"));
            let lock_path = lock_of(&dir);
            let mut options = std::fs::OpenOptions::new();
            options.write(true).create_new(true);
            #[cfg(unix)]
            std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
            let mut lock = match options.open(&lock_path) {
                Ok(f) => f,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    last = Some(e);
                    continue;
                }
                Err(e) => return Err(io_err(&lock_path, e)),
            };
            if fs4::FileExt::try_lock(&lock).is_err() {
                let _ = std::fs::remove_file(&lock_path);
                continue;
            }
            let _ = writeln!(lock, "clam export (pid {})", std::process::id());
            if let Err(e) = std::fs::create_dir(&dir) {
                let _ = std::fs::remove_file(&lock_path);
                return Err(io_err(&dir, e));
            }
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
            }
            return Ok(Staging {
                dir,
                lock_path,
                _lock: lock,
            });
        }
        Err(io_err(
            parent,
            last.map_or_else(
                || "no temporary folder name is free".to_string(),
                |e| e.to_string(),
            ),
        ))
    }

    pub(super) fn path(&self) -> &Path {
        &self.dir
    }

    /// Claims `out` with the finished export, as `claim` allows.
    /// Whatever is left at the temporary path afterwards (the new export after a
    /// failure, the old one after an exchange) is removed when `self` is dropped.
    pub(super) fn publish(self, out: &Path, claim: Claim) -> Result<(), ExportError> {
        claim_target(&self.dir, out, claim)
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        remove_any(&self.dir);
        let _ = std::fs::remove_file(&self.lock_path);
    }
}

fn lock_of(dir: &Path) -> PathBuf {
    let mut p = dir.as_os_str().to_owned();
    p.push(".lock");
    PathBuf::from(p)
}

fn remove_any(path: &Path) {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_dir() => {
            let _ = std::fs::remove_dir_all(path);
        }
        Ok(_) => {
            let _ = std::fs::remove_file(path);
        }
        Err(_) => {}
    }
}

#[cfg(target_os = "linux")]
fn rename_with(from: &Path, to: &Path, flags: rustix::fs::RenameFlags) -> std::io::Result<()> {
    rustix::fs::renameat_with(rustix::fs::CWD, from, rustix::fs::CWD, to, flags)
        .map_err(std::io::Error::from)
}

#[cfg(target_os = "linux")]
fn claim_target(tmp: &Path, out: &Path, claim: Claim) -> Result<(), ExportError> {
    use rustix::fs::RenameFlags;
    let appeared = || ExportError::Appeared(out.to_path_buf());
    match claim {
        Claim::Fresh => match rename_with(tmp, out, RenameFlags::NOREPLACE) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Err(appeared()),
            Err(e) => Err(io_err(out, e)),
        },
        Claim::Empty => match std::fs::rename(tmp, out) {
            Ok(()) => Ok(()),
            Err(e)
                if matches!(
                    e.kind(),
                    std::io::ErrorKind::DirectoryNotEmpty | std::io::ErrorKind::AlreadyExists
                ) =>
            {
                Err(appeared())
            }
            Err(e) => Err(io_err(out, e)),
        },
        Claim::Force => match rename_with(tmp, out, RenameFlags::EXCHANGE) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !out.exists() => {
                rename_with(tmp, out, RenameFlags::NOREPLACE).map_err(|e| io_err(out, e))
            }
            Err(e) => Err(io_err(out, e)),
        },
    }
}

#[cfg(not(target_os = "linux"))]
fn claim_target(tmp: &Path, out: &Path, claim: Claim) -> Result<(), ExportError> {
    // Without renameat2 the check and the rename are two steps.
    match claim {
        Claim::Fresh if out.exists() => return Err(ExportError::Appeared(out.to_path_buf())),
        Claim::Force if out.exists() => {
            let old = lock_of(tmp).with_extension("old");
            std::fs::rename(out, &old).map_err(|e| io_err(out, e))?;
            if let Err(e) = std::fs::rename(tmp, out) {
                let _ = std::fs::rename(&old, out);
                return Err(io_err(out, e));
            }
            remove_any(&old);
            return Ok(());
        }
        _ => {}
    }
    std::fs::rename(tmp, out).map_err(|e| io_err(out, e))
}

/// Removes what killed exports left in `parent` (temporary folders and their lock
/// files, when no live process holds the lock) and says what was removed.
pub(super) fn sweep_leftovers(parent: &Path) -> Vec<String> {
    let mut removed = Vec::new();
    let Ok(entries) = std::fs::read_dir(parent) else {
        return removed;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with('.') || !name.contains(TMP_MARK) || name.ends_with(".lock") {
            continue;
        }
        let path = entry.path();
        let lock_path = lock_of(&path);
        let live = match File::open(&lock_path) {
            Ok(f) => fs4::FileExt::try_lock(&f).is_err(),
            // No lock file: made before its lock, so by no live run of this version.
            Err(_) => false,
        };
        if live {
            continue;
        }
        remove_any(&path);
        let _ = std::fs::remove_file(&lock_path);
        if std::fs::symlink_metadata(&path).is_err() {
            removed.push(format!(
                "removed {}, left by an export that was interrupted",
                crate::display::escape_line(&path.display().to_string())
            ));
        }
    }
    // Lock files whose folder is gone.
    if let Ok(entries) = std::fs::read_dir(parent) {
        for entry in entries.flatten() {
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') && name.contains(TMP_MARK) && name.ends_with(".lock") {
                let path = entry.path();
                let folder = path.with_extension("");
                let held = File::open(&path).is_ok_and(|f| fs4::FileExt::try_lock(&f).is_err());
                if !held && !folder.exists() {
                    let _ = std::fs::remove_file(&path);
                }
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
    use super::*;

    fn staged(parent: &Path) -> Staging {
        let s = Staging::new(parent, "out").expect("staging");
        std::fs::write(s.path().join("report.md"), "new").expect("write");
        s
    }

    fn leftovers(parent: &Path) -> Vec<String> {
        std::fs::read_dir(parent)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains(TMP_MARK))
            .collect()
    }

    #[test]
    fn a_target_that_appeared_meanwhile_is_never_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out");
        let s = staged(dir.path());
        // Another tool made the folder while the export was built.
        std::fs::create_dir(&out).unwrap();
        std::fs::write(out.join("theirs.txt"), "keep me").unwrap();
        let e = s.publish(&out, Claim::Fresh).expect_err("refused");
        assert!(matches!(e, ExportError::Appeared(_)), "{e}");
        assert_eq!(
            std::fs::read_to_string(out.join("theirs.txt")).unwrap(),
            "keep me"
        );
        assert!(
            leftovers(dir.path()).is_empty(),
            "{:?}",
            leftovers(dir.path())
        );
        // An empty folder at the start that filled up meanwhile: refused too.
        let s = staged(dir.path());
        let e = s.publish(&out, Claim::Empty).expect_err("refused");
        assert!(matches!(e, ExportError::Appeared(_)), "{e}");
        assert!(out.join("theirs.txt").exists());
        // --force at the start: exchanged, and the old one removed.
        let s = staged(dir.path());
        s.publish(&out, Claim::Force).expect("forced");
        assert_eq!(
            std::fs::read_to_string(out.join("report.md")).unwrap(),
            "new"
        );
        assert!(!out.join("theirs.txt").exists());
        assert!(
            leftovers(dir.path()).is_empty(),
            "{:?}",
            leftovers(dir.path())
        );
        // A fresh target is claimed; an empty one is replaced.
        let fresh = dir.path().join("fresh");
        staged(dir.path())
            .publish(&fresh, Claim::Fresh)
            .expect("fresh");
        let empty = dir.path().join("empty");
        std::fs::create_dir(&empty).unwrap();
        staged(dir.path())
            .publish(&empty, Claim::Empty)
            .expect("empty");
        assert!(fresh.join("report.md").exists() && empty.join("report.md").exists());
    }

    #[test]
    fn leftovers_of_killed_runs_are_removed_but_a_live_runs_folder_is_not() {
        let dir = tempfile::tempdir().unwrap();
        // A killed run: its folder and its lock file, no process holding the lock.
        let dead = dir.path().join(".out.clam-tmp-dead01");
        std::fs::create_dir(&dead).unwrap();
        std::fs::write(dead.join("manifest.json"), "{}").unwrap();
        std::fs::write(lock_of(&dead), "clam export (pid 1)").unwrap();
        // An older run's folder without a lock file.
        let old = dir.path().join(".out.clam-tmp-old001");
        std::fs::create_dir(&old).unwrap();
        // A live run (this process holds its lock).
        let live = Staging::new(dir.path(), "out").unwrap();
        // Not clam's: left alone.
        std::fs::create_dir(dir.path().join(".out.other")).unwrap();
        let removed = sweep_leftovers(dir.path());
        assert_eq!(removed.len(), 2, "{removed:?}");
        assert!(removed.iter().all(|r| r.contains("interrupted")));
        assert!(!dead.exists() && !lock_of(&dead).exists() && !old.exists());
        assert!(live.path().exists(), "a live run's folder stays");
        assert!(dir.path().join(".out.other").exists());
    }
}
