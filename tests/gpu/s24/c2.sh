#!/bin/sh
# tests/gpu/s24/c2.sh — session 24: c1.sh again with the consumers' remote
# arrivals releasing at CTA scope (as CUTLASS's cluster barriers): the run
# test, then the transposed tiles with and without pairs, and the default
# 128 x 256 tile not persistent with and without pairs.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout 200 sh tests/gpu/run.sh mma_cluster 2>&1 | tail -8
echo "run ($(($(date +%s) - t0)) s)"
W="-D SWAP=1 -D specialize=1 -D persistent=0 -D BN=128 -D warps=8"
VARIANTS="w96:-:$W -D BM=96 -D stages=7
w96c:-:$W -D BM=96 -D stages=7 -D cluster=2
w128:-:$W -D BM=128 -D stages=6
w128c:-:$W -D BM=128 -D stages=6 -D cluster=2
w160:-:$W -D BM=160 -D stages=5
w160c:-:$W -D BM=160 -D stages=5 -D cluster=2" \
SIZES="150x8192x8192 170x8192x8192 256x8192x8192 300x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT GPU_DIR=gpu-c2 timeout 330 sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515|spill' $OUT/mm.txt | grep -v "C7517\|nomap\| 0 bytes spill" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
VARIANTS="def:-:
np:-:-D persistent=0
npc:-:-D persistent=0 -D cluster=2" \
SIZES="4096x4096x4096 8192x8192x8192" \
    PAIR_ROUNDS=5 OUT=$OUT/sq GPU_DIR=gpu-c2sq timeout 200 sh tests/gpu/bench_mm_var.sh >$OUT/sq.txt 2>&1
echo "sq rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|C7514|C7515' $OUT/sq.txt | grep -v "C7517\|nomap" | cut -c1-150
grep check $OUT/sq.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
