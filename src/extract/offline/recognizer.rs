//! What a recognizer of the offline extractor is (Presidio's `EntityRecognizer`,
//! adapted): a name, the rows it declares in the relevance table (what it matches, the
//! type it gives, the relevance), and `recognize`, which appends its candidates for one
//! text to those of the recognizers before it in the registry. Also the candidate
//! itself, its overlap tier, and the per-text [`Context`] every recognizer reads.

use super::gazetteer::Gazetteer;
use super::text::Folded;
use crate::entity::{DateOrder, canonical};

/// One row of the relevance table in the module documentation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct RelevanceRow {
    /// What is matched, in the words (markdown) of the table.
    pub matches: &'static str,
    pub entity_type: &'static str,
    pub relevance: Relevance,
}

/// The relevance a row gives.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Relevance {
    /// Every candidate of the row has this relevance.
    Fixed(f64),
    /// The row retypes candidates of earlier recognizers, which keep their own
    /// relevance (the table says "kept").
    Kept,
}

impl Relevance {
    /// The relevance of a [`Relevance::Fixed`] row.
    pub fn fixed(self) -> Option<f64> {
        match self {
            Relevance::Fixed(r) => Some(r),
            Relevance::Kept => None,
        }
    }
}

/// Preference when spans overlap: lower wins.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Tier {
    /// A value of the configured deny list: it wins every overlap.
    Deny,
    /// An identifier whose check digits or public format were verified whole.
    Checked,
    /// A table cell typed by its column's header, a code in brackets typed by the
    /// person's name it follows.
    Column,
    Email,
    Phone,
    Id,
    /// A digit run that is a phone number only by a context word before it: an id of
    /// the same digits wins.
    PhoneGuess,
    Date,
    Address,
    Name,
    /// A field's value typed by its key (`"member_id": "…"`, `ID: …` on a record line):
    /// what a recognizer found there with its own context wins.
    Field,
    Provider,
    NameEcho,
    Gazetteer,
    /// Two or three capitalised words in no vocabulary and with no cue: a person's
    /// name by its shape alone; a gazetteer term, a product or a place wins.
    NameGuess,
    PlaceGuess,
}

/// One candidate mention, in byte offsets of the document.
#[derive(Debug, Clone)]
pub(super) struct Candidate {
    pub start: usize,
    pub end: usize,
    pub ty: &'static str,
    pub normalized: String,
    pub relevance: f64,
    pub tier: Tier,
}

/// What recognizers read besides the candidates: the text of one document, its folded
/// form, the configured date order and the extractor's gazetteers (`None` if their
/// automaton could not be built).
pub(super) struct Context<'a> {
    pub text: &'a str,
    pub folded: &'a Folded,
    pub date_order: DateOrder,
    pub gazetteer: Option<&'a Gazetteer>,
}

impl Context<'_> {
    /// Appends the candidate `text[start..end]` with `row`'s type and relevance and the
    /// canonical value of its type. Nothing when the range is not in the text, the
    /// canonical value is empty, or `row` keeps earlier relevances.
    pub fn push(
        &self,
        cands: &mut Vec<Candidate>,
        span: (usize, usize),
        row: &RelevanceRow,
        tier: Tier,
    ) {
        if let Some(relevance) = row.relevance.fixed() {
            self.push_typed(cands, span, row.entity_type, relevance, tier);
        }
    }

    /// [`Context::push`] with a type and relevance known only at run time (the
    /// configured gazetteer terms and deny list).
    pub fn push_typed(
        &self,
        cands: &mut Vec<Candidate>,
        (start, end): (usize, usize),
        ty: &'static str,
        relevance: f64,
        tier: Tier,
    ) {
        let Some(original) = self.text.get(start..end) else {
            return;
        };
        let normalized = canonical(original, ty, self.date_order);
        if normalized.is_empty() {
            return;
        }
        cands.push(Candidate {
            start,
            end,
            ty,
            normalized,
            relevance,
            tier,
        });
    }
}

/// A recognizer: finds one family of mentions in a text. The registry in
/// [`super`] runs recognizers in order over one list of candidates.
pub(super) trait Recognizer: Send + Sync {
    /// Short name: the `recognizer` column of the relevance table.
    fn name(&self) -> &'static str;

    /// What it matches, with the type and relevance it gives: its rows of the relevance
    /// table, in that order (a unit test holds the table to them).
    fn relevances(&self) -> &'static [RelevanceRow];

    /// The entity types it can give; by default those of its rows.
    fn entity_types(&self) -> Vec<&'static str> {
        let mut types: Vec<&'static str> = Vec::new();
        for row in self.relevances() {
            if !types.contains(&row.entity_type) {
                types.push(row.entity_type);
            }
        }
        types
    }

    /// Appends the candidates it finds in `ctx.text` to `cands`, which holds those of
    /// every recognizer before it in the registry. A recognizer that depends on them
    /// (name echoes, clinicians) reads them there, and may revise them as its rows
    /// declare; it never removes one.
    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>);
}
