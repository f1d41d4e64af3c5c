#!/bin/sh
# tests/gpu/s19/e9.sh — session 19: sdpa_bf16 D=128 with a persistent grid
# (one block per SM looping over the programs: TKC_PERSIST=1
# TKC_PERSIST_ANY=1; cuDNN's D=128 kernel runs 132 blocks) next to the
# full grid, 12 interleaved rounds with cuDNN, at B=4 H=16 and B=8 H=12.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for shape in "4 16 4096" "8 12 4096"; do
ATTN_SHAPE="$shape" ATTN_TURNS=12 ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS=def ATTN_LLVM=0 \
ATTN_VARIANTS="pers:TKC_PERSIST=1,TKC_PERSIST_ANY=1,BLOCKS=def" \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn $shape rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|turns|FAIL|rc ' $OUT/attn.txt | cut -c1-130
done
echo "total $(($(date +%s) - t0)) s"
