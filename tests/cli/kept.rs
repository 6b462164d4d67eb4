//! Kept entities and why they are kept, in `clam analyze` and report.md as in the
//! manifest (SPEC §4 step 4).

use super::*;

#[test]
fn kept_entities_are_listed_with_why_in_analyze_and_the_report() {
    let env = Env::new();
    let session = env.path("review.sqlite");
    let session = session.to_str().expect("utf8");
    let o = env.clam(&["analyze", &sample(), "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    let first_mask = v["masks"][0]["id"].as_str().expect("a mask").to_string();

    // An auditor keeps one proposed mask.
    let o = env.clam(&[
        "decide",
        &sample(),
        "override",
        &first_mask,
        "--reason",
        "already public",
        "--session",
        session,
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));

    let o = env.clam(&["analyze", &sample(), "--json", "--session", session]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    let kept = v["kept"].as_array().expect("kept");
    let masks = v["masks"].as_array().expect("masks");
    assert!(!kept.is_empty());
    let mask_ids: std::collections::BTreeSet<&str> =
        masks.iter().filter_map(|m| m["id"].as_str()).collect();
    for k in kept {
        assert!(!mask_ids.contains(k["id"].as_str().expect("id")), "{k}");
        assert!(
            k["provenance"]
                .as_str()
                .is_some_and(|p| p.starts_with("kept")),
            "{k}"
        );
    }
    let why = |id: &str| {
        kept.iter().find(|k| k["id"] == id).map(|k| {
            k["kept_because"]
                .as_str()
                .expect("kept_because")
                .to_string()
        })
    };
    assert_eq!(why(&first_mask).as_deref(), Some("forced_keep"));
    assert_eq!(
        kept.iter()
            .find(|k| k["id"] == first_mask.as_str())
            .map(|k| k["provenance"].clone()),
        Some(Value::from("kept: forced keep by an auditor decision"))
    );
    // Pruning's releases are kept entities too, and say so.
    for r in v["released_by_pruning"].as_array().expect("released") {
        assert_eq!(
            why(r["id"].as_str().expect("id")).as_deref(),
            Some("released_by_pruning")
        );
    }
    assert!(
        kept.iter().any(|k| k["kept_because"] == "not_needed"),
        "most are kept because no target needed them"
    );
    // The table lists the riskiest kept entities with their reason.
    let o = env.clam(&["analyze", &sample(), "--session", session]);
    let text = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        text.contains(&format!("\nKEPT (25 of {},", kept.len())),
        "{text}"
    );
    assert!(
        text.contains("kept: forced keep by an auditor decision"),
        "{text}"
    );

    // report.md: a "Kept entities" table with the provenance column.
    let out = env.path("out");
    let o = run_to(&env, sample(), &out, &["--session", session]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    let section = report
        .split("\n## Kept entities\n")
        .nth(1)
        .expect("a Kept entities section")
        .split("\n## ")
        .next()
        .expect("section");
    assert!(
        section.contains(&format!(
            "{} entities kept (1 by auditor decision,",
            kept.len()
        )),
        "{section}"
    );
    let rows: Vec<&str> = section
        .lines()
        .filter(|l| l.starts_with("| ") && !l.starts_with("| export id"))
        .collect();
    assert_eq!(rows.len(), kept.len().min(25), "{section}");
    assert!(rows.iter().all(|r| r.contains("| kept")), "{section}");
    // Every kept entity's reason is in the manifest too, with the same key.
    let manifest: Value = crate::common::manifest(&out);
    let forced = manifest["entities"]
        .as_array()
        .expect("entities")
        .iter()
        .filter(|e| e["kept_because"] == "forced_keep")
        .count();
    assert_eq!(forced, 1);
}
