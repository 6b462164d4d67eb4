//! Progress bars: drawn on a terminal (with a rate and an ETA), never when stderr is a
//! pipe or a file, and silenced by `--quiet`, which every command accepts.

use super::*;

fn s(p: &Path) -> &str {
    p.to_str().expect("utf8")
}

/// What a bar leaves on stderr: carriage returns, cursor escapes, the rate and ETA.
fn has_progress(err: &str) -> bool {
    err.contains('\r') || err.contains('\u{1b}') || err.contains("ETA") || err.contains("docs ·")
}

/// A generated corpus of `docs` documents in `env`.
fn generated(env: &Env, docs: usize) -> PathBuf {
    let dir = env.path("gen");
    let o = env.clam(&["gen-corpus", "--docs", &docs.to_string(), "--out", s(&dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    dir
}

/// Every headless command that can run long, on a generated corpus, with stderr a
/// pipe (as in a script or CI): results and warnings, no progress.
#[test]
fn nothing_is_drawn_when_stderr_is_not_a_terminal() {
    let env = Env::new();
    let gen_dir = generated(&env, 400);
    let corpus = gen_dir.join("corpus.jsonl");
    let gold = gen_dir.join("gold.json");
    let snapshot = env.path("snap.json");
    let shard = env.path("part.jsonl");
    let runs: Vec<Vec<String>> = vec![
        vec![
            "extract".into(),
            s(&corpus).into(),
            "--out".into(),
            s(&snapshot).into(),
        ],
        vec![
            "extract".into(),
            s(&corpus).into(),
            "--shard".into(),
            "1/1".into(),
            "--out".into(),
            s(&shard).into(),
        ],
        vec!["plan".into(), s(&snapshot).into()],
        vec![
            "plan".into(),
            "--corpus".into(),
            s(&corpus).into(),
            s(&shard).into(),
        ],
        vec!["analyze".into(), s(&corpus).into()],
        vec![
            "sweep".into(),
            s(&corpus).into(),
            "--param".into(),
            "theta_chain".into(),
            "--from".into(),
            "0.3".into(),
            "--to".into(),
            "0.6".into(),
            "--step".into(),
            "0.1".into(),
        ],
        vec![
            "eval".into(),
            s(&corpus).into(),
            "--gold".into(),
            s(&gold).into(),
        ],
        vec![
            "run".into(),
            s(&corpus).into(),
            "--out".into(),
            s(&env.path("export")).into(),
        ],
        vec![
            "gen-corpus".into(),
            "--docs".into(),
            "50".into(),
            "--out".into(),
            s(&env.path("gen2")).into(),
        ],
    ];
    for args in &runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = env.clam(&args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert!(
            !has_progress(&err),
            "{args:?} drew progress on a pipe:\n{err:?}"
        );
    }
}

#[test]
fn every_command_accepts_quiet() {
    let env = Env::new();
    let gen_dir = generated(&env, 30);
    let corpus = gen_dir.join("corpus.jsonl");
    let snapshot = env.path("snap.json");
    let session = env.path("session.db");
    let ok = |args: &[&str]| {
        let o = env.clam(args);
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        o
    };
    ok(&["--quiet", "extract", s(&corpus), "--out", s(&snapshot)]);
    ok(&["plan", s(&snapshot), "--quiet"]);
    ok(&["analyze", s(&corpus), "-q"]);
    ok(&[
        "run",
        s(&corpus),
        "--out",
        s(&env.path("export")),
        "--session",
        s(&session),
        "--quiet",
    ]);
    ok(&[
        "eval",
        s(&corpus),
        "--gold",
        s(&gen_dir.join("gold.json")),
        "--quiet",
    ]);
    ok(&[
        "sweep",
        s(&corpus),
        "--param",
        "theta_doc",
        "--from",
        "0.8",
        "--to",
        "0.9",
        "--step",
        "0.1",
        "--quiet",
    ]);
    ok(&[
        "gen-corpus",
        "--docs",
        "5",
        "--out",
        s(&env.path("g5")),
        "--quiet",
    ]);
    ok(&["cache", "clear", "--quiet"]);
    ok(&[
        "session",
        "export",
        s(&corpus),
        s(&env.path("copy.db")),
        "--session",
        s(&session),
        "--quiet",
    ]);
    ok(&[
        "gold",
        "export",
        s(&corpus),
        s(&env.path("gold-out.json")),
        "--session",
        s(&session),
        "--quiet",
    ]);
    // The terminal workspace needs a terminal: its command line is parsed, no more.
    ok(&["review", s(&corpus), "--quiet", "--help"]);
    // Warnings still print under --quiet.
    let dir = env.path("with-bad");
    std::fs::create_dir_all(&dir).expect("mkdir");
    write(&dir, "a.json", GOOD.as_bytes());
    write(&dir, "b.json", b"{not json");
    let o = env.clam(&[
        "extract",
        s(&dir),
        "--out",
        s(&env.path("bad.json")),
        "--quiet",
    ]);
    assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    assert!(stderr(&o).contains("warning: b.json"), "{}", stderr(&o));
}

/// Under a terminal (`script` gives clam one), extraction and the export draw bars
/// with a rate and an ETA; `--quiet` draws none and still prints the result.
#[test]
fn bars_are_drawn_on_a_terminal_unless_quiet() {
    if std::process::Command::new("script")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("skipped: util-linux `script` is not installed");
        return;
    }
    let env = Env::new();
    let corpus = generated(&env, 400).join("corpus.jsonl");
    let on_terminal = |extra: &[&str], out: &Path| {
        let mut line = format!(
            "'{}' run '{}' --out '{}'",
            env!("CARGO_BIN_EXE_clam"),
            s(&corpus),
            s(out)
        );
        for e in extra {
            line.push_str(&format!(" {e}"));
        }
        let o = env
            .command("script")
            .args(["-qec", &line, "/dev/null"])
            .output()
            .expect("script");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout));
        String::from_utf8_lossy(&o.stdout).to_string()
    };
    let shown = on_terminal(&[], &env.path("x1"));
    for what in [
        "extracting",
        "docs ·",
        "/s",
        "ETA",
        "scanning",
        "exported 400 documents",
    ] {
        assert!(shown.contains(what), "{what:?} missing from\n{shown:?}");
    }
    let quiet = on_terminal(&["--quiet"], &env.path("x2"));
    assert!(quiet.contains("exported 400 documents"), "{quiet:?}");
    assert!(
        !quiet.contains("ETA") && !quiet.contains("extracting"),
        "{quiet:?}"
    );
}
