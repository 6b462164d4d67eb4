#!/usr/bin/env bash
# Whole-command extraction speed: times `clam extract CORPUS --out SNAPSHOT` from start
# to exit (process start, loading the vocabularies, reading the corpus, extraction on one
# core or all, writing the snapshot) and reports MB of document text per second, on one
# thread (RAYON_NUM_THREADS=1) and on every core, as a Markdown table.
#
#   scripts/extract_speed.sh                 (the devset ×100 and a generated corpus)
#   RUNS=7 COPIES=100 GEN_DOCS=20000 SKIP_BUILD=1 scripts/extract_speed.sh
#   CLAM=/tmp/clam-old SKIP_BUILD=1 scripts/extract_speed.sh    (another build, to compare)
#
# Corpora: the devset (../shared/devset/corpus, 46 documents, 28 KB of text) copied
# COPIES times with suffixed ids (default 100: 4,600 files, 2.8 MB, the size issue 18
# measured), and `clam gen-corpus --docs GEN_DOCS` (0 skips it). Each figure is the
# median of RUNS runs (default 5) after one warm-up run, so the files are in the page
# cache. Files go to ${SPEED_DIR:-/tmp/clam-extract-speed}, never into the repository.
# The machine's load is printed: measure on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

runs="${RUNS:-5}"
copies="${COPIES:-100}"
gen_docs="${GEN_DOCS:-10000}"
dir="${SPEED_DIR:-/tmp/clam-extract-speed}"
target="${CARGO_TARGET_DIR:-target}"
clam="${CLAM:-$target/release/clam}"
devset="../shared/devset/corpus"
cores="$(nproc)"

if [ -z "${SKIP_BUILD:-}" ]; then
  cargo build --release --quiet
fi
mkdir -p "$dir"

corpora=()
if [ -d "$devset" ]; then
  copy="$dir/devset-x$copies"
  if [ ! -d "$copy" ]; then
    python3 scripts/devset_copies.py "$devset" "$copy" "$copies"
  fi
  corpora+=("$copy")
else
  echo "note: $devset not found; only the generated corpus is measured" >&2
fi
if [ "$gen_docs" -gt 0 ]; then
  gen="$dir/gen$gen_docs"
  if [ ! -f "$gen/corpus.jsonl" ]; then
    "$clam" gen-corpus --docs "$gen_docs" --out "$gen" --force >/dev/null
  fi
  corpora+=("$gen/corpus.jsonl")
fi

# Bytes of document text (the `content` fields) and documents of a corpus.
text_size() {
  python3 - "$1" <<'PY'
import json, pathlib, sys
p = pathlib.Path(sys.argv[1])
docs = [json.loads(l) for l in p.open(encoding="utf-8") if l.strip()] if p.is_file() \
    else [json.loads(f.read_text(encoding="utf-8")) for f in p.glob("*.json")]
print(sum(len(d["content"].encode("utf-8")) for d in docs), len(docs))
PY
}

# Median wall seconds of RUNS runs of `clam extract` with RAYON_NUM_THREADS=$2.
median_seconds() {
  local corpus="$1" threads="$2" out="$dir/snapshot.json" times=()
  RAYON_NUM_THREADS="$threads" "$clam" extract "$corpus" --out "$out" --force 2>/dev/null
  for _ in $(seq "$runs"); do
    local start end
    start=$(date +%s%N)
    RAYON_NUM_THREADS="$threads" "$clam" extract "$corpus" --out "$out" --force 2>/dev/null
    end=$(date +%s%N)
    times+=("$(( (end - start) / 1000 ))")
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m/1e6}'
}

echo "clam $(git rev-parse --short HEAD 2>/dev/null || echo '?'), $cores cores, load $(cut -d' ' -f1-3 /proc/loadavg), median of $runs runs" >&2
echo "| corpus | documents | text | threads | wall time | throughput |"
echo "|---|---:|---:|---:|---:|---:|"
for corpus in "${corpora[@]}"; do
  read -r bytes docs < <(text_size "$corpus")
  for threads in 1 "$cores"; do
    secs=$(median_seconds "$corpus" "$threads")
    awk -v c="$(basename "$corpus")" -v d="$docs" -v b="$bytes" -v t="$threads" -v s="$secs" \
      'BEGIN { printf "| %s | %d | %.2f MB | %d | %.3f s | %.1f MB/s |\n", c, d, b/1e6, t, s, b/1e6/s }'
  done
done
