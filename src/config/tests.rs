//! Tests of configuration layers, their precedence and their errors.
use super::*;
use crate::analysis::DEFAULT_MAX_CHAINS_PER_COMPONENT;

#[test]
fn defaults_are_the_thesis_final_configuration() {
    let c = Config::default();
    assert_eq!(c.analysis.edge_threshold, 0.5);
    assert_eq!(c.analysis.chain_length, 2);
    assert_eq!(c.plan.theta_doc, 0.95);
    assert_eq!(c.plan.strategy, Strategy::Knapsack);
    assert!(c.plan.prune, "the product prunes (stage 3) by default");
    assert_eq!(c.redact.always_mask.len(), 5);
    assert!(c.validate("defaults").is_ok());
}

#[test]
fn the_ui_theme_is_read_and_does_not_change_the_config_hash() {
    let mut c = Config::default();
    let plain = c.hash(b"key");
    ConfigLayer::from_toml("[ui]\ntheme = \"light\"", "u.toml")
        .expect("parses")
        .apply(&mut c, "u.toml")
        .expect("applies");
    assert_eq!(c.ui.theme.as_deref(), Some("light"));
    assert_eq!(c.ui.theme_origin.as_deref(), Some("u.toml"));
    assert_eq!(c.hash(b"key"), plain, "a theme is not a planning setting");
    let err = ConfigLayer::from_toml("[ui]\ntheme = \" \"", "u.toml")
        .expect("parses")
        .apply(&mut c, "u.toml")
        .expect_err("empty");
    assert!(err.to_string().contains("ui.theme"), "{err}");
}

#[test]
fn the_chain_cap_is_validated_and_reaches_the_analysis() {
    for bad in ["-1", "\"many\"", "1.5"] {
        assert!(
            ConfigLayer::from_toml(&format!("max_chains_per_component = {bad}"), "c.toml").is_err()
        );
    }
    for bad in ["0", "50000001"] {
        let err = ConfigLayer::from_toml(&format!("max_chains_per_component = {bad}"), "c.toml")
            .expect_err(bad)
            .to_string();
        assert!(
            err.contains("c.toml") && err.contains("max_chains_per_component"),
            "{err}"
        );
    }
    let layer =
        ConfigLayer::from_toml("max_chains_per_component = 2500", "c.toml").expect("valid cap");
    let mut c = Config::default();
    assert_eq!(
        c.analysis_params().max_chains_per_component,
        DEFAULT_MAX_CHAINS_PER_COMPONENT
    );
    layer.apply(&mut c, "c.toml").expect("apply");
    assert_eq!(c.analysis_params().max_chains_per_component, 2500);
}

#[test]
fn invalid_values_name_the_key() {
    let err = ConfigLayer::from_toml("theta_doc = 1.5", "x/clam.toml").unwrap_err();
    assert_eq!(
        err.to_string(),
        "x/clam.toml: key `theta_doc`: 1.5 is outside [0, 1]"
    );
    let err = ConfigLayer::from_toml("chain_length = 0", "c.toml").unwrap_err();
    assert!(err.to_string().contains("key `chain_length`"), "{err}");
    let err = ConfigLayer::from_toml("tehta_doc = 0.5", "c.toml").unwrap_err();
    assert!(
        err.to_string().contains("unknown field `tehta_doc`"),
        "{err}"
    );
    let err = ConfigLayer::from_toml("strategy = \"fast\"", "c.toml").unwrap_err();
    assert!(err.to_string().contains("strategy"), "{err}");
    let err = ConfigLayer::from_toml("[schema.NAME]\nweight = 2.0", "c.toml").unwrap_err();
    assert!(err.to_string().contains("schema.NAME.weight"), "{err}");
}

#[test]
fn unknown_type_in_policy_names_the_key() {
    let mut c = Config::default();
    ConfigLayer::from_toml("always_mask = [\"NAME\", \"SHOE_SIZE\"]", "c.toml")
        .unwrap()
        .apply(&mut c, "c.toml")
        .unwrap();
    let err = c.validate("c.toml").unwrap_err();
    assert!(err.to_string().contains("key `always_mask`"), "{err}");
    assert!(err.to_string().contains("SHOE_SIZE"), "{err}");
}

#[test]
fn extract_lists_read_files_relative_to_the_config_and_add_up() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("drugs.txt"),
        "# house formulary\nZyntheril\n\nPexorabine # brand\n",
    )
    .expect("write");
    let file = dir.path().join("clam.toml");
    std::fs::write(
        &file,
        "[extract]\ngazetteer_files = { TREATMENT = [\"drugs.txt\"] }\n\
         gazetteer_terms = { TREATMENT = [\"Quelorin\"] }\n\
         allow = [\"Meridian Mutual Health\"]\ndeny = { NAME = [\"Jo Public\"] }\n",
    )
    .expect("write");
    let flags =
        ConfigLayer::from_toml("[extract]\nallow = [\"Hope Ward\"]", "flags").expect("flags");
    let config = resolve(&ConfigSources {
        file: Some(file),
        flags,
        ..ConfigSources::default()
    })
    .expect("resolve");
    assert_eq!(
        config.extract.gazetteer_terms["TREATMENT"],
        vec!["Quelorin", "Zyntheril", "Pexorabine"]
    );
    assert_eq!(
        config.extract.allow,
        vec!["Meridian Mutual Health", "Hope Ward"]
    );
    assert_eq!(config.extract.deny["NAME"], vec!["Jo Public"]);

    // The export's record of the configuration: counts and base names only.
    let shown = config.export_json();
    let text = shown.to_string();
    for term in [
        "Zyntheril",
        "Pexorabine",
        "Quelorin",
        "Meridian",
        "Hope Ward",
        "Jo Public",
    ] {
        assert!(!text.contains(term), "{term} in {text}");
    }
    assert!(
        !text.contains(&dir.path().display().to_string()),
        "no folder: {text}"
    );
    let x = &shown["extract"];
    assert_eq!(x["gazetteer_terms"]["TREATMENT"]["count"], 3);
    assert_eq!(
        x["gazetteer_files"]["TREATMENT"],
        serde_json::json!([{"file": "drugs.txt", "terms": 2}])
    );
    assert_eq!(x["allow"]["count"], 2);
    assert_eq!(x["deny"]["NAME"]["count"], 1);
    // Scalar settings stay as they are.
    assert_eq!(shown["edge_threshold"], 0.5);
    assert_eq!(shown["theta_doc"], config.plan.theta_doc);
    assert_eq!(config.extract.term_counts(), (3, 2, 1));
}

#[test]
fn the_config_hash_is_an_hmac_under_the_project_key() {
    let mut c = Config::default();
    c.extract
        .deny
        .insert("NAME".into(), vec!["Jo Public".into()]);
    let json = serde_json::to_string(&c).expect("json");
    let (k1, k2) = (b"project key one".as_slice(), b"project key two".as_slice());
    let h = c.hash(k1);
    assert_eq!(h.len(), 64, "HMAC-SHA256 hex");
    assert_eq!(h, c.hash(k1), "stable for the same configuration and key");
    assert_eq!(h, crate::hashing::hmac_hex(k1, &json));
    assert_ne!(h, c.hash(k2), "another project, another hash");
    // Nobody without the key recomputes it from a guessed configuration.
    assert_ne!(h, crate::hashing::md5_hex(&json));
    assert!(!h.starts_with(&crate::hashing::md5_hex(&json)));
    // A configuration change shows.
    let mut other = c.clone();
    other
        .extract
        .deny
        .insert("NAME".into(), vec!["Jo Publik".into()]);
    assert_ne!(other.hash(k1), h);
    // No key, no hash: an HMAC under an empty key is recomputable.
    assert_eq!(c.hash(b""), "");
}

#[test]
fn legacy_md5_config_hashes_are_keyed_on_export() {
    let c = Config::default();
    let key = b"k".as_slice();
    let md5 = crate::hashing::md5_hex(&serde_json::to_string(&c).expect("json"));
    let exported = export_config_hash(&md5, key);
    assert_eq!(exported.len(), 64);
    assert_ne!(exported, md5);
    assert_eq!(exported, export_config_hash(&md5, key), "stable");
    assert_ne!(exported, export_config_hash(&md5, b"other"));
    // Keyed hashes and empty ones pass as they are.
    assert_eq!(export_config_hash(&c.hash(key), key), c.hash(key));
    assert_eq!(export_config_hash("", key), "");
}

#[test]
fn extract_list_errors_name_the_key_and_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("clam.toml");
    std::fs::write(
        &file,
        "[extract]\ngazetteer_files = { TREATMENT = [\"gone.txt\"] }\n",
    )
    .expect("write");
    let e = ConfigLayer::from_file(&file)
        .expect_err("missing file")
        .to_string();
    assert!(
        e.contains("extract.gazetteer_files.TREATMENT") && e.contains("gone.txt"),
        "{e}"
    );
    let layer =
        ConfigLayer::from_toml("[extract]\ndeny = { PET = [\"Rex\"] }", "x.toml").expect("parses");
    let mut c = Config::default();
    layer.apply(&mut c, "x.toml").expect("apply");
    let e = c.validate("x.toml").expect_err("unknown type").to_string();
    assert!(e.contains("extract.deny.PET"), "{e}");
    let e = ConfigLayer::from_toml("[extract]\nallowed = []", "x.toml")
        .expect_err("unknown key")
        .to_string();
    assert!(e.contains("allowed"), "{e}");
}

#[test]
fn layers_override_in_order_and_schema_merges_per_type() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("clam.toml"),
        "edge_threshold = 0.3\nchain_length = 3\n[schema.AGE]\nweight = 0.9\n[schema.SHOE_SIZE]\nweight = 0.2\n",
    )
    .unwrap();
    let file = dir.path().join("other.toml");
    std::fs::write(&file, "edge_threshold = 0.4\nredaction = \"pseudonym\"\n").unwrap();
    let flags = ConfigLayer {
        edge_threshold: Some(0.6),
        ..ConfigLayer::default()
    };
    let c = resolve(&ConfigSources {
        user: false,
        corpus_dir: Some(dir.path().to_path_buf()),
        snapshot: None,
        file: Some(file),
        flags,
    })
    .unwrap();
    assert_eq!(c.analysis.edge_threshold, 0.6);
    assert_eq!(c.analysis.chain_length, 3);
    assert_eq!(c.redact.mode, Mode::Pseudonym);
    assert_eq!(c.schema.weight("AGE"), 0.9);
    assert_eq!(c.schema.weight("SHOE_SIZE"), 0.2);
    assert_eq!(c.schema.weight("NAME"), 1.0);
}

/// The configuration of a corpus folder holding `toml` as its clam.toml (and the
/// files `files`), with a `--config` file `user` when given.
fn corpus_config(
    toml: &str,
    files: &[(&str, &[u8])],
    user: Option<&str>,
) -> Result<Config, String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).map_err(|e| e.to_string())?;
    std::fs::write(corpus.join("clam.toml"), toml).map_err(|e| e.to_string())?;
    for (name, bytes) in files {
        std::fs::write(dir.path().join(name), bytes).map_err(|e| e.to_string())?;
    }
    let file = match user {
        Some(text) => {
            let p = dir.path().join("mine.toml");
            std::fs::write(&p, text).map_err(|e| e.to_string())?;
            Some(p)
        }
        None => None,
    };
    resolve(&ConfigSources {
        user: false,
        corpus_dir: Some(corpus),
        snapshot: None,
        file,
        flags: ConfigLayer::default(),
    })
    .map_err(|e| e.to_string())
}

#[test]
fn a_corpus_clam_toml_can_only_make_the_policy_stricter() {
    // never_mask: adding a type is refused, naming the key and the file.
    let e = corpus_config("never_mask = [\"NAME\"]\n", &[], None).expect_err("refused");
    assert!(
        e.contains("never_mask") && e.contains("clam.toml") && e.contains("stricter"),
        "{e}"
    );
    // always_mask: added to, never replaced.
    let c = corpus_config("always_mask = [\"AGE\"]\n", &[], None).expect("loads");
    assert!(c.redact.always_mask.iter().any(|t| t == "AGE"));
    for t in crate::schema::DIRECT_IDENTIFIERS {
        assert!(c.redact.always_mask.iter().any(|x| x == t), "{t} kept");
    }
    // The user's own --config may still relax what the corpus may not.
    let c = corpus_config(
        "always_mask = [\"AGE\"]\n",
        &[],
        Some("always_mask = []\nnever_mask = [\"NAME\"]\n"),
    )
    .expect("the user's file is the user's policy");
    assert_eq!(c.redact.never_mask, vec!["NAME".to_string()]);
    // Resource limits: not above the default.
    for (toml, key) in [
        (
            "max_chains_per_component = 50000000\n",
            "max_chains_per_component",
        ),
        ("max_document_bytes = 999999999999\n", "max_document_bytes"),
    ] {
        let e = corpus_config(toml, &[], None).expect_err("refused");
        assert!(e.contains(key) && e.contains("above the default"), "{e}");
    }
    let c = corpus_config(
        "max_chains_per_component = 10\nchain_length = 2\n",
        &[],
        None,
    )
    .expect("lower limits are stricter");
    assert_eq!(c.analysis.max_chains_per_component, 10);
    // Every key it set is recorded (for the report and clam analyze).
    let keys = c.corpus_config.expect("recorded").keys;
    assert_eq!(
        keys,
        vec![
            "chain_length".to_string(),
            "max_chains_per_component".to_string()
        ]
    );
}

#[test]
fn a_corpus_clam_toml_may_turn_pruning_off_but_not_on() {
    // Off masks more (every mask of stages 1–2 stays): stricter, so allowed.
    let c = corpus_config("prune = false\n", &[], None).expect("stricter");
    assert!(!c.plan.prune);
    assert_eq!(c.corpus_config.expect("recorded").keys, vec!["prune"]);
    // On where the policy in effect has it off would release masks: refused.
    let mut yours = Config::default();
    yours.plan.prune = false;
    let mut layer = ConfigLayer::from_toml("prune = true\n", "corpus/clam.toml").expect("parses");
    let e = resolve::only_stricter(&mut layer, &yours, "corpus/clam.toml")
        .expect_err("refused")
        .to_string();
    assert!(
        e.contains("`prune`") && e.contains("corpus/clam.toml") && e.contains("stricter"),
        "{e}"
    );
    // Where it is on already, saying so changes nothing.
    let mut layer = ConfigLayer::from_toml("prune = true\n", "corpus/clam.toml").expect("parses");
    assert!(resolve::only_stricter(&mut layer, &Config::default(), "corpus/clam.toml").is_ok());
    // A value that is not a switch names the key.
    let e = ConfigLayer::from_toml("prune = \"sometimes\"\n", "clam.toml").expect_err("bad");
    assert!(e.to_string().contains("prune"), "{e}");
}

#[test]
fn a_corpus_clam_toml_names_only_regular_bounded_files_inside_the_corpus() {
    // Outside the folder, by `..` or by an absolute path: refused.
    let e = corpus_config(
        "[extract]\ngazetteer_files = { TREATMENT = [\"../outside.txt\"] }\n",
        &[("outside.txt", b"secret line\n")],
        None,
    )
    .expect_err("outside");
    assert!(
        e.contains("outside the corpus folder") && e.contains("extract.gazetteer_files"),
        "{e}"
    );
    let e = corpus_config(
        "[extract]\ngazetteer_files = { TREATMENT = [\"/etc/hostname\"] }\n",
        &[],
        None,
    )
    .expect_err("absolute");
    assert!(e.contains("outside the corpus folder"), "{e}");
    // Not a regular file (any layer): a device.
    let dir = tempfile::tempdir().expect("tempdir");
    let user = dir.path().join("mine.toml");
    std::fs::write(
        &user,
        "[extract]\ngazetteer_files = { TREATMENT = [\"/dev/zero\"] }\n",
    )
    .expect("write");
    let e = ConfigLayer::from_file(&user)
        .expect_err("a device")
        .to_string();
    assert!(e.contains("not a regular file"), "{e}");
    // A link inside the folder to a file outside it: refused too.
    #[cfg(unix)]
    {
        let outer = tempfile::tempdir().expect("tempdir");
        let corpus = outer.path().join("corpus");
        std::fs::create_dir(&corpus).expect("mkdir");
        std::fs::write(outer.path().join("secret.txt"), "k\n").expect("write");
        std::os::unix::fs::symlink(outer.path().join("secret.txt"), corpus.join("terms.txt"))
            .expect("link");
        std::fs::write(
            corpus.join("clam.toml"),
            "[extract]\ngazetteer_files = { TREATMENT = [\"terms.txt\"] }\n",
        )
        .expect("write");
        let e = ConfigLayer::from_corpus_file(&corpus.join("clam.toml"))
            .expect_err("a link out")
            .to_string();
        assert!(e.contains("outside the corpus folder"), "{e}");
    }
    // A file inside the folder is read.
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("terms.txt"), "ocrelizumab\n").expect("write");
    std::fs::write(
        dir.path().join("clam.toml"),
        "[extract]\ngazetteer_files = { TREATMENT = [\"terms.txt\"] }\n",
    )
    .expect("write");
    let layer = ConfigLayer::from_corpus_file(&dir.path().join("clam.toml")).expect("inside");
    let terms = layer
        .extract
        .and_then(|x| x.gazetteer_terms)
        .unwrap_or_default();
    assert_eq!(terms.get("TREATMENT").map(Vec::len), Some(1));
}

#[test]
fn a_configuration_file_over_the_cap_is_refused_not_read_whole() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("clam.toml");
    let line = "# a comment line that is long enough to fill the file quickly ........\n";
    let text = line.repeat((MAX_CONFIG_FILE_BYTES as usize / line.len()) + 2);
    std::fs::write(&file, text).expect("write");
    let e = ConfigLayer::from_file(&file)
        .expect_err("too large")
        .to_string();
    assert!(e.contains("larger than") && e.contains("clam.toml"), "{e}");
}
