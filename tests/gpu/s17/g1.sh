#!/bin/sh
# tests/gpu/s17/g1.sh — session 17's GPU calls: sdpa and sdpa_relpos in
# variants (VARS: bench_attn.sh's ATTN_VARIANTS, e.g. an older tkc as
# "base:TKC=build/tkc.base,BLOCKS=def"), matmul_bf16 in turns with cuBLAS
# (MMVARS: bench_mm_var.sh's VARIANTS), rivals in the same run; then run
# tests (TESTS), cuda and nvptx passes, each also under compute-sanitizer
# memcheck (TENV: settings for them).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
if [ "${ATTN:-1}" = 1 ]; then
    ATTN_BLOCKS=def ATTN_LLVM=${ATTN_LLVM:-0} ATTN_RELPOS=global ATTN_ONLY=${ATTN_ONLY:-all} ATTN_VARIANTS="${VARS:-}" \
        timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
    echo "bench rc $? ($(($(date +%s) - t0)) s)"; f $OUT/bench.txt
fi
if [ -n "${MMVARS:-}" ]; then
    VARIANTS="$MMVARS" SIZES="4096 8192" PAIR_ROUNDS=${PAIR_ROUNDS:-10} OUT=$OUT/mm \
        timeout ${MTO:-200} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
    echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -iE "median|ratio|tflop|FAIL" $OUT/mm.txt | tail -14 | cut -c1-140
fi
if [ -n "${TESTS:-}" ]; then
    env ${TENV:-} OUT=$OUT TTO=${TTO:-200} sh tests/gpu/run_both.sh $TESTS
fi
echo "total $(($(date +%s) - t0)) s"
