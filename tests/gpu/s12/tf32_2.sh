#!/bin/sh
# tests/gpu/s12/tf32_2.sh — session 12, s12-tf32's second GPU call: stdlib
# matmul_tf32 computed transposed (c^T = b^T a^T, lower/gpu_wgdt.c "N-major
# A", 256 x 128 specialized persistent) through the run tests (cuda + nvptx
# passes, memcheck), then bench_tf32.sh in one run: base (the new
# matmul_tf32, twice: the spread), @mm_old (matmul_tf32 before: B rewritten
# K-major per tile), @tn_plain (the transposed form unspecialized),
# matmul_tf32_nt with transpose_f32 before it, and cuBLAS tf32 (torch).
# Uses build/tkc as it is.
set -u
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
echo "== run tests ($(date -u +%H:%M:%S))"
sh tests/gpu/run.sh dot_tf32 tf32_nt tf32_tn tf32_round matmul_dtypes mma_odd
echo "== bench ($(($(date +%s) - t0)) s so far)"
BUILDS="in - base @mm_old @tn_plain matmul_tf32_nt base" sh tests/gpu/bench_tf32.sh
echo "== $(($(date +%s) - t0)) s"
