#!/bin/sh
# tests/gpu/s23/f2.sh — session 23: the dispatching header's float64 check
# (f1.sh's output was cut), then why the dispatching header reads lower
# than its tiles built alone (f1 vs m2 / m3): at 256 / 300 rows the full
# header, its two tiles alone, a header of one table line (the tile is the
# entry point), and a header dispatching between those two lines only.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
timeout 200 sh tests/gpu/mm_dispatch.sh 2>&1 | grep -E "^ok|^FAIL|rror" | cut -c1-100
echo "dispatch check rc $? ($(($(date +%s) - t0)) s)"
TT="--max-autotune --tune-table stdlib/matmul.tktune"
T="$TT $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="disp:-:$T
w128:-:$W -D BM=128 -D stages=6
w160:-:$W -D BM=160 -D stages=5
one:-:$TT --tune M=256,K=8192,N=8192
two:-:$TT --tune M=256,K=8192,N=8192 --tune M=289,K=8192,N=8192" \
SIZES="256x8192x8192 300x8192x8192" \
    PAIR_ROUNDS=6 OUT=$OUT GPU_DIR=gpu-f2 timeout 250 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|registers' $OUT/mm.txt | grep -v "C7517\|nomap" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
