//! Where configuration comes from and how the layers resolve: the user's file, the corpus's, flags; the exported config hash.

use super::located::locate;
use super::*;

/// A configuration hash from the audit log as the export writes it: a hash made by
/// [`Config::hash`] (64 hex) as it is; anything else (the unkeyed md5 that sessions
/// of earlier versions recorded, which anyone can recompute from a guessed
/// configuration) keyed with the project key, so the export holds no recomputable
/// hash. Such decisions then show a hash that matches no current configuration, as
/// if made under a different one.
pub fn export_config_hash(stored: &str, project_key: &[u8]) -> String {
    let keyed = stored.len() == 64
        && stored
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if stored.is_empty() || keyed {
        stored.to_string()
    } else {
        crate::hashing::hmac_hex(project_key, &format!("legacy config hash {stored}"))
    }
}

/// The user's config file (`<config dir>/clam.toml`), if the platform has one.
pub fn user_config_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "clam").map(|d| d.config_dir().join(CONFIG_FILE_NAME))
}

/// Where the layers come from.
#[derive(Debug, Clone, Default)]
pub struct ConfigSources {
    /// Read `clam.toml` from the user config directory.
    pub user: bool,
    /// The corpus folder (its `clam.toml` is read if present).
    pub corpus_dir: Option<PathBuf>,
    /// A snapshot's own config (between the corpus and `--config` layers).
    pub snapshot: Option<ConfigLayer>,
    /// `--config FILE`.
    pub file: Option<PathBuf>,
    /// Command-line flags.
    pub flags: ConfigLayer,
}

/// A corpus must not be able to send itself somewhere: `[llm]` is refused in `what`.
pub(super) fn refuse_llm(layer: &ConfigLayer, origin: &str, what: &str) -> Result<(), ConfigError> {
    if layer.llm.is_some() {
        return Err(ConfigError::Invalid {
            origin: origin.to_string(),
            key: "llm".into(),
            message: format!(
                "{what} cannot set [llm] (a corpus must not choose where it is sent); put [llm] in your own config ({}) or in a --config file",
                user_config_path().map_or("the user config directory".into(), |p| p
                    .display()
                    .to_string())
            ),
            line: None,
        });
    }
    Ok(())
}

/// A corpus folder's `clam.toml` may only make the policy stricter (SPEC §11): its
/// `always_mask` adds to the one in effect (nothing is removed), and adding a type to
/// `never_mask`, raising a resource limit above the default or turning pruning on
/// where the configuration in effect turns it off is an error naming the key.
pub(super) fn only_stricter(
    layer: &mut ConfigLayer,
    config: &Config,
    origin: &str,
) -> Result<(), ConfigError> {
    let refuse = |key: &str, message: String| ConfigError::Invalid {
        origin: origin.to_string(),
        key: key.to_string(),
        message: format!(
            "{message}; a clam.toml inside the corpus folder can only make the policy stricter (set it in your own config or a --config file)"
        ),
        line: None,
    };
    if let Some(never) = &layer.never_mask {
        let added: Vec<&String> = never
            .iter()
            .filter(|t| !config.redact.never_mask.contains(t))
            .collect();
        if !added.is_empty() {
            let list: Vec<&str> = added.iter().map(|t| t.as_str()).collect();
            return Err(refuse(
                "never_mask",
                format!("it cannot add {} to never_mask", list.join(", ")),
            ));
        }
    }
    if let Some(always) = &mut layer.always_mask {
        let mut merged = config.redact.always_mask.clone();
        extend_unique(&mut merged, always);
        *always = merged;
    }
    // Pruning releases masks (every bound still holding): turning it off masks more,
    // so a corpus may do that, but not turn it on where the policy in effect has it
    // off.
    if layer.prune == Some(true) && !config.plan.prune {
        return Err(refuse(
            "prune",
            "it cannot turn pruning on where your configuration turns it off".into(),
        ));
    }
    let default = Config::default();
    if let Some(k) = layer.max_chains_per_component
        && k > default.analysis.max_chains_per_component
    {
        return Err(refuse(
            "max_chains_per_component",
            format!(
                "{k} is above the default {}",
                default.analysis.max_chains_per_component
            ),
        ));
    }
    if let Some(b) = layer.max_document_bytes
        && b > default.extraction.max_document_bytes
    {
        return Err(refuse(
            "max_document_bytes",
            format!(
                "{b} is above the default {}",
                default.extraction.max_document_bytes
            ),
        ));
    }
    Ok(())
}

/// A resolved configuration and where each setting came from.
#[derive(Debug, Clone)]
pub struct Resolved {
    pub config: Config,
    /// Key (`theta_doc`, `llm.model`, `schema.NAME`) → the origin that set it last: a
    /// file's path, `snapshot config` or `command line`. Keys no layer set keep
    /// their default.
    pub set_by: BTreeMap<String, String>,
    /// The layers read, lowest precedence first.
    pub layers: Vec<String>,
}

impl Resolved {
    /// The origin of `key`'s value: the layer that set it, or that set the table it
    /// is in (`extract.deny.NAME` in `extract.deny`), or `default`.
    pub fn origin_of(&self, key: &str) -> &str {
        let mut k = key;
        loop {
            if let Some(o) = self.set_by.get(k) {
                return o;
            }
            match k.rfind('.') {
                Some(i) => k = &k[..i],
                None => break,
            }
        }
        // A table whose keys were set one by one (`schema` by `schema.NAME`).
        let prefix = format!("{key}.");
        self.set_by
            .iter()
            .rev()
            .find(|(k, _)| k.starts_with(&prefix))
            .map_or("default", |(_, o)| o.as_str())
    }
}

/// Keys whose check also reads other keys: an error about the first may come from a
/// layer that set one of the others.
const RELATED: &[(&str, &[&str])] = &[
    ("risk_medium", &["risk_high"]),
    ("never_mask", &["always_mask", "schema"]),
    ("always_mask", &["never_mask", "schema"]),
];

/// Resolves the configuration from its layers, lowest precedence first.
pub fn resolve(sources: &ConfigSources) -> Result<Config, ConfigError> {
    resolve_traced(sources).map(|r| r.config)
}

/// [`resolve`], keeping where each key came from. An error about one key names the
/// one layer that set it, with the key's line in that file.
pub fn resolve_traced(sources: &ConfigSources) -> Result<Resolved, ConfigError> {
    let mut config = Config::default();
    let mut r = Resolved {
        config: Config::default(),
        set_by: BTreeMap::new(),
        layers: Vec::new(),
    };
    let note = |r: &mut Resolved, layer: &ConfigLayer, origin: &str| {
        for k in layer.keys() {
            r.set_by.insert(k, origin.to_string());
        }
        r.layers.push(origin.to_string());
    };
    if sources.user
        && let Some(path) = user_config_path()
        && path.is_file()
    {
        let origin = path.display().to_string();
        let layer = ConfigLayer::from_file(&path).map_err(locate)?;
        layer.apply(&mut config, &origin).map_err(locate)?;
        note(&mut r, &layer, &origin);
    }
    if let Some(dir) = &sources.corpus_dir {
        let path = dir.join(CONFIG_FILE_NAME);
        if path.is_file() {
            let origin = path.display().to_string();
            let mut layer = ConfigLayer::from_corpus_file(&path).map_err(locate)?;
            refuse_llm(&layer, &origin, "a clam.toml inside the corpus folder").map_err(locate)?;
            only_stricter(&mut layer, &config, &origin).map_err(locate)?;
            let keys = layer.keys();
            layer.apply(&mut config, &origin).map_err(locate)?;
            config.corpus_config = Some(CorpusConfig {
                file: origin.clone(),
                keys,
            });
            note(&mut r, &layer, &origin);
        }
    }
    if let Some(layer) = &sources.snapshot {
        refuse_llm(layer, "snapshot config", "a snapshot")?;
        layer.apply(&mut config, "snapshot config")?;
        note(&mut r, layer, "snapshot config");
    }
    if let Some(path) = &sources.file {
        let origin = path.display().to_string();
        let layer = ConfigLayer::from_file(path).map_err(locate)?;
        if layer.llm.as_ref().is_some_and(|l| l.allow_remote.is_some()) {
            return Err(locate(ConfigError::Invalid {
                origin,
                key: "llm.allow_remote".into(),
                message: format!(
                    "sending documents off this machine is allowed only from your own config ({}) or with --allow-remote",
                    user_config_path().map_or("the user config directory".into(), |p| p
                        .display()
                        .to_string())
                ),
                line: None,
            }));
        }
        layer.apply(&mut config, &origin).map_err(locate)?;
        note(&mut r, &layer, &origin);
    }
    sources.flags.validate("command line")?;
    sources.flags.apply(&mut config, "command line")?;
    if sources.flags != ConfigLayer::default() {
        note(&mut r, &sources.flags, "command line");
    }
    let origin = if r.layers.is_empty() {
        "defaults".to_string()
    } else {
        format!("configuration ({})", r.layers.join(" + "))
    };
    config.validate(&origin).map_err(|e| attribute(e, &r))?;
    r.config = config;
    Ok(r)
}

/// An error of the merged configuration about one key, told as the error of the layer
/// that set that key (or a key its check reads), with its line there.
fn attribute(e: ConfigError, r: &Resolved) -> ConfigError {
    let ConfigError::Invalid {
        key, message, line, ..
    } = e
    else {
        return e;
    };
    let related = RELATED
        .iter()
        .find(|(k, _)| *k == key)
        .map_or(&[][..], |(_, rel)| *rel);
    let setter = std::iter::once(key.as_str())
        .chain(related.iter().copied())
        .map(|k| (k, r.origin_of(k)))
        .find(|(_, o)| *o != "default");
    match setter {
        Some((set_key, origin)) => {
            let message = if set_key == key {
                message
            } else {
                format!("{message} (`{set_key}` is set here)")
            };
            let located = locate(ConfigError::Invalid {
                origin: origin.to_string(),
                key: set_key.to_string(),
                message,
                line: None,
            });
            // The error stays about its own key; the line is the setter's.
            match located {
                ConfigError::Invalid {
                    origin,
                    message,
                    line,
                    ..
                } => ConfigError::Invalid {
                    origin,
                    key,
                    message,
                    line,
                },
                other => other,
            }
        }
        None => ConfigError::Invalid {
            origin: "defaults".into(),
            key,
            message,
            line,
        },
    }
}
