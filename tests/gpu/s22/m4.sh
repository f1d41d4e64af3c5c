#!/bin/sh
# tests/gpu/s22/m4.sh — session 22: matmul_bf16 computed transposed for few
# rows (-D SWAP=true: c^T = b^T a^T, a's rows on wgmma's N side in steps of
# 16, b's columns on its M side; cuBLAS's nvjet_sm90_tst_64x16_64x16 at 16
# rows, tests/gpu/s22/prof.py) in tiles of 16 .. 128 rows of a and 64 / 128
# columns of b, next to the few-rows dispatch header, in turns with cuBLAS;
# then the run test of the transposed tiles (mma_swap, both PTX sources,
# compute-sanitizer).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
W="-D SWAP=true -D specialize=true -D persistent=false"
Z="1x8192x8192 16x8192x8192 64x8192x8192 128x8192x8192 129x8192x8192 200x8192x8192 256x8192x8192 300x8192x8192 16x4096x4096 256x4096x4096"
VARIANTS="disp:-:$T
w16s16:-:$W -D BM=16 -D BN=64 -D warps=4 -D stages=16
w16s8:-:$W -D BM=16 -D BN=64 -D warps=4 -D stages=8
w32:-:$W -D BM=32 -D BN=64 -D warps=4 -D stages=14
w64:-:$W -D BM=64 -D BN=64 -D warps=4 -D stages=12
w64x2:-:$W -D BM=64 -D BN=128 -D warps=8 -D stages=8
w112x2:-:$W -D BM=112 -D BN=128 -D warps=8 -D stages=6
w128x2:-:$W -D BM=128 -D BN=128 -D warps=8 -D stages=6" SIZES="$Z" PAIR_ROUNDS=6 OUT=$OUT GPU_DIR=gpu-m4 \
    timeout ${BTO:-400} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|ptxas: ptxas info *: Used|spill stores' $OUT/mm.txt | grep -v "C7517\|0 bytes spill" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
[ -n "${SKIP_RUN:-}" ] || timeout 200 sh tests/gpu/run.sh mma_swap 2>&1 | tail -5
echo "total $(($(date +%s) - t0)) s"
