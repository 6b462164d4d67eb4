#!/usr/bin/env bash
# The names benchmark (issue 14, item 5): run the release binary's offline extractor on
# tests/data/names_bench/corpus.jsonl and score the snapshot with scripts/names_bench.py.
#
#   scripts/names_bench.sh [EVALUATOR OPTIONS]     e.g. --json, --misses 40, --check
#   NAMES_BENCH=tests/data/names_bench_heldout scripts/names_bench.sh
#
# $NAMES_BENCH picks the set (a folder written by scripts/gen_names_bench.py; relative to
# the repository root or absolute): tests/data/names_bench (default, seed 14) is the one
# to tune on, tests/data/names_bench_heldout (seed 15) the held-out one to report.
# The binary is $CLAM if set, else $CARGO_TARGET_DIR/release/clam (CARGO_TARGET_DIR
# defaults to ./target); it is not built here: `cargo build --release` first.
# The extractor runs with an empty user config directory (XDG_CONFIG_HOME), so a
# clam.toml in ~/.config/clam cannot change the figures; pass a config on purpose with
# CLAM_EXTRACT_ARGS="--config FILE". Extra arguments go to the evaluator; with --check
# the exit code is 1 when the issue's targets (out-of-vocabulary recall >= 0.95,
# precision >= 0.95) are not met.
set -euo pipefail

# shellcheck source=scripts/bench_setup.sh
. "$(dirname "${BASH_SOURCE[0]}")/bench_setup.sh"
bench_setup names_bench.sh NAMES_BENCH tests/data/names_bench

# shellcheck disable=SC2086 # CLAM_EXTRACT_ARGS is split on purpose
XDG_CONFIG_HOME="$tmp/config" "$clam" extract "$bench/corpus.jsonl" --out "$tmp/snapshot.json" \
    ${CLAM_EXTRACT_ARGS:-} >"$tmp/extract.log" 2>&1 || {
    echo "names_bench.sh: clam extract failed:" >&2
    cat "$tmp/extract.log" >&2
    exit 1
}
echo "extractor: $("$clam" --version) ($clam)"
python3 "$root/scripts/names_bench.py" "$bench" "$tmp/snapshot.json" "$@"
