#!/usr/bin/env bash
# GPU check of the vllm backend: install the GPU requirements, generate over a few items of the
# offline fixture dataset with a small public instruct model, and print the throughput.
# Meant for one GPU (e.g. an H200) and well under 8 minutes; needs PyPI, and the Hugging Face Hub
# for the model unless GPU_CHECK_MODEL names a local folder.
#
#   bash bench/gpu_check.sh
#
# Settings (environment): GPU_CHECK_MODEL (default Qwen/Qwen2.5-0.5B-Instruct),
# GPU_CHECK_ITEMS items per config (default 16, three configs), GPU_CHECK_MAX_TOKENS (default 1024),
# GPU_CHECK_VENV (default /tmp/wb-gpu-venv, reused between runs), OUT (if set, results are copied there).
set -euo pipefail
cd "$(dirname "$0")/.."

MODEL="${GPU_CHECK_MODEL:-Qwen/Qwen2.5-0.5B-Instruct}"
ITEMS="${GPU_CHECK_ITEMS:-16}"
MAX_TOKENS="${GPU_CHECK_MAX_TOKENS:-1024}"
VENV="${GPU_CHECK_VENV:-/tmp/wb-gpu-venv}"
WORK="$(mktemp -d /tmp/wb-gpu-check.XXXXXX)"
PY="$VENV/bin/python"

step() { printf '\n== %s (%ss)\n' "$1" "$SECONDS"; }
fail() { printf 'gpu_check: %s\n' "$1" >&2; exit "${2:-1}"; }

step "GPU"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader \
  || fail "no NVIDIA GPU visible (nvidia-smi failed): the vllm backend needs one"

if python3 -c 'import vllm' 2>/dev/null; then
  step "vllm is already installed: using the machine's python3"
  PY=python3
else
  step "install requirements-gpu.txt and the engine's requirements into $VENV"
  [ -x "$PY" ] || python3 -m venv "$VENV" || fail "cannot create a virtual environment at $VENV"
  # The engine without the web app (gradio) and without the CPU torch pin: vllm brings its torch.
  grep -v -E '^(torch|gradio)==' requirements.txt > "$WORK/engine-requirements.txt"
  timeout 300 "$PY" -m pip install --quiet --disable-pip-version-check \
      -r requirements-gpu.txt -r "$WORK/engine-requirements.txt" \
    || fail "pip install failed or took over 5 minutes: this machine needs PyPI, or vllm preinstalled \
(a GPU machine with no network must carry vllm and its dependencies as wheels)" 4
fi
"$PY" -c 'import torch, vllm; print(f"vllm {vllm.__version__}, torch {torch.__version__}, cuda {torch.cuda.is_available()}")'

step "fixture dataset (3 configs x $ITEMS items)"
"$PY" - "$WORK/dataset" "$ITEMS" <<'PY'
import sys
from pathlib import Path

from tests.support.hub_dataset import DatasetShape, write_writing_bench_dataset

n = int(sys.argv[2])
shape = DatasetShape(configs={"Hindi": n, "Tamil": n, "english_original": n}, query_chars=4000)
print(write_writing_bench_dataset(Path(sys.argv[1]), shape))
PY

step "model $MODEL"
if [ -d "$MODEL" ]; then
  MODEL_DIR="$MODEL"
else
  MODEL_DIR="$("$PY" - "$MODEL" <<'PY'
import sys

from huggingface_hub import snapshot_download

print(snapshot_download(sys.argv[1], allow_patterns=["*.json", "*.safetensors", "*.txt", "*.model", "*.jinja"]))
PY
)" || fail "could not download $MODEL from the Hugging Face Hub: this machine may have no Hub access; \
set GPU_CHECK_MODEL to a local model folder" 3
fi
echo "$MODEL_DIR"

step "generate with vllm"
RUN="$WORK/run"
ARGS=(generate --backend vllm --model "$MODEL_DIR" --dataset "$WORK/dataset" --out-dir "$RUN"
      --limit "$ITEMS" --max-tokens "$MAX_TOKENS" --max-model-len 8192 --gpu-memory-utilization 0.85)
if ! timeout 300 "$PY" -m eval_backend "${ARGS[@]}" > "$WORK/generate.log" 2>&1; then
  tail -40 "$WORK/generate.log"
  fail "generate failed (log: $WORK/generate.log)"
fi
grep -E 'eval_backend|^generated|error' "$WORK/generate.log" | tail -15

step "responses"
"$PY" - "$RUN/responses.jsonl" <<'PY'
import collections
import json
import sys

rows = [json.loads(line) for line in open(sys.argv[1], encoding="utf-8")]
finish = collections.Counter(row["finish_reason"] for row in rows)
errors = [row for row in rows if row["error"]]
tokens = sum(row["output_tokens"] or 0 for row in rows)
print(f"{len(rows)} responses, finish reasons {dict(finish)}, {len(errors)} errors, {tokens} output tokens")
print("first answer:", (rows[0]["response"] or rows[0]["error"])[:300].replace("\n", " "))
PY

step "resume: a second generate must generate nothing"
"$PY" -m eval_backend "${ARGS[@]}" > "$WORK/resume.log" 2>&1 || { tail -20 "$WORK/resume.log"; fail "resume failed"; }
grep -E '^generated' "$WORK/resume.log"

step "batch invariance: the same items at batch sizes 1 and 64 must give the same replies"
# Each request carries its own seed, so with batch-invariant kernels only the batch differs.
for SIZE in 1 64; do
  timeout 300 "$PY" -m eval_backend generate --backend vllm --model "$MODEL_DIR" --dataset "$WORK/dataset" \
    --out-dir "$WORK/greedy-$SIZE" --limit "$ITEMS" --max-tokens "$MAX_TOKENS" --max-model-len 8192 \
    --gpu-memory-utilization 0.85 --batch-size "$SIZE" > "$WORK/greedy-$SIZE.log" 2>&1 \
    || { tail -20 "$WORK/greedy-$SIZE.log"; fail "generate at batch size $SIZE failed"; }
done
"$PY" - "$WORK/greedy-1/responses.jsonl" "$WORK/greedy-64/responses.jsonl" <<'PY' || fail "batch invariance failed"
import json
import sys

one, many = ({(r["config"], r["index"]): r for r in map(json.loads, open(path, encoding="utf-8"))} for path in sys.argv[1:])
modes = {r["generation"]["decoding_mode"] for r in [*one.values(), *many.values()]}
changed = [key for key in one if one[key]["response"] != many[key]["response"]]
print(f"decoding_mode {sorted(modes)}; {len(changed)} of {len(one)} replies differ between batch 1 and 64")
sys.exit(1 if modes == {"batch-invariant"} and changed else 0)
PY

if [ -n "${OUT:-}" ]; then cp "$RUN/responses.jsonl" "$RUN/request.json" "$WORK/generate.log" "$OUT/"; fi
step "done"
