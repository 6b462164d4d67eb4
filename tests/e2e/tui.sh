#!/usr/bin/env bash
# End-to-end test of `clam review` in a real terminal (tmux), walking a first-time
# review: open sample_corpus, wait for `ready`, find the redaction set from the first
# screen (its title carries its key), accept a proposal, override the next with a
# reason, see the reason and the plan's diff, pin another, quit, reopen and check the
# decisions are restored, mark a gold chain and see F1 in the gold pane, then export
# to a `~` path and check the folder; then change theta_chain in the what-if pane,
# check the header's masked count changes, adopt it, and check reopening restores it.
# Usage: tests/e2e/tui.sh [path/to/clam]   (default: target/debug/clam, built if missing)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$(pwd)
clam=${1:-$root/target/debug/clam}
[ -x "$clam" ] || cargo build --quiet
# tmux runs clam from a scratch folder: a relative path must not depend on it.
case "$clam" in /*) ;; *) clam="$root/$clam" ;; esac
command -v tmux >/dev/null || { echo "error: tmux is required" >&2; exit 1; }

scratch=$(mktemp -d)
session="clam-e2e-$$"
cleanup() { tmux kill-session -t "$session" 2>/dev/null || true; rm -rf "$scratch"; }
trap cleanup EXIT
export XDG_CONFIG_HOME="$scratch/config" XDG_DATA_HOME="$scratch/data" XDG_CACHE_HOME="$scratch/cache"
# `~` in the export dialog is this folder.
export HOME="$scratch/home"
mkdir -p "$HOME"

screen() { tmux capture-pane -p -t "$session"; }
fail() { echo "FAIL: $1" >&2; echo "--- screen ---" >&2; screen >&2 || true; exit 1; }
# wait_for TEXT [SECONDS]: polls the screen instead of sleeping a fixed time.
wait_for() {
  local deadline=$((SECONDS + ${2:-20}))
  until screen | grep -qF -- "$1"; do
    [ $SECONDS -lt $deadline ] || fail "timed out waiting for: $1"
    sleep 0.1
  done
}
keys() { tmux send-keys -t "$session" "$@"; sleep 0.2; }
start() {
  tmux new-session -d -s "$session" -x 120 -y 36 -c "$scratch" \
    "env HOME='$HOME' XDG_CONFIG_HOME='$XDG_CONFIG_HOME' XDG_DATA_HOME='$XDG_DATA_HOME' XDG_CACHE_HOME='$XDG_CACHE_HOME' '$clam' --actor e2e review '$root/sample_corpus'"
  wait_for " ready " 60
}
stop() {
  keys q
  local deadline=$((SECONDS + 10))
  while tmux has-session -t "$session" 2>/dev/null; do
    [ $SECONDS -lt $deadline ] || fail "clam did not quit on q"
    sleep 0.1
  done
}

echo "== open sample_corpus, wait for ready"
start
screen | grep -qF "25 documents" || fail "header without the corpus figures"

echo "== find the redaction set from the first screen; accept, override with a reason, pin"
screen | grep -qF "3 review masks" || fail "the first screen does not say which key opens the redaction set"
keys 3                      # redaction set
wait_for "▶ [3] Redaction set"
keys a                      # accept the first proposal; the cursor moves to the next
wait_for "accepted: mask"
keys o
wait_for "Override: keep this entity"
keys Enter                  # an empty reason is refused
wait_for "a reason is required"
keys -l "already public in the news"
keys Enter
wait_for "overridden: keep"
screen | grep -qE "overridden: keep .*: \+[0-9]+ −[0-9]+ masks" || fail "the status line does not give the override's effect"
keys 6                      # the what-if pane lists what the decision changed
wait_for "last decision: overridden: keep"
screen | grep -qF "− keep" || fail "the plan's diff does not list the kept entity"
keys 3
keys t                      # every entity: the overridden one is kept, so listed here
wait_for "all entities"
keys /
keys -l "overridden"
keys Enter
wait_for "reason: already public in the news"
keys Escape                 # clear the filter
keys t                      # masked only again; the cursor is back on the accepted row
keys j
keys p
wait_for "pinned: mask"
stop

echo "== reopen: both decisions are restored"
start
keys 3
keys t                      # every entity, so the kept (overridden) one is listed too
wait_for "all entities"
screen | grep -qF "overridden" || fail "the override was not restored"
screen | grep -qF "pinned" || fail "the pin was not restored"
keys /
keys -l "accepted"
keys Enter
wait_for "/accepted"
screen | grep -qE "(accepted|stale) *│" || fail "the acceptance was not restored"
keys Escape

echo "== mark a gold chain and see chain F1 in the gold pane"
keys 7
wait_for "No gold chains yet"
keys 4
wait_for "▶ [4] Chains"
keys g
wait_for "gold chain:"
keys 7
wait_for "▶ [7] Gold chains 1 gold"
wait_for "F1 "

echo "== export to a ~ path"
keys e
wait_for "Export the redacted corpus"
keys C-u                    # clear the offered folder, as in readline
keys -l "~/exports/first-review"
keys Enter
wait_for "leak check passed" 60
screen | grep -qF "$HOME/exports/first-review" || fail "the dialog does not name the absolute folder written"
keys Escape
stop
out="$HOME/exports/first-review"
[ -d "$scratch/~" ] && fail "a literal ~ folder was created"
[ -f "$out/manifest.json" ] || fail "no manifest.json in $out"
[ -f "$out/redacted/claim_01.json" ] || fail "no redacted documents in $out"
grep -qF '"links"' "$out/gold_chains.json" || fail "no gold_chains.json in $out"
# Decompressed to a file first: `gzip -dc | grep -q` under pipefail fails when grep
# quits at the first match while gzip still writes (SIGPIPE) — the flake of issue 14's
# sessions.
gzip -dc "$out/tables/entities.jsonl.gz" > "$scratch/entities.jsonl"
grep -qF "already public in the news" "$scratch/entities.jsonl" || fail "the override's reason is not in the manifest"
grep -qF "already public in the news" "$out/report.md" || fail "the override's reason is not in report.md"
if grep -rqF "Hannah Brooks" "$out/redacted"; then fail "a masked name is in the export"; fi

echo "== what-if: theta_chain 0.5 → 0.4 changes the masked count; Enter adopts it"
start
masked() { screen | grep -oE '[0-9]+ masked' | head -1 | grep -oE '[0-9]+'; }
before=$(masked)
[ -n "$before" ] || fail "no masked count in the header"
keys 6
wait_for "▶ [6] What-if"
keys j j j j j              # edge_threshold → theta_chain
wait_for "▶ theta_chain"
keys =
wait_for "What-if: theta_chain"
keys BSpace BSpace BSpace BSpace BSpace
keys -l "0.4"
keys Enter
wait_for "what-if "
candidate=$(screen | grep -oE 'what-if [0-9]+' | head -1 | grep -oE '[0-9]+')
[ -n "$candidate" ] || fail "no candidate masked count in the header"
[ "$candidate" != "$before" ] || fail "theta_chain 0.4 did not change the masked count ($before)"
keys Enter
wait_for "adopted: theta_chain 0.5 → 0.4"
[ "$(masked)" = "$candidate" ] || fail "the adopted plan does not mask $candidate"
stop
start
[ "$(masked)" = "$candidate" ] || fail "reopening did not restore the adopted theta_chain"
keys 6
wait_for "▶ [6] What-if"
screen | grep -qE "theta_chain +0\.4 " || fail "the what-if pane does not show theta_chain 0.4 in effect"
stop
echo "== e2e passed"
