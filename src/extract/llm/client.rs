//! The chat-completions client: one POST to `<base_url>/chat/completions` per
//! attempt, bounded by a semaphore, with a whole-request timeout, a size-capped body,
//! retries with exponential backoff and jitter that honour `Retry-After`, and
//! `response_format` negotiation (json_schema → json_object → plain text).
//!
//! The API key is held in [`ApiKey`], whose `Debug` never shows it, and sent as a
//! sensitive `Authorization: Bearer` header; it is never logged or returned. Every
//! text that comes back from the server (error bodies, the answer) and every fault
//! message is scrubbed of the key, of the base URL's credentials and of every
//! fragment of them of 6 or more characters ([`Scrubber`]) before clam keeps it.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use tokio::sync::Semaphore;

use super::prompts::Message;
use super::settings::{LlmSettings, ResponseFormat};
use super::validate::entities_of;
use crate::config::secret::Scrubber;
use crate::schema::Schema;

/// The API key, read from the environment variable named by `api_key_env`.
#[derive(Clone)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: String) -> Self {
        ApiKey(key)
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

/// Why an attempt failed. The text never contains document content or the key.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Fault {
    #[error("cannot connect: {0}")]
    Connect(String),
    #[error("timed out after {0} s")]
    Timeout(u64),
    #[error("HTTP {0}")]
    Status(u16),
    #[error("HTTP {0} (not retried): {1}")]
    Rejected(u16, String),
    #[error("HTTP {0}: the server refuses this response_format: {1}")]
    FormatRefused(u16, String),
    #[error("response body: {0}")]
    Body(String),
    #[error("response larger than {0} bytes")]
    TooLarge(u64),
    #[error("the answer holds no {{\"entities\": [...]}} JSON")]
    NoJson,
}

impl Fault {
    fn retryable(&self) -> bool {
        !matches!(self, Fault::Rejected(..))
    }

    /// The fault with its text scrubbed of secrets.
    fn scrubbed(self, s: &Scrubber) -> Fault {
        match self {
            Fault::Connect(t) => Fault::Connect(s.scrub(&t)),
            Fault::Rejected(c, t) => Fault::Rejected(c, s.scrub(&t)),
            Fault::FormatRefused(c, t) => Fault::FormatRefused(c, s.scrub(&t)),
            Fault::Body(t) => Fault::Body(s.scrub(&t)),
            f @ (Fault::Timeout(_) | Fault::Status(_) | Fault::TooLarge(_) | Fault::NoJson) => f,
        }
    }
}

/// A completed request: the message text and how many attempts it took.
#[derive(Debug, Clone)]
pub struct Completion {
    pub content: String,
    pub attempts: u32,
    /// The response format the answer was given in.
    pub format: ResponseFormat,
}

/// The response formats, most structured first.
const LEVELS: [ResponseFormat; 3] = [
    ResponseFormat::JsonSchema,
    ResponseFormat::JsonObject,
    ResponseFormat::Text,
];

fn level_of(f: ResponseFormat) -> u8 {
    match f {
        ResponseFormat::Auto | ResponseFormat::JsonSchema => 0,
        ResponseFormat::JsonObject => 1,
        ResponseFormat::Text => 2,
    }
}

/// The chat-completions client.
pub struct Client {
    http: reqwest::Client,
    endpoint: String,
    settings: LlmSettings,
    key: Option<ApiKey>,
    /// Scrubs the key and the URL's credentials from server text.
    scrubber: Scrubber,
    schema_json: Value,
    /// Index into [`LEVELS`]; only ever goes down the list.
    level: AtomicU8,
    /// Whether the server may still refuse the current level (Auto only).
    negotiate: bool,
    permits: Semaphore,
    /// HTTP requests sent (attempts), for the report and the tests.
    pub requests: AtomicU64,
}

/// A value copied from the text: one line, no `"` or `\\`, at most 80 characters.
/// Grammar-constrained servers (llama.cpp, llama-cpp-python) turn this pattern into
/// the grammar, so a small model cannot run a value on across lines and paragraphs.
pub const VALUE_PATTERN: &str = "^[^\"\\\\\\n\\r]{1,80}$";

/// The relevances a response may give: 0.1 steps (an unconstrained number lets a
/// small model under a grammar write -1000000000000000).
const RELEVANCES: [f64; 10] = [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0];

/// JSON schema of the thesis's output shape, with the schema's type names: an array
/// of at most `max_entities` arrays of exactly four items.
pub fn response_schema(schema: &Schema, max_entities: u32) -> Value {
    json!({
        "type": "object",
        "properties": {
            "entities": {
                "type": "array",
                "items": {
                    "type": "array",
                    "prefixItems": [
                        {"type": "string", "pattern": VALUE_PATTERN},
                        {"type": "string", "pattern": VALUE_PATTERN},
                        {"type": "string", "enum": schema.names()},
                        {"type": "number", "enum": RELEVANCES}
                    ],
                    "minItems": 4,
                    "maxItems": 4
                },
                "maxItems": max_entities
            }
        },
        "required": ["entities"],
        "additionalProperties": false
    })
}

fn retry_after(headers: &reqwest::header::HeaderMap) -> Option<Duration> {
    let v = headers.get(reqwest::header::RETRY_AFTER)?.to_str().ok()?;
    let secs: f64 = v.trim().parse().ok()?;
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(300.0)))
}

fn jitter(max_ms: u64) -> u64 {
    if max_ms == 0 {
        return 0;
    }
    getrandom::u64().unwrap_or(0) % (max_ms + 1)
}

impl Client {
    pub fn new(
        settings: &LlmSettings,
        key: Option<ApiKey>,
        schema: &Schema,
    ) -> Result<Self, reqwest::Error> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(settings.timeout_secs))
            .connect_timeout(Duration::from_secs(settings.timeout_secs.min(30)))
            .user_agent(concat!("clam/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let mut secrets = settings.url_secrets();
        if let Some(ApiKey(k)) = &key {
            secrets.push(k.clone());
        }
        Ok(Client {
            http,
            endpoint: settings.endpoint(),
            settings: settings.clone(),
            scrubber: Scrubber::new(secrets),
            key,
            schema_json: response_schema(schema, settings.max_entities),
            level: AtomicU8::new(level_of(settings.response_format)),
            negotiate: settings.response_format == ResponseFormat::Auto,
            permits: Semaphore::new(settings.max_concurrency),
            requests: AtomicU64::new(0),
        })
    }

    /// The response format currently asked for.
    pub fn response_format(&self) -> ResponseFormat {
        LEVELS[usize::from(self.level.load(Ordering::Relaxed)).min(2)]
    }

    fn body(&self, messages: &[Message], format: ResponseFormat) -> Value {
        let mut body = json!({
            "model": self.settings.model,
            "messages": messages,
            "temperature": self.settings.temperature,
            "max_tokens": self.settings.max_tokens,
            "stream": false,
        });
        let rf = match format {
            ResponseFormat::JsonSchema | ResponseFormat::Auto => Some(json!({
                "type": "json_schema",
                "json_schema": {"name": "entities", "schema": self.schema_json},
            })),
            // `schema` is an extension (llama.cpp, llama-cpp-python) that constrains
            // the output with a grammar; other servers ignore it.
            ResponseFormat::JsonObject => {
                Some(json!({"type": "json_object", "schema": self.schema_json}))
            }
            ResponseFormat::Text => None,
        };
        if let (Some(rf), Value::Object(o)) = (rf, &mut body) {
            o.insert("response_format".into(), rf);
        }
        body
    }

    /// One HTTP attempt ([`Client::attempt_raw`]) with everything the server sent
    /// back, and every fault message, scrubbed of the secrets.
    async fn attempt(
        &self,
        messages: &[Message],
        format: &mut ResponseFormat,
    ) -> Result<String, (Fault, Option<Duration>)> {
        match self.attempt_raw(messages, format).await {
            Ok(content) => Ok(self.scrubber.scrub(&content)),
            Err((fault, wait)) => Err((fault.scrubbed(&self.scrubber), wait)),
        }
    }

    /// One HTTP attempt, holding a concurrency permit for its whole duration. The
    /// response format is read once the permit is held, so requests queued behind a
    /// refused one already ask for the next format.
    async fn attempt_raw(
        &self,
        messages: &[Message],
        format: &mut ResponseFormat,
    ) -> Result<String, (Fault, Option<Duration>)> {
        let _permit = self
            .permits
            .acquire()
            .await
            .map_err(|_| (Fault::Connect("client shut down".into()), None))?;
        *format = self.response_format();
        let format = *format;
        self.requests.fetch_add(1, Ordering::Relaxed);
        let mut req = self
            .http
            .post(&self.endpoint)
            .json(&self.body(messages, format));
        if let Some(ApiKey(k)) = &self.key {
            let mut value = reqwest::header::HeaderValue::from_str(&format!("Bearer {k}"))
                .map_err(|_| {
                    (
                        Fault::Rejected(0, "the API key is not a valid header value".into()),
                        None,
                    )
                })?;
            value.set_sensitive(true);
            req = req.header(reqwest::header::AUTHORIZATION, value);
        }
        let timeout = self.settings.timeout_secs;
        let classify = |e: reqwest::Error| -> Fault {
            if e.is_timeout() {
                Fault::Timeout(timeout)
            } else if e.is_connect() {
                // The innermost cause says what happened ("Connection refused").
                let mut cause: &dyn std::error::Error = &e;
                while let Some(inner) = cause.source() {
                    cause = inner;
                }
                Fault::Connect(cause.to_string())
            } else {
                Fault::Body(e.without_url().to_string())
            }
        };
        let mut resp = req.send().await.map_err(|e| (classify(e), None))?;
        let status = resp.status();
        if !status.is_success() {
            let wait = retry_after(resp.headers());
            let code = status.as_u16();
            // Read a little of the error text for the message (servers explain a 400).
            let mut text = Vec::new();
            while let Ok(Some(chunk)) = resp.chunk().await {
                text.extend_from_slice(&chunk);
                if text.len() > 4096 {
                    break;
                }
            }
            // A server that echoes the request must not put the key in a report:
            // scrubbed before the text is shortened, so the cut leaves no part of
            // it (`attempt` scrubs every fault again).
            let text: String = self
                .scrubber
                .scrub(&String::from_utf8_lossy(&text))
                .chars()
                .take(200)
                .collect();
            // Servers refuse an unknown response_format with 400 or 422, some
            // (llama-cpp-python) with a 500 that names the field.
            let format_refused = format != ResponseFormat::Text
                && (matches!(code, 400 | 422) || text.contains("response_format"));
            let fault = match code {
                _ if format_refused && self.negotiate => {
                    Fault::FormatRefused(code, text.trim().to_string())
                }
                408 | 425 | 429 | 500..=599 => Fault::Status(code),
                _ => Fault::Rejected(code, text.trim().to_string()),
            };
            return Err((fault, wait));
        }
        let cap = self.settings.max_response_bytes;
        let mut buf: Vec<u8> = Vec::new();
        loop {
            match resp.chunk().await {
                Ok(Some(chunk)) => {
                    if (buf.len() + chunk.len()) as u64 > cap {
                        return Err((Fault::TooLarge(cap), None));
                    }
                    buf.extend_from_slice(&chunk);
                }
                Ok(None) => break,
                Err(e) => return Err((classify(e), None)),
            }
        }
        let v: Value = serde_json::from_slice(&buf).map_err(|_| {
            (
                Fault::Body("not JSON (truncated or not a chat completion)".into()),
                None,
            )
        })?;
        let content = v
            .pointer("/choices/0/message/content")
            .and_then(Value::as_str)
            .ok_or((Fault::Body("no choices[0].message.content".into()), None))?;
        if entities_of(content).is_none() {
            return Err((Fault::NoJson, None));
        }
        Ok(content.to_string())
    }

    fn backoff(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        let base = self
            .settings
            .backoff_ms
            .saturating_mul(1u64 << retry.min(16));
        let capped = base.min(30_000);
        let ms = capped / 2 + jitter(capped / 2);
        let d = Duration::from_millis(ms);
        match retry_after {
            Some(wait) if wait > d => wait,
            _ => d,
        }
    }

    /// Sends the messages until an answer with the entities JSON arrives or the
    /// retries are spent; a failure comes with the number of attempts made.
    pub async fn complete(&self, messages: &[Message]) -> Result<Completion, (Fault, u32)> {
        let mut retries = 0;
        let mut attempts = 0;
        loop {
            let mut format = self.response_format();
            attempts += 1;
            match self.attempt(messages, &mut format).await {
                Ok(content) => {
                    return Ok(Completion {
                        content,
                        attempts,
                        format,
                    });
                }
                Err((Fault::FormatRefused(code, text), _)) => {
                    // The server refuses this response_format: ask for the next one.
                    let current = level_of(format);
                    let _ = self.level.compare_exchange(
                        current,
                        current + 1,
                        Ordering::Relaxed,
                        Ordering::Relaxed,
                    );
                    tracing::info!(
                        code,
                        detail = %text,
                        next = ?self.response_format(),
                        "server refused the response format; falling back"
                    );
                }
                Err((fault, wait)) => {
                    if !fault.retryable() || retries >= self.settings.max_retries {
                        return Err((fault, attempts));
                    }
                    let delay = self.backoff(retries, wait);
                    tracing::warn!(fault = %fault, retry = retries + 1, delay_ms = delay.as_millis() as u64, "LLM request failed; retrying");
                    retries += 1;
                    tokio::time::sleep(delay).await;
                }
            }
        }
    }
}
