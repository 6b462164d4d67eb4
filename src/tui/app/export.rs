//! The export dialog's actions: the same export `clam run` performs, leak check
//! included, with the dialog's mode and switches.

use std::path::PathBuf;

use crate::export::{ExportError, ExportOptions};
use crate::redact::Mode;

use super::super::state::ExportField;
use super::{App, ExportDialog, ExportOutcome, JobEvent, JobKind, Layer, text_input};

impl App {
    pub(super) fn open_export(&mut self) {
        self.layers.push(Layer::Export(Box::new(ExportDialog {
            folder: text_input(&self.export_default.display().to_string()),
            mode: self.ws.config().redact.mode,
            require_reviewed: false,
            field: ExportField::Folder,
            outcome: None,
        })));
    }

    /// Starts the export the dialog asked for as a job (the dialog says
    /// "exporting…" until its outcome comes back); an outcome when a check refused
    /// it at once.
    pub(super) fn start_export(
        &mut self,
        folder: &str,
        mode: Mode,
        require_reviewed: bool,
    ) -> Option<ExportOutcome> {
        let job = match self.prepare_export(folder, mode, require_reviewed) {
            Ok(job) => job,
            Err(outcome) => return Some(outcome),
        };
        self.jobs
            .start(JobKind::Export, move |_| JobEvent::Exported(job.run()));
        None
    }

    /// Puts a finished export's outcome in its dialog.
    pub(super) fn export_done(&mut self, outcome: ExportOutcome) {
        if let Some(Layer::Export(dialog)) = self
            .layers
            .iter_mut()
            .rev()
            .find(|l| matches!(l, Layer::Export(_)))
        {
            dialog.outcome = Some(outcome);
        }
    }

    /// The checks and the redaction mode of an export, then its inputs.
    fn prepare_export(
        &mut self,
        folder: &str,
        mode: Mode,
        require_reviewed: bool,
    ) -> Result<ExportJob, ExportOutcome> {
        if !self.is_ready() {
            return Err(ExportOutcome::Failed(
                "still extracting or recomputing; wait for `ready`".into(),
            ));
        }
        if folder.trim().is_empty() {
            return Err(ExportOutcome::Failed("type the output folder".into()));
        }
        let out = export_folder(folder).map_err(ExportOutcome::Failed)?;
        if self.project_key.is_empty() {
            return Err(ExportOutcome::Failed(
                "no session, so no project key: quit and open the corpus again with a session (clam review CORPUS --session FILE)".into(),
            ));
        }
        if mode != self.ws.config().redact.mode {
            let mut config = self.ws.config().clone();
            config.redact.mode = mode;
            if let Err(e) = self.ws.set_config(config) {
                return Err(ExportOutcome::Failed(e.to_string()));
            }
            self.refresh();
        }
        let ws = self
            .ws
            .snapshot()
            .map_err(|e| ExportOutcome::Failed(e.to_string()))?;
        Ok(ExportJob {
            ws,
            key: self.project_key.clone(),
            out,
            opts: ExportOptions {
                force: false,
                with_mapping: None,
                require_reviewed,
            },
        })
    }
}

/// The folder typed in the dialog as the path to write: `~`, `~/…`, `$HOME` and
/// `${HOME}` at its start are the home folder (a shell would expand them; a dialog
/// must, or it writes a literal `./~/…`), and a relative path is made absolute, so
/// the outcome names exactly where the files are.
pub fn export_folder(typed: &str) -> Result<PathBuf, String> {
    let typed = typed.trim();
    let home = || {
        directories::BaseDirs::new()
            .map(|b| b.home_dir().to_path_buf())
            .ok_or_else(|| format!("{typed}: this platform has no home folder; type the full path"))
    };
    let rest = |prefix: &str| {
        typed
            .strip_prefix(prefix)
            .map(|r| r.trim_start_matches('/'))
    };
    let path = if typed == "~" {
        home()?
    } else if let Some(r) = rest("~/")
        .or_else(|| rest("${HOME}"))
        .or_else(|| rest("$HOME"))
    {
        if typed.starts_with("$HOME") && !(typed.len() == 5 || typed[5..].starts_with('/')) {
            // "$HOMEWORK": not the variable.
            PathBuf::from(typed)
        } else {
            let h = home()?;
            if r.is_empty() { h } else { h.join(r) }
        }
    } else if typed.starts_with('~') {
        return Err(format!(
            "{typed}: only ~ (your home folder) is expanded; type the full path"
        ));
    } else {
        PathBuf::from(typed)
    };
    std::path::absolute(&path).map_err(|e| format!("{typed}: {e}"))
}

/// An export error as the dialog says it: the command line's advice ("pass --force",
/// "drop --require-reviewed") becomes what to do here.
fn in_app_advice(e: &ExportError) -> String {
    match e {
        ExportError::NotEmpty(p) => format!(
            "{}: the export folder exists and is not empty; type a new folder (clam never replaces a folder from the workspace)",
            p.display()
        ),
        ExportError::Appeared(p) => format!(
            "{}: appeared (or filled up) while clam was exporting; nothing was replaced and the new export was removed; type a new folder",
            p.display()
        ),
        ExportError::Unreviewed(n) => format!(
            "{n} proposed mask(s) are unreviewed or stale; review them in the redaction set (a accepts one, A every listed one) or switch \"require reviewed\" off (Tab to it, Space)"
        ),
        other => other.to_string(),
    }
}

/// An export's inputs, owned, to run as a job.
pub struct ExportJob {
    ws: crate::workspace::Workspace,
    key: Vec<u8>,
    out: PathBuf,
    opts: ExportOptions,
}

impl ExportJob {
    /// The export and its outcome as the dialog shows it.
    pub fn run(self) -> ExportOutcome {
        let scanner =
            crate::extract::offline::OfflineExtractor::new(self.ws.config().extraction.date_order);
        let mode = self.ws.config().redact.mode;
        match crate::export::export(&self.ws, &self.key, &self.out, &self.opts, &scanner) {
            Ok(s) => {
                let mut lines = vec![format!(
                    "exported {} documents to {} ({} mode): {} of {} entities masked; {}",
                    s.documents,
                    s.out.display(),
                    mode.as_str(),
                    s.masked,
                    self.ws.model().entities.len(),
                    s.leak_line()
                )];
                lines.extend(s.warnings.iter().map(|w| format!("warning: {w}")));
                if s.skipped > 0 {
                    lines.push(format!(
                        "{} input document(s) skipped (listed in report.md)",
                        s.skipped
                    ));
                }
                ExportOutcome::Written(lines)
            }
            Err(ExportError::Leak(hits)) => {
                ExportOutcome::Leak(hits.iter().map(ToString::to_string).collect())
            }
            Err(e) => ExportOutcome::Failed(in_app_advice(&e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::export_folder;
    use std::path::PathBuf;

    #[test]
    fn the_home_folder_is_expanded_and_every_path_made_absolute() {
        let home = directories::BaseDirs::new()
            .map(|b| b.home_dir().to_path_buf())
            .unwrap_or_default();
        assert_eq!(export_folder("~").ok(), Some(home.clone()));
        for typed in ["~/out/x", "$HOME/out/x", "${HOME}/out/x", "  ~/out/x "] {
            assert_eq!(
                export_folder(typed).ok(),
                Some(home.join("out/x")),
                "{typed}"
            );
        }
        let cwd = std::env::current_dir().unwrap_or_default();
        assert_eq!(export_folder("out").ok(), Some(cwd.join("out")));
        assert_eq!(export_folder("$HOMEWORK").ok(), Some(cwd.join("$HOMEWORK")));
        assert_eq!(export_folder("/abs/x").ok(), Some(PathBuf::from("/abs/x")));
        let err = export_folder("~alice/x").unwrap_err();
        assert!(err.contains("only ~"), "{err}");
    }
}
