#!/usr/bin/env bash
# Time from starting `clam review` to its first frame and to `ready`, in tmux, minus
# the time tmux itself takes to show a trivial command's output (the baseline).
#
#   scripts/first-frame.sh [CORPUS] [RUNS]     (default: sample_corpus, 5 runs)
#
# Uses target/release/clam (built if missing). The session goes to a scratch folder.
set -euo pipefail
cd "$(dirname "$0")/.."
corpus=$(cd "${1:-sample_corpus}" && pwd)
runs=${2:-5}
command -v tmux >/dev/null || { echo "error: tmux is required" >&2; exit 1; }
[ -x target/release/clam ] || cargo build --release --quiet
clam=$(pwd)/target/release/clam
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
ms() { echo $(( ($2 - $1) / 1000000 )); }
wait_for() { until tmux capture-pane -p -t "$1" 2>/dev/null | grep -qF -- "$2"; do sleep 0.005; done; }

s=ff-base-$$
t0=$(date +%s%N)
tmux new-session -d -s "$s" -x 120 -y 36 "echo tmux-is-up; sleep 5"
wait_for "$s" tmux-is-up
base=$(ms "$t0" "$(date +%s%N)")
tmux kill-session -t "$s"
echo "tmux baseline: ${base} ms (subtracted below)"
for i in $(seq 1 "$runs"); do
  rm -rf "$scratch/data"
  s=ff-$$-$i
  t0=$(date +%s%N)
  tmux new-session -d -s "$s" -x 120 -y 36 -c "$scratch" \
    "env XDG_CONFIG_HOME='$scratch/config' XDG_DATA_HOME='$scratch/data' XDG_CACHE_HOME='$scratch/cache' '$clam' review '$corpus'"
  wait_for "$s" "clam review"
  t1=$(date +%s%N)
  wait_for "$s" " ready "
  t2=$(date +%s%N)
  tmux kill-session -t "$s"
  echo "run $i: first frame $(( $(ms "$t0" "$t1") - base )) ms, ready $(( $(ms "$t0" "$t2") - base )) ms"
done
