//! The entity model (SPEC §2): canonical forms, entity ids, global entities and their
//! occurrences per document, span location and the entity edits.

pub mod normalize;
pub mod spans;
pub mod store;

pub use normalize::{DateOrder, canonical};
pub use store::{EntityInDoc, EntityStore, GlobalEntity};

use crate::hashing::md5_hex;

/// `entity_id = md5_hex(normalized_value + "::" + entity_type)`.
pub fn entity_id(normalized: &str, entity_type: &str) -> String {
    md5_hex(&format!("{normalized}::{entity_type}"))
}
