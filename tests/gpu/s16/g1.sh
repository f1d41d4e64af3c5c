#!/bin/sh
# tests/gpu/s16/g1.sh — session 16, call 1: the nvptx target's wgmma dots as
# one asm each (targets/nvptx/gen.c, asm_bound) on the GPU: the run tests
# whose kernels take wgmma (bf16, f16, tf32, s8; A from shared memory and
# from registers), the cuda and nvptx passes side by side, each also under
# compute-sanitizer memcheck; sdpa and sdpa_relpos with PTX from NVRTC and
# from LLVM, rivals in the same run; experiments: sdpa_tc's row sums by the
# tensor cores (VARS, SRC=v/ls.tk), sdpa_relpos_bf16 at 128 rows (RVARS).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
f() { grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' "$1" | cut -c1-110; }
T=${TESTS:-attention_d128 attention_d64 relpos_bf16 mma_ws matmul_dtypes tf32_tn mma_pp}
OUT=$OUT TTO=${TTO:-300} sh tests/gpu/run_both.sh $T
echo "tests ($(($(date +%s) - t0)) s)"
ATTN_BLOCKS=def ATTN_LLVM=1 ATTN_ONLY=sdpa ATTN_VARIANTS="${VARS:-}" \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/bench.txt 2>&1
echo "bench rc $? ($(($(date +%s) - t0)) s)"; f $OUT/bench.txt
ATTN_BLOCKS=def ATTN_LLVM=1 ATTN_ONLY=relpos ATTN_RELPOS=global ATTN_VARIANTS="${RVARS:-}" \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/relpos.txt 2>&1
echo "relpos rc $? ($(($(date +%s) - t0)) s)"; f $OUT/relpos.txt
echo "total $(($(date +%s) - t0)) s"
