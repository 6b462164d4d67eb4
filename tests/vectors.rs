//! The reference vectors of ../shared/testvectors: every number to 1e-9, every set and
//! order exactly (SPEC §3–4).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::path::PathBuf;

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

#[test]
fn every_reference_vector_is_reproduced() {
    let dir = vectors_dir();
    assert!(
        dir.is_dir(),
        "the reference vectors are missing: expected {} (check out ../shared beside the repository)",
        dir.display()
    );
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read testvectors")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 11,
        "expected the 11 reference vectors, found {}",
        files.len()
    );
    let mut failures = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).expect("read vector");
        let v: Value = serde_json::from_str(&text).expect("vector is JSON");
        let snapshot: Snapshot = serde_json::from_value(v["input"].clone()).expect("input parses");
        let config = resolve(&ConfigSources {
            snapshot: Some(snapshot.config_layer().expect("vector config is valid")),
            ..ConfigSources::default()
        })
        .expect("config resolves");
        let actual = plan_snapshot(&snapshot, &config).expect("plan");
        let mut diffs = Vec::new();
        compare("expected", &v["expected"], &actual, &mut diffs);
        if !diffs.is_empty() {
            let name = file
                .file_name()
                .map(|n| n.to_string_lossy().to_string())
                .unwrap_or_default();
            failures.push(format!(
                "{name}: {} differences, first: {}",
                diffs.len(),
                diffs.iter().take(8).cloned().collect::<Vec<_>>().join("; ")
            ));
        }
    }
    assert!(failures.is_empty(), "\n{}", failures.join("\n"));
}
