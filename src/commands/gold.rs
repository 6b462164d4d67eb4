//! `clam gold import` / `clam gold export`.

use super::*;

/// `clam gold import` / `clam gold export`: session-level, no extraction; the corpus
/// is read for its document ids (unknown ids are skipped on import, orphaned chains
/// are listed on export).
pub(super) fn gold(cmd: GoldCommand, actor: String, bars: &Bars) -> Result<u8> {
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
    let config = load_config(Some(&corpus_args.corpus), &planning, None, None)?;
    let corpus = load_corpus(corpus_args, &config, bars)?;
    let pos = positions(corpus.documents.iter().map(|d| d.id.as_str()));
    let create = imported.is_some();
    let Some(mut session) = open_session(&corpus_args.corpus, session_file.as_ref(), create)?
    else {
        if corpus::is_stdin(&corpus_args.corpus) {
            return Err(UsageError(
                "a corpus read from stdin (`-`) has no session of its own; pass --session FILE"
                    .into(),
            )
            .into());
        }
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
            let text = clam::display::to_json_pretty(&to_json(&list, str::to_string))? + "\n";
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
