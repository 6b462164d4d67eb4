//! Utility after masking (thesis §5.3): ROUGE-1 recall of the gold answers in the redacted sources, per question type.

use super::*;

/// The tokens of ROUGE-1 here: maximal runs of Unicode alphanumeric characters
/// (`char::is_alphanumeric`), lowercased (Unicode lowercase); everything else
/// (spaces, punctuation, brackets, hyphens) separates tokens. "ORIF, 3-Sep" →
/// `orif`, `3`, `sep`.
pub fn tokens(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
}

pub(super) fn counts<'a>(texts: impl IntoIterator<Item = &'a str>) -> HashMap<String, usize> {
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
pub(super) fn clipped_recall(
    reference: &HashMap<String, usize>,
    candidate: &HashMap<String, usize>,
) -> f64 {
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

    pub(super) fn get_mut(&mut self, t: QuestionType) -> &mut T {
        match t {
            QuestionType::SpecificSingle => &mut self.specific_single,
            QuestionType::SpecificMulti => &mut self.specific_multi,
            QuestionType::GeneralSingle => &mut self.general_single,
            QuestionType::GeneralMulti => &mut self.general_multi,
        }
    }
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
