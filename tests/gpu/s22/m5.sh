#!/bin/sh
# tests/gpu/s22/m5.sh — session 22: the dispatching header with the
# transposed 16-row tiles (stdlib/matmul.tktune) at M = 1 .. 64 (the
# boundary at 32 rows), and transposed tiles of 80 .. 160 rows of a on two
# consumer warpgroups (128 columns of b; cuBLAS: 128 x 104 at 200 rows,
# 128 x 128 at 256) against it from 128 to 300 rows, in turns with cuBLAS;
# f16 too.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
W="-D SWAP=1 -D specialize=1 -D persistent=0"
VARIANTS="disp:-:$T
w32:-:$W -D BM=32 -D BN=64 -D warps=4 -D stages=8
w80x2:-:$W -D BM=80 -D BN=128 -D warps=8 -D stages=5
w112x2:-:$W -D BM=112 -D BN=128 -D warps=8 -D stages=4
w128x2:-:$W -D BM=128 -D BN=128 -D warps=8 -D stages=4
w160x2:-:$W -D BM=160 -D BN=128 -D warps=8 -D stages=3
w128:-:$W -D BM=128 -D BN=64 -D warps=4 -D stages=6" \
SIZES="1x8192x8192 24x8192x8192 32x8192x8192 48x8192x8192 128x8192x8192 129x8192x8192 200x8192x8192 256x8192x8192 300x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-m5 timeout ${BTO:-300} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
VARIANTS="disp:-:$(echo "$T" | sed 's/matmul_bf16@/matmul_f16@/g')" SIZES="1x8192x8192 16x8192x8192 32x8192x8192 64x8192x8192" PAIR_ROUNDS=5 MM_DTYPE=f16 \
    OUT=$OUT GPU_DIR=gpu-m5h timeout 120 sh tests/gpu/bench_mm_var.sh >$OUT/mm16.txt 2>&1
echo "mm f16 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm16.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm16.txt; grep check $OUT/mm16.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
