//! A generated corpus of claim-like documents of about 2 KB each, deterministic,
//! shared by the extraction and redaction benchmarks.

#![allow(dead_code)]

use clam::corpus::Document;

pub const FIRST: &[&str] = &[
    "Priya", "Desmond", "Marisol", "Tomasz", "Aiko", "Farah", "Luca", "Nia",
];
pub const LAST: &[&str] = &[
    "Raman",
    "Okafor",
    "Quintero-Hale",
    "Wiśniewski",
    "Tanaka",
    "Haddad",
    "Rossi",
    "Mensah",
];
const CONDITIONS: &[&str] = &[
    "lupus nephritis",
    "type 2 diabetes",
    "Crohn's disease",
    "asthma",
    "atrial fibrillation",
];
const DRUGS: &[&str] = &[
    "mycophenolate",
    "metformin",
    "infliximab",
    "albuterol",
    "apixaban",
];
const FILLER: &str = "The reviewer confirmed that the documentation supports medical necessity under the plan terms, \
and the request was routed to the utilisation management queue for a second-level review before payment. ";

/// ~`bytes` of text in documents of about 2 KB, deterministic.
pub fn corpus(bytes: usize) -> Vec<Document> {
    let mut docs = Vec::new();
    let mut total = 0;
    let mut i = 0usize;
    while total < bytes {
        let (f, l) = (FIRST[i % FIRST.len()], LAST[(i / 3) % LAST.len()]);
        let text = format!(
            "Claim no. CLM-2024-{i:05}\nMember: {l}, {f}\nMember ID: MBR-{id:06}\nDOB: {m:02}/{d:02}/19{y:02}\n\
Phone: (555) 010-{p:04} · e-mail {fl}.{ll}@example.com\n\
Ms. {l} was seen on {m:02}/{d2:02}/2024 at Cedar Valley Medical Center by Dr. Elise Varga for {cond}; \
the 54-year-old retired ferry pilot was started on {drug}. {FILLER}{FILLER}{FILLER}{FILLER}",
            id = 400_000 + i * 7,
            m = 1 + i % 12,
            d = 1 + i % 28,
            d2 = 1 + (i * 5) % 28,
            y = 40 + i % 50,
            p = i % 10_000,
            fl = f.to_lowercase(),
            ll = l.to_lowercase(),
            cond = CONDITIONS[i % CONDITIONS.len()],
            drug = DRUGS[i % DRUGS.len()],
        );
        total += text.len();
        docs.push(Document::new(format!("doc{i}"), text));
        i += 1;
    }
    docs
}
