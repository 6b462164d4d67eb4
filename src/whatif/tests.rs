//! A tiny hand-made model with known answers: d0 and d1 share the NAME `a` (u = 0.5,
//! c = 0.5, R(d) = 0.5), so their edge has strength 0.5 and the chain d0–d1 risk
//! 0.5 · (1 + 0.5) / 2 = 0.375; d2 holds the EMAIL `b` alone (masked by policy).

use super::*;
use crate::schema::Schema;
use std::collections::BTreeMap;

fn config(risk_medium: f64) -> Config {
    let mut c = Config::default();
    c.redact.always_mask = vec!["EMAIL".into()];
    c.analysis.edge_threshold = 0.4;
    c.plan.risk_medium = risk_medium;
    c
}

/// The model under test, analysed and planned with `config` and `state`; its
/// `basis()` is what the what-if functions take.
fn fixture(config: Config, state: SessionState) -> OwnedBasis {
    let model = Model::from_lists(
        &[
            vec![("a", "NAME", 1.0)],
            vec![("a", "NAME", 1.0)],
            vec![("b", "EMAIL", 1.0)],
        ],
        &Schema::default(),
    );
    let analysis = Analysis::new(&model, &config.analysis_params());
    let plan = plan(
        &model,
        &analysis,
        &config.plan_params(),
        &constraints(&config, &state),
    )
    .expect("plan");
    OwnedBasis {
        model: model.into(),
        analysis: analysis.into(),
        plan,
        config,
        state,
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[test]
fn the_fixture_has_the_chain_it_is_built_for() {
    let f = fixture(config(0.5), SessionState::default());
    assert_eq!(f.analysis.chains.len(), 1);
    let s = PlanSummary::of(&f.plan);
    assert_eq!(s.masked, 1, "only the e-mail, by policy");
    assert!(close(s.max_chain_risk, 0.375), "{}", s.max_chain_risk);
    assert_eq!((s.high, s.medium, s.low), (0, 0, 1));
}

#[test]
fn lowering_risk_medium_masks_the_shared_name_and_the_diff_lists_it() {
    let f = fixture(config(0.5), SessionState::default());
    let basis = f.basis();
    let cand_config = Param::RiskMedium.set(&f.config, "0.3").expect("valid");
    let cand = plan_candidate(&basis, &cand_config).expect("plan");
    assert!(
        cand.analysis.is_none(),
        "a planner threshold reuses the analysis"
    );
    let d = diff(&basis, &cand);
    let a = f.model.entity_index("a").expect("a");
    assert_eq!(d.newly_masked, vec![a]);
    assert!(d.newly_unmasked.is_empty());
    assert_eq!((d.reviewed.masked, d.candidate.masked), (1, 2));
    assert!(close(d.reviewed.max_chain_risk, 0.375));
    assert!(close(d.candidate.max_chain_risk, 0.0));
    assert!(close(d.candidate.mean_chain_risk, 0.0));
    assert_eq!(d.candidate.residual_chains, 0);
    // And back: from the stricter reviewed plan, 0.5 unmasks it.
    let strict = fixture(cand_config, SessionState::default());
    let back = plan_candidate(&strict.basis(), &config(0.5)).expect("plan");
    let d = diff(&strict.basis(), &back);
    assert_eq!(d.newly_unmasked, vec![a]);
    assert!(d.newly_masked.is_empty());
}

#[test]
fn an_edge_threshold_change_analyses_again() {
    let f = fixture(config(0.3), SessionState::default());
    let c = Param::EdgeThreshold.set(&f.config, "0.6").expect("valid");
    let cand = plan_candidate(&f.basis(), &c).expect("plan");
    let an = cand.analysis.as_ref().expect("a new analysis");
    assert!(an.chains.is_empty(), "the 0.5 edge is pruned at 0.6");
    let d = diff(&f.basis(), &cand);
    assert_eq!(d.newly_unmasked.len(), 1);
    assert_eq!(d.candidate.chains, 0);
}

#[test]
fn a_sweep_of_risk_medium_has_the_known_rows() {
    let f = fixture(config(0.5), SessionState::default());
    let rows = sweep(
        &f.basis(),
        Param::RiskMedium,
        (0.3, 0.4, 0.05),
        None,
        None,
        &|| false,
    )
    .expect("sweep");
    let values: Vec<f64> = rows.iter().map(|r| r.value).collect();
    assert_eq!(values, vec![0.3, 0.35, 0.4]);
    let masked: Vec<usize> = rows.iter().map(|r| r.masked).collect();
    assert_eq!(masked, vec![2, 2, 1]);
    assert!(close(rows[0].max_chain_risk, 0.0));
    assert!(close(rows[2].max_chain_risk, 0.375));
    assert!(close(rows[2].mean_chain_risk, 0.375));
    assert_eq!((rows[2].high, rows[2].medium, rows[2].low), (0, 0, 1));
    assert!(rows.iter().all(|r| r.f1.is_none()));
}

#[test]
fn a_sweep_of_edge_threshold_with_gold_reports_chain_f1() {
    let f = fixture(config(0.3), SessionState::default());
    let gold = vec![vec!["d0".to_string(), "d1".to_string()]];
    let rows = sweep(
        &f.basis(),
        Param::EdgeThreshold,
        (0.4, 0.6, 0.2),
        Some(gold.as_slice()),
        None,
        &|| false,
    )
    .expect("sweep");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].f1, Some(1.0));
    assert_eq!(rows[1].f1, Some(0.0));
    assert_eq!((rows[0].masked, rows[1].masked), (2, 1));
}

#[test]
fn pinned_and_overridden_states_hold_at_every_setting() {
    let mut keep = SessionState::default();
    keep.forced.insert("a".into(), (false, 1));
    keep.pinned.insert("a".into());
    let f = fixture(config(0.5), keep);
    let a = f.model.entity_index("a").expect("a");
    for p in [
        Param::RiskMedium,
        Param::ThetaChain,
        Param::EdgeThreshold,
        Param::RhoMedium,
    ] {
        let (lo, hi) = p.range(&f.config).expect("numeric");
        let step = (hi - lo) / 10.0;
        for v in sweep_values(p, &f.config, lo, hi, step).expect("values") {
            let c = p.set_number(&f.config, v).expect("valid");
            let cand = plan_candidate(&f.basis(), &c).expect("plan");
            assert!(!cand.plan.masked[a], "{p} = {v}: pinned keep masked");
        }
    }
    let mut mask = SessionState::default();
    mask.forced.insert("a".into(), (true, 1));
    let f = fixture(config(0.5), mask);
    let rows = sweep(
        &f.basis(),
        Param::ThetaDoc,
        (0.0, 1.0, 0.25),
        None,
        None,
        &|| false,
    )
    .expect("sweep");
    assert!(rows.iter().all(|r| r.masked >= 2), "overridden mask kept");
}

#[test]
fn values_are_validated_like_a_configuration_file() {
    let c = Config::default();
    let e = Param::ThetaDoc.set(&c, "1.5").expect_err("out of range");
    assert_eq!(
        e.to_string(),
        "what-if: key `theta_doc`: 1.5 is outside [0, 1]"
    );
    let e = Param::RiskMedium
        .set(&c, "0.8")
        .expect_err("above risk_high");
    assert!(e.to_string().contains("risk_medium"), "{e}");
    let e = Param::ChainLength.set(&c, "7").expect_err("too long");
    assert!(e.to_string().contains("chain_length"), "{e}");
    let e = Param::Strategy
        .set(&c, "fastest")
        .expect_err("unknown word");
    assert_eq!(
        e.to_string(),
        "strategy: \"fastest\" is not one of greedy, knapsack"
    );
    assert_eq!(
        Param::Strategy
            .set(&c, "greedy")
            .expect("word")
            .plan
            .strategy,
        crate::plan::Strategy::Greedy
    );
    assert!(Param::parse("theta-chain").is_ok());
    let e = Param::parse("theta").expect_err("unknown");
    assert!(
        e.to_string().contains("edge_threshold, chain_length"),
        "{e}"
    );
}

#[test]
fn steps_stay_inside_the_valid_range_and_choices_cycle() {
    let c = Config::default();
    let up = Param::ThetaChain.step(&c, true, false).expect("step");
    assert_eq!(Param::ThetaChain.value(&up), "0.51");
    let down = Param::ThetaChain.step(&c, false, true).expect("step");
    assert_eq!(Param::ThetaChain.value(&down), "0.4");
    let top = Param::RiskMedium.set(&c, "0.75").expect("valid");
    let same = Param::RiskMedium.step(&top, true, true).expect("clamped");
    assert_eq!(
        Param::RiskMedium.value(&same),
        "0.75",
        "not above risk_high"
    );
    let k = Param::ChainLength.step(&c, false, false).expect("step");
    assert_eq!(k.analysis.chain_length, 2, "2 is the shortest chain");
    let r = Param::Redaction.step(&c, true, false).expect("cycle");
    assert_eq!(Param::Redaction.value(&r), "pseudonym");
}

#[test]
fn sweeps_refuse_bad_ranges_with_a_clear_message() {
    let c = Config::default();
    let e = sweep_values(Param::ThetaChain, &c, 0.0, 1.0, 0.0001).expect_err("too many");
    assert!(e.to_string().contains("at most 1000"), "{e}");
    let e = sweep_values(Param::ThetaChain, &c, 0.6, 0.2, 0.1).expect_err("reversed");
    assert!(e.to_string().contains("above to"), "{e}");
    let e = sweep_values(Param::ThetaChain, &c, 0.0, 1.0, 0.0).expect_err("zero step");
    assert!(e.to_string().contains("step"), "{e}");
    let e = sweep_values(Param::Strategy, &c, 0.0, 1.0, 0.5).expect_err("not numeric");
    assert!(e.to_string().contains("not a numeric parameter"), "{e}");
    let e = sweep_values(Param::RiskMedium, &c, 0.5, 0.9, 0.1).expect_err("above risk_high");
    assert!(e.to_string().starts_with("sweep of risk_medium"), "{e}");
    let e = sweep_values(Param::ChainLength, &c, 2.0, 3.0, 0.5).expect_err("whole");
    assert!(e.to_string().contains("whole number"), "{e}");
    assert_eq!(
        sweep_values(Param::ChainLength, &c, 2.0, 5.0, 1.0).expect("ok"),
        vec![2.0, 3.0, 4.0, 5.0]
    );
}

#[test]
fn adopted_settings_apply_in_one_go_and_bad_ones_are_reported() {
    let c = Config::default();
    // Lowering both risk thresholds passes through risk_medium > risk_high if
    // checked key by key; checked as a whole, it is valid.
    let adopted = |pairs: &[(&str, &str)]| {
        let map: BTreeMap<String, String> = pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut s = crate::config::params::AdoptedSettings::default();
        s.adopt_all(&map);
        s
    };
    let settings = adopted(&[("risk_high", "0.4"), ("risk_medium", "0.3")]);
    assert_eq!(
        settings.get("risk_high"),
        Some(&crate::config::params::Setting::Typed(
            Param::RiskHigh,
            crate::config::params::Value::Number(0.4)
        )),
        "read through the parameter table when adopted"
    );
    let (out, warnings) = apply_settings(&c, &settings);
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!((out.plan.risk_high, out.plan.risk_medium), (0.4, 0.3));
    // The pruning switch is adopted like any parameter (a session's `settings`
    // decision stores it as text).
    let off = adopted(&[("prune", "false")]);
    assert_eq!(
        off.get("prune"),
        Some(&crate::config::params::Setting::Typed(
            Param::Prune,
            crate::config::params::Value::Switch(false)
        ))
    );
    assert_eq!(off.text("prune").as_deref(), Some("false"));
    let (out, warnings) = apply_settings(&c, &off);
    assert!(warnings.is_empty() && !out.plan.prune, "{warnings:?}");
    let (out, warnings) = apply_settings(&c, &adopted(&[("theta_doc", "2")]));
    assert_eq!(out, c);
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("theta_doc"), "{warnings:?}");
    // A key the table no longer has and a word that is not a choice are kept as
    // written and reported; the other settings still apply.
    let mixed = adopted(&[
        ("no_such_key", "1"),
        ("strategy", "sideways"),
        ("theta_chain", "0.3"),
    ]);
    assert_eq!(mixed.text("strategy").as_deref(), Some("sideways"));
    let (out, warnings) = apply_settings(&c, &mixed);
    assert_eq!(out.plan.theta_chain, 0.3);
    assert_eq!(warnings.len(), 2, "{warnings:?}");
    assert!(
        warnings[0].contains("no_such_key = 1") && warnings[1].contains("strategy = sideways"),
        "{warnings:?}"
    );
    let changed = changes(&c, &Param::ThetaChain.set(&c, "0.3").expect("valid"));
    assert_eq!(
        changed,
        vec![(Param::ThetaChain, "0.5".to_string(), "0.3".to_string())]
    );
}

mod properties {
    use super::*;
    use proptest::prelude::*;

    const TYPES: &[&str] = &["NAME", "PATIENT_ID", "MEDICAL_CONDITION", "PROVIDER", "AGE"];
    /// The parameters that are numbers (every one but the word choices).
    fn numeric() -> Vec<Param> {
        Param::ALL
            .into_iter()
            .filter(|p| !matches!(p.kind(), Kind::Choice(_) | Kind::Switch))
            .collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

        /// Forced states hold at every setting, and the diff agrees with the plans.
        #[test]
        fn forced_states_hold_and_the_diff_adds_up(
            docs in prop::collection::vec(
                prop::collection::vec((0u8..8, 0..TYPES.len(), 0.0f64..=1.0), 0..5),
                1..7,
            ),
            forced in prop::collection::vec((0u8..8, any::<bool>()), 0..3),
            param in 0..numeric().len(),
            at in 0.0f64..=1.0,
        ) {
            let lists: Vec<Vec<(String, &str, f64)>> = docs
                .iter()
                .map(|d| d.iter().map(|(n, t, r)| (format!("e{n}"), TYPES[*t], *r)).collect())
                .collect();
            let model = Model::from_lists(&lists, &Schema::default());
            let mut config = Config::default();
            config.redact.always_mask = vec![];
            config.analysis.edge_threshold = 0.2;
            let mut state = SessionState::default();
            for (n, mask) in &forced {
                state.forced.insert(format!("e{n}"), (*mask, 1));
            }
            let analysis = Analysis::new(&model, &config.analysis_params());
            let reviewed = plan(&model, &analysis, &config.plan_params(), &constraints(&config, &state))
                .expect("plan");
            let basis = Basis { model: &model, analysis: &analysis, plan: &reviewed, config: &config, state: &state };
            let p = numeric()[param];
            let (lo, hi) = p.range(&config).expect("numeric");
            let mut v = lo + at * (hi - lo);
            if p == Param::ChainLength {
                v = v.round();
            }
            let cand_config = p.set_number(&config, v).expect("inside the range");
            let cand = plan_candidate(&basis, &cand_config).expect("plan");
            for (id, (mask, _)) in &state.forced {
                if let Some(i) = model.entity_index(id) {
                    prop_assert_eq!(cand.plan.masked[i], *mask, "{} = {}: {} not held", p, v, id);
                }
            }
            let d = diff(&basis, &cand);
            prop_assert_eq!(
                d.candidate.masked as i64 - d.reviewed.masked as i64,
                d.newly_masked.len() as i64 - d.newly_unmasked.len() as i64
            );
            for &e in &d.newly_masked {
                prop_assert!(cand.plan.masked[e] && !reviewed.masked[e]);
            }
            for &e in &d.newly_unmasked {
                prop_assert!(!cand.plan.masked[e] && reviewed.masked[e]);
            }
            prop_assert!(d.candidate.mean_chain_risk <= d.candidate.max_chain_risk + 1e-12);
            prop_assert_eq!(d.candidate.high + d.candidate.medium + d.candidate.low, d.candidate.chains);
            // A one-value sweep is the same plan.
            let rows = sweep(&basis, p, (v, v, 1.0), None, None, &|| false).expect("sweep");
            prop_assert_eq!(rows.len(), 1);
            prop_assert_eq!(rows[0].masked, d.candidate.masked);
            prop_assert_eq!(rows[0].max_chain_risk, d.candidate.max_chain_risk);
        }
    }
}

#[test]
fn a_sweep_measures_each_values_own_mask_set() {
    // The leak measure sees the mask set of each value's plan (here: it counts it).
    let f = fixture(config(0.5), SessionState::default());
    let count = |m: &[bool]| Some(m.iter().filter(|x| **x).count() as f64);
    let rows = sweep(
        &f.basis(),
        Param::RiskMedium,
        (0.3, 0.4, 0.05),
        None,
        Some(&count),
        &|| false,
    )
    .expect("sweep");
    assert!(
        rows.iter().any(|r| r.masked != rows[0].masked),
        "the values differ"
    );
    for r in &rows {
        assert_eq!(r.leak_rate, Some(r.masked as f64), "at {}", r.value);
    }
    let json = serde_json::to_value(&rows[0]).expect("json");
    assert!(json.get("leak_rate").is_some());
    let plain = sweep(
        &f.basis(),
        Param::ThetaDoc,
        (0.0, 0.0, 0.25),
        None,
        None,
        &|| false,
    )
    .expect("sweep");
    assert!(
        serde_json::to_value(&plain[0])
            .expect("json")
            .get("leak_rate")
            .is_none()
    );
}

#[test]
fn a_sweep_stops_when_asked() {
    let f = fixture(config(0.5), SessionState::default());
    let asked = std::cell::Cell::new(0);
    let stop = || {
        asked.set(asked.get() + 1);
        asked.get() > 2
    };
    let r = sweep(
        &f.basis(),
        Param::ThetaDoc,
        (0.0, 1.0, 0.1),
        None,
        None,
        &stop,
    );
    assert!(matches!(r, Err(WhatIfError::Sweep { .. })), "{r:?}");
    assert_eq!(
        asked.get(),
        3,
        "asked before each value, stopped at the third"
    );
}

/// A document held at R = 1.0 by a forced keep: the document stage masks its other
/// entities in vain and pruning releases them; the what-if switch brings them back.
#[test]
fn switching_pruning_off_in_the_what_if_lists_the_masks_it_brings_back() {
    let model = Model::from_lists(
        &[
            vec![
                ("k", "NAME", 1.0),
                ("x", "AGE", 1.0),
                ("y", "LOCATION", 0.9),
            ],
            vec![],
            vec![],
        ],
        &Schema::default(),
    );
    let mut config = Config::default();
    config.redact.always_mask = vec![];
    let mut state = SessionState::default();
    state.forced.insert("k".into(), (false, 1));
    let analysis = Analysis::new(&model, &config.analysis_params());
    let reviewed = plan(
        &model,
        &analysis,
        &config.plan_params(),
        &constraints(&config, &state),
    )
    .expect("plan");
    assert_eq!(reviewed.masked_count(), 0, "pruning released both");
    assert_eq!(reviewed.pruned, vec![1, 2]);
    let text = crate::plan::ProvenanceText {
        provenance: &reviewed.provenance[1],
        model: &model,
        analysis: &analysis,
        theta_doc: config.plan.theta_doc,
    }
    .to_string();
    assert_eq!(
        text,
        "kept: masked by the document stage for document d0 (1.00 → 1.00), released by pruning: \
         every bound holds without it (document d0 at 1.00 ≤ 1.00)"
    );
    let basis = Basis {
        model: &model,
        analysis: &analysis,
        plan: &reviewed,
        config: &config,
        state: &state,
    };
    let off = Param::Prune.set(&config, "false").expect("a switch");
    assert_eq!(
        changes(&config, &off),
        vec![(Param::Prune, "true".to_string(), "false".to_string())]
    );
    let cand = plan_candidate(&basis, &off).expect("plan");
    assert!(
        cand.analysis.is_none(),
        "a planner switch keeps the analysis"
    );
    let d = diff(&basis, &cand);
    assert_eq!(d.newly_masked, vec![1, 2], "AGE x, then LOCATION y");
    assert!(d.newly_unmasked.is_empty());
    assert_eq!(d.candidate.residual_docs, 1, "d0 stays at 1.00 either way");
    assert_eq!(d.reviewed.residual_docs, 1);
}
