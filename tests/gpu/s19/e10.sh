#!/bin/sh
# tests/gpu/s19/e10.sh — session 19: --codegen=llvm with its loops rotated
# (TKC_NVPTX_ROTATE=1: ptxas keeps their scalars in uniform registers) next to without and to NVRTC's PTX: matmul_bf16
# in turns with cuBLAS (bench_mm_var.sh), sdpa_bf16 in interleaved rounds
# with cuDNN (ATTN_TURNS).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
VARIANTS="nvrtc:-:
llvm:-:--codegen=llvm
rot:TKC_NVPTX_ROTATE=1:--codegen=llvm" SIZES="4096 8192" PAIR_ROUNDS=${PAIR_ROUNDS:-12} OUT=$OUT/mm \
    timeout ${MTO:-240} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -iE "^pair|check|FAIL|sass" $OUT/mm.txt | tail -12 | cut -c1-150
ATTN_TURNS=12 ATTN_ONLY=sdpa ATTN_BLOCKS=def ATTN_LLVM=1 ATTN_VARIANTS="rot:TKC_NVPTX_ROTATE=1,CG=llvm,BLOCKS=def" \
    timeout ${BTO:-250} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|turns|FAIL|rc ' $OUT/attn.txt | cut -c1-130
echo "total $(($(date +%s) - t0)) s"
