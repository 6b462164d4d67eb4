//! Span location and redaction on random text and random entity values (multi-byte
//! and combining characters included): never panics, spans are in bounds, and after
//! redaction no masked value remains as a whole-word, case-insensitive match.
#![no_main]

use arbitrary::Arbitrary;
use clam::Schema;
use clam::entity::normalize::{DateOrder, canonical};
use clam::entity::spans::{CharIndex, locate};
use clam::redact::{MaskedEntity, Mode, Replacer};
use libfuzzer_sys::fuzz_target;

const TYPES: [&str; 6] = [
    "NAME",
    "PHONE_NUMBER",
    "PATIENT_ID",
    "BIRTHDATE",
    "AGE",
    "MEDICAL_CONDITION",
];

/// Characters the fuzzer picks from besides its own: combining marks, case-changing
/// and multi-char-lowercase letters, zero-width and bidi controls.
const SPICE: [&str; 12] = [
    "\u{301}",
    "\u{308}",
    "İ",
    "ß",
    "ẞ",
    "Σς",
    "\u{200d}",
    "\u{202e}",
    "ﬃ",
    "Ⅷ",
    "e\u{301}",
    "\u{1F600}",
];

#[derive(Debug, Arbitrary)]
struct Input {
    text: Vec<Piece>,
    entities: Vec<(u8, Vec<Piece>)>,
    mode: u8,
}

#[derive(Debug, Arbitrary)]
enum Piece {
    Text(String),
    Spice(u8),
    Space,
}

fn build(pieces: &[Piece]) -> String {
    let mut s = String::new();
    for p in pieces {
        match p {
            Piece::Text(t) => s.push_str(t),
            Piece::Spice(i) => s.push_str(SPICE[*i as usize % SPICE.len()]),
            Piece::Space => s.push(' '),
        }
    }
    s
}

fuzz_target!(|input: Input| {
    let text = build(&input.text);
    let mode =
        [Mode::Redact, Mode::Value, Mode::Pseudonym, Mode::Generalize][input.mode as usize % 4];
    let entities: Vec<MaskedEntity> = input
        .entities
        .iter()
        .take(8)
        .enumerate()
        .map(|(i, (t, pieces))| {
            let value = build(pieces);
            let entity_type = TYPES[*t as usize % TYPES.len()].to_string();
            MaskedEntity {
                id: format!("e{i}"),
                normalized: canonical(&value, &entity_type, DateOrder::Mdy),
                entity_type,
                originals: vec![value],
            }
        })
        .collect();
    let chars = CharIndex::new(&text);
    for e in &entities {
        for s in locate(&text, &e.originals[0]) {
            assert!(chars.slice(&text, s).is_some(), "span {s:?} out of bounds");
        }
    }
    let replacer = Replacer::new(
        entities.clone(),
        mode,
        &Schema::default(),
        b"fuzz key",
    );
    for h in replacer.find(&text) {
        assert!(
            chars.slice(&text, h.span).is_some(),
            "hit {h:?} out of bounds"
        );
    }
    // Pieces searched together get exactly the hits each gets alone.
    let pieces: Vec<&str> = text.split(['\n', ' ']).collect();
    let each = replacer.find_each(&pieces);
    for (p, hits) in pieces.iter().zip(&each) {
        assert_eq!(hits, &replacer.find(p), "piece {p:?} of {text:?}");
    }
    let out = replacer.replace(&text);
    let replacements: Vec<String> = (0..entities.len())
        .map(|i| replacer.replacement(i).to_lowercase())
        .collect();
    for e in &entities {
        let value = &e.originals[0];
        let lower = value.to_lowercase();
        // A value that is (part of) a replacement text is legitimately found in it.
        if value.trim().is_empty()
            || lower.contains('[')
            || lower.contains(']')
            || replacements
                .iter()
                .any(|r| r.contains(lower.trim()) || lower.contains(r.as_str()))
            || (mode == Mode::Generalize
                && lower
                    .split_whitespace()
                    .any(|w| replacements.iter().any(|r| r.contains(w))))
        {
            continue;
        }
        assert!(
            locate(&out, value).is_empty(),
            "masked value {value:?} remains in {out:?} (input {text:?})"
        );
    }
});
