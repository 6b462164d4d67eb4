//! The settings in effect, flat (`clam config show`), and a commented `clam.toml`
//! with every setting at its default (`clam init`). Both read the defaults and the
//! parameter table, so a new parameter appears in them without an edit here.

use serde_json::Value;

use super::{Config, Resolved, params};

/// One setting in effect: its key as a `clam.toml` writes it (`theta_doc`,
/// `extract.deny`, `schema.NAME`, `llm.model`, `ui.theme`), its value and where the
/// value comes from (a file's path, `command line`, `snapshot config`, `default`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct EffectiveSetting {
    pub key: String,
    pub value: Value,
    pub origin: String,
}

/// Every setting of `config`, flat, in the order of the configuration's fields; the
/// origin of each from `origin`.
pub fn effective_settings(
    config: &Config,
    origin: impl Fn(&str) -> String,
) -> Vec<EffectiveSetting> {
    let mut flat: Vec<(String, Value)> = Vec::new();
    if let Ok(Value::Object(top)) = serde_json::to_value(config) {
        for (k, v) in top {
            match (k.as_str(), v) {
                ("schema", v) => {
                    for t in v["types"].as_array().into_iter().flatten() {
                        let mut entry = t.clone();
                        let name = entry
                            .as_object_mut()
                            .and_then(|o| o.remove("name"))
                            .and_then(|n| n.as_str().map(str::to_string))
                            .unwrap_or_default();
                        flat.push((format!("schema.{name}"), entry));
                    }
                }
                ("extract", Value::Object(inner)) => {
                    flat.extend(
                        inner
                            .into_iter()
                            .map(|(sub, v)| (format!("extract.{sub}"), v)),
                    );
                }
                (_, v) => flat.push((k, v)),
            }
        }
    }
    if let Ok(Value::Object(llm)) = serde_json::to_value(&config.llm) {
        flat.extend(llm.into_iter().map(|(k, v)| (format!("llm.{k}"), v)));
    }
    flat.push((
        "ui.theme".into(),
        config.ui.theme.clone().map_or(Value::Null, Value::from),
    ));
    flat.push((
        "ui.advance".into(),
        Value::from(config.ui.advance.unwrap_or(true)),
    ));
    flat.into_iter()
        .map(|(key, value)| EffectiveSetting {
            origin: origin(&key),
            key,
            value,
        })
        .collect()
}

impl Resolved {
    /// Every setting of the resolved configuration with the layer that set it.
    pub fn settings(&self) -> Vec<EffectiveSetting> {
        effective_settings(&self.config, |k| self.origin_of(k).to_string())
    }
}

/// A value as TOML writes it (strings, numbers, booleans and lists of them are
/// written as in JSON; a table inline).
pub fn toml_value(v: &Value) -> String {
    match v {
        Value::Object(o) if o.is_empty() => "{}".into(),
        Value::Object(o) => format!(
            "{{ {} }}",
            o.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| format!("{} = {}", toml_key(k), toml_value(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(toml_value).collect::<Vec<_>>().join(", ")
        ),
        Value::Null => "\"\"".into(),
        v => v.to_string(),
    }
}

fn toml_key(k: &str) -> String {
    if !k.is_empty()
        && k.chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        k.to_string()
    } else {
        Value::from(k).to_string()
    }
}

/// Help of the keys outside the parameter table.
const OTHER_KEYS: &[(&str, &str)] = &[
    (
        "max_chains_per_component",
        "Chains kept per component of the document graph (1..50,000,000)",
    ),
    (
        "always_mask",
        "Types masked up front whatever the plan says (a corpus's clam.toml only adds to it)",
    ),
    ("never_mask", "Types the planner never masks"),
    ("date_order", "How 03/04/2024 is read: MDY, DMY or YMD"),
    (
        "max_document_bytes",
        "Largest document read; a larger one is skipped with a warning",
    ),
    (
        "context_pass",
        "Look for every typed value in the other documents too",
    ),
    (
        "linker",
        "Corpus-level linker pass for recurring rare phrases (experimental)",
    ),
];

/// A `clam.toml` with every setting commented out at its default, each with one line
/// of help, and examples of the tables: a starting point to edit (`clam init`).
pub fn commented_clam_toml() -> String {
    let d = Config::default();
    let defaults: serde_json::Map<String, Value> = match serde_json::to_value(&d) {
        Ok(Value::Object(o)) => o,
        _ => serde_json::Map::new(),
    };
    let mut s = String::from(
        "# clam.toml: the configuration of clam (Cross-document Linkage-Aware Masking).\n\
         #\n\
         # Every setting is shown commented out at its default: remove the '#' before a\n\
         # key to set it. Layers, lowest precedence first: your own config (the clam.toml\n\
         # of the user config directory), the clam.toml in the corpus folder (which can\n\
         # only make the policy stricter and never sets [llm]), --config FILE, then the\n\
         # command-line flags. `clam config show CORPUS` prints the settings in effect and\n\
         # the file each comes from.\n\n\
         ## Risk analysis and planner\n\n",
    );
    for def in &params::PARAMS {
        let value = defaults
            .get(def.name)
            .map_or_else(|| def.get(&d).to_string(), toml_value);
        s.push_str(&format!("# {}\n# {} = {value}\n\n", def.help, def.name));
    }
    s.push_str("## Policies and extraction\n\n");
    for (key, help) in OTHER_KEYS {
        let value = defaults.get(*key).map_or_else(String::new, toml_value);
        s.push_str(&format!("# {help}\n# {key} = {value}\n\n"));
    }
    s.push_str(
        "## Extend the offline extractor (lists add up across configuration files)\n\
         # [extract]\n\
         # gazetteer_files = { TREATMENT = [\"formulary.txt\"] }  # one term a line, relative to this file\n\
         # gazetteer_terms = { MEDICAL_CONDITION = [\"Kessler-Brandt syndrome\"] }\n\
         # allow = [\"Meridian Mutual Health\"]                    # never extracted\n\
         # deny = { NAME = [\"Jo Q. Public\"] }                     # always extracted with this type\n\n\
         ## Change a type's weight, category or phrase, or add a type\n\
         # [schema.SHOE_SIZE]\n\
         # weight = 0.2\n\
         # category = \"quasi_identifier\"  # direct_identifier | health | quasi_identifier\n\
         # phrase = \"a shoe size\"\n\n\
         ## The opt-in LLM extractor (--extractor llm): only in your own config or a --config\n\
         ## file, never in a corpus folder's clam.toml\n\
         # [llm]\n",
    );
    if let Ok(Value::Object(llm)) = serde_json::to_value(super::llm::LlmSettings::default()) {
        for (k, v) in llm {
            let v = match (k.as_str(), &v) {
                ("model", Value::String(m)) if m.is_empty() => "\"llama3.1\"".to_string(),
                ("api_key_env", Value::Null) => {
                    "\"OPENAI_API_KEY\"  # the variable's name, never the key".to_string()
                }
                _ => toml_value(&v),
            };
            s.push_str(&format!("# {k} = {v}\n"));
        }
    }
    s.push_str(
        "\n## clam review\n\
         # [ui]\n\
         # theme = \"dark\"   # dark | light | high-contrast | colorblind, or NAME for themes/NAME.toml\n\
         # advance = true   # after a decision, move to the next row to review\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Uncommented, the template's settings are the defaults.
    #[test]
    fn the_template_uncommented_is_the_default_configuration() {
        let text: String = commented_clam_toml()
            .lines()
            .take_while(|l| !l.starts_with("# ["))
            .filter_map(|l| l.strip_prefix("# "))
            .filter(|l| {
                l.split_once(" = ").is_some_and(|(k, _)| {
                    !k.contains(' ') && !k.starts_with('[') && *k == k.to_lowercase()
                })
            })
            .map(|l| l.split("  #").next().unwrap_or(l).to_string() + "\n")
            .collect();
        let layer = super::super::ConfigLayer::from_toml(&text, "template");
        let Ok(layer) = layer else {
            panic!("{layer:?}\n{text}");
        };
        let mut c = Config::default();
        let applied = layer.apply(&mut c, "template");
        assert!(applied.is_ok(), "{applied:?}");
        assert_eq!(c, Config::default(), "{text}");
    }
}
