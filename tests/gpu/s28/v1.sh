#!/bin/sh
# tests/gpu/s28/v1.sh — the attention run tests (their f32 sdpa, sdpa_lse,
# sdpa_mask and sdpa_relpos now read k and v through shared memory:
# lower/gpu.c plan_dot_reads) on the GPU, cuda and nvptx, each + memcheck.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 420 sh tests/gpu/run.sh attention_d64 attention_d64_causal attention_d80 attention_d80_causal attention_d128 attention_d128_causal 2>&1 \
    | grep -E "^(PASS|FAIL|SKIP)|passed|failed|^    " | tail -40
echo "total $(($(date +%s) - t0)) s"
