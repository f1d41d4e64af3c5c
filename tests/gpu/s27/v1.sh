#!/bin/sh
# tests/gpu/s27/v1.sh — the closing code on the GPU: every attention and
# relpos run test (their sdpa_mask, sdpa_relpos and sdpa_relpos_bf16 changed
# with plan_recomp's kept offsets; sdpa_relpos_bf16's PTX from LLVM, beside
# NVRTC's sdpa_bf16 in relpos_mixed), cuda and nvptx, each under memcheck.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 560 sh tests/gpu/run.sh attention_d64_causal attention_d64_causal_wide attention_d80 attention_d80_causal \
    attention_d128_causal attention_d128_causal_wide attention_d128_m128 attention_d128_n176 flash_inplace \
    relpos_bf16_d80 relpos_bf16_d128 relpos_bf16_n128 2>&1 | grep -E "^(PASS|FAIL|SKIP)|passed|failed" | tail -40
echo "total $(($(date +%s) - t0)) s"
