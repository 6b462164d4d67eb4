//! Configuration: the remote opt-in, a corpus clam.toml that may never set [llm], and
//! validation of the llm keys.

use super::*;

#[test]
fn a_remote_endpoint_needs_an_explicit_opt_in() {
    let dirs = Dirs::new();
    let c = config("https://llm.example.com/v1", "");
    let err = LlmExtractor::new(&c, &dirs.opts())
        .err()
        .expect("refused")
        .to_string();
    assert!(
        err.contains("https://llm.example.com/v1/chat/completions"),
        "{err}"
    );
    assert!(
        err.contains("allow_remote") && err.contains("--allow-remote"),
        "{err}"
    );
    let opted = LlmOptions {
        allow_remote: true,
        ..dirs.opts()
    };
    assert!(LlmExtractor::new(&c, &opted).is_ok());
    assert!(
        LlmExtractor::new(
            &config("https://llm.example.com/v1", "allow_remote = true\n"),
            &dirs.opts()
        )
        .is_ok()
    );
    for local in [
        "http://localhost:8080/v1",
        "http://127.0.0.2:1/v1",
        "http://[::1]:8000/v1",
    ] {
        assert!(
            LlmExtractor::new(&config(local, ""), &dirs.opts()).is_ok(),
            "{local}"
        );
    }
}

#[test]
fn a_corpus_clam_toml_can_never_set_llm() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("clam.toml"),
        "theta_doc = 0.9\n[llm]\nmodel = \"x\"\n",
    )
    .unwrap();
    let err = resolve(&ConfigSources {
        corpus_dir: Some(dir.path().to_path_buf()),
        ..ConfigSources::default()
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains(&dir.path().join("clam.toml").display().to_string()),
        "{err}"
    );
    assert!(err.contains("[llm]"), "{err}");
    // Thresholds alone are fine.
    std::fs::write(dir.path().join("clam.toml"), "theta_doc = 0.9\n").unwrap();
    assert!(
        resolve(&ConfigSources {
            corpus_dir: Some(dir.path().to_path_buf()),
            ..ConfigSources::default()
        })
        .is_ok()
    );
}

#[test]
fn allow_remote_is_refused_in_a_config_file() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("team.toml");
    std::fs::write(
        &file,
        "[llm]\nbase_url = \"https://x.example/v1\"\nallow_remote = true\n",
    )
    .unwrap();
    let err = resolve(&ConfigSources {
        file: Some(file.clone()),
        ..ConfigSources::default()
    })
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("team.toml") && err.contains("llm.allow_remote"),
        "{err}"
    );
    std::fs::write(
        &file,
        "[llm]\nbase_url = \"http://127.0.0.1:8080/v1\"\nmodel = \"m\"\n",
    )
    .unwrap();
    let c = resolve(&ConfigSources {
        file: Some(file),
        ..ConfigSources::default()
    })
    .unwrap();
    assert_eq!(c.llm.model, "m");
}

#[test]
fn llm_keys_are_validated_with_their_names() {
    for (toml, key) in [
        ("[llm]\nbase_url = \"ftp://x\"", "llm.base_url"),
        ("[llm]\ntemperature = 3.0", "llm.temperature"),
        ("[llm]\nmax_concurrency = 0", "llm.max_concurrency"),
        ("[llm]\nmax_entities = 0", "llm.max_entities"),
        ("[llm]\napi_key_env = \"sk-abc def\"", "llm.api_key_env"),
        (
            "[llm]\nentity_filter_strength = 1.5",
            "llm.entity_filter_strength",
        ),
    ] {
        let e = ConfigLayer::from_toml(toml, "c.toml")
            .unwrap_err()
            .to_string();
        assert!(e.contains(key), "{toml}: {e}");
    }
    let e = ConfigLayer::from_toml("[llm]\napi_key = \"sk-1\"", "c.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("api_key"), "{e}");
    let c = Config::default();
    assert_eq!(c.llm.temperature, 0.01);
    assert_eq!(c.llm.entity_filter_strength, 0.4);
    assert!(Schema::default().contains("NAME"));
}
