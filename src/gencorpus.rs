//! `clam gen-corpus`: a deterministic synthetic corpus for trying clam at scale.
//!
//! Documents come in clusters of 2–5 about one hidden person (name, member id, date of
//! birth, phone, e-mail, condition, treatment, provider, town), each document
//! mentioning a random subset of the person's values in the variant forms real
//! corpora use ("Raman, Priya", "MBR 448213", "March 14, 1968"); a tenth of the
//! documents are background reports about no one. Background values (providers,
//! conditions, treatments, towns) are Zipf-distributed over a large vocabulary, and a
//! few hub values (the insurer, the national regulator) occur in most documents, so the
//! analysis sees the skew of a real corpus. The gold file (devset format, SPEC §10)
//! lists each cluster's person and the document pairs that share one of the person's
//! identifying values.
//!
//! The same `(docs, seed)` always gives byte-identical files.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng as _, SeedableRng};
use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

/// What to generate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GenParams {
    pub docs: usize,
    pub seed: u64,
}

/// One generated document.
#[derive(Debug, Clone, PartialEq)]
pub struct GenDocument {
    pub id: String,
    pub format: &'static str,
    pub content: String,
}

/// A generated corpus and its gold labels.
#[derive(Debug, Clone, PartialEq)]
pub struct Generated {
    pub documents: Vec<GenDocument>,
    /// Devset-format gold (`clusters`, `distractor_docs`).
    pub gold: Value,
}

/// The generator: ChaCha8 (`rand_chacha`), whose output for a seed is the same in every
/// version of the crate (unlike `rand`'s `StdRng`), so a seed names one corpus; `below`
/// and `chance` turn its words into choices the same way on every platform.
struct Rng(ChaCha8Rng);

impl Rng {
    fn new(seed: u64) -> Self {
        Rng(ChaCha8Rng::seed_from_u64(seed))
    }
    fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        ((self.next() >> 11) as f64 / (1u64 << 53) as f64) < p
    }
    fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len())]
    }
}

const ONSETS: &[&str] = &[
    "b", "br", "c", "d", "f", "g", "gr", "h", "j", "k", "l", "m", "n", "p", "r", "s", "st", "t",
    "tr", "v", "w", "z", "el", "or", "an",
];
const VOWELS: &[&str] = &["a", "e", "i", "o", "u", "ai", "ea", "io", "ou"];
const CODAS: &[&str] = &[
    "n", "r", "l", "s", "th", "ck", "m", "nd", "rt", "ll", "ne", "son", "ley", "ton", "ez",
];
const PROVIDER_SUFFIXES: &[&str] = &[
    "Clinic",
    "Community Hospital",
    "Medical Group",
    "Specialty Pharmacy",
    "Health Center",
    "Rehabilitation Center",
    "Orthopedic Associates",
];
const CONDITIONS: &[&str] = &[
    "type 2 diabetes",
    "hypertension",
    "asthma",
    "rheumatoid arthritis",
    "multiple sclerosis",
    "chronic kidney disease",
    "atrial fibrillation",
    "major depressive disorder",
    "lupus nephritis",
    "crohn's disease",
    "psoriasis",
    "narcolepsy",
    "sarcoidosis",
    "myasthenia gravis",
    "cystic fibrosis",
    "hemophilia",
    "ulcerative colitis",
    "epilepsy",
    "glaucoma",
    "osteoporosis",
];
const TREATMENTS: &[&str] = &[
    "metformin",
    "lisinopril",
    "adalimumab",
    "ocrelizumab",
    "infliximab",
    "apixaban",
    "sertraline",
    "mycophenolate",
    "methotrexate",
    "sodium oxybate",
    "pyridostigmine",
    "ivacaftor",
    "emicizumab",
    "latanoprost",
    "alendronate",
    "total knee replacement",
    "spinal fusion",
    "kidney transplant",
    "cataract surgery",
    "deep brain stimulation",
];
const HUBS: &[&str] = &["Meridian Mutual Health", "the State Insurance Commission"];
const MONTHS: &[&str] = &[
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn word(rng: &mut Rng, syllables: usize) -> String {
    let mut w = String::new();
    for _ in 0..syllables {
        w.push_str(rng.pick(ONSETS));
        w.push_str(rng.pick(VOWELS));
    }
    w.push_str(rng.pick(CODAS));
    capitalise(&w)
}

/// A date as (year, month 1-12, day).
type Date = (u32, usize, u32);

fn date_iso((y, m, d): Date) -> String {
    format!("{y:04}-{m:02}-{d:02}")
}

/// The forms a date takes in the documents (all canonicalize to the ISO form, MDY).
fn date_variant(rng: &mut Rng, (y, m, d): Date) -> String {
    match rng.below(4) {
        0 => date_iso((y, m, d)),
        1 => format!("{m:02}/{d:02}/{y}"),
        2 => format!("{} {d}, {y}", MONTHS[m - 1]),
        _ => format!("{d} {} {y}", &MONTHS[m - 1][..3]),
    }
}

struct Person {
    first: String,
    last: String,
    member_id: String,
    dob: Date,
    phone: String,
    email: String,
    condition: &'static str,
    treatment: &'static str,
    provider: String,
    town: String,
}

impl Person {
    fn new(rng: &mut Rng, providers: &[String], towns: &[String], serial: usize) -> Self {
        let first = word(rng, 1);
        let last = word(rng, 2);
        let email = format!(
            "{}.{}{}@example.org",
            first.to_lowercase(),
            last.to_lowercase(),
            serial % 100
        );
        Person {
            member_id: format!("MBR-{:06}", 100_000 + serial),
            dob: (
                1940 + rng.below(60) as u32,
                1 + rng.below(12),
                1 + rng.below(28) as u32,
            ),
            phone: format!("(555) {:03}-{:04}", 100 + rng.below(900), rng.below(10_000)),
            email,
            condition: rng.pick(CONDITIONS),
            treatment: rng.pick(TREATMENTS),
            provider: providers[rng.below(providers.len())].clone(),
            town: towns[rng.below(towns.len())].clone(),
            first,
            last,
        }
    }

    fn name(&self) -> String {
        format!("{} {}", self.first, self.last)
    }
}

/// Zipf(1.1) sampler over `n` ranks by inverse CDF.
struct Zipf(Vec<f64>);

impl Zipf {
    fn new(n: usize) -> Self {
        let weights: Vec<f64> = (1..=n.max(1)).map(|k| 1.0 / (k as f64).powf(1.1)).collect();
        let total: f64 = weights.iter().sum();
        let mut acc = 0.0;
        Zipf(
            weights
                .iter()
                .map(|w| {
                    acc += w / total;
                    acc
                })
                .collect(),
        )
    }
    fn sample(&self, rng: &mut Rng) -> usize {
        let r = (rng.next() >> 11) as f64 / (1u64 << 53) as f64;
        self.0.partition_point(|&c| c < r).min(self.0.len() - 1)
    }
}

/// The values of a person one document mentions, as (gold value, type, surface form).
type Mention = (String, &'static str, String);

fn person_document(
    rng: &mut Rng,
    p: &Person,
    claim: usize,
) -> (&'static str, String, Vec<Mention>) {
    let mut used: Vec<Mention> = Vec::new();
    let mut take = |value: String, ty: &'static str, form: String| {
        used.push((value, ty, form.clone()));
        form
    };
    let event: Date = (
        2023 + rng.below(2) as u32,
        1 + rng.below(12),
        1 + rng.below(28) as u32,
    );
    let (format, text) = match rng.below(4) {
        0 => {
            let name = take(p.name(), "NAME", p.name());
            let id = take(p.member_id.clone(), "PATIENT_ID", p.member_id.clone());
            let dob = take(date_iso(p.dob), "BIRTHDATE", date_variant(rng, p.dob));
            let cond = take(p.condition.into(), "MEDICAL_CONDITION", p.condition.into());
            let prov = take(p.provider.clone(), "PROVIDER", p.provider.clone());
            (
                "claim_form",
                format!(
                    "Claim CLM-2024-{claim:06}\nMember: {name}\nMember ID: {id}\nDOB: {dob}\n\
                     Provider: {prov}\nDiagnosis: {cond}\nDate of service: {}\n",
                    date_variant(rng, event)
                ),
            )
        }
        1 => {
            let name = take(p.name(), "NAME", format!("{}, {}", p.last, p.first));
            let dob = take(date_iso(p.dob), "BIRTHDATE", date_variant(rng, p.dob));
            let treat = take(p.treatment.into(), "TREATMENT", p.treatment.into());
            let cond = take(p.condition.into(), "MEDICAL_CONDITION", p.condition.into());
            let town = take(p.town.clone(), "LOCATION", p.town.clone());
            (
                "medical_record",
                format!(
                    "Patient: {name}\nDate of birth: {dob}\nSeen on {} for {cond}. \
                     Started {treat}. Lives in {town}.\n",
                    date_variant(rng, event)
                ),
            )
        }
        2 => {
            let spaced = p.member_id.replace('-', " ");
            let id = take(p.member_id.clone(), "PATIENT_ID", spaced);
            let phone = take(p.phone.clone(), "PHONE_NUMBER", p.phone.clone());
            let prov = take(p.provider.clone(), "PROVIDER", p.provider.clone());
            let treat = take(p.treatment.into(), "TREATMENT", p.treatment.into());
            (
                "insurance_memo",
                format!(
                    "Memo: {prov} asked {} to approve {treat} for member {id}. \
                     The member can be reached at {phone}.\n",
                    HUBS[0]
                ),
            )
        }
        _ => {
            let name = take(p.name(), "NAME", p.name());
            let email = take(p.email.clone(), "EMAIL", p.email.clone());
            let prov = take(p.provider.clone(), "PROVIDER", p.provider.clone());
            let town = take(p.town.clone(), "LOCATION", p.town.clone());
            (
                "patient_survey",
                format!(
                    "Survey response from {name} ({email}), a resident of {town}: \
                     the staff at {prov} were helpful and {} covered the visit.\n",
                    HUBS[0]
                ),
            )
        }
    };
    (format, text, used)
}

/// Generates the corpus in memory.
pub fn generate(params: GenParams) -> Generated {
    let mut rng = Rng::new(params.seed);
    let n = params.docs;
    let vocab = (n / 2).max(50);
    let providers: Vec<String> = (0..vocab)
        .map(|_| format!("{} {}", word(&mut rng, 2), rng.pick(PROVIDER_SUFFIXES)))
        .collect();
    let towns: Vec<String> = (0..vocab / 4 + 10)
        .map(|_| match rng.below(3) {
            0 => format!("Port {}", word(&mut rng, 1)),
            1 => format!("{} Falls", word(&mut rng, 2)),
            _ => format!("{} Creek", word(&mut rng, 1)),
        })
        .collect();
    let zipf_providers = Zipf::new(providers.len());
    let zipf_towns = Zipf::new(towns.len());

    let mut documents = Vec::with_capacity(n);
    let mut clusters = Vec::new();
    let mut distractors = Vec::new();
    let mut claim = 0usize;
    while documents.len() < n {
        let left = n - documents.len();
        if rng.chance(0.1) || left < 2 {
            let id = format!("bg{:06}", documents.len());
            let prov = &providers[zipf_providers.sample(&mut rng)];
            let town = &towns[zipf_towns.sample(&mut rng)];
            let cond = rng.pick(CONDITIONS);
            let mut content = format!(
                "Quarterly audit of {prov} in {town}: claims for {cond} rose {}% \
                 this quarter.",
                1 + rng.below(40)
            );
            if rng.chance(0.7) {
                let _ = write!(content, " Reported to {}.", HUBS[1]);
            }
            content.push('\n');
            distractors.push(Value::String(id.clone()));
            documents.push(GenDocument {
                id,
                format: "audit_report",
                content,
            });
            continue;
        }
        let c = clusters.len();
        let size = (2 + rng.below(4)).min(left);
        let person = Person::new(&mut rng, &providers, &towns, c);
        let mut ids = Vec::with_capacity(size);
        let mut mentions: Vec<Vec<Mention>> = Vec::with_capacity(size);
        for k in 0..size {
            claim += 1;
            let (format, mut content, used) = person_document(&mut rng, &person, claim);
            // Background noise: a Zipf-chosen provider most documents mention.
            if rng.chance(0.5) {
                let prov = &providers[zipf_providers.sample(&mut rng)];
                let _ = writeln!(content, "Copy sent to {prov}.");
            }
            let id = format!("g{c:05}_{}", k + 1);
            ids.push(id.clone());
            mentions.push(used);
            documents.push(GenDocument {
                id,
                format,
                content,
            });
        }
        // Gold chains: document pairs sharing an identifying value of the person.
        let strong = |ty: &str| {
            matches!(
                ty,
                "NAME" | "PATIENT_ID" | "BIRTHDATE" | "PHONE_NUMBER" | "EMAIL"
            )
        };
        let mut chains = Vec::new();
        for a in 0..size {
            for b in a + 1..size {
                let via: Vec<&str> = mentions[a]
                    .iter()
                    .filter(|(v, ty, _)| {
                        strong(ty) && mentions[b].iter().any(|(w, t2, _)| w == v && t2 == ty)
                    })
                    .map(|(v, _, _)| v.as_str())
                    .collect();
                if !via.is_empty() {
                    chains.push(json!({"docs": [ids[a], ids[b]], "via": via}));
                }
            }
        }
        let mut entities: Vec<Value> = Vec::new();
        let mut seen: Vec<(String, &str)> = Vec::new();
        for (value, ty, form) in mentions.iter().flatten() {
            if let Some(pos) = seen.iter().position(|(v, t)| v == value && t == ty) {
                let variants = entities[pos][2].as_array_mut();
                if let Some(vs) = variants
                    && form != value
                    && !vs.iter().any(|x| x == form.as_str())
                {
                    vs.push(Value::String(form.clone()));
                }
                continue;
            }
            seen.push((value.clone(), ty));
            let variants: Vec<Value> = if form == value {
                Vec::new()
            } else {
                vec![Value::String(form.clone())]
            };
            entities.push(json!([value, ty, variants]));
        }
        let risk = match chains.len() {
            0 => "LOW",
            1 | 2 => "MEDIUM",
            _ => "HIGH",
        };
        clusters.push(json!({
            "cluster_id": format!("g{c:05}"),
            "risk": risk,
            "domain": "health-insurance",
            "docs": ids,
            "person": {"entities": entities},
            "gold_chains": chains,
        }));
    }
    Generated {
        documents,
        gold: json!({
            "generator": format!("clam gen-corpus --docs {} --seed {}", params.docs, params.seed),
            "clusters": clusters,
            "distractor_docs": distractors,
        }),
    }
}

/// Writes `corpus.jsonl` and `gold.json` into `dir` (created if missing), each
/// through a temporary file renamed into place.
pub fn write(dir: &Path, params: GenParams) -> std::io::Result<Generated> {
    let generated = generate(params);
    std::fs::create_dir_all(dir)?;
    let mut jsonl = String::with_capacity(generated.documents.len() * 300);
    for d in &generated.documents {
        let line = json!({"id": d.id, "content": d.content, "metadata": {"format": d.format}});
        jsonl.push_str(&line.to_string());
        jsonl.push('\n');
    }
    write_atomic(&dir.join("corpus.jsonl"), jsonl.as_bytes())?;
    let gold = serde_json::to_string_pretty(&generated.gold).map_err(std::io::Error::other)?;
    write_atomic(&dir.join("gold.json"), gold.as_bytes())?;
    Ok(generated)
}

fn write_atomic(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir)?;
    tmp.write_all(bytes)?;
    tmp.as_file().sync_all()?;
    tmp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_corpus_other_seed_other_corpus() {
        let a = generate(GenParams { docs: 200, seed: 7 });
        let b = generate(GenParams { docs: 200, seed: 7 });
        let c = generate(GenParams { docs: 200, seed: 8 });
        assert_eq!(a, b);
        assert_ne!(a.documents, c.documents);
        assert_eq!(a.documents.len(), 200);
        let mut ids: Vec<&str> = a.documents.iter().map(|d| d.id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 200, "ids are unique");
    }

    #[test]
    fn gold_names_only_generated_documents_and_pairs_of_one_cluster() {
        let g = generate(GenParams { docs: 300, seed: 1 });
        let ids: std::collections::BTreeSet<&str> =
            g.documents.iter().map(|d| d.id.as_str()).collect();
        let clusters = g.gold["clusters"].as_array().expect("clusters");
        assert!(clusters.len() > 30);
        let mut pairs = 0;
        for c in clusters {
            let docs: Vec<&str> = c["docs"]
                .as_array()
                .expect("docs")
                .iter()
                .filter_map(Value::as_str)
                .collect();
            assert!(docs.iter().all(|d| ids.contains(d)));
            for ch in c["gold_chains"].as_array().expect("chains") {
                let pair: Vec<&str> = ch["docs"]
                    .as_array()
                    .expect("pair")
                    .iter()
                    .filter_map(Value::as_str)
                    .collect();
                assert_eq!(pair.len(), 2);
                assert!(pair.iter().all(|d| docs.contains(d)));
                pairs += 1;
            }
            // Every listed person value occurs in one of the cluster's documents.
            for e in c["person"]["entities"].as_array().expect("entities") {
                let forms: Vec<&str> = std::iter::once(e[0].as_str().expect("value"))
                    .chain(
                        e[2].as_array()
                            .expect("variants")
                            .iter()
                            .filter_map(Value::as_str),
                    )
                    .collect();
                let found = g.documents.iter().any(|d| {
                    docs.contains(&d.id.as_str()) && forms.iter().any(|f| d.content.contains(f))
                });
                assert!(found, "{e}");
            }
        }
        assert!(pairs > 50);
        assert!(
            !g.gold["distractor_docs"]
                .as_array()
                .expect("distractors")
                .is_empty()
        );
    }
}
