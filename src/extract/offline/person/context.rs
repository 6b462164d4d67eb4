//! What surrounds a run of capitalised words: initials before it, a sender's line, the LAST, FIRST form, and cue words before and after it.

use super::*;

impl Run<'_> {
    /// Initials and at least one particle right before the surname at `w` ("S. Ó
    /// Cairealláin", "M. De Bruyne", "F. de Grás"): the first initial.
    pub(super) fn initials_before(&self, w: usize) -> Option<usize> {
        let (text, toks) = (self.text, self.toks);
        let mut s = w;
        while s > 0
            && s + 3 > w
            && joined(text, &toks[s - 1], &toks[s])
            && (toks[s - 1].shape == Shape::Lower && in_list(PARTICLES, self.folded(s - 1))
                || cap_particle(toks, s - 1))
        {
            s -= 1;
        }
        if s == w {
            return None;
        }
        let mut first = None;
        while s > 0
            && toks[s - 1].shape == Shape::Initial
            && text[toks[s - 1].end..].starts_with('.')
            && joined(text, &toks[s - 1], &toks[s])
        {
            s -= 1;
            first = Some(s);
        }
        first
    }

    /// The word before "from" (at `p`) makes what follows a sender ("Voicemail from"),
    /// maybe with when it came between ("message received on October 5 from").
    pub(super) fn sender_before(&self, p: usize) -> bool {
        // "10:04:11 From Chayapat Chomsri to Everyone:": a meeting chat's sender.
        if self.time_opens_line(p) {
            return true;
        }
        const WHEN: [&str; 9] = [
            "received",
            "sent",
            "arrived",
            "on",
            "at",
            "today",
            "yesterday",
            "this",
            "morning",
        ];
        (p.saturating_sub(6)..p).rev().any(|q| {
            in_list(FROM_SENDER, self.folded(q))
                && !self.text[self.toks[q].end..self.toks[p].start]
                    .contains(['\n', '.', ';', ':', '('])
                && (q + 1..p).all(|k| {
                    let w = self.folded(k);
                    in_list(&WHEN, w)
                        || is_calendar_word(w)
                        || w.bytes().all(|b| b.is_ascii_digit())
                })
        }) || (p.saturating_sub(4)..p).any(|q| {
            // "Reassigned LB41486384 from Chayapat Trikasemmart to …": work handed on
            // from a person, a few words back on the same line.
            in_list(HANDED_ON, self.folded(q))
                && !self.text[self.toks[q].end..self.toks[p].start].contains('\n')
        })
    }

    /// `LAST, FIRST [M.]` starting at word `i` (or at a particle before it: "DE WILDE,
    /// Lucien", "Ó Monacháin, Francis").
    pub(super) fn last_first(&self, i: usize, out: &mut Vec<Found>) {
        let (text, toks, ev) = (self.text, self.toks, self.ev);
        // (A capital particle before the comma is the surname itself: "de la O,
        // Agustín".)
        let mut ia = i;
        while cap_particle(toks, ia)
            && ia < i + 2
            && toks.get(ia + 1).is_some_and(|n| joined(text, &toks[ia], n))
        {
            ia += 1;
        }
        if ia > i && !joined(text, &toks[ia - 1], &toks[ia]) {
            return;
        }
        // Lower-case particles before the surname are part of it, and the cue is
        // before them ("voicemail left for de Haan, Jente").
        let mut i = i;
        while i > 0
            && ia - i < 2
            && toks[i - 1].shape == Shape::Lower
            && in_list(PARTICLES, toks.fold_of(&toks[i - 1]))
            && joined(text, &toks[i - 1], &toks[i])
        {
            i -= 1;
        }
        let (Some(a), Some(b)) = (toks.get(ia), toks.get(ia + 1)) else {
            return;
        };
        // A surname of one letter after lower-case particles ("de la O, Agustín").
        if !(matches!(a.shape, Shape::Cap | Shape::Upper) || a.shape == Shape::Initial && i < ia)
            || !matches!(b.shape, Shape::Cap | Shape::Upper)
        {
            return;
        }
        // "Keller, MARIA" is no way to write a name; "KELLER, Maria" is.
        if a.shape == Shape::Cap && b.shape == Shape::Upper {
            return;
        }
        let gap = &text[a.end..b.start];
        if !(gap.starts_with(',') && gap.len() <= 3 && gap[1..].chars().all(|c| c == ' ')) {
            return;
        }
        let (ea, eb) = (&ev[ia], &ev[ia + 1]);
        // A surname (or an unknown word, or one after a particle) and a given name that
        // is more a given name than a surname ("Smith, Jones" is two surnames).
        // A surname in capitals before the comma and a first name that is not: the
        // layout says which is the surname ("ŞAFAK, Şayan", "HUZAIFA, Awmar").
        let caps_form = a.shape == Shape::Upper
            && b.shape == Shape::Cap
            && !ea.is_word()
            && toks.fold_of(a).chars().count() >= 3
            && !self.org(ia);
        let surname_ok = ea.known() && ea.surname > 0.0
            || ea.name() == 0.0 && (!ea.is_word() || ia > i)
            || caps_form;
        let after_b = match toks.get(ia + 2) {
            Some(m) if m.shape == Shape::Initial && joined(text, b, m) => ia + 2,
            _ => ia + 1,
        };
        // The first cell of a record line or a quoted value ("Wall, Ruth - 3 West",
        // "('Najeeb, Zafeer', …)") is as strong a cue as a label.
        // A hyphenated word after the comma is a region as often ("Radenthein,
        // Sachsen-Anhalt"), unless its parts are names ("Jean-Pierre").
        let record = self.record_cell(i, after_b)
            && (!text[b.start..b.end].contains('-') || eb.known() && eb.given > 0.0);
        // A middle name after the first name: the cue may follow it ("SALES, José Pedro
        // (307-622-0053)").
        let after_mid = match toks.get(ia + 2) {
            Some(m)
                if after_b == ia + 1
                    && joined(text, b, m)
                    && matches!(m.shape, Shape::Cap | Shape::Upper)
                    && !is_cue_word(toks.fold_of(m))
                    && !in_list(SUFFIXES, toks.fold_of(m))
                    && !toks.get(ia + 3).is_some_and(|n| joined(text, m, n)) =>
            {
                ia + 2
            }
            _ => after_b,
        };
        // A cue around the name other than its layout (a record's cell, capitals).
        let cued =
            |s: &Self| s.strong_cue(i, after_b) || after_mid > after_b && s.cue_after(after_mid);
        let strong = |s: &Self| record || caps_form || cued(s);
        // A first name in no vocabulary ("Gusev, Reet") or listed more as a surname
        // ("Urbonas, Gustas") needs a cue: before the surname, or after the first name.
        let known_given = eb.known() && eb.given > eb.surname;
        // In capitals both ("MACKESEY, PEARCE (aged 38)"), with a cue.
        let other_given = !eb.is_word()
            && (b.shape == Shape::Cap || b.shape == Shape::Upper && a.shape == Shape::Upper);
        // A surname the vocabularies list only as a rarer given name ("Čulina, Dragan":
        // many countries' surnames are missing from the US lists), with a cue …
        // … or before a first name in no vocabulary, with a cue other than a bullet
        // ("Ülker, Feryas, 42, of …").
        // … or before another given name, neither a place, with a cue other than a
        // bullet ("Parcel for Raed, Rafeeq", "Raed, Rafeeq's claim"): which one is the
        // surname is unknown, that both are the person's is not.
        // … or in brackets of their own right after a code ("Lab results for P0280518
        // (Montserrat, Natalio)"): the person the code is, whatever else the words name.
        let given_as_surname = ea.known()
            && ea.surname == 0.0
            && (known_given && ea.given < eb.given
                || other_given && eb.name() == 0.0 && strong(self)
                || other_given
                    && eb.known()
                    && eb.given > 0.0
                    && (!self.v.is_place(toks.fold_of(a)) && !self.v.is_place(toks.fold_of(b))
                        || self.bracketed_after_code(i, after_b))
                    && strong(self));
        // A surname that is also an English word ("METS, Marko", "Obi, Onyinye"), with a
        // cue other than a bullet: "(" after, a role word before.
        let word_surname = ea.is_word()
            && ea.surname > 0.0
            && !is_calendar_word(toks.fold_of(a))
            && (known_given || other_given)
            && strong(self);
        // A first name that is also an English word after a surname, with a cue other
        // than a bullet ("Danielsson, Urban c/o …", "Meyer, Rose (…)").
        // (Or after a surname that is an English word too: "for Kong, Na on …".)
        let common_word_surname = ea.is_word()
            && ea.surname >= super::WORD_NAME_MIN
            && ea.surname > ea.given
            && !is_calendar_word(toks.fold_of(a));
        let word_given = eb.is_word()
            && eb.given > 0.0
            && b.shape == Shape::Cap
            && (surname_ok || common_word_surname)
            && !is_calendar_word(toks.fold_of(b))
            // A place before the comma is a surname when it is a common one, more a
            // surname than a given name ("voicemail left for Kong, Na on …"), or when
            // written in capitals, a surname, with a cue ("- **CHHABRA, Om** (…)").
            && (!self.v.is_place(toks.fold_of(a))
                || ea.surname >= super::WORD_NAME_MIN && ea.surname > ea.given
                || a.shape == Shape::Upper && ea.surname > ea.given && cued(self))
            && !self.v.is_place(toks.fold_of(b))
            && strong(self);
        // "Reminder for MOL, Isis:", "send MOL, Isis the form": a surname in capitals
        // that is a rarer English word or a place, then a given name that is an English
        // word too, with a cue (the layout alone is not enough here).
        let caps_word_surname = a.shape == Shape::Upper
            && b.shape == Shape::Cap
            && ea.is_word()
            && ea.surname > 0.0
            && ea.word < CAPS_WORD_SURNAME_MAX
            && toks.fold_of(a).chars().count() >= 3
            && !self.org(ia)
            && eb.given >= super::WORD_NAME_MIN
            && eb.given > eb.surname
            && !is_calendar_word(toks.fold_of(b))
            && !self.v.is_place(toks.fold_of(b))
            && cued(self);
        // "for Əsgərli, Valid;", "Asked Əsgərli, Valid to …": a surname in letters no
        // English word has and no vocabulary knows, then a capitalised English word that
        // is no commonest word, with a cue: the first name, whatever it means in English.
        // ("From: HÜSEYNOVA, Tutu <t.h@…>": the same, the surname in capitals no English
        // word is, and a rarer English word after it.)
        let foreign_then_word = b.shape == Shape::Cap
            && ea.name() <= 0.0
            && !self.v.is_place(toks.fold_of(a))
            && eb.is_word()
            && !is_calendar_word(toks.fold_of(b))
            && !self.v.is_place(toks.fold_of(b))
            && (a.shape == Shape::Cap
                && accented_non_english(&text[a.start..a.end])
                && eb.word < GIVEN_WORD_AFTER_FOREIGN_MAX
                && strong(self)
                // (A label before is no cue here: "Stock: KIWIFRUIT, Kiwi".)
                || caps_form
                    && eb.word < CAPS_WORD_SURNAME_MAX
                    && (self.cue_after(after_b) || self.person_only_before(i)));
        // "MAY, Wiremu has joined", "for MARCH, Ngaio;": a month in capitals that is a
        // surname too, then a given name (or a word of no vocabulary), with a cue.
        let calendar_caps = a.shape == Shape::Upper
            && b.shape == Shape::Cap
            && is_calendar_word(toks.fold_of(a))
            && ea.surname > 0.0
            && (known_given || eb.name() <= 0.0 && !eb.is_word())
            && !is_calendar_word(toks.fold_of(b))
            && !self.v.is_place(toks.fold_of(b))
            && (record || self.cue_before(i) || self.cue_after(after_b));
        if !(surname_ok
            || calendar_caps
            || given_as_surname
            || word_surname
            || caps_word_surname
            || word_given && common_word_surname
            || ea.name() <= 0.0 && !ea.is_word())
            || !(known_given || other_given || word_given || caps_word_surname || foreign_then_word)
        {
            return;
        }
        // "VILCIŅŠ, Viļums", "DE PAUW, Flore": a surname in capitals and a first name
        // that is not is how names are written; it needs no other cue.
        let caps_surname = a.shape == Shape::Upper
            && b.shape == Shape::Cap
            && !ea.is_word()
            && !eb.is_word()
            && (toks.fold_of(a).chars().count() >= 3 || ea.known())
            && !self.v.is_place(toks.fold_of(b))
            && !self.org(ia);
        // "Kiptoo, Khamisi reacted to …": opening the line before a verb, neither word
        // an English word or a place.
        let before_verb = !ea.is_word()
            && !eb.is_word()
            && !self.v.is_place(toks.fold_of(a))
            && !self.v.is_place(toks.fold_of(b))
            && self.opens_line_before_verb(i, after_b);
        let cue = caps_surname
            || record
            || before_verb
            || self.cue_before(i)
            || self.cue_after(after_b)
            || self.chat_speaker(i, after_b);
        if (!known_given || given_as_surname && !surname_ok) && !cue {
            return;
        }
        let (fa, fb) = (toks.fold_of(a), toks.fold_of(b));
        // ("Sá, Diogo": a legal form is written in ASCII; "SA" is one, "Sá" a surname.)
        if self.not_person(ia) || self.not_person(ia + 1) {
            return;
        }
        // "Belgaum, Nova Scotia", "Kellyberg, Mato Grosso": a place and its region; a
        // place that is no name before the comma ("Batam, Bologna").
        // A middle name after the first name is no region ("Cassiano, Carlos Eduardo").
        // ("DƯƠNG, Thị Vi": after a surname in capitals, a given name that is an English
        // word too.)
        // ("Bùi, Thị Vi, regarding …": one that ends the name at a comma or a field's
        // end.)
        let middle = |n: &Tok| {
            let e = self.v.evidence(toks.fold_of(n));
            let ends = self.field_ends(n) || text[n.end..].starts_with(',');
            (known_given || caps_surname)
                && (e.known() && (e.given > e.surname || e.given > 0.0 && ends)
                    || e.given > 0.0
                        && (caps_surname || ends)
                        && !is_calendar_word(toks.fold_of(n)))
                && n.shape == b.shape
                && !self.v.is_place(&format!("{fb} {}", toks.fold_of(n)))
        };
        // A suffix is no region either ("DAHL, Anne Jr.").
        let suffix = |n: &Tok| in_list(SUFFIXES, toks.fold_of(n));
        // ("SAYYID, Nyuki Emp#: 556": a key glued to "#" is no middle name.)
        // (Nor is the next field's label: "… Gadzina, Grzegorz Employee ID 4471".)
        if toks.get(ia + 2).is_some_and(|n| {
            joined(text, b, n)
                && !text[n.end..].starts_with('#')
                && !is_cue_word(toks.fold_of(n))
                // ("Matos, Carolina  DOB 06/08/1961": nor a word said after a name.)
                && !is_after_cue(toks.fold_of(n))
                && matches!(n.shape, Shape::Cap | Shape::Upper)
                && !middle(n)
                && !suffix(n)
        }) || self.v.is_place(fb)
            && !(known_given && strong(self)
                // "met Gimenez, Santiago at …": a surname that is no place nor word,
                // then a first name that is also a town, with a cue.
                || eb.given > 0.0
                    && ea.known()
                    && ea.surname > 0.0
                    && !self.v.is_place(fa)
                    && strong(self)
                // "Dear MAŁOTA, Iwo", "ARSLAN, Esna v. Northgate …": a surname in
                // capitals that is no place, with a cue before or after.
                || caps_form
                    && !self.v.is_place(fa)
                    && (self.cue_before(i) || self.cue_after(after_b))
                // "for Akgündüz, Eşim;": a surname in letters no English word has, that
                // no vocabulary knows and no place is, with a cue other than a bullet
                // or the layout ("Polička, Aosta — …" opening a line is a town).
                || ea.name() <= 0.0
                    && accented_non_english(&text[a.start..a.end])
                    && !self.v.is_place(fa)
                    && cued(self))
            // (The place of a record line is as often "Skövde, Brandenburg".)
            || ia == i
                && ea.name() <= 0.0
                && self.v.is_place(fa)
                && !(cue && !record && other_given)
        {
            return;
        }
        // The name before the comma must start its run (not "Harbor Smith, Anna").
        // A cue word opening the sentence ("Called Fuli, Mrihani.") is not part of it.
        // An English word opening the sentence ("Added Bílek, Ignác to the list") is not
        // part of it either.
        if i > 0
            && joined(text, &toks[i - 1], &toks[i])
            && matches!(
                toks[i - 1].shape,
                Shape::Cap | Shape::Upper | Shape::Initial
            )
            && !is_cue_word(toks.fold_of(&toks[i - 1]))
            && !is_honorific(toks.fold_of(&toks[i - 1]))
            && !(self.ev[i - 1].is_word() && self.opens_sentence(i - 1))
        {
            return;
        }
        let mut end = b.end;
        let mut next = ia + 2;
        if let Some(m) = toks.get(next)
            && m.shape == Shape::Initial
            && joined(text, b, m)
        {
            end = period_end(text, m.end);
            next += 1;
        } else if let Some(m) = toks.get(next)
            && joined(text, b, m)
            && matches!(m.shape, Shape::Cap | Shape::Upper)
            && !suffix(m)
            && !text[m.end..].starts_with('#')
            && !is_cue_word(toks.fold_of(m))
            && !is_after_cue(toks.fold_of(m))
        {
            // The middle name (checked above).
            end = m.end;
            next += 1;
        }
        // A firm of partners ("Smith, Jones & Lee") is no LAST, FIRST; a person and
        // another are ("ROBERTS, Ricky & Ruth Fierro").
        let rest = text[end..].trim_start_matches(' ');
        if rest.starts_with('&')
            && !(text[end..].starts_with(" & ") && self.names_around_amp(next - 1))
        {
            return;
        }
        // "Bauer, Emilie and Tom Ward" is a person and another; "Smith, Jones and Lee"
        // (no given name after the comma) a firm.
        // ("the Marriage of Muhammadazizov, Fuzayl and …": a first name in no vocabulary
        // after a cue is no partner's surname.)
        if let Some(n) = toks.get(next)
            && !known_given
            && !(other_given && eb.name() == 0.0 && self.cue_before(i))
            && in_list(CONJUNCTIONS, toks.fold_of(n))
            && text[end..n.start].trim().is_empty()
        {
            return;
        }
        let row = if known_given && surname_ok && !word_surname {
            &LAST_FIRST
        } else if !surname_ok && (word_given && common_word_surname || caps_word_surname) {
            &WORDS_CUED
        } else {
            &LAST_FIRST_CUED
        };
        out.push(Found {
            start: toks[i].start,
            end,
            row,
        });
    }

    /// A cue word right before word `k` (only white space or a colon between), or a
    /// list bullet ("- ", "• ") opening the line.
    pub(super) fn cue_before(&self, k: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        if self
            .near_before(k, 8)
            .1
            .is_some_and(super::records::is_bullet)
        {
            return true;
        }
        let Some(p) = k.checked_sub(1).and_then(|p| toks.get(p)) else {
            return false;
        };
        let gap = &text[p.end..toks[k].start];
        let listed = (gap.len() <= 3
            && gap.chars().all(|c| c == ' ' || c == ':' || c == ',')
            // "Lives with partner (Jan Theunis)", "wife (Ana Pop)".
            || gap == " (")
            && is_cue_word(toks.fold_of(p));
        // "a.lind@example.org (ALMA HELD)": the display name after an e-mail address.
        let after_email = gap == " ("
            && text[..p.end]
                .rsplit(char::is_whitespace)
                .next()
                .is_some_and(|w| w.contains('@') && w.contains('.'));
        // "Deposition of Ming Sun", "on behalf of Gusev, Reet".
        let of_phrase = gap == " "
            && k >= 2
            && text[toks[k - 2].end..p.start] == *" "
            && match toks.fold_of(p) {
                "of" => in_list(BEFORE_OF, toks.fold_of(&toks[k - 2])),
                // "Following service on Sinaga, Parman at …", "served on".
                "on" | "upon" => matches!(toks.fold_of(&toks[k - 2]), "service" | "served"),
                // "The applicant's full name is Ulug‘bekov, Muhammadrizo."
                "is" | "was" => toks.fold_of(&toks[k - 2]) == "name",
                _ => false,
            };
        // In brackets, after a slash or a spaced dash, right after a code ("TCS653020
        // (VELITDIN ASLAN)", "Re: CLM-2023-932099 / Zaahir Darain", "Employee 765856 -
        // Puspa Zulaika - has requested …"): the person the code is of.
        let dash = matches!(gap, " - " | " \u{2013} " | " \u{2014} ");
        // ("Holiday request XM54374: Jun Xia - 5 days": after the code and a colon.)
        let after_code = (matches!(gap.trim(), "(" | "/" | "[") || dash || gap == ": ") && {
            // The whole code, whose digit groups are tokens of their own
            // ("384-791-197").
            let code = text[..p.end]
                .rsplit(|c: char| c.is_whitespace() || matches!(c, '(' | '[' | ':'))
                .next()
                .unwrap_or("");
            let digits = code.chars().filter(char::is_ascii_digit).count();
            digits > 0 && code.chars().any(char::is_alphabetic)
                || p.shape == Shape::Other && digits >= 4
        };
        // A field of a form: a label of one to three words, the first capitalised,
        // opening its line or cell (after ";" or "|"), then a colon ("Landlord: Mehmet
        // Yıldırım", "…; Witness: …", "Investigator assigned: …").
        // ("Signed: ____Ana Pop____", "**Name:** Ana Pop": underlines and emphasis.)
        let field = matches!(
            gap.trim_end_matches([' ', '\t', '_', '*'])
                .trim_start_matches('*'),
            ":"
        ) && self.label_before(k - 1);
        // "Semenica Tudor & Ifunanya Onoh": after two capitalised words and "&", as
        // after "and" (one word on either side is a firm: `firm_before`).
        let amp = gap == " & " && k >= 2 && self.two_caps_end_at(k - 1);
        // "Herr WEEKS, Brandi", "Mrs KELLER, Maria": an honorific (of any language).
        let honorific = (gap == " " || gap == ". ") && is_honorific(toks.fold_of(p));
        // "- Respondent - Mary French": a role, then the name after a spaced dash.
        let role_dash = dash && is_cue_word(toks.fold_of(p));
        // "10:04:11 From Chayapat Chomsri to Everyone:": a meeting chat's sender.
        let chat_from = gap == " " && toks.fold_of(p) == "from" && self.time_opens_line(k - 1);
        listed
            || field
            || of_phrase
            || after_code
            || amp
            || after_email
            || honorific
            || role_dash
            || chat_from
    }

    /// An apposition after word `e`: "Aliseydi Gül, the team's first-aider, confirmed".
    /// A cue for the run itself, not for taking in an English word before it ("Per
    /// William Pineda, the dosage" is "William Pineda").
    pub(super) fn apposition_after(&self, e: usize) -> bool {
        let rest = &self.text[self.toks[e].end..];
        [", the ", ", our ", ", your "]
            .iter()
            .any(|p| rest.starts_with(p))
    }

    /// A cue only a person takes around words `k..=e`: a cue word of
    /// [`PERSON_ONLY_BEFORE`] right before ("reviewed with", "met"), or after them a
    /// verb of [`PERSON_ONLY_AFTER`] ("said") or an age or birth date in apposition
    /// (", a 44-year-old", ", DOB …", ", born …", ", aged 40"). Streets, places and
    /// firms take the other cues too ("moved to Barbara Key", "Main Street was closed").
    pub(super) fn person_only_cue(&self, k: usize, e: usize) -> bool {
        self.person_only_before(k) || self.person_only_after(e)
    }

    /// A cue word of [`PERSON_ONLY_BEFORE`] right before word `k`.
    pub(super) fn person_only_before(&self, k: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        k.checked_sub(1).is_some_and(|p| {
            let gap = &text[toks[p].end..toks[k].start];
            matches!(gap, " " | ": ") && in_list(PERSON_ONLY_BEFORE, toks.fold_of(&toks[p]))
                // "Served on Marcia Pont personally": a document is served on a person.
                || gap == " "
                    && matches!(toks.fold_of(&toks[p]), "on" | "upon")
                    && p.checked_sub(1).is_some_and(|q| {
                        text[toks[q].end..toks[p].start] == *" "
                            && matches!(toks.fold_of(&toks[q]), "served" | "service")
                    })
        })
    }

    /// After word `e`, a verb of [`PERSON_ONLY_AFTER`] or an age or a birth date in
    /// apposition.
    pub(super) fn person_only_after(&self, e: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        let rest = &text[toks[e].end..];
        if let Some(r) = rest.strip_prefix(", ") {
            let lower: String = r.chars().take(12).flat_map(char::to_lowercase).collect();
            let age = |s: &str| {
                let d = s.bytes().take_while(u8::is_ascii_digit).count();
                (1..=3).contains(&d) && s[d..].starts_with("-year")
            };
            if lower.strip_prefix("a ").is_some_and(age)
                || lower.strip_prefix("the ").is_some_and(age)
                // "Bale Omar, who worked with us": a relative clause of a person.
                || lower.starts_with("who ")
                || lower.strip_prefix("an ").is_some_and(age)
                || ["dob", "born", "aged", "d.o.b"]
                    .iter()
                    .any(|w| lower.starts_with(w))
            {
                return true;
            }
        }
        toks.get(e + 1).is_some_and(|n| {
            text[toks[e].end..n.start] == *" " && in_list(PERSON_ONLY_AFTER, toks.fold_of(n))
        })
    }

    /// A cue word ([`is_cue_word`]) right before word `k` ("cc", "to", "thx"), not a bullet
    /// or a field label.
    pub(super) fn listed_cue_before(&self, k: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        k.checked_sub(1).and_then(|p| toks.get(p)).is_some_and(|p| {
            let gap = &text[p.end..toks[k].start];
            gap == " " && is_cue_word(toks.fold_of(p))
        })
    }

    /// Word `n` ends its field: a cell's or bracket's end, a record separator, the end
    /// of the line or of the text ("<td>Lopez, Juan Cruz</td>").
    fn field_ends(&self, n: &Tok) -> bool {
        let rest = self.text[n.end..].trim_start_matches([' ', '\t']);
        rest.is_empty() || rest.starts_with(['<', '|', ';', '\n', '\r', ')', '/'])
    }

    /// A cue around words `k..=e` other than a list bullet: a role or cue word before,
    /// a code before in brackets, "(", "'s", an age … after. A first name that is also a
    /// place needs one ("customer Hedderman, Kira reports"; "- Gates, Kent" is a place
    /// in a list).
    fn strong_cue(&self, k: usize, e: usize) -> bool {
        let bullet = self.bullet_before(k);
        (self.cue_before(k) && !bullet) || self.cue_after(e)
    }

    /// Word `k` opens its line or a sentence, and is no determiner ("The Gates, Kent
    /// and Stout warehouse" names a firm).
    pub(super) fn opens_sentence(&self, k: usize) -> bool {
        const DETERMINERS: [&str; 10] = [
            "the", "a", "an", "this", "that", "these", "those", "our", "their", "its",
        ];
        if DETERMINERS.contains(&self.folded(k)) {
            return false;
        }
        let before = self.text[..self.toks[k].start].trim_end_matches([' ', '\t']);
        before.is_empty() || before.ends_with(['\n', '.', '!', '?', ':', ';'])
    }

    /// Words ending at `p` are the label of a field: one to three words (the first
    /// capitalised, no digits) opening their line, a cell (after ";" or "|") or a
    /// sentence.
    fn label_before(&self, p: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        // "Driver 1:", "Witness 2:": a numbered label.
        let numbered = |q: usize| {
            let w = &text[toks[q].start..toks[q].end];
            q >= 1
                && (1..=2).contains(&w.len())
                && w.bytes().all(|b| b.is_ascii_digit())
                && text[toks[q - 1].end..toks[q].start] == *" "
        };
        let p = if numbered(p) { p - 1 } else { p };
        let mut first = p;
        loop {
            if !matches!(toks[first].shape, Shape::Cap | Shape::Upper | Shape::Lower) {
                return false;
            }
            let line = text[..toks[first].start].rsplit('\n').next().unwrap_or("");
            let l = line.trim_end();
            // After a sentence's end too ("… two earlier claims. Investigator assigned:").
            let opens = l.ends_with([';', '|'])
                || l.ends_with('.')
                || l.chars().all(|c| c.is_whitespace() || "-*•–".contains(c));
            if opens {
                return toks[first].shape == Shape::Cap;
            }
            // The word before must be joined by one space or an apostrophe's "s"
            // ("Claimant's representative").
            if first == 0 || p - first >= 2 {
                return false;
            }
            let gap = &text[toks[first - 1].end..toks[first].start];
            // ("Name/DOB verified:": words parted by a slash.)
            if !matches!(gap, " " | "'s " | "’s " | "/") {
                return false;
            }
            first -= 1;
        }
    }

    /// A cue right after word `e`: "(", "'s", ", a 52-year-old", "DOB", "said" …
    pub(super) fn cue_after(&self, e: usize) -> bool {
        let (text, toks) = (self.text, self.toks);
        // Markdown emphasis and underlines around a name are no part of what follows
        // ("- **IIDA RÖNKKÖ** (site engineer)").
        let rest = text[toks[e].end..].trim_start_matches(['*', '_']);
        if self.bracketed_speaker(e) || self.speaker_before_time(e) {
            return true;
        }
        let rest = rest.strip_prefix('.').unwrap_or(rest);
        if rest.starts_with("'s") || rest.starts_with("’s") {
            return true;
        }
        let trimmed = rest.trim_start_matches(' ');
        // "Saood Raheel c/o a lumbar strain" (complains of), "Ana Pop c/o Hale & Co"
        // (care of): the person is named before.
        // ("2. Kristi Koit, c/o Kessler Property Management": after a comma too.)
        let care_of = trimmed.strip_prefix(", ").unwrap_or(trimmed);
        if care_of
            .get(..4)
            .is_some_and(|s| s.eq_ignore_ascii_case("c/o "))
        {
            return true;
        }
        // "Semenica Tudor & Ifunanya Onoh": two names joined by "&".
        if rest.starts_with(" & ")
            && e >= 1
            && self.two_caps_end_at(e)
            && self.two_caps_start_at(e + 1)
        {
            return true;
        }
        // "ARSLAN, Esna v. Northgate Logistics": a party of a case before "v".
        if let Some(r) = rest
            .strip_prefix(" v. ")
            .or_else(|| rest.strip_prefix(" v "))
            && r.starts_with(char::is_uppercase)
        {
            return true;
        }
        // "Eral Durmuş, being duly sworn, deposes": an affidavit's opening.
        if [", being ", ", of "].iter().any(|p| trimmed.starts_with(p)) {
            return true;
        }
        // "\"Owoyemi, Demilade\" <d.owoyemi@…>": the display name of an e-mail address.
        if let Some(r) = rest.strip_prefix(['"', '\u{201d}'])
            && r.trim_start_matches(' ').starts_with('<')
            && r.contains('@')
        {
            return true;
        }
        // "Waskita, Okta <o.waskita@…> wrote": a display name without quotes.
        if let Some(r) = rest.strip_prefix(" <")
            && r.split('>')
                .next()
                .is_some_and(|a| a.contains('@') && !a.contains(' '))
        {
            return true;
        }
        // "(", or the first cell of a record row ("Name | date | status", tab-separated).
        if trimmed.starts_with(['(', '|', '\t']) {
            return true;
        }
        // A number in square brackets, as a contact list writes a phone ("- Lena
        // Varga [+36 30 123 4567]").
        if let Some(r) = trimmed.strip_prefix('[')
            && r.starts_with(|c: char| c == '+' || c.is_ascii_digit())
            && r.split(']').next().is_some_and(|n| {
                n.len() < r.len() && n.bytes().filter(u8::is_ascii_digit).count() >= 6
            })
        {
            return true;
        }
        // A party's role after its name, in a caption or a signature block ("BALCA
        // AKSU,⏎    Plaintiff,", "HOLM, Per, Affiant").
        if let Some(r) = trimmed.strip_prefix(',') {
            let role: String = r
                .trim_start()
                .chars()
                .take_while(|c| c.is_alphabetic())
                .take(14)
                .flat_map(char::to_lowercase)
                .collect();
            if in_list(PARTY_ROLES, &role) {
                return true;
            }
        }
        let after_comma = trimmed.strip_prefix(',').map(|r| r.trim_start_matches(' '));
        if let Some(r) = after_comma {
            let lower: String = r.chars().take(16).flat_map(char::to_lowercase).collect();
            if lower.starts_with("a ")
                || lower.starts_with("an ")
                || lower.starts_with("age")
                || lower.starts_with("dob")
                || lower.starts_with("born")
                || lower.starts_with("who ")
                // "Łabaj, Błażej, MRN#55", ", NHS no.", ", ID 4471": the person's id.
                || ["mrn", "nhs", "id", "ssn", "hosp", "emp", "staff", "payroll", "member"]
                    .iter()
                    .any(|k| {
                        lower.starts_with(k)
                            && !lower[k.len()..].starts_with(|c: char| c.is_alphabetic())
                    })
            {
                return true;
            }
            if r.starts_with(|c: char| c.is_ascii_digit()) && lower.contains("year") {
                return true;
            }
            // The person's code after the name in one pair of brackets ("(Lê Linh,
            // 889698)", "(Ana Ruiz, EMP53022)").
            if super::judge::code_then_bracket(r) && text[..toks[e].start].contains('(') {
                return true;
            }
            // An age in apposition: "Ülker, Feryas, 42, of Pinhel", "Ana Ruiz, 61)",
            // "Natasza Kaluga, 33y, presented".
            let digits = r.bytes().take_while(u8::is_ascii_digit).count();
            let unit = ["yrs", "yo", "y"]
                .iter()
                .find(|u| r[digits..].starts_with(**u))
                .map_or(0, |u| u.len());
            if (1..=3).contains(&digits) && r[digits + unit..].starts_with([',', ')', ';']) {
                return true;
            }
        }
        let Some(n) = toks.get(e + 1) else {
            return false;
        };
        // After an initial, its period ("Ines C. joined").
        let gap = &text[toks[e].end..n.start];
        let gap = match toks[e].shape {
            Shape::Initial => gap.strip_prefix('.').unwrap_or(gap),
            _ => gap,
        };
        gap.chars().all(|c| c == ' ' || c == ',') && gap.len() <= 2 && is_after_cue(toks.fold_of(n))
            // "Tamanna, Ghauth    DOB October 22, 1941": the next field of a record line.
            || gap.len() <= 8
                && gap.chars().all(|c| c == ' ' || c == '\t')
                && matches!(toks.fold_of(n), "dob" | "born" | "aged" | "age")
    }
}

/// A surname in capitals that is an English word needs this Zipf frequency or less as
/// a word ("MOL" 3.2) to be a surname before a given name that is one too.
const CAPS_WORD_SURNAME_MAX: f32 = 3.5;

/// A capitalised English word after a comma and a surname in letters no English word
/// has is a first name below this Zipf frequency ("Valid" 4.4; not "The", "And").
const GIVEN_WORD_AFTER_FOREIGN_MAX: f32 = 5.0;
