//! The reference vectors of ../shared/testvectors: every number to 1e-9, every set and
//! order exactly (SPEC §3–4).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::path::{Path, PathBuf};

use clam::config::{ConfigSources, resolve};
use clam::snapshot::{Snapshot, plan_snapshot};
use serde_json::Value;

fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/testvectors")
}

fn compare(path: &str, expected: &Value, actual: &Value, diffs: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Number(e), Value::Number(a)) => {
            let (e, a) = (
                e.as_f64().unwrap_or(f64::NAN),
                a.as_f64().unwrap_or(f64::NAN),
            );
            let close = (e - a).abs() <= 1e-9;
            if !close {
                diffs.push(format!("{path}: expected {e}, got {a}"));
            }
        }
        (Value::Array(e), Value::Array(a)) => {
            if e.len() != a.len() {
                diffs.push(format!(
                    "{path}: expected {} items, got {}",
                    e.len(),
                    a.len()
                ));
            }
            for (i, (x, y)) in e.iter().zip(a).enumerate() {
                compare(&format!("{path}[{i}]"), x, y, diffs);
            }
        }
        (Value::Object(e), Value::Object(a)) => {
            for (k, x) in e {
                match a.get(k) {
                    Some(y) => compare(&format!("{path}.{k}"), x, y, diffs),
                    None => diffs.push(format!("{path}.{k}: missing")),
                }
            }
            for k in a.keys() {
                if !e.contains_key(k) {
                    diffs.push(format!("{path}.{k}: unexpected"));
                }
            }
        }
        (e, a) => {
            if e != a {
                diffs.push(format!("{path}: expected {e}, got {a}"));
            }
        }
    }
}

/// The vectors of `dir`, sorted by name.
fn vector_files(dir: &Path) -> Vec<PathBuf> {
    assert!(
        dir.is_dir(),
        "the reference vectors are missing: expected {} (check out ../shared beside the repository)",
        dir.display()
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("read testvectors")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    files
}

/// Plans every vector of `files` and compares it with its `expected`; a vector that
/// sets no `prune` key is the thesis's planner (`prune = false`) and has no `pruned`
/// list, so the one clam prints must be empty. Returns one line per failing vector.
fn check(files: &[PathBuf]) -> Vec<String> {
    let mut failures = Vec::new();
    for file in files {
        let name = file
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let text = std::fs::read_to_string(file).expect("read vector");
        let v: Value = serde_json::from_str(&text).expect("vector is JSON");
        let snapshot: Snapshot = serde_json::from_value(v["input"].clone()).expect("input parses");
        let mut layer = snapshot.config_layer().expect("vector config is valid");
        let thesis = layer.prune.is_none();
        if thesis {
            layer.prune = Some(false);
        }
        let config = resolve(&ConfigSources {
            snapshot: Some(layer),
            ..ConfigSources::default()
        })
        .expect("config resolves");
        let mut actual = plan_snapshot(&snapshot, &config).expect("plan");
        let mut diffs = Vec::new();
        // `clam plan` writes the same object without a JSON tree: the same bytes.
        let mut streamed = Vec::new();
        clam::snapshot::write_plan(&snapshot, &config, &mut streamed).expect("write plan");
        if streamed
            != clam::display::to_json_pretty(&actual)
                .expect("json")
                .into_bytes()
        {
            diffs.push("clam plan's streamed JSON differs from the expected object".into());
        }
        if thesis {
            match actual.as_object_mut().and_then(|o| o.remove("pruned")) {
                Some(Value::Array(p)) if p.is_empty() => {}
                other => diffs.push(format!("expected.pruned: expected none, got {other:?}")),
            }
        }
        compare("expected", &v["expected"], &actual, &mut diffs);
        if !diffs.is_empty() {
            failures.push(format!(
                "{name}: {} differences, first: {}",
                diffs.len(),
                diffs.iter().take(8).cloned().collect::<Vec<_>>().join("; ")
            ));
        }
    }
    failures
}

#[test]
fn every_reference_vector_is_reproduced() {
    let files = vector_files(&vectors_dir());
    assert!(
        files.len() >= 11,
        "expected the 11 reference vectors, found {}",
        files.len()
    );
    let failures = check(&files);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// `testvectors/prune/`: stage 3 (SPEC §4) with each file's own `prune` setting,
/// the `pruned` list included.
#[test]
fn every_pruning_vector_is_reproduced() {
    let files = vector_files(&vectors_dir().join("prune"));
    assert!(
        files.len() >= 6,
        "expected the 6 pruning vectors, found {}",
        files.len()
    );
    for file in &files {
        let v: Value =
            serde_json::from_str(&std::fs::read_to_string(file).expect("read")).expect("JSON");
        assert!(
            v["input"]["config"]["prune"].is_boolean() && v["expected"]["pruned"].is_array(),
            "{}: a pruning vector sets prune and lists pruned",
            file.display()
        );
    }
    let failures = check(&files);
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}

/// A vector that sets no prune key is planned with pruning off: with the product's
/// default (on) the same input releases masks, so the switch is what reproduces it.
#[test]
fn the_product_default_prunes_where_the_thesis_planner_does_not() {
    let file = vectors_dir().join("prune/prune_random_40_cl2.json");
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("read")).expect("JSON");
    let mut snapshot: Snapshot = serde_json::from_value(v["input"].clone()).expect("input");
    snapshot
        .config
        .as_object_mut()
        .expect("config object")
        .remove("prune");
    let plan_with = |prune: Option<bool>| {
        let mut layer = snapshot.config_layer().expect("layer");
        layer.prune = prune;
        let config = resolve(&ConfigSources {
            snapshot: Some(layer),
            ..ConfigSources::default()
        })
        .expect("config");
        plan_snapshot(&snapshot, &config).expect("plan")
    };
    let default = plan_with(None);
    assert_eq!(
        default["pruned"], v["expected"]["pruned"],
        "prune is on by default"
    );
    let off = plan_with(Some(false));
    assert_eq!(off["pruned"], serde_json::json!([]));
    assert!(
        off["masked"].as_array().map(Vec::len) > default["masked"].as_array().map(Vec::len),
        "pruning masks fewer entities"
    );
}
