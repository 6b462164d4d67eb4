//! Mentions, entities and masks against gold: the matcher of typed spans, entity recall, redaction recall.

use super::*;

/// Code points `start..end` of `text`, if in range.
pub(super) fn char_slice(text: &str, start: usize, end: usize) -> Option<String> {
    if end <= start {
        return None;
    }
    let s: String = text.chars().skip(start).take(end - start).collect();
    (s.chars().count() == end - start).then_some(s)
}

/// Every span of every extracted entity, typed by its entity.
pub(super) fn extracted_spans(store: &EntityStore) -> Vec<TypedSpan> {
    let mut out = Vec::new();
    for d in &store.docs {
        for e in &d.entities {
            let Some(k) = store.keys.get(&e.entity_id) else {
                continue;
            };
            out.extend(e.spans.iter().map(|s| TypedSpan {
                doc: d.doc_id.clone(),
                start: s.start,
                end: s.end,
                entity_type: k.entity_type.clone(),
            }));
        }
    }
    out
}

/// Type → normalized values of the extracted entities.
pub(super) fn entity_index(store: &EntityStore) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut m: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for k in store.keys.values() {
        m.entry(k.entity_type.as_str())
            .or_default()
            .insert(k.normalized.as_str());
    }
    m
}

pub(super) struct Matcher<'a> {
    index: BTreeMap<&'a str, BTreeSet<&'a str>>,
    config: &'a Config,
}

impl Matcher<'_> {
    fn typed<'f>(&self, forms: impl IntoIterator<Item = &'f str>, t: &str) -> bool {
        let Some(values) = self.index.get(t) else {
            return false;
        };
        forms.into_iter().any(|f| {
            self.canonical_forms(f, t)
                .iter()
                .any(|c| values.contains(c.as_str()))
        })
    }

    /// The gold value's canonical form under type `t`; a PROVIDER also as a name
    /// ("Dr. Anton Brevik" → "anton brevik"), since clam types clinicians as providers
    /// named without their title.
    fn canonical_forms(&self, f: &str, t: &str) -> Vec<String> {
        let mut out = vec![canonical(f, t, self.config.extraction.date_order)];
        if t == "PROVIDER" {
            out.push(canonical(f, "NAME", self.config.extraction.date_order));
        }
        out
    }

    fn any_type<'f>(&self, forms: impl IntoIterator<Item = &'f str> + Clone) -> bool {
        self.index.iter().any(|(t, values)| {
            forms.clone().into_iter().any(|f| {
                self.canonical_forms(f, t)
                    .iter()
                    .any(|c| values.contains(c.as_str()))
            })
        })
    }
}

pub(super) fn recall(found: usize, gold: usize) -> f64 {
    if gold == 0 {
        0.0
    } else {
        found as f64 / gold as f64
    }
}

/// The canonical text form used to compare redaction values.
pub(super) fn text_key(v: &str) -> String {
    canonical_text(&fold_basic(v))
}

pub(super) fn entity_eval(store: &EntityStore, config: &Config, gold: &Gold) -> EntityEval {
    let m = Matcher {
        index: entity_index(store),
        config,
    };
    let mut missed = Vec::new();
    let mut persons = EntityRecall::default();
    for c in &gold.clusters {
        for e in &c.persons {
            persons.gold += 1;
            let typed = m.typed(e.forms(), &e.entity_type);
            let any = typed || m.any_type(e.forms());
            persons.found += usize::from(typed);
            persons.found_any_type += usize::from(any);
            if !typed {
                missed.push(MissedEntity {
                    source: "person",
                    cluster: Some(c.id.clone()),
                    value: e.value.clone(),
                    entity_type: Some(e.entity_type.clone()),
                    other_type: any,
                });
            }
        }
    }
    persons.recall = recall(persons.found, persons.gold);
    persons.recall_any_type = recall(persons.found_any_type, persons.gold);
    let relevant = gold.relevant.as_ref().map(|lists| {
        let mut seen = BTreeSet::new();
        let mut r = EntityRecall::default();
        for (_, values) in lists {
            for v in values {
                if !seen.insert(text_key(v)) {
                    continue;
                }
                r.gold += 1;
                if m.any_type([v.as_str()]) {
                    r.found += 1;
                } else {
                    missed.push(MissedEntity {
                        source: "relevant",
                        cluster: None,
                        value: v.clone(),
                        entity_type: None,
                        other_type: false,
                    });
                }
            }
        }
        r.found_any_type = r.found;
        r.recall = recall(r.found, r.gold);
        r.recall_any_type = r.recall;
        r
    });
    let (g, f, fa) = match &relevant {
        Some(r) => (
            persons.gold + r.gold,
            persons.found + r.found,
            persons.found_any_type + r.found_any_type,
        ),
        None => (persons.gold, persons.found, persons.found_any_type),
    };
    EntityEval {
        recall: recall(f, g),
        recall_any_type: recall(fa, g),
        gold: g,
        found: f,
        found_any_type: fa,
        persons,
        relevant,
        missed,
    }
}

pub(super) fn redaction_eval(ws: &Workspace, values: &[String]) -> RedactionEval {
    let mut gold_keys: Vec<(String, &String)> = Vec::new();
    let mut seen = BTreeSet::new();
    for v in values {
        let k = text_key(v);
        if seen.insert(k.clone()) {
            gold_keys.push((k, v));
        }
    }
    let masked = ws.masked_entities();
    let mut masked_forms: BTreeSet<String> = BTreeSet::new();
    let mut extra = 0;
    for e in &masked {
        let forms: BTreeSet<String> = std::iter::once(&e.normalized)
            .chain(&e.originals)
            .map(|v| text_key(v))
            .collect();
        if forms.is_disjoint(&seen) {
            extra += 1;
        }
        masked_forms.extend(forms);
    }
    let missed: Vec<String> = gold_keys
        .iter()
        .filter(|(k, _)| !masked_forms.contains(k))
        .map(|(_, v)| (*v).clone())
        .collect();
    let matched = gold_keys.len() - missed.len();
    RedactionEval {
        recall: recall(matched, gold_keys.len()),
        extra,
        gold: gold_keys.len(),
        matched,
        masked: masked.len(),
        missed,
    }
}
