//! The extraction jobs: run the extractor document by document off the UI thread so
//! the UI shows the corpus at once and the analysis grows as documents arrive.
//! [`extract_and_plan`] (what `clam review` runs with the offline extractor) and
//! [`llm_extract_and_plan`] (with `--extractor llm`) plan each burst of results on a
//! copy of the workspace, so a slow re-plan never blocks keys or drawing; bursts
//! grow with the re-plan time, like television's matcher. Both run as the
//! workspace's [`super::app::JobKind::Extract`] job and report through its
//! [`Reporter`]. The corpus-level steps (context pass, linker) are the workspace's, so the
//! entities at the end are those of `clam run`. Workers never touch the terminal
//! and stop at the next document when cancelled.

use std::time::{Duration, Instant};

use crate::entity::ExtractedItem;
use crate::extract::Extractor;
use crate::extract::llm::prompts::Pass;
use crate::extract::llm::{LlmEvent, LlmExtractor, Source};

use super::app::{JobEvent, Reporter};

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
/// Blocking: run it as a job.
pub fn extract_and_plan(
    shadow: crate::workspace::Workspace,
    extractor: &(dyn Extractor + Sync),
    jobs: &Reporter,
) -> JobEvent {
    use rayon::prelude::*;
    let docs = shadow.corpus().documents.clone();
    let extract = |(index, doc): (usize, &crate::corpus::Document)| {
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
    };
    // A few documents per core at a time, on every core, handed on in corpus order: the
    // first results show at once and a cancellation stops within a chunk.
    let chunk = rayon::current_num_threads() * 4;
    let indexed: Vec<(usize, &crate::corpus::Document)> = docs.iter().enumerate().collect();
    let results = indexed
        .chunks(chunk.max(1))
        .flat_map(|part| part.par_iter().copied().map(extract).collect::<Vec<_>>());
    plan_results(shadow, results, jobs);
    JobEvent::Extracted
}

/// Runs the LLM extractor's two passes over the corpus of `shadow` on the tokio
/// runtime `rt` and plans what arrives: each document's local pass as soon as it
/// is answered (an interim result), then its final entities after the context
/// pass. Sends the extractor's report (endpoint, fallbacks, dropped items) before
/// the end. Blocking: run it as a job, outside the runtime's own threads.
pub fn llm_extract_and_plan(
    shadow: crate::workspace::Workspace,
    llm: LlmExtractor,
    rt: &tokio::runtime::Handle,
    jobs: &Reporter,
) -> JobEvent {
    let docs = shadow.corpus().documents.clone();
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
    if !plan_results(shadow, results, jobs) {
        task.abort();
        return JobEvent::Extracted;
    }
    match rt.block_on(task) {
        Ok(run) => {
            jobs.send(JobEvent::Llm(Box::new(run.report)));
        }
        Err(e) => tracing::warn!(error = %e, "the LLM extraction task ended abnormally"),
    }
    JobEvent::Extracted
}

/// Plans `results` in bursts on `shadow`: a burst closes when the time since the
/// last plan exceeds twice the last plan's duration (at least 50 ms), so the first
/// documents show at once and a large corpus is not re-planned after every
/// document. Sends `Progress` after each result and `Planned` after each burst.
/// False when cancelled or when the app is gone.
pub fn plan_results(
    mut shadow: crate::workspace::Workspace,
    results: impl Iterator<Item = DocResult>,
    jobs: &Reporter,
) -> bool {
    let total = shadow.corpus().documents.len();
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
        let planned = JobEvent::Planned(Box::new(shadow.take_derived()));
        jobs.send(planned).then(|| started.elapsed())
    };
    for r in results {
        if jobs.cancelled() {
            return false;
        }
        done += usize::from(r.done);
        failed += usize::from(r.failed);
        fallbacks += usize::from(r.fallback);
        burst.push((r.index, r.items));
        let progress = JobEvent::Progress {
            done,
            failed,
            fallbacks,
        };
        if !jobs.send(progress) {
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
