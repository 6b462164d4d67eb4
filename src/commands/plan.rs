//! `clam plan`: analysis and planner on a snapshot (the reference vectors' shape), or
//! on the shard files of a sharded extraction, merged.

use super::*;

use clam::shards::{ShardFile, extraction_settings, is_shard_file, merge, read_shard};

pub(super) fn plan(a: PlanArgs, bars: &Bars) -> Result<u8> {
    let mut shards = Vec::new();
    for path in &a.snapshots {
        if is_shard_file(path)? {
            shards.push(path);
        }
    }
    let (mut snapshot, origin) = if shards.is_empty() {
        let [path] = a.snapshots.as_slice() else {
            return Err(UsageError(format!(
                "{} snapshots given: clam plan reads one snapshot, or every shard file of one `clam extract --shard i/n` extraction (with --corpus)",
                a.snapshots.len()
            ))
            .into());
        };
        if a.corpus.is_some() {
            return Err(UsageError(format!(
                "--corpus: {} is a snapshot, not a shard file; --corpus is for merging shard files",
                path.display()
            ))
            .into());
        }
        (read_snapshot(path, bars)?, path.display().to_string())
    } else {
        if shards.len() != a.snapshots.len() {
            let other = a.snapshots.iter().find(|p| !shards.contains(p));
            return Err(UsageError(format!(
                "{} is a snapshot among shard files: give one snapshot, or the shard files of one extraction",
                other.map_or_else(String::new, |p| p.display().to_string())
            ))
            .into());
        }
        let Some(corpus) = &a.corpus else {
            return Err(UsageError(
                "--corpus: merging shard files needs the corpus they were extracted from (the corpus-level passes read every document)".into(),
            )
            .into());
        };
        let corpus = CorpusArgs {
            corpus: corpus.clone(),
            format: a.format,
            recursive: a.recursive,
        };
        (
            merged_snapshot(&corpus, &a.snapshots, bars)?,
            "the merged shards".into(),
        )
    };
    let layer = snapshot.config_layer().with_context(|| origin.clone())?;
    let mut config = load_config(None, &a.planning, None, Some(layer))?;
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
    bars.spinner("analysing and planning");
    // Planned and written straight from the plan (no JSON tree); the spinner is
    // cleared before the first byte is written.
    let planned = clam::snapshot::Planned::new(&snapshot, &config);
    bars.clear();
    let mut out = super::stdout();
    clam::snapshot::write_planned(&planned?, &mut out)?;
    writeln!(out)?;
    out.flush()?;
    Ok(EXIT_OK)
}

/// The snapshot that `clam extract` writes for the whole corpus, made from its shard
/// files: the shards are merged against the corpus, the corpus-level passes run on the
/// merged items, and the snapshot goes through its JSON text, exactly as `clam plan
/// SNAPSHOT` would read it.
fn merged_snapshot(corpus: &CorpusArgs, paths: &[PathBuf], bars: &Bars) -> Result<Snapshot> {
    let files: Vec<ShardFile> = paths
        .iter()
        .map(|p| read_shard(p, bars))
        .collect::<Result<_, _>>()?;
    let Some(first) = files.first() else {
        bail!("no shard files given");
    };
    // The configuration the shards were extracted with, alone: the user's and the
    // corpus folder's files were read where the shards were extracted.
    let layer = clam::config::ConfigLayer::from_json(
        &first.header.config,
        &format!("{}: configuration", first.path.display()),
    )?;
    let config = resolve(&ConfigSources {
        user: false,
        corpus_dir: None,
        snapshot: Some(layer),
        file: None,
        flags: Default::default(),
    })?;
    if extraction_settings(&config) != first.header.extraction {
        bail!(
            "{}: the configuration recorded in the shard does not give its extraction settings back; extract the shards again with this version",
            first.path.display()
        );
    }
    let corpus = load_corpus(corpus, &config, bars)?;
    let merged = merge(&corpus, files)?;
    let store = clam::workspace::finish_extraction_with(&corpus, &config, merged.items, bars);
    bars.clear();
    let snapshot = extract::snapshot_of(&corpus, &store, merged.config);
    let text = clam::display::to_json_pretty(&snapshot)? + "\n";
    Ok(serde_json::from_str(&text)?)
}
