//! The workspace's one job system (gitui's asyncgit is the model): every piece of
//! background work — extraction with its bursts of plans, a decision's re-plan, a
//! what-if candidate, a sweep, the gold pane's measurement, an export — is a job of
//! a [`JobKind`], started through [`Jobs::start`] on a thread of its own, and
//! reports [`JobMsg`]s on one channel that the event loop reads in its `select!`
//! (tests read the same channel with [`Jobs::recv_timeout`]).
//!
//! Each job carries a generation number and a cancellation token. Starting a job of
//! a kind supersedes the one of that kind still running: its token is cancelled (a
//! long job stops at its next check) and whatever it still reports is dropped by
//! [`Jobs::accept`], so only the newest job of each kind is ever installed. Work
//! that fits in a frame (a small corpus's re-plan, a planner-only candidate) runs
//! on the UI thread instead and is installed as it returns.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};
use tokio_util::sync::CancellationToken;

use crate::eval::{PrivacyReport, UtilityReport};
use crate::extract::llm::LlmReport;
use crate::whatif::{Candidate, PlanDiff, SweepRow};
use crate::workspace::{Derived, ReplanDone, WorkspaceError};

use super::ExportOutcome;

/// The kinds of background work; at most one job of each kind counts at a time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum JobKind {
    /// Extraction of the corpus, planned in bursts as documents arrive.
    Extract,
    /// A decision's re-plan.
    Replan,
    /// The what-if pane's candidate plan and its diff.
    Candidate,
    /// The what-if pane's sweep chart.
    Sweep,
    /// The gold pane's leak rate and utility of the plan in effect.
    Gold,
    /// An export with its leak check.
    Export,
}

/// What a job reports. Extraction reports as it goes and ends with
/// [`JobEvent::Extracted`]; every other job reports once, at its end.
#[derive(Debug)]
pub enum JobEvent {
    /// Extraction: documents extracted so far (how many failed, how many the LLM
    /// extractor left to the offline recognizers).
    Progress {
        done: usize,
        failed: usize,
        fallbacks: usize,
    },
    /// Extraction: entities, analysis and plan of the documents extracted so far.
    Planned(Box<Derived>),
    /// Extraction: the LLM extractor's report (endpoint, fallbacks, dropped items).
    Llm(Box<LlmReport>),
    /// Extraction has finished.
    Extracted,
    /// A decision's re-plan.
    Replanned(Result<Box<ReplanDone>, WorkspaceError>),
    /// The candidate and its diff against the plan in effect.
    Candidate(Result<Box<(Candidate, PlanDiff)>, String>),
    /// The sweep chart's rows.
    Sweep(Result<Vec<SweepRow>, String>),
    /// The gold pane's figures.
    Gold(Box<(PrivacyReport, UtilityReport)>),
    /// An export's outcome as the dialog shows it.
    Exported(ExportOutcome),
}

impl JobEvent {
    /// True for the last report of a job.
    pub fn is_final(&self) -> bool {
        !matches!(
            self,
            JobEvent::Progress { .. } | JobEvent::Planned(_) | JobEvent::Llm(_)
        )
    }
}

/// A report of a job, tagged with its kind and generation.
#[derive(Debug)]
pub struct JobMsg {
    pub kind: JobKind,
    pub generation: u64,
    /// Time since the job started.
    pub took: Duration,
    pub event: JobEvent,
}

/// What a running job holds: where to report, and whether it has been cancelled.
#[derive(Debug, Clone)]
pub struct Reporter {
    kind: JobKind,
    generation: u64,
    started: Instant,
    cancel: CancellationToken,
    tx: UnboundedSender<JobMsg>,
}

impl Reporter {
    /// Reports `event`; false when the job was cancelled or the app is gone, so
    /// the job can stop.
    pub fn send(&self, event: JobEvent) -> bool {
        if self.cancel.is_cancelled() {
            return false;
        }
        self.tx
            .send(JobMsg {
                kind: self.kind,
                generation: self.generation,
                took: self.started.elapsed(),
                event,
            })
            .is_ok()
    }

    /// True once a newer job of the same kind started or the app quit.
    pub fn cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }
}

#[derive(Debug)]
struct Running {
    generation: u64,
    cancel: CancellationToken,
}

/// The jobs running for the workspace and the channel they report on.
#[derive(Debug)]
pub struct Jobs {
    tx: UnboundedSender<JobMsg>,
    rx: UnboundedReceiver<JobMsg>,
    running: BTreeMap<JobKind, Running>,
    generation: u64,
}

impl Default for Jobs {
    fn default() -> Self {
        let (tx, rx) = unbounded_channel();
        Jobs {
            tx,
            rx,
            running: BTreeMap::new(),
            generation: 0,
        }
    }
}

impl Jobs {
    /// Starts `work` on a thread of its own as the newest job of `kind` (the one
    /// of that kind still running is cancelled and its reports dropped). What
    /// `work` returns is the job's final report.
    pub fn start<F>(&mut self, kind: JobKind, work: F) -> u64
    where
        F: FnOnce(&Reporter) -> JobEvent + Send + 'static,
    {
        let reporter = self.begin(kind);
        let generation = reporter.generation;
        let spawned = std::thread::Builder::new()
            .name(format!("clam-{kind:?}").to_lowercase())
            .spawn(move || {
                let event = work(&reporter);
                reporter.send(event);
            });
        if let Err(e) = spawned {
            // No thread: the job is dropped (and logged), so nothing waits for it.
            self.running.remove(&kind);
            tracing::warn!(?kind, error = %e, "could not start a background job");
        }
        generation
    }

    /// Cancels the job of `kind` still running and registers a new one.
    fn begin(&mut self, kind: JobKind) -> Reporter {
        self.cancel(kind);
        self.generation += 1;
        let cancel = CancellationToken::new();
        self.running.insert(
            kind,
            Running {
                generation: self.generation,
                cancel: cancel.clone(),
            },
        );
        Reporter {
            kind,
            generation: self.generation,
            started: Instant::now(),
            cancel,
            tx: self.tx.clone(),
        }
    }

    /// Cancels the job of `kind`, if one runs: it stops at its next check and what
    /// it still reports is dropped.
    pub fn cancel(&mut self, kind: JobKind) {
        if let Some(r) = self.running.remove(&kind) {
            r.cancel.cancel();
        }
    }

    /// Cancels every job (the app is quitting).
    pub fn cancel_all(&mut self) {
        for (_, r) in std::mem::take(&mut self.running) {
            r.cancel.cancel();
        }
    }

    /// True when `msg` comes from the newest job of its kind (else it is dropped);
    /// a final report ends the job.
    pub fn accept(&mut self, msg: &JobMsg) -> bool {
        let current = self
            .running
            .get(&msg.kind)
            .is_some_and(|r| r.generation == msg.generation);
        if current && msg.event.is_final() {
            self.running.remove(&msg.kind);
        }
        current
    }

    /// True while a job of `kind` runs.
    pub fn is_running(&self, kind: JobKind) -> bool {
        self.running.contains_key(&kind)
    }

    /// True while any job runs.
    pub fn any_running(&self) -> bool {
        !self.running.is_empty()
    }

    /// The next report (the event loop's `select!` branch).
    pub async fn recv(&mut self) -> Option<JobMsg> {
        self.rx.recv().await
    }

    /// A report already waiting, if any.
    pub fn try_recv(&mut self) -> Option<JobMsg> {
        self.rx.try_recv().ok()
    }

    /// The next report, waiting at most until `deadline` (tests and benchmarks,
    /// which drive the app without its event loop).
    pub fn recv_timeout(&mut self, deadline: Instant) -> Option<JobMsg> {
        loop {
            if let Ok(m) = self.rx.try_recv() {
                return Some(m);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wait(jobs: &mut Jobs) -> Vec<JobMsg> {
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut out = Vec::new();
        while jobs.any_running() {
            let Some(m) = jobs.recv_timeout(deadline) else {
                break;
            };
            if jobs.accept(&m) {
                out.push(m);
            }
        }
        out
    }

    #[test]
    fn a_newer_job_of_a_kind_supersedes_the_older_one() {
        let mut jobs = Jobs::default();
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let (seen_tx, seen_rx) = std::sync::mpsc::channel::<bool>();
        // The first job waits until the second has started, then reports.
        jobs.start(JobKind::Sweep, move |r| {
            let _ = go_rx.recv();
            let _ = seen_tx.send(r.cancelled());
            JobEvent::Sweep(Ok(Vec::new()))
        });
        let second = jobs.start(JobKind::Sweep, |_| JobEvent::Sweep(Err("newest".into())));
        let _ = go_tx.send(());
        assert_eq!(
            seen_rx.recv_timeout(Duration::from_secs(10)),
            Ok(true),
            "a superseded job sees its token cancelled"
        );
        let got = wait(&mut jobs);
        assert_eq!(got.len(), 1, "{got:?}");
        assert_eq!(got[0].generation, second);
        assert!(matches!(&got[0].event, JobEvent::Sweep(Err(e)) if e == "newest"));
        assert!(!jobs.is_running(JobKind::Sweep));
    }

    #[test]
    fn jobs_of_different_kinds_run_side_by_side() {
        let mut jobs = Jobs::default();
        jobs.start(JobKind::Sweep, |_| JobEvent::Sweep(Ok(Vec::new())));
        jobs.start(JobKind::Candidate, |_| {
            JobEvent::Candidate(Err("no candidate".into()))
        });
        let kinds: Vec<JobKind> = wait(&mut jobs).iter().map(|m| m.kind).collect();
        assert!(kinds.contains(&JobKind::Sweep) && kinds.contains(&JobKind::Candidate));
    }

    #[test]
    fn progress_keeps_a_job_running_until_its_final_report() {
        let mut jobs = Jobs::default();
        jobs.start(JobKind::Extract, |r| {
            for done in 1..=3 {
                r.send(JobEvent::Progress {
                    done,
                    failed: 0,
                    fallbacks: 0,
                });
            }
            JobEvent::Extracted
        });
        let got = wait(&mut jobs);
        assert_eq!(got.len(), 4);
        assert!(matches!(got[3].event, JobEvent::Extracted));
    }

    #[test]
    fn a_cancelled_job_reports_nothing() {
        let mut jobs = Jobs::default();
        let (go_tx, go_rx) = std::sync::mpsc::channel::<()>();
        let (sent_tx, sent_rx) = std::sync::mpsc::channel::<bool>();
        jobs.start(JobKind::Export, move |r| {
            let _ = go_rx.recv();
            let _ = sent_tx.send(r.send(JobEvent::Extracted));
            JobEvent::Exported(ExportOutcome::Failed("late".into()))
        });
        jobs.cancel(JobKind::Export);
        let _ = go_tx.send(());
        assert!(!jobs.any_running());
        assert_eq!(
            sent_rx.recv_timeout(Duration::from_secs(10)),
            Ok(false),
            "a cancelled job cannot report"
        );
        let deadline = Instant::now() + Duration::from_millis(200);
        while let Some(m) = jobs.recv_timeout(deadline) {
            assert!(!jobs.accept(&m), "dropped: {m:?}");
        }
    }
}
