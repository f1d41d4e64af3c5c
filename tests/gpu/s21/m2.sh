#!/bin/sh
# tests/gpu/s21/m2.sh — session 21: matmul_bf16 with few rows (M = 1, 16,
# 64, 128; N = K = 8192), the tune table's 64 x 64 wgmma tile (TMA
# producer, 8 stages) next to wider column tiles (64 x 128 with BK 64 and
# 32: each box row 256 bytes of B instead of 128) and 128 x 64 (two consumer
# warpgroups); timed in turns with cuBLAS in one process.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
S="-D specialize=1 -D persistent=0"
VARIANTS="w64:-:-D BM=64 -D BN=64 -D BK=64 -D stages=8 -D warps=4 $S
w64k32:-:-D BM=64 -D BN=64 -D BK=32 -D stages=8 -D warps=4 $S
n128:-:-D BM=64 -D BN=128 -D BK=64 -D stages=8 -D warps=4 $S
n128k32:-:-D BM=64 -D BN=128 -D BK=32 -D stages=8 -D warps=4 $S
m128n64:-:-D BM=128 -D BN=64 -D BK=64 -D stages=6 -D warps=8 $S" \
SIZES="1x8192x8192 16x8192x8192 64x8192x8192 128x8192x8192" PAIR_ROUNDS=10 OUT=$OUT \
    timeout ${BTO:-400} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|check|ptxas|failed|FAIL|rror' $OUT/mm.txt | grep -v "0 bytes spill\|C7517" | cut -c1-160
echo "total $(($(date +%s) - t0)) s"
