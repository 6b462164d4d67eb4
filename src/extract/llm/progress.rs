//! A progress line on stderr (bar, rate, ETA), drawn only when stderr is a terminal.
//! It is one consumer of the extractor's event channel; the terminal UI is another.

use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

use tokio::sync::mpsc::UnboundedReceiver;

use super::{LlmError, LlmEvent, LlmExtractor, LlmRun, Source};
use crate::corpus::Document;

/// The line for `done` of `total` passes after `elapsed`.
pub fn line(done: usize, total: usize, elapsed: Duration, fallbacks: usize) -> String {
    const WIDTH: usize = 24;
    let total = total.max(1);
    let filled = (done * WIDTH / total).min(WIDTH);
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { done as f64 / secs } else { 0.0 };
    let eta = if rate > 0.0 && done < total {
        let s = ((total - done) as f64 / rate).round() as u64;
        format!("{}:{:02}", s / 60, s % 60)
    } else {
        "--:--".into()
    };
    let mut out = format!(
        "LLM [{}{}] {done}/{total} passes · {rate:.1}/s · ETA {eta}",
        "#".repeat(filled),
        "-".repeat(WIDTH - filled),
    );
    if fallbacks > 0 {
        out.push_str(&format!(" · {fallbacks} fallback(s)"));
    }
    out
}

fn draw(mut rx: UnboundedReceiver<LlmEvent>) {
    let start = Instant::now();
    let (mut done, mut total, mut fallbacks) = (0, 0, 0);
    let mut last = Instant::now() - Duration::from_secs(1);
    let mut err = std::io::stderr();
    while let Some(event) = rx.blocking_recv() {
        match event {
            LlmEvent::Started { passes, .. } => total = passes,
            LlmEvent::Pass { .. } => done += 1,
            LlmEvent::Document { report, .. } => {
                if report.source == Source::Fallback {
                    fallbacks += 1;
                }
            }
        }
        if last.elapsed() >= Duration::from_millis(100) || done == total {
            let _ = write!(
                err,
                "\r\x1b[2K{}",
                line(done, total, start.elapsed(), fallbacks)
            );
            let _ = err.flush();
            last = Instant::now();
        }
    }
    let _ = writeln!(err);
}

/// Runs the extractor, with a progress line when stderr is a terminal.
pub fn run_with_progress(ex: &LlmExtractor, docs: &[Document]) -> Result<LlmRun, LlmError> {
    if !std::io::stderr().is_terminal() {
        return ex.run_blocking(docs, None);
    }
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let drawer = std::thread::spawn(move || draw(rx));
    let run = ex.run_blocking(docs, Some(tx));
    let _ = drawer.join();
    run
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_shows_rate_and_eta() {
        let l = line(10, 40, Duration::from_secs(5), 1);
        assert!(l.contains("10/40 passes"), "{l}");
        assert!(l.contains("2.0/s"), "{l}");
        assert!(l.contains("ETA 0:15"), "{l}");
        assert!(l.contains("1 fallback"), "{l}");
        assert!(line(0, 0, Duration::ZERO, 0).contains("ETA --:--"));
    }
}
