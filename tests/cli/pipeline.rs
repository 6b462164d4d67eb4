//! The pipeline on sample_corpus: run, analyze --json, extract then plan.

use super::*;

#[test]
fn run_on_sample_corpus_exports_a_verified_redacted_corpus() {
    let env = Env::new();
    let out = env.path("export");
    let mapping = env.path("mapping.json");
    let o = run_to(
        &env,
        sample(),
        &out,
        &["--with-mapping", mapping.to_str().expect("utf8")],
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stderr(&o).contains("leak check passed"), "{}", stderr(&o));
    for f in ["manifest.json", "decisions.jsonl", "report.md"] {
        assert!(out.join(f).is_file(), "{f} missing");
    }
    let inputs: Vec<_> = std::fs::read_dir(sample())
        .expect("sample")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .collect();
    let redacted: Vec<_> = std::fs::read_dir(out.join("redacted"))
        .expect("redacted dir")
        .collect();
    assert_eq!(inputs.len(), redacted.len());

    let manifest: Value = crate::common::manifest(&out);
    let masked = manifest["summary"]["masked"]
        .as_u64()
        .expect("masked count");
    assert!(masked > 0);
    let chains = manifest["chains"].as_array().expect("chains");
    // The chains table is dense: each row an array of the columns manifest.json names.
    assert_eq!(
        manifest["tables"]["chains"]["columns"],
        serde_json::json!([
            "documents",
            "via",
            "risk_initial",
            "category_initial",
            "risk_pre",
            "category_pre",
            "risk_final",
            "category_final",
            "target",
            "residual"
        ])
    );
    let raw = crate::common::export_text(&out.join("tables/chains.jsonl.gz"));
    let first: Value =
        serde_json::from_str(raw.lines().next().expect("a chain row")).expect("json");
    assert_eq!(first.as_array().map(Vec::len), Some(10), "{first}");
    assert!(first[0].is_array() && first[3].is_string(), "{first}");
    let cat = |c: &Value, k: &str| c[k].as_str().unwrap_or_default().to_string();
    assert!(
        chains.iter().any(|c| cat(c, "category_initial") == "HIGH"),
        "no HIGH chain"
    );
    assert!(
        chains
            .iter()
            .any(|c| cat(c, "category_initial") == "MEDIUM" || cat(c, "category_pre") == "MEDIUM"),
        "no MEDIUM chain"
    );

    // Independent naive scan: no original value of a masked entity, lowercased, appears
    // in the redacted documents as a substring that is not part of a longer word (short
    // values such as "sle" or "42" legitimately occur inside "newsletter" or "4420").
    let map: Value =
        serde_json::from_str(&std::fs::read_to_string(&mapping).expect("mapping")).expect("json");
    let originals: Vec<String> = map["masked"]
        .as_array()
        .expect("rows")
        .iter()
        .flat_map(|r| r["originals"].as_array().cloned().unwrap_or_default())
        .filter_map(|v| v.as_str().map(str::to_lowercase))
        .collect();
    assert!(!originals.is_empty());
    for (path, text) in read_all_files(&out.join("redacted")) {
        let lower = text.to_lowercase();
        for o in &originals {
            assert!(
                !contains_word(&lower, o),
                "{} still contains a masked value",
                path.display()
            );
        }
    }
    // The manifest, report and audit log reference entities by export id only: no
    // masked value of more than three characters occurs in them (short numbers could
    // coincide with digits of a risk figure).
    for f in ["manifest.json", "report.md", "decisions.jsonl"] {
        let lower = crate::common::own_file_text(&out, f).to_lowercase();
        for o in originals.iter().filter(|o| o.chars().count() > 3) {
            assert!(!lower.contains(o.as_str()), "{f} contains a masked value");
        }
    }

    // A second run into the same folder is refused without --force, accepted with it.
    let again = run_to(&env, sample(), &out, &[]);
    assert_eq!(again.status.code(), Some(1));
    assert!(stderr(&again).contains("--force"), "{}", stderr(&again));
    let forced = run_to(&env, sample(), &out, &["--force", "--mode", "pseudonym"]);
    assert_eq!(forced.status.code(), Some(0), "{}", stderr(&forced));
    let text: String = read_all_files(&out.join("redacted"))
        .into_iter()
        .map(|(_, t)| t)
        .collect();
    assert!(text.contains("[NAME_"), "pseudonyms in the redacted text");
}

#[test]
fn analyze_json_reports_documents_edges_chains_and_masks() {
    let env = Env::new();
    let o = env.clam(&["analyze", &sample(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    for key in ["documents", "edges", "chains", "masks"] {
        assert!(
            v[key].as_array().is_some_and(|a| !a.is_empty()),
            "{key} empty"
        );
    }
    let mask = &v["masks"][0];
    assert!(
        mask["provenance"]
            .as_str()
            .is_some_and(|p| p.starts_with("masked"))
    );
    let human = env.clam(&["analyze", &sample()]);
    assert_eq!(human.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&human.stdout).contains("PROPOSED MASKS"));
}

#[test]
fn extract_then_plan_reproduces_the_vector_shape() {
    let env = Env::new();
    let snap = env.path("snap.json");
    let o = env.clam(&["extract", &sample(), "--out", snap.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let s: Value =
        serde_json::from_str(&std::fs::read_to_string(&snap).expect("read")).expect("json");
    let e = &s["documents"][0]["entities"][0];
    for k in [
        "value",
        "type",
        "relevance",
        "mentions",
        "originals",
        "spans",
    ] {
        assert!(!e[k].is_null(), "snapshot entity lacks {k}");
    }
    let p1 = env.clam(&["plan", snap.to_str().expect("utf8")]);
    assert_eq!(p1.status.code(), Some(0), "{}", stderr(&p1));
    let p2 = env.clam(&["plan", snap.to_str().expect("utf8")]);
    assert_eq!(p1.stdout, p2.stdout, "plan output is deterministic");
    let v: Value = serde_json::from_slice(&p1.stdout).expect("json");
    for k in [
        "entities",
        "doc_risk_initial",
        "edges_all",
        "edges_kept",
        "chains",
        "masked_after_document_stage",
        "masked",
        "mask_log",
        "doc_risk_final",
    ] {
        assert!(!v[k].is_null(), "plan output lacks {k}");
    }
    // A reference vector through the binary.
    let vector =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/testvectors/small_forced.json");
    let full: Value =
        serde_json::from_str(&std::fs::read_to_string(&vector).expect("vector")).expect("json");
    let input = env.path("input.json");
    std::fs::write(&input, full["input"].to_string()).expect("write");
    let o = env.clam(&["plan", input.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["masked"], full["expected"]["masked"]);
    assert_eq!(v["edges_kept"], full["expected"]["edges_kept"]);
}

#[test]
fn analyze_and_plan_output_is_safe_to_print_on_a_terminal() {
    // Document ids with a bidi override, a C1 control and an escape sequence:
    // JSON output writes them as \u escapes (the same value once parsed), and the
    // human-readable output shows them as visible escapes.
    let env = Env::new();
    let dir = env.path("corpus");
    std::fs::create_dir(&dir).expect("mkdir");
    let id = "claim\u{202e}fdp.exe\u{9b}31m\u{1b}[2J";
    let doc = |id: &str| {
        serde_json::json!({"id": id, "content": "Patient: Hannah Brooks, Member ID: MBR-390115, phone 312-555-0142."})
            .to_string()
    };
    let lines = format!("{}\n{}\n", doc(id), doc("plain"));
    write(&dir, "docs.jsonl", lines.as_bytes());
    let corpus = dir.to_str().expect("utf8");
    let snapshot = env.path("snapshot.json");
    let snapshot = snapshot.to_str().expect("utf8");
    let o = env.clam(&["extract", corpus, "--out", snapshot]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let written = std::fs::read_to_string(snapshot).expect("snapshot");
    assert!(
        !written.contains('\u{202e}') && written.contains("\\u202e"),
        "the snapshot file escapes them too"
    );
    for args in [
        vec!["analyze", corpus, "--json"],
        vec!["plan", snapshot],
        vec!["analyze", corpus],
    ] {
        let o = env.clam(&args);
        assert_eq!(o.status.code(), Some(0), "{args:?}: {}", stderr(&o));
        let text = String::from_utf8(o.stdout.clone()).expect("utf8");
        let unsafe_chars: Vec<char> = text
            .chars()
            .filter(|&c| clam::display::is_unsafe_char(c) && c != '\n')
            .collect();
        assert!(unsafe_chars.is_empty(), "{args:?}: {unsafe_chars:?}");
        if args.contains(&"--json") {
            let v: Value = serde_json::from_str(&text).expect("json");
            assert!(
                v.to_string().contains("claim\\u202e") || text.contains("\\u202e"),
                "{text}"
            );
            let ids: Vec<&str> = v["documents"]
                .as_array()
                .expect("documents")
                .iter()
                .filter_map(|d| d["id"].as_str())
                .collect();
            assert!(ids.contains(&id), "the id reads back as it is: {ids:?}");
        }
    }
}
