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
        if format == Format::Jsonl {
            for candidate in &chosen {
                self.load_file(&candidate.abs, &candidate.rel, format);
            }
        } else {
            let files: Vec<(&Path, &str)> = chosen
                .iter()
                .map(|c| (c.abs.as_path(), c.rel.as_str()))
                .collect();
            self.load_files(&files, format);
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
}
