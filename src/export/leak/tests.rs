use super::json::is_rfc3339;
use super::*;
use crate::redact::test_masked as masked;

fn check() -> LeakCheck {
    LeakCheck::new(
        &[
            masked(
                "n",
                "NAME",
                "edith marlowe",
                &["Edith Marlowe", "Ms. Marlowe"],
            ),
            masked("p", "PHONE_NUMBER", "+13125550177", &["+1 312-555-0177"]),
            masked("i", "PATIENT_ID", "ZK40311", &["ZK-40311"]),
            masked("d", "BIRTHDATE", "1968-03-14", &["03/14/1968"]),
            masked(
                "a",
                "ADDRESS",
                "1200 lakeshore parkway",
                &["1200 Lakeshore Parkway"],
            ),
            masked("g", "AGE", "34", &["34"]),
        ],
        b"key",
    )
}

fn found(text: &str) -> Vec<&'static str> {
    let names = ["n", "p", "i", "d", "a", "g"];
    let mut v: Vec<&str> = check()
        .find(text, false)
        .into_iter()
        .map(|(_, e)| names[e])
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

#[test]
fn names_are_found_however_they_are_written() {
    for text in [
        "Edith\nMarlowe",
        "edith  marlowe",
        "Edith\u{a0}Marlowe",
        "Edith Mar-\nlowe",
        "Edith Mar\u{200b}lowe",
        "ＥＤＩＴＨ MARLOWE",
        "Edith M\u{430}rlowe",
        "\u{c9}dith Marlowe",
        "MARLOWE, EDITH",
        "edith_marlowe.txt",
        "MARLOWE-EDITH.txt",
        "EdithMarlowe.txt",
        "\u{1b}[31mEdith\u{1b}[0m Marlowe",
    ] {
        assert_eq!(found(text), vec!["n"], "{text:?}");
    }
    assert!(found("Edith Marlowes and Edithe Marlowe").is_empty());
}

#[test]
fn a_name_run_together_is_found_even_when_a_word_of_it_is_a_street_suffix() {
    // "Cove" and "Brooks" are USPS suffixes too ("cv", "brks"): run together, the
    // name is one token that is no suffix.
    for (name, texts) in [
        ("Cove Babab", ["CoveBabab.txt", "BababCove", "COVE BABAB"]),
        (
            "Hannah Brooks",
            ["HannahBrooks", "BrooksHannah.json", "Brooks, Hannah"],
        ),
    ] {
        let check = LeakCheck::new(
            &[masked("n", "NAME", &name.to_lowercase(), &[name])],
            b"key",
        );
        for text in texts {
            assert_eq!(check.find(text, false).len(), 1, "{name}: {text:?}");
        }
    }
}

#[test]
fn phones_ids_and_addresses_are_found_with_any_separators() {
    for text in [
        "312–555–0177",
        "312/555/0177",
        "312.555.0177",
        "312_555_0177",
        "３１２-５５５-０１７７",
        "(312) 555 0177",
        "+1 312 555 0177",
    ] {
        assert_eq!(found(text), vec!["p"], "{text:?}");
    }
    for text in [
        "zk_40311",
        "ZK.40311",
        "zk/40311",
        "ＺＫ４０３１１",
        "zk 403 11",
    ] {
        assert_eq!(found(text), vec!["i"], "{text:?}");
    }
    assert_eq!(found("1200 Lakeshore Pkwy."), vec!["a"]);
    assert!(found("3125550178 zk403110 5312555017").is_empty());
}

#[test]
fn dates_are_found_in_every_common_form_and_ages_not_in_decimals() {
    for text in [
        "1968-03-14",
        "14/03/1968",
        "3/14/68",
        "14.03.1968",
        "19680314",
        "14 March 1968",
        "March 14th, 1968",
        "the 14th of Mar 1968",
    ] {
        assert_eq!(found(text), vec!["d"], "{text:?}");
    }
    assert!(found("ratio 0.34 and 1,034").is_empty());
    assert_eq!(found("aged 34."), vec!["g"]);
}

/// Each hit as (file, line, type).
fn file_line_type(hits: &[LeakHit]) -> Vec<(String, usize, String)> {
    hits.iter()
        .map(|h| (h.file.clone(), h.line, h.entity_type.clone()))
        .collect()
}

#[test]
fn json_strings_are_decoded_and_own_figures_are_not_text() {
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("redacted")).expect("dir");
    std::fs::write(
        root.join("redacted/a.json"),
        r#"{"id": "a", "metadata": {"Edith\nMarlowe": 1, "tel": 3125550177}, "content": "x \u0415dith Marlowe"}"#,
    )
    .expect("write");
    std::fs::write(
        root.join("manifest.json"),
        "{\"seq\": 34, \"time\": \"2026-11-24T05:34:00Z\", \"note\": \"ok\"}\n",
    )
    .expect("write");
    std::fs::write(root.join("report.md"), "| doc | 34 |\n").expect("write");
    std::fs::write(root.join("zk-40311.txt"), "nothing").expect("write");
    let (hits, files) = check().scan_tree(root).expect("scan");
    assert_eq!(files, 4);
    let got = file_line_type(&hits);
    assert_eq!(
        got,
        vec![
            ("redacted/a.json".into(), 1, "NAME".into()),
            ("redacted/a.json".into(), 1, "PHONE_NUMBER".into()),
            ("redacted/a.json".into(), 1, "NAME".into()),
            ("zk-40311.txt".into(), 0, "PATIENT_ID".into()),
        ],
        "{hits:?}"
    );
}

/// The manifest's tables are gzip: the check reads what they decompress to (a name in
/// a compressed row is a leak), and their bare numbers are clam's own figures.
#[test]
fn a_compressed_table_is_read_decompressed() {
    use std::io::Write;
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::create_dir_all(root.join("tables")).expect("dir");
    let gz = |rows: &str| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(rows.as_bytes()).expect("gzip");
        e.finish().expect("gzip")
    };
    // Two gzip members, as the export writes them: the second is read too.
    let mut bytes = gz("{\"risk\": 34, \"documents\": [\"a\"]}\n");
    bytes.extend(gz("{\"provenance\": \"masked for Edith Marlowe\"}\n"));
    std::fs::write(root.join("tables/entities.jsonl.gz"), bytes).expect("write");
    let (hits, files) = check().scan_tree(root).expect("scan");
    assert_eq!(files, 1);
    let got = file_line_type(&hits);
    assert_eq!(
        got,
        vec![("tables/entities.jsonl.gz".into(), 2, "NAME".into())],
        "{hits:?}"
    );
}

#[test]
fn a_large_text_file_is_read_in_blocks_without_losing_or_repeating_a_hit() {
    let dir = tempfile::tempdir().expect("tempdir");
    let filler = format!("{}\n", "x".repeat(99));
    let block_lines = TEXT_BLOCK.div_ceil(100);
    let mut text = String::new();
    for i in 1..=block_lines + 10 {
        text.push_str(match i {
            // A whole name inside the overlap of the first two blocks.
            _ if i == block_lines - 2 => "Edith Marlowe\n",
            // A name wrapped across the seam.
            _ if i == block_lines => "Edith\n",
            _ if i == block_lines + 1 => "Marlowe\n",
            _ => &filler,
        });
    }
    std::fs::write(dir.path().join("big.txt"), text).expect("write");
    let (hits, _) = check().scan_tree(dir.path()).expect("scan");
    let lines: Vec<usize> = hits.iter().map(|h| h.line).collect();
    assert_eq!(lines, vec![block_lines - 2, block_lines], "{hits:?}");
}

/// A compressed JSON Lines table larger than one block of strings, in which clean
/// strings repeat (remembered once searched) and a masked value comes back in a later
/// block: every occurrence of the value is a hit, on its own line.
#[test]
fn repeated_strings_of_a_large_table_are_searched_and_every_leak_is_reported() {
    use std::io::Write;
    let dir = tempfile::tempdir().expect("tempdir");
    let tables = dir.path().join("tables");
    std::fs::create_dir_all(&tables).expect("dir");
    let rows = 200_000;
    let leaks = [3, 150_000, 199_999];
    let mut text = String::new();
    for i in 0..rows {
        let name = if leaks.contains(&i) {
            "Edith Marlowe"
        } else {
            "doc-7"
        };
        text.push_str(&format!(
            "{{\"documents\":[\"{name}\",\"row{}\"],\"category\":\"HIGH\"}}\n",
            i % 97
        ));
    }
    assert!(text.len() > 8 << 20, "more than one block of strings");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(text.as_bytes()).expect("gzip");
    std::fs::write(tables.join("t.jsonl.gz"), gz.finish().expect("gzip")).expect("write");
    let (hits, _) = check().scan_tree(dir.path()).expect("scan");
    let lines: Vec<usize> = hits.iter().map(|h| h.line).collect();
    assert_eq!(lines, leaks.map(|i| i + 1));
    assert!(hits.iter().all(|h| h.file == "tables/t.jsonl.gz"));
}

/// Carried over from the line-based check this module replaced: the audit log's clock
/// and clam's bare numbers are its own figures; the same digits in text are not.
#[test]
fn the_audit_log_clock_and_bare_numbers_are_figures_and_text_is_not() {
    assert!(is_rfc3339("2026-11-24T05:32:00.123Z"));
    assert!(is_rfc3339("2026-11-24T05:32:00+01:00"));
    for not_a_time in [
        "2026-11-24",
        "2026-11-24T05:32Z",
        "2026-11-24T05:32:00Zx",
        "x2026-11-24T05:32:00Z",
    ] {
        assert!(!is_rfc3339(not_a_time), "{not_a_time}");
    }
    let dir = tempfile::tempdir().expect("tempdir");
    let root = dir.path();
    std::fs::write(
        root.join("decisions.jsonl"),
        "{\"seq\": 34, \"time\": \"2026-11-24T05:34:00Z\", \"risk\": 0.34, \"n\": -2e5}\n\
         {\"reason\": \"aged 34\", \"note\": \"say \\\"34\\\" twice\"}\n",
    )
    .expect("write");
    std::fs::write(
        root.join("report.md"),
        "| claim_34 | 34 | x34 | 2024-03-14 |\n",
    )
    .expect("write");
    let (hits, _) = check().scan_tree(root).expect("scan");
    let got: Vec<(String, usize, usize)> = hits
        .iter()
        .map(|h| (h.file.clone(), h.line, h.column))
        .collect();
    // The reason and the quoted note on line 2 (located at their opening quotes);
    // "claim_34" in the report (at its "34").
    assert_eq!(
        got,
        vec![
            ("decisions.jsonl".into(), 2, 12),
            ("decisions.jsonl".into(), 2, 31),
            ("report.md".into(), 1, 9),
        ],
        "{hits:?}"
    );
}

/// A CSV row puts a phone or an id right after another number and a comma
/// ("1943,+1 312-555-0177"): the comma parts two values, it is no thousands separator,
/// so the value after it is found; "1,075" stays one number.
#[test]
fn a_value_after_a_comma_and_a_number_is_found() {
    for text in [
        "03/21/1943,+1 312-555-0177",
        "1959-07-19,13125550177",
        "1959-07-19,312-555-0177",
        "M-1,ZK-40311,pending",
    ] {
        assert!(!found(text).is_empty(), "{text:?}");
    }
    assert_eq!(found("34"), vec!["g"]);
    assert!(found("paid 1,034 and 0.34").is_empty());
}
