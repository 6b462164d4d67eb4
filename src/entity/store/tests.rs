//! Tests of the entity store.
use super::*;

fn item(original: &str, t: &str, rel: f64) -> ExtractedItem {
    ExtractedItem {
        original: original.into(),
        normalized: String::new(),
        entity_type: t.into(),
        relevance: rel,
        spans: vec![],
    }
}

fn store_of(texts: &[&str], items: &[Vec<ExtractedItem>]) -> (EntityStore, Vec<Document>) {
    let docs: Vec<Document> = texts
        .iter()
        .enumerate()
        .map(|(i, t)| Document::new(format!("d{i}"), *t))
        .collect();
    let mut store = EntityStore::with_documents(&docs);
    for (i, its) in items.iter().enumerate() {
        store.set_document_items(i, &docs[i], its, &Schema::default(), DateOrder::Mdy);
    }
    (store, docs)
}

#[test]
fn variants_meet_and_higher_relevance_wins() {
    let (store, _) = store_of(
        &["DOB 03/14/1968, again 1968-03-14", "born March 14, 1968"],
        &[
            vec![
                item("03/14/1968", "BIRTHDATE", 0.6),
                item("1968-03-14", "BIRTHDATE", 0.9),
            ],
            vec![item("March 14, 1968", "BIRTHDATE", 0.8)],
        ],
    );
    let g = store.globals();
    assert_eq!(g.len(), 1);
    let e = g.values().next().expect("one entity");
    assert_eq!(e.normalized, "1968-03-14");
    assert_eq!(e.docs, vec![0, 1]);
    assert_eq!(e.mentions, 3);
    assert_eq!(e.originals.len(), 3);
    assert_eq!(store.docs[0].entities[0].relevance, 0.9);
    assert_eq!(e.id, entity_id("1968-03-14", "BIRTHDATE"));
}

#[test]
fn many_spans_in_a_large_document_are_checked_in_linear_time() {
    // 1 MB on one line with 50,000 mentions: checking each span by walking the text
    // from its start would take minutes; a char index takes milliseconds.
    let unit = "Zoë saw MBR-1001 today. ";
    let reps = 1_000_000 / unit.len();
    let text = unit.repeat(reps);
    let doc = Document::new("big", text.clone());
    let per = unit.chars().count();
    let spans: Vec<Span> = (0..50_000)
        .map(|k| Span {
            start: k * per + 8,
            end: k * per + 16,
        })
        .collect();
    let item = ExtractedItem {
        original: "MBR-1001".into(),
        normalized: String::new(),
        entity_type: "PATIENT_ID".into(),
        relevance: 0.9,
        spans,
    };
    let mut store = EntityStore::with_documents(std::slice::from_ref(&doc));
    store.set_document_items(0, &doc, &[item], &Schema::default(), DateOrder::Mdy);
    // Spans past the end of the text are dropped, the others all kept.
    assert_eq!(store.docs[0].entities[0].mentions, reps as u64);
}

#[test]
fn unlocated_and_invalid_items_are_dropped_and_counted() {
    let (store, _) = store_of(
        &["Jane Doe called."],
        &[vec![
            item("Jane Doe", "NAME", 0.9),
            item("John Smith", "NAME", 0.9),
            item("Jane", "FAVOURITE_COLOUR", 0.5),
            item("Jane", "NAME", 1.5),
        ]],
    );
    assert_eq!(store.docs[0].entities.len(), 1);
    assert_eq!(store.docs[0].unlocated, 1);
    assert_eq!(store.docs[0].invalid, 2);
}

#[test]
fn edits_add_remove_merge_retype() {
    let (mut store, docs) = store_of(
        &["Dr. Elise Varga met Dr Varga.", "Dr Varga again"],
        &[vec![item("Dr. Elise Varga", "NAME", 0.8)], vec![]],
    );
    let schema = Schema::default();
    let full = entity_id("elise varga", "NAME");
    let short = store
        .add_entity(
            0,
            &docs[0],
            Span { start: 20, end: 28 },
            "NAME",
            None,
            &schema,
            DateOrder::Mdy,
        )
        .expect("add");
    assert_eq!(short, entity_id("varga", "NAME"));
    store
        .add_entity(
            1,
            &docs[1],
            Span { start: 0, end: 8 },
            "NAME",
            Some(0.5),
            &schema,
            DateOrder::Mdy,
        )
        .expect("add in second doc");
    store.merge(&short, &full).expect("merge");
    let g = store.globals();
    assert_eq!(g.len(), 1);
    assert_eq!(g[&full].docs, vec![0, 1]);
    assert_eq!(store.docs[0].entities[0].relevance, 1.0);

    let new_id = store.retype(&full, "PROVIDER", &schema).expect("retype");
    assert_eq!(new_id, entity_id("elise varga", "PROVIDER"));
    assert!(store.globals().contains_key(&new_id));

    store
        .remove_entity(&new_id, Some(0))
        .expect("remove in doc 0");
    assert_eq!(store.globals()[&new_id].docs, vec![1]);
    store
        .remove_entity(&new_id, None)
        .expect("remove everywhere");
    assert!(store.globals().is_empty());
    assert!(matches!(
        store.remove_entity(&new_id, None),
        Err(EditError::UnknownEntity(_))
    ));
}
