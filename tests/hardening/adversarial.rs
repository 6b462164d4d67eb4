//! §4. Adversarial content: escape sequences, bidi overrides, huge lines and many
//! entities.

use super::*;

fn assert_printable(what: &str, text: &str) {
    let bad: Vec<char> = text
        .chars()
        .filter(|&c| c != '\n' && clam::display::is_unsafe_char(c))
        .collect();
    assert!(
        bad.is_empty(),
        "{what} holds raw control/bidi characters {bad:?}"
    );
}

#[test]
fn escape_sequences_bidi_overrides_and_zero_width_joiners_stay_harmless() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    let esc_id = "esc\u{1b}[2J\u{1b}]0;owned\u{7}|id";
    let docs = [
        (
            esc_id.to_string(),
            "Ms. Priya Raman, or \u{1b}[31mPriya Raman\u{1b}[0m (MBR-448213), called from (555) 010-4417 \u{9b}6n about lupus nephritis.".to_string(),
        ),
        (
            "bidi\u{202e}txt.exe".to_string(),
            "Member MBR-448213: write to \u{202e}gro.elpmaxe@namar.ayirp\u{202c} or priya.raman@example.org; \u{202e}Priya Raman\u{202c}.".to_string(),
        ),
        (
            "zwj".to_string(),
            "Ms. Pri\u{200d}ya Ra\u{200d}man and Dr. Elise Varga (elise.varga@example.org) discussed lupus nephritis; member MBR-448213. Later Pri\u{200b}ya Ra\u{ad}man called.".to_string(),
        ),
    ];
    for (i, (id, content)) in docs.iter().enumerate() {
        write(&corpus, &format!("d{i}.json"), doc(id, content));
    }
    // A broken file whose name carries an escape sequence.
    write(&corpus, "evil\u{1b}[2J.json", "{not json");
    let out = home.path().join("out");
    let mapping = home.path().join("mapping.json");
    let o = run(home.path(), &corpus, &out, &["--with-mapping", s(&mapping)]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert_printable("stderr", &stderr(&o));
    assert!(stderr(&o).contains("evil\\u{1b}[2J.json"), "{}", stderr(&o));
    for f in ["manifest.json", "report.md", "decisions.jsonl"] {
        assert_printable(f, &crate::common::own_file_text(&out, f));
    }
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("\\|id"),
        "a | in an id cannot split a table row"
    );
    // The manifest keeps the exact ids (escaped in JSON, not altered).
    let manifest = manifest(&out);
    let ids: Vec<&str> = manifest["documents"]
        .as_array()
        .expect("documents")
        .iter()
        .filter_map(|d| d["id"].as_str())
        .collect();
    assert!(ids.contains(&esc_id), "{ids:?}");
    let originals = mapping_originals(&mapping);
    let found = leaks(&out, &originals);
    assert!(found.is_empty(), "{found:?}");
    // What a reader sees, with invisible characters removed, still shows no direct
    // identifier of the corpus.
    for f in files_under(&out.join("redacted")) {
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(&f).expect("read")).expect("json");
        let visible: String = v["content"]
            .as_str()
            .expect("content")
            .chars()
            .filter(|&c| !clam::entity::spans::is_ignorable(c))
            .collect();
        for value in [
            "Raman",
            "Priya Raman",
            "MBR-448213",
            "(555) 010-4417",
            "priya.raman@example.org",
        ] {
            assert!(
                !contains_word(&visible, value),
                "{}: {value} visible in {visible:?}",
                f.display()
            );
        }
    }
}

#[test]
fn a_one_megabyte_line_and_fifty_thousand_entities_complete_without_a_leak() {
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    // One 1 MB line of prose with identifiers at its start, middle and end.
    let filler = "the member asked about the status of the claim and the reply ";
    let mut line = String::from("Ms. Priya Raman wrote from priya.raman@example.org. ");
    while line.len() < 512 * 1024 {
        line.push_str(filler);
    }
    line.push_str(" Call (555) 010-4417 now. ");
    while line.len() < 1024 * 1024 {
        line.push_str(filler);
    }
    line.push_str(" Signed, Priya Raman, member MBR-448213.");
    write(&corpus, "long.txt", &line);
    // 50,000 distinct e-mail addresses in one document.
    let mut many = String::from("Distribution list for Priya Raman:\n");
    for i in 0..50_000 {
        many.push_str(&format!("member{i}@list.example.org\n"));
    }
    write(&corpus, "many.txt", &many);
    write(
        &corpus,
        "short.txt",
        "Priya Raman (MBR-448213) asked member7@list.example.org to call (555) 010-4417.",
    );
    let out = home.path().join("out");
    let mapping = home.path().join("mapping.json");
    let started = Instant::now();
    let o = run(home.path(), &corpus, &out, &["--with-mapping", s(&mapping)]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    eprintln!("1 MB line + 50,000 entities: {:?}", started.elapsed());
    let manifest = manifest(&out);
    assert!(
        manifest["summary"]["entities"].as_u64().unwrap_or(0) >= 50_000,
        "{}",
        manifest["summary"]
    );
    let many_out = std::fs::read_to_string(out.join("redacted/many.txt")).expect("many");
    assert!(
        !many_out.contains("@list.example.org"),
        "every address is masked"
    );
    let long_out = std::fs::read_to_string(out.join("redacted/long.txt")).expect("long");
    for v in [
        "Priya Raman",
        "priya.raman@example.org",
        "(555) 010-4417",
        "MBR-448213",
    ] {
        assert!(!long_out.contains(v), "{v} left in the 1 MB line");
    }
    assert!(long_out.len() > 1_000_000, "the long line is kept");
    let _ = mapping_originals(&mapping);
}

#[test]
fn thousands_of_masked_ids_and_phones_redact_in_bounded_time() {
    // Each masked id or phone has its own pattern; before the prefilter every line of
    // the leak check ran all of them (4,000 of them took over ten minutes).
    let home = tempfile::tempdir().expect("tempdir");
    let corpus = home.path().join("corpus");
    let mut text = String::from("Members:\n");
    for i in 0..2_000 {
        text.push_str(&format!(
            "member MBR-{} and phone (555) {:03}-{:04}\n",
            100_000 + i,
            100 + i % 900,
            i
        ));
    }
    write(&corpus, "ids.txt", &text);
    write(
        &corpus,
        "other.txt",
        "Ask member MBR 100042 or call 555.142.0042 today.",
    );
    let out = home.path().join("out");
    let started = Instant::now();
    let o = run(home.path(), &corpus, &out, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        started.elapsed() < Duration::from_secs(120),
        "took {:?}",
        started.elapsed()
    );
    let ids = std::fs::read_to_string(out.join("redacted/ids.txt")).expect("ids");
    assert!(!ids.contains("MBR") && !ids.contains("555"), "all masked");
    // Variants in another document are found through the prefilter too.
    let other = std::fs::read_to_string(out.join("redacted/other.txt")).expect("other");
    assert_eq!(
        other,
        "Ask member [PATIENT_ID] or call [PHONE_NUMBER] today."
    );
}
