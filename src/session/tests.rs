//! Tests of the session: decisions replayed with undo, adopted settings, gold chains, timestamps.
use super::*;

fn decision(action: AuditAction) -> Decision {
    Decision {
        actor: "tester".into(),
        action,
        reason: None,
        state_before: None,
        state_after: None,
        config_hash: "h".into(),
    }
}

#[test]
fn decisions_persist_and_replay_with_undo() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s/session.sqlite");
    let key;
    {
        let mut s = Session::open(&path).unwrap();
        key = s.project_key().unwrap();
        assert_eq!(key.len(), 32);
        s.append(&decision(AuditAction::Override {
            entity: "a".into(),
            mask: false,
        }))
        .unwrap();
        let pin = s
            .append(&decision(AuditAction::Pin {
                entity: "b".into(),
                mask: true,
            }))
            .unwrap();
        s.append(&decision(AuditAction::Pin {
            entity: "c".into(),
            mask: true,
        }))
        .unwrap();
        s.append(&decision(AuditAction::Undo { seq: pin })).unwrap();
        s.append(&decision(AuditAction::Merge {
            from: "c".into(),
            into: "d".into(),
        }))
        .unwrap();
    }
    let s = Session::open(&path).unwrap();
    assert_eq!(
        s.project_key().unwrap(),
        key,
        "the project key survives reopening"
    );
    let state = s.state().unwrap();
    assert_eq!(state.force_keep(), BTreeSet::from(["a".to_string()]));
    assert_eq!(state.force_mask(), BTreeSet::from(["d".to_string()]));
    assert_eq!(state.edits.len(), 1);
    assert_eq!(s.audit_log().unwrap().len(), 5);
    let mode: String = s
        .conn
        .query_row("PRAGMA journal_mode", [], |r| r.get(0))
        .unwrap();
    assert_eq!(mode, "wal");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let m = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(m, 0o600);
    }
}

#[test]
fn adopted_settings_replay_newest_last_and_undo_drops_them() {
    let settings = |old: &str, new: &str| AuditAction::Settings {
        old: BTreeMap::from([("theta_chain".to_string(), old.to_string())]),
        new: BTreeMap::from([("theta_chain".to_string(), new.to_string())]),
    };
    let entry = |seq, action| AuditEntry {
        seq,
        time: String::new(),
        decision: Decision {
            config_hash: "h".into(),
            actor: "t".into(),
            ..decision(action)
        },
    };
    let mut log = vec![
        entry(1, settings("0.5", "0.4")),
        entry(2, settings("0.4", "0.3")),
    ];
    let state = replay(&log);
    assert_eq!(state.settings.text("theta_chain").as_deref(), Some("0.3"));
    log.push(entry(3, AuditAction::Undo { seq: 2 }));
    assert_eq!(
        replay(&log).settings.text("theta_chain").as_deref(),
        Some("0.4")
    );
    log.push(entry(4, AuditAction::Undo { seq: 1 }));
    assert!(replay(&log).settings.is_empty());
}

#[test]
fn rfc3339_time_shape() {
    let t = now_rfc3339();
    assert_eq!(t.len(), 20, "{t}");
    assert!(t.ends_with('Z'));
}
#[test]
fn gold_chains_replay_with_notes_undo_and_survive_reopening() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("session.sqlite");
    let docs = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    {
        let mut s = Session::open(&path).unwrap();
        s.append(&decision(AuditAction::GoldMark {
            documents: docs(&["b", "a"]),
            note: None,
        }))
        .unwrap();
        s.append(&decision(AuditAction::GoldMark {
            documents: docs(&["c", "d", "e"]),
            note: Some("same caller".into()),
        }))
        .unwrap();
        // A note edit is a new mark of the same set, in any order.
        let edit = s
            .append(&decision(AuditAction::GoldMark {
                documents: docs(&["a", "b"]),
                note: Some("same MRN".into()),
            }))
            .unwrap();
        s.append(&decision(AuditAction::GoldUnmark {
            documents: docs(&["e", "d", "c"]),
        }))
        .unwrap();
        let state = s.state().unwrap();
        assert_eq!(
            state.gold,
            BTreeMap::from([(docs(&["a", "b"]), Some("same MRN".to_string()))])
        );
        s.append(&decision(AuditAction::Undo { seq: edit }))
            .unwrap();
    }
    let s = Session::open(&path).unwrap();
    let state = s.state().unwrap();
    assert_eq!(
        state.gold,
        BTreeMap::from([(docs(&["a", "b"]), None)]),
        "the undone note is gone after reopening, the unmark holds"
    );
    let log = s.audit_log().unwrap();
    assert_eq!(log[0].decision.action.name(), "gold_mark");
    assert_eq!(log[3].decision.action.name(), "gold_unmark");
    assert_eq!(log[0].decision.action.entity(), None);
}

#[test]
fn an_empty_file_is_refused_and_left_as_it_was() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.sqlite");
    std::fs::write(&path, b"").expect("write");
    let err = Session::open(&path).err().expect("refused");
    let text = err.to_string();
    assert!(
        matches!(err, SessionError::NotASession { .. })
            && text.contains(&path.display().to_string())
            && text.contains("empty"),
        "{text}"
    );
    assert_eq!(std::fs::metadata(&path).expect("still there").len(), 0);
    // A new path is a new session; reopened, it is the same one.
    let fresh = dir.path().join("new.sqlite");
    let key = Session::open(&fresh)
        .expect("new")
        .project_key()
        .expect("key");
    let again = Session::open(&fresh).expect("reopened");
    assert_eq!(again.project_key().expect("key"), key);
}

#[test]
fn another_programs_database_and_a_folder_are_refused_untouched() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("other.sqlite");
    {
        let conn = Connection::open(&path).expect("sqlite");
        conn.execute_batch("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('x');")
            .expect("schema");
    }
    let before = std::fs::read(&path).expect("read");
    let err = Session::open(&path).err().expect("refused");
    assert!(
        matches!(err, SessionError::NotASession { .. })
            && err.to_string().contains("not a clam session"),
        "{err}"
    );
    assert_eq!(
        std::fs::read(&path).expect("read"),
        before,
        "nothing changed"
    );
    let conn = Connection::open(&path).expect("sqlite");
    let tables: i64 = conn
        .query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table'",
            [],
            |r| r.get(0),
        )
        .expect("count");
    assert_eq!(tables, 1, "no clam table was added");
    let folder = dir.path().join("a-folder");
    std::fs::create_dir(&folder).expect("mkdir");
    assert!(matches!(
        Session::open(&folder),
        Err(SessionError::NotASession { .. })
    ));
}

#[test]
fn one_writer_at_a_time_the_others_read_only_and_told_who_writes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("s.sqlite");
    let mut writer = Session::open(&path).expect("writer");
    assert!(writer.is_writer());
    let mut reader = Session::open(&path).expect("a second opening");
    let holder = reader.held_by().expect("read-only").to_string();
    assert!(
        holder.contains(&format!("pid {}", std::process::id())),
        "{holder}"
    );
    let err = reader
        .append(&decision(AuditAction::Accept {
            entity: "e1".into(),
            mask: true,
        }))
        .expect_err("a reader cannot append");
    assert!(
        matches!(err, SessionError::ReadOnly { .. }) && err.to_string().contains("read-only"),
        "{err}"
    );
    writer
        .append(&decision(AuditAction::Accept {
            entity: "e1".into(),
            mask: true,
        }))
        .expect("the writer appends");
    assert_eq!(
        reader.audit_log().expect("log").len(),
        1,
        "the reader sees it"
    );
    drop(writer);
    drop(reader);
    // Closed, the next opening writes; its own decisions start after the old ones.
    let next = Session::open(&path).expect("next");
    assert!(next.is_writer());
    assert_eq!(next.own_from(), 2);
}
