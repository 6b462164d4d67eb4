//! The extraction worker: runs the extractor document by document on a blocking
//! thread and streams each result over a channel as soon as it is ready, so the UI
//! shows the corpus at once and the analysis grows as documents arrive. It never
//! touches the terminal and stops at the next document when cancelled.

use std::sync::Arc;

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
