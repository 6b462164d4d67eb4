//! Document ids and file names in the export (SPEC §5): a document whose id holds a
//! masked value is exported as `doc-<export id>`, and a file whose name holds one is
//! renamed the same way.

use std::collections::HashMap;
use std::path::Path;

use super::ExportSource;
use crate::hashing::hmac_hex;
use crate::redact::Replacer;

/// The ids documents are exported under (SPEC §5): a document whose id holds a masked
/// value is exported as `doc-<export id>` (16 hex of the HMAC of its id under the
/// project key, lengthened if two would meet), everywhere the export names it:
/// its file, its JSON, the manifest, the report, the audit log and the gold chains.
pub struct DocIds {
    /// Per corpus document.
    ids: Vec<String>,
    /// Original id → export id, for the renamed ones.
    renamed: HashMap<String, String>,
    /// Finds renamed ids in free text (warnings, reasons), longest first, and the
    /// export id of each of its patterns.
    finder: Option<aho_corasick::AhoCorasick>,
    replacements: Vec<String>,
}

impl DocIds {
    pub fn new(ws: &dyn ExportSource, replacer: &Replacer, key: &[u8]) -> DocIds {
        use rayon::prelude::*;
        let docs = &ws.corpus().documents;
        let hit: Vec<bool> = docs
            .par_iter()
            .map(|d| !replacer.find(&d.id).is_empty())
            .collect();
        let mut taken: std::collections::HashSet<String> = docs
            .iter()
            .zip(&hit)
            .filter(|(_, h)| !**h)
            .map(|(d, _)| d.id.clone())
            .collect();
        let mut ids = Vec::with_capacity(docs.len());
        let mut renamed = HashMap::new();
        for (d, h) in docs.iter().zip(&hit) {
            if !*h {
                ids.push(d.id.clone());
                continue;
            }
            let full = hmac_hex(key, &d.id);
            let mut len = 16;
            let mut id = format!("doc-{}", &full[..len]);
            while taken.contains(&id) && len < full.len() {
                len += 1;
                id = format!("doc-{}", &full[..len]);
            }
            taken.insert(id.clone());
            renamed.insert(d.id.clone(), id.clone());
            ids.push(id);
        }
        let (patterns, replacements): (Vec<&String>, Vec<String>) =
            renamed.iter().map(|(from, to)| (from, to.clone())).unzip();
        let finder = (!patterns.is_empty())
            .then(|| {
                aho_corasick::AhoCorasick::builder()
                    .match_kind(aho_corasick::MatchKind::LeftmostLongest)
                    .build(&patterns)
                    .ok()
            })
            .flatten();
        DocIds {
            ids,
            renamed,
            finder,
            replacements,
        }
    }

    /// The export id of corpus document `i` when it is not the document's own id.
    pub(super) fn renamed_of(&self, i: usize, own: &str) -> Option<&str> {
        (self.ids[i] != own).then(|| self.ids[i].as_str())
    }

    /// The export id of corpus document `i`.
    pub fn of(&self, i: usize) -> &str {
        &self.ids[i]
    }

    /// The export id of the document with id `id`.
    pub fn id<'a>(&'a self, id: &'a str) -> &'a str {
        self.renamed.get(id).map_or(id, String::as_str)
    }

    /// `text` with every renamed document id in it replaced by its export id.
    pub fn rename_in(&self, text: &str) -> String {
        match &self.finder {
            None => text.to_string(),
            Some(f) => f.replace_all(text, &self.replacements),
        }
    }
}

/// The redacted file name of a document: its own, unless it holds a masked value;
/// then `doc-<export id>` with its extension: the document's export id when its id
/// was renamed too, else (its id held no masked value, or the file is a JSON Lines
/// file that holds many documents) one of the file's own.
pub(super) fn redacted_rel_path(
    replacer: &Replacer,
    key: &[u8],
    rel: &str,
    renamed: Option<&str>,
    jsonl: bool,
) -> String {
    if replacer.find(rel).is_empty() {
        return rel.to_string();
    }
    let ext = Path::new(rel)
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    match renamed {
        Some(id) if !jsonl => format!("{id}{ext}"),
        _ => format!("doc-{}{ext}", &hmac_hex(key, rel)[..16]),
    }
}
