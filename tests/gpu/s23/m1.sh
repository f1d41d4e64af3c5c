#!/bin/sh
# tests/gpu/s23/m1.sh — session 23: the transposed (SWAP = 1) tiles' wgmma
# were serialized by ptxas (C7514: the K loop's guarded last wait; now
# followed by one on every path, TKC_WAIT_TWICE).  The 80 / 112 / 128 /
# 160-row transposed tiles on two consumer warpgroups (cuBLAS's own shapes
# at 129-320 rows) next to the 64 x 256 tile, and the 160-row tile as
# before (TKC_WAIT_TWICE=0), in turns with cuBLAS at M x 8192 x 8192; then
# the few-rows transposed tiles new / old at 1 and 16 rows.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
W="-D SWAP=1 -D specialize=1 -D persistent=0"
VARIANTS="w80:-:$W -D BM=80 -D BN=128 -D warps=8 -D stages=7
w112:-:$W -D BM=112 -D BN=128 -D warps=8 -D stages=6
w128:-:$W -D BM=128 -D BN=128 -D warps=8 -D stages=6
w160:-:$W -D BM=160 -D BN=128 -D warps=8 -D stages=5
w160o:TKC_WAIT_TWICE=0:$W -D BM=160 -D BN=128 -D warps=8 -D stages=5
x256:-:-D BM=64 -D BN=256 -D BK=64 -D warps=4 -D stages=4 -D specialize=1 -D persistent=0" \
SIZES="129x8192x8192 170x8192x8192 200x8192x8192 256x8192x8192 300x8192x8192 384x8192x8192" \
    PAIR_ROUNDS=6 OUT=$OUT GPU_DIR=gpu-m1 timeout 330 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/mm.txt | grep -v "C7517\|nomap" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
VARIANTS="s16:-:$W -D BM=16 -D BN=64 -D warps=4 -D stages=8
s16o:TKC_WAIT_TWICE=0:$W -D BM=16 -D BN=64 -D warps=4 -D stages=8" \
SIZES="1x8192x8192 16x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-m1b timeout 120 sh tests/gpu/bench_mm_var.sh >$OUT/mm2.txt 2>&1
echo "mm2 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm2.txt | cut -c1-150
echo "total $(($(date +%s) - t0)) s"
