#!/bin/sh
# tests/gpu/s21/m3.sh — session 21: matmul_bf16 with few rows, 64 x 128
# tiles (m2's best) in 8 and 6 stages next to 64 x 256 (4 stages), 128 x
# 128 (two consumer warpgroups) and the default 128 x 256 persistent tile,
# at M = 16, 128, 129, 256 (N = K = 8192) and 16 x 4096 x 4096; timed in
# turns with cuBLAS in one process.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
S="-D specialize=1 -D persistent=0"
VARIANTS="n128:-:-D BM=64 -D BN=128 -D BK=64 -D stages=8 -D warps=4 $S
n128s6:-:-D BM=64 -D BN=128 -D BK=64 -D stages=6 -D warps=4 $S
n256:-:-D BM=64 -D BN=256 -D BK=64 -D stages=4 -D warps=4 $S
m128:-:-D BM=128 -D BN=128 -D BK=64 -D stages=6 -D warps=8 $S
def:-:" \
SIZES="16x8192x8192 128x8192x8192 129x8192x8192 256x8192x8192 16x4096x4096" PAIR_ROUNDS=10 OUT=$OUT \
    timeout ${BTO:-400} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|check|ptxas|failed|FAIL|rror' $OUT/mm.txt | grep -v "0 bytes spill\|C7517\|check" | cut -c1-160
grep -c "check.*ok" $OUT/mm.txt
echo "total $(($(date +%s) - t0)) s"
