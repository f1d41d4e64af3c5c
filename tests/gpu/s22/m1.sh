#!/bin/sh
# tests/gpu/s22/m1.sh — session 22: atomic_add used as a value on the GPU
# (tests/run/arrive: tickets, split-K matmuls whose last program sums the
# parts; both PTX sources, compute-sanitizer), then stdlib
# matmul_splitk_bf16 (SPLIT 2-4, 64 x 128 and 64 x 256 tiles) next to the
# few-rows dispatch header of matmul_bf16 (stdlib/matmul.tktune), in turns
# with cuBLAS, M = 1 .. 300 at N = K = 8192 and 16 / 256 at 4096.
# Needs tests/gpu/s22/splitk.patch applied (the kernel was not kept).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
[ -n "${SKIP_RUN:-}" ] || timeout 240 sh tests/gpu/run.sh arrive 2>&1 | tail -8
echo "run tests ($(($(date +%s) - t0)) s)"
T="--max-autotune --tune-table stdlib/matmul.tktune $(sed -n 's/^matmul_bf16@cuda \(M=[^ ]*\) .*/--tune \1/p' stdlib/matmul.tktune | tr '\n' ' ')"
K=--kernel=matmul_splitk_bf16
Z="1x8192x8192 16x8192x8192 64x8192x8192 128x8192x8192 129x8192x8192 200x8192x8192 256x8192x8192 300x8192x8192 16x4096x4096 256x4096x4096"
VARIANTS="disp:-:$T
s2:-:$K
s3:-:$K -D SPLIT=3
s4:-:$K -D SPLIT=4
w2:-:$K -D BN=256 -D stages=4
w3:-:$K -D BN=256 -D stages=4 -D SPLIT=3
w4:-:$K -D BN=256 -D stages=4 -D SPLIT=4" SIZES="$Z" PAIR_ROUNDS=6 OUT=$OUT GPU_DIR=gpu-m1 \
    timeout ${BTO:-400} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"
grep -E 'pair|failed|FAIL|rror|ptxas: ptxas info *: Used' $OUT/mm.txt | grep -v "C7517" | cut -c1-150
grep -c "check.*ok" $OUT/mm.txt; grep check $OUT/mm.txt | grep -v ok
echo "total $(($(date +%s) - t0)) s"
