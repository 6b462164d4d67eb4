//! Session decisions in the headless commands: applied, and accepted residuals and
//! orphaned decisions listed.

use super::*;

#[test]
fn a_session_decision_is_applied_by_headless_commands() {
    use clam::session::{AuditAction, Decision, Session};
    let env = Env::new();
    let before = env.clam(&["analyze", &sample(), "--json"]);
    let v: Value = serde_json::from_slice(&before.stdout).expect("json");
    let first = v["masks"][0]["id"]
        .as_str()
        .expect("a proposed mask")
        .to_string();
    let session = env.path("review.sqlite");
    {
        let mut s = Session::open(&session).expect("session");
        s.append(&Decision {
            state_before: Some("mask".into()),
            state_after: Some("keep".into()),
            ..decision(
                "auditor",
                AuditAction::Override {
                    entity: first.clone(),
                    mask: false,
                },
                Some("public information"),
            )
        })
        .expect("append");
    }
    let session = session.to_str().expect("utf8");
    let after = env.clam(&["analyze", &sample(), "--json", "--session", session]);
    assert_eq!(after.status.code(), Some(0), "{}", stderr(&after));
    let v: Value = serde_json::from_slice(&after.stdout).expect("json");
    let masks: Vec<&str> = v["masks"]
        .as_array()
        .expect("masks")
        .iter()
        .filter_map(|m| m["id"].as_str())
        .collect();
    assert!(
        !masks.contains(&first.as_str()),
        "the overridden entity is kept"
    );

    // The export carries the decision, by export id, with its reason.
    let out = env.path("out");
    let o = run_to(&env, sample(), &out, &["--session", session]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log = std::fs::read_to_string(out.join("decisions.jsonl")).expect("decisions");
    assert_eq!(log.lines().count(), 1);
    assert!(
        log.contains("public information") && !log.contains(&first),
        "{log}"
    );
    let manifest = crate::common::manifest_text(&out);
    assert!(manifest.contains("\"overridden\""));
    // The reason is visible afterwards: beside the entity in the manifest, and in
    // report.md's section on the auditor's decisions.
    let m = crate::common::manifest(&out);
    let with_reason: Vec<&Value> = m["entities"]
        .as_array()
        .expect("entities")
        .iter()
        .filter(|e| e.get("override_reason").is_some())
        .collect();
    assert_eq!(with_reason.len(), 1, "only the overridden entity has one");
    assert_eq!(with_reason[0]["override_reason"], "public information");
    assert_eq!(with_reason[0]["review_state"], "overridden");
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(report.contains("## Auditor's decisions"), "{report}");
    assert!(
        report.contains("| overrides (mask / keep) | 0 / 1 |"),
        "{report}"
    );
    assert!(report.contains("| keep | public information |"), "{report}");
    assert!(report.contains("Adopted settings: none"), "{report}");

    // --require-reviewed refuses while proposed masks are unreviewed.
    let o = run_to(
        &env,
        sample(),
        &env.path("out2"),
        &["--session", session, "--require-reviewed"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unreviewed"), "{}", stderr(&o));
    assert!(!env.path("out2").exists());
}

#[test]
fn accepted_residuals_and_orphaned_decisions_are_listed_by_analyze_and_the_export() {
    use clam::session::{AuditAction, Session};
    let env = Env::new();
    // Nothing may be masked, so documents and chains stay residual.
    let config = env.path("keep-all.toml");
    let types = clam::Config::default()
        .schema
        .types
        .iter()
        .map(|t| format!("{:?}", t.name))
        .collect::<Vec<_>>()
        .join(", ");
    std::fs::write(
        &config,
        format!("always_mask = []\nnever_mask = [{types}]\n"),
    )
    .expect("write");
    let config = config.to_str().expect("utf8");
    let session = env.path("review.sqlite");
    let session_s = session.to_str().expect("utf8");
    let sample_s = sample();
    let analyze = |with_session: bool| {
        let mut args = vec!["analyze", &sample_s, "--json", "--config", config];
        if with_session {
            args.extend(["--session", session_s]);
        }
        let o = env.clam(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        serde_json::from_slice::<Value>(&o.stdout).expect("json")
    };
    let v = analyze(false);
    let doc = v["residual_documents"][0]
        .as_str()
        .expect("a residual document")
        .to_string();
    let chain: Vec<String> = v["residual_chains"][0]
        .as_array()
        .expect("a residual chain")
        .iter()
        .map(|d| d.as_str().expect("id").to_string())
        .collect();
    let ghost = clam::entity::entity_id("no such value", "NAME");
    {
        let mut s = Session::open(&session).expect("session");
        let decide = |s: &mut Session, action: AuditAction, reason: &str| {
            s.append(&decision("auditor", action, Some(reason)))
                .expect("append");
        };
        decide(
            &mut s,
            AuditAction::AcceptResidual {
                documents: vec![doc.clone()],
            },
            "public record",
        );
        // The chain in the other order is the same chain.
        let mut reversed = chain.clone();
        reversed.reverse();
        decide(
            &mut s,
            AuditAction::AcceptResidual {
                documents: reversed,
            },
            "same reviewer",
        );
        decide(
            &mut s,
            AuditAction::Pin {
                entity: ghost.clone(),
                mask: true,
            },
            "from an older corpus",
        );
    }
    let v = analyze(true);
    assert_eq!(v["accepted_residual_documents"], serde_json::json!([doc]));
    assert_eq!(v["accepted_residual_chains"], serde_json::json!([chain]));
    assert_eq!(
        v["orphaned_decisions"],
        serde_json::json!([{"id": ghost, "decision": "pinned mask"}])
    );
    let o = env.clam(&[
        "analyze",
        &sample(),
        "--config",
        config,
        "--session",
        session_s,
    ]);
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("RESIDUAL RISK") && text.contains("accepted") && text.contains("open"),
        "{text}"
    );
    assert!(
        text.contains("ORPHANED DECISIONS") && text.contains(&ghost),
        "{text}"
    );

    let out = env.path("out");
    let o = run_to(
        &env,
        sample(),
        &out,
        &["--config", config, "--session", session_s],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let manifest: Value = crate::common::manifest(&out);
    assert_eq!(
        manifest["residuals"]["accepted_documents"],
        serde_json::json!([doc])
    );
    assert_eq!(
        manifest["residuals"]["accepted_chains"],
        serde_json::json!([chain])
    );
    let orphans = manifest["orphaned_decisions"].as_array().expect("orphans");
    assert_eq!(orphans.len(), 1);
    assert_eq!(orphans[0]["decision"], "pinned mask");
    assert_ne!(
        orphans[0]["id"],
        serde_json::json!(ghost),
        "by export id, never the md5 id"
    );
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("yes, accepted") && report.contains("## Orphaned decisions"),
        "{report}"
    );
    for (path, text) in read_all_files(&out) {
        assert!(
            !text.contains(&ghost),
            "{}: the internal entity id",
            path.display()
        );
    }
}

#[test]
fn an_empty_session_file_is_an_error_naming_it_not_a_new_session() {
    let env = Env::new();
    let session = env.path("review.sqlite");
    std::fs::write(&session, b"").expect("empty file");
    let shown = session.to_str().expect("utf8");
    let out = env.path("out");
    let o = env.clam(&[
        "run",
        &sample(),
        "--out",
        out.to_str().expect("utf8"),
        "--session",
        shown,
    ]);
    assert_ne!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(err.contains(shown) && err.contains("empty"), "{err}");
    assert!(!out.exists(), "nothing exported");
    assert_eq!(
        std::fs::metadata(&session).expect("kept").len(),
        0,
        "the file is left as it was"
    );
}

#[test]
fn a_second_process_opens_a_held_session_read_only_and_says_who_holds_it() {
    use clam::session::Session;
    let env = Env::new();
    let session = env.path("review.sqlite");
    // This process is the writer (as a running `clam review` would be).
    let writer = Session::open(&session).expect("writer");
    assert!(writer.is_writer());
    let shown = session.to_str().expect("utf8");
    let o = env.clam(&["analyze", &sample(), "--session", shown]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains("read-only") && err.contains(&format!("pid {}", std::process::id())),
        "{err}"
    );
    drop(writer);
    let o = env.clam(&["analyze", &sample(), "--session", shown]);
    assert!(!stderr(&o).contains("read-only"), "{}", stderr(&o));
}

#[cfg(unix)]
#[test]
fn clams_own_sessions_folder_is_made_owner_only_even_if_it_was_open() {
    use std::os::unix::fs::PermissionsExt;
    let env = Env::new();
    let sessions = env.path("data/clam/sessions");
    std::fs::create_dir_all(&sessions).expect("mkdir");
    std::fs::set_permissions(&sessions, std::fs::Permissions::from_mode(0o777)).expect("chmod");
    let gold = env.path("links.json");
    std::fs::write(&gold, r#"{"links": [["call_04", "claim_01"]]}"#).expect("write");
    let o = env.clam(&["gold", "import", &sample(), gold.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let files: Vec<_> = std::fs::read_dir(&sessions)
        .expect("read")
        .flatten()
        .collect();
    assert!(!files.is_empty(), "the default session is in clam's folder");
    let mode = std::fs::metadata(&sessions)
        .expect("meta")
        .permissions()
        .mode()
        & 0o777;
    assert_eq!(mode, 0o700);
}
