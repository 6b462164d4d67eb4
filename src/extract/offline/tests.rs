//! Tests of the extractor as a whole: the relevance table against the recognizers'
//! rows, the registry, configuration extensions, overlaps, spans, determinism,
//! hostile input and the development set. Each family's own tests sit at the bottom
//! of its module and use the helpers here.

use std::collections::BTreeMap;

use super::gazetteer::Gazetteer;
use super::recognizer::{Context, Relevance};
use super::text::Folded;
use super::*;

pub(super) fn ex() -> OfflineExtractor {
    OfflineExtractor::new(DateOrder::Mdy)
}

pub(super) fn run(text: &str) -> Vec<ExtractedItem> {
    ex().extract(&Document::new("t", text)).expect("extract")
}

pub(super) fn find<'a>(
    items: &'a [ExtractedItem],
    ty: &str,
    original: &str,
) -> Option<&'a ExtractedItem> {
    items
        .iter()
        .find(|i| i.entity_type == ty && i.original == original)
}

pub(super) fn has(items: &[ExtractedItem], ty: &str, original: &str) -> bool {
    find(items, ty, original).is_some()
}

pub(super) fn char_slice(text: &str, span: Span) -> String {
    text.chars()
        .skip(span.start)
        .take(span.end - span.start)
        .collect()
}

/// The relevance table's rows as the registry declares them, in registry order.
fn declared_table() -> Vec<String> {
    let mut rows = Vec::new();
    for entry in registry() {
        let recognizer = entry.expect("patterns compile");
        for row in recognizer.relevances() {
            let relevance = match row.relevance {
                Relevance::Fixed(r) => format!("{r:?}"),
                Relevance::Kept => "kept".to_string(),
            };
            rows.push(format!(
                "| `{}` | {} | {} | {relevance} |",
                recognizer.name(),
                row.matches,
                row.entity_type
            ));
        }
    }
    rows
}

/// The table in this module's documentation is the registry's rows: same recognizer,
/// words, type and relevance, same order, none missing, none extra.
#[test]
fn relevance_table_matches_the_declared_rows() {
    let source = include_str!("mod.rs");
    let documented: Vec<&str> = source
        .lines()
        .filter_map(|l| l.strip_prefix("//! "))
        .filter(|l| l.starts_with('|'))
        .skip(2) // header and separator
        .collect();
    let declared = declared_table();
    let missing: Vec<&String> = declared
        .iter()
        .filter(|r| !documented.contains(&r.as_str()))
        .collect();
    let extra: Vec<&&str> = documented
        .iter()
        .filter(|r| !declared.contains(&(**r).to_string()))
        .collect();
    assert!(
        documented == declared,
        "the relevance table in offline/mod.rs differs from the recognizers' rows\n\
         declared, not in the table: {missing:#?}\n\
         in the table, not declared: {extra:#?}\n\
         (or the order differs) — the rows they declare, in registry order:\n{}",
        declared
            .iter()
            .map(|r| format!("//! {r}"))
            .collect::<Vec<_>>()
            .join("\n")
    );
    for row in &declared {
        assert_eq!(row.matches(" | ").count(), 3, "a `|` inside a cell: {row}");
    }
}

#[test]
fn registry_names_are_unique_and_every_recognizer_runs() {
    let names: Vec<&str> = registry()
        .into_iter()
        .map(|e| e.expect("patterns compile").name())
        .collect();
    let unique: BTreeSet<&str> = names.iter().copied().collect();
    assert_eq!(unique.len(), names.len(), "{names:?}");
    assert_eq!(ex().recognizers.len(), names.len());
}

/// Every candidate a recognizer adds has the type and relevance of one of its rows,
/// every retyping goes to the type of one of its `kept` rows, and every row's type and
/// relevance occur in some text below.
#[test]
fn recognizers_give_their_declared_rows() {
    let texts = [
        "Member Name: Marisol Quintero-Hale    DOB: 1979-08-22    Member ID: MBR-448213\n\
         Re: Member M. Quintero-Hale, claim no. CLM-2024-00917.\nSubject: Escalation – repeat \
         fault, TCK-558201\n\
         Hi, this is Marisol Quintero-Hale (mquintero.hale@example.com, phone (555) 010-4417, \
         cell 5035550121). Thanks,\nMarisol",
        "A 54-year-old man seen 04/02/2024 at 1187 Larkspur Lane, Fenwick Falls, OR 97321 \
         and 2260 West Alder St by Dr. Elise Varga and patient Rex Marin. Visit by Harriet \
         Lindqvist, RN. Therapist: Owen Castellanos, PT. Ms. Raman called; Claimant: Priya Raman.",
        "Seen at Bayshore Oncology Associates near Willow Creek; market in Millbrook. \
         Injured in a fall from a picking ladder before the Lakeshore Triathlon. She is the \
         only such case in the state registry.",
        "Patients with lumbar degenerative disc disease received aquatic therapy. Diagnosis: \
         scleroderma. Started glatiramer acetate and physiotherapy, then group therapy. She is a retired teacher \
         and Hispanic. Moved to Chicago.",
        "Claim submitted for Harold Brennan (PR-1234-567). Later Harold Brennan wrote. Tomasz \
         Wierzbickiq attended. Thanks to Lindqvist Castellanos. KELLER, Maria called. Ines C. \
         called. She started Zelvatrin-4 under ORX-311 via NorthGate. Mantle cell lymphoma, treated with \
         abciximab; acalculia noted. Moved from Rotterdam.",
        "She is fifty-two years old. Card 4111 1111 1111 1111, SSN 123-45-6789, refund to GB33 BUKB 2020 1555 5555 55, \
         vehicle reg. KP19 XWE. Log the hours against EMP65911.",
        "Thandolwethu Mabuzane in bay 2 is stable; Thandolwethu Mabuzane went home.",
        "Helga Mayor moved away.",
        "| Member | ID | Phone | E-mail | Home address | DOB |\n|---|---|---|---|---|---|\n\
         | Min Xiang | 4869381319 | 7902843467 | mx@example.org | 4 Elm Row, Leith | 03/02/1961 |",
        "Jacobs v Van Bragt [2021] EWHC 1432 concerned a fall; Mrs North (née Strand) agreed. \
         Ming He wrote back.",
        "To: Mr Grégoire Moreau, 12 Mill Lane, Leeds\nOur ref: MBE/MOREAU/0417",
    ];
    let recognizers: Vec<Box<dyn Recognizer>> = registry()
        .into_iter()
        .map(|e| e.expect("patterns compile"))
        .collect();
    let gazetteer = Gazetteer::build(&ExtractConfig::default()).expect("gazetteer builds");
    let mut used: BTreeSet<(&str, &str, String)> = BTreeSet::new();
    let key = |r: &dyn Recognizer, ty: &'static str, relevance: Relevance| {
        (r.name(), ty, format!("{relevance:?}"))
    };
    for text in texts {
        let folded = Folded::new(text);
        let ctx = Context {
            text,
            folded: &folded,
            date_order: DateOrder::Mdy,
            gazetteer: Some(&gazetteer),
        };
        let mut cands: Vec<Candidate> = Vec::new();
        for r in &recognizers {
            let types_before: Vec<&str> = cands.iter().map(|c| c.ty).collect();
            r.recognize(&ctx, &mut cands);
            let rows = r.relevances();
            for (c, before) in cands.iter().zip(&types_before) {
                if c.ty != *before {
                    assert!(
                        rows.iter()
                            .any(|row| row.relevance == Relevance::Kept && row.entity_type == c.ty),
                        "{} retyped {c:?}",
                        r.name()
                    );
                    used.insert(key(r.as_ref(), c.ty, Relevance::Kept));
                }
            }
            for c in &cands[types_before.len()..] {
                let relevance = Relevance::Fixed(c.relevance);
                assert!(
                    rows.iter()
                        .any(|row| row.entity_type == c.ty && row.relevance == relevance),
                    "{} gave an undeclared {c:?}",
                    r.name()
                );
                used.insert(key(r.as_ref(), c.ty, relevance));
            }
        }
    }
    for r in &recognizers {
        for row in r.relevances() {
            assert!(
                used.contains(&key(r.as_ref(), row.entity_type, row.relevance)),
                "{}: no text above gives the row {:?}",
                r.name(),
                row.matches
            );
        }
    }
}

/// A name all of English words is kept by the extractor when its cue is one only a
/// person takes, and dropped otherwise. (Names invented.)
#[test]
fn a_name_of_english_words_needs_a_cue_only_a_person_takes() {
    let items = run("Dear Hope Hills,\n\nYour claim is approved.");
    assert!(has(&items, "NAME", "Hope Hills"), "{items:?}");
    let items = run("voicemail left for Kong, Na on 555-0101.");
    assert!(has(&items, "NAME", "Kong, Na"), "{items:?}");
    let items = run("Thanks to Grace Park for the venue.");
    assert!(!items.iter().any(|i| i.entity_type == "NAME"), "{items:?}");
}

#[test]
fn patterns_compile() {
    assert_eq!(OfflineExtractor::pattern_error(), None);
    assert!(ex().gazetteer.is_some());
    assert_eq!(ex().name(), "offline");
}

#[test]
fn configured_terms_allow_and_deny_lists() {
    let mut config = Config::default();
    config
        .extract
        .gazetteer_terms
        .insert("TREATMENT".into(), vec!["Zyntheril".into()]);
    config.extract.allow = vec!["Fenwick Falls Community Hospital".into()];
    config
        .extract
        .deny
        .insert("NAME".into(), vec!["jo public".into()]);
    let ex = OfflineExtractor::from_config(&config);
    let items = ex.extract_text(
        "Jo Public started zyntheril at Fenwick Falls Community Hospital; \
         Bayshore Oncology Associates agreed.",
    );
    let jo = find(&items, "NAME", "Jo Public").expect("deny list");
    assert_eq!(jo.relevance, 1.0);
    assert!(has(&items, "TREATMENT", "zyntheril"), "{items:?}");
    assert!(
        !items.iter().any(|i| i.original.contains("Fenwick")),
        "allowed value extracted: {items:?}"
    );
    assert!(has(&items, "PROVIDER", "Bayshore Oncology Associates"));
    // Without the configuration none of this happens.
    let plain = run("Jo Public started zyntheril at Fenwick Falls Community Hospital.");
    assert!(!has(&plain, "NAME", "Jo Public") && !has(&plain, "TREATMENT", "zyntheril"));
    assert!(has(&plain, "PROVIDER", "Fenwick Falls Community Hospital"));
}

#[test]
fn a_type_the_schema_declares_is_extracted_from_the_lists() {
    let mut config = Config::default();
    config
        .extract
        .deny
        .insert("SHOE_SIZE".into(), vec!["EU 43 wide".into()]);
    config
        .extract
        .gazetteer_terms
        .insert("SHOE_SIZE".into(), vec!["Trailblazer insole".into()]);
    let ex = OfflineExtractor::from_config(&config);
    let items = ex.extract_text("Boots in eu 43 wide with the TRAILBLAZER insole for Jo.");
    let denied = find(&items, "SHOE_SIZE", "eu 43 wide").expect("deny list");
    assert_eq!(denied.relevance, 1.0);
    let term = find(&items, "SHOE_SIZE", "TRAILBLAZER insole").expect("configured term");
    assert_eq!(term.relevance, 0.9);
}

#[test]
fn multibyte_text_gives_code_point_spans() {
    let text = "Zoë Müller — Dr. Elise Varga";
    let items = run(text);
    let d = find(&items, "PROVIDER", "Dr. Elise Varga").expect("name");
    assert_eq!(d.spans, vec![Span { start: 13, end: 28 }]);
    assert_eq!(char_slice(text, d.spans[0]), "Dr. Elise Varga");
}

#[test]
fn spans_never_overlap_and_output_is_sorted() {
    let text = "Member: Rosalind Tiernan (MMH-602-33158), rosie.tiernan@example.org, \
                414-555-0182, 42 Gannet Row, Port Calder, ME 04652, seen 07/28/2024 at \
                St. Brennan's Women's Hospital by Dr. Miriam Oduya for triplet pregnancy.";
    let items = run(text);
    let mut spans: Vec<Span> = items.iter().flat_map(|i| i.spans.clone()).collect();
    spans.sort();
    for w in spans.windows(2) {
        assert!(w[0].end <= w[1].start, "overlap {:?} {:?}", w[0], w[1]);
    }
    let firsts: Vec<usize> = items.iter().map(|i| i.spans[0].start).collect();
    assert!(firsts.windows(2).all(|w| w[0] <= w[1]));
    for i in &items {
        for s in &i.spans {
            assert_eq!(char_slice(text, *s), i.original);
        }
    }
}

#[test]
fn deterministic() {
    let text = "Patient: Quintero-Hale, Marisol    DOB: 1979-08-22    Member No.: MMH44820917\n\
                Ms. Quintero-Hale, an orchard manager, has a left distal radius fracture.";
    let a = run(text);
    for _ in 0..3 {
        assert_eq!(run(text), a);
    }
}

/// Pathological inputs finish and give sane output. The bound is on input size
/// (megabytes of hostile text), not on wall time; a super-linear path would turn
/// this test into minutes and fail CI's time limit.
#[test]
fn pathological_inputs_finish() {
    // A 10 MB document on one line.
    let unit = "Patient Rex Marin paid $12.50 on 2024-01-02 at Bayshore Oncology Associates; ";
    let reps = 10_000_000 / unit.len() + 1;
    let big = unit.repeat(reps);
    let items = run(&big);
    let name = find(&items, "NAME", "Rex Marin").expect("name");
    assert_eq!(name.spans.len(), reps);
    let provider = find(&items, "PROVIDER", "Bayshore Oncology Associates").expect("provider");
    assert_eq!(provider.spans.len(), reps);
    // 100k repeated tokens of every shape the patterns start on.
    for token in [
        "Hospital ",
        "Mary ",
        "Dr. ",
        "12345 ",
        "MRN ",
        "born ",
        "St. ",
        "disease ",
    ] {
        let text = token.repeat(100_000);
        let items = run(&text);
        assert!(
            items.iter().map(|i| i.spans.len()).sum::<usize>() <= 100_000,
            "{token}"
        );
    }
    // Deeply repeated punctuation and separators.
    for unit in ["(", "-", ".", "@", "#-", "'", ", ", "/", "\u{a0}"] {
        let text = unit.repeat(1_000_000 / unit.len());
        assert!(run(&text).is_empty(), "{unit:?}");
    }
}

#[test]
fn unicode_text_never_panics_and_keeps_code_point_spans() {
    let text = "Dr.\u{a0}Zoë Müller-Lüdenscheidt saw Ñuño Pérez. \
                שלום עולם مرحبا بالعالم — patient Renée O'Brien, \
                phone 555\u{a0}010\u{a0}4417, 👩‍⚕️ e\u{301}te\u{301} ﷽ \u{200f}\u{202e}abc";
    let items = run(text);
    for i in &items {
        for sp in &i.spans {
            assert_eq!(char_slice(text, *sp), i.original, "{i:?}");
        }
    }
    assert!(
        has(&items, "PROVIDER", "Dr.\u{a0}Zoë Müller-Lüdenscheidt"),
        "{items:?}"
    );
    assert!(has(&items, "NAME", "Renée O'Brien"), "{items:?}");
    // Right-to-left scripts, emoji sequences and lone combining marks alone.
    for t in [
        "שלום עולם",
        "مرحبا بالعالم 2024-01-02",
        "\u{301}\u{301}",
        "👩‍⚕️👩‍⚕️",
        "\u{202e}",
    ] {
        let _ = run(t);
    }
}

/// Runs over the development corpus: every span must equal its original; prints a
/// mention-level recall against `mentions.jsonl` (exact span + type, and overlap
/// with the same type).
#[test]
fn devset_spans_and_recall() {
    use std::collections::HashMap;
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/devset");
    let Ok(dir) = std::fs::read_dir(root.join("corpus")) else {
        println!("devset not found at {}; skipping", root.display());
        return;
    };
    let extractor = ex();
    let mut docs: Vec<(String, String)> = Vec::new();
    for entry in dir.flatten() {
        let Ok(raw) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        let Ok(v) = serde_json::from_str::<serde_json::Value>(&raw) else {
            continue;
        };
        let id = v["id"].as_str().unwrap_or_default().to_string();
        let content = v["content"].as_str().unwrap_or_default().to_string();
        docs.push((id, content));
    }
    docs.sort();
    let mut by_doc: HashMap<String, Vec<ExtractedItem>> = HashMap::new();
    let mut bytes = 0usize;
    let started = std::time::Instant::now();
    for (id, content) in &docs {
        bytes += content.len();
        let items = extractor
            .extract(&Document::new(id.clone(), content.clone()))
            .expect("extract");
        for i in &items {
            for s in &i.spans {
                assert_eq!(char_slice(content, *s), i.original, "{id}: {i:?}");
            }
        }
        by_doc.insert(id.clone(), items);
    }
    let elapsed = started.elapsed();
    let big: String = docs
        .iter()
        .map(|(_, c)| c.as_str())
        .collect::<Vec<_>>()
        .join("\n\n")
        .repeat(20);
    let _warm = extractor.extract_text(&big);
    let t = std::time::Instant::now();
    let n = extractor.extract_text(&big).len();
    let secs = t.elapsed().as_secs_f64();
    println!(
        "throughput: {} bytes in one document, {n} items, {secs:.3}s = {:.2} MB/s (this build)",
        big.len(),
        big.len() as f64 / secs / 1e6
    );
    let Ok(mentions) = std::fs::read_to_string(root.join("mentions.jsonl")) else {
        println!("mentions.jsonl not found; skipping recall");
        return;
    };
    let mut per_type: BTreeMap<String, (usize, usize, usize)> = BTreeMap::new();
    let (mut total, mut exact, mut overlap, mut any_type) = (0, 0, 0, 0);
    let mut missed = Vec::new();
    let mut gold_spans: HashMap<String, Vec<(usize, usize)>> = HashMap::new();
    for line in mentions.lines().filter(|l| !l.trim().is_empty()) {
        let Ok(m) = serde_json::from_str::<serde_json::Value>(line) else {
            continue;
        };
        let doc = m["doc"].as_str().unwrap_or_default();
        let ty = m["type"].as_str().unwrap_or_default();
        let (s, e) = (
            m["start"].as_u64().unwrap_or(0) as usize,
            m["end"].as_u64().unwrap_or(0) as usize,
        );
        let items = by_doc.get(doc).map(Vec::as_slice).unwrap_or(&[]);
        let same: Vec<Span> = items
            .iter()
            .filter(|i| i.entity_type == ty)
            .flat_map(|i| i.spans.clone())
            .collect();
        let is_exact = same.iter().any(|sp| sp.start == s && sp.end == e);
        let is_overlap = same.iter().any(|sp| sp.start < e && s < sp.end);
        any_type += usize::from(
            items
                .iter()
                .flat_map(|i| i.spans.iter())
                .any(|sp| sp.start < e && s < sp.end),
        );
        total += 1;
        exact += usize::from(is_exact);
        overlap += usize::from(is_overlap);
        let t = per_type.entry(ty.to_string()).or_default();
        t.0 += 1;
        t.1 += usize::from(is_exact);
        t.2 += usize::from(is_overlap);
        if !is_exact {
            let how = if is_overlap { "partial" } else { "missed" };
            missed.push(format!(
                "{how}: {doc} {ty} {:?}",
                m["text"].as_str().unwrap_or("")
            ));
        }
        gold_spans.entry(doc.to_string()).or_default().push((s, e));
    }
    let emitted: usize = by_doc.values().flatten().map(|i| i.spans.len()).sum();
    println!(
        "devset: {} docs, {bytes} bytes in {elapsed:?}; {emitted} spans emitted",
        docs.len()
    );
    println!(
        "mention recall: exact {exact}/{total} = {:.3}, overlap {overlap}/{total} = {:.3}",
        exact as f64 / total.max(1) as f64,
        overlap as f64 / total.max(1) as f64
    );
    println!(
        "span recall ignoring type: overlap {any_type}/{total} = {:.3}",
        any_type as f64 / total.max(1) as f64
    );
    for (ty, (n, e, o)) in &per_type {
        println!("  {ty:<20} {n:>3}  exact {e:>3}  overlap {o:>3}");
    }
    for m in &missed {
        println!("  {m}");
    }
    let mut unmatched = Vec::new();
    for (id, items) in &by_doc {
        let gold = gold_spans.get(id).map(Vec::as_slice).unwrap_or(&[]);
        for i in items {
            for sp in &i.spans {
                if !gold.iter().any(|&(s, e)| sp.start < e && s < sp.end) {
                    unmatched.push(format!("{id} {} {:?}", i.entity_type, i.original));
                }
            }
        }
    }
    unmatched.sort();
    println!(
        "emitted spans overlapping no gold mention: {}",
        unmatched.len()
    );
    for u in &unmatched {
        println!("  extra: {u}");
    }
}
