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
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // `--json` anywhere: the usage error as JSON on stdout too.
            if e.use_stderr() && std::env::args_os().any(|a| a == "--json") {
                print_json_error(&commands::errors::clap_report(&e));
            }
            e.exit()
        }
    };
    let json = cli.json();
    let _log = commands::init_logging(cli.verbose);
    // Panics are reported by color-eyre; `ratatui::init` (in `clam review`) wraps this
    // hook so the terminal is restored before the report is printed.
    let _ = color_eyre::install();
    let e = match commands::dispatch(cli) {
        Ok(code) => return ExitCode::from(code),
        Err(e) => e,
    };
    // `clam analyze … | head -1`: the reader left; exit quietly, as Unix tools do.
    if broken_pipe(&e) {
        return ExitCode::SUCCESS;
    }
    // A flag's value out of its range is a usage error, as a value that does not
    // parse is (clap's exit code 2), not a failure of the command.
    let usage = bad_flag_value(&e) || e.downcast_ref::<commands::UsageError>().is_some();
    // Errors quote inputs and config values: shown escaped (SPEC §11).
    eprintln!("error: {}", clam::display::escape_text(&format!("{e:#}")));
    if bad_flag_value(&e) {
        eprintln!("\nFor more information, try '--help'.");
    }
    if json {
        print_json_error(&commands::errors::report(&e));
    }
    ExitCode::from(if usage {
        commands::EXIT_USAGE
    } else {
        commands::EXIT_ERROR
    })
}

/// `{"error": {...}}` on one line of stdout.
fn print_json_error(report: &commands::errors::ErrorReport) {
    if let Ok(text) = serde_json::to_string(&report.to_json()) {
        println!("{}", clam::display::json_escape_unsafe(&text));
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
