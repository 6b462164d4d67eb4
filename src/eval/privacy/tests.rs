//! Tests of the privacy and utility evaluation.
use super::*;
use crate::eval::gold::{GoldCluster, GoldEntity, GoldFormat, GoldQuestion};

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

fn entity(value: &str, t: &str, variants: &[&str]) -> GoldEntity {
    GoldEntity {
        value: value.into(),
        entity_type: t.into(),
        variants: variants.iter().map(|v| v.to_string()).collect(),
    }
}

fn question(kind: &str, answer: &str, sources: &[&str]) -> GoldQuestion {
    GoldQuestion {
        question: String::new(),
        answer: answer.into(),
        sources: sources.iter().map(|s| s.to_string()).collect(),
        kind: kind.into(),
    }
}

fn cluster(
    id: &str,
    risk: Option<RiskCategory>,
    docs: &[&str],
    persons: Vec<GoldEntity>,
    questions: Vec<GoldQuestion>,
) -> GoldCluster {
    GoldCluster {
        id: id.into(),
        docs: docs.iter().map(|d| d.to_string()).collect(),
        persons,
        risk,
        questions,
    }
}

fn gold(clusters: Vec<GoldCluster>) -> Gold {
    Gold {
        format: GoldFormat::Devset,
        source: "gold.json".into(),
        clusters,
        chains: None,
        relevant: None,
        redaction: None,
        mentions: None,
        mentions_file: None,
        notes: vec![],
    }
}

fn docs() -> Vec<Document> {
    vec![
        Document::new(
            "a",
            "Patient Priya Raman (MBR-448213) was seen on 03/14/2024 in Port Calder.",
        ),
        Document::new("b", "Raman, Priya called from Port Calder about the claim."),
        Document::new(
            "c",
            "Skateboarders are treated at Fenwick Falls Community Hospital.",
        ),
    ]
}

use crate::redact::test_masked as masked;

fn replacer(entities: Vec<MaskedEntity>) -> Replacer {
    Replacer::new(entities, Mode::Value, &Schema::default(), b"key")
}

fn evaluator() -> PrivacyEvaluator {
    let g = gold(vec![
        cluster(
            "c1",
            Some(RiskCategory::High),
            &["a", "b", "z"],
            vec![
                entity("Priya Raman", "NAME", &["Raman, Priya"]),
                entity("MBR-448213", "PATIENT_ID", &[]),
                // Written 03/14/2024 in the text: found by its shape.
                entity("March 14, 2024", "EVENT_DATE", &[]),
                entity("Port Calder", "LOCATION", &[]),
                // In no document: never leaked, but in the denominator.
                entity("glass-blower", "INDIRECT_IDENTIFIER", &[]),
            ],
            vec![
                question("specific", "Priya Raman was seen on 03/14/2024.", &["a"]),
                question("General", "Port Calder, Port Calder", &["a", "b"]),
                question("specific", "Unknown", &["z"]),
                // One source listed twice is a single-source question; "calder"
                // three times in the answer, once in the source: clipped to 1/3.
                question("general", "calder calder calder", &["a", "a"]),
            ],
        ),
        cluster(
            "c2",
            Some(RiskCategory::Low),
            &["c"],
            vec![
                entity("Fenwick Falls", "LOCATION", &[]),
                entity("Fenwick Falls Community Hospital", "PROVIDER", &[]),
            ],
            vec![],
        ),
        cluster(
            "c3",
            Some(RiskCategory::Medium),
            &["b"],
            vec![entity("port calder", "LOCATION", &[])],
            vec![],
        ),
    ]);
    PrivacyEvaluator::from_parts(&docs(), &Schema::default(), DateOrder::Mdy, &g)
}

#[test]
fn leak_rate_weights_variants_shapes_and_thresholds() {
    let ev = evaluator();
    // The name is masked as written in a and, family name first, in b (the
    // redactor reads names both ways); the member id is masked; the date and the
    // place are kept.
    let r = replacer(vec![
        masked("n", "NAME", "priya raman", &["Priya Raman"]),
        masked("i", "PATIENT_ID", "MBR448213", &["MBR-448213"]),
    ]);
    let p = ev.privacy(&r);
    let c1 = &p.by_cluster[0];
    assert_eq!((c1.documents, c1.missing_documents, c1.entities), (2, 1, 5));
    // Leaked EVENT_DATE 0.60 (other written form), LOCATION 0.55 of NAME 1.00 +
    // PATIENT_ID 0.95 + 0.60 + 0.55 + INDIRECT_IDENTIFIER 0.70.
    let rate = c1.leak_rate.expect("rate");
    assert!(close(rate, 1.15 / 3.80), "{rate}");
    let leaked: Vec<&str> = c1
        .leaked_entities
        .iter()
        .map(|e| e.value.as_str())
        .collect();
    assert_eq!(leaked, vec!["March 14, 2024", "Port Calder"]);
    // HIGH needs > 0.6.
    assert!(!c1.leaked);
    // LOW: the place inside the hospital's name is found too; rate 1, never leaked.
    let c2 = &p.by_cluster[1];
    assert_eq!(c2.leak_rate, Some(1.0));
    assert_eq!(c2.leaked_entities.len(), 2);
    assert!(!c2.leaked);
    // MEDIUM at 1.0 > 0.8: leaked.
    assert!(p.by_cluster[2].leaked);
    // Overall: mean over HIGH and MEDIUM only.
    assert_eq!((p.rated_clusters, p.leaked_clusters), (2, 1));
    assert!(close(
        p.leak_rate.expect("overall"),
        (1.15 / 3.80 + 1.0) / 2.0
    ));

    // Masking the variant too leaves the date and the place: (0.60 + 0.55) / 3.80.
    let r = replacer(vec![
        masked("n", "NAME", "priya raman", &["Priya Raman", "Raman, Priya"]),
        masked("i", "PATIENT_ID", "MBR448213", &["MBR-448213"]),
        masked("p", "LOCATION", "port calder", &["Port Calder"]),
    ]);
    let p = ev.privacy(&r);
    assert!(close(p.by_cluster[0].leak_rate.expect("rate"), 0.60 / 3.80));
    assert_eq!(p.by_cluster[2].leak_rate, Some(0.0));
    assert_eq!(p.leaked_clusters, 0);
    // Nothing masked: everything present leaks; HIGH 3.10 / 3.80 > 0.6.
    let p = ev.privacy(&replacer(vec![]));
    assert!(close(p.by_cluster[0].leak_rate.expect("rate"), 3.10 / 3.80));
    assert!(p.by_cluster[0].leaked);
    assert_eq!(p.leaked_clusters, 2);
}

const WORDS: &[&str] = &["ann", "lee", "port", "calder", "falls", "x1", "cat", "of"];
const PTYPES: &[&str] = &["LOCATION", "NAME", "TREATMENT"];

fn phrase(ws: &[usize]) -> String {
    ws.iter().map(|&w| WORDS[w]).collect::<Vec<_>>().join(" ")
}

proptest::proptest! {
    /// Leak rates stay in [0, 1]; masking never leaks more than no masking; masking
    /// every gold form leaks nothing; overlapping hits include the selected ones.
    #[test]
    fn leak_rate_bounds(
        texts in proptest::collection::vec(proptest::collection::vec(0..WORDS.len(), 0..14), 1..4),
        persons in proptest::collection::vec((proptest::collection::vec(0..WORDS.len(), 1..3), 0..PTYPES.len()), 1..6),
        masked_mask in proptest::collection::vec(proptest::bool::ANY, 6),
    ) {
        let docs: Vec<Document> = texts
            .iter()
            .enumerate()
            .map(|(i, t)| Document::new(format!("d{i}"), phrase(t)))
            .collect();
        let ids: Vec<String> = docs.iter().map(|d| d.id.clone()).collect();
        let ents: Vec<GoldEntity> = persons
            .iter()
            .map(|(w, t)| entity(&phrase(w), PTYPES[*t], &[]))
            .collect();
        let g = gold(vec![GoldCluster {
            id: "c".into(),
            docs: ids,
            persons: ents.clone(),
            risk: Some(RiskCategory::High),
            questions: vec![],
        }]);
        let ev = PrivacyEvaluator::from_parts(&docs, &Schema::default(), DateOrder::Mdy, &g);
        let to_mask = |keep: &dyn Fn(usize) -> bool| -> Vec<MaskedEntity> {
            ents.iter()
                .enumerate()
                .filter(|(i, _)| keep(*i))
                .map(|(i, e)| masked(&i.to_string(), &e.entity_type, &e.value, &[&e.value]))
                .collect()
        };
        let none = ev.privacy(&replacer(vec![])).leak_rate.unwrap_or(0.0);
        let some = ev
            .privacy(&replacer(to_mask(&|i| masked_mask[i])))
            .leak_rate
            .unwrap_or(0.0);
        let all = ev.privacy(&replacer(to_mask(&|_| true))).leak_rate.unwrap_or(0.0);
        proptest::prop_assert!((0.0..=1.0).contains(&none));
        proptest::prop_assert!((0.0..=1.0).contains(&some));
        proptest::prop_assert!(some <= none + 1e-12, "{} > {}", some, none);
        proptest::prop_assert_eq!(all, 0.0);
        let r = replacer(to_mask(&|i| masked_mask[i]));
        for d in &docs {
            let every = r.find_overlapping(&d.content);
            for h in r.find(&d.content) {
                proptest::prop_assert!(every.contains(&h));
            }
        }
    }

    /// ROUGE-1 recall is in [0, 1], 1 against the answer itself, and never falls
    /// when a source document is added.
    #[test]
    fn rouge1_bounds(
        answer in proptest::collection::vec(0..WORDS.len(), 1..8),
        a in proptest::collection::vec(0..WORDS.len(), 0..12),
        b in proptest::collection::vec(0..WORDS.len(), 0..12),
    ) {
        let ans = phrase(&answer);
        let (a, b) = (phrase(&a), phrase(&b));
        let one = rouge1_recall(&ans, &[&a]).unwrap_or(-1.0);
        let two = rouge1_recall(&ans, &[&a, &b]).unwrap_or(-1.0);
        proptest::prop_assert!((0.0..=1.0).contains(&one));
        proptest::prop_assert!(two >= one);
        proptest::prop_assert_eq!(rouge1_recall(&ans, &[&ans]), Some(1.0));
    }
}

#[test]
fn leaked_thresholds() {
    use RiskCategory::{High, Low, Medium};
    assert!(!is_leaked(Some(High), 0.6));
    assert!(is_leaked(Some(High), 0.6001));
    assert!(!is_leaked(Some(Medium), 0.8));
    assert!(!is_leaked(Some(Medium), 0.7));
    assert!(is_leaked(Some(Medium), 0.81));
    assert!(!is_leaked(Some(Low), 1.0));
    assert!(!is_leaked(None, 1.0));
}

#[test]
fn rouge1_recall_clips_repeated_tokens() {
    // Reference: the ×2, cat, and, hat = 5 tokens.
    let r = |c: &[&str]| rouge1_recall("The cat and THE hat.", c).expect("tokens");
    assert!(close(r(&["the cat"]), 2.0 / 5.0));
    assert!(close(r(&["the cat the the the"]), 3.0 / 5.0));
    // Several candidates count together.
    assert!(close(r(&["the", "The hat and cat"]), 1.0));
    assert!(close(r(&[]), 0.0));
    assert_eq!(rouge1_recall("—, !", &["x"]), None);
    let t: Vec<String> = tokens("Zoë's X-ray, ORIF [NAME_ab12] 3 Sep").collect();
    assert_eq!(
        t,
        vec!["zoë", "s", "x", "ray", "orif", "name", "ab12", "3", "sep"]
    );
}

#[test]
fn question_types_and_utility_means() {
    assert_eq!(
        QuestionType::of("Specific", 1),
        Some(QuestionType::SpecificSingle)
    );
    assert_eq!(
        QuestionType::of("specific", 3),
        Some(QuestionType::SpecificMulti)
    );
    assert_eq!(
        QuestionType::of(" general ", 1),
        Some(QuestionType::GeneralSingle)
    );
    assert_eq!(
        QuestionType::of("general", 2),
        Some(QuestionType::GeneralMulti)
    );
    assert_eq!(QuestionType::of("general", 0), None);
    assert_eq!(QuestionType::of("yes/no", 1), None);
    let ev = evaluator();
    let r = replacer(vec![
        masked("n", "NAME", "priya raman", &["Priya Raman"]),
        masked("i", "PATIENT_ID", "MBR448213", &["MBR-448213"]),
    ]);
    let u = ev.utility(&r);
    // "Priya Raman was seen on 03/14/2024." against "Patient [NAME] ([PATIENT_ID])
    // was seen on 03/14/2024 in Port Calder.": was seen on 03 14 2024 = 6 of 8.
    assert_eq!(u.means.specific_single, Some(0.75));
    assert_eq!(u.means.general_multi, Some(1.0));
    assert!(close(u.means.general_single.expect("mean"), 1.0 / 3.0));
    assert_eq!(u.means.specific_multi, None);
    assert_eq!(u.questions.general_single, 1);
    assert_eq!(u.skipped.len(), 1);
    assert!(u.skipped[0].reason.contains('z'), "{:?}", u.skipped);
    let json = serde_json::to_value(u.means).expect("json");
    assert_eq!(json["specific/single"], 0.75);
    assert!(json["specific/multi"].is_null());
    // measure() redacts once for both.
    let (p, u2) = ev.measure(&r);
    assert_eq!(u2, u);
    assert_eq!(p, ev.privacy(&r));
}
