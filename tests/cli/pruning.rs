//! Pruning (SPEC §4 stage 3) as a user sees it: the masks it released, kept and
//! explained in `clam analyze`, the export's manifest and report, and `clam plan`'s
//! `pruned` list; `--no-prune` is the thesis's planner.

use super::*;

fn analyze_json(env: &Env, extra: &[&str]) -> Value {
    let sample = sample();
    let mut args = vec!["analyze", sample.as_str(), "--json"];
    args.extend_from_slice(extra);
    let o = env.clam(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    serde_json::from_slice(&o.stdout).expect("json")
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .expect("a list")
        .iter()
        .filter_map(|m| m["id"].as_str().map(String::from))
        .collect()
}

#[test]
fn analyze_lists_the_released_masks_as_kept_with_why() {
    let env = Env::new();
    let pruned = analyze_json(&env, &[]);
    let thesis = analyze_json(&env, &["--no-prune"]);
    let (masks, released) = (ids(&pruned["masks"]), ids(&pruned["released_by_pruning"]));
    assert!(!released.is_empty(), "the default plan releases masks");
    assert!(
        released.iter().all(|id| !masks.contains(id)),
        "kept, not masked"
    );
    assert_eq!(
        masks.len() + released.len(),
        ids(&thesis["masks"]).len(),
        "--no-prune keeps every one of them"
    );
    assert!(ids(&thesis["released_by_pruning"]).is_empty());
    for m in pruned["released_by_pruning"].as_array().expect("list") {
        let why = m["provenance"].as_str().expect("provenance");
        assert!(
            why.starts_with("kept: masked by the document stage for document ")
                || why.starts_with("kept: masked by the chain stage for chain "),
            "{why}"
        );
        assert!(
            why.contains("released by pruning: every bound holds without it"),
            "{why}"
        );
    }
    let text = env.clam(&["analyze", &sample()]);
    let text = String::from_utf8_lossy(&text.stdout).to_string();
    assert!(
        text.contains(&format!(
            "{} masks proposed ({} released by pruning)",
            masks.len(),
            released.len()
        )),
        "{text}"
    );
    assert!(text.contains("\nRELEASED BY PRUNING (kept)\n"), "{text}");
}

#[test]
fn the_export_counts_released_masks_as_kept_and_says_why() {
    let env = Env::new();
    let out = env.path("export");
    let o = run_to(&env, sample(), &out, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let manifest: Value = crate::common::manifest(&out);
    let entities = manifest["entities"].as_array().expect("entities");
    let released: Vec<&Value> = entities
        .iter()
        .filter(|e| e["released_by_pruning"] == Value::Bool(true))
        .collect();
    assert!(!released.is_empty());
    assert_eq!(
        manifest["summary"]["released_by_pruning"].as_u64(),
        Some(released.len() as u64)
    );
    let masked = entities.iter().filter(|e| e["decision"] == "mask").count();
    assert_eq!(manifest["summary"]["masked"].as_u64(), Some(masked as u64));
    for e in &released {
        assert_eq!(e["decision"], "keep");
        assert!(e["stage"].is_null());
        let why = e["provenance"].as_str().expect("provenance");
        assert!(why.contains("released by pruning"), "{why}");
    }
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(report.contains("· pruning on ·"), "{report}");
    assert!(
        report.contains(&format!(
            "| masks released by pruning (kept) | {} |",
            released.len()
        )),
        "{report}"
    );
    assert!(report.contains("\n## Released by pruning\n"), "{report}");
    assert!(
        report.contains(&format!(
            "{} entities kept (0 by auditor decision, {} released by pruning)",
            entities.len() - masked,
            released.len()
        )),
        "{report}"
    );
    // The thesis's planner: nothing released, the section absent.
    let out = env.path("thesis");
    let o = run_to(&env, sample(), &out, &["--no-prune"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(report.contains("· pruning off ·"), "{report}");
    assert!(report.contains("| masks released by pruning (kept) | 0 |"));
    assert!(!report.contains("## Released by pruning"));
}

#[test]
fn plan_prints_the_pruned_list_and_no_prune_overrides_the_snapshot() {
    let env = Env::new();
    let file = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../shared/testvectors/prune/prune_random_40_cl2.json");
    let vector: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("vector")).expect("json");
    let snapshot = env.path("snapshot.json");
    std::fs::write(&snapshot, vector["input"].to_string()).expect("write");
    let plan = |extra: &[&str]| -> Value {
        let mut args = vec!["plan", snapshot.to_str().expect("utf8")];
        args.extend_from_slice(extra);
        let o = env.clam(&args);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        serde_json::from_slice(&o.stdout).expect("json")
    };
    let pruned = plan(&[]);
    assert_eq!(pruned["pruned"], vector["expected"]["pruned"]);
    assert_eq!(pruned["masked"], vector["expected"]["masked"]);
    // The flag wins over the snapshot's own `prune = true`.
    let thesis = plan(&["--no-prune"]);
    assert_eq!(thesis["pruned"], Value::Array(vec![]));
    let n = |v: &Value| v["masked"].as_array().map_or(0, Vec::len);
    assert_eq!(
        n(&thesis),
        n(&pruned) + pruned["pruned"].as_array().map_or(0, Vec::len)
    );
}
