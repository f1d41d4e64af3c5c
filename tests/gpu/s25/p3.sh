#!/bin/sh
# tests/gpu/s25/p3.sh — session 25: at N = K = 4096 stdlib/matmul.tktune
# uses four transposed 96-row tiles at 321-384 rows and four 192-row ones
# at about 600-768 (16-row steps); the tiles of M / 4 rounded up to 8 next to
# them and to the 64 x 128 x 128 / 64 x 256 tiles, in turns with cuBLAS.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="m128:-:-D BM=64 -D BN=128 -D BK=128 -D warps=4 -D stages=4 -D specialize=1 -D persistent=0
w80:-:$W -D BM=80 -D stages=7
w88:-:$W -D BM=88 -D stages=7
w96:-:$W -D BM=96 -D stages=7
m256:-:-D BM=64 -D BN=256 -D BK=64 -D warps=4 -D stages=4 -D specialize=1 -D persistent=0
w160:-:$W -D BM=160 -D stages=5
w176:-:$W -D BM=176 -D stages=5
w184:-:$W -D BM=184 -D stages=5
w192:-:$W -D BM=192 -D stages=5" \
SIZES="300x4096x4096 320x4096x4096 330x4096x4096 350x4096x4096 370x4096x4096 620x4096x4096 660x4096x4096 690x4096x4096 720x4096x4096 740x4096x4096" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-p3 timeout 300 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515|spill' $OUT/mm.txt | grep -v "C7517\|nomap\| 0 bytes spill" | sed 's/TFLOP.s (min.*vs/TF vs/; s/(rounds: min/(min/' | cut -c1-120
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
