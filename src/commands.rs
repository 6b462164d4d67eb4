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
use clam::export::{ExportError, ExportOptions, export};
use clam::extract::llm::progress::run_with_progress;
use clam::extract::llm::{LlmExtractor, LlmOptions, LlmReport, Source as LlmSource};
use clam::extract::offline::OfflineExtractor;
use clam::plan::ProvenanceText;
use clam::session::{Session, default_session_path};
use clam::snapshot::{Snapshot, SnapshotDoc, SnapshotEntity, plan_snapshot};
use clam::workspace::{Workspace, extract_all};

use crate::cli::{
    AnalyzeArgs, CacheCommand, Cli, Command, CorpusArgs, EvalArgs, ExtractArgs, ExtractorArgs,
    ExtractorKind, GenCorpusArgs, GoldCommand, PlanArgs, PlanningArgs, ReviewArgs, RunArgs,
    SessionCommand, SweepArgs,
};

pub const EXIT_OK: u8 = 0;
pub const EXIT_ERROR: u8 = 1;
pub const EXIT_LEAK: u8 = 3;
pub const EXIT_SKIPPED: u8 = 4;

/// Logs go to `<data dir>/logs/clam.log` (owner-only), never to the terminal.
pub fn init_logging() -> Option<()> {
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
    let filter = tracing_subscriber::EnvFilter::try_from_env("CLAM_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(std::sync::Mutex::new(file))
        .try_init()
        .ok()
}

pub fn dispatch(cli: Cli) -> Result<u8> {
    let actor = cli
        .actor
        .clone()
        .unwrap_or_else(clam::session::default_actor);
    tracing::info!(command = ?std::mem::discriminant(&cli.command), %actor, "start");
    match cli.command {
        Command::Run(a) => run(a),
        Command::Analyze(a) => analyze(a),
        Command::Extract(a) => extract(a),
        Command::Plan(a) => plan(a),
        Command::Eval(a) => eval(a),
        Command::Sweep(a) => sweep(a),
        Command::GenCorpus(a) => gen_corpus(a),
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
        Command::Review(a) => review(a, actor),
        Command::Gold(g) => gold(g, actor),
        Command::Session(SessionCommand::Export {
            corpus,
            file,
            session,
        }) => {
            let path = match session {
                Some(p) => p,
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

/// `clam gold import` / `clam gold export`: session-level, no extraction; the corpus
/// is read for its document ids (unknown ids are skipped on import, orphaned chains
/// are listed on export).
fn gold(cmd: GoldCommand, actor: String) -> Result<u8> {
    use clam::session::gold::{chains, plan_import, positions, to_json};
    let (corpus_args, session_file) = match &cmd {
        GoldCommand::Import {
            corpus, session, ..
        }
        | GoldCommand::Export {
            corpus, session, ..
        } => (corpus, session),
    };
    let imported = match &cmd {
        // A bad gold file fails before the corpus is read.
        GoldCommand::Import { file, .. } => Some(clam::eval::gold::load_chains(file)?),
        GoldCommand::Export { .. } => None,
    };
    let planning = PlanningArgs::default();
    let config = load_config(Some(&corpus_args.corpus), None, &planning, None, None)?;
    let corpus = load_corpus(corpus_args, &config)?;
    let pos = positions(corpus.documents.iter().map(|d| d.id.as_str()));
    let create = imported.is_some();
    let Some(mut session) = open_session(&corpus_args.corpus, session_file.as_ref(), create)?
    else {
        bail!(
            "{}: no session for this corpus yet (pass --session FILE)",
            corpus_args.corpus.display()
        );
    };
    let state = session.state()?;
    match (cmd, imported) {
        (GoldCommand::Import { file, .. }, Some(imported)) => {
            let plan = plan_import(&imported.chains, &state, &pos);
            let config_hash = config.hash(&session.project_key()?);
            for action in &plan.marks {
                session.append(&clam::session::Decision {
                    actor: actor.clone(),
                    action: action.clone(),
                    reason: None,
                    state_before: None,
                    state_after: None,
                    config_hash: config_hash.clone(),
                })?;
            }
            for (docs, reason) in &plan.skipped {
                eprintln!(
                    "skipped {}: {}",
                    escape_line(&docs.join(", ")),
                    escape_line(reason)
                );
            }
            eprintln!(
                "{} from {} ({} format) into {}",
                plan.summary(),
                file.display(),
                imported.format.as_str(),
                session.path().display()
            );
        }
        (GoldCommand::Export { file, force, .. }, _) => {
            let list = chains(&state, &pos);
            for c in list.iter().filter(|c| c.orphaned()) {
                eprintln!(
                    "warning: orphaned gold chain {}: not in the corpus: {}",
                    escape_line(&c.documents.join(", ")),
                    escape_line(&c.missing.join(", "))
                );
            }
            let text = serde_json::to_string_pretty(&to_json(&list, str::to_string))? + "\n";
            write_atomic(&file, &text, force)?;
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                let _ = std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600));
            }
            eprintln!("wrote {} gold chain(s) to {}", list.len(), file.display());
        }
        _ => {}
    }
    Ok(if corpus.diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    })
}

/// The folder whose clam.toml applies to a corpus path.
fn corpus_dir(corpus: &Path) -> Option<PathBuf> {
    if corpus.is_dir() {
        Some(corpus.to_path_buf())
    } else {
        corpus.parent().map(Path::to_path_buf)
    }
}

fn load_config(
    corpus: Option<&Path>,
    file: Option<&PathBuf>,
    planning: &PlanningArgs,
    mode: Option<clam::redact::Mode>,
    snapshot: Option<clam::config::ConfigLayer>,
) -> Result<Config> {
    Ok(resolve(&ConfigSources {
        user: true,
        corpus_dir: corpus.and_then(corpus_dir),
        snapshot,
        file: file.cloned(),
        flags: planning.layer(mode),
    })?)
}

fn load_corpus(args: &CorpusArgs, config: &Config) -> Result<Corpus> {
    let corpus = corpus::load(
        &args.corpus,
        &LoadOptions {
            format: args.format,
            recursive: args.recursive,
            max_document_bytes: config.max_document_bytes,
        },
    )?;
    for d in &corpus.diagnostics {
        eprintln!("warning: {}", escape_line(&d.to_string()));
    }
    if corpus.documents.is_empty() {
        bail!(
            "{}: no documents could be loaded{}",
            args.corpus.display(),
            if corpus.diagnostics.is_empty() {
                ""
            } else {
                " (see the warnings above)"
            }
        );
    }
    Ok(corpus)
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

/// Extracts with the chosen extractor; returns the store, the extractor's name and,
/// for the LLM, its report (fallbacks and dropped items are also printed).
fn extract_store(
    corpus: &Corpus,
    config: &Config,
    ext: &ExtractorArgs,
) -> Result<(clam::entity::EntityStore, &'static str, Option<LlmReport>)> {
    if ext.extractor == ExtractorKind::Offline {
        let ex = extractor(config)?;
        return Ok((extract_all(corpus, config, &ex), "offline", None));
    }
    let ex = llm_extractor(config, ext, corpus.documents.len())?;
    let run = run_with_progress(&ex, &corpus.documents)?;
    let r = &run.report;
    for d in r.documents.iter().filter(|d| d.reason.is_some()) {
        let kind = if d.source == LlmSource::Fallback {
            "fell back to the offline extractor"
        } else {
            "kept the local pass only"
        };
        eprintln!(
            "warning: {}: {kind} ({})",
            safe(&d.id),
            safe(d.reason.as_deref().unwrap_or(""))
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
    let store = clam::workspace::finish_extraction(corpus, config, run.items);
    Ok((store, "llm", Some(run.report)))
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
        None => match default_session_path(corpus) {
            Some(p) if create || p.is_file() => p,
            _ => return Ok(None),
        },
    };
    Ok(Some(Session::open(&path)?))
}

fn build_workspace(
    args: &CorpusArgs,
    planning: &PlanningArgs,
    mode: Option<clam::redact::Mode>,
    create_session: bool,
    ext: &ExtractorArgs,
) -> Result<Workspace> {
    let config = load_config(
        Some(&args.corpus),
        planning.config.as_ref(),
        planning,
        mode,
        None,
    )?;
    let t = std::time::Instant::now();
    let corpus = load_corpus(args, &config)?;
    clam::workspace::report_phase("load", t);
    let t = std::time::Instant::now();
    let (store, name, llm) = extract_store(&corpus, &config, ext)?;
    clam::workspace::report_phase("extract", t);
    let session = open_session(&args.corpus, planning.session.as_ref(), create_session)?;
    let mut ws = Workspace::new(corpus, config, store, session, name)?;
    ws.llm = llm;
    for w in ws.plan.warnings.iter().chain(ws.warnings.iter()) {
        eprintln!("warning: {}", escape_line(w));
    }
    Ok(ws)
}

fn run(a: RunArgs) -> Result<u8> {
    let ws = build_workspace(&a.corpus, &a.planning, a.mode, true, &a.extraction)?;
    let key = match &ws.session {
        Some(s) => s.project_key()?,
        None => bail!(
            "this platform has no user data directory for the project key; pass --session FILE"
        ),
    };
    let ex = extractor(&ws.config)?;
    let opts = ExportOptions {
        force: a.force,
        with_mapping: a.with_mapping.clone(),
        require_reviewed: a.require_reviewed,
    };
    let t = std::time::Instant::now();
    let exported = export(&ws, &key, &a.out, &opts, &ex);
    clam::workspace::report_phase("export", t);
    if ws.analysis.chain_cap.hit() {
        eprintln!(
            "warning: chain cap hit: {} component(s) of the document graph have more chains than max_chains_per_component = {}; longer chains beyond it were not analysed (see report.md)",
            ws.analysis.chain_cap.capped_components.len(),
            ws.analysis.chain_cap.limit
        );
    }
    match exported {
        Ok(summary) => {
            let chains_after = |cat| {
                ws.plan
                    .chains
                    .iter()
                    .filter(|c| c.category_final == cat)
                    .count()
            };
            let chains_before = |cat| {
                ws.plan
                    .chains
                    .iter()
                    .filter(|c| c.category_pre == cat)
                    .count()
            };
            use clam::analysis::RiskCategory::{High, Medium};
            eprintln!(
                "exported {} documents to {} ({} mode): {} of {} entities masked; chains HIGH/MEDIUM {}/{} → {}/{}; {} residual document(s), {} residual chain(s); leak check passed ({} files)",
                summary.documents,
                summary.out.display(),
                ws.config.redaction.as_str(),
                summary.masked,
                ws.model.entities.len(),
                chains_before(High),
                chains_before(Medium),
                chains_after(High),
                chains_after(Medium),
                ws.plan.residual_docs.len(),
                ws.plan.residual_chains.len(),
                summary.files_scanned
            );
            for w in &summary.warnings {
                eprintln!("warning: {}", escape_line(w));
            }
            if summary.skipped > 0 {
                eprintln!(
                    "{} input document(s) skipped (listed in report.md)",
                    summary.skipped
                );
                Ok(EXIT_SKIPPED)
            } else {
                Ok(EXIT_OK)
            }
        }
        Err(ExportError::Leak(hits)) => {
            eprintln!("error: leak check failed; nothing was exported. Masked values remain at:");
            for h in &hits {
                eprintln!("  {}", escape_line(&h.to_string()));
            }
            Ok(EXIT_LEAK)
        }
        Err(e) => Err(e.into()),
    }
}

fn analysis_json(ws: &Workspace) -> Value {
    let m = &ws.model;
    let an = &ws.analysis;
    let p = &ws.plan;
    let (accepted_docs, accepted_chains) = ws.accepted_residuals();
    let ids = |docs: &[u32]| -> Vec<&str> {
        docs.iter()
            .map(|&d| m.docs[d as usize].id.as_str())
            .collect()
    };
    let entity = |e: u32| {
        let x = &m.entities[e as usize];
        json!({"id": x.id, "type": x.entity_type, "value": x.value})
    };
    json!({
        "config": ws.config,
        "extractor": ws.extractor,
        "skipped": ws.corpus.diagnostics.iter().map(|d| d.to_string()).collect::<Vec<_>>(),
        "unlocated": ws.store.unlocated_total(),
        "llm": ws.llm,
        "documents": m.docs.iter().enumerate().map(|(d, doc)| json!({
            "id": doc.id,
            "entities": doc.entities.len(),
            "unlocated": ws.store.docs.get(doc.corpus_index).map_or(0, |x| x.unlocated),
            "invalid": ws.store.docs.get(doc.corpus_index).map_or(0, |x| x.invalid),
            "extraction": ws.llm.as_ref().and_then(|r| r.documents.get(doc.corpus_index)).map(|r| json!({
                "source": r.source,
                "reason": r.reason,
                "dropped": r.dropped,
            })),
            "risk": an.doc_risk_initial[d],
            "risk_after": p.doc_risk_final[d],
        })).collect::<Vec<_>>(),
        "edges": an.edges.iter().map(|e| json!({
            "docs": ids(&[e.a, e.b]),
            "strength": e.strength,
            "via": e.via.iter().map(|(x, _)| entity(*x)).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "chains": an.chains.iter().zip(&p.chains).map(|(c, r)| json!({
            "docs": ids(&c.docs),
            "risk_initial": r.risk_initial,
            "category": r.category_initial,
            "risk_pre": r.risk_pre,
            "category_pre": r.category_pre,
            "risk_final": r.risk_final,
            "category_final": r.category_final,
        })).collect::<Vec<_>>(),
        "masks": (0..m.entities.len()).filter(|&i| p.masked[i]).map(|i| {
            let e = &m.entities[i];
            json!({
                "id": e.id,
                "type": e.entity_type,
                "value": e.value,
                "documents": ids(&an.entity_docs[i]),
                "s_e": an.global_contribution[i],
                "review_state": ws.review_state(i),
                "provenance": ProvenanceText { provenance: &p.provenance[i], model: m, analysis: an, theta_doc: ws.config.plan.theta_doc }.to_string(),
            })
        }).collect::<Vec<_>>(),
        "residual_documents": p.residual_docs.iter().map(|&d| m.docs[d as usize].id.clone()).collect::<Vec<_>>(),
        "residual_chains": p.residual_chains.iter().map(|&c| ids(&an.chains[c as usize].docs)).collect::<Vec<_>>(),
        "accepted_residual_documents": accepted_docs,
        "accepted_residual_chains": accepted_chains,
        "orphaned_decisions": ws.orphaned_decisions().iter().map(|(id, decision)| json!({"id": id, "decision": decision})).collect::<Vec<_>>(),
        "warnings": p.warnings.iter().chain(ws.warnings.iter()).collect::<Vec<_>>(),
    })
}

/// Text from documents is never printed raw: controls and bidirectional marks become
/// visible escapes ([`clam::display::escape_line`], the one sanitizer).
fn safe(s: &str) -> String {
    clam::display::escape_line(s)
}

fn analyze(a: AnalyzeArgs) -> Result<u8> {
    let ws = build_workspace(&a.corpus, &a.planning, None, false, &a.extraction)?;
    let mut out = std::io::stdout().lock();
    if a.json {
        serde_json::to_writer_pretty(&mut out, &analysis_json(&ws))?;
        writeln!(out)?;
    } else {
        let m = &ws.model;
        let an = &ws.analysis;
        let p = &ws.plan;
        writeln!(
            out,
            "{} documents, {} entities ({} unlocated items dropped), {} kept edges, {} chains, {} masks proposed\n",
            m.docs.len(),
            m.entities.len(),
            ws.store.unlocated_total(),
            an.edges.len(),
            an.chains.len(),
            p.masked_count()
        )?;
        if let Some(r) = &ws.llm {
            writeln!(
                out,
                "LLM extraction via {} (model {}): {} fallback(s), {} invalid item(s) dropped, {} request(s), {} cached pass(es)",
                r.endpoint,
                r.model,
                r.fallbacks,
                r.dropped.total(),
                r.requests,
                r.cache_hits
            )?;
            for (i, d) in r.documents.iter().enumerate() {
                let unlocated = ws.store.docs.get(i).map_or(0, |x| x.unlocated);
                if d.reason.is_none() && d.dropped.total() == 0 && unlocated == 0 {
                    continue;
                }
                let status = match (d.source, &d.reason) {
                    (LlmSource::Fallback, _) => "fallback",
                    (LlmSource::Llm, Some(_)) => "partial",
                    (LlmSource::Llm, None) => "llm",
                };
                writeln!(
                    out,
                    "  {:<30} {:<8} dropped {} (shape {}, type {}, relevance {}), unlocated {}{}",
                    safe(&d.id),
                    status,
                    d.dropped.total(),
                    d.dropped.shape,
                    d.dropped.unknown_type,
                    d.dropped.relevance,
                    unlocated,
                    d.reason
                        .as_deref()
                        .map(|r| format!("; {}", safe(r)))
                        .unwrap_or_default()
                )?;
            }
            writeln!(out)?;
        }
        writeln!(
            out,
            "DOCUMENT                         RISK   AFTER  ENTITIES"
        )?;
        for (d, doc) in m.docs.iter().enumerate() {
            writeln!(
                out,
                "{:<32} {:.3}  {:.3}  {}",
                safe(&doc.id),
                an.doc_risk_initial[d],
                p.doc_risk_final[d],
                doc.entities.len()
            )?;
        }
        writeln!(
            out,
            "\nEDGE                                              STRENGTH  VIA"
        )?;
        for e in &an.edges {
            let via: Vec<String> = e
                .via
                .iter()
                .map(|(x, _)| {
                    let ent = &m.entities[*x as usize];
                    format!("{}:{}", ent.entity_type, safe(&ent.value))
                })
                .collect();
            writeln!(
                out,
                "{:<49} {:.3}     {}",
                format!(
                    "{} — {}",
                    safe(&m.docs[e.a as usize].id),
                    safe(&m.docs[e.b as usize].id)
                ),
                e.strength,
                via.join(", ")
            )?;
        }
        writeln!(
            out,
            "\nCHAIN                                             INITIAL  PRE    FINAL  CATEGORY"
        )?;
        for (c, r) in an.chains.iter().zip(&p.chains) {
            let docs: Vec<String> = c
                .docs
                .iter()
                .map(|&d| safe(&m.docs[d as usize].id))
                .collect();
            writeln!(
                out,
                "{:<49} {:.3}    {:.3}  {:.3}  {} → {}",
                docs.join(" → "),
                r.risk_initial,
                r.risk_pre,
                r.risk_final,
                r.category_pre.as_str(),
                r.category_final.as_str()
            )?;
        }
        writeln!(out, "\nPROPOSED MASKS")?;
        for i in 0..m.entities.len() {
            if !p.masked[i] {
                continue;
            }
            let e = &m.entities[i];
            let prov = ProvenanceText {
                provenance: &p.provenance[i],
                model: m,
                analysis: an,
                theta_doc: ws.config.plan.theta_doc,
            };
            writeln!(
                out,
                "  {:<20} {:<32} s_e {:.3}  {}",
                e.entity_type,
                safe(&e.value),
                an.global_contribution[i],
                prov
            )?;
        }
        if !p.residual_docs.is_empty() || !p.residual_chains.is_empty() {
            writeln!(out, "\nRESIDUAL RISK")?;
            let accepted = |yes: bool| if yes { "accepted" } else { "open" };
            for &d in &p.residual_docs {
                let id = &m.docs[d as usize].id;
                let ok = ws.residual_accepted(std::slice::from_ref(id));
                writeln!(out, "  document {:<40} {}", safe(id), accepted(ok))?;
            }
            for &c in &p.residual_chains {
                let docs = ws.chain_doc_ids(c as usize);
                let ok = ws.residual_accepted(&docs);
                writeln!(
                    out,
                    "  chain    {:<40} {}",
                    safe(&docs.join(" → ")),
                    accepted(ok)
                )?;
            }
        }
        let orphaned = ws.orphaned_decisions();
        if !orphaned.is_empty() {
            writeln!(
                out,
                "\nORPHANED DECISIONS (entities no longer in the corpus; kept, and applied again if they come back)"
            )?;
            for (id, decision) in &orphaned {
                writeln!(out, "  {id}  {decision}")?;
            }
        }
    }
    Ok(if ws.corpus.diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    })
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

fn extract(a: ExtractArgs) -> Result<u8> {
    let planning = PlanningArgs::default();
    let config = load_config(
        Some(&a.corpus.corpus),
        a.config.as_ref(),
        &planning,
        None,
        None,
    )?;
    let corpus = load_corpus(&a.corpus, &config)?;
    if a.out.exists() && !a.force {
        bail!(
            "{}: already exists; pass --force to overwrite",
            a.out.display()
        );
    }
    if corpus.root.is_dir() && clam_is_inside(&a.out, &corpus.root) {
        bail!(
            "{}: the snapshot would be written into the corpus folder; clam never writes into its input",
            a.out.display()
        );
    }
    let (store, _, _) = extract_store(&corpus, &config, &a.extraction)?;
    let documents: Vec<SnapshotDoc> = store
        .docs
        .iter()
        .enumerate()
        .map(|(i, d)| SnapshotDoc {
            id: d.doc_id.clone(),
            key: Some(corpus.documents[i].key.clone()),
            unlocated: d.unlocated,
            entities: d
                .entities
                .iter()
                .filter_map(|e| {
                    let k = store.keys.get(&e.entity_id)?;
                    Some(SnapshotEntity {
                        value: k.normalized.clone(),
                        entity_type: k.entity_type.clone(),
                        relevance: e.relevance,
                        mentions: e.mentions,
                        id: None,
                        originals: e.originals.to_vec(),
                        spans: e.spans.iter().map(|s| [s.start, s.end]).collect(),
                    })
                })
                .collect(),
        })
        .collect();
    let mut cfg = serde_json::to_value(&config)?;
    if let Value::Object(o) = &mut cfg {
        // The schema is part of the configuration; keep it, but as the layer format.
        let schema: BTreeMap<String, Value> = config
            .schema
            .types
            .iter()
            .map(|t| {
                (
                    t.name.clone(),
                    json!({"weight": t.weight, "category": t.category, "phrase": t.phrase}),
                )
            })
            .collect();
        o.insert("schema".into(), json!(schema));
    }
    let snapshot = Snapshot {
        config: cfg,
        documents,
        forced: None,
    };
    write_atomic(
        &a.out,
        &(serde_json::to_string_pretty(&snapshot)? + "\n"),
        a.force,
    )?;
    let entities: usize = snapshot.documents.iter().map(|d| d.entities.len()).sum();
    eprintln!(
        "wrote {} documents with {} entity occurrences ({} unlocated items dropped) to {}",
        snapshot.documents.len(),
        entities,
        store.unlocated_total(),
        a.out.display()
    );
    Ok(if corpus.diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    })
}

fn clam_is_inside(child: &Path, parent: &Path) -> bool {
    let parent = std::fs::canonicalize(parent).unwrap_or_else(|_| parent.to_path_buf());
    let child_dir = child
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::canonicalize(child_dir).is_ok_and(|c| c.starts_with(&parent))
}

fn plan(a: PlanArgs) -> Result<u8> {
    let text = std::fs::read_to_string(&a.snapshot)
        .with_context(|| format!("{}: cannot read", a.snapshot.display()))?;
    let mut snapshot: Snapshot = serde_json::from_str(&text)
        .with_context(|| format!("{}: not a snapshot", a.snapshot.display()))?;
    let layer = snapshot
        .config_layer()
        .with_context(|| format!("{}", a.snapshot.display()))?;
    let mut config = load_config(
        None,
        a.planning.config.as_ref(),
        &a.planning,
        None,
        Some(layer),
    )?;
    if let Some(path) = &a.planning.session {
        if !path.is_file() {
            bail!("{}: no such session file", path.display());
        }
        let state = Session::open(path)?.state()?;
        let (adopted, warnings) = clam::config::params::apply_settings(&config, &state.settings);
        for w in warnings {
            eprintln!("warning: {}", escape_line(&w));
        }
        config = adopted;
        let forced = snapshot.forced.get_or_insert_with(Default::default);
        forced.mask.extend(state.force_mask());
        forced.keep.extend(state.force_keep());
    }
    let v = plan_snapshot(&snapshot, &config)?;
    let mut out = std::io::stdout().lock();
    serde_json::to_writer_pretty(&mut out, &v)?;
    writeln!(out)?;
    Ok(EXIT_OK)
}

fn eval(a: EvalArgs) -> Result<u8> {
    // The gold is read first: a bad gold file fails before the corpus is extracted.
    let gold = clam::eval::load(&a.gold, a.mentions.as_deref())?;
    let ws = build_workspace(
        &a.corpus,
        &a.planning,
        a.mode,
        false,
        &ExtractorArgs::default(),
    )?;
    // The corpus's project key when its session exists (pseudonyms as the export writes
    // them); the figures do not depend on it.
    let key = match &ws.session {
        Some(s) => s.project_key()?,
        None => clam::eval::EVAL_KEY.to_vec(),
    };
    let report = clam::eval::evaluate_with(&ws, &gold, &key, a.baselines);
    let mut out = std::io::stdout().lock();
    if a.json {
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", report.to_table())?;
    }
    Ok(if ws.corpus.diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    })
}

/// `clam sweep`: the plan at every value of one parameter, as a table, CSV or JSON.
fn sweep(a: SweepArgs) -> Result<u8> {
    use clam::whatif::{Basis, Param, sweep_values};
    // Parameter, range and gold are checked before the corpus is extracted.
    let param = Param::parse(&a.param)?;
    let gold = match &a.gold {
        Some(path) => {
            let g = clam::eval::load(path, None)?;
            let persons = g.clusters.iter().any(|c| !c.persons.is_empty());
            if g.chains.is_none() && !persons {
                bail!(
                    "{}: the gold has neither chains nor persons to score",
                    path.display()
                );
            }
            Some(g)
        }
        None => None,
    };
    let chains = gold.as_ref().and_then(|g| g.chains.clone());
    let config = load_config(
        Some(&a.corpus.corpus),
        a.planning.config.as_ref(),
        &a.planning,
        None,
        None,
    )?;
    sweep_values(param, &config, a.from, a.to, a.step)?;
    let ws = build_workspace(&a.corpus, &a.planning, None, false, &a.extraction)?;
    // The leak rate redacts with the session's key when there is one (pseudonym mode);
    // the figures do not depend on it.
    let key = match &ws.session {
        Some(s) => s.project_key()?,
        None => clam::eval::EVAL_KEY.to_vec(),
    };
    let probe = gold
        .as_ref()
        .map(|g| clam::eval::PrivacyEvaluator::new(&ws, g))
        .filter(|ev| ev.has_persons())
        .map(|ev| clam::eval::MaskProbe::new(&ws, std::sync::Arc::new(ev), &key));
    let leak = probe.as_ref().map(|p| move |m: &[bool]| p.leak_rate(m));
    let rows = clam::whatif::sweep(
        &Basis::of(&ws),
        param,
        a.from,
        a.to,
        a.step,
        chains.as_deref(),
        leak.as_ref().map(|f| f as clam::whatif::LeakRate),
    )?;
    // The gold columns: (CSV name, table heading, value).
    type Column = (
        &'static str,
        &'static str,
        fn(&clam::whatif::SweepRow) -> Option<f64>,
    );
    let f1: Column = ("f1", "CHAIN F1", |r| r.f1);
    let leak_rate: Column = ("leak_rate", "LEAK RATE", |r| r.leak_rate);
    let gold_columns: Vec<Column> = [(chains.is_some(), f1), (probe.is_some(), leak_rate)]
        .into_iter()
        .filter_map(|(on, c)| on.then_some(c))
        .collect();
    let mut out = std::io::stdout().lock();
    if a.json {
        serde_json::to_writer_pretty(&mut out, &rows)?;
        writeln!(out)?;
    } else if a.csv {
        let mut head = "value,masked,max_chain_risk,mean_chain_risk,high,medium,low".to_string();
        for (name, _, _) in &gold_columns {
            head.push_str(&format!(",{name}"));
        }
        writeln!(out, "{head}")?;
        for r in &rows {
            let mut line = format!(
                "{},{},{},{},{},{},{}",
                r.value, r.masked, r.max_chain_risk, r.mean_chain_risk, r.high, r.medium, r.low
            );
            for (_, _, get) in &gold_columns {
                line.push(',');
                line.push_str(&get(r).map(|x| x.to_string()).unwrap_or_default());
            }
            writeln!(out, "{line}")?;
        }
    } else {
        writeln!(
            out,
            "{} documents, {} entities; chain risk is final (after masking) over every chain of kept edges; pinned and overridden entities hold at every value\n",
            ws.model.docs.len(),
            ws.model.entities.len()
        )?;
        let mut head = format!(
            "{:<14} {:>6}  {:>8}  {:>9}  {:>4}  {:>6}  {:>5}",
            param.name().to_uppercase(),
            "MASKED",
            "MAX RISK",
            "MEAN RISK",
            "HIGH",
            "MEDIUM",
            "LOW",
        );
        for (_, heading, _) in &gold_columns {
            head.push_str(&format!("  {heading:>9}"));
        }
        writeln!(out, "{head}")?;
        for r in &rows {
            let mut line = format!(
                "{:<14} {:>6}  {:>8.3}  {:>9.3}  {:>4}  {:>6}  {:>5}",
                r.value, r.masked, r.max_chain_risk, r.mean_chain_risk, r.high, r.medium, r.low,
            );
            for (_, _, get) in &gold_columns {
                let cell = get(r).map_or("–".to_string(), |x| format!("{x:.3}"));
                line.push_str(&format!("  {cell:>9}"));
            }
            writeln!(out, "{line}")?;
        }
    }
    Ok(if ws.corpus.diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    })
}

fn gen_corpus(a: GenCorpusArgs) -> Result<u8> {
    if a.docs == 0 {
        eprintln!("error: --docs must be at least 1");
        return Ok(2);
    }
    for name in ["corpus.jsonl", "gold.json"] {
        let p = a.out.join(name);
        if p.exists() && !a.force {
            eprintln!(
                "error: {}: already exists; pass --force to overwrite",
                p.display()
            );
            return Ok(1);
        }
    }
    let params = clam::gencorpus::GenParams {
        docs: a.docs,
        seed: a.seed,
    };
    let g = clam::gencorpus::write(&a.out, params)
        .with_context(|| format!("writing the corpus to {}", a.out.display()))?;
    let clusters = g.gold["clusters"].as_array().map_or(0, Vec::len);
    println!(
        "wrote {} documents ({} clusters of hidden persons) to {} and their gold to {}",
        g.documents.len(),
        clusters,
        a.out.join("corpus.jsonl").display(),
        a.out.join("gold.json").display()
    );
    Ok(0)
}

/// `clam review`: loads the corpus and the session (created if needed), then hands a
/// workspace whose documents are still pending to the terminal application, which
/// extracts them in the background.
fn review(a: ReviewArgs, actor: String) -> Result<u8> {
    let config = load_config(
        Some(&a.corpus.corpus),
        a.planning.config.as_ref(),
        &a.planning,
        a.mode,
        None,
    )?;
    let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
    // --theme, else `[ui] theme` of the configuration, else dark.
    let theme = match (&a.theme, &config.ui.theme) {
        (Some(name), _) => clam::tui::Theme::select(Some(name), no_color)?,
        (None, Some(name)) => clam::tui::Theme::select(Some(name), no_color).map_err(|e| {
            anyhow::anyhow!(
                "{}: key `ui.theme`: {e}",
                config.ui.theme_origin.as_deref().unwrap_or("configuration")
            )
        })?,
        (None, None) => clam::tui::Theme::select(None, no_color)?,
    };
    let keymap_file =
        directories::ProjectDirs::from("", "", "clam").map(|d| d.config_dir().join("keymap.toml"));
    let keymap = clam::tui::Keymap::load(keymap_file.as_deref())?;
    let corpus = load_corpus(&a.corpus, &config)?;
    let session = open_session(&a.corpus.corpus, a.planning.session.as_ref(), true)?;
    if session.is_none() {
        bail!("this platform has no user data directory for the session; pass --session FILE");
    }
    for d in &corpus.diagnostics {
        tracing::warn!(%d, "skipped input");
    }
    // The LLM extractor is checked (endpoint, model, key, prompts) before the screen
    // is taken over, so a refusal is an ordinary error message.
    let llm = match a.extractor.extractor {
        ExtractorKind::Offline => None,
        ExtractorKind::Llm => Some(llm_extractor(
            &config,
            &a.extractor,
            corpus.documents.len(),
        )?),
    };
    let gold = match &a.gold {
        Some(p) => Some((clam::eval::load(p, None)?, p.display().to_string())),
        None => None,
    };
    let name = if llm.is_some() { "llm" } else { "offline" };
    let ws = Workspace::pending(corpus, config, session, name)?;
    let corpus_name = a
        .corpus
        .corpus
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| a.corpus.corpus.display().to_string());
    clam::tui::run(
        ws,
        clam::tui::ReviewOptions {
            theme,
            keymap,
            actor,
            corpus_name,
            llm,
            gold,
        },
    )?;
    Ok(EXIT_OK)
}
