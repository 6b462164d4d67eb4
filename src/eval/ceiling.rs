//! The ceiling: the same analysis and plan on the gold mentions or entities instead of the extracted ones.

use super::*;

/// The hidden persons' entities of the clusters `doc` belongs to.
pub(super) fn doc_persons<'g>(doc: &Document, gold: &'g Gold) -> Vec<&'g GoldEntity> {
    gold.clusters
        .iter()
        .filter(|c| c.docs.contains(&doc.id))
        .flat_map(|c| &c.persons)
        .collect()
}

/// The gold mentions as extracted items: relevance 1.0, their own span, and a
/// hidden-person mention normalized to its gold entity's value (so the ceiling also
/// links the variants the gold links).
pub fn gold_items(doc: &Document, mentions: &[&GoldMention], gold: &Gold) -> Vec<ExtractedItem> {
    let persons = doc_persons(doc, gold);
    mentions
        .iter()
        .filter_map(|m| {
            let original = char_slice(&doc.content, m.start, m.end)?;
            let normalized = if m.person {
                persons
                    .iter()
                    .find(|e| {
                        e.entity_type == m.entity_type
                            && e.forms().any(|f| f == original || f == m.text)
                    })
                    .map(|e| e.value.clone())
                    .unwrap_or_default()
            } else {
                String::new()
            };
            Some(ExtractedItem {
                original,
                normalized,
                entity_type: m.entity_type.clone(),
                relevance: 1.0,
                spans: vec![Span {
                    start: m.start,
                    end: m.end,
                }],
            })
        })
        .collect()
}

/// The thesis's per-document `entities` as extracted items: relevance 1.0, the type of
/// the hidden person's entity with that value when there is one (the thesis lists
/// values untyped), otherwise UNIQUE_FACT; located in the text like any item.
pub fn gold_entity_items(doc: &Document, values: &[String], gold: &Gold) -> Vec<ExtractedItem> {
    let persons = doc_persons(doc, gold);
    values
        .iter()
        .map(|v| {
            let entity_type = persons
                .iter()
                .find(|e| e.forms().any(|f| f.eq_ignore_ascii_case(v)))
                .map_or_else(|| "UNIQUE_FACT".to_string(), |e| e.entity_type.clone());
            ExtractedItem {
                original: v.clone(),
                normalized: String::new(),
                entity_type,
                relevance: 1.0,
                spans: Vec::new(),
            }
        })
        .collect()
}

pub(super) fn ceiling(
    ws: &Workspace,
    gold: &Gold,
    clusters: &BTreeMap<&str, &str>,
) -> Option<Ceiling> {
    let docs = &ws.corpus().documents;
    let (source, items): (&str, Vec<Vec<ExtractedItem>>) = if let Some(mentions) = &gold.mentions {
        let mut by_doc: BTreeMap<&str, Vec<&GoldMention>> = BTreeMap::new();
        for m in mentions {
            by_doc.entry(m.doc.as_str()).or_default().push(m);
        }
        let items = docs
            .iter()
            .map(|d| {
                let ms = by_doc.get(d.id.as_str()).map_or(&[][..], Vec::as_slice);
                gold_items(d, ms, gold)
            })
            .collect();
        ("gold mentions", items)
    } else if let Some(relevant) = &gold.relevant {
        let by_doc: BTreeMap<&str, &Vec<String>> =
            relevant.iter().map(|(d, v)| (d.as_str(), v)).collect();
        let items = docs
            .iter()
            .map(|d| {
                let values = by_doc.get(d.id.as_str()).map_or(&[][..], |v| v.as_slice());
                gold_entity_items(d, values, gold)
            })
            .collect();
        ("gold entities", items)
    } else {
        return None;
    };
    let store = EntityStore::from_document_items(
        docs,
        &items,
        &ws.config().schema,
        ws.config().extraction.date_order,
    );
    let model = Model::from_store(&store, &ws.config().schema);
    let an = Analysis::new(&model, &ws.config().analysis_params());
    let (chains, edges) = chain_eval(&model, &an, ws.config(), gold, clusters);
    Some(Ceiling {
        source,
        entities: model.entities.len(),
        chains,
        edges,
    })
}
