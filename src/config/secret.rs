//! Credentials of the LLM endpoint kept out of everything clam writes or shows
//! (SPEC §5, §7): the base URL is shown and recorded without its userinfo
//! (`user:pass@`) and without secret-looking query values, and any text a server
//! sends back is scrubbed of the API key, the URL's credentials and every fragment of
//! them of [`MIN_FRAGMENT`] or more characters before clam keeps it.
//!
//! The request itself still carries the credentials: the API key as a sensitive
//! `Authorization: Bearer` header, and `user:pass@` of the URL as HTTP basic
//! authentication (reqwest takes the userinfo out of the URL and sends it as a
//! sensitive `Authorization: Basic` header).

use aho_corasick::AhoCorasick;

/// What a scrubbed secret, or the secret part of a URL, is replaced by.
pub const REDACTED: &str = "<redacted>";

/// Shortest fragment of a secret that is scrubbed on its own (a server that echoes
/// `sk-abc…` or the last 8 characters of the key). A secret shorter than this is
/// scrubbed whole.
pub const MIN_FRAGMENT: usize = 6;

/// Query parameter names whose values are credentials (`?key=…`, `api_key`,
/// `access_token`, `sig`, …), matched as substrings of the lowercased name.
const SECRET_PARAMS: [&str; 9] = [
    "key",
    "token",
    "secret",
    "pass",
    "pwd",
    "auth",
    "sig",
    "credential",
    "session",
];

fn is_secret_param(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    SECRET_PARAMS.iter().any(|p| name.contains(p))
}

/// `query` (without `?`) with the values of secret-looking parameters replaced;
/// true when something was replaced.
fn redact_query(query: &str) -> (String, bool) {
    let mut changed = false;
    let parts: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((name, value)) if !value.is_empty() && is_secret_param(name) => {
                changed = true;
                format!("{name}=redacted")
            }
            _ => pair.to_string(),
        })
        .collect();
    (parts.join("&"), changed)
}

/// `url` as it may be shown, logged and written: without userinfo (`user:pass@`,
/// `user@`) and with the values of secret-looking query parameters (`key=`,
/// `token=`, …) replaced. A URL with nothing to hide comes back unchanged, byte for
/// byte; text that does not parse as a URL is cut the same way as text.
pub fn redact_url(url: &str) -> String {
    let Ok(mut parsed) = reqwest::Url::parse(url) else {
        return redact_url_text(url);
    };
    let mut changed = false;
    if !parsed.username().is_empty() || parsed.password().is_some() {
        // Only URLs that cannot have a host refuse these, and they have no userinfo.
        let _ = parsed.set_username("");
        let _ = parsed.set_password(None);
        changed = true;
    }
    if let Some(q) = parsed.query().map(str::to_string) {
        let (q, c) = redact_query(&q);
        if c {
            parsed.set_query(Some(&q));
            changed = true;
        }
    }
    if let Some(f) = parsed.fragment().map(str::to_string) {
        let (f, c) = redact_query(&f);
        if c {
            parsed.set_fragment(Some(&f));
            changed = true;
        }
    }
    if changed {
        parsed.to_string()
    } else {
        url.to_string()
    }
}

/// [`redact_url`] for text that is not a URL (an invalid `base_url` in an error
/// message): everything up to the last `@` of the authority goes, and secret query
/// values are replaced.
fn redact_url_text(s: &str) -> String {
    let (scheme, rest) = match s.find("://") {
        Some(i) => s.split_at(i + 3),
        None => ("", s),
    };
    let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, tail) = rest.split_at(end);
    let host = authority
        .rfind('@')
        .map_or(authority, |i| &authority[i + 1..]);
    let tail = match tail.split_once('?') {
        Some((path, query)) => {
            let (query, fragment) = match query.split_once('#') {
                Some((q, f)) => (q, Some(f)),
                None => (query, None),
            };
            let mut t = format!("{path}?{}", redact_query(query).0);
            if let Some(f) = fragment {
                t.push('#');
                t.push_str(&redact_query(f).0);
            }
            t
        }
        None => tail.to_string(),
    };
    format!("{scheme}{host}{tail}")
}

/// `%XX` sequences decoded (as reqwest decodes userinfo before basic authentication).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let hex = |c: u8| (c as char).to_digit(16);
        if b[i] == b'%'
            && i + 2 < b.len()
            && let (Some(h), Some(l)) = (hex(b[i + 1]), hex(b[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Standard base64 with padding (the `Authorization: Basic` encoding).
fn base64(data: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (u32::from(b) << (16 - 8 * i)));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The credentials `url` carries: its user name and password (as written and
/// decoded), the basic-authentication token made of them, and the values of
/// secret-looking query parameters.
pub fn url_secrets(url: &str) -> Vec<String> {
    let Ok(parsed) = reqwest::Url::parse(url) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let user = parsed.username();
    let password = parsed.password();
    if !user.is_empty() || password.is_some() {
        let (u, p) = (percent_decode(user), password.map(percent_decode));
        out.push(user.to_string());
        out.push(u.clone());
        if let Some(raw) = password {
            out.push(raw.to_string());
        }
        let pair = match &p {
            Some(p) => {
                out.push(p.clone());
                format!("{u}:{p}")
            }
            None => format!("{u}:"),
        };
        out.push(base64(pair.as_bytes()));
    }
    for part in [parsed.query(), parsed.fragment()].into_iter().flatten() {
        for pair in part.split('&') {
            if let Some((name, value)) = pair.split_once('=')
                && is_secret_param(name)
            {
                out.push(value.to_string());
                out.push(percent_decode(value));
            }
        }
    }
    out.retain(|s| !s.is_empty());
    out.sort();
    out.dedup();
    out
}

/// Scrubs secrets from text: every occurrence (ASCII case-insensitive) of a secret
/// or of any fragment of it of [`MIN_FRAGMENT`] or more characters becomes
/// [`REDACTED`]. Built once per set of secrets; scrubbing is linear in the text.
pub struct Scrubber {
    state: ScrubState,
}

enum ScrubState {
    /// No secrets: text passes unchanged.
    Nothing,
    /// Every window of [`MIN_FRAGMENT`] characters of every secret (a fragment of
    /// any length ≥ [`MIN_FRAGMENT`] is exactly a union of such windows).
    Windows(AhoCorasick),
    /// The windows could not be compiled: no text passes at all (fail closed).
    All,
}

impl std::fmt::Debug for Scrubber {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Scrubber(<redacted>)")
    }
}

impl Scrubber {
    /// A scrubber of `secrets` (empty ones are ignored).
    pub fn new<I, S>(secrets: I) -> Self
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut windows: Vec<String> = Vec::new();
        for secret in secrets {
            let secret = secret.as_ref();
            let starts: Vec<usize> = secret.char_indices().map(|(i, _)| i).collect();
            if starts.is_empty() {
                continue;
            }
            let n = MIN_FRAGMENT.min(starts.len());
            for i in 0..=starts.len() - n {
                let end = starts.get(i + n).copied().unwrap_or(secret.len());
                windows.push(secret[starts[i]..end].to_string());
            }
        }
        windows.sort();
        windows.dedup();
        let state = if windows.is_empty() {
            ScrubState::Nothing
        } else {
            match AhoCorasick::builder()
                .ascii_case_insensitive(true)
                .build(&windows)
            {
                Ok(ac) => ScrubState::Windows(ac),
                Err(_) => ScrubState::All,
            }
        };
        Scrubber { state }
    }

    /// No secret to scrub.
    pub fn is_empty(&self) -> bool {
        matches!(self.state, ScrubState::Nothing)
    }

    /// `text` with every secret and every fragment of [`MIN_FRAGMENT`]+ characters of
    /// one replaced by [`REDACTED`] (overlapping and adjacent hits become one).
    pub fn scrub(&self, text: &str) -> String {
        let ac = match &self.state {
            ScrubState::Nothing => return text.to_string(),
            ScrubState::All => return REDACTED.to_string(),
            ScrubState::Windows(ac) => ac,
        };
        // Overlapping matches in order of their end; merged into ranges by start.
        let mut ranges: Vec<(usize, usize)> = ac
            .find_overlapping_iter(text)
            .map(|m| (m.start(), m.end()))
            .collect();
        if ranges.is_empty() {
            return text.to_string();
        }
        ranges.sort_unstable();
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        let mut i = 0;
        while i < ranges.len() {
            let (start, mut end) = ranges[i];
            i += 1;
            while i < ranges.len() && ranges[i].0 <= end {
                end = end.max(ranges[i].1);
                i += 1;
            }
            // Windows are whole characters of valid UTF-8, so matches begin and end
            // on character boundaries of the (valid UTF-8) text.
            out.push_str(&text[at..start]);
            out.push_str(REDACTED);
            at = end;
        }
        out.push_str(&text[at..]);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn userinfo_and_secret_query_values_are_cut_from_a_url() {
        assert_eq!(
            redact_url("http://user:pass@host/v1"),
            "http://host/v1",
            "user:pass@"
        );
        assert_eq!(
            redact_url("https://user@host:8443/v1"),
            "https://host:8443/v1"
        );
        assert_eq!(
            redact_url("http://:pw@127.0.0.1:9/v1"),
            "http://127.0.0.1:9/v1"
        );
        assert_eq!(
            redact_url("https://h/v1?api-version=2024&api_key=s3cr3t&token=t0k&x=1"),
            "https://h/v1?api-version=2024&api_key=redacted&token=redacted&x=1"
        );
        // Nothing to hide: unchanged, byte for byte (no trailing slash added).
        for url in ["http://127.0.0.1:11434/v1", "http://HOST", "https://h/v1/"] {
            assert_eq!(redact_url(url), url);
        }
        // Not a URL: cut as text.
        assert_eq!(redact_url("http://user:pa ss@ho st/v1"), "http://ho st/v1");
        assert_eq!(redact_url("user@host/v1?key=abc"), "host/v1?key=redacted");
        assert_eq!(
            redact_url("http://user:secret@host:99999/v1"),
            "http://host:99999/v1"
        );
    }

    #[test]
    fn the_url_credentials_are_secrets_with_their_basic_token() {
        let s = url_secrets("http://us%65r:sec%72et@h/v1?key=k3y");
        for x in ["us%65r", "user", "sec%72et", "secret", "k3y"] {
            assert!(s.contains(&x.to_string()), "{x} in {s:?}");
        }
        // reqwest sends `Authorization: Basic base64("user:secret")`.
        assert!(s.contains(&"dXNlcjpzZWNyZXQ=".to_string()), "{s:?}");
        assert!(url_secrets("http://127.0.0.1:9/v1").is_empty());
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
    }

    #[test]
    fn every_fragment_of_six_or_more_characters_is_scrubbed() {
        let key = "sk-abc123XYZ789secret";
        let s = Scrubber::new([key]);
        assert!(!s.is_empty());
        // The whole key, a prefix, the last 8, a middle piece, another case.
        for (text, left) in [
            (format!("bad key {key}!"), "bad key <redacted>!".to_string()),
            (
                "key sk-abc1… is wrong".into(),
                "key <redacted>… is wrong".into(),
            ),
            ("ends in 789secret".into(), "ends in <redacted>".into()),
            ("has c123XY inside".into(), "has <redacted> inside".into()),
            ("SK-ABC123xyz".into(), "<redacted>".into()),
            (format!("{key}{key}"), "<redacted>".into()),
        ] {
            assert_eq!(s.scrub(&text), left, "{text}");
        }
        // Five characters are not a fragment; unrelated text passes unchanged.
        assert_eq!(s.scrub("sk-ab and ecret"), "sk-ab and ecret");
        assert_eq!(s.scrub("héllo wörld"), "héllo wörld");
        // For every substring of length ≥ 6, nothing of it survives.
        let chars: Vec<char> = key.chars().collect();
        for i in 0..chars.len() {
            for j in i + MIN_FRAGMENT..=chars.len() {
                let frag: String = chars[i..j].iter().collect();
                let out = s.scrub(&format!("«{frag}»"));
                assert_eq!(out, "«<redacted>»", "{frag}");
            }
        }
        // Short secrets are scrubbed whole; none at all leaves text alone.
        assert_eq!(Scrubber::new(["pw1"]).scrub("a pw1 b"), "a <redacted> b");
        assert!(Scrubber::new([""]).is_empty());
        assert_eq!(Scrubber::new(Vec::<String>::new()).scrub("x"), "x");
        // Multi-byte secrets keep the text valid.
        assert_eq!(
            Scrubber::new(["ключ-секрет"]).scrub("echo: ключ-секрет."),
            "echo: <redacted>."
        );
    }
}
