//! `clam analyze`: the analysis and plan as a table or JSON.

use clam::export::rows::{entity_row, kept_entities};

use super::*;

/// Kept entities listed by the table output (the riskiest; `--json` lists every one).
const KEPT_SHOWN: usize = 25;

fn analysis_json(ws: &Workspace) -> Value {
    let m = ws.model();
    let an = ws.analysis();
    let p = ws.plan();
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
    // One row per entity as report.md and the manifest list it (`export::rows`).
    let entity_json = |i: usize| {
        let e = &m.entities[i];
        let row = entity_row(ws, i);
        let mut v = json!({
            "id": e.id,
            "type": e.entity_type,
            "value": e.value,
            "documents": ids(&row.documents),
            "s_e": row.s_e,
            "review_state": row.review,
            "provenance": row.provenance,
        });
        if let (Some(why), Some(o)) = (row.kept_because, v.as_object_mut()) {
            o.insert("kept_because".into(), json!(why));
        }
        v
    };
    json!({
        "config": ws.config(),
        "extractor": ws.extractor(),
        "skipped": ws.corpus().diagnostics.iter().map(clam::corpus::Diagnostic::to_json).collect::<Vec<_>>(),
        "not_read": ws.corpus().not_read.iter().map(clam::corpus::Diagnostic::to_json).collect::<Vec<_>>(),
        "unlocated": ws.store().unlocated_total(),
        "llm": ws.llm(),
        "documents": m.docs.iter().enumerate().map(|(d, doc)| json!({
            "id": doc.id,
            "entities": doc.entities.len(),
            "unlocated": ws.store().docs.get(doc.corpus_index).map_or(0, |x| x.unlocated),
            "invalid": ws.store().docs.get(doc.corpus_index).map_or(0, |x| x.invalid),
            "extraction": ws.llm().and_then(|r| r.documents.get(doc.corpus_index)).map(|r| json!({
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
            "docs": ids(c.docs()),
            "risk_initial": r.risk_initial,
            "category": r.category_initial,
            "risk_pre": r.risk_pre,
            "category_pre": r.category_pre,
            "risk_final": r.risk_final,
            "category_final": r.category_final,
        })).collect::<Vec<_>>(),
        "masks": (0..m.entities.len()).filter(|&i| p.masked[i]).map(entity_json).collect::<Vec<_>>(),
        "released_by_pruning": p.pruned.iter().map(|&i| entity_json(i as usize)).collect::<Vec<_>>(),
        "kept": kept_entities(an, p).into_iter().map(entity_json).collect::<Vec<_>>(),
        "residual_documents": p.residual_docs.iter().map(|&d| m.docs[d as usize].id.clone()).collect::<Vec<_>>(),
        "residual_chains": p.residual_chains.iter().map(|&c| ids(an.chains[c as usize].docs())).collect::<Vec<_>>(),
        "accepted_residual_documents": accepted_docs,
        "accepted_residual_chains": accepted_chains,
        "orphaned_decisions": ws.orphaned_decisions().iter().map(|(id, decision)| json!({"id": id, "decision": decision})).collect::<Vec<_>>(),
        "warnings": p.warnings.iter().chain(ws.warnings().iter()).collect::<Vec<_>>(),
        "corpus_config": ws.config().corpus_config,
    })
}

pub(super) fn analyze(a: AnalyzeArgs, bars: &Bars) -> Result<u8> {
    let ws = build_workspace(&a.corpus, &a.planning, None, false, &a.extraction, bars)?;
    let mut out = super::stdout();
    if a.json {
        clam::display::write_json_pretty(&mut out, &analysis_json(&ws))?;
        writeln!(out)?;
    } else {
        let m = ws.model();
        let an = ws.analysis();
        let p = ws.plan();
        writeln!(
            out,
            "{} documents, {} entities ({} unlocated items dropped), {} kept edges, {} chains, {} masks proposed ({} released by pruning)\n",
            m.docs.len(),
            m.entities.len(),
            ws.store().unlocated_total(),
            an.edges.len(),
            an.chains.len(),
            p.masked_count(),
            p.pruned.len()
        )?;
        if let Some(c) = &ws.config().corpus_config {
            writeln!(
                out,
                "The corpus folder's {} set: {}",
                clam::display::escape_line(&c.file),
                clam::display::escape_line(&c.keys.join(", "))
            )?;
        }
        if let Some(r) = ws.llm() {
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
                let unlocated = ws.store().docs.get(i).map_or(0, |x| x.unlocated);
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
                    escape_line(&d.id),
                    status,
                    d.dropped.total(),
                    d.dropped.shape,
                    d.dropped.unknown_type,
                    d.dropped.relevance,
                    unlocated,
                    d.reason
                        .as_deref()
                        .map(|r| format!("; {}", escape_line(r)))
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
                escape_line(&doc.id),
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
                    format!("{}:{}", ent.entity_type, escape_line(&ent.value))
                })
                .collect();
            writeln!(
                out,
                "{:<49} {:.3}     {}",
                format!(
                    "{} — {}",
                    escape_line(&m.docs[e.a as usize].id),
                    escape_line(&m.docs[e.b as usize].id)
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
                .docs()
                .iter()
                .map(|&d| escape_line(&m.docs[d as usize].id))
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
        let released: Vec<usize> = p.pruned.iter().map(|&i| i as usize).collect();
        let masks: Vec<usize> = (0..m.entities.len()).filter(|&i| p.masked[i]).collect();
        let kept = kept_entities(an, p);
        let kept_title = format!(
            "KEPT ({} of {}, in most documents first; all of them with --json)",
            kept.len().min(KEPT_SHOWN),
            kept.len()
        );
        for (title, list, always) in [
            ("PROPOSED MASKS", &masks[..], true),
            ("RELEASED BY PRUNING (kept)", &released[..], false),
            (
                kept_title.as_str(),
                &kept[..kept.len().min(KEPT_SHOWN)],
                false,
            ),
        ] {
            if list.is_empty() && !always {
                continue;
            }
            writeln!(out, "\n{title}")?;
            for &i in list {
                let e = &m.entities[i];
                let row = entity_row(&ws, i);
                writeln!(
                    out,
                    "  {:<20} {:<32} s_e {:.3}  {}",
                    escape_line(&e.entity_type),
                    escape_line(&e.value),
                    row.s_e,
                    escape_line(&row.provenance)
                )?;
            }
        }
        if !p.residual_docs.is_empty() || !p.residual_chains.is_empty() {
            writeln!(out, "\nRESIDUAL RISK")?;
            let accepted = |yes: bool| if yes { "accepted" } else { "open" };
            for &d in &p.residual_docs {
                let id = &m.docs[d as usize].id;
                let ok = ws.residual_accepted(std::slice::from_ref(id));
                writeln!(out, "  document {:<40} {}", escape_line(id), accepted(ok))?;
            }
            for &c in &p.residual_chains {
                let docs = ws.chain_doc_ids(c as usize);
                let ok = ws.residual_accepted(&docs);
                writeln!(
                    out,
                    "  chain    {:<40} {}",
                    escape_line(&docs.join(" → ")),
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
    out.flush()?;
    Ok(if ws.corpus().diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    })
}
