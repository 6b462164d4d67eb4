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

/// The tokens of ROUGE-1 here: maximal runs of Unicode alphanumeric characters
/// (`char::is_alphanumeric`), lowercased (Unicode lowercase); everything else
/// (spaces, punctuation, brackets, hyphens) separates tokens. "ORIF, 3-Sep" →
/// `orif`, `3`, `sep`.
pub fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
}

fn counts<'a>(texts: impl IntoIterator<Item = &'a str>) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for t in texts {
        for tok in tokens(t) {
            *m.entry(tok).or_insert(0) += 1;
        }
    }
    m
}

/// Σ_t min(reference(t), candidate(t)) / Σ_t reference(t): clipped counts, so an answer
/// token written twice needs two occurrences in the candidate.
fn clipped_recall(reference: &HashMap<String, usize>, candidate: &HashMap<String, usize>) -> f64 {
    let total: usize = reference.values().sum();
    if total == 0 {
        return 0.0;
    }
    let hit: usize = reference
        .iter()
        .map(|(t, &n)| n.min(candidate.get(t).copied().unwrap_or(0)))
        .sum();
    hit as f64 / total as f64
}

/// ROUGE-1 recall of `reference` against the `candidate` texts taken together (their
/// token counts added); `None` when the reference has no token.
pub fn rouge1_recall(reference: &str, candidate: &[&str]) -> Option<f64> {
    let r = counts([reference]);
    (!r.is_empty()).then(|| clipped_recall(&r, &counts(candidate.iter().copied())))
}

/// A question type: specific or general, answered from one or several documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum QuestionType {
    SpecificSingle,
    SpecificMulti,
    GeneralSingle,
    GeneralMulti,
}

impl QuestionType {
    pub const ALL: [QuestionType; 4] = [
        QuestionType::SpecificSingle,
        QuestionType::SpecificMulti,
        QuestionType::GeneralSingle,
        QuestionType::GeneralMulti,
    ];

    /// The gold `type` (`specific` / `general`, any case) and the number of distinct
    /// source documents (1 = single); `None` for another type or no source.
    pub fn of(kind: &str, sources: usize) -> Option<Self> {
        let specific = match kind.trim().to_lowercase().as_str() {
            "specific" => true,
            "general" => false,
            _ => return None,
        };
        Some(match (specific, sources) {
            (_, 0) => return None,
            (true, 1) => QuestionType::SpecificSingle,
            (true, _) => QuestionType::SpecificMulti,
            (false, 1) => QuestionType::GeneralSingle,
            (false, _) => QuestionType::GeneralMulti,
        })
    }

    pub fn key(self) -> &'static str {
        match self {
            QuestionType::SpecificSingle => "specific/single",
            QuestionType::SpecificMulti => "specific/multi",
            QuestionType::GeneralSingle => "general/single",
            QuestionType::GeneralMulti => "general/multi",
        }
    }
}

/// One value per question type, serialized under the keys `specific/single`, ….
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct ByQuestionType<T> {
    #[serde(rename = "specific/single")]
    pub specific_single: T,
    #[serde(rename = "specific/multi")]
    pub specific_multi: T,
    #[serde(rename = "general/single")]
    pub general_single: T,
    #[serde(rename = "general/multi")]
    pub general_multi: T,
}

impl<T> ByQuestionType<T> {
    pub fn get(&self, t: QuestionType) -> &T {
        match t {
            QuestionType::SpecificSingle => &self.specific_single,
            QuestionType::SpecificMulti => &self.specific_multi,
            QuestionType::GeneralSingle => &self.general_single,
            QuestionType::GeneralMulti => &self.general_multi,
        }
    }

    fn get_mut(&mut self, t: QuestionType) -> &mut T {
        match t {
            QuestionType::SpecificSingle => &mut self.specific_single,
            QuestionType::SpecificMulti => &mut self.specific_multi,
            QuestionType::GeneralSingle => &mut self.general_single,
            QuestionType::GeneralMulti => &mut self.general_multi,
        }
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

/// The recall of one question's answer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QuestionScore {
    pub cluster: String,
    /// Position in the cluster's question list (0-based).
    pub index: usize,
    #[serde(rename = "type")]
    pub question_type: &'static str,
    pub rouge1_recall: f64,
}

/// A question the utility proxy could not use.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SkippedQuestion {
    pub cluster: String,
    pub index: usize,
    pub reason: String,
}

/// ROUGE-1 recall per question type.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UtilityReport {
    /// Mean recall per type; `None` for a type without questions.
    pub means: ByQuestionType<Option<f64>>,
    /// Questions evaluated per type.
    pub questions: ByQuestionType<usize>,
    pub by_question: Vec<QuestionScore>,
    pub skipped: Vec<SkippedQuestion>,
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
            entities: ws.masked_entities_of(&vec![true; ws.model.entities.len()]),
            mode: ws.config.redaction,
            schema: ws.config.schema.clone(),
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
            &ws.corpus.documents,
            &ws.config.schema,
            ws.config.date_order,
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

/// A mask set compared with the plan (thesis Tables 5.3–5.5, 6.3).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Baseline {
    /// `verbatim`, `document_stage`, `pipeline` or `mask_all`.
    pub name: &'static str,
    pub label: &'static str,
    /// Masked entities.
    pub masked: usize,
    pub leak_rate: Option<f64>,
    pub leaked_clusters: usize,
    pub rated_clusters: usize,
    pub utility: ByQuestionType<Option<f64>>,
}

/// The baselines, in order of masking: nothing masked; the planner's state after its
/// document stage (forced, policy and theta_doc masks, no chain stage:
/// `Plan::masked_after_document_stage`); the full plan; every extracted entity.
pub fn baselines(ws: &Workspace, ev: &PrivacyEvaluator, project_key: &[u8]) -> Vec<Baseline> {
    let n = ws.model.entities.len();
    let sets: [(&'static str, &'static str, Vec<bool>); 4] = [
        ("verbatim", "no masking (verbatim)", vec![false; n]),
        (
            "document_stage",
            "document stage only (no chain stage)",
            ws.plan.masked_after_document_stage.clone(),
        ),
        ("pipeline", "full pipeline", ws.plan.masked.clone()),
        ("mask_all", "mask everything extracted", vec![true; n]),
    ];
    sets.into_iter()
        .map(|(name, label, mask)| {
            let (p, u) = ev.measure(&ws.replacer_of(&mask, project_key));
            Baseline {
                name,
                label,
                masked: mask.iter().filter(|m| **m).count(),
                leak_rate: p.leak_rate,
                leaked_clusters: p.leaked_clusters,
                rated_clusters: p.rated_clusters,
                utility: u.means,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
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
}
