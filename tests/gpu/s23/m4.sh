#!/bin/sh
# tests/gpu/s23/m4.sh — session 23: transposed tiles at N = K = 4096 (two
# or four tiles of M rows over 32 column tiles of 128) next to the table's
# 64 x 128 x 128 / 64 x 256 tiles, and at 640 / 1024 x 8192² next to the
# default, in turns with cuBLAS.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="w64:-:$W -D BM=64 -D stages=8
w96:-:$W -D BM=96 -D stages=7
w128:-:$W -D BM=128 -D stages=6
w192:-:$W -D BM=192 -D stages=5
w256:-:$W -D BM=256 -D stages=4
k128:-:-D BM=64 -D BN=128 -D BK=128 -D warps=4 -D stages=4 -D specialize=1 -D persistent=0
x256:-:-D BM=64 -D BN=256 -D BK=64 -D warps=4 -D stages=4 -D specialize=1 -D persistent=0
def:-:" \
SIZES="256x4096x4096 384x4096x4096 512x4096x4096 768x4096x4096 640x8192x8192 1024x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-m4 timeout 300 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/mm.txt | grep -v "C7517\|nomap" | sed 's/TFLOP.s (min.*vs cublas/vs/; s/(rounds: min \([0-9.]*\) max \([0-9.]*\))/\1-\2/'
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
