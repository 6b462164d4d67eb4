//! The export dialog's actions: the same export `clam run` performs, leak check
//! included, with the dialog's mode and switches.

use std::path::PathBuf;

use crate::export::{ExportError, ExportOptions};
use crate::plan::{Provenance, Stage};
use crate::redact::Mode;
use crate::workspace::ReviewState;

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

    /// Masked entities still proposed or stale (what `--require-reviewed` refuses).
    pub fn unreviewed_masks(&self) -> usize {
        self.ws
            .masked_indices()
            .into_iter()
            .filter(|&i| {
                matches!(
                    self.views.review.get(i),
                    Some(ReviewState::Proposed | ReviewState::Stale)
                ) && !matches!(
                    self.ws.plan.provenance[i],
                    Provenance::Masked {
                        stage: Stage::Forced,
                        ..
                    }
                )
            })
            .count()
    }

    /// Runs the same export as `clam run` (leak check included).
    pub fn run_export(
        &mut self,
        folder: &str,
        mode: Mode,
        require_reviewed: bool,
    ) -> ExportOutcome {
        if !self.is_ready() {
            return ExportOutcome::Failed("extraction is still running; wait for `ready`".into());
        }
        if folder.trim().is_empty() {
            return ExportOutcome::Failed("type the output folder".into());
        }
        if self.project_key.is_empty() {
            return ExportOutcome::Failed(
                "no session, so no project key: open with --session FILE".into(),
            );
        }
        if mode != self.ws.config.redaction {
            let config = crate::Config {
                redaction: mode,
                ..self.ws.config.clone()
            };
            if let Err(e) = self.ws.set_config(config) {
                return ExportOutcome::Failed(e.to_string());
            }
            self.refresh();
        }
        let scanner = crate::extract::offline::OfflineExtractor::new(self.ws.config.date_order);
        let out = PathBuf::from(folder.trim());
        let opts = ExportOptions {
            force: false,
            with_mapping: None,
            require_reviewed,
        };
        match crate::export::export(&self.ws, &self.project_key, &out, &opts, &scanner) {
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
