//! The extraction worker: runs the extractor document by document on a blocking
//! thread so the UI shows the corpus at once and the analysis grows as documents
//! arrive. [`extract_and_plan`] (what `clam review` runs) also plans each burst on a
//! copy of the workspace, so a slow re-plan never blocks keys or drawing; bursts
//! grow with the re-plan time, like television's matcher. [`extract`] streams the
//! raw per-document results instead (the app then plans them itself). Workers never
//! touch the terminal and stop at the next document when cancelled.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedSender;
use tokio_util::sync::CancellationToken;

use crate::corpus::Document;
use crate::extract::{ExtractedItem, Extractor};

use super::app::WorkerMsg;

/// Extracts `docs` (the corpus, in order) with `extractor`, then runs the linker
/// pass when `linker` is set. Blocking: call from `spawn_blocking`.
pub fn extract(
    docs: Arc<Vec<Document>>,
    extractor: &dyn Extractor,
    linker: bool,
    tx: &UnboundedSender<WorkerMsg>,
    cancel: &CancellationToken,
) {
    let mut all: Vec<Vec<ExtractedItem>> = Vec::with_capacity(docs.len());
    for (index, doc) in docs.iter().enumerate() {
        if cancel.is_cancelled() {
            return;
        }
        let msg = match extractor.extract(doc) {
            Ok(items) => {
                all.push(items.clone());
                WorkerMsg::Extracted { index, items }
            }
            Err(e) => {
                all.push(Vec::new());
                WorkerMsg::Failed {
                    index,
                    message: e.to_string(),
                }
            }
        };
        if tx.send(msg).is_err() {
            return;
        }
    }
    if linker && !cancel.is_cancelled() {
        let linked = crate::extract::linker::link(&docs, &all);
        let full: Vec<(usize, Vec<ExtractedItem>)> = all
            .into_iter()
            .zip(linked)
            .enumerate()
            .filter(|(_, (_, extra))| !extra.is_empty())
            .map(|(i, (mut mine, extra))| {
                mine.extend(extra);
                (i, mine)
            })
            .collect();
        if !full.is_empty() && tx.send(WorkerMsg::Linked(full)).is_err() {
            return;
        }
    }
    let _ = tx.send(WorkerMsg::Done);
}

/// Extracts every document of `shadow` (a [`crate::workspace::Workspace::shadow`])
/// and plans the results in bursts: a burst closes when the time since the last plan
/// exceeds twice the last plan's duration (at least 50 ms), so the first documents
/// show at once and a large corpus is not re-planned after every document. Sends
/// `Progress` after each document, `Planned` after each burst, then `Done`.
/// Blocking: call from `spawn_blocking`.
pub fn extract_and_plan(
    mut shadow: crate::workspace::Workspace,
    extractor: &dyn Extractor,
    linker: bool,
    tx: &UnboundedSender<WorkerMsg>,
    cancel: &CancellationToken,
) {
    let docs = shadow.corpus.documents.clone();
    let mut all: Vec<Vec<ExtractedItem>> = Vec::with_capacity(docs.len());
    let mut burst: Vec<(usize, Vec<ExtractedItem>)> = Vec::new();
    let mut failed = 0;
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
    for (index, doc) in docs.iter().enumerate() {
        if cancel.is_cancelled() {
            return;
        }
        let items = extractor.extract(doc).unwrap_or_else(|e| {
            tracing::warn!(doc = %doc.id, error = %e, "extraction failed");
            failed += 1;
            Vec::new()
        });
        all.push(items.clone());
        burst.push((index, items));
        if tx
            .send(WorkerMsg::Progress {
                done: index + 1,
                failed,
            })
            .is_err()
        {
            return;
        }
        let due = last_plan.elapsed() >= (plan_took * 2).max(Duration::from_millis(50));
        if due || index + 1 == docs.len() {
            match plan(&mut shadow, std::mem::take(&mut burst)) {
                Some(took) => plan_took = took,
                None => return,
            }
            last_plan = Instant::now();
        }
    }
    if linker && !cancel.is_cancelled() {
        let linked = crate::extract::linker::link(&docs, &all);
        let full: Vec<(usize, Vec<ExtractedItem>)> = all
            .into_iter()
            .zip(linked)
            .enumerate()
            .filter(|(_, (_, extra))| !extra.is_empty())
            .map(|(i, (mut mine, extra))| {
                mine.extend(extra);
                (i, mine)
            })
            .collect();
        if !full.is_empty() && plan(&mut shadow, full).is_none() {
            return;
        }
    }
    let _ = tx.send(WorkerMsg::Done);
}
