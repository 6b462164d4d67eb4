#!/usr/bin/env bash
# The direct-identifier leak benchmark (issue 14's first target): `clam run` with the
# defaults on tests/data/leak_bench/corpus.jsonl, then scripts/leak_bench.py looks for
# every gold direct identifier in the redacted documents, as an attacker would.
#
#   scripts/leak_bench.sh [EVALUATOR OPTIONS]     e.g. --json, --misses 40, --check
#   LEAK_BENCH=tests/data/leak_bench_heldout scripts/leak_bench.sh
#
# $LEAK_BENCH picks the set (written by scripts/gen_leak_bench.py): tests/data/leak_bench
# (seed 18) is the one to tune on, tests/data/leak_bench_heldout (seed 19) the held-out
# one to report. The binary is $CLAM if set, else $CARGO_TARGET_DIR/release/clam; it is
# not built here. clam runs with an empty user config directory, so a clam.toml in
# ~/.config/clam cannot change the figures.
set -euo pipefail

# shellcheck source=scripts/bench_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench_setup.sh"
bench_setup leak_bench.sh LEAK_BENCH tests/data/leak_bench

XDG_CONFIG_HOME="$tmp/config" "$clam" run "$bench/corpus.jsonl" --out "$tmp/export" \
    --quiet >"$tmp/run.log" 2>&1 || {
    echo "leak_bench.sh: clam run failed:" >&2
    cat "$tmp/run.log" >&2
    exit 1
}
echo "extractor: $("$clam" --version) ($clam); clam run: $(grep -ci 'leak check passed' "$tmp/run.log" >/dev/null && echo 'leak check passed' || tail -1 "$tmp/run.log")"
python3 "$root/scripts/leak_bench.py" "$bench" "$tmp/export/redacted/corpus.jsonl" "$@"
