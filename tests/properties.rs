//! Property tests: risks stay in [0,1], masking never raises a risk, the plan is
//! deterministic, and after export no masked original value remains (checked by an
//! independent naive scan, not by the redactor's matcher).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use std::collections::BTreeSet;

#[path = "common/mod.rs"]
mod common;

use clam::analysis::{Analysis, AnalysisParams, Model};
use clam::config::Config;
use clam::corpus::{Corpus, Document, Format};
use clam::entity::EntityStore;
use clam::entity::ExtractedItem;
use clam::export::{ExportOptions, export};
use clam::extract::offline::OfflineExtractor;
use clam::plan::{Constraints, PlanParams, Strategy as ChainStrategy, plan};
use clam::schema::Schema;
use clam::snapshot::{Snapshot, SnapshotDoc, SnapshotEntity, plan_snapshot};
use clam::workspace::Workspace;
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

/// docs × (entity number 0..12, type index, relevance)
fn corpus_strategy() -> impl Strategy<Value = Vec<Vec<(u8, usize, f64)>>> {
    prop::collection::vec(
        prop::collection::vec((0u8..12, 0..TYPES.len(), 0.0f64..=1.0), 0..6),
        1..9,
    )
}

fn snapshot_of(
    docs: &[Vec<(u8, usize, f64)>],
    strategy: &str,
    chain_length: usize,
    prune: bool,
) -> Snapshot {
    Snapshot {
        config: serde_json::json!({"always_mask": [], "edge_threshold": 0.2, "chain_length": chain_length, "strategy": strategy, "prune": prune}),
        fallbacks: None,
        documents: docs
            .iter()
            .enumerate()
            .map(|(i, ents)| SnapshotDoc {
                id: format!("doc_{i}"),
                key: None,
                unlocated: 0,
                fallback: None,
                entities: ents
                    .iter()
                    .map(|(n, t, r)| SnapshotEntity {
                        value: format!("value {n}"),
                        entity_type: TYPES[(*n as usize + t) % 3].to_string(),
                        relevance: *r,
                        mentions: 1 + *n as u64 % 3,
                        id: None,
                        originals: vec![],
                        spans: vec![],
                    })
                    .collect(),
            })
            .collect(),
        forced: None,
    }
}

fn analysed(docs: &[Vec<(u8, usize, f64)>], chain_length: usize) -> (Model, Analysis) {
    analysed_with(
        docs,
        chain_length,
        0.2,
        AnalysisParams::default().max_chains_per_component,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn risks_stay_in_unit_interval_and_masking_never_raises_them(
        docs in corpus_strategy(),
        chain_length in 2usize..=3,
        greedy in any::<bool>(),
        theta_doc in 0.3f64..=1.0,
        prune in any::<bool>(),
    ) {
        let (model, an) = analysed(&docs, chain_length);
        let params = PlanParams {
            theta_doc,
            strategy: if greedy { ChainStrategy::Greedy } else { ChainStrategy::Knapsack },
            prune,
            ..PlanParams::default()
        };
        // Kept edges come sorted by (a, b), a < b: pruning reads a document's edges
        // to later documents as one run of them.
        prop_assert!(an.edges.iter().all(|e| e.a < e.b));
        prop_assert!(an.edges.windows(2).all(|w| (w[0].a, w[0].b) < (w[1].a, w[1].b)));
        let p = plan(&model, &an, &params, &Constraints::default()).expect("plan");
        for (d, r0) in an.doc_risk_initial.iter().enumerate() {
            let r1 = p.doc_risk_final[d];
            prop_assert!((0.0..=1.0).contains(r0) && (0.0..=1.0).contains(&r1));
            prop_assert!(r1 <= *r0 + 1e-12, "document risk rose: {r0} → {r1}");
        }
        for c in &p.chains {
            for r in [c.risk_initial, c.risk_pre, c.risk_final] {
                prop_assert!((0.0..=1.0).contains(&r));
            }
            prop_assert!(c.risk_pre <= c.risk_initial + 1e-12);
            prop_assert!(c.risk_final <= c.risk_initial + 1e-12);
            // Pruning may release a document-stage mask a chain had from stage 1.
            if !prune {
                prop_assert!(c.risk_final <= c.risk_pre + 1e-12);
            }
        }
        for e in &an.edges {
            prop_assert!((0.0..=1.0).contains(&e.strength));
        }
        // Masking any further entity never raises any risk.
        let mut more = p.masked.clone();
        if let Some(i) = more.iter().position(|m| !*m) {
            more[i] = true;
            for d in 0..model.docs.len() {
                prop_assert!(an.doc_risk(d, &more) <= p.doc_risk_final[d] + 1e-12);
            }
            for (c, r) in an.chains.iter().zip(&p.chains) {
                prop_assert!(an.chain_risk(c, &more) <= r.risk_final + 1e-12);
            }
        }
    }

    #[test]
    fn the_plan_is_deterministic(
        docs in corpus_strategy(),
        chain_length in 2usize..=3,
        greedy in any::<bool>(),
        prune in any::<bool>(),
    ) {
        let snap = snapshot_of(&docs, if greedy { "greedy" } else { "knapsack" }, chain_length, prune);
        let mut config = Config::default();
        snap.config_layer().expect("layer").apply(&mut config, "test").expect("apply");
        let a = serde_json::to_string(&plan_snapshot(&snap, &config).expect("plan")).expect("json");
        let b = serde_json::to_string(&plan_snapshot(&snap.clone(), &config).expect("plan")).expect("json");
        prop_assert_eq!(a, b);
    }
}

/// Tokens none of which is a substring of another, some multi-byte or combining.
const WORDS: &[&str] = &[
    "alder", "brisk", "cobalt", "dune", "ember", "fjord", "gale", "heron", "zoë", "müller",
    "ŝtelo", "café", "Ærø", "ocelot", "quill", "wisp", "sable", "tundra", "umbra", "vex",
];
const SEPARATORS: &[&str] = &[" ", ", ", ". ", "\n", " — ", " (", ") "];

fn text_strategy() -> impl Strategy<Value = Vec<(usize, usize, bool)>> {
    prop::collection::vec((0..WORDS.len(), 0..SEPARATORS.len(), any::<bool>()), 1..60)
}

fn render(tokens: &[(usize, usize, bool)]) -> String {
    let mut s = String::new();
    for (w, sep, upper) in tokens {
        let word = if *upper {
            WORDS[*w].to_uppercase()
        } else {
            WORDS[*w].to_string()
        };
        s.push_str(&word);
        s.push_str(SEPARATORS[*sep]);
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn no_masked_value_remains_after_export(
        texts in prop::collection::vec(text_strategy(), 1..5),
        picks in prop::collection::vec((0usize..5, 0usize..60, 1usize..3, 0..TYPES.len()), 1..10),
    ) {
        let docs: Vec<Document> = texts.iter().enumerate().map(|(i, t)| Document::new(format!("doc{i}"), render(t))).collect();
        // Mask every type up front so every extracted value must disappear.
        let mut config = Config::default();
        config.redact.always_mask = TYPES.iter().map(|s| s.to_string()).collect();
        let mut store = EntityStore::with_documents(&docs);
        let mut per_doc: Vec<Vec<ExtractedItem>> = vec![Vec::new(); docs.len()];
        for (d, start, len, t) in &picks {
            let d = d % docs.len();
            let toks = &texts[d];
            let start = start % toks.len();
            let end = (start + len).min(toks.len());
            let value = toks[start..end].iter().map(|(w, _, _)| WORDS[*w]).collect::<Vec<_>>().join(" ");
            per_doc[d].push(ExtractedItem { original: value, normalized: String::new(), entity_type: TYPES[*t].to_string(), relevance: 0.9, spans: vec![] });
        }
        for (i, items) in per_doc.iter().enumerate() {
            store.set_document_items(i, &docs[i], items, &config.schema, config.extraction.date_order);
        }
        let corpus = Corpus { root: std::path::PathBuf::from("/nonexistent-corpus"), format: Some(Format::Json), documents: docs, diagnostics: vec![], not_read: vec![] };
        let ws = Workspace::new(corpus, config, store, None, "test").expect("workspace");
        let originals: BTreeSet<String> = ws.masked_entities().iter().flat_map(|e| e.originals.iter().map(|o| o.to_lowercase())).collect();
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        let scanner = OfflineExtractor::new(ws.config().extraction.date_order);
        export(&ws, b"key", &out, &ExportOptions::default(), &scanner).expect("export");
        // Every exported byte: documents, manifest, report, audit log.
        // (The manifest's tables decompressed, as a reader sees them.)
        for (rel, text) in common::export_files(&out) {
            let text = text.to_lowercase();
            for o in &originals {
                prop_assert!(!text.contains(o.as_str()), "masked value {o:?} remains in {rel}");
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Parallel planning per component and the chain cap.

use clam::plan::{plan_parallel, plan_parallel_always};

/// A sparser corpus than `corpus_strategy`: more entity numbers than documents share,
/// so it splits into several components.
fn sparse_corpus_strategy() -> impl Strategy<Value = Vec<Vec<(u8, usize, f64)>>> {
    prop::collection::vec(
        prop::collection::vec((0u8..40, 0..TYPES.len(), 0.0f64..=1.0), 0..5),
        1..24,
    )
}

fn analysed_with(
    docs: &[Vec<(u8, usize, f64)>],
    chain_length: usize,
    edge_threshold: f64,
    cap: usize,
) -> (Model, Analysis) {
    let ids: Vec<Vec<(String, &str, f64)>> = docs
        .iter()
        .map(|ents| {
            ents.iter()
                .map(|(n, t, r)| (format!("e{n:02}"), TYPES[*t], *r))
                .collect()
        })
        .collect();
    let model = Model::from_lists(&ids, &Schema::default());
    let an = Analysis::new(
        &model,
        &AnalysisParams {
            edge_threshold,
            chain_length,
            max_chains_per_component: cap,
        },
    );
    (model, an)
}

/// Document → first document of its component of the kept-edge graph.
fn graph_components(an: &Analysis, n: usize) -> Vec<u32> {
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn find(p: &mut [u32], mut x: u32) -> u32 {
        while p[x as usize] != x {
            x = p[x as usize];
        }
        x
    }
    for e in &an.edges {
        let (a, b) = (find(&mut parent, e.a), find(&mut parent, e.b));
        let (lo, hi) = (a.min(b), a.max(b));
        parent[hi as usize] = lo;
    }
    (0..n as u32).map(|d| find(&mut parent, d)).collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// The plan computed per component in parallel (any grouping of components into
    /// work units) is identical to the sequential plan: masks, events and their order,
    /// released masks (pruning on or off), provenance, chain results, residuals and
    /// warnings.
    #[test]
    fn the_parallel_plan_is_the_sequential_plan(
        docs in sparse_corpus_strategy(),
        chain_length in 2usize..=4,
        greedy in any::<bool>(),
        mentions_cost in any::<bool>(),
        theta_doc in 0.3f64..=1.0,
        edge_threshold in 0.05f64..0.6,
        units in 1usize..8,
        prune in any::<bool>(),
        forced in prop::collection::vec((0u8..44, any::<bool>()), 0..4),
        always in prop::collection::vec(0..TYPES.len(), 0..2),
        never in prop::collection::vec(0..TYPES.len(), 0..2),
    ) {
        let (model, an) = analysed_with(&docs, chain_length, edge_threshold, 1_000_000);
        let params = PlanParams {
            theta_doc,
            strategy: if greedy { ChainStrategy::Greedy } else { ChainStrategy::Knapsack },
            utility_cost: if mentions_cost {
                clam::plan::UtilityCost::Mentions
            } else {
                clam::plan::UtilityCost::Count
            },
            prune,
            ..PlanParams::default()
        };
        let mut c = Constraints::default();
        for (n, mask) in &forced {
            // e40..e43 do not occur: their warnings must come out the same.
            let id = format!("e{n:02}");
            if *mask { c.force_mask.insert(id); } else { c.force_keep.insert(id); }
        }
        for t in &always { c.always_mask.insert(TYPES[*t].to_string()); }
        for t in &never { c.never_mask.insert(TYPES[*t].to_string()); }
        let seq = plan(&model, &an, &params, &c);
        let par = plan_parallel_always(&model, &an, &params, &c, units);
        prop_assert_eq!(&seq, &par);
        prop_assert_eq!(seq, plan_parallel(&model, &an, &params, &c));
    }

    /// Under a cap the chains are a subset of the uncapped ones in canonical order:
    /// every 2-document chain, then per component the shortest chains first, each
    /// length in canonical order, never more than the cap (beyond the pairs); the cap
    /// is reported exactly when chains were dropped. A cap that is not reached changes
    /// nothing.
    #[test]
    fn the_chain_cap_keeps_the_shortest_chains_deterministically(
        docs in corpus_strategy(),
        chain_length in 3usize..=5,
        cap in 1usize..30,
    ) {
        let (_, full) = analysed_with(&docs, chain_length, 0.1, 1_000_000);
        prop_assert!(!full.chain_cap.hit());
        let (_, capped) = analysed_with(&docs, chain_length, 0.1, cap);
        let comp = graph_components(&full, full.n);
        // Subset, in canonical order.
        let mut it = full.chains.iter();
        for c in &capped.chains {
            prop_assert!(it.any(|f| f == c), "chain {:?} not in the full list, or out of order", c.docs());
        }
        prop_assert_eq!(capped.chain_cap.hit(), capped.chains.len() < full.chains.len());
        let mut heads: Vec<u32> = comp.clone();
        heads.sort_unstable();
        heads.dedup();
        let mut capped_heads = Vec::new();
        for h in heads {
            let of = |cs: &[clam::analysis::Chain]| -> Vec<Vec<u32>> {
                cs.iter().filter(|c| comp[c.docs()[0] as usize] == h).map(|c| c.docs().to_vec()).collect()
            };
            let (all, kept) = (of(&full.chains), of(&capped.chains));
            let pairs = all.iter().filter(|c| c.len() == 2).count();
            prop_assert_eq!(kept.iter().filter(|c| c.len() == 2).count(), pairs);
            prop_assert!(kept.len() <= cap.max(pairs));
            // The expected selection: by length, then canonical order.
            let mut by_len = all.clone();
            by_len.sort_by(|a, b| a.len().cmp(&b.len()).then(a.cmp(b)));
            let take = if all.len() <= cap { all.len() } else { cap.max(pairs) };
            let mut expected: Vec<Vec<u32>> = by_len[..take].to_vec();
            expected.sort();
            prop_assert_eq!(&kept, &expected);
            if kept.len() < all.len() {
                capped_heads.push(h);
            }
        }
        prop_assert_eq!(&capped.chain_cap.capped_components, &capped_heads);
        if capped.chains.len() == full.chains.len() {
            prop_assert_eq!(&capped.chains, &full.chains);
        }
    }
}

/// The parallel plan on a generated corpus (offline extraction, chain_length 2 and 3)
/// equals the sequential one, with its hub values (one component) and without them
/// (hundreds of components).
#[test]
fn the_parallel_plan_equals_the_sequential_plan_on_a_generated_corpus() {
    let generated = clam::gencorpus::generate(clam::gencorpus::GenParams { docs: 800, seed: 7 });
    let docs: Vec<Document> = generated
        .documents
        .iter()
        .map(|d| Document::new(d.id.clone(), d.content.clone()))
        .collect();
    let corpus = Corpus {
        root: std::path::PathBuf::from("/nonexistent-corpus"),
        format: Some(Format::Jsonl),
        documents: docs,
        diagnostics: vec![],
        not_read: vec![],
    };
    let config = Config::default();
    let store = clam::workspace::extract_all(
        &corpus,
        &config,
        &OfflineExtractor::new(config.extraction.date_order),
    );
    let full = Model::from_store(&store, &config.schema);
    // Without the values in more than 5 documents (the hubs and the frequent
    // background values; a hidden person's cluster has 2 to 5) the corpus falls apart
    // into many components.
    let limit = 5;
    let mut freq = vec![0usize; full.entities.len()];
    for d in &full.docs {
        for &(e, _) in &d.entities {
            freq[e as usize] += 1;
        }
    }
    let mut split = full.clone();
    for d in &mut split.docs {
        d.entities.retain(|&(e, _)| freq[e as usize] <= limit);
    }
    let mut constraints = config.constraints();
    // An auditor's decisions on a few entities, one of them unknown.
    for (k, e) in full.entities.iter().enumerate().step_by(97).take(6) {
        if k % 2 == 0 {
            constraints.force_mask.insert(e.id.clone());
        } else {
            constraints.force_keep.insert(e.id.clone());
        }
    }
    constraints.force_mask.insert("no-such-entity".into());
    let mut components_seen = Vec::new();
    for model in [&full, &split] {
        for chain_length in [2, 3] {
            let an = Analysis::new(
                model,
                &AnalysisParams {
                    chain_length,
                    ..config.analysis_params()
                },
            );
            for prune in [true, false] {
                let params = PlanParams {
                    prune,
                    ..config.plan_params()
                };
                let seq = plan(model, &an, &params, &constraints).expect("plan");
                assert!(seq.masked_count() > 0 && !an.chains.is_empty());
                for units in [2, 8, 64] {
                    let par = plan_parallel_always(model, &an, &params, &constraints, units)
                        .expect("parallel plan");
                    assert!(
                        seq == par,
                        "plans differ ({units} units, chain_length {chain_length}, prune {prune})"
                    );
                }
                assert!(seq == plan_parallel(model, &an, &params, &constraints).expect("plan"));
            }
            components_seen.push(clam::plan::components(&an, model.docs.len()).len());
        }
    }
    assert!(
        components_seen[2] > 50,
        "the split corpus has many components: {components_seen:?}"
    );
}

/// A random audit decision over entities e0..e4 and documents d0..d2; `Undo` takes
/// back one of the decisions so far (`back` from the newest).
fn action_strategy() -> impl Strategy<Value = (u8, u8, u8, bool, u8)> {
    (0u8..9, 0u8..5, 0u8..5, any::<bool>(), 0u8..6)
}

fn action_of(
    (kind, a, b, mask, back): (u8, u8, u8, bool, u8),
    seqs: &[i64],
) -> clam::session::AuditAction {
    use clam::session::AuditAction;
    let e = |i: u8| format!("e{i}");
    let docs = |i: u8| vec![format!("d{}", i % 3), format!("d{}", (i + 1) % 3)];
    match kind {
        0 => AuditAction::Accept { entity: e(a), mask },
        1 => AuditAction::Override { entity: e(a), mask },
        2 => AuditAction::Pin { entity: e(a), mask },
        3 => AuditAction::Unpin { entity: e(a) },
        4 if !seqs.is_empty() => AuditAction::Undo {
            seq: seqs[seqs.len() - 1 - (back as usize % seqs.len())],
        },
        5 if a != b => AuditAction::Merge {
            from: e(a),
            into: e(b),
        },
        6 => AuditAction::RemoveEntity {
            entity: e(a),
            doc: mask.then(|| "d0".to_string()),
        },
        7 => AuditAction::AcceptResidual { documents: docs(a) },
        _ => AuditAction::GoldMark {
            documents: docs(b),
            note: None,
        },
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// The workspace keeps its session state by applying each new decision alone
    /// (and replaying the log only for an undo); that must always equal a replay of
    /// the whole log.
    #[test]
    fn applying_each_decision_alone_equals_replaying_the_log(
        steps in prop::collection::vec(action_strategy(), 1..40),
    ) {
        use clam::session::{AuditAction, AuditEntry, SessionState, replay};
        let mut log: Vec<AuditEntry> = Vec::new();
        let mut state = SessionState::default();
        for (i, step) in steps.into_iter().enumerate() {
            let seqs: Vec<i64> = log.iter().map(|e| e.seq).collect();
            let action = action_of(step, &seqs);
            let seq = i as i64 + 1;
            log.push(AuditEntry {
                seq,
                time: String::new(),
                decision: clam::session::Decision {
                    actor: "t".into(),
                    action: action.clone(),
                    reason: None,
                    state_before: None,
                    state_after: None,
                    config_hash: String::new(),
                },
            });
            if matches!(action, AuditAction::Undo { .. }) {
                state = replay(&log);
            } else {
                state.apply(seq, &action);
            }
            prop_assert_eq!(&state, &replay(&log), "after decision {}: {:?}", seq, action);
        }
    }
}
