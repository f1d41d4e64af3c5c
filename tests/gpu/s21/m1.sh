#!/bin/sh
# tests/gpu/s21/m1.sh — session 21: matmul_bf16 with few rows (M = 16, 64,
# 128; N = K = 8192) in narrower column tiles, for more programs than the
# 128 that 64-wide tiles give at N = 8192: the skinny benchmark's mma.sync
# 16 x 64 tile (BK 128), the tune table's 64 x 64 wgmma tile with a TMA
# producer (8 stages), and 64 x 32 / 64 x 16 of the same, 16 x 32 of
# mma.sync; all timed in turns with cuBLAS in one process
# (bench_mm_pair.py, MxNxK sizes).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
S="-D specialize=1 -D persistent=0 -D warps=4"
VARIANTS="mma16:-:-D BM=16 -D BN=64 -D BK=128 -D warps=4
m16n32:-:-D BM=16 -D BN=32 -D BK=128 -D warps=4
w64:-:-D BM=64 -D BN=64 -D BK=64 -D stages=8 $S
w32:-:-D BM=64 -D BN=32 -D BK=64 -D stages=8 $S
w16:-:-D BM=64 -D BN=16 -D BK=64 -D stages=8 $S
w32k:-:-D BM=64 -D BN=32 -D BK=128 -D stages=6 $S" \
SIZES="16x8192x8192 64x8192x8192 128x8192x8192" PAIR_ROUNDS=10 OUT=$OUT \
    timeout ${BTO:-400} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|check|ptxas|failed|FAIL|rror' $OUT/mm.txt | grep -v "0 bytes spill" | cut -c1-160
echo "total $(($(date +%s) - t0)) s"
