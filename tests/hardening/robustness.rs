//! §6. Headless robustness on a partly broken corpus: exit codes and what is
//! exported.

use super::*;

#[test]
fn run_on_a_partly_broken_corpus_exports_the_valid_documents_and_exits_4() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    let valid = [
        (
            "v01",
            "Priya Raman (MBR-448213) was seen at Cedar Clinic for lupus nephritis.",
        ),
        ("v02", "Call from (555) 010-4417 about member MBR-448213."),
        (
            "v03",
            "Dr. Elise Varga reviewed the claim of a member born 03/14/1968.",
        ),
        (
            "v04",
            "Jonathan Whitfield, a welder aged 42, filed claim MBR-991027.",
        ),
        ("v05", "Follow-up for MBR-991027 at Cedar Clinic."),
        ("v06", "General memo about the claims backlog."),
        ("v07", "Priya Raman asked about lupus nephritis coverage."),
        ("v08", "The welder Jonathan Whitfield called again."),
        ("v09", "Quarterly note: nothing personal here."),
        ("v10", "Reminder to archive the 2023 files."),
        ("v11", "Ms. Raman's address is 12 Elm Street, Springfield."),
        (
            "v12",
            "jonathan.whitfield@example.com wrote about the claim.",
        ),
    ];
    for (id, content) in valid {
        write(&corpus, &format!("{id}.json"), doc(id, content));
    }
    let big = doc("big", &"padding words ".repeat(400));
    let broken: [(&str, Vec<u8>, &str); 7] = [
        (
            "x1_bad_json.json",
            b"{\"id\": \"x\", \"content\": ".to_vec(),
            "not valid JSON",
        ),
        (
            "x2_bad_utf8.json",
            b"{\"id\":\"u\",\"content\":\"caf\xe9\"}".to_vec(),
            "not valid UTF-8",
        ),
        ("x3_empty.json", Vec::new(), "not valid JSON"),
        (
            "x4_too_large.json",
            big.into_bytes(),
            "over the document size limit",
        ),
        (
            "x5_duplicate.json",
            doc("v01", "A second document with id v01.").into_bytes(),
            "duplicate id",
        ),
        ("x6_array.json", b"[1, 2, 3]".to_vec(), "found an array"),
        ("x7_number.json", b"42".to_vec(), "found a number"),
    ];
    for (name, bytes, _) in &broken {
        write(&corpus, name, bytes);
    }
    let config = home.path().join("limits.toml");
    write(home.path(), "limits.toml", "max_document_bytes = 4096\n");
    let out = home.path().join("out");
    let o = run(home.path(), &corpus, &out, &["--config", s(&config)]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("leak check passed"), "{}", stderr(&o));
    let mut exported: Vec<String> = std::fs::read_dir(out.join("redacted"))
        .expect("redacted")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .collect();
    exported.sort();
    let expected: Vec<String> = valid.iter().map(|(id, _)| format!("{id}.json")).collect();
    assert_eq!(exported, expected);
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    let skipped = report
        .split("## Skipped input")
        .nth(1)
        .expect("report.md has a Skipped input section");
    let skipped = skipped.split("\n## ").next().unwrap_or_default();
    for (name, _, reason) in &broken {
        let line = skipped
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} is not listed as skipped:\n{skipped}"));
        assert!(line.contains(reason), "{name}: {line}");
    }
    let manifest = manifest(&out);
    assert_eq!(
        manifest["corpus"]["skipped"].as_array().map(Vec::len),
        Some(broken.len())
    );
    // Read-only corpus: nothing was written into it.
    assert_eq!(files_under(&corpus).len(), valid.len() + broken.len());
}

#[test]
fn a_failed_leak_check_wins_over_skipped_input_exit_3() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    // A masked name that reads like its own placeholder: "[NAME]" still shows the
    // value "Name", which the independent check finds.
    write(
        &corpus,
        "a.json",
        r#"{"id": "a", "metadata": {"phones": [5550104417]}, "content": "Name: Name. Call (555) 010-4417 about member MBR-448213."}"#,
    );
    write(
        &corpus,
        "clam.toml",
        "[extract]\ndeny = { NAME = [\"Name\"] }\n",
    );
    write(&corpus, "b.json", "{broken");
    let out = home.path().join("out");
    let o = run(home.path(), &corpus, &out, &[]);
    assert_eq!(o.status.code(), Some(3), "{}", stderr(&o));
    assert!(!out.exists(), "nothing is exported");
}

#[test]
fn a_corpus_of_only_broken_files_fails_with_exit_1_and_exports_nothing() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    write(&corpus, "a.json", "{");
    write(&corpus, "b.json", b"\xff\xfe");
    let out = home.path().join("out");
    let o = run(home.path(), &corpus, &out, &[]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no documents could be loaded"),
        "{}",
        stderr(&o)
    );
    assert!(!out.exists());
}
