#!/bin/sh
# tests/gpu/s21/m4.sh — session 21: matmul_bf16 with few rows, the
# candidates of m3 for the tuning table (64 x 128 in 8 stages, 64 x 256 in
# 4, the default) at M = 1, 64, 100, 200, 384, 512 (N = K = 8192) and an
# odd 37 x 4000 x 4095 (checked against a float32 product); in turns
# with cuBLAS in one process.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
S="-D specialize=1 -D persistent=0"
VARIANTS="n128:-:-D BM=64 -D BN=128 -D BK=64 -D stages=8 -D warps=4 $S
n256:-:-D BM=64 -D BN=256 -D BK=64 -D stages=4 -D warps=4 $S
def:-:" \
SIZES="1x8192x8192 64x8192x8192 100x8192x8192 200x8192x8192 384x8192x8192 512x8192x8192 37x4000x4095" PAIR_ROUNDS=10 OUT=$OUT \
    timeout ${BTO:-400} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|check|ptxas|failed|FAIL|rror' $OUT/mm.txt | grep -v "0 bytes spill\|C7517\|check" | cut -c1-160
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
