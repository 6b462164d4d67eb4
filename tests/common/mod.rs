//! Shared by the end-to-end tests: run the `clam` binary with its own config, data and
//! cache directories, so no test reads or writes the user's.

// Each test binary uses a different part of this module.
#![allow(dead_code)]

use std::path::PathBuf;
use std::process::{Command, Output};

pub struct Env {
    pub home: tempfile::TempDir,
}

impl Env {
    pub fn new() -> Self {
        Env {
            home: tempfile::tempdir().expect("tempdir"),
        }
    }

    /// Runs `clam args…` with this environment's directories.
    pub fn clam(&self, args: &[&str]) -> Output {
        self.clam_with(args, &[])
    }

    /// Runs `clam args…` with this environment's directories and the variables `vars`.
    pub fn clam_with(&self, args: &[&str], vars: &[(&str, &str)]) -> Output {
        self.command(env!("CARGO_BIN_EXE_clam"))
            .args(args)
            .envs(vars.iter().copied())
            .output()
            .expect("run clam")
    }

    /// `program` with this environment's directories (for running clam inside another
    /// program, such as `script` for a terminal).
    pub fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("XDG_CONFIG_HOME", self.home.path().join("config"))
            .env("XDG_DATA_HOME", self.home.path().join("data"))
            .env("XDG_CACHE_HOME", self.home.path().join("cache"))
            .env("HOME", self.home.path());
        c
    }

    /// A path inside this environment's temporary home.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.home.path().join(rel)
    }
}

/// An export's manifest.json with its tables (`tables/*.jsonl.gz`) read back in under
/// their names, as a script reading the export would.
pub fn manifest(out: &std::path::Path) -> serde_json::Value {
    let text = std::fs::read_to_string(out.join("manifest.json")).expect("read manifest.json");
    let mut m: serde_json::Value = serde_json::from_str(&text).expect("manifest.json is JSON");
    let tables = m["tables"].as_object().cloned().unwrap_or_default();
    for (name, t) in tables {
        let file = out.join(t["file"].as_str().expect("a table's file"));
        // A table of arrays names its columns: each row read as an object.
        let columns: Option<Vec<String>> = t["columns"].as_array().map(|c| {
            c.iter()
                .map(|x| x.as_str().expect("a column name").to_string())
                .collect()
        });
        let rows: Vec<serde_json::Value> = export_text(&file)
            .lines()
            .map(|l| {
                let row: serde_json::Value = serde_json::from_str(l).expect("a table row is JSON");
                match &columns {
                    Some(cols) => {
                        let cells = row
                            .as_array()
                            .expect("a row of a table with columns is an array");
                        assert_eq!(cells.len(), cols.len(), "{name}: one cell per column");
                        serde_json::Value::Object(
                            cols.iter().cloned().zip(cells.iter().cloned()).collect(),
                        )
                    }
                    None => {
                        assert!(
                            row.is_object(),
                            "{name}: a row of a table without columns is an object"
                        );
                        row
                    }
                }
            })
            .collect();
        assert_eq!(
            rows.len() as u64,
            t["rows"].as_u64().expect("rows"),
            "{name}"
        );
        m[name.as_str()] = serde_json::Value::Array(rows);
    }
    m
}

/// A file of an export as text, decompressed when it is gzip (the manifest's tables).
pub fn export_text(path: &std::path::Path) -> String {
    use std::io::Read;
    let file = std::fs::File::open(path).expect("open export file");
    let mut text = String::new();
    if path.extension().is_some_and(|e| e == "gz") {
        flate2::read::MultiGzDecoder::new(file)
            .read_to_string(&mut text)
            .expect("gzip text");
    } else {
        std::io::BufReader::new(file)
            .read_to_string(&mut text)
            .expect("text");
    }
    text
}

/// Every file of an export folder with its text, relative path first, sorted.
pub fn export_files(out: &std::path::Path) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut stack = vec![out.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("read export folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path
                    .strip_prefix(out)
                    .expect("inside")
                    .to_string_lossy()
                    .to_string();
                files.push((rel, export_text(&path)));
            }
        }
    }
    files.sort();
    files
}

/// The text of an export's manifest: manifest.json and its decompressed tables.
pub fn manifest_text(out: &std::path::Path) -> String {
    let mut text = std::fs::read_to_string(out.join("manifest.json")).expect("read manifest.json");
    let head: serde_json::Value = serde_json::from_str(&text).expect("manifest.json is JSON");
    // The tables manifest.json names, not every file of the export.
    for t in head["tables"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
    {
        text.push_str(&export_text(
            &out.join(t["file"].as_str().expect("a table's file")),
        ));
    }
    text
}

/// The text of one of an export's own files by the name a reader knows it by
/// ("manifest.json" includes its tables).
pub fn own_file_text(out: &std::path::Path, name: &str) -> String {
    if name == "manifest.json" {
        manifest_text(out)
    } else {
        export_text(&out.join(name))
    }
}
