//! `clam gen-corpus`: a synthetic corpus with gold.

use super::*;

pub(super) fn gen_corpus(a: GenCorpusArgs, bars: &Bars) -> Result<u8> {
    if a.docs == 0 {
        eprintln!("error: --docs must be at least 1");
        return Ok(2);
    }
    for name in ["corpus.jsonl", "gold.json"] {
        let p = a.out.join(name);
        if p.exists() && !a.force {
            eprintln!(
                "error: {}: already exists; pass --force to overwrite",
                p.display()
            );
            return Ok(1);
        }
    }
    let params = clam::gencorpus::GenParams {
        docs: a.docs,
        seed: a.seed,
    };
    bars.spinner("generating");
    let g = clam::gencorpus::write(&a.out, params);
    bars.clear();
    let g = g.with_context(|| format!("writing the corpus to {}", a.out.display()))?;
    let clusters = g.gold["clusters"].as_array().map_or(0, Vec::len);
    println!(
        "wrote {} documents ({} clusters of hidden persons) to {} and their gold to {}",
        g.documents.len(),
        clusters,
        a.out.join("corpus.jsonl").display(),
        a.out.join("gold.json").display()
    );
    Ok(0)
}
