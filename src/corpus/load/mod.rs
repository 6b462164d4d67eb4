//! Reading a corpus from disk (SPEC §1): a folder of `.json` files, a `.jsonl` file,
//! or a folder of `.txt`/`.md` files. Bad files and lines are skipped with a
//! [`Diagnostic`]; only an unusable corpus path stops loading. Nothing is written.

use std::collections::{HashMap, HashSet};
use std::fs;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::{
    Corpus, CorpusError, DEFAULT_MAX_DOCUMENT_BYTES, Diagnostic, Document, Format, Metadata,
    STDIN_NAME, STDIN_REL, Shard, Source, doc_key, is_stdin,
};
use crate::progress::{Progress, Silent, Unit};

mod jsonl;
mod walk;
/// True when a document object is `{"id", "content", "metadata": {...}}` and nothing
/// else, in that order (its content and metadata already moved out): the export
/// rebuilds exactly that shape, so it is not kept (a few hundred bytes per document).
fn is_plain_object(obj: &Map<String, Value>) -> bool {
    let mut keys = obj.iter();
    matches!(keys.next(), Some((k, _)) if k == "id")
        && matches!(keys.next(), Some((k, _)) if k == "content")
        && matches!(keys.next(), Some((k, Value::Object(m))) if k == "metadata" && m.is_empty())
        && keys.next().is_none()
}

#[cfg(test)]
use jsonl::read_line_capped;
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
    /// Only the documents of this shard (`--shard`); the others are passed over
    /// without a diagnostic (a text file's id is its name: it is not even read).
    pub shard: Option<Shard>,
}

impl Default for LoadOptions {
    fn default() -> Self {
        LoadOptions {
            format: None,
            recursive: false,
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
            shard: None,
        }
    }
}

/// Loads the corpus at `path` (a folder or a single file; `-` reads JSONL from
/// standard input, see [`load_reader`]).
///
/// `Corpus::root` is `path` as given. Document sources and diagnostics name files
/// relative to the folder; for a single-file corpus, by the file name.
pub fn load(path: &Path, opts: &LoadOptions) -> Result<Corpus, CorpusError> {
    load_with(path, opts, &Silent)
}

/// [`load`], reporting the files (or a JSONL file's bytes) read to `progress`.
pub fn load_with(
    path: &Path,
    opts: &LoadOptions,
    progress: &dyn Progress,
) -> Result<Corpus, CorpusError> {
    if is_stdin(path) {
        return load_reader(&mut io::stdin().lock(), opts, progress);
    }
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
    let mut loader = Loader::new(opts, progress);
    let format = if meta.is_dir() {
        loader.load_folder(path)?
    } else if meta.is_file() {
        loader.single = true;
        Some(loader.load_single_file(path)?)
    } else {
        return Err(CorpusError::Io {
            path: path.to_path_buf(),
            source: io::Error::other("not a regular file or folder"),
        });
    };
    Ok(loader.finish(path, format))
}

/// Loads a JSONL corpus from `reader` (standard input: `clam run -`). Documents get
/// their ids from the lines; messages name the input `<stdin>` with line numbers; the
/// documents' relative path (the export's file) is `stdin.jsonl`. `Corpus::root` is
/// `-`. Only the JSONL format can be read this way.
pub fn load_reader(
    reader: &mut dyn BufRead,
    opts: &LoadOptions,
    progress: &dyn Progress,
) -> Result<Corpus, CorpusError> {
    if let Some(format) = opts.format.filter(|f| *f != Format::Jsonl) {
        return Err(CorpusError::StdinFormat {
            format: format_name(format),
        });
    }
    let mut loader = Loader::new(opts, progress);
    loader.stdin = true;
    loader.single = true;
    progress.stage("loading", 0, Unit::Bytes);
    loader.load_jsonl_from(reader, STDIN_REL);
    Ok(loader.finish(Path::new(super::STDIN_PATH), Some(Format::Jsonl)))
}

impl Loader<'_> {
    /// The corpus: document keys computed on every core; the format the one every
    /// document shares (`format` when nothing loaded).
    fn finish(mut self, root: &Path, format: Option<Format>) -> Corpus {
        self.not_read.sort_by(|a, b| a.file.cmp(&b.file));
        let mut documents = self.documents;
        {
            use rayon::prelude::*;
            documents
                .par_iter_mut()
                .for_each(|d| d.key = doc_key(&d.id, &d.content));
        }
        let format = match documents.first() {
            Some(first) => documents
                .iter()
                .all(|d| d.source.format == first.source.format)
                .then_some(first.source.format),
            None => format,
        };
        Corpus {
            root: root.to_path_buf(),
            format,
            documents,
            diagnostics: self.diagnostics,
            not_read: self.not_read,
        }
    }
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
    format.name()
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
    /// Entries that are not read, with why (hidden, a subfolder, not a regular file).
    not_read: Vec<Diagnostic>,
    /// Subfolders left unread because the walk is not recursive.
    skipped_subfolders: usize,
}

/// Accumulates documents and diagnostics and remembers ids already loaded.
struct Loader<'a> {
    opts: &'a LoadOptions,
    progress: &'a dyn Progress,
    documents: Vec<Document>,
    diagnostics: Vec<Diagnostic>,
    not_read: Vec<Diagnostic>,
    /// id → where it was first loaded from ("file" or "file:line").
    seen: HashMap<String, String>,
    /// The corpus is one file (or standard input): a gold file there is an error,
    /// not a file passed over.
    single: bool,
    /// Reading standard input: messages name it `<stdin>`.
    stdin: bool,
}

impl<'a> Loader<'a> {
    fn new(opts: &'a LoadOptions, progress: &'a dyn Progress) -> Self {
        Loader {
            opts,
            progress,
            documents: Vec::new(),
            diagnostics: Vec::new(),
            not_read: Vec::new(),
            seen: HashMap::new(),
            single: false,
            stdin: false,
        }
    }

    /// How a file is named in messages (`<stdin>` for standard input).
    fn shown<'r>(&self, rel: &'r str) -> &'r str {
        if self.stdin { STDIN_NAME } else { rel }
    }

    /// A file that is not a document: passed over with a note in a folder, an error
    /// when it is the whole corpus.
    fn pass_over(&mut self, file: &str, why: &str) {
        if self.single {
            self.skip(file, None, format!("{why}; nothing to load"));
        } else {
            self.not_read.push(Diagnostic {
                file: file.to_string(),
                line: None,
                message: format!("{why}; not read"),
            });
        }
    }

    fn max_bytes(&self) -> u64 {
        self.opts.max_document_bytes
    }

    fn skip(&mut self, file: &str, line: Option<usize>, message: String) {
        self.diagnostics.push(Diagnostic {
            file: self.shown(file).to_string(),
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

    fn load_file(&mut self, abs: &Path, rel: &str, format: Format) {
        match format {
            Format::Jsonl => self.load_jsonl(abs, rel),
            Format::Json | Format::Text => {
                let read = read_document_file(abs, format, self.max_bytes(), self.opts.shard);
                self.accept_file(read, rel);
            }
        }
    }

    /// Loads the `.json` and text files of a folder, in order: files are read and
    /// parsed on every core, a chunk at a time, and accepted in order.
    fn load_files(&mut self, files: &[(&Path, &str, Format)]) {
        use rayon::prelude::*;
        if files.is_empty() {
            return;
        }
        let max = self.max_bytes();
        let (shard, progress) = (self.opts.shard, self.progress);
        progress.stage("loading", files.len() as u64, Unit::Documents);
        for chunk in files.chunks(FILES_PER_CHUNK) {
            let read: Vec<FileRead> = chunk
                .par_iter()
                .map(|(abs, _, format)| {
                    let read = read_document_file(abs, *format, max, shard);
                    progress.advance(1);
                    read
                })
                .collect();
            for ((_, rel, _), read) in chunk.iter().zip(read) {
                self.accept_file(read, rel);
            }
        }
    }

    fn accept_file(&mut self, read: FileRead, rel: &str) {
        match read {
            FileRead::Json(value) => self.accept_json(value, rel, None),
            FileRead::Text(text) => self.accept_text(&text, rel),
            FileRead::Skip(message) => self.skip(rel, None, message),
            FileRead::Gold(kind) => {
                self.pass_over(rel, &format!("a gold file ({kind} format), not a document"));
            }
            FileRead::OtherShard => {}
        }
    }

    /// Validates one `{"id", "metadata"?, "content"}` object and adds it.
    fn accept_json(&mut self, value: Value, rel: &str, line: Option<usize>) {
        let Value::Object(mut obj) = value else {
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
            // Moved out: `raw` keeps the field's place (null) but not a second copy.
            Some(Value::String(_)) => match obj.get_mut("content").map(Value::take) {
                Some(Value::String(c)) => c,
                _ => String::new(),
            },
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
            None | Some(Value::Null) => Metadata::default(),
            // Moved out, leaving an empty object in its place in `raw`.
            Some(Value::Object(_)) => match obj.get_mut("metadata") {
                Some(Value::Object(m)) => Metadata::from_map(&std::mem::take(m)),
                _ => Metadata::default(),
            },
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
            // Set once every document is in, on every core (see `load`).
            key: String::new(),
            id,
            metadata,
            content,
            source: Source {
                rel_path: rel.to_string(),
                line,
                format: if line.is_some() {
                    Format::Jsonl
                } else {
                    Format::Json
                },
            },
            raw: (!is_plain_object(&obj)).then(|| Box::new(obj)),
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
        let mut map = Map::new();
        map.insert("path".to_string(), Value::String(rel.to_string()));
        let metadata = Metadata::from_map(&map);
        self.push(Document {
            key: String::new(),
            id,
            metadata,
            content: text.to_string(),
            source: Source {
                rel_path: rel.to_string(),
                line: None,
                format: Format::Text,
            },
            raw: None,
        });
    }

    /// Adds a document unless its id was already loaded (the earlier one wins) or it
    /// belongs to another shard.
    fn push(&mut self, doc: Document) {
        if self.opts.shard.is_some_and(|s| !s.contains(&doc.id)) {
            return;
        }
        let file = self.shown(&doc.source.rel_path);
        let here = match doc.source.line {
            Some(line) => format!("{file}:{line}"),
            None => file.to_string(),
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

/// Files read and parsed at once when a folder is loaded (bounds what is held before
/// the documents are accepted in order).
const FILES_PER_CHUNK: usize = 1024;

/// One `.json` or text file, read and parsed.
enum FileRead {
    Json(Value),
    Text(String),
    /// Why the file is skipped.
    Skip(String),
    /// A gold file (its format's name), not a document.
    Gold(&'static str),
    /// A document of another shard.
    OtherShard,
}

/// Reads and parses one `.json` or text file (no shared state: run on every core).
fn read_document_file(abs: &Path, format: Format, max: u64, shard: Option<Shard>) -> FileRead {
    // A text file's id is its name: a file of another shard is not read.
    if format == Format::Text
        && let Some(shard) = shard
        && let Some(stem) = abs.file_stem()
        && !stem.is_empty()
        && !shard.contains(&stem.to_string_lossy())
    {
        return FileRead::OtherShard;
    }
    let bytes = match read_whole(abs, max) {
        Ok(bytes) => bytes,
        Err(message) => return FileRead::Skip(message),
    };
    let had_bom = bytes.starts_with(BOM);
    let text = match std::str::from_utf8(strip_bom(&bytes)) {
        Ok(text) => text,
        Err(e) => {
            let offset = e.valid_up_to() + if had_bom { BOM.len() } else { 0 };
            return FileRead::Skip(format!(
                "the file is not valid UTF-8 text (byte offset {offset}); skipped"
            ));
        }
    };
    if format == Format::Json {
        if of_other_shard(text, shard) {
            return FileRead::OtherShard;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(value) => match value.as_object().and_then(gold_format) {
                Some(kind) => FileRead::Gold(kind),
                None => FileRead::Json(value),
            },
            Err(e) => FileRead::Skip(format!("not valid JSON: {e}; skipped")),
        }
    } else {
        FileRead::Text(text.to_string())
    }
}

/// The gold format of a JSON object that is a gold file rather than a document (SPEC
/// §10): no `content`, and the devset's `clusters` or the thesis format's `links`,
/// `entities` or `redaction`.
fn gold_format(obj: &Map<String, Value>) -> Option<&'static str> {
    if obj.contains_key("content") {
        return None;
    }
    if obj.contains_key("clusters") {
        Some("devset")
    } else if ["links", "entities", "redaction"]
        .iter()
        .any(|k| obj.contains_key(*k))
    {
        Some("thesis")
    } else {
        None
    }
}

/// Whether a JSONL line is a line of a gold mentions file (`{"doc", "start", "end",
/// …}`, SPEC §10) rather than a document.
fn is_gold_mention(line: &str) -> bool {
    match serde_json::from_str::<Value>(line) {
        Ok(Value::Object(obj)) => {
            !obj.contains_key("content")
                && ["doc", "start", "end"].iter().all(|k| obj.contains_key(*k))
        }
        _ => false,
    }
}

/// Is `text` a JSON document whose id belongs to a shard other than `shard`? Only the
/// id is read (the content is skipped over, not copied); anything that is not such a
/// document is left to the full parse, which says what is wrong with it.
fn of_other_shard(text: &str, shard: Option<Shard>) -> bool {
    #[derive(serde::Deserialize)]
    struct IdOnly<'a> {
        #[serde(borrow)]
        id: std::borrow::Cow<'a, str>,
    }
    let Some(shard) = shard else {
        return false;
    };
    serde_json::from_str::<IdOnly>(text).is_ok_and(|d| !shard.contains(&d.id))
}

/// Reads a whole file, refusing (before reading) one over the size limit; the error is
/// the diagnostic's message.
fn read_whole(abs: &Path, max: u64) -> Result<Vec<u8>, String> {
    let cannot = |e: io::Error| format!("the file cannot be read: {e}; skipped");
    let file = fs::File::open(abs).map_err(cannot)?;
    let meta = file.metadata().map_err(cannot)?;
    if meta.len() > max {
        return Err(oversized_message("the file", meta.len(), max));
    }
    // The file may grow after the size check; never read past the limit.
    let mut bytes = Vec::new();
    file.take(max.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(cannot)?;
    if bytes.len() as u64 > max {
        let size = fs::metadata(abs).map_or(bytes.len() as u64, |m| m.len());
        return Err(oversized_message("the file", size, max));
    }
    Ok(bytes)
}

fn oversized_message(what: &str, size: u64, max: u64) -> String {
    format!("{what} is {size} bytes, over the document size limit of {max} bytes; skipped")
}

#[cfg(test)]
mod tests;
