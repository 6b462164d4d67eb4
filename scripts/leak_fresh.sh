#!/usr/bin/env bash
# A fresh leak-benchmark set of every layout family for one seed, to measure the
# extractor on documents nobody has read (docs/extraction.md, "Sixth round"):
#
#   scripts/leak_fresh.sh SEED [OUT]        default OUT: /tmp/fresh_sSEED
#   LEAK_BENCH=/tmp/fresh_sSEED scripts/leak_bench.sh
#
# Runs scripts/gen_leak_bench.py once per family (a … j) with SEED into a scratch
# folder and merges the ten sets into OUT/corpus.jsonl and OUT/gold.jsonl, each
# document id prefixed with its family ("e_clinical_0021"). The faker virtual
# environment is kept in $LEAK_VENV (default /tmp/clam-leak-venv) between runs.
set -euo pipefail

seed=${1:?usage: scripts/leak_fresh.sh SEED [OUT]}
out=${2:-/tmp/fresh_s$seed}
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
venv=${LEAK_VENV:-/tmp/clam-leak-venv}
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

rm -rf "$out"
mkdir -p "$out"
for family in a b c d e f g h i j; do
    python3 "$root/scripts/gen_leak_bench.py" --seed "$seed" --layouts "$family" \
        --out "$scratch/$family" --venv "$venv" >/dev/null
    python3 - "$scratch/$family" "$family" "$out" <<'PY'
import json
import sys

src, family, out = sys.argv[1:]
for name, key in (("corpus.jsonl", "id"), ("gold.jsonl", "doc")):
    with open(f"{src}/{name}", encoding="utf-8") as f, \
            open(f"{out}/{name}", "a", encoding="utf-8") as g:
        for line in f:
            row = json.loads(line)
            row[key] = f"{family}_{row[key]}"
            g.write(json.dumps(row, ensure_ascii=False) + "\n")
PY
done
echo "wrote $(wc -l <"$out/corpus.jsonl") documents and $(wc -l <"$out/gold.jsonl") gold identifiers to $out"
