#!/bin/sh
# tests/gpu/s21/m7.sh — session 21: the final stdlib/matmul.tktune (its N = K
# = 4096 lines, 64 x 128 x 128 tiles) through the dispatching header,
# in turns with cuBLAS at M = 16 .. 1024 (N = K = 4096) and 16 / 128 x 8192
# x 8192; the run test of the tiles (cuda, nvptx, compute-sanitizer) and the
# header's check against float64 (mm_dispatch.sh).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune)"
VARIANTS="disp:-:$T" SIZES="16x4096x4096 64x4096x4096 128x4096x4096 300x4096x4096 512x4096x4096 1024x4096x4096 16x8192x8192 128x8192x8192" \
    PAIR_ROUNDS=8 OUT=$OUT GPU_DIR=gpu-m7 timeout ${BTO:-300} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
timeout 200 sh tests/gpu/run.sh mma_skinny 2>&1 | tail -4
timeout 100 sh tests/gpu/mm_dispatch.sh 2>&1 | tail -16
echo "total $(($(date +%s) - t0)) s"
