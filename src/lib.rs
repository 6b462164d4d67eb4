//! clam — Cross-document Linkage-Aware Masking.
//!
//! The library holds all logic; the binary is a thin command-line front end.
//! Data flows one way: corpus → extract → entities → analysis → plan → redact → export,
//! with the session (decisions, entity edits) feeding forced states into the plan.
//!
//! # Layers
//!
//! A module imports only from the layers below its own (`tests/layers.rs` checks it,
//! reading this list; test code may reach anywhere). Lowest first:
//!
//! 1. `hashing`, `text`, `display`, `phase`, `progress`: hashing, reading text as a reader sees it, safe terminal output, pipeline phases as tracing spans, progress reports of long loops
//! 2. `schema`: entity types and weights
//! 3. `corpus`: documents and how they are loaded
//! 4. `entity`: extracted items, canonical values, the entity store
//! 5. `analysis`: uniqueness, risks, the document graph and its chains (SPEC §3)
//! 6. `plan`: the masking planner (SPEC §4)
//! 7. `redact`: replacements and the redacted text (SPEC §5)
//! 8. `config`: `clam.toml` layers, the parameter table, the LLM settings
//! 9. `gold`: gold files (chains, persons, mentions) in both formats
//! 10. `extract`: the offline and LLM extractors and the corpus-level passes
//! 11. `snapshot`, `shards`: the entity snapshot file, the shard files of a sharded extraction and their merge
//! 12. `session`: decisions, entity edits, gold chains, the one writer
//! 13. `export`: the redacted corpus, manifest, report and leak check
//! 14. `workspace`: the review workspace, the aggregate the front ends drive
//! 15. `eval`: measurements against gold
//! 16. `whatif`: what-if plans and sweeps
//! 17. `gencorpus`: the synthetic corpus generator
//! 18. `tui`: the terminal application

pub mod analysis;
pub mod config;
pub mod corpus;
pub mod display;
pub mod entity;
pub mod eval;
pub mod export;
pub mod extract;
pub mod gencorpus;
pub mod gold;
pub mod hashing;
pub mod phase;
pub mod plan;
pub mod progress;
pub mod redact;
pub mod schema;
pub mod session;
pub mod shards;
pub mod snapshot;
pub mod text;
pub mod tui;
pub mod whatif;
pub mod workspace;

pub use config::Config;
pub use schema::Schema;
