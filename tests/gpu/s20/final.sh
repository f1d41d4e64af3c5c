#!/bin/sh
# tests/gpu/s20/final.sh — session 20's closing benchmark: bench_attn.sh
# (sdpa_bf16 D=64 / 128, causal and not, and sdpa_relpos_bf16 SAM global
# and windowed, NVRTC and LLVM PTX, then every candidate again in 10
# interleaved rounds with torch's backends) and bench_mm.sh (bf16 / f16
# matmul vs cuBLAS and Triton, then matmul_bf16 in turns with cuBLAS).
cd "$(dirname "$0")/../../.." || exit 2
t0=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
ATTN_BLOCKS=def timeout ${BTO:-300} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1
echo "attn rc $? ($(($(date +%s) - t0)) s)"
grep -E '^sdpa|^  tkc|^  torch cudnn|^  \(c\)|turns|FAIL|ratio|rc ' $OUT/attn.txt | cut -c1-130
timeout ${MTO:-240} sh tests/gpu/bench_mm.sh >$OUT/mm.txt 2>&1
echo "mm rc $? ($(($(date +%s) - t0)) s)"; grep -A40 "^ratios" $OUT/mm.txt | cut -c1-130
echo "total $(($(date +%s) - t0)) s"
