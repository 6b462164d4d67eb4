//! Walking a corpus folder: which files are documents, in a stable order, with what
//! is skipped and why.

use super::*;

impl Loader<'_> {
    pub(super) fn load_folder(&mut self, root: &Path) -> Result<Option<Format>, CorpusError> {
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

        let folder = root.display().to_string();
        let hint = if walk.skipped_subfolders > 0 {
            " (subfolders are read only with --recursive)"
        } else {
            ""
        };
        // Every file of a corpus format is read (by its extension, or only those of
        // `--format`); the others are named with why they are not.
        let mut chosen = Vec::new();
        for c in walk.files {
            match (c.format, self.opts.format) {
                (None, _) => walk.not_read.push(not_read(&c.rel, &other_file(&c.rel))),
                (Some(f), Some(wanted)) if f != wanted => walk.not_read.push(not_read(
                    &c.rel,
                    &format!(
                        "not a {} file (--format {} reads only {} files)",
                        format_name(wanted),
                        format_name(wanted),
                        format_extensions(wanted)
                    ),
                )),
                (Some(Format::Text), None) if is_readme(&c.rel) => walk.not_read.push(not_read(
                    &c.rel,
                    "the folder's README, not a document (--format text reads it)",
                )),
                (Some(format), _) => chosen.push((c, format)),
            }
        }
        self.not_read.append(&mut walk.not_read);
        if chosen.is_empty() {
            let message = match self.opts.format {
                Some(format) => format!(
                    "the folder holds no {} files for format {}; nothing to load{hint}",
                    format_extensions(format),
                    format_name(format)
                ),
                None => format!(
                    "the folder holds no .json, .jsonl, .txt or .md files; nothing to load{hint}"
                ),
            };
            self.skip(&folder, None, message);
            return Ok(self.opts.format);
        }
        // In corpus order: a JSONL file's lines where the file sorts, runs of other
        // files between them read on every core.
        let mut run: Vec<(&Path, &str, Format)> = Vec::new();
        for (c, format) in &chosen {
            if *format == Format::Jsonl {
                self.load_files(&run);
                run.clear();
                self.load_file(&c.abs, &c.rel, Format::Jsonl);
            } else {
                run.push((c.abs.as_path(), c.rel.as_str(), *format));
            }
        }
        self.load_files(&run);
        let first = chosen[0].1;
        Ok(chosen.iter().all(|(_, f)| *f == first).then_some(first))
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
                // The corpus order needs UTF-8 paths; a file that would otherwise have
                // been read is skipped, anything else passed over.
                let file = format!("{prefix}{}", name_os.to_string_lossy());
                if ext_lower(&abs).as_deref().and_then(format_of_ext).is_some() {
                    walk.diagnostics.push(Diagnostic {
                        file,
                        line: None,
                        message: "the file name is not valid UTF-8; skipped".to_string(),
                    });
                } else {
                    walk.not_read
                        .push(not_read(&file, "the name is not valid UTF-8"));
                }
                continue;
            };
            let rel = format!("{prefix}{name}");
            let meta = fs::metadata(&abs);
            let is_dir = meta.as_ref().is_ok_and(fs::Metadata::is_dir);
            if name.starts_with('.') {
                // As ripgrep: hidden files and folders are not searched.
                let (shown, what) = if is_dir {
                    (format!("{rel}/"), "a hidden folder")
                } else {
                    (rel, "a hidden file")
                };
                walk.not_read.push(not_read(&shown, what));
                continue;
            }
            match meta {
                Ok(meta) if meta.is_dir() => {
                    if !self.opts.recursive {
                        walk.skipped_subfolders += 1;
                        walk.not_read.push(not_read(
                            &format!("{rel}/"),
                            "a subfolder (read only with --recursive)",
                        ));
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
                Ok(meta) if !meta.is_file() => {
                    walk.not_read.push(not_read(
                        &rel,
                        "not a regular file (a pipe, socket or device)",
                    ));
                }
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
}

/// A file of a folder that is not read, and why.
fn not_read(file: &str, why: &str) -> Diagnostic {
    Diagnostic {
        file: file.to_string(),
        line: None,
        message: format!("{why}; not read"),
    }
}

/// Why a file with no corpus extension is not read.
fn other_file(rel: &str) -> String {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    if name.eq_ignore_ascii_case("clam.toml") {
        return "the corpus's configuration, not a document".to_string();
    }
    match ext_lower(Path::new(name)) {
        Some(ext) => format!("a .{ext} file, not a corpus format (.json, .jsonl, .txt, .md)"),
        None => "no extension, so not a corpus format (.json, .jsonl, .txt, .md)".to_string(),
    }
}

/// Whether a text file is a folder's README (`README.md`, `readme.txt`, …).
fn is_readme(rel: &str) -> bool {
    let name = rel.rsplit('/').next().unwrap_or(rel);
    Path::new(name)
        .file_stem()
        .and_then(|s| s.to_str())
        .is_some_and(|s| s.eq_ignore_ascii_case("readme"))
}
