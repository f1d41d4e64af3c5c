#!/bin/sh
# tests/gpu/s27/p4.sh — sdpa_relpos_bf16 (LLVM's PTX since @launch(llvm =
# true)) at SAM global and windowed: its launch options again, now that its
# PTX comes from LLVM: 3 blocks an SM (168 registers), 2 and 4 key stages,
# and the global path alone (-D KW=64 -D KH=64: the other paths folded away),
# 10 interleaved rounds with torch's no-bias SDPA.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="b3:DEFS=blocks:3 s2:DEFS=stages:2 s4:DEFS=stages:4 kw64:DEFS=KW:64+KH:64" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "^  tkc|turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
