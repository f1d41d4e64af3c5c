#!/bin/sh
# tests/gpu/s25/p2.sh — session 25: where the 88 / 152-row transposed
# tiles lose to cuBLAS (ncu, p1: the same DRAM bytes, 44.5 vs 37.7 us at 170
# rows; tkc's transposed stores from the fragments use half of each sector):
# K at 2048 / 4096 / 8192 (the fixed cost is the intercept), and the tile
# stored through shared memory (TKC_FRAG_TR=0, one stage fewer) next to the
# same stages stored from the fragments.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="w88:-:$W -D BM=88 -D stages=7
w88s6:-:$W -D BM=88 -D stages=6
w88tr0:TKC_FRAG_TR=0:$W -D BM=88 -D stages=6
w152:-:$W -D BM=152 -D stages=5
w152s4:-:$W -D BM=152 -D stages=4
w152tr0:TKC_FRAG_TR=0:$W -D BM=152 -D stages=4" \
SIZES="170x8192x2048 170x8192x4096 170x8192x8192 300x8192x2048 300x8192x8192" \
    PAIR_ROUNDS=7 OUT=$OUT GPU_DIR=gpu-p2 timeout 300 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515|spill' $OUT/mm.txt | grep -v "C7517\|nomap\| 0 bytes spill" | sed 's/TFLOP.s (min.*vs/TF vs/; s/(rounds: min/(min/' | cut -c1-120
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
