//! Pipeline phases as tracing spans. `let _p = phase("plan");` enters a span named
//! `phase` with the phase's name for as long as the guard lives, and when it is
//! dropped emits one event at target [`TIMING_TARGET`] with the seconds the phase took.
//! The binary routes those events to the log file, and with `CLAM_TIMINGS` set also to
//! stderr as `timing: NAME=SECONDS` (`scripts/scale.sh` reads them).

use std::time::Instant;

/// The target of the timing events.
pub const TIMING_TARGET: &str = "clam::timing";

/// A phase in progress; see the module documentation.
#[must_use = "a phase ends when its guard is dropped"]
pub struct Phase {
    name: &'static str,
    start: Instant,
    _span: tracing::span::EnteredSpan,
}

/// Starts the phase `name`.
pub fn phase(name: &'static str) -> Phase {
    Phase {
        name,
        start: Instant::now(),
        _span: tracing::info_span!("phase", name).entered(),
    }
}

impl Drop for Phase {
    fn drop(&mut self) {
        let seconds = self.start.elapsed().as_secs_f64();
        tracing::info!(target: TIMING_TARGET, phase = self.name, seconds);
    }
}
