//! Secrets: the API key, its fragments and the credentials of the base URL are
//! never echoed, shown or written, whatever the server sends back.

use super::*;

#[test]
fn client_errors_are_not_retried_and_never_echo_the_key() {
    let server = Server::start(|req, _| {
        let echo = req.auth.clone().unwrap_or_default();
        Reply::Raw(401, vec![], format!("{{\"error\": \"bad key {echo}\"}}"))
    });
    let dirs = Dirs::new();
    // Any variable that is set serves as the key here (PATH: long and distinctive).
    let key = std::env::var("PATH").unwrap();
    let c = config(&server.base_url(), "api_key_env = \"PATH\"\n");
    let r = run(&c, &dirs.no_cache(), &docs()[..1]);
    assert_fallback(&r, "HTTP 401");
    assert_eq!(server.count(), 1, "a 401 is not retried");
    assert_eq!(r.report.documents[0].passes[0].attempts, 1);
    let all = serde_json::to_string(&r.report).unwrap();
    assert!(!all.contains(&key), "{all}");
    assert!(all.contains("<redacted>"), "{all}");
}

/// SPEC §5/§7: `user:pass@` in the base URL still authenticates (reqwest sends it as
/// basic authentication) but is never shown or written: not in the report, the
/// cache, the endpoint shown before sending, a refusal or a configuration error.
#[test]
fn url_credentials_authenticate_but_are_never_shown_or_written() {
    let server = Server::model();
    let dirs = Dirs::new();
    let c = config(
        &format!("http://user:secret@127.0.0.1:{}/v1", server.port),
        "",
    );
    let r = run(&c, &dirs.opts(), &docs());
    assert_eq!(r.report.fallbacks, 0, "{:?}", r.report.documents);
    let requests = server.requests();
    assert!(!requests.is_empty());
    for req in requests {
        // base64("user:secret")
        assert_eq!(req.auth.as_deref(), Some("Basic dXNlcjpzZWNyZXQ="));
    }
    assert_eq!(
        r.report.endpoint,
        format!("{}/chat/completions", server.base_url())
    );
    let all = serde_json::to_string(&r.report).unwrap();
    assert!(!all.contains("secret") && !all.contains("user:"), "{all}");
    let shown = LlmExtractor::new(&c, &dirs.opts()).unwrap().endpoint();
    assert_eq!(shown, format!("{}/chat/completions", server.base_url()));
    let cached = files_under(&dirs.tmp.path().join("cache"));
    assert_eq!(cached.len(), 6, "two passes of three documents");
    for p in cached {
        let text = std::fs::read_to_string(&p).unwrap();
        assert!(
            !text.contains("secret") && !text.contains("user:"),
            "{}: {text}",
            p.display()
        );
    }
    // The cache is keyed without the credentials: the same server, no request.
    let again = run(&config(&server.base_url(), ""), &dirs.opts(), &docs());
    assert_eq!(again.report.requests, 0);

    // A refusal names the endpoint without credentials or a key in the query.
    let remote = config(
        "https://user:secret@llm.example.com/v1?api_key=k3y-value",
        "",
    );
    let e = LlmExtractor::new(&remote, &dirs.opts())
        .err()
        .expect("a remote endpoint is refused")
        .to_string();
    assert!(e.contains("https://llm.example.com/v1"), "{e}");
    assert!(
        !e.contains("secret") && !e.contains("user:") && !e.contains("k3y-value"),
        "{e}"
    );
    // So does a configuration error about the URL.
    let e = ConfigLayer::from_toml(
        "[llm]\nbase_url = \"http://user:secret@host:99999/v1\"",
        "c.toml",
    )
    .unwrap_err()
    .to_string();
    assert!(
        e.contains("llm.base_url") && e.contains("host:99999"),
        "{e}"
    );
    assert!(!e.contains("secret") && !e.contains("user:"), "{e}");
}

/// SPEC §7: what a server sends back is scrubbed of the API key and of every
/// fragment of it of 6 or more characters, and of the base URL's credentials,
/// before clam shows, logs or writes it.
#[test]
fn the_cli_never_shows_or_writes_the_key_its_fragments_or_url_credentials() {
    // Rejects every request, echoing the key whole, its first 11 and last 8
    // characters, a piece of its middle, the Authorization header and the userinfo.
    let server = Server::start(|req, _| {
        let auth = req.auth.clone().unwrap_or_default();
        let echo = format!(
            "invalid key {KEY} ({}…, …{}, {}) sent as {auth} by user:secret",
            &KEY[..11],
            &KEY[KEY.len() - 8..],
            &KEY[10..20]
        );
        Reply::Raw(401, vec![], json!({ "error": echo }).to_string())
    });
    let env = common::Env::new();
    fake_model_config(
        &env,
        &format!("http://user:secret@127.0.0.1:{}/v1", server.port),
        WITH_KEY,
    );
    let out = env.path("export");
    let o = clam_llm(
        &env,
        "run",
        &sample(),
        &["--out", &out.display().to_string(), "--allow-fallback"],
    );
    let (stdout, stderr) = (
        String::from_utf8_lossy(&o.stdout).to_string(),
        String::from_utf8_lossy(&o.stderr).to_string(),
    );
    assert_eq!(o.status.code(), Some(0), "{stderr}");
    assert_eq!(server.count(), 25, "a 401 is not retried");
    assert!(server.requests().iter().all(|r| r.auth.is_some()));
    let manifest = std::fs::read_to_string(out.join("manifest.json")).unwrap();
    let v: Value = serde_json::from_str(&manifest).unwrap();
    assert_eq!(v["llm"]["fallbacks"], 25);
    assert_eq!(
        v["llm"]["endpoint"],
        format!("{}/chat/completions", server.base_url())
    );
    // The server's text did reach the manifest and the terminal, scrubbed.
    assert!(manifest.contains("<redacted>"), "{manifest}");
    assert!(stderr.contains("<redacted>"), "{stderr}");

    let mut needles: Vec<String> = vec![
        KEY.into(),
        KEY[..11].into(),
        KEY[KEY.len() - 8..].into(),
        KEY[10..20].into(),
        "secret".into(),
        "user:".into(),
        // base64("user:secret"), the basic-authentication header
        "dXNlcjpzZWNyZXQ".into(),
    ];
    // Every 6-character fragment of the key (those of hex digits only could occur
    // by chance in the random hashes of the export; the 8-character ones above
    // stand for them).
    let chars: Vec<char> = KEY.chars().collect();
    needles.extend(
        chars
            .windows(6)
            .filter(|w| w.iter().any(|c| !c.is_ascii_hexdigit()))
            .map(|w| w.iter().collect::<String>()),
    );
    let mut texts = vec![
        ("stdout".to_string(), stdout),
        ("stderr".to_string(), stderr),
    ];
    let config_dir = env.path("config");
    for p in files_under(env.home.path()) {
        // The user's own config holds the URL as written.
        if p.starts_with(&config_dir) {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap()).to_string();
        texts.push((p.display().to_string(), text));
    }
    assert!(
        texts.iter().any(|(n, _)| n.ends_with("clam.log")),
        "the log is scanned too"
    );
    for (name, text) in &texts {
        for needle in &needles {
            assert!(!text.contains(needle.as_str()), "{needle:?} in {name}");
        }
    }
}
