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
        actor: "t".into(),
        action,
        reason: None,
        state_before: None,
        state_after: None,
        config_hash: "h".into(),
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
    assert_eq!(log[0].action.name(), "gold_mark");
    assert_eq!(log[3].action.name(), "gold_unmark");
    assert_eq!(log[0].action.entity(), None);
}
