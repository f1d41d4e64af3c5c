#!/bin/sh
# tests/gpu/s22/m2.sh — session 22: why matmul_splitk_bf16 (m1) ran at half
# the speed its programs' K ranges promise: the split kernel with SPLIT=1
# next to matmul_bf16's same tile (64 x 128 x 64, 8 stages, specialized),
# SPLIT=2 with GM=1 and in 4 stages, in turns with cuBLAS.
# Needs tests/gpu/s22/splitk.patch applied (the kernel was not kept).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
K=--kernel=matmul_splitk_bf16
VARIANTS="m128:-:-D BM=64 -D BN=128 -D BK=64 -D warps=4 -D stages=8 -D specialize=true -D persistent=false
s1:-:$K -D SPLIT=1
s2:-:$K
s2g1:-:$K -D GM=1
s2s4:-:$K -D stages=4
s2s6:-:$K -D stages=6" SIZES="16x8192x8192 64x8192x8192 128x8192x8192 256x8192x8192 16x4096x4096" PAIR_ROUNDS=6 OUT=$OUT GPU_DIR=gpu-m2 \
    timeout ${BTO:-400} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|ptxas: ptxas info *: Used|sass' $OUT/mm.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
for l in m128 s1 s2; do cp build/gpu-m2/$l/k.sass $OUT/$l.sass 2>/dev/null; done
echo "total $(($(date +%s) - t0)) s"
