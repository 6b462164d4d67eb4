//! The `clam` binary: parses the command line, sets up file logging and dispatches to
//! the library. Exit codes: 0 success, 1 error, 2 usage error, 3 leak check failed,
//! 4 completed but some input documents were skipped.

mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc instead of the system allocator: exporting 100,000 documents allocates and
/// frees millions of small rows on several threads, and glibc's malloc spent up to half
/// of that time consolidating its free lists.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    let _log = commands::init_logging();
    // Panics are reported by color-eyre; `ratatui::init` (in `clam review`) wraps this
    // hook so the terminal is restored before the report is printed.
    let _ = color_eyre::install();
    match commands::dispatch(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            // Errors quote inputs and config values: shown escaped (SPEC §11).
            eprintln!("error: {}", clam::display::escape_text(&format!("{e:#}")));
            if e.downcast_ref::<commands::UsageError>().is_some() {
                return ExitCode::from(commands::EXIT_USAGE);
            }
            ExitCode::from(commands::EXIT_ERROR)
        }
    }
}
