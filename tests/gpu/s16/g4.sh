#!/bin/sh
# tests/gpu/s16/g4.sh — session 16, call 6: mbarrier waits with try_wait's
# suspend-time hint (TKC_MBAR_SUSPEND=N ns, lower/gpu_mma.c mbar_wait)
# against the spinning waits: sdpa and sdpa_relpos (VARS), matmul_bf16 in
# turns with cuBLAS (bench_mm_var.sh, MMVARS), rivals in the same run; the
# run tests whose kernels wait on mbarriers with the hint on, cuda and nvptx
# passes, each also under compute-sanitizer memcheck (TENV: settings for them).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_RELPOS=global ATTN_VARIANTS="${VARS:-}" \
    timeout ${BTO:-250} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"; f $OUT/bench.txt
if [ -n "${MMVARS:-}" ]; then
    VARIANTS="$MMVARS" SIZES="4096 8192" PAIR_ROUNDS=${PAIR_ROUNDS:-10} OUT=$OUT/mm \
        timeout ${MTO:-200} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
    echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -iE "median|ratio|tflop|FAIL" $OUT/mm.txt | tail -12 | cut -c1-140
fi
if [ -n "${TESTS:-}" ]; then
    env ${TENV:-} OUT=$OUT TTO=${TTO:-200} sh tests/gpu/run_both.sh $TESTS
fi
echo "total $(($(date +%s) - t0)) s"
