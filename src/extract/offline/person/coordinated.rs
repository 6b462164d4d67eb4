//! A name joined by "and" to a name found: "PICHPANDECHA, Nattawun and Carlijn van
//! Dokkum both live at …", "BALVEER GARDE and Janeth Nyawira", "approved for Ana
//! Pop and Ulugbek Humoyunov"; the other end of a handover ("from Alberta Nistor to
//! Ana Pop"); or next after one in a list ("Attendees: Ana Lima,
//! Raúl Gómez, Chen Jie"). Two people named side by side are written alike; the
//! name found says what the words beside it are, so the words need no cue of their
//! own, only to be name-like: each a name or a word of no vocabulary, none an English
//! word the vocabularies do not list as a name, a place, a month or an organisation's
//! or a street's word.

use super::*;

impl Run<'_> {
    /// Word `x` may stand inside a name beside "and": a capitalised word or one in
    /// capitals, or a particle before one ("van", "DE").
    fn coordinated_word(&self, x: usize) -> bool {
        let toks = self.toks;
        matches!(toks[x].shape, Shape::Cap | Shape::Upper)
            || cap_particle(toks, x)
            || toks[x].shape == Shape::Lower && particles_then_name(self.text, toks, x)
    }

    /// Words `s..=e` are a name by their words alone (see the module documentation).
    fn name_like(&self, s: usize, e: usize) -> bool {
        self.name_like_but(s, e, None)
    }

    /// [`Self::name_like`], word `first_name` (after a comma: `LAST, First`) maybe
    /// shaped like a role ("Shohruxov, Shahriyor and …": no role stands there).
    fn name_like_but(&self, s: usize, e: usize, first_name: Option<usize>) -> bool {
        let toks = self.toks;
        let words: Vec<usize> = (s..=e)
            .filter(|&x| {
                matches!(toks[x].shape, Shape::Cap | Shape::Upper)
                    && !(x < e && cap_particle(toks, x))
            })
            .collect();
        if !(2..=3).contains(&words.len()) || !self.is_name_word(s) || !self.is_name_word(e) {
            return false;
        }
        if self.v.is_place(&self.joined_words(&words)) || self.blocked(s, e, s, e) {
            return false;
        }
        words.iter().all(|&x| {
            let w = self.folded(x);
            // "Ngozi Nwosu, New Gregory": a town's opening word ("New", "Port",
            // "Santa") or a kind of place.
            let place_word = self.ev[x].is_word() && self.v.place_openers.contains(w)
                || self.v.place_types.contains(w);
            // "Raúl Gómez, Senior Adjuster": a role, not a person.
            let role = is_cue_word(w) || self.role_shaped(x) && first_name != Some(x);
            self.name_by_its_word(x) && !place_word && !role
        }) && self.one_named(&words)
    }

    /// The name before "and" ending at word `e`: words joined back from it (leading
    /// English words and cue words dropped: "Thanks Ana Pop and …"), or `LAST, First`.
    fn coordinated_before(&self, e: usize) -> Option<usize> {
        let (text, toks) = (self.text, self.toks);
        // "PICHPANDECHA, Nattawun": a surname, a comma, a given name.
        if e >= 1
            && &text[toks[e - 1].end..toks[e].start] == ", "
            && toks[e].shape == Shape::Cap
            && self.is_name_word(e - 1)
            && !(e >= 2 && joined(text, &toks[e - 2], &toks[e - 1]))
            && self.name_like_but(e - 1, e, Some(e))
        {
            return Some(e - 1);
        }
        let mut s = e;
        while s > 0
            && e - s < 5
            && joined(text, &toks[s - 1], &toks[s])
            && self.coordinated_word(s - 1)
        {
            s -= 1;
        }
        while s < e
            && (is_cue_word(self.folded(s)) || self.ev[s].is_word() && self.ev[s].name() <= 0.0)
        {
            s += 1;
        }
        self.name_like(s, e).then_some(s)
    }

    /// The name after "and" opening at word `s`: words joined on from it, or `LAST,
    /// First`.
    fn coordinated_after(&self, s: usize) -> Option<usize> {
        let (text, toks) = (self.text, self.toks);
        if s + 1 < toks.len()
            && &text[toks[s].end..toks[s + 1].start] == ", "
            && toks[s + 1].shape == Shape::Cap
            && self.is_name_word(s)
            && !toks
                .get(s + 2)
                .is_some_and(|n| joined(text, &toks[s + 1], n) && self.is_name_word(s + 2))
            && self.name_like(s, s + 1)
        {
            return Some(s + 1);
        }
        let mut e = s;
        while e + 1 < toks.len()
            && e - s < 5
            && joined(text, &toks[e], &toks[e + 1])
            && self.coordinated_word(e + 1)
        {
            e += 1;
        }
        self.name_like(s, e).then_some(e)
    }
}

/// Word `k` is a lower-case "and" between single spaces.
fn and_at(text: &str, toks: &Tokens, k: usize) -> bool {
    word_at(text, toks, k, "and")
}

/// Word `k` is the lower-case `word` between single spaces.
fn word_at(text: &str, toks: &Tokens, k: usize, word: &str) -> bool {
    toks[k].shape == Shape::Lower
        && toks.folded(k) == word
        && k >= 1
        && k + 1 < toks.len()
        && &text[toks[k - 1].end..toks[k].start] == " "
        && &text[toks[k].end..toks[k + 1].start] == " "
}

/// Names joined by "and" to the names `found` (sorted by start, none inside another),
/// or next in a list of them (see the module documentation).
pub(super) fn coordinated(r: &Run, found: &[Found]) -> Vec<Found> {
    let (text, toks) = (r.text, r.toks);
    // `found` is sorted by start and holds no name inside another, so its ends rise
    // with its starts: the last name that starts before a span's end is the only one
    // that can overlap it (a search, not a scan: a long list stays linear).
    let free = |s: usize, e: usize| {
        let (a, b) = (toks[s].start, toks[e].end);
        let p = found.partition_point(|f| f.start < b);
        p == 0 || found[p - 1].end <= a
    };
    let mut out = Vec::new();
    for f in found {
        let a = toks.partition_point(|t| t.start < f.start);
        let z = toks.partition_point(|t| t.end <= f.end);
        if a >= toks.len() || z == 0 {
            continue;
        }
        if a >= 2
            && and_at(text, toks, a - 1)
            && let Some(s) = r.coordinated_before(a - 2).filter(|&s| free(s, a - 2))
        {
            out.push(Found {
                start: toks[s].start,
                end: toks[a - 2].end,
                row: &COORDINATED,
            });
        }
        // "Meeting notes - Ikechukwu Obi, Marta Sousa": the item before, opening the
        // list.
        let opens_item = |s: usize| {
            let before = text[..toks[s].start].trim_end_matches([' ', '\t']);
            before.is_empty() || before.ends_with([':', '-', '–', '—', ',', '(', '\n', '•', '*'])
        };
        if a >= 2
            && &text[toks[a - 1].end..toks[a].start] == ", "
            && toks[a - 1].shape == Shape::Cap
            && let Some(s) = r.coordinated_before(a - 1).filter(|&s| {
                free(s, a - 1)
                    && opens_item(s)
                    && toks[s..a].iter().all(|t| t.shape != Shape::Upper)
            })
        {
            out.push(Found {
                start: toks[s].start,
                end: toks[a - 1].end,
                row: &COORDINATED,
            });
        }
        // "Attendees: Ana Lima, Raúl Gómez, Chen Jie": the next item of a list of
        // names, ending where an item ends.
        let listed = |e: usize| {
            let rest = text[toks[e].end..].trim_start_matches([' ', '\t']);
            rest.is_empty()
                || rest.starts_with([',', ';', '\n', '\r', '.', ')'])
                || rest.starts_with("and ")
        };
        if z < toks.len()
            && z + 1 < toks.len()
            && &text[toks[z - 1].end..toks[z].start] == ", "
            && toks[z].shape == Shape::Cap
            && let Some(e) = r.coordinated_after(z).filter(|&e| {
                free(z, e) && listed(e) && toks[z..=e].iter().all(|t| t.shape != Shape::Upper)
            })
        {
            out.push(Found {
                start: toks[z].start,
                end: toks[e].end,
                row: &COORDINATED,
            });
        }
        if z + 1 < toks.len()
            && and_at(text, toks, z)
            && let Some(e) = r.coordinated_after(z + 1).filter(|&e| free(z + 1, e))
        {
            out.push(Found {
                start: toks[z + 1].start,
                end: toks[e].end,
                row: &COORDINATED,
            });
        }
        // "Reassigned the case from Alberta Nistor to Ana Pop": a handover between
        // two people, "from" one "to" the other.
        if a >= 3
            && word_at(text, toks, a - 1, "to")
            && let Some(s) = r
                .coordinated_before(a - 2)
                .filter(|&s| free(s, a - 2) && s >= 1 && word_at(text, toks, s - 1, "from"))
        {
            out.push(Found {
                start: toks[s].start,
                end: toks[a - 2].end,
                row: &COORDINATED,
            });
        }
        if a >= 1
            && z + 1 < toks.len()
            && word_at(text, toks, a - 1, "from")
            && word_at(text, toks, z, "to")
            && let Some(e) = r.coordinated_after(z + 1).filter(|&e| free(z + 1, e))
        {
            out.push(Found {
                start: toks[z + 1].start,
                end: toks[e].end,
                row: &COORDINATED,
            });
        }
    }
    out
}
