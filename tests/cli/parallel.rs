//! Extraction on every core gives what it gives on one, byte for byte: the snapshot of
//! `clam extract` with `RAYON_NUM_THREADS=1` and with several threads, and the entity
//! store of `extract_all` in a pool of one thread and of four.

use super::*;

/// The shared devset's corpus, when this checkout has it beside it.
fn devset() -> Option<PathBuf> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/devset/corpus");
    p.is_dir().then_some(p)
}

/// A generated corpus of `docs` documents in `env`.
fn generated(env: &Env, docs: usize) -> PathBuf {
    let dir = env.path(&format!("gen{docs}"));
    let o = env.clam(&[
        "gen-corpus",
        "--docs",
        &docs.to_string(),
        "--out",
        dir.to_str().expect("utf8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    dir.join("corpus.jsonl")
}

fn corpora(env: &Env) -> Vec<PathBuf> {
    let mut all = vec![PathBuf::from(sample()), generated(env, 600)];
    all.extend(devset());
    all
}

#[test]
fn a_snapshot_is_the_same_on_one_core_and_on_every_core() {
    let env = Env::new();
    for (i, corpus) in corpora(&env).iter().enumerate() {
        let snap = |threads: &str| {
            let out = env.path(&format!("snap{i}-{threads}.json"));
            let o = env.clam_with(
                &[
                    "extract",
                    corpus.to_str().expect("utf8"),
                    "--out",
                    out.to_str().expect("utf8"),
                ],
                &[("RAYON_NUM_THREADS", threads)],
            );
            assert!(o.status.success(), "{}", stderr(&o));
            std::fs::read(&out).expect("snapshot")
        };
        let (one, many) = (snap("1"), snap("4"));
        let v: Value = serde_json::from_slice(&one).expect("json");
        let entities: usize = v["documents"]
            .as_array()
            .expect("documents")
            .iter()
            .map(|d| d["entities"].as_array().map_or(0, Vec::len))
            .sum();
        assert!(entities > 100, "{}: {entities} entities", corpus.display());
        assert!(one == many, "{}: the snapshots differ", corpus.display());
    }
}

#[test]
fn the_entity_store_is_the_same_in_a_pool_of_one_thread_and_of_four() {
    let env = Env::new();
    for corpus in corpora(&env) {
        let config = clam::Config::default();
        let loaded =
            clam::corpus::load(&corpus, &clam::corpus::LoadOptions::default()).expect("corpus");
        let extractor = clam::extract::offline::OfflineExtractor::from_config(&config);
        let in_pool = |threads: usize| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .expect("pool")
                .install(|| clam::workspace::extract_all(&loaded, &config, &extractor))
        };
        let (one, four) = (in_pool(1), in_pool(4));
        assert!(!one.keys.is_empty());
        assert!(one == four, "{}: the stores differ", corpus.display());
    }
}
