//! Prompt templates: `prompts/local.md` and `prompts/context.md`, embedded at build
//! time; a copy in `<user config dir>/prompts/` overrides each.
//!
//! A template is a sequence of chat messages, each introduced by a line
//! `=== system ===`, `=== user ===` or `=== assistant ===` (the worked example is a
//! user/assistant pair, which small models need before they answer from the text).
//! Placeholders: `{{schema}}` (the entity table), `{{types}}` (the type names),
//! `{{document}}` and, in the context pass, `{{existing_entities}}`. They are filled
//! in one left-to-right scan, so a document containing `{{…}}` is never re-expanded.

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::schema::Schema;

const LOCAL: &str = include_str!("../../../prompts/local.md");
const CONTEXT: &str = include_str!("../../../prompts/context.md");

/// The two extraction passes of thesis §4.2.2.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Pass {
    /// One document on its own.
    Local,
    /// One document with `existing_entities` from the others.
    Context,
}

impl Pass {
    pub fn as_str(self) -> &'static str {
        match self {
            Pass::Local => "local",
            Pass::Context => "context",
        }
    }

    fn file_name(self) -> &'static str {
        match self {
            Pass::Local => "local.md",
            Pass::Context => "context.md",
        }
    }
}

/// One chat message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    pub role: &'static str,
    pub content: String,
}

/// A prompt error names the template file.
#[derive(Debug, thiserror::Error, PartialEq)]
#[error("prompt {origin}: {message}")]
pub struct PromptError {
    pub origin: String,
    pub message: String,
}

/// A parsed template with the schema already filled in.
#[derive(Debug, Clone)]
struct Template {
    messages: Vec<(&'static str, String)>,
    /// SHA-256 of the template text with the schema filled in (part of the cache key).
    hash: String,
    origin: String,
}

/// Both templates, ready to render.
#[derive(Debug, Clone)]
pub struct Prompts {
    local: Template,
    context: Template,
}

/// The folder whose `local.md` / `context.md` override the shipped prompts.
pub fn user_prompt_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "clam").map(|d| d.config_dir().join("prompts"))
}

/// `- NAME (1.00, direct identifier)` lines, one per type: compact, because every
/// token of the prompt costs a small local model time.
pub fn schema_table(schema: &Schema) -> String {
    schema
        .types
        .iter()
        .map(|t| format!("- {} ({:.2}, {})", t.name, t.weight, t.category.label()))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Replaces `{{name}}` placeholders in one scan; unknown placeholders stay as they are.
pub fn fill(template: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(template.len());
    let mut rest = template;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let hit = after.find("}}").and_then(|end| {
            let name = &after[..end];
            values
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, v)| (*v, end))
        });
        match hit {
            Some((value, end)) => {
                out.push_str(value);
                rest = &after[end + 2..];
            }
            None => {
                out.push_str("{{");
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

fn parse(text: &str, origin: &str, pass: Pass, schema: &Schema) -> Result<Template, PromptError> {
    let err = |message: String| PromptError {
        origin: origin.to_string(),
        message,
    };
    let types = schema.names().join(", ");
    let table = schema_table(schema);
    let filled = fill(text, &[("schema", &table), ("types", &types)]);
    let mut messages: Vec<(&'static str, String)> = Vec::new();
    let mut preamble = String::new();
    for line in filled.lines() {
        let role = match line.trim() {
            "=== system ===" => Some("system"),
            "=== user ===" => Some("user"),
            "=== assistant ===" => Some("assistant"),
            _ => None,
        };
        match (role, messages.last_mut()) {
            (Some(r), _) => messages.push((r, String::new())),
            (None, Some((_, body))) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => preamble.push_str(line),
        }
    }
    if !preamble.trim().is_empty() || messages.is_empty() {
        return Err(err(
            "must start with a line `=== system ===` or `=== user ===`".into(),
        ));
    }
    for (_, body) in &mut messages {
        *body = body.trim().to_string();
    }
    match messages.last() {
        Some(("user", body)) if body.contains("{{document}}") => {}
        _ => {
            return Err(err(
                "the last message must be `=== user ===` and contain {{document}}".into(),
            ));
        }
    }
    if pass == Pass::Context
        && !messages
            .last()
            .is_some_and(|(_, b)| b.contains("{{existing_entities}}"))
    {
        return Err(err(
            "the last message of the context prompt must contain {{existing_entities}}".into(),
        ));
    }
    Ok(Template {
        messages,
        hash: crate::extract::llm::cache::sha256_hex(filled.as_bytes()),
        origin: origin.to_string(),
    })
}

impl Prompts {
    /// The shipped prompts, each overridden by `<dir>/local.md` / `<dir>/context.md`
    /// when that file exists.
    pub fn load(schema: &Schema, override_dir: Option<&Path>) -> Result<Self, PromptError> {
        let one = |pass: Pass, shipped: &str| -> Result<Template, PromptError> {
            if let Some(dir) = override_dir {
                let path = dir.join(pass.file_name());
                if path.is_file() {
                    let origin = path.display().to_string();
                    let text = std::fs::read_to_string(&path).map_err(|e| PromptError {
                        origin: origin.clone(),
                        message: format!("cannot read: {e}"),
                    })?;
                    return parse(&text, &origin, pass, schema);
                }
            }
            parse(
                shipped,
                &format!("prompts/{} (built in)", pass.file_name()),
                pass,
                schema,
            )
        };
        Ok(Prompts {
            local: one(Pass::Local, LOCAL)?,
            context: one(Pass::Context, CONTEXT)?,
        })
    }

    fn template(&self, pass: Pass) -> &Template {
        match pass {
            Pass::Local => &self.local,
            Pass::Context => &self.context,
        }
    }

    /// SHA-256 of the pass's template text (schema filled in).
    pub fn hash(&self, pass: Pass) -> &str {
        &self.template(pass).hash
    }

    /// Where the pass's template came from.
    pub fn origin(&self, pass: Pass) -> &str {
        &self.template(pass).origin
    }

    /// The messages of one request. `existing` is the JSON list of
    /// `[normalized_value, entity_type]` pairs (context pass only).
    pub fn render(&self, pass: Pass, document: &str, existing: &str) -> Vec<Message> {
        let t = self.template(pass);
        let last = t.messages.len().saturating_sub(1);
        t.messages
            .iter()
            .enumerate()
            .map(|(i, (role, body))| Message {
                role,
                content: if i == last {
                    fill(
                        body,
                        &[("document", document), ("existing_entities", existing)],
                    )
                } else {
                    body.clone()
                },
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_prompts_parse_and_demand_the_thesis_shape() {
        let p = Prompts::load(&Schema::default(), None).unwrap();
        let m = p.render(Pass::Context, "DOC {{schema}}", "[[\"x\", \"AGE\"]]");
        assert_eq!(m[0].role, "system");
        assert!(
            m[0].content
                .contains("[original_value, normalized_value, entity_type, relevance]")
        );
        assert!(
            m[0].content
                .contains("- MEDICAL_CONDITION (0.85, special category / health)")
        );
        let last = &m.last().unwrap().content;
        assert!(
            last.contains("DOC {{schema}}"),
            "document is not re-expanded"
        );
        assert!(last.contains("[[\"x\", \"AGE\"]]"));
        assert_ne!(p.hash(Pass::Local), p.hash(Pass::Context));
    }

    #[test]
    fn a_user_copy_overrides_and_bad_templates_name_the_file() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("local.md"),
            "=== user ===\nfind: {{document}}",
        )
        .unwrap();
        let p = Prompts::load(&Schema::default(), Some(dir.path())).unwrap();
        assert_eq!(p.render(Pass::Local, "abc", "")[0].content, "find: abc");
        std::fs::write(dir.path().join("context.md"), "=== user ===\n{{document}}").unwrap();
        let e = Prompts::load(&Schema::default(), Some(dir.path())).unwrap_err();
        assert!(e.to_string().contains("context.md"), "{e}");
        assert!(e.to_string().contains("existing_entities"), "{e}");
    }

    #[test]
    fn fill_leaves_unknown_placeholders() {
        assert_eq!(
            fill("a {{x}} {{y}} {{", &[("x", "{{y}}")]),
            "a {{y}} {{y}} {{"
        );
    }
}
