//! Configuration (`clam.toml`): thresholds, schema, policies and redaction mode.
//!
//! Precedence, highest first: command-line flags > `--config FILE` > `clam.toml` in
//! the corpus folder > `clam.toml` in the user config directory > defaults. Each layer
//! is validated on its own, so an error names the file and the key.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::analysis::AnalysisParams;
use crate::corpus::DEFAULT_MAX_DOCUMENT_BYTES;
use crate::entity::DateOrder;
use crate::plan::{Constraints, PlanParams, Strategy, UtilityCost};
use crate::redact::Mode;
use crate::schema::{Category, DIRECT_IDENTIFIERS, EntityType, Schema};
use llm::{LlmLayer, LlmSettings};

pub mod llm;
pub mod params;
pub mod secret;

pub use params::{Param, ParamFlags};

mod extract_lists;
mod files;
pub mod located;
mod resolve;
pub mod template;
use extract_lists::extend_unique;
pub use extract_lists::{ExtractConfig, ExtractLayer, GazetteerFile};
use files::{read_capped, read_gazetteer_file};
pub use resolve::{
    ConfigSources, Resolved, export_config_hash, resolve, resolve_traced, user_config_path,
};

/// File name of the configuration in a corpus folder and the user config directory.
pub const CONFIG_FILE_NAME: &str = "clam.toml";

/// One schema entry in a configuration layer; missing fields keep the lower layer's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SchemaEntry {
    pub weight: Option<f64>,
    pub category: Option<Category>,
    pub phrase: Option<String>,
    /// What the `generalize` mode writes: phrase | year | month | band | region.
    pub generalize: Option<crate::schema::Generalization>,
}

/// One configuration layer (a file, a snapshot's config, or the command line).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfigLayer {
    pub edge_threshold: Option<f64>,
    pub chain_length: Option<usize>,
    pub max_chains_per_component: Option<usize>,
    pub risk_high: Option<f64>,
    pub risk_medium: Option<f64>,
    pub theta_doc: Option<f64>,
    pub theta_chain: Option<f64>,
    pub rho_high: Option<f64>,
    pub rho_medium: Option<f64>,
    pub strategy: Option<Strategy>,
    pub utility_cost: Option<UtilityCost>,
    /// Stage 3 of the planner (SPEC §4); a corpus's `clam.toml` may only turn it off.
    pub prune: Option<bool>,
    pub always_mask: Option<Vec<String>>,
    pub never_mask: Option<Vec<String>>,
    pub redaction: Option<Mode>,
    pub date_order: Option<DateOrder>,
    pub max_document_bytes: Option<u64>,
    pub linker: Option<bool>,
    pub context_pass: Option<bool>,
    pub extract: Option<ExtractLayer>,
    pub schema: Option<BTreeMap<String, SchemaEntry>>,
    /// `[llm]`: refused in a corpus folder's `clam.toml` (see [`resolve`]).
    pub llm: Option<LlmLayer>,
    /// `[ui]`: how `clam review` looks.
    pub ui: Option<UiLayer>,
}

/// The `[ui]` table: settings of the terminal application that do not touch the plan.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UiLayer {
    /// Colour theme of `clam review`: a built-in name (dark, light, high-contrast,
    /// colorblind) or the name of a `themes/NAME.toml` in the user config directory.
    pub theme: Option<String>,
    /// After an accept, override or pin in the redaction set, move to the next
    /// unreviewed row (default true).
    pub advance: Option<bool>,
}

/// The resolved `[ui]` table, with the file that chose the theme (for messages).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UiSettings {
    pub theme: Option<String>,
    pub theme_origin: Option<String>,
    /// `[ui] advance` (None: the default, true).
    pub advance: Option<bool>,
}

/// What is masked and how: the redaction mode and the type policies (SPEC §5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RedactionSettings {
    /// The redaction mode (`redaction` in `clam.toml`).
    #[serde(rename = "redaction")]
    pub mode: Mode,
    /// Types masked whatever the plan says.
    pub always_mask: Vec<String>,
    /// Types never masked.
    pub never_mask: Vec<String>,
}

impl Default for RedactionSettings {
    fn default() -> Self {
        RedactionSettings {
            mode: Mode::Value,
            always_mask: DIRECT_IDENTIFIERS.iter().map(|s| s.to_string()).collect(),
            never_mask: Vec::new(),
        }
    }
}

/// How documents are read and entities found across the corpus.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExtractionSettings {
    /// How ambiguous numeric dates are read.
    pub date_order: DateOrder,
    /// Largest document loaded, in bytes.
    pub max_document_bytes: u64,
    /// Run the corpus-level linker pass after extraction.
    pub linker: bool,
    /// Look for every typed value in the other documents too (extract::propagate).
    pub context_pass: bool,
}

impl Default for ExtractionSettings {
    fn default() -> Self {
        ExtractionSettings {
            date_order: DateOrder::Mdy,
            max_document_bytes: DEFAULT_MAX_DOCUMENT_BYTES,
            linker: false,
            context_pass: true,
        }
    }
}

/// The resolved configuration, in groups: the analysis's and the planner's
/// parameters are the structs those stages read (no copies), then redaction,
/// extraction, the offline extractor's lists, the schema, the LLM settings and the
/// UI; serialized flat, one key per parameter, as `clam.toml` and snapshots write
/// them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Config {
    /// `edge_threshold`, `chain_length`, `max_chains_per_component`.
    #[serde(flatten)]
    pub analysis: AnalysisParams,
    /// The planner's thresholds, strategy and cost.
    #[serde(flatten)]
    pub plan: PlanParams,
    /// `redaction`, `always_mask`, `never_mask`.
    #[serde(flatten)]
    pub redact: RedactionSettings,
    /// `date_order`, `max_document_bytes`, `linker`, `context_pass`.
    #[serde(flatten)]
    pub extraction: ExtractionSettings,
    /// Gazetteer extensions, allow and deny lists of the offline extractor.
    #[serde(default)]
    pub extract: ExtractConfig,
    pub schema: Schema,
    /// The LLM extractor's endpoint and limits. Not part of the serialized config
    /// (snapshots, config hash): it changes how entities are found, not the plan.
    #[serde(skip)]
    pub llm: LlmSettings,
    /// `[ui]`: presentation only, not serialized either.
    #[serde(skip)]
    pub ui: UiSettings,
    /// The corpus folder's `clam.toml`, when one was applied, and the keys it set
    /// (listed in the report and by `clam analyze`, SPEC §11). Not serialized.
    #[serde(skip)]
    pub corpus_config: Option<CorpusConfig>,
}

/// A corpus folder's `clam.toml` and the keys it set.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct CorpusConfig {
    pub file: String,
    pub keys: Vec<String>,
}

/// A configuration error, naming where it comes from and the key.
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ConfigError {
    #[error("{origin}: cannot read: {message}")]
    Read { origin: String, message: String },
    /// A file that is not TOML (or not a configuration's shape): the line and column
    /// of the error, and the line quoted with a caret under it.
    #[error("{origin}{}: {message}{snippet}", at(*.line, *.column))]
    Parse {
        origin: String,
        line: Option<usize>,
        column: Option<usize>,
        message: String,
        snippet: String,
    },
    /// A key's value that is refused, naming the one file (or the command line, a
    /// snapshot, the defaults) that set it, and its line there.
    #[error("{origin}{}: key `{key}`: {message}", at(*.line, None))]
    Invalid {
        origin: String,
        key: String,
        message: String,
        line: Option<usize>,
    },
}

impl ConfigError {
    /// The file (or other origin) the error is about.
    pub fn origin(&self) -> &str {
        match self {
            ConfigError::Read { origin, .. }
            | ConfigError::Parse { origin, .. }
            | ConfigError::Invalid { origin, .. } => origin,
        }
    }
}

/// `:LINE:COLUMN` / `:LINE` after a file name, as compilers write it.
fn at(line: Option<usize>, column: Option<usize>) -> String {
    match (line, column) {
        (Some(l), Some(c)) => format!(":{l}:{c}"),
        (Some(l), None) => format!(":{l}"),
        _ => String::new(),
    }
}

/// Largest configuration file read.
pub const MAX_CONFIG_FILE_BYTES: u64 = 1 << 20;

/// Largest gazetteer file read (a word list, not a corpus).
pub const MAX_GAZETTEER_FILE_BYTES: u64 = 16 << 20;

/// Longest chain the planner enumerates; longer chains explode combinatorially.
pub const MAX_CHAIN_LENGTH: usize = 5;
/// Highest `max_chains_per_component` (beyond this a component's chains alone would
/// need gigabytes).
pub const MAX_CHAINS_LIMIT: usize = 50_000_000;

impl ConfigLayer {
    /// The keys this layer sets, tables as `table.key` (`extract.deny`,
    /// `schema.SHOE_SIZE`), sorted.
    pub fn keys(&self) -> Vec<String> {
        let mut out = Vec::new();
        let Ok(serde_json::Value::Object(top)) = serde_json::to_value(self) else {
            return out;
        };
        for (k, v) in top {
            match v {
                serde_json::Value::Null => {}
                serde_json::Value::Object(inner) if k != "schema" || !inner.is_empty() => {
                    let set: Vec<String> = inner
                        .iter()
                        .filter(|(_, v)| !v.is_null())
                        .map(|(sub, _)| format!("{k}.{sub}"))
                        .collect();
                    if set.is_empty() {
                        out.push(k);
                    } else {
                        out.extend(set);
                    }
                }
                _ => out.push(k),
            }
        }
        out.sort();
        out
    }

    /// Parses a TOML layer; `origin` names it in errors.
    pub fn from_toml(text: &str, origin: &str) -> Result<Self, ConfigError> {
        let layer: ConfigLayer =
            toml::from_str(text).map_err(|e| located::parse_error(text, origin, &e))?;
        layer.validate(origin)?;
        Ok(layer)
    }

    /// Reads and parses a TOML file; gazetteer files are read relative to its folder.
    pub fn from_file(path: &Path) -> Result<Self, ConfigError> {
        Self::read_file(path, false)
    }

    /// [`ConfigLayer::from_file`] for a corpus folder's `clam.toml` (SPEC §11): its
    /// gazetteer files must lie inside that folder.
    pub fn from_corpus_file(path: &Path) -> Result<Self, ConfigError> {
        Self::read_file(path, true)
    }

    fn read_file(path: &Path, confined: bool) -> Result<Self, ConfigError> {
        let origin = path.display().to_string();
        let read_err = |message: String| ConfigError::Read {
            origin: origin.clone(),
            message,
        };
        let text = read_capped(path, MAX_CONFIG_FILE_BYTES)
            .map_err(|e| read_err(e.to_string()))?
            .ok_or_else(|| {
                read_err(format!(
                    "larger than {MAX_CONFIG_FILE_BYTES} bytes; a configuration file is not that long"
                ))
            })?;
        let mut layer = Self::from_toml(&text, &origin)?;
        let base = path.parent().unwrap_or(Path::new("."));
        layer.read_gazetteer_files(base, &origin, confined)?;
        Ok(layer)
    }

    /// Reads `[extract] gazetteer_files` (relative to `base`) into `gazetteer_terms`.
    /// A missing or unreadable file, anything but a regular file (a device, a pipe,
    /// a folder), a file over [`MAX_GAZETTEER_FILE_BYTES`] and, when `confined`, a
    /// file outside `base` (however it is reached: `..`, an absolute path, a link)
    /// is an error naming the key and the file.
    pub fn read_gazetteer_files(
        &mut self,
        base: &Path,
        origin: &str,
        confined: bool,
    ) -> Result<(), ConfigError> {
        let Some(extract) = &mut self.extract else {
            return Ok(());
        };
        let Some(files) = extract.gazetteer_files.take() else {
            return Ok(());
        };
        let terms = extract.gazetteer_terms.get_or_insert_with(BTreeMap::new);
        for (ty, paths) in files {
            for rel in paths {
                // Only the base name is kept for the record: the folder is the user's.
                let name = rel
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let path = base.join(&rel);
                let text = read_gazetteer_file(&path, base, confined).map_err(|message| {
                    ConfigError::Invalid {
                        origin: origin.to_string(),
                        key: format!("extract.gazetteer_files.{ty}"),
                        message,
                        line: None,
                    }
                })?;
                let list = terms.entry(ty.clone()).or_default();
                let mut entries: Vec<String> = text
                    .lines()
                    .map(|l| l.split('#').next().unwrap_or("").trim().to_string())
                    .filter(|l| !l.is_empty())
                    .collect();
                extend_unique(list, &entries);
                entries.sort();
                entries.dedup();
                extract
                    .loaded_files
                    .entry(ty.clone())
                    .or_default()
                    .push(GazetteerFile {
                        file: name,
                        terms: entries.len(),
                    });
            }
        }
        Ok(())
    }

    /// Parses a JSON layer (a snapshot's `config`).
    pub fn from_json(value: &serde_json::Value, origin: &str) -> Result<Self, ConfigError> {
        let layer: ConfigLayer =
            serde_json::from_value(value.clone()).map_err(|e| ConfigError::Parse {
                origin: origin.to_string(),
                line: None,
                column: None,
                message: e.to_string(),
                snippet: String::new(),
            })?;
        layer.validate(origin)?;
        Ok(layer)
    }

    /// Range checks that need no other layer.
    pub fn validate(&self, origin: &str) -> Result<(), ConfigError> {
        let invalid = |key: &str, message: String| ConfigError::Invalid {
            origin: origin.to_string(),
            key: key.to_string(),
            message,
            line: None,
        };
        for def in &params::PARAMS {
            if let Some(v) = def.get_layer(self) {
                def.check(&v).map_err(|m| invalid(def.name, m))?;
            }
        }
        if let Some(k) = self.max_chains_per_component
            && !(1..=MAX_CHAINS_LIMIT).contains(&k)
        {
            return Err(invalid(
                "max_chains_per_component",
                format!("{k} is not a chain cap: use 1..={MAX_CHAINS_LIMIT} chains per component"),
            ));
        }
        if let Some(llm) = &self.llm {
            llm.validate(origin)?;
        }
        if self.max_document_bytes == Some(0) {
            return Err(invalid("max_document_bytes", "must be at least 1".into()));
        }
        if let Some(schema) = &self.schema {
            for (name, entry) in schema {
                let valid_name = !name.is_empty()
                    && name
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_');
                if !valid_name {
                    return Err(invalid(
                        &format!("schema.{name}"),
                        "type names are UPPER_SNAKE_CASE (A-Z, 0-9, _)".into(),
                    ));
                }
                if let Some(w) = entry.weight
                    && !(w.is_finite() && (0.0..=1.0).contains(&w))
                {
                    return Err(invalid(
                        &format!("schema.{name}.weight"),
                        format!("{w} is outside [0, 1]"),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Applies this layer over `base`.
    pub fn apply(&self, base: &mut Config, origin: &str) -> Result<(), ConfigError> {
        macro_rules! set {
            ($($f:ident => $($to:ident).+),*) => {
                $( if let Some(v) = &self.$f { base.$($to).+ = v.clone(); } )*
            };
        }
        for def in &params::PARAMS {
            if let Some(v) = def.get_layer(self) {
                def.set(base, v);
            }
        }
        if let Some(k) = self.max_chains_per_component {
            base.analysis.max_chains_per_component = k;
        }
        set!(
            always_mask => redact.always_mask,
            never_mask => redact.never_mask,
            redaction => redact.mode,
            date_order => extraction.date_order,
            max_document_bytes => extraction.max_document_bytes,
            linker => extraction.linker,
            context_pass => extraction.context_pass
        );
        if let Some(llm) = &self.llm {
            llm.apply(&mut base.llm);
        }
        if let Some(theme) = self.ui.as_ref().and_then(|u| u.theme.as_ref()) {
            if theme.trim().is_empty() {
                return Err(ConfigError::Invalid {
                    origin: origin.to_string(),
                    key: "ui.theme".into(),
                    message: "a theme name cannot be empty".into(),
                    line: None,
                });
            }
            base.ui.theme = Some(theme.clone());
            base.ui.theme_origin = Some(origin.to_string());
        }
        if let Some(advance) = self.ui.as_ref().and_then(|u| u.advance) {
            base.ui.advance = Some(advance);
        }
        if let Some(x) = &self.extract {
            if x.gazetteer_files.is_some() {
                return Err(ConfigError::Invalid {
                    origin: origin.to_string(),
                    key: "extract.gazetteer_files".into(),
                    message: "files can only be read from a configuration file".into(),
                    line: None,
                });
            }
            for (ty, terms) in x.gazetteer_terms.iter().flatten() {
                extend_unique(
                    base.extract.gazetteer_terms.entry(ty.clone()).or_default(),
                    terms,
                );
            }
            for (ty, files) in &x.loaded_files {
                base.extract
                    .gazetteer_files
                    .entry(ty.clone())
                    .or_default()
                    .extend(files.iter().cloned());
            }
            extend_unique(&mut base.extract.allow, x.allow.as_deref().unwrap_or(&[]));
            if let Some(on) = x.short_forms {
                base.extract.short_forms = Some(on);
            }
            for (ty, values) in x.deny.iter().flatten() {
                extend_unique(base.extract.deny.entry(ty.clone()).or_default(), values);
            }
        }
        if let Some(schema) = &self.schema {
            for (name, entry) in schema {
                match base.schema.types.iter_mut().find(|t| &t.name == name) {
                    Some(t) => {
                        if let Some(w) = entry.weight {
                            t.weight = w;
                        }
                        if let Some(c) = entry.category {
                            t.category = c;
                        }
                        if let Some(p) = &entry.phrase {
                            t.phrase = p.clone();
                        }
                        if let Some(g) = entry.generalize {
                            t.generalize = g;
                        }
                    }
                    None => {
                        let Some(weight) = entry.weight else {
                            return Err(ConfigError::Invalid {
                                origin: origin.to_string(),
                                key: format!("schema.{name}.weight"),
                                message: "a new entity type needs a weight".into(),
                                line: None,
                            });
                        };
                        base.schema.types.push(EntityType {
                            name: name.clone(),
                            weight,
                            category: entry.category.unwrap_or(Category::QuasiIdentifier),
                            phrase: entry.phrase.clone().unwrap_or_else(|| {
                                format!("a {}", name.to_lowercase().replace('_', " "))
                            }),
                            generalize: entry.generalize.unwrap_or_default(),
                        });
                    }
                }
            }
        }
        Ok(())
    }
}

impl Config {
    /// Checks that need the merged configuration (type names against the schema,
    /// threshold order). `origin` names the layers in the message.
    pub fn validate(&self, origin: &str) -> Result<(), ConfigError> {
        let invalid = |key: &str, message: String| ConfigError::Invalid {
            origin: origin.to_string(),
            key: key.to_string(),
            message,
            line: None,
        };
        for (key, list) in [
            ("always_mask", &self.redact.always_mask),
            ("never_mask", &self.redact.never_mask),
        ] {
            for t in list {
                if !self.schema.contains(t) {
                    return Err(invalid(
                        key,
                        format!(
                            "unknown entity type {t:?}; the schema has: {}",
                            self.schema.names().join(", ")
                        ),
                    ));
                }
            }
        }
        for (key, map) in [
            ("extract.gazetteer_terms", &self.extract.gazetteer_terms),
            ("extract.deny", &self.extract.deny),
        ] {
            // A type of the schema: built in, or declared with `[schema.NAME]`.
            for t in map.keys() {
                if !self.schema.contains(t) {
                    return Err(invalid(
                        &format!("{key}.{t}"),
                        format!(
                            "unknown entity type {t:?}: declare it with [schema.{t}] (weight, category, phrase) or use one of the schema's types: {}",
                            self.schema.names().join(", ")
                        ),
                    ));
                }
            }
        }
        if let Some(t) = self
            .redact
            .always_mask
            .iter()
            .find(|t| self.redact.never_mask.contains(t))
        {
            return Err(invalid(
                "never_mask",
                format!("type {t} is also in always_mask; a type can be in only one of them"),
            ));
        }
        if self.plan.risk_medium > self.plan.risk_high {
            return Err(invalid(
                "risk_medium",
                format!(
                    "{} is above risk_high {}; MEDIUM must start below HIGH",
                    self.plan.risk_medium, self.plan.risk_high
                ),
            ));
        }
        Ok(())
    }

    pub fn analysis_params(&self) -> AnalysisParams {
        self.analysis
    }

    pub fn plan_params(&self) -> PlanParams {
        self.plan
    }

    /// Type policies as planner constraints (forced states are added by the session).
    pub fn constraints(&self) -> Constraints {
        Constraints {
            always_mask: self.redact.always_mask.iter().cloned().collect(),
            never_mask: self.redact.never_mask.iter().cloned().collect(),
            force_mask: BTreeSet::new(),
            force_keep: BTreeSet::new(),
        }
    }

    /// Hash of the configuration, recorded with every decision and in the export:
    /// HMAC-SHA256 (64 hex) of its JSON under the project key, stable for the same
    /// configuration and key. Keyed because the export shows most of the
    /// configuration: a plain hash would let anyone confirm a guessed deny-listed
    /// name by hashing it back in (SPEC §5). Without a key (no session) it is empty:
    /// an HMAC under an empty key is as recomputable as a plain hash.
    pub fn hash(&self, project_key: &[u8]) -> String {
        if project_key.is_empty() {
            return String::new();
        }
        let json = serde_json::to_string(self).unwrap_or_default();
        crate::hashing::hmac_hex(project_key, &json)
    }

    /// The configuration as the export records it (manifest.json): every scalar
    /// setting as it is, the `[extract]` term lists as counts and file names only
    /// ([`ExtractConfig::export_json`]).
    pub fn export_json(&self) -> serde_json::Value {
        let mut v = serde_json::to_value(self).unwrap_or(serde_json::Value::Null);
        if let Some(o) = v.as_object_mut() {
            o.insert("extract".into(), self.extract.export_json());
        }
        v
    }
}

#[cfg(test)]
mod tests;
