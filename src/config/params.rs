//! The tunable parameters, declared once: every threshold of SPEC §3–4, the pruning
//! switch and the redaction mode, one row of [`PARAMS`] each — name, kind and range, help, the stage a
//! change reaches, and how the value is read from and written to a configuration and a
//! configuration layer.
//!
//! Everything that sets or shows a parameter reads this table: the command-line flags
//! (`--theta-chain`, built from the rows by [`ParamFlags`]), the range checks of a
//! `clam.toml` layer ([`ConfigLayer::validate`]) and its application
//! ([`ConfigLayer::apply`]), the session's adopted settings, the what-if pane and
//! `clam sweep` ([`Param`]). Adding a parameter is a row here, a field in
//! [`ConfigLayer`] and [`Config`], and the use that reads it.

use std::collections::BTreeMap;
use std::fmt;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::{Config, ConfigError, ConfigLayer, MAX_CHAIN_LENGTH};

mod flags;
mod settings;
pub use flags::ParamFlags;
pub use settings::{AdoptedSettings, Setting, apply_settings};

/// Where parameter values come from in error messages when no file is involved.
pub const ORIGIN: &str = "what-if";

/// A tunable parameter: every threshold of SPEC §4 and the redaction mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Param {
    EdgeThreshold,
    ChainLength,
    RiskHigh,
    RiskMedium,
    ThetaDoc,
    ThetaChain,
    RhoHigh,
    RhoMedium,
    Strategy,
    UtilityCost,
    Prune,
    Redaction,
}

/// What kind of value a parameter takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A number in [0, 1] (a sub-range where another parameter bounds it).
    Unit,
    /// A whole number in `min..=max`, said as "a {noun}: use min..=max {unit}".
    Whole {
        min: usize,
        max: usize,
        noun: &'static str,
        unit: &'static str,
    },
    /// One of a few words.
    Choice(&'static [&'static str]),
    /// On or off: `true` / `false` in a file, `--NAME` / `--no-NAME` on the command
    /// line.
    Switch,
}

/// What a change of the parameter needs redone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// A new analysis (edges and chains), then a plan.
    Analysis,
    /// A new plan on the same analysis.
    Plan,
    /// New replacements only; the plan is the same.
    Redaction,
}

/// A parameter's value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    Number(f64),
    Whole(usize),
    Word(String),
    Switch(bool),
}

impl std::fmt::Display for Value {
    /// As stored in the session and typed by a user.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Number(x) => write!(f, "{}", tidy(*x)),
            Value::Whole(k) => write!(f, "{k}"),
            Value::Word(w) => f.write_str(w),
            Value::Switch(b) => write!(f, "{b}"),
        }
    }
}

/// Errors of parameter values; each names the parameter.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum ParamError {
    #[error("unknown parameter {0:?}; the parameters are: {list}", list = Param::names())]
    UnknownParam(String),
    #[error("{param}: {value:?} is not {expected}")]
    BadValue {
        param: &'static str,
        value: String,
        expected: String,
    },
    #[error(transparent)]
    Config(#[from] ConfigError),
}

/// One row of [`PARAMS`].
pub struct ParamDef {
    pub param: Param,
    /// The configuration key (`theta_chain`); the flag is the same with dashes.
    pub name: &'static str,
    pub kind: Kind,
    pub stage: Stage,
    /// One line of help: `--help`, the documentation.
    pub help: &'static str,
    /// The placeholder of the flag's value in `--help`.
    pub value_name: &'static str,
    /// A flag of every planning command; `false` where another flag sets it
    /// (`redaction` is `--mode` on the commands that redact).
    pub flag: bool,
    get: fn(&Config) -> Value,
    set: fn(&mut Config, Value),
    get_layer: fn(&ConfigLayer) -> Option<Value>,
    set_layer: fn(&mut ConfigLayer, Value) -> Result<(), String>,
}

const STRATEGIES: &[&str] = &["greedy", "knapsack"];
const COSTS: &[&str] = &["mentions", "count"];
const MODES: &[&str] = &["redact", "value", "pseudonym", "generalize"];

/// The serde name of an enum value (`knapsack`).
fn word<T: Serialize>(v: &T) -> String {
    match serde_json::to_value(v) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// The enum value of a serde name.
fn from_word<T: DeserializeOwned>(v: Value) -> Result<T, String> {
    match v {
        Value::Word(w) => {
            serde_json::from_value(serde_json::Value::String(w)).map_err(|e| e.to_string())
        }
        other => Err(format!("{other:?} is not a word")),
    }
}

fn number(v: Value) -> Result<f64, String> {
    match v {
        Value::Number(x) => Ok(x),
        Value::Whole(k) => Ok(k as f64),
        Value::Word(w) => Err(format!("{w:?} is not a number")),
        Value::Switch(b) => Err(format!("{b} is not a number")),
    }
}

fn switch(v: Value) -> Result<bool, String> {
    match v {
        Value::Switch(b) => Ok(b),
        other => Err(format!("{other:?} is not true or false")),
    }
}

fn whole(v: Value) -> Result<usize, String> {
    match v {
        Value::Whole(k) => Ok(k),
        other => Err(format!("{other:?} is not a whole number")),
    }
}

macro_rules! unit {
    ($p:ident, $field:ident in $group:ident, $stage:ident, $help:expr) => {
        ParamDef {
            param: Param::$p,
            name: stringify!($field),
            kind: Kind::Unit,
            stage: Stage::$stage,
            help: $help,
            value_name: "X",
            flag: true,
            get: |c| Value::Number(c.$group.$field),
            set: |c, v| {
                if let Ok(x) = number(v) {
                    c.$group.$field = x;
                }
            },
            get_layer: |l| l.$field.map(Value::Number),
            set_layer: |l, v| {
                l.$field = Some(number(v)?);
                Ok(())
            },
        }
    };
}

macro_rules! choice {
    ($p:ident, $field:ident in $group:ident $(as $cfield:ident)?, $words:expr, $stage:ident, $flag:expr, $value_name:expr, $help:expr) => {
        ParamDef {
            param: Param::$p,
            name: stringify!($field),
            kind: Kind::Choice($words),
            stage: Stage::$stage,
            help: $help,
            value_name: $value_name,
            flag: $flag,
            get: |c| Value::Word(word(&choice!(@at c, $group, $field $(, $cfield)?))),
            set: |c, v| {
                if let Ok(x) = from_word(v) {
                    choice!(@at c, $group, $field $(, $cfield)?) = x;
                }
            },
            get_layer: |l| l.$field.as_ref().map(|x| Value::Word(word(x))),
            set_layer: |l, v| {
                l.$field = Some(from_word(v)?);
                Ok(())
            },
        }
    };    // The field of the resolved config: `group.key`, or `group.other` when the
    // group names it differently (`redaction` is `redact.mode`).
    (@at $c:ident, $group:ident, $field:ident) => { $c.$group.$field };
    (@at $c:ident, $group:ident, $field:ident, $cfield:ident) => { $c.$group.$cfield };
}

/// The parameters, in [`Param::ALL`] order (a unit test holds the two together).
pub static PARAMS: [ParamDef; 12] = [
    unit!(
        EdgeThreshold,
        edge_threshold in analysis,
        Analysis,
        "Edges weaker than this are pruned (0..1)"
    ),
    ParamDef {
        param: Param::ChainLength,
        name: "chain_length",
        kind: Kind::Whole {
            min: 2,
            max: MAX_CHAIN_LENGTH,
            noun: "chain length",
            unit: "documents",
        },
        stage: Stage::Analysis,
        help: "Longest chain, in documents (2..5)",
        value_name: "K",
        flag: true,
        get: |c| Value::Whole(c.analysis.chain_length),
        set: |c, v| {
            if let Ok(k) = whole(v) {
                c.analysis.chain_length = k;
            }
        },
        get_layer: |l| l.chain_length.map(Value::Whole),
        set_layer: |l, v| {
            l.chain_length = Some(whole(v)?);
            Ok(())
        },
    },
    unit!(
        RiskHigh,
        risk_high in plan,
        Plan,
        "Chain risk at or above this is HIGH"
    ),
    unit!(
        RiskMedium,
        risk_medium in plan,
        Plan,
        "Chain risk at or above this is MEDIUM"
    ),
    unit!(
        ThetaDoc,
        theta_doc in plan,
        Plan,
        "Document risk allowed after the document stage"
    ),
    unit!(ThetaChain, theta_chain in plan, Plan, "Highest chain target"),
    unit!(
        RhoHigh,
        rho_high in plan,
        Plan,
        "HIGH chains must fall to rho_high · R_pre"
    ),
    unit!(
        RhoMedium,
        rho_medium in plan,
        Plan,
        "MEDIUM chains must fall to rho_medium · R_pre"
    ),
    choice!(
        Strategy,
        strategy in plan,
        STRATEGIES,
        Plan,
        true,
        "STRATEGY",
        "Chain-stage strategy"
    ),
    choice!(
        UtilityCost,
        utility_cost in plan,
        COSTS,
        Plan,
        true,
        "COST",
        "Knapsack cost of masking an entity"
    ),
    ParamDef {
        param: Param::Prune,
        name: "prune",
        kind: Kind::Switch,
        stage: Stage::Plan,
        help: "Release the masks no bound needs after the chain stage (stage 3; default on)",
        value_name: "",
        flag: true,
        get: |c| Value::Switch(c.plan.prune),
        set: |c, v| {
            if let Ok(b) = switch(v) {
                c.plan.prune = b;
            }
        },
        get_layer: |l| l.prune.map(Value::Switch),
        set_layer: |l, v| {
            l.prune = Some(switch(v)?);
            Ok(())
        },
    },
    choice!(
        Redaction,
        redaction in redact as mode,
        MODES,
        Redaction,
        false,
        "MODE",
        "Redaction mode"
    ),
];

/// Rounds away binary noise so 0.5 − 0.01 shows (and is stored) as 0.49.
pub fn tidy(v: f64) -> f64 {
    (v * 1e9).round() / 1e9
}

impl ParamDef {
    /// The range check of this key alone (no other key involved), in the words of a
    /// configuration error.
    pub fn check(&self, v: &Value) -> Result<(), String> {
        match (self.kind, v) {
            (Kind::Unit, Value::Number(x)) if !(x.is_finite() && (0.0..=1.0).contains(x)) => {
                Err(format!("{x} is outside [0, 1]"))
            }
            (
                Kind::Whole {
                    min,
                    max,
                    noun,
                    unit,
                },
                Value::Whole(k),
            ) if !(min..=max).contains(k) => {
                Err(format!("{k} is not a {noun}: use {min}..={max} {unit}"))
            }
            _ => Ok(()),
        }
    }

    /// The value in a layer, if it sets one.
    pub fn get_layer(&self, layer: &ConfigLayer) -> Option<Value> {
        (self.get_layer)(layer)
    }

    /// Sets the value in a layer (the layer is not validated).
    pub fn set_layer(&self, layer: &mut ConfigLayer, v: Value) -> Result<(), String> {
        (self.set_layer)(layer, v)
    }

    /// Sets the value in a configuration (checked before, by a layer).
    pub fn set(&self, config: &mut Config, v: Value) {
        (self.set)(config, v)
    }

    /// The value in a configuration.
    pub fn get(&self, config: &Config) -> Value {
        (self.get)(config)
    }
}

impl Param {
    pub const ALL: [Param; 12] = [
        Param::EdgeThreshold,
        Param::ChainLength,
        Param::RiskHigh,
        Param::RiskMedium,
        Param::ThetaDoc,
        Param::ThetaChain,
        Param::RhoHigh,
        Param::RhoMedium,
        Param::Strategy,
        Param::UtilityCost,
        Param::Prune,
        Param::Redaction,
    ];

    /// Its row of [`PARAMS`].
    pub fn def(self) -> &'static ParamDef {
        &PARAMS[self as usize]
    }

    /// The configuration key.
    pub fn name(self) -> &'static str {
        self.def().name
    }

    /// The keys, for messages.
    pub fn names() -> String {
        Param::ALL.map(Param::name).join(", ")
    }

    /// Parses a configuration key (`theta_chain`, also `theta-chain`).
    pub fn parse(name: &str) -> Result<Param, ParamError> {
        let key = name.trim().replace('-', "_");
        Param::ALL
            .into_iter()
            .find(|p| p.name() == key)
            .ok_or_else(|| ParamError::UnknownParam(name.to_string()))
    }

    pub fn kind(self) -> Kind {
        self.def().kind
    }

    /// True when a change needs a new analysis (edges, chains), not only a re-plan.
    pub fn needs_analysis(self) -> bool {
        self.def().stage == Stage::Analysis
    }

    /// False for the redaction mode: it changes the replacements, not the plan.
    pub fn affects_plan(self) -> bool {
        self.def().stage != Stage::Redaction
    }

    /// The value in `config`, when the parameter is a number.
    pub fn number(self, c: &Config) -> Option<f64> {
        match self.def().get(c) {
            Value::Number(x) => Some(x),
            Value::Whole(k) => Some(k as f64),
            Value::Word(_) | Value::Switch(_) => None,
        }
    }

    /// The value in `config` as text (as stored in the session and typed by a user).
    pub fn value(self, c: &Config) -> String {
        self.def().get(c).to_string()
    }

    /// The values allowed given the rest of `config` (risk_medium ≤ risk_high),
    /// for numeric parameters.
    pub fn range(self, c: &Config) -> Option<(f64, f64)> {
        match self.kind() {
            Kind::Choice(_) | Kind::Switch => None,
            Kind::Whole { min, max, .. } => Some((min as f64, max as f64)),
            Kind::Unit => Some(match self {
                Param::RiskHigh => (c.plan.risk_medium, 1.0),
                Param::RiskMedium => (0.0, c.plan.risk_high),
                _ => (0.0, 1.0),
            }),
        }
    }

    /// Fine and coarse steps of a numeric parameter.
    pub fn steps(self) -> (f64, f64) {
        match self.kind() {
            Kind::Whole { .. } => (1.0, 1.0),
            _ => (0.01, 0.1),
        }
    }

    /// `config` with this parameter set to `text`, validated like a configuration
    /// file (an error names the key and leaves nothing changed).
    pub fn set(self, c: &Config, text: &str) -> Result<Config, ParamError> {
        let mut out = c.clone();
        self.assign(&mut out, text)?;
        out.validate(ORIGIN)?;
        Ok(out)
    }

    /// `config` with this numeric parameter set to `v`, validated.
    pub fn set_number(self, c: &Config, v: f64) -> Result<Config, ParamError> {
        let mut out = c.clone();
        self.assign_number(&mut out, v)?;
        out.validate(ORIGIN)?;
        Ok(out)
    }

    /// The value `text` means for this parameter, with the checks of its kind.
    pub fn parse_value(self, text: &str) -> Result<Value, ParamError> {
        let text = text.trim();
        let bad = |expected: String| ParamError::BadValue {
            param: self.name(),
            value: text.to_string(),
            expected,
        };
        match self.kind() {
            Kind::Choice(words) => {
                let w = text.to_lowercase();
                if !words.contains(&w.as_str()) {
                    return Err(bad(format!("one of {}", words.join(", "))));
                }
                Ok(Value::Word(w))
            }
            Kind::Whole { min, max, .. } => text
                .parse()
                .map(Value::Whole)
                .map_err(|_| bad(format!("a whole number ({min}..={max})"))),
            Kind::Unit => text
                .parse()
                .map(Value::Number)
                .map_err(|_| bad("a number in [0, 1]".into())),
            Kind::Switch => match text.to_lowercase().as_str() {
                "true" | "on" | "yes" => Ok(Value::Switch(true)),
                "false" | "off" | "no" => Ok(Value::Switch(false)),
                _ => Err(bad("true or false".into())),
            },
        }
    }

    /// Sets this parameter to `text` with the checks of its own key only (range,
    /// word); [`Config::validate`] checks the whole afterwards.
    pub fn assign(self, c: &mut Config, text: &str) -> Result<(), ParamError> {
        let v = self.parse_value(text)?;
        self.assign_value(c, v)
    }

    /// Sets this numeric parameter to `v`, checked like a configuration file key.
    pub fn assign_number(self, c: &mut Config, v: f64) -> Result<(), ParamError> {
        let v = tidy(v);
        let value = match self.kind() {
            Kind::Unit => Value::Number(v),
            Kind::Whole { min, max, .. } => {
                if v.fract() != 0.0 || v < 0.0 {
                    return Err(ParamError::BadValue {
                        param: self.name(),
                        value: v.to_string(),
                        expected: format!("a whole number ({min}..={max})"),
                    });
                }
                Value::Whole(v as usize)
            }
            Kind::Choice(_) | Kind::Switch => {
                return Err(ParamError::BadValue {
                    param: self.name(),
                    value: v.to_string(),
                    expected: "a word, not a number".into(),
                });
            }
        };
        self.assign_value(c, value)
    }

    /// Sets a parsed value through a layer, so it is checked like a file's key.
    pub fn assign_value(self, c: &mut Config, v: Value) -> Result<(), ParamError> {
        let mut layer = ConfigLayer::default();
        let shown = format!("{v:?}");
        self.def()
            .set_layer(&mut layer, v)
            .map_err(|expected| ParamError::BadValue {
                param: self.name(),
                value: shown,
                expected,
            })?;
        layer.validate(ORIGIN)?;
        layer.apply(c, ORIGIN)?;
        Ok(())
    }

    /// `config` moved one step up (`up`) or down: a fine or coarse step for numbers,
    /// kept inside [`Param::range`]; the next or previous word for choices.
    pub fn step(self, c: &Config, up: bool, coarse: bool) -> Result<Config, ParamError> {
        match self.kind() {
            Kind::Choice(words) => {
                let cur = self.value(c);
                let i = words.iter().position(|w| *w == cur).unwrap_or(0);
                let n = words.len();
                let j = if up { (i + 1) % n } else { (i + n - 1) % n };
                self.set(c, words[j])
            }
            Kind::Switch => {
                let on = matches!(self.def().get(c), Value::Switch(true));
                self.set(c, if on { "false" } else { "true" })
            }
            _ => {
                let (fine, big) = self.steps();
                let step = if coarse { big } else { fine };
                let (lo, hi) = self.range(c).unwrap_or((0.0, 1.0));
                let cur = self.number(c).unwrap_or(lo);
                let next = tidy(if up { cur + step } else { cur - step }).clamp(lo, hi);
                self.set_number(c, next)
            }
        }
    }
}

impl fmt::Display for Param {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests;
