#!/bin/sh
# tests/gpu/s18/bench.sh — session 18's benchmark call (the nvptx target's
# locals as SSA values and predicated stores): memory-bound kernels with PTX
# from NVRTC and from LLVM and each compile time (bench.sh codegen); sdpa
# and sdpa_relpos with PTX from NVRTC (the plain build), from LLVM (llvm),
# and from the LLVM of the previous tkc (oldllvm: TKC=build/tkc.old), the
# rivals in the same run; bench_mm.sh (matmul_bf16 / f16 vs cuBLAS and
# Triton, bf16 also from LLVM).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
timeout ${CTO:-100} sh tests/gpu/bench.sh codegen >$OUT/codegen.txt 2>&1
echo "codegen rc $? ($(($(date +%s) - t0)) s)"; cat $OUT/codegen.txt | cut -c1-140 | tail -25
ATTN_BLOCKS=def ATTN_RELPOS=global ATTN_VARIANTS="oldllvm:TKC=$PWD/build/tkc.old,CG=llvm,BLOCKS=def" \
    timeout ${BTO:-280} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^relpos|^  tkc|^  torch cudnn|^  torch sdpa|FAIL|ratio|rc ' $OUT/attn.txt | cut -c1-110
timeout ${MTO:-170} sh tests/gpu/bench_mm.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -A30 "^ratios" $OUT/mm.txt | cut -c1-120; grep -i "compile\|FAIL" $OUT/mm.txt | head
echo "total $(($(date +%s) - t0)) s"
