//! Tests of the parameter table.
use super::*;

#[test]
fn the_table_follows_param_all_and_round_trips_every_value() {
    let c = Config::default();
    for (i, p) in Param::ALL.into_iter().enumerate() {
        assert_eq!(PARAMS[i].param, p, "row {i}");
        // A value read from a configuration, written to a layer and applied,
        // comes back unchanged.
        let v = p.def().get(&c);
        let mut layer = ConfigLayer::default();
        p.def().set_layer(&mut layer, v.clone()).expect("set");
        assert_eq!(p.def().get_layer(&layer), Some(v.clone()), "{p}");
        let mut other = Config::default();
        layer.apply(&mut other, "test").expect("apply");
        assert_eq!(p.def().get(&other), v, "{p}");
    }
}

#[test]
fn checks_name_the_range() {
    let chain = Param::ChainLength.def();
    assert_eq!(
        chain.check(&Value::Whole(9)),
        Err(format!(
            "9 is not a chain length: use 2..={MAX_CHAIN_LENGTH} documents"
        ))
    );
    assert_eq!(
        Param::ThetaChain.def().check(&Value::Number(1.5)),
        Err("1.5 is outside [0, 1]".to_string())
    );
    assert!(Param::Strategy.parse_value("simplex").is_err());
}

#[test]
fn a_switch_reads_true_and_false_and_toggles() {
    assert_eq!(Param::Prune.parse_value("false"), Ok(Value::Switch(false)));
    assert_eq!(Param::Prune.parse_value(" ON "), Ok(Value::Switch(true)));
    let e = Param::Prune.parse_value("maybe").expect_err("not a switch");
    assert_eq!(e.to_string(), "prune: \"maybe\" is not true or false");
    let c = Config::default();
    let off = Param::Prune.step(&c, true, false).expect("toggle");
    assert!(!off.plan.prune);
    assert_eq!(Param::Prune.value(&off), "false");
    assert!(
        Param::Prune
            .step(&off, false, true)
            .expect("toggle")
            .plan
            .prune
    );
    assert_eq!(Param::Prune.number(&c), None, "not swept");
    assert!(Param::Prune.affects_plan() && !Param::Prune.needs_analysis());
}

#[test]
fn a_switch_is_a_pair_of_flags_and_the_last_one_wins() {
    use clap::{Args, FromArgMatches};
    let cmd = ParamFlags::augment_args(clap::Command::new("clam"));
    let parse = |args: &[&str]| {
        let m = cmd
            .clone()
            .try_get_matches_from(std::iter::once("clam").chain(args.iter().copied()))
            .map_err(|e| e.to_string())?;
        ParamFlags::from_arg_matches(&m).map_err(|e| e.to_string())
    };
    assert_eq!(parse(&[]).expect("none").layer.prune, None);
    assert_eq!(
        parse(&["--no-prune"]).expect("off").layer.prune,
        Some(false)
    );
    assert_eq!(parse(&["--prune"]).expect("on").layer.prune, Some(true));
    assert_eq!(
        parse(&["--prune", "--no-prune"])
            .expect("last wins")
            .layer
            .prune,
        Some(false)
    );
    assert_eq!(
        parse(&["--no-prune", "--theta-doc", "0.9", "--prune"])
            .expect("last wins")
            .layer
            .prune,
        Some(true)
    );
    assert!(
        parse(&["--prune", "false"]).is_err(),
        "a switch takes no value"
    );
}
