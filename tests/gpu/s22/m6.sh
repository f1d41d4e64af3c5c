#!/bin/sh
# tests/gpu/s22/m6.sh — session 22: matmul_bf16's transposed tiles storing
# trans(acc as bf16) from the fragments (each thread its own elements;
# TKC_FRAG_TR=0: through shared memory as before, where the f32 tile's
# buffer left no room for stages: 242 KB at 112 x 128 in 6 stages), at
# 16 / 32 rows and, with more stages now, 80 .. 160 rows of a on two
# warpgroups against the dispatch from 129 to 300 rows, in turns with cuBLAS.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
W="-D SWAP=1 -D specialize=1 -D persistent=0"
VARIANTS="disp:-:$T
w16:-:$W -D BM=16 -D BN=64 -D warps=4 -D stages=8
w16tr0:TKC_FRAG_TR=0:$W -D BM=16 -D BN=64 -D warps=4 -D stages=8
w32:-:$W -D BM=32 -D BN=64 -D warps=4 -D stages=8
w32tr0:TKC_FRAG_TR=0:$W -D BM=32 -D BN=64 -D warps=4 -D stages=8
w80x2:-:$W -D BM=80 -D BN=128 -D warps=8 -D stages=7
w112x2:-:$W -D BM=112 -D BN=128 -D warps=8 -D stages=6
w128x2:-:$W -D BM=128 -D BN=128 -D warps=8 -D stages=6
w160x2:-:$W -D BM=160 -D BN=128 -D warps=8 -D stages=5" \
SIZES="16x8192x8192 32x8192x8192 129x8192x8192 200x8192x8192 256x8192x8192 300x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-m6 timeout ${BTO:-300} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
