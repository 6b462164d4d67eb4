//! Gold chain files (the links and their notes) as the workspace imports and the export writes them.

use super::*;

/// Gold chains read for import (`clam gold import`, the review workspace): each
/// chain's documents (sorted, as every chain here) with the note clam wrote beside it.
#[derive(Debug, Clone, PartialEq)]
pub struct ChainFile {
    pub format: GoldFormat,
    pub chains: Vec<(Vec<String>, Option<String>)>,
}

/// Reads the gold chains of `file`: the thesis format (`links`, plus clam's `notes`)
/// or the devset format (`clusters[].gold_chains`). Repeated chains are read once.
pub fn load_chains(file: &Path) -> Result<ChainFile, GoldError> {
    let v = read_json(file)?;
    let r = Reader { file, line: None };
    let obj = r.object(&v, "")?;
    let (format, chains) = if obj.contains_key("clusters") {
        (GoldFormat::Devset, devset(&r, obj)?.chains)
    } else if obj.contains_key("links") {
        (GoldFormat::Thesis, thesis(&r, obj)?.chains)
    } else {
        return Err(r.err(
            "",
            "no gold chains: neither `links` (thesis format) nor `clusters` (devset format)",
        ));
    };
    let mut notes: Vec<(Vec<String>, String)> = Vec::new();
    if format == GoldFormat::Thesis
        && let Some(list) = obj.get("notes")
    {
        for (i, n) in r.array(list, "notes")?.iter().enumerate() {
            let k = format!("notes[{i}]");
            let o = r.object(n, &k)?;
            let docs = r.strings(r.field(o, &k, "documents")?, &join(&k, "documents"))?;
            let docs = chain_docs(&r, docs, &join(&k, "documents"))?;
            let note = r.string(r.field(o, &k, "note")?, &join(&k, "note"))?;
            notes.push((docs, note.to_string()));
        }
    }
    let mut seen = BTreeSet::new();
    let chains = chains
        .unwrap_or_default()
        .into_iter()
        .filter(|c| seen.insert(c.clone()))
        .map(|c| {
            let note = notes
                .iter()
                .find(|(d, _)| *d == c)
                .map(|(_, n)| n.clone())
                .filter(|n| !n.trim().is_empty());
            (c, note)
        })
        .collect();
    Ok(ChainFile { format, chains })
}

/// Gold chains in the thesis gold format (`links`, SPEC §10), the format clam
/// exports annotations in; notes go in an extra `notes` list of
/// `{"documents", "note"}` that the thesis's loader ignores.
pub fn chains_json(chains: &[(Vec<String>, Option<String>)]) -> Value {
    let links: Vec<Value> = chains.iter().map(|(d, _)| serde_json::json!(d)).collect();
    let notes: Vec<Value> = chains
        .iter()
        .filter_map(|(d, n)| {
            n.as_ref()
                .map(|n| serde_json::json!({"documents": d, "note": n}))
        })
        .collect();
    let mut out = Map::new();
    out.insert("links".into(), Value::Array(links));
    if !notes.is_empty() {
        out.insert("notes".into(), Value::Array(notes));
    }
    Value::Object(out)
}
