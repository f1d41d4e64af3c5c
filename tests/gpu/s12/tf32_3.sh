#!/bin/sh
# tests/gpu/s12/tf32_3.sh — for the coordinator's GPU call (s12-tf32 used its
# two): the transposed tf32 matmul (c^T = b^T a^T, TKC_WGDT_AN=1,
# lower/gpu_wgdt.c "N-major A") after the fixes that followed
# doc/bench/h100-s12-tf32-2.log, where its cuda pass was wrong.
#   1. run test tf32_tn with TKC_WGDT_AN=1 (cuda + nvptx passes, memcheck)
#      and matmul_dtypes (stdlib matmul_tf32 as it is);
#   2. bench_tf32.sh in one run: stdlib matmul_tf32 (base, the old form),
#      @tn_ws (the transposed form, 256 x 128 specialized persistent: what
#      stdlib matmul_tf32 would become), @tn_plain (unspecialized), twice
#      for the spread, matmul_tf32_nt with the transpose, cuBLAS tf32.
# If tf32_tn passes and @tn_ws is >= 0.8x cuBLAS: set TKC_WGDT_AN's default
# to 1 (lower/gpu_wgdt.c gpu_wgdt_an, lower/knob.c) and give stdlib
# matmul_tf32 tn_ws's body and @launch (tests/gpu/bench_tf32.tk).
# About 90 s on an H100.  Uses build/tkc as it is.
set -u
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
echo "== run tests ($(date -u +%H:%M:%S))"
TKC_WGDT_AN=1 sh tests/gpu/run.sh tf32_tn
sh tests/gpu/run.sh matmul_dtypes
echo "== bench ($(($(date +%s) - t0)) s so far)"
BUILDS="in - base matmul_tf32_nt;
an TKC_WGDT_AN=1 @tn_ws @tn_plain @tn_ws" sh tests/gpu/bench_tf32.sh
echo "== $(($(date +%s) - t0)) s"
