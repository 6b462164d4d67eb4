//! Stage 3 of the planner, pruning (SPEC §4, issue 17): property tests of its bounds,
//! irredundancy, what it may never release and its determinism; and what a user sees
//! on the devset and the sample corpus, among them the futile masks of an auditor's
//! forced keep in `call_04`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::path::{Path, PathBuf};

use clam::analysis::{Analysis, AnalysisParams, Model, RiskCategory};
use clam::config::{Config, ConfigSources, resolve};
use clam::corpus::{LoadOptions, load};
use clam::extract::offline::OfflineExtractor;
use clam::plan::{
    Cause, Constraints, Plan, PlanParams, Provenance, ProvenanceText, Stage,
    Strategy as ChainStrategy, UtilityCost, plan, plan_parallel_always,
};
use clam::schema::Schema;
use clam::session::{AuditAction, Decision, Session};
use clam::workspace::{Workspace, extract_all};
use proptest::prelude::*;

const TYPES: &[&str] = &[
    "NAME",
    "PATIENT_ID",
    "MEDICAL_CONDITION",
    "PROVIDER",
    "EVENT_DATE",
    "AGE",
    "LOCATION",
    "DEMOGRAPHIC",
];

/// Documents × (entity number, type index, relevance): values shared often enough
/// that chains form and the chain stage has work.
fn corpus_strategy() -> impl Strategy<Value = Vec<Vec<(u8, usize, f64)>>> {
    prop::collection::vec(
        prop::collection::vec((0u8..24, 0..TYPES.len(), 0.2f64..=1.0), 0..7),
        2..16,
    )
}

fn analysed(
    docs: &[Vec<(u8, usize, f64)>],
    chain_length: usize,
    edge_threshold: f64,
) -> (Model, Analysis) {
    let lists: Vec<Vec<(String, &str, f64)>> = docs
        .iter()
        .map(|ents| {
            ents.iter()
                .map(|(n, t, r)| (format!("e{n:02}"), TYPES[(*n as usize + t) % 4], *r))
                .collect()
        })
        .collect();
    let model = Model::from_lists(&lists, &Schema::default());
    let an = Analysis::new(
        &model,
        &AnalysisParams {
            edge_threshold,
            chain_length,
            ..AnalysisParams::default()
        },
    );
    (model, an)
}

/// Every bound of stage 3 under `masked`, recomputed from scratch: the bounds are
/// fixed from the plan without pruning (`thesis`). Returns the first violation.
fn violation(an: &Analysis, params: &PlanParams, thesis: &Plan, masked: &[bool]) -> Option<String> {
    for (d, &before) in thesis.doc_risk_final.iter().enumerate() {
        let r = an.doc_risk(d, masked);
        if r > params.theta_doc.max(before) {
            return Some(format!("document {d}: {r} above max(theta_doc, {before})"));
        }
    }
    for (c, res) in thesis.chains.iter().enumerate() {
        let r = an.chain_risk(&an.chains[c], masked);
        let ok = match res.target() {
            Some(t) => r <= t.max(res.risk_final),
            None => r < params.risk_medium || r <= res.risk_final,
        };
        if !ok {
            return Some(format!(
                "chain {c}: {r} (target {:?}, before {})",
                res.target(),
                res.risk_final
            ));
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// With pruning on: the stages 1–2 are those of the thesis's planner; only their
    /// document- and chain-stage masks are released (never a forced or policy mask);
    /// every bound holds, recomputed from scratch, and the final risks the plan reports
    /// are those risks exactly; no remaining document- or chain-stage mask could be
    /// released alone; and the plan is deterministic, serial and parallel alike.
    #[test]
    fn pruning_keeps_every_bound_and_leaves_no_mask_to_spare(
        docs in corpus_strategy(),
        chain_length in 2usize..=3,
        greedy in any::<bool>(),
        mentions_cost in any::<bool>(),
        theta_doc in 0.5f64..=1.0,
        edge_threshold in 0.1f64..0.5,
        forced in prop::collection::vec((0u8..24, any::<bool>()), 0..4),
        always in prop::collection::vec(0..4usize, 0..2),
        units in 1usize..6,
    ) {
        let (model, an) = analysed(&docs, chain_length, edge_threshold);
        let on = PlanParams {
            theta_doc,
            strategy: if greedy { ChainStrategy::Greedy } else { ChainStrategy::Knapsack },
            utility_cost: if mentions_cost { UtilityCost::Mentions } else { UtilityCost::Count },
            prune: true,
            ..PlanParams::default()
        };
        let off = PlanParams { prune: false, ..on };
        let mut c = Constraints::default();
        for (n, mask) in &forced {
            let id = format!("e{n:02}");
            if *mask {
                c.force_keep.remove(&id);
                c.force_mask.insert(id);
            } else {
                c.force_mask.remove(&id);
                c.force_keep.insert(id);
            }
        }
        for t in &always {
            c.always_mask.insert(TYPES[*t].to_string());
        }
        let thesis = plan(&model, &an, &off, &c).expect("plan");
        let pruned = plan(&model, &an, &on, &c).expect("plan");
        prop_assert!(thesis.pruned.is_empty());
        prop_assert_eq!(&pruned.events, &thesis.events, "stages 1–2 are unchanged");
        prop_assert_eq!(&pruned.masked_after_document_stage, &thesis.masked_after_document_stage);
        let released: Vec<u32> = (0..model.entities.len() as u32)
            .filter(|&e| thesis.masked[e as usize] && !pruned.masked[e as usize])
            .collect();
        prop_assert_eq!(&pruned.pruned, &released);
        for e in 0..model.entities.len() {
            prop_assert!(!pruned.masked[e] || thesis.masked[e], "pruning never masks");
            match &thesis.provenance[e] {
                Provenance::Masked { stage: Stage::Forced | Stage::Policy, .. } => {
                    prop_assert!(pruned.masked[e], "forced or policy mask {} released", e);
                }
                Provenance::Masked { stage, cause: Some(cause), .. } if !pruned.masked[e] => {
                    let ok = matches!(
                        &pruned.provenance[e],
                        Provenance::KeptPruned { stage: s, cause: k, .. } if s == stage && k == cause
                    );
                    prop_assert!(ok, "{:?}", pruned.provenance[e]);
                }
                // Kept for the same reason (its documents' final risks may be higher).
                _ => prop_assert_eq!(
                    std::mem::discriminant(&pruned.provenance[e]),
                    std::mem::discriminant(&thesis.provenance[e])
                ),
            }
        }
        prop_assert_eq!(violation(&an, &on, &thesis, &pruned.masked), None);
        for (d, &r) in pruned.doc_risk_final.iter().enumerate() {
            prop_assert_eq!(r, an.doc_risk(d, &pruned.masked));
        }
        for (i, r) in pruned.chains.iter().enumerate() {
            prop_assert_eq!(r.risk_final, an.chain_risk(&an.chains[i], &pruned.masked));
            prop_assert_eq!(r.category_final, RiskCategory::of(r.risk_final, on.risk_high, on.risk_medium));
        }
        prop_assert_eq!(&pruned.residual_docs, &thesis.residual_docs);
        prop_assert_eq!(&pruned.residual_chains, &thesis.residual_chains);
        // Irredundant: releasing any one remaining planner mask breaks a bound.
        for e in 0..model.entities.len() {
            let planner = matches!(
                pruned.provenance[e],
                Provenance::Masked { stage: Stage::Document | Stage::Chain, .. }
            );
            if pruned.masked[e] && planner {
                let mut less = pruned.masked.clone();
                less[e] = false;
                prop_assert!(
                    violation(&an, &on, &thesis, &less).is_some(),
                    "entity {} could still be released", e
                );
            }
        }
        // Deterministic: the same input gives the same plan, serial or parallel.
        prop_assert_eq!(&plan(&model, &an, &on, &c).expect("plan"), &pruned);
        prop_assert_eq!(&plan_parallel_always(&model, &an, &on, &c, units).expect("plan"), &pruned);
    }
}

fn root(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// A corpus folder extracted offline, with its own clam.toml if it has one.
fn extracted(dir: &Path) -> (clam::corpus::Corpus, Config, clam::entity::EntityStore) {
    let corpus = load(dir, &LoadOptions::default()).expect("corpus loads");
    let config = resolve(&ConfigSources {
        corpus_dir: Some(dir.to_path_buf()),
        ..ConfigSources::default()
    })
    .expect("config");
    let store = extract_all(
        &corpus,
        &config,
        &OfflineExtractor::new(config.extraction.date_order),
    );
    (corpus, config, store)
}

/// The default plan (pruning on) masks fewer entities than `--no-prune`, and every
/// chain that `--no-prune` leaves LOW stays LOW.
fn prunes_without_raising_a_chain(dir: &Path) -> (usize, usize) {
    let (_, config, store) = extracted(dir);
    assert!(config.plan.prune, "on by default");
    let model = Model::from_store(&store, &config.schema);
    let an = Analysis::new(&model, &config.analysis_params());
    let on = plan(&model, &an, &config.plan_params(), &config.constraints()).expect("plan");
    let off_params = PlanParams {
        prune: false,
        ..config.plan_params()
    };
    let off = plan(&model, &an, &off_params, &config.constraints()).expect("plan");
    assert!(
        on.masked_count() < off.masked_count(),
        "{}: {} masks with pruning, {} without",
        dir.display(),
        on.masked_count(),
        off.masked_count()
    );
    assert_eq!(on.masked_count() + on.pruned.len(), off.masked_count());
    for (i, (a, b)) in on.chains.iter().zip(&off.chains).enumerate() {
        if b.category_final == RiskCategory::Low {
            assert_eq!(
                a.category_final,
                RiskCategory::Low,
                "{}: chain {:?} rose to {} ({} without pruning)",
                dir.display(),
                an.chains[i].docs(),
                a.risk_final,
                b.risk_final
            );
        }
    }
    assert_eq!(on.residual_docs, off.residual_docs);
    assert_eq!(on.residual_chains, off.residual_chains);
    (on.masked_count(), off.masked_count())
}

#[test]
fn the_default_plan_of_the_sample_corpus_masks_fewer_entities() {
    let (on, off) = prunes_without_raising_a_chain(&root("sample_corpus"));
    assert!(off - on >= 10, "{on} vs {off}");
}

#[test]
fn the_default_plan_of_the_devset_masks_fewer_entities() {
    let dir = root("../shared/devset/corpus");
    assert!(dir.is_dir(), "the devset is missing: {}", dir.display());
    let (on, off) = prunes_without_raising_a_chain(&dir);
    assert!(off - on >= 5, "{on} vs {off}");
}

/// Issue 17: an auditor overrides a NAME of `call_04` to keep. Its contribution is
/// 1.0, so the document stays at risk 1.00 whatever else is masked; the thesis's
/// planner masks every other entity of call_04 in vain, the insurer's name (a
/// PROVIDER in most documents) among them. Pruning releases them, and says why.
#[test]
fn a_forced_keep_in_call_04_leaves_the_insurer_unmasked() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (corpus, config, store) = extracted(&root("sample_corpus"));
    let session = Session::open(&dir.path().join("session.sqlite")).expect("session");
    let mut ws = Workspace::new(corpus, config, store, Some(session), "offline").expect("ws");
    let m = ws.model().clone();
    let id_of = |t: &str, v: &str| {
        m.entities
            .iter()
            .position(|e| e.entity_type == t && e.value == v)
            .unwrap_or_else(|| panic!("{t} {v} extracted"))
    };
    let okafor = id_of("NAME", "okafor");
    let insurer = id_of("PROVIDER", "meridian mutual health");
    assert!(
        ws.analysis().entity_docs[insurer].len() >= 20,
        "in most documents"
    );
    let call_04 = m
        .docs
        .iter()
        .position(|d| d.id == "call_04")
        .expect("call_04");
    assert!(
        !ws.plan().masked[insurer],
        "nothing needs it before the override"
    );
    ws.apply(Decision {
        actor: "auditor".into(),
        action: AuditAction::Override {
            entity: m.entities[okafor].id.clone(),
            mask: false,
        },
        reason: Some("the caller's own surname, needed for the callback".into()),
        state_before: None,
        state_after: None,
        config_hash: String::new(),
    })
    .expect("override");
    let on = ws.plan().clone();
    assert!(!on.masked[okafor], "the override holds");
    assert_eq!(on.doc_risk_final[call_04], 1.0, "pinned at 1.00");
    assert!(on.residual_docs.contains(&(call_04 as u32)));
    assert!(!on.masked[insurer], "pruning leaves the insurer unmasked");
    assert!(on.pruned.contains(&(insurer as u32)));
    let (an, theta_doc) = (ws.analysis().clone(), ws.config().plan.theta_doc);
    let why = |plan: &Plan, e: usize| {
        ProvenanceText {
            provenance: &plan.provenance[e],
            model: &m,
            analysis: &an,
            theta_doc,
        }
        .to_string()
    };
    assert_eq!(
        why(&on, insurer),
        "kept: masked by the document stage for document call_04 (1.00 → 1.00), released by \
         pruning: every bound holds without it (document call_04 at 1.00 ≤ 1.00)"
    );
    // Without pruning the document stage masks it, and every other entity of call_04
    // the auditor did not keep, for nothing.
    let mut thesis = ws.config().clone();
    thesis.plan.prune = false;
    ws.set_config(thesis).expect("no pruning");
    let off = ws.plan().clone();
    assert!(off.masked[insurer]);
    assert!(matches!(
        off.provenance[insurer],
        Provenance::Masked {
            stage: Stage::Document,
            cause: Some(Cause::Document(d)),
            ..
        } if d as usize == call_04
    ));
    assert_eq!(
        why(&off, insurer),
        "masked in document stage for document call_04: 1.00 → 1.00"
    );
    for &(e, _) in &m.docs[call_04].entities {
        assert!(off.masked[e as usize] || e as usize == okafor);
    }
    assert_eq!(off.doc_risk_final[call_04], 1.0, "all in vain");
    assert!(on.masked_count() < off.masked_count());
}
