//! End-to-end tests of `clam eval` on the sample corpus, the development set and the
//! thesis's tuning sets: the JSON shape and sanity of the figures (not the quality
//! targets; the figures are printed, run with `--nocapture` to see them).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::path::{Path, PathBuf};

use serde_json::Value;

mod common;

use common::Env;

impl Env {
    fn json(&self, args: &[&str]) -> Value {
        let mut all = args.to_vec();
        all.push("--json");
        let o = self.clam(&all);
        assert_eq!(
            o.status.code(),
            Some(0),
            "clam {args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        serde_json::from_slice(&o.stdout).expect("JSON on stdout")
    }
}

fn root(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn s(p: &Path) -> String {
    p.to_string_lossy().to_string()
}

fn shared_present(p: &Path) -> bool {
    if p.exists() {
        true
    } else {
        println!("{} not found; skipping", p.display());
        false
    }
}

/// `precision`, `recall`, `f1` in [0, 1]; counts are integers.
fn check_prf(v: &Value, what: &str) {
    for k in ["precision", "recall", "f1"] {
        let x = v[k]
            .as_f64()
            .unwrap_or_else(|| panic!("{what}.{k} missing: {v}"));
        assert!((0.0..=1.0).contains(&x), "{what}.{k} = {x}");
    }
    for k in ["tp", "fp", "fn"] {
        assert!(v[k].is_u64(), "{what}.{k} missing: {v}");
    }
}

fn count(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap_or_else(|| panic!("{k} missing: {v}"))
}

fn check_chains(chains: &Value, gold_pairs: u64, gold_chains: u64, what: &str) {
    check_prf(&chains["pairs"], &format!("{what}.pairs"));
    check_prf(&chains["exact"], &format!("{what}.exact"));
    assert_eq!(
        count(&chains["pairs"], "tp") + count(&chains["pairs"], "fn"),
        gold_pairs,
        "{what}: tp + fn = gold pairs"
    );
    assert_eq!(
        count(&chains["exact"], "tp") + count(&chains["exact"], "fn"),
        gold_chains,
        "{what}: tp + fn = gold chains"
    );
    if !chains["flagged_pairs"].is_null() {
        assert_eq!(
            count(&chains["pairs"], "tp") + count(&chains["pairs"], "fp"),
            count(&chains["flagged_pairs"], "total"),
            "{what}: tp + fp = flagged pairs"
        );
    }
}

fn check_mentions(m: &Value, gold_mentions: u64) {
    for mode in ["exact", "overlap"] {
        check_prf(&m["overall"][mode], &format!("mentions.overall.{mode}"));
    }
    assert_eq!(count(&m["overall"], "gold"), gold_mentions);
    let by_type = m["by_type"].as_object().expect("by_type");
    assert!(!by_type.is_empty());
    let mut gold_sum = 0;
    for (t, v) in by_type {
        check_prf(&v["exact"], &format!("mentions.by_type.{t}.exact"));
        check_prf(&v["overlap"], &format!("mentions.by_type.{t}.overlap"));
        // Overlap matching is never stricter than exact matching.
        assert!(v["overlap"]["recall"].as_f64() >= v["exact"]["recall"].as_f64());
        gold_sum += count(v, "gold");
    }
    assert_eq!(gold_sum, gold_mentions);
}

fn check_entities(e: &Value) {
    for k in ["recall", "recall_any_type"] {
        let x = e[k].as_f64().expect("entities recall");
        assert!((0.0..=1.0).contains(&x), "entities.{k} = {x}");
    }
    assert!(e["recall_any_type"].as_f64() >= e["recall"].as_f64());
    assert!(count(e, "gold") > 0);
}

fn print_summary(name: &str, r: &Value) {
    let prf = |v: &Value| {
        format!(
            "P {:.3} R {:.3} F1 {:.3}",
            v["precision"].as_f64().unwrap_or(f64::NAN),
            v["recall"].as_f64().unwrap_or(f64::NAN),
            v["f1"].as_f64().unwrap_or(f64::NAN)
        )
    };
    println!("== {name}");
    if !r["chains"].is_null() {
        println!("  chains.pairs  {}", prf(&r["chains"]["pairs"]));
        println!("  chains.exact  {}", prf(&r["chains"]["exact"]));
    }
    if !r["ceiling"].is_null() {
        println!("  ceiling.pairs {}", prf(&r["ceiling"]["chains"]["pairs"]));
    }
    if !r["mentions"].is_null() {
        println!(
            "  mentions exact {}; overlap {}",
            prf(&r["mentions"]["overall"]["exact"]),
            prf(&r["mentions"]["overall"]["overlap"])
        );
    }
    println!(
        "  entities.recall {:.3} (any type {:.3})",
        r["entities"]["recall"].as_f64().unwrap_or(f64::NAN),
        r["entities"]["recall_any_type"]
            .as_f64()
            .unwrap_or(f64::NAN)
    );
    if !r["redaction"].is_null() {
        println!(
            "  redaction.recall {:.3}, extra {}",
            r["redaction"]["recall"].as_f64().unwrap_or(f64::NAN),
            r["redaction"]["extra"]
        );
    }
}

#[test]
fn sample_corpus_with_its_gold() {
    let env = Env::new();
    let corpus = root("sample_corpus");
    let gold = corpus.join("gold").join("gold.json");
    let r = env.json(&["eval", &s(&corpus), "--gold", &s(&gold)]);
    print_summary("sample_corpus", &r);
    assert_eq!(r["gold"]["format"], "devset");
    assert_eq!(r["gold"]["clusters"], 5);
    assert_eq!(r["documents"], 25);
    let gold_pairs = count(&r["gold"], "gold_pairs");
    assert_eq!(gold_pairs, 40);
    check_chains(
        &r["chains"],
        gold_pairs,
        count(&r["gold"], "gold_chains"),
        "chains",
    );
    // The mentions.jsonl beside the gold is picked up, and with it the ceiling.
    check_mentions(&r["mentions"], count(&r["gold"], "mentions"));
    check_chains(&r["ceiling"]["chains"], gold_pairs, 40, "ceiling.chains");
    check_entities(&r["entities"]);
    assert!(
        r["redaction"].is_null(),
        "no redaction list in the devset format"
    );
    let e = &r["edges"];
    assert_eq!(
        count(e, "total"),
        count(e, "intra") + count(e, "inter") + count(e, "outside")
    );

    // The table names the sections.
    let o = env.clam(&["eval", &s(&corpus), "--gold", &s(&gold)]);
    assert_eq!(o.status.code(), Some(0));
    let table = String::from_utf8_lossy(&o.stdout);
    for section in [
        "CHAINS",
        "document pairs",
        "ceiling",
        "MENTIONS",
        "GOLD ENTITIES",
    ] {
        assert!(table.contains(section), "{section} missing from\n{table}");
    }
}

#[test]
fn devset_with_mentions() {
    let env = Env::new();
    let dev = root("../shared/devset");
    if !shared_present(&dev) {
        return;
    }
    let mentions = dev.join("mentions.jsonl");
    let r = env.json(&[
        "eval",
        &s(&dev.join("corpus")),
        "--gold",
        &s(&dev.join("gold.json")),
        "--mentions",
        &s(&mentions),
    ]);
    print_summary("devset", &r);
    assert_eq!(r["documents"], 46);
    assert_eq!(r["gold"]["gold_pairs"], 70);
    assert_eq!(r["gold"]["mentions"], 310);
    check_chains(&r["chains"], 70, 70, "chains");
    check_chains(&r["ceiling"]["chains"], 70, 70, "ceiling.chains");
    check_mentions(&r["mentions"], 310);
    check_entities(&r["entities"]);
    assert_eq!(r["entities"]["persons"]["gold"], 105);
    let json = serde_json::to_string(&r).expect("json");
    assert!(!json.contains("NaN"));

    // The extractor issue's targets on the devset, so a regression fails CI.
    let f = |v: &Value| v.as_f64().unwrap_or(f64::NAN);
    let pairs = &r["chains"]["pairs"];
    assert!(
        f(&pairs["recall"]) >= 0.75,
        "pair recall {}",
        pairs["recall"]
    );
    assert!(f(&pairs["f1"]) >= 0.75, "pair F1 {}", pairs["f1"]);
    let persons = f(&r["entities"]["persons"]["recall"]);
    assert!(persons >= 0.85, "person-entity recall {persons}");
    let overall = f(&r["mentions"]["overall"]["overlap"]["f1"]);
    assert!(overall >= 0.75, "mention overlap F1 {overall}");
    // The gold marks "45-year-old", clam "45": compared on the number, with a note
    // (exact AGE F1 was 0.000 before).
    let age = f(&r["mentions"]["by_type"]["AGE"]["exact"]["f1"]);
    assert!(age >= 0.8, "AGE exact F1 {age}");
    assert!(
        r["notes"].as_array().is_some_and(|n| n.iter().any(|x| x
            .as_str()
            .is_some_and(|x| x.contains("compared on their number")))),
        "{}",
        r["notes"]
    );
    let by_type = r["mentions"]["by_type"].as_object().expect("by_type");
    for (t, m) in by_type {
        // The devset's only demographic value ("Deaf") was found by a hand-written
        // gazetteer line equal to it; such lines were removed (no labelled value in a
        // vocabulary: `scripts/audit_vocab.py --check`), so DEMOGRAPHIC may score 0.
        if t == "DEMOGRAPHIC" {
            continue;
        }
        assert!(f(&m["overlap"]["f1"]) > 0.0, "{t}: mention overlap F1 is 0");
    }
}

/// `privacy` and `utility` as `clam eval --json` writes them; returns the leak rate.
fn check_privacy_utility(r: &Value, clusters: usize, rated: u64, what: &str) -> f64 {
    let p = &r["privacy"];
    let leak = p["leak_rate"]
        .as_f64()
        .unwrap_or_else(|| panic!("{what}: privacy.leak_rate missing: {p}"));
    assert!((0.0..=1.0).contains(&leak), "{what}: leak rate {leak}");
    assert_eq!(count(p, "rated_clusters"), rated, "{what}");
    assert!(count(p, "leaked_clusters") <= rated);
    let by = p["by_cluster"].as_array().expect("privacy.by_cluster");
    assert_eq!(by.len(), clusters, "{what}");
    let mut flagged = 0;
    for c in by {
        let rate = c["leak_rate"].as_f64().expect("cluster leak_rate");
        let leaked = c["leaked"].as_bool().expect("cluster leaked");
        match c["risk"].as_str() {
            Some("HIGH") => assert_eq!(leaked, rate > 0.6, "{c}"),
            Some("MEDIUM") => assert_eq!(leaked, rate > 0.8, "{c}"),
            _ => assert!(!leaked, "{c}"),
        }
        flagged += u64::from(leaked);
        for e in c["leaked_entities"].as_array().expect("leaked_entities") {
            assert!(e["value"].is_string() && e["type"].is_string(), "{e}");
        }
        assert_eq!(
            c["leaked_entities"].as_array().map(Vec::len) == Some(0),
            rate == 0.0,
            "{c}"
        );
    }
    assert_eq!(flagged, count(p, "leaked_clusters"), "{what}");
    let u = r["utility"].as_object().expect("utility");
    assert_eq!(u.len(), 4, "{what}: {u:?}");
    for k in [
        "specific/single",
        "specific/multi",
        "general/single",
        "general/multi",
    ] {
        let x = u[k]
            .as_f64()
            .unwrap_or_else(|| panic!("{what}: utility.{k}"));
        assert!(x > 0.0 && x <= 1.0, "{what}: utility.{k} = {x}");
    }
    leak
}

/// The baselines in order of masking: leak rates fall, masked counts rise.
fn check_baselines(r: &Value, pipeline_leak: f64, what: &str) {
    let b = r["baselines"].as_array().expect("baselines");
    let names: Vec<&str> = b.iter().filter_map(|x| x["name"].as_str()).collect();
    assert_eq!(
        names,
        ["verbatim", "document_stage", "pipeline", "mask_all"],
        "{what}"
    );
    let leak: Vec<f64> = b
        .iter()
        .map(|x| x["leak_rate"].as_f64().expect("baseline leak_rate"))
        .collect();
    let masked: Vec<u64> = b.iter().map(|x| count(x, "masked")).collect();
    println!("  baselines leak {leak:?}, masked {masked:?}");
    assert!(leak.windows(2).all(|w| w[0] >= w[1]), "{what}: {leak:?}");
    assert!(
        masked.windows(2).all(|w| w[0] <= w[1]),
        "{what}: {masked:?}"
    );
    assert_eq!(masked[0], 0);
    // Every gold value is written verbatim in the documents (any variant).
    assert!(leak[0] >= 0.95, "{what}: verbatim leak {}", leak[0]);
    assert!(
        leak[2] < leak[0],
        "{what}: the plan leaks as much as no masking"
    );
    assert_eq!(leak[2], pipeline_leak, "{what}: pipeline row = report");
    for x in b {
        assert_eq!(x["utility"].as_object().map(|u| u.len()), Some(4), "{x}");
    }
}

#[test]
fn devset_privacy_utility_and_baselines() {
    let env = Env::new();
    let dev = root("../shared/devset");
    if !shared_present(&dev) {
        return;
    }
    let corpus = s(&dev.join("corpus"));
    let gold = s(&dev.join("gold.json"));
    let r = env.json(&["eval", &corpus, "--gold", &gold, "--baselines"]);
    let leak = check_privacy_utility(&r, 10, 8, "devset");
    println!(
        "== devset privacy: leak rate {leak:.3}; utility {}",
        r["utility"]
    );
    check_baselines(&r, leak, "devset");
    assert_eq!(r["utility_questions"]["skipped"], 0);
    assert_eq!(
        r["utility_questions"]["by_question"]
            .as_array()
            .map(Vec::len),
        Some(40)
    );
    assert_eq!(r["settings"]["redaction"], "value");
    // The redaction mode is the export's: generalizing changes the text, not the leak.
    let g = env.json(&["eval", &corpus, "--gold", &gold, "--mode", "generalize"]);
    assert_eq!(g["settings"]["redaction"], "generalize");
    assert_eq!(g["privacy"]["leak_rate"], r["privacy"]["leak_rate"]);
    // The tables.
    let o = env.clam(&["eval", &corpus, "--gold", &gold, "--baselines"]);
    assert_eq!(o.status.code(), Some(0));
    let table = String::from_utf8_lossy(&o.stdout);
    for section in [
        "PRIVACY",
        "overall leak rate",
        "UTILITY",
        "specific/multi",
        "BASELINES",
        "no masking (verbatim)",
        "document stage only",
        "mask everything extracted",
    ] {
        assert!(table.contains(section), "{section} missing from\n{table}");
    }
}

#[test]
fn thesis_tuning_sets() {
    let env = Env::new();
    // Regression floors (docs/extraction.md "Extraction quality" explains why the entity-filter
    // set stays below the issue's 0.75: its gold names absent documents and its own
    // `entities` annotation links fewer pairs than the gold lists).
    for (set, min_f1) in [
        ("5_tuning_chain_risk", 0.75),
        // 0.385 since an id a document writes as a person's is a PATIENT_ID everywhere:
        // one more pair of documents sharing such an id is flagged, a pair the gold
        // does not list (docs/spec-refinements.md).
        ("5_tuning_entity_filter", 0.38),
    ] {
        let dir = root("../shared/thesis-data").join(set);
        if !shared_present(&dir) {
            return;
        }
        let r = env.json(&["eval", &s(&dir.join("documents")), "--gold", &s(&dir)]);
        print_summary(set, &r);
        assert_eq!(r["gold"]["format"], "thesis");
        assert_eq!(r["gold"]["clusters"], 5);
        let gold_pairs = count(&r["gold"], "gold_pairs");
        let gold_chains = count(&r["gold"], "gold_chains");
        assert!(gold_pairs > 0 && gold_chains >= gold_pairs / 3);
        check_chains(&r["chains"], gold_pairs, gold_chains, set);
        check_entities(&r["entities"]);
        assert!(r["entities"]["relevant"]["gold"].as_u64() > Some(0));
        let red = &r["redaction"];
        let recall = red["recall"].as_f64().expect("redaction.recall");
        assert!((0.0..=1.0).contains(&recall));
        assert!(count(red, "extra") <= count(red, "masked"));
        assert_eq!(
            count(red, "matched") + red["missed"].as_array().map_or(0, |m| m.len() as u64),
            count(red, "gold")
        );
        assert!(r["mentions"].is_null());
        check_privacy_utility(&r, 5, 4, set);
        let f1 = r["chains"]["pairs"]["f1"].as_f64().expect("pair f1");
        assert!(f1 >= min_f1, "{set}: pair F1 {f1} < {min_f1}");
        // The ceiling: the same pipeline on the gold `entities` annotation.
        assert_eq!(r["ceiling"]["source"], "gold entities");
        check_chains(&r["ceiling"]["chains"], gold_pairs, gold_chains, set);
        // The gold.json itself works as GOLD too.
        let again = env.json(&[
            "eval",
            &s(&dir.join("documents")),
            "--gold",
            &s(&dir.join("gold.json")),
        ]);
        assert_eq!(again["chains"], r["chains"]);
    }
}

#[test]
fn thesis_train_set_without_gold_json() {
    let env = Env::new();
    let dir = root("../shared/thesis-data/10_train");
    if !shared_present(&dir) {
        return;
    }
    let r = env.json(&["eval", &s(&dir.join("documents")), "--gold", &s(&dir)]);
    print_summary("10_train", &r);
    assert!(r["chains"].is_null());
    assert!(r["redaction"].is_null());
    assert_eq!(r["gold"]["clusters"], 10);
    check_entities(&r["entities"]);
    let notes = r["notes"].to_string();
    assert!(notes.contains("no gold.json"), "{notes}");
    // Persons and questions come from files/: privacy and utility are there, chain
    // metrics are reported as unavailable, not as zero.
    let leak = check_privacy_utility(&r, 10, 8, "10_train");
    let b = env.json(&[
        "eval",
        &s(&dir.join("documents")),
        "--gold",
        &s(&dir),
        "--baselines",
    ]);
    check_baselines(&b, leak, "10_train");
    let o = env.clam(&["eval", &s(&dir.join("documents")), "--gold", &s(&dir)]);
    let table = String::from_utf8_lossy(&o.stdout);
    assert!(table.contains("chain metrics absent"), "{table}");
    assert!(!table.contains("document pairs"), "{table}");
}

#[test]
fn bad_gold_is_an_error_naming_the_file_and_key() {
    let env = Env::new();
    let dir = tempfile::tempdir().expect("tempdir");
    let gold = dir.path().join("gold.json");
    std::fs::write(
        &gold,
        r#"{"clusters": [{"cluster_id": "c1", "docs": "a"}]}"#,
    )
    .expect("write");
    let corpus = s(&root("sample_corpus"));
    let o = env.clam(&["eval", &corpus, "--gold", &s(&gold)]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("gold.json") && err.contains("`clusters[0].docs`"),
        "{err}"
    );
    let missing = dir.path().join("none.jsonl");
    std::fs::write(&gold, r#"{"links": [["a", "b"]]}"#).expect("write");
    let o = env.clam(&[
        "eval",
        &corpus,
        "--gold",
        &s(&gold),
        "--mentions",
        &s(&missing),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("none.jsonl"));
}

#[test]
fn skipped_documents_give_exit_code_4() {
    let env = Env::new();
    let dir = tempfile::tempdir().expect("tempdir");
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).expect("mkdir");
    std::fs::write(
        corpus.join("a.json"),
        r#"{"id": "a", "content": "Member MBR-448213 has lupus nephritis."}"#,
    )
    .expect("write");
    std::fs::write(
        corpus.join("b.json"),
        r#"{"id": "b", "content": "MBR-448213 called about lupus nephritis."}"#,
    )
    .expect("write");
    std::fs::write(corpus.join("bad.json"), "not json").expect("write");
    let gold = dir.path().join("gold.json");
    std::fs::write(
        &gold,
        r#"{"links": [["a", "b"]], "redaction": ["MBR-448213"]}"#,
    )
    .expect("write");
    let o = env.clam(&["eval", &s(&corpus), "--gold", &s(&gold), "--json"]);
    assert_eq!(
        o.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    let r: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(r["skipped_documents"], 1);
    check_chains(&r["chains"], 1, 1, "chains");
    assert_eq!(r["redaction"]["recall"], 1.0);
}
