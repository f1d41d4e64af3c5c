#!/bin/sh
# tests/gpu/s25/f2.sh — session 25: the dispatching header of
# stdlib/matmul.tktune read 0.71 / 0.94 of cuBLAS at 170 / 300 rows (f1)
# where its tiles built alone had read 0.82 / 1.08 (n1): both in one run,
# in turns with cuBLAS, with the 16-step tiles for reference.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv,noheader
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="disp:-:$T
w88:-:$W -D BM=88 -D stages=7
w96:-:$W -D BM=96 -D stages=7
w152:-:$W -D BM=152 -D stages=5
w160:-:$W -D BM=160 -D stages=5" \
SIZES="170x8192x8192 300x8192x8192 230x8192x8192" \
    PAIR_ROUNDS=7 OUT=$OUT GPU_DIR=gpu-f2 timeout 300 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/mm.txt | grep -v "C7517\|nomap" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader
echo "total $(($(date +%s) - t0)) s"
