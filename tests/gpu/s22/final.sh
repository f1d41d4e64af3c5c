#!/bin/sh
# tests/gpu/s22/final.sh — session 22's closing run: the run tests of the
# changed paths under compute-sanitizer (mma: dot(a, trans(bt)) now staged
# by TMA; mma_swap, mma_skinny: the few-rows tiles; arrive: atomic_add's
# value), the dispatching header of stdlib/matmul.tktune against float64
# (mm_dispatch.sh), then that header (bf16, f16) next to the default one in
# turns with cuBLAS from 1 to 512 rows at N = K = 8192, and
# --max-autotune's time over the 38 variants it had then (tune.sh).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
timeout 300 sh tests/gpu/run.sh mma mma_swap mma_skinny arrive 2>&1 | tail -10
echo "run tests ($(($(date +%s) - t0)) s)"
timeout 200 sh tests/gpu/mm_dispatch.sh 2>&1 | grep -v "note:\|^ *[0-9]* |\|^ *|" | tail -22
echo "dispatch check ($(($(date +%s) - t0)) s)"
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
VARIANTS="disp:-:$T
def:-:" SIZES="1x8192x8192 16x8192x8192 24x8192x8192 32x8192x8192 48x8192x8192 64x8192x8192 100x8192x8192 128x8192x8192 129x8192x8192 150x8192x8192 170x8192x8192 200x8192x8192 240x8192x8192 256x8192x8192 280x8192x8192 300x8192x8192 320x8192x8192 384x8192x8192 512x8192x8192 4096 8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-fin timeout 300 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm bf16 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
VARIANTS="disp:-:$T" SIZES="1x8192x8192 16x8192x8192 32x8192x8192 129x8192x8192 200x8192x8192 256x8192x8192 300x8192x8192" \
    PAIR_ROUNDS=5 MM_DTYPE=f16 OUT=$OUT GPU_DIR=gpu-finh timeout 200 sh tests/gpu/bench_mm_var.sh >$OUT/mm16.txt 2>&1
echo "mm f16 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm16.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm16.txt; grep check $OUT/mm16.txt | grep -v ok
timeout 120 sh tests/gpu/tune.sh 2>&1 | tail -8
echo "total $(($(date +%s) - t0)) s"
