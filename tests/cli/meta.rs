//! clam about itself: --version with the commit, shell completions, manual pages,
//! `clam config show` and `clam init`.

use super::*;

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).to_string()
}

#[test]
fn version_names_the_commit_built_from() {
    let env = Env::new();
    let o = env.clam(&["--version"]);
    assert_eq!(o.status.code(), Some(0));
    let v = stdout(&o);
    let inner = v
        .trim()
        .strip_prefix(&format!("clam {} (", env!("CARGO_PKG_VERSION")))
        .and_then(|r| r.strip_suffix(')'))
        .unwrap_or_else(|| panic!("{v}"));
    let hash = inner.split(' ').next().unwrap_or("");
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    let here = std::fs::canonicalize(env!("CARGO_MANIFEST_DIR")).expect("manifest dir");
    let checkout = git(&["rev-parse", "--show-toplevel"])
        .and_then(|top| std::fs::canonicalize(top).ok())
        .is_some_and(|top| top == here);
    if checkout {
        // Built in this checkout: a commit of its history.
        assert!(
            hash.len() >= 7
                && hash.chars().all(|c| c.is_ascii_hexdigit())
                && git(&["cat-file", "-t", hash]).as_deref() == Some("commit"),
            "{v}"
        );
    } else {
        // A source tarball: the build says so instead of failing.
        assert_eq!(inner, "unknown", "{v}");
    }
    // Subcommands say the same.
    assert!(stdout(&env.clam(&["run", "--version"])).contains(inner));
}

#[test]
fn completions_and_manual_pages_come_from_the_command_definitions() {
    let env = Env::new();
    for (shell, marker) in [
        ("bash", "_clam()"),
        ("zsh", "#compdef clam"),
        ("fish", "complete -c clam"),
        ("elvish", "edit:completion:arg-completer[clam]"),
        ("powershell", "Register-ArgumentCompleter"),
    ] {
        let o = env.clam(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0), "{shell}: {}", stderr(&o));
        let text = stdout(&o);
        assert!(text.contains(marker), "{shell}: {text}");
        assert!(
            text.contains("decide") && text.contains("require-reviewed"),
            "{shell}"
        );
    }
    assert_eq!(env.clam(&["completions", "tcsh"]).status.code(), Some(2));

    let o = env.clam(&["man"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(
        page.starts_with(".ie") || page.contains(".TH clam 1"),
        "{page}"
    );
    assert!(page.contains("decide"), "the commands are listed");
    let dir = env.path("man1");
    let o = env.clam(&["man", "--out", dir.to_str().expect("utf8")]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    for name in [
        "clam",
        "clam-run",
        "clam-decide",
        "clam-gold-import",
        "clam-config-show",
    ] {
        let page = std::fs::read_to_string(dir.join(format!("{name}.1")))
            .unwrap_or_else(|e| panic!("{name}.1: {e}"));
        assert!(page.contains(&format!(".TH {name} 1")), "{name}: {page}");
    }
    let decide = std::fs::read_to_string(dir.join("clam-decide.1")).expect("page");
    assert!(
        decide.contains("\\-\\-reason") || decide.contains("--reason"),
        "{decide}"
    );
}

#[test]
fn config_show_names_the_origin_of_every_setting() {
    use clam::session::{AuditAction, Session};
    let env = Env::new();
    let corpus = corpus_with(&env, &[("a.json", GOOD.as_bytes())]);
    let user_dir = env.path("config/clam");
    std::fs::create_dir_all(&user_dir).expect("mkdir");
    let user = user_dir.join("clam.toml");
    std::fs::write(&user, "theta_chain = 0.4\n[llm]\nmodel = \"m\"\n").expect("write");
    std::fs::write(corpus.join("clam.toml"), "edge_threshold = 0.3\n").expect("write");
    let other = env.path("other.toml");
    std::fs::write(&other, "[schema.AGE]\nweight = 0.6\n").expect("write");
    let session = env.path("s.sqlite");
    {
        let mut s = Session::open(&session).expect("session");
        s.append(&decision(
            "auditor",
            AuditAction::Settings {
                old: [("risk_high".to_string(), "0.75".to_string())].into(),
                new: [("risk_high".to_string(), "0.8".to_string())].into(),
            },
            None,
        ))
        .expect("append");
    }
    let c = corpus.to_str().expect("utf8");
    let args = [
        "config",
        "show",
        c,
        "--config",
        other.to_str().expect("utf8"),
        "--theta-doc",
        "0.9",
        "--session",
        session.to_str().expect("utf8"),
    ];
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let o = env.clam(&with_json);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    let setting = |key: &str| {
        v["settings"]
            .as_array()
            .expect("settings")
            .iter()
            .find(|s| s["key"] == key)
            .map(|s| {
                (
                    s["value"].clone(),
                    s["origin"].as_str().unwrap_or("").to_string(),
                )
            })
            .unwrap_or_else(|| panic!("{key} missing"))
    };
    let corpus_toml = corpus.join("clam.toml").display().to_string();
    let session_origin = format!("session {}", session.display());
    assert_eq!(
        setting("theta_chain"),
        (Value::from(0.4), user.display().to_string())
    );
    assert_eq!(
        setting("edge_threshold"),
        (Value::from(0.3), corpus_toml.clone())
    );
    assert_eq!(
        setting("theta_doc"),
        (Value::from(0.9), "command line".into())
    );
    assert_eq!(
        setting("risk_high"),
        (Value::from(0.8), session_origin.clone())
    );
    assert_eq!(
        setting("llm.model"),
        (Value::from("m"), user.display().to_string())
    );
    assert_eq!(setting("schema.AGE").1, other.display().to_string());
    assert_eq!(setting("schema.AGE").0["weight"], 0.6);
    assert_eq!(setting("rho_high"), (Value::from(0.5), "default".into()));
    assert_eq!(
        v["layers"],
        serde_json::json!([
            user.display().to_string(),
            corpus_toml,
            other.display().to_string(),
            "command line",
            session_origin
        ])
    );
    // The text: one `key = value  # origin` line per setting.
    let o = env.clam(&args);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = stdout(&o);
    let line = text
        .lines()
        .find(|l| l.starts_with("theta_doc = "))
        .expect("theta_doc");
    assert!(
        line.starts_with("theta_doc = 0.9 ") && line.ends_with("# command line"),
        "{text}"
    );
    assert!(
        text.lines()
            .any(|l| l.starts_with("rho_high = 0.5 ") && l.ends_with("# default")),
        "{text}"
    );
    // A bad key is named with its file, as for any command.
    std::fs::write(&other, "theta_doc = 2\n").expect("write");
    let o = env.clam(&with_json);
    assert_eq!(o.status.code(), Some(1));
    let e: Value = serde_json::from_slice(&o.stdout).expect("json error");
    assert_eq!(e["error"]["key"], "theta_doc");
    assert_eq!(e["error"]["line"], 1);
}

#[test]
fn init_writes_a_commented_clam_toml_and_keeps_an_existing_one() {
    let env = Env::new();
    let dir = env.path("project");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let d = dir.to_str().expect("utf8");
    let o = env.clam(&["init", d]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let file = dir.join("clam.toml");
    let text = std::fs::read_to_string(&file).expect("clam.toml");
    assert!(text.contains("# theta_doc = 0.95\n"), "{text}");
    assert!(
        text.contains("# [llm]\n") && text.contains("# [extract]\n"),
        "{text}"
    );
    // As written it changes nothing; a key uncommented takes effect from this file.
    let show = |env: &Env| {
        let o = env.clam(&[
            "config",
            "show",
            "--json",
            "--config",
            file.to_str().expect("utf8"),
        ]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        serde_json::from_slice::<Value>(&o.stdout).expect("json")
    };
    let v = show(&env);
    assert!(
        v["settings"]
            .as_array()
            .expect("settings")
            .iter()
            .all(|s| s["origin"] == "default"),
        "{v}"
    );
    std::fs::write(
        &file,
        text.replace("# theta_doc = 0.95\n", "theta_doc = 0.8\n"),
    )
    .expect("write");
    let v = show(&env);
    let theta = v["settings"]
        .as_array()
        .expect("settings")
        .iter()
        .find(|s| s["key"] == "theta_doc")
        .cloned()
        .expect("theta_doc");
    assert_eq!(theta["value"], 0.8);
    assert_eq!(theta["origin"], file.display().to_string());
    // An existing clam.toml is kept unless --force.
    let o = env.clam(&["init", d]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--force"), "{}", stderr(&o));
    assert!(
        std::fs::read_to_string(&file)
            .expect("read")
            .contains("theta_doc = 0.8\n")
    );
    let o = env.clam(&["init", d, "--force"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&file).expect("read"), text);
}
