//! The settings a session adopted (what-if `Settings` decisions), typed through the parameter table, and how they apply over a configuration.

use super::*;

/// One setting a session adopted (a what-if `Settings` decision), read through the
/// parameter table when the decision is replayed.
#[derive(Debug, Clone, PartialEq)]
pub enum Setting {
    /// A parameter of the table and its value.
    Typed(Param, Value),
    /// What no longer reads as one (a key the table dropped, a value of the wrong
    /// kind), kept as written so nothing is lost, with why; reported when applied.
    Unreadable { value: String, error: String },
}

/// The settings a session adopted, by key, newest value last.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct AdoptedSettings(BTreeMap<String, Setting>);

impl AdoptedSettings {
    /// Adopts `key = text` (as a `Settings` decision records it).
    pub fn adopt(&mut self, key: &str, text: &str) {
        let setting = match Param::parse(key).and_then(|p| Ok((p, p.parse_value(text)?))) {
            Ok((p, v)) => Setting::Typed(p, v),
            Err(e) => Setting::Unreadable {
                value: text.to_string(),
                error: e.to_string(),
            },
        };
        self.0.insert(key.to_string(), setting);
    }

    /// Adopts every `key = text` of `new`.
    pub fn adopt_all<'a>(&mut self, new: impl IntoIterator<Item = (&'a String, &'a String)>) {
        for (k, v) in new {
            self.adopt(k, v);
        }
    }

    /// The setting adopted for `key`.
    pub fn get(&self, key: &str) -> Option<&Setting> {
        self.0.get(key)
    }

    /// The value adopted for `key`, as text.
    pub fn text(&self, key: &str) -> Option<String> {
        self.get(key).map(|s| match s {
            Setting::Typed(_, v) => v.to_string(),
            Setting::Unreadable { value, .. } => value.clone(),
        })
    }

    /// Every adopted setting, by key.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Setting)> {
        self.0.iter()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// `config` with adopted session settings (key → value) applied. A setting that no
/// longer applies (unknown key, bad value) is skipped, and if the result is invalid
/// as a whole (risk_medium above risk_high after a configuration file changed) no
/// setting is applied; the returned warnings say which.
pub fn apply_settings(config: &Config, settings: &AdoptedSettings) -> (Config, Vec<String>) {
    let mut out = config.clone();
    let mut warnings = Vec::new();
    for (key, setting) in settings.iter() {
        let (value, error) = match setting {
            Setting::Typed(p, v) => match p.assign_value(&mut out, v.clone()) {
                Ok(()) => continue,
                Err(e) => (v.to_string(), e.to_string()),
            },
            Setting::Unreadable { value, error } => (value.clone(), error.clone()),
        };
        warnings.push(format!(
            "adopted setting {key} = {value} no longer applies: {error}"
        ));
    }
    if let Err(e) = out.validate(ORIGIN) {
        warnings.push(format!(
            "adopted settings no longer apply together ({e}); the configuration is used as is"
        ));
        return (config.clone(), warnings);
    }
    (out, warnings)
}
