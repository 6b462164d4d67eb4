//! How the app starts its jobs and installs what they report (the job system itself is [`super::Jobs`]).

use super::*;

impl App {
    /// Extracts the corpus with `extractor` as a job, planning each burst of
    /// results off the UI thread (what `clam review` starts).
    pub fn start_extraction(&mut self, extractor: Box<dyn crate::extract::Extractor>) {
        self.start_extract_job(move |shadow, r| {
            crate::tui::worker::extract_and_plan(shadow, extractor.as_ref(), r)
        });
    }

    /// Extracts the corpus with the LLM extractor as a job; its requests run on
    /// the tokio runtime `rt`.
    pub fn start_llm_extraction(
        &mut self,
        llm: crate::extract::llm::LlmExtractor,
        rt: tokio::runtime::Handle,
    ) {
        self.start_extract_job(move |shadow, r| {
            crate::tui::worker::llm_extract_and_plan(shadow, llm, &rt, r)
        });
    }

    /// Starts `work` as the extraction job on a copy of the workspace.
    fn start_extract_job<F>(&mut self, work: F)
    where
        F: FnOnce(crate::workspace::Workspace, &Reporter) -> JobEvent + Send + 'static,
    {
        let Ok(shadow) = self.ws.shadow() else {
            return self.error("extraction could not start: the workspace has no entities".into());
        };
        self.progress.started = Instant::now();
        self.jobs.start(JobKind::Extract, move |r| work(shadow, r));
    }

    /// Installs what a job reported (reports of superseded jobs are dropped).
    pub fn on_job(&mut self, msg: JobMsg) {
        if !self.jobs.accept(&msg) {
            return;
        }
        match msg.event {
            JobEvent::Progress {
                done,
                failed,
                fallbacks,
            } => {
                self.progress.done = done;
                self.progress.failed = failed;
                self.progress.fallbacks = fallbacks;
            }
            JobEvent::Llm(report) => self.ws.set_llm_report(Some(*report)),
            JobEvent::Planned(derived) => {
                let started = Instant::now();
                if let Err(e) = self.ws.install(*derived) {
                    self.error(format!("re-plan failed: {e}"));
                }
                self.refresh();
                self.last_replan = started.elapsed();
            }
            JobEvent::Extracted => {
                self.progress.done = self.progress.total;
                self.progress.finished = Some(self.progress.started.elapsed());
            }
            JobEvent::Replanned(r) => self.replan_done(r, msg.took),
            JobEvent::Candidate(r) => self.candidate_done(r, msg.took),
            JobEvent::Sweep(r) => self.sweep_done(r),
            JobEvent::Gold(report) => self.gold_done(*report),
            JobEvent::Exported(outcome) => self.export_done(outcome),
        }
        self.dirty = true;
    }

    /// Installs every report already waiting; true when there was one.
    pub fn pump_jobs(&mut self) -> bool {
        let mut any = false;
        while let Some(m) = self.jobs.try_recv() {
            self.on_job(m);
            any = true;
        }
        any
    }

    /// Installs reports until no job runs, waiting at most `timeout` (tests and
    /// benchmarks, which drive the app without its event loop).
    pub fn wait_jobs(&mut self, timeout: Duration) {
        let deadline = Instant::now() + timeout;
        while self.jobs.any_running() {
            match self.jobs.recv_timeout(deadline) {
                Some(m) => self.on_job(m),
                None => return,
            }
        }
    }
}
