//! Re-plans after a decision (SPEC §9: where a re-plan is slower than a frame it
//! runs off the UI thread and the view says "recomputing"; input never blocks). The
//! decision itself is committed on the UI thread first, so it is acknowledged only
//! once saved; the plan follows from a thread of its own. Fast re-plans (small
//! corpora) stay inline, so the plan is current as soon as the key is handled.

use std::time::{Duration, Instant};

use crate::workspace::{Needs, ReplanDone, WorkspaceError};

use super::{App, JobEvent, JobKind};

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

/// How long the last inline or background re-plan of each kind took.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReplanTimes {
    pub plan: Option<Duration>,
    pub analysis: Option<Duration>,
}

impl App {
    /// Runs what a recorded decision left to compute: inline when that is fast,
    /// else as a job (merged with one already running).
    pub(super) fn after_record(&mut self, needs: Needs) {
        let pending = self.replanning().then_some(self.replan_needs);
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
        // A job already running is superseded: its result would not be installed.
        self.replan_needs = needs;
        self.jobs.start(JobKind::Replan, move |_| {
            JobEvent::Replanned(job.run().map(Box::new))
        });
        self.dirty = true;
    }

    /// True while a decision's re-plan runs off the UI thread.
    pub fn replanning(&self) -> bool {
        self.jobs.is_running(JobKind::Replan)
    }

    /// Installs a finished re-plan job.
    pub(super) fn replan_done(
        &mut self,
        outcome: Result<Box<ReplanDone>, WorkspaceError>,
        took: Duration,
    ) {
        let needs = self.replan_needs;
        match outcome {
            Ok(done) => {
                if self.ws.install_replan(*done) {
                    self.note_time(needs, took);
                    self.refresh();
                    if self.effect.as_ref().is_some_and(|e| e.change.is_none()) {
                        self.settle_effect();
                    }
                } else {
                    // The workspace re-planned inline meanwhile (an extraction burst,
                    // a mode change) on inputs this job did not see: compute again.
                    self.start_replan(needs);
                }
            }
            Err(e) => self.error(format!("re-plan failed: {e}")),
        }
    }
}
