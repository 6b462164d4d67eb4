//! Decisions taken by name instead of by cursor (`clam decide`): an entity is chosen by
//! its entity id, its export id (as manifests and reports name it) or its value and
//! type, and the decision is built and recorded exactly as the review workspace does
//! ([`Workspace::decision`], [`Workspace::apply`]), in the same session and audit log.

use std::collections::HashMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::*;
use crate::plan::{PlanChange, PlanFacts};

/// What the auditor does to an entity (SPEC §6).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum Verb {
    /// Agree with the proposal in effect.
    Accept,
    /// Force the other state (or the one given), with a reason.
    Override,
    /// Freeze the state in effect as forced.
    Pin,
    /// Drop a pin.
    Unpin,
}

impl Verb {
    pub const NAMES: [&'static str; 4] = ["accept", "override", "pin", "unpin"];

    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Accept => "accept",
            Verb::Override => "override",
            Verb::Pin => "pin",
            Verb::Unpin => "unpin",
        }
    }

    pub fn parse(s: &str) -> Option<Verb> {
        match s.trim().to_ascii_lowercase().as_str() {
            "accept" => Some(Verb::Accept),
            "override" => Some(Verb::Override),
            "pin" => Some(Verb::Pin),
            "unpin" => Some(Verb::Unpin),
            _ => None,
        }
    }
}

/// How a request names its entity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// An entity id (32 hex digits) or an export id (16).
    Id(String),
    /// A value as written in a document (or its canonical form) and the entity type.
    Value { value: String, entity_type: String },
}

impl fmt::Display for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selector::Id(id) => f.write_str(id),
            Selector::Value { value, entity_type } => write!(f, "{entity_type} {value:?}"),
        }
    }
}

/// One decision to take: what, on which entity, why, and where it was asked for.
#[derive(Debug, Clone, PartialEq)]
pub struct Request {
    pub verb: Verb,
    pub selector: Selector,
    /// Required for an override.
    pub reason: Option<String>,
    /// An override's state (`true` = mask); `None` flips the proposal in effect.
    pub to: Option<bool>,
    /// Line of the request file it came from (1-based), if any.
    pub line: Option<usize>,
}

/// A request that cannot be carried out, with the key and line at fault.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{}{message}", line.map(|l| format!("line {l}: ")).unwrap_or_default())]
pub struct RequestError {
    pub line: Option<usize>,
    /// The field or flag at fault (`entity`, `type`, `reason` …).
    pub key: Option<String>,
    pub message: String,
    /// True when nothing names the entity (as opposed to a malformed request).
    pub not_found: bool,
}

/// What one recorded decision did.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub action: Verb,
    pub entity: String,
    pub export_id: String,
    #[serde(rename = "type")]
    pub entity_type: String,
    pub value: String,
    /// The audit log's sequence number; `None` when nothing needed recording (a pin
    /// of a pinned entity, an unpin of one not pinned).
    pub seq: Option<i64>,
    /// The entity's state before and after ("mask" / "keep").
    pub before: &'static str,
    pub after: &'static str,
    pub note: Option<String>,
    pub change: PlanChange,
}

impl Outcome {
    /// The review workspace's status line for this decision, with `label` naming the
    /// entity ("accepted: mask NAME \"okafor\": +0 −0 masks").
    pub fn line(&self, label: &str) -> String {
        match &self.note {
            Some(note) => format!("{label}: {note}"),
            None => format!(
                "{}: {}",
                decided_label(self.action, self.after == "mask", label),
                self.change
            ),
        }
    }
}

/// "accepted: mask NAME \"okafor\"", "unpinned: NAME \"okafor\"": how the workspace's
/// status line names a decision on the entity `label`, before its effect.
pub fn decided_label(verb: Verb, mask: bool, label: &str) -> String {
    let state = if mask { "mask" } else { "keep" };
    match verb {
        Verb::Accept => format!("accepted: {state} {label}"),
        Verb::Override => format!("overridden: {state} {label}"),
        Verb::Pin => format!("pinned: {state} {label}"),
        Verb::Unpin => format!("unpinned: {label}"),
    }
}

fn state_word(mask: bool) -> &'static str {
    if mask { "mask" } else { "keep" }
}

/// `theta_chain=0.4, theta_doc=0.9`: adopted settings as the audit log's state.
pub fn settings_text(map: &BTreeMap<String, String>) -> String {
    map.iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Entities by export id, computed once for a batch of requests.
pub struct ExportIds(HashMap<String, usize>);

impl Workspace {
    /// The decision `actor` takes with `action` now: the entity's state before and,
    /// where the action says it, after; the configuration hash under `project_key`.
    /// The review workspace and `clam decide` both build their decisions here.
    pub fn decision(
        &self,
        actor: &str,
        action: AuditAction,
        reason: Option<String>,
        project_key: &[u8],
    ) -> Decision {
        let before = action
            .entity()
            .and_then(|id| self.model.entity_index(id))
            .map(|i| state_word(self.plan.masked[i]).to_string());
        // An unpin or an edit is known only after the re-plan.
        let after = match &action {
            AuditAction::Override { mask, .. } => Some(state_word(*mask).to_string()),
            AuditAction::Accept { .. } | AuditAction::Pin { .. } => before.clone(),
            AuditAction::Settings { new, .. } => Some(settings_text(new)),
            _ => None,
        };
        let before = match &action {
            AuditAction::Settings { old, .. } => Some(settings_text(old)),
            _ => before,
        };
        Decision {
            actor: actor.to_string(),
            action,
            reason,
            state_before: before,
            state_after: after,
            config_hash: self.config.hash(project_key),
        }
    }

    /// The action `verb` takes on entity `i` (model index) in the plan in effect, or
    /// `None` when there is nothing to record (a pin of a pinned entity, an unpin of an
    /// unpinned one). An override without `to` flips the proposal.
    pub fn entity_action(&self, verb: Verb, i: usize, to: Option<bool>) -> Option<AuditAction> {
        let entity = self.model.entities[i].id.clone();
        let mask = self.plan.masked[i];
        let pinned = self.state.pinned.contains(&entity);
        match verb {
            Verb::Accept => Some(AuditAction::Accept { entity, mask }),
            Verb::Override => Some(AuditAction::Override {
                entity,
                mask: to.unwrap_or(!mask),
            }),
            Verb::Pin if pinned => None,
            Verb::Pin => Some(AuditAction::Pin { entity, mask }),
            Verb::Unpin if !pinned => None,
            Verb::Unpin => Some(AuditAction::Unpin { entity }),
        }
    }

    /// Every entity's export id under `project_key`.
    pub fn export_ids(&self, project_key: &[u8]) -> ExportIds {
        ExportIds(
            self.model
                .entities
                .iter()
                .enumerate()
                .map(|(i, e)| (crate::export::export_id(project_key, &e.id), i))
                .collect(),
        )
    }

    /// The entity (model index) `selector` names. A value is matched by its canonical
    /// form for the type, then against the originals seen in the documents
    /// (case-insensitively).
    pub fn find_entity(&self, selector: &Selector, ids: &ExportIds) -> Result<usize, String> {
        match selector {
            Selector::Id(id) => {
                let id = id.trim();
                self.model
                    .entity_index(&id.to_ascii_lowercase())
                    .or_else(|| ids.0.get(&id.to_ascii_lowercase()).copied())
                    .ok_or_else(|| {
                        format!("no entity has the entity id or export id {id:?} in this corpus")
                    })
            }
            Selector::Value { value, entity_type } => {
                if !self.config.schema.contains(entity_type) {
                    return Err(format!(
                        "unknown entity type {entity_type:?}; the schema's types are {}",
                        self.config.schema.names().join(", ")
                    ));
                }
                let canonical =
                    crate::entity::canonical(value, entity_type, self.config.extraction.date_order);
                let id = crate::entity::entity_id(&canonical, entity_type);
                if let Some(i) = self.model.entity_index(&id) {
                    return Ok(i);
                }
                let wanted = value.trim().to_lowercase();
                self.model
                    .entities
                    .iter()
                    .position(|e| {
                        e.entity_type == *entity_type
                            && self.globals.get(&e.id).is_some_and(|g| {
                                g.originals.iter().any(|o| o.to_lowercase() == wanted)
                            })
                    })
                    .ok_or_else(|| format!("no {entity_type} entity {value:?} in this corpus"))
            }
        }
    }

    /// Takes `request` on entity `i` as `actor`: the decision is committed to the
    /// session before this returns, then the plan is recomputed; the outcome says
    /// what changed in the plan.
    pub fn decide(
        &mut self,
        actor: &str,
        request: &Request,
        i: usize,
        project_key: &[u8],
    ) -> Result<Outcome, WorkspaceError> {
        let e = &self.model.entities[i];
        let mut outcome = Outcome {
            action: request.verb,
            entity: e.id.clone(),
            export_id: crate::export::export_id(project_key, &e.id),
            entity_type: e.entity_type.clone(),
            value: e.value.clone(),
            seq: None,
            before: state_word(self.plan.masked[i]),
            after: state_word(self.plan.masked[i]),
            note: None,
            change: PlanChange::default(),
        };
        let Some(action) = self.entity_action(request.verb, i, request.to) else {
            outcome.note = Some(
                match request.verb {
                    Verb::Pin => "already pinned; nothing recorded",
                    _ => "not pinned; nothing recorded",
                }
                .to_string(),
            );
            return Ok(outcome);
        };
        let entity = action.entity().map(str::to_string);
        let before = PlanFacts::of(&self.model, &self.analysis, &self.plan);
        let decision = self.decision(actor, action, request.reason.clone(), project_key);
        outcome.seq = Some(self.apply(decision)?);
        outcome.change = PlanChange::between(
            &before,
            &PlanFacts::of(&self.model, &self.analysis, &self.plan),
        );
        if let Some(j) = entity.and_then(|id| self.model.entity_index(&id)) {
            outcome.after = state_word(self.plan.masked[j]);
        }
        Ok(outcome)
    }
}

/// The columns of a request file (CSV header or JSONL keys).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Row {
    action: Option<String>,
    entity: Option<String>,
    value: Option<String>,
    #[serde(rename = "type")]
    entity_type: Option<String>,
    reason: Option<String>,
    to: Option<String>,
}

/// The keys a request file may hold.
pub const REQUEST_KEYS: [&str; 6] = ["action", "entity", "value", "type", "reason", "to"];

/// Builds a request from its parts, as given on the command line or on one line of a
/// request file: `entity` (an entity id or an export id) or `value` with
/// `entity_type`; an override needs a reason.
pub fn request(
    verb: Verb,
    entity: Option<String>,
    value: Option<String>,
    entity_type: Option<String>,
    reason: Option<String>,
    to: Option<bool>,
    line: Option<usize>,
) -> Result<Request, RequestError> {
    let err = |key: &str, message: String| RequestError {
        line,
        key: Some(key.to_string()),
        message,
        not_found: false,
    };
    let nonempty = |s: Option<String>| s.filter(|s| !s.trim().is_empty());
    let (entity, value, entity_type) = (nonempty(entity), nonempty(value), nonempty(entity_type));
    let selector = match (entity, value, entity_type) {
        (Some(id), None, None) => Selector::Id(id),
        (None, Some(value), Some(entity_type)) => Selector::Value { value, entity_type },
        (None, Some(_), None) => {
            return Err(err("type", "a value needs its entity type".into()));
        }
        (None, None, Some(_)) => {
            return Err(err("value", "an entity type needs a value".into()));
        }
        (None, None, None) => {
            return Err(err(
                "entity",
                "name the entity: an entity id or export id, or a value and its type".into(),
            ));
        }
        (Some(_), _, _) => {
            return Err(err(
                "entity",
                "name the entity once: an entity id or export id, or a value and its type, not both"
                    .into(),
            ));
        }
    };
    let reason = nonempty(reason);
    if verb == Verb::Override && reason.is_none() {
        return Err(err(
            "reason",
            "an override needs a reason (the audit log records why)".into(),
        ));
    }
    if to.is_some() && verb != Verb::Override {
        return Err(err("to", "only an override takes a state to set".into()));
    }
    Ok(Request {
        verb,
        selector,
        reason,
        to,
        line,
    })
}

/// "mask" → true, "keep" → false.
pub fn parse_state(s: &str) -> Option<bool> {
    match s.trim().to_ascii_lowercase().as_str() {
        "mask" => Some(true),
        "keep" => Some(false),
        _ => None,
    }
}

fn row_request(row: Row, line: usize) -> Result<Request, RequestError> {
    let err = |key: &str, message: String| RequestError {
        line: Some(line),
        key: Some(key.to_string()),
        message,
        not_found: false,
    };
    let action = row.action.filter(|a| !a.trim().is_empty()).ok_or_else(|| {
        err(
            "action",
            format!("no action (one of {})", Verb::NAMES.join(", ")),
        )
    })?;
    let verb = Verb::parse(&action).ok_or_else(|| {
        err(
            "action",
            format!(
                "unknown action {action:?}; accepted: {}",
                Verb::NAMES.join(", ")
            ),
        )
    })?;
    let to = match row.to.filter(|t| !t.trim().is_empty()) {
        None => None,
        Some(t) => Some(
            parse_state(&t)
                .ok_or_else(|| err("to", format!("{t:?} is not a state; accepted: mask, keep")))?,
        ),
    };
    request(
        verb,
        row.entity,
        row.value,
        row.entity_type,
        row.reason,
        to,
        Some(line),
    )
}

/// Reads a request file: JSON Lines (one object a line, `.jsonl` / `.ndjson`, or a
/// first character `{`) or CSV with a header, either with the keys of
/// [`REQUEST_KEYS`]. Blank lines are skipped. Every malformed line is reported.
pub fn read_requests(path: &Path) -> Result<Vec<Request>, Vec<RequestError>> {
    let io = |message: String| {
        vec![RequestError {
            line: None,
            key: None,
            message,
            not_found: false,
        }]
    };
    let bytes = std::fs::read(path).map_err(|e| io(format!("cannot read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|_| io("not UTF-8".into()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    let jsonl = match ext.as_deref() {
        Some("jsonl" | "ndjson") => true,
        Some("csv") => false,
        _ => text.trim_start().starts_with('{'),
    };
    let mut out = Vec::new();
    let mut errors = Vec::new();
    if jsonl {
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let parsed = serde_json::from_str::<Row>(line).map_err(|e| RequestError {
                line: Some(n + 1),
                key: None,
                message: format!(
                    "not a request object ({e}); keys: {}",
                    REQUEST_KEYS.join(", ")
                ),
                not_found: false,
            });
            match parsed.and_then(|row| row_request(row, n + 1)) {
                Ok(r) => out.push(r),
                Err(e) => errors.push(e),
            }
        }
    } else {
        let mut reader = csv::ReaderBuilder::new()
            .trim(csv::Trim::All)
            .flexible(false)
            .from_reader(text.as_bytes());
        let headers = match reader.headers() {
            Ok(h) => h.clone(),
            Err(e) => return Err(io(format!("not CSV: {e}"))),
        };
        if let Some(bad) = headers.iter().find(|k| !REQUEST_KEYS.contains(k)) {
            return Err(vec![RequestError {
                line: Some(1),
                key: Some(bad.to_string()),
                message: format!(
                    "unknown column {bad:?} in the header; columns: {}",
                    REQUEST_KEYS.join(", ")
                ),
                not_found: false,
            }]);
        }
        let mut record = csv::StringRecord::new();
        loop {
            match reader.read_record(&mut record) {
                Ok(false) => break,
                Ok(true) => {
                    let line = record.position().map_or(0, |p| p.line() as usize);
                    let row = record
                        .deserialize::<Row>(Some(&headers))
                        .map_err(|e| RequestError {
                            line: Some(line),
                            key: None,
                            message: format!("not a request row: {e}"),
                            not_found: false,
                        });
                    match row.and_then(|row| row_request(row, line)) {
                        Ok(r) => out.push(r),
                        Err(e) => errors.push(e),
                    }
                }
                Err(e) => {
                    errors.push(RequestError {
                        line: e.position().map(|p| p.line() as usize),
                        key: None,
                        message: format!("not a request row: {e}"),
                        not_found: false,
                    });
                    break;
                }
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(name: &str, text: &str) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
        let p = dir.path().join(name);
        std::fs::write(&p, text).unwrap_or_else(|e| panic!("{e}"));
        (dir, p)
    }

    #[test]
    fn a_csv_request_file_names_each_bad_line() {
        let (_d, p) = write(
            "d.csv",
            "action,entity,reason\naccept,0123456789abcdef,\noverride,0123456789abcdef,\nfreeze,x,\n",
        );
        let errors = read_requests(&p).err().unwrap_or_default();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert_eq!(
            (errors[0].line, errors[0].key.as_deref()),
            (Some(3), Some("reason"))
        );
        assert_eq!(
            (errors[1].line, errors[1].key.as_deref()),
            (Some(4), Some("action"))
        );
    }

    #[test]
    fn a_jsonl_request_file_reads_values_and_types() {
        let (_d, p) = write(
            "d.jsonl",
            "{\"action\":\"override\",\"value\":\"Priya Raman\",\"type\":\"NAME\",\"reason\":\"public\",\"to\":\"keep\"}\n\n{\"action\":\"pin\",\"entity\":\"abc\"}\n",
        );
        let r = read_requests(&p).unwrap_or_default();
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].to, Some(false));
        assert_eq!(r[1].line, Some(3));
        assert_eq!(r[1].selector, Selector::Id("abc".into()));
    }
}
