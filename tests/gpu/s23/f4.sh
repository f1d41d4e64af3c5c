#!/bin/sh
# tests/gpu/s23/f4.sh — session 23: with m4 / m5's lines in
# stdlib/matmul.tktune, the dispatching header against float64
# (mm_dispatch.sh, 23 shapes) and in turns with cuBLAS at the new lines.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
timeout 150 sh tests/gpu/mm_dispatch.sh 2>&1 | grep -v "note:\|^ *[0-9]* |\|^ *|" | tail -24
echo "dispatch check ($(($(date +%s) - t0)) s)"
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
VARIANTS="disp:-:$T" SIZES="352x4096x4096 740x4096x4096 600x8192x8192 700x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-f4 timeout 150 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm.txt | sed 's/TFLOP.s (min.*vs cublas/vs/; s/(rounds: min \([0-9.]*\) max \([0-9.]*\))/\1-\2/'
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
