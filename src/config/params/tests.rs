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
