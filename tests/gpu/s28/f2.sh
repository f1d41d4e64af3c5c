#!/bin/sh
# tests/gpu/s28/f2.sh — a dot off the tensor cores reading its loaded
# operands through shared memory (lower/gpu.c plan_dot_reads) instead of
# again from global memory at every k (TKC_DOT_RELOAD=1): the run tests
# whose CUDA changed, cuda and nvptx, each + memcheck; stdlib's f32 sdpa on
# the GPU and the host CPU (f32.sh).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
timeout 250 sh tests/gpu/run.sh arrive atomics dot_i8 dot_tf32 matmul mma_swap promote 2>&1 \
    | grep -E "^(PASS|FAIL|SKIP)|passed|failed" | tail -40
echo "tests ($(($(date +%s) - t0)) s)"
timeout 250 sh tests/gpu/s28/f32.sh 2>&1 | grep -v "^#\|GFLOP/s\]\|C reference\|bench: done"
echo "total $(($(date +%s) - t0)) s"
