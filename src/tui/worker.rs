//! The extraction workers: run the extractor document by document off the UI thread
//! so the UI shows the corpus at once and the analysis grows as documents arrive.
//! [`extract_and_plan`] (what `clam review` runs with the offline extractor) and
//! [`llm_extract_and_plan`] (with `--extractor llm`) also plan each burst of results
//! on a copy of the workspace, so a slow re-plan never blocks keys or drawing;
//! bursts grow with the re-plan time, like television's matcher. [`extract`]
//! streams the raw per-document results instead (the app then plans them itself).
//! The corpus-level steps (context pass, linker) are the workspace's, so the
//! entities at the end are those of `clam run`. Workers never touch the terminal
//! and stop at the next document when cancelled.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::corpus::Document;
use crate::entity::ExtractedItem;
use crate::extract::Extractor;
use crate::extract::llm::prompts::Pass;
use crate::extract::llm::{LlmEvent, LlmExtractor, Source};

use super::app::WorkerMsg;

/// Extracts `docs` (the corpus, in order) with `extractor` and sends each result.
/// Blocking: call from `spawn_blocking`.
pub fn extract(
    docs: Arc<Vec<Document>>,
    extractor: &dyn Extractor,
    tx: &UnboundedSender<WorkerMsg>,
    cancel: &CancellationToken,
) {
    for (index, doc) in docs.iter().enumerate() {
        if cancel.is_cancelled() {
            return;
        }
        let msg = match extractor.extract(doc) {
            Ok(items) => WorkerMsg::Extracted { index, items },
            Err(e) => WorkerMsg::Failed {
                index,
                message: e.to_string(),
            },
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
    let _ = tx.send(WorkerMsg::Done);
}

/// One result for the planning worker.
#[derive(Debug)]
pub struct DocResult {
    pub index: usize,
    pub items: Vec<ExtractedItem>,
    /// The document is finished (an interim result, such as the LLM's local pass,
    /// is shown but not counted as done).
    pub done: bool,
    pub failed: bool,
    /// The LLM extractor fell back to the offline recognizers for it.
    pub fallback: bool,
}

/// Extracts every document of `shadow` (a [`crate::workspace::Workspace::shadow`])
/// with `extractor` and plans the results in bursts (see [`plan_results`]).
/// Blocking: call from `spawn_blocking`.
pub fn extract_and_plan(
    shadow: crate::workspace::Workspace,
    extractor: &dyn Extractor,
    tx: &UnboundedSender<WorkerMsg>,
    cancel: &CancellationToken,
) {
    let docs = shadow.corpus.documents.clone();
    let results = docs.iter().enumerate().map(|(index, doc)| {
        let (items, failed) = match extractor.extract(doc) {
            Ok(items) => (items, false),
            Err(e) => {
                tracing::warn!(doc = %doc.id, error = %e, "extraction failed");
                (Vec::new(), true)
            }
        };
        DocResult {
            index,
            items,
            done: true,
            failed,
            fallback: false,
        }
    });
    if plan_results(shadow, results, tx, cancel) {
        let _ = tx.send(WorkerMsg::Done);
    }
}

/// Runs the LLM extractor's two passes over the corpus of `shadow` on the current
/// tokio runtime and plans what arrives: each document's local pass as soon as it
/// is answered (an interim result), then its final entities after the context
/// pass. Sends the extractor's report (endpoint, fallbacks, dropped items) before
/// `Done`. Blocking: call from `spawn_blocking` inside the runtime.
pub fn llm_extract_and_plan(
    shadow: crate::workspace::Workspace,
    llm: LlmExtractor,
    tx: &UnboundedSender<WorkerMsg>,
    cancel: &CancellationToken,
) {
    let rt = tokio::runtime::Handle::current();
    let docs = shadow.corpus.documents.clone();
    let (etx, mut erx) = tokio::sync::mpsc::unbounded_channel();
    let task = rt.spawn(async move { llm.run(&docs, Some(etx)).await });
    let results = std::iter::from_fn(|| {
        loop {
            match erx.blocking_recv()? {
                LlmEvent::Pass {
                    index,
                    pass: Pass::Local,
                    report,
                    items,
                } if report.ok => {
                    return Some(DocResult {
                        index,
                        items,
                        done: false,
                        failed: false,
                        fallback: false,
                    });
                }
                LlmEvent::Document {
                    index,
                    report,
                    items,
                } => {
                    return Some(DocResult {
                        index,
                        items,
                        done: true,
                        failed: false,
                        fallback: report.source == Source::Fallback,
                    });
                }
                _ => {}
            }
        }
    });
    if !plan_results(shadow, results, tx, cancel) {
        task.abort();
        return;
    }
    match rt.block_on(task) {
        Ok(run) => {
            let _ = tx.send(WorkerMsg::Llm(Box::new(run.report)));
        }
        Err(e) => tracing::warn!(error = %e, "the LLM extraction task ended abnormally"),
    }
    let _ = tx.send(WorkerMsg::Done);
}

/// Plans `results` in bursts on `shadow`: a burst closes when the time since the
/// last plan exceeds twice the last plan's duration (at least 50 ms), so the first
/// documents show at once and a large corpus is not re-planned after every
/// document. Sends `Progress` after each result and `Planned` after each burst.
/// False when cancelled or when the app is gone.
pub fn plan_results(
    mut shadow: crate::workspace::Workspace,
    results: impl Iterator<Item = DocResult>,
    tx: &UnboundedSender<WorkerMsg>,
    cancel: &CancellationToken,
) -> bool {
    let total = shadow.corpus.documents.len();
    let mut burst: Vec<(usize, Vec<ExtractedItem>)> = Vec::new();
    let (mut done, mut failed, mut fallbacks) = (0, 0, 0);
    let mut last_plan = Instant::now() - Duration::from_secs(1);
    let mut plan_took = Duration::ZERO;
    let plan = |shadow: &mut crate::workspace::Workspace,
                burst: Vec<(usize, Vec<ExtractedItem>)>|
     -> Option<Duration> {
        let started = Instant::now();
        if let Err(e) = shadow.set_extracted(burst) {
            tracing::warn!(error = %e, "background re-plan failed");
        }
        let msg = WorkerMsg::Planned(Box::new(shadow.derived()));
        tx.send(msg).ok().map(|_| started.elapsed())
    };
    for r in results {
        if cancel.is_cancelled() {
            return false;
        }
        done += usize::from(r.done);
        failed += usize::from(r.failed);
        fallbacks += usize::from(r.fallback);
        burst.push((r.index, r.items));
        let progress = WorkerMsg::Progress {
            done,
            failed,
            fallbacks,
        };
        if tx.send(progress).is_err() {
            return false;
        }
        let due = last_plan.elapsed() >= (plan_took * 2).max(Duration::from_millis(50));
        if due || done == total {
            match plan(&mut shadow, std::mem::take(&mut burst)) {
                Some(took) => plan_took = took,
                None => return false,
            }
            last_plan = Instant::now();
        }
    }
    burst.is_empty() || plan(&mut shadow, burst).is_some()
}
