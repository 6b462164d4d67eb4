//! Re-plans after a decision (SPEC §9: where a re-plan is slower than a frame it
//! runs off the UI thread and the view says "recomputing"; input never blocks). The
//! decision itself is committed on the UI thread first, so it is acknowledged only
//! once saved; the plan follows from a thread of its own. Fast re-plans (small
//! corpora) stay inline, so the plan is current as soon as the key is handled.

use std::sync::mpsc::{Receiver, TryRecvError};
use std::time::{Duration, Instant};

use crate::workspace::{Needs, ReplanDone, WorkspaceError};

use super::App;

/// When decisions re-plan off the UI thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DeferReplans {
    /// When the last re-plan of that kind took longer than a frame.
    #[default]
    Auto,
    /// Always (tests).
    Always,
    /// Never (tests, benchmarks).
    Never,
}

/// A re-plan running on its own thread.
#[derive(Debug)]
pub struct ReplanTask {
    pub needs: Needs,
    started: Instant,
    rx: Receiver<Result<ReplanDone, WorkspaceError>>,
}

/// How long the last inline or background re-plan of each kind took.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReplanTimes {
    pub plan: Option<Duration>,
    pub analysis: Option<Duration>,
}

impl App {
    /// Runs what a recorded decision left to compute: inline when that is fast,
    /// else on a thread (merged with one already running).
    pub(super) fn after_record(&mut self, needs: Needs) {
        let pending = self.replan.as_ref().map(|t| t.needs);
        let needs = needs.max(pending.unwrap_or(Needs::Nothing));
        if needs == Needs::Nothing {
            return;
        }
        if pending.is_some() || self.defer(needs) {
            return self.start_replan(needs);
        }
        let started = Instant::now();
        let result = self.ws.compute(needs);
        self.note_time(needs, started.elapsed());
        if let Err(e) = result {
            self.error(format!("re-plan failed: {e}"));
        }
    }

    fn defer(&self, needs: Needs) -> bool {
        let frame = super::super::FRAME;
        match self.defer_replans {
            DeferReplans::Always => true,
            DeferReplans::Never => false,
            DeferReplans::Auto => match needs {
                Needs::Nothing => false,
                // Before the first plan-only re-plan is measured, a full one (the
                // extraction's) that took three frames says the plan alone is slow.
                Needs::Plan => self
                    .replan_times
                    .plan
                    .map_or(self.last_replan > 3 * frame, |d| d > frame),
                Needs::Analysis => self.replan_times.analysis.unwrap_or(self.last_replan) > frame,
            },
        }
    }

    fn note_time(&mut self, needs: Needs, d: Duration) {
        match needs {
            Needs::Nothing => {}
            Needs::Plan => self.replan_times.plan = Some(d),
            Needs::Analysis => self.replan_times.analysis = Some(d),
        }
    }

    fn start_replan(&mut self, needs: Needs) {
        let job = self.ws.replan_job(needs);
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(job.run());
        });
        // A task already running is superseded: its result would not be installed.
        self.replan = Some(ReplanTask {
            needs,
            started: Instant::now(),
            rx,
        });
        self.dirty = true;
    }

    /// True while a decision's re-plan runs off the UI thread.
    pub fn replanning(&self) -> bool {
        self.replan.is_some()
    }

    /// Installs a finished background re-plan; true when the views changed.
    pub fn poll_replan(&mut self) -> bool {
        let Some(task) = &self.replan else {
            return false;
        };
        let (needs, started) = (task.needs, task.started);
        let outcome = match task.rx.try_recv() {
            Ok(r) => r,
            Err(TryRecvError::Empty) => return false,
            Err(TryRecvError::Disconnected) => {
                self.replan = None;
                self.error("re-plan failed: its thread stopped".into());
                return true;
            }
        };
        self.replan = None;
        match outcome {
            Ok(done) => {
                if self.ws.install_replan(done) {
                    self.note_time(needs, started.elapsed());
                    self.refresh();
                } else {
                    // The workspace re-planned inline meanwhile (an extraction burst,
                    // a mode change) on inputs this task did not see: compute again.
                    self.start_replan(needs);
                }
            }
            Err(e) => self.error(format!("re-plan failed: {e}")),
        }
        self.dirty = true;
        true
    }

    /// Waits (at most `timeout`) for a background re-plan to be installed.
    pub fn wait_replan(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.replan.is_some() && Instant::now() < deadline {
            if !self.poll_replan() {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
    }
}
