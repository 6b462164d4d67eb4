//! Themes are data: flat TOML files in `themes/` (embedded, so the binary needs no
//! files beside it) turned into one semantic [`Theme`]. Draw code asks the theme for
//! a role ("risk_high", "border of a focused pane"), never for a colour, so a new
//! palette never touches drawing code. `NO_COLOR` turns every colour off and keeps
//! only modifiers (bold, reverse, underline), which still separate what matters.

use std::collections::BTreeMap;

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;

/// The embedded themes, by name.
pub const THEMES: &[(&str, &str)] = &[
    ("dark", include_str!("../../themes/dark.toml")),
    ("light", include_str!("../../themes/light.toml")),
    (
        "high-contrast",
        include_str!("../../themes/high-contrast.toml"),
    ),
    ("colorblind", include_str!("../../themes/colorblind.toml")),
];

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ThemeFile {
    name: String,
    text: String,
    muted: String,
    accent: String,
    border: String,
    border_focused: String,
    selection_bg: String,
    highlight_bg: String,
    header: String,
    status_fg: String,
    status_bg: String,
    ready: String,
    busy: String,
    error: String,
    ok: String,
    risk_low: String,
    risk_medium: String,
    risk_high: String,
    edge_weak: String,
    edge_strong: String,
    masked_fg: String,
    cursor_bg: String,
    type_default: String,
    #[serde(default)]
    types: BTreeMap<String, String>,
}

/// Semantic colours of the application.
#[derive(Debug, Clone, PartialEq)]
pub struct Theme {
    pub name: String,
    pub text: Color,
    pub muted: Color,
    pub accent: Color,
    pub border: Color,
    pub border_focused: Color,
    pub selection_bg: Color,
    pub highlight_bg: Color,
    pub header: Color,
    pub status_fg: Color,
    pub status_bg: Color,
    pub ready: Color,
    pub busy: Color,
    pub error: Color,
    pub ok: Color,
    pub risk_low: Color,
    pub risk_medium: Color,
    pub risk_high: Color,
    pub edge_weak: Color,
    pub edge_strong: Color,
    pub masked_fg: Color,
    pub cursor_bg: Color,
    pub type_default: Color,
    pub types: BTreeMap<String, Color>,
    /// True under `NO_COLOR`: styles fall back to modifiers.
    pub monochrome: bool,
}

/// Errors loading a theme, naming the theme and the key.
#[derive(Debug, thiserror::Error)]
pub enum ThemeError {
    #[error("unknown theme {0:?}; the themes are: {1}")]
    Unknown(String, String),
    #[error("theme {theme}: {message}")]
    Invalid { theme: String, message: String },
}

fn color(theme: &str, key: &str, value: &str) -> Result<Color, ThemeError> {
    value.parse::<Color>().map_err(|_| ThemeError::Invalid {
        theme: theme.to_string(),
        message: format!(
            "key {key}: {value:?} is not a colour (use a name such as lightred or \"#rrggbb\")"
        ),
    })
}

impl Theme {
    /// Parses a theme file.
    pub fn from_toml(text: &str, origin: &str) -> Result<Self, ThemeError> {
        let f: ThemeFile = toml::from_str(text).map_err(|e| ThemeError::Invalid {
            theme: origin.to_string(),
            message: e.to_string(),
        })?;
        let c = |key: &str, v: &str| color(origin, key, v);
        let mut types = BTreeMap::new();
        for (k, v) in &f.types {
            types.insert(k.clone(), c(&format!("types.{k}"), v)?);
        }
        Ok(Theme {
            name: f.name.clone(),
            text: c("text", &f.text)?,
            muted: c("muted", &f.muted)?,
            accent: c("accent", &f.accent)?,
            border: c("border", &f.border)?,
            border_focused: c("border_focused", &f.border_focused)?,
            selection_bg: c("selection_bg", &f.selection_bg)?,
            highlight_bg: c("highlight_bg", &f.highlight_bg)?,
            header: c("header", &f.header)?,
            status_fg: c("status_fg", &f.status_fg)?,
            status_bg: c("status_bg", &f.status_bg)?,
            ready: c("ready", &f.ready)?,
            busy: c("busy", &f.busy)?,
            error: c("error", &f.error)?,
            ok: c("ok", &f.ok)?,
            risk_low: c("risk_low", &f.risk_low)?,
            risk_medium: c("risk_medium", &f.risk_medium)?,
            risk_high: c("risk_high", &f.risk_high)?,
            edge_weak: c("edge_weak", &f.edge_weak)?,
            edge_strong: c("edge_strong", &f.edge_strong)?,
            masked_fg: c("masked_fg", &f.masked_fg)?,
            cursor_bg: c("cursor_bg", &f.cursor_bg)?,
            type_default: c("type_default", &f.type_default)?,
            types,
            monochrome: false,
        })
    }

    /// An embedded theme by name.
    pub fn named(name: &str) -> Result<Self, ThemeError> {
        let (_, text) = THEMES.iter().find(|(n, _)| *n == name).ok_or_else(|| {
            ThemeError::Unknown(
                name.to_string(),
                THEMES
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", "),
            )
        })?;
        Theme::from_toml(text, name)
    }

    /// A theme by name: `<user_dir>/NAME.toml` when that file exists (a user's own
    /// theme, or their copy of a built-in one), else the built-in theme.
    pub fn find(name: &str, user_dir: Option<&std::path::Path>) -> Result<Self, ThemeError> {
        let plain = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_'));
        if let Some(dir) = user_dir.filter(|_| plain) {
            let path = dir.join(format!("{name}.toml"));
            if path.is_file() {
                let origin = path.display().to_string();
                let text = std::fs::read_to_string(&path).map_err(|e| ThemeError::Invalid {
                    theme: origin.clone(),
                    message: format!("cannot read: {e}"),
                })?;
                return Theme::from_toml(&text, &origin);
            }
        }
        Theme::named(name)
    }

    /// The user's theme directory (`<config dir>/themes`), if the platform has one.
    pub fn user_dir() -> Option<std::path::PathBuf> {
        directories::ProjectDirs::from("", "", "clam").map(|d| d.config_dir().join("themes"))
    }

    /// The theme to use: `name` (default `dark`), without colour when `no_color`.
    pub fn select(name: Option<&str>, no_color: bool) -> Result<Self, ThemeError> {
        let t = Theme::find(name.unwrap_or("dark"), Theme::user_dir().as_deref())?;
        Ok(if no_color { t.without_color() } else { t })
    }

    /// The same roles with every colour reset (`NO_COLOR`).
    pub fn without_color(mut self) -> Self {
        let r = Color::Reset;
        for c in [
            &mut self.text,
            &mut self.muted,
            &mut self.accent,
            &mut self.border,
            &mut self.border_focused,
            &mut self.selection_bg,
            &mut self.highlight_bg,
            &mut self.header,
            &mut self.status_fg,
            &mut self.status_bg,
            &mut self.ready,
            &mut self.busy,
            &mut self.error,
            &mut self.ok,
            &mut self.risk_low,
            &mut self.risk_medium,
            &mut self.risk_high,
            &mut self.edge_weak,
            &mut self.edge_strong,
            &mut self.masked_fg,
            &mut self.cursor_bg,
            &mut self.type_default,
        ] {
            *c = r;
        }
        self.types.values_mut().for_each(|c| *c = r);
        self.monochrome = true;
        self
    }

    pub fn text(&self) -> Style {
        Style::new().fg(self.text)
    }
    pub fn muted(&self) -> Style {
        Style::new().fg(self.muted)
    }
    pub fn accent(&self) -> Style {
        Style::new().fg(self.accent).add_modifier(Modifier::BOLD)
    }
    pub fn header(&self) -> Style {
        Style::new().fg(self.header)
    }
    pub fn error(&self) -> Style {
        Style::new().fg(self.error).add_modifier(Modifier::BOLD)
    }
    pub fn ok(&self) -> Style {
        Style::new().fg(self.ok)
    }
    pub fn status_bar(&self) -> Style {
        let s = Style::new().fg(self.status_fg).bg(self.status_bg);
        if self.monochrome {
            s.add_modifier(Modifier::REVERSED)
        } else {
            s
        }
    }
    pub fn ready(&self) -> Style {
        Style::new().fg(self.ready).add_modifier(Modifier::BOLD)
    }
    pub fn busy(&self) -> Style {
        Style::new().fg(self.busy).add_modifier(Modifier::BOLD)
    }

    /// Border of a pane; the focused one is bold and coloured so focus is visible
    /// without colour too.
    pub fn border(&self, focused: bool) -> Style {
        if focused {
            Style::new()
                .fg(self.border_focused)
                .add_modifier(Modifier::BOLD)
        } else {
            Style::new().fg(self.border)
        }
    }

    /// The selected row of a list; only the focused list shows it strongly.
    pub fn selection(&self, focused: bool) -> Style {
        let s = Style::new().bg(self.selection_bg);
        match (focused, self.monochrome) {
            (true, true) => Style::new().add_modifier(Modifier::REVERSED),
            (true, false) => s.add_modifier(Modifier::BOLD),
            (false, true) => Style::new().add_modifier(Modifier::UNDERLINED),
            (false, false) => s,
        }
    }

    /// Rows linked to the current selection elsewhere (a chain's documents).
    pub fn linked(&self) -> Style {
        if self.monochrome {
            Style::new().add_modifier(Modifier::ITALIC | Modifier::BOLD)
        } else {
            Style::new().bg(self.highlight_bg)
        }
    }

    /// Colour of a risk value by category thresholds.
    pub fn risk_color(&self, r: f64, high: f64, medium: f64) -> Color {
        if r >= high {
            self.risk_high
        } else if r >= medium {
            self.risk_medium
        } else {
            self.risk_low
        }
    }

    pub fn risk(&self, r: f64, high: f64, medium: f64) -> Style {
        Style::new().fg(self.risk_color(r, high, medium))
    }

    /// Colour of an entity type.
    pub fn type_color(&self, entity_type: &str) -> Color {
        self.types
            .get(entity_type)
            .copied()
            .unwrap_or(self.type_default)
    }

    /// An entity in the document text: masked ones are drawn as a solid block in
    /// their type's colour (struck through without colour), kept ones underlined.
    pub fn entity(&self, entity_type: &str, masked: bool) -> Style {
        let c = self.type_color(entity_type);
        match (masked, self.monochrome) {
            (true, false) => Style::new().fg(self.masked_fg).bg(c),
            (true, true) => Style::new().add_modifier(Modifier::REVERSED | Modifier::CROSSED_OUT),
            (false, _) => Style::new().fg(c).add_modifier(Modifier::UNDERLINED),
        }
    }

    /// The entity under the document cursor.
    pub fn cursor(&self) -> Style {
        if self.monochrome {
            Style::new().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else {
            Style::new()
                .bg(self.cursor_bg)
                .fg(self.masked_fg)
                .add_modifier(Modifier::BOLD)
        }
    }

    /// Edge colour by strength.
    pub fn edge(&self, strength: f64) -> Color {
        if strength >= 0.5 {
            self.edge_strong
        } else {
            self.edge_weak
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_embedded_theme_parses() {
        for (name, _) in THEMES {
            let t = Theme::named(name).expect(name);
            assert_eq!(&t.name, name);
        }
    }

    #[test]
    fn a_user_theme_file_overrides_and_extends_the_built_in_ones() {
        let dir = tempfile::tempdir().expect("tempdir");
        let light = THEMES
            .iter()
            .find(|(n, _)| *n == "light")
            .map(|(_, t)| *t)
            .expect("light");
        std::fs::write(
            dir.path().join("paper.toml"),
            light.replace("name = \"light\"", "name = \"paper\""),
        )
        .expect("write");
        std::fs::write(dir.path().join("dark.toml"), light).expect("write");
        let found = |n: &str| Theme::find(n, Some(dir.path())).map(|t| t.name);
        assert_eq!(found("paper").expect("user theme"), "paper");
        assert_eq!(
            found("dark").expect("user copy"),
            "light",
            "the user's file wins"
        );
        assert_eq!(found("high-contrast").expect("built in"), "high-contrast");
        // Only plain names are looked up as files.
        std::fs::write(dir.path().join("x.toml"), "not toml").expect("write");
        assert!(matches!(found("../x"), Err(ThemeError::Unknown(..))));
        let err = found("x").expect_err("a broken user theme");
        assert!(err.to_string().contains("x.toml"), "{err}");
    }

    #[test]
    fn a_bad_colour_names_the_key() {
        let text = THEMES[0]
            .1
            .replace("accent = \"cyan\"", "accent = \"cyanish\"");
        let err = Theme::from_toml(&text, "mine").expect_err("bad colour");
        assert!(err.to_string().contains("key accent"), "{err}");
    }

    #[test]
    fn no_color_resets_every_colour() {
        let t = Theme::select(None, true).expect("theme");
        assert_eq!(t.risk_high, Color::Reset);
        assert_eq!(t.type_color("NAME"), Color::Reset);
        assert!(
            t.entity("NAME", true)
                .add_modifier
                .contains(Modifier::REVERSED)
        );
    }
}
