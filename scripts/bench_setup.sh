# Sourced by scripts/names_bench.sh and scripts/leak_bench.sh: the benchmark folder, the
# release binary and a scratch folder with an empty user configuration.
#
#   bench_setup NAME ENV_VAR DEFAULT_SET
#
# sets $root (the repository), $bench (the set: $ENV_VAR, relative to the repository or
# absolute, else DEFAULT_SET), $clam ($CLAM, else $CARGO_TARGET_DIR/release/clam) and
# $tmp (removed on exit; $tmp/config is an empty XDG_CONFIG_HOME, so a clam.toml in
# ~/.config/clam cannot change the figures). Exits 1 with a message naming NAME when the
# set or the binary is missing.
bench_setup() {
    local name="$1" var="$2" default="$3"
    root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
    bench="${!var:-$default}"
    [[ "$bench" == /* ]] || bench="$root/$bench"
    if [[ ! -f "$bench/corpus.jsonl" ]]; then
        echo "$name: no corpus.jsonl in $bench ($var)" >&2
        exit 1
    fi
    clam="${CLAM:-${CARGO_TARGET_DIR:-$root/target}/release/clam}"
    if [[ ! -x "$clam" ]]; then
        echo "$name: no release binary at $clam (cargo build --release, or set CLAM)" >&2
        exit 1
    fi
    tmp="$(mktemp -d "${TMPDIR:-/tmp}/clam-bench.XXXXXX")"
    # shellcheck disable=SC2064 # $tmp is expanded now, on purpose
    trap "rm -rf '$tmp'" EXIT
    mkdir "$tmp/config"
}
