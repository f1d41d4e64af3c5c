#!/bin/sh
# tests/gpu/tf32_tmaround.sh — TKC_WGDT_TMAROUND (tf32 operands rounded by
# TMA as it copies them: maps of data type TFLOAT32, lower/gpu_wgdt.c "TMA
# rounds"; on by default) on a GPU, in one call:
#   1. which rounding the TMA unit applies: run test tf32_round
#      (tests/run/tf32_round.c: every element of each operand of
#      matmul_tf32_nt against nearest even, ties away and truncation) with
#      the knob off (the kernel rounds) and on, its verdict lines; tf32_nt
#      with the knob on (random operands and two ties);
#   2. bench_tf32.sh: matmul_tf32_nt with the transpose before it and alone,
#      TMA rounding (in), rounding in place (ip: TKC_WGDT_TMAROUND=0) and
#      TMA rounding with A read from shared memory as TMA left it (tma),
#      next to cuBLAS tf32 (torch), same run.
# SHAPES and BUILDS as bench_tf32.sh's (defaults: 4096^3 and 8192^3, the
# three builds).  No memcheck, no nvptx pass.  Uses build/tkc as it is.
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
case $TKC in /*) ;; *) TKC=$PWD/$TKC ;; esac
G=$(dirname "$TKC")/gpu
t0=$(date +%s)
for on in 0 1; do
    echo "== TKC_WGDT_TMAROUND=$on: run tests"
    tests="tf32_round"; [ $on = 1 ] && tests="tf32_round tf32_nt"
    # shellcheck disable=SC2086
    TKC_WGDT_TMAROUND=$on SANITIZE=0 TKC_GPU_NVPTX=0 sh tests/gpu/run.sh $tests
    sed 's/^/    /' "$G/tf32_round/out" 2>/dev/null
done
echo "== bench ($(($(date +%s) - t0)) s so far)"
SHAPES=${SHAPES:-"4096 4096 4096 8192 8192 8192"} \
BUILDS=${BUILDS:-"in - matmul_tf32_nt =matmul_tf32_nt;
ip TKC_WGDT_TMAROUND=0 matmul_tf32_nt =matmul_tf32_nt;
tma TKC_WGDT_BKRA=0 matmul_tf32_nt =matmul_tf32_nt"} sh tests/gpu/bench_tf32.sh
echo "== $(($(date +%s) - t0)) s"
