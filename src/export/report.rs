//! report.md: the human summary of an export. Entities appear by export id and type.

use std::fmt::Write;

use super::ExportSource;
use super::export_id;
use crate::display::markdown_cell as cell;
use crate::plan::Provenance;

/// Rows of each "riskiest" table: the report's size does not grow with the corpus
/// (SPEC §9); every document, chain and entity is in the manifest's tables (`tables/`).
const RISKIEST: usize = 25;
/// Rows of the lists that are read whole when short (residuals, skipped input,
/// orphaned decisions, warnings), cut beyond this.
const LISTED: usize = 100;

/// "… and N more …" after a list cut at `shown` of `total`.
fn more(s: &mut String, total: usize, shown: usize, what: &str, whole: &str) {
    if total > shown {
        let _ = writeln!(
            s,
            "\n… and {} more {what}; all of them are in {whole}.",
            total - shown
        );
    }
}

/// What the auditors decided: counts, every override with its reason (up to
/// [`LISTED`]) and the adopted settings. Reasons are the auditors' words; the report
/// passes through the replacer like every exported file.
fn auditor_decisions(s: &mut String, ws: &dyn ExportSource, key: &[u8]) {
    let state = ws.state();
    let m = ws.model();
    let overrides: Vec<(&String, bool)> = state
        .forced
        .iter()
        .filter(|(id, _)| !state.pinned.contains(*id))
        .map(|(id, (mask, _))| (id, *mask))
        .collect();
    let _ = writeln!(
        s,
        "## Auditor's decisions\n\n| | count |\n|---|---:|\n| overrides (mask / keep) | {} / {} |\n| pins | {} |\n| proposals accepted | {} |\n| residual risks accepted | {} |\n| gold chains | {} |\n",
        overrides.iter().filter(|(_, mask)| *mask).count(),
        overrides.iter().filter(|(_, mask)| !*mask).count(),
        state.pinned.len(),
        state.accepted.len(),
        state.accepted_residuals.len(),
        state.gold.len()
    );
    if !overrides.is_empty() {
        let _ = writeln!(
            s,
            "| export id | type | override | reason |\n|---|---|---|---|"
        );
        for (id, mask) in overrides.iter().take(LISTED) {
            let ty = m.entity_index(id).map_or("(no longer in the corpus)", |i| {
                m.entities[i].entity_type.as_str()
            });
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} |",
                export_id(key, id),
                cell(ty),
                if *mask { "mask" } else { "keep" },
                cell(state.reasons.get(*id).map_or("", String::as_str))
            );
        }
        more(
            s,
            overrides.len(),
            LISTED,
            "overrides",
            "tables/entities.jsonl.gz (`override_reason`) and decisions.jsonl",
        );
        let _ = writeln!(s);
    }
    if state.settings.is_empty() {
        let _ = writeln!(
            s,
            "Adopted settings: none (the configuration files' values hold).\n"
        );
    } else {
        let list: Vec<String> = state
            .settings
            .iter()
            .filter_map(|(k, _)| state.settings.text(k).map(|v| format!("`{k} = {v}`")))
            .collect();
        let _ = writeln!(
            s,
            "Adopted settings (what-if, over the configuration files): {}.\n",
            list.join(", ")
        );
    }
}

/// Masked entities counted by type and stage.
fn masked_by_type(s: &mut String, ws: &dyn ExportSource) {
    use std::collections::BTreeMap;
    let (m, plan) = (ws.model(), ws.plan());
    let mut rows: BTreeMap<&str, [usize; 5]> = BTreeMap::new();
    for (i, e) in m.entities.iter().enumerate() {
        let col = match &plan.provenance[i] {
            Provenance::Masked { stage, .. } => match stage {
                crate::plan::Stage::Forced => 0,
                crate::plan::Stage::Policy => 1,
                crate::plan::Stage::Document => 2,
                crate::plan::Stage::Chain => 3,
            },
            Provenance::KeptPruned { .. } => 4,
            _ => continue,
        };
        rows.entry(e.entity_type.as_str()).or_default()[col] += 1;
    }
    let _ = writeln!(
        s,
        "\n## Masks by type\n\n| type | forced | policy | document stage | chain stage | released by pruning |\n|---|---:|---:|---:|---:|---:|"
    );
    for (ty, c) in rows {
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            cell(ty),
            c[0],
            c[1],
            c[2],
            c[3],
            c[4]
        );
    }
}

fn f(x: f64) -> String {
    format!("{x:.3}")
}

pub fn render(ws: &dyn ExportSource, key: &[u8], scan_warnings: &[String]) -> String {
    let m = ws.model();
    let an = ws.analysis();
    let plan = ws.plan();
    let mut s = String::new();
    let _ = writeln!(s, "# clam export report\n");
    let _ = writeln!(
        s,
        "clam {} · extractor `{}` · redaction `{}` · strategy `{}` · pruning {} · config {}\n",
        env!("CARGO_PKG_VERSION"),
        ws.extractor(),
        ws.config().redact.mode.as_str(),
        match ws.config().plan.strategy {
            crate::plan::Strategy::Greedy => "greedy",
            crate::plan::Strategy::Knapsack => "knapsack",
        },
        if ws.config().plan.prune { "on" } else { "off" },
        ws.config().hash(key)
    );
    // 0: unmasked, 1: after the document stage, 2: masked (the plan).
    let count = |cat: crate::analysis::RiskCategory, when: u8| {
        plan.chains
            .iter()
            .filter(|c| match when {
                0 => c.category_initial == cat,
                1 => c.category_pre == cat,
                _ => c.category_final == cat,
            })
            .count()
    };
    use crate::analysis::RiskCategory::{High, Low, Medium};
    let _ = writeln!(s, "## Summary\n");
    let _ = writeln!(s, "| | value |\n|---|---|");
    let _ = writeln!(s, "| documents | {} |", ws.corpus().documents.len());
    let _ = writeln!(s, "| skipped input | {} |", ws.corpus().diagnostics.len());
    let _ = writeln!(s, "| entities | {} |", m.entities.len());
    let _ = writeln!(
        s,
        "| unlocated extractor items (dropped) | {} |",
        ws.store().unlocated_total()
    );
    if let Some(r) = ws.llm() {
        let _ = writeln!(s, "| LLM endpoint / model | {} / {} |", r.endpoint, r.model);
        let _ = writeln!(
            s,
            "| LLM fallbacks to offline / invalid items dropped | {} / {} |",
            r.fallbacks,
            r.dropped.total()
        );
    }
    // The configuration's term lists as counts and file names only (SPEC §5).
    let (gazetteer, allow, deny) = ws.config().extract.term_counts();
    let _ = writeln!(
        s,
        "| configured terms: gazetteer / allow / deny | {gazetteer} / {allow} / {deny} |"
    );
    let files: Vec<String> = ws
        .config()
        .extract
        .gazetteer_files
        .iter()
        .flat_map(|(ty, files)| {
            files
                .iter()
                .map(move |f| format!("{} ({ty}, {} terms)", cell(&f.file), f.terms))
        })
        .collect();
    if !files.is_empty() {
        let _ = writeln!(s, "| gazetteer files | {} |", files.join(", "));
    }
    // SPEC §11: every key the corpus folder's clam.toml set.
    if let Some(c) = &ws.config().corpus_config {
        let keys: Vec<String> = c.keys.iter().map(|k| cell(k)).collect();
        let _ = writeln!(
            s,
            "| keys set by the corpus folder's clam.toml | {} |",
            if keys.is_empty() {
                "none".to_string()
            } else {
                keys.join(", ")
            }
        );
    }
    let _ = writeln!(s, "| masked entities | {} |", plan.masked_count());
    let _ = writeln!(
        s,
        "| masks released by pruning (kept) | {} |",
        plan.pruned.len()
    );
    let _ = writeln!(s, "| kept edges | {} |", an.edges.len());
    for (label, when) in [
        ("unmasked", 0),
        ("after the document stage (the chain stage's targets)", 1),
        ("masked (the plan)", 2),
    ] {
        let _ = writeln!(
            s,
            "| chains HIGH / MEDIUM / LOW {label} | {} / {} / {} |",
            count(High, when),
            count(Medium, when),
            count(Low, when)
        );
    }
    let (open_docs, open_chains) = ws.unaccepted_residuals();
    let _ = writeln!(
        s,
        "| residual documents | {} ({} accepted) |",
        plan.residual_docs.len(),
        plan.residual_docs.len() - open_docs
    );
    let _ = writeln!(
        s,
        "| residual chains | {} ({} accepted) |\n",
        plan.residual_chains.len(),
        plan.residual_chains.len() - open_chains
    );
    if an.chain_cap.hit() {
        let firsts: Vec<String> = an
            .chain_cap
            .capped_components
            .iter()
            .map(|&d| cell(&m.docs[d as usize].id))
            .collect();
        let _ = writeln!(
            s,
            "**Chain cap hit.** {} component(s) of the document graph had more chains than \
             `max_chains_per_component` = {}: every 2-document chain was analysed, longer \
             chains only up to the cap (shortest first, then in document order); the rest \
             were not analysed or planned for. Components starting at: {}.\n",
            firsts.len(),
            an.chain_cap.limit,
            firsts.join(", ")
        );
    }

    diagnostics_section(
        &mut s,
        "Skipped input",
        &ws.corpus().diagnostics,
        "skipped inputs",
        "manifest.json (`corpus.skipped`)",
    );
    diagnostics_section(
        &mut s,
        "Files not read (not documents)",
        &ws.corpus().not_read,
        "files not read",
        "manifest.json (`corpus.not_read`)",
    );

    // The riskiest documents: residual ones first, then by risk after masking.
    let residual_doc = |d: usize| plan.residual_docs.binary_search(&(d as u32)).is_ok();
    let shown = RISKIEST.max(plan.residual_docs.len().min(LISTED));
    let docs = first_by(m.docs.len(), shown, |&a, &b| {
        residual_doc(b)
            .cmp(&residual_doc(a))
            .then(plan.doc_risk_final[b].total_cmp(&plan.doc_risk_final[a]))
            .then(an.doc_risk_initial[b].total_cmp(&an.doc_risk_initial[a]))
            .then(a.cmp(&b))
    });
    let _ = writeln!(
        s,
        "## Riskiest documents\n\n{} of {} documents: residual ones first, then by risk after \
         masking; every document is in tables/documents.jsonl.gz.\n\n\
         | document | risk before | risk after | residual |\n|---|---:|---:|---|",
        shown.min(m.docs.len()),
        m.docs.len()
    );
    for &d in &docs {
        let doc = &m.docs[d];
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} |",
            cell(&doc.id),
            f(an.doc_risk_initial[d]),
            f(plan.doc_risk_final[d]),
            residual_text(
                residual_doc(d),
                ws.residual_accepted(std::slice::from_ref(&doc.id))
            )
        );
    }
    let mut residual_chain = vec![false; an.chains.len()];
    for &c in &plan.residual_chains {
        residual_chain[c as usize] = true;
    }
    let shown = RISKIEST.max(plan.residual_chains.len().min(LISTED));
    let chains = first_by(an.chains.len(), shown, |&a, &b| {
        let (ra, rb) = (&plan.chains[a], &plan.chains[b]);
        residual_chain[b]
            .cmp(&residual_chain[a])
            .then(rb.risk_final.total_cmp(&ra.risk_final))
            .then(rb.risk_initial.total_cmp(&ra.risk_initial))
            .then(a.cmp(&b))
    });
    let _ = writeln!(
        s,
        "\n## Riskiest chains\n\n{} of {} chains: residual ones first, then by risk after \
         masking; every chain is in tables/chains.jsonl.gz.\n\n\
         | chain | initial | pre | final | category | target | residual |\n|---|---:|---:|---:|---|---:|---|",
        shown.min(an.chains.len()),
        an.chains.len()
    );
    for &i in &chains {
        let (c, r) = (&an.chains[i], &plan.chains[i]);
        let docs: Vec<String> = c
            .docs()
            .iter()
            .map(|&d| cell(&m.docs[d as usize].id))
            .collect();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} → {} | {} | {} |",
            docs.join(" → "),
            f(r.risk_initial),
            f(r.risk_pre),
            f(r.risk_final),
            r.category_initial.as_str(),
            r.category_final.as_str(),
            r.target().map(f).unwrap_or_default(),
            residual_text(
                residual_chain[i],
                residual_chain[i] && ws.residual_accepted(&ws.chain_doc_ids(i))
            )
        );
    }
    masked_by_type(&mut s, ws);
    let entity_rows = |s: &mut String, title: &str, intro: &str, list: &[usize]| {
        let mut list = list.to_vec();
        super::rows::by_reach(an, &mut list);
        let _ = writeln!(
            s,
            "\n## {title}\n\n{intro}{} of {}, in most documents first; every one is in \
             tables/entities.jsonl.gz.\n\n\
             | export id | type | documents | s_e | review | provenance |\n|---|---|---:|---:|---|---|",
            list.len().min(RISKIEST),
            list.len()
        );
        for &i in list.iter().take(RISKIEST) {
            let row = super::rows::entity_row(ws, i);
            let _ = writeln!(
                s,
                "| {} | {} | {} | {} | {:?} | {} |",
                export_id(key, &m.entities[i].id),
                cell(&m.entities[i].entity_type),
                row.documents.len(),
                f(row.s_e),
                row.review,
                cell(&row.provenance)
            );
        }
    };
    let masked: Vec<usize> = (0..m.entities.len()).filter(|&i| plan.masked[i]).collect();
    entity_rows(&mut s, "Masked entities", "", &masked);
    if !plan.pruned.is_empty() {
        let pruned: Vec<usize> = plan.pruned.iter().map(|&i| i as usize).collect();
        entity_rows(
            &mut s,
            "Released by pruning",
            "Masked by the document or chain stage, then kept: every document and chain \
             bound holds without them. ",
            &pruned,
        );
    }
    let kept: Vec<usize> = (0..m.entities.len()).filter(|&i| !plan.masked[i]).collect();
    let kept_forced = plan
        .provenance
        .iter()
        .filter(|p| matches!(p, Provenance::KeptForced))
        .count();
    entity_rows(
        &mut s,
        "Kept entities",
        &format!(
            "{} entities kept ({} by auditor decision, {} released by pruning); why each is \
             kept is its provenance. ",
            kept.len(),
            kept_forced,
            plan.pruned.len()
        ),
        &kept,
    );
    let _ = writeln!(s);
    auditor_decisions(&mut s, ws, key);
    let orphaned = ws.orphaned_decisions();
    if !orphaned.is_empty() {
        let _ = writeln!(
            s,
            "## Orphaned decisions\n\nDecisions on entities that no longer occur in the corpus; \
             they are kept and apply again if the entity comes back.\n\n| export id | decision |\n|---|---|"
        );
        for (id, decision) in orphaned.iter().take(LISTED) {
            let _ = writeln!(s, "| {} | {decision} |", export_id(key, id));
        }
        more(
            &mut s,
            orphaned.len(),
            LISTED,
            "orphaned decisions",
            "manifest.json",
        );
        let _ = writeln!(s);
    }
    let warnings = super::export_warnings(ws, scan_warnings, key);
    if !warnings.is_empty() {
        let _ = writeln!(s, "## Warnings\n");
        for w in warnings.iter().take(LISTED) {
            let _ = writeln!(s, "- {}", cell(w));
        }
        more(
            &mut s,
            warnings.len(),
            LISTED,
            "warnings",
            "manifest.json (`warnings`)",
        );
    }
    s
}

/// The residual column: empty, `yes`, or `yes, accepted`.
fn residual_text(residual: bool, accepted: bool) -> &'static str {
    match (residual, accepted) {
        (false, _) => "",
        (true, false) => "yes",
        (true, true) => "yes, accepted",
    }
}

/// A section listing input diagnostics (skipped input, files not read), cut after
/// [`LISTED`] with a note of where the rest is; nothing when there are none.
fn diagnostics_section(
    s: &mut String,
    title: &str,
    all: &[crate::corpus::Diagnostic],
    what: &str,
    rest_in: &str,
) {
    if all.is_empty() {
        return;
    }
    let _ = writeln!(s, "## {title}\n");
    for d in all.iter().take(LISTED) {
        let _ = writeln!(s, "- {}", cell(&d.to_string()));
    }
    more(s, all.len(), LISTED, what, rest_in);
    let _ = writeln!(s);
}

/// The first `k` of `0..n` in the order `cmp` (a total order), in that order: the
/// report lists a few of ten million chains, so they are selected, not all sorted.
fn first_by(n: usize, k: usize, cmp: impl Fn(&usize, &usize) -> std::cmp::Ordering) -> Vec<usize> {
    let mut all: Vec<usize> = (0..n).collect();
    if k < n {
        all.select_nth_unstable_by(k, &cmp);
        all.truncate(k);
    }
    all.sort_by(&cmp);
    all
}

#[cfg(test)]
mod tests {
    use super::first_by;
    use proptest::prelude::*;

    proptest! {
        /// The report's riskiest rows are those a whole sort would list first.
        #[test]
        fn the_first_k_are_those_of_a_whole_sort(
            risks in proptest::collection::vec(0u8..5, 0..60),
            k in 0usize..70,
        ) {
            let cmp = |a: &usize, b: &usize| risks[*b].cmp(&risks[*a]).then(a.cmp(b));
            let mut all: Vec<usize> = (0..risks.len()).collect();
            all.sort_by(cmp);
            all.truncate(k);
            prop_assert_eq!(first_by(risks.len(), k, cmp), all);
        }
    }
}
