//! `clam plan`: analysis and planner on a snapshot (the reference vectors' shape).

use super::*;

pub(super) fn plan(a: PlanArgs) -> Result<u8> {
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
    let mut out = super::stdout();
    clam::snapshot::write_plan(&snapshot, &config, &mut out)?;
    writeln!(out)?;
    out.flush()?;
    Ok(EXIT_OK)
}
