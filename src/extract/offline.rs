//! Placeholder so the crate compiles until the offline extractor lands (helper writing src/extract/offline.rs: overwrite this file).
