//! The headless commands.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};

use clam::Config;
use clam::config::{ConfigSources, resolve};
use clam::corpus::{self, Corpus, LoadOptions};
use clam::display::escape_line;
use clam::export::{ExportError, ExportOptions};
use clam::extract::llm::{LlmExtractor, LlmOptions, LlmReport, Source as LlmSource};
use clam::extract::offline::OfflineExtractor;
use clam::session::{Session, default_session_path};
use clam::snapshot::{Snapshot, SnapshotDoc, SnapshotEntity};
use clam::workspace::{ExportOnly, Workspace, extract_all_with};
use std::borrow::Borrow;

use progress::Bars;

use crate::cli::{
    AnalyzeArgs, CacheCommand, Cli, Command, ConfigCommand, CorpusArgs, DecideArgs, EvalArgs,
    ExtractArgs, ExtractorArgs, ExtractorKind, GenCorpusArgs, GoldCommand, PlanArgs, PlanningArgs,
    ReviewArgs, RunArgs, SessionCommand, SweepArgs,
};

pub const EXIT_OK: u8 = 0;
pub const EXIT_ERROR: u8 = 1;
pub const EXIT_USAGE: u8 = 2;
pub const EXIT_LEAK: u8 = 3;
pub const EXIT_SKIPPED: u8 = 4;

/// A usage error found after parsing (a combination of flags or files clap cannot
/// check): printed as `error: …` and exits with [`EXIT_USAGE`], as clap's own do.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}

mod analyze;
mod decide;
pub mod errors;
mod eval;
mod extract;
mod gen_corpus;
mod gold;
mod meta;
mod plan;
mod progress;
mod review;
mod run;
mod sweep;

/// Logs go to `<data dir>/logs/clam.log` (owner-only). `--verbose` (or `CLAM_TIMINGS`)
/// writes the pipeline's phase timings (`clam::phase`) to stderr as
/// `timing: NAME=SECONDS rss=MB peak=MB`; `-vv` also the log's events at info level,
/// `-vvv` at debug. Returns None when nothing could be set up.
pub fn init_logging(verbose: u8) -> Option<()> {
    use tracing_subscriber::Layer as _;
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let file_layer = log_file().map(|file| {
        let filter = tracing_subscriber::EnvFilter::try_from_env("CLAM_LOG")
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
        tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_writer(std::sync::Mutex::new(file))
            .with_filter(filter)
    });
    let timings =
        (verbose > 0 || std::env::var_os("CLAM_TIMINGS").is_some()).then_some(TimingsToStderr);
    // Events on stderr (`-vv`): the timing events have their own lines above.
    let events = (verbose > 1).then(|| {
        let level = if verbose > 2 { "debug" } else { "info" };
        tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_writer(std::io::stderr)
            .with_target(false)
            .without_time()
            .with_filter(tracing_subscriber::filter::filter_fn(|m| {
                m.target() != clam::phase::TIMING_TARGET
            }))
            .with_filter(tracing_subscriber::EnvFilter::new(format!("clam={level}")))
    });
    if file_layer.is_none() && timings.is_none() && events.is_none() {
        return None;
    }
    tracing_subscriber::registry()
        .with(file_layer)
        .with(timings)
        .with(events)
        .try_init()
        .ok()
}

/// The log file, created owner-only.
fn log_file() -> Option<std::fs::File> {
    let dirs = directories::ProjectDirs::from("", "", "clam")?;
    let dir = dirs.data_dir().join("logs");
    std::fs::create_dir_all(&dir).ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700));
    }
    let path = dir.join("clam.log");
    let file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .ok()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600));
    }
    Some(file)
}

/// Writes each phase timing event (`clam::phase`) to stderr as `timing: NAME=SECONDS rss=MB peak=MB`.
struct TimingsToStderr;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for TimingsToStderr {
    fn on_event(&self, event: &tracing::Event<'_>, _: tracing_subscriber::layer::Context<'_, S>) {
        if event.metadata().target() != clam::phase::TIMING_TARGET {
            return;
        }
        #[derive(Default)]
        struct Fields {
            phase: String,
            seconds: f64,
            rss_mb: u64,
            peak_mb: u64,
        }
        impl tracing::field::Visit for Fields {
            fn record_f64(&mut self, field: &tracing::field::Field, value: f64) {
                if field.name() == "seconds" {
                    self.seconds = value;
                }
            }
            fn record_u64(&mut self, field: &tracing::field::Field, value: u64) {
                match field.name() {
                    "rss_mb" => self.rss_mb = value,
                    "peak_mb" => self.peak_mb = value,
                    _ => {}
                }
            }
            fn record_str(&mut self, field: &tracing::field::Field, value: &str) {
                if field.name() == "phase" {
                    self.phase = value.to_string();
                }
            }
            fn record_debug(&mut self, _: &tracing::field::Field, _: &dyn std::fmt::Debug) {}
        }
        let mut f = Fields::default();
        event.record(&mut f);
        eprintln!(
            "timing: {}={:.2} rss={}MB peak={}MB",
            f.phase, f.seconds, f.rss_mb, f.peak_mb
        );
    }
}

pub fn dispatch(cli: Cli) -> Result<u8> {
    let actor = cli
        .actor
        .clone()
        .unwrap_or_else(clam::session::default_actor);
    tracing::info!(command = cli.command.name(), %actor, "start");
    let bars = Bars::for_stderr(cli.quiet);
    let result = dispatch_command(cli.command, actor, &bars);
    // The sessions of corpora read from stdin live only as long as the command.
    if let Ok(mut dirs) = EPHEMERAL_SESSIONS.lock() {
        dirs.clear();
    }
    result
}

fn dispatch_command(command: Command, actor: String, bars: &Bars) -> Result<u8> {
    match command {
        Command::Run(a) => run::run(a, bars),
        Command::Analyze(a) => analyze::analyze(a, bars),
        Command::Extract(a) => extract::extract(a, bars),
        Command::Plan(a) => plan::plan(a, bars),
        Command::Eval(a) => eval::eval(a, bars),
        Command::Sweep(a) => sweep::sweep(a, bars),
        Command::GenCorpus(a) => gen_corpus::gen_corpus(a, bars),
        Command::Cache(CacheCommand::Clear) => {
            let cache = clam::extract::llm::cache::Cache::new(
                clam::extract::llm::cache::default_cache_dir(),
            );
            let n = cache.clear()?;
            match cache.dir() {
                Some(d) => eprintln!("removed {n} cached LLM response(s) from {}", d.display()),
                None => eprintln!("this platform has no user cache directory; nothing to clear"),
            }
            Ok(EXIT_OK)
        }
        Command::Review(a) => review::review(a, actor, bars),
        Command::Decide(a) => decide::decide(a, &actor, bars),
        Command::Config(ConfigCommand::Show(a)) => meta::config_show(a),
        Command::Init(a) => meta::init(a),
        Command::Completions { shell } => meta::completions(shell),
        Command::Man { out } => meta::man(out),
        Command::Gold(g) => gold::gold(g, actor, bars),
        Command::Session(SessionCommand::Export {
            corpus,
            file,
            session,
        }) => {
            let path = match session {
                Some(p) => p,
                None if corpus::is_stdin(&corpus) => return Err(UsageError(
                    "a corpus read from stdin (`-`) has no session of its own; pass --session FILE"
                        .into(),
                )
                .into()),
                None => default_session_path(&corpus)
                    .context("this platform has no user data directory; pass --session")?,
            };
            if !path.is_file() {
                bail!("{}: no session for this corpus yet", path.display());
            }
            Session::open(&path)?.export_to(&file)?;
            eprintln!("session written to {}", file.display());
            Ok(EXIT_OK)
        }
    }
}

/// The folder whose clam.toml applies to a corpus path (none for stdin).
fn corpus_dir(corpus: &Path) -> Option<PathBuf> {
    if corpus::is_stdin(corpus) {
        None
    } else if corpus.is_dir() {
        Some(corpus.to_path_buf())
    } else {
        corpus.parent().map(Path::to_path_buf)
    }
}

/// The configuration of a command: the user's, the corpus folder's, a snapshot's, the
/// `--config` file of `planning` and its flags, in that order.
fn load_config(
    corpus: Option<&Path>,
    planning: &PlanningArgs,
    mode: Option<clam::redact::Mode>,
    snapshot: Option<clam::config::ConfigLayer>,
) -> Result<Config> {
    Ok(resolve(&ConfigSources {
        user: true,
        corpus_dir: corpus.and_then(corpus_dir),
        snapshot,
        file: planning.config.clone(),
        flags: planning.layer(mode),
    })?)
}

fn load_corpus(args: &CorpusArgs, config: &Config, bars: &Bars) -> Result<Corpus> {
    load_shard(args, config, None, bars)
}

/// Loads the corpus, or only the documents of `shard` (which may be none).
fn load_shard(
    args: &CorpusArgs,
    config: &Config,
    shard: Option<clam::corpus::Shard>,
    bars: &Bars,
) -> Result<Corpus> {
    let stdin = corpus::is_stdin(&args.corpus);
    if stdin && let Some(format) = args.format.filter(|f| *f != corpus::Format::Jsonl) {
        return Err(UsageError(
            corpus::CorpusError::StdinFormat {
                format: format.name(),
            }
            .to_string(),
        )
        .into());
    }
    let corpus = corpus::load_with(
        &args.corpus,
        &LoadOptions {
            format: args.format,
            recursive: args.recursive,
            max_document_bytes: config.extraction.max_document_bytes,
            shard,
        },
        bars,
    )?;
    bars.clear();
    for d in &corpus.diagnostics {
        eprintln!("warning: {}", escape_line(&d.to_string()));
    }
    print_not_read(&corpus);
    if corpus.documents.is_empty() && (shard.is_none() || !corpus.diagnostics.is_empty()) {
        bail!(
            "{}: no documents could be loaded{}",
            if stdin {
                corpus::STDIN_NAME.to_string()
            } else {
                args.corpus.display().to_string()
            },
            if corpus.diagnostics.is_empty() {
                ""
            } else {
                " (see the warnings above)"
            }
        );
    }
    Ok(corpus)
}

/// Files of the corpus folder that are not documents printed as notes ("note:
/// gold.json: a gold file (devset format), not a document; not read"), the first
/// [`NOT_READ_LISTED`] of them; `clam analyze --json` lists them all.
fn print_not_read(corpus: &Corpus) {
    for d in corpus.not_read.iter().take(NOT_READ_LISTED) {
        eprintln!("note: {}", escape_line(&d.to_string()));
    }
    if corpus.not_read.len() > NOT_READ_LISTED {
        eprintln!(
            "note: … and {} more file(s) not read (clam analyze --json lists them under \"not_read\")",
            corpus.not_read.len() - NOT_READ_LISTED
        );
    }
}

const NOT_READ_LISTED: usize = 20;

/// Temporary folders of the sessions of corpora read from stdin, removed when the
/// command ends.
static EPHEMERAL_SESSIONS: std::sync::Mutex<Vec<tempfile::TempDir>> =
    std::sync::Mutex::new(Vec::new());

/// A session that lives only as long as the command (a corpus read from stdin has no
/// path to key a session on): no decisions apply and the project key is new.
fn ephemeral_session() -> Result<Session> {
    let dir = tempfile::tempdir().context("cannot create a temporary session")?;
    let session = Session::open(&dir.path().join("session.sqlite"))?;
    if let Ok(mut dirs) = EPHEMERAL_SESSIONS.lock() {
        dirs.push(dir);
    }
    Ok(session)
}

fn extractor(config: &Config) -> Result<OfflineExtractor> {
    Ok(OfflineExtractor::from_config(config))
}

/// The LLM extractor of `config` (endpoint, model, key and prompts checked); says on
/// stderr where `documents` documents are about to be sent, before anything is.
fn llm_extractor(config: &Config, ext: &ExtractorArgs, documents: usize) -> Result<LlmExtractor> {
    let opts = LlmOptions {
        allow_remote: ext.allow_remote,
        no_cache: ext.no_cache,
        ..LlmOptions::default()
    };
    let ex = LlmExtractor::new(config, &opts)?;
    eprintln!(
        "LLM extractor: {documents} document(s) → {} (model {}){}",
        ex.endpoint(),
        config.llm.model,
        if config.llm.is_loopback() {
            ""
        } else {
            " — REMOTE endpoint: documents leave this machine"
        }
    );
    Ok(ex)
}

/// A corpus and its entities, with the extractor's name and, for the LLM, its report.
struct Extracted {
    corpus: Corpus,
    store: clam::entity::EntityStore,
    name: &'static str,
    llm: Option<LlmReport>,
}

/// Loads the corpus (or one shard of it) and extracts its entities with the chosen
/// extractor. The offline extractor is built on one core while the corpus loads on the
/// other; the LLM extractor's fallbacks and dropped items are printed.
fn load_and_extract(
    args: &CorpusArgs,
    config: &Config,
    ext: &ExtractorArgs,
    shard: Option<clam::corpus::Shard>,
    bars: &Bars,
) -> Result<Extracted> {
    if ext.extractor == ExtractorKind::Offline {
        let phase = clam::phase::phase("load");
        let (corpus, ex) = rayon::join(
            || load_shard(args, config, shard, bars),
            || extractor(config),
        );
        let (corpus, ex) = (corpus?, ex?);
        drop(phase);
        let phase = clam::phase::phase("extract");
        let store = extract_all_with(&corpus, config, &ex, bars);
        drop(phase);
        bars.clear();
        return Ok(Extracted {
            corpus,
            store,
            name: "offline",
            llm: None,
        });
    }
    let phase = clam::phase::phase("load");
    let corpus = load_shard(args, config, shard, bars)?;
    drop(phase);
    let _phase = clam::phase::phase("extract");
    let (store, llm) = extract_llm(&corpus, config, ext, bars)?;
    Ok(Extracted {
        corpus,
        store,
        name: "llm",
        llm: Some(llm),
    })
}

/// Extracts with the LLM extractor (fallbacks and dropped items are printed).
fn extract_llm(
    corpus: &Corpus,
    config: &Config,
    ext: &ExtractorArgs,
    bars: &Bars,
) -> Result<(clam::entity::EntityStore, LlmReport)> {
    let ex = llm_extractor(config, ext, corpus.documents.len())?;
    let run = progress::run_llm(&ex, &corpus.documents, bars)?;
    let store = clam::workspace::finish_extraction_with(corpus, config, run.items, bars);
    bars.clear();
    let r = &run.report;
    for d in r.documents.iter().filter(|d| d.reason.is_some()) {
        let kind = if d.source == LlmSource::Fallback {
            "fell back to the offline extractor"
        } else {
            "kept the local pass only"
        };
        eprintln!(
            "warning: {}: {kind} ({})",
            escape_line(&d.id),
            escape_line(d.reason.as_deref().unwrap_or(""))
        );
    }
    eprintln!(
        "LLM extractor: {} of {} document(s) by the model, {} fallback(s); {} request(s), {} cached pass(es); {} invalid item(s) dropped",
        r.documents.len() - r.fallbacks,
        r.documents.len(),
        r.fallbacks,
        r.requests,
        r.cache_hits,
        r.dropped.total()
    );
    if r.all_fell_back() {
        let why = match r.main_fallback_reason() {
            Some((why, n)) if n == r.documents.len() => escape_line(why),
            Some((why, n)) => format!("{} for {n} of them", escape_line(why)),
            None => String::new(),
        };
        let what = format!(
            "the LLM extractor failed for all {} document(s) ({why}); every entity comes from the offline extractor",
            r.documents.len()
        );
        if !ext.allow_fallback {
            bail!(
                "{what}. Nothing was written. Fix the server (see `clam config show` for [llm]) or pass --allow-fallback to accept this."
            );
        }
        eprintln!("warning: {what} (--allow-fallback)");
    }
    Ok((store, run.report))
}

/// Opens the session: `--session`, else the corpus's default one (created only if
/// `create`).
fn open_session(
    corpus: &Path,
    explicit: Option<&PathBuf>,
    create: bool,
) -> Result<Option<Session>> {
    let path = match explicit {
        Some(p) => {
            if !create && !p.is_file() {
                bail!("{}: no such session file", p.display());
            }
            p.clone()
        }
        // A corpus read from stdin has no session of its own.
        None if corpus::is_stdin(corpus) => return Ok(None),
        None => match default_session_path(corpus) {
            Some(p) if create || p.is_file() => p,
            _ => return Ok(None),
        },
    };
    let session = Session::open(&path)?;
    if let Some(holder) = session.held_by() {
        eprintln!(
            "note: session {} is open read-only: {holder} holds it",
            clam::display::escape_line(&path.display().to_string())
        );
    }
    Ok(Some(session))
}

fn build_workspace(
    args: &CorpusArgs,
    planning: &PlanningArgs,
    mode: Option<clam::redact::Mode>,
    create_session: bool,
    ext: &ExtractorArgs,
    bars: &Bars,
) -> Result<Workspace> {
    let config = load_config(Some(&args.corpus), planning, mode, None)?;
    let x = load_and_extract(args, &config, ext, None, bars)?;
    made_with(
        x,
        config,
        args,
        planning,
        create_session,
        bars,
        Workspace::new,
    )
}

/// [`build_workspace`] for `clam run`: a workspace that is only exported, which lets
/// go of what only review needs once the entities are analysed.
fn build_export_workspace(
    args: &CorpusArgs,
    planning: &PlanningArgs,
    mode: Option<clam::redact::Mode>,
    ext: &ExtractorArgs,
    bars: &Bars,
) -> Result<ExportOnly> {
    let config = load_config(Some(&args.corpus), planning, mode, None)?;
    let x = load_and_extract(args, &config, ext, None, bars)?;
    made_with(
        x,
        config,
        args,
        planning,
        true,
        bars,
        Workspace::new_for_export,
    )
}

/// A workspace constructor: [`Workspace::new`] or [`Workspace::new_for_export`].
type MakeWorkspace<W> = fn(
    clam::corpus::Corpus,
    Config,
    clam::entity::EntityStore,
    Option<clam::session::Session>,
    &str,
) -> Result<W, clam::workspace::WorkspaceError>;

/// What [`made_with`] makes: a workspace, or an export-only one.
trait Made: Borrow<Workspace> {
    fn set_llm_report(&mut self, report: Option<LlmReport>);
}

impl Made for Workspace {
    fn set_llm_report(&mut self, report: Option<LlmReport>) {
        Workspace::set_llm_report(self, report);
    }
}

impl Made for ExportOnly {
    fn set_llm_report(&mut self, report: Option<LlmReport>) {
        ExportOnly::set_llm_report(self, report);
    }
}

/// The workspace of an extracted corpus: the session opened, then `make` (which
/// analyses and plans) run with a spinner; warnings of the plan and of the session's
/// replay printed.
fn made_with<W: Made>(
    x: Extracted,
    config: Config,
    args: &CorpusArgs,
    planning: &PlanningArgs,
    create_session: bool,
    bars: &Bars,
    make: MakeWorkspace<W>,
) -> Result<W> {
    let mut session = open_session(&args.corpus, planning.session.as_ref(), create_session)?;
    if session.is_none() && create_session && corpus::is_stdin(&args.corpus) {
        eprintln!(
            "note: the corpus comes from stdin: no review session applies and the project key is new for this run (pseudonyms and export ids differ between runs); pass --session FILE to keep them"
        );
        session = Some(ephemeral_session()?);
    }
    bars.spinner("analysing and planning");
    let ws = make(x.corpus, config, x.store, session, x.name);
    bars.clear();
    let mut ws = ws?;
    ws.set_llm_report(x.llm);
    let w: &Workspace = ws.borrow();
    for w in w.plan().warnings.iter().chain(w.warnings().iter()) {
        eprintln!("warning: {}", escape_line(w));
    }
    Ok(ws)
}

/// A snapshot file of `clam extract`, read with a spinner.
fn read_snapshot(path: &Path, bars: &Bars) -> Result<clam::snapshot::Snapshot> {
    bars.spinner("reading the snapshot");
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("{}: cannot read", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{}: not a snapshot of `clam extract`", path.display()))
}

fn write_atomic(path: &Path, text: &str, force: bool) -> Result<()> {
    if path.exists() && !force {
        bail!(
            "{}: already exists; pass --force to overwrite",
            path.display()
        );
    }
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)
        .with_context(|| format!("{}: cannot write", path.display()))?;
    tmp.write_all(text.as_bytes())?;
    tmp.persist(path)
        .map_err(|e| e.error)
        .with_context(|| format!("{}: cannot write", path.display()))?;
    Ok(())
}

/// Standard output, locked and buffered: a command's output is written in large
/// blocks, not one system call per line (flush it before returning, so that a write
/// error is reported).
pub(crate) fn stdout() -> std::io::BufWriter<std::io::StdoutLock<'static>> {
    std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock())
}
