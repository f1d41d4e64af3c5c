#!/bin/sh
# tests/gpu/s29/o1.sh — sdpa_relpos_bf16's launch options again now that
# each key-row walk is a function of its own (lower/version.c): stages 2 / 4
# and 3 blocks an SM against the default (3 stages, 4 blocks), SAM global
# and windowed, 10 interleaved rounds with torch's no-bias SDPA.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_ONLY=relpos ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="s2:DEFS=stages:2 s4:DEFS=stages:4 b3:DEFS=blocks:3 nvrtc:CG=nvrtc" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
