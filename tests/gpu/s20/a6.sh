#!/bin/sh
# tests/gpu/s20/a6.sh — session 20: sdpa_bf16 D=128, the 192-row default
# next to 192 x 112 and 192 x 96 key blocks, in interleaved rounds with
# cuDNN.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_TURNS=10 ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS="def 192x112 192x96" ATTN_LLVM=0 \
    timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|turns|FAIL|rc |err' $OUT/attn.txt | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
