//! Analysis + planning on generated corpora (SPEC §9): 1,000 and 10,000 documents with
//! ~15 mentions each, clustered so that chains exist, values Zipf-distributed, and
//! hub entities that occur in every document; the what-if plan with pruning (stage 3)
//! on, the default, and off. Run with `cargo bench --bench plan`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use clam::analysis::{Analysis, AnalysisParams, Model};
use clam::plan::{Constraints, PlanParams, plan};
use clam::schema::Schema;

fn main() {
    if let Ok(n) = std::env::var("CLAM_PROFILE_DOCS") {
        // Profiling aid: one analysis + plan of the generated corpus, repeated.
        let n: usize = n.parse().unwrap_or(1000);
        let model = generate(n, 42);
        let mut total = 0;
        for _ in 0..20 {
            total += analyse_and_plan(&model, 2, true);
        }
        println!("{total}");
        return;
    }
    divan::main();
}

/// A seeded generator, so the corpora are identical on every run.
struct Rng(rand::rngs::SmallRng);

impl Rng {
    fn new(seed: u64) -> Self {
        use rand::SeedableRng;
        Rng(rand::rngs::SmallRng::seed_from_u64(seed))
    }
    fn unit(&mut self) -> f64 {
        use rand::RngExt;
        self.0.random::<f64>()
    }
}

const TYPES: &[&str] = &[
    "NAME",
    "PATIENT_ID",
    "PHONE_NUMBER",
    "MEDICAL_CONDITION",
    "TREATMENT",
    "PROVIDER",
    "EVENT_DATE",
    "AGE",
    "LOCATION",
    "DEMOGRAPHIC",
    "INDIRECT_IDENTIFIER",
];

/// Documents in clusters of 4 sharing a person's entities; the rest of each document's
/// mentions are Zipf-distributed over a large vocabulary; 3 hubs occur everywhere.
pub fn generate(n_docs: usize, seed: u64) -> Model {
    let mut rng = Rng::new(seed);
    let vocab = n_docs * 4;
    // Zipf(s = 1.1) by inverse-CDF over a precomputed cumulative table.
    let weights: Vec<f64> = (1..=vocab).map(|k| 1.0 / (k as f64).powf(1.1)).collect();
    let total: f64 = weights.iter().sum();
    let mut cdf = Vec::with_capacity(vocab);
    let mut acc = 0.0;
    for w in &weights {
        acc += w / total;
        cdf.push(acc);
    }
    let zipf = |r: f64| cdf.partition_point(|&c| c < r).min(vocab - 1);
    let mut docs: Vec<Vec<(String, &str, f64)>> = Vec::with_capacity(n_docs);
    for d in 0..n_docs {
        let cluster = d / 4;
        let mut ents = Vec::with_capacity(16);
        for hub in 0..3 {
            ents.push((format!("hub{hub}"), "PROVIDER", 0.5));
        }
        for p in 0..4 {
            if rng.unit() < 0.7 {
                let t = TYPES[p % TYPES.len()];
                ents.push((format!("person{cluster}-{p}"), t, 0.6 + 0.4 * rng.unit()));
            }
        }
        while ents.len() < 15 {
            let k = zipf(rng.unit());
            let t = TYPES[k % TYPES.len()];
            ents.push((format!("v{k}"), t, 0.2 + 0.7 * rng.unit()));
        }
        docs.push(ents);
    }
    let ids: Vec<Vec<(String, &str, f64)>> = docs
        .into_iter()
        .map(|ents| {
            ents.into_iter()
                .map(|(v, t, r)| (clam::entity::entity_id(&v, t), t, r))
                .collect()
        })
        .collect();
    Model::from_lists(&ids, &Schema::default())
}

fn analyse(model: &Model, chain_length: usize) -> Analysis {
    Analysis::new(
        model,
        &AnalysisParams {
            edge_threshold: 0.5,
            chain_length,
            ..AnalysisParams::default()
        },
    )
}

/// How many entities the default plan masks, with pruning (stage 3) on or off (0 when
/// planning fails).
fn masked(model: &Model, an: &Analysis, prune: bool) -> usize {
    let params = PlanParams {
        prune,
        ..PlanParams::default()
    };
    plan(model, an, &params, &Constraints::default())
        .map(|p| p.masked_count())
        .unwrap_or(0)
}

fn analyse_and_plan(model: &Model, chain_length: usize, prune: bool) -> usize {
    let an = analyse(model, chain_length);
    masked(model, &an, prune) + an.chains.len()
}

#[divan::bench(args = [1_000, 10_000], sample_count = 10)]
fn replan_chain_length_2(bencher: divan::Bencher, n: usize) {
    let model = generate(n, 42);
    bencher.bench(|| analyse_and_plan(divan::black_box(&model), 2, true));
}

/// The what-if path: a planner threshold changes, the analysis (edges, chains) stays.
#[divan::bench(args = [1_000, 10_000], sample_count = 10)]
fn plan_only_chain_length_2(bencher: divan::Bencher, n: usize) {
    let model = generate(n, 42);
    let an = analyse(&model, 2);
    bencher.bench(|| masked(divan::black_box(&model), &an, true));
}

/// [`plan_only_chain_length_2`] with pruning off (the thesis's planner): what stage 3
/// costs.
#[divan::bench(args = [1_000, 10_000], sample_count = 10)]
fn plan_only_chain_length_2_no_prune(bencher: divan::Bencher, n: usize) {
    let model = generate(n, 42);
    let an = analyse(&model, 2);
    bencher.bench(|| masked(divan::black_box(&model), &an, false));
}

#[divan::bench(args = [1_000, 10_000], sample_count = 10)]
fn replan_chain_length_3(bencher: divan::Bencher, n: usize) {
    let model = generate(n, 42);
    bencher.bench(|| analyse_and_plan(divan::black_box(&model), 3, true));
}

/// The what-if path with chain_length 3, pruning on and off.
#[divan::bench(args = [1_000, 10_000], sample_count = 10)]
fn plan_only_chain_length_3(bencher: divan::Bencher, n: usize) {
    let model = generate(n, 42);
    let an = analyse(&model, 3);
    bencher.bench(|| masked(divan::black_box(&model), &an, true));
}

#[divan::bench(args = [1_000, 10_000], sample_count = 10)]
fn plan_only_chain_length_3_no_prune(bencher: divan::Bencher, n: usize) {
    let model = generate(n, 42);
    let an = analyse(&model, 3);
    bencher.bench(|| masked(divan::black_box(&model), &an, false));
}
