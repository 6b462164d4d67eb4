//! One segment of a run of name-like words judged: which row of the relevance table
//! it meets, with or without a cue, in capitals or not.

use super::*;

impl Run<'_> {
    /// One segment `k..=last` of name-like words (`e` ≥ `last`: trailing initials);
    /// `worded`: an English word that is also a name was taken in at an end (`uncued`:
    /// a surname after a common given name, a name without a cue).
    pub(super) fn segment(
        &self,
        k: usize,
        last: usize,
        e: usize,
        worded: bool,
        uncued: bool,
        out: &mut Vec<Found>,
    ) {
        let (text, toks, ev) = (self.text, self.toks, self.ev);
        // Particles inside ("VAN DER", "Ó") are not words of their own.
        let words: Vec<usize> = (k..=last)
            .filter(|&x| self.is_name_word(x) && !(x < last && cap_particle(toks, x)))
            .collect();
        // ("Reassigned CLM-… from Sanya Seth to …", "voicemail from …": a sender.)
        let sender = self.sent_from(k);
        let cue = self.cue_before(k)
            || sender
            || self.after_closing(k)
            || self.cue_after(e)
            || self.chat_speaker(k, e)
            || self.apposition_after(e) && words.len() >= 2
            // "2. Eder Riša - bus driver": the first cell of a record line (a line in
            // capitals is a heading as often, words alone on a line a form's key and
            // value as often: "Forename Sathvik").
            // "ADESOJI EDUN⏎12 Harbour Road⏎…": the addressee of a letter; "AURÉLIA
            // KUBECOVÁ⏎Claimant⏎-v-": a party of a case.
            || words.len() >= 2
                && self.alone_on_line(k, e)
                && (self.address_line_follows(e)
                    || self.party_line_follows(e)
                    || self.id_line_follows(e))
            || words.len() >= 2
                && words.iter().any(|&x| toks[x].shape == Shape::Cap)
                // A name the vocabularies know, no common word of another language
                // ("Oversteeg Groep — Newsletter").
                && words.iter().any(|&x| ev[x].known())
                && !words.iter().any(|&x| self.v.foreign_words.contains(self.folded(x)))
                && self.record_cell(k, e)
                && !self.alone_on_line(k, e);
        if words.len() == 1 {
            let w = words[0];
            // "S. Ó Cairealláin", "F. de Grás": initials, particles and a surname, with
            // a cue.
            if let Some(s) = self.initials_before(w)
                && (self.cue_before(s) || self.cue_after(last))
                && !ev[w].is_word()
            {
                out.push(Found {
                    start: toks[s].start,
                    end: toks[last].end,
                    row: &CUED,
                });
                return;
            }
            // "F. Ćorić (P6325490)": one initial and a surname or a word of no
            // vocabulary, with a cue.
            if w >= 1
                && w == last
                && toks[w - 1].shape == Shape::Initial
                && text[toks[w - 1].end..].starts_with(". ")
                && joined(text, &toks[w - 1], &toks[w])
                && cue
                && !ev[w].is_word()
                && (ev[w].surname > 0.0 || ev[w].name() == 0.0)
                && toks[w].shape == Shape::Cap
                && !in_list(NOT_PERSON, self.folded(w))
            {
                out.push(Found {
                    start: toks[w - 1].start,
                    end: toks[w].end,
                    row: &CUED,
                });
                return;
            }
            // "Jacobs v Masinde [2021] EWHC 1432": a party of a case cited by surname;
            // "(née Balogun)", "geb. Hertrampf": a maiden name.
            if w == last && (self.case_party(w) || self.maiden_name(w)) {
                out.push(Found {
                    start: toks[w].start,
                    end: toks[w].end,
                    row: &CUED,
                });
                return;
            }
            // "Ines C.": a given name and an initial, after or before a cue.
            if e > last
                && toks[e].shape == Shape::Initial
                && text[toks[e].end..].starts_with('.')
                && toks[w].shape == Shape::Cap
                && (ev[w].known() && ev[w].given > ev[w].surname || cue)
                && !ev[w].is_word()
                && !followed_by_capital(text, toks, e)
            {
                let end = period_end(text, toks[e].end);
                out.push(Found {
                    start: toks[w].start,
                    end,
                    row: &GIVEN_INITIAL,
                });
            }
            return;
        }
        if words.is_empty() || words.len() > 4 {
            return;
        }
        let row = if worded {
            if cue {
                Some(&CUED)
            } else if uncued {
                Some(&GIVEN_WORD)
            } else {
                None
            }
        } else {
            self.plain_row(k, last, e, cue, &words)
        };
        if let Some(row) = row {
            out.push(Found {
                start: toks[k].start,
                end: toks[last].end,
                row,
            });
        }
    }

    /// The row of segment `k..=last` (`e`: its trailing initials' end; `words`: its
    /// name words) when no English word was taken in at an end, by what its first and
    /// last words are, how they are written and `cue`; None for no name.
    fn plain_row(
        &self,
        k: usize,
        last: usize,
        e: usize,
        cue: bool,
        words: &[usize],
    ) -> Option<&'static RelevanceRow> {
        let (text, toks, ev) = (self.text, self.toks, self.ev);
        let all_upper = words.iter().all(|&x| toks[x].shape == Shape::Upper);
        let mixed_case = !all_upper && words.iter().any(|&x| toks[x].shape == Shape::Upper);
        let (first, lastw) = (words[0], words[words.len() - 1]);
        let (f, l) = (ev[first], ev[lastw]);
        let given_first = f.given > 0.0 && f.given >= f.surname - 1.0;
        let surname_last = l.surname > 0.0 && l.surname >= l.given - 1.0;
        // Family name first ("Nguyen Van Anh", "Nagy Gábor"): a surname that is no given
        // name, then a given name.
        // ("Yang Su": a family name as often given, then a given name more often given.)
        let family_first = f.surname > 0.0
            && (!given_first || f.surname >= f.given && f.known() && l.known())
            && l.given > l.surname;
        // (A word of no name vocabulary stays unknown though it is a common word of
        // another language: "Keji Ojo", "Amelia Honing" are persons, as "Despacho
        // Ochoa" is a firm.)
        let unknown = |e: &Evidence| e.name() == 0.0;
        // "in Kettering Mills", "near Boca Raton": a place, unless a given name and a
        // surname say otherwise; "from" is a sender after "voicemail", "feedback" ….
        let place_before = k.checked_sub(1).and_then(|p| toks.get(p)).is_some_and(|p| {
            let w = toks.fold_of(p);
            in_list(PLACE_BEFORE, w)
                && text[p.end..toks[k].start].trim().is_empty()
                && !self.sent_from(k)
        });
        // A known given name and a word of no vocabulary is a person after "from" too
        // ("Statement taken from Rozalia Siewiera at the store").
        let given_unknown = f.known() && f.given > f.surname && self.unknown_word(lastw);
        // A place has no person's code after it ("received from ƏJDƏR KƏRIMLI (611003)").
        let person_anyway = given_first && surname_last
            || given_unknown
            || self.code_after(e)
            || self.birth_date_after(e);
        if place_before && !person_anyway {
            return None;
        }
        let row = if all_upper || mixed_case {
            // Capitals are how headings are written: both ends must be names, or a cue
            // and no English word in capitals at all.
            if (given_first && surname_last || family_first) && words.iter().all(|&x| ev[x].known())
            {
                &FULL
            } else if cue && (given_first || surname_last) {
                &HALF_KNOWN
            } else if all_upper
                && f.known()
                && f.given > f.surname
                && words[1..].iter().all(|&x| {
                    ev[x].known()
                        || ev[x].name() == 0.0
                            && accented_non_english(&text[toks[x].start..toks[x].end])
                            && !self.v.foreign_words.contains(self.folded(x))
                })
                && !words[1..].iter().all(|&x| ev[x].known())
            {
                // "RAVI LUCCA FOGAÇA": a known given name first, then names or words
                // of no vocabulary whose letters no English word has (no common word
                // of another language).
                &HALF_KNOWN
            } else if cue && all_upper {
                &CUED
            } else if all_upper && self.caps_in_prose(k, last, words) {
                &CAPS_IN_PROSE
            } else {
                return None;
            }
        } else if given_first && surname_last {
            if cue { &FULL_CUED } else { &FULL }
        } else if given_first && unknown(&l) || unknown(&f) && surname_last || family_first {
            &HALF_KNOWN
        } else if words.len() >= 3
            && words.iter().all(|&x| ev[x].known())
            && f.surname > 0.0
            && words[1..]
                .iter()
                .all(|&x| ev[x].given > 0.0 && ev[x].given >= ev[x].surname - 1.0)
            && !self.v.org_short.contains(self.folded(lastw))
        {
            // A family name, then two or three given names ("Dương Mai Bảo Phúc",
            // "Nguyen Thi Lan").
            &HALF_KNOWN
        } else if cue {
            // Two surnames ("Paavola Niemi" is a firm), two given names, unknown words.
            &CUED
        } else if words.len() <= 3 && words.iter().all(|&x| self.unknown_word(x)) {
            &UNKNOWN
        } else {
            return None;
        };
        Some(row)
    }
}

/// A capitalised word or one in capitals right after word `e`, joined to it.
fn followed_by_capital(text: &str, toks: &[Tok], e: usize) -> bool {
    toks.get(e + 1)
        .is_some_and(|n| joined(text, &toks[e], n) && matches!(n.shape, Shape::Cap | Shape::Upper))
}
