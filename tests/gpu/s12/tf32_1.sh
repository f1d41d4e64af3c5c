#!/bin/sh
# tests/gpu/s12/tf32_1.sh — session 12, s12-tf32's first GPU call: tkc's tf32
# rounding to nearest even (never run on a GPU since the switch from ties
# away) through the run tests (cuda + nvptx passes, memcheck), then a
# baseline of bench_tf32.sh (stdlib matmul_tf32 = "base", matmul_tf32_nt with
# and without the transpose, cuBLAS tf32), same run.  Uses build/tkc as it is.
set -u
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
echo "== run tests ($(date -u +%H:%M:%S))"
sh tests/gpu/run.sh dot_tf32 tf32_nt tf32_round matmul_dtypes mma_odd
sed 's/^/    /' build/gpu/tf32_round/out 2>/dev/null | tail -12
echo "== bench ($(($(date +%s) - t0)) s so far)"
BUILDS="in - base matmul_tf32_nt =matmul_tf32_nt" sh tests/gpu/bench_tf32.sh
echo "== $(($(date +%s) - t0)) s"
