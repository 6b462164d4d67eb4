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

mod ceiling;
mod chains;
mod entities;
mod render;
pub use ceiling::gold_entity_items;
pub use ceiling::gold_items;
use ceiling::*;
use chains::*;
use entities::*;

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
    /// Where the entities come from: `offline`, `llm`, or `snapshot` (a snapshot file).
    pub extractor: String,
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
    let corpus_ids: BTreeSet<&str> = ws
        .corpus()
        .documents
        .iter()
        .map(|d| d.id.as_str())
        .collect();
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
    let (chains, edges) = chain_eval(ws.model(), ws.analysis(), ws.config(), gold, &clusters);
    let mentions = gold.mentions.as_ref().map(|ms| {
        let content: BTreeMap<&str, &str> = ws
            .corpus()
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
        // clam marks an age's number ("45" of "45-year-old": the unit says nothing
        // about the person); a gold span that includes the unit is compared on its
        // number, so exact matching measures the convention both share.
        let mut with_unit = 0;
        let gold_spans: Vec<TypedSpan> = ms
            .iter()
            .map(|m| {
                let end = match age_number_len(m) {
                    Some(n) if m.entity_type == "AGE" && m.start + n < m.end => {
                        with_unit += 1;
                        m.start + n
                    }
                    _ => m.end,
                };
                TypedSpan {
                    doc: m.doc.clone(),
                    start: m.start,
                    end,
                    entity_type: m.entity_type.clone(),
                }
            })
            .collect();
        if with_unit > 0 {
            notes.push(format!(
                "{with_unit} gold AGE span(s) include their unit (\"45-year-old\"); clam marks the number (\"45\"), so they are compared on their number"
            ));
        }
        metrics::mention_scores(&extracted_spans(ws.store()), &gold_spans)
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
        extractor: ws.extractor().to_string(),
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
            edge_threshold: ws.config().analysis.edge_threshold,
            chain_length: ws.config().analysis.chain_length,
            risk_medium: ws.config().plan.risk_medium,
            risk_high: ws.config().plan.risk_high,
            redaction: ws.config().redact.mode,
        },
        documents: ws.corpus().documents.len(),
        skipped_documents: ws.corpus().diagnostics.len(),
        chains,
        edges,
        mentions,
        entities: entity_eval(ws.store(), ws.config(), gold),
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

/// Leaked entities listed per cluster in the table (all of them are in the JSON).
const LEAKED_SHOWN: usize = 6;

/// Clusters listed in the privacy table; leaked clusters beyond them are listed too.
const CLUSTERS_SHOWN: usize = 50;

/// The length in characters of the number an age mention starts with, when the rest
/// of the mention is an age unit ("45-year-old", "45 years old", "45 y/o", "45yo").
fn age_number_len(m: &GoldMention) -> Option<usize> {
    static UNIT: std::sync::LazyLock<Option<regex::Regex>> = std::sync::LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)^(\d{1,3})(?:[- ]?(?:years?|yrs?|yr)[- ]?old|[- ]?(?:years?|yrs?) of age|[- ]?months?[- ]?old|\s*y/?o|\s*yo)$",
        )
        .ok()
    });
    let re = (*UNIT).as_ref()?;
    re.captures(m.text.trim())
        .and_then(|c| c.get(1))
        .map(|d| d.as_str().chars().count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::RiskCategory;
    use crate::corpus::Corpus;
    use crate::extract::offline::OfflineExtractor;
    use crate::workspace::extract_all;

    fn workspace(docs: Vec<Document>) -> Workspace {
        let mut config = Config::default();
        config.redact.always_mask = vec![];
        let corpus = Corpus {
            documents: docs,
            ..Corpus::default()
        };
        let store = extract_all(
            &corpus,
            &config,
            &OfflineExtractor::new(config.extraction.date_order),
        );
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
        assert_eq!(b[2].masked, ws.plan().masked_count());
        assert_eq!(b[3].masked, ws.model().entities.len());
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
