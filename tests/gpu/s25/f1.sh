#!/bin/sh
# tests/gpu/s25/f1.sh — session 25: stdlib/matmul.tktune's two-tile
# transposed lines in steps of 8 rows (BM = M / 2 rounded up to 8, 72 ..
# 256): the dispatching header against float64 (mm_dispatch.sh: 25 shapes,
# six on those lines), then that header (bf16, f16) in turns with cuBLAS
# from 1 to 512 rows at N = K = 8192 and at 4096^3 / 8192^3.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 240 sh tests/gpu/mm_dispatch.sh 2>&1 | grep -v "note:\|^ *[0-9]* |\|^ *|" | tail -28
echo "dispatch check ($(($(date +%s) - t0)) s)"
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
VARIANTS="disp:-:$T" SIZES="1x8192x8192 16x8192x8192 32x8192x8192 64x8192x8192 128x8192x8192 129x8192x8192 140x8192x8192 150x8192x8192 170x8192x8192 200x8192x8192 230x8192x8192 256x8192x8192 270x8192x8192 300x8192x8192 330x8192x8192 384x8192x8192 420x8192x8192 448x8192x8192 480x8192x8192 512x8192x8192 4096 8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-fin timeout 300 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm bf16 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/mm.txt | grep -v "C7517\|nomap" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
VARIANTS="disp:-:$T" SIZES="16x8192x8192 140x8192x8192 170x8192x8192 230x8192x8192 256x8192x8192 300x8192x8192 400x8192x8192 4096" \
    PAIR_ROUNDS=5 MM_DTYPE=f16 OUT=$OUT GPU_DIR=gpu-finh timeout 200 sh tests/gpu/bench_mm_var.sh >$OUT/mm16.txt 2>&1
echo "mm f16 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/mm16.txt | grep -v "C7517\|nomap" | cut -c1-150
grep -c "check.*ok" $OUT/mm16.txt; grep check $OUT/mm16.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
