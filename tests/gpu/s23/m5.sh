#!/bin/sh
# tests/gpu/s23/m5.sh — session 23: m4's winners across their candidate
# ranges before they go into stdlib/matmul.tktune: four transposed 96-row
# tiles at 321-384 x 4096² (vs 64 x 256), four of 192 rows at 705-768 x
# 4096² (vs the default), transposed 128 / 192-row tiles at 577-768 x 8192²
# (vs the default), in turns with cuBLAS.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="w96:-:$W -D BM=96 -D stages=7
w128:-:$W -D BM=128 -D stages=6
w192:-:$W -D BM=192 -D stages=5
x256:-:-D BM=64 -D BN=256 -D BK=64 -D warps=4 -D stages=4 -D specialize=1 -D persistent=0
def:-:" \
SIZES="321x4096x4096 352x4096x4096 384x4096x4096 705x4096x4096 740x4096x4096 577x8192x8192 600x8192x8192 640x8192x8192 700x8192x8192 768x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-m5 timeout 200 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/mm.txt | grep -v "C7517\|nomap" | sed 's/TFLOP.s (min.*vs cublas/vs/; s/(rounds: min \([0-9.]*\) max \([0-9.]*\))/\1-\2/'
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
