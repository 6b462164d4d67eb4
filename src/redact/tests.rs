//! Tests of the replacements and the redacted text.
use super::*;

use super::test_masked as masked;

fn with(entities: Vec<MaskedEntity>, mode: Mode, key: &[u8]) -> Replacer {
    Replacer::new(entities, mode, &Schema::default(), key)
}

fn replacer(mode: Mode) -> Replacer {
    with(
        vec![
            masked(
                "a1",
                "NAME",
                "priya raman",
                &["Priya Raman", "Raman, Priya", "Ms. Raman"],
            ),
            masked("b2", "BIRTHDATE", "1968-03-14", &["03/14/1968"]),
            masked("c3", "PATIENT_ID", "MBR448213", &["MBR-448213"]),
            masked("d4", "PHONE_NUMBER", "5550104417", &["(555) 010-4417"]),
        ],
        mode,
        b"project key",
    )
}

#[test]
fn replaces_originals_and_variants_corpus_wide() {
    let r = replacer(Mode::Value);
    let text = "Member RAMAN, PRIYA (mbr 448213), born 14 March 1968, call +1 555.010.4417. Priya Ramanujan is someone else.";
    assert_eq!(
        r.replace(text),
        "Member [NAME] ([PATIENT_ID]), born [BIRTHDATE], call [PHONE_NUMBER]. Priya Ramanujan is someone else."
    );
}

#[test]
fn leftmost_longest_and_multibyte() {
    let r = replacer(Mode::Redact);
    assert_eq!(
        r.replace("Zoë saw Ms. Raman — Priya Raman."),
        "Zoë saw [REDACTED] — [REDACTED]."
    );
}

#[test]
fn modes() {
    let text = "Priya Raman";
    // At the start of a text the phrase starts a sentence.
    assert_eq!(replacer(Mode::Generalize).replace(text), "A person");
    assert_eq!(
        replacer(Mode::Generalize).replace("Dear Ms. Raman, a Priya Raman wrote."),
        "Dear Sir or Madam, a person wrote."
    );
    let p = replacer(Mode::Pseudonym).replace(text);
    assert!(
        p.starts_with("[NAME_") && p.len() == "[NAME_]".len() + 12,
        "{p}"
    );
    assert_eq!(p, replacer(Mode::Pseudonym).replace("priya raman"));
    let other_key = with(
        vec![masked("a1", "NAME", "priya raman", &["Priya Raman"])],
        Mode::Pseudonym,
        b"another key",
    );
    assert_ne!(p, other_key.replace(text));
}

#[test]
fn overlapping_hits_include_values_inside_longer_ones() {
    let r = with(
        vec![
            masked(
                "h",
                "PROVIDER",
                "fenwick falls hospital",
                &["Fenwick Falls Hospital"],
            ),
            masked("l", "LOCATION", "fenwick falls", &["Fenwick Falls"]),
        ],
        Mode::Value,
        b"k",
    );
    let text = "Seen at Fenwick Falls Hospital.";
    assert_eq!(r.find(text).len(), 1);
    let all: Vec<(usize, usize, usize)> = r
        .find_overlapping(text)
        .iter()
        .map(|h| (h.entity, h.span.start, h.span.end))
        .collect();
    assert_eq!(all, vec![(0, 8, 30), (1, 8, 21)]);
}

#[test]
fn unrelated_numbers_survive() {
    let r = replacer(Mode::Value);
    let text = "Claim 03/15/1968, amount 5550104418, id MBR4482139.";
    assert_eq!(r.replace(text), text);
}

#[test]
fn a_masked_value_with_nul_never_matches_between_pieces() {
    // Found by the `redact` fuzz target: the value "\0" matched the separator of
    // the joined pieces.
    let r = with(vec![masked("n1", "NAME", "\0", &["\0"])], Mode::Value, b"k");
    let pieces = ["P;", "x", "a\0b"];
    let each = r.find_each(&pieces);
    for (p, hits) in pieces.iter().zip(&each) {
        assert_eq!(hits, &r.find(p), "piece {p:?}");
    }
}

#[test]
fn pieces_searched_together_give_each_piece_its_own_hits() {
    let r = replacer(Mode::Value);
    let pieces = [
        "Priya",
        "Raman called (555) 010-",
        "4417 about MBR-448213",
        "",
        "born 03/14/",
        "1968 — Zoë met Priya Raman",
        "\u{1b}[31mPriya Raman\u{1b}[0m",
        "tab\tPriya\u{200d} Raman° and mbr 448213",
        "0.5550104417",
        "Raman, Priya; Ms. Raman",
    ];
    let each = r.find_each(&pieces);
    for (p, hits) in pieces.iter().zip(&each) {
        assert_eq!(hits, &r.find(p), "piece {p:?}");
    }
    // Nothing is found across two pieces.
    assert!(each[0].is_empty() && each[1].is_empty() && each[2].len() == 1);
    let text = "Priya Raman\nMBR-448213 and\n(555) 010-4417\nnothing\n";
    assert_eq!(
        r.replace(text),
        "[NAME]\n[PATIENT_ID] and\n[PHONE_NUMBER]\nnothing\n"
    );
    let mut v =
        serde_json::json!({"a": ["Priya Raman", 3, {"b": "call (555) 010-4417"}], "c": "kept"});
    r.replace_json_in_place(&mut v);
    assert_eq!(
        v,
        serde_json::json!({"a": ["[NAME]", 3, {"b": "call [PHONE_NUMBER]"}], "c": "kept"})
    );
}

#[test]
fn a_name_run_together_is_found_even_when_a_word_of_it_is_a_street_suffix() {
    // "Cove", "Brooks", "Lane" are also USPS street suffixes, whose spellings the word
    // view makes one ("cv", "brks", "ln"); run together, the name is one token that is
    // no suffix, so the run-together needle must be made of the words as written.
    for name in ["Cove Babab", "Hannah Brooks", "Lane Park", "Edith Marlowe"] {
        let r = with(
            vec![masked("a1", "NAME", &name.to_lowercase(), &[name])],
            Mode::Redact,
            b"k",
        );
        let words: Vec<&str> = name.split(' ').collect();
        for joined in [words.concat(), format!("{}{}", words[1], words[0])] {
            let text = format!("Seen today: {joined}, again.");
            assert_eq!(
                r.replace(&text),
                "Seen today: [REDACTED], again.",
                "{joined}"
            );
        }
    }
}

#[test]
fn entities_sharing_a_written_form_get_one_pseudonym() {
    let key = b"project key";
    let r = with(
        vec![
            // Alone in one document ...
            masked("m2", "NAME", "m. keller", &["M. Keller"]),
            // ... and resolved to the full name in another (the extractor merged it).
            masked("m1", "NAME", "maria keller", &["Maria Keller", "M. Keller"]),
            // The national number's needle is p2's; "+1 …" is found as p1's longer one.
            masked("p2", "PHONE_NUMBER", "5550104417", &["555-010-4417"]),
            masked("p1", "PHONE_NUMBER", "+15550104417", &["+1 555-010-4417"]),
            masked("z9", "NAME", "zoe park", &["Zoe Park"]),
        ],
        Mode::Pseudonym,
        key,
    );
    let text = "Maria Keller; M. Keller; +1 555-010-4417; 555-010-4417; Zoe Park";
    let out = r.replace(text);
    let parts: Vec<&str> = out.split("; ").collect();
    // The group's pseudonym is that of its smallest entity id.
    let name = format!("[NAME_{}]", &pseudonym_hex(key, "m1")[..12]);
    let phone = format!("[PHONE_NUMBER_{}]", &pseudonym_hex(key, "p1")[..12]);
    assert_eq!(parts[..4], [&name, &name, &phone, &phone], "{out}");
    // An entity that shares nothing keeps its own.
    assert_eq!(
        parts[4],
        format!("[NAME_{}]", &pseudonym_hex(key, "z9")[..12])
    );
}

/// A CSV cell after a number and a comma ("1943,(555) 010-4417") is masked: the comma
/// parts two values unless a thousands group follows it ("1,075").
#[test]
fn a_value_after_a_comma_and_a_number_is_masked() {
    let r = replacer(Mode::Value);
    assert_eq!(
        r.replace("M-1,03/14/1968,(555) 010-4417\nX,1968-03-14,5550104417,MBR-448213"),
        "M-1,[BIRTHDATE],[PHONE_NUMBER]\nX,[BIRTHDATE],[PHONE_NUMBER],[PATIENT_ID]"
    );
    assert_eq!(
        r.replace("paid 1,555,010 in total"),
        "paid 1,555,010 in total"
    );
}

/// Needles are made a block of entities at a time: a written form two entities
/// share belongs to the first even when they are blocks apart, and the two share a
/// pseudonym.
#[test]
fn a_shared_form_belongs_to_the_first_entity_across_needle_blocks() {
    let mut entities = vec![masked("first", "NAME", "priya raman", &["Priya Raman"])];
    for i in 0..NEEDLE_BLOCK + 7 {
        let value = format!("filler{i} person");
        entities.push(masked(&format!("f{i}"), "NAME", &value, &[value.as_str()]));
    }
    entities.push(masked(
        "later",
        "NAME",
        "p raman",
        &["Priya Raman", "P. Raman"],
    ));
    let later = entities.len() - 1;
    let r = with(entities, Mode::Pseudonym, b"project key");
    let hits = r.find("Priya Raman");
    assert_eq!(hits.iter().map(|h| h.entity).collect::<Vec<_>>(), [0]);
    assert_eq!(r.find("P. Raman")[0].entity, later);
    assert_eq!(r.replace("P. Raman"), r.replace("Priya Raman"));
    assert_ne!(r.replace("filler3 person"), r.replace("Priya Raman"));
}
