#!/bin/sh
# tests/gpu/s18/iso.sh — session 18: the two nvptx changes one at a time
# (TKC_NVPTX_SSA=0: locals in allocas and SROA, as before; TKC_NVPTX_PSTORE=0:
# masked stores as branches) next to both and to the previous tkc's LLVM
# PTX (build/tkc.old) and NVRTC's: matmul_bf16 in turns with cuBLAS
# (bench_mm_var.sh), then sdpa (bench_attn.sh), rivals in the same run.
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
old=$PWD/build/tkc.old
VARIANTS="nvrtc:-:
llvm:-:--codegen=llvm
oldllvm:TKC=$old:--codegen=llvm
nossa:TKC_NVPTX_SSA=0:--codegen=llvm
nops:TKC_NVPTX_PSTORE=0:--codegen=llvm" SIZES="4096 8192" PAIR_ROUNDS=${PAIR_ROUNDS:-10} OUT=$OUT/mm \
    timeout ${MTO:-260} sh tests/gpu/bench_mm_var.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -iE "^pair|median|FAIL" $OUT/mm.txt | tail -16 | cut -c1-150
ATTN_BLOCKS=def ATTN_ONLY=sdpa ATTN_LLVM=1 ATTN_VARIANTS="oldllvm:TKC=$old,CG=llvm,BLOCKS=def nossa:TKC_NVPTX_SSA=0,CG=llvm,BLOCKS=def nops:TKC_NVPTX_PSTORE=0,CG=llvm,BLOCKS=def" \
    timeout ${BTO:-200} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch cudnn|FAIL|ratio|rc ' $OUT/attn.txt | cut -c1-110
echo "total $(($(date +%s) - t0)) s"
