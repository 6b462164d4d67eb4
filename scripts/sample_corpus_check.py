#!/usr/bin/env python3
"""Consistency checker for sample_corpus/ (and generator of its mentions.jsonl).

Usage:
    python3 scripts/sample_corpus_check.py                  # check, exit 1 on any problem
    python3 scripts/sample_corpus_check.py --write-mentions # regenerate gold/mentions.jsonl, then check
    python3 scripts/sample_corpus_check.py --corpus DIR     # another folder in the same layout

Layout: DIR/<id>.json documents, DIR/gold/gold.json (devset format: clusters with
person.entities = [canonical, TYPE, [verbatim variants]], gold_chains, questions;
noise_entities; distractor_docs) and DIR/gold/mentions.jsonl ({doc, start, end, text,
type, person}; code-point offsets, end exclusive).

Checks: every document parses, has exactly {id, metadata{format}, content}, id equals
the file stem and content is 600-1500 characters; no two documents of one cluster are
adjacent in byte-wise file order; gold types are valid, every variant occurs verbatim
(whole word) in the cluster's documents and nowhere outside the cluster, the canonical
value is the SPEC section 2 canonical form of at least one variant; risk labels follow
the devset criteria; gold chains are exactly the same-cluster pairs sharing a person
entity (via / via_canonical consistent); 4 questions per cluster covering single/multi x
specific/general; noise entities recur in >= 2 clusters; every mention's text equals
content[start:end], mentions do not overlap, person flags and types agree with gold,
and every occurrence of a person form or noise value is annotated.
"""
import argparse
import itertools
import json
import os
import re
import sys
import unicodedata
from collections import Counter, defaultdict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TYPES = {"NAME", "PATIENT_ID", "ADDRESS", "PHONE_NUMBER", "EMAIL", "MEDICAL_CONDITION",
         "TREATMENT", "NON_PERSONAL_ID", "UNIQUE_FACT", "BIRTHDATE", "INDIRECT_IDENTIFIER",
         "PROVIDER", "EVENT_DATE", "AGE", "LOCATION", "EVENT", "DEMOGRAPHIC"}
DIRECT = {"NAME", "PATIENT_ID", "EMAIL", "PHONE_NUMBER", "ADDRESS"}

# Obvious non-person mentions (person=false) besides the noise entities: staff acting
# administratively, non-treating clinicians, administrative dates, third-party contacts,
# conditions/drugs that are not the hidden person's. Used by --write-mentions.
NON_PERSON = {
    "claim_08": [("04/22/2024", "EVENT_DATE")],
    "pa_10": [("May 20, 2024", "EVENT_DATE"), ("Dr. Howard Lindqvist", "PROVIDER")],
    "call_11": [("Danielle Ortiz", "NAME")],
    "letter_22": [("July 8, 2024", "EVENT_DATE")],
    "rx_24": [("Tobias Engel", "NAME")],
    "record_16": [("K. Alvarez", "NAME")],
    "pa_18": [("09/05/2024", "EVENT_DATE"), ("Ingrid Solberg", "NAME"), ("nintedanib", "TREATMENT")],
    "call_04": [("Adaeze Lund", "NAME"), ("09/10/2024", "EVENT_DATE"), ("Marcus Bell", "NAME")],
    "memo_15": [("Naomi Fairbanks", "NAME"), ("October 2, 2024", "EVENT_DATE")],
    "pa_02": [("September 30, 2024", "EVENT_DATE"), ("Gloria Tran", "NAME"),
              ("Dr. Samuel Whitcombe", "PROVIDER")],
    "memo_05": [("Leon Marchetti", "NAME"), ("November 14, 2024", "EVENT_DATE")],
    "rx_12": [("Farid Haddad", "NAME"), ("10/21/2024", "EVENT_DATE")],
    "survey_23": [("January 9, 2025", "EVENT_DATE")],
    "claim_01": [("Hannah Brooks", "NAME"), ("06/11/2024", "EVENT_DATE")],
    "letter_19": [("August 5, 2024", "EVENT_DATE"), ("Valerie Kim", "NAME")],
    "memo_21": [("Marta Novak", "NAME"), ("September 16, 2024", "EVENT_DATE")],
    "memo_09": [("Gideon Avery", "NAME"), ("December 3, 2024", "EVENT_DATE")],
    "rx_20": [("11/18/2024", "EVENT_DATE"), ("Hye-jin Park", "NAME")],
    "note_25": [("Owen Pritchard", "NAME"), ("diabetes", "MEDICAL_CONDITION")],
    "news_06": [("High cholesterol", "MEDICAL_CONDITION"), ("February 8, 2025", "EVENT_DATE")],
    "notice_13": [("rosuvastatin", "TREATMENT"), ("simvastatin", "TREATMENT"),
                  ("Lipitor", "TREATMENT"), ("Insulin glargine", "TREATMENT"),
                  ("asthma", "MEDICAL_CONDITION")],
    "news_17": [("October 28, 2024", "EVENT_DATE"), ("press@example.com", "EMAIL")],
}

errors = []


def err(msg):
    errors.append(msg)


# ------------------------------------------------------------------ SPEC section 2 canonical forms
HONORIFICS = {"dr", "mr", "mrs", "ms", "prof", "miss", "mx"}
MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december"]


def fold_basic(v):
    v = unicodedata.normalize("NFC", v)
    v = re.sub("[\u00a0\u2007\u202f]", " ", v)
    return re.sub("[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]", "-", v)


def canon_text(v):
    v = " ".join(v.split()).lower()
    return v.strip("".join(c for c in map(chr, range(0x20, 0x7f))
                           if not c.isalnum() and c not in "+#%$") + " \t\n")


def canon_name(v):
    t = canon_text(v)
    if "," in t:
        last, first = t.split(",", 1)
        if first.strip() and last.strip():
            t = first.strip() + " " + last.strip()
    return canon_text(" ".join(w for w in t.split() if w.rstrip(".") not in HONORIFICS))


def canon_phone(v):
    digits = "".join(c for c in v if c.isdigit())
    return ("+" if v.strip().startswith("+") else "") + digits


def canon_id(v):
    return "".join(c for c in v.strip() if not c.isspace() and c != "-").upper()


def month_no(w):
    w = w.rstrip(".").lower()
    if len(w) < 3:
        return None
    if w == "sept":
        return 9
    for i, m in enumerate(MONTHS):
        if m == w or (len(w) == 3 and m.startswith(w)):
            return i + 1
    return None


def canon_date(v):
    toks = [t for t in re.split(r"[\s,/.\-]+", v.strip().lower()) if t]
    if len(toks) != 3:
        return None
    a, b, c = toks
    try:
        if month_no(a):
            y, m, d = int(c), month_no(a), int(b)
        elif month_no(b):
            y, m, d = (int(c), month_no(b), int(a)) if len(c) == 4 else (int(a), month_no(b), int(c))
        elif len(a) == 4:
            y, m, d = int(a), int(b), int(c)
        else:  # MDY (default date_order)
            y, m, d = int(c), int(a), int(b)
    except ValueError:
        return None
    return f"{y:04d}-{m:02d}-{d:02d}"


def canonical(value, typ):
    v = fold_basic(value)
    if typ in ("BIRTHDATE", "EVENT_DATE"):
        return canon_date(v) or canon_text(v)
    if typ == "PHONE_NUMBER":
        return canon_phone(v)
    if typ in ("PATIENT_ID", "NON_PERSONAL_ID"):
        return canon_id(v)
    if typ == "NAME":
        return canon_name(v)
    return canon_text(v)


# ------------------------------------------------------------------ matching helpers
def occurrences(content, s, ignore_case=False):
    hay, needle = (content.lower(), s.lower()) if ignore_case else (content, s)
    i = hay.find(needle)
    while i != -1:
        j = i + len(needle)
        before = content[i - 1] if i > 0 else " "
        after = content[j] if j < len(content) else " "
        if not (s[0].isalnum() and before.isalnum()) and not (s[-1].isalnum() and after.isalnum()):
            yield i, j
        i = hay.find(needle, i + 1)


def longest_first(content, labelled):
    """labelled: {surface form: label}. Non-overlapping spans, longest forms first."""
    taken = []
    for f in sorted(labelled, key=lambda x: (-len(x), x)):
        for s, e in occurrences(content, f):
            if any(s < te and ts < e for ts, te, _ in taken):
                continue
            taken.append((s, e, f))
    return sorted(taken)


# ------------------------------------------------------------------ load
def load(cdir):
    docs, order = {}, []
    for fn in sorted(os.listdir(cdir), key=lambda n: n.encode("utf-8")):
        path = os.path.join(cdir, fn)
        if os.path.isdir(path):
            continue
        if not fn.endswith(".json"):
            if fn != "README.md":
                err(f"unexpected file {fn}")
            continue
        try:
            with open(path, encoding="utf-8") as fh:
                d = json.load(fh)
        except (ValueError, UnicodeDecodeError) as e:
            err(f"{fn}: does not parse: {e}")
            continue
        if not isinstance(d, dict) or set(d) != {"id", "metadata", "content"}:
            err(f"{fn}: keys must be id, metadata, content")
            continue
        if not isinstance(d["metadata"], dict) or set(d["metadata"]) != {"format"} \
                or not isinstance(d["metadata"]["format"], str):
            err(f"{fn}: metadata must be exactly {{'format': str}}")
        if fn != f"{d['id']}.json":
            err(f"{fn}: id {d['id']!r} does not match the file name")
        if not re.fullmatch(r"[a-z]+_\d\d", str(d["id"])):
            err(f"{fn}: id {d['id']!r} is not <kind>_<NN>")
        if not isinstance(d["content"], str) or not 600 <= len(d["content"]) <= 1500:
            err(f"{fn}: content must be a string of 600-1500 characters")
        docs[d["id"]] = d["content"]
        order.append(d["id"])
    return docs, order


def build_mentions(docs, gold):
    doc2cluster = {d: c for c in gold["clusters"] for d in c["docs"]}
    noise = {v: t for v, t in gold["noise_entities"]}
    out = []
    for did in sorted(docs, key=lambda n: n.encode("utf-8")):
        labelled = {}
        c = doc2cluster.get(did)
        if c:
            for _canon, typ, variants in c["person"]["entities"]:
                for v in variants:
                    labelled[v] = (typ, True)
        for v, t in noise.items():
            labelled.setdefault(v, (t, False))
        for v, t in NON_PERSON.get(did, []):
            if v in labelled:
                err(f"{did}: NON_PERSON entry {v!r} collides with a person/noise form")
            labelled.setdefault(v, (t, False))
        for s, e, f in longest_first(docs[did], labelled):
            typ, person = labelled[f]
            out.append({"doc": did, "start": s, "end": e, "text": docs[did][s:e],
                        "type": typ, "person": person})
    for did, items in NON_PERSON.items():
        for v, _t in items:
            if did not in docs or not any(True for _ in occurrences(docs[did], v)):
                err(f"NON_PERSON entry {v!r} not found in {did}")
    return out


# ------------------------------------------------------------------ checks
def check(docs, order, gold, mentions):
    doc2cluster = {}
    clusters = gold.get("clusters", [])
    for c in clusters:
        for did in c["docs"]:
            if did in doc2cluster:
                err(f"{did} listed in two clusters")
            doc2cluster[did] = c["cluster_id"]
            if did not in docs:
                err(f"{c['cluster_id']}: doc {did} has no corpus file")
    for did in gold.get("distractor_docs", []):
        if did in doc2cluster or did not in docs:
            err(f"bad distractor {did}")
        doc2cluster[did] = None
    for did in docs:
        if did not in doc2cluster:
            err(f"corpus doc {did} is neither in a cluster nor a distractor")
    for a, b in zip(order, order[1:]):
        if doc2cluster.get(a) and doc2cluster.get(a) == doc2cluster.get(b):
            err(f"{a} and {b} are adjacent in file order but belong to the same cluster")

    n_chains = 0
    canon_owner = {}
    for c in clusters:
        cid = c["cluster_id"]
        if set(c) != {"cluster_id", "risk", "domain", "docs", "person", "gold_chains", "questions"}:
            err(f"{cid}: keys {sorted(c)}")
        if not 3 <= len(c["docs"]) <= 6:
            err(f"{cid}: {len(c['docs'])} docs (want 3-6)")
        ents = c["person"]["entities"]
        forms = {}
        for canon, typ, variants in ents:
            if typ not in TYPES:
                err(f"{cid}: bad type {typ}")
            if not variants:
                err(f"{cid}: {canon!r} has no verbatim variants")
            key = (canon, typ)
            if key in canon_owner:
                err(f"{cid}: entity {key} also in cluster {canon_owner[key]}")
            canon_owner[key] = cid
            if variants and canon not in {canonical(v, typ) for v in variants}:
                err(f"{cid}: canonical {canon!r} is not the canonical form of any variant "
                    f"({sorted({canonical(v, typ) for v in variants})})")
            for f in variants:
                if f in forms:
                    err(f"{cid}: form {f!r} listed twice")
                forms[f] = canon
                if not any(any(True for _ in occurrences(docs.get(d, ""), f)) for d in c["docs"]):
                    err(f"{cid}: gold variant {f!r} not verbatim in any of its docs")
                for other, content in docs.items():
                    if doc2cluster.get(other) != cid and \
                            any(True for _ in occurrences(content, f, ignore_case=True)):
                        err(f"{cid}: person form {f!r} also occurs in {other} (outside the cluster)")
        n_ent = len(ents)
        n_dir = sum(1 for e in ents if e[1] in DIRECT)
        ok = {"HIGH": n_ent >= 7 and n_dir >= 3,
              "MEDIUM": 4 <= n_ent <= 6 and n_dir <= 2,
              "LOW": n_ent <= 4 and n_dir == 0}.get(c["risk"], False)
        if not ok:
            err(f"{cid}: risk {c['risk']} violates criteria ({n_ent} entities, {n_dir} direct)")
        # presence per doc: longest forms first, no overlap
        matched = {d: {f for _s, _e, f in longest_first(docs.get(d, ""), forms)} for d in c["docs"]}
        present = {d: {forms[f] for f in matched[d]} for d in c["docs"]}
        expected = {}
        for a, b in itertools.combinations(c["docs"], 2):
            shared = present[a] & present[b]
            if shared:
                expected[frozenset((a, b))] = shared
        listed = {}
        for ch in c["gold_chains"]:
            n_chains += 1
            pair = ch["docs"]
            key = frozenset(pair)
            if set(ch) != {"docs", "via", "via_canonical"} or len(pair) != 2 or len(key) != 2 \
                    or any(doc2cluster.get(x) != cid for x in pair):
                err(f"{cid}: bad chain {ch}")
                continue
            if key in listed:
                err(f"{cid}: duplicate chain {pair}")
            listed[key] = ch
            if key not in expected:
                continue
            want_via = {f for d in pair for f in matched[d] if forms[f] in expected[key]}
            if set(ch["via"]) != want_via or len(ch["via"]) != len(want_via):
                err(f"{cid}: chain {pair} via {ch['via']} != {sorted(want_via)}")
            if set(ch["via_canonical"]) != expected[key] or len(ch["via_canonical"]) != len(expected[key]):
                err(f"{cid}: chain {pair} via_canonical {ch['via_canonical']} != {sorted(expected[key])}")
        for key in expected:
            if key not in listed:
                err(f"{cid}: missing chain {sorted(key)} (shared {sorted(expected[key])})")
        for key in listed:
            if key not in expected:
                err(f"{cid}: chain {sorted(key)} listed but the docs share no person entity")
        # every doc is linked to at least one other doc of its cluster
        for d in c["docs"]:
            if not any(d in k for k in expected):
                err(f"{cid}: {d} shares no person entity with the rest of its cluster")
        # questions
        combos = set()
        for q in c["questions"]:
            if set(q) != {"q", "a", "sources", "type"} or q["type"] not in ("specific", "general"):
                err(f"{cid}: malformed question {q}")
                continue
            if len(q["a"].split()) > 15:
                err(f"{cid}: answer longer than 15 words: {q['a']!r}")
            if not q["sources"] or any(s not in c["docs"] for s in q["sources"]):
                err(f"{cid}: question sources {q['sources']} outside the cluster")
            combos.add(("single" if len(q["sources"]) == 1 else "multi", q["type"]))
        if len(c["questions"]) != 4 or combos != {("single", "specific"), ("single", "general"),
                                                  ("multi", "specific"), ("multi", "general")}:
            err(f"{cid}: questions do not cover the 4 required combinations: {sorted(combos)}")

    # noise entities
    for v, t in gold["noise_entities"]:
        if t not in TYPES:
            err(f"noise {v!r}: bad type {t}")
        cls = {doc2cluster[d] for d in docs if doc2cluster.get(d) and any(True for _ in occurrences(docs[d], v))}
        if len(cls) < 2:
            err(f"noise entity {v!r} occurs in fewer than 2 clusters ({sorted(cls)})")

    # mentions
    cl_by_id = {c["cluster_id"]: c for c in clusters}
    form_type = {cid: {f: e[1] for e in c["person"]["entities"] for f in e[2]}
                 for cid, c in cl_by_id.items()}
    noise = {v: t for v, t in gold["noise_entities"]}
    spans = defaultdict(list)
    for n, m in enumerate(mentions, 1):
        if set(m) != {"doc", "start", "end", "text", "type", "person"}:
            err(f"mentions line {n}: keys {sorted(m)}")
            continue
        did = m["doc"]
        if did not in docs:
            err(f"mentions line {n}: unknown doc {did}")
            continue
        content = docs[did]
        if not (0 <= m["start"] < m["end"] <= len(content)) or content[m["start"]:m["end"]] != m["text"]:
            err(f"{did} [{m['start']}:{m['end']}] text mismatch: "
                f"{content[m['start']:m['end']]!r} != {m['text']!r}")
        if m["type"] not in TYPES:
            err(f"{did}: bad mention type {m['type']}")
        if not m["text"] or m["text"] != m["text"].strip():
            err(f"{did}: untrimmed/empty mention {m['text']!r}")
        cid = doc2cluster.get(did)
        ftypes = form_type.get(cid, {})
        is_form = m["text"] in ftypes
        if m["person"] != is_form:
            err(f"{did}: person flag {m['person']} inconsistent for {m['text']!r}")
        if is_form and ftypes[m["text"]] != m["type"]:
            err(f"{did}: type {m['type']} != gold type for {m['text']!r}")
        if m["text"] in noise and (m["person"] or m["type"] != noise[m["text"]]):
            err(f"{did}: noise mention {m['text']!r} must be person=false, {noise[m['text']]}")
        for s, e in spans[did]:
            if m["start"] < e and s < m["end"]:
                err(f"{did}: overlapping mentions at {m['start']}-{m['end']} and {s}-{e}")
        spans[did].append((m["start"], m["end"]))
    for did, content in docs.items():
        check_forms = set(noise) | set(form_type.get(doc2cluster.get(did), {}))
        for f in check_forms:
            for s, e in occurrences(content, f):
                if not any(ms <= s and e <= me for ms, me in spans[did]):
                    err(f"{did}: unannotated occurrence of {f!r} at {s}")
    return n_chains


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--corpus", default=os.path.join(ROOT, "sample_corpus"))
    ap.add_argument("--write-mentions", action="store_true",
                    help="regenerate gold/mentions.jsonl before checking")
    args = ap.parse_args()
    gdir = os.path.join(args.corpus, "gold")
    docs, order = load(args.corpus)
    with open(os.path.join(gdir, "gold.json"), encoding="utf-8") as fh:
        gold = json.load(fh)
    mpath = os.path.join(gdir, "mentions.jsonl")
    if args.write_mentions:
        with open(mpath, "w", encoding="utf-8") as fh:
            for m in build_mentions(docs, gold):
                fh.write(json.dumps(m, ensure_ascii=False) + "\n")
    mentions = []
    with open(mpath, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                mentions.append(json.loads(line))
            except ValueError as e:
                err(f"mentions line {n}: {e}")
    n_chains = check(docs, order, gold, mentions)
    risk = Counter(c["risk"] for c in gold["clusters"])
    print(f"documents: {len(docs)}  clusters: {len(gold['clusters'])}  distractors: "
          f"{len(gold['distractor_docs'])}  risk: {dict(sorted(risk.items()))}")
    print(f"gold chains: {n_chains}  mentions: {len(mentions)} "
          f"(person=true {sum(1 for m in mentions if m.get('person'))})")
    print("mentions by type: " + ", ".join(
        f"{t}={n}" for t, n in sorted(Counter(m.get('type') for m in mentions).items())))
    if errors:
        print(f"FAILED: {len(errors)} problem(s)")
        for e in errors:
            print("  - " + e)
        sys.exit(1)
    print("OK: all checks passed")


if __name__ == "__main__":
    main()
