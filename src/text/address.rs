//! Street-address spellings (USPS Publication 28: street suffixes, unit designators,
//! directionals), so that "Pkwy." meets "Parkway" and "Apt" meets "Apartment".
//! The classes come from `data/address/abbreviations.tsv` (built by
//! `scripts/build_address_vocab.py` from a pinned PyPI package; source and licence in
//! `data/address/SOURCE.md`).
//!
//! Matching (the redactor and the leak check alike) reads every token through
//! [`canonical_token`]: a spelling in a class becomes the class's standard
//! abbreviation; any other token is itself.

use std::collections::HashMap;
use std::sync::LazyLock;

const TABLE: &str = include_str!("../../data/address/abbreviations.tsv");

/// FNV-1a: the keys are short ASCII words and every token of every text is looked up,
/// so a cheap hash matters more than flooding resistance (the keys are fixed).
#[derive(Default, Clone, Copy)]
struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type Classes = HashMap<&'static str, &'static str, std::hash::BuildHasherDefault<Fnv>>;

static CLASSES: LazyLock<Classes> = LazyLock::new(|| {
    let mut map = Classes::default();
    for line in TABLE.lines() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let mut fields = line.split('\t');
        let Some(canonical) = fields.next() else {
            continue;
        };
        for spelling in fields {
            // The table is lowercase ASCII; the projection writes 'm' as "rn".
            map.entry(project_static(spelling))
                .or_insert(project_static(canonical));
        }
        map.entry(project_static(canonical))
            .or_insert(project_static(canonical));
    }
    map
});

/// The projection of a table entry, kept for the life of the process.
fn project_static(s: &str) -> &'static str {
    Box::leak(super::project(s).into_boxed_str())
}

/// The longest spelling in the table (projected), so that longer tokens skip the
/// lookup.
static LONGEST: LazyLock<usize> =
    LazyLock::new(|| CLASSES.keys().map(|k| k.len()).max().unwrap_or(0));

/// Is a word (as written, any case) a street suffix, unit designator or directional
/// of the tables ("Mews", "Crossway", "Pkwy", "Suite", "North")?
pub fn is_address_word(word: &str) -> bool {
    let p = super::project(word);
    p.len() <= *LONGEST && CLASSES.contains_key(p.as_str())
}

/// The street suffixes of USPS Publication 28 (Appendix C1), every spelling, lower case:
/// "neck", "glens", "lock", "crossroad", "nck".
static SUFFIXES: LazyLock<std::collections::HashSet<&'static str>> = LazyLock::new(|| {
    let mut section = "";
    let mut set = std::collections::HashSet::new();
    for line in TABLE.lines() {
        if let Some(title) = line.strip_prefix("# --- ") {
            section = title;
            continue;
        }
        if line.starts_with('#')
            || line.trim().is_empty()
            || !section.starts_with("street suffixes")
        {
            continue;
        }
        set.extend(line.split('\t'));
    }
    set
});

/// Is a word (folded to lower case) a street suffix of USPS Publication 28 ("Neck",
/// "Glens", "Lock", "Crossroad")? Units and directionals are not.
pub fn is_street_suffix(lower: &str) -> bool {
    SUFFIXES.contains(lower)
}

/// A projected token's class representative (itself when it is in no class).
pub fn canonical_token(token: &str) -> &str {
    if token.len() > *LONGEST || !token.bytes().all(|b| b.is_ascii_lowercase()) {
        return token;
    }
    CLASSES.get(token).copied().unwrap_or(token)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::project;

    #[test]
    fn usps_street_suffixes_are_known_and_units_are_not() {
        for w in ["neck", "glens", "lock", "crossroad", "street", "nck"] {
            assert!(is_street_suffix(w), "{w}");
        }
        for w in ["apartment", "suite", "north", "maria"] {
            assert!(!is_street_suffix(w), "{w}");
        }
    }

    #[test]
    fn spellings_of_one_suffix_meet() {
        for (a, b) in [
            ("Parkway", "Pkwy"),
            ("Street", "St"),
            ("Avenue", "Ave"),
            ("Apartment", "Apt"),
            ("Suite", "Ste"),
            ("North", "N"),
            ("Boulevard", "Blvd"),
        ] {
            assert_eq!(
                canonical_token(&project(a)),
                canonical_token(&project(b)),
                "{a} / {b}"
            );
        }
        assert_eq!(canonical_token("lakeshore"), "lakeshore");
        assert_ne!(
            canonical_token(&project("Parkway")),
            canonical_token(&project("Street"))
        );
    }
}
