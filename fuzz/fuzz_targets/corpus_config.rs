//! A corpus folder's clam.toml on arbitrary text (SPEC §11): see corpus_config_check.rs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "corpus_config_check.rs"]
mod check;

fuzz_target!(|data: &[u8]| check::check(data));
