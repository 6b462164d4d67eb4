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
        let (rss_mb, peak_mb) = memory_mb();
        tracing::info!(target: TIMING_TARGET, phase = self.name, seconds, rss_mb, peak_mb);
    }
}

/// The process's resident and peak resident memory in MiB at this moment (Linux:
/// `VmRSS` and `VmHWM` of `/proc/self/status`; 0 where they cannot be read).
pub fn memory_mb() -> (u64, u64) {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return (0, 0);
    };
    let field = |name: &str| -> u64 {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}
