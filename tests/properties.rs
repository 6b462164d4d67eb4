//! Property tests: risks stay in [0,1], masking never raises a risk, the plan is
//! deterministic, and after export no masked original value remains (checked by an
//! independent naive scan, not by the redactor's matcher).

use std::collections::BTreeSet;

use clam::analysis::{Analysis, AnalysisParams, Model};
use clam::config::Config;
use clam::corpus::{Corpus, Document, Format};
use clam::entity::EntityStore;
use clam::export::{ExportOptions, export};
use clam::extract::ExtractedItem;
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

fn snapshot_of(docs: &[Vec<(u8, usize, f64)>], strategy: &str, chain_length: usize) -> Snapshot {
    Snapshot {
        config: serde_json::json!({"always_mask": [], "edge_threshold": 0.2, "chain_length": chain_length, "strategy": strategy}),
        documents: docs
            .iter()
            .enumerate()
            .map(|(i, ents)| SnapshotDoc {
                id: format!("doc_{i}"),
                key: None,
                unlocated: 0,
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
            edge_threshold: 0.2,
            chain_length,
        },
    );
    (model, an)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn risks_stay_in_unit_interval_and_masking_never_raises_them(
        docs in corpus_strategy(),
        chain_length in 2usize..=3,
        greedy in any::<bool>(),
        theta_doc in 0.3f64..=1.0,
    ) {
        let (model, an) = analysed(&docs, chain_length);
        let params = PlanParams {
            theta_doc,
            strategy: if greedy { ChainStrategy::Greedy } else { ChainStrategy::Knapsack },
            ..PlanParams::default()
        };
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
            prop_assert!(c.risk_final <= c.risk_pre + 1e-12);
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
    fn the_plan_is_deterministic(docs in corpus_strategy(), chain_length in 2usize..=3, greedy in any::<bool>()) {
        let snap = snapshot_of(&docs, if greedy { "greedy" } else { "knapsack" }, chain_length);
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
    "ŝtelo", "café", "Ærø", "ocelot", "quill", "rune", "sable", "tundra", "umbra", "vex",
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
        let config = Config {
            always_mask: TYPES.iter().map(|s| s.to_string()).collect(),
            ..Config::default()
        };
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
            store.set_document_items(i, &docs[i], items, &config.schema, config.date_order);
        }
        let corpus = Corpus { root: std::path::PathBuf::from("/nonexistent-corpus"), format: Some(Format::Json), documents: docs, diagnostics: vec![] };
        let ws = Workspace::new(corpus, config, store, None, "test").expect("workspace");
        let originals: BTreeSet<String> = ws.masked_entities().iter().flat_map(|e| e.originals.iter().map(|o| o.to_lowercase())).collect();
        let dir = tempfile::tempdir().expect("tempdir");
        let out = dir.path().join("out");
        let scanner = OfflineExtractor::new(ws.config.date_order);
        export(&ws, b"key", &out, &ExportOptions::default(), &scanner).expect("export");
        // Every exported byte: documents, manifest, report, audit log.
        let mut stack = vec![out.clone()];
        while let Some(dir) = stack.pop() {
            for entry in std::fs::read_dir(&dir).expect("read dir") {
                let path = entry.expect("entry").path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                let text = String::from_utf8_lossy(&std::fs::read(&path).expect("read")).to_lowercase();
                for o in &originals {
                    prop_assert!(!text.contains(o.as_str()), "masked value {o:?} remains in {}", path.display());
                }
            }
        }
    }
}
