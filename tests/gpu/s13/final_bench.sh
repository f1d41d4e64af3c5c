#!/bin/sh
# tests/gpu/s13/final_bench.sh — the session's closing figures, rivals in the
# same run: sdpa (kernels' own blocks, NVRTC), sdpa_relpos (SAM global and
# windowed), bf16 / f16 matmul; full outputs in $OUT.
cd "$(dirname "$0")/../../.." || exit 2
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader
f() { grep -E '^sdpa|^  tkc|^  torch|^  \(c\)|ratio|vs \(c\)|^bf16|^f16|cuBLAS|Triton|TFLOP|FAIL|rc ' "$1" | cut -c1-120; }
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=sdpa timeout ${ATO:-90} sh tests/gpu/bench_attn.sh >$OUT/attn.txt 2>&1; echo "rc $?" >>$OUT/attn.txt
ATTN_BLOCKS=def ATTN_LLVM=0 ATTN_ONLY=relpos timeout ${RTO:-90} sh tests/gpu/bench_attn.sh >$OUT/relpos.txt 2>&1; echo "rc $?" >>$OUT/relpos.txt
timeout ${MTO:-120} sh tests/gpu/bench_mm.sh >$OUT/mm.txt 2>&1; echo "rc $?" >>$OUT/mm.txt
for x in attn relpos mm; do echo "== $x"; f $OUT/$x.txt; done
