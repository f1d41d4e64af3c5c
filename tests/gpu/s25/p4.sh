#!/bin/sh
# tests/gpu/s25/p4.sh — session 25: p3 found four transposed tiles of M / 4
# rounded up to 8 the fastest at 300-370 and 620-740 rows (N = K = 4096);
# here the rows between (the 64 x 256 tiles' range, 385-600) and below
# (the 64 x 128 x 128 tiles' at 257-288), in turns with cuBLAS.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="m128:-:-D BM=64 -D BN=128 -D BK=128 -D warps=4 -D stages=4 -D specialize=1 -D persistent=0
w72:-:$W -D BM=72 -D stages=8
m256:-:-D BM=64 -D BN=256 -D BK=64 -D warps=4 -D stages=4 -D specialize=1 -D persistent=0
w104:-:$W -D BM=104 -D stages=6
w120:-:$W -D BM=120 -D stages=6
w128:-:$W -D BM=128 -D stages=6
w144:-:$W -D BM=144 -D stages=6
w152:-:$W -D BM=152 -D stages=5" \
SIZES="256x4096x4096 270x4096x4096 285x4096x4096 400x4096x4096 470x4096x4096 512x4096x4096 570x4096x4096 600x4096x4096" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-p4 timeout 300 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515|spill' $OUT/mm.txt | grep -v "C7517\|nomap\| 0 bytes spill" | sed 's/TFLOP.s (min.*vs/TF vs/; s/(rounds: min/(min/' | cut -c1-120
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
