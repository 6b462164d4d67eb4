//! Offline extractor throughput (SPEC §7, §9: several MB of text per second per core) on
//! a generated corpus of claim-like documents. Run with `cargo bench --bench extract`;
//! divan reports bytes per second.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use clam::entity::DateOrder;
use clam::extract::Extractor;
use clam::extract::offline::OfflineExtractor;

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
