//! The `clam` binary: parses the command line, sets up file logging and dispatches to
//! the library. Exit codes: 0 success, 1 error, 2 usage error, 3 leak check failed,
//! 4 completed but some input documents were skipped.

mod cli;
mod commands;

use std::process::ExitCode;

use clap::Parser;

/// mimalloc instead of the system allocator: exporting 100,000 documents allocates and
/// frees millions of small rows on several threads, and glibc's malloc spent up to half
/// of that time consolidating its free lists. Built without transparent huge pages
/// (`no_thp`): with them the kernel zeroed 2 MiB pages that a short command touched a
/// few KiB of (half of `clam plan`'s samples on a 1,000-document snapshot; peak memory
/// 51 → 37 MB there, 351 → 301 MB for `clam run` on 10,000 documents, the same time).
/// `--features system-alloc` keeps the system allocator, for heap profilers
/// (heaptrack, valgrind) that hook malloc.
#[cfg(not(feature = "system-alloc"))]
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
        // `clam analyze … | head -1`: the reader left; exit quietly, as Unix tools do.
        Err(e) if broken_pipe(&e) => ExitCode::SUCCESS,
        // A flag's value out of its range is a usage error, as a value that does not
        // parse is (clap's exit code 2), not a failure of the command.
        Err(e) if bad_flag_value(&e) => {
            eprintln!(
                "error: {}\n\nFor more information, try '--help'.",
                clam::display::escape_text(&format!("{e:#}"))
            );
            ExitCode::from(commands::EXIT_USAGE)
        }
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

/// The error is a write to a closed pipe (directly, or inside a JSON writer's error).
fn broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind)
                == Some(std::io::ErrorKind::BrokenPipe)
    })
}

/// The error is a command-line flag's value that the configuration refused.
fn bad_flag_value(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        matches!(
            c.downcast_ref::<clam::config::ConfigError>(),
            Some(clam::config::ConfigError::Invalid { origin, .. }) if origin == "command line"
        )
    })
}
