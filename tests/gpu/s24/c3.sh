#!/bin/sh
# tests/gpu/s24/c3.sh — session 24: what pairs of blocks cost (c2: 0.62 vs
# 0.74 of cuBLAS at 170 rows, 0.87 vs 1.02 at 300): the run test with the
# split copies (TKC_CL_SPLIT=1: each block issues every other box of each
# iteration), then the transposed 96 / 160-row tiles alone, in pairs
# sharing b (the default), with the split copies, in pairs sharing nothing
# (TKC_CL_MODE=1) and launched in clusters but each block alone (=2), in
# turns with cuBLAS at 170 / 300 x 8192 x 8192.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
TKC_CL_SPLIT=1 timeout 200 sh tests/gpu/run.sh mma_cluster 2>&1 | tail -4
echo "run ($(($(date +%s) - t0)) s)"
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
V=""
for t in 96:7 160:5; do
    bm=${t%:*} st=${t#*:}
    F="$W -D BM=$bm -D stages=$st"
    V="$V
w$bm:-:$F
w${bm}c:-:$F -D cluster=2
w${bm}s:TKC_CL_SPLIT=1:$F -D cluster=2
w${bm}n:TKC_CL_MODE=1:$F -D cluster=2
w${bm}a:TKC_CL_MODE=2:$F -D cluster=2"
done
VARIANTS="${V#?}" SIZES="170x8192x8192 300x8192x8192" \
    PAIR_ROUNDS=7 OUT=$OUT GPU_DIR=gpu-c3 timeout 300 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/mm.txt | grep -v "C7517\|nomap" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
