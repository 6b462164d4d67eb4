//! The export dialog's actions: the same export `clam run` performs, leak check
//! included, with the dialog's mode and switches.

use std::path::PathBuf;

use crate::export::{ExportError, ExportOptions};
use crate::redact::Mode;

use super::super::state::ExportField;
use super::{App, ExportDialog, ExportOutcome, Layer, text_input};

impl App {
    pub(super) fn open_export(&mut self) {
        self.layers.push(Layer::Export(Box::new(ExportDialog {
            folder: text_input(&self.export_default.display().to_string()),
            mode: self.ws.config.redaction,
            require_reviewed: false,
            field: ExportField::Folder,
            outcome: None,
        })));
    }

    /// Runs the same export as `clam run` (leak check included), here.
    pub fn run_export(
        &mut self,
        folder: &str,
        mode: Mode,
        require_reviewed: bool,
    ) -> ExportOutcome {
        match self.prepare_export(folder, mode, require_reviewed) {
            Ok(job) => job.run(),
            Err(outcome) => outcome,
        }
    }

    /// Starts the export the dialog asked for on a thread of its own (the dialog
    /// says "exporting…" until [`App::poll_export`] brings the outcome).
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
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(job.run());
        });
        self.export_task = Some(rx);
        None
    }

    /// Puts a finished export's outcome in its dialog; true when it did.
    pub fn poll_export(&mut self) -> bool {
        let Some(rx) = &self.export_task else {
            return false;
        };
        let outcome = match rx.try_recv() {
            Ok(o) => o,
            Err(std::sync::mpsc::TryRecvError::Empty) => return false,
            Err(std::sync::mpsc::TryRecvError::Disconnected) => {
                ExportOutcome::Failed("the export stopped unexpectedly".into())
            }
        };
        self.export_task = None;
        if let Some(Layer::Export(dialog)) = self
            .layers
            .iter_mut()
            .rev()
            .find(|l| matches!(l, Layer::Export(_)))
        {
            dialog.outcome = Some(outcome);
        }
        self.dirty = true;
        true
    }

    /// Waits (at most `timeout`) for a running export.
    pub fn wait_export(&mut self, timeout: std::time::Duration) {
        let deadline = std::time::Instant::now() + timeout;
        while self.export_task.is_some() && std::time::Instant::now() < deadline {
            if !self.poll_export() {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
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
        if self.project_key.is_empty() {
            return Err(ExportOutcome::Failed(
                "no session, so no project key: open with --session FILE".into(),
            ));
        }
        if mode != self.ws.config.redaction {
            let config = crate::Config {
                redaction: mode,
                ..self.ws.config.clone()
            };
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
            out: PathBuf::from(folder.trim()),
            opts: ExportOptions {
                force: false,
                with_mapping: None,
                require_reviewed,
            },
        })
    }
}

/// An export's inputs, owned, to run on another thread.
pub struct ExportJob {
    ws: crate::workspace::Workspace,
    key: Vec<u8>,
    out: PathBuf,
    opts: ExportOptions,
}

impl ExportJob {
    /// The export and its outcome as the dialog shows it.
    pub fn run(self) -> ExportOutcome {
        let scanner = crate::extract::offline::OfflineExtractor::new(self.ws.config.date_order);
        let mode = self.ws.config.redaction;
        match crate::export::export(&self.ws, &self.key, &self.out, &self.opts, &scanner) {
            Ok(s) => {
                let mut lines = vec![format!(
                    "exported {} documents to {} ({} mode): {} of {} entities masked; leak check passed ({} files)",
                    s.documents,
                    s.out.display(),
                    mode.as_str(),
                    s.masked,
                    self.ws.model.entities.len(),
                    s.files_scanned
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
            Err(e) => ExportOutcome::Failed(e.to_string()),
        }
    }
}
