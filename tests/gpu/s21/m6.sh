#!/bin/sh
# tests/gpu/s21/m6.sh — session 21: matmul_bf16 few-rows tiles at N = K =
# 4096 for the tuning table's lines there (M = 16, 256, 512, 1024): 64 x 128
# x 64 (8 stages), 64 x 128 x 128 (4 stages), 64 x 256 and the default, in
# turns with cuBLAS.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
S="-D specialize=1 -D persistent=0 -D warps=4 -D BM=64"
VARIANTS="n128:-:-D BN=128 -D BK=64 -D stages=8 $S
n128k:-:-D BN=128 -D BK=128 -D stages=4 $S
n256:-:-D BN=256 -D BK=64 -D stages=4 $S
def:-:" SIZES="16x4096x4096 256x4096x4096 512x4096x4096 1024x4096x4096" PAIR_ROUNDS=8 OUT=$OUT GPU_DIR=gpu-m6 \
    timeout ${BTO:-300} sh tests/gpu/bench_mm_var.sh >$OUT/few.txt 2>&1
echo "few rows rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/few.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/few.txt; grep check $OUT/few.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
