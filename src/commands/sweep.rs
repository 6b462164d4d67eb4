//! `clam sweep`: one parameter over a range.

use super::*;

/// `clam sweep`: the plan at every value of one parameter, as a table, CSV or JSON.
pub(super) fn sweep(a: SweepArgs, bars: &Bars) -> Result<u8> {
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
    let config = load_config(Some(&a.corpus.corpus), &a.planning, None, None)?;
    sweep_values(param, &config, a.from, a.to, a.step)?;
    let ws = build_workspace(&a.corpus, &a.planning, None, false, &a.extraction, bars)?;
    // The leak rate redacts with the session's key when there is one (pseudonym mode);
    // the figures do not depend on it.
    let key = match ws.session() {
        Some(s) => s.project_key()?,
        None => clam::eval::EVAL_KEY.to_vec(),
    };
    let probe = gold
        .as_ref()
        .map(|g| clam::eval::PrivacyEvaluator::new(&ws, g))
        .filter(|ev| ev.has_persons())
        .map(|ev| clam::eval::MaskProbe::new(&ws, std::sync::Arc::new(ev), &key));
    let leak = probe.as_ref().map(|p| move |m: &[bool]| p.leak_rate(m));
    let rows = clam::whatif::sweep_with(
        &Basis::of(&ws),
        param,
        (a.from, a.to, a.step),
        chains.as_deref(),
        leak.as_ref().map(|f| f as clam::whatif::LeakRate),
        &|| false,
        bars,
    );
    bars.clear();
    let rows = rows?;
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
    let mut out = super::stdout();
    if a.json {
        clam::display::write_json_pretty(&mut out, &rows)?;
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
            ws.model().docs.len(),
            ws.model().entities.len()
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
    out.flush()?;
    Ok(if ws.corpus().diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    })
}
