//! Redaction throughput (SPEC §5, §9): the replacer over a generated corpus of
//! claim-like documents, every member's name, id, phone and birth date masked (about
//! 3,000 masked entities for 2 MB). Run with `cargo bench --bench redact`; divan reports
//! bytes per second. The same file, run on the commit before the text projection,
//! gives the "before" figures in the README.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test code: a panic is a failed test
use clam::redact::{MaskedEntity, Mode, Replacer};

#[path = "common/claims.rs"]
mod claims;
use claims::{FIRST, LAST, corpus};

fn main() {
    divan::main();
}

const BYTES: usize = 2 * 1024 * 1024;

/// The masked entities of the documents `corpus(BYTES)` makes (the same formulas).
fn masked(n: usize) -> Vec<MaskedEntity> {
    let mut out = Vec::new();
    for (f, first) in FIRST.iter().enumerate() {
        for last in LAST {
            let _ = f;
            out.push(MaskedEntity {
                id: format!("name-{first}-{last}"),
                entity_type: "NAME".into(),
                normalized: format!("{} {}", first.to_lowercase(), last.to_lowercase()),
                originals: vec![format!("{last}, {first}"), format!("Ms. {last}")],
            });
        }
    }
    for i in 0..n {
        let id = 400_000 + i * 7;
        out.push(MaskedEntity {
            id: format!("id-{i}"),
            entity_type: "PATIENT_ID".into(),
            normalized: format!("MBR{id:06}"),
            originals: vec![format!("MBR-{id:06}")],
        });
        let p = i % 10_000;
        out.push(MaskedEntity {
            id: format!("phone-{i}"),
            entity_type: "PHONE_NUMBER".into(),
            normalized: format!("555010{p:04}"),
            originals: vec![format!("(555) 010-{p:04}")],
        });
        let (m, d, y) = (1 + i % 12, 1 + i % 28, 40 + i % 50);
        out.push(MaskedEntity {
            id: format!("dob-{i}"),
            entity_type: "BIRTHDATE".into(),
            normalized: format!("19{y:02}-{m:02}-{d:02}"),
            originals: vec![format!("{m:02}/{d:02}/19{y:02}")],
        });
    }
    out
}

fn replacer(n: usize) -> Replacer {
    Replacer::new(
        masked(n),
        Mode::Value,
        &clam::Schema::default(),
        b"bench key",
    )
}

#[divan::bench(sample_count = 10)]
fn redact_one_core(bencher: divan::Bencher) {
    let docs = corpus(BYTES);
    let bytes: usize = docs.iter().map(|d| d.content.len()).sum();
    let r = replacer(docs.len());
    bencher
        .counter(divan::counter::BytesCount::new(bytes))
        .bench(|| {
            docs.iter()
                .map(|d| r.replace(&d.content).len())
                .sum::<usize>()
        });
}

#[divan::bench(sample_count = 10)]
fn build_the_replacer(bencher: divan::Bencher) {
    let n = corpus(BYTES).len();
    bencher.bench(|| replacer(n).entities().len());
}
