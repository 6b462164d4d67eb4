use super::*;
use crate::schema::Schema;

fn model(docs: &[&[(&str, &str, f64)]]) -> Model {
    Model::from_lists(
        &docs.iter().map(|d| d.to_vec()).collect::<Vec<_>>(),
        &Schema::default(),
    )
}

#[test]
fn uniqueness_contribution_and_document_risk_by_hand() {
    // N = 3; "a" in 2 documents: u = ln(4/2)/ln(4) = 0.5; "b" in 1: u = ln 4 / ln 4 = 1.
    let m = model(&[
        &[("a", "NAME", 0.8), ("b", "AGE", 0.5)],
        &[("a", "NAME", 0.6)],
        &[],
    ]);
    let an = Analysis::new(
        &m,
        &AnalysisParams {
            edge_threshold: 0.0,
            chain_length: 2,
            ..AnalysisParams::default()
        },
    );
    assert_eq!(an.n, 3);
    assert!((an.uniqueness[0] - 0.5).abs() < 1e-15);
    assert!((an.uniqueness[1] - 1.0).abs() < 1e-15);
    // c(a,d0) = 0.8·0.5·1.0 = 0.4; c(b,d0) = 0.5·1·0.55 = 0.275
    // R(d0) = 1 − (1−0.4)(1−0.275) = 1 − 0.6·0.725 = 0.565
    assert!((an.doc_risk_initial[0] - 0.565).abs() < 1e-12);
    assert!((an.doc_risk_initial[1] - 0.3).abs() < 1e-12);
    assert_eq!(an.doc_risk_initial[2], 0.0);
    // s_e(a) = max(0.8, 0.6)·0.5·1 = 0.4
    assert!((an.global_contribution[0] - 0.4).abs() < 1e-15);
    // edge d0–d1 via a: s = 0.4, strength 0.4
    assert_eq!(an.edges.len(), 1);
    assert!((an.edges[0].strength - 0.4).abs() < 1e-15);
    // hop = 0.4 · (1 + (0.565 + 0.3)/2) / 2 = 0.4 · 1.4325 / 2 = 0.2865
    let chain = &an.chains[0];
    assert!((an.chain_risk(chain, &[false, false]) - 0.2865).abs() < 1e-12);
    // masking "a" removes the edge's strength entirely
    assert_eq!(an.chain_risk(chain, &[true, false]), 0.0);
}

#[test]
fn pruning_keeps_only_strong_edges_and_chains_are_canonical() {
    let m = model(&[
        &[("x", "PATIENT_ID", 1.0)],
        &[("x", "PATIENT_ID", 1.0), ("y", "PATIENT_ID", 1.0)],
        &[("y", "PATIENT_ID", 1.0)],
        &[("z", "DEMOGRAPHIC", 0.1)],
        &[("z", "DEMOGRAPHIC", 0.1)],
    ]);
    let an = Analysis::new(
        &m,
        &AnalysisParams {
            edge_threshold: 0.3,
            chain_length: 3,
            ..AnalysisParams::default()
        },
    );
    let kept: Vec<(u32, u32)> = an.edges.iter().map(|e| (e.a, e.b)).collect();
    assert_eq!(kept, vec![(0, 1), (1, 2)]);
    let chains: Vec<Vec<u32>> = an.chains.iter().map(|c| c.docs().to_vec()).collect();
    assert_eq!(chains, vec![vec![0, 1], vec![0, 1, 2], vec![1, 2]]);
    assert_eq!(all_edges(&m, &an.entity_docs, &an.uniqueness).len(), 3);
}

#[test]
fn a_hub_entity_in_every_document_creates_no_edges() {
    let docs: Vec<Vec<(String, &str, f64)>> = (0..200)
        .map(|i| {
            vec![
                ("insurer".to_string(), "PROVIDER", 1.0),
                (format!("e{i}"), "AGE", 0.5),
            ]
        })
        .collect();
    let m = Model::from_lists(&docs, &Schema::default());
    let an = Analysis::new(
        &m,
        &AnalysisParams {
            edge_threshold: 0.5,
            chain_length: 2,
            ..AnalysisParams::default()
        },
    );
    assert!(an.edges.is_empty());
    assert!(an.chains.is_empty());
}

proptest::proptest! {
    /// A chain gives back its documents and hops whatever its length (inline up to
    /// three documents, on the heap beyond).
    #[test]
    fn a_chain_gives_back_its_documents_and_hops(
        docs in proptest::collection::vec(0u32..1000, 2..=crate::config::MAX_CHAIN_LENGTH),
        seed in 0u32..1000,
    ) {
        let hops: Vec<u32> = (0..docs.len() as u32 - 1).map(|k| seed * 7 + k).collect();
        let c = Chain::new(&docs, &hops);
        proptest::prop_assert_eq!(c.docs(), docs.as_slice());
        proptest::prop_assert_eq!(c.hops(), hops.as_slice());
    }
}
