//! `clam eval`: measurements against gold.

use super::*;

pub(super) fn eval(a: EvalArgs, bars: &Bars) -> Result<u8> {
    // The gold is read first: a bad gold file fails before the corpus is extracted.
    let gold = clam::eval::load(&a.gold, a.mentions.as_deref())?;
    let ws = match &a.snapshot {
        None => build_workspace(&a.corpus, &a.planning, a.mode, false, &a.extraction, bars)?,
        Some(path) => workspace_of_snapshot(&a, path, bars)?,
    };
    // The corpus's project key when its session exists (pseudonyms as the export writes
    // them); the figures do not depend on it.
    let key = match ws.session() {
        Some(s) => s.project_key()?,
        None => clam::eval::EVAL_KEY.to_vec(),
    };
    bars.spinner("evaluating");
    let report = clam::eval::evaluate_with(&ws, &gold, &key, a.baselines);
    bars.clear();
    let mut out = super::stdout();
    if a.json {
        clam::display::write_json_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        write!(out, "{}", report.to_table())?;
    }
    out.flush()?;
    Ok(if ws.corpus().diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    })
}

/// The workspace of `clam eval CORPUS --snapshot FILE`: the corpus with the snapshot's
/// entities, planned under the configuration the snapshot records (between the corpus's
/// clam.toml and --config, as `clam plan` reads it).
fn workspace_of_snapshot(a: &EvalArgs, path: &Path, bars: &Bars) -> Result<Workspace> {
    if clam::shards::is_shard_file(path)? {
        return Err(UsageError(format!(
            "--snapshot {}: a shard file; merge the shards of one extraction with `clam plan --corpus CORPUS SHARD…`, or evaluate a whole-corpus snapshot",
            path.display()
        ))
        .into());
    }
    let snapshot = read_snapshot(path, bars)?;
    bars.clear();
    let layer = snapshot
        .config_layer()
        .with_context(|| path.display().to_string())?;
    let config = load_config(Some(&a.corpus.corpus), &a.planning, a.mode, Some(layer))?;
    let corpus = load_corpus(&a.corpus, &config, bars)?;
    let store = snapshot
        .store_for(&corpus, &config)
        .with_context(|| path.display().to_string())?;
    let x = Extracted {
        corpus,
        store,
        name: "snapshot",
        llm: None,
    };
    made_with(
        x,
        config,
        &a.corpus,
        &a.planning,
        false,
        bars,
        Workspace::new,
    )
}
