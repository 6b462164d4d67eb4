//! Privacy and utility after redaction (SPEC §10, thesis §5.4–5.5), and the baselines
//! the plan is compared with.
//!
//! **Person leak rate.** Per gold cluster, `Σ w_type(leaked) / Σ w_type(all)` over the
//! hidden person's gold entities, with the schema's weights. An entity is leaked when
//! any of its forms is still found in one of the cluster's *redacted* documents (the
//! text the export writes: the same [`Replacer`] and mode). Forms are the gold value and
//! its variants, found whole-word and case-insensitively by a [`Replacer`] over the
//! person's entities — the matcher of the redaction and the export's leak check — so a
//! date in another written form, a phone number with other separators or an id without
//! dashes is found as well; overlapping matches count (a LOCATION "Fenwick Falls" left
//! inside "Fenwick Falls Community Hospital" is leaked). A HIGH cluster is leaked when
//! its rate is above 0.6, a MEDIUM one above 0.8, a LOW one never (thesis §5.4.2); the
//! overall leak rate is the mean over the HIGH and MEDIUM clusters.
//!
//! **Utility proxy.** ROUGE-1 recall of each gold answer against its redacted source
//! documents: see [`tokens`] and [`rouge1_recall`]; averaged per question type
//! (`specific`/`general` × `single`/`multi` source documents).

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;

use super::gold::Gold;
use crate::analysis::RiskCategory;
use crate::corpus::Document;
use crate::entity::normalize::{DateOrder, canonical};
use crate::redact::{MaskedEntity, Mode, Replacer};
use crate::schema::{Schema, ValueKind, value_kind};
use crate::workspace::Workspace;

mod baselines;
mod utility;
pub use baselines::Baseline;
pub use baselines::baselines;
pub use utility::ByQuestionType;
pub use utility::QuestionScore;
pub use utility::QuestionType;
pub use utility::SkippedQuestion;
pub use utility::UtilityReport;
pub use utility::rouge1_recall;
pub use utility::tokens;
use utility::*;

/// A HIGH cluster is leaked above this leak rate.
pub const LEAKED_HIGH: f64 = 0.6;
/// A MEDIUM cluster is leaked above this leak rate.
pub const LEAKED_MEDIUM: f64 = 0.8;

/// Whether a cluster of `risk` with leak rate `rate` counts as leaked: HIGH above 0.6,
/// MEDIUM above 0.8, LOW (or unknown risk) never.
pub fn is_leaked(risk: Option<RiskCategory>, rate: f64) -> bool {
    match risk {
        Some(RiskCategory::High) => rate > LEAKED_HIGH,
        Some(RiskCategory::Medium) => rate > LEAKED_MEDIUM,
        _ => false,
    }
}

/// A gold person entity still found after redaction.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LeakedEntity {
    pub value: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    pub weight: f64,
}

/// The leak of one cluster.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClusterLeak {
    pub id: String,
    pub risk: Option<RiskCategory>,
    /// The cluster's documents found in the corpus.
    pub documents: usize,
    /// The cluster's documents the corpus does not have.
    pub missing_documents: usize,
    /// Gold person entities.
    pub entities: usize,
    /// `None` when no document of the cluster is in the corpus or its entities weigh 0.
    pub leak_rate: Option<f64>,
    /// HIGH > 0.6, MEDIUM > 0.8, LOW never.
    pub leaked: bool,
    pub leaked_entities: Vec<LeakedEntity>,
}

/// Person leak rate per cluster and overall.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrivacyReport {
    /// Mean leak rate over the HIGH and MEDIUM clusters (`None` when there is none).
    pub leak_rate: Option<f64>,
    /// HIGH and MEDIUM clusters flagged as leaked.
    pub leaked_clusters: usize,
    /// HIGH and MEDIUM clusters with a leak rate (the mean's denominator).
    pub rated_clusters: usize,
    pub by_cluster: Vec<ClusterLeak>,
}

/// One gold person entity and the weight of its type.
struct PersonEntity {
    value: String,
    entity_type: String,
    weight: f64,
}

struct ClusterCheck {
    id: String,
    risk: Option<RiskCategory>,
    /// Indices into `PrivacyEvaluator::texts`.
    docs: Vec<usize>,
    missing: usize,
    entities: Vec<PersonEntity>,
    /// Finds the entities' forms (entity index = position in `entities`).
    finder: Replacer,
}

struct QuestionCheck {
    cluster: String,
    index: usize,
    question_type: QuestionType,
    sources: Vec<usize>,
    answer: HashMap<String, usize>,
}

/// Privacy and utility of any mask set of one workspace's entities, owning all it
/// needs (the evaluator, every entity with its originals, the redaction settings and
/// the project key), so sweeps and the review workspace can measure plans on other
/// threads. `masked` is indexed like the workspace's model entities, which every
/// candidate plan shares.
pub struct MaskProbe {
    evaluator: std::sync::Arc<PrivacyEvaluator>,
    entities: Vec<MaskedEntity>,
    mode: Mode,
    schema: Schema,
    key: Vec<u8>,
}

impl MaskProbe {
    pub fn new(ws: &Workspace, evaluator: std::sync::Arc<PrivacyEvaluator>, key: &[u8]) -> Self {
        MaskProbe {
            evaluator,
            entities: ws.masked_entities_of(&vec![true; ws.model().entities.len()]),
            mode: ws.config().redact.mode,
            schema: ws.config().schema.clone(),
            key: key.to_vec(),
        }
    }

    pub fn evaluator(&self) -> &PrivacyEvaluator {
        &self.evaluator
    }

    /// The replacer of the mask set `masked`.
    pub fn replacer(&self, masked: &[bool]) -> Replacer {
        let chosen = self
            .entities
            .iter()
            .enumerate()
            .filter(|(i, _)| masked.get(*i).copied().unwrap_or(false))
            .map(|(_, e)| e.clone())
            .collect();
        Replacer::new(chosen, self.mode, &self.schema, &self.key)
    }

    /// The person leak rate (mean over HIGH and MEDIUM clusters) under `masked`.
    pub fn leak_rate(&self, masked: &[bool]) -> Option<f64> {
        self.evaluator.privacy(&self.replacer(masked)).leak_rate
    }
}

/// Leak rate and utility proxy of any mask set, prepared once per corpus and gold:
/// the documents involved, one matcher per cluster and the answers' token counts.
/// Each measurement redacts only the clusters' and the questions' documents, so a sweep
/// calls it once per step: `PrivacyEvaluator::new(&ws, &gold)` once, then
/// `ev.privacy(&ws.replacer_of(&plan.masked, key)).leak_rate` per plan.
pub struct PrivacyEvaluator {
    /// Original contents of the documents the clusters and questions name.
    texts: Vec<String>,
    clusters: Vec<ClusterCheck>,
    questions: Vec<QuestionCheck>,
    skipped: Vec<SkippedQuestion>,
}

/// The matcher's form of a gold entity: its value and variants as written, plus its
/// canonical form for the kinds the replacer also finds by shape (dates in any written
/// form, phones with any separators, ids with any dashes or case). Other canonical forms
/// are not searched: an AGE "45-year-old" must not turn every "45" into a leak.
fn finder_entity(i: usize, e: &super::GoldEntity, date_order: DateOrder) -> MaskedEntity {
    let kind = value_kind(&e.entity_type);
    let normalized = match kind {
        ValueKind::Date | ValueKind::Phone | ValueKind::Id => {
            canonical(&e.value, &e.entity_type, date_order)
        }
        _ => e.value.clone(),
    };
    MaskedEntity {
        id: i.to_string(),
        entity_type: e.entity_type.clone(),
        normalized,
        originals: e.forms().map(str::to_string).collect(),
    }
}

impl PrivacyEvaluator {
    /// Prepares the evaluation of `ws`'s corpus against `gold`.
    pub fn new(ws: &Workspace, gold: &Gold) -> Self {
        Self::from_parts(
            &ws.corpus().documents,
            &ws.config().schema,
            ws.config().extraction.date_order,
            gold,
        )
    }

    /// Prepares the evaluation of `documents` against `gold`, with the schema's
    /// weights.
    pub fn from_parts(
        documents: &[Document],
        schema: &Schema,
        date_order: DateOrder,
        gold: &Gold,
    ) -> Self {
        let by_id: HashMap<&str, &Document> =
            documents.iter().map(|d| (d.id.as_str(), d)).collect();
        let mut texts = Vec::new();
        let mut slot: HashMap<&str, usize> = HashMap::new();
        let mut index_of = |id: &str| -> Option<usize> {
            let (&key, d) = by_id.get_key_value(id)?;
            Some(*slot.entry(key).or_insert_with(|| {
                texts.push(d.content.clone());
                texts.len() - 1
            }))
        };
        let mut clusters = Vec::new();
        let mut questions = Vec::new();
        let mut skipped = Vec::new();
        for c in &gold.clusters {
            let unique: BTreeSet<&str> = c.docs.iter().map(String::as_str).collect();
            let docs: Vec<usize> = unique.iter().filter_map(|d| index_of(d)).collect();
            if !c.persons.is_empty() {
                let finder = Replacer::new(
                    c.persons
                        .iter()
                        .enumerate()
                        .map(|(i, e)| finder_entity(i, e, date_order))
                        .collect(),
                    Mode::Redact,
                    schema,
                    b"",
                );
                clusters.push(ClusterCheck {
                    id: c.id.clone(),
                    risk: c.risk,
                    missing: unique.len() - docs.len(),
                    docs,
                    entities: c
                        .persons
                        .iter()
                        .map(|e| PersonEntity {
                            value: e.value.clone(),
                            entity_type: e.entity_type.clone(),
                            weight: schema.weight(&e.entity_type),
                        })
                        .collect(),
                    finder,
                });
            }
            for (qi, q) in c.questions.iter().enumerate() {
                let skip = |reason: String| SkippedQuestion {
                    cluster: c.id.clone(),
                    index: qi,
                    reason,
                };
                let sources: BTreeSet<&str> = q.sources.iter().map(String::as_str).collect();
                let Some(question_type) = QuestionType::of(&q.kind, sources.len()) else {
                    skipped.push(skip(if sources.is_empty() {
                        "no source document".into()
                    } else {
                        format!("type {:?} is neither specific nor general", q.kind)
                    }));
                    continue;
                };
                let missing: Vec<&str> = sources
                    .iter()
                    .copied()
                    .filter(|s| !by_id.contains_key(s))
                    .collect();
                if !missing.is_empty() {
                    skipped.push(skip(format!(
                        "source(s) not in the corpus: {}",
                        missing.join(", ")
                    )));
                    continue;
                }
                let answer = counts([q.answer.as_str()]);
                if answer.is_empty() {
                    skipped.push(skip("the answer has no word".into()));
                    continue;
                }
                questions.push(QuestionCheck {
                    cluster: c.id.clone(),
                    index: qi,
                    question_type,
                    sources: sources.iter().filter_map(|s| index_of(s)).collect(),
                    answer,
                });
            }
        }
        PrivacyEvaluator {
            texts,
            clusters,
            questions,
            skipped,
        }
    }

    /// True when some cluster has gold person entities.
    pub fn has_persons(&self) -> bool {
        !self.clusters.is_empty()
    }

    /// True when the gold has questions (evaluable or skipped).
    pub fn has_questions(&self) -> bool {
        !self.questions.is_empty() || !self.skipped.is_empty()
    }

    /// Leak rate and utility of the redaction `replacer` performs.
    pub fn measure(&self, replacer: &Replacer) -> (PrivacyReport, UtilityReport) {
        let redacted: Vec<String> = self.texts.iter().map(|t| replacer.replace(t)).collect();
        (self.privacy_of(&redacted), self.utility_of(&redacted))
    }

    /// The person leak rate after the redaction `replacer` performs.
    pub fn privacy(&self, replacer: &Replacer) -> PrivacyReport {
        let needed: BTreeSet<usize> = self
            .clusters
            .iter()
            .flat_map(|c| c.docs.iter().copied())
            .collect();
        let redacted = self.redact_some(replacer, &needed);
        self.privacy_of(&redacted)
    }

    /// The utility proxy after the redaction `replacer` performs.
    pub fn utility(&self, replacer: &Replacer) -> UtilityReport {
        let needed: BTreeSet<usize> = self
            .questions
            .iter()
            .flat_map(|q| q.sources.iter().copied())
            .collect();
        let redacted = self.redact_some(replacer, &needed);
        self.utility_of(&redacted)
    }

    fn redact_some(&self, replacer: &Replacer, needed: &BTreeSet<usize>) -> Vec<String> {
        self.texts
            .iter()
            .enumerate()
            .map(|(i, t)| {
                if needed.contains(&i) {
                    replacer.replace(t)
                } else {
                    String::new()
                }
            })
            .collect()
    }

    fn privacy_of(&self, redacted: &[String]) -> PrivacyReport {
        let mut by_cluster = Vec::new();
        let (mut sum, mut rated, mut leaked_clusters) = (0.0, 0usize, 0usize);
        for c in &self.clusters {
            let mut found = BTreeSet::new();
            for &d in &c.docs {
                found.extend(
                    c.finder
                        .find_overlapping(&redacted[d])
                        .iter()
                        .map(|h| h.entity),
                );
            }
            // Folded from +0.0: an empty f64 `sum()` is -0.0, printed "-0.000".
            let total = c.entities.iter().fold(0.0, |a, e| a + e.weight);
            let leaked_weight = found.iter().fold(0.0, |a, &i| a + c.entities[i].weight);
            let leak_rate = (!c.docs.is_empty() && total > 0.0).then(|| leaked_weight / total);
            let leaked = leak_rate.is_some_and(|r| is_leaked(c.risk, r));
            if let Some(r) = leak_rate
                && matches!(c.risk, Some(RiskCategory::High | RiskCategory::Medium))
            {
                sum += r;
                rated += 1;
                leaked_clusters += usize::from(leaked);
            }
            by_cluster.push(ClusterLeak {
                id: c.id.clone(),
                risk: c.risk,
                documents: c.docs.len(),
                missing_documents: c.missing,
                entities: c.entities.len(),
                leak_rate,
                leaked,
                leaked_entities: found
                    .iter()
                    .map(|&i| LeakedEntity {
                        value: c.entities[i].value.clone(),
                        entity_type: c.entities[i].entity_type.clone(),
                        weight: c.entities[i].weight,
                    })
                    .collect(),
            });
        }
        PrivacyReport {
            leak_rate: (rated > 0).then(|| sum / rated as f64),
            leaked_clusters,
            rated_clusters: rated,
            by_cluster,
        }
    }

    fn utility_of(&self, redacted: &[String]) -> UtilityReport {
        let mut sums: ByQuestionType<f64> = ByQuestionType::default();
        let mut questions: ByQuestionType<usize> = ByQuestionType::default();
        let mut by_question = Vec::new();
        for q in &self.questions {
            let candidate = counts(q.sources.iter().map(|&d| redacted[d].as_str()));
            let r = clipped_recall(&q.answer, &candidate);
            *sums.get_mut(q.question_type) += r;
            *questions.get_mut(q.question_type) += 1;
            by_question.push(QuestionScore {
                cluster: q.cluster.clone(),
                index: q.index,
                question_type: q.question_type.key(),
                rouge1_recall: r,
            });
        }
        let mut means = ByQuestionType::default();
        for t in QuestionType::ALL {
            let n = *questions.get(t);
            *means.get_mut(t) = (n > 0).then(|| sums.get(t) / n as f64);
        }
        UtilityReport {
            means,
            questions,
            by_question,
            skipped: self.skipped.clone(),
        }
    }
}

#[cfg(test)]
mod tests;
