//! The vocabularies of the name recognizer (`data/names/`, `data/vocab/`) and what
//! they say about one word ([`Evidence`]).

use std::sync::LazyLock;

use rustc_hash::{FxHashMap, FxHashSet};

const GIVEN: &str = include_str!("../../../../data/names/given.tsv");
const SURNAMES: &str = include_str!("../../../../data/names/surnames.tsv");
const WORDS: &str = include_str!("../../../../data/names/words.tsv");
const FOREIGN_WORDS: &str = include_str!("../../../../data/names/foreign_words.txt");
const PLACES: &str = include_str!("../../../../data/vocab/places.txt");
const PLACES_SMALL: &str = include_str!("../../../../data/vocab/places_small.txt");
const ORG_SUFFIXES: &str = include_str!("../../../../data/vocab/org_suffixes.txt");
const ORG_SHORT: &str = include_str!("../../../../data/vocab/org_suffixes_short.txt");
const STREET_TYPES: &str = include_str!("../../../../data/address/street_types.txt");
const PLACE_TYPES: &str = include_str!("../../../../data/address/place_types.txt");
const UNIT_TYPES: &str = include_str!("../../../../data/address/unit_types.txt");
const DIRECTIONALS: &str = include_str!("../../../../data/address/directionals.txt");
const COMPANY_TYPES: &str = include_str!("../../../../data/address/company_types.txt");

/// The lines of a list: the tables are sized once instead of growing (and rehashing)
/// a dozen times while every command starts.
fn line_count(data: &str) -> usize {
    data.bytes().filter(|&b| b == b'\n').count() + 1
}

/// A set of lowercase terms (one per line, `#` comments), hashed: every capitalised
/// word of a text is looked up in several of them.
pub(super) struct Terms(FxHashSet<&'static str>);

impl Terms {
    fn parse(data: &'static str) -> Terms {
        let mut set = FxHashSet::with_capacity_and_hasher(line_count(data), Default::default());
        set.extend(
            data.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty() && !l.starts_with('#')),
        );
        Terms(set)
    }

    pub(super) fn contains(&self, key: &str) -> bool {
        self.0.contains(key)
    }

    /// The lines that start with `mark`, without it ("=duong" in `street_types.txt`).
    fn marked(data: &'static str, mark: char) -> Terms {
        Terms(
            data.lines()
                .filter_map(|l| l.trim().strip_prefix(mark))
                .collect(),
        )
    }
}

/// A `(folded word, value)` table, hashed (the lists hold no key twice).
pub(super) struct Table(FxHashMap<&'static str, f32>);

impl Table {
    fn parse(data: &'static str) -> Table {
        let mut map = FxHashMap::with_capacity_and_hasher(line_count(data), Default::default());
        map.extend(
            data.lines()
                .filter(|l| !l.starts_with('#'))
                .filter_map(|l| {
                    let (k, v) = l.split_once('\t')?;
                    Some((k, v.trim().parse().ok()?))
                }),
        );
        Table(map)
    }

    pub(super) fn get(&self, key: &str) -> f32 {
        self.0.get(key).copied().unwrap_or(0.0)
    }
}

/// The three vocabularies.
pub(crate) struct Vocab {
    given: Table,
    surnames: Table,
    pub(super) words: Table,
    /// Common words of 25 other languages in Latin letters that no other list holds
    /// (`data/names/foreign_words.txt`: "groep", "vieja", "enerji"): a run of them is
    /// no name by its shape alone.
    pub(super) foreign_words: Terms,
    /// GeoNames places (`data/vocab/places.txt`): a run that is a place is none.
    places: Terms,
    /// GeoNames towns of 1,000 inhabitants or more and the regions of every country
    /// that `places` lacks (`data/vocab/places_small.txt`: "horni cerekev", "ceara").
    places_small: Terms,
    /// Legal forms and organisation words (`data/vocab/org_suffixes.txt`).
    pub(super) org_words: Terms,
    /// Legal forms too short to read in running text (`AB`, `HB`, `BA`): only as
    /// written in capitals or with dots right after a name
    /// (`data/vocab/org_suffixes_short.txt`).
    pub(super) org_short: Terms,
    /// Street types in many languages (`data/address/street_types.txt`: "calle",
    /// "rua", "viale", "chemin", "soseaua"), Mapbox's (see `street_libpostal`).
    pub(super) street_types: Terms,
    /// Street types that every source writes with accents ("duong" for "đường"): a
    /// word written with accents must then be listed as written.
    pub(super) street_accented: Terms,
    /// Street types only libpostal lists ("+corso", "+banda"): many are surnames too.
    pub(super) street_libpostal: Terms,
    /// Kinds of place and compass words in many languages (`data/address/place_types.txt`:
    /// "praia", "castello", "nord").
    pub(super) place_types: Terms,
    /// Unit designators in many languages (`data/address/unit_types.txt`: "flat",
    /// "suite", "apt").
    pub(super) unit_types: Terms,
    /// Compass words in many languages, full forms only (`data/address/directionals.txt`:
    /// "selatan", "nord", "west"): after a place they make a place ("Tangerang Selatan").
    pub(super) directionals: Terms,
    /// Kinds of company and association in many languages, full forms only
    /// (`data/address/company_types.txt`: "groupe", "gesellschaft", "empresa", "koperasi").
    pub(super) company_types: Terms,
    /// Words that begin many GeoNames places and are rare as names ("sankt", "vila",
    /// "puerto", "nueva"): a run starting with one is a place.
    pub(super) place_heads: Words,
    /// Words that begin many GeoNames places, names or not ("san", "santa", "west").
    pub(super) place_openers: Words,
}

/// A set of owned lowercase words.
pub(super) struct Words(FxHashSet<String>);

impl Words {
    pub(super) fn contains(&self, key: &str) -> bool {
        self.0.contains(key)
    }
}

/// Places that begin with the same word, at least this many, make it a place head.
const PLACE_HEAD_MIN: usize = 4;
/// A place head is rare as a name: below this Zipf value as a given name and surname
/// (about 3 people in 100,000).
const PLACE_HEAD_MAX_NAME: f32 = 3.5;

/// The place heads and the place openers (see [`Vocab`]).
fn place_heads(places: &'static str, given: &Table, surnames: &Table) -> (Words, Words) {
    let mut firsts: Vec<String> = places
        .lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let l = l.trim();
            let (first, rest) = l.split_once(' ')?;
            (!rest.is_empty()).then(|| super::tokens::fold(first))
        })
        .collect();
    firsts.sort_unstable();
    let mut heads = Vec::new();
    let mut openers = Vec::new();
    for group in firsts.chunk_by(|a, b| a == b) {
        let w = &group[0];
        if group.len() >= PLACE_HEAD_MIN
            && w.chars().count() >= 3
            && w.chars().all(char::is_alphabetic)
        {
            if name_zipf(given.get(w)).max(name_zipf(surnames.get(w))) < PLACE_HEAD_MAX_NAME {
                heads.push(w.clone());
            }
            openers.push(w.clone());
        }
    }
    (
        Words(heads.into_iter().collect()),
        Words(openers.into_iter().collect()),
    )
}

static VOCAB: LazyLock<Vocab> = LazyLock::new(|| {
    let given = Table::parse(GIVEN);
    let surnames = Table::parse(SURNAMES);
    let (place_heads, place_openers) = place_heads(PLACES, &given, &surnames);
    Vocab {
        given,
        surnames,
        words: Table::parse(WORDS),
        foreign_words: Terms::parse(FOREIGN_WORDS),
        places: Terms::parse(PLACES),
        places_small: Terms::parse(PLACES_SMALL),
        org_words: Terms::parse(ORG_SUFFIXES),
        org_short: Terms::parse(ORG_SHORT),
        street_types: Terms::parse(STREET_TYPES),
        street_accented: Terms::marked(STREET_TYPES, '='),
        street_libpostal: Terms::marked(STREET_TYPES, '+'),
        place_types: Terms::parse(PLACE_TYPES),
        unit_types: Terms::parse(UNIT_TYPES),
        directionals: Terms::parse(DIRECTIONALS),
        company_types: Terms::parse(COMPANY_TYPES),
        place_heads,
        place_openers,
    }
});

/// The vocabularies, loaded on first use.
pub(crate) fn vocab() -> &'static Vocab {
    &VOCAB
}

/// How much more frequent (Zipf) than a name a word must be to count as a word.
pub(super) const WORD_MARGIN: f32 = 0.5;

/// A frequency per 100,000 people on the Zipf scale (0 when absent).
fn name_zipf(per_100k: f32) -> f32 {
    if per_100k <= 0.0 {
        0.0
    } else {
        per_100k.log10() + 3.0
    }
}

/// What the vocabularies say about one word.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Evidence {
    pub(super) given: f32,
    pub(super) surname: f32,
    pub(super) word: f32,
}

impl Evidence {
    pub(super) fn name(&self) -> f32 {
        self.given.max(self.surname)
    }
    /// Clearly more frequent as an English word than as a name. `wordfreq` counts
    /// every use of a string, a name's included, so a name's word frequency is about
    /// its frequency as a name; a word must exceed that by [`WORD_MARGIN`].
    pub(super) fn is_word(&self) -> bool {
        self.word >= 3.0 && self.word > self.name() + WORD_MARGIN
    }
    pub(super) fn known(&self) -> bool {
        self.name() > 0.0 && !self.is_word()
    }
}

impl Vocab {
    /// A place of GeoNames: a town, a region, a country (folded, words joined by single
    /// spaces).
    /// The tokens fold an ASCII apostrophe to a hyphen ("D'Ario" is "d-ario"), the
    /// lists keep it ("castel d'ario"): both are tried.
    pub(super) fn is_place(&self, folded: &str) -> bool {
        let listed = |k: &str| self.places.contains(k) || self.places_small.contains(k);
        listed(folded) || folded.contains('-') && listed(&folded.replace('-', "'"))
    }

    /// Evidence for a folded word; a hyphenated word is a name when a part is
    /// ("Quintero-Hale"), a word when every part is.
    pub(super) fn evidence(&self, folded: &str) -> Evidence {
        let listed = |w: &str| Evidence {
            given: name_zipf(self.given.get(w)),
            surname: name_zipf(self.surnames.get(w)),
            word: self.words.get(w),
        };
        // Letters that no decomposition strips ("Đức", "Łukasz", "Sultanlı"): the
        // vocabularies list names as their sources write them, so a word found in
        // none of them is looked up again in the Latin letters its readers would use
        // ("duc", "lukasz").
        let one = |w: &str| {
            let e = listed(w);
            if e.name() > 0.0 || e.word > 0.0 || w.is_ascii() {
                return e;
            }
            match latin_letters(w) {
                Some(plain) => listed(&plain),
                None => e,
            }
        };
        if !folded.contains('-') {
            return one(folded);
        }
        let whole = one(folded);
        let mut best = Evidence::default();
        let mut all_words = true;
        for part in folded.split('-').filter(|p| !p.is_empty()) {
            let e = one(part);
            best.given = best.given.max(e.given);
            best.surname = best.surname.max(e.surname);
            all_words &= e.is_word();
        }
        best.word = if all_words { 9.0 } else { whole.word };
        best
    }
}

/// `w` with the letters that carry no combining mark spelled in plain Latin ("đuc" →
/// "duc", "łukasz" → "lukasz", "ı" → "i", "ø" → "o", "ß" → "ss"); `None` when it has
/// none.
fn latin_letters(w: &str) -> Option<String> {
    let plain = |c: char| -> Option<&'static str> {
        Some(match c {
            'đ' | 'ð' => "d",
            'ł' => "l",
            'ø' => "o",
            'ı' => "i",
            'ħ' => "h",
            'ß' => "ss",
            'æ' => "ae",
            'œ' => "oe",
            'þ' => "th",
            _ => return None,
        })
    };
    if !w.chars().any(|c| plain(c).is_some()) {
        return None;
    }
    let mut out = String::with_capacity(w.len());
    for c in w.chars() {
        match plain(c) {
            Some(p) => out.push_str(p),
            None => out.push(c),
        }
    }
    Some(out)
}

impl Vocab {
    /// A legal form at the start of `s`, written as legal forms are: with dots or a slash
    /// ("a.s.", "Kht.", "S/A", "v.o.s."), or in capitals ("HB", "EI"); up to three
    /// space-separated parts ("sp. z o.o.").
    pub(super) fn legal_form(&self, s: &str) -> bool {
        let mut cand = String::new();
        let mut probe = String::new();
        for (n, part) in s.split(' ').take(3).enumerate() {
            let part = part.trim_end_matches([',', ';', ':', ')', '!', '?', '\n']);
            let part = part.split('\n').next().unwrap_or("");
            if part.is_empty() {
                return false;
            }
            let letters = part.chars().filter(|c| c.is_alphabetic()).count();
            let dotted = part.contains(['.', '/']);
            let caps = letters >= 2
                && part
                    .chars()
                    .filter(|c| c.is_alphabetic())
                    .all(char::is_uppercase);
            if n == 0 && !(dotted || caps) {
                return false;
            }
            if n > 0 {
                cand.push(' ');
            }
            cand.push_str(&super::tokens::fold(part));
            let base = cand.trim_end_matches('.');
            // The candidate as written, with a dot, and both with '/' read as '.'
            // ("S/A"), in one buffer: this runs for every capitalised run.
            let slash = if base.contains('/') {
                std::borrow::Cow::Owned(base.replace('/', "."))
            } else {
                std::borrow::Cow::Borrowed(base)
            };
            for form in [base, &*slash] {
                probe.clear();
                probe.push_str(form);
                for _ in 0..2 {
                    if self.org_words.contains(&probe) || n == 0 && self.org_short.contains(&probe)
                    {
                        return true;
                    }
                    probe.push('.');
                }
            }
        }
        false
    }
}

/// What the vocabularies say about each capitalised word of `text`.
pub(super) fn evidence_of(text: &str, toks: &super::tokens::Tokens, v: &Vocab) -> Vec<Evidence> {
    toks.iter()
        .map(|t| match t.shape {
            super::tokens::Shape::Cap | super::tokens::Shape::Upper => {
                let mut e = v.evidence(toks.fold_of(t));
                if super::forms::accented_non_english(&text[t.start..t.end]) {
                    e.word = 0.0;
                }
                e
            }
            _ => Evidence::default(),
        })
        .collect()
}
