//! Command-line definitions (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use clam::config::{ConfigLayer, ParamFlags};
use clam::corpus::Format;
use clam::redact::Mode;

/// `0.1.0 (1a2b3c4 2026-11-25)`: the version and the git commit built from ("unknown"
/// outside a git checkout; see build.rs).
pub const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("CLAM_GIT_COMMIT"),
    ")"
);

/// clam — Cross-document Linkage-Aware Masking.
///
/// Finds the entities that identify people in a corpus, measures document and
/// linkage (chain) risk, proposes the smallest set of entities to mask, and exports
/// the redacted corpus with an audit trail.
#[derive(Debug, Parser)]
#[command(name = "clam", version = VERSION, propagate_version = true)]
pub struct Cli {
    /// Name recorded as the actor of decisions (default: the OS user name).
    #[arg(long, global = true)]
    pub actor: Option<String>,
    /// Draw no progress bars (they are drawn only on a terminal anyway); warnings and
    /// results still print.
    #[arg(long, short = 'q', global = true)]
    pub quiet: bool,
    /// Say more on stderr: `-v` each phase's time (`timing: extract=1.20`), `-vv` also
    /// the log's events (info), `-vvv` debug events.
    #[arg(long, short = 'v', global = true, action = clap::ArgAction::Count, conflicts_with = "quiet")]
    pub verbose: u8,
    #[command(subcommand)]
    pub command: Command,
}

impl Cli {
    /// The command was asked for JSON output (`--json`): its errors are JSON too.
    pub fn json(&self) -> bool {
        match &self.command {
            Command::Analyze(a) => a.json,
            Command::Eval(a) => a.json,
            Command::Sweep(a) => a.json,
            Command::Decide(a) => a.json,
            Command::Config(ConfigCommand::Show(a)) => a.json,
            _ => false,
        }
    }
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Whole pipeline: load, extract, analyse, plan, then export the redacted corpus.
    Run(RunArgs),
    /// Report documents with risk, kept edges, chains with category and proposed masks.
    Analyze(AnalyzeArgs),
    /// Write the entity snapshot (config, documents with their entities, originals, spans).
    Extract(ExtractArgs),
    /// Run analysis and planner on a snapshot; prints the reference vectors' JSON shape.
    Plan(PlanArgs),
    /// Compare chains, mentions, entities and masks against gold (devset or thesis format).
    Eval(EvalArgs),
    /// Plan the corpus with one parameter set to each value of a range: masked
    /// entities, final chain risk and chains by category per value.
    Sweep(SweepArgs),
    /// Open the terminal workspace: watch extraction, read documents, review and
    /// decide every proposed mask, then export.
    Review(ReviewArgs),
    /// Record review decisions without the workspace: accept, override, pin or unpin
    /// entities named by entity id, export id, or value and type (or every line of a
    /// CSV / JSONL file), in the same session and audit log as `clam review`.
    Decide(DecideArgs),
    /// Session files.
    #[command(subcommand)]
    Session(SessionCommand),
    /// Gold chains of a corpus's session: import them from, or export them to, a gold file.
    #[command(subcommand)]
    Gold(GoldCommand),
    /// Write a deterministic synthetic corpus (clusters of documents about hidden
    /// persons, Zipf-distributed values, hub values) with its gold chains, to try clam
    /// at scale: OUT/corpus.jsonl and OUT/gold.json.
    GenCorpus(GenCorpusArgs),
    /// The LLM response cache.
    #[command(subcommand)]
    Cache(CacheCommand),
    /// The configuration in effect.
    #[command(subcommand)]
    Config(ConfigCommand),
    /// Write a commented clam.toml: every setting at its default with what it does.
    Init(InitArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    #[command(after_help = "Examples:
  clam completions bash > ~/.local/share/bash-completion/completions/clam
  clam completions zsh > ~/.zfunc/_clam        # with fpath+=~/.zfunc before compinit
  clam completions fish > ~/.config/fish/completions/clam.fish")]
    Completions {
        /// The shell.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Print the manual page (roff) to stdout, or write one page per command to a folder.
    #[command(after_help = "Examples:
  clam man | man -l -
  clam man --out ~/.local/share/man/man1       # clam.1, clam-run.1, clam-decide.1, …")]
    Man {
        /// Write clam.1 and a page per command (clam-run.1, clam-gold-import.1, …) here.
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum ConfigCommand {
    /// Print every setting in effect for a corpus (or with no corpus, for any), with
    /// the file, flag, session or default it comes from.
    Show(ConfigShowArgs),
}

#[derive(Debug, Args)]
pub struct ConfigShowArgs {
    /// The corpus whose clam.toml and session apply (optional).
    pub corpus: Option<PathBuf>,
    /// Print JSON: the layers read and each setting's key, value and origin.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub planning: PlanningArgs,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// Folder to write clam.toml into (a corpus folder, or your config directory).
    #[arg(default_value = ".")]
    pub dir: PathBuf,
    /// Overwrite an existing clam.toml.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct GenCorpusArgs {
    /// Number of documents.
    #[arg(long)]
    pub docs: usize,
    /// Seed: the same docs and seed give byte-identical files.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output folder (created; must not hold corpus.jsonl or gold.json unless --force).
    #[arg(long)]
    pub out: PathBuf,
    /// Overwrite corpus.jsonl and gold.json in OUT.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Subcommand)]
pub enum CacheCommand {
    /// Delete every cached LLM response (the folder in the user cache directory, or $CLAM_CACHE_DIR).
    Clear,
}

/// Which extractor finds the entities.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum ExtractorKind {
    /// Built-in recognizers; nothing leaves the machine.
    #[default]
    Offline,
    /// The OpenAI-compatible server configured under [llm] (two passes, cached).
    Llm,
}

/// Extractor choice, shared by run, analyze, extract and review.
#[derive(Debug, Args, Clone, Default)]
pub struct ExtractorArgs {
    /// Extractor to use.
    #[arg(long, value_enum, default_value_t)]
    pub extractor: ExtractorKind,
    /// Allow sending documents to an [llm] endpoint that is not this machine.
    #[arg(long)]
    pub allow_remote: bool,
    /// Neither read nor write the LLM response cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Go on when the LLM extractor failed for every document (every entity then comes
    /// from the offline extractor); without it that is an error (exit 1) and nothing
    /// is written.
    #[arg(long)]
    pub allow_fallback: bool,
}

#[derive(Debug, Subcommand)]
pub enum SessionCommand {
    /// Write a self-contained copy of a corpus's session (hand it on; open it with --session).
    Export {
        /// The corpus whose session to export.
        corpus: PathBuf,
        /// Destination file (must not exist).
        file: PathBuf,
        /// Export this session file instead of the corpus's default one.
        #[arg(long)]
        session: Option<PathBuf>,
    },
}

#[derive(Debug, Subcommand)]
pub enum GoldCommand {
    /// Mark the gold chains of FILE in the session: the thesis format (`links`, as
    /// clam exports them) or the devset format (`clusters[].gold_chains`). Chains
    /// naming a document not in the corpus, or of more than 3 documents, are skipped
    /// and listed.
    Import {
        #[command(flatten)]
        corpus: CorpusArgs,
        /// The gold file (gold_chains.json, a thesis gold.json or a devset gold.json).
        file: PathBuf,
        /// Session database (default: the corpus's session; created if needed).
        #[arg(long, value_name = "FILE")]
        session: Option<PathBuf>,
    },
    /// Write the session's gold chains to FILE in the thesis gold format (`links`,
    /// plus `notes`); document ids as in the corpus, owner-only.
    Export {
        #[command(flatten)]
        corpus: CorpusArgs,
        /// Destination file (must not exist unless --force).
        file: PathBuf,
        /// Session database (default: the corpus's session).
        #[arg(long, value_name = "FILE")]
        session: Option<PathBuf>,
        /// Overwrite FILE.
        #[arg(long)]
        force: bool,
    },
}

/// How to read the corpus.
#[derive(Debug, Args, Clone)]
pub struct CorpusArgs {
    /// Corpus: a folder (every .json, .jsonl, .txt and .md file in it), one such file, or
    /// `-` for JSONL on standard input.
    pub corpus: PathBuf,
    /// Input format (default: each file's extension); for a folder, only files of
    /// this format are read.
    #[arg(long, value_enum)]
    pub format: Option<Format>,
    /// Read sub-folders too.
    #[arg(long)]
    pub recursive: bool,
}

/// Configuration and thresholds shared by every command that plans.
#[derive(Debug, Args, Clone, Default)]
pub struct PlanningArgs {
    /// Configuration file (overrides clam.toml in the corpus folder and the user's).
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Session database (default: the corpus's session in the user data directory).
    #[arg(long, value_name = "FILE")]
    pub session: Option<PathBuf>,
    /// The parameters' flags (`--edge-threshold`, `--theta-chain` …), one per row of
    /// the parameter table (`config::params`).
    #[command(flatten)]
    pub params: ParamFlags,
}

impl PlanningArgs {
    pub fn layer(&self, mode: Option<Mode>) -> ConfigLayer {
        ConfigLayer {
            redaction: mode,
            ..self.params.layer.clone()
        }
    }
}

#[derive(Debug, Args)]
pub struct RunArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Export folder (must be new or empty unless --force).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Redaction mode.
    #[arg(long, value_enum)]
    pub mode: Option<Mode>,
    /// Replace a non-empty export folder.
    #[arg(long)]
    pub force: bool,
    /// Also write the originals of masked entities to FILE (outside the export folder).
    #[arg(long, value_name = "FILE")]
    pub with_mapping: Option<PathBuf>,
    /// Refuse to export while any proposed mask is unreviewed or stale.
    #[arg(long)]
    pub require_reviewed: bool,
    /// Take the entities from the shard files of `clam extract CORPUS --shard i/n`
    /// (every shard of one extraction; give CORPUS first) instead of extracting: the
    /// corpus-level passes run here, so the result is that of an unsharded run.
    #[arg(long = "snapshot", value_name = "SHARD", num_args = 1..)]
    pub snapshots: Vec<PathBuf>,
    #[command(flatten)]
    pub planning: PlanningArgs,
    #[command(flatten)]
    pub extraction: ExtractorArgs,
}

#[derive(Debug, Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Print JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub planning: PlanningArgs,
    #[command(flatten)]
    pub extraction: ExtractorArgs,
}

#[derive(Debug, Args)]
pub struct ExtractArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Snapshot file to write.
    #[arg(long, value_name = "SNAPSHOT.json")]
    pub out: PathBuf,
    /// Configuration file.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Overwrite an existing snapshot file.
    #[arg(long)]
    pub force: bool,
    /// Extract only shard I of N (numbered from 1: 1/3, 2/3, 3/3) into a shard file:
    /// a document's shard follows from its id alone (md5), so adding files moves no
    /// other document. `clam plan --corpus CORPUS SHARD…` and `clam run CORPUS
    /// --snapshot SHARD…` merge the shards. Offline extractor only.
    #[arg(long, value_name = "I/N")]
    pub shard: Option<clam::corpus::Shard>,
    #[command(flatten)]
    pub extraction: ExtractorArgs,
}

#[derive(Debug, Args)]
pub struct PlanArgs {
    /// Snapshot file (the reference vectors' input format), or every shard file of one
    /// `clam extract --shard i/n` extraction (then with --corpus).
    #[arg(required = true, value_name = "SNAPSHOT")]
    pub snapshots: Vec<PathBuf>,
    /// The corpus the shard files were extracted from: merging shards runs the
    /// corpus-level passes, which read every document.
    #[arg(long, value_name = "CORPUS")]
    pub corpus: Option<PathBuf>,
    /// Format of --corpus (default: from the files' extensions).
    #[arg(long, value_enum, requires = "corpus")]
    pub format: Option<Format>,
    /// Read --corpus's sub-folders too.
    #[arg(long, requires = "corpus")]
    pub recursive: bool,
    #[command(flatten)]
    pub planning: PlanningArgs,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Gold: a gold.json (devset or thesis format), or the folder holding it and/or a
    /// thesis `files/` folder of clusters.
    #[arg(long, value_name = "GOLD")]
    pub gold: PathBuf,
    /// Gold mention spans (default: mentions.jsonl beside a devset-format gold.json).
    #[arg(long, value_name = "mentions.jsonl")]
    pub mentions: Option<PathBuf>,
    /// Print JSON instead of tables.
    #[arg(long)]
    pub json: bool,
    /// Also compare leak rate and utility with no masking, the document stage only and
    /// masking everything extracted.
    #[arg(long)]
    pub baselines: bool,
    /// Redaction mode the leak rate and utility are measured with (default: the configured one).
    #[arg(long, value_enum)]
    pub mode: Option<Mode>,
    /// Measure the entities of this snapshot (`clam extract CORPUS --out FILE`, with
    /// either extractor) instead of extracting: the extraction as it was then, on the
    /// corpus it was taken of.
    #[arg(
        long,
        value_name = "SNAPSHOT.json",
        conflicts_with_all = ["extractor", "allow_remote", "no_cache"]
    )]
    pub snapshot: Option<PathBuf>,
    #[command(flatten)]
    pub planning: PlanningArgs,
    #[command(flatten)]
    pub extraction: ExtractorArgs,
}

#[derive(Debug, Args)]
pub struct SweepArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// The parameter: edge_threshold, chain_length, risk_high, risk_medium,
    /// theta_doc, theta_chain, rho_high or rho_medium.
    #[arg(long, value_name = "NAME")]
    pub param: String,
    /// First value.
    #[arg(long, value_name = "A", allow_negative_numbers = true)]
    pub from: f64,
    /// Last value (included when a whole number of steps away).
    #[arg(long, value_name = "B", allow_negative_numbers = true)]
    pub to: f64,
    /// Step between values (at most 1000 values).
    #[arg(long, value_name = "S", allow_negative_numbers = true)]
    pub step: f64,
    /// Print a JSON list of rows instead of a table.
    #[arg(long, conflicts_with = "csv")]
    pub json: bool,
    /// Print CSV instead of a table.
    #[arg(long)]
    pub csv: bool,
    /// Gold chains (a gold.json, devset or thesis format, or its folder): adds `f1`,
    /// the chain pairs F1 of chains flagged ≥ MEDIUM on the unmasked corpus.
    #[arg(long, value_name = "GOLD")]
    pub gold: Option<PathBuf>,
    #[command(flatten)]
    pub planning: PlanningArgs,
    #[command(flatten)]
    pub extraction: ExtractorArgs,
}

#[derive(Debug, Args)]
pub struct ReviewArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// Colour theme: dark (default), light, high-contrast, colorblind. NO_COLOR is honoured.
    #[arg(long, value_name = "NAME")]
    pub theme: Option<String>,
    /// Redaction mode of the preview and the export dialog's default.
    #[arg(long, value_enum)]
    pub mode: Option<Mode>,
    #[command(flatten)]
    pub extractor: ExtractorArgs,
    /// Gold labels (devset or thesis format) whose hidden persons and questions give
    /// the gold pane the person leak rate and the utility proxy of the plan in effect,
    /// and the sweep chart the leak rate (gold chains are imported with `i` there, or
    /// `clam gold import`).
    #[arg(long, value_name = "FILE")]
    pub gold: Option<PathBuf>,
    #[command(flatten)]
    pub planning: PlanningArgs,
}

/// The state an override sets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MaskState {
    Mask,
    Keep,
}

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  clam decide corpus accept 3f2a9c0d1e4b5a67              # by export id (manifest.json, report.md)
  clam decide corpus override --value 'Priya Raman' --type NAME --reason 'public figure'
  clam decide corpus pin 5d41402abc4b2a76b9719d911017c592  # by entity id (clam analyze --json)
  clam decide corpus --from decisions.csv                 # columns: action,entity,value,type,reason,to

Every decision is one transaction of the corpus's session (or --session FILE), with the
actor (--actor), as if taken in `clam review`; `clam run --require-reviewed` then exports
once every proposed mask is decided.")]
pub struct DecideArgs {
    #[command(flatten)]
    pub corpus: CorpusArgs,
    /// What to do: accept the proposal, override it (needs --reason), pin the state in
    /// effect, or unpin.
    #[arg(value_enum, required_unless_present = "from", conflicts_with = "from")]
    pub action: Option<clam::workspace::decide::Verb>,
    /// Entities: entity ids (32 hex digits, as `clam analyze --json` prints them) or
    /// export ids (16, as manifest.json and report.md name them).
    #[arg(value_name = "ENTITY", conflicts_with = "from")]
    pub entities: Vec<String>,
    /// The entity with this value (as written in a document, or canonical); with --type.
    #[arg(
        long,
        value_name = "VALUE",
        requires = "entity_type",
        conflicts_with = "from"
    )]
    pub value: Option<String>,
    /// The entity type of --value (NAME, EMAIL, …).
    #[arg(long = "type", value_name = "TYPE", requires = "value")]
    pub entity_type: Option<String>,
    /// Take every decision of FILE, in order: CSV with a header or JSON Lines, with the
    /// keys action, entity (entity id or export id) or value and type, reason (required
    /// for an override) and to (mask or keep, for an override).
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Why (required for an override; recorded in the audit log and the export).
    #[arg(long, value_name = "TEXT", conflicts_with = "from")]
    pub reason: Option<String>,
    /// The state an override sets (default: the other one than proposed).
    #[arg(long, value_enum, value_name = "STATE", conflicts_with = "from")]
    pub to: Option<MaskState>,
    /// Print the decisions and what each changed as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub planning: PlanningArgs,
    #[command(flatten)]
    pub extraction: ExtractorArgs,
}

impl Command {
    /// The command as the user typed it ("run", "gold import"), for the log.
    pub fn name(&self) -> &'static str {
        match self {
            Command::Run(_) => "run",
            Command::Analyze(_) => "analyze",
            Command::Extract(_) => "extract",
            Command::Plan(_) => "plan",
            Command::Eval(_) => "eval",
            Command::Sweep(_) => "sweep",
            Command::Review(_) => "review",
            Command::Decide(_) => "decide",
            Command::Session(SessionCommand::Export { .. }) => "session export",
            Command::Gold(GoldCommand::Import { .. }) => "gold import",
            Command::Gold(GoldCommand::Export { .. }) => "gold export",
            Command::GenCorpus(_) => "gen-corpus",
            Command::Cache(CacheCommand::Clear) => "cache clear",
            Command::Config(ConfigCommand::Show(_)) => "config show",
            Command::Init(_) => "init",
            Command::Completions { .. } => "completions",
            Command::Man { .. } => "man",
        }
    }
}
