#!/usr/bin/env bash
# Builds and runs every cargo-fuzz target of fuzz/ for a bounded time each.
#
#   scripts/fuzz.sh [SECONDS]        (default 60 per target)
#
# Needs a nightly toolchain (rustup toolchain install nightly); installs cargo-fuzz
# from crates.io when it is missing. The committed seeds are in fuzz/seeds/<target>/;
# what the fuzzer finds grows fuzz/corpus/<target>/ (not committed). A crash is saved
# under fuzz/artifacts/<target>/ and stops the script with a non-zero exit code; turn
# each crash into a regression test in tests/hardening.rs.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
case "$seconds" in
  '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;;
esac
jobs="${CARGO_BUILD_JOBS:-1}"
export CARGO_BUILD_JOBS="$jobs"

if ! cargo +nightly --version >/dev/null 2>&1; then
  echo "error: the nightly toolchain is missing; run: rustup toolchain install nightly" >&2
  exit 1
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz"
  cargo install cargo-fuzz --locked -j "$jobs"
fi

targets=$(cargo fuzz list --fuzz-dir fuzz)
for t in $targets; do
  echo "== building $t"
  cargo +nightly fuzz build --fuzz-dir fuzz "$t"
done
for t in $targets; do
  echo "== fuzzing $t for ${seconds}s"
  mkdir -p "fuzz/corpus/$t"
  # -rss_limit_mb guards against inputs that blow up memory; -max_len keeps the
  # inputs small enough for short runs to explore.
  cargo +nightly fuzz run --fuzz-dir fuzz "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=4096 -timeout=10
done
echo "== fuzzing finished without a crash"
