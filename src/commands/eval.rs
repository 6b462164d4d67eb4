//! `clam eval`: measurements against gold.

use super::*;

pub(super) fn eval(a: EvalArgs, bars: &Bars) -> Result<u8> {
    // The gold is read first: a bad gold file fails before the corpus is extracted.
    let gold = clam::eval::load(&a.gold, a.mentions.as_deref())?;
    let ws = build_workspace(
        &a.corpus,
        &a.planning,
        a.mode,
        false,
        &ExtractorArgs::default(),
        bars,
    )?;
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
