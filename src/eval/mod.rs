//! Evaluation against gold (SPEC §10): chain precision / recall / F1 of the chains
//! flagged ≥ MEDIUM on the unmasked corpus (as document pairs, thesis Table 5.1, and
//! as exact document sets), intra- vs inter-cluster kept edges, mention precision /
//! recall / F1 per type (exact and overlapping spans), gold-entity recall, the
//! proposed masks against the thesis's `redaction` list, and the "ceiling": the same
//! analysis run on the gold mentions instead of the extractor's entities.

pub mod gold;
pub mod metrics;
pub mod privacy;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Serialize;

pub use gold::{ChainComparison, compare_chains};
pub use gold::{
    Gold, GoldCluster, GoldEntity, GoldError, GoldFormat, GoldMention, GoldQuestion, load,
};
pub use metrics::{MentionReport, MentionScores, Prf, TypedSpan};
pub use privacy::{
    Baseline, ByQuestionType, MaskProbe, PrivacyEvaluator, PrivacyReport, QuestionType,
    UtilityReport,
};

use crate::analysis::{Analysis, Model};
use crate::config::Config;
use crate::corpus::Document;
use crate::entity::EntityStore;
use crate::entity::normalize::{canonical, canonical_text, fold_basic};
use crate::entity::{ExtractedItem, Span};
use crate::workspace::Workspace;

/// What was compared against.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GoldSummary {
    pub format: GoldFormat,
    pub file: String,
    pub mentions_file: Option<String>,
    pub clusters: usize,
    /// Distinct gold chains (document sets).
    pub gold_chains: Option<usize>,
    pub gold_pairs: Option<usize>,
    pub mentions: Option<usize>,
    /// Questions listed with the clusters.
    pub questions: usize,
}

/// The analysis settings the figures depend on.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Settings {
    pub edge_threshold: f64,
    pub chain_length: usize,
    pub risk_medium: f64,
    pub risk_high: f64,
    /// The redaction mode the privacy and utility figures were measured with.
    pub redaction: crate::redact::Mode,
}

/// Document pairs by cluster relation.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ClusterCounts {
    pub total: usize,
    /// Both documents in the same cluster.
    pub intra: usize,
    /// Documents of two different clusters.
    pub inter: usize,
    /// At least one document in no cluster (distractors).
    pub outside: usize,
}

/// Chain detection against the gold chains.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ChainEval {
    /// Flagged chains' document pairs vs the gold chains' pairs.
    pub pairs: Prf,
    /// Flagged chains' document sets vs the gold chains' sets.
    pub exact: Prf,
    /// Chains over kept edges.
    pub chains: usize,
    /// Chains with `risk_initial` ≥ risk_medium.
    pub flagged: usize,
    /// The flagged chains' pairs by cluster relation (when clusters are known).
    pub flagged_pairs: Option<ClusterCounts>,
}

/// Recall of gold entities among the extracted entities.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct EntityRecall {
    pub gold: usize,
    /// Found with the same canonical form and type (untyped gold values: any type).
    pub found: usize,
    pub recall: f64,
    /// Found with the same canonical form under any type.
    pub found_any_type: usize,
    pub recall_any_type: f64,
}

/// A gold entity no extracted entity matches.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MissedEntity {
    pub source: &'static str,
    pub cluster: Option<String>,
    pub value: String,
    #[serde(rename = "type")]
    pub entity_type: Option<String>,
    /// Found, but under another type.
    pub other_type: bool,
}

/// Gold-entity recall: persons (devset `person.entities`, thesis `files/`) and the
/// thesis's `entities` lists ("relevant"), pooled and separately.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EntityEval {
    pub recall: f64,
    pub recall_any_type: f64,
    pub gold: usize,
    pub found: usize,
    pub found_any_type: usize,
    pub persons: EntityRecall,
    pub relevant: Option<EntityRecall>,
    pub missed: Vec<MissedEntity>,
}

/// The proposed masks against the thesis's `redaction` list.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RedactionEval {
    /// Share of gold redaction values matched by a masked entity's original or
    /// normalized value (canonical text form: case-insensitive, whitespace collapsed).
    pub recall: f64,
    /// Masked entities matching no gold redaction value.
    pub extra: usize,
    pub gold: usize,
    pub matched: usize,
    pub masked: usize,
    pub missed: Vec<String>,
}

/// The analysis on the gold annotation instead of the extractor's entities: the
/// devset's mentions, or the thesis's per-document `entities`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ceiling {
    /// "gold mentions" or "gold entities".
    pub source: &'static str,
    pub entities: usize,
    pub chains: Option<ChainEval>,
    pub edges: Option<ClusterCounts>,
}

/// Everything `clam eval` reports.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalReport {
    pub gold: GoldSummary,
    pub settings: Settings,
    pub documents: usize,
    pub skipped_documents: usize,
    pub chains: Option<ChainEval>,
    /// Kept edges by cluster relation (when clusters are known).
    pub edges: Option<ClusterCounts>,
    pub mentions: Option<MentionReport>,
    pub entities: EntityEval,
    pub redaction: Option<RedactionEval>,
    pub ceiling: Option<Ceiling>,
    /// Person leak rate after redaction (when the gold has persons).
    pub privacy: Option<PrivacyReport>,
    /// ROUGE-1 recall per question type (when the gold has questions).
    pub utility: Option<ByQuestionType<Option<f64>>>,
    /// Questions behind `utility`: counts per type, per-question recall, skipped ones.
    pub utility_questions: Option<UtilityQuestions>,
    /// `clam eval --baselines`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub baselines: Option<Vec<Baseline>>,
    pub notes: Vec<String>,
}

/// The questions behind the utility figures.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UtilityQuestions {
    pub evaluated: ByQuestionType<usize>,
    pub skipped: usize,
    pub by_question: Vec<privacy::QuestionScore>,
    pub skipped_questions: Vec<privacy::SkippedQuestion>,
}

/// Key of the replacer when no session (and so no project key) is open: it only shapes
/// pseudonyms, which neither figure depends on.
pub const EVAL_KEY: &[u8] = b"clam eval";

/// Document id → cluster id.
fn cluster_map(gold: &Gold) -> BTreeMap<&str, &str> {
    let mut m = BTreeMap::new();
    for c in &gold.clusters {
        for d in &c.docs {
            m.insert(d.as_str(), c.id.as_str());
        }
    }
    m
}

fn count_pairs<'a>(
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    clusters: &BTreeMap<&str, &str>,
) -> ClusterCounts {
    let mut c = ClusterCounts::default();
    for (a, b) in pairs {
        c.total += 1;
        match (clusters.get(a), clusters.get(b)) {
            (Some(x), Some(y)) if x == y => c.intra += 1,
            (Some(_), Some(_)) => c.inter += 1,
            _ => c.outside += 1,
        }
    }
    c
}

fn chain_eval(
    model: &Model,
    an: &Analysis,
    config: &Config,
    gold: &Gold,
    clusters: &BTreeMap<&str, &str>,
) -> (Option<ChainEval>, Option<ClusterCounts>) {
    let edges = (!clusters.is_empty()).then(|| {
        count_pairs(
            an.edges.iter().map(|e| {
                (
                    model.docs[e.a as usize].id.as_str(),
                    model.docs[e.b as usize].id.as_str(),
                )
            }),
            clusters,
        )
    });
    let Some(gold_chains) = &gold.chains else {
        return (None, edges);
    };
    let flagged = an.flagged_chains(model, config.plan.risk_high, config.plan.risk_medium);
    let predicted_pairs = metrics::pairs_of(&flagged);
    let eval = ChainEval {
        pairs: Prf::of_sets(&predicted_pairs, &metrics::pairs_of(gold_chains)),
        exact: Prf::of_sets(
            &metrics::doc_sets(&flagged),
            &metrics::doc_sets(gold_chains),
        ),
        chains: an.chains.len(),
        flagged: flagged.len(),
        flagged_pairs: (!clusters.is_empty()).then(|| {
            count_pairs(
                predicted_pairs
                    .iter()
                    .map(|(a, b)| (a.as_str(), b.as_str())),
                clusters,
            )
        }),
    };
    (Some(eval), edges)
}

/// Code points `start..end` of `text`, if in range.
fn char_slice(text: &str, start: usize, end: usize) -> Option<String> {
    if end <= start {
        return None;
    }
    let s: String = text.chars().skip(start).take(end - start).collect();
    (s.chars().count() == end - start).then_some(s)
}

/// Every span of every extracted entity, typed by its entity.
fn extracted_spans(store: &EntityStore) -> Vec<TypedSpan> {
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
fn entity_index(store: &EntityStore) -> BTreeMap<&str, BTreeSet<&str>> {
    let mut m: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for k in store.keys.values() {
        m.entry(k.entity_type.as_str())
            .or_default()
            .insert(k.normalized.as_str());
    }
    m
}

struct Matcher<'a> {
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
        let mut out = vec![canonical(f, t, self.config.date_order)];
        if t == "PROVIDER" {
            out.push(canonical(f, "NAME", self.config.date_order));
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

fn recall(found: usize, gold: usize) -> f64 {
    if gold == 0 {
        0.0
    } else {
        found as f64 / gold as f64
    }
}

/// The canonical text form used to compare redaction values.
fn text_key(v: &str) -> String {
    canonical_text(&fold_basic(v))
}

fn entity_eval(store: &EntityStore, config: &Config, gold: &Gold) -> EntityEval {
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

fn redaction_eval(ws: &Workspace, values: &[String]) -> RedactionEval {
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

/// The hidden persons' entities of the clusters `doc` belongs to.
fn doc_persons<'g>(doc: &Document, gold: &'g Gold) -> Vec<&'g GoldEntity> {
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

fn ceiling(ws: &Workspace, gold: &Gold, clusters: &BTreeMap<&str, &str>) -> Option<Ceiling> {
    let docs = &ws.corpus.documents;
    let mut store = EntityStore::with_documents(docs);
    let source = if let Some(mentions) = &gold.mentions {
        let mut by_doc: BTreeMap<&str, Vec<&GoldMention>> = BTreeMap::new();
        for m in mentions {
            by_doc.entry(m.doc.as_str()).or_default().push(m);
        }
        for (i, d) in docs.iter().enumerate() {
            let ms = by_doc.get(d.id.as_str()).map_or(&[][..], Vec::as_slice);
            let items = gold_items(d, ms, gold);
            store.set_document_items(i, d, &items, &ws.config.schema, ws.config.date_order);
        }
        "gold mentions"
    } else if let Some(relevant) = &gold.relevant {
        let by_doc: BTreeMap<&str, &Vec<String>> =
            relevant.iter().map(|(d, v)| (d.as_str(), v)).collect();
        for (i, d) in docs.iter().enumerate() {
            let values = by_doc.get(d.id.as_str()).map_or(&[][..], |v| v.as_slice());
            let items = gold_entity_items(d, values, gold);
            store.set_document_items(i, d, &items, &ws.config.schema, ws.config.date_order);
        }
        "gold entities"
    } else {
        return None;
    };
    let model = Model::from_store(&store, &ws.config.schema);
    let an = Analysis::new(&model, &ws.config.analysis_params());
    let (chains, edges) = chain_eval(&model, &an, &ws.config, gold, clusters);
    Some(Ceiling {
        source,
        entities: model.entities.len(),
        chains,
        edges,
    })
}

/// Evaluates a workspace (corpus extracted, analysed and planned) against gold.
pub fn evaluate(ws: &Workspace, gold: &Gold) -> EvalReport {
    evaluate_with(ws, gold, EVAL_KEY, false)
}

/// [`evaluate`], redacting with `project_key` (pseudonym mode), and with the baselines
/// when `baselines` is set.
pub fn evaluate_with(
    ws: &Workspace,
    gold: &Gold,
    project_key: &[u8],
    baselines: bool,
) -> EvalReport {
    let clusters = cluster_map(gold);
    let mut notes = gold.notes.clone();
    let corpus_ids: BTreeSet<&str> = ws.corpus.documents.iter().map(|d| d.id.as_str()).collect();
    let mut named: BTreeSet<&str> = clusters.keys().copied().collect();
    for c in gold.chains.iter().flatten() {
        named.extend(c.iter().map(String::as_str));
    }
    let absent: Vec<&str> = named
        .into_iter()
        .filter(|d| !corpus_ids.contains(d))
        .collect();
    if !absent.is_empty() {
        let shown: Vec<&str> = absent.iter().take(5).copied().collect();
        notes.push(format!(
            "{} document(s) named by the gold are not in the corpus ({}{}); they count as missed",
            absent.len(),
            shown.join(", "),
            if absent.len() > shown.len() {
                ", …"
            } else {
                ""
            }
        ));
    }
    if let Some(c) = &gold.chains {
        let distinct = metrics::doc_sets(c).len();
        if distinct < c.len() {
            notes.push(format!(
                "the gold lists {} chains, {distinct} of them distinct document sets; duplicates count once",
                c.len()
            ));
        }
    }
    let (chains, edges) = chain_eval(&ws.model, &ws.analysis, &ws.config, gold, &clusters);
    let mentions = gold.mentions.as_ref().map(|ms| {
        let content: BTreeMap<&str, &str> = ws
            .corpus
            .documents
            .iter()
            .map(|d| (d.id.as_str(), d.content.as_str()))
            .collect();
        let mismatched: Vec<&GoldMention> = ms
            .iter()
            .filter(|m| {
                content.get(m.doc.as_str()).is_some_and(|c| {
                    char_slice(c, m.start, m.end).is_none_or(|s| !m.text.is_empty() && s != m.text)
                })
            })
            .collect();
        if let Some(m) = mismatched.first() {
            notes.push(format!(
                "{} gold mention(s) do not match the document text (first: line {}, {} {}..{})",
                mismatched.len(),
                m.line,
                m.doc,
                m.start,
                m.end
            ));
        }
        let gold_spans: Vec<TypedSpan> = ms
            .iter()
            .map(|m| TypedSpan {
                doc: m.doc.clone(),
                start: m.start,
                end: m.end,
                entity_type: m.entity_type.clone(),
            })
            .collect();
        metrics::mention_scores(&extracted_spans(&ws.store), &gold_spans)
    });
    let redaction = gold.redaction.as_ref().map(|r| redaction_eval(ws, r));
    let ceiling = ceiling(ws, gold, &clusters);
    if chains.as_ref().is_some_and(|c| {
        c.pairs.undefined.contains(&"precision") || c.exact.undefined.contains(&"precision")
    }) {
        notes.push("no chain was flagged: chain precision is 0/0, reported as 0.0".into());
    }
    if mentions
        .as_ref()
        .is_some_and(|m| m.by_type.values().any(|s| !s.exact.undefined.is_empty()))
    {
        notes.push(
            "mention types with no predicted (or no gold) span have precision (or recall) 0/0, reported as 0.0 and marked *".into(),
        );
    }
    let ev = PrivacyEvaluator::new(ws, gold);
    let (privacy, utility) = ev.measure(&ws.replacer(project_key));
    if let Some(p) = ev.has_persons().then_some(&privacy) {
        let missing: usize = p.by_cluster.iter().map(|c| c.missing_documents).sum();
        if missing > 0 {
            notes.push(format!(
                "{missing} cluster document(s) are not in the corpus: leak rates cover the present ones"
            ));
        }
        if p.by_cluster.iter().any(|c| c.risk.is_none()) {
            notes.push(
                "clusters without a risk level are never flagged as leaked and not in the overall leak rate".into(),
            );
        }
    }
    if !utility.skipped.is_empty() {
        notes.push(format!(
            "{} question(s) skipped by the utility proxy (listed in --json)",
            utility.skipped.len()
        ));
    }
    let baselines = baselines.then(|| privacy::baselines(ws, &ev, project_key));
    let has_questions = ev.has_questions();
    EvalReport {
        gold: GoldSummary {
            format: gold.format,
            file: gold.source.display().to_string(),
            mentions_file: gold.mentions_file.as_ref().map(|p| p.display().to_string()),
            clusters: gold.clusters.len(),
            gold_chains: gold.chains.as_ref().map(|c| metrics::doc_sets(c).len()),
            gold_pairs: gold.chains.as_ref().map(|c| metrics::pairs_of(c).len()),
            mentions: gold.mentions.as_ref().map(Vec::len),
            questions: gold.clusters.iter().map(|c| c.questions.len()).sum(),
        },
        settings: Settings {
            edge_threshold: ws.config.analysis.edge_threshold,
            chain_length: ws.config.analysis.chain_length,
            risk_medium: ws.config.plan.risk_medium,
            risk_high: ws.config.plan.risk_high,
            redaction: ws.config.redaction,
        },
        documents: ws.corpus.documents.len(),
        skipped_documents: ws.corpus.diagnostics.len(),
        chains,
        edges,
        mentions,
        entities: entity_eval(&ws.store, &ws.config, gold),
        redaction,
        ceiling,
        privacy: ev.has_persons().then_some(privacy),
        utility: has_questions.then_some(utility.means),
        utility_questions: has_questions.then_some(UtilityQuestions {
            evaluated: utility.questions,
            skipped: utility.skipped.len(),
            by_question: utility.by_question,
            skipped_questions: utility.skipped,
        }),
        baselines,
        notes,
    }
}

/// Missed gold entities listed in the table (all of them are in the JSON).
const MISSED_SHOWN: usize = 25;

fn num(x: f64, undefined: bool) -> String {
    format!("{x:.3}{}", if undefined { "*" } else { " " })
}

fn prf_row(label: &str, p: &Prf) -> String {
    format!(
        "  {label:<34} {} {} {} {:>5} {:>5} {:>5}\n",
        num(p.precision, p.undefined.contains(&"precision")),
        num(p.recall, p.undefined.contains(&"recall")),
        num(p.f1, false),
        p.tp,
        p.fp,
        p.fn_
    )
}

fn counts_text(c: &ClusterCounts) -> String {
    format!(
        "{} (intra-cluster {}, inter-cluster {}, touching unclustered documents {})",
        c.total, c.intra, c.inter, c.outside
    )
}

/// Text from gold files is never printed raw: controls and bidirectional marks become
/// visible escapes ([`crate::display::escape_line`], the one sanitizer).
fn safe(s: &str) -> String {
    crate::display::escape_line(s)
}

/// Leaked entities listed per cluster in the table (all of them are in the JSON).
const LEAKED_SHOWN: usize = 6;

/// Clusters listed in the privacy table; leaked clusters beyond them are listed too.
const CLUSTERS_SHOWN: usize = 50;

fn opt(x: Option<f64>) -> String {
    x.map_or_else(|| "  —  ".to_string(), |x| format!("{x:.3}"))
}

fn privacy_table(p: &PrivacyReport, mode: crate::redact::Mode) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "\nPRIVACY gold person entities still found in the redacted documents ({} mode)\n  weighted leak rate per cluster; leaked = HIGH > {} or MEDIUM > {}",
        mode.as_str(),
        privacy::LEAKED_HIGH,
        privacy::LEAKED_MEDIUM
    );
    let _ = writeln!(
        o,
        "  {:<16} {:<7} {:>5} {:>8} {:>5}  {:<7} leaked entities",
        "cluster", "risk", "docs", "entities", "rate", "leaked"
    );
    let mut hidden = 0;
    for (i, c) in p.by_cluster.iter().enumerate() {
        if i >= CLUSTERS_SHOWN && !c.leaked {
            hidden += 1;
            continue;
        }
        let list: Vec<String> = c
            .leaked_entities
            .iter()
            .map(|e| format!("{}:{}", e.entity_type, safe(&e.value)))
            .collect();
        let more = list.len().saturating_sub(LEAKED_SHOWN);
        let _ = writeln!(
            o,
            "  {:<16} {:<7} {:>5} {:>8} {}  {:<7} {}{}",
            safe(&c.id),
            c.risk.map_or("—", |r| r.as_str()),
            if c.missing_documents > 0 {
                format!("{}/{}", c.documents, c.documents + c.missing_documents)
            } else {
                c.documents.to_string()
            },
            c.entities,
            opt(c.leak_rate),
            if c.leaked { "LEAKED" } else { "no" },
            list[..list.len().min(LEAKED_SHOWN)].join("; "),
            if more > 0 {
                format!("; … and {more} more")
            } else {
                String::new()
            }
        );
    }
    if hidden > 0 {
        let _ = writeln!(
            o,
            "  … and {hidden} more cluster(s) not leaked (see --json)"
        );
    }
    let _ = writeln!(
        o,
        "  overall leak rate {} (mean over {} HIGH/MEDIUM clusters); leaked clusters {}/{}",
        opt(p.leak_rate),
        p.rated_clusters,
        p.leaked_clusters,
        p.rated_clusters
    );
    o
}

fn utility_table(u: &ByQuestionType<Option<f64>>, q: &UtilityQuestions) -> String {
    let mut o = String::from(
        "\nUTILITY ROUGE-1 recall of the gold answers against their redacted source documents\n",
    );
    for t in QuestionType::ALL {
        let _ = writeln!(
            o,
            "  {:<16} {}  ({} questions)",
            t.key(),
            opt(*u.get(t)),
            q.evaluated.get(t)
        );
    }
    if q.skipped > 0 {
        let _ = writeln!(o, "  {} question(s) skipped (see --json)", q.skipped);
    }
    o
}

fn baselines_table(rows: &[Baseline]) -> String {
    let mut o = String::from("\nBASELINES leak rate and utility (ROUGE-1 recall) per mask set\n");
    let _ = writeln!(
        o,
        "  {:<38} {:>6} {:>6} {:>7}  {:>8} {:>8} {:>8} {:>8}",
        "", "masked", "leak", "leaked", "spec/1", "spec/n", "gen/1", "gen/n"
    );
    for b in rows {
        let u = |t| format!("{:>8}", opt(*b.utility.get(t)));
        let _ = writeln!(
            o,
            "  {:<38} {:>6} {:>6} {:>7}  {} {} {} {}",
            b.label,
            b.masked,
            opt(b.leak_rate),
            format!("{}/{}", b.leaked_clusters, b.rated_clusters),
            u(QuestionType::SpecificSingle),
            u(QuestionType::SpecificMulti),
            u(QuestionType::GeneralSingle),
            u(QuestionType::GeneralMulti)
        );
    }
    o.push_str("  (spec/gen = specific/general questions, 1/n = single/multi source documents)\n");
    o
}

impl EvalReport {
    /// The readable report.
    pub fn to_table(&self) -> String {
        let mut o = String::new();
        let g = &self.gold;
        let _ = writeln!(
            o,
            "gold: {} ({} format), {} clusters{}{}",
            safe(&g.file),
            g.format.as_str(),
            g.clusters,
            g.gold_chains.map_or_else(String::new, |c| format!(
                ", {c} gold chains = {} document pairs",
                g.gold_pairs.unwrap_or(0)
            )),
            match (&g.mentions_file, g.mentions) {
                (Some(f), Some(n)) => format!(", {n} mentions from {}", safe(f)),
                _ => String::new(),
            }
        );
        let s = &self.settings;
        let _ = writeln!(
            o,
            "corpus: {} documents ({} skipped); edge_threshold {}, chain_length {}, flagged = risk_initial ≥ {} (MEDIUM)\n",
            self.documents, self.skipped_documents, s.edge_threshold, s.chain_length, s.risk_medium
        );
        let header = format!(
            "  {:<34} {:<6} {:<6} {:<6} {:>5} {:>5} {:>5}\n",
            "", "P", "R", "F1", "TP", "FP", "FN"
        );
        if self.chains.is_some() || self.ceiling.as_ref().is_some_and(|c| c.chains.is_some()) {
            o.push_str("CHAINS flagged ≥ MEDIUM vs gold chains\n");
            o.push_str(&header);
            if let Some(c) = &self.chains {
                o.push_str(&prf_row("document pairs", &c.pairs));
                o.push_str(&prf_row("exact document sets", &c.exact));
            }
            if let Some(ceil) = &self.ceiling
                && let Some(c) = &ceil.chains
            {
                o.push_str(&prf_row(
                    &format!("ceiling: pairs ({})", ceil.source),
                    &c.pairs,
                ));
                o.push_str(&prf_row("ceiling: exact sets", &c.exact));
            }
            if let Some(c) = &self.chains {
                let _ = writeln!(
                    o,
                    "  {} of {} chains flagged{}",
                    c.flagged,
                    c.chains,
                    c.flagged_pairs
                        .as_ref()
                        .map_or_else(String::new, |p| format!(
                            "; flagged pairs {}",
                            counts_text(p)
                        ))
                );
            }
        } else {
            o.push_str("CHAINS: no gold chains, chain metrics absent\n");
        }
        if let Some(e) = &self.edges {
            let _ = writeln!(o, "  kept edges {}", counts_text(e));
        }
        if let Some(e) = self.ceiling.as_ref().and_then(|c| c.edges.as_ref()) {
            let _ = writeln!(o, "  ceiling kept edges {}", counts_text(e));
        }
        o.push('\n');
        if let Some(m) = &self.mentions {
            let _ = writeln!(
                o,
                "MENTIONS  {:<20} {:>5} {:>5}   {:<20}   {:<20}",
                "", "GOLD", "FOUND", "EXACT P / R / F1", "OVERLAP P / R / F1"
            );
            let row = |o: &mut String, label: &str, s: &MentionScores| {
                let trio = |p: &Prf| {
                    format!(
                        "{} {} {}",
                        num(p.precision, p.undefined.contains(&"precision")),
                        num(p.recall, p.undefined.contains(&"recall")),
                        num(p.f1, false)
                    )
                };
                let _ = writeln!(
                    o,
                    "  {:<28} {:>5} {:>5}   {}   {}",
                    label,
                    s.gold,
                    s.predicted,
                    trio(&s.exact),
                    trio(&s.overlap)
                );
            };
            row(&mut o, "overall", &m.overall);
            for (t, s) in &m.by_type {
                row(&mut o, t, s);
            }
            o.push('\n');
        }
        let e = &self.entities;
        let _ = writeln!(
            o,
            "GOLD ENTITIES found among the extracted entities (same canonical form)\n  all: {}/{} = {:.3} (ignoring type: {}/{} = {:.3})\n  persons: {}/{} = {:.3} (ignoring type: {:.3})",
            e.found,
            e.gold,
            e.recall,
            e.found_any_type,
            e.gold,
            e.recall_any_type,
            e.persons.found,
            e.persons.gold,
            e.persons.recall,
            e.persons.recall_any_type
        );
        if let Some(r) = &e.relevant {
            let _ = writeln!(
                o,
                "  gold.json `entities` (untyped, any type): {}/{} = {:.3}",
                r.found, r.gold, r.recall
            );
        }
        if !e.missed.is_empty() {
            let list: Vec<String> = e
                .missed
                .iter()
                .map(|m| {
                    let t = m
                        .entity_type
                        .as_deref()
                        .map_or_else(String::new, |t| format!("{t}:"));
                    format!(
                        "{t}{}{}",
                        safe(&m.value),
                        if m.other_type { " (other type)" } else { "" }
                    )
                })
                .collect();
            let more = list.len().saturating_sub(MISSED_SHOWN);
            let _ = writeln!(
                o,
                "  missed: {}{}",
                list[..list.len().min(MISSED_SHOWN)].join("; "),
                if more > 0 {
                    format!("; … and {more} more (see --json)")
                } else {
                    String::new()
                }
            );
        }
        if let Some(r) = &self.redaction {
            let _ = writeln!(
                o,
                "\nREDACTION proposed masks vs gold `redaction`\n  recall {}/{} = {:.3}; {} masked entities, {} matching no gold value (extra)",
                r.matched, r.gold, r.recall, r.masked, r.extra
            );
            if !r.missed.is_empty() {
                let list: Vec<String> = r.missed.iter().map(|v| safe(v)).collect();
                let _ = writeln!(o, "  not masked: {}", list.join("; "));
            }
        }
        if let Some(p) = &self.privacy {
            o.push_str(&privacy_table(p, self.settings.redaction));
        }
        if let (Some(u), Some(q)) = (&self.utility, &self.utility_questions) {
            o.push_str(&utility_table(u, q));
        }
        if let Some(b) = &self.baselines {
            o.push_str(&baselines_table(b));
        }
        if !self.notes.is_empty() {
            o.push_str("\nnotes:\n");
            for n in &self.notes {
                let _ = writeln!(o, "  - {}", safe(n));
            }
        }
        if o.contains("0.000*") {
            o.push_str("  (* = 0/0, reported as 0.000)\n");
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::RiskCategory;
    use crate::corpus::Corpus;
    use crate::extract::offline::OfflineExtractor;
    use crate::workspace::extract_all;

    fn workspace(docs: Vec<Document>) -> Workspace {
        let config = Config {
            always_mask: vec![],
            ..Config::default()
        };
        let corpus = Corpus {
            documents: docs,
            ..Corpus::default()
        };
        let store = extract_all(&corpus, &config, &OfflineExtractor::new(config.date_order));
        Workspace::new(corpus, config, store, None, "offline").expect("workspace")
    }

    fn docs() -> Vec<Document> {
        vec![
            Document::new(
                "a",
                "Patient: Raman, Priya. Member ID MBR-448213. Diagnosis: lupus nephritis. Phone 503-555-0142.",
            ),
            Document::new(
                "b",
                "Ms. Priya Raman (member MBR448213) called from 503-555-0142 about lupus nephritis.",
            ),
            Document::new("c", "The weather in Chicago was mild."),
        ]
    }

    fn gold_with(mentions: Option<Vec<GoldMention>>) -> Gold {
        Gold {
            format: GoldFormat::Devset,
            source: "gold.json".into(),
            clusters: vec![GoldCluster {
                id: "c1".into(),
                docs: vec!["a".into(), "b".into()],
                persons: vec![
                    GoldEntity {
                        value: "Priya Raman".into(),
                        entity_type: "NAME".into(),
                        variants: vec!["Raman, Priya".into()],
                    },
                    GoldEntity {
                        value: "MBR-448213".into(),
                        entity_type: "PATIENT_ID".into(),
                        variants: vec![],
                    },
                    GoldEntity {
                        value: "glass-blower".into(),
                        entity_type: "INDIRECT_IDENTIFIER".into(),
                        variants: vec![],
                    },
                ],
                risk: Some(RiskCategory::High),
                questions: vec![],
            }],
            chains: Some(vec![vec!["a".into(), "b".into()]]),
            relevant: None,
            redaction: None,
            mentions,
            mentions_file: None,
            notes: vec![],
        }
    }

    fn mention(doc: &str, content: &str, text: &str, t: &str) -> GoldMention {
        let byte = content.find(text).expect("text in content");
        let start = content[..byte].chars().count();
        GoldMention {
            doc: doc.into(),
            start,
            end: start + text.chars().count(),
            text: text.into(),
            entity_type: t.into(),
            person: true,
            line: 1,
        }
    }

    #[test]
    fn evaluates_chains_entities_mentions_and_ceiling() {
        let d = docs();
        let mentions = vec![
            mention("a", &d[0].content, "Raman, Priya", "NAME"),
            mention("a", &d[0].content, "MBR-448213", "PATIENT_ID"),
            mention("b", &d[1].content, "Priya Raman", "NAME"),
            mention("b", &d[1].content, "MBR448213", "PATIENT_ID"),
        ];
        let ws = workspace(d);
        let gold = gold_with(Some(mentions));
        let r = evaluate(&ws, &gold);
        let c = r.chains.as_ref().expect("chains");
        assert_eq!(c.pairs.tp + c.pairs.fn_, 1);
        assert_eq!((c.pairs.tp, c.pairs.fp), (1, 0), "{r:?}");
        assert_eq!(r.edges.as_ref().map(|e| e.intra), Some(1));
        assert_eq!(r.entities.persons.gold, 3);
        assert_eq!(r.entities.persons.found, 2);
        assert_eq!(r.entities.missed.len(), 1);
        assert_eq!(r.entities.missed[0].value, "glass-blower");
        let m = r.mentions.as_ref().expect("mentions");
        assert_eq!(m.overall.gold, 4);
        assert_eq!(m.by_type["PATIENT_ID"].exact.tp, 2);
        // The ceiling links "Raman, Priya" and "Priya Raman" through the gold entity.
        let ceil = r.ceiling.as_ref().expect("ceiling");
        assert_eq!(ceil.entities, 2);
        assert_eq!(ceil.chains.as_ref().map(|c| c.pairs.tp), Some(1));
        let json = serde_json::to_value(&r).expect("json");
        assert!(json["chains"]["pairs"]["f1"].is_number());
        assert!(json["mentions"]["overall"]["overlap"]["recall"].is_number());
        assert!(json["redaction"].is_null());
        let table = r.to_table();
        assert!(
            table.contains("document pairs") && table.contains("ceiling"),
            "{table}"
        );
    }

    #[test]
    fn redaction_recall_and_extra() {
        let ws = workspace(docs());
        let mut gold = gold_with(None);
        gold.format = GoldFormat::Thesis;
        gold.redaction = Some(vec![
            "MBR-448213".into(),
            "  PRIYA   raman ".into(),
            "Priya Raman".into(),
            "never masked".into(),
        ]);
        gold.relevant = Some(vec![("a".into(), vec!["lupus nephritis".into()])]);
        let masked: Vec<String> = ws
            .masked_entities()
            .iter()
            .map(|e| e.normalized.clone())
            .collect();
        let r = evaluate(&ws, &gold);
        let red = r.redaction.as_ref().expect("redaction");
        // "PRIYA raman" and "Priya Raman" are one value.
        assert_eq!(red.gold, 3);
        assert_eq!(red.masked, masked.len());
        assert!(red.missed.contains(&"never masked".to_string()));
        assert_eq!(red.matched + red.missed.len(), 3);
        let hits = masked
            .iter()
            .filter(|v| ["mbr448213", "MBR448213", "priya raman"].contains(&v.as_str()))
            .count();
        assert_eq!(red.extra, masked.len() - hits, "{masked:?}");
        let rel = r.entities.relevant.as_ref().expect("relevant");
        assert_eq!((rel.gold, rel.found), (1, 1));
        assert_eq!(r.entities.gold, 4);
    }

    #[test]
    fn baselines_order_and_privacy_in_the_report() {
        let ws = workspace(docs());
        let mut gold = gold_with(None);
        gold.clusters[0].questions = vec![GoldQuestion {
            question: "What is the diagnosis?".into(),
            answer: "Lupus nephritis.".into(),
            sources: vec!["a".into()],
            kind: "specific".into(),
        }];
        let r = evaluate_with(&ws, &gold, EVAL_KEY, true);
        let b = r.baselines.as_ref().expect("baselines");
        let names: Vec<&str> = b.iter().map(|b| b.name).collect();
        assert_eq!(
            names,
            vec!["verbatim", "document_stage", "pipeline", "mask_all"]
        );
        let leak = |i: usize| b[i].leak_rate.expect("leak rate");
        // Verbatim: the name and the member id are in the text, "glass-blower" is not:
        // (1.00 + 0.95) / (1.00 + 0.95 + 0.70).
        assert!((leak(0) - 1.95 / 2.65).abs() < 1e-9, "{}", leak(0));
        assert!(leak(0) >= leak(1) && leak(1) >= leak(2) && leak(2) >= leak(3));
        assert_eq!(leak(3), 0.0, "every extracted value masked: {b:?}");
        assert_eq!(b[0].masked, 0);
        assert!(b[1].masked <= b[2].masked && b[2].masked <= b[3].masked);
        assert_eq!(b[2].masked, ws.plan.masked_count());
        assert_eq!(b[3].masked, ws.model.entities.len());
        // The diagnosis is masked by no plan here, so the answer survives verbatim.
        assert_eq!(b[0].utility.specific_single, Some(1.0));
        // The report's own figures are the pipeline's.
        let p = r.privacy.as_ref().expect("privacy");
        assert_eq!(p.leak_rate, b[2].leak_rate);
        assert_eq!(p.rated_clusters, 1);
        let json = serde_json::to_value(&r).expect("json");
        assert!(json["privacy"]["by_cluster"][0]["leaked_entities"].is_array());
        assert!(json["utility"]["specific/single"].is_number());
        assert!(json["utility"]["general/multi"].is_null());
        assert_eq!(json["baselines"][3]["name"], "mask_all");
        let table = r.to_table();
        for section in [
            "PRIVACY",
            "UTILITY",
            "BASELINES",
            "mask everything extracted",
        ] {
            assert!(table.contains(section), "{section} missing from\n{table}");
        }
        // Without --baselines the key is absent.
        let plain = serde_json::to_value(evaluate(&ws, &gold)).expect("json");
        assert!(plain.get("baselines").is_none());
        assert_eq!(plain["privacy"], json["privacy"]);
    }

    #[test]
    fn no_gold_chains_means_no_chain_metrics() {
        let ws = workspace(docs());
        let mut gold = gold_with(None);
        gold.chains = None;
        let r = evaluate(&ws, &gold);
        assert!(r.chains.is_none() && r.ceiling.is_none());
        assert!(r.edges.is_some());
        assert!(r.to_table().contains("chain metrics absent"));
    }
}
