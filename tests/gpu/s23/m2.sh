#!/bin/sh
# tests/gpu/s23/m2.sh — session 23: with the transposed tiles' wgmma no
# longer serialized (m1), two transposed tiles of BM = 80 .. 224 rows of a
# (by 128 columns of b, two consumer warpgroups) across 129-448 rows, next
# to the default 128 x 256 tile, in turns with cuBLAS at M x 8192 x 8192.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="w80:-:$W -D BM=80 -D stages=7
w96:-:$W -D BM=96 -D stages=7
w112:-:$W -D BM=112 -D stages=6
w128:-:$W -D BM=128 -D stages=6
w144:-:$W -D BM=144 -D stages=6
w160:-:$W -D BM=160 -D stages=5
w192:-:$W -D BM=192 -D stages=5
w224:-:$W -D BM=224 -D stages=4
def:-:" \
SIZES="129x8192x8192 150x8192x8192 170x8192x8192 192x8192x8192 210x8192x8192 240x8192x8192 256x8192x8192 288x8192x8192 320x8192x8192 352x8192x8192 384x8192x8192 448x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-m2 timeout 450 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515|spill' $OUT/mm.txt | grep -v "C7517\|nomap\| 0 bytes spill" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
