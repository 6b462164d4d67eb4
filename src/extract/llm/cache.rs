//! The response cache: one file per (base URL, model, prompt text hash, pass, document
//! key, context hash), holding the model's message text. A re-run over the same corpus
//! makes no request and yields the same entities. The files hold document values, so
//! the folder is owner-only (0700) and the files 0600; the API key is never in them,
//! and the base URL is keyed and written without its credentials (`user:pass@`,
//! secret query values: [`crate::config::secret::redact_url`]).

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::config::llm::ResponseFormat;

/// Environment variable that moves the cache (tests, shared machines).
pub const CACHE_DIR_ENV: &str = "CLAM_CACHE_DIR";

/// Lowercase hex SHA-256.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// What a cached response is keyed by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheKey {
    /// The base URL without credentials ([`super::settings::LlmSettings::public_base_url`]).
    pub base_url: String,
    pub model: String,
    pub prompt_hash: String,
    pub pass: String,
    pub doc_key: String,
    pub context_hash: String,
}

impl CacheKey {
    /// File name of the entry: SHA-256 of the key's fields.
    pub fn digest(&self) -> String {
        let fields = [
            self.base_url.trim_end_matches('/'),
            &self.model,
            &self.prompt_hash,
            &self.pass,
            &self.doc_key,
            &self.context_hash,
        ];
        sha256_hex(
            serde_json::to_string(&fields)
                .unwrap_or_default()
                .as_bytes(),
        )
    }
}

#[derive(Debug, Serialize, Deserialize)]
struct Entry {
    key: CacheKey,
    content: String,
    /// The response format the answer was given in; absent in entries written before
    /// clam recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    response_format: Option<ResponseFormat>,
}

/// A cached answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cached {
    /// The model's message text.
    pub content: String,
    /// The response format it was given in (`None` in entries of older versions).
    pub response_format: Option<ResponseFormat>,
}

/// The default cache folder: `$CLAM_CACHE_DIR`, else `<user cache dir>/llm`.
pub fn default_cache_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os(CACHE_DIR_ENV).filter(|d| !d.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    directories::ProjectDirs::from("", "", "clam").map(|d| d.cache_dir().join("llm"))
}

/// A disk cache of responses; `None` folder = disabled.
#[derive(Debug, Clone)]
pub struct Cache {
    dir: Option<PathBuf>,
}

fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    let mut builder = std::fs::DirBuilder::new();
    builder.recursive(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
        builder.mode(0o700);
        builder.create(dir)?;
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
    }
    #[cfg(not(unix))]
    builder.create(dir)
}

impl Cache {
    pub fn new(dir: Option<PathBuf>) -> Self {
        Cache { dir }
    }

    pub fn disabled() -> Self {
        Cache { dir: None }
    }

    pub fn dir(&self) -> Option<&Path> {
        self.dir.as_deref()
    }

    fn path(&self, key: &CacheKey) -> Option<PathBuf> {
        let d = key.digest();
        Some(self.dir.as_ref()?.join(&d[..2]).join(format!("{d}.json")))
    }

    /// The cached answer, if present and readable for exactly this key.
    pub fn get(&self, key: &CacheKey) -> Option<Cached> {
        let text = std::fs::read_to_string(self.path(key)?).ok()?;
        let entry: Entry = serde_json::from_str(&text).ok()?;
        (entry.key == *key).then_some(Cached {
            content: entry.content,
            response_format: entry.response_format,
        })
    }

    /// Stores the message text and the response format it was given in (atomically:
    /// written beside, then renamed).
    pub fn put(
        &self,
        key: &CacheKey,
        content: &str,
        response_format: ResponseFormat,
    ) -> std::io::Result<()> {
        let Some(path) = self.path(key) else {
            return Ok(());
        };
        let Some(root) = self.dir.as_deref() else {
            return Ok(());
        };
        create_private_dir(root)?;
        let dir = path.parent().unwrap_or(root);
        create_private_dir(dir)?;
        let entry = Entry {
            key: key.clone(),
            content: content.to_string(),
            response_format: Some(response_format),
        };
        let text = serde_json::to_string(&entry).map_err(std::io::Error::other)?;
        // NamedTempFile is created 0600 on unix.
        let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
        tmp.write_all(text.as_bytes())?;
        tmp.persist(&path).map_err(|e| e.error)?;
        Ok(())
    }

    /// Removes the cache folder; returns the number of entries removed.
    pub fn clear(&self) -> std::io::Result<usize> {
        let Some(dir) = &self.dir else {
            return Ok(0);
        };
        if !dir.exists() {
            return Ok(0);
        }
        let mut n = 0;
        for sub in std::fs::read_dir(dir)? {
            let sub = sub?.path();
            if sub.is_dir() {
                n += std::fs::read_dir(&sub)?.count();
            }
        }
        std::fs::remove_dir_all(dir)?;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(pass: &str) -> CacheKey {
        CacheKey {
            base_url: "http://127.0.0.1:1/v1".into(),
            model: "m".into(),
            prompt_hash: "p".into(),
            pass: pass.into(),
            doc_key: "a:123".into(),
            context_hash: String::new(),
        }
    }

    #[test]
    fn entries_round_trip_are_private_and_clear() {
        let tmp = tempfile::tempdir().unwrap();
        let cache = Cache::new(Some(tmp.path().join("llm")));
        assert_eq!(cache.get(&key("local")), None);
        cache
            .put(
                &key("local"),
                "{\"entities\": []}",
                ResponseFormat::JsonObject,
            )
            .unwrap();
        assert_eq!(
            cache.get(&key("local")),
            Some(Cached {
                content: "{\"entities\": []}".into(),
                response_format: Some(ResponseFormat::JsonObject),
            })
        );
        assert_eq!(cache.get(&key("context")), None);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let root = tmp.path().join("llm");
            let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
            assert_eq!(mode(&root), 0o700);
            let sub = std::fs::read_dir(&root)
                .unwrap()
                .next()
                .unwrap()
                .unwrap()
                .path();
            assert_eq!(mode(&sub), 0o700);
            let file = std::fs::read_dir(&sub)
                .unwrap()
                .next()
                .unwrap()
                .unwrap()
                .path();
            assert_eq!(mode(&file), 0o600);
        }
        assert_eq!(cache.clear().unwrap(), 1);
        assert_eq!(cache.get(&key("local")), None);
    }
}
