//! The two file formats read into a [`Gold`]: the devset's `clusters` and the thesis's `entities`/`links` with persons in `files/`.

use super::*;

pub(super) fn devset(r: &Reader, obj: &Map<String, Value>) -> Result<Gold, GoldError> {
    let mut clusters = Vec::new();
    let mut chains = Vec::new();
    let list = r.array(r.field(obj, "", "clusters")?, "clusters")?;
    for (ci, c) in list.iter().enumerate() {
        let key = format!("clusters[{ci}]");
        let co = r.object(c, &key)?;
        let id = r.non_empty(r.field(co, &key, "cluster_id")?, &join(&key, "cluster_id"))?;
        let docs = r.strings(r.field(co, &key, "docs")?, &join(&key, "docs"))?;
        let mut persons = Vec::new();
        if let Some(p) = co.get("person") {
            let pkey = join(&key, "person");
            let po = r.object(p, &pkey)?;
            let ekey = join(&pkey, "entities");
            for (ei, e) in r
                .array(r.field(po, &pkey, "entities")?, &ekey)?
                .iter()
                .enumerate()
            {
                persons.push(person_entity(r, e, &format!("{ekey}[{ei}]"))?);
            }
        }
        if let Some(g) = co.get("gold_chains") {
            let gkey = join(&key, "gold_chains");
            for (gi, chain) in r.array(g, &gkey)?.iter().enumerate() {
                let k = format!("{gkey}[{gi}]");
                let docs = match chain {
                    Value::Object(o) => r.strings(r.field(o, &k, "docs")?, &join(&k, "docs"))?,
                    other => r.strings(other, &k)?,
                };
                chains.push(chain_docs(r, docs, &k)?);
            }
        }
        clusters.push(GoldCluster {
            id: id.to_string(),
            docs,
            persons,
            risk: r.risk(co.get("risk"), &join(&key, "risk"))?,
            questions: r.questions(co.get("questions"), &join(&key, "questions"))?,
        });
    }
    Ok(Gold {
        format: GoldFormat::Devset,
        source: r.file.to_path_buf(),
        clusters,
        chains: Some(chains),
        relevant: None,
        redaction: None,
        mentions: None,
        mentions_file: None,
        notes: Vec::new(),
    })
}

/// `[value, TYPE]` or `[value, TYPE, [variants]]`.
pub(super) fn person_entity(r: &Reader, e: &Value, key: &str) -> Result<GoldEntity, GoldError> {
    let a = r.array(e, key)?;
    if a.len() < 2 {
        return Err(r.err(key, "expected [value, TYPE] or [value, TYPE, [variants]]"));
    }
    let value = r.non_empty(&a[0], &format!("{key}[0]"))?;
    let t = r.non_empty(&a[1], &format!("{key}[1]"))?;
    let variants = match a.get(2) {
        Some(v) => r.strings(v, &format!("{key}[2]"))?,
        None => Vec::new(),
    };
    Ok(GoldEntity {
        value: value.to_string(),
        entity_type: schema_type(t),
        variants,
    })
}

pub(super) fn chain_docs(
    r: &Reader,
    docs: Vec<String>,
    key: &str,
) -> Result<Vec<String>, GoldError> {
    let set: BTreeSet<String> = docs.into_iter().collect();
    if set.len() < 2 {
        return Err(r.err(key, "a chain needs at least 2 different documents"));
    }
    Ok(set.into_iter().collect())
}

pub(super) fn thesis(r: &Reader, obj: &Map<String, Value>) -> Result<Gold, GoldError> {
    let mut notes = Vec::new();
    let chains = match obj.get("links") {
        Some(v) => {
            let mut chains = Vec::new();
            for (i, l) in r.array(v, "links")?.iter().enumerate() {
                let k = format!("links[{i}]");
                chains.push(chain_docs(r, r.strings(l, &k)?, &k)?);
            }
            Some(chains)
        }
        None => {
            notes.push("the gold has no `links`: chain metrics are absent".into());
            None
        }
    };
    let relevant = match obj.get("entities") {
        Some(v) => {
            let mut out = Vec::new();
            for (doc, vals) in r.object(v, "entities")? {
                out.push((doc.clone(), r.strings(vals, &format!("entities.{doc}"))?));
            }
            Some(out)
        }
        None => None,
    };
    let redaction = match obj.get("redaction") {
        Some(v) => Some(r.strings(v, "redaction")?),
        None => {
            notes.push("the gold has no `redaction`: redaction metrics are absent".into());
            None
        }
    };
    Ok(Gold {
        format: GoldFormat::Thesis,
        source: r.file.to_path_buf(),
        clusters: Vec::new(),
        chains,
        relevant,
        redaction,
        mentions: None,
        mentions_file: None,
        notes,
    })
}

/// The thesis generator's `files/cluster_*.json`, in file-name order.
pub(super) fn thesis_clusters(dir: &Path) -> Result<Vec<GoldCluster>, GoldError> {
    let entries = std::fs::read_dir(dir).map_err(|e| GoldError {
        file: dir.to_path_buf(),
        line: None,
        message: format!("cannot read folder: {e}"),
    })?;
    let mut files: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.is_file()
                && p.extension()
                    .is_some_and(|x| x.eq_ignore_ascii_case("json"))
        })
        .collect();
    files.sort();
    let mut clusters = Vec::new();
    for f in &files {
        let v = read_json(f)?;
        let r = Reader {
            file: f,
            line: None,
        };
        let obj = r.object(&v, "")?;
        let meta = r.object(r.field(obj, "", "metadata")?, "metadata")?;
        let id = r.non_empty(
            r.field(meta, "metadata", "cluster_id")?,
            "metadata.cluster_id",
        )?;
        let mut docs = Vec::new();
        for (i, d) in r
            .array(r.field(obj, "", "documents")?, "documents")?
            .iter()
            .enumerate()
        {
            let k = format!("documents[{i}]");
            let o = r.object(d, &k)?;
            docs.push(
                r.non_empty(r.field(o, &k, "id")?, &join(&k, "id"))?
                    .to_string(),
            );
        }
        let mut persons = Vec::new();
        if let Some(p) = meta.get("person") {
            let po = r.object(p, "metadata.person")?;
            let ekey = "metadata.person.entities";
            let list = r.field(po, "metadata.person", "entities")?;
            for (ei, e) in r.array(list, ekey)?.iter().enumerate() {
                persons.push(person_entity(&r, e, &format!("{ekey}[{ei}]"))?);
            }
        }
        clusters.push(GoldCluster {
            id: id.to_string(),
            docs,
            persons,
            risk: r.risk(meta.get("cluster_risk"), "metadata.cluster_risk")?,
            questions: r.questions(meta.get("questions"), "metadata.questions")?,
        });
    }
    Ok(clusters)
}
