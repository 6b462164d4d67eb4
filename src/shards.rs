//! Shard files: what `clam extract --shard i/n` writes, and how the shards of one
//! corpus are merged into what extracting the whole corpus at once gives.
//!
//! Extraction has two parts. The recognizers read one document at a time; that is
//! almost all of the work, and what a shard does. The corpus-level passes (the context
//! pass that looks for every typed value in every other document, the organisation
//! short forms, one type per identifier, the linker) and the entity store read the
//! whole corpus: they run once, where the shards are merged, over every document's
//! recognizer items in corpus order. So a shard file holds, per document of its shard,
//! the id, the document key and the recognizers' items; merging checks the shards
//! against the corpus (every document in exactly one shard, unchanged since it was
//! extracted, all shards extracted with the same settings) and hands the items back in
//! corpus order. Entity frequencies, the context pass and everything after are then
//! those of the whole corpus: merged shards give byte for byte what one unsharded
//! extraction gives.
//!
//! The file is JSON Lines: a header line (`clam_shard`, the shard, the extractor, the
//! configuration as a snapshot records it, the extraction settings), then one line per
//! document, in corpus order: `{"id", "key", "items": [{"original", "normalized",
//! "entity_type", "relevance", "spans": [{"start", "end"}]}]}`.

use std::collections::HashMap;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use crate::Config;
use crate::corpus::{Corpus, Shard};
use crate::entity::ExtractedItem;
use crate::progress::{Progress, Unit};

/// The version of the shard file format.
pub const FORMAT_VERSION: u32 = 1;

/// The first line of a shard file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardHeader {
    /// The format version ([`FORMAT_VERSION`]).
    pub clam_shard: u32,
    pub shard: Shard,
    /// The extractor's name ("offline").
    pub extractor: String,
    /// The configuration as a snapshot records it (`Snapshot::config`).
    pub config: Value,
    /// What decides the extractor's items ([`extraction_settings`]).
    pub extraction: Value,
    /// Documents in the file.
    pub documents: usize,
}

/// One document of a shard file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ShardDoc {
    pub id: String,
    /// The document key (`id:md5(normalized content)`): the merge checks that the
    /// document has not changed since.
    pub key: String,
    /// The recognizers' items, before the corpus-level passes.
    pub items: Vec<ExtractedItem>,
}

/// A shard file read back.
#[derive(Debug, Clone)]
pub struct ShardFile {
    pub path: PathBuf,
    pub header: ShardHeader,
    pub documents: Vec<ShardDoc>,
}

/// Why shard files cannot be read or merged. Each names the file (and line) and says
/// what to do.
#[derive(Debug, thiserror::Error)]
pub enum ShardFileError {
    #[error("{path}: cannot read: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: io::Error,
    },
    #[error("{path}:{line}: not a shard file of this version: {message}")]
    Format {
        path: PathBuf,
        line: usize,
        message: String,
    },
    #[error("{0}")]
    Mismatch(String),
}

/// The settings that decide what the extractor finds in a document: the extraction
/// group (date order, size limit, context pass, linker), the offline extractor's lists
/// and the schema. Shards merge only when theirs are equal, and `clam run` uses shards
/// only when they equal its own.
pub fn extraction_settings(config: &Config) -> Value {
    json!({
        "extraction": config.extraction,
        "extract": config.extract,
        "schema": config.schema,
    })
}

/// Writes a shard file: `header`, then each document of `corpus` with its items
/// (`items[i]` of `corpus.documents[i]`).
pub fn write_shard(
    out: &mut impl Write,
    header: &ShardHeader,
    corpus: &Corpus,
    items: &[Vec<ExtractedItem>],
) -> io::Result<()> {
    #[derive(Serialize)]
    struct Line<'a> {
        id: &'a str,
        key: &'a str,
        items: &'a [ExtractedItem],
    }
    write_line(out, header)?;
    for (doc, items) in corpus.documents.iter().zip(items) {
        let line = Line {
            id: &doc.id,
            key: &doc.key,
            items,
        };
        write_line(out, &line)?;
    }
    out.flush()
}

/// One JSON line, its strings escaped as every JSON clam writes (they come from
/// documents).
fn write_line(out: &mut impl Write, value: &impl Serialize) -> io::Result<()> {
    /// serde_json's compact layout, strings through [`crate::display::write_json_fragment`].
    struct SafeCompact;
    impl serde_json::ser::Formatter for SafeCompact {
        fn write_string_fragment<W: ?Sized + Write>(
            &mut self,
            w: &mut W,
            fragment: &str,
        ) -> io::Result<()> {
            crate::display::write_json_fragment(w, fragment)
        }
    }
    let mut ser = serde_json::Serializer::with_formatter(&mut *out, SafeCompact);
    value.serialize(&mut ser)?;
    out.write_all(b"\n")
}

/// Whether `path` is a shard file (its first line is a shard header) rather than a
/// snapshot (a JSON object over many lines).
pub fn is_shard_file(path: &Path) -> Result<bool, ShardFileError> {
    let file = std::fs::File::open(path).map_err(|source| ShardFileError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    let mut first = Vec::new();
    // A header holds the configuration; a snapshot's first line is "{".
    BufReader::new(file)
        .take(1 << 26)
        .read_until(b'\n', &mut first)
        .map_err(|source| ShardFileError::Io {
            path: path.to_path_buf(),
            source,
        })?;
    Ok(serde_json::from_slice::<Value>(&first).is_ok_and(|v| v.get("clam_shard").is_some()))
}

/// Reads a shard file, reporting its bytes to `progress`.
pub fn read_shard(path: &Path, progress: &dyn Progress) -> Result<ShardFile, ShardFileError> {
    let io = |source| ShardFileError::Io {
        path: path.to_path_buf(),
        source,
    };
    let format = |line: usize, message: String| ShardFileError::Format {
        path: path.to_path_buf(),
        line,
        message,
    };
    let file = std::fs::File::open(path).map_err(io)?;
    let size = file.metadata().map_or(0, |m| m.len());
    progress.stage("reading shards", size, Unit::Bytes);
    let mut lines = BufReader::new(file).lines();
    let header: ShardHeader = match lines.next() {
        Some(line) => {
            let line = line.map_err(io)?;
            progress.advance(line.len() as u64 + 1);
            serde_json::from_str(&line).map_err(|e| format(1, e.to_string()))?
        }
        None => return Err(format(1, "the file is empty".into())),
    };
    if header.clam_shard != FORMAT_VERSION {
        return Err(format(
            1,
            format!(
                "format version {} (this clam reads version {FORMAT_VERSION}): extract the shard again with this version",
                header.clam_shard
            ),
        ));
    }
    let mut documents = Vec::with_capacity(header.documents);
    for (n, line) in lines.enumerate() {
        let line = line.map_err(io)?;
        progress.advance(line.len() as u64 + 1);
        let doc: ShardDoc =
            serde_json::from_str(&line).map_err(|e| format(n + 2, e.to_string()))?;
        documents.push(doc);
    }
    if documents.len() != header.documents {
        return Err(format(
            documents.len() + 1,
            format!(
                "the header announces {} document(s) but the file holds {}: it was cut short; extract the shard again",
                header.documents,
                documents.len()
            ),
        ));
    }
    Ok(ShardFile {
        path: path.to_path_buf(),
        header,
        documents,
    })
}

/// The shards of one corpus, merged: the recognizers' items of every document of
/// `corpus`, in corpus order, and the configuration and extraction settings the shards
/// were extracted with.
#[derive(Debug, Clone)]
pub struct Merged {
    pub items: Vec<Vec<ExtractedItem>>,
    pub config: Value,
    pub extraction: Value,
}

/// Merges the shard files of one extraction against the corpus they were extracted
/// from. Every shard 1/n … n/n must be given once, all extracted by the same extractor
/// with the same settings; every document of the corpus must be in the shard of its
/// id, unchanged since (same document key), and no shard may hold a document the
/// corpus does not.
pub fn merge(corpus: &Corpus, files: Vec<ShardFile>) -> Result<Merged, ShardFileError> {
    let mismatch = |m: String| ShardFileError::Mismatch(m);
    let Some(first) = files.first() else {
        return Err(mismatch("no shard files given".into()));
    };
    let count = first.header.shard.count();
    let (config, extraction) = (first.header.config.clone(), first.header.extraction.clone());
    let mut by_index: HashMap<u32, &Path> = HashMap::new();
    for f in &files {
        let h = &f.header;
        let name = f.path.display();
        if h.shard.count() != count {
            return Err(mismatch(format!(
                "{name}: shard {} is of a split into {} shards, {} of {count}: give the shard files of one extraction",
                h.shard,
                h.shard.count(),
                first.path.display()
            )));
        }
        if h.extractor != first.header.extractor || h.extraction != extraction || h.config != config
        {
            return Err(mismatch(format!(
                "{name}: extracted with another extractor or other settings than {}: extract every shard with the same configuration",
                first.path.display()
            )));
        }
        if let Some(other) = by_index.insert(h.shard.index(), &f.path) {
            return Err(mismatch(format!(
                "shard {} is given twice: {} and {name}",
                h.shard,
                other.display()
            )));
        }
    }
    let missing: Vec<String> = (1..=count)
        .filter(|i| !by_index.contains_key(i))
        .map(|i| format!("{i}/{count}"))
        .collect();
    if !missing.is_empty() {
        return Err(mismatch(format!(
            "shard(s) {} missing: give every shard file of the extraction",
            missing.join(", ")
        )));
    }
    // Every document once, in the shard of its id.
    let mut found: HashMap<&str, (&ShardFile, &ShardDoc)> = HashMap::new();
    for f in &files {
        for d in &f.documents {
            if !f.header.shard.contains(&d.id) {
                return Err(mismatch(format!(
                    "{}: document {:?} belongs to shard {}/{count}, not {}",
                    f.path.display(),
                    d.id,
                    Shard::number_of(&d.id, count),
                    f.header.shard
                )));
            }
            if found.insert(&d.id, (f, d)).is_some() {
                return Err(mismatch(format!(
                    "{}: document {:?} is listed twice",
                    f.path.display(),
                    d.id
                )));
            }
        }
    }
    let mut items = Vec::with_capacity(corpus.documents.len());
    for doc in &corpus.documents {
        let Some((f, d)) = found.remove(doc.id.as_str()) else {
            return Err(mismatch(format!(
                "document {:?} of the corpus is in no shard file (shard {}/{count} does not list it): it was added after the extraction; extract that shard again",
                doc.id,
                Shard::number_of(&doc.id, count)
            )));
        };
        if d.key != doc.key {
            return Err(mismatch(format!(
                "{}: document {:?} has changed since it was extracted: extract shard {} again",
                f.path.display(),
                doc.id,
                f.header.shard
            )));
        }
        items.push(d.items.clone());
    }
    if let Some((id, (f, _))) = found.iter().min_by_key(|(id, _)| **id) {
        return Err(mismatch(format!(
            "{}: document {id:?} is not in the corpus (removed since the extraction, or another corpus, size limit or --format): extract shard {} again",
            f.path.display(),
            f.header.shard
        )));
    }
    Ok(Merged {
        items,
        config,
        extraction,
    })
}

#[cfg(test)]
mod tests;
