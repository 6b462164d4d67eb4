//! Offline extractor throughput (SPEC §7, §9: several MB of text per second per core, on
//! every core) on a generated corpus of claim-like documents: the recognizers on one
//! core, the same on every core (as `clam extract` runs them), and the whole extraction
//! on every core (recognizers, context pass, entity store). Run with `cargo bench --bench
//! extract` (`RAYON_NUM_THREADS` sets the cores of the last two); divan reports bytes
//! per second. `scripts/extract_speed.sh` times whole `clam extract` runs.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use clam::corpus::Corpus;
use clam::entity::DateOrder;
use clam::extract::Extractor;
use clam::extract::offline::OfflineExtractor;
use clam::progress::Silent;

fn main() {
    divan::main();
}

#[path = "common/claims.rs"]
mod claims;
use claims::corpus;

#[divan::bench(sample_count = 10)]
fn offline_extractor_one_core(bencher: divan::Bencher) {
    let docs = corpus(2 * 1024 * 1024);
    let bytes: usize = docs.iter().map(|d| d.content.len()).sum();
    let extractor = OfflineExtractor::new(DateOrder::Mdy);
    bencher
        .counter(divan::counter::BytesCount::new(bytes))
        .bench(|| {
            docs.iter()
                .map(|d| extractor.extract(d).map_or(0, |items| items.len()))
                .sum::<usize>()
        });
}

/// The recognizers over every document on every core, in corpus order
/// (`workspace::extract_documents`, what `clam extract` runs).
#[divan::bench(sample_count = 10)]
fn offline_extractor_all_cores(bencher: divan::Bencher) {
    let corpus = Corpus {
        documents: corpus(2 * 1024 * 1024),
        ..Corpus::default()
    };
    let bytes: usize = corpus.documents.iter().map(|d| d.content.len()).sum();
    let extractor = OfflineExtractor::new(DateOrder::Mdy);
    bencher
        .counter(divan::counter::BytesCount::new(bytes))
        .bench(|| clam::workspace::extract_documents(&corpus, &extractor, &Silent).len());
}

/// The whole extraction on every core: recognizers, the context pass and the entity
/// store (`workspace::extract_all`).
#[divan::bench(sample_count = 10)]
fn extract_all_all_cores(bencher: divan::Bencher) {
    let corpus = Corpus {
        documents: corpus(2 * 1024 * 1024),
        ..Corpus::default()
    };
    let bytes: usize = corpus.documents.iter().map(|d| d.content.len()).sum();
    let config = clam::Config::default();
    let extractor = OfflineExtractor::from_config(&config);
    bencher
        .counter(divan::counter::BytesCount::new(bytes))
        .bench(|| {
            clam::workspace::extract_all(&corpus, &config, &extractor)
                .keys
                .len()
        });
}
