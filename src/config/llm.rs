//! The `[llm]` table of `clam.toml`: endpoint, model, the name of the environment
//! variable holding the API key, sampling and fault-handling limits.
//!
//! Where it may come from is decided in [`crate::config::resolve`]: never from a
//! `clam.toml` inside the corpus folder (a corpus must not be able to send itself
//! somewhere), and `allow_remote` only from the user's own config or `--allow-remote`.

use serde::{Deserialize, Serialize};

use super::ConfigError;

/// Which `response_format` the extractor asks for first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseFormat {
    /// `json_schema`, then `json_object`, then plain text when the server refuses.
    Auto,
    JsonSchema,
    JsonObject,
    /// No `response_format`; the JSON is read from the text (fenced or bare).
    Text,
}

/// One `[llm]` layer; missing keys keep the lower layer's.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmLayer {
    pub base_url: Option<String>,
    pub model: Option<String>,
    pub api_key_env: Option<String>,
    pub temperature: Option<f64>,
    pub timeout_secs: Option<u64>,
    pub max_concurrency: Option<usize>,
    pub max_retries: Option<u32>,
    pub context_cap: Option<usize>,
    pub entity_filter_strength: Option<f64>,
    pub max_tokens: Option<u32>,
    pub max_entities: Option<u32>,
    pub max_response_bytes: Option<u64>,
    pub backoff_ms: Option<u64>,
    pub response_format: Option<ResponseFormat>,
    pub allow_remote: Option<bool>,
}

/// The resolved `[llm]` table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LlmSettings {
    /// Base URL of an OpenAI-compatible API, up to and including `/v1`.
    pub base_url: String,
    pub model: String,
    /// Name of the environment variable holding the API key (never the key itself).
    pub api_key_env: Option<String>,
    pub temperature: f64,
    /// Whole-request timeout (connect, send, and read the complete body).
    pub timeout_secs: u64,
    /// Requests in flight at most.
    pub max_concurrency: usize,
    /// Retries after the first attempt, per document and pass.
    pub max_retries: u32,
    /// Most `existing_entities` given to the context pass.
    pub context_cap: usize,
    /// `max_relevance · u(e)` an entity needs to enter `existing_entities`.
    pub entity_filter_strength: f64,
    pub max_tokens: u32,
    /// Most entries the response schema allows per answer (`maxItems`), so a small
    /// model that repeats itself still closes its JSON within `max_tokens`.
    pub max_entities: u32,
    /// Responses larger than this are cut off and count as a fault.
    pub max_response_bytes: u64,
    /// First backoff step; doubles per retry, with jitter, capped at 30 s.
    pub backoff_ms: u64,
    pub response_format: ResponseFormat,
    /// Send documents to an endpoint that is not loopback.
    pub allow_remote: bool,
}

impl Default for LlmSettings {
    fn default() -> Self {
        LlmSettings {
            base_url: "http://127.0.0.1:11434/v1".into(),
            model: String::new(),
            api_key_env: None,
            temperature: 0.01,
            timeout_secs: 120,
            max_concurrency: 2,
            max_retries: 3,
            context_cap: 50,
            entity_filter_strength: 0.4,
            max_tokens: 2048,
            max_entities: 100,
            max_response_bytes: 1024 * 1024,
            backoff_ms: 500,
            response_format: ResponseFormat::Auto,
            allow_remote: false,
        }
    }
}

/// Most requests in flight clam allows, whatever the configuration says.
pub const MAX_CONCURRENCY: usize = 64;

impl LlmLayer {
    /// Range checks of one layer; errors name `llm.<key>`.
    pub fn validate(&self, origin: &str) -> Result<(), ConfigError> {
        let invalid = |key: &str, message: String| ConfigError::Invalid {
            origin: origin.to_string(),
            key: format!("llm.{key}"),
            message,
            line: None,
        };
        if let Some(url) = &self.base_url {
            // The message shows the URL without its credentials.
            let shown = super::secret::redact_url(url);
            let parsed = reqwest::Url::parse(url).map_err(|e| {
                invalid(
                    "base_url",
                    format!("{shown:?} is not a URL ({e}); e.g. \"http://127.0.0.1:11434/v1\""),
                )
            })?;
            if !matches!(parsed.scheme(), "http" | "https") || parsed.host().is_none() {
                return Err(invalid(
                    "base_url",
                    format!("{shown:?}: use an http:// or https:// URL with a host"),
                ));
            }
        }
        if let Some(name) = &self.api_key_env {
            let ok = !name.is_empty()
                && !name.starts_with(|c: char| c.is_ascii_digit())
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !ok {
                return Err(invalid(
                    "api_key_env",
                    "the NAME of an environment variable (A-Z, 0-9, _), never the key itself"
                        .into(),
                ));
            }
        }
        if let Some(t) = self.temperature
            && !(t.is_finite() && (0.0..=2.0).contains(&t))
        {
            return Err(invalid("temperature", format!("{t} is outside [0, 2]")));
        }
        if let Some(s) = self.entity_filter_strength
            && !(s.is_finite() && (0.0..=1.0).contains(&s))
        {
            return Err(invalid(
                "entity_filter_strength",
                format!("{s} is outside [0, 1]"),
            ));
        }
        if self.timeout_secs == Some(0) {
            return Err(invalid("timeout_secs", "must be at least 1".into()));
        }
        if let Some(n) = self.max_concurrency
            && !(1..=MAX_CONCURRENCY).contains(&n)
        {
            return Err(invalid(
                "max_concurrency",
                format!("{n}: use 1..={MAX_CONCURRENCY}"),
            ));
        }
        if self.max_tokens == Some(0) {
            return Err(invalid("max_tokens", "must be at least 1".into()));
        }
        if self.max_entities == Some(0) {
            return Err(invalid("max_entities", "must be at least 1".into()));
        }
        if let Some(n) = self.max_response_bytes
            && n < 1024
        {
            return Err(invalid(
                "max_response_bytes",
                format!("{n} is below 1024 bytes"),
            ));
        }
        Ok(())
    }

    /// Applies this layer over `base`.
    pub fn apply(&self, base: &mut LlmSettings) {
        macro_rules! set {
            ($($f:ident),*) => { $( if let Some(v) = &self.$f { base.$f = v.clone(); } )* };
        }
        set!(
            base_url,
            model,
            temperature,
            timeout_secs,
            max_concurrency,
            max_retries,
            context_cap,
            entity_filter_strength,
            max_tokens,
            max_entities,
            max_response_bytes,
            backoff_ms,
            response_format,
            allow_remote
        );
        if let Some(v) = &self.api_key_env {
            base.api_key_env = Some(v.clone());
        }
    }
}

impl LlmSettings {
    /// The endpoint requests go to: `<base_url>/chat/completions`, credentials
    /// included. Only the request uses it: anything shown, logged or written uses
    /// [`LlmSettings::public_endpoint`].
    pub fn endpoint(&self) -> String {
        format!("{}/chat/completions", self.base_url.trim_end_matches('/'))
    }

    /// The endpoint as it is shown and recorded (messages, manifest, report, logs):
    /// without `user:pass@` and secret query values ([`super::secret::redact_url`]).
    pub fn public_endpoint(&self) -> String {
        super::secret::redact_url(&self.endpoint())
    }

    /// `base_url` as it may be written (the cache's key): without credentials.
    pub fn public_base_url(&self) -> String {
        super::secret::redact_url(&self.base_url)
    }

    /// Every credential the settings carry in the base URL ([`super::secret::url_secrets`]).
    pub fn url_secrets(&self) -> Vec<String> {
        super::secret::url_secrets(&self.base_url)
    }

    /// True when `base_url` names this machine (localhost, 127.0.0.0/8, ::1).
    pub fn is_loopback(&self) -> bool {
        is_loopback_url(&self.base_url)
    }
}

/// True when `url`'s host is this machine.
pub fn is_loopback_url(url: &str) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return false;
    };
    let Some(host) = parsed.host_str() else {
        return false;
    };
    let host = host.trim_start_matches('[').trim_end_matches(']');
    match host.parse::<std::net::IpAddr>() {
        Ok(ip) => ip.is_loopback(),
        Err(_) => host.eq_ignore_ascii_case("localhost"),
    }
}
