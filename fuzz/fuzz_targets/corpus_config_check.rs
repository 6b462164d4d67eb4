//! The check of the `corpus_config` fuzz target, shared with its regression test
//! (tests/hardening/fuzz.rs): `data` as a corpus folder's clam.toml, beside a file
//! outside the corpus and a link out of it. Resolving never panics, and whatever
//! resolves keeps SPEC §11: the default always_mask kept, nothing in never_mask, the
//! resource limits at most the defaults, nothing read from outside the folder.

use clam::Config;
use clam::config::{ConfigLayer, ConfigSources};

const OUTSIDE: &str = "OUTSIDE-MARKER-7f3a";

pub fn check(data: &[u8]) {
    let Ok(dir) = tempfile::tempdir() else {
        return;
    };
    let corpus = dir.path().join("corpus");
    if std::fs::create_dir(&corpus).is_err()
        || std::fs::write(dir.path().join("outside.txt"), format!("{OUTSIDE}\n")).is_err()
        || std::fs::write(corpus.join("inside.txt"), "inside term\n").is_err()
        || std::fs::write(corpus.join("clam.toml"), data).is_err()
    {
        return;
    }
    #[cfg(unix)]
    let _ = std::os::unix::fs::symlink(dir.path().join("outside.txt"), corpus.join("link.txt"));
    let sources = ConfigSources {
        user: false,
        corpus_dir: Some(corpus),
        snapshot: None,
        file: None,
        flags: ConfigLayer::default(),
    };
    let Ok(config) = clam::config::resolve(&sources) else {
        return;
    };
    let default = Config::default();
    for t in &default.redact.always_mask {
        assert!(
            config.redact.always_mask.contains(t),
            "{t} left always_mask"
        );
    }
    assert!(config.redact.never_mask.is_empty(), "never_mask grew");
    assert!(config.analysis.max_chains_per_component <= default.analysis.max_chains_per_component);
    assert!(config.extraction.max_document_bytes <= default.extraction.max_document_bytes);
    let terms = format!("{:?}", config.extract.gazetteer_terms);
    assert!(
        !terms.contains(OUTSIDE),
        "a file outside the corpus was read"
    );
}
