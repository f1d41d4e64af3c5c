#!/bin/sh
# tests/gpu/s20/m1.sh — session 20: matmul_bf16 with the TMA stores' last
# groups waited for once after the loop over programs (the default now)
# next to the old wait at the end of every program (TKC_EPI_WAIT_IN=1) and
# the PTX from LLVM, in turns with cuBLAS (bench_mm_var.sh); then the
# matmul run tests on the GPU (cuda and nvptx, memcheck).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
VARIANTS="new:-:
old:TKC_EPI_WAIT_IN=1:
llvm:-:--codegen=llvm" SIZES="4096 8192" PAIR_ROUNDS=${PAIR_ROUNDS:-12} OUT=$OUT/mm \
    timeout ${MTO:-240} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -iE "^pair|check|FAIL|sass" $OUT/mm.txt | tail -14 | cut -c1-160
timeout 250 sh tests/gpu/run.sh mma_ws mma_odd mma_pp matmul_dtypes >$OUT/run.txt 2>&1
echo "run rc $? ($(($(date +%s) - t0)) s)"
grep -E 'PASS|FAIL|passed' $OUT/run.txt
echo "total $(($(date +%s) - t0)) s"
