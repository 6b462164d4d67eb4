//! Names that open a record line or fill a quoted value, without a label: "Wall, Ruth -
//! 3 West - bed 12", "1. Gonzalez, Constanza - site engineer", "('Najeeb, Zafeer', …",
//! "WASUNUN Sitiwat<TAB>Case Officer". Where a name stands in the layout is its cue.

use super::*;

impl Run<'_> {
    /// Word `i` opens a record: its line (after a list marker: "1.", "2)", "-", "*",
    /// "•"), a cell (after a tab, "|" or ";"), or a sentence after an ellipsis.
    pub(super) fn opens_record(&self, i: usize) -> bool {
        let (tail, line) = self.near_before(i, 12);
        // Markdown emphasis before the word is no part of the line's opening.
        let tail = tail.trim_end_matches(['*', '_']);
        let t = tail.trim_end_matches(' ');
        if t.ends_with(['\t', '|', ';', '\n', '…']) || t.ends_with("...") {
            return true;
        }
        let Some(line) = line else {
            return false;
        };
        let m = without_emphasis(line);
        m.is_empty() || is_bullet(m) || list_number(m)
    }

    /// Word `e` ends a record's first cell: the line ends, or a separator follows (a
    /// tab, " - ", "|", ";"), or the sentence ends ("!", "?", ". ").
    pub(super) fn closes_record(&self, e: usize) -> bool {
        let mut rest = &self.text[self.toks[e].end..];
        if self.toks[e].shape == Shape::Initial {
            rest = rest.strip_prefix('.').unwrap_or(rest);
        }
        let rest = rest.trim_start_matches(['*', '_']);
        if rest.is_empty() || rest.starts_with(['\n', '\r', '\t', '|', ';', '!', '?']) {
            return true;
        }
        if let Some(r) = rest.strip_prefix('.') {
            return r.is_empty() || r.starts_with([' ', '\n', '\r']);
        }
        [" - ", " – ", " — ", " |", " ;"]
            .iter()
            .any(|s| rest.starts_with(s))
    }

    /// Words `i..=e` are the whole of a quoted or bracketed value ("'Najeeb, Zafeer'",
    /// "(KONG, Yong)").
    pub(super) fn quoted(&self, i: usize, e: usize) -> bool {
        let before = self.text[..self.toks[i].start].chars().next_back();
        let after = self.text[self.toks[e].end..].chars().next();
        matches!(
            (before, after),
            (Some('\''), Some('\''))
                | (Some('"'), Some('"'))
                | (Some('\u{2018}'), Some('\u{2019}'))
                | (Some('\u{201c}'), Some('\u{201d}'))
                | (Some('('), Some(')'))
        )
    }

    /// Words `i..=e` are the whole of their line.
    pub(super) fn alone_on_line(&self, i: usize, e: usize) -> bool {
        // Only the blanks next to the words are read (a long line stays linear).
        let text = self.text;
        let before = text[..self.toks[i].start].trim_end_matches([' ', '\t', '\r']);
        let after = text[self.toks[e].end..].trim_start_matches([' ', '\t', '\r']);
        (before.is_empty() || before.ends_with('\n'))
            && (after.is_empty() || after.starts_with('\n'))
    }

    /// The text after the line of word `e` (None on the last line).
    fn after_line(&self, e: usize) -> Option<&str> {
        let rest = &self.text[self.toks[e].end..];
        rest.find('\n').map(|nl| &rest[nl + 1..])
    }

    /// The line after word `e` opens with an address: a house number and a capitalised
    /// word ("12 High Street"), a unit ("Flat 2", "Apt 4B") or a street type ("Via
    /// Roma 12"): words alone on the line before it are the addressee.
    pub(super) fn address_line_follows(&self, e: usize) -> bool {
        let Some(next) = self.after_line(e) else {
            return false;
        };
        let next = next.trim_start();
        let mut words = next.split_whitespace();
        let (Some(first), Some(second)) = (words.next(), words.next()) else {
            return false;
        };
        let folded = fold_word(first.trim_end_matches([',', '.']));
        let house = first.len() <= 6
            && first.starts_with(|c: char| c.is_ascii_digit())
            && first
                .trim_end_matches(',')
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '/')
            && second.starts_with(char::is_uppercase);
        let unit = is_unit_type(&folded) && second.starts_with(|c: char| c.is_ascii_digit());
        let street = is_street_type(&folded) && second.starts_with(char::is_uppercase);
        house || unit || street
    }

    /// The line after word `e` opens with the label of a person's identifier or birth
    /// date ("Staff ID:", "Employee No.", "MRN", "DOB:", "Date of birth"): words alone on
    /// the line before it name the person the record is about ("EMPLOYEE RECORD⏎JACEK
    /// BELA⏎Staff ID: …").
    pub(super) fn id_line_follows(&self, e: usize) -> bool {
        const OWNERS: [&str; 9] = [
            "staff",
            "employee",
            "emp",
            "patient",
            "member",
            "payroll",
            "personnel",
            "student",
            "badge",
        ];
        let Some(next) = self.after_line(e) else {
            return false;
        };
        let line: String = next
            .split('\n')
            .next()
            .unwrap_or("")
            .trim_start()
            .chars()
            .take(24)
            .flat_map(char::to_lowercase)
            .collect();
        let words: Vec<&str> = line
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .take(3)
            .collect();
        match words.as_slice() {
            ["dob" | "mrn", ..] | ["date", "of", "birth"] => true,
            [owner, key, ..] => {
                OWNERS.contains(owner) && ["id", "no", "number", "nr", "ref"].contains(key)
            }
            _ => false,
        }
    }

    /// The line after word `e` is a party's role in a case ("Claimant", "Defendant",
    /// "(Respondent)").
    pub(super) fn party_line_follows(&self, e: usize) -> bool {
        const PARTIES: [&str; 8] = [
            "claimant",
            "defendant",
            "respondent",
            "applicant",
            "appellant",
            "petitioner",
            "plaintiff",
            "deceased",
        ];
        let Some(next) = self.after_line(e) else {
            return false;
        };
        let next = next.split('\n').next().unwrap_or("");
        let word = next.trim().trim_matches(['(', ')', ',', '.']);
        word.len() <= 12 && PARTIES.iter().any(|p| word.eq_ignore_ascii_case(p))
    }

    /// `LAST, FIRST` (words `i..=e`) as a record's first cell or a quoted value.
    pub(super) fn record_cell(&self, i: usize, e: usize) -> bool {
        self.opens_record(i) && self.closes_record(e) || self.quoted(i, e)
    }

    /// "Kiptoo, Khamisi reacted to …": `LAST, FIRST` (a middle name maybe) opening its
    /// line, then a word in lower case (a verb).
    pub(super) fn opens_line_before_verb(&self, i: usize, e: usize) -> bool {
        let toks = self.toks;
        let e = match toks.get(e + 1) {
            Some(m) if m.shape == Shape::Cap && joined(self.text, &toks[e], m) => e + 1,
            _ => e,
        };
        self.opens_record(i)
            && toks
                .get(e + 1)
                .is_some_and(|n| n.shape == Shape::Lower && self.text[toks[e].end..n.start] == *" ")
    }

    /// "WASUNUN Sitiwat<TAB>Case Officer", "WEST Colin - Practice Manager": a surname in
    /// capitals and a given name (a middle name maybe) opening a record line and filling
    /// its first cell.
    pub(super) fn caps_surname_given(&self, i: usize, out: &mut Vec<Found>) {
        let (text, toks, ev) = (self.text, self.toks, self.ev);
        // Particles in capitals open the surname ("VAN DEN BROEK Linde", "MAC CONDUIBH
        // Norah").
        let first = i;
        let mut i = i;
        while i < first + 2
            && i < toks.len()
            && toks[i].shape == Shape::Upper
            && super::lists::is_particle(self.folded(i))
            && toks
                .get(i + 1)
                .is_some_and(|n| n.shape == Shape::Upper && joined(text, &toks[i], n))
        {
            i += 1;
        }
        let (Some(a), Some(b)) = (toks.get(i), toks.get(i + 1)) else {
            return;
        };
        if a.shape != Shape::Upper || b.shape != Shape::Cap || !joined(text, a, b) {
            return;
        }
        let given = |k: usize| {
            let e = &ev[k];
            let w = self.folded(k);
            !in_list(NOT_PERSON, w)
                && !is_calendar_word(w)
                && !self.v.is_place(w)
                // (The layout says which is the surname: a given name rarer than the
                // surname it also is will do, "VAN DEN BROEK Linde".)
                && (e.known() && e.given > 0.0 || self.unknown_word(k))
        };
        let mut e = i + 1;
        if toks
            .get(i + 2)
            .is_some_and(|c| c.shape == Shape::Cap && joined(text, b, c) && given(i + 2))
        {
            e = i + 2;
        }
        // The line may open with the person's code ("E-677117 CLAESSON Stefan - …").
        let after_code = || {
            let (_, line) = self.near_before(first, 24);
            line.is_some_and(|l| super::judge::is_code(l.trim_end_matches([' ', '\t', ':'])))
        };
        if !given(i + 1) || !(self.opens_record(first) || after_code()) || !self.closes_record(e) {
            return;
        }
        let fa = self.folded(i);
        let ea = &ev[i];
        let raw = &text[a.start..a.end];
        // An acronym or a code ("PCR", "HR", "ID"): no vowel, or three letters or fewer
        // and no surname.
        if !crate::extract::offline::text::has_vowel(raw)
            || fa.chars().count() <= 3 && ea.surname <= 0.0
            || self.org(i)
            || in_list(NOT_PERSON, fa)
            || is_calendar_word(fa)
            || self.v.is_place(fa) && ea.surname <= 0.0
        {
            return;
        }
        // A surname that is an English word ("WEST Colin") only before a known given
        // name; a heading word ("SUMMARY Anna") is no surname at all.
        if ea.is_word() && !(ea.surname > 0.0 && ev[i + 1].known() && ev[i + 1].given > 0.0) {
            return;
        }
        out.push(Found {
            start: toks[first].start,
            end: toks[e].end,
            row: &LAST_FIRST,
        });
    }

    /// A date with a year in brackets after word `e` ("from Lungile Mbekwa (12 June
    /// 1945)", "(04/11/1979)"): a person's date of birth; a place has none.
    pub(super) fn birth_date_after(&self, e: usize) -> bool {
        let rest = self.text[self.toks[e].end..].trim_start_matches(' ');
        let Some(inner) = rest
            .strip_prefix('(')
            .and_then(|r| r.split(')').next())
            .filter(|i| i.len() <= 24)
        else {
            return false;
        };
        let year = inner
            .split(|c: char| !c.is_ascii_digit())
            .any(|d| d.len() == 4 && (d.starts_with("19") || d.starts_with("20")));
        let month = inner
            .split(|c: char| !c.is_alphabetic())
            .any(|w| crate::entity::normalize::is_calendar_word(&w.to_lowercase()));
        year && (month || inner.contains(['/', '.', '-']))
    }
}

/// Names in lower case after a cue word, as chat writes them ("talked to miki shimizu
/// today", "cc səbuhi əylisli"): a given name (or a word of no vocabulary written with
/// letters English does not use) and a surname or a word of no vocabulary, one of them
/// known, neither an English word, a common word of another language or a place.
pub(super) fn lower_case_names(text: &str, toks: &Tokens, v: &Vocab, out: &mut Vec<Found>) {
    // A word as common as Zipf 4 in English text is a name only when it is a common
    // name ("julia", "lucas": wordfreq counts names too).
    let plain = |k: usize| {
        let w = toks.folded(k);
        let e = v.evidence(w);
        w.chars().count() >= 2
            && !e.is_word()
            && (v.words.get(w) < 4.0 || e.name() >= super::WORD_NAME_MIN)
            && !v.foreign_words.contains(w)
            && !v.is_place(w)
            && !in_list(NOT_PERSON, w)
            && !is_calendar_word(w)
    };
    for k in 1..toks.len().saturating_sub(1) {
        let (p, a) = (&toks[k - 1], &toks[k]);
        // Cheapest tests first: most pairs of lower-case words follow no cue word.
        if a.shape != Shape::Lower
            || toks[k + 1].shape != Shape::Lower
            || text[p.end..a.start] != *" "
            || text[a.end..toks[k + 1].start] != *" "
            // ("does anyone know who charlie smith is??": "who" before a name in lower
            // case.)
            || !(is_cue_word(toks.fold_of(p)) || toks.fold_of(p) == "who")
            || !plain(k)
        {
            continue;
        }
        // "talked to melanie ó donnagáin today", "cc maria de souza": one particle
        // between the given name and the surname.
        let second_particle = lists::is_particle(toks.folded(k + 1));
        let particle = toks.get(k + 2).is_some_and(|c| {
            second_particle
                && c.shape == Shape::Lower
                && text[toks[k + 1].end..c.start] == *" "
                && plain(k + 2)
        });
        // (A particle alone is no surname: "cc maria van …".)
        let m = if particle { k + 2 } else { k + 1 };
        let b = &toks[m];
        if !particle && (!plain(m) || second_particle) {
            continue;
        }
        let (ea, eb) = (v.evidence(toks.folded(k)), v.evidence(toks.folded(m)));
        let given = ea.given > 0.0 && ea.given >= ea.surname;
        let surname = eb.surname > 0.0;
        let unknown_a = ea.name() == 0.0 && forms::accented_non_english(&text[a.start..a.end]);
        let unknown_b = eb.name() == 0.0 && toks.folded(m).chars().count() >= 3;
        // A third word in lower case that is a name too would make the run longer than
        // this reads; a particle after ("van", "de") likewise.
        let longer = toks.get(m + 1).is_some_and(|n| {
            n.shape == Shape::Lower
                && text[b.end..n.start] == *" "
                && (v.evidence(toks.fold_of(n)).name() > 0.0 || in_list(PARTICLES, toks.fold_of(n)))
                && v.words.get(toks.fold_of(n)) < 3.0
        });
        if (given && (surname || unknown_b) || unknown_a && surname && !particle) && !longer {
            out.push(Found {
                start: a.start,
                end: b.end,
                row: &LOWER_CUED,
            });
        }
    }
}

/// A numbered list's marker: "1.", "12)", "(3)", "a)".
fn list_number(m: &str) -> bool {
    let m = m.strip_prefix('(').unwrap_or(m);
    let Some(body) = m.strip_suffix(['.', ')']) else {
        return false;
    };
    (1..=3).contains(&body.len()) && body.bytes().all(|b| b.is_ascii_digit())
        || body.len() == 1 && body.bytes().all(|b| b.is_ascii_lowercase())
}

/// A line's start before a word, without its markdown emphasis ("- **" → "-").
fn without_emphasis(line: &str) -> &str {
    line.trim().trim_end_matches(['*', '_']).trim_end()
}

/// What opens a line before a word is a list bullet ("-", "*", "•", "–"), emphasis
/// and blanks aside.
pub(super) fn is_bullet(line: &str) -> bool {
    matches!(without_emphasis(line), "-" | "*" | "•" | "–")
}

/// Names alone on the line right above an address's first line (an envelope, a
/// letter's addressee, a shipping label: "ODETOLA, Toki⏎1 Ryan Plains⏎West Nathan",
/// "SHIP TO:⏎S'FISO NJIKI⏎Beckmannstr. 80"): the spans of the lines above the addresses
/// starting at `addresses` that are two to four name words and nothing else.
pub(super) fn names_above(text: &str, addresses: &[usize]) -> Vec<(usize, usize)> {
    let v = vocab();
    let mut out = Vec::new();
    for &a in addresses {
        // The address opens its line (after indentation at most), and the line above is
        // short: only the bytes just before are read, however long the text.
        let indent = text[..a].trim_end_matches([' ', '\t']);
        let Some(above) = indent.strip_suffix('\n') else {
            continue;
        };
        let above = above.trim_end_matches('\r');
        let mut from = above.len().saturating_sub(65);
        while !above.is_char_boundary(from) {
            from += 1;
        }
        let ps = match above[from..].rfind('\n') {
            Some(n) => from + n + 1,
            None if from == 0 => 0,
            None => continue,
        };
        let line = &above[ps..];
        let toks = tokens(line);
        let ev = super::vocab::evidence_of(line, &toks, v);
        let r = Run {
            text: line,
            v,
            toks: &toks,
            ev: &ev,
        };
        if let Some((s, e)) = r.whole_line_name() {
            out.push((ps + s, ps + e));
        }
    }
    out
}

impl Run<'_> {
    /// The line is a name and nothing else: two to four capitalised words or initials
    /// (lower-case particles between), parted by single spaces or, after the first, a
    /// comma (`LAST, First`); none an English word, a month, an organisation's word; not
    /// all places.
    fn whole_line_name(&self) -> Option<(usize, usize)> {
        let (text, toks) = (self.text, self.toks);
        let n = toks.len();
        let (first, last) = (toks.first()?, toks.last()?);
        if !(2..=4).contains(&n)
            || !text[..first.start].trim().is_empty()
            || !text[last.end..].trim_end_matches([',', ' ']).is_empty()
        {
            return None;
        }
        let mut places = 0;
        let mut names = 0;
        for k in 0..n {
            let t = &toks[k];
            let w = self.folded(k);
            let particle = t.shape == Shape::Lower && in_list(PARTICLES, w);
            if !(matches!(t.shape, Shape::Cap | Shape::Upper | Shape::Initial) || particle) {
                return None;
            }
            if k > 0 {
                let gap = &text[toks[k - 1].end..t.start];
                let gap = if toks[k - 1].shape == Shape::Initial {
                    gap.strip_prefix('.').unwrap_or(gap)
                } else {
                    gap
                };
                if !(gap == " " || k == 1 && gap == ", ") {
                    return None;
                }
            }
            if particle || t.shape == Shape::Initial {
                continue;
            }
            let e = &self.ev[k];
            if e.is_word() || is_calendar_word(w) || self.org(k) {
                return None;
            }
            places += usize::from(self.v.is_place(w));
            names += 1;
        }
        (names >= 2 && places < names).then_some((first.start, last.end))
    }
}

/// Words for a person's relation to another: after a surname and `'s`, the surname is
/// a person's ("Honkanen's supervisor", "Ruud's wife").
const RELATIONS: &[&str] = &[
    "supervisor",
    "manager",
    "wife",
    "husband",
    "partner",
    "spouse",
    "mother",
    "father",
    "son",
    "daughter",
    "sister",
    "brother",
    "colleague",
    "colleagues",
    "solicitor",
    "lawyer",
    "attorney",
    "counsel",
    "gp",
    "carer",
    "landlord",
    "employer",
    "widow",
    "widower",
    "fiance",
    "fiancee",
    "girlfriend",
    "boyfriend",
    "children",
    "parents",
    "family",
    // The people who treat a patient: "Soldo's physiotherapist recorded progress".
    "physiotherapist",
    "physio",
    "therapist",
    "doctor",
    "surgeon",
    "consultant",
    "dentist",
    "nurse",
    "psychologist",
    "psychiatrist",
    "counsellor",
    "counselor",
    "midwife",
];

impl Run<'_> {
    /// A surname (or a given name) alone before `'s` and a relation's word (see
    /// [`RELATIONS`]): words `i..=end` are the name (a capital particle and a word at
    /// most: "Mac Aogáin").
    pub(super) fn possessive_alone(&self, i: usize, end: usize, out: &mut Vec<Found>) {
        let (text, toks) = (self.text, self.toks);
        let k = if end == i + 1 && cap_particle(toks, i) {
            end
        } else if end == i {
            i
        } else {
            return;
        };
        let t = &toks[k];
        let rest = &text[t.end..];
        let Some(after) = rest
            .strip_prefix("'s ")
            .or_else(|| rest.strip_prefix("’s "))
        else {
            return;
        };
        let relation: String = after
            .chars()
            .take_while(|c| c.is_alphabetic())
            .flat_map(char::to_lowercase)
            .collect();
        let w = self.folded(k);
        let e = &self.ev[k];
        if t.shape != Shape::Cap
            || !in_list(RELATIONS, &super::fold_word(&relation))
            || e.is_word()
            || !(e.name() > 0.0 || self.unknown_word(k))
            || self.v.is_place(w)
            || is_calendar_word(w)
            || self.not_person(k)
            || self.org(k)
        {
            return;
        }
        out.push(Found {
            start: toks[i].start,
            end: t.end,
            row: &POSSESSIVE_ALONE,
        });
    }
}

impl Run<'_> {
    /// A surname alone after a judge's title ends the run `i..=end` ("Before: Employment
    /// Judge Cui", "Employment Judge MALKA", "Mr Justice Okafor", "HHJ Dray"): a judge is
    /// a person, whatever else the word means.
    pub(super) fn after_judicial_title(&self, i: usize, end: usize, out: &mut Vec<Found>) {
        const TITLES: [&str; 4] = ["judge", "justice", "hhj", "magistrate"];
        let toks = self.toks;
        if end < i + 1 || !in_list(&TITLES, self.folded(end - 1)) {
            return;
        }
        let (t, w, e) = (&toks[end], self.folded(end), &self.ev[end]);
        if !matches!(t.shape, Shape::Cap | Shape::Upper)
            || !(e.name() > 0.0 || self.unknown_word(end))
            || is_calendar_word(w)
            || self.not_person(end)
            || self.org(end)
            || self.text[t.end..].starts_with(|c: char| c.is_alphanumeric())
        {
            return;
        }
        out.push(Found {
            start: t.start,
            end: t.end,
            row: &JUDGE,
        });
    }
}
