//! Progress on stderr: one bar at a time, with a rate and an ETA, for each stage the
//! library reports (`clam::progress`: loading, extracting, sweeping), the LLM
//! extractor's passes and the export's second scan; a spinner with the elapsed time for
//! stages of unknown length (the corpus-level passes, analysis and planning, the rest of
//! the export). Drawn (with indicatif) only when stderr is a terminal and `--quiet` is
//! not given; otherwise nothing at all is written, so logs and pipes stay clean.
//! Warnings are printed between stages, once the bar is cleared.

use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use clam::corpus::Document;
use clam::entity::ExtractedItem;
use clam::extract::llm::{LlmError, LlmEvent, LlmExtractor, LlmRun, Source};
use clam::extract::{ExtractError, Extractor};
use clam::progress::{Progress, Unit};

/// The bar of the current stage, if progress is shown.
pub struct Bars {
    shown: bool,
    bar: Mutex<Option<ProgressBar>>,
}

impl Bars {
    /// Progress shown when `shown` (stderr is a terminal and `--quiet` was not given).
    pub fn new(shown: bool) -> Self {
        Bars {
            shown,
            bar: Mutex::new(None),
        }
    }

    /// Bars for a run of the command line: on stderr when it is a terminal, unless quiet.
    pub fn for_stderr(quiet: bool) -> Self {
        use std::io::IsTerminal;
        Bars::new(!quiet && std::io::stderr().is_terminal())
    }

    /// Whether anything is drawn.
    pub fn shown(&self) -> bool {
        self.shown
    }

    /// A stage of unknown length: a spinner with the elapsed time.
    pub fn spinner(&self, name: &'static str) {
        self.stage(name, 0, Unit::Documents);
    }

    /// Clears the bar (before a warning or the command's summary is printed).
    pub fn clear(&self) {
        if let Some(bar) = self.take() {
            bar.finish_and_clear();
        }
    }

    /// Replaces the current bar's message.
    fn message(&self, text: String) {
        if let Some(bar) = self.current() {
            bar.set_message(text);
        }
    }

    fn current(&self) -> Option<ProgressBar> {
        self.bar.lock().ok().and_then(|b| b.clone())
    }

    fn take(&self) -> Option<ProgressBar> {
        self.bar.lock().ok().and_then(|mut b| b.take())
    }

    fn start(&self, bar: ProgressBar) {
        if let Ok(mut slot) = self.bar.lock()
            && let Some(old) = slot.replace(bar)
        {
            old.finish_and_clear();
        }
    }
}

impl Drop for Bars {
    fn drop(&mut self) {
        self.clear();
    }
}

/// The template of a stage counted in `unit` (a spinner when its total is unknown).
/// The bar takes what the terminal's width leaves.
fn template(unit: Unit, total: u64) -> &'static str {
    if total == 0 {
        return "{spinner} {msg} {elapsed}";
    }
    match unit {
        Unit::Documents => {
            "{msg:>10} [{wide_bar}] {human_pos}/{human_len} docs · {rate} · ETA {eta}"
        }
        Unit::Bytes => {
            "{msg:>10} [{wide_bar}] {binary_bytes}/{binary_total_bytes} · {binary_bytes_per_sec} · ETA {eta}"
        }
        Unit::Values => "{msg:>10} [{wide_bar}] {pos}/{len} values · {rate} · ETA {eta}",
        Unit::Passes => "{msg:>10} [{wide_bar}] {pos}/{len} passes · {rate} · ETA {eta}",
    }
}

/// Steps per second, as a whole number ("1,234/s"; one decimal below 10).
fn rate(state: &ProgressState, w: &mut dyn std::fmt::Write) {
    let r = state.per_sec();
    let _ = if r < 10.0 {
        write!(w, "{r:.1}/s")
    } else {
        write!(w, "{}/s", HumanCount(r as u64))
    };
}

impl Progress for Bars {
    fn stage(&self, name: &'static str, total: u64, unit: Unit) {
        if !self.shown {
            return;
        }
        let length = (total > 0).then_some(total);
        let bar = ProgressBar::with_draw_target(length, ProgressDrawTarget::stderr());
        let style = ProgressStyle::with_template(template(unit, total))
            .map(|s| s.progress_chars("=> ").with_key("rate", rate))
            .unwrap_or_else(|_| ProgressStyle::default_bar());
        bar.set_style(style);
        bar.set_message(name);
        // Redrawn every 100 ms even when no step ends (a spinner; a slow LLM pass).
        bar.enable_steady_tick(Duration::from_millis(100));
        self.start(bar);
    }

    fn advance(&self, n: u64) {
        if !self.shown {
            return;
        }
        if let Some(bar) = self.current() {
            bar.inc(n);
        }
    }
}

/// Runs the LLM extractor, drawing its passes (and fallbacks) from its event channel.
pub fn run_llm(ex: &LlmExtractor, docs: &[Document], bars: &Bars) -> Result<LlmRun, LlmError> {
    if !bars.shown() {
        return ex.run_blocking(docs, None);
    }
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    std::thread::scope(|s| {
        s.spawn(|| {
            let mut fallbacks = 0usize;
            while let Some(event) = rx.blocking_recv() {
                match event {
                    LlmEvent::Started { passes, .. } => {
                        bars.stage("LLM", passes as u64, Unit::Passes);
                    }
                    LlmEvent::Pass { .. } => bars.advance(1),
                    LlmEvent::Document { report, .. } => {
                        if report.source == Source::Fallback {
                            fallbacks += 1;
                            bars.message(format!("LLM ({fallbacks} fallback(s))"));
                        }
                    }
                }
            }
        });
        // The channel closes when the run returns and drops its sender.
        ex.run_blocking(docs, Some(tx))
    })
}

/// The export's second scan (the offline recognizers over every redacted document),
/// counted: the export calls the scanner once per document, after redacting them all
/// and before writing the manifest, so its calls draw the export's middle stage.
pub struct CountedScan<'a, E: Extractor> {
    inner: &'a E,
    bars: &'a Bars,
    total: u64,
    started: AtomicU64,
    finished: AtomicU64,
}

impl<'a, E: Extractor> CountedScan<'a, E> {
    pub fn new(inner: &'a E, bars: &'a Bars, total: usize) -> Self {
        CountedScan {
            inner,
            bars,
            total: total as u64,
            started: AtomicU64::new(0),
            finished: AtomicU64::new(0),
        }
    }
}

impl<E: Extractor> Extractor for CountedScan<'_, E> {
    fn name(&self) -> &str {
        self.inner.name()
    }

    fn extract(&self, doc: &Document) -> Result<Vec<ExtractedItem>, ExtractError> {
        if self.started.fetch_add(1, Ordering::Relaxed) == 0 {
            self.bars.stage("scanning", self.total, Unit::Documents);
        }
        let items = self.inner.extract(doc);
        self.bars.advance(1);
        if self.finished.fetch_add(1, Ordering::Relaxed) + 1 == self.total {
            self.bars
                .spinner("writing the manifest and checking for leaks");
        }
        items
    }
}
