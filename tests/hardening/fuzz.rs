//! §1. Fuzz regressions: inputs found by the targets in fuzz/.

use super::*;

/// Found by the `redact` fuzz target (fuzz/seeds/redact/nul-value): a masked value
/// that is a NUL character matched the NUL that joins the pieces of a batched search,
/// so a line of the leak check or a string of the manifest got another's hit. Since
/// matching reads the projection (SPEC §5), control characters read as nothing.
#[test]
fn a_masked_nul_value_is_searched_piece_by_piece() {
    use clam::redact::{MaskedEntity, Mode, Replacer};
    let r = Replacer::new(
        vec![MaskedEntity {
            id: "e0".into(),
            entity_type: "NAME".into(),
            normalized: "\0".into(),
            originals: vec!["\0".into()],
        }],
        Mode::Value,
        &clam::Schema::default(),
        b"fuzz key",
    );
    let pieces = ["P;", "", "x \0 y", "plain"];
    let each = r.find_each(&pieces);
    for (p, hits) in pieces.iter().zip(&each) {
        assert_eq!(hits, &r.find(p), "piece {p:?}");
    }
    assert!(each.iter().all(Vec::is_empty));
    // NUL is invisible: a value made of it reads as nothing and is never found.
    assert_eq!(r.replace("P;\nx \0 y\n"), "P;\nx \0 y\n");
}

#[test]
fn fuzz_seed_inputs_never_panic() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let dir = tempfile::tempdir().expect("tempdir");
    for f in files_under(&seeds.join("corpus_load")) {
        let bytes = std::fs::read(&f).expect("seed");
        for name in ["x.json", "x.jsonl", "x.txt"] {
            write(dir.path(), name, &bytes);
            let _ = clam::corpus::load(&dir.path().join(name), &Default::default());
        }
    }
    for f in files_under(&seeds.join("config_parse")) {
        let text = String::from_utf8_lossy(&std::fs::read(&f).expect("seed")).to_string();
        let _ = clam::config::ConfigLayer::from_toml(&text, "seed");
    }
    let mut buf = String::new();
    for f in files_under(&seeds.join("redact")) {
        buf.clear();
        std::fs::File::open(&f)
            .expect("seed")
            .read_to_string(&mut buf)
            .ok();
        let _ = clam::entity::spans::locate(&buf, "priya raman");
    }
    // The LLM response parser on the committed seeds: what it keeps is valid.
    let schema = clam::Schema::default();
    let mut parsed = 0;
    for f in files_under(&seeds.join("llm_response")) {
        let text = String::from_utf8_lossy(&std::fs::read(&f).expect("seed")).to_string();
        let Some(entries) = clam::extract::llm::validate::entities_of(&text) else {
            continue;
        };
        parsed += 1;
        let (items, dropped) = clam::extract::llm::validate::validate(&entries, &schema);
        assert_eq!(
            items.len() + dropped.total(),
            entries.len(),
            "{}",
            f.display()
        );
        for it in &items {
            assert!(schema.contains(&it.entity_type) && (0.0..=1.0).contains(&it.relevance));
            assert!(!it.original.is_empty() && it.original.trim() == it.original);
        }
    }
    assert!(parsed >= 3, "bare, fenced and embedded seeds parse");
}

#[path = "../../fuzz/fuzz_targets/corpus_config_check.rs"]
mod corpus_config_check;

/// The `corpus_config` target's check on its committed seeds (a stricter config, and
/// ones that try `..`, a link out, a device, relaxing the policy and `[llm]`).
#[test]
fn corpus_config_seeds_keep_the_untrusted_input_rules() {
    let seeds = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds/corpus_config");
    let files = files_under(&seeds);
    assert!(files.len() >= 6);
    for f in files {
        corpus_config_check::check(&std::fs::read(&f).expect("seed"));
    }
}
