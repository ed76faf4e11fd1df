#!/bin/bash
# Serve an audio model with vLLM's OpenAI-compatible server for eartest, and print the eartest
# command that matches it. Written against vLLM 0.11 (flags as documented there; not run on
# this project's CPU-only CI, where tests drive the same eartest command against a fake server).
#
#   scripts/vllm/serve.sh qwen2-audio            # Qwen/Qwen2-Audio-7B-Instruct
#   scripts/vllm/serve.sh qwen2.5-omni           # Qwen/Qwen2.5-Omni-7B, the thinker (text out)
#   scripts/vllm/serve.sh --dry-run qwen2-audio  # print both commands, start nothing
#
# Settings (environment):
#   VLLM_MODEL        a local path or hub id instead of the preset's
#   VLLM_PORT         port (default 8000)          VLLM_HOST  host (default 127.0.0.1)
#   VLLM_TP           tensor-parallel size: GPUs one copy of the model spans (default 1)
#   VLLM_DP           data-parallel size: copies of the model, each on VLLM_TP GPUs (default 1)
#   VLLM_MAX_SEQS     --max-num-seqs, sequences batched at once per copy (default 64)
#   VLLM_MAX_LEN      --max-model-len (default 8192: few-shot prompts carry several clips)
#   VLLM_AUDIO_LIMIT  audio clips per prompt (default 8: a few-shot core trial has up to 7)
#   VLLM_ARGS         further vllm serve flags, split on spaces
set -euo pipefail
dry_run=0
if [ "${1:-}" = "--dry-run" ]; then dry_run=1; shift; fi
preset="${1:?usage: serve.sh [--dry-run] qwen2-audio|qwen2.5-omni}"
case "$preset" in
    qwen2-audio)  model="${VLLM_MODEL:-Qwen/Qwen2-Audio-7B-Instruct}"; limits="{\"audio\": ${VLLM_AUDIO_LIMIT:-8}}" ;;
    qwen2.5-omni) model="${VLLM_MODEL:-Qwen/Qwen2.5-Omni-7B}"; limits="{\"audio\": ${VLLM_AUDIO_LIMIT:-8}, \"image\": 4}" ;;
    *) echo "serve.sh: unknown preset '$preset' (qwen2-audio, qwen2.5-omni)" >&2; exit 2 ;;
esac
host="${VLLM_HOST:-127.0.0.1}"; port="${VLLM_PORT:-8000}"
dp="${VLLM_DP:-1}"; max_seqs="${VLLM_MAX_SEQS:-64}"
# The model's own chat template (from its tokenizer config) is the right one for both presets;
# vLLM applies it by default. --served-model-name keeps eartest's model id short and stable.
# --generation-config vllm: eartest sends temperature and top-p itself; the hub's defaults
# (Qwen's sample at 0.7) must not override a greedy run.
serve=(vllm serve "$model" --host "$host" --port "$port" --served-model-name "$preset"
       --tensor-parallel-size "${VLLM_TP:-1}" --data-parallel-size "$dp"
       --max-num-seqs "$max_seqs" --max-model-len "${VLLM_MAX_LEN:-8192}"
       --limit-mm-per-prompt "$limits" --generation-config vllm)
# shellcheck disable=SC2206  # VLLM_ARGS is a list of flags
serve+=(${VLLM_ARGS:-})
# Enough requests in flight to fill every copy's batch, and no more (extra ones only queue).
concurrency=$(( dp * max_seqs ))
# printed so that it can be pasted into a shell: arguments with spaces or quotes in '...'
shell_words() {
    local word out=()
    for word in "$@"; do
        if [[ "$word" =~ ^[A-Za-z0-9_./:=@%+-]+$ ]]; then out+=("$word"); else out+=("'$word'"); fi
    done
    echo "${out[*]}"
}
echo "eartest: serve:  $(shell_words "${serve[@]}")"
echo "eartest: run:    pytest bench --model openai:$preset --base-url http://$host:$port/v1 --concurrency $concurrency -n 2"
if [ "$dry_run" -eq 1 ]; then exit 0; fi
exec "${serve[@]}"
