#!/bin/sh
# tests/gpu/s29/v1.sh — kernel versions by launch-uniform paths
# (lower/version.c): sdpa_relpos_bf16 (now one function per key-row walk
# besides the whole kernel) vs TKC_VERSIONS=0 at SAM global and windowed, 10
# interleaved rounds with torch's no-bias SDPA; then the run tests of every
# relpos path and tests/run/paths (both paths, neither, each), cuda and
# nvptx, each + compute-sanitizer memcheck.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=20 \
ATTN_VARIANTS="whole:TKC_VERSIONS=0 def2:TKC_VERSIONS=1 whole2:TKC_VERSIONS=0" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "bench ($(($(date +%s) - t0)) s)"
timeout 400 sh tests/gpu/run.sh paths relpos_bf16 relpos_bf16_n32 relpos_bf16_n128 relpos_bf16_d80 relpos_bf16_d128 relpos_mixed 2>&1 \
    | grep -E "^(PASS|FAIL|SKIP)|passed|failed|^    " | tail -40
echo "total $(($(date +%s) - t0)) s"
