//! Usage and configuration errors, and the precedence of the configuration layers.

use super::*;

#[test]
fn usage_and_config_errors() {
    let env = Env::new();
    assert_eq!(env.clam(&["run"]).status.code(), Some(2));
    assert_eq!(env.clam(&["frobnicate"]).status.code(), Some(2));
    for cmd in ["run", "analyze", "extract", "plan", "session"] {
        let o = env.clam(&[cmd, "--help"]);
        assert_eq!(o.status.code(), Some(0), "{cmd} --help");
    }
    // A flag's bad value is a usage error whether it does not parse or is out of
    // range; a configuration file's bad value is an error of the command (1).
    let o = env.clam(&["analyze", &sample(), "--theta-doc", "1.5"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("theta_doc"), "{}", stderr(&o));
    let o = env.clam(&["analyze", &sample(), "--theta-doc", "abc"]);
    assert_eq!(o.status.code(), Some(2));
    let cfg = env.path("bad.toml");
    std::fs::write(&cfg, "always_mask = [\"SHOE_SIZE\"]\n").expect("write");
    let o = env.clam(&[
        "analyze",
        &sample(),
        "--config",
        cfg.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("always_mask") && stderr(&o).contains("SHOE_SIZE"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn configuration_layers_apply_in_precedence_order() {
    let env = Env::new();
    let corpus = corpus_with(&env, &[("a.json", GOOD.as_bytes())]);
    let user_dir = env.path("config/clam");
    std::fs::create_dir_all(&user_dir).expect("mkdir");
    let threshold = |o: &Output| -> f64 {
        let v: Value = serde_json::from_slice(&o.stdout).expect("json");
        v["config"]["edge_threshold"]
            .as_f64()
            .expect("edge_threshold")
    };
    let analyze = |extra: &[&str]| {
        let mut args = vec!["analyze", corpus.to_str().expect("utf8"), "--json"];
        args.extend_from_slice(extra);
        env.clam(&args)
    };
    assert_eq!(threshold(&analyze(&[])), 0.5, "default");
    std::fs::write(user_dir.join("clam.toml"), "edge_threshold = 0.1\n").expect("write");
    assert_eq!(threshold(&analyze(&[])), 0.1, "user config over defaults");
    std::fs::write(corpus.join("clam.toml"), "edge_threshold = 0.2\n").expect("write");
    assert_eq!(
        threshold(&analyze(&[])),
        0.2,
        "corpus clam.toml over user config"
    );
    let file = env.path("other.toml");
    std::fs::write(&file, "edge_threshold = 0.3\n").expect("write");
    let file = file.to_str().expect("utf8");
    assert_eq!(
        threshold(&analyze(&["--config", file])),
        0.3,
        "--config over corpus"
    );
    assert_eq!(
        threshold(&analyze(&["--config", file, "--edge-threshold", "0.4"])),
        0.4,
        "flags over --config"
    );
    std::fs::write(corpus.join("clam.toml"), "edge_threshold = -1\n").expect("write");
    let o = analyze(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("clam.toml") && stderr(&o).contains("edge_threshold"),
        "{}",
        stderr(&o)
    );

    // `[ui] theme` chooses the workspace's theme; an unknown one is refused, naming
    // the file and the key, before the terminal is taken over. --theme wins.
    std::fs::write(corpus.join("clam.toml"), "[ui]\ntheme = \"sepia\"\n").expect("write");
    let review = |extra: &[&str]| {
        let mut args = vec!["review", corpus.to_str().expect("utf8")];
        args.extend_from_slice(extra);
        env.clam(&args)
    };
    let o = review(&[]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("clam.toml") && err.contains("ui.theme") && err.contains("sepia"),
        "{err}"
    );
    let o = review(&["--theme", "nope"]);
    assert!(
        stderr(&o).contains("\"nope\"") && !stderr(&o).contains("sepia"),
        "{}",
        stderr(&o)
    );
    // A user theme file makes the name known (the review then stops at the missing
    // terminal, past the theme).
    std::fs::create_dir_all(user_dir.join("themes")).expect("mkdir");
    let dark =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("themes/dark.toml"))
            .expect("dark theme");
    std::fs::write(
        user_dir.join("themes/sepia.toml"),
        dark.replace("name = \"dark\"", "name = \"sepia\""),
    )
    .expect("write");
    let o = review(&[]);
    assert!(!stderr(&o).contains("ui.theme"), "{}", stderr(&o));
    std::fs::write(corpus.join("clam.toml"), "[ui]\ncolour = \"red\"\n").expect("write");
    let o = analyze(&[]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("clam.toml") && stderr(&o).contains("colour"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_keys_a_corpus_clam_toml_set_are_listed_by_analyze_and_in_the_report() {
    let env = Env::new();
    let dir = env.path("corpus");
    std::fs::create_dir(&dir).expect("mkdir");
    write(&dir, "good.json", GOOD.as_bytes());
    write(
        &dir,
        "clam.toml",
        b"theta_doc = 0.4\nalways_mask = [\"AGE\"]\n",
    );
    let corpus = dir.to_str().expect("utf8");
    let o = env.clam(&["analyze", corpus]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(
        text.contains("clam.toml set: always_mask, theta_doc"),
        "{text}"
    );
    let o = env.clam(&["analyze", corpus, "--json"]);
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(
        v["corpus_config"]["keys"],
        serde_json::json!(["always_mask", "theta_doc"])
    );
    let out = env.path("out");
    let o = env.clam(&["run", corpus, "--out", out.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("| keys set by the corpus folder's clam.toml | always_mask, theta_doc |"),
        "{report}"
    );
}

#[test]
fn an_error_quoting_a_config_value_shows_its_escapes_escaped() {
    let env = Env::new();
    let config = env.path("mine.toml");
    std::fs::write(
        &config,
        "redaction = \"\u{1b}]0;owned\u{7}\u{1b}[31m\u{202e}x\"\n",
    )
    .expect("write");
    let o = env.clam(&[
        "analyze",
        &sample(),
        "--config",
        config.to_str().expect("utf8"),
    ]);
    assert_ne!(o.status.code(), Some(0));
    let err = stderr(&o);
    assert!(
        !err.chars()
            .any(|c| clam::display::is_unsafe_char(c) && c != '\n'),
        "raw control characters on stderr: {err:?}"
    );
    assert!(
        err.contains("redaction") && err.contains("\\u{1b}"),
        "{err}"
    );
}

/// A type declared with `[schema.NAME]` is extracted offline from the `[extract]`
/// deny list and terms, with their relevances (1.0, 0.9), and masked like any other.
#[test]
fn a_declared_schema_type_is_extracted_offline_from_the_extract_lists() {
    let env = Env::new();
    let corpus = corpus_with(
        &env,
        &[
            (
                "a.json",
                br#"{"id": "a", "content": "Maria ordered boots in EU 43 wide with the Trailblazer insole."}"#,
            ),
            (
                "b.json",
                br#"{"id": "b", "content": "Return of the eu 43 wide boots and a trailblazer insole noted."}"#,
            ),
            (
                "clam.toml",
                b"always_mask = [\"SHOE_SIZE\"]\n\
                  [schema.SHOE_SIZE]\nweight = 0.2\ncategory = \"quasi_identifier\"\nphrase = \"a shoe size\"\n\
                  [extract]\ndeny = { SHOE_SIZE = [\"EU 43 wide\"] }\n\
                  gazetteer_terms = { SHOE_SIZE = [\"Trailblazer insole\"] }\n",
            ),
        ],
    );
    let snap = env.path("snap.json");
    let o = env.clam(&[
        "extract",
        corpus.to_str().expect("utf8"),
        "--out",
        snap.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value =
        serde_json::from_str(&std::fs::read_to_string(&snap).expect("snapshot")).expect("json");
    let shoe: Vec<(String, f64)> = v["documents"][0]["entities"]
        .as_array()
        .expect("entities")
        .iter()
        .filter(|e| e["type"] == "SHOE_SIZE")
        .map(|e| {
            (
                e["value"].as_str().expect("value").to_string(),
                e["relevance"].as_f64().expect("relevance"),
            )
        })
        .collect();
    assert_eq!(
        shoe,
        [
            ("eu 43 wide".to_string(), 1.0),
            ("trailblazer insole".to_string(), 0.9)
        ]
    );
    // Masked by the corpus's policy, generalized with the schema's phrase, in every
    // document whatever the case.
    let out = env.path("out");
    let o = run_to(&env, &corpus, &out, &["--mode", "generalize"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for (_, text) in read_all_files(&out.join("redacted")) {
        let lower = text.to_lowercase();
        assert!(
            !lower.contains("43 wide") && !lower.contains("trailblazer"),
            "{text}"
        );
        assert!(text.contains("a shoe size"), "{text}");
    }

    // A list for a type the schema does not have names the key and says what to do.
    std::fs::write(
        corpus.join("clam.toml"),
        "[extract]\ndeny = { HAT_SIZE = [\"7 1/4\"] }\n",
    )
    .expect("write");
    let o = env.clam(&["analyze", corpus.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("extract.deny.HAT_SIZE") && stderr(&o).contains("[schema.HAT_SIZE]"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_error_about_a_key_names_the_one_file_that_set_it_with_its_line() {
    let env = Env::new();
    let user_dir = env.path("config/clam");
    std::fs::create_dir_all(&user_dir).expect("mkdir");
    let user = user_dir.join("clam.toml");
    std::fs::write(
        &user,
        "# the team's thresholds\nedge_threshold = 0.4\nrisk_high = 0.3\n",
    )
    .expect("write");
    let other = env.path("project.toml");
    std::fs::write(&other, "theta_doc = 0.9\n\nalways_mask = [\"SHOE_SIZE\"]\n").expect("write");
    let other_s = other.to_str().expect("utf8");
    // always_mask is checked against the merged schema, but only --config set it.
    let o = env.clam(&["analyze", &sample(), "--config", other_s]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "{other_s}:3: key `always_mask`: unknown entity type \"SHOE_SIZE\""
        )),
        "{err}"
    );
    assert!(!err.contains("configuration ("), "{err}");
    // risk_medium (a default) is checked against the user's risk_high: the user's
    // file and the line of risk_high are named, not the other file.
    std::fs::write(&other, "theta_doc = 0.9\n").expect("write");
    let o = env.clam(&["analyze", &sample(), "--config", other_s]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}:3: key `risk_medium`", user.display()))
            && err.contains("(`risk_high` is set here)"),
        "{err}"
    );
    assert!(
        !err.contains(other_s) && !err.contains("configuration ("),
        "{err}"
    );
}

#[test]
fn a_toml_parse_error_keeps_its_caret_under_the_column_after_tabs_and_wide_characters() {
    use unicode_width::UnicodeWidthStr;
    let env = Env::new();
    let cfg = env.path("bad.toml");
    std::fs::write(
        &cfg,
        "theta_doc = 0.9\n\t[schema.NAME]\n\tgeneralize = \"名前\" x\n",
    )
    .expect("write");
    let o = env.clam(&[
        "analyze",
        &sample(),
        "--config",
        cfg.to_str().expect("utf8"),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}:3:", cfg.display())),
        "line 3 named: {err}"
    );
    let lines: Vec<&str> = err.lines().collect();
    let quoted = lines
        .iter()
        .position(|l| l.starts_with("3 | "))
        .expect("the line is quoted");
    let (text, caret) = (lines[quoted], lines[quoted + 1]);
    assert!(
        !text.contains('\t') && !text.contains("\\u{9}"),
        "tabs expanded: {text}"
    );
    // The caret stands under the `x` as a terminal draws both lines.
    let x = text.rfind('x').expect("x");
    let at = caret.find('^').expect("a caret");
    assert_eq!(
        UnicodeWidthStr::width(&caret[..at]),
        UnicodeWidthStr::width(&text[..x]),
        "\n{text}\n{caret}"
    );
}
