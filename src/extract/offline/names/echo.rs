//! Name echoes: a surname or a partial name alone after the full name in the same document, resolved to that full name.

use super::*;

impl NameEchoes {
    pub(in crate::extract::offline) fn new() -> Result<Self, &'static regex::Error> {
        Ok(NameEchoes)
    }
}

impl Recognizer for NameEchoes {
    fn name(&self) -> &'static str {
        "name_echo"
    }

    fn relevances(&self) -> &'static [RelevanceRow] {
        &[ECHO, PARTIAL_ECHO, GUESS_ECHO]
    }

    fn recognize(&self, ctx: &Context<'_>, cands: &mut Vec<Candidate>) {
        // Full names of this document: at least two words, the first not an initial.
        let full: BTreeSet<String> = cands
            .iter()
            .filter(|c| c.ty == "NAME")
            .map(|c| c.normalized.clone())
            .filter(|n| is_full_name(n))
            .collect();
        // Names found by their shape alone (no other recognizer has them): their echoes
        // rank with them, below gazetteer terms and products.
        let guessed: BTreeSet<String> = full
            .iter()
            .filter(|n| {
                cands
                    .iter()
                    .filter(|c| c.ty == "NAME" && c.normalized == **n)
                    .all(|c| c.tier == Tier::NameGuess)
            })
            .cloned()
            .collect();
        // Names written with an initial and no full name to stand for ("M. Turunen"):
        // their surname alone is theirs too ("at Turunen's request").
        let mut initialed: BTreeSet<String> = BTreeSet::new();
        for c in cands.iter_mut().filter(|c| c.ty == "NAME") {
            if is_full_name(&c.normalized) {
                continue;
            }
            if let Some(target) = resolve_partial(&c.normalized, &full) {
                c.normalized = target;
            } else if c.normalized.contains(' ') {
                initialed.insert(c.normalized.clone());
            }
        }
        echo_names(ctx, &full, &guessed, &initialed, cands);
    }
}

/// Other occurrences of the document's full names ("this is Gideon Farrow"), and
/// their first name or surname alone when unambiguous within the document; the surname
/// alone of a name written with initials ("M. Turunen") when no full name has it.
/// The echoes of a `guessed` name (found by its shape alone) rank with it.
pub(super) fn echo_names(
    ctx: &Context<'_>,
    full: &BTreeSet<String>,
    guessed: &BTreeSet<String>,
    initialed: &BTreeSet<String>,
    cands: &mut Vec<Candidate>,
) {
    if full.is_empty() && initialed.is_empty() {
        return;
    }
    let text = ctx.text;
    let mut patterns: BTreeMap<String, (Option<String>, &RelevanceRow)> = BTreeMap::new();
    let mut partial_owner: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // Surnames that are English words ("Ward", "Gut"): alone, before a verb only a
    // person takes ("Ward said the leak started in February").
    let mut cued_owner: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for name in full {
        let words: Vec<&str> = name.split(' ').collect();
        let (Some(first), Some(last)) = (words.first(), words.last()) else {
            continue;
        };
        patterns.insert(name.clone(), (Some(name.clone()), &ECHO));
        patterns.insert(format!("{last}, {first}"), (Some(name.clone()), &ECHO));
        patterns.insert(format!("{first} {last}"), (Some(name.clone()), &ECHO));
        for (w, surname) in [(first, false), (last, true)] {
            if echoable(w, surname) {
                partial_owner
                    .entry((*w).to_string())
                    .or_default()
                    .insert(name.clone());
            } else if surname && echoable_with_verb(w) {
                cued_owner
                    .entry((*w).to_string())
                    .or_default()
                    .insert(name.clone());
            }
        }
    }
    for name in initialed {
        // A full name with this surname owns it ("Ignacio S. Romero" over "S. Romero").
        if let Some(w) = name.rsplit(' ').next()
            && !partial_owner.contains_key(w)
            && echoable(w, true)
        {
            partial_owner
                .entry(w.to_string())
                .or_default()
                .insert(name.clone());
        }
    }
    let mut needs_verb: BTreeSet<String> = BTreeSet::new();
    let partial = partial_owner.into_iter().map(|p| (p, false));
    let cued = cued_owner.into_iter().map(|p| (p, true));
    for ((word, owners), verb) in partial.chain(cued) {
        if patterns.contains_key(&word) {
            continue;
        }
        let owner = if owners.len() == 1 {
            owners.into_iter().next()
        } else {
            None
        };
        if verb {
            needs_verb.insert(word.clone());
        }
        patterns.insert(word, (owner, &PARTIAL_ECHO));
    }
    let keys: Vec<&String> = patterns.keys().collect();
    // Folded as the document is ("nəbiqızı" meets "NƏBIQIZI").
    let folded_keys: Vec<String> = keys.iter().map(|k| fold_term(k)).collect();
    // A handful of names per document: plain substring search beats building an
    // automaton for every document.
    for (start, end, pattern) in find_words_few(&folded_keys, ctx.folded, text) {
        let Some(key) = keys.get(pattern) else {
            continue;
        };
        let Some((Some(owner), row)) = patterns.get(*key) else {
            continue;
        };
        // Names are written capitalised; "grace" or "will" in running text are words.
        if !next_char(text, start).is_some_and(char::is_uppercase) {
            continue;
        }
        if needs_verb.contains(*key) && !person_verb_after(text, end) {
            continue;
        }
        // A surname that is also a month or a day ("Sun", "May", "August") beside a
        // number is a date ("Sun 12 May", "3 August").
        if crate::entity::normalize::is_calendar_word(key) && beside_number(text, start, end) {
            continue;
        }
        let Some(relevance) = row.relevance.fixed() else {
            continue;
        };
        // A full name echoed ranks with the names it echoes; a partial one below them.
        let (tier, relevance) = if guessed.contains(owner) {
            (
                Tier::NameGuess,
                relevance.min(GUESS_ECHO.relevance.fixed().unwrap_or(0.0)),
            )
        } else if relevance >= 0.85 {
            (Tier::Name, relevance)
        } else {
            (Tier::NameEcho, relevance)
        };
        cands.push(Candidate {
            start,
            end,
            ty: row.entity_type,
            normalized: owner.clone(),
            relevance,
            tier,
        });
    }
}

/// A word of a name that may stand alone for it: three letters or more, no initial, no
/// organisation or heading word (a month's or a day's name may: "Ping Sun" … "Sun
/// said", unless beside a number); a surname of two letters too ("Su", "Lê", "Ye"),
/// unless a common English word ("He", "An", "Do").
pub(in crate::extract::offline) fn echoable(w: &str, surname: bool) -> bool {
    let letters = w.chars().count();
    let short_surname = surname
        && letters == 2
        && w.chars().all(char::is_alphabetic)
        && super::super::person::word_zipf(w) < SHORT_SURNAME_WORD_MAX;
    (letters >= 3 || short_surname)
        && !w.contains('.')
        && (!name_stop(w) || crate::entity::normalize::is_calendar_word(w))
}

/// A surname that may stand alone for its name only before a verb only a person takes:
/// an English word of the stop list ("Ward", "Gut"), four letters or more, no month or
/// day.
fn echoable_with_verb(w: &str) -> bool {
    w.chars().count() >= 4
        && w.chars().all(char::is_alphabetic)
        && name_stop(w)
        && !crate::entity::normalize::is_calendar_word(w)
}

/// The word after `end` (one space between) is a verb only a person takes ("said",
/// "replied").
fn person_verb_after(text: &str, end: usize) -> bool {
    text[end..].strip_prefix(' ').is_some_and(|rest| {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphabetic())
            .flat_map(char::to_lowercase)
            .collect();
        super::super::person::is_person_only_after(&word)
    })
}

/// A two-letter surname echoes its name when less common than this as an English
/// word (Zipf): "ye" 4.3, "ma" 4.6 do; "he" 6.7, "an" 6.5, "do" 6.4 do not.
const SHORT_SURNAME_WORD_MAX: f32 = 5.0;

/// A number right before or after `text[start..end]`, blanks, commas or periods
/// between ("12 May", "May 2024", "Sun, 12").
fn beside_number(text: &str, start: usize, end: usize) -> bool {
    let sep = |c: char| c == ' ' || c == ',' || c == '.' || c == '\u{a0}';
    let after = text[end..].trim_start_matches(sep);
    let before = text[..start].trim_end_matches(sep);
    after.starts_with(|c: char| c.is_ascii_digit())
        || before.ends_with(|c: char| c.is_ascii_digit())
}

pub(super) fn is_full_name(normalized: &str) -> bool {
    let words: Vec<&str> = normalized.split(' ').collect();
    words.len() >= 2
        && words
            .first()
            .is_some_and(|w| !w.ends_with('.') && w.chars().count() > 1)
}

/// The full name a partial name ("raman", "m. quintero-hale") stands for, if exactly one
/// full name of the document fits.
pub(super) fn resolve_partial(partial: &str, full: &BTreeSet<String>) -> Option<String> {
    let words: Vec<&str> = partial.split(' ').collect();
    let surname = *words.last()?;
    let initials: Vec<char> = words[..words.len() - 1]
        .iter()
        .filter_map(|w| w.chars().next())
        .collect();
    let mut fits = full.iter().filter(|f| {
        let fw: Vec<&str> = f.split(' ').collect();
        fw.last() == Some(&surname)
            && initials
                .first()
                .is_none_or(|i| fw.first().is_some_and(|w| w.starts_with(*i)))
    });
    let first = fits.next()?;
    if fits.next().is_some() {
        return None;
    }
    Some(first.clone())
}
