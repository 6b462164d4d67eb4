#!/usr/bin/env python3
"""Score the direct-identifier leak benchmark (scripts/gen_leak_bench.py).

    python3 scripts/leak_bench.py BENCH_DIR REDACTED_JSONL [--misses N] [--json] [--check]

Looks for every gold identifier of BENCH_DIR/gold.jsonl in the redacted document of the
same id, as an attacker reading the export would, independently of clam's own leak
check:
  - NAME: the full name in either order ("Given Surname", "Surname, Given", "Surname
    Given"), case-insensitively with spaces collapsed, is a leak; the surname alone as
    a whole word is a partial leak;
  - ADDRESS: the street line (number and street), case-insensitively;
  - EMAIL: the address, case-insensitively;
  - PHONE_NUMBER: the last 7 digits of the number (before an extension) among the
    document's digits read as one string;
  - PATIENT_ID: the id's letters and digits among the document's letters and digits.
With --check the exit code is 1 when any identifier leaks whole.
"""
import argparse
import json
import re
import sys
import unicodedata


def fold(s):
    # An attacker reads past invisible format characters (zero-width spaces, joiners).
    s = "".join(c for c in s if unicodedata.category(c) != "Cf")
    s = unicodedata.normalize("NFKC", s).casefold()
    return re.sub(r"\s+", " ", s)


def alnum(s):
    return re.sub(r"[^0-9a-z]", "", fold(s))


def digits(s):
    return re.sub(r"[^0-9]", "", s)


def leaked(g, text):
    t = fold(text)
    v = g["value"]
    if g["type"] == "NAME":
        parts = v.split(" ", 1)
        forms = {fold(v)}
        sur = g["parts"][0] if g["parts"] else parts[-1]
        given = v[: -len(sur)].strip() if v.endswith(sur) else v[len(sur):].strip()
        forms |= {fold(f"{sur}, {given}"), fold(f"{sur} {given}"), fold(f"{given} {sur}")}
        if any(f in t for f in forms):
            return "whole"
        if re.search(r"(?<!\w)" + re.escape(fold(sur)) + r"(?!\w)", t):
            return "part"
        return None
    if g["type"] in ("ADDRESS", "EMAIL"):
        return "whole" if fold(v) in t else None
    if g["type"] == "PHONE_NUMBER":
        d = digits(re.split(r"x|ext", v, flags=re.I)[0])[-7:]
        return "whole" if d and d in digits(text) else None
    a = alnum(v)
    return "whole" if a and a in alnum(text) else None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("bench")
    ap.add_argument("redacted")
    ap.add_argument("--misses", type=int, default=15)
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    docs = {}
    with open(args.redacted, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                docs[d["id"]] = d["content"]
    gold = [json.loads(line) for line in open(f"{args.bench}/gold.jsonl", encoding="utf-8") if line.strip()]
    per, leaks = {}, []
    for g in gold:
        text = docs.get(g["doc"])
        if text is None:
            print(f"leak_bench.py: document {g['doc']} missing from {args.redacted}", file=sys.stderr)
            return 2
        r = leaked(g, text)
        row = per.setdefault(g["type"], {"gold": 0, "whole": 0, "part": 0})
        row["gold"] += 1
        if r:
            row[r] += 1
            leaks.append({**g, "leak": r, "text": text})
    total = {k: sum(r[k] for r in per.values()) for k in ("gold", "whole", "part")}
    if args.json:
        print(json.dumps({"types": per, "total": total,
                          "leaks": [{k: l[k] for k in ("doc", "type", "value", "leak")} for l in leaks]},
                         indent=2, sort_keys=True))
    else:
        print(f"{'type':<14}{'gold':>6}{'leaked':>8}{'partly':>8}")
        for t, r in sorted(per.items()):
            print(f"{t:<14}{r['gold']:>6}{r['whole']:>8}{r['part']:>8}")
        print(f"{'all':<14}{total['gold']:>6}{total['whole']:>8}{total['part']:>8}")
        for l in leaks[: args.misses]:
            ctx = l["text"].replace("\n", " | ")
            print(f"  {l['leak']:<5} {l['doc']} {l['type']} {l['value']!r}: {ctx[:200]}")
    return 1 if args.check and total["whole"] else 0


if __name__ == "__main__":
    sys.exit(main())
