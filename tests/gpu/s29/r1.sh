#!/bin/sh
# tests/gpu/s29/r1.sh — sdpa_relpos_bf16 at SAM global with only its global
# path in the kernel (tests/gpu/s26/mkrp.py rp_global.tk: no other path's
# code, ptxas 0 spills vs 84 bytes) against the whole kernel, both LLVM's
# PTX, 10 interleaved rounds with torch's no-bias SDPA.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
V=build/s29; mkdir -p $V
python3 tests/gpu/s26/mkrp.py $V || exit 2
ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="g:SRC=$V/rp_global.tk g2:SRC=$V/rp_global.tk" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
