#!/bin/sh
# tests/gpu/s27/p2.sh — sdpa_relpos_bf16 with @launch(llvm = true) (its PTX
# from LLVM, in a module beside NVRTC's): relpos_mixed (sdpa_bf16 from
# NVRTC and sdpa_relpos_bf16 from LLVM in one header), relpos_bf16, the
# attention tests whose sdpa_mask / sdpa_relpos changed with plan_recomp's
# kept offsets, cuda and nvptx, each under memcheck; then SAM global and
# windowed, 10 interleaved rounds with torch's no-bias SDPA: the default
# (LLVM's PTX now) against --codegen=nvrtc.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 300 sh tests/gpu/run.sh relpos_mixed relpos_bf16 relpos_bf16_n32 attention_d64 attention_d128 2>&1 \
    | grep -E "^(PASS|FAIL|SKIP)|passed|failed" | tail -30
echo "tests ($(($(date +%s) - t0)) s)"
ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 ATTN_VARIANTS="nvrtc:CG=nvrtc" \
    timeout 240 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
