//! `clam decide`: review decisions from a script, in the session and audit log the
//! workspace writes, so that `clam run --require-reviewed` passes in a pipeline.

use super::*;

/// `clam analyze SAMPLE --json --session SESSION` (without it while there is none).
fn analyze(env: &Env, session: &str) -> Value {
    let corpus = sample();
    let mut args = vec!["analyze", &corpus, "--json"];
    if Path::new(session).exists() {
        args.extend(["--session", session]);
    }
    let o = env.clam(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("json")
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .map(|e| e["id"].as_str().expect("id").to_string())
        .collect()
}

#[test]
fn decisions_from_the_command_line_and_a_file_let_a_pipeline_export_reviewed() {
    let env = Env::new();
    let session = env.path("review.sqlite");
    let session = session.to_str().expect("utf8");
    let v = analyze(&env, session);
    let masks = ids(&v["masks"]);
    assert!(masks.len() > 3, "{masks:?}");

    // Nothing reviewed yet: the pipeline refuses.
    let o = run_to(
        &env,
        sample(),
        &env.path("refused"),
        &["--session", session, "--require-reviewed"],
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));

    // Override by entity id, with a reason and an actor: the entity is kept, and the
    // output says so with the plan's change, as the workspace's status line does.
    let overridden = &masks[0];
    let o = env.clam(&[
        "--actor",
        "alice",
        "decide",
        &sample(),
        "override",
        overridden,
        "--reason",
        "public figure",
        "--session",
        session,
        "--json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out: Value = serde_json::from_slice(&o.stdout).expect("json");
    let d = &out["decisions"][0];
    assert_eq!(d["action"], "override");
    assert_eq!(d["entity"], overridden.as_str());
    assert_eq!(
        (d["before"].as_str(), d["after"].as_str()),
        (Some("mask"), Some("keep"))
    );
    assert!(d["seq"].as_i64().is_some(), "{d}");
    let newly_kept = ids(&d["change"]["newly_kept"]);
    assert!(newly_kept.contains(overridden), "{d}");
    let export_id = d["export_id"].as_str().expect("export id").to_string();
    assert_eq!(export_id.len(), 16);

    // Pin it by its export id (as the manifest names it): the text output is the
    // workspace's status line.
    let o = env.clam(&["decide", &sample(), "pin", &export_id, "--session", session]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let line = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(line.starts_with("pinned: keep "), "{line}");
    assert!(line.trim_end().ends_with(": +0 −0 masks"), "{line}");
    // A second pin records nothing and says so.
    let o = env.clam(&["decide", &sample(), "pin", &export_id, "--session", session]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("already pinned; nothing recorded"),
        "{}",
        String::from_utf8_lossy(&o.stdout)
    );
    assert!(
        stderr(&o).contains("0 decision(s) recorded"),
        "{}",
        stderr(&o)
    );

    // Accept every other proposed mask from a JSONL file, one of them by value and
    // type; stderr counts what is left to review.
    let v = analyze(&env, session);
    let open: Vec<&Value> = v["masks"]
        .as_array()
        .expect("masks")
        .iter()
        .filter(|m| m["review_state"] == "proposed")
        .collect();
    assert!(!open.is_empty());
    let mut lines: Vec<String> = open[1..]
        .iter()
        .map(|m| serde_json::json!({"action": "accept", "entity": m["id"]}).to_string())
        .collect();
    lines.push(
        serde_json::json!({"action": "accept", "value": open[0]["value"], "type": open[0]["type"]})
            .to_string(),
    );
    let file = env.path("decisions.jsonl");
    std::fs::write(&file, lines.join("\n") + "\n").expect("write");
    let o = env.clam(&[
        "--actor",
        "bob",
        "decide",
        &sample(),
        "--from",
        file.to_str().expect("utf8"),
        "--session",
        session,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert_eq!(text.lines().count(), open.len(), "{text}");
    assert!(
        text.lines().all(|l| l.starts_with("accepted: mask ")),
        "{text}"
    );
    assert!(
        stderr(&o).contains(&format!("{} decision(s) recorded", open.len()))
            && stderr(&o).contains("0 proposed mask(s) still to review"),
        "{}",
        stderr(&o)
    );

    // The pipeline now exports; the audit log holds every decision with its actor.
    let out = env.path("out");
    let o = run_to(
        &env,
        sample(),
        &out,
        &["--session", session, "--require-reviewed"],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log = std::fs::read_to_string(out.join("decisions.jsonl")).expect("decisions");
    assert_eq!(log.lines().count(), 2 + open.len(), "{log}");
    let entries: Vec<Value> = log
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .collect();
    assert_eq!(entries[0]["actor"], "alice");
    assert_eq!(entries[0]["action"]["action"], "override");
    assert_eq!(entries[0]["reason"], "public figure");
    assert_eq!(entries[0]["state_before"], "mask");
    assert_eq!(entries[0]["state_after"], "keep");
    assert_eq!(entries[1]["action"]["action"], "pin");
    assert!(
        entries[2..]
            .iter()
            .all(|e| e["actor"] == "bob" && e["action"]["action"] == "accept")
    );
}

#[test]
fn unknown_entities_and_malformed_requests_record_nothing() {
    let env = Env::new();
    let session = env.path("review.sqlite");
    let session = session.to_str().expect("utf8");
    let v = analyze(&env, session);
    let first = ids(&v["masks"])[0].clone();
    let audit_len = || {
        clam::session::Session::open(Path::new(session))
            .expect("session")
            .audit_log()
            .expect("log")
            .len()
    };
    let corpus = sample();
    let decide = |args: &[&str]| {
        let mut all: Vec<&str> = vec!["decide", &corpus, "--session", session];
        all.extend_from_slice(args);
        env.clam(&all)
    };

    // One good and one unknown entity: exit 1, the unknown one named, nothing recorded.
    let o = decide(&["accept", &first, "00000000000000000000000000000000"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("\"00000000000000000000000000000000\"")
            && stderr(&o).contains("nothing was recorded"),
        "{}",
        stderr(&o)
    );
    let o = decide(&["accept", "--value", "Nobody Atall", "--type", "NAME"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no NAME entity \"Nobody Atall\""),
        "{}",
        stderr(&o)
    );
    assert_eq!(audit_len(), 0);

    // Usage errors: exit 2.
    for (args, says) in [
        (vec!["override", first.as_str()], "--reason"),
        (vec!["accept"], "name the entities"),
        (
            vec!["accept", "--value", "x", "--type", "NOPE"],
            "unknown entity type",
        ),
        (vec!["freeze", first.as_str()], "invalid value 'freeze'"),
    ] {
        let o = decide(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(says), "{args:?}: {}", stderr(&o));
    }

    // A request file: every bad line named with its key, nothing recorded.
    let file = env.path("d.csv");
    std::fs::write(
        &file,
        format!("action,entity,reason\naccept,{first},\noverride,{first},\nfreeze,{first},\n"),
    )
    .expect("write");
    let o = decide(&["--from", file.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("line 3: an override needs a reason"), "{err}");
    assert!(err.contains("line 4: unknown action \"freeze\""), "{err}");
    assert_eq!(audit_len(), 0);

    // A good file records all of its lines.
    std::fs::write(&file, format!("action,entity\naccept,{first}\n")).expect("write");
    let o = decide(&["--from", file.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(audit_len(), 1);
}
