//! Tests of gold files in both formats.
use super::*;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write");
    p
}

#[test]
fn devset_gold_with_mentions_beside_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let g = write(
        dir.path(),
        "gold.json",
        r#"{"clusters": [{"cluster_id": "c1", "docs": ["a", "b", "c"],
            "person": {"entities": [["Ann Lee", "NAME", ["Lee, Ann"]], ["x1", "PROCESS_ID"]]},
            "gold_chains": [{"docs": ["b", "a"], "via": []}, {"docs": ["a", "c"]}],
            "risk": "high",
            "questions": [{"q": "Who?", "a": "Ann Lee.", "sources": ["a"], "type": "Specific"},
                          {"a": "A fall.", "sources": ["a", "b"], "type": "general"}]}]}"#,
    );
    write(
        dir.path(),
        "mentions.jsonl",
        "{\"doc\": \"a\", \"start\": 0, \"end\": 7, \"text\": \"Ann Lee\", \"type\": \"NAME\", \"person\": true}\n\n",
    );
    let gold = load(&g, None).expect("gold");
    assert_eq!(gold.format, GoldFormat::Devset);
    assert_eq!(
        gold.chains,
        Some(vec![
            vec!["a".to_string(), "b".to_string()],
            vec!["a".to_string(), "c".to_string()]
        ])
    );
    assert_eq!(gold.clusters[0].persons[1].entity_type, "NON_PERSONAL_ID");
    assert_eq!(gold.clusters[0].persons[0].forms().count(), 2);
    let c = &gold.clusters[0];
    assert_eq!(c.risk, Some(RiskCategory::High));
    assert_eq!(c.questions.len(), 2);
    assert_eq!(c.questions[0].kind, "specific");
    assert_eq!(c.questions[0].answer, "Ann Lee.");
    assert_eq!(c.questions[1].sources, vec!["a", "b"]);
    assert_eq!(c.questions[1].question, "");
    let m = gold.mentions.expect("mentions");
    assert_eq!((m[0].start, m[0].end, m[0].line), (0, 7, 1));
    // The folder works as well as the file.
    assert!(load(dir.path(), None).expect("gold").mentions.is_some());
}

#[test]
fn bad_files_name_the_file_and_key() {
    let dir = tempfile::tempdir().expect("tempdir");
    let g = write(
        dir.path(),
        "gold.json",
        r#"{"clusters": [{"cluster_id": "c1", "docs": ["a", 3]}]}"#,
    );
    let e = load(&g, None).expect_err("bad").to_string();
    assert!(
        e.contains("gold.json") && e.contains("`clusters[0].docs[1]`"),
        "{e}"
    );
    write(dir.path(), "gold.json", r#"{"links": [["a"]]}"#);
    let e = load(&g, None).expect_err("bad").to_string();
    assert!(e.contains("`links[0]`") && e.contains("2 different"), "{e}");
    write(dir.path(), "gold.json", r#"{"other": 1}"#);
    let e = load(&g, None).expect_err("bad").to_string();
    assert!(e.contains("neither"), "{e}");
    write(
        dir.path(),
        "gold.json",
        r#"{"clusters": [{"cluster_id": "c1", "docs": ["a"], "risk": "SEVERE"}]}"#,
    );
    let e = load(&g, None).expect_err("bad").to_string();
    assert!(
        e.contains("`clusters[0].risk`") && e.contains("SEVERE"),
        "{e}"
    );
    write(
        dir.path(),
        "gold.json",
        r#"{"clusters": [{"cluster_id": "c1", "docs": ["a"], "questions": [{"q": "x", "sources": ["a"], "type": "general"}]}]}"#,
    );
    let e = load(&g, None).expect_err("bad").to_string();
    assert!(e.contains("`clusters[0].questions[0].a`: missing"), "{e}");
    write(dir.path(), "gold.json", "{");
    let e = load(&g, None).expect_err("bad").to_string();
    assert!(e.contains("not valid JSON"), "{e}");
    write(dir.path(), "gold.json", r#"{"links": []}"#);
    let m = write(
        dir.path(),
        "m.jsonl",
        "{\"doc\": \"a\", \"start\": 0, \"end\": 3, \"type\": \"AGE\"}\n{\"doc\": \"a\", \"start\": 5, \"end\": 3, \"type\": \"AGE\"}\n",
    );
    let e = load(&g, Some(&m)).expect_err("bad").to_string();
    assert!(e.contains("m.jsonl:2") && e.contains("`end`"), "{e}");
    let e = load(&dir.path().join("missing"), None)
        .expect_err("bad")
        .to_string();
    assert!(e.contains("no such file"), "{e}");
}

#[test]
fn thesis_gold_with_cluster_files_or_without_gold() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::create_dir(dir.path().join("files")).expect("mkdir");
    write(
        &dir.path().join("files"),
        "cluster_00.json",
        r#"{"documents": [{"id": "c0_d1", "content": "x"}, {"id": "c0_d2", "content": "y"}],
            "metadata": {"cluster_id": "c0", "person": {"entities": [["Rex Marin", "NAME"]]},
            "cluster_risk": "MEDIUM",
            "questions": [{"q": "When?", "a": "In May.", "sources": ["c0_d2"], "type": "general"}]}}"#,
    );
    let no_gold = load(dir.path(), None).expect("gold");
    assert_eq!(no_gold.format, GoldFormat::Thesis);
    assert!(no_gold.chains.is_none());
    assert_eq!(no_gold.clusters[0].docs, vec!["c0_d1", "c0_d2"]);
    assert_eq!(no_gold.clusters[0].risk, Some(RiskCategory::Medium));
    assert_eq!(no_gold.clusters[0].questions[0].sources, vec!["c0_d2"]);
    assert!(no_gold.notes.iter().any(|n| n.contains("no gold.json")));
    write(
        dir.path(),
        "gold.json",
        r#"{"entities": {"c0_d1": ["Rex Marin"]}, "links": [["c0_d2", "c0_d1", "c0_d1"]], "redaction": ["Rex Marin"]}"#,
    );
    let gold = load(dir.path(), None).expect("gold");
    assert_eq!(
        gold.chains,
        Some(vec![vec!["c0_d1".to_string(), "c0_d2".to_string()]])
    );
    assert_eq!(gold.redaction, Some(vec!["Rex Marin".to_string()]));
    assert_eq!(gold.clusters.len(), 1);
    assert!(gold.mentions.is_none());
}
fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|x| x.to_string()).collect()
}

#[test]
fn gold_chains_load_from_both_formats_with_clams_notes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let thesis = write(
        dir.path(),
        "gold_chains.json",
        r#"{"links": [["b", "a"], ["c", "a", "b"], ["a", "b"]],
            "notes": [{"documents": ["a", "b"], "note": "same MRN"}]}"#,
    );
    let f = load_chains(&thesis).expect("thesis");
    assert_eq!(f.format, GoldFormat::Thesis);
    assert_eq!(
        f.chains,
        vec![
            (ids(&["a", "b"]), Some("same MRN".to_string())),
            (ids(&["a", "b", "c"]), None)
        ],
        "sorted, repeated chains once, the note matched by its documents"
    );
    // A thesis gold.json: its other keys are read but not needed.
    let real = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/thesis-data/5_tuning_chain_risk/gold.json");
    if real.is_file() {
        let f = load_chains(&real).expect("thesis gold.json");
        assert!(f.chains.len() >= 10, "{}", f.chains.len());
        assert!(
            f.chains
                .iter()
                .all(|(c, n)| (2..=3).contains(&c.len()) && n.is_none())
        );
    }
    let devset = write(
        dir.path(),
        "gold.json",
        r#"{"clusters": [{"cluster_id": "c1", "docs": ["a", "b"],
            "gold_chains": [{"docs": ["b", "a"], "via": ["x"]}]},
            {"cluster_id": "c2", "docs": ["c", "d"], "gold_chains": [["d", "c"]]}]}"#,
    );
    let f = load_chains(&devset).expect("devset");
    assert_eq!(f.format, GoldFormat::Devset);
    assert_eq!(
        f.chains,
        vec![(ids(&["a", "b"]), None), (ids(&["c", "d"]), None)]
    );
    let bad = write(dir.path(), "x.json", r#"{"entities": {}}"#);
    let e = load_chains(&bad).expect_err("no chains").to_string();
    assert!(e.contains("x.json") && e.contains("links"), "{e}");
    let bad = write(dir.path(), "y.json", r#"{"links": [["a"]]}"#);
    let e = load_chains(&bad).expect_err("one document").to_string();
    assert!(e.contains("links[0]"), "{e}");
}

#[test]
fn written_chains_read_back_with_their_notes() {
    let dir = tempfile::tempdir().expect("tempdir");
    let chains = vec![
        (ids(&["d2", "d1"]), Some("note".to_string())),
        (ids(&["d1", "d3", "d4"]), None),
    ];
    let v = chains_json(&chains);
    assert_eq!(
        v["links"],
        serde_json::json!([["d2", "d1"], ["d1", "d3", "d4"]])
    );
    let p = write(dir.path(), "g.json", &v.to_string());
    let back = load_chains(&p).expect("read back");
    assert_eq!(
        back.chains[0],
        (ids(&["d1", "d2"]), Some("note".to_string()))
    );
    assert_eq!(back.chains[1], (ids(&["d1", "d3", "d4"]), None));
    let plain = chains_json(&[(ids(&["a", "b"]), None)]);
    assert!(plain.get("notes").is_none(), "no notes, no key: {plain}");
}
