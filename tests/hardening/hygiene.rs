//! §3. Sensitive-data hygiene of the export, the logs and the files clam writes.

use super::*;

#[test]
fn no_masked_value_reaches_the_export_or_the_logs_in_any_mode() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    pii_corpus(&corpus);
    // A decision whose reason quotes a masked value: decisions.jsonl must not carry it.
    let session_path = home.path().join("review.sqlite");
    {
        let mut session = Session::open(&session_path).expect("session");
        session
            .append(&Decision {
                actor: "auditor".into(),
                action: AuditAction::Override {
                    entity: clam::entity::entity_id("priya raman", "NAME"),
                    mask: true,
                },
                reason: Some("Priya Raman asked us to; call (555) 010-4417".into()),
                state_before: None,
                state_after: None,
                config_hash: "x".into(),
            })
            .expect("append");
    }
    let content: Vec<String> = files_under(&corpus)
        .iter()
        .map(|p| {
            let v: Value =
                serde_json::from_str(&std::fs::read_to_string(p).expect("read")).expect("json");
            v["content"].as_str().expect("content").to_string()
        })
        .collect();
    for mode_name in ["redact", "value", "pseudonym", "generalize"] {
        let out = home.path().join(format!("export-{mode_name}"));
        let mapping = home.path().join(format!("mapping-{mode_name}.json"));
        let o = run(
            home.path(),
            &corpus,
            &out,
            &[
                "--mode",
                mode_name,
                "--session",
                s(&session_path),
                "--with-mapping",
                s(&mapping),
            ],
        );
        assert_eq!(o.status.code(), Some(0), "{mode_name}: {}", stderr(&o));
        let originals = mapping_originals(&mapping);
        for must in [
            "Priya Raman",
            "MBR-448213",
            "(555) 010-4417",
            "priya.raman@example.org",
        ] {
            assert!(
                originals.iter().any(|o| o.contains(must)),
                "{mode_name}: {must} is masked ({originals:?})"
            );
        }
        for f in ["manifest.json", "report.md", "decisions.jsonl"] {
            assert!(out.join(f).is_file(), "{f}");
        }
        let decisions = std::fs::read_to_string(out.join("decisions.jsonl")).expect("decisions");
        assert!(decisions.contains("asked us to"), "the reason is exported");
        let found = leaks(&out, &originals);
        assert!(
            found.is_empty(),
            "{mode_name}: masked values in the export: {found:?}"
        );
        let logs = home.path().join("data/clam/logs");
        assert!(!files_under(&logs).is_empty(), "a log file is written");
        let found = leaks(&logs, &originals);
        assert!(
            found.is_empty(),
            "{mode_name}: masked values in the logs: {found:?}"
        );
        for path in files_under(&logs) {
            let log = std::fs::read_to_string(&path).expect("log");
            for c in &content {
                for sentence in c.split(['.', ':', ',']).filter(|x| x.trim().len() > 12) {
                    assert!(
                        !log.contains(sentence.trim()),
                        "document text in the log: {sentence}"
                    );
                }
            }
        }
        // The mapping file holds the originals and is owner-only.
        #[cfg(unix)]
        assert_eq!(mode(&mapping), 0o600);
        if mode_name == "pseudonym" {
            let text = std::fs::read_to_string(out.join("redacted/claim_a.json")).expect("doc");
            assert!(text.contains("[NAME_"), "{text}");
        }
    }
}

#[test]
fn jsonl_and_text_exports_hold_no_masked_value_either() {
    let home = tempfile::tempdir().expect("tempdir");
    let json = home.path().join("json");
    pii_corpus(&json);
    let mut jsonl = String::new();
    let text_dir = home.path().join("text");
    for f in files_under(&json) {
        let body = std::fs::read_to_string(&f).expect("read");
        let v: Value = serde_json::from_str(&body).expect("json");
        jsonl.push_str(&v.to_string());
        jsonl.push('\n');
        let id = v["id"].as_str().expect("id");
        write(
            &text_dir,
            &format!("{id}.txt"),
            v["content"].as_str().expect("content"),
        );
    }
    // A text file named after a masked value gets a neutral name in the export.
    write(
        &text_dir,
        "Priya Raman.txt",
        "Ms. Priya Raman (MBR-448213) wrote again.",
    );
    write(home.path(), "all.jsonl", &jsonl);
    for (name, input) in [("jsonl", home.path().join("all.jsonl")), ("text", text_dir)] {
        let out = home.path().join(format!("out-{name}"));
        let mapping = home.path().join(format!("mapping-{name}.json"));
        let o = run(
            home.path(),
            &input,
            &out,
            &["--mode", "pseudonym", "--with-mapping", s(&mapping)],
        );
        assert_eq!(o.status.code(), Some(0), "{name}: {}", stderr(&o));
        assert!(
            !stderr(&o).contains(" INFO "),
            "no log lines on the terminal"
        );
        let originals = mapping_originals(&mapping);
        assert!(
            originals.iter().any(|o| o.contains("Priya Raman")),
            "{originals:?}"
        );
        let found = leaks(&out, &originals);
        assert!(found.is_empty(), "{name}: {found:?}");
        assert_eq!(
            files_under(&out.join("redacted")).len(),
            if name == "jsonl" { 1 } else { 6 }
        );
    }
}

#[cfg(unix)]
#[test]
fn session_logs_and_their_folders_are_owner_only() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    pii_corpus(&corpus);
    let o = run(home.path(), &corpus, &home.path().join("out"), &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let data = home.path().join("data/clam");
    let sessions = data.join("sessions");
    let logs = data.join("logs");
    assert_eq!(mode(&sessions), 0o700, "sessions folder");
    assert_eq!(mode(&logs), 0o700, "logs folder");
    let session_files = files_under(&sessions);
    assert!(
        !session_files.is_empty(),
        "the run created the corpus's session"
    );
    for f in session_files.iter().chain(files_under(&logs).iter()) {
        assert_eq!(mode(f), 0o600, "{}", f.display());
    }
}

#[test]
fn the_mapping_file_is_written_only_on_request_and_never_inside_the_export() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    pii_corpus(&corpus);
    let before: Vec<PathBuf> = files_under(home.path());
    let out = home.path().join("out");
    let o = run(home.path(), &corpus, &out, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // Without --with-mapping only the export, the session and the log are new.
    for f in files_under(home.path()) {
        if before.contains(&f) {
            continue;
        }
        let rel = f.strip_prefix(home.path()).expect("inside home");
        assert!(
            rel.starts_with("out")
                || rel.starts_with("data/clam/sessions")
                || rel.starts_with("data/clam/logs"),
            "unexpected file {}",
            rel.display()
        );
    }
    // Inside the export folder: refused, however the path is spelled, and nothing is
    // exported.
    let cases: [(&str, &str); 5] = [
        ("new1", "new1/mapping.json"),
        ("new2", "./new2/sub/mapping.json"),
        ("new3", "other/../new3/mapping.json"),
        ("new4", "new4"),
        ("out", "out/mapping.json"),
    ];
    for (dir, mapping) in cases {
        let mut args = vec!["run", s(&corpus), "--out", dir, "--with-mapping", mapping];
        if dir == "out" {
            args.push("--force");
        }
        let o = clam_in(home.path(), home.path(), &args);
        assert_eq!(o.status.code(), Some(1), "{mapping}: {}", stderr(&o));
        assert!(
            stderr(&o).contains("must be outside the export folder"),
            "{mapping}: {}",
            stderr(&o)
        );
        assert!(
            !home.path().join(mapping).is_file(),
            "{mapping} was written"
        );
        if dir != "out" {
            assert!(!home.path().join(dir).exists(), "{dir} was exported");
        }
    }
    // Beside the export folder, relative: fine.
    let o = clam_in(
        home.path(),
        home.path(),
        &[
            "run",
            s(&corpus),
            "--out",
            "new5",
            "--with-mapping",
            "new5-mapping.json",
        ],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(home.path().join("new5-mapping.json").is_file());
}
