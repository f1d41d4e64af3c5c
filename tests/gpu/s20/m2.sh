#!/bin/sh
# tests/gpu/s20/m2.sh — session 20: matmul_bf16 with its epilogue deferred
# into the next program's K loop (TKC_EPI_DEFER=1: the tile packed into
# registers, a chunk written after each of the first iterations' MMAs are
# issued) next to without, in turns with cuBLAS; f16 too; then the matmul
# run tests with the knob on (cuda and nvptx, memcheck).  The knob's code
# is not on main (slower): tests/gpu/s20/defer.patch (git apply) adds it.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
VARIANTS="base:-:
defer:TKC_EPI_DEFER=1:" SIZES="4096 8192" PAIR_ROUNDS=${PAIR_ROUNDS:-14} OUT=$OUT/mm \
    timeout ${MTO:-200} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -iE "^pair|check|FAIL|sass" $OUT/mm.txt | tail -10 | cut -c1-160
MM_DTYPE=f16 VARIANTS="base:-:
defer:TKC_EPI_DEFER=1:" SIZES="4096 8192" PAIR_ROUNDS=${PAIR_ROUNDS:-10} OUT=$OUT/mm16 \
    timeout ${MTO:-200} sh tests/gpu/bench_mm_var.sh >$OUT/mm16.txt 2>&1
echo "mm f16 rc $? ($(($(date +%s) - t0)) s)"; grep -iE "^pair|FAIL" $OUT/mm16.txt | tail -6 | cut -c1-160
TKC_EPI_DEFER=1 timeout 250 sh tests/gpu/run.sh mma_ws mma_odd mma_repack >$OUT/run.txt 2>&1
echo "run rc $? ($(($(date +%s) - t0)) s)"
grep -E 'PASS|FAIL|passed' $OUT/run.txt
echo "total $(($(date +%s) - t0)) s"
