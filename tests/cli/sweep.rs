//! Sweeps and what-if settings: sweep output formats, adopted settings in the
//! session.

use super::*;

/// Runs `clam sweep` on sample_corpus over `param` from `from` to `to` by `step`, then
/// `extra`.
fn sweep(env: &Env, param: &str, [from, to, step]: [&str; 3], extra: &[&str]) -> Output {
    let sample = sample();
    let mut args = vec![
        "sweep", &sample, "--param", param, "--from", from, "--to", to, "--step", step,
    ];
    args.extend_from_slice(extra);
    env.clam(&args)
}

#[test]
fn sweep_prints_one_row_per_value_as_json_csv_and_a_table() {
    let env = Env::new();
    let run = |extra: &[&str]| sweep(&env, "theta_chain", ["0", "1", "0.25"], extra);
    let o = run(&["--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: Vec<Value> = serde_json::from_slice(&o.stdout).expect("json");
    let values: Vec<f64> = rows.iter().filter_map(|r| r["value"].as_f64()).collect();
    assert_eq!(values, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    for r in &rows {
        let keys: Vec<&str> = r
            .as_object()
            .expect("row")
            .keys()
            .map(String::as_str)
            .collect();
        assert_eq!(
            keys.len(),
            7,
            "value, masked, max/mean chain risk, high/medium/low: {keys:?}"
        );
        assert!(r["mean_chain_risk"].as_f64() <= r["max_chain_risk"].as_f64());
    }
    // At theta_chain 0 every target chain is brought to 0, and pruning leaves every
    // other chain LOW; without pruning the masks bring every chain to 0.
    assert_eq!(
        (rows[0]["high"].as_u64(), rows[0]["medium"].as_u64()),
        (Some(0), Some(0))
    );
    let o = run(&["--json", "--no-prune"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let thesis: Vec<Value> = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(thesis[0]["max_chain_risk"].as_f64(), Some(0.0));
    for (with, without) in rows.iter().zip(&thesis) {
        assert!(with["masked"].as_u64() <= without["masked"].as_u64());
    }
    // The row at the default 0.5 is the plan `analyze` reports.
    let a = env.clam(&["analyze", &sample(), "--json"]);
    let analysed: Value = serde_json::from_slice(&a.stdout).expect("json");
    let masks = analysed["masks"].as_array().map(Vec::len);
    assert_eq!(rows[2]["masked"].as_u64().map(|n| n as usize), masks);

    let o = run(&["--csv", "--gold", &format!("{}/gold/gold.json", sample())]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let csv = String::from_utf8_lossy(&o.stdout).to_string();
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "value,masked,max_chain_risk,mean_chain_risk,high,medium,low,f1,leak_rate"
    );
    assert_eq!(lines.len(), 6);
    let third: Vec<&str> = lines[3].split(',').collect();
    assert_eq!(third[0], "0.5");
    assert_eq!(third[1], rows[2]["masked"].to_string());
    let f1: f64 = third[7].parse().expect("f1");
    assert!(
        (f1 - 0.964).abs() < 0.001,
        "sample corpus chain pairs F1: {f1}"
    );
    // The leak rate at the value in effect is the one `clam eval` reports, and
    // masking less (theta_chain 1) never leaks less than masking more (0).
    let leak: Vec<f64> = lines[1..]
        .iter()
        .map(|l| {
            l.rsplit(',')
                .next()
                .expect("leak")
                .parse()
                .expect("leak rate")
        })
        .collect();
    let e = env.clam(&[
        "eval",
        &sample(),
        "--gold",
        &format!("{}/gold/gold.json", sample()),
        "--json",
    ]);
    let evaluated: Value = serde_json::from_slice(&e.stdout).expect("json");
    let expected = evaluated["privacy"]["leak_rate"]
        .as_f64()
        .expect("leak rate");
    assert!((leak[2] - expected).abs() < 1e-12, "{leak:?} vs {expected}");
    assert!(leak[0] <= leak[4], "{leak:?}");

    let table = run(&[]);
    let text = String::from_utf8_lossy(&table.stdout).to_string();
    assert!(
        text.contains("THETA_CHAIN") && text.contains("MAX RISK"),
        "{text}"
    );

    let o = sweep(&env, "theta_chain", ["0", "1", "0.0001"], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("at most 1000"), "{}", stderr(&o));
    let o = sweep(&env, "theta", ["0", "1", "1"], &[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("unknown parameter"), "{}", stderr(&o));
}

#[test]
fn adopted_what_if_settings_in_the_session_apply_to_analyze_and_sweep() {
    use clam::session::{AuditAction, Session};
    let env = Env::new();
    let o = sweep(&env, "theta_chain", ["0.3", "0.5", "0.2"], &["--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let rows: Vec<Value> = serde_json::from_slice(&o.stdout).expect("json");
    let (at_03, at_05) = (rows[0]["masked"].as_u64(), rows[1]["masked"].as_u64());
    assert_ne!(
        at_03, at_05,
        "theta_chain 0.3 changes the plan of sample_corpus"
    );
    let session = env.path("review.sqlite");
    Session::open(&session)
        .expect("session")
        .append(&decision(
            "analyst",
            AuditAction::Settings {
                old: [("theta_chain".to_string(), "0.5".to_string())].into(),
                new: [("theta_chain".to_string(), "0.3".to_string())].into(),
            },
            None,
        ))
        .expect("append");
    let session = session.to_str().expect("utf8");
    let a = env.clam(&["analyze", &sample(), "--json", "--session", session]);
    assert_eq!(a.status.code(), Some(0), "{}", stderr(&a));
    let v: Value = serde_json::from_slice(&a.stdout).expect("json");
    assert_eq!(
        v["masks"].as_array().map(|m| m.len() as u64),
        at_03,
        "analyze plans with the adopted theta_chain"
    );
    // A sweep starts from the adopted settings too: its row at 0.5 is unchanged.
    let o = sweep(
        &env,
        "theta_chain",
        ["0.5", "0.5", "0.1"],
        &["--json", "--session", session],
    );
    let rows: Vec<Value> = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(rows[0]["masked"].as_u64(), at_05);
}
