#!/bin/sh
# tests/gpu/s29/q1.sh — sdpa_bf16 D=128 (192 x 128 blocks, one block an SM)
# against cuDNN at shapes that separate the tail from the per-block speed:
# S = 4096 (22 blocks a head, the last one 64 rows: 1408 blocks, 10.67
# waves), 4224 (22 full blocks: 1408, 10.67 waves), 4032 (21 full: 1344,
# 10.18 waves) and B=4 H=15 S=4224 (1320 full blocks: 10 waves exactly);
# causal and not, 8 interleaved rounds each.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for sh in "4 16 4096" "4 16 4224" "4 16 4032" "4 15 4224"; do
    ATTN_SHAPE="$sh" ATTN_ONLY=sdpa ATTN_DS=128 ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_TURNS=8 \
        timeout 200 sh tests/gpu/bench_attn.sh 2>&1 | grep -E "turns tkc|turns torch cudnn|FAIL|rror|SKIP|^sdpa" | cut -c1-150
done
echo "total $(($(date +%s) - t0)) s"
