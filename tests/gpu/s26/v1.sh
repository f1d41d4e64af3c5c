#!/bin/sh
# tests/gpu/s26/v1.sh — the swizzled tiles without slack (lower/gpu_mma.c
# swz_place) on the GPU: the run tests of wgmma kernels with key loops,
# resident and early operands and warp-specialized pipelines, cuda and
# nvptx, each under compute-sanitizer memcheck; then sdpa_bf16 D=64 with 3
# key stages (114.7 KB: two blocks an SM, which the slack did not allow)
# against the default 2, and sdpa_relpos_bf16, in turns with the rivals.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 330 sh tests/gpu/run.sh relpos_bf16 relpos_bf16_n128 attention_d64 attention_d64_causal attention_d128 \
    attention_d128_m128 flash_inplace mma_ws mma_skinny mma_pipe 2>&1 | grep -E "^(PASS|FAIL|SKIP)|passed|failed" | tail -30
echo "tests ($(($(date +%s) - t0)) s)"
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 ATTN_DS=64 ATTN_RELPOS=global ATTN_VARIANTS="st3:DEFS=stages:3,BLOCKS=def" \
    timeout 200 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "turns|FAIL|rror|^sdpa|SKIP" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
