#!/usr/bin/env python3
"""Audit clam's word lists against the labelled sets, and measure them.

Usage:
    python3 scripts/audit_vocab.py [audit] [coverage] [prose] [--shared DIR] [--prose FILE ...]
                                   [--json OUT]

Standard library only; reads, never writes, data/ (with --json it writes OUT).

audit     Every line of data/gazetteers/*.txt, data/vocab/*.txt, the first field of every line
          of data/names/*.tsv and every field of data/address/abbreviations.tsv that equals, case-insensitively (Unicode casefold,
          whitespace collapsed), a value of a labelled set. The project rule is that no value of
          a labelled set goes into a vocabulary or a rule; a hand-written gazetteer line that is a
          labelled value is justified only when a public vocabulary (data/vocab/*) has it too, so
          each gazetteer hit says whether it is in data/vocab and in which file.
coverage  How many MEDICAL_CONDITION / TREATMENT / LOCATION values of the labelled sets (devset
          mentions.jsonl, every thesis-data set's files/*.json person.entities, and
          sample_corpus/gold/mentions.jsonl when present) the old gazetteers and the new
          vocabularies cover: "exact" = the value is a line of the list; "hit" = a whole-word,
          longest-first match of the list fires somewhere inside the value. A report figure
          only: nothing is tuned on it.
prose     False-positive pressure: matches of each list over non-clinical English prose
          (by default clam's README.md and docs/*.md, ../shared/reference/thesis.txt, the GPL-3 and GFDL-1.3
          texts in /usr/share/common-licenses, and the Rust Book print.html of the installed
          toolchain when present, HTML stripped): matches per 10,000 words and the most frequent
          terms. Matching is case-insensitive (as the gazetteers are matched today); places are
          also counted with every word capitalised as in the text.

Labelled sets read (under --shared, default ../shared next to the repository, else /work/shared):
    devset/gold.json          person.entities (canonical and variants), gold_chains via and
                              via_canonical, noise_entities
    devset/mentions.jsonl     text
    thesis-data/*/files/*.json  metadata.person.entities
    thesis-data/*/gold.json   entities (all documents), redaction
    sample_corpus/gold/gold.json and mentions.jsonl of this repository, when present
"""
import argparse
import collections
import glob
import html
import json
import os
import re
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DATA = os.path.join(ROOT, "data")


def norm(s):
    return re.sub(r"\s+", " ", unicodedata.normalize("NFC", s)).strip().casefold()


# ---------------------------------------------------------------------------------------------
# Labelled values

def find_shared(arg):
    for cand in [arg, os.path.join(os.path.dirname(ROOT), "shared"), "/work/shared"]:
        if cand and os.path.isdir(os.path.join(cand, "devset")):
            return cand
    sys.exit("cannot find the shared folder (devset/); pass --shared DIR")


def labelled_values(shared):
    """value (normalised) -> {"types": set, "sources": set, "forms": set}"""
    vals = collections.defaultdict(lambda: {"types": set(), "sources": set(), "forms": set()})

    def add(v, typ, src):
        if not isinstance(v, str) or not v.strip():
            return
        e = vals[norm(v)]
        e["types"].add(typ or "?")
        e["sources"].add(src)
        e["forms"].add(v)

    def gold_like(path, tag):
        g = json.load(open(path, encoding="utf-8"))
        for c in g.get("clusters", []):
            for ent in c.get("person", {}).get("entities", []):
                add(ent[0], ent[1], f"{tag}/gold.json person")
                for var in (ent[2] if len(ent) > 2 else []):
                    add(var, ent[1], f"{tag}/gold.json person")
            for ch in c.get("gold_chains", []):
                for v in ch.get("via", []) + ch.get("via_canonical", []):
                    add(v, None, f"{tag}/gold.json chains")
        for ent in g.get("noise_entities", []):
            add(ent[0], ent[1], f"{tag}/gold.json noise")

    def mentions(path, tag):
        for line in open(path, encoding="utf-8"):
            if line.strip():
                m = json.loads(line)
                add(m["text"], m.get("type"), f"{tag}/mentions.jsonl")

    gold_like(os.path.join(shared, "devset", "gold.json"), "devset")
    mentions(os.path.join(shared, "devset", "mentions.jsonl"), "devset")
    for setdir in sorted(glob.glob(os.path.join(shared, "thesis-data", "*", ""))):
        name = os.path.basename(os.path.dirname(setdir))
        for f in sorted(glob.glob(os.path.join(setdir, "files", "*.json"))):
            d = json.load(open(f, encoding="utf-8"))
            for ent in d.get("metadata", {}).get("person", {}).get("entities", []):
                add(ent[0], ent[1], f"thesis/{name}/files")
        gp = os.path.join(setdir, "gold.json")
        if os.path.exists(gp):
            g = json.load(open(gp, encoding="utf-8"))
            for doc, values in g.get("entities", {}).items():
                for v in values:
                    add(v, None, f"thesis/{name}/gold.json entities")
            for v in g.get("redaction", []):
                add(v, None, f"thesis/{name}/gold.json redaction")
    sc = os.path.join(ROOT, "sample_corpus", "gold")
    if os.path.exists(os.path.join(sc, "gold.json")):
        gold_like(os.path.join(sc, "gold.json"), "sample_corpus")
    if os.path.exists(os.path.join(sc, "mentions.jsonl")):
        mentions(os.path.join(sc, "mentions.jsonl"), "sample_corpus")
    return vals


def typed_values(shared, types):
    """(value, type, source) of the labelled entities of these types, for coverage:
    devset and sample-corpus mentions, thesis person.entities."""
    out = []
    for path, tag in ((os.path.join(shared, "devset", "mentions.jsonl"), "devset mentions"),
                      (os.path.join(ROOT, "sample_corpus", "gold", "mentions.jsonl"), "sample_corpus mentions")):
        if os.path.exists(path):
            for line in open(path, encoding="utf-8"):
                if line.strip():
                    m = json.loads(line)
                    if m.get("type") in types:
                        out.append((m["text"], m["type"], tag))
    for f in sorted(glob.glob(os.path.join(shared, "thesis-data", "*", "files", "*.json"))):
        d = json.load(open(f, encoding="utf-8"))
        for ent in d.get("metadata", {}).get("person", {}).get("entities", []):
            if ent[1] in types:
                out.append((ent[0], ent[1], "thesis person.entities"))
    return out


# ---------------------------------------------------------------------------------------------
# Lists

def read_list(path):
    """Terms of a list file: lines that are neither blank nor '#' comments; for a .tsv, every
    tab-separated field."""
    out = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            s = line.strip()
            if not s or s.startswith("#"):
                continue
            fields = [s]
            if path.endswith(".tsv"):      # names/*.tsv: name<TAB>frequency; address: every field
                fields = s.split("\t")[:1] if "/names/" in path else s.split("\t")
            for field in fields:
                if field.strip():
                    out.append((i, field.strip()))
    return out


def all_lists():
    files = sorted(glob.glob(os.path.join(DATA, "gazetteers", "*.txt")))
    files += sorted(glob.glob(os.path.join(DATA, "vocab", "*.txt")))
    files += sorted(glob.glob(os.path.join(DATA, "address", "*.tsv")))
    files += sorted(glob.glob(os.path.join(DATA, "names", "*.tsv")))
    return {os.path.relpath(f, ROOT): read_list(f) for f in files}


TOKEN = re.compile(r"[^\W_]+(?:['’.\-][^\W_]+)*\.?")


def tokens(text):
    return [(m.group(0), m.start(), m.end()) for m in TOKEN.finditer(text)]


def tok_key(t):
    return norm(t.replace("’", "'")).rstrip(".") if not t.endswith("..") else norm(t)


class Matcher:
    """Whole-word, longest-first, non-overlapping phrase matcher over tokens."""

    def __init__(self, terms):
        self.phrases = collections.defaultdict(set)   # first token -> set of token tuples
        self.maxlen = 1
        for t in terms:
            key = tuple(tok_key(x) for x, _, _ in tokens(t))
            if key:
                self.phrases[key[0]].add(key)
                self.maxlen = max(self.maxlen, len(key))

    CONNECTORS = {"of", "the", "and", "de", "del", "della", "di", "da", "do", "dos", "das", "du",
                  "des", "la", "le", "les", "el", "al", "en", "y", "e", "van", "von", "der", "den",
                  "upon", "on", "am", "an", "im", "sur", "sous"}

    def find(self, text, capitalised=False, after_capital=False):
        """capitalised: every word of the match but a connector starts with a capital letter.
        after_capital: the match is capitalised and the word before it is too (an organisation
        suffix after a name)."""
        toks = tokens(text)
        keys = [tok_key(t) for t, _, _ in toks]
        i, out = 0, []
        while i < len(toks):
            cands = self.phrases.get(keys[i])
            hit = None
            if cands:
                for n in range(min(self.maxlen, len(toks) - i), 0, -1):
                    k = tuple(keys[i:i + n])
                    if k in cands:
                        words = [toks[j][0] for j in range(i, i + n)]
                        if (capitalised or after_capital) and not (
                                words[0][:1].isupper() and all(
                                    w[:1].isupper() or w.lower() in self.CONNECTORS for w in words)):
                            continue
                        if after_capital and not (i > 0 and toks[i - 1][0][:1].isupper()
                                                  and text[toks[i - 1][2]:toks[i][1]] in (" ", ", ")):
                            continue
                        hit = n
                        break
            if hit:
                out.append(text[toks[i][1]:toks[i + hit - 1][2]])
                i += hit
            else:
                i += 1
        return out


# ---------------------------------------------------------------------------------------------

# The public vocabularies that can justify a line of each hand-written gazetteer.
SAME_KIND = {
    "conditions.txt": ["conditions.txt", "symptoms.txt", "conditions_ambiguous.txt"],
    "treatments.txt": ["treatments.txt", "treatments_ambiguous.txt"],
    "treatments_common.txt": ["treatments.txt", "treatments_ambiguous.txt"],
    "places.txt": ["places.txt", "places_ambiguous.txt"],
}


def do_audit(vals, lists, report):
    vocab_terms = {}
    for f, items in lists.items():
        if f.startswith("data/vocab/"):
            for _, t in items:
                vocab_terms.setdefault(norm(t), []).append(os.path.basename(f))
    print("## Audit: list lines equal to a labelled value (case-insensitive)\n")
    total = 0
    rows = []
    for f, items in lists.items():
        hits = [(i, t) for i, t in items if norm(t) in vals]
        total += len(hits)
        print(f"### {f}: {len(hits)} of {len(items)} lines\n")
        if not hits:
            continue
        gaz = f.startswith("data/gazetteers/")
        for i, t in hits:
            v = vals[norm(t)]
            just = ""
            same_kind = []
            if gaz:
                inv = sorted(set(vocab_terms.get(norm(t), [])))
                kinds = SAME_KIND.get(os.path.basename(f), [])
                same_kind = [x for x in inv if x in kinds]
                just = (" | justified: in " + ", ".join(same_kind) if same_kind else
                        " | NOT in a public vocabulary of its kind" + (f" (only in {', '.join(inv)})" if inv else ""))
            srcs = sorted(v["sources"])
            print(f"- line {i}: `{t}` - labelled as {'/'.join(sorted(v['types']))} in "
                  f"{'; '.join(srcs[:3])}{' ...' if len(srcs) > 3 else ''}{just}")
            rows.append({"file": f, "line": i, "term": t, "types": sorted(v["types"]),
                         "sources": srcs, "in_vocab": sorted(set(vocab_terms.get(norm(t), []))),
                         "justified_by": same_kind})
        print()
    gaz_rows = [r for r in rows if r["file"].startswith("data/gazetteers/")]
    print(f"Total: {total} lines; hand-written gazetteers: {len(gaz_rows)} "
          f"({sum(1 for r in gaz_rows if r['justified_by'])} justified by a public vocabulary of "
          f"their kind, {sum(1 for r in gaz_rows if not r['justified_by'])} not).\n")
    report["audit"] = rows


OLD = {
    "MEDICAL_CONDITION": ["data/gazetteers/conditions.txt"],
    "TREATMENT": ["data/gazetteers/treatments.txt", "data/gazetteers/treatments_common.txt"],
    "LOCATION": ["data/gazetteers/places.txt"],
}
NEW = {
    "MEDICAL_CONDITION": ["data/vocab/conditions.txt", "data/vocab/symptoms.txt"],
    "TREATMENT": ["data/vocab/treatments.txt"],
    "LOCATION": ["data/vocab/places.txt"],
}
NEW_AMB = {
    "MEDICAL_CONDITION": ["data/vocab/conditions_ambiguous.txt"],
    "TREATMENT": ["data/vocab/treatments_ambiguous.txt"],
    "LOCATION": ["data/vocab/places_ambiguous.txt"],
}


def do_coverage(shared, lists, report):
    print("## Coverage of the labelled MEDICAL_CONDITION / TREATMENT / LOCATION values\n")
    print("exact = the value is a line of the list(s); hit = the list fires (whole words, longest "
          "first) somewhere inside the value. Counted over distinct values (casefolded) of devset "
          "mentions.jsonl, sample_corpus mentions.jsonl and thesis person.entities.\n")
    vals = typed_values(shared, set(OLD))
    report["coverage"] = {}
    print("| type | source | values | old exact | old hit | new exact | new hit | new+ambiguous hit | old or new hit |")
    print("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for typ in OLD:
        sets = {
            "old": [t for f in OLD[typ] for _, t in lists[f]],
            "new": [t for f in NEW[typ] for _, t in lists[f]],
        }
        sets["new+amb"] = sets["new"] + [t for f in NEW_AMB[typ] for _, t in lists[f]]
        sets["both"] = sets["old"] + sets["new"]
        exact = {k: {norm(t) for t in v} for k, v in sets.items()}
        match = {k: Matcher(v) for k, v in sets.items()}
        for src in ["devset mentions", "sample_corpus mentions", "thesis person.entities", "all"]:
            vs = sorted({norm(v) for v, ty, s in vals if ty == typ and (src == "all" or s == src)})
            if not vs:
                continue
            row = {"values": len(vs)}
            for k in sets:
                row[k + "_exact"] = sum(1 for v in vs if v in exact[k])
                row[k + "_hit"] = sum(1 for v in vs if match[k].find(v))
            report["coverage"][f"{typ} / {src}"] = row
            print(f"| {typ} | {src} | {len(vs)} | {row['old_exact']} | {row['old_hit']} | {row['new_exact']} | "
                  f"{row['new_hit']} | {row['new+amb_hit']} | {row['both_hit']} |")
    print()
    # Which values only one side finds (for reading, not for tuning).
    for typ in OLD:
        vs = sorted({norm(v) for v, ty, s in vals if ty == typ})
        mo = Matcher([t for f in OLD[typ] for _, t in lists[f]])
        mn = Matcher([t for f in NEW[typ] for _, t in lists[f]])
        only_new = [(v, mn.find(v)) for v in vs if mn.find(v) and not mo.find(v)]
        only_old = [(v, mo.find(v)) for v in vs if mo.find(v) and not mn.find(v)]
        neither = [v for v in vs if not mn.find(v) and not mo.find(v)]
        print(f"### {typ}: found only by the new lists ({len(only_new)}), only by the old ({len(only_old)}), "
              f"by neither ({len(neither)})\n")
        print("- new only: " + "; ".join(f"`{v}` ({', '.join(m)})" for v, m in only_new))
        print("- old only: " + "; ".join(f"`{v}` ({', '.join(m)})" for v, m in only_old))
        print("- neither: " + "; ".join(f"`{v}`" for v in neither))
        print()


def default_prose():
    cands = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    for shared in [os.path.join(os.path.dirname(ROOT), "shared"), "/work/shared"]:
        p = os.path.join(shared, "reference", "thesis.txt")
        if os.path.exists(p):
            cands.append(p)
            break
    cands += ["/usr/share/common-licenses/GPL-3", "/usr/share/common-licenses/GFDL-1.3"]
    cands += sorted(glob.glob(os.path.expanduser(
        "~/.rustup/toolchains/*/share/doc/rust/html/book/print.html")))[:1]
    return [c for c in cands if os.path.exists(c)]


def read_prose(path):
    text = open(path, encoding="utf-8", errors="replace").read()
    if path.endswith(".html"):
        text = re.sub(r"(?is)<(script|style|pre|code)\b.*?</\1>", " ", text)
        text = html.unescape(re.sub(r"(?s)<[^>]+>", " ", text))
    return text


def do_prose(paths, lists, report):
    print("## False-positive pressure over non-clinical prose\n")
    texts = []
    for p in paths:
        t = read_prose(p)
        texts.append((p, t, len(tokens(t))))
        print(f"- `{p}`: {len(tokens(t)):,} words")
    print()
    files = [f for f in lists if f.startswith(("data/vocab/", "data/gazetteers/")) and not f.endswith("place_words.txt")]
    report["prose"] = {}
    print("| list | terms | " + " | ".join(os.path.basename(p) for p, _, _ in texts) + " | per 10k words (all) | top terms |")
    print("| --- | ---: | " + " | ".join("---:" for _ in texts) + " | ---: | --- |")
    total_words = sum(n for _, _, n in texts)
    for f in files:
        m = Matcher([t for _, t in lists[f]])
        modes = [("", {})]
        if "places" in f:
            modes.append((" (capitalised)", {"capitalised": True}))
        if "org_suffixes" in f:
            modes = [(" (capitalised, after a capitalised word)", {"after_capital": True})]
        for label, kw in modes:
            counts = collections.Counter()
            per = []
            for p, t, n in texts:
                found = m.find(t, **kw)
                per.append(len(found))
                counts.update(" ".join(tok_key(x) for x, _, _ in tokens(y)) for y in found)
            total = sum(per)
            rate = total * 10000 / max(total_words, 1)
            top = ", ".join(f"{k} {v}" for k, v in counts.most_common(12))
            report["prose"][f + label] = {"per_text": per, "per_10k": round(rate, 2), "top": counts.most_common(30)}
            print(f"| {f}{label} | {len(lists[f])} | " + " | ".join(str(x) for x in per) +
                  f" | {rate:.1f} | {top} |")
    print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("what", nargs="*", help="audit, coverage, prose (default: all three)")
    ap.add_argument("--shared", help="the shared folder with devset/ and thesis-data/")
    ap.add_argument("--prose", nargs="*", help="prose files for the false-positive count")
    ap.add_argument("--json", help="also write the figures to this JSON file")
    ap.add_argument("--check", action="store_true",
                    help="audit only; exit 1 if a hand-written gazetteer line (data/gazetteers/) "
                         "equals a labelled value (CI runs this)")
    args = ap.parse_args()
    if args.check:
        report = {}
        do_audit(labelled_values(find_shared(args.shared)), all_lists(), report)
        bad = [r for r in report["audit"] if r["file"].startswith("data/gazetteers/")]
        for r in bad:
            print(f"error: {r['file']} line {r['line']}: `{r['term']}` is a labelled value",
                  file=sys.stderr)
        return 1 if bad else 0
    what = set(args.what) or {"audit", "coverage", "prose"}
    unknown = what - {"audit", "coverage", "prose"}
    if unknown:
        ap.error("unknown: " + " ".join(sorted(unknown)))
    lists = all_lists()
    report = {}
    shared = find_shared(args.shared) if what & {"audit", "coverage"} else None
    if "audit" in what:
        do_audit(labelled_values(shared), lists, report)
    if "coverage" in what:
        do_coverage(shared, lists, report)
    if "prose" in what:
        do_prose(args.prose or default_prose(), lists, report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1, sort_keys=True, ensure_ascii=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
