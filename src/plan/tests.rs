use super::*;
use crate::analysis::AnalysisParams;
use crate::schema::Schema;

fn setup(docs: &[&[(&str, &str, f64)]], threshold: f64) -> (Model, Analysis) {
    let m = Model::from_lists(
        &docs.iter().map(|d| d.to_vec()).collect::<Vec<_>>(),
        &Schema::default(),
    );
    let an = Analysis::new(
        &m,
        &AnalysisParams {
            edge_threshold: threshold,
            chain_length: 2,
            ..AnalysisParams::default()
        },
    );
    (m, an)
}

#[test]
fn document_stage_masks_highest_contribution_until_below_theta() {
    let (m, an) = setup(
        &[
            &[
                ("a", "NAME", 1.0),
                ("b", "PATIENT_ID", 1.0),
                ("c", "AGE", 1.0),
            ],
            &[],
            &[],
        ],
        0.5,
    );
    let params = PlanParams {
        theta_doc: 0.6,
        ..PlanParams::default()
    };
    let p = plan(&m, &an, &params, &Constraints::default()).unwrap();
    // u = 1 for all; c = 1.0, 0.95, 0.55 → mask a (R 1.0 → 0.9775), then b (→ 0.55)
    assert_eq!(p.masked, vec![true, true, false]);
    assert_eq!(p.events.len(), 2);
    assert!((p.events[1].risk_after - 0.55).abs() < 1e-12);
    assert!(matches!(p.provenance[2], Provenance::KeptNotNeeded { .. }));
}

#[test]
fn forced_keep_policy_and_never_mask() {
    let (m, an) = setup(
        &[
            &[("a", "NAME", 1.0), ("b", "EMAIL", 1.0), ("c", "AGE", 1.0)],
            &[],
        ],
        0.5,
    );
    let mut c = Constraints::default();
    c.always_mask.insert("NAME".into());
    c.always_mask.insert("EMAIL".into());
    c.force_keep.insert("b".into());
    c.never_mask.insert("AGE".into());
    c.force_mask.insert("unknown".into());
    let params = PlanParams {
        theta_doc: 0.5,
        ..PlanParams::default()
    };
    let p = plan(&m, &an, &params, &c).unwrap();
    assert_eq!(p.masked, vec![true, false, false]);
    assert_eq!(p.provenance[1], Provenance::KeptForced);
    assert_eq!(p.provenance[2], Provenance::KeptNeverMask);
    assert!(matches!(
        p.provenance[0],
        Provenance::Masked {
            stage: Stage::Policy,
            ..
        }
    ));
    assert_eq!(p.warnings.len(), 1);
    // R(d0) = 1 − (1 − 0.8)(1 − 0.55) = 0.91 > 0.5 with nothing left to mask: a residual
    assert_eq!(p.residual_docs, vec![0]);
    assert!((p.doc_risk_final[0] - 0.91).abs() < 1e-12);
    c.force_mask.insert("b".into());
    assert_eq!(
        plan(&m, &an, &PlanParams::default(), &c),
        Err(PlanError::ForcedBoth("b".into()))
    );
}

#[test]
fn masking_never_raises_risk_and_chain_reaches_target() {
    let (m, an) = setup(
        &[
            &[
                ("id", "PATIENT_ID", 0.9),
                ("cond", "MEDICAL_CONDITION", 0.8),
                ("x", "AGE", 0.3),
            ],
            &[
                ("id", "PATIENT_ID", 0.9),
                ("cond", "MEDICAL_CONDITION", 0.9),
            ],
            &[],
        ],
        0.3,
    );
    for strategy in [Strategy::Greedy, Strategy::Knapsack] {
        let params = PlanParams {
            strategy,
            ..PlanParams::default()
        };
        let p = plan(&m, &an, &params, &Constraints::default()).unwrap();
        for c in &p.chains {
            assert!(c.risk_final <= c.risk_pre && c.risk_pre <= c.risk_initial);
            if let Some(t) = c.target() {
                assert!(c.risk_final <= t, "{strategy:?}");
            }
        }
        assert!(p.masked_count() >= 1);
    }
}
