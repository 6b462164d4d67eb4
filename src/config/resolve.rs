//! Where configuration comes from and how the layers resolve: the user's file, the corpus's, flags; the exported config hash.

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

/// Resolves the configuration from its layers, lowest precedence first.
pub fn resolve(sources: &ConfigSources) -> Result<Config, ConfigError> {
    let mut config = Config::default();
    let mut origins = Vec::new();
    if sources.user
        && let Some(path) = user_config_path()
        && path.is_file()
    {
        ConfigLayer::from_file(&path)?.apply(&mut config, &path.display().to_string())?;
        origins.push(path.display().to_string());
    }
    if let Some(dir) = &sources.corpus_dir {
        let path = dir.join(CONFIG_FILE_NAME);
        if path.is_file() {
            let origin = path.display().to_string();
            let mut layer = ConfigLayer::from_corpus_file(&path)?;
            refuse_llm(&layer, &origin, "a clam.toml inside the corpus folder")?;
            only_stricter(&mut layer, &config, &origin)?;
            let keys = layer.keys();
            layer.apply(&mut config, &origin)?;
            config.corpus_config = Some(CorpusConfig {
                file: origin.clone(),
                keys,
            });
            origins.push(origin);
        }
    }
    if let Some(layer) = &sources.snapshot {
        refuse_llm(layer, "snapshot config", "a snapshot")?;
        layer.apply(&mut config, "snapshot config")?;
        origins.push("snapshot config".into());
    }
    if let Some(path) = &sources.file {
        let layer = ConfigLayer::from_file(path)?;
        if layer.llm.as_ref().is_some_and(|l| l.allow_remote.is_some()) {
            return Err(ConfigError::Invalid {
                origin: path.display().to_string(),
                key: "llm.allow_remote".into(),
                message: format!(
                    "sending documents off this machine is allowed only from your own config ({}) or with --allow-remote",
                    user_config_path().map_or("the user config directory".into(), |p| p
                        .display()
                        .to_string())
                ),
            });
        }
        layer.apply(&mut config, &path.display().to_string())?;
        origins.push(path.display().to_string());
    }
    sources.flags.validate("command line")?;
    sources.flags.apply(&mut config, "command line")?;
    if sources.flags != ConfigLayer::default() {
        origins.push("command line".into());
    }
    let origin = if origins.is_empty() {
        "defaults".to_string()
    } else {
        format!("configuration ({})", origins.join(" + "))
    };
    config.validate(&origin)?;
    Ok(config)
}
