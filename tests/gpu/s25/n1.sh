#!/bin/sh
# tests/gpu/s25/n1.sh — session 25: transposed tiles of a multiple of 8
# rows of a, not of 16 (wgmma n = 72, 88, .., lower/gpu_mma.c n8_fits),
# next to the 16-multiple tile just above, in turns with cuBLAS at
# M x 8192 x 8192 where M / 2 rounded up to 8 is below M / 2 rounded up to
# 16 (cuBLAS's own tiles: h200-s24-f1.log); then f16 (the merged
# PA_ROUND_F16W rounding, never timed) at two shapes; first the run test of
# those tiles (cuda, nvptx, memcheck).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 150 sh tests/gpu/run.sh mma_swap 2>&1 | tail -4
echo "run tests ($(($(date +%s) - t0)) s)"
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="w72:-:$W -D BM=72 -D stages=8
w80:-:$W -D BM=80 -D stages=7
w88:-:$W -D BM=88 -D stages=7
w96:-:$W -D BM=96 -D stages=7
w104:-:$W -D BM=104 -D stages=6
w112:-:$W -D BM=112 -D stages=6
w120:-:$W -D BM=120 -D stages=6
w128:-:$W -D BM=128 -D stages=6
w152:-:$W -D BM=152 -D stages=5
w160:-:$W -D BM=160 -D stages=5" \
SIZES="140x8192x8192 170x8192x8192 200x8192x8192 230x8192x8192 300x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-n1 timeout 330 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515|spill' $OUT/mm.txt | grep -v "C7517\|nomap\| 0 bytes spill" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
VARIANTS="h88:-:$W -D BM=88 -D stages=7
h96:-:$W -D BM=96 -D stages=7
h152:-:$W -D BM=152 -D stages=5
h160:-:$W -D BM=160 -D stages=5" \
SIZES="170x8192x8192 300x8192x8192" MM_DTYPE=f16 \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-n1h timeout 200 sh tests/gpu/bench_mm_var.sh >$OUT/mmh.txt 2>&1
echo "mm f16 rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515|spill' $OUT/mmh.txt | grep -v "C7517\|nomap\| 0 bytes spill" | cut -c1-150
grep -c "check.*ok" $OUT/mmh.txt; grep check $OUT/mmh.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
