//! `clam decide`: review decisions from a script, recorded as `clam review` records them.

use clam::workspace::decide::{Outcome, Request, RequestError, read_requests, request};

use super::*;
use crate::cli::MaskState;

/// Malformed lines of a request file (`--from`): each with its line and key.
#[derive(Debug)]
pub struct RequestFileError {
    pub file: PathBuf,
    pub errors: Vec<RequestError>,
}

impl std::fmt::Display for RequestFileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: ", self.file.display())?;
        match self.errors.as_slice() {
            [one] => write!(f, "{one}"),
            many => {
                write!(
                    f,
                    "{} requests cannot be taken; nothing was recorded",
                    many.len()
                )?;
                for e in many {
                    write!(f, "\n  {e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for RequestFileError {}

/// Entities that no request names: nothing was recorded.
#[derive(Debug)]
pub struct NotFound(pub Vec<String>);

impl std::fmt::Display for NotFound {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0.as_slice() {
            [one] => write!(f, "{one}; nothing was recorded"),
            many => {
                write!(
                    f,
                    "{} entities not found; nothing was recorded:",
                    many.len()
                )?;
                for m in many {
                    write!(f, "\n  {m}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for NotFound {}

/// The requests of the command line (or of `--from`), checked before the corpus is read.
fn requests(a: &DecideArgs) -> Result<Vec<Request>> {
    if let Some(file) = &a.from {
        return read_requests(file).map_err(|errors| {
            RequestFileError {
                file: file.clone(),
                errors,
            }
            .into()
        });
    }
    let Some(verb) = a.action else {
        return Err(UsageError(
            "name an action (accept, override, pin, unpin) or --from FILE".into(),
        )
        .into());
    };
    let to = a.to.map(|t| t == MaskState::Mask);
    let usage = |e: RequestError| -> anyhow::Error {
        let flag = match e.key.as_deref() {
            Some("reason") => "--reason: ",
            Some("to") => "--to: ",
            _ => "",
        };
        UsageError(format!("{flag}{}", e.message)).into()
    };
    let mut out = Vec::new();
    for id in &a.entities {
        out.push(
            request(
                verb,
                Some(id.clone()),
                None,
                None,
                a.reason.clone(),
                to,
                None,
            )
            .map_err(usage)?,
        );
    }
    if let (Some(value), Some(ty)) = (&a.value, &a.entity_type) {
        out.push(
            request(
                verb,
                None,
                Some(value.clone()),
                Some(ty.clone()),
                a.reason.clone(),
                to,
                None,
            )
            .map_err(usage)?,
        );
    }
    if out.is_empty() {
        return Err(UsageError(format!(
            "{}: name the entities: ENTITY… (entity ids or export ids), --value V --type T, or --from FILE",
            verb.as_str()
        ))
        .into());
    }
    Ok(out)
}

pub(super) fn decide(a: DecideArgs, actor: &str, bars: &Bars) -> Result<u8> {
    let requests = requests(&a)?;
    let mut ws = build_workspace(&a.corpus, &a.planning, None, true, &a.extraction, bars)?;
    let session = match ws.session() {
        Some(s) if s.is_writer() => s,
        Some(s) => {
            bail!(
                "session {} is open read-only: {} holds it; decide once it is closed",
                s.path().display(),
                s.held_by().unwrap_or("another process")
            )
        }
        None => {
            bail!("this platform has no user data directory for the session; pass --session FILE")
        }
    };
    let session_path = session.path().to_path_buf();
    let key = session.project_key()?;
    // Every entity is found before anything is recorded: a typo records nothing.
    if a.from.is_none()
        && let Some(ty) = &a.entity_type
        && !ws.config().schema.contains(ty)
    {
        return Err(UsageError(format!(
            "--type: unknown entity type {ty:?}; the schema's types are {}",
            ws.config().schema.names().join(", ")
        ))
        .into());
    }
    let ids = ws.export_ids(&key);
    let mut found = Vec::new();
    let mut missing = Vec::new();
    for r in &requests {
        match ws.find_entity(&r.selector, &ids) {
            Ok(i) => found.push((r, ws.model().entities[i].id.clone())),
            Err(message) => missing.push(match (&a.from, r.line) {
                (Some(f), Some(line)) => format!("{}:{line}: {message}", f.display()),
                _ => message,
            }),
        }
    }
    if !missing.is_empty() {
        return Err(NotFound(missing).into());
    }
    let mut outcomes: Vec<Outcome> = Vec::new();
    let mut out = super::stdout();
    for (r, id) in found {
        // An earlier decision of this batch may have re-planned: found again by id.
        let Some(i) = ws.model().entity_index(&id) else {
            bail!("entity {id} left the corpus while deciding");
        };
        let outcome = ws.decide(actor, r, i, &key)?;
        if !a.json {
            let label = format!("{} {:?}", outcome.entity_type, outcome.value);
            writeln!(out, "{}", escape_line(&outcome.line(&label)))?;
        }
        outcomes.push(outcome);
    }
    let open = ws.unreviewed_masks();
    if a.json {
        clam::display::write_json_pretty(
            &mut out,
            &json!({
                "session": session_path,
                "decisions": outcomes,
                "unreviewed_masks": open,
            }),
        )?;
        writeln!(out)?;
    }
    out.flush()?;
    let recorded = outcomes.iter().filter(|o| o.seq.is_some()).count();
    eprintln!(
        "{recorded} decision(s) recorded in {}; {open} proposed mask(s) still to review{}",
        escape_line(&session_path.display().to_string()),
        if open == 0 {
            " (clam run --require-reviewed can export)"
        } else {
            ""
        }
    );
    Ok(if ws.corpus().diagnostics.is_empty() {
        EXIT_OK
    } else {
        EXIT_SKIPPED
    })
}
