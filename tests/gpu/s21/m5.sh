#!/bin/sh
# tests/gpu/s21/m5.sh — session 21: the header stdlib/README.md ("Few rows")
# tells users to build, dispatching over the new stdlib/matmul.tktune (64 x
# 128 tiles up to M = 128, 64 x 256 up to ~330, the default above), next to
# the default header, in turns with cuBLAS in one process: bf16 and f16 at M
# from 1 to 512 (N = K = 8192), 16 x 4096 x 4096 and 4096^3; then the
# run test of the tiles (mma_skinny, both PTX sources, compute-sanitizer)
# and the dispatching header's check against float64 (mm_dispatch.sh).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
T="--max-autotune --tune-table stdlib/matmul.tktune --tune M=16,N=8192,K=8192 --tune M=128,N=8192,K=8192 --tune M=129,N=8192,K=8192 --tune M=256,N=8192,K=8192 --tune M=384,N=8192,K=8192 --tune M=4096,N=4096,K=4096 --tune M=8192,N=8192,K=8192"
Z="1x8192x8192 16x8192x8192 64x8192x8192 100x8192x8192 128x8192x8192 129x8192x8192 200x8192x8192 256x8192x8192 300x8192x8192 384x8192x8192 512x8192x8192 16x4096x4096 4096"
VARIANTS="disp:-:$T
def:-:" SIZES="$Z" PAIR_ROUNDS=8 OUT=$OUT GPU_DIR=gpu-m5 \
    timeout ${BTO:-300} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm bf16 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
VARIANTS="disp:-:$T
def:-:" SIZES="16x8192x8192 128x8192x8192 200x8192x8192 256x8192x8192 4096" PAIR_ROUNDS=8 MM_DTYPE=f16 OUT=$OUT GPU_DIR=gpu-m5h \
    timeout ${BTO:-300} sh tests/gpu/bench_mm_var.sh >$OUT/mm16.txt 2>&1
echo "mm f16 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm16.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm16.txt; grep check $OUT/mm16.txt | grep -v ok
timeout 200 sh tests/gpu/run.sh mma_skinny 2>&1 | tail -6
timeout 100 sh tests/gpu/mm_dispatch.sh 2>&1 | tail -14
echo "total $(($(date +%s) - t0)) s"
