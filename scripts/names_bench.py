#!/usr/bin/env python3
"""Score a `clam extract` snapshot against the names benchmark (issue 14, item 5).

Usage:
    python3 scripts/names_bench.py BENCH_DIR SNAPSHOT.json [--vocab DIR] [--json]
                                   [--top N] [--misses N] [--check]

    BENCH_DIR      tests/data/names_bench (corpus.jsonl, mentions.jsonl, distractors.jsonl)
    SNAPSHOT.json  written by `clam extract BENCH_DIR/corpus.jsonl --out SNAPSHOT.json`
    --vocab DIR    the name vocabularies (default: data/names of this repository):
                   DIR/given.tsv and DIR/surnames.tsv, one name per line, `Name<TAB>frequency`,
                   lines starting with '#' are comments
    --json         print the figures as one JSON object instead of the text report
    --top N        false-positive strings listed (default 20)
    --misses N     missed gold mentions listed with their context (default 15)
    --check        exit 1 unless out-of-vocabulary recall >= 0.95 and precision >= 0.95
                   (the issue's targets)

Standard library only.

Predictions. Every `[start, end)` span (code points, end exclusive) of every entity of
type NAME in the snapshot is one prediction; the same span listed twice in a document
counts once. Entities of other types are not predictions; they are only used to say
which type a missed name was given instead ("found as PROVIDER").

Hit. Each gold mention has its span G = [gs, ge) and its key token K = [ks, ke) inside
it: the surname as written (both halves of a hyphenated surname, without a leading
lowercase particle: "van Hagen" -> "Hagen"), or, in the form "Ines C.", the first given
name. A prediction P = [ps, pe) hits the gold mention when P overlaps G (ps < ge and
gs < pe) and P covers K (ps <= ks and ke <= pe). Since K lies inside G, covering K
implies the overlap. So "Ines Carvalho", "Carvalho" and "Claim submitted for Ines
Carvalho" all hit the gold "Ines Carvalho"; "Ines" alone does not. A gold mention is
recalled when at least one prediction hits it. The report also counts how the hitting
predictions' spans compare with the gold spans (exact, longer, shorter).

Precision = predictions that overlap some gold NAME mention of their document / all
predictions, over all documents (a prediction that overlaps a gold mention without
covering its key, e.g. the given name alone, is not a false positive but leaves that
mention unrecalled). Every prediction in a name-free document is a false positive.

Vocabulary split. A gold mention is in-vocabulary when every name it writes out in full
is in the vocabularies: each given-name word in given.tsv and the surname in
surnames.tsv (initials are not checked; "I. Carvalho" is checked on "Carvalho" only).
Names are compared after removing accents (NFKD, combining marks dropped, and
ł→l, ø→o, đ→d, ß→ss, æ→ae, œ→oe, ı→i, þ→th, ð→d) and keeping letters only, lowercased
(so "O'Brien" matches the Census spelling "OBRIEN"). A name that is not in the list as a
whole is in it when each of its parts (split at spaces, hyphens and apostrophes, leading
lowercase particles such as "van", "da", "de" dropped) is: "Chao-Liao" when both "Chao"
and "Liao" are surnames. When the vocabulary files do not exist every mention counts as
out-of-vocabulary, and the report says so.
"""
import argparse
import collections
import json
import os
import sys
import unicodedata

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_VOCAB = os.path.join(ROOT, "data", "names")
TARGET_OOV_RECALL = 0.95
TARGET_PRECISION = 0.95

PARTICLES = {"van", "von", "der", "den", "de", "da", "das", "do", "dos", "di", "del",
             "della", "la", "le", "du", "des", "ten", "ter", "te", "y", "e", "zu", "af",
             "bin", "binti", "al", "el", "het", "op", "in", "'t"}
FOLD = {"ł": "l", "Ł": "l", "ø": "o", "Ø": "o", "đ": "d", "Đ": "d", "ß": "ss", "æ": "ae",
        "Æ": "ae", "œ": "oe", "Œ": "oe", "ı": "i", "þ": "th", "Þ": "th", "ð": "d", "Ð": "d",
        "ŀ": "l", "ħ": "h", "Ħ": "h"}


def fold(s):
    """Accents removed, letters only, lowercase."""
    s = "".join(FOLD.get(c, c) for c in s)
    s = unicodedata.normalize("NFKD", s)
    return "".join(c for c in s if c.isalpha() and not unicodedata.combining(c)).lower()


def load_vocab(path):
    names = set()
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            k = fold(line.split("\t", 1)[0])
            if k:
                names.add(k)
    return names


def in_vocab(name, vocab):
    if fold(name) in vocab:
        return True
    parts, lead = [], True
    for w in name.replace("-", " ").replace("'", " ").replace("\u2019", " ").split():
        if lead and w in PARTICLES:
            continue
        lead = False
        parts.append(w)
    return bool(parts) and all(fold(p) in vocab for p in parts)


def read_jsonl(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def ratio(a, b):
    return a / b if b else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bench")
    ap.add_argument("snapshot")
    ap.add_argument("--vocab", default=DEFAULT_VOCAB)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--top", type=int, default=20)
    ap.add_argument("--misses", type=int, default=15)
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()

    corpus = {d["id"]: d["content"] for d in read_jsonl(os.path.join(args.bench, "corpus.jsonl"))}
    gold = read_jsonl(os.path.join(args.bench, "mentions.jsonl"))
    dpath = os.path.join(args.bench, "distractors.jsonl")
    distractors = read_jsonl(dpath) if os.path.exists(dpath) else []
    for m in gold:
        if corpus[m["doc"]][m["start"]:m["end"]] != m["text"]:
            sys.exit(f"{m['doc']}: gold mention {m['text']!r} does not match the corpus at {m['start']}")

    with open(args.snapshot, encoding="utf-8") as f:
        snap = json.load(f)

    # ---- predictions
    preds = collections.defaultdict(set)  # doc -> {(s, e)} of NAME
    others = collections.defaultdict(list)  # doc -> [(s, e, type)] of other types
    seen_docs, unknown_docs, unlocated, bad_spans = set(), [], 0, 0
    for d in snap.get("documents", []):
        doc = d["id"]
        if doc not in corpus:
            unknown_docs.append(doc)
            continue
        seen_docs.add(doc)
        unlocated += d.get("unlocated", 0)
        n = len(corpus[doc])
        for e in d.get("entities", []):
            for s, t in e.get("spans", []):
                if not (0 <= s < t <= n):
                    bad_spans += 1
                    continue
                if e["type"] == "NAME":
                    preds[doc].add((s, t))
                else:
                    others[doc].append((s, t, e["type"]))
    missing_docs = sorted(set(corpus) - seen_docs)

    # ---- vocabularies
    gpath, spath = os.path.join(args.vocab, "given.tsv"), os.path.join(args.vocab, "surnames.tsv")
    have_vocab = os.path.exists(gpath) and os.path.exists(spath)
    given_v = load_vocab(gpath) if have_vocab else set()
    sur_v = load_vocab(spath) if have_vocab else set()

    def mention_in_vocab(m):
        if not have_vocab:
            return False
        names = [(g, given_v) for g in m["given"]]
        if m["surname"]:
            names.append((m["surname"], sur_v))
        return bool(names) and all(in_vocab(x, v) for x, v in names)

    # ---- recall
    by_doc = collections.defaultdict(list)
    for m in gold:
        by_doc[m["doc"]].append(m)
    groups = collections.defaultdict(lambda: [0, 0])  # name -> [hit, total]
    span_kind = collections.Counter()
    misses = []
    for m in gold:
        ks, ke = m["key_start"], m["key_end"]
        hits = [(s, e) for s, e in preds[m["doc"]] if s <= ks and ke <= e]
        hit = bool(hits)
        iv = mention_in_vocab(m)
        m["_hit"], m["_iv"] = hit, iv
        keys = ["all", "in_vocab" if iv else "out_of_vocab", "form:" + m["form"],
                "locale:" + m["locale"]]
        if m.get("odd_char"):
            keys.append("odd_char:" + m["odd_char"])
        for k in keys:
            groups[k][1] += 1
            groups[k][0] += hit
        if hit:
            if (m["start"], m["end"]) in hits:
                span_kind["exact"] += 1
            elif any(s <= m["start"] and m["end"] <= e for s, e in hits):
                span_kind["longer than gold"] += 1
            else:
                span_kind["shorter than gold (key covered, part of the name left out)"] += 1
        else:
            as_type = sorted({t for s, e, t in others[m["doc"]] if s < m["end"] and m["start"] < e})
            partial = any(s < m["end"] and m["start"] < e for s, e in preds[m["doc"]])
            misses.append((m, as_type, partial))

    # ---- precision
    dist_by_doc = collections.defaultdict(list)
    for x in distractors:
        dist_by_doc[x["doc"]].append(x)
    n_pred = correct = fp_free = fp_named = 0
    fp_strings, fp_kinds = collections.Counter(), collections.Counter()
    for doc, spans in preds.items():
        for s, e in spans:
            n_pred += 1
            if any(s < m["end"] and m["start"] < e for m in by_doc.get(doc, [])):
                correct += 1
                continue
            if by_doc.get(doc):
                fp_named += 1
            else:
                fp_free += 1
            fp_strings[corpus[doc][s:e]] += 1
            kinds = sorted({x["kind"] for x in dist_by_doc.get(doc, []) if x["start"] < e and s < x["end"]})
            fp_kinds["+".join(kinds) if kinds else "(no placed non-name)"] += 1

    def g(k):
        hit, tot = groups.get(k, [0, 0])
        return {"recall": ratio(hit, tot), "hit": hit, "total": tot}

    free_docs = [d for d in corpus if d not in by_doc]
    result = {
        "bench": args.bench, "snapshot": args.snapshot,
        "documents": len(corpus), "name_documents": len(by_doc), "name_free_documents": len(free_docs),
        "mentions": len(gold),
        "vocabularies": {"given": gpath, "surnames": spath, "found": have_vocab,
                         "given_names": len(given_v), "surnames_count": len(sur_v)},
        "recall_all": g("all"), "recall_in_vocab": g("in_vocab"), "recall_out_of_vocab": g("out_of_vocab"),
        "precision": {"precision": ratio(correct, n_pred), "correct": correct, "predictions": n_pred},
        "false_positives": {"all": fp_free + fp_named, "in_name_free_documents": fp_free,
                            "in_name_documents": fp_named,
                            "top": fp_strings.most_common(args.top),
                            "by_overlapped_kind": dict(fp_kinds.most_common())},
        "hit_spans": dict(span_kind),
        "by_form": {k[5:]: g(k) for k in sorted(groups) if k.startswith("form:")},
        "by_odd_char": {k[9:]: g(k) for k in sorted(groups) if k.startswith("odd_char:")},
        "by_locale": {k[7:]: g(k) for k in sorted(groups) if k.startswith("locale:")},
        "missed_found_as": dict(collections.Counter(t for _, ts, _ in misses for t in ts)),
        "missed_with_partial_name": sum(1 for _, _, p in misses if p),
        "snapshot_problems": {"documents_missing": len(missing_docs), "unknown_documents": len(unknown_docs),
                              "unlocated_items": unlocated, "spans_out_of_range": bad_spans},
    }
    oov_r, prec = result["recall_out_of_vocab"]["recall"], result["precision"]["precision"]
    ok = oov_r is not None and oov_r >= TARGET_OOV_RECALL and prec is not None and prec >= TARGET_PRECISION

    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=1, sort_keys=True))
    else:
        report(result, misses, corpus, args.misses)
    if args.check and not ok:
        sys.exit(1)


def fmt(x):
    return f"{x['recall']:.3f}  ({x['hit']}/{x['total']})" if x["total"] else "  n/a  (0/0)"


def report(r, misses, corpus, n_misses):
    p = print
    p(f"names benchmark  {r['bench']}: {r['documents']} documents, {r['mentions']} NAME mentions in "
      f"{r['name_documents']}, {r['name_free_documents']} name-free")
    p(f"snapshot         {r['snapshot']}: {r['precision']['predictions']} NAME predictions")
    v = r["vocabularies"]
    if v["found"]:
        p(f"vocabularies     {v['given']} ({v['given_names']} names), {v['surnames']} ({v['surnames_count']} names)")
    else:
        p(f"vocabularies     NOT FOUND ({v['given']}, {v['surnames']}): every name counts as out-of-vocabulary")
    sp = r["snapshot_problems"]
    if any(sp.values()):
        p(f"snapshot problems: {sp}")
    p("")
    p(f"recall, all names           {fmt(r['recall_all'])}")
    p(f"recall, in-vocabulary       {fmt(r['recall_in_vocab'])}")
    p(f"recall, out-of-vocabulary   {fmt(r['recall_out_of_vocab'])}   target >= {TARGET_OOV_RECALL}")
    pr = r["precision"]
    p(f"precision                   {pr['precision']:.3f}  ({pr['correct']}/{pr['predictions']})   target >= {TARGET_PRECISION}"
      if pr["predictions"] else "precision                     n/a  (no NAME predictions)")
    fp = r["false_positives"]
    p(f"false positives             {fp['all']} ({fp['in_name_free_documents']} in name-free documents, "
      f"{fp['in_name_documents']} in name documents)")
    p("")
    p("recall by form:")
    for k, x in sorted(r["by_form"].items(), key=lambda kv: -kv[1]["total"]):
        p(f"  {k:<18} {fmt(x)}")
    if r["by_odd_char"]:
        p("recall by odd character: " + ", ".join(f"{k} {x['hit']}/{x['total']}" for k, x in r["by_odd_char"].items()))
    worst = sorted(r["by_locale"].items(), key=lambda kv: (kv[1]["hit"] / kv[1]["total"], -kv[1]["total"], kv[0]))[:10]
    p("lowest recall by locale: " + ", ".join(f"{k} {x['hit']}/{x['total']}" for k, x in worst))
    if r["hit_spans"]:
        p("hit spans: " + ", ".join(f"{k} {v}" for k, v in sorted(r["hit_spans"].items(), key=lambda kv: -kv[1])))
    n_miss = r["recall_all"]["total"] - r["recall_all"]["hit"]
    if n_miss:
        fa = r["missed_found_as"]
        p(f"missed: {n_miss}; of them {r['missed_with_partial_name']} partly covered by a NAME (key not covered)"
          + (", overlapped by " + ", ".join(f"{k} {v}" for k, v in sorted(fa.items(), key=lambda kv: -kv[1])) if fa else ""))
    p("")
    p(f"false positives by the placed non-name they overlap: "
      + ", ".join(f"{k} {v}" for k, v in fp["by_overlapped_kind"].items()))
    p(f"most frequent false-positive strings:")
    for s, c in fp["top"]:
        p(f"  {c:4d}  {s!r}")
    if n_misses and misses:
        p("")
        p(f"missed mentions (first {min(n_misses, len(misses))} of {len(misses)}):")
        for m, ts, partial in misses[:n_misses]:
            c = corpus[m["doc"]]
            ctx = (c[max(0, m["start"] - 40):m["start"]] + "[[" + m["text"] + "]]" + c[m["end"]:m["end"] + 30])
            note = ("; found as " + "/".join(ts)) if ts else ""
            note += "; partly as NAME" if partial else ""
            p(f"  {m['doc']} {m['form']:<15} {m['locale']:<6} {'iv' if m['_iv'] else 'oov'}  "
              f"{ctx.replace(chr(10), ' / ')!r}{note}")


if __name__ == "__main__":
    import signal

    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends quietly
    main()
