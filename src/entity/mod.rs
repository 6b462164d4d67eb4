//! The entity model (SPEC §2): the items extractors return and their spans, canonical
//! forms, entity ids, global entities and their occurrences per document, span location
//! and the entity edits. Below extraction: nothing here imports from `extract` or above.

pub mod item;
pub mod normalize;
pub mod spans;
pub mod store;

pub use item::{ExtractedItem, Span};
pub use normalize::{DateOrder, canonical};
pub use store::{EntityInDoc, EntityStore, GlobalEntity};

use crate::hashing::md5_hex;

/// `entity_id = md5_hex(normalized_value + "::" + entity_type)`.
pub fn entity_id(normalized: &str, entity_type: &str) -> String {
    md5_hex(&format!("{normalized}::{entity_type}"))
}

#[cfg(test)]
mod tests {
    /// The entity model sits below extraction and everything built on it (STYLE:
    /// layers import downward only).
    #[test]
    fn imports_nothing_from_the_layers_above() {
        const ABOVE: &[&str] = &[
            "extract",
            "analysis",
            "plan",
            "redact",
            "export",
            "session",
            "eval",
            "workspace",
            "tui",
        ];
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/entity");
        let entries = std::fs::read_dir(&dir).expect("src/entity is readable");
        let mut checked = 0;
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_none_or(|e| e != "rs") {
                continue;
            }
            let source = std::fs::read_to_string(&path).expect("source is readable");
            for layer in ABOVE {
                for prefix in ["crate::", "clam::"] {
                    let import = format!("{prefix}{layer}");
                    let named = source.match_indices(&import).any(|(at, _)| {
                        !source[at + import.len()..]
                            .starts_with(|c: char| c.is_alphanumeric() || c == '_')
                    });
                    assert!(!named, "{} names {import}", path.display());
                }
            }
            checked += 1;
        }
        assert!(checked >= 5, "only {checked} files under {}", dir.display());
    }
}
