#!/bin/sh
# tests/gpu/s22/m7.sh — session 22: the dispatching header read lower at 200
# / 256 rows in final.sh than its tiles built alone in m6; here both, and
# the table's earlier 64 x 256 tile, in one process, in turns with cuBLAS.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
W="-D SWAP=1 -D specialize=1 -D persistent=0"
VARIANTS="disp:-:$T
w80x2:-:$W -D BM=80 -D BN=128 -D warps=8 -D stages=7
w112x2:-:$W -D BM=112 -D BN=128 -D warps=8 -D stages=6
w128x2:-:$W -D BM=128 -D BN=128 -D warps=8 -D stages=6
w160x2:-:$W -D BM=160 -D BN=128 -D warps=8 -D stages=5
x256:-:-D BM=64 -D BN=256 -D BK=64 -D warps=4 -D stages=4 -D specialize=1 -D persistent=0" \
SIZES="129x8192x8192 170x8192x8192 200x8192x8192 256x8192x8192 300x8192x8192" \
    PAIR_ROUNDS=6 OUT=$OUT GPU_DIR=gpu-m7 timeout 300 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror' $OUT/mm.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
