//! The LLM extractor (SPEC §7, thesis §4.2.2): any OpenAI-compatible
//! `/v1/chat/completions` server, two passes per document.
//!
//! 1. Local pass: each document on its own.
//! 2. Context pass: each document again, with `existing_entities` = the
//!    `(normalized_value, entity_type)` pairs found in *other* documents whose
//!    `filter_score = max_relevance · u(e) ≥ entity_filter_strength`, direct identifiers
//!    excluded, highest score first, at most `context_cap` of them.
//!
//! A document's items are the union of both passes (the store keeps the higher
//! relevance): the thesis saw the context pass skip entities when the context grows, so
//! it adds to the local pass rather than replacing it. The offline recognizers for
//! direct identifiers always run beside the model and their items are kept, so a
//! document that talks the model out of reporting an identifier cannot hide it. A
//! document whose local pass fails after the retries falls back to the offline
//! extractor and is marked `fallback` with the reason.

pub mod cache;
pub mod client;
pub mod prompts;
/// The LLM extractor's settings live with the configuration (`config::llm`), below
/// the extractors; this path is kept for callers.
pub use crate::config::llm as settings;
pub use crate::config::secret;
pub mod validate;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use serde::Serialize;
use tokio::sync::mpsc::UnboundedSender;

use self::cache::{Cache, CacheKey, sha256_hex};
use self::client::{ApiKey, Client};
use self::prompts::{Pass, PromptError, Prompts};
use self::validate::{Dropped, entities_of, validate};
use crate::config::Config;
use crate::corpus::Document;
use crate::entity::EntityStore;
use crate::entity::ExtractedItem;
use crate::extract::offline::OfflineExtractor;

/// Types whose offline recognizers always run beside the model (defence in depth).
pub const ALWAYS_ON_TYPES: [&str; 6] = [
    "EMAIL",
    "PHONE_NUMBER",
    "PATIENT_ID",
    "NON_PERSONAL_ID",
    "ADDRESS",
    "NAME",
];

/// Options that come from the command line rather than the configuration.
#[derive(Debug, Clone, Default)]
pub struct LlmOptions {
    /// `--allow-remote`.
    pub allow_remote: bool,
    /// `--no-cache`: neither read nor write the cache.
    pub no_cache: bool,
    /// Cache folder (default: [`cache::default_cache_dir`]).
    pub cache_dir: Option<PathBuf>,
    /// Folder of prompt overrides (default: [`prompts::user_prompt_dir`]).
    pub prompt_dir: Option<PathBuf>,
}

/// Errors that stop the LLM extractor before any document is sent.
#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error(
        "refusing to send documents to {endpoint}: it is not this machine. Set `allow_remote = true` under [llm] in your own config ({user_config}) or pass --allow-remote"
    )]
    Remote {
        endpoint: String,
        user_config: String,
    },
    #[error("no model configured: set `model` under [llm] (e.g. model = \"llama3.1:8b\")")]
    NoModel,
    #[error(
        "the environment variable {0} (named by llm.api_key_env) is not set or empty; export it or remove api_key_env"
    )]
    MissingKey(String),
    #[error(transparent)]
    Prompt(#[from] PromptError),
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
    #[error("cannot start the async runtime: {0}")]
    Runtime(String),
}

/// How one pass went for one document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PassReport {
    pub pass: Pass,
    pub ok: bool,
    /// Answered from the cache (no request).
    pub cached: bool,
    /// HTTP attempts made.
    pub attempts: u32,
    /// Valid items the model returned.
    pub items: usize,
    pub dropped: Dropped,
    /// Why the pass failed.
    pub error: Option<String>,
}

/// Where a document's entities come from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The model (both passes, or the local pass when the context pass failed).
    Llm,
    /// The offline extractor, after the local pass failed.
    Fallback,
}

/// How extraction went for one document.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DocReport {
    pub id: String,
    pub source: Source,
    /// Why the document fell back, or why its context pass is missing.
    pub reason: Option<String>,
    pub passes: Vec<PassReport>,
    /// `existing_entities` given to the context pass.
    pub context_entities: usize,
    /// Items of the always-on offline direct-identifier recognizers.
    pub offline_identifiers: usize,
    /// Entries dropped by validation over both passes.
    pub dropped: Dropped,
}

/// What the LLM extractor did; recorded in `clam analyze` and the manifest.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmReport {
    /// The endpoint without credentials ([`settings::LlmSettings::public_endpoint`]).
    pub endpoint: String,
    pub model: String,
    /// The endpoint is not this machine (sent with `allow_remote`).
    pub remote: bool,
    /// The response format in effect: the least structured one an answer was given in
    /// (sent in this run or read from the cache, whose entries record it), else the
    /// one asked for; `None` only when nothing tells (every answer from cache entries
    /// of a version that did not record it, with `response_format = "auto"`).
    pub response_format: Option<settings::ResponseFormat>,
    pub temperature: f64,
    pub cache: bool,
    /// HTTP requests sent (attempts).
    pub requests: u64,
    /// Passes answered from the cache.
    pub cache_hits: usize,
    /// Documents that fell back to the offline extractor.
    pub fallbacks: usize,
    /// Entries dropped by validation over the corpus.
    pub dropped: Dropped,
    /// SHA-256 of the local and context prompt templates.
    pub prompt_hashes: BTreeMap<String, String>,
    pub documents: Vec<DocReport>,
}

impl LlmReport {
    /// Every document fell back to the offline extractor (and there was one at least):
    /// the model gave nothing.
    pub fn all_fell_back(&self) -> bool {
        !self.documents.is_empty() && self.fallbacks == self.documents.len()
    }

    /// The most common reason of the documents that fell back, and how many gave it
    /// (ties: the first in corpus order).
    pub fn main_fallback_reason(&self) -> Option<(&str, usize)> {
        let mut counts: Vec<(&str, usize)> = Vec::new();
        for d in self
            .documents
            .iter()
            .filter(|d| d.source == Source::Fallback)
        {
            let why = d.reason.as_deref().unwrap_or("no reason recorded");
            match counts.iter_mut().find(|(r, _)| *r == why) {
                Some((_, n)) => *n += 1,
                None => counts.push((why, 1)),
            }
        }
        let mut best: Option<(&str, usize)> = None;
        for (r, n) in counts {
            if best.is_none_or(|(_, b)| n > b) {
                best = Some((r, n));
            }
        }
        best
    }
}

/// Progress of the extractor, streamed per pass and per finished document.
#[derive(Debug, Clone)]
pub enum LlmEvent {
    /// Extraction starts: `passes` units of work will be reported.
    Started { documents: usize, passes: usize },
    /// One pass of one document finished (a skipped context pass counts too), with
    /// the pass's valid items, so a consumer can show local results before the
    /// context pass (which needs the whole corpus) has run.
    Pass {
        index: usize,
        pass: Pass,
        report: PassReport,
        items: Vec<ExtractedItem>,
    },
    /// A document's final items (before the corpus-level steps of the workspace).
    Document {
        index: usize,
        report: Box<DocReport>,
        items: Vec<ExtractedItem>,
    },
}

/// The result of a run: items per document in corpus order, and the report.
#[derive(Debug, Clone)]
pub struct LlmRun {
    pub items: Vec<Vec<ExtractedItem>>,
    pub report: LlmReport,
}

struct Inner {
    config: Config,
    prompts: Prompts,
    client: Client,
    cache: Cache,
    offline: OfflineExtractor,
    /// The least structured response format an answer of this extractor was given in,
    /// live or from the cache ([`format_code`]; 0 = none yet).
    answered_format: std::sync::atomic::AtomicU8,
}

/// [`settings::ResponseFormat`] as a number that grows as the format gets less
/// structured (0 is kept for "none").
fn format_code(f: settings::ResponseFormat) -> u8 {
    match f {
        settings::ResponseFormat::Auto => 0,
        settings::ResponseFormat::JsonSchema => 1,
        settings::ResponseFormat::JsonObject => 2,
        settings::ResponseFormat::Text => 3,
    }
}

fn format_of_code(c: u8) -> Option<settings::ResponseFormat> {
    match c {
        1 => Some(settings::ResponseFormat::JsonSchema),
        2 => Some(settings::ResponseFormat::JsonObject),
        3 => Some(settings::ResponseFormat::Text),
        _ => None,
    }
}

/// Outcome of one pass of one document.
struct PassOutcome {
    items: Vec<ExtractedItem>,
    report: PassReport,
}

/// The LLM extractor.
pub struct LlmExtractor {
    inner: Arc<Inner>,
}

impl LlmExtractor {
    /// Checks the endpoint (loopback or allowed remote), the model and the key, loads
    /// the prompts. Nothing is sent yet.
    pub fn new(config: &Config, opts: &LlmOptions) -> Result<Self, LlmError> {
        let s = &config.llm;
        let allowed = s.is_loopback() || s.allow_remote || opts.allow_remote;
        if !allowed {
            return Err(LlmError::Remote {
                endpoint: s.public_endpoint(),
                user_config: crate::config::user_config_path()
                    .map_or("the user config directory".into(), |p| {
                        p.display().to_string()
                    }),
            });
        }
        if s.model.trim().is_empty() {
            return Err(LlmError::NoModel);
        }
        let key = match &s.api_key_env {
            Some(name) => match std::env::var(name) {
                Ok(k) if !k.trim().is_empty() => Some(ApiKey::new(k.trim().to_string())),
                _ => return Err(LlmError::MissingKey(name.clone())),
            },
            None => None,
        };
        let prompt_dir = opts.prompt_dir.clone().or_else(prompts::user_prompt_dir);
        let prompts = Prompts::load(&config.schema, prompt_dir.as_deref())?;
        let client =
            Client::new(s, key, &config.schema).map_err(|e| LlmError::Client(e.to_string()))?;
        let cache = if opts.no_cache {
            Cache::disabled()
        } else {
            Cache::new(opts.cache_dir.clone().or_else(cache::default_cache_dir))
        };
        Ok(LlmExtractor {
            inner: Arc::new(Inner {
                config: config.clone(),
                prompts,
                client,
                cache,
                offline: OfflineExtractor::from_config(config),
                answered_format: std::sync::atomic::AtomicU8::new(0),
            }),
        })
    }

    /// The endpoint documents are sent to, as it may be shown (without credentials).
    pub fn endpoint(&self) -> String {
        self.inner.config.llm.public_endpoint()
    }

    /// HTTP requests sent so far.
    pub fn requests(&self) -> u64 {
        self.inner
            .client
            .requests
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// The response format in effect: the least structured one an answer (sent now or
    /// read from the cache) was given in, and the one the client asks for now if it
    /// sent a request; for cache entries of older versions, which do not record it,
    /// the configured one unless it is `auto`. `None` when nothing tells.
    fn response_format(&self) -> Option<settings::ResponseFormat> {
        let inner = &self.inner;
        let answered = inner
            .answered_format
            .load(std::sync::atomic::Ordering::Relaxed);
        let asked = if self.requests() > 0 {
            format_code(inner.client.response_format())
        } else {
            0
        };
        format_of_code(answered.max(asked)).or(match inner.config.llm.response_format {
            settings::ResponseFormat::Auto => None,
            f => Some(f),
        })
    }

    /// Runs both passes over `docs` on a runtime of its own (for synchronous callers).
    pub fn run_blocking(
        &self,
        docs: &[Document],
        events: Option<UnboundedSender<LlmEvent>>,
    ) -> Result<LlmRun, LlmError> {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| LlmError::Runtime(e.to_string()))?;
        Ok(rt.block_on(self.run(docs, events)))
    }

    /// Runs both passes over `docs`. Requests run concurrently up to
    /// `max_concurrency`; results are streamed through `events` as they arrive.
    pub async fn run(
        &self,
        docs: &[Document],
        events: Option<UnboundedSender<LlmEvent>>,
    ) -> LlmRun {
        let inner = &self.inner;
        let docs: Arc<Vec<Document>> = Arc::new(docs.to_vec());
        let send = |e: LlmEvent| {
            if let Some(tx) = &events {
                let _ = tx.send(e);
            }
        };
        send(LlmEvent::Started {
            documents: docs.len(),
            passes: 2 * docs.len(),
        });
        let no_context = String::new();
        let local = self
            .run_pass(
                Pass::Local,
                &docs,
                &vec![Some(no_context); docs.len()],
                &events,
            )
            .await;

        // What is known after the local pass: model items plus the always-on offline
        // identifiers, or the offline items of a document that fell back.
        let offline: Vec<Vec<ExtractedItem>> = docs
            .iter()
            .map(|d| inner.offline.extract_text(&d.content))
            .collect();
        let known: Vec<Vec<ExtractedItem>> = local
            .iter()
            .zip(&offline)
            .map(|(l, off)| match l {
                Some(o) if o.report.ok => {
                    let mut v = o.items.clone();
                    v.extend(always_on(off));
                    v
                }
                _ => off.clone(),
            })
            .collect();
        let existing = existing_entities(&docs, &known, &inner.config);
        let contexts: Vec<Option<String>> = local
            .iter()
            .zip(&existing)
            .enumerate()
            .map(|(i, (l, ex))| {
                if l.as_ref().is_some_and(|o| o.report.ok) {
                    Some(serde_json::to_string(ex).unwrap_or_else(|_| "[]".into()))
                } else {
                    send(LlmEvent::Pass {
                        index: i,
                        pass: Pass::Context,
                        report: PassReport {
                            pass: Pass::Context,
                            ok: false,
                            cached: false,
                            attempts: 0,
                            items: 0,
                            dropped: Dropped::default(),
                            error: Some("skipped: the local pass failed".into()),
                        },
                        items: Vec::new(),
                    });
                    None
                }
            })
            .collect();
        let context = self
            .run_pass(Pass::Context, &docs, &contexts, &events)
            .await;

        let mut items = Vec::with_capacity(docs.len());
        let mut reports = Vec::with_capacity(docs.len());
        for (i, doc) in docs.iter().enumerate() {
            let off = &offline[i];
            let mut passes = Vec::new();
            let mut dropped = Dropped::default();
            for o in [&local[i], &context[i]].into_iter().flatten() {
                dropped.add(&o.report.dropped);
                passes.push(o.report.clone());
            }
            let local_ok = local[i].as_ref().filter(|o| o.report.ok);
            let (its, source, reason, offline_identifiers) = match local_ok {
                Some(l) => {
                    let mut v = l.items.clone();
                    let mut reason = None;
                    match &context[i] {
                        Some(c) if c.report.ok => v.extend(c.items.iter().cloned()),
                        Some(c) => {
                            reason = Some(format!(
                                "context pass failed: {}",
                                c.report.error.clone().unwrap_or_default()
                            ))
                        }
                        None => {}
                    }
                    let ids = always_on(off);
                    let n = ids.len();
                    v.extend(ids);
                    (v, Source::Llm, reason, n)
                }
                None => {
                    let why = local[i]
                        .as_ref()
                        .and_then(|o| o.report.error.clone())
                        .unwrap_or_else(|| "local pass did not run".into());
                    (
                        off.clone(),
                        Source::Fallback,
                        Some(format!("local pass failed: {why}")),
                        0,
                    )
                }
            };
            let report = DocReport {
                id: doc.id.clone(),
                source,
                reason,
                passes,
                context_entities: existing[i].len(),
                offline_identifiers,
                dropped,
            };
            send(LlmEvent::Document {
                index: i,
                report: Box::new(report.clone()),
                items: its.clone(),
            });
            items.push(its);
            reports.push(report);
        }
        let mut dropped = Dropped::default();
        for r in &reports {
            dropped.add(&r.dropped);
        }
        let s = &inner.config.llm;
        let report = LlmReport {
            endpoint: s.public_endpoint(),
            model: s.model.clone(),
            remote: !s.is_loopback(),
            response_format: self.response_format(),
            temperature: s.temperature,
            cache: inner.cache.dir().is_some(),
            requests: self.requests(),
            cache_hits: reports
                .iter()
                .flat_map(|r| &r.passes)
                .filter(|p| p.cached)
                .count(),
            fallbacks: reports
                .iter()
                .filter(|r| r.source == Source::Fallback)
                .count(),
            dropped,
            prompt_hashes: [Pass::Local, Pass::Context]
                .iter()
                .map(|p| (p.as_str().to_string(), inner.prompts.hash(*p).to_string()))
                .collect(),
            documents: reports,
        };
        LlmRun { items, report }
    }

    /// Runs one pass over the documents whose context is `Some`, concurrently.
    async fn run_pass(
        &self,
        pass: Pass,
        docs: &Arc<Vec<Document>>,
        contexts: &[Option<String>],
        events: &Option<UnboundedSender<LlmEvent>>,
    ) -> Vec<Option<PassOutcome>> {
        let mut set = tokio::task::JoinSet::new();
        for (i, ctx) in contexts.iter().enumerate() {
            let Some(ctx) = ctx.clone() else { continue };
            let inner = Arc::clone(&self.inner);
            let docs = Arc::clone(docs);
            let events = events.clone();
            set.spawn(async move {
                let out = inner.pass(pass, &docs[i], &ctx).await;
                if let Some(tx) = &events {
                    let _ = tx.send(LlmEvent::Pass {
                        index: i,
                        pass,
                        report: out.report.clone(),
                        items: out.items.clone(),
                    });
                }
                (i, out)
            });
        }
        let mut out: Vec<Option<PassOutcome>> = (0..contexts.len()).map(|_| None).collect();
        while let Some(joined) = set.join_next().await {
            match joined {
                Ok((i, o)) => out[i] = Some(o),
                Err(e) => tracing::error!(error = %e, "an extraction task failed"),
            }
        }
        out
    }
}

impl Inner {
    /// Records that an answer was given in `format`.
    fn answered(&self, format: settings::ResponseFormat) {
        self.answered_format
            .fetch_max(format_code(format), std::sync::atomic::Ordering::Relaxed);
    }

    async fn pass(&self, pass: Pass, doc: &Document, context: &str) -> PassOutcome {
        let s = &self.config.llm;
        let key = CacheKey {
            // Written into the cache entry: without credentials (the answer does not
            // depend on who asked).
            base_url: s.public_base_url(),
            model: s.model.clone(),
            prompt_hash: self.prompts.hash(pass).to_string(),
            pass: pass.as_str().to_string(),
            doc_key: doc.key.clone(),
            context_hash: if pass == Pass::Context {
                sha256_hex(context.as_bytes())
            } else {
                String::new()
            },
        };
        let mut report = PassReport {
            pass,
            ok: false,
            cached: false,
            attempts: 0,
            items: 0,
            dropped: Dropped::default(),
            error: None,
        };
        let cached = self
            .cache
            .get(&key)
            .and_then(|c| entities_of(&c.content).map(|e| (c, e)));
        let entries = match cached {
            Some((c, entries)) => {
                report.cached = true;
                if let Some(f) = c.response_format {
                    self.answered(f);
                }
                entries
            }
            None => {
                let messages = self.prompts.render(pass, &doc.content, context);
                match self.client.complete(&messages).await {
                    Ok(c) => {
                        report.attempts = c.attempts;
                        self.answered(c.format);
                        if let Err(e) = self.cache.put(&key, &c.content, c.format) {
                            tracing::warn!(error = %e, "cannot write the LLM cache");
                        }
                        entities_of(&c.content).unwrap_or_default()
                    }
                    Err((fault, attempts)) => {
                        tracing::warn!(doc = %doc.id, pass = pass.as_str(), fault = %fault, "LLM pass failed");
                        report.attempts = attempts;
                        report.error = Some(fault.to_string());
                        return PassOutcome {
                            items: Vec::new(),
                            report,
                        };
                    }
                }
            }
        };
        let (items, dropped) = validate(&entries, &self.config.schema);
        report.ok = true;
        report.items = items.len();
        report.dropped = dropped;
        PassOutcome { items, report }
    }
}

/// The always-on offline direct-identifier items.
fn always_on(items: &[ExtractedItem]) -> Vec<ExtractedItem> {
    items
        .iter()
        .filter(|i| ALWAYS_ON_TYPES.contains(&i.entity_type.as_str()))
        .cloned()
        .collect()
}

/// `existing_entities` per document: `[normalized_value, entity_type]` of entities
/// found in another document with `max_relevance · u(e) ≥ entity_filter_strength`,
/// direct identifiers excluded, highest score first (ties: type, value), at most
/// `context_cap`. Values are canonicalized by the entity store first.
pub fn existing_entities(
    docs: &[Document],
    items: &[Vec<ExtractedItem>],
    config: &Config,
) -> Vec<Vec<[String; 2]>> {
    let store =
        EntityStore::from_document_items(docs, items, &config.schema, config.extraction.date_order);
    let mut max_rel: BTreeMap<&str, f64> = BTreeMap::new();
    for d in &store.docs {
        for e in &d.entities {
            let r = max_rel.entry(e.entity_id.as_str()).or_insert(0.0);
            *r = r.max(e.relevance);
        }
    }
    let globals = store.globals();
    let mut ranked: Vec<(f64, &str, &str, &[usize])> = globals
        .values()
        .filter(|g| !config.schema.is_direct_identifier(&g.entity_type))
        .filter_map(|g| {
            let u = crate::analysis::uniqueness(docs.len(), g.docs.len());
            let score = max_rel.get(g.id.as_str()).copied().unwrap_or(0.0) * u;
            (score >= config.llm.entity_filter_strength).then_some((
                score,
                g.entity_type.as_str(),
                g.normalized.as_str(),
                g.docs.as_slice(),
            ))
        })
        .collect();
    ranked.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then_with(|| a.1.cmp(b.1))
            .then_with(|| a.2.cmp(b.2))
    });
    (0..docs.len())
        .map(|d| {
            ranked
                .iter()
                .filter(|(_, _, _, in_docs)| in_docs.iter().any(|&x| x != d))
                .take(config.llm.context_cap)
                .map(|(_, ty, value, _)| [value.to_string(), ty.to_string()])
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests;
