//! The evaluation report as text tables.

use super::*;
use crate::display::escape_line;

pub(super) fn num(x: f64, undefined: bool) -> String {
    format!("{x:.3}{}", if undefined { "*" } else { " " })
}

pub(super) fn prf_row(label: &str, p: &Prf) -> String {
    format!(
        "  {label:<34} {} {} {} {:>5} {:>5} {:>5}\n",
        num(p.precision, p.undefined.contains(&"precision")),
        num(p.recall, p.undefined.contains(&"recall")),
        num(p.f1, false),
        p.tp,
        p.fp,
        p.fn_
    )
}

pub(super) fn counts_text(c: &ClusterCounts) -> String {
    format!(
        "{} (intra-cluster {}, inter-cluster {}, touching unclustered documents {})",
        c.total, c.intra, c.inter, c.outside
    )
}

pub(super) fn opt(x: Option<f64>) -> String {
    x.map_or_else(|| "  —  ".to_string(), |x| format!("{x:.3}"))
}

pub(super) fn privacy_table(p: &PrivacyReport, mode: crate::redact::Mode) -> String {
    let mut o = String::new();
    let _ = writeln!(
        o,
        "\nPRIVACY gold person entities still found in the redacted documents ({} mode)\n  weighted leak rate per cluster; leaked = HIGH > {} or MEDIUM > {}",
        mode.as_str(),
        privacy::LEAKED_HIGH,
        privacy::LEAKED_MEDIUM
    );
    let _ = writeln!(
        o,
        "  {:<16} {:<7} {:>5} {:>8} {:>5}  {:<7} leaked entities",
        "cluster", "risk", "docs", "entities", "rate", "leaked"
    );
    let mut hidden = 0;
    for (i, c) in p.by_cluster.iter().enumerate() {
        if i >= CLUSTERS_SHOWN && !c.leaked {
            hidden += 1;
            continue;
        }
        let list: Vec<String> = c
            .leaked_entities
            .iter()
            .map(|e| format!("{}:{}", e.entity_type, escape_line(&e.value)))
            .collect();
        let more = list.len().saturating_sub(LEAKED_SHOWN);
        let _ = writeln!(
            o,
            "  {:<16} {:<7} {:>5} {:>8} {}  {:<7} {}{}",
            escape_line(&c.id),
            c.risk.map_or("—", |r| r.as_str()),
            if c.missing_documents > 0 {
                format!("{}/{}", c.documents, c.documents + c.missing_documents)
            } else {
                c.documents.to_string()
            },
            c.entities,
            opt(c.leak_rate),
            if c.leaked { "LEAKED" } else { "no" },
            list[..list.len().min(LEAKED_SHOWN)].join("; "),
            if more > 0 {
                format!("; … and {more} more")
            } else {
                String::new()
            }
        );
    }
    if hidden > 0 {
        let _ = writeln!(
            o,
            "  … and {hidden} more cluster(s) not leaked (see --json)"
        );
    }
    let _ = writeln!(
        o,
        "  overall leak rate {} (mean over {} HIGH/MEDIUM clusters); leaked clusters {}/{}",
        opt(p.leak_rate),
        p.rated_clusters,
        p.leaked_clusters,
        p.rated_clusters
    );
    o
}

pub(super) fn utility_table(u: &ByQuestionType<Option<f64>>, q: &UtilityQuestions) -> String {
    let mut o = String::from(
        "\nUTILITY ROUGE-1 recall of the gold answers against their redacted source documents\n",
    );
    for t in QuestionType::ALL {
        let _ = writeln!(
            o,
            "  {:<16} {}  ({} questions)",
            t.key(),
            opt(*u.get(t)),
            q.evaluated.get(t)
        );
    }
    if q.skipped > 0 {
        let _ = writeln!(o, "  {} question(s) skipped (see --json)", q.skipped);
    }
    o
}

pub(super) fn baselines_table(rows: &[Baseline]) -> String {
    let mut o = String::from("\nBASELINES leak rate and utility (ROUGE-1 recall) per mask set\n");
    let _ = writeln!(
        o,
        "  {:<38} {:>6} {:>6} {:>7}  {:>8} {:>8} {:>8} {:>8}",
        "", "masked", "leak", "leaked", "spec/1", "spec/n", "gen/1", "gen/n"
    );
    for b in rows {
        let u = |t| format!("{:>8}", opt(*b.utility.get(t)));
        let _ = writeln!(
            o,
            "  {:<38} {:>6} {:>6} {:>7}  {} {} {} {}",
            b.label,
            b.masked,
            opt(b.leak_rate),
            format!("{}/{}", b.leaked_clusters, b.rated_clusters),
            u(QuestionType::SpecificSingle),
            u(QuestionType::SpecificMulti),
            u(QuestionType::GeneralSingle),
            u(QuestionType::GeneralMulti)
        );
    }
    o.push_str("  (spec/gen = specific/general questions, 1/n = single/multi source documents)\n");
    o
}

impl EvalReport {
    /// The readable report.
    pub fn to_table(&self) -> String {
        let mut o = String::new();
        let g = &self.gold;
        let _ = writeln!(
            o,
            "gold: {} ({} format), {} clusters{}{}",
            escape_line(&g.file),
            g.format.as_str(),
            g.clusters,
            g.gold_chains.map_or_else(String::new, |c| format!(
                ", {c} gold chains = {} document pairs",
                g.gold_pairs.unwrap_or(0)
            )),
            match (&g.mentions_file, g.mentions) {
                (Some(f), Some(n)) => format!(", {n} mentions from {}", escape_line(f)),
                _ => String::new(),
            }
        );
        let s = &self.settings;
        let _ = writeln!(
            o,
            "corpus: {} documents ({} skipped); extractor {}; edge_threshold {}, chain_length {}, flagged = risk_initial ≥ {} (MEDIUM)\n",
            self.documents,
            self.skipped_documents,
            self.extractor,
            s.edge_threshold,
            s.chain_length,
            s.risk_medium
        );
        let header = format!(
            "  {:<34} {:<6} {:<6} {:<6} {:>5} {:>5} {:>5}\n",
            "", "P", "R", "F1", "TP", "FP", "FN"
        );
        if self.chains.is_some() || self.ceiling.as_ref().is_some_and(|c| c.chains.is_some()) {
            o.push_str("CHAINS flagged ≥ MEDIUM vs gold chains\n");
            o.push_str(&header);
            if let Some(c) = &self.chains {
                o.push_str(&prf_row("document pairs", &c.pairs));
                o.push_str(&prf_row("exact document sets", &c.exact));
            }
            if let Some(ceil) = &self.ceiling
                && let Some(c) = &ceil.chains
            {
                o.push_str(&prf_row(
                    &format!("ceiling: pairs ({})", ceil.source),
                    &c.pairs,
                ));
                o.push_str(&prf_row("ceiling: exact sets", &c.exact));
            }
            if let Some(c) = &self.chains {
                let _ = writeln!(
                    o,
                    "  {} of {} chains flagged{}",
                    c.flagged,
                    c.chains,
                    c.flagged_pairs
                        .as_ref()
                        .map_or_else(String::new, |p| format!(
                            "; flagged pairs {}",
                            counts_text(p)
                        ))
                );
            }
        } else {
            o.push_str("CHAINS: no gold chains, chain metrics absent\n");
        }
        if let Some(e) = &self.edges {
            let _ = writeln!(o, "  kept edges {}", counts_text(e));
        }
        if let Some(e) = self.ceiling.as_ref().and_then(|c| c.edges.as_ref()) {
            let _ = writeln!(o, "  ceiling kept edges {}", counts_text(e));
        }
        o.push('\n');
        if let Some(m) = &self.mentions {
            let _ = writeln!(
                o,
                "MENTIONS  {:<20} {:>5} {:>5}   {:<20}   {:<20}",
                "", "GOLD", "FOUND", "EXACT P / R / F1", "OVERLAP P / R / F1"
            );
            let row = |o: &mut String, label: &str, s: &MentionScores| {
                let trio = |p: &Prf| {
                    format!(
                        "{} {} {}",
                        num(p.precision, p.undefined.contains(&"precision")),
                        num(p.recall, p.undefined.contains(&"recall")),
                        num(p.f1, false)
                    )
                };
                let _ = writeln!(
                    o,
                    "  {:<28} {:>5} {:>5}   {}   {}",
                    label,
                    s.gold,
                    s.predicted,
                    trio(&s.exact),
                    trio(&s.overlap)
                );
            };
            row(&mut o, "overall", &m.overall);
            for (t, s) in &m.by_type {
                row(&mut o, t, s);
            }
            o.push('\n');
        }
        let e = &self.entities;
        let _ = writeln!(
            o,
            "GOLD ENTITIES found among the extracted entities (same canonical form)\n  all: {}/{} = {:.3} (ignoring type: {}/{} = {:.3})\n  persons: {}/{} = {:.3} (ignoring type: {:.3})",
            e.found,
            e.gold,
            e.recall,
            e.found_any_type,
            e.gold,
            e.recall_any_type,
            e.persons.found,
            e.persons.gold,
            e.persons.recall,
            e.persons.recall_any_type
        );
        if let Some(r) = &e.relevant {
            let _ = writeln!(
                o,
                "  gold.json `entities` (untyped, any type): {}/{} = {:.3}",
                r.found, r.gold, r.recall
            );
        }
        if !e.missed.is_empty() {
            let list: Vec<String> = e
                .missed
                .iter()
                .map(|m| {
                    let t = m
                        .entity_type
                        .as_deref()
                        .map_or_else(String::new, |t| format!("{t}:"));
                    format!(
                        "{t}{}{}",
                        escape_line(&m.value),
                        if m.other_type { " (other type)" } else { "" }
                    )
                })
                .collect();
            let more = list.len().saturating_sub(MISSED_SHOWN);
            let _ = writeln!(
                o,
                "  missed: {}{}",
                list[..list.len().min(MISSED_SHOWN)].join("; "),
                if more > 0 {
                    format!("; … and {more} more (see --json)")
                } else {
                    String::new()
                }
            );
        }
        if let Some(r) = &self.redaction {
            let _ = writeln!(
                o,
                "\nREDACTION proposed masks vs gold `redaction`\n  recall {}/{} = {:.3}; {} masked entities, {} matching no gold value (extra)",
                r.matched, r.gold, r.recall, r.masked, r.extra
            );
            if !r.missed.is_empty() {
                let list: Vec<String> = r.missed.iter().map(|v| escape_line(v)).collect();
                let _ = writeln!(o, "  not masked: {}", list.join("; "));
            }
        }
        if let Some(p) = &self.privacy {
            o.push_str(&privacy_table(p, self.settings.redaction));
        }
        if let (Some(u), Some(q)) = (&self.utility, &self.utility_questions) {
            o.push_str(&utility_table(u, q));
        }
        if let Some(b) = &self.baselines {
            o.push_str(&baselines_table(b));
        }
        if !self.notes.is_empty() {
            o.push_str("\nnotes:\n");
            for n in &self.notes {
                let _ = writeln!(o, "  - {}", escape_line(n));
            }
        }
        if o.contains("0.000*") {
            o.push_str("  (* = 0/0, reported as 0.000)\n");
        }
        o
    }
}
