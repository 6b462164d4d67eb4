//! Shards of a corpus (`clam extract --shard i/n`): a document belongs to shard
//! `(h mod n) + 1`, where `h` is the first 8 bytes of md5 of its id read as a
//! big-endian integer. The shard depends on the id alone, not on the document's
//! position, so adding, removing or reordering files moves no other document to another
//! shard. Shards are numbered from 1 to n.
//!
//! In Python: `int(hashlib.md5(id.encode()).hexdigest()[:16], 16) % n + 1`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::hashing::md5_u64;

/// Shard `index` of `count` (1 ≤ index ≤ count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "ShardFields")]
pub struct Shard {
    index: u32,
    count: u32,
}

#[derive(Deserialize)]
struct ShardFields {
    index: u32,
    count: u32,
}

impl TryFrom<ShardFields> for Shard {
    type Error = ShardError;
    fn try_from(f: ShardFields) -> Result<Self, ShardError> {
        Shard::new(f.index, f.count)
    }
}

/// A shard that does not exist.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ShardError {
    #[error("`{0}`: expected I/N, two whole numbers such as 1/3 (the first of 3 shards)")]
    Syntax(String),
    #[error(
        "`0/{count}`: shards are numbered from 1: the first of {count} is 1/{count}, the last {count}/{count}"
    )]
    Zero { count: u32 },
    #[error("`{index}/{count}`: there are only {count} shard(s), 1/{count} to {count}/{count}")]
    Beyond { index: u32, count: u32 },
    #[error("`{index}/0`: a corpus is split into at least 1 shard")]
    NoShards { index: u32 },
}

impl Shard {
    pub fn new(index: u32, count: u32) -> Result<Shard, ShardError> {
        if count == 0 {
            return Err(ShardError::NoShards { index });
        }
        if index == 0 {
            return Err(ShardError::Zero { count });
        }
        if index > count {
            return Err(ShardError::Beyond { index, count });
        }
        Ok(Shard { index, count })
    }

    /// This shard's number, from 1.
    pub fn index(&self) -> u32 {
        self.index
    }

    /// How many shards the corpus is split into.
    pub fn count(&self) -> u32 {
        self.count
    }

    /// The shard (numbered from 1) that the document `id` belongs to when the corpus
    /// is split into `count` shards (`count` ≥ 1).
    pub fn number_of(id: &str, count: u32) -> u32 {
        let count = u64::from(count.max(1));
        // The remainder is below `count`, a u32.
        (md5_u64(id) % count) as u32 + 1
    }

    /// Does the document `id` belong to this shard?
    pub fn contains(&self, id: &str) -> bool {
        Shard::number_of(id, self.count) == self.index
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = ShardError;
    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(s.to_string());
        let (i, n) = s.trim().split_once('/').ok_or_else(syntax)?;
        let number = |t: &str| {
            let t = t.trim();
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            t.parse::<u32>().map_err(|_| syntax())
        };
        Shard::new(number(i)?, number(n)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_are_numbered_from_one() {
        assert_eq!(
            "1/3".parse::<Shard>().map(|s| (s.index(), s.count())),
            Ok((1, 3))
        );
        assert_eq!(
            "3/3".parse::<Shard>().map(|s| s.to_string()),
            Ok("3/3".into())
        );
        assert_eq!("0/3".parse::<Shard>(), Err(ShardError::Zero { count: 3 }));
        assert_eq!(
            "4/3".parse::<Shard>(),
            Err(ShardError::Beyond { index: 4, count: 3 })
        );
        assert_eq!(
            "1/0".parse::<Shard>(),
            Err(ShardError::NoShards { index: 1 })
        );
        for bad in ["", "1", "1/", "/3", "a/3", "1/3/4", "-1/3", "1.5/3", "+1/3"] {
            assert!(
                matches!(bad.parse::<Shard>(), Err(ShardError::Syntax(_))),
                "{bad}"
            );
        }
    }

    /// The documented formula, and every document in exactly one shard, spread
    /// evenly and independently of any other document.
    #[test]
    fn a_document_is_in_the_shard_of_its_id() {
        // int(hashlib.md5(b"d01_1").hexdigest()[:16], 16) % 3 + 1
        let h = u64::from_str_radix(&crate::hashing::md5_hex("d01_1")[..16], 16).unwrap();
        assert_eq!(Shard::number_of("d01_1", 3), (h % 3) as u32 + 1);
        let shards: Vec<Shard> = (1..=3).map(|i| Shard::new(i, 3).unwrap()).collect();
        let mut sizes = [0usize; 3];
        for i in 0..3000 {
            let id = format!("doc-{i}");
            let holders: Vec<&Shard> = shards.iter().filter(|s| s.contains(&id)).collect();
            assert_eq!(holders.len(), 1, "{id}");
            sizes[holders[0].index() as usize - 1] += 1;
        }
        assert!(sizes.iter().all(|&n| (900..1100).contains(&n)), "{sizes:?}");
        assert!(Shard::new(1, 1).is_ok_and(|s| s.contains("anything")));
    }
}
