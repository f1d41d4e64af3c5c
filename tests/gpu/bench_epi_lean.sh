#!/bin/sh
# tests/gpu/bench_epi_lean.sh — TKC_EPI_LEAN=0 / 1 (gpu.c, frag_store_lean:
# the epilogue of a wgmma K loop's tile that TMA does not store) on the GPU,
# both headers in the same run, rounds alternating.  stdlib matmul_bf16
# (tests/gpu/bench_mm.c: median of 7, checked at sampled elements):
#   4096^3                  NAME, TMA-stored epilogue (the hot path: unchanged)
#   4095^3                  NAME on repacked operands, the result stored by
#                           the threads (lean: the element loop)
#   4095^3, TKC_REPACK=0    NAME__nomap (lean: the element loop)
#   4096^3, TKC_TMA=0       NAME__nomap (lean: 16-byte pieces)
# then, with LIST set (default mma_odd mma_repack matmul_dtypes), those run
# tests through tests/gpu/run.sh (memcheck, the nvptx pass).  Uses build/tkc.
#
#   sh tests/gpu/bench_epi_lean.sh [ROUNDS]     (default 2)
set -u
cd "$(dirname "$0")/../.." || exit 2
TKC=${TKC:-build/tkc}
B=$(dirname "$TKC")/gpu-epi-lean
R=${1:-2}
LIST=${LIST-"mma_odd mma_repack matmul_dtypes"}
echo "epi_lean bench ($(date -u +%Y-%m-%dT%H:%MZ))"
command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for v in 0 1; do
    mkdir -p "$B/$v"
    if ! TKC_EPI_LEAN=$v TKC_LOGS=nvrtc "$TKC" stdlib/matmul.tk --target=cuda --kernel=matmul_bf16 \
         -o "$B/$v/bench.h" 2>"$B/$v/tkc.log"; then
        echo "tkc failed (TKC_EPI_LEAN=$v)"; cat "$B/$v/tkc.log"; exit 1
    fi
    echo "TKC_EPI_LEAN=$v $(sed -n 's/^\[nvrtc\] //p' "$B/$v/tkc.log")"
    ${CC:-gcc} -std=c11 -O2 -DBENCH_MODULE=tk_cuda_mod_TKC_MATMUL_TK -I "$B/$v" -o "$B/$v/bench" \
        tests/gpu/bench_mm.c -lm -ldl || exit 1
done
i=0
while [ $i -lt "$R" ]; do
    for v in 0 1; do
        "$B/$v/bench" "lean=$v" 4096 4096 4096 4095 4095 4095
        TKC_REPACK=0 "$B/$v/bench" "lean=$v,REPACK=0" 4095 4095 4095
        TKC_TMA=0 "$B/$v/bench" "lean=$v,TMA=0" 4096 4096 4096
    done
    i=$((i + 1))
done
# shellcheck disable=SC2086
[ -z "$LIST" ] || sh tests/gpu/run.sh $LIST
