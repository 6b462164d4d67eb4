//! Tests of corpus loading: formats, folders, limits and the diagnostics of bad input.
use super::*;
use std::fs;
use tempfile::TempDir;

fn tmp() -> TempDir {
    tempfile::tempdir().expect("temp dir")
}

fn write(dir: &Path, rel: &str, bytes: impl AsRef<[u8]>) {
    let path = dir.join(rel);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).expect("mkdir");
    }
    fs::write(path, bytes).expect("write");
}

fn doc_json(id: &str, content: &str) -> String {
    serde_json::json!({"id": id, "content": content, "metadata": {"k": "v"}}).to_string()
}

fn load_ok(path: &Path, opts: &LoadOptions) -> Corpus {
    load(path, opts).expect("corpus loads")
}

fn load_default(path: &Path) -> Corpus {
    load_ok(path, &LoadOptions::default())
}

fn ids(c: &Corpus) -> Vec<&str> {
    c.documents.iter().map(|d| d.id.as_str()).collect()
}

/// `c` holds the documents `expected`, in that order, and no diagnostics.
fn assert_clean(c: &Corpus, expected: &[&str]) {
    assert_eq!(ids(c), expected);
    assert!(c.diagnostics.is_empty());
}

fn only_diag(c: &Corpus) -> &Diagnostic {
    assert_eq!(c.diagnostics.len(), 1, "diagnostics: {:?}", c.diagnostics);
    &c.diagnostics[0]
}

/// `c`'s only diagnostic is about `file` and says `part`.
fn assert_only_diag<'c>(c: &'c Corpus, file: &str, part: &str) -> &'c Diagnostic {
    let diag = only_diag(c);
    assert_eq!(diag.file, file);
    assert!(diag.message.contains(part), "{}", diag.message);
    diag
}

fn rec() -> LoadOptions {
    LoadOptions {
        recursive: true,
        ..LoadOptions::default()
    }
}

#[test]
fn json_folder_loads_documents_with_keys_and_raw() {
    let d = tmp();
    write(
        d.path(),
        "a.json",
        r#"{"id":"a","content":"Hello","metadata":{"format":"x"},"extra":1}"#,
    );
    let c = load_default(d.path());
    assert_eq!(c.format, Some(Format::Json));
    assert!(c.diagnostics.is_empty());
    let doc = &c.documents[0];
    assert_eq!(doc.id, "a");
    assert_eq!(doc.content, "Hello");
    assert_eq!(doc.key, doc_key("a", "Hello"));
    assert_eq!(doc.metadata.get("format"), Some(Value::from("x")));
    assert_eq!(doc.source.rel_path, "a.json");
    assert_eq!(doc.source.line, None);
    let raw = doc.raw.as_ref().expect("raw kept");
    assert_eq!(raw.get("extra"), Some(&Value::from(1)));
    // The content and metadata are held once, in the document; `raw` keeps places.
    assert_eq!(raw.get("content"), Some(&Value::Null));
    assert_eq!(
        raw.get("metadata"),
        Some(&Value::Object(Default::default()))
    );
    assert_eq!(c.root, d.path());
}

#[test]
fn missing_metadata_is_an_empty_object() {
    let d = tmp();
    write(d.path(), "a.json", r#"{"id":"a","content":"x"}"#);
    let c = load_default(d.path());
    assert!(c.documents[0].metadata.is_empty());
}

#[test]
fn nonexistent_path_is_not_found() {
    let d = tmp();
    let err =
        load(&d.path().join("nope"), &LoadOptions::default()).expect_err("missing path fails");
    assert!(matches!(err, CorpusError::NotFound { .. }));
    assert!(err.to_string().contains("nope"));
}

#[test]
fn empty_folder_gives_a_diagnostic_naming_the_folder() {
    let d = tmp();
    write(d.path(), "notes.csv", "x");
    let c = load_default(d.path());
    assert!(c.documents.is_empty());
    assert_eq!(c.format, None);
    assert_only_diag(
        &c,
        &d.path().display().to_string(),
        "no .json, .jsonl, .txt or .md files",
    );
}

#[test]
fn empty_folder_hints_at_recursive_when_it_has_subfolders() {
    let d = tmp();
    write(d.path(), "sub/a.json", doc_json("a", "x"));
    let c = load_default(d.path());
    assert!(c.documents.is_empty());
    assert!(only_diag(&c).message.contains("--recursive"));
    let c = load_ok(d.path(), &rec());
    assert_eq!(ids(&c), ["a"]);
}

#[test]
fn malformed_json_is_skipped_with_position_and_the_rest_loads() {
    let d = tmp();
    write(d.path(), "a.json", "{not json");
    write(d.path(), "b.json", doc_json("b", "fine"));
    let c = load_default(d.path());
    assert_eq!(ids(&c), ["b"]);
    let diag = only_diag(&c);
    assert_eq!(diag.file, "a.json");
    assert!(
        diag.message.starts_with("not valid JSON: "),
        "{}",
        diag.message
    );
    assert!(diag.message.contains("line 1 column 2"), "{}", diag.message);
    assert!(diag.message.ends_with("; skipped"));
    assert!(diag.to_string().starts_with("a.json: not valid JSON"));
}

#[test]
fn empty_json_file_is_not_valid_json() {
    let d = tmp();
    write(d.path(), "a.json", "");
    write(d.path(), "b.json", doc_json("b", "fine"));
    let c = load_default(d.path());
    assert_eq!(ids(&c), ["b"]);
    assert!(only_diag(&c).message.contains("not valid JSON"));
}

#[test]
fn field_problems_are_each_reported() {
    let cases = [
        (r#"[1,2]"#, "found an array"),
        (r#""text""#, "found a string"),
        (r#"{"content":"x"}"#, "\"id\" field is missing"),
        (r#"{"id":"","content":"x"}"#, "\"id\" field is empty"),
        (r#"{"id":"  ","content":"x"}"#, "\"id\" field is empty"),
        (r#"{"id":7,"content":"x"}"#, "\"id\" field must be a string"),
        (r#"{"id":"a"}"#, "\"content\" field is missing"),
        (r#"{"id":"a","content":""}"#, "\"content\" field is empty"),
        (
            r#"{"id":"a","content":["x"]}"#,
            "\"content\" field must be a string",
        ),
        (
            r#"{"id":"a","content":"x","metadata":[]}"#,
            "\"metadata\" field must be an object",
        ),
    ];
    for (bad, expected) in cases {
        let d = tmp();
        write(d.path(), "bad.json", bad);
        write(d.path(), "good.json", doc_json("good", "fine"));
        let c = load_default(d.path());
        assert_eq!(ids(&c), ["good"], "{bad}");
        let diag = only_diag(&c);
        assert_eq!(diag.file, "bad.json");
        assert!(diag.message.contains(expected), "{bad}: {}", diag.message);
        assert!(diag.message.ends_with("; skipped"));
    }
}

#[test]
fn null_metadata_counts_as_absent() {
    let d = tmp();
    write(
        d.path(),
        "a.json",
        r#"{"id":"a","content":"x","metadata":null}"#,
    );
    let c = load_default(d.path());
    assert_clean(&c, &["a"]);
}

#[test]
fn duplicate_id_keeps_the_first_in_corpus_order() {
    let d = tmp();
    write(d.path(), "b.json", doc_json("x", "second"));
    write(d.path(), "a.json", doc_json("x", "first"));
    let c = load_default(d.path());
    assert_eq!(c.documents.len(), 1);
    assert_eq!(c.documents[0].content, "first");
    let diag = only_diag(&c);
    assert_eq!(diag.file, "b.json");
    assert_eq!(
        diag.message,
        "duplicate id \"x\": already loaded from a.json; skipped"
    );
}

#[test]
fn non_utf8_file_is_skipped_with_offset() {
    let d = tmp();
    write(d.path(), "a.json", b"{\"id\":\"a\",\"content\":\"\xff\"}");
    write(d.path(), "b.json", doc_json("b", "fine"));
    let c = load_default(d.path());
    assert_eq!(ids(&c), ["b"]);
    assert_only_diag(&c, "a.json", "is not valid UTF-8 text (byte offset 21)");
}

#[test]
fn oversized_file_is_skipped_naming_size_and_limit() {
    let d = tmp();
    let big = doc_json("big", &"x".repeat(200));
    write(d.path(), "big.json", &big);
    write(d.path(), "small.json", doc_json("s", "y"));
    let opts = LoadOptions {
        max_document_bytes: 100,
        ..LoadOptions::default()
    };
    let c = load_ok(d.path(), &opts);
    assert_eq!(ids(&c), ["s"]);
    let diag = assert_only_diag(&c, "big.json", &format!("{} bytes", big.len()));
    assert!(
        diag.message.contains("limit of 100 bytes"),
        "{}",
        diag.message
    );
}

#[test]
fn file_exactly_at_the_limit_loads() {
    let d = tmp();
    let body = doc_json("a", "y");
    write(d.path(), "a.json", &body);
    let opts = LoadOptions {
        max_document_bytes: body.len() as u64,
        ..LoadOptions::default()
    };
    assert_eq!(ids(&load_ok(d.path(), &opts)), ["a"]);
}

#[test]
fn bom_is_ignored_in_json_text_and_jsonl() {
    let d = tmp();
    write(
        d.path(),
        "a.json",
        format!("\u{feff}{}", doc_json("a", "x")),
    );
    let c = load_default(d.path());
    assert_clean(&c, &["a"]);

    let t = tmp();
    write(t.path(), "n.txt", "\u{feff}hello");
    let c = load_default(t.path());
    assert_eq!(c.documents[0].content, "hello");

    let j = tmp();
    let path = j.path().join("c.jsonl");
    write(
        j.path(),
        "c.jsonl",
        format!("\u{feff}{}\n", doc_json("a", "x")),
    );
    let c = load_default(&path);
    assert_clean(&c, &["a"]);
}

#[test]
fn ordering_is_bytewise_on_relative_paths() {
    let d = tmp();
    for rel in [
        "b.json", "a.json", "B.json", "a/z.json", "a-b.json", "é.json",
    ] {
        let id = rel.trim_end_matches(".json").replace('/', "_");
        write(d.path(), rel, doc_json(&format!("id_{id}"), "c"));
    }
    let c = load_ok(d.path(), &rec());
    let rels: Vec<&str> = c
        .documents
        .iter()
        .map(|d| d.source.rel_path.as_str())
        .collect();
    assert_eq!(
        rels,
        [
            "B.json", "a-b.json", "a.json", "a/z.json", "b.json", "é.json"
        ]
    );
    // Non-recursive: the subfolder is not read.
    let c = load_default(d.path());
    assert_eq!(c.documents.len(), 5);
    assert!(c.diagnostics.is_empty());
}

#[test]
fn hidden_files_and_folders_are_ignored() {
    let d = tmp();
    write(d.path(), ".hidden.json", doc_json("h", "x"));
    write(d.path(), ".git/x.json", doc_json("g", "x"));
    write(d.path(), "sub/.y.json", doc_json("y", "x"));
    write(d.path(), "sub/ok.json", doc_json("ok", "x"));
    let c = load_ok(d.path(), &rec());
    assert_eq!(ids(&c), ["ok"]);
}

/// The `not_read` notes as "file: message" lines.
fn not_read(c: &Corpus) -> Vec<String> {
    c.not_read.iter().map(ToString::to_string).collect()
}

#[test]
fn a_folder_reads_every_format_and_names_what_it_does_not() {
    let d = tmp();
    write(d.path(), "a.json", doc_json("a", "x"));
    write(
        d.path(),
        "b.jsonl",
        format!("{}\n{}\n", doc_json("b1", "x"), doc_json("b2", "y")),
    );
    write(d.path(), "c.txt", "text c");
    write(d.path(), "d.MD", "text d");
    write(d.path(), "README.md", "# readme");
    write(d.path(), "gold.json", r#"{"clusters": []}"#);
    write(d.path(), "links.json", r#"{"links": [], "entities": {}}"#);
    write(
        d.path(),
        "mentions.jsonl",
        r#"{"doc": "a", "start": 0, "end": 1, "type": "NAME"}"#,
    );
    write(d.path(), "clam.toml", "");
    write(d.path(), "data.csv", "x,y");
    write(d.path(), ".hidden.json", doc_json("h", "x"));
    write(d.path(), "gold/gold.json", r#"{"links":[]}"#);
    let c = load_default(d.path());
    assert_clean(&c, &["a", "b1", "b2", "c", "d"]);
    // Each document remembers its file's format; together they have none.
    let formats: Vec<Format> = c.documents.iter().map(|d| d.source.format).collect();
    use Format::{Json, Jsonl, Text};
    assert_eq!(formats, [Json, Jsonl, Jsonl, Text, Text]);
    assert_eq!(c.format, None);
    assert_eq!(
        not_read(&c),
        [
            ".hidden.json: a hidden file; not read",
            "README.md: the folder's README, not a document (--format text reads it); not read",
            "clam.toml: the corpus's configuration, not a document; not read",
            "data.csv: a .csv file, not a corpus format (.json, .jsonl, .txt, .md); not read",
            "gold.json: a gold file (devset format), not a document; not read",
            "gold/: a subfolder (read only with --recursive); not read",
            "links.json: a gold file (thesis format), not a document; not read",
            "mentions.jsonl: a gold mentions file ({\"doc\", \"start\", \"end\"} per line), not a document; not read",
        ]
    );
}

#[test]
fn a_gold_file_given_as_the_corpus_is_an_error_not_a_broken_document() {
    let d = tmp();
    write(d.path(), "gold.json", r#"{"clusters": []}"#);
    let c = load_default(&d.path().join("gold.json"));
    assert!(c.documents.is_empty() && c.not_read.is_empty());
    assert_only_diag(
        &c,
        "gold.json",
        "a gold file (devset format), not a document",
    );
}

#[test]
fn jsonl_from_a_reader_names_stdin_with_line_numbers() {
    let input = format!(
        "{}\n{{\"id\": \"b\"}}\n{}\n",
        doc_json("a", "x"),
        doc_json("a", "y")
    );
    let c = load_reader(
        &mut input.as_bytes(),
        &LoadOptions::default(),
        &crate::progress::Silent,
    )
    .expect("loads");
    assert!(c.is_stdin());
    assert_eq!((c.format, ids(&c)), (Some(Format::Jsonl), vec!["a"]));
    assert_eq!(c.documents[0].source.rel_path, "stdin.jsonl");
    let diags: Vec<String> = c.diagnostics.iter().map(ToString::to_string).collect();
    assert_eq!(
        diags,
        [
            "<stdin>:2: the \"content\" field is missing; skipped",
            "<stdin>:3: duplicate id \"a\": already loaded from <stdin>:1; skipped",
        ]
    );
    let text = LoadOptions {
        format: Some(Format::Text),
        ..LoadOptions::default()
    };
    let err =
        load_reader(&mut "x".as_bytes(), &text, &crate::progress::Silent).expect_err("only JSONL");
    assert!(err.to_string().contains("--format text"), "{err}");
}

#[test]
fn uppercase_json_extension_is_detected() {
    let d = tmp();
    write(d.path(), "A.JSON", doc_json("a", "x"));
    let c = load_default(d.path());
    assert_eq!(c.format, Some(Format::Json));
    assert_eq!(ids(&c), ["a"]);
}

#[test]
fn text_folder_uses_stem_and_path_metadata() {
    let d = tmp();
    write(d.path(), "note.txt", "Alice met Bob.");
    write(d.path(), "Memo.MD", "# Memo\nBody");
    write(d.path(), "empty.txt", "");
    write(d.path(), "data.csv", "x");
    let c = load_default(d.path());
    assert_eq!(c.format, Some(Format::Text));
    assert_eq!(ids(&c), ["Memo", "note"]);
    let memo = &c.documents[0];
    assert_eq!(memo.content, "# Memo\nBody");
    assert_eq!(memo.metadata.get("path"), Some(Value::from("Memo.MD")));
    assert_eq!(memo.raw, None);
    assert_eq!(memo.key, doc_key("Memo", "# Memo\nBody"));
    assert_only_diag(&c, "empty.txt", "empty");
}

#[test]
fn text_duplicate_stems_are_reported() {
    let d = tmp();
    write(d.path(), "a.md", "one");
    write(d.path(), "a.txt", "two");
    let c = load_default(d.path());
    assert_eq!(ids(&c), ["a"]);
    assert_eq!(c.documents[0].content, "one");
    assert_eq!(
        only_diag(&c).message,
        "duplicate id \"a\": already loaded from a.md; skipped"
    );
}

#[test]
fn non_utf8_text_file_is_skipped() {
    let d = tmp();
    write(d.path(), "bad.txt", b"ab\xc3(");
    write(d.path(), "ok.txt", "fine");
    let c = load_default(d.path());
    assert_eq!(ids(&c), ["ok"]);
    assert_only_diag(&c, "bad.txt", "byte offset 2");
}

#[test]
fn jsonl_file_reports_line_numbers() {
    let d = tmp();
    let body = format!(
        "{}\n\n{{broken\n{}\r\n   \n{}\n[1]\n{}",
        doc_json("a", "one"),
        doc_json("b", "two"),
        doc_json("a", "dup"),
        doc_json("c", "three"),
    );
    write(d.path(), "docs.jsonl", body);
    let c = load_default(&d.path().join("docs.jsonl"));
    assert_eq!(c.format, Some(Format::Jsonl));
    assert_eq!(ids(&c), ["a", "b", "c"]);
    let lines: Vec<Option<usize>> = c.documents.iter().map(|d| d.source.line).collect();
    assert_eq!(lines, [Some(1), Some(4), Some(8)]);
    assert!(
        c.documents
            .iter()
            .all(|d| d.source.rel_path == "docs.jsonl")
    );
    assert_eq!(c.diagnostics.len(), 3, "{:?}", c.diagnostics);
    let d3 = &c.diagnostics[0];
    assert_eq!((d3.file.as_str(), d3.line), ("docs.jsonl", Some(3)));
    assert!(d3.message.starts_with("not valid JSON:"));
    assert!(d3.message.contains("column"));
    assert!(!d3.message.contains("line 1"), "{}", d3.message);
    let d6 = &c.diagnostics[1];
    assert_eq!(d6.line, Some(6));
    assert_eq!(
        d6.message,
        "duplicate id \"a\": already loaded from docs.jsonl:1; skipped"
    );
    assert_eq!(c.diagnostics[2].line, Some(7));
    assert!(d6.to_string().starts_with("docs.jsonl:6: duplicate id"));
}

#[test]
fn jsonl_oversized_and_non_utf8_lines_are_skipped() {
    let d = tmp();
    let mut body = Vec::new();
    body.extend_from_slice(doc_json("a", "x").as_bytes());
    body.push(b'\n');
    body.extend_from_slice(doc_json("big", &"y".repeat(500)).as_bytes());
    body.push(b'\n');
    body.extend_from_slice(b"{\"id\":\"u\",\"content\":\"\xfe\"}\n");
    body.extend_from_slice(doc_json("b", "z").as_bytes());
    write(d.path(), "c.jsonl", body);
    let opts = LoadOptions {
        max_document_bytes: 100,
        ..LoadOptions::default()
    };
    let c = load_ok(&d.path().join("c.jsonl"), &opts);
    assert_eq!(ids(&c), ["a", "b"]);
    assert_eq!(c.diagnostics.len(), 2);
    assert_eq!(c.diagnostics[0].line, Some(2));
    assert!(c.diagnostics[0].message.contains("limit of 100 bytes"));
    assert_eq!(c.diagnostics[1].line, Some(3));
    assert!(c.diagnostics[1].message.contains("not valid UTF-8"));
}

#[test]
fn folder_with_one_jsonl_file_loads_it() {
    let d = tmp();
    write(d.path(), "corpus.JSONL", doc_json("a", "x"));
    let c = load_default(d.path());
    assert_eq!(c.format, Some(Format::Jsonl));
    assert_eq!(ids(&c), ["a"]);
    assert_eq!(c.documents[0].source.rel_path, "corpus.JSONL");
    assert_eq!(c.documents[0].source.line, Some(1));
}

#[test]
fn empty_jsonl_file_is_reported() {
    let d = tmp();
    write(d.path(), "c.jsonl", "\n\n");
    let c = load_default(&d.path().join("c.jsonl"));
    assert!(c.documents.is_empty());
    assert_eq!(only_diag(&c).file, "c.jsonl");
}

#[test]
fn single_files_of_each_kind() {
    let d = tmp();
    write(d.path(), "one.json", doc_json("one", "x"));
    write(d.path(), "page.MD", "text");
    write(d.path(), "data.csv", doc_json("csv", "x"));
    let c = load_default(&d.path().join("one.json"));
    assert_eq!((c.format, ids(&c)), (Some(Format::Json), vec!["one"]));
    let c = load_default(&d.path().join("page.MD"));
    assert_eq!((c.format, ids(&c)), (Some(Format::Text), vec!["page"]));
    let err =
        load(&d.path().join("data.csv"), &LoadOptions::default()).expect_err("unknown extension");
    assert!(matches!(err, CorpusError::UnknownFormat { .. }));
    let forced = LoadOptions {
        format: Some(Format::Json),
        ..LoadOptions::default()
    };
    let c = load_ok(&d.path().join("data.csv"), &forced);
    assert_eq!(ids(&c), ["csv"]);
}

#[test]
fn single_json_array_file_suggests_jsonl() {
    let d = tmp();
    write(d.path(), "all.json", format!("[{}]", doc_json("a", "x")));
    let c = load_default(&d.path().join("all.json"));
    assert!(c.documents.is_empty());
    assert_only_diag(&c, "all.json", ".jsonl");
}

#[test]
fn forced_format_picks_matching_files_in_a_folder() {
    let d = tmp();
    write(d.path(), "a.json", doc_json("a", "x"));
    write(d.path(), "b.txt", "text");
    let opts = LoadOptions {
        format: Some(Format::Text),
        ..LoadOptions::default()
    };
    let c = load_ok(d.path(), &opts);
    assert_eq!(c.format, Some(Format::Text));
    assert_eq!(ids(&c), ["b"]);
    assert_eq!(
        not_read(&c),
        ["a.json: not a text file (--format text reads only .txt or .md files); not read"]
    );
    let opts = LoadOptions {
        format: Some(Format::Jsonl),
        ..LoadOptions::default()
    };
    let c = load_ok(d.path(), &opts);
    assert!(c.documents.is_empty());
    assert!(only_diag(&c).message.contains("no .jsonl files"));
}

#[test]
fn nothing_is_written_into_the_input_folder() {
    let d = tmp();
    write(d.path(), "a.json", doc_json("a", "x"));
    write(d.path(), "b.json", "{bad");
    let before: Vec<_> = fs::read_dir(d.path())
        .expect("read")
        .map(|e| e.expect("entry").file_name())
        .collect();
    let _ = load_ok(d.path(), &rec());
    let after: Vec<_> = fs::read_dir(d.path())
        .expect("read")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(before.len(), after.len());
}

#[cfg(unix)]
#[test]
fn symlink_cycles_do_not_loop() {
    let d = tmp();
    write(d.path(), "sub/a.json", doc_json("a", "x"));
    std::os::unix::fs::symlink(d.path(), d.path().join("sub/loop")).expect("symlink");
    let c = load_ok(d.path(), &rec());
    assert_eq!(ids(&c), ["a"]);
}

#[test]
fn read_line_capped_handles_long_lines_and_crlf() {
    let input = b"short\r\nthis line is long\nlast";
    let mut reader = BufReader::with_capacity(4, &input[..]);
    let mut buf = Vec::new();
    assert_eq!(
        read_line_capped(&mut reader, 5, &mut buf).ok(),
        Some(Some(5))
    );
    assert_eq!(buf, b"short");
    assert_eq!(
        read_line_capped(&mut reader, 5, &mut buf).ok(),
        Some(Some(17))
    );
    assert!(buf.len() <= 7);
    assert_eq!(
        read_line_capped(&mut reader, 5, &mut buf).ok(),
        Some(Some(4))
    );
    assert_eq!(buf, b"last");
    assert_eq!(read_line_capped(&mut reader, 5, &mut buf).ok(), Some(None));
}

proptest::proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..200)) {
        let d = tmp();
        write(d.path(), "x.json", &bytes);
        write(d.path(), "y.jsonl", &bytes);
        write(d.path(), "z.txt", &bytes);
        let _ = load(&d.path().join("x.json"), &LoadOptions::default());
        let _ = load(&d.path().join("y.jsonl"), &LoadOptions::default());
        let _ = load(d.path(), &LoadOptions { max_document_bytes: 50, ..LoadOptions::default() });
    }
}

mod parallel;
