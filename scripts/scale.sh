#!/usr/bin/env bash
# End-to-end scale measurement: generates corpora with `clam gen-corpus` and times
# `clam run` (load → extract → analyse → plan → export with the leak check, offline
# extractor) at each size and chain length, printing a Markdown table of wall time,
# peak memory (max RSS) and the per-phase times clam reports with CLAM_TIMINGS=1.
#
#   scripts/scale.sh [SIZES...]          (default: 1000 10000 100000)
#   CHAIN_LENGTHS="2 3" SEED=1 SKIP_BUILD=1 scripts/scale.sh 10000
#
# Corpora and outputs go to ${SCALE_DIR:-/tmp/clam-scale} (never into the repository);
# a corpus already there is reused. Needs GNU time (/usr/bin/time). The machine's load
# (uptime) is printed before each run: measure on a quiet machine.
set -euo pipefail
cd "$(dirname "$0")/.."

sizes=("$@")
[ "${#sizes[@]}" -gt 0 ] || sizes=(1000 10000 100000)
chain_lengths="${CHAIN_LENGTHS:-2 3}"
seed="${SEED:-1}"
dir="${SCALE_DIR:-/tmp/clam-scale}"
clam="target/release/clam"

if [ ! -x /usr/bin/time ]; then
  echo "error: GNU time (/usr/bin/time) is missing (apt-get install time)" >&2
  exit 1
fi
if [ -z "${SKIP_BUILD:-}" ]; then
  cargo build --release --quiet
fi
mkdir -p "$dir"

rows=()
for n in "${sizes[@]}"; do
  corpus="$dir/g$n"
  if [ ! -f "$corpus/corpus.jsonl" ]; then
    "$clam" gen-corpus --docs "$n" --seed "$seed" --out "$corpus" --force >/dev/null
  fi
  for len in $chain_lengths; do
    out="$dir/x$n-$len"
    session="$dir/s$n-$len.db"
    rm -rf "$out" "$session" "$session-wal" "$session-shm"
    echo "== $n documents, chain_length $len; load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    set +e
    CLAM_TIMINGS=1 /usr/bin/time -v -o "$dir/time.txt" "$clam" run "$corpus/corpus.jsonl" \
      --out "$out" --session "$session" --chain-length "$len" 2>"$dir/stderr.txt" >/dev/null
    code=$?
    set -e
    if [ "$code" -ne 0 ]; then
      echo "error: clam run exited $code" >&2
      cat "$dir/stderr.txt" >&2
      exit 1
    fi
    wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' "$dir/time.txt")
    rss_kb=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$dir/time.txt")
    # Top-level phases only ("timing: NAME=SECONDS rss=… peak=…"), without memory.
    phases=$(sed -n 's/^timing: \([a-z]*=[0-9.]*\) .*/\1/p' "$dir/stderr.txt" | paste -sd' ' -)
    # Export sizes: redacted/ and everything else (manifest, tables, report, log).
    redacted_mb=$(du -sk "$out/redacted" | awk '{printf "%.1f", $1 / 1024}')
    rest_mb=$(du -sk --exclude=redacted "$out" | awk '{printf "%.1f", $1 / 1024}')
    chains=$(grep -o 'unmasked [0-9/]* → masked [0-9/]*' "$dir/stderr.txt" | head -n1 || true)
    cap=$(grep -q 'chain cap hit' "$dir/stderr.txt" && echo "cap hit" || echo "")
    rows+=("| $n | $len | $wall | $((rss_kb / 1024)) MB | ${redacted_mb} MB | ${rest_mb} MB | $phases | ${chains#unmasked } $cap |")
    echo "${rows[-1]}" >&2
  done
done
echo
echo "| documents | chain_length | wall time | peak memory (max RSS) | redacted/ | rest of the export | phases (s) | chains H/M before → after |"
echo "|---:|---:|---:|---:|---:|---:|---|---|"
printf '%s\n' "${rows[@]}"
