#!/usr/bin/env bash
# clam's extraction speed beside Presidio's, in one run on the same files (issue 18's
# anchor): Presidio's pattern-only analysis (every predefined English recognizer that
# needs no NLP model, called on each document's text) against `clam extract` as a whole command.
#
#   scripts/presidio_anchor.sh                     (the devset ×100: 4,600 files, 2.8 MB)
#   COPIES=20 SKIP_BUILD=1 scripts/presidio_anchor.sh
#
# Presidio is installed from PyPI, pinned (presidio-analyzer==2.2.358, MIT), into a
# virtual environment under ${PRESIDIO_VENV:-/tmp/clam-presidio-venv}; nothing is
# installed into the system or the repository. Both sides read the same files from the
# page cache after one warm-up run each. Presidio's figure is its analysis time only
# (after import and recognizer set-up), so it is an upper bound of its speed; clam's
# is the whole command (process start, vocabularies, reading, extraction on every
# core, writing the snapshot). Measure on a quiet machine: the load is printed.
set -euo pipefail
cd "$(dirname "$0")/.."

copies="${COPIES:-100}"
dir="${SPEED_DIR:-/tmp/clam-extract-speed}"
venv="${PRESIDIO_VENV:-/tmp/clam-presidio-venv}"
target="${CARGO_TARGET_DIR:-target}"
clam="${CLAM:-$target/release/clam}"
devset="../shared/devset/corpus"
presidio_version="2.2.358"

if [ ! -d "$devset" ]; then
  echo "error: $devset not found (../shared must sit beside the repository)" >&2
  exit 1
fi
if [ -z "${SKIP_BUILD:-}" ]; then
  cargo build --release --quiet
fi
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
if ! "$venv/bin/python" -c "import presidio_analyzer" 2>/dev/null; then
  "$venv/bin/pip" install --quiet "presidio-analyzer==$presidio_version"
fi

copy="$dir/devset-x$copies"
if [ ! -d "$copy" ]; then
  python3 scripts/devset_copies.py "$devset" "$copy" "$copies"
fi

echo "load: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
presidio=$("$venv/bin/python" - "$copy" <<'PY'
import json, pathlib, sys, time, inspect, logging
logging.disable(logging.WARNING)
from presidio_analyzer import PatternRecognizer, predefined_recognizers as pr

texts = [json.loads(p.read_text(encoding="utf-8"))["content"]
         for p in sorted(pathlib.Path(sys.argv[1]).glob("*.json"))]
size = sum(len(t.encode("utf-8")) for t in texts)
recognizers = []
for name, cls in inspect.getmembers(pr, inspect.isclass):
    if issubclass(cls, PatternRecognizer) and cls is not PatternRecognizer:
        try:
            r = cls()
        except Exception:
            continue  # a recognizer that needs arguments or a model is not pattern-only
        # The English analyzer's set, as AnalyzerEngine(language="en") loads it.
        if r.supported_language == "en":
            recognizers.append(r)

def run():
    found = 0
    for t in texts:
        for r in recognizers:
            found += len(r.analyze(t, r.supported_entities, None))
    return found

run()  # warm-up: compiled patterns, caches
start = time.perf_counter()
found = run()
secs = time.perf_counter() - start
print(f"{size / secs / 1e6:.3f} {secs:.2f} {len(recognizers)} {found} {size}")
PY
)
read -r p_rate p_secs p_recognizers p_found size <<<"$presidio"

snap="$dir/anchor-snapshot.json"
"$clam" extract "$copy" --out "$snap" --force --quiet >/dev/null 2>&1 # warm-up
start=$(date +%s.%N)
"$clam" extract "$copy" --out "$snap" --force --quiet >/dev/null 2>&1
end=$(date +%s.%N)
c_secs=$(python3 -c "print(f'{$end - $start:.2f}')")
c_rate=$(python3 -c "print(f'{$size / ($end - $start) / 1e6:.2f}')")
ratio=$(python3 -c "print(f'{($size / ($end - $start)) / ($p_rate * 1e6):.0f}')")

echo "| on the devset ×$copies ($size bytes of text) | time | MB/s |"
echo "|---|---:|---:|"
echo "| Presidio $presidio_version, $p_recognizers pattern recognizers, analysis only | $p_secs s | $p_rate |"
echo "| \`clam extract\`, whole command, every core | $c_secs s | $c_rate |"
echo
echo "clam / Presidio: ${ratio}×"
