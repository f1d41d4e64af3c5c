#!/bin/sh
# tests/gpu/s27/final.sh — session 27's closing benchmark with the closing
# code: tests/gpu/s19/final.sh (bench_attn.sh: sdpa_bf16 D=64 / 128, causal
# and not, sdpa_relpos_bf16 SAM global and windowed, 10 interleaved rounds
# with torch's backends; its "default llvm" lines are --codegen=llvm, which
# for sdpa_relpos_bf16 is now its default: @launch(llvm = true); bench_mm.sh:
# bf16 / f16 matmul vs cuBLAS and Triton, matmul_bf16 in turns with cuBLAS).
cd "$(dirname "$0")/../../.." || exit 2
BTO=${BTO:-300} MTO=${MTO:-250} OUT=$OUT sh tests/gpu/s19/final.sh
