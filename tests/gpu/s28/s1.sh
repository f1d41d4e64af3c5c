#!/bin/sh
# tests/gpu/s28/s1.sh — sdpa_bf16 D=128 (192 x 128, the producer warpgroup)
# with try_wait's suspend-time hint (TKC_MBAR_SUSPEND_P: the producer's waits only, ns; TKC_MBAR_SUSPEND: every wait): the producer's
# spins on empty stages were ~10 M instructions in h200-s28-ncu, all on one
# scheduler; 10 interleaved rounds with cuDNN.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=10 \
ATTN_VARIANTS="p200:TKC_MBAR_SUSPEND_P=200 p1000:TKC_MBAR_SUSPEND_P=1000 p20000:TKC_MBAR_SUSPEND_P=20000 a1000:TKC_MBAR_SUSPEND=1000" \
    timeout 300 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "turns|FAIL|rror|SKIP|^sdpa" | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
