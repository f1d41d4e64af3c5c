#!/bin/sh
# tests/gpu/s19/e4.sh — session 19: sdpa_bf16 D=128 with p v's wait after
# the softmax (TKC_PV_DEFER=1) next to without, timed in 12 interleaved
# rounds with cuDNN and FA2 (ATTN_TURNS), causal and not.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_TURNS=12 ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="pv:TKC_PV_DEFER=1,BLOCKS=def" \
    timeout ${BTO:-250} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch|turns|FAIL|ratio|rc ' $OUT/attn.txt | cut -c1-130
echo "total $(($(date +%s) - t0)) s"
