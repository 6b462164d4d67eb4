//! clam — Cross-document Linkage-Aware Masking.
//!
//! The library holds all logic; the binary is a thin command-line front end.
//! Data flows one way: corpus → extract → entities → analysis → plan → redact → export,
//! with the session (decisions, entity edits) feeding forced states into the plan.

pub mod analysis;
pub mod config;
pub mod corpus;
pub mod display;
pub mod entity;
pub mod eval;
pub mod export;
pub mod extract;
pub mod gencorpus;
pub mod hashing;
pub mod plan;
pub mod redact;
pub mod schema;
pub mod session;
pub mod snapshot;
pub mod text;
pub mod tui;
pub mod whatif;
pub mod workspace;

pub use config::Config;
pub use schema::Schema;
