#!/usr/bin/env bash
# Builds and runs every cargo-fuzz target of fuzz/ for a bounded time each.
#
#   scripts/fuzz.sh [SECONDS [TARGET...]]   (default 60 s per target, every target)
#
# Uses the nightly toolchain when it is installed; otherwise the stable one with
# RUSTC_BOOTSTRAP=1, which lets stable rustc accept the -Z flags cargo-fuzz passes
# (sanitizer, coverage instrumentation). Installs cargo-fuzz from crates.io when it
# is missing. FUZZ_TOOLCHAIN=stable uses the stable path even where nightly exists.
# The committed seeds are in fuzz/seeds/<target>/; what the fuzzer finds grows
# fuzz/corpus/<target>/ (not committed). A crash is saved
# under fuzz/artifacts/<target>/ and stops the script with a non-zero exit code; turn
# each crash into a regression test in tests/hardening/fuzz.rs.
set -euo pipefail
cd "$(dirname "$0")/.."

seconds="${1:-60}"
case "$seconds" in
  '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS [TARGET...]]" >&2; exit 2 ;;
esac
jobs="${CARGO_BUILD_JOBS:-1}"
export CARGO_BUILD_JOBS="$jobs"

toolchain=()
# FUZZ_TOOLCHAIN=stable forces the stable path even where nightly is installed.
if [ "${FUZZ_TOOLCHAIN:-}" != stable ] && cargo +nightly --version >/dev/null 2>&1; then
  toolchain=(+nightly)
  echo "== toolchain: nightly ($(cargo +nightly --version))"
else
  export RUSTC_BOOTSTRAP=1
  echo "== toolchain: $(cargo --version) with RUSTC_BOOTSTRAP=1"
fi
if ! cargo fuzz --version >/dev/null 2>&1; then
  echo "== installing cargo-fuzz"
  cargo install cargo-fuzz --locked -j "$jobs"
fi

if [ "$#" -gt 1 ]; then
  targets="${*:2}"                 # scripts/fuzz.sh SECONDS TARGET... runs only those
else
  targets=$(cargo fuzz list --fuzz-dir fuzz)
fi
for t in $targets; do
  echo "== building $t"
  cargo "${toolchain[@]}" fuzz build --fuzz-dir fuzz "$t"
done
for t in $targets; do
  echo "== fuzzing $t for ${seconds}s"
  mkdir -p "fuzz/corpus/$t"
  # -rss_limit_mb guards against inputs that blow up memory; -max_len keeps the
  # inputs small enough for short runs to explore.
  cargo "${toolchain[@]}" fuzz run --fuzz-dir fuzz "$t" "fuzz/corpus/$t" "fuzz/seeds/$t" -- \
    -max_total_time="$seconds" -rss_limit_mb=2048 -max_len=4096 -timeout=10
done
echo "== fuzzing finished without a crash"
