//! Input formats as a script would use them (issue 20): a folder loads every file of a
//! corpus format by its extension and names each file it does not read; `-` reads a
//! JSONL corpus from stdin.

use super::*;

/// Runs `clam args…` with `input` on its standard input.
fn clam_stdin(env: &Env, args: &[&str], input: &[u8]) -> Output {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = env
        .command(env!("CARGO_BIN_EXE_clam"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn clam");
    let mut stdin = child.stdin.take().expect("stdin");
    // clam may refuse before reading; a closed pipe is then not an error here.
    let _ = stdin.write_all(input);
    drop(stdin);
    child.wait_with_output().expect("clam output")
}

/// `clam gen-corpus --docs N --out DIR`: a folder holding corpus.jsonl and gold.json.
fn gen_corpus(env: &Env, docs: usize) -> PathBuf {
    let dir = env.path("gen");
    let o = env.clam(&[
        "gen-corpus",
        "--docs",
        &docs.to_string(),
        "--out",
        dir.to_str().expect("utf8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    dir
}

#[test]
fn the_folder_gen_corpus_writes_loads_and_its_gold_file_is_named_as_such() {
    let env = Env::new();
    let dir = gen_corpus(&env, 12);
    let o = env.clam(&["analyze", dir.to_str().expect("utf8"), "--json"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains("note: gold.json: a gold file (devset format), not a document; not read"),
        "{err}"
    );
    assert!(!err.contains("warning"), "{err}");
    let v: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(v["documents"].as_array().map(Vec::len), Some(12));
    assert_eq!(v["skipped"], serde_json::json!([]));
    assert_eq!(
        v["not_read"],
        serde_json::json!([{"file": "gold.json", "reason": "a gold file (devset format), not a document; not read"}])
    );
}

#[test]
fn a_mixed_folder_loads_every_format_and_exports_each_file_in_its_own() {
    let env = Env::new();
    let corpus = corpus_with(
        &env,
        &[
            (
                "a.json",
                br#"{"id": "a", "content": "Claim for Maria Keller, phone 555-010-4417."}"#,
            ),
            (
                "b.jsonl",
                b"{\"id\": \"b1\", \"content\": \"Maria Keller called again.\"}\n{\"id\": \"b2\", \"content\": \"Member ID MBR-448213 renewed.\"}\n",
            ),
            ("c.txt", b"Letter to Maria Keller about MBR-448213."),
            ("d.md", b"# Notes\n\nMaria Keller, 555-010-4417."),
            ("data.csv", b"name,phone\nMaria Keller,555-010-4417\n"),
            (".hidden.txt", b"Maria Keller"),
        ],
    );
    let out = env.path("out");
    let o = run_to(&env, &corpus, &out, &[]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("exported 5 documents"), "{err}");
    for named in [
        "note: data.csv: a .csv file, not a corpus format",
        "note: .hidden.txt: a hidden file; not read",
    ] {
        assert!(err.contains(named), "{named:?} not in {err}");
    }
    let redacted = out.join("redacted");
    let mut files: Vec<String> = std::fs::read_dir(&redacted)
        .expect("redacted")
        .map(|e| e.expect("entry").file_name().to_string_lossy().to_string())
        .collect();
    files.sort();
    assert_eq!(files, ["a.json", "b.jsonl", "c.txt", "d.md"]);
    // Each file keeps its format: JSON, one object per line, plain text.
    let a: Value =
        serde_json::from_str(&std::fs::read_to_string(redacted.join("a.json")).expect("a"))
            .expect("a.json is JSON");
    assert_eq!(a["id"], "a");
    let b = std::fs::read_to_string(redacted.join("b.jsonl")).expect("b");
    assert_eq!(b.lines().count(), 2);
    for line in b.lines() {
        serde_json::from_str::<Value>(line).expect("a JSON line");
    }
    let c = std::fs::read_to_string(redacted.join("c.txt")).expect("c");
    assert!(c.starts_with("Letter to [NAME]"), "{c}");
    for (_, text) in read_all_files(&redacted) {
        assert!(!text.contains("Keller"), "{text}");
    }
    let report = std::fs::read_to_string(out.join("report.md")).expect("report");
    assert!(
        report.contains("data.csv"),
        "the report names the files not read"
    );

    // --format: only the files of that format, the others named.
    let out = env.path("out-text");
    let o = run_to(&env, &corpus, &out, &["--format", "text"]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("exported 2 documents"), "{err}");
    assert!(
        err.contains("note: a.json: not a text file (--format text reads only .txt or .md files)"),
        "{err}"
    );
}

/// Every JSON line keeps its fields, in their order, through the export: the plain
/// `{"id", "content", "metadata"}` object (which clam does not keep, but rebuilds)
/// as well as other orders, extra fields and a null or missing metadata.
#[test]
fn json_lines_keep_their_fields_in_their_order() {
    let env = Env::new();
    let lines = [
        r#"{"id":"p","content":"Maria Keller called.","metadata":{"format":"memo","n":1}}"#,
        r#"{"content":"Maria Keller wrote.","id":"q","metadata":{"format":"memo"}}"#,
        r#"{"id":"r","content":"Maria Keller paid.","metadata":{},"extra":[1,"two"]}"#,
        r#"{"id":"s","content":"Maria Keller left.","metadata":null}"#,
        r#"{"id":"t","content":"Maria Keller came."}"#,
    ];
    let corpus = corpus_with(&env, &[("c.jsonl", (lines.join("\n") + "\n").as_bytes())]);
    let out = env.path("out");
    let o = run_to(&env, &corpus, &out, &[]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let text = std::fs::read_to_string(out.join("redacted/c.jsonl")).expect("c.jsonl");
    let got: Vec<&str> = text.lines().collect();
    assert_eq!(
        got,
        [
            r#"{"id":"p","content":"[NAME] called.","metadata":{"format":"memo","n":1}}"#,
            r#"{"content":"[NAME] wrote.","id":"q","metadata":{"format":"memo"}}"#,
            r#"{"id":"r","content":"[NAME] paid.","metadata":{},"extra":[1,"two"]}"#,
            r#"{"id":"s","content":"[NAME] left.","metadata":null}"#,
            r#"{"id":"t","content":"[NAME] came."}"#,
        ]
    );
}

#[test]
fn a_dash_reads_a_jsonl_corpus_from_stdin() {
    let env = Env::new();
    let dir = gen_corpus(&env, 10);
    let jsonl = std::fs::read(dir.join("corpus.jsonl")).expect("corpus");
    let out = env.path("out");
    let o = clam_stdin(
        &env,
        &["run", "-", "--out", out.to_str().expect("utf8")],
        &jsonl,
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(err.contains("exported 10 documents"), "{err}");
    assert!(err.contains("leak check passed"), "{err}");
    let redacted = std::fs::read_to_string(out.join("redacted/stdin.jsonl")).expect("redacted");
    assert_eq!(redacted.lines().count(), 10);
    // The same documents from the file: the same plan.
    let from_file = env.clam(&[
        "analyze",
        dir.join("corpus.jsonl").to_str().expect("utf8"),
        "--json",
    ]);
    let from_stdin = clam_stdin(&env, &["analyze", "-", "--json"], &jsonl);
    let masks = |o: &Output| -> Value {
        let v: Value = serde_json::from_slice(&o.stdout).expect("json");
        v["masks"].clone()
    };
    assert_eq!(masks(&from_stdin), masks(&from_file));

    // Bad lines are named `<stdin>:LINE`, the good ones load, exit 4.
    let lines = format!("{GOOD}\n{{\"id\": \"x\"}}\nnot json\n");
    let o = clam_stdin(&env, &["analyze", "-"], lines.as_bytes());
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(4), "{err}");
    assert!(
        err.contains("warning: <stdin>:2: the \"content\" field is missing; skipped"),
        "{err}"
    );
    assert!(err.contains("warning: <stdin>:3: not valid JSON"), "{err}");

    // Nothing on stdin: nothing to load.
    let o = clam_stdin(&env, &["analyze", "-"], b"");
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("<stdin>: no documents could be loaded"));
}

#[test]
fn stdin_is_refused_where_it_cannot_work() {
    let env = Env::new();
    // The workspace reads its keys from the terminal.
    let o = clam_stdin(&env, &["review", "-"], GOOD.as_bytes());
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("cannot read the corpus from stdin"));
    // Standard input is JSONL.
    let o = clam_stdin(&env, &["analyze", "-", "--format", "text"], b"some text");
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--format text needs a file or folder"));
    // No session of its own.
    let file = env.path("s.sqlite");
    let o = clam_stdin(
        &env,
        &["session", "export", "-", file.to_str().expect("utf8")],
        b"",
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("pass --session FILE"));
}
