//! Reading a corpus from disk (SPEC §1): a folder of `.json` files, a `.jsonl` file,
//! or a folder of `.txt`/`.md` files. Bad files and lines are skipped with a
//! [`Diagnostic`]; only an unusable corpus path stops loading. Nothing is written.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::{
    Corpus, CorpusError, DEFAULT_MAX_DOCUMENT_BYTES, Diagnostic, Document, Format, Source, doc_key,
};

const BOM: &[u8] = b"\xEF\xBB\xBF";

/// How to read a corpus path.
#[derive(Debug, Clone)]
pub struct LoadOptions {
    /// `--format`; `None` detects the format from the file extensions.
    pub format: Option<Format>,
    /// `--recursive`: descend into subfolders (never into hidden ones).
    pub recursive: bool,
    /// Documents (files, or JSONL lines) larger than this are skipped.
    pub max_document_bytes: u64,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            format: None,
            recursive: false,
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
        }
    }
}

/// Loads the corpus at `path` (a folder or a single file).
///
/// `Corpus::root` is `path` as given. Document sources and diagnostics name files
/// relative to the folder; for a single-file corpus, by the file name.
pub fn load(path: &Path, opts: &LoadOptions) -> Result<Corpus, CorpusError> {
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            return Err(CorpusError::NotFound {
                path: path.to_path_buf(),
            });
        }
        Err(source) => {
            return Err(CorpusError::Io {
                path: path.to_path_buf(),
                source,
            });
        }
    };
    let mut loader = Loader::new(opts);
    let format = if meta.is_dir() {
        loader.load_folder(path)?
    } else if meta.is_file() {
        Some(loader.load_single_file(path)?)
    } else {
        return Err(CorpusError::Io {
            path: path.to_path_buf(),
            source: io::Error::other("not a regular file or folder"),
        });
    };
    Ok(Corpus {
        root: path.to_path_buf(),
        format,
        documents: loader.documents,
        diagnostics: loader.diagnostics,
    })
}

/// Lowercased extension of a file name, if it has one.
fn ext_lower(path: &Path) -> Option<String> {
    path.extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase)
}

fn format_of_ext(ext: &str) -> Option<Format> {
    match ext {
        "json" => Some(Format::Json),
        "jsonl" => Some(Format::Jsonl),
        "txt" | "md" => Some(Format::Text),
        _ => None,
    }
}

fn format_name(format: Format) -> &'static str {
    match format {
        Format::Json => "json",
        Format::Jsonl => "jsonl",
        Format::Text => "text",
    }
}

fn format_extensions(format: Format) -> &'static str {
    match format {
        Format::Json => ".json",
        Format::Jsonl => ".jsonl",
        Format::Text => ".txt or .md",
    }
}

/// "a number", "an array", ... for messages about wrongly typed fields.
fn kind_of(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// serde_json's message without its " at line L column C" suffix, plus the column
/// (JSONL lines are single lines, so the line number inside the value is noise).
fn json_error_on_line(e: &serde_json::Error) -> String {
    let full = e.to_string();
    let suffix = format!(" at line {} column {}", e.line(), e.column());
    match full.strip_suffix(&suffix) {
        Some(msg) => format!("{msg} at column {}", e.column()),
        None => full,
    }
}

fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(BOM).unwrap_or(bytes)
}

/// One file of a folder corpus.
struct Candidate {
    rel: String,
    abs: PathBuf,
    format: Option<Format>,
}

/// What a folder walk found.
#[derive(Default)]
struct Walk {
    files: Vec<Candidate>,
    diagnostics: Vec<Diagnostic>,
    /// Subfolders left unread because the walk is not recursive.
    skipped_subfolders: usize,
}

/// Accumulates documents and diagnostics and remembers ids already loaded.
struct Loader<'a> {
    opts: &'a LoadOptions,
    documents: Vec<Document>,
    diagnostics: Vec<Diagnostic>,
    /// id → where it was first loaded from ("file" or "file:line").
    seen: HashMap<String, String>,
}

impl<'a> Loader<'a> {
    fn new(opts: &'a LoadOptions) -> Self {
        Loader {
            opts,
            documents: Vec::new(),
            diagnostics: Vec::new(),
            seen: HashMap::new(),
        }
    }

    fn max_bytes(&self) -> u64 {
        self.opts.max_document_bytes
    }

    fn skip(&mut self, file: &str, line: Option<usize>, message: String) {
        self.diagnostics.push(Diagnostic {
            file: file.to_string(),
            line,
            message,
        });
    }

    fn load_single_file(&mut self, path: &Path) -> Result<Format, CorpusError> {
        let format = match self
            .opts
            .format
            .or_else(|| ext_lower(path).as_deref().and_then(format_of_ext))
        {
            Some(format) => format,
            None => {
                return Err(CorpusError::UnknownFormat {
                    path: path.to_path_buf(),
                });
            }
        };
        let rel = match path.file_name() {
            Some(name) => name.to_string_lossy().into_owned(),
            None => path.to_string_lossy().into_owned(),
        };
        self.load_file(path, &rel, format);
        Ok(format)
    }

    fn load_folder(&mut self, root: &Path) -> Result<Option<Format>, CorpusError> {
        let mut walk = Walk::default();
        let mut visited = HashSet::new();
        if let Ok(canonical) = fs::canonicalize(root) {
            visited.insert(canonical);
        }
        // The root itself must be readable; subfolders only produce diagnostics.
        let entries = fs::read_dir(root).map_err(|source| CorpusError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        self.walk_entries(entries, "", &mut walk, &mut visited);
        walk.files.sort_by(|a, b| a.rel.cmp(&b.rel));
        walk.diagnostics.sort_by(|a, b| a.file.cmp(&b.file));
        self.diagnostics.append(&mut walk.diagnostics);

        let has = |f: Format| walk.files.iter().any(|c| c.format == Some(f));
        let format = match self.opts.format {
            Some(format) => Some(format),
            None if has(Format::Json) => Some(Format::Json),
            None if has(Format::Text) => Some(Format::Text),
            None if has(Format::Jsonl) => Some(Format::Jsonl),
            None => None,
        };
        let folder = root.display().to_string();
        let hint = if walk.skipped_subfolders > 0 {
            " (subfolders are read only with --recursive)"
        } else {
            ""
        };
        let Some(format) = format else {
            self.skip(
                &folder,
                None,
                format!(
                    "the folder holds no .json, .jsonl, .txt or .md files; nothing to load{hint}"
                ),
            );
            return Ok(None);
        };
        let chosen: Vec<Candidate> = walk
            .files
            .into_iter()
            .filter(|c| c.format == Some(format))
            .collect();
        if chosen.is_empty() {
            self.skip(
                &folder,
                None,
                format!(
                    "the folder holds no {} files for format {}; nothing to load{hint}",
                    format_extensions(format),
                    format_name(format)
                ),
            );
        }
        for candidate in &chosen {
            self.load_file(&candidate.abs, &candidate.rel, format);
        }
        Ok(Some(format))
    }

    fn walk_entries(
        &mut self,
        entries: fs::ReadDir,
        prefix: &str,
        walk: &mut Walk,
        visited: &mut HashSet<PathBuf>,
    ) {
        for entry in entries {
            let entry = match entry {
                Ok(entry) => entry,
                Err(e) => {
                    let folder = if prefix.is_empty() { "." } else { prefix };
                    walk.diagnostics.push(Diagnostic {
                        file: folder.to_string(),
                        line: None,
                        message: format!("an entry of the folder cannot be read: {e}; skipped"),
                    });
                    continue;
                }
            };
            let abs = entry.path();
            let name_os = entry.file_name();
            let Some(name) = name_os.to_str() else {
                // The corpus order needs UTF-8 paths; only complain about files that
                // would otherwise have been read.
                if ext_lower(&abs).as_deref().and_then(format_of_ext).is_some() {
                    walk.diagnostics.push(Diagnostic {
                        file: format!("{prefix}{}", name_os.to_string_lossy()),
                        line: None,
                        message: "the file name is not valid UTF-8; skipped".to_string(),
                    });
                }
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            let rel = format!("{prefix}{name}");
            match fs::metadata(&abs) {
                Ok(meta) if meta.is_dir() => {
                    if !self.opts.recursive {
                        walk.skipped_subfolders += 1;
                        continue;
                    }
                    // Symlinked folders may form cycles; read each real folder once.
                    match fs::canonicalize(&abs) {
                        Ok(canonical) => {
                            if !visited.insert(canonical) {
                                continue;
                            }
                        }
                        Err(e) => {
                            walk.diagnostics.push(Diagnostic {
                                file: rel,
                                line: None,
                                message: format!("the folder cannot be read: {e}; skipped"),
                            });
                            continue;
                        }
                    }
                    match fs::read_dir(&abs) {
                        Ok(sub) => self.walk_entries(sub, &format!("{rel}/"), walk, visited),
                        Err(e) => walk.diagnostics.push(Diagnostic {
                            file: rel,
                            line: None,
                            message: format!("the folder cannot be read: {e}; skipped"),
                        }),
                    }
                }
                // Pipes, sockets and devices are never opened (reading could block).
                Ok(meta) if !meta.is_file() => {}
                // A file, or an entry we cannot stat (e.g. a dangling link): reading it
                // later reports the problem if its extension is chosen.
                _ => walk.files.push(Candidate {
                    format: ext_lower(&abs).as_deref().and_then(format_of_ext),
                    rel,
                    abs,
                }),
            }
        }
    }

    fn load_file(&mut self, abs: &Path, rel: &str, format: Format) {
        match format {
            Format::Jsonl => self.load_jsonl(abs, rel),
            Format::Json | Format::Text => {
                let Some(bytes) = self.read_whole(abs, rel) else {
                    return;
                };
                let had_bom = bytes.starts_with(BOM);
                let text = match std::str::from_utf8(strip_bom(&bytes)) {
                    Ok(text) => text,
                    Err(e) => {
                        let offset = e.valid_up_to() + if had_bom { BOM.len() } else { 0 };
                        self.skip(
                            rel,
                            None,
                            format!(
                                "the file is not valid UTF-8 text (byte offset {offset}); skipped"
                            ),
                        );
                        return;
                    }
                };
                if format == Format::Json {
                    match serde_json::from_str::<Value>(text) {
                        Ok(value) => self.accept_json(value, rel, None),
                        Err(e) => self.skip(rel, None, format!("not valid JSON: {e}; skipped")),
                    }
                } else {
                    self.accept_text(text, rel);
                }
            }
        }
    }

    /// Reads a whole file, refusing (before reading) one over the size limit.
    fn read_whole(&mut self, abs: &Path, rel: &str) -> Option<Vec<u8>> {
        let max = self.max_bytes();
        let file = match fs::File::open(abs) {
            Ok(file) => file,
            Err(e) => {
                self.skip(rel, None, format!("the file cannot be read: {e}; skipped"));
                return None;
            }
        };
        match file.metadata() {
            Ok(meta) if meta.len() > max => {
                self.skip(rel, None, oversized_message("the file", meta.len(), max));
                return None;
            }
            Ok(_) => {}
            Err(e) => {
                self.skip(rel, None, format!("the file cannot be read: {e}; skipped"));
                return None;
            }
        }
        // The file may grow after the size check; never read past the limit.
        let mut bytes = Vec::new();
        if let Err(e) = file.take(max.saturating_add(1)).read_to_end(&mut bytes) {
            self.skip(rel, None, format!("the file cannot be read: {e}; skipped"));
            return None;
        }
        if bytes.len() as u64 > max {
            let size = fs::metadata(abs).map_or(bytes.len() as u64, |m| m.len());
            self.skip(rel, None, oversized_message("the file", size, max));
            return None;
        }
        Some(bytes)
    }

    fn load_jsonl(&mut self, abs: &Path, rel: &str) {
        let file = match fs::File::open(abs) {
            Ok(file) => file,
            Err(e) => {
                self.skip(rel, None, format!("the file cannot be read: {e}; skipped"));
                return;
            }
        };
        let max = self.max_bytes();
        let cap = usize::try_from(max).unwrap_or(usize::MAX);
        let mut reader = BufReader::new(file);
        let mut buf = Vec::new();
        let mut line_no = 0usize;
        let mut any_content = false;
        loop {
            let len = match read_line_capped(&mut reader, cap, &mut buf) {
                Ok(Some(len)) => len,
                Ok(None) => break,
                Err(e) => {
                    self.skip(
                        rel,
                        None,
                        format!(
                            "the file cannot be read after line {line_no}: {e}; the rest of the file is skipped"
                        ),
                    );
                    return;
                }
            };
            line_no += 1;
            let mut len = len as u64;
            let mut bom_len = 0;
            if line_no == 1 && buf.starts_with(BOM) {
                buf.drain(..BOM.len());
                len = len.saturating_sub(BOM.len() as u64);
                bom_len = BOM.len();
            }
            if len > max {
                any_content = true;
                self.skip(rel, Some(line_no), oversized_message("the line", len, max));
                continue;
            }
            if buf.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            any_content = true;
            let text = match std::str::from_utf8(&buf) {
                Ok(text) => text,
                Err(e) => {
                    self.skip(
                        rel,
                        Some(line_no),
                        format!(
                            "the line is not valid UTF-8 text (byte offset {} in the line); skipped",
                            e.valid_up_to() + bom_len
                        ),
                    );
                    continue;
                }
            };
            match serde_json::from_str::<Value>(text) {
                Ok(value) => self.accept_json(value, rel, Some(line_no)),
                Err(e) => self.skip(
                    rel,
                    Some(line_no),
                    format!("not valid JSON: {}; skipped", json_error_on_line(&e)),
                ),
            }
        }
        if !any_content {
            self.skip(
                rel,
                None,
                "the file holds no documents; nothing to load".to_string(),
            );
        }
    }

    /// Validates one `{"id", "metadata"?, "content"}` object and adds it.
    fn accept_json(&mut self, value: Value, rel: &str, line: Option<usize>) {
        let Value::Object(obj) = value else {
            let hint = match (&value, line) {
                (Value::Array(_), None) => {
                    " (a .json file holds one document; put many documents in a .jsonl file, one per line)"
                }
                _ => "",
            };
            let msg = format!(
                "expected a JSON object {{\"id\", \"content\", \"metadata\"}} but found {}{hint}; skipped",
                kind_of(&value)
            );
            self.skip(rel, line, msg);
            return;
        };
        let id = match obj.get("id") {
            None => {
                self.skip(
                    rel,
                    line,
                    "the \"id\" field is missing; skipped".to_string(),
                );
                return;
            }
            Some(Value::String(id)) if id.trim().is_empty() => {
                self.skip(rel, line, "the \"id\" field is empty; skipped".to_string());
                return;
            }
            Some(Value::String(id)) => id.clone(),
            Some(other) => {
                let msg = format!(
                    "the \"id\" field must be a string, but it is {}; skipped",
                    kind_of(other)
                );
                self.skip(rel, line, msg);
                return;
            }
        };
        let content = match obj.get("content") {
            None => {
                self.skip(
                    rel,
                    line,
                    "the \"content\" field is missing; skipped".to_string(),
                );
                return;
            }
            Some(Value::String(c)) if c.is_empty() => {
                self.skip(
                    rel,
                    line,
                    "the \"content\" field is empty; skipped".to_string(),
                );
                return;
            }
            Some(Value::String(c)) => c.clone(),
            Some(other) => {
                let msg = format!(
                    "the \"content\" field must be a string, but it is {}; skipped",
                    kind_of(other)
                );
                self.skip(rel, line, msg);
                return;
            }
        };
        let metadata = match obj.get("metadata") {
            None | Some(Value::Null) => Map::new(),
            Some(Value::Object(m)) => m.clone(),
            Some(other) => {
                let msg = format!(
                    "the \"metadata\" field must be an object, but it is {}; skipped",
                    kind_of(other)
                );
                self.skip(rel, line, msg);
                return;
            }
        };
        self.push(Document {
            key: doc_key(&id, &content),
            id,
            metadata,
            content,
            source: Source {
                rel_path: rel.to_string(),
                line,
            },
            raw: Some(obj),
        });
    }

    fn accept_text(&mut self, text: &str, rel: &str) {
        if text.is_empty() {
            self.skip(rel, None, "the file is empty; skipped".to_string());
            return;
        }
        let id = Path::new(rel)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if id.trim().is_empty() {
            self.skip(
                rel,
                None,
                "the file name gives an empty document id; skipped".to_string(),
            );
            return;
        }
        let mut metadata = Map::new();
        metadata.insert("path".to_string(), Value::String(rel.to_string()));
        self.push(Document {
            key: doc_key(&id, text),
            id,
            metadata,
            content: text.to_string(),
            source: Source {
                rel_path: rel.to_string(),
                line: None,
            },
            raw: None,
        });
    }

    /// Adds a document unless its id was already loaded (the earlier one wins).
    fn push(&mut self, doc: Document) {
        let here = match doc.source.line {
            Some(line) => format!("{}:{line}", doc.source.rel_path),
            None => doc.source.rel_path.clone(),
        };
        if let Some(first) = self.seen.get(&doc.id) {
            let msg = format!(
                "duplicate id \"{}\": already loaded from {first}; skipped",
                doc.id
            );
            self.skip(&doc.source.rel_path, doc.source.line, msg);
            return;
        }
        self.seen.insert(doc.id.clone(), here);
        self.documents.push(doc);
    }
}

fn oversized_message(what: &str, size: u64, max: u64) -> String {
    format!("{what} is {size} bytes, over the document size limit of {max} bytes; skipped")
}

/// Reads one line (without its `\n`, and without a `\r` before it) into `out`,
/// keeping at most `cap + 1` bytes so a huge line is never held in memory.
/// Returns the line's full length, or `None` at the end of the input.
fn read_line_capped(
    reader: &mut impl BufRead,
    cap: usize,
    out: &mut Vec<u8>,
) -> io::Result<Option<usize>> {
    out.clear();
    let keep = cap.saturating_add(2);
    let mut total = 0usize;
    let mut read_any = false;
    loop {
        let chunk = match reader.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let (part, used, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], i + 1, true),
            None => (chunk, chunk.len(), false),
        };
        let room = keep.saturating_sub(out.len());
        out.extend_from_slice(&part[..part.len().min(room)]);
        total = total.saturating_add(part.len());
        reader.consume(used);
        if done {
            break;
        }
    }
    if !read_any {
        return Ok(None);
    }
    // `out` holds the whole line whenever the line is short enough to matter.
    if total == out.len() && out.last() == Some(&b'\r') {
        out.pop();
        total -= 1;
    }
    Ok(Some(total))
}

#[cfg(test)]
mod tests {
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

    fn ids(c: &Corpus) -> Vec<&str> {
        c.documents.iter().map(|d| d.id.as_str()).collect()
    }

    fn only_diag(c: &Corpus) -> &Diagnostic {
        assert_eq!(c.diagnostics.len(), 1, "diagnostics: {:?}", c.diagnostics);
        &c.diagnostics[0]
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
        let c = load_ok(d.path(), &LoadOptions::default());
        assert_eq!(c.format, Some(Format::Json));
        assert!(c.diagnostics.is_empty());
        let doc = &c.documents[0];
        assert_eq!(doc.id, "a");
        assert_eq!(doc.content, "Hello");
        assert_eq!(doc.key, doc_key("a", "Hello"));
        assert_eq!(doc.metadata.get("format"), Some(&Value::from("x")));
        assert_eq!(doc.source.rel_path, "a.json");
        assert_eq!(doc.source.line, None);
        let raw = doc.raw.as_ref().expect("raw kept");
        assert_eq!(raw.get("extra"), Some(&Value::from(1)));
        assert_eq!(c.root, d.path());
    }

    #[test]
    fn missing_metadata_is_an_empty_object() {
        let d = tmp();
        write(d.path(), "a.json", r#"{"id":"a","content":"x"}"#);
        let c = load_ok(d.path(), &LoadOptions::default());
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
        let c = load_ok(d.path(), &LoadOptions::default());
        assert!(c.documents.is_empty());
        assert_eq!(c.format, None);
        let diag = only_diag(&c);
        assert_eq!(diag.file, d.path().display().to_string());
        assert!(diag.message.contains("no .json, .jsonl, .txt or .md files"));
    }

    #[test]
    fn empty_folder_hints_at_recursive_when_it_has_subfolders() {
        let d = tmp();
        write(d.path(), "sub/a.json", doc_json("a", "x"));
        let c = load_ok(d.path(), &LoadOptions::default());
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
        let c = load_ok(d.path(), &LoadOptions::default());
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
        let c = load_ok(d.path(), &LoadOptions::default());
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
            let c = load_ok(d.path(), &LoadOptions::default());
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
        let c = load_ok(d.path(), &LoadOptions::default());
        assert_eq!(ids(&c), ["a"]);
        assert!(c.diagnostics.is_empty());
    }

    #[test]
    fn duplicate_id_keeps_the_first_in_corpus_order() {
        let d = tmp();
        write(d.path(), "b.json", doc_json("x", "second"));
        write(d.path(), "a.json", doc_json("x", "first"));
        let c = load_ok(d.path(), &LoadOptions::default());
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
        let c = load_ok(d.path(), &LoadOptions::default());
        assert_eq!(ids(&c), ["b"]);
        let diag = only_diag(&c);
        assert_eq!(diag.file, "a.json");
        assert!(
            diag.message
                .contains("is not valid UTF-8 text (byte offset 21)"),
            "{}",
            diag.message
        );
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
        let diag = only_diag(&c);
        assert_eq!(diag.file, "big.json");
        assert!(diag.message.contains(&format!("{} bytes", big.len())));
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
        let c = load_ok(d.path(), &LoadOptions::default());
        assert_eq!(ids(&c), ["a"]);
        assert!(c.diagnostics.is_empty());

        let t = tmp();
        write(t.path(), "n.txt", "\u{feff}hello");
        let c = load_ok(t.path(), &LoadOptions::default());
        assert_eq!(c.documents[0].content, "hello");

        let j = tmp();
        let path = j.path().join("c.jsonl");
        write(
            j.path(),
            "c.jsonl",
            format!("\u{feff}{}\n", doc_json("a", "x")),
        );
        let c = load_ok(&path, &LoadOptions::default());
        assert_eq!(ids(&c), ["a"]);
        assert!(c.diagnostics.is_empty());
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
        let c = load_ok(d.path(), &LoadOptions::default());
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

    #[test]
    fn json_folder_ignores_other_files_and_gold_subfolder() {
        let d = tmp();
        write(d.path(), "a.json", doc_json("a", "x"));
        write(d.path(), "README.md", "# readme");
        write(d.path(), "notes.txt", "n");
        write(d.path(), "gold/gold.json", r#"{"links":[]}"#);
        let c = load_ok(d.path(), &LoadOptions::default());
        assert_eq!(c.format, Some(Format::Json));
        assert_eq!(ids(&c), ["a"]);
        assert!(c.diagnostics.is_empty());
    }

    #[test]
    fn uppercase_json_extension_is_detected() {
        let d = tmp();
        write(d.path(), "A.JSON", doc_json("a", "x"));
        let c = load_ok(d.path(), &LoadOptions::default());
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
        let c = load_ok(d.path(), &LoadOptions::default());
        assert_eq!(c.format, Some(Format::Text));
        assert_eq!(ids(&c), ["Memo", "note"]);
        let memo = &c.documents[0];
        assert_eq!(memo.content, "# Memo\nBody");
        assert_eq!(memo.metadata.get("path"), Some(&Value::from("Memo.MD")));
        assert_eq!(memo.raw, None);
        assert_eq!(memo.key, doc_key("Memo", "# Memo\nBody"));
        let diag = only_diag(&c);
        assert_eq!(diag.file, "empty.txt");
        assert!(diag.message.contains("empty"));
    }

    #[test]
    fn text_duplicate_stems_are_reported() {
        let d = tmp();
        write(d.path(), "a.md", "one");
        write(d.path(), "a.txt", "two");
        let c = load_ok(d.path(), &LoadOptions::default());
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
        let c = load_ok(d.path(), &LoadOptions::default());
        assert_eq!(ids(&c), ["ok"]);
        let diag = only_diag(&c);
        assert_eq!(diag.file, "bad.txt");
        assert!(diag.message.contains("byte offset 2"), "{}", diag.message);
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
        let c = load_ok(&d.path().join("docs.jsonl"), &LoadOptions::default());
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
        let c = load_ok(d.path(), &LoadOptions::default());
        assert_eq!(c.format, Some(Format::Jsonl));
        assert_eq!(ids(&c), ["a"]);
        assert_eq!(c.documents[0].source.rel_path, "corpus.JSONL");
        assert_eq!(c.documents[0].source.line, Some(1));
    }

    #[test]
    fn empty_jsonl_file_is_reported() {
        let d = tmp();
        write(d.path(), "c.jsonl", "\n\n");
        let c = load_ok(&d.path().join("c.jsonl"), &LoadOptions::default());
        assert!(c.documents.is_empty());
        assert_eq!(only_diag(&c).file, "c.jsonl");
    }

    #[test]
    fn single_files_of_each_kind() {
        let d = tmp();
        write(d.path(), "one.json", doc_json("one", "x"));
        write(d.path(), "page.MD", "text");
        write(d.path(), "data.csv", doc_json("csv", "x"));
        let c = load_ok(&d.path().join("one.json"), &LoadOptions::default());
        assert_eq!((c.format, ids(&c)), (Some(Format::Json), vec!["one"]));
        let c = load_ok(&d.path().join("page.MD"), &LoadOptions::default());
        assert_eq!((c.format, ids(&c)), (Some(Format::Text), vec!["page"]));
        let err = load(&d.path().join("data.csv"), &LoadOptions::default())
            .expect_err("unknown extension");
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
        let c = load_ok(&d.path().join("all.json"), &LoadOptions::default());
        assert!(c.documents.is_empty());
        let diag = only_diag(&c);
        assert_eq!(diag.file, "all.json");
        assert!(diag.message.contains(".jsonl"), "{}", diag.message);
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
}
