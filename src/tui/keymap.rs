//! Key bindings are data: `keymap.toml` is embedded as the default, and a
//! `keymap.toml` in the user's config directory is merged over it (a binding there
//! replaces the default for the same key in the same section). Every binding carries
//! its description, so the help popup is generated from the keymap and can never
//! drift from what the keys do.

use std::collections::BTreeMap;
use std::path::Path;

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde::Deserialize;

use super::action::Action;
use super::state::Pane;

/// The default bindings.
pub const DEFAULT_KEYMAP: &str = include_str!("keymap.toml");

/// A key with its modifiers (shift is folded into the character).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

impl Key {
    pub fn from_event(ev: &KeyEvent) -> Self {
        Key {
            code: ev.code,
            ctrl: ev.modifiers.contains(KeyModifiers::CONTROL),
            alt: ev.modifiers.contains(KeyModifiers::ALT),
        }
    }

    /// Parses `q`, `G`, `ctrl-c`, `tab`, `pgdn`, ...
    pub fn parse(text: &str) -> Option<Key> {
        let mut rest = text;
        let (mut ctrl, mut alt) = (false, false);
        loop {
            if let Some(r) = rest.strip_prefix("ctrl-") {
                ctrl = true;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("alt-") {
                alt = true;
                rest = r;
            } else {
                break;
            }
        }
        let code = match rest {
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "enter" => KeyCode::Enter,
            "esc" => KeyCode::Esc,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pgup" => KeyCode::PageUp,
            "pgdn" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "space" => KeyCode::Char(' '),
            s => {
                let mut chars = s.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => KeyCode::Char(c),
                    _ => return None,
                }
            }
        };
        Some(Key { code, ctrl, alt })
    }

    /// How the help shows the key.
    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCode::Tab => "Tab".to_string(),
            KeyCode::BackTab => "S-Tab".to_string(),
            KeyCode::Enter => "Enter".to_string(),
            KeyCode::Esc => "Esc".to_string(),
            KeyCode::Up => "↑".to_string(),
            KeyCode::Down => "↓".to_string(),
            KeyCode::Left => "←".to_string(),
            KeyCode::Right => "→".to_string(),
            KeyCode::PageUp => "PgUp".to_string(),
            KeyCode::PageDown => "PgDn".to_string(),
            KeyCode::Home => "Home".to_string(),
            KeyCode::End => "End".to_string(),
            KeyCode::Char(' ') => "Space".to_string(),
            KeyCode::Char(c) => c.to_string(),
            other => format!("{other:?}"),
        };
        match (self.ctrl, self.alt) {
            (true, _) => format!("C-{base}"),
            (_, true) => format!("M-{base}"),
            _ => base,
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct EntryFile {
    keys: Vec<String>,
    action: String,
    #[serde(default)]
    desc: String,
}

/// One binding as the help shows it.
#[derive(Debug, Clone, PartialEq)]
pub struct Binding {
    pub keys: Vec<Key>,
    pub action: Action,
    pub desc: String,
}

/// Errors in a keymap file, naming the file, section and key.
#[derive(Debug, thiserror::Error)]
pub enum KeymapError {
    #[error("{origin}: {message}")]
    Invalid { origin: String, message: String },
}

/// Bindings per section (`global` and one per pane), in file order.
#[derive(Debug, Clone, Default)]
pub struct Keymap {
    sections: BTreeMap<String, Vec<Binding>>,
}

const SECTIONS: &[&str] = &[
    "global",
    "documents",
    "document",
    "masks",
    "chains",
    "graph",
    "whatif",
    "gold",
];

/// Keys, action (None: unbind) and description of one entry.
type Entry = (Vec<Key>, Option<Action>, String);

fn parse_file(text: &str, origin: &str) -> Result<BTreeMap<String, Vec<Entry>>, KeymapError> {
    let invalid = |message: String| KeymapError::Invalid {
        origin: origin.to_string(),
        message,
    };
    let raw: BTreeMap<String, Vec<EntryFile>> =
        toml::from_str(text).map_err(|e| invalid(e.to_string()))?;
    let mut out = BTreeMap::new();
    for (section, entries) in raw {
        if !SECTIONS.contains(&section.as_str()) {
            return Err(invalid(format!(
                "unknown section [{section}]; the sections are: {}",
                SECTIONS.join(", ")
            )));
        }
        let mut list = Vec::new();
        for e in entries {
            let mut keys = Vec::new();
            for k in &e.keys {
                keys.push(Key::parse(k).ok_or_else(|| {
                    invalid(format!(
                        "[{section}] key {k:?} is not a key (a character, or tab, backtab, enter, esc, up, down, left, right, pgup, pgdn, home, end, space, with ctrl- / alt-)"
                    ))
                })?);
            }
            let action = if e.action == "none" {
                None
            } else {
                Some(
                    serde_json::from_value::<Action>(serde_json::Value::String(e.action.clone()))
                        .map_err(|_| {
                            invalid(format!("[{section}] unknown action {:?}", e.action))
                        })?,
                )
            };
            list.push((keys, action, e.desc));
        }
        out.insert(section, list);
    }
    Ok(out)
}

impl Keymap {
    /// The embedded defaults.
    pub fn defaults() -> Self {
        // The embedded file is tested; an error here is a build defect, not user input.
        Keymap::with_overrides(None).unwrap_or_default()
    }

    /// The defaults with `overrides` (the text of a user keymap file) merged over them.
    pub fn with_overrides(overrides: Option<(&str, &str)>) -> Result<Self, KeymapError> {
        let mut sections: BTreeMap<String, Vec<Binding>> = BTreeMap::new();
        for (section, entries) in parse_file(DEFAULT_KEYMAP, "embedded keymap.toml")? {
            let list = sections.entry(section).or_default();
            for (keys, action, desc) in entries {
                if let Some(action) = action {
                    list.push(Binding { keys, action, desc });
                }
            }
        }
        if let Some((text, origin)) = overrides {
            for (section, entries) in parse_file(text, origin)? {
                let list = sections.entry(section).or_default();
                for (keys, action, desc) in entries {
                    for b in list.iter_mut() {
                        b.keys.retain(|k| !keys.contains(k));
                    }
                    list.retain(|b| !b.keys.is_empty());
                    if let Some(action) = action {
                        list.push(Binding { keys, action, desc });
                    }
                }
            }
        }
        Ok(Keymap { sections })
    }

    /// The defaults merged with `<config dir>/keymap.toml` when it exists.
    pub fn load(user_file: Option<&Path>) -> Result<Self, KeymapError> {
        match user_file {
            Some(p) if p.is_file() => {
                let text = std::fs::read_to_string(p).map_err(|e| KeymapError::Invalid {
                    origin: p.display().to_string(),
                    message: e.to_string(),
                })?;
                Keymap::with_overrides(Some((&text, &p.display().to_string())))
            }
            _ => Ok(Keymap::defaults()),
        }
    }

    /// The action of `key` in `pane` (the pane's bindings first, then global ones).
    pub fn lookup(&self, pane: Pane, key: Key) -> Option<Action> {
        [pane.key(), "global"].iter().find_map(|section| {
            self.sections
                .get(*section)?
                .iter()
                .find(|b| b.keys.contains(&key))
                .map(|b| b.action)
        })
    }

    /// The panes (keymap sections) where `key` does something, with what it does
    /// there (for "a works in the redaction set" when it does nothing here).
    pub fn elsewhere(&self, key: Key) -> Vec<(&'static str, &Binding)> {
        SECTIONS
            .iter()
            .filter(|name| **name != "global")
            .filter_map(|name| {
                self.sections
                    .get(*name)?
                    .iter()
                    .find(|b| b.keys.contains(&key))
                    .map(|b| (*name, b))
            })
            .collect()
    }

    /// Bindings of a section, in file order.
    pub fn section(&self, name: &str) -> &[Binding] {
        self.sections.get(name).map(Vec::as_slice).unwrap_or(&[])
    }

    /// Every binding as a Markdown table (section, keys, what it does), in the order
    /// of the help; the key table of docs/workspace.md is this text (`tests/tui/main.rs` compares).
    pub fn markdown_table(&self) -> String {
        let mut out = String::from("| where | keys | what |\n|---|---|---|\n");
        for name in SECTIONS {
            for b in self.section(name) {
                let keys: Vec<String> = b
                    .keys
                    .iter()
                    .map(|k| format!("`{}`", k.label().replace('|', "\\|")))
                    .collect();
                out.push_str(&format!(
                    "| {name} | {} | {} |\n",
                    keys.join(" "),
                    b.desc.replace('|', "\\|")
                ));
            }
        }
        out
    }

    /// The first key bound to `action` in `pane` or globally, for hints.
    pub fn key_for(&self, pane: Pane, action: Action) -> Option<String> {
        [pane.key(), "global"].iter().find_map(|section| {
            self.sections
                .get(*section)?
                .iter()
                .find(|b| b.action == action)
                .and_then(|b| b.keys.first())
                .map(Key::label)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(c: char) -> Key {
        Key {
            code: KeyCode::Char(c),
            ctrl: false,
            alt: false,
        }
    }

    #[test]
    fn the_embedded_keymap_parses_and_binds_the_documented_keys() {
        let km = Keymap::with_overrides(None).expect("embedded keymap");
        assert_eq!(km.lookup(Pane::Masks, key('a')), Some(Action::Accept));
        assert_eq!(km.lookup(Pane::Documents, key('q')), Some(Action::Quit));
        assert_eq!(
            km.lookup(Pane::Document, key('r')),
            Some(Action::ToggleRedacted)
        );
        assert_eq!(km.lookup(Pane::Documents, key('a')), None);
        for name in SECTIONS {
            for b in km.section(name) {
                assert!(
                    !b.desc.is_empty(),
                    "{name}: {:?} has no description",
                    b.action
                );
            }
        }
    }

    #[test]
    fn user_overrides_replace_the_same_key_and_can_unbind() {
        let user = "[[masks]]\nkeys = [\"y\"]\naction = \"accept\"\ndesc = \"yes\"\n\n[[global]]\nkeys = [\"q\"]\naction = \"none\"\n";
        let km = Keymap::with_overrides(Some((user, "user"))).expect("user keymap");
        assert_eq!(km.lookup(Pane::Masks, key('y')), Some(Action::Accept));
        assert_eq!(km.lookup(Pane::Masks, key('a')), Some(Action::Accept));
        assert_eq!(km.lookup(Pane::Masks, key('q')), None, "q unbound");
        let ctrl_c = Key::parse("ctrl-c").expect("key");
        assert_eq!(km.lookup(Pane::Masks, ctrl_c), Some(Action::Quit));
    }

    #[test]
    fn a_bad_user_keymap_names_the_section_and_value() {
        let err = Keymap::with_overrides(Some((
            "[[masks]]\nkeys=[\"a\"]\naction=\"fly\"\n",
            "mine.toml",
        )))
        .expect_err("unknown action");
        let msg = err.to_string();
        assert!(
            msg.contains("mine.toml") && msg.contains("[masks]") && msg.contains("fly"),
            "{msg}"
        );
    }
}
