#!/bin/sh
# tests/gpu/s23/m3.sh — session 23: the rest of the two-tile transposed
# table (m2): BM = 176 / 208 / 240 / 256 between 321 and 512 rows next to
# the default tile, BM = 48 / 64 at 65-128 rows next to the table's 64 x 128
# tile, in turns with cuBLAS at M x 8192 x 8192; then f16 at 256 / 300 rows.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="w176:-:$W -D BM=176 -D stages=5
w192:-:$W -D BM=192 -D stages=5
w208:-:$W -D BM=208 -D stages=4
w224:-:$W -D BM=224 -D stages=4
w240:-:$W -D BM=240 -D stages=4
w256:-:$W -D BM=256 -D stages=4
def:-:" \
SIZES="336x8192x8192 352x8192x8192 400x8192x8192 416x8192x8192 470x8192x8192 480x8192x8192 500x8192x8192 512x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-m3 timeout 250 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515|spill' $OUT/mm.txt | grep -v "C7517\|nomap\| 0 bytes spill" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
VARIANTS="w48:-:$W -D BM=48 -D stages=8
w64:-:$W -D BM=64 -D stages=8
n128:-:-D BM=64 -D BN=128 -D BK=64 -D warps=4 -D stages=8 -D specialize=1 -D persistent=0" \
SIZES="80x8192x8192 96x8192x8192 112x8192x8192 128x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-m3b timeout 150 sh tests/gpu/bench_mm_var.sh >$OUT/mm2.txt 2>&1
echo "mm2 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/mm2.txt | grep -v "C7517\|nomap" | cut -c1-150
grep check $OUT/mm2.txt | grep -v ok
VARIANTS="w128:-:$W -D BM=128 -D stages=6
w160:-:$W -D BM=160 -D stages=5" \
SIZES="256x8192x8192 300x8192x8192" \
    PAIR_ROUNDS=5 MM_DTYPE=f16 OUT=$OUT GPU_DIR=gpu-m3c timeout 100 sh tests/gpu/bench_mm_var.sh >$OUT/mm3.txt 2>&1
echo "mm3 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/mm3.txt | grep -v "C7517\|nomap" | cut -c1-150
grep check $OUT/mm3.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
